/*
 * mmio_io.h - the port's one seam to hardware: 32-bit reads and writes of
 * a unit's control space. (Bank memory is reached through the host view the
 * board's mapping gives; the IP reaches the same memory by its physical
 * address.)
 *
 * On a board the seam is a volatile load or store, inline: nothing to pay.
 * In a test build (AXL_MMIO_SIM) it is a call into the register-level
 * simulator (sim.c), which any other model of the IP may replace (the IP's
 * RTL under Verilator, with its AXI master on the same bank memory), as
 * long as it answers these two calls.
 */
#ifndef AXL_MMIO_IO_H
#define AXL_MMIO_IO_H

#include <stdint.h>

#if defined(AXL_MMIO_SIM) && AXL_MMIO_SIM
#include "mmio_sim.h"

static inline uint32_t mmio_rd32(uintptr_t regs, uint32_t off)
{
    return axl_mmio_sim_rd32(regs, off);
}

static inline void mmio_wr32(uintptr_t regs, uint32_t off, uint32_t value)
{
    axl_mmio_sim_wr32(regs, off, value);
}
#else
static inline uint32_t mmio_rd32(uintptr_t regs, uint32_t off)
{
    return *(volatile const uint32_t *)(regs + off);
}

static inline void mmio_wr32(uintptr_t regs, uint32_t off, uint32_t value)
{
    *(volatile uint32_t *)(regs + off) = value;
}
#endif

#endif /* AXL_MMIO_IO_H */
