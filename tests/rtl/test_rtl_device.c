/*
 * The RTL device through the plain axl API: a program linked with the
 * target axl_add_rtl_kernel made (axl_rtl_test_kernels: axl's Verilog
 * kernels in the design of rtl_test.cfg) and nothing else, whose one
 * device is the mmio port on that RTL (axl_rtl_board).
 *
 * What is particular to a device of Verilated RTL (issue 27 items 2 and
 * 6): its name and clock (SYCL 4.6.4.2); kernel timeouts and profiling
 * (4.6.6 Table 36) count the design's simulated clock, so a timeout is the
 * same number of cycles on an idle laptop and on a loaded CI runner (the
 * busy kernel runs for hundreds of microseconds of simulated time and a
 * good fraction of a second of the host's); a unit without ap_sw_reset
 * that timed out comes back through the board's reset hook (ap_rst_n); a
 * unit with it comes back by itself; two units run at once in simulated
 * time; runs end by interrupt where the board wires it and by polling
 * where not (AXL_RTL_IRQ=0: ctest runs the file both ways); a kernel of
 * the design without RTL is refused naming what would run it; memory a
 * run given up at its timeout still writes is not handed out again until
 * the run ends or its unit is reset (item 7). Issue 40: a unit hung at
 * its timeout keeps its design on the fabric and fails another design's
 * commands at once; after its reset the swap runs (the testbench builds
 * the other design's Verilated units) and the device's clock goes on.
 * Stage 4 (2.7): an executable graph of the other design (fir) replays
 * across swaps, waits for a busy run in flight, runs back to back with
 * busy's commands, and is refused holding both designs.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axl_reader_skip.h"
#include "axl_test.h"
#include "axl/mmio.h"
#include "axl/mmio_model.h"
#include "axl/rtl.h"
#include "axl/xclbin.h"
#if defined(AXL_TEST_DESIGNS_B)
#include "axl_config.h" /* the feature switches */
#include "axl_test_designs_b_xclbin.h"
#endif

/* The IP_LAYOUT index of a unit of the design ("busy:busy_1"). */
static uint32_t ip_of(const char *unit)
{
    size_t size;
    const void *bytes = axl_rtl_design(&size);
    axl_xclbin x;
    char why[96];
    AXL_OK(axl_xclbin_open(&x, bytes, size, why, sizeof why));
    for (uint32_t i = 0; i < x.ip_count; i++) {
        axl_xclbin_ip ip;
        AXL_OK(axl_xclbin_get_ip(&x, i, &ip));
        if (ip.name.len == strlen(unit) &&
            !memcmp(ip.name.ptr, unit, ip.name.len))
            return i;
    }
    fail_msg("no unit %s in the design", unit);
    return 0;
}

static uint64_t profiled_ns(axl_event e)
{
    uint64_t start, end;
    AXL_OK(axl_event_get_profiling(e, AXL_PROFILING_COMMAND_START, &start));
    AXL_OK(axl_event_get_profiling(e, AXL_PROFILING_COMMAND_END, &end));
    assert_true(end > start);
    return end - start;
}

static double wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static bool irq_wired(void)
{
    const char *v = getenv("AXL_RTL_IRQ");
    return !v || strtoul(v, NULL, 0) != 0;
}

/* ---- The device -------------------------------------------------------------- */

/* It says what it is (issue 27 item 6): its name, aspect::emulated, and a
 * profiling timer of 1 ns, the resolution of the simulated clock. */
static void the_device_is_rtl_simulation_under_verilator_4_6_4_2(void **s)
{
    (void)s;
    axl_device d = axl_test_emu_device();
    char name[64];
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_NAME, name, sizeof name,
                               NULL));
    assert_string_equal(name, "RTL simulation (Verilator)");
    assert_string_equal(name, axl_rtl_model()->name);
    uint64_t res = 0;
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_PROFILING_TIMER_RESOLUTION,
                               &res, sizeof res, NULL));
    assert_int_equal(res, 1);
    char kernels[128];
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_BUILT_IN_KERNELS, kernels,
                               sizeof kernels, NULL));
    assert_non_null(strstr(kernels, "busy"));
    assert_non_null(strstr(kernels, "vadd"));
}

/* ---- Time ---------------------------------------------------------------------- */

static void busy_args(axl_kernel_arg *a, axl_buffer out, uint32_t *words,
                      uint32_t *rounds, uint32_t *delay)
{
    a[0] = (axl_kernel_arg){.index = 0, .buffer = out,
                            .mode = AXL_ACCESS_WRITE_NO_INIT};
    a[1] = (axl_kernel_arg){.index = 1, .value = words, .size = 4};
    a[2] = (axl_kernel_arg){.index = 2, .value = rounds, .size = 4};
    a[3] = (axl_kernel_arg){.index = 3, .value = delay, .size = 4};
}

/* The busy kernel writes each of 8 words 40 times, 1,000 cycles apart:
 * about 1.1 ms of its 300 MHz clock, and far longer on the host. Its run
 * is timed in simulated time (profiling: the run's length, the same each
 * time); a timeout of half that fails it, with AXL_ERR_TIMEOUT, whatever
 * the host's speed, and one of twice that is met, though the host takes
 * longer than the timeout to simulate it. busy has no ap_sw_reset: the
 * unit stays out of use after its timeout until axl_mmio_reset_unit
 * brings it back through the board's hook (the model's ap_rst_n). */
