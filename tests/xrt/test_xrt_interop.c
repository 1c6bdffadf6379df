/*
 * Interop with XRT's native handles (include/axl/backend/xrt.h) on XRT
 * 2.13's noop shim: SYCL 2020 4.5.1.2 get_native for kernels and buffers,
 * 4.5.1.3 make_device from an xrtDeviceHandle the application opened.
 *
 * The board's design is stock.xclbin (AXL_XRT_BUILTIN_XCLBIN), so the XRT
 * device carries vadd, with two compute units, from the start. The noop
 * shim opens any device index, so xrtDeviceOpen(1) stands for a card the
 * application opened and axl does not list (its xclProbe says 1); the
 * tests that run kernels there load stock.xclbin on it themselves, as axl
 * does not program a device it is given.
 *
 * Usage: test_xrt_interop kernel|buffer|device
 */
#include "../support/axl_reader_skip.h"
#include <stdio.h>

#include "xrt_test.h"

#include "xrt/xrt_bo.h"
#include "xrt/xrt_kernel.h"

static axl__xrt_counts counts(void)
{
    axl__xrt_counts c;
    axl__xrt_get_counts(&c);
    return c;
}

static int setup(void **state)
{
    xt_setup(state);
    axl__xrt_set_run_done(NULL); /* runs end in the core, not in xt_capture */
    setenv("AXL_XRT_BUILTIN_XCLBIN", AXL_XCLBIN_DIR "/stock.xclbin", 1);
    return 0;
}

#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, xt_teardown)

/* A context, queue and the built-in vadd of one XRT device. */
typedef struct vadd_env {
    axl_device dev;
    axl_context ctx;
    axl_queue q;
    axl_kernel_bundle bundle;
    axl_kernel vadd;
} vadd_env;

static void vadd_open(vadd_env *v, axl_device dev)
{
    memset(v, 0, sizeof *v);
    v->dev = dev;
    AXL_OK(axl_context_create(&dev, 1, NULL, &v->ctx));
    AXL_OK(axl_queue_create(v->ctx, dev, AXL_QUEUE_IN_ORDER, NULL, &v->q));
    axl_kernel_id vadd;
    AXL_OK(axl_get_built_in_kernel_id(dev, "vadd", &vadd));
    AXL_OK(axl_get_kernel_bundle_for(v->ctx, &dev, 1, &vadd, 1,
                                     AXL_BUNDLE_EXECUTABLE, &v->bundle));
    AXL_OK(axl_kernel_bundle_get_kernel(v->bundle, vadd, &v->vadd));
}

static void vadd_close(vadd_env *v)
{
    AXL_OK(axl_kernel_release(v->vadd));
    AXL_OK(axl_kernel_bundle_release(v->bundle));
    AXL_OK(axl_queue_release(v->q));
    AXL_OK(axl_context_release(v->ctx));
}

/* vadd(a, b, c, n) on the queue, waited for. */
static void vadd_run(vadd_env *v, axl_buffer a, axl_buffer b, axl_buffer c,
                     uint32_t n)
{
    axl_kernel_arg args[4] = {
        {.index = 0, .buffer = a, .mode = AXL_ACCESS_READ},
        {.index = 1, .buffer = b, .mode = AXL_ACCESS_READ},
        {.index = 2, .buffer = c, .mode = AXL_ACCESS_WRITE},
        {.index = 3, .value = &n, .size = sizeof n},
    };
    axl_event e;
    AXL_OK(axl_queue_single_task(v->q, v->vadd, args, 4, NULL, 0, &e));
    AXL_OK(axl_event_wait(e));
    AXL_OK(axl_event_release(e));
}

static axl_buffer ints(size_t n)
{
    axl_buffer b;
    AXL_OK(axl_buffer_create(sizeof(int), axl_range_1d(n), NULL, &b));
    return b;
}

/* ======================= kernel: get_native(kernel) ============================ */

/* 4.5.1.2: get_native of a kernel is, on the XRT backend, the XRT kernel
 * of one compute unit: each unit its own, the same one each time, and the
 * one axl's own launches use (no second xrtPLKernelOpen). */
