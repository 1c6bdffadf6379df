/*
 * axl/types.h - handles and enumerations shared by the whole API.
 *
 * Handles are small values: copy them freely (SYCL's common reference
 * semantics, spec 4.5.2, are retain/release on the object behind them).
 * Each encodes a pool index, a generation and the object kind, so a stale
 * handle, a destroyed one, one never created, or one of another kind forged
 * by casting is reported as AXL_ERR_INVALID_OBJECT, never undefined
 * behaviour. The all-zero handle is never valid: use it for "none".
 */
#ifndef AXL_TYPES_H
#define AXL_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "axl/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AXL_DECLARE_HANDLE(name)                                              \
    typedef struct name {                                                     \
        uint32_t id;                                                          \
    } name

AXL_DECLARE_HANDLE(axl_platform);
AXL_DECLARE_HANDLE(axl_device);
AXL_DECLARE_HANDLE(axl_context);
AXL_DECLARE_HANDLE(axl_queue);
AXL_DECLARE_HANDLE(axl_event);
AXL_DECLARE_HANDLE(axl_buffer);
AXL_DECLARE_HANDLE(axl_host_accessor);
AXL_DECLARE_HANDLE(axl_kernel_id);
AXL_DECLARE_HANDLE(axl_kernel_bundle);
AXL_DECLARE_HANDLE(axl_kernel);
AXL_DECLARE_HANDLE(axl_device_image);
AXL_DECLARE_HANDLE(axl_ip);
AXL_DECLARE_HANDLE(axl_pipeline);

/** The value of a "no object" handle of any kind, as an initializer:
 *  `axl_context none = AXL_NONE;`. It is not an expression: where a call
 *  takes a handle, pass the expression of that handle's type below, as in
 *  `axl_queue_create(AXL_NO_CONTEXT, device, ...)`. */
#define AXL_NONE {0}

#ifdef __cplusplus
#define AXL__NO(type) (type{0})
#else
#define AXL__NO(type) ((type){0})
#endif
/** "No object" of each handle type, as expressions (compound literals in
 *  C, value-initialized temporaries in C++). */
#define AXL_NO_PLATFORM AXL__NO(axl_platform)
#define AXL_NO_DEVICE AXL__NO(axl_device)
#define AXL_NO_CONTEXT AXL__NO(axl_context)
#define AXL_NO_QUEUE AXL__NO(axl_queue)
#define AXL_NO_EVENT AXL__NO(axl_event)
#define AXL_NO_BUFFER AXL__NO(axl_buffer)
#define AXL_NO_HOST_ACCESSOR AXL__NO(axl_host_accessor)
#define AXL_NO_KERNEL_ID AXL__NO(axl_kernel_id)
#define AXL_NO_KERNEL_BUNDLE AXL__NO(axl_kernel_bundle)
#define AXL_NO_KERNEL AXL__NO(axl_kernel)
#define AXL_NO_DEVICE_IMAGE AXL__NO(axl_device_image)
#define AXL_NO_IP AXL__NO(axl_ip)
#define AXL_NO_PIPELINE AXL__NO(axl_pipeline)

/** Equality of common reference semantics (spec 4.5.2): two handles of one
 *  kind are equal when they name the same object. */
#define AXL_SAME(a, b) ((a).id == (b).id)

/** True for the all-zero "none" handle. */
#define AXL_IS_NONE(h) ((h).id == 0)

/** Backends (spec 4.1). */
typedef enum axl_backend {
    AXL_BACKEND_EMU = 1, /**< the emulated device (C models of kernels) */
    AXL_BACKEND_XRT = 2, /**< AMD XRT: Alveo cards and embedded boards */
    AXL_BACKEND_MMIO = 3 /**< axl's own driver of the IPs' registers (the
                              mmio port: bare metal, Linux UIO, or a
                              model of the fabric in CI) */
} axl_backend;