static void a_timeout_counts_the_designs_simulated_clock(void **s)
{
    (void)s;
    axl_test_rig r =
        axl_test_rig_up(AXL_QUEUE_IN_ORDER | AXL_QUEUE_ENABLE_PROFILING);
    axl_kernel busy = axl_test_rig_kernel(&r, "busy");
    uint32_t ip = ip_of("busy:busy_1");
    uint32_t words = 8, rounds = 40, delay = 1000;
    axl_buffer out;
    AXL_OK(axl_buffer_create(4, axl_range_1d(words), NULL, &out));
    axl_kernel_arg args[4];
    busy_args(args, out, &words, &rounds, &delay);

    /* Untimed: the run's length in simulated time. */
    AXL_OK(axl_queue_set_timeout(r.q, 0));
    uint64_t c0 = axl_rtl_cycles();
    double w0 = wall_ms();
    axl_event e;
    AXL_OK(axl_queue_single_task(r.q, busy, args, 4, NULL, 0, &e));
    AXL_OK(axl_event_wait(e));
    double run_wall = wall_ms() - w0;
    uint64_t cycles = axl_rtl_cycles() - c0;
    uint64_t run = profiled_ns(e);
    AXL_OK(axl_event_release(e));
    /* Within the cycles the launch and the wait took, at 300 MHz. */
    uint64_t window = cycles * 1000u / axl_rtl_clock_mhz();
    assert_int_equal(axl_rtl_clock_mhz(), 300);
    assert_true(run <= window);
    assert_true(run > window / 2);
    assert_true(run > (uint64_t)words * rounds * delay * 1000u / 300u);

    /* Half of it: given up. */
    AXL_OK(axl_queue_set_timeout(r.q, run / 2));
    AXL_OK(axl_queue_single_task(r.q, busy, args, 4, NULL, 0, &e));
    AXL_EXPECT(axl_event_wait(e), AXL_ERR_TIMEOUT);
    AXL_MESSAGE_HAS("did not finish within");
    AXL_OK(axl_event_release(e));
    AXL_EXPECT(axl_queue_wait_and_throw(r.q), AXL_ERR_TIMEOUT);
    /* Without ap_sw_reset its unit stays hung until reset. */
    AXL_OK(axl_queue_single_task(r.q, busy, args, 4, NULL, 0, &e));
    AXL_EXPECT(axl_event_wait(e), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("axl_mmio_reset_unit");
    AXL_OK(axl_event_release(e));
    AXL_EXPECT(axl_queue_wait_and_throw(r.q), AXL_ERR_RUNTIME);
    AXL_OK(axl_mmio_reset_unit(ip));

    /* Twice it: met, in the same simulated time as the first run. */
    AXL_OK(axl_queue_set_timeout(r.q, 2 * run));
    w0 = wall_ms();
    AXL_OK(axl_queue_single_task(r.q, busy, args, 4, NULL, 0, &e));
    AXL_OK(axl_event_wait(e));
    double met_wall = wall_ms() - w0;
    uint64_t again = profiled_ns(e);
    AXL_OK(axl_event_release(e));
    assert_true(again > run - run / 100 && again < run + run / 100);
    uint32_t got[8];
    AXL_OK(axl_queue_copy_to_host(r.q, out, NULL, got, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    for (uint32_t i = 0; i < words; i++)
        assert_int_equal(got[i], rounds);
    print_message("busy: %llu ns simulated (%llu cycles with the launch), "
                  "%.0f ms of host time; timeouts %llu ns (failed) and "
                  "%llu ns (met in %.0f ms of host time)\n",
                  (unsigned long long)run, (unsigned long long)cycles,
                  run_wall, (unsigned long long)(run / 2),
                  (unsigned long long)(2 * run), met_wall);
    AXL_OK(axl_buffer_release(out));
    AXL_OK(axl_kernel_release(busy));
    axl_test_rig_down(&r);
}

/* vadd is built with ap_sw_reset: the port resets it when its run is
 * given up, and it runs again with no call of the application's. */
static void a_unit_with_ap_sw_reset_runs_again_after_its_timeout(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel vadd = axl_test_rig_kernel(&r, "vadd");
    enum { N = 1 << 16 };
    static int32_t a[N], o[N];
    for (int i = 0; i < N; i++)
        a[i] = i;
    axl_buffer A, O;
    AXL_OK(axl_buffer_create_from(a, 4, axl_range_1d(N), NULL, &A));
    AXL_OK(axl_buffer_create_from(o, 4, axl_range_1d(N), NULL, &O));
    /* 2^16 elements take about 150,000 cycles: 500 us at 300 MHz. */
    AXL_OK(axl_queue_set_timeout(r.q, 20u * 1000u));
    axl_event e;
    AXL_OK(axl_queue_single_task(r.q, vadd,
                                 AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A),
                                          AXL_ARG_OUT(O), AXL_ARG_U32(N)),
                                 NULL, 0, &e));
    AXL_EXPECT(axl_event_wait(e), AXL_ERR_TIMEOUT);
    AXL_MESSAGE_HAS("did not finish within 20 us");
    AXL_OK(axl_event_release(e));
    AXL_EXPECT(axl_queue_wait_and_throw(r.q), AXL_ERR_TIMEOUT);
    AXL_OK(axl_queue_set_timeout(r.q, 0));
    AXL_OK(axl_queue_single_task(r.q, vadd,
                                 AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A),
                                          AXL_ARG_OUT(O), AXL_ARG_U32(N)),
                                 NULL, 0, NULL));
    AXL_OK(axl_buffer_release(O)); /* waits, then writes back */
    for (int i = 0; i < N; i++)
        assert_int_equal(o[i], 2 * i);
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_kernel_release(vadd));
    axl_test_rig_down(&r);
}

/* vadd's two units run at once: on an out-of-order queue two launches
 * take one unit each, and their profiled spans (simulated time) overlap.
 * Each reads buffers of its own: the runtime moves an input to the device
 * within the first command that uses it, so a second reader of the same
 * buffer waits for that command, run and all. */
