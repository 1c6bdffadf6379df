/*
 * The rules of a graph replay (issue 37 item 2; docs/engine-design.md,
 * "Tests"), one test each, the same whatever the path a replay takes:
 * its first submission or a later one, tracing on or off. They run on
 * every port the build has: the emulated device (test_graph_rules), the
 * C-model simulator behind the mmio port (mmio_test_graph_rules) and the
 * RTL (rtl_test_graph_rules: what needs a C model is skipped there) and
 * XRT's noop shim (test_xrt_graph_rules, AXL_TEST_GRAPH_RULES_XRT: nothing
 * is computed there, so results are not compared; a node fails through
 * the port's call table, as a card reports a run in ERT_CMD_STATE_ERROR).
 *
 *  - a failed node loses only what it writes and what depends on it;
 *    nodes that do not depend on it run, and what they write stays
 *    readable (sycl_ext_oneapi_graph: a node's failure is the failure of
 *    the commands that depend on it, as for queue submissions, 3.7.1);
 *  - the graph's event is running from its first node's start, and its
 *    command_start is the first node's start, command_end the last
 *    node's end (Table 36 for the one command group a graph is);
 *  - a recorded parallel_for is one node, and an update through it covers
 *    its whole range;
 *  - a graph's submission waits for room in a full event pool as any
 *    submission does ("Room in a full pool", docs/design.md);
 *  - an update made while a submission is pending reaches the next
 *    submission only.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(AXL_TEST_GRAPH_RULES_XRT)
#include "xrt_test.h"
#include "../support/axl_reader_skip.h"
#define VALUES 0 /* the noop shim computes nothing */
#else
#include "axl_test.h"
#define VALUES 1
#endif
#include "axl_config.h"

enum { N = 64 };

/* What the size argument is given to make vadd's node fail: past the
 * buffers (the C models refuse it; on XRT the call table below fails the
 * run holding it). */
#define BAD_SIZE (4u * N)

#if defined(AXL_TEST_GRAPH_RULES_XRT)
/* The XRT run that holds BAD_SIZE as vadd's size ends in ERT_CMD_STATE_
 * ERROR, as a card reports a run that failed. */
static _Atomic(xrtRunHandle) bad_run;

static int set_arg_marking(xrtRunHandle h, int index,
                           const axl__xrt_value *v)
{
    if (index == 3) {
        const uint32_t n = v->kind == AXL__XRT_UINT ? v->v.u : v->v.u32;
        if (n == BAD_SIZE)
            atomic_store(&bad_run, h);
        else if (atomic_load(&bad_run) == h)
            atomic_store(&bad_run, NULL);
    }
    return axl__xrt_real.run_set_arg(h, index, v);
}

static enum ert_cmd_state state_failing(xrtRunHandle h)
{
    enum ert_cmd_state s = axl__xrt_real.run_state(h);
    return h == atomic_load(&bad_run) && s == ERT_CMD_STATE_COMPLETED
               ? ERT_CMD_STATE_ERROR
               : s;
}

static int setup(void **state)
{
    xt_setup(state);
    axl__xrt_set_run_done(NULL); /* runs end in the core */
    setenv("AXL_XRT_BUILTIN_XCLBIN", AXL_XCLBIN_DIR "/stock.xclbin", 1);
    atomic_store(&bad_run, NULL);
    axl__xrt.run_set_arg = set_arg_marking;
    axl__xrt.run_state = state_failing;
    /* The runtime started, so the teardown's shutdown forgets the port
     * registered here even when the test is skipped before any call
     * (AXL_FEATURE_GRAPHS 0): else each skip kept one, and the fourth
     * setup found no room for it. */
    (void)xt_platform();
    return 0;
}

static axl_device test_device(void)
{
    return xt_device(NULL);
}

/* What a failed node's status is: the port's for a run XRT ends in
 * ERT_CMD_STATE_ERROR, the C model's refusal elsewhere. */
#define NODE_FAILURE AXL_ERR_RUNTIME
#define FAILS_BY_C_MODEL() ((void)0)
#else
static int setup(void **state)
{
    return axl_test_setup(state);
}

static axl_device test_device(void)
{
    return axl_test_emu_device();
}

#define NODE_FAILURE AXL_ERR_KERNEL
#define FAILS_BY_C_MODEL()                                                     \
    AXL_TEST_NEEDS_C_MODELS("a node fails by its C model's refusal")
#endif

