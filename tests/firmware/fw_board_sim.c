/*
 * fw_board_sim.c - the kernel firmware's board under QEMU: the mmio port's
 * register-level simulator (xrt/mmio/sim.c) is the fabric, programmed with
 * the stock design linked into the firmware. Without threads, a unit's C
 * model runs when the port's poll (progress, from a wait) reads its
 * control word.
 */
#include <string.h>

#include "axl/emu.h"
#include "axl/mmio.h"
#include "axl_fw_stock_xclbin.h"
#include "fw_board.h"
#include "mmio_sim.h"

axl_status fw_board(void)
{
    /* The simulator's board carries the emulated device's design. */
    axl_status st = axl_emu_set_builtin_image(axl_fw_stock_xclbin,
                                              axl_fw_stock_xclbin_size);
    if (st == AXL_SUCCESS)
        st = axl_mmio_set_board(axl_mmio_sim_board());
    return st;
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
