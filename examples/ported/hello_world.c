/*
 * hello_world.c - Vitis_Accel_Examples' hello_world (XRT native API) on
 * axl: the image (one vadd, linked from its kernel.xml by axl_link_xclbin)
 * is registered, its vadd adds two vectors of 4096 ints, and the sums are
 * checked against the host's.
 */
#include "example.h"
#include "hello_world_xclbin.h"

#define N 4096

int main(void)
{
    static int32_t a[N], b[N], out[N];
    for (int i = 0; i < N; i++)
        a[i] = b[i] = i;
    axl_queue q;
    axl_context ctx;
    axl_kernel_id id;
    axl_kernel_bundle bundle;
    axl_kernel vadd;
    axl_buffer A, B, S;
    CHECK(axl_image_register(hello_world_xclbin, hello_world_xclbin_size));
    CHECK(axl_queue_create_selected(axl_default_selector, NULL, 0, NULL, &q));
    CHECK(axl_queue_get_context(q, &ctx));
    CHECK(axl_get_kernel_id("vadd", &id));
    CHECK(axl_get_kernel_bundle_for(ctx, NULL, 0, &id, 1,
                                    AXL_BUNDLE_EXECUTABLE, &bundle));
    CHECK(axl_kernel_bundle_get_kernel(bundle, id, &vadd));
    CHECK(axl_buffer_create_from_const(a, 4, axl_range_1d(N), NULL, &A));
    CHECK(axl_buffer_create_from_const(b, 4, axl_range_1d(N), NULL, &B));
    CHECK(axl_buffer_create_from(out, 4, axl_range_1d(N), NULL, &S));
    CHECK(axl_queue_single_task(q, vadd,
                                AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(B),
                                         AXL_ARG_OUT(S), AXL_ARG_U32(N)),
                                NULL, 0, NULL));
    CHECK(axl_buffer_release(S)); /* waits for vadd, then writes out[] */
    CHECK(axl_buffer_release(A));
    CHECK(axl_buffer_release(B));
    CHECK(axl_kernel_release(vadd));
    CHECK(axl_kernel_bundle_release(bundle));
    CHECK(axl_queue_release(q));
    for (int i = 0; i < N; i++)
        if (out[i] != a[i] + b[i]) {
            fprintf(stderr, "out[%d] = %d, not %d\n", i, out[i], a[i] + b[i]);
            return 1;
        }
    printf("TEST PASSED\n");
    return axl_shutdown();
}
