/*
 * boards/host-xrt - x86-64 Linux with an Alveo card: host-emu's capacities
 * (the same CI machine, the same workloads), plus the XRT port's settings.
 *
 * Each value is a default: a -D of the same name (cmake -DAXL_...=,
 * CFLAGS) or the user config header (AXL_USER_CONFIG) wins.
 */
#ifndef AXL_BOARD_HOST_XRT_H
#define AXL_BOARD_HOST_XRT_H

#include "../host-emu/axl_board.h"

/* An emulated device and up to two cards share the device pool. */
#ifndef AXL_XRT_DEVICES
#define AXL_XRT_DEVICES 2
#endif

/* The design the cards carry: set AXL_XRT_BUILTIN_XCLBIN to its path here,
 * or in the environment at run time. None by default. */

#endif /* AXL_BOARD_HOST_XRT_H */
