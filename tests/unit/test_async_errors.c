/*
 * Asynchronous errors (spec 4.6.5.5, 4.13): a failing host task marks its
 * event, fails what depends on it, and reaches the async handler only
 * through wait_and_throw / throw_asynchronous.
 */
#include <string.h>

#include "axl_test.h"

typedef struct seen {
    int calls;
    uint32_t count;
    uint32_t dropped;
    axl_status status[16];
    char message[16][AXL_MESSAGE_MAX];
    axl_event event[16];
} seen;

static void handler(const axl_async_error *errors, uint32_t count,
                    uint32_t dropped, void *user)
{
    seen *s = user;
    s->calls++;
    for (uint32_t i = 0; i < count && s->count < 16; i++, s->count++) {
        s->status[s->count] = errors[i].status;
        s->event[s->count] = errors[i].event;
        strncpy(s->message[s->count], errors[i].message, AXL_MESSAGE_MAX - 1);
    }
    s->dropped += dropped;
}

static axl_status fail_task(void *user)
{
    return axl_fail(AXL_ERR_RUNTIME, "sensor %d did not answer",
                    *(const int *)user);
}

static axl_status silent_fail(void *user)
{
    (void)user;
    return AXL_ERR_KERNEL;
}

static int ran;
static axl_status ok_task(void *user)
{
    (void)user;
    __atomic_add_fetch(&ran, 1, __ATOMIC_SEQ_CST);
    return AXL_SUCCESS;
}

static axl_queue queue_with_handler(seen *s, uint32_t flags)
{
    axl_async_handler h = {handler, s};
    axl_context none = AXL_NONE;
    axl_queue q;
    AXL_OK(axl_queue_create(none, axl_test_emu_device(), flags, &h, &q));
    return q;
}

static void error_reaches_handler_only_on_throw_4_6_5_5(void **state)
{
    (void)state;
    seen s = {0};
    axl_queue q = queue_with_handler(&s, 0);
    int id = 7;
    axl_event e;
    AXL_OK(axl_queue_host_task(q, fail_task, &id, NULL, 0, &e));
    /* wait() reports the command's failure to its caller... */
    AXL_EXPECT(axl_event_wait(e), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("sensor 7 did not answer");
    AXL_OK(axl_queue_wait(q));
    /* ...but the handler has not been called: only the throw calls do. */
    assert_int_equal(s.calls, 0);
    axl_event_status st;
    axl_status err;
    AXL_OK(axl_event_get_status(e, &st, &err));
    assert_int_equal(st, AXL_EVENT_COMPLETE);
    assert_int_equal(err, AXL_ERR_RUNTIME);
    AXL_OK(axl_queue_throw_asynchronous(q));
    assert_int_equal(s.calls, 1);
    assert_int_equal(s.count, 1);
    assert_int_equal(s.status[0], AXL_ERR_RUNTIME);
    assert_true(AXL_SAME(s.event[0], e));
    assert_non_null(strstr(s.message[0], "sensor 7"));
    /* Consumed: a second throw finds nothing. */
    AXL_OK(axl_queue_throw_asynchronous(q));
    assert_int_equal(s.calls, 1);
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_queue_release(q));
}