static void get_native_kernel_4_5_1_2_gives_each_compute_unit_its_xrt_kernel(
    void **state)
{
    (void)state;
    vadd_env v;
    vadd_open(&v, xt_device(NULL));
    void *k0 = NULL, *k1 = NULL, *again = NULL;
    AXL_OK(axl_xrt_get_native_kernel(v.vadd, v.dev, 0, &k0));
    AXL_OK(axl_xrt_get_native_kernel(v.vadd, v.dev, 1, &k1));
    assert_non_null(k0);
    assert_non_null(k1);
    assert_ptr_not_equal(k0, k1);
    AXL_OK(axl_xrt_get_native_kernel(v.vadd, v.dev, 0, &again));
    assert_ptr_equal(again, k0);
    assert_int_equal(counts().kernels, 2);
    /* A live XRT kernel: XRT answers about its arguments. */
    assert_true(xrtKernelArgGroupId(k0, 0) >= 0);
    assert_true(xrtKernelArgGroupId(k1, 2) >= 0);

    /* Launches go to the units already open. */
    axl_buffer b[3] = {ints(256), ints(256), ints(256)};
    for (int i = 0; i < 4; i++)
        vadd_run(&v, b[0], b[1], b[2], 256);
    assert_int_equal(counts().kernels, 2);
    for (int i = 0; i < 3; i++)
        AXL_OK(axl_buffer_release(b[i]));
    vadd_close(&v);
}

/* 4.5.1.2 with axl's errors: a unit past the last is invalid, a device of
 * another backend is errc::backend_mismatch, a released kernel is stale. */
