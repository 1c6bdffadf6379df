/*
 * xrt/mmio/plan.c - the plan executor (axl/plan.h): replays a plan that a
 * host build wrote, on the mmio port's units (unit.c: the same argument
 * writes, ap_start and completion modes as the device port), with no
 * runtime, scheduler or allocator.
 *
 * A loaded plan is a slot: where each buffer is, the scalars as updated,
 * and the current submission as bit sets over the nodes. A submission
 * starts the nodes whose predecessors have ended, on their units; a
 * unit's end (seen by the waiter's poll or by the interrupt entry,
 * possibly in interrupt context) only sets its node's ended bit, and the
 * waiter, which drives every loaded plan, starts what that releases. So
 * one thread drives plans, and interrupts touch nothing but a node's
 * status, its bit and a failure's message.
 *
 * What load checks is what can differ on the board from where the plan
 * was made (DESIGN.md, "One launch mechanism"): the design's UUID, the
 * banks' regions, the executor's capacities, and that the tables are
 * consistent (a plan is const data a firmware may get from anywhere).
 */
#include <stdatomic.h>
#include <string.h>

#include "axl/plan.h"
#include "axl/runtime.h"
#include "mmio_banks.h"
#include "mmio_unit.h"

#if MMIO_MODEL
#include "axl/xclbin.h"
#endif

/* A node's token: what its unit's run points to (mmio_unit.h). */
typedef struct plan_node_state {
    uint8_t slot;
    uint8_t node;
    axl_status st;       /* how it ended (written before its ended bit) */
} plan_node_state;

typedef struct plan_place {
    unsigned char *host;
    uint64_t phys;
} plan_place;

/* A submission is bit sets over the nodes (AXL_PLAN_MAX_NODES <= 32):
 * the interrupt side sets a node's bit in `ended` and nothing else; the
 * waiter takes the set, settles each node, and counts down its
 * successors' `waiting`, which puts those at zero in `ready`; a ready
 * node starts once its unit is free. So a node costs the same whatever
 * the plan's size. */
typedef struct plan_slot {
    const axl_plan *plan;   /* NULL: free */
    uint16_t gen;
    uint8_t running;        /* a submission not yet waited to its end */
    uint8_t left;           /* its nodes not settled */
    uint32_t seq;           /* its number */
    _Atomic uint32_t ended; /* nodes ended, not yet settled */
    uint32_t ready;         /* nodes free to start */
    axl_status status;      /* the submission's: its first failure */
    _Atomic uint8_t failing; /* a node failed: why holds its message */
    uint8_t waiting[AXL_PLAN_MAX_NODES]; /* predecessors not yet done */
    uint8_t succ0[AXL_PLAN_MAX_NODES + 1]; /* successors of n:
                                   succ[succ0[n], succ0[n + 1]) */
    uint8_t succ[AXL_PLAN_MAX_EDGES];
    char why[AXL_MESSAGE_MAX];
    uint64_t end[AXL_MMIO_BANKS]; /* where its placement ends per memory
                                     (mmio_banks.h, a region's `same`;
                                     0: nothing placed there) */
    plan_place own[AXL_PLAN_MAX_BUFFERS]; /* its placement */
    plan_place buf[AXL_PLAN_MAX_BUFFERS]; /* what runs use (set_buffer) */
    uint8_t scalars[AXL_PLAN_SCALAR_BYTES + 8]; /* + 8: start_node reads
                                                   8 at a time */
    plan_node_state nodes[AXL_PLAN_MAX_NODES];
    /* Each node's arguments' identity (mmio_unit.h, held_id): a unit
     * whose registers a start of node n wrote with id[n] holds them
     * still, and the next start of n writes none. New ids at load and at
     * every update (they have the top bit set, apart from the device
     * port's args_ids; the units' owner changes only with every id
     * forgotten). */
    uint32_t id[AXL_PLAN_MAX_NODES];
} plan_slot;

_Static_assert(AXL_PLAN_MAX_NODES >= 1 && AXL_PLAN_MAX_NODES <= 32,
               "AXL_PLAN_MAX_NODES must be 1 to 32 (a submission is bit "
               "sets of a 32-bit word)");
_Static_assert(AXL_PLAN_MAX_EDGES <= 255, "AXL_PLAN_MAX_EDGES must be < 256");

