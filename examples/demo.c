/*
 * demo - a small firmware-style pipeline on whatever axl finds.
 *
 * 1. Lists the platforms and devices (axl-ls shows more).
 * 2. Finds the device's built-in kernels by kernel_id (the stock design:
 *    vadd with two compute units, fir, conv2d) and runs a chain over
 *    buffers on a profiling queue:
 *      signal --fir (Q15 low-pass)--> filtered
 *      image  --conv2d (blur)--> blurred --conv2d (sharpen)--> sharp
 *      a + b  --vadd: parallel_for over its two compute units, one half
 *             each (axl_queue_parallel_for)
 *      host task: statistics over all three results
 *    The dependencies come from the accessors: the sharpen waits for the
 *    blur, the host task for everything it reads.
 * 3. Checks every result against the same computation on the host and
 *    prints the profiling timeline.
 *
 * `axl-demo --trace out.json` (or AXL_TRACE=out.json in the environment)
 * also records a trace and writes it as Chrome Trace Event JSON: open it
 * in Perfetto (ui.perfetto.dev, "Open trace file") or chrome://tracing.
 *
 * Run it with the README's first command; it exits 0 when every check
 * passes.
 */
#include <stdio.h>
#include <string.h>

#include "axl/axl.h"

#define CHECK(call)                                                            \
    do {                                                                       \
        axl_status st_ = (call);                                               \
        if (st_ != AXL_SUCCESS) {                                              \
            fprintf(stderr, "%s:%d: %s: %s\n  %s\n", __FILE__, __LINE__,       \
                    #call, axl_status_name(st_), axl_last_message());          \
            return 1;                                                          \
        }                                                                      \
    } while (0)

enum { SAMPLES = 2048, TAPS = 16, W = 64, H = 48, N = 1024 };

static int16_t signal_in[SAMPLES], taps[TAPS], filtered[SAMPLES];
static uint8_t image[H][W], sharp[H][W];
static int32_t va[N], vb[N], vsum[N];
static const int8_t blur[9] = {1, 2, 1, 2, 4, 2, 1, 2, 1};      /* >> 4 */
static const int8_t sharpen[9] = {0, -1, 0, -1, 5, -1, 0, -1, 0}; /* >> 0 */

/* ---- The host's version of each step, to check against ------------------- */

static void host_fir(const int16_t *in, int16_t *out)
{
    for (int i = 0; i < SAMPLES; i++) {
        int64_t acc = 0;
        for (int t = 0; t < TAPS && t <= i; t++)
            acc += (int32_t)taps[t] * in[i - t];
        int64_t v = (acc + 16384) >> 15;
        out[i] = (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
    }
}

static void host_conv(const uint8_t *in, const int8_t k[9], int shift,
                      uint8_t *out)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int acc = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    if (y + dy >= 0 && y + dy < H && x + dx >= 0 && x + dx < W)
                        acc += k[(dy + 1) * 3 + dx + 1] * in[(y + dy) * W + x + dx];
            int v = acc < 0 ? 0 : acc >> shift;
            out[y * W + x] = (uint8_t)(v > 255 ? 255 : v);
        }
}

/* ---- Listing -------------------------------------------------------------- */

static int list_devices(void)
{
    axl_platform plats[8];
    uint32_t np;
    CHECK(axl_platform_get_all(plats, 8, &np));
    for (uint32_t p = 0; p < np; p++) {
        char name[64], why[128];
        CHECK(axl_platform_get_info(plats[p], AXL_PLATFORM_INFO_NAME, name,
                                    sizeof name, NULL));
        printf("platform %u: %s\n", (unsigned)p, name);
        axl_device devs[8];
        uint32_t nd;
        CHECK(axl_platform_get_devices(plats[p], AXL_DEVICE_TYPE_ALL, devs, 8,
                                       &nd));
        if (!nd) {
            CHECK(axl_platform_get_info(plats[p],
                                        AXL_PLATFORM_INFO_NO_DEVICE_REASON,
                                        why, sizeof why, NULL));
            printf("  no device: %s\n", why);
        }
        for (uint32_t d = 0; d < nd; d++) {
            char dn[128], kernels[256];
            uint32_t cus;
            uint64_t mem;
            CHECK(axl_device_get_info(devs[d], AXL_DEVICE_INFO_NAME, dn,
                                      sizeof dn, NULL));
            CHECK(axl_device_get_info(devs[d], AXL_DEVICE_INFO_MAX_COMPUTE_UNITS,
                                      &cus, sizeof cus, NULL));
            CHECK(axl_device_get_info(devs[d], AXL_DEVICE_INFO_GLOBAL_MEM_SIZE,
                                      &mem, sizeof mem, NULL));
            CHECK(axl_device_get_info(devs[d], AXL_DEVICE_INFO_BUILT_IN_KERNELS,
                                      kernels, sizeof kernels, NULL));
            printf("  device: %s\n    %u compute units, %llu MiB, built-in "
                   "kernels: %s\n",
                   dn, (unsigned)cus, (unsigned long long)(mem >> 20),
                   kernels[0] ? kernels : "(none)");
        }
    }
    return 0;
}

