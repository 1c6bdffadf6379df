#ifndef AXL_XCLBIN_DESIGN_H
#define AXL_XCLBIN_DESIGN_H

#include <stdio.h>

#include "axl/xclbin.h"

/**
 * Writes x's design as C source defining `const axl_xclbin_design symbol`
 * (include/axl/xclbin.h); source names the image in the header comment.
 * 0 on success; 1 on an output error, 2 when the image's design cannot be
 * read (err says why).
 */
int axl_design_write(FILE *out, const char *source, const char *symbol,
                     const axl_xclbin *x, char *err, size_t err_size);

#endif
