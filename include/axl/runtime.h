/*
 * axl/runtime.h - starting and stopping the runtime, pool statistics, the
 * clock, and reporting failures from application callbacks.
 */
#ifndef AXL_RUNTIME_H
#define AXL_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "axl/status.h"
#include "axl/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Starts the runtime: registers the board's device ports, opens their
 * devices, starts host-task workers. Every other call does this by itself
 * the first time, so calling it is optional; it is how firmware makes
 * start-up cost happen at a known moment. Calling it again does nothing.
 */
axl_status axl_init(void);

/**
 * Stops the runtime and returns every pool to empty. Fails with
 * AXL_ERR_BAD_STATE, changing nothing, while the application still holds
 * contexts, queues, events or other objects it created (the message counts
 * them per pool). Platforms and devices need no release: they live from
 * the first call to axl_shutdown(). Handles from before stay stale after.
 *
 * Commands still in flight (their events released) are waited for, as
 * axl_queue_wait would, and kernels past their timeout are given up. When
 * it gave up a run, or a run given up earlier is still on a device (an
 * accelerator, or an emulated model, that never stopped), axl_shutdown
 * still stops the runtime, and returns AXL_ERR_TIMEOUT with a message
 * naming the kernel: the one failure that does not leave things as they
 * were. A kernel with no timeout that never ends is waited for forever.
 */
axl_status axl_shutdown(void);

/** Use of one fixed pool (or arena, where sizes are bytes). */
typedef struct axl_pool_stats {
    const char *name;     /**< "event", "queue", ... */
    const char *setting;  /**< the axl_config.h macro that sizes it */
    uint32_t object_size; /**< bytes per object (1 for byte arenas) */
    uint32_t capacity;
    uint32_t in_use;
    uint32_t high_water;  /**< most in use at once since start-up */
    uint32_t failures;    /**< allocations refused because it was full */
} axl_pool_stats;

/**
 * Statistics of every pool, then the rows below. With out == NULL, *count is
 * set to the number of rows. Otherwise cap must be at least that (else
 * AXL_ERR_INVALID and nothing is written). Safe before axl_init (shows
 * empty pools). A buffer released while commands used it is counted until
 * the last of them ends, not after: this call frees such buffers before it
 * counts.
 *
 * The pool-full rule (AXL_ERR_OUT_OF_RESOURCES) is about what the
 * application holds. A slot that an object the application released keeps
 * only for a command in flight (a buffer a kernel still writes; an event,
 * kernel, bundle, queue or context whose command has not ended) is the
 * runtime's: a call that creates an object and finds its pool full (and a
 * submission that finds the event pool full, and device placement that
 * finds a bank full) waits for the oldest such command, as a wait does
 * (dispatching, driving progress, giving up runs past their timeout), and
 * tries again. It never waits for slots the application holds: those fail
 * at once, naming the pool, as do a full command pool (the application's
 * own submissions), a graph's or parallel_for's submission (which need
 * their slots at once) and a host accessor. Slots that only a run given
 * up at its timeout on a unit that may never come back keeps (a hung
 * accelerator) are not waited for either: the failure names the unit and
 * how to bring it back.
 *
 * The row "reserved_memory" (object_size 1, capacity 0, setting "none"),
 * counts bytes: the device memory of released buffers that runs given up
 * at their timeout keep, because the accelerator may still write it
 * (in_use, saturating at UINT32_MAX; high_water). It goes back to 0 when
 * those units are back, and at axl_shutdown. With graphs (AXL_FEATURE_
 * GRAPHS), the last row, "graph_tables" (object_size 1, setting
 * AXL_GRAPH_TABLE_BYTES), counts the bytes executable graphs' plans take.
 */
axl_status axl_stats_get(axl_pool_stats *out, uint32_t cap, uint32_t *count);

/** One setting of the build (core/axl_config.h and the ports' config
 *  headers) as compiled in: AXL_MAX_EVENTS 2048. */
typedef struct axl_build_setting {
    const char *name;
    uint64_t value;   /**< a number's value (text NULL) */
    const char *text; /**< a string setting's value, else NULL */
} axl_build_setting;

/** What the library was built as: what an installed package is. */
typedef struct axl_build_info {
    const char *version;      /**< "0.1.0" */
    const char *board;        /**< the board folder's name: "host-emu" */
    const char *os_port;      /**< "posix", "baremetal" */
    const char *device_ports; /**< the board's device ports: "emu native" */
    const char *user_config;  /**< the AXL_USER_CONFIG header, or "" */
    const char *given;        /**< settings given to CMake: "AXL_MAX_EVENTS=64" */
    uint32_t setting_count;
    const axl_build_setting *settings; /**< every setting, as compiled */
} axl_build_info;

/**
 * Fills *info with what the library was built as: its board, ports and
 * every capacity and switch (what `axl-ls --build` prints). Pointers are
 * to constants in the library. Needs no runtime (callable any time).
 */
axl_status axl_build_info_get(axl_build_info *info);

/** A replacement clock in nanoseconds (monotonic, never going back). */
typedef uint64_t (*axl_clock_fn)(void *user);

/**
 * Replaces the clock behind profiling timestamps and timeouts, so tests and
 * deterministic runs control time (NULL restores the port's monotonic
 * clock). Call it while no command is in flight. A device with a clock of
 * its own (a model's simulated time, axl/mmio_model.h) keeps it for its
 * commands and its kernels' timeouts.
 */
axl_status axl_clock_set(axl_clock_fn fn, void *user);

/**
 * Records a failure message for the calling thread and returns status: what
 * a host task or selector does to explain why it fails, as in
 * `return axl_fail(AXL_ERR_RUNTIME, "sensor %d did not answer", id);`.
 * The message reaches the async handler with the host task's error.
 */
axl_status axl_fail(axl_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#ifdef __cplusplus
}
#endif

#endif /* AXL_RUNTIME_H */
