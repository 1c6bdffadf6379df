/*
 * bench_xrt - what one launch of a 4-argument kernel costs through XRT,
 * through axl's XRT port, and through axl's single_task, on XRT 2.13's
 * noop shim (everything runs, nothing executes: the numbers are pure
 * software cost). The kernel is stock.xclbin's vadd: three buffers and an
 * unsigned int, its buffers already on the device.
 *
 *   xrt_raw   xrtRunSetArg x4 + xrtRunStart + xrtRunWait, one xrtRunHandle
 *   xrt_bare  xrtRunStart + xrtRunWait alone, the arguments set once
 *             before the loop: XRT's own floor for a launch
 *   xrt_port  the port's run_start until its run_done (it sets only the
 *             arguments the XRT run does not already hold, then starts):
 *             what the port adds
 *   axl       axl_queue_single_task + axl_event_wait + axl_event_release
 *             (bench_axl_single_task below)
 *   axl_graph1, axl_graph4, axl_graph16
 *             axl_queue_submit_graph of a recorded graph of that vadd
 *             launch (1 node), or of a chain of 4 or 16, + wait +
 *             release: figures per kernel (bench_graph1_loop,
 *             bench_graph4_loop, bench_graph16_loop)
 *
 * Prints one "name value unit" line per number: the median ns per launch
 * (each launch timed alone), the mean over the loop, instructions per
 * launch when the CPU's counter is readable (perf_event_open), the
 * ratios (axl and the port to raw XRT, each replay to XRT's floor), and a
 * replay's two parts in the way CUDA graphs are reported: per node, what
 * a submission costs more for each node, (16 x t16 - 4 x t4) / 12 with tN
 * the per-kernel figure of the N-chain, and fixed, what a submission of
 * one node costs beyond that, t1 - per node.
 *
 * Usage: bench_xrt [-n LAUNCHES] [--callgrind]
 *
 * Without XCL_EMULATION_MODE in the environment it sets up the noop shim
 * itself (a temporary XILINX_XRT folder linking libxrt_noop.so.2).
 *
 * Instructions with callgrind (exact, no counter needed): --callgrind runs
 * 1000 launches per path with no timing calls, in the functions
 * bench_raw_loop, bench_bare_loop, bench_port_loop, bench_axl_loop and
 * the graph loops, after WARM_UP
 * launches outside them (so one-time costs are not counted); count one:
 *
 *   valgrind --tool=callgrind --collect-atstart=no \
 *       --toggle-collect=bench_raw_loop --callgrind-out-file=cg.raw \
 *       ./bench_xrt --callgrind
 *   callgrind_annotate cg.raw | grep 'PROGRAM TOTALS'   # / 1000 launches
 *
 * tests/bench/callgrind_xrt.sh does that for each path and prints the
 * per-launch counts as name/value/unit lines.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "axl/axl.h"
#include "axl/hal.h"
#include "axl/kernel_bundle.h"
#include "xrt_native.h"

#define NOINLINE __attribute__((noinline))

/* Launches each path makes before callgrind counts (vadd has two compute
 * units: each is opened, and each XRT run exists, before the count). */
#define WARM_UP 8

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *s, unsigned n)
{
    qsort(s, n, sizeof *s, cmp_u64);
    return n ? s[n / 2] : 0;
}

/* ---- An instruction counter, when the kernel lets us read one ---------- */

static int perf_fd = -1;

static void counter_open(void)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.type = PERF_TYPE_HARDWARE;
    a.size = sizeof a;
    a.config = PERF_COUNT_HW_INSTRUCTIONS;
    a.disabled = 1;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    a.inherit = 1; /* the port's and XRT's threads too */
    perf_fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

static void counter_start(void)
{
    if (perf_fd >= 0) {
        ioctl(perf_fd, PERF_EVENT_IOC_RESET, 0);
        ioctl(perf_fd, PERF_EVENT_IOC_ENABLE, 0);
    }
}

static long long counter_stop(void)
{
    long long v = -1;
    if (perf_fd >= 0) {
        ioctl(perf_fd, PERF_EVENT_IOC_DISABLE, 0);
        if (read(perf_fd, &v, sizeof v) != (ssize_t)sizeof v)
            v = -1;
    }
    return v;
}

/* ---- Results -------------------------------------------------------------- */

typedef struct result {
    const char *name;
    int ok;
    double median_ns, mean_ns, instructions;
} result;