static void get_native_kernel_4_5_1_2_refuses_past_the_last_unit_and_other_backends(
    void **state)
{
    (void)state;
    vadd_env v;
    vadd_open(&v, xt_device(NULL));
    void *h = NULL;
    AXL_EXPECT(axl_xrt_get_native_kernel(v.vadd, v.dev, 2, &h),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("axl_xrt_get_native_kernel: ");
    AXL_MESSAGE_HAS("no compute unit 2");
    AXL_EXPECT(axl_xrt_get_native_kernel(v.vadd, axl_test_emu_device(), 0, &h),
               AXL_ERR_BACKEND_MISMATCH);
    AXL_EXPECT(axl_xrt_get_native_kernel(v.vadd, v.dev, 0, NULL),
               AXL_ERR_INVALID);
    assert_null(h);
    assert_int_equal(counts().kernels, 0); /* nothing was opened */

    axl_kernel stale = v.vadd;
    vadd_close(&v);
    AXL_EXPECT(axl_xrt_get_native_kernel(stale, v.dev, 0, &h),
               AXL_ERR_INVALID_OBJECT);
}

/* 4.5.1.2 and 4.11.8: a kernel whose image the device does not carry has
 * no native kernel (errc::kernel_not_supported): a listed kernel of an
 * application image while the built-in design is held (4.11.6 on a
 * device that does not reprogram on demand, AXL_XRT_SWAPS=0: a bundle
 * that would replace it is refused, and the open units stay). Once the
 * built-in kernel is let go, the application's bundle programs the
 * device, and the units opened for vadd are closed. */
static void get_native_kernel_4_5_1_2_on_a_device_without_its_image_is_not_supported(
    void **state)
{
    (void)state;
    /* The refusal is a device's that does not reprogram on demand (issue
     * 40: with swaps the bundle is obtained and its design loads at its
     * first use). */
    setenv("AXL_XRT_SWAPS", "0", 1);
    xt_image app;
    xt_image_load(&app, "app.xclbin");
    vadd_env v;
    vadd_open(&v, xt_device(NULL));
    void *h = NULL;
    AXL_OK(axl_xrt_get_native_kernel(v.vadd, v.dev, 1, &h));
    assert_int_equal(counts().kernels, 1);

    AXL_OK(axl_image_register(app.bytes, app.size));
    axl_kernel_id scale;
    AXL_OK(axl_get_kernel_id("scale", &scale));
    axl_kernel_bundle other;
    AXL_EXPECT(axl_get_kernel_bundle_for(v.ctx, &v.dev, 1, &scale, 1,
                                         AXL_BUNDLE_EXECUTABLE, &other),
               AXL_ERR_BAD_STATE);
    assert_int_equal(counts().kernels, 1);
    AXL_OK(axl_get_kernel_bundle(v.ctx, &v.dev, 1, AXL_BUNDLE_EXECUTABLE,
                                 &other));
    axl_kernel listed;
    AXL_OK(axl_kernel_bundle_get_kernel(other, scale, &listed));
    h = NULL;
    AXL_EXPECT(axl_xrt_get_native_kernel(listed, v.dev, 0, &h),
               AXL_ERR_KERNEL_NOT_SUPPORTED);
    AXL_MESSAGE_HAS("does not carry");
    assert_null(h);
    AXL_OK(axl_kernel_release(listed));
    AXL_OK(axl_kernel_bundle_release(other));

    AXL_OK(axl_kernel_release(v.vadd));
    AXL_OK(axl_kernel_bundle_release(v.bundle));
    AXL_OK(axl_get_kernel_bundle_for(v.ctx, &v.dev, 1, &scale, 1,
                                     AXL_BUNDLE_EXECUTABLE, &other));
    assert_int_equal(counts().kernels, 0);
    AXL_OK(axl_kernel_bundle_get_kernel(other, scale, &listed));
    AXL_OK(axl_xrt_get_native_kernel(listed, v.dev, 0, &h));
    assert_non_null(h);
    AXL_OK(axl_kernel_release(listed));
    AXL_OK(axl_kernel_bundle_release(other));
    AXL_OK(axl_queue_release(v.q));
    AXL_OK(axl_context_release(v.ctx));
    AXL_OK(axl_shutdown()); /* before the image's bytes go */
    xt_image_free(&app);
    unsetenv("AXL_XRT_SWAPS");
}

/* get_native and a first launch opening the same unit at once (4.5.1.2
 * from any thread, as SYCL objects are thread-safe, 4.1): each unit is
 * opened for the core once, so programming the device with another design
 * afterwards finds none left open (the port refuses to load over open
 * units). Many rounds, each on freshly programmed units. */
typedef struct race {
    vadd_env *v;
    axl_buffer b[3];
    uint32_t cu;
    axl_status st;
    void *h;
} race;

static void *native_side(void *arg)
{
    race *r = arg;
    r->st = axl_xrt_get_native_kernel(r->v->vadd, r->v->dev, r->cu, &r->h);
    return NULL;
}

static void get_native_kernel_4_5_1_2_racing_first_launches_opens_each_unit_once(
    void **state)
{
    (void)state;
    xt_image app;
    xt_image_load(&app, "app.xclbin");
    AXL_OK(axl_image_register(app.bytes, app.size));
    axl_kernel_id scale;
    AXL_OK(axl_get_kernel_id("scale", &scale));
    vadd_env v;
    vadd_open(&v, xt_device(NULL));
    axl_kernel_id vadd;
    AXL_OK(axl_kernel_get_id(v.vadd, &vadd));
    /* Each round takes the built-in design and lets it go (a design the
     * application holds is not replaced, 4.11.6). */
    AXL_OK(axl_kernel_release(v.vadd));
    AXL_OK(axl_kernel_bundle_release(v.bundle));
    race r = {&v, {ints(64), ints(64), ints(64)}, 0, AXL_SUCCESS, NULL};
    for (uint32_t round = 0; round < 40; round++) {
        /* Back to stock: the bundle of the built-in vadd programs it. */
        axl_kernel_bundle again;
        AXL_OK(axl_get_kernel_bundle_for(v.ctx, &v.dev, 1, &vadd, 1,
                                         AXL_BUNDLE_EXECUTABLE, &again));
        AXL_OK(axl_kernel_bundle_get_kernel(again, vadd, &v.vadd));
        assert_int_equal(counts().kernels, 0);
        r.cu = round % 2;
        r.h = NULL;
        pthread_t t;
        assert_int_equal(pthread_create(&t, NULL, native_side, &r), 0);
        vadd_run(&v, r.b[0], r.b[1], r.b[2], 64);
        vadd_run(&v, r.b[0], r.b[1], r.b[2], 64);
        pthread_join(t, NULL);
        AXL_OK(r.st);
        assert_non_null(r.h);
        assert_int_equal(counts().kernels, 2);
        void *h = NULL;
        AXL_OK(axl_xrt_get_native_kernel(v.vadd, v.dev, r.cu, &h));
        assert_ptr_equal(h, r.h);
        AXL_OK(axl_kernel_release(v.vadd));
        AXL_OK(axl_kernel_bundle_release(again));
        /* Another design: every unit opened above is closed first. */
        axl_kernel_bundle other;
        AXL_OK(axl_get_kernel_bundle_for(v.ctx, &v.dev, 1, &scale, 1,
                                         AXL_BUNDLE_EXECUTABLE, &other));
        assert_int_equal(counts().kernels, 0);
        AXL_OK(axl_kernel_bundle_release(other));
    }
    for (int i = 0; i < 3; i++)
        AXL_OK(axl_buffer_release(r.b[i]));
    AXL_OK(axl_queue_release(v.q));
    AXL_OK(axl_context_release(v.ctx));
    AXL_OK(axl_shutdown());
    xt_image_free(&app);
}

/* ======================= buffer: get_native(buffer) ============================= */

/* 4.5.1.2: a buffer's native object exists once it has storage on the
 * device: before axl_buffer_place (or a command there), invalid; after,
 * the allocation's BO, the same each time. */
static void get_native_buffer_4_5_1_2_is_the_bo_once_the_buffer_is_on_the_device(
    void **state)
{
    (void)state;
    axl_device d = xt_device(NULL);
    axl_buffer b = ints(4096);
    void *bo = NULL, *again = NULL;
    AXL_EXPECT(axl_xrt_get_native_buffer(b, d, &bo), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("axl_xrt_get_native_buffer: ");
    AXL_MESSAGE_HAS("no storage");
    assert_null(bo);
    AXL_OK(axl_buffer_place(b, d, 1));
    AXL_OK(axl_xrt_get_native_buffer(b, d, &bo));
    assert_non_null(bo);
    AXL_OK(axl_xrt_get_native_buffer(b, d, &again));
    assert_ptr_equal(bo, again);
    assert_true(xrtBOSize(bo) >= 4096 * sizeof(int));
    assert_int_equal(counts().bos, 1);
    assert_int_equal(counts().sub_bos, 0);
    /* The bytes axl put there are in it. */
    int host[4096], back[4] = {0};
    for (int i = 0; i < 4096; i++)
        host[i] = i * 3;
    axl_context ctx;
    axl_queue q;
    axl_event e;
    AXL_OK(axl_context_create(&d, 1, NULL, &ctx));
    AXL_OK(axl_queue_create(ctx, d, AXL_QUEUE_IN_ORDER, NULL, &q));
    AXL_OK(axl_queue_copy_from_host(q, host, b, NULL, NULL, 0, &e));
    AXL_OK(axl_event_wait(e));
    AXL_OK(axl_event_release(e));
    assert_int_equal(xrtBOSync(bo, XCL_BO_SYNC_BO_FROM_DEVICE, sizeof back,
                               100 * sizeof(int)),
                     0);
    assert_int_equal(xrtBORead(bo, back, sizeof back, 100 * sizeof(int)), 0);
    assert_memory_equal(back, host + 100, sizeof back);

    AXL_EXPECT(axl_xrt_get_native_buffer(b, axl_test_emu_device(), &bo),
               AXL_ERR_BACKEND_MISMATCH);
    AXL_EXPECT(axl_xrt_get_native_buffer(b, d, NULL), AXL_ERR_INVALID);
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_context_release(ctx));
    AXL_OK(axl_buffer_release(b));
    /* A released buffer's native buffer is gone with its storage. */
    AXL_EXPECT(axl_xrt_get_native_buffer(b, d, &bo), AXL_ERR_INVALID_OBJECT);
    assert_int_equal(counts().bos, 0);
}

/* 4.5.1.2 for a sub-buffer (4.7.2.1 buffer(b, baseIndex, subRange)): its
 * native buffer covers its own range, xrtBOSize its bytes and xrtBOAddress
 * its offset into the base's; made once and kept with the base's storage,
 * shared with kernel arguments over the same range. */
static void get_native_buffer_4_5_1_2_of_a_sub_buffer_is_a_bo_of_its_range(
    void **state)
{
    (void)state;
    vadd_env v;
    vadd_open(&v, xt_device(NULL));
    axl_buffer base = ints(4096);
    AXL_OK(axl_buffer_place(base, v.dev, 0));
    void *whole = NULL;
    AXL_OK(axl_xrt_get_native_buffer(base, v.dev, &whole));

    /* 256 ints at 1024 ints (4 KiB in: a multiple of 4096 bits). */
    axl_buffer mid, head, tail;
    size_t at_mid[3] = {1024, 0, 0}, at_head[3] = {0, 0, 0},
           at_tail[3] = {3072, 0, 0};
    AXL_OK(axl_buffer_create_sub(base, at_mid, axl_range_1d(256), &mid));
    AXL_OK(axl_buffer_create_sub(base, at_head, axl_range_1d(128), &head));
    AXL_OK(axl_buffer_create_sub(base, at_tail, axl_range_1d(1024), &tail));
    void *m = NULL, *m2 = NULL, *h = NULL, *t = NULL;
    AXL_OK(axl_xrt_get_native_buffer(mid, v.dev, &m));
    AXL_OK(axl_xrt_get_native_buffer(mid, v.dev, &m2));
    assert_ptr_equal(m, m2);
    assert_ptr_not_equal(m, whole);
    assert_int_equal(xrtBOSize(m), 256 * sizeof(int));
    assert_int_equal(xrtBOAddress(m), xrtBOAddress(whole) + 1024 * sizeof(int));
    /* At the start, but not all of it: still its own range. */
    AXL_OK(axl_xrt_get_native_buffer(head, v.dev, &h));
    assert_ptr_not_equal(h, whole);
    assert_int_equal(xrtBOSize(h), 128 * sizeof(int));
    assert_int_equal(xrtBOAddress(h), xrtBOAddress(whole));
    assert_int_equal(counts().sub_bos, 2);
    /* Bytes through the sub-BO land at its offset in the base. */
    int mark[2] = {0x5a5a, 0x1234}, back[2] = {0};
    assert_int_equal(xrtBOWrite(m, mark, sizeof mark, 0), 0);
    assert_int_equal(xrtBORead(whole, back, sizeof back, 1024 * sizeof(int)),
                     0);
    assert_memory_equal(back, mark, sizeof mark);

    /* The tail to the end: the range a kernel argument on it gets, so the
     * kernel's launch uses the same sub-BO. */
    AXL_OK(axl_xrt_get_native_buffer(tail, v.dev, &t));
    assert_int_equal(counts().sub_bos, 3);
    axl_buffer b = ints(1024), c = ints(1024);
    vadd_run(&v, tail, b, c, 1024);
    vadd_run(&v, tail, b, c, 1024);
    assert_int_equal(counts().sub_bos, 3);

    /* A released sub-buffer is a stale handle; its sub-BO stays with the
     * base's storage, and goes with it. */
    AXL_OK(axl_buffer_release(mid));
    AXL_EXPECT(axl_xrt_get_native_buffer(mid, v.dev, &m),
               AXL_ERR_INVALID_OBJECT);
    AXL_OK(axl_buffer_release(head));
    AXL_OK(axl_buffer_release(tail));
    AXL_OK(axl_buffer_release(b));
    AXL_OK(axl_buffer_release(c));
    AXL_OK(axl_buffer_release(base));
    vadd_close(&v);
    AXL_OK(axl_shutdown());
    assert_int_equal(counts().sub_bos, 0);
    assert_int_equal(counts().bos, 0);
}

/* ======================= device: make_device =================================== */

static xt_image stock;

/* An XRT device the application opened (an index axl does not list) and,
 * with `program`, loaded with the board's design itself. */
static xrtDeviceHandle app_device(unsigned index, int program)
{
    xrtDeviceHandle h = xrtDeviceOpen(index);
    assert_non_null(h);
    if (program) {
        if (!stock.bytes)
            xt_image_load(&stock, "stock.xclbin");
        assert_int_equal(
            xrtDeviceLoadXclbin(h, (const struct axlf *)stock.bytes), 0);
    }
    return h;
}

/* 4.5.1.3: make_device over an application's xrtDeviceHandle gives a device
 * of the XRT platform (4.6.2), whose native device is that handle; the
 * same handle again, the same device; the handle of a device axl opened
 * itself, that device. */
static void make_device_4_5_1_3_joins_the_xrt_platform_once_per_handle(
    void **state)
{
    (void)state;
    axl_device own = xt_device(NULL);
    xrtDeviceHandle mine = app_device(1, 0);
    axl_device d, again;
    AXL_OK(axl_xrt_make_device(mine, &d));
    assert_int_not_equal(d.id, own.id);
    AXL_OK(axl_xrt_make_device(mine, &again));
    assert_int_equal(again.id, d.id);

    axl_platform p;
    AXL_OK(axl_device_get_platform(d, &p));
    assert_int_equal(p.id, xt_platform().id);
    axl_backend be;
    AXL_OK(axl_device_get_backend(d, &be));
    assert_int_equal(be, AXL_BACKEND_XRT);
    axl_device list[4];
    uint32_t n = 0;
    AXL_OK(axl_platform_get_devices(p, AXL_DEVICE_TYPE_ALL, list, 4, &n));
    assert_int_equal(n, 2);
    assert_true(list[0].id == d.id || list[1].id == d.id);
    void *native = NULL;
    AXL_OK(axl_xrt_get_native_device(d, &native));
    assert_ptr_equal(native, mine);
    /* It ran nothing, and axl did not program it: no design, no banks. */
    char names[256] = "x";
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_BUILT_IN_KERNELS, names,
                               sizeof names, NULL));
    assert_string_equal(names, "");
    uint32_t banks = 1;
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_MEMORY_BANKS, &banks,
                               sizeof banks, NULL));
    assert_int_equal(banks, 0);
    xuid_t uuid, zero = {0};
    assert_int_equal(xrtDeviceGetXclbinUUID(mine, uuid), 0);
    assert_memory_equal(uuid, zero, sizeof uuid);

    /* Round trip: make_device(get_native(device)) is the device. */
    AXL_OK(axl_xrt_get_native_device(own, &native));
    AXL_OK(axl_xrt_make_device(native, &again));
    assert_int_equal(again.id, own.id);
    assert_int_equal(counts().devices, 2);

    AXL_EXPECT(axl_xrt_make_device(NULL, &again), AXL_ERR_INVALID);
    AXL_EXPECT(axl_xrt_make_device(mine, NULL), AXL_ERR_INVALID);
    AXL_OK(axl_shutdown());
    assert_int_equal(xrtDeviceClose(mine), 0);
}

