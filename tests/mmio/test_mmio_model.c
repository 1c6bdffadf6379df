/*
 * The mmio port on a model of the fabric that is not the C-model simulator
 * (axl/mmio_model.h), with a clock of its own: a tiny model whose every
 * unit is an HLS control block that takes a set number of simulated
 * nanoseconds per run and does nothing else. Its library is made by
 * axl_mmio_model_library(... BOARD clock_board), so the runtime finds this
 * file's board and model with no call from the test.
 *
 * What it checks (docs/design.md, "Simulated time"): a device whose model
 * has a clock is timed by it (kernel timeouts, profiling, SYCL 4.6.6
 * Table 36, and the trace); waits drive the model instead of sleeping, so
 * a timeout is the same number of simulated nanoseconds however slow the
 * host is (the model sleeps in wall time on every advance to show it); a
 * host wait with a timeout still ends in host time; an interrupt-wired
 * unit gets its time through advance(); the device and its messages name
 * the model (issue 27 item 6).
 */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "axl_reader_skip.h"
#include "axl_test.h"
#include "axl/mmio.h"
#include "axl/mmio_model.h"
#include "axl/xclbin.h"
#include "mmio_config.h"
#include "mmio_regs.h"

enum { NOP = 5, UNITS = 8 };

/* ---- The model ------------------------------------------------------------ */

static struct {
    uint64_t now;                /* ns since attach */
    void (*isr)(uint32_t);
    struct {
        int present, chain;
        int busy, done, seen_done; /* seen_done: read since it rose */
        uint64_t until;            /* the run's end */
        uint64_t irq_at;           /* a late interrupt's arrival (0: none) */
        uint32_t gie, ier, isr;
        uint32_t args[16];
    } u[UNITS];
    /* What the test sets. */
    uint64_t run_ns;             /* every run's length (UINT64_MAX: never) */
    long wall_ns_per_advance;    /* a slow host: sleeps in every advance */
    uint64_t irq_delay_ns;       /* the interrupt controller's latency */
    int irq_lost;                /* its master enable is off: no isr */
    /* What the test reads. */
    unsigned advances;
    unsigned attaches;
} M;

static axl_status m_attach(void *user, const axl_xclbin *design,
                           const axl_mmio_bank_region *banks, uint32_t n,
                           void (*isr)(uint32_t))
{
    (void)user;
    (void)banks;
    (void)n;
    memset(M.u, 0, sizeof M.u);
    M.now = 0;
    M.isr = isr;
    M.attaches++;
    for (uint32_t i = 0; i < design->ip_count && i < UNITS; i++) {
        axl_xclbin_ip ip;
        if (axl_xclbin_get_ip(design, i, &ip) == AXL_SUCCESS &&
            ip.type == AXL_XCLBIN_IP_KERNEL) {
            M.u[i].present = 1;
            M.u[i].chain = ip.control == AXL_XCLBIN_AP_CTRL_CHAIN;
        }
    }
    return AXL_SUCCESS;
}

static void m_detach(void *user)
{
    (void)user;
}

/* A run that reached its end: ap_done, the ISR, the line. */
static void finish(uint32_t i)
{
    M.u[i].busy = 0;
    M.u[i].done = 1;
    M.u[i].seen_done = 0;
    M.u[i].isr |= M.u[i].ier & MMIO_IRQ_DONE;
    if (!M.u[i].gie || !M.u[i].isr || !M.isr || M.irq_lost)
        return;
    if (M.irq_delay_ns)
        M.u[i].irq_at = M.now + M.irq_delay_ns; /* the controller holds it */
    else
        M.isr(i);
}

static uint32_t m_rd32(void *user, uint32_t i, uint32_t off)
{
    (void)user;
    if (i >= UNITS || !M.u[i].present)
        return MMIO_ALL_ONES;
    switch (off) {
    case MMIO_CTRL: {
        uint32_t v = (M.u[i].busy ? MMIO_AP_START : MMIO_AP_IDLE) |
                     (M.u[i].done ? MMIO_AP_DONE : 0u);
        M.u[i].seen_done = 1;
        if (!M.u[i].chain)
            M.u[i].done = 0; /* clear on read in ap_ctrl_hs */
        return v;
    }
    case MMIO_GIE: return M.u[i].gie;
    case MMIO_IER: return M.u[i].ier;
    case MMIO_ISR: M.u[i].seen_done = 1; return M.u[i].isr;
    default:
        return off >= MMIO_ARGS && off < MMIO_ARGS + 64 ?
                   M.u[i].args[(off - MMIO_ARGS) / 4] : 0u;
    }
}