static void print_result(const result *r)
{
    if (!r->ok) {
        printf("%s_median_ns n/a ns\n", r->name);
        return;
    }
    printf("%s_median_ns %.0f ns\n", r->name, r->median_ns);
    printf("%s_mean_ns %.0f ns\n", r->name, r->mean_ns);
    if (r->instructions >= 0)
        printf("%s_instructions %.0f instructions\n", r->name,
               r->instructions);
    else
        printf("%s_instructions n/a instructions\n", r->name);
}

/* Times n launches of one path: samples each (median), the whole loop
 * (mean) and its instructions. */
typedef void (*loop_fn)(void *ctx, unsigned n, uint64_t *samples);

static result measure(const char *name, loop_fn loop, void *ctx, unsigned n)
{
    result r = {name, 1, 0, 0, -1};
    uint64_t *s = malloc(n * sizeof *s);
    if (!s) {
        r.ok = 0;
        return r;
    }
    loop(ctx, n / 10 + 1, s); /* warm up */
    loop(ctx, n, s);
    r.median_ns = (double)median(s, n);
    counter_start();
    uint64_t t0 = now_ns();
    loop(ctx, n, NULL);
    uint64_t t1 = now_ns();
    long long ins = counter_stop();
    r.mean_ns = (double)(t1 - t0) / n;
    r.instructions = ins >= 0 ? (double)ins / n : -1;
    free(s);
    return r;
}

/* ---- Raw XRT ---------------------------------------------------------------- */

typedef struct raw_ctx {
    xrtDeviceHandle dev;
    xrtKernelHandle kernel;
    xrtRunHandle run;
    xrtBufferHandle bo[3];
    unsigned bad;
} raw_ctx;

static void raw_set_args(raw_ctx *c)
{
    xrtRunSetArg(c->run, 0, c->bo[0]);
    xrtRunSetArg(c->run, 1, c->bo[1]);
    xrtRunSetArg(c->run, 2, c->bo[2]);
    xrtRunSetArg(c->run, 3, 1024u);
}

static NOINLINE void raw_launches(void *ctx, unsigned n,
                                  uint64_t *samples)
{
    raw_ctx *c = ctx;
    for (unsigned i = 0; i < n; i++) {
        uint64_t t0 = samples ? now_ns() : 0;
        raw_set_args(c);
        xrtRunStart(c->run);
        if (xrtRunWait(c->run) != ERT_CMD_STATE_COMPLETED)
            c->bad++;
        if (samples)
            samples[i] = now_ns() - t0;
    }
}

/* The floor: the run already holds its arguments. */
static NOINLINE void bare_launches(void *ctx, unsigned n,
                                   uint64_t *samples)
{
    raw_ctx *c = ctx;
    for (unsigned i = 0; i < n; i++) {
        uint64_t t0 = samples ? now_ns() : 0;
        xrtRunStart(c->run);
        if (xrtRunWait(c->run) != ERT_CMD_STATE_COMPLETED)
            c->bad++;
        if (samples)
            samples[i] = now_ns() - t0;
    }
}


/* What callgrind counts (--toggle-collect): the launches alone, after the
 * warm-up has opened every compute unit and filled every pool once. */
NOINLINE void bench_raw_loop(void *ctx, unsigned n, uint64_t *samples)
{
    raw_launches(ctx, n, samples);
}

NOINLINE void bench_bare_loop(void *ctx, unsigned n, uint64_t *samples)
{
    bare_launches(ctx, n, samples);
}

/* The raw path (bare = 0) or the bare one (bare = 1) on a device of its
 * own. */
static result bench_raw(const axl_xclbin *img, unsigned n, int timed,
                        int bare)
{
    const char *name = bare ? "xrt_bare" : "xrt_raw";
    loop_fn launches = bare ? bare_launches : raw_launches;
    result r = {name, 0, 0, 0, -1};
    raw_ctx c = {0};
    c.dev = xrtDeviceOpen(0);
    if (!c.dev || xrtDeviceLoadXclbin(c.dev, (const struct axlf *)img->data))
        return r;
    c.kernel = xrtPLKernelOpen(c.dev, img->uuid, "vadd:{vadd_1}");
    for (int i = 0; i < 3 && c.kernel; i++)
        c.bo[i] = xrtBOAlloc(c.dev, 4096, 0, (xrtMemoryGroup)(i % 2));
    if (c.kernel)
        c.run = xrtRunOpen(c.kernel);
    if (c.run && c.bo[0] && c.bo[1] && c.bo[2]) {
        raw_set_args(&c);
        if (timed)
            r = measure(name, launches, &c, n);
        else {
            launches(&c, WARM_UP, NULL);
            (bare ? bench_bare_loop : bench_raw_loop)(&c, n, NULL);
        }
        r.ok = r.ok && !c.bad;
    }
    if (c.run)
        xrtRunClose(c.run);
    for (int i = 0; i < 3; i++)
        if (c.bo[i])
            xrtBOFree(c.bo[i]);
    if (c.kernel)
        xrtKernelClose(c.kernel);
    xrtDeviceClose(c.dev);
    return r;
}

