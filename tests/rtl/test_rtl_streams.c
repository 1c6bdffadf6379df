/*
 * Streams between Verilated kernels (xrt/mmio/rtl/testbench.cpp, axl/rtl.h)
 * and the Xilinx macros' models (xrt/mmio/rtl/xpm), driven through the
 * model interface (axl/mmio_model.h) as the mmio port drives it: argument
 * registers, ap_start, advance(), then the bank's memory.
 *
 * The kernels are axl's stream kernels (bitstreams/rtl: mm2s, sadd, s2mm,
 * the free-running sinc; the interface Vitis HLS generates for the HLS
 * sources in bitstreams/streams). The pipelines run on
 * bitstreams/streams.xclbin itself, the design linked from streams.cfg
 * with stream_connect; the rogue producer and xcopy on the target's own
 * design (streams_test.cfg).
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

#include "axl_rtl_streams_xclbin.h"

enum { CTRL = 0x00, AP_START = 1u << 0, AP_DONE = 1u << 1, AP_IDLE = 1u << 2,
       AP_CONTINUE = 1u << 4 };
#define ANY AXL_MMIO_MODEL_ANY_UNIT

#define BANK_BYTES (1u << 20)
static _Alignas(64) uint8_t bank_mem[BANK_BYTES];
static axl_mmio_bank_region region;
static axl_xclbin design;

static void isr(uint32_t ip)
{
    (void)ip;
}

static uint32_t unit(const char *name)
{
    for (uint32_t i = 0; i < design.ip_count; i++) {
        axl_xclbin_ip ip;
        if (axl_xclbin_get_ip(&design, i, &ip) == AXL_SUCCESS &&
            axl_str_eq(ip.name, name))
            return i;
    }
    fail_msg("no unit %s in the design", name);
    return 0;
}

/* The stream whose producer is unit name's port. */
static uint32_t stream_from(const char *name)
{
    uint32_t ip = unit(name);
    for (uint32_t s = 0; s < axl_xclbin_stream_count(&design); s++) {
        axl_xclbin_stream st;
        assert_int_equal(axl_xclbin_get_stream(&design, s, &st), AXL_SUCCESS);
        if (st.producer_ip == ip)
            return s;
    }
    fail_msg("no stream from %s", name);
    return 0;
}

static uint64_t phys(uint32_t off)
{
    return region.phys + off;
}

static uint32_t *words(uint32_t off)
{
    return (uint32_t *)(void *)(bank_mem + off);
}

/* Attaches the model to a design with one bank (bank 0, where every
 * memory argument of these designs is). */
static void attach(const void *bytes, size_t size)
{
    char why[160];
    if (axl_xclbin_open(&design, bytes, size, why, sizeof why) != AXL_SUCCESS)
        fail_msg("design: %s", why);
    axl_xclbin_mem mem;
    assert_int_equal(axl_xclbin_get_mem(&design, 0, &mem), AXL_SUCCESS);
    region = (axl_mmio_bank_region){0, mem.base_address, BANK_BYTES, bank_mem};
    memset(bank_mem, 0, sizeof bank_mem);
    axl_rtl_set_watchdog(1ull << 24);
    if (m->attach(m->user, &design, &region, 1, isr) != AXL_SUCCESS)
        fail_msg("attach failed");
}

static int setup_streams_xclbin(void **state)
{
    (void)state;
    m = axl_rtl_model();
    attach(axl_rtl_streams_xclbin, axl_rtl_streams_xclbin_size);
    return 0;
}

static int setup_own_design(void **state)
{
    (void)state;
    m = axl_rtl_model();
    size_t size;
    const void *bytes = axl_rtl_design(&size);
    assert_non_null(bytes);
    attach(bytes, size);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    m->detach(m->user);
    return 0;
}

/* mm2s and s2mm: the buffer at 0x10, n at 0x1C (their kernel.xml). */
static void start_mover(uint32_t ip, uint32_t off, uint32_t n)
{
    wr64(ip, 0x10, phys(off));
    wr(ip, 0x1C, n);
    wr(ip, CTRL, AP_START);
}

