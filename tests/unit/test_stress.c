/*
 * Thread stress: several application threads (6 by default) submit
 * fills, copies in every direction, vadd kernels and host tasks, at once,
 * to two shared queues (one in order, one out of order) and to a queue of
 * their own, over private buffers, sub-buffers of a private buffer, their
 * own sub-buffer of a shared buffer, and one accumulator every thread
 * adds into. Each thread keeps a sequential model of its buffers: SYCL
 * orders a buffer's conflicting accesses by submission (3.7.1, 4.7.2.3),
 * whatever queue a command went to, so every read-back equals the model
 * exactly; the accumulator, whose host tasks all conflict, must hold the
 * sum of every thread's additions (none lost, none twice). At the end
 * every pool is back to empty (axl_test_teardown).
 *
 * CI runs it in every preset, ThreadSanitizer's included. By hand, longer:
 *   AXL_STRESS_ITERS=20000 AXL_STRESS_THREADS=8 \
 *       build/tsan/tests/test_stress
 * (iterations per thread, 1 to 100000; threads 4 to 8).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axl_test.h"
#include "axl_config.h"

enum { N = 256, HALF = N / 2, MAXT = 8, ITERS_DEFAULT = 1000 };

static int nthreads = 6, iters = ITERS_DEFAULT;

/* Shared by all threads. */
static axl_queue shared_in, shared_ooo;
static axl_buffer shared_base; /* MAXT * N ints: thread t owns [tN, tN+N) */
static axl_buffer acc;         /* one int every thread adds into */
static axl_kernel vadd;
static axl_context shared_ctx; /* every queue's: the kernel's bundle's */

/* The views a thread uses, and its model of each base's contents. */
enum view { A, B, C, A_LO, A_HI, S, NVIEWS };

typedef struct thread_state {
    int t;
    unsigned seed;
    axl_queue own;
    axl_buffer v[NVIEWS];
    int32_t model[3][N]; /* A, B, C */
    int32_t model_s[N];  /* its part of the shared buffer */
    int32_t src[N];      /* copy_from_host source: never changes */
    int32_t dst[N];      /* copy_to_host target */
    long added;          /* what its host tasks added to acc */
    char failure[256];
} thread_state;

static thread_state ts[MAXT];

static int32_t *model_of(thread_state *s, int v, size_t *len)
{
    switch (v) {
    case A: *len = N; return s->model[0];
    case B: *len = N; return s->model[1];
    case C: *len = N; return s->model[2];
    case A_LO: *len = HALF; return s->model[0];
    case A_HI: *len = HALF; return s->model[0] + HALF;
    default: *len = N; return s->model_s;
    }
}

static unsigned next(thread_state *s)
{
    s->seed = s->seed * 1103515245u + 12345u;
    return s->seed >> 8;
}

#define TRY(call)                                                              \
    do {                                                                       \
        axl_status st_ = (call);                                               \
        if (st_ != AXL_SUCCESS) {                                              \
            snprintf(s->failure, sizeof s->failure, "%s: %s (%s)", #call,      \
                     axl_status_name(st_), axl_last_message());                \
            return false;                                                      \
        }                                                                      \
    } while (0)

/* A host task over one view: adds `delta` to each of its elements. */
typedef struct add_task {
    int32_t *p;
    size_t n;
    int32_t delta;
} add_task;

static axl_status add_run(void *user)
{
    add_task *a = user;
    for (size_t i = 0; i < a->n; i++)
        a->p[i] += a->delta;
    free(a);
    return AXL_SUCCESS;
}

typedef struct add_group {
    axl_buffer view;
    size_t n;
    int32_t delta;
} add_group;

static void add_cgf(axl_handler *h, void *user)
{
    const add_group *g = user;
    axl_accessor a;
    void *p = NULL;
    add_task *task = malloc(sizeof *task);
    if (!task || axl_handler_require(h, g->view, AXL_ACCESS_READ_WRITE, NULL,
                                     0, &a) != AXL_SUCCESS ||
        axl_handler_host_ptr(h, a, &p) != AXL_SUCCESS) {
        free(task);
        return; /* the submit reports the handler's error */
    }
    task->p = p;
    task->n = g->n;
    task->delta = g->delta;
    if (axl_handler_host_task(h, add_run, task) != AXL_SUCCESS)
        free(task);
}

static axl_queue pick_queue(thread_state *s)
{
    switch (next(s) % 3) {
    case 0: return shared_in;
    case 1: return shared_ooo;
    default: return s->own;
    }
}

static bool check(thread_state *s, int v, const int32_t *got, const char *when)
{
    size_t len;
    const int32_t *want = model_of(s, v, &len);
    for (size_t i = 0; i < len; i++)
        if (got[i] != want[i]) {
            snprintf(s->failure, sizeof s->failure,
                     "thread %d, view %d, element %zu %s: %d, model says %d",
                     s->t, v, i, when, (int)got[i], (int)want[i]);
            return false;
        }
    return true;
}

