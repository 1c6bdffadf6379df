/*
 * fw_board_zcu102.c - the kernel firmware's board on a real ZCU102 (the
 * worked example of docs/on-the-metal.md, "Bringing it up on a board"):
 * the stock design programmed into the PL at boot (by the FSBL or U-Boot),
 * driven from R5 #0 of the RPU.
 *
 * The footprint report links the kernel firmware with this file and the
 * port's real seam (volatile loads and stores) to say what a firmware that
 * runs a built-in kernel links, and the plan firmware (fw_plan.c, with
 * AXL_FW_UUID_ONLY: a plan's executor reads nothing of the design but its
 * UUID); nothing runs this build under QEMU (the addresses below are the
 * board's, not QEMU's).
 */
#include "axl/mmio.h"
#include "fw_board.h"
#if AXL_FW_UUID_ONLY
/* The stock design's m_header.uuid (axl-xclbin info stock.xclbin): what
 * the board says it programmed, checked against each plan it loads. */
static const uint8_t stock_uuid[16] = {0x5f, 0x1b, 0x0c, 0x3a, 0x7d, 0x2e,
                                       0x4a, 0x96, 0x8b, 0x41, 0x2c, 0x9e,
                                       0x6d, 0x0a, 0x1f, 0x01};
#elif AXL_FW_PREDIGESTED
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
#if AXL_FW_UUID_ONLY
    .design_uuid = stock_uuid,
#elif AXL_FW_PREDIGESTED
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
#if !AXL_FW_PREDIGESTED && !AXL_FW_UUID_ONLY
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

uint64_t fw_buffer_align(void)
{
    return 4096; /* the board gives none: AXL_MMIO_BUFFER_ALIGN's default */
}