/* 4.5.1.3: a device made from a native handle is a device like the others:
 * the board's design it runs gives its built-in kernels, kernels run on it
 * and buffers move to and from it, in BOs of that handle's device. */
static void make_device_4_5_1_3_device_runs_kernels_and_copies(void **state)
{
    (void)state;
    xrtDeviceHandle mine = app_device(1, 1);
    axl_device d;
    AXL_OK(axl_xrt_make_device(mine, &d));
    vadd_env v;
    vadd_open(&v, d);
    enum { N = 1024 };
    static int x[N], y[N];
    for (int i = 0; i < N; i++)
        x[i] = i + 7;
    axl_buffer a = ints(N), b = ints(N), c = ints(N);
    AXL_OK(axl_buffer_place(a, d, 0));
    axl_event e;
    AXL_OK(axl_queue_copy_from_host(v.q, x, a, NULL, NULL, 0, &e));
    AXL_OK(axl_event_release(e));
    vadd_run(&v, a, b, c, N);
    AXL_OK(axl_queue_copy_to_host(v.q, a, NULL, y, NULL, 0, &e));
    AXL_OK(axl_event_wait(e));
    AXL_OK(axl_event_release(e));
    assert_memory_equal(x, y, sizeof x);
    /* The data sits in a BO of the application's device. */
    void *bo = NULL;
    int back[4];
    AXL_OK(axl_xrt_get_native_buffer(a, d, &bo));
    assert_int_equal(xrtBORead(bo, back, sizeof back, 0), 0);
    assert_memory_equal(back, x, sizeof back);
    assert_int_equal(counts().kernels, 1);
    AXL_OK(axl_buffer_release(a));
    AXL_OK(axl_buffer_release(b));
    AXL_OK(axl_buffer_release(c));
    vadd_close(&v);
    AXL_OK(axl_shutdown());
    assert_int_equal(xrtDeviceClose(mine), 0);
    xt_image_free(&stock);
}

