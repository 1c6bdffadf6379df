/*
 * The one executor (core/exec.c) on its own, with a client made of test
 * code: runs that end inside their start, later on the test's thread, on
 * other threads or as an interrupt would (a claim nobody drives), fail,
 * wait for a unit, and nodes of several runs. Each rule of the walk is
 * checked against what the client saw: every node settles exactly once,
 * after its predecessors, a failure skips what depends on it and nothing
 * else, and exactly one context is told it finished a submission.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>

#include "axl_test.h"
#include "exec.h"

enum { MAX = 4095, WORDS = (MAX + 31) / 32 };

/* How the test client ends the runs it is asked to start. */
enum mode {
    INSIDE,   /* inside start */
    LATER,    /* listed; the test ends them */
    THREADS,  /* on a few threads of the test */
    HERE,     /* inside start, answered AXL__EXEC_ENDED_HERE (no report) */
};

static struct client {
    enum mode mode;
    axl__exec x;
    axl__exec_graph g;
    axl_plan_node nodes[MAX];
    uint16_t preds[2 * MAX];
    uint16_t succ0[MAX + 1], succ[2 * MAX];
    uint32_t roots[WORDS], ready[WORDS], doomed[WORDS], failed[WORDS];
    _Atomic uint32_t ended[WORDS];
    uint16_t waiting[MAX], next_run[MAX];
    _Atomic uint16_t runs_left[MAX];
    _Atomic int32_t node_st[MAX];
    char why[2][AXL_MESSAGE_MAX];
    uint16_t why_node[2];
    /* What it saw. */
    _Atomic uint32_t starts[MAX];    /* runs started, per node */
    _Atomic uint32_t order;          /* starts so far */
    uint32_t started_at[MAX];        /* its first start's place */
    axl_status fail_start[MAX];      /* a start of this node fails so */
    axl_status fail_run[MAX];        /* its runs end so */
    int waits[MAX];                  /* starts that answer WAIT first */
    /* LATER, THREADS: runs to end, in the order started (node + 1; 0:
     * not written yet). */
    _Atomic uint32_t todo[2 * MAX];
    _Atomic uint32_t ntodo;
    _Atomic uint32_t finished;       /* contexts told they finished */
} c;

static axl_status start(axl__exec *x, uint32_t n, uint32_t r)
{
    (void)r;
    if (c.waits[n] > 0) {
        c.waits[n]--;
        return AXL__EXEC_WAIT; /* the test kicks */
    }
    if (c.fail_start[n]) {
        char *why = axl__exec_why(x, n);
        if (why)
            strcpy(why, "could not start");
        return c.fail_start[n];
    }
    if (atomic_fetch_add(&c.starts[n], 1) == 0)
        c.started_at[n] = atomic_fetch_add(&c.order, 1);
    /* Every predecessor has ended (and succeeded). */
    const axl_plan_node *nd = &c.nodes[n];
    for (uint32_t e = 0; e < nd->npreds; e++)
        assert_true(atomic_load(&c.starts[c.preds[nd->pred0 + e]]) > 0);
    if (c.mode == HERE) {
        if (c.fail_run[n])
            axl__exec_fail(x, n, c.fail_run[n]);
        return AXL__EXEC_ENDED_HERE;
    }
    if (c.mode == INSIDE) {
        if (axl__exec_run_ended(x, n, c.fail_run[n], true))
            atomic_fetch_add(&c.finished, 1);
    } else {
        atomic_store(&c.todo[atomic_fetch_add(&c.ntodo, 1)], n + 1);
    }
    return AXL_SUCCESS;
}

static const axl__exec_ops ops = {.start = start};
static const axl__exec_ops ops_here = {.start = start, .ends_here = true};

/* A graph of n nodes; edges given by the caller after. */
static void graph(uint32_t n, enum mode mode)
{
    memset(&c, 0, sizeof c);
    c.mode = mode;
    c.g.nnodes = n;
    c.g.words = (n + 31) / 32;
    c.g.nodes = c.nodes;
    c.g.succ0 = c.succ0;
    c.g.succ = c.succ;
    c.g.roots = c.roots;
}

