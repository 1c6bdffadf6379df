/*
 * sched.c - the command scheduler: submission, dependency edges, dispatch,
 * completion, host-task workers, waits and async error delivery.
 *
 * Shape of the graph. An event is a node; a command that waits for it hangs
 * a dependency node (struct axl__dep, stored inside the waiting command) on
 * the event's successor list. Completing a command walks that list once and
 * frees nothing but the command, so each command and each edge costs O(1).
 * A command that needs more edges than it has room for waits instead for
 * every command submitted before it (a barrier): coarser, never wrong.
 *
 * Lists, all intrusive and bounded by the command pool:
 *   ready     commands whose dependencies are done, to dispatch (FIFO)
 *   host      host tasks waiting for a worker thread (FIFO)
 *   inflight  commands not yet complete, in submission order
 *   barrier   barrier commands, in submission order
 *
 * Any thread may pump the ready list; the lock is dropped around every call
 * out of the core (host task, device port, kernel model).
 */
#include <string.h>

#include "rt.h"
#include "cu.h"
#include "device_priv.h"
#include "context_priv.h"
#include "queue_priv.h"
#include "event_priv.h"
#include "buffer_priv.h"
#include "access.h"
#include "sched_priv.h"
#include "handler_priv.h"
#include "kernel.h"
#include "transfer.h"
#include "room.h"
#include "graph_priv.h"
#include "observe.h"
#include "devops.h"
#include "swap.h"
#include "pipeline_priv.h"
#if AXL_FEATURE_GRAPHS
#include "replay.h"
#endif

static void make_ready(struct axl__command *c)
{
    AXL__TRACE_STAMP(c, ready, 0);
    axl__fifo_push(&axl__rt.ready, c, axl__command_ref_of(c));
}

/* ---- Submission order and barriers ---------------------------------------- */

static void inflight_append(struct axl__command *c, axl__command_ref r)
{
    c->prev_inflight = axl__rt.inflight_tail;
    c->next_inflight = AXL__NONE(command);
    if (AXL__IS_REF(axl__rt.inflight_tail))
        axl__command_deref(axl__rt.inflight_tail)->next_inflight = r;
    else
        axl__rt.inflight_head = r;
    axl__rt.inflight_tail = r;
}

static void inflight_unlink(struct axl__command *c)
{
    if (AXL__IS_REF(c->prev_inflight))
        axl__command_deref(c->prev_inflight)->next_inflight = c->next_inflight;
    else
        axl__rt.inflight_head = c->next_inflight;
    if (AXL__IS_REF(c->next_inflight))
        axl__command_deref(c->next_inflight)->prev_inflight = c->prev_inflight;
    else
        axl__rt.inflight_tail = c->prev_inflight;
}

/* A barrier command may start once no earlier command is in flight: the
 * oldest command in flight is itself or a later one. Host accessors are
 * not in that list (they are not commands in flight, and waiting for one
 * there could wait for the very thread that waits); edges to them are
 * always kept instead. Barriers are released in order. */
static void barrier_check(void)
{
    while (AXL__IS_REF(axl__rt.barriers.head)) {
        const struct axl__command *c =
            axl__command_deref(axl__rt.barriers.head);
        if (AXL__IS_REF(axl__rt.inflight_head) &&
            axl__command_deref(axl__rt.inflight_head)->seq < c->seq)
            break;
        struct axl__command *b = axl__fifo_pop(&axl__rt.barriers);
        if (--b->pending == 0)
            make_ready(b);
    }
}

/* ---- Edges --------------------------------------------------------------------- */

static inline bool event_complete(const struct axl__event *e)
{
    return atomic_load_explicit(&e->state, memory_order_acquire) ==
           AXL_EVENT_COMPLETE;
}

/* Table 34: wait_and_throw delivers errors of every context the event
 * waited on, transitively: c's event notes e's context and those e waited
 * on. Only for strong edges to a command not done or failed: an in-order
 * edge stays in the queue's context, and a success carries no error. */
static void waited_on(struct axl__command *c, const struct axl__event *e)
{
    const struct axl__queue *q =
        e->queue ? axl__pool_lookup_any(AXL__POOL(QUEUE), e->queue) : NULL;
    axl__event_at(c->event)->waited_ctx |=
        e->waited_ctx | (q ? AXL__CTX_BIT(q->context) : 0u);
}

/* The edge itself, unchecked: e is pending, not already c's predecessor,
 * and c has room for it (axl__add_dep checks all three). Inline: the
 * launch path pays no call for it. */
static inline void link_dep(struct axl__command *c, struct axl__event *e,
                            bool strong)
{
    uint8_t j = c->ndeps++;
    c->deps[j].pred = axl__event_ref_of(e);
    c->deps[j].strong = strong;
    c->deps[j].next = e->succ;
    e->succ = (axl__node)AXL__SLOT(COMMAND, c) * AXL_MAX_COMMAND_DEPS + j + 1;
    c->pending++;
}

/* Makes c wait for e. strong: e's failure fails c. Edges to host
 * accessors may use every slot; others leave AXL_MAX_HOST_ACCESSORS free
 * for them, so those edges always fit. */
void axl__add_dep(struct axl__command *c, struct axl__event *e, bool strong)
{
    if (e == axl__event_at(c->event))
        return;
    if (event_complete(e)) {
        if (strong && e->status != AXL_SUCCESS) {
            waited_on(c, e);
            if (!c->dep_status) {
                c->dep_status = e->status;
                c->dep_event = AXL__HANDLE(EVENT, e);
            }
        }
        return;
    }
    if (strong)
        waited_on(c, e);
    axl__event_ref pred = axl__event_ref_of(e);
    for (uint8_t j = 0; j < c->ndeps; j++) {
        if (axl__event_ref_eq(c->deps[j].pred, pred)) {
            c->deps[j].strong |= strong;
            return;
        }
    }
    unsigned limit = e->role == AXL__EV_HOST_ACCESS
                         ? AXL_MAX_COMMAND_DEPS
                         : AXL_MAX_COMMAND_DEPS - AXL_MAX_HOST_ACCESSORS;
    if (c->ndeps >= limit) {
        c->flags |= AXL__CMD_BARRIER;
        return;
    }
    link_dep(c, e, strong);
}

void axl__add_weak_dep(struct axl__command *c, struct axl__event *e)
{
    if (e == axl__event_at(c->event) || event_complete(e))
        return;
    waited_on(c, e);
    axl__add_dep(c, e, false);
}

/* ---- Errors ---------------------------------------------------------------------- */

void axl__error_unref(struct axl__error *err)
{
    if (--err->refs == 0)
        axl__pool_free(AXL__POOL(ERROR), err);
}

/* Keeps a failure for the async handler and for the event's waiters (for
 * a host accessor, which has no queue, only for its waiter). */
static void record_error(struct axl__queue *q, struct axl__event *e,
                         axl_status status, const char *why)
{
#if AXL_FEATURE_GRAPHS
    /* A graph's submission fails with a node whose error the queue has
     * already: its own goes to its event only. (Its command is e's
     * still.) */
    if (q && axl__command_deref(e->command)->kind == AXL__CMD_REPLAY)
        q = NULL;
#endif
    struct axl__error *err = axl__pool_alloc(AXL__POOL(ERROR));
    if (!err) {
        if (q)
            q->dropped++;
        return;
    }
    err->status = status;
    err->event = AXL__HANDLE(EVENT, e);
    axl_format(err->message, sizeof err->message, "%s",
               why && why[0] ? why : axl_status_name(status));
    axl__error_ref r = axl__error_ref_of(err);
    e->error = r;
    err->refs = 1; /* the event */
    if (!q)
        return;
    err->queue = AXL__HANDLE(QUEUE, q);
    err->refs = 2; /* and the queue's list */
    err->listed = true;
    if (AXL__IS_REF(q->err_tail))
        axl__error_deref(q->err_tail)->next = r;
    else
        q->err_head = r;
    q->err_tail = r;
}

