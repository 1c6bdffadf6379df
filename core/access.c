/*
 * access.c - how commands reach buffers: dependency records and where each
 * buffer's current contents are (spec 3.7.1, 3.8.1); region.c checks the
 * part of a buffer an access reaches, transfer.c moves the bytes.
 *
 * Dependencies. Each accessor of an unfinished command is a record in its
 * base buffer's list (location, byte span, mode). A new access depends on
 *  - records at the same location whose span overlaps it, when either
 *    writes (RAW, WAR, WAW; reads never order against reads, and disjoint
 *    sub-buffers do not order at all). A record's span is its whole view,
 *    not its accessor's range (4.7.6.8);
 *  - every record at its location, when it must first copy the whole
 *    buffer there (the copy overwrites what they use);
 *  - records that write at the location it copies from;
 *  - records that still copy from its location, when it changes it.
 * A write prunes the records at its location that it covers: later
 * accesses reach them through it. A list that is still full makes the new
 * access a fence: its command waits for every earlier command and later
 * ones wait for it. Host accessors' records are never pruned, and edges to
 * them are always real (host accessors are not commands in flight).
 *
 * Data. Location 0 is host storage, 1.. device copies. `cur` counts the
 * writes submitted so far; each location holds the version it will have
 * once submitted work is done, and the command still filling it, if any.
 * Moves happen in the command that needs the data, before its action, and
 * only when its location lags: none for a no_init access of the whole
 * buffer (or a fill or copy in that overwrites all of it), none back to the
 * host unless something reads it there. A write-only access without
 * no_init keeps the elements it does not overwrite (3.8.1, 4.7.6.4), so its
 * location is made current first.
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
#include "graph_priv.h"
#include "devops.h"
#include "access.h"
#if AXL_FEATURE_GRAPHS
#include "replay.h"
#endif

/* ---- Locations ------------------------------------------------------------------- */

static inline bool writes(uint8_t mode)
{
    return (mode & AXL_ACCESS_WRITE) != 0;
}

uint8_t axl__pick_source(const struct axl__buffer *b, uint8_t to)
{
    uint8_t best = AXL__NO_LOC;
    for (uint8_t l = 0; l < AXL__LOCS; l++) {
        if (l == to || (l == AXL__LOC_HOST ? !b->host
                                           : !AXL__IS_REF(b->loc[l].device)))
            continue;
        uint32_t v = b->loc[l].ver;
        if (v == AXL__VER_NONE)
            continue;
        if (v == b->cur)
            return l;
        if (best == AXL__NO_LOC || v > b->loc[best].ver)
            best = l;
    }
    return best;
}

/* Are the old contents of the whole buffer not needed: no_init over all
 * of it, or the action itself overwrites all of it (a fill or copy in of
 * the whole buffer: the same bytes whether or not they came first)? A
 * write-only accessor alone is not enough (3.8.1, 4.7.6.4). */
static bool is_discard(const struct axl__required *r,
                       const struct axl__buffer *view,
                       const struct axl__buffer *base, bool overwritten)
{
    if (!(r->flags & AXL_ACCESS_NO_INIT) && !overwritten)
        return false;
    return view->offset + r->off == 0 && r->size == base->size;
}

/* The accessor (1-based) the group's action writes every element of, or
 * 0: a fill's, or a copy in's. */
static unsigned overwritten(const axl_handler *h)
{
    return h->kind == AXL__CMD_FILL || h->kind == AXL__CMD_COPY_FROM_HOST
               ? h->a0
               : 0;
}

/* Where a command of this kind touches accessor i's buffer (view, in
 * base buffer b). */
