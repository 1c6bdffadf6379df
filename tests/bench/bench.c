/*
 * bench - what axl costs, printed as `name value unit` lines.
 *
 *   bench                    every figure below
 *   bench chain N            one scenario only (for callgrind; see
 *   bench independent N      tests/bench/instructions.sh)
 *   bench launch N
 *   bench graph1 N           N replays of a recorded graph of 1 nop launch
 *   bench graph4 N           ... of a chain of 4 nop launches
 *   bench graph16 N          ... of a chain of 16 (graphK: a chain of K)
 *   bench record N           N nop launches recorded into a graph from
 *                            an in-order queue (begin_recording to
 *                            end_recording, the graph released): what
 *                            recording costs per node
 *   bench swap               the swap figures only (ns)
 *   bench swapK N            2N rounds of K commands (K 1 to 8) on the
 *                            emulated device, fir's design and the
 *                            stock one's nop in turn: 2N swaps, each
 *                            releasing K commands (issue 40; built when
 *                            the tests' second design is, AXL_BENCH_SWAP)
 *   bench groupedK N         the same rounds, fir's first: two swaps
 *   bench slotswapK N,       the same with vadd and fir partials taking
 *   bench slotgroupedK N     turns in DFX slot RP_0 (bench_swap.h)
 *   bench vaddB N            N vadds of B-byte buffers (two read-only
 *                            inputs): what the emulated device's
 *                            read-only check costs, run by
 *                            tests/bench/instructions.sh with it on and
 *                            off (AXL_EMU_CHECK_READ_ONLY)
 *
 * Figures:
 *   host_task_chain_N         ns per command: N host tasks on an in-order
 *                             queue, each waiting for the one before
 *   host_task_independent_N   ns per command: N host tasks on an
 *                             out-of-order queue, no dependencies
 *   empty_kernel_launch       ns per launch: single_task of the stock nop
 *                             kernel on an in-order queue, from submit to
 *                             the end of the wait (event released)
 *   graph_replay_1_node      ns per kernel: axl_queue_submit_graph of a
 *                             recorded graph of one nop launch, its wait
 *                             and its event's release
 *   graph_replay_4_chain     ns per kernel: the same for a chain of four
 *   graph_replay_16_chain    ns per kernel: ... of sixteen
 *   graph_replay_fixed       ns per submission, and
 *   graph_replay_per_node    ns per node, of a replay: from the totals
 *                            per submission T1, T4, T16 of the three
 *                            above, per_node = (T16 - T4) / 12 and
 *                            fixed = T1 - per_node
 *   graph_record_N           ns per node recorded, N = 10, 1000, 10000,
 *                            or what the build's AXL_MAX_GRAPH_NODES
 *                            holds (tests/bench/instructions.sh builds
 *                            one with 4095, the most a pool holds)
 *   copy_to_device_bandwidth  GB/s: whole-buffer copies from host memory
 *                             into a buffer on the emulated device's bank
 *   memcpy_bandwidth          GB/s: memcpy of the same bytes, same run
 *   swap_per_load             ns per swap beyond the commands it released,
 *   swap_per_released_command and per command a swap released
 *                             (bench_swap.c says how)
 * Each time figure is the median of 7 runs.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axl/axl.h"

#include "bench_check.h"
#if AXL_BENCH_SWAP
#include "bench_swap.h"
#endif

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

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof v[0], cmp);
    return v[n / 2];
}

static axl_status empty(void *user)
{
    (void)user;
    return AXL_SUCCESS;
}

static axl_queue queue(uint32_t flags)
{
    axl_queue q;
    CHECK(axl_queue_create_selected(axl_default_selector, NULL, flags, NULL,
                                    &q));
    return q;
}

/* Submits n host tasks and waits for them; ns per command. */
static double host_tasks(axl_queue q, int n)
{
    double t0 = now_ns();
    for (int i = 0; i < n; i++)
        CHECK(axl_queue_host_task(q, empty, NULL, NULL, 0, NULL));
    CHECK(axl_queue_wait(q));
    return (now_ns() - t0) / n;
}

