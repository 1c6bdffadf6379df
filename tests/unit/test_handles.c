/*
 * Handles of every kind: stale, destroyed, never created, of another kind
 * (forged by casting), double released. Each is AXL_ERR_INVALID_OBJECT
 * (errc::invalid) with a message, never undefined behaviour.
 */
#include <string.h>

#include "axl_test.h"

static axl_queue make_queue(void)
{
    axl_context none = AXL_NONE;
    axl_queue q;
    AXL_OK(axl_queue_create(none, axl_test_emu_device(), 0, NULL, &q));
    return q;
}

static void double_release_is_reported_for_every_kind(void **state)
{
    (void)state;
    axl_device d = axl_test_emu_device();
    axl_context c;
    AXL_OK(axl_context_create(&d, 1, NULL, &c));
    AXL_OK(axl_context_release(c));
    AXL_EXPECT(axl_context_release(c), AXL_ERR_INVALID_OBJECT);
    AXL_MESSAGE_HAS("axl_context_release");
    AXL_MESSAGE_HAS("stale");

    axl_queue q = make_queue();
    AXL_OK(axl_queue_release(q));
    AXL_EXPECT(axl_queue_release(q), AXL_ERR_INVALID_OBJECT);
    AXL_MESSAGE_HAS("queue");

    axl_event e;
    AXL_OK(axl_event_create_complete(&e));
    AXL_OK(axl_event_release(e));
    AXL_EXPECT(axl_event_release(e), AXL_ERR_INVALID_OBJECT);
    AXL_MESSAGE_HAS("event");
    assert_int_equal(axl_status_errc(AXL_ERR_INVALID_OBJECT), AXL_ERRC_INVALID);
}

static void stale_handle_stays_stale_after_its_slot_is_reused(void **state)
{
    (void)state;
    axl_event old;
    AXL_OK(axl_event_create_complete(&old));
    AXL_OK(axl_event_release(old));
    axl_event fresh;
    AXL_OK(axl_event_create_complete(&fresh)); /* likely the same slot */
    assert_false(AXL_SAME(old, fresh));
    axl_event_status st;
    AXL_EXPECT(axl_event_get_status(old, &st, NULL), AXL_ERR_INVALID_OBJECT);
    AXL_EXPECT(axl_event_release(old), AXL_ERR_INVALID_OBJECT);
    AXL_OK(axl_event_get_status(fresh, &st, NULL)); /* untouched */
    AXL_OK(axl_event_release(fresh));
}

static void handles_of_another_kind_are_refused_for_every_kind(void **state)
{
    (void)state;
    axl_device d = axl_test_emu_device();
    axl_platform p;
    AXL_OK(axl_device_get_platform(d, &p));
    axl_context c;
    AXL_OK(axl_context_create(&d, 1, NULL, &c));
    axl_queue q = make_queue();
    axl_event e;
    AXL_OK(axl_event_create_complete(&e));
    uint32_t ids[5] = {p.id, d.id, c.id, q.id, e.id};
    for (int i = 0; i < 5; i++) {
        char buf[64];
        bool b;
        axl_event_status st;
        axl_platform as_platform = {ids[i]};
        axl_device as_device = {ids[i]};
        axl_context as_context = {ids[i]};
        axl_queue as_queue = {ids[i]};
        axl_event as_event = {ids[i]};
        if (i != 0) {
            AXL_EXPECT(axl_platform_get_info(as_platform,
                                             AXL_PLATFORM_INFO_NAME, buf,
                                             sizeof buf, NULL),
                       AXL_ERR_INVALID_OBJECT);
            AXL_MESSAGE_HAS("not a platform handle");
        }
        if (i != 1) {
            AXL_EXPECT(axl_device_has(as_device, AXL_ASPECT_GPU, &b),
                       AXL_ERR_INVALID_OBJECT);
            AXL_MESSAGE_HAS("not a device handle");
        }
        if (i != 2) {
            AXL_EXPECT(axl_context_retain(as_context), AXL_ERR_INVALID_OBJECT);
            AXL_MESSAGE_HAS("not a context handle");
        }
        if (i != 3) {
            AXL_EXPECT(axl_queue_is_in_order(as_queue, &b),
                       AXL_ERR_INVALID_OBJECT);
            AXL_MESSAGE_HAS("not a queue handle");
        }
        if (i != 4) {
            AXL_EXPECT(axl_event_get_status(as_event, &st, NULL),
                       AXL_ERR_INVALID_OBJECT);
            AXL_MESSAGE_HAS("not an event handle");
        }
    }
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_context_release(c));
}

