/*
 * mmio_config.h - capacities of the mmio device port, with defaults a board
 * overrides in its axl_board.h (as for the core's axl_config.h).
 */
#ifndef AXL_MMIO_CONFIG_H
#define AXL_MMIO_CONFIG_H

/* The application's own settings first (-DAXL_USER_CONFIG=<header>). */
#ifdef AXL_USER_CONFIG_FILE
#include AXL_USER_CONFIG_FILE
#endif
#include "axl_board.h"

/* The core's switch (core/axl_config.h's default; a board's header may
 * say 0): the port reprograms on demand (region_load) only with it. */
#if !defined(AXL_FEATURE_DESIGN_SWAP) /* core/axl_config.h lists the setting */
#define AXL_FEATURE_DESIGN_SWAP 1
#endif

/** Banks the port carves (regions the board declares, or used
 *  MEM_TOPOLOGY banks). */
#ifndef AXL_MMIO_BANKS
#define AXL_MMIO_BANKS 4
#endif

/** Allocations alive at once per bank (the allocator's block table). */
#ifndef AXL_MMIO_BANK_ALLOCS
#define AXL_MMIO_BANK_ALLOCS 8
#endif

/** Compute units the port drives (IP_LAYOUT entries, by index). */
#ifndef AXL_MMIO_UNITS
#define AXL_MMIO_UNITS 8
#endif

/** Interrupt lines of a DFX shell's slots the port maps to units
 *  (axl_mmio_irq; axl_slot.irq_first + irq_count stay below it). */
#ifndef AXL_MMIO_IRQ_LINES
#define AXL_MMIO_IRQ_LINES 32
#endif

/** Arguments of one kernel the port keeps the register layout of. */
#ifndef AXL_MMIO_MAX_ARGS
#define AXL_MMIO_MAX_ARGS 16
#endif

/** What the device reports as info::device::mem_base_addr_align, in bits:
 *  the alignment a sub-buffer's origin must keep (as the emulated
 *  device's and the XRT port's, so a program that passes on one passes on
 *  the others); at most the buffers' own alignment below. */
#ifndef AXL_MMIO_MEM_ALIGN_BITS
#define AXL_MMIO_MEM_ALIGN_BITS 4096
#endif

/** Alignment of every buffer the port and the plan executor place in a
 *  bank, in bytes, when the board does not say (axl_mmio_board.align, a
 *  run-time setting): 4 KiB, as XRT aligns its buffers, which RTL kernels
 *  rely on (an AXI4 burst must not cross a 4 KiB boundary: a kernel that
 *  bursts 256 beats from a buffer's start needs it). A board short of
 *  memory (a bank in the R5's TCM) may give 64, a cache line. */
#ifndef AXL_MMIO_BUFFER_ALIGN
#define AXL_MMIO_BUFFER_ALIGN 4096u
#endif

/** Bytes from physical address 0 where the CPU does not reach memory at
 *  the physical address, when the board does not say
 *  (axl_mmio_board.cpu_reserved): a bank without a host view there is
 *  refused. The Cortex-R5 sees its TCMs at 0 (the zcu102-r5 board sets
 *  0x40000); 0 elsewhere. */
#ifndef AXL_MMIO_CPU_RESERVED
#define AXL_MMIO_CPU_RESERVED 0u
#endif

/** Reads of 0x00 after ap_sw_reset before the unit is declared dead. */
#ifndef AXL_MMIO_RESET_POLLS
#define AXL_MMIO_RESET_POLLS 1000
#endif

/** A model build whose model has a clock (axl/mmio_model.h): the most of
 *  its time, in nanoseconds, one advance() call is given, after which a
 *  waiting thread looks at the host's clock and other devices again and
 *  other threads may reach the model. */
#ifndef AXL_MMIO_MODEL_SLICE_NS
#define AXL_MMIO_MODEL_SLICE_NS 10000u
#endif

/** How a wired unit completes when the board's axl_mmio_board.completion
 *  is 0 (axl_mmio_completion, axl/mmio.h): 1 interrupt, 2 polling, 3
 *  poll then sleep. */
#ifndef AXL_MMIO_COMPLETION
#define AXL_MMIO_COMPLETION 1
#endif

/** Poll then sleep: how long after ap_start, in nanoseconds of the
 *  device's clock, the waiter reads ap_done before it leaves the end to
 *  the unit's interrupt. */
#ifndef AXL_MMIO_POLL_SPIN_NS
#define AXL_MMIO_POLL_SPIN_NS 20000u
#endif

/** An interrupt-driven unit: how often, in nanoseconds of the device's
 *  clock, a waiter looks at its ap_done, and how long a done it saw may
 *  then wait for its interrupt before the port says the interrupt is not
 *  arriving and polls the unit from then on. Far above an interrupt
 *  controller's latency (microseconds) and a loaded host's scheduling
 *  delay (an interrupt thread under valgrind: tens of milliseconds); below
 *  the half second per run a forgotten master enable costs where nothing
 *  checks, and paid once. */
