/*
 * replay.c - submissions of an executable graph's plan (replay.h): one
 * command and one event per submission, whose nodes the one executor
 * (exec.c) runs: a node's runs are started through the device port by
 * whoever drives (the submitting thread, or the thread a run ended on),
 * and a run's end readies its successors and starts them, with no command,
 * event or lock per node. The runtime lock is taken to commit and to
 * finish a submission, and on slow paths (a unit another holds, a run
 * past its timeout, a claim an interrupt left).
 *
 * The rules (docs/design.md, "Graphs"): the scheduler sees one command,
 * ordered against commands outside the graph by edges that only order
 * (access.c: a graph's buffers carry its mark); a failed node loses what
 * it writes and what depends on it, nothing else, and the commands after
 * the graph look at what they read (axl__after_graph_lost); the event is
 * running from the first node's start, its command_start that start and
 * command_end the last end; each node's failure is an asynchronous error
 * of the queue, the first one the event's.
 */
#include <string.h>

#include "rt.h"
#include "cu.h"
#include "device_priv.h"
#include "queue_priv.h"
#include "event_priv.h"
#include "buffer_priv.h"
#include "sched_priv.h"
#include "handler_priv.h"
#include "kernel.h"
#include "transfer.h"
#include "graph_priv.h"
#include "access.h"
#include "devops.h"
#include "image.h"
#include "observe.h"
#include "replay.h"
#include "pipeline_priv.h"
#include "swap.h"

#if AXL_FEATURE_GRAPHS


static inline struct axl__device *device_of(const struct axl__plan *p)
{
    return axl__device_at(p->device);
}

/* Whether executable-graph slot s is allocated (live, or released while
 * its submissions run). */
static bool exec_in_use(uint16_t s)
{
    const axl__pool *xp = AXL__POOL(GRAPH_EXEC);
    return xp->link[s] == AXL__SLOT_LIVE || xp->link[s] == AXL__SLOT_RETIRED;
}

/* ---- Commit ------------------------------------------------------------------ */

/* x's submission c is committed: pending, and the last. */
static axl_status committed(struct axl__graph_exec *x,
                            const struct axl__command *c)
{
    x->pending++;
    x->plan->pending++;
    x->last = axl__pool_slot_handle(AXL__POOL(EVENT), c->event);
    return AXL_SUCCESS;
}

axl_status axl__replay_commit(const char *fn, struct axl__queue *q,
                              struct axl__graph_exec *x,
                              const uint32_t *deps, unsigned ndeps,
                              bool overflow, axl_event *out)
{
    struct axl__command *c;
    axl_status st;
    if (!axl__observing()) {
        /* The lean commit: no handler (nothing records it). */
        st = axl__commit_replay(fn, q, AXL__SLOT(GRAPH_EXEC, x), x->plan,
                                deps, ndeps, overflow, &c, out);
        if (st != AXL_SUCCESS)
            return st;
        return committed(x, c);
    }
    /* As a checked group with no accessor of its own, its dependencies
     * explicit (axl__commit): its buffers' accesses are the plan's,
     * committed by axl__replay_edges from the commit. */
    axl_handler h;
    h.kind = AXL__CMD_REPLAY;
    h.a0 = h.a1 = 0;
    h.nacc = 0;
    h.memo = 1; /* nothing to place */
    h.ndeps = (uint16_t)ndeps;
    memcpy(h.deps, deps, ndeps * sizeof deps[0]);
    h.deps_overflow = overflow;
    h.u.replay.exec = AXL__SLOT(GRAPH_EXEC, x);
    h.u.replay.plan = x->plan;
    st = axl__commit(fn, q, &h, &c, out);
    if (st != AXL_SUCCESS)
        return st;
    return committed(x, c);
}

/* Whether the event `last` (a handle the runtime made) is still pending,
 * and a submission to q must wait for it to keep one instance of a graph
 * at a time: not on an in-order queue that made it, whose order does. */
static struct axl__event *running_last(uint32_t last, const struct axl__queue *q)
{
    if (!last)
        return NULL;
    const uint16_t es = AXL__HANDLE_SLOT(last);
    struct axl__event *e = axl__event_at(es);
    if (AXL__POOL(EVENT)->gen[es] != (uint16_t)(last >> AXL__HANDLE_GEN_SHIFT) ||
        atomic_load_explicit(&e->state, memory_order_acquire) ==
            AXL_EVENT_COMPLETE ||
        ((q->flags & AXL_QUEUE_IN_ORDER) && e->queue == AXL__HANDLE(QUEUE, q)))
        return NULL;
    return e;
}

void axl__replay_edges(struct axl__command *c, struct axl__queue *q)
{
    struct axl__graph_exec *x = axl__graph_exec_at(c->u.replay.exec);
    struct axl__plan *p = c->u.replay.plan;
    /* sycl_ext_oneapi_graph, "New Handler Member Functions",
     * ext_oneapi_graph(graph): "Only one instance of graph will execute
     * at any time": after the last submission if it still runs, by an
     * edge that only orders (its failure is not this one's). */
    struct axl__event *last = running_last(x->last, q);
    if (last)
        axl__add_dep(c, last, false);
    axl__access_commit_graph(c, p);
    for (uint16_t k = 0; k < p->nkernels; k++)
        axl__kernel_at(p->kernels[k])->holds++;
}

/* ---- Units ------------------------------------------------------------------- */

void axl__unit_freed(struct axl__device *d, struct axl__cu *cu)
{
    (void)d;
    if (atomic_exchange(&cu->wanted, 0))
        for (uint16_t s = 0; s < AXL_MAX_GRAPH_EXECS; s++)
            for (; cu->waiting[s]; cu->waiting[s]--) {
                /* The kick a start promised: the claim, if taken here, is
                 * left for a pump (no driving with the lock held). */
                (void)axl__exec_kick(&axl__graph_exec_at(s)->run_plan->x,
                                     false);
                atomic_store(&axl__rt.replay_kick, 1);
            }
    if (atomic_exchange(&axl__rt.unit_waits, 0)) {
        axl__fifo_move(&axl__rt.ready, &axl__rt.cu_wait);
        /* Ready now, and this thread may not pump (a graph's run end):
         * a wait for one of them pumps it, woken (asleep, it would wait
         * for the graph's end, or for ever with no run's deadline to
         * wake it). */
        if (axl__rt.waiters)
            axl_port_wake(AXL_PORT_CHANNEL_DONE);
    }
}

