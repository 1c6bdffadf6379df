/*
 * bench_mmio - what a launch costs through the mmio port (xrt/mmio), next
 * to a hand-written register driver on the same seam, in one run
 * (issue 28 item 6).
 *
 *   axl-bench-mmio                  every figure below
 *   axl-bench-mmio --callgrind P    path P's loop only (bench_P_loop),
 *                                   LOOPS times, no timing calls, for
 *                                   tests/bench/callgrind_mmio.sh
 *
 * The kernel is the stock vadd (three buffers already on the device, one
 * scalar: seven argument words) whose C model is replaced by one that does
 * nothing, so each figure is the driver's, not the addition's. Paths:
 *
 *   driver     a firmware engineer's minimum against the simulator's seam
 *              (axl_mmio_sim_model.rd32/wr32, what the port's seam calls):
 *              write the seven argument words, ap_start, read 0x00 until
 *              ap_done, ap_continue (vadd is ap_ctrl_chain); checked to
 *              run the model once per launch
 *   plain      axl_queue_single_task + axl_event_wait + release (in-order)
 *   replay1/4/16  axl_queue_submit_graph of a recorded graph of 1, 4, 16
 *              such launches in a chain, + wait + release; per kernel
 *   plan1/4/16 the same chains as plans (axl/plan.h) replayed by the plan
 *              executor, axl_plan_submit + axl_plan_wait; per kernel
 *
 * on the C-model register simulator, stepped (no threads: the unit's model
 * runs when the port reads its 0x00), units polled. Then the fixed and
 * per-node parts of a replay: per-node = (t16 - t4) / 12, fixed = t1 -
 * per-node.
 *
 * Then the three completion modes (axl_mmio_set_completion) on a model of
 * the bench's own with a clock (axl/mmio_model.h): every run lasts RUN_NS,
 * every register access ACCESS_NS (an AXI4-Lite round trip from the R5 of
 * a Zynq UltraScale+ is of that order), an interrupt reaches the CPU
 * IRQ_NS after the line rises (controller and vector). Printed: the
 * simulated time from ap_done to the waiter's return, for a short run
 * (inside AXL_MMIO_POLL_SPIN_NS) and a long one.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axl/axl.h"
#include "axl/emu.h"
#include "axl/graph.h"
#include "axl/mmio.h"
#include "axl/mmio_model.h"
#include "axl/plan.h"
#include "axl/xclbin.h"
#include "mmio_regs.h"
#include "mmio_sim.h"

#define NOINLINE __attribute__((noinline))
#define LOOPS 1000

#include "bench_check.h"

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
    axl_graph_exec exec[3]; /* 1, 4 and 16 nodes */
} rig;

static const unsigned graph_nodes[3] = {1, 4, 16};

static void launch(rig *r)
{
    axl_event e;
    CHECK(axl_queue_single_task(r->q, r->vadd, r->args, 4, NULL, 0, &e));
    CHECK(axl_event_wait(e));
    CHECK(axl_event_release(e));
}

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
    axl_kernel_arg args[4] = {
        {.index = 0, .buffer = r->a, .mode = AXL_ACCESS_READ},
        {.index = 1, .buffer = r->b, .mode = AXL_ACCESS_READ},
        {.index = 2, .buffer = r->o, .mode = AXL_ACCESS_WRITE_NO_INIT},
        {.index = 3, .value = &r->n, .size = 4}};
    memcpy(r->args, args, sizeof args);
    for (int i = 0; i < 4; i++)
        launch(r); /* places the buffers, opens both units, the memo */
    for (int g = 0; g < 3; g++) {
        axl_graph gr;
        CHECK(axl_graph_create(r->ctx, d, &gr));
        CHECK(axl_graph_begin_recording(gr, r->q));
        for (unsigned i = 0; i < graph_nodes[g]; i++)
            CHECK(axl_queue_single_task(r->q, r->vadd, r->args, 4, NULL, 0,
                                        NULL));
        CHECK(axl_graph_end_recording(gr, r->q));
        CHECK(axl_graph_finalize(gr, &r->exec[g]));
        CHECK(axl_graph_release(gr));
    }
}

