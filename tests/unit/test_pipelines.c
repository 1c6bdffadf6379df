/*
 * Streaming pipelines (axl/pipeline.h, docs/streaming.md) on every port
 * this program is linked for: the emulated device (label unit), the mmio
 * port on the C-model simulator (mmio_test_pipelines, label mmio) and on
 * the stream kernels' own RTL (rtl_test_pipelines, label rtl), each
 * carrying the design of bitstreams/streams.cfg:
 *
 *   mm2s_1 -> sadd_1 -> s2mm_1   FIFOs of 64 (sadd_1 ap_ctrl_chain)
 *   mm2s_2 -> sinc_1 -> s2mm_2   a FIFO of 16, then a direct join
 *                                (sinc_1 ap_ctrl_none: free-running)
 *
 * mm2s and s2mm are ordinary commands; sadd_1 runs on auto-restart or as
 * a command; sinc_1 is the design's free-running unit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "axl/axl.h"
#include "axl/emu.h"
#include "axl/plan.h"
#include "axl_config.h"
#include "axl_reader_skip.h"
#include "axl_test.h"

#if defined(AXL_TEST_RTL) && AXL_TEST_RTL
#define ON_RTL 1
#else
#define ON_RTL 0
#endif
#if defined(AXL_TEST_MMIO) && AXL_TEST_MMIO
#define ON_MMIO 1
#else
#define ON_MMIO 0
#endif

static int teardown(void **state)
{
    axl_emu_set_deterministic(false);
    return axl_test_teardown(state);
}

/* The rig's queue and the stock design's streaming kernels (sadd's
 * bundle holds the whole design: the rig's kernel is sadd). */
typedef struct rig {
    axl_test_rig t;
    axl_kernel mm2s, s2mm, sadd; /* mm2s_1, s2mm_1, sadd_1 */
    axl_kernel mm2s2, s2mm2;     /* mm2s_2, s2mm_2 */
} rig;

static axl_kernel by_name(const axl_test_rig *t, const char *name)
{
    axl_kernel k;
    AXL_OK(axl_kernel_bundle_get_kernel_by_name(t->bundle, name, &k));
    return k;
}

static rig up(uint32_t flags)
{
    rig r;
    r.t = axl_test_rig_as(
        (axl_test_rig_config){.flags = flags, .kernel = "sadd"});
    r.sadd = r.t.kernel;
    r.mm2s = by_name(&r.t, "mm2s:{mm2s_1}");
    r.s2mm = by_name(&r.t, "s2mm:{s2mm_1}");
    r.mm2s2 = by_name(&r.t, "mm2s:{mm2s_2}");
    r.s2mm2 = by_name(&r.t, "s2mm:{s2mm_2}");
    return r;
}

/* The queue's errors (commands that failed on purpose), consumed. */
static void drain_errors(axl_queue q)
{
    for (int i = 0; i < 8 && axl_queue_throw_asynchronous(q) != AXL_SUCCESS;
         i++)
        ;
}

static void down(rig *r)
{
    AXL_OK(axl_queue_wait(r->t.q));
    drain_errors(r->t.q);
    axl_kernel *k[] = {&r->mm2s, &r->s2mm, &r->mm2s2, &r->s2mm2};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        AXL_OK(axl_kernel_release(*k[i]));
    axl_test_rig_down(&r->t); /* sadd with it */
}

/* The pipeline through sadd_1 (on auto-restart when restart). */
static axl_pipeline sadd_pipeline(const rig *r, bool restart, uint32_t addend,
                                  uint64_t start_timeout,
                                  uint64_t stop_timeout)
{
    static const char *const names[] = {"sadd_1"};
    axl_pipeline_desc d = {r->t.bundle, "sadd_1", names, restart ? 1u : 0u,
                           start_timeout, stop_timeout};
    axl_pipeline p;
    AXL_OK(axl_pipeline_create(r->t.q, &d, &p));
    if (restart)
        AXL_OK(axl_pipeline_set_arg(p, "sadd_1", 2, &addend, 4));
    AXL_OK(axl_pipeline_start(p));
    return p;
}

/* Waits until sadd_1 (unit 1) has ended n iterations. A packet is back
 * once s2mm took its last beat; sadd_1 wrote that beat, but on the
 * emulated device its model may not have returned yet, so its iteration
 * (and the restart that begins the next) can end after the packet does.
 * On a board it ends first by far (s2mm still writes memory); a test that
 * stops or updates "the next iteration" waits for this first. */
static void ended(axl_pipeline p, uint32_t n)
{
    const struct timespec nap = {0, 100000};
    for (int i = 0; i < 100000; i++) {
        axl_pipeline_unit_info ui;
        AXL_OK(axl_pipeline_get_unit(p, 1, &ui));
        assert_string_equal(ui.name, "sadd_1");
        if (ui.iterations >= n)
            return;
        nanosleep(&nap, NULL);
    }
    fail_msg("sadd_1 did not end %u iterations within 10 s", (unsigned)n);
}

static uint32_t src[1024], dst[1024];

static void fill(uint32_t n, uint32_t seed)
{
    for (uint32_t i = 0; i < n; i++)
        src[i] = (i + seed) * 2654435761u;
    memset(dst, 0xEE, sizeof dst);
}

static void check_plus(uint32_t n, uint32_t add)
{
    for (uint32_t i = 0; i < n; i++)
        if (dst[i] != src[i] + add)
            fail_msg("dst[%u] = 0x%x, want 0x%x (src + %u)", (unsigned)i,
                     (unsigned)dst[i], (unsigned)(src[i] + add),
                     (unsigned)add);
}

/* Buffers over src (n_out words) and dst (n_in) and mm2s(src, n_out),
 * s2mm(dst, n_in) on the given units, submitted producer first (the
 * runtime starts the consumer first) or, consumer_first, s2mm first;
 * nothing waited for. */
static void submit_packet(const rig *r, axl_kernel mm2s, axl_kernel s2mm,
                          uint32_t n_out, uint32_t n_in, bool consumer_first,
                          axl_buffer *S, axl_buffer *D, axl_event *e1,
                          axl_event *e2)
{
    AXL_OK(axl_buffer_create_from_const(src, 4, axl_range_1d(n_out), NULL,
                                        S));
    AXL_OK(axl_buffer_create_from(dst, 4, axl_range_1d(n_in), NULL, D));
    /* Argument ids as the XML gives them: a stream argument has one too
     * (mm2s: src 0, data_out 1, n 2; s2mm: data_in 0, dst 1, n 2). */
    for (int i = 0; i < 2; i++) {
        if ((i == 0) != consumer_first)
            AXL_OK(axl_queue_single_task(
                r->t.q, mm2s, AXL_ARGS(AXL_ARG_AT(0, AXL_ARG_IN(*S)),
                                     AXL_ARG_AT(2, AXL_ARG_U32(n_out))),
                NULL, 0, e1));
        else
            AXL_OK(axl_queue_single_task(
                r->t.q, s2mm, AXL_ARGS(AXL_ARG_AT(1, AXL_ARG_OUT(*D)),
                                     AXL_ARG_AT(2, AXL_ARG_U32(n_in))),
                NULL, 0, e2));
    }
}

