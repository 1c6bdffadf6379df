/*
 * axl/trace.h - seeing what ran: a trace of every command's life that
 * Perfetto and chrome://tracing open, and log lines a firmware routes.
 *
 * The core only formats: text goes to a sink the caller gives (a file, a
 * UART, a memory dump). Hosted ports add environment switches: AXL_TRACE=
 * path.json records from the start and writes the file at axl_shutdown (or
 * at exit, for a program that never calls it);
 * AXL_LOG=error|warn|info|debug prints log lines to stderr.
 */
#ifndef AXL_TRACE_H
#define AXL_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "axl/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Where formatted text goes: len bytes of text (not NUL-terminated). */
typedef void (*axl_text_sink)(const char *text, size_t len, void *user);

/* ---- Trace ------------------------------------------------------------------ */

/**
 * Turns recording on or off. While on, every command submitted leaves one
 * record when it completes: its queue, device, compute unit or host-task
 * worker, kernel name, bytes, the commands it waited for, its status and
 * the times it was submitted, became ready, started and ended (on the same
 * clock as profiling timestamps), and the span of the data it moved to or
 * from a device first. Records go into a ring of AXL_TRACE_EVENTS
 * (axl_config.h): when it is full the oldest record is overwritten and
 * counted as dropped. Commands submitted while off are not recorded. Safe
 * before axl_init and from any thread. AXL_ERR_FEATURE_NOT_SUPPORTED when
 * the build has AXL_TRACE_EVENTS 0.
 */
axl_status axl_trace_enable(bool on);

/** Whether recording is on. */
bool axl_trace_enabled(void);

/** Flags of axl_trace_format. */
typedef enum axl_trace_flags {
    /** Records written are removed from the ring (a drain): the next call
     *  writes only what completed since. */
    AXL_TRACE_CONSUME = 1u << 0
} axl_trace_flags;

/**
 * Writes the records in the ring as one Chrome Trace Event JSON document
 * (the "JSON Array/Object Format" that Perfetto and chrome://tracing
 * open) through sink, in pieces of at most a few hundred bytes: one track
 * per queue, per compute unit and per host-task worker, a track of data
 * transfers per device, and flow arrows from each command to the commands
 * that waited for it. The runtime lock is not held while sink runs (it
 * may call axl, but not axl_trace_format). Records that commands complete
 * meanwhile may or may not be included; records overwritten meanwhile are
 * skipped. Works before axl_init and after axl_shutdown (the ring keeps
 * its records until axl_trace_clear).
 * @param[in] sink  receives the text; NULL: AXL_ERR_INVALID
 * @param[in] flags axl_trace_flags
 */
axl_status axl_trace_format(axl_text_sink sink, void *user, uint32_t flags);

/**
 * Hosted ports (posix): writes axl_trace_format's document to the file at
 * path (replacing it). AXL_ERR_FEATURE_NOT_SUPPORTED on ports with no
 * files (bare metal: use axl_trace_format with a sink).
 */
axl_status axl_trace_write(const char *path);

/** The ring's counts. */
typedef struct axl_trace_stats {
    uint32_t capacity; /**< records the ring holds (AXL_TRACE_EVENTS) */
    uint32_t held;     /**< records in it now */
    uint32_t recorded; /**< records made since the last clear */
    uint32_t dropped;  /**< overwritten before they were written out */
} axl_trace_stats;

axl_status axl_trace_stats_get(axl_trace_stats *out);

/** Empties the ring and zeroes its counts. */
axl_status axl_trace_clear(void);

/* ---- Logs ------------------------------------------------------------------- */

typedef enum axl_log_level {
    AXL_LOG_OFF = 0,
    AXL_LOG_ERROR = 1, /**< a command failed */
    AXL_LOG_WARN = 2,  /**< a pool near capacity, a trace record dropped */
    AXL_LOG_INFO = 3,  /**< devices found, images loaded and programmed */
    AXL_LOG_DEBUG = 4  /**< each command's dispatch and completion */
} axl_log_level;

/**
 * Sets the log level and where lines go. The core formats each line (no
 * newline; "axl: info: ..." style, at most AXL_MESSAGE_MAX bytes) and calls
 * sink, which may run on any thread that drives axl, with the runtime lock
 * held: it must not call axl and should return quickly (copy to a UART
 * FIFO, a ring). sink NULL or level AXL_LOG_OFF: no logs (the default on
 * bare metal; the posix port sets a stderr sink from AXL_LOG). Safe before
 * axl_init.
 */
void axl_log_set(axl_log_level level, axl_text_sink sink, void *user);

/** The current level. */
axl_log_level axl_log_level_get(void);

/** "error", "warn", "info", "debug" or "off"; parses the same words back
 *  (AXL_LOG's values): *out is set and true returned, or false. */
const char *axl_log_level_name(axl_log_level level);
bool axl_log_level_parse(const char *word, axl_log_level *out);

#ifdef __cplusplus
}
#endif

#endif /* AXL_TRACE_H */
