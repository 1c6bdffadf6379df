/*
 * axl/mmio.h - the mmio device port: HLS kernels driven through their
 * AXI4-Lite control registers, for firmware without XRT (the Cortex-R5 of
 * a Zynq UltraScale+, an A53 without an OS, or Linux with UIO and a
 * contiguous DMA buffer device instead of zocl).
 *
 * For board code, not applications: an application uses the same API and
 * kernel ids as on every other device. What the port reads from the design
 * (the xclbin the board names): compute units and their control protocol
 * and base address from IP_LAYOUT, banks from MEM_TOPOLOGY, argument
 * register offsets and sizes from the kernel XML. What the board adds
 * (all optional): where each bank really is and how the CPU sees it, a
 * remapped base address per unit, which units' interrupts are wired, which
 * units were built with ap_sw_reset, how control space is mapped, and hooks
 * to reset a unit or reprogram the fabric.
 */
#ifndef AXL_MMIO_H
#define AXL_MMIO_H

#include <stddef.h>
#include <stdint.h>

#include "axl/status.h"
#include "axl/types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct axl_xclbin;
struct axl_mmio_model;
struct axl_shell;

/** Where a bank is: its physical base (what the IP is given), its size,
 *  and where the CPU reads and writes it (NULL: at the physical address).
 *  Checked when the port opens and when the first plan loads: two
 *  regions are either the same memory (the same phys and size, and the
 *  same host view: every ZynqMP PS port, HP0-3, HPC0-1, LPD, reaches the
 *  same DDR) and share one allocator, so two live buffers never overlap
 *  whichever of them they are in, or apart (physically and in the CPU's
 *  view); an overlap of another kind, a region of 0 bytes, a NULL host
 *  where a model needs the bytes or where the CPU does not reach memory
 *  at the physical address (axl_mmio_board.cpu_reserved) is refused, the
 *  message naming the bank and the fix. */
typedef struct axl_mmio_bank_region {
    uint32_t mem_index;  /**< MEM_TOPOLOGY index in the design */
    uint64_t phys;       /**< device (physical) address of the region */
    uint64_t size;       /**< bytes the port may allocate in it */
    void *host;          /**< the CPU's view, or NULL for phys itself */
} axl_mmio_bank_region;

/** Board facts about one compute unit (by IP_LAYOUT index). */
typedef struct axl_mmio_unit_wiring {
    uint32_t ip_index;
    uint64_t base;       /**< control base; 0: IP_LAYOUT's */
    uint8_t irq;         /**< 1: its interrupt reaches axl_mmio_isr */
    uint8_t sw_reset;    /**< 1: built with ap_sw_reset (bit 8 of 0x00) */
} axl_mmio_unit_wiring;

/** How the port sees that a unit's run ended (axl_mmio_board.completion,
 *  axl_mmio_set_completion). A unit whose interrupt the board does not
 *  wire (axl_mmio_unit_wiring.irq 0) is always polled. */
typedef enum axl_mmio_completion {
    /** The board's choice (axl_mmio_board.completion); for the board
     *  itself: AXL_MMIO_COMPLETION (axl_board.h), else interrupt. */
    AXL_MMIO_COMPLETION_BOARD = 0,
    /** The unit's interrupt ends the run (axl_mmio_isr); the waiter does
     *  not read the unit, but for a look every AXL_MMIO_IRQ_GRACE_NS that
     *  catches an interrupt that does not arrive. */
    AXL_MMIO_COMPLETION_INTERRUPT = 1,
    /** The waiter reads ap_done; the unit's interrupt is switched off. */
    AXL_MMIO_COMPLETION_POLL = 2,
    /** The waiter reads ap_done for AXL_MMIO_POLL_SPIN_NS after ap_start
     *  with the unit's interrupt off, then switches it on and leaves the
     *  end to it: a short run costs no interrupt, a long one no bus
     *  traffic. */
    AXL_MMIO_COMPLETION_POLL_THEN_SLEEP = 3
} axl_mmio_completion;

