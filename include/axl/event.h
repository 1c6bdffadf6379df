/*
 * axl/event.h - events (spec 4.6.6).
 *
 * Every submission gives an event for its command. Events are referenced
 * objects: release each one you asked for. Releasing an event does not
 * cancel or wait for its command.
 */
#ifndef AXL_EVENT_H
#define AXL_EVENT_H

#include "axl/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * event(): an event that is already complete, with no command (Table 33).
 * Needs a free event slot.
 */
axl_status axl_event_create_complete(axl_event *event);

axl_status axl_event_retain(axl_event event);
axl_status axl_event_release(axl_event event);

/**
 * event::wait(): blocks until the command is complete. Returns AXL_SUCCESS
 * if it succeeded, or the command's error (with its message in
 * axl_last_message). The error also stays queued for the async handler,
 * as 4.6.5.5 requires. A wait that can never end returns
 * AXL_ERR_BAD_STATE with a message naming what blocks it instead of
 * hanging: the command (or one it depends on) needs a host accessor that
 * the waiting thread holds, or the host task the waiting thread runs (a
 * host task waiting for its own dependents).
 */
axl_status axl_event_wait(axl_event event);

/**
 * event::wait() with a time limit (an axl extension, for firmware that must
 * never block unbounded): waits at most timeout_ns nanoseconds on the
 * runtime clock. Returns as axl_event_wait does if the command completes
 * in time; otherwise AXL_ERR_TIMEOUT with a message, and the command is not
 * cancelled (wait again, or poll axl_event_get_status). A wait that can
 * never end (see axl_event_wait) returns AXL_ERR_BAD_STATE at once.
 */
axl_status axl_event_wait_for(axl_event event, uint64_t timeout_ns);

/** event::wait(eventList): waits for all; returns the first failure. */
axl_status axl_event_wait_list(const axl_event *events, uint32_t count);

/** event::wait_and_throw(): waits, then passes the unconsumed async errors
 *  "from any context that the event was waiting on executions from"
 *  (Table 34) to their handlers: those of the event's queue, of every
 *  other queue of its context, and of every queue of a context whose
 *  commands it waited on, transitively (see axl_queue_throw_asynchronous;
 *  without a handler, one error per call is the result). */
axl_status axl_event_wait_and_throw(axl_event event);
axl_status axl_event_wait_and_throw_list(const axl_event *events,
                                         uint32_t count);

/**
 * info::event::command_execution_status. error (may be NULL) receives the
 * command's status once it is complete (AXL_SUCCESS while it is not).
 * Safe from an interrupt handler on bare metal.
 */
axl_status axl_event_get_status(axl_event event, axl_event_status *status,
                                axl_status *error);

/**
 * event::get_profiling_info (Table 36): nanoseconds on the clock of the
 * queue's device, which is the runtime clock unless the device has one of
 * its own (a model's simulated time: axl/mmio_model.h).
 * Blocks until the value exists (command_end waits for the end). Fails with
 * AXL_ERR_INVALID if the queue had no AXL_QUEUE_ENABLE_PROFILING, as the
 * specification requires.
 */
axl_status axl_event_get_profiling(axl_event event, axl_profiling_info param,
                                   uint64_t *ns);

/**
 * The compute unit that ran a kernel's command (an axl extension; XRT's
 * run objects do not say): its number within the kernel, as
 * axl_kernel_get_cu_info numbers units (that call gives its name). Known
 * once the command has been dispatched (its status is running or
 * complete). AXL_ERR_INVALID for a command that is not a kernel's, or that
 * has not been dispatched to a unit (still waiting, or failed before).
 */
axl_status axl_event_get_compute_unit(axl_event event, uint32_t *cu);

/**
 * The DFX slot a kernel's command ran in (an axl extension, issue 40,
 * axl/shell.h): its slot's number in its device's shell, or -1 for the
 * whole fabric or the shell's static part. Known once the command has
 * been dispatched; AXL_ERR_INVALID as axl_event_get_compute_unit.
 */
axl_status axl_event_get_slot(axl_event event, int32_t *slot);

/**
 * event::get_wait_list(): the events this one's command still waits for
 * (completed ones are left out). Each returned event is retained: release
 * it.
 */
axl_status axl_event_get_wait_list(axl_event event, axl_event *out,
                                   uint32_t cap, uint32_t *count);

#ifdef __cplusplus
}
#endif

#endif /* AXL_EVENT_H */
