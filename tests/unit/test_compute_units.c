/*
 * Compute units a firmware can steer (issue 20.3): a kernel object on some
 * of its units (XRT's "vadd:{vadd_1,vadd_2}"), the unit that ran a command
 * in its event, and parallel_for over the units (axl_queue_parallel_for:
 * SYCL 2020 3.7.2.1 and 3.9.3's parallel_for(range, kernel), cut into one
 * chunk per unit, each chunk's part of a buffer a sub-buffer whose origin
 * meets mem_base_addr_align, 4.7.2.1 Table 38). On the emulated device's
 * stock design: vadd has two units, vadd_1 and vadd_2.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axl_test.h"
#include "axl_config.h"
#include "axl/graph.h"
#include "axl/emu.h"
#ifdef AXL_TEST_VADD_2BANKS
#include "axl_test_vadd_2banks_xclbin.h"
#endif

typedef axl_test_rig rig;

/* ---- A recording vadd: what each run was given ---------------------------------- */

enum { MAX_CALLS = 64 };
typedef struct call {
    uint32_t cu;
    uint64_t scalar; /* argument 3 (size), as given */
    uint64_t bytes;  /* in1's bytes reachable: its sub-buffer's size */
    uintptr_t in1;   /* in1's address */
} call;
static pthread_mutex_t calls_lock = PTHREAD_MUTEX_INITIALIZER;
static call calls[MAX_CALLS];
static int ncalls;
static atomic_int running, most_running, want_overlap;

/* vadd as the stock model computes it (out = in1 + in2 over size int32s,
 * wrapping), recording the run. */
static axl_status recording_vadd(const axl_emu_call *c, void *user)
{
    (void)user;
    int now = atomic_fetch_add(&running, 1) + 1;
    int m = atomic_load(&most_running);
    while (now > m && !atomic_compare_exchange_weak(&most_running, &m, now))
        ;
    uint32_t n = 0;
    memcpy(&n, c->args[3].value, c->args[3].size < 4 ? c->args[3].size : 4);
    pthread_mutex_lock(&calls_lock);
    if (ncalls < MAX_CALLS)
        calls[ncalls++] = (call){c->cu, n, c->args[0].size,
                                 (uintptr_t)c->args[0].ptr};
    pthread_mutex_unlock(&calls_lock);
    const int32_t *a = c->args[0].ptr, *b = c->args[1].ptr;
    int32_t *o = c->args[2].ptr;
    for (uint32_t i = 0; i < n && (uint64_t)(i + 1) * 4 <= c->args[2].size;
         i++)
        o[i] = (int32_t)((uint32_t)a[i] + (uint32_t)b[i]);
    /* Where the test looks for runs at once: stay until another unit is
     * busy too (or 2 s have passed), so a loaded machine cannot hide it. */
    for (int i = 0; atomic_load(&want_overlap) && i < 2000 &&
                    atomic_load(&running) < 2;
         i++) {
        struct timespec t = {0, 1000000};
        nanosleep(&t, NULL);
    }
    atomic_fetch_sub(&running, 1);
    return AXL_SUCCESS;
}

static void record_on(void)
{
    AXL_TEST_NEEDS_C_MODELS("it records each run with a C model of vadd");
    ncalls = 0;
    atomic_store(&running, 0);
    atomic_store(&most_running, 0);
    atomic_store(&want_overlap, 0);
    AXL_OK(axl_emu_register_model("vadd", recording_vadd, NULL));
}

static void record_off(void)
{
    AXL_OK(axl_emu_register_model("vadd", NULL, NULL));
}

static int cmp_scalar(const void *x, const void *y)
{
    const call *a = x, *b = y;
    return a->scalar < b->scalar ? -1 : a->scalar > b->scalar;
}

/* ---- Kernels on some of their units ----------------------------------------------- */

typedef struct cg {
    axl_kernel k;
    axl_buffer a, o;
} cg;

