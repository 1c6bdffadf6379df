/*
 * xrt_interop.c - axl/backend/xrt.h: XRT's native handles behind axl
 * objects (SYCL 2020 4.5.1).
 *
 * The device handle needs only axl_hal_device_data. Kernels, buffers and
 * make_device need the core to say which compute unit or allocation
 * stands behind an axl object, or to take a device in; until it can, those
 * calls answer AXL_ERR_FEATURE_NOT_SUPPORTED and name what is missing.
 */
#include "axl/backend/xrt.h"
#include "axl/runtime.h"
#include "xrt_native.h"

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
    (void)kernel;
    (void)device;
    (void)cu;
    if (!xrt_kernel)
        return axl_fail(AXL_ERR_INVALID,
                        "axl_xrt_get_native_kernel: xrt_kernel is NULL");
    return axl_fail(AXL_ERR_FEATURE_NOT_SUPPORTED,
                    "axl_xrt_get_native_kernel: this core cannot give the "
                    "compute unit behind a kernel yet (axl_hal_kernel_cu)");
}

axl_status axl_xrt_get_native_buffer(axl_buffer buffer, axl_device device,
                                     void **xrt_bo)
{
    (void)buffer;
    (void)device;
    if (!xrt_bo)
        return axl_fail(AXL_ERR_INVALID,
                        "axl_xrt_get_native_buffer: xrt_bo is NULL");
    return axl_fail(AXL_ERR_FEATURE_NOT_SUPPORTED,
                    "axl_xrt_get_native_buffer: this core cannot give the "
                    "allocation behind a buffer yet (axl_hal_buffer_mem)");
}

axl_status axl_xrt_make_device(void *xrt_device, axl_device *device)
{
    if (!xrt_device || !device)
        return axl_fail(AXL_ERR_INVALID,
                        "axl_xrt_make_device: xrt_device and device must "
                        "not be NULL");
    return axl_fail(AXL_ERR_FEATURE_NOT_SUPPORTED,
                    "axl_xrt_make_device: this core cannot take in a device "
                    "yet (axl_hal_device_adopt)");
}
