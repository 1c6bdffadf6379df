/*
 * axl/pipeline.h - streaming designs: kernels joined by AXI4-Stream
 * (v++'s stream_connect), run as a pipeline.
 *
 *     axl_pipeline p;
 *     axl_pipeline_desc d = {bundle, "sadd_1", restart, 1, 0, 0};
 *     axl_pipeline_create(q, &d, &p);          // the units joined to sadd_1
 *     axl_pipeline_set_arg(p, "sadd_1", 2, &addend, 4);
 *     axl_pipeline_start(p);                   // sadd_1 on auto-restart
 *     // mm2s and s2mm are ordinary commands, submitted in any order:
 *     axl_queue_single_task(q, mm2s, AXL_ARGS(AXL_ARG_IN(src),
 *                           AXL_ARG_U32(n)), NULL, 0, &sent);
 *     axl_queue_single_task(q, s2mm, AXL_ARGS(AXL_ARG_OUT(dst),
 *                           AXL_ARG_U32(n)), NULL, 0, &got);
 *     axl_event_wait(got);
 *     axl_pipeline_release(p);                 // stops it first
 *
 * The rules (docs/streaming.md says them by task):
 * - A pipe is a stream of the design (SYCL's sycl_ext_intel_dataflow_pipes
 *   name for a kernel-to-kernel stream): the link made it, the
 *   application never creates one, and its min_capacity is the link's
 *   FIFO depth. axl_kernel_bundle_get_pipes lists them.
 * - A pipeline is a connected part of the design's stream graph, found
 *   from the xclbin from any one of its units. Its units are of three
 *   kinds: free-running (ap_ctrl_none, the design says so: they run from
 *   the fabric's reset), auto-restart (ap_ctrl_chain units the
 *   application names in the desc: started once, they take packet after
 *   packet) and commands (every other unit: memory-facing kernels such as
 *   mm2s and s2mm, launched as ordinary commands with accessors and
 *   events). A stream argument is never set by the host: a launch that
 *   sets one is refused, naming the stream and its connection; the other
 *   arguments of a command are set as for any kernel.
 * - A command on a unit with stream ports runs only once its pipeline is
 *   started (AXL_ERR_BAD_STATE at submit otherwise, naming the pipeline),
 *   on exactly one unit (a kernel with several such units takes
 *   axl_kernel_select_units first).
 * - Consumers first, without the application ordering it: a command on a
 *   unit is held until every unit downstream of it has started (free-
 *   running and auto-restart units at axl_pipeline_start, a command unit
 *   once its command is dispatched). Submit mm2s, then s2mm: s2mm starts
 *   first. A command held past the start timeout fails with
 *   AXL_ERR_TIMEOUT naming the unit that never started and the pipe
 *   between them. (An in-order queue orders each command after the one
 *   before it: a producer submitted before its consumer there waits for
 *   a consumer that waits for it, and the timeout says so.)
 * - Every wait has a deadline and a missed one names the unit:
 *   stop, drain and reset report the first unit that did not stop, and
 *   why (axl_pipeline_report).
 * - The emulated device finds a deadlock: once every unit of a running
 *   pipeline waits on a full or empty FIFO, a command among them, and no
 *   command of the pipeline is still to come, its commands fail with
 *   AXL_ERR_RUNTIME and a message naming the units, the FIFOs and their
 *   fill; the RTL testbench names the same once no beat has moved for
 *   its deadlock window. The pipeline is then AXL_PIPELINE_FAILED, and
 *   axl_pipeline_reset brings it back.
 * - Objects come from the pipeline pool (AXL_MAX_PIPELINES, units per
 *   pipeline AXL_MAX_PIPELINE_UNITS); every transition is a trace event
 *   (docs/traces.md).
 *
 * Ports: the emulated device runs pipelines on a hosted build (each unit
 * on a worker of its own, bounded FIFOs of the design's depth); the mmio
 * port drives auto-restart (control bit 7), writes free-running units'
 * scalars and leaves them running, on a board, the C-model simulator and
 * the RTL. The XRT port has none of it (AXL_ERR_FEATURE_NOT_SUPPORTED at
 * axl_pipeline_create). With AXL_FEATURE_STREAMS 0 every call answers
 * AXL_ERR_FEATURE_NOT_SUPPORTED naming the switch.
 */
