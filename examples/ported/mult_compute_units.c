/*
 * mult_compute_units.c - Vitis_Accel_Examples' mult_compute_units_xrt on
 * axl: a design with four compute units of vadd (nk=vadd:4 in
 * mult_compute_units.cfg, linked by axl_link_xclbin), the vectors cut in
 * four chunks by one parallel_for over the kernel's units (one chunk per
 * unit, each with its part of the buffers and its count in `size`) on an
 * out-of-order queue, so the four units run at once, the sums checked
 * against the host's.
 */
#include "example.h"
#include "mult_compute_units_xclbin.h"

#define N (1024 * 64)
#define CUS 4
#define CHUNK (N / CUS)

int main(void)
{
    static int32_t a[N], b[N], out[N];
    for (int i = 0; i < N; i++)
        a[i] = b[i] = i % CHUNK;
    axl_queue q;
    axl_context ctx;
    axl_kernel_id id;
    axl_kernel_bundle bundle;
    axl_kernel vadd;
    axl_buffer A, B, S;
    uint32_t chunks = 0;
    CHECK(axl_image_register(mult_compute_units_xclbin,
                             mult_compute_units_xclbin_size));
    CHECK(axl_queue_create_selected(axl_default_selector, NULL, 0, NULL, &q));
    CHECK(axl_queue_get_context(q, &ctx));
    CHECK(axl_get_kernel_id("vadd", &id));
    CHECK(axl_get_kernel_bundle_for(ctx, NULL, 0, &id, 1,
                                    AXL_BUNDLE_EXECUTABLE, &bundle));
    CHECK(axl_kernel_bundle_get_kernel(bundle, id, &vadd));
    CHECK(axl_buffer_create_from_const(a, 4, axl_range_1d(N), NULL, &A));
    CHECK(axl_buffer_create_from_const(b, 4, axl_range_1d(N), NULL, &B));
    CHECK(axl_buffer_create_from(out, 4, axl_range_1d(N), NULL, &S));
    CHECK(axl_queue_parallel_for(
        q, vadd, N,
        AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(B), AXL_ARG_OUT(S), AXL_ARG_U32(0)),
        &(axl_split){.count_arg = "size", .chunk_count = &chunks}, NULL, 0,
        NULL));
    CHECK(axl_queue_wait_and_throw(q));
    CHECK(axl_buffer_release(S)); /* writes out[] */
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
    printf("%u compute units: TEST PASSED\n", (unsigned)chunks);
    return chunks == CUS ? axl_shutdown() : 1;
}
