/*
 * xrt/mmio/fw_exec.c - the plan executor (axl/plan.h): replays a plan that
 * a host build wrote, on the mmio port's units (unit.c: the same argument
 * writes, ap_start and completion modes as the device port, on the
 * registers of docs/hls-control.md), with no
 * runtime, scheduler or allocator. The walk is the runtime's own
 * (core/exec.c): this file is its firmware client, which loads plans,
 * places their buffers, wires their units and starts runs.
 *
 * A loaded plan is a slot: where each buffer is, the scalars as updated,
 * and the executor's state for the current submission. A unit's end (seen
 * by the waiter's poll or by the interrupt entry, possibly in interrupt
 * context) only tells the executor that the run ended, never driving it:
 * the waiter, which drives every loaded plan, adopts the claim and starts
 * what that releases. So one thread drives plans, and interrupts touch
 * nothing but a node's status, its bit and a failure's message.
 *
 * What load checks is what can differ on the board from where the plan
 * was made (DESIGN.md, "One launch mechanism"): the design's UUID, the
 * banks' regions, the executor's capacities, and that the tables are
 * consistent (a plan is const data a firmware may get from anywhere).
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <string.h>

#include "axl/plan.h"
#include "axl/runtime.h"
#include "mmio_banks.h"
#include "exec.h"
#include "mmio_unit.h"

#if MMIO_MODEL
#include "axl/xclbin.h"
#endif

#define WORDS ((AXL_PLAN_MAX_NODES + 31) / 32)

/* Runs a slot holds: one per node unless nodes of several runs are
 * switched on (mmio_config.h), when run t of the plan is a token of its
 * own (run0). */
#if AXL_PLAN_SEVERAL_RUNS
#define RUNS AXL_PLAN_MAX_RUNS
#if !AXL_EXEC_SEVERAL_RUNS
#error "AXL_PLAN_SEVERAL_RUNS needs the executor's AXL_EXEC_SEVERAL_RUNS"
#endif
#else
#define RUNS AXL_PLAN_MAX_NODES
#endif

/* A run's token: what its unit's run points to (mmio_unit.h). */
typedef struct plan_token {
    uint16_t node;
    uint16_t run;
    uint8_t slot;
} plan_token;

typedef struct plan_place {
    unsigned char *host;
    uint64_t phys;
} plan_place;

/* A loaded plan: its placement, scalars and the executor's state. */
typedef struct plan_slot {
    const axl_plan *plan;   /* NULL: free */
    uint16_t gen;
    uint8_t running;        /* a submission not yet waited to its end */
    uint32_t seq;           /* its number */
    axl__exec x;            /* the walk (core/exec.h) */
    axl__exec_graph g;
    uint32_t roots[WORDS], ready[WORDS], doomed[WORDS], failed[WORDS];
    _Atomic uint32_t ended[WORDS];
    uint16_t waiting[AXL_PLAN_MAX_NODES];
#if AXL_PLAN_SEVERAL_RUNS
    uint16_t next_run[AXL_PLAN_MAX_NODES];
    _Atomic uint16_t runs_left[AXL_PLAN_MAX_NODES];
#endif
    _Atomic int32_t node_st[AXL_PLAN_MAX_NODES];
    uint16_t succ0[AXL_PLAN_MAX_NODES + 1]; /* successors of n:
                                   succ[succ0[n], succ0[n + 1]) */
    uint16_t succ[AXL_PLAN_MAX_EDGES];
    char why[1][AXL_MESSAGE_MAX]; /* the first failure's message */
    uint16_t why_node[1];
#if AXL_PLAN_SEVERAL_RUNS
    uint16_t run0[AXL_PLAN_MAX_NODES + 1]; /* node n's first token (and
                                   the count of tokens after the last) */
#endif
    plan_token tok[RUNS];
    uint64_t end[AXL_MMIO_BANKS]; /* where its placement ends per memory
                                     (mmio_banks.h, a region's `same`;
                                     0: nothing placed there) */
    plan_place own[AXL_PLAN_MAX_BUFFERS]; /* its placement */
    plan_place buf[AXL_PLAN_MAX_BUFFERS]; /* what runs use (set_buffer) */
    uint8_t scalars[AXL_PLAN_SCALAR_BYTES + 8]; /* + 8: start_run reads
                                                   8 at a time */
    /* Each run's arguments' identity (mmio_unit.h, held_id): a unit
     * whose registers a start of run t wrote with args_id[t] holds them
     * still, and the next start of t writes none. New ids at load and at
     * every update (they have the top bit set, apart from the device
     * port's args_ids; the units' owner changes only with every id
     * forgotten). */
    uint32_t args_id[RUNS];
} plan_slot;

_Static_assert(AXL_PLAN_MAX_NODES >= 1 && AXL_PLAN_MAX_NODES <= 4095,
               "AXL_PLAN_MAX_NODES must be 1 to 4095");
_Static_assert(AXL_PLAN_MAX_RUNS >= AXL_PLAN_MAX_NODES &&
                   AXL_PLAN_MAX_RUNS <= UINT16_MAX,
               "AXL_PLAN_MAX_RUNS must be AXL_PLAN_MAX_NODES to 65535");
_Static_assert(AXL_PLAN_MAX_EDGES <= UINT16_MAX,
               "AXL_PLAN_MAX_EDGES must be < 65536");
_Static_assert(AXL_PLAN_LOADED <= 32, "AXL_PLAN_LOADED must be <= 32");

static plan_slot slots[AXL_PLAN_LOADED];
static uint64_t used[AXL_MMIO_BANKS]; /* bytes placed per memory (the
                                         regions of one memory share it) */
static mmio_memory memory;            /* the board's regions, checked at
                                         the first load */
static uint32_t loaded;               /* plans loaded */
static uint32_t last_args_id;         /* the last argument identity given */
/* Per unit, the slots whose run waits for it (a bit each): its end kicks
 * them (any context, the interrupt's included). */
static _Atomic uint32_t unit_waiters[AXL_MMIO_UNITS];

