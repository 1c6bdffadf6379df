/*
 * pools.h - the one list of object pools (the lwIP memp_std.h pattern).
 *
 * X(KIND, name, type, capacity) declares a pool. The list expands into the
 * pool-kind enum (which is also the kind field of handles), the static
 * storage, the pool descriptors and the statistics. Add a pool here and
 * nowhere else.
 */
#ifndef AXL_POOLS_H
#define AXL_POOLS_H

#define AXL__POOL_LIST(X)                                                      \
    X(PLATFORM, platform, struct axl__platform, AXL_MAX_PLATFORMS)             \
    X(DEVICE, device, struct axl__device, AXL_MAX_DEVICES)                     \
    X(CONTEXT, context, struct axl__context, AXL_MAX_CONTEXTS)                 \
    X(QUEUE, queue, struct axl__queue, AXL_MAX_QUEUES)                         \
    X(EVENT, event, struct axl__event, AXL_MAX_EVENTS)                         \
    X(COMMAND, command, struct axl__command, AXL_MAX_COMMANDS)                 \
    X(ERROR, error, struct axl__error, AXL_MAX_ERRORS)                         \
    X(BUFFER, buffer, struct axl__buffer, AXL_MAX_BUFFERS)                     \
    X(HOST_ACCESSOR, host_accessor, struct axl__host_accessor,                 \
      AXL_MAX_HOST_ACCESSORS)                                                  \
    X(IMAGE, image, struct axl__image, AXL_MAX_IMAGES)                         \
    X(KERNEL_ID, kernel_id, struct axl__kernel_id, AXL_MAX_KERNEL_IDS)         \
    X(KERNEL_BUNDLE, kernel_bundle, struct axl__bundle,                        \
      AXL_MAX_KERNEL_BUNDLES)                                                  \
    X(KERNEL, kernel, struct axl__kernel, AXL_MAX_KERNELS)

enum axl__pool_kind {
#define AXL__POOL_ENUM(KIND, name, type, cap) AXL__POOL_##KIND,
    AXL__POOL_LIST(AXL__POOL_ENUM)
#undef AXL__POOL_ENUM
    AXL__POOL_COUNT
};

_Static_assert(AXL__POOL_COUNT <= 16, "handle kinds have 4 bits");

#endif /* AXL_POOLS_H */
