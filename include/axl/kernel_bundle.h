/*
 * axl/kernel_bundle.h - kernel ids, kernel bundles, device images and
 * kernels (spec 4.11, seed 000), and the kernel_compiler extension with
 * xclbin as a binary source language (seed 003).
 *
 * On an FPGA a kernel is a hardware IP in a precompiled xclbin image, and
 * each compute unit of the image's IP_LAYOUT runs it. There is no online
 * compiler or linker (aspects online_compiler and online_linker are false),
 * so bundles exist in the executable state, plus the ext_oneapi_source state
 * of bundles made from image bytes at run time. Two sources of kernels:
 *
 *  - device built-in kernels: the design the device carries (the image the
 *    board names, already on the device). Listed by the device's
 *    AXL_DEVICE_INFO_BUILT_IN_KERNEL_IDS; compatible with that device only.
 *  - application kernels: the images the application registers at start-up
 *    with axl_image_register (bytes linked into the firmware or read from
 *    flash). Listed by axl_get_kernel_ids.
 *
 * A device carries one design at a time. Making an executable bundle
 * programs each of its devices with the bundle's first image compatible
 * with it (waiting first for the commands already on that device), so the
 * reconfiguration happens there, not at a submit. A design the
 * application holds is never replaced: while a live executable bundle (or
 * a kernel object the application still holds of a released one) runs
 * its kernels from the design a device carries, a bundle that needs
 * another design there is AXL_ERR_BAD_STATE, naming that bundle or
 * kernel, and changes nothing (4.11: an executable bundle's kernels can
 * be invoked; displacing them would make is_compatible and a launch
 * disagree). Release them, and the next bundle programs the device. A
 * kernel whose image the device does not carry (one of a bundle obtained
 * without ids, see axl_get_kernel_bundle) is AXL_ERR_KERNEL_NOT_SUPPORTED
 * at submit.
 *
 * Lists follow the convention of platform.h (out == NULL asks the count).
 */
#ifndef AXL_KERNEL_BUNDLE_H
#define AXL_KERNEL_BUNDLE_H

#include <stddef.h>
#include <stdint.h>

#include "axl/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** bundle_state (4.11, seed 003's ext_oneapi_source). */
typedef enum axl_bundle_state {
    AXL_BUNDLE_INPUT = 0,
    AXL_BUNDLE_OBJECT = 1,
    AXL_BUNDLE_EXECUTABLE = 2,
    AXL_BUNDLE_SOURCE = 3 /**< ext_oneapi_source */
} axl_bundle_state;

/** source_language (seed 003): the languages axl can build. */
typedef enum axl_source_language {
    /** An xclbin image given as bytes: a binary language. */
    AXL_SOURCE_XCLBIN = 1
} axl_source_language;

/* ---- Images the application carries ------------------------------------------ */

/**
 * Registers an application image: its kernels get kernel ids and join
 * get_kernel_ids(). The bytes are read in place (never copied): they must
 * stay valid and unchanged until axl_shutdown. A malformed image is
 * AXL_ERR_INVALID with the reader's reason; nothing is registered.
 * Registering the same image (same UUID) twice returns AXL_SUCCESS and adds
 * nothing.
 */
axl_status axl_image_register(const void *bytes, size_t size);

/**
 * Hosted ports (posix): reads the xclbin at path and registers it as
 * axl_image_register does, in one call; the bytes are the runtime's
 * until axl_shutdown. A file that cannot be read is AXL_ERR_INVALID
 * naming it; bytes that are not an xclbin, AXL_ERR_INVALID with the
 * reader's reason. AXL_ERR_FEATURE_NOT_SUPPORTED on ports with no files
 * (bare metal: link the image in, or read it from flash, and call
 * axl_image_register).
 */
axl_status axl_image_register_file(const char *path);

/* ---- Kernel ids (4.11.4) --------------------------------------------------------- */

/** get_kernel_ids(): every kernel of the registered application images. */
axl_status axl_get_kernel_ids(axl_kernel_id *out, uint32_t cap,
                              uint32_t *count);

/** kernel_id::get_name(): the kernel's name, valid until axl_shutdown. */
axl_status axl_kernel_id_get_name(axl_kernel_id id, const char **name);

/** The application kernel called name (the first registered), or
 *  AXL_ERR_INVALID. An axl convenience for C, where kernels have no type
 *  names. */
axl_status axl_get_kernel_id(const char *name, axl_kernel_id *id);

