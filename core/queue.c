/*
 * queue.c - queues (spec 4.6.5): creation, information, waits, async error
 * delivery and the shortcuts of 4.6.5.2.
 */
#include "rt.h"
#include "device_priv.h"
#include "context_priv.h"
#include "queue_priv.h"
#include "sched_priv.h"
#include "handler_priv.h"
#include "kernel.h"
#include "room.h"

#define QUEUE_FLAGS (AXL_QUEUE_IN_ORDER | AXL_QUEUE_ENABLE_PROFILING)

axl_status axl_queue_create(axl_context context, axl_device device,
                            uint32_t flags, const axl_async_handler *handler,
                            axl_queue *queue)
{
    static const char fn[] = "axl_queue_create";
    if (!queue)
        return axl__null(fn, "queue");
    if (flags & ~(uint32_t)QUEUE_FLAGS)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "unknown queue flags 0x%x (4.6.5.4 has in_order and "
                         "enable_profiling)",
                         (unsigned)(flags & ~(uint32_t)QUEUE_FLAGS));
    AXL__ENTER(device, d, device);
    struct axl__context *c = NULL;
    bool own = AXL_IS_NONE(context);
    /* Room first, before the context is looked up (it may drop the lock;
     * a device lives until axl_shutdown). */
    st = axl__room_for(fn, AXL__POOL_QUEUE);
    if (st == AXL_SUCCESS && own)
        st = axl__room_for(fn, AXL__POOL_CONTEXT);
    if (st == AXL_SUCCESS && !own) {
        c = axl__context_get(fn, context, &st);
        if (c && !axl__context_has_device(c, AXL__SLOT(DEVICE, d)))
            st = axl__fail(fn, AXL_ERR_INVALID,
                           "the device is not one of the context's devices "
                           "(Table 27)");
    }
    if (st == AXL_SUCCESS && (flags & AXL_QUEUE_ENABLE_PROFILING) &&
        !axl__device_has(d, AXL_ASPECT_QUEUE_PROFILING))
        st = axl__fail(fn, AXL_ERR_FEATURE_NOT_SUPPORTED,
                       "enable_profiling on %s, which has no "
                       "aspect::queue_profiling",
                       d->info.name);
    if (st == AXL_SUCCESS && own)
        st = axl__context_make(fn, &device, 1, NULL, &c);
    struct axl__queue *q = NULL;
    if (st == AXL_SUCCESS) {
        q = axl__pool_alloc(AXL__POOL(QUEUE));
        if (!q) {
            st = axl__pool_full(fn, AXL__POOL_QUEUE);
            if (own)
                axl__context_drop(c);
        }
    }
    if (q) {
        q->refs = 1;
        q->context = AXL__SLOT(CONTEXT, c);
        q->device = AXL__SLOT(DEVICE, d);
        q->flags = flags;
        q->own_context = own;
        q->timeout_ns = (uint64_t)AXL_KERNEL_TIMEOUT_MS * 1000000u;
        if (handler)
            q->handler = *handler;
        /* The queue holds its context; an own context is the queue's only
         * reference to it, dropped with the queue. */
        c->holds++;
        queue->id = AXL__HANDLE(QUEUE, q);
    }
    axl__leave();
    return st;
}

axl_status axl_queue_create_selected(axl_selector_fn selector,
                                     const void *user, uint32_t flags,
                                     const axl_async_handler *handler,
                                     axl_queue *queue)
{
    axl_status st = axl__need_out("axl_queue_create_selected", AXL__OUT(queue));
    if (st != AXL_SUCCESS)
        return st;
    axl_device d;
    st = axl_device_select(selector, user, &d);
    if (st != AXL_SUCCESS)
        return st;
    axl_context none = AXL_NONE;
    return axl_queue_create(none, d, flags, handler, queue);
}

/* Frees q's listed errors. */
static void drop_errors(struct axl__queue *q)
{
    while (AXL__IS_REF(q->err_head)) {
        struct axl__error *e = axl__error_deref(q->err_head);
        q->err_head = e->next;
        e->listed = false;
        axl__error_unref(e);
    }
    q->err_tail = AXL__NONE(error);
}

