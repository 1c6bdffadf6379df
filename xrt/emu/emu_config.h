/*
 * emu_config.h - capacities of the emulated device, with defaults a board
 * overrides in its axl_board.h (as for the core's axl_config.h).
 */
#ifndef AXL_EMU_CONFIG_H
#define AXL_EMU_CONFIG_H

/* The application's own settings first (-DAXL_USER_CONFIG=<header> in
 * CMake), so they win over the board's and the defaults below. */
#ifdef AXL_USER_CONFIG_FILE
#include AXL_USER_CONFIG_FILE
#endif
#include "axl_board.h"

/* The core's switch (core/axl_config.h's default; a board's header may
 * say 0): the emulated device reprograms on demand only with it. */
#if !defined(AXL_FEATURE_DESIGN_SWAP) /* core/axl_config.h lists the setting */
#define AXL_FEATURE_DESIGN_SWAP 1
#endif

/** Emulated devices (each one FPGA with its own banks). */
#ifndef AXL_EMU_DEVICES
#define AXL_EMU_DEVICES 1
#endif

/*
 * The defaults fit a small bare-metal board, where the banks are real RAM
 * beside the firmware: a Cortex-R5F with 2 x 64 KiB of TCM (zcu102-r5),
 * whose RAM budget for the whole runtime is 24 KiB, of which the core's
 * pools and host arena take about 17 KiB at their defaults. Two banks,
 * because the stock images connect kernels to two; 2 KiB each, room for
 * four buffers at the 512-byte alignment below (4 KiB of RAM, and 128 bytes
 * of allocation tables): small test vectors for a firmware's CI, which is
 * what the emulated device is for on such a board. A board with memory to
 * spare raises them: host-emu and the Linux boards use 2 x 256 MiB, which
 * also meets SYCL's 128 MiB minimum for info::device::max_mem_alloc_size
 * (on Linux, untouched bss pages cost nothing).
 */

/** Memory banks per device. On bare metal each is a static arena, and a
 *  design that uses more is refused; on a hosted build (AXL_EMU_HOSTED)
 *  they are only what a device with no design has: its banks are the
 *  design's (axl_emu_set_limits in axl/emu.h). */
#ifndef AXL_EMU_BANKS
#define AXL_EMU_BANKS 2
#endif

/** Bytes per bank (bare metal; hosted: with no design, or a design bank
 *  of size 0). */
#ifndef AXL_EMU_BANK_SIZE
#define AXL_EMU_BANK_SIZE (2u * 1024u)
#endif

/** Hosted builds: the largest bank emulated by default; a design's
 *  larger bank (16 GiB of DDR on an Alveo card) is emulated at this
 *  size. The environment variable of the same name, or
 *  axl_emu_set_limits, sets it at run time. Storage is reserved when a
 *  bank is first used and costs what is touched. */
#ifndef AXL_EMU_MAX_BANK_BYTES
#define AXL_EMU_MAX_BANK_BYTES (1ull << 30)
#endif

/** Allocations alive at once per bank. */
#ifndef AXL_EMU_BANK_ALLOCS
#define AXL_EMU_BANK_ALLOCS 4
#endif

/** 1: a model that writes a buffer its command gave read-only fails the
 *  command (axl_emu_check_read_only in axl/emu.h, which also says what it
 *  costs); host-emu, the board CI builds, sets it. AXL_EMU_CHECK_READ_ONLY
 *  in a hosted build's environment, or the call, changes it at run time. */
#ifndef AXL_EMU_CHECK_READ_ONLY
#define AXL_EMU_CHECK_READ_ONLY 0
#endif

/** Longest kernel name a model is registered under, with its NUL. */
#ifndef AXL_EMU_NAME_MAX
#define AXL_EMU_NAME_MAX 32
#endif

/** Arguments a model may receive. */
#ifndef AXL_EMU_MAX_ARGS
#define AXL_EMU_MAX_ARGS 16
#endif

/** Kernel models the application may register beside the stock ones. */
#ifndef AXL_EMU_MAX_MODELS
#define AXL_EMU_MAX_MODELS 16
#endif

/** Alignment of device allocations and of sub-buffer origins, in bits
 *  (info::device::mem_base_addr_align). XRT aligns BOs to 4 KiB pages and
 *  reports 4096 bits; the emulator matches so misaligned sub-buffers fail
 *  in CI as they would on the board. */
