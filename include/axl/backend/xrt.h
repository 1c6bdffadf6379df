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
 * The get_native calls return AXL_ERR_BACKEND_MISMATCH for a device of
 * another backend (4.5.1.2) and AXL_ERR_INVALID_OBJECT for a stale
 * handle; every call returns AXL_ERR_INVALID for a NULL argument. The
 * message says which.
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
 * kernel per unit. Opens the unit if no command has used it yet (waiting
 * first for a command that holds the unit, or for the device to finish
 * being programmed). The handle is valid until the device is programmed
 * with another design or axl_shutdown.
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
 * storage there. A buffer gives its own BO (XRT sizes it in whole pages);
 * a sub-buffer gives a sub-BO of exactly its bytes (xrtBOSize is its byte
 * size, xrtBOAddress its base's plus its offset), made on the first call
 * and kept with the base buffer's storage, so later calls give the same
 * handle. The buffer must already have storage on the device (a command
 * used it there, or axl_buffer_place); otherwise AXL_ERR_INVALID. The
 * bytes in it are whatever axl last put there: finish the commands that
 * write the buffer first, and do not change them while a command of axl
 * may read them. Valid while the buffer's storage on the device lives
 * (until the base buffer is destroyed, or axl_shutdown).
 * @param[in]  buffer  a buffer or sub-buffer
 * @param[in]  device  an XRT device
 * @param[out] xrt_bo  its xrtBufferHandle, owned by axl
 */
axl_status axl_xrt_get_native_buffer(axl_buffer buffer, axl_device device,
                                     void **xrt_bo);

/**
 * make_device (4.5.1.3): an axl device over an XRT device the
 * application opened itself (xrtDeviceOpen, xrtDeviceOpenByBDF). It joins
 * the XRT platform until axl_shutdown. When the device runs the board's
 * design (AXL_XRT_BUILTIN_XCLBIN), its banks and built-in kernels are that
 * design's; otherwise it has none until an executable bundle programs it
 * (axl does not program the device here, even when it runs nothing).
 * axl never closes the handle; keep it open until after axl_shutdown.
 *
 * Devices are told apart by handle: the same handle twice gives the same
 * device, and so does the handle of a device axl opened itself (from
 * axl_xrt_get_native_device). XRT 2.13's C API cannot tell whether two
 * handles open the same card, so a second handle of a card axl already
 * lists gives a second axl device over it: use axl_xrt_get_native_device
 * for those instead.
 *
 * Starts the runtime if needed. AXL_ERR_OUT_OF_RESOURCES when the device
 * pool (AXL_MAX_DEVICES) or the port's table (AXL_XRT_DEVICES) is full;
 * nothing is kept then.
 * @param[in]  xrt_device an open xrtDeviceHandle
 * @param[out] device     the axl device
 */
axl_status axl_xrt_make_device(void *xrt_device, axl_device *device);

#ifdef __cplusplus
}
#endif

#endif /* AXL_BACKEND_XRT_H */
