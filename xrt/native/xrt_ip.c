/*
 * xrt_ip.c - registers of a design's IPs through XRT 2.13's C API
 * (axl/ip.h). The C API reaches a compute unit's registers only:
 * xrtKernelReadRegister and xrtKernelWriteRegister, on a kernel opened
 * exclusively for that one unit ("kernel:{instance}"). Other IPs are
 * reached by the shim's xclRegRead (libxrt_core, which this port does not
 * link), and an interrupt is waited for by xrt::ip::interrupt (C++ only):
 * the port says so instead (AXL_ERR_FEATURE_NOT_SUPPORTED; the core for
 * the wait, as the port has no ip_wait).
 */
#include <errno.h>
#include <string.h>

#include "axl/runtime.h"
#include "xrt_port.h"

axl_status axl__xn_ip_open(void *dev, const axl_xclbin *image,
                           uint32_t ip_index, const axl_xclbin_ip *ip,
                           uintptr_t *handle)
{
    xn_device *d = dev;
    (void)ip_index;
    if (ip->type != AXL_XCLBIN_IP_KERNEL || !ip->instance.len)
        return axl_fail(AXL_ERR_FEATURE_NOT_SUPPORTED,
                        "XRT 2.13's C API reaches the registers of compute "
                        "units only (xrtKernelReadRegister); this IP is "
                        "not one");
    char name[96];
    axl_format(name, sizeof name, "%.*s:{%.*s}", (int)ip->kernel.len,
               ip->kernel.ptr, (int)ip->instance.len, ip->instance.ptr);
    errno = 0;
    xrtKernelHandle k =
        axl__xrt.kernel_open_exclusive(d->dh, image->uuid, name);
    if (!k)
        return axl_fail(AXL_ERR_BAD_STATE,
                        "XRT cannot open %s exclusively "
                        "(xrtPLKernelOpenExclusive failed%s%s): another "
                        "context holds it",
                        name, errno ? ": " : "", errno ? strerror(errno) : "");
    *handle = (uintptr_t)k;
    return AXL_SUCCESS;
}

void axl__xn_ip_close(void *dev, uintptr_t handle)
{
    (void)dev;
    axl__xrt.kernel_close((xrtKernelHandle)handle);
}

axl_status axl__xn_ip_read32(void *dev, uintptr_t handle, uint32_t offset,
                             uint32_t *value)
{
    (void)dev;
    int e = axl__xrt.kernel_read_register((xrtKernelHandle)handle, offset,
                                          value);
    if (e)
        return axl_fail(AXL_ERR_RUNTIME,
                        "xrtKernelReadRegister at 0x%x failed (%d; XRT's "
                        "log says why)",
                        (unsigned)offset, e);
    return AXL_SUCCESS;
}

axl_status axl__xn_ip_write32(void *dev, uintptr_t handle, uint32_t offset,
                              uint32_t value)
{
    (void)dev;
    int e = axl__xrt.kernel_write_register((xrtKernelHandle)handle, offset,
                                           value);
    if (e)
        return axl_fail(AXL_ERR_RUNTIME,
                        "xrtKernelWriteRegister at 0x%x failed (%d; XRT's "
                        "log says why)",
                        (unsigned)offset, e);
    return AXL_SUCCESS;
}