/* 4.5.1.3 ownership (include/axl/backend/xrt.h): axl_shutdown closes what
 * axl made on the device (BOs, kernels, runs) but never the application's
 * handle, which works after it and is closed by the application. */
static void make_device_4_5_1_3_shutdown_leaves_the_application_handle_open(
    void **state)
{
    (void)state;
    xrtDeviceHandle mine = app_device(1, 1);
    axl_device d;
    AXL_OK(axl_xrt_make_device(mine, &d));
    vadd_env v;
    vadd_open(&v, d);
    axl_buffer b[3] = {ints(64), ints(64), ints(64)};
    vadd_run(&v, b[0], b[1], b[2], 64);
    void *k = NULL;
    AXL_OK(axl_xrt_get_native_kernel(v.vadd, d, 1, &k));
    for (int i = 0; i < 3; i++)
        AXL_OK(axl_buffer_release(b[i]));
    vadd_close(&v);
    assert_int_equal(counts().devices, 2);
    AXL_OK(axl_shutdown());
    axl__xrt_counts c = counts();
    assert_int_equal(c.devices + c.kernels + c.runs + c.bos + c.sub_bos, 0);

    /* Still open: XRT answers, allocates and frees on it. */
    xuid_t uuid;
    assert_int_equal(xrtDeviceGetXclbinUUID(mine, uuid), 0);
    xrtBufferHandle bo = xrtBOAlloc(mine, 4096, 0, 0);
    assert_non_null(bo);
    assert_int_equal(xrtBOFree(bo), 0);
    assert_int_equal(xrtDeviceClose(mine), 0);
    /* A handle axl was given and one it opened, in the next run of the
     * runtime: nothing of the first is left. */
    xt_register();
    mine = xrtDeviceOpen(2);
    AXL_OK(axl_xrt_make_device(mine, &d));
    assert_int_equal(counts().devices, 2);
    AXL_OK(axl_shutdown());
    assert_int_equal(xrtDeviceClose(mine), 0);
    xt_image_free(&stock);
}

