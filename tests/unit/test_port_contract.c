/*
 * The device-port contract (include/axl/hal.h, core/devops.h): required ops
 * are checked when a port registers and a port missing one is refused with
 * a message naming it; every optional op may be NULL, and a port without it
 * still runs kernels (or says it cannot), never making the core call
 * through NULL (STYLE: "a missing op is never undefined behaviour").
 * Devices are the fake port's (tests/support), each carrying stock.xclbin as
 * its built-in design (SYCL 4.11.9 built-in kernels).
 */
#include <string.h>

#include "axl_test.h"

static axl_device fake_device(void)
{
    axl_aspect emulated = AXL_ASPECT_EMULATED;
    axl_aspect_list hw = {NULL, 0, &emulated, 1};
    axl_device dev;
    AXL_OK(axl_device_select(axl_aspect_selector, &hw, &dev));
    return dev;
}

static void use_port(axl_device_port *port)
{
    fake_config = (fake_port_config){.devices = 1,
                                     .flags = AXL_HAL_DEVICE_AVAILABLE,
                                     .program_mask = 1,
                                     .builtin_image = axl_test_stock_xclbin,
                                     .builtin_image_size =
                                         axl_test_stock_xclbin_size};
    AXL_OK(axl_device_port_register(port));
}

/* The optional ops the fake port leaves NULL, so that "every op present"
 * means it. */
static uint32_t full_calls;

static axl_status full_mem_copy(void *dev, axl_hal_mem *dst, uint64_t doff,
                                axl_hal_mem *src, uint64_t soff, uint64_t size)
{
    (void)dev;
    __atomic_add_fetch(&full_calls, 1, __ATOMIC_RELAXED);
    memmove((unsigned char *)dst->host_ptr + doff,
            (const unsigned char *)src->host_ptr + soff, size);
    return AXL_SUCCESS;
}

static bool full_kernel_compatible(void *dev, const axl_xclbin *image,
                                   uint32_t kernel_index)
{
    (void)dev;
    (void)image;
    (void)kernel_index;
    return true;
}

static axl_status full_cu_open(void *dev, const axl_xclbin *image,
                               uint32_t kernel_index, uint32_t ip_index,
                               uintptr_t *cu_handle)
{
    (void)dev;
    (void)image;
    (void)kernel_index;
    __atomic_add_fetch(&full_calls, 1, __ATOMIC_RELAXED);
    *cu_handle = ip_index + 1u;
    return AXL_SUCCESS;
}

static void full_cu_close(void *dev, uintptr_t cu_handle)
{
    (void)dev;
    (void)cu_handle;
}

static void full_run_cancel(void *dev, const axl_hal_run *run)
{
    (void)dev;
    (void)run;
}

static axl_device_port full_port(void)
{
    axl_device_port p = fake_port;
    p.mem_copy = full_mem_copy;
    p.kernel_compatible = full_kernel_compatible;
    p.cu_open = full_cu_open;
    p.cu_close = full_cu_close;
    p.run_cancel = full_run_cancel;
    return p;
}

/* ---- Required ops: refused at registration, naming the op ------------------- */

static void a_port_missing_a_required_op_is_refused_naming_it(void **s)
{
    (void)s;
    static const char *const names[] = {"probe", "open", "close", "describe",
                                        "bank"};
    for (unsigned i = 0; i < 5; i++) {
        static axl_device_port p;
        p = fake_port;
        switch (i) {
        case 0: p.probe = NULL; break;
        case 1: p.open = NULL; break;
        case 2: p.close = NULL; break;
        case 3: p.describe = NULL; break;
        default: p.bank = NULL; break;
        }
        assert_int_equal(axl_device_port_register(&p), AXL_ERR_INVALID);
        if (axl_test_messages())
            assert_non_null(strstr(axl_last_message(), names[i]));
        if (axl_test_messages())
            assert_non_null(strstr(axl_last_message(), "fake"));
    }
    /* Refused ports are not platforms: only the board's remain. */
    axl_platform ps[AXL_TEST_BOARD_PORTS + 1];
    uint32_t n = 0;
    AXL_OK(axl_platform_get_all(ps, AXL_TEST_BOARD_PORTS + 1, &n));
    assert_int_equal(n, AXL_TEST_BOARD_PORTS);
}

static void device_memory_ops_come_together_or_not_at_all(void **s)
{
    (void)s;
    static const char *const names[] = {"mem_alloc", "mem_write", "mem_read"};
    for (unsigned i = 0; i < 3; i++) {
        static axl_device_port p;
        p = fake_port;
        switch (i) {
        case 0: p.mem_alloc = NULL; break;
        case 1: p.mem_write = NULL; break;
        default: p.mem_read = NULL; break;
        }
        assert_int_equal(axl_device_port_register(&p), AXL_ERR_INVALID);
        if (axl_test_messages())
            assert_non_null(strstr(axl_last_message(), names[i]));
    }
    /* mem_copy without device memory has nothing to copy. */
    static axl_device_port copy_only;
    copy_only = fake_port;
    copy_only.mem_alloc = NULL;
    copy_only.mem_free = NULL;
    copy_only.mem_write = NULL;
    copy_only.mem_read = NULL;
    copy_only.mem_copy = full_mem_copy;
    assert_int_equal(axl_device_port_register(&copy_only), AXL_ERR_INVALID);
    if (axl_test_messages())
        assert_non_null(strstr(axl_last_message(), "mem_alloc"));
}