static uint8_t choose_loc(const axl_handler *h, uint8_t i,
                          const struct axl__queue *q,
                          const struct axl__buffer *view,
                          const struct axl__buffer *b)
{
    const struct axl__required *r = &h->acc[i];
    uint8_t dq = q ? axl__device_loc(b, q->device) : AXL__NO_LOC;
    if (r->on_device && dq != AXL__NO_LOC)
        return dq; /* a kernel's buffer: where its compute unit reaches it */
    bool named = i + 1u == h->a0 || i + 1u == h->a1;
    if (!named)
        return AXL__LOC_HOST;
    switch (h->kind) {
    case AXL__CMD_COPY_TO_HOST:
        /* Read where the data already is: straight from the device into
         * the application's memory when the device has it. */
        if (dq != AXL__NO_LOC && b->loc[dq].ver == b->cur)
            return dq;
        if (b->loc[AXL__LOC_HOST].ver == b->cur)
            return AXL__LOC_HOST;
        for (uint8_t l = 1; l < AXL__LOCS; l++)
            if (AXL__IS_REF(b->loc[l].device) && b->loc[l].ver == b->cur)
                return l;
        return AXL__LOC_HOST;
    case AXL__CMD_COPY_FROM_HOST:
    case AXL__CMD_FILL:
        if (dq != AXL__NO_LOC &&
            (b->loc[dq].ver == b->cur ||
             is_discard(r, view, b, i + 1u == overwritten(h))))
            return dq;
        return AXL__LOC_HOST;
    case AXL__CMD_COPY: {
        /* On the device only when both sides live there and both regions
         * are single runs; otherwise on the host. */
        const struct axl__required *o =
            &h->acc[(i + 1u == h->a0 ? h->a1 : h->a0) - 1];
        const struct axl__buffer *ob = o->base;
        uint8_t odq = q ? axl__device_loc(ob, q->device) : AXL__NO_LOC;
        if (dq != AXL__NO_LOC && odq != AXL__NO_LOC &&
            axl__region_contiguous(&r->region) &&
            axl__region_contiguous(&o->region))
            return dq;
        return AXL__LOC_HOST;
    }
    default:
        return AXL__LOC_HOST;
    }
}

/* Does this command need host storage that b lacks: it works on the host,
 * or must bounce a copy through the host (device to device)? */
static bool needs_host(const struct axl__buffer *b, uint8_t l)
{
    if (b->host)
        return false;
    if (l == AXL__LOC_HOST)
        return true;
    if (b->loc[l].ver == b->cur)
        return false;
    uint8_t src = axl__pick_source(b, l);
    return src != AXL__NO_LOC && src != AXL__LOC_HOST;
}

axl_status axl__access_prepare(const char *fn, axl_handler *h,
                               struct axl__queue *q)
{
    /* Lock held; dropped while storage is allocated, after which the
     * checks are made again from the new state. */
    for (int round = 0;; round++) {
        struct axl__buffer *need = NULL; /* the first lacking host storage */
        for (uint8_t i = 0; i < h->nacc; i++) {
            const struct axl__buffer *view = h->acc[i].buf;
            struct axl__buffer *b = h->acc[i].base;
            if (q && AXL__IS_REF(b->context) &&
                !axl__context_ref_eq(b->context,
                                     axl__context_ref_at(q->context)))
                return axl__fail(fn, AXL_ERR_INVALID,
                                 "accessor %u: the buffer is bound to another "
                                 "context (property::buffer::context_bound)",
                                 (unsigned)i + 1);
            uint8_t l = choose_loc(h, i, q, view, b);
            h->acc[i].loc = l;
            /* 4.7.2.1: a sub-buffer's origin is a multiple of the
             * mem_base_addr_align of the device whose queue the group is
             * on, whether the command then runs there or on the host
             * (where the data happens to be must not decide). A base
             * buffer starts at 0, which every alignment divides. */
            if (q && view->offset) {
                const struct axl__device *d = axl__device_at(q->device);
                uint32_t align = d->info.mem_base_addr_align / 8;
                if (align > 1 && view->offset % align)
                    return axl__fail(fn, AXL_ERR_INVALID,
                                     "accessor %u: the sub-buffer starts at "
                                     "byte %llu, not a multiple of the "
                                     "device's mem_base_addr_align (%u bytes)",
                                     (unsigned)i + 1,
                                     (unsigned long long)view->offset,
                                     (unsigned)align);
            }
            if (!need && needs_host(b, l))
                need = b;
        }
        if (!need)
            return AXL_SUCCESS;
        axl_status st = axl__host_storage(fn, need);
        if (st != AXL_SUCCESS)
            return st;
        if (round > 2 * AXL_MAX_ACCESSORS)
            return axl__fail(fn, AXL_ERR_RUNTIME,
                             "internal: storage planning did not settle");
    }
}