/* Runs the model until unit ip raises ap_done; fails on anything else. */
static void wait_done(uint32_t ip)
{
    for (int i = 0; i < 64; i++) {
        int ev = m->advance(m->user, ip, AXL_MMIO_MODEL_FOREVER);
        if (ev == AXL_MMIO_MODEL_DONE && (rd(ip, CTRL) & AP_DONE)) {
            wr(ip, CTRL, AP_CONTINUE);
            return;
        }
        if (ev == AXL_MMIO_MODEL_ERROR) {
            char why[256] = "";
            m->run_status(m->user, ip, why, sizeof why);
            fail_msg("the model stopped: %s", why);
        }
    }
    fail_msg("unit %u never finished", ip);
}

static void fill(uint32_t off, uint32_t n, uint32_t seed)
{
    uint32_t *a = words(off);
    for (uint32_t i = 0; i < n; i++)
        a[i] = i * 2654435761u + seed;
}

static void check_plus(uint32_t src, uint32_t dst, uint32_t n, uint32_t add)
{
    const uint32_t *a = words(src), *o = words(dst);
    for (uint32_t i = 0; i < n; i++)
        if (o[i] != a[i] + add)
            fail_msg("dst[%u] = 0x%x, want 0x%x", i, o[i], a[i] + add);
    assert_int_equal(o[n], 0xEEEEEEEEu); /* nothing past the end */
}

static void no_errors(uint32_t ip)
{
    char why[256] = "";
    if (m->run_status(m->user, ip, why, sizeof why) != AXL_SUCCESS)
        fail_msg("unit %u: %s", ip, why);
}

/* stream_connect joins mm2s_1 -> sadd_1 -> s2mm_1 with FIFOs of 64: the
 * words of src plus the addend arrive in dst, in order, each beat once.
 * The consumers are started before the producer, as a pipeline is; 1000
 * words are more than the two FIFOs hold, so the stream's back-pressure
 * is in the path. */
static void stream_connect_pipeline_mm2s_sadd_s2mm_computes_the_sum(void **s)
{
    (void)s;
    uint32_t mm2s = unit("mm2s:mm2s_1"), sadd = unit("sadd:sadd_1"),
             s2mm = unit("s2mm:s2mm_1");
    fill(0, 1000, 7);
    memset(words(0x10000), 0xEE, 4 * 1000 + 64);
    start_mover(s2mm, 0x10000, 1000);
    wr(sadd, 0x10, 0x01000001u);
    wr(sadd, CTRL, AP_START);
    start_mover(mm2s, 0, 1000);
    wait_done(s2mm);
    check_plus(0, 0x10000, 1000, 0x01000001u);
    assert_true(rd(mm2s, CTRL) & (AP_DONE | AP_IDLE));
    assert_true(rd(sadd, CTRL) & (AP_DONE | AP_IDLE));
    uint32_t first = stream_from("mm2s:mm2s_1"),
             second = stream_from("sadd:sadd_1");
    axl_rtl_stream_stats st;
    assert_int_equal(axl_rtl_stream_stats_get(first, &st), AXL_SUCCESS);
    assert_int_equal(st.depth, 64);
    assert_int_equal(st.beats, 1000);
    assert_int_equal(st.fill, 0);
    assert_int_equal(st.protocol_errors, 0);
    assert_int_equal(axl_rtl_stream_stats_get(second, &st), AXL_SUCCESS);
    assert_int_equal(st.beats, 1000);
    assert_true(st.max_fill <= 64);
    no_errors(mm2s);
    no_errors(sadd);
    no_errors(s2mm);
}

/* A FIFO holds the design's depth and no more: with s2mm_1 not started,
 * the pipeline fills both FIFOs (64 beats each), mm2s_1 is held by
 * TREADY, and no beat is lost; once s2mm_1 starts, every word arrives. */
