/*
 * xrt_interop.c - axl/backend/xrt.h: XRT's native handles behind axl
 * objects, and axl devices over an application's XRT device (SYCL 2020
 * 4.5.1.2 get_native, 4.5.1.3 make_device).
 *
 * The core says which port state, compute unit or allocation stands behind
 * an axl object (axl_hal_device_data, axl_hal_kernel_cu, axl_hal_buffer_mem)
 * and takes in a device the port built (axl_hal_device_adopt); the port
 * turns those into XRT handles. Every handle stays the port's and is
 * closed with its device at axl_shutdown.
 */
#include <pthread.h>
#include <string.h>

#include "axl/backend/xrt.h"
#include "axl/buffer.h"
#include "axl/runtime.h"
#include "xrt_native.h"

/* Serialises make_device: looking for the handle, building the port state
 * and the core taking it in are one step, so two threads giving the same
 * handle get one device, and state the core refused is closed before
 * anyone else can find it. */
static pthread_mutex_t make_lock = PTHREAD_MUTEX_INITIALIZER;

/* A failure of a core hook, told as the interop call's own: "axl_hal_x:
 * why" becomes "fn: why". */
static axl_status as_own(const char *fn, axl_status st)
{
    char why[AXL_MESSAGE_MAX];
    const char *m = axl_last_message();
    if (!strncmp(m, "axl_hal_", 8) && strstr(m, ": "))
        m = strstr(m, ": ") + 2;
    axl_format(why, sizeof why, "%s", m);
    return axl_fail(st, "%s: %s", fn, why);
}

axl_status axl_xrt_get_native_device(axl_device device, void **xrt_device)
{
    if (!xrt_device)
        return axl_fail(AXL_ERR_INVALID,
                        "axl_xrt_get_native_device: xrt_device is NULL");
    void *data = NULL;
    axl_status st = axl_hal_device_data(device, &axl_native_port, &data);
    if (st != AXL_SUCCESS)
        return st;
    *xrt_device = axl__xrt_device_handle(data);
    return AXL_SUCCESS;
}

axl_status axl_xrt_get_native_kernel(axl_kernel kernel, axl_device device,
                                     uint32_t cu, void **xrt_kernel)
{
    static const char fn[] = "axl_xrt_get_native_kernel";
    if (!xrt_kernel)
        return axl_fail(AXL_ERR_INVALID, "%s: xrt_kernel is NULL", fn);
    uintptr_t h = 0;
    axl_status st =
        axl_hal_kernel_cu(kernel, device, &axl_native_port, cu, &h);
    if (st != AXL_SUCCESS)
        return as_own(fn, st);
    xrtKernelHandle k = axl__xrt_cu_kernel(h);
    if (!k)
        return axl_fail(AXL_ERR_RUNTIME,
                        "%s: compute unit %u has no XRT kernel", fn,
                        (unsigned)cu);
    *xrt_kernel = k;
    return AXL_SUCCESS;
}

axl_status axl_xrt_get_native_buffer(axl_buffer buffer, axl_device device,
                                     void **xrt_bo)
{
    static const char fn[] = "axl_xrt_get_native_buffer";
    if (!xrt_bo)
        return axl_fail(AXL_ERR_INVALID, "%s: xrt_bo is NULL", fn);
    void *data = NULL;
    const axl_hal_mem *mem = NULL;
    uint64_t offset = 0;
    size_t bytes = 0;
    axl_status st = axl_hal_buffer_mem(buffer, device, &axl_native_port, &mem,
                                       &offset);
    if (st == AXL_SUCCESS)
        st = axl_hal_device_data(device, &axl_native_port, &data);
    if (st == AXL_SUCCESS)
        st = axl_buffer_get_byte_size(buffer, &bytes);
    if (st != AXL_SUCCESS)
        return as_own(fn, st);
    /* The view's own range: a sub-buffer gets a sub-BO of its bytes. */
    xrtBufferHandle bo = NULL;
    st = axl__xrt_mem_bo_at(data, mem, offset, bytes, &bo);
    if (st != AXL_SUCCESS)
        return as_own(fn, st);
    *xrt_bo = bo;
    return AXL_SUCCESS;
}

axl_status axl_xrt_make_device(void *xrt_device, axl_device *device)
{
    static const char fn[] = "axl_xrt_make_device";
    if (!xrt_device || !device)
        return axl_fail(AXL_ERR_INVALID,
                        "%s: xrt_device and device must not be NULL", fn);
    /* The runtime first: its own devices are then open, so a handle of
     * theirs is found, and a new device takes a free slot of the port. */
    axl_status st = axl_init();
    if (st != AXL_SUCCESS)
        return st;
    pthread_mutex_lock(&make_lock);
    void *data = NULL;
    int created = 0;
    st = axl__xrt_open_native(xrt_device, &data, &created);
    if (st == AXL_SUCCESS) {
        st = axl_hal_device_adopt(&axl_native_port, data, device);
        if (st != AXL_SUCCESS && created) {
            /* Refused (the device pool is full): close what was built for
             * it, keeping the core's message. The handle stays open. */
            char why[AXL_MESSAGE_MAX];
            axl_format(why, sizeof why, "%s", axl_last_message());
            axl_native_port.close(data);
            axl_fail(st, "%s", why);
        }
    }
    pthread_mutex_unlock(&make_lock);
    return st == AXL_SUCCESS ? st : as_own(fn, st);
}
