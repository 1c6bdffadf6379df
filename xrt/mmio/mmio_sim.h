/*
 * mmio_sim.h - the test controls of the register-level simulator of Vitis
 * HLS compute units: the C-model model of the fabric (axl_mmio_sim_model,
 * axl/mmio_model.h) that a model build's board puts behind the mmio port's
 * seam by default.
 *
 * Each compute unit of the design (IP_LAYOUT) gets a register file that
 * behaves as the generated s_axilite RTL does, in the variant the test
 * picks, and runs the emulated device's C model of its kernel when
 * started: it reads the argument registers at the offsets the kernel XML
 * gives, turns the device addresses into the banks' memory and calls the
 * model (xrt/emu). On a host with threads each unit runs its model on a
 * thread of its own, so units compute at once; without threads (bare
 * metal) a unit's model runs when the clock reaches its done, inside the
 * port's call that moved it: the simulator is stepped by the port.
 *
 * Time. The simulator has a clock of its own (axl_mmio_sim_model.now_ns:
 * ns since attach), the device's clock, as the RTL model's is: kernel
 * timeouts, profiling, the port's grace for a missing interrupt
 * (AXL_MMIO_IRQ_GRACE_NS) and its poll-then-sleep spin count it. It moves
 * only inside the model's calls: AXL_MMIO_SIM_ACCESS_NS (100) a register
 * access, and up to the deadline the port gives advance(). A run's done
 * rises at its start (the ap_start write) plus the unit's run time
 * (axl_mmio_sim_set_run_time; AXL_MMIO_SIM_RUN_NS, 100, by default: the
 * first access after the start sees it), and the clock never passes a
 * done whose C model has not returned: advance() waits for the unit's
 * thread (handing back to the port after a millisecond of the host's time
 * with the clock there, so the port's other calls get in). So whatever the
 * host's load, a run ends at the same simulated time, an interrupt is
 * handled before the clock moves on, and a grace cannot expire because the
 * host was slow. A C model's own wall time counts for nothing: a unit that
 * should take long is given a run time; one that should hang returns
 * AXL_EMU_HANG (or is set to AXL_MMIO_SIM_NEVER_DONE); a model that blocks
 * forever stops the clock, and the waits on it.
 */
#ifndef AXL_MMIO_SIM_H
#define AXL_MMIO_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "axl/hal.h"
#include "axl/mmio.h"
#include "axl/mmio_model.h"

/** Variants of the generated RTL a unit can be set to (bits). */
enum axl_mmio_sim_variant {
    AXL_MMIO_SIM_READY_COR = 1u << 0,   /**< ap_ready clear on read (2022.1 on) */
    AXL_MMIO_SIM_START_PULSE = 1u << 1, /**< ap_start always reads 0 */
    AXL_MMIO_SIM_ISR_COR = 1u << 2,     /**< ISR clear on read, writes ignored */
    AXL_MMIO_SIM_NO_SW_RESET = 1u << 3, /**< built without ap_sw_reset */
    AXL_MMIO_SIM_NO_READY_IRQ = 1u << 4,/**< IER/ISR bit 1 missing */
    AXL_MMIO_SIM_HS = 1u << 5,          /**< ap_ctrl_hs whatever IP_LAYOUT says */
    AXL_MMIO_SIM_CHAIN = 1u << 6,       /**< ap_ctrl_chain likewise */
    AXL_MMIO_SIM_IRQ_WIRED = 1u << 7,   /**< the sim board wires its interrupt */
    /** The control block before Vitis HLS 2022.2: every ap_done of the
     *  core shows on the control word under auto-restart too (ap_ctrl_chain:
     *  held until ap_continue, which the next iteration's done waits for).
     *  Without it, the block of 2022.2 on (docs/hls-control.md,
     *  "Auto-restart"): while auto_restart is set an iteration's end shows
     *  only in the ISR (when enabled), the unit continues by itself, and
     *  ap_done rises once, when it ends after auto_restart was cleared. */
    AXL_MMIO_SIM_RESTART_DONES = 1u << 8
};

/** Faults a unit can be set to. */
enum axl_mmio_sim_fault {
    AXL_MMIO_SIM_OK = 0,
    AXL_MMIO_SIM_NEVER_DONE = 1,       /**< starts and never finishes */
    AXL_MMIO_SIM_DONE_AFTER_POLLS = 2, /**< done at the n-th read of 0x00 */
    AXL_MMIO_SIM_ALL_ONES = 3,         /**< a missing IP: reads all ones */
    AXL_MMIO_SIM_IRQ_WITHOUT_DONE = 4, /**< raises its interrupt, no status */
    /** Starts, never finishes, and keeps writing 0xEE over the buffer its
     *  argument n points to (the allocation the port noted there when it
     *  started) until it is reset, as a hung IP may go on mastering the
     *  memory it was given: every 20 us of the simulator's clock (written
     *  once as the clock passes any number of them, counted per 20 us in
     *  axl_mmio_sim_stats.writes). */
    AXL_MMIO_SIM_KEEPS_WRITING = 5,
    /** Runs as OK, and its interrupt line rises at the IP (GIE, IER, ISR
     *  and 0x00 bit 9 as they should be) but never reaches the handler:
     *  an interrupt controller whose master enable is off, a line the
     *  board did not route. */
    AXL_MMIO_SIM_IRQ_LOST = 6,
    /** A unit of a DFX slot (axl_mmio_sim_set_shell): after each load of
     *  its slot, its interrupt line goes nowhere, as AXL_MMIO_SIM_IRQ_LOST,
     *  until the board's after_load re-arms the slot (the simulator's
     *  board's does; a board without the hook leaves it dead), as XRT
     *  users report of PL interrupts after a partial load (docs/
     *  designs-design.md 3.4). Otherwise as OK. */
    AXL_MMIO_SIM_IRQ_LOST_AFTER_LOAD = 7
};