static void queue_destroy(struct axl__queue *q)
{
    struct axl__context *c = axl__context_at(q->context);
    /* Errors of commands that finished after the last release: to the
     * context while the application holds it (a throw on any of its
     * queues delivers them, its release says so); otherwise nobody can
     * ask for them any more. */
    if (AXL__IS_REF(q->err_head) && c->refs && !q->own_context) {
        if (AXL__IS_REF(c->err_tail))
            axl__error_deref(c->err_tail)->next = q->err_head;
        else
            c->err_head = q->err_head;
        c->err_tail = q->err_tail;
        q->err_head = q->err_tail = AXL__NONE(error);
    }
    if (c->refs && !q->own_context)
        c->dropped += q->dropped;
    drop_errors(q);
    bool own = q->own_context;
    axl__pool_free(AXL__POOL(QUEUE), q);
    axl__context_unhold(c);
    if (own)
        axl__context_drop(c);
}

void axl__queue_unhold(struct axl__queue *q)
{
    if (--q->holds == 0 && q->refs == 0)
        queue_destroy(q);
}

axl_status axl_queue_retain(axl_queue queue)
{
    static const char fn[] = "axl_queue_retain";
    AXL__ENTER(queue, q, queue);
    q->refs++;
    axl__leave();
    return st;
}

/* How many unconsumed errors q holds, and the oldest. */
static unsigned queue_errors(const struct axl__queue *q,
                             const struct axl__error **first)
{
    unsigned n = 0;
    *first = AXL__IS_REF(q->err_head) ? axl__error_deref(q->err_head) : NULL;
    for (axl__error_ref r = q->err_head; AXL__IS_REF(r); r = axl__error_deref(r)->next)
        n++;
    return n;
}

axl_status axl_queue_release(axl_queue queue)
{
    static const char fn[] = "axl_queue_release";
    AXL__ENTER(queue, q, queue);
    if (--q->refs > 0) {
        axl__leave();
        return st;
    }
    /* The last reference. The handle goes stale first, and the queue is
     * held while its handler runs: a release from the handler is a second
     * release (AXL_ERR_INVALID_OBJECT), and a queue the handler makes
     * cannot take this slot (issue 18.3). */
    q->holds++;
    axl__pool_retire(AXL__POOL(QUEUE), q);
    if (AXL__IS_REF(q->err_head) || q->dropped) {
        /* 4.13.1.1: unconsumed errors reach the handler on destruction.
         * Without one, the release says so (the oldest error's status)
         * and they go with the queue. */
        const struct axl__context *c = axl__context_at(q->context);
        if (q->handler.fn || c->handler.fn) {
            axl__deliver_errors(fn, q);
        } else {
            const struct axl__error *first;
            unsigned n = queue_errors(q, &first);
            if (first)
                st = axl__fail_quote(fn, first->status, first->message,
                                     "the queue was released holding %u "
                                     "unconsumed asynchronous error%s%s (and "
                                     "no handler): the first: ",
                                     n, n == 1 ? "" : "s",
                                     q->dropped ? " and more the full error "
                                                  "pool dropped"
                                                : "");
            else
                st = axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                               "the queue was released holding %u "
                               "unconsumed asynchronous errors the full "
                               "error pool dropped (and no handler)",
                               (unsigned)q->dropped);
            q->dropped = 0;
            drop_errors(q); /* reported: not again through the context */
        }
    }
    if (q->holds > 1) { /* commands still hold it: it lingers */
        /* A context the queue made for itself, which the application
         * does not hold, goes out of its hands with the queue: not
         * "still held" at axl_shutdown (freed with the queue). */
        struct axl__context *oc = axl__context_at(q->context);
        if (q->own_context && oc->refs == 1)
            axl__pool_retire(AXL__POOL(CONTEXT), oc);
    }
    axl__queue_unhold(q); /* destroys it unless commands still hold it */
    axl__leave();
    return st;
}

