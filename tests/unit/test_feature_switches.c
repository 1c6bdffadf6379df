/*
 * Feature switches (core/axl_config.h): each optional part of the API can
 * be compiled out, and a switched-off call still links, answers
 * AXL_ERR_FEATURE_NOT_SUPPORTED (SYCL's errc::feature_not_supported,
 * 4.13.2) with a message naming the switch, and changes nothing: no pool
 * slot taken, no out-parameter written. With the switch on the same call
 * works. The matrix configuration host-emu-features-off (scripts/matrix)
 * runs this with every switch off; the default build with every switch on.
 */
#include "axl_test.h"
#include "axl_config.h"
#include "axl/plan.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

/* The call's status with the switch as built: on, anything but
 * FEATURE_NOT_SUPPORTED; off, exactly that and a message naming it. */
static void answers_as_switched(bool on, const char *setting, axl_status st)
{
    if (on) {
        assert_int_not_equal(st, AXL_ERR_FEATURE_NOT_SUPPORTED);
        print_message("%s 1: the call ran (%s)\n", setting,
                      axl_status_name(st));
        return;
    }
    assert_int_equal(st, AXL_ERR_FEATURE_NOT_SUPPORTED);
    AXL_MESSAGE_HAS(setting);
    print_message("%s 0: %s\n", setting, axl_last_message());
}

static axl_queue make_queue(void)
{
    axl_queue q;
    AXL_OK(axl_queue_create(AXL_NO_CONTEXT, axl_test_emu_device(), 0, NULL,
                            &q));
    return q;
}

static void sub_buffer_switch_4_7_2(void **state)
{
    (void)state;
    static int data[16];
    axl_buffer b, sub = {0};
    AXL_OK(axl_buffer_create_from(data, sizeof data[0], axl_range_1d(16),
                                  NULL, &b));
    uint32_t before = axl_test_pool("buffer").in_use;
    size_t off[3] = {4, 0, 0};
    axl_status st = axl_buffer_create_sub(b, off, axl_range_1d(4), &sub);
    answers_as_switched(AXL_FEATURE_SUB_BUFFERS, "AXL_FEATURE_SUB_BUFFERS",
                        st);
    if (st == AXL_SUCCESS)
        AXL_OK(axl_buffer_release(sub));
    else
        assert_int_equal(sub.id, 0);
    if (st != AXL_SUCCESS)
        assert_int_equal(axl_test_pool("buffer").in_use, before);
    AXL_OK(axl_buffer_release(b));
}

static void host_accessor_switch_4_7_6_10(void **state)
{
    (void)state;
    static int data[8];
    axl_buffer b;
    AXL_OK(axl_buffer_create_from(data, sizeof data[0], axl_range_1d(8), NULL,
                                  &b));
    axl_host_accessor ha = {0};
    void *p = NULL;
    axl_status st =
        axl_host_accessor_create(b, AXL_ACCESS_READ, NULL, 0, &ha, &p);
    answers_as_switched(AXL_FEATURE_HOST_ACCESSORS,
                        "AXL_FEATURE_HOST_ACCESSORS", st);
    if (st == AXL_SUCCESS) {
        assert_non_null(p);
        AXL_OK(axl_host_accessor_release(ha));
    } else {
        assert_null(p);
        assert_int_equal(axl_test_pool("host_accessor").in_use, 0);
        AXL_EXPECT(axl_host_accessor_release(ha),
                   AXL_ERR_FEATURE_NOT_SUPPORTED);
    }
    AXL_OK(axl_buffer_release(b));
}

/* The two host tasks below have no dependency between them, so two
 * workers may run them at once: the count is atomic. */
static atomic_int ran;
static axl_status task(void *user)
{
    (void)user;
    atomic_fetch_add(&ran, 1);
    return AXL_SUCCESS;
}

static void host_task_cgf(axl_handler *h, void *user)
{
    (void)user;
    axl_handler_host_task(h, task, NULL);
}

