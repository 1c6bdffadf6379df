/*
 * plan.c - an executable graph written down as a plan (axl/plan.h): C
 * source of const tables that the executor (xrt/mmio/fw_exec.c) replays on a
 * board, written here, on the host, from a graph finalize laid out.
 *
 * Everything is read under the runtime lock from what finalize checked
 * and laid out (graph_priv.h): the nodes in recording order (which
 * respects the edges), each one's laid-out predecessors, its checked
 * kernel arguments (in the kernel id's order, as a launch gives them) and
 * the banks its buffers are in. Only the units are chosen here
 * (choose_units), once, by the rule plan.h states. Every check comes
 * before the first character (gather), so a refused graph leaves dst as
 * it was; the text then goes straight into dst through axl_vformat:
 * nothing is allocated, and a call with cap 0 only measures.
 */
#include <stdarg.h>
#include <string.h>

#include "axl/plan.h"
#include "rt.h"
#include "cu.h"
#include "device_priv.h"
#include "buffer_priv.h"
#include "sched_priv.h"
#include "handler_priv.h"
#include "kernel.h"
#include "graph_priv.h"
#include "image.h"
#include "devops.h"
#include "replay.h"
#if AXL_FEATURE_STREAMS
#include "pipeline_priv.h"
#endif

#if AXL_FEATURE_GRAPHS

/* ---- Building a plan at finalize (replay.h) -------------------------------- */

/* Not static: axl__plan_owns (replay.h) is inline. */
_Alignas(16) unsigned char axl__plan_table_bytes[AXL_GRAPH_TABLE_BYTES];
#define table_bytes axl__plan_table_bytes
/* One block per executable graph, and one more while an update builds a
 * new plan beside the old. */
static axl_arena_block table_blocks[AXL_MAX_GRAPH_EXECS + 1];

/* The build's scratch (lock held): per base buffer slot, its plan buffer
 * + 1 and its live accesses (a record id, as rec_next). */
static uint16_t pbuf_of[AXL_MAX_BUFFERS];
static uint32_t live_head[AXL_MAX_BUFFERS];

#define REC(n, i) ((uint32_t)AXL__SLOT(GRAPH_NODE, (n)) * AXL_MAX_ACCESSORS + (i) + 1u)
#define REC_NODE(r) axl__graph_node_at((uint16_t)(((r) - 1u) / AXL_MAX_ACCESSORS))
#define REC_ACC(r) (((r) - 1u) % AXL_MAX_ACCESSORS)

static inline struct axl__graph_node *next_node(axl__graph_node_ref r)
{
    return AXL__IS_REF(r) ? axl__graph_node_deref(r) : NULL;
}

/* A kernel node's runs: a recorded parallel_for's chunks, else one. */
static uint32_t node_runs(const struct axl__graph_node *n)
{
    return n->split.chunks > 1 ? n->split.chunks : 1u;
}

/* What a node is, as an executor sees it. */
static uint8_t node_kind(const struct axl__graph_node *n)
{
    switch (n->h.kind) {
    case AXL__CMD_KERNEL:
        return AXL_PLAN_NODE_KERNEL;
    case AXL__CMD_EMPTY:
        return AXL_PLAN_NODE_EMPTY;
    case AXL__CMD_PIPE_START:
        return AXL_PLAN_NODE_PIPE_START;
    case AXL__CMD_PIPE_STOP:
        return AXL_PLAN_NODE_PIPE_STOP;
    default:
        return AXL_PLAN_NODE_HOST;
    }
}

/* Whether accessor i of a and accessor j of b (of one base buffer) must be
 * ordered: the same bytes, one writes; or two places (a base buffer is
 * used at one place at a time: its moves are whole). */
static bool conflict(const struct axl__graph_node *a, unsigned i,
                     const struct axl__graph_node *b, unsigned j)
{
    const struct axl__graph_span *x = &a->span[i], *y = &b->span[j];
    if (a->h.acc[i].loc != b->h.acc[j].loc)
        return true;
    return (x->writes || y->writes) && x->lo < y->hi && y->lo < x->hi;
}

/*
 * The edges of x's nodes, as access.c finds a command's among the
 * records of its buffers: per base buffer the accesses later ones order
 * after (the last writes and the reads since, a write pruning the
 * accesses at its place it covers), and the recorded edges. Counted
 * (preds NULL) or written; each node's edges once, in order.
 */
static uint32_t edges(struct axl__graph_exec *x, uint16_t *preds)
{
    uint32_t total = 0;
    for (struct axl__graph_node *n = next_node(x->head); n;
         n = next_node(n->next)) {
        n->mark = 0;
        for (uint8_t i = 0; i < n->nacc; i++)
            live_head[n->span[i].base] = 0;
    }
    for (struct axl__graph_node *n = next_node(x->head); n;
         n = next_node(n->next)) {
        const uint16_t me = (uint16_t)(n->index + 1u);
        uint32_t k = 0;
#define EDGE(m)                                                                \
    do {                                                                       \
        struct axl__graph_node *m_ = (m);                                      \
        if (m_->mark != me) {                                                  \
            m_->mark = me;                                                     \
            if (preds)                                                         \
                preds[total + k] = m_->index;                                  \
            k++;                                                               \
        }                                                                      \
    } while (0)
        for (uint8_t d = 0; d < n->ndeps; d++)
            for (struct axl__graph_node *m = next_node(x->head); m;
                 m = next_node(m->next))
                if (m->index == n->deps[d]) {
                    EDGE(m);
                    break;
                }
        for (uint8_t i = 0; i < n->nacc; i++)
            for (uint32_t r = live_head[n->span[i].base]; r;) {
                struct axl__graph_node *m = REC_NODE(r);
                const unsigned j = REC_ACC(r);
                r = m->rec_next[j];
                if (m != n && conflict(n, i, m, j))
                    EDGE(m);
            }
#undef EDGE
        /* Then its own accesses: a write drops the ones at its place that
         * it covers (later accesses reach them through it). */
        for (uint8_t i = 0; i < n->nacc; i++) {
            const struct axl__graph_span *s = &n->span[i];
            uint32_t *at = &live_head[s->base];
            while (*at) {
                struct axl__graph_node *m = REC_NODE(*at);
                const unsigned j = REC_ACC(*at);
                const struct axl__graph_span *o = &m->span[j];
                if (s->writes && m != n &&
                    m->h.acc[j].loc == n->h.acc[i].loc && s->lo <= o->lo &&
                    o->hi <= s->hi)
                    *at = m->rec_next[j];
                else
                    at = &m->rec_next[j];
            }
            n->rec_next[i] = 0;
            *at = REC(n, i);
        }
        n->plan_npreds = (uint16_t)k;
        total += k;
    }
    return total;
}

/* Whether node n's accessor i writes all of base buffer b without
 * reading it: no_init over the whole buffer, or a fill or copy in that
 * overwrites it all (as access.c's is_discard says). */
bool axl__node_discards(const struct axl__graph_node *n, unsigned i,
                        const struct axl__buffer *b)
{
    const struct axl__required *r = &n->h.acc[i];
    const bool over = (n->h.kind == AXL__CMD_FILL ||
                       n->h.kind == AXL__CMD_COPY_FROM_HOST) &&
                      n->h.a0 == i + 1u;
    return (r->mode & AXL_ACCESS_WRITE) && !(r->mode & AXL_ACCESS_READ) &&
           ((r->flags & AXL_ACCESS_NO_INIT) || over) &&
           n->span[i].lo == 0 && n->span[i].hi == b->size;
}

/* The plan buffers of x's nodes, in the order the nodes first use them;
 * counted, or filled into buf with each accessor's (pbuf). */
static uint32_t plan_buffers(struct axl__graph_exec *x,
                             struct axl__plan_buf *buf, uint16_t *pbuf)
{
    for (struct axl__graph_node *n = next_node(x->head); n;
         n = next_node(n->next))
        for (uint8_t i = 0; i < n->nacc; i++)
            pbuf_of[n->span[i].base] = 0;
    uint32_t nb = 0;
    const struct axl__device *d = axl__device_at(x->device);
    for (struct axl__graph_node *n = next_node(x->head); n;
         n = next_node(n->next))
        for (uint8_t i = 0; i < n->nacc; i++) {
            const uint16_t base = n->span[i].base;
            const struct axl__required *r = &n->h.acc[i];
            if (!pbuf_of[base]) {
                pbuf_of[base] = (uint16_t)++nb;
                if (buf) {
                    struct axl__plan_buf *b = &buf[nb - 1u];
                    memset(b, 0, sizeof *b);
                    b->base = base;
                    b->loc_first = r->loc;
                    b->dev_bank = n->span[i].bank;
                    const struct axl__buffer *bb = axl__buffer_at(base);
                    const uint8_t l = axl__device_loc(bb, x->device);
                    if (b->dev_bank == UINT32_MAX && l != AXL__NO_LOC)
                        b->dev_bank = bb->loc[l].mem.bank;
                    (void)d;
                    if (axl__node_discards(n, i, bb))
                        b->flags |= AXL__PB_DISCARD_FIRST;
                }
            }
            if (!buf)
                continue;
            const uint16_t k = (uint16_t)(pbuf_of[base] - 1u);
            pbuf[n->index * AXL_MAX_ACCESSORS + i] = k;
            struct axl__plan_buf *b = &buf[k];
            if (b->locs && !(b->locs & (1u << r->loc)))
                b->flags |= AXL__PB_MULTI_LOC;
            b->locs |= (uint8_t)(1u << r->loc);
            b->loc_out = r->loc;
            b->mode |= r->mode;
            if (r->mode & AXL_ACCESS_READ)
                b->flags |= AXL__PB_READS;
            if (r->mode & AXL_ACCESS_WRITE)
                b->flags |= AXL__PB_WRITES;
        }
    return nb;
}

