/*
 * graph_priv.h - the objects of recorded command graphs (graph.c), kept
 * in the pools of pools.h (with AXL_FEATURE_GRAPHS on).
 *
 * A node is a command group that passed the one checker, kept as the
 * handler that described it, holding nothing: its buffers and its kernel
 * are remembered by handle (so a released one is seen, by its stale
 * generation, at finalize and at submission), and the handler's pointers
 * to them are set again each time the node is used. Finalize makes the
 * executable graph's plan from its nodes (replay.h), which a submission
 * replays as one command: the checker is skipped, the rules that depend
 * on the moment (data edges, data movement, in-order edges) are not.
 */
#ifndef AXL_GRAPH_PRIV_H
#define AXL_GRAPH_PRIV_H

#include "handler_priv.h" /* a node keeps its checked group */

#if AXL_FEATURE_GRAPHS

/* A written plan names its nodes up to this many (plan.c). */
#define AXL__LAID_NODES 64u

struct axl__graph_node {
    uint32_t owner;             /* handle of its graph or executable graph */
    axl__graph_node_ref next;   /* the owner's next node, in order */
    uint16_t index;             /* its position in the owner (0 first) */
    uint8_t ndeps;
    uint8_t nacc;               /* its accessors (h.nacc, which a
                                   submission's commit zeroes) */
    uint16_t deps[AXL_MAX_GRAPH_NODE_DEPS]; /* explicit edges: positions of
                                   earlier nodes */
    uint32_t kernel;            /* kernel nodes: the kernel's handle */
    uint32_t bufs[AXL_MAX_ACCESSORS]; /* each accessor's buffer handle */
    /* Each accessor as the node was recorded: the bytes of its base
     * buffer it spans (for the edges to other nodes) and its buffer's
     * shape (what an update must keep). */
    struct axl__graph_span {
        uint64_t lo, hi;        /* bytes of the base buffer */
        uint16_t base;          /* base buffer slot */
        bool writes;
        uint8_t dims;
        uint32_t bank;          /* executable kernel nodes: the bank of a
                                   buffer argument at finalize */
        size_t elem, range[3];
    } span[AXL_MAX_ACCESSORS];
    /* A recorded parallel_for (parallel.c) is one node over the whole
     * range, its buffers whole, which a plan runs as `chunks` runs, each
     * over its part of the split buffers and told its first item and
     * count (axl__split_chunk). chunks 0: a plain node (one run). */
    struct axl__graph_split {
        uint16_t chunks;
        uint8_t nsplit;
        uint8_t offset_size, count_size;  /* 4 or 8 */
        int32_t offset_id, count_id;      /* argument ids, or -1 */
        uint16_t split_id[AXL_MAX_KERNEL_ARGS]; /* the split buffers'
                                             argument ids */
        uint64_t range, granule;          /* items; every chunk but the
                                             last is a multiple of it */
    } split;
    uint32_t from;              /* executable nodes: the handle of the
                                   graph's node it was made from (updates
                                   name it; it may be released since) */
    /* Executable nodes: what the plan's build uses while it walks the
     * nodes (plan.c). */
    uint16_t mark;              /* build: the last node (+ 1) that took an
                                   edge from it */
    uint16_t plan_npreds;       /* build: its edges in the plan */
    uint32_t rec_next[AXL_MAX_ACCESSORS]; /* build: the next access of the
                                   same buffer that later nodes order
                                   after (slot * AXL_MAX_ACCESSORS + i +
                                   1, 0: none) */
#if AXL_TRACE_EVENTS
    uint64_t t_start, t_end;    /* executable host nodes of a traced
                                   submission: when it ran (replay.c) */
#endif
    axl_handler h;              /* the checked group (holds nothing) */
};

struct axl__graph {
    uint16_t refs;              /* 1, +1 while finalize (which may drop the
                                   lock) reads its nodes */
    uint16_t context, device;   /* slots; the graph holds its context */
    uint16_t nnodes;
    axl__graph_node_ref head, tail;
};

struct axl__graph_exec {
    uint16_t refs;
    uint16_t context, device;   /* slots; it holds its context */
    uint16_t nnodes;
    bool busy;                  /* a call owns the nodes (a submission's
                                   resolve or an update may drop the lock):
                                   others wait for it to end */
    /* What the last submission found live (its step 1): while no kernel
     * or buffer was released or freed since (axl__rt's counts) and the
     * device carries the same design, every node's kernel and buffers
     * still are. (Fields ordered so that the struct has no hole.) */
    bool checked;
    axl__image_ref loaded;
    uint32_t graph;             /* handle of the graph it was made from
                                   (weak: names the nodes updates take) */
    uint32_t kernels_gone, buffers_gone;
    uint32_t last;              /* the event of its last submission (the
                                   one the caller gets), a runtime
                                   reference (live or retired), or 0: the
                                   next submission starts after it */
    axl__graph_node_ref head;
    struct axl__plan *plan;     /* its plan (replay.h), built at finalize
                                   and again when an update changes a
                                   buffer */
    uint16_t pending;           /* submissions through its plan committed
                                   and not finished (they read its nodes
                                   and tables: updates wait for them) */
    bool retired;               /* released while some are: freed with
                                   the last (replay.c) */
    struct axl__plan *run_plan; /* the plan of its submission dispatched
                                   and not finished (one at a time), or
                                   NULL */
    uint64_t timeout_q;         /* the queue timeout its runs were given
                                   (hal timeout_ns), + 1; 0: none yet */
};

/* axl__submit's branch for a queue that records (or a group that names
 * graph nodes): lock held, the handler's holds dropped before it returns.
 * Reached through axl__graph_submit_fn (sched.c), which axl_graph_create
 * sets: a firmware that makes no graph links none of graph.c. */
typedef axl_status (*axl__graph_submit_t)(const char *fn,
                                          struct axl__queue *q,
                                          axl_handler *h, axl_event *out);
extern axl__graph_submit_t axl__graph_submit_fn;

/* axl_pipeline_start or _stop (kind AXL__CMD_PIPE_START or _STOP) of
 * pipeline `handle` on q, a queue that records: a node (lock held).
 * Set with axl__graph_submit_fn: pipeline.c reaches graph.c only
 * through it. */
typedef axl_status (*axl__graph_pipe_t)(const char *fn, struct axl__queue *q,
                                        uint32_t handle, uint8_t kind);
extern axl__graph_pipe_t axl__graph_pipe_fn;

#endif /* AXL_FEATURE_GRAPHS */

#endif /* AXL_GRAPH_PRIV_H */
