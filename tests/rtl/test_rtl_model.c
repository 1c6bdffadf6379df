/*
 * The RTL model (axl/rtl.h, xrt/mmio/rtl) on axl's own Verilog kernels
 * (bitstreams/rtl), driven through the model interface (axl/mmio_model.h)
 * as the mmio port drives it: argument registers at the offsets the kernel
 * XML gives, ap_start, advance(), the control word and the ISR, then the
 * banks' memory. Each test is named after the rule it checks: the s_axilite
 * control map of the generated RTL (docs/hls-control.md), a promise of
 * mmio_model.h or rtl.h, or a rule of AXI4 the memory model enforces.
 *
 * The design (tests/rtl/rtl_test.cfg): vadd_1 and vadd_2 (the stock vadd,
 * ap_ctrl_chain, toggle-on-write ISR, held ap_start), vadd_hs_1 (ap_ctrl_hs
 * with pulse ap_start, clear-on-read ap_ready and ISR), vadd_2020_1 (the
 * stock vadd with the control block of before 2022.2), busy_1 (slow, no
 * ap_sw_reset), copy_1 (512-bit, two bundles, ap_sw_reset), rogue_1 (breaks
 * AXI4 on request).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "axl/mmio.h"
#include "axl/rtl.h"
#include "axl/xclbin.h"

#include "model_io.h"

#include "axl_rtl_test_stock.h"

enum {
    CTRL = 0x00, GIE = 0x04, IER = 0x08, ISR = 0x0C,
    AP_START = 1u << 0, AP_DONE = 1u << 1, AP_IDLE = 1u << 2,
    AP_READY = 1u << 3, AP_CONTINUE = 1u << 4, AUTO_RESTART = 1u << 7,
    AP_SW_RESET = 1u << 8, INTERRUPT = 1u << 9
};
#define FOREVER AXL_MMIO_MODEL_FOREVER
#define ANY AXL_MMIO_MODEL_ANY_UNIT

#define BANK_BYTES (1u << 20)
static _Alignas(64) uint8_t bank_mem[2][BANK_BYTES];
static axl_mmio_bank_region regions[2];
static axl_xclbin design;

static uint32_t irq_log[32];
static unsigned irq_count;

static void isr(uint32_t ip)
{
    irq_log[irq_count++ % 32] = ip;
}

/* ---- The model as the port calls it --------------------------------------- */

static int advance(uint32_t ip, uint64_t until)
{
    return m->advance(m->user, ip, until);
}

static uint64_t now(void)
{
    return m->now_ns(m->user);
}

/* Waits for the unit's interrupt as the port does: a DONE that advance()
 * reports first stays reported until the port reads 0x00 (mmio_model.h),
 * so it reads it, as its poll would. */
static void wait_irq(uint32_t ip)
{
    for (int i = 0; i < 4; i++) {
        int ev = advance(ip, FOREVER);
        if (ev == AXL_MMIO_MODEL_IRQ)
            return;
        assert_int_equal(ev, AXL_MMIO_MODEL_DONE);
        (void)rd(ip, CTRL);
    }
    fail_msg("no interrupt from unit %u", ip);
}

static axl_status status_of(uint32_t ip, char *why, size_t size)
{
    why[0] = '\0';
    return m->run_status(m->user, ip, why, size);
}

/* The IP_LAYOUT index of a unit ("vadd:vadd_1"). */
static uint32_t unit(const char *name)
{
    for (uint32_t i = 0; i < design.ip_count; i++) {
        axl_xclbin_ip ip;
        if (axl_xclbin_get_ip(&design, i, &ip) == AXL_SUCCESS &&
            ip.name.len == strlen(name) &&
            memcmp(ip.name.ptr, name, ip.name.len) == 0)
            return i;
    }
    fail_msg("no unit %s in the design", name);
    return 0;
}

static uint64_t phys(int bank, uint32_t off)
{
    return regions[bank].phys + off;
}

static uint32_t *words(int bank, uint32_t off)
{
    return (uint32_t *)(void *)(bank_mem[bank] + off);
}

static int attach(const void *bytes, size_t size)
{
    char why[128];
    if (axl_xclbin_open(&design, bytes, size, why, sizeof why) != AXL_SUCCESS)
        fail_msg("design: %s", why);
    uint32_t n = 0;
    for (uint32_t i = 0; i < design.mem_count && n < 2; i++) {
        axl_xclbin_mem mem;
        assert_int_equal(axl_xclbin_get_mem(&design, i, &mem), AXL_SUCCESS);
        regions[n] = (axl_mmio_bank_region){i, mem.base_address, BANK_BYTES,
                                            bank_mem[n]};
        n++;
    }
    assert_int_equal(n, 2);
    memset(bank_mem, 0, sizeof bank_mem);
    irq_count = 0;
    axl_rtl_set_watchdog(1ull << 30);
    return m->attach(m->user, &design, regions, 2, isr) == AXL_SUCCESS ? 0 : -1;
}

static int setup(void **state)
{
    (void)state;
    m = axl_rtl_model();
    size_t size;
    const void *bytes = axl_rtl_design(&size);
    assert_non_null(bytes);
    return attach(bytes, size);
}

static int teardown(void **state)
{
    (void)state;
    m->detach(m->user);
    return 0;
}

/* vadd's registers (the stock kernel.xml): in1 0x10, in2 0x1C, out_r 0x28
 * (64-bit pointers at a 12-byte stride), size 0x34. */
static void vadd_args(uint32_t ip, uint64_t a, uint64_t b, uint64_t o,
                      uint32_t n)
{
    wr64(ip, 0x10, a);
    wr64(ip, 0x1C, b);
    wr64(ip, 0x28, o);
    wr(ip, 0x34, n);
}

/* in1 at bank 0 offset 0, in2 at bank 0 offset ao + 64 KiB; the sum at
 * bank 1 offset so. */