/** The built-in kernel called name of the design the device carries (one
 *  of its built_in_kernel_ids, 4.6.4.2), or AXL_ERR_INVALID naming the
 *  device. The same convenience as axl_get_kernel_id, for the kernels that
 *  are not registered but come with the device. */
axl_status axl_get_built_in_kernel_id(axl_device device, const char *name,
                                      axl_kernel_id *id);

/** is_compatible(kernelIds, dev). */
axl_status axl_is_compatible(const axl_kernel_id *ids, uint32_t count,
                             axl_device device, bool *compatible);

/* ---- Obtaining bundles (4.11.6) -------------------------------------------------------
 * devices == NULL with ndevices == 0 means the context's devices (the
 * overloads without a device list). Each call follows its Throws list in
 * seed 000: AXL_ERR_INVALID for an empty device list, a device outside the
 * context, the input state on a device without online_compiler, the object
 * state on one without online_linker, or (with ids) a kernel compatible
 * with none of the devices. */

/** get_kernel_bundle<State>(ctxt, devs). A firmware calls it to list its
 *  kernels: it programs a device only where no design the application
 *  holds is there (see the top of this file), and succeeds either way;
 *  a kernel of it then says whether it runs (axl_kernel_info.runnable). */
axl_status axl_get_kernel_bundle(axl_context context,
                                 const axl_device *devices, uint32_t ndevices,
                                 axl_bundle_state state,
                                 axl_kernel_bundle *bundle);

/** get_kernel_bundle<State>(ctxt, devs, kernelIds). Programs the devices
 *  with the kernels' design; AXL_ERR_BAD_STATE, naming the holder, while
 *  the application holds another design there (see the top of this
 *  file). */
axl_status axl_get_kernel_bundle_for(axl_context context,
                                     const axl_device *devices,
                                     uint32_t ndevices,
                                     const axl_kernel_id *ids, uint32_t nids,
                                     axl_bundle_state state,
                                     axl_kernel_bundle *bundle);

/** Where a bundle's design loads on a device with DFX slots (issue 40,
 *  docs/several-designs.md): slot `slot` (0-based, the shell's order) of
 *  `device`, or -1 for any (the default: an empty slot, else one whose
 *  design nobody holds, else one whose design is idle, least recently
 *  loaded first). A design with an image for several slots (variants:
 *  the same kernels linked for each slot, each registered with
 *  axl_image_register) goes to the one named, now: out of the slot it is
 *  in, and into the named one when that displaces nothing held or
 *  running (else at its first command); its later loads go there too.
 *  AXL_ERR_INVALID, nothing changed: a device not the bundle's, a slot it
 *  does not have (without AXL_FEATURE_DESIGN_SWAP none has any: only -1
 *  is taken), a design with no image for that slot, a bundle of two
 *  partial designs. AXL_ERR_BAD_STATE, nothing changed: the design runs,
 *  or has commands waiting, in the slot it is in; or an open IP or a
 *  pipeline pins it there. */
axl_status axl_kernel_bundle_place(axl_kernel_bundle bundle,
                                   axl_device device, int32_t slot);

/** A device-image selector: keep the image in the new bundle or not. */
typedef bool (*axl_image_selector_fn)(axl_device_image image, void *user);

/** get_kernel_bundle<State>(ctxt, devs, selector): the selector sees each
 *  application image compatible with one of the devices (not built-in
 *  ones), without any runtime lock held. Programs as
 *  axl_get_kernel_bundle_for does. */
axl_status axl_get_kernel_bundle_selected(axl_context context,
                                          const axl_device *devices,
                                          uint32_t ndevices,
                                          axl_bundle_state state,
                                          axl_image_selector_fn selector,
                                          void *user,
                                          axl_kernel_bundle *bundle);

/** has_kernel_bundle<State>(ctxt, devs [, kernelIds]); ids may be NULL with
 *  nids 0 for the overload without them. */
axl_status axl_has_kernel_bundle(axl_context context,
                                 const axl_device *devices, uint32_t ndevices,
                                 const axl_kernel_id *ids, uint32_t nids,
                                 axl_bundle_state state, bool *has);

/* ---- Joining, compiling, linking, building (4.11.10, 4.11.11) ----------------------- */

/** join(bundles): one bundle with every device image of the inputs, without
 *  duplicates. All must share their state, context and devices. */
axl_status axl_kernel_bundle_join(const axl_kernel_bundle *bundles,
                                  uint32_t count, axl_kernel_bundle *joined);

