/*
 * Events and host tasks (spec 4.6.6, 4.6.5): order, dependencies, status,
 * wait lists and profiling.
 */
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "axl_test.h"

static axl_queue make_queue(uint32_t flags)
{
    axl_context none = AXL_NONE;
    axl_queue q;
    AXL_OK(axl_queue_create(none, axl_test_emu_device(), flags, NULL, &q));
    return q;
}

/* A log the host tasks append to, to see the order they ran in. */
typedef struct run_log {
    atomic_int n;
    int order[64];
} run_log;

typedef struct step {
    run_log *log;
    int id;
    int sleep_us;
} step;

static void sleep_us(int us)
{
    struct timespec ts = {0, (long)us * 1000};
    nanosleep(&ts, NULL);
}

static axl_status record(void *user)
{
    step *s = user;
    if (s->sleep_us)
        sleep_us(s->sleep_us);
    int i = atomic_fetch_add(&s->log->n, 1);
    s->log->order[i] = s->id;
    return AXL_SUCCESS;
}

static void in_order_queue_runs_in_submission_order_4_6_5_4(void **state)
{
    (void)state;
    axl_queue q = make_queue(AXL_QUEUE_IN_ORDER);
    run_log log = {0};
    step steps[8];
    for (int i = 0; i < 8; i++) {
        /* Earlier tasks sleep longer: only the queue's order can keep them
         * in sequence on two workers. */
        steps[i] = (step){&log, i, (8 - i) * 300};
        AXL_OK(axl_queue_host_task(q, record, &steps[i], NULL, 0, NULL));
    }
    AXL_OK(axl_queue_wait(q));
    assert_int_equal(atomic_load(&log.n), 8);
    for (int i = 0; i < 8; i++)
        assert_int_equal(log.order[i], i);
    AXL_OK(axl_queue_release(q));
}

static void out_of_order_queue_honours_explicit_dependencies_3_7_1_3(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    run_log log = {0};
    step a = {&log, 1, 3000}, b = {&log, 2, 0}, c = {&log, 3, 0};
    axl_event ea, eb, ec;
    AXL_OK(axl_queue_host_task(q, record, &a, NULL, 0, &ea));
    AXL_OK(axl_queue_host_task(q, record, &b, &ea, 1, &eb));
    axl_event both[2] = {ea, eb};
    AXL_OK(axl_queue_host_task(q, record, &c, both, 2, &ec));
    AXL_OK(axl_event_wait(ec));
    assert_int_equal(atomic_load(&log.n), 3);
    assert_int_equal(log.order[0], 1);
    assert_int_equal(log.order[1], 2);
    assert_int_equal(log.order[2], 3);
    AXL_OK(axl_event_release(ea));
    AXL_OK(axl_event_release(eb));
    AXL_OK(axl_event_release(ec));
    AXL_OK(axl_queue_release(q));
}

/* Two host tasks of which the first waits for the second to have run. */
typedef struct pair {
    run_log *log;
    atomic_int second_ran;
} pair;

static axl_status first_waits(void *user)
{
    pair *p = user;
    (void)axl_test_gate(&p->second_ran); /* 10 s at most */
    int i = atomic_fetch_add(&p->log->n, 1);
    p->log->order[i] = 1;
    return AXL_SUCCESS;
}

static axl_status second_opens(void *user)
{
    pair *p = user;
    int i = atomic_fetch_add(&p->log->n, 1);
    p->log->order[i] = 2;
    atomic_store(&p->second_ran, 1);
    return AXL_SUCCESS;
}

static void out_of_order_queue_runs_independent_tasks_at_once(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    run_log log = {0};
    /* Two tasks, no dependency: the first holds its worker until the
     * second has run, so the second ends first only when the two run at
     * once (one after the other, the first gives up after 10 s and ends
     * first). A time race would flake on a busy machine (a 50 ms head
     * start did once); this order cannot. */
    pair p = {&log, 0};
    AXL_OK(axl_queue_host_task(q, first_waits, &p, NULL, 0, NULL));
    AXL_OK(axl_queue_host_task(q, second_opens, &p, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q));
    assert_int_equal(log.order[0], 2);
    assert_int_equal(log.order[1], 1);
    AXL_OK(axl_queue_release(q));
}

static atomic_int blocker_released; /* axl_test_gate */