/** What the board tells the port. Every pointer may be NULL. */
typedef struct axl_mmio_board {
    const void *design;          /**< the xclbin programmed at boot */
    size_t design_size;
    const axl_mmio_bank_region *banks; /**< NULL: used MEM_TOPOLOGY banks,
                                            host view = physical */
    uint32_t bank_count;
    const axl_mmio_unit_wiring *units;
    uint32_t unit_count;
    /** The CPU's address for a unit's control space (Linux: an mmap of the
     *  UIO device). NULL: the physical address itself (bare metal). */
    uintptr_t (*map_ctrl)(void *user, uint64_t phys, uint32_t size);
    /** Brings a hung unit back (a PL reset line, a GPIO); optional. Called
     *  by axl_mmio_reset_unit, never from run_cancel (it may take time). */
    axl_status (*reset_unit)(void *user, uint32_t ip_index);
    /** Programs the fabric with another design (PCAP, fpga_manager);
     *  optional: without it the device is not reprogrammable. It must
     *  leave the banks' memory as it is (buffers keep their bytes across
     *  a reprogramming). */
    axl_status (*program)(void *user, const struct axl_xclbin *image);
    /** Nonzero when the CPU's caches snoop the IP's accesses (an ACP or a
     *  coherent interconnect): the port then does no cache maintenance. */
    int coherent;
    void *user;
    /** The design programmed at boot, pre-digested (axl-xclbin design):
     *  used instead of design/design_size when not NULL, and the only form
     *  a build without the xclbin reader (AXL_FEATURE_XCLBIN_READER 0)
     *  reads. */
    const struct axl_xclbin_design *predigested;
    /** A model build's fabric (axl/mmio_model.h): every control access
     *  goes to it, and map_ctrl is not used. Ignored on a board (the
     *  port's seam is then the bus); a model build refuses a board
     *  without one. */
    const struct axl_mmio_model *model;
    /** How wired units complete (axl_mmio_completion); 0: the build's
     *  AXL_MMIO_COMPLETION, by default interrupt. */
    uint8_t completion;
    /** Nonzero: the fabric is reprogrammed only when no bundle of the
     *  design it carries is held (a bundle of another design is then
     *  refused, as without program). 0, with program: the device
     *  reprograms on demand between commands, so bundles of several
     *  designs live side by side (issue 40, docs/designs-design.md
     *  2.5). */
    uint8_t fixed_design;
    /** The programmed design's UUID (16 bytes, its xclbin's
     *  m_header.uuid), for a firmware that links neither the design's
     *  bytes nor its pre-digested form: what a plan's load checks
     *  (axl/plan.h). Not read when design or predigested is given. */
    const uint8_t *design_uuid;
    /** Alignment of every buffer placed in a bank (by the port and by a
     *  plan's load), in bytes: a power of two of at least 64. 0: the
     *  build's AXL_MMIO_BUFFER_ALIGN, 4096 as XRT aligns its buffers (RTL
     *  kernels rely on it: an AXI4 burst does not cross 4 KiB). */
    uint32_t align;
    /** Bytes from physical address 0 where the CPU does not reach memory
     *  at the physical address (the Cortex-R5's TCMs: 0x40000): a bank
     *  region without a host view (host NULL) below it is refused. 0: the
     *  build's AXL_MMIO_CPU_RESERVED (0x40000 on zcu102-r5, else 0). */
    uint64_t cpu_reserved;
#if !defined(AXL_FEATURE_DESIGN_SWAP) || AXL_FEATURE_DESIGN_SWAP
    /** A DFX shell (axl/shell.h; issue 40, docs/designs-design.md 3.1):
     *  the design above is its static part, and each slot takes a partial
     *  design of the shell beside it. A slot's units are numbered from
     *  its first_unit (axl_mmio_unit_wiring.ip_index, axl_mmio_isr use
     *  those numbers) and lie in its control window. NULL: no slots. */
    const struct axl_shell *shell;
    /** Programs slot `slot` (0-based, the shell's order) with a partial
     *  design (decouple, load the partial bitstream, couple; Linux: FPGA
     *  manager or dfx-mgr), leaving the banks' memory, the static part
     *  and the other slots as they are. Needed with a shell: without it
     *  no partial loads. Called with no run out on the slot. */
    axl_status (*program_slot)(void *user, uint32_t slot,
                               const struct axl_xclbin *image);
    /** Optional: gives slot `slot` back to what programs it (dfx-mgr's
     *  unload; bare metal: decouple it). The port calls it at close, so
     *  at axl_shutdown, for each slot program_slot loaded since the
     *  device opened, so that the loader forgets what axl loaded
     *  (docs/designs-design.md 3.3). A failure is logged at warn level
     *  and the runtime shuts down all the same. */
    axl_status (*unload_slot)(void *user, uint32_t slot);
    /** Optional: called after each successful program_slot, once the
     *  port has wired the partial's units, to re-arm the interrupt
     *  controller for the slot's lines (XRT users report PL interrupts
     *  dead after a partial load until it is refreshed; docs/
     *  designs-design.md 3.4). A failure fails the load, naming the slot
     *  and the board's reason (axl_fail's message), and leaves the slot
     *  empty as a failed program_slot does. NULL: nothing to re-arm. The
     *  port watches each wired unit's first run after the load for a
     *  missing interrupt either way (AXL_MMIO_IRQ_VERIFY_NS). */
    axl_status (*after_load)(void *user, uint32_t slot);
#endif
} axl_mmio_board;