static void vadd_fill(uint32_t n, uint32_t seed)
{
    uint32_t *a = words(0, 0), *b = words(0, 0x10000);
    for (uint32_t i = 0; i < n; i++) {
        a[i] = i * 2654435761u + seed;
        b[i] = 0xFFFFFF00u - i * 7u + seed; /* sums wrap */
    }
    memset(words(1, 0), 0xEE, 4 * n + 64);
}

static void vadd_check(uint32_t n, uint32_t so)
{
    const uint32_t *a = words(0, 0), *b = words(0, 0x10000),
                   *o = words(1, so);
    for (uint32_t i = 0; i < n; i++)
        if (o[i] != a[i] + b[i])
            fail_msg("out_r[%u] = 0x%x, want 0x%x", i, o[i], a[i] + b[i]);
    assert_int_equal(o[n], 0xEEEEEEEEu); /* nothing past the end */
}

static void vadd_start(uint32_t ip, uint32_t n)
{
    vadd_args(ip, phys(0, 0), phys(0, 0x10000), phys(1, 0), n);
    wr(ip, CTRL, AP_START);
}

/* ---- The control protocol ------------------------------------------------------ */

/* Polled: advance() returns when the unit raises ap_done; the control word
 * then reads done and idle; the sum is the host's. 1000 elements cross
 * vadd's 256-element chunks and a 4 KiB boundary. */
static void polled_vadd_sums_as_the_host_does(void **s)
{
    (void)s;
    uint32_t ip = unit("vadd:vadd_1");
    vadd_fill(1000, 1);
    assert_true(rd(ip, CTRL) & AP_IDLE);
    vadd_start(ip, 1000);
    assert_int_equal(advance(ip, FOREVER), AXL_MMIO_MODEL_DONE);
    uint32_t c = rd(ip, CTRL);
    assert_true(c & AP_DONE);
    assert_true(c & AP_IDLE);
    vadd_check(1000, 0);
    char why[256];
    assert_int_equal(status_of(ip, why, sizeof why), AXL_SUCCESS);
    axl_rtl_unit_stats st;
    assert_int_equal(axl_rtl_unit_stats_get(ip, &st), AXL_SUCCESS);
    assert_int_equal(st.read_beats, 2000);
    assert_int_equal(st.write_beats, 1000);
    /* Bursts of at most 16 beats, none across 4 KiB: 1000 elements in
     * chunks of 256 are 16 + 16 + 16 + 15 bursts each way, two reads. */
    assert_int_equal(st.write_bursts, 63);
    assert_int_equal(st.read_bursts, 126);
    assert_int_equal(st.protocol_errors, 0);
}

/* ap_ctrl_chain: ap_done is a level, held until ap_continue; reading it
 * clears nothing. */
static void chain_ap_done_is_a_level_until_ap_continue(void **s)
{
    (void)s;
    uint32_t ip = unit("vadd:vadd_1");
    vadd_fill(16, 2);
    vadd_start(ip, 16);
    assert_int_equal(advance(ip, FOREVER), AXL_MMIO_MODEL_DONE);
    assert_true(rd(ip, CTRL) & AP_DONE);
    assert_true(rd(ip, CTRL) & AP_DONE);
    wr(ip, CTRL, AP_CONTINUE);
    assert_false(rd(ip, CTRL) & AP_DONE);
    vadd_check(16, 0);
}

/* ap_ctrl_hs: ap_done is sticky and clear on read. The testbench's own
 * reads while the unit ran consumed it first; the port's first read must
 * still see it, and only that one. */
static void hs_ap_done_is_clear_on_read_and_a_peek_does_not_lose_it(void **s)
{
    (void)s;
    uint32_t ip = unit("vadd_hs:vadd_hs_1");
    vadd_fill(300, 3);
    vadd_start(ip, 300);
    assert_int_equal(advance(ip, FOREVER), AXL_MMIO_MODEL_DONE);
    uint32_t c = rd(ip, CTRL);
    assert_true(c & AP_DONE);
    assert_false(rd(ip, CTRL) & AP_DONE);
    vadd_check(300, 0);
}

/* ap_start: held (reads 1) until the core raises ap_ready in the stock
 * core; a one-cycle pulse that always reads 0 in the 2022.1 core. */
static void ap_start_reads_1_until_ap_ready_or_always_0_when_pulsed(void **s)
{
    (void)s;
    uint32_t held = unit("vadd:vadd_1"), pulse = unit("vadd_hs:vadd_hs_1");
    vadd_fill(2000, 4);
    vadd_start(held, 2000);
    uint32_t c = rd(held, CTRL);
    assert_true(c & AP_START);
    assert_false(rd(held, CTRL) & AP_IDLE); /* a register stage later */
    assert_int_equal(advance(held, FOREVER), AXL_MMIO_MODEL_DONE);
    c = rd(held, CTRL);
    assert_false(c & AP_START);
    assert_true(c & AP_READY); /* held until the next start here */
    wr(held, CTRL, AP_CONTINUE);

    vadd_start(pulse, 2000);
    c = rd(pulse, CTRL);
    assert_false(c & AP_START);
    c = rd(pulse, CTRL);
    assert_false(c & AP_START);
    assert_false(c & AP_IDLE); /* it did start */
    assert_int_equal(advance(pulse, FOREVER), AXL_MMIO_MODEL_DONE);
    c = rd(pulse, CTRL);
    assert_true(c & AP_READY);
    assert_false(rd(pulse, CTRL) & AP_READY); /* clear on read */
    vadd_check(2000, 0);
}

/* Waits for what an auto-restart run's end raises (the 2022.2-on block
 * shows it in the ISR only): IRQ with the done status set, which the
 * port's handling clears (read, and write back for a toggle-on-write
 * ISR). No DONE may come meanwhile. */
