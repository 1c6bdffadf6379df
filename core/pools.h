/*
 * pools.h - the one list of object pools (the lwIP memp_std.h pattern).
 *
 * X(KIND, name, type, capacity, handle, what, owner) declares a pool:
 * its kind, its name (in messages and statistics, and the stem of the
 * typed helpers rt.h generates: axl__<name>_at, _get, _enter), the object
 * type, the capacity setting, the public handle type (axl__no_handle for
 * the runtime's own objects, which the application never names), what a
 * message calls one of its handles, and who creates its objects (APP: the
 * application, whose live ones axl_shutdown reports; RT: the runtime).
 * The list expands into the pool-kind enum (which is also the kind field
 * of handles), the static storage, the pool descriptors, the statistics
 * and those helpers. Add a pool here and nowhere else.
 */
#ifndef AXL_POOLS_H
#define AXL_POOLS_H

#include "axl_config.h"

/* The graph pools (axl/graph.h) exist only with AXL_FEATURE_GRAPHS: a
 * firmware that switches graphs off keeps neither their storage nor their
 * handle kinds. Nodes are named by axl_graph_node handles (a recorded
 * command's event is its node's handle) and belong to a graph or an
 * executable graph, which frees them: the runtime's (RT). */
#if AXL_FEATURE_GRAPHS
#define AXL__GRAPH_POOLS(X)                                                    \
    X(GRAPH, graph, struct axl__graph, AXL_MAX_GRAPHS, axl_graph, "graph",     \
      APP)                                                                     \
    X(GRAPH_EXEC, graph_exec, struct axl__graph_exec, AXL_MAX_GRAPH_EXECS,     \
      axl_graph_exec, "executable graph", APP)                                 \
    X(GRAPH_NODE, graph_node, struct axl__graph_node, AXL_MAX_GRAPH_NODES,     \
      axl_graph_node, "graph node", RT)
#else
#define AXL__GRAPH_POOLS(X)
#endif

/* IP handles (axl/ip.h) exist only with AXL_FEATURE_IP_ACCESS. */
#if AXL_FEATURE_IP_ACCESS
#define AXL__IP_POOLS(X) X(IP, ip, struct axl__ip, AXL_MAX_IPS, axl_ip, "IP", APP)
#else
#define AXL__IP_POOLS(X)
#endif

/* Pipelines (axl/pipeline.h) exist only with AXL_FEATURE_STREAMS. */
#if AXL_FEATURE_STREAMS
#define AXL__STREAM_POOLS(X)                                                   \
    X(PIPELINE, pipeline, struct axl__pipeline, AXL_MAX_PIPELINES,             \
      axl_pipeline, "pipeline", APP)
#else
#define AXL__STREAM_POOLS(X)
#endif

/* Placements (core/place.h) come last: the pools before them keep the
 * handle kinds they had. */
#define AXL__POOL_LIST(X)                                                      \
    X(PLATFORM, platform, struct axl__platform, AXL_MAX_PLATFORMS,             \
      axl_platform, "platform", RT)                                            \
    X(DEVICE, device, struct axl__device, AXL_MAX_DEVICES, axl_device,         \
      "device", RT)                                                            \
    X(CONTEXT, context, struct axl__context, AXL_MAX_CONTEXTS, axl_context,    \
      "context", APP)                                                          \
    X(QUEUE, queue, struct axl__queue, AXL_MAX_QUEUES, axl_queue, "queue",     \
      APP)                                                                     \
    X(EVENT, event, struct axl__event, AXL_MAX_EVENTS, axl_event, "event",     \
      APP)                                                                     \
    X(COMMAND, command, struct axl__command, AXL_MAX_COMMANDS,                 \
      axl__no_handle, "command", RT)                                           \
    X(ERROR, error, struct axl__error, AXL_MAX_ERRORS, axl__no_handle,         \
      "error", RT)                                                             \
    X(BUFFER, buffer, struct axl__buffer, AXL_MAX_BUFFERS, axl_buffer,         \
      "buffer", APP)                                                           \
    X(HOST_ACCESSOR, host_accessor, struct axl__host_accessor,                 \
      AXL_MAX_HOST_ACCESSORS, axl_host_accessor, "host accessor", APP)         \
    X(IMAGE, image, struct axl__image, AXL_MAX_IMAGES, axl_device_image,       \
      "device image", RT)                                                      \
    X(KERNEL_ID, kernel_id, struct axl__kernel_id, AXL_MAX_KERNEL_IDS,         \
      axl_kernel_id, "kernel id", RT)                                          \
    X(KERNEL_BUNDLE, kernel_bundle, struct axl__bundle,                        \
      AXL_MAX_KERNEL_BUNDLES, axl_kernel_bundle, "kernel bundle", APP)         \
    X(KERNEL, kernel, struct axl__kernel, AXL_MAX_KERNELS, axl_kernel,         \
      "kernel", APP)                                                           \
    AXL__GRAPH_POOLS(X)                                                        \
    AXL__IP_POOLS(X)                                                           \
    AXL__STREAM_POOLS(X)                                                       \
    X(PLACEMENT, placement, struct axl__placement, AXL_MAX_PLACEMENTS,         \
      axl__no_handle, "placement", RT)

enum axl__pool_kind {
#define AXL__POOL_ENUM(KIND, ...) AXL__POOL_##KIND,
    AXL__POOL_LIST(AXL__POOL_ENUM)
#undef AXL__POOL_ENUM
    AXL__POOL_COUNT
};

_Static_assert(AXL__POOL_COUNT <= 32, "handle kinds have 5 bits");

#endif /* AXL_POOLS_H */
