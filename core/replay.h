/*
 * replay.h - an executable graph's plan in the runtime (docs/design.md,
 * "Plans replayed"): the tables finalize builds once (plan.c,
 * axl__plan_build) in one block of the graph-table arena, which the one
 * executor (exec.h) walks at each submission (replay.c), and which
 * axl_plan_write prints.
 *
 * Per node the topology (axl_plan_node: kind, runs, predecessors), per
 * kernel node its runs (one, or one per chunk of a recorded parallel_for),
 * each bound to a compute unit at finalize, and per base buffer the nodes
 * use a plan buffer: where the graph uses it and what it does to it. The
 * nodes themselves (their checked groups, for updates and messages) stay
 * the executable graph's (graph_priv.h); the plan names them by index.
 */
#ifndef AXL_REPLAY_H
#define AXL_REPLAY_H

#include "exec.h"
#include "cu.h"
#include "device_priv.h"
#include "queue_priv.h"
#include "buffer_priv.h"
#include "sched_priv.h"
#include "graph_priv.h"

#if AXL_FEATURE_GRAPHS /* (rt.h before: axl_config.h) */

/* What the nodes do to a plan buffer (struct axl__plan_buf.flags). */
enum axl__plan_buf_flags {
    AXL__PB_READS = 1u,        /* a node reads it */
    AXL__PB_WRITES = 2u,       /* a node writes it */
    AXL__PB_MULTI_LOC = 4u,    /* nodes use it at more than one location */
    AXL__PB_DISCARD_FIRST = 8u /* the first node that uses it writes all of
                                  it without reading: the graph needs none
                                  of its contents from before */
};

/* A base buffer the nodes use. */
struct axl__plan_buf {
    uint16_t base;              /* its slot (each node naming it holds a
                                   view's handle) */
    uint8_t flags;              /* axl__plan_buf_flags */
    uint8_t locs;               /* locations the nodes use (a bit each) */
    uint8_t loc_first, loc_out; /* where the first and the last node that
                                   use it have it */
    uint8_t mode;               /* every node's modes, ORed */
    uint32_t dev_bank;          /* its copy's bank on the graph's device at
                                   finalize (UINT32_MAX: none) */
    /* The submission running (replay.c), from what its commit found
     * (struct axl__plan_seen), set at dispatch: */
    uint32_t ver_made;          /* the one its writes make */
    axl_status lost;            /* lost before the graph: nodes that read
                                   it fail unrun */
    uint32_t lost_event;        /* the event of the command that lost it */
    uint8_t mask;               /* locations current for the nodes (a bit
                                   each) */
    uint8_t now;                /* the driver's, from dispatch: where it is
                                   current as the nodes move and write it */
};

/* Where a graph's run is in its hand-off with the port (struct
 * axl__plan_run.state's low byte; the rest counts its starts, so a
 * timeout's compare-and-swap never takes a later start for the one it
 * read). */
enum axl__run_phase {
    AXL__RUN_IDLE = 0,      /* not started in this submission, or ended */
    AXL__RUN_STARTING = 1,  /* its starter is inside run_start */
    AXL__RUN_RUNNING = 2,   /* started; deadline set */
    AXL__RUN_ENDED = 3,     /* ended inside run_start: its starter frees
                               the unit */
    AXL__RUN_GIVEN_UP = 4   /* past its timeout: the node failed, the unit
                               and what the run was given stay its until
                               the port gives it back */
};
/* A state word's phase and its count of starts. */
#define AXL__RUN_PHASE(s) ((s) & 0xFFu)
#define AXL__RUN_STARTS(s) ((s) & ~0xFFu)

/* A run of a kernel node on a compute unit: the hal run it hands the
 * port, ready from one submission to the next. */
struct axl__plan_run {
    _Atomic uint32_t state;     /* enum axl__run_phase | starts << 8 */
    uint16_t node;
    uint8_t cu;                 /* its unit: an index of the device's cus,
                                   bound at finalize (0xFF: none of the
                                   kernel's units reaches its buffers) */
    uint8_t nargs;
    uint16_t kernel;            /* its kernel object's slot */
    struct axl__plan *plan;
    uint64_t deadline;          /* on the device's clock; written before
                                   RUNNING (0, UINT64_MAX: none) */
    uint64_t t_start, t_end;    /* traced submissions: the trace's times */
    axl_hal_run hal;            /* token: this run */
    axl_hal_arg *args;          /* nargs of them, in the block */
    uint16_t *bases;            /* each argument's base buffer slot
                                   (UINT16_MAX: a scalar) */
    _Alignas(8) unsigned char own[16]; /* a parallel_for's chunk: its
                                   first item and count (the offset and
                                   count arguments point here) */
};

