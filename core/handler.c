/*
 * handler.c - filling a command group (the handler of spec 4.9.4).
 *
 * The handler is a plain struct on the stack of axl_queue_submit; the calls
 * below only record. Nothing is scheduled until the group returns, so an
 * error leaves nothing behind. A kernel's calls (its arguments, single_task)
 * are at the end; launch.c checks what they recorded.
 */
#include <string.h>

#include "rt.h"
#include "event_priv.h"
#include "buffer_priv.h"
#include "access.h"
#include "sched_priv.h"
#include "handler_priv.h"
#include "kernel.h"

/* False, with *st, for a NULL handler or one that has failed already
 * (inline: every handler call starts with it, single_task on the launch
 * path). */
static inline bool usable(axl_handler *h, const char *fn, axl_status *st)
{
    if (!h) {
        *st = axl__null(fn, "handler");
        return false;
    }
    *st = h->error;
    return h->error == AXL_SUCCESS;
}

/* Keeps the first error of the group, with its message. */
static axl_status handler_fail(axl_handler *h, axl_status st)
{
    if (h->error == AXL_SUCCESS) {
        h->error = st;
        axl_format(h->why, sizeof h->why, "%s", axl_last_message());
    }
    return st;
}


axl_status axl_handler_depends_on(axl_handler *h, axl_event event)
{
    return axl_handler_depends_on_list(h, &event, 1);
}

axl_status axl_handler_depends_on_list(axl_handler *h, const axl_event *events,
                                       uint32_t count)
{
    return axl__handler_depends_on(h, events, count, false);
}

axl_status axl__handler_depends_on(axl_handler *h, const axl_event *events,
                                   uint32_t count, bool locked)
{
    static const char fn[] = "axl_handler_depends_on";
    axl_status st;
    if (!usable(h, fn, &st) || count == 0)
        return st;
    if (!events)
        return handler_fail(
            h, axl__fail(fn, AXL_ERR_INVALID,
                         "events is NULL with count %u",
                         (unsigned)count));
    if (!locked) {
        st = axl__enter(fn);
        if (st != AXL_SUCCESS)
            return handler_fail(h, st);
    }
    for (uint32_t i = 0; i < count && st == AXL_SUCCESS; i++) {
#if AXL_FEATURE_GRAPHS
        /* A recorded command's event is its graph node's handle: looked
         * up here as a node (a stale or forged one is AXL_ERR_INVALID_
         * OBJECT at once), an edge of the graph, whose owner is checked
         * when the group is recorded (graph.c). */
        if ((events[i].id >> AXL__HANDLE_KIND_SHIFT) ==
            AXL__POOL_GRAPH_NODE) {
            if (!axl__lookup(fn, "a dependency event", AXL__POOL_GRAPH_NODE,
                             events[i].id, &st))
                continue;
            h->node_deps = true;
            bool dup = false;
            for (uint16_t j = 0; j < h->ndeps; j++)
                dup |= h->deps[j] == events[i].id;
            if (!dup && h->ndeps < AXL_MAX_HANDLER_DEPS)
                h->deps[h->ndeps++] = events[i].id;
            else if (!dup)
                h->deps_overflow = true;
            continue;
        }
#endif
        struct axl__event *e =
            axl__lookup(fn, "a dependency event", AXL__POOL_EVENT,
                        events[i].id, &st);
        if (!e)
            continue;
        if (atomic_load_explicit(&e->state, memory_order_acquire) ==
                AXL_EVENT_COMPLETE &&
            e->status == AXL_SUCCESS) {
#if AXL_FEATURE_GRAPHS
            /* A done event orders nothing, but is still an event from
             * outside any graph: a recording refuses it whether or not
             * its command has finished (graph.c). */
            if (!h->done_dep)
                h->done_dep = events[i].id;
#endif
            continue;
        }
        bool dup = false;
        for (uint16_t j = 0; j < h->ndeps; j++)
            dup |= h->deps[j] == events[i].id;
        if (dup)
            continue;
        if (h->ndeps < AXL_MAX_HANDLER_DEPS)
            h->deps[h->ndeps++] = events[i].id;
        else
            h->deps_overflow = true;
    }
    if (!locked)
        axl__leave();
    return st == AXL_SUCCESS ? st : handler_fail(h, st);
}