/* A queue (flags: axl_queue_create's) in its own context on the device
 * the test runs on, with its vadd. */
static axl_test_rig rig_up(uint32_t flags)
{
    return axl_test_rig_on(test_device(), flags);
}

static void sleep_ms(unsigned ms)
{
    struct timespec t = {(time_t)(ms / 1000u), (long)(ms % 1000u) * 1000000L};
    nanosleep(&t, NULL);
}

/* Tracing on or off where the build records a trace (the rules must not
 * depend on it). */
static void tracing(bool on)
{
    axl_status st = axl_trace_enable(on);
    assert_true(st == AXL_SUCCESS || st == AXL_ERR_FEATURE_NOT_SUPPORTED);
}

static void fill_ramp(int32_t *v, int32_t k)
{
    for (int i = 0; i < N; i++)
        v[i] = k * (i + 1);
}

/* A buffer of N int32, k * (i + 1), already on the rig's device. */
static axl_buffer ramp_on(axl_queue q, int32_t k)
{
    int32_t v[N];
    fill_ramp(v, k);
    axl_buffer b;
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &b));
    AXL_OK(axl_queue_copy_from_host(q, v, b, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(q));
    return b;
}

static axl_status vadd(axl_queue q, axl_kernel k, axl_buffer a, axl_buffer b,
                       axl_buffer o, uint32_t n, axl_event *e)
{
    return axl_queue_single_task(
        q, k,
        AXL_ARGS(AXL_ARG_IN(a), AXL_ARG_IN(b), AXL_ARG_WRITE(o),
                 AXL_ARG_U32(n)),
        NULL, 0, e);
}

/* The status of reading b into out, the queue's asynchronous errors
 * drained after. */
static axl_status read_status(axl_queue q, axl_buffer b, int32_t *out)
{
    axl_event e;
    AXL_OK(axl_queue_copy_to_host(q, b, NULL, out, NULL, 0, &e));
    axl_status st = axl_event_wait(e);
    AXL_OK(axl_event_release(e));
    (void)axl_queue_wait(q);
    while (axl_queue_throw_asynchronous(q) != AXL_SUCCESS) {
    }
    return st;
}

/* Host tasks that hold a replay (or a queue) until the test lets go. */
static atomic_int gate_open, gate_entered;

static axl_status gate_task(void *user)
{
    (void)user;
    atomic_store(&gate_entered, 1);
    while (!atomic_load(&gate_open))
        sleep_ms(1);
    return AXL_SUCCESS;
}

static void gate_cgf(axl_handler *h, void *user)
{
    axl_handler_host_task(h, gate_task, user);
}

static void gate_reset(void)
{
    atomic_store(&gate_open, 0);
    atomic_store(&gate_entered, 0);
}

static void *open_gate_later(void *arg)
{
    (void)arg;
    sleep_ms(100);
    atomic_store(&gate_open, 1);
    return NULL;
}

/* A graph on the rig's context and device, recording from its queue. */
static axl_graph recording(const axl_test_rig *r)
{
    axl_graph g;
    AXL_OK(axl_graph_create(r->ctx, r->dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r->q));
    return g;
}

/* Recording from q ended, the graph finalized and released (the
 * executable graph stands alone). */