static void tasks_figure(const char *name, uint32_t flags, int n)
{
    axl_queue q = queue(flags);
    host_tasks(q, n); /* warm up: threads awake, caches warm */
    double runs[7];
    for (int r = 0; r < 7; r++)
        runs[r] = host_tasks(q, n);
    printf("%s_%d %.0f ns/command\n", name, n, median(runs, 7));
    CHECK(axl_queue_release(q));
}

typedef struct launch_rig {
    axl_context ctx;
    axl_queue q;
    axl_kernel_bundle bundle;
    axl_kernel nop;
} launch_rig;

static launch_rig launch_up(void)
{
    launch_rig r;
    axl_device d;
    CHECK(axl_device_select(axl_default_selector, NULL, &d));
    CHECK(axl_context_create(&d, 1, NULL, &r.ctx));
    CHECK(axl_queue_create(r.ctx, d, AXL_QUEUE_IN_ORDER, NULL, &r.q));
    axl_kernel_id nop;
    CHECK(axl_get_built_in_kernel_id(d, "nop", &nop));
    CHECK(axl_get_kernel_bundle_for(r.ctx, NULL, 0, &nop, 1,
                                    AXL_BUNDLE_EXECUTABLE, &r.bundle));
    CHECK(axl_kernel_bundle_get_kernel(r.bundle, nop, &r.nop));
    return r;
}

static void launch_down(launch_rig *r)
{
    CHECK(axl_kernel_release(r->nop));
    CHECK(axl_kernel_bundle_release(r->bundle));
    CHECK(axl_queue_release(r->q));
    CHECK(axl_context_release(r->ctx));
}

/* One launch: submit, wait, release the event. */
static void launch_once(launch_rig *r)
{
    axl_event e;
    CHECK(axl_queue_single_task(r->q, r->nop, NULL, 0, NULL, 0, &e));
    CHECK(axl_event_wait(e));
    CHECK(axl_event_release(e));
}

static void launch_figure(void)
{
    launch_rig r = launch_up();
    enum { N = 2000 };
    for (int i = 0; i < N; i++)
        launch_once(&r);
    double runs[7];
    for (int k = 0; k < 7; k++) {
        double t0 = now_ns();
        for (int i = 0; i < N; i++)
            launch_once(&r);
        runs[k] = (now_ns() - t0) / N;
    }
    printf("empty_kernel_launch %.0f ns/launch\n", median(runs, 7));
    launch_down(&r);
}

/* A graph of `nodes` nop launches, each after the one before (recorded
 * from the rig's in-order queue), finalized. */
static axl_graph_exec graph_up(launch_rig *r, int nodes)
{
    axl_device d;
    CHECK(axl_queue_get_device(r->q, &d));
    axl_graph g;
    CHECK(axl_graph_create(r->ctx, d, &g));
    CHECK(axl_graph_begin_recording(g, r->q));
    for (int i = 0; i < nodes; i++)
        CHECK(axl_queue_single_task(r->q, r->nop, NULL, 0, NULL, 0, NULL));
    CHECK(axl_graph_end_recording(g, r->q));
    axl_graph_exec x;
    CHECK(axl_graph_finalize(g, &x));
    CHECK(axl_graph_release(g));
    return x;
}

/* One replay: submit, wait, release the event. */
static void replay_once(launch_rig *r, axl_graph_exec x)
{
    axl_event e;
    CHECK(axl_queue_submit_graph(r->q, x, NULL, 0, &e));
    CHECK(axl_event_wait(e));
    CHECK(axl_event_release(e));
}

/* The floors under any replay or launch, with no device work: a
 * command group with no action (4.9.3: its event completes once its
 * dependencies have) + wait + release, and a replay of a graph whose one
 * node is such a group. What a submission's event, ordering, wait and
 * release cost alone: callgrind_emu.sh prints them beside the targets. */
