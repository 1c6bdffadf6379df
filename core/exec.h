/*
 * exec.h - the one executor (docs/design.md, "Plans replayed"): the walk
 * of a plan's nodes, from their ready set to their ends, with no command,
 * event or lock per node. Two clients run it: the runtime's replay of an
 * executable graph (core/replay.c, starting runs through the device
 * ports) and the plan firmware (xrt/mmio/fw_exec.c, through the mmio
 * port's units). It depends on axl/plan.h, axl/hal.h and <stdatomic.h>
 * only, so the host and the R5 firmware link the same object code; it is
 * the one private header of the core the mmio port includes.
 *
 * A graph is the plan's topology (axl_plan_node: kind, runs, preds) with
 * successor lists (axl__exec_build_succ). A node of kind KERNEL starts
 * its runs through the client's start op; EMPTY settles at once; HOST
 * (and a pipeline's PIPE_START, PIPE_STOP) goes to the client's run_node
 * op. A node ends when its last run does,
 * and settles: its successors count down, and a failed or skipped node
 * dooms them (they settle unrun, skipped, with its status), while the
 * nodes that do not depend on it run on.
 *
 * Who drives. Run ends come from any context (a port's completion thread,
 * a waiter's poll, an interrupt): each sets its node's bit in `ended` and
 * pokes the executor (`pokes`). Whoever takes `pokes` from 0 drives: it
 * settles what ended and starts what that made ready, turn after turn,
 * until no poke is left; a run that ends inside its own start finds the
 * claim held and returns, so a chain is a loop, never a recursion. A
 * context that may not drive (an interrupt, the firmware's poll) leaves an
 * orphaned claim that a later axl__exec_adopt takes over. Every poke is
 * counted (one per run started, one per host node, one per kick a WAIT
 * promised, one for the claim that began the submission), and the context
 * that takes the last of them is the last to touch the submission's
 * state: that one is told it finished it (true), and nothing touches the
 * executor after.
 *
 * State between submissions: every per-node field is put back as its node
 * settles, but for the failed ones' (status, failed and doomed bits), which
 * the client reads once the submission has finished and the next begin
 * clears: a begin that follows a submission with no failure resets only
 * words and counters.
 */
#ifndef AXL_EXEC_H
#define AXL_EXEC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "axl/hal.h"
#include "axl/plan.h"

/* The replay and completion path's own input section, which a firmware's
 * linker script may put in the R5's ATCM (boards/zcu102-r5/sections.ld
 * does). */
#if defined(__GNUC__) && defined(__ELF__)
#define AXL_HOT __attribute__((section(".axl_hot")))
#else
#define AXL_HOT
#endif

/* What a start op answers when the run's unit is taken: the node stays
 * ready, and the client has promised one axl__exec_kick, once the unit is
 * free (a poke counted like a run's end), after which its run is started
 * again. Not a status the API returns. */
#define AXL__EXEC_WAIT ((axl_status)1)

/* What a start op answers when the run ended inside the call and its end
 * is not reported by axl__exec_run_ended (a failure was given first by
 * axl__exec_fail): the driver settles the node (its last run) at once,
 * with no poke. A client whose start can see its own run's end (the
 * runtime's replay: the emulated device and the noop shim end runs there)
 * saves the end's report and the in_start handshake. Not a status the API
 * returns. */
#define AXL__EXEC_ENDED_HERE ((axl_status)2)

/* in_start's mark: the run ended inside its start. */
#define AXL__EXEC_ENDED_INSIDE UINT32_MAX

/* A node's topology, read-only while submissions run. */
typedef struct axl__exec_graph {
    uint32_t nnodes;
    uint32_t words;             /* (nnodes + 31) / 32: bit sets' length */
    const axl_plan_node *nodes; /* kind, nruns, npreds */
    const uint16_t *succ0;      /* succ[succ0[n], succ0[n + 1]): n's */
    const uint16_t *succ;       /* successors (all later than n) */
    const uint32_t *roots;      /* nodes with no predecessor */
} axl__exec_graph;

