/*
 * axl/queue.h - queues and command submission (spec 4.6.5).
 *
 * A queue sends command groups to one device of its context. An in-order
 * queue runs its commands one after another in submission order; an
 * out-of-order queue runs a command as soon as what it depends on is done.
 */
#ifndef AXL_QUEUE_H
#define AXL_QUEUE_H

#include "axl/device.h"
#include "axl/handler.h"
#include "axl/kernel_bundle.h"
#include "axl/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Queue properties (spec 4.6.5.4). */
enum axl_queue_flags {
    AXL_QUEUE_IN_ORDER = 1u << 0,        /**< property::queue::in_order */
    AXL_QUEUE_ENABLE_PROFILING = 1u << 1 /**< property::queue::enable_profiling */
};

/** info::queue descriptors (spec 4.6.5.3). */
typedef enum axl_queue_info {
    AXL_QUEUE_INFO_CONTEXT = 0, /**< axl_context */
    AXL_QUEUE_INFO_DEVICE = 1   /**< axl_device */
} axl_queue_info;

/**
 * queue(context, device, asyncHandler, {properties}).
 * - context may be AXL_NO_CONTEXT: the queue then makes a context of its own for
 *   the device (4.6.5: "implicitly construct ... context").
 * - device must be in the context, else AXL_ERR_INVALID (Table 27).
 * - AXL_QUEUE_ENABLE_PROFILING on a device without aspect::queue_profiling
 *   is AXL_ERR_FEATURE_NOT_SUPPORTED.
 * - handler may be NULL: errors then go to the context's handler.
 */
axl_status axl_queue_create(axl_context context, axl_device device,
                            uint32_t flags, const axl_async_handler *handler,
                            axl_queue *queue);

/** queue(deviceSelector, ...): selects a device, then as above with its
 *  own context. */
axl_status axl_queue_create_selected(axl_selector_fn selector,
                                     const void *user, uint32_t flags,
                                     const axl_async_handler *handler,
                                     axl_queue *queue);

axl_status axl_queue_retain(axl_queue queue);
/** The last release does not wait: commands in flight finish on their own.
 *  Unconsumed async errors go to the handler (4.13.1.1); without one, the
 *  release returns the oldest one's status with a message that counts them
 *  (the queue is released all the same). A second release, also from the
 *  handler, is AXL_ERR_INVALID_OBJECT. */
axl_status axl_queue_release(axl_queue queue);

axl_status axl_queue_get_info(axl_queue queue, axl_queue_info param,
                              void *value, size_t value_size,
                              size_t *size_ret);
axl_status axl_queue_get_context(axl_queue queue, axl_context *context);
axl_status axl_queue_get_device(axl_queue queue, axl_device *device);
axl_status axl_queue_is_in_order(axl_queue queue, bool *in_order);

/**
 * queue::submit(cgf): runs cgf(handler, user) on the calling thread to
 * describe one command, then schedules it. A group with no action is a
 * command that completes once what it depends on has (4.9.3: "no more
 * than one" action; a barrier). Anything wrong in the group (two actions,
 * a bad accessor or argument) is a synchronous
 * error returned here, and nothing is enqueued. event may be NULL when
 * the caller does not want the event.
 */
axl_status axl_queue_submit(axl_queue queue, axl_cgf cgf, void *user,
                            axl_event *event);

/** queue::wait(): blocks until every command submitted so far is done.
 *  Errors of those commands stay for the async handler. */
axl_status axl_queue_wait(axl_queue queue);

/**
 * queue::wait_and_throw(): wait, then throw_asynchronous.
 */
axl_status axl_queue_wait_and_throw(axl_queue queue);

/**
 * queue::throw_asynchronous() (4.6.5.5): passes every unconsumed async
 * error of the queue to the queue's handler, else the context's. Without
 * either (C's stand-in for SYCL's default handler, which must report all
 * errors, 4.13.1.2): the oldest error is consumed and returned as the
 * status, its message in axl_last_message with how many stay queued (call
 * again for each) and how many the full error pool dropped.
 */
