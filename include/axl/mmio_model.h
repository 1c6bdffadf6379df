/*
 * axl/mmio_model.h - what stands behind the mmio port's seam in a build
 * without hardware: a model of the fabric's compute units, handed to the
 * port as data (axl_mmio_board.model).
 *
 * For people who write a model or a test board, not for applications. On
 * a board the seam is a volatile load or store, inline (xrt/mmio/mmio_io.h)
 * and this header plays no part. In a model build (AXL_MMIO_MODEL: a
 * library made by axl_mmio_model_library() in CMake) every access the port
 * makes to a unit's control space goes through the model the board names,
 * and nothing in the port knows which model it is.
 *
 * Two models exist: the C-model register simulator (axl_mmio_sim_model,
 * xrt/mmio/sim.c: a register file per unit that runs the kernel's C model
 * when started) and the kernel's own RTL under Verilator (xrt/mmio/rtl: an
 * AXI4-Lite master on the control port, an AXI4 memory model per m_axi
 * bundle on the banks).
 *
 * Units are named by their IP_LAYOUT index in the design, as everywhere in
 * the mmio port. Offsets are bytes in the unit's control space (0x00
 * control, 0x04 GIE, 0x08 IER, 0x0C ISR, 0x10+ arguments, as the kernel XML
 * gives them).
 *
 * Time. A model either has a clock of its own (now_ns not NULL: the RTL
 * model and the C-model simulator, whose time moves only inside advance()
 * and inside the register accesses, which take bus time) or runs in real
 * time (now_ns NULL: a model of an application's that has none). When the
 * device's model has a clock, it is the device's clock: the runtime's kernel timeouts,
 * profiling timestamps and trace times for that device count the model's
 * nanoseconds, so a timeout is the same number of cycles on any machine,
 * and the runtime's waits drive the model through advance() instead of
 * sleeping (docs/design.md, "Simulated time").
 *
 * Interrupts. When a unit's interrupt line rises, the model calls the isr
 * it was given at attach, from its own thread or from inside any call the
 * port made. isr returns at once and never calls the model back: from
 * inside a call, the port runs its interrupt entry (axl_mmio_isr, which
 * reads the ISR and writes it back) when that call has returned.
 *
 * Threading: the port serialises its calls to a model (one at a time, and
 * never one inside another), so a model needs a lock only against threads
 * of its own (the C model's units). detach is the exception: it may wait
 * for such a thread that is inside isr, whose interrupt entry reads the
 * unit through rd32, so the port does not hold its lock around it (no
 * other call is made then but from the model's own threads). No call is
 * made with the runtime lock (axl_port_lock) held except can_run.
 */
#ifndef AXL_MMIO_MODEL_H
#define AXL_MMIO_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "axl/mmio.h"
#include "axl/status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct axl_xclbin;

/** advance(): no deadline. */
#define AXL_MMIO_MODEL_FOREVER UINT64_MAX
/** advance(): any unit. */
#define AXL_MMIO_MODEL_ANY_UNIT UINT32_MAX

/** Why advance() returned. */
enum axl_mmio_model_event {
    AXL_MMIO_MODEL_DEADLINE = 0, /**< time reached until_ns (or the model
                                      runs in real time and had no work) */
    AXL_MMIO_MODEL_DONE = 1,     /**< a unit raised ap_done */
    AXL_MMIO_MODEL_IRQ = 2,      /**< a unit's interrupt line rose (its
                                      isr has been called) */
    AXL_MMIO_MODEL_ERROR = 3,    /**< the model stopped: a protocol error,
                                      $finish, a failed C model; the port
                                      ends every running unit's run with
                                      that unit's run_status */
    AXL_MMIO_MODEL_RUN_FAILED = 4 /**< some units' runs failed and the model
                                      goes on (the RTL's deadlock of a
                                      stream pipeline): the port ends the
                                      runs whose run_status says so */
};

