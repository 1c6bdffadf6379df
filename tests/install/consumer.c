/* A program built against an installed axl, through find_package or
 * pkg-config: proves the package files are right. Built with find_package
 * (AXL_CONSUMER_IMAGES), it also runs a design linked by the installed
 * axl-xclbin from a v++ config, and registers an installed image. */
#include <stdio.h>

#include <axl/axl.h>

#ifdef AXL_CONSUMER_IMAGES
#include "app_xclbin.h"
#include "vadd4_xclbin.h"

static int run_vadd4(void)
{
    enum { N = 64 };
    int32_t a[N], b[N], s[N];
    for (int i = 0; i < N; i++) {
        a[i] = i;
        b[i] = 1000 * i;
    }
    axl_queue q;
    axl_context ctx;
    axl_kernel_id id;
    axl_kernel_bundle kb;
    axl_kernel k;
    axl_buffer A, B, S;
    axl_kernel_info info = {0};
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
        axl_queue_get_context(q, &ctx) || axl_get_kernel_id("vadd", &id) ||
        axl_get_kernel_bundle_for(ctx, NULL, 0, &id, 1, AXL_BUNDLE_EXECUTABLE,
                                  &kb) ||
        axl_kernel_bundle_get_kernel(kb, id, &k) ||
        axl_kernel_get_info(k, &info) ||
        axl_buffer_create_from_const(a, 4, axl_range_1d(N), NULL, &A) ||
        axl_buffer_create_from_const(b, 4, axl_range_1d(N), NULL, &B) ||
        axl_buffer_create_from(s, 4, axl_range_1d(N), NULL, &S) ||
        axl_queue_single_task(q, k, AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(B),
                                             AXL_ARG_OUT(S), AXL_ARG_U32(N)),
                              NULL, 0, NULL) ||
        axl_buffer_release(S) || axl_buffer_release(A) ||
        axl_buffer_release(B) || axl_kernel_release(k) ||
        axl_kernel_bundle_release(kb) || axl_queue_release(q)) {
        printf("vadd4: %s\n", axl_last_message());
        return 1;
    }
    for (int i = 0; i < N; i++)
        if (s[i] != 1001 * i)
            return 1;
    printf("vadd4: %u compute units, sums right\n",
           (unsigned)info.compute_units);
    return info.compute_units == 4 ? 0 : 1;
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
