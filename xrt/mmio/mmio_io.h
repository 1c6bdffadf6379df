/*
 * mmio_io.h - the port's one seam to hardware: 32-bit reads and writes of
 * a unit's control space. (Bank memory is reached through the host view the
 * board's mapping gives; the IP reaches the same memory by its physical
 * address.)
 *
 * On a board the seam is a volatile load or store, inline: nothing to pay.
 * In a model build (AXL_MMIO_MODEL) it is a call into the model the board
 * names (axl/mmio_model.h), through unit.c, which serialises the calls and
 * keeps the model's clock; regs is then the unit's IP_LAYOUT index + 1.
 */
#ifndef AXL_MMIO_IO_H
#define AXL_MMIO_IO_H

#include <stdint.h>

#if defined(AXL_MMIO_MODEL) && AXL_MMIO_MODEL
/* Calls into the model, serialised (unit.c, its model section). */
uint32_t axl__mmio_model_rd32(uintptr_t regs, uint32_t off);
void axl__mmio_model_wr32(uintptr_t regs, uint32_t off, uint32_t value);
#define mmio_rd32 axl__mmio_model_rd32
#define mmio_wr32 axl__mmio_model_wr32
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