typedef struct axl_mmio_model {
    /** What the model is: "C-model simulator", "RTL simulation
     *  (Verilator)". It is the device's name, which the runtime's messages
     *  quote with kernel_fix in AXL_MESSAGE_MAX bytes: keep both short. */
    const char *name;
    /** What an application does so that a kernel the model cannot run
     *  can run, a short phrase the runtime's messages quote: "register a
     *  C model with axl_emu_register_model()", "add its RTL with
     *  axl_add_rtl_kernel() in CMake". */
    const char *kernel_fix;
    void *user;

    /** Powers the fabric up with a design: its units (IP_LAYOUT), and the
     *  banks' memory (physical base, size and the host storage behind
     *  it, never NULL) that the units' masters reach. isr is what the
     *  model calls when a unit's interrupt line rises. Called when the
     *  port opens its device and after the board reprograms it. design
     *  is valid during the call (copy what you keep); banks until detach.
     *  A failure sets its message with axl_fail() and the device does not
     *  open. */
    axl_status (*attach)(void *user, const struct axl_xclbin *design,
                         const struct axl_mmio_bank_region *banks,
                         uint32_t bank_count, void (*isr)(uint32_t ip_index));
    /** Powers it down (stops every unit; a later attach starts afresh). */
    void (*detach)(void *user);

    /** 32-bit reads and writes of a unit's control space: one AXI4-Lite
     *  transaction each (a model with a clock advances by its cycles). */
    uint32_t (*rd32)(void *user, uint32_t ip_index, uint32_t offset);
    void (*wr32)(void *user, uint32_t ip_index, uint32_t offset,
                 uint32_t value);

    /** Gives the model time: runs until unit ip_index (or any unit, with
     *  AXL_MMIO_MODEL_ANY_UNIT) raises ap_done or its interrupt line, or
     *  until the model's clock reaches until_ns (AXL_MMIO_MODEL_FOREVER:
     *  no deadline; a model in real time returns once it has run what is
     *  pending). A model whose units compute on threads of their own may
     *  return DEADLINE before until_ns, its clock short of it, while a
     *  computation whose done is due by then has not finished (the C-model
     *  simulator's clock never passes such a done); the port calls again.
     *  Returns at once, DONE or IRQ, when such a unit raised one
     *  since the port last read its 0x00 or 0x0C (so a done that rose
     *  during a register access is not slept through). The port calls it
     *  while a unit it started has not ended, with until_ns at most a
     *  slice (AXL_MMIO_MODEL_SLICE_NS, mmio_config.h) ahead. Returns an
     *  axl_mmio_model_event. */
    int (*advance)(void *user, uint32_t ip_index, uint64_t until_ns);

    /** The model's clock in nanoseconds since attach, or NULL when the
     *  model runs in real time (the device then keeps the runtime's
     *  clock). The port reads it after each of its calls and adds an
     *  origin of its own (where the runtime's clock stood when the device
     *  first opened, and what earlier attaches counted), so the device's
     *  clock never goes back; its differences are the model's. */
    uint64_t (*now_ns)(void *user);

    /** The unit's interrupt line (1 high), read without side effects.
     *  Optional; for checks and tests (the port does not call it). */
    int (*irq_line)(void *user, uint32_t ip_index);

    /** Drives the unit's reset line (ap_rst_n low for the cycles the
     *  kernel needs, then high): what a board's PL reset or GPIO does. The
     *  board's reset_unit hook reaches it (axl_mmio_model_reset_unit).
     *  Optional: NULL means the fabric has no reset line for units. */
    axl_status (*reset)(void *user, uint32_t ip_index);

    /** Whether the model can run kernel_index of image (the C model: a C
     *  model is registered; RTL: the kernel's RTL was built in). Called
     *  with axl_port_lock held, possibly while another call is inside
     *  the model: answer from memory that does not change while attached.
     *  Optional: NULL runs every kernel the port can drive. */
    bool (*can_run)(void *user, const struct axl_xclbin *image,
                    uint32_t kernel_index);

    /** Test side channels no IP has (both optional). run_status: the
     *  status and message of the unit's last run as the model saw it (a C
     *  model's argument check, the RTL's protocol errors: a burst across
     *  4 KiB, WLAST misplaced, an address outside every bank), so that
     *  they fail the command; AXL_SUCCESS when there is nothing to say.
     *  note_alloc/note_free: the port's allocations, so a model can bound
     *  each buffer as the emulated device does. */
    axl_status (*run_status)(void *user, uint32_t ip_index, char *why,
                             size_t why_size);
    void (*note_alloc)(void *user, uint64_t phys, uint64_t size);
    void (*note_free)(void *user, uint64_t phys);

    /** Whether the host has work for a stream pipeline's units that it
     *  has not given the port yet (a command the runtime holds, or a
     *  graph's replay between its pipeline's start and stop:
     *  axl_hal_pipeline.queued). While pending is nonzero a model that
     *  looks for deadlocks does not call one: the wait it sees is the
     *  host's, however many cycles pass (another thread may give the
     *  model time meanwhile); once it falls, the model counts its window
     *  from there. The port calls it before advance() when the answer
     *  changed. Optional. */
    void (*work_to_come)(void *user, int pending);

    /** A DFX shell's slot (issue 40, docs/designs-design.md 3.7), both
     *  optional: a model without them has the whole fabric only, and a
     *  board's shell then loads no partial. attach_region powers slot
     *  region `region` (1..: the shell's slots + 1) up with a partial
     *  design, its units numbered first_unit + IP_LAYOUT index beside the
     *  units already attached (whose runs go on), on the banks of attach;
     *  serialised like the other calls. detach_region powers that slot's
     *  units down; like detach it is not serialised (it may wait for a
     *  unit's thread inside isr). */
    axl_status (*attach_region)(void *user, uint32_t region,
                                const struct axl_xclbin *design,
                                uint32_t first_unit);
    void (*detach_region)(void *user, uint32_t region);
} axl_mmio_model;

