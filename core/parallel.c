/*
 * parallel.c - parallel_for over compute units (axl_queue_parallel_for).
 *
 * SYCL's parallel_for(range, kernel) (3.7.2.1, 3.9.3) runs one work-item
 * per point of a range, and leaves to the device how the items are spread
 * over its compute units. A hardware IP has no work-items: one run of a
 * unit does a whole loop. So axl makes the spreading explicit: the range
 * is cut into contiguous chunks, one per unit of the kernel object (or as
 * many as asked), and each chunk is an ordinary launch (single_task) of
 * the kernel, told its first item and its count through scalar arguments
 * the application names, and given its part of each split buffer as a
 * sub-buffer (4.7.2.1, Table 38) made here. The unit that runs a chunk is
 * chosen at dispatch as for any launch (a free unit of the kernel object
 * that reaches the buffers), so with as many chunks as units and the units
 * idle, each runs one.
 *
 * All or nothing: the sub-buffers are made first (and released on any
 * failure), then, under one hold of the runtime lock, the first chunk is
 * checked and placed as a launch would be (which may wait, or allocate
 * device or host storage, with the lock dropped), the command and event
 * pools are checked for every chunk (and the one event, and a prefetch of
 * each buffer whose contents are not on the device yet, which the chunks
 * then wait for instead of waiting for the first chunk that would move
 * them), and every chunk is committed before any is dispatched. Once the first chunk's checks
 * pass, the others (the same kernel, arguments of the same kinds, buffers
 * already placed) pass them too, so nothing can fail half-way.
 */
#include <string.h>

#include "rt.h"
#include "device_priv.h"
#include "queue_priv.h"
#include "buffer_priv.h"
#include "access.h"
#include "sched_priv.h"
#include "handler_priv.h"
#include "kernel.h"
#include "graph_priv.h"
#include "image.h"

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The id of kernel argument `name` (kid's metadata), or -1. */
static int arg_by_name(const struct axl__kernel_id *kid, const char *name)
{
    const axl_xclbin *x = &axl__image_at(kid->image)->x;
    axl_xclbin_kernel ki;
    axl_xclbin_get_kernel(x, kid->index, &ki);
    const size_t n = strlen(name);
    for (uint32_t a = 0; a < ki.arg_count; a++) {
        axl_xclbin_arg arg;
        if (axl_xclbin_get_kernel_arg(x, &ki, a, &arg) == AXL_SUCCESS &&
            arg.name.len == n && memcmp(arg.name.ptr, name, n) == 0)
            return (int)arg.index;
    }
    return -1;
}

/* kid's metadata for argument id, or NULL. */
static const struct axl__karg_meta *meta_of(const struct axl__kernel_id *kid,
                                            uint32_t id)
{
    for (uint8_t m = 0; m < kid->nargs; m++)
        if (kid->args[m].id == id)
            return &kid->args[m];
    return NULL;
}

/* What the checks before the sub-buffers found. */
struct plan {
    uint32_t nsplit;                     /* split buffer arguments */
    uint8_t split_at[AXL_MAX_KERNEL_ARGS]; /* their positions in args */
    size_t rows[AXL_MAX_KERNEL_ARGS];    /* per split buffer: rows (dim 0)
                                            per work-item */
    axl_range shape[AXL_MAX_KERNEL_ARGS]; /* per split buffer: its range */
    int offset_at, count_at;             /* positions in args, or -1 */
    uint32_t offset_size, count_size;    /* 4 or 8 */
    size_t granule;                      /* items: every chunk but the
                                            last is a multiple of it */
    uint32_t chunks;
};

/* What the application asked for: axl_queue_parallel_for's arguments. */
struct call {
    axl_queue queue;
    axl_kernel kernel;
    size_t range;
    const axl_kernel_arg *args;
    uint32_t nargs;
    const axl_split *split;
    const axl_event *deps;
    uint32_t ndeps;
    axl_event *event;
};

/* A named scalar argument of the chunks: its position in args. */
static axl_status named_scalar(const char *fn, const struct axl__kernel_id *kid,
                               const char *name, const char *role,
                               const axl_kernel_arg *args, uint32_t nargs,
                               int *at, uint32_t *size)
{
    *at = -1;
    if (!name)
        return AXL_SUCCESS;
    int id = arg_by_name(kid, name);
    const struct axl__karg_meta *meta = id < 0 ? NULL : meta_of(kid, (uint32_t)id);
    if (!meta)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "the %s argument \"%s\" is not an argument of "
                         "kernel %s",
                         role, name, kid->name);
    if (meta->is_mem || (meta->size != 4 && meta->size != 8))
        return axl__fail(fn, AXL_ERR_INVALID,
                         "the %s argument \"%s\" of %s must be a 4- or "
                         "8-byte integer scalar",
                         role, name, kid->name);
    for (uint32_t i = 0; i < nargs; i++)
        if (axl__arg_index(&args[i], i) == (uint32_t)id) {
            if (!axl__arg_is_scalar(&args[i]))
                return axl__fail(fn, AXL_ERR_INVALID,
                                 "the %s argument \"%s\" is given a buffer",
                                 role, name);
            *at = (int)i;
            *size = meta->size;
            return AXL_SUCCESS;
        }
    return axl__fail(fn, AXL_ERR_INVALID,
                     "the argument list has no entry for the %s argument "
                     "\"%s\" (give it any value: each chunk gets its own)",
                     role, name);
}