/* 4.5.1.3 when the device pool is full (AXL_MAX_DEVICES; a fake port took
 * the slots left): AXL_ERR_OUT_OF_RESOURCES naming the pool, no port state
 * kept, the handle still the application's. A device axl already has is
 * still found. */
static void make_device_4_5_1_3_with_the_device_pool_full_is_out_of_resources(
    void **state)
{
    (void)state;
    fake_config.devices = 64;
    fake_config.flags = AXL_HAL_DEVICE_AVAILABLE;
    AXL_OK(axl_device_port_register(&fake_port));
    axl_device own = xt_device(NULL);
    axl_pool_stats pool = axl_test_pool("device");
    assert_int_equal(pool.in_use, pool.capacity);
    assert_int_equal(counts().devices, 1);

    xrtDeviceHandle mine = app_device(1, 0);
    axl_device d = {0};
    AXL_EXPECT(axl_xrt_make_device(mine, &d), AXL_ERR_OUT_OF_RESOURCES);
    AXL_MESSAGE_HAS("axl_xrt_make_device: the device pool is full");
    AXL_MESSAGE_HAS("AXL_MAX_DEVICES");
    assert_true(AXL_IS_NONE(d));
    assert_int_equal(counts().devices, 1);
    assert_int_equal(axl_test_pool("device").failures, pool.failures + 1);
    /* Again: the same answer, nothing built up. */
    AXL_EXPECT(axl_xrt_make_device(mine, &d), AXL_ERR_OUT_OF_RESOURCES);
    assert_int_equal(counts().devices, 1);

    void *native = NULL;
    AXL_OK(axl_xrt_get_native_device(own, &native));
    AXL_OK(axl_xrt_make_device(native, &d));
    assert_int_equal(d.id, own.id);

    /* Untouched: still running nothing. */
    xuid_t uuid, zero = {0};
    assert_int_equal(xrtDeviceGetXclbinUUID(mine, uuid), 0);
    assert_memory_equal(uuid, zero, sizeof uuid);
    AXL_OK(axl_shutdown());
    assert_int_equal(xrtDeviceClose(mine), 0);
}

