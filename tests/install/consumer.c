/* A program built against an installed axl, through find_package or
 * pkg-config: proves the package files are right. Built with find_package
 * (AXL_CONSUMER_IMAGES), it also runs a design linked by the installed
 * axl-xclbin from a v++ config, and registers an installed image. */
#include <stdio.h>

#include <axl/axl.h>

#ifdef AXL_CONSUMER_IMAGES
#include "app_xclbin.h"
#include "vadd4_xclbin.h"
#include "vadd_check.h"

static int run_vadd4(void)
{
    axl_queue q;
    axl_kernel_id id;
    uint32_t units = 0;
    /* A library built without application images (AXL_FEATURE_APP_IMAGES
     * 0) answers that, and there is nothing more to run. */
    axl_status st = axl_image_register(vadd4_xclbin, vadd4_xclbin_size);
    if (st == AXL_ERR_FEATURE_NOT_SUPPORTED) {
        printf("vadd4: skipped, %s\n", axl_last_message());
        return 0;
    }
    if (st != AXL_SUCCESS ||
        axl_image_register(app_xclbin, app_xclbin_size) ||
        axl_queue_create_selected(axl_default_selector, NULL, 0, NULL, &q) ||
        axl_get_kernel_id("vadd", &id)) {
        printf("vadd4: %s\n", axl_last_message());
        return 1;
    }
    if (vadd_check(q, id, &units) || axl_queue_release(q))
        return 1;
    printf("vadd4: %u compute units, sums right\n", (unsigned)units);
    return units == 4 ? 0 : 1;
}
#endif

int main(void)
{
    uint32_t n = 0;
    if (axl_device_get_all(AXL_DEVICE_TYPE_ALL, NULL, 0, &n) != AXL_SUCCESS)
        return 1;
    printf("devices: %u\n", (unsigned)n);
#ifdef AXL_CONSUMER_IMAGES
    if (run_vadd4())
        return 1;
#endif
    return n ? axl_shutdown() : 1;
}
