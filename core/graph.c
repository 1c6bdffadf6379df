/*
 * graph.c - recorded command graphs (axl/graph.h): recording, building
 * node by node, finalize, submission and updates.
 *
 * A node is a command group that passed the one checker (axl__group_check
 * and axl__access_prepare, as a submission does), kept as its handler
 * (graph_priv.h). Finalize runs the checker again on each node; a
 * submission copies each node's handler and commits it (axl__commit), so
 * it skips the checker, not the rules that depend on the moment: its data
 * edges to the queue's other commands, the data movement, in-order order.
 * The graph's one event is the event of an empty command that waits for
 * every node no other node waits for (the failure of a node reaches it
 * through the edges, which carry failures).
 */
#include <string.h>

#include "rt.h"
#include "cu.h"
#include "device_priv.h"
#include "context_priv.h"
#include "queue_priv.h"
#include "event_priv.h"
#include "buffer_priv.h"
#include "sched_priv.h"
#include "handler_priv.h"
#include "kernel.h"
#include "room.h"
#include "graph_priv.h"
#include "image.h"
#include "devops.h"
#include "observe.h"
#include "access.h"
#include "replay.h"
#include "pipeline_priv.h"
#include "swap.h"

#if AXL_FEATURE_GRAPHS

/* ---- Nodes ------------------------------------------------------------------------ */

static inline struct axl__graph_node *node_of(axl__graph_node_ref r)
{
    return AXL__IS_REF(r) ? axl__graph_node_deref(r) : NULL;
}

/* A queue of the graph's context and device, for the checks of a node
 * built by hand and of finalize (nothing is submitted to it). */
static void check_queue(struct axl__queue *tq, uint16_t context,
                        uint16_t device)
{
    memset(tq, 0, sizeof *tq);
    tq->context = context;
    tq->device = device;
    tq->refs = 1;
}

/* st's message said again with the node it is about. */
static axl_status at_node(const char *fn, axl_status st, unsigned pos)
{
#if AXL_MESSAGES
    char was[AXL_MESSAGE_MAX];
    const char *m = axl_last_message();
    const char *colon = strstr(m, ": ");
    axl_format(was, sizeof was, "%s", colon ? colon + 2 : m);
    return axl__fail(fn, st, "node %u: %s", pos, was);
#else
    (void)pos;
    return axl__fail_status(fn, st);
#endif
}

/*
 * The node's group in h, with its pointers set to its buffers, each held
 * (as the handler calls hold them; axl__handler_drop lets them go). With
 * swap_acc (1-based), that accessor names swap instead. A released kernel
 * or buffer: AXL_ERR_INVALID_OBJECT, nothing held.
 */
static axl_status node_resolve(const char *fn,
                               const struct axl__graph_node *n,
                               axl_handler *h, unsigned swap_acc,
                               uint32_t swap)
{
    if (n->kernel && !axl__pool_get(AXL__POOL(KERNEL), n->kernel))
        return axl__fail(fn, AXL_ERR_INVALID_OBJECT,
                         "node %u: its kernel 0x%08x was released",
                         (unsigned)n->index, (unsigned)n->kernel);
    struct axl__buffer *v[AXL_MAX_ACCESSORS];
    for (uint8_t i = 0; i < n->nacc; i++) {
        uint32_t id = i + 1u == swap_acc ? swap : n->bufs[i];
        v[i] = axl__pool_get(AXL__POOL(BUFFER), id);
        if (!v[i])
            return axl__fail(fn, AXL_ERR_INVALID_OBJECT,
                             "node %u: buffer 0x%08x (accessor %u) was "
                             "released",
                             (unsigned)n->index, (unsigned)id,
                             (unsigned)i + 1);
    }
    memcpy(h, &n->h, sizeof *h);
    for (uint8_t i = 0; i < h->nacc; i++) {
        v[i]->holds++;
        h->acc[i].view = AXL__SLOT(BUFFER, v[i]);
        h->acc[i].buf = v[i];
        h->acc[i].base = axl__buffer_base(v[i]);
    }
    return AXL_SUCCESS;
}

/* Accessor i of h as the node keeps it (span). */
static void span_of(struct axl__graph_span *s, const axl_handler *h,
                    unsigned i)
{
    const struct axl__required *r = &h->acc[i];
    s->base = AXL__SLOT(BUFFER, r->base);
    s->lo = r->buf->offset + r->off;
    s->hi = s->lo + r->size;
    s->writes = (r->mode & AXL_ACCESS_WRITE) != 0;
    s->dims = (uint8_t)r->buf->dims;
    s->elem = r->buf->elem;
    memcpy(s->range, r->buf->range, sizeof s->range);
}

/* A memo-filled single_task group (axl__launch_recall) as the handler
 * calls would have filled it, for the checker to check in full. */
static void unmemo(axl_handler *h)
{
    for (uint8_t m = 0; m < h->u.kernel.nargs; m++)
        h->kargs[m] = h->u.kernel.args[m];
    h->nkargs = h->u.kernel.nargs;
    h->memo = 0;
}

/*
 * A launch-memo number of kernel slot ks for a kernel node of an
 * executable graph: compute units that ran the node keep its arguments
 * under it, so the next replay on the same unit sets only the scalars and
 * the port is told the arguments are the ones it had (axl_hal_run.args_id),
 * as for a repeated single_task (rt.h, axl__launch_memo). The number is
 * taken from the kernel's own count, and the kernel's memo is forgotten,
 * so no launch can name this number with other arguments. 0 (no memo)
 * when the count would wrap.
 */
static uint32_t node_memo(uint16_t ks)
{
    struct axl__launch_memo *mm = &axl__kernel_at(ks)->memo;
    if (mm->seq == UINT32_MAX)
        return 0;
    mm->holds = false;
    return ++mm->seq;
}

/* Whether kernel nodes a and b hand a compute unit the same arguments
 * (the same ids, scalar sizes and buffers: only scalars' bytes differ),
 * so they may share a launch-memo number. */
static bool same_args(const struct axl__graph_node *a,
                      const struct axl__graph_node *b)
{
    if (a->h.kind != AXL__CMD_KERNEL ||
        a->h.u.kernel.kernel != b->h.u.kernel.kernel ||
        a->h.u.kernel.nargs != b->h.u.kernel.nargs)
        return false;
    for (uint8_t m = 0; m < a->h.u.kernel.nargs; m++) {
        const struct axl__karg *x = &a->h.u.kernel.args[m],
                               *y = &b->h.u.kernel.args[m];
        if (x->id != y->id || !x->acc != !y->acc || x->size != y->size ||
            (x->acc && (a->bufs[x->acc - 1] != b->bufs[y->acc - 1] ||
                        a->h.acc[x->acc - 1].loc != b->h.acc[y->acc - 1].loc)))
            return false;
    }
    return true;
}

/* A recording's dependency on an event submitted outside the graph. */
static axl_status outside_event(const char *fn, uint32_t id)
{
    (void)id; /* not compiled in without messages */
    return axl__fail(fn, AXL_ERR_INVALID,
                     "a recorded command may depend only on commands of "
                     "its graph, and event 0x%08x was submitted outside it",
                     (unsigned)id);
}

static axl_status record(const char *fn, struct axl__graph *g,
                         struct axl__queue *q, axl_handler *h, uint32_t last,
                         uint32_t *out);

#if AXL_FEATURE_STREAMS
static bool pipe_node(const axl_handler *h)
{
    return h->kind == AXL__CMD_PIPE_START || h->kind == AXL__CMD_PIPE_STOP;
}

/* A command on unit k of a pipeline, recorded into graph gh: ordered
 * after the start of its pipeline the graph records, which must come
 * before it with no stop between (the unit's streams run only then). */
static axl_status after_start(const char *fn, uint32_t gh, axl_handler *h)
{
    const struct axl__pipeline *pl =
        axl__pipeline_at((uint16_t)(h->u.kernel.pipe - 1u));
    const char *unit = pl->unit[h->u.kernel.pipe_unit].name;
    if (pl->rec_graph != gh || !pl->rec_start)
        return axl__fail(fn, AXL_ERR_BAD_STATE,
                         "%s is a unit of pipeline %u, and the graph records "
                         "no axl_pipeline_start of it before this command%s",
                         unit, (unsigned)pl->hal.number,
                         pl->rec_graph == gh ? " (its stop is recorded "
                                               "already: record a start "
                                               "again first)"
                                             : ": record the start first");
    if (h->ndeps < AXL_MAX_HANDLER_DEPS)
        h->deps[h->ndeps++] = pl->rec_start;
    else
        h->deps_overflow = true;
    return AXL_SUCCESS;
}

/* The stop's edges: the start, and each node of g after it on a unit of
 * pipeline slot s (the stop waits for their runs to end). */
