/*
 * Recorded command graphs (axl/graph.h; the shape of DPC++'s
 * sycl_ext_oneapi_graph): recording makes nodes and runs nothing, a replay
 * does what the same commands submitted one by one do, updates reach the
 * next replay only, a bad update changes nothing, released buffers are
 * refused, a failed node fails the graph's one event and the queue goes
 * on, full pools say which setting to raise.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <time.h>
#include <string.h>

#include "axl_test.h"
#include "axl_config.h"
#include "axl/emu.h"

enum { N = 64 };

typedef axl_test_rig rig;

/* vadd(a, b -> o, n) on q (recording or not). */
static axl_status vadd(rig *r, axl_buffer a, axl_buffer b, axl_buffer o,
                       uint32_t n, axl_event *e)
{
    return axl_queue_single_task(
        r->q, r->vadd,
        AXL_ARGS(AXL_ARG_IN(a), AXL_ARG_IN(b), AXL_ARG_WRITE(o),
                 AXL_ARG_U32(n)),
        NULL, 0, e);
}

static atomic_int task_runs;
static axl_status count_task(void *user)
{
    (void)user;
    atomic_fetch_add(&task_runs, 1);
    return AXL_SUCCESS;
}

static axl_status fail_task(void *user)
{
    (void)user;
    return axl_fail(AXL_ERR_RUNTIME, "the sensor did not answer");
}

static void fail_cgf(axl_handler *h, void *user)
{
    axl_handler_host_task(h, fail_task, user);
}

static void count_cgf(axl_handler *h, void *user)
{
    axl_handler_host_task(h, count_task, user);
}

static axl_status doubling_task(void *user)
{
    int32_t *v = user;
    for (int i = 0; i < N; i++)
        v[i] *= 2;
    return AXL_SUCCESS;
}

static void fill_ramp(int32_t *v, int32_t k)
{
    for (int i = 0; i < N; i++)
        v[i] = i * k + 1;
}

/* The program both ways: vadd(A, B -> C); vadd(C, B -> D); fill E with 7;
 * copy E's first elements into D's host copy... as commands, then D and E
 * to host memory, then a host task on the host copy. */
typedef struct program {
    axl_buffer A, B, C, D, E;
    int32_t d[N], e[N];
} program;

static void program_make(program *p)
{
    int32_t a[N], b[N];
    fill_ramp(a, 3);
    fill_ramp(b, -2);
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &p->A));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &p->B));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &p->C));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &p->D));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &p->E));
    axl_queue q;
    AXL_OK(axl_queue_create(AXL_NO_CONTEXT, axl_test_emu_device(), 0, NULL,
                            &q));
    AXL_OK(axl_queue_copy_from_host(q, a, p->A, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_copy_from_host(q, b, p->B, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(q));
    AXL_OK(axl_queue_release(q));
    memset(p->d, 0, sizeof p->d);
    memset(p->e, 0, sizeof p->e);
}

static void program_free(program *p)
{
    AXL_OK(axl_buffer_release(p->A));
    AXL_OK(axl_buffer_release(p->B));
    AXL_OK(axl_buffer_release(p->C));
    AXL_OK(axl_buffer_release(p->D));
    AXL_OK(axl_buffer_release(p->E));
}

/* recording: the events are nodes' stand-ins, not released. */
static void program_submit(rig *r, program *p, bool recording)
{
    int32_t seven = 7;
    AXL_OK(vadd(r, p->A, p->B, p->C, N, NULL));
    AXL_OK(vadd(r, p->C, p->B, p->D, N, NULL));
    AXL_OK(axl_queue_fill(r->q, p->E, NULL, &seven, 4, NULL, 0, NULL));
    AXL_OK(axl_queue_copy_to_host(r->q, p->D, NULL, p->d, NULL, 0, NULL));
    axl_event copied;
    AXL_OK(axl_queue_copy_to_host(r->q, p->E, NULL, p->e, NULL, 0, &copied));
    AXL_OK(axl_queue_host_task(r->q, doubling_task, p->e, &copied, 1, NULL));
    if (!recording)
        AXL_OK(axl_event_release(copied));
}

/* ---- Recording ---------------------------------------------------------------------- */

static void recording_queue_submissions_return_without_running_anything(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    program p;
    program_make(&p);
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r.q));
    atomic_store(&task_runs, 0);
    program_submit(&r, &p, true);
    AXL_OK(axl_queue_host_task(r.q, count_task, NULL, NULL, 0, NULL));
    /* Nothing ran, nothing is in flight (a recording queue is not waited
     * on: waiting_on_a_recording_queue_is_invalid_naming_its_graph). */
    assert_int_equal(atomic_load(&task_runs), 0);
    for (int i = 0; i < N; i++)
        assert_int_equal(p.d[i], 0);
    assert_int_equal(axl_test_pool("command").in_use, 0);
    uint32_t count;
    AXL_OK(axl_graph_node_count(g, &count));
    assert_int_equal(count, 7);
    AXL_OK(axl_graph_end_recording(g, r.q));
    /* After end_recording the queue runs what it is given again. */
    AXL_OK(axl_queue_host_task(r.q, count_task, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(r.q));
    assert_int_equal(atomic_load(&task_runs), 1);
    AXL_OK(axl_graph_release(g));
    program_free(&p);
    axl_test_rig_down(&r);
}

/* A recorded command's event stands for its node: a dependency of later
 * recorded commands, nothing else. */
static void a_recorded_event_is_a_node_and_outside_events_are_refused(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    /* An event from before the recording, not complete yet. */
    axl_host_accessor ha;
    axl_buffer B;
    void *ptr;
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &B));
    AXL_OK(axl_host_accessor_create(B, AXL_ACCESS_READ_WRITE, NULL, 0, &ha,
                                    &ptr));
    axl_event outside;
    AXL_OK(axl_queue_fill(r.q, B, NULL, &(int32_t){1}, 4, NULL, 0, &outside));
    AXL_OK(axl_graph_begin_recording(g, r.q));
    axl_event first;
    AXL_OK(axl_queue_host_task(r.q, count_task, NULL, NULL, 0, &first));
    axl_graph_node node;
    AXL_OK(axl_graph_node_from_event(first, &node));
    AXL_OK(axl_queue_host_task(r.q, count_task, NULL, &first, 1, NULL));
    AXL_EXPECT(axl_queue_host_task(r.q, count_task, NULL, &outside, 1, NULL),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("submitted outside");
    /* Waiting on a node's stand-in is not waiting on a command. */
    AXL_EXPECT(axl_event_wait(first), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("recorded command");
    /* A second graph cannot start on a recording queue. */
    axl_graph g2;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g2));
    AXL_EXPECT(axl_graph_begin_recording(g2, r.q), AXL_ERR_BAD_STATE);
    AXL_EXPECT(axl_graph_end_recording(g2, r.q), AXL_ERR_BAD_STATE);
    AXL_OK(axl_graph_end_recording(g, r.q));
    /* Outside the recording the stand-in is refused. */
    AXL_EXPECT(axl_queue_host_task(r.q, count_task, NULL, &first, 1, NULL),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("does not record");
    uint32_t count;
    AXL_OK(axl_graph_node_count(g, &count));
    assert_int_equal(count, 2);
    AXL_OK(axl_host_accessor_release(ha));
    AXL_OK(axl_event_wait(outside));
    AXL_OK(axl_event_release(outside));
    AXL_OK(axl_graph_release(g2));
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_buffer_release(B));
    axl_test_rig_down(&r);
}

/* ---- Node handles where events go (status.h, handler.h, graph.h) -------------- */

static axl_buffer ramp_buffer(int32_t k);
static void read_back(rig *r, axl_buffer b, int32_t *out);

/* A never-created handle of the node kind (index 4095: past every pool). */
static axl_event forged_node(axl_event node)
{
    return (axl_event){node.id | 0xFFFu};
}

static void depend_cgf(axl_handler *h, void *user)
{
    axl_handler_depends_on(h, *(const axl_event *)user);
    axl_handler_host_task(h, count_task, NULL);
}

/* status.h: a stale, destroyed or never-created handle is
 * AXL_ERR_INVALID_OBJECT, whatever call it is given to; a node handle is
 * looked up where it is accepted, not left to fail later as another
 * status. */
static void a_stale_or_forged_node_handle_is_an_invalid_object_status_h(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    atomic_store(&task_runs, 0);
    axl_graph g, g2;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g2));
    AXL_OK(axl_graph_begin_recording(g, r.q));
    axl_event gone;
    AXL_OK(axl_queue_host_task(r.q, count_task, NULL, NULL, 0, &gone));
    AXL_OK(axl_graph_end_recording(g, r.q));
    const axl_event forged = forged_node(gone);
    AXL_OK(axl_graph_release(g)); /* its nodes go: `gone` is stale */
    axl_queue q2;
    AXL_OK(axl_queue_create(r.ctx, r.dev, 0, NULL, &q2));
    AXL_OK(axl_graph_begin_recording(g2, q2));
    const axl_event bad[2] = {gone, forged};
    for (int i = 0; i < 2; i++) {
        axl_event e = bad[i];
        /* Where an event goes: a dependency of a queue that runs, of one
         * that records, of a command group, of a graph's submission... */
        AXL_EXPECT(axl_queue_host_task(r.q, count_task, NULL, &e, 1, NULL),
                   AXL_ERR_INVALID_OBJECT);
        AXL_MESSAGE_HAS("graph node");
        AXL_EXPECT(axl_queue_host_task(q2, count_task, NULL, &e, 1, NULL),
                   AXL_ERR_INVALID_OBJECT);
        AXL_EXPECT(axl_queue_submit(r.q, depend_cgf, &e, NULL),
                   AXL_ERR_INVALID_OBJECT);
        AXL_EXPECT(axl_queue_single_task(r.q, r.vadd, NULL, 0, &e, 1, NULL),
                   AXL_ERR_INVALID_OBJECT);
        /* ...a wait, a release, a query... */
        AXL_EXPECT(axl_event_wait(e), AXL_ERR_INVALID_OBJECT);
        AXL_EXPECT(axl_event_wait_and_throw(e), AXL_ERR_INVALID_OBJECT);
        AXL_EXPECT(axl_event_release(e), AXL_ERR_INVALID_OBJECT);
        axl_event_status es;
        AXL_EXPECT(axl_event_get_status(e, &es, NULL),
                   AXL_ERR_INVALID_OBJECT);
        /* ...and where a node goes. */
        axl_graph_node n;
        AXL_EXPECT(axl_graph_node_from_event(e, &n), AXL_ERR_INVALID_OBJECT);
        axl_graph_node dep = {e.id};
        AXL_EXPECT(axl_graph_add(g2, count_cgf, NULL, &dep, 1, NULL),
                   AXL_ERR_INVALID_OBJECT);
    }
    uint32_t count;
    AXL_OK(axl_graph_node_count(g2, &count));
    assert_int_equal(count, 0);
    AXL_OK(axl_graph_end_recording(g2, q2));
    AXL_OK(axl_graph_release(g2));
    AXL_OK(axl_queue_release(q2));
    assert_int_equal(atomic_load(&task_runs), 0);
    axl_test_rig_down(&r);
}