static void a_full_fifo_holds_its_depth_and_stalls_the_producer(void **s)
{
    (void)s;
    uint32_t mm2s = unit("mm2s:mm2s_1"), sadd = unit("sadd:sadd_1"),
             s2mm = unit("s2mm:s2mm_1");
    fill(0, 300, 3);
    memset(words(0x10000), 0xEE, 4 * 300 + 64);
    /* The stall is on purpose: the testbench's deadlock window (4096
     * cycles) would call it a deadlock (axl/rtl.h). */
    axl_rtl_set_deadlock_cycles(0);
    wr(sadd, 0x10, 5);
    wr(sadd, CTRL, AP_START);
    start_mover(mm2s, 0, 300);
    /* 20 us of a 300 MHz clock: far more than 130 beats need. */
    assert_int_equal(m->advance(m->user, ANY, m->now_ns(m->user) + 20000),
                     AXL_MMIO_MODEL_DEADLINE);
    axl_rtl_stream_stats a, b;
    assert_int_equal(axl_rtl_stream_stats_get(stream_from("mm2s:mm2s_1"), &a),
                     AXL_SUCCESS);
    assert_int_equal(axl_rtl_stream_stats_get(stream_from("sadd:sadd_1"), &b),
                     AXL_SUCCESS);
    assert_int_equal(b.fill, 64);
    assert_int_equal(a.fill, 64);
    assert_int_equal(a.max_fill, 64);
    assert_true(a.full_cycles > 0);
    assert_false(rd(mm2s, CTRL) & AP_DONE);
    start_mover(s2mm, 0x10000, 300);
    wait_done(s2mm);
    axl_rtl_set_deadlock_cycles(4096);
    check_plus(0, 0x10000, 300, 5);
    assert_int_equal(a.protocol_errors + b.protocol_errors, 0);
}

/* ap_ctrl_none: sinc_1 runs from reset, never started; the host writes
 * its one register (inc at 0x10) and the stream through it carries
 * src + inc. Its output stream has no depth in the config: the
 * testbench's direct connection holds 2 beats. */
static void free_running_unit_runs_from_reset_with_the_scalar_written(void **s)
{
    (void)s;
    uint32_t mm2s = unit("mm2s:mm2s_2"), sinc = unit("sinc:sinc_1"),
             s2mm = unit("s2mm:s2mm_2");
    axl_xclbin_ip ip;
    assert_int_equal(axl_xclbin_get_ip(&design, sinc, &ip), AXL_SUCCESS);
    assert_int_equal(ip.control, AXL_XCLBIN_AP_CTRL_NONE);
    wr(sinc, 0x10, 0x100);
    assert_int_equal(rd(sinc, 0x10), 0x100);
    fill(0x20000, 500, 11);
    memset(words(0x30000), 0xEE, 4 * 500 + 64);
    start_mover(s2mm, 0x30000, 500);
    start_mover(mm2s, 0x20000, 500);
    wait_done(s2mm);
    check_plus(0x20000, 0x30000, 500, 0x100);
    axl_rtl_stream_stats st;
    assert_int_equal(axl_rtl_stream_stats_get(stream_from("sinc:sinc_1"), &st),
                     AXL_SUCCESS);
    assert_int_equal(st.depth, 2);
    assert_int_equal(st.beats, 500);
    no_errors(s2mm);
}

/* The rogue producer (mm2s built with FAULT=1) waits for TREADY on a full
 * FIFO of 4 (s2mm_3 is never started) and then breaks AXI4-Stream as n's
 * top bits ask: each fails its run, naming the stream and the rule. */
