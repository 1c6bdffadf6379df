/*
 * Dispatch on the emulated device and kernel timeouts: submit returns
 * before the kernel runs and compute units overlap (4.6.5, 3.9.11), a
 * poll sees a timeout (4.6.6), a timed-out command completes once and its
 * unit waits for its model, UINT64_MAX is no timeout, a timeout keeps its
 * message, and axl_shutdown gives up runs past their timeout.
 *
 * Models here wait on flags the test sets, never on wall-clock
 * thresholds, so a loaded machine makes them slower, not wrong. Each wait
 * for a flag has a cap (CAP_MS) only so that a broken runtime fails the
 * test instead of hanging it.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axl_test.h"
#include "axl_config.h"
#include "axl/emu.h"

enum { CAP_MS = 10000 };

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Waits (at most CAP_MS) until *flag reaches want; whether it did. */
static bool wait_flag(atomic_int *flag, int want)
{
    for (int i = 0; i < CAP_MS && atomic_load(flag) < want; i++)
        sleep_ms(1);
    return atomic_load(flag) >= want;
}

/* A model that holds its unit until the test releases it. */
static atomic_int entered, finished, released, active, most;

static axl_status held_model(const axl_emu_call *c, void *user)
{
    (void)c;
    (void)user;
    int now = atomic_fetch_add(&active, 1) + 1;
    int seen = atomic_load(&most);
    while (now > seen && !atomic_compare_exchange_weak(&most, &seen, now))
        ;
    atomic_fetch_add(&entered, 1);
    wait_flag(&released, 1);
    atomic_fetch_sub(&active, 1);
    atomic_fetch_add(&finished, 1);
    return AXL_SUCCESS;
}

static void reset_flags(void)
{
    atomic_store(&entered, 0);
    atomic_store(&finished, 0);
    atomic_store(&released, 0);
    atomic_store(&active, 0);
    atomic_store(&most, 0);
}

/* ---- 4.6.5, 3.9.11: submit schedules asynchronously ------------------------- */

/* One thread submits two independent vadds to an out-of-order queue:
 * each submit returns while its model is still running (the model cannot
 * finish before the test releases it), both of vadd's two units are busy
 * at once, and the profiling intervals [start, end) overlap. */
static void submit_returns_at_once_and_units_overlap_4_6_5(void **s)
{
    (void)s;
    reset_flags();
    AXL_OK(axl_emu_register_model("vadd", held_model, NULL));
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_ENABLE_PROFILING);
    axl_kernel k = axl_test_rig_kernel(&r, "vadd");
    axl_buffer a, o[2];
    AXL_OK(axl_buffer_create(4, axl_range_1d(4), NULL, &a));
    axl_event e[2];
    uint32_t n = 1;
    for (int i = 0; i < 2; i++) {
        AXL_OK(axl_buffer_create(4, axl_range_1d(4), NULL, &o[i]));
        axl_kernel_arg args[4] = {{.index = 0, .buffer = a, .mode = AXL_ACCESS_READ},
                                  {.index = 1, .buffer = a, .mode = AXL_ACCESS_READ},
                                  {.index = 2, .buffer = o[i], .mode = AXL_ACCESS_WRITE},
                                  {.index = 3, .value = &n, .size = 4}};
        AXL_OK(axl_queue_single_task(r.q, k, args, 4, NULL, 0, &e[i]));
    }
    /* Both submits are back, and no model has finished. */
    assert_int_equal(atomic_load(&finished), 0);
    /* Both units run at once. */
    assert_true(wait_flag(&entered, 2));
    assert_int_equal(atomic_load(&most), 2);
    atomic_store(&released, 1);
    AXL_OK(axl_event_wait_list(e, 2));
    uint64_t start[2], end[2];
    for (int i = 0; i < 2; i++) {
        AXL_OK(axl_event_get_profiling(e[i], AXL_PROFILING_COMMAND_START,
                                       &start[i]));
        AXL_OK(axl_event_get_profiling(e[i], AXL_PROFILING_COMMAND_END,
                                       &end[i]));
        AXL_OK(axl_event_release(e[i]));
        AXL_OK(axl_buffer_release(o[i]));
    }
    assert_true(start[0] < end[1] && start[1] < end[0]);
    AXL_OK(axl_emu_register_model("vadd", NULL, NULL));
    AXL_OK(axl_buffer_release(a));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

