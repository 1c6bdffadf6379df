/*
 * kit/irq_none.c - the kit's IRQ handler where nothing interrupts the R5
 * (QEMU's bare machine: the C-model simulator raises its units'
 * interrupts through the port, not the core's IRQ line). A firmware's own
 * axl_fw_irq() replaces it.
 */
#include "kit.h"

__attribute__((weak)) void axl_fw_irq(void)
{
}
