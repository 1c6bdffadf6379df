/*
 * kit/zynqmp.c - the board kit on a Zynq UltraScale+ RPU (zcu102-r5,
 * kv260-r5): the board the mmio port is given (axl_fw_board). The memory
 * map is zynqmp_map.c, the interrupt controller zynqmp_irq.c, the clock
 * zynqmp_clock.c; the console, console.c with the board's UART.
 *
 * What this file assumes of the board, and only a board confirms
 * (docs/firmware.md, "On the board"): the PL holds the design the
 * firmware was built with, programmed before the R5 starts (the FSBL from
 * BOOT.BIN, or U-Boot); the kernels' control ports are at the addresses
 * of the design's IP_LAYOUT (the ZCU102 and KV260 platform presets put
 * them in M_AXI_HPM0_FPD at 0xA0000000, 64 KiB apart) unless the wiring
 * given says otherwise; their masters reach PS DDR (every HP, HPC and the
 * LPD port reach the same DDR) at the addresses the R5 uses; the RPU's
 * GIC (a PL390, distributor 0xF9000000, CPU interface 0xF9001000) sees
 * pl_ps_irq0[n] as interrupt 121 + n and pl_ps_irq1[n] as 136 + n.
 */
#include <stddef.h>
#include <stdint.h>

#include "axl/mmio.h"
#include "kit.h"

/* ---- The board ----------------------------------------------------------- */

/* The DDR the linker script reserves for the design's banks (.axl_device,
 * kit/sections.ld). */
extern char __axl_device_start[], __axl_device_end[];

enum { MAX_REGIONS = 8, PAGE = 4096 };

static axl_mmio_bank_region regions[MAX_REGIONS];
static axl_mmio_board board;

/* A bank the port places buffers in (not a stream's). */
static int is_memory(const axl_xclbin_mem *mem)
{
    return mem->used && mem->type != AXL_XCLBIN_MEM_STREAMING &&
           mem->type != AXL_XCLBIN_MEM_STREAMING_CONNECTION;
}

/* The first used bank before m that is the same memory as m (the same
 * base and size in MEM_TOPOLOGY: every ZynqMP PS port, HP0-3, HPC0-1 and
 * LPD, is the PS DDR at 0), or m itself. */
static uint32_t first_of_memory(const axl_xclbin_design *d, uint32_t m)
{
    for (uint32_t k = 0; k < m; k++)
        if (is_memory(&d->mems[k]) &&
            d->mems[k].base_address == d->mems[m].base_address &&
            d->mems[k].size == d->mems[m].size)
            return k;
    return m;
}

axl_status axl_fw_board(const axl_mmio_unit_wiring *units, uint32_t count)
{
    const axl_xclbin_design *d = axl_fw_design();
    if (!d)
        return kit_fail(AXL_ERR_PLATFORM,
                        "axl_fw_board: the firmware was built without a "
                        "design (axl_add_firmware(... DESIGN <xclbin>))");
    if (!units && count)
        return kit_fail(AXL_ERR_INVALID,
                        "axl_fw_board: %u units given, and units is NULL",
                        (unsigned)count);
    uint32_t used = 0, memories = 0;
    for (uint32_t m = 0; m < d->mem_count; m++)
        if (is_memory(&d->mems[m])) {
            used++;
            memories += first_of_memory(d, m) == m;
        }
    if (used > MAX_REGIONS)
        return kit_fail(AXL_ERR_OUT_OF_RESOURCES,
                        "axl_fw_board: the design uses %u banks, the kit "
                        "places %u",
                        (unsigned)used, (unsigned)MAX_REGIONS);
    uintptr_t start = ((uintptr_t)__axl_device_start + PAGE - 1u) &
                      ~(uintptr_t)(PAGE - 1u);
    uintptr_t end = (uintptr_t)__axl_device_end;
    uintptr_t slice =
        memories && end > start
            ? ((end - start) / memories) & ~(uintptr_t)(PAGE - 1u)
            : 0;
    if (memories && !slice)
        return kit_fail(AXL_ERR_OUT_OF_RESOURCES,
                        "axl_fw_board: the device memory (.axl_device, %lu "
                        "bytes) has no 4 KiB page for each of the design's "
                        "%u memories (axl_add_firmware's DEVICE_MEMORY)",
                        (unsigned long)(end - (uintptr_t)__axl_device_start),
                        (unsigned)memories);
    /* Banks that are one memory get one region (the port gives them one
     * allocator: two live buffers never overlap whichever bank they are
     * in); other memories get slices of their own, apart. The R5 sees DDR
     * where the kernels do: no host view. */
    uint32_t n = 0, slices = 0;
    for (uint32_t m = 0; m < d->mem_count; m++) {
        if (!is_memory(&d->mems[m]))
            continue;
        uint32_t first = first_of_memory(d, m);
        uintptr_t at = 0;
        if (first == m)
            at = start + slices++ * slice;
        else
            for (uint32_t r = 0; r < n; r++)
                if (regions[r].mem_index == first)
                    at = (uintptr_t)regions[r].phys;
        regions[n++] = (axl_mmio_bank_region){m, at, slice, NULL};
    }
    board = (axl_mmio_board){
        .predigested = d,
        .banks = regions,
        .bank_count = n,
        .units = units,
        .unit_count = count,
        .coherent = 0, /* the R5's caches do not snoop the PS ports */
    };
    axl_status st = axl_mmio_set_board(&board);
    if (st == AXL_SUCCESS)
        axl__fw_board = &board;
    return st;
}
