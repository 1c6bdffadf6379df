/*
 * fw_kit_board.c - the board kit's ZynqMP board (kit/zynqmp.c, what
 * axl_fw_board gives the mmio port on a ZCU102 or a KV260), run under
 * QEMU: nothing of it touches the PL, so the bank regions it computes are
 * the board's own. Its design has the ZynqMP platform's banks as v++
 * writes them: HP0 and HPC0 both the PS DDR at 0 (2 GiB), one PL DDR
 * elsewhere, one bank unused.
 *
 * Checks (issue 36 items 1-2; docs/firmware.md, "What memory the firmware
 * owns"):
 *   - banks that are one memory (HP0, HPC0) get one region: the port's
 *     one allocator for them;
 *   - every region is in the DDR the linker script reserves
 *     (.axl_device), never at physical 0, where the R5 sees its ATCM;
 *   - the port's memory check (axl__mmio_memory, as a device open or a
 *     plan load runs it) accepts the board, and refuses the same design
 *     with a region at physical 0 without a host view
 *     (AXL_MMIO_CPU_RESERVED, 0x40000 on zcu102-r5 and kv260-r5).
 */
#include <string.h>

#include "fw_console.h"
#include "kit.h"
#include "mmio_banks.h"

extern char __axl_device_start[], __axl_device_end[];

static const char hp0[] = "HP0", hpc0[] = "HPC0", plddr[] = "PLDDR",
                  unused[] = "HP1";
static const axl_xclbin_mem mems[4] = {
    {.type = AXL_XCLBIN_MEM_DDR4, .used = 1, .size = 0x80000000u,
     .base_address = 0, .tag = {hp0, 3}},
    {.type = AXL_XCLBIN_MEM_DDR4, .used = 1, .size = 0x80000000u,
     .base_address = 0, .tag = {hpc0, 4}},
    {.type = AXL_XCLBIN_MEM_DDR4, .used = 1, .size = 0x10000000u,
     .base_address = 0x400000000u, .tag = {plddr, 5}},
    {.type = AXL_XCLBIN_MEM_DDR4, .used = 0, .size = 0x80000000u,
     .base_address = 0, .tag = {unused, 3}},
};
static const axl_xclbin_design design = {.mem_count = 4, .mems = mems};
const axl_xclbin_design *const axl__fw_design = &design;

int main(void)
{
    axl_fw_puts("fw: the kit's ZynqMP board (kit/zynqmp.c)\n");
    if (!OK(axl_fw_board(NULL, 0)))
        return 1;
    axl_mmio_bank_region r[3];
    for (uint32_t b = 0; b < 3; b++)
        OK(axl_fw_bank_region(b, &r[b]));
    axl_mmio_bank_region none;
    EXPECT(axl_fw_bank_region(3, &none) == AXL_ERR_INVALID);
    const uintptr_t lo = (uintptr_t)__axl_device_start,
                    hi = (uintptr_t)__axl_device_end;
    axl_fw_printf("fw: .axl_device 0x%lx..0x%lx; HP0 0x%lx +0x%lx, HPC0 "
                  "0x%lx +0x%lx, PLDDR 0x%lx +0x%lx\n",
                  (unsigned long)lo, (unsigned long)hi,
                  (unsigned long)r[0].phys, (unsigned long)r[0].size,
                  (unsigned long)r[1].phys, (unsigned long)r[1].size,
                  (unsigned long)r[2].phys, (unsigned long)r[2].size);
    /* HP0 and HPC0: one region. */
    EXPECT(r[0].phys == r[1].phys && r[0].size == r[1].size);
    /* Each region inside .axl_device, 4 KiB aligned, past the TCMs. */
    for (uint32_t b = 0; b < 3; b++) {
        EXPECT(r[b].size >= 4096u);
        EXPECT(r[b].phys % 4096u == 0);
        EXPECT(r[b].phys >= lo && r[b].phys + r[b].size <= hi);
        EXPECT(r[b].phys >= 0x40000u);
    }
    /* The PS DDR's region and the PL DDR's apart. */
    EXPECT(r[2].phys >= r[0].phys + r[0].size ||
           r[0].phys >= r[2].phys + r[2].size);

    /* The port's check of the board the kit gave: accepted, and HPC0 is
     * HP0's memory for the allocator. */
    static mmio_memory m;
    const axl_mmio_board *b = axl__fw_board;
    if (EXPECT(b != NULL)) {
        OK(axl__mmio_memory("fw_kit_board", b, &design, design.mem_count,
                            axl__mmio_digest_mem, &m));
        int r0 = axl__mmio_region_of(&m, 0), r1 = axl__mmio_region_of(&m, 1);
        EXPECT(r0 >= 0 && r1 >= 0 && m.same[r1] == m.same[r0]);

        /* The same design with HP0 at physical 0 and no host view: the
         * R5's ATCM, refused, the board unchanged. */
        axl_mmio_bank_region at0[3];
        memcpy(at0, b->banks, sizeof at0);
        at0[0].phys = at0[1].phys = 0;
        axl_mmio_board bad = *b;
        bad.banks = at0;
        axl_status st = axl__mmio_memory("fw_kit_board", &bad, &design,
                                         design.mem_count,
                                         axl__mmio_digest_mem, &m);
        axl_fw_printf("fw: HP0 at 0: %s: %s\n", axl_status_name(st),
                      axl_last_message());
        EXPECT(st == AXL_ERR_PLATFORM);
#if AXL_MESSAGES
        EXPECT(strstr(axl_last_message(), "HP0") != NULL);
#endif
    }
    if (fw_failures)
        return 1;
    axl_fw_puts("fw: PASS\n");
    return 0;
}