void axl__async_error(struct axl__queue *q, uint32_t event, axl_status st,
                      const char *why)
{
    struct axl__error *err = axl__pool_alloc(AXL__POOL(ERROR));
    if (!err) {
        q->dropped++;
        return;
    }
    err->status = st;
    err->event = event;
    err->queue = AXL__HANDLE(QUEUE, q);
    err->refs = 1; /* the queue's list: no event holds it */
    err->listed = true;
    axl_format(err->message, sizeof err->message, "%s",
               why && why[0] ? why : axl_status_name(st));
    axl__error_ref r = axl__error_ref_of(err);
    if (AXL__IS_REF(q->err_tail))
        axl__error_deref(q->err_tail)->next = r;
    else
        q->err_head = r;
    q->err_tail = r;
}

/* 4.7.2.3: "If any error occurs on buffer destruction, it is reported via
 * the associated queue's asynchronous error handling mechanism". A buffer
 * is used by commands of any queue; the queue associated with a failed
 * write-back is that of the command whose failure lost the contents
 * (axl__access_finish keeps it: a cost on the failure path only), while
 * it lives, else its context while the application holds it (as a
 * released queue's late errors go). A port that fails to read the device
 * copy back names no command: the buffer's own context then
 * (context_bound) while the application holds it. Otherwise nobody can
 * ask for the error, and the release's status is its one report. */
void axl__buffer_destroy_error(const struct axl__buffer *b, uint32_t id,
                               axl_status st)
{
    const bool lost = b->lost_status != AXL_SUCCESS;
    struct axl__queue *q =
        lost ? axl__pool_lookup_any(AXL__POOL(QUEUE), b->lost_queue) : NULL;
    struct axl__context *c = NULL;
    if (!q && lost)
        c = axl__pool_get(AXL__POOL(CONTEXT), b->lost_context);
    else if (!q && AXL__IS_REF(b->context))
        c = axl__context_deref(b->context);
    if (!q && (!c || !c->refs))
        return;
    struct axl__error *err = axl__pool_alloc(AXL__POOL(ERROR));
    if (!err) {
        if (q)
            q->dropped++;
        else
            c->dropped++;
        return;
    }
    err->status = st;
    err->event = lost ? b->lost_event : 0;
    err->queue = q ? b->lost_queue : 0;
    err->refs = 1; /* the list's: no event holds it */
    err->listed = true;
    (void)id; /* not compiled in without messages */
    axl__why_quote(err->message, sizeof err->message, axl_last_message(), "",
                   "buffer 0x%08x: ", (unsigned)id);
    if (!err->message[0])
        axl_format(err->message, sizeof err->message, "%s",
                   axl_status_name(st));
    axl__error_ref r = axl__error_ref_of(err);
    axl__error_ref *head = q ? &q->err_head : &c->err_head;
    axl__error_ref *tail = q ? &q->err_tail : &c->err_tail;
    if (AXL__IS_REF(*tail))
        axl__error_deref(*tail)->next = r;
    else
        *head = r;
    *tail = r;
}

/* ---- Completion ------------------------------------------------------------------ */

#if AXL_FEATURE_GRAPHS
axl__graph_submit_t axl__graph_submit_fn;
axl__graph_pipe_t axl__graph_pipe_fn;
#endif

static void complete(struct axl__command *c, axl_status status,
                     const char *why)
{
    struct axl__event *e = axl__event_at(c->event);
    struct axl__queue *q =
        c->queue != AXL__NO_QUEUE ? axl__queue_at(c->queue) : NULL;
    if (e->profiling) {
        /* A graph's submission ends at its last node's end (replay.c has
         * set it), or now when none ran. */
        if (c->kind != AXL__CMD_REPLAY || !e->t_end)
            e->t_end = axl__command_now(c);
        if (!e->t_start)
            e->t_start = e->t_end; /* never ran: failed dependency */
    }
    e->status = status;
    if (status != AXL_SUCCESS) {
        record_error(q, e, status, why);
        AXL__LOG(AXL__LOG_ERROR, "command #%u (%s) failed: %s: %s",
                 (unsigned)c->seq, axl__command_label(c),
                 axl_status_name(status), why && why[0] ? why : "");
    }
    if (c->kind == AXL__CMD_KERNEL && c->u.kernel.pipe)
        axl__pipeline_ended(c, status, why);
    uint32_t rec = 0; /* its trace record, for its dependents' arrows */
    if (AXL__OBSERVED(c))
        rec = axl__observe_end(c, e, status);

    /* Release the dependents. */
    axl__node n = e->succ;
    e->succ = 0;
    while (n) {
        struct axl__command *s =
            axl__command_at((uint16_t)((n - 1) / AXL_MAX_COMMAND_DEPS));
        struct axl__dep *d = &s->deps[(n - 1) % AXL_MAX_COMMAND_DEPS];
        n = d->next;
        d->pred = AXL__NONE(event);
        if (status != AXL_SUCCESS && d->strong && !s->dep_status) {
            s->dep_status = status;
            s->dep_event = AXL__HANDLE(EVENT, e);
        }
        if (rec && AXL__TRACED(s))
            axl__trace_dep(s, rec);
        if (--s->pending == 0)
            make_ready(s);
    }

    if (c->nacc)
        axl__access_finish(c, status != AXL_SUCCESS);
    if (c->kind == AXL__CMD_KERNEL)
        axl__kernel_unhold(axl__kernel_at(c->u.kernel.kernel));
    if (c->flags & AXL__CMD_INFLIGHT)
        inflight_unlink(c);
    const uint16_t cs = axl__command_ref_slot(e->command); /* c's slot */
    e->command = AXL__NONE(command);
    if (q) {
        q->inflight--;
        axl__device_at(c->device)->inflight--;
    }
    if (!(c->flags & AXL__CMD_KEEP_SLOT))
        axl__pool_free_slot(AXL__POOL(COMMAND), cs);
    atomic_store_explicit(&e->state, (uint8_t)AXL_EVENT_COMPLETE,
                          memory_order_release);
    if (AXL__IS_REF(axl__rt.barriers.head))
        barrier_check();
    axl__event_unhold(e);
    if (q)
        axl__queue_unhold(q);
    if (axl__rt.waiters)
        axl_port_wake(AXL_PORT_CHANNEL_DONE);
}

void axl__complete(struct axl__command *c, axl_status status, const char *why)
{
    complete(c, status, why);
}

/* c's event says it runs (lock held). A wait may be for just that (a
 * host accessor's creation, a profiling start, 4.6.6): woken, since the
 * thread that starts c is not always the one whose hold of the lock woke
 * the waits when c became ready (a worker takes a host task later). */
static void start(struct axl__command *c)
{
    struct axl__event *e = axl__event_at(c->event);
    if (e->profiling)
        e->t_start = axl__command_now(c);
    if (AXL__OBSERVED(c))
        axl__observe_start(c, e);
    atomic_store_explicit(&e->state, (uint8_t)AXL_EVENT_RUNNING,
                          memory_order_release);
    if (axl__rt.waiters)
        axl_port_wake(AXL_PORT_CHANNEL_DONE);
}

/* Which buffer of c the failed command (c->dep_event) left unknown, as
 * " writing buffer 0x<handle>" (and " (argument m)" for a kernel), or ""
 * when c depends on it otherwise (an explicit depends_on). */
static void lost_buffer(const struct axl__command *c, char *out, size_t n)
{
    out[0] = '\0';
    for (uint8_t i = 0; i < c->nacc; i++) {
        const struct axl__buffer *b = axl__buffer_at(c->acc[i].base);
        if ((b->lost_event != c->dep_event || !b->lost_status)
#if AXL_FEATURE_GRAPHS
            && (b->lost_ver_event != c->dep_event || !b->lost_ver_status)
#endif
        )
            continue;
        unsigned arg = UINT32_MAX;
        for (uint8_t m = 0; c->kind == AXL__CMD_KERNEL &&
                            m < c->u.kernel.nargs; m++)
            if (c->u.kernel.args[m].acc == i + 1)
                arg = c->u.kernel.args[m].id;
        const uint32_t h =
            AXL__HANDLE(BUFFER, axl__buffer_at(c->acc[i].view));
        if (arg != UINT32_MAX)
            axl__why(out, n, " writing buffer 0x%x (argument %u)",
                     (unsigned)h, arg);
        else
            axl__why(out, n, " writing buffer 0x%x", (unsigned)h);
        return;
    }
}

