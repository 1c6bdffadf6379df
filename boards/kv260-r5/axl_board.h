/*
 * boards/kv260-r5 - bare-metal Cortex-R5F in the Kria KV260's RPU (K26
 * SOM, Zynq UltraScale+ XCK26): the bare-metal port and the emulated
 * device, with zcu102-r5's capacities (the same RPU, the same 2 x 64 KiB
 * of TCM; the footprint table holds for both). A firmware that needs more
 * raises them here, or with -D / AXL_USER_CONFIG.
 */
#ifndef AXL_BOARD_KV260_R5_H
#define AXL_BOARD_KV260_R5_H

#include "../zcu102-r5/axl_board.h"

#endif /* AXL_BOARD_KV260_R5_H */
