/*
 * room.c - room in a full pool (issue 26.1, rt.h's axl__room).
 *
 * The pool-full rule (the N+1th object of a pool of N is AXL_ERR_OUT_OF_
 * RESOURCES, at once) is about what the application holds. A slot that a
 * released object keeps only because a command in flight still uses it is
 * the runtime's, and the runtime gives it back by waiting for that
 * command, as the application would have had to wait for it anyway.
 *
 * Who keeps a released object's slot. A command in flight holds its
 * event, its queue, its kernel and its accessors' buffers; a released
 * (retired) one of those keeps in turn what it holds: a kernel its bundle,
 * a bundle and a queue their context, a sub-buffer its base, a bound
 * buffer its context. Only chains of released objects count: a kernel
 * the application still holds keeps its bundle for the application, and
 * waiting for the command would give nothing back. A run given up at its
 * timeout keeps, until its unit comes back (cu.c), the base buffers it was
 * given and its kernel, with what they keep.
 *
 * Device memory is the same: a released buffer's copies stay allocated
 * while commands in flight use it, and a placement that finds a bank full
 * waits for them too (axl__memory_room, buffer.c).
 *
 * Walks are bounded by the command pool and the units; this runs only
 * when a pool or a bank is full.
 */
#include "rt.h"
#include "cu.h"
#include "device_priv.h"
#include "queue_priv.h"
#include "buffer_priv.h"
#include "sched_priv.h"
#include "room.h"
#include "kernel.h"
#include "image.h"
#if AXL_FEATURE_GRAPHS
#include "replay.h"
#endif

static bool released(int kind, uint16_t slot)
{
    return axl__pools[kind].link[slot] == AXL__SLOT_RETIRED;
}

static bool context_kept(uint16_t ctx, int kind)
{
    return kind == AXL__POOL_CONTEXT && released(AXL__POOL_CONTEXT, ctx);
}

/* Does a command holding kernel slot ks keep a released object's slot of
 * pool `kind`? */
static bool kernel_keeps(uint16_t ks, int kind)
{
    if (!released(AXL__POOL_KERNEL, ks))
        return false;
    if (kind == AXL__POOL_KERNEL)
        return true;
    const uint16_t bs = axl__kernel_at(ks)->bundle;
    if (!released(AXL__POOL_KERNEL_BUNDLE, bs))
        return false;
    return kind == AXL__POOL_KERNEL_BUNDLE ||
           context_kept(axl__bundle_at(bs)->context, kind);
}

/* The same for a command holding buffer `view` (on base `base`). */
static bool buffer_keeps(uint16_t view, uint16_t base, int kind)
{
    if (!released(AXL__POOL_BUFFER, view))
        return false;
    if (kind == AXL__POOL_BUFFER)
        return true;
    if (view != base && !released(AXL__POOL_BUFFER, base))
        return false;
    const struct axl__buffer *b = axl__buffer_at(base);
    return AXL__IS_REF(b->context) &&
           context_kept(axl__context_ref_slot(b->context), kind);
}

/* Does command c keep a released object's slot of pool `kind`? given_up:
 * c's run was given up at its timeout (its command complete, its slot
 * kept), and it holds only its kernel and its arguments' base buffers. */
static bool keeps(const struct axl__command *c, int kind, bool given_up)
{
    if (c->kind == AXL__CMD_KERNEL && kernel_keeps(c->u.kernel.kernel, kind))
        return true;
    if (given_up) {
        for (uint8_t m = 0; m < c->u.kernel.nargs; m++) {
            const uint8_t a = c->u.kernel.args[m].acc;
            if (a && buffer_keeps(c->acc[a - 1].base, c->acc[a - 1].base,
                                  kind))
                return true;
        }
        return false;
    }
    if (kind == AXL__POOL_EVENT && released(AXL__POOL_EVENT, c->event))
        return true;
#if AXL_FEATURE_GRAPHS
    /* A graph's submission holds its executable graph (freed with its
     * last submission once released), its kernels and its base buffers. */
    if (c->kind == AXL__CMD_REPLAY) {
        const struct axl__plan *p = c->u.replay.plan;
        if (kind == AXL__POOL_GRAPH_EXEC &&
            released(AXL__POOL_GRAPH_EXEC, c->u.replay.exec))
            return true;
        for (uint16_t k = 0; k < p->nkernels; k++)
            if (kernel_keeps(p->kernels[k], kind))
                return true;
        for (uint32_t b = 0; b < p->nbufs; b++)
            if (buffer_keeps(p->buf[b].base, p->buf[b].base, kind))
                return true;
    }
#endif
    if (c->queue != AXL__NO_QUEUE && released(AXL__POOL_QUEUE, c->queue) &&
        (kind == AXL__POOL_QUEUE ||
         context_kept(axl__queue_at(c->queue)->context, kind)))
        return true;
    for (uint8_t i = 0; i < c->nacc; i++)
        if (buffer_keeps(c->acc[i].view, c->acc[i].base, kind))
            return true;
    return false;
}