struct axl__plan {
    uint64_t offset;            /* its block in the graph-table arena */
    uint32_t bytes;
    uint32_t nnodes, nruns, npreds, nbufs;
    uint16_t exec;              /* its executable graph's slot */
    uint16_t device;            /* slot */
    /* The submission running (replay.c), from commit to finish: */
    bool running;               /* dispatched, not finished */
    bool timed;                 /* a run has a timeout (graph.c, with the
                                   runs' timeout_ns) */
    bool timed_run;             /* the running submission's: counted in
                                   its device's replays_timed */
    bool profiling;             /* its event is profiled */
    bool traced;                /* tracing was on at its commit */
    bool moves;                 /* a buffer is not current where a node
                                   uses it (its first node's place, or it
                                   is used at two): the driver moves it
                                   before each node (and to where the last
                                   node has it, after the last) */
    bool any_lost;              /* a buffer it reads was lost before */
    uint16_t given_up;          /* its runs given up and not back */
    uint16_t pending;           /* submissions committed with it, not
                                   finished */
    bool detached;              /* an update made while some were pending
                                   gave the graph new nodes and a new plan:
                                   this one is theirs, with its own nodes
                                   (head), freed with the last of them */
    axl__graph_node_ref head;   /* detached: its nodes */
    uint16_t cmd;               /* its command's slot */
#if AXL_FEATURE_DESIGN_SWAP
    uint16_t image;             /* the design of its kernel nodes (image
                                   slot), AXL__NO_WANT: none (graph.c's
                                   check, before each commit) */
    uint8_t region;             /* that design's region on its device:
                                   0, or on a shell the slot its units
                                   name (set with image) */
    uint32_t epoch;             /* its region's epoch + 1 when its runs
                                   were bound to units and given handles,
                                   0: not bound (a swap since: dispatch
                                   binds them again, designs-design 2.7) */
#endif
    _Atomic uint8_t started;    /* a node started: the event is running */
    _Atomic uint64_t t_end;     /* profiled: the latest run's end */
    axl__exec x;                /* the walk's state */
    axl__exec_graph g;          /* nodes, successors, roots */
    axl_plan_node *nodes;       /* kind, preds; a kernel node's runs are
                                   run[run0, run0 + nruns) (nruns >= 1) */
    uint16_t *preds;
    struct axl__plan_run *run;
    axl_hal_arg *args;          /* the runs' arguments, one after another */
    uint16_t *bases;            /* and their base buffers */
    uint16_t *kernels;          /* the kernel objects' slots, once each */
    uint16_t nkernels;
    struct axl__plan_buf *buf;
    uint16_t *pbuf;             /* node n's accessor i's plan buffer:
                                   pbuf[n * AXL_MAX_ACCESSORS + i] */
    axl__graph_node_ref *node;  /* the executable graph's nodes, by index */
};

/* Whether node n's accessor i writes all of base buffer b without reading
 * it (its contents before are not needed). */
bool axl__node_discards(const struct axl__graph_node *n, unsigned i,
                        const struct axl__buffer *b);
/* What a node that is not a kernel is: "a host task", "a copy", ... */
const char *axl__node_what(const struct axl__graph_node *n);

/* What a submission's commit found of plan buffer i, into the plan. */
void axl__plan_seen_put(struct axl__plan *p, uint32_t i,
                        const struct axl__plan_seen *sn);

/* The graph-table arena (plan.c). */
extern unsigned char axl__plan_table_bytes[AXL_GRAPH_TABLE_BYTES];

/* Whether p is in the graph-table arena (a graph's run as a token): inline,
 * as every run's end asks it. */
static inline bool axl__plan_owns(const void *p)
{
    const unsigned char *c = p;
    return c >= axl__plan_table_bytes &&
           c < axl__plan_table_bytes + sizeof axl__plan_table_bytes;
}

/* Builds x's plan (lock held; nothing dropped): edges from the nodes'
 * accessors and recorded edges, a run per kernel node bound to a unit,
 * the plan buffers. AXL_ERR_OUT_OF_RESOURCES naming AXL_GRAPH_TABLE_BYTES
 * when the arena cannot hold it; x keeps its plan (or none) then. */
axl_status axl__plan_build(const char *fn, struct axl__graph_exec *x);
/* Each run's unit, bound again (by plan.h's rule: the device's units and
 * what each kernel may use may have changed since), with the hal runs'
 * unit fields (lock held). */