static void m_wr32(void *user, uint32_t i, uint32_t off, uint32_t v)
{
    (void)user;
    if (i >= UNITS || !M.u[i].present)
        return;
    switch (off) {
    case MMIO_CTRL:
        if ((v & MMIO_AP_CONTINUE) && M.u[i].chain)
            M.u[i].done = 0;
        if ((v & MMIO_AP_START) && !M.u[i].busy) {
            M.u[i].busy = 1;
            M.u[i].until = M.run_ns == UINT64_MAX ? UINT64_MAX
                                                  : M.now + M.run_ns;
        }
        break;
    case MMIO_GIE: M.u[i].gie = v & 1u; break;
    case MMIO_IER: M.u[i].ier = v & 3u; break;
    case MMIO_ISR: M.u[i].isr ^= v & 3u; break;
    default:
        if (off >= MMIO_ARGS && off < MMIO_ARGS + 64)
            M.u[i].args[(off - MMIO_ARGS) / 4] = v;
    }
}

/* Time moves only here: to the first end of a run, or to until_ns. */
static int m_advance(void *user, uint32_t unit, uint64_t until_ns)
{
    (void)user;
    M.advances++;
    if (M.wall_ns_per_advance) {
        struct timespec ts = {0, M.wall_ns_per_advance};
        nanosleep(&ts, NULL);
    }
    uint32_t first = UINT32_MAX, late = UINT32_MAX;
    for (uint32_t i = 0; i < UNITS; i++) {
        if (unit != AXL_MMIO_MODEL_ANY_UNIT && i != unit)
            continue;
        if (M.u[i].done && !M.u[i].seen_done)
            return AXL_MMIO_MODEL_DONE; /* one already stands */
        if (M.u[i].busy && (first == UINT32_MAX ||
                            M.u[i].until < M.u[first].until))
            first = i;
        if (M.u[i].irq_at &&
            (late == UINT32_MAX || M.u[i].irq_at < M.u[late].irq_at))
            late = i;
    }
    /* A held interrupt reaches the CPU at its time, whatever the IP's
     * enables say by then (the controller latched it). */
    if (late != UINT32_MAX && M.u[late].irq_at <= until_ns &&
        (first == UINT32_MAX || M.u[late].irq_at <= M.u[first].until)) {
        if (M.u[late].irq_at > M.now)
            M.now = M.u[late].irq_at;
        M.u[late].irq_at = 0;
        M.isr(late);
        return AXL_MMIO_MODEL_IRQ;
    }
    if (first == UINT32_MAX || M.u[first].until > until_ns) {
        if (until_ns > M.now)
            M.now = until_ns;
        return AXL_MMIO_MODEL_DEADLINE;
    }
    M.now = M.u[first].until > M.now ? M.u[first].until : M.now;
    int irq = M.u[first].gie && (M.u[first].ier & MMIO_IRQ_DONE);
    finish(first);
    return irq ? AXL_MMIO_MODEL_IRQ : AXL_MMIO_MODEL_DONE;
}

static uint64_t m_now(void *user)
{
    (void)user;
    return M.now;
}

static axl_status m_reset(void *user, uint32_t i)
{
    (void)user;
    if (i >= UNITS || !M.u[i].present)
        return AXL_ERR_INVALID;
    int present = M.u[i].present, chain = M.u[i].chain;
    memset(&M.u[i], 0, sizeof M.u[i]);
    M.u[i].present = present;
    M.u[i].chain = chain;
    return AXL_SUCCESS;
}

/* It has the kernels' timing, not their function: it runs nop only. */
static bool m_can_run(void *user, const axl_xclbin *image, uint32_t k)
{
    (void)user;
    axl_xclbin_kernel kk;
    return axl_xclbin_get_kernel(image, k, &kk) == AXL_SUCCESS &&
           kk.name.len == 3 && !memcmp(kk.name.ptr, "nop", 3);
}

static const axl_mmio_model clock_model = {
    .name = "timed test model",
    .kernel_fix = "give the timed model its kernel",
    .attach = m_attach,
    .detach = m_detach,
    .rd32 = m_rd32,
    .wr32 = m_wr32,
    .advance = m_advance,
    .now_ns = m_now,
    .reset = m_reset,
    .can_run = m_can_run,
};

