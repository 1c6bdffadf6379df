/*
 * kit/mpu_armv7r.c - the MPU and the caches of an ARMv7-R core (PMSAv7:
 * the Cortex-R5F), set by the start-up code before main() from the
 * board's memory map (kit.h: axl__fw_regions, in the board's kit file).
 *
 * Each region is a power-of-two size at a base aligned to it; where
 * regions overlap, the higher-numbered one wins, so the table lists the
 * large windows first and the exceptions after them. Regions the table
 * does not use are disabled. The caches are invalidated by the start-up
 * code before this runs; the MPU goes on first, then both caches, so no
 * line is ever filled with attributes other than the map's.
 */
#include <stdint.h>

#include "kit.h"

#if defined(__ARM_ARCH_7R__)
#define CP15_WRITE(op1, crn, crm, op2, v)                                      \
    __asm__ __volatile__("mcr p15, " #op1 ", %0, " #crn ", " #crm ", " #op2   \
                         ::"r"(v)                                              \
                         : "memory")
#define CP15_READ(op1, crn, crm, op2, v)                                       \
    __asm__ __volatile__("mrc p15, " #op1 ", %0, " #crn ", " #crm ", " #op2   \
                         : "=r"(v))
#define BARRIER() __asm__ __volatile__("dsb\n\tisb" ::: "memory")

void axl__fw_memory_map(void)
{
    uint32_t mpuir, sctlr;
    CP15_READ(0, c0, c0, 4, mpuir);
    uint32_t slots = (mpuir >> 8) & 0xFFu; /* DRegion: 12 or 16 on the R5 */
    uint32_t n = axl__fw_region_count < slots ? axl__fw_region_count : slots;
    for (uint32_t i = 0; i < slots; i++) {
        CP15_WRITE(0, c6, c2, 0, i); /* RGNR */
        if (i < n) {
            const axl__fw_region *r = &axl__fw_regions[i];
            CP15_WRITE(0, c6, c1, 0, r->base);        /* DRBAR */
            CP15_WRITE(0, c6, c1, 4, r->access);      /* DRACR */
            CP15_WRITE(0, c6, c1, 2,                   /* DRSR: enabled */
                       ((r->size_log2 - 1u) << 1) | 1u);
        } else {
            CP15_WRITE(0, c6, c1, 2, 0u);
        }
    }
    BARRIER();
    CP15_READ(0, c1, c0, 0, sctlr);
    sctlr |= 1u;                        /* M: the MPU */
    CP15_WRITE(0, c1, c0, 0, sctlr);
    BARRIER();
    sctlr |= (1u << 2) | (1u << 12);    /* C and I: the caches */
    CP15_WRITE(0, c1, c0, 0, sctlr);
    BARRIER();
}
#else
/* A host build of the kit (its tests): no MPU. */
void axl__fw_memory_map(void)
{
}
#endif