/* ---- Records ---------------------------------------------------------------------- */

static inline struct axl__command *rec_cmd(axl__rec r)
{
    return axl__command_at((uint16_t)((r - 1) / AXL_MAX_ACCESSORS));
}

static inline struct axl__access *rec_acc(axl__rec r)
{
    return &rec_cmd(r)->acc[(r - 1) % AXL_MAX_ACCESSORS];
}

/* Unlinks record a (linked) from b's list. */
static void rec_unlink(struct axl__buffer *b, struct axl__access *a)
{
    if (a->prev)
        rec_acc(a->prev)->next = a->next;
    else
        b->rec_head = a->next;
    if (a->next)
        rec_acc(a->next)->prev = a->prev;
    else
        b->rec_tail = a->prev;
    a->prev = a->next = 0;
    a->linked = 0;
    b->nrec--;
}

/* Appends record a, whose id is r, to b's list. */
static void rec_append(struct axl__buffer *b, struct axl__access *a, axl__rec r)
{
    a->prev = b->rec_tail;
    a->next = 0;
    if (b->rec_tail)
        rec_acc(b->rec_tail)->next = r;
    else
        b->rec_head = r;
    b->rec_tail = r;
    a->linked = 1;
    b->nrec++;
}

static bool overlaps(const struct axl__access *x, const struct axl__access *y)
{
    return x->offset < y->offset + y->size && y->offset < x->offset + x->size;
}

static bool covers(const struct axl__access *big, const struct axl__access *x)
{
    return big->offset <= x->offset &&
           x->offset + x->size <= big->offset + big->size;
}

/* ---- Commit: one accessor of a command being submitted ------------------------------ */

static struct axl__event *event_of(const struct axl__command *c)
{
    return axl__event_at(c->event);
}

/* Makes c wait for the command still filling location l, if any. */
static void wait_for_fill(struct axl__command *c, const struct axl__loc *l)
{
    if (!l->xfer)
        return;
    struct axl__event *e = axl__pool_lookup_any(AXL__POOL(EVENT), l->xfer);
    if (e && e != event_of(c))
        axl__add_dep(c, e, true);
}

/* link_one's common case, or false: nobody uses the buffer now, its
 * contents are sound and current at loc, nothing fills loc, so no edge,
 * move, prune or fence would apply, only the version and the record. (The
 * launch path, whose buffers stay on the device.) */
static inline bool link_sole(struct axl__access *a, struct axl__buffer *b,
                             axl__rec id)
{
    struct axl__loc *l = &b->loc[a->loc];
    if (b->rec_head || b->lost_status || l->ver != b->cur || l->xfer
#if AXL_FEATURE_GRAPHS
        || b->graph_ev
#endif
    )
        return false;
    if (writes(a->mode)) {
        l->ver = ++b->cur;
        b->written = true;
    }
    a->ver = l->ver;
    a->prev = a->next = 0;
    a->linked = 1;
    b->rec_head = b->rec_tail = id;
    b->nrec = 1;
    b->busy++;
    return true;
}

/* Edges to c from b's records, for accessor a, which copies the whole
 * buffer in from src when fill, through the host copy when bounce.
 * Host accessors first, so they always get a real edge (see the top of
 * this file). */
static void add_record_edges(struct axl__command *c,
                             const struct axl__access *a,
                             const struct axl__buffer *b, bool fill,
                             uint8_t src, bool bounce)
{
    const uint8_t loc = a->loc;
    for (int pass = 0; b->rec_head && pass < 2; pass++) {
        for (axl__rec r_id = b->rec_head; r_id;) {
            struct axl__access *x = rec_acc(r_id);
            struct axl__command *p = rec_cmd(r_id);
            r_id = x->next;
            if (p == c || (pass == 0) != !!(x->flags & AXL__ACC_HOST_ACCESS))
                continue;
            bool x_bounces = (x->flags & AXL__ACC_XFER) &&
                             x->src != AXL__LOC_HOST &&
                             x->loc != AXL__LOC_HOST;
            bool conflict =
                (x->flags & AXL__ACC_FENCE) ||
                /* the same bytes in the same memory, one writes */
                (x->loc == loc && overlaps(x, a) &&
                 (writes(a->mode) || writes(x->mode))) ||
                /* our copy in overwrites all of loc, and reads all of src */
                (fill && x->loc == loc) ||
                (src != AXL__NO_LOC && x->loc == src && writes(x->mode)) ||
                (bounce && x->loc == AXL__LOC_HOST) ||
                /* x's copy in reads all of its source: do not change it
                 * under x; x's bounce writes all of the host copy */
                ((x->flags & AXL__ACC_XFER) && x->src == loc &&
                 (writes(a->mode) || fill)) ||
                (x_bounces && loc == AXL__LOC_HOST);
            if (conflict)
                axl__add_dep(c, event_of(p), true);
        }
    }
}