static bool one_op(thread_state *s)
{
    axl_queue q = pick_queue(s);
    int v = (int)(next(s) % NVIEWS);
    size_t len;
    int32_t *m = model_of(s, v, &len);
    switch (next(s) % 7) {
    case 0: { /* fill */
        int32_t val = (int32_t)(next(s) % 1000);
        TRY(axl_queue_fill(q, s->v[v], NULL, &val, sizeof val, NULL, 0,
                           NULL));
        for (size_t i = 0; i < len; i++)
            m[i] = val;
        break;
    }
    case 1: /* copy_from_host */
        TRY(axl_queue_copy_from_host(q, s->src, s->v[v], NULL, NULL, 0,
                                     NULL));
        memcpy(m, s->src, len * sizeof *m);
        break;
    case 2: { /* vadd: C = A + B, or S = A + B */
        int out = next(s) % 2 ? C : S;
        uint32_t n = N;
        axl_kernel_arg args[4] = {
            {.index = 0, .buffer = s->v[A], .mode = AXL_ACCESS_READ},
            {.index = 1, .buffer = s->v[B], .mode = AXL_ACCESS_READ},
            {.index = 2, .buffer = s->v[out], .mode = AXL_ACCESS_WRITE},
            {.index = 3, .value = &n, .size = sizeof n}};
        TRY(axl_queue_single_task(q, vadd, args, 4, NULL, 0, NULL));
        int32_t *o = model_of(s, out, &len);
        for (size_t i = 0; i < N; i++)
            o[i] = s->model[0][i] + s->model[1][i];
        break;
    }
    case 3: { /* buffer to buffer, same length */
        static const int pairs[][2] = {{A, C}, {B, A}, {S, B}, {C, S},
                                       {A_LO, A_HI}, {A_HI, A_LO}};
        const int *p = pairs[next(s) % 6];
        TRY(axl_queue_copy(q, s->v[p[0]], NULL, s->v[p[1]], NULL, NULL, 0,
                           NULL));
        size_t l1, l2;
        int32_t *from = model_of(s, p[0], &l1);
        int32_t *to = model_of(s, p[1], &l2);
        memmove(to, from, l1 * sizeof *to);
        break;
    }
    case 4: { /* a host task adds to every element of a view */
        add_group g = {s->v[v], len, (int32_t)(next(s) % 7) + 1};
        TRY(axl_queue_submit(q, add_cgf, &g, NULL));
        for (size_t i = 0; i < len; i++)
            m[i] += g.delta;
        break;
    }
    case 5: { /* the accumulator every thread adds into */
        add_group g = {acc, 1, s->t + 1};
        TRY(axl_queue_submit(q, add_cgf, &g, NULL));
        s->added += s->t + 1;
        break;
    }
    default: { /* read back and compare now */
        axl_event e;
        TRY(axl_queue_copy_to_host(q, s->v[v], NULL, s->dst, NULL, 0, &e));
        TRY(axl_event_wait(e));
        TRY(axl_event_release(e));
        if (!check(s, v, s->dst, "read back"))
            return false;
        break;
    }
    }
    return true;
}

static bool run_thread(thread_state *s)
{
    TRY(axl_queue_create(shared_ctx, axl_test_emu_device(),
                         s->t % 2 ? AXL_QUEUE_IN_ORDER : 0, NULL, &s->own));
    for (int b = 0; b < 3; b++)
        TRY(axl_buffer_create(4, axl_range_1d(N), NULL, &s->v[b]));
    size_t lo = 0, hi = HALF, mine = (size_t)s->t * N;
    TRY(axl_buffer_create_sub(s->v[A], (size_t[3]){lo, 0, 0},
                              axl_range_1d(HALF), &s->v[A_LO]));
    TRY(axl_buffer_create_sub(s->v[A], (size_t[3]){hi, 0, 0},
                              axl_range_1d(HALF), &s->v[A_HI]));
    TRY(axl_buffer_create_sub(shared_base, (size_t[3]){mine, 0, 0},
                              axl_range_1d(N), &s->v[S]));
    for (int i = 0; i < N; i++)
        s->src[i] = s->t * 100000 + i;
    /* Known contents to start from. */
    int32_t zero = 0;
    for (int v = A; v <= C; v++)
        TRY(axl_queue_fill(s->own, s->v[v], NULL, &zero, 4, NULL, 0, NULL));
    TRY(axl_queue_fill(s->own, s->v[S], NULL, &zero, 4, NULL, 0, NULL));
    for (int i = 0; i < iters; i++)
        if (!one_op(s))
            return false;
    /* Final contents, through host accessors. */
    for (int v = 0; v < NVIEWS; v++) {
        axl_host_accessor ha;
        void *p;
        TRY(axl_host_accessor_create(s->v[v], AXL_ACCESS_READ, NULL, 0, &ha,
                                     &p));
        bool ok = check(s, v, p, "at the end");
        TRY(axl_host_accessor_release(ha));
        if (!ok)
            return false;
    }
    TRY(axl_queue_wait(s->own));
    for (int v = NVIEWS - 1; v >= 0; v--)
        TRY(axl_buffer_release(s->v[v]));
    TRY(axl_queue_release(s->own));
    return true;
}