/* The checks that need no sub-buffer, and the cut (lock held). */
static axl_status plan_split(const char *fn, const struct axl__queue *q,
                             const struct axl__kernel *kn,
                             const struct call *call, struct plan *p)
{
    const size_t range = call->range;
    const axl_kernel_arg *args = call->args;
    const uint32_t nargs = call->nargs;
    const axl_split *split = call->split;
    const struct axl__kernel_id *kid = axl__kernel_id_at(kn->kid);
    const struct axl__device *d = axl__device_at(q->device);
    axl_status st = named_scalar(fn, kid, split->offset_arg, "offset", args,
                                 nargs, &p->offset_at, &p->offset_size);
    if (st == AXL_SUCCESS)
        st = named_scalar(fn, kid, split->count_arg, "count", args, nargs,
                          &p->count_at, &p->count_size);
    if (st != AXL_SUCCESS)
        return st;
    if ((p->offset_at >= 0 && p->offset_size == 4 && range > UINT32_MAX) ||
        (p->count_at >= 0 && p->count_size == 4 && range > UINT32_MAX))
        return axl__fail(fn, AXL_ERR_INVALID,
                         "a range of %llu items does not fit the kernel's "
                         "4-byte offset or count argument",
                         (unsigned long long)range);
    /* Alignment of a chunk's start in each split buffer: the device's
     * mem_base_addr_align for a sub-buffer's origin (4.7.2.1, Table 38),
     * and the kernel's element alignment for its pointer. */
    const uint64_t dev_align =
        d->info.mem_base_addr_align >= 8 ? d->info.mem_base_addr_align / 8 : 1;
    uint64_t granule = 1;
    p->nsplit = 0;
    for (uint32_t i = 0; i < nargs; i++) {
        const axl_kernel_arg *a = &args[i];
        if (axl__arg_is_scalar(a) || (i < 64 && (split->whole >> i & 1u)))
            continue;
        const uint32_t id = axl__arg_index(a, i);
        const struct axl__karg_meta *meta = meta_of(kid, id);
        if (!meta || !meta->is_mem)
            continue; /* the launch's own checks say what is wrong */
        if (a->region)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "argument %u: a buffer split over the chunks "
                             "takes no region (mark it whole in "
                             "axl_split.whole to pass it as it is)",
                             (unsigned)id);
        struct axl__buffer *b =
            axl__lookup(fn, "a buffer argument", AXL__POOL_BUFFER,
                        a->buffer.id, &st);
        if (!b)
            return st;
        if (b->flags & AXL__BUF_SUB)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "argument %u: a split buffer must be a base "
                             "buffer (a sub-buffer of a sub-buffer cannot "
                             "be made, 4.7.2.1); mark it whole or pass its "
                             "base",
                             (unsigned)id);
        if (b->range[0] % range)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "argument %u: a split buffer's first dimension "
                             "(%llu) must be a multiple of the range (%llu), "
                             "each work-item owning as many rows; mark it "
                             "whole in axl_split.whole if every chunk reads "
                             "all of it",
                             (unsigned)id, (unsigned long long)b->range[0],
                             (unsigned long long)range);
        const size_t rows = b->range[0] / range;
        const uint64_t bytes = (uint64_t)(b->size / range); /* per item */
        uint64_t align = dev_align > meta->align ? dev_align : meta->align;
        uint64_t g = align / gcd(align, bytes ? bytes : align);
        granule = granule / gcd(granule, g) * g;
        if (granule > range)
            granule = range; /* one chunk: the whole range */
        p->split_at[p->nsplit] = (uint8_t)i;
        p->rows[p->nsplit] = rows;
        p->shape[p->nsplit] =
            (axl_range){b->dims, {b->range[0], b->range[1], b->range[2]}};
        p->nsplit++;
    }
    p->granule = (size_t)granule;
    /* One chunk per unit of the kernel object on the device, or as many
     * as asked; no more than there are granules, nor than one event can
     * depend on. */
    uint32_t units = 0;
    for (uint8_t c = 0; c < d->ncus; c++)
        units += d->cus[c].kernel_index == kid->index &&
                 axl__kernel_may_use(kn, &d->cus[c]);
    uint64_t chunks = split->chunks ? split->chunks : (units ? units : 1);
    const uint64_t blocks = (range + p->granule - 1) / p->granule;
    if (chunks > blocks)
        chunks = blocks;
    if (chunks > AXL_MAX_HANDLER_DEPS)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "%llu chunks: at most AXL_MAX_HANDLER_DEPS (%u), the "
                         "events one event can wait for",
                         (unsigned long long)chunks,
                         (unsigned)AXL_MAX_HANDLER_DEPS);
    p->chunks = (uint32_t)chunks;
    return AXL_SUCCESS;
}