/* ---- The port alone (its ops, as the core calls them) ---------------------- */

typedef struct port_ctx {
    void *dev;
    axl_hal_run run;
    axl_hal_arg args[4];
    uint32_t count;
    volatile int done;
    unsigned bad;
} port_ctx;

static void port_done(void *token, axl_status st, const char *why)
{
    port_ctx *c = token;
    (void)why;
    if (st != AXL_SUCCESS)
        c->bad++;
    c->done = 1;
}

static NOINLINE void port_launches(void *ctx, unsigned n,
                                  uint64_t *samples)
{
    port_ctx *c = ctx;
    const axl_device_port *P = &axl_native_port;
    for (unsigned i = 0; i < n; i++) {
        uint64_t t0 = samples ? now_ns() : 0;
        c->done = 0;
        if (P->run_start(c->dev, &c->run) != AXL_SUCCESS) {
            c->bad++;
            continue;
        }
        while (!c->done) /* on the noop shim: reported inside run_start */
            P->progress(c->dev, UINT64_MAX);
        if (samples)
            samples[i] = now_ns() - t0;
    }
}


/* What callgrind counts (--toggle-collect): the launches alone, after the
 * warm-up has opened every compute unit and filled every pool once. */
NOINLINE void bench_port_loop(void *ctx, unsigned n, uint64_t *samples)
{
    port_launches(ctx, n, samples);
}

/* The XRT device of the runtime and the port's state for it. */
static int xrt_device(axl_device *out, void **data)
{
    axl_device d[8];
    uint32_t n = 0;
    if (axl_device_get_all(AXL_DEVICE_TYPE_ALL, d, 8, &n) != AXL_SUCCESS)
        return 0;
    for (uint32_t i = 0; i < n; i++)
        if (axl_hal_device_data(d[i], &axl_native_port, data) ==
            AXL_SUCCESS) {
            *out = d[i];
            return 1;
        }
    return 0;
}

static result bench_port(const axl_xclbin *img, unsigned n, int timed)
{
    result r = {"xrt_port", 0, 0, 0, -1};
    const axl_device_port *P = &axl_native_port;
    static port_ctx c;
    axl_device dev;
    if (!xrt_device(&dev, &c.dev))
        return r;
    uintptr_t cu = 0;
    axl_hal_mem m[3] = {{0}};
    axl__xrt_set_run_done(port_done);
    int ok = P->cu_open(c.dev, img, 0, 0, &cu) == AXL_SUCCESS;
    for (int i = 0; i < 3 && ok; i++)
        ok = P->mem_alloc(c.dev, (uint32_t)(i % 2), 4096, NULL, &m[i]) ==
             AXL_SUCCESS;
    if (ok) {
        c.count = 1024;
        for (uint32_t i = 0; i < 3; i++)
            c.args[i] = (axl_hal_arg){i, 1, 4096, &m[i], 0, NULL,
                                      i == 2 ? AXL_ACCESS_WRITE
                                             : AXL_ACCESS_READ};
        c.args[3] = (axl_hal_arg){3, 0, 4, NULL, 0, &c.count, 0};
        c.run = (axl_hal_run){&c, img, 0, "vadd", 0, 0, cu, 4, 0, c.args,
                              {1, {1, 1, 1}}, 0};
        if (timed)
            r = measure("xrt_port", port_launches, &c, n);
        else {
            port_launches(&c, WARM_UP, NULL);
            bench_port_loop(&c, n, NULL);
        }
        r.ok = r.ok && !c.bad;
    }
    for (int i = 0; i < 3; i++)
        if (m[i].handle)
            P->mem_free(c.dev, &m[i]);
    if (cu)
        P->cu_close(c.dev, cu);
    axl__xrt_set_run_done(NULL);
    return r;
}