/** compile(inputBundle, devs): needs a bundle in the input state, which no
 *  axl device can produce; the errors are the ones seed 000 lists. */
axl_status axl_kernel_bundle_compile(axl_kernel_bundle input,
                                     const axl_device *devices,
                                     uint32_t ndevices,
                                     axl_kernel_bundle *object);

/** link(objectBundles, devs): needs bundles in the object state. */
axl_status axl_kernel_bundle_link(const axl_kernel_bundle *objects,
                                  uint32_t count, const axl_device *devices,
                                  uint32_t ndevices,
                                  axl_kernel_bundle *executable);

/** Build properties (seed 003): build_options and save_log. */
typedef struct axl_build_props {
    /** build_options. For xclbin: "--uuid=<32 hex digits>" fails the build
     *  unless the image has that UUID; "--require-kernel=<name>" fails it
     *  unless the image defines that kernel. Anything else is
     *  AXL_ERR_INVALID (an invalid option). */
    const char *const *options;
    uint32_t noptions;
    /** save_log: the whole build log, on success and on failure
     *  (NUL-terminated, truncated only by log_size; axl_last_message()
     *  begins it, cut at AXL_MESSAGE_MAX). May be NULL. */
    char *log;
    size_t log_size;
} axl_build_props;

/**
 * build(bundle, devs, props): for a source bundle (seed 003), checks the
 * image and programs the devices with it; a bad image is AXL_ERR_BUILD and
 * axl_last_message() holds the log that says why. A device whose design
 * the application holds is AXL_ERR_BAD_STATE (the image is good: build
 * again once it is let go; see the top of this file). For an input bundle
 * (seed 000), the errors seed 000 lists. props may be NULL.
 */
axl_status axl_kernel_bundle_build(axl_kernel_bundle bundle,
                                   const axl_device *devices,
                                   uint32_t ndevices,
                                   const axl_build_props *props,
                                   axl_kernel_bundle *executable);

/* ---- The kernel_compiler extension (seed 003) ------------------------------------- */

/** device::ext_oneapi_can_compile(lang). */
axl_status axl_device_can_compile(axl_device device, axl_source_language lang,
                                  bool *can);

/**
 * create_kernel_bundle_from_source(ctxt, lang, bytes): a bundle in the
 * source state on every device of the context. The bytes are not checked
 * yet (build does that) and are read in place: keep them valid while the
 * bundle or any bundle built from it lives. AXL_ERR_INVALID if no device
 * of the context supports the language.
 */
axl_status axl_kernel_bundle_create_from_source(axl_context context,
                                                axl_source_language lang,
                                                const void *bytes, size_t size,
                                                axl_kernel_bundle *bundle);

/** ext_oneapi_has_kernel(name): true only for a bundle built from a source
 *  bundle that defines the kernel. */
axl_status axl_kernel_bundle_ext_has_kernel(axl_kernel_bundle bundle,
                                            const char *name, bool *has);

/** ext_oneapi_get_kernel(name): executable bundles only; AXL_ERR_INVALID if
 *  ext_oneapi_has_kernel(name) is false. Release the kernel. */
axl_status axl_kernel_bundle_ext_get_kernel(axl_kernel_bundle bundle,
                                            const char *name,
                                            axl_kernel *kernel);

/* ---- Bundle queries (4.11.9) ------------------------------------------------------ */

axl_status axl_kernel_bundle_retain(axl_kernel_bundle bundle);
axl_status axl_kernel_bundle_release(axl_kernel_bundle bundle);
axl_status axl_kernel_bundle_get_state(axl_kernel_bundle bundle,
                                       axl_bundle_state *state);
axl_status axl_kernel_bundle_get_context(axl_kernel_bundle bundle,
                                         axl_context *context);
axl_status axl_kernel_bundle_get_devices(axl_kernel_bundle bundle,
                                         axl_device *out, uint32_t cap,
                                         uint32_t *count);
/** empty(): no device images. */
axl_status axl_kernel_bundle_is_empty(axl_kernel_bundle bundle, bool *empty);
/** has_kernel(id) and, with a device, has_kernel(id, dev); pass AXL_NO_DEVICE
 *  as device for the first. */
axl_status axl_kernel_bundle_has_kernel(axl_kernel_bundle bundle,
                                        axl_kernel_id id, axl_device device,
                                        bool *has);