static void st_cgf(axl_handler *h, void *user)
{
    cg *g = user;
    axl_accessor a, o;
    uint32_t n = 4;
    axl_handler_require(h, g->a, AXL_ACCESS_READ, NULL, 0, &a);
    axl_handler_require(h, g->o, AXL_ACCESS_WRITE, NULL, 0, &o);
    axl_handler_set_arg_accessor(h, 0, a);
    axl_handler_set_arg_accessor(h, 1, a);
    axl_handler_set_arg_accessor(h, 2, o);
    axl_handler_set_arg(h, 3, &n, sizeof n);
    axl_handler_single_task(h, g->k);
}

#if AXL_FEATURE_GRAPHS
static axl_status nothing_task(void *user)
{
    (void)user;
    return AXL_SUCCESS;
}

static void nothing_cgf(axl_handler *h, void *user)
{
    axl_handler_host_task(h, nothing_task, user);
}
#endif

/* XRT's xrt::kernel(dev, uuid, "vadd:{vadd_2}"): every launch of the
 * object runs on vadd_2, by either launch path, however many are out at
 * once (vadd_1 stays idle), and the event says so. */
static void a_kernel_on_named_units_runs_only_there(void **s)
{
    (void)s;
    rig r = axl_test_rig_up(0);
    axl_kernel only2;
    AXL_OK(axl_kernel_bundle_get_kernel_by_name(r.bundle, "vadd:{vadd_2}",
                                                &only2));
    axl_kernel_info info;
    AXL_OK(axl_kernel_get_info(only2, &info));
    assert_int_equal(info.cu_mask, 0x2);
    assert_int_equal(info.compute_units, 2);
    AXL_OK(axl_kernel_get_info(r.vadd, &info));
    assert_int_equal(info.cu_mask, 0x3);
    record_on();
    axl_buffer A, O[6];
    AXL_OK(axl_buffer_create(4, axl_range_1d(4), NULL, &A));
    AXL_OK(axl_queue_fill(r.q, A, NULL, &(int32_t){5}, 4, NULL, 0, NULL));
    axl_event ev[6];
    for (int i = 0; i < 6; i++) {
        AXL_OK(axl_buffer_create(4, axl_range_1d(4), NULL, &O[i]));
        if (i % 2) {
            cg g = {only2, A, O[i]};
            AXL_OK(axl_queue_submit(r.q, st_cgf, &g, &ev[i]));
        } else {
            AXL_OK(axl_queue_single_task(
                r.q, only2,
                AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A), AXL_ARG_OUT(O[i]),
                         AXL_ARG_U32(4)),
                NULL, 0, &ev[i]));
        }
    }
    AXL_OK(axl_queue_wait_and_throw(r.q));
    for (int i = 0; i < 6; i++) {
        uint32_t cu = 9;
        AXL_OK(axl_event_get_compute_unit(ev[i], &cu));
        assert_int_equal(cu, 1);
        AXL_OK(axl_event_release(ev[i]));
        int32_t got[4];
        AXL_OK(axl_queue_copy_to_host(r.q, O[i], NULL, got, NULL, 0, NULL));
        AXL_OK(axl_queue_wait(r.q));
        assert_int_equal(got[3], 10);
        AXL_OK(axl_buffer_release(O[i]));
    }
    assert_int_equal(ncalls, 6);
    for (int i = 0; i < ncalls; i++)
        assert_int_equal(calls[i].cu, 1);
    assert_int_equal(atomic_load(&most_running), 1); /* one unit: in turn */
    record_off();
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_kernel_release(only2));
    axl_test_rig_down(&r);
}

/* The unit list in the three spellings, and what is not a list of the
 * kernel's units: a clear AXL_ERR_INVALID naming the units there are, and
 * no kernel object made (the teardown finds the kernel pool empty). */