static void two_units_run_at_once_in_simulated_time(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_ENABLE_PROFILING);
    axl_kernel vadd = axl_test_rig_kernel(&r, "vadd");
    enum { N = 1 << 14 };
    static int32_t a[N], o[2][N];
    for (int i = 0; i < N; i++)
        a[i] = 3 * i;
    axl_buffer A[2], O[2];
    axl_event e[2];
    for (int k = 0; k < 2; k++) {
        AXL_OK(axl_buffer_create_from(a, 4, axl_range_1d(N), NULL, &A[k]));
        AXL_OK(axl_buffer_create_from(o[k], 4, axl_range_1d(N), NULL, &O[k]));
        AXL_OK(axl_queue_single_task(r.q, vadd,
                                     AXL_ARGS(AXL_ARG_IN(A[k]), AXL_ARG_IN(A[k]),
                                              AXL_ARG_OUT(O[k]),
                                              AXL_ARG_U32(N)),
                                     NULL, 0, &e[k]));
    }
    AXL_OK(axl_queue_wait_and_throw(r.q));
    uint64_t start[2], end[2];
    uint32_t cu[2];
    for (int k = 0; k < 2; k++) {
        AXL_OK(axl_event_get_profiling(e[k], AXL_PROFILING_COMMAND_START,
                                       &start[k]));
        AXL_OK(axl_event_get_profiling(e[k], AXL_PROFILING_COMMAND_END,
                                       &end[k]));
        AXL_OK(axl_event_get_compute_unit(e[k], &cu[k]));
        AXL_OK(axl_event_release(e[k]));
    }
    assert_int_not_equal(cu[0], cu[1]);
    assert_true(start[1] < end[0] && start[0] < end[1]);
    for (int k = 0; k < 2; k++) {
        AXL_OK(axl_buffer_release(O[k]));
        for (int i = 0; i < N; i++)
            assert_int_equal(o[k][i], 6 * i);
        AXL_OK(axl_buffer_release(A[k]));
    }
    AXL_OK(axl_kernel_release(vadd));
    axl_test_rig_down(&r);
}

/* The board wires a unit's interrupt where IP_LAYOUT enables it and its
 * RTL has the pin (every unit here), unless AXL_RTL_IRQ=0: then the port
 * polls. A run ends the way the board says. */
static void runs_end_by_interrupt_where_the_board_wires_it(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel vadd = axl_test_rig_kernel(&r, "vadd");
    int32_t a[64] = {1}, o[64];
    axl_buffer A, O;
    AXL_OK(axl_buffer_create_from(a, 4, axl_range_1d(64), NULL, &A));
    AXL_OK(axl_buffer_create_from(o, 4, axl_range_1d(64), NULL, &O));
    axl_mmio_counters before, after;
    axl_mmio_counters_get(&before);
    for (int i = 0; i < 4; i++)
        AXL_OK(axl_queue_single_task(r.q, vadd,
                                     AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A),
                                              AXL_ARG_OUT(O), AXL_ARG_U32(64)),
                                     NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    axl_mmio_counters_get(&after);
    assert_int_equal(after.starts - before.starts, 4);
    if (irq_wired()) {
        assert_int_equal(after.irq_done - before.irq_done, 4);
        assert_int_equal(after.polls - before.polls, 0);
    } else {
        assert_int_equal(after.irq_done - before.irq_done, 0);
        assert_true(after.polls - before.polls >= 4);
    }
    assert_int_equal(after.irq_spurious, before.irq_spurious);
    AXL_OK(axl_buffer_release(O));
    assert_int_equal(o[0], 2);
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_kernel_release(vadd));
    axl_test_rig_down(&r);
}

/* ---- Memory an abandoned run still writes (issue 27 item 7) ------------------- */

static char logged[4][AXL_MESSAGE_MAX];
static atomic_int nlogged;

static void keep_line(const char *text, size_t len, void *user)
{
    (void)user;
    int i = atomic_fetch_add(&nlogged, 1);
    if (i < 4)
        snprintf(logged[i], sizeof logged[i], "%.*s", (int)len, text);
}

static bool logged_has(const char *text)
{
    for (int i = 0; i < atomic_load(&nlogged) && i < 4; i++)
        if (strstr(logged[i], text))
            return true;
    return false;
}

static uint64_t busy_write_beats(uint32_t ip)
{
    axl_rtl_unit_stats st;
    AXL_OK(axl_rtl_unit_stats_get(ip, &st));
    return st.write_beats;
}

/* Simulated time runs only while the port waits for a unit: one vadd of
 * 2^13 elements on a vadd unit, about 20,000 cycles of it, during which
 * every unit (the hung one too) is clocked. */
static void let_time_run(axl_test_rig *r, axl_kernel vadd, axl_buffer A,
                         axl_buffer O)
{
    AXL_OK(axl_queue_single_task(r->q, vadd,
                                 AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A),
                                          AXL_ARG_OUT(O),
                                          AXL_ARG_U32(1u << 13)),
                                 NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r->q));
}

/* The busy kernel over W words (4 KiB), `rounds` rounds (0: until reset),
 * 16 cycles before each single-beat write: a round is about 27,000
 * cycles, so its writes go on long after a timeout of 20 us (6,000
 * cycles) gives it up. It has no ap_sw_reset: the port cannot stop it,
 * its unit is hung, and the run keeps its output buffer. The application
 * releases that buffer (the release succeeds, and says its device memory
 * stays reserved; the reserved_memory row counts it), makes a new buffer
 * of the same size (first fit would place it where the output was) and
 * fills it on the device, then lets simulated time run on while busy
 * writes: every byte of the new buffer, read back from the device, is
 * still the fill. Returns the unit's IP_LAYOUT index, its write beats
 * when the new buffer was checked, and leaves the reserved bytes
 * counted. */
enum { W = 1024 };

typedef struct given_up {
    axl_kernel busy, vadd;
    axl_buffer A, O, X;
    uint32_t ip;
    uint64_t beats_before;     /* the unit's write beats before the run */
    uint64_t beats_at_timeout; /* the run's, when it was given up */
} given_up;