#ifndef AXL_MMIO_IRQ_GRACE_NS
#define AXL_MMIO_IRQ_GRACE_NS 100000000u
#endif

/** The grace above for the first run of each unit a DFX slot load wired
 *  (docs/designs-design.md 3.4): a partial load may leave the slot's
 *  interrupt lines dead until the board re-arms its controller
 *  (axl_mmio_board.after_load), and a board that does not is caught on
 *  that run, a millisecond of the device's clock after its done, rather
 *  than AXL_MMIO_IRQ_GRACE_NS later. Still far above an interrupt
 *  controller's latency; a loaded host's slow interrupt thread could
 *  make it fall back early, which costs polling, never a wrong result. */
#ifndef AXL_MMIO_IRQ_VERIFY_NS
#define AXL_MMIO_IRQ_VERIFY_NS 1000000u
#endif

#ifndef AXL_MESSAGES
#define AXL_MESSAGES 1
#endif

_Static_assert(AXL_MMIO_BANKS >= 1 && AXL_MMIO_BANKS <= 64,
               "AXL_MMIO_BANKS must be 1..64");
_Static_assert(AXL_MMIO_UNITS >= 1 && AXL_MMIO_UNITS <= 128,
               "AXL_MMIO_UNITS must be 1..128");
_Static_assert(AXL_MMIO_IRQ_LINES >= 1 && AXL_MMIO_IRQ_LINES <= 256 &&
                   AXL_MMIO_UNITS < 255,
               "AXL_MMIO_IRQ_LINES must be 1..256 (a line's unit is a byte)");
_Static_assert(AXL_MMIO_MAX_ARGS >= 1 && AXL_MMIO_MAX_ARGS <= 32,
               "AXL_MMIO_MAX_ARGS must be 1..32 (a unit's held registers "
               "are a 32-bit mask)");
_Static_assert(AXL_MMIO_COMPLETION >= 1 && AXL_MMIO_COMPLETION <= 3,
               "AXL_MMIO_COMPLETION must be 1 (interrupt), 2 (polling) or 3 "
               "(poll then sleep)");
_Static_assert(AXL_MMIO_BANK_ALLOCS >= 1, "AXL_MMIO_BANK_ALLOCS must be >= 1");
_Static_assert((AXL_MMIO_MEM_ALIGN_BITS & (AXL_MMIO_MEM_ALIGN_BITS - 1)) == 0 &&
                   AXL_MMIO_MEM_ALIGN_BITS >= 512,
               "AXL_MMIO_MEM_ALIGN_BITS must be a power of two >= 512 "
               "(a cache line)");
_Static_assert((AXL_MMIO_BUFFER_ALIGN & (AXL_MMIO_BUFFER_ALIGN - 1u)) == 0 &&
                   AXL_MMIO_BUFFER_ALIGN >= 64u,
               "AXL_MMIO_BUFFER_ALIGN must be a power of two >= 64 "
               "(a cache line)");

/** The plan executor (axl/plan.h): plans loaded at once, and the most
 *  nodes, unit runs (a node has one, a recorded parallel_for's one per
 *  chunk), edges, buffers and bytes of scalars one plan may have. Its RAM
 *  is about AXL_PLAN_LOADED x (AXL_MESSAGE_MAX + 14 x AXL_PLAN_MAX_NODES +
 *  10 x AXL_PLAN_MAX_RUNS + 2 x AXL_PLAN_MAX_EDGES + 32 x
 *  AXL_PLAN_MAX_BUFFERS + AXL_PLAN_SCALAR_BYTES) bytes. */
#ifndef AXL_PLAN_LOADED
#define AXL_PLAN_LOADED 2
#endif
#ifndef AXL_PLAN_MAX_NODES
#define AXL_PLAN_MAX_NODES 16
#endif
/** Nodes of several unit runs (a recorded parallel_for as one node): 0
 *  (the default) refuses a plan that has one at load, naming this switch,
 *  and keeps the code and tables for them out of the executor;
 *  AXL_PLAN_MAX_RUNS then counts for nothing. */
#ifndef AXL_PLAN_SEVERAL_RUNS
#define AXL_PLAN_SEVERAL_RUNS 0
#endif
#ifndef AXL_PLAN_MAX_RUNS
#define AXL_PLAN_MAX_RUNS AXL_PLAN_MAX_NODES
#endif
#ifndef AXL_PLAN_MAX_EDGES
#define AXL_PLAN_MAX_EDGES 32
#endif
#ifndef AXL_PLAN_MAX_BUFFERS
#define AXL_PLAN_MAX_BUFFERS 16
#endif
#ifndef AXL_PLAN_SCALAR_BYTES
#define AXL_PLAN_SCALAR_BYTES 128
#endif

#endif /* AXL_MMIO_CONFIG_H */
