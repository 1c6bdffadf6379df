/*
 * bench_swap.c - what a swap costs (bench_swap.h). A swap's cost is what
 * the alternating order costs more than the grouped one, which runs the
 * same commands with the same dependencies and two swaps, per swap
 * beyond those two: S(batch) = (T_alt - T_grouped) / (2 * rounds - 2).
 * S(1) and S(8) give the fixed part and the part per command a swap
 * released: per_released = (S(8) - S(1)) / 7, per_load = S(1) -
 * per_released. tests/bench/instructions.sh does the same with
 * callgrind's instruction counts.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "axl/axl.h"
#include "axl_test_designs_b_xclbin.h"
#include "bench_check.h"
#include "bench_swap.h"
#if AXL_BENCH_SLOTS
#include "axl/emu.h"
#include "axl/shell.h"
#include "bench_slots_static.h"
#include "bench_slots_vadd_rp0.h"
#include "bench_slots_fir_rp0.h"
#endif

enum { BATCH_MAX = 8, LEN = 16, TAPS = 4 };

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Loads since start-up: the "reprogramming" row's high_water (2.6). */
static uint32_t loads(void)
{
    axl_pool_stats s[64];
    uint32_t n = 0;
    CHECK(axl_stats_get(s, 64, &n));
    for (uint32_t i = 0; i < n; i++)
        if (!strcmp(s[i].name, "reprogramming"))
            return s[i].high_water;
    fprintf(stderr, "axl-bench swap: no \"reprogramming\" row\n");
    exit(1);
}

struct swap_rig {
    bool slots;      /* vadd and fir partials taking turns in slot RP_0 of
                        the emulated k26_2rp device (bench_swap.h), not the
                        stock nop and fir on the whole fabric */
    axl_context ctx;
    axl_queue q;
    axl_kernel_bundle a, b;
    axl_kernel nop, fir; /* with slots, nop is the vadd partial's vadd */
    axl_buffer va[3];    /* its buffers */
    /* fir's buffers, one set a command of a round: a fir may write its
     * inputs (by its metadata), so shared ones would order the round. */
    axl_buffer in[BATCH_MAX], coeff[BATCH_MAX], out[BATCH_MAX];
    axl_buffer gate; /* held by a host accessor while a round is submitted */
    int firs;        /* fir commands so far: each takes the next set, so
                        no launch is its kernel's last one again (a memo)
                        in either order, and the orders differ only by
                        their swaps */
};

#if AXL_BENCH_SLOTS
/* The slot mode's device: the k26_2rp shell, a static part on the
 * Kria's PS DDR (examples/slots_static.cfg, whose bank the partials
 * reach), and the two partials for RP_0. Once: before the first call. */
static void slots_up(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    CHECK(axl_shutdown());
    CHECK(axl_emu_set_shell(&axl_shell_k26_2rp));
    CHECK(axl_emu_set_builtin_image(bench_slots_static,
                                    bench_slots_static_size));
    CHECK(axl_image_register(bench_slots_vadd_rp0,
                             bench_slots_vadd_rp0_size));
    CHECK(axl_image_register(bench_slots_fir_rp0, bench_slots_fir_rp0_size));
}
#endif

static void rig_up(struct swap_rig *r)
{
    static bool registered;
#if AXL_BENCH_SLOTS
    if (r->slots)
        slots_up();
    else
#endif
    if (!registered) {
        CHECK(axl_image_register(axl_test_designs_b_xclbin,
                                 axl_test_designs_b_xclbin_size));
        registered = true;
    }
    axl_device d;
    CHECK(axl_device_select(axl_default_selector, NULL, &d));
    CHECK(axl_context_create(&d, 1, NULL, &r->ctx));
    CHECK(axl_queue_create(r->ctx, d, 0, NULL, &r->q)); /* out of order */
    axl_kernel_id nop, fir;
    if (r->slots) {
        CHECK(axl_get_kernel_id("vadd", &nop));
        for (int k = 0; k < 3; k++)
            CHECK(axl_buffer_create(4, axl_range_1d(LEN), NULL, &r->va[k]));
    } else {
        CHECK(axl_get_built_in_kernel_id(d, "nop", &nop));
    }
    CHECK(axl_get_kernel_bundle_for(r->ctx, r->slots ? &d : NULL,
                                    r->slots ? 1 : 0, &nop, 1,
                                    AXL_BUNDLE_EXECUTABLE, &r->a));
    CHECK(axl_kernel_bundle_get_kernel(r->a, nop, &r->nop));
    CHECK(axl_get_kernel_id("fir", &fir));
    CHECK(axl_get_kernel_bundle_for(r->ctx, &d, 1, &fir, 1,
                                    AXL_BUNDLE_EXECUTABLE, &r->b));
    CHECK(axl_kernel_bundle_get_kernel(r->b, fir, &r->fir));
    static const int16_t zeros[LEN];
    for (int k = 0; k < BATCH_MAX; k++) {
        CHECK(axl_buffer_create(2, axl_range_1d(LEN), NULL, &r->in[k]));
        CHECK(axl_buffer_create(2, axl_range_1d(TAPS), NULL, &r->coeff[k]));
        CHECK(axl_buffer_create(2, axl_range_1d(LEN), NULL, &r->out[k]));
        CHECK(axl_queue_copy_from_host(r->q, zeros, r->in[k], NULL, NULL, 0,
                                       NULL));
        CHECK(axl_queue_copy_from_host(r->q, zeros, r->coeff[k], NULL, NULL,
                                       0, NULL));
    }
    CHECK(axl_buffer_create(4, axl_range_1d(1), NULL, &r->gate));
    CHECK(axl_queue_wait(r->q));
}

