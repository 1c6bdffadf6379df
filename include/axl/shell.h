/*
 * axl/shell.h - DFX shells: a device's static design with reconfigurable
 * slots (issue 40, docs/designs-design.md 3.1, 3.6).
 *
 * A shell is a device's static part plus slots, each with the AXI4-Lite
 * window its partial designs' units sit in and the interrupt lines it
 * reaches. A partial design names the shell it was built for by its
 * interface UUID (the xclbin header's m_interface_uuid); its units' bases
 * say its slot. A board (axl_mmio_board), the emulated device
 * (axl_emu_set_shell, AXL_EMU_SHELL=<preset>) or a test declares one;
 * `axl-xclbin link --platform k26_2rp --slot N` writes partials for the
 * preset below.
 *
 * SYCL 2020 has no word for shells or slots: a shell is a property of the
 * device (not a sub-device), and the partials of one kernel for several
 * slots are several device images of it (4.11.1), of which the runtime
 * picks one.
 */
#ifndef AXL_SHELL_H
#define AXL_SHELL_H

#include <stddef.h>
#include <stdint.h>

#include "axl/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The most slots a shell may have. */
#define AXL_SHELL_MAX_SLOTS 4u

/** One reconfigurable slot of a shell. */
typedef struct axl_slot {
    const char *name;              /**< "RP_0": at most 15 characters */
    uint64_t ctrl_base, ctrl_size; /**< its AXI4-Lite control window */
    uint32_t irq_first, irq_count; /**< its interrupt lines, board numbering */
    uint32_t first_unit;           /**< the port's unit number of a
                                        partial's IP_LAYOUT entry 0 */
} axl_slot;

/** A static shell and its slots. */
typedef struct axl_shell {
    const char *name;              /**< "k26_2rp": at most 23 characters */
    uint8_t interface_uuid[16];    /**< what its partials name */
    uint32_t slot_count;           /**< 1..AXL_SHELL_MAX_SLOTS */
    const axl_slot *slots;
    uint64_t load_ns;              /**< models: a partial load's duration */
} axl_shell;

/**
 * Kria K26 with the 2RP DFX shell (Xilinx/kria-dfx-hw,
 * k26/2rp_design/opendfx_shell.tcl at 78a1236): RP_0's window at
 * 0x8000_0000, RP_1's at 0x8200_0000, 32 MiB each; four interrupt lines
 * each, 8-11 and 12-15 of the 16 PL-to-PS lines (pl_ps_irq1); units from
 * 8 and 12. The interface UUID is axl's own (the shell is a Vivado DFX
 * design without a Vitis platform, so AMD gives it none), the one
 * `axl-xclbin link --platform k26_2rp` writes. Which GIC SPIs the lines
 * reach is for a board to confirm.
 */
extern const axl_shell axl_shell_k26_2rp;

/**
 * The preset shell called `name` ("k26_2rp"), or NULL when there is none
 * of that name.
 */
const axl_shell *axl_shell_find(const char *name);

/**
 * Whether a port can take `shell`: a name, 1..AXL_SHELL_MAX_SLOTS slots
 * each with a name and a window of nonzero size, no two windows
 * overlapping, names that fit. AXL_ERR_INVALID with the message naming
 * the shell, the slot and the field otherwise (`fn`: the caller, for the
 * message).
 */
axl_status axl_shell_check(const char *fn, const axl_shell *shell);

/**
 * For ports: the slot of `shell` whose unit numbers hold unit `n` (a
 * slot's run from its first_unit up to the next slot's first_unit, or up
 * to `units`, the port's count), or -1 (the static part's, or none).
 */
int axl_shell_slot_of_unit(const axl_shell *shell, uint32_t n,
                           uint32_t units);

#ifdef __cplusplus
}
#endif

#endif /* AXL_SHELL_H */
