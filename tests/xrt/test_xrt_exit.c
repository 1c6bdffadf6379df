/*
 * A program that ends without axl_shutdown() while the XRT port holds a
 * device, a compute unit, a run, BOs and a sub-BO. XRT 2.13 crashes at
 * exit when its handles are still open (its C API's handle maps are
 * destroyed after the shim's buffer table: SIGSEGV in xclFreeBO), so the
 * port closes them from an atexit handler. The test passes when the
 * process exits with status 0.
 */
#include "../support/axl_reader_skip.h"
#include <stdio.h>

#include "xrt_test.h"

static void done(void *token, axl_status st, const char *why)
{
    *(axl_status *)token = st;
    (void)why;
}

int main(void)
{
    if (axl_test_without_reader())
        return 0;
    const axl_device_port *P = &axl_native_port;
    axl__xrt_set_run_done(done);
#if !AXL_TEST_XRT_IN_BOARD
    if (axl_device_port_register(P) != AXL_SUCCESS)
        return 10;
#endif
    axl_device d[4];
    uint32_t n = 0;
    if (axl_init() != AXL_SUCCESS ||
        axl_device_get_all(AXL_DEVICE_TYPE_ALL, d, 4, &n) != AXL_SUCCESS)
        return 11;
    void *dev = NULL;
    for (uint32_t i = 0; i < n && !dev; i++)
        if (axl_hal_device_data(d[i], P, &dev) != AXL_SUCCESS)
            dev = NULL;
    if (!dev)
        return 12;

    static axl_xclbin x;
    size_t size = 0;
    static unsigned char *bytes; /* reachable at exit */
    bytes = tu_read_file(AXL_XCLBIN_DIR "/stock.xclbin", &size);
    char why[256];
    if (!bytes || axl_xclbin_open(&x, bytes, size, why, sizeof why) ||
        P->load_image(dev, &x, why, sizeof why))
        return 13;
    axl_hal_mem m[3];
    for (int i = 0; i < 3; i++)
        if (P->mem_alloc(dev, 0, 8192, NULL, &m[i]))
            return 14;
    uintptr_t cu = 0;
    if (P->cu_open(dev, &x, 0, 0, &cu))
        return 15;
    uint32_t count = 16;
    axl_status result = AXL_ERR_RUNTIME;
    axl_hal_arg args[4] = {{0, 1, 4096, &m[0], 4096, NULL, AXL_ACCESS_READ},
                           {1, 1, 8192, &m[1], 0, NULL, AXL_ACCESS_READ},
                           {2, 1, 8192, &m[2], 0, NULL, AXL_ACCESS_WRITE},
                           {3, 0, 4, NULL, 0, &count, 0}};
    axl_hal_run run = {&result, &x, 0, "vadd", 0, 0, cu, 4, 0, args,
                       {1, {1, 1, 1}}, 0};
    if (P->run_start(dev, &run))
        return 16;
    for (int i = 0; i < 1000 && result != AXL_SUCCESS; i++)
        xt_sleep_ms(1);
    if (result != AXL_SUCCESS)
        return 17;
    axl__xrt_counts c;
    axl__xrt_get_counts(&c);
    printf("leaving with %u device, %u kernel, %u run, %u BOs, %u sub-BO "
           "open\n",
           c.devices, c.kernels, c.runs, c.bos, c.sub_bos);
    /* No axl_shutdown, no free: the image bytes stay valid through exit. */
    return 0;
}
