/*
 * kit/zynqmp_clock.c - the clock the bare-metal OS port reads on a Zynq
 * UltraScale+ RPU (axl_board_now_ns, port/baremetal): the R5's own cycle
 * counter. axl_add_firmware links it over the port's weak default.
 */
#include <stdint.h>

#include "kit.h"

/* ---- Time: the R5's cycle counter ---------------------------------------- */

/* The RPU's clock (the PS configuration's; only the board confirms it):
 * the cycle counter counts one every 64 of its cycles (PMCR.D), so it
 * wraps every 2^38 cycles (9 minutes at 500 MHz); each read extends it to
 * 64 bits, which holds as long as something reads the time that often (a
 * wait does). */
#ifndef AXL_FW_CPU_HZ
#define AXL_FW_CPU_HZ 500000000u
#endif

uint64_t axl_board_now_ns(void)
{
    static uint32_t last;
    static uint64_t high;
    static int on;
    unsigned long cpsr;
    __asm__ __volatile__("mrs %0, cpsr\n\tcpsid i" : "=r"(cpsr)::"memory");
    if (!on) {
        uint32_t pmcr;
        __asm__ __volatile__("mrc p15, 0, %0, c9, c12, 0" : "=r"(pmcr));
        pmcr |= 1u | (1u << 2) | (1u << 3); /* E, C (reset), D (/64) */
        __asm__ __volatile__("mcr p15, 0, %0, c9, c12, 0" ::"r"(pmcr));
        __asm__ __volatile__("mcr p15, 0, %0, c9, c12, 1" ::"r"(1u << 31));
        on = 1;
    }
    uint32_t now;
    __asm__ __volatile__("mrc p15, 0, %0, c9, c13, 0" : "=r"(now));
    if (now < last)
        high += (uint64_t)1 << 32;
    last = now;
    uint64_t ticks = high | now;
    __asm__ __volatile__("msr cpsr_c, %0" ::"r"(cpsr) : "memory");
    const uint64_t hz = AXL_FW_CPU_HZ, cycles = ticks * 64u;
    return cycles / hz * 1000000000u + cycles % hz * 1000000000u / hz;
}
