/*
 * axl_embed_xclbin (bitstreams/embed.cmake): the array it generates holds
 * exactly the image's bytes, is aligned to 8 and opens with the reader.
 */
#include "../support/axl_reader_skip.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "axl/xclbin.h"
#include "axl_test_stock_xclbin.h"
#include "xclbin_test_util.h"

static void embedded_stock_image_equals_the_file(void **state)
{
    (void)state;
    size_t size;
    unsigned char *file = tu_read_file(AXL_XCLBIN_DIR "/stock.xclbin", &size);
    assert_non_null(file);
    assert_int_equal(axl_test_stock_xclbin_size, size);
    assert_memory_equal(axl_test_stock_xclbin, file, size);
    assert_int_equal((uintptr_t)axl_test_stock_xclbin % 8, 0);
    free(file);

    axl_xclbin x;
    char why[128];
    assert_int_equal(axl_xclbin_open(&x, axl_test_stock_xclbin,
                                     axl_test_stock_xclbin_size, why,
                                     sizeof why),
                     AXL_SUCCESS);
    assert_int_equal(x.kernel_count, 5);
}

int main(void)
{
    if (axl_test_without_reader())
        return 0;
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(embedded_stock_image_equals_the_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