/* Run r of node n: its unit and arguments. */
static inline axl_plan_node_run run_of(const axl_plan *p, uint32_t n,
                                       uint32_t r)
{
    const axl_plan_node *nd = &p->nodes[n];
#if AXL_PLAN_SEVERAL_RUNS
    if (nd->nruns > 1)
        return p->runs[nd->run0 + r];
#else
    (void)r; /* load refused nodes of several runs */
#endif
    const axl_plan_node_run one = {nd->unit, nd->arg0, nd->nargs};
    return one;
}

/* The runs of node n that the slot's tokens count (an empty node's one
 * when every node has one token). */
static inline uint32_t tokens_of(const axl_plan_node *nd)
{
#if AXL_PLAN_SEVERAL_RUNS
    return axl__exec_runs(nd);
#else
    (void)nd;
    return 1u;
#endif
}

/* Node n's first token in slot s. */
AXL_HOT static inline uint32_t first_token(const struct plan_slot *s,
                                           uint32_t n)
{
#if AXL_PLAN_SEVERAL_RUNS
    return s->run0[n];
#else
    (void)s;
    return n;
#endif
}

/* Whether runs a and b write the same words into the same unit. */
static int same_args(const plan_slot *s, axl_plan_node_run a,
                     axl_plan_node_run b)
{
    const axl_plan *p = s->plan;
    if (a.unit != b.unit || a.nargs != b.nargs)
        return 0;
    for (uint32_t m = 0; m < a.nargs; m++) {
        const axl_plan_arg *x = &p->args[a.arg0 + m];
        const axl_plan_arg *y = &p->args[b.arg0 + m];
        if (x->kind != y->kind || x->offset != y->offset ||
            x->size != y->size || x->bytes != y->bytes)
            return 0;
        if (x->kind == AXL_PLAN_ARG_BUFFER
                ? x->ref != y->ref || x->at != y->at
                : memcmp(s->scalars + x->ref, s->scalars + y->ref, x->bytes))
            return 0;
    }
    return 1;
}

/* Run t of s (a token): its unit and arguments. */
static axl_plan_node_run token_run(const plan_slot *s, uint32_t t)
{
    return run_of(s->plan, s->tok[t].node, s->tok[t].run);
}

/* New identities for every run of s (what units hold is not theirs), one
 * for runs that write the same words into the same unit: a chain of one
 * launch repeated writes its arguments once. */
static void new_args_ids(plan_slot *s)
{
    const uint32_t runs = first_token(s, s->plan->nnodes);
    for (uint32_t t = 0; t < runs; t++) {
        uint32_t k = 0;
        while (k < t && !same_args(s, token_run(s, k), token_run(s, t)))
            k++;
        if (k < t) {
            s->args_id[t] = s->args_id[k];
            continue;
        }
        last_args_id = (last_args_id + 1u) & 0x7fffffffu;
        s->args_id[t] = 0x80000000u | last_args_id;
    }
}
#if MMIO_MODEL
static axl_xclbin design;             /* what the model is attached with */
#endif

/* ---- Handles ---------------------------------------------------------------- */

static uint32_t id_of(uint32_t slot)
{
    return ((uint32_t)slots[slot].gen << 8) | (slot + 1u);
}

AXL_HOT static plan_slot *slot_of(uint32_t id)
{
    uint32_t i = (id & 0xffu) - 1u;
    if (i >= AXL_PLAN_LOADED || !slots[i].plan ||
        slots[i].gen != (uint16_t)(id >> 8))
        return NULL;
    return &slots[i];
}

#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static axl_status stale(const char *fn, uint32_t id)
{
    return mmio_fail(AXL_ERR_INVALID_OBJECT,
                     "%s: plan id 0x%x names no loaded plan",
                     fn, (unsigned)id);
}

/* A call refused about plan p: "fn: plan NAME: " and why, one prefix for
 * every message that names a plan. */
#if AXL_MESSAGES
#if defined(__GNUC__)
__attribute__((noinline, cold, format(printf, 4, 5)))
#endif
static axl_status plan_fail(axl_status st, const char *fn, const axl_plan *p,
                            const char *fmt, ...)
{
    char *m = axl_port_message_buffer();
    const size_t n = axl_format(m, AXL_MESSAGE_MAX, "%s: plan %s: ", fn,
                                p->name ? p->name : "(unnamed)");
    va_list ap;
    va_start(ap, fmt);
    if (n < AXL_MESSAGE_MAX)
        axl_vformat(m + n, AXL_MESSAGE_MAX - n, fmt, ap);
    va_end(ap);
    return st;
}
#else
#define plan_fail(st, fn, p, ...)                                              \
    ((void)(fn), (void)(p), mmio_fail(st, __VA_ARGS__))
#endif

/* A submission of s runs: unloading, updating or submitting again waits
 * for its end. */
static axl_status refuse_running(const char *fn, const plan_slot *s)
{
    return plan_fail(AXL_ERR_BAD_STATE, fn, s->plan,
                     "it runs: wait for its submission to end first");
}

/* ---- Loading ------------------------------------------------------------------ */

/* The UUID of the design the board says is programmed, or NULL. */
static const uint8_t *board_uuid(const axl_mmio_board *bd)
{
    if (bd->predigested)
        return bd->predigested->uuid;
    static const uint8_t magic[8] = {'x', 'c', 'l', 'b', 'i', 'n', '2', 0};
    if (bd->design && bd->design_size >= 432 &&
        !memcmp((const uint8_t *)bd->design, magic, sizeof magic))
        return (const uint8_t *)bd->design + 416; /* m_header.uuid */
    return bd->design_uuid;
}

/* A UUID's first four bytes, as it is written (for messages; a macro,
 * which a build without messages leaves unused). */
#define UUID_HEAD(u)                                                           \
    ((unsigned long)(u)[0] << 24 | (unsigned long)(u)[1] << 16 |              \
     (unsigned long)(u)[2] << 8 | (unsigned long)(u)[3])

/* Run r of node i of plan p is one the executor can start: its unit and
 * arguments inside the tables, each argument a register it can write. */
