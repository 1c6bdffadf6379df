/*
 * A wait that can never end is an error, not a hang (docs/design.md; issue
 * 35 item 2). A host task T that makes a call which would wait for a
 * command that waits for T itself (directly or through others) gets a
 * status at once, with a message naming the host task; nothing changes,
 * and once T returns its dependents run as they would have.
 *
 * Every blocking call a host task can reach: creation in a full pool whose
 * released slots are kept by commands that wait for T (buffers, events,
 * queues, contexts, kernels, kernel bundles; before, axl_buffer_create
 * waited for ever in axl__wait_for_room), an event wait and the profiling
 * queries that wait, a queue wait, a buffer's last release that must
 * wait, a host accessor, programming the device T's queue is on, and
 * axl_shutdown. Waits that can end still wait (T waits for an independent
 * command), and a host task that waits while every worker is held by one
 * runs the host tasks queued meanwhile (else nothing would).
 *
 * Each test runs T behind a gate: the test arranges what T will find,
 * opens the gate and waits for T at most 10 s. A T that does not come
 * back is stuck in a wait that never ends: the test says so and the
 * program exits (its worker cannot be freed).
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axl_config.h" /* the feature switches */
#include "axl_test.h"

/* What T does once its gate opens, and what it got. */
typedef struct inside inside;
struct inside {
    atomic_int go;
    atomic_int done;
    axl_status (*body)(inside *);
    axl_status got;
    char message[AXL_MESSAGE_MAX];
    axl_event ev;     /* an event T waits for */
    axl_queue q;      /* T's queue */
    axl_buffer buf;   /* a buffer T acts on */
    axl_context ctx;
    axl_kernel_id kid;
    axl_kernel_bundle made;
    uint32_t pool;    /* which pool a creation fills (see create_one) */
};