static void no_action(axl_handler *h, void *user)
{
    (void)h;
    (void)user;
}

static void empty_once(launch_rig *r, axl_graph_exec unused)
{
    (void)unused; /* replay_once's signature */
    axl_event e;
    CHECK(axl_queue_submit(r->q, no_action, NULL, &e));
    CHECK(axl_event_wait(e));
    CHECK(axl_event_release(e));
}

static axl_graph_exec empty_graph_up(launch_rig *r)
{
    axl_device d;
    CHECK(axl_queue_get_device(r->q, &d));
    axl_graph g;
    CHECK(axl_graph_create(r->ctx, d, &g));
    CHECK(axl_graph_begin_recording(g, r->q));
    CHECK(axl_queue_submit(r->q, no_action, NULL, NULL));
    CHECK(axl_graph_end_recording(g, r->q));
    axl_graph_exec x;
    CHECK(axl_graph_finalize(g, &x));
    CHECK(axl_graph_release(g));
    return x;
}

/* ns per submission (the whole graph). */
static double graph_figure(const char *name, int nodes)
{
    launch_rig r = launch_up();
    axl_graph_exec x = graph_up(&r, nodes);
    enum { N = 1000 };
    for (int i = 0; i < N; i++)
        replay_once(&r, x);
    double runs[7];
    for (int k = 0; k < 7; k++) {
        double t0 = now_ns();
        for (int i = 0; i < N; i++)
            replay_once(&r, x);
        runs[k] = (now_ns() - t0) / N / nodes;
    }
    const double per_kernel = median(runs, 7);
    printf("%s %.0f ns/kernel\n", name, per_kernel);
    CHECK(axl_graph_exec_release(x));
    launch_down(&r);
    return per_kernel * nodes;
}

/* Records `nodes` nop launches from the rig's in-order queue into a new
 * graph and releases it; the status of the first launch refused (a pool
 * full), with its message kept. */
static axl_status record_nodes(launch_rig *r, int nodes)
{
    axl_device d;
    CHECK(axl_queue_get_device(r->q, &d));
    axl_graph g;
    CHECK(axl_graph_create(r->ctx, d, &g));
    CHECK(axl_graph_begin_recording(g, r->q));
    axl_status st = AXL_SUCCESS;
    for (int i = 0; i < nodes && st == AXL_SUCCESS; i++)
        st = axl_queue_single_task(r->q, r->nop, NULL, 0, NULL, 0, NULL);
    CHECK(axl_graph_end_recording(g, r->q));
    CHECK(axl_graph_release(g));
    return st;
}

static void record_figure(int nodes)
{
    launch_rig r = launch_up();
    axl_status st = record_nodes(&r, nodes); /* warm up, and the capacity */
    if (st != AXL_SUCCESS) {
        printf("graph_record_%d - (%s: %s)\n", nodes, axl_status_name(st),
               axl_last_message());
        launch_down(&r);
        return;
    }
    double runs[7];
    const int reps = nodes < 1000 ? 1000 / nodes : 1;
    for (int k = 0; k < 7; k++) {
        double t0 = now_ns();
        for (int i = 0; i < reps; i++)
            record_nodes(&r, nodes);
        runs[k] = (now_ns() - t0) / reps / nodes;
    }
    printf("graph_record_%d %.0f ns/node\n", nodes, median(runs, 7));
    launch_down(&r);
}