static axl_graph_exec finalized(axl_graph g, axl_queue q)
{
    AXL_OK(axl_graph_end_recording(g, q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    AXL_OK(axl_graph_release(g));
    return x;
}

/* ---- A failed node loses only what it writes and what depends on it ---- */

/*
 * n0: C1 = A + B            (independent, succeeds)
 * n1: C2 = A + B, size 4N   (fails: the model refuses a size past the
 *                            buffers)
 * n2: C3 = C2 + B           (depends on n1: not run, C3 lost)
 * n3: C4 = C1 + B           (depends on n0 only: runs)
 * Replayed from its first submission, later ones (every buffer on the
 * device: the laid-out path before issue 37) and with tracing on: each
 * time n0 and n3's outputs read back right, n1 and n2's fail with n1's
 * status.
 */
static void a_failed_node_loses_only_what_it_writes_and_what_depends_on_it(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    FAILS_BY_C_MODEL();
    axl_test_rig r = rig_up(0);
    axl_buffer A = ramp_on(r.q, 1), B = ramp_on(r.q, 10);
    axl_buffer C[4];
    for (int i = 0; i < 4; i++)
        C[i] = ramp_on(r.q, 0);
    axl_graph g = recording(&r);
    AXL_OK(vadd(r.q, r.vadd, A, B, C[0], N, NULL));
    AXL_OK(vadd(r.q, r.vadd, A, B, C[1], BAD_SIZE, NULL));
    AXL_OK(vadd(r.q, r.vadd, C[1], B, C[2], N, NULL));
    AXL_OK(vadd(r.q, r.vadd, C[0], B, C[3], N, NULL));
    axl_graph_exec x = finalized(g, r.q);
    int32_t a[N], b[N], o[N];
    fill_ramp(a, 1);
    fill_ramp(b, 10);
    for (int rep = 0; rep < 4; rep++) {
        /* Every output written whole on the device first (a fill), so
         * that from the second replay on every buffer is current there. */
        const int32_t zero = 0;
        for (int i = 0; i < 4; i++)
            AXL_OK(axl_queue_fill(r.q, C[i], NULL, &zero, 4, NULL, 0, NULL));
        AXL_OK(axl_queue_wait_and_throw(r.q));
        tracing(rep == 3);
        axl_event done;
        AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, &done));
        AXL_EXPECT(axl_event_wait(done), NODE_FAILURE);
        AXL_OK(axl_event_release(done));
        (void)axl_queue_wait(r.q);
        while (axl_queue_throw_asynchronous(r.q) != AXL_SUCCESS) {
        }
        tracing(false);
        /* What the nodes that ran wrote reads back, and right. */
        AXL_OK(read_status(r.q, C[0], o));
        for (int i = 0; VALUES && i < N; i++)
            assert_int_equal(o[i], a[i] + b[i]);
        AXL_OK(read_status(r.q, C[3], o));
        for (int i = 0; VALUES && i < N; i++)
            assert_int_equal(o[i], a[i] + 2 * b[i]);
        /* What the failed node and its dependent wrote is lost. */
        assert_int_equal(read_status(r.q, C[1], o), NODE_FAILURE);
        assert_int_equal(read_status(r.q, C[2], o), NODE_FAILURE);
    }
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    for (int i = 0; i < 4; i++)
        AXL_OK(axl_buffer_release(C[i]));
    axl_test_rig_down(&r);
}

/* ---- The graph's event: running from the first node, its times ---------- */

static uint64_t profiled(axl_event e, axl_profiling_info what)
{
    uint64_t ns = 0;
    AXL_OK(axl_event_get_profiling(e, what, &ns));
    return ns;
}

/*
 * n0: a host task that holds the replay; n1: vadd after it (an in-order
 * recording). While n0 runs the graph's event is running; a command
 * another queue of the device runs meanwhile lies inside the graph
 * event's [command_start, command_end]. Replayed with tracing off (twice:
 * the first replay and a later one) and on.
 */
static void the_graph_event_runs_from_its_first_node_start_to_its_last_end(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    axl_test_rig r =
        rig_up(AXL_QUEUE_IN_ORDER | AXL_QUEUE_ENABLE_PROFILING);
    axl_queue other;
    AXL_OK(axl_queue_create(r.ctx, r.dev, AXL_QUEUE_ENABLE_PROFILING, NULL,
                            &other));
    axl_buffer A = ramp_on(r.q, 1), B = ramp_on(r.q, 10), O = ramp_on(r.q, 0),
               P = ramp_on(r.q, 0);
    axl_graph g = recording(&r);
    AXL_OK(axl_queue_submit(r.q, gate_cgf, NULL, NULL));
    AXL_OK(vadd(r.q, r.vadd, A, B, O, N, NULL));
    axl_graph_exec x = finalized(g, r.q);
    for (int rep = 0; rep < 3; rep++) {
        tracing(rep == 2);
        gate_reset();
        axl_event done;
        AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, &done));
        while (!atomic_load(&gate_entered))
            sleep_ms(1);
        axl_event_status es;
        AXL_OK(axl_event_get_status(done, &es, NULL));
        assert_int_equal(es, AXL_EVENT_RUNNING);
        /* A command of another queue of the device, while n0 runs. */
        axl_event probe;
        AXL_OK(vadd(other, r.vadd, A, B, P, N, &probe));
        AXL_OK(axl_event_wait(probe));
        atomic_store(&gate_open, 1);
        AXL_OK(axl_event_wait(done));
        tracing(false);
        assert_true(profiled(done, AXL_PROFILING_COMMAND_START) <=
                    profiled(probe, AXL_PROFILING_COMMAND_START));
        assert_true(profiled(done, AXL_PROFILING_COMMAND_END) >=
                    profiled(probe, AXL_PROFILING_COMMAND_END));
        AXL_OK(axl_event_release(probe));
        AXL_OK(axl_event_release(done));
    }
    AXL_OK(axl_queue_wait_and_throw(r.q));
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_queue_release(other));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(O));
    AXL_OK(axl_buffer_release(P));
    axl_test_rig_down(&r);
}

