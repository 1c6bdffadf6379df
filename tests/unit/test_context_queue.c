/*
 * Contexts and queues (spec 4.6.3, 4.6.5), and the pool-full rules.
 */
#include <string.h>

#include "axl_test.h"

static void context_from_one_device_has_it_and_its_platform_4_6_3(void **state)
{
    (void)state;
    axl_device d = axl_test_emu_device();
    axl_context c;
    AXL_OK(axl_context_create(&d, 1, NULL, &c));
    axl_platform p, dp;
    AXL_OK(axl_context_get_platform(c, &p));
    AXL_OK(axl_device_get_platform(d, &dp));
    assert_true(AXL_SAME(p, dp));
    axl_device out[4];
    uint32_t n = 0;
    AXL_OK(axl_context_get_devices(c, out, 4, &n));
    assert_int_equal(n, 1);
    assert_true(AXL_SAME(out[0], d));
    size_t size = 0;
    AXL_OK(axl_context_get_info(c, AXL_CONTEXT_INFO_DEVICES, NULL, 0, &size));
    assert_int_equal(size, sizeof(axl_device));
    AXL_OK(axl_context_release(c));
}

static void context_drops_duplicate_devices(void **state)
{
    (void)state;
    axl_device d = axl_test_emu_device();
    axl_device list[3] = {d, d, d};
    axl_context c;
    AXL_OK(axl_context_create(list, 3, NULL, &c));
    uint32_t n = 0;
    AXL_OK(axl_context_get_devices(c, NULL, 0, &n));
    assert_int_equal(n, 1);
    AXL_OK(axl_context_release(c));
}

