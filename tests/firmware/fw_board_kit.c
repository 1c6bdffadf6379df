/*
 * fw_board_kit.c - the plan firmware's board as a user's firmware has it:
 * the board kit's (axl/firmware.h: axl_fw_board, the design the firmware
 * was built with, its banks in the device memory the kit's linker script
 * reserves; under QEMU the C-model simulator's board).
 */
#include "axl/firmware.h"
#include "fw_board.h"

axl_status fw_board(void)
{
    return axl_fw_board(NULL, 0);
}

bool fw_units_ran(const char *name, unsigned units)
{
    (void)name; /* the kit's board cannot tell: the outputs say it */
    (void)units;
    return true;
}

bool fw_interrupts_ended(unsigned runs)
{
    axl_mmio_counters c;
    axl_mmio_counters_get(&c);
    return c.irq_done == runs;
}

bool fw_bank_region(uint32_t bank, void **host, uint64_t *phys,
                    uint64_t *size)
{
    axl_mmio_bank_region r;
    if (axl_fw_bank_region(bank, &r) != AXL_SUCCESS)
        return false;
    *host = r.host;
    *phys = r.phys;
    *size = r.size;
    return true;
}

uint64_t fw_buffer_align(void)
{
    return 4096; /* the board gives none: AXL_MMIO_BUFFER_ALIGN's default */
}