/* The board's own ports are not checked at start-up (that code would be in
 * every firmware): each passes the registration check here instead. */
extern const axl_device_port *const axl__board_ports[];
extern const uint32_t axl__board_port_count;

static void the_board_ports_keep_the_contract(void **s)
{
    (void)s;
    assert_true(axl__board_port_count >= 1);
    /* With the runtime started, a registration passes the contract check
     * (a port lacking an op is AXL_ERR_INVALID, first) and is then refused
     * for its timing (AXL_ERR_BAD_STATE): the check runs and nothing is
     * left registered. (A registration before the start would stay, as
     * axl_shutdown of a runtime never started forgets nothing, and the
     * board's ports would be opened twice by the next test.) */
    uint32_t n = 0;
    AXL_OK(axl_platform_get_all(NULL, 0, &n));
    for (uint32_t i = 0; i < axl__board_port_count; i++) {
        assert_int_equal(axl_device_port_register(axl__board_ports[i]),
                         AXL_ERR_BAD_STATE);
        if (axl_test_messages())
            assert_non_null(strstr(axl_last_message(), "has started"));
    }
    AXL_OK(axl_shutdown());
}

/* ---- Optional ops: NULL, and the kernels still run -------------------------- */

/* Launches the built-in nop and vadd (single_task, 4.9.4.2), copies between
 * two buffers on the device, and, when the port can load images, launches
 * the application image's nop. Without device memory, vadd is refused. */
static void run_kernels(bool memory, bool loads)
{
    axl_device dev = fake_device();
    axl_context ctx;
    axl_queue q;
    AXL_OK(axl_context_create(&dev, 1, NULL, &ctx));
    AXL_OK(axl_queue_create(ctx, dev, AXL_QUEUE_IN_ORDER, NULL, &q));
    axl_kernel_id ids[2];
    AXL_OK(axl_get_built_in_kernel_id(dev, "nop", &ids[0]));
    AXL_OK(axl_get_built_in_kernel_id(dev, "vadd", &ids[1]));
    axl_kernel_bundle b;
    AXL_OK(axl_get_kernel_bundle_for(ctx, &dev, 1, ids, 2,
                                     AXL_BUNDLE_EXECUTABLE, &b));
    axl_kernel nop, vadd;
    AXL_OK(axl_kernel_bundle_get_kernel(b, ids[0], &nop));
    AXL_OK(axl_kernel_bundle_get_kernel(b, ids[1], &vadd));
    axl_event e;
    AXL_OK(axl_queue_single_task(q, nop, NULL, 0, NULL, 0, &e));
    AXL_OK(axl_event_wait(e));
    axl_event_status es;
    axl_status err;
    AXL_OK(axl_event_get_status(e, &es, &err));
    assert_int_equal(es, AXL_EVENT_COMPLETE);
    assert_int_equal(err, AXL_SUCCESS);
    AXL_OK(axl_event_release(e));

    int32_t x[64], y[64], out[64];
    for (int i = 0; i < 64; i++)
        x[i] = y[i] = out[i] = i;
    axl_buffer A, B, O;
    AXL_OK(axl_buffer_create_from(x, 4, axl_range_1d(64), NULL, &A));
    AXL_OK(axl_buffer_create_from(y, 4, axl_range_1d(64), NULL, &B));
    AXL_OK(axl_buffer_create_from(out, 4, axl_range_1d(64), NULL, &O));
    uint32_t n = 64;
    axl_kernel_arg args[4] = {
        {.index = 0, .buffer = A, .mode = AXL_ACCESS_READ},
        {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
        {.index = 2, .buffer = O, .mode = AXL_ACCESS_READ_WRITE},
        {.index = 3, .value = &n, .size = sizeof n}};
    axl_status st = axl_queue_single_task(q, vadd, args, 4, NULL, 0, NULL);
    if (memory) {
        AXL_OK(st);
        /* A copy between two device buffers: mem_copy, or the bounce
         * through host memory when the port has none. */
        AXL_OK(axl_queue_copy(q, A, NULL, O, NULL, NULL, 0, NULL));
        AXL_OK(axl_queue_wait(q));
        assert_true(fake_mem.writes > 0);
    } else {
        assert_int_equal(st, AXL_ERR_FEATURE_NOT_SUPPORTED);
        if (axl_test_messages())
            assert_non_null(strstr(axl_last_message(), "device memory"));
    }
    AXL_OK(axl_buffer_release(O));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    for (int i = 0; i < 64; i++)
        assert_int_equal(out[i], i); /* the fake runs compute nothing */

    if (loads) {
        AXL_OK(axl_image_register(axl_test_app_xclbin,
                                  axl_test_app_xclbin_size));
        axl_kernel_bundle app;
        AXL_OK(axl_get_kernel_bundle(ctx, &dev, 1, AXL_BUNDLE_EXECUTABLE,
                                     &app));
        axl_kernel_id aid[4];
        uint32_t na = 0;
        AXL_OK(axl_kernel_bundle_get_kernel_ids(app, aid, 4, &na));
        axl_kernel_id app_nop = {0};
        for (uint32_t i = 0; i < na; i++) {
            const char *name;
            AXL_OK(axl_kernel_id_get_name(aid[i], &name));
            if (!strcmp(name, "nop") && !AXL_SAME(aid[i], ids[0]))
                app_nop = aid[i];
        }
        assert_true(app_nop.id != 0);
        /* A bundle for that kernel alone programs the device with it,
         * once the built-in design is let go (4.11.6). */
        AXL_OK(axl_kernel_bundle_release(app));
        AXL_OK(axl_kernel_release(nop));
        AXL_OK(axl_kernel_release(vadd));
        AXL_OK(axl_kernel_bundle_release(b));
        AXL_OK(axl_get_kernel_bundle_for(ctx, &dev, 1, &app_nop, 1,
                                         AXL_BUNDLE_EXECUTABLE, &app));
        axl_kernel anop;
        AXL_OK(axl_kernel_bundle_get_kernel(app, app_nop, &anop));
        AXL_OK(axl_queue_single_task(q, anop, NULL, 0, NULL, 0, NULL));
        AXL_OK(axl_queue_wait(q));
        AXL_OK(axl_kernel_release(anop));
        AXL_OK(axl_kernel_bundle_release(app));
    } else {
        AXL_OK(axl_kernel_release(nop));
        AXL_OK(axl_kernel_release(vadd));
        AXL_OK(axl_kernel_bundle_release(b));
    }
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_context_release(ctx));
}

