/*
 * axl/device.h - devices, their information and device selection
 * (spec 4.6.1, 4.6.4).
 *
 * A device is one FPGA (or one emulated FPGA) as a device port sees it. Its
 * compute units are the kernel instances of the design loaded on it.
 */
#ifndef AXL_DEVICE_H
#define AXL_DEVICE_H

#include "axl/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * info::device descriptors (spec 4.6.4.2) that mean something on an FPGA.
 * The value type of each is given; numbers are written in that exact type
 * (value_size must be at least its size), strings NUL-terminated, lists as
 * arrays of the element type.
 */
typedef enum axl_device_info {
    AXL_DEVICE_INFO_DEVICE_TYPE = 0,        /**< axl_device_type */
    AXL_DEVICE_INFO_VENDOR_ID,              /**< uint32_t */
    AXL_DEVICE_INFO_MAX_COMPUTE_UNITS,      /**< uint32_t: compute units of
                                                 the loaded design, at least 1 */
    AXL_DEVICE_INFO_MAX_CLOCK_FREQUENCY,    /**< uint32_t, MHz */
    AXL_DEVICE_INFO_ADDRESS_BITS,           /**< uint32_t: 64 */
    AXL_DEVICE_INFO_GLOBAL_MEM_SIZE,        /**< uint64_t: all banks */
    AXL_DEVICE_INFO_MAX_MEM_ALLOC_SIZE,     /**< uint64_t: largest bank */
    AXL_DEVICE_INFO_MEM_BASE_ADDR_ALIGN,    /**< uint32_t, bits */
    AXL_DEVICE_INFO_PROFILING_TIMER_RESOLUTION, /**< uint64_t, ns */
    AXL_DEVICE_INFO_IS_AVAILABLE,           /**< bool */
    AXL_DEVICE_INFO_IS_COMPILER_AVAILABLE,  /**< bool: false, no online compiler */
    AXL_DEVICE_INFO_IS_LINKER_AVAILABLE,    /**< bool: false, no online linker */
    AXL_DEVICE_INFO_QUEUE_PROFILING,        /**< bool */
    AXL_DEVICE_INFO_BUILT_IN_KERNEL_IDS,    /**< axl_kernel_id[] */
    AXL_DEVICE_INFO_BUILT_IN_KERNELS,       /**< string: names separated by ';' */
    AXL_DEVICE_INFO_PLATFORM,               /**< axl_platform */
    AXL_DEVICE_INFO_NAME,                   /**< string */
    AXL_DEVICE_INFO_VENDOR,                 /**< string */
    AXL_DEVICE_INFO_DRIVER_VERSION,         /**< string */
    AXL_DEVICE_INFO_VERSION,                /**< string: the SYCL version, "2020" */
    AXL_DEVICE_INFO_BACKEND_VERSION,        /**< string */
    AXL_DEVICE_INFO_ASPECTS,                /**< axl_aspect[] */
    AXL_DEVICE_INFO_MEMORY_BANKS,           /**< uint32_t: axl extension */
    /** DFX shells (axl extension, issue 40; axl/shell.h): */
    AXL_DEVICE_INFO_SLOTS,                  /**< uint32_t: its shell's
                                                 slots, 0 without a shell */
    AXL_DEVICE_INFO_SHELL,                  /**< string: its shell's name,
                                                 "" without one */
    AXL_DEVICE_INFO_SHELL_UUID,             /**< uint8_t[16]: the interface
                                                 UUID its partials name
                                                 (zeros without a shell) */
    AXL_DEVICE_INFO_COUNT
} axl_device_info;

/** device::get_devices(type). */
axl_status axl_device_get_all(axl_device_type type, axl_device *out,
                              uint32_t cap, uint32_t *count);

/** device::get_info; same size-in/size-out rules as axl_platform_get_info. */
axl_status axl_device_get_info(axl_device device, axl_device_info param,
                               void *value, size_t value_size,
                               size_t *size_ret);

/** device::has(aspect). */
axl_status axl_device_has(axl_device device, axl_aspect aspect, bool *has);

/** What a region of a device's fabric holds (axl extension, issue 40,
 *  docs/designs-design.md 4; axl/shell.h). */
