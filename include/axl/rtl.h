/*
 * axl/rtl.h - the RTL model: compute units that are a kernel's own Verilog
 * (Vitis HLS output, or RTL written to the same interface), compiled by
 * Verilator and driven cycle by cycle, behind the mmio port's seam.
 *
 * For test programs and boards of test builds, not for firmware: a
 * program gets it by linking a target made by the CMake call
 * axl_add_rtl_kernel() (docs/rtl-in-ci.md), which builds the testbench
 * (C++, xrt/mmio/rtl) around the Verilated kernels, and axl with the mmio
 * port on that model (axl_mmio_model_library), whose default board is
 * axl_rtl_board(). Such a program uses the plain axl API: its one device,
 * "RTL simulation (Verilator)", runs the kernels' RTL. Nothing of it
 * reaches a board build.
 *
 * What the model is (the axl_mmio_model contract, axl/mmio_model.h):
 *  - one instance of a kernel's RTL per compute unit of the design
 *    (IP_LAYOUT entries naming a kernel that was built in), all on one
 *    clock: the design's CLOCK_FREQ_TOPOLOGY clock that drives ap_clk
 *    (the DATA clock, Vitis's clock 0, which v++ [clock] and
 *    --kernel_frequency set), 300 MHz when the design has none;
 *  - an AXI4-Lite master on each unit's s_axi_control: rd32 and wr32 are
 *    one transaction each, and every unit runs during their cycles;
 *  - an AXI4 slave per m_axi bundle on the banks given at attach (any
 *    data width from 32 to 1024 bits, INCR bursts, write strobes, several
 *    outstanding transactions each way), which checks the protocol: a
 *    burst across a 4 KiB boundary, WLAST where AWLEN does not put it, an
 *    address outside every bank, a write outside every buffer the port
 *    allocated, VALID dropped before READY, a burst type other than INCR,
 *    AxSIZE wider than the bus. Each is counted, and fails the unit's run
 *    (run_status), naming the bundle and the address;
 *  - the design's streams (stream_connect): each joins a producer's
 *    AXI4-Stream port (TDATA, TVALID, TREADY, and TLAST, TKEEP, TSTRB
 *    where the RTL has them; widths from the kernel XML, checked against
 *    the RTL's when it is built and between the two ends at attach) to
 *    its consumer's through a FIFO of the design's depth, and checks the
 *    producer: TVALID dropped before TREADY took the beat, TDATA, TLAST,
 *    TKEEP or TSTRB changed while TVALID waited, TSTRB set on a byte TKEEP
 *    leaves out (AXI4-Stream's reserved combination). Each is counted and
 *    fails the producer's run, naming the stream. Verilator is a two-state
 *    simulator: an X on TDATA reads as a 0 or a 1, never as X
 *    (docs/rtl-in-ci.md, "What the simulation cannot model");
 *  - the interrupt pin: a rising edge calls the isr given at attach at the
 *    end of its cycle, inside whichever call ran it (rd32, wr32, advance,
 *    reset), and advance() returns IRQ for that unit until the port reads
 *    its ISR (DONE likewise until it reads 0x00, or an ISR that says
 *    done: an interrupt-driven ap_ctrl_hs driver reads nothing else); the
 *    isr must not call the model (mmio_model.h); ap_rst_n: reset() holds
 *    it low 16 cycles.
 *  - Time is the simulated clock: it moves only inside advance(), rd32,
 *    wr32 and reset(). While every unit is idle (no run, no bus traffic,
 *    the testbench's last look saw ap_idle), advance() skips ahead to its
 *    deadline without clocking them, as a gated clock would.
 *
 * How advance() sees ap_done without a register the driver owns: while a
 * unit runs, the testbench reads its control word on the AXI4-Lite port
 * between the port's own accesses. What such a read clears (ap_done in
 * ap_ctrl_hs, a clear-on-read ap_ready) the port's next read of 0x00 still
 * sees, so the driver cannot tell. A driver that reads only the ISR never
 * reads 0x00, so an ap_ctrl_hs unit still holds the last run's ap_done
 * when it is started again: the testbench then reads it away (into what
 * the driver's next read of 0x00 sees) before the start, so that no look
 * takes it for the new run's end.
 *
 * Single-threaded: the port serialises calls (mmio_model.h).
 */
#ifndef AXL_RTL_H
#define AXL_RTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "axl/mmio_model.h"
#include "axl/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The model of the kernels linked into the program (axl_add_rtl_kernel).
 *  Its name is "RTL simulation (Verilator)". */
const axl_mmio_model *axl_rtl_model(void);

/** The design linked beside the kernels (axl_add_rtl_kernel's CONFIG, or
 *  its DESIGN image): its bytes and size, or NULL and 0. */
const void *axl_rtl_design(size_t *size);

/**
 * The board of the RTL device, the default board of the runtime that
 * axl_add_rtl_kernel links (axl_mmio_model_board() with this model):
 *  - the design above;
 *  - one bank of host memory for each used MEM_TOPOLOGY bank, at the
 *    bank's device address, as large as the design says up to 256 MiB
 *    (AXL_RTL_BANK_MIB in the environment sets the cap), zeroed, taking
 *    host memory only where it is written;
 *  - each unit of a kernel with RTL wired for interrupts where IP_LAYOUT
 *    enables its interrupt and its RTL has the pin (AXL_RTL_IRQ=0 in the
 *    environment leaves every unit polled), and built with ap_sw_reset
 *    where its kernel was added with SW_RESET; the board's reset hook
 *    drives the unit's ap_rst_n (the model's reset);
 *  - a program hook that wires the units of the design the fabric takes
 *    in the same way (another design of the kernels linked in, on a
 *    swap: axl_rtl_set_swaps).
 * Made at the first call, read from the environment then; it outlives
 * the runtime. A program may hand another board over instead
 * (axl_mmio_set_board(), before the runtime starts), built with
 * axl_mmio_model_board() on axl_rtl_model().
 */
