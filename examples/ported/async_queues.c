/*
 * async_queues.c - Vitis_Accel_Examples' asynchronous_xrt (xrt::queue) on
 * axl: the second input goes to the device on a queue of its own while
 * the first goes on the main queue; the kernel waits for both (the first
 * by the main queue's order, the second by its event), then the result
 * comes back on the main queue, and the sums are checked.
 */
#include "example.h"
#include "async_queues_xclbin.h"

#define N (512 * 512)

int main(void)
{
    static int32_t a[N], b[N], out[N];
    for (int i = 0; i < N; i++)
        a[i] = b[i] = i;
    axl_queue main_q, side_q;
    axl_device dev;
    axl_context ctx;
    axl_kernel_id id;
    axl_kernel_bundle bundle;
    axl_kernel vadd;
    axl_buffer A, B, S;
    axl_event b_sent, done;
    CHECK(axl_image_register(async_queues_xclbin, async_queues_xclbin_size));
    CHECK(axl_queue_create_selected(axl_default_selector, NULL,
                                    AXL_QUEUE_IN_ORDER, NULL, &main_q));
    CHECK(axl_queue_get_context(main_q, &ctx));
    CHECK(axl_queue_get_device(main_q, &dev));
    CHECK(axl_queue_create(ctx, dev, 0, NULL, &side_q));
    CHECK(axl_get_kernel_id("vadd", &id));
    CHECK(axl_get_kernel_bundle_for(ctx, NULL, 0, &id, 1,
                                    AXL_BUNDLE_EXECUTABLE, &bundle));
    CHECK(axl_kernel_bundle_get_kernel(bundle, id, &vadd));
    CHECK(axl_buffer_create(4, axl_range_1d(N), NULL, &A));
    CHECK(axl_buffer_create(4, axl_range_1d(N), NULL, &B));
    CHECK(axl_buffer_create(4, axl_range_1d(N), NULL, &S));
    CHECK(axl_queue_copy_from_host(side_q, b, B, NULL, NULL, 0, &b_sent));
    CHECK(axl_queue_copy_from_host(main_q, a, A, NULL, NULL, 0, NULL));
    CHECK(axl_queue_single_task(main_q, vadd,
                                AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(B),
                                         AXL_ARG_OUT(S), AXL_ARG_U32(N)),
                                &b_sent, 1, NULL));
    CHECK(axl_queue_copy_to_host(main_q, S, NULL, out, NULL, 0, &done));
    CHECK(axl_event_wait(done));
    CHECK(axl_event_release(done));
    CHECK(axl_event_release(b_sent));
    CHECK(axl_buffer_release(S));
    CHECK(axl_buffer_release(A));
    CHECK(axl_buffer_release(B));
    CHECK(axl_kernel_release(vadd));
    CHECK(axl_kernel_bundle_release(bundle));
    CHECK(axl_queue_release(side_q));
    CHECK(axl_queue_release(main_q));
    for (int i = 0; i < N; i++)
        if (out[i] != a[i] + b[i]) {
            fprintf(stderr, "out[%d] = %d, not %d\n", i, out[i], a[i] + b[i]);
            return 1;
        }
    printf("TEST PASSED\n");
    return axl_shutdown();
}