axl_status axl_queue_get_info(axl_queue queue, axl_queue_info param,
                              void *value, size_t value_size,
                              size_t *size_ret)
{
    static const char fn[] = "axl_queue_get_info";
    AXL__ENTER(queue, q, queue);
    uint32_t id;
    if (param == AXL_QUEUE_INFO_CONTEXT) {
        id = axl__pool_handle(AXL__POOL(CONTEXT),
                              axl__context_at(q->context));
        st = axl__info_out(fn, &id, sizeof id, value, value_size,
                           size_ret);
    } else if (param == AXL_QUEUE_INFO_DEVICE) {
        id = axl__pool_handle(AXL__POOL(DEVICE), axl__device_at(q->device));
        st = axl__info_out(fn, &id, sizeof id, value, value_size,
                           size_ret);
    } else {
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "%d is not a queue info descriptor", (int)param);
    }
    axl__leave();
    return st;
}

axl_status axl_queue_get_context(axl_queue queue, axl_context *context)
{
    axl_status st = axl__need_out("axl_queue_get_context", AXL__OUT(context));
    if (st != AXL_SUCCESS)
        return st;
    return axl_queue_get_info(queue, AXL_QUEUE_INFO_CONTEXT, context,
                              sizeof *context, NULL);
}

axl_status axl_queue_get_device(axl_queue queue, axl_device *device)
{
    axl_status st = axl__need_out("axl_queue_get_device", AXL__OUT(device));
    if (st != AXL_SUCCESS)
        return st;
    return axl_queue_get_info(queue, AXL_QUEUE_INFO_DEVICE, device,
                              sizeof *device, NULL);
}

axl_status axl_queue_is_in_order(axl_queue queue, bool *in_order)
{
    static const char fn[] = "axl_queue_is_in_order";
    AXL__ENTER_OUT(queue, q, queue, in_order);
    *in_order = (q->flags & AXL_QUEUE_IN_ORDER) != 0;
    axl__leave();
    return st;
}

/* The end of axl_queue_submit, lock held: the filled handler to the queue. */
static axl_status submit_locked(const char *fn, axl_queue queue, axl_handler *h,
                                axl_event *event)
{
    axl_status st;
    struct axl__queue *q =
        axl__lookup_fast(fn, "queue", AXL__POOL_QUEUE, queue.id, &st);
    if (q)
        st = axl__submit(fn, q, h, event);
    else
        axl__handler_drop(h);
    axl__leave();
    return st;
}

/* axl_queue_submit under the name of the call the application made (the
 * shortcuts are command groups too). */
static axl_status submit_as(const char *fn, axl_queue queue, axl_cgf cgf,
                            void *user, axl_event *event)
{
    if (!cgf)
        return axl__null(fn, "the command-group function");
    axl_handler h;
    axl__handler_init(&h);
    /* The group runs without the lock: it may call back into axl. */
    cgf(&h, user);
    axl_status st = axl__enter(fn);
    if (st != AXL_SUCCESS)
        return st;
    return submit_locked(fn, queue, &h, event);
}

axl_status axl_queue_submit(axl_queue queue, axl_cgf cgf, void *user,
                            axl_event *event)
{
    return submit_as("axl_queue_submit", queue, cgf, user, event);
}

static axl_status queue_wait(const char *fn, axl_queue queue, bool deliver)
{
    AXL__ENTER(queue, q, queue);
#if AXL_FEATURE_GRAPHS
    /* sycl_ext_oneapi_graph, "Queue Limitations": "A host-side wait on a
     * queue in the recording state is an error and will throw
     * synchronously with error code invalid", whatever it has recorded
     * (its submissions are nodes, not commands to wait for). */
    if (AXL__IS_REF(q->graph)) {
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "the queue records into graph 0x%08x: a recording "
                       "queue is not waited on (end the recording first)",
                       (unsigned)AXL__HANDLE(GRAPH,
                                             axl__graph_deref(q->graph)));
        axl__leave();
        return st;
    }
#endif
    q->holds++;
    st = axl__wait_queue(fn, q);
    if (st == AXL_SUCCESS && deliver)
        st = axl__deliver_errors(fn, q);
    axl__queue_unhold(q);
    axl__leave();
    return st;
}

axl_status axl_queue_wait(axl_queue queue)
{
    return queue_wait("axl_queue_wait", queue, false);
}

axl_status axl_queue_wait_and_throw(axl_queue queue)
{
    return queue_wait("axl_queue_wait_and_throw", queue, true);
}