typedef struct axl__exec axl__exec;

typedef struct axl__exec_ops {
    /* Starts run r of kernel node n (the driver's context, never an
     * interrupt). AXL_SUCCESS: its end comes by axl__exec_run_ended,
     * maybe inside this call; AXL__EXEC_ENDED_HERE: it ended inside
     * this call and its end is not reported; AXL__EXEC_WAIT: its unit is
     * taken (the client kicks the executor when it is free); else it
     * never started and the node fails (a message through
     * axl__exec_why). */
    axl_status (*start)(axl__exec *x, uint32_t n, uint32_t r);
    /* Optional (NULL: such nodes fail): a HOST node; AXL_SUCCESS: it ends
     * by axl__exec_node_ended, maybe inside this call. */
    axl_status (*run_node)(axl__exec *x, uint32_t n);
    /* The start answers AXL__EXEC_ENDED_HERE for every run that ends
     * inside it, and the run's end calls nothing: the executor skips the
     * in_start handshake (the runtime's replay). */
    bool ends_here;
} axl__exec_ops;

struct axl__exec {
    const axl__exec_graph *g;
    const axl__exec_ops *ops;
    void *client;
    /* Per node (g->nnodes), or per word of bit set (g->words); the
     * client's memory, zeroed (as x) before axl__exec_init. */
    uint32_t *ready;             /* the driver's */
    uint32_t *doomed;            /* the driver's: a predecessor failed
                                    (skipped; kept until the next begin) */
    uint32_t *failed;            /* the driver's: failed or skipped (kept
                                    until the next begin, with node_st) */
    _Atomic uint32_t *ended;     /* set by run ends, any context */
    uint16_t *waiting;           /* the driver's: predecessors to end */
    uint16_t *next_run;          /* the driver's: runs started */
    _Atomic uint16_t *runs_left; /* runs not ended */
    /* (next_run and runs_left: only nodes of several runs use them, so a
     * client whose graphs have none may leave both NULL.) */
    _Atomic int32_t *node_st;    /* first failure of a node's runs */
    /* Failure messages: why[k] is node why_node[k]'s (k < nwhy). */
    char (*why)[AXL_MESSAGE_MAX];
    uint16_t *why_node;
    uint32_t nwhy;
    _Atomic uint32_t whys;       /* messages taken (may pass nwhy) */
    /* The claim (see the top of this file). */
    _Atomic uint32_t pokes;
    _Atomic uint8_t orphan;      /* a claim nobody drives */
    /* n + 1 while the driver is inside the start of one-run node n; its
     * end, if it comes meanwhile (a port that completes inside the start:
     * the emulated device, the noop shim), swaps in AXL__EXEC_ENDED_INSIDE
     * and the driver settles n on return, with no poke (exec.c). */
    _Atomic uint32_t in_start;
    /* The driver's. */
    uint32_t left;               /* nodes not settled */
    uint32_t due;                /* pokes to come: runs and host nodes
                                    started, kicks promised */
    uint32_t taken;              /* pokes consumed */
    axl_status status;           /* the first failure to settle */
    uint32_t first_failed;       /* its node */
};

/* Nodes of several runs: 0 compiles the executor for graphs of one run
 * per kernel node (a client that refuses the others: the plan firmware,
 * AXL_PLAN_SEVERAL_RUNS 0 in xrt/mmio/mmio_config.h). */
#ifndef AXL_EXEC_SEVERAL_RUNS
#define AXL_EXEC_SEVERAL_RUNS 1
#endif

/* Starts that answer AXL__EXEC_ENDED_HERE: 0 compiles the executor for
 * clients whose starts never do (the plan firmware's fw_exec.c, whose
 * runs end by the units' completion, never inside their start). */