static void kernels_run_with_every_optional_op_present(void **s)
{
    (void)s;
    static axl_device_port p;
    p = full_port();
    full_calls = 0;
    use_port(&p);
    run_kernels(true, true);
    assert_true(full_calls >= 2); /* cu_open, and mem_copy for the copy */
}

#define WITHOUT(op, memory, loads)                                             \
    static void kernels_run_without_##op(void **s)                             \
    {                                                                          \
        (void)s;                                                               \
        static axl_device_port p;                                              \
        p = full_port();                                                       \
        p.op = NULL;                                                           \
        use_port(&p);                                                          \
        run_kernels(memory, loads);                                            \
    }

WITHOUT(kernel_compatible, true, true)
WITHOUT(mem_free, true, true)
WITHOUT(mem_copy, true, true)
WITHOUT(cu_open, true, true)
WITHOUT(cu_close, true, true)
WITHOUT(run_cancel, true, true)
WITHOUT(progress, true, true)
WITHOUT(load_image, true, false)

/* No device memory at all: kernels without buffers run; buffers cannot be
 * placed and the launch says so. */
static void kernels_run_without_device_memory(void **s)
{
    (void)s;
    static axl_device_port p;
    p = full_port();
    p.mem_alloc = NULL;
    p.mem_free = NULL;
    p.mem_write = NULL;
    p.mem_read = NULL;
    p.mem_copy = NULL;
    use_port(&p);
    run_kernels(false, true);
}

/* The review's probe: a port without run_start whose device carries a
 * built-in design. The device runs no kernel, so its built-in kernels are
 * not compatible with it (4.11.8): the bundle is refused, nothing crashes
 * (it used to be a call through NULL at the first single_task). */
static void a_port_without_run_start_runs_no_built_in_kernel_4_11_8(void **s)
{
    (void)s;
    static axl_device_port p;
    p = full_port();
    p.run_start = NULL;
    use_port(&p);
    axl_device dev = fake_device();
    axl_kernel_id nop;
    AXL_OK(axl_get_built_in_kernel_id(dev, "nop", &nop));
    bool compatible = true;
    AXL_OK(axl_is_compatible(&nop, 1, dev, &compatible));
    assert_false(compatible);
    axl_context ctx;
    AXL_OK(axl_context_create(&dev, 1, NULL, &ctx));
    axl_kernel_bundle b = {0};
    axl_status st = axl_get_kernel_bundle_for(ctx, &dev, 1, &nop, 1,
                                              AXL_BUNDLE_EXECUTABLE, &b);
    assert_int_not_equal(st, AXL_SUCCESS);
    AXL_OK(axl_context_release(ctx));
}

#define T(f) cmocka_unit_test_setup_teardown(f, axl_test_setup, axl_test_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(a_port_missing_a_required_op_is_refused_naming_it),
        T(device_memory_ops_come_together_or_not_at_all),
        T(the_board_ports_keep_the_contract),
        T(kernels_run_with_every_optional_op_present),
        T(kernels_run_without_kernel_compatible),
        T(kernels_run_without_mem_free),
        T(kernels_run_without_mem_copy),
        T(kernels_run_without_cu_open),
        T(kernels_run_without_cu_close),
        T(kernels_run_without_run_cancel),
        T(kernels_run_without_progress),
        T(kernels_run_without_load_image),
        T(kernels_run_without_device_memory),
        T(a_port_without_run_start_runs_no_built_in_kernel_4_11_8),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