#ifndef AXL_PIPELINE_H
#define AXL_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

#include "axl/status.h"
#include "axl/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A pipe: one stream of a bundle's design. */
typedef struct axl_pipe_info {
    char name[96];              /**< "mm2s_1.data_out->sadd_1.data_in" */
    uint32_t index;             /**< in its design (axl_xclbin_get_stream) */
    uint32_t min_capacity;      /**< beats: the link's FIFO depth; 0 when
                                     it gave none (the fabric then joins
                                     the ports directly: about 2 beats of
                                     register slices) */
    uint32_t width_bits;        /**< TDATA */
    axl_kernel_id producer, consumer;
    uint32_t producer_cu, consumer_cu;   /**< as axl_kernel_get_cu_info numbers them */
    uint32_t producer_arg, consumer_arg; /**< argument ids */
} axl_pipe_info;

/**
 * The pipes of the designs of an executable bundle, in design order.
 * @param[out] out capacity entries, or NULL to ask the count
 * @param[out] count how many there are
 */
axl_status axl_kernel_bundle_get_pipes(axl_kernel_bundle bundle,
                                       axl_pipe_info *out, uint32_t capacity,
                                       uint32_t *count);

typedef enum axl_pipeline_unit_kind {
    AXL_PIPELINE_COMMAND = 0,      /**< launched by commands */
    AXL_PIPELINE_FREE_RUNNING = 1, /**< ap_ctrl_none: the design's */
    AXL_PIPELINE_AUTO_RESTART = 2  /**< ap_ctrl_chain, control bit 7 */
} axl_pipeline_unit_kind;

typedef struct axl_pipeline_desc {
    /** An executable bundle for the queue's device, whose design the
     *  device carries; the pipeline holds it (its design stays). */
    axl_kernel_bundle bundle;
    /** Any unit of the pipeline, as IP_LAYOUT names it: its instance
     *  ("sadd_1") or the whole name ("sadd:sadd_1"). */
    const char *unit;
    /** Units to put on auto-restart (ap_ctrl_chain units of the
     *  pipeline), named likewise; the others that are not free-running
     *  stay commands. */
    const char *const *auto_restart;
    uint32_t auto_restart_count;
    /** How long a held command waits for the units downstream of it to
     *  start, on the runtime's clock; 0: AXL_PIPELINE_START_TIMEOUT_NS. */
    uint64_t start_timeout_ns;
    /** How long stop and drain wait for each unit, on the device's clock
     *  (simulated time under a model with a clock); 0:
     *  AXL_PIPELINE_STOP_TIMEOUT_NS. */
    uint64_t stop_timeout_ns;
} axl_pipeline_desc;

/** The defaults of the desc's timeouts: 1 s and 100 ms. */
#define AXL_PIPELINE_START_TIMEOUT_NS 1000000000ull
#define AXL_PIPELINE_STOP_TIMEOUT_NS 100000000ull

/**
 * A pipeline of the design on the queue's device: desc->unit and every
 * unit joined to it by streams, ordered consumers first.
 * @return AXL_ERR_INVALID (no such unit, a unit with no stream, a cycle
 *         of streams, an auto-restart unit that is not ap_ctrl_chain or
 *         not in the pipeline, a bundle of another context or device),
 *         AXL_ERR_BAD_STATE (a unit already in a live pipeline, a design
 *         not on the device), AXL_ERR_OUT_OF_RESOURCES (AXL_MAX_PIPELINES,
 *         AXL_MAX_PIPELINE_UNITS, AXL_MAX_PIPELINE_PIPES), or the port's
 *         refusal (AXL_ERR_FEATURE_NOT_SUPPORTED on a port without
 *         pipelines, naming it).
 */