/* ---- axl single_task ---------------------------------------------------------- */

typedef struct axl_ctx {
    axl_queue queue;
    axl_kernel kernel;
    axl_kernel_arg args[4];
    unsigned bad;
    axl_graph_exec exec; /* the graph paths */
} axl_ctx;

static NOINLINE void axl_launches(void *ctx, unsigned n,
                                  uint64_t *samples)
{
    axl_ctx *c = ctx;
    for (unsigned i = 0; i < n; i++) {
        uint64_t t0 = samples ? now_ns() : 0;
        axl_event e;
        if (axl_queue_single_task(c->queue, c->kernel, c->args, 4, NULL, 0,
                                  &e) != AXL_SUCCESS) {
            c->bad++;
            continue;
        }
        if (axl_event_wait(e) != AXL_SUCCESS)
            c->bad++;
        axl_event_release(e);
        if (samples)
            samples[i] = now_ns() - t0;
    }
}


/* What callgrind counts (--toggle-collect): the launches alone, after the
 * warm-up has opened every compute unit and filled every pool once. */
NOINLINE void bench_axl_loop(void *ctx, unsigned n, uint64_t *samples)
{
    axl_launches(ctx, n, samples);
}

static NOINLINE void graph_replays(void *ctx, unsigned n, uint64_t *samples)
{
    axl_ctx *c = ctx;
    for (unsigned i = 0; i < n; i++) {
        uint64_t t0 = samples ? now_ns() : 0;
        axl_event e;
        if (axl_queue_submit_graph(c->queue, c->exec, NULL, 0, &e) !=
            AXL_SUCCESS) {
            c->bad++;
            continue;
        }
        if (axl_event_wait(e) != AXL_SUCCESS)
            c->bad++;
        axl_event_release(e);
        if (samples)
            samples[i] = now_ns() - t0;
    }
}

NOINLINE void bench_graph1_loop(void *ctx, unsigned n, uint64_t *samples)
{
    graph_replays(ctx, n, samples);
}

NOINLINE void bench_graph4_loop(void *ctx, unsigned n, uint64_t *samples)
{
    graph_replays(ctx, n, samples);
}

NOINLINE void bench_graph16_loop(void *ctx, unsigned n, uint64_t *samples)
{
    graph_replays(ctx, n, samples);
}

/* The graph of `nodes` launches of c's single_task (each after the one
 * before: recorded from the in-order queue), replayed n times: figures
 * per kernel. */
static result bench_axl_graph(axl_ctx *c, axl_device dev, unsigned nodes,
                              unsigned n, int timed)
{
    result r = {nodes == 1   ? "axl_graph1"
                : nodes == 4 ? "axl_graph4"
                             : "axl_graph16",
                0, 0, 0, -1};
    axl_graph g;
    axl_context ctx;
    if (axl_queue_get_context(c->queue, &ctx) != AXL_SUCCESS ||
        axl_graph_create(ctx, dev, &g) != AXL_SUCCESS)
        goto fail;
    axl_status st = axl_graph_begin_recording(g, c->queue);
    for (unsigned i = 0; i < nodes && st == AXL_SUCCESS; i++)
        st = axl_queue_single_task(c->queue, c->kernel, c->args, 4, NULL, 0,
                                   NULL);
    if (st == AXL_SUCCESS)
        st = axl_graph_end_recording(g, c->queue);
    if (st == AXL_SUCCESS)
        st = axl_graph_finalize(g, &c->exec);
    axl_graph_release(g);
    if (st != AXL_SUCCESS)
        goto fail;
    loop_fn loop = nodes == 1   ? bench_graph1_loop
                   : nodes == 4 ? bench_graph4_loop
                                : bench_graph16_loop;
    c->bad = 0;
    if (timed) {
        r = measure(r.name, loop, c, n);
        r.median_ns /= nodes;
        r.mean_ns /= nodes;
        if (r.instructions >= 0)
            r.instructions /= nodes;
    } else {
        graph_replays(c, WARM_UP, NULL);
        loop(c, n, NULL);
        r.ok = 1;
    }
    r.ok = r.ok && !c->bad;
    axl_graph_exec_release(c->exec);
    return r;
fail:
    fprintf(stderr, "bench_xrt: graph path unavailable: %s\n",
            axl_last_message());
    return r;
}