/* sycl_ext_oneapi_graph, "Event Limitations": a host-side wait on the
 * event of a recorded submission, a status or profiling query, or its
 * use outside the recording throws errc::invalid. The event is neither
 * stale nor forged (status.h's AXL_ERR_INVALID_OBJECT): it is
 * AXL_ERR_INVALID, and the message names its graph. */
static void waiting_on_a_recorded_command_is_invalid_naming_its_graph(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    atomic_store(&task_runs, 0);
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    char graph[40];
    snprintf(graph, sizeof graph, "graph 0x%08x", (unsigned)g.id);
    AXL_OK(axl_graph_begin_recording(g, r.q));
    axl_event rec;
    AXL_OK(axl_queue_host_task(r.q, count_task, NULL, NULL, 0, &rec));
    AXL_EXPECT(axl_event_wait(rec), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS(graph);
    AXL_OK(axl_graph_end_recording(g, r.q));
    AXL_EXPECT(axl_event_wait(rec), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS(graph);
    AXL_EXPECT(axl_event_wait_for(rec, 1000), AXL_ERR_INVALID);
    AXL_EXPECT(axl_event_wait_and_throw(rec), AXL_ERR_INVALID);
    axl_event two[2];
    AXL_OK(axl_event_create_complete(&two[0]));
    two[1] = rec;
    AXL_EXPECT(axl_event_wait_list(two, 2), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS(graph);
    AXL_OK(axl_event_release(two[0]));
    axl_event_status es;
    AXL_EXPECT(axl_event_get_status(rec, &es, NULL), AXL_ERR_INVALID);
    uint64_t ns;
    AXL_EXPECT(axl_event_get_profiling(rec, AXL_PROFILING_COMMAND_END, &ns),
               axl_test_switch_of("axl_event_get_profiling")
                   ? AXL_ERR_FEATURE_NOT_SUPPORTED
                   : AXL_ERR_INVALID);
    /* Its graph frees it: a release is refused too, and changes nothing. */
    AXL_EXPECT(axl_event_release(rec), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS(graph);
    axl_graph_node n;
    AXL_OK(axl_graph_node_from_event(rec, &n));
    /* Used outside the recording (handler.h: a dependency), it is refused
     * the same way. */
    AXL_EXPECT(axl_queue_host_task(r.q, count_task, NULL, &rec, 1, NULL),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("does not record");
    AXL_OK(axl_graph_release(g));
    assert_int_equal(atomic_load(&task_runs), 0);
    axl_test_rig_down(&r);
}

typedef struct node_then_gone {
    axl_event node;
    axl_buffer gone;
} node_then_gone;

static void node_then_gone_cgf(axl_handler *h, void *user)
{
    node_then_gone *u = user;
    axl_handler_depends_on(h, u->node);
    axl_accessor a;
    axl_handler_require(h, u->gone, AXL_ACCESS_READ, NULL, 0, &a);
    axl_handler_host_task(h, count_task, NULL);
}

/* handler.h: "the first error is kept in the handler ... and
 * axl_queue_submit returns that error". A group that names a recorded
 * command and then meets an error of its own returns its own error, not
 * the one its node dependency would have given at submission. */
static void a_group_naming_a_node_returns_its_own_first_error_handler_h(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r.q));
    node_then_gone u;
    AXL_OK(axl_queue_host_task(r.q, count_task, NULL, NULL, 0, &u.node));
    AXL_OK(axl_graph_end_recording(g, r.q));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &u.gone));
    AXL_OK(axl_buffer_release(u.gone));
    /* On a queue that does not record: the buffer's error, not "the
     * queue does not record". */
    AXL_EXPECT(axl_queue_submit(r.q, node_then_gone_cgf, &u, NULL),
               AXL_ERR_INVALID_OBJECT);
    AXL_MESSAGE_HAS("buffer");
    AXL_EXPECT(axl_queue_single_task(r.q, r.vadd,
                                     AXL_ARGS(AXL_ARG_IN(u.gone),
                                              AXL_ARG_IN(u.gone),
                                              AXL_ARG_OUT(u.gone),
                                              AXL_ARG_U32(1)),
                                     &u.node, 1, NULL),
               AXL_ERR_INVALID_OBJECT);
    AXL_MESSAGE_HAS("buffer");
    /* And on a queue recording another graph. */
    axl_graph g2;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g2));
    AXL_OK(axl_graph_begin_recording(g2, r.q));
    AXL_EXPECT(axl_queue_submit(r.q, node_then_gone_cgf, &u, NULL),
               AXL_ERR_INVALID_OBJECT);
    AXL_MESSAGE_HAS("buffer");
    AXL_OK(axl_graph_end_recording(g2, r.q));
    AXL_OK(axl_graph_release(g2));
    AXL_OK(axl_graph_release(g));
    axl_test_rig_down(&r);
}

/* sycl_ext_oneapi_graph, "Recorded Graph Definition": an event passed to
 * depends_on in a recording "must be an event returned from a queue
 * submission captured by the same graph. Otherwise, a synchronous error
 * will be thrown with error code invalid". Whether the outside command
 * has finished does not enter into it: the same call is refused while it
 * runs and once it is done (a gate holds it, then lets it go). */
static void a_recorded_command_depends_only_on_its_graph_whatever_the_timing(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    atomic_store(&task_runs, 0);
    axl_queue other;
    AXL_OK(axl_queue_create(r.ctx, r.dev, 0, NULL, &other));
    atomic_int open = 0;
    axl_event outside, done;
    AXL_OK(axl_queue_host_task(other, axl_test_gate, &open, NULL, 0,
                               &outside));
    AXL_OK(axl_event_create_complete(&done));
    axl_buffer A = ramp_buffer(1), O = ramp_buffer(0);
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    axl_graph byhand;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &byhand));
    AXL_OK(axl_graph_begin_recording(g, r.q));
    for (int pass = 0; pass < 2; pass++) {
        axl_event_status es;
        AXL_OK(axl_event_get_status(outside, &es, NULL));
        assert_int_equal(es == AXL_EVENT_COMPLETE, pass == 1);
        /* The shortcut, a command group, a launch: refused either way. */
        AXL_EXPECT(axl_queue_host_task(r.q, count_task, NULL, &outside, 1,
                                       NULL),
                   AXL_ERR_INVALID);
        AXL_MESSAGE_HAS("submitted outside");
        AXL_EXPECT(axl_queue_submit(r.q, depend_cgf, &outside, NULL),
                   AXL_ERR_INVALID);
        AXL_MESSAGE_HAS("submitted outside");
        AXL_EXPECT(axl_queue_single_task(r.q, r.vadd,
                                         AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A),
                                                  AXL_ARG_OUT(O),
                                                  AXL_ARG_U32(N)),
                                         &outside, 1, NULL),
                   AXL_ERR_INVALID);
        AXL_MESSAGE_HAS("submitted outside");
        /* A graph's explicit node too (of a graph no queue records into:
         * adding_a_node_while_a_queue_records_into_the_graph_is_refused). */
        AXL_EXPECT(axl_graph_add(byhand, depend_cgf, &outside, NULL, 0,
                                 NULL),
                   AXL_ERR_INVALID);
        AXL_MESSAGE_HAS("submitted outside");
        /* An event that was complete from the start (event()) as well. */
        AXL_EXPECT(axl_queue_host_task(r.q, count_task, NULL, &done, 1,
                                       NULL),
                   AXL_ERR_INVALID);
        AXL_MESSAGE_HAS("submitted outside");
        if (pass == 0) {
            atomic_store(&open, 1);
            AXL_OK(axl_event_wait(outside));
        }
    }
    uint32_t count;
    AXL_OK(axl_graph_node_count(g, &count));
    assert_int_equal(count, 0);
    AXL_OK(axl_graph_end_recording(g, r.q));
    /* Outside a recording a complete event adds nothing (handler.h). */
    AXL_OK(axl_queue_host_task(r.q, count_task, NULL, &outside, 1, NULL));
    AXL_OK(axl_queue_wait(r.q));
    assert_int_equal(atomic_load(&task_runs), 1);
    AXL_OK(axl_event_release(outside));
    AXL_OK(axl_event_release(done));
    AXL_OK(axl_graph_release(byhand));
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_queue_release(other));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(O));
    axl_test_rig_down(&r);
}

/* ---- The extension's rules (sycl_ext_oneapi_graph) ----------------------------------- */

/* "Member functions of the command_graph class", add(cgf): "Throws ...
 * invalid if a queue is recording commands to the graph". Refused while
 * any queue records into the graph (the graph's state forbids it:
 * AXL_ERR_BAD_STATE, errc::invalid), naming the queue; nothing is added.
 * A queue recording into another graph does not stand in the way. */
static void adding_a_node_while_a_queue_records_into_the_graph_is_refused(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    axl_queue q2;
    AXL_OK(axl_queue_create(r.ctx, r.dev, 0, NULL, &q2));
    axl_graph g, other;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    AXL_OK(axl_graph_create(r.ctx, r.dev, &other));
    AXL_OK(axl_graph_add(g, count_cgf, NULL, NULL, 0, NULL));
    AXL_OK(axl_graph_begin_recording(g, r.q));
    AXL_OK(axl_graph_begin_recording(g, q2));
    char queue[40];
    snprintf(queue, sizeof queue, "queue 0x%08x", (unsigned)r.q.id);
    axl_graph_node node = {0};
    AXL_EXPECT(axl_graph_add(g, count_cgf, NULL, NULL, 0, &node),
               AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS(queue);
    assert_int_equal(node.id, 0);
    /* Another graph is not recorded into: nodes go into it by hand. */
    AXL_OK(axl_graph_add(other, count_cgf, NULL, NULL, 0, NULL));
    /* One queue still records: still refused. */
    AXL_OK(axl_graph_end_recording(g, r.q));
    AXL_EXPECT(axl_graph_add(g, count_cgf, NULL, NULL, 0, NULL),
               AXL_ERR_BAD_STATE);
    uint32_t count;
    AXL_OK(axl_graph_node_count(g, &count));
    assert_int_equal(count, 1);
    AXL_OK(axl_graph_end_recording(g, q2));
    AXL_OK(axl_graph_add(g, count_cgf, NULL, NULL, 0, NULL));
    AXL_OK(axl_graph_node_count(g, &count));
    assert_int_equal(count, 2);
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_graph_release(other));
    AXL_OK(axl_queue_release(q2));
    axl_test_rig_down(&r);
}