/* mm2s(src, n) then s2mm(dst, n) on the given units, in that order (the
 * producer first: the runtime starts the consumer first); dst's contents
 * come back at its release. The events are returned when asked. */
static void packet(const rig *r, axl_kernel mm2s, axl_kernel s2mm,
                   uint32_t n_out, uint32_t n_in, axl_event *sent,
                   axl_event *got)
{
    axl_buffer S, D;
    axl_event e1, e2;
    submit_packet(r, mm2s, s2mm, n_out, n_in, false, &S, &D, &e1, &e2);
    AXL_OK(axl_buffer_release(S));
    AXL_OK(axl_buffer_release(D)); /* waits for s2mm, writes dst back */
    if (sent)
        *sent = e1;
    else
        AXL_OK(axl_event_release(e1));
    if (got)
        *got = e2;
    else
        AXL_OK(axl_event_release(e2));
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- The three-kernel pipeline ----------------------------------------------- */

/* mm2s -> sadd (auto-restart) -> s2mm computes src + addend, packet after
 * packet, with sadd_1 started once; the same bytes on every port. */
static void three_kernel_pipeline_computes_the_same_bytes_on_every_port(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_pipeline_create(AXL_NO_QUEUE, NULL, NULL));
    rig r = up(0);
    axl_pipeline p = sadd_pipeline(&r, true, 0x10001, 0, 0);
    for (uint32_t k = 0; k < 3; k++) {
        const uint32_t n = 100 + 150 * k;
        fill(n, k);
        packet(&r, r.mm2s, r.s2mm, n, n, NULL, NULL);
        check_plus(n, 0x10001);
        assert_int_equal(dst[n], 0xEEEEEEEEu);
    }
    axl_pipeline_unit_info ui;
    AXL_OK(axl_pipeline_get_unit(p, 1, &ui));
    assert_string_equal(ui.name, "sadd_1");
    assert_int_equal(ui.kind, AXL_PIPELINE_AUTO_RESTART);
    assert_true(ui.iterations >= 2); /* the third may not be counted yet */
    AXL_OK(axl_pipeline_release(p));
    down(&r);
}

/* sadd_1 as a command: the three commands, submitted producer first,
 * run consumers first and compute the same. */
static void a_pipeline_of_commands_runs_in_any_submission_order(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_pipeline_create(AXL_NO_QUEUE, NULL, NULL));
    rig r = up(0);
    axl_pipeline p = sadd_pipeline(&r, false, 0, 0, 0);
    const uint32_t n = 300, add = 42;
    fill(n, 7);
    axl_buffer S, D;
    AXL_OK(axl_buffer_create_from_const(src, 4, axl_range_1d(n), NULL, &S));
    AXL_OK(axl_buffer_create_from(dst, 4, axl_range_1d(n), NULL, &D));
    AXL_OK(axl_queue_single_task(
        r.t.q, r.mm2s, AXL_ARGS(AXL_ARG_AT(0, AXL_ARG_IN(S)),
                              AXL_ARG_AT(2, AXL_ARG_U32(n))),
        NULL, 0, NULL));
    AXL_OK(axl_queue_single_task(r.t.q, r.sadd,
                                 AXL_ARGS(AXL_ARG_AT(2, AXL_ARG_U32(add))),
                                 NULL, 0, NULL));
    AXL_OK(axl_queue_single_task(
        r.t.q, r.s2mm, AXL_ARGS(AXL_ARG_AT(1, AXL_ARG_OUT(D)),
                              AXL_ARG_AT(2, AXL_ARG_U32(n))),
        NULL, 0, NULL));
    AXL_OK(axl_buffer_release(S));
    AXL_OK(axl_buffer_release(D));
    check_plus(n, add);
    AXL_OK(axl_pipeline_release(p));
    down(&r);
}

static char trace_doc[256 * 1024];
static size_t trace_len;

static void trace_sink(const char *text, size_t len, void *user)
{
    (void)user;
    if (trace_len + len < sizeof trace_doc) {
        memcpy(trace_doc + trace_len, text, len);
        trace_len += len;
        trace_doc[trace_len] = '\0';
    }
}

/* Submitted mm2s first, then s2mm: s2mm starts first (its profiling start
 * is earlier), mm2s having been held until its consumers started; the
 * trace shows the hold and the pipeline's events. */
static void a_producer_submitted_first_starts_after_its_consumers(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_pipeline_create(AXL_NO_QUEUE, NULL, NULL));
    axl_test_clock_install(1000, 10); /* strictly rising times */
    const bool traced = AXL_TRACE_EVENTS > 0;
    if (traced) {
        AXL_OK(axl_trace_clear());
        AXL_OK(axl_trace_enable(true));
    }
    rig r = up(AXL_QUEUE_ENABLE_PROFILING);
    axl_pipeline p = sadd_pipeline(&r, true, 5, 0, 0);
    const uint32_t n = 200;
    fill(n, 3);
    axl_event sent, got;
    packet(&r, r.mm2s, r.s2mm, n, n, &sent, &got);
    check_plus(n, 5);
    uint64_t t_mm2s = 1, t_s2mm = 0; /* profiling switched off: the
                                        unit order and trace below */
    if (AXL_FEATURE_PROFILING) {
        AXL_OK(axl_event_get_profiling(sent, AXL_PROFILING_COMMAND_START,
                                       &t_mm2s));
        AXL_OK(axl_event_get_profiling(got, AXL_PROFILING_COMMAND_START,
                                       &t_s2mm));
    }
    if (!(t_s2mm < t_mm2s))
        fail_msg("s2mm started at %llu, mm2s at %llu: the producer first",
                 (unsigned long long)t_s2mm, (unsigned long long)t_mm2s);
    AXL_OK(axl_event_release(sent));
    AXL_OK(axl_event_release(got));
    axl_pipeline_unit_info ui;
    AXL_OK(axl_pipeline_get_unit(p, 0, &ui));
    assert_string_equal(ui.name, "s2mm_1"); /* consumers first */
    AXL_OK(axl_pipeline_get_unit(p, 2, &ui));
    assert_string_equal(ui.name, "mm2s_1");
    assert_int_equal(ui.commands, 1);
    AXL_OK(axl_pipeline_release(p));
    down(&r);
    if (traced) {
        AXL_OK(axl_trace_enable(false));
        trace_len = 0;
        AXL_OK(axl_trace_format(trace_sink, NULL, 0));
        const char *want[] = {"\"pipeline_start\"", "\"unit_start\"",
                              "\"command_held\"", "\"command_released\"",
                              "pipeline 1: sadd_1"};
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
            if (!strstr(trace_doc, want[i]))
                fail_msg("the trace has no %s", want[i]);
    }
    axl_test_clock_remove();
}

