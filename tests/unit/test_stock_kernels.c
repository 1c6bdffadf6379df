/*
 * The stock kernels against axl/kernels.h: each expectation here is
 * computed from that header's text alone (argument order, element types,
 * rounding, overflow, edges), not from the models' source.
 */
#include <stdint.h>
#include <string.h>

#include "axl_test.h"
#include "axl/kernels.h"

/* The kernel a test ran, then the support rig, its queue's errors all
 * taken. */
static void rig_down(axl_test_rig *r, axl_kernel k)
{
    AXL_OK(axl_kernel_release(k));
    AXL_OK(axl_queue_wait_and_throw(r->q));
    axl_test_rig_down(r);
}

/* "The sum wraps modulo 2^32"; "Elements past the count are not written". */
static void vadd_wraps_and_writes_only_size_elements(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel k = axl_test_rig_kernel(&r, "vadd");
    int32_t a[4] = {INT32_MAX, -5, INT32_MIN, 9};
    int32_t b[4] = {1, 3, -1, 9};
    int32_t out[4] = {0, 0, 0, 77};
    axl_buffer A, B, O;
    AXL_OK(axl_buffer_create_from_const(a, 4, axl_range_1d(4), NULL, &A));
    AXL_OK(axl_buffer_create_from_const(b, 4, axl_range_1d(4), NULL, &B));
    AXL_OK(axl_buffer_create_from(out, 4, axl_range_1d(4), NULL, &O));
    AXL_OK(axl_queue_single_task(r.q, k,
                                 AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(B),
                                          AXL_ARG_INOUT(O), AXL_ARG_U32(3)),
                                 NULL, 0, NULL));
    AXL_OK(axl_buffer_release(O));
    assert_int_equal(out[0], INT32_MIN);
    assert_int_equal(out[1], -2);
    assert_int_equal(out[2], INT32_MAX);
    assert_int_equal(out[3], 77);
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    rig_down(&r, k);
}

/* out[i] = clamp(floor((acc + 2^14) / 2^15), -32768, 32767), zero history. */
static void fir_rounds_half_up_saturates_and_starts_empty(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel k = axl_test_rig_kernel(&r, "fir");
    int16_t in[6] = {1, -1, 3, 32767, 32767, -32768};
    int16_t coeff[2] = {16384, 32767}; /* 0.5 and 1 - 2^-15 */
    int16_t out[6];
    axl_buffer I, C, O;
    AXL_OK(axl_buffer_create_from_const(in, 2, axl_range_1d(6), NULL, &I));
    AXL_OK(axl_buffer_create_from_const(coeff, 2, axl_range_1d(2), NULL, &C));
    AXL_OK(axl_buffer_create_from(out, 2, axl_range_1d(6), NULL, &O));
    AXL_OK(axl_queue_single_task(r.q, k,
                                 AXL_ARGS(AXL_ARG_IN(I), AXL_ARG_IN(C),
                                          AXL_ARG_OUT(O), AXL_ARG_U32(2),
                                          AXL_ARG_U32(6)),
                                 NULL, 0, NULL));
    AXL_OK(axl_buffer_release(O));
    /* i = 0: only k = 0 (no history): 16384 * 1 = 0.5 -> 1 (half up) */
    assert_int_equal(out[0], 1);
    /* i = 1: 16384 * -1 + 32767 * 1 = 16383 -> floor(32767 / 32768) = 0 */
    assert_int_equal(out[1], 0);
    /* i = 2: 16384 * 3 + 32767 * -1 = 16385 -> floor(32769 / 32768) = 1 */
    assert_int_equal(out[2], 1);
    /* i = 3: 16384 * 32767 + 32767 * 3 = 536952829 -> 16386 */
    assert_int_equal(out[3], 16386);
    /* i = 4: (16384 + 32767) * 32767 = 1610530817 -> saturates at 32767 */
    assert_int_equal(out[4], 32767);
    /* i = 5: 16384 * -32768 + 32767 * 32767 = 536805377 -> 16382 */
    assert_int_equal(out[5], 16382);
    AXL_OK(axl_buffer_release(I));
    AXL_OK(axl_buffer_release(C));
    rig_down(&r, k);
}