#if AXL_FEATURE_GRAPHS
/* A graph's submission that uses the buffer and has not finished
 * (replay.c): after it, by an edge that only orders (coarse: whatever
 * the places), unless both only read it and the graph moves none of
 * it; what it lost is looked at at dispatch. */
static void order_after_graph(struct axl__command *c,
                              const struct axl__access *a,
                              const struct axl__buffer *b)
{
    if (b->graph_ev && (b->graph_writes || writes(a->mode))) {
        struct axl__event *ge =
            axl__pool_lookup_any(AXL__POOL(EVENT), b->graph_ev);
        if (ge && ge != event_of(c)) {
            axl__add_weak_dep(c, ge);
            c->flags |= AXL__CMD_AFTER_GRAPH;
        }
    }
}
#endif

/* Contents a failed command left unknown: fail the same way instead of
 * reading them, until something writes the whole buffer again. */
static void follow_lost_contents(struct axl__command *c,
                                 const struct axl__access *a,
                                 struct axl__buffer *b, bool discard)
{
    if (b->lost_status && !discard) {
        struct axl__event *e =
            axl__pool_lookup_any(AXL__POOL(EVENT), b->lost_event);
        if (e && e != event_of(c)) {
            axl__add_dep(c, e, true);
        } else if (!e && !c->dep_status) {
            c->dep_status = b->lost_status;
            c->dep_event = b->lost_event;
        }
    }
    /* Not while a hung unit's given-up run holds the buffer (cu.c): the
     * IP may write it after this write, so what it holds stays unknown
     * until that unit is back. */
    if (discard && writes(a->mode) && !(b->reserved && axl__held_by_hung(b)))
        b->lost_status = AXL_SUCCESS;
}

/* Data: make a's location hold the current version before the action,
 * copied in from src when fill (through the host copy when bounce). */
static void make_current(struct axl__command *c, struct axl__access *a,
                         struct axl__buffer *b, bool fill, uint8_t src,
                         bool bounce)
{
    const uint8_t loc = a->loc;
    if (!fill) {
        if (b->loc[loc].xfer) /* something still fills it */
            wait_for_fill(c, &b->loc[loc]);
        return;
    }
    uint32_t own = 0;
    if (src != AXL__NO_LOC) {
        /* The command fills loc: it is the one later users of loc
         * (and of the host copy it bounces through) wait for. */
        own = AXL__HANDLE(EVENT, event_of(c));
        a->flags |= AXL__ACC_XFER;
        c->flags |= AXL__CMD_XFER;
        a->src = src;
        wait_for_fill(c, &b->loc[src]);
        if (bounce) {
            b->loc[AXL__LOC_HOST].ver = b->cur;
            b->loc[AXL__LOC_HOST].xfer = own;
        }
    }
    /* No copy holds the contents a failure lost: the command fails
     * unrun (follow_lost_contents), and loc must not turn current by it
     * (issue 35: the host's older copy did, and was written back). */
    if (src != AXL__NO_LOC || !b->lost_status) {
        b->loc[loc].ver = b->cur;
        b->loc[loc].xfer = own;
    }
}

/* The record of a (id id) in b's list: prune what a write covers, fence
 * when the list is full. */