static void restart_run_ends(uint32_t ip, int isr_cor)
{
    int ev = advance(ip, now() + 1000000); /* 1 ms: far past a run */
    if (ev != AXL_MMIO_MODEL_IRQ)
        fail_msg("advance() said %d, not IRQ, for a run's end", ev);
    uint32_t c = rd(ip, CTRL);
    assert_false(c & AP_DONE);  /* not shown under auto_restart */
    assert_false(c & AP_READY); /* nor latched */
    assert_true(c & AUTO_RESTART);
    assert_int_equal(rd(ip, ISR) & 1u, 1u);
    if (!isr_cor)
        wr(ip, ISR, 1);
}

/* vadd over 64 elements on auto-restart with the done interrupt on, its
 * first three runs seen to end (restart_run_ends). */
static void restart_three_runs(uint32_t ip, uint32_t seed, int isr_cor)
{
    vadd_fill(64, seed);
    vadd_args(ip, phys(0, 0), phys(0, 0x10000), phys(1, 0), 64);
    wr(ip, IER, 1);
    wr(ip, GIE, 1);
    wr(ip, CTRL, AP_START | AUTO_RESTART);
    for (int run = 0; run < 3; run++)
        restart_run_ends(ip, isr_cor);
}

/* Clears auto_restart and waits for the run under way to end: the
 * control word's ap_done, raised once as the core goes idle. Its ISR bit
 * is cleared on the way. Returns the control word that showed the done. */
static uint32_t restart_last_done(uint32_t ip, int isr_cor)
{
    wr(ip, CTRL, 0);
    for (int i = 0; i < 8; i++) {
        int ev = advance(ip, now() + 200000);
        if (ev == AXL_MMIO_MODEL_IRQ && (rd(ip, ISR) & 1u) && !isr_cor)
            wr(ip, ISR, 1);
        uint32_t c = rd(ip, CTRL);
        if (c & AP_DONE)
            return c;
    }
    fail_msg("no ap_done after auto_restart was cleared");
    return 0;
}

/* From Vitis HLS 2022.2, ap_ctrl_chain under auto_restart (bit 7): the
 * block continues the core itself, so runs follow each other with no
 * ap_continue written, and the control word shows no run's ap_done (nor
 * ap_ready); the ISR's done bit sets at each. Cleared, the run under way
 * ends and ap_done rises once, a level until ap_continue. */
static void chain_auto_restart_runs_on_by_itself_with_each_end_in_the_isr(
    void **s)
{
    (void)s;
    uint32_t ip = unit("vadd:vadd_1");
    restart_three_runs(ip, 5, 0);
    uint32_t c = restart_last_done(ip, 0);
    assert_true(c & AP_IDLE);
    assert_false(c & (AUTO_RESTART | AP_START));
    assert_true(rd(ip, CTRL) & AP_DONE); /* held */
    wr(ip, CTRL, AP_CONTINUE);
    assert_false(rd(ip, CTRL) & AP_DONE);
    /* None follows. */
    assert_int_equal(advance(ip, now() + 100000), AXL_MMIO_MODEL_DEADLINE);
    assert_true(rd(ip, CTRL) & AP_IDLE);
    assert_int_equal(rd(ip, ISR), 0);
    vadd_check(64, 0);
}

/* The same in ap_ctrl_hs (the 2022.1-style core, pulse ap_start, clear-on-
 * read ISR): ap_start pulses again at each run's end while bit 7 is set;
 * the one ap_done after it is cleared is clear on read. */
static void hs_auto_restart_shows_one_done_once_a_write_clears_it(void **s)
{
    (void)s;
    uint32_t ip = unit("vadd_hs:vadd_hs_1");
    restart_three_runs(ip, 6, 1);
    uint32_t c = restart_last_done(ip, 1);
    assert_true(c & AP_IDLE);
    assert_false(c & AUTO_RESTART);
    assert_false(rd(ip, CTRL) & AP_DONE); /* clear on read */
    assert_int_equal(advance(ip, now() + 100000), AXL_MMIO_MODEL_DEADLINE);
    vadd_check(64, 0);
}

/* The block before 2022.2 (vadd_2020: RESTART_DONES): every auto-restart
 * run raises ap_done on the control word, bit 7 still set, and in
 * ap_ctrl_chain the run after it waits for ap_continue, which software
 * writes with bit 7 kept (0x90). */
static void before_2022_2_every_auto_restart_run_shows_ap_done(void **s)
{
    (void)s;
    uint32_t ip = unit("vadd_2020:vadd_2020_1");
    vadd_fill(64, 7);
    vadd_args(ip, phys(0, 0), phys(0, 0x10000), phys(1, 0), 64);
    wr(ip, CTRL, AP_START | AUTO_RESTART);
    for (int run = 0; run < 3; run++) {
        assert_int_equal(advance(ip, FOREVER), AXL_MMIO_MODEL_DONE);
        uint32_t c = rd(ip, CTRL);
        assert_true(c & AP_DONE);
        assert_true(c & AUTO_RESTART);
        wr(ip, CTRL, AP_CONTINUE | AUTO_RESTART);
    }
    wr(ip, CTRL, 0);
    assert_int_equal(advance(ip, now() + 200000), AXL_MMIO_MODEL_DONE);
    uint32_t c = rd(ip, CTRL);
    assert_true(c & AP_DONE);
    wr(ip, CTRL, AP_CONTINUE);
    assert_int_equal(advance(ip, now() + 100000), AXL_MMIO_MODEL_DEADLINE);
    c = rd(ip, CTRL);
    assert_true(c & AP_IDLE);
    assert_false(c & AP_DONE);
    vadd_check(64, 0);
}

/* The interrupt pin: its rising edge calls the isr given at attach, from
 * inside the call that ran that cycle, and advance() returns IRQ until the
 * port reads the ISR; the port's handling (ap_continue, read the ISR,
 * write it back) lowers it. */
