/*
 * graph.c - "Recorded graphs" of docs/running-kernels.md, whole: a frame's commands (a
 * vadd over the first n elements, then the sum copied to the host)
 * recorded once from a queue, finalized, and submitted once per frame
 * with n updated between frames. Prints "graph: ok" when every frame's
 * sum is right.
 */
#include <stdint.h>
#include <stdio.h>

#include "axl/axl.h"

#define N 1024
#define FRAMES 4

#define CHECK(call)                                                            \
    do {                                                                       \
        axl_status st_ = (call);                                               \
        if (st_ != AXL_SUCCESS) {                                              \
            fprintf(stderr, "%s: %s\n  %s\n", #call, axl_status_name(st_),     \
                    axl_last_message());                                       \
            return 1;                                                          \
        }                                                                      \
    } while (0)

static int run(axl_queue q)
{
    static int32_t a[N], b[N], sum[N];
    for (int i = 0; i < N; i++) {
        a[i] = i;
        b[i] = 3 * i;
    }
    axl_device dev;
    axl_context ctx;
    CHECK(axl_queue_get_device(q, &dev));
    CHECK(axl_queue_get_context(q, &ctx));
    axl_kernel_id vadd;
    axl_kernel_bundle bundle;
    axl_kernel k;
    axl_buffer A, B, S;
    CHECK(axl_get_built_in_kernel_id(dev, "vadd", &vadd));
    CHECK(axl_get_kernel_bundle_for(ctx, &dev, 1, &vadd, 1,
                                    AXL_BUNDLE_EXECUTABLE, &bundle));
    CHECK(axl_kernel_bundle_get_kernel(bundle, vadd, &k));
    CHECK(axl_buffer_create_from_const(a, 4, axl_range_1d(N), NULL, &A));
    CHECK(axl_buffer_create_from_const(b, 4, axl_range_1d(N), NULL, &B));
    CHECK(axl_buffer_create(4, axl_range_1d(N), NULL, &S));
    int32_t zero = 0;
    CHECK(axl_queue_fill(q, S, NULL, &zero, 4, NULL, 0, NULL));

    /* Record a frame: nothing runs while the queue records. */
    axl_graph g;
    axl_graph_exec frame;
    axl_event e;
    CHECK(axl_graph_create(ctx, dev, &g));
    CHECK(axl_graph_begin_recording(g, q));
    CHECK(axl_queue_single_task(q, k, AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(B),
                                               AXL_ARG_WRITE(S),
                                               AXL_ARG_U32(N)),
                                NULL, 0, &e)); /* e stands for the node */
    CHECK(axl_queue_copy_to_host(q, S, NULL, sum, NULL, 0, NULL));
    CHECK(axl_graph_end_recording(g, q));
    CHECK(axl_graph_finalize(g, &frame));
    axl_graph_node launch;
    CHECK(axl_graph_node_from_event(e, &launch));
    CHECK(axl_graph_release(g));

    /* One submission per frame, each adding one more quarter. */
    for (uint32_t f = 1; f <= FRAMES; f++) {
        uint32_t n = f * (N / FRAMES);
        axl_event done;
        CHECK(axl_graph_exec_update_scalar(frame, launch, 3, &n, sizeof n));
        CHECK(axl_queue_submit_graph(q, frame, NULL, 0, &done));
        CHECK(axl_event_wait(done));
        CHECK(axl_event_release(done));
        for (uint32_t i = 0; i < N; i++) {
            int32_t want = i < n ? 4 * (int32_t)i : 0;
            if (sum[i] != want) {
                fprintf(stderr, "graph: frame %u: sum[%u] = %d, not %d\n",
                        (unsigned)f, (unsigned)i, (int)sum[i], (int)want);
                return 1;
            }
        }
    }
    CHECK(axl_graph_exec_release(frame));
    CHECK(axl_buffer_release(S));
    CHECK(axl_buffer_release(A));
    CHECK(axl_buffer_release(B));
    CHECK(axl_kernel_release(k));
    CHECK(axl_kernel_bundle_release(bundle));
    printf("graph: ok\n");
    return 0;
}

int main(void)
{
    axl_queue q;
    CHECK(axl_queue_create_selected(axl_default_selector, NULL,
                                    AXL_QUEUE_IN_ORDER, NULL, &q));
    int rc = run(q);
    CHECK(axl_queue_release(q));
    CHECK(axl_shutdown());
    return rc;
}