/* A command whose dependency failed completes with that failure, unrun. */
static void fail_unrun(struct axl__command *c)
{
    char why[AXL_MESSAGE_MAX], buf[48];
    const struct axl__event *pe =
        axl__pool_lookup_any(AXL__POOL(EVENT), c->dep_event);
    const struct axl__error *perr =
        pe && AXL__IS_REF(pe->error) ? axl__error_deref(pe->error) : NULL;
    static const char prefix[] = "not run: a command it depends on failed";
    lost_buffer(c, buf, sizeof buf);
    if (perr && strncmp(perr->message, prefix, sizeof prefix - 1) == 0)
        axl_format(why, sizeof why, "%s", perr->message); /* same root */
    else
        axl__why_quote(why, sizeof why, perr ? perr->message : "", ")",
                       "%s%s (%s%s", prefix, buf,
                       axl_status_name(c->dep_status), perr ? ": " : "");
    complete(c, c->dep_status, why);
}

/* worker: the host-task worker running it + 1, or 0 for the thread that
 * made it ready (the trace's tracks). */
static void run_host_task(struct axl__command *c, unsigned worker)
{
    axl_host_task_fn fn = c->u.host.fn;
    void *user = c->u.host.user;
    char why[AXL_MESSAGE_MAX];
    AXL__TRACE_SET(c, worker, (uint8_t)worker);
    (void)worker; /* only the trace uses it */
    start(c);
    /* Known as this thread's while it runs: a wait of this thread (in the
     * task, or a call it makes) for what waits for it can never end. */
    const axl__command_ref me = axl__command_ref_of(c);
    c->u.host.runner = axl_port_message_buffer();
    c->u.host.next_running = axl__rt.running;
    axl__rt.running = me;
    axl_port_unlock();
    axl_status st = axl__run_transfers(c, why, sizeof why);
    if (st == AXL_SUCCESS) {
        char *msg = axl_port_message_buffer();
        msg[0] = '\0';
        st = fn(user);
        axl_format(why, sizeof why, "%s",
                   msg[0] ? msg
                          : AXL__TEXT("the host task failed and gave no "
                                      "message"));
    }
    axl_port_lock();
    /* Off the running list (a few entries: the workers, and tasks run
     * inside a wait of another one on the same thread). */
    for (axl__command_ref *at = &axl__rt.running; AXL__IS_REF(*at);) {
        struct axl__command *x = axl__command_deref(*at);
        if (axl__command_ref_eq(*at, me)) {
            *at = x->u.host.next_running;
            break;
        }
        at = &x->u.host.next_running;
    }
    c->u.host.runner = NULL;
    complete(c, st, st == AXL_SUCCESS ? NULL : why);
}

/* copy, fill, update_host: move what the command needs, then act. */
static void run_data_command(struct axl__command *c)
{
    char why[AXL_MESSAGE_MAX];
    why[0] = '\0'; /* a string: not its 256 bytes zeroed */
    start(c);
    axl_port_unlock();
    axl_status st = axl__run_transfers(c, why, sizeof why);
    if (st == AXL_SUCCESS)
        st = axl__data_action(c->kind, c->acc, c->a0, c->a1, &c->u, why,
                              sizeof why);
    axl_port_lock();
    complete(c, st, st == AXL_SUCCESS ? NULL : why);
}

/* A host accessor: once its data is on the host it "runs" until the
 * application releases it. */
static void run_host_access(struct axl__command *c)
{
    char why[AXL_MESSAGE_MAX];
    why[0] = '\0'; /* a string: not its 256 bytes zeroed */
    axl_port_unlock();
    axl_status st = axl__run_transfers(c, why, sizeof why);
    axl_port_lock();
    if (st != AXL_SUCCESS) {
        complete(c, st, why);
        return;
    }
    /* An accessor its creation gave up on (it could never be ready:
     * axl_host_accessor_create) ends at once, as a released one. */
    if (c->u.access.dropped) {
        axl__access_started(c);
        start(c);
        complete(c, AXL_SUCCESS, NULL);
        return;
    }
    axl__access_started(c);
    start(c); /* wakes the accessor's creation */
}

static void dispatch(struct axl__command *c)
{
#if AXL_FEATURE_GRAPHS
    if (c->kind == AXL__CMD_REPLAY) {
#if AXL_FEATURE_DESIGN_SWAP
        if (__builtin_expect(axl__replay_unsettled(c), 0) &&
            !axl__replay_turn(c))
            return; /* it waits for its design (replay.c) */
#endif
        axl__replay_start(c);
        return;
    }
    /* After a graph's submission through a buffer (an edge that only
     * orders): what it reads may be what a node of it lost. */
    if ((c->flags & AXL__CMD_AFTER_GRAPH) && !c->dep_status)
        (void)axl__after_graph_lost(c);
#endif
    if (c->dep_status) {
        fail_unrun(c);
        return;
    }
    switch (c->kind) {
    case AXL__CMD_HOST_TASK:
        if (axl__rt.workers) {
            axl__fifo_push(&axl__rt.host, c, axl__command_ref_of(c));
            axl_port_wake(AXL_PORT_CHANNEL_WORK);
        } else {
            run_host_task(c, 0);
        }
        break;
    case AXL__CMD_HOST_ACCESS:
        run_host_access(c);
        break;
    case AXL__CMD_COPY_TO_HOST:
    case AXL__CMD_COPY_FROM_HOST:
    case AXL__CMD_COPY:
    case AXL__CMD_FILL:
    case AXL__CMD_UPDATE_HOST:
    case AXL__CMD_PREFETCH:
    case AXL__CMD_EMPTY:
        run_data_command(c);
        break;
    case AXL__CMD_KERNEL:
        axl__run_kernel(c);
        break;
    default:
        complete(c, AXL_ERR_RUNTIME,
                 AXL__TEXT("internal: unknown command kind"));
        break;
    }
}

bool axl__pump(void)
{
    struct axl__command *c;
    bool did = false;
    for (;;) {
#if AXL_FEATURE_GRAPHS
        /* A graph's submission whose claim nobody drives (an interrupt's
         * run end, a unit freed under the lock). */
        if (atomic_load_explicit(&axl__rt.replay_kick, memory_order_relaxed)) {
            axl__replay_poll();
            did = true;
        }
#endif
        if (!(c = axl__fifo_pop(&axl__rt.ready)))
            break;
        dispatch(c);
        did = true;
    }
    if (AXL__IS_REF(axl__rt.zombie_head)) {
        axl__free_zombies();
        did = true;
    }
    return did;
}

void axl__workers_main(void *arg)
{
    (void)arg;
    axl_port_lock();
    const unsigned me = ++axl__rt.worker_ids; /* 1, 2, ... */
    for (;;) {
#if AXL_FEATURE_DESIGN_SWAP
        if (axl__rt.swap_wants && axl__swaps_run())
            continue;
#endif
        struct axl__command *c =
            axl__fifo_pop(&axl__rt.host);
        if (!c) {
#if AXL_FEATURE_GRAPHS
            if (axl__replay_host_work()) { /* a graph's host-task node */
                axl__pump();
                continue;
            }
#endif
            if (axl__rt.stopping)
                break;
            axl__rt.idle_workers++;
            axl_port_wait(AXL_PORT_CHANNEL_WORK, UINT64_MAX);
            axl__rt.idle_workers--;
            continue;
        }
        run_host_task(c, me);
        axl__pump();
    }
    axl_port_unlock();
}

/* ---- Submission -------------------------------------------------------------------- */