static axl_status stop_edges(const char *fn, const struct axl__graph *g,
                             uint16_t s, uint32_t start, axl_handler *h)
{
    h->deps[h->ndeps++] = start;
    const struct axl__graph_node *from =
        axl__pool_get(AXL__POOL(GRAPH_NODE), start);
    for (axl__graph_node_ref r = from ? from->next : g->head; AXL__IS_REF(r);) {
        const struct axl__graph_node *n = axl__graph_node_deref(r);
        r = n->next;
        if (n->h.kind != AXL__CMD_KERNEL || n->h.u.kernel.pipe != s + 1u)
            continue;
        if (h->ndeps == AXL_MAX_HANDLER_DEPS)
            return axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                             "the stop of pipeline %u waits for more "
                             "commands than a node keeps edges "
                             "(AXL_MAX_HANDLER_DEPS)",
                             (unsigned)axl__pipeline_at(s)->hal.number);
        h->deps[h->ndeps++] = AXL__HANDLE(GRAPH_NODE, n);
    }
    return AXL_SUCCESS;
}

/* axl_pipeline_start or _stop on q, which records: a node of its graph
 * (graph_priv.h, axl__graph_pipe_fn). A start needs the pipeline not
 * running and no start of it open in the graph; a stop needs one. */
static axl_status graph_pipe(const char *fn, struct axl__queue *q,
                             uint32_t handle, uint8_t kind)
{
    struct axl__graph *g = axl__graph_deref(q->graph);
    const uint32_t gh = AXL__HANDLE(GRAPH, g);
    struct axl__pipeline *pl = axl__pool_get(AXL__POOL(PIPELINE), handle);
    const unsigned num = (unsigned)pl->hal.number;
    const bool open = pl->rec_graph == gh && pl->rec_start;
    axl_handler h;
    axl__handler_init(&h);
    h.kind = kind;
    h.u.pipe.handle = handle;
    axl_status st = AXL_SUCCESS;
    const struct axl__graph_node *sn =
        open ? axl__pool_get(AXL__POOL(GRAPH_NODE), pl->rec_start) : NULL;
    if (kind == AXL__CMD_PIPE_START && open)
        st = axl__fail(fn, AXL_ERR_BAD_STATE,
                       "pipeline %u: the graph records its start already "
                       "(node %u) and no stop after it: record "
                       "axl_pipeline_stop first",
                       num, sn ? (unsigned)sn->index : 0u);
    else if (kind == AXL__CMD_PIPE_START &&
             pl->state != AXL_PIPELINE_CREATED &&
             pl->state != AXL_PIPELINE_STOPPED)
        st = axl__fail(fn, AXL_ERR_BAD_STATE,
                       "pipeline %u is started now: a graph records the "
                       "start of a pipeline that is created or stopped "
                       "(stop it before recording)",
                       num);
    else if (kind == AXL__CMD_PIPE_STOP && !open)
        st = axl__fail(fn, AXL_ERR_BAD_STATE,
                       "pipeline %u: the graph records no start of it before "
                       "this stop",
                       num);
    else if (kind == AXL__CMD_PIPE_STOP)
        st = stop_edges(fn, g, AXL__SLOT(PIPELINE, pl), pl->rec_start, &h);
    uint32_t id = 0;
    if (st == AXL_SUCCESS)
        st = record(fn, g, q, &h,
                    q->flags & AXL_QUEUE_IN_ORDER ? q->graph_last : 0, &id);
    if (st != AXL_SUCCESS)
        return st;
    if (q->flags & AXL_QUEUE_IN_ORDER)
        q->graph_last = id;
    pl->rec_graph = gh;
    pl->rec_start = kind == AXL__CMD_PIPE_START ? id : 0;
    return AXL_SUCCESS;
}
#else
static bool pipe_node(const axl_handler *h)
{
    (void)h;
    return false;
}
#endif

/*
 * Adds the checked group h to g as a node (lock held; h's holds stay h's).
 * q: the recording queue, or a check queue of the graph's context and
 * device. last: an in-order queue's last recorded node, or 0.
 */
static axl_status record(const char *fn, struct axl__graph *g,
                         struct axl__queue *q, axl_handler *h, uint32_t last,
                         uint32_t *out)
{
    const uint32_t gh = AXL__HANDLE(GRAPH, g);
    if (h->memo)
        unmemo(h);
    axl_status st = pipe_node(h) ? AXL_SUCCESS : axl__group_check(fn, q, h);
#if AXL_FEATURE_STREAMS
    if (st == AXL_SUCCESS && h->kind == AXL__CMD_KERNEL && h->u.kernel.pipe)
        st = after_start(fn, gh, h);
#endif
    if (st == AXL_SUCCESS && h->nacc)
        st = axl__access_prepare(fn, h, q);
    if (st != AXL_SUCCESS)
        return st;
    if (h->deps_overflow)
        return axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                         "more dependencies than a group keeps "
                         "(AXL_MAX_HANDLER_DEPS)");
    /* sycl_ext_oneapi_graph: a recording's dependencies are events of
     * commands recorded into the same graph, "otherwise, a synchronous
     * error ... invalid". An outside event is refused whether or not its
     * command has finished: the handler kept the first one it left out
     * as done (done_dep), so the answer does not depend on timing. */
    if (h->done_dep)
        return outside_event(fn, h->done_dep);
    uint16_t deps[AXL_MAX_HANDLER_DEPS + 1];
    unsigned nd = 0;
    for (uint16_t i = 0; i <= h->ndeps; i++) {
        uint32_t id = i < h->ndeps ? h->deps[i] : last;
        if (!id)
            continue;
        const struct axl__graph_node *p =
            axl__pool_get(AXL__POOL(GRAPH_NODE), id);
        if (!p || p->owner != gh) {
            if (i == h->ndeps)
                continue; /* the in-order node of a graph since released */
            if ((id >> AXL__HANDLE_KIND_SHIFT) != AXL__POOL_GRAPH_NODE)
                return outside_event(fn, id);
            if (!p) /* looked up when accepted; its graph went since */
                return axl__fail(fn, AXL_ERR_INVALID_OBJECT,
                                 "dependency 0x%08x is stale: its graph "
                                 "was released",
                                 (unsigned)id);
            return axl__fail(fn, AXL_ERR_INVALID,
                             "dependency 0x%08x is not a node of this "
                             "graph (it is one of 0x%08x)",
                             (unsigned)id, (unsigned)p->owner);
        }
        bool dup = false;
        for (unsigned k = 0; k < nd; k++)
            dup |= deps[k] == p->index;
        if (!dup)
            deps[nd++] = p->index;
    }
    if (nd > AXL_MAX_GRAPH_NODE_DEPS)
        return axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                         "the command depends on %u nodes, and a node keeps "
                         "%u edges (AXL_MAX_GRAPH_NODE_DEPS)",
                         nd, (unsigned)AXL_MAX_GRAPH_NODE_DEPS);
    struct axl__graph_node *n = axl__pool_alloc(AXL__POOL(GRAPH_NODE));
    if (!n)
        return axl__pool_full(fn, AXL__POOL_GRAPH_NODE);
    n->owner = gh;
    n->next = AXL__NONE(graph_node);
    n->index = g->nnodes;
    n->split.chunks = 0; /* a parallel_for's sets its cut (parallel.c) */
    n->ndeps = (uint8_t)nd;
    n->nacc = h->nacc;
    memcpy(n->deps, deps, nd * sizeof deps[0]);
    n->kernel = h->kind == AXL__CMD_KERNEL ? h->kernel : 0;
    for (uint8_t i = 0; i < h->nacc; i++) {
        n->bufs[i] = AXL__HANDLE(BUFFER, h->acc[i].buf);
        span_of(&n->span[i], h, i);
    }
    memcpy(&n->h, h, sizeof *h);
    n->h.ndeps = 0;
    n->h.node_deps = false;
    n->h.args_given = false;
    n->h.args = NULL;
    n->h.nargs = 0;
    if (n->h.kind == AXL__CMD_KERNEL)
        n->h.u.kernel.memo = 0;
    if (AXL__IS_REF(g->tail))
        axl__graph_node_deref(g->tail)->next = axl__graph_node_ref_of(n);
    else
        g->head = axl__graph_node_ref_of(n);
    g->tail = axl__graph_node_ref_of(n);
    g->nnodes++;
    *out = AXL__HANDLE(GRAPH_NODE, n);
    return AXL_SUCCESS;
}

static axl_status graph_submit(const char *fn, struct axl__queue *q,
                               axl_handler *h, axl_event *out)
{
    axl_status st;
    uint32_t id = 0;
    if (h->error != AXL_SUCCESS) {
        /* The group's own first error comes first (handler.h). */
        st = axl__fail_as(fn, h->error, h->why);
    } else if (!AXL__IS_REF(q->graph)) {
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "the group depends on a recorded command (a graph "
                       "node's event), and the queue does not record a "
                       "graph: submit the executable graph instead");
    } else {
        struct axl__graph *g = axl__graph_deref(q->graph);
        st = record(fn, g, q, h,
                    q->flags & AXL_QUEUE_IN_ORDER ? q->graph_last : 0, &id);
    }
    axl__handler_drop(h);
    if (st != AXL_SUCCESS)
        return st;
    if (q->flags & AXL_QUEUE_IN_ORDER)
        q->graph_last = id;
    if (out)
        out->id = id;
    return AXL_SUCCESS;
}

