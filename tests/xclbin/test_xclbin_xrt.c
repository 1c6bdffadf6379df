/*
 * XRT's own parser (libxrt_coreutil, xrtXclbinAllocRawData) reads our
 * images the way ours does. XRT's C API cannot list kernel names: it
 * offers the UUID, the number of kernels and the number of compute units,
 * so this compares those (xrtXclbinGetData answers "not implemented" in
 * XRT 2.13); test_xclbin_xrt.cpp compares names, arguments,
 * banks and connectivity through XRT's C++ API when a C++ compiler is
 * available.
 *
 * Usage: test_xclbin_xrt IMAGE...
 */
#include "../support/axl_reader_skip.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axl/xclbin.h"
#include "experimental/xrt_xclbin.h"
#include "xclbin_test_util.h"

static int check(const char *path)
{
    size_t size;
    unsigned char *img = tu_read_file(path, &size);
    if (!img) {
        fprintf(stderr, "%s: cannot read\n", path);
        return 1;
    }
    axl_xclbin x;
    char why[256];
    if (axl_xclbin_open(&x, img, size, why, sizeof why) != AXL_SUCCESS) {
        fprintf(stderr, "%s: axl refuses it: %s\n", path, why);
        free(img);
        return 1;
    }
    size_t cus = 0;
    for (uint32_t i = 0; i < x.kernel_count; i++) {
        axl_xclbin_kernel k;
        if (axl_xclbin_get_kernel(&x, i, &k) == AXL_SUCCESS)
            cus += k.cu_count;
    }

    int bad = 0;
    xrtXclbinHandle h = xrtXclbinAllocRawData((const char *)img, (int)size);
    if (!h) {
        fprintf(stderr, "%s: XRT refuses it\n", path);
        free(img);
        return 1;
    }
    xuid_t uuid;
    if (xrtXclbinGetUUID(h, uuid) != 0 ||
        memcmp(uuid, x.uuid, sizeof x.uuid) != 0) {
        fprintf(stderr, "%s: XRT sees another UUID\n", path);
        bad = 1;
    }
    size_t kernels = xrtXclbinGetNumKernels(h);
    if (kernels != x.kernel_count) {
        fprintf(stderr, "%s: XRT counts %zu kernels, axl %u\n", path,
                kernels, (unsigned)x.kernel_count);
        bad = 1;
    }
    size_t xcus = xrtXclbinGetNumKernelComputeUnits(h);
    if (xcus != cus) {
        fprintf(stderr, "%s: XRT counts %zu compute units, axl %zu\n", path,
                xcus, cus);
        bad = 1;
    }
    xrtXclbinFreeHandle(h);
    free(img);
    if (!bad)
        printf("%s: XRT agrees (%u kernels, %zu compute units)\n", path,
               (unsigned)x.kernel_count, cus);
    return bad;
}

int main(int argc, char **argv)
{
    if (axl_test_without_reader())
        return 0;
    int bad = argc < 2;
    for (int i = 1; i < argc; i++)
        bad |= check(argv[i]);
    return bad;
}