/* "Member functions of the command_graph class for queue recording",
 * end_recording(recordingQueue): "a no-op if recordingQueue is already
 * in the queue_state::executing state"; it throws invalid only for a
 * queue recording to a different graph (AXL_ERR_BAD_STATE, errc::invalid,
 * as begin_recording on a recording queue). */
static void end_recording_on_a_queue_that_does_not_record_does_nothing(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    atomic_store(&task_runs, 0);
    axl_graph g, other;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    AXL_OK(axl_graph_create(r.ctx, r.dev, &other));
    /* Never recording, and recording no more: nothing changes. */
    AXL_OK(axl_graph_end_recording(g, r.q));
    AXL_OK(axl_graph_begin_recording(g, r.q));
    AXL_OK(axl_graph_end_recording(g, r.q));
    AXL_OK(axl_graph_end_recording(g, r.q));
    AXL_OK(axl_queue_host_task(r.q, count_task, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    assert_int_equal(atomic_load(&task_runs), 1);
    /* Recording into another graph: refused, and it records on. */
    AXL_OK(axl_graph_begin_recording(other, r.q));
    AXL_EXPECT(axl_graph_end_recording(g, r.q), AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("another graph");
    AXL_OK(axl_queue_host_task(r.q, count_task, NULL, NULL, 0, NULL));
    uint32_t count;
    AXL_OK(axl_graph_node_count(other, &count));
    assert_int_equal(count, 1);
    AXL_OK(axl_graph_end_recording(other, r.q));
    /* A stale queue is still a stale handle (status.h). */
    axl_queue gone;
    AXL_OK(axl_queue_create(r.ctx, r.dev, 0, NULL, &gone));
    AXL_OK(axl_queue_release(gone));
    AXL_EXPECT(axl_graph_end_recording(g, gone), AXL_ERR_INVALID_OBJECT);
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_graph_release(other));
    assert_int_equal(atomic_load(&task_runs), 1);
    axl_test_rig_down(&r);
}

/* "Queue Limitations": "A host-side wait on a queue in the recording
 * state is an error and will throw synchronously with error code
 * invalid", recorded work or not; the message names the graph. */
static void waiting_on_a_recording_queue_is_invalid_naming_its_graph(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    atomic_store(&task_runs, 0);
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    char graph[40];
    snprintf(graph, sizeof graph, "graph 0x%08x", (unsigned)g.id);
    AXL_OK(axl_graph_begin_recording(g, r.q));
    AXL_EXPECT(axl_queue_wait(r.q), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS(graph);
    AXL_OK(axl_queue_host_task(r.q, count_task, NULL, NULL, 0, NULL));
    AXL_EXPECT(axl_queue_wait(r.q), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS(graph);
    AXL_EXPECT(axl_queue_wait_and_throw(r.q), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS(graph);
    AXL_OK(axl_graph_end_recording(g, r.q));
    AXL_OK(axl_queue_wait(r.q));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    assert_int_equal(atomic_load(&task_runs), 0);
    AXL_OK(axl_graph_release(g));
    axl_test_rig_down(&r);
}

/* A one-node graph's host task: how many of it run at once, and the first
 * of them holds its worker until instance_gate opens (and fails, with
 * instance_fail set, once it does). */
static atomic_int inside, most_inside, entered, instance_gate, instance_fail;
static axl_status instance_task(void *user)
{
    (void)user;
    int now = atomic_fetch_add(&inside, 1) + 1, most = atomic_load(&most_inside);
    while (now > most &&
           !atomic_compare_exchange_weak(&most_inside, &most, now))
        ;
    const bool first = atomic_fetch_add(&entered, 1) == 0;
    if (first)
        axl_test_gate(&instance_gate);
    atomic_fetch_sub(&inside, 1);
    if (first && atomic_load(&instance_fail))
        return axl_fail(AXL_ERR_RUNTIME, "the first instance failed");
    return AXL_SUCCESS;
}

static void instance_cgf(axl_handler *h, void *user)
{
    axl_handler_host_task(h, instance_task, user);
}

/* "New Handler Member Functions", handler::ext_oneapi_graph(graph): "Only
 * one instance of graph will execute at any time. If graph is submitted
 * multiple times, dependencies are automatically added by the runtime to
 * prevent concurrent executions of an identical graph." Submitted twice to
 * one out-of-order queue, then to two queues: the second does not start
 * while the first runs (watched for 200 ms: without the rule the second
 * starts at once on the other worker), and starts once it is done. The
 * dependency only orders: a failed first instance does not fail the
 * second (nor is the rule a reason for the second to run on its own). */
static void one_instance_of_an_executable_graph_runs_at_a_time(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    if (AXL_HOST_TASK_WORKERS < 2)
        skip(); /* one worker runs one host task at a time anyway */
    rig r = axl_test_rig_up(0);
    axl_queue q2;
    AXL_OK(axl_queue_create(r.ctx, r.dev, 0, NULL, &q2));
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    AXL_OK(axl_graph_add(g, instance_cgf, NULL, NULL, 0, NULL));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    for (int way = 0; way < 3; way++) {
        atomic_store(&inside, 0);
        atomic_store(&most_inside, 0);
        atomic_store(&entered, 0);
        atomic_store(&instance_gate, 0);
        atomic_store(&instance_fail, way == 2);
        axl_event first, second;
        AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, &first));
        AXL_OK(axl_queue_submit_graph(way == 0 ? r.q : q2, x, NULL, 0,
                                      &second));
        axl_event_status es = AXL_EVENT_SUBMITTED;
        for (int ms = 0; ms < 200 && es == AXL_EVENT_SUBMITTED; ms++) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
            AXL_OK(axl_event_get_status(second, &es, NULL));
        }
        assert_int_equal(es, AXL_EVENT_SUBMITTED);
        atomic_store(&instance_gate, 1);
        AXL_EXPECT(axl_event_wait_and_throw(first),
                   way == 2 ? AXL_ERR_RUNTIME : AXL_SUCCESS);
        AXL_OK(axl_event_wait_and_throw(second));
        assert_int_equal(atomic_load(&entered), 2);
        assert_int_equal(atomic_load(&most_inside), 1);
        AXL_OK(axl_event_release(first));
        AXL_OK(axl_event_release(second));
    }
    /* Without events asked for, the same. */
    atomic_store(&entered, 1); /* no instance holds the gate */
    atomic_store(&instance_fail, 0);
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
    AXL_OK(axl_queue_submit_graph(q2, x, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(r.q));
    AXL_OK(axl_queue_wait(q2));
    assert_int_equal(atomic_load(&most_inside), 1);
    assert_int_equal(atomic_load(&entered), 3);
    assert_int_equal(axl_test_pool("command").in_use, 0);
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_queue_release(q2));
    axl_test_rig_down(&r);
}

/* "Queue Recording API", Node: nodes are made from the command groups
 * submitted to a recording queue "or from the queue shortcut equivalents";
 * parallel_for is one (axl/queue.h), so one node: its event and each
 * chunk's event are that node, nothing runs, no sub-buffer is made
 * (however many chunks: no node per chunk, nor nodes to join them). A
 * replay does what the same call does at once. */
static void parallel_for_is_recorded_as_one_node_of_its_chunks(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    atomic_store(&task_runs, 0);
    /* Large enough for two chunks on mem_base_addr_align boundaries. */
    enum { BIG = 1024 };
    static int32_t a[BIG], b[BIG], o[BIG];
    for (int i = 0; i < BIG; i++) {
        a[i] = i;
        b[i] = 1000 * i;
        o[i] = -1;
    }
    axl_buffer A, B, O;
    AXL_OK(axl_buffer_create_from_const(a, 4, axl_range_1d(BIG), NULL, &A));
    AXL_OK(axl_buffer_create_from_const(b, 4, axl_range_1d(BIG), NULL, &B));
    AXL_OK(axl_buffer_create(4, axl_range_1d(BIG), NULL, &O));
    AXL_OK(axl_queue_copy_from_host(r.q, o, O, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    const uint32_t buffers = axl_test_pool("buffer").in_use;
    /* Two chunks, then more than a node keeps edges: one node each time
     * (sycl_ext_oneapi_graph: a parallel_for is one command group). */
    const uint32_t chunks[2] = {2, AXL_MAX_GRAPH_NODE_DEPS + 2};
    for (int c = 0; c < 2; c++) {
        AXL_OK(axl_queue_copy_from_host(r.q, o, O, NULL, NULL, 0, NULL));
        AXL_OK(axl_queue_wait_and_throw(r.q));
        axl_graph g;
        AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
        AXL_OK(axl_graph_begin_recording(g, r.q));
        axl_event done, chunk[AXL_MAX_GRAPH_NODE_DEPS + 2];
        uint32_t nchunks = 0;
        AXL_OK(axl_queue_parallel_for(
            r.q, r.vadd, BIG,
            AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(B), AXL_ARG_WRITE(O),
                     AXL_ARG_U32(0)),
            &(axl_split){.count_arg = "size", .chunks = chunks[c],
                         .chunk_events = chunk, .chunk_count = &nchunks},
            NULL, 0, &done));
        assert_int_equal(nchunks, chunks[c]);
        /* No sub-buffer is made, no command; every chunk's event is the
         * call's, the one node. */
        assert_int_equal(axl_test_pool("buffer").in_use, buffers);
        assert_int_equal(axl_test_pool("command").in_use, 0);
        axl_graph_node node, chunk_node;
        AXL_OK(axl_graph_node_from_event(done, &node));
        for (uint32_t k = 0; k < nchunks; k++) {
            AXL_OK(axl_graph_node_from_event(chunk[k], &chunk_node));
            assert_int_equal(chunk_node.id, node.id);
        }
        /* Its event is a node later recorded commands may depend on. */
        AXL_OK(axl_queue_host_task(r.q, count_task, NULL, &done, 1, NULL));
        uint32_t count;
        AXL_OK(axl_graph_node_count(g, &count));
        assert_int_equal(count, 2); /* the parallel_for, the task */
        AXL_OK(axl_graph_end_recording(g, r.q));
        int32_t out[BIG];
        AXL_OK(axl_queue_copy_to_host(r.q, O, NULL, out, NULL, 0, NULL));
        AXL_OK(axl_queue_wait_and_throw(r.q));
        for (int i = 0; i < BIG; i++)
            assert_int_equal(out[i], -1); /* nothing ran */
        axl_graph_exec x;
        AXL_OK(axl_graph_finalize(g, &x));
        AXL_OK(axl_graph_release(g));
        atomic_store(&task_runs, 0);
        for (int k = 0; k < 2; k++) {
            AXL_OK(axl_queue_copy_from_host(r.q, o, O, NULL, NULL, 0, NULL));
            AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
            AXL_OK(axl_queue_copy_to_host(r.q, O, NULL, out, NULL, 0, NULL));
            AXL_OK(axl_queue_wait_and_throw(r.q));
            for (int i = 0; i < BIG; i++)
                assert_int_equal(out[i], a[i] + b[i]);
            assert_int_equal(atomic_load(&task_runs), k + 1);
        }
        AXL_OK(axl_graph_exec_release(x));
        assert_int_equal(axl_test_pool("buffer").in_use, buffers);
    }
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(O));
    axl_test_rig_down(&r);
}

/* ---- Replay ----------------------------------------------------------------------- */

static void replay_equals_the_same_commands_submitted_one_by_one(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    program direct, replay;
    program_make(&direct);
    program_make(&replay);
    program_submit(&r, &direct, false);
    AXL_OK(axl_queue_wait_and_throw(r.q));

    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r.q));
    program_submit(&r, &replay, true);
    AXL_OK(axl_graph_end_recording(g, r.q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    AXL_OK(axl_graph_release(g)); /* the executable graph stands alone */
    axl_event done;
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, &done));
    AXL_OK(axl_event_wait(done));
    AXL_OK(axl_event_release(done));
    assert_memory_equal(replay.d, direct.d, sizeof direct.d);
    assert_memory_equal(replay.e, direct.e, sizeof direct.e);
    /* The values themselves: d = a + 2b, e = 2 * 7. */
    for (int i = 0; i < N; i++) {
        assert_int_equal(direct.d[i], (i * 3 + 1) + 2 * (i * -2 + 1));
        assert_int_equal(direct.e[i], 14);
    }
    /* As often as wanted: each replay copies e afresh and doubles it
     * (the host task's memory is no accessor: one replay at a time). */
    for (int k = 0; k < 3; k++) {
        AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
        AXL_OK(axl_queue_wait_and_throw(r.q));
        assert_memory_equal(replay.e, direct.e, sizeof direct.e);
    }
    assert_int_equal(axl_test_pool("command").in_use, 0);
    AXL_OK(axl_graph_exec_release(x));
    program_free(&direct);
    program_free(&replay);
    axl_test_rig_down(&r);
}