/* 4.5.1.3 from several threads with one handle: one device. */
typedef struct maker {
    xrtDeviceHandle h;
    axl_device d;
    axl_status st;
} maker;

static void *make_side(void *arg)
{
    maker *m = arg;
    m->st = axl_xrt_make_device(m->h, &m->d);
    return NULL;
}

static void make_device_4_5_1_3_from_threads_at_once_gives_one_device(
    void **state)
{
    (void)state;
    xt_device(NULL);
    xrtDeviceHandle mine = xrtDeviceOpen(1);
    assert_non_null(mine);
    maker m[4];
    pthread_t t[4];
    for (int i = 0; i < 4; i++) {
        m[i] = (maker){mine, {0}, AXL_ERR_RUNTIME};
        assert_int_equal(pthread_create(&t[i], NULL, make_side, &m[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        AXL_OK(m[i].st);
        assert_int_equal(m[i].d.id, m[0].d.id);
    }
    assert_int_equal(counts().devices, 2);
    AXL_OK(axl_shutdown());
    assert_int_equal(xrtDeviceClose(mine), 0);
}

/* The port's own table (AXL_XRT_DEVICES) full: the port says so, and
 * what it holds is unchanged. */
static void make_device_4_5_1_3_past_the_port_table_is_out_of_resources(
    void **state)
{
    (void)state;
    xt_device(NULL); /* the port holds axl's device 0 */
    xrtDeviceHandle h[AXL_XRT_DEVICES + 1];
    void *dev[AXL_XRT_DEVICES + 1];
    int created = 0;
    for (uint32_t i = 1; i <= AXL_XRT_DEVICES; i++) {
        h[i] = xrtDeviceOpen(i);
        assert_non_null(h[i]);
        if (i < AXL_XRT_DEVICES) {
            AXL_OK(axl__xrt_open_native(h[i], &dev[i], &created));
            assert_int_equal(created, 1);
        } else {
            AXL_EXPECT(axl__xrt_open_native(h[i], &dev[i], &created),
                       AXL_ERR_OUT_OF_RESOURCES);
            AXL_MESSAGE_HAS("AXL_XRT_DEVICES");
            assert_int_equal(created, 0);
        }
    }
    assert_int_equal(counts().devices, AXL_XRT_DEVICES);
    for (uint32_t i = 1; i < AXL_XRT_DEVICES; i++)
        axl_native_port.close(dev[i]);
    assert_int_equal(counts().devices, 1);
    for (uint32_t i = 1; i <= AXL_XRT_DEVICES; i++)
        assert_int_equal(xrtDeviceClose(h[i]), 0);
}

/* ---- main ------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    if (axl_test_without_reader())
        return 0;
    const char *group = argc > 1 ? argv[1] : "";
    const struct CMUnitTest kernel[] = {
        TEST(get_native_kernel_4_5_1_2_gives_each_compute_unit_its_xrt_kernel),
        TEST(get_native_kernel_4_5_1_2_refuses_past_the_last_unit_and_other_backends),
        TEST(get_native_kernel_4_5_1_2_on_a_device_without_its_image_is_not_supported),
        TEST(get_native_kernel_4_5_1_2_racing_first_launches_opens_each_unit_once),
    };
    const struct CMUnitTest buffer[] = {
        TEST(get_native_buffer_4_5_1_2_is_the_bo_once_the_buffer_is_on_the_device),
        TEST(get_native_buffer_4_5_1_2_of_a_sub_buffer_is_a_bo_of_its_range),
    };
    const struct CMUnitTest device[] = {
        TEST(make_device_4_5_1_3_joins_the_xrt_platform_once_per_handle),
        TEST(make_device_4_5_1_3_device_runs_kernels_and_copies),
        TEST(make_device_4_5_1_3_shutdown_leaves_the_application_handle_open),
        TEST(make_device_4_5_1_3_with_the_device_pool_full_is_out_of_resources),
        TEST(make_device_4_5_1_3_from_threads_at_once_gives_one_device),
        TEST(make_device_4_5_1_3_past_the_port_table_is_out_of_resources),
    };
    if (!strcmp(group, "kernel"))
        return cmocka_run_group_tests_name("kernel", kernel, NULL, NULL);
    if (!strcmp(group, "buffer"))
        return cmocka_run_group_tests_name("buffer", buffer, NULL, NULL);
    if (!strcmp(group, "device"))
        return cmocka_run_group_tests_name("device", device, NULL, NULL);
    fprintf(stderr, "usage: %s kernel|buffer|device\n", argv[0]);
    return 2;
}
