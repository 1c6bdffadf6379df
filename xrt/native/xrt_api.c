/*
 * xrt_api.c - the XRT calls of the port, in one table (see xrt_native.h).
 * On XRT's noop shim each passes the gate of xrt_noop.c, which keeps
 * them clear of that shim's race between freeing a BO and looking one up:
 * calls that look BOs up go side by side (SHARED), calls that can free
 * one go alone (ALONE); reading a run's state (its command packet) and
 * waiting for it pass freely. Elsewhere the gate is one test of the mode.
 */
#include "xrt_port.h"

#define SHARED(ret, name, params, call)                                        \
    static ret name params                                                     \
    {                                                                          \
        const int gated = axl__xn_noop_use_begin();                            \
        ret r = call;                                                          \
        axl__xn_noop_use_end(gated);                                           \
        return r;                                                              \
    }
#define ALONE(ret, name, params, call)                                         \
    static ret name params                                                     \
    {                                                                          \
        const int gated = axl__xn_noop_free_begin();                           \
        ret r = call;                                                          \
        axl__xn_noop_free_end(gated);                                          \
        return r;                                                              \
    }

SHARED(xrtDeviceHandle, device_open, (unsigned int index), xrtDeviceOpen(index))
SHARED(int, device_load_xclbin, (xrtDeviceHandle dev, const struct axlf *image),
       xrtDeviceLoadXclbin(dev, image))
SHARED(int, device_load_xclbin_uuid, (xrtDeviceHandle dev, const xuid_t uuid),
       xrtDeviceLoadXclbinUUID(dev, uuid))
SHARED(xrtKernelHandle, kernel_open,
       (xrtDeviceHandle dev, const xuid_t uuid, const char *name),
       xrtPLKernelOpen(dev, uuid, name))
SHARED(xrtKernelHandle, kernel_open_exclusive,
       (xrtDeviceHandle dev, const xuid_t uuid, const char *name),
       xrtPLKernelOpenExclusive(dev, uuid, name))
SHARED(xrtRunHandle, run_open, (xrtKernelHandle kernel), xrtRunOpen(kernel))
SHARED(xrtBufferHandle, bo_alloc,
       (xrtDeviceHandle dev, size_t size, xrtBufferFlags flags,
        xrtMemoryGroup group),
       xrtBOAlloc(dev, size, flags, group))
SHARED(xrtBufferHandle, bo_alloc_user_ptr,
       (xrtDeviceHandle dev, void *ptr, size_t size, xrtBufferFlags flags,
        xrtMemoryGroup group),
       xrtBOAllocUserPtr(dev, ptr, size, flags, group))
SHARED(xrtBufferHandle, bo_sub_alloc,
       (xrtBufferHandle parent, size_t size, size_t offset),
       xrtBOSubAlloc(parent, size, offset))
SHARED(uint64_t, bo_address, (xrtBufferHandle bo), xrtBOAddress(bo))
SHARED(int, bo_write,
       (xrtBufferHandle bo, const void *src, size_t size, size_t seek),
       xrtBOWrite(bo, src, size, seek))
SHARED(int, bo_read, (xrtBufferHandle bo, void *dst, size_t size, size_t skip),
       xrtBORead(bo, dst, size, skip))
SHARED(int, bo_sync,
       (xrtBufferHandle bo, enum xclBOSyncDirection dir, size_t size,
        size_t offset),
       xrtBOSync(bo, dir, size, offset))
SHARED(int, bo_copy,
       (xrtBufferHandle dst, xrtBufferHandle src, size_t size,
        size_t dst_offset, size_t src_offset),
       xrtBOCopy(dst, src, size, dst_offset, src_offset))
ALONE(int, kernel_close, (xrtKernelHandle kernel), xrtKernelClose(kernel))
ALONE(int, bo_free, (xrtBufferHandle bo), xrtBOFree(bo))

ALONE(int, device_close, (xrtDeviceHandle dev), xrtDeviceClose(dev))
/* A run no longer waited for: forgotten before XRT closes its handle. */
static int run_close(xrtRunHandle run)
{
    const int gated = axl__xn_noop_free_begin();
    axl__xn_noop_forget(run);
    int r = xrtRunClose(run);
    axl__xn_noop_free_end(gated);
    return r;
}

/* The final state the noop gate read of the run this thread just
 * started: the port's look at the state right after the start (xrt_run.c)
 * takes it instead of asking XRT again (XRT's state is a query of the
 * shim each time). A final state stays so until the run is started again;
 * it is kept for this thread's next look at a state only, once. */
static _Thread_local xrtRunHandle ended_run;
static _Thread_local enum ert_cmd_state ended_state;

/* Recorded between two numbers of the noop gate's counter, which order it
 * against the runs the shim completes (xrt_noop.c). */
static int run_start(xrtRunHandle run)
{
    const int gated = axl__xn_noop_use_begin();
    const uint64_t before = axl__xn_noop_before_start();
    ended_run = NULL;
    int r = xrtRunStart(run);
    if (r == 0 && gated) {
        const enum ert_cmd_state s = xrtRunState(run);
        axl__xn_noop_started(run, before, (int)s);
        if (ert_final((int)s)) {
            ended_run = run;
            ended_state = s;
        }
    }
    axl__xn_noop_use_end(gated);
    return r;
}

static enum ert_cmd_state run_state(xrtRunHandle run)
{
    const xrtRunHandle ended = ended_run;
    ended_run = NULL; /* good for the next look only */
    if (run == ended) /* final, and told the gate at its start */
        return ended_state;
    enum ert_cmd_state s = xrtRunState(run);
    axl__xn_noop_saw_state(run, (int)s);
    return s;
}

/* xrtRunSetArg with the C type XRT will read with va_arg. */
static int set_arg(xrtRunHandle run, int index, const axl__xrt_value *v)
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

SHARED(int, run_set_arg,
       (xrtRunHandle run, int index, const axl__xrt_value *v),
       set_arg(run, index, v))

/* Both tables start as XRT itself (through the gate). */
#define XRT_ITSELF                                                             \
    {                                                                          \
        .device_open = device_open,                                            \
        .device_close = device_close,                                          \
        .device_load_xclbin = device_load_xclbin,                              \
        .device_load_xclbin_uuid = device_load_xclbin_uuid,                    \
        .device_get_xclbin_uuid = xrtDeviceGetXclbinUUID,                      \
        .device_to_xcl = xrtDeviceToXclDevice,                                 \
        .kernel_open = kernel_open,                                            \
        .kernel_close = kernel_close,                                          \
        .kernel_open_exclusive = kernel_open_exclusive,                        \
        .kernel_read_register = xrtKernelReadRegister,                         \
        .kernel_write_register = xrtKernelWriteRegister,                       \
        .run_open = run_open,                                                  \
        .run_set_arg = run_set_arg,                                            \
        .run_start = run_start,                                                \
        .run_wait_for = xrtRunWaitFor,                                         \
        .run_state = run_state,                                                \
        .run_close = run_close,                                                \
        .bo_alloc = bo_alloc,                                                  \
        .bo_alloc_user_ptr = bo_alloc_user_ptr,                                \
        .bo_sub_alloc = bo_sub_alloc,                                          \
        .bo_free = bo_free,                                                    \
        .bo_address = bo_address,                                              \
        .bo_write = bo_write,                                                  \
        .bo_read = bo_read,                                                    \
        .bo_sync = bo_sync,                                                    \
        .bo_copy = bo_copy,                                                    \
    }

const axl__xrt_api axl__xrt_real = XRT_ITSELF;
axl__xrt_api axl__xrt = XRT_ITSELF;