static atomic_int order[8];
static atomic_int order_n;
static axl_status note_task(void *user)
{
    atomic_store(&order[atomic_fetch_add(&order_n, 1) & 7],
                 (int)(intptr_t)user);
    return AXL_SUCCESS;
}

static void note_cgf(axl_handler *h, void *user)
{
    axl_handler_host_task(h, note_task, user);
}

/* Nodes built one by one (command_graph::add) run after the nodes they
 * name, and the graph's event waits for all of them (three sinks: more
 * than one join command takes with the default AXL_MAX_COMMAND_DEPS). */
static void added_nodes_run_after_their_dependencies(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    axl_graph_node a, b, c, d;
    AXL_OK(axl_graph_add(g, note_cgf, (void *)1, NULL, 0, &a));
    AXL_OK(axl_graph_add(g, note_cgf, (void *)2, &a, 1, &b));
    AXL_OK(axl_graph_add(g, note_cgf, (void *)3, &a, 1, &c));
    AXL_OK(axl_graph_add(g, note_cgf, (void *)4, NULL, 0, &d));
    /* A node of another graph is no edge of this one. */
    axl_graph other;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &other));
    AXL_EXPECT(axl_graph_add(other, note_cgf, (void *)5, &a, 1, NULL),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("not a node of this graph");
    AXL_OK(axl_graph_release(other));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    for (int k = 0; k < 2; k++) {
        atomic_store(&order_n, 0);
        axl_event done;
        AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, &done));
        AXL_OK(axl_event_wait(done));
        /* Complete means every node has run. */
        assert_int_equal(atomic_load(&order_n), 4);
        int pos[5] = {0};
        for (int i = 0; i < 4; i++)
            pos[atomic_load(&order[i])] = i;
        assert_true(pos[1] < pos[2]);
        assert_true(pos[1] < pos[3]);
        AXL_OK(axl_event_release(done));
    }
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    axl_test_rig_down(&r);
}

/* The graph's one event waits for every node no other node waits for,
 * through as many join commands as that takes (a command keeps
 * AXL_MAX_COMMAND_DEPS - AXL_MAX_HOST_ACCESSORS edges that carry
 * failures), and fails with a failing one, quoting its message. */
static void the_graph_event_waits_for_every_sink_and_fails_with_one(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    int fan = AXL_MAX_COMMAND_DEPS - AXL_MAX_HOST_ACCESSORS;
    int n = 2 * fan + 1; /* two levels of joins */
    if (n > AXL_MAX_GRAPH_NODES / 2)
        n = AXL_MAX_GRAPH_NODES / 2;
    if (n > AXL_MAX_COMMANDS - 4)
        n = AXL_MAX_COMMANDS - 4;
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    for (int i = 0; i < n; i++)
        AXL_OK(axl_graph_add(g, count_cgf, NULL, NULL, 0, NULL));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    atomic_store(&task_runs, 0);
    axl_event done;
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, &done));
    AXL_OK(axl_event_wait(done));
    assert_int_equal(atomic_load(&task_runs), n);
    AXL_OK(axl_event_release(done));
    AXL_OK(axl_graph_exec_release(x));
    /* The last sink fails: the event fails with its status and message,
     * and the queue's async errors hold that failure once (the joins'
     * failures are their events' only). */
    AXL_OK(axl_graph_add(g, fail_cgf, NULL, NULL, 0, NULL));
    AXL_OK(axl_graph_finalize(g, &x));
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, &done));
    AXL_EXPECT(axl_event_wait(done), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("the sensor did not answer");
    AXL_OK(axl_event_release(done));
    AXL_EXPECT(axl_queue_throw_asynchronous(r.q), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("the sensor did not answer");
    AXL_OK(axl_queue_throw_asynchronous(r.q));
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    axl_test_rig_down(&r);
}

/* An empty graph is a barrier on its submission's dependencies: its
 * event completes once they have (4.9.3, a group with no action). */
static void an_empty_graph_completes_after_its_dependencies(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    axl_buffer B;
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &B));
    axl_host_accessor ha;
    void *ptr;
    AXL_OK(axl_host_accessor_create(B, AXL_ACCESS_READ_WRITE, NULL, 0, &ha,
                                    &ptr));
    axl_event filled, done;
    AXL_OK(axl_queue_fill(r.q, B, NULL, &(int32_t){3}, 4, NULL, 0, &filled));
    AXL_OK(axl_queue_submit_graph(r.q, x, &filled, 1, &done));
    axl_event_status st;
    axl_status err;
    AXL_OK(axl_event_get_status(done, &st, &err));
    assert_int_not_equal(st, AXL_EVENT_COMPLETE); /* the fill waits */
    AXL_OK(axl_host_accessor_release(ha));
    AXL_OK(axl_event_wait(done));
    AXL_OK(axl_event_get_status(filled, &st, &err));
    assert_int_equal(st, AXL_EVENT_COMPLETE);
    AXL_OK(axl_event_release(done));
    AXL_OK(axl_event_release(filled));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    axl_test_rig_down(&r);
}

/* An empty graph given more dependencies than a command group holds
 * (AXL_MAX_HANDLER_DEPS) waits for all of them, as such a group does
 * (it becomes a barrier): here the last two are fills held back by a host
 * accessor the test still holds after the first ones have run. */
static void an_empty_graph_waits_for_more_dependencies_than_a_group_holds(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    enum { FIRST = AXL_MAX_HANDLER_DEPS, ALL = AXL_MAX_HANDLER_DEPS + 2 };
    rig r = axl_test_rig_up(0);
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    axl_buffer A, C;
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &A));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &C));
    axl_host_accessor ha, hc;
    void *ptr;
    AXL_OK(axl_host_accessor_create(A, AXL_ACCESS_READ_WRITE, NULL, 0, &ha,
                                    &ptr));
    AXL_OK(axl_host_accessor_create(C, AXL_ACCESS_READ_WRITE, NULL, 0, &hc,
                                    &ptr));
    axl_event fills[ALL], done;
    for (int i = 0; i < ALL; i++)
        AXL_OK(axl_queue_fill(r.q, i < FIRST ? A : C, NULL, &(int32_t){i}, 4,
                              NULL, 0, &fills[i]));
    AXL_OK(axl_queue_submit_graph(r.q, x, fills, ALL, &done));
    AXL_OK(axl_host_accessor_release(ha));
    AXL_OK(axl_event_wait_list(fills, FIRST));
    /* Time for a join that waited only for the first ones to complete. */
    struct timespec t = {0, 50 * 1000000};
    nanosleep(&t, NULL);
    axl_event_status st;
    axl_status err;
    AXL_OK(axl_event_get_status(done, &st, &err));
    assert_int_not_equal(st, AXL_EVENT_COMPLETE); /* C's fills hold it */
    AXL_OK(axl_host_accessor_release(hc));
    AXL_OK(axl_event_wait(done));
    for (int i = 0; i < ALL; i++) {
        AXL_OK(axl_event_get_status(fills[i], &st, &err));
        assert_int_equal(st, AXL_EVENT_COMPLETE);
        AXL_OK(axl_event_release(fills[i]));
    }
    AXL_OK(axl_event_release(done));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(C));
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    axl_test_rig_down(&r);
}

/* Several queues record into one graph (begin_recording on each): an
 * event of one queue's recorded command orders another queue's. */
static void two_queues_record_into_one_graph(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    axl_queue q2;
    AXL_OK(axl_queue_create(r.ctx, r.dev, 0, NULL, &q2));
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r.q));
    AXL_OK(axl_graph_begin_recording(g, q2));
    axl_event first, second;
    AXL_OK(axl_queue_host_task(q2, note_task, (void *)1, NULL, 0, &first));
    AXL_OK(axl_queue_host_task(r.q, note_task, (void *)2, &first, 1,
                               &second));
    AXL_OK(axl_queue_host_task(q2, note_task, (void *)3, &second, 1, NULL));
    AXL_OK(axl_graph_end_recording(g, r.q));
    AXL_OK(axl_graph_end_recording(g, q2));
    uint32_t count;
    AXL_OK(axl_graph_node_count(g, &count));
    assert_int_equal(count, 3);
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    for (int k = 0; k < 3; k++) {
        atomic_store(&order_n, 0);
        AXL_OK(axl_queue_submit_graph(k % 2 ? q2 : r.q, x, NULL, 0, NULL));
        AXL_OK(axl_queue_wait_and_throw(k % 2 ? q2 : r.q));
        assert_int_equal(atomic_load(&order_n), 3);
        for (int i = 0; i < 3; i++)
            assert_int_equal(atomic_load(&order[i]), i + 1);
    }
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_queue_release(q2));
    axl_test_rig_down(&r);
}

