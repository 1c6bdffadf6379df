/*
 * slots.c - docs/several-designs.md, "Load partial designs into DFX
 * slots", whole: the emulated device given Kria's 2RP shell (k26_2rp,
 * two slots RP_0 and RP_1), and three accelerators linked at build time
 * as partials of that shell by `axl-xclbin link --platform k26_2rp
 * --slot N` (examples/CMakeLists.txt): vadd for RP_0, fir for RP_1,
 * conv2d for each slot (two images of one design: the second registered
 * is a variant of the first). The device's built-in design is the
 * shell's static part (examples/slots_static.cfg).
 *
 *  1. vadd and fir load into their slots when their bundles are
 *     obtained, then run side by side: both designs stay on the device
 *     (alternating them loads nothing more).
 *  2. conv2d, whose bundle is obtained while vadd's is still held, swaps
 *     into RP_0 on demand at its first command while fir goes on running
 *     in RP_1 (both slots are held and idle: RP_0 was loaded least
 *     recently); vadd's next command swaps vadd back.
 *  3. fir is released; conv2d's next command goes to the slot nobody
 *     holds, RP_1, with its RP_1 image, while vadd stays in RP_0.
 *
 * Each step prints the slot each command ran in (axl_event_get_slot) and
 * the device's regions (axl_device_get_regions), and checks every result
 * and the number of loads (the "reprogramming" row of axl_stats_get).
 * Prints "slots: ok" at the end; exits 1 on any failure.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "axl/axl.h"
#include "axl/emu.h"
#include "axl/kernels.h"
#include "axl/shell.h"
#include "slots_conv2d_rp0.h"
#include "slots_conv2d_rp1.h"
#include "slots_fir_rp1.h"
#include "slots_static.h"
#include "slots_vadd_rp0.h"

#define N 256     /* vadd's elements, fir's samples */
#define TAPS 4
#define W 16      /* conv2d's image */
#define H 8

#define CHECK(call)                                                            \
    do {                                                                       \
        axl_status st_ = (call);                                               \
        if (st_ != AXL_SUCCESS) {                                              \
            fprintf(stderr, "%s: %s\n  %s\n", #call, axl_status_name(st_),     \
                    axl_last_message());                                       \
            return 1;                                                          \
        }                                                                      \
    } while (0)

#define EXPECT(cond, ...)                                                      \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "slots: " __VA_ARGS__);                            \
            fprintf(stderr, "\n");                                             \
            return 1;                                                          \
        }                                                                      \
    } while (0)

/* The three accelerators: each a kernel of one partial design. */
typedef struct accel {
    const char *name;
    axl_kernel_id id;
    axl_kernel_bundle bundle;
    axl_kernel kernel;
} accel;

/* A submitted command and its buffers. Releasing a buffer made from host
 * memory waits for the commands using it and writes it back, so a job's
 * buffers are released only once every job of a step is submitted. */
typedef struct job {
    axl_event done;
    axl_buffer buf[3];
} job;

static int finish(job *j)
{
    for (int i = 0; i < 3; i++)
        CHECK(axl_buffer_release(j->buf[i]));
    return 0;
}

/* ---- What the device holds ---------------------------------------------- */

/* Loads since start-up: the high water of axl_stats_get's "reprogramming"
 * row counts every load of a design, whole device or slot. */
static int loads(uint32_t *n)
{
    axl_pool_stats st[64];
    uint32_t rows = 0;
    CHECK(axl_stats_get(st, 64, &rows));
    for (uint32_t i = 0; i < rows; i++)
        if (!strcmp(st[i].name, "reprogramming")) {
            *n = st[i].high_water;
            return 0;
        }
    fprintf(stderr, "slots: axl_stats_get has no \"reprogramming\" row\n");
    return 1;
}

static const char *state_name(axl_region_state s)
{
    return s == AXL_REGION_LOADED    ? "loaded"
           : s == AXL_REGION_LOADING ? "loading"
                                     : "empty";
}

/* The regions, one line each; the design in slot k in design_of[k]. */
static int print_regions(axl_device dev, const char *when,
                         char design_of[2][32])
{
    axl_region_info r[1 + AXL_SHELL_MAX_SLOTS];
    uint32_t n = 0;
    CHECK(axl_device_get_regions(dev, r, 1 + AXL_SHELL_MAX_SLOTS, &n));
    printf("regions %s:\n", when);
    for (uint32_t i = 0; i < n; i++) {
        printf("  %-6s slot %2d  %-7s %-8s%s  runs %u, waiting %u\n",
               r[i].name, (int)r[i].slot, state_name(r[i].state),
               r[i].design[0] ? r[i].design : "-",
               r[i].held ? " (held)" : "       ", (unsigned)r[i].runs,
               (unsigned)r[i].waiting);
        if (r[i].slot >= 0 && r[i].slot < 2)
            memcpy(design_of[r[i].slot], r[i].design, 32);
    }
    EXPECT(n == 3, "%u regions, not 3 (the static part, RP_0, RP_1)",
           (unsigned)n);
    return 0;
}