static void rig_down(struct swap_rig *r)
{
    CHECK(axl_queue_wait(r->q));
    for (int k = 0; k < BATCH_MAX; k++) {
        CHECK(axl_buffer_release(r->in[k]));
        CHECK(axl_buffer_release(r->coeff[k]));
        CHECK(axl_buffer_release(r->out[k]));
    }
    CHECK(axl_buffer_release(r->gate));
    for (int k = 0; r->slots && k < 3; k++)
        CHECK(axl_buffer_release(r->va[k]));
    CHECK(axl_kernel_release(r->nop));
    CHECK(axl_kernel_release(r->fir));
    CHECK(axl_kernel_bundle_release(r->a));
    CHECK(axl_kernel_bundle_release(r->b));
    CHECK(axl_queue_release(r->q));
    CHECK(axl_context_release(r->ctx));
}

/* One round: `batch` commands of one design, submitted behind a gate (a
 * copy into a buffer a host accessor holds) and let go at once when the
 * accessor goes, then waited for: however the threads run, every command
 * of a round becomes ready in the same instant, and every one is
 * submitted with the previous round's design loaded (a launch check of a
 * design not loaded costs more: it is part of a swap's cost). */
static void round_of(struct swap_rig *r, bool fir, int batch)
{
    static const int32_t one = 1;
    axl_host_accessor h;
    void *p;
    axl_event gate, e;
    CHECK(axl_host_accessor_create(r->gate, AXL_ACCESS_READ_WRITE, NULL, 0,
                                   &h, &p));
    CHECK(axl_queue_copy_from_host(r->q, &one, r->gate, NULL, NULL, 0, &gate));
    for (int k = 0; k < batch; k++) {
        const int set = fir ? r->firs++ % BATCH_MAX : 0;
        if (fir)
            CHECK(axl_queue_single_task(
                r->q, r->fir,
                AXL_ARGS(AXL_ARG_IN(r->in[set]), AXL_ARG_IN(r->coeff[set]),
                         AXL_ARG_OUT(r->out[set]), AXL_ARG_U32(TAPS),
                         AXL_ARG_U32(LEN)),
                &gate, 1, &e));
        else if (r->slots)
            CHECK(axl_queue_single_task(
                r->q, r->nop,
                AXL_ARGS(AXL_ARG_IN(r->va[0]), AXL_ARG_IN(r->va[1]),
                         AXL_ARG_OUT(r->va[2]), AXL_ARG_U32(LEN)),
                &gate, 1, &e));
        else
            CHECK(axl_queue_single_task(r->q, r->nop, NULL, 0, &gate, 1, &e));
        CHECK(axl_event_release(e));
    }
    CHECK(axl_event_release(gate));
    CHECK(axl_host_accessor_release(h));
    CHECK(axl_queue_wait(r->q));
}

double bench_swap_rounds(int batch, int rounds, bool alternating,
                         bool slots)
{
    if (batch < 1 || batch > BATCH_MAX) {
        fprintf(stderr, "axl-bench swap: a batch is 1 to %d commands\n",
                BATCH_MAX);
        exit(2);
    }
#if !AXL_BENCH_SLOTS
    if (slots) {
        fprintf(stderr, "axl-bench: built without the slot partials\n");
        exit(2);
    }
#endif
    struct swap_rig r = {0};
    r.slots = slots;
    rig_up(&r);
    /* The stock design (nop's) loaded, and fir's data on the device, in
     * both orders alike. */
    round_of(&r, true, batch);
    round_of(&r, false, batch);
    const uint32_t before = loads();
    const double t0 = now_ns();
    for (int i = 0; i < 2 * rounds; i++)
        round_of(&r, alternating ? i % 2 == 0 : i < rounds, batch);
    const double t = now_ns() - t0;
    const uint32_t want = !rounds ? 0 : alternating ? 2u * (uint32_t)rounds : 2u;
    if (loads() - before != want) {
        fprintf(stderr, "axl-bench swap: %u loads, not %u\n",
                (unsigned)(loads() - before), (unsigned)want);
        exit(1);
    }
    rig_down(&r);
    return t;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* S(batch) in ns: a swap releasing `batch` commands. */
static double per_swap(int batch)
{
    enum { ROUNDS = 100, RUNS = 7 };
    double v[RUNS];
    for (int i = 0; i < RUNS; i++)
        v[i] = (bench_swap_rounds(batch, ROUNDS, true, false) -
                bench_swap_rounds(batch, ROUNDS, false, false)) /
               (2 * ROUNDS - 2);
    qsort(v, RUNS, sizeof v[0], by_value);
    return v[RUNS / 2];
}

void bench_swap_figures(void)
{
    const double s1 = per_swap(1), s8 = per_swap(8);
    const double per_released = (s8 - s1) / 7;
    printf("swap_per_load %.0f ns/swap\n", s1 - per_released);
    printf("swap_per_released_command %.0f ns/command\n", per_released);
}