axl_status axl_queue_throw_asynchronous(axl_queue queue)
{
    static const char fn[] = "axl_queue_throw_asynchronous";
    AXL__ENTER(queue, q, queue);
    q->holds++;
    st = axl__deliver_errors(fn, q);
    axl__queue_unhold(q);
    axl__leave();
    return st;
}

/* ---- Shortcuts ----------------------------------------------------------------- */

typedef struct host_task_group {
    axl_host_task_fn fn;
    void *user;
    const axl_event *deps;
    uint32_t ndeps;
} host_task_group;

static void host_task_cgf(axl_handler *h, void *user)
{
    const host_task_group *g = user;
    axl_handler_depends_on_list(h, g->deps, g->ndeps);
    axl_handler_host_task(h, g->fn, g->user);
}

axl_status axl_queue_host_task(axl_queue queue, axl_host_task_fn fn,
                               void *user, const axl_event *deps,
                               uint32_t ndeps, axl_event *event)
{
    AXL__SWITCH(AXL_FEATURE_HOST_TASKS, "axl_queue_host_task");
    host_task_group g = {fn, user, deps, ndeps};
    return submit_as("axl_queue_host_task", queue, host_task_cgf, &g, event);
}

/* Shortcuts with buffers: one accessor or two, one action, dependencies. */
typedef struct data_group {
    uint8_t kind;
    axl_buffer a, b;
    const axl_region *ra, *rb;
    void *host;
    const void *chost;
    const void *pattern;
    size_t pattern_size;
    const axl_event *deps;
    uint32_t ndeps;
} data_group;

static void data_cgf(axl_handler *h, void *user)
{
    const data_group *g = user;
    axl_accessor x, y;
    axl_handler_depends_on_list(h, g->deps, g->ndeps);
    switch (g->kind) {
    case AXL__CMD_COPY_TO_HOST:
        axl_handler_require(h, g->a, AXL_ACCESS_READ, g->ra, 0, &x);
        axl_handler_copy_to_host(h, x, g->host);
        break;
    case AXL__CMD_COPY_FROM_HOST:
        axl_handler_require(h, g->a, AXL_ACCESS_WRITE, g->ra, 0, &x);
        axl_handler_copy_from_host(h, g->chost, x);
        break;
    case AXL__CMD_COPY:
        axl_handler_require(h, g->a, AXL_ACCESS_READ, g->ra, 0, &x);
        axl_handler_require(h, g->b, AXL_ACCESS_WRITE, g->rb, 0, &y);
        axl_handler_copy(h, x, y);
        break;
    case AXL__CMD_FILL:
        axl_handler_require(h, g->a, AXL_ACCESS_WRITE, g->ra, 0, &x);
        axl_handler_fill(h, x, g->pattern, g->pattern_size);
        break;
    case AXL__CMD_PREFETCH:
        axl_handler_require(h, g->a, AXL_ACCESS_READ, g->ra, 0, &x);
        axl_handler_prefetch(h, x);
        break;
    default:
        axl_handler_require(h, g->a, AXL_ACCESS_READ, g->ra, 0, &x);
        axl_handler_update_host(h, x);
        break;
    }
}

axl_status axl_queue_copy_to_host(axl_queue queue, axl_buffer src,
                                  const axl_region *region, void *dst,
                                  const axl_event *deps, uint32_t ndeps,
                                  axl_event *event)
{
    data_group g = {.kind = AXL__CMD_COPY_TO_HOST, .a = src, .ra = region,
                    .host = dst, .deps = deps, .ndeps = ndeps};
    return submit_as("axl_queue_copy_to_host", queue, data_cgf, &g, event);
}

axl_status axl_queue_copy_from_host(axl_queue queue, const void *src,
                                    axl_buffer dst, const axl_region *region,
                                    const axl_event *deps, uint32_t ndeps,
                                    axl_event *event)
{
    data_group g = {.kind = AXL__CMD_COPY_FROM_HOST, .a = dst, .ra = region,
                    .chost = src, .deps = deps, .ndeps = ndeps};
    return submit_as("axl_queue_copy_from_host", queue, data_cgf, &g, event);
}

