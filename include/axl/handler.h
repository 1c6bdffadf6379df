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
 * commands, on a worker thread where the port has threads. It may call the
 * runtime; a call that would wait for the task itself (for a command that
 * depends on it) fails at once instead of waiting for ever
 * (AXL_ERR_BAD_STATE, or AXL_ERR_OUT_OF_RESOURCES for a creation, naming
 * the host task). A host task that waits lends its worker to the host
 * tasks queued meanwhile. Return
 * AXL_SUCCESS, or a failure (axl_fail() adds a message): the failure marks
 * the event, reaches the async handler and fails the commands that depend
 * on this one.
 */
typedef axl_status (*axl_host_task_fn)(void *user);

/** handler::depends_on(event). A complete event adds nothing (in a group
 *  recorded into a graph, an event from outside the graph is refused at
 *  submission all the same: axl/graph.h). A recorded command's event is
 *  looked up as its graph node here: a stale one is
 *  AXL_ERR_INVALID_OBJECT at once. */
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
 * The other way (an axl extension): brings the copy on the queue's device
 * up to date, as a command of its own with its own event, so a firmware
 * moves the next frame's input while this frame's kernel runs, and a
 * kernel submitted after it finds the contents there and moves nothing.
 * The accessor must be read-only (the host copy stays valid). A buffer
 * with no storage on the device gets it in the bank it was placed in
 * (axl_buffer_place), else bank 0. DPC++'s queue::prefetch(ptr, bytes) is
 * a hint for USM memory; this is a transfer the scheduler orders and
 * tracks like any other command on the buffer.
 */
axl_status axl_handler_prefetch(axl_handler *handler, axl_accessor acc);

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
 * invocations, not work-items, and a command group is one command, so
 * this is AXL_ERR_FEATURE_NOT_SUPPORTED for every kernel axl knows (they
 * are all hardware IPs). Use axl_queue_parallel_for (axl/queue.h), which
 * cuts the range into one launch per compute unit, or pass the size as an
 * argument and use single_task.
 */
axl_status axl_handler_parallel_for(axl_handler *handler, axl_range range,
                                    axl_kernel kernel);

/* ---- Kernel arguments as values ------------------------------------------ */

/** axl_kernel_arg.index meaning "the argument's position in its list":
 *  an HLS kernel's argument ids run 0..n-1 in its signature's order, so a
 *  list in that order needs no ids (XRT's `krnl(a, b, out, n)`). */
#define AXL_ARG_POS UINT32_MAX

/**
 * One kernel argument, for axl_queue_single_task and axl_handler_set_args:
 * - a buffer (value NULL and size 0): `buffer`, accessed with `mode` (0:
 *   read_write; AXL_ACCESS_WRITE_NO_INIT for no_init) over `region` (NULL:
 *   the whole buffer);
 * - a scalar: `size` bytes at `value`, or, with value NULL, the first
 *   `size` bytes of `scalar` (at most 8; the AXL_ARG_ scalars below put
 *   them there, so no variable is needed).
 * `index` is the argument's id in the kernel's metadata, or AXL_ARG_POS.
 * Write it with the constructors below, which zero what they do not set.
 */
typedef struct axl_kernel_arg {
    uint32_t index;
    const void *value;
    size_t size;
    axl_buffer buffer;
    axl_access_mode mode;
    const axl_region *region;
    union {
        unsigned char bytes[8];
        uint32_t u32;
        int32_t i32;
        uint64_t u64;
        int64_t i64;
        float f32;
        double f64;
    } scalar;
} axl_kernel_arg;

/** A buffer argument by id (or AXL_ARG_POS), whole buffer. */
static inline axl_kernel_arg axl_arg_buffer(uint32_t index, axl_buffer buffer,
                                            axl_access_mode mode)
{
    axl_kernel_arg a;
    a.index = index;
    a.value = NULL;
    a.size = 0;
    a.buffer = buffer;
    a.mode = mode;
    a.region = NULL;
    a.scalar.u64 = 0;
    return a;
}

/** A scalar argument of `size` bytes at `value` (copied at the launch). */
static inline axl_kernel_arg axl_arg_bytes(uint32_t index, const void *value,
                                           size_t size)
{
    axl_buffer none = {0};
    axl_kernel_arg a = axl_arg_buffer(index, none, (axl_access_mode)0);
    a.value = value;
    a.size = size;
    return a;
}

/* The by-value scalars: the bytes live in the argument itself. */
#define AXL__ARG_SCALAR(name, type, member)                                   \
    static inline axl_kernel_arg axl_arg_##name(uint32_t index, type v)       \
    {                                                                         \
        axl_buffer none = {0};                                                \
        axl_kernel_arg a = axl_arg_buffer(index, none, (axl_access_mode)0);   \
        a.scalar.member = v;                                                  \
        a.size = sizeof(type);                                                \
        return a;                                                             \
    }
