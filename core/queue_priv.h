/*
 * queue_priv.h - queues (queue.c): the object and its holds.
 */
#ifndef AXL_QUEUE_PRIV_H
#define AXL_QUEUE_PRIV_H

#include "rt.h"

struct axl__queue {
    uint16_t refs;
    uint16_t holds;             /* commands in flight */
    uint16_t context;           /* slot; the queue holds it */
    uint16_t device;            /* slot */
#if AXL_FEATURE_GRAPHS
    axl__graph_ref graph;       /* the graph it records into, or none */
    uint16_t graph_pad;         /* 0. With graph, compared (with context
                                   and device, 8 bytes at once) against a
                                   launch memo's no_graph: a recording
                                   queue never recalls a memo */
#endif
    uint32_t flags;             /* axl_queue_flags */
    bool own_context;           /* made by the queue; released with it */
    axl_async_handler handler;
    uint32_t last_event;        /* in-order: handle of the last command */
    uint32_t inflight;          /* commands not yet complete */
    uint64_t timeout_ns;        /* for kernels */
    axl__error_ref err_head, err_tail; /* unconsumed async errors */
    uint32_t dropped;           /* errors lost to a full error pool */
#if AXL_FEATURE_GRAPHS
    uint32_t graph_last;        /* in-order: handle of the node it recorded
                                   last, or 0 */
#endif
};

/* A command of q has completed or a graph let go of it: freed with the
 * last hold once the application has released it. */
void axl__queue_unhold(struct axl__queue *q);

#endif /* AXL_QUEUE_PRIV_H */