/* The deterministic mode runs each model inside submit, in submission
 * order, for tests that want a fixed order. */
static void deterministic_mode_runs_models_inside_submit(void **s)
{
    (void)s;
    reset_flags();
    atomic_store(&released, 1); /* the model returns at once */
    AXL_OK(axl_emu_set_deterministic(true));
    AXL_OK(axl_emu_register_model("nop", held_model, NULL));
    axl_test_rig r = axl_test_rig_up(0);
    axl_kernel k = axl_test_rig_kernel(&r, "nop");
    for (int i = 0; i < 3; i++) {
        AXL_OK(axl_queue_single_task(r.q, k, NULL, 0, NULL, 0, NULL));
        assert_int_equal(atomic_load(&finished), i + 1);
    }
    AXL_OK(axl_queue_wait(r.q));
    AXL_OK(axl_emu_register_model("nop", NULL, NULL));
    AXL_OK(axl_emu_set_deterministic(false));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

/* ---- 4.6.6: a poll sees a timeout ------------------------------------------ */

static axl_status hang(const axl_emu_call *c, void *user)
{
    (void)c;
    (void)user;
    return AXL_EMU_HANG;
}

/* axl_event_get_status (the call polling firmware and interrupt handlers
 * use) reports a kernel past its timeout as complete with
 * AXL_ERR_TIMEOUT, with no thread waiting. */
static void a_poll_reports_a_kernel_past_its_timeout_4_6_6(void **s)
{
    (void)s;
    AXL_OK(axl_emu_register_model("nop", hang, NULL));
    axl_test_rig r = axl_test_rig_up(0);
    axl_kernel k = axl_test_rig_kernel(&r, "nop");
    AXL_OK(axl_queue_set_timeout(r.q, 2u * 1000000u));
    axl_event e;
    AXL_OK(axl_queue_single_task(r.q, k, NULL, 0, NULL, 0, &e));
    sleep_ms(20); /* well past the 2 ms deadline */
    axl_event_status es;
    axl_status err = AXL_SUCCESS;
    AXL_OK(axl_event_get_status(e, &es, &err));
    assert_int_equal(es, AXL_EVENT_COMPLETE);
    assert_int_equal(err, AXL_ERR_TIMEOUT);
    AXL_OK(axl_event_release(e));
    AXL_EXPECT(axl_queue_wait_and_throw(r.q), AXL_ERR_TIMEOUT);
    AXL_OK(axl_emu_register_model("nop", NULL, NULL));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

/* ---- A timed-out command completes once; its unit waits for the model ----- */

/* A model that returns after its command's timeout: the command failed
 * with AXL_ERR_TIMEOUT once, the model's result is discarded, and the
 * kernel's one unit takes no other run until the model has returned. */
static void a_late_model_is_discarded_and_its_unit_waits_for_it(void **s)
{
    (void)s;
    reset_flags();
    AXL_OK(axl_emu_register_model("nop", held_model, NULL));
    axl_test_rig r = axl_test_rig_up(0);
    axl_kernel k = axl_test_rig_kernel(&r, "nop");
    AXL_OK(axl_queue_set_timeout(r.q, 1000000u)); /* 1 ms */
    axl_event e1, e2;
    AXL_OK(axl_queue_single_task(r.q, k, NULL, 0, NULL, 0, &e1));
    /* The model is running (and held) before the wait gives it up. */
    assert_true(wait_flag(&entered, 1));
    AXL_EXPECT(axl_event_wait(e1), AXL_ERR_TIMEOUT);
    AXL_MESSAGE_HAS("did not finish within");
    /* nop has one unit, still held by the abandoned model. */
    AXL_OK(axl_queue_set_timeout(r.q, 0));
    AXL_OK(axl_queue_single_task(r.q, k, NULL, 0, NULL, 0, &e2));
    sleep_ms(5);
    axl_event_status es;
    AXL_OK(axl_event_get_status(e2, &es, NULL));
    assert_int_not_equal(es, AXL_EVENT_COMPLETE);
    assert_int_equal(atomic_load(&entered), 1);
    atomic_store(&released, 1);
    AXL_OK(axl_event_wait(e2));
    assert_int_equal(atomic_load(&finished), 2);
    assert_int_equal(atomic_load(&most), 1); /* never two on one unit */
    AXL_OK(axl_event_release(e1));
    AXL_OK(axl_event_release(e2));
    AXL_EXPECT(axl_queue_wait_and_throw(r.q), AXL_ERR_TIMEOUT);
    assert_int_equal(axl_test_pool("command").in_use, 0);
    AXL_OK(axl_emu_register_model("nop", NULL, NULL));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

typedef struct waiter {
    axl_queue q;
    atomic_int stop;
} waiter;

/* Another thread that keeps waiting, so timeouts are checked while the
 * dispatching thread is still inside the port. */
static void *keep_waiting(void *p)
{
    waiter *w = p;
    while (!atomic_load(&w->stop)) {
        axl_queue_wait(w->q);
        sleep_ms(1);
    }
    return NULL;
}

/* Issue 18's reproduction: a 1 ms timeout on a large mmult, while another
 * thread waits on the queue. The command completes once (the pool counts
 * come back to zero), the next launch gets its own arguments, and the
 * unit runs again. */
static void a_large_mmult_past_a_1ms_timeout_completes_once(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel k = axl_test_rig_kernel(&r, "mmult");
    enum { DIM = 192 };
    static float a[DIM * DIM], b[DIM * DIM], c[DIM * DIM];
    for (int i = 0; i < DIM * DIM; i++) {
        a[i] = 1.0f;
        b[i] = 2.0f;
    }
    axl_buffer A, B, C;
    AXL_OK(axl_buffer_create_from(a, 4, axl_range_1d(DIM * DIM), NULL, &A));
    AXL_OK(axl_buffer_create_from(b, 4, axl_range_1d(DIM * DIM), NULL, &B));
    AXL_OK(axl_buffer_create(4, axl_range_1d(DIM * DIM), NULL, &C));
    waiter w = {r.q, 0};
    pthread_t t;
    pthread_create(&t, NULL, keep_waiting, &w);
    uint32_t dim = DIM;
    axl_kernel_arg args[4] = {{.index = 0, .buffer = A, .mode = AXL_ACCESS_READ},
                              {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
                              /* no_init: the final run must not depend on
                               * what an abandoned run left (4.7.6.4) */
                              {.index = 2, .buffer = C, .mode = AXL_ACCESS_WRITE_NO_INIT},
                              {.index = 3, .value = &dim, .size = 4}};
    for (int i = 0; i < 4; i++) {
        AXL_OK(axl_queue_set_timeout(r.q, 1000000u));
        axl_event e;
        AXL_OK(axl_queue_single_task(r.q, k, args, 4, NULL, 0, &e));
        axl_status st = axl_event_wait(e);
        assert_true(st == AXL_ERR_TIMEOUT || st == AXL_SUCCESS);
        AXL_OK(axl_event_release(e));
        axl_queue_wait_and_throw(r.q);
    }
    /* Without a timeout the same kernel runs to the end, right. */
    AXL_OK(axl_queue_set_timeout(r.q, 0));
    AXL_OK(axl_queue_single_task(r.q, k, args, 4, NULL, 0, NULL));
    AXL_OK(axl_queue_copy_to_host(r.q, C, NULL, c, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(r.q));
    for (int i = 0; i < DIM * DIM; i++)
        assert_true(c[i] == 2.0f * DIM);
    atomic_store(&w.stop, 1);
    pthread_join(t, NULL);
    assert_int_equal(axl_test_pool("command").in_use, 0);
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(C));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

/* A hung model that has already returned (AXL_EMU_HANG), launched again
 * and again with a 1 ms timeout while another thread waits: each command
 * fails once with AXL_ERR_TIMEOUT, and the pools come back. */
static void a_returned_hung_model_times_out_once_each_time(void **s)
{
    (void)s;
    AXL_OK(axl_emu_register_model("nop", hang, NULL));
    axl_test_rig r = axl_test_rig_up(0);
    axl_kernel k = axl_test_rig_kernel(&r, "nop");
    waiter w = {r.q, 0};
    pthread_t t;
    pthread_create(&t, NULL, keep_waiting, &w);
    AXL_OK(axl_queue_set_timeout(r.q, 1000000u));
    for (int i = 0; i < 50; i++) {
        axl_event e;
        AXL_OK(axl_queue_single_task(r.q, k, NULL, 0, NULL, 0, &e));
        AXL_EXPECT(axl_event_wait(e), AXL_ERR_TIMEOUT);
        AXL_OK(axl_event_release(e));
    }
    atomic_store(&w.stop, 1);
    pthread_join(t, NULL);
    /* One error per throw (4.13.1.2): the timeouts the error pool kept. */
    AXL_EXPECT(axl_queue_wait_and_throw(r.q), AXL_ERR_TIMEOUT);
    /* The message whole (issue 35.4), the counts before the error's own
     * text, and that to its end, which says what stays reserved. */
    AXL_MESSAGE_HAS("more queued: throw again");
    AXL_MESSAGE_HAS("(its buffers stay reserved until the unit is back)");
    for (int i = 0; i < 64 && axl_queue_throw_asynchronous(r.q) != AXL_SUCCESS;
         i++)
        ;
    AXL_OK(axl_queue_throw_asynchronous(r.q));
    assert_int_equal(axl_test_pool("command").in_use, 0);
    /* The unit is usable again. */
    AXL_OK(axl_emu_register_model("nop", NULL, NULL));
    AXL_OK(axl_queue_set_timeout(r.q, 0));
    AXL_OK(axl_queue_single_task(r.q, k, NULL, 0, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

/* ---- UINT64_MAX is no timeout ------------------------------------------------ */

typedef struct submitter {
    axl_queue q;
    axl_kernel k;
    axl_status st;
} submitter;

static void *submit_and_wait(void *p)
{
    submitter *sb = p;
    axl_event e;
    sb->st = axl_queue_single_task(sb->q, sb->k, NULL, 0, NULL, 0, &e);
    if (sb->st == AXL_SUCCESS) {
        sb->st = axl_event_wait(e);
        axl_event_release(e);
    }
    return NULL;
}

static axl_status nap(void *user)
{
    (void)user;
    sleep_ms(20);
    return AXL_SUCCESS;
}

/* now + UINT64_MAX saturates: the run is not given up when another
 * thread's wait checks the deadlines. */
static void a_timeout_of_uint64_max_never_expires(void **s)
{
    (void)s;
    reset_flags();
    AXL_OK(axl_emu_register_model("nop", held_model, NULL));
    axl_test_rig r = axl_test_rig_up(0);
    axl_kernel k = axl_test_rig_kernel(&r, "nop");
    AXL_OK(axl_queue_set_timeout(r.q, UINT64_MAX));
    submitter sb = {r.q, k, AXL_ERR_RUNTIME};
    pthread_t t;
    pthread_create(&t, NULL, submit_and_wait, &sb);
    assert_true(wait_flag(&entered, 1));
    /* A wait that blocks (for a host task that sleeps) checks every
     * deadline while it waits. */
    axl_event e;
    AXL_OK(axl_queue_host_task(r.q, nap, NULL, NULL, 0, &e));
    AXL_OK(axl_event_wait(e));
    AXL_OK(axl_event_release(e));
    atomic_store(&released, 1);
    pthread_join(t, NULL);
    AXL_OK(sb.st);
    AXL_OK(axl_queue_wait_and_throw(r.q));
    AXL_OK(axl_emu_register_model("nop", NULL, NULL));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

/* ---- A timeout keeps its message ------------------------------------------- */

/* axl_event_wait_list returning AXL_ERR_TIMEOUT says why, even when the
 * wait dispatched (and the port ran) another kernel after the timeout. */
static void wait_list_timeout_has_a_message(bool deterministic)
{
    AXL_OK(axl_emu_set_deterministic(deterministic));
    AXL_OK(axl_emu_register_model("nop", hang, NULL));
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel k = axl_test_rig_kernel(&r, "nop");
    axl_kernel v = axl_test_rig_kernel(&r, "vadd");
    AXL_OK(axl_queue_set_timeout(r.q, 2u * 1000000u));
    axl_event e[2];
    AXL_OK(axl_queue_single_task(r.q, k, NULL, 0, NULL, 0, &e[0]));
    axl_buffer a;
    AXL_OK(axl_buffer_create(4, axl_range_1d(4), NULL, &a));
    uint32_t n = 1;
    axl_kernel_arg args[4] = {{.index = 0, .buffer = a, .mode = AXL_ACCESS_READ},
                              {.index = 1, .buffer = a, .mode = AXL_ACCESS_READ},
                              {.index = 2, .buffer = a, .mode = AXL_ACCESS_WRITE},
                              {.index = 3, .value = &n, .size = 4}};
    /* In order: it runs once the first has timed out, inside the wait.
     * With no timeout of its own (taken at submit), so a loaded machine
     * cannot time it out too. */
    AXL_OK(axl_queue_set_timeout(r.q, 0));
    AXL_OK(axl_queue_single_task(r.q, v, args, 4, NULL, 0, &e[1]));
    AXL_EXPECT(axl_event_wait_list(e, 2), AXL_ERR_TIMEOUT);
    AXL_MESSAGE_HAS("did not finish within 2 ms");
    for (int i = 0; i < 2; i++)
        AXL_OK(axl_event_release(e[i]));
    AXL_EXPECT(axl_queue_wait_and_throw(r.q), AXL_ERR_TIMEOUT);
    AXL_OK(axl_emu_register_model("nop", NULL, NULL));
    AXL_OK(axl_emu_set_deterministic(false));
    AXL_OK(axl_buffer_release(a));
    AXL_OK(axl_kernel_release(k));
    AXL_OK(axl_kernel_release(v));
    axl_test_rig_down(&r);
}

static void wait_list_timeout_has_a_message_deterministic(void **s)
{
    (void)s;
    wait_list_timeout_has_a_message(true);
}

static void wait_list_timeout_has_a_message_async(void **s)
{
    (void)s;
    wait_list_timeout_has_a_message(false);
}

/* A model that says something and succeeds. */
static axl_status chatty(const axl_emu_call *c, void *user)
{
    (void)c;
    (void)user;
    axl_fail(AXL_SUCCESS, "the model's own words");
    return AXL_SUCCESS;
}

/* The calling thread's message (the last failure's) survives a launch
 * that succeeds, whatever the model wrote meanwhile (hal.h: a port never
 * changes it). Deterministic mode: the model runs on this thread. */
static void a_successful_launch_keeps_the_callers_message(void **s)
{
    (void)s;
    AXL_OK(axl_emu_set_deterministic(true));
    AXL_OK(axl_emu_register_model("nop", chatty, NULL));
    axl_test_rig r = axl_test_rig_up(0);
    axl_kernel k = axl_test_rig_kernel(&r, "nop");
    axl_event stale = {0x7FFFFFFFu};
    AXL_EXPECT(axl_event_wait(stale), AXL_ERR_INVALID_OBJECT);
    char before[AXL_MESSAGE_MAX];
    strncpy(before, axl_last_message(), sizeof before - 1);
    before[sizeof before - 1] = '\0';
    for (int i = 0; i < 2; i++) /* checked in full, then from the memo */
        AXL_OK(axl_queue_single_task(r.q, k, NULL, 0, NULL, 0, NULL));
    AXL_OK(axl_queue_wait(r.q));
    assert_string_equal(axl_last_message(), before);
    AXL_OK(axl_emu_register_model("nop", NULL, NULL));
    AXL_OK(axl_emu_set_deterministic(false));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

/* ---- axl_shutdown gives up runs past their timeout ------------------------- */

typedef struct stopper {
    atomic_int done;
    axl_status st;
    char message[AXL_MESSAGE_MAX];
} stopper;

static void *stop_runtime(void *p)
{
    stopper *sp = p;
    sp->st = axl_shutdown();
    strncpy(sp->message, axl_last_message(), sizeof sp->message - 1);
    atomic_store(&sp->done, 1);
    return NULL;
}

/* Everything released, a hung kernel with a 20 ms timeout still out:
 * axl_shutdown returns once the timeout has passed, with AXL_ERR_TIMEOUT
 * and a message naming the kernel. hold: the model is still running (it
 * returns after shutdown), instead of having returned AXL_EMU_HANG. */
static void shutdown_gives_up_a_timed_out_run(bool hold)
{
    reset_flags();
    AXL_OK(axl_emu_register_model("nop", hold ? held_model : hang, NULL));
    axl_test_rig r = axl_test_rig_up(0);
    axl_kernel k = axl_test_rig_kernel(&r, "nop");
    AXL_OK(axl_queue_set_timeout(r.q, 20u * 1000000u));
    AXL_OK(axl_queue_single_task(r.q, k, NULL, 0, NULL, 0, NULL));
    if (hold)
        assert_true(wait_flag(&entered, 1));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_drop(&r); /* the run still in flight */
    stopper sp = {0, AXL_SUCCESS, ""};
    pthread_t t;
    pthread_create(&t, NULL, stop_runtime, &sp);
    bool returned = wait_flag(&sp.done, 1);
    atomic_store(&released, 1); /* lets a held model go */
    assert_true(returned);
    pthread_join(t, NULL);
    assert_int_equal(sp.st, AXL_ERR_TIMEOUT);
    if (axl_test_messages())
        assert_non_null(strstr(sp.message, "nop"));
    AXL_OK(axl_emu_register_model("nop", NULL, NULL));
}

static void shutdown_gives_up_a_hung_run_past_its_timeout(void **s)
{
    (void)s;
    shutdown_gives_up_a_timed_out_run(false);
}

static void shutdown_gives_up_a_running_model_past_its_timeout(void **s)
{
    (void)s;
    shutdown_gives_up_a_timed_out_run(true);
    /* The abandoned model returns after shutdown; the runtime starts
     * again and its unit works. */
    wait_flag(&finished, 1);
    axl_test_rig r = axl_test_rig_up(0);
    axl_kernel k = axl_test_rig_kernel(&r, "nop");
    AXL_OK(axl_queue_single_task(r.q, k, NULL, 0, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

/* ---- A run given up at its timeout is the unit's until it comes back ---- */

static void *release_later(void *p)
{
    (void)p;
    sleep_ms(20);
    atomic_store(&released, 1);
    return NULL;
}

/* The fuzzer's find: a run abandoned at its timeout completes its command
 * (so the device has no command in flight) while its model is still
 * running. Programming the device with another design then replaced the
 * unit table the emulated unit would report to, and the model's return
 * called axl_hal_run_done with a token that was gone (a NULL command).
 * Programming waits until every unit's run is back, abandoned ones too;
 * the model has returned by the time the build does. */
static void programming_waits_for_an_abandoned_run_to_come_back(void **s)
{
    (void)s;
    /* Asked first: a skip halfway would leave the held model running. */
    axl_kernel_bundle none;
    AXL_TEST_NEEDS(AXL_FEATURE_SOURCE_BUNDLES,
                   axl_kernel_bundle_create_from_source(
                       AXL_NO_CONTEXT, AXL_SOURCE_XCLBIN, axl_test_app_xclbin,
                       axl_test_app_xclbin_size, &none));
    reset_flags();
    AXL_OK(axl_emu_register_model("nop", held_model, NULL));
    axl_test_rig r = axl_test_rig_up(0);
    axl_kernel k = axl_test_rig_kernel(&r, "nop");
    AXL_OK(axl_queue_set_timeout(r.q, 1000000u)); /* 1 ms */
    axl_event e;
    AXL_OK(axl_queue_single_task(r.q, k, NULL, 0, NULL, 0, &e));
    assert_true(wait_flag(&entered, 1));
    AXL_EXPECT(axl_event_wait(e), AXL_ERR_TIMEOUT);
    AXL_OK(axl_queue_set_timeout(r.q, 0));
    assert_int_equal(atomic_load(&finished), 0); /* the model runs on */
    /* The application lets go of the built-in design (a design it holds
     * is not displaced, 4.11.6); the abandoned run still holds its
     * kernel, which is the runtime's to wait for. */
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_let_go(&r);
    pthread_t t;
    pthread_create(&t, NULL, release_later, NULL);
    axl_kernel_bundle src, exe;
    AXL_OK(axl_kernel_bundle_create_from_source(r.ctx, AXL_SOURCE_XCLBIN,
                                                axl_test_app_xclbin,
                                                axl_test_app_xclbin_size,
                                                &src));
    AXL_OK(axl_kernel_bundle_build(src, NULL, 0, NULL, &exe));
    /* The build programmed the device only once the run was back. */
    assert_int_equal(atomic_load(&finished), 1);
    pthread_join(t, NULL);
    axl_kernel sk;
    AXL_OK(axl_kernel_bundle_ext_get_kernel(exe, "scale", &sk));
    float v[4] = {1, 2, 3, 4};
    axl_buffer B;
    AXL_OK(axl_buffer_create_from(v, 4, axl_range_1d(4), NULL, &B));
    float f = 2.0f;
    uint32_t n = 4;
    axl_kernel_arg args[3] = {
        {.index = 0, .buffer = B, .mode = AXL_ACCESS_READ_WRITE},
        {.index = 1, .value = &f, .size = 4},
        {.index = 2, .value = &n, .size = 4}};
    AXL_OK(axl_queue_single_task(r.q, sk, args, 3, NULL, 0, NULL));
    AXL_OK(axl_buffer_release(B));
    assert_true(v[3] == 8.0f);
    AXL_OK(axl_event_release(e));
    AXL_EXPECT(axl_queue_wait_and_throw(r.q), AXL_ERR_TIMEOUT);
    assert_int_equal(axl_test_pool("command").in_use, 0);
    AXL_OK(axl_emu_register_model("nop", NULL, NULL));
    AXL_OK(axl_kernel_release(sk));
    AXL_OK(axl_kernel_bundle_release(exe));
    AXL_OK(axl_kernel_bundle_release(src));
    axl_test_rig_down(&r);
}

/* ---- 4.6.6: a command's start is known once it starts ----------------------- */

/* A host task that runs until the test says go (GO_MS at most), counting
 * the times the go came too late. */
enum { GO_MS = 3000 }; /* far above a loaded runner's delays */
static atomic_int go, go_late;

static axl_status wait_for_go(void *user)
{
    (void)user;
    for (int i = 0; i < GO_MS && !atomic_load(&go); i++)
        sleep_ms(1);
    if (!atomic_load(&go))
        atomic_fetch_add(&go_late, 1);
    return AXL_SUCCESS;
}

static void *release_soon(void *arg)
{
    (void)arg;
    sleep_ms(2);
    atomic_store(&released, 1);
    return NULL;
}

/* 4.6.6: get_profiling_info(command_start) "will block until the
 * requested profiling information is available": until the command
 * starts, not until it ends. The host task here starts when a kernel's
 * end on an emulated unit's thread made it ready: a worker starts it in
 * a later hold of the lock than the end's wake, so the start must wake
 * the wait itself, or the wait sleeps until the task ends (here: until
 * the task gives up on the go that only the wait's return gives). */
static void command_start_wakes_a_wait_for_it_4_6_6(void **s)
{
    (void)s;
    uint64_t start;
    AXL_TEST_NEEDS(AXL_FEATURE_HOST_TASKS,
                   axl_queue_host_task((axl_queue)AXL_NONE, wait_for_go, NULL,
                                       NULL, 0, NULL));
    AXL_TEST_NEEDS(AXL_FEATURE_PROFILING,
                   axl_event_get_profiling((axl_event)AXL_NONE,
                                           AXL_PROFILING_COMMAND_START,
                                           &start));
    AXL_OK(axl_emu_register_model("nop", held_model, NULL));
    axl_test_rig r =
        axl_test_rig_up(AXL_QUEUE_IN_ORDER | AXL_QUEUE_ENABLE_PROFILING);
    axl_kernel k = axl_test_rig_kernel(&r, "nop");
    atomic_store(&go_late, 0);
    for (int round = 0; round < 20; round++) {
        reset_flags();
        atomic_store(&go, 0);
        axl_event ek, eh;
        AXL_OK(axl_queue_single_task(r.q, k, NULL, 0, NULL, 0, &ek));
        AXL_OK(axl_queue_host_task(r.q, wait_for_go, NULL, NULL, 0, &eh));
        assert_true(wait_flag(&entered, 1));
        pthread_t t;
        assert_int_equal(pthread_create(&t, NULL, release_soon, NULL), 0);
        AXL_OK(axl_event_get_profiling(eh, AXL_PROFILING_COMMAND_START,
                                       &start));
        atomic_store(&go, 1);
        AXL_OK(axl_event_wait(eh));
        pthread_join(t, NULL);
        AXL_OK(axl_event_release(ek));
        AXL_OK(axl_event_release(eh));
    }
    AXL_OK(axl_emu_register_model("nop", NULL, NULL));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
    assert_int_equal(atomic_load(&go_late), 0);
}

/* A nop whose first run holds its unit until released, and whose later
 * runs wait for the go (GO_MS at most), counting a late go. */
static axl_status held_then_go(const axl_emu_call *c, void *user)
{
    (void)c;
    (void)user;
    if (atomic_fetch_add(&entered, 1) == 0)
        wait_flag(&released, 1);
    else
        (void)wait_for_go(NULL);
    return AXL_SUCCESS;
}

/* 4.6.6 again, for a kernel: the one behind a held kernel in an in-order
 * queue is dispatched by the emulated unit's thread when the held one
 * ends, in a later hold of the lock than the end's wake; its start must
 * wake the wait for it, or that wait sleeps until it ends (here: until
 * it gives up on the go only the wait's return gives). */
static void a_kernels_start_wakes_a_wait_for_it_4_6_6(void **s)
{
    (void)s;
    uint64_t start;
    AXL_TEST_NEEDS(AXL_FEATURE_PROFILING,
                   axl_event_get_profiling((axl_event)AXL_NONE,
                                           AXL_PROFILING_COMMAND_START,
                                           &start));
    AXL_OK(axl_emu_register_model("nop", held_then_go, NULL));
    axl_test_rig r =
        axl_test_rig_up(AXL_QUEUE_IN_ORDER | AXL_QUEUE_ENABLE_PROFILING);
    /* No timeouts: a wait with a run's deadline ahead wakes each ms. */
    AXL_OK(axl_queue_set_timeout(r.q, 0));
    axl_kernel k = axl_test_rig_kernel(&r, "nop");
    atomic_store(&go_late, 0);
    for (int round = 0; round < 10; round++) {
        reset_flags();
        atomic_store(&go, 0);
        axl_event e1, e2;
        AXL_OK(axl_queue_single_task(r.q, k, NULL, 0, NULL, 0, &e1));
        AXL_OK(axl_queue_single_task(r.q, k, NULL, 0, NULL, 0, &e2));
        assert_true(wait_flag(&entered, 1));
        pthread_t t;
        assert_int_equal(pthread_create(&t, NULL, release_soon, NULL), 0);
        AXL_OK(axl_event_get_profiling(e2, AXL_PROFILING_COMMAND_START,
                                       &start));
        atomic_store(&go, 1);
        AXL_OK(axl_event_wait(e2));
        pthread_join(t, NULL);
        AXL_OK(axl_event_release(e1));
        AXL_OK(axl_event_release(e2));
    }
    AXL_OK(axl_emu_register_model("nop", NULL, NULL));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
    assert_int_equal(atomic_load(&go_late), 0);
}

#define T(f) cmocka_unit_test_setup_teardown(f, axl_test_setup, axl_test_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(submit_returns_at_once_and_units_overlap_4_6_5),
        T(deterministic_mode_runs_models_inside_submit),
        T(a_poll_reports_a_kernel_past_its_timeout_4_6_6),
        T(a_late_model_is_discarded_and_its_unit_waits_for_it),
        T(a_large_mmult_past_a_1ms_timeout_completes_once),
        T(a_returned_hung_model_times_out_once_each_time),
        T(a_timeout_of_uint64_max_never_expires),
        T(wait_list_timeout_has_a_message_deterministic),
        T(wait_list_timeout_has_a_message_async),
        T(a_successful_launch_keeps_the_callers_message),
        T(shutdown_gives_up_a_hung_run_past_its_timeout),
        T(shutdown_gives_up_a_running_model_past_its_timeout),
        T(programming_waits_for_an_abandoned_run_to_come_back),
        T(command_start_wakes_a_wait_for_it_4_6_6),
        T(a_kernels_start_wakes_a_wait_for_it_4_6_6),
    };
    /* AXL_TEST_FILTER=name (or a pattern with *) runs some of them. */
    const char *filter = getenv("AXL_TEST_FILTER");
    if (filter)
        cmocka_set_test_filter(filter);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
