/*
 * Buffers (spec 4.7.2): the synchronization rules of 4.7.2.3, properties
 * (4.7.2.2), sub-buffers, access-mode pairs, host accessors, copies and
 * fills, and where data moves.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axl_test.h"

/* ---- A host task that works on one buffer, optionally held at a gate ------ */

typedef struct task {
    axl_buffer buf;
    axl_access_mode mode;
    const axl_region *region;
    uint32_t flags;
    void *ptr;
    atomic_int *gate;
    atomic_int started, finished;
    int value;       /* written to every int of the range when it writes */
    int seen;        /* first int it saw */
    size_t count;    /* ints in the range */
} task;

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static axl_status task_fn(void *user)
{
    task *t = user;
    atomic_store(&t->started, 1);
    for (int i = 0; t->gate && !atomic_load(t->gate) && i < 10000; i++)
        sleep_ms(1);
    int *p = t->ptr;
    t->seen = p[0];
    if (t->mode & AXL_ACCESS_WRITE)
        for (size_t i = 0; i < t->count; i++)
            p[i] = t->value;
    atomic_store(&t->finished, 1);
    return AXL_SUCCESS;
}

static void task_cgf(axl_handler *h, void *user)
{
    task *t = user;
    axl_accessor a;
    axl_handler_require(h, t->buf, t->mode, t->region, t->flags, &a);
    axl_handler_host_ptr(h, a, &t->ptr);
    axl_handler_host_task(h, task_fn, t);
}

static axl_queue make_queue(uint32_t flags)
{
    axl_context none = AXL_NONE;
    axl_queue q;
    AXL_OK(axl_queue_create(none, axl_test_emu_device(), flags, NULL, &q));
    return q;
}

/* True if the flag becomes set within ms. */
static bool becomes_set(atomic_int *flag, int ms)
{
    for (int i = 0; i < ms; i++) {
        if (atomic_load(flag))
            return true;
        sleep_ms(1);
    }
    return atomic_load(flag) != 0;
}

static int ints[64];

static void *open_gate_later(void *gate)
{
    sleep_ms(50);
    atomic_store((atomic_int *)gate, 1);
    return NULL;
}

/* ---- 4.7.2.3 rule 1: size only ---------------------------------------------- */

static void rule_1_size_only_release_does_not_block(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    axl_buffer b;
    AXL_OK(axl_buffer_create(sizeof(int), axl_range_1d(16), NULL, &b));
    atomic_int gate = 0;
    task t = {.buf = b, .mode = AXL_ACCESS_WRITE, .gate = &gate, .value = 7,
              .count = 16};
    AXL_OK(axl_queue_submit(q, task_cgf, &t, NULL));
    AXL_OK(axl_buffer_release(b)); /* returns with the task still held */
    assert_false(atomic_load(&t.finished));
    assert_int_equal(axl_test_pool("buffer").in_use, 1); /* freed later */
    atomic_store(&gate, 1);
    AXL_OK(axl_queue_wait(q));
    assert_true(atomic_load(&t.finished));
    AXL_OK(axl_queue_release(q));
}

/* ---- 4.7.2.3 rule 2: host memory ------------------------------------------------ */

static void rule_2_initial_contents_are_copied_at_creation(void **state)
{
    (void)state;
    for (int i = 0; i < 16; i++)
        ints[i] = i;
    axl_buffer b;
    AXL_OK(axl_buffer_create_from(ints, sizeof(int), axl_range_1d(16), NULL,
                                  &b));
    ints[3] = 99; /* after creation: the buffer must not see it */
    axl_host_accessor ha;
    int *p;
    AXL_OK(axl_host_accessor_create(b, AXL_ACCESS_READ, NULL, 0, &ha,
                                    (void **)&p));
    assert_true(p != ints); /* a copy, from the allocator */
    assert_int_equal(p[3], 3);
    AXL_OK(axl_host_accessor_release(ha));
    AXL_OK(axl_buffer_release(b));
    assert_int_equal(ints[3], 99); /* never written: no write-back */
}

static void rule_2_release_blocks_then_writes_back(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    memset(ints, 0, sizeof ints);
    axl_buffer b;
    AXL_OK(axl_buffer_create_from(ints, sizeof(int), axl_range_1d(16), NULL,
                                  &b));
    atomic_int gate = 0;
    task t = {.buf = b, .mode = AXL_ACCESS_WRITE, .gate = &gate, .value = 42,
              .count = 16};
    AXL_OK(axl_queue_submit(q, task_cgf, &t, NULL));
    /* Another thread opens the gate later: the release below must block
     * until the writer is done, then write back. */
    pthread_t opener;
    assert_int_equal(pthread_create(&opener, NULL, open_gate_later, &gate), 0);
    AXL_OK(axl_buffer_release(b));
    pthread_join(opener, NULL);
    assert_true(atomic_load(&t.finished));
    for (int i = 0; i < 16; i++)
        assert_int_equal(ints[i], 42);
    assert_int_equal(axl_test_pool("buffer").in_use, 0);
    AXL_OK(axl_queue_release(q));
}

static void rule_2_no_write_back_without_a_write(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    for (int i = 0; i < 16; i++)
        ints[i] = i;
    axl_buffer b;
    AXL_OK(axl_buffer_create_from(ints, sizeof(int), axl_range_1d(16), NULL,
                                  &b));
    task t = {.buf = b, .mode = AXL_ACCESS_READ, .count = 16};
    AXL_OK(axl_queue_submit(q, task_cgf, &t, NULL));
    ints[0] = -1; /* would be overwritten by a write-back */
    AXL_OK(axl_buffer_release(b));
    assert_int_equal(t.seen, 0);
    assert_int_equal(ints[0], -1);
    AXL_OK(axl_queue_release(q));
}

/* ---- 4.7.2.3 rule 2.1: const host memory ------------------------------------------ */

static void write_cgf(axl_handler *h, void *user)
{
    axl_accessor a;
    axl_handler_require(h, *(axl_buffer *)user, AXL_ACCESS_WRITE, NULL, 0, &a);
    int v = 1;
    axl_handler_fill(h, a, &v, sizeof v);
}

/* C's `const void *` is rule 2.2 of 4.7.2.3 (the pointer is const, not
 * the data): read-only on the host only. A command may write (Table 38),
 * and nothing is written back to the const memory. Before issue 16 this
 * test stated rule 2.1 (every write refused). */