static void down(rig *r)
{
    for (int g = 0; g < 3; g++)
        CHECK(axl_graph_exec_release(r->exec[g]));
    CHECK(axl_buffer_release(r->a));
    CHECK(axl_buffer_release(r->b));
    CHECK(axl_buffer_release(r->o));
    CHECK(axl_kernel_release(r->vadd));
    CHECK(axl_kernel_bundle_release(r->bundle));
    CHECK(axl_queue_release(r->q));
    CHECK(axl_context_release(r->ctx));
    CHECK(axl_shutdown());
}

static void replay(rig *r, int g)
{
    axl_event e;
    CHECK(axl_queue_submit_graph(r->q, r->exec[g], NULL, 0, &e));
    CHECK(axl_event_wait(e));
    CHECK(axl_event_release(e));
}

/* ---- The hand-written driver ----------------------------------------------- */

/* vadd's register map (its kernel XML): a, b, out 64-bit, n 32-bit. */
enum { DRV_UNIT = 0, REG_A = 0x10, REG_B = 0x1C, REG_OUT = 0x28, REG_N = 0x34 };

static uint64_t drv_a, drv_b, drv_o;

static void drv_wr(uint32_t off, uint32_t v)
{
    axl_mmio_sim_model.wr32(axl_mmio_sim_model.user, DRV_UNIT, off, v);
}

static uint32_t drv_rd(uint32_t off)
{
    return axl_mmio_sim_model.rd32(axl_mmio_sim_model.user, DRV_UNIT, off);
}

static void driver_run(void)
{
    drv_wr(REG_A, (uint32_t)drv_a);
    drv_wr(REG_A + 4, (uint32_t)(drv_a >> 32));
    drv_wr(REG_B, (uint32_t)drv_b);
    drv_wr(REG_B + 4, (uint32_t)(drv_b >> 32));
    drv_wr(REG_OUT, (uint32_t)drv_o);
    drv_wr(REG_OUT + 4, (uint32_t)(drv_o >> 32));
    drv_wr(REG_N, 16);
    drv_wr(MMIO_CTRL, MMIO_AP_START);
    while (!(drv_rd(MMIO_CTRL) & MMIO_AP_DONE))
        ;
    /* The stock vadd is ap_ctrl_chain: its done stays up, and holds the
     * next start, until the driver acknowledges it. */
    drv_wr(MMIO_CTRL, MMIO_AP_CONTINUE);
}

/* The driver writes where the port wrote (the buffers' device addresses,
 * read back from the unit's registers after a launch by the port), and it
 * runs last: the port's held registers are then stale, and the runtime
 * is shut down after it. */
static void driver_up(void)
{
    drv_a = drv_rd(REG_A) | (uint64_t)drv_rd(REG_A + 4) << 32;
    drv_b = drv_rd(REG_B) | (uint64_t)drv_rd(REG_B + 4) << 32;
    drv_o = drv_rd(REG_OUT) | (uint64_t)drv_rd(REG_OUT + 4) << 32;
}

/* ---- The loops callgrind counts ------------------------------------------- */

static rig R;

NOINLINE void bench_driver_loop(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        driver_run();
}

/* The driver's loop, and a check that each of its launches ran the
 * kernel's model: a driver that leaves out a step of the protocol can
 * read a stale ap_done and launch nothing, and its figure would then be
 * the register file's alone. */
static void driver_checked(unsigned n)
{
    axl_mmio_sim_stats before, after;
    axl_mmio_sim_stats_get(DRV_UNIT, &before);
    bench_driver_loop(n);
    axl_mmio_sim_stats_get(DRV_UNIT, &after);
    if (after.runs - before.runs != n) {
        fprintf(stderr,
                "bench_mmio: the driver's %u launches ran the model %u "
                "times\n",
                n, after.runs - before.runs);
        exit(1);
    }
}