/* The unit a graph's run had is free (no lock held): the ones that wait
 * for it are told, under the lock, when some do. True when kernel
 * commands that waited for a unit went to the ready list: the caller
 * pumps them if it may. */
static bool unit_release(struct axl__device *d, struct axl__cu *cu)
{
    atomic_store_explicit(&cu->prun, NULL, memory_order_relaxed);
    atomic_store(&cu->taken, 0);
    bool moved = false;
    if (atomic_load(&cu->wanted) || atomic_load(&axl__rt.unit_waits)) {
        axl_port_lock();
        moved = AXL__IS_REF(axl__rt.cu_wait.head);
        axl__unit_freed(d, cu);
        moved = moved && !AXL__IS_REF(axl__rt.cu_wait.head);
        axl_port_unlock();
    }
    return moved;
}

/* The unit of node n's run was taken (driver; no lock held): a kick is
 * promised for when it is free (AXL__EXEC_WAIT), unless it came free
 * meanwhile and is this run's now (AXL_SUCCESS). A hung unit fails the
 * run at once. */
AXL__COLD static axl_status wait_for_unit(struct axl__plan *p,
                                          struct axl__cu *cu, uint32_t n)
{
    struct axl__device *d = device_of(p);
    axl_port_lock();
    axl_status st = AXL__EXEC_WAIT;
    if (cu->hung) {
        char what[AXL_MESSAGE_MAX - 64];
        axl__unit_what(d, cu, what, sizeof what);
        char *w = axl__exec_why(&p->x, n);
        if (w)
            axl__why(w, AXL_MESSAGE_MAX, "node %u: no free unit: %s",
                     (unsigned)n, what);
        st = AXL_ERR_RUNTIME;
    } else {
        /* Said first, then looked at again: a release between the two
         * either sees `wanted` (and kicks, under this lock, after it), or
         * is seen here. */
        cu->waiting[p->exec]++;
        atomic_store(&cu->wanted, 1);
        uint8_t free_ = 0;
        if (atomic_compare_exchange_strong(&cu->taken, &free_, 1)) {
            cu->waiting[p->exec]--;
            st = AXL_SUCCESS;
        }
    }
    axl_port_unlock();
    return st;
}

/* ---- Runs -------------------------------------------------------------------- */

/* The first failure's message of node n: "node 2 (vadd on vadd_2): why". */
static void node_why(struct axl__plan *p, const struct axl__plan_run *run,
                     const char *why)
{
    char *w = axl__exec_why(&p->x, run->node);
    if (!w)
        return;
    const struct axl__device *d = device_of(p);
    axl__why(w, AXL_MESSAGE_MAX, "node %u (%s on unit %u of %s): %s",
             (unsigned)run->node, run->hal.kernel_name, (unsigned)run->hal.cu,
             d->info.name, why && why[0] ? why : "failed");
}

/* Whether node n reads what was lost before the submission: it does not
 * run then (lock-free: the plan buffers' lost is set at commit). */
AXL__COLD static axl_status lost_input(struct axl__plan *p, uint32_t n)
{
    const struct axl__graph_node *gn = axl__graph_node_deref(p->node[n]);
    for (uint8_t k = 0; k < gn->nacc; k++) {
        const struct axl__plan_buf *pb =
            &p->buf[p->pbuf[n * AXL_MAX_ACCESSORS + k]];
        if (!pb->lost || !(gn->h.acc[k].mode & AXL_ACCESS_READ))
            continue;
        char *w = axl__exec_why(&p->x, n);
        if (w)
            axl__why(w, AXL_MESSAGE_MAX,
                     "node %u: not run: buffer 0x%x (accessor %u) was lost "
                     "(%s)",
                     (unsigned)n, (unsigned)gn->bufs[k], (unsigned)k + 1u,
                     axl_status_name(pb->lost));
        return pb->lost;
    }
    return AXL_SUCCESS;
}

/* A node starts, the first of the submission (any context that drives,
 * never with the lock held): the event runs from here, its command_start
 * this start's time. A wait for that start (4.6.6) may sleep meanwhile
 * on another thread, past the dispatch's wake: it is woken here, and
 * only when there is one (the store and the count's load seq_cst, the
 * waits count themselves before they look: axl__wait_started). */
static void first_start(struct axl__plan *p, struct axl__device *d)
{
    if (atomic_exchange(&p->started, 1))
        return;
    struct axl__event *e = axl__event_at(axl__command_at(p->cmd)->event);
    if (p->profiling)
        e->t_start = axl__dev_now(d);
    atomic_store(&e->state, (uint8_t)AXL_EVENT_RUNNING);
    if (atomic_load(&axl__rt.start_waits)) {
        if (axl_port_in_isr()) {
            axl_port_wake(AXL_PORT_CHANNEL_DONE); /* as a run's end does */
        } else {
            axl_port_lock();
            axl_port_wake(AXL_PORT_CHANNEL_DONE);
            axl_port_unlock();
        }
    }
}

/* Node n's failure message, "node 2 (a copy): why", unless one is kept. */
static void host_node_why(struct axl__plan *p, uint32_t n, const char *why)
{
    char *w = axl__exec_why(&p->x, n);
    if (w)
        axl__why(w, AXL_MESSAGE_MAX, "node %u (%s): %s", (unsigned)n,
                 axl__node_what(axl__graph_node_deref(p->node[n])),
                 why && why[0] ? why : "failed");
}

/* Where the current copy of plan buffer pb is to be moved from: the host
 * when it is current there (a move between devices goes through it),
 * else the first place that is. */
static uint8_t move_source(const struct axl__plan_buf *pb)
{
    return (pb->now & 1u) ? AXL__LOC_HOST : (uint8_t)__builtin_ctz(pb->now);
}