/* ---- Its board: the library's default (axl_mmio_model_library BOARD) ----- */

static unsigned char bank_memory[2][4096];
static const axl_mmio_bank_region banks[2] = {
    {0, 0x4000000000ull, sizeof bank_memory[0], bank_memory[0]},
    {1, 0x4010000000ull, sizeof bank_memory[1], bank_memory[1]},
};
static axl_mmio_unit_wiring wiring[1] = {{NOP, 0, 0, 0}};
static axl_mmio_board board;

const axl_mmio_board *clock_board(void);
const axl_mmio_board *clock_board(void)
{
    axl_mmio_model_board(&board, &clock_model, axl_test_stock_xclbin,
                         axl_test_stock_xclbin_size, banks, 2);
    board.units = wiring;
    board.unit_count = 1;
    return &board;
}

/* ---- Tests ------------------------------------------------------------------ */

/* The support rig (tests/support) on the model's one kernel, nop, with
 * the queue's kernel timeout when timeout_ns is not 0. */
static axl_test_rig rig_up(uint32_t flags, uint64_t timeout_ns)
{
    axl_test_rig r = axl_test_rig_as(
        (axl_test_rig_config){.flags = flags, .kernel = "nop"});
    if (timeout_ns)
        AXL_OK(axl_queue_set_timeout(r.q, timeout_ns));
    return r;
}

static int setup(void **s)
{
    M.run_ns = 100000; /* 100 us a run */
    M.wall_ns_per_advance = 0;
    M.irq_delay_ns = 0;
    M.irq_lost = 0;
    wiring[0].irq = 0;
    return axl_test_setup(s);
}

static uint64_t wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static axl_status run_nop(axl_test_rig *r)
{
    axl_event e;
    AXL_OK(axl_queue_single_task(r->q, r->kernel, NULL, 0, NULL, 0, &e));
    axl_status st = axl_event_wait(e);
    AXL_OK(axl_event_release(e));
    return st;
}

/* A 100 us run, on a host that takes 1 ms of wall time for every 10 us
 * slice of the model's time (10 ms for the run): a timeout of 110 us is
 * met and one of 90 us is not, whatever the wall time. */
static void a_kernel_timeout_counts_the_models_time_not_the_hosts(void **s)
{
    (void)s;
    M.wall_ns_per_advance = 1000000;
    axl_test_rig r = rig_up(AXL_QUEUE_IN_ORDER, 110000);
    uint64_t w0 = wall_ns(), m0 = M.now;
    AXL_OK(run_nop(&r));
    assert_true(wall_ns() - w0 > 2 * 110000); /* the host was slow */
    assert_true(M.now - m0 >= 100000 && M.now - m0 < 110000);
    axl_test_rig_down(&r);

    r = rig_up(AXL_QUEUE_IN_ORDER, 90000);
    m0 = M.now;
    AXL_EXPECT(run_nop(&r), AXL_ERR_TIMEOUT);
    AXL_MESSAGE_HAS("of timed test model did not finish within 90 us");
    /* Given up when the model's clock passed 90 us, not before. */
    assert_true(M.now - m0 >= 90000 && M.now - m0 < 100000);
    (void)axl_queue_wait_and_throw(r.q);
    /* The unit (no ap_sw_reset) is brought back by its reset line. */
    AXL_OK(axl_mmio_reset_unit(NOP));
    axl_test_rig_down(&r);
}

/* SYCL 4.6.6, Table 36: the times are the device's, here the model's. */
static void profiling_times_are_the_models_clock(void **s)
{
    (void)s;
    axl_test_rig r =
        rig_up(AXL_QUEUE_IN_ORDER | AXL_QUEUE_ENABLE_PROFILING, 0);
    axl_event e;
    uint64_t m0 = M.now;
    AXL_OK(axl_queue_single_task(r.q, r.kernel, NULL, 0, NULL, 0, &e));
    AXL_OK(axl_event_wait(e));
    uint64_t t_submit, t_start, t_end;
    AXL_OK(axl_event_get_profiling(e, AXL_PROFILING_COMMAND_SUBMIT, &t_submit));
    AXL_OK(axl_event_get_profiling(e, AXL_PROFILING_COMMAND_START, &t_start));
    AXL_OK(axl_event_get_profiling(e, AXL_PROFILING_COMMAND_END, &t_end));
    AXL_OK(axl_event_release(e));
    /* Register accesses take no time in this model: the run is exactly
     * its 100 us, and from submission to the end the device's clock moved
     * as the model's did (it goes on from one attach to the next, so its
     * origin is not the model's). */
    assert_true(t_submit <= t_start);
    assert_int_equal(t_end - t_start, 100000);
    assert_int_equal(t_end - t_submit, M.now - m0);
    axl_test_rig_down(&r);
}