static axl_status check_run(const axl_plan *p, uint32_t i,
                            axl_plan_node_run run)
{
    if (run.unit >= p->nunits || run.nargs > AXL_MMIO_MAX_ARGS ||
        (uint32_t)run.arg0 + run.nargs > p->nargs)
        return plan_fail(AXL_ERR_INVALID, "axl_plan_load", p,
                         "node %u names %s", (unsigned)i,
                         "a unit or arguments outside its tables (or over "
                         "AXL_MMIO_MAX_ARGS)");
    for (uint32_t k = 0; k < run.nargs; k++) {
        const axl_plan_arg *a = &p->args[run.arg0 + k];
        int ok = a->size && a->size <= 64 && !(a->offset & 3u) &&
                 a->offset >= MMIO_ARGS;
        if (a->kind == AXL_PLAN_ARG_BUFFER)
            ok = ok && a->ref < p->nbuffers && a->size >= 4 &&
                 a->at < p->buffers[a->ref].size;
        else
            ok = ok && a->kind == AXL_PLAN_ARG_SCALAR &&
                 a->bytes <= a->size &&
                 (uint64_t)a->ref + a->bytes <= p->scalar_bytes;
        if (!ok)
            return plan_fail(AXL_ERR_INVALID, "axl_plan_load", p,
                             "node %u argument %u (register 0x%x, %u "
                             "bytes) is not writable",
                             (unsigned)i, (unsigned)a->id,
                             (unsigned)a->offset, (unsigned)a->size);
    }
    return AXL_SUCCESS;
}

/* A plan is const data from anywhere: its tables must hold together
 * before anything trusts them. */
static axl_status check_tables(const axl_plan *p)
{
    if (p->nnodes > AXL_PLAN_MAX_NODES || p->npreds > AXL_PLAN_MAX_EDGES ||
        p->nbuffers > AXL_PLAN_MAX_BUFFERS ||
        p->scalar_bytes > AXL_PLAN_SCALAR_BYTES)
        return plan_fail(AXL_ERR_OUT_OF_RESOURCES, "axl_plan_load", p,
                         "%u nodes, %u edges, %u buffers, %u scalar bytes: "
                         "over AXL_PLAN_MAX_NODES %u, _EDGES %u, _BUFFERS %u "
                         "or AXL_PLAN_SCALAR_BYTES %u",
                         (unsigned)p->nnodes, (unsigned)p->npreds,
                         (unsigned)p->nbuffers, (unsigned)p->scalar_bytes,
                         (unsigned)AXL_PLAN_MAX_NODES,
                         (unsigned)AXL_PLAN_MAX_EDGES,
                         (unsigned)AXL_PLAN_MAX_BUFFERS,
                         (unsigned)AXL_PLAN_SCALAR_BYTES);
#if AXL_PLAN_SEVERAL_RUNS
    uint32_t runs = 0;
    for (uint32_t i = 0; i < p->nnodes; i++)
        runs += tokens_of(&p->nodes[i]);
    if (runs > RUNS)
        return plan_fail(AXL_ERR_OUT_OF_RESOURCES, "axl_plan_load", p,
                         "%u runs; the executor holds %u "
                         "(AXL_PLAN_MAX_RUNS)",
                         (unsigned)runs, (unsigned)RUNS);
#endif
    for (uint32_t u = 0; u < p->nunits; u++)
        if (p->units[u].ip_index >= AXL_MMIO_UNITS)
            return plan_fail(AXL_ERR_OUT_OF_RESOURCES, "axl_plan_load", p,
                             /* unit.c's words (one string, merged) */
                             "IP_LAYOUT entry %u; the port drives entries "
                             "below AXL_MMIO_UNITS (%u)",
                             (unsigned)p->units[u].ip_index,
                             (unsigned)AXL_MMIO_UNITS);
    for (uint32_t b = 0; b < p->nbuffers; b++) {
        const uint32_t a = p->buffers[b].align;
        if (!a || (a & (a - 1u)) || !p->buffers[b].size)
            return plan_fail(AXL_ERR_INVALID, "axl_plan_load", p,
                             "buffer %u has size %llu and alignment %u (a "
                             "power of two)",
                             (unsigned)b,
                             (unsigned long long)p->buffers[b].size,
                             (unsigned)a);
    }
    uint32_t edges = 0; /* each node's are its own: the successor
                           lists hold as many (axl__exec_build) */
    for (uint32_t i = 0; i < p->nnodes; i++) {
        const axl_plan_node *nd = &p->nodes[i];
#if MMIO_STREAMS
        /* A pipeline's start or stop: fw_pipe.c's, through the plan. */
        if (nd->kind != AXL_PLAN_NODE_KERNEL &&
            nd->kind != AXL_PLAN_NODE_EMPTY &&
            ((nd->kind != AXL_PLAN_NODE_PIPE_START &&
              nd->kind != AXL_PLAN_NODE_PIPE_STOP) ||
             p->format < 3u || !p->pipelines))
            return plan_fail(AXL_ERR_INVALID, "axl_plan_load", p,
                             "node %u is of kind %u in a plan of format %u: "
                             "not a kernel or empty node, nor a pipeline's "
                             "start or stop (format 3, .pipelines set)",
                             (unsigned)i, (unsigned)nd->kind,
                             (unsigned)p->format);
#else
        /* Pipelines switched off: a plan holding one does not link (it
         * names axl_plan_pipelines), and a hand-made one is refused. */
        if (nd->kind != AXL_PLAN_NODE_KERNEL &&
            nd->kind != AXL_PLAN_NODE_EMPTY)
            return plan_fail(AXL_ERR_INVALID, "axl_plan_load", p,
                             "node %u is of kind %u, not a kernel or empty "
                             "node",
                             (unsigned)i, (unsigned)nd->kind);
#endif
#if !AXL_PLAN_SEVERAL_RUNS
        if (nd->nruns > 1)
            return plan_fail(AXL_ERR_FEATURE_NOT_SUPPORTED, "axl_plan_load",
                             p,
                             "node %u has %u runs; this executor runs one "
                             "(AXL_PLAN_SEVERAL_RUNS 0)",
                             (unsigned)i, (unsigned)nd->nruns);
#endif
        edges += nd->npreds;
        if ((uint32_t)nd->pred0 + nd->npreds > p->npreds ||
            edges > p->npreds ||
            (nd->nruns > 1 &&
             ((uint32_t)nd->run0 + nd->nruns > p->nruns || !p->runs)))
            return plan_fail(AXL_ERR_INVALID, "axl_plan_load", p,
                             "node %u names %s", (unsigned)i,
                             "edges or runs outside its tables");
        for (uint32_t e = 0; e < nd->npreds; e++)
            if (p->preds[nd->pred0 + e] >= i)
                return plan_fail(AXL_ERR_INVALID, "axl_plan_load", p,
                                 "node %u waits for node %u, which is not "
                                 "before it",
                                 (unsigned)i,
                                 (unsigned)p->preds[nd->pred0 + e]);
        for (uint32_t r = 0; r < axl__exec_runs(nd); r++) {
            axl_status st = check_run(p, i, run_of(p, i, r));
            if (st != AXL_SUCCESS)
                return st;
        }
    }
    return AXL_SUCCESS;
}

