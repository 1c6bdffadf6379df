/*
 * fw_plan.h - the R5 plan firmware's plan, axl_fw_plan (issue 30): what
 * fw_plan.c records on the host against the stock design and writes as
 * axl_fw_plan.c (checked in: the cross build compiles that copy), and
 * what the firmware that replays it needs to know of it.
 *
 * One graph of four independent kernel nodes, in this order:
 *   0  vadd   (X, Y -> O0, n = FW_PLAN_VN)          on vadd:vadd_1
 *   1  vadd   (P, Q -> O1, n = FW_PLAN_VN)          on vadd:vadd_2
 *   2  fir    (in X, coeff Y -> F, taps, len)       on fir:fir_1
 *   3  conv2d (image P, kernel Q -> G, w, h, shift) on conv2d:conv2d_1
 * The nodes share only what they read: fir reads X's first FW_PLAN_FLEN
 * 16-bit samples and Y's first FW_PLAN_FTAPS 16-bit taps; conv2d reads
 * P's first FW_PLAN_CW x FW_PLAN_CH bytes and Q's first 9 bytes as its
 * signed 3x3 kernel. So the graph uses 8 buffers, the most a laid-out
 * graph holds on the host-emu board (AXL_MAX_ACCESSORS 8), and no node
 * waits for another: the two vadds land on the two units.
 *
 * Buffers, in the plan's order (each at the device's 512-byte alignment,
 * so 4 x 512 bytes per bank: the R5 simulator's banks are 4 KiB):
 *   bank 0: X, Y, O0 (int32[FW_PLAN_VN]), F (int16[FW_PLAN_FLEN])
 *   bank 1: P, Q, O1 (int32[FW_PLAN_VN]), G (uint8[FW_PLAN_CW * FW_PLAN_CH])
 * Every scalar and buffer is updatable (axl_plan_set_scalar, _set_buffer).
 */
#ifndef FW_PLAN_H
#define FW_PLAN_H

#include "axl/plan.h"

enum {
    FW_PLAN_VN = 64,    /* vadd's elements (n) */
    FW_PLAN_FTAPS = 8,  /* fir's taps */
    FW_PLAN_FLEN = 96,  /* fir's samples (len) */
    FW_PLAN_CW = 16,    /* conv2d's width */
    FW_PLAN_CH = 12,    /* conv2d's height */
    FW_PLAN_SHIFT = 4   /* conv2d's shift */
};

/* Nodes (axl_plan_set_scalar's node). */
enum { FW_PLAN_VADD0, FW_PLAN_VADD1, FW_PLAN_FIR, FW_PLAN_CONV2D };

/* Buffers (axl_plan_buffer's index). */
enum {
    FW_PLAN_X, FW_PLAN_Y, FW_PLAN_O0, FW_PLAN_P, FW_PLAN_Q, FW_PLAN_O1,
    FW_PLAN_F, FW_PLAN_G, FW_PLAN_BUFFERS
};

extern const axl_plan axl_fw_plan;

#endif /* FW_PLAN_H */
