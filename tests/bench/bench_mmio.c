/*
 * bench_mmio - what a launch costs through the mmio port (xrt/mmio), with
 * the register-level simulator behind its seam, stepped: a unit's model
 * runs when the port's poll reads its control word, on the same thread.
 *
 *   axl-bench-mmio              ns per launch (median of 7 runs)
 *   axl-bench-mmio vadd N       N launches, for callgrind
 *                               (tests/bench/callgrind_mmio.sh)
 *
 * A launch is axl_queue_single_task of the stock vadd (4 arguments: three
 * buffers already on the device, one scalar) on an in-order queue, the
 * wait for its event and the event's release. vadd's model is replaced by
 * one that does nothing, so the figure is the runtime, the port (argument
 * registers, ap_start, polls, ap_continue) and the simulator's register
 * file, not the addition.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axl/axl.h"
#include "axl/emu.h"

#define CHECK(call)                                                            \
    do {                                                                       \
        axl_status st_ = (call);                                               \
        if (st_ != AXL_SUCCESS) {                                              \
            fprintf(stderr, "%s: %s: %s\n", #call, axl_status_name(st_),       \
                    axl_last_message());                                       \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

static axl_status nothing(const axl_emu_call *c, void *user)
{
    (void)c;
    (void)user;
    return AXL_SUCCESS;
}

typedef struct rig {
    axl_context ctx;
    axl_queue q;
    axl_kernel_bundle bundle;
    axl_kernel vadd;
    axl_buffer a, b, o;
    axl_kernel_arg args[4];
    uint32_t n;
} rig;

static void up(rig *r)
{
    CHECK(axl_emu_register_model("vadd", nothing, NULL));
    axl_device d;
    CHECK(axl_device_select(axl_default_selector, NULL, &d));
    CHECK(axl_context_create(&d, 1, NULL, &r->ctx));
    CHECK(axl_queue_create(r->ctx, d, AXL_QUEUE_IN_ORDER, NULL, &r->q));
    axl_kernel_id id;
    CHECK(axl_get_built_in_kernel_id(d, "vadd", &id));
    CHECK(axl_get_kernel_bundle_for(r->ctx, NULL, 0, &id, 1,
                                    AXL_BUNDLE_EXECUTABLE, &r->bundle));
    CHECK(axl_kernel_bundle_get_kernel(r->bundle, id, &r->vadd));
    CHECK(axl_buffer_create(4, axl_range_1d(16), NULL, &r->a));
    CHECK(axl_buffer_create(4, axl_range_1d(16), NULL, &r->b));
    CHECK(axl_buffer_create(4, axl_range_1d(16), NULL, &r->o));
    r->n = 16;
    axl_kernel_arg args[4] = {{.index = 0, .buffer = r->a, .mode = AXL_ACCESS_READ},
                              {.index = 1, .buffer = r->b, .mode = AXL_ACCESS_READ},
                              {.index = 2, .buffer = r->o, .mode = AXL_ACCESS_WRITE_NO_INIT},
                              {.index = 3, .value = &r->n, .size = 4}};
    memcpy(r->args, args, sizeof args);
}

static void down(rig *r)
{
    CHECK(axl_buffer_release(r->a));
    CHECK(axl_buffer_release(r->b));
    CHECK(axl_buffer_release(r->o));
    CHECK(axl_kernel_release(r->vadd));
    CHECK(axl_kernel_bundle_release(r->bundle));
    CHECK(axl_queue_release(r->q));
    CHECK(axl_context_release(r->ctx));
    CHECK(axl_shutdown());
}

static void launch(rig *r)
{
    axl_event e;
    CHECK(axl_queue_single_task(r->q, r->vadd, r->args, 4, NULL, 0, &e));
    CHECK(axl_event_wait(e));
    CHECK(axl_event_release(e));
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    rig r;
    up(&r);
    launch(&r); /* places the buffers, opens the unit */
    launch(&r); /* the launch cache */
    if (argc == 3 && !strcmp(argv[1], "vadd")) {
        for (int i = 0, n = atoi(argv[2]); i < n; i++)
            launch(&r);
        down(&r);
        return 0;
    }
    enum { N = 2000 };
    double runs[7];
    for (int k = 0; k < 7; k++) {
        double t0 = now_ns();
        for (int i = 0; i < N; i++)
            launch(&r);
        runs[k] = (now_ns() - t0) / N;
    }
    qsort(runs, 7, sizeof runs[0], cmp);
    printf("mmio_vadd_launch %.0f ns/launch\n", runs[3]);
    down(&r);
    return 0;
}