static void free_nodes(axl__graph_node_ref r)
{
    while (AXL__IS_REF(r)) {
        struct axl__graph_node *n = axl__graph_node_deref(r);
        r = n->next;
        axl__pool_free(AXL__POOL(GRAPH_NODE), n);
    }
}

/* ---- Graphs ------------------------------------------------------------------------- */

axl_status axl_graph_create(axl_context context, axl_device device,
                            axl_graph *graph)
{
    static const char fn[] = "axl_graph_create";
    AXL__ENTER_OUT(context, c, context, graph);
    struct axl__device *d = axl__device_get(fn, device, &st);
    if (d && !axl__context_has_device(c, AXL__SLOT(DEVICE, d)))
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "the device is not one of the context's devices");
    struct axl__graph *g = NULL;
    if (st == AXL_SUCCESS) {
        g = axl__pool_alloc(AXL__POOL(GRAPH));
        if (!g)
            st = axl__pool_full(fn, AXL__POOL_GRAPH);
    }
    if (g) {
        axl__graph_submit_fn = graph_submit;
#if AXL_FEATURE_STREAMS
        axl__graph_pipe_fn = graph_pipe;
#endif
        g->refs = 1;
        g->context = AXL__SLOT(CONTEXT, c);
        g->device = AXL__SLOT(DEVICE, d);
        c->holds++;
        graph->id = AXL__HANDLE(GRAPH, g);
    }
    axl__leave();
    return st;
}

static bool graph_idle(const void *arg)
{
    return ((const struct axl__graph *)arg)->refs == 1;
}

axl_status axl_graph_release(axl_graph graph)
{
    static const char fn[] = "axl_graph_release";
    AXL__ENTER(graph, g, graph);
    if (g->refs > 1) /* being finalized on another thread */
        axl__wait_until_pred(graph_idle, g);
    const axl__graph_ref me = axl__graph_ref_of(g);
    for (uint16_t s = 0; s < AXL_MAX_QUEUES; s++) {
        if (!axl__pool_is_live(AXL__POOL(QUEUE), s))
            continue;
        struct axl__queue *q = axl__queue_at(s);
        if (axl__graph_ref_eq(q->graph, me)) {
            q->graph = AXL__NONE(graph);
            q->graph_last = 0;
        }
    }
    free_nodes(g->head);
    axl__context_unhold(axl__context_at(g->context));
    axl__pool_free(AXL__POOL(GRAPH), g);
    if (AXL__IS_REF(axl__rt.zombie_head)) /* its chunks' sub-buffers */
        axl__free_zombies();
    axl__leave();
    return st;
}

axl_status axl_graph_begin_recording(axl_graph graph, axl_queue queue)
{
    static const char fn[] = "axl_graph_begin_recording";
    AXL__ENTER(graph, g, graph);
    struct axl__queue *q = axl__queue_get(fn, queue, &st);
    if (q && (q->context != g->context || q->device != g->device))
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "the queue is not of the graph's context and device");
    else if (q && AXL__IS_REF(q->graph))
        st = axl__fail(fn, AXL_ERR_BAD_STATE,
                       "the queue records a graph already (graph 0x%08x)",
                       (unsigned)AXL__HANDLE(GRAPH,
                                             axl__graph_deref(q->graph)));
    if (st == AXL_SUCCESS) {
        q->graph = axl__graph_ref_of(g);
        q->graph_last = 0;
    }
    axl__leave();
    return st;
}

axl_status axl_graph_end_recording(axl_graph graph, axl_queue queue)
{
    static const char fn[] = "axl_graph_end_recording";
    AXL__ENTER(graph, g, graph);
    struct axl__queue *q = axl__queue_get(fn, queue, &st);
    /* sycl_ext_oneapi_graph, "Member functions of the command_graph class
     * for queue recording": end_recording(queue) is "a no-op if
     * recordingQueue is already in the queue_state::executing state",
     * and invalid only for a queue "recording to a different graph". */
    if (q && AXL__IS_REF(q->graph) &&
        !axl__graph_ref_eq(q->graph, axl__graph_ref_of(g)))
        st = axl__fail(fn, AXL_ERR_BAD_STATE,
                       "the queue records into another graph (graph "
                       "0x%08x), not this one",
                       (unsigned)AXL__HANDLE(GRAPH,
                                             axl__graph_deref(q->graph)));
    if (st == AXL_SUCCESS) {
        q->graph = AXL__NONE(graph);
        q->graph_last = 0;
    }
    axl__leave();
    return st;
}

/* A queue that records into g, or NULL (lock held). */
static struct axl__queue *recorder_of(const struct axl__graph *g)
{
    const axl__graph_ref me = axl__graph_ref_of(g);
    for (uint16_t s = 0; s < AXL_MAX_QUEUES; s++)
        if (axl__pool_is_live(AXL__POOL(QUEUE), s) &&
            axl__graph_ref_eq(axl__queue_at(s)->graph, me))
            return axl__queue_at(s);
    return NULL;
}

axl_status axl_graph_add(axl_graph graph, axl_cgf cgf, void *user,
                         const axl_graph_node *deps, uint32_t ndeps,
                         axl_graph_node *node)
{
    static const char fn[] = "axl_graph_add";
    if (!cgf)
        return axl__null(fn, "the command-group function");
    if (ndeps && !deps)
        return axl__fail(fn, AXL_ERR_INVALID, "deps is NULL with ndeps %u",
                         (unsigned)ndeps);
    axl_handler h;
    axl__handler_init(&h);
    /* The group runs without the lock: it may call back into axl. */
    cgf(&h, user);
    axl_status st = axl__enter(fn);
    if (st != AXL_SUCCESS)
        return st;
    struct axl__graph *g = axl__graph_get(fn, graph, &st);
    for (uint32_t i = 0; g && i < ndeps; i++) {
        /* Each node handle is looked up where it is accepted: a stale or
         * forged one is AXL_ERR_INVALID_OBJECT (another graph's node is
         * refused when the group is recorded). */
        if (!axl__lookup(fn, "a dependency node", AXL__POOL_GRAPH_NODE,
                         deps[i].id, &st)) {
            g = NULL;
            break;
        }
        bool dup = false;
        for (uint16_t j = 0; j < h.ndeps; j++)
            dup |= h.deps[j] == deps[i].id;
        if (dup)
            continue;
        if (h.ndeps < AXL_MAX_HANDLER_DEPS)
            h.deps[h.ndeps++] = deps[i].id;
        else
            h.deps_overflow = true;
    }
    uint32_t id = 0;
    /* sycl_ext_oneapi_graph, "Member functions of the command_graph
     * class", add: "Throws ... invalid if a queue is recording commands
     * to the graph" (combining the two ways of building one is valid, but
     * not at the same time). */
    const struct axl__queue *rq = g ? recorder_of(g) : NULL;
    if (rq)
        st = axl__fail(fn, AXL_ERR_BAD_STATE,
                       "queue 0x%08x records into the graph: nodes are "
                       "added by hand only once every queue has ended "
                       "recording (axl_graph_end_recording)",
                       (unsigned)AXL__HANDLE(QUEUE, rq));
    else if (g) {
        struct axl__queue tq;
        check_queue(&tq, g->context, g->device);
        st = record(fn, g, &tq, &h, 0, &id);
    }
    axl__handler_drop(&h);
    axl__leave();
    if (st == AXL_SUCCESS && node)
        node->id = id;
    return st;
}

axl_status axl_graph_node_from_event(axl_event event, axl_graph_node *node)
{
    static const char fn[] = "axl_graph_node_from_event";
    axl_status st = axl__enter_out(fn, AXL__OUT(node));
    if (st != AXL_SUCCESS)
        return st;
    /* A recorded command's event is its node's handle: looked up as a
     * node (stale or forged: AXL_ERR_INVALID_OBJECT). Any other event
     * is looked up as one: a live event of a command that ran is not
     * associated with a node (errc::invalid). */
    const bool is_node = (event.id >> AXL__HANDLE_KIND_SHIFT) ==
                         AXL__POOL_GRAPH_NODE;
    const struct axl__graph_node *n =
        is_node ? axl__lookup(fn, "event", AXL__POOL_GRAPH_NODE, event.id,
                              &st)
                : NULL;
    if (n && (n->owner >> AXL__HANDLE_KIND_SHIFT) == AXL__POOL_GRAPH)
        node->id = event.id;
    else if (n || (!is_node && axl__event_get(fn, event, &st)))
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "event 0x%08x is not a recorded command's: it is "
                       "associated with no graph node",
                       (unsigned)event.id);
    axl__leave();
    return st;
}