axl_status axl_queue_throw_asynchronous(axl_queue queue);

/* ---- Shortcuts (spec 4.6.5.2): one command each, with dependencies. ---- */

/** queue::submit with a single host_task. deps may be NULL when ndeps is 0. */
axl_status axl_queue_host_task(axl_queue queue, axl_host_task_fn fn,
                               void *user, const axl_event *deps,
                               uint32_t ndeps, axl_event *event);

/**
 * queue::single_task with its arguments and dependencies in one call, as
 * XRT's `krnl(a, b, out, n)`:
 *
 *     axl_queue_single_task(q, k, AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(B),
 *                                          AXL_ARG_OUT(S), AXL_ARG_U32(n)),
 *                           NULL, 0, &done);
 *
 * (axl_kernel_arg in axl/handler.h). The arguments are read during the
 * call only: a scalar's bytes are copied into the command.
 */
axl_status axl_queue_single_task(axl_queue queue, axl_kernel kernel,
                                 const axl_kernel_arg *args, uint32_t nargs,
                                 const axl_event *deps, uint32_t ndeps,
                                 axl_event *event);

/**
 * How axl_queue_parallel_for splits its range over a kernel's compute
 * units. Zero what you do not set (`(axl_split){.count_arg = "size"}`).
 */
typedef struct axl_split {
    /** The scalar argument (by its name in the kernel's metadata) that
     *  receives each chunk's first work-item, or NULL. */
    const char *offset_arg;
    /** The scalar argument that receives each chunk's number of
     *  work-items, or NULL. */
    const char *count_arg;
    /** Bit i: args[i], a buffer, is not split: every chunk is given all of
     *  it, as it is (a table every chunk reads, say). */
    uint64_t whole;
    /** 0: one chunk per compute unit of the kernel object on the queue's
     *  device; n: n chunks (more than units: units run several in turn). */
    uint32_t chunks;
    /** NULL, or room for one event per chunk (as many as `chunks`, or as
     *  the kernel object has units): each chunk's event, to release. */
    axl_event *chunk_events;
    /** NULL, or where the number of chunks submitted goes. */
    uint32_t *chunk_count;
} axl_split;

/**
 * parallel_for(range, kernel) over compute units (SYCL 2020 3.7.2.1 and
 * 3.9.3 run one work-item per point of a range; a hardware IP runs a
 * whole loop per launch, so the range is cut into chunks, one launch
 * each). The rule:
 *
 * - The range (items 0..range-1) is cut into contiguous chunks, one per
 *   unit of the kernel object (axl_kernel_select_units limits them) on the
 *   queue's device, or split->chunks; never more chunks than items, nor
 *   than AXL_MAX_HANDLER_DEPS. Each chunk is one single_task of the kernel
 *   with `args`, where the scalars named by split->offset_arg and
 *   split->count_arg hold the chunk's first item and its count (the list
 *   must have an entry for each; its value is replaced), and each buffer
 *   argument not marked in split->whole is replaced by a sub-buffer of
 *   the chunk's part: a buffer of range[0] = k * range rows gives item i
 *   rows k*i .. k*i+k-1 (all of its other dimensions), so a split buffer
 *   must be a base buffer whose first dimension is a multiple of the
 *   range, given with no region.
 * - Chunks start on item boundaries where every split buffer's part starts
 *   at a multiple of the device's mem_base_addr_align (a sub-buffer's
 *   origin must be, 4.7.2.1 Table 38) and of the kernel's element
 *   alignment: the range is dealt out in such granules, as evenly as they
 *   go (the first chunks take one more granule when they do not divide;
 *   the last ends at the range's end). A range smaller than the units
 *   gives fewer chunks; one smaller than a granule gives one chunk.
 * - Each chunk depends on deps, and on what its accessors conflict with
 *   (its part of each split buffer; the whole of each whole one), so
 *   chunks on disjoint parts run at once on an out-of-order queue (an
 *   in-order queue runs them one after another). A whole buffer written by
 *   the kernel makes the chunks run in turn.
 * - The unit of a chunk is chosen at dispatch as for any launch: a free
 *   unit of the kernel object reaching the buffers (axl_event_get_compute_
 *   unit on a chunk's event says which).
 * - A buffer whose contents are not on the device yet gets a prefetch
 *   command of its own (axl_handler_prefetch) before the chunks, which
 *   wait for it rather than for each other.
 * - *event (may be NULL) completes when every chunk has, with the first
 *   failure among them. A range of 0 runs nothing (its arguments are still
 *   checked as a launch's); *event then completes once deps have.
 *
 * All or nothing: a failed check (the first chunk's, as single_task's),
 * too few free buffers for the sub-buffers (AXL_MAX_BUFFERS), or too few
 * commands or events for the prefetches, every chunk and *event
 * (AXL_ERR_OUT_OF_RESOURCES) submits nothing, and the message says why.
 *
 * On a queue that records a graph (axl/graph.h) the call is one node, as
 * the extension has it for a command group: checked as a single_task of
 * the whole buffers would be, and run by each replay as its chunks (each
 * over its part of the split buffers, told its first item and count),
 * with no sub-buffer made. chunk_events and *event are all that node, so
 * axl_graph_exec_update_buffer through it swaps a buffer for every chunk
 * (the offset and count arguments are the split's: an update of them is
 * refused). No prefetch is recorded; a node that cannot be recorded
 * (AXL_MAX_GRAPH_NODES) records nothing.
 */