/* The slot a job's command ran in, printed once it is done (its
 * buffers released, its output written back); it must be `want`. */
static int ran_in(job *j, const char *what, int32_t want)
{
    int32_t slot = -2;
    CHECK(axl_event_wait(j->done));
    CHECK(axl_event_get_slot(j->done, &slot));
    CHECK(axl_event_release(j->done));
    if (finish(j))
        return 1;
    printf("  %-6s ran in slot %d\n", what, (int)slot);
    EXPECT(slot == want, "%s ran in slot %d, not %d", what, (int)slot,
           (int)want);
    return 0;
}

/* ---- The three accelerators' work, and what it must give ---------------- */

static int32_t a[N], b[N], sum[N];
static int16_t in[N], coeff[TAPS] = {8192, 8192, 8192, 8192}, out[N];
static uint8_t img[W * H], filtered[W * H];
static const int8_t box[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};

static void inputs(void)
{
    for (int i = 0; i < N; i++) {
        a[i] = i;
        b[i] = 1000 * i;
        in[i] = (int16_t)((i * 977) % 20000 - 10000);
    }
    for (int i = 0; i < W * H; i++)
        img[i] = (uint8_t)(i * 7);
}

static int vadd(axl_queue q, const accel *k, job *j)
{
    axl_buffer *B = j->buf;
    memset(sum, 0, sizeof sum);
    CHECK(axl_buffer_create_from_const(a, 4, axl_range_1d(N), NULL, &B[0]));
    CHECK(axl_buffer_create_from_const(b, 4, axl_range_1d(N), NULL, &B[1]));
    CHECK(axl_buffer_create_from(sum, 4, axl_range_1d(N), NULL, &B[2]));
    CHECK(axl_queue_single_task(q, k->kernel,
                                AXL_ARGS(AXL_ARG_IN(B[0]), AXL_ARG_IN(B[1]),
                                         AXL_ARG_OUT(B[2]), AXL_ARG_U32(N)),
                                NULL, 0, &j->done));
    return 0;
}

static int vadd_right(void)
{
    for (int i = 0; i < N; i++)
        EXPECT(sum[i] == a[i] + b[i], "vadd: sum[%d] = %d, not %d", i,
               (int)sum[i], (int)(a[i] + b[i]));
    return 0;
}

static int fir(axl_queue q, const accel *k, job *j)
{
    axl_buffer *B = j->buf;
    memset(out, 0, sizeof out);
    CHECK(axl_buffer_create_from_const(in, 2, axl_range_1d(N), NULL, &B[0]));
    CHECK(axl_buffer_create_from_const(coeff, 2, axl_range_1d(TAPS), NULL,
                                       &B[1]));
    CHECK(axl_buffer_create_from(out, 2, axl_range_1d(N), NULL, &B[2]));
    CHECK(axl_queue_single_task(
        q, k->kernel,
        AXL_ARGS(AXL_ARG_IN(B[0]), AXL_ARG_IN(B[1]), AXL_ARG_OUT(B[2]),
                 AXL_ARG_U32(TAPS), AXL_ARG_U32(N)),
        NULL, 0, &j->done));
    return 0;
}

/* axl/kernels.h's fir: Q15, rounded half up, saturated. Four taps of a
 * quarter each: the mean of the last four samples. */
static int fir_right(void)
{
    for (int i = 0; i < N; i++) {
        int64_t acc = 0;
        for (int t = 0; t < TAPS && t <= i; t++)
            acc += (int32_t)coeff[t] * in[i - t];
        int64_t r = acc + (1 << 14);
        r = r >= 0 ? r / 32768 : -((-r + 32767) / 32768);
        r = r > 32767 ? 32767 : r < -32768 ? -32768 : r;
        EXPECT(out[i] == r, "fir: out[%d] = %d, not %d", i, (int)out[i],
               (int)r);
    }
    return 0;
}

