/*
 * For test programs that read xclbin bytes (the reader's own tests, the
 * XRT port's, the packer's): in a build with the reader switched off
 * (AXL_FEATURE_XCLBIN_READER 0, core/axl_config.h) they have nothing to
 * test. main() starts with `if (axl_test_without_reader()) return 0;`,
 * which checks that the reader answers as a switched-off part must and
 * reports the program skipped.
 */
#ifndef AXL_READER_SKIP_H
#define AXL_READER_SKIP_H

#include <stdio.h>

#include "axl/xclbin.h"

static inline int axl_test_without_reader(void)
{
    axl_xclbin x;
    char why[160] = "";
    if (axl_xclbin_open(&x, "", 0, why, sizeof why) !=
        AXL_ERR_FEATURE_NOT_SUPPORTED)
        return 0;
    printf("[  SKIPPED ] switched off: AXL_FEATURE_XCLBIN_READER 0 (%s)\n",
           why);
    return 1;
}

#endif