static void *thread_main(void *p)
{
    thread_state *s = p;
    return run_thread(s) ? NULL : (void *)1;
}

static int env_int(const char *name, int dflt, int lo, int hi)
{
    const char *e = getenv(name);
    if (!e || !*e)
        return dflt;
    int v = atoi(e);
    return v < lo ? lo : v > hi ? hi : v;
}

static void threads_submit_kernels_copies_and_host_tasks_match_sequential_model_3_7_1(
    void **state)
{
    (void)state;
    /* Each thread's program takes sub-buffers, host accessors and host
     * tasks. */
    axl_buffer no_buffer = AXL_NONE;
    axl_host_accessor ha0;
    void *p0;
    AXL_TEST_NEEDS(AXL_FEATURE_SUB_BUFFERS,
                   axl_buffer_create_sub(no_buffer, (size_t[3]){0, 0, 0},
                                         axl_range_1d(1), &no_buffer));
    AXL_TEST_NEEDS(AXL_FEATURE_HOST_ACCESSORS,
                   axl_host_accessor_create(no_buffer, AXL_ACCESS_READ, NULL,
                                            0, &ha0, &p0));
    AXL_TEST_NEEDS(AXL_FEATURE_HOST_TASKS,
                   axl_queue_host_task((axl_queue)AXL_NONE, add_run, NULL,
                                       NULL, 0, NULL));
    nthreads = env_int("AXL_STRESS_THREADS", 6, 4, MAXT);
    iters = env_int("AXL_STRESS_ITERS", ITERS_DEFAULT, 1, 100000);
    axl_device dev = axl_test_emu_device();
    AXL_OK(axl_context_create(&dev, 1, NULL, &shared_ctx));
    AXL_OK(axl_queue_create(shared_ctx, dev, AXL_QUEUE_IN_ORDER, NULL,
                            &shared_in));
    AXL_OK(axl_queue_create(shared_ctx, dev, 0, NULL, &shared_ooo));
    AXL_OK(axl_buffer_create(4, axl_range_1d((size_t)MAXT * N), NULL,
                             &shared_base));
    AXL_OK(axl_buffer_create(4, axl_range_1d(1), NULL, &acc));
    int32_t zero = 0;
    AXL_OK(axl_queue_fill(shared_in, acc, NULL, &zero, 4, NULL, 0, NULL));
    axl_kernel_id kid;
    axl_kernel_bundle bundle;
    AXL_OK(axl_get_built_in_kernel_id(dev, "vadd", &kid));
    AXL_OK(axl_get_kernel_bundle_for(shared_ctx, &dev, 1, &kid, 1,
                                     AXL_BUNDLE_EXECUTABLE, &bundle));
    AXL_OK(axl_kernel_bundle_get_kernel(bundle, kid, &vadd));

    pthread_t th[MAXT];
    for (int t = 0; t < nthreads; t++) {
        memset(&ts[t], 0, sizeof ts[t]);
        ts[t].t = t;
        ts[t].seed = 0x9E3779B9u * (unsigned)(t + 1);
        assert_int_equal(pthread_create(&th[t], NULL, thread_main, &ts[t]),
                         0);
    }
    bool failed = false;
    for (int t = 0; t < nthreads; t++) {
        void *ret;
        pthread_join(th[t], &ret);
        if (ret) {
            print_error("%s\n", ts[t].failure);
            failed = true;
        }
    }
    assert_false(failed);

    long want = 0;
    for (int t = 0; t < nthreads; t++)
        want += ts[t].added;
    axl_host_accessor ha;
    void *p;
    AXL_OK(axl_host_accessor_create(acc, AXL_ACCESS_READ, NULL, 0, &ha, &p));
    assert_int_equal(*(int32_t *)p, want);
    AXL_OK(axl_host_accessor_release(ha));

    AXL_OK(axl_queue_wait(shared_in));
    AXL_OK(axl_queue_wait(shared_ooo));
    AXL_OK(axl_kernel_release(vadd));
    AXL_OK(axl_kernel_bundle_release(bundle));
    AXL_OK(axl_buffer_release(acc));
    AXL_OK(axl_buffer_release(shared_base));
    AXL_OK(axl_queue_release(shared_ooo));
    AXL_OK(axl_queue_release(shared_in));
    AXL_OK(axl_context_release(shared_ctx));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(
            threads_submit_kernels_copies_and_host_tasks_match_sequential_model_3_7_1,
            axl_test_setup, axl_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