static given_up busy_given_up_beside_a_new_buffer(axl_test_rig *r,
                                                  uint32_t rounds,
                                                  uint64_t beats_to_see)
{
    given_up g;
    g.busy = axl_test_rig_kernel(r, "busy");
    g.vadd = axl_test_rig_kernel(r, "vadd");
    g.ip = ip_of("busy:busy_1");
    g.beats_before = busy_write_beats(g.ip); /* counted since attach */
    AXL_OK(axl_buffer_create(4, axl_range_1d(1u << 13), NULL, &g.A));
    AXL_OK(axl_buffer_create(4, axl_range_1d(1u << 13), NULL, &g.O));
    axl_log_set(AXL_LOG_WARN, keep_line, NULL);
    atomic_store(&nlogged, 0);

    axl_buffer out;
    AXL_OK(axl_buffer_create(4, axl_range_1d(W), NULL, &out));
    uint32_t words = W, delay = 16;
    axl_kernel_arg args[4];
    busy_args(args, out, &words, &rounds, &delay);
    AXL_OK(axl_queue_set_timeout(r->q, 20u * 1000u));
    axl_event e;
    AXL_OK(axl_queue_single_task(r->q, g.busy, args, 4, NULL, 0, &e));
    AXL_EXPECT(axl_event_wait(e), AXL_ERR_TIMEOUT);
    AXL_MESSAGE_HAS("stay reserved");
    AXL_OK(axl_event_release(e));
    AXL_EXPECT(axl_queue_wait_and_throw(r->q), AXL_ERR_TIMEOUT);
    AXL_OK(axl_queue_set_timeout(r->q, 0));
    g.beats_at_timeout = busy_write_beats(g.ip) - g.beats_before;
    assert_true(g.beats_at_timeout < W); /* within its first round */

    AXL_OK(axl_buffer_release(out));
    /* Checked below, after the new buffer's bytes (which say most). */
    const bool said = logged_has("stay reserved");
    const uint64_t reserved = axl_test_pool("reserved_memory").in_use;

    AXL_OK(axl_buffer_create(4, axl_range_1d(W), NULL, &g.X));
    AXL_OK(axl_queue_prefetch(r->q, g.X, NULL, NULL, 0, NULL));
    const uint32_t pattern = 0x5A5A5A5Au;
    AXL_OK(axl_queue_fill(r->q, g.X, NULL, &pattern, 4, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r->q));

    /* busy writes on: beats_to_see more beats, each over the old output. */
    const uint64_t from = busy_write_beats(g.ip);
    for (int i = 0; i < 200 && busy_write_beats(g.ip) - from < beats_to_see;
         i++)
        let_time_run(r, g.vadd, g.A, g.O);
    const uint64_t beats = busy_write_beats(g.ip) - from;
    static uint32_t v[W];
    AXL_OK(axl_queue_copy_to_host(r->q, g.X, NULL, v, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r->q));
    uint32_t changed = 0;
    for (uint32_t i = 0; i < W; i++)
        changed += v[i] != pattern;
    print_message("busy given up after %llu of its write beats; %llu more "
                  "while the new buffer held its fill; %u of its %u words "
                  "changed\n",
                  (unsigned long long)g.beats_at_timeout,
                  (unsigned long long)beats, (unsigned)changed, (unsigned)W);
    assert_true(beats >= beats_to_see);
    assert_int_equal(changed, 0);
    assert_true(said || !axl_test_messages());
    assert_int_equal(reserved, 4 * W);
    assert_int_equal(axl_test_pool("reserved_memory").in_use, 4 * W);
    axl_log_set(AXL_LOG_OFF, NULL, NULL);
    return g;
}

static void given_up_down(axl_test_rig *r, given_up *g)
{
    AXL_OK(axl_buffer_release(g->X));
    AXL_OK(axl_buffer_release(g->A));
    AXL_OK(axl_buffer_release(g->O));
    AXL_OK(axl_kernel_release(g->busy));
    AXL_OK(axl_kernel_release(g->vadd));
    axl_test_rig_down(r);
}

/* A run of busy's that ends by itself (4 rounds): simulated time runs on
 * past its last write (all 4 * W beats written); its end, seen by the
 * port (its interrupt, or a poll while the port waits for vadd), gives
 * the reserved memory back and the unit runs again. */
