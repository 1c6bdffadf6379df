/*
 * fw_board_zcu102.c - the kernel firmware's board on a real ZCU102 (the
 * worked example of docs/on-the-metal.md, "Bringing it up on a board"):
 * the stock design programmed into the PL at boot (by the FSBL or U-Boot),
 * driven from R5 #0 of the RPU.
 *
 * The footprint report links the kernel firmware with this file and the
 * port's real seam (volatile loads and stores) to say what a firmware that
 * runs a built-in kernel links; nothing runs this build under QEMU (the
 * addresses below are the board's, not QEMU's).
 */
#include "axl/mmio.h"
#include "fw_board.h"
#if AXL_FW_PREDIGESTED
/* The design pre-digested (boards/designs/stock.c, axl-xclbin design):
 * const data in place of the image's bytes and the xclbin reader. */
#include "axl/xclbin.h"
extern const axl_xclbin_design axl_design_stock;
#else
#include "axl_fw_stock_xclbin.h"
#endif

/* Banks: the design's MEM_TOPOLOGY addresses are a card's; on the ZCU102
 * the kernels' AXI masters reach PS DDR through the S_AXI_HP ports, so the
 * board reserves DDR for them (kept out of the R5's own linker script, and
 * out of Linux's memory with a reserved-memory node if the APU runs it).
 * The R5 sees DDR at the same address: no host view needed. */
static const axl_mmio_bank_region banks[] = {
    {0, 0x70000000u, 1u << 20, NULL}, /* MEM_TOPOLOGY bank0 */
    {1, 0x70100000u, 1u << 20, NULL}, /* MEM_TOPOLOGY bank1 */
};

/* Units: the RPU reaches the PL's AXI4-Lite slaves through M_AXI_HPM0_LPD
 * at 0x80000000; the block design's address editor puts each kernel's
 * s_axi_control there instead of IP_LAYOUT's addresses. pl_ps_irq0[n]
 * reaches the RPU's GIC as SPI 121+n; the board's GIC handler calls
 * axl_mmio_isr(ip_index) for them. No unit was built with ap_sw_reset. */
static const axl_mmio_unit_wiring units[] = {
    {0, 0x80000000u, 1, 0}, /* vadd:vadd_1     pl_ps_irq0[0] */
    {1, 0x80010000u, 1, 0}, /* vadd:vadd_2     pl_ps_irq0[1] */
    {2, 0x80020000u, 1, 0}, /* mmult:mmult_1   pl_ps_irq0[2] */
    {3, 0x80030000u, 1, 0}, /* fir:fir_1       pl_ps_irq0[3] */
    {4, 0x80040000u, 1, 0}, /* conv2d:conv2d_1 pl_ps_irq0[4] */
    {5, 0x80050000u, 1, 0}, /* nop:nop_1       pl_ps_irq0[5] */
};

static const axl_mmio_board zcu102 = {
#if AXL_FW_PREDIGESTED
    .predigested = &axl_design_stock,
#else
    .design = axl_fw_stock_xclbin,
#endif
    .banks = banks,
    .bank_count = 2,
    .units = units,
    .unit_count = 6,
    .coherent = 0, /* the R5's caches do not snoop the HP ports */
};

axl_status fw_board(void)
{
    static axl_mmio_board b;
    b = zcu102;
#if !AXL_FW_PREDIGESTED
    b.design_size = axl_fw_stock_xclbin_size;
#endif
    return axl_mmio_set_board(&b);
}

bool fw_interrupts_ended(unsigned runs)
{
    axl_mmio_counters c;
    axl_mmio_counters_get(&c);
    return c.irq_done == runs;
}

bool fw_units_ran(const char *name, unsigned units)
{
    (void)name;
    (void)units;
    return true;
}

bool fw_bank_region(uint32_t bank, void **host, uint64_t *phys,
                    uint64_t *size)
{
    const axl_mmio_board *b = &zcu102;
    for (uint32_t i = 0; i < b->bank_count; i++) {
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