NOINLINE void bench_plain_loop(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        launch(&R);
}

NOINLINE void bench_replay1_loop(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        replay(&R, 0);
}

NOINLINE void bench_replay4_loop(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        replay(&R, 1);
}

NOINLINE void bench_replay16_loop(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        replay(&R, 2);
}

/* ---- Plans: the same chains, replayed by the executor ---------------------- */

enum { PLAN_MAX = 16 };
static axl_plan plans[3];
static axl_plan_id plan_ids[3];
static axl_plan_unit plan_unit = {0, 1, 0, "vadd:vadd_1"};
static axl_plan_buffer_desc plan_bufs[3];
static axl_plan_arg plan_args[PLAN_MAX * 4];
static axl_plan_node plan_nodes[PLAN_MAX];
static uint16_t plan_preds[PLAN_MAX];
static const uint8_t plan_n[4] = {16, 0, 0, 0};

/* Chains of 1, 4 and 16 vadd nodes on vadd_1 over three buffers, each
 * node after the one before (as the recorded graphs' edges are). The
 * runtime is down: the executor owns the units. */
static void plan_up(void)
{
    CHECK(axl_emu_register_model("vadd", nothing, NULL));
    const axl_mmio_board *bd = axl_mmio_sim_board();
    for (int i = 0; i < 3; i++)
        plan_bufs[i] = (axl_plan_buffer_desc){
            64, bd->banks[0].mem_index, 64,
            i < 2 ? AXL_PLAN_READ : AXL_PLAN_WRITE};
    static const uint16_t offs[3] = {0x10, 0x1C, 0x28};
    for (uint16_t i = 0; i < PLAN_MAX; i++) {
        for (uint16_t k = 0; k < 3; k++)
            plan_args[i * 4 + k] = (axl_plan_arg){
                k, offs[k], 8, AXL_PLAN_ARG_BUFFER, k, 0, 0};
        plan_args[i * 4 + 3] =
            (axl_plan_arg){3, 0x34, 4, AXL_PLAN_ARG_SCALAR, 0, 4, 0};
        plan_preds[i] = (uint16_t)(i ? i - 1 : 0);
        plan_nodes[i] = (axl_plan_node){.unit = 0,
                                        .arg0 = (uint16_t)(i * 4),
                                        .nargs = 4,
                                        .pred0 = (uint16_t)(i ? i : 0),
                                        .npreds = (uint16_t)(i ? 1 : 0),
                                        .kernel = "vadd"};
    }
    for (int g = 0; g < 3; g++) {
        plans[g] = (axl_plan){
            .format = AXL_PLAN_FORMAT, .name = "bench",
            .nunits = 1, .nbuffers = 3, .nnodes = (uint16_t)graph_nodes[g],
            .nargs = (uint16_t)(graph_nodes[g] * 4),
            .npreds = (uint16_t)graph_nodes[g], .scalar_bytes = 4,
            .units = &plan_unit, .buffers = plan_bufs, .nodes = plan_nodes,
            .args = plan_args, .preds = plan_preds, .scalars = plan_n};
        memcpy(plans[g].uuid,
               bd->predigested ? bd->predigested->uuid
                               : (const uint8_t *)bd->design + 416,
               16);
    }
    /* AXL_PLAN_LOADED is 2: the bench loads one at a time (plan_use). */
}

static int plan_loaded = -1;

static void plan_use(int g)
{
    if (plan_loaded == g)
        return;
    if (plan_loaded >= 0)
        CHECK(axl_plan_unload(plan_ids[plan_loaded]));
    CHECK(axl_plan_load(&plans[g], &plan_ids[g]));
    plan_loaded = g;
}

static void plan_down(void)
{
    if (plan_loaded >= 0)
        CHECK(axl_plan_unload(plan_ids[plan_loaded]));
    plan_loaded = -1;
}

static void plan_replay(int g)
{
    axl_plan_run r;
    CHECK(axl_plan_submit(plan_ids[g], &r));
    CHECK(axl_plan_wait(r, 0));
}

