/*
 * kit/board_common.c - what every board of the kit answers alike: the
 * design the firmware was built with, and where the board put its banks.
 */
#include <stddef.h>

#include "kit.h"

const axl_mmio_board *axl__fw_board;

const struct axl_xclbin_design *axl_fw_design(void)
{
    return &axl__fw_design ? axl__fw_design : NULL;
}

axl_status axl_fw_bank_region(uint32_t bank, axl_mmio_bank_region *out)
{
    const axl_mmio_board *b = axl__fw_board;
    if (!out)
        return kit_fail(AXL_ERR_INVALID, "axl_fw_bank_region: out is NULL");
    for (uint32_t i = 0; b && i < b->bank_count; i++) {
        if (b->banks[i].mem_index != bank)
            continue;
        *out = b->banks[i];
        if (!out->host)
            out->host = (void *)(uintptr_t)out->phys;
        return AXL_SUCCESS;
    }
    return kit_fail(AXL_ERR_INVALID,
                    "axl_fw_bank_region: %s bank %u",
                    b ? "the board gives no region for" :
                        "no board yet (axl_fw_board) for",
                    (unsigned)bank);
}
