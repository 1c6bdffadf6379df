/*
 * xrt_api.c - the XRT calls of the port, in one table (see xrt_native.h).
 */
#include "xrt_native.h"

/* xrtRunSetArg with the C type XRT will read with va_arg. */
static int run_set_arg(xrtRunHandle run, int index, const axl__xrt_value *v)
{
    switch (v->kind) {
    case AXL__XRT_BO:
        return xrtRunSetArg(run, index, v->v.bo);
    case AXL__XRT_INT:
        return xrtRunSetArg(run, index, v->v.i);
    case AXL__XRT_UINT:
        return xrtRunSetArg(run, index, v->v.u);
    case AXL__XRT_FLOAT:
    case AXL__XRT_DOUBLE:
        return xrtRunSetArg(run, index, v->v.d);
    case AXL__XRT_PTR:
        return xrtRunSetArg(run, index, v->v.p);
    case AXL__XRT_U32:
        return xrtRunSetArg(run, index, v->v.u32);
    case AXL__XRT_U64:
        return xrtRunSetArg(run, index, v->v.u64);
    case AXL__XRT_SIZE:
        return xrtRunSetArg(run, index, v->v.z);
    case AXL__XRT_SKIP:
        return xrtRunSetArg(run, index, (void *)0);
    default:
        return -1;
    }
}

/* Both tables start as XRT itself. */
#define XRT_ITSELF                                                             \
    {                                                                          \
        .device_open = xrtDeviceOpen,                                          \
        .device_close = xrtDeviceClose,                                        \
        .device_load_xclbin = xrtDeviceLoadXclbin,                             \
        .device_load_xclbin_uuid = xrtDeviceLoadXclbinUUID,                    \
        .device_get_xclbin_uuid = xrtDeviceGetXclbinUUID,                      \
        .device_to_xcl = xrtDeviceToXclDevice,                                 \
        .kernel_open = xrtPLKernelOpen,                                        \
        .kernel_close = xrtKernelClose,                                        \
        .kernel_open_exclusive = xrtPLKernelOpenExclusive,                     \
        .kernel_read_register = xrtKernelReadRegister,                         \
        .kernel_write_register = xrtKernelWriteRegister,                       \
        .run_open = xrtRunOpen,                                                \
        .run_set_arg = run_set_arg,                                            \
        .run_start = xrtRunStart,                                              \
        .run_wait_for = xrtRunWaitFor,                                         \
        .run_state = xrtRunState,                                              \
        .run_close = xrtRunClose,                                              \
        .bo_alloc = xrtBOAlloc,                                                \
        .bo_alloc_user_ptr = xrtBOAllocUserPtr,                                \
        .bo_sub_alloc = xrtBOSubAlloc,                                         \
        .bo_free = xrtBOFree,                                                  \
        .bo_address = xrtBOAddress,                                            \
        .bo_write = xrtBOWrite,                                                \
        .bo_read = xrtBORead,                                                  \
        .bo_sync = xrtBOSync,                                                  \
        .bo_copy = xrtBOCopy,                                                  \
    }

const axl__xrt_api axl__xrt_real = XRT_ITSELF;
axl__xrt_api axl__xrt = XRT_ITSELF;
