/*
 * Soak: a million mixed commands through one process, printing its
 * memory (resident set) and every pool's high-water mark as it goes. A
 * runtime with fixed pools must stay flat: no pool's high-water mark
 * passes what the program can hold at once, and over the second half of
 * the run the resident set stays within a few pages.
 * A benchmark-style program, not a test: it prints figures
 * (`name value unit`) and a verdict, and exits 1 if the figures are not
 * flat.
 *
 *   build/default/tests/bench/axl-soak [-n COMMANDS]           emulated device
 *   build/default/tests/xrt/axl-soak-xrt [-n COMMANDS]         emulated device
 *                                        and XRT's noop shim, alternating
 *
 * The mix, on in-order and out-of-order queues: fills, copies from and to
 * host memory, buffer-to-buffer copies, vadd kernels (single_task), host
 * tasks, and a sub-buffer made and released now and then; every 64
 * commands the program waits for one queue and checks a read-back value.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "axl/axl.h"

#ifdef AXL_SOAK_XRT
#include <sys/stat.h>

#include "xrt_native.h"
#endif

enum { N = 1024, NQ = 2, NB = 3, NPOOLS = 32 };

static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#define CHECK(call)                                                            \
    do {                                                                       \
        axl_status st_ = (call);                                               \
        if (st_ != AXL_SUCCESS) {                                              \
            fprintf(stderr, "axl-soak: %s: %s\n  %s\n", #call,                 \
                    axl_status_name(st_), axl_last_message());                 \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

static unsigned long tasks_run;
static axl_status task(void *user)
{
    (void)user;
    tasks_run++;
    return AXL_SUCCESS;
}

/* One device's queues, buffers and kernel. */
typedef struct lane {
    axl_device dev;
    axl_context ctx;
    axl_queue q[NQ];
    axl_buffer b[NB];
    axl_kernel_bundle bundle;
    axl_kernel vadd;
    int32_t in[N], out[N];
    int32_t check[N]; /* the periodic read-back's own target */
} lane;

static void lane_open(lane *l, axl_device dev)
{
    l->dev = dev;
    CHECK(axl_context_create(&dev, 1, NULL, &l->ctx));
    CHECK(axl_queue_create(l->ctx, dev, AXL_QUEUE_IN_ORDER, NULL, &l->q[0]));
    CHECK(axl_queue_create(l->ctx, dev, 0, NULL, &l->q[1]));
    for (int i = 0; i < NB; i++)
        CHECK(axl_buffer_create(4, axl_range_1d(N), NULL, &l->b[i]));
    axl_kernel_id kid;
    CHECK(axl_get_built_in_kernel_id(dev, "vadd", &kid));
    CHECK(axl_get_kernel_bundle_for(l->ctx, &dev, 1, &kid, 1,
                                    AXL_BUNDLE_EXECUTABLE, &l->bundle));
    CHECK(axl_kernel_bundle_get_kernel(l->bundle, kid, &l->vadd));
    for (int i = 0; i < N; i++)
        l->in[i] = i;
}

static void lane_close(lane *l)
{
    for (int i = 0; i < NQ; i++)
        CHECK(axl_queue_wait(l->q[i]));
    CHECK(axl_kernel_release(l->vadd));
    CHECK(axl_kernel_bundle_release(l->bundle));
    for (int i = 0; i < NB; i++)
        CHECK(axl_buffer_release(l->b[i]));
    for (int i = 0; i < NQ; i++)
        CHECK(axl_queue_release(l->q[i]));
    CHECK(axl_context_release(l->ctx));
}