/* An interrupt-wired unit is never polled: the model's advance raises
 * its line, and the port's interrupt entry ends the run. */
static void an_interrupt_wired_unit_gets_its_time_through_advance(void **s)
{
    (void)s;
    wiring[0].irq = 1;
    axl_mmio_counters before, after;
    axl_mmio_counters_get(&before);
    unsigned adv = M.advances;
    axl_test_rig r = rig_up(AXL_QUEUE_IN_ORDER, 0);
    for (int i = 0; i < 3; i++)
        AXL_OK(run_nop(&r));
    axl_test_rig_down(&r);
    axl_mmio_counters_get(&after);
    assert_int_equal(after.irq_done - before.irq_done, 3);
    assert_int_equal(after.polls - before.polls, 0);
    assert_true(M.advances - adv >= 3);
}

/* ---- Completion that is checked (issue 28 item 5) -------------------------- */

static int nlines;
static char line[AXL_MESSAGE_MAX];

static void keep(const char *text, size_t len, void *user)
{
    (void)user;
    if (strstr(text, "interrupt missing")) {
        nlines++;
        snprintf(line, sizeof line, "%.*s", (int)len, text);
    }
}

/* Three runs of nop on the wired unit; each run's length on the device's
 * clock from profiling (start to end). */
static void three_runs(uint64_t len[3])
{
    axl_test_rig r =
        rig_up(AXL_QUEUE_IN_ORDER | AXL_QUEUE_ENABLE_PROFILING, 0);
    for (int i = 0; i < 3; i++) {
        axl_event e;
        AXL_OK(axl_queue_single_task(r.q, r.kernel, NULL, 0, NULL, 0, &e));
        AXL_OK(axl_event_wait(e));
        uint64_t t0, t1;
        AXL_OK(axl_event_get_profiling(e, AXL_PROFILING_COMMAND_START, &t0));
        AXL_OK(axl_event_get_profiling(e, AXL_PROFILING_COMMAND_END, &t1));
        AXL_OK(axl_event_release(e));
        len[i] = t1 - t0;
    }
    axl_test_rig_down(&r);
}

/* An interrupt that comes late, but within AXL_MMIO_IRQ_GRACE_NS of the
 * done, is the interrupt's: the unit stays interrupt-driven, nothing is
 * said, and each run ends when its interrupt arrives. */
static void an_interrupt_late_within_the_grace_keeps_its_unit_interrupt_driven(
    void **s)
{
    (void)s;
    wiring[0].irq = 1;
    M.irq_delay_ns = 3000000; /* 3 ms */
    nlines = 0;
    axl_log_set(AXL_LOG_WARN, keep, NULL);
    axl_mmio_counters before, after;
    axl_mmio_counters_get(&before);
    uint64_t len[3];
    three_runs(len);
    axl_mmio_counters_get(&after);
    axl_log_set(AXL_LOG_OFF, NULL, NULL);
    uint32_t mode = 0;
    int fell = -1;
    AXL_OK(axl_mmio_completion_get(NOP, &mode, &fell));
    assert_int_equal(mode, AXL_MMIO_COMPLETION_INTERRUPT);
    assert_int_equal(fell, 0);
    assert_int_equal(after.irq_missing - before.irq_missing, 0);
    assert_int_equal(after.irq_done - before.irq_done, 3);
    assert_int_equal(nlines, 0);
    for (int i = 0; i < 3; i++)
        assert_true(len[i] >= 100000 + 3000000 && len[i] < 100000 + 3100000);
}

/* An interrupt later than the grace is a missing one: said once, counted,
 * the unit polled from then on. When it does arrive (the controller held
 * it) it ends nothing: the next run, polled, still lasts its 100 us. */