/* An in-order queue records a chain: each node after the one before. */
static void an_in_order_recording_is_a_chain(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_queue ooo;
    AXL_OK(axl_queue_create(r.ctx, r.dev, 0, NULL, &ooo));
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r.q));
    for (intptr_t v = 1; v <= 4; v++)
        AXL_OK(axl_queue_host_task(r.q, note_task, (void *)v, NULL, 0, NULL));
    AXL_OK(axl_graph_end_recording(g, r.q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    atomic_store(&order_n, 0);
    /* Submitted to an out-of-order queue: the chain's edges order it. */
    AXL_OK(axl_queue_submit_graph(ooo, x, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(ooo));
    assert_int_equal(atomic_load(&order_n), 4);
    for (int i = 0; i < 4; i++)
        assert_int_equal(atomic_load(&order[i]), i + 1);
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_queue_release(ooo));
    axl_test_rig_down(&r);
}

/* ---- Updates -------------------------------------------------------------------------- */

/* One vadd node over A, B -> O with n, recorded; its node in *node. */
static axl_graph_exec one_vadd(rig *r, axl_buffer A, axl_buffer B,
                               axl_buffer O, uint32_t n, axl_graph_node *node)
{
    axl_graph g;
    AXL_OK(axl_graph_create(r->ctx, r->dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r->q));
    axl_event e;
    AXL_OK(vadd(r, A, B, O, n, &e));
    AXL_OK(axl_graph_end_recording(g, r->q));
    AXL_OK(axl_graph_node_from_event(e, node));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    AXL_OK(axl_graph_release(g));
    return x;
}

static axl_buffer ramp_buffer(int32_t k)
{
    int32_t v[N];
    fill_ramp(v, k);
    axl_buffer b;
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &b));
    axl_queue q;
    AXL_OK(axl_queue_create(AXL_NO_CONTEXT, axl_test_emu_device(), 0, NULL,
                            &q));
    AXL_OK(axl_queue_copy_from_host(q, v, b, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(q));
    AXL_OK(axl_queue_release(q));
    return b;
}

static void read_back(rig *r, axl_buffer b, int32_t *out)
{
    AXL_OK(axl_queue_copy_to_host(r->q, b, NULL, out, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r->q));
}

static void an_update_is_seen_by_the_next_replay_only(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    axl_buffer A = ramp_buffer(1), B = ramp_buffer(10), O = ramp_buffer(0),
               O2 = ramp_buffer(0);
    axl_graph_node node;
    axl_graph_exec x = one_vadd(&r, A, B, O, 8, &node);
    /* The first replay waits behind a host accessor on A... */
    axl_host_accessor ha;
    void *ptr;
    AXL_OK(axl_host_accessor_create(A, AXL_ACCESS_READ_WRITE, NULL, 0, &ha,
                                    &ptr));
    axl_event first;
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, &first));
    /* ...while the node is given n = 16 and another output. */
    uint32_t sixteen = 16;
    AXL_OK(axl_graph_exec_update_scalar(x, node, 3, &sixteen, 4));
    AXL_OK(axl_graph_exec_update_buffer(x, node, 2, O2));
    AXL_OK(axl_host_accessor_release(ha));
    AXL_OK(axl_event_wait(first));
    AXL_OK(axl_event_release(first));
    int32_t o[N], o2[N];
    read_back(&r, O, o);
    read_back(&r, O2, o2);
    /* The first replay: n = 8 into O, O2 untouched. */
    for (int i = 0; i < N; i++) {
        assert_int_equal(o[i], i < 8 ? (i + 1) + (10 * i + 1) : 1);
        assert_int_equal(o2[i], 1);
    }
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    read_back(&r, O, o);
    read_back(&r, O2, o2);
    /* The second: n = 16 into O2, O as the first left it. */
    for (int i = 0; i < N; i++) {
        assert_int_equal(o[i], i < 8 ? (i + 1) + (10 * i + 1) : 1);
        assert_int_equal(o2[i], i < 16 ? (i + 1) + (10 * i + 1) : 1);
    }
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(O));
    AXL_OK(axl_buffer_release(O2));
    axl_test_rig_down(&r);
}

static void a_bad_update_changes_nothing(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    axl_buffer A = ramp_buffer(1), B = ramp_buffer(10), O = ramp_buffer(0);
    axl_buffer small, gone, other_ctx;
    AXL_OK(axl_buffer_create(4, axl_range_1d(N / 2), NULL, &small));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &gone));
    AXL_OK(axl_buffer_release(gone));
    axl_graph_node node;
    axl_graph_exec x = one_vadd(&r, A, B, O, 8, &node);
    uint64_t wide = 99;
    uint32_t n = 99;
    /* A scalar of the wrong size, a buffer given bytes, an argument the
     * kernel does not have. */
    AXL_EXPECT(axl_graph_exec_update_scalar(x, node, 3, &wide, 8),
               AXL_ERR_KERNEL_ARGUMENT);
    AXL_MESSAGE_HAS("takes 4 bytes");
    AXL_EXPECT(axl_graph_exec_update_scalar(x, node, 2, &n, 4),
               AXL_ERR_KERNEL_ARGUMENT);
    AXL_MESSAGE_HAS("is a buffer");
    AXL_EXPECT(axl_graph_exec_update_scalar(x, node, 9, &n, 4),
               AXL_ERR_KERNEL_ARGUMENT);
    /* A buffer of another size, a released one, one for a scalar. */
    AXL_EXPECT(axl_graph_exec_update_buffer(x, node, 2, small),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("keeps the size");
    AXL_EXPECT(axl_graph_exec_update_buffer(x, node, 2, gone),
               AXL_ERR_INVALID_OBJECT);
    AXL_EXPECT(axl_graph_exec_update_buffer(x, node, 3, A),
               AXL_ERR_KERNEL_ARGUMENT);
    /* A buffer bound to another context. */
    axl_context ctx2;
    AXL_OK(axl_context_create(&r.dev, 1, NULL, &ctx2));
    axl_buffer_props props = {.flags = AXL_BUFFER_CONTEXT_BOUND,
                             .context = ctx2};
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), &props, &other_ctx));
    AXL_EXPECT(axl_graph_exec_update_buffer(x, node, 2, other_ctx),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("another context");
    /* A node handle never made (status.h: AXL_ERR_INVALID_OBJECT), and a
     * live node of another graph (AXL_ERR_INVALID). */
    axl_graph_node forged = {node.id | 0xFFFu};
    AXL_EXPECT(axl_graph_exec_update_scalar(x, forged, 3, &n, 4),
               AXL_ERR_INVALID_OBJECT);
    axl_graph g2;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g2));
    axl_graph_node stranger;
    AXL_OK(axl_graph_add(g2, count_cgf, NULL, NULL, 0, &stranger));
    AXL_EXPECT(axl_graph_exec_update_scalar(x, stranger, 3, &n, 4),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("not a node of the executable graph");
    AXL_OK(axl_graph_release(g2));
    /* Nothing changed: the replay still adds 8 elements into O. */
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    int32_t o[N];
    read_back(&r, O, o);
    for (int i = 0; i < N; i++)
        assert_int_equal(o[i], i < 8 ? (i + 1) + (10 * i + 1) : 1);
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_buffer_release(other_ctx));
    AXL_OK(axl_context_release(ctx2));
    AXL_OK(axl_buffer_release(small));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(O));
    axl_test_rig_down(&r);
}

/* ---- Refusals ------------------------------------------------------------------------- */

static void a_graph_over_a_released_buffer_is_refused_at_finalize(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    axl_buffer A = ramp_buffer(1), O = ramp_buffer(0);
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r.q));
    AXL_OK(vadd(&r, A, A, O, N, NULL));
    AXL_OK(axl_graph_end_recording(g, r.q));
    AXL_OK(axl_buffer_release(A));
    axl_graph_exec x = {0};
    AXL_EXPECT(axl_graph_finalize(g, &x), AXL_ERR_INVALID_OBJECT);
    AXL_MESSAGE_HAS("was released");
    assert_int_equal(x.id, 0);
    assert_int_equal(axl_test_pool("graph_exec").in_use, 0);
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_buffer_release(O));
    axl_test_rig_down(&r);
}

static void a_graph_over_a_released_buffer_is_refused_at_submit(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    axl_buffer A = ramp_buffer(1), O = ramp_buffer(0);
    axl_graph_node node;
    axl_graph_exec x = one_vadd(&r, A, A, O, N, &node);
    /* Once after a submission that found everything live (the next one
     * looks again only when some kernel or buffer is gone). */
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    AXL_OK(axl_buffer_release(O));
    axl_event e = {0};
    AXL_EXPECT(axl_queue_submit_graph(r.q, x, NULL, 0, &e),
               AXL_ERR_INVALID_OBJECT);
    AXL_MESSAGE_HAS("was released");
    assert_int_equal(e.id, 0);
    assert_int_equal(axl_test_pool("command").in_use, 0);
    /* A swap for a live buffer makes it whole again. */
    axl_buffer O2 = ramp_buffer(0);
    AXL_OK(axl_graph_exec_update_buffer(x, node, 2, O2));
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    int32_t o[N];
    read_back(&r, O2, o);
    assert_int_equal(o[5], 2 * (5 + 1));
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(O2));
    axl_test_rig_down(&r);
}