/*
 * The axl path: the device carries stock.xclbin as its built-in design
 * (AXL_XRT_BUILTIN_XCLBIN), vadd comes from its built-in kernel ids, and
 * the three buffers are placed on the device before the loop, so a launch
 * moves no data. Returns a result with ok = 0 and a reason on stderr when
 * this core cannot do it yet.
 */
static result bench_axl_single_task(unsigned n, int timed, result g[3])
{
    result r = {"axl", 0, 0, 0, -1};
    static axl_ctx c;
    axl_device dev;
    void *data;
    axl_context ctx = {0};
    axl_kernel_bundle bundle = {0};
    axl_buffer buf[3] = {{0}};
    const char *step = "find the XRT device";
    if (!xrt_device(&dev, &data))
        goto out;
    step = "axl_context_create";
    if (axl_context_create(&dev, 1, NULL, &ctx) != AXL_SUCCESS)
        goto out;
    step = "axl_queue_create";
    if (axl_queue_create(ctx, dev, AXL_QUEUE_IN_ORDER, NULL, &c.queue) !=
        AXL_SUCCESS)
        goto out;
    step = "the built-in kernel vadd";
    axl_kernel_id vadd;
    if (axl_get_built_in_kernel_id(dev, "vadd", &vadd) != AXL_SUCCESS)
        goto out;
    step = "axl_get_kernel_bundle_for";
    if (axl_get_kernel_bundle_for(ctx, &dev, 1, &vadd, 1,
                                  AXL_BUNDLE_EXECUTABLE, &bundle) !=
        AXL_SUCCESS)
        goto out;
    step = "axl_kernel_bundle_get_kernel";
    if (axl_kernel_bundle_get_kernel(bundle, vadd, &c.kernel) != AXL_SUCCESS)
        goto out;
    step = "buffers on the device";
    for (int i = 0; i < 3; i++) {
        if (axl_buffer_create(sizeof(int), axl_range_1d(1024), NULL,
                              &buf[i]) != AXL_SUCCESS ||
            axl_buffer_place(buf[i], dev, 0) != AXL_SUCCESS)
            goto out;
    }
    /* Written as an application writes them (by position, the scalar by
     * value), so the launch costs what it costs there. */
    c.args[0] = AXL_ARG_IN(buf[0]);
    c.args[1] = AXL_ARG_IN(buf[1]);
    c.args[2] = AXL_ARG_OUT(buf[2]);
    c.args[3] = AXL_ARG_U32(1024);
    step = "a first launch";
    axl_launches(&c, 1, NULL);
    if (c.bad)
        goto out;
    step = NULL;
    if (timed)
        r = measure("axl", axl_launches, &c, n);
    else {
        axl_launches(&c, WARM_UP, NULL);
        bench_axl_loop(&c, n, NULL);
    }
    r.ok = r.ok && !c.bad;
    g[0] = bench_axl_graph(&c, dev, 1, n, timed);
    g[1] = bench_axl_graph(&c, dev, 4, n, timed);
    g[2] = bench_axl_graph(&c, dev, 16, n, timed);
out:
    if (step)
        fprintf(stderr, "bench_xrt: axl path unavailable at %s: %s\n", step,
                axl_last_message());
    for (int i = 0; i < 3; i++)
        if (!AXL_IS_NONE(buf[i]))
            axl_buffer_release(buf[i]);
    if (!AXL_IS_NONE(c.kernel))
        axl_kernel_release(c.kernel);
    if (!AXL_IS_NONE(bundle))
        axl_kernel_bundle_release(bundle);
    if (!AXL_IS_NONE(c.queue))
        axl_queue_release(c.queue);
    if (!AXL_IS_NONE(ctx))
        axl_context_release(ctx);
    return r;
}

/* ---- Setting up the noop shim ------------------------------------------------ */

static char root[64], lib[96], link_path[160];

static void noop_cleanup(void)
{
    if (link_path[0])
        unlink(link_path);
    if (lib[0])
        rmdir(lib);
    if (root[0])
        rmdir(root);
}

static int noop_setup(void)
{
    if (getenv("XCL_EMULATION_MODE"))
        return 0; /* the caller chose */
    snprintf(root, sizeof root, "/tmp/axl-bench-xrt-XXXXXX");
    if (!mkdtemp(root))
        return -1;
    snprintf(lib, sizeof lib, "%s/lib", root);
    snprintf(link_path, sizeof link_path, "%s/libxrt_noop.so.2", lib);
    if (mkdir(lib, 0755) || symlink(AXL_XRT_NOOP_SHIM, link_path))
        return -1;
    atexit(noop_cleanup);
    setenv("XILINX_XRT", root, 1);
    setenv("XCL_EMULATION_MODE", "noop", 1);
    return 0;
}