/* Lets go of the buffers a handler holds (lock held). */
void axl__handler_drop(axl_handler *h)
{
    for (uint8_t i = 0; i < h->nacc; i++)
        axl__buffer_unhold(h->acc[i].buf);
    h->nacc = 0;
}

/* A failed commit's end: the hold it took on the kernel (kn may be NULL)
 * let go, st returned. */
static axl_status kernel_let_go(struct axl__kernel *kn, axl_status st)
{
    if (kn)
        axl__kernel_unhold(kn);
    return st;
}

/* What every submission's event and command start as (lock held): e
 * (slot es) submitted, held by its command and not yet referenced
 * (retire it or take a reference), without profiling or a role; c (slot
 * cs) of h's kind with h's action, flags 0, held back by one pending
 * count, no edges, no accessors; q (NULL: a host accessor) counts it in
 * flight and holds it. The kernel is not held here (axl__commit). */
static inline void command_arm_base(struct axl__command *c, uint16_t cs,
                                    struct axl__event *e, uint16_t es,
                                    struct axl__queue *q, uint8_t kind)
{
    const uint16_t qs = q ? AXL__SLOT(QUEUE, q) : AXL__NO_QUEUE;
    e->refs = 0;
    e->holds = 1; /* the command */
    e->status = AXL_SUCCESS;
    e->error = AXL__NONE(error);
    e->succ = 0;
    e->t_submit = e->t_start = e->t_end = 0;
    e->profiling = false;
    e->role = 0;
#if AXL_FEATURE_DESIGN_SWAP
    e->ran_in = 0;
#endif
    e->queue = q ? axl__pool_slot_handle(AXL__POOL(QUEUE), qs) : 0;
    /* Table 34: its own command is an execution it waits on, so its own
     * context is one whose errors its wait_and_throw delivers. */
    e->waited_ctx = q ? AXL__CTX_BIT(q->context) : 0u;
    e->command = axl__command_ref_at(cs);
    atomic_store_explicit(&e->state, (uint8_t)AXL_EVENT_SUBMITTED,
                          memory_order_relaxed);

    c->seq = ++axl__rt.seq;
    c->kind = kind;
    c->flags = 0;
    c->ndeps = 0;
    c->nacc = 0;
    c->event = es;
    c->queue = qs;
    c->device = q ? q->device : 0;
    c->pending = 1; /* held until the end of submission */
    c->next = c->prev_inflight = c->next_inflight = AXL__NONE(command);
    c->dep_status = AXL_SUCCESS;
    c->dep_event = 0;
    if (q) {
        q->holds++;
        q->inflight++;
        axl__device_at(q->device)->inflight++;
    }
}

static inline void command_arm(struct axl__command *c, uint16_t cs,
                               struct axl__event *e, uint16_t es,
                               struct axl__queue *q, const axl_handler *h)
{
    const uint8_t kind = h->kind;
    command_arm_base(c, cs, e, es, q, kind);
    c->a0 = h->a0;
    c->a1 = h->a1;
    if (kind == AXL__CMD_KERNEL) {
        /* Only what the launch uses of the action; the scalars' bytes are
         * still where axl_handler_set_arg put them. */
        c->u.kernel.kernel = h->u.kernel.kernel;
        c->u.kernel.kid = h->u.kernel.kid;
        c->u.kernel.nargs = h->u.kernel.nargs;
        c->u.kernel.timeout_ns = h->u.kernel.timeout_ns;
        c->u.kernel.memo = h->u.kernel.memo;
        c->u.kernel.pipe = h->u.kernel.pipe;
        c->u.kernel.pipe_unit = h->u.kernel.pipe_unit;
        c->u.kernel.pipe_flags = 0;
        /* Whole arrays, when there is anything in them: a fixed size
         * copies in a few moves, where the counts would call memcpy (bytes
         * past them are never read). */
        if (h->u.kernel.nargs)
            memcpy(c->u.kernel.args, h->u.kernel.args,
                   sizeof c->u.kernel.args);
        if (h->kbytes_used)
            memcpy(c->u.kernel.bytes, h->kbytes, sizeof c->u.kernel.bytes);
    } else if (kind == AXL__CMD_HOST_TASK) {
        c->u.host = h->u.host;
        c->u.host.runner = NULL;
    } else if (kind == AXL__CMD_REPLAY) {
        c->u.replay = h->u.replay;
    } else {
        c->u = h->u;
    }
}

/* Command c's explicit edges (deps; overflow: more than a handler holds,
 * a barrier), then the in-order one, which only orders; c in flight, or
 * held as a barrier. The event the in-order edge was to (lock held). */
AXL__HOT_INLINE uint32_t commit_order(struct axl__command *c,
                                     axl__command_ref cref, uint32_t ehandle,
                                     struct axl__queue *q,
                                     const uint32_t *deps, unsigned ndeps,
                                     bool overflow)
{
    for (unsigned i = 0; i < ndeps; i++) {
        struct axl__event *p = axl__pool_lookup_any(AXL__POOL(EVENT), deps[i]);
        if (p)
            axl__add_dep(c, p, true);
    }
    if (overflow)
        c->flags |= AXL__CMD_BARRIER;
    uint32_t in_order_prev = 0;
    if (q && (q->flags & AXL_QUEUE_IN_ORDER)) {
        in_order_prev = q->last_event;
        struct axl__event *p =
            axl__pool_lookup_any(AXL__POOL(EVENT), in_order_prev);
        if (p)
            axl__add_dep(c, p, false);
        q->last_event = ehandle;
    }

    if (q) {
        inflight_append(c, cref);
        c->flags |= AXL__CMD_INFLIGHT;
    }
    if (c->flags & AXL__CMD_BARRIER) {
        c->pending++;
        axl__fifo_push(&axl__rt.barriers, c, cref);
        barrier_check();
    }
    return in_order_prev;
}

#if AXL_FEATURE_GRAPHS
axl_status axl__commit_replay(const char *fn, struct axl__queue *q,
                              uint16_t exec, struct axl__plan *plan,
                              const uint32_t *deps, unsigned ndeps,
                              bool overflow, struct axl__command **out_cmd,
                              axl_event *out)
{
    uint16_t es, cs;
    struct axl__event *e = axl__pool_alloc_raw(AXL__POOL(EVENT), &es);
    if (!e)
        return axl__pool_full(fn, AXL__POOL_EVENT);
    struct axl__command *c = axl__pool_alloc_raw(AXL__POOL(COMMAND), &cs);
    if (!c) {
        axl__pool_free(AXL__POOL(EVENT), e);
        return axl__pool_full(fn, AXL__POOL_COMMAND);
    }
    const axl__command_ref cref = axl__command_ref_at(cs);
    const uint32_t ehandle = axl__pool_slot_handle(AXL__POOL(EVENT), es);
    command_arm_base(c, cs, e, es, q, AXL__CMD_REPLAY);
    c->a0 = c->a1 = 0;
    c->u.replay.exec = exec;
    c->u.replay.plan = plan;
    e->refs = out ? 1 : 0;
    e->profiling = (q->flags & AXL_QUEUE_ENABLE_PROFILING) != 0;
    if (!out)
        axl__pool_retire(AXL__POOL(EVENT), e);
    if (e->profiling)
        e->t_submit = axl__dev_now(axl__device_at(q->device));
    axl__replay_edges(c, q);
    (void)commit_order(c, cref, ehandle, q, deps, ndeps, overflow);
    if (out)
        out->id = ehandle;
    *out_cmd = c;
    if (--c->pending == 0)
        axl__fifo_push(&axl__rt.ready, c, cref);
    return AXL_SUCCESS;
}
#endif

/* Builds the command for a checked group (lock held; may be dropped while
 * storage is allocated). q is NULL for a host accessor. */