/* ---- Refusals at submit -------------------------------------------------- */

/* A stream argument is the design's: setting it is errc::kernel_argument
 * naming the stream and its connection (argument ids by position put n on
 * mm2s's data_out). */
static void a_stream_argument_set_by_the_host_is_refused_naming_its_stream(
    void **s)
{
    (void)s;
    rig r = up(0);
    axl_buffer S;
    AXL_OK(axl_buffer_create_from_const(src, 4, axl_range_1d(16), NULL, &S));
    AXL_EXPECT(axl_queue_single_task(r.t.q, r.mm2s,
                                     AXL_ARGS(AXL_ARG_IN(S), AXL_ARG_U32(16)),
                                     NULL, 0, NULL),
               AXL_FEATURE_STREAMS ? AXL_ERR_KERNEL_ARGUMENT
                                   : AXL_ERR_FEATURE_NOT_SUPPORTED);
    if (AXL_FEATURE_STREAMS) {
        AXL_MESSAGE_HAS("argument 1 (data_out) of mm2s is an AXI4-Stream "
                        "port");
        AXL_MESSAGE_HAS("mm2s_1.data_out->sadd_1.data_in (FIFO of 64)");
    } else {
        AXL_MESSAGE_HAS("AXL_FEATURE_STREAMS");
    }
    AXL_OK(axl_buffer_release(S));
    down(&r);
}

/* A command on a unit of no pipeline, or of one not started, is
 * AXL_ERR_BAD_STATE saying so: nothing else would start its peers. */
static void a_command_on_a_unit_of_no_started_pipeline_is_refused(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_pipeline_create(AXL_NO_QUEUE, NULL, NULL));
    rig r = up(0);
    axl_buffer S;
    AXL_OK(axl_buffer_create_from_const(src, 4, axl_range_1d(16), NULL, &S));
    const axl_kernel_arg args[] = {AXL_ARG_AT(0, AXL_ARG_IN(S)),
                                   AXL_ARG_AT(2, AXL_ARG_U32(16))};
    AXL_EXPECT(axl_queue_single_task(r.t.q, r.mm2s, args, 2, NULL, 0, NULL),
               AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("mm2s_1 is a unit of no pipeline");
    axl_pipeline_desc d = {r.t.bundle, "mm2s_1", NULL, 0, 0, 0};
    axl_pipeline p;
    AXL_OK(axl_pipeline_create(r.t.q, &d, &p));
    AXL_EXPECT(axl_queue_single_task(r.t.q, r.mm2s, args, 2, NULL, 0, NULL),
               AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("which is not started: axl_pipeline_start first");
    axl_pipeline_state st;
    uint32_t units = 0;
    AXL_OK(axl_pipeline_get_state(p, &st, &units, NULL));
    assert_int_equal(st, AXL_PIPELINE_CREATED);
    assert_int_equal(units, 3);
    /* A kernel object on both of mm2s's units names no one unit. */
    axl_kernel both;
    AXL_OK(axl_kernel_bundle_get_kernel_by_name(r.t.bundle, "mm2s", &both));
    AXL_EXPECT(axl_queue_single_task(r.t.q, both, args, 2, NULL, 0, NULL),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("axl_kernel_select_units");
    AXL_OK(axl_kernel_release(both));
    AXL_OK(axl_pipeline_release(p));
    AXL_OK(axl_buffer_release(S));
    down(&r);
}

/* An ap_ctrl_none unit has no ap_start: a plain launch of sinc is
 * refused at submit saying so, on every port (XRT's xrt::kernel refuses
 * one too), before any pipeline is looked for. */
static void a_free_running_kernel_takes_no_plain_launch(void **s)
{
    (void)s;
    rig r = up(0);
    axl_kernel sinc;
    AXL_OK(axl_kernel_bundle_get_kernel_by_name(r.t.bundle, "sinc", &sinc));
    const uint32_t inc = 1;
    AXL_EXPECT(axl_queue_single_task(r.t.q, sinc,
                                     AXL_ARGS(AXL_ARG_AT(2, AXL_ARG_U32(inc))),
                                     NULL, 0, NULL),
               AXL_ERR_KERNEL_NOT_SUPPORTED);
    AXL_MESSAGE_HAS("kernel sinc is ap_ctrl_none (free-running)");
    AXL_OK(axl_kernel_release(sinc));
    down(&r);
}

/* A producer whose consumer never starts fails at the start timeout,
 * naming the unit that did not start and the pipe into it. */
static void a_held_command_times_out_naming_the_consumer_never_started(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_pipeline_create(AXL_NO_QUEUE, NULL, NULL));
    rig r = up(0);
    axl_pipeline p = sadd_pipeline(&r, true, 1, 30000000u, 0);
    axl_buffer S;
    AXL_OK(axl_buffer_create_from_const(src, 4, axl_range_1d(16), NULL, &S));
    axl_event e;
    AXL_OK(axl_queue_single_task(
        r.t.q, r.mm2s, AXL_ARGS(AXL_ARG_AT(0, AXL_ARG_IN(S)),
                              AXL_ARG_AT(2, AXL_ARG_U32(16))),
        NULL, 0, &e));
    AXL_EXPECT(axl_event_wait(e), AXL_ERR_TIMEOUT);
    AXL_MESSAGE_HAS("mm2s_1 waited 30 ms for s2mm_1 downstream to start");
    AXL_MESSAGE_HAS("(pipe sadd_1.data_out->s2mm_1.data_in)");
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_buffer_release(S));
    AXL_OK(axl_pipeline_release(p));
    down(&r);
}

/* ---- Deadlock ---------------------------------------------------------------- */

/* s2mm takes 10 of the 1000 words mm2s sends: once it has ended, mm2s and
 * sadd wait on full FIFOs for ever. The emulated device (and the RTL
 * testbench, after its window) fails the command with one message naming
 * the units, the FIFOs and their fill; never a hang. */
