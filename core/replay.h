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
};

/* A run of a kernel node on a compute unit. */
struct axl__plan_run {
    uint16_t node;
    uint8_t cu;                 /* its unit: an index of the device's cus,
                                   bound at finalize (0xFF: none of the
                                   kernel's units reaches its buffers) */
};

struct axl__plan {
    uint64_t offset;            /* its block in the graph-table arena */
    uint32_t bytes;
    uint32_t nnodes, nruns, npreds, nbufs;
    axl__exec x;                /* the walk's state */
    axl__exec_graph g;          /* nodes, successors, roots */
    axl_plan_node *nodes;       /* kind, preds; a kernel node's runs are
                                   run[run0, run0 + nruns) (nruns >= 1) */
    uint16_t *preds;
    struct axl__plan_run *run;
    struct axl__plan_buf *buf;
    uint16_t *pbuf;             /* node n's accessor i's plan buffer:
                                   pbuf[n * AXL_MAX_ACCESSORS + i] */
    axl__graph_node_ref *node;  /* the executable graph's nodes, by index */
};

/* Builds x's plan (lock held; nothing dropped): edges from the nodes'
 * accessors and recorded edges, a run per kernel node bound to a unit,
 * the plan buffers. AXL_ERR_OUT_OF_RESOURCES naming AXL_GRAPH_TABLE_BYTES
 * when the arena cannot hold it; x keeps its plan (or none) then. */
axl_status axl__plan_build(const char *fn, struct axl__graph_exec *x);
/* Frees x's plan, if it has one (lock held). */
void axl__plan_free(struct axl__graph_exec *x);

#endif /* AXL_REPLAY_H */