static void event_status_goes_submitted_running_complete_4_6_6_1(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    atomic_store(&blocker_released, 0);
    axl_event first, second;
    AXL_OK(axl_queue_host_task(q, axl_test_gate, &blocker_released, NULL, 0,
                               &first));
    AXL_OK(axl_queue_host_task(q, axl_test_gate, &blocker_released, &first, 1,
                               &second));
    axl_event_status s1, s2;
    /* The first runs on a worker; give it time to start. */
    do {
        AXL_OK(axl_event_get_status(first, &s1, NULL));
    } while (s1 == AXL_EVENT_SUBMITTED);
    assert_int_equal(s1, AXL_EVENT_RUNNING);
    AXL_OK(axl_event_get_status(second, &s2, NULL));
    assert_int_equal(s2, AXL_EVENT_SUBMITTED);
    atomic_store(&blocker_released, 1);
    AXL_OK(axl_event_wait(second));
    axl_status err = AXL_ERR_RUNTIME;
    AXL_OK(axl_event_get_status(second, &s2, &err));
    assert_int_equal(s2, AXL_EVENT_COMPLETE);
    assert_int_equal(err, AXL_SUCCESS);
    AXL_OK(axl_event_release(first));
    AXL_OK(axl_event_release(second));
    AXL_OK(axl_queue_release(q));
}

static void wait_list_waits_for_every_event_4_6_6(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    run_log log = {0};
    step s[5];
    axl_event ev[5];
    for (int i = 0; i < 5; i++) {
        s[i] = (step){&log, i, 1000 * (i + 1)};
        AXL_OK(axl_queue_host_task(q, record, &s[i], NULL, 0, &ev[i]));
    }
    AXL_OK(axl_event_wait_list(ev, 5));
    assert_int_equal(atomic_load(&log.n), 5);
    for (int i = 0; i < 5; i++) {
        axl_event_status st;
        AXL_OK(axl_event_get_status(ev[i], &st, NULL));
        assert_int_equal(st, AXL_EVENT_COMPLETE);
        AXL_OK(axl_event_release(ev[i]));
    }
    AXL_OK(axl_queue_release(q));
}

static void default_event_is_complete_table_33(void **state)
{
    (void)state;
    axl_event e;
    AXL_OK(axl_event_create_complete(&e));
    axl_event_status st;
    AXL_OK(axl_event_get_status(e, &st, NULL));
    assert_int_equal(st, AXL_EVENT_COMPLETE);
    AXL_OK(axl_event_wait(e));
    uint64_t ns;
    AXL_EXPECT(axl_event_get_profiling(e, AXL_PROFILING_COMMAND_END, &ns),
               AXL_ERR_INVALID);
    uint32_t n = 9;
    AXL_OK(axl_event_get_wait_list(e, NULL, 0, &n));
    assert_int_equal(n, 0);
    AXL_OK(axl_event_release(e));
}

static void profiling_timestamps_are_ordered_table_36(void **state)
{
    (void)state;
    axl_test_clock_install(1000, 10);
    axl_queue q = make_queue(AXL_QUEUE_IN_ORDER | AXL_QUEUE_ENABLE_PROFILING);
    run_log log = {0};
    step s[3] = {{&log, 0, 0}, {&log, 1, 0}, {&log, 2, 0}};
    axl_event ev[3];
    for (int i = 0; i < 3; i++)
        AXL_OK(axl_queue_host_task(q, record, &s[i], NULL, 0, &ev[i]));
    AXL_OK(axl_queue_wait(q));
    uint64_t prev_end = 0;
    for (int i = 0; i < 3; i++) {
        uint64_t sub, start, end;
        AXL_OK(axl_event_get_profiling(ev[i], AXL_PROFILING_COMMAND_SUBMIT,
                                       &sub));
        AXL_OK(axl_event_get_profiling(ev[i], AXL_PROFILING_COMMAND_START,
                                       &start));
        AXL_OK(axl_event_get_profiling(ev[i], AXL_PROFILING_COMMAND_END,
                                       &end));
        assert_true(sub >= 1000);
        assert_true(sub <= start);
#if defined(AXL_TEST_MMIO)
        /* On a device with a clock of its own (the mmio port's models:
         * the RTL's, the C-model simulator's) a host task on its queue is
         * timed by that clock, which stands still while no wait drives
         * the model (docs/design.md, "Simulated time"). */
        assert_true(start <= end);
#else
        assert_true(start < end);
#endif
        /* In order: each starts after the one before ended. */
        assert_true(start >= prev_end);
        prev_end = end;
        AXL_OK(axl_event_release(ev[i]));
    }
    AXL_OK(axl_queue_release(q));
}