static void memory_a_given_up_run_writes_is_not_handed_out_until_it_ends(
    void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    given_up g = busy_given_up_beside_a_new_buffer(&r, 4, W);
    for (int i = 0; i < 200 && (busy_write_beats(g.ip) - g.beats_before <
                                    4 * W ||
                                axl_test_pool("reserved_memory").in_use);
         i++)
        let_time_run(&r, g.vadd, g.A, g.O);
    assert_int_equal(busy_write_beats(g.ip) - g.beats_before, 4 * W);
    assert_int_equal(axl_test_pool("reserved_memory").in_use, 0);
    /* Its last write is past: the new buffer is still the fill. */
    static uint32_t v[W];
    AXL_OK(axl_queue_copy_to_host(r.q, g.X, NULL, v, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    uint32_t changed = 0;
    for (uint32_t i = 0; i < W; i++)
        changed += v[i] != 0x5A5A5A5Au;
    print_message("busy's run ended (%u write beats); %u of the new "
                  "buffer's words changed\n", 4u * W, (unsigned)changed);
    assert_int_equal(changed, 0);
    /* The unit is back. */
    uint32_t words = 4, rounds = 1, delay = 0;
    axl_kernel_arg args[4];
    busy_args(args, g.X, &words, &rounds, &delay);
    AXL_OK(axl_queue_single_task(r.q, g.busy, args, 4, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    given_up_down(&r, &g);
}

/* A run of busy's that never ends (rounds 0): after two more rounds of
 * its writes the new buffer is the fill, the memory stays reserved, and
 * axl_mmio_reset_unit (the board's hook: ap_rst_n) stops it and gives the
 * memory back; it writes nothing more. */
static void memory_a_hung_unit_writes_is_not_handed_out_until_its_reset(
    void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    given_up g = busy_given_up_beside_a_new_buffer(&r, 0, 2 * W);
    assert_int_equal(axl_test_pool("reserved_memory").in_use, 4 * W);
    AXL_OK(axl_mmio_reset_unit(g.ip));
    assert_int_equal(axl_test_pool("reserved_memory").in_use, 0);
    const uint64_t stopped = busy_write_beats(g.ip);
    let_time_run(&r, g.vadd, g.A, g.O);
    assert_int_equal(busy_write_beats(g.ip), stopped);
    given_up_down(&r, &g);
}

/* ---- Another design: the stock one --------------------------------------------- */

/* A board of the program's own (axl_mmio_model_board on the RTL model)
 * with the stock design: vadd runs on its RTL; mmult has none, and its
 * launch fails naming the model and what would run it (item 6). */
static _Alignas(4096) unsigned char stock_bank[2][1 << 20];

static void a_kernel_without_rtl_fails_naming_axl_add_rtl_kernel(void **s)
{
    (void)s;
    static axl_mmio_board board;
    static const axl_mmio_bank_region banks[2] = {
        {0, 0x4000000000ull, sizeof stock_bank[0], stock_bank[0]},
        {1, 0x4010000000ull, sizeof stock_bank[1], stock_bank[1]}};
    axl_mmio_model_board(&board, axl_rtl_model(), axl_test_stock_xclbin,
                         axl_test_stock_xclbin_size, banks, 2);
    AXL_OK(axl_mmio_set_board(&board));
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel vadd = axl_test_rig_kernel(&r, "vadd");
    axl_kernel mmult = axl_test_rig_kernel(&r, "mmult");
    bool ok = false;
    axl_kernel_id id = axl_test_builtin(r.dev, "mmult");
    /* A kernel of the design the device came with is compatible (as on
     * the emulated device); its launch is refused before its unit is
     * touched. */
    AXL_OK(axl_is_compatible(&id, 1, r.dev, &ok));
    assert_true(ok);
    int32_t a[16] = {5, 6}, o[16];
    axl_buffer A, O;
    AXL_OK(axl_buffer_create_from(a, 4, axl_range_1d(16), NULL, &A));
    AXL_OK(axl_buffer_create_from(o, 4, axl_range_1d(16), NULL, &O));
    AXL_OK(axl_queue_single_task(r.q, mmult,
                                 AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A),
                                          AXL_ARG_OUT(O), AXL_ARG_U32(2)),
                                 NULL, 0, NULL));
    AXL_EXPECT(axl_queue_wait_and_throw(r.q), AXL_ERR_KERNEL_NOT_SUPPORTED);
    AXL_MESSAGE_HAS("RTL simulation (Verilator) cannot run kernel mmult: "
                    "add its RTL with axl_add_rtl_kernel() in CMake");
    AXL_OK(axl_queue_single_task(r.q, vadd,
                                 AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A),
                                          AXL_ARG_OUT(O), AXL_ARG_U32(16)),
                                 NULL, 0, NULL));
    AXL_OK(axl_buffer_release(O));
    assert_int_equal(o[1], 12);
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_kernel_release(vadd));
    AXL_OK(axl_kernel_release(mmult));
    axl_test_rig_down(&r);
    AXL_OK(axl_shutdown());
    AXL_OK(axl_mmio_set_board(NULL));
}

/* ---- Another design (issue 40) ------------------------------------------------ */
#if defined(AXL_TEST_DESIGNS_B)

enum { FIR_N = 64, TAPS = 4 };

/* fir of kernels.h: Q15, rounded half up, saturated. */
static int16_t fir_at(const int16_t *in, const int16_t *coeff, int i)
{
    int64_t acc = 0;
    for (int k = 0; k < TAPS && k <= i; k++)
        acc += (int32_t)coeff[k] * in[i - k];
    int64_t r = acc + (1 << 14);
    r = r >= 0 ? r / 32768 : -((-r + 32767) / 32768);
    return (int16_t)(r > 32767 ? 32767 : r < -32768 ? -32768 : r);
}

typedef struct fir_run {
    axl_kernel fir;
    axl_buffer I, C, O;
    int16_t in[FIR_N], coeff[TAPS];
} fir_run;

/* Design B's fir (designs_b.xclbin, the stock fir alone), its inputs on
 * the device. */