axl_status axl_graph_node_count(axl_graph graph, uint32_t *count)
{
    static const char fn[] = "axl_graph_node_count";
    AXL__ENTER_OUT(graph, g, graph, count);
    *count = g->nnodes;
    axl__leave();
    return st;
}

/* ---- Executable graphs -------------------------------------------------------------- */

static bool exec_idle(const void *arg)
{
    return !((const struct axl__graph_exec *)arg)->busy;
}

static bool plan_idle(const void *arg)
{
    const struct axl__graph_exec *x = arg;
    return !x->plan || !x->plan->pending;
}

static bool exec_settled(const void *arg)
{
    return !((const struct axl__graph_exec *)arg)->pending;
}

/* exec's graph once no other call owns its nodes (a submission or a
 * buffer swap, which may drop the lock while it uses them): NULL with *st
 * when exec is not, or after a wait no longer, a live executable graph.
 * Lock held. */
static struct axl__graph_exec *exec_unowned(const char *fn,
                                            axl_graph_exec exec,
                                            axl_status *st)
{
    struct axl__graph_exec *x;
    while ((x = axl__graph_exec_get(fn, exec, st)) != NULL && x->busy)
        axl__wait_until_pred(exec_idle, x);
    return x;
}

void axl__plan_detached_free(struct axl__plan *p)
{
    free_nodes(p->head);
    axl__plan_free_block(p);
}

/*
 * Leaves x's pending submissions their nodes and plan (detached: theirs,
 * freed with the last of them) and gives x a copy of the nodes and a plan
 * of its own, which an update may change: it reaches the next submission
 * only, without waiting for the pending ones (which may wait for a host
 * accessor the caller holds). False when the node pool or the graph
 * tables cannot hold the copy (nothing changed). Lock held.
 */
static bool exec_fork(const char *fn, struct axl__graph_exec *x)
{
    const axl__pool *np = AXL__POOL(GRAPH_NODE);
    if ((unsigned)np->capacity - np->in_use < x->nnodes)
        return false;
    struct axl__plan *old = x->plan;
    const axl__graph_node_ref old_head = x->head;
    struct axl__graph_node *tail = NULL;
    x->head = AXL__NONE(graph_node);
    for (struct axl__graph_node *n = node_of(old_head); n;
         n = node_of(n->next)) {
        struct axl__graph_node *m = axl__pool_alloc(AXL__POOL(GRAPH_NODE));
        memcpy(m, n, sizeof *m);
        m->next = AXL__NONE(graph_node);
        if (tail)
            tail->next = axl__graph_node_ref_of(m);
        else
            x->head = axl__graph_node_ref_of(m);
        tail = m;
    }
    x->plan = NULL;
    if (axl__plan_build(fn, x) != AXL_SUCCESS) {
        free_nodes(x->head);
        x->head = old_head;
        x->plan = old;
        return false;
    }
    old->detached = true;
    old->head = old_head;
    x->checked = false; /* the new runs bound and given args_ids again */
    x->timeout_q = 0;
    return true;
}

/*
 * exec's graph once no call owns its nodes, with no submission through
 * its plan pending (their tables must not change under them: an update
 * reaches the next submission only), or NULL with *st: pending ones are
 * left the plan they have (exec_fork), or, when the pools cannot hold a
 * second, waited for; a wait that can never end (a host accessor this
 * thread holds that a pending submission waits for) is
 * AXL_ERR_BAD_STATE. Lock held.
 */
static struct axl__graph_exec *exec_quiet(const char *fn, axl_graph_exec exec,
                                          axl_status *st)
{
    struct axl__graph_exec *x = axl__graph_exec_get(fn, exec, st);
    while (x && (x->busy || x->pending)) {
        if (x->busy) {
            axl__wait_until_pred(exec_idle, x);
        } else if (!x->plan->pending || exec_fork(fn, x)) {
            /* The pending submissions have plans of their own. */
            *st = AXL_SUCCESS;
            return x;
        } else {
            /* Its submissions run one at a time: the last one's end is
             * theirs. */
            struct axl__event *e =
                axl__pool_lookup_any(AXL__POOL(EVENT), x->last);
            char why[AXL_MESSAGE_MAX - 96];
            if (e && axl__wait_for_room(e, why, sizeof why) != AXL_SUCCESS) {
                *st = axl__fail(fn, AXL_ERR_BAD_STATE,
                                "the executable graph's last submission "
                                "can never end: it waits for %s (nothing "
                                "changed)",
                                why);
                return NULL;
            }
            if (!e)
                axl__wait_until_pred(exec_settled, x);
        }
        x = axl__graph_exec_get(fn, exec, st);
    }
    return x;
}

/* Ends a call's ownership of x's nodes (x->busy), waking who waits. */
static void exec_disown(struct axl__graph_exec *x)
{
    x->busy = false;
    if (axl__rt.waiters)
        axl_port_wake(AXL_PORT_CHANNEL_DONE);
}

/* Frees x (lock held; dropped at the end when buffers released
 * meanwhile are freed: a chunk's sub-buffer its nodes named, or one its
 * last submission was the last to use). */
static void exec_free(struct axl__graph_exec *x);
void axl__exec_free(struct axl__graph_exec *x)
{
    exec_free(x);
}

static void exec_free(struct axl__graph_exec *x)
{
    axl__plan_free(x);
    free_nodes(x->head);
    axl__context_unhold(axl__context_at(x->context));
    axl__pool_free(AXL__POOL(GRAPH_EXEC), x);
    if (AXL__IS_REF(axl__rt.zombie_head))
        axl__free_zombies();
}

/* The bank of h's accessor i on device dev, if it has a copy there. */
static uint32_t bank_on(const axl_handler *h, unsigned i, uint16_t dev)
{
    const struct axl__buffer *b = h->acc[i].base;
    uint8_t l = axl__device_loc(b, dev);
    return l == AXL__NO_LOC ? UINT32_MAX : b->loc[l].mem.bank;
}

#if AXL_FEATURE_STREAMS
/* Every pipeline g starts, g stops after (a replay leaves no pipeline
 * running that the graph started): else the start is named. */
static axl_status started_and_stopped(const char *fn,
                                      const struct axl__graph *g)
{
    for (const struct axl__graph_node *n = node_of(g->head); n;
         n = node_of(n->next)) {
        if (n->h.kind != AXL__CMD_PIPE_START)
            continue;
        bool stopped = false;
        for (const struct axl__graph_node *m = node_of(n->next);
             m && !stopped && !(m->h.kind == AXL__CMD_PIPE_START &&
                                m->h.u.pipe.handle == n->h.u.pipe.handle);
             m = node_of(m->next))
            stopped = m->h.kind == AXL__CMD_PIPE_STOP &&
                      m->h.u.pipe.handle == n->h.u.pipe.handle;
        if (stopped)
            continue;
        const struct axl__pipeline *pl =
            axl__pool_get(AXL__POOL(PIPELINE), n->h.u.pipe.handle);
        return axl__fail(fn, AXL_ERR_BAD_STATE,
                         "node %u starts pipeline %u (0x%08x) and no node "
                         "after it stops it: record axl_pipeline_stop "
                         "before finalize",
                         (unsigned)n->index,
                         pl ? (unsigned)pl->hal.number : 0u,
                         (unsigned)n->h.u.pipe.handle);
    }
    return AXL_SUCCESS;
}

/* A start or stop node's pipeline, not released. */
static axl_status pipeline_alive(const char *fn,
                                 const struct axl__graph_node *n)
{
    if (axl__pool_get(AXL__POOL(PIPELINE), n->h.u.pipe.handle))
        return AXL_SUCCESS;
    return axl__fail(fn, AXL_ERR_INVALID_OBJECT,
                     "node %u: its pipeline 0x%08x was released",
                     (unsigned)n->index, (unsigned)n->h.u.pipe.handle);
}
#else
static axl_status started_and_stopped(const char *fn,
                                      const struct axl__graph *g)
{
    (void)fn, (void)g;
    return AXL_SUCCESS;
}
static axl_status pipeline_alive(const char *fn,
                                 const struct axl__graph_node *n)
{
    (void)fn, (void)n;
    return AXL_SUCCESS;
}
#endif