/* ---- The pipeline ------------------------------------------------------------ */

static int find_kernel(axl_device dev, axl_kernel_bundle bundle,
                       const char *name, axl_kernel *k)
{
    axl_kernel_id id;
    CHECK(axl_get_built_in_kernel_id(dev, name, &id));
    CHECK(axl_kernel_bundle_get_kernel(bundle, id, k));
    return 0;
}

typedef struct stats {
    const int16_t *filtered;
    const uint8_t *sharp;
    const int32_t *sum;
    int64_t energy, brightness, total;
} stats;

typedef struct stats_group {
    axl_buffer filtered, sharp, sum;
    stats *out;
} stats_group;

static axl_status compute_stats(void *user)
{
    stats *s = user;
    s->energy = s->brightness = s->total = 0;
    for (int i = 0; i < SAMPLES; i++)
        s->energy += s->filtered[i] < 0 ? -s->filtered[i] : s->filtered[i];
    for (int i = 0; i < W * H; i++)
        s->brightness += s->sharp[i];
    for (int i = 0; i < N; i++)
        s->total += s->sum[i];
    return AXL_SUCCESS;
}

static void stats_cgf(axl_handler *h, void *user)
{
    stats_group *g = user;
    axl_accessor f, p, v;
    axl_handler_require(h, g->filtered, AXL_ACCESS_READ, NULL, 0, &f);
    axl_handler_require(h, g->sharp, AXL_ACCESS_READ, NULL, 0, &p);
    axl_handler_require(h, g->sum, AXL_ACCESS_READ, NULL, 0, &v);
    axl_handler_host_ptr(h, f, (void **)&g->out->filtered);
    axl_handler_host_ptr(h, p, (void **)&g->out->sharp);
    axl_handler_host_ptr(h, v, (void **)&g->out->sum);
    axl_handler_host_task(h, compute_stats, g->out);
}