static fir_run fir_up(axl_test_rig *r)
{
    fir_run f;
    AXL_OK(axl_image_register(axl_test_designs_b_xclbin,
                              axl_test_designs_b_xclbin_size));
    axl_kernel_id id;
    AXL_OK(axl_get_kernel_id("fir", &id));
    axl_kernel_bundle b;
    AXL_OK(axl_get_kernel_bundle_for(r->ctx, &r->dev, 1, &id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &b));
    AXL_OK(axl_kernel_bundle_get_kernel(b, id, &f.fir));
    AXL_OK(axl_kernel_bundle_release(b));
    for (int i = 0; i < FIR_N; i++)
        f.in[i] = (int16_t)(i * 977 % 20000 - 10000);
    for (int k = 0; k < TAPS; k++)
        f.coeff[k] = (int16_t)(8192 >> k);
    AXL_OK(axl_buffer_create(2, axl_range_1d(FIR_N), NULL, &f.I));
    AXL_OK(axl_buffer_create(2, axl_range_1d(TAPS), NULL, &f.C));
    AXL_OK(axl_buffer_create(2, axl_range_1d(FIR_N), NULL, &f.O));
    AXL_OK(axl_queue_copy_from_host(r->q, f.in, f.I, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_copy_from_host(r->q, f.coeff, f.C, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r->q));
    return f;
}

static axl_status fir_submit(axl_test_rig *r, fir_run *f, axl_event *e)
{
    return axl_queue_single_task(
        r->q, f->fir,
        AXL_ARGS(AXL_ARG_IN(f->I), AXL_ARG_IN(f->C), AXL_ARG_OUT(f->O),
                 AXL_ARG_U32(TAPS), AXL_ARG_U32(FIR_N)),
        NULL, 0, e);
}

static void fir_check_and_down(axl_test_rig *r, fir_run *f)
{
    int16_t out[FIR_N];
    AXL_OK(axl_queue_copy_to_host(r->q, f->O, NULL, out, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r->q));
    for (int i = 0; i < FIR_N; i++)
        assert_int_equal(out[i], fir_at(f->in, f->coeff, i));
    AXL_OK(axl_buffer_release(f->I));
    AXL_OK(axl_buffer_release(f->C));
    AXL_OK(axl_buffer_release(f->O));
    AXL_OK(axl_kernel_release(f->fir));
}

/*
 * Issue 40, docs/designs-design.md 2.5, on the RTL: busy has no
 * ap_sw_reset, so a run given up at its timeout leaves its unit hung, and
 * the design keeps the fabric: a command of another design (fir, design
 * B) fails at once, AXL_ERR_RUNTIME, naming the unit and the way back,
 * instead of waiting for a swap that could never come. Once
 * axl_mmio_reset_unit() brought busy back (the board's hook: its
 * ap_rst_n), the swap runs: the testbench closes the design's Verilated
 * units and builds design B's, fir computes right, and the device's
 * clock goes on across the swap (4.6.6 Table 36: a later command's
 * timestamps are later). The wall time of the swap (Verilated units made)
 * is printed: fir's command with the swap, less the same command again
 * without one.
 */
static void a_hung_unit_fails_the_other_designs_commands_at_once_2_5(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_designs_b_xclbin,
                                      axl_test_designs_b_xclbin_size));
    axl_test_rig r =
        axl_test_rig_up(AXL_QUEUE_IN_ORDER | AXL_QUEUE_ENABLE_PROFILING);
    axl_kernel busy = axl_test_rig_kernel(&r, "busy");
    const uint32_t ip = ip_of("busy:busy_1");
    fir_run f = fir_up(&r);
    axl_buffer out;
    AXL_OK(axl_buffer_create(4, axl_range_1d(8), NULL, &out));
    uint32_t words = 8, rounds = 0, delay = 1000; /* 0: until reset */
    axl_kernel_arg args[4];
    busy_args(args, out, &words, &rounds, &delay);

    AXL_OK(axl_queue_set_timeout(r.q, 20u * 1000u)); /* 20 us, simulated */
    axl_event e;
    AXL_OK(axl_queue_single_task(r.q, busy, args, 4, NULL, 0, &e));
    AXL_EXPECT(axl_event_wait(e), AXL_ERR_TIMEOUT);
    AXL_OK(axl_event_release(e));
    AXL_EXPECT(axl_queue_wait_and_throw(r.q), AXL_ERR_TIMEOUT);
    AXL_OK(axl_queue_set_timeout(r.q, 0));
    AXL_OK(fir_submit(&r, &f, &e));
    AXL_EXPECT(axl_event_wait(e), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("cannot be programmed now");
    AXL_MESSAGE_HAS("axl_mmio_reset_unit() brings it back");
    AXL_OK(axl_event_release(e));
    AXL_EXPECT(axl_queue_wait_and_throw(r.q), AXL_ERR_RUNTIME);

    /* Brought back: busy runs to its end once, on design A's clock. */
    AXL_OK(axl_mmio_reset_unit(ip));
    rounds = 1;
    axl_event before;
    AXL_OK(axl_queue_single_task(r.q, busy, args, 4, NULL, 0, &before));
    AXL_OK(axl_event_wait(before));
    uint64_t a_end, b_start, b_end;
    AXL_OK(axl_event_get_profiling(before, AXL_PROFILING_COMMAND_END, &a_end));
    AXL_OK(axl_event_release(before));
    /* Design B loads; fir computes; the clock went on. */
    double w0 = wall_ms();
    AXL_OK(fir_submit(&r, &f, &e));
    AXL_OK(axl_event_wait(e));
    const double swap_and_run = wall_ms() - w0;
    AXL_OK(axl_event_get_profiling(e, AXL_PROFILING_COMMAND_START, &b_start));
    AXL_OK(axl_event_get_profiling(e, AXL_PROFILING_COMMAND_END, &b_end));
    AXL_OK(axl_event_release(e));
    assert_true(b_start > a_end);
    w0 = wall_ms();
    AXL_OK(fir_submit(&r, &f, &e));
    AXL_OK(axl_event_wait(e));
    const double run = wall_ms() - w0;
    AXL_OK(axl_event_release(e));
    fir_check_and_down(&r, &f);
    /* And back to design A: busy again, later still. */
    AXL_OK(axl_queue_single_task(r.q, busy, args, 4, NULL, 0, &e));
    AXL_OK(axl_event_wait(e));
    AXL_OK(axl_event_get_profiling(e, AXL_PROFILING_COMMAND_START, &a_end));
    AXL_OK(axl_event_release(e));
    assert_true(a_end > b_end);
    print_message("swap to design B (fir's Verilated unit made): %.1f ms of "
                  "host time (fir with the swap %.1f ms, again without "
                  "%.1f ms)\n", swap_and_run - run, swap_and_run, run);
    AXL_OK(axl_buffer_release(out));
    AXL_OK(axl_kernel_release(busy));
    axl_test_rig_down(&r);
}

/* A board told to keep its design (axl_rtl_set_swaps(false), which
 * axl_test_emu_swaps calls on the RTL) refuses a second design's bundle
 * while the first's is held, as before issue 40, and loads nothing. */