/* Chunk j's first item and count: the range in granules, dealt out as
 * evenly as they go (the first chunks take one more when they do not
 * divide), the last chunk cut at the range's end. */
void axl__split_chunk(uint64_t range, uint64_t granule, uint32_t chunks,
                      uint32_t j, uint64_t *first, uint64_t *count)
{
    const uint64_t blocks = (range + granule - 1) / granule;
    const uint64_t base = blocks / chunks, extra = blocks % chunks;
    const uint64_t b0 = j * base + (j < extra ? j : extra);
    const uint64_t b1 = b0 + base + (j < extra ? 1 : 0);
    const uint64_t end = b1 * granule < range ? b1 * granule : range;
    *first = b0 * granule;
    *count = end - *first;
}

static void chunk_span(const struct plan *p, size_t range, uint32_t j,
                       size_t *first, size_t *count)
{
    uint64_t f, c;
    axl__split_chunk(range, p->granule, p->chunks, j, &f, &c);
    *first = (size_t)f;
    *count = (size_t)c;
}

static void set_scalar(axl_kernel_arg *a, uint32_t size, uint64_t v)
{
    a->value = NULL;
    a->size = size;
    a->scalar.u64 = 0;
    if (size == 4)
        a->scalar.u32 = (uint32_t)v;
    else
        a->scalar.u64 = v;
}