static void host_task_switch_4_10(void **state)
{
    (void)state;
    axl_queue q = make_queue();
    atomic_store(&ran, 0);
    axl_event e = {0};
    axl_status st = axl_queue_host_task(q, task, NULL, NULL, 0, &e);
    answers_as_switched(AXL_FEATURE_HOST_TASKS, "AXL_FEATURE_HOST_TASKS", st);
    if (st == AXL_SUCCESS)
        AXL_OK(axl_event_release(e));
    else
        assert_int_equal(e.id, 0);
    /* In a command group: the group fails at submit, nothing runs. */
    st = axl_queue_submit(q, host_task_cgf, NULL, NULL);
    answers_as_switched(AXL_FEATURE_HOST_TASKS, "AXL_FEATURE_HOST_TASKS", st);
    AXL_OK(axl_queue_wait(q));
    assert_int_equal(atomic_load(&ran), AXL_FEATURE_HOST_TASKS ? 2 : 0);
    assert_int_equal(axl_test_pool("command").in_use, 0);
    AXL_OK(axl_queue_release(q));
}

static void profiling_switch_4_6_6(void **state)
{
    (void)state;
    axl_event e;
    AXL_OK(axl_event_create_complete(&e));
    uint64_t ns = 12345;
    axl_status st =
        axl_event_get_profiling(e, AXL_PROFILING_COMMAND_END, &ns);
    answers_as_switched(AXL_FEATURE_PROFILING, "AXL_FEATURE_PROFILING", st);
    if (st != AXL_SUCCESS)
        assert_int_equal(ns, 12345);
    AXL_OK(axl_event_release(e));
}

static void source_bundle_switch(void **state)
{
    (void)state;
    axl_kernel_bundle kb = {0};
    bool can = false;
    axl_status st = axl_device_can_compile(axl_test_emu_device(),
                                           AXL_SOURCE_XCLBIN, &can);
    answers_as_switched(AXL_FEATURE_SOURCE_BUNDLES,
                        "AXL_FEATURE_SOURCE_BUNDLES", st);
    axl_context ctx;
    axl_device dev = axl_test_emu_device();
    AXL_OK(axl_context_create(&dev, 1, NULL, &ctx));
    uint32_t images = axl_test_pool("image").in_use;
    st = axl_kernel_bundle_create_from_source(
        ctx, AXL_SOURCE_XCLBIN, axl_test_app_xclbin,
        axl_test_app_xclbin_size, &kb);
    answers_as_switched(AXL_FEATURE_SOURCE_BUNDLES,
                        "AXL_FEATURE_SOURCE_BUNDLES", st);
    if (st == AXL_SUCCESS) {
        AXL_OK(axl_kernel_bundle_release(kb));
    } else {
        assert_int_equal(kb.id, 0);
        assert_int_equal(axl_test_pool("image").in_use, images);
    }
    AXL_OK(axl_context_release(ctx));
}

static void join_switch_4_11_12(void **state)
{
    (void)state;
    axl_context ctx;
    axl_device dev = axl_test_emu_device();
    AXL_OK(axl_context_create(&dev, 1, NULL, &ctx));
    axl_kernel_bundle kb, joined = {0};
    axl_kernel_id id;
    AXL_OK(axl_get_built_in_kernel_id(dev, "vadd", &id));
    AXL_OK(axl_get_kernel_bundle_for(ctx, NULL, 0, &id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &kb));
    uint32_t bundles = axl_test_pool("kernel_bundle").in_use;
    axl_status st = axl_kernel_bundle_join(&kb, 1, &joined);
    answers_as_switched(AXL_FEATURE_JOIN, "AXL_FEATURE_JOIN", st);
    if (st == AXL_SUCCESS) {
        AXL_OK(axl_kernel_bundle_release(joined));
    } else {
        assert_int_equal(joined.id, 0);
        assert_int_equal(axl_test_pool("kernel_bundle").in_use, bundles);
    }
    AXL_OK(axl_kernel_bundle_release(kb));
    AXL_OK(axl_context_release(ctx));
}

static void app_image_switch(void **state)
{
    (void)state;
    AXL_OK(axl_init());
    uint32_t images = axl_test_pool("image").in_use;
    uint32_t ids = axl_test_pool("kernel_id").in_use;
    axl_status st =
        axl_image_register(axl_test_app_xclbin, axl_test_app_xclbin_size);
    answers_as_switched(AXL_FEATURE_APP_IMAGES, "AXL_FEATURE_APP_IMAGES", st);
    if (st != AXL_SUCCESS) {
        assert_int_equal(axl_test_pool("image").in_use, images);
        assert_int_equal(axl_test_pool("kernel_id").in_use, ids);
    }
    /* The built-in kernels are there either way. */
    axl_kernel_id id;
    AXL_OK(axl_get_built_in_kernel_id(axl_test_emu_device(), "vadd", &id));
}