static void bandwidth(void)
{
    enum { BYTES = 64 << 20 };
    unsigned char *src = malloc(BYTES), *dst = malloc(BYTES);
    memset(src, 1, BYTES);
    memset(dst, 2, BYTES);
    axl_queue q = queue(AXL_QUEUE_IN_ORDER);
    axl_device dev;
    CHECK(axl_queue_get_device(q, &dev));
    axl_buffer b;
    CHECK(axl_buffer_create(1, axl_range_1d(BYTES), NULL, &b));
    CHECK(axl_buffer_place(b, dev, 0));
    double dev_runs[7], mem_runs[7];
    for (int r = -1; r < 7; r++) {
        double t0 = now_ns();
        CHECK(axl_queue_copy_from_host(q, src, b, NULL, NULL, 0, NULL));
        CHECK(axl_queue_wait(q));
        double t1 = now_ns();
        memcpy(dst, src, BYTES);
        double t2 = now_ns();
        if (r >= 0) {
            dev_runs[r] = BYTES / (t1 - t0);
            mem_runs[r] = BYTES / (t2 - t1);
        }
    }
    printf("copy_to_device_bandwidth %.2f GB/s\n", median(dev_runs, 7));
    printf("memcpy_bandwidth %.2f GB/s\n", median(mem_runs, 7));
    if (dst[BYTES - 1] != 1)
        exit(1);
    CHECK(axl_buffer_release(b));
    CHECK(axl_queue_release(q));
    free(src);
    free(dst);
}

/* n vadds of `bytes`-byte buffers on the device: in1 and in2 given
 * read-only (AXL_ARG_IN), out no_init; after a first launch that places
 * them, nothing moves. */
static void vadd_launches(size_t bytes, int n)
{
    launch_rig r = launch_up();
    axl_device d;
    CHECK(axl_queue_get_device(r.q, &d));
    axl_kernel_id id;
    axl_kernel_bundle b;
    axl_kernel k;
    CHECK(axl_get_built_in_kernel_id(d, "vadd", &id));
    CHECK(axl_get_kernel_bundle_for(r.ctx, NULL, 0, &id, 1,
                                    AXL_BUNDLE_EXECUTABLE, &b));
    CHECK(axl_kernel_bundle_get_kernel(b, id, &k));
    const size_t elems = bytes / 4;
    axl_buffer in1, in2, out;
    CHECK(axl_buffer_create(4, axl_range_1d(elems), NULL, &in1));
    CHECK(axl_buffer_create(4, axl_range_1d(elems), NULL, &in2));
    CHECK(axl_buffer_create(4, axl_range_1d(elems), NULL, &out));
    CHECK(axl_queue_fill(r.q, in1, NULL, &(int32_t){1}, 4, NULL, 0, NULL));
    CHECK(axl_queue_fill(r.q, in2, NULL, &(int32_t){2}, 4, NULL, 0, NULL));
    for (int i = 0; i <= n; i++) { /* the first places them */
        axl_event e;
        CHECK(axl_queue_single_task(
            r.q, k,
            AXL_ARGS(AXL_ARG_IN(in1), AXL_ARG_IN(in2), AXL_ARG_OUT(out),
                     AXL_ARG_U32((uint32_t)elems)),
            NULL, 0, &e));
        CHECK(axl_event_wait(e));
        CHECK(axl_event_release(e));
    }
    CHECK(axl_buffer_release(in1));
    CHECK(axl_buffer_release(in2));
    CHECK(axl_buffer_release(out));
    CHECK(axl_kernel_release(k));
    CHECK(axl_kernel_bundle_release(b));
    launch_down(&r);
}