int main(int argc, char **argv)
{
    const char *trace = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--trace") == 0 && i + 1 < argc) {
            trace = argv[++i];
        } else {
            fprintf(stderr, "usage: %s [--trace out.json]\n", argv[0]);
            return 2;
        }
    }
    if (trace)
        CHECK(axl_trace_enable(true));
    printf("== what axl sees ==\n");
    if (list_devices())
        return 1;

    /* Inputs: a noisy ramp, a low-pass, a gradient image, two vectors. */
    for (int i = 0; i < SAMPLES; i++)
        signal_in[i] = (int16_t)((i % 200) * 100 - 10000 + ((i * 7919) % 2001 - 1000));
    for (int t = 0; t < TAPS; t++)
        taps[t] = 32768 / TAPS - 1; /* a moving average in Q15 */
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            image[y][x] = (uint8_t)((x * 4 + y * 2 + (x * y) % 17) & 0xFF);
    for (int i = 0; i < N; i++) {
        va[i] = i * 3;
        vb[i] = 100000 - i;
    }

    axl_device dev;
    CHECK(axl_device_select(axl_default_selector, NULL, &dev));
    axl_context ctx;
    CHECK(axl_context_create(&dev, 1, NULL, &ctx));
    axl_queue q;
    CHECK(axl_queue_create(ctx, dev, AXL_QUEUE_ENABLE_PROFILING, NULL, &q));
    axl_kernel_id ids[32];
    size_t size;
    CHECK(axl_device_get_info(dev, AXL_DEVICE_INFO_BUILT_IN_KERNEL_IDS, ids,
                              sizeof ids, &size));
    axl_kernel_bundle bundle;
    CHECK(axl_get_kernel_bundle_for(ctx, NULL, 0, ids,
                                    (uint32_t)(size / sizeof ids[0]),
                                    AXL_BUNDLE_EXECUTABLE, &bundle));
    axl_kernel fir, conv, vadd;
    if (find_kernel(dev, bundle, "fir", &fir) ||
        find_kernel(dev, bundle, "conv2d", &conv) ||
        find_kernel(dev, bundle, "vadd", &vadd))
        return 1;

    axl_buffer sig, tap, filt, img, blurred, out, bk, sk, a, b, sum;
    CHECK(axl_buffer_create_from_const(signal_in, 2, axl_range_1d(SAMPLES),
                                       NULL, &sig));
    CHECK(axl_buffer_create_from_const(taps, 2, axl_range_1d(TAPS), NULL,
                                       &tap));
    CHECK(axl_buffer_create_from(filtered, 2, axl_range_1d(SAMPLES), NULL,
                                 &filt));
    CHECK(axl_buffer_create_from_const(image, 1, axl_range_2d(H, W), NULL,
                                       &img));
    CHECK(axl_buffer_create(1, axl_range_2d(H, W), NULL, &blurred));
    CHECK(axl_buffer_create_from(sharp, 1, axl_range_2d(H, W), NULL, &out));
    CHECK(axl_buffer_create_from_const(blur, 1, axl_range_1d(9), NULL, &bk));
    CHECK(axl_buffer_create_from_const(sharpen, 1, axl_range_1d(9), NULL, &sk));
    CHECK(axl_buffer_create_from_const(va, 4, axl_range_1d(N), NULL, &a));
    CHECK(axl_buffer_create_from_const(vb, 4, axl_range_1d(N), NULL, &b));
    CHECK(axl_buffer_create_from(vsum, 4, axl_range_1d(N), NULL, &sum));

    axl_event ev[6];
    const char *what[6] = {"fir low-pass", "conv2d blur", "conv2d sharpen",
                           "vadd half 0", "vadd half 1", "host statistics"};
    CHECK(axl_queue_single_task(
        q, fir,
        AXL_ARGS(AXL_ARG_IN(sig), AXL_ARG_IN(tap), AXL_ARG_OUT(filt),
                 AXL_ARG_U32(TAPS), AXL_ARG_U32(SAMPLES)),
        NULL, 0, &ev[0]));
    CHECK(axl_queue_single_task(
        q, conv,
        AXL_ARGS(AXL_ARG_IN(img), AXL_ARG_IN(bk), AXL_ARG_OUT(blurred),
                 AXL_ARG_U32(W), AXL_ARG_U32(H), AXL_ARG_U32(4)),
        NULL, 0, &ev[1]));
    CHECK(axl_queue_single_task(
        q, conv,
        AXL_ARGS(AXL_ARG_IN(blurred), AXL_ARG_IN(sk), AXL_ARG_OUT(out),
                 AXL_ARG_U32(W), AXL_ARG_U32(H), AXL_ARG_U32(0)),
        NULL, 0, &ev[2]));
    /* parallel_for over vadd's compute units: one chunk per unit, each
     * with its part of a, b and sum and its count in `size`. */
    uint32_t chunks = 0;
    CHECK(axl_queue_parallel_for(
        q, vadd, N,
        AXL_ARGS(AXL_ARG_IN(a), AXL_ARG_IN(b), AXL_ARG_OUT(sum), AXL_ARG_U32(0)),
        &(axl_split){.count_arg = "size", .chunk_events = &ev[3],
                     .chunk_count = &chunks},
        NULL, 0, NULL));
    if (chunks != 2) {
        fprintf(stderr, "vadd ran in %u chunks, not 2\n", (unsigned)chunks);
        return 1;
    }
    stats st;
    stats_group sg = {filt, out, sum, &st};
    CHECK(axl_queue_submit(q, stats_cgf, &sg, &ev[5]));
    CHECK(axl_queue_wait_and_throw(q));

    /* Timeline. */
    char dev_name[128];
    CHECK(axl_device_get_info(dev, AXL_DEVICE_INFO_NAME, dev_name,
                              sizeof dev_name, NULL));
    printf("\n== pipeline on %s (us from the first submit) ==\n", dev_name);
    printf("  %-16s %10s %10s %10s\n", "command", "submit", "start", "end");
    uint64_t t0 = 0, prof[6][3];
    for (int i = 0; i < 6; i++) {
        uint64_t s, b0, e;
        CHECK(axl_event_get_profiling(ev[i], AXL_PROFILING_COMMAND_SUBMIT, &s));
        CHECK(axl_event_get_profiling(ev[i], AXL_PROFILING_COMMAND_START, &b0));
        CHECK(axl_event_get_profiling(ev[i], AXL_PROFILING_COMMAND_END, &e));
        if (!i)
            t0 = s;
        printf("  %-16s %10.1f %10.1f %10.1f\n", what[i], (s - t0) / 1e3,
               (b0 - t0) / 1e3, (e - t0) / 1e3);
        if (i == 3 || i == 4) { /* which unit ran the chunk */
            uint32_t cu;
            axl_kernel_cu_info ci;
            CHECK(axl_event_get_compute_unit(ev[i], &cu));
            CHECK(axl_kernel_get_cu_info(vadd, cu, &ci));
            printf("  %-16s ran on compute unit %s\n", "", ci.name);
        }
        prof[i][0] = s;
        prof[i][1] = b0;
        prof[i][2] = e;
        CHECK(axl_event_release(ev[i]));
    }

    /* Release: results are written back to filtered, sharp and vsum. */
    axl_buffer all[] = {sig, tap, filt, img, blurred, out, bk, sk, a, b, sum};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        CHECK(axl_buffer_release(all[i]));

    /* Check against the host. */
    static int16_t want_filtered[SAMPLES];
    static uint8_t tmp[H][W], want_sharp[H][W];
    host_fir(signal_in, want_filtered);
    host_conv(&image[0][0], blur, 4, &tmp[0][0]);
    host_conv(&tmp[0][0], sharpen, 0, &want_sharp[0][0]);
    int ok_fir = !memcmp(filtered, want_filtered, sizeof filtered);
    int ok_img = !memcmp(sharp, want_sharp, sizeof sharp);
    int ok_sum = 1;
    int64_t total = 0;
    for (int i = 0; i < N; i++) {
        ok_sum &= vsum[i] == va[i] + vb[i];
        total += va[i] + vb[i];
    }
    int ok_stats = st.total == total;
    printf("\n  fir:    %s\n  conv2d: %s\n  vadd:   %s (sum %lld)\n"
           "  stats:  %s (energy %lld, brightness %lld)\n",
           ok_fir ? "matches the host" : "MISMATCH",
           ok_img ? "matches the host" : "MISMATCH",
           ok_sum ? "matches the host" : "MISMATCH", (long long)st.total,
           ok_stats ? "matches the host" : "MISMATCH", (long long)st.energy,
           (long long)st.brightness);
    int ok = ok_fir && ok_img && ok_sum && ok_stats;
    printf("  result: %s\n", ok ? "ok" : "FAILED");

    CHECK(axl_kernel_release(fir));
    CHECK(axl_kernel_release(conv));
    CHECK(axl_kernel_release(vadd));
    CHECK(axl_kernel_bundle_release(bundle));
    CHECK(axl_queue_release(q));
    CHECK(axl_context_release(ctx));
    if (axl_trace_enabled()) {
        /* The same times in ns, which the trace's slices carry (the
         * trace test compares them). */
        printf("\n== profiling (ns), as in the trace ==\n");
        for (int i = 0; i < 6; i++)
            printf("  profile %d %llu %llu %llu\n", i,
                   (unsigned long long)prof[i][0],
                   (unsigned long long)prof[i][1],
                   (unsigned long long)prof[i][2]);
    }
    if (trace) {
        CHECK(axl_trace_write(trace));
        printf("  trace: %s (open it in ui.perfetto.dev)\n", trace);
    }
    CHECK(axl_shutdown());
    return ok ? 0 : 1;
}