static void never_created_and_none_handles_are_refused(void **state)
{
    (void)state;
    axl_queue none = AXL_NONE;
    bool b;
    AXL_EXPECT(axl_queue_is_in_order(none, &b), AXL_ERR_INVALID_OBJECT);
    AXL_MESSAGE_HAS("none handle");
    /* A queue-kind handle whose slot index is past the pool. */
    axl_queue q = make_queue();
    axl_queue forged = {(q.id & ~0xFFFu) | 0xFFFu};
    AXL_EXPECT(axl_queue_is_in_order(forged, &b), AXL_ERR_INVALID_OBJECT);
    AXL_MESSAGE_HAS("never created");
    /* Garbage with an unknown kind. */
    axl_queue garbage = {0xF0000001u};
    AXL_EXPECT(axl_queue_is_in_order(garbage, &b), AXL_ERR_INVALID_OBJECT);
    AXL_OK(axl_queue_release(q));
}

static void handles_from_before_shutdown_are_stale_after(void **state)
{
    (void)state;
    axl_device d = axl_test_emu_device();
    axl_platform p;
    AXL_OK(axl_device_get_platform(d, &p));
    axl_event e;
    AXL_OK(axl_event_create_complete(&e));
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_shutdown());
    bool b;
    AXL_EXPECT(axl_device_has(d, AXL_ASPECT_GPU, &b), AXL_ERR_INVALID_OBJECT);
    char name[64];
    AXL_EXPECT(axl_platform_get_info(p, AXL_PLATFORM_INFO_NAME, name,
                                     sizeof name, NULL),
               AXL_ERR_INVALID_OBJECT);
    /* The runtime restarted by itself and the new device works. */
    AXL_OK(axl_device_has(axl_test_emu_device(), AXL_ASPECT_GPU, &b));
}

/* axl_event_wait, axl_event_release and axl_queue_single_task enter the
 * runtime through axl__enter, inline in these builds: each, as the
 * first call after a shutdown, still starts the runtime and refuses the
 * handle from before, and the lock is free after. */
static void launch_path_calls_restart_the_runtime_after_shutdown(void **state)
{
    (void)state;
    for (int which = 0; which < 3; which++) {
        axl_event e;
        AXL_OK(axl_event_create_complete(&e));
        AXL_OK(axl_event_release(e));
        axl_queue q = make_queue();
        AXL_OK(axl_queue_release(q));
        AXL_OK(axl_shutdown());
        if (which == 0)
            AXL_EXPECT(axl_event_wait(e), AXL_ERR_INVALID_OBJECT);
        else if (which == 1)
            AXL_EXPECT(axl_event_release(e), AXL_ERR_INVALID_OBJECT);
        else
            AXL_EXPECT(axl_queue_single_task(q, (axl_kernel){e.id}, NULL, 0,
                                             NULL, 0, NULL),
                       AXL_ERR_INVALID_OBJECT);
        /* Started again, the lock free: another call works. */
        AXL_OK(axl_event_create_complete(&e));
        AXL_OK(axl_event_wait(e));
        AXL_OK(axl_event_release(e));
    }
}

static void generation_wrap_around_keeps_handles_working(void **state)
{
    (void)state;
    /* Drive one event slot through more than 65536 lives. Every handle
     * handed out must work while its object lives and fail after. */
    axl_event keep[2];
    uint32_t cap = axl_test_pool("event").capacity;
    (void)cap;
    axl_event prev = AXL_NONE;
    for (uint32_t i = 0; i < 70000; i++) {
        axl_event e;
        AXL_OK(axl_event_create_complete(&e));
        assert_int_not_equal(e.id, 0);
        if (!AXL_IS_NONE(prev))
            assert_false(AXL_SAME(prev, e));
        AXL_OK(axl_event_release(e));
        if (i % 9973 == 0) {
            axl_event_status st;
            AXL_EXPECT(axl_event_get_status(e, &st, NULL),
                       AXL_ERR_INVALID_OBJECT);
        }
        prev = e;
    }
    AXL_OK(axl_event_create_complete(&keep[0]));
    AXL_OK(axl_event_create_complete(&keep[1]));
    assert_false(AXL_SAME(keep[0], keep[1]));
    AXL_OK(axl_event_release(keep[0]));
    AXL_OK(axl_event_release(keep[1]));
}

#define T(f) cmocka_unit_test_setup_teardown(f, axl_test_setup, axl_test_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(double_release_is_reported_for_every_kind),
        T(stale_handle_stays_stale_after_its_slot_is_reused),
        T(handles_of_another_kind_are_refused_for_every_kind),
        T(never_created_and_none_handles_are_refused),
        T(handles_from_before_shutdown_are_stale_after),
        T(launch_path_calls_restart_the_runtime_after_shutdown),
        T(generation_wrap_around_keeps_handles_working),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