static void a_unit_name_the_kernel_lacks_is_invalid_and_names_its_units(void **s)
{
    (void)s;
    rig r = axl_test_rig_up(0);
    const uint16_t kernels = axl_test_pool("kernel").in_use;
    axl_kernel k = {77};
    AXL_EXPECT(axl_kernel_select_units(r.vadd, "vadd:{vadd_9}", &k),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("kernel vadd has no compute unit vadd_9 (its units: "
                    "vadd_1, vadd_2)");
    assert_int_equal(k.id, 77);
    AXL_EXPECT(axl_kernel_select_units(r.vadd, "mmult:{vadd_1}", &k),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("names kernel mmult; this kernel is vadd");
    AXL_EXPECT(axl_kernel_select_units(r.vadd, "{vadd_1,}", &k),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("a unit name is missing");
    AXL_EXPECT(axl_kernel_select_units(r.vadd, "{vadd_1", &k),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("no closing '}'");
    AXL_EXPECT(axl_kernel_select_units(r.vadd, NULL, &k), AXL_ERR_INVALID);
    AXL_EXPECT(axl_kernel_bundle_get_kernel_by_name(r.bundle, "vector_add",
                                                    &k),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("the bundle has no kernel vector_add (its kernels:");
    assert_int_equal(k.id, 77);
    assert_int_equal(axl_test_pool("kernel").in_use, kernels);

    /* The spellings, and a restriction of a restriction. */
    const char *same[] = {"vadd:{vadd_1}", "{ vadd_1 }", "vadd_1"};
    for (int i = 0; i < 3; i++) {
        axl_kernel_info info;
        AXL_OK(axl_kernel_select_units(r.vadd, same[i], &k));
        AXL_OK(axl_kernel_get_info(k, &info));
        assert_int_equal(info.cu_mask, 0x1);
        axl_kernel k2 = {77};
        AXL_EXPECT(axl_kernel_select_units(k, "vadd_2", &k2),
                   AXL_ERR_INVALID);
        AXL_MESSAGE_HAS("no compute unit vadd_2 among the units of this "
                        "kernel object (its units: vadd_1)");
        assert_int_equal(k2.id, 77);
        AXL_OK(axl_kernel_release(k));
    }
    AXL_OK(axl_kernel_select_units(r.vadd, "vadd:{vadd_2,vadd_1}", &k));
    axl_kernel_info info;
    AXL_OK(axl_kernel_get_info(k, &info));
    assert_int_equal(info.cu_mask, 0x3);
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

/* A restricted kernel's buffers must be in a bank one of *its* units
 * reaches, checked at submit (AXL_ERR_KERNEL_ARGUMENT, nothing runs), as
 * for an unrestricted kernel and all its units; the unrestricted object
 * runs the same launch on the unit that reaches the bank. The design
 * (vadd_2banks.cfg) gives vadd_1 bank 0 and vadd_2 bank 1. */
static void a_restricted_kernel_needs_its_buffers_where_its_units_reach(void **s)
{
    (void)s;
#ifdef AXL_TEST_VADD_2BANKS
    AXL_OK(axl_image_register(axl_test_vadd_2banks_xclbin,
                              axl_test_vadd_2banks_xclbin_size));
    axl_device dev = axl_test_emu_device();
    axl_context ctx;
    axl_queue q;
    AXL_OK(axl_context_create(&dev, 1, NULL, &ctx));
    AXL_OK(axl_queue_create(ctx, dev, AXL_QUEUE_IN_ORDER, NULL, &q));
    axl_kernel_id id;
    AXL_OK(axl_get_kernel_id("vadd", &id));
    axl_kernel_bundle b;
    AXL_OK(axl_get_kernel_bundle_for(ctx, NULL, 0, &id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &b));
    axl_kernel all, only1;
    AXL_OK(axl_kernel_bundle_get_kernel_by_name(b, "vadd", &all));
    AXL_OK(axl_kernel_bundle_get_kernel_by_name(b, "vadd:{vadd_1}", &only1));
    int32_t a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, o[8] = {0};
    axl_buffer A, O;
    AXL_OK(axl_buffer_create_from(a, 4, axl_range_1d(8), NULL, &A));
    AXL_OK(axl_buffer_create_from(o, 4, axl_range_1d(8), NULL, &O));
    AXL_OK(axl_buffer_place(A, dev, 1));
    AXL_OK(axl_buffer_place(O, dev, 1));
    axl_event e = {55};
    AXL_EXPECT(axl_queue_single_task(
                   q, only1,
                   AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A), AXL_ARG_OUT(O),
                            AXL_ARG_U32(8)),
                   NULL, 0, &e),
               AXL_ERR_KERNEL_ARGUMENT);
    AXL_MESSAGE_HAS("in bank1, which no unit of the kernel object reaches "
                    "(vadd_1: bank0)");
    assert_int_equal(e.id, 55);
    AXL_OK(axl_queue_single_task(
        q, all,
        AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A), AXL_ARG_OUT(O), AXL_ARG_U32(8)),
        NULL, 0, &e));
    AXL_OK(axl_event_wait_and_throw(e));
    uint32_t cu = 9;
    AXL_OK(axl_event_get_compute_unit(e, &cu));
    assert_int_equal(cu, 1);
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(O));
    assert_int_equal(o[7], 16);
    AXL_OK(axl_kernel_release(all));
    AXL_OK(axl_kernel_release(only1));
    AXL_OK(axl_kernel_bundle_release(b));
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_context_release(ctx));
#else
    skip();
#endif
}