static void rule_2_2_const_data_is_read_only_on_the_host(void **state)
{
    (void)state;
    static const int data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    axl_queue q = make_queue(0);
    axl_buffer b;
    AXL_OK(axl_buffer_create_from_const(data, sizeof(int), axl_range_1d(8),
                                        NULL, &b));
    axl_event e = {123};
    axl_host_accessor ha;
    void *p;
    AXL_EXPECT(axl_host_accessor_create(b, AXL_ACCESS_READ_WRITE, NULL, 0,
                                        &ha, &p),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("read-only on the host");
    assert_int_equal(axl_test_pool("command").in_use, 0);
    /* Reads work, and see the data. */
    int out[8];
    AXL_OK(axl_queue_copy_to_host(q, b, NULL, out, NULL, 0, &e));
    AXL_OK(axl_event_wait(e));
    assert_memory_equal(out, data, sizeof data);
    AXL_OK(axl_event_release(e));
    /* A command's write is allowed; the const memory is left alone. */
    AXL_OK(axl_queue_submit(q, write_cgf, &b, &e));
    AXL_OK(axl_event_wait(e));
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_queue_copy_to_host(q, b, NULL, out, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q));
    assert_int_equal(out[0], 1);
    assert_int_equal(out[7], 1);
    AXL_OK(axl_buffer_release(b));
    assert_int_equal(data[1], 2);
    /* With use_host_ptr the const memory is the host copy: a command that
     * writes is refused (the departure docs/design.md explains). */
    axl_buffer_props direct = {.flags = AXL_BUFFER_USE_HOST_PTR};
    AXL_OK(axl_buffer_create_from_const(data, sizeof(int), axl_range_1d(8),
                                        &direct, &b));
    e.id = 123;
    AXL_EXPECT(axl_queue_submit(q, write_cgf, &b, &e), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("use_host_ptr");
    assert_int_equal(e.id, 123);
    AXL_OK(axl_buffer_release(b));
    AXL_OK(axl_queue_release(q));
}

static void rule_2_1_const_data_release_waits_for_readers(void **state)
{
    (void)state;
    static const int data[8] = {5, 5, 5, 5, 5, 5, 5, 5};
    axl_queue q = make_queue(0);
    axl_buffer b;
    AXL_OK(axl_buffer_create_from_const(data, sizeof(int), axl_range_1d(8),
                                        NULL, &b));
    atomic_int gate = 1;
    task t = {.buf = b, .mode = AXL_ACCESS_READ, .gate = &gate, .count = 8};
    AXL_OK(axl_queue_submit(q, task_cgf, &t, NULL));
    AXL_OK(axl_buffer_release(b));
    assert_true(atomic_load(&t.finished)); /* blocked until the read ended */
    assert_int_equal(t.seen, 5);
    AXL_OK(axl_queue_release(q));
}

/* ---- set_final_data and set_write_back (4.7.2.1, 4.7.2.3) --------------------------- */

static void final_data_redirects_write_back(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    int src[8] = {0}, other[8] = {0};
    axl_buffer b;
    AXL_OK(axl_buffer_create_from(src, sizeof(int), axl_range_1d(8), NULL, &b));
    AXL_OK(axl_buffer_set_final_data(b, other));
    task t = {.buf = b, .mode = AXL_ACCESS_WRITE, .value = 3, .count = 8};
    AXL_OK(axl_queue_submit(q, task_cgf, &t, NULL));
    AXL_OK(axl_buffer_release(b));
    for (int i = 0; i < 8; i++) {
        assert_int_equal(other[i], 3);
        assert_int_equal(src[i], 0);
    }
    AXL_OK(axl_queue_release(q));
}

static void final_data_null_turns_write_back_off(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    int src[8] = {0};
    axl_buffer b;
    AXL_OK(axl_buffer_create_from(src, sizeof(int), axl_range_1d(8), NULL, &b));
    AXL_OK(axl_buffer_set_final_data(b, NULL));
    task t = {.buf = b, .mode = AXL_ACCESS_WRITE, .value = 3, .count = 8};
    AXL_OK(axl_queue_submit(q, task_cgf, &t, NULL));
    AXL_OK(axl_queue_wait(q));
    AXL_OK(axl_buffer_release(b));
    assert_int_equal(src[0], 0);
    AXL_OK(axl_queue_release(q));
}

static void set_write_back_switches_it(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    int src[8] = {0};
    axl_buffer b;
    AXL_OK(axl_buffer_create_from(src, sizeof(int), axl_range_1d(8), NULL, &b));
    AXL_OK(axl_buffer_set_write_back(b, false));
    task t = {.buf = b, .mode = AXL_ACCESS_WRITE, .value = 4, .count = 8};
    AXL_OK(axl_queue_submit(q, task_cgf, &t, NULL));
    AXL_OK(axl_queue_wait(q));
    AXL_OK(axl_buffer_release(b));
    assert_int_equal(src[0], 0);

    AXL_OK(axl_buffer_create_from(src, sizeof(int), axl_range_1d(8), NULL, &b));
    AXL_OK(axl_buffer_set_write_back(b, false));
    AXL_OK(axl_buffer_set_write_back(b, true));
    t = (task){.buf = b, .mode = AXL_ACCESS_WRITE, .value = 5, .count = 8};
    AXL_OK(axl_queue_submit(q, task_cgf, &t, NULL));
    AXL_OK(axl_buffer_release(b));
    assert_int_equal(src[0], 5);
    AXL_OK(axl_queue_release(q));
}

static void size_only_buffer_with_final_data_blocks_and_writes_back(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    int dst[8] = {0};
    axl_buffer b;
    AXL_OK(axl_buffer_create(sizeof(int), axl_range_1d(8), NULL, &b));
    AXL_OK(axl_buffer_set_write_back(b, true)); /* nowhere to go: no effect */
    AXL_OK(axl_buffer_set_final_data(b, dst));
    atomic_int gate = 1;
    task t = {.buf = b, .mode = AXL_ACCESS_WRITE, .gate = &gate, .value = 6,
              .count = 8};
    AXL_OK(axl_queue_submit(q, task_cgf, &t, NULL));
    AXL_OK(axl_buffer_release(b));
    assert_true(atomic_load(&t.finished));
    assert_int_equal(dst[7], 6);
    AXL_OK(axl_queue_release(q));
}

/* ---- Properties (4.7.2.2) --------------------------------------------------------- */

static void use_host_ptr_host_accessor_points_into_host_memory_4_7_2_2(void **state)
{
    (void)state;
    int data[16];
    for (int i = 0; i < 16; i++)
        data[i] = i;
    axl_buffer_props props = {.flags = AXL_BUFFER_USE_HOST_PTR};
    axl_buffer b;
    AXL_OK(axl_buffer_create_from(data, sizeof(int), axl_range_1d(16), &props,
                                  &b));
    axl_region r = {{4, 0, 0}, {8, 1, 1}};
    axl_host_accessor ha;
    int *p;
    AXL_OK(axl_host_accessor_create(b, AXL_ACCESS_READ_WRITE, &r, 0, &ha,
                                    (void **)&p));
    assert_ptr_equal(p, &data[4]);
    p[0] = 100;
    AXL_OK(axl_host_accessor_release(ha));
    AXL_OK(axl_buffer_release(b));
    assert_int_equal(data[4], 100);
    assert_int_equal(axl_test_pool("buffer").in_use, 0);
}

static int mutex_depth, mutex_locks, mutex_max;
static void m_lock(void *u)
{
    (void)u;
    mutex_locks++;
    if (++mutex_depth > mutex_max)
        mutex_max = mutex_depth;
}
static void m_unlock(void *u)
{
    (void)u;
    mutex_depth--;
}

static void use_mutex_is_held_while_the_runtime_uses_the_memory(void **state)
{
    (void)state;
    mutex_depth = mutex_locks = mutex_max = 0;
    int data[16] = {0};
    axl_buffer_mutex m = {m_lock, m_unlock, NULL};
    axl_buffer_props props = {.flags = AXL_BUFFER_USE_MUTEX, .mutex = &m};
    axl_buffer b;
    AXL_OK(axl_buffer_create_from(data, sizeof(int), axl_range_1d(16), &props,
                                  &b));
    axl_queue q = make_queue(AXL_QUEUE_IN_ORDER);
    int v = 9;
    AXL_OK(axl_queue_fill(q, b, NULL, &v, sizeof v, NULL, 0, NULL));
    int out[16];
    AXL_OK(axl_queue_copy_to_host(q, b, NULL, out, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q));
    assert_true(mutex_locks >= 2);
    assert_int_equal(mutex_depth, 0); /* unlocked when not in use */
    assert_int_equal(mutex_max, 1);
    assert_int_equal(out[15], 9);
    assert_int_equal(data[15], 9); /* it works in the shared memory */
    AXL_OK(axl_buffer_release(b));
    assert_int_equal(mutex_depth, 0);
    AXL_OK(axl_queue_release(q));
    axl_buffer_props bad = {.flags = AXL_BUFFER_USE_MUTEX, .mutex = NULL};
    AXL_EXPECT(axl_buffer_create_from(data, sizeof(int), axl_range_1d(16),
                                      &bad, &b),
               AXL_ERR_INVALID);
}

static void context_bound_buffer_refuses_another_context_4_7_2_2(void **state)
{
    (void)state;
    axl_device d = axl_test_emu_device();
    axl_context c1, c2;
    AXL_OK(axl_context_create(&d, 1, NULL, &c1));
    AXL_OK(axl_context_create(&d, 1, NULL, &c2));
    axl_buffer_props props = {.flags = AXL_BUFFER_CONTEXT_BOUND, .context = c1};
    axl_buffer b;
    AXL_OK(axl_buffer_create(sizeof(int), axl_range_1d(4), &props, &b));
    axl_queue q1, q2;
    AXL_OK(axl_queue_create(c1, d, 0, NULL, &q1));
    AXL_OK(axl_queue_create(c2, d, 0, NULL, &q2));
    int v = 1;
    axl_event e;
    AXL_EXPECT(axl_queue_fill(q2, b, NULL, &v, sizeof v, NULL, 0, &e),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("context_bound");
    AXL_OK(axl_queue_fill(q1, b, NULL, &v, sizeof v, NULL, 0, &e));
    AXL_OK(axl_event_wait(e));
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_buffer_release(b));
    AXL_OK(axl_queue_release(q1));
    AXL_OK(axl_queue_release(q2));
    AXL_OK(axl_context_release(c1));
    AXL_OK(axl_context_release(c2));
}

/* ---- Sub-buffers (4.7.2.1, 4.7.2.3) ------------------------------------------------ */

static void sub_buffer_rules_follow_the_spec_example_4_7_2_3(void **state)
{
    (void)state;
    axl_buffer parent, s;
    AXL_OK(axl_buffer_create(sizeof(int), axl_range_2d(8, 8), NULL, &parent));
    size_t o20[3] = {2, 0, 0}, o22[3] = {2, 2, 0};
    AXL_OK(axl_buffer_create_sub(parent, o20, axl_range_2d(2, 8), &s));
    bool is_sub = false;
    AXL_OK(axl_buffer_is_sub_buffer(s, &is_sub));
    assert_true(is_sub);
    size_t bytes;
    AXL_OK(axl_buffer_get_byte_size(s, &bytes));
    assert_int_equal(bytes, 2 * 8 * sizeof(int));
    axl_buffer bad = {77};
    AXL_EXPECT(axl_buffer_create_sub(parent, o20, axl_range_2d(2, 2), &bad),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("not contiguous");
    AXL_EXPECT(axl_buffer_create_sub(parent, o22, axl_range_2d(2, 6), &bad),
               AXL_ERR_INVALID);
    AXL_EXPECT(axl_buffer_create_sub(parent, o22, axl_range_2d(2, 8), &bad),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("out of bounds");
    size_t o0[3] = {0, 0, 0};
    AXL_EXPECT(axl_buffer_create_sub(s, o0, axl_range_2d(1, 8), &bad),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("not from a sub-buffer");
    assert_int_equal(bad.id, 77);
    /* The parent outlives its sub-buffer's handle order. */
    AXL_OK(axl_buffer_release(parent));
    assert_int_equal(axl_test_pool("buffer").in_use, 2);
    AXL_OK(axl_buffer_release(s));
    assert_int_equal(axl_test_pool("buffer").in_use, 0);
}

static void disjoint_sub_buffers_do_not_order_overlapping_ones_do(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    axl_buffer base, lo, hi, mid;
    AXL_OK(axl_buffer_create(sizeof(int), axl_range_1d(2048), NULL, &base));
    size_t o0[3] = {0}, o1[3] = {1024}, o5[3] = {512};
    AXL_OK(axl_buffer_create_sub(base, o0, axl_range_1d(1024), &lo));
    AXL_OK(axl_buffer_create_sub(base, o1, axl_range_1d(1024), &hi));
    AXL_OK(axl_buffer_create_sub(base, o5, axl_range_1d(1024), &mid));
    atomic_int gate = 0;
    task a = {.buf = lo, .mode = AXL_ACCESS_WRITE, .gate = &gate, .value = 1,
              .count = 1024};
    task b = {.buf = hi, .mode = AXL_ACCESS_WRITE, .value = 2, .count = 1024};
    task c = {.buf = mid, .mode = AXL_ACCESS_READ, .count = 1024};
    AXL_OK(axl_queue_submit(q, task_cgf, &a, NULL));
    AXL_OK(axl_queue_submit(q, task_cgf, &b, NULL));
    AXL_OK(axl_queue_submit(q, task_cgf, &c, NULL));
    /* b writes elsewhere: it finishes while a is held. c overlaps a. */
    assert_true(becomes_set(&b.finished, 5000));
    assert_false(becomes_set(&c.started, 100));
    atomic_store(&gate, 1);
    AXL_OK(axl_queue_wait(q));
    assert_int_equal(c.seen, 1); /* mid starts inside lo, after a wrote */
    AXL_OK(axl_buffer_release(lo));
    AXL_OK(axl_buffer_release(hi));
    AXL_OK(axl_buffer_release(mid));
    AXL_OK(axl_buffer_release(base));
    AXL_OK(axl_queue_release(q));
}

/* ---- Access-mode pairs (3.7.1, 4.7.2.3): the second waits iff one writes ---- */

static void check_pair(axl_access_mode first, axl_access_mode second)
{
    axl_queue q = make_queue(0);
    axl_buffer b;
    AXL_OK(axl_buffer_create(sizeof(int), axl_range_1d(16), NULL, &b));
    atomic_int gate = 0;
    task t1 = {.buf = b, .mode = first, .gate = &gate, .value = 1, .count = 16};
    task t2 = {.buf = b, .mode = second, .value = 2, .count = 16};
    AXL_OK(axl_queue_submit(q, task_cgf, &t1, NULL));
    assert_true(becomes_set(&t1.started, 5000));
    AXL_OK(axl_queue_submit(q, task_cgf, &t2, NULL));
    bool ordered = (first & AXL_ACCESS_WRITE) || (second & AXL_ACCESS_WRITE);
    if (ordered) {
        assert_false(becomes_set(&t2.started, 100));
    } else {
        assert_true(becomes_set(&t2.finished, 5000));
        assert_false(atomic_load(&t1.finished));
    }
    atomic_store(&gate, 1);
    AXL_OK(axl_queue_wait(q));
    AXL_OK(axl_buffer_release(b));
    AXL_OK(axl_queue_release(q));
}

static void read_after_read_does_not_order(void **s)
{
    (void)s;
    check_pair(AXL_ACCESS_READ, AXL_ACCESS_READ);
}
static void read_after_write_orders(void **s)
{
    (void)s;
    check_pair(AXL_ACCESS_WRITE, AXL_ACCESS_READ);
}
static void write_after_read_orders(void **s)
{
    (void)s;
    check_pair(AXL_ACCESS_READ, AXL_ACCESS_WRITE);
}
static void write_after_write_orders(void **s)
{
    (void)s;
    check_pair(AXL_ACCESS_WRITE, AXL_ACCESS_WRITE);
}
static void read_write_pairs_order(void **s)
{
    (void)s;
    check_pair(AXL_ACCESS_READ_WRITE, AXL_ACCESS_READ);
    check_pair(AXL_ACCESS_READ, AXL_ACCESS_READ_WRITE);
    check_pair(AXL_ACCESS_READ_WRITE, AXL_ACCESS_READ_WRITE);
    check_pair(AXL_ACCESS_WRITE, AXL_ACCESS_READ_WRITE);
    check_pair(AXL_ACCESS_READ_WRITE, AXL_ACCESS_WRITE);
}

/* ---- Accessors out of range and other synchronous errors ------------------------------ */

static void bad_range_cgf(axl_handler *h, void *user)
{
    axl_region r = {{10, 0, 0}, {10, 1, 1}}; /* 10 + 10 > 16 */
    axl_accessor a;
    axl_handler_require(h, *(axl_buffer *)user, AXL_ACCESS_READ, &r, 0, &a);
    axl_handler_update_host(h, a);
}

static void accessor_outside_its_buffer_is_invalid_at_submit(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    axl_buffer b;
    AXL_OK(axl_buffer_create(sizeof(int), axl_range_1d(16), NULL, &b));
    axl_event e = {5};
    AXL_EXPECT(axl_queue_submit(q, bad_range_cgf, &b, &e), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("outside the buffer");
    assert_int_equal(e.id, 5);
    assert_int_equal(axl_test_pool("command").in_use, 0);
    AXL_OK(axl_buffer_release(b));
    assert_int_equal(axl_test_pool("buffer").in_use, 0);
    AXL_OK(axl_queue_release(q));
}

static void unnamed_accessor_cgf(axl_handler *h, void *user)
{
    (void)user;
    axl_accessor none = {3};
    axl_handler_update_host(h, none);
}

static void accessor_not_required_is_an_accessor_error(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    AXL_EXPECT(axl_queue_submit(q, unnamed_accessor_cgf, NULL, NULL),
               AXL_ERR_ACCESSOR);
    AXL_OK(axl_queue_release(q));
}

/* ---- Copies, fills, update_host (4.6.5.2 shortcuts) --------------------------------- */

static void copy_fill_and_update_host_move_the_right_bytes(void **state)
{
    (void)state;
    axl_queue q = make_queue(AXL_QUEUE_IN_ORDER);
    int grid[6][5];
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 5; j++)
            grid[i][j] = i * 10 + j;
    axl_buffer a, b;
    AXL_OK(axl_buffer_create_from(grid, sizeof(int), axl_range_2d(6, 5), NULL,
                                  &a));
    AXL_OK(axl_buffer_create(sizeof(int), axl_range_2d(6, 5), NULL, &b));
    int zero = 0;
    AXL_OK(axl_queue_fill(q, b, NULL, &zero, sizeof zero, NULL, 0, NULL));
    /* A 3x2 window of a, packed out, then into b at another place. */
    axl_region win = {{1, 2, 0}, {3, 2, 1}};
    int packed[6];
    AXL_OK(axl_queue_copy_to_host(q, a, &win, packed, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q));
    int want[6] = {12, 13, 22, 23, 32, 33};
    assert_memory_equal(packed, want, sizeof want);
    axl_region at = {{3, 0, 0}, {3, 2, 1}};
    AXL_OK(axl_queue_copy_from_host(q, packed, b, &at, NULL, 0, NULL));
    /* accessor to accessor: a's row 5 into b's row 0 */
    axl_region row5 = {{5, 0, 0}, {1, 5, 1}}, row0 = {{0, 0, 0}, {1, 5, 1}};
    AXL_OK(axl_queue_copy(q, a, &row5, b, &row0, NULL, 0, NULL));
    int seven = 7;
    axl_region cell = {{2, 4, 0}, {1, 1, 1}};
    AXL_OK(axl_queue_fill(q, b, &cell, &seven, sizeof seven, NULL, 0, NULL));
    AXL_OK(axl_queue_update_host(q, b, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q));
    axl_host_accessor ha;
    int *p;
    AXL_OK(axl_host_accessor_create(b, AXL_ACCESS_READ, NULL, 0, &ha,
                                    (void **)&p));
    int expect[6][5] = {{50, 51, 52, 53, 54}, {0, 0, 0, 0, 0},
                        {0, 0, 0, 0, 7},      {12, 13, 0, 0, 0},
                        {22, 23, 0, 0, 0},    {32, 33, 0, 0, 0}};
    assert_memory_equal(p, expect, sizeof expect);
    AXL_OK(axl_host_accessor_release(ha));
    axl_event e;
    AXL_EXPECT(axl_queue_fill(q, b, NULL, &seven, 2, NULL, 0, &e),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("one element");
    /* 4.9.4.3: the destination must have at least the source's bytes
     * (before issue 16, exactly as many): 6 elements into 5 is invalid. */
    AXL_EXPECT(axl_queue_copy(q, b, &win, a, &row5, NULL, 0, &e),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("at least");
    AXL_OK(axl_buffer_release(a));
    AXL_OK(axl_buffer_release(b));
    AXL_OK(axl_queue_release(q));
}

/* ---- Host accessors ------------------------------------------------------------------- */

static void host_accessor_waits_for_writers_and_holds_back_conflicts(void **state)
{
    (void)state;
    axl_queue q = make_queue(0);
    axl_buffer b;
    AXL_OK(axl_buffer_create(sizeof(int), axl_range_1d(16), NULL, &b));
    task w = {.buf = b, .mode = AXL_ACCESS_WRITE, .value = 11, .count = 16};
    AXL_OK(axl_queue_submit(q, task_cgf, &w, NULL));
    axl_host_accessor ha;
    int *p;
    AXL_OK(axl_host_accessor_create(b, AXL_ACCESS_READ_WRITE, NULL, 0, &ha,
                                    (void **)&p));
    assert_true(atomic_load(&w.finished)); /* it waited for the writer */
    assert_int_equal(p[0], 11);
    p[0] = 12;
    task r = {.buf = b, .mode = AXL_ACCESS_READ, .count = 16};
    AXL_OK(axl_queue_submit(q, task_cgf, &r, NULL));
    assert_false(becomes_set(&r.started, 100)); /* conflicts: waits */
    /* A read host accessor next to a read command does not conflict. */
    AXL_OK(axl_host_accessor_release(ha));
    AXL_OK(axl_queue_wait(q));
    assert_int_equal(r.seen, 12);
    axl_host_accessor h1, h2;
    void *p1, *p2;
    AXL_OK(axl_host_accessor_create(b, AXL_ACCESS_READ, NULL, 0, &h1, &p1));
    AXL_OK(axl_host_accessor_create(b, AXL_ACCESS_READ, NULL, 0, &h2, &p2));
    task r2 = {.buf = b, .mode = AXL_ACCESS_READ, .count = 16};
    AXL_OK(axl_queue_submit(q, task_cgf, &r2, NULL));
    AXL_OK(axl_queue_wait(q)); /* reads never wait for reads */
    assert_true(atomic_load(&r2.finished));
    AXL_OK(axl_host_accessor_release(h1));
    AXL_OK(axl_host_accessor_release(h2));
    AXL_EXPECT(axl_host_accessor_release(h2), AXL_ERR_INVALID_OBJECT);
    AXL_OK(axl_buffer_release(b));
    AXL_OK(axl_queue_release(q));
}

/* ---- Allocators (4.7.1, seed 002) ---------------------------------------------------- */

typedef struct counting_alloc {
    int calls, frees, fail_at; /* fail_at: the nth call (1-based) fails */
    size_t live;
} counting_alloc;

static void *ca_allocate(size_t size, size_t align, void *user)
{
    counting_alloc *a = user;
    if (++a->calls == a->fail_at)
        return NULL;
    void *p = aligned_alloc(align, (size + align - 1) / align * align);
    if (p)
        a->live++;
    return p;
}

static void ca_deallocate(void *ptr, size_t size, void *user)
{
    (void)size;
    counting_alloc *a = user;
    a->frees++;
    a->live--;
    free(ptr);
}

/* A short program that needs host storage at several steps. Returns the
 * first failure, and always cleans up. */
static axl_status allocating_program(counting_alloc *ca, int *data)
{
    axl_allocator al = {ca_allocate, ca_deallocate, ca};
    axl_buffer_props props = {.allocator = &al};
    axl_buffer a, b;
    axl_status st = axl_buffer_create_from(data, sizeof(int), axl_range_1d(8),
                                           &props, &a);
    if (st != AXL_SUCCESS)
        return st;
    st = axl_buffer_create(sizeof(int), axl_range_1d(8), &props, &b);
    if (st != AXL_SUCCESS) {
        axl_buffer_release(a);
        return st;
    }
    axl_queue q = make_queue(AXL_QUEUE_IN_ORDER);
    axl_event e;
    st = axl_queue_copy(q, a, NULL, b, NULL, NULL, 0, &e);
    if (st == AXL_SUCCESS) {
        st = axl_event_wait(e);
        axl_event_release(e);
    }
    axl_queue_release(q);
    axl_buffer_release(a);
    axl_buffer_release(b);
    return st;
}

static void allocator_failing_at_every_step_changes_nothing_4_7_1(void **state)
{
    (void)state;
    int data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    counting_alloc probe = {0};
    AXL_OK(allocating_program(&probe, data));
    assert_true(probe.calls >= 2);
    assert_int_equal(probe.live, 0);
    for (int n = 1; n <= probe.calls; n++) {
        counting_alloc ca = {.fail_at = n};
        axl_status st = allocating_program(&ca, data);
        assert_int_equal(st, AXL_ERR_MEMORY_ALLOCATION);
        assert_int_equal(axl_status_errc(st), AXL_ERRC_MEMORY_ALLOCATION);
        assert_int_equal(ca.live, 0); /* everything given back */
        assert_int_equal(axl_test_pool("buffer").in_use, 0);
        assert_int_equal(axl_test_pool("command").in_use, 0);
        assert_int_equal(axl_test_pool("event").in_use, 0);
        for (int i = 0; i < 8; i++)
            assert_int_equal(data[i], i + 1); /* nothing half-written */
    }
}

static int free_after_release;
static void *late_allocate(size_t size, size_t align, void *user)
{
    (void)user;
    return aligned_alloc(align, (size + align - 1) / align * align);
}
static void late_deallocate(void *ptr, size_t size, void *user)
{
    (void)size;
    free(ptr);
    __atomic_store_n((int *)user, 1, __ATOMIC_RELEASE);
}

static void allocator_may_be_called_after_the_last_release_seed_002(void **state)
{
    (void)state;
    free_after_release = 0;
    axl_allocator al = {late_allocate, late_deallocate, &free_after_release};
    axl_buffer_props props = {.allocator = &al};
    axl_buffer b;
    AXL_OK(axl_buffer_create(sizeof(int), axl_range_1d(8), &props, &b));
    axl_queue q = make_queue(0);
    atomic_int gate = 0;
    task t = {.buf = b, .mode = AXL_ACCESS_WRITE, .gate = &gate, .value = 1,
              .count = 8};
    AXL_OK(axl_queue_submit(q, task_cgf, &t, NULL));
    AXL_OK(axl_buffer_release(b)); /* size only: does not wait */
    assert_int_equal(free_after_release, 0);
    atomic_store(&gate, 1);
    AXL_OK(axl_queue_wait(q));
    AXL_OK(axl_queue_release(q));
    /* Freed once the command let go, on whichever thread saw that. */
    for (int i = 0; i < 5000 && !__atomic_load_n(&free_after_release,
                                                 __ATOMIC_ACQUIRE); i++)
        sleep_ms(1);
    assert_int_equal(free_after_release, 1);
}

static void default_arena_full_is_memory_allocation(void **state)
{
    (void)state;
    axl_pool_stats arena = axl_test_pool("buffer");
    (void)arena;
    /* Bigger than the whole static arena. */
    static unsigned char huge[1];
    axl_buffer b = {3};
    AXL_EXPECT(axl_buffer_create_from(huge, 1, axl_range_1d((size_t)1 << 40),
                                      NULL, &b),
               AXL_ERR_MEMORY_ALLOCATION);
    AXL_MESSAGE_HAS("AXL_HOST_ARENA_SIZE");
    assert_int_equal(b.id, 3);
}

/* ---- Device storage and data movement ------------------------------------------------- */

static axl_device fake_device(void)
{
    axl_aspect emulated = AXL_ASPECT_EMULATED;
    axl_aspect_list hw = {NULL, 0, &emulated, 1};
    axl_device d;
    AXL_OK(axl_device_select(axl_aspect_selector, &hw, &d));
    return d;
}

static void data_moves_only_when_needed(void **state)
{
    (void)state;
    fake_config = (fake_port_config){.devices = 1, .flags = AXL_HAL_DEVICE_AVAILABLE};
    AXL_OK(axl_device_port_register(&fake_port));
    axl_device dev = fake_device();
    axl_context none = AXL_NONE;
    axl_queue q;
    AXL_OK(axl_queue_create(none, dev, AXL_QUEUE_IN_ORDER, NULL, &q));
    int data[256];
    for (int i = 0; i < 256; i++)
        data[i] = i;
    axl_buffer b;
    AXL_OK(axl_buffer_create_from(data, sizeof(int), axl_range_1d(256), NULL,
                                  &b));
    AXL_OK(axl_buffer_place(b, dev, 0));
    assert_int_equal(fake_mem.allocs, 1);
    assert_int_equal(fake_mem.writes, 0); /* placing moves nothing */

    /* A partial write while the data is on the host: done on the host,
     * nothing moved to the device. */
    int five[4] = {5, 5, 5, 5};
    axl_region r = {{8, 0, 0}, {4, 1, 1}};
    AXL_OK(axl_queue_copy_from_host(q, five, b, &r, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q));
    assert_int_equal(fake_mem.writes, 0);

    /* A write-only copy of the whole buffer goes to the device copy, with
     * no copy in first. */
    int ones[256];
    for (int i = 0; i < 256; i++)
        ones[i] = 1;
    AXL_OK(axl_queue_copy_from_host(q, ones, b, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q));
    assert_int_equal(fake_mem.writes, 1);
    assert_int_equal(fake_mem.bytes_written, sizeof ones);

    /* Now partial writes and reads happen on the device, and a region read
     * goes straight from the device into the application's memory. */
    AXL_OK(axl_queue_copy_from_host(q, five, b, &r, NULL, 0, NULL));
    int out[4];
    AXL_OK(axl_queue_copy_to_host(q, b, &r, out, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q));
    assert_memory_equal(out, five, sizeof five);
    assert_int_equal(fake_mem.writes, 2);
    assert_int_equal(fake_mem.bytes_written, sizeof ones + sizeof five);
    assert_int_equal(fake_mem.reads, 1);
    assert_int_equal(fake_mem.bytes_read, sizeof five);

    /* A whole-buffer fill stays on the device too. */
    int nine = 9;
    AXL_OK(axl_queue_fill(q, b, NULL, &nine, sizeof nine, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q));
    uint32_t writes_after_fill = fake_mem.writes;
    assert_int_equal(fake_mem.bytes_written, 2 * sizeof ones + sizeof five);
    assert_int_equal(fake_mem.reads, 1);

    /* The host reads: one copy back. A second host read: none. */
    axl_host_accessor ha;
    int *p;
    AXL_OK(axl_host_accessor_create(b, AXL_ACCESS_READ, NULL, 0, &ha,
                                    (void **)&p));
    assert_int_equal(p[100], 9);
    AXL_OK(axl_host_accessor_release(ha));
    assert_int_equal(fake_mem.reads, 2);
    AXL_OK(axl_host_accessor_create(b, AXL_ACCESS_READ, NULL, 0, &ha,
                                    (void **)&p));
    AXL_OK(axl_host_accessor_release(ha));
    assert_int_equal(fake_mem.reads, 2);
    assert_int_equal(fake_mem.writes, writes_after_fill);

    /* no_init on the whole buffer: nothing copied in for the write. */
    AXL_OK(axl_host_accessor_create(b, AXL_ACCESS_WRITE, NULL,
                                    AXL_ACCESS_NO_INIT, &ha, (void **)&p));
    for (int i = 0; i < 256; i++)
        p[i] = -i;
    AXL_OK(axl_host_accessor_release(ha));
    AXL_OK(axl_queue_copy_to_host(q, b, &r, out, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q));
    assert_int_equal(out[0], -8); /* read where the data is: the host */
    assert_int_equal(fake_mem.reads, 2);

    /* Released: written back from wherever the current data is. */
    AXL_OK(axl_buffer_release(b));
    assert_int_equal(data[255], -255);
    assert_int_equal(fake_mem.frees, 1);
    AXL_OK(axl_queue_release(q));
}

static void prefetch_write_cgf(axl_handler *h, void *user)
{
    axl_accessor a;
    axl_handler_require(h, *(const axl_buffer *)user, AXL_ACCESS_READ_WRITE,
                        NULL, 0, &a);
    axl_handler_prefetch(h, a);
}

/* prefetch (the transfer update_host is the reverse of): a command of its
 * own that moves a buffer's contents to the queue's device, so the host
 * can start the next input's transfer while a kernel runs; the scheduler
 * then knows the contents are there, and the host copy stays valid. */
static void prefetch_moves_contents_to_the_device_ahead_of_use(void **state)
{
    (void)state;
    fake_config = (fake_port_config){.devices = 1, .flags = AXL_HAL_DEVICE_AVAILABLE};
    AXL_OK(axl_device_port_register(&fake_port));
    axl_device dev = fake_device();
    axl_context none = AXL_NONE;
    axl_queue q;
    AXL_OK(axl_queue_create(none, dev, AXL_QUEUE_IN_ORDER, NULL, &q));
    int data[256];
    for (int i = 0; i < 256; i++)
        data[i] = i;
    axl_buffer b;
    AXL_OK(axl_buffer_create_from(data, sizeof(int), axl_range_1d(256), NULL,
                                  &b));
    axl_event e;
    AXL_OK(axl_queue_prefetch(q, b, NULL, NULL, 0, &e));
    AXL_OK(axl_event_wait(e));
    AXL_OK(axl_event_release(e));
    assert_int_equal(fake_mem.allocs, 1);
    assert_int_equal(fake_mem.writes, 1);
    assert_int_equal(fake_mem.bytes_written, sizeof data);
    /* Already there: a second one moves nothing. */
    AXL_OK(axl_queue_prefetch(q, b, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q));
    assert_int_equal(fake_mem.writes, 1);
    /* A read is served from the device copy, which is current... */
    int out[4];
    axl_region r = {{8, 0, 0}, {4, 1, 1}};
    AXL_OK(axl_queue_copy_to_host(q, b, &r, out, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q));
    assert_int_equal(fake_mem.reads, 1);
    assert_int_equal(out[0], 8);
    /* ...and the host copy stayed valid: a host read moves nothing. */
    axl_host_accessor ha;
    int *p;
    AXL_OK(axl_host_accessor_create(b, AXL_ACCESS_READ, NULL, 0, &ha,
                                    (void **)&p));
    assert_int_equal(p[255], 255);
    AXL_OK(axl_host_accessor_release(ha));
    assert_int_equal(fake_mem.reads, 1);
    /* Only through a read-only accessor: nothing is submitted otherwise. */
    AXL_EXPECT(axl_queue_submit(q, prefetch_write_cgf, &b, NULL),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("accessor 1 is not read-only");
    assert_int_equal(axl_test_pool("command").in_use, 0);
    AXL_OK(axl_buffer_release(b));
    AXL_OK(axl_queue_release(q));
}

static void out_of_device_memory_is_memory_allocation_and_loses_nothing(void **state)
{
    (void)state;
    fake_config = (fake_port_config){.devices = 1, .flags = AXL_HAL_DEVICE_AVAILABLE};
    AXL_OK(axl_device_port_register(&fake_port));
    axl_device dev = fake_device();
    int data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    axl_buffer b;
    AXL_OK(axl_buffer_create_from(data, sizeof(int), axl_range_1d(8), NULL, &b));
    fake_mem.fail_alloc_after = 1;
    AXL_EXPECT(axl_buffer_place(b, dev, 0), AXL_ERR_MEMORY_ALLOCATION);
    AXL_MESSAGE_HAS("out of device memory");
    fake_mem.fail_alloc_after = 0;
    axl_buffer huge;
    AXL_OK(axl_buffer_create(1, axl_range_1d(4u << 20), NULL, &huge));
    AXL_EXPECT(axl_buffer_place(huge, dev, 0), AXL_ERR_MEMORY_ALLOCATION);
    AXL_EXPECT(axl_buffer_place(b, dev, 3), AXL_ERR_INVALID);
    /* Still fine on the host. */
    axl_host_accessor ha;
    int *p;
    AXL_OK(axl_host_accessor_create(b, AXL_ACCESS_READ, NULL, 0, &ha,
                                    (void **)&p));
    assert_int_equal(p[7], 8);
    AXL_OK(axl_host_accessor_release(ha));
    AXL_OK(axl_buffer_release(huge));
    AXL_OK(axl_buffer_release(b));
}

static void misaligned_sub_buffer_on_a_device_is_invalid_4_7_2_1(void **state)
{
    (void)state;
    axl_device dev = axl_test_emu_device();
    axl_buffer base, sub;
    AXL_OK(axl_buffer_create(1, axl_range_1d(4096), NULL, &base));
    AXL_OK(axl_buffer_place(base, dev, 0));
    size_t off[3] = {100};
    AXL_OK(axl_buffer_create_sub(base, off, axl_range_1d(200), &sub));
    axl_queue q = make_queue(0);
    unsigned char v = 1;
    axl_event e;
    AXL_EXPECT(axl_queue_fill(q, sub, NULL, &v, 1, NULL, 0, &e),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("mem_base_addr_align");
    AXL_OK(axl_buffer_release(sub));
    size_t aligned[3] = {512};
    AXL_OK(axl_buffer_create_sub(base, aligned, axl_range_1d(200), &sub));
    AXL_OK(axl_queue_fill(q, sub, NULL, &v, 1, NULL, 0, &e));
    AXL_OK(axl_event_wait(e));
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_buffer_release(sub));
    AXL_OK(axl_buffer_release(base));
    AXL_OK(axl_queue_release(q));
}

/* The same rule holds wherever the data is (4.7.2.1: the origin must suit
 * each device that accesses the buffer, and the accessor's command group
 * is on the queue's device): a base buffer only the host holds gives a
 * sub-buffer at byte 100 that no command on the device's queue takes,
 * though the runtime would do such a transfer on the host. Before, these
 * were refused only once the data was on the device, so a recorded graph
 * could pass its check and be refused halfway (issue 18, stop 13). A
 * refused command changes nothing. */
static void misaligned_sub_buffer_is_invalid_wherever_its_data_is_4_7_2_1(
    void **state)
{
    (void)state;
    unsigned char data[4096];
    for (int i = 0; i < 4096; i++)
        data[i] = (unsigned char)i;
    axl_buffer base, sub, other;
    AXL_OK(axl_buffer_create(1, axl_range_1d(4096), NULL, &base));
    AXL_OK(axl_buffer_create(1, axl_range_1d(200), NULL, &other));
    size_t off[3] = {100};
    AXL_OK(axl_buffer_create_sub(base, off, axl_range_1d(200), &sub));
    axl_queue q = make_queue(AXL_QUEUE_IN_ORDER);
    AXL_OK(axl_queue_copy_from_host(q, data, other, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(q));
    const uint32_t commands = axl_test_pool("command").in_use;
    unsigned char v = 7, out[200];
    memset(out, 0, sizeof out);
    AXL_EXPECT(axl_queue_fill(q, sub, NULL, &v, 1, NULL, 0, NULL),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("mem_base_addr_align");
    AXL_EXPECT(axl_queue_copy_from_host(q, data, sub, NULL, NULL, 0, NULL),
               AXL_ERR_INVALID);
    AXL_EXPECT(axl_queue_copy_to_host(q, sub, NULL, out, NULL, 0, NULL),
               AXL_ERR_INVALID);
    AXL_EXPECT(axl_queue_copy(q, other, NULL, sub, NULL, NULL, 0, NULL),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("mem_base_addr_align");
    assert_int_equal(axl_test_pool("command").in_use, commands);
    for (int i = 0; i < 200; i++)
        assert_int_equal(out[i], 0);
    /* On the host it stays usable. */
    axl_host_accessor ha;
    unsigned char *p;
    AXL_OK(axl_host_accessor_create(sub, AXL_ACCESS_WRITE, NULL, 0, &ha,
                                    (void **)&p));
    p[0] = 9;
    AXL_OK(axl_host_accessor_release(ha));
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_buffer_release(sub));
    AXL_OK(axl_buffer_release(other));
    AXL_OK(axl_buffer_release(base));
}

static void emulated_device_round_trip(void **state)
{
    (void)state;
    axl_device dev = axl_test_emu_device();
    axl_queue q = make_queue(AXL_QUEUE_IN_ORDER);
    float in[1000], out[1000];
    for (int i = 0; i < 1000; i++)
        in[i] = (float)i * 0.5f;
    axl_buffer a, b;
    AXL_OK(axl_buffer_create(sizeof(float), axl_range_1d(1000), NULL, &a));
    AXL_OK(axl_buffer_create(sizeof(float), axl_range_1d(1000), NULL, &b));
    AXL_OK(axl_buffer_place(a, dev, 0));
    AXL_OK(axl_buffer_place(b, dev, 1));
    AXL_OK(axl_queue_copy_from_host(q, in, a, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_copy(q, a, NULL, b, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_copy_to_host(q, b, NULL, out, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(q));
    assert_memory_equal(in, out, sizeof in);
    AXL_OK(axl_buffer_release(a));
    AXL_OK(axl_buffer_release(b));
    AXL_OK(axl_queue_release(q));
}

#define T(f) cmocka_unit_test_setup_teardown(f, axl_test_setup, axl_test_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(rule_1_size_only_release_does_not_block),
        T(rule_2_initial_contents_are_copied_at_creation),
        T(rule_2_release_blocks_then_writes_back),
        T(rule_2_no_write_back_without_a_write),
        T(rule_2_2_const_data_is_read_only_on_the_host),
        T(rule_2_1_const_data_release_waits_for_readers),
        T(final_data_redirects_write_back),
        T(final_data_null_turns_write_back_off),
        T(set_write_back_switches_it),
        T(size_only_buffer_with_final_data_blocks_and_writes_back),
        T(use_host_ptr_host_accessor_points_into_host_memory_4_7_2_2),
        T(use_mutex_is_held_while_the_runtime_uses_the_memory),
        T(context_bound_buffer_refuses_another_context_4_7_2_2),
        T(sub_buffer_rules_follow_the_spec_example_4_7_2_3),
        T(disjoint_sub_buffers_do_not_order_overlapping_ones_do),
        T(read_after_read_does_not_order),
        T(read_after_write_orders),
        T(write_after_read_orders),
        T(write_after_write_orders),
        T(read_write_pairs_order),
        T(accessor_outside_its_buffer_is_invalid_at_submit),
        T(accessor_not_required_is_an_accessor_error),
        T(copy_fill_and_update_host_move_the_right_bytes),
        T(host_accessor_waits_for_writers_and_holds_back_conflicts),
        T(allocator_failing_at_every_step_changes_nothing_4_7_1),
        T(allocator_may_be_called_after_the_last_release_seed_002),
        T(default_arena_full_is_memory_allocation),
        T(data_moves_only_when_needed),
        T(prefetch_moves_contents_to_the_device_ahead_of_use),
        T(out_of_device_memory_is_memory_allocation_and_loses_nothing),
        T(misaligned_sub_buffer_on_a_device_is_invalid_4_7_2_1),
        T(misaligned_sub_buffer_is_invalid_wherever_its_data_is_4_7_2_1),
        T(emulated_device_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