static void deadlock_run(const rig *r, char *why, size_t cap)
{
    axl_pipeline p = sadd_pipeline(r, true, 1, 0, 0);
    fill(1000, 1);
    axl_buffer S, D;
    AXL_OK(axl_buffer_create_from_const(src, 4, axl_range_1d(1000), NULL,
                                        &S));
    AXL_OK(axl_buffer_create_from(dst, 4, axl_range_1d(10), NULL, &D));
    axl_event sent, got;
    const double t0 = seconds_now();
    AXL_OK(axl_queue_single_task(
        r->t.q, r->mm2s, AXL_ARGS(AXL_ARG_AT(0, AXL_ARG_IN(S)),
                                AXL_ARG_AT(2, AXL_ARG_U32(1000))),
        NULL, 0, &sent));
    AXL_OK(axl_queue_single_task(
        r->t.q, r->s2mm, AXL_ARGS(AXL_ARG_AT(1, AXL_ARG_OUT(D)),
                                AXL_ARG_AT(2, AXL_ARG_U32(10))),
        NULL, 0, &got));
    AXL_OK(axl_event_wait(got));
    AXL_EXPECT(axl_event_wait(sent), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("deadlock");
    printf("# deadlock found in %.3f s of wall time\n", seconds_now() - t0);
    axl_pipeline_state st;
    axl_pipeline_report rep;
    AXL_OK(axl_pipeline_get_state(p, &st, NULL, &rep));
    assert_int_equal(st, AXL_PIPELINE_FAILED);
    snprintf(why, cap, "%s", rep.why);
    /* Back to created, the FIFOs as they are; then let go. */
    axl_pipeline_report rr;
    AXL_OK(axl_pipeline_reset(p, &rr));
    AXL_OK(axl_pipeline_get_state(p, &st, NULL, NULL));
    assert_int_equal(st, AXL_PIPELINE_CREATED);
    AXL_OK(axl_event_release(sent));
    AXL_OK(axl_event_release(got));
    AXL_OK(axl_buffer_release(S));
    AXL_OK(axl_buffer_release(D));
    AXL_OK(axl_pipeline_release(p));
}

static void want_deadlock_message(const char *why)
{
    const char *want[] = {
        "deadlock",
        "mm2s_1 writes full mm2s_1.data_out->sadd_1.data_in (64 of 64)",
        "sadd_1 writes full sadd_1.data_out->s2mm_1.data_in (64 of 64)"};
    for (size_t i = 0; i < 3; i++)
        if (axl_test_messages() && !strstr(why, want[i]))
            fail_msg("the pipeline failed with \"%s\"; no \"%s\"", why,
                     want[i]);
}

static char first_why[256];

static void a_deadlocked_pipeline_fails_naming_units_fifos_and_fill(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_pipeline_create(AXL_NO_QUEUE, NULL, NULL));
    if (ON_MMIO && !ON_RTL) {
        print_message("the C-model simulator does not look for deadlocks "
                      "(a board's runs end at their timeout)\n");
        skip();
    }
    rig r = up(0);
    deadlock_run(&r, first_why, sizeof first_why);
    printf("# %s\n", first_why);
    want_deadlock_message(first_why);
    down(&r);
}

/* The emulated device's deterministic mode (one model at a time, the
 * baton passed at each op that waits) finds the same deadlock, in the
 * same words. */
static void deterministic_mode_finds_the_same_deadlock(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_pipeline_create(AXL_NO_QUEUE, NULL, NULL));
    if (ON_MMIO) {
        print_message("the emulated device's mode\n");
        skip();
    }
    AXL_OK(axl_emu_set_deterministic(true));
    rig r = up(0);
    char why[256];
    deadlock_run(&r, why, sizeof why);
    want_deadlock_message(why);
    if (first_why[0])
        assert_string_equal(why, first_why);
    down(&r);
}

/* ---- Free-running and auto-restart units -------------------------------------------- */

/* sinc_1 runs free (ap_ctrl_none) between mm2s_2 and s2mm_2 with the
 * scalar set before start; a new one applies at once. */
static void a_free_running_unit_adds_its_scalar_and_takes_a_new_one(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_pipeline_create(AXL_NO_QUEUE, NULL, NULL));
    rig r = up(0);
    axl_pipeline_desc d = {r.t.bundle, "sinc_1", NULL, 0, 0, 0};
    axl_pipeline p;
    AXL_OK(axl_pipeline_create(r.t.q, &d, &p));
    const uint32_t inc = 7, inc2 = 9;
    AXL_EXPECT(axl_pipeline_start(p), AXL_ERR_KERNEL_ARGUMENT);
    AXL_MESSAGE_HAS("argument 2 of sinc_1 was not set");
    AXL_OK(axl_pipeline_set_arg(p, "sinc_1", 2, &inc, 4));
    AXL_OK(axl_pipeline_start(p));
    axl_pipeline_unit_info ui;
    AXL_OK(axl_pipeline_get_unit(p, 1, &ui));
    assert_string_equal(ui.name, "sinc_1");
    assert_int_equal(ui.kind, AXL_PIPELINE_FREE_RUNNING);
    fill(50, 2);
    packet(&r, r.mm2s2, r.s2mm2, 50, 50, NULL, NULL);
    check_plus(50, inc);
    AXL_OK(axl_pipeline_update_arg(p, "sinc_1", 2, &inc2, 4, 100000000u));
    fill(60, 4);
    packet(&r, r.mm2s2, r.s2mm2, 60, 60, NULL, NULL);
    check_plus(60, inc2);
    AXL_OK(axl_pipeline_release(p));
    down(&r);
}

/* sadd_1 on auto-restart takes a new addend through its mailbox: the
 * iteration under way (waiting for the next packet) keeps its own, the
 * one after takes the new one. A second update while the first waits in
 * the mailbox times out, naming the unit, and changes nothing. */
static void an_auto_restart_unit_takes_an_update_at_its_next_iteration(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_pipeline_create(AXL_NO_QUEUE, NULL, NULL));
    rig r = up(0);
    axl_pipeline p = sadd_pipeline(&r, true, 1, 0, 0);
    fill(64, 1);
    packet(&r, r.mm2s, r.s2mm, 64, 64, NULL, NULL);
    check_plus(64, 1);
    ended(p, 1);
    const uint32_t a100 = 100, a200 = 200;
    AXL_OK(axl_pipeline_update_arg(p, "sadd_1", 2, &a100, 4, 1000000u));
    AXL_EXPECT(axl_pipeline_update_arg(p, "sadd_1", 2, &a200, 4, 20000u),
               AXL_ERR_TIMEOUT);
    AXL_MESSAGE_HAS("sadd_1");
    AXL_MESSAGE_HAS("nothing changed");
    fill(64, 2);
    packet(&r, r.mm2s, r.s2mm, 64, 64, NULL, NULL);
    check_plus(64, 1); /* the iteration under way */
    fill(64, 3);
    packet(&r, r.mm2s, r.s2mm, 64, 64, NULL, NULL);
    check_plus(64, 100); /* the next one */
    AXL_OK(axl_pipeline_release(p));
    down(&r);
}

/* sadd_1 on auto-restart ends one iteration per packet (the packet's
 * TLAST ends its run) and the port counts each, whatever the completion
 * mode: from the status register's done bit on the mmio ports, since the
 * control block of Vitis HLS 2022.2 on shows no iteration's end on its
 * control word; in interrupt mode the entry must leave auto_restart set
 * (the rtl_ and mmio_ variants run it polled and interrupt-driven). The
 * next iteration waits for a packet: not counted. */
static void an_auto_restart_unit_counts_each_iteration_it_ends(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_pipeline_create(AXL_NO_QUEUE, NULL, NULL));
    rig r = up(0);
    axl_pipeline p = sadd_pipeline(&r, true, 9, 0, 0);
    for (uint32_t k = 0; k < 4; k++) {
        const uint32_t n = 40 + 90 * k;
        fill(n, 10 + k);
        packet(&r, r.mm2s, r.s2mm, n, n, NULL, NULL);
        check_plus(n, 9);
        ended(p, k + 1);
    }
    axl_pipeline_unit_info ui;
    AXL_OK(axl_pipeline_get_unit(p, 1, &ui));
    assert_int_equal(ui.iterations, 4);
    assert_int_equal(ui.state, AXL_PIPELINE_UNIT_RESTARTING);
    AXL_OK(axl_pipeline_release(p));
    down(&r);
}