/* A buffer's alignment: the plan's, and at least the board's. */
static uint64_t align_of(const axl_plan_buffer_desc *d)
{
    return d->align > memory.align ? d->align : memory.align;
}

static unsigned char *host_at(const axl_mmio_bank_region *r, uint64_t phys)
{
    return (unsigned char *)r->host + (phys - r->phys); /* checked: set */
}

/* Where the plan's buffers go, after what is placed in each region
 * (s->own, s->end); take_place takes it once the load cannot fail. */
static axl_status place(plan_slot *s, const axl_mmio_board *bd)
{
    const axl_plan *p = s->plan;
    uint64_t at[AXL_MMIO_BANKS];
    memcpy(at, used, sizeof at);
    memset(s->end, 0, sizeof s->end);
    (void)bd;
    for (uint32_t b = 0; b < p->nbuffers; b++) {
        const axl_plan_buffer_desc *d = &p->buffers[b];
        const int r = axl__mmio_region_of(&memory, d->bank);
        if (r < 0)
            return plan_fail(AXL_ERR_INVALID, "axl_plan_load", p,
                             "buffer %u: the board declares no region for "
                             "its bank %u (axl_mmio_board.banks)",
                             (unsigned)b, (unsigned)d->bank);
        const axl_mmio_bank_region *g = &memory.region[r];
        const uint32_t m = memory.same[r]; /* its memory's placement */
        const uint64_t a = align_of(d);
        const uint64_t addr = (g->phys + at[m] + a - 1u) & ~(a - 1u);
        const uint64_t off = addr - g->phys;
        if (off > g->size || d->size > g->size - off)
            return plan_fail(AXL_ERR_OUT_OF_RESOURCES, "axl_plan_load", p,
                             "buffer %u (%llu bytes, aligned to %u) does "
                             "not fit bank %u's region: %llu of %llu bytes "
                             "are placed",
                             (unsigned)b,
                             (unsigned long long)d->size, (unsigned)a,
                             (unsigned)d->bank, (unsigned long long)at[m],
                             (unsigned long long)g->size);
        s->own[b].phys = addr;
        s->own[b].host = host_at(g, addr);
        at[m] = off + d->size;
        s->end[m] = at[m];
    }
    return AXL_SUCCESS;
}

/* The placement taken, once nothing can refuse the load any more (and a
 * model told of the buffers, so it bounds each as the device does). */
static void take_place(const plan_slot *s)
{
    for (uint32_t r = 0; r < AXL_MMIO_BANKS; r++)
        if (s->end[r] > used[r])
            used[r] = s->end[r];
#if MMIO_MODEL
    const axl_mmio_model *m = axl__mmio.model;
    if (m->note_alloc)
        for (uint32_t b = 0; b < s->plan->nbuffers; b++) {
            m = axl__mmio_model_enter();
            m->note_alloc(m->user, s->own[b].phys, s->plan->buffers[b].size);
            axl__mmio_model_leave(m);
        }
#endif
}

/* The first load takes the units (mmio.c's device port must be closed),
 * and in a model build powers the model up. */
static axl_status take_fabric(const axl_mmio_board *bd)
{
    if (axl__mmio.open == MMIO_OWNER_DEVICE)
        return mmio_fail(AXL_ERR_BAD_STATE,
                         "axl_plan_load: the runtime holds the mmio "
                         "device's units (axl_shutdown first)");
    if (axl__mmio.open == MMIO_OWNER_PLANS)
        return AXL_SUCCESS;
    /* The design's banks (their regions without the board's, their
     * names in messages): a pre-digested design's table, or (a model
     * build, which has the reader) the design's bytes read. */
#if MMIO_MODEL
    const axl_xclbin *x = NULL;
    char why[96];
    if (bd->predigested
            ? axl_xclbin_open_design(&design, bd->predigested, why,
                                     sizeof why) == AXL_SUCCESS
            : bd->design && axl_xclbin_open(&design, bd->design,
                                            bd->design_size, why,
                                            sizeof why) == AXL_SUCCESS)
        x = &design;
    axl_status st = axl__mmio_memory("axl_plan_load", bd, x,
                                     x ? x->mem_count : 0u,
                                     axl__mmio_reader_mem, &memory);
#else
    axl_status st = axl__mmio_memory(
        "axl_plan_load", bd, bd->predigested,
        bd->predigested ? bd->predigested->mem_count : 0u,
        axl__mmio_digest_mem, &memory);
#endif
    if (st != AXL_SUCCESS)
        return st;
    memset(axl__mmio.units, 0, sizeof axl__mmio.units);
    memset(used, 0, sizeof used);
    axl__mmio.board = bd;
    axl__mmio.now = axl_port_now_ns;
    axl__mmio.warn = NULL; /* axl_mmio_counters.irq_missing counts it */
#if MMIO_MODEL
    axl__mmio.model = bd->model;
    st = !bd->model ? mmio_fail(AXL_ERR_PLATFORM,
                                "axl_plan_load: a model build needs a model "
                                "of the fabric; the board names none")
         : x        ? AXL_SUCCESS
                    : AXL_ERR_PLATFORM;
    if (st == AXL_SUCCESS)
        st = axl__mmio_model_attach(&design, memory.region, memory.count);
    if (st != AXL_SUCCESS)
        return mmio_fail(st, "axl_plan_load: the model could not start: %s",
                         axl_last_message());
#endif
    axl__mmio.open = MMIO_OWNER_PLANS;
    return AXL_SUCCESS;
}