static void add_record(struct axl__command *c, struct axl__access *a,
                       struct axl__buffer *b, axl__rec id)
{
    if (writes(a->mode)) {
        for (axl__rec r_id = b->rec_head; r_id;) {
            struct axl__access *x = rec_acc(r_id);
            r_id = x->next;
            /* A record that also copies from elsewhere stands for a read of
             * that other location too, which `a` does not: keep it. */
            if (!(x->flags & (AXL__ACC_HOST_ACCESS | AXL__ACC_FENCE |
                              AXL__ACC_XFER)) &&
                x->loc == a->loc && covers(a, x))
                rec_unlink(b, x);
        }
    }
    if (b->nrec >= AXL_MAX_BUFFER_RECORDS) {
        c->flags |= AXL__CMD_BARRIER;
        a->flags |= AXL__ACC_FENCE;
        for (axl__rec r_id = b->rec_head; r_id;) {
            struct axl__access *x = rec_acc(r_id);
            r_id = x->next;
            if (!(x->flags & AXL__ACC_HOST_ACCESS))
                rec_unlink(b, x);
        }
    }
    rec_append(b, a, id);
    b->busy++;
}

/* Accessor a of command c (record id id), filled but for ver, prev and
 * next, on base buffer b: its edges, version and record. */
static void link_one(struct axl__command *c, struct axl__access *a,
                     struct axl__buffer *b, axl__rec id)
{
    if (link_sole(a, b, id))
        return;
    const uint8_t loc = a->loc;
    const bool discard = (a->flags & AXL__ACC_DISCARD) != 0;
    bool fill = !discard && b->loc[loc].ver != b->cur;
    uint8_t src = fill ? axl__pick_source(b, loc) : AXL__NO_LOC;
    bool bounce = src != AXL__NO_LOC && src != AXL__LOC_HOST &&
                  loc != AXL__LOC_HOST;

    add_record_edges(c, a, b, fill, src, bounce);
#if AXL_FEATURE_GRAPHS
    order_after_graph(c, a, b);
#endif
    follow_lost_contents(c, a, b, discard);
    if (!discard)
        make_current(c, a, b, fill, src, bounce);
    if (writes(a->mode)) {
        b->cur++;
        b->loc[loc].ver = b->cur;
        b->written = true;
    }
    a->ver = b->loc[loc].ver;
    add_record(c, a, b, id);
}

/* Accessor i of command c, whose record id is id; kind_flags: what every
 * accessor of a command of its kind has (a host accessor's). */
static inline void commit_one(struct axl__command *c, unsigned i, axl__rec id,
                              const struct axl__required *r,
                              uint8_t kind_flags, bool overwritten)
{
    struct axl__access *a = &c->acc[i];
    const struct axl__buffer *view = r->buf;
    uint8_t flags = kind_flags;
    if (r->flags & AXL_ACCESS_NO_INIT)
        flags |= AXL__ACC_NO_INIT;
    if (is_discard(r, view, r->base, overwritten))
        flags |= AXL__ACC_DISCARD;
    a->view = r->view;
    a->base = view->base;
    a->mode = r->mode;
    a->flags = flags;
    a->loc = r->loc;
    a->src = AXL__NO_LOC;
    /* The requisite is the whole view, whatever range the accessor has
     * (4.7.6.8: two ranged accessors of one buffer order "because the
     * requisites for the two commands are on the entire buffer"); only
     * disjoint sub-buffers, which are other buffers, do not order. */
    a->offset = view->offset;
    a->size = view->size;
    link_one(c, a, r->base, id);
}

void axl__access_commit(struct axl__command *c, uint16_t slot, axl_handler *h)
{
    const unsigned n = h->nacc;
    const uint8_t kind_flags =
        c->kind == AXL__CMD_HOST_ACCESS ? AXL__ACC_HOST_ACCESS : 0;
    const unsigned over = overwritten(h);
    const axl__rec first = (axl__rec)slot * AXL_MAX_ACCESSORS + 1;
    for (unsigned i = 0; i < n; i++)
        commit_one(c, i, first + i, &h->acc[i], kind_flags, i + 1u == over);
    c->nacc = (uint8_t)n;
    h->nacc = 0;
}

/* A command is done with its accesses (lock held). A failed command may
 * have left garbage where it wrote or filled: those locations lose their
 * version, and a failed write marks the buffer lost, so commands that use
 * it later fail with the same error instead of reading garbage (until one
 * writes all of it). */