static void a_failed_node_fails_the_graph_event_and_the_queue_keeps_working(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    /* vadd's model fails a size past the buffers (the emulated device's
     * model returning an error). */
    axl_buffer A = ramp_buffer(1), O = ramp_buffer(0);
    axl_graph_node node;
    axl_graph_exec x = one_vadd(&r, A, A, O, N, &node);
    uint32_t too_many = 4 * N;
    AXL_OK(axl_graph_exec_update_scalar(x, node, 3, &too_many, 4));
    axl_event done;
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, &done));
    AXL_EXPECT(axl_event_wait(done), AXL_ERR_KERNEL);
    AXL_OK(axl_event_release(done));
    AXL_EXPECT(axl_queue_wait_and_throw(r.q), AXL_ERR_KERNEL);
    while (axl_queue_throw_asynchronous(r.q) != AXL_SUCCESS) {
    }
    /* The queue goes on: the same graph with a good size, and a plain
     * command. The failed node lost O's contents (a later user fails the
     * same way until something writes all of it): written again first. */
    const int32_t zero = 0;
    AXL_OK(axl_queue_fill(r.q, O, NULL, &zero, sizeof zero, NULL, 0, NULL));
    uint32_t n = N;
    AXL_OK(axl_graph_exec_update_scalar(x, node, 3, &n, 4));
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, &done));
    AXL_OK(axl_event_wait(done));
    AXL_OK(axl_event_release(done));
    int32_t o[N];
    read_back(&r, O, o);
    assert_int_equal(o[N - 1], 2 * (N - 1 + 1));

    /* A failed host task among independent nodes: the event fails with
     * the task's status, whichever join it went through. */
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    AXL_OK(axl_graph_add(g, note_cgf, (void *)1, NULL, 0, NULL));
    AXL_OK(axl_graph_add(g, note_cgf, (void *)2, NULL, 0, NULL));
    axl_graph_node bad;
    AXL_OK(axl_graph_add(g, note_cgf, (void *)3, NULL, 0, NULL));
    AXL_OK(axl_graph_add(g, fail_cgf, NULL, NULL, 0, &bad));
    axl_graph_exec y;
    AXL_OK(axl_graph_finalize(g, &y));
    AXL_OK(axl_queue_submit_graph(r.q, y, NULL, 0, &done));
    AXL_EXPECT(axl_event_wait(done), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("the sensor did not answer");
    AXL_OK(axl_event_release(done));
    AXL_EXPECT(axl_queue_throw_asynchronous(r.q), AXL_ERR_RUNTIME);
    AXL_OK(axl_queue_host_task(r.q, count_task, NULL, NULL, 0, &done));
    AXL_OK(axl_event_wait(done));
    AXL_OK(axl_event_release(done));
    AXL_OK(axl_graph_exec_release(y));
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(O));
    axl_test_rig_down(&r);
}

static void full_graph_pools_are_out_of_resources_naming_the_setting(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    axl_graph g[AXL_MAX_GRAPHS + 1];
    for (int i = 0; i < AXL_MAX_GRAPHS; i++)
        AXL_OK(axl_graph_create(r.ctx, r.dev, &g[i]));
    AXL_EXPECT(axl_graph_create(r.ctx, r.dev, &g[AXL_MAX_GRAPHS]),
               AXL_ERR_OUT_OF_RESOURCES);
    AXL_MESSAGE_HAS("AXL_MAX_GRAPHS");
    /* Nodes: the pool is shared; the node past it is refused and the
     * graph keeps what it had. */
    for (int i = 0; i < AXL_MAX_GRAPH_NODES; i++)
        AXL_OK(axl_graph_add(g[0], note_cgf, (void *)1, NULL, 0, NULL));
    AXL_EXPECT(axl_graph_add(g[0], note_cgf, (void *)1, NULL, 0, NULL),
               AXL_ERR_OUT_OF_RESOURCES);
    AXL_MESSAGE_HAS("AXL_MAX_GRAPH_NODES");
    uint32_t count;
    AXL_OK(axl_graph_node_count(g[0], &count));
    assert_int_equal(count, AXL_MAX_GRAPH_NODES);
    /* Finalize needs a node per node: none is made. */
    axl_graph_exec x;
    AXL_EXPECT(axl_graph_finalize(g[0], &x), AXL_ERR_OUT_OF_RESOURCES);
    AXL_MESSAGE_HAS("AXL_MAX_GRAPH_NODES");
    AXL_OK(axl_graph_release(g[0]));
    /* A graph whose submission needs more commands than the pool has:
     * refused at finalize (where the pools allow such a graph). */
    if (AXL_MAX_COMMANDS < AXL_MAX_GRAPH_NODES / 2) {
        for (int i = 0; i < AXL_MAX_COMMANDS; i++)
            AXL_OK(axl_graph_add(g[1], note_cgf, (void *)1, NULL, 0, NULL));
        AXL_EXPECT(axl_graph_finalize(g[1], &x), AXL_ERR_OUT_OF_RESOURCES);
        AXL_MESSAGE_HAS("AXL_MAX_COMMANDS");
        assert_int_equal(axl_test_pool("graph_exec").in_use, 0);
    }
    for (int i = 1; i < AXL_MAX_GRAPHS; i++)
        AXL_OK(axl_graph_release(g[i]));
    axl_test_rig_down(&r);
}

/* X: a buffer with copies on the rig's device and on fake, its host
 * memory from the test allocator (none made yet). */
static axl_buffer two_device_buffer(rig *r, axl_device fake)
{
    const axl_buffer_props props = {.allocator = &axl_test_allocator};
    axl_buffer X;
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), &props, &X));
    AXL_OK(axl_buffer_place(X, r->dev, 0));
    AXL_OK(axl_buffer_place(X, fake, 0));
    return X;
}

/* X's contents (a ramp of 5) written on fake only, by a queue of its own
 * (returned, for the test to release): a replay on the rig's device then
 * copies them through host memory. */
static axl_queue move_to_fake(axl_device fake, axl_buffer X)
{
    int32_t v[N];
    fill_ramp(v, 5);
    axl_queue qf;
    AXL_OK(axl_queue_create(AXL_NO_CONTEXT, fake, 0, NULL, &qf));
    AXL_OK(axl_queue_copy_from_host(qf, v, X, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(qf));
    return qf;
}

/* A later node's buffer, released by the allocator's hook. */
static axl_buffer release_while_allocating;
static void release_the_buffer(void)
{
    AXL_OK(axl_buffer_release(release_while_allocating));
}

/* Everything a replay may fail on is settled before any node is
 * submitted: here a kernel node's buffer whose data moved to another
 * device since finalize, so the replay must copy it through host memory
 * the buffer's allocator refuses. Before, the host task node ahead of it
 * had already run when the error came back. */
static void a_replay_that_cannot_start_every_node_runs_none(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    axl_device fake = axl_test_fake_device();
    rig r = axl_test_rig_up(0);
    axl_buffer X = two_device_buffer(&r, fake), B = ramp_buffer(0),
               O = ramp_buffer(0);

    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r.q));
    AXL_OK(axl_queue_host_task(r.q, count_task, NULL, NULL, 0, NULL));
    AXL_OK(vadd(&r, X, B, O, N, NULL));
    AXL_OK(axl_graph_end_recording(g, r.q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    AXL_OK(axl_graph_release(g));

    /* X's data now lives on the other device only. */
    axl_queue qf = move_to_fake(fake, X);
    assert_int_equal(axl_test_allocs, 0);

    axl_test_alloc_refuse = true;
    atomic_store(&task_runs, 0);
    const uint32_t commands = axl_test_pool("command").in_use,
                   events = axl_test_pool("event").in_use;
    axl_event done;
    AXL_EXPECT(axl_queue_submit_graph(r.q, x, NULL, 0, &done),
               AXL_ERR_MEMORY_ALLOCATION);
    char why[AXL_MESSAGE_MAX];
    snprintf(why, sizeof why, "%s", axl_last_message());
    AXL_OK(axl_queue_wait_and_throw(r.q));
    assert_int_equal(atomic_load(&task_runs), 0);
    if (axl_test_messages()) /* AXL_MESSAGES=0: the status name */
        assert_non_null(strstr(why, "node 1: "));
    assert_int_equal(axl_test_pool("command").in_use, commands);
    assert_int_equal(axl_test_pool("event").in_use, events);

    /* With the memory, the same executable graph runs whole. */
    axl_test_alloc_refuse = false;
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, &done));
    AXL_OK(axl_event_wait(done));
    AXL_OK(axl_event_release(done));
    assert_int_equal(atomic_load(&task_runs), 1);
    int32_t o[N];
    read_back(&r, O, o);
    for (int i = 0; i < N; i++)
        assert_int_equal(o[i], (i * 5 + 1) + 1);

    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_queue_release(qf));
    AXL_OK(axl_buffer_release(X));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(O));
    axl_test_rig_down(&r);
}

/* A replay runs whole or not at all, so what a submission would refuse is
 * refused before any node runs: a copy from a sub-buffer whose origin the
 * device cannot address (4.7.2.1) is refused when it is recorded, and the
 * graph holds and runs the launch alone. (fuzz_api found a replay whose
 * copy node passed the check at recording and at the replay's first step,
 * where the data was on the host, and was refused after an earlier node
 * had run: the check went by where the data was. It goes by the queue's
 * device now; corpus_api/graph-copy-of-a-misaligned-sub-buffer, and
 * test_buffers' misaligned_sub_buffer_is_invalid_wherever_its_data_is.) */
static void a_copy_of_a_misaligned_sub_buffer_is_refused_when_recorded(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    int32_t a[N];
    fill_ramp(a, 1);
    axl_buffer A, S, B = ramp_buffer(10), O = ramp_buffer(0);
    AXL_OK(axl_buffer_create_from(a, 4, axl_range_1d(N), NULL, &A));
    AXL_OK(axl_buffer_create_sub(A, (size_t[3]){16, 0, 0}, axl_range_1d(16),
                                 &S));

    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r.q));
    AXL_OK(vadd(&r, A, B, O, N, NULL));
    const uint32_t commands = axl_test_pool("command").in_use;
    AXL_EXPECT(axl_queue_copy(r.q, S, NULL, O, NULL, NULL, 0, NULL),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("mem_base_addr_align");
    AXL_OK(axl_graph_end_recording(g, r.q));
    assert_int_equal(axl_test_pool("command").in_use, commands);
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    AXL_OK(axl_graph_release(g));
    /* The graph holds the launch alone, and runs it. */
    axl_event done;
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, &done));
    AXL_OK(axl_event_wait_and_throw(done));
    AXL_OK(axl_event_release(done));
    int32_t o[N], b[N];
    fill_ramp(b, 10);
    read_back(&r, O, o);
    for (int i = 0; i < N; i++)
        assert_int_equal(o[i], a[i] + b[i]);

    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_buffer_release(S));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(O));
    axl_test_rig_down(&r);
}

/* A replay binds the nodes of an executable graph that nothing was
 * released since the last replay by slot, without looking their handles
 * up; but once the lock has been dropped (host memory for a node) it
 * looks them up again: here the allocator itself releases a later node's
 * buffer. */
static void a_buffer_released_while_a_replay_makes_host_memory_is_seen(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    axl_device fake = axl_test_fake_device();
    rig r = axl_test_rig_up(0);
    axl_buffer X = two_device_buffer(&r, fake), Y, B = ramp_buffer(0),
               O = ramp_buffer(0);
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &Y));
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r.q));
    AXL_OK(vadd(&r, X, B, O, N, NULL));
    int32_t seven = 7;
    AXL_OK(axl_queue_fill(r.q, Y, NULL, &seven, 4, NULL, 0, NULL));
    AXL_OK(axl_graph_end_recording(g, r.q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));

    /* X's data moves to the other device: the next replay copies it
     * through host memory, and Y goes while that is allocated. */
    axl_queue qf = move_to_fake(fake, X);
    const uint32_t buffers = axl_test_pool("buffer").in_use;
    release_while_allocating = Y;
    axl_test_alloc_hook = release_the_buffer;
    AXL_EXPECT(axl_queue_submit_graph(r.q, x, NULL, 0, NULL),
               AXL_ERR_INVALID_OBJECT);
    AXL_MESSAGE_HAS("node 1: buffer");
    assert_null(axl_test_alloc_hook); /* it was released */
    assert_int_equal(axl_test_pool("buffer").in_use, buffers - 1);
    AXL_OK(axl_queue_wait_and_throw(r.q));
    assert_int_equal(axl_test_pool("buffer").in_use, buffers - 1);

    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_queue_release(qf));
    AXL_OK(axl_buffer_release(X));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(O));
    axl_test_rig_down(&r);
}