static void give_fabric(void)
{
    for (uint32_t i = 0; i < AXL_MMIO_UNITS; i++) {
        mmio_unit *u = &axl__mmio.units[i];
        if (u->known && u->irq)
            mmio_wr32(u->regs, MMIO_GIE, 0);
    }
    axl__mmio.open = MMIO_OWNER_NONE;
#if MMIO_MODEL
    axl__mmio_model_detach();
#endif
}

static void plan_ended(mmio_unit *u, const void *run, axl_status st,
                       const char *why);

/* The first run of plan p on unit k, in node order. */
static int first_run_on(const axl_plan *p, uint32_t k,
                        axl_plan_node_run *out)
{
    for (uint32_t i = 0; i < p->nnodes; i++)
        for (uint32_t r = 0; r < axl__exec_runs(&p->nodes[i]); r++) {
            *out = run_of(p, i, r);
            if (out->unit == k)
                return 1;
        }
    return 0;
}

/* Each unit of the plan wired, its registers laid out as the plan's
 * first run on it says (every run of a unit runs its one kernel). */
static axl_status ready_units(const axl_plan *p)
{
    for (uint32_t k = 0; k < p->nunits; k++) {
        const axl_plan_unit *pu = &p->units[k];
        mmio_unit *u = &axl__mmio.units[pu->ip_index];
        if (u->known)
            continue; /* another plan readied it */
        const char *name = pu->name ? pu->name : "";
        axl_status st = axl__mmio_wire_unit(pu->ip_index, pu->base,
                                            (int)pu->chain, name,
                                            strlen(name));
        if (st != AXL_SUCCESS)
            return st;
        u->ended = plan_ended;
        axl_plan_node_run run;
        if (first_run_on(p, k, &run)) {
            u->nargs = run.nargs;
            for (uint32_t m = 0; m < u->nargs; m++) {
                const axl_plan_arg *a = &p->args[run.arg0 + m];
                u->args[m].id = a->id;
                u->args[m].offset = a->offset;
                u->args[m].size = a->size;
                u->args[m].is_mem = a->kind == AXL_PLAN_ARG_BUFFER;
            }
        }
        axl__mmio_forget_held(u);
        axl__mmio_arm(u);
    }
    return AXL_SUCCESS;
}

static const axl__exec_ops plan_ops;

/* The executor of slot i, over its plan's nodes, and each run's token. */
static void ready_exec(plan_slot *s, uint32_t i)
{
    const axl_plan *p = s->plan;
    s->g.nnodes = p->nnodes;
    s->g.words = (p->nnodes + 31u) / 32u;
    s->g.nodes = p->nodes;
    s->g.succ0 = s->succ0;
    s->g.succ = s->succ;
    s->g.roots = s->roots;
    /* check_tables saw every edge go to an earlier node, and the edges
     * fit the lists. */
    (void)axl__exec_build(p->nodes, p->nnodes, p->preds, s->succ0, s->succ,
                          s->roots);
    axl__exec *x = &s->x;
    x->g = &s->g;
    x->ops = &plan_ops;
    x->client = s;
    x->ready = s->ready;
    x->doomed = s->doomed;
    x->failed = s->failed;
    x->ended = s->ended;
    x->waiting = s->waiting;
#if AXL_PLAN_SEVERAL_RUNS
    x->next_run = s->next_run;
    x->runs_left = s->runs_left;
#endif
    x->node_st = s->node_st;
    x->why = s->why;
    x->why_node = s->why_node;
    x->nwhy = 1;
    axl__exec_init(x);
    uint32_t t = 0;
    for (uint32_t n = 0; n < p->nnodes; n++) {
#if AXL_PLAN_SEVERAL_RUNS
        s->run0[n] = (uint16_t)t;
#endif
        for (uint32_t r = 0; r < tokens_of(&p->nodes[n]); r++, t++) {
            s->tok[t].slot = (uint8_t)i;
            s->tok[t].node = (uint16_t)n;
            s->tok[t].run = (uint16_t)r;
        }
    }
#if AXL_PLAN_SEVERAL_RUNS
    s->run0[p->nnodes] = (uint16_t)t;
#endif
}

axl_status axl_plan_load(const axl_plan *plan, axl_plan_id *out)
{
    if (!plan || !out)
        return mmio_fail(AXL_ERR_INVALID,
                         "axl_plan_load: plan and out must not be NULL");
    out->id = 0;
    /* Format 1 is format 2 without names, kinds or runs, and 2 is 3
     * without pipelines (their tables compile with them zero). */
    if (plan->format - 1u >= AXL_PLAN_FORMAT)
        return plan_fail(AXL_ERR_INVALID, "axl_plan_load", plan,
                         "format %u; this executor reads 1 to %u (write "
                         "it again with this axl)",
                         (unsigned)plan->format, (unsigned)AXL_PLAN_FORMAT);
    axl_status st = check_tables(plan);
    if (st != AXL_SUCCESS)
        return st;
    const axl_mmio_board *bd =
        axl__mmio.open == MMIO_OWNER_PLANS ? axl__mmio.board
                                           : axl__mmio_the_board();
    if (!bd)
        return mmio_fail(AXL_ERR_PLATFORM,
                         "axl_plan_load: no board (axl_mmio_set_board)");
    const uint8_t *uuid = board_uuid(bd);
    if (!uuid)
        return plan_fail(AXL_ERR_PLATFORM, "axl_plan_load", plan,
                         "the board names no design or design_uuid "
                         "(axl_mmio_board) to check it against");
    if (memcmp(uuid, plan->uuid, 16))
        return plan_fail(AXL_ERR_INVALID, "axl_plan_load", plan,
                         "made for design UUID %08lx..., the board's is "
                         "%08lx...: write it again for it",
                         UUID_HEAD(plan->uuid), UUID_HEAD(uuid));
    if (!bd->banks && !bd->predigested && plan->nbuffers &&
        (!MMIO_MODEL || !bd->design))
        return plan_fail(AXL_ERR_PLATFORM, "axl_plan_load", plan,
                         "the board declares no bank regions for its "
                         "buffers (axl_mmio_board.banks, or a pre-digested "
                         "design's)");
    uint32_t i = 0;
    while (i < AXL_PLAN_LOADED && slots[i].plan)
        i++;
    if (i == AXL_PLAN_LOADED)
        return mmio_fail(AXL_ERR_OUT_OF_RESOURCES,
                         "axl_plan_load: AXL_PLAN_LOADED (%u) plans are "
                         "loaded",
                         (unsigned)AXL_PLAN_LOADED);
    st = take_fabric(bd);
    if (st != AXL_SUCCESS)
        return st;
    plan_slot *s = &slots[i];
    const uint16_t gen = (uint16_t)(s->gen + 1u ? s->gen + 1u : 1u);
    memset(s, 0, sizeof *s);
    s->gen = gen;
    s->plan = plan;
    st = place(s, bd);
    if (st == AXL_SUCCESS)
        st = ready_units(plan);
#if MMIO_STREAMS
    if (st == AXL_SUCCESS && plan->format >= 3u && plan->pipelines)
        st = plan->pipelines->load(plan); /* fw_pipe.c */
#endif
    if (st != AXL_SUCCESS) {
        s->plan = NULL; /* nothing placed: used[] is as it was */
        if (!loaded)
            give_fabric();
        return st;
    }
    take_place(s);
    memcpy(s->buf, s->own, sizeof s->buf);
    if (plan->scalar_bytes)
        memcpy(s->scalars, plan->scalars, plan->scalar_bytes);
    ready_exec(s, i);
    new_args_ids(s);
    loaded++;
    out->id = id_of(i);
    return AXL_SUCCESS;
}

