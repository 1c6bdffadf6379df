/*
 * axl/backend/xrt.h - interop with XRT's native handles (SYCL 2020 4.5.1:
 * get_native and make_* for the XRT backend, AXL_BACKEND_XRT).
 *
 * The native types are XRT's C handles, which XRT declares as void *
 * (xrtDeviceHandle, xrtKernelHandle and xrtBufferHandle in
 * xrt/xrt_device.h, xrt_kernel.h and xrt_bo.h), so this header does not
 * need XRT's headers and an XRT handle passes without a cast. These
 * functions exist when the build has the XRT port (xrt/native, listed as
 * `native` by the board).
 *
 * Ownership: a handle axl gives out stays axl's. Use it while the axl
 * object lives; never close or free it (axl closes every XRT handle, in
 * XRT's order, at axl_shutdown; XRT 2.13 crashes at exit on handles left
 * open). A handle given to axl stays the caller's: axl never closes it.
 *
 * Every call returns AXL_ERR_BACKEND_MISMATCH for an object of another
 * backend, AXL_ERR_INVALID_OBJECT for a stale handle, and
 * AXL_ERR_FEATURE_NOT_SUPPORTED when this core cannot answer yet (the
 * message says which).
 */
#ifndef AXL_BACKEND_XRT_H
#define AXL_BACKEND_XRT_H

#include <stdint.h>

#include "axl/status.h"
#include "axl/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * get_native(device): the xrtDeviceHandle of an XRT device.
 * @param[in]  device     a device of the XRT platform
 * @param[out] xrt_device its xrtDeviceHandle, owned by axl
 */
axl_status axl_xrt_get_native_device(axl_device device, void **xrt_device);

/**
 * get_native(kernel) on one device: the xrtKernelHandle of one compute
 * unit of the kernel. axl opens each compute unit as its own XRT kernel
 * ("kernel:{instance}") and spreads runs over them, so there is one native
 * kernel per unit. Opens the unit if no command has used it yet.
 * @param[in]  kernel     a kernel of an executable bundle
 * @param[in]  device     an XRT device that carries the kernel's image
 *                        (AXL_ERR_KERNEL_NOT_SUPPORTED if it does not)
 * @param[in]  cu         which compute unit (AXL_ERR_INVALID past the last)
 * @param[out] xrt_kernel its xrtKernelHandle, owned by axl
 */
axl_status axl_xrt_get_native_kernel(axl_kernel kernel, axl_device device,
                                     uint32_t cu, void **xrt_kernel);

/**
 * get_native(buffer) on one device: the xrtBufferHandle of the buffer's
 * storage there (a sub-buffer's own range). The buffer must already have
 * storage on the device (a command used it there, or axl_buffer_place);
 * otherwise AXL_ERR_INVALID. The bytes in it are whatever axl last put
 * there: finish the commands that write the buffer first, and do not
 * change them while a command of axl may read them.
 * @param[in]  buffer  a buffer or sub-buffer
 * @param[in]  device  an XRT device
 * @param[out] xrt_bo  its xrtBufferHandle, owned by axl
 */
axl_status axl_xrt_get_native_buffer(axl_buffer buffer, axl_device device,
                                     void **xrt_bo);

/**
 * make_device: an axl device over an XRT device the application opened
 * itself (xrtDeviceOpen, xrtDeviceOpenByBDF). It joins the XRT platform
 * until axl_shutdown, with the memory banks and built-in kernels of the
 * image loaded on it. axl never closes the handle; keep it open until
 * after axl_shutdown. The same handle twice gives the same device.
 * @param[in]  xrt_device an open xrtDeviceHandle
 * @param[out] device     the axl device
 */
axl_status axl_xrt_make_device(void *xrt_device, axl_device *device);

#ifdef __cplusplus
}
#endif

#endif /* AXL_BACKEND_XRT_H */