/* Every action goes through here: exactly one per group. */
static axl_status handler_action(axl_handler *h, const char *fn,
                                 uint8_t kind)
{
    if (++h->nactions > 1)
        return handler_fail(
            h, axl__fail(fn, AXL_ERR_INVALID,
                         "a command group takes exactly one "
                         "action and this one already has "
                         "one"));
    h->kind = kind;
    return AXL_SUCCESS;
}

axl_status axl_handler_host_task(axl_handler *h, axl_host_task_fn fn_,
                                 void *user)
{
    static const char fn[] = "axl_handler_host_task";
    axl_status st;
    if (!usable(h, fn, &st))
        return st;
    if (!AXL_FEATURE_HOST_TASKS)
        return handler_fail(
            h, axl__switched_off(fn, "AXL_FEATURE_HOST_TASKS"));
    if (!fn_)
        return handler_fail(h, axl__null(fn, "the host task function"));
    st = handler_action(h, fn, AXL__CMD_HOST_TASK);
    if (st == AXL_SUCCESS) {
        h->u.host.fn = fn_;
        h->u.host.user = user;
    }
    return st;
}

/* ---- Accessors ---------------------------------------------------------------- */

axl_status axl_handler_require(axl_handler *h, axl_buffer buffer,
                               axl_access_mode mode, const axl_region *region,
                               uint32_t flags, axl_accessor *accessor)
{
    return axl__handler_require(h, buffer, mode, region, flags, accessor,
                                false);
}

axl_status axl__handler_require(axl_handler *h, axl_buffer buffer,
                                axl_access_mode mode, const axl_region *region,
                                uint32_t flags, axl_accessor *accessor,
                                bool locked)
{
    static const char fn[] = "axl_handler_require";
    axl_status st;
    if (!usable(h, fn, &st))
        return st;
    if (!accessor)
        return handler_fail(h, axl__null(fn, "accessor"));
    st = axl__access_args(fn, &mode, &flags);
    if (st != AXL_SUCCESS)
        return handler_fail(h, st);
    if (h->nacc == AXL_MAX_ACCESSORS)
        return handler_fail(
            h, axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                         "more than AXL_MAX_ACCESSORS (%u) "
                         "accessors in one command group",
                         (unsigned)AXL_MAX_ACCESSORS));
    if (!locked) {
        st = axl__enter(fn);
        if (st != AXL_SUCCESS)
            return handler_fail(h, st);
    }
    struct axl__buffer *view =
        axl__lookup_fast(fn, "buffer", AXL__POOL_BUFFER, buffer.id, &st);
    struct axl__required *r = &h->acc[h->nacc];
    if (view)
        st = axl__access_view(fn, view, mode, region, false, r);
    if (view && st == AXL_SUCCESS) {
        view->holds++;
        r->on_device = false;
        r->view = AXL__HANDLE_SLOT(buffer.id);
        r->mode = (uint8_t)mode;
        r->flags = (uint8_t)flags;
        accessor->index = ++h->nacc;
    }
    if (!locked)
        axl__leave();
    return st == AXL_SUCCESS ? st : handler_fail(h, st);
}

/* The handler's accessor for an axl_accessor, or an error. */
static struct axl__required *named(axl_handler *h, const char *fn,
                                   axl_accessor a, axl_status *st)
{
    if (a.index == 0 || a.index > h->nacc) {
        *st = handler_fail(
            h, axl__fail(fn, AXL_ERR_ACCESSOR,
                         "accessor %u was not required in "
                         "this command group",
                         (unsigned)a.index));
        return NULL;
    }
    *st = AXL_SUCCESS;
    struct axl__required *r = &h->acc[a.index - 1];
    axl__required_region(r); /* the actions below read it */
    return r;
}

axl_status axl_handler_host_ptr(axl_handler *h, axl_accessor accessor,
                                void **ptr)
{
    static const char fn[] = "axl_handler_host_ptr";
    axl_status st;
    if (!usable(h, fn, &st))
        return st;
    struct axl__required *r = named(h, fn, accessor, &st);
    if (!r)
        return st;
    if (!ptr)
        return handler_fail(h, axl__null(fn, "ptr"));
    st = axl__enter(fn);
    if (st != AXL_SUCCESS)
        return handler_fail(h, st);
    struct axl__buffer *view = r->buf;
    struct axl__buffer *b = r->base;
    st = axl__host_storage(fn, b);
    if (st == AXL_SUCCESS) {
        const struct axl__region *g = &r->region;
        uint64_t lin = ((uint64_t)g->off[0] * g->view_range[1] + g->off[1]) *
                           g->view_range[2] +
                       g->off[2];
        *ptr = (unsigned char *)b->host + view->offset + lin * g->elem;
        h->host_ptrs = true;
    }
    axl__leave();
    return st == AXL_SUCCESS ? st : handler_fail(h, st);
}

