/*
 * streaming_k2k_mm.c - Vitis_Accel_Examples' streaming_k2k_mm_xrt on axl:
 * krnl_stream_vadd adds two vectors from memory and streams the sums to
 * krnl_stream_vmult, which multiplies them by a third vector and writes
 * the products to memory, joined by the original's config
 * (stream_connect=krnl_stream_vadd_1.out:krnl_stream_vmult_1.in2:64). The
 * two kernels form a pipeline, both ordinary commands; the producer is
 * submitted first, as the original starts it first, and the runtime
 * starts the consumer first. The stream argument of each is the design's:
 * the others are given by id. C models of both stand in for the RTL on
 * the emulated device.
 */
#include "axl/emu.h"
#include "example.h"
#include "streaming_k2k_mm_xclbin.h"

#define N (4 * 1024)

static axl_status vadd_model(const axl_emu_call *c, void *user)
{
    (void)user;
    uint32_t n;
    axl_status st = axl_emu_u32(c, 3, &n);
    const int32_t *in1 = axl_emu_buffer(c, 0, 4ull * n);
    const int32_t *in2 = axl_emu_buffer(c, 1, 4ull * n);
    if (st == AXL_SUCCESS && (!in1 || !in2))
        return AXL_ERR_KERNEL_ARGUMENT;
    for (uint32_t i = 0; i < n && st == AXL_SUCCESS; i++) {
        int32_t w = in1[i] + in2[i];
        st = axl_emu_stream_write(c, 2, &w, i + 1 == n);
    }
    return st;
}

static axl_status vmult_model(const axl_emu_call *c, void *user)
{
    (void)user;
    uint32_t n;
    axl_status st = axl_emu_u32(c, 3, &n);
    const int32_t *in1 = axl_emu_buffer(c, 0, 4ull * n);
    int32_t *out = axl_emu_buffer(c, 2, 4ull * n);
    if (st == AXL_SUCCESS && (!in1 || !out))
        return AXL_ERR_KERNEL_ARGUMENT;
    for (uint32_t i = 0; i < n && st == AXL_SUCCESS; i++) {
        int32_t w;
        st = axl_emu_stream_read(c, 1, &w, NULL);
        out[i] = in1[i] * w;
    }
    return st;
}

int main(void)
{
    static int32_t a[N], b[N], c[N], out[N];
    for (int i = 0; i < N; i++)
        a[i] = b[i] = c[i] = i;
    axl_queue q;
    axl_context ctx;
    axl_kernel_id ids[2];
    axl_kernel_bundle bundle;
    axl_kernel vadd, vmult;
    axl_pipeline pipeline;
    axl_buffer A, B, C, O;
    CHECK(axl_emu_register_model("krnl_stream_vadd", vadd_model, NULL));
    CHECK(axl_emu_register_model("krnl_stream_vmult", vmult_model, NULL));
    CHECK(axl_image_register(streaming_k2k_mm_xclbin,
                             streaming_k2k_mm_xclbin_size));
    CHECK(axl_queue_create_selected(axl_default_selector, NULL, 0, NULL, &q));
    CHECK(axl_queue_get_context(q, &ctx));
    CHECK(axl_get_kernel_id("krnl_stream_vadd", &ids[0]));
    CHECK(axl_get_kernel_id("krnl_stream_vmult", &ids[1]));
    CHECK(axl_get_kernel_bundle_for(ctx, NULL, 0, ids, 2,
                                    AXL_BUNDLE_EXECUTABLE, &bundle));
    CHECK(axl_kernel_bundle_get_kernel(bundle, ids[0], &vadd));
    CHECK(axl_kernel_bundle_get_kernel(bundle, ids[1], &vmult));
    /* The units joined to krnl_stream_vmult_1 by the design's streams. */
    axl_pipeline_desc desc = {bundle, "krnl_stream_vmult_1", NULL, 0, 0, 0};
    CHECK(axl_pipeline_create(q, &desc, &pipeline));
    CHECK(axl_pipeline_start(pipeline));
    CHECK(axl_buffer_create_from_const(a, 4, axl_range_1d(N), NULL, &A));
    CHECK(axl_buffer_create_from_const(b, 4, axl_range_1d(N), NULL, &B));
    CHECK(axl_buffer_create_from_const(c, 4, axl_range_1d(N), NULL, &C));
    CHECK(axl_buffer_create_from(out, 4, axl_range_1d(N), NULL, &O));
    CHECK(axl_queue_single_task(q, vadd,
                                AXL_ARGS(AXL_ARG_AT(0, AXL_ARG_IN(A)),
                                         AXL_ARG_AT(1, AXL_ARG_IN(B)),
                                         AXL_ARG_AT(3, AXL_ARG_I32(N))),
                                NULL, 0, NULL));
    CHECK(axl_queue_single_task(q, vmult,
                                AXL_ARGS(AXL_ARG_AT(0, AXL_ARG_IN(C)),
                                         AXL_ARG_AT(2, AXL_ARG_OUT(O)),
                                         AXL_ARG_AT(3, AXL_ARG_I32(N))),
                                NULL, 0, NULL));
    CHECK(axl_queue_wait_and_throw(q));
    CHECK(axl_buffer_release(O)); /* writes out[] */
    CHECK(axl_buffer_release(A));
    CHECK(axl_buffer_release(B));
    CHECK(axl_buffer_release(C));
    CHECK(axl_pipeline_release(pipeline));
    CHECK(axl_kernel_release(vadd));
    CHECK(axl_kernel_release(vmult));
    CHECK(axl_kernel_bundle_release(bundle));
    CHECK(axl_queue_release(q));
    for (int i = 0; i < N; i++)
        if (out[i] != (a[i] + b[i]) * c[i]) {
            printf("out[%d] = %d, want %d\nTEST FAILED\n", i, (int)out[i],
                   (int)((a[i] + b[i]) * c[i]));
            return 1;
        }
    printf("TEST PASSED\n");
    return 0;
}
