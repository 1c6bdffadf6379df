/*
 * xrt_native.h - private to the XRT device port (xrt/native) and its tests.
 *
 * The port reaches XRT 2.13 through libxrt_coreutil's C API only. Every
 * XRT call goes through one table, axl__xrt, which holds XRT's own
 * functions; the tests swap single entries to make XRT fail at each step
 * that can fail (the nanopb "flaky stream" idea) and restore the table
 * with axl__xrt = axl__xrt_real. Nothing else in the port names an XRT
 * function, but xrt_noop.c, the gate the table's calls pass on XRT's
 * noop shim (which reads run states and queues its probe itself).
 */
#ifndef AXL_XRT_NATIVE_H
#define AXL_XRT_NATIVE_H

#include <stddef.h>
#include <stdint.h>

#include "axl/hal.h"

#include "xrt/xrt_bo.h"
#include "xrt/xrt_device.h"
#include "xrt/xrt_kernel.h"

#include "xrt_native_config.h"

/** The port. Its folder is xrt/native, so the board lists it as `native`
 *  (AXL_DEVICE_PORTS emu native); messages call it "xrt". */
extern const axl_device_port axl_native_port;

/* ---- One kernel argument, typed the way xrtRunSetArg reads it ------------ */

/*
 * xrtRunSetArg is variadic: XRT picks the va_arg type from the argument's
 * type string in the kernel XML (xrt_kernel.cpp, class argument): "int",
 * "uint", "float" (read as double), "double", "int*"/"uint*" (a pointer to
 * the bytes), and otherwise by size: 4 bytes uint32_t, 8 bytes uint64_t,
 * anything else size_t. Buffers are an xrtBufferHandle.
 */
typedef enum axl__xrt_kind {
    AXL__XRT_BO = 0,
    AXL__XRT_INT,
    AXL__XRT_UINT,
    AXL__XRT_FLOAT,  /* passed as double, as C's default promotion does */
    AXL__XRT_DOUBLE,
    AXL__XRT_PTR,    /* XRT copies the XML size from the pointer */
    AXL__XRT_U32,
    AXL__XRT_U64,
    AXL__XRT_SIZE,
    AXL__XRT_SKIP,   /* local memory or stream: XRT swallows a pointer */
    AXL__XRT_UNSUPPORTED
} axl__xrt_kind;

typedef struct axl__xrt_value {
    axl__xrt_kind kind;
    union {
        xrtBufferHandle bo;
        int i;
        unsigned int u;
        double d;
        const void *p;
        uint32_t u32;
        uint64_t u64;
        size_t z;
    } v;
} axl__xrt_value;

/* ---- The XRT calls the port makes ---------------------------------------- */

typedef struct axl__xrt_api {
    xrtDeviceHandle (*device_open)(unsigned int index);
    int (*device_close)(xrtDeviceHandle dev);
    int (*device_load_xclbin)(xrtDeviceHandle dev, const struct axlf *image);
    int (*device_load_xclbin_uuid)(xrtDeviceHandle dev, const xuid_t uuid);
    int (*device_get_xclbin_uuid)(xrtDeviceHandle dev, xuid_t out);
    xclDeviceHandle (*device_to_xcl)(xrtDeviceHandle dev);
    xrtKernelHandle (*kernel_open)(xrtDeviceHandle dev, const xuid_t uuid,
                                   const char *name);
    int (*kernel_close)(xrtKernelHandle kernel);
    /* Register access to a compute unit (axl/ip.h), on a kernel opened
     * exclusively, as XRT requires for it. */
    xrtKernelHandle (*kernel_open_exclusive)(xrtDeviceHandle dev,
                                             const xuid_t uuid,
                                             const char *name);
    int (*kernel_read_register)(xrtKernelHandle kernel, uint32_t offset,
                                uint32_t *value);
    int (*kernel_write_register)(xrtKernelHandle kernel, uint32_t offset,
                                 uint32_t value);
    xrtRunHandle (*run_open)(xrtKernelHandle kernel);
    /* Not XRT's signature: one typed value instead of C varargs, so a test
     * stub can fail one call and pass the others through. */
    int (*run_set_arg)(xrtRunHandle run, int index, const axl__xrt_value *v);
    int (*run_start)(xrtRunHandle run);
    enum ert_cmd_state (*run_wait_for)(xrtRunHandle run, unsigned int ms);
    enum ert_cmd_state (*run_state)(xrtRunHandle run);
    int (*run_close)(xrtRunHandle run);
    xrtBufferHandle (*bo_alloc)(xrtDeviceHandle dev, size_t size,
                                xrtBufferFlags flags, xrtMemoryGroup group);
    xrtBufferHandle (*bo_alloc_user_ptr)(xrtDeviceHandle dev, void *ptr,
                                         size_t size, xrtBufferFlags flags,
                                         xrtMemoryGroup group);
    xrtBufferHandle (*bo_sub_alloc)(xrtBufferHandle parent, size_t size,
                                    size_t offset);
    int (*bo_free)(xrtBufferHandle bo);
    uint64_t (*bo_address)(xrtBufferHandle bo);
    int (*bo_write)(xrtBufferHandle bo, const void *src, size_t size,
                    size_t seek);
    int (*bo_read)(xrtBufferHandle bo, void *dst, size_t size, size_t skip);
    int (*bo_sync)(xrtBufferHandle bo, enum xclBOSyncDirection dir,
                   size_t size, size_t offset);
    int (*bo_copy)(xrtBufferHandle dst, xrtBufferHandle src, size_t size,
                   size_t dst_offset, size_t src_offset);
} axl__xrt_api;