/** Sets how unit ip_index behaves from its next attach (and at once when
 *  attached). Settings outlive detach; axl_mmio_sim_defaults() clears
 *  them all. */
void axl_mmio_sim_set_unit(uint32_t ip_index, uint32_t variant, uint32_t fault,
                           uint32_t n);
/** How long each run of unit ip_index takes from its next start, in ns of
 *  the simulator's clock, from the ap_start write to ap_done (0: the
 *  default, AXL_MMIO_SIM_RUN_NS). A late done is a long run time. Kept as
 *  the settings above are. */
void axl_mmio_sim_set_run_time(uint32_t ip_index, uint64_t ns);
void axl_mmio_sim_defaults(void);

/** Powers the simulated fabric up with a design (the units of its
 *  IP_LAYOUT, banks in the simulator's static storage, no interrupt
 *  handler) and down again, without the port: protocol tests do it and
 *  then reach the units through axl_mmio_sim_model's rd32 and wr32. (The
 *  port attaches the model itself.) */
axl_status axl_mmio_sim_attach(const void *design, size_t size);
/** The same with a pre-digested design (axl-xclbin design). */
axl_status axl_mmio_sim_attach_design(const struct axl_xclbin_design *digest);
void axl_mmio_sim_detach(void);

/** The board the simulator stands for (the default board of a model
 *  build): the emulated device's design, banks backed by static storage,
 *  the wiring the variants say, the model hooks (axl_mmio_model_board) and
 *  axl_mmio_sim_model. */
const axl_mmio_board *axl_mmio_sim_board(void);

/** Whether that board lets the device reprogram on demand, with bundles
 *  of several designs held (issue 40): on by default; off sets the
 *  board's fixed_design, from the next time the device opens (after
 *  axl_shutdown()). Kept until changed (axl_test_setup turns it on). */
void axl_mmio_sim_set_swaps(bool on);

struct axl_shell;
/** Gives that board a DFX shell (axl/shell.h; issue 40,
 *  docs/designs-design.md 3.1) from the next time the device opens
 *  (after axl_shutdown()): its slots take partial designs of the shell,
 *  beside the board's design (the static part), each slot's units
 *  simulated as unit numbers from its first_unit. `shell` is checked
 *  (axl_shell_check, and each slot's first_unit below the simulator's
 *  units, AXL_MMIO_SIM_UNITS, its interrupt lines below
 *  AXL_MMIO_IRQ_LINES): AXL_ERR_INVALID naming what is wrong, nothing
 *  changed. NULL: no shell. It must stay valid while the device is open;
 *  kept until changed (axl_test_setup clears it). Only in builds with
 *  AXL_FEATURE_DESIGN_SWAP. */
axl_status axl_mmio_sim_set_shell(const struct axl_shell *shell);

/** A fault: while on, the simulator's board refuses every design its
 *  program hook is given (AXL_ERR_RUNTIME, "the simulated board refused
 *  the design"), as a board whose bitstream fails to load would; the
 *  device's first design was loaded at open. Off again after
 *  axl_mmio_sim_defaults(). */
void axl_mmio_sim_fail_loads(bool on);

/** Puts fn in place of the isr the model was attached with (the port's
 *  interrupt entry), until axl_mmio_sim_defaults(); fn is called at once,
 *  inside the model's call in which the line rose (no lock of the
 *  simulator's held: it may read the registers through
 *  axl_mmio_sim_model). */
void axl_mmio_sim_set_irq_handler(void (*fn)(uint32_t ip_index));

/** Calls the isr the model was attached with (the port's interrupt entry,
 *  as the model hands it over): what a handler set above calls once it
 *  has done what a board's handler does first, as a board's handler
 *  calls axl_mmio_isr(). */
void axl_mmio_sim_port_isr(uint32_t ip_index);

/** Runs the clock to unit ip_index's done, when one is due (its model
 *  returned, waited for; the done raised and its interrupt handled), else
 *  returns at once: protocol tests use it to make the timeline exact. A
 *  done that waits for polls (AXL_MMIO_SIM_DONE_AFTER_POLLS) is left to
 *  them. */
void axl_mmio_sim_settle(uint32_t ip_index);

typedef struct axl_mmio_sim_stats {
    uint32_t runs;       /**< models run */
    uint32_t irqs;       /**< rising edges of the interrupt line */
    uint64_t t_start;    /**< last run, on the simulator's clock */
    uint64_t t_end;
    uint32_t writes;     /**< writes of a KEEPS_WRITING unit, one per
                              20 us */
    uint64_t base;       /**< the unit's control base (its design's
                              IP_LAYOUT), 0: no unit there now */
} axl_mmio_sim_stats;
void axl_mmio_sim_stats_get(uint32_t ip_index, axl_mmio_sim_stats *out);

/* Through axl_mmio_sim_model: run_status gives the status the C model
 * returned for the unit's last run and its message (so a model's argument
 * checks fail the command as on the emulated device), and note_alloc and
 * note_free let each buffer argument reach the model with its own size (a
 * model's bounds check then fails the command, as CI wants; on a board an
 * overrun reads what lies beyond). */

#endif /* AXL_MMIO_SIM_H */