static uint32_t npreds;

static void node(uint32_t n, uint16_t nruns, unsigned k, ...)
{
    va_list ap;
    va_start(ap, k);
    c.nodes[n].pred0 = (uint16_t)npreds;
    c.nodes[n].npreds = (uint16_t)k;
    c.nodes[n].nruns = nruns;
    for (unsigned i = 0; i < k; i++)
        c.preds[npreds++] = (uint16_t)va_arg(ap, unsigned);
    va_end(ap);
}

static void ready_graph(void)
{
    assert_true(axl__exec_build(c.nodes, c.g.nnodes, c.preds, c.succ0,
                                c.succ, c.roots));
    c.x.g = &c.g;
    c.x.ops = c.mode == HERE ? &ops_here : &ops;
    c.x.ready = c.ready;
    c.x.doomed = c.doomed;
    c.x.failed = c.failed;
    c.x.ended = c.ended;
    c.x.waiting = c.waiting;
    c.x.next_run = c.next_run;
    c.x.runs_left = c.runs_left;
    c.x.node_st = c.node_st;
    c.x.why = c.why;
    c.x.why_node = c.why_node;
    c.x.nwhy = 2;
    axl__exec_init(&c.x);
    npreds = 0;
}

static void chain(uint32_t n, enum mode mode)
{
    graph(n, mode);
    npreds = 0;
    node(0, 0, 0);
    for (uint32_t i = 1; i < n; i++)
        node(i, 0, 1, i - 1);
    ready_graph();
}

static void submit(void)
{
    for (uint32_t n = 0; n < c.g.nnodes; n++)
        atomic_store(&c.starts[n], 0);
    atomic_store(&c.order, 0);
    atomic_store(&c.ntodo, 0);
    atomic_store(&c.finished, 0);
    axl__exec_begin(&c.x);
    if (axl__exec_drive(&c.x))
        atomic_fetch_add(&c.finished, 1);
}

/* LATER: ends the listed runs, in order, until none is left. */
static void end_later(void)
{
    for (uint32_t i = 0; i < atomic_load(&c.ntodo); i++) {
        const uint32_t n = atomic_exchange(&c.todo[i], 0) - 1;
        if (axl__exec_run_ended(&c.x, n, c.fail_run[n], true))
            atomic_fetch_add(&c.finished, 1);
    }
}

/* ---- A chain ------------------------------------------------------------ */

/* 4,095 nodes, each run ending inside its start: one drive settles them
 * all in order, with no recursion (a stack per node would overflow the
 * test's), and says it finished. */
static void a_chain_that_ends_inside_its_starts_is_one_loop(void **s)
{
    (void)s;
    chain(MAX, INSIDE);
    for (int rep = 0; rep < 2; rep++) {
        submit();
        assert_int_equal(atomic_load(&c.finished), 1);
        for (uint32_t n = 0; n < MAX; n++) {
            assert_int_equal(atomic_load(&c.starts[n]), 1);
            assert_int_equal(c.started_at[n], n);
        }
        assert_int_equal(c.x.status, AXL_SUCCESS);
    }
}

/* Runs that end after their start returned: the drive returns without
 * finishing, and the end of the last run finishes the submission. */
static void runs_that_end_later_finish_with_the_last_end(void **s)
{
    (void)s;
    chain(64, LATER);
    submit();
    assert_int_equal(atomic_load(&c.finished), 0);
    end_later();
    assert_int_equal(atomic_load(&c.finished), 1);
    for (uint32_t n = 0; n < 64; n++)
        assert_int_equal(atomic_load(&c.starts[n]), 1);
}

/* ---- Failures ------------------------------------------------------------ */

/*
 *   0 -> 1 -> 2        1 fails: 2 and 4 are skipped (4 waits for 1 and 3),
 *   3 -> 4 (after 1)   0, 3, 5 run; 5 waits for 0 and 3 only.
 *   5 (after 0, 3)
 */