/* ---- A recorded parallel_for is one node -------------------------------- */

/* vadd(A, B -> O) over 8192 items in two chunks, recorded on an
 * out-of-order and on an in-order queue: one node, which the call's event
 * names, and a new buffer for its first argument given through that node
 * is what every chunk reads in the next replay. */
static void a_recorded_parallel_for_is_one_node_updated_over_its_range(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    enum { BIG = 8192 };
    static int32_t a[BIG], a2[BIG], b[BIG], o[BIG];
    for (int i = 0; i < BIG; i++) {
        a[i] = i;
        a2[i] = 7 * i;
        b[i] = 1000 * i;
    }
    for (int order = 0; order < 2; order++) {
        axl_test_rig r = rig_up(order ? AXL_QUEUE_IN_ORDER : 0);
        axl_buffer A, A2, B, O;
        AXL_OK(axl_buffer_create(4, axl_range_1d(BIG), NULL, &A));
        AXL_OK(axl_buffer_create(4, axl_range_1d(BIG), NULL, &A2));
        AXL_OK(axl_buffer_create(4, axl_range_1d(BIG), NULL, &B));
        AXL_OK(axl_buffer_create(4, axl_range_1d(BIG), NULL, &O));
        AXL_OK(axl_queue_copy_from_host(r.q, a, A, NULL, NULL, 0, NULL));
        AXL_OK(axl_queue_copy_from_host(r.q, a2, A2, NULL, NULL, 0, NULL));
        AXL_OK(axl_queue_copy_from_host(r.q, b, B, NULL, NULL, 0, NULL));
        AXL_OK(axl_queue_wait_and_throw(r.q));
        axl_graph g = recording(&r);
        axl_event ev;
        uint32_t chunks = 0;
        AXL_OK(axl_queue_parallel_for(
            r.q, r.vadd, BIG,
            AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(B), AXL_ARG_WRITE(O),
                     AXL_ARG_U32(0)),
            &(axl_split){.count_arg = "size", .chunks = 2,
                         .chunk_count = &chunks},
            NULL, 0, &ev));
        assert_int_equal(chunks, 2);
        axl_graph_node node;
        AXL_OK(axl_graph_node_from_event(ev, &node));
        AXL_OK(axl_graph_end_recording(g, r.q));
        uint32_t count = 0;
        AXL_OK(axl_graph_node_count(g, &count));
        assert_int_equal(count, 1);
        axl_graph_exec x;
        AXL_OK(axl_graph_finalize(g, &x));
        AXL_OK(axl_graph_release(g));
        AXL_OK(axl_graph_exec_update_buffer(x, node, 0, A2));
        AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
        AXL_OK(axl_queue_copy_to_host(r.q, O, NULL, o, NULL, 0, NULL));
        AXL_OK(axl_queue_wait_and_throw(r.q));
        for (int i = 0; VALUES && i < BIG; i++)
            assert_int_equal(o[i], a2[i] + b[i]);
        AXL_OK(axl_graph_exec_release(x));
        AXL_OK(axl_buffer_release(A));
        AXL_OK(axl_buffer_release(A2));
        AXL_OK(axl_buffer_release(B));
        AXL_OK(axl_buffer_release(O));
        axl_test_rig_down(&r);
    }
}

/* ---- Room in a full event pool ------------------------------------------ */

/*
 * The event pool full of events the application released, whose commands
 * wait behind a host task another thread lets go of: a graph's submission
 * waits for room as a single_task would, and goes through (before issue
 * 37 a replay after the first, laid out, failed at once: its node
 * commands were in no list the wait walks).
 */
