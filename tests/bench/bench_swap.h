/*
 * bench_swap.h - axl-bench's swap scenarios (bench_swap.c): on-demand
 * reprogramming of the emulated device (docs/designs-design.md 2, issue
 * 40 stage 3), the stock design's nop against a second design (the
 * tests' designs_b.xclbin: the stock fir alone), embedded when the build
 * links it (AXL_BENCH_SWAP).
 */
#ifndef AXL_BENCH_SWAP_H
#define AXL_BENCH_SWAP_H

#include <stdbool.h>

/* 2 * rounds rounds of `batch` commands of one design each, on an
 * out-of-order queue, each round let go at once and waited for (so a
 * round's commands become ready together and wait for their design
 * together); alternating: fir, nop, fir, nop ... (a
 * swap a round, releasing `batch` commands); else all fir rounds, then
 * all nop rounds (two swaps). The loads are checked against the
 * "reprogramming" row. Returns ns for the whole. */
double bench_swap_rounds(int batch, int rounds, bool alternating,
                         bool slots);
/* slots: the same with vadd and fir as partials taking turns in slot
 * RP_0 of the emulated k26_2rp device (3.3's on-demand slot load), its
 * static part examples/slots_static.cfg's; only in an axl-bench built
 * with them (AXL_BENCH_SLOTS). It shuts the runtime down once to give
 * the device its shell: run it alone. */

/* The timed figures (median of 7): swap_per_load and
 * swap_per_released_command, in ns. */
void bench_swap_figures(void);

#endif