static void a_failure_skips_what_depends_on_it_and_nothing_else(void **s)
{
    (void)s;
    const enum mode modes[3] = {INSIDE, LATER, HERE};
    for (int m = 0; m < 3; m++) {
        graph(6, modes[m]);
        npreds = 0;
        node(0, 0, 0);
        node(1, 0, 1, 0);
        node(2, 0, 1, 1);
        node(3, 0, 0);
        node(4, 0, 2, 1, 3);
        node(5, 0, 2, 0, 3);
        ready_graph();
        c.fail_run[1] = AXL_ERR_KERNEL;
        for (int rep = 0; rep < 2; rep++) {
            submit();
            end_later();
            assert_int_equal(atomic_load(&c.finished), 1);
            const int ran[6] = {1, 1, 0, 1, 0, 1};
            for (uint32_t n = 0; n < 6; n++) {
                assert_int_equal(atomic_load(&c.starts[n]), ran[n]);
                assert_int_equal(axl__exec_failed(&c.x, n),
                                 n == 1 || n == 2 || n == 4);
                assert_int_equal(axl__exec_skipped(&c.x, n), n == 2 || n == 4);
            }
            assert_int_equal(axl__exec_status(&c.x, 4), AXL_ERR_KERNEL);
            assert_int_equal(axl__exec_status(&c.x, 5), AXL_SUCCESS);
            assert_int_equal(c.x.status, AXL_ERR_KERNEL);
            assert_int_equal(c.x.first_failed, 1);
        }
        /* Mended, the next submission runs every node. */
        c.fail_run[1] = AXL_SUCCESS;
        submit();
        end_later();
        assert_int_equal(atomic_load(&c.finished), 1);
        for (uint32_t n = 0; n < 6; n++) {
            assert_int_equal(atomic_load(&c.starts[n]), 1);
            assert_false(axl__exec_failed(&c.x, n));
        }
        assert_int_equal(c.x.status, AXL_SUCCESS);
    }
}

/* Runs whose start answers AXL__EXEC_ENDED_HERE (the runtime's replay on
 * a port that ends runs inside their start) are never reported: the
 * driver settles them and the submission finishes in the drive (the
 * failure rule in that mode: above). A node of three runs settles with
 * its last, fails with a failed one and skips its successor; mended, it
 * runs whole again. */
static void runs_that_end_here_settle_without_a_report(void **s)
{
    (void)s;
    graph(3, HERE);
    npreds = 0;
    node(0, 0, 0);
    node(1, 3, 1, 0); /* three runs */
    node(2, 0, 1, 1);
    ready_graph();
    const axl_status fail[3] = {AXL_SUCCESS, AXL_ERR_RUNTIME, AXL_SUCCESS};
    for (int rep = 0; rep < 3; rep++) {
        c.fail_run[1] = fail[rep];
        submit();
        assert_int_equal(atomic_load(&c.finished), 1);
        assert_int_equal(c.x.left, 0);
        assert_int_equal(atomic_load(&c.starts[1]), 3);
        assert_int_equal(atomic_load(&c.starts[2]), fail[rep] ? 0 : 1);
        assert_int_equal(axl__exec_failed(&c.x, 1), fail[rep] != 0);
        assert_int_equal(axl__exec_skipped(&c.x, 2), fail[rep] != 0);
        assert_int_equal(c.x.status, fail[rep]);
    }
}

/* A start that fails fails its node, with the message it gave; a long
 * chain after it is skipped in the same drive. */