/* Whether unit cu reaches the bank of every buffer argument of node n
 * (cu->banks is in the kernel id's argument order, as n's arguments). */
static bool unit_reaches(const struct axl__cu *cu,
                         const struct axl__graph_node *n)
{
    for (uint8_t m = 0; m < n->h.u.kernel.nargs; m++) {
        const struct axl__karg *a = &n->h.u.kernel.args[m];
        if (!a->acc)
            continue;
        uint32_t bank = n->span[a->acc - 1].bank;
        if (bank >= 64 || !(cu->banks[m] >> bank & 1))
            return false;
    }
    return true;
}

/*
 * Each run's unit, by plan.h's rule: of the kernel's units (those its
 * kernel object may use) that reach the run's buffers' banks, the first
 * that no run it could run beside was given, else the one such runs were
 * given least. Runs are taken in order, so "beside" means the earlier
 * runs of nodes that are not its node's ancestors (and the earlier runs
 * of its own node). The ancestors of node i are found walking back over
 * the successor lists, as a bit set in the (idle) ready words.
 */
static void choose_units(struct axl__plan *p, const struct axl__graph_exec *x)
{
    const struct axl__device *d = axl__device_at(x->device);
    uint32_t *anc = p->x.ready;
    /* Only its design's units: a slot's, on a shell (its kernel indexes
     * are its image's, and the static part's units have the same). */
    uint8_t lo, hi;
#if AXL_FEATURE_DESIGN_SWAP
    axl__region_units(d, p->region, &lo, &hi);
#else
    axl__region_units(d, 0, &lo, &hi);
#endif
    for (uint32_t i = 0; i < p->nnodes; i++) {
        if (p->nodes[i].kind != AXL_PLAN_NODE_KERNEL)
            continue;
        memset(anc, 0, p->g.words * sizeof *anc);
        anc[i >> 5] |= 1u << (i & 31u);
        for (uint32_t j = i; j-- > 0;)
            for (uint32_t k = p->g.succ0[j]; k < p->g.succ0[j + 1u]; k++) {
                const uint32_t s = p->g.succ[k];
                if (anc[s >> 5] >> (s & 31u) & 1u) {
                    anc[j >> 5] |= 1u << (j & 31u);
                    break;
                }
            }
        const struct axl__graph_node *n = axl__graph_node_deref(p->node[i]);
        const struct axl__kernel_id *kid = axl__kernel_id_at(n->h.u.kernel.kid);
        const struct axl__kernel *kn = axl__kernel_at(n->h.u.kernel.kernel);
        for (uint32_t r = 0; r < p->nodes[i].nruns; r++) {
            struct axl__plan_run *run = &p->run[p->nodes[i].run0 + r];
            uint16_t given[AXL_MAX_DEVICE_CUS];
            memset(given, 0, sizeof given);
            for (uint32_t e = 0; e < p->nodes[i].run0 + r; e++) {
                const uint32_t j = p->run[e].node;
                if ((j == i || !(anc[j >> 5] >> (j & 31u) & 1u)) &&
                    p->run[e].cu < AXL_MAX_DEVICE_CUS)
                    given[p->run[e].cu]++;
            }
            int best = -1;
            for (uint8_t c = lo; c < hi; c++) {
                const struct axl__cu *cu = &d->cus[c];
                if (cu->kernel_index != kid->index ||
                    !axl__kernel_may_use(kn, cu) || !unit_reaches(cu, n))
                    continue;
                if (best < 0 || given[c] < given[best])
                    best = c;
            }
            run->cu = best < 0 ? 0xFFu : (uint8_t)best;
        }
    }
    memset(anc, 0, p->g.words * sizeof *anc);
}

/*
 * Drops the edges another path implies (a chain over the same buffers
 * waits for its previous node only): node by node, its predecessors from
 * the nearest, each kept unless a nearer kept one already reaches it; the
 * ones a kept predecessor reaches are marked (a bit set in the idle ready
 * words) walking the earlier nodes' kept edges (a stack in the idle
 * waiting counts). Fewer edges are fewer counts per replay; the order and
 * what a failure skips are the same. Each node's kept edges stay in
 * p->preds, nearest first.
 */
static void reduce(struct axl__plan *p)
{
    uint32_t *mark = p->x.ready;
    uint16_t *stack = p->x.waiting;
    uint32_t out = 0;
    for (uint32_t i = 0; i < p->nnodes; i++) {
        axl_plan_node *nd = &p->nodes[i];
        uint16_t *pr = &p->preds[nd->pred0];
        const uint32_t k = nd->npreds;
        for (uint32_t a = 1; a < k; a++) /* nearest first */
            for (uint32_t b = a; b > 0 && pr[b - 1u] < pr[b]; b--) {
                const uint16_t t = pr[b];
                pr[b] = pr[b - 1u];
                pr[b - 1u] = t;
            }
        memset(mark, 0, p->g.words * sizeof *mark);
        const uint32_t first = out;
        for (uint32_t e = 0; e < k; e++) {
            const uint32_t q = pr[e];
            if (mark[q >> 5] >> (q & 31u) & 1u)
                continue; /* a nearer kept edge reaches it */
            p->preds[out++] = (uint16_t)q;
            uint32_t top = 0;
            stack[top++] = (uint16_t)q;
            mark[q >> 5] |= 1u << (q & 31u);
            while (top) {
                const axl_plan_node *m = &p->nodes[stack[--top]];
                for (uint32_t f = 0; f < m->npreds; f++) {
                    const uint32_t a = p->preds[m->pred0 + f];
                    if (mark[a >> 5] >> (a & 31u) & 1u)
                        continue;
                    mark[a >> 5] |= 1u << (a & 31u);
                    stack[top++] = (uint16_t)a;
                }
            }
        }
        nd->pred0 = (uint16_t)first;
        nd->npreds = (uint16_t)(out - first);
    }
    p->npreds = out;
    memset(mark, 0, p->g.words * sizeof *mark);
    memset(stack, 0, p->nnodes * sizeof *stack);
}

/* Run r of a recorded parallel_for's node n (its arguments as the whole
 * node's): its chunk's part of each split buffer, its first item and
 * count in its own bytes (parallel.c's cut). */
static void split_run(struct axl__plan_run *run,
                      const struct axl__graph_node *n, uint32_t r)
{
    const struct axl__graph_split *sp = &n->split;
    uint64_t first, count;
    axl__split_chunk(sp->range, sp->granule, sp->chunks, r, &first, &count);
    for (uint8_t m = 0; m < run->nargs; m++) {
        const struct axl__karg *a = &n->h.u.kernel.args[m];
        axl_hal_arg *g = &run->args[m];
        const uint64_t v[2] = {first, count};
        for (unsigned k = 0; k < 2; k++) {
            const int32_t id = k ? sp->count_id : sp->offset_id;
            const unsigned size = k ? sp->count_size : sp->offset_size;
            if (a->acc || (int32_t)a->id != id)
                continue;
            unsigned char *own = run->own + 8u * k;
            if (size == 4) {
                const uint32_t v32 = (uint32_t)v[k];
                memcpy(own, &v32, 4);
            } else {
                memcpy(own, &v[k], 8);
            }
            g->value = own;
        }
        for (uint8_t s = 0; a->acc && s < sp->nsplit; s++)
            if (sp->split_id[s] == a->id) {
                const uint64_t per = g->size / sp->range; /* an item's */
                g->offset += first * per;
                g->size = count * per;
            }
    }
}

/*
 * Each run's hal run as far as it stays from one submission to the next
 * (the port gets it as is; axl__plan_bind adds its unit, replay.c its
 * timeout, args_id and unit handle): the kernel's image and name, the
 * arguments as cu.c's fill_args gives a launch's, a scalar pointing at
 * the node's own bytes (an update writes there), a buffer at its base's
 * copy where the node uses it, from its view's offset. Also the graph's
 * kernels once each (a submission holds them).
 */