axl_status axl_plan_unload(axl_plan_id id)
{
    plan_slot *s = slot_of(id.id);
    if (!s)
        return stale("axl_plan_unload", id.id);
    if (s->running)
        return refuse_running("axl_plan_unload", s);
#if MMIO_MODEL
    const axl_mmio_model *m = axl__mmio.model;
    if (m->note_free)
        for (uint32_t b = 0; b < s->plan->nbuffers; b++) {
            m = axl__mmio_model_enter();
            m->note_free(m->user, s->own[b].phys);
            axl__mmio_model_leave(m);
        }
#endif
    s->plan = NULL;
    /* A region's bytes come back up to the end of the highest placement
     * still loaded. */
    for (uint32_t r = 0; r < AXL_MMIO_BANKS; r++) {
        used[r] = 0;
        for (uint32_t k = 0; k < AXL_PLAN_LOADED; k++)
            if (slots[k].plan && slots[k].end[r] > used[r])
                used[r] = slots[k].end[r];
    }
    if (!--loaded)
        give_fabric();
    return AXL_SUCCESS;
}

/* ---- Names ----------------------------------------------------------------------- */

/* The index of `name` in names[count] (a plan's name table, or NULL). */
static axl_status find_named(const char *fn, const axl_plan *plan,
                             const char *what, const char *const *names,
                             uint32_t count, const char *name,
                             uint32_t *index)
{
    if (!plan || !name || !index)
        return mmio_fail(AXL_ERR_INVALID,
                         "%s: plan, name and index must not be NULL", fn);
    for (uint32_t i = 0; names && plan->format >= 2u && i < count; i++)
        if (names[i] && !strcmp(names[i], name)) {
            *index = i;
            return AXL_SUCCESS;
        }
    return plan_fail(AXL_ERR_INVALID, fn, plan, "no %s named \"%.40s\"",
                     what, name);
}

axl_status axl_plan_find_buffer(const axl_plan *plan, const char *name,
                                uint32_t *index)
{
    return find_named("axl_plan_find_buffer", plan, "buffer",
                      plan ? plan->buffer_names : NULL,
                      plan ? plan->nbuffers : 0u, name, index);
}

axl_status axl_plan_find_node(const axl_plan *plan, const char *name,
                              uint32_t *index)
{
    return find_named("axl_plan_find_node", plan, "node",
                      plan ? plan->node_names : NULL,
                      plan ? plan->nnodes : 0u, name, index);
}

/* ---- Updates -------------------------------------------------------------------- */

axl_status axl_plan_buffer(axl_plan_id id, uint32_t index, void **host,
                           uint64_t *device_address)
{
    const plan_slot *s = slot_of(id.id);
    if (!s)
        return stale("axl_plan_buffer", id.id);
    if (index >= s->plan->nbuffers)
        return plan_fail(AXL_ERR_INVALID, "axl_plan_buffer", s->plan,
                         "no buffer %u (it has %u)", (unsigned)index,
                         (unsigned)s->plan->nbuffers);
    if (host)
        *host = s->buf[index].host;
    if (device_address)
        *device_address = s->buf[index].phys;
    return AXL_SUCCESS;
}


axl_status axl_plan_set_scalar(axl_plan_id id, uint32_t node,
                               uint32_t arg_id, const void *value,
                               size_t size)
{
    plan_slot *s = slot_of(id.id);
    if (!s)
        return stale("axl_plan_set_scalar", id.id);
    const axl_plan *p = s->plan;
    if (node >= p->nnodes)
        return plan_fail(AXL_ERR_INVALID, "axl_plan_set_scalar", p,
                         "no node %u (it has %u)", (unsigned)node,
                         (unsigned)p->nnodes);
    const axl_plan_node *nd = &p->nodes[node];
    const axl_plan_arg *a = NULL;
    for (uint32_t k = 0; k < nd->nargs && !a; k++)
        if (p->args[nd->arg0 + k].id == arg_id)
            a = &p->args[nd->arg0 + k];
    if (!a || a->kind != AXL_PLAN_ARG_SCALAR)
        return plan_fail(AXL_ERR_INVALID, "axl_plan_set_scalar", p,
                         "node %u (%s) has no scalar argument %u",
                         (unsigned)node, nd->kernel, (unsigned)arg_id);
    if (!value || size != a->bytes)
        return plan_fail(AXL_ERR_INVALID, "axl_plan_set_scalar", p,
                         "argument %u of node %u (%s) is %u bytes; %u given",
                         (unsigned)arg_id, (unsigned)node, nd->kernel,
                         (unsigned)a->bytes, (unsigned)size);
    if (s->running)
        return refuse_running("axl_plan_set_scalar", s);
    memcpy(s->scalars + a->ref, value, size);
    new_args_ids(s);
    return AXL_SUCCESS;
}