static axl_status nothing(void *user)
{
    (void)user;
    return AXL_SUCCESS;
}

/* The unit that ran a command is in its event; a command no unit ran
 * (a host task) has none. */
static void the_event_names_the_unit_that_ran_its_command(void **s)
{
    (void)s;
    rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    record_on();
    axl_buffer A;
    AXL_OK(axl_buffer_create(4, axl_range_1d(4), NULL, &A));
    axl_event ev[4];
    for (int i = 0; i < 4; i++)
        AXL_OK(axl_queue_single_task(
            r.q, r.vadd,
            AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A), AXL_ARG_INOUT(A),
                     AXL_ARG_U32(4)),
            NULL, 0, &ev[i]));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    assert_int_equal(ncalls, 4);
    for (int i = 0; i < 4; i++) {
        uint32_t cu = 9;
        AXL_OK(axl_event_get_compute_unit(ev[i], &cu));
        assert_int_equal(cu, calls[i].cu); /* in order: run i is call i */
        AXL_OK(axl_event_release(ev[i]));
    }
    record_off();
    axl_event h;
    AXL_OK(axl_queue_host_task(r.q, nothing, NULL, NULL, 0, &h));
    AXL_OK(axl_event_wait(h));
    uint32_t cu = 9;
    AXL_EXPECT(axl_event_get_compute_unit(h, &cu), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("ran on no compute unit");
    assert_int_equal(cu, 9);
    AXL_EXPECT(axl_event_get_compute_unit(h, NULL), AXL_ERR_INVALID);
    AXL_OK(axl_event_release(h));
    AXL_OK(axl_buffer_release(A));
    axl_test_rig_down(&r);
}

/* ---- parallel_for over compute units ---------------------------------------------- */

enum { N = 1024 };
static int32_t va[N], vb[N], vo[N];

static void vectors(void)
{
    for (int i = 0; i < N; i++) {
        va[i] = i;
        vb[i] = 1000 * i;
        vo[i] = -1;
    }
}

/* 3.9.3's parallel_for(range, kernel) over the units: one chunk per unit
 * of vadd (two), each run with its count and its part of each buffer
 * (a sub-buffer), on distinct units at once; one event for all. */
static void parallel_for_runs_one_chunk_per_compute_unit_3_9_3(void **s)
{
    (void)s;
    rig r = axl_test_rig_up(0);
    vectors();
    record_on();
    atomic_store(&want_overlap, 1);
    axl_buffer A, B, O;
    AXL_OK(axl_buffer_create_from_const(va, 4, axl_range_1d(N), NULL, &A));
    AXL_OK(axl_buffer_create_from_const(vb, 4, axl_range_1d(N), NULL, &B));
    AXL_OK(axl_buffer_create_from(vo, 4, axl_range_1d(N), NULL, &O));
    axl_event done, chunk[2];
    uint32_t nchunks = 0;
    AXL_OK(axl_queue_parallel_for(
        r.q, r.vadd, N,
        AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(B), AXL_ARG_OUT(O), AXL_ARG_U32(0)),
        &(axl_split){.count_arg = "size", .chunk_events = chunk,
                     .chunk_count = &nchunks},
        NULL, 0, &done));
    assert_int_equal(nchunks, 2);
    AXL_OK(axl_event_wait_and_throw(done));
    uint32_t cu0 = 9, cu1 = 9;
    AXL_OK(axl_event_get_compute_unit(chunk[0], &cu0));
    AXL_OK(axl_event_get_compute_unit(chunk[1], &cu1));
    assert_int_not_equal(cu0, cu1);
    assert_int_equal(ncalls, 2);
    assert_int_equal(atomic_load(&most_running), 2);
    uintptr_t lo = calls[0].in1 < calls[1].in1 ? calls[0].in1 : calls[1].in1;
    uintptr_t hi = calls[0].in1 < calls[1].in1 ? calls[1].in1 : calls[0].in1;
    assert_int_equal(hi - lo, N / 2 * 4);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(calls[i].scalar, N / 2);
        /* its part: reachable from its first element (on a port that
         * passes only an address, to the end of the buffer) */
        assert_true(calls[i].bytes >= N / 2 * 4);
        AXL_OK(axl_event_release(chunk[i]));
    }
    AXL_OK(axl_event_release(done));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(O)); /* writes vo back */
    for (int i = 0; i < N; i++)
        assert_int_equal(vo[i], va[i] + vb[i]);
    record_off();
    axl_test_rig_down(&r);
}