static void a_graph_submission_waits_for_room_in_a_full_event_pool(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    axl_test_rig r = rig_up(AXL_QUEUE_IN_ORDER);
    axl_buffer A = ramp_on(r.q, 1), B = ramp_on(r.q, 10), O = ramp_on(r.q, 0);
    axl_graph g = recording(&r);
    for (int i = 0; i < 4; i++)
        AXL_OK(vadd(r.q, r.vadd, A, B, O, N, NULL));
    axl_graph_exec x = finalized(g, r.q);
    /* Once, so that every buffer is on the device. */
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));

    /* Events the application holds, so that the commands below fill the
     * event pool before the command pool. */
    const axl_pool_stats ev0 = axl_test_pool("event");
    const axl_pool_stats cmd0 = axl_test_pool("command");
    const uint32_t free_ev = ev0.capacity - ev0.in_use;
    const uint32_t free_cmd = cmd0.capacity - cmd0.in_use;
    const uint32_t room = free_cmd > 16 ? free_cmd - 16 : 1;
    const uint32_t held = free_ev > room ? free_ev - room : 0;
    static axl_event kept[4096];
    assert_true(held <= sizeof kept / sizeof kept[0]);
    atomic_store(&gate_open, 1);
    for (uint32_t i = 0; i < held; i++)
        AXL_OK(axl_queue_host_task(r.q, gate_task, NULL, NULL, 0, &kept[i]));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    gate_reset();
    /* A host task that holds the queue, and behind it commands whose
     * events are released, until the event pool is full. */
    AXL_OK(axl_queue_host_task(r.q, gate_task, NULL, NULL, 0, NULL));
    while (axl_test_pool("event").in_use < ev0.capacity)
        AXL_OK(axl_queue_host_task(r.q, gate_task, NULL, NULL, 0, NULL));
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, open_gate_later, NULL), 0);
    axl_event done;
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, &done));
    AXL_OK(axl_event_wait(done));
    AXL_OK(axl_event_release(done));
    pthread_join(t, NULL);
    AXL_OK(axl_queue_wait_and_throw(r.q));
    for (uint32_t i = 0; i < held; i++)
        AXL_OK(axl_event_release(kept[i]));
    gate_reset();
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(O));
    axl_test_rig_down(&r);
}

/* ---- Updates reach the next submission only ----------------------------- */

/* O = A + B over its first n elements. Submitted with n = N behind a host
 * task that holds the queue, then updated to n = N / 2 and submitted
 * again, O zeroed between: the first submission wrote all of O, the
 * second half of it. */
static void an_update_made_while_a_submission_waits_reaches_the_next_only(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    axl_test_rig r = rig_up(AXL_QUEUE_IN_ORDER);
    axl_buffer A = ramp_on(r.q, 1), B = ramp_on(r.q, 10), O = ramp_on(r.q, 0);
    axl_graph g = recording(&r);
    axl_event rec;
    AXL_OK(vadd(r.q, r.vadd, A, B, O, N, &rec));
    AXL_OK(axl_graph_end_recording(g, r.q));
    axl_graph_node node;
    AXL_OK(axl_graph_node_from_event(rec, &node));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    AXL_OK(axl_graph_release(g));
    for (int rep = 0; rep < 2; rep++) { /* the second: laid out before */
        uint32_t n = N;
        AXL_OK(axl_graph_exec_update_scalar(x, node, 3, &n, 4));
        gate_reset();
        static int32_t first[N], second[N];
        const int32_t zero = 0;
        AXL_OK(axl_queue_host_task(r.q, gate_task, NULL, NULL, 0, NULL));
        AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
        AXL_OK(axl_queue_copy_to_host(r.q, O, NULL, first, NULL, 0, NULL));
        AXL_OK(axl_queue_fill(r.q, O, NULL, &zero, 4, NULL, 0, NULL));
        pthread_t t;
        assert_int_equal(pthread_create(&t, NULL, open_gate_later, NULL), 0);
        n = N / 2; /* may wait for the pending submission */
        AXL_OK(axl_graph_exec_update_scalar(x, node, 3, &n, 4));
        AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
        AXL_OK(axl_queue_copy_to_host(r.q, O, NULL, second, NULL, 0, NULL));
        AXL_OK(axl_queue_wait_and_throw(r.q));
        pthread_join(t, NULL);
        int32_t a[N], b[N];
        fill_ramp(a, 1);
        fill_ramp(b, 10);
        for (int i = 0; VALUES && i < N; i++) {
            assert_int_equal(first[i], a[i] + b[i]);
            assert_int_equal(second[i], i < N / 2 ? a[i] + b[i] : 0);
        }
    }
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(O));
    axl_test_rig_down(&r);
}

/* ---- A submission's end lets go of all it held at once ----------------- */