/* Command number i of the mix on lane l. */
static void one(lane *l, unsigned long i)
{
    axl_queue q = l->q[i % NQ];
    axl_buffer x = l->b[i % NB], y = l->b[(i + 1) % NB];
    int32_t v = (int32_t)(i & 0xFFFF);
    switch (i % 7) {
    case 0:
        CHECK(axl_queue_fill(q, x, NULL, &v, sizeof v, NULL, 0, NULL));
        break;
    case 1:
        CHECK(axl_queue_copy_from_host(q, l->in, x, NULL, NULL, 0, NULL));
        break;
    case 2: {
        uint32_t n = N;
        axl_kernel_arg args[4] = {
            {.index = 0, .buffer = x, .mode = AXL_ACCESS_READ},
            {.index = 1, .buffer = x, .mode = AXL_ACCESS_READ},
            {.index = 2, .buffer = y, .mode = AXL_ACCESS_WRITE_NO_INIT},
            {.index = 3, .value = &n, .size = sizeof n}};
        CHECK(axl_queue_single_task(q, l->vadd, args, 4, NULL, 0, NULL));
        break;
    }
    case 3:
        CHECK(axl_queue_copy(q, x, NULL, y, NULL, NULL, 0, NULL));
        break;
    case 4:
        CHECK(axl_queue_host_task(q, task, NULL, NULL, 0, NULL));
        break;
    case 5: {
        axl_buffer sub;
        CHECK(axl_buffer_create_sub(x, (size_t[3]){N / 2, 0, 0},
                                    axl_range_1d(N / 4), &sub));
        CHECK(axl_queue_fill(q, sub, NULL, &v, sizeof v, NULL, 0, NULL));
        CHECK(axl_buffer_release(sub));
        break;
    }
    default:
        CHECK(axl_queue_copy_to_host(q, x, NULL, l->out, NULL, 0, NULL));
        break;
    }
    if (i % 64 == 63) {
        /* A known value through a fill and a read-back. */
        axl_event e;
        int32_t want = (int32_t)(i >> 6);
        CHECK(axl_queue_fill(l->q[0], l->b[0], NULL, &want, 4, NULL, 0,
                             NULL));
        CHECK(axl_queue_copy_to_host(l->q[0], l->b[0], NULL, l->check, NULL,
                                     0, &e));
        CHECK(axl_event_wait(e));
        CHECK(axl_event_release(e));
        CHECK(axl_queue_wait(l->q[1])); /* at most 64 + 2 in flight */
        if (l->check[0] != want || l->check[N - 1] != want) {
            fprintf(stderr, "axl-soak: read back %d, not %d\n",
                    (int)l->check[N - 1], (int)want);
            exit(1);
        }
    }
}

typedef struct sample {
    long rss;
    uint32_t n;
    axl_pool_stats s[NPOOLS];
} sample;

static void take(sample *s)
{
    s->rss = rss_kib();
    CHECK(axl_stats_get(s->s, NPOOLS, &s->n));
}

#ifdef AXL_SOAK_XRT
/* XRT's noop shim, unless the caller set XCL_EMULATION_MODE: a temporary
 * XILINX_XRT folder whose lib/ links libxrt_noop.so.2. */
static char root[64], lib[80], link_path[128];
static void noop_cleanup(void)
{
    unlink(link_path);
    rmdir(lib);
    rmdir(root);
}
static int noop_setup(void)
{
    if (getenv("XCL_EMULATION_MODE"))
        return 0;
    snprintf(root, sizeof root, "/tmp/axl-soak-XXXXXX");
    if (!mkdtemp(root))
        return -1;
    snprintf(lib, sizeof lib, "%s/lib", root);
    snprintf(link_path, sizeof link_path, "%s/libxrt_noop.so.2", lib);
    if (mkdir(lib, 0755) || symlink(AXL_XRT_NOOP_SHIM, link_path))
        return -1;
    atexit(noop_cleanup);
    setenv("XILINX_XRT", root, 1);
    setenv("XCL_EMULATION_MODE", "noop", 1);
    setenv("AXL_XRT_BUILTIN_XCLBIN", AXL_XCLBIN_DIR "/stock.xclbin", 1);
    return 0;
}
#endif

int main(int argc, char **argv)
{
    unsigned long total = 1000000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc) {
            total = strtoul(argv[++i], NULL, 10);
        } else {
            fprintf(stderr, "usage: %s [-n COMMANDS]\n", argv[0]);
            return 2;
        }
    }
    if (total < 10)
        total = 10;