axl_status axl_graph_finalize(axl_graph graph, axl_graph_exec *exec)
{
    static const char fn[] = "axl_graph_finalize";
    AXL__ENTER_OUT(graph, g, graph, exec);
    const axl__pool *np = AXL__POOL(GRAPH_NODE);
    if ((unsigned)np->capacity - np->in_use < g->nnodes) {
        st = axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                       "the graph node pool is full (%u in use, the graph "
                       "has %u nodes): configure axl with "
                       "-DAXL_MAX_GRAPH_NODES=%u",
                       (unsigned)np->in_use, (unsigned)g->nnodes,
                       (unsigned)np->in_use + (unsigned)g->nnodes);
        axl__leave();
        return st;
    }
    struct axl__graph_exec *x = axl__pool_alloc(AXL__POOL(GRAPH_EXEC));
    if (!x) {
        st = axl__pool_full(fn, AXL__POOL_GRAPH_EXEC);
        axl__leave();
        return st;
    }
    x->refs = 1;
    x->checked = false;
    x->last = 0;
    x->context = g->context;
    x->device = g->device;
    x->graph = AXL__HANDLE(GRAPH, g);
    axl__context_at(x->context)->holds++;
    const uint32_t xh = AXL__HANDLE(GRAPH_EXEC, x);
    struct axl__queue tq;
    check_queue(&tq, g->context, g->device);
    /* A command on a pipeline's unit is checked as recorded (the graph
     * orders it after the pipeline's start: started_and_stopped). */
    tq.graph = axl__graph_ref_of(g);
    struct axl__graph_node *tail = NULL;
    g->refs++; /* its nodes stay while the checker drops the lock */
    st = started_and_stopped(fn, g);
    for (struct axl__graph_node *n = node_of(g->head);
         n && st == AXL_SUCCESS; n = node_of(n->next)) {
        axl_handler h;
        st = node_resolve(fn, n, &h, 0, 0);
        if (st != AXL_SUCCESS)
            break;
        /* The one checker, against the state of now (the lock may be
         * dropped in it: device memory for a buffer argument). */
        st = pipe_node(&h) ? pipeline_alive(fn, n) : axl__group_check(fn, &tq, &h);
        if (st == AXL_SUCCESS && h.nacc)
            st = axl__access_prepare(fn, &h, &tq);
        if (st != AXL_SUCCESS) {
            st = at_node(fn, st, n->index);
            axl__handler_drop(&h);
            break;
        }
        struct axl__graph_node *m = axl__pool_alloc(AXL__POOL(GRAPH_NODE));
        if (!m) { /* only if another thread took them meanwhile */
            axl__handler_drop(&h);
            st = axl__pool_full(fn, AXL__POOL_GRAPH_NODE);
            break;
        }
        memcpy(m, n, sizeof *m);
        memcpy(&m->h, &h, sizeof h);
        m->owner = xh;
        m->from = AXL__HANDLE(GRAPH_NODE, n);
        m->next = AXL__NONE(graph_node);
        for (uint8_t i = 0; i < h.nacc; i++) {
            span_of(&m->span[i], &h, i);
            m->span[i].bank = bank_on(&h, i, g->device);
        }
        if (m->h.kind == AXL__CMD_KERNEL) {
            /* Nodes that give a unit the same arguments share a number,
             * so a unit that ran one runs the next without setting them
             * again (a chain over the same buffers). */
            m->h.u.kernel.memo = 0;
            for (struct axl__graph_node *p = node_of(x->head);
                 p && !m->h.u.kernel.memo; p = node_of(p->next))
                if (same_args(p, m))
                    m->h.u.kernel.memo = p->h.u.kernel.memo;
            if (!m->h.u.kernel.memo)
                m->h.u.kernel.memo = node_memo(m->h.u.kernel.kernel);
        }
        axl__handler_drop(&h);
        if (tail)
            tail->next = axl__graph_node_ref_of(m);
        else
            x->head = axl__graph_node_ref_of(m);
        tail = m;
        x->nnodes++;
    }
    if (st == AXL_SUCCESS)
        st = axl__plan_build(fn, x);
    if (--g->refs == 1 && axl__rt.waiters)
        axl_port_wake(AXL_PORT_CHANNEL_DONE);
    if (st != AXL_SUCCESS)
        exec_free(x);
    else
        exec->id = xh;
    axl__leave();
    return st;
}

axl_status axl_graph_exec_release(axl_graph_exec exec)
{
    static const char fn[] = "axl_graph_exec_release";
    AXL__ENTER(graph_exec, x, exec);
    if (x->busy && !(x = exec_unowned(fn, exec, &st))) {
        axl__leave();
        return st;
    }
    /* Its submissions run on (graph.h): those through its plan read its
     * nodes and tables, and runs given up at their timeout keep them, so
     * it is retired (its handle stale at once) and freed with the last
     * (replay.c). */
    if (x->pending || (x->plan && x->plan->given_up)) {
        x->retired = true;
        axl__pool_retire(AXL__POOL(GRAPH_EXEC), x);
    } else {
        exec_free(x);
    }
    axl__leave();
    return st;
}

axl_status axl_graph_exec_laid_out(axl_graph_exec exec, bool *laid)
{
    static const char fn[] = "axl_graph_exec_laid_out";
    AXL__ENTER_OUT(graph_exec, x, exec, laid);
    *laid = true; /* every live one is (issue 37) */
    axl__leave();
    return st;
}

static bool device_ready(const void *arg)
{
    return !((const struct axl__device *)arg)->programming;
}

/* ---- Submissions through the plan (replay.c) -------------------------- */

/* What replay_submit returns when it made room in the event pool: the
 * call starts over (not a status the API returns). */
#define AGAIN ((axl_status)1)

static bool unit_idle(const void *arg)
{
    const struct axl__cu *cu = arg;
    return cu->opened || !atomic_load(&cu->taken);
}

/* Opens unit cu of d for run's kernel, as its first launch would (lock
 * held, dropped while the port opens it): the unit is taken meanwhile and
 * the device counts as being programmed, so no launch and no load
 * touches it. AXL_ERR_... with the port's message when it cannot. */
static axl_status open_unit(const char *fn, struct axl__device *d,
                            struct axl__cu *cu,
                            const struct axl__plan_run *run)
{
    uint8_t free_ = 0;
    if (!atomic_compare_exchange_strong(&cu->taken, &free_, 1)) {
        /* A launch holds it, and opens it as it starts. */
        axl__wait_until_pred(unit_idle, cu);
        return AXL_SUCCESS;
    }
    const axl_xclbin *img = run->hal.image;
    const uint32_t ki = run->hal.kernel_index,
                   ip = axl__unit_number(d, (uint8_t)(cu - d->cus));
    uintptr_t h = 0;
    d->programming = true;
    axl_port_unlock();
    axl_status st = axl__dev_cu_open(d, img, ki, ip, &h);
    axl_port_lock();
    axl__programming_done(d);
    if (st == AXL_SUCCESS && !cu->opened) {
        cu->handle = h;
        cu->opened = true;
    } else if (st == AXL_SUCCESS) {
        axl_port_unlock();
        axl__dev_cu_close(d, h);
        axl_port_lock();
    } else {
        char was[AXL_MESSAGE_MAX];
        axl_format(was, sizeof was, "%s", axl_last_message());
        st = axl__fail(fn, st, "node %u: its compute unit could not be "
                       "opened: %s",
                       (unsigned)run->node, was);
    }
    atomic_store(&cu->taken, 0);
    axl__unit_freed(d, cu);
    if (axl__rt.waiters)
        axl_port_wake(AXL_PORT_CHANNEL_DONE);
    return st;
}

/* The port may keep what it set for an args_id (hal.h): runs that give
 * one unit the same memory arguments share one, new ones each time the
 * plan is resolved (lock held). */
static void give_args_ids(struct axl__plan *p, struct axl__device *d)
{
    for (uint32_t r = 0; r < p->nruns; r++) {
        struct axl__plan_run *run = &p->run[r];
        run->hal.args_id = 0;
        if (run->cu == 0xFFu)
            continue;
        run->hal.cu_handle = d->cus[run->cu].handle;
        for (uint32_t e = 0; e < r && !run->hal.args_id; e++) {
            const struct axl__plan_run *o = &p->run[e];
            if (o->cu != run->cu || o->nargs != run->nargs ||
                o->kernel != run->kernel || !o->hal.args_id)
                continue;
            bool same = true;
            for (uint8_t m = 0; m < run->nargs && same; m++) {
                const axl_hal_arg *a = &run->args[m], *b = &o->args[m];
                same = a->id == b->id && a->is_mem == b->is_mem &&
                       a->mem == b->mem && a->offset == b->offset &&
                       a->size == b->size;
            }
            if (same)
                run->hal.args_id = o->hal.args_id;
        }
        if (!run->hal.args_id && d->args_ids != UINT32_MAX)
            run->hal.args_id = ++d->args_ids;
    }
}

/* Whether d loads designs on demand (then a graph's design need not be
 * loaded at its submission: it waits for its turn at dispatch, 2.7). */
static bool swaps(const struct axl__device *d)
{
#if AXL_FEATURE_DESIGN_SWAP
    return axl__dev_swaps(d);
#else
    (void)d;
    return false;
#endif
}