static void an_interrupt_later_than_the_grace_is_said_once_and_ends_no_later_run(
    void **s)
{
    (void)s;
    wiring[0].irq = 1;
    M.irq_delay_ns = AXL_MMIO_IRQ_GRACE_NS + 150000; /* and a run and a half */
    nlines = 0;
    axl_log_set(AXL_LOG_WARN, keep, NULL);
    axl_mmio_counters before, after;
    axl_mmio_counters_get(&before);
    uint64_t len[3];
    three_runs(len);
    axl_mmio_counters_get(&after);
    axl_log_set(AXL_LOG_OFF, NULL, NULL);
    uint32_t mode = 0;
    int fell = 0;
    AXL_OK(axl_mmio_completion_get(NOP, &mode, &fell));
    assert_int_equal(mode, AXL_MMIO_COMPLETION_POLL);
    assert_int_equal(fell, 1);
    assert_int_equal(after.irq_missing - before.irq_missing, 1);
    assert_int_equal(after.irq_done - before.irq_done, 0);
    assert_int_equal(nlines, 1);
    assert_non_null(strstr(line, "nop:nop_1 (IP_LAYOUT 5)"));
    assert_non_null(strstr(line, "GIE (reads 1), IER (0x1)"));
    /* The first run waited the grace for its interrupt; the others are
     * their 100 us, the late interrupt (in the second) ending nothing. */
    assert_true(len[0] >= 100000 + AXL_MMIO_IRQ_GRACE_NS);
    assert_int_equal(len[1], 100000);
    assert_int_equal(len[2], 100000);
}

/* A host wait with a timeout ends in host time even while the device's
 * clock stands still between slices (the port gives back control). */
static void a_host_wait_for_ends_in_host_time_on_a_device_with_a_clock(
    void **s)
{
    (void)s;
    M.run_ns = UINT64_MAX; /* runs until told */
    axl_test_rig r = rig_up(AXL_QUEUE_IN_ORDER, 0);
    axl_event e;
    AXL_OK(axl_queue_single_task(r.q, r.kernel, NULL, 0, NULL, 0, &e));
    uint64_t w0 = wall_ns();
    AXL_EXPECT(axl_event_wait_for(e, 20000000), AXL_ERR_TIMEOUT);
    assert_true(wall_ns() - w0 >= 20000000);
    /* Let it end: the next advance finishes it. */
    M.u[NOP].until = M.now;
    AXL_OK(axl_event_wait(e));
    AXL_OK(axl_event_release(e));
    axl_test_rig_down(&r);
}

/* Issue 27 item 6: the device says what the model is, and a kernel the
 * model cannot run is refused with the model's own advice. */
static void the_device_and_its_messages_name_the_model(void **s)
{
    (void)s;
    axl_device d = axl_test_emu_device();
    char name[64];
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_NAME, name, sizeof name,
                               NULL));
    assert_string_equal(name, "timed test model");
    AXL_OK(axl_image_register(axl_test_amd_style_xclbin,
                              axl_test_amd_style_xclbin_size));
    axl_kernel_id k;
    AXL_OK(axl_get_kernel_id("krnl_vadd", &k));
    bool ok = true;
    AXL_OK(axl_is_compatible(&k, 1, d, &ok));
    assert_false(ok);
    axl_context c;
    AXL_OK(axl_context_create(&d, 1, NULL, &c));
    axl_kernel_bundle b;
    AXL_EXPECT(axl_get_kernel_bundle_for(c, NULL, 0, &k, 1,
                                         AXL_BUNDLE_EXECUTABLE, &b),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("(timed test model: give the timed model its kernel)");
    AXL_OK(axl_context_release(c));
}

int main(void)
{
    if (axl_test_without_reader())
        return 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(
            a_kernel_timeout_counts_the_models_time_not_the_hosts, setup,
            axl_test_teardown),
        cmocka_unit_test_setup_teardown(profiling_times_are_the_models_clock,
                                        setup, axl_test_teardown),
        cmocka_unit_test_setup_teardown(
            an_interrupt_wired_unit_gets_its_time_through_advance, setup,
            axl_test_teardown),
        cmocka_unit_test_setup_teardown(
            a_host_wait_for_ends_in_host_time_on_a_device_with_a_clock, setup,
            axl_test_teardown),
        cmocka_unit_test_setup_teardown(
            the_device_and_its_messages_name_the_model, setup,
            axl_test_teardown),
        cmocka_unit_test_setup_teardown(
            an_interrupt_late_within_the_grace_keeps_its_unit_interrupt_driven,
            setup, axl_test_teardown),
        cmocka_unit_test_setup_teardown(
            an_interrupt_later_than_the_grace_is_said_once_and_ends_no_later_run,
            setup, axl_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