static uint64_t region_bytes(const struct axl__region *r)
{
    return (uint64_t)r->len[0] * r->len[1] * r->len[2] * r->elem;
}

/* copy_to_host (to_host: the accessor is read into host) and
 * copy_from_host (host is written through the accessor): the same checks
 * on one accessor and one host pointer. */
static axl_status host_copy(axl_handler *h, const char *fn, axl_accessor acc,
                            const void *host, bool to_host)
{
    axl_status st;
    if (!usable(h, fn, &st))
        return st;
    struct axl__required *r = named(h, fn, acc, &st);
    if (!r)
        return st;
    if (!host)
        return handler_fail(h, axl__null(fn, to_host ? "dst" : "src"));
    if (!(r->mode & (to_host ? AXL_ACCESS_READ : AXL_ACCESS_WRITE)))
        return handler_fail(
            h, axl__fail(fn, AXL_ERR_ACCESSOR, "the %s accessor must %s",
                         to_host ? "source" : "destination",
                         to_host ? "read" : "write"));
    st = handler_action(h, fn, to_host ? AXL__CMD_COPY_TO_HOST
                                            : AXL__CMD_COPY_FROM_HOST);
    if (st == AXL_SUCCESS) {
        h->a0 = (uint8_t)acc.index;
        /* copy_from_host only reads it: the pointer is kept without its
         * const, in the one field both copies use. */
        h->u.copy.host = (void *)(uintptr_t)host;
        if (to_host)
            h->u.copy.src = r->region;
        else
            h->u.copy.dst = r->region;
    }
    return st;
}

axl_status axl_handler_copy_to_host(axl_handler *h, axl_accessor src, void *dst)
{
    return host_copy(h, "axl_handler_copy_to_host", src, dst, true);
}

axl_status axl_handler_copy_from_host(axl_handler *h, const void *src,
                                      axl_accessor dst)
{
    return host_copy(h, "axl_handler_copy_from_host", dst, src, false);
}

axl_status axl_handler_copy(axl_handler *h, axl_accessor src, axl_accessor dst)
{
    static const char fn[] = "axl_handler_copy";
    axl_status st;
    if (!usable(h, fn, &st))
        return st;
    struct axl__required *rs = named(h, fn, src, &st);
    if (!rs)
        return st;
    struct axl__required *rd = named(h, fn, dst, &st);
    if (!rd)
        return st;
    if (!(rs->mode & AXL_ACCESS_READ) || !(rd->mode & AXL_ACCESS_WRITE))
        return handler_fail(
            h, axl__fail(fn, AXL_ERR_ACCESSOR,
                         "copy reads the source accessor and "
                         "writes the destination"));
    /* 4.9.4.3: "dest must have at least this many bytes". */
    if (region_bytes(&rd->region) < region_bytes(&rs->region))
        return handler_fail(
            h, axl__fail(fn, AXL_ERR_INVALID,
                         "the source has %llu bytes, and the destination "
                         "must have at least as many: it has %llu",
                         (unsigned long long)region_bytes(&rs->region),
                         (unsigned long long)region_bytes(&rd->region)));
    st = handler_action(h, fn, AXL__CMD_COPY);
    if (st == AXL_SUCCESS) {
        h->a0 = (uint8_t)src.index;
        h->a1 = (uint8_t)dst.index;
        h->u.copy.src = rs->region;
        h->u.copy.dst = rd->region;
    }
    return st;
}

