/*
 * SYCL 4.7.2.3 at a buffer's destruction, when a failed command lost its
 * newest contents: "If any error occurs on buffer destruction, it is
 * reported via the associated queue's asynchronous error handling
 * mechanism." The last release of a buffer made from host memory, whose
 * writer failed, returns AXL_ERR_RUNTIME ("nothing written back"), the
 * same error reaches the async handler (the queue's, else its context's;
 * once the queue is gone, its context's), and the host memory keeps what
 * it had: the stale host copy from before the failed kernel is not
 * written back (issue 35: it was, and the release returned AXL_SUCCESS).
 *
 * Four variants, on every port the build has: the emulated device (label
 * unit), the mmio port on the C-model simulator (mmio) and on the RTL of
 * the stock kernels (rtl), and the XRT port on the noop shim (xrt). The
 * kernel fails as each port fails it: vadd over 100 elements of buffers of
 * 4 (the C models refuse the arguments; the RTL's memory model fails the
 * run at the first write past the output, after writing the four it
 * holds); on the noop shim, which runs nothing, XRT reports the run in
 * ERT_CMD_STATE_ERROR through the port's call table.
 */
#include <stdatomic.h>
#include <string.h>

#if defined(AXL_TEST_XRT_PORT)
#include "xrt_test.h"
#include "../support/axl_reader_skip.h"
#else
#include "axl_test.h"
#endif

/* The device, the set-up and the teardown of each port, and the size
 * that makes vadd fail there. */
#if defined(AXL_TEST_XRT_PORT)

#define SETUP xt_setup_stock
#define TEARDOWN xt_teardown

static axl_device test_device(void)
{
    return xt_device(NULL);
}

/* The noop shim runs nothing: the run fails because XRT says so. */
static uint32_t failing_size(void)
{
    xt_stick_next_run(ERT_CMD_STATE_ERROR);
    return 4;
}

#else

#define SETUP axl_test_setup
#define TEARDOWN axl_test_teardown

static axl_device test_device(void)
{
    return axl_test_emu_device();
}

/* More elements than the buffers hold: the models refuse it, the RTL
 * writes past the output. */
static uint32_t failing_size(void)
{
    return 100;
}

#endif

typedef struct seen {
    uint32_t count;
    axl_status status[8];
    axl_queue queue[8];
    char message[8][AXL_MESSAGE_MAX];
} seen;

static void handler(const axl_async_error *errors, uint32_t count,
                    uint32_t dropped, void *user)
{
    seen *s = user;
    (void)dropped;
    for (uint32_t i = 0; i < count && s->count < 8; i++, s->count++) {
        s->status[s->count] = errors[i].status;
        s->queue[s->count] = errors[i].queue;
        strncpy(s->message[s->count], errors[i].message, AXL_MESSAGE_MAX - 1);
    }
}

/* The last error the handler got is the destruction's. */
static void got_destruction_error(const seen *s, uint32_t count)
{
    assert_int_equal(s->count, count);
    assert_int_equal(s->status[count - 1], AXL_ERR_RUNTIME);
    if (axl_test_messages())
        assert_non_null(strstr(s->message[count - 1], "nothing written back"));
}

/* The support rig (in order, with the handlers a test gives) and two
 * buffers of 4 from host memory: A = {1, 2, 3, 4} and O = {-7, ...}. */
typedef struct rig {
    axl_test_rig t;
    int32_t in[4];
    int32_t out[4];
    axl_buffer A, O;
} rig;

static void rig_up(rig *r, const axl_async_handler *on_context,
                   const axl_async_handler *on_queue)
{
    r->t = axl_test_rig_as((axl_test_rig_config){
        .dev = test_device(),
        .flags = AXL_QUEUE_IN_ORDER,
        .on_context = on_context,
        .on_queue = on_queue,
    });
    for (int i = 0; i < 4; i++) {
        r->in[i] = i + 1;
        r->out[i] = -7;
    }
    AXL_OK(axl_buffer_create_from_const(r->in, 4, axl_range_1d(4), NULL,
                                        &r->A));
    AXL_OK(axl_buffer_create_from(r->out, 4, axl_range_1d(4), NULL, &r->O));
}

/* vadd(A, A) into O over n elements. */
static void launch(rig *r, uint32_t n)
{
    AXL_OK(axl_queue_single_task(r->t.q, r->t.vadd,
                                 AXL_ARGS(AXL_ARG_IN(r->A), AXL_ARG_IN(r->A),
                                          AXL_ARG_OUT(r->O), AXL_ARG_U32(n)),
                                 NULL, 0, NULL));
}