/*
 * Node n's buffers where it uses them (the driver, no lock held, before
 * the node starts: the nodes that use a buffer at another place are
 * ordered before it or after it, so nothing else moves or writes it
 * meanwhile): one not current there is moved from where it is (unless
 * the node writes all of it without reading); one the node writes is
 * current only there after it. A move that fails fails the node.
 */
AXL__COLD static axl_status node_moves(struct axl__plan *p, uint32_t n)
{
    const struct axl__graph_node *gn = axl__graph_node_deref(p->node[n]);
    for (uint8_t k = 0; k < gn->nacc; k++) {
        struct axl__plan_buf *pb = &p->buf[p->pbuf[n * AXL_MAX_ACCESSORS + k]];
        const uint8_t l = gn->h.acc[k].loc;
        struct axl__buffer *b = axl__buffer_at(pb->base);
        if (!(pb->now >> l & 1u) && pb->now &&
            !axl__node_discards(gn, k, b)) {
            char why[AXL_MESSAGE_MAX - 64];
            const axl_status st =
                axl__move(b, move_source(pb), l, why, sizeof why);
            if (st != AXL_SUCCESS) {
                char *w = axl__exec_why(&p->x, n);
                if (w)
                    axl__why(w, AXL_MESSAGE_MAX,
                             "node %u: buffer 0x%x (accessor %u) could not "
                             "be moved where the node uses it: %s",
                             (unsigned)n, (unsigned)gn->bufs[k],
                             (unsigned)k + 1u, why);
                return st;
            }
        }
        pb->now |= (uint8_t)(1u << l);
        if (gn->h.acc[k].mode & AXL_ACCESS_WRITE)
            pb->now = (uint8_t)(1u << l);
    }
    return AXL_SUCCESS;
}

/* At dispatch (no lock held: the commit holds the buffers, and its edges
 * ordered it after what fills them): each buffer not current where its
 * first node uses it is moved there, before any node starts. One that
 * cannot be is lost for the nodes that read it. */
AXL__COLD static void first_moves(struct axl__plan *p)
{
    for (uint32_t i = 0; i < p->nbufs; i++) {
        struct axl__plan_buf *pb = &p->buf[i];
        const uint8_t to = pb->loc_first;
        if ((pb->now >> to & 1u) || !pb->now ||
            (pb->flags & AXL__PB_DISCARD_FIRST))
            continue;
        char why[AXL_MESSAGE_MAX];
        const axl_status st = axl__move(axl__buffer_at(pb->base),
                                        move_source(pb), to, why, sizeof why);
        pb->now |= (uint8_t)(1u << to);
        if (st != AXL_SUCCESS && !pb->lost) {
            pb->lost = st;
            p->any_lost = true;
        }
    }
}

/* After the first moves (lock held): a buffer the graph only reads, at
 * one place, is where its nodes read it now, so the commands after the
 * graph that only read it need not wait for the graph any more (its mark
 * says so, unless a later graph's took its place). */
AXL__COLD static void readers_free(struct axl__plan *p, uint32_t self)
{
    for (uint32_t i = 0; i < p->nbufs; i++) {
        const struct axl__plan_buf *pb = &p->buf[i];
        struct axl__buffer *b = axl__buffer_at(pb->base);
        if (!(pb->flags & (AXL__PB_WRITES | AXL__PB_MULTI_LOC)) &&
            b->graph_ev == self && !pb->lost)
            b->graph_writes = false;
    }
}

/* After the last node (no lock held): each buffer is current where the
 * last node that uses it has it (the place the commit made current),
 * even when that node did not run. One that cannot be moved there is
 * lost there (the finish marks it). */
AXL__COLD static void final_moves(struct axl__plan *p)
{
    for (uint32_t i = 0; i < p->nbufs; i++) {
        struct axl__plan_buf *pb = &p->buf[i];
        if (!pb->now || (pb->now >> pb->loc_out & 1u))
            continue;
        char why[AXL_MESSAGE_MAX];
        if (axl__move(axl__buffer_at(pb->base), move_source(pb),
                      pb->loc_out, why, sizeof why) == AXL_SUCCESS)
            pb->now |= (uint8_t)(1u << pb->loc_out);
    }
}

/* The run start_run started has ended already (its end took STARTING to
 * ENDED and told the executor nothing, axl__replay_run_done): its unit is
 * free, and a claim nobody drove when it ended is driven here, as its end
 * did before it left the rest to its starter. Commands the release makes
 * ready are left, as then, to the pump this drive runs in, or to the
 * waits the release wakes (axl__unit_freed): no pump nests here. */
static axl_status ended_here(struct axl__device *d, struct axl__cu *cu)
{
    const bool kick = atomic_load(&axl__rt.replay_kick);
    (void)unit_release(d, cu);
    if (kick) {
        axl_port_lock();
        if (atomic_load(&axl__rt.replay_kick))
            axl__replay_poll();
        axl__pump();
        axl_port_unlock();
    }
    return AXL__EXEC_ENDED_HERE;
}

/* The executor's start (exec.h): run r of kernel node n on its unit, with
 * the arguments it holds. */