void axl__access_finish(struct axl__command *c, bool failed)
{
    /* Only a command that fills a location (AXL__CMD_XFER) marks locations
     * with its event: without it, no location names it. */
    uint32_t own = c->flags & AXL__CMD_XFER ? AXL__HANDLE(EVENT, event_of(c))
                                            : 0;
    for (uint8_t i = 0; i < c->nacc; i++) {
        struct axl__access *a = &c->acc[i];
        struct axl__buffer *b = axl__buffer_at(a->base);
        if (a->linked) {
            if (a->prev || a->next) {
                rec_unlink(b, a);
            } else { /* the only record: rec_unlink, shorter */
                b->rec_head = b->rec_tail = 0;
                a->linked = 0;
                b->nrec--;
            }
        }
        /* Asked before the fills are undone: a write to a location this
         * command also filled (a write accessor that is not a discard)
         * loses the newest contents too (issue 35: the buffer was not
         * marked lost, and its release wrote an older copy back). */
        const bool lost =
            failed && writes(a->mode) && b->loc[a->loc].ver == a->ver;
        for (uint8_t l = 0; own && l < AXL__LOCS; l++) {
            struct axl__loc *loc = &b->loc[l];
            if (loc->xfer == own) {
                loc->xfer = 0;
                if (failed)
                    loc->ver = AXL__VER_NONE;
            }
        }
#if AXL_FEATURE_GRAPHS
        /* The version it made is lost, whatever was committed since: a
         * graph's submission committed after it reads it (replay.c). */
        if (failed && writes(a->mode)) {
            b->lost_ver = a->ver;
            b->lost_ver_status = event_of(c)->status;
            b->lost_ver_event = AXL__HANDLE(EVENT, event_of(c));
        }
#endif
        if (lost) {
            b->loc[a->loc].ver = AXL__VER_NONE;
            b->lost_status = event_of(c)->status;
            b->lost_event = AXL__HANDLE(EVENT, event_of(c));
            /* Its queue and context: where the buffer's release reports
             * that nothing could be written back (4.7.2.3). Kept here, on
             * the failure path, not at every commit. */
            b->lost_queue = event_of(c)->queue;
            b->lost_context =
                c->queue == AXL__NO_QUEUE
                    ? 0
                    : axl__pool_slot_handle(AXL__POOL(CONTEXT),
                                            axl__queue_at(c->queue)->context);
        }
        b->busy--;
        axl__buffer_unhold(axl__buffer_at(a->view));
    }
    c->nacc = 0;
}

/* A host accessor's copy is in place once it starts: later readers need not
 * wait for its release (lock held). */
void axl__access_started(struct axl__command *c)
{
    uint32_t own = AXL__HANDLE(EVENT, event_of(c));
    for (uint8_t i = 0; i < c->nacc; i++) {
        struct axl__buffer *b = axl__buffer_at(c->acc[i].base);
        for (uint8_t l = 0; l < AXL__LOCS; l++)
            if (b->loc[l].xfer == own)
                b->loc[l].xfer = 0;
    }
}

#if AXL_FEATURE_GRAPHS
/* ---- A graph's submission (replay.c) --------------------------------------------- */

/* Whether buffer b is quiet at location loc for a graph's submission: no
 * command uses it, no graph's submission is pending on it, it is not
 * lost, and loc holds its current version with nothing filling it. A
 * chain of replays, each waited for, finds every buffer so: nothing to
 * order after and nothing to move in. */
static inline bool quiet_for_graph(const struct axl__buffer *b, uint8_t loc)
{
    const struct axl__loc *at = &b->loc[loc];
    return !b->rec_head && !b->graph_ev && !b->lost_status &&
           at->ver == b->cur && !at->xfer;
}

/* Plan buffer pb's buffer b when it is not quiet (quiet_for_graph): c
 * after the commands using it (records at another place, or that write,
 * or a fence), the last graph's submission, and what fills its
 * locations, by edges that only order; which locations hold the current
 * version once those are done, and whether it was lost (sn); and whether
 * the submission moves it (*moves) or reads it lost (*any_lost). */