static void fir_saturates_negative_sums(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel k = axl_test_rig_kernel(&r, "fir");
    int16_t in[2] = {-32768, -32768};
    int16_t coeff[2] = {32767, 32767};
    int16_t out[2];
    axl_buffer I, C, O;
    AXL_OK(axl_buffer_create_from_const(in, 2, axl_range_1d(2), NULL, &I));
    AXL_OK(axl_buffer_create_from_const(coeff, 2, axl_range_1d(2), NULL, &C));
    AXL_OK(axl_buffer_create_from(out, 2, axl_range_1d(2), NULL, &O));
    AXL_OK(axl_queue_single_task(r.q, k,
                                 AXL_ARGS(AXL_ARG_IN(I), AXL_ARG_IN(C),
                                          AXL_ARG_OUT(O), AXL_ARG_U32(2),
                                          AXL_ARG_U32(2)),
                                 NULL, 0, NULL));
    AXL_OK(axl_buffer_release(O));
    /* -32767 * 32768 / 2^15 = -32767; twice that saturates at -32768 */
    assert_int_equal(out[0], -32767);
    assert_int_equal(out[1], -32768);
    AXL_OK(axl_buffer_release(I));
    AXL_OK(axl_buffer_release(C));
    rig_down(&r, k);
}

/* One conv2d over a 3x3 image with coeff (shift), into out. */
static void conv(axl_test_rig *r, axl_kernel k, const uint8_t in[9],
                 const int8_t coeff[9], uint32_t shift, uint8_t out[9])
{
    axl_buffer I, C, O;
    AXL_OK(axl_buffer_create_from_const(in, 1, axl_range_2d(3, 3), NULL, &I));
    AXL_OK(axl_buffer_create_from_const(coeff, 1, axl_range_1d(9), NULL, &C));
    AXL_OK(axl_buffer_create_from(out, 1, axl_range_2d(3, 3), NULL, &O));
    AXL_OK(axl_queue_single_task(r->q, k,
                                 AXL_ARGS(AXL_ARG_IN(I), AXL_ARG_IN(C),
                                          AXL_ARG_OUT(O), AXL_ARG_U32(3),
                                          AXL_ARG_U32(3), AXL_ARG_U32(shift)),
                                 NULL, 0, NULL));
    AXL_OK(axl_buffer_release(O));
    AXL_OK(axl_buffer_release(I));
    AXL_OK(axl_buffer_release(C));
}

/* "The window is NOT flipped", zero padding, clamp to 0..255, shift. */
static void conv2d_correlates_pads_with_zero_and_clamps(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel k = axl_test_rig_kernel(&r, "conv2d");
    const uint8_t in[9] = {10, 20, 30, 40, 50, 60, 70, 80, 200};
    uint8_t out[9];
    /* coeff[5] is (dy 0, dx +1): each pixel takes its right neighbour; a
     * flipped window would take the left one. Past the right edge: 0. */
    const int8_t right[9] = {0, 0, 0, 0, 0, 1, 0, 0, 0};
    conv(&r, k, in, right, 0, out);
    const uint8_t want_right[9] = {20, 30, 0, 50, 60, 0, 80, 200, 0};
    assert_memory_equal(out, want_right, 9);
    /* coeff[1] is (dy -1, dx 0): the pixel above; the top row has none. */
    const int8_t up[9] = {0, 1, 0, 0, 0, 0, 0, 0, 0};
    conv(&r, k, in, up, 0, out);
    const uint8_t want_up[9] = {0, 0, 0, 10, 20, 30, 40, 50, 60};
    assert_memory_equal(out, want_up, 9);
    /* 2 x pixel, shifted by 1: the pixel; 3 x 200 = 600 >> 1 = 300 -> 255 */
    const int8_t twice[9] = {0, 0, 0, 0, 3, 0, 0, 0, 0};
    conv(&r, k, in, twice, 1, out);
    assert_int_equal(out[0], 15);  /* 30 >> 1 */
    assert_int_equal(out[8], 255); /* 300 clamps */
    /* A negative sum is 0. */
    const int8_t neg[9] = {0, 0, 0, 0, -1, 0, 0, 0, 0};
    conv(&r, k, in, neg, 0, out);
    const uint8_t zeros[9] = {0};
    assert_memory_equal(out, zeros, 9);
    rig_down(&r, k);
}

/* "shift: 0..30 (above 30 the command fails with AXL_ERR_KERNEL)"; a
 * buffer shorter than the scalars say fails naming the argument. */