#ifdef AXL_SOAK_XRT
    if (noop_setup() != 0) {
        fprintf(stderr, "axl-soak: cannot set up XRT's noop shim\n");
        return 1;
    }
#if !AXL_TEST_XRT_IN_BOARD
    axl_device_port_register(&axl_native_port);
#endif
#endif
    CHECK(axl_init());
    axl_device devs[4];
    uint32_t ndev = 0;
    CHECK(axl_device_get_all(AXL_DEVICE_TYPE_ALL, devs, 4, &ndev));
    static lane lanes[4];
    unsigned nl = 0;
    for (uint32_t d = 0; d < ndev; d++) {
        axl_kernel_id kid;
        if (axl_get_built_in_kernel_id(devs[d], "vadd", &kid) != AXL_SUCCESS)
            continue;
        char name[128] = "";
        axl_device_get_info(devs[d], AXL_DEVICE_INFO_NAME, name, sizeof name,
                            NULL);
        printf("device %u %s\n", nl, name);
        lane_open(&lanes[nl++], devs[d]);
    }
    if (!nl) {
        fprintf(stderr, "axl-soak: no device with vadd\n");
        return 1;
    }

    const unsigned long every = total / 10;
    sample first = {0}, s;
    double t0 = now_s();
    printf("%10s %10s %9s  %s\n", "commands", "rss_kib", "seconds",
           "pool high-water marks (those above 0)");
    for (unsigned long i = 0; i < total; i++) {
        one(&lanes[i % nl], i / nl);
        if ((i + 1) % every == 0) {
            take(&s);
            printf("%10lu %10ld %9.2f ", i + 1, s.rss, now_s() - t0);
            for (uint32_t p = 0; p < s.n; p++)
                if (s.s[p].high_water)
                    printf(" %s=%u", s.s[p].name, s.s[p].high_water);
            printf("\n");
            fflush(stdout);
            if ((i + 1) / every == 5)
                first = s; /* the reference: half way */
        }
    }
    for (unsigned l = 0; l < nl; l++)
        lane_close(&lanes[l]);
    double secs = now_s() - t0;
    take(&s);

    /* Flat: the resident set grew by less than 256 KiB over the second
     * half of the run (allocator noise, XRT's own caches), and no pool's
     * high-water mark passed what the program can have at once: 66
     * commands (and their events) per device between two waits; its
     * buffers, and the sub-buffers of those commands (one in seven). Where in that range a mark
     * ends depends on how threads were scheduled, so marks that still
     * moved in the second half are listed, not counted against it. */
    int flat = s.rss - first.rss < 256;
    for (uint32_t p = 0; p < s.n; p++) {
        const char *name = s.s[p].name;
        uint32_t bound = 0;
        if (!strcmp(name, "command") || !strcmp(name, "event"))
            bound = 66u * nl;
        else if (!strcmp(name, "buffer"))
            bound = (NB + (66u + 6u) / 7u) * nl; /* + a sub per 7 */
        if (bound && s.s[p].high_water > bound) {
            printf("pool %s high-water %u passed %u\n", name,
                   s.s[p].high_water, bound);
            flat = 0;
        }
        if (s.s[p].high_water != first.s[p].high_water)
            printf("pool %s high-water moved in the second half: %u -> %u\n",
                   name, first.s[p].high_water, s.s[p].high_water);
    }
    CHECK(axl_shutdown());
    printf("commands %lu commands\n", total);
    printf("host_tasks %lu tasks\n", tasks_run);
    printf("seconds %.2f s\n", secs);
    printf("rate %.0f commands/s\n", (double)total / secs);
    printf("rss_half_way %ld KiB\n", first.rss);
    printf("rss_last %ld KiB\n", s.rss);
    printf("flat %s\n", flat ? "yes" : "NO");
    return flat ? 0 : 1;
}
