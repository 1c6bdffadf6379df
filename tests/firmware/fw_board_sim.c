/*
 * fw_board_sim.c - the kernel firmware's board under QEMU: the mmio port's
 * register-level simulator (xrt/mmio/sim.c) is the fabric, programmed with
 * the stock design linked into the firmware. Without threads, a unit's C
 * model runs when the simulator's clock (simulated time, which the port's
 * register accesses and waits move) reaches the unit's done.
 */
#include <string.h>

#include "axl/emu.h"
#include "axl/mmio.h"
#include "fw_board.h"
#if AXL_FW_PREDIGESTED
#include "axl/xclbin.h" /* the design pre-digested (boards/designs/stock.c) */
extern const axl_xclbin_design axl_design_stock;
#else
#include "axl_fw_stock_xclbin.h"
#endif
#include "mmio_sim.h"

/* The board fw_board() gave the port. */
static const axl_mmio_board *board;

axl_status fw_board(void)
{
    /* The simulator's board carries the emulated device's design. */
#if AXL_FW_PREDIGESTED
    axl_status st = axl_emu_set_builtin_design(&axl_design_stock);
#else
    axl_status st = axl_emu_set_builtin_image(axl_fw_stock_xclbin,
                                              axl_fw_stock_xclbin_size);
#endif
    /* Units in several of the generated RTL's variants: vadd's two with
     * their interrupt wired (toggle-on-write and clear-on-read ISR), fir
     * with the 2022.1 control word (clear-on-read ap_ready, pulse
     * ap_start), conv2d made ap_ctrl_hs and late by 20 polls. */
    axl_mmio_sim_set_unit(0, AXL_MMIO_SIM_IRQ_WIRED, AXL_MMIO_SIM_OK, 0);
    axl_mmio_sim_set_unit(1, AXL_MMIO_SIM_IRQ_WIRED | AXL_MMIO_SIM_ISR_COR,
                          AXL_MMIO_SIM_OK, 0);
    axl_mmio_sim_set_unit(3, AXL_MMIO_SIM_READY_COR | AXL_MMIO_SIM_START_PULSE,
                          AXL_MMIO_SIM_OK, 0);
    axl_mmio_sim_set_unit(4, AXL_MMIO_SIM_HS, AXL_MMIO_SIM_DONE_AFTER_POLLS,
                          20);
    if (st == AXL_SUCCESS) {
        board = axl_mmio_sim_board();
        st = axl_mmio_set_board(board);
    }
    return st;
}

bool fw_interrupts_ended(unsigned runs)
{
    axl_mmio_counters c;
    axl_mmio_counters_get(&c);
    return c.irq_done == runs && c.irq_spurious == 0;
}

bool fw_units_ran(const char *name, unsigned units)
{
    /* The stock design's IP_LAYOUT: vadd_1 and vadd_2 at 0 and 1. */
    unsigned ran = 0;
    for (uint32_t ip = 0; ip < 8; ip++) {
        axl_mmio_sim_stats s;
        axl_mmio_sim_stats_get(ip, &s);
        if (s.runs && !strcmp(name, "vadd") && ip < 2)
            ran++;
    }
    return ran == units;
}

bool fw_bank_region(uint32_t bank, void **host, uint64_t *phys,
                    uint64_t *size)
{
    const axl_mmio_board *b = board;
    for (uint32_t i = 0; b && i < b->bank_count; i++) {
        const axl_mmio_bank_region *r = &b->banks[i];
        if (r->mem_index != bank)
            continue;
        *host = r->host ? r->host : (void *)(uintptr_t)r->phys;
        *phys = r->phys;
        *size = r->size;
        return true;
    }
    return false;
}

uint64_t fw_buffer_align(void)
{
    return FW_BUFFER_ALIGN; /* axl_mmio_fw's AXL_MMIO_BUFFER_ALIGN */
}
