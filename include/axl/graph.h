/*
 * axl/graph.h - recorded command graphs (the shape of DPC++'s
 * sycl_ext_oneapi_graph, in C and in fixed pools).
 *
 * A firmware loop that runs the same commands again and again (per camera
 * frame, per sensor block) records them once into a graph, finalizes it
 * into an executable graph, and submits that as often as it wants:
 *
 *     axl_graph g;
 *     axl_graph_create(ctx, dev, &g);
 *     axl_graph_begin_recording(g, q);
 *     axl_queue_single_task(q, k, AXL_ARGS(AXL_ARG_IN(in), AXL_ARG_OUT(out),
 *                                          AXL_ARG_U32(n)), NULL, 0, NULL);
 *     axl_queue_copy_to_host(q, out, NULL, frame, NULL, 0, NULL);
 *     axl_graph_end_recording(g, q);
 *     axl_graph_exec x;
 *     axl_graph_finalize(g, &x);
 *     for (;;) {
 *         axl_event done;
 *         axl_queue_submit_graph(q, x, NULL, 0, &done);
 *         axl_event_wait(done);
 *         axl_event_release(done);
 *     }
 *
 * The rules:
 * - A graph is made for one context and one device (command_graph(context,
 *   device)); only queues of that context and device record into it, and
 *   only they submit its executable graphs.
 * - While a queue records, every command submitted to it (command groups,
 *   single_task, copies, fills, host tasks, prefetch, update_host) passes
 *   the same checks as a submission, and is added to the graph instead of
 *   running: nothing runs, nothing moves, and the call returns at once.
 *   Its event (if asked) stands for the graph node: pass it as a
 *   dependency of later recorded commands of the same graph (that makes an
 *   edge), or to axl_graph_node_from_event; waiting on it, querying it,
 *   releasing it (its graph frees it) or using it on a queue that does not
 *   record is AXL_ERR_INVALID, naming its graph (sycl_ext_oneapi_graph's
 *   errc::invalid). Once its graph is released the handle is stale:
 *   AXL_ERR_INVALID_OBJECT wherever it goes, as any stale handle.
 *   Edges also come from the accessors (a command after one that writes
 *   what it uses, as at any submission) and, on an in-order queue, from the
 *   order of submission. A recorded command may not depend on an event
 *   outside the graph (AXL_ERR_INVALID), whether or not that event's
 *   command has finished. axl_queue_parallel_for is recorded: each chunk
 *   a node (its sub-buffers live as long as a node names them), its
 *   event a node after every chunk. A wait on a recording queue
 *   (axl_queue_wait, axl_queue_wait_and_throw) is AXL_ERR_INVALID, naming
 *   the graph ("Queue Limitations"): end the recording first.
 * - axl_graph_finalize checks every node again (its kernel's arguments
 *   against the metadata, banks against the compute units, buffers and the
 *   kernel alive, the design on the device) and copies the nodes into an
 *   executable graph. Later changes to the graph do not change it.
 * - axl_queue_submit_graph submits the nodes, in recording order, as one
 *   command group with one event. One instance of an executable graph
 *   runs at a time: a submission made while the last one runs (from any
 *   queue) starts once it is done, by an edge that only orders (the last
 *   one's failure is not this one's). The event completes once every node has,
 *   with the first node failure (a failed node fails the nodes that depend
 *   on it, each failure also goes to the queue's async errors). The
 *   nodes take their dependencies on the queue's other commands from their
 *   accessors, as any command does; the checks made at finalize are not
 *   made again, but what can have changed since is: every buffer and
 *   kernel must still be alive (a released one is AXL_ERR_INVALID_OBJECT,
 *   nothing submitted), the design still on the device, host memory
 *   must be had for a buffer whose data must pass through the host (the
 *   buffer's allocator's failure, nothing submitted), and the queue's
 *   pools must have a command and an event for every node
 *   (AXL_ERR_OUT_OF_RESOURCES, nothing submitted). The error names the
 *   node. A graph runs whole or not at all, with one exception: host
 *   memory that a buffer changed on another device during this very call
 *   makes necessary (the nodes before it then run; the call fails with no
 *   event).
 * - Between submissions, axl_graph_exec_update_scalar and
 *   axl_graph_exec_update_buffer change one kernel argument of one node of
 *   the executable graph; the next submission sees it, the ones already
 *   submitted do not. A bad update changes nothing and says why.
 * - Memory the graph names (a host task's user pointer, a copy's host
 *   memory) must stay valid as long as the executable graph is submitted.
 */
#ifndef AXL_GRAPH_H
#define AXL_GRAPH_H

#include "axl/handler.h"
#include "axl/types.h"

