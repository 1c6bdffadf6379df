/*
 * axl/firmware.h - the board kit: what a firmware built with
 * axl_add_firmware() calls beside axl's API (docs/firmware.md).
 *
 * The kit's start-up code has run before main(): exceptions through the
 * table at address 0, a stack for every mode, the VFP on, .data copied
 * where its load address differs, .bss cleared, the caches invalidated
 * and the MPU set for the board's memory map (normal cached memory for
 * DDR and the TCMs, device memory for the PL and the peripherals,
 * uncached OCM), then the caches on. main()'s return value goes to
 * axl_fw_exit(). An unexpected exception prints where it happened and
 * ends the run as a failure.
 *
 * The same calls link in every build of the firmware: on the board (the
 * board's UART, its memory and wiring), under QEMU (semihosting, the
 * C-model simulator as the fabric: axl_add_qemu_test), and on the host
 * (standard output, the C-model simulator or the kernels' RTL: the host
 * package's axl_add_firmware).
 */
#ifndef AXL_FIRMWARE_H
#define AXL_FIRMWARE_H

#include <stdint.h>

#include "axl/mmio.h"
#include "axl/status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct axl_xclbin_design;

/* ---- Console ------------------------------------------------------------- */

/** Writes a NUL-terminated string as it is (a '\n' goes out as "\r\n" on
 *  a UART). No stdio: printf would bring newlib's allocator with it. */
void axl_fw_puts(const char *s);

/** Formats with axl's own bounded formatter (axl_format: %d %i %u %x %X
 *  %s %.*s %c %p %%, the modifiers l, ll and z, a width, the flags 0 and
 *  -) and writes the result; a line longer than 255 characters is cut. */
void axl_fw_printf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/** Ends the run with a status (0: passed). Under QEMU, semihosting's exit
 *  (QEMU exits 0 for 0, 1 otherwise); on the board the UART's last line
 *  says "fw: exit <status>" and the core sleeps; on the host, exit(). */
#if defined(__cplusplus)
[[noreturn]]
#else
_Noreturn
#endif
void axl_fw_exit(int status);

/* ---- The board ----------------------------------------------------------- */

/**
 * The design axl_add_firmware(... DESIGN <xclbin>) linked, pre-digested
 * (axl-xclbin design); NULL when the firmware was built without one.
 */
const struct axl_xclbin_design *axl_fw_design(void);

/**
 * Gives the mmio port the board this firmware was built for (before the
 * runtime starts or the first plan loads):
 * - on the board: the design linked with DESIGN; the banks it uses in the
 *   device memory the kit's linker script reserves in DDR (.axl_device,
 *   DEVICE_MEMORY bytes; nothing else of the firmware is placed there, and
 *   a Linux beside it must keep out of it): banks that are one memory
 *   (the same base and size in MEM_TOPOLOGY, as every ZynqMP PS port is)
 *   get the same region, which the port gives one allocator, and other
 *   memories equal 4 KiB-aligned slices of their own; the units at
 *   IP_LAYOUT's base addresses unless `units` (count entries) says
 *   otherwise (the block design's address editor, wired interrupts,
 *   ap_sw_reset); caches not coherent (the port cleans and invalidates
 *   around each run);
 * - under QEMU and on the host: the model's own board (the C-model
 *   simulator's, or the RTL's with axl_add_firmware(... MODEL)) carrying
 *   the same design; `units` is not read.
 * AXL_ERR_PLATFORM when the firmware has no design; axl_mmio_set_board's
 * statuses.
 */
axl_status axl_fw_board(const axl_mmio_unit_wiring *units, uint32_t count);

/**
 * Where the board given by axl_fw_board() put MEM_TOPOLOGY bank `bank`:
 * its region (the CPU's view in host, never NULL), for a firmware that
 * places buffers of its own there (axl_plan_set_buffer's double
 * buffering). AXL_ERR_INVALID when the board has no region for it (or
 * axl_fw_board() was not called).
 */
axl_status axl_fw_bank_region(uint32_t bank, axl_mmio_bank_region *out);

/**
 * Defined by a firmware whose design has kernels of its own (in the
 * MODEL_SOURCES of axl_add_firmware, compiled into the QEMU and host
 * builds only): registers their C models (axl_emu_register_model, in
 * axl/emu.h) for the C-model simulator. axl_fw_board() calls it first, in
 * those builds; the stock kernels' models need nothing.
 */
axl_status axl_fw_register_models(void);

/* ---- Interrupts ---------------------------------------------------------- */

/**
 * Routes interrupt irq_id of the R5's interrupt controller (the RPU's GIC:
 * a PL-to-PS line pl_ps_irq0[n] is irq_id 121 + n, pl_ps_irq1[n] is
 * 136 + n) to unit ip_index: enables it, level-sensitive, for this core,
 * and unmasks IRQs. The kit's IRQ entry then calls axl_mmio_isr(ip_index)
 * between axl_board_isr_enter() and axl_board_isr_exit(). Give the unit
 * `irq = 1` in axl_fw_board()'s wiring too. Under QEMU and on the host it
 * does nothing and succeeds: the model wires its own interrupts.
 * AXL_ERR_INVALID for an irq_id that is not a shared peripheral interrupt
 * (32..191); AXL_ERR_OUT_OF_RESOURCES past AXL_FW_IRQS routes (8).
 */
axl_status axl_fw_irq_connect(uint32_t irq_id, uint32_t ip_index);

/**
 * What the kit's IRQ exception entry calls, on the IRQ mode's return path
 * with the caller-saved registers (VFP too) saved: the kit's own
 * acknowledges the GIC, runs the routed unit's interrupt entry and ends
 * the interrupt. A firmware with a GIC driver or an RTOS of its own
 * defines axl_fw_irq() instead (the kit's is weak) and calls, for a
 * unit's line:
 *
 *     axl_board_isr_enter(); axl_mmio_isr(ip_index); axl_board_isr_exit();
 */
void axl_fw_irq(void);

/** The bare-metal OS port's (port/baremetal): around a call into axl from
 *  an interrupt handler, so the runtime knows it is in one. */
void axl_board_isr_enter(void);
void axl_board_isr_exit(void);

#ifdef __cplusplus
}
#endif

#endif /* AXL_FIRMWARE_H */