axl_status axl__commit(const char *fn, struct axl__queue *q, axl_handler *h,
                       struct axl__command **out_cmd, axl_event *out)
{
    /* A group a kernel's memo filled has passed these checks (see
     * group_check), and each accessor's location is the memo's. The
     * checks may drop the lock (host storage): a kernel launch takes its
     * command's hold on the kernel first, so that a kernel another thread
     * releases meanwhile stays (retired) for the command. */
    struct axl__kernel *kn = NULL; /* held already */
    if (h->nacc && !h->memo) {
        if (h->kind == AXL__CMD_KERNEL) {
            kn = axl__kernel_at(h->u.kernel.kernel);
            kn->holds++;
        }
        axl_status st = axl__access_prepare(fn, h, q);
        if (st != AXL_SUCCESS)
            return kernel_let_go(kn, st);
    }
    uint16_t es, cs;
    struct axl__event *e = axl__pool_alloc_raw(AXL__POOL(EVENT), &es);
    if (!e)
        return kernel_let_go(kn, axl__pool_full(fn, AXL__POOL_EVENT));
    /* Not zeroed: a command is large, and launches should not pay for
     * clearing what they never read. Every field read is set below. */
    struct axl__command *c = axl__pool_alloc_raw(AXL__POOL(COMMAND), &cs);
    if (!c) {
        axl__pool_free(AXL__POOL(EVENT), e);
        return kernel_let_go(kn, axl__pool_full(fn, AXL__POOL_COMMAND));
    }
    /* The slots are known: no handle below needs a division. */
    const axl__command_ref cref = axl__command_ref_at(cs);
    const uint32_t ehandle = axl__pool_slot_handle(AXL__POOL(EVENT), es);
    const uint8_t kind = h->kind;
    command_arm(c, cs, e, es, q, h);
    e->refs = out ? 1 : 0;
    e->profiling = q && (q->flags & AXL_QUEUE_ENABLE_PROFILING) != 0;
    e->role = kind == AXL__CMD_HOST_ACCESS ? AXL__EV_HOST_ACCESS : 0;
#if AXL_FEATURE_DESIGN_SWAP
    e->ran_in = 0;
#endif
    if (!out)
        axl__pool_retire(AXL__POOL(EVENT), e);
    if (e->profiling) /* on the clock of the queue's device */
        e->t_submit = q ? axl__dev_now(axl__device_at(q->device)) : axl__now();
    if (kind == AXL__CMD_KERNEL && !kn)
        axl__kernel_at(h->u.kernel.kernel)->holds++;
    if (kind == AXL__CMD_KERNEL && c->u.kernel.pipe)
        axl__pipeline_committed(c);

    /* Data edges first (they must not fail the command), then the explicit
     * ones, then the in-order edge, which only orders: a barrier covers it
     * if it does not fit. The handler's buffer holds pass to the command. */
    if (h->nacc)
        axl__access_commit(c, cs, h);
#if AXL_FEATURE_GRAPHS
    else if (kind == AXL__CMD_REPLAY)
        axl__replay_edges(c, q);
#endif
    const uint32_t in_order_prev = commit_order(
        c, cref, ehandle, q, h->deps, h->ndeps, h->deps_overflow);
    if (out)
        out->id = ehandle;
    if (out_cmd)
        *out_cmd = c;
    /* The trace's and the debug log's one check on the way in: the
     * command's own flags then say whether its later hooks record
     * (trace.c, "The hooks"). */
    if (axl__observing())
        axl__observe_submit(c, e, h, in_order_prev);
    if (--c->pending == 0)
        axl__fifo_push(&axl__rt.ready, c, cref);
    return AXL_SUCCESS;
}

/* The checks of a group: its first error, exactly one action, and what
 * the action takes (a kernel: the one checker, axl__kernel_prepare). */
static axl_status group_check(const char *fn, struct axl__queue *q,
                              axl_handler *h)
{
    /* Filled from a kernel's memo (axl__launch_recall): its launch passed
     * every check here, and nothing they depend on has changed since but
     * what the recall checked under this same hold of the lock (the
     * design on the device, the buffers' contents). */
    if (h->memo)
        return AXL_SUCCESS;
    if (h->error != AXL_SUCCESS)
        return axl__fail_as(fn, h->error, h->why);
    if (h->nactions == 0) /* 4.9.3: "no more than one" command: none is a
                             barrier on its dependencies and accessors */
        h->kind = AXL__CMD_EMPTY;
    if (h->host_ptrs && h->kind != AXL__CMD_HOST_TASK)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "axl_handler_host_ptr is for host tasks, and this "
                         "group's action is not one");
    if (h->nkargs && h->kind != AXL__CMD_KERNEL)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "kernel arguments were set, and the group's action "
                         "is not a kernel");
    if (h->kind == AXL__CMD_KERNEL)
        return axl__kernel_prepare(fn, q, h);
    if (h->kind == AXL__CMD_PREFETCH)
        return axl__prefetch_prepare(fn, q, h);
    return AXL_SUCCESS;
}

#if AXL_FEATURE_GRAPHS
axl_status axl__group_check(const char *fn, struct axl__queue *q,
                            axl_handler *h)
{
    return group_check(fn, q, h);
}

/* What submit_check returns for a group it recorded into a graph (not a
 * status the API returns: axl__submit makes it AXL_SUCCESS). */
#define RECORDED ((axl_status)1)

/* A queue that records, or a group that names a recorded command: to
 * graph.c, through a pointer the first graph sets, so a firmware that
 * makes none does not link the recording code. */
static axl_status record(const char *fn, struct axl__queue *q,
                         axl_handler *h, axl_event *out)
{
    axl_status st;
    if (axl__graph_submit_fn)
        st = axl__graph_submit_fn(fn, q, h, out);
    else if (h->error != AXL_SUCCESS) /* its own first error (handler.h) */
        st = axl__fail_as(fn, h->error, h->why);
    else
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "the group depends on a graph node's handle, and no "
                       "graph was made");
    return st == AXL_SUCCESS ? RECORDED : st;
}
#endif

/* group_check for a submission. A group filled from a kernel's memo
 * never reaches the recording test: the memo is recalled only for a queue
 * that does not record (axl__launch_recall compares the queue's graph)
 * and a group with no node dependency. */
static inline axl_status submit_check(const char *fn, struct axl__queue *q,
                                      axl_handler *h, axl_event *out)
{
    if (h->memo)
        return AXL_SUCCESS;
#if AXL_FEATURE_GRAPHS
    if (AXL__IS_REF(q->graph) | h->node_deps)
        return record(fn, q, h, out);
#else
    (void)out;
#endif
    return group_check(fn, q, h);
}

/* A submission that failed (lock held; cold, off the launch path). When
 * axl__commit found the event pool full of released events that commands
 * in flight still hold, the submission waits for room as a creation does
 * (room.c) and is made again, while the handler holds its buffers and the
 * queue is held; the group is checked again in full (a group the kernel's
 * memo filled is made a plain one first), since what the checks found may
 * have changed with the lock dropped. Else, and when room cannot be made,
 * it fails as it did. Host accessors, graphs and parallel_for, which need
 * their slots at once, do not wait. */
AXL__COLD static axl_status submit_failed(const char *fn,
                                          struct axl__queue *q,
                                          axl_handler *h, axl_event *out,
                                          axl_status st)
{
    axl__pool *ep = AXL__POOL(EVENT);
    if (st == AXL_ERR_OUT_OF_RESOURCES && !ep->free_head) {
        /* The queue may be released meanwhile: held until the command, if
         * any, holds it; the callers do not look at it after a failure. */
        q->holds++;
        st = axl__room(fn, AXL__POOL_EVENT);
        if (st == AXL_SUCCESS && !ep->free_head) {
            st = axl__pool_full(fn, AXL__POOL_EVENT); /* the application's */
        } else if (st == AXL_SUCCESS) {
            if (ep->failures)
                ep->failures--; /* commit's allocation: not refused */
            if (h->memo)
                axl__launch_unrecall(h);
            st = axl__submit(fn, q, h, out); /* lets go of the handler */
            axl__queue_unhold(q);
            return st;
        }
        axl__queue_unhold(q);
    }
    axl__handler_drop(h);
#if AXL_FEATURE_GRAPHS
    if (st == RECORDED)
        return AXL_SUCCESS;
#endif
    return st;
}