static axl_status start_run(axl__exec *x, uint32_t n, uint32_t r)
{
    struct axl__plan *p = x->client;
    struct axl__plan_run *run = &p->run[p->nodes[n].run0 + r];
    struct axl__device *d = device_of(p);
    if (p->any_lost) {
        const axl_status st = lost_input(p, n);
        if (st != AXL_SUCCESS)
            return st;
    }
    if (p->moves && r == 0) {
        const axl_status st = node_moves(p, n);
        if (st != AXL_SUCCESS)
            return st;
    }
    if (run->cu == 0xFFu) {
        node_why(p, run,
                 AXL__TEXT("no compute unit of the kernel on the device "
                           "(past AXL_MAX_DEVICE_CUS?) reaches its buffers"));
        return AXL_ERR_KERNEL_NOT_SUPPORTED;
    }
    struct axl__cu *cu = &d->cus[run->cu];
    uint8_t free_ = 0;
    if (!atomic_compare_exchange_strong(&cu->taken, &free_, 1)) {
        const axl_status st = wait_for_unit(p, cu, n);
        if (st != AXL_SUCCESS)
            return st;
    }
    atomic_store_explicit(&cu->prun, run, memory_order_relaxed);
    const uint32_t starts =
        AXL__RUN_STARTS(atomic_load_explicit(&run->state,
                                             memory_order_relaxed)) +
        0x100u;
    atomic_store_explicit(&run->state, starts | AXL__RUN_STARTING,
                          memory_order_relaxed);
    if (!atomic_load_explicit(&p->started, memory_order_relaxed))
        first_start(p, d);
    if (p->traced)
        run->t_start = axl__dev_now(d);
    const axl_status st = axl__dev_run_start(d, &run->hal);
    if (st != AXL_SUCCESS) {
        node_why(p, run, axl_last_message());
        atomic_store_explicit(&run->state, starts | AXL__RUN_IDLE,
                              memory_order_relaxed);
        unit_release(d, cu);
        return st;
    }
    /* Its deadline, then RUNNING (a timeout reads the deadline after it
     * sees RUNNING): unless it ended inside run_start, when this thread
     * frees the unit (the port saw no other start of it meanwhile). A run
     * seen ended already needs no deadline (no clock read): on the
     * emulated device and the noop shim every run does. */
    uint32_t was = starts | AXL__RUN_STARTING;
    if (atomic_load_explicit(&run->state, memory_order_acquire) != was)
        return ended_here(d, cu);
    run->deadline = run->hal.timeout_ns
                        ? axl__deadline_after(axl__dev_now(d),
                                              run->hal.timeout_ns)
                        : 0;
    if (!atomic_compare_exchange_strong_explicit(
            &run->state, &was, starts | AXL__RUN_RUNNING,
            memory_order_release, memory_order_acquire))
        return ended_here(d, cu);
    return AXL_SUCCESS;
}

static bool pipe_kind(uint8_t kind)
{
    return kind == AXL__CMD_PIPE_START || kind == AXL__CMD_PIPE_STOP;
}

/* A pipeline's start or stop node: the pipeline's own calls, which wait
 * for the port (its units' ends, maybe their interrupts): a host-task
 * worker runs it as a host task, never the driver, which may be a unit's
 * interrupt entry. */
static axl_status pipe_action(const axl_handler *h, char *why, size_t cap)
{
    axl_status st = AXL_ERR_FEATURE_NOT_SUPPORTED;
#if AXL_FEATURE_STREAMS
    if (axl__pipeline_hooks)
        st = axl__pipeline_hooks->replay(h->u.pipe.handle,
                                         h->kind == AXL__CMD_PIPE_START);
#else
    (void)h; /* no pipeline is made: no such node is recorded */
#endif
    if (st != AXL_SUCCESS)
        axl_format(why, cap, "%s", axl_last_message());
    return st;
}

/* Host node n's action, on the thread that runs it (no lock held): a
 * host task's function, a pipeline's start or stop, or a copy's or
 * fill's bytes. Its status; why filled when it failed. */
static axl_status host_action(struct axl__plan *p, uint32_t n, char *why,
                              size_t cap)
{
    struct axl__graph_node *gn = axl__graph_node_deref(p->node[n]);
    const axl_handler *h = &gn->h;
#if AXL_TRACE_EVENTS
    if (p->traced)
        gn->t_start = axl__dev_now(device_of(p));
#endif
    if (pipe_kind(h->kind))
        return pipe_action(h, why, cap);
    if (h->kind == AXL__CMD_HOST_TASK) {
        char *msg = axl_port_message_buffer();
        msg[0] = '\0';
        const axl_status st = h->u.host.fn(h->u.host.user);
        if (st != AXL_SUCCESS)
            axl_format(why, cap, "%s",
                       msg[0] ? msg
                              : AXL__TEXT("the host task failed and gave "
                                          "no message"));
        return st;
    }
    /* Its accessors as a command's (where each touches its buffer). */
    struct axl__access acc[AXL_MAX_ACCESSORS];
    for (uint8_t k = 0; k < gn->nacc; k++) {
        acc[k].view = AXL__HANDLE_SLOT(gn->bufs[k]);
        acc[k].base = gn->span[k].base;
        acc[k].loc = h->acc[k].loc;
    }
    return axl__data_action(h->kind, acc, h->a0, h->a1, &h->u, why, cap);
}

/* Host node n ran (its thread, no lock held): its end stamped, told. */
static bool host_ended(struct axl__plan *p, uint32_t n, axl_status st,
                       const char *why)
{
    if (st != AXL_SUCCESS)
        host_node_why(p, n, why);
#if AXL_TRACE_EVENTS
    if (p->traced)
        axl__graph_node_deref(p->node[n])->t_end =
            axl__dev_now(device_of(p));
#endif
    if (p->profiling) {
        const uint64_t now = axl__dev_now(device_of(p));
        uint64_t t = atomic_load_explicit(&p->t_end, memory_order_relaxed);
        while (t < now && !atomic_compare_exchange_weak(&p->t_end, &t, now)) {
        }
    }
    return axl__exec_node_ended(&p->x, n, st, true);
}

/* The executor's run_node (exec.h): a host task goes to the host-task
 * workers when there are some (the driver goes on), else runs here; a
 * copy or fill runs here, the lock not held. */
static axl_status run_node(axl__exec *x, uint32_t n)
{
    struct axl__plan *p = x->client;
    if (p->any_lost) {
        const axl_status st = lost_input(p, n);
        if (st != AXL_SUCCESS)
            return st;
    }
    if (p->moves) {
        const axl_status st = node_moves(p, n);
        if (st != AXL_SUCCESS)
            return st;
    }
    first_start(p, device_of(p));
    const struct axl__graph_node *gn = axl__graph_node_deref(p->node[n]);
    if ((gn->h.kind == AXL__CMD_HOST_TASK || pipe_kind(gn->h.kind)) &&
        axl__rt.workers) {
        axl_port_lock();
        const uint32_t at = (axl__rt.host_nodes_head +
                             axl__rt.host_nodes_count++) %
                            AXL_MAX_GRAPH_NODES;
        axl__rt.host_nodes[at] = (uint32_t)p->exec << 16 | n;
        axl_port_wake(AXL_PORT_CHANNEL_WORK);
        axl_port_unlock();
        return AXL_SUCCESS;
    }
    char why[AXL_MESSAGE_MAX - 32];
    const axl_status st = host_action(p, n, why, sizeof why);
    (void)host_ended(p, n, st, why); /* this driver settles it */
    return AXL_SUCCESS;
}