static axl_status task(void *user)
{
    inside *in = user;
    for (int i = 0; i < 100000 && !atomic_load(&in->go); i++) {
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
    in->got = in->body(in);
    snprintf(in->message, sizeof in->message, "%s", axl_last_message());
    atomic_store(&in->done, 1);
    return AXL_SUCCESS;
}

/* Opens T's gate and waits until it is done (10 s at most: else T waits
 * for ever, and the test can only say so and stop). */
static void open_and_join(inside *in)
{
    atomic_store(&in->go, 1);
    for (int i = 0; i < 100000 && !atomic_load(&in->done); i++) {
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
    if (!atomic_load(&in->done)) {
        fprintf(stderr, "the host task did not come back within 10 s: a "
                        "wait that never ends\n");
        fflush(stderr);
        _Exit(1);
    }
}

/* T got `want`, and its message names the host task it runs. */
static void refused(const inside *in, axl_status want)
{
    if (in->got != want)
        fail_msg("inside the host task: %s, expected %s (%s)",
                 axl_status_name(in->got), axl_status_name(want),
                 in->message);
    if (axl_test_messages() &&
        !strstr(in->message, "the host task this thread runs"))
        fail_msg("the message does not name the host task: %s",
                 in->message);
}

/* The support rig (tests/support: its queue, context and vadd) with T as
 * its queue's first command, and T's event. */
typedef struct rig {
    axl_test_rig on;
    axl_event t;
} rig;

static rig rig_up(inside *in, axl_status (*body)(inside *), uint32_t flags)
{
    rig r = {.on = axl_test_rig_up(flags)};
    in->body = body;
    in->q = r.on.q;
    in->ctx = r.on.ctx;
    AXL_OK(axl_queue_host_task(r.on.q, task, in, NULL, 0, &r.t));
    return r;
}

static void rig_down(rig *r)
{
    AXL_OK(axl_queue_wait_and_throw(r->on.q));
    AXL_OK(axl_event_release(r->t));
    axl_test_rig_down(&r->on);
}

static axl_status nothing(void *user)
{
    (void)user;
    return AXL_SUCCESS;
}

/* A host task on q after `after`, using b (when it is not none). */
typedef struct after_arg {
    axl_event after;
    axl_buffer b;
} after_arg;

static void after_cgf(axl_handler *h, void *user)
{
    const after_arg *a = user;
    axl_handler_depends_on(h, a->after);
    if (a->b.id) {
        axl_accessor acc;
        axl_handler_require(h, a->b, AXL_ACCESS_READ_WRITE, NULL, 0, &acc);
    }
    axl_handler_host_task(h, nothing, NULL);
}

static void after(axl_queue q, axl_event t, axl_buffer b, axl_event *out)
{
    after_arg a = {t, b};
    AXL_OK(axl_queue_submit(q, after_cgf, &a, out));
}

/* ---- Creation in a pool whose room only T's dependents can give ------------- */

enum { BUFFER, EVENT, QUEUE, CONTEXT, KERNEL, BUNDLE, NPOOLS };
static const char *const pool_names[NPOOLS] = {
    "buffer", "event", "queue", "context", "kernel", "kernel_bundle"};

/* One more object of in->pool, made inside T (and released at once, had
 * it been made). */
static axl_status create_one(inside *in)
{
    axl_status st;
    switch (in->pool) {
    case BUFFER: {
        axl_buffer b;
        st = axl_buffer_create(4, axl_range_1d(4), NULL, &b);
        if (st == AXL_SUCCESS)
            axl_buffer_release(b);
        return st;
    }
    case EVENT: /* a submission takes an event */
        return axl_queue_host_task(in->q, nothing, NULL, NULL, 0, NULL);
    case QUEUE: {
        axl_queue q;
        st = axl_queue_create(in->ctx, axl_test_emu_device(), 0, NULL, &q);
        if (st == AXL_SUCCESS)
            axl_queue_release(q);
        return st;
    }
    case CONTEXT: {
        axl_device d = axl_test_emu_device();
        axl_context c;
        st = axl_context_create(&d, 1, NULL, &c);
        if (st == AXL_SUCCESS)
            axl_context_release(c);
        return st;
    }
    case KERNEL: {
        axl_kernel k;
        st = axl_kernel_bundle_get_kernel(in->made, in->kid, &k);
        if (st == AXL_SUCCESS)
            axl_kernel_release(k);
        return st;
    }
    default: {
        axl_kernel_bundle b;
        st = axl_get_kernel_bundle_for(in->ctx, NULL, 0, &in->kid, 1,
                                       AXL_BUNDLE_EXECUTABLE, &b);
        if (st == AXL_SUCCESS)
            axl_kernel_bundle_release(b);
        return st;
    }
    }
}

/* vadd over one buffer on q after t, with kernel k. */
static void vadd_after(axl_queue q, axl_kernel k, axl_event t, axl_buffer b)
{
    AXL_OK(axl_queue_single_task(q, k,
                                 AXL_ARGS(AXL_ARG_IN(b), AXL_ARG_IN(b),
                                          AXL_ARG_OUT(b), AXL_ARG_U32(4)),
                                 &t, 1, NULL));
}

/* Fills pool `pool` with released objects that commands waiting for t
 * keep (events: live ones the test holds in `held`, then released ones). */
static uint32_t fill_kept(rig *r, inside *in, axl_event *held, uint32_t *nheld)
{
    const axl_pool_stats s = axl_test_pool(pool_names[in->pool]);
    uint32_t n = 0;
    axl_buffer b;
    AXL_OK(axl_buffer_create(4, axl_range_1d(4), NULL, &b));
    *nheld = 0;
    switch (in->pool) {
    case BUFFER:
        AXL_OK(axl_buffer_release(b));
        for (uint32_t i = s.in_use; i < s.capacity; i++, n++) {
            axl_buffer x;
            AXL_OK(axl_buffer_create(4, axl_range_1d(4), NULL, &x));
            after(r->on.q, r->t, x, NULL);
            AXL_OK(axl_buffer_release(x));
        }
        return n;
    case EVENT:
        /* The application's own, then four kept by commands after t. */
        for (uint32_t i = s.in_use; i + 4 < s.capacity; i++)
            AXL_OK(axl_event_create_complete(&held[(*nheld)++]));
        for (int i = 0; i < 4; i++, n++)
            after(r->on.q, r->t, (axl_buffer){0}, NULL);
        break;
    case QUEUE:
        for (uint32_t i = s.in_use; i < s.capacity; i++, n++) {
            axl_queue q;
            AXL_OK(axl_queue_create(r->on.ctx, r->on.dev, 0, NULL, &q));
            after(q, r->t, (axl_buffer){0}, NULL);
            AXL_OK(axl_queue_release(q));
        }
        break;
    case CONTEXT:
        for (uint32_t i = s.in_use; i < s.capacity; i++, n++) {
            axl_context c;
            axl_queue q;
            AXL_OK(axl_context_create(&r->on.dev, 1, NULL, &c));
            AXL_OK(axl_queue_create(c, r->on.dev, 0, NULL, &q));
            after(q, r->t, (axl_buffer){0}, NULL);
            AXL_OK(axl_queue_release(q));
            AXL_OK(axl_context_release(c));
        }
        break;
    case KERNEL:
        for (uint32_t i = s.in_use; i < s.capacity; i++, n++) {
            axl_kernel k;
            AXL_OK(axl_kernel_bundle_get_kernel(in->made, in->kid, &k));
            vadd_after(r->on.q, k, r->t, b);
            AXL_OK(axl_kernel_release(k));
        }
        break;
    default:
        for (uint32_t i = s.in_use; i < s.capacity; i++, n++) {
            axl_kernel_bundle kb;
            axl_kernel k;
            AXL_OK(axl_get_kernel_bundle_for(r->on.ctx, NULL, 0, &in->kid, 1,
                                             AXL_BUNDLE_EXECUTABLE, &kb));
            AXL_OK(axl_kernel_bundle_get_kernel(kb, in->kid, &k));
            vadd_after(r->on.q, k, r->t, b);
            AXL_OK(axl_kernel_release(k));
            AXL_OK(axl_kernel_bundle_release(kb));
        }
        break;
    }
    AXL_OK(axl_buffer_release(b));
    return n;
}

static void creation_inside_a_host_task_does_not_wait_for_its_dependents(
    void **s)
{
    (void)s;
    static axl_event held[4096];
    for (uint32_t p = 0; p < NPOOLS; p++) {
        inside in = {0};
        in.pool = p;
        rig r = rig_up(&in, create_one, 0);
        in.kid = axl_test_builtin(r.on.dev, "vadd");
        /* One bundle the test holds, the rig's (a kernel's comes from it;
         * the bundle pool's fill makes its own). */
        in.made = r.on.bundle;
        uint32_t nheld;
        assert_true(fill_kept(&r, &in, held, &nheld) > 0);
        const axl_pool_stats full = axl_test_pool(pool_names[p]);
        assert_int_equal(full.in_use, full.capacity);
        open_and_join(&in);
        refused(&in, AXL_ERR_OUT_OF_RESOURCES);
        if (axl_test_messages())
            assert_non_null(strstr(in.message, pool_names[p]));
        /* T came back: its dependents run and give the slots back. */
        for (uint32_t i = 0; i < nheld; i++)
            AXL_OK(axl_event_release(held[i]));
        rig_down(&r);
        /* Commands of released queues may still be ending. */
        for (int i = 0; i < 10000 && axl_test_pool("command").in_use; i++) {
            struct timespec ts = {0, 100000};
            nanosleep(&ts, NULL);
        }
        if (axl_test_pool(pool_names[p]).in_use)
            fail_msg("pool %s: %u in use after", pool_names[p],
                     (unsigned)axl_test_pool(pool_names[p]).in_use);
    }
}

/* ---- Waits for a command that waits for T -------------------------------------- */

static axl_status wait_event(inside *in)
{
    return axl_event_wait(in->ev);
}

static axl_status wait_event_for(inside *in)
{
    return axl_event_wait_for(in->ev, 5000000000ull);
}

static axl_status wait_queue(inside *in)
{
    return axl_queue_wait(in->q);
}

static axl_status wait_and_throw(inside *in)
{
    return axl_queue_wait_and_throw(in->q);
}

static axl_status profiling_end(inside *in)
{
    uint64_t ns;
    return axl_event_get_profiling(in->ev, AXL_PROFILING_COMMAND_END, &ns);
}

static axl_status profiling_start(inside *in)
{
    uint64_t ns;
    return axl_event_get_profiling(in->ev, AXL_PROFILING_COMMAND_START,
                                   &ns);
}

/* A wait can end: T waits for a command that does not wait for it. */
static axl_status wait_independent(inside *in)
{
    axl_event e;
    axl_status st = axl_queue_host_task(in->q, nothing, NULL, NULL, 0, &e);
    if (st == AXL_SUCCESS) {
        st = axl_event_wait(e);
        axl_event_release(e);
    }
    return st;
}

static void a_wait_inside_a_host_task_for_its_dependents_fails_at_once(
    void **s)
{
    (void)s;
    static axl_status (*const bodies[])(inside *) = {
        wait_event, wait_event_for, wait_queue, wait_and_throw,
        profiling_end, profiling_start};
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        inside in = {0};
        rig r = rig_up(&in, bodies[i], AXL_QUEUE_ENABLE_PROFILING);
        /* Through another command: d waits for c, which waits for T. */
        axl_event c;
        after(r.on.q, r.t, (axl_buffer){0}, &c);
        after(r.on.q, c, (axl_buffer){0}, &in.ev);
        open_and_join(&in);
        refused(&in, AXL_ERR_BAD_STATE);
        AXL_OK(axl_event_wait(in.ev)); /* nothing was cancelled */
        AXL_OK(axl_event_release(c));
        AXL_OK(axl_event_release(in.ev));
        rig_down(&r);
    }
    /* A wait that can end waits. */
    inside in = {0};
    rig r = rig_up(&in, wait_independent, 0);
    open_and_join(&in);
    AXL_OK(in.got);
    rig_down(&r);
}

/* ---- A buffer's last release and a host accessor ------------------------------ */

static axl_status release_buffer(inside *in)
{
    return axl_buffer_release(in->buf);
}

static axl_status host_accessor(inside *in)
{
    axl_host_accessor ha;
    void *p;
    axl_status st =
        axl_host_accessor_create(in->buf, AXL_ACCESS_READ, NULL, 0, &ha, &p);
    if (st == AXL_SUCCESS)
        axl_host_accessor_release(ha);
    return st;
}

static void a_release_or_accessor_inside_a_host_task_does_not_wait_for_it(
    void **s)
{
    (void)s;
    static axl_status (*const bodies[])(inside *) = {release_buffer,
                                                      host_accessor};
    for (size_t i = 0; i < 2; i++) {
        inside in = {0};
        rig r = rig_up(&in, bodies[i], 0);
        int32_t data[4] = {1, 2, 3, 4};
        AXL_OK(axl_buffer_create_from(data, 4, axl_range_1d(4), NULL,
                                      &in.buf));
        after(r.on.q, r.t, in.buf, NULL); /* writes the buffer after T */
        open_and_join(&in);
        refused(&in, AXL_ERR_BAD_STATE);
        AXL_OK(axl_queue_wait_and_throw(r.on.q));
        /* Nothing changed: the buffer still works, and goes. */
        axl_host_accessor ha;
        void *p;
        AXL_OK(axl_host_accessor_create(in.buf, AXL_ACCESS_READ, NULL, 0,
                                        &ha, &p));
        assert_int_equal(((int32_t *)p)[3], 4);
        AXL_OK(axl_host_accessor_release(ha));
        AXL_OK(axl_buffer_release(in.buf));
        rig_down(&r);
    }
}

/* T releases the last reference of a buffer it uses itself: the release
 * would wait for T. */
static void own_buffer_cgf(axl_handler *h, void *user)
{
    inside *in = user;
    axl_accessor a;
    axl_handler_require(h, in->buf, AXL_ACCESS_READ_WRITE, NULL, 0, &a);
    axl_handler_host_task(h, task, in);
}

static void a_host_task_cannot_release_the_last_reference_of_its_own_buffer(
    void **s)
{
    (void)s;
    inside in = {0};
    rig r = {.on = axl_test_rig_up(0)}; /* T is the command below */
    int32_t data[4] = {0};
    AXL_OK(axl_buffer_create_from(data, 4, axl_range_1d(4), NULL, &in.buf));
    in.body = release_buffer;
    AXL_OK(axl_queue_submit(r.on.q, own_buffer_cgf, &in, &r.t));
    open_and_join(&in);
    refused(&in, AXL_ERR_BAD_STATE);
    AXL_OK(axl_buffer_release(in.buf));
    rig_down(&r);
}

/* ---- Programming the device T's queue is on, and shutdown -------------------- */

static axl_status program(inside *in)
{
    axl_kernel_id scale;
    axl_status st = axl_get_kernel_id("scale", &scale);
    if (st == AXL_SUCCESS)
        st = axl_get_kernel_bundle_for(in->ctx, NULL, 0, &scale, 1,
                                       AXL_BUNDLE_EXECUTABLE, &in->made);
    return st;
}

static void programming_from_a_host_task_on_the_device_fails_at_once(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_app_xclbin,
                                      axl_test_app_xclbin_size));
    /* A device that reprograms on demand loads the design at the first
     * command instead (designs-design.md 2.2): nothing to wait for. */
    axl_test_emu_swaps(false);
    AXL_OK(axl_image_register(axl_test_app_xclbin, axl_test_app_xclbin_size));
    inside in = {0};
    rig r = rig_up(&in, program, 0);
    axl_test_rig_let_go(&r.on); /* its design must not hold the device */
    open_and_join(&in);
    refused(&in, AXL_ERR_BAD_STATE);
    rig_down(&r);
}