/* ---- Replays as the commands one by one ------------------------------------- */

/* vadd four times over A, B, O1, O2, each node reading what the one before
 * wrote (and node 2 overwriting what node 1 read): O1 = A + B, O2 = O1 + B,
 * O1 = O2 + A, O2 = O1 + O1, so O2 = 4A + 4B only in that order. *nodes
 * gets each node. */
static axl_graph_exec chain4(rig *r, axl_buffer A, axl_buffer B,
                             axl_buffer O1, axl_buffer O2,
                             axl_graph_node *nodes)
{
    axl_graph g;
    AXL_OK(axl_graph_create(r->ctx, r->dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r->q));
    axl_event e[4];
    AXL_OK(vadd(r, A, B, O1, N, &e[0]));
    AXL_OK(vadd(r, O1, B, O2, N, &e[1]));
    AXL_OK(vadd(r, O2, A, O1, N, &e[2]));
    AXL_OK(vadd(r, O1, O1, O2, N, &e[3]));
    AXL_OK(axl_graph_end_recording(g, r->q));
    for (int i = 0; i < 4; i++)
        AXL_OK(axl_graph_node_from_event(e[i], &nodes[i]));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    AXL_OK(axl_graph_release(g));
    return x;
}

static bool event_done(axl_event e)
{
    axl_event_status st;
    AXL_OK(axl_event_get_status(e, &st, NULL));
    return st == AXL_EVENT_COMPLETE;
}

static void a_chain_replays_as_its_commands_one_by_one(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    axl_buffer A = ramp_buffer(1), B = ramp_buffer(10), O1 = ramp_buffer(0),
               O2 = ramp_buffer(0);
    axl_graph_node nodes[4];
    axl_graph_exec x = chain4(&r, A, B, O1, O2, nodes);
    bool laid = false;
    AXL_OK(axl_graph_exec_laid_out(x, &laid));
    assert_true(laid);
    int32_t o[N], a[N], b[N];
    fill_ramp(b, 10);
    for (int32_t k = 1; k <= 4; k++) {
        /* A new A from the host between replays: the next one reads it. */
        fill_ramp(a, k);
        AXL_OK(axl_queue_copy_from_host(r.q, a, A, NULL, NULL, 0, NULL));
        /* Twice each: the second finds every buffer on the device. */
        for (int rep = 0; rep < 2; rep++) {
            AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
            AXL_OK(axl_queue_wait_and_throw(r.q));
            read_back(&r, O2, o);
            for (int i = 0; i < N; i++)
                assert_int_equal(o[i], 4 * a[i] + 4 * b[i]);
        }
    }
    /* A reader outside the graph holds O2 (a host accessor): the replay,
     * which writes O2, waits for it, and the reader sees O2 unchanged. */
    axl_host_accessor ha;
    void *ptr;
    AXL_OK(axl_host_accessor_create(O2, AXL_ACCESS_READ, NULL, 0, &ha, &ptr));
    uint32_t two = 2; /* node 0 now adds the first two elements only */
    AXL_OK(axl_graph_exec_update_scalar(x, nodes[0], 3, &two, 4));
    axl_event done;
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, &done));
    struct timespec ms = {0, 2000000};
    for (int i = 0; i < 5; i++) {
        nanosleep(&ms, NULL);
        assert_false(event_done(done));
    }
    assert_int_equal(((int32_t *)ptr)[N - 1], 4 * a[N - 1] + 4 * b[N - 1]);
    AXL_OK(axl_host_accessor_release(ha));
    AXL_OK(axl_event_wait(done));
    AXL_OK(axl_event_release(done));
    read_back(&r, O2, o);
    /* Past the first two, O1 starts from 2A + 2B (node 2's, last time):
     * O2 = 2A + 3B, O1 = 3A + 3B, O2 = 6A + 6B. */
    for (int i = 0; i < N; i++)
        assert_int_equal(o[i], i < 2 ? 4 * a[i] + 4 * b[i]
                                     : 6 * a[i] + 6 * b[i]);
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(O1));
    AXL_OK(axl_buffer_release(O2));
    axl_test_rig_down(&r);
}

/* The status of reading b back (its contents may be lost). */
static axl_status read_status(rig *r, axl_buffer b, int32_t *out)
{
    axl_event e;
    AXL_OK(axl_queue_copy_to_host(r->q, b, NULL, out, NULL, 0, &e));
    axl_status st = axl_event_wait(e);
    AXL_OK(axl_event_release(e));
    (void)axl_queue_wait(r->q);
    while (axl_queue_throw_asynchronous(r->q) != AXL_SUCCESS) {
    }
    return st;
}

/* Waits for e and then for the queue: e's status, and how many errors
 * the queue's asynchronous list got. */
static unsigned ended_with(rig *r, axl_event e, axl_status *status)
{
    *status = axl_event_wait(e);
    AXL_OK(axl_event_release(e));
    (void)axl_queue_wait(r->q);
    unsigned n = 0;
    while (axl_queue_throw_asynchronous(r->q) != AXL_SUCCESS)
        n++;
    return n;
}

/* The errors a failing replay of chain4 leaves: the event's status, and
 * how many the queue's asynchronous list gets. */
static unsigned failed_replay(rig *r, axl_graph_exec x, axl_status *status)
{
    axl_event done;
    AXL_OK(axl_queue_submit_graph(r->q, x, NULL, 0, &done));
    return ended_with(r, done, status);
}

/* chain4's commands submitted one by one (node 1 given n1): the last
 * one's status, the errors the queue's asynchronous list gets. */
static unsigned failed_commands(rig *r, axl_buffer A, axl_buffer B,
                                axl_buffer O1, axl_buffer O2, uint32_t n1,
                                axl_status *status)
{
    axl_event last;
    AXL_OK(vadd(r, A, B, O1, N, NULL));
    AXL_OK(vadd(r, O1, B, O2, n1, NULL));
    AXL_OK(vadd(r, O2, A, O1, N, NULL));
    AXL_OK(vadd(r, O1, O1, O2, N, &last));
    return ended_with(r, last, status);
}

/* A replay in which a node fails ends as the same commands submitted one
 * by one do (3.7.1: a command whose dependency failed does not run): the
 * graph's event and the last command fail alike, what the failed node's
 * dependents write is lost alike, and the queue gets an error per node
 * that failed or did not run, as per command. */
static void a_replay_fails_as_its_commands_one_by_one_would(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    rig r = axl_test_rig_up(0);
    axl_buffer A = ramp_buffer(1), B = ramp_buffer(10), O1 = ramp_buffer(0),
               O2 = ramp_buffer(0);
    axl_graph_node nodes[4];
    axl_graph_exec x = chain4(&r, A, B, O1, O2, nodes);
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    /* Node 1 fails (a size past the buffers): nodes 2 and 3 do not run,
     * and what the graph writes is unknown after it (reading it fails the
     * same way until it is written whole again). */
    uint32_t too_many = 4 * N;
    AXL_OK(axl_graph_exec_update_scalar(x, nodes[1], 3, &too_many, 4));
    axl_status replay_status, plain_status, replay_read, plain_read;
    int32_t o[N];
    const unsigned replay_errors = failed_replay(&r, x, &replay_status);
    replay_read = read_status(&r, O2, o);
    /* The same commands one by one, from the same start: O1 and O2
     * written whole from the host again. */
    int32_t zero[N];
    fill_ramp(zero, 0);
    AXL_OK(axl_queue_copy_from_host(r.q, zero, O1, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_copy_from_host(r.q, zero, O2, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    const unsigned plain_errors =
        failed_commands(&r, A, B, O1, O2, too_many, &plain_status);
    plain_read = read_status(&r, O2, o);
    assert_int_equal(replay_status, AXL_ERR_KERNEL);
    assert_int_equal(plain_status, replay_status);
    assert_int_equal(replay_read, AXL_ERR_KERNEL);
    assert_int_equal(plain_read, replay_read);
    assert_int_equal(replay_errors, plain_errors);
    assert_int_equal(replay_errors, 3);
    /* Mended and its outputs written again, it runs. */
    uint32_t n = N;
    AXL_OK(axl_graph_exec_update_scalar(x, nodes[1], 3, &n, 4));
    for (int rep = 0; rep < 2; rep++) {
        AXL_OK(axl_queue_copy_from_host(r.q, zero, O1, NULL, NULL, 0, NULL));
        AXL_OK(axl_queue_copy_from_host(r.q, zero, O2, NULL, NULL, 0, NULL));
        AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
        AXL_OK(axl_queue_wait_and_throw(r.q));
        read_back(&r, O2, o);
        for (int i = 0; i < N; i++)
            assert_int_equal(o[i], 4 * (i + 1) + 4 * (10 * i + 1));
    }
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(O1));
    AXL_OK(axl_buffer_release(O2));
    axl_test_rig_down(&r);
}

/* ---- A node past its timeout ------------------------------------------------ */

static axl_status hang_model(const axl_emu_call *c, void *user)
{
    (void)c;
    (void)user;
    return AXL_EMU_HANG;
}

/* nop (user: the kernel), given up after 100 ms: the other nodes keep
 * the queue's timeout (none), so a busy machine cannot time them out. The
 * mended replay runs this node with the same timeout and a model that
 * returns: 2 ms timed it out on a loaded ASan run (a worker not scheduled
 * in time), so the bound is what a loaded machine needs, not the least
 * that passes alone. */
static void hang_cgf(axl_handler *h, void *user)
{
    axl_handler_set_timeout(h, 100u * 1000000u);
    axl_handler_single_task(h, *(axl_kernel *)user);
}

/*
 * sycl_ext_oneapi_graph's failure rule with a timeout (4.6.6: the kernel
 * never finishes, the runtime gives it up): n0, nop on a unit that never
 * finishes (its model hangs; its own timeout 100 ms); n1 = A + B -> O,
 * independent; n2 = A + B -> Q after n0. The submission fails with
 * AXL_ERR_TIMEOUT, O reads back A + B, Q is lost with n0's status; the
 * unit comes back and the graph mended (a model that returns) runs whole.
 */
static void a_node_past_its_timeout_fails_only_what_depends_on_it(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    AXL_OK(axl_emu_register_model("nop", hang_model, NULL));
    rig r = axl_test_rig_up(0);
    axl_kernel nop = axl_test_rig_kernel(&r, "nop");
    axl_buffer A = ramp_buffer(1), B = ramp_buffer(10), O = ramp_buffer(0),
               Q = ramp_buffer(0);
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r.q));
    axl_event hung;
    AXL_OK(axl_queue_submit(r.q, hang_cgf, &nop, &hung));
    AXL_OK(vadd(&r, A, B, O, N, NULL));
    AXL_OK(axl_queue_single_task(
        r.q, r.vadd,
        AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(B), AXL_ARG_WRITE(Q),
                 AXL_ARG_U32(N)),
        &hung, 1, NULL));
    AXL_OK(axl_graph_end_recording(g, r.q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    AXL_OK(axl_graph_release(g));
    axl_event e;
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, &e));
    AXL_EXPECT(axl_event_wait(e), AXL_ERR_TIMEOUT);
    AXL_OK(axl_event_release(e));
    int32_t o[N], a[N], b[N];
    fill_ramp(a, 1);
    fill_ramp(b, 10);
    assert_int_equal(read_status(&r, O, o), AXL_SUCCESS);
    for (int i = 0; i < N; i++)
        assert_int_equal(o[i], a[i] + b[i]);
    assert_int_equal(read_status(&r, Q, o), AXL_ERR_TIMEOUT);
    /* Mended: the unit is back, Q written whole again, every node runs. */
    AXL_OK(axl_emu_register_model("nop", NULL, NULL));
    AXL_OK(axl_queue_copy_from_host(r.q, a, Q, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    read_back(&r, Q, o);
    for (int i = 0; i < N; i++)
        assert_int_equal(o[i], a[i] + b[i]);
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_kernel_release(nop));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(O));
    AXL_OK(axl_buffer_release(Q));
    axl_test_rig_down(&r);
}