/** The C-model register simulator (xrt/mmio/sim.c), in every model build;
 *  its test controls are in xrt/mmio/mmio_sim.h. */
extern const axl_mmio_model axl_mmio_sim_model;

/**
 * Board hooks for a model build: axl_mmio_model_reset_unit drives the
 * unit's reset line through the model (AXL_ERR_FEATURE_NOT_SUPPORTED
 * when it has none), axl_mmio_model_program accepts any design (the port
 * then attaches the model to it, which refuses what it cannot run).
 */
axl_status axl_mmio_model_reset_unit(void *user, uint32_t ip_index);
axl_status axl_mmio_model_program(void *user, const struct axl_xclbin *image);
/** A model board's program_slot (axl_mmio_board.program_slot): accepts
 *  any partial (the port then attaches the model's slot to it). */
axl_status axl_mmio_model_program_slot(void *user, uint32_t slot,
                                       const struct axl_xclbin *image);

/**
 * Fills *board for a model: the design (an xclbin's bytes), the banks
 * (each backed by host memory), no unit wired or built with ap_sw_reset
 * (set board->units after the call to say otherwise), the two hooks
 * above, and the model. It keeps its design while a bundle of it is held
 * (fixed_design 1): clear fixed_design for a model whose attach keeps
 * the banks' bytes, so the device reprograms on demand (issue 40; the
 * C-model simulator's own board does, axl_mmio_sim_board). Everything it points to must outlive the runtime;
 * hand it over with axl_mmio_set_board().
 */
void axl_mmio_model_board(axl_mmio_board *board, const axl_mmio_model *model,
                          const void *design, size_t design_size,
                          const axl_mmio_bank_region *banks,
                          uint32_t bank_count);

#ifdef __cplusplus
}
#endif

#endif /* AXL_MMIO_MODEL_H */