static void conv2d_refuses_a_shift_above_30_and_short_buffers(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel k = axl_test_rig_kernel(&r, "conv2d");
    const uint8_t in[9] = {0};
    const int8_t coeff[9] = {0};
    uint8_t out[9];
    axl_buffer I, C, O;
    AXL_OK(axl_buffer_create_from_const(in, 1, axl_range_1d(9), NULL, &I));
    AXL_OK(axl_buffer_create_from_const(coeff, 1, axl_range_1d(9), NULL, &C));
    AXL_OK(axl_buffer_create_from(out, 1, axl_range_1d(9), NULL, &O));
    axl_event e;
    AXL_OK(axl_queue_single_task(r.q, k,
                                 AXL_ARGS(AXL_ARG_IN(I), AXL_ARG_IN(C),
                                          AXL_ARG_OUT(O), AXL_ARG_U32(3),
                                          AXL_ARG_U32(3), AXL_ARG_U32(31)),
                                 NULL, 0, &e));
    AXL_EXPECT(axl_event_wait(e), AXL_ERR_KERNEL);
    AXL_OK(axl_event_release(e));
    AXL_EXPECT(axl_queue_wait_and_throw(r.q), AXL_ERR_KERNEL);
    AXL_OK(axl_queue_single_task(r.q, k,
                                 AXL_ARGS(AXL_ARG_IN(I), AXL_ARG_IN(C),
                                          AXL_ARG_OUT(O), AXL_ARG_U32(4),
                                          AXL_ARG_U32(3), AXL_ARG_U32(0)),
                                 NULL, 0, &e));
    AXL_EXPECT(axl_event_wait(e), AXL_ERR_KERNEL);
    AXL_MESSAGE_HAS("conv2d: argument in must be a buffer of at least 12 "
                    "bytes");
    AXL_OK(axl_event_release(e));
    AXL_EXPECT(axl_queue_wait_and_throw(r.q), AXL_ERR_KERNEL);
    AXL_OK(axl_buffer_release(I));
    AXL_OK(axl_buffer_release(C));
    /* Both runs failed writing O: nothing to write back (4.7.2.3), and
     * the queue's next throw reports it. */
    AXL_EXPECT(axl_buffer_release(O), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("nothing written back");
    AXL_EXPECT(axl_queue_throw_asynchronous(r.q), AXL_ERR_RUNTIME);
    rig_down(&r, k);
}

/* mmult: "accumulated in float ... from 0.0f" in k order, row-major. */
static void mmult_accumulates_row_major_in_float(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel k = axl_test_rig_kernel(&r, "mmult");
    enum { D = 3 };
    float a[D * D], b[D * D], c[D * D], want[D * D];
    for (int i = 0; i < D * D; i++) {
        a[i] = 1.0f / (float)(i + 1);
        b[i] = (float)(i % 4) - 1.5f;
    }
    for (int i = 0; i < D; i++)
        for (int j = 0; j < D; j++) {
            float acc = 0.0f;
            for (int x = 0; x < D; x++)
                acc += a[i * D + x] * b[x * D + j];
            want[i * D + j] = acc;
        }
    axl_device dev = axl_test_emu_device();
    axl_buffer A, B, C;
    AXL_OK(axl_buffer_create_from_const(a, 4, axl_range_1d(D * D), NULL, &A));
    AXL_OK(axl_buffer_create_from_const(b, 4, axl_range_1d(D * D), NULL, &B));
    AXL_OK(axl_buffer_create_from(c, 4, axl_range_1d(D * D), NULL, &C));
    /* "reaching bank 1 only" */
    AXL_OK(axl_buffer_place(A, dev, 1));
    AXL_OK(axl_buffer_place(B, dev, 1));
    AXL_OK(axl_buffer_place(C, dev, 1));
    AXL_OK(axl_queue_single_task(r.q, k,
                                 AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(B),
                                          AXL_ARG_OUT(C), AXL_ARG_U32(D)),
                                 NULL, 0, NULL));
    AXL_OK(axl_buffer_release(C));
    assert_memory_equal(c, want, sizeof want);
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    rig_down(&r, k);
}

#define T(f) cmocka_unit_test_setup_teardown(f, axl_test_setup, axl_test_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(vadd_wraps_and_writes_only_size_elements),
        T(fir_rounds_half_up_saturates_and_starts_empty),
        T(fir_saturates_negative_sums),
        T(conv2d_correlates_pads_with_zero_and_clamps),
        T(conv2d_refuses_a_shift_above_30_and_short_buffers),
        T(mmult_accumulates_row_major_in_float),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