static void prepare_runs(struct axl__plan *p, const struct axl__graph_exec *x)
{
    uint32_t a0 = 0;
    for (uint32_t i = 0; i < p->nnodes; i++) {
        const axl_plan_node *nd = &p->nodes[i];
        if (nd->kind != AXL_PLAN_NODE_KERNEL)
            continue;
        const struct axl__graph_node *n = axl__graph_node_deref(p->node[i]);
        const struct axl__kernel_id *kid = axl__kernel_id_at(n->h.u.kernel.kid);
        uint16_t k = 0;
        while (k < p->nkernels && p->kernels[k] != n->h.u.kernel.kernel)
            k++;
        if (k == p->nkernels)
            p->kernels[p->nkernels++] = n->h.u.kernel.kernel;
        for (uint32_t r = 0; r < nd->nruns; r++) {
            struct axl__plan_run *run = &p->run[nd->run0 + r];
            run->plan = p;
            run->node = (uint16_t)i;
            run->kernel = n->h.u.kernel.kernel;
            run->nargs = n->h.u.kernel.nargs;
            run->args = p->args + a0;
            run->bases = p->bases + a0;
            a0 += run->nargs;
            axl_hal_run *h = &run->hal;
            h->token = run;
            h->image = &axl__image_at(kid->image)->x;
            h->kernel_index = kid->index;
            h->kernel_name = kid->name;
            h->arg_count = run->nargs;
            h->args = run->args;
            h->range = (axl_range){1, {1, 1, 1}};
            for (uint8_t m = 0; m < run->nargs; m++) {
                const struct axl__karg *a = &n->h.u.kernel.args[m];
                axl_hal_arg *g = &run->args[m];
                g->id = a->id;
                if (a->acc) {
                    const uint8_t acc = a->acc - 1u;
                    const struct axl__buffer *view =
                        axl__buffer_at(AXL__HANDLE_SLOT(n->bufs[acc]));
                    struct axl__buffer *base = axl__buffer_base(view);
                    g->is_mem = 1;
                    g->mem = &base->loc[n->h.acc[acc].loc].mem;
                    g->offset = view->offset;
                    g->size = view->size;
                    g->value = NULL;
                    g->access = n->h.acc[acc].mode;
                    run->bases[m] = view->base;
                } else {
                    g->is_mem = 0;
                    g->mem = NULL;
                    g->offset = 0;
                    g->size = a->size;
                    g->value = n->h.kbytes + a->off;
                    g->access = 0;
                    run->bases[m] = UINT16_MAX;
                }
            }
            if (nd->nruns > 1)
                split_run(run, n, r);
        }
    }
    (void)x;
}

void axl__plan_bind(struct axl__plan *p, const struct axl__graph_exec *x)
{
    const struct axl__device *d = axl__device_at(x->device);
    choose_units(p, x);
    for (uint32_t r = 0; r < p->nruns; r++) {
        struct axl__plan_run *run = &p->run[r];
        if (run->cu == 0xFFu)
            continue;
        run->hal.cu = d->cus[run->cu].ordinal;
        run->hal.ip_index = axl__unit_number(d, run->cu);
    }
}

/* The block's layout: each table after the last, aligned; with base NULL
 * only its size. */
static size_t take(size_t *at, size_t bytes, size_t align, void **out,
                   unsigned char *base)
{
    *at = (*at + align - 1u) & ~(align - 1u);
    if (out)
        *out = base ? base + *at : NULL;
    *at += bytes;
    return *at;
}
#define TAKE(at, base, ptr, n)                                                 \
    take(&(at), sizeof *(ptr) * (size_t)(n), _Alignof(__typeof__(*(ptr))),    \
         (void **)&(ptr), (base))

static size_t layout(struct axl__plan **pp, unsigned char *base,
                     uint32_t nn, uint32_t nr, uint32_t ne, uint32_t nb,
                     uint32_t na)
{
    const uint32_t words = (nn + 31u) / 32u;
    size_t at = 0;
    struct axl__plan *p;
    TAKE(at, base, p, 1);
    struct axl__plan q;
    struct axl__plan *t = base ? p : &q;
    TAKE(at, base, t->nodes, nn);
    TAKE(at, base, t->preds, ne ? ne : 1u);
    TAKE(at, base, t->run, nr ? nr : 1u);
    TAKE(at, base, t->args, na ? na : 1u);
    TAKE(at, base, t->bases, na ? na : 1u);
    TAKE(at, base, t->kernels, nr ? nr : 1u);
    TAKE(at, base, t->buf, nb ? nb : 1u);
    TAKE(at, base, t->pbuf, (size_t)(nn ? nn : 1u) * AXL_MAX_ACCESSORS);
    TAKE(at, base, t->node, nn ? nn : 1u);
    uint16_t *succ0, *succ;
    uint32_t *roots;
    TAKE(at, base, succ0, nn + 1u);
    TAKE(at, base, succ, ne ? ne : 1u);
    TAKE(at, base, roots, words ? words : 1u);
    TAKE(at, base, t->x.ready, words ? words : 1u);
    TAKE(at, base, t->x.doomed, words ? words : 1u);
    TAKE(at, base, t->x.failed, words ? words : 1u);
    TAKE(at, base, t->x.ended, words ? words : 1u);
    TAKE(at, base, t->x.waiting, nn ? nn : 1u);
    TAKE(at, base, t->x.next_run, nn ? nn : 1u);
    TAKE(at, base, t->x.runs_left, nn ? nn : 1u);
    TAKE(at, base, t->x.node_st, nn ? nn : 1u);
    TAKE(at, base, t->x.why, AXL_EXEC_WHYS);
    TAKE(at, base, t->x.why_node, AXL_EXEC_WHYS);
    if (base) {
        t->g.succ0 = succ0;
        t->g.succ = succ;
        t->g.roots = roots;
        *pp = p;
    }
    return at;
}

void axl__plan_free_block(struct axl__plan *p)
{
    axl_arena_free(&axl__rt.graph_tables, p->offset);
}

void axl__plan_free(struct axl__graph_exec *x)
{
    if (!x->plan)
        return;
    axl__plan_free_block(x->plan);
    x->plan = NULL;
}

axl_status axl__plan_build(const char *fn, struct axl__graph_exec *x)
{
    axl_arena *a = &axl__rt.graph_tables;
    if (!a->base)
        axl_arena_init(a, table_bytes, sizeof table_bytes, 16, table_blocks,
                       sizeof table_blocks / sizeof table_blocks[0]);
    /* The counts: nodes, kernel runs, edges, buffers. */
    const uint32_t nn = x->nnodes;
    uint32_t nr = 0, na = 0;
    for (struct axl__graph_node *n = next_node(x->head); n;
         n = next_node(n->next))
        if (node_kind(n) == AXL_PLAN_NODE_KERNEL) {
            nr += node_runs(n);
            na += n->h.u.kernel.nargs * node_runs(n);
        }
    const uint32_t ne = edges(x, NULL);
    const uint32_t nb = plan_buffers(x, NULL, NULL);
    if (ne > UINT16_MAX || nr > UINT16_MAX)
        return axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                         "the graph has %u edges and %u kernel runs; a plan "
                         "holds 65535 of each",
                         (unsigned)ne, (unsigned)nr);
    const size_t bytes = layout(NULL, NULL, nn, nr, ne, nb, na);
    uint64_t off;
    if (bytes > UINT32_MAX ||
        axl_arena_alloc(a, bytes, &off) != AXL_SUCCESS) {
        char need[32], room[32];
        return axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                         "the graph's plan takes %s, and the graph tables "
                         "have %s free of AXL_GRAPH_TABLE_BYTES (%u): raise "
                         "it in the board header",
                         axl_bytes(need, sizeof need, bytes),
                         axl_bytes(room, sizeof room,
                                   axl_arena_largest_free(a)),
                         (unsigned)AXL_GRAPH_TABLE_BYTES);
    }
    unsigned char *base = table_bytes + off;
    memset(base, 0, bytes);
    struct axl__plan *p = NULL;
    layout(&p, base, nn, nr, ne, nb, na);
    p->offset = off;
    p->bytes = (uint32_t)bytes;
    p->nnodes = nn;
    p->nruns = nr;
    p->npreds = ne;
    p->nbufs = nb;
    (void)edges(x, p->preds);
    (void)plan_buffers(x, p->buf, p->pbuf);
    uint32_t pred0 = 0, run0 = 0, i = 0;
    for (struct axl__graph_node *n = next_node(x->head); n;
         n = next_node(n->next), i++) {
        axl_plan_node *nd = &p->nodes[i];
        p->node[i] = axl__graph_node_ref_of(n);
        nd->kind = node_kind(n);
        nd->pred0 = (uint16_t)pred0;
        nd->npreds = n->plan_npreds;
        pred0 += n->plan_npreds;
        nd->kernel = NULL;
        if (nd->kind != AXL_PLAN_NODE_KERNEL)
            continue;
        nd->kernel = axl__kernel_id_at(n->h.u.kernel.kid)->name;
        nd->nargs = n->h.u.kernel.nargs;
        nd->run0 = (uint16_t)run0;
        nd->nruns = (uint16_t)node_runs(n);
        for (uint32_t r = 0; r < nd->nruns; r++)
            p->run[run0++].node = (uint16_t)i;
    }
    p->g.nnodes = nn;
    p->g.words = (nn + 31u) / 32u;
    p->g.nodes = p->nodes;
    reduce(p);
    (void)axl__exec_build(p->nodes, nn, p->preds, (uint16_t *)p->g.succ0,
                          (uint16_t *)p->g.succ, (uint32_t *)p->g.roots);
    p->x.g = &p->g;
    p->x.nwhy = AXL_EXEC_WHYS;
    p->x.client = p;
    axl__exec_init(&p->x);
    p->exec = AXL__SLOT(GRAPH_EXEC, x);
    p->device = x->device;
    prepare_runs(p, x);
    axl__plan_bind(p, x);
    axl__plan_free(x);
    x->plan = p;
    return AXL_SUCCESS;
}