/* ---- A unit a graph's run frees, for a command that waited for it ---------- */

static atomic_int nop_hold, nop_in, node_go, node_late;

static void nap(void)
{
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
}

/* nop: holds its unit while nop_hold is set (10 s at most). */
static axl_status holding_nop(const axl_emu_call *c, void *user)
{
    (void)c;
    (void)user;
    atomic_fetch_add(&nop_in, 1);
    for (int ms = 0; ms < 10000 && atomic_load(&nop_hold); ms++)
        nap();
    return AXL_SUCCESS;
}

/* A host node that runs until the test says go (3 s at most). */
static axl_status until_go(void *user)
{
    (void)user;
    for (int ms = 0; ms < 3000 && !atomic_load(&node_go); ms++)
        nap();
    if (!atomic_load(&node_go))
        atomic_fetch_add(&node_late, 1);
    return AXL_SUCCESS;
}

static void nop_cgf(axl_handler *h, void *user)
{
    axl_handler_single_task(h, *(const axl_kernel *)user);
}

static void until_go_cgf(axl_handler *h, void *user)
{
    axl_handler_host_task(h, until_go, user);
}

/* A kernel command that found nop's one unit held by a graph's run waits
 * for it (cu_wait); the run's end on the emulated unit's thread frees the
 * unit without the lock and moves the command to the ready list. The
 * graph goes on (a host node after the kernel node), so its end is not
 * what dispatches the command: the move must wake the wait for it, or
 * that wait sleeps until the graph ends (here: until the host node gives
 * up on the go only the wait's return gives). */
static void a_unit_a_graph_run_frees_goes_to_the_command_waiting(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    AXL_TEST_NEEDS(AXL_FEATURE_HOST_TASKS,
                   axl_queue_host_task((axl_queue)AXL_NONE, until_go, NULL,
                                       NULL, 0, NULL));
    if (AXL_HOST_TASK_WORKERS < 1)
        skip();
    AXL_OK(axl_emu_register_model("nop", holding_nop, NULL));
    rig r = axl_test_rig_up(0);
    axl_queue q2;
    AXL_OK(axl_queue_create(r.ctx, r.dev, 0, NULL, &q2));
    /* No timeouts: a wait with a run's deadline ahead wakes each ms and
     * would pump the command itself. */
    AXL_OK(axl_queue_set_timeout(r.q, 0));
    AXL_OK(axl_queue_set_timeout(q2, 0));
    axl_kernel k = axl_test_rig_kernel(&r, "nop");
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    axl_graph_node n1;
    AXL_OK(axl_graph_add(g, nop_cgf, &k, NULL, 0, &n1));
    AXL_OK(axl_graph_add(g, until_go_cgf, NULL, &n1, 1, NULL));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    atomic_store(&node_late, 0);
    for (int round = 0; round < 5; round++) {
        atomic_store(&nop_hold, 1);
        atomic_store(&nop_in, 0);
        atomic_store(&node_go, 0);
        axl_event eg, ek;
        AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, &eg));
        for (int ms = 0; ms < 10000 && !atomic_load(&nop_in); ms++)
            nap();
        AXL_OK(axl_queue_single_task(q2, k, NULL, 0, NULL, 0, &ek));
        atomic_store(&nop_hold, 0);
        AXL_OK(axl_event_wait(ek));
        atomic_store(&node_go, 1);
        AXL_OK(axl_event_wait(eg));
        AXL_OK(axl_event_release(ek));
        AXL_OK(axl_event_release(eg));
    }
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_kernel_release(k));
    AXL_OK(axl_queue_release(q2));
    AXL_OK(axl_emu_register_model("nop", NULL, NULL));
    axl_test_rig_down(&r);
    assert_int_equal(atomic_load(&node_late), 0);
}

/* 4.6.6: get_profiling_info(command_start) blocks until the command
 * starts. A graph's submission starts with its first node, which the
 * thread that drives the replay starts without the lock (here an
 * emulated unit's thread, once the kernel before it in the queue ends):
 * that start must wake the wait, or the wait sleeps until the graph ends
 * (here: until its host node gives up on the go only the wait's return
 * gives). */
static void *unhold_soon(void *arg)
{
    (void)arg;
    nap();
    nap();
    atomic_store(&nop_hold, 0);
    return NULL;
}

static void a_graphs_first_start_wakes_a_wait_for_its_start_4_6_6(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    AXL_TEST_NEEDS(AXL_FEATURE_HOST_TASKS,
                   axl_queue_host_task((axl_queue)AXL_NONE, until_go, NULL,
                                       NULL, 0, NULL));
    uint64_t t;
    AXL_TEST_NEEDS(AXL_FEATURE_PROFILING,
                   axl_event_get_profiling((axl_event)AXL_NONE,
                                           AXL_PROFILING_COMMAND_START, &t));
    AXL_OK(axl_emu_register_model("nop", holding_nop, NULL));
    rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER | AXL_QUEUE_ENABLE_PROFILING);
    /* No timeouts: a wait with a run's deadline ahead wakes each ms. */
    AXL_OK(axl_queue_set_timeout(r.q, 0));
    axl_kernel k = axl_test_rig_kernel(&r, "nop");
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    AXL_OK(axl_graph_add(g, until_go_cgf, NULL, NULL, 0, NULL));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    atomic_store(&node_late, 0);
    for (int round = 0; round < 10; round++) {
        atomic_store(&nop_hold, 1);
        atomic_store(&nop_in, 0);
        atomic_store(&node_go, 0);
        axl_event ek, eg;
        AXL_OK(axl_queue_single_task(r.q, k, NULL, 0, NULL, 0, &ek));
        AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, &eg));
        for (int ms = 0; ms < 10000 && !atomic_load(&nop_in); ms++)
            nap();
        /* Let go once this thread sleeps in the wait (2 ms later). */
        pthread_t th;
        assert_int_equal(pthread_create(&th, NULL, unhold_soon, NULL), 0);
        AXL_OK(axl_event_get_profiling(eg, AXL_PROFILING_COMMAND_START, &t));
        atomic_store(&node_go, 1);
        AXL_OK(axl_event_wait(eg));
        pthread_join(th, NULL);
        AXL_OK(axl_event_release(ek));
        AXL_OK(axl_event_release(eg));
    }
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_kernel_release(k));
    AXL_OK(axl_emu_register_model("nop", NULL, NULL));
    axl_test_rig_down(&r);
    assert_int_equal(atomic_load(&node_late), 0);
}

#define T(f) cmocka_unit_test_setup_teardown(f, axl_test_setup, axl_test_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(recording_queue_submissions_return_without_running_anything),
        T(a_recorded_event_is_a_node_and_outside_events_are_refused),
        T(a_stale_or_forged_node_handle_is_an_invalid_object_status_h),
        T(waiting_on_a_recorded_command_is_invalid_naming_its_graph),
        T(a_group_naming_a_node_returns_its_own_first_error_handler_h),
        T(a_recorded_command_depends_only_on_its_graph_whatever_the_timing),
        T(adding_a_node_while_a_queue_records_into_the_graph_is_refused),
        T(end_recording_on_a_queue_that_does_not_record_does_nothing),
        T(waiting_on_a_recording_queue_is_invalid_naming_its_graph),
        T(one_instance_of_an_executable_graph_runs_at_a_time),
        T(a_unit_a_graph_run_frees_goes_to_the_command_waiting),
        T(a_graphs_first_start_wakes_a_wait_for_its_start_4_6_6),
        T(parallel_for_is_recorded_as_one_node_of_its_chunks),
        T(replay_equals_the_same_commands_submitted_one_by_one),
        T(added_nodes_run_after_their_dependencies),
        T(the_graph_event_waits_for_every_sink_and_fails_with_one),
        T(an_empty_graph_completes_after_its_dependencies),
        T(an_empty_graph_waits_for_more_dependencies_than_a_group_holds),
        T(two_queues_record_into_one_graph),
        T(an_in_order_recording_is_a_chain),
        T(an_update_is_seen_by_the_next_replay_only),
        T(a_bad_update_changes_nothing),
        T(a_graph_over_a_released_buffer_is_refused_at_finalize),
        T(a_graph_over_a_released_buffer_is_refused_at_submit),
        T(a_failed_node_fails_the_graph_event_and_the_queue_keeps_working),
        T(full_graph_pools_are_out_of_resources_naming_the_setting),
        T(a_replay_that_cannot_start_every_node_runs_none),
        T(a_copy_of_a_misaligned_sub_buffer_is_refused_when_recorded),
        T(a_buffer_released_while_a_replay_makes_host_memory_is_seen),
        T(a_chain_replays_as_its_commands_one_by_one),
        T(a_replay_fails_as_its_commands_one_by_one_would),
        T(a_node_past_its_timeout_fails_only_what_depends_on_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