/* The arguments of chunk j. */
static void chunk_args(const struct plan *p, size_t range, uint32_t j,
                       const axl_kernel_arg *args, uint32_t nargs,
                       const axl_buffer *subs, axl_kernel_arg *out)
{
    memcpy(out, args, nargs * sizeof *args);
    size_t first, count;
    chunk_span(p, range, j, &first, &count);
    if (p->offset_at >= 0)
        set_scalar(&out[p->offset_at], p->offset_size, first);
    if (p->count_at >= 0)
        set_scalar(&out[p->count_at], p->count_size, count);
    for (uint32_t s = 0; s < p->nsplit; s++)
        out[p->split_at[s]].buffer = subs[j * p->nsplit + s];
}

static void release_all(axl_buffer *subs, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        axl_buffer_release(subs[i]);
}

/* The handler of chunk j (lock held): filled as axl_queue_single_task
 * fills its general path's. */
static void chunk_handler(axl_handler *h, axl_kernel kernel,
                          const axl_event *deps, uint32_t ndeps,
                          const axl_kernel_arg *args, uint32_t nargs)
{
    axl__handler_init(h);
    if (ndeps)
        axl__handler_depends_on(h, deps, ndeps, true);
    axl__handler_set_args(h, args, nargs, true);
    axl_handler_single_task(h, kernel);
}

/* A chunk's group checked as axl_queue_submit checks it (lock held). */
static axl_status chunk_check(const char *fn, struct axl__queue *q,
                              axl_handler *h)
{
    if (h->error != AXL_SUCCESS)
        return axl__fail_as(fn, h->error, h->why);
#if AXL_FEATURE_GRAPHS
    /* A graph node's handle as a dependency is an edge only in a
     * recording: axl__submit would refuse it elsewhere, and a range of 0
     * without an event submits nothing, so it is refused here. */
    if (h->node_deps && !AXL__IS_REF(q->graph))
        return axl__fail(fn, AXL_ERR_INVALID,
                         "a dependency is a recorded command (a graph "
                         "node's handle), and the queue does not record a "
                         "graph");
#endif
    return axl__kernel_prepare(fn, q, h);
}

/* The buffer arguments whose contents are not current on the queue's
 * device (lock held), once each, as base buffer handles: their transfer
 * would go into the first chunk that uses them, and every other chunk
 * would wait for that whole chunk (a location has one version), so each
 * gets a prefetch command of its own that all chunks wait for instead. */
static uint32_t stale_buffers(const struct axl__queue *q,
                              const axl_kernel_arg *args, uint32_t nargs,
                              axl_buffer *out)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < nargs; i++) {
        if (axl__arg_is_scalar(&args[i]))
            continue;
        const struct axl__buffer *v =
            axl__pool_get(AXL__POOL(BUFFER), args[i].buffer.id);
        if (!v)
            continue;
        const struct axl__buffer *b = axl__buffer_base(v);
        const uint8_t l = axl__device_loc(b, q->device);
        if (l != AXL__NO_LOC && b->loc[l].ver == b->cur)
            continue;
        const uint32_t id = AXL__HANDLE(BUFFER, b);
        bool dup = false;
        for (uint32_t k = 0; k < n; k++)
            dup |= out[k].id == id;
        if (!dup)
            out[n++].id = id;
    }
    return n;
}

#if AXL_FEATURE_GRAPHS
/*
 * parallel_for into the graph q records into (lock held; p planned): one
 * node, the group as a single_task over the whole buffers would be
 * (sycl_ext_oneapi_graph: a parallel_for is one command group, so one
 * node, and an update through it covers its whole range), with the cut
 * kept beside it: a replay runs it as p->chunks runs, each over its part
 * of the split buffers with its own first item and count (the plan, at
 * finalize: plan.c). The call's event and each chunk's are the node.
 */