/* ---- Writing a plan: what the text says, checked -------------------------- */

/* One argument register of a node, checked (gather). */
struct plan_arg {
    axl_xclbin_arg x;           /* the kernel XML's argument */
    const struct axl__karg *a;  /* the node's (its kernel id's order) */
};

struct plan_model {
    const struct axl__device *d;
    const struct axl__image *img; /* the design every node's kernel is of */
    const struct axl__plan *p;    /* the graph's plan (replay.h) */
    uint16_t unit_of[AXL_MAX_DEVICE_CUS]; /* plan unit + 1 of a d->cus
                                   index, 0: not in the plan */
    uint16_t nunits;
    uint32_t nargs, npreds, scalar_bytes;
    uint32_t align;             /* every buffer's, bytes */
    /* Given names, or NULL: the first NAMED buffers and nodes may have
     * one (the writer's limits before plans of any size). */
    const char *buf_name[AXL_MAX_ACCESSORS];
    const char *node_name[AXL__LAID_NODES];
    /* The pipelines its start and stop nodes name (handles), in the
     * order the nodes first name them: the plan's pipes[]; their
     * auto-restart and free-running units, and those units' words. */
    uint32_t pipe[AXL_MAX_PIPELINES + 1];
    uint32_t npipes, npipe_units, npipe_words;
};

static const struct axl__graph_node *node_at(const struct plan_model *pm,
                                             unsigned i)
{
    return axl__graph_node_deref(pm->p->node[i]);
}

/* Node i's unit (a d->cus index): its one run's. */
static uint8_t cu_of(const struct plan_model *pm, unsigned i)
{
    return pm->p->run[pm->p->nodes[i].run0].cu;
}

static const struct axl__kernel_id *kid_of(const struct axl__graph_node *n)
{
    return axl__kernel_id_at(n->h.u.kernel.kid);
}

/* The kernel XML's argument `id` of kernel `index` of img; false when it
 * has none. */
static bool xml_arg(const struct axl__image *img, uint16_t index,
                    uint32_t id, axl_xclbin_arg *out)
{
    axl_xclbin_kernel ki;
    if (axl_xclbin_get_kernel(&img->x, index, &ki) != AXL_SUCCESS)
        return false;
    for (uint32_t i = 0; i < ki.arg_count; i++)
        if (axl_xclbin_get_kernel_arg(&img->x, &ki, i, out) == AXL_SUCCESS &&
            out->index == id)
            return true;
    return false;
}

/* Whether argument x is a register of the unit's control space: streams
 * and local memory are not (the mmio port skips them too). */
static bool is_register(const axl_xclbin_arg *x)
{
    return x->address_qualifier != AXL_XCLBIN_ARG_STREAM &&
           x->address_qualifier != AXL_XCLBIN_ARG_LOCAL;
}

/* Argument m (in the kernel id's order) of node n, checked for a plan:
 * a register the plan's fields can say, a scalar no larger than it. */
static axl_status node_arg(const char *fn, const struct plan_model *pm,
                           unsigned pos, const struct axl__graph_node *n,
                           uint8_t m, struct plan_arg *out)
{
    const struct axl__kernel_id *kid = kid_of(n);
    out->a = &n->h.u.kernel.args[m];
    if (!xml_arg(pm->img, kid->index, out->a->id, &out->x))
        return axl__fail(fn, AXL_ERR_INVALID,
                         "node %u: kernel %s has no argument %u in its "
                         "metadata",
                         pos, kid->name, (unsigned)out->a->id);
    if (!is_register(&out->x))
        return AXL_SUCCESS;
    if (out->x.offset > UINT16_MAX || out->x.size == 0 ||
        out->x.size > UINT8_MAX)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "node %u: argument %.*s of %s is at offset 0x%llx, "
                         "%llu bytes: not a register a plan can name",
                         pos, (int)out->x.name.len, out->x.name.ptr,
                         kid->name, (unsigned long long)out->x.offset,
                         (unsigned long long)out->x.size);
    if (!out->a->acc && out->a->size > out->x.size)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "node %u: scalar %.*s of %s has %u bytes and its "
                         "register %llu: a plan writes a scalar whole",
                         pos, (int)out->x.name.len, out->x.name.ptr,
                         kid->name, (unsigned)out->a->size,
                         (unsigned long long)out->x.size);
    return AXL_SUCCESS;
}

const char *axl__node_what(const struct axl__graph_node *n)
{
    switch (n->h.kind) {
    case AXL__CMD_HOST_TASK:
        return "a host task";
    case AXL__CMD_FILL:
        return "a fill";
    case AXL__CMD_UPDATE_HOST:
        return "an update_host";
    case AXL__CMD_PREFETCH:
        return "a prefetch";
    case AXL__CMD_PIPE_START:
        return "a pipeline's start";
    case AXL__CMD_PIPE_STOP:
        return "a pipeline's stop";
    default:
        return "a copy";
    }
}

/* Node i's accessor k's buffer, alive, in the bank its plan buffer is. */
static axl_status node_buffer(const char *fn, const struct plan_model *pm,
                              unsigned i, uint8_t k)
{
    const struct axl__graph_node *n = node_at(pm, i);
    if (!axl__pool_get(AXL__POOL(BUFFER), n->bufs[k]))
        return axl__fail(fn, AXL_ERR_INVALID_OBJECT,
                         "node %u: buffer 0x%08x (accessor %u) was released",
                         i, (unsigned)n->bufs[k], (unsigned)k + 1);
    const struct axl__plan_buf *b =
        &pm->p->buf[pm->p->pbuf[i * AXL_MAX_ACCESSORS + k]];
    axl_hal_bank hb;
    if (b->dev_bank == UINT32_MAX ||
        axl__dev_bank(pm->d, b->dev_bank, &hb) != AXL_SUCCESS)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "node %u: buffer 0x%08x is in no bank of %s", i,
                         (unsigned)n->bufs[k], pm->d->info.name);
    if (n->span[k].bank != b->dev_bank)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "node %u: buffer 0x%08x is in another bank than "
                         "where an earlier node has it: a plan places a "
                         "buffer once",
                         i, (unsigned)n->bufs[k]);
    return AXL_SUCCESS;
}

static bool is_pipe_node(const axl_plan_node *nd)
{
    return nd->kind == AXL_PLAN_NODE_PIPE_START ||
           nd->kind == AXL_PLAN_NODE_PIPE_STOP;
}

#if AXL_FEATURE_STREAMS
/* The pipeline plan pipe k is (gather found it alive). */
static const struct axl__pipeline *pipe_of(const struct plan_model *pm,
                                           unsigned k)
{
    return axl__pool_get(AXL__POOL(PIPELINE), pm->pipe[k]);
}

/* The plan pipe of start or stop node i. */
static unsigned pipe_index(const struct plan_model *pm, unsigned i)
{
    const uint32_t h = node_at(pm, i)->h.u.pipe.handle;
    unsigned k = 0;
    while (k < pm->npipes && pm->pipe[k] != h)
        k++;
    return k;
}

/* A unit the plan's pipeline tables hold: a command unit's runs are the
 * plan's kernel nodes. */
static bool table_unit(const struct axl__pipeline_unit *u)
{
    return u->kind != AXL_PIPELINE_COMMAND;
}

/* The register of unit u's scalar m, from the kernel XML; false when it
 * has none a plan can name. */
static bool pipe_register(const struct plan_model *pm,
                          const struct axl__pipeline_unit *u, unsigned m,
                          axl_xclbin_arg *x)
{
    return xml_arg(pm->img, axl__kernel_id_at(u->kid)->index,
                   u->scalar[m].id, x) &&
           is_register(x) && x->offset >= 0x10 &&
           x->offset <= UINT16_MAX - 8u && !(x->offset & 3u);
}

/* The words scalar m of unit u takes (its register's: one, or two for a
 * register of 8 bytes or more, as pipe.c writes it). */
static unsigned pipe_words(const axl_xclbin_arg *x)
{
    return x->size >= 8 ? 2u : 1u;
}

/* Start or stop node i: its pipeline alive, of the plan's design, each
 * unit a table holds with every scalar set and in a register; counted
 * into the tables the first time a node names it. */
