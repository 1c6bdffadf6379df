/*
 * mmio_regs.h - the Vitis HLS s_axilite control register map as the RTL
 * Vitis HLS generates implements it (docs/hls-control.md has the table; UG1399,
 * "S_AXILITE Control Register Map", simplifies it). Shared by the port and
 * the simulator.
 */
#ifndef AXL_MMIO_REGS_H
#define AXL_MMIO_REGS_H

#define MMIO_CTRL 0x00u  /* control word */
#define MMIO_GIE 0x04u   /* global interrupt enable, bit 0 */
#define MMIO_IER 0x08u   /* IP interrupt enable: 0 done, 1 ready */
#define MMIO_ISR 0x0Cu   /* IP interrupt status: 0 done, 1 ready */
#define MMIO_ARGS 0x10u  /* first argument register */

#define MMIO_AP_START (1u << 0)
#define MMIO_AP_DONE (1u << 1)
#define MMIO_AP_IDLE (1u << 2)
#define MMIO_AP_READY (1u << 3)
#define MMIO_AP_CONTINUE (1u << 4)
#define MMIO_AUTO_RESTART (1u << 7)
#define MMIO_AP_SW_RESET (1u << 8)
#define MMIO_INTERRUPT (1u << 9)

#define MMIO_IRQ_DONE (1u << 0)
#define MMIO_IRQ_READY (1u << 1)

/* What a read of a missing IP returns on an AXI interconnect that answers
 * with all ones (the simulator's "missing IP" fault). */
#define MMIO_ALL_ONES 0xFFFFFFFFu

#endif /* AXL_MMIO_REGS_H */
