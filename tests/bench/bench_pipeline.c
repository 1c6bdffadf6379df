/*
 * bench_pipeline - what starting and stopping a streaming pipeline costs
 * (axl/pipeline.h), printed as `name value unit` lines.
 *
 * The pipeline is test_pipelines' sadd pipeline on bitstreams/streams.cfg:
 * mm2s_1 -> sadd_1 -> s2mm_1, three units joined by FIFOs of 64, sadd_1
 * on auto-restart with its addend set, mm2s_1 and s2mm_1 commands. The
 * same program runs on the emulated device (axl-bench-pipeline) and on the
 * mmio port over the C-model simulator (axl-bench-pipeline-mmio).
 *
 *   bench_pipeline open N    N times: create, set the addend, release
 *   bench_pipeline cycle N   N times: create, set the addend, start,
 *                            release (which stops it: auto-restart
 *                            cleared, sadd_1, waiting for a packet that
 *                            will not come, reset, as a board's would be)
 *   bench_pipeline           pipeline_start_stop in ns: the median over 7
 *                            runs of (cycle - open) / 100
 *
 * tests/bench/instructions.sh runs open and cycle under callgrind: start +
 * stop = (Ir(cycle N) - Ir(open N)) / N.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axl/axl.h"
#include "axl/emu.h"
#include "axl_bench_streams_xclbin.h"

#include "bench_check.h"

typedef struct rig {
    axl_context ctx;
    axl_queue q;
    axl_kernel_bundle b;
} rig;

static rig up(void)
{
    CHECK(axl_emu_set_builtin_image(axl_bench_streams_xclbin,
                                    axl_bench_streams_xclbin_size));
    CHECK(axl_emu_register_model("mm2s", axl_emu_model_mm2s, NULL));
    CHECK(axl_emu_register_model("sadd", axl_emu_model_sadd, NULL));
    CHECK(axl_emu_register_model("s2mm", axl_emu_model_s2mm, NULL));
    CHECK(axl_emu_register_model("sinc", axl_emu_model_sinc, NULL));
    rig r;
    axl_device d;
    CHECK(axl_device_select(axl_default_selector, NULL, &d));
    CHECK(axl_context_create(&d, 1, NULL, &r.ctx));
    CHECK(axl_queue_create(r.ctx, d, AXL_QUEUE_IN_ORDER, NULL, &r.q));
    axl_kernel_id ids[8]; /* the design's kernels: the device's built-ins */
    size_t size = 0;
    CHECK(axl_device_get_info(d, AXL_DEVICE_INFO_BUILT_IN_KERNEL_IDS, ids,
                              sizeof ids, &size));
    CHECK(axl_get_kernel_bundle_for(r.ctx, &d, 1, ids,
                                    (uint32_t)(size / sizeof ids[0]),
                                    AXL_BUNDLE_EXECUTABLE, &r.b));
    return r;
}

static void down(rig *r)
{
    CHECK(axl_kernel_bundle_release(r->b));
    CHECK(axl_queue_release(r->q));
    CHECK(axl_context_release(r->ctx));
    CHECK(axl_shutdown());
}

/* One pipeline's life: created, its addend set, started if start, let
 * go of. */
static void once(const rig *r, bool start)
{
    static const char *const restart[] = {"sadd_1"};
    const axl_pipeline_desc d = {r->b, "sadd_1", restart, 1, 0, 0};
    const uint32_t addend = 1;
    axl_pipeline p;
    CHECK(axl_pipeline_create(r->q, &d, &p));
    CHECK(axl_pipeline_set_arg(p, "sadd_1", 2, &addend, sizeof addend));
    if (start)
        CHECK(axl_pipeline_start(p));
    CHECK(axl_pipeline_release(p));
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double timed(const rig *r, bool start, int n)
{
    const double t0 = now_ns();
    for (int i = 0; i < n; i++)
        once(r, start);
    return now_ns() - t0;
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    rig r = up();
    once(&r, true); /* first-run work (the units' workers) out of the way */
    if (argc == 3 && (!strcmp(argv[1], "open") || !strcmp(argv[1], "cycle"))) {
        const bool start = !strcmp(argv[1], "cycle");
        for (int i = 0, n = atoi(argv[2]); i < n; i++)
            once(&r, start);
        down(&r);
        return 0;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: %s [open N | cycle N]\n", argv[0]);
        return 2;
    }
    double v[7];
    for (int i = 0; i < 7; i++)
        v[i] = (timed(&r, true, 100) - timed(&r, false, 100)) / 100;
    qsort(v, 7, sizeof v[0], cmp);
    printf("pipeline_start_stop %.0f ns/cycle\n", v[3]);
    down(&r);
    return 0;
}