/* A stop while an iteration is under way (its packet submitted, consumer
 * first, and not waited for) clears auto-restart and waits for that
 * iteration's end: the stop succeeds, the iteration is counted (from the
 * status register: from 2022.2 the control word's one done comes as the
 * unit goes idle), and the unit, its final done continued, starts again.
 * On the RTL only, where nothing runs between the port's calls: on the
 * other ports the packet may be through before the stop. */
static void a_stop_during_an_iteration_waits_for_its_end_and_counts_it(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_pipeline_create(AXL_NO_QUEUE, NULL, NULL));
    if (!ON_RTL) {
        print_message("the packet may be through before the stop here\n");
        skip();
    }
    rig r = up(0);
    axl_pipeline p = sadd_pipeline(&r, true, 4, 0, 0);
    fill(100, 1);
    packet(&r, r.mm2s, r.s2mm, 100, 100, NULL, NULL);
    check_plus(100, 4);
    ended(p, 1);
    const uint32_t n = 500;
    fill(n, 2);
    axl_buffer S, D;
    submit_packet(&r, r.mm2s, r.s2mm, n, n, true, &S, &D, NULL, NULL);
    axl_pipeline_report rep;
    AXL_OK(axl_pipeline_stop(p, &rep));
    assert_int_equal(rep.not_stopped, 0);
    axl_pipeline_unit_info ui;
    AXL_OK(axl_pipeline_get_unit(p, 1, &ui));
    assert_int_equal(ui.iterations, 2);
    assert_int_equal(ui.state, AXL_PIPELINE_UNIT_STOPPED);
    AXL_OK(axl_buffer_release(S));
    AXL_OK(axl_buffer_release(D));
    check_plus(n, 4);
    /* Stopped, it starts again: the count from 0. */
    AXL_OK(axl_pipeline_start(p));
    fill(64, 3);
    packet(&r, r.mm2s, r.s2mm, 64, 64, NULL, NULL);
    check_plus(64, 4);
    ended(p, 1);
    AXL_OK(axl_pipeline_get_unit(p, 1, &ui));
    assert_int_equal(ui.iterations, 1);
    AXL_OK(axl_pipeline_release(p));
    down(&r);
}

/* The stop timeout of the tests that run past it. It also ends a
 * release's wait for a model to return from its reset: on the emulated
 * device that is the host's time, of which a loaded machine can spend
 * 20 us before the model's thread runs (the mmio ports' is simulated). */
#define STOP_NS (ON_MMIO ? 20000u : 50000000u)

/* Stop clears auto-restart and waits for sadd_1 to go idle; it waits for
 * its next packet, which never comes: past the stop timeout it is reset,
 * and the report names it. */
static void stop_past_its_timeout_names_the_unit_that_did_not_stop(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_pipeline_create(AXL_NO_QUEUE, NULL, NULL));
    rig r = up(0);
    axl_pipeline p = sadd_pipeline(&r, true, 3, 0, STOP_NS);
    fill(32, 1);
    packet(&r, r.mm2s, r.s2mm, 32, 32, NULL, NULL);
    check_plus(32, 3);
    ended(p, 1);
    axl_pipeline_report rep;
    AXL_EXPECT(axl_pipeline_stop(p, &rep), AXL_ERR_TIMEOUT);
    AXL_MESSAGE_HAS("sadd_1");
    assert_int_equal(rep.not_stopped, 1);
    assert_string_equal(rep.unit, "sadd_1");
    if (axl_test_messages() && !strstr(rep.why, "auto-restart was cleared"))
        fail_msg("the report says \"%s\"", rep.why);
    axl_pipeline_state st;
    AXL_OK(axl_pipeline_get_state(p, &st, NULL, NULL));
    assert_int_equal(st, AXL_PIPELINE_STOPPED);
    /* Stopped, it starts again and computes. */
    AXL_OK(axl_pipeline_start(p));
    fill(32, 5);
    packet(&r, r.mm2s, r.s2mm, 32, 32, NULL, NULL);
    check_plus(32, 3);
    AXL_OK(axl_pipeline_release(p));
    down(&r);
}

/* Drain is stop, then the pipes empty: s2mm_2 takes 5 of the 10 words
 * mm2s_2 sends through the free-running sinc_1, so beats stay in the
 * pipes (no deadlock: no command waits) and drain fails at the stop
 * timeout naming a pipe and its fill, the pipeline stopped all the same.
 * The mmio port cannot see the fabric's FIFOs and says so. (Last: the
 * beats stay in the device's FIFOs, as a fabric's do.) */
static void drain_names_a_pipe_that_still_holds_beats(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_pipeline_create(AXL_NO_QUEUE, NULL, NULL));
    rig r = up(0);
    axl_pipeline_desc d = {r.t.bundle, "sinc_1", NULL, 0, 0, STOP_NS};
    axl_pipeline p;
    AXL_OK(axl_pipeline_create(r.t.q, &d, &p));
    const uint32_t inc = 2;
    AXL_OK(axl_pipeline_set_arg(p, "sinc_1", 2, &inc, 4));
    AXL_OK(axl_pipeline_start(p));
    fill(10, 6);
    packet(&r, r.mm2s2, r.s2mm2, 10, 5, NULL, NULL);
    check_plus(5, inc);
    axl_pipeline_report rep;
    if (ON_MMIO) {
        AXL_EXPECT(axl_pipeline_drain(p, &rep),
                   AXL_ERR_FEATURE_NOT_SUPPORTED);
        AXL_MESSAGE_HAS("cannot see the fabric's FIFOs");
    } else {
        AXL_EXPECT(axl_pipeline_drain(p, &rep), AXL_ERR_TIMEOUT);
        AXL_MESSAGE_HAS("is stopped, not drained: pipe ");
        char after[64];
        snprintf(after, sizeof after, "beats %u ns after the stop",
                 (unsigned)STOP_NS);
        AXL_MESSAGE_HAS(after);
    }
    axl_pipeline_state st;
    AXL_OK(axl_pipeline_get_state(p, &st, NULL, NULL));
    assert_int_equal(st, AXL_PIPELINE_STOPPED);
    AXL_OK(axl_pipeline_release(p));
    down(&r);
}

/* ---- The design's pipes ---------------------------------------------------------- */