static axl_status gather_pipe(const char *fn, struct plan_model *pm,
                              unsigned i)
{
    const uint32_t h = node_at(pm, i)->h.u.pipe.handle;
    const struct axl__pipeline *pl = axl__pool_get(AXL__POOL(PIPELINE), h);
    if (!pl)
        return axl__fail(fn, AXL_ERR_INVALID_OBJECT,
                         "node %u: its pipeline 0x%08x was released", i,
                         (unsigned)h);
    if (pm->img != axl__image_at(pl->image))
        return axl__fail(fn, AXL_ERR_INVALID,
                         "node %u: pipeline %u is of another design than "
                         "the plan's kernels",
                         i, (unsigned)pl->hal.number);
    if (pipe_index(pm, i) < pm->npipes)
        return AXL_SUCCESS; /* its start's, counted */
    pm->pipe[pm->npipes++] = h;
    for (uint8_t k = 0; k < pl->nunits; k++) {
        const struct axl__pipeline_unit *u = &pl->unit[k];
        if (!table_unit(u))
            continue;
        pm->npipe_units++;
        for (unsigned m = 0; m < u->nscalars; m++) {
            axl_xclbin_arg x;
            if (!u->scalar[m].set || !pipe_register(pm, u, m, &x))
                return axl__fail(fn, AXL_ERR_INVALID,
                                 "node %u: %s's scalar argument %u (pipeline "
                                 "%u) is %s",
                                 i, u->name, (unsigned)u->scalar[m].id,
                                 (unsigned)pl->hal.number,
                                 u->scalar[m].set
                                     ? "not a register a plan can name"
                                     : "not set (axl_pipeline_set_arg): a "
                                       "plan writes the scalars the "
                                       "pipeline was given");
            pm->npipe_words += pipe_words(&x);
        }
    }
    return AXL_SUCCESS;
}
#else
/* No pipeline nodes without AXL_FEATURE_STREAMS (graph.c records none). */
static axl_status gather_pipe(const char *fn, struct plan_model *pm,
                              unsigned i)
{
    (void)pm;
    return axl__fail(fn, AXL_ERR_FEATURE_NOT_SUPPORTED,
                     "node %u is a pipeline's start or stop, and pipelines "
                     "are switched off (AXL_FEATURE_STREAMS 0)",
                     i);
}
#endif

/* Everything the text says, checked (lock held). */
static axl_status gather(const char *fn, const struct axl__graph_exec *x,
                         struct plan_model *pm)
{
    memset(pm, 0, sizeof *pm);
    pm->d = axl__device_at(x->device);
    pm->p = x->plan;
    const struct axl__plan *p = pm->p;
    uint16_t image = 0;
    for (unsigned i = 0; i < p->nnodes; i++) {
        const struct axl__graph_node *n = node_at(pm, i);
        if (p->nodes[i].kind == AXL_PLAN_NODE_HOST)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "node %u is %s: a plan holds kernel nodes, "
                             "pipelines' starts and stops (and empty nodes)",
                             i, axl__node_what(n));
        if (p->nodes[i].kind != AXL_PLAN_NODE_KERNEL)
            continue;
        if (p->nodes[i].nruns > 1)
            return axl__fail(fn, AXL_ERR_FEATURE_NOT_SUPPORTED,
                             "node %u is a parallel_for of %u chunks: a "
                             "written plan holds one run per node",
                             i, (unsigned)p->nodes[i].nruns);
        if (!axl__pool_get(AXL__POOL(KERNEL), n->kernel))
            return axl__fail(fn, AXL_ERR_INVALID_OBJECT,
                             "node %u: its kernel 0x%08x was released", i,
                             (unsigned)n->kernel);
        const struct axl__kernel_id *kid = kid_of(n);
        if (!image)
            image = (uint16_t)(kid->image + 1u);
        else if (kid->image + 1u != image)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "node %u: kernel %s is of another design than "
                             "the nodes before it: a plan is made for one "
                             "design",
                             i, kid->name);
        for (uint8_t k = 0; k < n->nacc; k++) {
            axl_status st = node_buffer(fn, pm, i, k);
            if (st != AXL_SUCCESS)
                return st;
        }
        if (cu_of(pm, i) == 0xFFu)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "node %u: no unit of %s on %s reaches its "
                             "buffers' banks",
                             i, kid->name, pm->d->info.name);
    }
    if (!image)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "the graph has no kernel node: a plan runs "
                         "kernels");
    if (!axl__device_carries(pm->d, (uint16_t)(image - 1u)))
        return axl__fail(fn, AXL_ERR_INVALID,
                         "%s carries another design now than the one the "
                         "graph was finalized with: a plan is written "
                         "against the design its kernels run on",
                         pm->d->info.name);
    pm->img = axl__image_at((uint16_t)(image - 1u));
    for (unsigned i = 0; i < p->nnodes; i++) {
        pm->npreds += p->nodes[i].npreds;
        if (is_pipe_node(&p->nodes[i])) {
            axl_status st = gather_pipe(fn, pm, i);
            if (st != AXL_SUCCESS)
                return st;
        }
        if (p->nodes[i].kind != AXL_PLAN_NODE_KERNEL)
            continue;
        const struct axl__graph_node *n = node_at(pm, i);
        for (uint8_t m = 0; m < n->h.u.kernel.nargs; m++) {
            struct plan_arg pa;
            axl_status st = node_arg(fn, pm, i, n, m, &pa);
            if (st != AXL_SUCCESS)
                return st;
            if (!is_register(&pa.x))
                continue;
            pm->nargs++;
            if (!pa.a->acc)
                pm->scalar_bytes += pa.a->size;
        }
    }
    if (pm->scalar_bytes > UINT16_MAX || pm->nargs > UINT16_MAX ||
        pm->npreds > UINT16_MAX || p->nbufs > UINT16_MAX ||
        p->nnodes > UINT16_MAX)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "the graph's %u arguments, %u scalar bytes or %u "
                         "edges do not fit a plan's 16-bit counts",
                         (unsigned)pm->nargs, (unsigned)pm->scalar_bytes,
                         (unsigned)pm->npreds);
    for (uint8_t c = 0; c < pm->d->ncus; c++) {
        bool used = false;
        for (uint32_t r = 0; r < p->nruns; r++)
            used |= p->run[r].cu == c;
        if (!used)
            continue;
        axl_xclbin_ip ip;
        axl_xclbin_get_ip(&pm->img->x, pm->d->cus[c].ip, &ip);
        if (ip.control != AXL_XCLBIN_AP_CTRL_HS &&
            ip.control != AXL_XCLBIN_AP_CTRL_CHAIN)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "unit %.*s is not ap_ctrl_hs or ap_ctrl_chain "
                             "(IP_LAYOUT control %u): a plan starts its units "
                             "through ap_start",
                             (int)ip.name.len, ip.name.ptr,
                             (unsigned)ip.control);
        pm->unit_of[c] = ++pm->nunits;
    }
    /* Every buffer at the device's alignment for a buffer's start
     * (mem_base_addr_align, the one its sub-buffers' offsets kept) and at
     * least a cache line, so cache maintenance on one never touches
     * another's bytes. */
    uint32_t align = pm->d->info.mem_base_addr_align / 8;
    pm->align = 64;
    while (pm->align < align)
        pm->align <<= 1;
    return AXL_SUCCESS;
}

/* ---- The text ----------------------------------------------------------- */

typedef struct text {
    char *dst;
    size_t cap;
    size_t len;                 /* what the whole takes so far, past cap */
} text;

static void put(text *t, const char *fmt, ...) AXL__PRINTF(2, 3);
static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const size_t room = t->len < t->cap ? t->cap - t->len : 0;
    /* Into the caller's buffer: what does not fit is measured (the
     * length says how much it takes), as its contract says. */
    t->len += axl_vformat_part(room ? t->dst + t->len : NULL, room, fmt, ap);
    va_end(ap);
}

/* s[0, n) (a name from the design's metadata: "vadd:vadd_1", "in1") in a
 * string literal or a comment, any character that could end either, or
 * make a trigraph, written as '_'. */
static void put_name(text *t, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i]; i++) {
        const char c = s[i];
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                           (c >= '0' && c <= '9') || c == '_' || c == ':' ||
                           c == '.' || c == '-' || c == '[' || c == ']';
        put(t, "%c", plain ? c : '_');
    }
}

static void put_unit_name(text *t, const struct plan_model *pm, uint8_t c)
{
    axl_xclbin_ip ip;
    axl_xclbin_get_ip(&pm->img->x, pm->d->cus[c].ip, &ip);
    put_name(t, ip.name.ptr, ip.name.len);
}

/* Node i's register arguments, in order (gather checked them); none for
 * a node that is not a kernel. */
static unsigned node_args(const struct plan_model *pm, unsigned i,
                          struct plan_arg *out)
{
    if (pm->p->nodes[i].kind != AXL_PLAN_NODE_KERNEL)
        return 0;
    const struct axl__graph_node *n = node_at(pm, i);
    unsigned k = 0;
    for (uint8_t m = 0; m < n->h.u.kernel.nargs; m++) {
        (void)node_arg("", pm, i, n, m, &out[k]);
        if (is_register(&out[k].x))
            k++;
    }
    return k;
}

/* The plan buffer of node i's accessor k. */
static unsigned buf_of(const struct plan_model *pm, unsigned i, unsigned k)
{
    return pm->p->pbuf[i * AXL_MAX_ACCESSORS + k];
}