static axl_status record_split(const char *fn, struct axl__queue *q,
                               const struct call *call, const struct plan *p)
{
    const size_t range = call->range;
    const axl_kernel_arg *args = call->args;
    const uint32_t nargs = call->nargs;
    const axl_split *split = call->split;
    axl_kernel_arg a[AXL_MAX_KERNEL_ARGS];
    memcpy(a, args, nargs * sizeof *args);
    if (p->offset_at >= 0)
        set_scalar(&a[p->offset_at], p->offset_size, 0);
    if (p->count_at >= 0)
        set_scalar(&a[p->count_at], p->count_size, range);
    axl_handler h;
    chunk_handler(&h, call->kernel, call->deps, call->ndeps, a, nargs);
    axl_event ev;
    axl_status st = axl__submit(fn, q, &h, &ev); /* recorded: a node */
    if (st != AXL_SUCCESS)
        return st;
    struct axl__graph_node *n = axl__pool_get(AXL__POOL(GRAPH_NODE), ev.id);
    if (!n) /* cannot happen: the lock was held since it was made */
        return axl__fail(fn, AXL_ERR_RUNTIME,
                         "internal: the recorded node 0x%08x is gone",
                         (unsigned)ev.id);
    struct axl__graph_split *sp = &n->split;
    memset(sp, 0, sizeof *sp);
    sp->chunks = (uint16_t)p->chunks;
    sp->range = range;
    sp->granule = p->granule;
    sp->offset_id = p->offset_at >= 0
                        ? (int32_t)axl__arg_index(&args[p->offset_at],
                                                  (uint32_t)p->offset_at)
                        : -1;
    sp->count_id = p->count_at >= 0
                       ? (int32_t)axl__arg_index(&args[p->count_at],
                                                 (uint32_t)p->count_at)
                       : -1;
    sp->offset_size = (uint8_t)p->offset_size;
    sp->count_size = (uint8_t)p->count_size;
    sp->nsplit = (uint8_t)p->nsplit;
    for (uint32_t k = 0; k < p->nsplit; k++)
        sp->split_id[k] = (uint16_t)axl__arg_index(&args[p->split_at[k]],
                                                   p->split_at[k]);
    if (call->event)
        *call->event = ev;
    for (uint32_t j = 0; split->chunk_events && j < p->chunks; j++)
        split->chunk_events[j] = ev;
    if (split->chunk_count)
        *split->chunk_count = p->chunks;
    return AXL_SUCCESS;
}

/* When q records: the call recorded (*recorded true) and its status. */
static axl_status maybe_record(const char *fn, const struct call *call,
                               const struct plan *p, bool *recorded)
{
    *recorded = false;
    axl_status st = axl__enter(fn);
    if (st != AXL_SUCCESS)
        return st;
    struct axl__queue *q = axl__queue_get(fn, call->queue, &st);
    if (q && AXL__IS_REF(q->graph)) {
        *recorded = true;
        st = record_split(fn, q, call, p);
    }
    axl__leave();
    return st;
}
#endif

static axl_status pools_hold(const char *fn, uint32_t need)
{
    const axl__pool *c = AXL__POOL(COMMAND), *e = AXL__POOL(EVENT);
    const uint32_t fc = (uint32_t)(c->capacity - c->in_use);
    const uint32_t fe = (uint32_t)(e->capacity - e->in_use);
    if (fc >= need && fe >= need)
        return AXL_SUCCESS;
    return axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                     "parallel_for needs %u commands and events at once, "
                     "and %u commands (AXL_MAX_COMMANDS %u) and %u events "
                     "(AXL_MAX_EVENTS %u) are free: nothing was submitted",
                     (unsigned)need, (unsigned)fc, (unsigned)c->capacity,
                     (unsigned)fe, (unsigned)e->capacity);
}

/* Step 1 (lock taken and dropped): the queue, the kernel, and the checks
 * that need no sub-buffer (plan_split). */