/* What a thread reading the pools sees while the runtime frees a buffer's
 * host storage: the deallocator runs with the runtime's lock dropped
 * (axl/buffer.h), on whichever thread let go of the buffer last. */
static atomic_uint seen_commands, seen_nodes, seen_frees;
static _Alignas(64) unsigned char host_store[N * 4];

static uint32_t in_use_of(const axl_pool_stats *s, uint32_t n,
                          const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(s[i].name, name) == 0)
            return s[i].in_use;
    return UINT32_MAX;
}

static void *store_allocate(size_t size, size_t align, void *user)
{
    (void)align;
    (void)user;
    return size <= sizeof host_store ? host_store : NULL;
}

static void store_deallocate(void *ptr, size_t size, void *user)
{
    (void)ptr;
    (void)size;
    (void)user;
    axl_pool_stats s[40];
    uint32_t n = 0;
    if (axl_stats_get(s, 40, &n) != AXL_SUCCESS)
        return; /* seen_frees stays 0: the rule fails */
    atomic_store(&seen_commands, in_use_of(s, n, "command"));
    atomic_store(&seen_nodes, in_use_of(s, n, "graph_node"));
    atomic_fetch_add(&seen_frees, 1);
}

/*
 * A submission of an executable graph released while it waited, updated
 * while it waited (so it keeps nodes of its own), whose output buffer
 * was released meanwhile too: when it ends, its command, its nodes and
 * the graph's go together. A thread that finds no command in flight
 * finds none of them either (the pools are one state, as a failed call's
 * "changes nothing" is judged by them: the API fuzzer's rule, which a
 * submission's end once broke by freeing its buffer, and dropping the
 * lock for it, between its graph's nodes and its own).
 */
static void what_a_submission_held_goes_when_its_command_does(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    axl_test_rig r = rig_up(AXL_QUEUE_IN_ORDER);
    axl_buffer A = ramp_on(r.q, 1), B = ramp_on(r.q, 10), O;
    /* No host data (a release does not wait, 4.7.2.3); host storage
     * from the allocator, made by a host accessor. */
    axl_allocator al = {store_allocate, store_deallocate, NULL};
    axl_buffer_props props = {.allocator = &al};
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), &props, &O));
    axl_host_accessor ha;
    int32_t *o;
    AXL_OK(axl_host_accessor_create(O, AXL_ACCESS_WRITE, NULL, 0, &ha,
                                    (void **)&o));
    fill_ramp(o, 3);
    AXL_OK(axl_host_accessor_release(ha));
    axl_graph g = recording(&r);
    axl_event rec;
    AXL_OK(vadd(r.q, r.vadd, A, B, O, N, &rec));
    axl_graph_node node;
    AXL_OK(axl_graph_node_from_event(rec, &node));
    axl_graph_exec x = finalized(g, r.q);
    atomic_store(&seen_frees, 0);
    gate_reset();
    AXL_OK(axl_queue_host_task(r.q, gate_task, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
    uint32_t n = N / 2; /* the pending submission keeps its own nodes */
    AXL_OK(axl_graph_exec_update_scalar(x, node, 3, &n, 4));
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_buffer_release(O));
    assert_int_equal(atomic_load(&seen_frees), 0); /* in use still */
    atomic_store(&gate_open, 1);
    AXL_OK(axl_queue_wait_and_throw(r.q));
    /* The thread that ended it frees the storage after the wait may
     * have returned: a bound for a loaded machine, not a timing. */
    for (int i = 0; i < 10000 && !atomic_load(&seen_frees); i++)
        sleep_ms(1);
    assert_int_equal(atomic_load(&seen_frees), 1);
    assert_int_equal(atomic_load(&seen_commands), 0);
    assert_int_equal(atomic_load(&seen_nodes), 0);
    assert_int_equal(axl_test_pool("graph_node").in_use, 0);
    assert_int_equal(axl_test_pool("graph_exec").in_use, 0);
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    axl_test_rig_down(&r);
}

/* ---- Each submission replays the buffers as its commit found them ------ */

/* A host task that waits at the gate, then writes B's host copy with
 * 20 * (i + 1). */
static int32_t *gated_b;

static axl_status gate_write_task(void *user)
{
    (void)gate_task(user);
    fill_ramp(gated_b, 20);
    return AXL_SUCCESS;
}