/** get_kernel_ids(): empty for a bundle built from source (seed 003). */
axl_status axl_kernel_bundle_get_kernel_ids(axl_kernel_bundle bundle,
                                            axl_kernel_id *out, uint32_t cap,
                                            uint32_t *count);
/** get_kernel(id): executable bundles only; AXL_ERR_INVALID if the bundle
 *  does not have the kernel. Release the kernel. */
axl_status axl_kernel_bundle_get_kernel(axl_kernel_bundle bundle,
                                        axl_kernel_id id, axl_kernel *kernel);
/** begin()/end(): the bundle's device images. Images need no release. */
axl_status axl_kernel_bundle_get_images(axl_kernel_bundle bundle,
                                        axl_device_image *out, uint32_t cap,
                                        uint32_t *count);

/** device_image::has_kernel(id [, dev]); AXL_NO_DEVICE as device for the first. */
axl_status axl_device_image_has_kernel(axl_device_image image,
                                       axl_kernel_id id, axl_device device,
                                       bool *has);
/** The image's UUID (16 bytes), to tell images apart in a selector. */
axl_status axl_device_image_get_uuid(axl_device_image image,
                                     uint8_t uuid[16]);

/* ---- Kernels --------------------------------------------------------------------- */

axl_status axl_kernel_retain(axl_kernel kernel);
axl_status axl_kernel_release(axl_kernel kernel);

/** The kernel's id (for a kernel built from source: AXL_ERR_INVALID, it has
 *  none, seed 003). */
axl_status axl_kernel_get_id(axl_kernel kernel, axl_kernel_id *id);

/** Kinds of kernel arguments. */
typedef enum axl_arg_kind {
    AXL_ARG_SCALAR = 0, /**< bytes passed by value */
    AXL_ARG_BUFFER = 1, /**< an accessor to a buffer in global memory */
    /** An AXI4-Stream port (addressQualifier 4): joined to another unit's
     *  port by the design (axl_xclbin_port_stream), never set by the host. */
    AXL_ARG_STREAM = 2
} axl_arg_kind;

/** Kernel information. */
typedef struct axl_kernel_info {
    char name[64];
    uint32_t num_args;
    uint32_t compute_units; /**< instances of the IP in the image */
    /** The kernel runs now: every device of its bundle carries its design.
     *  Always true for a kernel of a bundle obtained for kernels, a
     *  selector or a build while it or the kernel lives (its design is not
     *  replaced then); false for one of a bundle obtained without ids on a
     *  device whose design the application held. Get a bundle for the
     *  kernel (axl_get_kernel_bundle_for) to program it. */
    bool runnable;
    /** Its design is in a region of every device of its bundle now (in
     *  the padding after runnable: the structure keeps its size and its
     *  fields their offsets). On a device that reprograms on demand a
     *  kernel may be runnable and not loaded: its first command loads it
     *  (docs/designs-design.md 2.4); a swap to another design clears it. */
    bool loaded;
    /** The units this kernel object runs on: bit cu for unit cu (as
     *  axl_kernel_get_cu_info numbers them); all of them unless it was
     *  made by axl_kernel_select_units. */
    uint32_t cu_mask;
    /** Its control protocol (axl_xclbin_ip_control: the kernel XML's
     *  hwControlProtocol; axl_xclbin_control_name names it). An
     *  ap_ctrl_none kernel runs from reset and is never launched. */
    uint32_t control;
    /** The slot of a shell its design is loaded in now (0-based, on the
     *  first of its bundle's devices that has a shell and carries it);
     *  -1 when it fills the whole fabric or a shell's static part, or is
     *  in no slot now (its next command loads it). */
    int32_t slot;
} axl_kernel_info;

typedef struct axl_kernel_arg_info {
    char name[48];
    uint32_t index;          /**< what axl_handler_set_arg takes */
    axl_arg_kind kind;
    uint32_t size;           /**< scalar bytes (hostSize); 8 for a buffer */
    uint64_t offset;         /**< register offset in the control map */
} axl_kernel_arg_info;

axl_status axl_kernel_get_info(axl_kernel kernel, axl_kernel_info *info);

/** One compute unit of a kernel, as its image describes it (the units of
 *  XRT's "vadd:{vadd_1,vadd_2}"), cu 0..compute_units-1 in IP_LAYOUT
 *  order. */
typedef struct axl_kernel_cu_info {
    char name[64];          /**< the instance: "vadd_1" */
    uint32_t ip_index;      /**< its IP_LAYOUT index */
    uint64_t base_address;  /**< its control registers */
} axl_kernel_cu_info;

