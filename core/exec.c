/*
 * exec.c - the one executor (exec.h): a plan's nodes from ready to
 * settled, driven by whoever holds the claim.
 *
 * A driver's turn settles every node whose bit in `ended` is set (its
 * successors count down, a failure dooms them) and then starts every
 * ready node, in node order. Successors come after their predecessors
 * (a plan's rule, which axl__exec_build checks), so one pass over the
 * ready words also settles every node a failure skips, however long the
 * chain: no recursion.
 */
#include <string.h>

#include "exec.h"

#define BIT(n) (1u << ((n) & 31u))
#define WORD(n) ((n) >> 5)

bool axl__exec_build(const axl_plan_node *nodes, uint32_t nnodes,
                     const uint16_t *preds, uint16_t *succ0, uint16_t *succ,
                     uint32_t *roots)
{
    const uint32_t words = (nnodes + 31u) / 32u;
    for (uint32_t w = 0; w < words; w++)
        roots[w] = 0;
    for (uint32_t n = 0; n <= nnodes; n++)
        succ0[n] = 0;
    /* Counted per predecessor (shifted by one), summed into starts, then
     * filled in node order (so each list is in node order), and the
     * starts shifted back. */
    for (uint32_t n = 0; n < nnodes; n++) {
        const axl_plan_node *nd = &nodes[n];
        if (!nd->npreds)
            roots[WORD(n)] |= BIT(n);
        for (uint32_t e = 0; e < nd->npreds; e++) {
            const uint16_t p = preds[nd->pred0 + e];
            if (p >= n)
                return false;
            succ0[p + 1u]++;
        }
    }
    for (uint32_t n = 0; n < nnodes; n++)
        succ0[n + 1u] = (uint16_t)(succ0[n + 1u] + succ0[n]);
    for (uint32_t n = 0; n < nnodes; n++) {
        const axl_plan_node *nd = &nodes[n];
        for (uint32_t e = 0; e < nd->npreds; e++)
            succ[succ0[preds[nd->pred0 + e]]++] = (uint16_t)n;
    }
    for (uint32_t n = nnodes; n > 0; n--)
        succ0[n] = succ0[n - 1u];
    succ0[0] = 0;
    return true;
}

void axl__exec_init(axl__exec *x)
{
    const axl__exec_graph *g = x->g;
    for (uint32_t n = 0; n < g->nnodes; n++) {
        x->waiting[n] = g->nodes[n].npreds;
        if (axl__exec_runs(&g->nodes[n]) > 1u) /* only they use runs_left,
                                                  next_run */
            atomic_init(&x->runs_left[n], g->nodes[n].nruns);
    }
}

AXL_HOT void axl__exec_begin(axl__exec *x)
{
    const axl__exec_graph *g = x->g;
    for (uint32_t w = 0; w < g->words; w++) {
        /* The last submission's failures, kept for its client. */
        for (uint32_t f = x->failed[w]; f; f &= f - 1u)
            atomic_store_explicit(
                &x->node_st[w * 32u + (uint32_t)__builtin_ctz(f)], 0,
                memory_order_relaxed);
        x->failed[w] = x->doomed[w] = 0;
        x->ready[w] = g->roots[w];
    }
    x->left = g->nnodes;
    x->due = 0;
    x->taken = 0;
    x->status = AXL_SUCCESS;
    x->first_failed = 0;
    atomic_store_explicit(&x->whys, 0u, memory_order_relaxed);
}

AXL_HOT char *axl__exec_why(axl__exec *x, uint32_t n)
{
    const uint32_t k =
        atomic_fetch_add_explicit(&x->whys, 1u, memory_order_relaxed);
    if (k >= x->nwhy)
        return NULL;
    x->why_node[k] = (uint16_t)n;
    x->why[k][0] = '\0';
    return x->why[k];
}

/* Node n has ended (or will never run): its successors count down; a
 * failed or skipped node dooms them, with its status. */