static const axl__exec_ops replay_ops = {
    .start = start_run, .run_node = run_node, .ends_here = true};

static void finish(struct axl__plan *p);

bool axl__replay_host_work(void)
{
    if (!axl__rt.host_nodes_count)
        return false;
    const uint32_t e = axl__rt.host_nodes[axl__rt.host_nodes_head];
    axl__rt.host_nodes_head = (axl__rt.host_nodes_head + 1u) %
                              AXL_MAX_GRAPH_NODES;
    axl__rt.host_nodes_count--;
    struct axl__plan *p = axl__graph_exec_at((uint16_t)(e >> 16))->run_plan;
    const uint32_t n = e & 0xFFFFu;
    axl_port_unlock();
    char why[AXL_MESSAGE_MAX - 32];
    const axl_status st = host_action(p, n, why, sizeof why);
    const bool done = host_ended(p, n, st, why);
    if (done && p->moves)
        final_moves(p);
    axl_port_lock();
    if (done)
        finish(p);
    return true;
}

/* ---- The end of a submission ------------------------------------------------- */

/* x was released while its submissions ran: freed with the last of them
 * (and of its runs given up). Lock held. */
void axl__exec_free(struct axl__graph_exec *x);

static void exec_settle(struct axl__graph_exec *x)
{
    struct axl__plan *p = x->plan;
    if (x->retired && !x->pending && (!p || !p->given_up))
        axl__exec_free(x);
}

/* Plan p's submission or given-up run is over (lock held): a detached
 * plan goes with the last; else x may (released meanwhile). */
static void plan_settle(struct axl__plan *p, struct axl__graph_exec *x)
{
    if (!p->detached)
        exec_settle(x);
    else if (!p->pending && !p->given_up)
        axl__plan_detached_free(p);
}

#if AXL_TRACE_EVENTS
/* A traced submission's nodes, each a record of the trace as the command
 * it stands for (lock held, before the submission's own record): when it
 * ran (a kernel node from its runs' first start to their last end; an
 * empty one at its last predecessor's end), its status, an arrow from
 * each node before it (a root: from what the submission waited for). */
static uint32_t node_rec[AXL_MAX_GRAPH_NODES];
static uint64_t node_end[AXL_MAX_GRAPH_NODES];

static void trace_nodes(const struct axl__plan *p,
                        const struct axl__command *c,
                        const struct axl__event *e)
{
    for (uint32_t n = 0; n < p->nnodes; n++) {
        const axl_plan_node *nd = &p->nodes[n];
        const struct axl__graph_node *gn = axl__graph_node_deref(p->node[n]);
        struct axl__trace_node tn;
        memset(&tn, 0, sizeof tn);
        tn.node = n;
        tn.status = axl__exec_status(&p->x, n);
        uint64_t after = c->tr.start;
        for (uint32_t k = 0; k < nd->npreds; k++) {
            const uint16_t m = p->preds[nd->pred0 + k];
            after = node_end[m] > after ? node_end[m] : after;
            if (tn.ndeps < AXL_TRACE_DEPS)
                tn.dep_rec[tn.ndeps++] = node_rec[m];
            else
                tn.deps_hidden++;
        }
        if (!nd->npreds) {
            tn.ndeps = c->tr.ndeps;
            tn.deps_hidden = c->tr.deps_hidden;
            memcpy(tn.dep_rec, c->tr.dep_rec, sizeof tn.dep_rec);
        }
        for (uint8_t k = 0; k < gn->nacc; k++)
            tn.bytes += gn->span[k].hi - gn->span[k].lo;
        if (nd->kind == AXL_PLAN_NODE_KERNEL) {
            tn.kind = AXL__CMD_KERNEL;
            tn.kid = gn->h.u.kernel.kid;
            for (uint32_t r = nd->run0; r < nd->run0 + nd->nruns; r++) {
                const struct axl__plan_run *run = &p->run[r];
                if (!run->t_start)
                    continue;
                if (!tn.start || run->t_start < tn.start) {
                    tn.start = run->t_start;
                    tn.cu = run->cu;
                }
                tn.end = run->t_end > tn.end ? run->t_end : tn.end;
            }
        } else if (nd->kind == AXL_PLAN_NODE_HOST) {
            tn.kind = gn->h.kind;
            tn.start = gn->t_start;
            tn.end = gn->t_end;
        } else {
            tn.kind = AXL__CMD_EMPTY;
            tn.start = tn.end = after;
        }
        if (!tn.end || tn.end < tn.start)
            tn.end = tn.start ? tn.start : after;
        node_end[n] = tn.end;
        node_rec[n] = axl__trace_graph_node(c, e, &tn);
    }
}

/* Before a traced submission: no time of a previous one is taken for
 * this one's (a node that never runs keeps none). */
static void trace_times_clear(struct axl__plan *p)
{
    for (uint32_t r = 0; r < p->nruns; r++)
        p->run[r].t_start = p->run[r].t_end = 0;
    for (uint32_t n = 0; n < p->nnodes; n++) {
        struct axl__graph_node *gn = axl__graph_node_deref(p->node[n]);
        gn->t_start = gn->t_end = 0;
    }
}
#endif