static void put_units(text *t, const struct plan_model *pm, const char *name)
{
    put(t, "static const axl_plan_unit %s_units[%u] = {\n", name,
        (unsigned)pm->nunits);
    for (uint8_t c = 0; c < pm->d->ncus; c++) {
        if (!pm->unit_of[c])
            continue;
        axl_xclbin_ip ip;
        axl_xclbin_get_ip(&pm->img->x, pm->d->cus[c].ip, &ip);
        put(t,
            "    {.ip_index = %u, .chain = %u, .base = 0x%llx, .name = \"",
            (unsigned)pm->d->cus[c].ip,
            ip.control == AXL_XCLBIN_AP_CTRL_CHAIN ? 1u : 0u,
            (unsigned long long)ip.base_address);
        put_name(t, ip.name.ptr, ip.name.len);
        put(t, "\"}, /* unit %u: ap_ctrl_%s */\n",
            (unsigned)pm->unit_of[c] - 1u,
            ip.control == AXL_XCLBIN_AP_CTRL_CHAIN ? "chain" : "hs");
    }
    put(t, "};\n\n");
}

static void put_buffers(text *t, const struct plan_model *pm,
                        const char *name)
{
    const struct axl__plan *p = pm->p;
    put(t,
        "/* Each placed at load in its bank's region (bank: MEM_TOPOLOGY "
        "index). */\n"
        "static const axl_plan_buffer_desc %s_buffers[%u] = {\n",
        name, (unsigned)p->nbufs);
    for (uint32_t b = 0; b < p->nbufs; b++) {
        const struct axl__plan_buf *pb = &p->buf[b];
        axl_hal_bank hb;
        (void)axl__dev_bank(pm->d, pb->dev_bank, &hb); /* gather's */
        put(t,
            "    {.size = %llu, .bank = %u, .align = %u,\n"
            "     .flags = %s%sAXL_PLAN_UPDATABLE}, /* buffer %u:",
            (unsigned long long)axl__buffer_at(pb->base)->size,
            (unsigned)hb.image_index, (unsigned)pm->align,
            pb->flags & AXL__PB_READS ? "AXL_PLAN_READ | " : "",
            pb->flags & AXL__PB_WRITES ? "AXL_PLAN_WRITE | " : "",
            (unsigned)b);
        if (pm->buf_name[b])
            put(t, " \"%s\":", pm->buf_name[b]);
        /* Who uses it: node and argument. */
        const char *sep = " ";
        for (unsigned i = 0; i < p->nnodes; i++) {
            struct plan_arg pa[AXL_MAX_KERNEL_ARGS];
            unsigned na = node_args(pm, i, pa);
            for (unsigned k = 0; k < na; k++)
                if (pa[k].a->acc && buf_of(pm, i, pa[k].a->acc - 1u) == b) {
                    put(t, "%snode %u ", sep, i);
                    put_name(t, pa[k].x.name.ptr, pa[k].x.name.len);
                    sep = ", ";
                }
        }
        put(t, " */\n");
    }
    put(t, "};\n\n");
}

static void put_args(text *t, const struct plan_model *pm, const char *name)
{
    put(t, "static const axl_plan_arg %s_args[%u] = {\n", name,
        (unsigned)pm->nargs);
    uint32_t scalar = 0;
    for (unsigned i = 0; i < pm->p->nnodes; i++) {
        if (pm->p->nodes[i].kind != AXL_PLAN_NODE_KERNEL)
            continue;
        const struct axl__graph_node *n = node_at(pm, i);
        const char *kernel = kid_of(n)->name;
        put(t, "    /* node %u: ", i);
        put_name(t, kernel, strlen(kernel));
        put(t, " on ");
        put_unit_name(t, pm, cu_of(pm, i));
        put(t, " */\n");
        struct plan_arg pa[AXL_MAX_KERNEL_ARGS];
        unsigned na = node_args(pm, i, pa);
        for (unsigned k = 0; k < na; k++) {
            const struct axl__karg *a = pa[k].a;
            put(t, "    {.id = %u, .offset = 0x%x, .size = %u, ",
                (unsigned)a->id, (unsigned)pa[k].x.offset,
                (unsigned)pa[k].x.size);
            if (a->acc) {
                /* Where the launch points the unit (the view's offset in
                 * its base; gather found the view alive). */
                const uint8_t acc = a->acc - 1;
                const unsigned b = buf_of(pm, i, acc);
                const struct axl__buffer *view =
                    axl__buffer_at(AXL__HANDLE_SLOT(n->bufs[acc]));
                put(t,
                    ".kind = AXL_PLAN_ARG_BUFFER, .ref = %u, .at = %llu}, "
                    "/* ",
                    b, (unsigned long long)view->offset);
                put_name(t, pa[k].x.name.ptr, pa[k].x.name.len);
                put(t, ": buffer %u */\n", b);
            } else {
                put(t,
                    ".kind = AXL_PLAN_ARG_SCALAR, .ref = %u, .bytes = %u}, "
                    "/* ",
                    (unsigned)scalar, (unsigned)a->size);
                put_name(t, pa[k].x.name.ptr, pa[k].x.name.len);
                put(t, ": scalars[%u, %u) */\n", (unsigned)scalar,
                    (unsigned)(scalar + a->size));
                scalar += a->size;
            }
        }
    }
    put(t, "};\n\n");
}

static void put_preds(text *t, const struct plan_model *pm, const char *name)
{
    const struct axl__plan *p = pm->p;
    put(t, "static const uint16_t %s_preds[%u] = {\n", name,
        (unsigned)pm->npreds);
    for (unsigned i = 0; i < p->nnodes; i++) {
        const axl_plan_node *nd = &p->nodes[i];
        if (!nd->npreds)
            continue;
        put(t, "   ");
        for (uint16_t k = 0; k < nd->npreds; k++)
            put(t, " %u,", (unsigned)p->preds[nd->pred0 + k]);
        put(t, " /* node %u waits for them */\n", i);
    }
    put(t, "};\n\n");
}

static void put_scalars(text *t, const struct plan_model *pm,
                        const char *name)
{
    put(t, "/* As recorded. */\nstatic const uint8_t %s_scalars[%u] = {\n",
        name, (unsigned)pm->scalar_bytes);
    for (unsigned i = 0; i < pm->p->nnodes; i++) {
        struct plan_arg pa[AXL_MAX_KERNEL_ARGS];
        unsigned na = node_args(pm, i, pa);
        for (unsigned k = 0; k < na; k++) {
            const struct axl__karg *a = pa[k].a;
            if (a->acc)
                continue;
            put(t, "   ");
            /* A node's scalars are in its handler's kbytes (a command's
             * copy, u.kernel.bytes, is made at commit). */
            const struct axl__graph_node *n = node_at(pm, i);
            for (uint16_t j = 0; j < a->size; j++)
                put(t, " 0x%02x,", (unsigned)n->h.kbytes[a->off + j]);
            put(t, " /* node %u ", i);
            put_name(t, pa[k].x.name.ptr, pa[k].x.name.len);
            put(t, " */\n");
        }
    }
    put(t, "};\n\n");
}

static void put_nodes(text *t, const struct plan_model *pm, const char *name)
{
    const struct axl__plan *p = pm->p;
    put(t, "static const axl_plan_node %s_nodes[%u] = {\n", name,
        (unsigned)p->nnodes);
    unsigned arg0 = 0;
    for (unsigned i = 0; i < p->nnodes; i++) {
        const axl_plan_node *nd = &p->nodes[i];
#if AXL_FEATURE_STREAMS
        if (is_pipe_node(nd)) {
            const bool start = nd->kind == AXL_PLAN_NODE_PIPE_START;
            put(t,
                "    {.unit = %u, .arg0 = %u, .pred0 = %u, .npreds = %u,\n"
                "     .kernel = \"axl_pipeline_%s\", "
                ".kind = AXL_PLAN_NODE_PIPE_%s}, /* node %u: pipeline %u's "
                "%s */\n",
                pipe_index(pm, i), arg0, (unsigned)nd->pred0,
                (unsigned)nd->npreds, start ? "start" : "stop",
                start ? "START" : "STOP", i, pipe_index(pm, i),
                start ? "start" : "stop");
            continue;
        }
#endif
        if (nd->kind != AXL_PLAN_NODE_KERNEL) {
            /* Only orders (check: no host node gets here). */
            put(t,
                "    {.arg0 = %u, .pred0 = %u, .npreds = %u,\n"
                "     .kind = AXL_PLAN_NODE_EMPTY}, /* node %u */\n",
                arg0, (unsigned)nd->pred0, (unsigned)nd->npreds, i);
            continue;
        }
        struct plan_arg pa[AXL_MAX_KERNEL_ARGS];
        unsigned na = node_args(pm, i, pa);
        const char *kernel = kid_of(node_at(pm, i))->name;
        put(t,
            "    {.unit = %u, .arg0 = %u, .nargs = %u, .pred0 = %u, "
            ".npreds = %u,\n     .kernel = \"",
            (unsigned)pm->unit_of[cu_of(pm, i)] - 1u, arg0, na,
            (unsigned)nd->pred0, (unsigned)nd->npreds);
        put_name(t, kernel, strlen(kernel));
        put(t, "\"}, /* node %u ", i);
        if (i < AXL__LAID_NODES && pm->node_name[i])
            put(t, "\"%s\" ", pm->node_name[i]);
        put(t, "on ");
        put_unit_name(t, pm, cu_of(pm, i));
        put(t, " */\n");
        arg0 += na;
    }
    put(t, "};\n\n");
}