static axl_status plan_call(const char *fn, const struct call *call,
                            struct plan *p)
{
    axl_status st;
    struct axl__queue *q = axl__queue_enter(fn, call->queue, &st);
    if (!q)
        return st;
    struct axl__kernel *kn = axl__kernel_get(fn, call->kernel, &st);
    if (kn && call->range)
        st = plan_split(fn, q, kn, call, p);
    axl__leave();
    return st;
}

/* No work-items: nothing runs. The arguments and dependencies are checked
 * as a launch's would be; the event (if asked) completes once what it
 * depends on has (an empty group, 4.9.3). */
static axl_status submit_empty_range(const char *fn, const struct call *call)
{
    axl_handler h;
    axl_status st = axl__enter(fn);
    if (st != AXL_SUCCESS)
        return st;
    struct axl__queue *q = axl__queue_get(fn, call->queue, &st);
    if (q) {
        chunk_handler(&h, call->kernel, call->deps, call->ndeps, call->args,
                      call->nargs);
        st = chunk_check(fn, q, &h);
        axl__handler_drop(&h);
    }
    if (st == AXL_SUCCESS && call->event) {
        axl__handler_init(&h);
        if (call->ndeps)
            axl__handler_depends_on(&h, call->deps, call->ndeps, true);
        st = axl__submit(fn, q, &h, call->event);
    }
    axl__leave();
    return st;
}

/* Step 2: each chunk's part of each split buffer, a sub-buffer in subs
 * (chunk-major); on failure none is left. */
static axl_status make_subs(const struct call *call, const struct plan *p,
                            axl_buffer *subs, uint32_t *nsubs)
{
    uint32_t n = 0;
    for (uint32_t j = 0; j < p->chunks; j++) {
        size_t first, count;
        chunk_span(p, call->range, j, &first, &count);
        for (uint32_t s = 0; s < p->nsplit; s++) {
            const size_t off[3] = {first * p->rows[s], 0, 0};
            axl_range r = p->shape[s];
            r.size[0] = count * p->rows[s];
            axl_status st = axl_buffer_create_sub(
                call->args[p->split_at[s]].buffer, off, r, &subs[n]);
            if (st != AXL_SUCCESS) {
                release_all(subs, n);
                return st;
            }
            n++;
        }
    }
    *nsubs = n;
    return AXL_SUCCESS;
}

/* Where step 3 fills each command it makes: one handler (1-2 KB) and one
 * argument list for them all, so that the steps share one stack frame (a
 * handler of their own each keeps the compiler from inlining them at
 * -Os). */
struct work {
    axl_handler h;
    axl_kernel_arg a[AXL_MAX_KERNEL_ARGS];
};

/* The first chunk checked and placed as a launch would be (lock held; it
 * may be dropped here: storage made, a design awaited). */
static axl_status place_first_chunk(const char *fn, struct axl__queue *q,
                                    const struct call *call,
                                    const struct plan *p,
                                    const axl_buffer *subs, struct work *w)
{
    chunk_args(p, call->range, 0, call->args, call->nargs, subs, w->a);
    chunk_handler(&w->h, call->kernel, call->deps, call->ndeps, w->a,
                  call->nargs);
    axl_status st = chunk_check(fn, q, &w->h);
    if (st == AXL_SUCCESS && w->h.nacc)
        st = axl__access_prepare(fn, &w->h, q);
    axl__handler_drop(&w->h);
    return st;
}

/* A prefetch of each stale buffer, after the call's dependencies (lock
 * held); *made: how many went in. */
