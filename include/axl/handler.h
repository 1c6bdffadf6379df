/*
 * axl/handler.h - command groups (spec 4.9.4 of full SYCL, in C).
 *
 * A command group is a function that receives an axl_handler and declares
 * one command: what it depends on and exactly one action. The handler lives
 * on the stack of axl_queue_submit and is valid only during the call.
 *
 * Handler calls do not fail the program one by one: the first error is
 * kept in the handler, later calls do nothing, and axl_queue_submit returns
 * that error with nothing enqueued. Each call also returns it, for code that
 * wants to stop early.
 */
#ifndef AXL_HANDLER_H
#define AXL_HANDLER_H

#include "axl/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct axl_handler axl_handler;

/** A command-group function. */
typedef void (*axl_cgf)(axl_handler *handler, void *user);

/**
 * A host task: runs on the host, in dependency order with the queue's other
 * commands, on a worker thread where the port has threads. Return
 * AXL_SUCCESS, or a failure (axl_fail() adds a message): the failure marks
 * the event, reaches the async handler and fails the commands that depend
 * on this one.
 */
typedef axl_status (*axl_host_task_fn)(void *user);

/** handler::depends_on(event). A complete event adds nothing. */
axl_status axl_handler_depends_on(axl_handler *handler, axl_event event);

/** handler::depends_on(events). */
axl_status axl_handler_depends_on_list(axl_handler *handler,
                                       const axl_event *events,
                                       uint32_t count);

/** handler::host_task: the group's action is fn(user) on the host. */
axl_status axl_handler_host_task(axl_handler *handler, axl_host_task_fn fn,
                                 void *user);

#ifdef __cplusplus
}
#endif

#endif /* AXL_HANDLER_H */