static void the_bundle_lists_its_designs_pipes_with_their_depths(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_kernel_bundle_get_pipes(AXL_NO_KERNEL_BUNDLE, NULL, 0,
                                               NULL));
    if (ON_RTL) {
        print_message("the RTL device's design is tests/rtl's\n");
        skip();
    }
    rig r = up(0);
    uint32_t n = 0;
    AXL_OK(axl_kernel_bundle_get_pipes(r.t.bundle, NULL, 0, &n));
    assert_int_equal(n, 4);
    axl_pipe_info pipes[4];
    AXL_OK(axl_kernel_bundle_get_pipes(r.t.bundle, pipes, 4, &n));
    assert_string_equal(pipes[0].name, "mm2s_1.data_out->sadd_1.data_in");
    assert_int_equal(pipes[0].min_capacity, 64);
    assert_int_equal(pipes[0].width_bits, 32);
    assert_int_equal(pipes[0].producer_arg, 1);
    assert_int_equal(pipes[0].consumer_arg, 0);
    assert_int_equal(pipes[3].min_capacity, 0); /* a direct join */
    assert_int_equal(pipes[2].producer_cu, 1);  /* mm2s_2 */
    AXL_EXPECT(axl_kernel_bundle_get_pipes(r.t.bundle, pipes, 2, &n),
               AXL_ERR_INVALID);
    down(&r);
}

/* ---- Graphs: a recorded pipeline (sycl_ext_oneapi_graph) ------------------- */

/* The pipeline through sadd_1 on auto-restart adding `add`, made and
 * given its scalar, not started. */
static axl_pipeline made_pipeline(const rig *r, uint32_t add)
{
    static const char *const names[] = {"sadd_1"};
    axl_pipeline_desc d = {r->t.bundle, "sadd_1", names, 1, 0, STOP_NS};
    axl_pipeline p;
    AXL_OK(axl_pipeline_create(r->t.q, &d, &p));
    AXL_OK(axl_pipeline_set_arg(p, "sadd_1", 2, &add, 4));
    return p;
}

/* A direct stop: sadd_1, on auto-restart, may wait for a next packet
 * that never comes, and is reset past the stop timeout. */
static void stop_direct(axl_pipeline p)
{
    const axl_status st = axl_pipeline_stop(p, NULL);
    if (st != AXL_SUCCESS && st != AXL_ERR_TIMEOUT)
        fail_msg("axl_pipeline_stop: %s", axl_last_message());
}

static void put_words(axl_buffer b, const uint32_t *w, uint32_t n)
{
    axl_host_accessor ha;
    void *p;
    AXL_OK(axl_host_accessor_create(b, AXL_ACCESS_WRITE, NULL, 0, &ha, &p));
    memcpy(p, w, n * 4u);
    AXL_OK(axl_host_accessor_release(ha));
}

static void get_words(axl_buffer b, uint32_t *w, uint32_t n)
{
    axl_host_accessor ha;
    void *p;
    AXL_OK(axl_host_accessor_create(b, AXL_ACCESS_READ, NULL, 0, &ha, &p));
    memcpy(w, p, n * 4u);
    AXL_OK(axl_host_accessor_release(ha));
}

static axl_status record_mm2s(const rig *r, axl_buffer S, uint32_t n)
{
    return axl_queue_single_task(
        r->t.q, r->mm2s,
        AXL_ARGS(AXL_ARG_AT(0, AXL_ARG_IN(S)), AXL_ARG_AT(2, AXL_ARG_U32(n))),
        NULL, 0, NULL);
}

static axl_status record_s2mm(const rig *r, axl_buffer D, uint32_t n)
{
    return axl_queue_single_task(
        r->t.q, r->s2mm,
        AXL_ARGS(AXL_ARG_AT(1, AXL_ARG_OUT(D)), AXL_ARG_AT(2, AXL_ARG_U32(n))),
        NULL, 0, NULL);
}

/* start, mm2s(S, n), s2mm(D, n), stop recorded on the rig's queue (out
 * of order: the graph orders the commands after the start, the stop
 * after them); the graph, finalized into *x unless x is NULL. */
static axl_graph record_packet(const rig *r, axl_pipeline p, axl_buffer S,
                               axl_buffer D, uint32_t n, axl_graph_exec *x)
{
    axl_graph g;
    AXL_OK(axl_graph_create(r->t.ctx, r->t.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r->t.q));
    AXL_OK(axl_pipeline_start(p));
    AXL_OK(record_mm2s(r, S, n));
    AXL_OK(record_s2mm(r, D, n));
    AXL_OK(axl_pipeline_stop(p, NULL));
    AXL_OK(axl_graph_end_recording(g, r->t.q));
    if (x)
        AXL_OK(axl_graph_finalize(g, x));
    return g;
}

static axl_status replay(const rig *r, axl_graph_exec x)
{
    axl_event e;
    axl_status st = axl_queue_submit_graph(r->t.q, x, NULL, 0, &e);
    if (st != AXL_SUCCESS)
        return st;
    st = axl_event_wait(e);
    AXL_OK(axl_event_release(e));
    return st;
}

/* A queue that records takes axl_pipeline_start and _stop as nodes and
 * runs neither (sycl_ext_oneapi_graph, "Recording": commands submitted
 * to a recording queue are not executed): the pipeline stays created. */
static void a_recording_queue_records_pipeline_start_and_stop_as_nodes(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_pipeline_create(AXL_NO_QUEUE, NULL, NULL));
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = up(0);
    axl_pipeline p = made_pipeline(&r, 5);
    axl_buffer S, D;
    AXL_OK(axl_buffer_create(4, axl_range_1d(64), NULL, &S));
    AXL_OK(axl_buffer_create(4, axl_range_1d(64), NULL, &D));
    axl_graph g = record_packet(&r, p, S, D, 64, NULL);
    uint32_t count;
    AXL_OK(axl_graph_node_count(g, &count));
    assert_int_equal(count, 4); /* start, mm2s, s2mm, stop */
    axl_pipeline_state state;
    AXL_OK(axl_pipeline_get_state(p, &state, NULL, NULL));
    assert_int_equal(state, AXL_PIPELINE_CREATED);
    /* Outside the recording they run again. */
    AXL_OK(axl_pipeline_start(p));
    AXL_OK(axl_pipeline_get_state(p, &state, NULL, NULL));
    assert_int_equal(state, AXL_PIPELINE_RUNNING);
    stop_direct(p);
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_buffer_release(S));
    AXL_OK(axl_buffer_release(D));
    AXL_OK(axl_pipeline_release(p));
    down(&r);
}

/* Commands recorded on a pipeline's units, with no dependency given on an
 * out-of-order queue, wait for the recorded start: a start that fails at
 * replay (the pipeline was started by hand meanwhile) skips them, and the
 * output buffer keeps its bytes. */