axl_status axl_handler_fill(axl_handler *h, axl_accessor dst,
                            const void *pattern, size_t pattern_size)
{
    static const char fn[] = "axl_handler_fill";
    axl_status st;
    if (!usable(h, fn, &st))
        return st;
    struct axl__required *r = named(h, fn, dst, &st);
    if (!r)
        return st;
    if (!pattern || pattern_size != r->region.elem)
        return handler_fail(
            h, axl__fail(fn, AXL_ERR_INVALID,
                         "the pattern must be one element "
                         "(%zu bytes), not %zu",
                         r->region.elem, pattern_size));
    if (pattern_size > AXL_MAX_FILL_PATTERN)
        return handler_fail(
            h, axl__fail(fn, AXL_ERR_FEATURE_NOT_SUPPORTED,
                         "elements of %zu bytes are larger "
                         "than AXL_MAX_FILL_PATTERN (%u)",
                         pattern_size,
                         (unsigned)AXL_MAX_FILL_PATTERN));
    if (!(r->mode & AXL_ACCESS_WRITE))
        return handler_fail(
            h, axl__fail(fn, AXL_ERR_ACCESSOR,
                         "fill needs a write accessor"));
    st = handler_action(h, fn, AXL__CMD_FILL);
    if (st == AXL_SUCCESS) {
        h->a0 = (uint8_t)dst.index;
        h->u.fill.dst = r->region;
        memcpy(h->u.fill.pattern, pattern, pattern_size);
    }
    return st;
}

axl_status axl_handler_prefetch(axl_handler *h, axl_accessor acc)
{
    static const char fn[] = "axl_handler_prefetch";
    axl_status st;
    if (!usable(h, fn, &st))
        return st;
    struct axl__required *r = named(h, fn, acc, &st);
    if (!r)
        return st;
    if (r->mode != AXL_ACCESS_READ)
        return handler_fail(
            h, axl__fail(fn, AXL_ERR_INVALID,
                         "accessor %u is not read-only: a prefetch reads "
                         "the buffer (and writes only its device copy)",
                         (unsigned)acc.index));
    st = handler_action(h, fn, AXL__CMD_PREFETCH);
    if (st == AXL_SUCCESS)
        h->a0 = (uint8_t)acc.index;
    return st;
}

axl_status axl_handler_update_host(axl_handler *h, axl_accessor acc)
{
    static const char fn[] = "axl_handler_update_host";
    axl_status st;
    if (!usable(h, fn, &st))
        return st;
    if (!named(h, fn, acc, &st))
        return st;
    st = handler_action(h, fn, AXL__CMD_UPDATE_HOST);
    if (st == AXL_SUCCESS)
        h->a0 = (uint8_t)acc.index;
    return st;
}

/* ---- The handler's kernel calls -------------------------------------------------- */

static struct axl__karg *karg_slot(axl_handler *h, const char *fn,
                                   uint32_t index, axl_status *st)
{
    for (uint8_t i = 0; i < h->nkargs; i++)
        if (h->kargs[i].id == index)
            return &h->kargs[i];
    if (h->nkargs == AXL_MAX_KERNEL_ARGS || index > 0xFFFF) {
        *st = handler_fail(
            h, axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                         "argument %u: a kernel takes at most "
                         "AXL_MAX_KERNEL_ARGS (%u) arguments",
                         (unsigned)index,
                         (unsigned)AXL_MAX_KERNEL_ARGS));
        return NULL;
    }
    struct axl__karg *a = &h->kargs[h->nkargs++];
    memset(a, 0, sizeof *a);
    a->id = (uint16_t)index;
    return a;
}

axl_status axl_handler_set_arg(axl_handler *h, uint32_t index,
                               const void *value, size_t size)
{
    static const char fn[] = "axl_handler_set_arg";
    axl_status st;
    if (!usable(h, fn, &st))
        return st;
    if (!value || size == 0)
        return handler_fail(
            h, axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                         "argument %u: no bytes given",
                         (unsigned)index));
    if (size > (size_t)(AXL_MAX_ARG_BYTES - h->kbytes_used))
        return handler_fail(
            h, axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                         "argument %u: the group's scalars take "
                         "more than AXL_MAX_ARG_BYTES (%u)",
                         (unsigned)index,
                         (unsigned)AXL_MAX_ARG_BYTES));
    struct axl__karg *a = karg_slot(h, fn, index, &st);
    if (!a)
        return st;
    a->acc = 0;
    a->off = h->kbytes_used;
    a->size = (uint16_t)size;
    memcpy(h->kbytes + h->kbytes_used, value, size);
    h->kbytes_used = (uint16_t)(h->kbytes_used + size);
    return AXL_SUCCESS;
}