#if AXL_FEATURE_STREAMS
/* Scalar m of unit u as register words: word w of its bytes, little-end
 * first (the registers' order), zero past them. */
static uint32_t pipe_word(const struct axl__pipeline_unit *u, unsigned m,
                          const axl_xclbin_arg *x, unsigned w)
{
    const struct axl__pipe_scalar *sc = &u->scalar[m];
    const unsigned bytes = sc->size < x->size ? sc->size : (unsigned)x->size;
    uint32_t v = 0;
    for (unsigned b = 0; b < 4; b++)
        if (w * 4u + b < bytes && w * 4u + b < 8u)
            v |= (uint32_t)sc->bytes[w * 4u + b] << (8u * b);
    return v;
}

static void put_pipe_words(text *t, const struct plan_model *pm,
                           const char *name)
{
    put(t,
        "/* The scalar words each pipeline's start writes, as "
        "axl_pipeline_set_arg\n * gave them. */\n"
        "static const axl_plan_pipe_word %s_pipe_words[%u] = {\n",
        name, (unsigned)pm->npipe_words);
    for (unsigned k = 0; k < pm->npipes; k++) {
        const struct axl__pipeline *pl = pipe_of(pm, k);
        for (uint8_t c = 0; c < pl->nunits; c++) {
            const struct axl__pipeline_unit *u = &pl->unit[c];
            for (unsigned m = 0; table_unit(u) && m < u->nscalars; m++) {
                axl_xclbin_arg x;
                (void)pipe_register(pm, u, m, &x); /* gather's */
                for (unsigned w = 0; w < pipe_words(&x); w++) {
                    put(t,
                        "    {.offset = 0x%x, .value = 0x%08lx}, /* %s ",
                        (unsigned)(x.offset + 4u * w),
                        (unsigned long)pipe_word(u, m, &x, w), u->name);
                    put_name(t, x.name.ptr, x.name.len);
                    put(t, "%s */\n", w ? " (high word)" : "");
                }
            }
        }
    }
    put(t, "};\n\n");
}

/* Its pipelines: each one's auto-restart and free-running units in start
 * order (consumers first), then the pipelines, which its start and stop
 * nodes index. */
static void put_pipes(text *t, const struct plan_model *pm, const char *name)
{
    if (pm->npipe_words)
        put_pipe_words(t, pm, name);
    if (pm->npipe_units)
        put(t, "static const axl_plan_pipe_unit %s_pipe_units[%u] = {\n",
            name, (unsigned)pm->npipe_units);
    unsigned unit = 0, word = 0;
    for (unsigned k = 0; k < pm->npipes; k++) {
        const struct axl__pipeline *pl = pipe_of(pm, k);
        for (uint8_t c = 0; c < pl->nunits; c++) {
            const struct axl__pipeline_unit *u = &pl->unit[c];
            if (!table_unit(u))
                continue;
            unsigned words = 0;
            for (unsigned m = 0; m < u->nscalars; m++) {
                axl_xclbin_arg x;
                (void)pipe_register(pm, u, m, &x);
                words += pipe_words(&x);
            }
            axl_xclbin_ip ip;
            axl_xclbin_get_ip(&pm->img->x, u->ip, &ip);
            const char *control =
                u->kind == AXL_PIPELINE_FREE_RUNNING ? "FREE_RUNNING"
                : ip.control == AXL_XCLBIN_AP_CTRL_CHAIN
                    ? "AUTO_RESTART"
                    : "AUTO_RESTART_HS";
            put(t,
                "    {.ip_index = %u, .control = AXL_PLAN_PIPE_%s,\n"
                "     .base = 0x%llx, .name = \"",
                (unsigned)u->ip, control,
                (unsigned long long)ip.base_address);
            put_name(t, ip.name.ptr, ip.name.len);
            put(t, "\", .word0 = %u, .nwords = %u}, /* pipeline %u */\n",
                word, words, k);
            word += words;
            unit++;
        }
    }
    if (pm->npipe_units)
        put(t, "};\n\n");
    put(t, "static const axl_plan_pipe %s_pipes[%u] = {\n", name,
        (unsigned)pm->npipes);
    unit = 0;
    for (unsigned k = 0; k < pm->npipes; k++) {
        const struct axl__pipeline *pl = pipe_of(pm, k);
        unsigned n = 0;
        for (uint8_t c = 0; c < pl->nunits; c++)
            n += table_unit(&pl->unit[c]);
        put(t,
            "    {.unit0 = %u, .nunits = %u, .stop_timeout_ns = %llu}, "
            "/* pipeline %u */\n",
            unit, n, (unsigned long long)pl->stop_timeout, k);
        unit += n;
    }
    put(t, "};\n\n");
}
#else
static void put_pipes(text *t, const struct plan_model *pm, const char *name)
{
    (void)t, (void)pm, (void)name; /* no pipeline without streams */
}
#endif

/* The names given for the plan's buffers or nodes (names[n], NULL where
 * none), as a table; false (nothing written) when none was given. */
static bool put_names(text *t, const char *name, const char *what,
                      const char *const *names, unsigned n, unsigned cap)
{
    bool any = false;
    for (unsigned i = 0; i < n && i < cap; i++)
        any |= names[i] != NULL;
    if (!any)
        return false;
    put(t, "/* The names given when it was written (axl_plan_find_%s). */\n"
           "static const char *const %s_%s_names[%u] = {",
        what, name, what, n);
    for (unsigned i = 0; i < n; i++) {
        if (i < cap && names[i])
            put(t, "%s\"%s\"", i ? ", " : "", names[i]);
        else
            put(t, "%sNULL", i ? ", " : "");
    }
    put(t, "};\n\n");
    return true;
}

static void put_plan(text *t, const struct plan_model *pm, const char *name)
{
    const uint8_t *u = pm->img->x.uuid;
    put(t,
        "/* Generated by axl_plan_write (axl/plan.h); do not edit. The plan "
        "%s:\n"
        " * %u nodes on %u units, %u buffers, of the design whose "
        "UUID is\n * ",
        name, (unsigned)pm->p->nnodes, (unsigned)pm->nunits,
        (unsigned)pm->p->nbufs);
    for (unsigned i = 0; i < AXL_XCLBIN_UUID_SIZE; i++)
        put(t, "%02x", (unsigned)u[i]);
    put(t, ". */\n#include <stddef.h>\n#include <stdint.h>\n\n"
           "#include \"axl/plan.h\"\n\n"
           "extern const axl_plan %s;\n\n",
        name);
    put_units(t, pm, name);
    if (pm->p->nbufs)
        put_buffers(t, pm, name);
    if (pm->nargs)
        put_args(t, pm, name);
    if (pm->npreds)
        put_preds(t, pm, name);
    if (pm->scalar_bytes)
        put_scalars(t, pm, name);
    put_nodes(t, pm, name);
    if (pm->npipes)
        put_pipes(t, pm, name);
    const bool buf_names =
        put_names(t, name, "buffer", pm->buf_name, pm->p->nbufs,
                  AXL_MAX_ACCESSORS);
    const bool node_names =
        put_names(t, name, "node", pm->node_name, pm->p->nnodes,
                  AXL__LAID_NODES);
    put(t, "const axl_plan %s = {\n    .format = AXL_PLAN_FORMAT,\n"
           "    .name = \"%s\",\n    .uuid = {",
        name, name);
    for (unsigned i = 0; i < AXL_XCLBIN_UUID_SIZE; i++)
        put(t, "%s0x%02x", i ? ", " : "", (unsigned)u[i]);
    put(t,
        "},\n    .nunits = %u,\n    .nbuffers = %u,\n    .nnodes = %u,\n"
        "    .nargs = %u,\n    .npreds = %u,\n    .scalar_bytes = %u,\n"
        "    .units = %s_units,\n",
        (unsigned)pm->nunits, (unsigned)pm->p->nbufs,
        (unsigned)pm->p->nnodes, (unsigned)pm->nargs, (unsigned)pm->npreds,
        (unsigned)pm->scalar_bytes, name);
    const struct {
        bool has;
        const char *field, *table;
    } tables[] = {{pm->p->nbufs != 0, "buffers", "buffers"},
                  {true, "nodes", "nodes"},
                  {pm->nargs != 0, "args", "args"},
                  {pm->npreds != 0, "preds", "preds"},
                  {pm->scalar_bytes != 0, "scalars", "scalars"},
                  {buf_names, "buffer_names", "buffer_names"},
                  {node_names, "node_names", "node_names"}};
    for (unsigned i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        if (tables[i].has)
            put(t, "    .%s = %s_%s,\n", tables[i].field, name,
                tables[i].table);
        else if (i < 5) /* no names: as a plan of format 1 reads */
            put(t, "    .%s = NULL,\n", tables[i].field);
    }
    if (pm->npipes) /* the executor's pipeline code, linked for it */
        put(t,
            "    .npipes = %u,\n    .npipe_units = %u,\n"
            "    .npipe_words = %u,\n    .pipes = %s_pipes,\n"
            "    .pipe_units = %s%s,\n    .pipe_words = %s%s,\n"
            "    .pipelines = &axl_plan_pipelines,\n",
            (unsigned)pm->npipes, (unsigned)pm->npipe_units,
            (unsigned)pm->npipe_words, name,
            pm->npipe_units ? name : "NULL",
            pm->npipe_units ? "_pipe_units" : "",
            pm->npipe_words ? name : "NULL",
            pm->npipe_words ? "_pipe_words" : "");
    put(t, "};\n");
}

