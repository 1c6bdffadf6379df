#ifndef AXL_XCLBIN_INFO_H
#define AXL_XCLBIN_INFO_H

#include <stdio.h>

#include "axl/xclbin.h"

/** Prints an opened image (header, sections, banks, IPs, kernels). */
void axl_info_print(FILE *out, const char *path, const axl_xclbin *x);
/** The same as one JSON object (fields: docs/tools.md, "axl-xclbin info --json"). */
void axl_info_print_json(FILE *out, const char *path, const axl_xclbin *x);

#endif