AXL_HOT static void settle(axl__exec *x, uint32_t n)
{
    const axl__exec_graph *g = x->g;
    const axl_status st = (axl_status)atomic_load_explicit(
        &x->node_st[n], memory_order_relaxed);
    x->left--;
    if (st != AXL_SUCCESS) {
        x->failed[WORD(n)] |= BIT(n);
        if (x->status == AXL_SUCCESS) {
            x->status = st;
            x->first_failed = n;
        }
    }
    for (uint32_t k = g->succ0[n]; k < g->succ0[n + 1u]; k++) {
        const uint32_t m = g->succ[k];
        if (st != AXL_SUCCESS && !(x->doomed[WORD(m)] & BIT(m))) {
            x->doomed[WORD(m)] |= BIT(m);
            atomic_store_explicit(&x->node_st[m], (int32_t)st,
                                  memory_order_relaxed);
        }
        if (--x->waiting[m] == 0) {
            x->waiting[m] = g->nodes[m].npreds; /* for the next submission */
            x->ready[WORD(m)] |= BIT(m);
        }
    }
}

/* Settles what ended since the last look. */
AXL_HOT static void settle_ended(axl__exec *x)
{
    for (uint32_t w = 0; w < x->g->words; w++) {
        if (!atomic_load_explicit(&x->ended[w], memory_order_relaxed))
            continue;
        uint32_t bits = atomic_exchange_explicit(&x->ended[w], 0u,
                                                 memory_order_acquire);
        for (; bits; bits &= bits - 1u)
            settle(x, w * 32u + (uint32_t)__builtin_ctz(bits));
    }
}

/* The start of one-run node n, its end awaited through in_start:
 * *inside when the run ended inside the start (the end took no poke and
 * left the node to this driver). The end and this return race for
 * in_start, and whichever swaps it first decides: the node settles once. */
AXL_HOT static axl_status start_watched(axl__exec *x, uint32_t n,
                                        bool *inside)
{
    atomic_store_explicit(&x->in_start, n + 1u, memory_order_relaxed);
    const axl_status st = x->ops->start(x, n, 0);
    *inside = atomic_exchange_explicit(&x->in_start, 0u,
                                       memory_order_acq_rel) ==
              AXL__EXEC_ENDED_INSIDE;
    return st;
}

/* A kernel node's runs, from the first not started: each started one
 * ends by axl__exec_run_ended; a WAIT keeps the node ready; a failure
 * fails the node, its runs not started never are. */
AXL_HOT static void start_runs(axl__exec *x, uint32_t n)
{
    const axl_plan_node *nd = &x->g->nodes[n];
    const uint32_t runs = axl__exec_runs(nd);
    for (uint32_t r = runs > 1u ? x->next_run[n] : 0u; r < runs; r++) {
        bool inside = false;
        const axl_status st = runs == 1u &&
                                      !(AXL_EXEC_ENDS_HERE && x->ops->ends_here)
                                  ? start_watched(x, n, &inside)
                                  : x->ops->start(x, n, r);
        if (st == AXL_SUCCESS) {
            if (inside)
                settle(x, n); /* no poke of its end to count */
            else
                x->due++;
            continue;
        }
        if (AXL_EXEC_ENDS_HERE && st == AXL__EXEC_ENDED_HERE) {
            /* no report, no poke */
            if (runs == 1u) {
                if (!inside)
                    settle(x, n);
                continue;
            }
            if (atomic_fetch_sub_explicit(&x->runs_left[n], 1,
                                          memory_order_acq_rel) == 1) {
                atomic_store_explicit(&x->runs_left[n], (uint16_t)runs,
                                      memory_order_relaxed);
                settle(x, n); /* its last run: the loop ends */
            }
            continue;
        }
        if (st == AXL__EXEC_WAIT) {
            x->due++; /* the kick it promised */
            if (runs > 1u)
                x->next_run[n] = (uint16_t)r;
            return;
        }
        x->ready[WORD(n)] &= ~BIT(n);
        axl__exec_fail(x, n, st);
        if (runs == 1u) {
            settle(x, n);
            return;
        }
        x->next_run[n] = 0;
        const uint16_t unstarted = (uint16_t)(runs - r);
        if (atomic_fetch_sub_explicit(&x->runs_left[n], unstarted,
                                      memory_order_acq_rel) == unstarted) {
            atomic_store_explicit(&x->runs_left[n], (uint16_t)runs,
                                  memory_order_relaxed);
            settle(x, n);
        }
        return;
    }
    x->ready[WORD(n)] &= ~BIT(n);
    if (runs > 1u)
        x->next_run[n] = 0;
}