/* A range the units do not divide: chunks start on granules where each
 * sub-buffer's origin is a multiple of the device's mem_base_addr_align
 * (4.7.2.1, Table 38), dealt out evenly, the last cut at the range's end;
 * each chunk is told its first item through the offset argument. */
static void parallel_for_chunks_start_on_mem_base_addr_align_4_7_2_1(void **s)
{
    (void)s;
    rig r = axl_test_rig_up(0);
    uint32_t align_bits = 0;
    AXL_OK(axl_device_get_info(r.dev, AXL_DEVICE_INFO_MEM_BASE_ADDR_ALIGN,
                               &align_bits, sizeof align_bits, NULL));
    const uint32_t granule = align_bits / 8 / 4; /* int32 items */
    assert_true(granule > 1 && granule < 1000 / 4);
    const size_t range = 1000;
    axl_buffer A, O;
    AXL_OK(axl_buffer_create(4, axl_range_1d(range), NULL, &A));
    AXL_OK(axl_buffer_create(4, axl_range_1d(range), NULL, &O));
    /* size as the offset: the recording model keeps what it is given */
    record_on();
    const uint32_t chunks = 3;
    uint32_t made = 0;
    AXL_OK(axl_queue_parallel_for(
        r.q, r.vadd, range,
        AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A), AXL_ARG_OUT(O), AXL_ARG_U32(7)),
        &(axl_split){.offset_arg = "size", .chunks = chunks,
                     .chunk_count = &made},
        NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    assert_int_equal(made, chunks);
    assert_int_equal(ncalls, chunks);
    qsort(calls, (size_t)ncalls, sizeof calls[0], cmp_scalar);
    /* ceil(1000 / granule) granules over three chunks, the first ones
     * taking one more; every start a multiple of the granule. */
    const size_t blocks = (range + granule - 1) / granule;
    size_t at = 0;
    for (uint32_t j = 0; j < chunks; j++) {
        size_t nb = blocks / chunks + (j < blocks % chunks);
        size_t count = nb * granule;
        if (at + count > range)
            count = range - at;
        assert_int_equal(calls[j].scalar, at);
        assert_int_equal(calls[j].scalar % granule, 0);
        assert_true(calls[j].bytes >= count * 4);
        /* the part's address from the buffer's start (chunk 0's) */
        assert_int_equal(calls[j].in1 - calls[0].in1, at * 4);
        assert_int_equal((calls[j].in1 - calls[0].in1) % (align_bits / 8), 0);
        at += count;
    }
    assert_int_equal(at, range);
    record_off();
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(O));
    axl_test_rig_down(&r);
}

/* A range smaller than the units gives fewer chunks (one work-item each
 * at most, never an empty chunk), and a range of 0 runs nothing: its
 * event completes at once (no work-items, 3.7.2.1). */
