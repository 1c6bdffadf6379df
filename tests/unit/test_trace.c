/*
 * The trace ring and the log (include/axl/trace.h): what is recorded and
 * when, the ring's overwrite and drain rules, the formatter's argument
 * checks, and which log lines a level lets through. The JSON itself is
 * parsed by tests/trace/check_trace.py (python3's json module).
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axl_config.h"
#include "axl_test.h"

/* A sink into memory. */
static char doc[8u << 20]; /* a full host ring is about 3 MB of JSON */
static size_t doc_len;
static unsigned doc_calls;

static void mem_sink(const char *text, size_t len, void *user)
{
    (void)user;
    doc_calls++;
    if (doc_len + len < sizeof doc) {
        memcpy(doc + doc_len, text, len);
        doc_len += len;
        doc[doc_len] = '\0';
    }
}

static void doc_reset(void)
{
    doc_len = 0;
    doc_calls = 0;
    doc[0] = '\0';
}

static unsigned count(const char *hay, const char *needle)
{
    unsigned n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static axl_status nothing(void *user)
{
    (void)user;
    return AXL_SUCCESS;
}

static axl_status refuse(void *user)
{
    (void)user;
    return axl_fail(AXL_ERR_RUNTIME, "refused on purpose");
}

static axl_queue make_queue(uint32_t flags)
{
    axl_context none = AXL_NONE;
    axl_queue q;
    AXL_OK(axl_queue_create(none, axl_test_emu_device(), flags, NULL, &q));
    return q;
}

static void run_tasks(axl_queue q, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        AXL_OK(axl_queue_host_task(q, nothing, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q));
}

static int trace_setup(void **state)
{
    AXL_OK(axl_trace_enable(false));
    AXL_OK(axl_trace_clear());
    doc_reset();
    return axl_test_setup(state);
}

static int trace_teardown(void **state)
{
    AXL_OK(axl_trace_enable(false));
    AXL_OK(axl_trace_clear());
    axl_log_set(AXL_LOG_OFF, NULL, NULL);
    return axl_test_teardown(state);
}

static void trace_off_records_nothing(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    run_tasks(q, 5);
    axl_trace_stats st;
    AXL_OK(axl_trace_stats_get(&st));
    assert_int_equal(st.recorded, 0);
    assert_int_equal(st.held, 0);
    assert_false(axl_trace_enabled());
    AXL_OK(axl_trace_format(mem_sink, NULL, 0));
    assert_int_equal(count(doc, "\"ph\":\"X\""), 0);
    assert_non_null(strstr(doc, "\"traceEvents\":["));
    AXL_OK(axl_queue_release(q));
}

static void trace_records_one_slice_per_command_with_profiling_times(void **state)
{
    (void)state;
    axl_test_clock_install(1000000, 1000); /* every read: +1 us */
    AXL_OK(axl_trace_enable(true));
    axl_queue q = make_queue(AXL_QUEUE_ENABLE_PROFILING | AXL_QUEUE_IN_ORDER);
    axl_event e1, e2;
    AXL_OK(axl_queue_host_task(q, nothing, NULL, NULL, 0, &e1));
    AXL_OK(axl_queue_host_task(q, nothing, NULL, NULL, 0, &e2));
    AXL_OK(axl_queue_wait(q));
    uint64_t start, end;
    AXL_OK(axl_event_get_profiling(e2, AXL_PROFILING_COMMAND_START, &start));
    AXL_OK(axl_event_get_profiling(e2, AXL_PROFILING_COMMAND_END, &end));
    AXL_OK(axl_trace_format(mem_sink, NULL, 0));
    /* Two commands on the queue's track and on a host-task track. */
    assert_int_equal(count(doc, "\"cat\":\"command\""), 2);
    assert_int_equal(count(doc, "\"cat\":\"host_task\""), 2);
    char want[96];
    snprintf(want, sizeof want, "\"start_ns\":%llu,\"end_ns\":%llu",
             (unsigned long long)start, (unsigned long long)end);
    assert_non_null(strstr(doc, want));
    /* The in-order edge as an arrow, if the first was not done yet when
     * the second was submitted; either way the second lists it. */
    assert_non_null(strstr(doc, "\"deps\":[1]"));
    AXL_OK(axl_event_release(e1));
    AXL_OK(axl_event_release(e2));
    AXL_OK(axl_queue_release(q));
    axl_test_clock_remove();
}

static void trace_links_an_in_order_predecessor_gone_before_submission(void **state)
{
    (void)state;
    AXL_OK(axl_trace_enable(true));
    axl_queue q = make_queue(AXL_QUEUE_IN_ORDER);
    /* No events kept: the first command's event is gone once it is done,
     * before the second is submitted; the arrow is still drawn. */
    run_tasks(q, 1);
    run_tasks(q, 1);
    AXL_OK(axl_trace_format(mem_sink, NULL, 0));
    assert_int_equal(count(doc, "\"cat\":\"command\""), 2);
    assert_non_null(strstr(doc, "\"seq\":2,"));
    assert_int_equal(count(doc, "\"deps\":[1]"), 2); /* queue, worker */
    assert_int_equal(count(doc, "\"ph\":\"s\""), 1);
    assert_int_equal(count(doc, "\"ph\":\"f\""), 1);
    AXL_OK(axl_queue_release(q));
}

static void trace_ring_overwrites_the_oldest_and_counts_drops(void **state)
{
    (void)state;
    AXL_OK(axl_trace_enable(true));
    /* In order: commands complete, and so are recorded, in the order of
     * their numbers (on an out-of-order queue the first ten to complete
     * need not be the first ten submitted). */
    axl_queue q = make_queue(AXL_QUEUE_IN_ORDER);
    const unsigned extra = 10;
    for (unsigned done = 0; done < AXL_TRACE_EVENTS + extra;) {
        unsigned n = AXL_TRACE_EVENTS + extra - done;
        if (n > AXL_MAX_COMMANDS / 2)
            n = AXL_MAX_COMMANDS / 2;
        run_tasks(q, n);
        done += n;
    }
    axl_trace_stats st;
    AXL_OK(axl_trace_stats_get(&st));
    assert_int_equal(st.capacity, AXL_TRACE_EVENTS);
    assert_int_equal(st.held, AXL_TRACE_EVENTS);
    assert_int_equal(st.recorded, AXL_TRACE_EVENTS + extra);
    assert_int_equal(st.dropped, extra);
    AXL_OK(axl_trace_format(mem_sink, NULL, 0));
    assert_int_equal(count(doc, "\"cat\":\"command\""), AXL_TRACE_EVENTS);
    /* The oldest kept is the 11th command; the first ten are gone. */
    assert_non_null(strstr(doc, "\"seq\":11,"));
    assert_null(strstr(doc, "\"seq\":10,"));
    char dropped[48];
    snprintf(dropped, sizeof dropped, "\"dropped\":%u", extra);
    assert_non_null(strstr(doc, dropped));
    /* Written in pieces, never all at once. */
    assert_true(doc_calls > 1);
    AXL_OK(axl_queue_release(q));
}

static void trace_consume_drains_what_was_written(void **state)
{
    (void)state;
    AXL_OK(axl_trace_enable(true));
    axl_queue q = make_queue(0);
    run_tasks(q, 3);
    AXL_OK(axl_trace_format(mem_sink, NULL, AXL_TRACE_CONSUME));
    assert_int_equal(count(doc, "\"cat\":\"command\""), 3);
    axl_trace_stats st;
    AXL_OK(axl_trace_stats_get(&st));
    assert_int_equal(st.held, 0);
    assert_int_equal(st.recorded, 3);
    doc_reset();
    run_tasks(q, 1);
    AXL_OK(axl_trace_format(mem_sink, NULL, 0));
    assert_int_equal(count(doc, "\"cat\":\"command\""), 1);
    /* Without CONSUME the record stays. */
    doc_reset();
    AXL_OK(axl_trace_format(mem_sink, NULL, 0));
    assert_int_equal(count(doc, "\"cat\":\"command\""), 1);
    AXL_OK(axl_queue_release(q));
}

static void trace_keeps_failures_and_unrun_dependents(void **state)
{
    (void)state;
    AXL_OK(axl_trace_enable(true));
    axl_queue q = make_queue(0);
    axl_event bad, after;
    AXL_OK(axl_queue_host_task(q, refuse, NULL, NULL, 0, &bad));
    AXL_OK(axl_queue_host_task(q, nothing, NULL, &bad, 1, &after));
    AXL_EXPECT(axl_event_wait(after), AXL_ERR_RUNTIME);
    AXL_OK(axl_trace_format(mem_sink, NULL, 0));
    /* Both failed: the task on its queue's and its worker's tracks, the
     * dependent, unrun, on its queue's only. */
    assert_int_equal(count(doc, "\"cat\":\"command\""), 2);
    assert_int_equal(count(doc, "\"status\":\"AXL_ERR_RUNTIME\""), 3);
    /* The dependent never started: start_ns 0, a slice at its end. */
    assert_non_null(strstr(doc, "\"start_ns\":0,"));
    AXL_OK(axl_event_release(bad));
    AXL_OK(axl_event_release(after));
    /* Without a handler each throw gives one error (issue 16.6): the
     * failure, then its unrun dependent's. */
    AXL_EXPECT(axl_queue_throw_asynchronous(q), AXL_ERR_RUNTIME);
    AXL_EXPECT(axl_queue_throw_asynchronous(q), AXL_ERR_RUNTIME);
    AXL_OK(axl_queue_release(q));
}

/* Two host tasks that run at once: each waits (a while at most) until the
 * other has started. */
static atomic_int started;

static axl_status meet(void *user)
{
    (void)user;
    atomic_fetch_add(&started, 1);
    for (int i = 0; i < 2000 && atomic_load(&started) < 2; i++) {
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
    return AXL_SUCCESS;
}

static void trace_puts_overlapping_commands_of_a_queue_on_two_tracks(void **state)
{
    (void)state;
    if (AXL_HOST_TASK_WORKERS < 2)
        skip();
    atomic_store(&started, 0);
    AXL_OK(axl_trace_enable(true));
    axl_queue q = make_queue(0);
    run_tasks(q, 0);
    AXL_OK(axl_queue_host_task(q, meet, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_host_task(q, meet, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q));
    assert_int_equal(atomic_load(&started), 2);
    AXL_OK(axl_trace_format(mem_sink, NULL, 0));
    /* They overlapped: two tracks for the queue, "queue N" and
     * "queue N (2)", one slice on each. */
    assert_int_equal(count(doc, "\"args\":{\"name\":\"queue "), 2);
    assert_int_equal(count(doc, " (2)\"}}"), 1);
    assert_int_equal(count(doc, "\"cat\":\"command\""), 2);
    AXL_OK(axl_queue_release(q));
}

static atomic_int gate_open; /* axl_test_gate */

/* Reads two buffers and waits for a list of events. */
typedef struct reader {
    axl_buffer b1, b2;
    const axl_event *deps;
    uint32_t ndeps;
} reader;

static void read_both(axl_handler *h, void *user)
{
    const reader *r = user;
    axl_accessor a;
    AXL_OK(axl_handler_require(h, r->b1, AXL_ACCESS_READ, NULL, 0, &a));
    AXL_OK(axl_handler_require(h, r->b2, AXL_ACCESS_READ, NULL, 0, &a));
    AXL_OK(axl_handler_depends_on_list(h, r->deps, r->ndeps));
    AXL_OK(axl_handler_host_task(h, nothing, NULL));
}

static void trace_keeps_the_arrows_of_the_predecessors_that_finished_last(void **state)
{
    (void)state;
    /* A command may wait for AXL_MAX_COMMAND_DEPS - AXL_MAX_HOST_ACCESSORS
     * running commands (past that, as a barrier); with data edges met
     * before it is submitted it has more predecessors than that. */
    enum { LINKED = AXL_MAX_COMMAND_DEPS - AXL_MAX_HOST_ACCESSORS };
    if (LINKED < AXL_TRACE_DEPS || LINKED + 2 <= AXL_TRACE_DEPS ||
        LINKED > AXL_MAX_HANDLER_DEPS || AXL_MAX_ACCESSORS < 2)
        skip();
    atomic_store(&gate_open, 0);
    AXL_OK(axl_trace_enable(true));
    axl_queue q = make_queue(0);
    /* #1 and #2 write a buffer each and are done; #3 is a gate and
     * #4..#LINKED+3 a chain behind it, so they finish in that order; the
     * reader waits for the chain and reads both buffers: LINKED + 2
     * predecessors, the two writers found among the records when it is
     * submitted and the chain noting itself as each one completes. */
    axl_buffer b1, b2;
    AXL_OK(axl_buffer_create(1, (axl_range){1, {64, 1, 1}}, NULL, &b1));
    AXL_OK(axl_buffer_create(1, (axl_range){1, {64, 1, 1}}, NULL, &b2));
    const uint8_t zero = 0;
    AXL_OK(axl_queue_fill(q, b1, NULL, &zero, 1, NULL, 0, NULL));
    AXL_OK(axl_queue_fill(q, b2, NULL, &zero, 1, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q));
    axl_event g, p[LINKED], d;
    AXL_OK(axl_queue_host_task(q, axl_test_gate, &gate_open, NULL, 0, &g));
    for (int i = 0; i < LINKED; i++)
        AXL_OK(axl_queue_host_task(q, nothing, NULL, i ? &p[i - 1] : &g, 1,
                                   &p[i]));
    reader r = {b1, b2, p, LINKED};
    AXL_OK(axl_queue_submit(q, read_both, &r, &d));
    atomic_store(&gate_open, 1);
    AXL_OK(axl_event_wait(d));
    AXL_OK(axl_trace_format(mem_sink, NULL, 0));
    /* It draws the last AXL_TRACE_DEPS to finish (the very last is the
     * one that let it start), in the order they finished, and counts the
     * ones it does not draw: the two writers and the first of the chain
     * past AXL_TRACE_DEPS. */
    const int first = LINKED + 4 - AXL_TRACE_DEPS;
    const int hidden = LINKED + 2 - AXL_TRACE_DEPS;
    char want[256];
    int n = snprintf(want, sizeof want, "\"deps\":[");
    for (int seq = first; seq <= LINKED + 3; seq++)
        n += snprintf(want + n, sizeof want - (size_t)n, "%s%d",
                      seq > first ? "," : "", seq);
    snprintf(want + n, sizeof want - (size_t)n, "],\"deps_not_shown\":%d}",
             hidden);
    /* On its queue's track and its worker's. */
    assert_int_equal(count(doc, want), 2);
    assert_int_equal(count(doc, "\"deps_not_shown\""), 2);
    AXL_OK(axl_event_release(g));
    for (int i = 0; i < LINKED; i++)
        AXL_OK(axl_event_release(p[i]));
    AXL_OK(axl_event_release(d));
    AXL_OK(axl_buffer_release(b1));
    AXL_OK(axl_buffer_release(b2));
    AXL_OK(axl_queue_release(q));
}

static void trace_format_checks_its_arguments(void **state)
{
    (void)state;
    AXL_EXPECT(axl_trace_format(NULL, NULL, 0), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("sink");
    AXL_EXPECT(axl_trace_format(mem_sink, NULL, 0x80), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("flags");
    assert_int_equal(doc_calls, 0);
    AXL_EXPECT(axl_trace_stats_get(NULL), AXL_ERR_INVALID);
}

/* ---- Logs ----------------------------------------------------------------------- */

static char lines[64][AXL_MESSAGE_MAX];
static unsigned nlines;

static void log_sink(const char *text, size_t len, void *user)
{
    (void)user;
    if (nlines < 64) {
        size_t n = len < AXL_MESSAGE_MAX - 1 ? len : AXL_MESSAGE_MAX - 1;
        memcpy(lines[nlines], text, n);
        lines[nlines][n] = '\0';
    }
    nlines++;
}

static unsigned lines_with(const char *text)
{
    unsigned n = 0;
    for (unsigned i = 0; i < nlines && i < 64; i++)
        n += strstr(lines[i], text) != NULL;
    return n;
}

static void log_debug_reports_each_dispatch_and_completion(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    nlines = 0;
    axl_log_set(AXL_LOG_DEBUG, log_sink, NULL);
    assert_int_equal(axl_log_level_get(), AXL_LOG_DEBUG);
    run_tasks(q, 2);
    axl_log_set(AXL_LOG_OFF, NULL, NULL);
    assert_int_equal(lines_with("axl: debug: "), 4);
    assert_int_equal(lines_with("(host_task) dispatched"), 2);
    assert_int_equal(lines_with("(host_task) complete"), 2);
    AXL_OK(axl_queue_release(q));
}

static void log_below_its_level_calls_no_sink(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    nlines = 0;
    axl_log_set(AXL_LOG_INFO, log_sink, NULL);
    run_tasks(q, 3);
    axl_log_set(AXL_LOG_OFF, log_sink, NULL);
    run_tasks(q, 3);
    assert_int_equal(nlines, 0);
    /* No sink: off, whatever the level. */
    axl_log_set(AXL_LOG_DEBUG, NULL, NULL);
    assert_int_equal(axl_log_level_get(), AXL_LOG_OFF);
    AXL_OK(axl_queue_release(q));
}

static void log_info_reports_devices_found_at_start(void **state)
{
    (void)state;
    AXL_OK(axl_shutdown());
    nlines = 0;
    axl_log_set(AXL_LOG_INFO, log_sink, NULL);
    AXL_OK(axl_init());
    axl_log_set(AXL_LOG_OFF, NULL, NULL);
    assert_true(lines_with("axl: info: device found: ") >= 1);
    assert_true(lines_with("axl: info: image loaded: ") >= 1);
}

static void log_error_reports_a_failed_command(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    nlines = 0;
    axl_log_set(AXL_LOG_ERROR, log_sink, NULL);
    axl_event bad;
    AXL_OK(axl_queue_host_task(q, refuse, NULL, NULL, 0, &bad));
    AXL_EXPECT(axl_event_wait(bad), AXL_ERR_RUNTIME);
    axl_log_set(AXL_LOG_OFF, NULL, NULL);
    assert_int_equal(nlines, 1);
    assert_non_null(strstr(lines[0], "axl: error: command #"));
    if (axl_test_messages())
        assert_non_null(strstr(lines[0], "refused on purpose"));
    AXL_OK(axl_event_release(bad));
    AXL_EXPECT(axl_queue_throw_asynchronous(q), AXL_ERR_RUNTIME);
    AXL_OK(axl_queue_release(q));
}

static void log_warns_once_a_pool_passes_seven_eighths(void **state)
{
    (void)state;
    axl_context none = AXL_NONE;
    axl_queue qs[AXL_MAX_QUEUES];
    const unsigned warn_at = (AXL_MAX_QUEUES * 7 + 7) / 8; /* ceil(7/8) */
    nlines = 0;
    axl_log_set(AXL_LOG_WARN, log_sink, NULL);
    for (unsigned i = 0; i < warn_at - 1; i++)
        AXL_OK(axl_queue_create(none, axl_test_emu_device(), 0, NULL, &qs[i]));
    assert_int_equal(lines_with("near capacity"), 0);
    AXL_OK(axl_queue_create(none, axl_test_emu_device(), 0, NULL,
                            &qs[warn_at - 1]));
    axl_log_set(AXL_LOG_OFF, NULL, NULL);
    assert_int_equal(lines_with("axl: warn: pool queue near capacity"), 1);
    assert_int_equal(lines_with("AXL_MAX_QUEUES"), 1);
    for (unsigned i = 0; i < warn_at; i++)
        AXL_OK(axl_queue_release(qs[i]));
}

static void log_levels_parse_as_axl_log_spells_them(void **state)
{
    (void)state;
    const char *words[] = {"off", "error", "warn", "info", "debug"};
    for (int i = 0; i <= AXL_LOG_DEBUG; i++) {
        axl_log_level l;
        assert_true(axl_log_level_parse(words[i], &l));
        assert_int_equal(l, i);
        assert_string_equal(axl_log_level_name(l), words[i]);
    }
    axl_log_level l = AXL_LOG_INFO;
    assert_false(axl_log_level_parse("verbose", &l));
    assert_int_equal(l, AXL_LOG_INFO);
}

/* ---- Transfers and units (issue 29 item 8) ---------------------------------------- */

/* The transfer slices of the document whose name is `name`: how many, and
 * the bytes of the last one (0: none). */
static unsigned transfers_named(const char *name, unsigned long long *bytes)
{
    char key[96];
    snprintf(key, sizeof key,
             "\"cat\":\"transfer\",\"name\":\"%s\",", name);
    unsigned n = 0;
    *bytes = 0;
    for (const char *p = strstr(doc, key); p; p = strstr(p + 1, key)) {
        const char *b = strstr(p, "\"bytes\":");
        if (b)
            *bytes = strtoull(b + 8, NULL, 10);
        n++;
    }
    return n;
}

/* Issue 29 item 8: every way bytes move between the host and a device is
 * a slice on the device's transfers track: the write-back of a buffer's
 * last release (no command: it had none before), a host accessor's read
 * of device data, a copy to or from application memory on device data,
 * and a fill of it, besides the moves before a command's action. */
static void trace_puts_every_transfer_on_the_transfers_track(void **state)
{
    (void)state;
    if (!AXL_TRACE_EVENTS) { /* no trace compiled in */
        AXL_EXPECT(axl_trace_enable(true), AXL_ERR_FEATURE_NOT_SUPPORTED);
        skip();
    }
    AXL_OK(axl_trace_enable(true));
    axl_test_rig r = axl_test_rig_up(0); /* the stock vadd, two units */
    enum { N = 256 };
    static int32_t a[N], o[N], back[N];
    for (int i = 0; i < N; i++)
        a[i] = i;
    axl_buffer A, O;
    AXL_OK(axl_buffer_create_from(a, 4, axl_range_1d(N), NULL, &A));
    AXL_OK(axl_buffer_create_from(o, 4, axl_range_1d(N), NULL, &O));
    AXL_OK(axl_queue_single_task(r.q, r.vadd,
                                 AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A),
                                          AXL_ARG_OUT(O), AXL_ARG_U32(N)),
                                 NULL, 0, NULL));
    AXL_OK(axl_queue_wait(r.q));
    /* From device memory to the application's, and back; a fill there. */
    AXL_OK(axl_queue_copy_to_host(r.q, O, NULL, back, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(r.q));
    AXL_OK(axl_queue_copy_from_host(r.q, back, O, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_fill(r.q, A, NULL, &(int32_t){7}, 4, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(r.q));
    /* A host accessor reads the device's copy. */
    axl_host_accessor h;
    void *p;
    AXL_OK(axl_host_accessor_create(A, AXL_ACCESS_READ, NULL, 0, &h, &p));
    AXL_OK(axl_host_accessor_release(h));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(O)); /* written back to o */
    axl_test_rig_down(&r);
    assert_int_equal(o[N - 1], 2 * (N - 1));
    AXL_OK(axl_trace_format(mem_sink, NULL, 0));
    unsigned long long bytes;
    assert_int_equal(transfers_named("write_back", &bytes), 1);
    assert_int_equal(bytes, 4 * N);
    assert_non_null(strstr(doc, "\"of\":\"write_back\",\"direction\":\"to_host\""));
    assert_int_equal(transfers_named("copy_to_host", &bytes), 1);
    assert_int_equal(bytes, 4 * N);
    assert_int_equal(transfers_named("copy_from_host", &bytes), 1);
    assert_int_equal(transfers_named("fill", &bytes), 1);
    assert_non_null(strstr(doc, "\"direction\":\"to_device\""));
    /* The moves of the launch (in1 and in2 are one buffer: 1 KiB in) and
     * of the host accessor (1 KiB back). */
    assert_int_equal(transfers_named("transfer", &bytes), 2);
    assert_non_null(strstr(doc, "\"for\":\"host_accessor\""));
    /* All of them on the device's transfers track. */
    assert_int_equal(count(doc, "\"cat\":\"transfer\""),
                     count(doc, "\"cat\":\"transfer\",\"name\":\"") );
    assert_non_null(strstr(doc, "\"name\":\"thread_name\",\"pid\":10,\"tid\":1000,"
                                "\"args\":{\"name\":\"transfers\"}"));
}

/* Item 8: a compute unit's track is named as the design names the unit
 * (IP_LAYOUT's m_name: "vadd_2"), not "vadd:1", and its slices say so. */
static void trace_names_unit_tracks_by_the_designs_unit_names(void **state)
{
    (void)state;
    if (!AXL_TRACE_EVENTS) { /* no trace compiled in */
        AXL_EXPECT(axl_trace_enable(true), AXL_ERR_FEATURE_NOT_SUPPORTED);
        skip();
    }
    AXL_OK(axl_trace_enable(true));
    axl_test_rig r = axl_test_rig_up(0); /* the stock vadd, two units */
    axl_kernel u2;
    AXL_OK(axl_kernel_select_units(r.vadd, "vadd_2", &u2));
    axl_buffer A, O;
    AXL_OK(axl_buffer_create(4, axl_range_1d(64), NULL, &A));
    AXL_OK(axl_buffer_create(4, axl_range_1d(64), NULL, &O));
    AXL_OK(axl_queue_single_task(r.q, u2,
                                 AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A),
                                          AXL_ARG_OUT(O), AXL_ARG_U32(64)),
                                 NULL, 0, NULL));
    AXL_OK(axl_queue_wait(r.q));
    AXL_OK(axl_kernel_release(u2));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(O));
    axl_test_rig_down(&r);
    AXL_OK(axl_trace_format(mem_sink, NULL, 0));
    assert_non_null(strstr(doc, "\"args\":{\"name\":\"vadd_2\"}"));
    assert_non_null(strstr(doc, "\"unit\":\"vadd_2\""));
    assert_null(strstr(doc, "vadd:1"));
}

/* ---- Graph replays (issue 37) ------------------------------------------------ */

static int32_t *doubled;

static axl_status double_it(void *user)
{
    (void)user;
    for (int i = 0; i < 64; i++)
        doubled[i] *= 2;
    return AXL_SUCCESS;
}

static void double_cgf(axl_handler *h, void *user)
{
    axl_accessor a;
    axl_handler_require(h, *(axl_buffer *)user, AXL_ACCESS_READ_WRITE, NULL,
                        0, &a);
    axl_handler_host_ptr(h, a, (void **)&doubled);
    axl_handler_host_task(h, double_it, NULL);
}

/*
 * A traced replay shows each node as the command it stands for (as the
 * same commands submitted one by one would): O = A + B on a unit, a host
 * task that doubles O, P = O + B on a unit, submitted twice. Each kernel
 * node is a slice on its unit's track and each host-task node one on a
 * worker's, all tagged with their node and the submission's number, with
 * an arrow from each node to the next; the submission itself stays one
 * "graph" slice.
 */
static void trace_shows_each_node_of_a_graph_replay_as_its_command(
    void **state)
{
    (void)state;
    if (!AXL_TRACE_EVENTS) { /* no trace compiled in */
        AXL_EXPECT(axl_trace_enable(true), AXL_ERR_FEATURE_NOT_SUPPORTED);
        skip();
    }
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    AXL_TEST_NEEDS(AXL_FEATURE_HOST_TASKS,
                   axl_queue_host_task((axl_queue)AXL_NONE, nothing, NULL,
                                       NULL, 0, NULL));
    axl_test_rig r = axl_test_rig_up(0); /* the stock vadd, two units */
    static int32_t a[64], b[64];
    for (int i = 0; i < 64; i++) {
        a[i] = i;
        b[i] = 100;
    }
    axl_buffer A, B, O, P;
    AXL_OK(axl_buffer_create_from_const(a, 4, axl_range_1d(64), NULL, &A));
    AXL_OK(axl_buffer_create_from_const(b, 4, axl_range_1d(64), NULL, &B));
    AXL_OK(axl_buffer_create(4, axl_range_1d(64), NULL, &O));
    AXL_OK(axl_buffer_create(4, axl_range_1d(64), NULL, &P));
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r.q));
    AXL_OK(axl_queue_single_task(r.q, r.vadd,
                                 AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(B),
                                          AXL_ARG_OUT(O), AXL_ARG_U32(64)),
                                 NULL, 0, NULL));
    AXL_OK(axl_queue_submit(r.q, double_cgf, &O, NULL));
    AXL_OK(axl_queue_single_task(r.q, r.vadd,
                                 AXL_ARGS(AXL_ARG_IN(O), AXL_ARG_IN(B),
                                          AXL_ARG_OUT(P), AXL_ARG_U32(64)),
                                 NULL, 0, NULL));
    AXL_OK(axl_graph_end_recording(g, r.q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_trace_enable(true));
    for (int k = 0; k < 2; k++)
        AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    AXL_OK(axl_trace_enable(false));
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_trace_format(mem_sink, NULL, 0));
    assert_int_equal(count(doc, "\"cat\":\"command\",\"name\":\"graph\""), 2);
    assert_int_equal(count(doc, "\"cat\":\"kernel\",\"name\":\"vadd\""), 4);
    assert_int_equal(count(doc, "\"cat\":\"host_task\",\"name\":\"host_task\""),
                     2);
    /* Each node's slices (the queue's, and its unit's or worker's) name
     * it: 2 submissions x 2 slices. */
    for (unsigned n = 0; n < 3; n++) {
        char key[32];
        snprintf(key, sizeof key, "\"graph_node\":%u,", n);
        assert_int_equal(count(doc, key), 4);
    }
    /* An arrow into each node after the first, per submission (and the
     * second submission's first node from the first's end). */
    assert_true(count(doc, "\"ph\":\"f\"") >= 4);
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(O));
    AXL_OK(axl_buffer_release(P));
    axl_test_rig_down(&r);
}