axl_status axl_handler_set_arg_accessor(axl_handler *h, uint32_t index,
                                        axl_accessor accessor)
{
    static const char fn[] = "axl_handler_set_arg_accessor";
    axl_status st;
    if (!usable(h, fn, &st))
        return st;
    if (accessor.index == 0 || accessor.index > h->nacc)
        return handler_fail(
            h, axl__fail(fn, AXL_ERR_ACCESSOR,
                         "argument %u: accessor %u was not "
                         "required in this command group",
                         (unsigned)index, (unsigned)accessor.index));
    struct axl__karg *a = karg_slot(h, fn, index, &st);
    if (!a)
        return st;
    a->acc = (uint8_t)accessor.index;
    a->size = 0;
    return AXL_SUCCESS;
}

axl_status axl_handler_set_args(axl_handler *h, const axl_kernel_arg *args,
                                uint32_t nargs)
{
    return axl__handler_set_args(h, args, nargs, false);
}

/* The handler calls an argument list stands for, in its order (the first
 * error stays in h with its message); locked: the caller holds the lock
 * (axl_queue_single_task's general path). */
axl_status axl__handler_set_args(axl_handler *h, const axl_kernel_arg *args,
                                 uint32_t nargs, bool locked)
{
    static const char fn[] = "axl_handler_set_args";
    axl_status st;
    if (!usable(h, fn, &st))
        return st;
    if (nargs && !args)
        return handler_fail(
            h, axl__fail(fn, AXL_ERR_INVALID, "args is NULL with nargs %u",
                         (unsigned)nargs));
    for (uint32_t i = 0; i < nargs && h->error == AXL_SUCCESS; i++) {
        const axl_kernel_arg *a = &args[i];
        const uint32_t index = axl__arg_index(a, i);
        if (axl__arg_is_scalar(a)) {
            if (!a->value && a->size > sizeof a->scalar)
                return handler_fail(
                    h, axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                                 "argument %u: a scalar of %u bytes with "
                                 "value NULL (its own bytes hold 8 at most)",
                                 (unsigned)index, (unsigned)a->size));
            axl_handler_set_arg(h, index, axl__arg_bytes(a), a->size);
            continue;
        }
        /* no_init in the mode (AXL_ACCESS_WRITE_NO_INIT, ..._READ_WRITE_
         * NO_INIT) becomes the accessor's flag. */
        axl_access_mode mode = a->mode ? a->mode : AXL_ACCESS_READ_WRITE;
        uint32_t flags = 0;
        if (mode == AXL_ACCESS_WRITE_NO_INIT ||
            mode == AXL_ACCESS_READ_WRITE_NO_INIT) {
            mode = (axl_access_mode)(mode & AXL_ACCESS_READ_WRITE);
            flags = AXL_ACCESS_NO_INIT;
        }
        axl_accessor acc;
        if (axl__handler_require(h, a->buffer, mode, a->region, flags, &acc,
                                 locked) == AXL_SUCCESS)
            axl_handler_set_arg_accessor(h, index, acc);
    }
    return h->error;
}

axl_status axl_handler_single_task(axl_handler *h, axl_kernel kernel)
{
    static const char fn[] = "axl_handler_single_task";
    axl_status st;
    if (!usable(h, fn, &st))
        return st;
    st = handler_action(h, fn, AXL__CMD_KERNEL);
    if (st == AXL_SUCCESS)
        h->kernel = kernel.id;
    return st;
}

axl_status axl_handler_parallel_for(axl_handler *h, axl_range range,
                                    axl_kernel kernel)
{
    static const char fn[] = "axl_handler_parallel_for";
    (void)range;
    (void)kernel;
    axl_status st;
    if (!usable(h, fn, &st))
        return st;
    return handler_fail(
        h, axl__fail(fn, AXL_ERR_FEATURE_NOT_SUPPORTED,
                     "a compute unit runs whole invocations, not "
                     "work-items: pass the size as an argument and "
                     "use single_task"));
}

axl_status axl_handler_use_kernel_bundle(axl_handler *h,
                                         axl_kernel_bundle bundle)
{
    static const char fn[] = "axl_handler_use_kernel_bundle";
    axl_status st;
    if (!usable(h, fn, &st))
        return st;
    h->bundle = bundle.id;
    return AXL_SUCCESS;
}

axl_status axl_handler_set_timeout(axl_handler *h, uint64_t ns)
{
    if (!h)
        return axl__null("axl_handler_set_timeout", "handler");
    h->timeout_ns = ns;
    return AXL_SUCCESS;
}