AXL__COLD static void commit_busy_buf(struct axl__command *c,
                                      const struct axl__plan_buf *pb,
                                      struct axl__buffer *b,
                                      struct axl__plan_seen *sn, bool *moves,
                                      bool *any_lost)
{
    const uint8_t loc = pb->loc_out;
    const bool w = (pb->flags & AXL__PB_WRITES) != 0;
    const bool discard = (pb->flags & AXL__PB_DISCARD_FIRST) != 0;
    for (axl__rec r = b->rec_head; r;) {
        const struct axl__access *x = rec_acc(r);
        struct axl__command *pc = rec_cmd(r);
        r = x->next;
        if ((x->flags & AXL__ACC_FENCE) || x->loc != loc || w ||
            writes(x->mode))
            axl__add_weak_dep(c, event_of(pc));
    }
    if (b->graph_ev) {
        struct axl__event *ge =
            axl__pool_lookup_any(AXL__POOL(EVENT), b->graph_ev);
        if (ge)
            axl__add_weak_dep(c, ge);
    }
    /* What each location holds once those are done: the current version,
     * or it is filled by one of them. */
    sn->mask = 0;
    for (uint8_t l = 0; l < AXL__LOCS; l++) {
        struct axl__loc *at = &b->loc[l];
        if (l == AXL__LOC_HOST ? !b->host : !AXL__IS_REF(at->device))
            continue;
        if (at->xfer) {
            struct axl__event *fe =
                axl__pool_lookup_any(AXL__POOL(EVENT), at->xfer);
            if (fe)
                axl__add_weak_dep(c, fe);
        }
        if (at->ver == b->cur)
            sn->mask |= (uint8_t)(1u << l);
    }
    if (!discard && b->lost_status) {
        sn->lost = (int16_t)b->lost_status;
        sn->lost_event = b->lost_event ? b->lost_event : 1u;
        *any_lost = true;
    }
    if (!discard && !(sn->mask & (1u << pb->loc_first)))
        *moves = true;
}

void axl__access_commit_graph(struct axl__command *c, struct axl__plan *p)
{
    const uint32_t self = AXL__HANDLE(EVENT, event_of(c));
    /* What it finds is its own: kept in the command when it fits, since a
     * submission of the graph still pending reads the plan's; else (none
     * pending: graph.c waits for them) written into the plan. */
    const bool kept = p->nbufs <= AXL__REPLAY_SEEN;
    struct axl__plan_seen *seen = kept ? c->u.replay.seen : NULL;
    bool moves = false, any_lost = false;
    for (uint32_t i = 0; i < p->nbufs; i++) {
        const struct axl__plan_buf *pb = &p->buf[i];
        struct axl__buffer *b = axl__buffer_at(pb->base);
        const uint8_t loc = pb->loc_out;
        const bool w = (pb->flags & AXL__PB_WRITES) != 0;
        /* What it finds, written where it is kept. A quiet buffer is
         * current at loc_out (its mask), not lost, and waits for nothing:
         * the rest only for one that is not. */
        struct axl__plan_seen out;
        struct axl__plan_seen *sn = seen ? &seen[i] : &out;
        sn->lost_event = 0;
        sn->lost = AXL_SUCCESS;
        sn->mask = (uint8_t)(1u << loc);
        bool gw = (pb->flags & (AXL__PB_WRITES | AXL__PB_MULTI_LOC)) != 0;
        if (!quiet_for_graph(b, loc)) {
            commit_busy_buf(c, pb, b, sn, &moves, &any_lost);
            /* A reader after it waits for it when it writes the buffer or
             * moves it (where its last node has it is not current yet),
             * or when it waits for a graph that does. */
            gw = gw || (b->graph_ev && b->graph_writes) ||
                 (!(pb->flags & AXL__PB_DISCARD_FIRST) &&
                  !(sn->mask & (1u << loc)));
        }
        if (pb->flags & AXL__PB_MULTI_LOC)
            moves = true; /* used at two places: moved between */
        /* Its versions: the place it leaves it at is current after it. */
        if (w) {
            b->cur++;
            b->written = true;
            /* A graph that writes all of it first leaves it sound (not
             * while a hung unit's given-up run holds it: cu.c). */
            if (b->lost_status && (pb->flags & AXL__PB_DISCARD_FIRST) &&
                !(b->reserved && axl__held_by_hung(b)))
                b->lost_status = AXL_SUCCESS;
        }
        b->graph_writes = gw;
        b->loc[loc].ver = b->cur;
        sn->ver_made = b->cur;
        b->graph_ev = self;
        b->busy++;
        b->holds++;
        if (!kept)
            axl__plan_seen_put(p, i, sn);
    }
    if (kept) {
        c->u.replay.moves = moves;
        c->u.replay.any_lost = any_lost;
    } else {
        p->moves = moves;
        p->any_lost = any_lost;
    }
    c->nacc = 0;
}