/* Every node's kernel and buffers still alive, and each kernel's design
 * on d now, or, on a device that swaps, one design for all of them
 * (*design, AXL__NO_WANT: no kernel node). */
static axl_status check_nodes_alive(const char *fn,
                                    const struct axl__graph_exec *x,
                                    const struct axl__device *d,
                                    uint16_t *design)
{
    *design = 0xFFFFu;
    for (struct axl__graph_node *n = node_of(x->head); n;
         n = node_of(n->next)) {
        if (n->kernel) {
            const struct axl__kernel *kn =
                axl__pool_get(AXL__POOL(KERNEL), n->kernel);
            if (!kn)
                return axl__fail(fn, AXL_ERR_INVALID_OBJECT,
                                 "node %u: its kernel 0x%08x was "
                                 "released",
                                 (unsigned)n->index,
                                 (unsigned)n->kernel);
            const struct axl__kernel_id *kid = axl__kernel_id_at(kn->kid);
            if (swaps(d) && *design != 0xFFFFu && *design != kid->image)
                return axl__fail(fn, AXL_ERR_FEATURE_NOT_SUPPORTED,
                                 "node %u (%s) is of another design than "
                                 "the nodes before it, and both need "
                                 "region 0 of %s at once: a graph runs "
                                 "one design (submit two graphs)",
                                 (unsigned)n->index, kid->name,
                                 d->info.name);
            *design = kid->image;
            if (!swaps(d) && !axl__device_carries(d, kid->image))
                return axl__fail(fn, AXL_ERR_KERNEL_NOT_SUPPORTED,
                                 "node %u: %s does not carry the "
                                 "design of kernel %s now",
                                 (unsigned)n->index, d->info.name,
                                 kid->name);
        }
        for (uint8_t i = 0; i < n->nacc; i++)
            if (!axl__pool_get(AXL__POOL(BUFFER), n->bufs[i]))
                return axl__fail(fn, AXL_ERR_INVALID_OBJECT,
                                 "node %u: buffer 0x%08x (accessor "
                                 "%u) was released",
                                 (unsigned)n->index,
                                 (unsigned)n->bufs[i],
                                 (unsigned)i + 1);
    }
    return AXL_SUCCESS;
}

/* Opens the first unit a run is bound to that is not open yet, if the
 * device opens units: *dropped when it did (the lock was dropped). */
static axl_status open_next_unit(const char *fn, const struct axl__plan *p,
                                 struct axl__device *d, bool *dropped)
{
    for (uint32_t r = 0; r < p->nruns; r++) {
        const struct axl__plan_run *run = &p->run[r];
        if (run->cu == 0xFFu || d->cus[run->cu].opened ||
            !axl__dev_has_cu_open(d))
            continue;
        *dropped = true;
        return open_unit(fn, d, &d->cus[run->cu], run);
    }
    return AXL_SUCCESS;
}

/* Whether plan buffer pb lacks the host storage it needs: a buffer a node
 * uses on the host, one used at two places (moved between them through
 * the host), and one not current where its first node uses it whose
 * current copy is on another device (it bounces through the host). */
static bool lacks_host_storage(const struct axl__plan_buf *pb)
{
    const struct axl__buffer *b = axl__buffer_at(pb->base);
    if (b->host)
        return false;
    if (!(pb->locs & (1u << AXL__LOC_HOST)) &&
        !(pb->flags & AXL__PB_MULTI_LOC)) {
        if (b->loc[pb->loc_first].ver == b->cur ||
            (pb->flags & AXL__PB_DISCARD_FIRST))
            return false;
        const uint8_t src = axl__pick_source(b, pb->loc_first);
        if (src == AXL__NO_LOC || src == AXL__LOC_HOST)
            return false;
    }
    return true;
}

/* Host storage for plan buffer i (the lock is dropped); a failure is said
 * of the first node that uses it. Cold: once per buffer. */
AXL__COLD static axl_status make_host_storage(const char *fn,
                                              const struct axl__plan *p,
                                              uint32_t i)
{
    struct axl__buffer *b = axl__buffer_at(p->buf[i].base);
    b->holds++;
    axl_status st = axl__host_storage(fn, b);
    axl__buffer_unhold(b);
    if (st == AXL_SUCCESS)
        return st;
    uint32_t n = 0;
    for (uint32_t k = 0; k < p->nnodes * AXL_MAX_ACCESSORS; k++)
        if (p->pbuf[k] == i &&
            k % AXL_MAX_ACCESSORS <
                axl__graph_node_deref(p->node[k / AXL_MAX_ACCESSORS])->nacc) {
            n = k / AXL_MAX_ACCESSORS;
            break;
        }
    return at_node(fn, st, n);
}

/* Host storage for the first plan buffer that lacks it: *dropped when one
 * was made (the lock was dropped). */
static axl_status make_next_host_storage(const char *fn,
                                         const struct axl__plan *p,
                                         bool *dropped)
{
    for (uint32_t i = 0; i < p->nbufs; i++)
        if (lacks_host_storage(&p->buf[i])) {
            *dropped = true;
            return make_host_storage(fn, p, i);
        }
    return AXL_SUCCESS;
}

/* Each run's timeout: its node's own, or else the queue's; and whether
 * any run has one a clock can reach (0 and UINT64_MAX: forever), which
 * its submissions' waits look for (axl__replay_deadline). */
static void set_timeouts(struct axl__plan *p, const struct axl__queue *q)
{
    p->timed = false;
    for (uint32_t r = 0; r < p->nruns; r++) {
        const struct axl__graph_node *n =
            axl__graph_node_deref(p->node[p->run[r].node]);
        const uint64_t t = n->h.timeout_ns ? n->h.timeout_ns : q->timeout_ns;
        p->run[r].hal.timeout_ns = t;
        if (t && t != UINT64_MAX)
            p->timed = true;
    }
    /* A submission still running starts its next runs with these: its
     * device's waits look at their deadlines from now. */
    if (p->running && p->timed && !p->timed_run) {
        p->timed_run = true;
        axl__device_at(p->device)->replays_timed++;
    }
}

/* The nodes, the units and the args_ids looked at again, x's plan bound
 * to them, and the counts it was bound at (kg, bg) remembered: *dropped
 * when a unit was opened instead (the lock was dropped). Cold: a replay
 * comes here only when something changed. */
AXL__COLD static axl_status check_again(const char *fn,
                                        struct axl__graph_exec *x,
                                        struct axl__device *d, uint32_t kg,
                                        uint32_t bg, bool *dropped)
{
    struct axl__plan *p = x->plan;
    uint16_t design;
    axl_status st = check_nodes_alive(fn, x, d, &design);
    if (st != AXL_SUCCESS)
        return st;
#if AXL_FEATURE_DESIGN_SWAP
    p->image = design;
    /* On a shell, the slot that carries its design, else the one its
     * partial's units name (3.3): its dispatch follows the design to the
     * slot it loads in (axl__replay_turn). */
    p->region = design != 0xFFFFu && axl__device_slot_count(d)
                    ? axl__slot_carrying(d, design)
                    : 0;
    if (design != 0xFFFFu && axl__device_slot_count(d) && !p->region)
        p->region = axl__image_slot(d, &axl__image_at(design)->x, NULL, 0);
    /* Its design not loaded now, or a submission of this plan pending
     * (it may run meanwhile): its dispatch binds the runs (2.7). */
    if (!swaps(d) || design == 0xFFFFu ||
        (axl__device_carries(d, design) && !p->pending))
#endif
    {
        axl__plan_bind(p, x);
        st = open_next_unit(fn, p, d, dropped);
        if (st != AXL_SUCCESS || *dropped)
            return st;
        give_args_ids(p, d);
#if AXL_FEATURE_DESIGN_SWAP
        p->epoch = d->region[p->region].epoch + 1u;
#endif
    }
    x->checked = true;
    x->kernels_gone = kg;
    x->buffers_gone = bg;
    x->loaded = d->loaded;
    /* A plan with submissions has its runs' timeouts for this queue
     * already, and one may be running on them (it reads them). */
    if (!p->pending)
        x->timeout_q = 0;
    return AXL_SUCCESS;
}

#if AXL_FEATURE_DESIGN_SWAP
axl_status axl__plan_rebind(struct axl__plan *p)
{
    static const char fn[] = "axl_queue_submit_graph";
    struct axl__device *d = axl__device_at(p->device);
    const struct axl__graph_exec *x = axl__graph_exec_at(p->exec);
    for (;;) {
        axl__plan_bind(p, x);
        bool dropped = false;
        const axl_status st = open_next_unit(fn, p, d, &dropped);
        if (st != AXL_SUCCESS)
            return st;
        if (!dropped)
            break; /* else the lock was dropped: look again */
    }
    give_args_ids(p, d);
    p->epoch = d->region[p->region].epoch + 1u;
    return AXL_SUCCESS;
}
#endif