/* O's last release: nothing written back, the host memory as it was. */
static void release_lost(rig *r)
{
    AXL_EXPECT(axl_buffer_release(r->O), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("nothing written back");
    for (int i = 0; i < 4; i++)
        assert_int_equal(r->out[i], -7);
}

/* What O's release left: A and the support rig. */
static void rig_down(rig *r)
{
    AXL_OK(axl_buffer_release(r->A));
    axl_test_rig_down(&r->t);
}

/* A kernel wrote O, the next one failed writing it: the newest contents
 * are lost, and the queue's handler hears of the destruction's error. */
static void lost_contents_reach_the_queues_handler_4_7_2_3(void **state)
{
    (void)state;
    seen s = {0};
    const axl_async_handler h = {handler, &s};
    rig r;
    rig_up(&r, NULL, &h);
    launch(&r, 4);
    launch(&r, failing_size());
    AXL_OK(axl_queue_wait_and_throw(r.t.q));
    assert_int_equal(s.count, 1); /* the kernel's own error */
    release_lost(&r);
    AXL_OK(axl_queue_throw_asynchronous(r.t.q));
    got_destruction_error(&s, 2);
    assert_true(AXL_SAME(s.queue[1], r.t.q));
    rig_down(&r);
}

/* The failed kernel's queue is gone before the buffer: its context's
 * handler hears of it (at the context's release here). */
static void lost_contents_of_a_released_queue_reach_its_context_4_7_2_3(
    void **state)
{
    (void)state;
    seen sq = {0}, sc = {0};
    const axl_async_handler hq = {handler, &sq}, hc = {handler, &sc};
    rig r;
    rig_up(&r, &hc, &hq);
    launch(&r, 4);
    launch(&r, failing_size());
    AXL_OK(axl_queue_wait_and_throw(r.t.q));
    assert_int_equal(sq.count, 1);
    AXL_OK(axl_buffer_release(r.A));
    axl_test_rig_let_go(&r.t);
    AXL_OK(axl_queue_release(r.t.q)); /* the queue first */
    release_lost(&r);
    assert_int_equal(sc.count, 0); /* delivered only when asked for */
    AXL_OK(axl_context_release(r.t.ctx));
    got_destruction_error(&sc, 1);
    assert_int_equal(sq.count, 1);
}

/* The queue has no handler: its context's gets both errors. */
static void lost_contents_reach_the_contexts_handler_4_7_2_3(void **state)
{
    (void)state;
    seen sc = {0};
    const axl_async_handler hc = {handler, &sc};
    rig r;
    rig_up(&r, &hc, NULL);
    launch(&r, 4);
    launch(&r, failing_size());
    AXL_OK(axl_queue_wait_and_throw(r.t.q));
    assert_int_equal(sc.count, 1);
    release_lost(&r);
    AXL_OK(axl_queue_throw_asynchronous(r.t.q));
    got_destruction_error(&sc, 2);
    rig_down(&r);
}

/* The failed kernel was the buffer's only writer: the host copy it still
 * has is the creation's, which is not the buffer's contents either. */
static void lost_contents_of_the_only_writer_are_not_written_back_4_7_2_3(
    void **state)
{
    (void)state;
    seen s = {0};
    const axl_async_handler h = {handler, &s};
    rig r;
    rig_up(&r, NULL, &h);
    launch(&r, failing_size());
    AXL_OK(axl_queue_wait(r.t.q));
    release_lost(&r);
    AXL_OK(axl_queue_throw_asynchronous(r.t.q));
    got_destruction_error(&s, 2);
    rig_down(&r);
}

/* A write accessor that is not a discard first brings the old contents
 * to the device (a fill from the host copy): a failure there loses the
 * newest contents all the same. Readers fail with the kernel's error
 * instead of reading the host's older copy, whether they were submitted
 * before the failure (here: the kernel waits behind a gate) or after it,
 * and the release writes nothing back (issue 35: the buffer was not
 * marked lost, and a reader after the failure made the older host copy
 * current). */
static void a_failed_write_after_a_fill_loses_the_contents_4_13(void **state)
{
    (void)state;
    seen s = {0};
    const axl_async_handler h = {handler, &s};
    rig r;
    rig_up(&r, NULL, &h);
    atomic_int open = 0;
    axl_event gate, bad, before, after;
    AXL_OK(axl_queue_host_task(r.t.q, axl_test_gate, &open, NULL, 0, &gate));
    AXL_OK(axl_queue_single_task(r.t.q, r.t.vadd,
                                 AXL_ARGS(AXL_ARG_IN(r.A), AXL_ARG_IN(r.A),
                                          AXL_ARG_WRITE(r.O),
                                          AXL_ARG_U32(failing_size())),
                                 &gate, 1, &bad));
    int32_t host[4] = {0};
    AXL_OK(axl_queue_copy_to_host(r.t.q, r.O, NULL, host, NULL, 0, &before));
    atomic_store(&open, 1);
    const axl_status failure = axl_event_wait(bad);
    assert_int_not_equal(failure, AXL_SUCCESS);
    AXL_EXPECT(axl_event_wait(before), failure);
    AXL_MESSAGE_HAS("not run");
    AXL_OK(axl_queue_copy_to_host(r.t.q, r.O, NULL, host, NULL, 0, &after));
    AXL_EXPECT(axl_event_wait(after), failure);
    AXL_MESSAGE_HAS("not run");
    for (int i = 0; i < 4; i++)
        assert_int_equal(host[i], 0);
    AXL_OK(axl_event_release(gate));
    AXL_OK(axl_event_release(bad));
    AXL_OK(axl_event_release(before));
    AXL_OK(axl_event_release(after));
    release_lost(&r);
    AXL_OK(axl_queue_throw_asynchronous(r.t.q));
    got_destruction_error(&s, 4);
    rig_down(&r);
}

#define T(f) cmocka_unit_test_setup_teardown(f, SETUP, TEARDOWN)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(lost_contents_reach_the_queues_handler_4_7_2_3),
        T(lost_contents_of_a_released_queue_reach_its_context_4_7_2_3),
        T(lost_contents_reach_the_contexts_handler_4_7_2_3),
        T(lost_contents_of_the_only_writer_are_not_written_back_4_7_2_3),
        T(a_failed_write_after_a_fill_loses_the_contents_4_13),
    };
#if defined(AXL_TEST_XRT_PORT)
    if (axl_test_without_reader()) /* the XRT port loads xclbin bytes */
        return 0;
#endif
    return cmocka_run_group_tests(tests, NULL, NULL);
}