axl_status axl_kernel_get_cu_info(axl_kernel kernel, uint32_t cu,
                                  axl_kernel_cu_info *info);

/**
 * The memories argument `index` of unit `cu` reaches, from CONNECTIVITY:
 * bit m set for MEM_TOPOLOGY index m; *tag (may be NULL, tag_size bytes)
 * gets the lowest one's tag, such as "bank1" or "HBM[3]". 0 for a scalar.
 * cu counts the kernel's units (axl_kernel_get_cu_info); one this kernel
 * object does not run on (axl_kernel_select_units) is AXL_ERR_INVALID,
 * naming those it runs on. For the memory of the object's own units in
 * one call, XRT's group_id, see axl_kernel_get_arg_bank.
 */
axl_status axl_kernel_get_arg_memories(axl_kernel kernel, uint32_t cu,
                                       uint32_t index, uint64_t *memories,
                                       char *tag, size_t tag_size);

/** Where a buffer argument goes for a kernel object (axl_kernel_get_arg_bank). */
typedef struct axl_kernel_arg_bank {
    uint32_t memory;   /**< MEM_TOPOLOGY index: XRT's memory group */
    /** The device's bank of it, which axl_buffer_place takes; UINT32_MAX
     *  when the device does not carry the kernel's design now. */
    uint32_t bank;
    uint64_t memories; /**< every memory all its units reach (bit m: index m) */
    char tag[24];      /**< the memory's tag: "DDR[1]", "PLRAM[0]", "bank0" */
} axl_kernel_arg_bank;

/**
 * XRT's kernel::group_id(argno) in one call: the memory argument `index`
 * (as axl_handler_set_arg takes it) reaches from every unit this kernel
 * object runs on (all the kernel's units, or those axl_kernel_select_units
 * kept), the lowest MEM_TOPOLOGY index of them, its tag, and the bank of
 * `device` it is (AXL_NO_DEVICE: the first device of the kernel's bundle):
 * place a buffer there (axl_buffer_place) and every unit of the object can
 * run with it. A design without CONNECTIVITY reaches every memory
 * (memory 0). A scalar argument is AXL_ERR_INVALID; units with no memory
 * in common for the argument are AXL_ERR_KERNEL_ARGUMENT, naming each
 * unit and what it reaches (select the units that share one). *bank is
 * written only on success.
 */
axl_status axl_kernel_get_arg_bank(axl_kernel kernel, uint32_t index,
                                   axl_device device,
                                   axl_kernel_arg_bank *bank);
axl_status axl_kernel_get_arg_info(axl_kernel kernel, uint32_t index,
                                   axl_kernel_arg_info *info);

/**
 * A kernel object of the same kernel that runs only on the named units,
 * as XRT's `xrt::kernel(device, uuid, "vadd:{vadd_1,vadd_2}")`. units is
 * "vadd:{vadd_1,vadd_2}", "{vadd_1,vadd_2}" or "vadd_1,vadd_2" (instance
 * names from the image's IP_LAYOUT, see axl_kernel_get_cu_info; spaces
 * around names are ignored). Every launch of the new object, by either
 * path, runs on one of those units: the unit chosen at dispatch is a free
 * one of the set that reaches the command's buffers, and a buffer must be
 * in a bank one of them reaches (else AXL_ERR_KERNEL_ARGUMENT at submit).
 * A name that is not a unit of the kernel (or, for a kernel object that
 * is itself restricted, not one of its units), a kernel name that is not
 * this kernel's, or an empty list is AXL_ERR_INVALID with a message
 * listing the units there are, and nothing is made. Release the new
 * object; the original is unchanged.
 */
axl_status axl_kernel_select_units(axl_kernel kernel, const char *units,
                                   axl_kernel *selected);

/**
 * get_kernel by name from an executable bundle: "vadd" for the kernel on
 * all its units, "vadd:{vadd_1,vadd_2}" for some of them (as
 * axl_kernel_select_units). A name no kernel of the bundle has is
 * AXL_ERR_INVALID naming the bundle's kernels. Release the kernel.
 */
axl_status axl_kernel_bundle_get_kernel_by_name(axl_kernel_bundle bundle,
                                                const char *name,
                                                axl_kernel *kernel);

#ifdef __cplusplus
}
#endif

#endif /* AXL_KERNEL_BUNDLE_H */