/** info::device_type (spec 4.6.4.2). */
typedef enum axl_device_type {
    AXL_DEVICE_TYPE_CPU = 1,
    AXL_DEVICE_TYPE_GPU = 2,
    AXL_DEVICE_TYPE_ACCELERATOR = 3,
    AXL_DEVICE_TYPE_CUSTOM = 4,
    AXL_DEVICE_TYPE_AUTOMATIC = 5,
    AXL_DEVICE_TYPE_HOST = 6,
    AXL_DEVICE_TYPE_ALL = 7
} axl_device_type;

/** aspect (spec 4.6.4.3), in the order the specification lists them. */
typedef enum axl_aspect {
    AXL_ASPECT_CPU = 0,
    AXL_ASPECT_GPU,
    AXL_ASPECT_ACCELERATOR,
    AXL_ASPECT_CUSTOM,
    AXL_ASPECT_EMULATED,
    AXL_ASPECT_HOST_DEBUGGABLE,
    AXL_ASPECT_FP16,
    AXL_ASPECT_FP64,
    AXL_ASPECT_ATOMIC64,
    AXL_ASPECT_IMAGE,
    AXL_ASPECT_ONLINE_COMPILER,
    AXL_ASPECT_ONLINE_LINKER,
    AXL_ASPECT_QUEUE_PROFILING,
    AXL_ASPECT_USM_DEVICE_ALLOCATIONS,
    AXL_ASPECT_USM_HOST_ALLOCATIONS,
    AXL_ASPECT_USM_ATOMIC_HOST_ALLOCATIONS,
    AXL_ASPECT_USM_SHARED_ALLOCATIONS,
    AXL_ASPECT_USM_ATOMIC_SHARED_ALLOCATIONS,
    AXL_ASPECT_USM_SYSTEM_ALLOCATIONS,
    AXL_ASPECT_COUNT
} axl_aspect;

/** info::event_command_status (spec 4.6.6.1). */
typedef enum axl_event_status {
    AXL_EVENT_SUBMITTED = 0,
    AXL_EVENT_RUNNING = 1,
    AXL_EVENT_COMPLETE = 2
} axl_event_status;

/** info::event_profiling (spec 4.6.6.1): nanoseconds, one time base. */
typedef enum axl_profiling_info {
    AXL_PROFILING_COMMAND_SUBMIT = 0,
    AXL_PROFILING_COMMAND_START = 1,
    AXL_PROFILING_COMMAND_END = 2
} axl_profiling_info;

/** One asynchronous error (spec 4.6.5.5, 4.13), as handed to a handler. */
typedef struct axl_async_error {
    axl_status status;
    axl_event event;     /**< the failed command's event (may be stale by
                              the time the handler runs if it was released) */
    axl_queue queue;     /**< the queue the command was submitted to */
    const char *message; /**< valid during the handler call only */
} axl_async_error;

/**
 * An async_handler (spec 4.13): called by axl_queue_wait_and_throw,
 * axl_queue_throw_asynchronous and the event wait_and_throw calls, on the
 * calling thread, with every unconsumed error of the queue. `dropped`
 * counts errors that could not be kept because the error pool was full.
 */
typedef void (*axl_async_handler_fn)(const axl_async_error *errors,
                                     uint32_t count, uint32_t dropped,
                                     void *user);

typedef struct axl_async_handler {
    axl_async_handler_fn fn;
    void *user;
} axl_async_handler;

/** 1, 2 or 3 dimensions; unused trailing dimensions are 1 (or 0 for ids). */
typedef struct axl_range {
    uint32_t dims;
    size_t size[3];
} axl_range;

static inline axl_range axl_range_1d(size_t x)
{
    axl_range r = {1, {x, 1, 1}};
    return r;
}
static inline axl_range axl_range_2d(size_t x, size_t y)
{
    axl_range r = {2, {x, y, 1}};
    return r;
}
static inline axl_range axl_range_3d(size_t x, size_t y, size_t z)
{
    axl_range r = {3, {x, y, z}};
    return r;
}

#ifdef __cplusplus
}
#endif

#endif /* AXL_TYPES_H */