/* The oldest command in flight keeping a released slot of `kind`. */
static struct axl__command *oldest_keeping(int kind)
{
    for (axl__command_ref r = axl__rt.inflight_head; AXL__IS_REF(r);) {
        struct axl__command *c = axl__command_deref(r);
        if (keeps(c, kind, false))
            return c;
        r = c->next_inflight;
    }
    return NULL;
}

/* A unit whose given-up run keeps a released slot of `kind`, or NULL. */
static struct axl__cu *given_up_keeping(int kind, struct axl__device **dev)
{
    const axl__pool *p = AXL__POOL(DEVICE);
    for (uint16_t s = 0; s < p->capacity; s++) {
        if (!axl__pool_is_live(p, s))
            continue;
        struct axl__device *d = axl__device_at(s);
        for (uint8_t i = 0; i < d->ncus; i++) {
            struct axl__cu *cu = &d->cus[i];
            if (AXL__IS_REF(cu->cmd) && cu->abandoned &&
                keeps(axl__command_deref(cu->cmd), kind, true)) {
                *dev = d;
                return cu;
            }
        }
    }
    return NULL;
}

/* A given-up run, on a unit the port has not called hung, is waited for
 * until it comes back or the unit turns out hung. */
struct run_out {
    const struct axl__cu *cu;
    axl__command_ref cmd;
};

static bool back_or_hung(const void *arg)
{
    const struct run_out *w = arg;
    return !axl__command_ref_eq(w->cu->cmd, w->cmd) || w->cu->hung;
}

axl_status axl__room(const char *fn, int kind)
{
    axl__pool *p = &axl__pools[kind];
    for (;;) {
        if (!p->ready || p->free_head)
            return AXL_SUCCESS;
        if (AXL__IS_REF(axl__rt.zombie_head)) {
            axl__free_zombies(); /* not in use: only not freed yet */
            continue;
        }
        struct axl__command *c = oldest_keeping(kind);
        if (c) {
            char why[AXL_MESSAGE_MAX - 64];
            if (axl__wait_for_room(axl__event_at(c->event), why,
                                   sizeof why) == AXL_SUCCESS)
                continue;
            /* The room would come from a command that waits for what this
             * thread blocks: a wait that can never end (issue 35.2). */
            p->failures++;
            return axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                             "the %s pool is full (%u in use; raise %s), "
                             "some kept for commands that wait for %s",
                             p->name, (unsigned)p->in_use, p->setting, why);
        }
        struct axl__device *d = NULL;
        struct axl__cu *cu = given_up_keeping(kind, &d);
        if (!cu)
            return AXL_SUCCESS; /* the application's: full, at once */
        if (!cu->hung) {
            const struct run_out w = {cu, cu->cmd};
            axl__wait_until_pred(back_or_hung, &w);
            continue;
        }
        char what[AXL_MESSAGE_MAX];
        axl__unit_what(d, cu, what, sizeof what);
        p->failures++;
        return axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                         "the %s pool is full (%u in use), some kept for %s",
                         p->name, (unsigned)p->in_use, what);
    }
}

bool axl__memory_room(char *why, size_t cap)
{
    if (AXL__IS_REF(axl__rt.zombie_head)) {
        axl__free_zombies();
        return true;
    }
    struct axl__command *c = oldest_keeping(AXL__POOL_BUFFER);
    return c && axl__wait_for_room(axl__event_at(c->event), why, cap) ==
                    AXL_SUCCESS;
}