/* ---- Names ------------------------------------------------------------- */

/* Whether s is a name a plan can carry: a C identifier of 1 to 31
 * characters (a firmware may make constants of it). */
static bool short_identifier(const char *s)
{
    size_t n = 0;
    for (; s[n] && n <= 31; n++) {
        const char c = s[n];
        const bool alpha =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!alpha && !(n && c >= '0' && c <= '9'))
            return false;
    }
    return n > 0 && n <= 31;
}

/* Entry e's buffer: the plan buffer of its base, or a refusal. */
static axl_status name_buffer(const char *fn, struct plan_model *pm,
                              uint32_t e, const axl_plan_name *nm)
{
    const struct axl__buffer *view =
        axl__pool_get(AXL__POOL(BUFFER), nm->buffer.id);
    if (!view)
        return axl__fail(fn, AXL_ERR_INVALID_OBJECT,
                         "names[%u] (\"%s\"): buffer 0x%08x is not a live "
                         "buffer",
                         (unsigned)e, nm->name, (unsigned)nm->buffer.id);
    const struct axl__buffer *base = axl__buffer_base(view);
    for (uint32_t b = 0; b < pm->p->nbufs; b++) {
        if (axl__buffer_at(pm->p->buf[b].base) != base)
            continue;
        if (b >= AXL_MAX_ACCESSORS)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "names[%u] (\"%s\"): plan buffer %u: only the "
                             "first %u buffers may be named",
                             (unsigned)e, nm->name, (unsigned)b,
                             (unsigned)AXL_MAX_ACCESSORS);
        if (pm->buf_name[b])
            return axl__fail(fn, AXL_ERR_INVALID,
                             "names[%u] (\"%s\"): plan buffer %u is named "
                             "\"%s\" already",
                             (unsigned)e, nm->name, (unsigned)b,
                             pm->buf_name[b]);
        pm->buf_name[b] = nm->name;
        return AXL_SUCCESS;
    }
    return axl__fail(fn, AXL_ERR_INVALID,
                     "names[%u] (\"%s\"): buffer 0x%08x is none the "
                     "graph's nodes use",
                     (unsigned)e, nm->name, (unsigned)nm->buffer.id);
}

/* Entry e's node: the plan node it became (graph.c's rule: a node of x,
 * or of the graph x was made from). */
static axl_status name_node(const char *fn, struct plan_model *pm,
                            uint32_t e, const axl_plan_name *nm)
{
    for (unsigned i = 0; i < pm->p->nnodes; i++) {
        const struct axl__graph_node *n = node_at(pm, i);
        if (n->from != nm->node.id &&
            AXL__HANDLE(GRAPH_NODE, n) != nm->node.id)
            continue;
        if (i >= AXL__LAID_NODES)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "names[%u] (\"%s\"): node %u: only the first "
                             "%u nodes may be named",
                             (unsigned)e, nm->name, i,
                             (unsigned)AXL__LAID_NODES);
        if (pm->node_name[i])
            return axl__fail(fn, AXL_ERR_INVALID,
                             "names[%u] (\"%s\"): node %u is named \"%s\" "
                             "already",
                             (unsigned)e, nm->name, i, pm->node_name[i]);
        pm->node_name[i] = nm->name;
        return AXL_SUCCESS;
    }
    return axl__fail(fn, AXL_ERR_INVALID,
                     "names[%u] (\"%s\"): node 0x%08x is not a kernel node "
                     "of the executable graph (nor of its graph)",
                     (unsigned)e, nm->name, (unsigned)nm->node.id);
}

/* The names given, each checked, into pm (lock held). */
static axl_status take_names(const char *fn, struct plan_model *pm,
                             const axl_plan_name *names, uint32_t count)
{
    for (uint32_t e = 0; e < count; e++) {
        const axl_plan_name *nm = &names[e];
        if (!nm->name || !short_identifier(nm->name))
            return axl__fail(fn, AXL_ERR_INVALID,
                             "names[%u]: \"%.40s\" is not a C identifier of "
                             "1 to 31 characters",
                             (unsigned)e, nm->name ? nm->name : "(null)");
        if (!nm->buffer.id == !nm->node.id)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "names[%u] (\"%s\"): set one of buffer and node",
                             (unsigned)e, nm->name);
        for (uint32_t k = 0; k < e; k++)
            if (!names[k].buffer.id == !nm->buffer.id &&
                !strcmp(names[k].name, nm->name))
                return axl__fail(fn, AXL_ERR_INVALID,
                                 "names[%u]: \"%s\" is given twice",
                                 (unsigned)e, nm->name);
        axl_status st = nm->buffer.id ? name_buffer(fn, pm, e, nm)
                                      : name_node(fn, pm, e, nm);
        if (st != AXL_SUCCESS)
            return st;
    }
    return AXL_SUCCESS;
}

/* ---- The call ------------------------------------------------------------- */

/* Whether s is a C identifier a plan's tables can be named after (its
 * longest table name stays within the 63 characters C11 keeps of one). */
static bool identifier(const char *s)
{
    size_t n = 0;
    for (; s[n]; n++) {
        const char c = s[n];
        const bool alpha =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!alpha && !(n && c >= '0' && c <= '9'))
            return false;
    }
    return n > 0 && n <= 63 - sizeof "_scalars" + 1;
}

static bool exec_idle(const void *arg)
{
    return !((const struct axl__graph_exec *)arg)->busy;
}

axl_status axl_plan_write(axl_graph_exec exec, const char *name, char *dst,
                          size_t cap, size_t *len)
{
    return axl_plan_write_named(exec, name, NULL, 0, dst, cap, len);
}

axl_status axl_plan_write_named(axl_graph_exec exec, const char *name,
                                const axl_plan_name *names, uint32_t count,
                                char *dst, size_t cap, size_t *len)
{
    static const char fn[] = "axl_plan_write";
    if (count && !names)
        return axl__fail(fn, AXL_ERR_INVALID, "names is NULL with count %u",
                         (unsigned)count);
    if (!name)
        return axl__null(fn, "name");
    if (!identifier(name))
        return axl__fail(fn, AXL_ERR_INVALID,
                         "name \"%.64s\" is not a C identifier of 1 to %u "
                         "characters",
                         name, (unsigned)(63 - sizeof "_scalars" + 1));
    if (cap && !dst)
        return axl__fail(fn, AXL_ERR_INVALID, "dst is NULL with cap %zu",
                         cap);
    if (!cap && !len)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "cap 0 only measures the text, and len is NULL");
    AXL__ENTER(graph_exec, x, exec);
    /* A submission may be using the nodes' handlers in place (graph.c,
     * busy): their arguments are read once it is done with them. */
    while (x->busy) {
        axl__wait_until_pred(exec_idle, x);
        if (!(x = axl__graph_exec_get(fn, exec, &st))) {
            axl__leave();
            return st;
        }
    }
    struct plan_model pm;
    st = gather(fn, x, &pm);
    if (st == AXL_SUCCESS)
        st = take_names(fn, &pm, names, count);
    if (st != AXL_SUCCESS) {
        axl__leave();
        return st;
    }
    text t = {dst, cap, 0};
    put_plan(&t, &pm, name);
    axl__leave();
    if (len)
        *len = t.len;
    if (cap && t.len >= cap) {
        dst[0] = '\0';
        return axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                         "the plan's text takes %zu bytes and its NUL, and "
                         "dst holds %zu (a call with cap 0 measures it)",
                         t.len, cap);
    }
    return AXL_SUCCESS;
}

#else /* !AXL_FEATURE_GRAPHS */

axl_status axl_plan_write(axl_graph_exec exec, const char *name, char *dst,
                          size_t cap, size_t *len)
{
    (void)exec, (void)name, (void)dst, (void)cap, (void)len;
    return axl__switched_off("axl_plan_write", "AXL_FEATURE_GRAPHS");
}

axl_status axl_plan_write_named(axl_graph_exec exec, const char *name,
                                const axl_plan_name *names, uint32_t count,
                                char *dst, size_t cap, size_t *len)
{
    (void)exec, (void)name, (void)names, (void)count, (void)dst, (void)cap,
        (void)len;
    return axl__switched_off("axl_plan_write", "AXL_FEATURE_GRAPHS");
}

#endif /* AXL_FEATURE_GRAPHS */