#ifndef AXL_EMU_MEM_ALIGN_BITS
#define AXL_EMU_MEM_ALIGN_BITS 4096
#endif

/** 1: the emulated device runs on an OS with threads: each compute unit
 *  runs its model on a worker thread of its own (created at its first
 *  run, joined at shutdown), and AXL_EMU_DETERMINISTIC in the environment
 *  picks the deterministic mode. 0 (bare metal): models run from the
 *  port's progress op, which waits call. */
#ifndef AXL_EMU_HOSTED
#if defined(__unix__) || defined(__APPLE__)
#define AXL_EMU_HOSTED 1
#else
#define AXL_EMU_HOSTED 0
#endif
#endif

/** Compute units per device the emulator keeps a run (and on a hosted
 *  build a worker) for: the units of the loaded design. A run on a unit
 *  past them is AXL_ERR_OUT_OF_RESOURCES. About 100 bytes each on a
 *  32-bit board; 16 on hosted builds (as host-emu's AXL_MAX_DEVICE_CUS). */
#ifndef AXL_EMU_UNITS
#if AXL_EMU_HOSTED
#define AXL_EMU_UNITS 16
#else
#define AXL_EMU_UNITS 8
#endif
#endif

/** Streams (docs/streaming.md): bytes per device of the static arena the
 *  FIFOs of a design's streams are carved from when the device is
 *  programmed (each FIFO its depth in beats of its width, and a byte a
 *  beat for TLAST); a design whose FIFOs do not fit is refused then,
 *  naming this. 0 leaves streams out (bare metal: pipelines need a
 *  worker per unit, which only a hosted build has). */
#ifndef AXL_EMU_STREAM_BYTES
#if AXL_EMU_HOSTED
#define AXL_EMU_STREAM_BYTES (64u * 1024u)
#else
#define AXL_EMU_STREAM_BYTES 0
#endif
#endif

/** Streams of one design the emulated device joins. */
#ifndef AXL_EMU_MAX_STREAMS
#define AXL_EMU_MAX_STREAMS 16
#endif

/** Pipelines open at once on the emulated devices. */
#ifndef AXL_EMU_PIPELINES
#define AXL_EMU_PIPELINES 4
#endif

/** Stream ports of one unit. */
#ifndef AXL_EMU_UNIT_STREAMS
#define AXL_EMU_UNIT_STREAMS 4
#endif

/* The port's failure messages follow the core's AXL_MESSAGES (see
 * core/axl_config.h, whose default this repeats): with 0 the message of a
 * failure is its status name. */
#ifndef AXL_MESSAGES
#define AXL_MESSAGES 1
#endif
#ifndef AXL_MESSAGE_DETAIL
#define AXL_MESSAGE_DETAIL AXL_MESSAGES
#endif

_Static_assert(AXL_EMU_DEVICES >= 1 && AXL_EMU_DEVICES <= 8,
               "AXL_EMU_DEVICES must be 1..8");
_Static_assert(AXL_EMU_BANKS >= 1 && AXL_EMU_BANKS <= 64,
               "AXL_EMU_BANKS must be 1..64");
_Static_assert(AXL_EMU_UNITS >= 1 && AXL_EMU_UNITS <= 64,
               "AXL_EMU_UNITS must be 1..64");
_Static_assert(AXL_EMU_BANK_ALLOCS >= 1, "AXL_EMU_BANK_ALLOCS must be >= 1");
_Static_assert(AXL_EMU_MAX_ARGS >= 1 && AXL_EMU_MAX_ARGS <= 32,
               "AXL_EMU_MAX_ARGS must be 1..32");
_Static_assert(AXL_EMU_MAX_STREAMS >= 1 && AXL_EMU_UNIT_STREAMS >= 1 &&
                   AXL_EMU_PIPELINES >= 1,
               "AXL_EMU_MAX_STREAMS, AXL_EMU_UNIT_STREAMS and "
               "AXL_EMU_PIPELINES must be >= 1");
_Static_assert((AXL_EMU_MEM_ALIGN_BITS & (AXL_EMU_MEM_ALIGN_BITS - 1)) == 0 &&
                   AXL_EMU_MEM_ALIGN_BITS >= 8,
               "AXL_EMU_MEM_ALIGN_BITS must be a power of two >= 8");

#endif /* AXL_EMU_CONFIG_H */
