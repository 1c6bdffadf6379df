/*
 * vadd.c - the README's "Running a kernel", whole: the built-in kernel
 * vadd of the device's design, found by name, run once over three buffers
 * made from host arrays, the sum written back when the output buffer is
 * released. Prints "vadd: ok" when every element is right.
 */
#include <stdint.h>
#include <stdio.h>

#include "axl/axl.h"

#define N 1024

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
    uint32_t n = N;
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
    CHECK(axl_buffer_create_from(sum, 4, axl_range_1d(N), NULL, &S));

    axl_kernel_arg args[4] = {{0, NULL, 0, A, AXL_ACCESS_READ, NULL},
                              {1, NULL, 0, B, AXL_ACCESS_READ, NULL},
                              {2, NULL, 0, S, AXL_ACCESS_WRITE_NO_INIT, NULL},
                              {3, &n, sizeof n, AXL_NONE, 0, NULL}};
    CHECK(axl_queue_single_task(q, k, args, 4, NULL, 0, NULL));
    CHECK(axl_buffer_release(S)); /* waits for the kernel, writes sum[] back */
    CHECK(axl_buffer_release(A));
    CHECK(axl_buffer_release(B));
    CHECK(axl_kernel_release(k));
    CHECK(axl_kernel_bundle_release(bundle));

    for (int i = 0; i < N; i++)
        if (sum[i] != 4 * i) {
            fprintf(stderr, "vadd: sum[%d] = %d, not %d\n", i, (int)sum[i],
                    4 * i);
            return 1;
        }
    printf("vadd: ok\n");
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