void axl__plan_bind(struct axl__plan *p, const struct axl__graph_exec *x);
/* Frees x's plan, if it has one (lock held). */
void axl__plan_free(struct axl__graph_exec *x);
/* Frees the block of plan p (lock held). */
void axl__plan_free_block(struct axl__plan *p);
/* Frees detached plan p and its nodes (graph.c; lock held). */
void axl__plan_detached_free(struct axl__plan *p);

/* ---- Replays (replay.c) ------------------------------------------------- */

/* The submission of executable graph x (slot xs) to q (lock held; nothing
 * dropped): one command of kind AXL__CMD_REPLAY and its event, after the
 * ones deps name (strong edges: a failed one fails every node unrun), the
 * commands its buffers' accesses conflict with and the last submission of
 * x (edges that only order). AXL_ERR_OUT_OF_RESOURCES when the command or
 * event pool is full (nothing made). */
axl_status axl__replay_commit(const char *fn, struct axl__queue *q,
                              struct axl__graph_exec *x,
                              const uint32_t *deps, unsigned ndeps,
                              bool overflow, axl_event *out);
/* From the commit (sched.c, lock held): the plan buffers' accesses, the
 * edge to the last submission, the holds on its kernels. */
void axl__replay_edges(struct axl__command *c, struct axl__queue *q);
/* Its dispatch (sched.c; lock held, dropped while it drives). */
void axl__replay_start(struct axl__command *c);
#if AXL_FEATURE_DESIGN_SWAP
/* Whether submission c runs now (dispatch, lock held; cold): on a device
 * that swaps, not when it waits for its design's turn (then it is in its
 * region's FIFO, 2.7); its runs bound again when a swap came since. */
bool axl__replay_turn(struct axl__command *c);

/* Whether c's dispatch need look at designs (lock held): its plan was
 * bound at an older epoch of its region (a swap since, or its design not
 * loaded), or a command waits for a design (2.1's barrier). */
static inline bool axl__replay_unsettled(const struct axl__command *c)
{
    const struct axl__plan *p = c->u.replay.plan;
    const struct axl__device_region *g =
        &axl__device_at(p->device)->region[p->region];
    return p->epoch != g->epoch + 1u || g->want != AXL__NO_WANT;
}

/* Plan p's runs bound to the units of the design its device carries now
 * and given their handles (graph.c; at dispatch, after a swap: lock held,
 * dropped while the port opens a unit; no swap meanwhile, the submission
 * counted in its device's replays). */
axl_status axl__plan_rebind(struct axl__plan *p);
#endif
/* Drives the submissions whose claim nobody drives (lock held, dropped
 * while it drives): from a pump or a wait when axl__rt.replay_kick. */
void axl__replay_poll(void);
/* A host-task worker (sched.c, lock held; dropped while the task runs):
 * runs a graph's host-task node that waits for a worker. False: none
 * waits. */
bool axl__replay_host_work(void);
/* A graph's run ended (axl_hal_run_done's token). */
void axl__replay_run_done(struct axl__plan_run *run, axl_status status,
                          const char *why);
/* axl__replay_run_done's common case, inline in axl_hal_run_done: a run
 * that succeeded inside its start on a submission nothing times is only
 * marked ended (STARTING to ENDED, releasing what the kernel wrote); its
 * starter does the rest (replay.c's ended_here). False: the caller calls
 * axl__replay_run_done. */
static inline bool axl__replay_ended_inside(struct axl__plan_run *run,
                                            axl_status status)
{
    uint32_t s = atomic_load_explicit(&run->state, memory_order_relaxed);
    if (status != AXL_SUCCESS || AXL__RUN_PHASE(s) != AXL__RUN_STARTING ||
        run->plan->profiling || run->plan->traced)
        return false;
    return atomic_compare_exchange_strong_explicit(
        &run->state, &s, AXL__RUN_STARTS(s) | AXL__RUN_ENDED,
        memory_order_release, memory_order_relaxed);
}
/* Unit cu of device d is free (lock held): the graphs' runs that wait for
 * it are kicked, the kernel commands waiting for a unit ready again. */
void axl__unit_freed(struct axl__device *d, struct axl__cu *cu);
/* Timeouts of graphs' runs (cu.c's, lock held): gives up those past their
 * deadline on d (now on its clock); the earliest deadline of the others. */
unsigned axl__replay_timeouts(struct axl__device *d, uint64_t now,
                              bool may_call_out);
uint64_t axl__replay_deadline(const struct axl__device *d);
/* Whether a command's dispatch must fail it: it read a version a graph
 * lost (AXL__CMD_AFTER_GRAPH; lock held). */
bool axl__after_graph_lost(struct axl__command *c);

#endif /* AXL_FEATURE_GRAPHS */

#endif /* AXL_REPLAY_H */