static void gate_write_cgf(axl_handler *h, void *user)
{
    axl_accessor a;
    axl_handler_require(h, *(axl_buffer *)user, AXL_ACCESS_WRITE, NULL, 0,
                        &a);
    axl_handler_host_ptr(h, a, (void **)&gated_b);
    axl_handler_host_task(h, gate_write_task, NULL);
}

/* How many buffers a submission's command keeps the view of (rt.h's
 * AXL__REPLAY_SEEN: the kernel arguments' room, 12 bytes a buffer). */
#define SEEN_ROOM ((AXL_MAX_KERNEL_ARGS * 8 + AXL_MAX_ARG_BYTES) / 12)

/*
 * O[0] = A + B, O[k] = O[k - 1] + B (k < nodes), on a queue of the given
 * flags, submitted once (every buffer on the device); then a host task
 * that writes B's host copy behind the gate, a submission (S1: it must
 * take B from the host), a read of the last O, and a second submission
 * (S2) made while S1 still waits for the host task. The read shows
 * A + nodes * the host task's B.
 */
static void replay_behind_a_pending_one(uint32_t flags, int nodes)
{
    axl_test_rig r = rig_up(flags);
    axl_buffer A = ramp_on(r.q, 1), B = ramp_on(r.q, 10);
    axl_buffer O[AXL_MAX_BUFFERS];
    for (int k = 0; k < nodes; k++)
        O[k] = ramp_on(r.q, 0);
    axl_graph g = recording(&r);
    for (int k = 0; k < nodes; k++)
        AXL_OK(vadd(r.q, r.vadd, k ? O[k - 1] : A, B, O[k], N, NULL));
    axl_graph_exec x = finalized(g, r.q);
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    gate_reset();
    static int32_t first[N];
    AXL_OK(axl_queue_submit(r.q, gate_write_cgf, &B, NULL));
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
    AXL_OK(axl_queue_copy_to_host(r.q, O[nodes - 1], NULL, first, NULL, 0,
                                  NULL));
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, open_gate_later, NULL), 0);
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    pthread_join(t, NULL);
    int32_t a[N], b[N];
    fill_ramp(a, 1);
    fill_ramp(b, 20);
    for (int i = 0; VALUES && i < N; i++)
        assert_int_equal(first[i], a[i] + nodes * b[i]);
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    for (int k = 0; k < nodes; k++)
        AXL_OK(axl_buffer_release(O[k]));
    axl_test_rig_down(&r);
}

/*
 * sycl_ext_oneapi_graph, "Executable Graph Submission": a submission runs
 * as the graph's commands would, submitted then. S2 is committed while S1
 * waits, and finds B already claimed for the device by S1; S1 must still
 * move it there. On an out-of-order queue (S2 ordered after S1 by the
 * one-at-a-time rule) and an in-order one; with one node (the view S1's
 * commit found kept in its command) and with more buffers than a command
 * keeps (S2's submission waits for S1).
 */
static void a_submission_committed_behind_another_keeps_what_its_commit_found(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    replay_behind_a_pending_one(0, 1);
    replay_behind_a_pending_one(AXL_QUEUE_IN_ORDER, 1);
    const int many = SEEN_ROOM; /* + A and B */
    if (many + 2 <= AXL_MAX_BUFFERS && many <= AXL_MAX_GRAPH_NODES &&
        many + 2 + 1 <= AXL_MAX_COMMANDS) {
        replay_behind_a_pending_one(0, many);
        replay_behind_a_pending_one(AXL_QUEUE_IN_ORDER, many);
    }
}

/* ---- Past the executor's first word; host tasks between kernels ------- */

/*
 * The executor keeps a bit per node in 32-bit words (exec.h): a chain of
 * 40 nodes (two words, the second part full), X and Y in turn (node k: Y = X + B when k is even,
 * X = Y + B when odd, X first A's copy), runs each node once and in order
 * (X ends as A + nodes * B), on two submissions.
 */