axl_status axl_plan_set_buffer(axl_plan_id id, uint32_t index, void *host,
                               uint64_t device_address, uint64_t size)
{
    plan_slot *s = slot_of(id.id);
    if (!s)
        return stale("axl_plan_set_buffer", id.id);
    const axl_plan *p = s->plan;
    if (index >= p->nbuffers)
        return plan_fail(AXL_ERR_INVALID, "axl_plan_set_buffer", p,
                         "no buffer %u (it has %u)", (unsigned)index,
                         (unsigned)p->nbuffers);
    const axl_plan_buffer_desc *d = &p->buffers[index];
    if (!(d->flags & AXL_PLAN_UPDATABLE))
        return plan_fail(AXL_ERR_INVALID, "axl_plan_set_buffer", p,
                         "buffer %u is not updatable", (unsigned)index);
    if (s->running)
        return refuse_running("axl_plan_set_buffer", s);
    if (!host) {
        s->buf[index] = s->own[index];
        new_args_ids(s);
        return AXL_SUCCESS;
    }
    const int r = axl__mmio_region_of(&memory, d->bank);
    const axl_mmio_bank_region *g = &memory.region[r];
    if (size < d->size || device_address < g->phys ||
        device_address - g->phys > g->size ||
        size > g->size - (device_address - g->phys))
        return plan_fail(AXL_ERR_INVALID, "axl_plan_set_buffer", p,
                         "buffer %u: 0x%llx, %llu bytes is not %llu bytes "
                         "inside bank %u's region",
                         (unsigned)index, (unsigned long long)device_address,
                         (unsigned long long)size,
                         (unsigned long long)d->size, (unsigned)d->bank);
    if (device_address & (align_of(d) - 1u))
        return plan_fail(AXL_ERR_INVALID, "axl_plan_set_buffer", p,
                         "buffer %u is aligned to %u bytes; 0x%llx is not",
                         (unsigned)index, (unsigned)align_of(d),
                         (unsigned long long)device_address);
    if ((unsigned char *)host != host_at(g, device_address))
        return plan_fail(AXL_ERR_INVALID, "axl_plan_set_buffer", p,
                         "the CPU's view of 0x%llx is %p in the board's bank "
                         "%u region, not %p",
                         (unsigned long long)device_address,
                         (void *)host_at(g, device_address),
                         (unsigned)d->bank, host);
    new_args_ids(s);
    s->buf[index].host = host;
    s->buf[index].phys = device_address;
    return AXL_SUCCESS;
}

/* ---- Replaying ------------------------------------------------------------------ */

/* The unit's end (mmio_unit.h), maybe in interrupt context: the run's
 * end told to the executor (never driving it: the waiter adopts), the
 * first failure's message, and a kick for each slot whose run waits for
 * the unit, which is free now. */
AXL_HOT static void plan_ended(mmio_unit *u, const void *run, axl_status st,
                               const char *why)
{
    const plan_token *tk = (const plan_token *)(uintptr_t)run;
    plan_slot *s = &slots[tk->slot];
    if (st != AXL_SUCCESS) {
        char *w = axl__exec_why(&s->x, tk->node);
        if (w)
            axl_format(w, AXL_MESSAGE_MAX,
                       "plan %s: node %u (%s on %s) failed: %s",
                       s->plan->name, (unsigned)tk->node,
                       s->plan->nodes[tk->node].kernel, u->name,
                       why ? why : axl_status_name(st));
    }
    (void)axl__exec_run_ended(&s->x, tk->node, st, false);
    uint32_t waiters = atomic_exchange_explicit(
        &unit_waiters[u - axl__mmio.units], 0u, memory_order_acq_rel);
    for (; waiters; waiters &= waiters - 1u)
        (void)axl__exec_kick(&slots[__builtin_ctz(waiters)].x, false);
}

/* Starts run r of node n on its unit u with its arguments: none when the
 * unit holds what this run's last start wrote, else only the words that
 * differ. */
AXL_HOT static axl_status start_run(plan_slot *s, uint32_t n, uint32_t r,
                                    axl_plan_node_run run, mmio_unit *u)
{
    const axl_plan *p = s->plan;
    const uint32_t t = first_token(s, n) + r;
    axl_status st = axl__mmio_ready(u);
    if (st != AXL_SUCCESS)
        return st;
    /* None when the unit holds this run's arguments. */
    const uint32_t nargs = u->held_id == s->args_id[t] ? 0u : run.nargs;
    int whole = 1; /* every argument held (no wide scalar) */
    for (uint32_t m = 0; m < nargs; m++) {
        const axl_plan_arg *a = &p->args[run.arg0 + m];
        uint64_t v;
        if (a->kind == AXL_PLAN_ARG_BUFFER) {
            v = s->buf[a->ref].phys + a->at;
        } else if (a->size > 8) {
            axl__mmio_put_wide(u, m, s->scalars + a->ref, a->bytes);
            whole = 0;
            continue;
        } else {
            /* Eight bytes at once (scalars[] has room past its end) and
             * the ones past the scalar's cleared: no call out of the hot
             * section. */
            __builtin_memcpy(&v, s->scalars + a->ref, sizeof v);
            if (a->bytes < 8)
                v &= ((uint64_t)1 << (8u * a->bytes)) - 1u;
        }
        axl__mmio_put_value(u, m, v);
    }
    u->held_id = whole ? s->args_id[t] : 0u;
    axl__mmio_go(u, &s->tok[t]);
    return AXL_SUCCESS;
}

#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static void start_failed(plan_slot *s, uint32_t n)
{
    char *w = axl__exec_why(&s->x, n);
    if (w)
        axl_format(w, AXL_MESSAGE_MAX,
                   "plan %s: node %u (%s) could not start: %s",
                   s->plan->name, (unsigned)n, s->plan->nodes[n].kernel,
                   axl_last_message());
}

/* The executor's start (core/exec.h): run r of node n, or AXL__EXEC_WAIT
 * while another run holds its unit (whose end kicks this slot). */