NOINLINE void bench_plan1_loop(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        plan_replay(0);
}

NOINLINE void bench_plan4_loop(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        plan_replay(1);
}

NOINLINE void bench_plan16_loop(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        plan_replay(2);
}

/* ---- The timed model (completion modes) ------------------------------------ */

enum { TM_UNITS = 8 };
#define ACCESS_NS 100u
#define IRQ_NS 500u

static struct {
    uint64_t now;
    void (*isr)(uint32_t);
    uint64_t run_ns;
    struct {
        int present, busy, done, seen;
        uint64_t until, irq_at, done_at;
        uint32_t gie, ier, isr;
    } u[TM_UNITS];
} T;

static axl_status t_attach(void *user, const axl_xclbin *design,
                           const axl_mmio_bank_region *banks, uint32_t n,
                           void (*isr)(uint32_t))
{
    (void)user;
    (void)banks;
    (void)n;
    memset(T.u, 0, sizeof T.u);
    T.isr = isr;
    for (uint32_t i = 0; i < design->ip_count && i < TM_UNITS; i++) {
        axl_xclbin_ip ip;
        if (axl_xclbin_get_ip(design, i, &ip) == AXL_SUCCESS &&
            ip.type == AXL_XCLBIN_IP_KERNEL)
            T.u[i].present = 1;
    }
    return AXL_SUCCESS;
}

static void t_detach(void *user)
{
    (void)user;
}

static uint32_t t_rd32(void *user, uint32_t i, uint32_t off)
{
    (void)user;
    T.now += ACCESS_NS;
    if (i >= TM_UNITS || !T.u[i].present)
        return MMIO_ALL_ONES;
    switch (off) {
    case MMIO_CTRL: {
        uint32_t v = (T.u[i].busy ? MMIO_AP_START : MMIO_AP_IDLE) |
                     (T.u[i].done ? MMIO_AP_DONE : 0u);
        T.u[i].done = 0; /* ap_ctrl_hs: clear on read */
        T.u[i].seen = 1;
        return v;
    }
    case MMIO_GIE: return T.u[i].gie;
    case MMIO_IER: return T.u[i].ier;
    case MMIO_ISR: T.u[i].seen = 1; return T.u[i].isr;
    default: return 0;
    }
}

static void t_wr32(void *user, uint32_t i, uint32_t off, uint32_t v)
{
    (void)user;
    T.now += ACCESS_NS;
    if (i >= TM_UNITS || !T.u[i].present)
        return;
    switch (off) {
    case MMIO_CTRL:
        if ((v & MMIO_AP_START) && !T.u[i].busy) {
            T.u[i].busy = 1;
            T.u[i].until = T.now + T.run_ns;
        }
        break;
    case MMIO_GIE:
        T.u[i].gie = v & 1u;
        if (T.u[i].gie && T.u[i].isr && !T.u[i].irq_at)
            T.u[i].irq_at = T.now + IRQ_NS;
        break;
    case MMIO_IER: T.u[i].ier = v & 3u; break;
    case MMIO_ISR: T.u[i].isr ^= v & 3u; break;
    default: break;
    }
}

static int t_advance(void *user, uint32_t unit, uint64_t until_ns)
{
    (void)user;
    (void)unit;
    for (;;) {
        uint64_t next = UINT64_MAX;
        int what = 0;
        uint32_t who = 0;
        for (uint32_t i = 0; i < TM_UNITS; i++) {
            /* A done no read has seen returns at once, but for a unit
             * whose interrupt is on: its line will tell (mmio_model.h). */
            if (T.u[i].done && !T.u[i].seen &&
                !(T.u[i].gie && (T.u[i].ier & MMIO_IRQ_DONE)))
                return AXL_MMIO_MODEL_DONE;
            if (T.u[i].busy && T.u[i].until < next)
                next = T.u[i].until, what = 1, who = i;
            if (T.u[i].irq_at && T.u[i].irq_at < next)
                next = T.u[i].irq_at, what = 2, who = i;
        }
        if (next > until_ns) {
            if (until_ns > T.now && until_ns != UINT64_MAX)
                T.now = until_ns;
            return AXL_MMIO_MODEL_DEADLINE;
        }
        if (next > T.now)
            T.now = next;
        if (what == 1) {
            T.u[who].busy = 0;
            T.u[who].done = 1;
            T.u[who].seen = 0;
            T.u[who].done_at = T.now;
            T.u[who].isr |= T.u[who].ier & MMIO_IRQ_DONE;
            if (T.u[who].gie && T.u[who].isr)
                T.u[who].irq_at = T.now + IRQ_NS;
            continue;
        }
        T.u[who].irq_at = 0;
        if (T.u[who].gie && T.u[who].isr && T.isr) {
            T.isr(who);
            return AXL_MMIO_MODEL_IRQ;
        }
    }
}

