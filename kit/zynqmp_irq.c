/*
 * kit/zynqmp_irq.c - the board kit's interrupts on a Zynq UltraScale+ RPU:
 * its GIC (a PL390, GICv1: distributor 0xF9000000, CPU interface
 * 0xF9001000), where pl_ps_irq0[n] is interrupt 121 + n and pl_ps_irq1[n]
 * is 136 + n. axl_fw_irq_connect() routes a line to a unit; the kit's IRQ
 * entry (startup_armv7r.S) calls axl_fw_irq(), which a firmware with a GIC
 * driver or an RTOS of its own replaces (axl/firmware.h).
 */
#include <stdint.h>

#include "axl/hal.h"
#include "kit.h"

/* ---- Interrupts: the RPU's GIC (PL390, GICv1) ---------------------------- */

#ifndef AXL_FW_IRQS
#define AXL_FW_IRQS 8
#endif
#define GICD(off) (*(volatile uint32_t *)(uintptr_t)(0xF9000000u + (off)))
#define GICD8(off) (*(volatile uint8_t *)(uintptr_t)(0xF9000000u + (off)))
#define GICC(off) (*(volatile uint32_t *)(uintptr_t)(0xF9001000u + (off)))
#define GICD_CTLR 0x000u
#define GICD_ISENABLER(id) (0x100u + 4u * ((id) / 32u))
#define GICD_IPRIORITYR(id) (0x400u + (id))
#define GICD_ITARGETSR(id) (0x800u + (id))
#define GICD_ICFGR(id) (0xC00u + 4u * ((id) / 16u))
#define GICC_CTLR 0x000u
#define GICC_PMR 0x004u
#define GICC_IAR 0x00Cu
#define GICC_EOIR 0x010u

typedef struct route {
    uint32_t irq_id;
    uint32_t ip_index;
} route;

static route routes[AXL_FW_IRQS];
static uint32_t nroutes;
static volatile uint32_t unrouted; /* interrupts no route claimed */

axl_status axl_fw_irq_connect(uint32_t irq_id, uint32_t ip_index)
{
    if (irq_id < 32u || irq_id > 191u)
        return kit_fail(AXL_ERR_INVALID,
                        "axl_fw_irq_connect: interrupt %u is not one of the "
                        "RPU GIC's shared peripheral interrupts (32..191; "
                        "pl_ps_irq0[n] is 121 + n)",
                        (unsigned)irq_id);
    uint32_t i = 0;
    while (i < nroutes && routes[i].irq_id != irq_id)
        i++;
    if (i == AXL_FW_IRQS)
        return kit_fail(AXL_ERR_OUT_OF_RESOURCES,
                        "axl_fw_irq_connect: %u interrupts routed already "
                        "(AXL_FW_IRQS)",
                        (unsigned)AXL_FW_IRQS);
    axl_port_lock();
    routes[i] = (route){irq_id, ip_index};
    if (i == nroutes)
        nroutes++;
    uint32_t mpidr;
    __asm__ __volatile__("mrc p15, 0, %0, c0, c0, 5" : "=r"(mpidr));
    GICD8(GICD_IPRIORITYR(irq_id)) = 0xA0u;
    GICD8(GICD_ITARGETSR(irq_id)) = (uint8_t)(1u << (mpidr & 1u));
    /* Level-sensitive: an HLS kernel's interrupt stays high until its
     * ISR is cleared. */
    GICD(GICD_ICFGR(irq_id)) &= ~(2u << (2u * (irq_id % 16u)));
    GICD(GICD_ISENABLER(irq_id)) = 1u << (irq_id % 32u);
    GICD(GICD_CTLR) = 1u;
    GICC(GICC_PMR) = 0xF0u;
    GICC(GICC_CTLR) = 1u;
    axl_port_unlock();
    /* IRQs on for good: the OS port's lock masks them around its work. */
    __asm__ __volatile__("cpsie i" ::: "memory");
    return AXL_SUCCESS;
}

__attribute__((weak)) void axl_fw_irq(void)
{
    uint32_t iar = GICC(GICC_IAR);
    uint32_t id = iar & 0x3FFu;
    if (id >= 1020u) /* spurious: nothing to end */
        return;
    uint32_t i = 0;
    while (i < nroutes && routes[i].irq_id != id)
        i++;
    if (i < nroutes) {
        axl_board_isr_enter();
        axl_mmio_isr(routes[i].ip_index);
        axl_board_isr_exit();
    } else {
        unrouted++;
    }
    GICC(GICC_EOIR) = iar;
}