/* Submission p has finished: every node settled (lock held). */
static void finish(struct axl__plan *p)
{
    struct axl__command *c = axl__command_at(p->cmd);
    struct axl__event *e = axl__event_at(c->event);
    struct axl__queue *q = axl__queue_at(c->queue);
    struct axl__graph_exec *x = axl__graph_exec_at(p->exec);
    const axl__exec *ex = &p->x;
    axl__access_finish_graph(c, p);
    for (uint16_t k = 0; k < p->nkernels; k++)
        axl__kernel_unhold(axl__kernel_at(p->kernels[k]));
#if AXL_TRACE_EVENTS
    if (p->traced)
        trace_nodes(p, c, e);
#endif
    char why[AXL_MESSAGE_MAX];
    why[0] = '\0'; /* a string: not its 256 bytes zeroed */
    if (ex->status != AXL_SUCCESS) {
        /* One error per failed or skipped node for the queue, in node
         * order, as each node's command had (the event's: the first). */
        const uint32_t nwhy = atomic_load(&ex->whys) < ex->nwhy
                                  ? atomic_load(&ex->whys)
                                  : ex->nwhy;
        for (uint32_t n = 0; n < p->nnodes; n++) {
            if (!axl__exec_failed(ex, n))
                continue;
            const axl_status st = axl__exec_status(ex, n);
            char msg[AXL_MESSAGE_MAX];
            const char *m = NULL;
            for (uint32_t k = 0; k < nwhy && !m; k++)
                if (ex->why_node[k] == n)
                    m = ex->why[k];
            if (!m && axl__exec_skipped(ex, n)) {
                axl__why(msg, sizeof msg,
                         "node %u: not run: a node it depends on failed "
                         "(%s)",
                         (unsigned)n, axl_status_name(st));
                m = msg;
            } else if (!m) {
                axl__why(msg, sizeof msg, "node %u failed (%s)", (unsigned)n,
                         axl_status_name(st));
                m = msg;
            }
            if (n == ex->first_failed)
                axl_format(why, sizeof why, "%s", m);
            axl__async_error(q, AXL__HANDLE(EVENT, e), st, m);
        }
    }
    if (p->profiling)
        e->t_end = atomic_load(&p->t_end);
    p->running = false;
    struct axl__device *d = device_of(p);
    d->replays--;
    if (p->timed_run)
        d->replays_timed--;
#if AXL_FEATURE_DESIGN_SWAP
    axl__swap_poke(d); /* a swap may wait for it (2.1) */
#endif
    x->pending--;
    p->pending--;
    x->run_plan = NULL;
    axl__complete(c, ex->status, ex->status == AXL_SUCCESS ? NULL : why);
    /* What the submission held goes in this hold of the lock, as its
     * command did: a thread that finds the command gone finds the rest
     * gone too. x last: its free may drop the lock (exec_free frees the
     * buffers released meanwhile). */
    const bool detached = p->detached;
    plan_settle(p, x); /* detached: p and its nodes, with its last */
    if (detached)
        exec_settle(x);
}

/* ---- Dispatch ----------------------------------------------------------------- */

void axl__plan_seen_put(struct axl__plan *p, uint32_t i,
                        const struct axl__plan_seen *sn)
{
    struct axl__plan_buf *pb = &p->buf[i];
    pb->ver_made = sn->ver_made;
    pb->lost_event = sn->lost_event;
    pb->lost = (axl_status)sn->lost;
    pb->mask = sn->mask;
}

#if AXL_FEATURE_DESIGN_SWAP
/* Whether submission c waits for its design's turn (2.7, as a kernel
 * command does, 2.1): its design not loaded, or an older command waits
 * for another. One whose nodes fail unrun needs none. */
static bool waits_for_design(const struct axl__command *c,
                             const struct axl__plan *p,
                             const struct axl__device *d)
{
    return p->image != AXL__NO_WANT && !c->dep_status &&
           (!axl__device_carries(d, p->image) ||
            (axl__swap_behind(d, p->image, c->seq) &&
             !(c->flags & AXL__CMD_SWAPPED)));
}

/* Why the rebind of the submission being dispatched failed (the lock is
 * held from the rebind to its nodes' failure). */
static char rebind_why[AXL_MESSAGE_MAX];

/* Its runs bound again after a swap (lock held, dropped to open units):
 * a failure fails every node unrun, naming it. */
AXL__COLD static void rebind(struct axl__command *c, struct axl__plan *p)
{
    /* Counted as running meanwhile: no swap claims the region (2.2). */
    device_of(p)->replays++;
    const axl_status st = axl__plan_rebind(p);
    device_of(p)->replays--;
    if (st != AXL_SUCCESS) {
        c->dep_status = st;
        axl_format(rebind_why, sizeof rebind_why, "%s", axl_last_message());
    }
}

AXL__COLD bool axl__replay_turn(struct axl__command *c)
{
    struct axl__plan *p = c->u.replay.plan;
    struct axl__device *d = device_of(p);
    if (!axl__dev_swaps(d))
        return true;
    if (waits_for_design(c, p, d)) {
        axl__swap_wait(c);
        return false;
    }
    /* Its design may have loaded in another slot than the one it was
     * bound in (a variant, 1.2): bound again there. */
    const uint8_t r = d->nslots ? axl__slot_carrying(d, p->image) : 0;
    if (r && r != p->region) {
        p->region = r;
        p->epoch = d->region[r].epoch; /* never epoch + 1: binds again */
    }
    if (!c->dep_status && p->epoch != d->region[p->region].epoch + 1u)
        rebind(c, p);
    return true;
}
#endif

/* A dependency of submission c failed (or its rebind after a swap): every
 * node fails unrun, its roots doomed, the rest after them. */
AXL__COLD static void doom(const struct axl__command *c, struct axl__plan *p)
{
#if AXL_FEATURE_DESIGN_SWAP
    /* The roots say why when it was no node's failure (else they say
     * "not run: a node it depends on failed"). */
    const char *said = rebind_why[0] ? rebind_why : axl__swap_failed_why(c);
#endif
    for (uint32_t w = 0; w < p->g.words; w++)
        for (uint32_t b = p->g.roots[w]; b; b &= b - 1u) {
            const uint32_t n = w * 32u + (uint32_t)__builtin_ctz(b);
            p->x.doomed[w] |= 1u << (n & 31u);
            atomic_store(&p->x.node_st[n], (int32_t)c->dep_status);
#if AXL_FEATURE_DESIGN_SWAP
            char *why = said ? axl__exec_why(&p->x, n) : NULL;
            if (why)
                axl_format(why, AXL_MESSAGE_MAX, "%s", said);
#endif
        }
#if AXL_FEATURE_DESIGN_SWAP
    rebind_why[0] = '\0';
#endif
}

