/*
 * boards/kv260-linux - aarch64 Linux on the Kria KV260: a K26 SOM, Zynq
 * UltraScale+ ZU5EV (4 x Cortex-A53, 4 GiB DDR4 that the PL reaches
 * through the HP ports; no PL DDR): the POSIX port, the emulated device
 * and, when XRT is there, its edge driver (zocl).
 *
 * The capacities are host-emu's, as for zcu102-linux: the test suite runs
 * unchanged on aarch64, and Linux maps only the bss pages that are touched.
 * Override below what a real application needs differently.
 */
#ifndef AXL_BOARD_KV260_LINUX_H
#define AXL_BOARD_KV260_LINUX_H

#include "../host-emu/axl_board.h"

#endif /* AXL_BOARD_KV260_LINUX_H */
