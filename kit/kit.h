/*
 * kit/kit.h - what the board kit's files share (private: a firmware
 * includes axl/firmware.h).
 */
#ifndef AXL_KIT_H
#define AXL_KIT_H

#include <stdint.h>

#include "axl/firmware.h"
#include "axl/runtime.h"
#include "axl/status.h"
#include "axl/xclbin.h"

/* A failure with its message; with AXL_MESSAGES 0 (a terse build) the
 * message is the status's name, as the runtime's own, and the text is not
 * compiled in (its format still checked). */
#ifndef AXL_MESSAGES
#define AXL_MESSAGES 1
#endif
#if AXL_MESSAGES
#define kit_fail axl_fail
#else
int axl__kit_unformatted(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
#define kit_fail(status, ...)                                                  \
    ((void)sizeof axl__kit_unformatted(__VA_ARGS__),                           \
     axl_fail(status, "%s", axl_status_name(status)))
#endif

/* ---- The memory map (the board's kit file; mpu_armv7r.c programs it) ---- */

/** One MPU region: 2^size_log2 bytes at base (aligned to its size), with
 *  the DRACR word: execute never, access permission, memory type. */
typedef struct axl__fw_region {
    uint32_t base;
    uint32_t size_log2;
    uint32_t access;
} axl__fw_region;

/* DRACR: XN (bit 12), AP 011 full access (bits 10:8), TEX (5:3), S (2),
 * C (1), B (0). */
#define AXL_FW_XN (1u << 12)
#define AXL_FW_RW (3u << 8)
/** Normal memory, write-back write-allocate, not shared: DDR, the TCMs
 *  (the R5 never caches a TCM access whatever its region says). */
#define AXL_FW_NORMAL_WB (AXL_FW_RW | (1u << 3) | (1u << 1) | 1u)
/** Normal memory, not cached, shared: memory another master writes
 *  without the R5's caches knowing (the OCM the APU shares). */
#define AXL_FW_NORMAL_SHARED (AXL_FW_RW | (1u << 3) | (1u << 2))
/** Shared device memory, never executed: registers (the PL's AXI4-Lite
 *  slaves, the PS peripherals). Accesses are not merged or reordered. */
#define AXL_FW_DEVICE (AXL_FW_XN | AXL_FW_RW | (1u << 2) | 1u)

extern const axl__fw_region axl__fw_regions[];
extern const uint32_t axl__fw_region_count;

/** Sets the MPU from axl__fw_regions and turns the caches on (the
 *  start-up code calls it before main). */
void axl__fw_memory_map(void);

/** Reports an unexpected exception (vector 1 undefined, 2 svc, 3 prefetch
 *  abort, 4 data abort, 7 fiq) near address, and ends the run. */
_Noreturn void axl__fw_fault(unsigned vector, unsigned long address);

/** The bare-metal port's clock (port/baremetal/axl_port.c has a weak
 *  default): a board's clock file (zynqmp_clock.c) defines it. */
uint64_t axl_board_now_ns(void);

/* ---- The design and the board ------------------------------------------ */

/** The design axl_add_firmware(DESIGN) linked: the source it generates
 *  defines this; a firmware built without a design has none (weak: its
 *  address is then NULL). */
extern const axl_xclbin_design *const axl__fw_design __attribute__((weak));

/** The board axl_fw_board() gave the mmio port (NULL before). */
extern const axl_mmio_board *axl__fw_board;

#endif /* AXL_KIT_H */