static void a_start_that_fails_skips_the_chain_after_it(void **s)
{
    (void)s;
    chain(MAX, INSIDE);
    c.fail_start[10] = AXL_ERR_RUNTIME;
    submit();
    assert_int_equal(atomic_load(&c.finished), 1);
    assert_int_equal(atomic_load(&c.starts[9]), 1);
    assert_int_equal(atomic_load(&c.starts[10]), 0);
    assert_true(axl__exec_skipped(&c.x, MAX - 1));
    assert_false(axl__exec_skipped(&c.x, 10));
    assert_true(axl__exec_failed(&c.x, 10));
    assert_int_equal(c.x.status, AXL_ERR_RUNTIME);
    assert_int_equal(c.x.first_failed, 10);
    assert_int_equal(atomic_load(&c.x.whys), 1);
    assert_int_equal(c.why_node[0], 10);
    assert_string_equal(c.why[0], "could not start");
}

/* ---- Units taken, nodes of several runs ---------------------------------- */

/* A node whose unit is taken waits for the kick its start promised, and
 * runs then; the submission does not finish before. */
static void a_run_that_waits_for_its_unit_starts_at_the_kick(void **s)
{
    (void)s;
    chain(3, INSIDE);
    c.waits[1] = 2;
    submit();
    assert_int_equal(atomic_load(&c.finished), 0);
    assert_int_equal(atomic_load(&c.starts[1]), 0);
    assert_false(axl__exec_kick(&c.x, true)); /* it waits again */
    assert_int_equal(atomic_load(&c.starts[1]), 0);
    assert_true(axl__exec_kick(&c.x, true));
    assert_int_equal(atomic_load(&c.starts[2]), 1);
}

/* A node of 5 runs ends with its last run, whichever that is, and fails
 * with its first failure; a start that fails half-way fails it, and the
 * runs started before still end. */
static void a_node_of_several_runs_ends_with_its_last(void **s)
{
    (void)s;
    graph(2, LATER);
    npreds = 0;
    node(0, 5, 0);
    node(1, 0, 1, 0);
    ready_graph();
    submit();
    assert_int_equal(atomic_load(&c.ntodo), 5);
    for (uint32_t i = 0; i < 4; i++)
        assert_false(axl__exec_run_ended(&c.x, 0,
                                         i == 2 ? AXL_ERR_KERNEL : AXL_SUCCESS,
                                         true));
    assert_int_equal(atomic_load(&c.starts[1]), 0);
    assert_true(axl__exec_run_ended(&c.x, 0, AXL_SUCCESS, true));
    assert_true(axl__exec_skipped(&c.x, 1));
    assert_int_equal(axl__exec_status(&c.x, 0), AXL_ERR_KERNEL);
    /* Again, well: its runs' count came back. */
    submit();
    for (uint32_t i = 0; i < 5; i++)
        (void)axl__exec_run_ended(&c.x, 0, AXL_SUCCESS, true);
    assert_int_equal(atomic_load(&c.starts[1]), 1);
    assert_true(axl__exec_run_ended(&c.x, 1, AXL_SUCCESS, true));
    assert_int_equal(c.x.status, AXL_SUCCESS);
}

/* ---- Contexts that may not drive, and threads ------------------------------ */

/* A run end that may not drive (an interrupt) leaves the claim to whoever
 * adopts it; nothing moves until then. */
static void an_end_that_may_not_drive_leaves_the_claim_to_adopt(void **s)
{
    (void)s;
    chain(3, LATER);
    submit();
    assert_false(axl__exec_adopt(&c.x)); /* nothing to adopt */
    for (uint32_t n = 0; n < 3; n++) {
        assert_int_equal(atomic_load(&c.starts[n]), 1);
        assert_false(axl__exec_run_ended(&c.x, n, AXL_SUCCESS, false));
        if (n < 2)
            assert_int_equal(atomic_load(&c.starts[n + 1]), 0);
        assert_true(axl__exec_adopt(&c.x));
        assert_false(axl__exec_adopt(&c.x)); /* one adopter */
        assert_int_equal(axl__exec_drive_held(&c.x), n == 2);
    }
}

/* Wide graphs whose runs end on four threads at once, many times: every
 * node runs once per submission, and exactly one context finishes each
 * (TSan checks the hand-offs). The next run to end is the submission's
 * number (high 16 bits) and its place in todo: an ender that looked at
 * todo[i] in one submission and was put to sleep before its claim cannot
 * claim place i of a later one, whose run may not be written yet (it
 * read 0 from todo, and ended node 0xFFFFFFFF: a crash under load). */