/** What the port calls. */
extern axl__xrt_api axl__xrt;
/** XRT itself. */
extern const axl__xrt_api axl__xrt_real;

/* ---- The environment check (xrt_env.c) ----------------------------------- */

/** Which shim XRT 2.13 loads, from XCL_EMULATION_MODE. */
typedef enum axl__xrt_mode {
    AXL__XRT_HW = 0,   /* unset: libxrt_core, the driver of real cards */
    AXL__XRT_SW_EMU,
    AXL__XRT_HW_EMU,
    AXL__XRT_NOOP      /* libxrt_noop: everything succeeds, nothing runs */
} axl__xrt_mode;

typedef struct axl__xrt_env {
    axl__xrt_mode mode;
    char shim_name[32];             /* "libxrt_noop.so.2" */
    char shim_path[512];
    void *shim;                     /* dlopen handle, kept for the process */
    unsigned int (*probe)(void);    /* the shim's xclProbe, or NULL */
    int (*device_info)(xclDeviceHandle, struct xclDeviceInfo2 *); /* or NULL */
} axl__xrt_env;

/**
 * Checks what XRT 2.13 checks before it loads its shim (module_loader.cpp:
 * XILINX_XRT, XCL_EMULATION_MODE, $XILINX_XRT/lib/lib<shim>.so.2 a regular
 * file that dlopen accepts), where a failure makes XRT throw out of a C
 * function and abort the process. Loads the shim the way XRT would, so
 * XRT finds it loaded. Returns 0 and fills env, or -1 with the reason in
 * why. Once a shim is loaded the answer is fixed for the process, as it
 * is for XRT.
 */
int axl__xrt_env_check(axl__xrt_env *env, char *why, size_t why_size);

/* ---- Test hooks ------------------------------------------------------------ */

/** Live XRT handles the port holds, over all devices. */
typedef struct axl__xrt_counts {
    uint32_t devices;
    uint32_t kernels;   /* one per open compute unit */
    uint32_t runs;      /* xrtRunHandles, free or busy */
    uint32_t bos;
    uint32_t sub_bos;   /* kept for accessors at an offset */
    uint32_t busy_runs; /* started, not yet back in their pool */
    uint32_t threads;   /* completion threads running */
} axl__xrt_counts;

void axl__xrt_get_counts(axl__xrt_counts *out);

/** Where completions go instead of axl_hal_run_done (tests that drive the
 *  ops table directly); NULL restores axl_hal_run_done. */
typedef void (*axl__xrt_run_done_fn)(void *token, axl_status status,
                                     const char *why);
void axl__xrt_set_run_done(axl__xrt_run_done_fn fn);

/**
 * The port's state for an XRT device the application opened (make_device;
 * axl never closes the handle). A handle the port already holds, its own
 * (opened by index, as axl_xrt_get_native_device gives it) or one given
 * before, gives the state it has, with *created = 0; otherwise new state,
 * *created = 1, which the caller closes (the port's close op) if the core
 * does not take it in. Devices are told apart by handle: XRT 2.13's C API
 * says nothing that identifies the card behind one (each xrtDeviceOpen
 * returns a new handle and a new xclDeviceHandle, even for one index).
 * AXL_ERR_OUT_OF_RESOURCES when the port holds AXL_XRT_DEVICES devices.
 */
axl_status axl__xrt_open_native(xrtDeviceHandle dh, void **dev, int *created);

/** The XRT device handle behind the port's state for a device. */
xrtDeviceHandle axl__xrt_device_handle(void *dev);

/** The xrtKernelHandle behind a cu_open() handle. */
xrtKernelHandle axl__xrt_cu_kernel(uintptr_t cu_handle);

/** The xrtBufferHandle behind an allocation. */
xrtBufferHandle axl__xrt_mem_bo(const axl_hal_mem *mem);

/**
 * The xrtBufferHandle of `size` bytes at `offset` in an allocation of
 * device `dev`: the allocation's own BO when that is all of it, otherwise
 * a sub-BO (xrtBOSubAlloc) made once and kept with the allocation, which
 * kernel arguments at the same range share; freed with the allocation.
 * AXL_ERR_INVALID for a range outside it or an allocation of another
 * device, AXL_ERR_MEMORY_ALLOCATION when XRT refuses the sub-BO.
 */
axl_status axl__xrt_mem_bo_at(void *dev, const axl_hal_mem *mem,
                              uint64_t offset, uint64_t size,
                              xrtBufferHandle *bo);

#endif /* AXL_XRT_NATIVE_H */