static void a_board_that_keeps_its_design_refuses_a_second_one_2_5(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_designs_b_xclbin,
                                      axl_test_designs_b_xclbin_size));
    axl_test_emu_swaps(false);
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    AXL_OK(axl_image_register(axl_test_designs_b_xclbin,
                              axl_test_designs_b_xclbin_size));
    axl_kernel_id id;
    AXL_OK(axl_get_kernel_id("fir", &id));
    axl_kernel_bundle b;
    AXL_EXPECT(axl_get_kernel_bundle_for(r.ctx, &r.dev, 1, &id, 1,
                                         AXL_BUNDLE_EXECUTABLE, &b),
               AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("the device does not reprogram on demand");
    axl_test_rig_down(&r);
    axl_test_emu_swaps(true);
}

/* ---- Executable graphs across swaps (stage 4; 2.7) -------------------------
 * A graph of design B (fir) on the RTL, with busy (design A, the device's
 * own) as the other design's command: fir's sums come from its Verilated
 * unit, made again at each swap to B. */

/* An executable graph of design B: fir, recorded on the rig's queue. */
static axl_graph_exec graph_of_fir(axl_test_rig *r, fir_run *f, axl_graph *g)
{
    AXL_OK(axl_graph_create(r->ctx, r->dev, g));
    AXL_OK(axl_graph_begin_recording(*g, r->q));
    AXL_OK(fir_submit(r, f, NULL));
    AXL_OK(axl_graph_end_recording(*g, r->q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(*g, &x));
    return x;
}

/* fir's input for round k, written to I: each replay's output is its own. */
static void fir_input_for_round(axl_test_rig *r, fir_run *f, int k)
{
    for (int i = 0; i < FIR_N; i++)
        f->in[i] = (int16_t)((i * 977 + k * 4099) % 20000 - 10000);
    AXL_OK(axl_queue_copy_from_host(r->q, f->in, f->I, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r->q));
}

static void fir_check(axl_test_rig *r, fir_run *f)
{
    int16_t out[FIR_N];
    memset(out, 0, sizeof out);
    AXL_OK(axl_queue_copy_to_host(r->q, f->O, NULL, out, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r->q));
    for (int i = 0; i < FIR_N; i++)
        assert_int_equal(out[i], fir_at(f->in, f->coeff, i));
}

/* busy (design A) on queue q: rounds of 8 words 1,000 cycles apart. */
typedef struct busy_run {
    axl_kernel busy;
    axl_buffer out;
    uint32_t words, rounds, delay;
    axl_kernel_arg args[4];
} busy_run;

static void busy_up(axl_test_rig *r, busy_run *b, uint32_t rounds)
{
    b->busy = axl_test_rig_kernel(r, "busy");
    b->words = 8;
    b->rounds = rounds;
    b->delay = 1000;
    AXL_OK(axl_buffer_create(4, axl_range_1d(b->words), NULL, &b->out));
    busy_args(b->args, b->out, &b->words, &b->rounds, &b->delay);
}

static void busy_on(busy_run *b, axl_queue q, axl_event *e)
{
    AXL_OK(axl_queue_single_task(q, b->busy, b->args, 4, NULL, 0, e));
}

static void busy_down(busy_run *b)
{
    AXL_OK(axl_buffer_release(b->out));
    AXL_OK(axl_kernel_release(b->busy));
}

/*
 * 2.7: an executable graph of B (fir) replayed, A swapped back in by
 * busy, the graph replayed again, twice: each replay waits for B's turn
 * as a command would, binds again to fir's unit (the testbench made it
 * again at the load) and computes its round's output; each change of
 * design is one load in axl_stats_get's reprogramming row.
 */
static void a_graph_replays_after_its_design_was_swapped_out_and_back_2_7(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_designs_b_xclbin,
                                      axl_test_designs_b_xclbin_size));
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    fir_run f = fir_up(&r);
    busy_run b;
    busy_up(&r, &b, 1);
    axl_graph g;
    axl_graph_exec x = graph_of_fir(&r, &f, &g);
    const uint32_t loads0 = axl_test_pool("reprogramming").high_water;
    enum { ROUNDS = 2 };
    for (int k = 0; k < ROUNDS; k++) {
        fir_input_for_round(&r, &f, k);
        AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
        AXL_OK(axl_queue_wait_and_throw(r.q));
        busy_on(&b, r.q, NULL); /* A swapped back in */
        AXL_OK(axl_queue_wait_and_throw(r.q));
        fir_check(&r, &f); /* read back after the swap */
    }
    fir_input_for_round(&r, &f, ROUNDS);
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    /* A at the start: B, A, B, A, B. */
    assert_int_equal(axl_test_pool("reprogramming").high_water - loads0,
                     2 * ROUNDS + 1);
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    busy_down(&b);
    fir_check_and_down(&r, &f);
    axl_test_rig_down(&r);
}

static uint64_t profiled_at(axl_event e, axl_profiling_info what)
{
    uint64_t ns = 0;
    AXL_OK(axl_event_get_profiling(e, what, &ns));
    return ns;
}

/*
 * 2.7, 2.2: a graph of B submitted on another queue while busy (A) runs
 * (a good fraction of a second of the host's time) waits: no swap while a
 * run is out on the fabric. It starts after busy ended on the device's
 * clock (4.6.6 Table 36), B loads once, and fir's output is right.
 */