void axl__access_finish_graph(struct axl__command *c, struct axl__plan *p)
{
    const struct axl__event *e = event_of(c);
    const uint32_t self = AXL__HANDLE(EVENT, e);
    const axl__exec *x = &p->x;
    if (x->status != AXL_SUCCESS || p->any_lost) {
        /* What each buffer holds after the nodes, in order, from what it
         * held before them (lost_event: it was lost then): a failed or
         * skipped node lost what it writes; a later node that writes all
         * of it without reading it (and ran) makes it sound again. */
        for (uint32_t i = 0; i < p->nbufs; i++)
            if (!p->buf[i].lost_event)
                p->buf[i].lost = AXL_SUCCESS;
        for (uint32_t n = 0; n < p->nnodes; n++) {
            const struct axl__graph_node *gn =
                axl__graph_node_deref(p->node[n]);
            const bool failed = axl__exec_failed(x, n);
            for (uint8_t k = 0; k < gn->nacc; k++) {
                const struct axl__required *r = &gn->h.acc[k];
                if (!writes(r->mode))
                    continue;
                struct axl__plan_buf *pb =
                    &p->buf[p->pbuf[n * AXL_MAX_ACCESSORS + k]];
                if (failed)
                    pb->lost = axl__exec_status(x, n);
                else if (!(r->mode & AXL_ACCESS_READ) &&
                         gn->span[k].lo == 0 &&
                         gn->span[k].hi == axl__buffer_at(pb->base)->size)
                    pb->lost = AXL_SUCCESS;
            }
        }
    }
    for (uint32_t i = 0; i < p->nbufs; i++) {
        struct axl__plan_buf *pb = &p->buf[i];
        struct axl__buffer *b = axl__buffer_at(pb->base);
        if (b->graph_ev == self) {
            b->graph_ev = 0;
            b->graph_writes = false;
        }
        if (pb->lost_event && !pb->lost && b->lost_status &&
            b->loc[pb->loc_out].ver == pb->ver_made &&
            !(b->reserved && axl__held_by_hung(b)))
            b->lost_status = AXL_SUCCESS; /* its nodes wrote all of it */
        if (p->moves && pb->now && !(pb->now >> pb->loc_out & 1u) &&
            b->loc[pb->loc_out].ver == pb->ver_made) {
            /* Not moved to where its last node has it (replay.c's
             * final_moves failed): current where it is. */
            b->loc[pb->loc_out].ver = AXL__VER_NONE;
            for (uint8_t l = 0; l < AXL__LOCS; l++)
                if (pb->now >> l & 1u)
                    b->loc[l].ver = pb->ver_made;
        }
        if (x->status != AXL_SUCCESS && pb->lost &&
            (pb->flags & AXL__PB_WRITES)) {
            b->lost_ver = pb->ver_made;
            b->lost_ver_status = pb->lost;
            b->lost_ver_event = self;
            if (b->loc[pb->loc_out].ver == pb->ver_made) {
                /* Nothing was committed since: lost as a failed command
                 * leaves what it wrote (axl__access_finish). */
                b->loc[pb->loc_out].ver = AXL__VER_NONE;
                b->lost_status = pb->lost;
                b->lost_event = self;
                b->lost_queue = e->queue;
                b->lost_context =
                    axl__pool_slot_handle(AXL__POOL(CONTEXT),
                                          axl__queue_at(c->queue)->context);
            }
        }
        b->busy--;
        axl__buffer_unhold(b);
    }
}
#endif
