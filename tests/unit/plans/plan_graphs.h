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

enum {
    PLAN_N = 64,
    PLAN_TAPS = 8,
    PLAN_S = 256,     /* S's int32 elements */
    PLAN_E_AT = 128   /* E's first element in S: 512 bytes, the emulated
                         device's mem_base_addr_align */
};

#endif /* PLAN_GRAPHS_H */
