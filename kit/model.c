/*
 * kit/model.c - the board kit where the fabric is a model: under QEMU
 * (axl_add_qemu_test) and on the host (the host package's
 * axl_add_firmware). The firmware's code is the board's; the board it
 * gets is the model library's own (axl_mmio_model_library: the C-model
 * simulator, which runs the emulated device's C models behind the
 * registers, or the kernels' RTL under Verilator), carrying the design
 * the firmware was built with.
 */
#include <stddef.h>

#include "axl/emu.h"
#include "kit.h"

/* The model library's board (axl_mmio_model_library writes it into each
 * program that links the library). */
const axl_mmio_board *axl__mmio_default_board(void);

/* A firmware's MODEL_SOURCES (axl_add_firmware) may define it, to
 * register the C models of kernels of its own (axl_emu_register_model). */
axl_status axl_fw_register_models(void) __attribute__((weak));

axl_status axl_fw_board(const axl_mmio_unit_wiring *units, uint32_t count)
{
    (void)units; /* the model wires its own units */
    (void)count;
    const axl_xclbin_design *d = axl_fw_design();
    if (!d)
        return kit_fail(AXL_ERR_PLATFORM,
                        "axl_fw_board: the firmware was built without a "
                        "design (axl_add_firmware(... DESIGN <xclbin>))");
    /* The simulator's board carries the emulated device's design (an RTL
     * board carries its own, linked from the same configuration). */
    axl_status st = &axl_fw_register_models ? axl_fw_register_models()
                                            : AXL_SUCCESS;
    if (st == AXL_SUCCESS)
        st = axl_emu_set_builtin_design(d);
    const axl_mmio_board *b = st == AXL_SUCCESS ? axl__mmio_default_board()
                                                : NULL;
    if (st == AXL_SUCCESS)
        st = axl_mmio_set_board(b);
    if (st == AXL_SUCCESS)
        axl__fw_board = b;
    return st;
}

axl_status axl_fw_irq_connect(uint32_t irq_id, uint32_t ip_index)
{
    (void)irq_id; /* the model raises its units' interrupts itself */
    (void)ip_index;
    return AXL_SUCCESS;
}