static void the_interrupt_calls_the_isr_on_its_rising_edge(void **s)
{
    (void)s;
    uint32_t ip = unit("vadd:vadd_2");
    vadd_fill(100, 6);
    wr(ip, IER, 1);
    wr(ip, GIE, 1);
    assert_int_equal(m->irq_line(m->user, ip), 0);
    vadd_start(ip, 100);
    wait_irq(ip);
    assert_int_equal(irq_count, 1);
    assert_int_equal(advance(ip, FOREVER), AXL_MMIO_MODEL_IRQ); /* still */
    assert_int_equal(irq_log[0], ip);
    assert_int_equal(m->irq_line(m->user, ip), 1);
    assert_true(rd(ip, CTRL) & INTERRUPT);
    wr(ip, CTRL, AP_CONTINUE);
    uint32_t v = rd(ip, ISR);
    assert_int_equal(v, 1);
    wr(ip, ISR, v);
    assert_int_equal(m->irq_line(m->user, ip), 0);
    assert_int_equal(rd(ip, ISR), 0);
    vadd_check(100, 0);
}

/* A toggle-on-write ISR: writing 1 to a clear bit sets it, which raises a
 * spurious interrupt: the isr runs inside that write, and advance() says
 * IRQ until the port reads the ISR. */
static void a_toggle_on_write_isr_set_by_a_write_raises_the_line(void **s)
{
    (void)s;
    uint32_t ip = unit("vadd:vadd_1");
    wr(ip, IER, 1);
    wr(ip, GIE, 1);
    assert_int_equal(irq_count, 0);
    wr(ip, ISR, 1);
    assert_int_equal(irq_count, 1);
    assert_int_equal(irq_log[0], ip);
    assert_int_equal(m->irq_line(m->user, ip), 1);
    assert_int_equal(advance(ANY, now()), AXL_MMIO_MODEL_IRQ);
    assert_int_equal(rd(ip, ISR), 1);
    assert_int_equal(advance(ANY, now()), AXL_MMIO_MODEL_DEADLINE);
    wr(ip, ISR, 1);
    assert_int_equal(rd(ip, ISR), 0);
    assert_int_equal(m->irq_line(m->user, ip), 0);
}

/* In ap_ctrl_chain the ISR's done bit sets again while ap_done is high:
 * it clears only after ap_continue. */
static void chain_isr_cannot_be_cleared_while_ap_done_is_high(void **s)
{
    (void)s;
    uint32_t ip = unit("vadd:vadd_1");
    vadd_fill(8, 7);
    wr(ip, IER, 1);
    vadd_start(ip, 8);
    assert_int_equal(advance(ip, FOREVER), AXL_MMIO_MODEL_DONE);
    assert_int_equal(rd(ip, ISR), 1);
    wr(ip, ISR, 1);
    assert_int_equal(rd(ip, ISR), 1);
    wr(ip, CTRL, AP_CONTINUE);
    wr(ip, ISR, 1);
    assert_int_equal(rd(ip, ISR), 0);
}

/* A clear-on-read ISR (s_axilite_interrupt_mode=cor): a read clears it and
 * writes are ignored. */
static void a_clear_on_read_isr_clears_when_read_and_ignores_writes(void **s)
{
    (void)s;
    uint32_t ip = unit("vadd_hs:vadd_hs_1");
    vadd_fill(32, 8);
    wr(ip, IER, 3);
    wr(ip, GIE, 1);
    vadd_start(ip, 32);
    wait_irq(ip);
    assert_int_equal(rd(ip, ISR), 3); /* done and ready */
    assert_int_equal(rd(ip, ISR), 0);
    assert_int_equal(m->irq_line(m->user, ip), 0);
    wr(ip, ISR, 3);
    assert_int_equal(rd(ip, ISR), 0);
    assert_int_equal(m->irq_line(m->user, ip), 0);
}

/* An interrupt-driven driver that reads only the ISR (axl/rtl.h: any
 * driver of the generated RTL's protocol): start, wait for the model to
 * say something, read the ISR, write it back; 0x00 is never read, so an
 * ap_ctrl_hs unit's ap_done stays set from one run into the next, as the
 * generated RTL holds it. Every return of advance() must be the run's end
 * (its ISR says done), never a done left from the run before; each run's
 * result is its own. ap_ctrl_chain gives ap_continue (a write) first. */
static void isr_only_runs(uint32_t ip, int chain)
{
    wr(ip, IER, 1);
    wr(ip, GIE, 1);
    for (uint32_t r = 0; r < 6; r++) {
        uint32_t n = 40 + r * 61, so = r * 1024;
        vadd_fill(n, r);
        memset(words(1, so), 0xEE, 4 * n + 64);
        vadd_args(ip, phys(0, 0), phys(0, 0x10000), phys(1, so), n);
        wr(ip, CTRL, AP_START);
        int ev = advance(ip, now() + 10000000); /* 10 ms: far past a run */
        if (ev == AXL_MMIO_MODEL_DEADLINE)
            fail_msg("run %u: no interrupt within 10 ms of simulated time",
                     r);
        if (chain)
            wr(ip, CTRL, AP_CONTINUE);
        uint32_t v = rd(ip, ISR);
        if (!(v & 1u))
            fail_msg("run %u: advance() returned %s while the ISR reads "
                     "0x%x (the run has not ended)",
                     r, ev == AXL_MMIO_MODEL_DONE ? "DONE" : "IRQ", v);
        wr(ip, ISR, v);
        vadd_check(n, so);
    }
    assert_int_equal(m->irq_line(m->user, ip), 0);
}

static void an_isr_only_driver_sees_each_run_end_once(void **s)
{
    (void)s;
    isr_only_runs(unit("vadd_hs:vadd_hs_1"), 0);
    isr_only_runs(unit("vadd:vadd_2"), 1);
}