#ifdef __cplusplus
extern "C" {
#endif

AXL_DECLARE_HANDLE(axl_graph);
AXL_DECLARE_HANDLE(axl_graph_exec);
AXL_DECLARE_HANDLE(axl_graph_node);

/**
 * command_graph<modifiable>(context, device): an empty graph whose
 * commands will run on device (which must be in context).
 */
axl_status axl_graph_create(axl_context context, axl_device device,
                            axl_graph *graph);

/** Frees the graph and its nodes; queues still recording into it stop
 *  recording. Executable graphs made from it stay valid. */
axl_status axl_graph_release(axl_graph graph);

/**
 * command_graph::begin_recording(queue): the queue's next submissions are
 * added to the graph (see the rules above) until axl_graph_end_recording.
 * The queue must be of the graph's context and device, and not recording
 * already (AXL_ERR_BAD_STATE).
 */
axl_status axl_graph_begin_recording(axl_graph graph, axl_queue queue);

/** command_graph::end_recording(queue): the queue runs its submissions
 *  again. A queue that records nothing is left as it is (success); one
 *  that records into another graph is AXL_ERR_BAD_STATE. */
axl_status axl_graph_end_recording(axl_graph graph, axl_queue queue);

/**
 * command_graph::add(cgf, {depends_on(nodes)}): one node built by hand:
 * cgf fills a handler as for axl_queue_submit, checked as a submission
 * to a queue of the graph's context and device would be. The node runs
 * after deps (nodes of this graph; may be NULL when ndeps is 0) and after
 * the earlier nodes whose buffers it uses. node may be NULL. While a
 * queue records into the graph, nodes are not added by hand
 * (AXL_ERR_BAD_STATE, naming the queue; nothing is added).
 */
axl_status axl_graph_add(axl_graph graph, axl_cgf cgf, void *user,
                         const axl_graph_node *deps, uint32_t ndeps,
                         axl_graph_node *node);

/** node::get_node_from_event: the node a recorded submission's event
 *  stands for. */
axl_status axl_graph_node_from_event(axl_event event, axl_graph_node *node);

/** The number of nodes in the graph. */
axl_status axl_graph_node_count(axl_graph graph, uint32_t *count);

/**
 * command_graph::finalize(): checks every node (see the rules above) and
 * makes an executable graph of them. On failure nothing is made and the
 * message names the node (by its position, 0 first) and what is wrong.
 */
axl_status axl_graph_finalize(axl_graph graph, axl_graph_exec *exec);

/** Frees the executable graph. Submissions of it already made run on. */
axl_status axl_graph_exec_release(axl_graph_exec exec);

/**
 * Whether submissions of the executable graph are laid out: one command
 * and one event per submission, whose nodes (kernels, host tasks,
 * copies, fills) the one executor runs along the edges its plan found at
 * finalize, with no command per node (a replay's cost is then a fixed
 * part and a small part per node, docs/performance.md). True for every
 * live executable graph (issue 37); kept for source compatibility.
 */
axl_status axl_graph_exec_laid_out(axl_graph_exec exec, bool *laid);

/**
 * queue::ext_oneapi_graph(exec): submits the executable graph as one
 * command group. It starts after deps (may be NULL when ndeps is 0) and
 * the queue's earlier commands its nodes conflict with (and, on an
 * in-order queue, after every earlier command), and after the last
 * submission of exec if it still runs (one instance at a time). *event
 * (event may be NULL) completes once every node has, with the first
 * failure. The queue must be of the graph's context and device and not
 * recording.
 */
axl_status axl_queue_submit_graph(axl_queue queue, axl_graph_exec exec,
                                  const axl_event *deps, uint32_t ndeps,
                                  axl_event *event);

/**
 * A new value for scalar argument arg_index (its id in the kernel's
 * metadata) of a kernel node: size must be the argument's. node is a node
 * of the graph exec was finalized from (or of exec). Seen by the next
 * submission of exec only.
 */
axl_status axl_graph_exec_update_scalar(axl_graph_exec exec,
                                        axl_graph_node node,
                                        uint32_t arg_index, const void *value,
                                        size_t size);

/**
 * Another buffer for buffer argument arg_index of a kernel node, with the
 * same access mode and region: it must be alive, of the graph's context,
 * of the same size in bytes as the one it replaces, and in the same bank
 * on the device (a buffer with no copy there yet gets one in a bank the
 * kernel reaches, which must be that one). Checked as a launch is; a bad
 * one changes nothing. Seen by the next submission of exec only.
 */
axl_status axl_graph_exec_update_buffer(axl_graph_exec exec,
                                        axl_graph_node node,
                                        uint32_t arg_index, axl_buffer buffer);

#ifdef __cplusplus
}
#endif

#endif /* AXL_GRAPH_H */