/*
 * What can have changed since x's plan last ran, looked at again when it
 * may have (lock held; dropped to open a unit or make host storage, and
 * then looked at again): every node's kernel and buffers alive, the
 * design on the device, each run bound to a unit again, the units open,
 * the args_ids; and each submission, the runs' timeout (the queue's), and
 * host storage for a buffer whose move to the device bounces through the
 * host.
 */
static axl_status resolve(const char *fn, struct axl__queue *q,
                          struct axl__graph_exec *x, struct axl__device *d)
{
    struct axl__plan *p = x->plan;
    for (;;) {
        const uint32_t kg = axl__rt.kernels_gone, bg = axl__rt.buffers_gone;
        bool dropped = false;
        axl_status st = AXL_SUCCESS;
        if (!(x->checked && x->kernels_gone == kg && x->buffers_gone == bg &&
              axl__image_ref_eq(x->loaded, d->loaded)))
            st = check_again(fn, x, d, kg, bg, &dropped);
        if (st == AXL_SUCCESS && !dropped)
            st = make_next_host_storage(fn, p, &dropped);
        if (st != AXL_SUCCESS)
            return st;
        if (!dropped)
            break; /* else the lock was dropped: look again */
    }
    if (x->timeout_q != q->timeout_ns + 1u) {
        set_timeouts(p, q);
        x->timeout_q = q->timeout_ns + 1u;
    }
    return AXL_SUCCESS;
}

/*
 * A submission through x's plan (lock held; the handles looked up, x not
 * owned by another call, the device not being programmed): resolve,
 * commit (one command, one event), pump. A full event pool whose slots
 * commands in flight keep is waited for as any submission waits for it
 * (axl__room), and then the call starts over (AGAIN).
 */
static axl_status replay_submit(const char *fn, struct axl__queue *q,
                                 struct axl__graph_exec *x,
                                 struct axl__device *d,
                                 const axl_event *deps, uint32_t ndeps,
                                 axl_event *event)
{
    x->busy = true;
    q->holds++;
    axl_status st = AXL_SUCCESS;
    uint32_t udeps[AXL_MAX_HANDLER_DEPS];
    unsigned nu = 0;
    bool overflow = false;
    for (uint32_t i = 0; i < ndeps; i++) {
        struct axl__event *e = axl__lookup(fn, "a dependency event",
                                           AXL__POOL_EVENT, deps[i].id, &st);
        if (!e)
            break;
        if (atomic_load_explicit(&e->state, memory_order_acquire) ==
                AXL_EVENT_COMPLETE &&
            e->status == AXL_SUCCESS)
            continue;
        if (nu < AXL_MAX_HANDLER_DEPS)
            udeps[nu++] = deps[i].id;
        else
            overflow = true;
    }
    if (st == AXL_SUCCESS)
        st = resolve(fn, q, x, d);
    if (st == AXL_SUCCESS)
        st = axl__replay_commit(fn, q, x, udeps, nu, overflow, event);
    exec_disown(x);
    axl__queue_unhold(q);
    axl__pool *ep = AXL__POOL(EVENT);
    if (st == AXL_ERR_OUT_OF_RESOURCES && !ep->free_head) {
        /* As submit_failed (sched.c): room is waited for (the lock
         * dropped), and the call starts over. */
        axl_status r = axl__room(fn, AXL__POOL_EVENT);
        if (r == AXL_SUCCESS && ep->free_head) {
            if (ep->failures)
                ep->failures--; /* the commit's allocation: not refused */
            return AGAIN;
        }
        if (r == AXL_SUCCESS)
            st = axl__pool_full(fn, AXL__POOL_EVENT);
        else
            st = r;
    }
    if (st == AXL_SUCCESS)
        axl__pump();
    return st;
}

/* A submission of a graph with more buffers than a command keeps the view
 * of (AXL__REPLAY_SEEN) waits for the last pending one (lock held; dropped
 * while it waits); a wait that could never end (it waits for what this
 * thread blocks) fails. */
AXL__COLD static axl_status wait_for_plan(const char *fn,
                                          struct axl__graph_exec *x)
{
    const uint16_t es = AXL__HANDLE_SLOT(x->last);
    struct axl__event *e = axl__event_at(es);
    if (!x->last ||
        AXL__POOL(EVENT)->gen[es] != (uint16_t)(x->last >> AXL__HANDLE_GEN_SHIFT)) {
        axl__wait_until_pred(plan_idle, x); /* not expected: its event holds */
        return AXL_SUCCESS;
    }
    char why[AXL_MESSAGE_MAX - 96];
    if (axl__wait_for_room(e, why, sizeof why) == AXL_SUCCESS)
        return AXL_SUCCESS;
    return axl__fail(fn, AXL_ERR_BAD_STATE,
                     "the graph's %u buffers are more than a submission "
                     "keeps beside a pending one (%u): it waits for it, and "
                     "would wait for %s",
                     (unsigned)x->plan->nbufs, (unsigned)AXL__REPLAY_SEEN,
                     why);
}

axl_status axl_queue_submit_graph(axl_queue queue, axl_graph_exec exec,
                                  const axl_event *deps, uint32_t ndeps,
                                  axl_event *event)
{
    static const char fn[] = "axl_queue_submit_graph";
    if (ndeps && !deps)
        return axl__fail(fn, AXL_ERR_INVALID, "deps is NULL with ndeps %u",
                         (unsigned)ndeps);
    axl_status st = axl__enter(fn);
    if (st != AXL_SUCCESS)
        return st;
again:
    st = AXL_SUCCESS;
    struct axl__queue *q;
    struct axl__graph_exec *x;
    struct axl__device *d;
    /* The handles as the launch path resolves them (inline; the checked
     * lookup says what is wrong), once no other call owns x's nodes and
     * the device is not being programmed. A wait drops the lock, so the
     * handles are looked up again after it. */
    for (;;) {
        q = axl__pool_get(AXL__POOL(QUEUE), queue.id);
        x = axl__pool_get(AXL__POOL(GRAPH_EXEC), exec.id);
        if (!q || !x) {
            if ((q = axl__queue_get(fn, queue, &st)) != NULL)
                x = axl__graph_exec_get(fn, exec, &st);
            axl__leave();
            return st;
        }
        d = axl__device_at(q->device);
        if (x->busy)
            axl__wait_until_pred(exec_idle, x);
        else if (d->programming
#if AXL_FEATURE_DESIGN_SWAP
                 /* Not for a swap's load (4.6.5): its dispatch binds. */
                 && !d->region[0].loading
#endif
                 )
            axl__wait_until_pred(device_ready, d);
        else if (x->plan && x->plan->pending &&
                 x->plan->nbufs > AXL__REPLAY_SEEN) {
            /* Its commit writes what it finds into the plan, which the
             * pending submissions read: after the last of them. */
            st = wait_for_plan(fn, x);
            if (st != AXL_SUCCESS) {
                axl__leave();
                return st;
            }
        } else
            break;
    }
    if (x->context != q->context || x->device != q->device)
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "the queue is not of the graph's context and device");
    else if (AXL__IS_REF(q->graph))
        st = axl__fail(fn, AXL_ERR_BAD_STATE,
                       "the queue is recording a graph: an executable graph "
                       "is not recorded into another");
    if (st != AXL_SUCCESS) {
        axl__leave();
        return st;
    }
    /* Its plan, run by the one executor (replay.c). */
    st = replay_submit(fn, q, x, d, deps, ndeps, event);
    if (st == AGAIN)
        goto again;
    axl__leave();
    return st;
}

/* ---- Updates ------------------------------------------------------------------------ */

/* The node of x that node names (a node of x, or the graph's node it was
 * made from, even once that graph is released), a kernel node, and its
 * argument arg_index. */
static struct axl__graph_node *update_target(const char *fn,
                                             struct axl__graph_exec *x,
                                             axl_graph_node node,
                                             uint32_t arg_index,
                                             struct axl__karg **karg,
                                             axl_status *st)
{
    struct axl__graph_node *n = node_of(x->head);
    while (n && n->from != node.id &&
           (!node.id || AXL__HANDLE(GRAPH_NODE, n) != node.id))
        n = node_of(n->next);
    if (!n) {
        /* A node of the graph x was made from names its node even once
         * that graph is released (a stale handle then); any other node
         * handle is looked up: a stale or forged one is AXL_ERR_INVALID_
         * OBJECT, a live node of another graph AXL_ERR_INVALID. */
        if (axl__lookup(fn, "node", AXL__POOL_GRAPH_NODE, node.id, st))
            *st = axl__fail(fn, AXL_ERR_INVALID,
                            "node 0x%08x is not a node of the executable "
                            "graph (nor of the graph it was made from)",
                            (unsigned)node.id);
        return NULL;
    }
    if (n->h.kind != AXL__CMD_KERNEL) {
        *st = axl__fail(fn, AXL_ERR_INVALID,
                        "node %u is not a kernel: it has no arguments",
                        (unsigned)n->index);
        return NULL;
    }
    for (uint8_t m = 0; m < n->h.u.kernel.nargs; m++)
        if (n->h.u.kernel.args[m].id == arg_index) {
            *karg = &n->h.u.kernel.args[m];
            *st = AXL_SUCCESS;
            return n;
        }
    *st = axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                    "node %u: the kernel has no argument %u",
                    (unsigned)n->index, (unsigned)arg_index);
    return NULL;
}