static void rogue_check(uint32_t fault_bit, const char *want)
{
    uint32_t rogue = unit("mm2s_rogue:mm2s_rogue_1");
    fill(0, 64, 1);
    start_mover(rogue, 0, (1u << fault_bit) | 32u);
    m->advance(m->user, ANY, m->now_ns(m->user) + 5000);
    char why[320] = "";
    assert_int_equal(m->run_status(m->user, rogue, why, sizeof why),
                     AXL_ERR_RUNTIME);
    if (!strstr(why, "mm2s_rogue:mm2s_rogue_1.data_out -> s2mm:s2mm_3.data_in") ||
        !strstr(why, want))
        fail_msg("run_status says: %s", why);
    axl_rtl_stream_stats st;
    assert_int_equal(
        axl_rtl_stream_stats_get(stream_from("mm2s_rogue:mm2s_rogue_1"), &st),
        AXL_SUCCESS);
    assert_true(st.protocol_errors > 0);
}

static void axis_tvalid_dropped_before_tready_is_a_protocol_error(void **s)
{
    (void)s;
    rogue_check(31, "TVALID fell before TREADY took its beat");
}

static void axis_tdata_changed_while_waiting_is_a_protocol_error(void **s)
{
    (void)s;
    rogue_check(30, "changed while TVALID waited for TREADY");
}

static void axis_tstrb_outside_tkeep_is_a_protocol_error(void **s)
{
    (void)s;
    rogue_check(29, "TSTRB 0xf sets bytes TKEEP 0x7 leaves out");
}

/* xcopy instantiates xpm_fifo_sync (first-word fall-through, 16 deep)
 * and was built by axl_add_rtl_kernel from its own Verilog only: the
 * macro's model came from the testbench's library. dst = src + 1. */
static void rtl_kernel_with_xpm_fifo_sync_builds_alone_and_computes(void **s)
{
    (void)s;
    uint32_t ip = unit("xcopy:xcopy_1");
    fill(0, 777, 9);
    memset(words(0x40000), 0xEE, 4 * 777 + 64);
    wr64(ip, 0x10, phys(0));
    wr64(ip, 0x1C, phys(0x40000));
    wr(ip, 0x28, 777);
    wr(ip, CTRL, AP_START);
    for (int i = 0; i < 8; i++) {
        int ev = m->advance(m->user, ip, AXL_MMIO_MODEL_FOREVER);
        assert_int_not_equal(ev, AXL_MMIO_MODEL_ERROR);
        if (ev == AXL_MMIO_MODEL_DONE && (rd(ip, CTRL) & AP_DONE))
            break;
    }
    check_plus(0, 0x40000, 777, 1);
    no_errors(ip);
}

int main(void)
{
    const struct CMUnitTest on_streams_xclbin[] = {
        cmocka_unit_test_setup_teardown(
            stream_connect_pipeline_mm2s_sadd_s2mm_computes_the_sum,
            setup_streams_xclbin, teardown),
        cmocka_unit_test_setup_teardown(
            a_full_fifo_holds_its_depth_and_stalls_the_producer,
            setup_streams_xclbin, teardown),
        cmocka_unit_test_setup_teardown(
            free_running_unit_runs_from_reset_with_the_scalar_written,
            setup_streams_xclbin, teardown),
    };
    const struct CMUnitTest on_own_design[] = {
        cmocka_unit_test_setup_teardown(
            axis_tvalid_dropped_before_tready_is_a_protocol_error,
            setup_own_design, teardown),
        cmocka_unit_test_setup_teardown(
            axis_tdata_changed_while_waiting_is_a_protocol_error,
            setup_own_design, teardown),
        cmocka_unit_test_setup_teardown(
            axis_tstrb_outside_tkeep_is_a_protocol_error,
            setup_own_design, teardown),
        cmocka_unit_test_setup_teardown(
            rtl_kernel_with_xpm_fifo_sync_builds_alone_and_computes,
            setup_own_design, teardown),
    };
    int failed = cmocka_run_group_tests_name("streams.xclbin",
                                             on_streams_xclbin, NULL, NULL);
    failed += cmocka_run_group_tests_name("streams_test.cfg", on_own_design,
                                          NULL, NULL);
    return failed;
}