static void a_graph_past_a_word_of_nodes_runs_each_once_in_order(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    enum { NODES = 40 };
    if (AXL_MAX_GRAPH_NODES < 2 * NODES) {
        skip(); /* the board's capacities hold fewer nodes (the graph's
                   and its executable graph's) */
        return;
    }
    axl_test_rig r = rig_up(0);
    axl_buffer B = ramp_on(r.q, 10), X = ramp_on(r.q, 1), Y = ramp_on(r.q, 0);
    axl_graph g = recording(&r);
    for (int k = 0; k < NODES; k++)
        AXL_OK(k % 2 ? vadd(r.q, r.vadd, Y, B, X, N, NULL)
                     : vadd(r.q, r.vadd, X, B, Y, N, NULL));
    axl_graph_exec x = finalized(g, r.q);
    int32_t a[N], b[N];
    fill_ramp(b, 10);
    for (int rep = 1; rep <= 2; rep++) {
        AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
        int32_t got[N];
        AXL_OK(read_status(r.q, X, got));
        fill_ramp(a, 1);
        for (int i = 0; VALUES && i < N; i++)
            assert_int_equal(got[i], a[i] + rep * NODES * b[i]);
    }
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(X));
    AXL_OK(axl_buffer_release(Y));
    axl_test_rig_down(&r);
}

static axl_status doubling_task(void *user)
{
    (void)user;
    for (int i = 0; i < N; i++)
        gated_b[i] *= 2;
    return AXL_SUCCESS;
}

static void doubling_task_cgf(axl_handler *h, void *user)
{
    axl_accessor a;
    axl_handler_require(h, *(axl_buffer *)user, AXL_ACCESS_READ_WRITE, NULL,
                        0, &a);
    axl_handler_host_ptr(h, a, (void **)&gated_b);
    axl_handler_host_task(h, doubling_task, NULL);
}

/*
 * A host-task node between two kernel nodes on one buffer: O = A + B on
 * the device, then the host task doubles O on the host, then P = O + B
 * on the device. The replay moves O to the host and back between the
 * nodes: P = 2 (A + B) + B, on every submission.
 */
static void a_host_task_between_kernels_gets_their_buffer_and_hands_it_on(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    AXL_TEST_NEEDS(AXL_FEATURE_HOST_TASKS,
                   axl_queue_host_task((axl_queue)AXL_NONE, gate_task, NULL,
                                       NULL, 0, NULL));
    axl_test_rig r = rig_up(0);
    axl_buffer A = ramp_on(r.q, 1), B = ramp_on(r.q, 10), O = ramp_on(r.q, 0),
               P = ramp_on(r.q, 0);
    axl_graph g = recording(&r);
    AXL_OK(vadd(r.q, r.vadd, A, B, O, N, NULL));
    AXL_OK(axl_queue_submit(r.q, doubling_task_cgf, &O, NULL));
    AXL_OK(vadd(r.q, r.vadd, O, B, P, N, NULL));
    axl_graph_exec x = finalized(g, r.q);
    int32_t a[N], b[N];
    fill_ramp(a, 1);
    fill_ramp(b, 10);
    for (int rep = 0; rep < 2; rep++) {
        AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
        int32_t got[N];
        AXL_OK(read_status(r.q, P, got));
        for (int i = 0; VALUES && i < N; i++)
            assert_int_equal(got[i], 2 * (a[i] + b[i]) + b[i]);
    }
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(O));
    AXL_OK(axl_buffer_release(P));
    axl_test_rig_down(&r);
}

/* A rule that fails leaves a host task held: let it go first. */
static int teardown(void **state)
{
    atomic_store(&gate_open, 1);
#if defined(AXL_TEST_GRAPH_RULES_XRT)
    return xt_teardown(state);
#else
    return axl_test_teardown(state);
#endif
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
#if defined(AXL_TEST_GRAPH_RULES_XRT)
    /* The XRT port reads the design: nothing to run without the reader. */
    if (axl_test_without_reader())
        return 0;
#endif
    const struct CMUnitTest tests[] = {
        T(a_failed_node_loses_only_what_it_writes_and_what_depends_on_it),
        T(the_graph_event_runs_from_its_first_node_start_to_its_last_end),
        T(a_recorded_parallel_for_is_one_node_updated_over_its_range),
        T(a_graph_submission_waits_for_room_in_a_full_event_pool),
        T(an_update_made_while_a_submission_waits_reaches_the_next_only),
        T(what_a_submission_held_goes_when_its_command_does),
        T(a_submission_committed_behind_another_keeps_what_its_commit_found),
        T(a_graph_past_a_word_of_nodes_runs_each_once_in_order),
        T(a_host_task_between_kernels_gets_their_buffer_and_hands_it_on),
    };
    /* AXL_TEST_ONLY=<name pattern>: one rule at a time (a rule that fails
     * leaves its objects held, and the next test's setup says so). */
    if (getenv("AXL_TEST_ONLY"))
        cmocka_set_test_filter(getenv("AXL_TEST_ONLY"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