axl_status axl_graph_exec_update_scalar(axl_graph_exec exec,
                                        axl_graph_node node,
                                        uint32_t arg_index, const void *value,
                                        size_t size)
{
    static const char fn[] = "axl_graph_exec_update_scalar";
    if (!value)
        return axl__null(fn, "value");
    AXL__ENTER(graph_exec, x, exec);
    if ((x->busy || x->pending) && !(x = exec_quiet(fn, exec, &st))) {
        axl__leave();
        return st;
    }
    struct axl__karg *ka = NULL;
    struct axl__graph_node *n =
        update_target(fn, x, node, arg_index, &ka, &st);
    if (n && ka->acc)
        st = axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                       "node %u: argument %u is a buffer "
                       "(axl_graph_exec_update_buffer swaps it)",
                       (unsigned)n->index, (unsigned)arg_index);
    else if (n && n->split.chunks > 1 &&
             ((int32_t)arg_index == n->split.offset_id ||
              (int32_t)arg_index == n->split.count_id))
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "node %u: argument %u is the chunks' %s: the "
                       "parallel_for's split sets it",
                       (unsigned)n->index, (unsigned)arg_index,
                       (int32_t)arg_index == n->split.offset_id ? "offset"
                                                                : "count");
    else if (n && size != ka->size)
        st = axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                       "node %u: argument %u takes %u bytes; %zu were given",
                       (unsigned)n->index, (unsigned)arg_index,
                       (unsigned)ka->size, size);
    else if (n)
        memcpy(n->h.kbytes + ka->off, value, size);
    axl__leave();
    return st;
}

axl_status axl_graph_exec_update_buffer(axl_graph_exec exec,
                                        axl_graph_node node,
                                        uint32_t arg_index, axl_buffer buffer)
{
    static const char fn[] = "axl_graph_exec_update_buffer";
    AXL__ENTER(graph_exec, x, exec);
    if ((x->busy || x->pending) && !(x = exec_quiet(fn, exec, &st))) {
        axl__leave();
        return st;
    }
    /* Owned while the checker may drop the lock (device memory for the
     * new buffer): a submission meanwhile would use the node in place. */
    x->busy = true;
    struct axl__karg *ka = NULL;
    struct axl__graph_node *n =
        update_target(fn, x, node, arg_index, &ka, &st);
    struct axl__buffer *nb = NULL;
    if (n && !ka->acc)
        st = axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                       "node %u: argument %u is a scalar "
                       "(axl_graph_exec_update_scalar sets it)",
                       (unsigned)n->index, (unsigned)arg_index);
    else if (n)
        nb = axl__buffer_get(fn, buffer, &st);
    if (!nb) {
        exec_disown(x);
        axl__leave();
        return st;
    }
    const unsigned a = ka->acc - 1u;
    const struct axl__graph_span *old = &n->span[a];
    if (nb->elem != old->elem || nb->dims != old->dims ||
        memcmp(nb->range, old->range, sizeof nb->range) != 0) {
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "node %u: the buffer of argument %u has %zu-byte "
                       "elements over range %zu x %zu x %zu, and the new one "
                       "%zu-byte elements over %zu x %zu x %zu: a swap keeps "
                       "the size",
                       (unsigned)n->index, (unsigned)arg_index, old->elem,
                       old->range[0], old->range[1], old->range[2], nb->elem,
                       nb->range[0], nb->range[1], nb->range[2]);
        exec_disown(x);
        axl__leave();
        return st;
    }
    /* The node with the new buffer, through the one checker (it finds or
     * makes the buffer's copy on the device in a bank the kernel reaches),
     * on a copy: the node changes only if every check passes. */
    axl_handler h;
    st = node_resolve(fn, n, &h, a + 1u, buffer.id);
    if (st != AXL_SUCCESS) {
        exec_disown(x);
        axl__leave();
        return st;
    }
    struct axl__queue tq;
    check_queue(&tq, x->context, x->device);
    st = axl__group_check(fn, &tq, &h);
    if (st == AXL_SUCCESS)
        st = axl__access_prepare(fn, &h, &tq);
    uint32_t bank = st == AXL_SUCCESS ? bank_on(&h, a, x->device) : 0;
    if (st == AXL_SUCCESS && bank != old->bank) {
        axl_hal_bank was, now;
        const struct axl__device *d = axl__device_at(x->device);
        axl__dev_bank(d, old->bank, &was);
        axl__dev_bank(d, bank, &now);
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "node %u: the new buffer of argument %u is in bank %s, "
                       "and the node's is in bank %s (a swap keeps the bank)",
                       (unsigned)n->index, (unsigned)arg_index, now.tag,
                       was.tag);
    }
    if (st == AXL_SUCCESS) {
        /* The node changes, and its edges may. */
        struct axl__graph_node was;
        memcpy(&was, n, sizeof was);
        memcpy(&n->h, &h, sizeof h);
        n->h.u.kernel.memo = node_memo(n->h.u.kernel.kernel);
        n->bufs[a] = buffer.id;
        x->checked = false;
        span_of(&n->span[a], &h, a);
        n->span[a].bank = bank;
        if (st == AXL_SUCCESS) {
            /* The plan again, with the node's new edges; kept as it was
             * (and the node) when the tables cannot hold the new one. */
            st = axl__plan_build(fn, x);
            if (st != AXL_SUCCESS)
                memcpy(n, &was, sizeof was);
        }
    }
    axl__handler_drop(&h);
    exec_disown(x);
    axl__leave();
    return st;
}

#else /* !AXL_FEATURE_GRAPHS: every call answers that it is switched off */

#define OFF(name) return axl__switched_off(#name, "AXL_FEATURE_GRAPHS")

axl_status axl_graph_create(axl_context context, axl_device device,
                            axl_graph *graph)
{
    (void)context, (void)device, (void)graph;
    OFF(axl_graph_create);
}
axl_status axl_graph_release(axl_graph graph)
{
    (void)graph;
    OFF(axl_graph_release);
}
axl_status axl_graph_begin_recording(axl_graph graph, axl_queue queue)
{
    (void)graph, (void)queue;
    OFF(axl_graph_begin_recording);
}
axl_status axl_graph_end_recording(axl_graph graph, axl_queue queue)
{
    (void)graph, (void)queue;
    OFF(axl_graph_end_recording);
}
axl_status axl_graph_add(axl_graph graph, axl_cgf cgf, void *user,
                         const axl_graph_node *deps, uint32_t ndeps,
                         axl_graph_node *node)
{
    (void)graph, (void)cgf, (void)user, (void)deps, (void)ndeps, (void)node;
    OFF(axl_graph_add);
}
axl_status axl_graph_node_from_event(axl_event event, axl_graph_node *node)
{
    (void)event, (void)node;
    OFF(axl_graph_node_from_event);
}
axl_status axl_graph_node_count(axl_graph graph, uint32_t *count)
{
    (void)graph, (void)count;
    OFF(axl_graph_node_count);
}
axl_status axl_graph_finalize(axl_graph graph, axl_graph_exec *exec)
{
    (void)graph, (void)exec;
    OFF(axl_graph_finalize);
}
axl_status axl_graph_exec_laid_out(axl_graph_exec exec, bool *laid)
{
    (void)exec, (void)laid;
    OFF(axl_graph_exec_laid_out);
}
axl_status axl_graph_exec_release(axl_graph_exec exec)
{
    (void)exec;
    OFF(axl_graph_exec_release);
}
axl_status axl_queue_submit_graph(axl_queue queue, axl_graph_exec exec,
                                  const axl_event *deps, uint32_t ndeps,
                                  axl_event *event)
{
    (void)queue, (void)exec, (void)deps, (void)ndeps, (void)event;
    OFF(axl_queue_submit_graph);
}
axl_status axl_graph_exec_update_scalar(axl_graph_exec exec,
                                        axl_graph_node node,
                                        uint32_t arg_index, const void *value,
                                        size_t size)
{
    (void)exec, (void)node, (void)arg_index, (void)value, (void)size;
    OFF(axl_graph_exec_update_scalar);
}
axl_status axl_graph_exec_update_buffer(axl_graph_exec exec,
                                        axl_graph_node node,
                                        uint32_t arg_index, axl_buffer buffer)
{
    (void)exec, (void)node, (void)arg_index, (void)buffer;
    OFF(axl_graph_exec_update_buffer);
}

#endif /* AXL_FEATURE_GRAPHS */