static void xclbin_reader_switch(void **state)
{
    (void)state;
    axl_xclbin x;
    char why[160];
    memset(&x, 0xA5, sizeof x);
    axl_status st = axl_xclbin_open(&x, axl_test_stock_xclbin,
                                    axl_test_stock_xclbin_size, why,
                                    sizeof why);
    if (AXL_FEATURE_XCLBIN_READER) {
        AXL_OK(st);
        return;
    }
    assert_int_equal(st, AXL_ERR_FEATURE_NOT_SUPPORTED);
    if (axl_test_messages())
        assert_non_null(strstr(why, "AXL_FEATURE_XCLBIN_READER"));
    assert_int_equal(x.kernel_count, 0);
    assert_null(x.data);
    print_message("AXL_FEATURE_XCLBIN_READER 0: %s\n", why);
}

/* Recorded graphs: off, no graph is made and a queue records nothing
 * (its submissions run, as they do without the switch). */
static void graph_switch(void **state)
{
    (void)state;
    axl_context ctx;
    axl_device dev = axl_test_emu_device();
    AXL_OK(axl_context_create(&dev, 1, NULL, &ctx));
    axl_graph g = {0};
    axl_status st = axl_graph_create(ctx, dev, &g);
    answers_as_switched(AXL_FEATURE_GRAPHS, "AXL_FEATURE_GRAPHS", st);
    if (st == AXL_SUCCESS) {
        AXL_OK(axl_graph_release(g));
    } else {
        assert_int_equal(g.id, 0);
        axl_graph_exec x = {0};
        assert_int_equal(axl_graph_finalize(g, &x),
                         AXL_ERR_FEATURE_NOT_SUPPORTED);
        assert_int_equal(x.id, 0);
        axl_queue q;
        AXL_OK(axl_queue_create(ctx, dev, 0, NULL, &q));
        assert_int_equal(axl_queue_submit_graph(q, x, NULL, 0, NULL),
                         AXL_ERR_FEATURE_NOT_SUPPORTED);
        /* No plan is written (axl/plan.h), and nothing of dst or len. */
        char text[8] = "x";
        size_t len = 5;
        assert_int_equal(axl_plan_write(x, "p", text, sizeof text, &len),
                         AXL_ERR_FEATURE_NOT_SUPPORTED);
        AXL_MESSAGE_HAS("AXL_FEATURE_GRAPHS");
        assert_string_equal(text, "x");
        assert_int_equal(len, 5);
        AXL_OK(axl_queue_release(q));
    }
    AXL_OK(axl_context_release(ctx));
}

static void trace_switch(void **state)
{
    (void)state;
    axl_status st = axl_trace_enable(true);
    answers_as_switched(AXL_TRACE_EVENTS > 0, "AXL_TRACE_EVENTS", st);
    AXL_OK(axl_trace_enable(false));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(sub_buffer_switch_4_7_2,
                                        axl_test_setup, axl_test_teardown),
        cmocka_unit_test_setup_teardown(graph_switch, axl_test_setup,
                                        axl_test_teardown),
        cmocka_unit_test_setup_teardown(host_accessor_switch_4_7_6_10,
                                        axl_test_setup, axl_test_teardown),
        cmocka_unit_test_setup_teardown(host_task_switch_4_10,
                                        axl_test_setup, axl_test_teardown),
        cmocka_unit_test_setup_teardown(profiling_switch_4_6_6,
                                        axl_test_setup, axl_test_teardown),
        cmocka_unit_test_setup_teardown(source_bundle_switch,
                                        axl_test_setup, axl_test_teardown),
        cmocka_unit_test_setup_teardown(join_switch_4_11_12,
                                        axl_test_setup, axl_test_teardown),
        cmocka_unit_test_setup_teardown(app_image_switch, axl_test_setup,
                                        axl_test_teardown),
        cmocka_unit_test_setup_teardown(xclbin_reader_switch, axl_test_setup,
                                        axl_test_teardown),
        cmocka_unit_test_setup_teardown(trace_switch, axl_test_setup,
                                        axl_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