axl_status axl_queue_parallel_for(axl_queue queue, axl_kernel kernel,
                                  size_t range, const axl_kernel_arg *args,
                                  uint32_t nargs, const axl_split *split,
                                  const axl_event *deps, uint32_t ndeps,
                                  axl_event *event);

/** How long a kernel of this queue may run before it is given up with
 *  AXL_ERR_TIMEOUT (default AXL_KERNEL_TIMEOUT_MS; 0: forever). */
axl_status axl_queue_set_timeout(axl_queue queue, uint64_t ns);

/** queue::copy(accessor, dst): region (NULL: all) of src to dst. */
axl_status axl_queue_copy_to_host(axl_queue queue, axl_buffer src,
                                  const axl_region *region, void *dst,
                                  const axl_event *deps, uint32_t ndeps,
                                  axl_event *event);

/** queue::copy(src, accessor): src into region (NULL: all) of dst. */
axl_status axl_queue_copy_from_host(axl_queue queue, const void *src,
                                    axl_buffer dst, const axl_region *region,
                                    const axl_event *deps, uint32_t ndeps,
                                    axl_event *event);

/** queue::copy(accessor, accessor), whole buffers or regions. */
axl_status axl_queue_copy(axl_queue queue, axl_buffer src,
                          const axl_region *src_region, axl_buffer dst,
                          const axl_region *dst_region, const axl_event *deps,
                          uint32_t ndeps, axl_event *event);

/** queue::fill(accessor, value). */
axl_status axl_queue_fill(axl_queue queue, axl_buffer dst,
                          const axl_region *region, const void *pattern,
                          size_t pattern_size, const axl_event *deps,
                          uint32_t ndeps, axl_event *event);

/** axl_handler_prefetch as one command: region (NULL: all) of buffer to
 *  the queue's device. */
axl_status axl_queue_prefetch(axl_queue queue, axl_buffer buffer,
                              const axl_region *region, const axl_event *deps,
                              uint32_t ndeps, axl_event *event);

/** queue::update_host(accessor). */
axl_status axl_queue_update_host(axl_queue queue, axl_buffer buffer,
                                 const axl_region *region,
                                 const axl_event *deps, uint32_t ndeps,
                                 axl_event *event);

#ifdef __cplusplus
}
#endif

#endif /* AXL_QUEUE_H */