#define T(f) cmocka_unit_test_setup_teardown(f, trace_setup, trace_teardown)

int main(void)
{
    /* These tests set the trace and the log themselves: the switches of
     * the posix port (read at every start) would turn them on under them. */
    unsetenv("AXL_TRACE");
    unsetenv("AXL_LOG");
    const struct CMUnitTest tests[] = {
        T(trace_off_records_nothing),
        T(trace_records_one_slice_per_command_with_profiling_times),
        T(trace_links_an_in_order_predecessor_gone_before_submission),
        T(trace_ring_overwrites_the_oldest_and_counts_drops),
        T(trace_consume_drains_what_was_written),
        T(trace_keeps_failures_and_unrun_dependents),
        T(trace_puts_overlapping_commands_of_a_queue_on_two_tracks),
        T(trace_keeps_the_arrows_of_the_predecessors_that_finished_last),
        T(trace_format_checks_its_arguments),
        T(trace_puts_every_transfer_on_the_transfers_track),
        T(trace_names_unit_tracks_by_the_designs_unit_names),
        T(trace_shows_each_node_of_a_graph_replay_as_its_command),
        T(log_debug_reports_each_dispatch_and_completion),
        T(log_below_its_level_calls_no_sink),
        T(log_info_reports_devices_found_at_start),
        T(log_error_reports_a_failed_command),
        T(log_warns_once_a_pool_passes_seven_eighths),
        T(log_levels_parse_as_axl_log_spells_them),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
