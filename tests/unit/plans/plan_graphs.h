/*
 * plan_graphs.h - the test plans plan_graphs.c writes at build time
 * (axl_add_plan) and test_plans.c compiles in, each a graph recorded on
 * the emulated device with the stock design (vadd has two units, fir
 * one; every buffer in bank 0):
 *
 * plan_small: vadd(A, B -> C, PLAN_N); fir(Fi, Fc -> Fo, PLAN_TAPS,
 *   PLAN_N), beside it; vadd(C, B -> E, PLAN_N / 2) after the first, E a
 *   sub-buffer of S from element PLAN_E_AT.
 * plan_pair: two vadds over six buffers, neither waiting for the other.
 * plan_chain: three vadds, each reading what the one before wrote.
 * plan_beside: vadd 0; vadds 1 and 2 after it, beside each other; vadd 3
 *   beside all three.
 */
#ifndef PLAN_GRAPHS_H
#define PLAN_GRAPHS_H

#include "axl/axl.h"

enum {
    PLAN_N = 64,
    PLAN_TAPS = 8,
    PLAN_S = 256,     /* S's int32 elements */
    PLAN_E_AT = 128   /* E's first element in S: 512 bytes, the emulated
                         device's mem_base_addr_align */
};

/* The recording (plan_record.c): a device's kernels, context and queue,
 * and the buffers a graph makes, in the order its nodes first use them
 * (the order a written plan numbers them). */
typedef struct plan_rig {
    axl_device dev;
    axl_context ctx;
    axl_queue q;
    axl_kernel_bundle bundle;
    axl_kernel vadd, fir;
    axl_buffer b[8];     /* base buffers, then sub-buffers */
    unsigned nb;
} plan_rig;

/* A failed call said on stderr with its message; returns st. TRY returns
 * from the calling function on a failure. */
axl_status plan_why(const char *call, axl_status st);
#define TRY(call)                                                              \
    do {                                                                       \
        axl_status st_ = plan_why(#call, (call));                              \
        if (st_ != AXL_SUCCESS)                                                \
            return st_;                                                        \
    } while (0)

axl_status plan_rig_up(plan_rig *r, axl_device dev);
/* Records graph `name` onto r's queue and finalizes it into *x. */
axl_status plan_rig_finalize(plan_rig *r, const char *name,
                             axl_graph_exec *x);
axl_status plan_record(plan_rig *r, const char *name);
axl_status plan_rig_down(plan_rig *r);

/* plan_pipe, on the streams design (bitstreams/streams.xclbin): the
 * pipeline through sadd_1 on auto-restart adding PLAN_PIPE_ADD (stop
 * timeout PLAN_PIPE_STOP_NS) started, mm2s(S, PLAN_PIPE_N) into it,
 * s2mm(D, PLAN_PIPE_N) out of it, the pipeline stopped: D[i] = S[i] +
 * PLAN_PIPE_ADD. A written plan numbers S 0 and D 1. */
enum {
    PLAN_PIPE_N = 300,       /* words: more than a FIFO holds */
    PLAN_PIPE_ADD = 0x10001,
    PLAN_PIPE_STOP_NS = 20000
};

typedef struct plan_pipe_rig {
    axl_device dev;
    axl_context ctx;
    axl_queue q;
    axl_kernel_bundle bundle;
    axl_kernel sadd, mm2s, s2mm;
    axl_pipeline p;
    axl_buffer S, D;
} plan_pipe_rig;

axl_status plan_pipe_up(plan_pipe_rig *r, axl_device dev);
/* mm2s(S) and s2mm(D) onto r's queue (recorded or run). */
axl_status plan_pipe_packet(plan_pipe_rig *r);
/* The graph plan_pipe recorded and finalized into *x. */
axl_status plan_pipe_finalize(plan_pipe_rig *r, axl_graph_exec *x);
axl_status plan_pipe_down(plan_pipe_rig *r);

#endif /* PLAN_GRAPHS_H */