axl_status axl_pipeline_create(axl_queue queue, const axl_pipeline_desc *desc,
                               axl_pipeline *out);

/** Stops the pipeline if it runs, then lets go of it and its bundle:
 *  held commands fail, auto-restart is cleared and a unit not idle at
 *  once (an iteration waiting for a packet that will not come) is reset,
 *  which is no failure; commands in flight are waited for up to the stop
 *  timeout. AXL_ERR_TIMEOUT when one still runs then or a unit did not
 *  reset, naming it; the handle goes either way. */
axl_status axl_pipeline_release(axl_pipeline pipeline);

/**
 * A scalar argument of a free-running or auto-restart unit, given to it at
 * the next start (a command unit's arguments are its commands').
 * @param[in] unit the unit's name, as in the desc
 * @param[in] arg_index the argument's id in the kernel's metadata
 * @return AXL_ERR_KERNEL_ARGUMENT (not a scalar, another size, over 8
 *         bytes), AXL_ERR_INVALID (no such unit; a command unit),
 *         AXL_ERR_BAD_STATE (running: axl_pipeline_update_arg)
 */
axl_status axl_pipeline_set_arg(axl_pipeline pipeline, const char *unit,
                                uint32_t arg_index, const void *value,
                                size_t size);

/**
 * Starts the pipeline's free-running and auto-restart units, consumers
 * first, each with the scalars set for it (a scalar never set is
 * AXL_ERR_KERNEL_ARGUMENT, naming it, and nothing starts), and from then
 * on releases commands on its units consumers first. From created or
 * stopped; returns once every unit has taken its start. A unit the port
 * fails to start fails the call, naming it (the units started before it
 * are stopped again).
 */
axl_status axl_pipeline_start(axl_pipeline pipeline);

/**
 * A new scalar for a running unit. Auto-restart: into the unit's mailbox,
 * which the iteration after the one under way takes (an iteration takes
 * its scalars when it starts; the one under way keeps its own): the call
 * returns once the value is there. The mailbox holds one update, as
 * XRT's xrt::mailbox does: while an earlier one waits to be taken, the
 * call waits for it up to timeout_ns (the device's clock), and past it
 * fails with AXL_ERR_TIMEOUT naming the unit and the iterations it ended,
 * nothing changed. Free-running: taken at once (its scalars are read all
 * the time; the emulated device gives it at the model's next stream op).
 * The emulated device and the C-model simulator model the mailbox; the
 * mmio port writes the register, which axl's RTL (and an HLS core built
 * with -s_axilite_mailbox) takes at the next iteration's ap_start, and
 * counts an update taken once an iteration's end is counted after it
 * (axl_pipeline_unit_info.iterations moved: a lower bound, so an update
 * may wait longer than it must, never less).
 */
axl_status axl_pipeline_update_arg(axl_pipeline pipeline, const char *unit,
                                   uint32_t arg_index, const void *value,
                                   size_t size, uint64_t timeout_ns);

/** Why a stop, drain or reset did not end well (AXL_ERR_TIMEOUT): the
 *  units that did not stop, the first of them, and why. */
typedef struct axl_pipeline_report {
    uint32_t not_stopped;
    char unit[48];              /**< "sadd_1", "" when none */
    char why[256];              /**< "still busy 100000 ns after auto-restart
                                     was cleared: reset" */
} axl_pipeline_report;

/**
 * Stop: held commands fail (AXL_ERR_BAD_STATE), auto-restart is cleared
 * producers first and each unit waited for until it is idle (past the
 * stop timeout it is reset: ap_sw_reset, else the board's hook, and
 * named in the report), commands in flight on its units are waited for
 * as long, and free-running units are left running (nothing stops an
 * ap_ctrl_none unit but the fabric's reset). The pipeline is then
 * stopped (it may start again), whatever the status. report may be NULL.
 * @return AXL_SUCCESS, or AXL_ERR_TIMEOUT with the report
 */