static void wait_and_throw_delivers_after_waiting_4_6_5_1(void **state)
{
    (void)state;
    seen s = {0};
    axl_queue q = queue_with_handler(&s, AXL_QUEUE_IN_ORDER);
    AXL_OK(axl_queue_host_task(q, silent_fail, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_host_task(q, ok_task, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(q));
    assert_int_equal(s.calls, 1);
    assert_int_equal(s.status[0], AXL_ERR_KERNEL);
    /* Without messages (AXL_MESSAGES 0), the status name. */
    assert_non_null(strstr(s.message[0], axl_test_messages()
                                             ? "no message"
                                             : "AXL_ERR_KERNEL"));
    AXL_OK(axl_queue_release(q));
}

static void dependents_of_a_failed_command_fail_unrun(void **state)
{
    (void)state;
    seen s = {0};
    axl_queue q = queue_with_handler(&s, 0);
    ran = 0;
    int id = 3;
    axl_event bad, child, grandchild;
    AXL_OK(axl_queue_host_task(q, fail_task, &id, NULL, 0, &bad));
    AXL_OK(axl_queue_host_task(q, ok_task, NULL, &bad, 1, &child));
    AXL_OK(axl_queue_host_task(q, ok_task, NULL, &child, 1, &grandchild));
    AXL_EXPECT(axl_event_wait(grandchild), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("not run");
    assert_int_equal(ran, 0);
    AXL_OK(axl_event_wait_and_throw(grandchild));
    assert_int_equal(s.count, 3);
    assert_non_null(strstr(s.message[1], axl_test_messages()
                                             ? "sensor 3"
                                             : "AXL_ERR_RUNTIME"));
    AXL_OK(axl_event_release(bad));
    AXL_OK(axl_event_release(child));
    AXL_OK(axl_event_release(grandchild));
    AXL_OK(axl_queue_release(q));
}

static void in_order_edge_orders_but_does_not_propagate_failure(void **state)
{
    (void)state;
    seen s = {0};
    axl_queue q = queue_with_handler(&s, AXL_QUEUE_IN_ORDER);
    ran = 0;
    int id = 1;
    AXL_OK(axl_queue_host_task(q, fail_task, &id, NULL, 0, NULL));
    axl_event e;
    AXL_OK(axl_queue_host_task(q, ok_task, NULL, NULL, 0, &e));
    AXL_OK(axl_event_wait(e));
    assert_int_equal(ran, 1);
    AXL_OK(axl_queue_wait_and_throw(q));
    assert_int_equal(s.count, 1);
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_queue_release(q));
}

static void context_handler_serves_queues_without_one_4_6_3(void **state)
{
    (void)state;
    seen s = {0};
    axl_async_handler h = {handler, &s};
    axl_device d = axl_test_emu_device();
    axl_context c;
    AXL_OK(axl_context_create(&d, 1, &h, &c));
    axl_queue q;
    AXL_OK(axl_queue_create(c, d, 0, NULL, &q));
    AXL_OK(axl_queue_host_task(q, silent_fail, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(q));
    assert_int_equal(s.calls, 1);
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_context_release(c));
}

static void without_any_handler_throw_returns_the_error(void **state)
{
    (void)state;
    axl_context none = AXL_NONE;
    axl_queue q;
    AXL_OK(axl_queue_create(none, axl_test_emu_device(), 0, NULL, &q));
    int id = 9;
    AXL_OK(axl_queue_host_task(q, fail_task, &id, NULL, 0, NULL));
    AXL_EXPECT(axl_queue_wait_and_throw(q), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("sensor 9");
    AXL_OK(axl_queue_throw_asynchronous(q)); /* consumed */
    AXL_OK(axl_queue_release(q));
}

static void errors_beyond_the_error_pool_are_counted_as_dropped(void **state)
{
    (void)state;
    seen s = {0};
    axl_queue q = queue_with_handler(&s, 0);
    uint32_t cap = axl_test_pool("error").capacity;
    for (uint32_t i = 0; i < cap + 3; i++)
        AXL_OK(axl_queue_host_task(q, silent_fail, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(q));
    assert_int_equal(s.count + s.dropped, cap + 3);
    assert_int_equal(s.dropped, 3);
    AXL_OK(axl_queue_release(q));
}

static void unconsumed_errors_reach_handler_when_queue_is_released(void **state)
{
    (void)state;
    seen s = {0};
    axl_queue q = queue_with_handler(&s, 0);
    AXL_OK(axl_queue_host_task(q, silent_fail, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q));
    assert_int_equal(s.calls, 0);
    AXL_OK(axl_queue_release(q));
    assert_int_equal(s.calls, 1);
}

#define T(f) cmocka_unit_test_setup_teardown(f, axl_test_setup, axl_test_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(error_reaches_handler_only_on_throw_4_6_5_5),
        T(wait_and_throw_delivers_after_waiting_4_6_5_1),
        T(dependents_of_a_failed_command_fail_unrun),
        T(in_order_edge_orders_but_does_not_propagate_failure),
        T(context_handler_serves_queues_without_one_4_6_3),
        T(without_any_handler_throw_returns_the_error),
        T(errors_beyond_the_error_pool_are_counted_as_dropped),
        T(unconsumed_errors_reach_handler_when_queue_is_released),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