axl_status axl__submit(const char *fn, struct axl__queue *q, axl_handler *h,
                       axl_event *out)
{
    struct axl__command *c;
    axl_status st = submit_check(fn, q, h, out);
    if (st == AXL_SUCCESS)
        st = axl__commit(fn, q, h, &c, out);
    if (st != AXL_SUCCESS)
        return submit_failed(fn, q, h, out, st);
    /* A single_task group checked in full: its kernel remembers it (the
     * command is not dispatched before the pump below). */
    if (h->args_given)
        axl__launch_remember(q, h, c);
    axl__handler_drop(h);
    axl__pump();
    return st;
}

/* ---- Waiting ------------------------------------------------------------------------ */

/* ---- Waits that can never end (issues 16.5, 35.2) ----------------------------------- */

/* What the calling thread blocks: the host accessors it holds (until it
 * releases them) and the host tasks it runs (until they return; with
 * everything they call: handlers, command-group functions, allocators). A
 * wait of that thread for a command that waits for one of them, directly
 * or through others, can never end. The thread is told apart by its
 * message buffer, which is per thread on ports with threads (one on bare
 * metal: one thread). Before any wait that may find one, the waiter walks
 * the unfinished predecessors of what it waits for (bounded by the
 * command pool) and fails at once, naming it, instead of hanging. */

/* The walk's scratch: static (used under the lock), so its size, which
 * grows with the command pool, is not on the waiting thread's stack. */
static uint16_t walk_todo[AXL_MAX_COMMANDS];
static uint8_t walk_seen[(AXL_MAX_COMMANDS + 7) / 8];

#define SEEN(x) (walk_seen[(x) >> 3] >> ((x) & 7) & 1)
#define MARK(x) (walk_seen[(x) >> 3] |= (uint8_t)(1u << ((x) & 7)))

/* Does the calling thread hold any host accessor? */
static bool caller_holds_accessor(const void *me)
{
    const axl__pool *p = AXL__POOL(HOST_ACCESSOR);
    if (!p->in_use)
        return false;
    for (uint16_t h = 0; h < p->capacity; h++)
        if (axl__pool_is_live(p, h) &&
            ((const struct axl__host_accessor *)axl__pool_at(p, h))->owner ==
                me)
            return true;
    return false;
}

/* Does the calling thread run a host task (axl__rt.running: the host
 * tasks running now, a few)? */
static bool caller_runs_task(const void *me)
{
    for (axl__command_ref r = axl__rt.running; AXL__IS_REF(r);) {
        const struct axl__command *c = axl__command_deref(r);
        if (c->u.host.runner == me)
            return true;
        r = c->u.host.next_running;
    }
    return false;
}

/* Could any wait of the calling thread never end? Nearly always false,
 * at the cost of two loads: no host accessor alive, no host task
 * running. */
static bool caller_blocks(const void *me)
{
    return (AXL__POOL(HOST_ACCESSOR)->in_use && caller_holds_accessor(me)) ||
           (AXL__IS_REF(axl__rt.running) && caller_runs_task(me));
}

/* Is command c (unfinished) one the calling thread blocks? *why then
 * names it. */
static bool blocked_by_caller(uint16_t slot, const struct axl__command *c,
                              const void *me, char *why, size_t cap)
{
    if (c->kind == AXL__CMD_HOST_TASK) {
        if (c->u.host.runner != me)
            return false;
        axl_format(why, cap, "the host task this thread runs (event 0x%08x)",
                   (unsigned)axl__pool_slot_handle(AXL__POOL(EVENT),
                                                   c->event));
        return true;
    }
    if (c->kind != AXL__CMD_HOST_ACCESS ||
        atomic_load_explicit(&axl__event_at(c->event)->state,
                             memory_order_acquire) == AXL_EVENT_SUBMITTED)
        return false;
    const axl__pool *p = AXL__POOL(HOST_ACCESSOR);
    for (uint16_t h = 0; h < p->capacity; h++) {
        if (!axl__pool_is_live(p, h))
            continue;
        const struct axl__host_accessor *ha = axl__pool_at(p, h);
        if (ha->command != slot || ha->owner != me)
            continue; /* another thread's: it may release it */
        axl_format(why, cap,
                   "a host accessor of buffer 0x%08x that this thread "
                   "holds (release it first)",
                   (unsigned)ha->buffer);
        return true;
    }
    return false;
}

/* Do the commands in walk_todo[0..n) (marked seen), or what they wait for
 * transitively, need something the calling thread blocks? A
 * breadth-first walk over unfinished predecessors, each command once. */
static bool walk_blocked(unsigned n, const void *me, char *why, size_t cap)
{
    unsigned at = 0;
    while (at < n) {
        const uint16_t slot = walk_todo[at++];
        const struct axl__command *c = axl__command_at(slot);
        if (blocked_by_caller(slot, c, me, why, cap))
            return true;
        for (uint8_t j = 0; j < c->ndeps; j++) {
            if (!AXL__IS_REF(c->deps[j].pred))
                continue;
            const struct axl__event *pe = axl__event_deref(c->deps[j].pred);
            const uint16_t ps = axl__command_ref_slot(pe->command);
            if (!AXL__IS_REF(pe->command) || SEEN(ps))
                continue;
            MARK(ps);
            walk_todo[n++] = ps;
        }
        if (c->flags & AXL__CMD_BARRIER) /* every earlier command */
            for (axl__command_ref r = axl__rt.inflight_head; AXL__IS_REF(r);) {
                const struct axl__command *x = axl__command_deref(r);
                const uint16_t xs = axl__command_ref_slot(r);
                r = x->next_inflight;
                if (x->seq < c->seq && !SEEN(xs)) {
                    MARK(xs);
                    walk_todo[n++] = xs;
                }
            }
    }
    return false;
}

/* Does a command in flight use base buffer `base` (an accessor of it or
 * of a sub-buffer of it)? */
static bool uses_buffer(const struct axl__command *c, uint16_t base)
{
    for (uint8_t i = 0; i < c->nacc; i++)
        if (c->acc[i].base == base)
            return true;
    return false;
}

/* The commands a wait for `arg` waits for, into walk_todo: the count. */
static unsigned wait_set(enum axl__waited what, const void *arg)
{
    memset(walk_seen, 0, sizeof walk_seen);
    if (what == AXL__WAITED_EVENT) {
        const struct axl__event *e = arg;
        if (!AXL__IS_REF(e->command))
            return 0;
        walk_todo[0] = axl__command_ref_slot(e->command);
        MARK(walk_todo[0]);
        return 1;
    }
    unsigned n = 0;
    for (axl__command_ref r = axl__rt.inflight_head; AXL__IS_REF(r);) {
        const struct axl__command *c = axl__command_deref(r);
        const uint16_t cs = axl__command_ref_slot(r);
        r = c->next_inflight;
        bool in;
        switch (what) {
        case AXL__WAITED_QUEUE:
            in = c->queue == AXL__SLOT(QUEUE, (const struct axl__queue *)arg);
            break;
        case AXL__WAITED_BUFFER:
            in = uses_buffer(c, AXL__SLOT(BUFFER,
                                          (const struct axl__buffer *)arg));
            break;
        case AXL__WAITED_DEVICE:
            in = c->device == AXL__SLOT(DEVICE,
                                        (const struct axl__device *)arg);
            break;
        default: /* everything in flight */
            in = true;
            break;
        }
        if (in) {
            MARK(cs);
            walk_todo[n++] = cs;
        }
    }
    return n;
}

#undef SEEN
#undef MARK

bool axl__wait_blocked(enum axl__waited what, const void *arg, char *why,
                       size_t cap)
{
    const void *me = axl_port_message_buffer();
    if (!caller_blocks(me))
        return false;
    return walk_blocked(wait_set(what, arg), me, why, cap);
}