static void parallel_for_a_range_smaller_than_the_units_makes_fewer_chunks(void **s)
{
    (void)s;
    rig r = axl_test_rig_up(0);
    record_on();
    /* One item of 128 int32s (512 bytes, a whole granule each). */
    axl_buffer A, O;
    AXL_OK(axl_buffer_create(4, axl_range_1d(128), NULL, &A));
    AXL_OK(axl_buffer_create(4, axl_range_1d(128), NULL, &O));
    uint32_t made = 9;
    axl_event e;
    AXL_OK(axl_queue_parallel_for(
        r.q, r.vadd, 1,
        AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A), AXL_ARG_OUT(O), AXL_ARG_U32(0)),
        &(axl_split){.count_arg = "size", .chunk_count = &made}, NULL, 0,
        &e));
    AXL_OK(axl_event_wait_and_throw(e));
    AXL_OK(axl_event_release(e));
    assert_int_equal(made, 1);
    assert_int_equal(ncalls, 1);
    assert_int_equal(calls[0].scalar, 1);
    assert_true(calls[0].bytes >= 512);
    /* Range 0. */
    AXL_OK(axl_queue_parallel_for(
        r.q, r.vadd, 0,
        AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A), AXL_ARG_OUT(O), AXL_ARG_U32(0)),
        &(axl_split){.count_arg = "size", .chunk_count = &made}, NULL, 0,
        &e));
    assert_int_equal(made, 0);
    AXL_OK(axl_event_wait_and_throw(e));
    AXL_OK(axl_event_release(e));
    assert_int_equal(ncalls, 1);
    /* ... and its arguments are still checked as a launch's. */
    axl_buffer gone = {0};
    AXL_EXPECT(axl_queue_parallel_for(
                   r.q, r.vadd, 0,
                   AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(gone), AXL_ARG_OUT(O),
                            AXL_ARG_U32(0)),
                   &(axl_split){.count_arg = "size"}, NULL, 0, NULL),
               AXL_ERR_INVALID_OBJECT);
    /* ... and so are its dependencies, with or without an event: a graph
     * node's handle, an edge only inside a recording, is refused (found
     * by fuzz_api: a range of 0 and no event accepted it). */
#if AXL_FEATURE_GRAPHS
    axl_graph g;
    axl_graph_node node;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    AXL_OK(axl_graph_add(g, nothing_cgf, NULL, NULL, 0, &node));
    const axl_event recorded = {node.id};
    for (int with_event = 0; with_event < 2; with_event++) {
        AXL_EXPECT(axl_queue_parallel_for(
                       r.q, r.vadd, 0,
                       AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A), AXL_ARG_OUT(O),
                                AXL_ARG_U32(0)),
                       &(axl_split){.count_arg = "size"}, &recorded, 1,
                       with_event ? &e : NULL),
                   AXL_ERR_INVALID);
        AXL_MESSAGE_HAS("does not record a graph");
    }
    AXL_OK(axl_graph_release(g));
#endif
    record_off();
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(O));
    axl_test_rig_down(&r);
}

/* A buffer marked whole is given to every chunk as it is: each chunk
 * reads it from its start (out[i] = a[i] + b[i - chunk's first]). */
static void parallel_for_a_whole_buffer_is_read_whole_by_every_chunk(void **s)
{
    (void)s;
    rig r = axl_test_rig_up(0);
    vectors();
    axl_buffer A, B, O;
    AXL_OK(axl_buffer_create_from_const(va, 4, axl_range_1d(N), NULL, &A));
    AXL_OK(axl_buffer_create_from_const(vb, 4, axl_range_1d(N / 2), NULL,
                                        &B));
    AXL_OK(axl_buffer_create_from(vo, 4, axl_range_1d(N), NULL, &O));
    AXL_OK(axl_queue_parallel_for(
        r.q, r.vadd, N,
        AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(B), AXL_ARG_OUT(O), AXL_ARG_U32(0)),
        &(axl_split){.count_arg = "size", .whole = 1u << 1}, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(O));
    for (int i = 0; i < N; i++)
        assert_int_equal(vo[i], va[i] + vb[i % (N / 2)]);
    axl_test_rig_down(&r);
}