static axl_status commit_prefetches(const char *fn, struct axl__queue *q,
                                    const struct call *call,
                                    const axl_buffer *stale, uint32_t nstale,
                                    axl_handler *h, uint32_t *made)
{
    axl_status st = AXL_SUCCESS;
    for (uint32_t i = 0; st == AXL_SUCCESS && i < nstale; i++) {
        axl_accessor acc;
        axl__handler_init(h);
        if (call->ndeps)
            axl__handler_depends_on(h, call->deps, call->ndeps, true);
        axl__handler_require(h, stale[i], AXL_ACCESS_READ, NULL, 0, &acc,
                             true);
        axl_handler_prefetch(h, acc);
        st = h->error != AXL_SUCCESS ? axl__fail_as(fn, h->error, h->why)
                                     : axl__prefetch_prepare(fn, q, h);
        if (st == AXL_SUCCESS)
            st = axl__commit(fn, q, h, NULL, NULL);
        axl__handler_drop(h);
        if (st == AXL_SUCCESS)
            (*made)++;
    }
    return st;
}

/* Every chunk, its event in ev[j] (lock held); *made: how many went in. */
static axl_status commit_chunks(const char *fn, struct axl__queue *q,
                                const struct call *call, const struct plan *p,
                                const axl_buffer *subs, struct work *w,
                                axl_event *ev, uint32_t *made)
{
    axl_status st = AXL_SUCCESS;
    for (uint32_t j = 0; st == AXL_SUCCESS && j < p->chunks; j++) {
        chunk_args(p, call->range, j, call->args, call->nargs, subs, w->a);
        chunk_handler(&w->h, call->kernel, call->deps, call->ndeps, w->a,
                      call->nargs);
        st = chunk_check(fn, q, &w->h);
        if (st == AXL_SUCCESS)
            st = axl__commit(fn, q, &w->h, NULL, &ev[j]);
        axl__handler_drop(&w->h);
        if (st == AXL_SUCCESS)
            (*made)++;
    }
    return st;
}

/* The one event: an empty group on every chunk's event (lock held). */
static axl_status commit_joint_event(const char *fn, struct axl__queue *q,
                                     const axl_event *ev, uint32_t made,
                                     axl_handler *h, axl_event *event)
{
    axl__handler_init(h);
    axl__handler_depends_on(h, ev, made, true);
    h->kind = AXL__CMD_EMPTY;
    axl_status st = h->error != AXL_SUCCESS
                        ? axl__fail_as(fn, h->error, h->why)
                        : axl__commit(fn, q, h, NULL, event);
    axl__handler_drop(h);
    return st;
}

/* A failure after some commands went in: an internal error that says
 * where, with the failure's own message. */
static axl_status late_failure(const char *fn, uint32_t made, uint32_t chunks)
{
    char why[AXL_MESSAGE_MAX];
    axl_format(why, sizeof why, "%s", axl_last_message());
    return axl__fail(fn, AXL_ERR_RUNTIME,
                     "internal: %s %u of %u failed after the first "
                     "chunk passed its checks (%s)",
                     made < chunks ? "chunk" : "the event's group after chunk",
                     (unsigned)(made < chunks ? made + 1u : made),
                     (unsigned)chunks, why);
}

/* Step 3 (lock held): the first chunk placed, then the prefetches, every
 * chunk and the one event committed, then dispatched; *made: the chunks
 * committed, their events in ev. */
static axl_status submit_chunks(const char *fn, struct axl__queue *q,
                                const struct call *call, const struct plan *p,
                                const axl_buffer *subs, axl_event *ev,
                                uint32_t *made)
{
    struct work w;
    axl_status st = place_first_chunk(fn, q, call, p, subs, &w);
    axl_buffer stale[AXL_MAX_KERNEL_ARGS];
    uint32_t nstale = st == AXL_SUCCESS
                          ? stale_buffers(q, call->args, call->nargs, stale)
                          : 0;
    if (st == AXL_SUCCESS)
        st = pools_hold(fn, nstale + p->chunks + (call->event ? 1u : 0u));
    /* From here the lock is not dropped until every chunk is in: nothing
     * is dispatched (axl__pump) before the last. The first chunk made the
     * buffers' device copies, so the prefetches find them. */
    uint32_t prefetched = 0;
    if (st == AXL_SUCCESS)
        st = commit_prefetches(fn, q, call, stale, nstale, &w.h,
                               &prefetched);
    if (st == AXL_SUCCESS)
        st = commit_chunks(fn, q, call, p, subs, &w, ev, made);
    if (st == AXL_SUCCESS && call->event)
        st = commit_joint_event(fn, q, ev, *made, &w.h, call->event);
    if (*made || prefetched) {
        if (st != AXL_SUCCESS) /* cannot happen: see the top of the file */
            st = late_failure(fn, *made, p->chunks);
        axl__pump();
    }
    return st;
}