axl_status axl_pipeline_stop(axl_pipeline pipeline,
                             axl_pipeline_report *report);

/** Stop, then wait until the pipes the device can see are empty (the
 *  stop timeout): AXL_ERR_TIMEOUT naming a pipe that still holds beats
 *  and its fill; AXL_ERR_FEATURE_NOT_SUPPORTED on a port that cannot see
 *  the fabric's FIFOs (a board: the pipeline is stopped all the same). */
axl_status axl_pipeline_drain(axl_pipeline pipeline,
                              axl_pipeline_report *report);

/** Resets every unit (ap_sw_reset, else the board's hook; the emulated
 *  device ends its models), commands on them failing; the pipeline goes
 *  back to created, set arguments kept. A fabric's FIFOs keep their beats
 *  across a unit's reset (only reprogramming empties them), as the
 *  emulated device's and the RTL testbench's do. */
axl_status axl_pipeline_reset(axl_pipeline pipeline,
                              axl_pipeline_report *report);

typedef enum axl_pipeline_state {
    AXL_PIPELINE_CREATED = 0,
    AXL_PIPELINE_RUNNING = 1,
    AXL_PIPELINE_STOPPING = 2,
    AXL_PIPELINE_STOPPED = 3,
    AXL_PIPELINE_FAILED = 4     /**< a command on it failed (a deadlock);
                                     the report says why */
} axl_pipeline_state;

/** The state, its unit count and, when failed, why (report may be NULL). */
axl_status axl_pipeline_get_state(axl_pipeline pipeline,
                                  axl_pipeline_state *state,
                                  uint32_t *unit_count,
                                  axl_pipeline_report *report);

typedef enum axl_pipeline_unit_state {
    AXL_PIPELINE_UNIT_IDLE = 0,    /**< no command, or not started */
    AXL_PIPELINE_UNIT_HELD = 1,    /**< a command waits for its consumers */
    AXL_PIPELINE_UNIT_STARTED = 2, /**< running (a command, free-running) */
    AXL_PIPELINE_UNIT_RESTARTING = 3, /**< on auto-restart */
    AXL_PIPELINE_UNIT_STOPPED = 4,
    AXL_PIPELINE_UNIT_FAILED = 5
} axl_pipeline_unit_state;

typedef struct axl_pipeline_unit_info {
    char name[48];              /**< "sadd_1" */
    axl_kernel_id kernel;
    uint32_t cu;                /**< as axl_kernel_get_cu_info numbers them */
    axl_pipeline_unit_kind kind;
    axl_pipeline_unit_state state;
    uint32_t commands;          /**< commands it ran */
    /** Auto-restart: iterations the port saw end since the start. The
     *  emulated device counts each return of the unit's model (one ended
     *  by a stop or reset too). The mmio port counts the looks that found
     *  the unit's done status bit set (ISR bit 0, which the control block
     *  sets at every end of an iteration; from Vitis HLS 2022.2 the
     *  control word shows none): the interrupt entry's, or a polled
     *  unit's looks, made while a thread waits in the port (a command's
     *  wait, a pipeline call; axl_pipeline_get_unit looks once before
     *  it reads the count). Iterations that end between two looks set
     *  the sticky bit once and count as one, so the count is a lower
     *  bound, exact while each iteration outlasts the gap between looks
     *  (and always with the block before 2022.2, whose ap_ctrl_chain
     *  unit waits for the look's ap_continue). The stop counts the
     *  iterations that end after auto-restart is cleared; a unit reset
     *  at the stop timeout counts none for the iteration it was in. */
    uint32_t iterations;
} axl_pipeline_unit_info;

/** Unit `index` of the pipeline, in start order (consumers first). */
axl_status axl_pipeline_get_unit(axl_pipeline pipeline, uint32_t index,
                                 axl_pipeline_unit_info *info);

#ifdef __cplusplus
}
#endif

#endif /* AXL_PIPELINE_H */