static void profiling_without_enable_profiling_is_invalid_4_6_6(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    run_log log = {0};
    step s = {&log, 0, 0};
    axl_event e;
    AXL_OK(axl_queue_host_task(q, record, &s, NULL, 0, &e));
    AXL_OK(axl_event_wait(e));
    uint64_t ns = 5;
    AXL_EXPECT(axl_event_get_profiling(e, AXL_PROFILING_COMMAND_SUBMIT, &ns),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("enable_profiling");
    assert_int_equal(ns, 5);
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_queue_release(q));
}

static void get_wait_list_returns_pending_direct_dependencies_4_6_6(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    atomic_store(&blocker_released, 0);
    axl_event a, b, c;
    AXL_OK(
        axl_queue_host_task(q, axl_test_gate, &blocker_released, NULL, 0, &a));
    AXL_OK(
        axl_queue_host_task(q, axl_test_gate, &blocker_released, &a, 1, &b));
    AXL_OK(
        axl_queue_host_task(q, axl_test_gate, &blocker_released, &b, 1, &c));
    axl_event list[4];
    uint32_t n = 0;
    AXL_OK(axl_event_get_wait_list(c, list, 4, &n));
    assert_int_equal(n, 1); /* direct only: b, not a */
    assert_true(AXL_SAME(list[0], b));
    AXL_OK(axl_event_release(list[0]));
    atomic_store(&blocker_released, 1);
    AXL_OK(axl_event_wait(c));
    AXL_OK(axl_event_get_wait_list(c, list, 4, &n));
    assert_int_equal(n, 0);
    AXL_OK(axl_event_release(a));
    AXL_OK(axl_event_release(b));
    AXL_OK(axl_event_release(c));
    AXL_OK(axl_queue_release(q));
}

static void released_events_still_order_dependent_commands(void **state)
{
    (void)state;
    axl_queue q = make_queue(AXL_QUEUE_IN_ORDER);
    run_log log = {0};
    step s[20];
    for (int i = 0; i < 20; i++) {
        s[i] = (step){&log, i, i % 3 == 0 ? 500 : 0};
        axl_event e;
        AXL_OK(axl_queue_host_task(q, record, &s[i], NULL, 0, &e));
        AXL_OK(axl_event_release(e)); /* long before it runs */
    }
    AXL_OK(axl_queue_wait(q));
    for (int i = 0; i < 20; i++)
        assert_int_equal(log.order[i], i);
    AXL_OK(axl_queue_release(q));
}

static void null_group_function_is_invalid(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    axl_event e = {42};
    AXL_EXPECT(axl_queue_submit(q, NULL, NULL, &e), AXL_ERR_INVALID);
    assert_int_equal(e.id, 42);
    AXL_OK(axl_queue_release(q));
}

static void empty_group(axl_handler *h, void *user)
{
    (void)h;
    (void)user;
}

static void two_actions(axl_handler *h, void *user)
{
    axl_handler_host_task(h, record, user);
    axl_handler_host_task(h, record, user);
}

/* 4.9.3: a command group has "no more than one" action. None is a
 * command that completes once its dependencies have (before issue 16 an
 * empty group was refused); two are an error. */
