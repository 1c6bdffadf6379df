/* fw_board.h - what the kernel firmware asks of its board file. */
#ifndef FW_BOARD_H
#define FW_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "axl/status.h"

/** Gives the mmio port its board (axl_mmio_set_board), before axl_init. */
axl_status fw_board(void);

/** Whether `units` compute units of kernel `name` each ran (the simulator
 *  can tell; a real board answers true). */
bool fw_units_ran(const char *name, unsigned units);

/** Whether exactly `runs` runs were ended by axl_mmio_isr, and no
 *  interrupt was spurious. */
bool fw_interrupts_ended(unsigned runs);

/** The region the board gives the mmio port for MEM_TOPOLOGY bank `bank`
 *  (its CPU view, device address and size): the plan firmware places
 *  buffers of its own in it, beside a plan's. */
bool fw_bank_region(uint32_t bank, void **host, uint64_t *phys,
                    uint64_t *size);

/** The alignment the board's port gives every buffer it places
 *  (axl_mmio_board.align, or the build's AXL_MMIO_BUFFER_ALIGN). */
uint64_t fw_buffer_align(void);

#endif