axl_status axl_queue_copy(axl_queue queue, axl_buffer src,
                          const axl_region *src_region, axl_buffer dst,
                          const axl_region *dst_region, const axl_event *deps,
                          uint32_t ndeps, axl_event *event)
{
    data_group g = {.kind = AXL__CMD_COPY, .a = src, .b = dst,
                    .ra = src_region, .rb = dst_region, .deps = deps,
                    .ndeps = ndeps};
    return submit_as("axl_queue_copy", queue, data_cgf, &g, event);
}

axl_status axl_queue_fill(axl_queue queue, axl_buffer dst,
                          const axl_region *region, const void *pattern,
                          size_t pattern_size, const axl_event *deps,
                          uint32_t ndeps, axl_event *event)
{
    data_group g = {.kind = AXL__CMD_FILL, .a = dst, .ra = region,
                    .pattern = pattern, .pattern_size = pattern_size,
                    .deps = deps, .ndeps = ndeps};
    return submit_as("axl_queue_fill", queue, data_cgf, &g, event);
}

axl_status axl_queue_update_host(axl_queue queue, axl_buffer buffer,
                                 const axl_region *region,
                                 const axl_event *deps, uint32_t ndeps,
                                 axl_event *event)
{
    data_group g = {.kind = AXL__CMD_UPDATE_HOST, .a = buffer, .ra = region,
                    .deps = deps, .ndeps = ndeps};
    return submit_as("axl_queue_update_host", queue, data_cgf, &g, event);
}

axl_status axl_queue_prefetch(axl_queue queue, axl_buffer buffer,
                              const axl_region *region, const axl_event *deps,
                              uint32_t ndeps, axl_event *event)
{
    data_group g = {.kind = AXL__CMD_PREFETCH, .a = buffer, .ra = region,
                    .deps = deps, .ndeps = ndeps};
    return axl_queue_submit(queue, data_cgf, &g, event);
}

axl_status axl_queue_set_timeout(axl_queue queue, uint64_t ns)
{
    static const char fn[] = "axl_queue_set_timeout";
    AXL__ENTER(queue, q, queue);
    q->timeout_ns = ns;
    axl__leave();
    return st;
}

/*
 * single_task with its arguments: the command group axl_queue_submit would
 * get, under the one lock that submits it (no application code runs in
 * between, so nothing can tell the difference but the time saved: a launch
 * takes the lock once, not once per accessor). The group is filled from the
 * kernel's memo of its last launch when the arguments are the memo's
 * (axl__launch_recall), otherwise by the same handler calls, in the same
 * order, with their messages; either way it passes the one checker and is
 * submitted as axl_queue_submit does.
 */
axl_status axl_queue_single_task(axl_queue queue, axl_kernel kernel,
                                 const axl_kernel_arg *args, uint32_t nargs,
                                 const axl_event *deps, uint32_t ndeps,
                                 axl_event *event)
{
    static const char fn[] = "axl_queue_single_task";
    if (nargs && !args)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "args is NULL with nargs %u", (unsigned)nargs);
    axl_handler h;
    axl__handler_init(&h);
    axl_status st = axl__enter(fn);
    if (st != AXL_SUCCESS)
        return st;
    if (ndeps) {
        axl__handler_depends_on(&h, deps, ndeps, true);
#if AXL_FEATURE_GRAPHS
        if (h.node_deps) /* a recorded command's: checked where it */
            goto full;   /* is recorded, or refused */
#endif
    }
    struct axl__queue *q = axl__pool_get(AXL__POOL(QUEUE), queue.id);
    if (q && h.error == AXL_SUCCESS &&
        axl__launch_recall(&h, q, kernel, args, nargs)) {
        st = axl__submit(fn, q, &h, event);
        axl__leave();
        return st;
    }
#if AXL_FEATURE_GRAPHS
full:
#endif
    /* Checked in full: the kernel remembers the group if it can. */
    h.args_given = true;
    h.args = args;
    h.nargs = nargs;
    axl__handler_set_args(&h, args, nargs, true);
    axl_handler_single_task(&h, kernel);
    return submit_locked(fn, queue, &h, event);
}