static void commands_on_pipeline_units_are_ordered_after_the_recorded_start(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_pipeline_create(AXL_NO_QUEUE, NULL, NULL));
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = up(0);
    axl_pipeline p = made_pipeline(&r, 5);
    const uint32_t n = 64;
    axl_buffer S, D;
    AXL_OK(axl_buffer_create(4, axl_range_1d(n), NULL, &S));
    AXL_OK(axl_buffer_create(4, axl_range_1d(n), NULL, &D));
    fill(n, 3);
    put_words(S, src, n);
    put_words(D, dst, n); /* 0xEE.. */
    axl_graph_exec x;
    axl_graph g = record_packet(&r, p, S, D, n, &x);
    AXL_OK(axl_pipeline_start(p));
    AXL_EXPECT(replay(&r, x), AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("node 0");
    drain_errors(r.t.q);
    axl_host_accessor ha;
    void *ptr;
    AXL_EXPECT(axl_host_accessor_create(D, AXL_ACCESS_READ, NULL, 0, &ha,
                                        &ptr),
               AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("failed writing"); /* s2mm skipped: never ran */
    stop_direct(p);
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_buffer_release(S));
    AXL_OK(axl_buffer_release(D));
    AXL_OK(axl_pipeline_release(p));
    down(&r);
}

/* A command on a pipeline's unit is recorded only between a recorded
 * start of its pipeline and its stop: before any start, and after the
 * stop, it is refused naming the unit (nothing recorded). */
static void a_unit_command_recorded_outside_a_recorded_start_is_refused(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_pipeline_create(AXL_NO_QUEUE, NULL, NULL));
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = up(0);
    axl_pipeline p = made_pipeline(&r, 5);
    axl_buffer S;
    AXL_OK(axl_buffer_create(4, axl_range_1d(64), NULL, &S));
    axl_graph g;
    AXL_OK(axl_graph_create(r.t.ctx, r.t.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r.t.q));
    AXL_EXPECT(record_mm2s(&r, S, 64), AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("mm2s_1 is a unit of pipeline");
    AXL_MESSAGE_HAS("no axl_pipeline_start of it before this command");
    AXL_OK(axl_pipeline_start(p));
    AXL_OK(record_mm2s(&r, S, 64));
    AXL_OK(axl_pipeline_stop(p, NULL));
    AXL_EXPECT(record_mm2s(&r, S, 64), AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("its stop is recorded already");
    uint32_t count;
    AXL_OK(axl_graph_node_count(g, &count));
    assert_int_equal(count, 3);
    AXL_OK(axl_graph_end_recording(g, r.t.q));
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_buffer_release(S));
    AXL_OK(axl_pipeline_release(p));
    down(&r);
}

/* A recorded start of a pipeline whose start the graph records already
 * (no stop between), and of a pipeline running now, are refused; so is a
 * recorded stop with no start before it. Nothing is recorded. */
static void a_recorded_start_twice_or_a_stop_without_start_is_refused(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_pipeline_create(AXL_NO_QUEUE, NULL, NULL));
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = up(0);
    axl_pipeline p = made_pipeline(&r, 5);
    axl_graph g;
    AXL_OK(axl_graph_create(r.t.ctx, r.t.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r.t.q));
    AXL_EXPECT(axl_pipeline_stop(p, NULL), AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("records no start of it before this stop");
    AXL_OK(axl_pipeline_start(p));
    AXL_EXPECT(axl_pipeline_start(p), AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("records its start already (node 0)");
    AXL_OK(axl_pipeline_stop(p, NULL));
    AXL_EXPECT(axl_pipeline_stop(p, NULL), AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("records no start of it before this stop");
    uint32_t count;
    AXL_OK(axl_graph_node_count(g, &count));
    assert_int_equal(count, 2);
    AXL_OK(axl_graph_end_recording(g, r.t.q));
    /* A pipeline running when the recording begins. */
    AXL_OK(axl_pipeline_start(p));
    axl_graph g2;
    AXL_OK(axl_graph_create(r.t.ctx, r.t.dev, &g2));
    AXL_OK(axl_graph_begin_recording(g2, r.t.q));
    AXL_EXPECT(axl_pipeline_start(p), AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("is started now");
    AXL_OK(axl_graph_end_recording(g2, r.t.q));
    stop_direct(p);
    AXL_OK(axl_graph_release(g2));
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_pipeline_release(p));
    down(&r);
}

/* A replay must not leave a pipeline it started running: finalize
 * refuses a graph with a start and no stop after it, naming the node. */
static void finalize_refuses_a_pipeline_start_with_no_stop_after_it(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_pipeline_create(AXL_NO_QUEUE, NULL, NULL));
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = up(0);
    axl_pipeline p = made_pipeline(&r, 5);
    axl_buffer S;
    AXL_OK(axl_buffer_create(4, axl_range_1d(64), NULL, &S));
    axl_graph g;
    AXL_OK(axl_graph_create(r.t.ctx, r.t.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r.t.q));
    AXL_OK(axl_pipeline_start(p));
    AXL_OK(record_mm2s(&r, S, 64));
    AXL_OK(axl_graph_end_recording(g, r.t.q));
    axl_graph_exec x;
    AXL_EXPECT(axl_graph_finalize(g, &x), AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("node 0 starts pipeline");
    AXL_MESSAGE_HAS("no node after it stops it");
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_buffer_release(S));
    AXL_OK(axl_pipeline_release(p));
    down(&r);
}

/* A graph of start, mm2s, s2mm, stop replays (twice, the input changed
 * between) and computes the bytes the same commands compute submitted
 * directly; the pipeline is stopped after each replay. On every port. */
static void a_replayed_pipeline_graph_computes_the_direct_runs_bytes(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_pipeline_create(AXL_NO_QUEUE, NULL, NULL));
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = up(0);
    const uint32_t n = 300, add = 0x10001; /* > a FIFO: a real stream */
    axl_pipeline p = made_pipeline(&r, add);
    axl_buffer S, D;
    AXL_OK(axl_buffer_create(4, axl_range_1d(n), NULL, &S));
    AXL_OK(axl_buffer_create(4, axl_range_1d(n), NULL, &D));
    axl_graph_exec x;
    axl_graph g = record_packet(&r, p, S, D, n, &x);
    static uint32_t want[1024], got[1024];
    for (uint32_t k = 0; k < 2; k++) {
        fill(n, 11 + k);
        AXL_OK(axl_pipeline_start(p)); /* the direct run */
        packet(&r, r.mm2s, r.s2mm, n, n, NULL, NULL);
        stop_direct(p);
        check_plus(n, add);
        memcpy(want, dst, n * 4u);
        put_words(S, src, n);
        memset(got, 0xEE, sizeof got);
        put_words(D, got, n);
        AXL_OK(replay(&r, x));
        get_words(D, got, n);
        assert_memory_equal(got, want, n * 4u);
        axl_pipeline_state state;
        AXL_OK(axl_pipeline_get_state(p, &state, NULL, NULL));
        assert_int_equal(state, AXL_PIPELINE_STOPPED);
    }
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_buffer_release(S));
    AXL_OK(axl_buffer_release(D));
    AXL_OK(axl_pipeline_release(p));
    down(&r);
}

/* A host task that takes 30 ms of the host's time. */
static axl_status slow_host_task(void *user)
{
    (void)user;
    const struct timespec nap = {0, 30 * 1000000L};
    nanosleep(&nap, NULL);
    return AXL_SUCCESS;
}