static void group_takes_at_most_one_action_4_9_3(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    axl_event e = {42};
    AXL_OK(axl_queue_submit(q, empty_group, NULL, &e));
    AXL_OK(axl_event_wait(e));
    AXL_OK(axl_event_release(e));
    e.id = 42;
    run_log log = {0};
    step s = {&log, 0, 0};
    AXL_EXPECT(axl_queue_submit(q, two_actions, &s, &e), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("exactly one action");
    AXL_OK(axl_queue_wait(q));
    assert_int_equal(atomic_load(&log.n), 0);
    assert_int_equal(e.id, 42);
    assert_int_equal(axl_test_pool("command").in_use, 0);
    AXL_OK(axl_queue_release(q));
}

static void stale_dependency_fails_submit(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    axl_event e;
    AXL_OK(axl_event_create_complete(&e));
    AXL_OK(axl_event_release(e));
    run_log log = {0};
    step s = {&log, 0, 0};
    AXL_EXPECT(axl_queue_host_task(q, record, &s, &e, 1, NULL),
               AXL_ERR_INVALID_OBJECT);
    AXL_MESSAGE_HAS("stale");
    AXL_OK(axl_queue_wait(q));
    assert_int_equal(atomic_load(&log.n), 0);
    AXL_OK(axl_queue_release(q));
}

static axl_status count_only(void *user)
{
    atomic_fetch_add(&((run_log *)user)->n, 1);
    return AXL_SUCCESS;
}

static void command_and_event_pools_full_change_nothing(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    atomic_store(&blocker_released, 0);
    uint32_t cap = axl_test_pool("command").capacity;
    axl_event gate;
    AXL_OK(axl_queue_host_task(q, axl_test_gate, &blocker_released, NULL, 0,
                               &gate));
    run_log log = {0};
    for (uint32_t i = 1; i < cap; i++)
        AXL_OK(axl_queue_host_task(q, count_only, &log, &gate, 1, NULL));
    AXL_EXPECT(axl_queue_host_task(q, count_only, &log, &gate, 1, NULL),
               AXL_ERR_OUT_OF_RESOURCES);
    AXL_MESSAGE_HAS("command pool is full");
    AXL_MESSAGE_HAS("AXL_MAX_COMMANDS");
    assert_int_equal(axl_test_pool("command").failures, 1);
    atomic_store(&blocker_released, 1);
    AXL_OK(axl_queue_wait(q));
    assert_int_equal(atomic_load(&log.n), (int)cap - 1);
    AXL_OK(axl_event_release(gate));
    /* Events: hold every slot, then one more is refused. */
    uint32_t ecap = axl_test_pool("event").capacity;
    static axl_event held[4096];
    for (uint32_t i = 0; i < ecap; i++)
        AXL_OK(axl_event_create_complete(&held[i]));
    AXL_EXPECT(axl_queue_host_task(q, count_only, &log, NULL, 0, NULL),
               AXL_ERR_OUT_OF_RESOURCES);
    AXL_MESSAGE_HAS("event pool is full");
    assert_int_equal(axl_test_pool("command").in_use, 0);
    for (uint32_t i = 0; i < ecap; i++)
        AXL_OK(axl_event_release(held[i]));
    AXL_OK(axl_queue_release(q));
}

static void more_dependencies_than_slots_still_order_correctly(void **state)
{
    (void)state;
    /* A command waiting for 40 events, more than AXL_MAX_COMMAND_DEPS and
     * the handler's own list: it falls back to waiting for everything
     * submitted before it, and must still run after all 40. */
    axl_queue q = make_queue(0);
    run_log log = {0};
    step s[41];
    axl_event ev[40];
    for (int i = 0; i < 40; i++) {
        s[i] = (step){&log, i, (i % 5) * 400};
        AXL_OK(axl_queue_host_task(q, record, &s[i], NULL, 0, &ev[i]));
    }
    s[40] = (step){&log, 40, 0};
    axl_event last;
    AXL_OK(axl_queue_host_task(q, record, &s[40], ev, 40, &last));
    AXL_OK(axl_event_wait(last));
    assert_int_equal(atomic_load(&log.n), 41);
    assert_int_equal(log.order[40], 40);
    for (int i = 0; i < 40; i++)
        AXL_OK(axl_event_release(ev[i]));
    AXL_OK(axl_event_release(last));
    AXL_OK(axl_queue_release(q));
}

#define T(f) cmocka_unit_test_setup_teardown(f, axl_test_setup, axl_test_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(in_order_queue_runs_in_submission_order_4_6_5_4),
        T(out_of_order_queue_honours_explicit_dependencies_3_7_1_3),
        T(out_of_order_queue_runs_independent_tasks_at_once),
        T(event_status_goes_submitted_running_complete_4_6_6_1),
        T(wait_list_waits_for_every_event_4_6_6),
        T(default_event_is_complete_table_33),
        T(profiling_timestamps_are_ordered_table_36),
        T(profiling_without_enable_profiling_is_invalid_4_6_6),
        T(get_wait_list_returns_pending_direct_dependencies_4_6_6),
        T(released_events_still_order_dependent_commands),
        T(null_group_function_is_invalid),
        T(group_takes_at_most_one_action_4_9_3),
        T(stale_dependency_fails_submit),
        T(command_and_event_pools_full_change_nothing),
        T(more_dependencies_than_slots_still_order_correctly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