void axl__replay_start(struct axl__command *c)
{
    struct axl__graph_exec *x = axl__graph_exec_at(c->u.replay.exec);
    struct axl__plan *p = c->u.replay.plan;
    if (p->nbufs <= AXL__REPLAY_SEEN) {
        /* What its commit found: the plan is this submission's from now
         * (the one before it has finished: one at a time). */
        for (uint32_t i = 0; i < p->nbufs; i++)
            axl__plan_seen_put(p, i, &c->u.replay.seen[i]);
        p->moves = c->u.replay.moves;
        p->any_lost = c->u.replay.any_lost;
    }
    x->run_plan = p;
    p->cmd = AXL__SLOT(COMMAND, c);
    p->running = true;
    /* Said before the lock drops, and a waiter asleep since before this
     * dispatch told: it drives the device now (axl__progress_device). */
    device_of(p)->replays++;
    p->timed_run = p->timed;
    if (p->timed_run)
        device_of(p)->replays_timed++;
    if (axl__rt.waiters)
        axl_port_wake(AXL_PORT_CHANNEL_DONE);
    p->profiling = axl__event_at(c->event)->profiling;
    p->traced = AXL__TRACED(c);
#if AXL_TRACE_EVENTS
    if (p->traced)
        trace_times_clear(p);
#endif
    atomic_store_explicit(&p->started, 0, memory_order_relaxed);
    atomic_store_explicit(&p->t_end, 0, memory_order_relaxed);
    p->x.ops = &replay_ops;
    axl__exec_begin(&p->x);
    if (c->dep_status)
        doom(c, p);
    if (p->moves)
        for (uint32_t i = 0; i < p->nbufs; i++)
            p->buf[i].now = p->buf[i].mask;
    axl_port_unlock();
    if (p->moves && !c->dep_status) {
        first_moves(p);
        axl_port_lock();
        readers_free(p, AXL__HANDLE(EVENT, axl__event_at(c->event)));
        axl_port_unlock();
    }
    const bool done = axl__exec_drive(&p->x);
    if (done && p->moves)
        final_moves(p);
    axl_port_lock();
    if (done)
        finish(p);
}

void axl__replay_poll(void)
{
    atomic_store(&axl__rt.replay_kick, 0);
    struct axl__plan *got[AXL_MAX_GRAPH_EXECS];
    unsigned n = 0;
    for (uint16_t s = 0; s < AXL_MAX_GRAPH_EXECS; s++) {
        if (!exec_in_use(s))
            continue;
        struct axl__plan *p = axl__graph_exec_at(s)->run_plan;
        if (p && p->running && axl__exec_adopt(&p->x))
            got[n++] = p;
    }
    if (!n)
        return;
    /* Each claim taken keeps its submission from finishing elsewhere. */
    bool done[AXL_MAX_GRAPH_EXECS];
    axl_port_unlock();
    for (unsigned i = 0; i < n; i++) {
        done[i] = axl__exec_drive_held(&got[i]->x);
        if (done[i] && got[i]->moves)
            final_moves(got[i]);
    }
    axl_port_lock();
    for (unsigned i = 0; i < n; i++)
        if (done[i])
            finish(got[i]);
}

/* ---- Run ends ------------------------------------------------------------------ */

/* A given-up run came back (lock held): what it kept goes, its unit is
 * free again. */
static void given_up_back(struct axl__plan_run *run)
{
    struct axl__plan *p = run->plan;
    struct axl__device *d = device_of(p);
    struct axl__cu *cu = &d->cus[run->cu];
    if (cu->hung)
        axl__rt.hung_units--;
    cu->abandoned = cu->cancel_asked = cu->hung = false;
    for (uint8_t m = 0; m < run->nargs; m++)
        if (run->bases[m] != UINT16_MAX)
            axl__given_up_let_go(axl__buffer_at(run->bases[m]));
    axl__kernel_unhold(axl__kernel_at(run->kernel));
    const uint32_t s = atomic_load(&run->state);
    atomic_store(&run->state, AXL__RUN_STARTS(s) | AXL__RUN_IDLE);
    atomic_store_explicit(&cu->prun, NULL, memory_order_relaxed);
    atomic_store(&cu->taken, 0);
    axl__unit_freed(d, cu);
    p->given_up--;
    plan_settle(p, axl__graph_exec_at(p->exec));
    if (axl__rt.waiters)
        axl_port_wake(AXL_PORT_CHANNEL_DONE);
}

void axl__replay_run_done(struct axl__plan_run *run, axl_status status,
                          const char *why)
{
    struct axl__plan *p = run->plan;
    struct axl__device *d = device_of(p);
    if (AXL__RUN_PHASE(atomic_load(&run->state)) == AXL__RUN_GIVEN_UP) {
        /* The late end of a run given up at its timeout. */
        axl_port_lock();
        given_up_back(run);
        axl_port_unlock();
        return;
    }
    /* Its message, status and times before its end is told: once the
     * state below leaves STARTING or RUNNING, the starter or the driver
     * may settle the node and finish the submission (a run that ends
     * inside its start is not told to the executor at all: its starter
     * answers AXL__EXEC_ENDED_HERE). */
    if (status != AXL_SUCCESS)
        node_why(p, run, why);
    if (p->profiling || p->traced) {
        const uint64_t now = axl__dev_now(d);
        run->t_end = now;
        uint64_t t = atomic_load_explicit(&p->t_end, memory_order_relaxed);
        while (t < now && !atomic_compare_exchange_weak(&p->t_end, &t, now)) {
        }
    }
    bool inside;
    for (;;) {
        uint32_t s = atomic_load(&run->state);
        if (AXL__RUN_PHASE(s) == AXL__RUN_GIVEN_UP) { /* a timeout first */
            axl_port_lock();
            given_up_back(run);
            axl_port_unlock();
            return;
        }
        const bool starting = AXL__RUN_PHASE(s) == AXL__RUN_STARTING;
        if (starting && status != AXL_SUCCESS)
            axl__exec_fail(&p->x, run->node, status); /* the starter's */
        const uint32_t to =
            AXL__RUN_STARTS(s) | (starting ? AXL__RUN_ENDED : AXL__RUN_IDLE);
        if (atomic_compare_exchange_strong(&run->state, &s, to)) {
            inside = AXL__RUN_PHASE(to) == AXL__RUN_ENDED;
            break;
        }
    }
    /* Inside its start: the starter frees the unit and settles the node
     * (ended_here), in any context. */
    if (inside)
        return;
    const bool isr = axl_port_in_isr() != 0;
    const bool moved = unit_release(d, &d->cus[run->cu]);
    const bool done = axl__exec_run_ended(&p->x, run->node, status, !isr);
    if (done && p->moves)
        final_moves(p);
    if (isr) {
        /* The next pump or wait drives it: a waiter asleep is woken, as a
         * plain command's end in an ISR wakes it. */
        atomic_store(&axl__rt.replay_kick, 1);
        axl_port_wake(AXL_PORT_CHANNEL_DONE);
        return;
    }
    if (done || atomic_load(&axl__rt.replay_kick) || moved) {
        axl_port_lock();
        if (done)
            finish(p);
        if (atomic_load(&axl__rt.replay_kick))
            axl__replay_poll();
        axl__pump();
        axl_port_unlock();
    }
}