static axl_status shut_down(inside *in)
{
    (void)in;
    return axl_shutdown();
}

static void shutdown_from_a_host_task_fails_at_once(void **s)
{
    (void)s;
    inside in = {0};
    rig r = rig_up(&in, shut_down, 0);
    /* The application holds nothing: only T is left. */
    AXL_OK(axl_event_release(r.t));
    axl_test_rig_drop(&r.on);
    open_and_join(&in);
    refused(&in, AXL_ERR_BAD_STATE);
}

/* ---- Host tasks that wait for host tasks queued behind them ------------------- */

/* Every worker (AXL_HOST_TASK_WORKERS) runs a host task that waits for a
 * host task submitted after them all started: nothing is left to run the
 * later ones, unless a waiting worker does (before, the waits never
 * ended). */
static atomic_int waiters_started, later_submitted;
static axl_event later[AXL_HOST_TASK_WORKERS + 1];

static axl_status waits_for_later(void *user)
{
    const int i = (int)(intptr_t)user;
    atomic_fetch_add(&waiters_started, 1);
    for (int n = 0; n < 100000 && !atomic_load(&later_submitted); n++) {
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
    return axl_event_wait(later[i]);
}

static void host_tasks_waiting_on_every_worker_still_run_the_queued_ones(
    void **s)
{
    (void)s;
    enum { W = AXL_HOST_TASK_WORKERS };
    if (W == 0)
        skip(); /* host tasks run on the thread that makes them ready */
    atomic_store(&waiters_started, 0);
    atomic_store(&later_submitted, 0);
    axl_queue q;
    AXL_OK(axl_queue_create(AXL_NO_CONTEXT, axl_test_emu_device(), 0, NULL,
                            &q));
    axl_event w[W + 1];
    for (int i = 0; i < W; i++)
        AXL_OK(axl_queue_host_task(q, waits_for_later, (void *)(intptr_t)i,
                                   NULL, 0, &w[i]));
    for (int n = 0; n < 100000 && atomic_load(&waiters_started) < W; n++) {
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
    assert_int_equal(atomic_load(&waiters_started), W);
    for (int i = 0; i < W; i++)
        AXL_OK(axl_queue_host_task(q, nothing, NULL, NULL, 0, &later[i]));
    atomic_store(&later_submitted, 1);
    for (int i = 0; i < W; i++) {
        if (axl_event_wait_for(w[i], 10000000000ull) == AXL_ERR_TIMEOUT) {
            fprintf(stderr, "host task %d still waits after 10 s for a "
                            "host task no worker is left to run\n", i);
            fflush(stderr);
            _Exit(1);
        }
        AXL_OK(axl_event_wait(w[i]));
    }
    for (int i = 0; i < W; i++) {
        AXL_OK(axl_event_release(w[i]));
        AXL_OK(axl_event_release(later[i]));
    }
    AXL_OK(axl_queue_release(q));
}

#define T(f) cmocka_unit_test_setup_teardown(f, axl_test_setup, axl_test_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(creation_inside_a_host_task_does_not_wait_for_its_dependents),
        T(a_wait_inside_a_host_task_for_its_dependents_fails_at_once),
        T(a_release_or_accessor_inside_a_host_task_does_not_wait_for_it),
        T(a_host_task_cannot_release_the_last_reference_of_its_own_buffer),
        T(programming_from_a_host_task_on_the_device_fails_at_once),
        T(shutdown_from_a_host_task_fails_at_once),
        T(host_tasks_waiting_on_every_worker_still_run_the_queued_ones),
    };
    if (getenv("AXL_TEST_ONLY")) /* one test (a pattern) */
        cmocka_set_test_filter(getenv("AXL_TEST_ONLY"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