/* Back to back: every run of a unit, one after the other, gives its own
 * result (lengths and output offsets change each time). */
static void back_to_back_runs_each_give_their_result(void **s)
{
    (void)s;
    uint32_t ip = unit("vadd_hs:vadd_hs_1");
    for (uint32_t r = 0; r < 12; r++) {
        uint32_t n = 1 + r * 97, so = r * 256;
        vadd_fill(n, r);
        memset(words(1, so), 0xEE, 4 * n + 64);
        vadd_args(ip, phys(0, 0), phys(0, 0x10000), phys(1, so), n);
        wr(ip, CTRL, AP_START);
        assert_int_equal(advance(ip, FOREVER), AXL_MMIO_MODEL_DONE);
        assert_true(rd(ip, CTRL) & AP_DONE);
        vadd_check(n, so);
    }
}

/* Two units advance together: both runs take about as long as one. */
static void two_units_run_at_the_same_time(void **s)
{
    (void)s;
    uint32_t u1 = unit("vadd:vadd_1"), u2 = unit("vadd:vadd_2");
    enum { N = 4096 };
    uint32_t *a = words(0, 0), *b = words(0, 0x10000);
    for (uint32_t i = 0; i < N; i++) {
        a[i] = i;
        b[i] = 3 * i;
    }
    uint64_t t0 = axl_rtl_cycles();
    vadd_args(u1, phys(0, 0), phys(0, 0x10000), phys(1, 0), N);
    wr(u1, CTRL, AP_START);
    assert_int_equal(advance(u1, FOREVER), AXL_MMIO_MODEL_DONE);
    uint64_t one = axl_rtl_cycles() - t0;
    wr(u1, CTRL, AP_CONTINUE);

    t0 = axl_rtl_cycles();
    vadd_args(u1, phys(0, 0), phys(0, 0x10000), phys(1, 0), N);
    vadd_args(u2, phys(0, 0), phys(0, 0x10000), phys(1, 0x40000), N);
    wr(u1, CTRL, AP_START);
    wr(u2, CTRL, AP_START);
    /* As the port waits for both: time, then a look at each (a level in
     * ap_ctrl_chain, so a look finds it however late). */
    uint32_t d1 = 0, d2 = 0;
    while (!d1 || !d2) {
        assert_int_equal(advance(ANY, FOREVER), AXL_MMIO_MODEL_DONE);
        d1 |= rd(u1, CTRL) & AP_DONE;
        d2 |= rd(u2, CTRL) & AP_DONE;
    }
    uint64_t both = axl_rtl_cycles() - t0;
    print_message("one run %llu cycles, two units at once %llu\n",
                  (unsigned long long)one, (unsigned long long)both);
    assert_true(both < one + one / 4);
    for (uint32_t i = 0; i < N; i++) {
        assert_int_equal(words(1, 0)[i], 4 * i);
        assert_int_equal(words(1, 0x40000)[i], 4 * i);
    }
}

/* 512-bit data on two bundles: the last beat's write strobes cut the copy
 * to its length, so the bytes after it stay. */
static void copy_moves_512_bit_beats_on_two_bundles_with_strobes(void **s)
{
    (void)s;
    uint32_t ip = unit("copy:copy_1");
    for (uint32_t i = 0; i < 8192; i++)
        bank_mem[0][0x2000 + i] = (uint8_t)(i * 13 + 1);
    memset(bank_mem[1], 0xEE, 8192);
    wr64(ip, 0x10, phys(0, 0x2000));
    wr64(ip, 0x1C, phys(1, 0x40));
    wr(ip, 0x28, 5000);
    wr(ip, CTRL, AP_START);
    assert_int_equal(advance(ip, FOREVER), AXL_MMIO_MODEL_DONE);
    assert_true(rd(ip, CTRL) & AP_DONE);
    assert_memory_equal(bank_mem[1] + 0x40, bank_mem[0] + 0x2000, 5000);
    for (uint32_t i = 0x40 + 5000; i < 8192; i++)
        assert_int_equal(bank_mem[1][i], 0xEE);
    for (uint32_t i = 0; i < 0x40; i++)
        assert_int_equal(bank_mem[1][i], 0xEE);
    axl_rtl_unit_stats st;
    assert_int_equal(axl_rtl_unit_stats_get(ip, &st), AXL_SUCCESS);
    assert_int_equal(st.read_beats, 79); /* ceil(5000 / 64) */
    assert_int_equal(st.write_beats, 79);
    char why[256];
    assert_int_equal(status_of(ip, why, sizeof why), AXL_SUCCESS);
}

/* ap_sw_reset (bit 8) in a core built with it: the run stops, bit 8 reads
 * 1 until the core is back, then the unit reads idle with no done. */
static void ap_sw_reset_stops_a_run_and_the_unit_reads_idle(void **s)
{
    (void)s;
    uint32_t ip = unit("copy:copy_1");
    wr64(ip, 0x10, phys(0, 0));
    wr64(ip, 0x1C, phys(1, 0));
    wr(ip, 0x28, BANK_BYTES);
    wr(ip, CTRL, AP_START);
    assert_int_equal(advance(ip, now() + 1000), AXL_MMIO_MODEL_DEADLINE);
    assert_false(rd(ip, CTRL) & AP_IDLE);
    wr(ip, CTRL, AP_SW_RESET);
    uint32_t c = rd(ip, CTRL);
    assert_true(c & AP_SW_RESET);
    for (int i = 0; i < 100 && (c & AP_SW_RESET); i++)
        c = rd(ip, CTRL);
    assert_false(c & AP_SW_RESET);
    assert_true(c & AP_IDLE);
    assert_false(c & AP_DONE);
    /* It runs again afterwards. */
    wr(ip, 0x28, 640);
    wr(ip, CTRL, AP_START);
    assert_int_equal(advance(ip, FOREVER), AXL_MMIO_MODEL_DONE);
    assert_memory_equal(bank_mem[1], bank_mem[0], 640);
}