typedef enum axl_region_state {
    AXL_REGION_EMPTY = 0,   /**< no design the runtime knows */
    AXL_REGION_LOADED,      /**< a design is there */
    AXL_REGION_LOADING      /**< a design is being loaded */
} axl_region_state;

typedef struct axl_region_info {
    int32_t slot;            /**< its slot in the device's shell; -1: the
                                  whole fabric, or the shell's static part */
    char name[16];           /**< "fabric", "static", "RP_0" */
    axl_region_state state;
    uint8_t design_uuid[16]; /**< the UUID of the image loaded there (a
                                  slot: the design's image for that
                                  slot, a variant's own); zeros: none */
    char design[32];         /**< its design's first kernel, "" none */
    bool held;               /**< the application holds that design (a
                                  bundle, or a kernel, IP or pipeline of
                                  one); false where designs never swap
                                  (AXL_FEATURE_DESIGN_SWAP 0) */
    uint32_t runs;           /**< kernel runs out on its units now */
    uint32_t loads;          /**< designs loaded into it since the
                                  device opened (0 where designs never
                                  swap) */
    uint32_t waiting;        /**< commands waiting for a design there */
} axl_region_info;

/**
 * The regions of a device: region 0 (the whole fabric, or a DFX shell's
 * static part), then each slot of its shell in order. A list output:
 * out NULL asks the count; a cap too small fails.
 */
axl_status axl_device_get_regions(axl_device device, axl_region_info *out,
                                  uint32_t cap, uint32_t *count);

axl_status axl_device_get_platform(axl_device device, axl_platform *platform);
axl_status axl_device_get_backend(axl_device device, axl_backend *backend);

/** One memory bank of a device (an axl extension of device info). */
typedef struct axl_device_bank {
    char tag[24];
    uint64_t size;
    uint64_t base_address;
} axl_device_bank;

axl_status axl_device_get_bank(axl_device device, uint32_t index,
                               axl_device_bank *bank);

/**
 * A device selector (spec 4.6.1.1): a score for a device. The device with
 * the highest score is chosen; a negative score rejects a device. Called
 * without any runtime lock held, so it may query the device.
 */
typedef int (*axl_selector_fn)(axl_device device, const void *user);

/**
 * Calls the selector on every device and picks the highest score (the
 * first in enumeration order on a tie). No device with a score >= 0 is
 * AXL_ERR_RUNTIME, as errc::runtime in 4.6.1.1.
 */
axl_status axl_device_select(axl_selector_fn selector, const void *user,
                             axl_device *device);

/** default_selector_v: any device (Table 14), available real hardware
 *  first, then an emulated one, then one not available (score 0). Always
 *  finds a device when there is one, unless axl_default_selector_set
 *  (AXL_DEVICE) names devices: then only those, -1 for the rest. */
int axl_default_selector(axl_device device, const void *user);

/**
 * Chooses, from outside the program, the devices the default selector
 * (and the accelerator and aspect selectors, which build on it) may pick,
 * as XRT's -d or oneAPI's ONEAPI_DEVICE_SELECTOR do. spec is one or more
 * terms separated by ';': "backend:index" (the port's name, as
 * axl_platform_get_info's platform of it lists it first: "emu:0",
 * "xrt:1", "mmio:0"), "backend:*" (any device of that port), or a piece
 * of the device's name without ':' ("u250", "Emulated", any case). A
 * device any term matches scores as before; the others -1. NULL or ""
 * takes any device again. A hosted port reads AXL_DEVICE from the
 * environment at each start and sets it (a bad one is reported on
 * stderr). A term that is not one of these forms is AXL_ERR_INVALID and
 * changes nothing; a choice that matches no device makes
 * axl_device_select fail naming it and the devices there are. Not safe
 * while another thread selects a device.
 */
axl_status axl_default_selector_set(const char *spec);

/** accelerator_selector_v: devices of type accelerator only. */
int axl_accelerator_selector(axl_device device, const void *user);

/** aspect_selector(require, deny): pass a struct axl_aspect_list as user. */
typedef struct axl_aspect_list {
    const axl_aspect *require;
    uint32_t require_count;
    const axl_aspect *deny;
    uint32_t deny_count;
} axl_aspect_list;
int axl_aspect_selector(axl_device device, const void *user);

#ifdef __cplusplus
}
#endif

#endif /* AXL_DEVICE_H */