static void context_of_two_platforms_is_invalid_4_6_3_1(void **state)
{
    (void)state;
    fake_config = (fake_port_config){.devices = 1, .flags = AXL_HAL_DEVICE_AVAILABLE};
    AXL_OK(axl_device_port_register(&fake_port));
    axl_device all[2];
    uint32_t n;
    AXL_OK(axl_device_get_all(AXL_DEVICE_TYPE_ALL, all, 2, &n));
    axl_context c = {777};
    AXL_EXPECT(axl_context_create(all, 2, NULL, &c), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("another platform");
    assert_int_equal(c.id, 777);
    assert_int_equal(axl_test_pool("context").in_use, 0);
}

static void context_with_no_device_is_invalid(void **state)
{
    (void)state;
    axl_context c;
    AXL_EXPECT(axl_context_create(NULL, 0, NULL, &c), AXL_ERR_INVALID);
}

static void context_retain_release_counts_4_5_2(void **state)
{
    (void)state;
    axl_device d = axl_test_emu_device();
    axl_context c;
    AXL_OK(axl_context_create(&d, 1, NULL, &c));
    AXL_OK(axl_context_retain(c));
    AXL_OK(axl_context_release(c));
    axl_platform p;
    AXL_OK(axl_context_get_platform(c, &p)); /* still one reference */
    AXL_OK(axl_context_release(c));
    AXL_EXPECT(axl_context_get_platform(c, &p), AXL_ERR_INVALID_OBJECT);
    AXL_EXPECT(axl_context_release(c), AXL_ERR_INVALID_OBJECT);
    AXL_MESSAGE_HAS("stale");
}

static void queue_info_and_properties_4_6_5(void **state)
{
    (void)state;
    axl_device d = axl_test_emu_device();
    axl_context c;
    AXL_OK(axl_context_create(&d, 1, NULL, &c));
    axl_queue q;
    AXL_OK(axl_queue_create(c, d, AXL_QUEUE_IN_ORDER, NULL, &q));
    axl_context qc;
    axl_device qd;
    AXL_OK(axl_queue_get_context(q, &qc));
    AXL_OK(axl_queue_get_device(q, &qd));
    assert_true(AXL_SAME(qc, c));
    assert_true(AXL_SAME(qd, d));
    bool in_order = false;
    AXL_OK(axl_queue_is_in_order(q, &in_order));
    assert_true(in_order);
    /* The queue keeps its context alive after the application lets go. */
    AXL_OK(axl_context_release(c));
    AXL_OK(axl_queue_get_context(q, &qc));
    assert_int_equal(axl_test_pool("context").in_use, 1);
    AXL_OK(axl_queue_release(q));
    assert_int_equal(axl_test_pool("context").in_use, 0);
}

static void queue_without_context_makes_its_own_4_6_5(void **state)
{
    (void)state;
    axl_context none = AXL_NONE;
    axl_queue q;
    AXL_OK(axl_queue_create(none, axl_test_emu_device(), 0, NULL, &q));
    axl_context c;
    AXL_OK(axl_queue_get_context(q, &c));
    axl_device devs[2];
    uint32_t n;
    AXL_OK(axl_context_get_devices(c, devs, 2, &n));
    assert_int_equal(n, 1);
    bool in_order = true;
    AXL_OK(axl_queue_is_in_order(q, &in_order));
    assert_false(in_order);
    AXL_OK(axl_queue_release(q));
    assert_int_equal(axl_test_pool("context").in_use, 0);
}

static void queue_on_device_outside_context_is_invalid_table_27(void **state)
{
    (void)state;
    fake_config = (fake_port_config){.devices = 1, .flags = AXL_HAL_DEVICE_AVAILABLE};
    AXL_OK(axl_device_port_register(&fake_port));
    axl_device emu = axl_test_emu_device();
    axl_device all[2];
    uint32_t n;
    AXL_OK(axl_device_get_all(AXL_DEVICE_TYPE_ALL, all, 2, &n));
    axl_device other = AXL_SAME(all[0], emu) ? all[1] : all[0];
    axl_context c;
    AXL_OK(axl_context_create(&emu, 1, NULL, &c));
    axl_queue q = {55};
    AXL_EXPECT(axl_queue_create(c, other, 0, NULL, &q), AXL_ERR_INVALID);
    assert_int_equal(q.id, 55);
    assert_int_equal(axl_test_pool("queue").in_use, 0);
    AXL_OK(axl_context_release(c));
}

static void profiling_queue_needs_queue_profiling_aspect_4_6_5_4(void **state)
{
    (void)state;
    fake_config = (fake_port_config){.devices = 1, .flags = AXL_HAL_DEVICE_AVAILABLE};
    AXL_OK(axl_device_port_register(&fake_port));
    axl_aspect emulated = AXL_ASPECT_EMULATED;
    axl_aspect_list hw = {NULL, 0, &emulated, 1};
    axl_device d;
    AXL_OK(axl_device_select(axl_aspect_selector, &hw, &d));
    axl_context none = AXL_NONE;
    axl_queue q;
    AXL_EXPECT(axl_queue_create(none, d, AXL_QUEUE_ENABLE_PROFILING, NULL, &q),
               AXL_ERR_FEATURE_NOT_SUPPORTED);
    assert_int_equal(axl_test_pool("queue").in_use, 0);
    assert_int_equal(axl_test_pool("context").in_use, 0);
}

static void unknown_queue_flags_are_invalid(void **state)
{
    (void)state;
    axl_context none = AXL_NONE;
    axl_queue q;
    AXL_EXPECT(axl_queue_create(none, axl_test_emu_device(), 0x100, NULL, &q),
               AXL_ERR_INVALID);
}

static void queue_create_selected_uses_the_selector(void **state)
{
    (void)state;
    axl_queue q;
    AXL_OK(axl_queue_create_selected(axl_default_selector, NULL, 0, NULL, &q));
    axl_device d;
    AXL_OK(axl_queue_get_device(q, &d));
    assert_true(AXL_SAME(d, axl_test_emu_device()));
    AXL_OK(axl_queue_release(q));
}

/* The N+1th object of a pool: refused with AXL_ERR_OUT_OF_RESOURCES, the
 * pool named, the failure counted, and nothing else changed. */
static void context_pool_full_names_pool_and_changes_nothing(void **state)
{
    (void)state;
    axl_device d = axl_test_emu_device();
    uint32_t cap = axl_test_pool("context").capacity;
    axl_context c[64];
    assert_true(cap <= 64);
    for (uint32_t i = 0; i < cap; i++)
        AXL_OK(axl_context_create(&d, 1, NULL, &c[i]));
    axl_context extra = {99};
    AXL_EXPECT(axl_context_create(&d, 1, NULL, &extra),
               AXL_ERR_OUT_OF_RESOURCES);
    AXL_MESSAGE_HAS("context pool is full");
    AXL_MESSAGE_HAS("AXL_MAX_CONTEXTS");
    assert_int_equal(extra.id, 99);
    axl_pool_stats s = axl_test_pool("context");
    assert_int_equal(s.in_use, cap);
    assert_int_equal(s.high_water, cap);
    assert_int_equal(s.failures, 1);
    assert_int_equal(axl_status_errc(AXL_ERR_OUT_OF_RESOURCES),
                     AXL_ERRC_MEMORY_ALLOCATION);
    for (uint32_t i = 0; i < cap; i++)
        AXL_OK(axl_context_release(c[i]));
}

static void queue_pool_full_releases_its_own_context(void **state)
{
    (void)state;
    axl_device d = axl_test_emu_device();
    uint32_t cap = axl_test_pool("queue").capacity;
    axl_queue q[64];
    axl_context none = AXL_NONE;
    axl_context shared;
    AXL_OK(axl_context_create(&d, 1, NULL, &shared));
    for (uint32_t i = 0; i < cap; i++)
        AXL_OK(axl_queue_create(shared, d, 0, NULL, &q[i]));
    uint32_t contexts = axl_test_pool("context").in_use;
    axl_queue extra;
    AXL_EXPECT(axl_queue_create(none, d, 0, NULL, &extra),
               AXL_ERR_OUT_OF_RESOURCES);
    AXL_MESSAGE_HAS("queue pool is full");
    assert_int_equal(axl_test_pool("context").in_use, contexts);
    for (uint32_t i = 0; i < cap; i++)
        AXL_OK(axl_queue_release(q[i]));
    AXL_OK(axl_context_release(shared));
}

static void stats_list_every_pool_with_its_setting(void **state)
{
    (void)state;
    uint32_t n = 0;
    AXL_OK(axl_stats_get(NULL, 0, &n));
    assert_true(n >= 7);
    axl_pool_stats s[1];
    AXL_EXPECT(axl_stats_get(s, 1, &n), AXL_ERR_INVALID);
    assert_string_equal(axl_test_pool("event").setting, "AXL_MAX_EVENTS");
    assert_true(axl_test_pool("command").object_size > 0);
}

static void shutdown_refuses_while_objects_are_held(void **state)
{
    (void)state;
    axl_context none = AXL_NONE;
    axl_queue q;
    AXL_OK(axl_queue_create(none, axl_test_emu_device(), 0, NULL, &q));
    AXL_EXPECT(axl_shutdown(), AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("1 queue");
    bool in_order;
    AXL_OK(axl_queue_is_in_order(q, &in_order)); /* nothing changed */
    AXL_OK(axl_queue_release(q));
}

#define T(f) cmocka_unit_test_setup_teardown(f, axl_test_setup, axl_test_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(context_from_one_device_has_it_and_its_platform_4_6_3),
        T(context_drops_duplicate_devices),
        T(context_of_two_platforms_is_invalid_4_6_3_1),
        T(context_with_no_device_is_invalid),
        T(context_retain_release_counts_4_5_2),
        T(queue_info_and_properties_4_6_5),
        T(queue_without_context_makes_its_own_4_6_5),
        T(queue_on_device_outside_context_is_invalid_table_27),
        T(profiling_queue_needs_queue_profiling_aspect_4_6_5_4),
        T(unknown_queue_flags_are_invalid),
        T(queue_create_selected_uses_the_selector),
        T(context_pool_full_names_pool_and_changes_nothing),
        T(queue_pool_full_releases_its_own_context),
        T(stats_list_every_pool_with_its_setting),
        T(shutdown_refuses_while_objects_are_held),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