static void a_graph_waits_for_the_other_designs_run_in_flight_2_7(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_designs_b_xclbin,
                                      axl_test_designs_b_xclbin_size));
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    axl_test_rig r =
        axl_test_rig_up(AXL_QUEUE_IN_ORDER | AXL_QUEUE_ENABLE_PROFILING);
    fir_run f = fir_up(&r);
    busy_run b;
    busy_up(&r, &b, 40);
    axl_graph g;
    axl_graph_exec x = graph_of_fir(&r, &f, &g);
    fir_input_for_round(&r, &f, 0);
    axl_queue qb;
    AXL_OK(axl_queue_create(r.ctx, r.dev,
                            AXL_QUEUE_IN_ORDER | AXL_QUEUE_ENABLE_PROFILING,
                            NULL, &qb));
    const uint32_t loads0 = axl_test_pool("reprogramming").high_water;
    axl_event eb, eg;
    busy_on(&b, qb, &eb);
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, &eg));
    AXL_OK(axl_event_wait(eg));
    AXL_OK(axl_event_wait(eb));
    assert_true(profiled_at(eg, AXL_PROFILING_COMMAND_START) >=
                profiled_at(eb, AXL_PROFILING_COMMAND_END));
    AXL_OK(axl_event_release(eb));
    AXL_OK(axl_event_release(eg));
    AXL_OK(axl_queue_wait_and_throw(qb));
    fir_check(&r, &f);
    assert_int_equal(axl_test_pool("reprogramming").high_water - loads0, 1);
    AXL_OK(axl_queue_release(qb));
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    busy_down(&b);
    fir_check_and_down(&r, &f);
    axl_test_rig_down(&r);
}

/*
 * 2.7, 2.1, 4.6.5: with A loaded, a graph of B and a command of A, twice,
 * submitted back to back on an out-of-order queue with no wait between:
 * no submission fails, every one completes, fir's output is right.
 */
static void a_graph_and_a_command_of_two_designs_submitted_back_to_back_2_7(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_designs_b_xclbin,
                                      axl_test_designs_b_xclbin_size));
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    fir_run f = fir_up(&r);
    busy_run b;
    busy_up(&r, &b, 1);
    axl_graph g;
    axl_graph_exec x = graph_of_fir(&r, &f, &g);
    fir_input_for_round(&r, &f, 0);
    axl_queue q;
    AXL_OK(axl_queue_create(r.ctx, r.dev, 0, NULL, &q));
    axl_event e[4];
    AXL_OK(axl_queue_submit_graph(q, x, NULL, 0, &e[0]));
    busy_on(&b, q, &e[1]);
    AXL_OK(axl_queue_submit_graph(q, x, NULL, 0, &e[2]));
    busy_on(&b, q, &e[3]);
    AXL_OK(axl_queue_wait_and_throw(q));
    for (int i = 0; i < 4; i++) {
        axl_event_status st;
        axl_status es;
        AXL_OK(axl_event_get_status(e[i], &st, &es));
        assert_int_equal(st, AXL_EVENT_COMPLETE);
        AXL_OK(es);
        AXL_OK(axl_event_release(e[i]));
    }
    fir_check(&r, &f);
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    busy_down(&b);
    fir_check_and_down(&r, &f);
    axl_test_rig_down(&r);
}

/*
 * 2.7: a graph runs one design on a whole-fabric device: one of busy (A)
 * and fir (B) is refused at its submission, saying so; nothing loads.
 */
static void a_graph_of_two_designs_is_refused_at_its_submission_2_7(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_designs_b_xclbin,
                                      axl_test_designs_b_xclbin_size));
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    fir_run f = fir_up(&r);
    busy_run b;
    busy_up(&r, &b, 1);
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r.q));
    busy_on(&b, r.q, NULL);
    AXL_OK(fir_submit(&r, &f, NULL));
    AXL_OK(axl_graph_end_recording(g, r.q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    const uint32_t loads0 = axl_test_pool("reprogramming").high_water;
    AXL_EXPECT(axl_queue_submit_graph(r.q, x, NULL, 0, NULL),
               AXL_ERR_FEATURE_NOT_SUPPORTED);
    AXL_MESSAGE_HAS("a graph runs one design");
    AXL_OK(axl_queue_wait_and_throw(r.q));
    assert_int_equal(axl_test_pool("reprogramming").high_water, loads0);
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    busy_down(&b);
    AXL_OK(axl_buffer_release(f.I));
    AXL_OK(axl_buffer_release(f.C));
    AXL_OK(axl_buffer_release(f.O));
    AXL_OK(axl_kernel_release(f.fir));
    axl_test_rig_down(&r);
}
#endif /* AXL_TEST_DESIGNS_B */

#define T(f) cmocka_unit_test_setup_teardown(f, axl_test_setup, axl_test_teardown)

int main(int argc, char **argv)
{
    if (axl_test_without_reader()) /* no design, no device */
        return 0;
#if defined(AXL_TEST_DESIGNS_B)
    /* "graphs": stage 4's graphs across swaps, one rule a ctest test
     * (AXL_TEST_ONLY). */
    const struct CMUnitTest graphs[] = {
        T(a_graph_replays_after_its_design_was_swapped_out_and_back_2_7),
        T(a_graph_waits_for_the_other_designs_run_in_flight_2_7),
        T(a_graph_and_a_command_of_two_designs_submitted_back_to_back_2_7),
        T(a_graph_of_two_designs_is_refused_at_its_submission_2_7),
    };
    if (argc > 1 && !strcmp(argv[1], "graphs")) {
        if (getenv("AXL_TEST_ONLY"))
            cmocka_set_test_filter(getenv("AXL_TEST_ONLY"));
        return cmocka_run_group_tests_name("graphs", graphs, NULL, NULL);
    }
#endif
    (void)argc;
    (void)argv;
    const struct CMUnitTest tests[] = {
        T(the_device_is_rtl_simulation_under_verilator_4_6_4_2),
        T(a_timeout_counts_the_designs_simulated_clock),
        T(a_unit_with_ap_sw_reset_runs_again_after_its_timeout),
        T(two_units_run_at_once_in_simulated_time),
        T(runs_end_by_interrupt_where_the_board_wires_it),
        T(memory_a_given_up_run_writes_is_not_handed_out_until_it_ends),
        T(memory_a_hung_unit_writes_is_not_handed_out_until_its_reset),
        T(a_kernel_without_rtl_fails_naming_axl_add_rtl_kernel),
#if defined(AXL_TEST_DESIGNS_B)
        T(a_hung_unit_fails_the_other_designs_commands_at_once_2_5),
        T(a_board_that_keeps_its_design_refuses_a_second_one_2_5),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