/* ---- After a graph ---------------------------------------------------------------- */

bool axl__after_graph_lost(struct axl__command *c)
{
    for (uint8_t i = 0; i < c->nacc; i++) {
        const struct axl__access *a = &c->acc[i];
        const struct axl__buffer *b = axl__buffer_at(a->base);
        if (!b->lost_ver_status || (a->flags & AXL__ACC_DISCARD))
            continue;
        const uint32_t in =
            (a->mode & AXL_ACCESS_WRITE) ? a->ver - 1u : a->ver;
        if (b->lost_ver != in)
            continue;
        if (!c->dep_status) {
            c->dep_status = b->lost_ver_status;
            c->dep_event = b->lost_ver_event;
        }
        return true;
    }
    return false;
}

/* ---- Timeouts ----------------------------------------------------------------- */

uint64_t axl__replay_deadline(const struct axl__device *d)
{
    uint64_t next = UINT64_MAX;
    if (!d->replays_timed)
        return next; /* no run of a submission on it has a timeout */
    for (uint8_t i = 0; i < d->ncus; i++) {
        const struct axl__plan_run *r =
            atomic_load_explicit(&d->cus[i].prun, memory_order_relaxed);
        if (!r)
            continue;
        const uint32_t s = atomic_load(&r->state);
        if (AXL__RUN_PHASE(s) == AXL__RUN_RUNNING && r->deadline &&
            r->deadline < next)
            next = r->deadline;
    }
    return next;
}

/* Gives up run r on unit cu of d, past its deadline (lock held): its node
 * fails with AXL_ERR_TIMEOUT now, once; the unit and what the run was
 * given stay the run's until the port gives it back. */
static void give_up(struct axl__device *d, struct axl__cu *cu,
                    struct axl__plan_run *r)
{
    struct axl__plan *p = r->plan;
    const uint64_t t = r->hal.timeout_ns;
    const bool us = t < 1000000u;
    char *w = axl__exec_why(&p->x, r->node);
    if (w)
        axl__why(w, AXL_MESSAGE_MAX,
                 "node %u: kernel %s on compute unit %u of %s did not "
                 "finish within %llu %cs: given up (its buffers stay "
                 "reserved until the unit is back)",
                 (unsigned)r->node, r->hal.kernel_name, (unsigned)r->hal.cu,
                 d->info.name,
                 (unsigned long long)(t / (us ? 1000u : 1000000u)),
                 us ? 'u' : 'm');
    if (axl__rt.shutting_down && axl__rt.gave_up++ == 0)
        axl_format(axl__rt.gave_up_what, sizeof axl__rt.gave_up_what,
                   "kernel %s on compute unit %u of %s", r->hal.kernel_name,
                   (unsigned)r->hal.cu, d->info.name);
    cu->abandoned = true;
    cu->cancel_asked = false;
    for (uint8_t m = 0; m < r->nargs; m++)
        if (r->bases[m] != UINT16_MAX)
            axl__given_up_keep(axl__buffer_at(r->bases[m]));
    axl__kernel_at(r->kernel)->holds++;
    p->given_up++;
    (void)axl__exec_run_ended(&p->x, r->node, AXL_ERR_TIMEOUT, false);
    atomic_store(&axl__rt.replay_kick, 1);
}

unsigned axl__replay_timeouts(struct axl__device *d, uint64_t now,
                              bool may_call_out)
{
    unsigned n = 0;
    for (uint8_t i = 0; i < d->ncus; i++) {
        struct axl__cu *cu = &d->cus[i];
        struct axl__plan_run *r =
            atomic_load_explicit(&cu->prun, memory_order_relaxed);
        if (!r)
            continue;
        uint32_t s = atomic_load(&r->state);
        if (AXL__RUN_PHASE(s) == AXL__RUN_RUNNING && r->deadline &&
            r->deadline != UINT64_MAX && now >= r->deadline &&
            atomic_compare_exchange_strong(
                &r->state, &s, AXL__RUN_STARTS(s) | AXL__RUN_GIVEN_UP)) {
            give_up(d, cu, r);
            n++;
        }
        if (AXL__RUN_PHASE(atomic_load(&r->state)) != AXL__RUN_GIVEN_UP ||
            cu->cancel_asked || !may_call_out)
            continue;
        /* Ask the port to give it back (lock dropped; the run stays the
         * unit's, so r stays valid); one it says may never end makes the
         * unit hung. */
        cu->cancel_asked = true;
        if (!axl__dev_can_cancel(d))
            continue;
        axl_port_unlock();
        axl__dev_run_cancel(d, &r->hal);
        axl_port_lock();
        if (d->port->unit_fix &&
            atomic_load_explicit(&cu->prun, memory_order_relaxed) == r &&
            AXL__RUN_PHASE(atomic_load(&r->state)) == AXL__RUN_GIVEN_UP &&
            !cu->hung) {
            cu->hung = true;
            axl__rt.hung_units++;
            axl__fail_stranded();
            if (axl__rt.waiters)
                axl_port_wake(AXL_PORT_CHANNEL_DONE);
        }
    }
    return n;
}

#endif /* AXL_FEATURE_GRAPHS */
