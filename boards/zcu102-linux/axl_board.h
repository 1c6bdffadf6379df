/*
 * boards/zcu102-linux - aarch64 Linux on the ZCU102's Zynq UltraScale+
 * ZU9EG (4 x Cortex-A53, 4 GiB PS DDR4, 512 MiB PL DDR4): the POSIX port,
 * the emulated device and, when XRT is there, its edge driver (zocl).
 *
 * Linux on the A53s has memory to spare, as the host has: the capacities
 * are host-emu's, so the whole test suite runs unchanged on aarch64 (CI
 * runs it under qemu-aarch64), and a firmware team starts from numbers the
 * tests have exercised. The emulated device's banks are the design's,
 * reserved with mmap, which Linux backs only where they are touched. Override below what a real
 * application needs differently, with axl_stats_get() from a run on the
 * board as the guide.
 */
#ifndef AXL_BOARD_ZCU102_LINUX_H
#define AXL_BOARD_ZCU102_LINUX_H

#include "../host-emu/axl_board.h"

#endif /* AXL_BOARD_ZCU102_LINUX_H */
