/*
 * axl/handler.h - command groups (spec 4.9.4 of full SYCL, in C).
 *
 * A command group is a function that receives an axl_handler and declares
 * one command: what it depends on and at most one action (4.9.3; with
 * none, the command completes once its dependencies have: a barrier). The
 * handler lives on the stack of axl_queue_submit and is valid only during
 * the call.
 *
 * Handler calls do not fail the program one by one: the first error is
 * kept in the handler, later calls do nothing, and axl_queue_submit returns
 * that error with nothing enqueued. Each call also returns it, for code that
 * wants to stop early.
 */
#ifndef AXL_HANDLER_H
#define AXL_HANDLER_H

#include "axl/buffer.h"
#include "axl/kernel_bundle.h"
#include "axl/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct axl_handler axl_handler;

/** An accessor of one command group: valid only inside that group. */
typedef struct axl_accessor {
    uint32_t index; /**< 1-based position among the group's accessors */
} axl_accessor;

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

/**
 * accessor(buffer, handler, mode, region, {no_init}): the group's command
 * uses region (NULL: all) of buffer with mode. A region outside the buffer,
 * a write on a buffer made from const host memory, or a buffer bound to
 * another context is an error; axl_queue_submit then enqueues nothing.
 */
axl_status axl_handler_require(axl_handler *handler, axl_buffer buffer,
                               axl_access_mode mode, const axl_region *region,
                               uint32_t flags, axl_accessor *accessor);

/**
 * The host address of an accessor's first element, for a host task that
 * works on the buffer: valid while that task runs (the runtime makes the
 * host copy current before it starts). Only for groups whose action is a
 * host task.
 */
axl_status axl_handler_host_ptr(axl_handler *handler, axl_accessor accessor,
                                void **ptr);

/** handler::copy(accessor, dst): the accessor's elements, packed, to dst. */
axl_status axl_handler_copy_to_host(axl_handler *handler, axl_accessor src,
                                    void *dst);

/** handler::copy(src, accessor): packed elements from src into the
 *  accessor's region. src must stay valid until the command completes. */
axl_status axl_handler_copy_from_host(axl_handler *handler, const void *src,
                                      axl_accessor dst);

/** handler::copy(accessor, accessor): the source's bytes, packed, into
 *  the destination's region, which must hold at least as many bytes
 *  (4.9.4.3); the rest of it is left alone. */
axl_status axl_handler_copy(axl_handler *handler, axl_accessor src,
                            axl_accessor dst);

/** handler::fill(accessor, value): pattern_size must be the element size. */
axl_status axl_handler_fill(axl_handler *handler, axl_accessor dst,
                            const void *pattern, size_t pattern_size);

/** handler::update_host(accessor): brings the host copy up to date. */
axl_status axl_handler_update_host(axl_handler *handler, axl_accessor acc);

/**
 * kernel::set_arg / handler::set_arg(index, value): a scalar argument, by
 * its index (the argument id of the kernel metadata, see
 * axl_kernel_get_arg_info). Checked against the kernel at submit: a buffer
 * argument given bytes, or a size other than the kernel's, is
 * AXL_ERR_KERNEL_ARGUMENT there.
 */
axl_status axl_handler_set_arg(axl_handler *handler, uint32_t index,
                               const void *value, size_t size);

/** handler::set_arg(index, accessor): a buffer argument. */
axl_status axl_handler_set_arg_accessor(axl_handler *handler, uint32_t index,
                                        axl_accessor accessor);

/**
 * handler::single_task(kernel): one invocation of the kernel on a free
 * compute unit of the queue's device. At submit, every argument must be
 * set and match the kernel's metadata, and each buffer must be in memory a
 * compute unit of the kernel reaches (CONNECTIVITY), else
 * AXL_ERR_KERNEL_ARGUMENT and nothing runs.
 */
axl_status axl_handler_single_task(axl_handler *handler, axl_kernel kernel);

/**
 * handler::parallel_for(range, kernel): a compute unit runs whole
 * invocations, not work-items, so this is AXL_ERR_FEATURE_NOT_SUPPORTED
 * for every kernel axl knows (they are all hardware IPs). Pass the size as
 * an argument and use single_task.
 */
axl_status axl_handler_parallel_for(axl_handler *handler, axl_range range,
                                    axl_kernel kernel);

/** handler::use_kernel_bundle(bundle) (4.9.4.4): the bundle must be
 *  executable and of the queue's context (else AXL_ERR_INVALID at
 *  submit). Every axl kernel is a kernel object, and single_task(kernel)
 *  ignores the bound bundle and uses the kernel's own (4.9.4.2). */
axl_status axl_handler_use_kernel_bundle(axl_handler *handler,
                                         axl_kernel_bundle bundle);

/** The group's kernel is given up after ns (0: the queue's timeout). */
axl_status axl_handler_set_timeout(axl_handler *handler, uint64_t ns);

/** handler::host_task: the group's action is fn(user) on the host. */
axl_status axl_handler_host_task(axl_handler *handler, axl_host_task_fn fn,
                                 void *user);

#ifdef __cplusplus
}
#endif

#endif /* AXL_HANDLER_H */