axl_status axl__wait_check(const char *fn, enum axl__waited what,
                           const void *arg, axl_status as, const char *first)
{
    if (!axl__wait_may_block())
        return AXL_SUCCESS;
    char why[AXL_MESSAGE_MAX - 64];
    if (!axl__wait_blocked(what, arg, why, sizeof why))
        return AXL_SUCCESS;
    return axl__fail(fn, as, "%s can never end: it waits for %s", first, why);
}

/* Does the calling thread hold a host accessor of base buffer b (or of a
 * sub-buffer of it)? */
bool axl__held_by_caller(const struct axl__buffer *b)
{
    const void *me = axl_port_message_buffer();
    const axl__pool *p = AXL__POOL(HOST_ACCESSOR);
    for (uint16_t h = 0; h < p->capacity; h++) {
        if (!axl__pool_is_live(p, h))
            continue;
        const struct axl__host_accessor *ha = axl__pool_at(p, h);
        const struct axl__buffer *v = axl__pool_lookup_any(
            AXL__POOL(BUFFER), ha->buffer);
        if (ha->owner == me && v && axl__buffer_base(v) == b)
            return true;
    }
    return false;
}

/* Blocks (lock held) until done(arg): first dispatching whatever is ready,
 * then spinning briefly so a completion on another thread arrives without
 * a sleep, then sleeping on the DONE channel. Gives up at `until` (runtime
 * clock; UINT64_MAX: never): false. */
static bool wait_core(axl__done_fn done, const void *arg, uint64_t until)
{
    uint64_t spin_until = 0;
    while (!done(arg)) {
        if (AXL__IS_REF(axl__rt.ready.head)
#if AXL_FEATURE_GRAPHS
            || atomic_load_explicit(&axl__rt.replay_kick,
                                    memory_order_relaxed)
#endif
        ) {
            axl__pump();
            continue;
        }
        /* A host task that waits holds its worker. With every worker so
         * held, a host task queued for one would never run, and a wait
         * for it would never end (issue 35.2): the waiting one runs it
         * (on a worker all the same). */
#if AXL_FEATURE_DESIGN_SWAP
        /* A design a command waits for is loaded by whoever waits (2.2):
         * a host task waiting here needs no other worker for it. */
        if (axl__rt.swap_wants && axl__swaps_run())
            continue;
#endif
        if (AXL__IS_REF(axl__rt.host.head) && !axl__rt.idle_workers &&
            AXL__IS_REF(axl__rt.running) &&
            caller_runs_task(axl_port_message_buffer())) {
            run_host_task(axl__fifo_pop(&axl__rt.host), 0);
            axl__pump();
            continue;
        }
        /* Kernels past their timeout are given up by whoever waits; the
         * wait itself ends at until. Deadlines here are the runtime's
         * clock's: a device with a clock of its own is given its own
         * (progress below), and 0 says one of its runs is past its. */
        uint64_t deadline = axl__next_deadline();
        if (until < deadline)
            deadline = until;
        if (deadline != UINT64_MAX && axl__now() >= deadline) {
            if (deadline == until)
                return false;
            axl__check_timeouts();
            continue;
        }
        /* A port without its own completion thread or interrupt finishes
         * runs when a waiter lets it (it returns by the deadline given). */
        struct axl__device *pd = axl__progress_device();
        if (pd) {
            /* A device with its own clock runs to its own deadline, a slice
             * of its time at most (hal.h, now), then this loop looks at
             * the host's clock and the other devices again. */
            uint64_t pdl = deadline;
#if AXL_DEVICE_CLOCKS
            /* As axl__next_deadline found it above, the lock held since
             * (it looked at every device: it did not return 0). */
            if (axl__dev_clocked(pd))
                pdl = pd->deadline_seen;
#endif
#if AXL_FEATURE_DESIGN_SWAP
            pd->region[0].progressing++; /* no load meanwhile (swap.c) */
#endif
            axl_port_unlock();
            axl__dev_progress(pd, pdl);
            axl_port_lock();
#if AXL_FEATURE_DESIGN_SWAP
            /* The last one out lets a swap that waited for it go on. */
            if (!--pd->region[0].progressing && axl__rt.swap_wants)
                axl__swap_wake();
#endif
            if (!done(arg) && !AXL__IS_REF(axl__rt.ready.head))
                axl_port_relax();
            continue;
        }
        uint64_t now = axl_port_now_ns();
        if (!spin_until)
            spin_until = now + AXL_WAIT_SPIN_NS;
        if (now < spin_until) {
            axl_port_unlock();
            for (int i = 0; i < 64; i++)
                axl_port_relax();
            axl_port_lock();
            continue;
        }
        /* Sleep, until the next deadline at most (on the port's clock). */
        uint64_t wake = UINT64_MAX;
        if (deadline != UINT64_MAX) {
            uint64_t t = axl__now();
            uint64_t left = deadline > t ? deadline - t : 0;
            wake = axl_port_now_ns() + (left < 1000000u ? left : 1000000u);
        }
        axl__rt.waiters++;
        axl_port_wait(AXL_PORT_CHANNEL_DONE, wake);
        axl__rt.waiters--;
    }
    return true;
}

static void wait_until(axl__done_fn done, const void *arg)
{
    wait_core(done, arg, UINT64_MAX);
}

void axl__wait_until_pred(axl__done_fn done, const void *arg)
{
    wait_until(done, arg);
}

bool axl__wait_until_pred_by(axl__done_fn done, const void *arg,
                             uint64_t until)
{
    return wait_core(done, arg, until);
}

static bool event_done(const void *arg)
{
    return event_complete(arg);
}

static bool event_started(const void *arg)
{
    return atomic_load_explicit(&((const struct axl__event *)arg)->state,
                                memory_order_acquire) != AXL_EVENT_SUBMITTED;
}

static bool queue_idle(const void *arg)
{
    return ((const struct axl__queue *)arg)->inflight == 0;
}

/* The status of a complete event, with its message for the caller. */
static axl_status event_result(const char *fn, const struct axl__event *e)
{
    if (e->status == AXL_SUCCESS)
        return AXL_SUCCESS;
    const struct axl__error *err =
        AXL__IS_REF(e->error) ? axl__error_deref(e->error) : NULL;
    return axl__fail_quote(
        fn, e->status,
        err ? err->message : "(its message was lost: the error pool was full)",
        "the command failed: ");
}

axl_status axl__wait_events(const char *fn, struct axl__event *const *evs,
                            uint32_t n)
{
    return axl__wait_events_until(fn, evs, n, UINT64_MAX);
}

/* Waits for each event until `until` (runtime clock; UINT64_MAX: no
 * limit). A wait that can never end is AXL_ERR_BAD_STATE, one past until
 * AXL_ERR_TIMEOUT, both at once and with a message; neither cancels
 * anything. */
axl_status axl__wait_events_until(const char *fn,
                                  struct axl__event *const *evs, uint32_t n,
                                  uint64_t until)
{
    for (uint32_t i = 0; i < n; i++) {
        /* A wait that can never end, asked before waiting (what this
         * thread blocks does not change while it waits). */
        axl_status st = axl__wait_check(fn, AXL__WAITED_EVENT, evs[i],
                                        AXL_ERR_BAD_STATE, "the wait");
        if (st != AXL_SUCCESS)
            return st;
        if (!wait_core(event_done, evs[i], until)) {
#if AXL_FEATURE_DESIGN_SWAP
            /* Waiting for a design: the message says what keeps it out. */
            char why[AXL_MESSAGE_MAX - 32];
            if (AXL__IS_REF(evs[i]->command) &&
                axl__swap_waits_why(axl__command_deref(evs[i]->command), why,
                                    sizeof why))
                return axl__fail(fn, AXL_ERR_TIMEOUT, "%s", why);
#endif
            return axl__fail(fn, AXL_ERR_TIMEOUT,
                             "the command is not complete after the time "
                             "given (it goes on: wait again or poll)");
        }
    }
    /* The first failure's message, set last: what the waits dispatched
     * (ports, models, host tasks) may have used the thread's message. */
    for (uint32_t i = 0; i < n; i++)
        if (evs[i]->status != AXL_SUCCESS)
            return event_result(fn, evs[i]);
    return AXL_SUCCESS;
}