/* ---- Time ------------------------------------------------------------------------ */

static void busy_start(uint32_t ip, uint32_t words_, uint32_t rounds,
                       uint32_t delay)
{
    wr64(ip, 0x10, phys(0, 0x8000));
    wr(ip, 0x1C, words_);
    wr(ip, 0x24, rounds);
    wr(ip, 0x2C, delay);
    wr(ip, CTRL, AP_START);
}

/* The clock is the design's kernel clock (rtl_test.cfg: 300 MHz), and a
 * deadline is simulated time: advance() returns at the first cycle at or
 * after it, however long the host took. */
static void a_deadline_is_simulated_time_on_the_design_clock(void **s)
{
    (void)s;
    assert_int_equal(axl_rtl_clock_mhz(), 300);
    uint32_t ip = unit("busy:busy_1");
    busy_start(ip, 4, 0, 10);
    uint64_t t0 = now(), c0 = axl_rtl_cycles();
    assert_int_equal(advance(ip, t0 + 100000), AXL_MMIO_MODEL_DEADLINE);
    uint64_t t1 = now();
    assert_true(t1 >= t0 + 100000 && t1 <= t0 + 100000 + 4);
    assert_true(axl_rtl_cycles() - c0 >= 29999 &&
                axl_rtl_cycles() - c0 <= 30001);
    assert_int_equal(now(), axl_rtl_cycles() * 1000 / 300);
}

/* A kernel that never finishes goes on writing after the deadline the
 * port gave up at (what item 7 of issue 27 guards against), until its
 * ap_rst_n is driven low: then it stops, and reads idle. */
static void writes_go_on_after_the_deadline_until_ap_rst_n(void **s)
{
    (void)s;
    uint32_t ip = unit("busy:busy_1");
    busy_start(ip, 4, 0, 10);
    assert_int_equal(advance(ip, now() + 20000), AXL_MMIO_MODEL_DEADLINE);
    uint32_t r1 = words(0, 0x8000)[0];
    assert_true(r1 > 0);
    assert_int_equal(advance(ip, now() + 20000), AXL_MMIO_MODEL_DEADLINE);
    uint32_t r2 = words(0, 0x8000)[0];
    assert_true(r2 > r1);
    /* This core has no ap_sw_reset: bit 8 changes nothing. */
    wr(ip, CTRL, AP_SW_RESET);
    assert_int_equal(advance(ip, now() + 20000), AXL_MMIO_MODEL_DEADLINE);
    assert_true(words(0, 0x8000)[0] > r2);
    assert_false(rd(ip, CTRL) & AP_IDLE);
    assert_non_null(m->reset);
    assert_int_equal(m->reset(m->user, ip), AXL_SUCCESS);
    uint32_t r3 = words(0, 0x8000)[0];
    assert_int_equal(advance(ANY, now() + 20000), AXL_MMIO_MODEL_DEADLINE);
    assert_int_equal(words(0, 0x8000)[0], r3);
    uint32_t c = rd(ip, CTRL);
    assert_true(c & AP_IDLE);
    assert_false(c & AP_START);
}

/* With no unit running, nothing can happen: advance() returns at once,
 * at its deadline (a gated clock), or with none. */
static void an_idle_fabric_skips_to_the_deadline(void **s)
{
    (void)s;
    uint64_t t0 = now(), c0 = axl_rtl_cycles();
    assert_int_equal(advance(ANY, t0 + 1000000000ull),
                     AXL_MMIO_MODEL_DEADLINE);
    assert_true(now() >= t0 + 1000000000ull);
    assert_true(axl_rtl_cycles() - c0 >= 300000000ull);
    assert_int_equal(advance(ANY, FOREVER), AXL_MMIO_MODEL_DEADLINE);
}

/* A run that never ends and a wait with no deadline: the watchdog fails
 * the model instead of hanging the test, and says why. */
static void the_watchdog_stops_a_wait_for_a_run_that_never_ends(void **s)
{
    (void)s;
    uint32_t ip = unit("busy:busy_1");
    axl_rtl_set_watchdog(20000);
    busy_start(ip, 4, 0, 10);
    assert_int_equal(advance(ip, FOREVER), AXL_MMIO_MODEL_ERROR);
    char why[256];
    assert_int_equal(status_of(ip, why, sizeof why), AXL_ERR_RUNTIME);
    assert_non_null(strstr(why, "watchdog"));
}

/* ---- What is built in ------------------------------------------------------------- */

static void attach_stock(void)
{
    m->detach(m->user);
    assert_int_equal(attach(axl_rtl_test_stock, axl_rtl_test_stock_size), 0);
}

/* can_run answers from the kernels linked in; a unit of a kernel without
 * RTL (mmult: floating point) has nothing at its address (reads all ones)
 * while the others run. */
static void can_run_names_the_kernels_built_in(void **s)
{
    (void)s;
    attach_stock();
    int seen = 0;
    for (uint32_t k = 0; k < design.kernel_count; k++) {
        axl_xclbin_kernel kk;
        assert_int_equal(axl_xclbin_get_kernel(&design, k, &kk), AXL_SUCCESS);
        int is_mmult = kk.name.len == 5 && memcmp(kk.name.ptr, "mmult", 5) == 0;
        assert_int_equal(m->can_run(m->user, &design, k), !is_mmult);
        seen += is_mmult;
    }
    assert_int_equal(seen, 1);
    assert_int_equal(rd(unit("mmult:mmult_1"), CTRL), 0xFFFFFFFFu);
    uint32_t ip = unit("vadd:vadd_1");
    assert_true(rd(ip, CTRL) & AP_IDLE);
    assert_string_equal(m->name, "RTL simulation (Verilator)");
}