AXL__ARG_SCALAR(u32, uint32_t, u32)
AXL__ARG_SCALAR(i32, int32_t, i32)
AXL__ARG_SCALAR(u64, uint64_t, u64)
AXL__ARG_SCALAR(i64, int64_t, i64)
AXL__ARG_SCALAR(f32, float, f32)
AXL__ARG_SCALAR(f64, double, f64)
#undef AXL__ARG_SCALAR

/** The same argument with an explicit id, for kernels whose list is not
 *  0..n-1 in order: `AXL_ARG_AT(3, AXL_ARG_U32(n))`. */
static inline axl_kernel_arg axl_arg_at(uint32_t index, axl_kernel_arg a)
{
    a.index = index;
    return a;
}

/**
 * Arguments by position, as XRT's `krnl(a, b, out, n)` reads:
 * - AXL_ARG_IN(buf): the kernel reads the buffer;
 * - AXL_ARG_OUT(buf): the kernel overwrites the whole buffer (write with
 *   no_init, 4.7.6.4: the old contents are not copied to the device, and
 *   any element the kernel does not write is unspecified afterwards);
 * - AXL_ARG_WRITE(buf): the kernel writes part of the buffer; the elements
 *   it does not write keep their contents (so they are copied in);
 * - AXL_ARG_INOUT(buf): the kernel reads and writes it;
 * - AXL_ARG_U32(v), _I32, _U64, _I64, _F32, _F64: a scalar by value;
 * - AXL_ARG_BYTES(ptr, size): any other scalar, copied at the launch;
 * - AXL_ARG_AT(id, arg): arg with an explicit id.
 */
#define AXL_ARG_IN(buf) axl_arg_buffer(AXL_ARG_POS, (buf), AXL_ACCESS_READ)
#define AXL_ARG_OUT(buf)                                                      \
    axl_arg_buffer(AXL_ARG_POS, (buf), AXL_ACCESS_WRITE_NO_INIT)
#define AXL_ARG_WRITE(buf) axl_arg_buffer(AXL_ARG_POS, (buf), AXL_ACCESS_WRITE)
#define AXL_ARG_INOUT(buf)                                                    \
    axl_arg_buffer(AXL_ARG_POS, (buf), AXL_ACCESS_READ_WRITE)
#define AXL_ARG_U32(v) axl_arg_u32(AXL_ARG_POS, (v))
#define AXL_ARG_I32(v) axl_arg_i32(AXL_ARG_POS, (v))
#define AXL_ARG_U64(v) axl_arg_u64(AXL_ARG_POS, (v))
#define AXL_ARG_I64(v) axl_arg_i64(AXL_ARG_POS, (v))
#define AXL_ARG_F32(v) axl_arg_f32(AXL_ARG_POS, (v))
#define AXL_ARG_F64(v) axl_arg_f64(AXL_ARG_POS, (v))
#define AXL_ARG_BYTES(ptr, size) axl_arg_bytes(AXL_ARG_POS, (ptr), (size))
#define AXL_ARG_AT(id, arg) axl_arg_at((id), arg)

/**
 * The group's kernel arguments from a list, as axl_queue_single_task takes
 * them: each buffer is required (axl_handler_require with the argument's
 * mode and region) and set, each scalar set, in the list's order.
 */
axl_status axl_handler_set_args(axl_handler *handler,
                                const axl_kernel_arg *args, uint32_t nargs);

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

/**
 * `list, count` of arguments written in place, for the (args, nargs)
 * parameters: `AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_U32(n))`. The list is a
 * temporary (a compound literal in C, whose life is the enclosing block;
 * in C++ an array member of a temporary, whose life is the full
 * expression), so it serves the call it is written in.
 */
#ifdef __cplusplus
template <typename... T> struct axl__arg_list {
    axl_kernel_arg a[sizeof...(T)];
};
template <typename... T> inline axl__arg_list<T...> axl__args(T... args)
{
    return {{args...}};
}
#define AXL__ARG_LIST(...) (axl__args(__VA_ARGS__).a)
#else
#define AXL__ARG_LIST(...) ((const axl_kernel_arg[]){__VA_ARGS__})
#endif
#define AXL_ARGS(...)                                                         \
    AXL__ARG_LIST(__VA_ARGS__),                                               \
        (uint32_t)(sizeof AXL__ARG_LIST(__VA_ARGS__) / sizeof(axl_kernel_arg))

#endif /* AXL_HANDLER_H */