static plan_slot slots[AXL_PLAN_LOADED];
static uint64_t used[AXL_MMIO_BANKS]; /* bytes placed per memory (the
                                         regions of one memory share it) */
static mmio_memory memory;            /* the board's regions, checked at
                                         the first load */
static uint32_t loaded;               /* plans loaded */
static uint32_t last_id;              /* the last argument identity given */

/* Whether nodes k and n write the same words into the same unit. */
static int same_args(const plan_slot *s, uint32_t k, uint32_t n)
{
    const axl_plan *p = s->plan;
    const axl_plan_node *a = &p->nodes[k], *b = &p->nodes[n];
    if (a->unit != b->unit || a->nargs != b->nargs)
        return 0;
    for (uint32_t m = 0; m < a->nargs; m++) {
        const axl_plan_arg *x = &p->args[a->arg0 + m];
        const axl_plan_arg *y = &p->args[b->arg0 + m];
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

/* New identities for every node of s (what units hold is not theirs),
 * one for nodes that write the same words into the same unit: a chain
 * of one launch repeated writes its arguments once. */
static void new_ids(plan_slot *s)
{
    for (uint32_t n = 0; n < s->plan->nnodes; n++) {
        uint32_t k = 0;
        while (k < n && !same_args(s, k, n))
            k++;
        if (k < n) {
            s->id[n] = s->id[k];
            continue;
        }
        last_id = (last_id + 1u) & 0x7fffffffu;
        s->id[n] = 0x80000000u | last_id;
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
                     "%s: plan id 0x%x is not a loaded plan (never loaded, "
                     "or unloaded since)",
                     fn, (unsigned)id);
}

static mmio_unit *unit_of(const axl_plan *p, uint32_t node)
{
    return &axl__mmio.units[p->units[p->nodes[node].unit].ip_index];
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

/* A plan is const data from anywhere: its tables must hold together
 * before anything trusts them. */
static axl_status check_tables(const axl_plan *p)
{
    const char *n = p->name ? p->name : "(unnamed)";
    if (p->nnodes > AXL_PLAN_MAX_NODES || p->npreds > AXL_PLAN_MAX_EDGES ||
        p->nbuffers > AXL_PLAN_MAX_BUFFERS ||
        p->scalar_bytes > AXL_PLAN_SCALAR_BYTES)
        return mmio_fail(AXL_ERR_OUT_OF_RESOURCES,
                         "axl_plan_load: plan %s has %u nodes, %u edges, %u "
                         "buffers, %u bytes of scalars; the executor holds "
                         "%u, %u, %u, %u (AXL_PLAN_MAX_NODES, _EDGES, "
                         "_BUFFERS, AXL_PLAN_SCALAR_BYTES)",
                         n, (unsigned)p->nnodes, (unsigned)p->npreds,
                         (unsigned)p->nbuffers, (unsigned)p->scalar_bytes,
                         (unsigned)AXL_PLAN_MAX_NODES,
                         (unsigned)AXL_PLAN_MAX_EDGES,
                         (unsigned)AXL_PLAN_MAX_BUFFERS,
                         (unsigned)AXL_PLAN_SCALAR_BYTES);
    for (uint32_t u = 0; u < p->nunits; u++)
        if (p->units[u].ip_index >= AXL_MMIO_UNITS)
            return mmio_fail(AXL_ERR_OUT_OF_RESOURCES,
                             "axl_plan_load: plan %s drives IP_LAYOUT entry "
                             "%u; the port drives entries below "
                             "AXL_MMIO_UNITS (%u)",
                             n, (unsigned)p->units[u].ip_index,
                             (unsigned)AXL_MMIO_UNITS);
    for (uint32_t b = 0; b < p->nbuffers; b++) {
        const uint32_t a = p->buffers[b].align;
        if (!a || (a & (a - 1u)) || !p->buffers[b].size)
            return mmio_fail(AXL_ERR_INVALID,
                             "axl_plan_load: plan %s: buffer %u has size "
                             "%llu and alignment %u (a power of two)",
                             n, (unsigned)b,
                             (unsigned long long)p->buffers[b].size,
                             (unsigned)a);
    }
    uint32_t edges = 0; /* named by the nodes, entries shared or not */
    for (uint32_t i = 0; i < p->nnodes; i++) {
        const axl_plan_node *nd = &p->nodes[i];
        edges += nd->npreds; /* more in all than the table: shared */
        if (nd->unit >= p->nunits || nd->nargs > AXL_MMIO_MAX_ARGS ||
            (uint32_t)nd->arg0 + nd->nargs > p->nargs ||
            (uint32_t)nd->pred0 + nd->npreds > p->npreds ||
            edges > p->npreds)
            return mmio_fail(AXL_ERR_INVALID,
                             "axl_plan_load: plan %s: node %u names a unit, "
                             "arguments or edges outside its tables (edges "
                             "shared with other nodes count again), or more "
                             "than AXL_MMIO_MAX_ARGS (%u) arguments",
                             n, (unsigned)i, (unsigned)AXL_MMIO_MAX_ARGS);
        for (uint32_t e = 0; e < nd->npreds; e++)
            if (p->preds[nd->pred0 + e] >= i)
                return mmio_fail(AXL_ERR_INVALID,
                                 "axl_plan_load: plan %s: node %u waits for "
                                 "node %u, which is not before it",
                                 n, (unsigned)i,
                                 (unsigned)p->preds[nd->pred0 + e]);
        for (uint32_t k = 0; k < nd->nargs; k++) {
            const axl_plan_arg *a = &p->args[nd->arg0 + k];
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
                return mmio_fail(AXL_ERR_INVALID,
                                 "axl_plan_load: plan %s: node %u argument "
                                 "%u (register 0x%x, %u bytes) is not one "
                                 "the executor can write",
                                 n, (unsigned)i, (unsigned)a->id,
                                 (unsigned)a->offset, (unsigned)a->size);
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
            return mmio_fail(AXL_ERR_INVALID,
                             "axl_plan_load: plan %s: buffer %u is in bank "
                             "%u (MEM_TOPOLOGY), for which the board "
                             "declares no region (axl_mmio_board.banks)",
                             p->name, (unsigned)b, (unsigned)d->bank);
        const axl_mmio_bank_region *g = &memory.region[r];
        const uint32_t m = memory.same[r]; /* its memory's placement */
        const uint64_t a = align_of(d);
        const uint64_t addr = (g->phys + at[m] + a - 1u) & ~(a - 1u);
        const uint64_t off = addr - g->phys;
        if (off > g->size || d->size > g->size - off)
            return mmio_fail(AXL_ERR_OUT_OF_RESOURCES,
                             "axl_plan_load: plan %s: buffer %u (%llu bytes, "
                             "aligned to %u) does not fit bank %u's region "
                             "of %llu bytes, %llu of them placed already",
                             p->name, (unsigned)b,
                             (unsigned long long)d->size, (unsigned)a,
                             (unsigned)d->bank, (unsigned long long)g->size,
                             (unsigned long long)at[m]);
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
                         "axl_plan_load: the mmio device is open in the "
                         "runtime; plans and the runtime do not share units "
                         "(axl_shutdown first)");
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

/* Each unit of the plan wired, its registers laid out as the plan's
 * first node on it says (every node of a unit runs its one kernel). */
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
        for (uint32_t i = 0; i < p->nnodes; i++) {
            if (p->nodes[i].unit != k)
                continue;
            u->nargs = p->nodes[i].nargs;
            for (uint32_t m = 0; m < u->nargs; m++) {
                const axl_plan_arg *a = &p->args[p->nodes[i].arg0 + m];
                u->args[m].id = a->id;
                u->args[m].offset = a->offset;
                u->args[m].size = a->size;
                u->args[m].is_mem = a->kind == AXL_PLAN_ARG_BUFFER;
            }
            break;
        }
        axl__mmio_forget_held(u);
        axl__mmio_arm(u);
    }
    return AXL_SUCCESS;
}

axl_status axl_plan_load(const axl_plan *plan, axl_plan_id *out)
{
    if (!plan || !out)
        return mmio_fail(AXL_ERR_INVALID,
                         "axl_plan_load: plan and out must not be NULL");
    out->id = 0;
    /* Format 1 is format 2 without names (its tables compile with them
     * NULL). */
    if (plan->format != AXL_PLAN_FORMAT && plan->format != 1u)
        return mmio_fail(AXL_ERR_INVALID,
                         "axl_plan_load: plan %s is in format %u; this "
                         "executor reads formats 1 and %u (write it again "
                         "with this axl)",
                         plan->name ? plan->name : "(unnamed)",
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
        return mmio_fail(AXL_ERR_PLATFORM,
                         "axl_plan_load: the board names no design and no "
                         "design_uuid (axl_mmio_board): plan %s cannot be "
                         "checked against what the fabric carries",
                         plan->name);
    if (memcmp(uuid, plan->uuid, 16))
        return mmio_fail(AXL_ERR_INVALID,
                         "axl_plan_load: plan %s was made for the design "
                         "with UUID %02x%02x%02x%02x...; the board's design "
                         "is %02x%02x%02x%02x...: write the plan again "
                         "against the design the fabric carries",
                         plan->name, plan->uuid[0], plan->uuid[1],
                         plan->uuid[2], plan->uuid[3], uuid[0], uuid[1],
                         uuid[2], uuid[3]);
    if (!bd->banks && !bd->predigested && plan->nbuffers &&
        (!MMIO_MODEL || !bd->design))
        return mmio_fail(AXL_ERR_PLATFORM,
                         "axl_plan_load: the board declares no bank regions "
                         "(axl_mmio_board.banks) and no pre-digested design "
                         "whose banks would be them: plan %s places its "
                         "buffers in them",
                         plan->name);
    uint32_t i = 0;
    while (i < AXL_PLAN_LOADED && slots[i].plan)
        i++;
    if (i == AXL_PLAN_LOADED)
        return mmio_fail(AXL_ERR_OUT_OF_RESOURCES,
                         "axl_plan_load: %u plans are loaded, "
                         "AXL_PLAN_LOADED of them",
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
    for (uint32_t n = 0; n < plan->nnodes; n++) {
        s->nodes[n].slot = (uint8_t)i;
        s->nodes[n].node = (uint8_t)n;
    }
    /* Successor lists, from the nodes' edges (counted, then filled: at
     * most npreds in all, check_tables saw to it). */
    uint8_t fill[AXL_PLAN_MAX_NODES + 1];
    memset(fill, 0, sizeof fill);
    for (uint32_t n = 0; n < plan->nnodes; n++) {
        const axl_plan_node *nd = &plan->nodes[n];
        for (uint32_t e = 0; e < nd->npreds; e++)
            fill[plan->preds[nd->pred0 + e] + 1u]++;
    }
    for (uint32_t n = 0; n < plan->nnodes; n++)
        fill[n + 1u] = (uint8_t)(fill[n + 1u] + fill[n]);
    memcpy(s->succ0, fill, sizeof s->succ0);
    for (uint32_t n = 0; n < plan->nnodes; n++) {
        const axl_plan_node *nd = &plan->nodes[n];
        for (uint32_t e = 0; e < nd->npreds; e++)
            s->succ[fill[plan->preds[nd->pred0 + e]]++] = (uint8_t)n;
    }
    new_ids(s);
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
        return mmio_fail(AXL_ERR_BAD_STATE,
                         "axl_plan_unload: plan %s runs (wait for its "
                         "submission first)",
                         s->plan->name);
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
    return mmio_fail(AXL_ERR_INVALID,
                     "%s: plan %s has no %s named \"%.40s\"",
                     fn, plan->name ? plan->name : "(unnamed)", what, name);
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
        return mmio_fail(AXL_ERR_INVALID,
                         "axl_plan_buffer: plan %s has %u buffers, no %u",
                         s->plan->name, (unsigned)s->plan->nbuffers,
                         (unsigned)index);
    if (host)
        *host = s->buf[index].host;
    if (device_address)
        *device_address = s->buf[index].phys;
    return AXL_SUCCESS;
}

static axl_status refuse_running(const char *fn, const plan_slot *s)
{
    return mmio_fail(AXL_ERR_BAD_STATE,
                     "%s: plan %s runs; update it between submissions "
                     "(after axl_plan_wait has seen one end)",
                     fn, s->plan->name);
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
        return mmio_fail(AXL_ERR_INVALID,
                         "axl_plan_set_scalar: plan %s has %u nodes, no %u",
                         p->name, (unsigned)p->nnodes, (unsigned)node);
    const axl_plan_node *nd = &p->nodes[node];
    const axl_plan_arg *a = NULL;
    for (uint32_t k = 0; k < nd->nargs && !a; k++)
        if (p->args[nd->arg0 + k].id == arg_id)
            a = &p->args[nd->arg0 + k];
    if (!a || a->kind != AXL_PLAN_ARG_SCALAR)
        return mmio_fail(AXL_ERR_INVALID,
                         "axl_plan_set_scalar: node %u of plan %s (%s) has "
                         "no scalar argument %u",
                         (unsigned)node, p->name, nd->kernel,
                         (unsigned)arg_id);
    if (!value || size != a->bytes)
        return mmio_fail(AXL_ERR_INVALID,
                         "axl_plan_set_scalar: argument %u of node %u (%s) "
                         "is %u bytes; %u given",
                         (unsigned)arg_id, (unsigned)node, nd->kernel,
                         (unsigned)a->bytes, (unsigned)size);
    if (s->running)
        return refuse_running("axl_plan_set_scalar", s);
    memcpy(s->scalars + a->ref, value, size);
    new_ids(s);
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
        return mmio_fail(AXL_ERR_INVALID,
                         "axl_plan_set_buffer: plan %s has %u buffers, no %u",
                         p->name, (unsigned)p->nbuffers, (unsigned)index);
    const axl_plan_buffer_desc *d = &p->buffers[index];
    if (!(d->flags & AXL_PLAN_UPDATABLE))
        return mmio_fail(AXL_ERR_INVALID,
                         "axl_plan_set_buffer: buffer %u of plan %s is not "
                         "updatable",
                         (unsigned)index, p->name);
    if (s->running)
        return refuse_running("axl_plan_set_buffer", s);
    if (!host) {
        s->buf[index] = s->own[index];
        new_ids(s);
        return AXL_SUCCESS;
    }
    const int r = axl__mmio_region_of(&memory, d->bank);
    const axl_mmio_bank_region *g = &memory.region[r];
    if (size < d->size || device_address < g->phys ||
        device_address - g->phys > g->size ||
        size > g->size - (device_address - g->phys))
        return mmio_fail(AXL_ERR_INVALID,
                         "axl_plan_set_buffer: buffer %u of plan %s is %llu "
                         "bytes in bank %u (0x%llx, %llu bytes); 0x%llx, "
                         "%llu bytes given is not that inside it",
                         (unsigned)index, p->name,
                         (unsigned long long)d->size, (unsigned)d->bank,
                         (unsigned long long)g->phys,
                         (unsigned long long)g->size,
                         (unsigned long long)device_address,
                         (unsigned long long)size);
    if (device_address & (align_of(d) - 1u))
        return mmio_fail(AXL_ERR_INVALID,
                         "axl_plan_set_buffer: buffer %u of plan %s is "
                         "aligned to %u bytes; 0x%llx is not",
                         (unsigned)index, p->name, (unsigned)align_of(d),
                         (unsigned long long)device_address);
    if ((unsigned char *)host != host_at(g, device_address))
        return mmio_fail(AXL_ERR_INVALID,
                         "axl_plan_set_buffer: the CPU's view of 0x%llx is "
                         "%p in the board's bank %u region, not %p",
                         (unsigned long long)device_address,
                         (void *)host_at(g, device_address),
                         (unsigned)d->bank, host);
    new_ids(s);
    s->buf[index].host = host;
    s->buf[index].phys = device_address;
    return AXL_SUCCESS;
}

/* ---- Replaying ------------------------------------------------------------------ */

/* The unit's end (mmio_unit.h), maybe in interrupt context: the node's
 * status, its ended bit, and the first failure's message. */
AXL_HOT static void plan_ended(mmio_unit *u, const void *run, axl_status st,
                               const char *why)
{
    plan_node_state *ns = (plan_node_state *)(uintptr_t)run;
    plan_slot *s = &slots[ns->slot];
    ns->st = st;
    if (st != AXL_SUCCESS && !atomic_exchange(&s->failing, 1))
        axl_format(s->why, sizeof s->why,
                   "plan %s: node %u (%s on %s) failed: %s", s->plan->name,
                   (unsigned)ns->node, s->plan->nodes[ns->node].kernel,
                   u->name, why ? why : axl_status_name(st));
    atomic_fetch_or_explicit(&s->ended, 1u << ns->node, memory_order_release);
}

/* Starts node n on its unit with its arguments: none when the unit holds
 * what this node's last start wrote, else only the words that differ. */
AXL_HOT static axl_status start_node(plan_slot *s, uint32_t n)
{
    const axl_plan *p = s->plan;
    const axl_plan_node *nd = &p->nodes[n];
    mmio_unit *u = unit_of(p, n);
    axl_status st = axl__mmio_ready(u);
    if (st != AXL_SUCCESS)
        return st;
    /* None when the unit holds this node's arguments. */
    const uint32_t nargs = u->held_id == s->id[n] ? 0u : nd->nargs;
    int whole = 1; /* every argument held (no wide scalar) */
    for (uint32_t m = 0; m < nargs; m++) {
        const axl_plan_arg *a = &p->args[nd->arg0 + m];
        uint32_t word[2] = {0, 0};
        if (a->kind == AXL_PLAN_ARG_BUFFER) {
            const uint64_t addr = s->buf[a->ref].phys + a->at;
            word[0] = (uint32_t)addr;
            word[1] = (uint32_t)(addr >> 32);
        } else if (a->size > 8) {
            axl__mmio_put_wide(u, m, s->scalars + a->ref, a->bytes);
            whole = 0;
            continue;
        } else {
            /* Eight bytes at once (scalars[] has room past its end) and
             * the ones past the scalar's cleared: no call out of the hot
             * section. Little-endian, as every target and the registers. */
            uint64_t v;
            __builtin_memcpy(&v, s->scalars + a->ref, sizeof v);
            if (a->bytes < 8)
                v &= ((uint64_t)1 << (8u * a->bytes)) - 1u;
            word[0] = (uint32_t)v;
            word[1] = (uint32_t)(v >> 32);
        }
        axl__mmio_put(u, m, word, a->size >= 8 ? 2u : 1u);
    }
    u->held_id = whole ? s->id[n] : 0u;
    axl__mmio_go(u, &s->nodes[n]);
    return AXL_SUCCESS;
}

#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static void start_failed(plan_slot *s, uint32_t n, axl_status st)
{
    s->nodes[n].st = st;
    if (!atomic_exchange(&s->failing, 1))
        axl_format(s->why, sizeof s->why,
                   "plan %s: node %u (%s) could not start: %s",
                   s->plan->name, (unsigned)n, s->plan->nodes[n].kernel,
                   axl_last_message());
}

/* A node that will not run (a node it waits for failed or will not run)
 * settles, and so do the nodes after it: a walk down the edges with the
 * nodes to visit as a bit set (no recursion; each node once, so at most
 * AXL_PLAN_MAX_NODES steps of at most its successors each). */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static void skip_after(plan_slot *s, uint32_t n)
{
    uint32_t todo = 1u << n;
    while (todo) {
        const uint32_t k0 = (uint32_t)__builtin_ctz(todo);
        todo &= todo - 1u;
        for (uint32_t k = s->succ0[k0]; k < s->succ0[k0 + 1u]; k++) {
            const uint32_t m = s->succ[k];
            if (s->waiting[m] == UINT8_MAX)
                continue; /* settled already */
            s->waiting[m] = UINT8_MAX;
            s->ready &= ~(1u << m);
            s->left--;
            todo |= 1u << m;
        }
    }
}

/* Node n has ended (st): the successors it releases become ready. */
AXL_HOT static void settle(plan_slot *s, uint32_t n, axl_status st)
{
    s->left--;
    if (st != AXL_SUCCESS) {
        if (s->status == AXL_SUCCESS)
            s->status = st;
        skip_after(s, n);
        return;
    }
    for (uint32_t k = s->succ0[n]; k < s->succ0[n + 1u]; k++) {
        const uint32_t m = s->succ[k];
        if (!--s->waiting[m])
            s->ready |= 1u << m;
    }
}

/* Settles what ended and starts what that released, in node order. */
AXL_HOT static void drive(plan_slot *s)
{
    uint32_t ended = atomic_exchange_explicit(&s->ended, 0u,
                                              memory_order_acquire);
    while (ended) {
        const uint32_t n = (uint32_t)__builtin_ctz(ended);
        ended &= ended - 1u;
        settle(s, n, s->nodes[n].st);
    }
    for (uint32_t ready = s->ready; ready; ready &= ready - 1u) {
        const uint32_t n = (uint32_t)__builtin_ctz(ready);
        if (!(s->ready & (1u << n)))
            continue; /* skipped meanwhile (a start failed) */
        if (atomic_load_explicit(&unit_of(s->plan, n)->run,
                                 memory_order_relaxed))
            continue; /* its unit is busy: when it is free */
        s->ready &= ~(1u << n);
        const axl_status st = start_node(s, n);
        if (st != AXL_SUCCESS) {
            start_failed(s, n, st);
            settle(s, n, st);
        }
    }
}

AXL_HOT static void drive_all(void)
{
    for (uint32_t i = 0; i < AXL_PLAN_LOADED; i++)
        if (slots[i].plan && slots[i].running && slots[i].left)
            drive(&slots[i]);
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
        return mmio_fail(AXL_ERR_BAD_STATE,
                         "axl_plan_submit: plan %s runs already (one "
                         "submission at a time: wait for it to end)",
                         s->plan->name);
    const axl_plan *p = s->plan;
    for (uint32_t b = 0; b < p->nbuffers; b++)
        if (p->buffers[b].flags & (AXL_PLAN_READ | AXL_PLAN_WRITE))
            /* What units read must be in memory, and no dirty line of
             * what they write may be evicted over their writes. */
            axl__mmio_clean(s->buf[b].host, p->buffers[b].size);
    s->ready = 0;
    for (uint32_t n = 0; n < p->nnodes; n++) {
        s->waiting[n] = (uint8_t)p->nodes[n].npreds;
        if (!s->waiting[n])
            s->ready |= 1u << n;
    }
    atomic_store_explicit(&s->ended, 0u, memory_order_relaxed);
    atomic_store(&s->failing, 0);
    s->why[0] = '\0';
    s->status = AXL_SUCCESS;
    s->left = (uint8_t)p->nnodes;
    s->seq++;
    s->running = 1;
    drive(s);
    run->plan = id.id;
    run->seq = s->seq;
    return AXL_SUCCESS;
}

/* The submission has ended: what units wrote is read from memory. */
AXL_HOT static axl_status end_run(plan_slot *s)
{
    const axl_plan *p = s->plan;
    for (uint32_t b = 0; b < p->nbuffers; b++)
        if (p->buffers[b].flags & AXL_PLAN_WRITE)
            axl__mmio_invalidate(s->buf[b].host, p->buffers[b].size);
    s->running = 0;
    return s->status;
}

/* The answer for a run that has ended (now or before). */
AXL_HOT static axl_status ended_status(const plan_slot *s)
{
    if (s->status == AXL_SUCCESS)
        return AXL_SUCCESS;
    return mmio_fail(s->status, "%s", s->why);
}

AXL_HOT static axl_status run_slot(const char *fn, axl_plan_run run,
                                   plan_slot **out)
{
    plan_slot *s = slot_of(run.plan);
    if (!s)
        return stale(fn, run.plan);
    if (run.seq != s->seq)
        return mmio_fail(AXL_ERR_INVALID,
                         "%s: submission %u of plan %s is not its last (%u)",
                         fn, (unsigned)run.seq, s->plan->name,
                         (unsigned)s->seq);
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
        if (!s->left) {
            end_run(s);
            break;
        }
        if (deadline != UINT64_MAX && axl__mmio_now() >= deadline)
            return mmio_fail(AXL_ERR_TIMEOUT,
                             "axl_plan_wait: plan %s has not ended within "
                             "%llu ns (%u of %u nodes left); it goes on: "
                             "wait or poll again",
                             s->plan->name, (unsigned long long)timeout_ns,
                             (unsigned)s->left, (unsigned)s->plan->nnodes);
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
        if (s->left) {
            /* One look at the units (a model gets one slice of time). */
            uint64_t now = axl__mmio_now();
#if MMIO_MODEL
            now += AXL_MMIO_MODEL_SLICE_NS;
#endif
            axl__mmio_progress(now);
            drive_all();
        }
        if (s->left)
            return AXL_SUCCESS;
        end_run(s);
    }
    if (done)
        *done = 1;
    return ended_status(s);
}