axl_status axl__wait_for_room(struct axl__event *e, char *why, size_t cap)
{
    if (axl__wait_may_block() &&
        axl__wait_blocked(AXL__WAITED_EVENT, e, why, cap))
        return AXL_ERR_BAD_STATE;
    e->holds++;
    wait_until(event_done, e);
    axl__event_unhold(e);
    return AXL_SUCCESS;
}

axl_status axl__wait_started(const char *fn, struct axl__event *e)
{
    axl_status st = axl__wait_check(fn, AXL__WAITED_EVENT, e,
                                    AXL_ERR_BAD_STATE, "the wait");
    if (st == AXL_SUCCESS) {
        /* Counted before the look (seq_cst, as the lock-free start's
         * store and load are): either the look sees the start, or the
         * start sees this count and wakes the sleep. */
        atomic_fetch_add(&axl__rt.start_waits, 1);
        wait_until(event_started, e);
        atomic_fetch_sub(&axl__rt.start_waits, 1);
    }
    return st;
}

axl_status axl__wait_queue(const char *fn, struct axl__queue *q)
{
    axl_status st = axl__wait_check(fn, AXL__WAITED_QUEUE, q,
                                    AXL_ERR_BAD_STATE,
                                    "the wait for the queue");
    if (st != AXL_SUCCESS)
        return st;
    wait_until(queue_idle, q);
    if (AXL__IS_REF(axl__rt.zombie_head))
        axl__free_zombies();
    return AXL_SUCCESS;
}

/* ---- Async error delivery (4.6.5.5) ------------------------------------------------ */

/* A list of unconsumed errors: a queue's, or a context's (the late errors
 * of its released queues). */
typedef struct err_list {
    axl__error_ref *head, *tail;
    uint32_t *dropped;
} err_list;

static axl_status take_one(const char *fn, err_list l, const char *what);

/* All of l's errors (and its dropped count) to handler h. */
static void give_all(err_list l, axl_async_handler h)
{
    uint16_t taken[AXL_MAX_ERRORS];
    uint32_t n = 0;
    while (AXL__IS_REF(*l.head) && n < AXL_MAX_ERRORS) {
        struct axl__error *err = axl__error_deref(*l.head);
        *l.head = err->next;
        err->listed = false;
        taken[n++] = AXL__SLOT(ERROR, err);
    }
    if (!AXL__IS_REF(*l.head))
        *l.tail = AXL__NONE(error);
    uint32_t dropped = *l.dropped;
    *l.dropped = 0;
    if (n == 0 && dropped == 0)
        return;
    axl_async_error list[AXL_MAX_ERRORS];
    for (uint32_t i = 0; i < n; i++) {
        const struct axl__error *err = axl__error_at(taken[i]);
        list[i].status = err->status;
        list[i].event.id = err->event;
        list[i].queue.id = err->queue;
        list[i].message = err->message;
    }
    /* The records stay allocated (refs) while the handler reads them. */
    axl_port_unlock();
    h.fn(list, n, dropped, h.user);
    axl_port_lock();
    for (uint32_t i = 0; i < n; i++)
        axl__error_unref(axl__error_at(taken[i]));
}

/* The queue's unconsumed errors to its handler, else its context's
 * (4.13.1.1): all of them, with the count the full pool dropped; then the
 * context's own (late errors of its released queues) to the context's
 * handler. Without a handler (C's stand-in for the default handler, which
 * must "report all errors passed to it", 4.13.1.2): the oldest one is the
 * result, with its message, and the rest stay queued for the next call,
 * which the message says; dropped ones are counted and said, never
 * silently. The caller holds q (a handler may release it). */
axl_status axl__deliver_errors(const char *fn, struct axl__queue *q)
{
    struct axl__context *ctx = axl__context_at(q->context);
    err_list ql = {&q->err_head, &q->err_tail, &q->dropped};
    axl_async_handler h = q->handler.fn ? q->handler : ctx->handler;
    axl_status st = AXL_SUCCESS;
    if (h.fn)
        give_all(ql, h);
    else
        st = take_one(fn, ql, ""); /* fn says it is a throw */
    if (st != AXL_SUCCESS)
        return st;
    return axl__deliver_context_errors(fn, ctx);
}

axl_status axl__deliver_context_errors(const char *fn,
                                       struct axl__context *ctx)
{
    err_list cl = {&ctx->err_head, &ctx->err_tail, &ctx->dropped};
    if (!(AXL__IS_REF(ctx->err_head) || ctx->dropped))
        return AXL_SUCCESS;
    if (ctx->handler.fn) {
        give_all(cl, ctx->handler);
        return AXL_SUCCESS;
    }
    return take_one(fn, cl,
                    "of a queue released before its command finished: ");
}

/* A context's last release with a handler (4.13.1.1: a context destroyed
 * with unconsumed errors calls its async_handler). Its queues hold it, so
 * in SYCL it goes after them, and their errors reach this handler as
 * each goes unless the queue has a handler of its own: the handler gets
 * now every error that would reach it, those of its queues without a
 * handler of their own, then its own (late errors of its released
 * queues). The caller holds ctx (the handler may release anything). */
void axl__give_context_errors(struct axl__context *ctx)
{
    const uint16_t slot = AXL__SLOT(CONTEXT, ctx);
    const axl__pool *qp = AXL__POOL(QUEUE);
    for (uint16_t i = 0; i < qp->capacity; i++) {
        if (!axl__pool_is_live(qp, i))
            continue;
        struct axl__queue *q = axl__queue_at(i);
        if (q->context != slot || q->handler.fn ||
            !(AXL__IS_REF(q->err_head) || q->dropped))
            continue;
        q->holds++; /* the lock is dropped while the handler runs */
        give_all((err_list){&q->err_head, &q->err_tail, &q->dropped},
                 ctx->handler);
        axl__queue_unhold(q);
    }
    give_all((err_list){&ctx->err_head, &ctx->err_tail, &ctx->dropped},
             ctx->handler);
}

/* The oldest unconsumed error of l as the result (consumed), its message
 * after `what`, saying how many stay queued and how many the full error
 * pool dropped (reported once). AXL_SUCCESS when there is none. */
static axl_status take_one(const char *fn, err_list l, const char *what)
{
    uint32_t dropped = *l.dropped;
    if (!AXL__IS_REF(*l.head)) {
        if (!dropped)
            return AXL_SUCCESS;
        *l.dropped = 0;
        return axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                         "%s%u asynchronous errors were dropped: the error "
                         "pool (AXL_MAX_ERRORS) was full",
                         what, (unsigned)dropped);
    }
    struct axl__error *err = axl__error_deref(*l.head);
    *l.head = err->next;
    err->listed = false;
    if (!AXL__IS_REF(*l.head))
        *l.tail = AXL__NONE(error);
    unsigned more = 0;
    for (axl__error_ref r = *l.head; AXL__IS_REF(r); r = axl__error_deref(r)->next)
        more++;
    /* The counts first, short: the error's own message follows whole. */
    char counts[80] = "";
    if (more && dropped)
        axl_format(counts, sizeof counts,
                   "(%u more queued: throw again; %u dropped: "
                   "AXL_MAX_ERRORS full) ",
                   more, (unsigned)dropped);
    else if (more)
        axl_format(counts, sizeof counts, "(%u more queued: throw again) ",
                   more);
    else if (dropped)
        axl_format(counts, sizeof counts,
                   "(%u dropped: AXL_MAX_ERRORS full) ",
                   (unsigned)dropped);
    *l.dropped = 0;
    axl_status st =
        axl__fail_quote(fn, err->status, err->message, "%s%s", what, counts);
    axl__error_unref(err);
    return st;
}