/**
 * Gives the port its board, before the runtime starts (before the first
 * axl call, or after axl_shutdown()). The structure must outlive the
 * runtime. A model build (AXL_MMIO_MODEL, axl/mmio_model.h) has a default
 * board, the one its library names (the C-model simulator's unless
 * axl_mmio_model_library() was given another); NULL restores it.
 */
axl_status axl_mmio_set_board(const axl_mmio_board *board);

/**
 * The interrupt entry: the board's vector table (or its interrupt
 * controller driver) calls it for a unit's interrupt line. It reads the
 * IP's status register and writes the same value back (which clears both
 * toggle-on-write and clear-on-read kinds), gives ap_ctrl_chain units
 * ap_continue first, and reports the run's end. A status without ap_done
 * is counted as spurious and changes nothing else.
 */
void axl_mmio_isr(uint32_t ip_index);

/**
 * The interrupt entry of a shell's slot (axl_mmio_board.shell): the
 * board's vector calls it for interrupt `line` (the board's numbering,
 * as axl_slot.irq_first counts). The port maps each line of a loaded
 * partial to its unit (irq_first + the unit's IP_LAYOUT interrupt id,
 * rebuilt at each load: a slot's lines serve whichever design it holds)
 * and runs axl_mmio_isr on it; a line no unit has is ignored. Only in
 * builds with AXL_FEATURE_DESIGN_SWAP.
 */
void axl_mmio_irq(uint32_t line);

/**
 * Brings a unit that hung (its run timed out and the unit did not stop)
 * back into use: ap_sw_reset where the board says the unit has it, then,
 * if the unit does not read idle after it (a core built without it
 * ignores the bit), the board's reset_unit hook. Once the unit reads idle
 * the run it held is over: its buffers' reserved device memory comes back
 * (axl_stats_get). AXL_ERR_FEATURE_NOT_SUPPORTED when it has neither (the
 * unit stays unusable until the fabric is reset); AXL_ERR_RUNTIME when it
 * does not come back idle, with a message saying what each attempt did.
 * A unit that was running (not hung) is reset too, and its run fails.
 */
axl_status axl_mmio_reset_unit(uint32_t ip_index);

/** What the port counted (for tests and bring-up). */
typedef struct axl_mmio_counters {
    uint32_t starts;            /**< ap_start writes */
    uint32_t polls;             /**< reads of a running unit's 0x00 */
    uint32_t irq_done;          /**< runs ended by the interrupt entry */
    uint32_t irq_spurious;      /**< interrupts without ap_done */
    uint32_t resets;            /**< units brought back */
    uint32_t irq_missing;       /**< units whose run ended without the
                                     interrupt they were wired for (each
                                     then falls back to polling) */
    uint32_t loads;             /**< partials the port loaded into a
                                     shell's slots (program_slot and
                                     after_load succeeded) */
} axl_mmio_counters;
void axl_mmio_counters_get(axl_mmio_counters *out);

/**
 * Sets how unit ip_index (IP_LAYOUT index) completes from its next run,
 * on the open device: one of axl_mmio_completion (BOARD: the board's
 * choice again). It also clears a fall-back to polling (the wiring was
 * fixed). AXL_ERR_INVALID, changing nothing, when no compute unit is
 * there, the mode is unknown, or it asks for an interrupt the board does
 * not wire to the unit; AXL_ERR_RUNTIME while the unit runs. Per unit and
 * not per queue: the units a queue's commands run on are the kernel's,
 * shared by every queue, and the hal's run carries no such choice.
 */
axl_status axl_mmio_set_completion(uint32_t ip_index, uint32_t mode);

/**
 * How unit ip_index completes now (*mode: INTERRUPT, POLL or
 * POLL_THEN_SLEEP, never BOARD), and *fell_back 1 when it was wired for an
 * interrupt that did not arrive and is polled since (the port said so
 * once, at warn level in the log). Either pointer may be NULL.
 * AXL_ERR_INVALID when no compute unit is there or the device is closed.
 */
axl_status axl_mmio_completion_get(uint32_t ip_index, uint32_t *mode,
                                   int *fell_back);

#ifdef __cplusplus
}
#endif

#endif /* AXL_MMIO_H */