static int conv2d(axl_queue q, const accel *k, job *j)
{
    axl_buffer *B = j->buf;
    memset(filtered, 0, sizeof filtered);
    CHECK(axl_buffer_create_from_const(img, 1, axl_range_1d(W * H), NULL,
                                       &B[0]));
    CHECK(axl_buffer_create_from_const(box, 1, axl_range_1d(9), NULL,
                                       &B[1]));
    CHECK(axl_buffer_create_from(filtered, 1, axl_range_1d(W * H), NULL,
                                 &B[2]));
    CHECK(axl_queue_single_task(
        q, k->kernel,
        AXL_ARGS(AXL_ARG_IN(B[0]), AXL_ARG_IN(B[1]), AXL_ARG_OUT(B[2]),
                 AXL_ARG_U32(W), AXL_ARG_U32(H), AXL_ARG_U32(3)),
        NULL, 0, &j->done));
    return 0;
}

/* axl/kernels.h's conv2d: a 3x3 box sum over zero padding, >> 3,
 * clamped to 0..255. */
static int conv2d_right(void)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int32_t acc = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    if (y + dy >= 0 && y + dy < H && x + dx >= 0 &&
                        x + dx < W)
                        acc += box[(dy + 1) * 3 + dx + 1] *
                               img[(y + dy) * W + x + dx];
            int32_t v = acc >> 3;
            v = v > 255 ? 255 : v;
            EXPECT(filtered[y * W + x] == v, "conv2d: (%d, %d) = %d, not %d",
                   x, y, (int)filtered[y * W + x], (int)v);
        }
    return 0;
}

/* ---- The program --------------------------------------------------------- */

/* Each accelerator's kernel id, executable bundle and kernel. Obtaining
 * the bundle of a partial loads it into its slot when the slot is free;
 * else (conv2d: vadd's bundle holds RP_0) its first command does. */
static int take(axl_context ctx, axl_device dev, accel *k)
{
    CHECK(axl_get_kernel_id(k->name, &k->id));
    CHECK(axl_get_kernel_bundle_for(ctx, &dev, 1, &k->id, 1,
                                    AXL_BUNDLE_EXECUTABLE, &k->bundle));
    CHECK(axl_kernel_bundle_get_kernel(k->bundle, k->id, &k->kernel));
    return 0;
}

static int let_go(accel *k)
{
    CHECK(axl_kernel_release(k->kernel));
    CHECK(axl_kernel_bundle_release(k->bundle));
    return 0;
}

/* vadd in RP_0 and fir in RP_1, submitted together on an out-of-order
 * queue: no load between them, each in its own slot. */
static int side_by_side(axl_queue q, const accel *va, const accel *fi)
{
    job jv, jf;
    if (vadd(q, va, &jv) || fir(q, fi, &jf))
        return 1;
    if (ran_in(&jv, "vadd", 0) || ran_in(&jf, "fir", 1))
        return 1;
    return vadd_right() || fir_right();
}