int main(int argc, char **argv)
{
    /* AXL_BENCH_TRACE=1: record a trace (no file: the cost of recording
     * alone, which tests/bench/instructions.sh reports with it set). */
    if (getenv("AXL_BENCH_TRACE"))
        CHECK(axl_trace_enable(true));
    if (argc == 3 && !strcmp(argv[1], "launch")) {
        launch_rig r = launch_up();
        launch_once(&r); /* first-run work (opening the unit) out of the way */
        for (int i = 0, n = atoi(argv[2]); i < n; i++)
            launch_once(&r);
        launch_down(&r);
        CHECK(axl_shutdown());
        return 0;
    }
    if (argc == 3 && !strncmp(argv[1], "vadd", 4)) {
        vadd_launches((size_t)atol(argv[1] + 4), atoi(argv[2]));
        CHECK(axl_shutdown());
        return 0;
    }
#if AXL_BENCH_SWAP
    if (argc == 2 && !strcmp(argv[1], "swap")) {
        bench_swap_figures();
        CHECK(axl_shutdown());
        return 0;
    }
    if (argc == 3 && (!strncmp(argv[1], "swap", 4) ||
                      !strncmp(argv[1], "grouped", 7) ||
                      !strncmp(argv[1], "slotswap", 8) ||
                      !strncmp(argv[1], "slotgrouped", 11))) {
        const bool slots = !strncmp(argv[1], "slot", 4);
        const char *kind = argv[1] + (slots ? 4 : 0);
        const bool alternating = kind[0] == 's';
        bench_swap_rounds(atoi(kind + (alternating ? 4 : 7)),
                          atoi(argv[2]), alternating, slots);
        CHECK(axl_shutdown());
        return 0;
    }
#endif
    if (argc == 3 && !strcmp(argv[1], "record")) {
        launch_rig r = launch_up();
        launch_once(&r); /* first-run work (opening the unit) out of the way */
        record_nodes(&r, 1); /* and the graph pools' */
        CHECK(record_nodes(&r, atoi(argv[2])));
        launch_down(&r);
        CHECK(axl_shutdown());
        return 0;
    }
    if (argc == 3 && (!strcmp(argv[1], "empty") ||
                      !strcmp(argv[1], "emptygraph"))) {
        launch_rig r = launch_up();
        launch_once(&r);
        const bool graph = !strcmp(argv[1], "emptygraph");
        axl_graph_exec x = graph ? empty_graph_up(&r) : (axl_graph_exec){0};
        void (*once)(launch_rig *, axl_graph_exec) =
            graph ? replay_once : empty_once;
        once(&r, x); /* first-use work out of the way */
        for (int i = 0, n = atoi(argv[2]); i < n; i++)
            once(&r, x);
        if (graph)
            CHECK(axl_graph_exec_release(x));
        launch_down(&r);
        CHECK(axl_shutdown());
        return 0;
    }
    if (argc == 3 && !strncmp(argv[1], "graph", 5)) {
        launch_rig r = launch_up();
        launch_once(&r); /* first-run work (opening the unit) out of the way */
        axl_graph_exec x = graph_up(&r, atoi(argv[1] + 5));
        replay_once(&r, x);
        for (int i = 0, n = atoi(argv[2]); i < n; i++)
            replay_once(&r, x);
        CHECK(axl_graph_exec_release(x));
        launch_down(&r);
        CHECK(axl_shutdown());
        return 0;
    }
    if (argc == 3) {
        /* One scenario, once, for instruction counts. */
        int n = atoi(argv[2]);
        axl_queue q = queue(strcmp(argv[1], "chain") ? 0 : AXL_QUEUE_IN_ORDER);
        host_tasks(q, n);
        CHECK(axl_queue_release(q));
        CHECK(axl_shutdown());
        return 0;
    }
    int ns[3] = {10, 100, 1000};
    for (int i = 0; i < 3; i++)
        tasks_figure("host_task_chain", AXL_QUEUE_IN_ORDER, ns[i]);
    for (int i = 0; i < 3; i++)
        tasks_figure("host_task_independent", 0, ns[i]);
    launch_figure();
    const double t1 = graph_figure("graph_replay_1_node", 1);
    const double t4 = graph_figure("graph_replay_4_chain", 4);
    const double t16 = graph_figure("graph_replay_16_chain", 16);
    const double per_node = (t16 - t4) / 12;
    printf("graph_replay_fixed %.0f ns/submission\n", t1 - per_node);
    printf("graph_replay_per_node %.0f ns/node\n", per_node);
    const int record_ns[3] = {10, 1000, 10000};
    for (int i = 0; i < 3; i++)
        record_figure(record_ns[i]);
    bandwidth();
#if AXL_BENCH_SWAP
    bench_swap_figures();
#endif
    CHECK(axl_shutdown());
    return 0;
}