/* A replay's parts from the per-kernel figures of the 1-, 4- and 16-node
 * chains (the header comment says how). */
static void replay_parts(const char *what, const char *unit, double t1,
                         double t4, double t16)
{
    double per_node = (16 * t16 - 4 * t4) / 12;
    printf("axl_replay_per_node_%s %.0f %s\n", what, per_node, unit);
    printf("axl_replay_fixed_%s %.0f %s\n", what, t1 - per_node, unit);
}

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *p = n > 0 ? malloc((size_t)n) : NULL;
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    *size = p ? (size_t)n : 0;
    return p;
}

int main(int argc, char **argv)
{
    unsigned n = 100000;
    int callgrind = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc)
            n = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--callgrind"))
            callgrind = 1;
        else {
            fprintf(stderr, "usage: %s [-n LAUNCHES] [--callgrind]\n",
                    argv[0]);
            return 2;
        }
    }
    if (callgrind)
        n = 1000;
    if (!n)
        n = 1;
    if (noop_setup() != 0) {
        fprintf(stderr, "bench_xrt: cannot set up the noop shim\n");
        return 1;
    }
    static const char image_path[] = AXL_XCLBIN_DIR "/stock.xclbin";
    size_t size = 0;
    unsigned char *bytes = read_file(image_path, &size);
    axl_xclbin img;
    char why[256];
    if (!bytes || axl_xclbin_open(&img, bytes, size, why, sizeof why)) {
        fprintf(stderr, "bench_xrt: %s: %s\n", image_path,
                bytes ? why : "cannot read");
        return 1;
    }
    setenv("AXL_XRT_BUILTIN_XCLBIN", image_path, 1);
    counter_open();

    result raw = bench_raw(&img, n, !callgrind, 0);
    result bare = bench_raw(&img, n, !callgrind, 1);
#if !AXL_TEST_XRT_IN_BOARD
    axl_device_port_register(&axl_native_port);
#endif
    result port = {"xrt_port", 0, 0, 0, -1}, axl = {"axl", 0, 0, 0, -1};
    result g[3] = {{"axl_graph1", 0, 0, 0, -1},
                   {"axl_graph4", 0, 0, 0, -1},
                   {"axl_graph16", 0, 0, 0, -1}};
    if (axl_init() == AXL_SUCCESS) {
        port = bench_port(&img, n, !callgrind);
        axl = bench_axl_single_task(n, !callgrind, g);
    }
    if (axl_shutdown() != AXL_SUCCESS)
        fprintf(stderr, "bench_xrt: axl_shutdown: %s\n", axl_last_message());

    if (callgrind) {
        printf("launches_per_path %u launches\n", n);
    } else {
        if (perf_fd < 0)
            fprintf(stderr, "bench_xrt: no readable instruction counter "
                            "(perf_event_open): count instructions with "
                            "tests/bench/callgrind_xrt.sh\n");
        printf("launches %u launches\n", n);
        print_result(&raw);
        print_result(&bare);
        print_result(&port);
        print_result(&axl);
        for (int i = 0; i < 3; i++)
            print_result(&g[i]);
        if (raw.ok && bare.ok)
            printf("xrt_bare_over_raw %.3f ratio\n",
                   bare.median_ns / raw.median_ns);
        if (raw.ok && port.ok)
            printf("xrt_port_over_raw %.3f ratio\n",
                   port.median_ns / raw.median_ns);
        if (raw.ok && axl.ok)
            printf("axl_over_raw %.3f ratio\n", axl.median_ns / raw.median_ns);
        for (int i = 0; i < 3 && bare.ok; i++)
            if (g[i].ok)
                printf("%s_over_bare %.3f ratio\n", g[i].name,
                       g[i].median_ns / bare.median_ns);
        if (g[0].ok && g[1].ok && g[2].ok) {
            replay_parts("median_ns", "ns", g[0].median_ns, g[1].median_ns,
                         g[2].median_ns);
            if (g[0].instructions >= 0 && g[1].instructions >= 0 &&
                g[2].instructions >= 0)
                replay_parts("instructions", "instructions",
                             g[0].instructions, g[1].instructions,
                             g[2].instructions);
        }
    }
    free(bytes);
    return raw.ok && bare.ok ? 0 : 1;
}