#ifndef AXL_EXEC_ENDS_HERE
#define AXL_EXEC_ENDS_HERE 1
#endif

/* The runs of node n of a graph: a kernel's (1 when nruns is 0: a
 * format-1 node), none for the others. */
static inline uint32_t axl__exec_runs(const axl_plan_node *nd)
{
    if (nd->kind != AXL_PLAN_NODE_KERNEL)
        return 0;
    if (!AXL_EXEC_SEVERAL_RUNS)
        return 1u;
    return nd->nruns > 1 ? nd->nruns : 1u;
}

/* Successor lists of a plan's nodes (succ0: nnodes + 1 entries, succ:
 * npreds), and the roots' bit set (words); false when an edge names a
 * node that is not before its own (the lists are then unusable). */
bool axl__exec_build(const axl_plan_node *nodes, uint32_t nnodes,
                     const uint16_t *preds, uint16_t *succ0, uint16_t *succ,
                     uint32_t *roots);

/* x's per-node state as a submission finds it (once, after the client
 * pointed x at g and at its memory, which it zeroed with x's own
 * fields). */
void axl__exec_init(axl__exec *x);
/* A submission begins: every root is ready. Then axl__exec_drive. */
void axl__exec_begin(axl__exec *x);
/* Takes the begin's claim and drives. True: this call finished the
 * submission (the client ends it; nothing else touches x). */
bool axl__exec_drive(axl__exec *x);
/* Run r of node n ended with st (its message already given through
 * axl__exec_why when st failed). may_drive: this context may drive (not
 * an interrupt, and a client that lets run ends drive); else a claim it
 * takes is left for axl__exec_adopt. True: this call finished the
 * submission. */
bool axl__exec_run_ended(axl__exec *x, uint32_t n, axl_status st,
                         bool may_drive);
/* Node n failed with st; its first failure counts (runs of one node may
 * fail on several threads). The executor's, and a start op's that
 * answers AXL__EXEC_ENDED_HERE for a failed run, before it answers. */
static inline void axl__exec_fail(axl__exec *x, uint32_t n, axl_status st)
{
    int32_t none = 0;
    atomic_compare_exchange_strong_explicit(&x->node_st[n], &none,
                                            (int32_t)st, memory_order_relaxed,
                                            memory_order_relaxed);
}
/* A HOST node ended (as axl__exec_run_ended). */
bool axl__exec_node_ended(axl__exec *x, uint32_t n, axl_status st,
                          bool may_drive);
/* The kick a WAIT promised (any context): the executor is poked, and
 * driven here when may_drive and nobody drives it (as a run's end). True:
 * this call finished the submission. */
bool axl__exec_kick(axl__exec *x, bool may_drive);
/* Takes over a claim nobody drives (left by a run end that could not
 * drive): true, and the caller drives it (axl__exec_drive_held). */
bool axl__exec_adopt(axl__exec *x);
/* Drives the claim axl__exec_adopt gave. True: this call finished the
 * submission. */
bool axl__exec_drive_held(axl__exec *x);
/* The buffer for node n's failure message, or NULL when every message
 * slot is taken (the failure still counts). Any context. */
char *axl__exec_why(axl__exec *x, uint32_t n);
/* How node n settled, for the client once the submission has finished
 * and until the next begins: failed (or skipped: a predecessor failed,
 * and it never ran), with its status. */
static inline bool axl__exec_failed(const axl__exec *x, uint32_t n)
{
    return (x->failed[n >> 5] >> (n & 31u)) & 1u;
}
static inline bool axl__exec_skipped(const axl__exec *x, uint32_t n)
{
    return (x->doomed[n >> 5] >> (n & 31u)) & 1u;
}
static inline axl_status axl__exec_status(const axl__exec *x, uint32_t n)
{
    return (axl_status)atomic_load_explicit(&x->node_st[n],
                                            memory_order_relaxed);
}

#endif /* AXL_EXEC_H */