/* Each chunk's event to the caller, or released when not asked for. */
static void hand_back_events(const axl_split *split, const axl_event *ev,
                             uint32_t made)
{
    for (uint32_t j = 0; j < made; j++) {
        if (split->chunk_events)
            split->chunk_events[j] = ev[j];
        else
            axl_event_release(ev[j]);
    }
    if (split->chunk_count)
        *split->chunk_count = made;
}

axl_status axl_queue_parallel_for(axl_queue queue, axl_kernel kernel,
                                  size_t range, const axl_kernel_arg *args,
                                  uint32_t nargs, const axl_split *split,
                                  const axl_event *deps, uint32_t ndeps,
                                  axl_event *event)
{
    static const char fn[] = "axl_queue_parallel_for";
    if (!split)
        return axl__null(fn, "split");
    if ((nargs && !args) || (ndeps && !deps))
        return axl__fail(fn, AXL_ERR_INVALID,
                         "args or deps is NULL with a count");
    if (nargs > AXL_MAX_KERNEL_ARGS)
        return axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                         "%u arguments: a kernel takes at most "
                         "AXL_MAX_KERNEL_ARGS (%u)",
                         (unsigned)nargs, (unsigned)AXL_MAX_KERNEL_ARGS);
    if (split->chunk_count)
        *split->chunk_count = 0;
    const struct call call = {queue, kernel, range, args, nargs,
                              split, deps, ndeps, event};

    /* 1. What can be checked before anything is made. */
    struct plan p;
    axl_status st = plan_call(fn, &call, &p);
    if (st != AXL_SUCCESS)
        return st;
    if (!range)
        return submit_empty_range(fn, &call);

#if AXL_FEATURE_GRAPHS
    /* sycl_ext_oneapi_graph, "Queue Recording API": the nodes of a
     * recording are made from queue::submit "or from the queue shortcut
     * equivalents": a parallel_for is one node (record_split). */
    bool recorded;
    st = maybe_record(fn, &call, &p, &recorded);
    if (recorded || st != AXL_SUCCESS)
        return st;
#endif

    /* 2. The sub-buffers: each chunk's part of each split buffer. */
    axl_buffer subs[AXL_MAX_HANDLER_DEPS * AXL_MAX_KERNEL_ARGS];
    uint32_t nsubs;
    st = make_subs(&call, &p, subs, &nsubs);
    if (st != AXL_SUCCESS)
        return st; /* create_sub's message names the pool */

    /* 3. Every chunk, under one hold of the lock. */
    st = axl__enter(fn);
    if (st != AXL_SUCCESS) {
        release_all(subs, nsubs);
        return st;
    }
    struct axl__queue *q = axl__queue_get(fn, queue, &st);
#if AXL_FEATURE_GRAPHS
    /* A recording begun while the lock was dropped: one node still. */
    if (q && AXL__IS_REF(q->graph)) {
        st = record_split(fn, q, &call, &p);
        axl__leave();
        release_all(subs, nsubs);
        return st;
    }
#endif
    axl_event ev[AXL_MAX_HANDLER_DEPS];
    uint32_t made = 0;
    if (q)
        st = submit_chunks(fn, q, &call, &p, subs, ev, &made);
    axl__leave();

    /* The chunks hold their sub-buffers; the events go to the caller or
     * back. */
    release_all(subs, nsubs);
    hand_back_events(split, ev, made);
    return st;
}