const axl_mmio_board *axl_rtl_board(void);

/** Whether the board reprograms on demand (issue 40,
 *  docs/designs-design.md 3.7; the default): bundles of several designs
 *  of the kernels linked in are held at once, and the fabric takes each
 *  design as its commands come, the testbench closing the old design's
 *  Verilated units and building the new one's, buffers keeping their
 *  bytes. false: the design stays while a bundle of it is held
 *  (axl_mmio_board.fixed_design), as before. Read when the device opens
 *  (axl_rtl_board()), so set it before the runtime starts. */
void axl_rtl_set_swaps(bool on);

struct axl_shell;
/** Gives the RTL board a DFX shell (axl/shell.h; issue 40,
 *  docs/designs-design.md 3.6, 3.7), as axl_mmio_sim_set_shell does the
 *  simulator's: from the next time the device opens (after
 *  axl_shutdown()), the board's design is the shell's static part and
 *  each slot takes partial designs of the shell whose kernels all have
 *  RTL here, their units numbered from the slot's first_unit; a slot
 *  load moves the simulated clock on by the shell's load_ns (the units
 *  with work clocked through it). `shell` is checked with
 *  axl_shell_check: refused with a message, nothing changed. NULL: no
 *  shell. It must stay valid while the device is open. */
axl_status axl_rtl_set_shell(const struct axl_shell *shell);

/** The clock: cycles since attach, and its frequency. */
uint64_t axl_rtl_cycles(void);
uint32_t axl_rtl_clock_mhz(void);

/** What the testbench counted for one unit (by IP_LAYOUT index). */
typedef struct axl_rtl_unit_stats {
    uint64_t busy_cycles;     /**< cycles clocked while it had work */
    uint64_t read_bursts, read_beats;
    uint64_t write_bursts, write_beats;
    uint64_t control_reads, control_writes; /**< the port's, not peeks */
    uint32_t irqs;            /**< rising edges of its interrupt pin */
    uint32_t protocol_errors; /**< since attach */
} axl_rtl_unit_stats;

/** AXL_ERR_INVALID when no unit of the attached design has RTL there. */
axl_status axl_rtl_unit_stats_get(uint32_t ip_index, axl_rtl_unit_stats *out);

/** What the testbench counted for one stream of the design (by its index,
 *  axl_xclbin_get_stream): the FIFO it puts between the two units' ports,
 *  of the design's depth (2 when the design gives none: the register
 *  slices of a direct connection). */
typedef struct axl_rtl_stream_stats {
    uint32_t depth;           /**< the FIFO's beats */
    uint32_t fill;            /**< beats in it now */
    uint32_t max_fill;        /**< the most it held since attach */
    uint64_t beats;           /**< beats that went through */
    uint64_t full_cycles;     /**< cycles the producer offered a beat to a full FIFO */
    uint32_t protocol_errors; /**< the producer's AXI4-Stream errors since attach */
} axl_rtl_stream_stats;

/** AXL_ERR_INVALID when the attached design has no stream of that index
 *  joined in the testbench (both ends must have RTL). */
axl_status axl_rtl_stream_stats_get(uint32_t stream_index,
                                    axl_rtl_stream_stats *out);

/** The memory's timing, in cycles (from the next burst on): from a read
 *  address to its first data beat (default 20), and from a write's last
 *  beat to its response (default 4). One beat a cycle each way. */
void axl_rtl_set_latency(uint32_t read_cycles, uint32_t write_cycles);

/** advance() stops the model (AXL_MMIO_MODEL_ERROR, and run_status says
 *  why) once this many cycles have run in which no unit started,
 *  finished, raised its interrupt or was reset, so that a hung RTL fails
 *  a test instead of hanging it, whatever deadlines the port waits with.
 *  Default 2^30 cycles (3.6 s of a 300 MHz clock), or
 *  AXL_RTL_WATCHDOG_CYCLES from the environment; 0 turns it off. */
void axl_rtl_set_watchdog(uint64_t cycles);

/** A deadlock of a stream pipeline (docs/streaming.md): in a part of the
 *  design's stream graph where a unit runs (a command or an auto-restart:
 *  free-running units waiting for data are at rest), every running unit
 *  waits on a full or empty FIFO (its beat offered to a full one, or its
 *  TREADY up before an empty one, no memory transaction in flight) and
 *  no beat has moved for this many cycles. Each such unit's run then
 *  fails (advance() returns AXL_MMIO_MODEL_RUN_FAILED, run_status says
 *  "deadlock: mm2s_1 writes full mm2s_1.data_out->sadd_1.data_in (64 of
 *  64); ..."), and the model goes on: the units stay stalled until they
 *  are reset. Default 4096, or AXL_RTL_DEADLOCK_CYCLES from the
 *  environment; 0 turns it off. The testbench sees the fabric, not the
 *  runtime: a consumer left waiting this long with its producer not yet
 *  started reads as a deadlock too (the runtime starts a pipeline's
 *  commands one after the other, consumers first, in a few hundred
 *  cycles). */
void axl_rtl_set_deadlock_cycles(uint64_t cycles);

#ifdef __cplusplus
}
#endif

#endif /* AXL_RTL_H */