/* ---- The other stock kernels, against the C models' formulas ------------------ */

/* The stock nop (ap_ctrl_hs, no arguments) starts and finishes. */
static void stock_nop_starts_and_finishes(void **s)
{
    (void)s;
    attach_stock();
    uint32_t ip = unit("nop:nop_1");
    wr(ip, CTRL, AP_START);
    assert_int_equal(advance(ip, FOREVER), AXL_MMIO_MODEL_DONE);
    uint32_t c = rd(ip, CTRL);
    assert_true(c & AP_DONE);
    assert_true(c & AP_IDLE);
}

static int16_t sat16(int64_t v)
{
    return (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
}

/* fir as xrt/emu/models.c computes it (Q15, zero history, round half up,
 * saturate), with its samples at odd 16-bit positions: the RTL moves them
 * as 16-bit narrow transfers. */
static void stock_fir_filters_as_the_c_model_does(void **s)
{
    (void)s;
    attach_stock();
    uint32_t ip = unit("fir:fir_1");
    enum { LEN = 300, TAPS = 21 };
    int16_t *in = (int16_t *)(void *)(bank_mem[0] + 0x102);
    int16_t *coeff = (int16_t *)(void *)(bank_mem[0] + 0x1002);
    int16_t *out = (int16_t *)(void *)(bank_mem[1] + 0x22);
    uint32_t x = 12345;
    for (int i = 0; i < LEN; i++) {
        x = x * 1103515245u + 12345u;
        in[i] = (int16_t)(x >> 16);
    }
    for (int k = 0; k < TAPS; k++)
        coeff[k] = (int16_t)(k == 3 ? 32767 : k == 4 ? -32768 : 900 * k - 7000);
    memset(bank_mem[1], 0xEE, 0x400);
    wr64(ip, 0x10, phys(0, 0x102));
    wr64(ip, 0x1C, phys(0, 0x1002));
    wr64(ip, 0x28, phys(1, 0x22));
    wr(ip, 0x34, TAPS);
    wr(ip, 0x3C, LEN);
    wr(ip, CTRL, AP_START);
    assert_int_equal(advance(ip, FOREVER), AXL_MMIO_MODEL_DONE);
    assert_true(rd(ip, CTRL) & AP_DONE);
    wr(ip, CTRL, AP_CONTINUE);
    int saturated = 0;
    for (int i = 0; i < LEN; i++) {
        int64_t acc = 0;
        for (int k = 0; k < TAPS && k <= i; k++)
            acc += (int32_t)coeff[k] * in[i - k];
        int64_t r = acc + (1 << 14);
        int16_t want = sat16(r >= 0 ? r / 32768 : -((-r + 32767) / 32768));
        saturated += want == 32767 || want == -32768;
        if (out[i] != want)
            fail_msg("out[%d] = %d, want %d", i, out[i], want);
    }
    assert_true(saturated > 0);
    assert_int_equal((uint16_t)out[LEN], 0xEEEE);
    assert_int_equal(bank_mem[1][0x21], 0xEE);
    char why[256];
    assert_int_equal(status_of(ip, why, sizeof why), AXL_SUCCESS);
}

/* conv2d as xrt/emu/models.c computes it (3x3, zero padding, negative
 * sums 0, clamp to 255), on an image at an odd address. */
static void stock_conv2d_convolves_as_the_c_model_does(void **s)
{
    (void)s;
    attach_stock();
    uint32_t ip = unit("conv2d:conv2d_1");
    enum { W = 37, H = 23, SHIFT = 3 };
    uint8_t *in = bank_mem[0] + 0x201;
    int8_t *k = (int8_t *)(bank_mem[0] + 0x4001);
    uint8_t *out = bank_mem[1] + 0x103;
    for (int i = 0; i < W * H; i++)
        in[i] = (uint8_t)(i * 37 + (i >> 3));
    static const int8_t coeff[9] = {-1, 2, -1, 3, 8, 3, -1, 2, -12};
    memcpy(k, coeff, 9);
    memset(bank_mem[1], 0xEE, 0x1000);
    wr64(ip, 0x10, phys(0, 0x201));
    wr64(ip, 0x1C, phys(0, 0x4001));
    wr64(ip, 0x28, phys(1, 0x103));
    wr(ip, 0x34, W);
    wr(ip, 0x3C, H);
    wr(ip, 0x44, SHIFT);
    wr(ip, CTRL, AP_START);
    assert_int_equal(advance(ip, FOREVER), AXL_MMIO_MODEL_DONE);
    assert_true(rd(ip, CTRL) & AP_DONE);
    wr(ip, CTRL, AP_CONTINUE);
    int zeros = 0, clamped = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int32_t acc = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int yy = y + dy, xx = x + dx;
                    if (yy < 0 || xx < 0 || yy >= H || xx >= W)
                        continue;
                    acc += coeff[(dy + 1) * 3 + dx + 1] * in[yy * W + xx];
                }
            int32_t v = acc < 0 ? 0 : acc >> SHIFT;
            uint8_t want = (uint8_t)(v > 255 ? 255 : v);
            zeros += want == 0;
            clamped += want == 255;
            if (out[y * W + x] != want)
                fail_msg("out[%d,%d] = %u, want %u", x, y, out[y * W + x],
                         want);
        }
    assert_true(zeros > 0 && clamped > 0);
    assert_int_equal(out[W * H], 0xEE);
    assert_int_equal(out[-1], 0xEE);
}

/* ---- The memory's protocol checks ---------------------------------------------------- */

static void rogue(uint32_t mode, uint64_t addr, uint32_t beats)
{
    uint32_t ip = unit("rogue:rogue_1");
    wr64(ip, 0x10, addr);
    wr(ip, 0x1C, mode);
    wr(ip, 0x24, beats);
    wr(ip, CTRL, AP_START);
    assert_int_equal(advance(ip, FOREVER), AXL_MMIO_MODEL_DONE);
    assert_true(rd(ip, CTRL) & AP_DONE);
}

