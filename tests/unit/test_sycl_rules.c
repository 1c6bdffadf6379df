/*
 * SYCL 2020 rules axl broke (issue 16), one test per rule, named after its
 * section (SYCL 2020 revision 3 numbering): write-only accessors keep what
 * they do not overwrite, const host pointers are read-only on the host
 * only, asynchronous errors are never lost, waits that cannot end say so,
 * and the smaller rules of 4.6-4.9.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axl_config.h"
#include "axl_test.h"

static axl_kernel_id builtin(const char *name)
{
    axl_kernel_id id;
    AXL_OK(axl_get_built_in_kernel_id(axl_test_emu_device(), name, &id));
    return id;
}

typedef axl_test_rig rig;

static void sleep_ms(int ms)
{
    struct timespec t = {0, (long)ms * 1000000L};
    nanosleep(&t, NULL);
}

/* ---- 16.1: write-only keeps, only no_init discards (3.8.1, 4.7.6.4) ---------- */

/* vadd of n = 4 into an output of 8 elements with `mode`. */
static void vadd_four_into_eight(axl_access_mode mode, int32_t out[8])
{
    rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    int32_t a[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    int32_t b[8] = {0, 10, 20, 30, 40, 50, 60, 70};
    for (int i = 0; i < 8; i++)
        out[i] = 1000 + i;
    axl_buffer A, B, S;
    AXL_OK(axl_buffer_create_from(a, 4, axl_range_1d(8), NULL, &A));
    AXL_OK(axl_buffer_create_from(b, 4, axl_range_1d(8), NULL, &B));
    AXL_OK(axl_buffer_create_from(out, 4, axl_range_1d(8), NULL, &S));
    uint32_t n = 4;
    axl_kernel_arg args[4] = {{.index = 0, .buffer = A, .mode = AXL_ACCESS_READ},
                              {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
                              {.index = 2, .buffer = S, .mode = mode},
                              {.index = 3, .value = &n, .size = sizeof n}};
    /* Twice: the second launch takes the launch cache's path. */
    AXL_OK(axl_queue_single_task(r.q, r.vadd, args, 4, NULL, 0, NULL));
    AXL_OK(axl_queue_single_task(r.q, r.vadd, args, 4, NULL, 0, NULL));
    AXL_OK(axl_buffer_release(S));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    axl_test_rig_down(&r);
}

static void write_accessor_keeps_unwritten_elements_4_7_6_4(void **s)
{
    (void)s;
    int32_t out[8];
    vadd_four_into_eight(AXL_ACCESS_WRITE, out);
    const int32_t want[8] = {0, 11, 22, 33, 1004, 1005, 1006, 1007};
    assert_memory_equal(out, want, sizeof want);
}

static void write_no_init_kernel_argument_is_discard_write_4_7_6_9_4_2(void **s)
{
    (void)s;
    int32_t out[8];
    /* discard_write = write + no_init: the elements vadd writes are right;
     * the others are unspecified. */
    vadd_four_into_eight(AXL_ACCESS_WRITE_NO_INIT, out);
    assert_int_equal(out[1], 11);
    assert_int_equal(out[3], 33);
}

typedef struct req {
    axl_buffer b;
    axl_access_mode mode;
    uint32_t flags;
    const axl_region *region;
} req;

static void require_only_cgf(axl_handler *h, void *user)
{
    req *r = user;
    axl_accessor a;
    axl_handler_require(h, r->b, r->mode, r->region, r->flags, &a);
    int v = 0;
    axl_handler_fill(h, a, &v, sizeof v);
}

static void no_init_with_read_accessor_is_invalid_4_7_6_4(void **s)
{
    (void)s;
    axl_buffer b;
    AXL_OK(axl_buffer_create(4, axl_range_1d(8), NULL, &b));
    axl_host_accessor ha;
    void *p;
    AXL_EXPECT(axl_host_accessor_create(b, AXL_ACCESS_READ, NULL,
                                        AXL_ACCESS_NO_INIT, &ha, &p),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("no_init");
    axl_queue q;
    AXL_OK(axl_queue_create(AXL_NO_CONTEXT, axl_test_emu_device(), 0, NULL,
                            &q));
    req r = {b, AXL_ACCESS_READ, AXL_ACCESS_NO_INIT, NULL};
    AXL_EXPECT(axl_queue_submit(q, require_only_cgf, &r, NULL),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("no_init");
    assert_int_equal(axl_test_pool("command").in_use, 0);
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_buffer_release(b));
}

/* ---- 16.2: const host pointer: read-only on the host only (4.7.2.3 rule 2.2) -- */

static void const_host_pointer_is_read_only_on_host_only_4_7_2_3_rule_2_2(void **s)
{
    (void)s;
    static const int data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    axl_queue q;
    AXL_OK(axl_queue_create(AXL_NO_CONTEXT, axl_test_emu_device(), 0, NULL,
                            &q));
    axl_buffer b;
    AXL_OK(axl_buffer_create_from_const(data, sizeof(int), axl_range_1d(8),
                                        NULL, &b));
    /* The host may not write (Table 38: read-only on the host). */
    axl_host_accessor ha;
    void *p;
    AXL_EXPECT(axl_host_accessor_create(b, AXL_ACCESS_WRITE, NULL, 0, &ha,
                                        &p),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("rule 2.2");
    /* A device write is allowed, and is not written back to data. */
    int nine = 9;
    AXL_OK(axl_queue_fill(q, b, NULL, &nine, sizeof nine, NULL, 0, NULL));
    int got[8];
    AXL_OK(axl_queue_copy_to_host(q, b, NULL, got, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(q));
    assert_int_equal(got[0], 9);
    assert_int_equal(got[7], 9);
    AXL_OK(axl_buffer_release(b));
    assert_int_equal(data[0], 1);
    assert_int_equal(data[7], 8);

    /* set_final_data names a destination: the device's writes go there. */
    int out[8] = {0};
    AXL_OK(axl_buffer_create_from_const(data, sizeof(int), axl_range_1d(8),
                                        NULL, &b));
    AXL_OK(axl_buffer_set_final_data(b, out));
    AXL_OK(axl_queue_fill(q, b, NULL, &nine, sizeof nine, NULL, 0, NULL));
    AXL_OK(axl_buffer_release(b));
    assert_int_equal(out[0], 9);
    assert_int_equal(out[7], 9);
    assert_int_equal(data[0], 1);
    AXL_OK(axl_queue_release(q));
}

/* ---- 16.6: asynchronous errors are never lost (4.13.1) ------------------------- */

static axl_status fail_task(void *user)
{
    return axl_fail(AXL_ERR_RUNTIME, "sensor %d did not answer",
                    *(const int *)user);
}

typedef struct seen {
    int calls;
    uint32_t count, dropped;
    axl_queue queue[8];
    char message[8][AXL_MESSAGE_MAX];
} seen;

static void handler(const axl_async_error *errors, uint32_t count,
                    uint32_t dropped, void *user)
{
    seen *s = user;
    s->calls++;
    for (uint32_t i = 0; i < count; i++, s->count++)
        if (s->count < 8) {
            s->queue[s->count] = errors[i].queue;
            strncpy(s->message[s->count], errors[i].message,
                    AXL_MESSAGE_MAX - 1);
        }
    s->dropped += dropped;
}

static void release_of_queue_with_unconsumed_errors_says_so_4_13_1_1(void **s)
{
    (void)s;
    axl_queue q;
    AXL_OK(axl_queue_create(AXL_NO_CONTEXT, axl_test_emu_device(), 0, NULL,
                            &q));
    int id = 4;
    AXL_OK(axl_queue_host_task(q, fail_task, &id, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q));
    AXL_EXPECT(axl_queue_release(q), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("unconsumed");
    AXL_MESSAGE_HAS("sensor 4");
    /* It is released all the same, and reported once. */
    AXL_EXPECT(axl_queue_release(q), AXL_ERR_INVALID_OBJECT);
    assert_int_equal(axl_test_pool("error").in_use, 0);
    axl_device d = axl_test_emu_device();
    axl_context c;
    AXL_OK(axl_context_create(&d, 1, NULL, &c));
    axl_queue q2;
    AXL_OK(axl_queue_create(c, d, 0, NULL, &q));
    AXL_OK(axl_queue_create(c, d, 0, NULL, &q2));
    AXL_OK(axl_queue_host_task(q, fail_task, &id, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q));
    AXL_EXPECT(axl_queue_release(q), AXL_ERR_RUNTIME);
    AXL_OK(axl_queue_throw_asynchronous(q2));
    AXL_OK(axl_queue_release(q2));
    AXL_OK(axl_context_release(c));
}

static void release_of_context_whose_queues_hold_errors_says_so_4_13_1_1(void **s)
{
    (void)s;
    axl_device d = axl_test_emu_device();
    axl_context c;
    AXL_OK(axl_context_create(&d, 1, NULL, &c));
    axl_queue q;
    AXL_OK(axl_queue_create(c, d, 0, NULL, &q));
    int id = 6;
    AXL_OK(axl_queue_host_task(q, fail_task, &id, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q));
    /* Released all the same; the errors stay with the queue. */
    AXL_EXPECT(axl_context_release(c), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("unconsumed");
    AXL_EXPECT(axl_context_release(c), AXL_ERR_INVALID_OBJECT);
    AXL_EXPECT(axl_queue_throw_asynchronous(q), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("sensor 6");
    AXL_OK(axl_queue_release(q));
}

static axl_status slow_fail_task(void *user)
{
    sleep_ms(100);
    return fail_task(user);
}

/* Throws on q until an error comes (at most 3 s). */
static axl_status throw_until_error(axl_queue q)
{
    for (int i = 0; i < 300; i++) {
        axl_status st = axl_queue_throw_asynchronous(q);
        if (st != AXL_SUCCESS)
            return st;
        sleep_ms(10);
    }
    return AXL_SUCCESS;
}

static void late_errors_of_a_released_queue_reach_its_context_4_13_1_1(void **s)
{
    (void)s;
    axl_device d = axl_test_emu_device();
    axl_context c;
    AXL_OK(axl_context_create(&d, 1, NULL, &c));
    axl_queue q1, q2;
    AXL_OK(axl_queue_create(c, d, 0, NULL, &q1));
    AXL_OK(axl_queue_create(c, d, 0, NULL, &q2));
    int id = 8;
    AXL_OK(axl_queue_host_task(q1, slow_fail_task, &id, NULL, 0, NULL));
    AXL_OK(axl_queue_release(q1)); /* nothing has failed yet */
    /* The failure comes later: a throw on the context's other queue gives
     * it (no handler: as the status). */
    AXL_EXPECT(throw_until_error(q2), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("released before its command finished");
    AXL_MESSAGE_HAS("sensor 8");
    AXL_OK(axl_queue_throw_asynchronous(q2));
    /* Unconsumed, the context's release says so. */
    AXL_OK(axl_queue_create(c, d, 0, NULL, &q1));
    AXL_OK(axl_queue_host_task(q1, slow_fail_task, &id, NULL, 0, NULL));
    AXL_OK(axl_queue_release(q1));
    AXL_OK(axl_queue_wait(q2));
    sleep_ms(300);
    AXL_OK(axl_queue_release(q2));
    AXL_EXPECT(axl_context_release(c), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("unconsumed");
}

static void every_error_is_retrievable_without_a_handler_4_13_1_2(void **s)
{
    (void)s;
    axl_queue q;
    /* in order: the errors arrive in submission order */
    AXL_OK(axl_queue_create(AXL_NO_CONTEXT, axl_test_emu_device(),
                            AXL_QUEUE_IN_ORDER, NULL,
                            &q));
    uint32_t cap = axl_test_pool("error").capacity;
    int ids[16];
    for (uint32_t i = 0; i < cap && i < 16; i++) {
        ids[i] = (int)i + 1;
        AXL_OK(axl_queue_host_task(q, fail_task, &ids[i], NULL, 0, NULL));
    }
    AXL_OK(axl_queue_wait(q));
    /* Each throw gives the next error; none is folded into "(and more)". */
    for (uint32_t i = 0; i < cap && i < 16; i++) {
        AXL_EXPECT(axl_queue_throw_asynchronous(q), AXL_ERR_RUNTIME);
        char want[32];
        snprintf(want, sizeof want, "sensor %u did", (unsigned)i + 1);
        AXL_MESSAGE_HAS(want);
    }
    AXL_OK(axl_queue_throw_asynchronous(q));
    /* Beyond the pool: counted, and said. */
    for (uint32_t i = 0; i < cap + 2; i++)
        AXL_OK(axl_queue_host_task(q, fail_task, &ids[0], NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q));
    AXL_EXPECT(axl_queue_throw_asynchronous(q), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("2 dropped: AXL_MAX_ERRORS full");
    for (uint32_t i = 1; i < cap; i++)
        AXL_EXPECT(axl_queue_throw_asynchronous(q), AXL_ERR_RUNTIME);
    AXL_OK(axl_queue_throw_asynchronous(q));
    AXL_OK(axl_queue_release(q));
}

static void event_wait_and_throw_delivers_errors_it_waited_on_table_34(void **s)
{
    (void)s;
    seen s1 = {0}, s2 = {0};
    axl_async_handler h1 = {handler, &s1}, h2 = {handler, &s2};
    axl_device d = axl_test_emu_device();
    axl_context c1, c2;
    AXL_OK(axl_context_create(&d, 1, &h1, &c1));
    AXL_OK(axl_context_create(&d, 1, &h2, &c2));
    axl_queue q1, q2;
    AXL_OK(axl_queue_create(c1, d, 0, NULL, &q1));
    AXL_OK(axl_queue_create(c2, d, 0, NULL, &q2));
    int id = 5;
    axl_event bad, after;
    AXL_OK(axl_queue_host_task(q1, fail_task, &id, NULL, 0, &bad));
    AXL_OK(axl_queue_host_task(q2, fail_task, &id, &bad, 1, &after));
    AXL_OK(axl_event_wait_and_throw(after));
    /* The event waited on bad's command, of context c1: its error went to
     * c1's handler, and after's to c2's. */
    assert_int_equal(s1.count, 1);
    assert_int_equal(s2.count, 1);
    assert_true(AXL_SAME(s1.queue[0], q1));
    AXL_OK(axl_event_release(bad));
    AXL_OK(axl_event_release(after));
    AXL_OK(axl_queue_release(q1));
    AXL_OK(axl_queue_release(q2));
    AXL_OK(axl_context_release(c1));
    AXL_OK(axl_context_release(c2));
}

/* Issue 18.3: a handler that releases its own queue, then makes another. */
typedef struct rel {
    axl_queue q, made;
    axl_status inner;
    int calls;
} rel;

static void releasing_handler(const axl_async_error *errors, uint32_t count,
                              uint32_t dropped, void *user)
{
    (void)errors;
    (void)count;
    (void)dropped;
    rel *r = user;
    r->calls++;
    r->inner = axl_queue_release(r->q);
    AXL_OK(axl_queue_create(AXL_NO_CONTEXT, axl_test_emu_device(), 0, NULL,
                            &r->made));
}

static void queue_released_from_its_own_handler_stays_one_release_4_13_1_1(void **s)
{
    (void)s;
    rel r = {0};
    axl_async_handler h = {releasing_handler, &r};
    AXL_OK(axl_queue_create(AXL_NO_CONTEXT, axl_test_emu_device(), 0, &h,
                            &r.q));
    int id = 1;
    AXL_OK(axl_queue_host_task(r.q, fail_task, &id, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(r.q));
    AXL_OK(axl_queue_release(r.q));
    assert_int_equal(r.calls, 1);
    /* The queue had one reference: the handler's release is a second one. */
    assert_int_equal(r.inner, AXL_ERR_INVALID_OBJECT);
    /* The queue the handler made is the application's, and alive. */
    axl_device dev;
    AXL_OK(axl_queue_get_device(r.made, &dev));
    AXL_OK(axl_queue_release(r.made));
}

/* ---- 16.5: a wait that can never end says so; wait_for ------------------------ */

static axl_status nop_task(void *user)
{
    (void)user;
    return AXL_SUCCESS;
}

static void rw_task_cgf(axl_handler *h, void *user)
{
    axl_accessor a;
    axl_handler_require(h, *(axl_buffer *)user, AXL_ACCESS_READ_WRITE, NULL,
                        0, &a);
    axl_handler_host_task(h, nop_task, NULL);
}

static void wait_blocked_by_own_host_accessor_is_a_deadlock_error_4_7_6_10(void **s)
{
    (void)s;
    axl_queue q;
    AXL_OK(axl_queue_create(AXL_NO_CONTEXT, axl_test_emu_device(), 0, NULL,
                            &q));
    axl_buffer b;
    AXL_OK(axl_buffer_create(4, axl_range_1d(8), NULL, &b));
    axl_host_accessor ha;
    void *p;
    AXL_OK(axl_host_accessor_create(b, AXL_ACCESS_WRITE, NULL, 0, &ha, &p));
    axl_event e;
    AXL_OK(axl_queue_submit(q, rw_task_cgf, &b, &e));
    AXL_EXPECT(axl_event_wait(e), AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("host accessor");
    AXL_EXPECT(axl_queue_wait(q), AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("host accessor");
    /* Nothing was cancelled: releasing the accessor lets it run. */
    AXL_OK(axl_host_accessor_release(ha));
    AXL_OK(axl_event_wait(e));
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_buffer_release(b));
    AXL_OK(axl_queue_release(q));
}

static void buffer_release_blocked_by_own_host_accessor_says_so_4_7_2_3(void **s)
{
    (void)s;
    int data[8] = {0};
    axl_buffer b;
    AXL_OK(axl_buffer_create_from(data, 4, axl_range_1d(8), NULL, &b));
    axl_host_accessor ha;
    void *p;
    AXL_OK(axl_host_accessor_create(b, AXL_ACCESS_WRITE, NULL, 0, &ha, &p));
    ((int *)p)[0] = 5;
    /* The last release would wait for the accessor forever. */
    AXL_EXPECT(axl_buffer_release(b), AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("host accessor");
    AXL_OK(axl_host_accessor_release(ha));
    AXL_OK(axl_buffer_release(b)); /* nothing changed: it still works */
    assert_int_equal(data[0], 5);
}

static axl_status slow_task(void *user)
{
    (void)user;
    sleep_ms(200);
    return AXL_SUCCESS;
}

static void event_wait_for_times_out_without_cancelling(void **s)
{
    (void)s;
    axl_queue q;
    AXL_OK(axl_queue_create(AXL_NO_CONTEXT, axl_test_emu_device(), 0, NULL,
                            &q));
    axl_event e;
    AXL_OK(axl_queue_host_task(q, slow_task, NULL, NULL, 0, &e));
    AXL_EXPECT(axl_event_wait_for(e, 10 * 1000000ull), AXL_ERR_TIMEOUT);
    AXL_MESSAGE_HAS("not complete");
    AXL_OK(axl_event_wait_for(e, 5000 * 1000000ull));
    axl_event_status st;
    AXL_OK(axl_event_get_status(e, &st, NULL));
    assert_int_equal(st, AXL_EVENT_COMPLETE);
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_queue_release(q));
}

/* ---- 16.7: the smaller rules ------------------------------------------------------ */

static void deps_only_cgf(axl_handler *h, void *user)
{
    axl_handler_depends_on(h, *(axl_event *)user);
}

static void command_group_with_only_dependencies_is_a_barrier_4_9_3(void **s)
{
    (void)s;
    axl_queue q;
    AXL_OK(axl_queue_create(AXL_NO_CONTEXT, axl_test_emu_device(), 0, NULL,
                            &q));
    axl_event slow, barrier;
    AXL_OK(axl_queue_host_task(q, slow_task, NULL, NULL, 0, &slow));
    AXL_OK(axl_queue_submit(q, deps_only_cgf, &slow, &barrier));
    AXL_OK(axl_event_wait(barrier));
    axl_event_status st;
    AXL_OK(axl_event_get_status(slow, &st, NULL));
    assert_int_equal(st, AXL_EVENT_COMPLETE);
    AXL_OK(axl_event_release(slow));
    AXL_OK(axl_event_release(barrier));
    AXL_OK(axl_queue_release(q));
}

typedef struct ukb {
    axl_kernel k;
    axl_kernel_bundle b;
} ukb;

static void ukb_cgf(axl_handler *h, void *user)
{
    ukb *u = user;
    axl_handler_use_kernel_bundle(h, u->b);
    axl_handler_single_task(h, u->k);
}

static void kernel_object_ignores_use_kernel_bundle_4_9_4_2(void **s)
{
    (void)s;
    rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel_id nop_id = builtin("nop");
    axl_kernel_bundle nb;
    AXL_OK(axl_get_kernel_bundle_for(r.ctx, NULL, 0, &nop_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &nb));
    axl_kernel nop;
    AXL_OK(axl_kernel_bundle_get_kernel(nb, nop_id, &nop));
    axl_kernel_bundle empty;
    AXL_OK(axl_get_kernel_bundle(r.ctx, NULL, 0, AXL_BUNDLE_EXECUTABLE,
                                 &empty));
    ukb u = {nop, empty};
    axl_event e;
    AXL_OK(axl_queue_submit(r.q, ukb_cgf, &u, &e));
    AXL_OK(axl_event_wait(e));
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_kernel_bundle_release(empty));
    AXL_OK(axl_kernel_release(nop));
    AXL_OK(axl_kernel_bundle_release(nb));
    axl_test_rig_down(&r);
}

static void copy_destination_may_be_larger_than_source_4_9_4_3(void **s)
{
    (void)s;
    axl_queue q;
    AXL_OK(axl_queue_create(AXL_NO_CONTEXT, axl_test_emu_device(), 0, NULL,
                            &q));
    int src[4] = {1, 2, 3, 4}, dst[8] = {9, 9, 9, 9, 9, 9, 9, 9};
    axl_buffer S, D;
    AXL_OK(axl_buffer_create_from(src, 4, axl_range_1d(4), NULL, &S));
    AXL_OK(axl_buffer_create_from(dst, 4, axl_range_1d(8), NULL, &D));
    AXL_OK(axl_queue_copy(q, S, NULL, D, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(q));
    AXL_OK(axl_buffer_release(D));
    const int want[8] = {1, 2, 3, 4, 9, 9, 9, 9};
    assert_memory_equal(dst, want, sizeof want);
    /* A destination smaller than the source is still an error. */
    AXL_OK(axl_buffer_create_from(dst, 4, axl_range_1d(2), NULL, &D));
    AXL_EXPECT(axl_queue_copy(q, S, NULL, D, NULL, NULL, 0, NULL),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("at least");
    AXL_OK(axl_buffer_release(D));
    AXL_OK(axl_buffer_release(S));
    AXL_OK(axl_queue_release(q));
}

static atomic_int writer_done;
static atomic_int reader_saw;

static axl_status slow_writer(void *user)
{
    (void)user;
    sleep_ms(100);
    atomic_store(&writer_done, 1);
    return AXL_SUCCESS;
}

static axl_status reader(void *user)
{
    (void)user;
    atomic_store(&reader_saw, atomic_load(&writer_done) ? 2 : 1);
    return AXL_SUCCESS;
}

typedef struct ranged {
    axl_buffer b;
    axl_region r;
    axl_access_mode mode;
    axl_host_task_fn fn;
} ranged;

static void ranged_cgf(axl_handler *h, void *user)
{
    ranged *g = user;
    axl_accessor a;
    axl_handler_require(h, g->b, g->mode, &g->r, 0, &a);
    axl_handler_host_task(h, g->fn, NULL);
}

static void ranged_accessors_require_the_whole_buffer_4_7_6_8(void **s)
{
    (void)s;
    axl_queue q;
    AXL_OK(axl_queue_create(AXL_NO_CONTEXT, axl_test_emu_device(), 0, NULL,
                            &q));
    axl_buffer b;
    AXL_OK(axl_buffer_create(4, axl_range_1d(8), NULL, &b));
    atomic_store(&writer_done, 0);
    atomic_store(&reader_saw, 0);
    ranged w = {b, {{0, 0, 0}, {4, 1, 1}}, AXL_ACCESS_WRITE, slow_writer};
    ranged rd = {b, {{4, 0, 0}, {4, 1, 1}}, AXL_ACCESS_READ, reader};
    AXL_OK(axl_queue_submit(q, ranged_cgf, &w, NULL));
    AXL_OK(axl_queue_submit(q, ranged_cgf, &rd, NULL));
    AXL_OK(axl_queue_wait_and_throw(q));
    assert_int_equal(atomic_load(&reader_saw), 2);
    AXL_OK(axl_buffer_release(b));
    AXL_OK(axl_queue_release(q));
}

static void device_version_is_major_dot_minor_4_6_4_2(void **s)
{
    (void)s;
    char v[32];
    AXL_OK(axl_device_get_info(axl_test_emu_device(), AXL_DEVICE_INFO_VERSION,
                               v, sizeof v, NULL));
    const char *dot = strchr(v, '.');
    assert_non_null(dot);
    assert_true(dot > v && dot[1] >= '0' && dot[1] <= '9');
    for (const char *c = v; c < dot; c++)
        assert_true(*c >= '0' && *c <= '9');
}

static void default_selector_scores_every_existing_device_table_14(void **s)
{
    (void)s;
    fake_config = (fake_port_config){.devices = 1, .flags = 0};
    AXL_OK(axl_device_port_register(&fake_port));
    axl_device all[8];
    uint32_t n = 0;
    AXL_OK(axl_device_get_all(AXL_DEVICE_TYPE_ALL, all, 8, &n));
    bool found_unavailable = false;
    for (uint32_t i = 0; i < n; i++) {
        bool avail = true;
        AXL_OK(axl_device_get_info(all[i], AXL_DEVICE_INFO_IS_AVAILABLE,
                                   &avail, sizeof avail, NULL));
        /* Every device scores 0 or more, so one is always selected. */
        assert_true(axl_default_selector(all[i], NULL) >= 0);
        if (!avail) {
            found_unavailable = true;
            assert_true(axl_default_selector(all[i], NULL) <
                        axl_default_selector(axl_test_emu_device(), NULL));
        }
    }
    assert_true(found_unavailable);
}

static void none_handles_are_expressions_of_each_type(void **s)
{
    (void)s;
    axl_queue q;
    AXL_OK(axl_queue_create(AXL_NO_CONTEXT, axl_test_emu_device(), 0, NULL,
                            &q));
    assert_true(AXL_IS_NONE(AXL_NO_QUEUE));
    assert_true(AXL_IS_NONE(AXL_NO_EVENT));
    assert_true(AXL_IS_NONE(AXL_NO_BUFFER));
    assert_true(AXL_IS_NONE(AXL_NO_DEVICE));
    assert_true(AXL_IS_NONE(AXL_NO_KERNEL_BUNDLE));
    assert_true(AXL_IS_NONE(AXL_NO_KERNEL));
    AXL_EXPECT(axl_queue_release(AXL_NO_QUEUE), AXL_ERR_INVALID_OBJECT);
    AXL_OK(axl_queue_release(q));
}

static void messages_name_the_call_made_and_no_missing_queue(void **s)
{
    (void)s;
    rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    uint32_t n = 4;
    axl_kernel_arg bad[1] = {{.index = 3, .value = &n, .size = sizeof n}};
    AXL_EXPECT(axl_queue_single_task(r.q, r.vadd, bad, 1, NULL, 0, NULL),
               AXL_ERR_KERNEL_ARGUMENT);
    AXL_MESSAGE_HAS("axl_queue_single_task");
    AXL_EXPECT(axl_queue_host_task(r.q, NULL, NULL, NULL, 0, NULL),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("axl_queue_host_task");
    AXL_EXPECT(axl_queue_update_host(r.q, AXL_NO_BUFFER, NULL, NULL, 0, NULL),
               AXL_ERR_INVALID_OBJECT);
    AXL_MESSAGE_HAS("axl_queue_update_host");
    axl_event e;
    AXL_OK(axl_event_create_complete(&e));
    uint64_t ns;
    AXL_EXPECT(axl_event_get_profiling(e, AXL_PROFILING_COMMAND_END, &ns),
               AXL_ERR_INVALID);
    if (axl_test_messages())
        assert_null(strstr(axl_last_message(), "its queue"));
    AXL_MESSAGE_HAS("no queue");
    AXL_OK(axl_event_release(e));
    axl_test_rig_down(&r);
}


/* kernel_compiler: "a full build log", on failure as on success, however
 * long (it is not the AXL_MESSAGE_MAX-byte message). */
static void kernel_compiler_build_log_is_complete_on_failure_and_success(void **s)
{
    (void)s;
    axl_device d = axl_test_emu_device();
    axl_context c;
    AXL_OK(axl_context_create(&d, 1, NULL, &c));
    axl_kernel_bundle src, exe = {0};
    AXL_OK(axl_kernel_bundle_create_from_source(c, AXL_SOURCE_XCLBIN,
                                                axl_test_app_xclbin,
                                                axl_test_app_xclbin_size,
                                                &src));
    char name[300], opt[320], log[1024];
    memset(name, 'k', sizeof name - 1);
    name[sizeof name - 1] = 0;
    snprintf(opt, sizeof opt, "--require-kernel=%s", name);
    const char *opts[1] = {opt};
    axl_build_props props = {opts, 1, log, sizeof log};
    strcpy(log, "untouched");
    AXL_EXPECT(axl_kernel_bundle_build(src, NULL, 0, &props, &exe),
               AXL_ERR_BUILD);
    AXL_MESSAGE_HAS("build log");
    assert_non_null(strstr(log, name)); /* all 299 characters of it */
    assert_non_null(strstr(log, "--require-kernel"));
    assert_int_equal(exe.id, 0);
    /* Success: the whole log, whatever its length. */
    const char *good[1] = {"--require-kernel=scale"};
    props.options = good;
    AXL_OK(axl_kernel_bundle_build(src, NULL, 0, &props, &exe));
    assert_non_null(strstr(log, "scale"));
    assert_non_null(strstr(log, "programmed"));
    AXL_OK(axl_kernel_bundle_release(exe));
    AXL_OK(axl_kernel_bundle_release(src));
    AXL_OK(axl_context_release(c));
}

/* Listing (4.11.6, get_kernel_bundle without ids, which a firmware calls
 * to see its kernels) leaves a design a live bundle uses: vadd still
 * runs, and a listed kernel whose design is not on the device says so
 * through axl_kernel_info.runnable and at its launch, naming what to do. */
static void listing_leaves_a_held_design_and_its_kernels_say_so_4_11_6(void **s)
{
    (void)s;
    axl_test_emu_swaps(false); /* a device that cannot swap (issue 40) */
    rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    AXL_OK(axl_image_register(axl_test_app_xclbin, axl_test_app_xclbin_size));
    axl_kernel_info info;
    AXL_OK(axl_kernel_get_info(r.vadd, &info));
    assert_true(info.runnable);
    axl_kernel_bundle all;
    AXL_OK(axl_get_kernel_bundle(r.ctx, NULL, 0, AXL_BUNDLE_EXECUTABLE, &all));
    AXL_OK(axl_kernel_get_info(r.vadd, &info));
    assert_true(info.runnable);
    axl_kernel nop;
    AXL_OK(axl_kernel_bundle_get_kernel(r.bundle, builtin("nop"), &nop));
    axl_event e;
    AXL_OK(axl_queue_single_task(r.q, nop, NULL, 0, NULL, 0, &e));
    AXL_OK(axl_event_wait(e));
    AXL_OK(axl_event_release(e));
    axl_kernel_id scale_id;
    AXL_OK(axl_get_kernel_id("scale", &scale_id));
    axl_kernel listed;
    AXL_OK(axl_kernel_bundle_get_kernel(all, scale_id, &listed));
    AXL_OK(axl_kernel_get_info(listed, &info));
    assert_false(info.runnable); /* its design is not on the device */
    axl_buffer D;
    AXL_OK(axl_buffer_create(4, axl_range_1d(16), NULL, &D));
    AXL_EXPECT(axl_queue_single_task(r.q, listed,
                                     AXL_ARGS(AXL_ARG_INOUT(D),
                                              AXL_ARG_F32(2.0f),
                                              AXL_ARG_U32(16)),
                                     NULL, 0, NULL),
               AXL_ERR_KERNEL_NOT_SUPPORTED);
    AXL_MESSAGE_HAS("does not carry the design of kernel scale");
    AXL_OK(axl_buffer_release(D));
    AXL_OK(axl_kernel_release(listed));
    AXL_OK(axl_kernel_release(nop));
    AXL_OK(axl_kernel_bundle_release(all));
    axl_test_rig_down(&r);
}

/* ---- Issue 26.4: the last SYCL contradictions ------------------------------------- */

static axl_status gated_fail_task(void *user)
{
    axl_test_gate(user);
    return axl_fail(AXL_ERR_RUNTIME, "sensor 9 did not answer");
}

/* 4.13.1.1: the destruction of a context that holds unconsumed
 * asynchronous errors calls its async_handler with them. Its queues hold
 * the context, so in SYCL it goes after them, and their errors reach its
 * handler when they go unless a queue has a handler of its own: the
 * context's last release hands over every error that would reach it,
 * those of its queues without a handler of their own and the late ones
 * of its released queues. */
static void release_of_context_gives_its_errors_to_its_handler_4_13_1_1(void **s)
{
    (void)s;
    seen ctx_seen = {0}, q_seen = {0};
    axl_async_handler hc = {handler, &ctx_seen}, hq = {handler, &q_seen};
    axl_device d = axl_test_emu_device();
    axl_context c;
    AXL_OK(axl_context_create(&d, 1, &hc, &c));
    axl_queue plain, own, gone;
    AXL_OK(axl_queue_create(c, d, 0, NULL, &plain));
    AXL_OK(axl_queue_create(c, d, 0, &hq, &own));
    AXL_OK(axl_queue_create(c, d, 0, NULL, &gone));
    int id = 3;
    AXL_OK(axl_queue_host_task(plain, fail_task, &id, NULL, 0, NULL));
    AXL_OK(axl_queue_host_task(own, fail_task, &id, NULL, 0, NULL));
    /* A late error: its queue is released before the command fails. */
    atomic_int open = 0;
    axl_event late;
    AXL_OK(axl_queue_host_task(gone, gated_fail_task, &open, NULL, 0, &late));
    AXL_OK(axl_queue_release(gone));
    atomic_store(&open, 1);
    AXL_EXPECT(axl_event_wait(late), AXL_ERR_RUNTIME);
    AXL_OK(axl_event_release(late));
    AXL_OK(axl_queue_wait(plain));
    AXL_OK(axl_queue_wait(own));
    assert_int_equal(ctx_seen.calls, 0);
    AXL_OK(axl_context_release(c));
    /* The plain queue's error and the late one; the queue with a handler
     * of its own keeps its error for that handler. */
    assert_int_equal(ctx_seen.count, 2);
    if (axl_test_messages()) { /* AXL_MESSAGES 0: the status names */
        assert_non_null(strstr(ctx_seen.message[0], "sensor"));
        assert_non_null(strstr(ctx_seen.message[1], "sensor 9"));
    }
    assert_int_equal(q_seen.count, 0);
    AXL_OK(axl_queue_throw_asynchronous(plain)); /* delivered once */
    assert_int_equal(ctx_seen.count, 2);
    AXL_OK(axl_queue_release(own));
    assert_int_equal(q_seen.count, 1);
    AXL_OK(axl_queue_release(plain));
    assert_int_equal(axl_test_pool("error").in_use, 0);
}

/* Table 34, event::wait_and_throw: "Any unconsumed asynchronous errors
 * from any context that the event was waiting on executions from will be
 * passed to the async_handler associated with the context": the event's
 * own command is an execution it waits on, so every queue of its own
 * context is served, not only the event's queue. */
static void event_wait_and_throw_serves_every_queue_of_its_context_table_34(
    void **s)
{
    (void)s;
    seen sc = {0};
    axl_async_handler h = {handler, &sc};
    axl_device d = axl_test_emu_device();
    axl_context c;
    AXL_OK(axl_context_create(&d, 1, &h, &c));
    axl_queue q1, q2;
    AXL_OK(axl_queue_create(c, d, 0, NULL, &q1));
    AXL_OK(axl_queue_create(c, d, 0, NULL, &q2));
    int id = 2;
    AXL_OK(axl_queue_host_task(q2, fail_task, &id, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q2));
    axl_event e;
    AXL_OK(axl_queue_host_task(q1, nop_task, NULL, NULL, 0, &e));
    AXL_OK(axl_event_wait_and_throw(e));
    assert_int_equal(sc.count, 1);
    assert_true(AXL_SAME(sc.queue[0], q2));
    AXL_OK(axl_event_release(e));
    /* Without a handler each error is the status of one call, and none
     * is lost: two queues' errors, two calls. */
    axl_context c2;
    AXL_OK(axl_context_create(&d, 1, NULL, &c2));
    axl_queue p1, p2, p3;
    AXL_OK(axl_queue_create(c2, d, 0, NULL, &p1));
    AXL_OK(axl_queue_create(c2, d, 0, NULL, &p2));
    AXL_OK(axl_queue_create(c2, d, 0, NULL, &p3));
    int id2 = 21, id3 = 31;
    AXL_OK(axl_queue_host_task(p2, fail_task, &id2, NULL, 0, NULL));
    AXL_OK(axl_queue_host_task(p3, fail_task, &id3, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(p2));
    AXL_OK(axl_queue_wait(p3));
    AXL_OK(axl_queue_host_task(p1, nop_task, NULL, NULL, 0, &e));
    AXL_EXPECT(axl_event_wait_and_throw(e), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("sensor 21");
    AXL_EXPECT(axl_event_wait_and_throw(e), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("sensor 31");
    AXL_OK(axl_event_wait_and_throw(e));
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_queue_release(p1));
    AXL_OK(axl_queue_release(p2));
    AXL_OK(axl_queue_release(p3));
    AXL_OK(axl_context_release(c2));
    AXL_OK(axl_queue_release(q1));
    AXL_OK(axl_queue_release(q2));
    AXL_OK(axl_context_release(c));
}

static bool every_image(axl_device_image image, void *user)
{
    (void)image;
    (void)user;
    return true;
}

/* 4.11 (seed 000): an executable bundle's device images "are in a format
 * that allows them to be invoked on a device", and a compatible kernel
 * can be invoked. A device carries one design: obtaining a bundle whose
 * image would replace the design a live bundle's kernels run from is
 * refused (AXL_ERR_BAD_STATE, naming what holds the design) and changes
 * nothing, so a query (is_compatible, runnable) and a launch never
 * disagree. Released, the holder no longer stands in the way. A firmware
 * holding its built-ins that asks for an application image learns why at
 * the request, not at a later launch of a built-in. */
static void a_bundle_never_disables_the_kernels_of_a_live_bundle_4_11_6(void **s)
{
    (void)s;
    /* On a device that cannot reprogram on demand (issue 40: one that
     * can holds both and runs both, test_swaps.c, test_designs.c). */
    axl_test_emu_swaps(false);
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_app_xclbin,
                                      axl_test_app_xclbin_size));
    AXL_OK(axl_image_register(axl_test_app_xclbin, axl_test_app_xclbin_size));
    axl_device d = axl_test_emu_device();
    axl_context c;
    AXL_OK(axl_context_create(&d, 1, NULL, &c));
    axl_queue q;
    AXL_OK(axl_queue_create(c, d, AXL_QUEUE_IN_ORDER, NULL, &q));
    axl_kernel_id nop_id = builtin("nop"), scale_id;
    AXL_OK(axl_get_kernel_id("scale", &scale_id));
    axl_kernel_bundle builtins, app;
    AXL_OK(axl_get_kernel_bundle_for(c, NULL, 0, &nop_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &builtins));
    axl_kernel nop;
    AXL_OK(axl_kernel_bundle_get_kernel(builtins, nop_id, &nop));
    char holder[40];
    snprintf(holder, sizeof holder, "kernel bundle 0x%08x",
             (unsigned)builtins.id);
    /* Refused while the built-ins' bundle lives: by ids, by a selector. */
    AXL_EXPECT(axl_get_kernel_bundle_for(c, NULL, 0, &scale_id, 1,
                                         AXL_BUNDLE_EXECUTABLE, &app),
               AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS(holder);
    AXL_EXPECT(axl_get_kernel_bundle_selected(c, NULL, 0,
                                              AXL_BUNDLE_EXECUTABLE,
                                              every_image, NULL,
                                              &app),
               AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS(holder);
    assert_int_equal(axl_test_pool("kernel_bundle").in_use, 1);
    /* Nothing changed: what the queries say, the launch does. */
    bool ok = false;
    AXL_OK(axl_is_compatible(&nop_id, 1, d, &ok));
    assert_true(ok);
    axl_kernel_info info;
    AXL_OK(axl_kernel_get_info(nop, &info));
    assert_true(info.runnable);
    axl_event e;
    AXL_OK(axl_queue_single_task(q, nop, NULL, 0, NULL, 0, &e));
    AXL_OK(axl_event_wait(e));
    AXL_OK(axl_event_release(e));
    /* A kernel object keeps the design of its released bundle. */
    AXL_OK(axl_kernel_bundle_release(builtins));
    AXL_EXPECT(axl_get_kernel_bundle_for(c, NULL, 0, &scale_id, 1,
                                         AXL_BUNDLE_EXECUTABLE, &app),
               AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("kernel nop");
    AXL_OK(axl_queue_single_task(q, nop, NULL, 0, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(q));
    /* Let go: the application image's bundle programs the device. */
    AXL_OK(axl_kernel_release(nop));
    AXL_OK(axl_get_kernel_bundle_for(c, NULL, 0, &scale_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &app));
    axl_kernel scale;
    AXL_OK(axl_kernel_bundle_get_kernel(app, scale_id, &scale));
    float data[16];
    for (int i = 0; i < 16; i++)
        data[i] = (float)i;
    axl_buffer D;
    AXL_OK(axl_buffer_create_from(data, 4, axl_range_1d(16), NULL, &D));
    AXL_OK(axl_queue_single_task(q, scale,
                                 AXL_ARGS(AXL_ARG_INOUT(D), AXL_ARG_F32(2.0f),
                                          AXL_ARG_U32(16)),
                                 NULL, 0, NULL));
    AXL_OK(axl_buffer_release(D));
    assert_true(data[15] == 30.0f);
    /* And back to the built-ins the same way. */
    snprintf(holder, sizeof holder, "kernel bundle 0x%08x", (unsigned)app.id);
    AXL_EXPECT(axl_get_kernel_bundle_for(c, NULL, 0, &nop_id, 1,
                                         AXL_BUNDLE_EXECUTABLE, &builtins),
               AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS(holder);
    AXL_OK(axl_kernel_get_info(scale, &info));
    assert_true(info.runnable);
    AXL_OK(axl_kernel_release(scale));
    AXL_OK(axl_kernel_bundle_release(app));
    AXL_OK(axl_get_kernel_bundle_for(c, NULL, 0, &nop_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &builtins));
    AXL_OK(axl_kernel_bundle_get_kernel(builtins, nop_id, &nop));
    AXL_OK(axl_queue_single_task(q, nop, NULL, 0, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(q));
    AXL_OK(axl_kernel_release(nop));
    AXL_OK(axl_kernel_bundle_release(builtins));
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_context_release(c));
}

static void fail_writer_cgf(axl_handler *h, void *user)
{
    axl_accessor a;
    axl_handler_require(h, *(axl_buffer *)user, AXL_ACCESS_WRITE, NULL, 0,
                        &a);
    static int id = 7;
    axl_handler_host_task(h, fail_task, &id);
}

/* 4.7.2.3: "If any error occurs on buffer destruction, it is reported
 * via the associated queue's asynchronous error handling mechanism": a
 * write-back that fails is the release's status, and also an
 * asynchronous error of the queue whose failed command lost the contents
 * (its handler gets it at the next throw, or its context's when it has
 * none); once that queue is gone, of its context. */
static void error_on_buffer_destruction_reaches_the_async_handler_4_7_2_3(
    void **s)
{
    (void)s;
    seen sq = {0};
    axl_async_handler h = {handler, &sq};
    axl_queue q;
    AXL_OK(axl_queue_create(AXL_NO_CONTEXT, axl_test_emu_device(), 0, &h,
                            &q));
    int data[8] = {0};
    axl_buffer b;
    AXL_OK(axl_buffer_create_from(data, 4, axl_range_1d(8), NULL, &b));
    AXL_OK(axl_queue_submit(q, fail_writer_cgf, &b, NULL));
    AXL_OK(axl_queue_wait(q));
    /* The writer failed: nothing to write back. */
    AXL_EXPECT(axl_buffer_release(b), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("nothing written back");
    AXL_OK(axl_queue_throw_asynchronous(q));
    assert_int_equal(sq.count, 2);
    if (axl_test_messages()) { /* AXL_MESSAGES 0: the status names */
        assert_non_null(strstr(sq.message[0], "sensor 7"));
        assert_non_null(strstr(sq.message[1], "nothing written back"));
    }
    assert_true(AXL_SAME(sq.queue[1], q));
    /* Its queue gone, the buffer's context's handler gets it. */
    seen sc = {0};
    axl_async_handler hc = {handler, &sc};
    axl_device d = axl_test_emu_device();
    axl_context c;
    AXL_OK(axl_context_create(&d, 1, &hc, &c));
    axl_queue q2, q3;
    AXL_OK(axl_queue_create(c, d, 0, NULL, &q2));
    AXL_OK(axl_queue_create(c, d, 0, NULL, &q3));
    AXL_OK(axl_buffer_create_from(data, 4, axl_range_1d(8), NULL, &b));
    AXL_OK(axl_queue_submit(q2, fail_writer_cgf, &b, NULL));
    AXL_OK(axl_queue_wait_and_throw(q2));
    assert_int_equal(sc.count, 1);
    AXL_OK(axl_queue_release(q2));
    AXL_EXPECT(axl_buffer_release(b), AXL_ERR_RUNTIME);
    AXL_OK(axl_queue_throw_asynchronous(q3));
    assert_int_equal(sc.count, 2);
    if (axl_test_messages())
        assert_non_null(strstr(sc.message[1], "nothing written back"));
    AXL_OK(axl_queue_release(q3));
    AXL_OK(axl_context_release(c));
    AXL_OK(axl_queue_release(q));
    assert_int_equal(axl_test_pool("error").in_use, 0);
}

#define T(f) cmocka_unit_test_setup_teardown(f, axl_test_setup, axl_test_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(write_accessor_keeps_unwritten_elements_4_7_6_4),
        T(write_no_init_kernel_argument_is_discard_write_4_7_6_9_4_2),
        T(no_init_with_read_accessor_is_invalid_4_7_6_4),
        T(const_host_pointer_is_read_only_on_host_only_4_7_2_3_rule_2_2),
        T(release_of_queue_with_unconsumed_errors_says_so_4_13_1_1),
        T(release_of_context_whose_queues_hold_errors_says_so_4_13_1_1),
        T(late_errors_of_a_released_queue_reach_its_context_4_13_1_1),
        T(every_error_is_retrievable_without_a_handler_4_13_1_2),
        T(event_wait_and_throw_delivers_errors_it_waited_on_table_34),
        T(queue_released_from_its_own_handler_stays_one_release_4_13_1_1),
        T(release_of_context_gives_its_errors_to_its_handler_4_13_1_1),
        T(event_wait_and_throw_serves_every_queue_of_its_context_table_34),
        T(a_bundle_never_disables_the_kernels_of_a_live_bundle_4_11_6),
        T(error_on_buffer_destruction_reaches_the_async_handler_4_7_2_3),
        T(wait_blocked_by_own_host_accessor_is_a_deadlock_error_4_7_6_10),
        T(buffer_release_blocked_by_own_host_accessor_says_so_4_7_2_3),
        T(event_wait_for_times_out_without_cancelling),
        T(command_group_with_only_dependencies_is_a_barrier_4_9_3),
        T(kernel_object_ignores_use_kernel_bundle_4_9_4_2),
        T(copy_destination_may_be_larger_than_source_4_9_4_3),
        T(ranged_accessors_require_the_whole_buffer_4_7_6_8),
        T(device_version_is_major_dot_minor_4_6_4_2),
        T(default_selector_scores_every_existing_device_table_14),
        T(none_handles_are_expressions_of_each_type),
        T(messages_name_the_call_made_and_no_missing_queue),
        T(kernel_compiler_build_log_is_complete_on_failure_and_success),
        T(listing_leaves_a_held_design_and_its_kernels_say_so_4_11_6),
    };
    /* AXL_TEST_ONLY=<name pattern>: one rule at a time. */
    if (getenv("AXL_TEST_ONLY"))
        cmocka_set_test_filter(getenv("AXL_TEST_ONLY"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