static _Atomic uint32_t next_todo;
static _Atomic int stop_threads;

static void *ender(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop_threads)) {
        const uint32_t w = atomic_load(&next_todo);
        const uint32_t i = w & 0xFFFFu;
        if (i >= atomic_load(&c.ntodo))
            continue;
        if (!atomic_load(&c.todo[i]))
            continue; /* reserved, not written yet */
        uint32_t want = w;
        if (!atomic_compare_exchange_strong(&next_todo, &want, w + 1))
            continue;
        const uint32_t n = atomic_exchange(&c.todo[i], 0) - 1;
        if (axl__exec_run_ended(&c.x, n, c.fail_run[n], (i & 3) != 0))
            atomic_fetch_add(&c.finished, 1);
    }
    return NULL;
}

static void runs_ending_on_threads_finish_each_submission_once(void **s)
{
    (void)s;
    enum { W = 200 };
    graph(W, THREADS);
    npreds = 0;
    /* Layers of 20, each node after two of the layer before. */
    for (uint32_t n = 0; n < W; n++) {
        if (n < 20)
            node(n, n % 3 == 0 ? 3 : 0, 0);
        else
            node(n, n % 3 == 0 ? 3 : 0, 2, n - 20, n - 20 + (n % 20 ? -1 : 1));
    }
    ready_graph();
    c.fail_run[57] = AXL_ERR_KERNEL;
    pthread_t t[4];
    atomic_store(&stop_threads, 0);
    atomic_store(&next_todo, 0);
    for (int i = 0; i < 4; i++)
        assert_int_equal(pthread_create(&t[i], NULL, ender, NULL), 0);
    for (int rep = 0; rep < 200; rep++) {
        atomic_store(&next_todo, (uint32_t)rep << 16);
        submit();
        /* Claims left by the ends that may not drive are adopted here. */
        while (!atomic_load(&c.finished)) {
            if (axl__exec_adopt(&c.x) && axl__exec_drive_held(&c.x))
                atomic_fetch_add(&c.finished, 1);
        }
        assert_int_equal(atomic_load(&c.finished), 1);
        for (uint32_t n = 0; n < W; n++)
            if (!axl__exec_failed(&c.x, n))
                assert_int_equal(atomic_load(&c.starts[n]),
                                 n % 3 == 0 ? 3 : 1);
        assert_true(axl__exec_failed(&c.x, 57));
        assert_true(axl__exec_skipped(&c.x, 77));
        assert_false(axl__exec_failed(&c.x, 56 - 20));
    }
    atomic_store(&stop_threads, 1);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
}

/* An edge to a node that is not before its own is refused (a plan is
 * data from anywhere). */
static void an_edge_to_a_later_node_is_refused(void **s)
{
    (void)s;
    graph(3, INSIDE);
    npreds = 0;
    node(0, 0, 0);
    node(1, 0, 1, 2);
    node(2, 0, 0);
    assert_false(axl__exec_build(c.nodes, 3, c.preds, c.succ0, c.succ,
                                 c.roots));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_chain_that_ends_inside_its_starts_is_one_loop),
        cmocka_unit_test(runs_that_end_later_finish_with_the_last_end),
        cmocka_unit_test(a_failure_skips_what_depends_on_it_and_nothing_else),
        cmocka_unit_test(runs_that_end_here_settle_without_a_report),
        cmocka_unit_test(a_start_that_fails_skips_the_chain_after_it),
        cmocka_unit_test(a_run_that_waits_for_its_unit_starts_at_the_kick),
        cmocka_unit_test(a_node_of_several_runs_ends_with_its_last),
        cmocka_unit_test(an_end_that_may_not_drive_leaves_the_claim_to_adopt),
        cmocka_unit_test(runs_ending_on_threads_finish_each_submission_once),
        cmocka_unit_test(an_edge_to_a_later_node_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