static void expect_run_error(const char *text)
{
    char why[256];
    assert_int_equal(status_of(unit("rogue:rogue_1"), why, sizeof why),
                     AXL_ERR_RUNTIME);
    print_message("run status: %s\n", why);
    if (!strstr(why, text))
        fail_msg("'%s' does not say '%s'", why, text);
    assert_non_null(strstr(why, "m_axi_gmem"));
}

/* A well-formed master passes every check (the control case), and a
 * failed run's errors do not follow the unit into its next run. */
static void a_well_formed_master_passes_the_checks(void **s)
{
    (void)s;
    rogue(2, phys(0, 0x3000), 32);
    expect_run_error("WLAST");
    rogue(0, phys(0, 0x3000), 100);
    char why[256];
    assert_int_equal(status_of(unit("rogue:rogue_1"), why, sizeof why),
                     AXL_SUCCESS);
    for (uint32_t i = 0; i < 100; i++)
        assert_int_equal(words(0, 0x3000)[i], i);
}

/* AXI4: a burst must not cross a 4 KiB boundary (A3.4.1). */
static void a_write_burst_across_4_kib_fails_the_run(void **s)
{
    (void)s;
    rogue(1, phys(0, 0x1000 - 32), 16);
    expect_run_error("crosses a 4 KiB boundary");
}

static void a_read_burst_across_4_kib_fails_the_run(void **s)
{
    (void)s;
    rogue(4, phys(0, 0x2000 - 8), 16);
    expect_run_error("read burst of 16 beats");
}

/* AXI4: WLAST on the last beat of a burst, and only there (A3.4.1). */
static void an_early_wlast_fails_the_run(void **s)
{
    (void)s;
    rogue(2, phys(0, 0x3000), 16);
    expect_run_error("WLAST set on beat 15 of the 16-beat");
}

static void a_missing_wlast_fails_the_run(void **s)
{
    (void)s;
    rogue(3, phys(0, 0x3000), 16);
    expect_run_error("WLAST missing on beat 16 of the 16-beat");
}

/* An address no bank holds: the run fails, naming it (reads answer zeros
 * and DECERR, writes are dropped). */
static void an_address_outside_every_bank_fails_the_run(void **s)
{
    (void)s;
    rogue(0, 0x1000, 4);
    expect_run_error("0x1000 is outside every bank");
}

/* With the port's allocations known (note_alloc), a write past the buffer
 * it was given fails the run: on a board it would corrupt a neighbour. */
static void a_write_outside_every_buffer_fails_the_run(void **s)
{
    (void)s;
    m->note_alloc(m->user, phys(0, 0x4000), 64);
    rogue(0, phys(0, 0x4000), 16);
    char why[256];
    assert_int_equal(status_of(unit("rogue:rogue_1"), why, sizeof why),
                     AXL_SUCCESS);
    rogue(0, phys(0, 0x4000), 17);
    expect_run_error("write at 0x4000004040 is outside every buffer");
    m->note_free(m->user, phys(0, 0x4000));
    rogue(0, phys(0, 0x4000), 17); /* no buffers known: no check */
    assert_int_equal(status_of(unit("rogue:rogue_1"), why, sizeof why),
                     AXL_SUCCESS);
}

int main(void)
{
    size_t size;
    const void *bytes = axl_rtl_design(&size);
    if (axl_xclbin_open(&design, bytes, size, NULL, 0) ==
        AXL_ERR_FEATURE_NOT_SUPPORTED) {
        printf("skipped: a library without the xclbin reader\n");
        return 0;
    }
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(polled_vadd_sums_as_the_host_does),
        T(chain_ap_done_is_a_level_until_ap_continue),
        T(hs_ap_done_is_clear_on_read_and_a_peek_does_not_lose_it),
        T(ap_start_reads_1_until_ap_ready_or_always_0_when_pulsed),
        T(chain_auto_restart_runs_on_by_itself_with_each_end_in_the_isr),
        T(hs_auto_restart_shows_one_done_once_a_write_clears_it),
        T(before_2022_2_every_auto_restart_run_shows_ap_done),
        T(the_interrupt_calls_the_isr_on_its_rising_edge),
        T(a_toggle_on_write_isr_set_by_a_write_raises_the_line),
        T(chain_isr_cannot_be_cleared_while_ap_done_is_high),
        T(a_clear_on_read_isr_clears_when_read_and_ignores_writes),
        T(an_isr_only_driver_sees_each_run_end_once),
        T(back_to_back_runs_each_give_their_result),
        T(two_units_run_at_the_same_time),
        T(copy_moves_512_bit_beats_on_two_bundles_with_strobes),
        T(ap_sw_reset_stops_a_run_and_the_unit_reads_idle),
        T(a_deadline_is_simulated_time_on_the_design_clock),
        T(writes_go_on_after_the_deadline_until_ap_rst_n),
        T(an_idle_fabric_skips_to_the_deadline),
        T(the_watchdog_stops_a_wait_for_a_run_that_never_ends),
        T(can_run_names_the_kernels_built_in),
        T(stock_nop_starts_and_finishes),
        T(stock_fir_filters_as_the_c_model_does),
        T(stock_conv2d_convolves_as_the_c_model_does),
        T(a_well_formed_master_passes_the_checks),
        T(a_write_burst_across_4_kib_fails_the_run),
        T(a_read_burst_across_4_kib_fails_the_run),
        T(an_early_wlast_fails_the_run),
        T(a_missing_wlast_fails_the_run),
        T(an_address_outside_every_bank_fails_the_run),
        T(a_write_outside_every_buffer_fails_the_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