/* On a kernel object restricted to one unit: one chunk, on that unit. */
static void parallel_for_on_a_restricted_kernel_uses_only_its_units(void **s)
{
    (void)s;
    rig r = axl_test_rig_up(0);
    vectors();
    axl_kernel only1;
    AXL_OK(axl_kernel_select_units(r.vadd, "vadd_1", &only1));
    axl_buffer A, O;
    AXL_OK(axl_buffer_create_from_const(va, 4, axl_range_1d(N), NULL, &A));
    AXL_OK(axl_buffer_create_from(vo, 4, axl_range_1d(N), NULL, &O));
    axl_event chunk[1];
    uint32_t made = 0;
    AXL_OK(axl_queue_parallel_for(
        r.q, only1, N,
        AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A), AXL_ARG_OUT(O), AXL_ARG_U32(0)),
        &(axl_split){.count_arg = "size", .chunk_events = chunk,
                     .chunk_count = &made},
        NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    assert_int_equal(made, 1);
    uint32_t cu = 9;
    AXL_OK(axl_event_get_compute_unit(chunk[0], &cu));
    assert_int_equal(cu, 0);
    AXL_OK(axl_event_release(chunk[0]));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(O));
    for (int i = 0; i < N; i++)
        assert_int_equal(vo[i], 2 * va[i]);
    AXL_OK(axl_kernel_release(only1));
    axl_test_rig_down(&r);
}

/* What the rule cannot split, or names wrong, is AXL_ERR_INVALID with
 * nothing submitted and nothing left made. */
static void parallel_for_bad_splits_are_invalid_and_submit_nothing(void **s)
{
    (void)s;
    rig r = axl_test_rig_up(0);
    record_on();
    axl_buffer A, O, odd, sub;
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &A));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &O));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N + 1), NULL, &odd));
    AXL_OK(axl_buffer_create_sub(A, (size_t[3]){0, 0, 0},
                                 axl_range_1d(N / 2), &sub));
    const uint16_t buffers = axl_test_pool("buffer").in_use;
    const uint16_t commands = axl_test_pool("command").high_water;
    axl_event e = {55};
    uint32_t made = 9;
    AXL_EXPECT(axl_queue_parallel_for(
                   r.q, r.vadd, N,
                   AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A), AXL_ARG_OUT(O),
                            AXL_ARG_U32(0)),
                   &(axl_split){.count_arg = "length",
                                .chunk_count = &made},
                   NULL, 0, &e),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("the count argument \"length\" is not an argument of "
                    "kernel vadd");
    AXL_EXPECT(axl_queue_parallel_for(
                   r.q, r.vadd, N,
                   AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A), AXL_ARG_OUT(O)),
                   &(axl_split){.count_arg = "size"}, NULL, 0, &e),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("no entry for the count argument \"size\"");
    AXL_EXPECT(axl_queue_parallel_for(
                   r.q, r.vadd, N,
                   AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(odd), AXL_ARG_OUT(O),
                            AXL_ARG_U32(0)),
                   &(axl_split){.count_arg = "size"}, NULL, 0, &e),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("must be a multiple of the range (1024)");
    AXL_EXPECT(axl_queue_parallel_for(
                   r.q, r.vadd, N / 2,
                   AXL_ARGS(AXL_ARG_IN(sub), AXL_ARG_IN(sub), AXL_ARG_OUT(O),
                            AXL_ARG_U32(0)),
                   &(axl_split){.count_arg = "size"}, NULL, 0, &e),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("a split buffer must be a base buffer");
    AXL_EXPECT(axl_queue_parallel_for(r.q, r.vadd, N, NULL, 0, NULL, NULL, 0,
                                      &e),
               AXL_ERR_INVALID);
    /* The launch's own checks (a scalar where a buffer goes) on the
     * first chunk: nothing submitted either. */
    AXL_EXPECT(axl_queue_parallel_for(
                   r.q, r.vadd, N,
                   AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_U32(1), AXL_ARG_OUT(O),
                            AXL_ARG_U32(0)),
                   &(axl_split){.count_arg = "size"}, NULL, 0, &e),
               AXL_ERR_KERNEL_ARGUMENT);
    assert_int_equal(e.id, 55);
    assert_int_equal(made, 0);
    AXL_OK(axl_queue_wait(r.q));
    assert_int_equal(ncalls, 0);
    assert_int_equal(axl_test_pool("buffer").in_use, buffers);
    assert_int_equal(axl_test_pool("command").high_water, commands);
    record_off();
    AXL_OK(axl_buffer_release(sub));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(O));
    AXL_OK(axl_buffer_release(odd));
    axl_test_rig_down(&r);
}

/* Pools too small for every chunk: AXL_ERR_OUT_OF_RESOURCES, and no
 * chunk submitted (all or none), whether the sub-buffers or the events
 * run out; the same call then goes through once there is room. */