static uint64_t t_now(void *user)
{
    (void)user;
    return T.now;
}

static const axl_mmio_model timed_model = {
    .name = "bench timed model",
    .kernel_fix = "none",
    .attach = t_attach,
    .detach = t_detach,
    .rd32 = t_rd32,
    .wr32 = t_wr32,
    .advance = t_advance,
    .now_ns = t_now,
};

static axl_mmio_board timed_board;
static axl_mmio_unit_wiring timed_wiring[2];

static void timed_up(void)
{
    timed_board = *axl_mmio_sim_board();
    timed_board.model = &timed_model;
    timed_wiring[0] = (axl_mmio_unit_wiring){0, 0, 1, 0};
    timed_wiring[1] = (axl_mmio_unit_wiring){1, 0, 1, 0};
    timed_board.units = timed_wiring;
    timed_board.unit_count = 2;
    CHECK(axl_mmio_set_board(&timed_board));
    T.run_ns = 2000;
    up(&R);
}

static void set_mode(uint32_t mode)
{
    CHECK(axl_mmio_set_completion(0, mode));
    CHECK(axl_mmio_set_completion(1, mode));
}

/* The simulated time from ap_done to the waiter's return, over n runs. */
static double latency_ns(unsigned n)
{
    uint64_t sum = 0;
    for (unsigned i = 0; i < n; i++) {
        launch(&R);
        uint64_t done = T.u[0].done_at > T.u[1].done_at ? T.u[0].done_at
                                                        : T.u[1].done_at;
        sum += T.now - done;
    }
    return (double)sum / n;
}

NOINLINE void bench_poll_loop(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        launch(&R);
}

NOINLINE void bench_irq_loop(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        launch(&R);
}

NOINLINE void bench_sleep_loop(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        launch(&R);
}

/* ---- Timing ------------------------------------------------------------------ */

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

/* ns per call of loop(n): the median of 7. */
static double timed(void (*loop)(unsigned), unsigned n)
{
    double runs[7];
    loop(n / 4 + 1); /* warm */
    for (int k = 0; k < 7; k++) {
        double t0 = now_ns();
        loop(n);
        runs[k] = (now_ns() - t0) / n;
    }
    qsort(runs, 7, sizeof runs[0], cmp);
    return runs[3];
}

typedef struct path {
    const char *name;
    void (*loop)(unsigned);
    int timed_model; /* 0: the stepped simulator; else a completion mode */
} path;