AXL_HOT static void start_node(axl__exec *x, uint32_t n)
{
    const axl_plan_node *nd = &x->g->nodes[n];
    if (x->doomed[WORD(n)] & BIT(n)) {
        x->ready[WORD(n)] &= ~BIT(n); /* skipped: never runs */
        settle(x, n);
        return;
    }
    if (nd->kind == AXL_PLAN_NODE_KERNEL) {
        start_runs(x, n);
        return;
    }
    x->ready[WORD(n)] &= ~BIT(n);
    if (nd->kind != AXL_PLAN_NODE_EMPTY) { /* host, pipeline start, stop */
        const axl_status st = x->ops->run_node ? x->ops->run_node(x, n)
                                               : AXL_ERR_FEATURE_NOT_SUPPORTED;
        if (st == AXL_SUCCESS) {
            x->due++;
            return;
        }
        axl__exec_fail(x, n, st);
    }
    settle(x, n); /* EMPTY, or a host node that did not start */
}

/* Starts what is ready, in node order; nodes made ready meanwhile (by a
 * failure's skips) come later in the order, so this pass sees them. */
AXL_HOT static void start_ready(axl__exec *x)
{
    for (uint32_t w = 0; w < x->g->words; w++) {
        uint32_t seen = 0;
        uint32_t bits;
        while ((bits = x->ready[w] & ~seen) != 0) {
            const uint32_t b = bits & (0u - bits);
            seen |= b;
            start_node(x, w * 32u + (uint32_t)__builtin_ctz(b));
        }
    }
}

/* Drives, holding p pokes: turns until none is left. */
AXL_HOT static bool turns(axl__exec *x, uint32_t p)
{
    for (;;) {
        settle_ended(x);
        start_ready(x);
        x->taken += p;
        if (!x->left && x->taken == x->due + 1u)
            return true; /* every poke there will be is taken */
        const uint32_t rest =
            atomic_fetch_sub_explicit(&x->pokes, p, memory_order_acq_rel) - p;
        if (!rest)
            return false;
        p = rest;
    }
}

AXL_HOT bool axl__exec_drive(axl__exec *x)
{
    atomic_store_explicit(&x->pokes, 1u, memory_order_relaxed);
    return turns(x, 1u);
}

AXL_HOT static bool poked(axl__exec *x, bool may_drive)
{
    if (atomic_fetch_add_explicit(&x->pokes, 1u, memory_order_acq_rel))
        return false; /* the driver sees it at its next turn */
    if (!may_drive) {
        atomic_store_explicit(&x->orphan, 1, memory_order_release);
        return false;
    }
    return turns(x, 1u);
}

AXL_HOT bool axl__exec_run_ended(axl__exec *x, uint32_t n, axl_status st,
                                 bool may_drive)
{
    const axl_plan_node *nd = &x->g->nodes[n];
    if (st != AXL_SUCCESS)
        axl__exec_fail(x, n, st);
    uint32_t starting = n + 1u;
    if (atomic_load_explicit(&x->in_start, memory_order_relaxed) ==
            starting &&
        atomic_compare_exchange_strong_explicit(
            &x->in_start, &starting, AXL__EXEC_ENDED_INSIDE,
            memory_order_acq_rel, memory_order_relaxed))
        return false; /* inside its start: its starter settles it */
    if (axl__exec_runs(nd) > 1u) {
        if (atomic_fetch_sub_explicit(&x->runs_left[n], 1,
                                      memory_order_acq_rel) != 1)
            return poked(x, may_drive);
        atomic_store_explicit(&x->runs_left[n], nd->nruns,
                              memory_order_relaxed);
    }
    atomic_fetch_or_explicit(&x->ended[WORD(n)], BIT(n),
                             memory_order_release);
    return poked(x, may_drive);
}

bool axl__exec_node_ended(axl__exec *x, uint32_t n, axl_status st,
                          bool may_drive)
{
    if (st != AXL_SUCCESS)
        axl__exec_fail(x, n, st);
    atomic_fetch_or_explicit(&x->ended[WORD(n)], BIT(n),
                             memory_order_release);
    return poked(x, may_drive);
}

AXL_HOT bool axl__exec_kick(axl__exec *x, bool may_drive)
{
    return poked(x, may_drive);
}

AXL_HOT bool axl__exec_adopt(axl__exec *x)
{
    return atomic_load_explicit(&x->orphan, memory_order_relaxed) &&
           atomic_exchange_explicit(&x->orphan, 0, memory_order_acquire);
}

AXL_HOT bool axl__exec_drive_held(axl__exec *x)
{
    return turns(x, 1u);
}