/*
 * A replayed pipeline waits for the host, not for itself: start, mm2s(S),
 * a host task of 30 ms, s2mm(D) after the host task, stop. mm2s fills the
 * FIFOs and stalls, sadd stalls, and s2mm is not started until the host
 * task ends: every running unit waits on a FIFO while the waiter gives
 * the device time, but the graph still has s2mm to give (the host's work
 * to come, hal.h queued), so no port calls it a deadlock (the RTL's
 * window is 4,096 cycles, 30 ms is tens of thousands), and the replay
 * computes the direct run's bytes. sycl_ext_oneapi_graph: a node runs
 * when its dependencies have, and only a node's own failure fails it.
 */
static void a_replay_waiting_on_a_host_task_is_not_a_deadlock(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_pipeline_create(AXL_NO_QUEUE, NULL, NULL));
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = up(0);
    const uint32_t n = 300, add = 0x20002; /* > the FIFOs: mm2s stalls */
    axl_pipeline p = made_pipeline(&r, add);
    axl_buffer S, D;
    AXL_OK(axl_buffer_create(4, axl_range_1d(n), NULL, &S));
    AXL_OK(axl_buffer_create(4, axl_range_1d(n), NULL, &D));
    axl_graph g;
    AXL_OK(axl_graph_create(r.t.ctx, r.t.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r.t.q));
    AXL_OK(axl_pipeline_start(p));
    AXL_OK(record_mm2s(&r, S, n));
    axl_event host;
    AXL_OK(axl_queue_host_task(r.t.q, slow_host_task, NULL, NULL, 0, &host));
    AXL_OK(axl_queue_single_task(
        r.t.q, r.s2mm,
        AXL_ARGS(AXL_ARG_AT(1, AXL_ARG_OUT(D)), AXL_ARG_AT(2, AXL_ARG_U32(n))),
        &host, 1, NULL));
    AXL_OK(axl_pipeline_stop(p, NULL));
    AXL_OK(axl_graph_end_recording(g, r.t.q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    fill(n, 7);
    put_words(S, src, n);
    static uint32_t got[1024];
    memset(got, 0xEE, sizeof got);
    put_words(D, got, n);
    const axl_status st = replay(&r, x);
    if (st != AXL_SUCCESS)
        fail_msg("the replay failed: %s", axl_last_message());
    get_words(D, got, n);
    for (uint32_t i = 0; i < n; i++)
        assert_int_equal(got[i], src[i] + add);
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_buffer_release(S));
    AXL_OK(axl_buffer_release(D));
    AXL_OK(axl_pipeline_release(p));
    down(&r);
}

/* A written plan (format 3) holds a pipeline: its auto-restart unit with
 * the scalar words the pipeline was given, and start and stop nodes that
 * index it; the executor's pipeline code is reached through the plan
 * (.pipelines), so a firmware whose plans hold none links none of it.
 * (tests/mmio/test_plan_pipes.c replays such a plan.) */
static void a_plan_of_a_pipeline_graph_carries_its_units_and_nodes(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_pipeline_create(AXL_NO_QUEUE, NULL, NULL));
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = up(0);
    axl_pipeline p = made_pipeline(&r, 0x10203);
    axl_buffer S, D;
    AXL_OK(axl_buffer_create(4, axl_range_1d(64), NULL, &S));
    AXL_OK(axl_buffer_create(4, axl_range_1d(64), NULL, &D));
    axl_graph_exec x;
    axl_graph g = record_packet(&r, p, S, D, 64, &x);
    size_t len = 0;
    AXL_OK(axl_plan_write(x, "pipe_plan", NULL, 0, &len));
    static char text[16384];
    assert_true(len < sizeof text);
    AXL_OK(axl_plan_write(x, "pipe_plan", text, sizeof text, &len));
    static const char *const want[] = {
        ".kind = AXL_PLAN_NODE_PIPE_START}, /* node 0: pipeline 0's start",
        ".kind = AXL_PLAN_NODE_PIPE_STOP}, /* node 3: pipeline 0's stop",
        "{.offset = 0x10, .value = 0x00010203}, /* sadd_1 addend",
        ".control = AXL_PLAN_PIPE_AUTO_RESTART,",
        ".name = \"sadd:sadd_1\", .word0 = 0, .nwords = 1}",
        "{.unit0 = 0, .nunits = 1, .stop_timeout_ns = ",
        ".pipes = pipe_plan_pipes,",
        ".pipelines = &axl_plan_pipelines,"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(text, want[i]))
            fail_msg("the plan lacks \"%s\":\n%s", want[i], text);
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_buffer_release(S));
    AXL_OK(axl_buffer_release(D));
    AXL_OK(axl_pipeline_release(p));
    down(&r);
}

int main(void)
{
    /* The design is streams.xclbin's bytes: without the reader the bundle
     * has no kernels to join. */
    if (axl_test_without_reader())
        return 0;
#define T(f) cmocka_unit_test_setup_teardown(f, axl_test_setup_streams, teardown)
    const struct CMUnitTest tests[] = {
        T(three_kernel_pipeline_computes_the_same_bytes_on_every_port),
        T(a_pipeline_of_commands_runs_in_any_submission_order),
        T(a_producer_submitted_first_starts_after_its_consumers),
        T(a_stream_argument_set_by_the_host_is_refused_naming_its_stream),
        T(a_command_on_a_unit_of_no_started_pipeline_is_refused),
        T(a_free_running_kernel_takes_no_plain_launch),
        T(a_held_command_times_out_naming_the_consumer_never_started),
        T(a_deadlocked_pipeline_fails_naming_units_fifos_and_fill),
        T(deterministic_mode_finds_the_same_deadlock),
        T(a_free_running_unit_adds_its_scalar_and_takes_a_new_one),
        T(an_auto_restart_unit_takes_an_update_at_its_next_iteration),
        T(an_auto_restart_unit_counts_each_iteration_it_ends),
        T(a_stop_during_an_iteration_waits_for_its_end_and_counts_it),
        T(stop_past_its_timeout_names_the_unit_that_did_not_stop),
        T(the_bundle_lists_its_designs_pipes_with_their_depths),
        T(drain_names_a_pipe_that_still_holds_beats),
        T(a_recording_queue_records_pipeline_start_and_stop_as_nodes),
        T(commands_on_pipeline_units_are_ordered_after_the_recorded_start),
        T(a_unit_command_recorded_outside_a_recorded_start_is_refused),
        T(a_recorded_start_twice_or_a_stop_without_start_is_refused),
        T(finalize_refuses_a_pipeline_start_with_no_stop_after_it),
        T(a_replayed_pipeline_graph_computes_the_direct_runs_bytes),
        T(a_replay_waiting_on_a_host_task_is_not_a_deadlock),
        T(a_plan_of_a_pipeline_graph_carries_its_units_and_nodes),
    };
    if (getenv("AXL_TEST_ONLY"))
        cmocka_set_test_filter(getenv("AXL_TEST_ONLY"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
