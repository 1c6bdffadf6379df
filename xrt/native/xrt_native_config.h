/*
 * xrt_native_config.h - settings of the XRT device port, with defaults a
 * board overrides in its axl_board.h (as for the core's axl_config.h).
 *
 * The port runs on Linux beside XRT, which allocates freely; it allocates
 * its own bookkeeping (one record per buffer, compute unit and XRT run) and
 * keeps every record until the device closes, so a steady workload
 * allocates nothing per launch.
 */
#ifndef AXL_XRT_NATIVE_CONFIG_H
#define AXL_XRT_NATIVE_CONFIG_H

/* The application's own settings first (-DAXL_USER_CONFIG=<header> in
 * CMake), so they win over the board's and the defaults below. */
#ifdef AXL_USER_CONFIG_FILE
#include AXL_USER_CONFIG_FILE
#endif
#include "axl_board.h"

/** XRT devices the port opens (xclProbe may find more; they are not
 *  listed, and the platform says so). */
#ifndef AXL_XRT_DEVICES
#define AXL_XRT_DEVICES 4
#endif

/**
 * The design the board's devices carry, as a path to its .xclbin (the
 * environment variable of the same name overrides it at run time). When
 * the device already runs an image with that UUID, its compute units are
 * the device's built-in kernels; when it runs nothing, the port loads it
 * at open; when it runs something else, the device has no built-in
 * kernels. Empty: none.
 */
#ifndef AXL_XRT_BUILTIN_XCLBIN
#define AXL_XRT_BUILTIN_XCLBIN ""
#endif

/** info::device::mem_base_addr_align, in bits. XRT allocates BOs on 4 KiB
 *  pages (its OpenCL layer reports page size x 8) but accepts sub-buffers
 *  at any offset; axl uses the emulated device's 4096 bits so a program
 *  that passes on one passes on the other. */
#ifndef AXL_XRT_MEM_ALIGN_BITS
#define AXL_XRT_MEM_ALIGN_BITS 4096
#endif

/** 1: a launch calls xrtRunSetArg only for the arguments whose value the
 *  compute unit's XRT run does not hold from its last start (XRT keeps
 *  them in the run's command packet; XRT 2.13's noop shim and its sources
 *  agree). 0: every launch sets every argument, as the raw XRT loop does,
 *  for a driver that turns out not to keep them. */
#ifndef AXL_XRT_KEEP_RUN_ARGS
#define AXL_XRT_KEEP_RUN_ARGS 1
#endif

/** Longest single xrtRunWaitFor of the completion thread, in ms: a run
 * that finishes behind a longer one is noticed within about this long
 * when no application thread is waiting for it. */
#ifndef AXL_XRT_WAIT_SLICE_MS
#define AXL_XRT_WAIT_SLICE_MS 1
#endif

/** How often, in us, the completion thread reads a run's state on XRT's
 *  noop shim, whose wait ignores its timeout (xrt_run.c, wait_slice). */
#ifndef AXL_XRT_NOOP_POLL_US
#define AXL_XRT_NOOP_POLL_US 20
#endif

/** XRT's noop shim (xrt_noop.c): a run still NEW this long (ms) after its
 *  start with no later run complete gets a probe queued behind it, which
 *  tells whether the shim lost its completion. */
#ifndef AXL_XRT_NOOP_PROBE_MS
#define AXL_XRT_NOOP_PROBE_MS 50
#endif

/** XRT's noop shim: longest wait (ms) of a BO free for the shim's
 *  completion thread to pass the runs started; past it the free goes
 *  ahead (only when that thread has stopped, or its
 *  noop_completion_delay_us is longer). */
#ifndef AXL_XRT_NOOP_FREE_WAIT_MS
#define AXL_XRT_NOOP_FREE_WAIT_MS 10000
#endif

/** How often, in ms, the completion thread looks at runs the core gave up
 *  at their timeout until XRT sees them end (and they are reported). */
#ifndef AXL_XRT_POLL_MS
#define AXL_XRT_POLL_MS 1
#endif

/** How long close() waits for runs still on the device (finished late or
 *  given up) before it closes their handles anyway; XRT's driver then
 *  drops them with the device. */
#ifndef AXL_XRT_CLOSE_WAIT_MS
#define AXL_XRT_CLOSE_WAIT_MS 2000
#endif

/** At exit, how long the port lets the process's other threads reach
 *  sleep before XRT's own exit handler stops its threads (XRT 2.13 can
 *  miss the stop of a thread that has not run yet, and then waits for it
 *  for ever: xrt_port.c, settle_threads_at_exit). 0: not at all. */
#ifndef AXL_XRT_EXIT_SETTLE_MS
#define AXL_XRT_EXIT_SETTLE_MS 1000
#endif

_Static_assert(AXL_XRT_DEVICES >= 1 && AXL_XRT_DEVICES <= 64,
               "AXL_XRT_DEVICES must be 1..64");
_Static_assert(AXL_XRT_WAIT_SLICE_MS >= 1 && AXL_XRT_POLL_MS >= 1,
               "AXL_XRT_WAIT_SLICE_MS and AXL_XRT_POLL_MS must be >= 1");
_Static_assert((AXL_XRT_MEM_ALIGN_BITS & (AXL_XRT_MEM_ALIGN_BITS - 1)) == 0 &&
                   AXL_XRT_MEM_ALIGN_BITS >= 8,
               "AXL_XRT_MEM_ALIGN_BITS must be a power of two >= 8");

#endif /* AXL_XRT_NATIVE_CONFIG_H */