AXL_HOT static axl_status plan_start(axl__exec *x, uint32_t n, uint32_t r)
{
    plan_slot *s = x->client;
    const axl_plan_node_run run = run_of(s->plan, n, r);
    const uint32_t ip = s->plan->units[run.unit].ip_index;
    mmio_unit *u = &axl__mmio.units[ip];
    if (atomic_load_explicit(&u->run, memory_order_acquire)) {
        /* Registered first, then looked at again: an end between the two
         * either finds the registration (and kicks), or is seen here. */
        const uint32_t bit = 1u << (uint32_t)(s - slots);
        atomic_fetch_or(&unit_waiters[ip], bit);
        if (atomic_load(&u->run) ||
            !(atomic_fetch_and(&unit_waiters[ip], ~bit) & bit))
            return AXL__EXEC_WAIT;
    }
    const axl_status st = start_run(s, n, r, run, u);
    if (st != AXL_SUCCESS)
        start_failed(s, n);
    return st;
}

#if MMIO_STREAMS
/* The executor's run_node: a pipeline's start or stop (load saw the plan
 * carry its code, axl_plan.pipelines), done here, its message the code's. */
static axl_status plan_node(axl__exec *x, uint32_t n)
{
    const plan_slot *s = x->client;
    const axl_status st = s->plan->pipelines->run(s->plan, n);
    char *w = st != AXL_SUCCESS ? axl__exec_why(x, n) : NULL;
    if (w)
        axl_format(w, AXL_MESSAGE_MAX, "%s", axl_last_message());
    (void)axl__exec_node_ended(x, n, st, true);
    return AXL_SUCCESS;
}

static const axl__exec_ops plan_ops = {.start = plan_start,
                                       .run_node = plan_node};
#else
static const axl__exec_ops plan_ops = {.start = plan_start};
#endif

/* The submission of s has ended: what units wrote is read from memory. */
AXL_HOT static void end_run(plan_slot *s)
{
    const axl_plan *p = s->plan;
    for (uint32_t b = 0; b < p->nbuffers; b++)
        if (p->buffers[b].flags & AXL_PLAN_WRITE)
            axl__mmio_invalidate(s->buf[b].host, p->buffers[b].size);
    s->running = 0;
}

/* Drives every running plan whose runs ended since (the claims their ends
 * left), ending the submissions that finish. */
AXL_HOT static void drive_all(void)
{
    for (uint32_t i = 0; i < AXL_PLAN_LOADED; i++) {
        plan_slot *s = &slots[i];
        if (s->plan && s->running && axl__exec_adopt(&s->x) &&
            axl__exec_drive_held(&s->x))
            end_run(s);
    }
}

AXL_HOT axl_status axl_plan_submit(axl_plan_id id, axl_plan_run *run)
{
    plan_slot *s = slot_of(id.id);
    if (!s)
        return stale("axl_plan_submit", id.id);
    if (!run)
        return mmio_fail(AXL_ERR_INVALID,
                         "axl_plan_submit: run must not be NULL");
    if (s->running)
        return refuse_running("axl_plan_submit", s);
    const axl_plan *p = s->plan;
    for (uint32_t b = 0; b < p->nbuffers; b++)
        if (p->buffers[b].flags & (AXL_PLAN_READ | AXL_PLAN_WRITE))
            /* What units read must be in memory, and no dirty line of
             * what they write may be evicted over their writes. */
            axl__mmio_clean(s->buf[b].host, p->buffers[b].size);
    s->seq++;
    s->running = 1;
    axl__exec_begin(&s->x);
    if (axl__exec_drive(&s->x))
        end_run(s);
    run->plan = id.id;
    run->seq = s->seq;
    return AXL_SUCCESS;
}

/* The answer for a run that has ended (now or before). */
AXL_HOT static axl_status ended_status(const plan_slot *s)
{
    if (s->x.status == AXL_SUCCESS)
        return AXL_SUCCESS;
    /* The first failure's message: a start or an end that failed took
     * the one slot (a skipped node's status is a failure's). */
    return mmio_fail(s->x.status, "%s", s->why[0]);
}

AXL_HOT static axl_status run_slot(const char *fn, axl_plan_run run,
                                   plan_slot **out)
{
    plan_slot *s = slot_of(run.plan);
    if (!s)
        return stale(fn, run.plan);
    if (run.seq != s->seq)
        return plan_fail(AXL_ERR_INVALID, fn, s->plan,
                         "submission %u is not its last (%u)",
                         (unsigned)run.seq, (unsigned)s->seq);
    *out = s;
    return AXL_SUCCESS;
}

AXL_HOT axl_status axl_plan_wait(axl_plan_run run, uint64_t timeout_ns)
{
    plan_slot *s = NULL;
    axl_status st = run_slot("axl_plan_wait", run, &s);
    if (st != AXL_SUCCESS)
        return st;
    uint64_t deadline = UINT64_MAX;
    if (timeout_ns) {
        const uint64_t now = axl__mmio_now();
        deadline = now + timeout_ns < now ? UINT64_MAX : now + timeout_ns;
    }
    while (s->running) {
        drive_all();
        if (!s->running)
            break;
        if (deadline != UINT64_MAX && axl__mmio_now() >= deadline)
            return plan_fail(AXL_ERR_TIMEOUT, "axl_plan_wait", s->plan,
                             "still runs after %llu ns (%u of %u nodes "
                             "left): wait or poll again",
                             (unsigned long long)timeout_ns,
                             (unsigned)s->x.left, (unsigned)s->plan->nnodes);
        axl__mmio_progress(deadline);
    }
    return ended_status(s);
}

AXL_HOT axl_status axl_plan_poll(axl_plan_run run, int *done)
{
    plan_slot *s = NULL;
    axl_status st = run_slot("axl_plan_poll", run, &s);
    if (st != AXL_SUCCESS)
        return st;
    if (done)
        *done = 0;
    if (s->running) {
        drive_all();
        if (s->running) {
            /* One look at the units (a model gets one slice of time). */
            uint64_t now = axl__mmio_now();
#if MMIO_MODEL
            now += AXL_MMIO_MODEL_SLICE_NS;
#endif
            axl__mmio_progress(now);
            drive_all();
        }
        if (s->running)
            return AXL_SUCCESS;
    }
    if (done)
        *done = 1;
    return ended_status(s);
}