static int run(axl_device dev)
{
    char shell[32] = "";
    uint32_t slots = 0, n0, n;
    char design_of[2][32];
    CHECK(axl_device_get_info(dev, AXL_DEVICE_INFO_SHELL, shell, sizeof shell,
                              NULL));
    CHECK(axl_device_get_info(dev, AXL_DEVICE_INFO_SLOTS, &slots,
                              sizeof slots, NULL));
    printf("device with shell %s, %u slots\n", shell, (unsigned)slots);
    EXPECT(slots == 2 && !strcmp(shell, "k26_2rp"),
           "the device has shell \"%s\" with %u slots, not k26_2rp's 2",
           shell, (unsigned)slots);
    if (loads(&n0))
        return 1;

    axl_context ctx;
    axl_queue q;
    CHECK(axl_context_create(&dev, 1, NULL, &ctx));
    CHECK(axl_queue_create(ctx, dev, 0, NULL, &q));
    accel va = {.name = "vadd"}, fi = {.name = "fir"}, cv = {.name = "conv2d"};
    inputs();

    /* 1. Two accelerators, two slots, both on the device at once. */
    if (take(ctx, dev, &va) || take(ctx, dev, &fi) || take(ctx, dev, &cv))
        return 1;
    if (print_regions(dev, "after the three bundles", design_of) ||
        loads(&n))
        return 1;
    EXPECT(!strcmp(design_of[0], "vadd") && !strcmp(design_of[1], "fir"),
           "RP_0 holds \"%s\" and RP_1 \"%s\", not vadd and fir",
           design_of[0], design_of[1]);
    EXPECT(n == n0 + 2, "%u loads for the bundles, not 2 (vadd, fir)",
           (unsigned)(n - n0));
    printf("vadd and fir, side by side:\n");
    for (int round = 0; round < 2; round++)
        if (side_by_side(q, &va, &fi))
            return 1;
    if (loads(&n))
        return 1;
    EXPECT(n == n0 + 2, "%u loads after two rounds, not 2: a slot swapped",
           (unsigned)(n - n0));

    /* 2. conv2d swaps into RP_0 on demand, fir runs on in RP_1. */
    printf("conv2d into RP_0 (vadd's bundle still held), fir beside it:\n");
    job jc, jf;
    if (conv2d(q, &cv, &jc) || fir(q, &fi, &jf))
        return 1;
    if (ran_in(&jc, "conv2d", 0) || ran_in(&jf, "fir", 1))
        return 1;
    if (conv2d_right() || fir_right() ||
        print_regions(dev, "after conv2d", design_of) || loads(&n))
        return 1;
    EXPECT(!strcmp(design_of[0], "conv2d") && !strcmp(design_of[1], "fir"),
           "RP_0 holds \"%s\" and RP_1 \"%s\", not conv2d and fir",
           design_of[0], design_of[1]);
    EXPECT(n == n0 + 3, "%u loads, not 3: conv2d's swap in RP_0 only",
           (unsigned)(n - n0));

    /* vadd's next command brings it back into RP_0. */
    printf("vadd again:\n");
    job jv;
    if (vadd(q, &va, &jv) || ran_in(&jv, "vadd", 0))
        return 1;
    if (vadd_right() || print_regions(dev, "after vadd", design_of) ||
        loads(&n))
        return 1;
    EXPECT(!strcmp(design_of[0], "vadd"), "RP_0 holds \"%s\", not vadd",
           design_of[0]);
    EXPECT(n == n0 + 4, "%u loads, not 4", (unsigned)(n - n0));

    /* 3. fir released: conv2d takes the slot nobody holds, with its
     * image for that slot, and vadd stays. */
    printf("fir released; conv2d again, then vadd:\n");
    if (let_go(&fi) || conv2d(q, &cv, &jc) || ran_in(&jc, "conv2d", 1) ||
        conv2d_right() || vadd(q, &va, &jv) || ran_in(&jv, "vadd", 0) ||
        vadd_right() || print_regions(dev, "at the end", design_of) ||
        loads(&n))
        return 1;
    EXPECT(!strcmp(design_of[0], "vadd") && !strcmp(design_of[1], "conv2d"),
           "RP_0 holds \"%s\" and RP_1 \"%s\", not vadd and conv2d",
           design_of[0], design_of[1]);
    EXPECT(n == n0 + 5, "%u loads, not 5", (unsigned)(n - n0));
    printf("reprogramming: %u slot loads\n", (unsigned)(n - n0));

    if (let_go(&va) || let_go(&cv))
        return 1;
    CHECK(axl_queue_release(q));
    CHECK(axl_context_release(ctx));
    return 0;
}

/* The emulated device (the only one that takes a shell from the
 * application). */
static int emulated_device(axl_device *dev)
{
    axl_device d[8];
    uint32_t n = 0;
    CHECK(axl_device_get_all(AXL_DEVICE_TYPE_ALL, d, 8, &n));
    for (uint32_t i = 0; i < n; i++) {
        bool emu = false;
        CHECK(axl_device_has(d[i], AXL_ASPECT_EMULATED, &emu));
        if (emu) {
            *dev = d[i];
            return 0;
        }
    }
    fprintf(stderr, "slots: no emulated device\n");
    return 1;
}

int main(void)
{
    /* Before the first axl call: the devices opened from now on have the
     * shell (AXL_EMU_SHELL=k26_2rp in the environment does the same). */
    CHECK(axl_emu_set_shell(&axl_shell_k26_2rp));
    /* The static part: the emulated device's memory banks are its
     * built-in design's, and the stock design's are not the Kria's. This
     * one (mmult, on the PS DDR through HPC0 at address 0) gives it the
     * bank the partials name. */
    CHECK(axl_emu_set_builtin_image(slots_static, slots_static_size));
    CHECK(axl_image_register(slots_vadd_rp0, slots_vadd_rp0_size));
    CHECK(axl_image_register(slots_fir_rp1, slots_fir_rp1_size));
    CHECK(axl_image_register(slots_conv2d_rp0, slots_conv2d_rp0_size));
    CHECK(axl_image_register(slots_conv2d_rp1, slots_conv2d_rp1_size));
    axl_device dev;
    if (emulated_device(&dev))
        return 1;
    int rc = run(dev);
    CHECK(axl_shutdown());
    if (rc == 0)
        printf("slots: ok\n");
    return rc;
}
