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
 * model (xrt/emu). On a host with threads each unit runs on its own
 * thread, so units overlap in time as on hardware; without threads (bare
 * metal) a unit's model runs when the port next reads its control word or
 * gives the simulator time (advance), i.e. the simulator is stepped by the
 * port.
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
    AXL_MMIO_SIM_IRQ_WIRED = 1u << 7    /**< the sim board wires its interrupt */
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
     *  memory it was given: with threads every 20 us, without each time
     *  the port reads its control word. */
    AXL_MMIO_SIM_KEEPS_WRITING = 5,
    /** Runs as OK, and its interrupt line rises at the IP (GIE, IER, ISR
     *  and 0x00 bit 9 as they should be) but never reaches the handler:
     *  an interrupt controller whose master enable is off, a line the
     *  board did not route. */
    AXL_MMIO_SIM_IRQ_LOST = 6
};

/** Sets how unit ip_index behaves from its next attach (and at once when
 *  attached). Settings outlive detach; axl_mmio_sim_defaults() clears
 *  them all. */
void axl_mmio_sim_set_unit(uint32_t ip_index, uint32_t variant, uint32_t fault,
                           uint32_t n);
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

/** Puts fn in place of the isr the model was attached with (the port's
 *  interrupt entry), until axl_mmio_sim_defaults(); fn is called at once,
 *  from the thread where the line rose. */
void axl_mmio_sim_set_irq_handler(void (*fn)(uint32_t ip_index));

/** Calls the isr the model was attached with (the port's interrupt entry,
 *  as the model hands it over): what a handler set above calls once it
 *  has done what a board's handler does first, as a board's handler
 *  calls axl_mmio_isr(). */
void axl_mmio_sim_port_isr(uint32_t ip_index);

/** Blocks until unit ip_index is not computing (its model has returned or
 *  it never started): protocol tests use it to make the timeline exact. */
void axl_mmio_sim_settle(uint32_t ip_index);

typedef struct axl_mmio_sim_stats {
    uint32_t runs;       /**< models run */
    uint32_t irqs;       /**< rising edges of the interrupt line */
    uint64_t t_start;    /**< last run, axl_port_now_ns() */
    uint64_t t_end;
    uint32_t writes;     /**< writes of a KEEPS_WRITING unit */
} axl_mmio_sim_stats;
void axl_mmio_sim_stats_get(uint32_t ip_index, axl_mmio_sim_stats *out);

/* Through axl_mmio_sim_model: run_status gives the status the C model
 * returned for the unit's last run and its message (so a model's argument
 * checks fail the command as on the emulated device), and note_alloc and
 * note_free let each buffer argument reach the model with its own size (a
 * model's bounds check then fails the command, as CI wants; on a board an
 * overrun reads what lies beyond). */

#endif /* AXL_MMIO_SIM_H */