static const path paths[] = {
    {"plain", bench_plain_loop, 0},
    {"replay1", bench_replay1_loop, 0},
    {"replay4", bench_replay4_loop, 0},
    {"replay16", bench_replay16_loop, 0},
    {"driver", bench_driver_loop, 0}, /* last: it leaves the registers */
    {"plan1", bench_plan1_loop, -1},
    {"plan4", bench_plan4_loop, -1},
    {"plan16", bench_plan16_loop, -1},
    {"poll", bench_poll_loop, AXL_MMIO_COMPLETION_POLL},
    {"irq", bench_irq_loop, AXL_MMIO_COMPLETION_INTERRUPT},
    {"sleep", bench_sleep_loop, AXL_MMIO_COMPLETION_POLL_THEN_SLEEP},
};

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--callgrind")) {
        for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++) {
            if (strcmp(paths[p].name, argv[2]))
                continue;
            if (paths[p].timed_model < 0) {
                plan_up();
                const int g = paths[p].loop == bench_plan1_loop   ? 0
                              : paths[p].loop == bench_plan4_loop ? 1
                                                                  : 2;
                plan_use(g);
                paths[p].loop(LOOPS / 4); /* warm */
                paths[p].loop(LOOPS);
                plan_down();
                return 0;
            }
            if (paths[p].timed_model) {
                timed_up();
                set_mode((uint32_t)paths[p].timed_model);
            } else {
                up(&R);
                if (paths[p].loop == bench_driver_loop)
                    driver_up();
            }
            void (*loop)(unsigned) = paths[p].loop == bench_driver_loop
                                         ? driver_checked
                                         : paths[p].loop;
            loop(LOOPS / 4); /* warm */
            loop(LOOPS);
            down(&R);
            return 0;
        }
        fprintf(stderr, "bench_mmio: no path %s\n", argv[2]);
        return 2;
    }

    enum { N = 2000 };
    up(&R);
    double t_plain = timed(bench_plain_loop, N);
    double t_r[3];
    t_r[0] = timed(bench_replay1_loop, N);
    t_r[1] = timed(bench_replay4_loop, N / 4) / 4;
    t_r[2] = timed(bench_replay16_loop, N / 16) / 16;
    driver_up();
    double t_drv = timed(driver_checked, N);
    down(&R);
    printf("mmio_driver %.0f ns/launch\n", t_drv);
    printf("mmio_plain %.0f ns/launch\n", t_plain);
    printf("mmio_replay1 %.0f ns/kernel\n", t_r[0]);
    printf("mmio_replay4 %.0f ns/kernel\n", t_r[1]);
    printf("mmio_replay16 %.0f ns/kernel\n", t_r[2]);
    /* A replay of k nodes: fixed + k x per-node. */
    double per_node = (t_r[2] * 16 - t_r[1] * 4) / 12;
    printf("mmio_replay_per_node %.0f ns\n", per_node);
    printf("mmio_replay_fixed %.0f ns\n", t_r[0] - per_node);
    plan_up();
    double t_p[3];
    plan_use(0);
    t_p[0] = timed(bench_plan1_loop, N);
    plan_use(1);
    t_p[1] = timed(bench_plan4_loop, N / 4) / 4;
    plan_use(2);
    t_p[2] = timed(bench_plan16_loop, N / 16) / 16;
    plan_down();
    printf("mmio_plan1 %.0f ns/kernel\n", t_p[0]);
    printf("mmio_plan4 %.0f ns/kernel\n", t_p[1]);
    printf("mmio_plan16 %.0f ns/kernel\n", t_p[2]);
    printf("mmio_plain_over_driver %.2f ratio\n", t_plain / t_drv);
    printf("mmio_replay1_over_driver %.2f ratio\n", t_r[0] / t_drv);

    /* Completion modes on the timed model: short runs, then long ones. */
    timed_up();
    static const char *const names[] = {"", "irq", "poll", "sleep"};
    const uint64_t lens[2] = {2000, 100000};
    for (int l = 0; l < 2; l++) {
        T.run_ns = lens[l];
        for (uint32_t m = AXL_MMIO_COMPLETION_INTERRUPT;
             m <= AXL_MMIO_COMPLETION_POLL_THEN_SLEEP; m++) {
            set_mode(m);
            launch(&R);
            printf("mmio_%s_done_to_return_run_%uus %.0f simulated_ns\n",
                   names[m], (unsigned)(lens[l] / 1000), latency_ns(50));
        }
    }
    down(&R);
    printf("(simulated: %u ns a register access, %u ns from the interrupt "
           "line to the CPU, AXL_MMIO_POLL_SPIN_NS %u)\n",
           ACCESS_NS, IRQ_NS, (unsigned)20000);
    return 0;
}