static void parallel_for_into_too_small_pools_submits_no_chunk(void **s)
{
    (void)s;
    rig r = axl_test_rig_up(0);
    vectors();
    record_on();
    axl_buffer A, O;
    AXL_OK(axl_buffer_create_from_const(va, 4, axl_range_1d(N), NULL, &A));
    AXL_OK(axl_buffer_create_from(vo, 4, axl_range_1d(N), NULL, &O));
    static axl_buffer hold[4096];
    static axl_event held[4096];

    /* Room for 2 of the 4 sub-buffers (two split buffers, two chunks). */
    axl_pool_stats bp = axl_test_pool("buffer");
    uint32_t nb = 0;
    while (axl_test_pool("buffer").in_use + 2u < bp.capacity)
        AXL_OK(axl_buffer_create(4, axl_range_1d(1), NULL, &hold[nb++]));
    const uint16_t commands = axl_test_pool("command").high_water;
    axl_event e = {55};
    AXL_EXPECT(axl_queue_parallel_for(
                   r.q, r.vadd, N,
                   AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A), AXL_ARG_OUT(O),
                            AXL_ARG_U32(0)),
                   &(axl_split){.count_arg = "size"}, NULL, 0, &e),
               AXL_ERR_OUT_OF_RESOURCES);
    AXL_MESSAGE_HAS("buffer pool is full");
    assert_int_equal(axl_test_pool("buffer").in_use + 2u, bp.capacity);
    for (uint32_t i = 0; i < nb; i++)
        AXL_OK(axl_buffer_release(hold[i]));

    /* Room for the two chunks' events and the prefetches of A and O (not
     * on the device yet), but not the one event. */
    axl_pool_stats ep = axl_test_pool("event");
    uint32_t ne = 0;
    while (axl_test_pool("event").in_use + 4u < ep.capacity)
        AXL_OK(axl_event_create_complete(&held[ne++]));
    AXL_EXPECT(axl_queue_parallel_for(
                   r.q, r.vadd, N,
                   AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A), AXL_ARG_OUT(O),
                            AXL_ARG_U32(0)),
                   &(axl_split){.count_arg = "size"}, NULL, 0, &e),
               AXL_ERR_OUT_OF_RESOURCES);
    AXL_MESSAGE_HAS("parallel_for needs 5 commands and events at once");
    AXL_MESSAGE_HAS("nothing was submitted");
    assert_int_equal(e.id, 55);
    AXL_OK(axl_queue_wait(r.q));
    assert_int_equal(ncalls, 0);
    assert_int_equal(axl_test_pool("command").high_water, commands);
    /* Without the one event it fits. */
    AXL_OK(axl_queue_parallel_for(
        r.q, r.vadd, N,
        AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A), AXL_ARG_OUT(O), AXL_ARG_U32(0)),
        &(axl_split){.count_arg = "size"}, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    assert_int_equal(ncalls, 2);
    for (uint32_t i = 0; i < ne; i++)
        AXL_OK(axl_event_release(held[i]));
    record_off();
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(O));
    for (int i = 0; i < N; i++)
        assert_int_equal(vo[i], 2 * va[i]);
    axl_test_rig_down(&r);
}

#define T(f) cmocka_unit_test_setup_teardown(f, axl_test_setup, axl_test_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(a_kernel_on_named_units_runs_only_there),
        T(a_unit_name_the_kernel_lacks_is_invalid_and_names_its_units),
        T(a_restricted_kernel_needs_its_buffers_where_its_units_reach),
        T(the_event_names_the_unit_that_ran_its_command),
        T(parallel_for_runs_one_chunk_per_compute_unit_3_9_3),
        T(parallel_for_chunks_start_on_mem_base_addr_align_4_7_2_1),
        T(parallel_for_a_range_smaller_than_the_units_makes_fewer_chunks),
        T(parallel_for_a_whole_buffer_is_read_whole_by_every_chunk),
        T(parallel_for_on_a_restricted_kernel_uses_only_its_units),
        T(parallel_for_bad_splits_are_invalid_and_submit_nothing),
        T(parallel_for_into_too_small_pools_submits_no_chunk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
