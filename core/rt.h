/*
 * rt.h - what every core file shares: the typed references to pooled
 * objects, the runtime state and its lock, the entry into a call, handle
 * lookup and messages. Nothing here is public. Each concept declares what
 * other files may use of it in a private header beside its file, and a
 * file includes the headers of what it uses (a new call between modules
 * shows as a new include):
 *   device_priv.h    platforms and devices (platform.c, device.c)
 *   cu.h             compute units and their runs (cu.c)
 *   context_priv.h, queue_priv.h, event_priv.h: those objects
 *   buffer_priv.h    buffers, their locations, host accessors (buffer.c)
 *   access.h         accessor records and regions (access.c, region.c)
 *   transfer.h       moving bytes (transfer.c)
 *   sched_priv.h     commands, the scheduler, waits, errors (sched.c)
 *   handler_priv.h   the handler a command group fills (handler.c)
 *   kernel.h         kernel objects and the launch checker (kernel.c,
 *                    launch.c)
 *   room.h           room in a full pool (room.c)
 *   image.h, bundle.h, place.h: designs, kernel ids, bundles, placements
 *   graph_priv.h, replay.h, exec.h: graphs, their replay, the executor
 *   pipeline_priv.h  streaming pipelines (pipeline.c)
 *   observe.h        trace hooks and logs (trace.c)
 *   devops.h         calling a device port's ops
 *   objects.h        every object header, for what sizes every pool
 * The pools are pool.h and pools.h; the capacities axl_config.h. Headers
 * named _priv have a public namesake in include/axl/ (or, sched_priv.h,
 * in the C library).
 *
 * Locking: one runtime lock (axl_port_lock) guards every object and list
 * of the core. It is never held while the core calls a device-port op, a
 * kernel model or application code (selectors, command groups, host
 * tasks, async handlers). A field read without it says so beside the field, with what
 * makes that safe: it is fixed while anyone can read it unlocked (a
 * buffer's mutex and host storage, an access record's flags, loc and src
 * once committed, a running unit's run and args), or it is atomic (an
 * event's state, a unit's phase). Everything else is the lock's, read and
 * written only with it held; `tsan` (CMakePresets.json) checks this over
 * the host suite.
 *
 * Who holds what during a call-out (the lock is dropped, so anything the
 * call-out or another thread does may happen meanwhile):
 *  - The caller keeps a hold (`holds`, not `refs`) on every object whose
 *    memory the call-out reads or whose slot it must find again: an event
 *    a waiter reads, a queue whose errors a handler receives, error
 *    records a handler reads, the buffers of a command whose transfer
 *    runs, and around a buffer allocator (host storage: axl__commit,
 *    axl_queue_submit_graph) the group's buffers, its kernel and, for a
 *    graph, its queue. A hold keeps the slot from being reused; the
 *    application's release of the object still succeeds, and a second
 *    release is AXL_ERR_INVALID_OBJECT. After the call-out the caller
 *    re-reads what it needs through what it holds, never through a
 *    pointer it computed before, and looks up again by handle what it
 *    does not hold.
 *  - A run belongs to its compute unit from dispatch to the port's one
 *    axl_hal_run_done: the unit (struct axl__cu) keeps the command slot,
 *    the hal run and its arguments, and only the thread that gets the run
 *    back frees the unit (the dispatcher, when the run ended inside
 *    run_start or never started; else axl_hal_run_done's caller). A
 *    timeout only *abandons* the run: it completes the command's event
 *    with AXL_ERR_TIMEOUT once (cu->abandoned), and asks the port to
 *    cancel (cu->cancel_asked); a run has no deadline until its
 *    dispatcher is out of run_start. The command slot and the unit return
 *    when the run does.
 *  - Device ports may take the lock for their own short sections
 *    (allocators, the emulator's unit table), never across a model or a
 *    call into the core.
 */
#ifndef AXL_RT_H
#define AXL_RT_H

#include <stdatomic.h>
#include <string.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "axl/axl.h"
#include "axl/hal.h"
#include "axl_config.h"
#include "pool.h"
#include "pools.h"

/* ---- References ---------------------------------------------------------- */

/* A reference inside the core to an object of pool <name> (pools.h):
 * axl__<name>_ref, its slot + 1, 0 = none. One struct per pool, the size
 * of the uint16_t it replaces (no slot is reserved: slot 0 is a pool's
 * first object), so a reference to a queue cannot stand where one to a
 * buffer is expected, and no "+ 1" / "- 1" is written by hand. Made by
 * axl__<name>_ref_of(obj) (NULL: none), read by axl__<name>_deref(r)
 * (a reference that is set); AXL__NO_REF initialises one to none,
 * AXL__IS_REF(r) tests it. */
#define AXL__POOL_REF_TYPE(KIND, name, ...)                                    \
    typedef struct axl__##name##_ref {                                         \
        uint16_t slot1;                                                        \
    } axl__##name##_ref;
AXL__POOL_LIST(AXL__POOL_REF_TYPE)
#undef AXL__POOL_REF_TYPE
#define AXL__NO_REF {0}
/* What a reference costs is what the "± 1" it replaces cost: its helpers
 * are inlined even where -Os would keep one copy per file and call it. */
#if defined(__GNUC__)
#define AXL__REF_INLINE static inline __attribute__((always_inline))
#else
#define AXL__REF_INLINE static inline
#endif
#define AXL__IS_REF(r) ((r).slot1 != 0)
/* The none reference of pool <name>, as a value. */
#define AXL__NONE(name) ((axl__##name##_ref)AXL__NO_REF)

/* The pools' object types, declared here and defined in the header of
 * their concept (device_priv.h, buffer_priv.h, sched_priv.h, ...): a file
 * that only passes an object by pointer, or names it by reference, needs
 * no more. */
#define AXL__POOL_DECLARE(KIND, name, type, ...) type;
AXL__POOL_LIST(AXL__POOL_DECLARE)
#undef AXL__POOL_DECLARE

/* A FIFO of commands, linked through their `next`. A command is in at most
 * one at a time, so one link serves them all: the barrier FIFO until no
 * earlier command is in flight, then the ready FIFO, then the host-task
 * FIFO or, while every unit it may run on is busy, the unit wait FIFO,
 * which goes back to the ready FIFO when a unit comes free. */
struct axl__cmd_fifo {
    axl__command_ref head, tail;
};

/* ---- The runtime ----------------------------------------------------------- */

struct axl__runtime {
    bool started;
    bool stopping;
    uint32_t seq;                          /* last submission number */
    struct axl__cmd_fifo ready;            /* commands ready to dispatch */
    struct axl__cmd_fifo host;             /* host tasks waiting for a worker */
    struct axl__cmd_fifo barriers;         /* barrier commands, in order */
    axl__command_ref inflight_head, inflight_tail; /* incomplete, in
                                              submission order */
    uint32_t waiters;                      /* threads blocked on DONE */
    _Atomic uint32_t start_waits;          /* of them, waits for a
                                              command's start (4.6.6's
                                              command_start): a start
                                              made without the lock (a
                                              graph's first node) reads
                                              it to know it must wake */
    uint32_t kernels_gone, buffers_gone;   /* kernels and buffers the
                                              application released (the
                                              only way their handles stop
                                              working): one that saw the
                                              same counts knows every
                                              handle it checked still
                                              works */
    bool shutting_down;                    /* axl_shutdown is waiting */
    uint32_t gave_up;                      /* runs it abandoned */
    char gave_up_what[96];                 /* the first of them */
    unsigned workers;                      /* host-task threads running */
    unsigned worker_ids;                   /* numbers given to workers */
    unsigned idle_workers;                 /* workers waiting for work */
    axl_clock_fn clock;
    void *clock_user;
    uint32_t nports;
    const axl_device_port *ports[AXL_MAX_PLATFORMS];
    axl__buffer_ref zombie_head;           /* buffers to free, outside the lock */
    struct axl__cmd_fifo cu_wait;          /* kernels waiting for a free unit */
    axl_arena host_arena;                  /* the default host allocator */
    uint64_t reserved_bytes;               /* device memory of released
                                              buffers that runs given up at
                                              their timeout keep (the
                                              statistics' last row) */
    uint64_t reserved_high;                /* its high-water mark */
    uint16_t hung_units;                   /* units cu.c calls hung */
#if AXL_FEATURE_DESIGN_SWAP
    uint16_t swap_wants;                   /* regions with commands waiting
                                              for a design (core/swap.c):
                                              waits and workers look */
    uint16_t loading;                      /* regions loading now */
    uint32_t loads, load_fails;            /* reprogrammings since start-up
                                              (axl_stats_get's last row) */
#endif
    axl__command_ref running;              /* host tasks running now,
                                              linked by u.host.next_running
                                              (the waits that can never
                                              end: sched.c) */
#if AXL_FEATURE_GRAPHS
    axl_arena graph_tables;                /* executable graphs' plans
                                              (plan.c; set up at first
                                              use) */
    _Atomic uint8_t replay_kick;           /* a graph's submission has a
                                              claim nobody drives (an
                                              interrupt's run end, a kick
                                              under the lock): the next
                                              pump or wait drives it */
    _Atomic uint8_t unit_waits;            /* a kernel command waits in
                                              cu_wait for a unit a graph's
                                              run may hold: its release
                                              takes the lock to look */
    uint32_t host_nodes[AXL_MAX_GRAPH_NODES]; /* graphs' host-task nodes
                                              waiting for a worker, a ring
                                              (exec slot << 16 | node):
                                              a node is in it once at
                                              most, and every one is a
                                              graph node */
    uint32_t host_nodes_head, host_nodes_count;
#endif
};

extern struct axl__runtime axl__rt;
extern axl__pool axl__pools[AXL__POOL_COUNT];

#define AXL__POOL(KIND) (&axl__pools[AXL__POOL_##KIND])

/* What a runtime-only pool's objects are named by: nothing outside the
 * core, so nothing can pass one where a public handle is expected. */
typedef struct axl__no_handle {
    uint32_t id;
} axl__no_handle;

/* Typed slot access, one per pool (pools.h): axl__<name>_at(slot). */
#define AXL__POOL_AT(KIND, name, type, ...)                                    \
    static inline type *axl__##name##_at(uint16_t s)                           \
    {                                                                          \
        return (type *)axl__pool_at(AXL__POOL(KIND), s);                       \
    }
AXL__POOL_LIST(AXL__POOL_AT)
#undef AXL__POOL_AT
/* References (see "References" above): axl__<name>_ref_of(obj),
 * axl__<name>_ref_at(slot) when the slot is known (no division),
 * axl__<name>_deref(r), the object of a reference that is set (test
 * AXL__IS_REF first where it may be none), axl__<name>_ref_slot(r), its
 * slot, and axl__<name>_ref_eq(a, b). */
#define AXL__POOL_REF_FN(KIND, name, type, ...)                                \
    AXL__REF_INLINE axl__##name##_ref axl__##name##_ref_at(uint16_t s)         \
    {                                                                          \
        axl__##name##_ref r = {(uint16_t)(s + 1u)};                            \
        return r;                                                              \
    }                                                                          \
    static inline axl__##name##_ref axl__##name##_ref_of(const type *o)        \
    {                                                                          \
        axl__##name##_ref r = AXL__NO_REF;                                     \
        if (o)                                                                 \
            r.slot1 = (uint16_t)(axl__pool_slot(AXL__POOL(KIND), o) + 1u);     \
        return r;                                                              \
    }                                                                          \
    AXL__REF_INLINE type *axl__##name##_deref(axl__##name##_ref r)             \
    {                                                                          \
        return axl__##name##_at((uint16_t)(r.slot1 - 1u));                     \
    }                                                                          \
    AXL__REF_INLINE uint16_t axl__##name##_ref_slot(axl__##name##_ref r)       \
    {                                                                          \
        return (uint16_t)(r.slot1 - 1u);                                       \
    }                                                                          \
    AXL__REF_INLINE bool axl__##name##_ref_eq(axl__##name##_ref a,             \
                                              axl__##name##_ref b)             \
    {                                                                          \
        return a.slot1 == b.slot1;                                             \
    }
AXL__POOL_LIST(AXL__POOL_REF_FN)
#undef AXL__POOL_REF_FN

#define AXL__SLOT(KIND, obj) axl__pool_slot(AXL__POOL(KIND), (obj))
/* The slot a handle that resolved names (no division, unlike AXL__SLOT). */
#define AXL__HANDLE_SLOT(id) ((uint16_t)(((id) & AXL__HANDLE_INDEX_MASK) - 1u))
#define AXL__HANDLE(KIND, obj) axl__pool_handle(AXL__POOL(KIND), (obj))

/* ---- Entry, messages, handles ---------------------------------------------- */

/* Starts the runtime, lock held; on failure lets the lock go. */
axl_status axl__start(const char *fn);
/* Takes the lock, starting the runtime first if needed. On failure the lock
 * is not held. Inline, as every call's entry; in builds for size (-Os) a
 * function of runtime.c, so callers do not each keep a copy. */
#if defined(__OPTIMIZE_SIZE__) && !defined(AXL__RUNTIME_IMPL)
axl_status axl__enter(const char *fn);
#else
#if defined(__OPTIMIZE_SIZE__)
#define AXL__ENTER_FN
#else
#define AXL__ENTER_FN static inline
#endif
AXL__ENTER_FN axl_status axl__enter(const char *fn)
{
    axl_port_lock();
    if (axl__rt.started)
        return AXL_SUCCESS;
    return axl__start(fn);
}
#undef AXL__ENTER_FN
#endif
static inline void axl__leave(void)
{
    axl_port_unlock();
}

/* Writes "fn: <text>" as the calling thread's message; returns status.
 * With AXL_MESSAGES 0 the message is "fn: <status name>": the format and
 * its arguments stay in the source, checked by the compiler inside a
 * sizeof, and are neither evaluated nor compiled in. */
#if defined(__GNUC__)
#define AXL__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define AXL__PRINTF(f, a)
#endif
/* A function off the launch path that a hot caller must not inline (its
 * frame and registers would be the caller's on every launch); and a small
 * helper of the launch path that stays inline there when a cold function
 * calls it too (else the compiler may keep one copy and call it). */
#if defined(__GNUC__) && !defined(__OPTIMIZE_SIZE__)
#define AXL__COLD __attribute__((noinline, cold))
#define AXL__HOT_INLINE static inline __attribute__((always_inline))
#elif defined(__GNUC__) /* for size: one copy, called */
#define AXL__COLD __attribute__((noinline, cold))
#define AXL__HOT_INLINE static inline
#else
#define AXL__COLD
#define AXL__HOT_INLINE static inline
#endif
/* A function of a hot path kept out of its caller, so the caller saves
 * no registers on its own fast path. */
#if defined(__GNUC__)
#define AXL__NOINLINE __attribute__((noinline))
#else
#define AXL__NOINLINE
#endif
/* Marks a static function that only messages use: with AXL_MESSAGES 0 it
 * is named only inside a sizeof, which clang reports as not needed. */
#if defined(__GNUC__)
#define AXL__MESSAGE_ONLY __attribute__((unused))
#else
#define AXL__MESSAGE_ONLY
#endif
#if AXL_MESSAGES
axl_status axl__fail(const char *fn, axl_status status, const char *fmt, ...)
    AXL__PRINTF(3, 4);
/* axl__fail whose message ends with `quote` (another message: the error
 * it comes from), which gives way in its middle if the whole would not
 * fit (axl_format_quote). */
axl_status axl__fail_quote(const char *fn, axl_status status,
                           const char *quote, const char *fmt, ...)
    AXL__PRINTF(4, 5);
#else
axl_status axl__fail_status(const char *fn, axl_status status);
int axl__unformatted(const char *fmt, ...) AXL__PRINTF(1, 2);
#define axl__fail(fn, status, ...)                                             \
    ((void)sizeof axl__unformatted(__VA_ARGS__), axl__fail_status(fn, status))
#define axl__fail_quote(fn, status, quote, ...)                                \
    ((void)sizeof axl__unformatted(__VA_ARGS__), (void)(quote),                \
     axl__fail_status(fn, status))
#endif
/* axl__fail passing on another call's message whole (or, if the prefix
 * leaves no room, with its middle given way). */
#define axl__fail_as(fn, status, message)                                      \
    axl__fail_quote(fn, status, message, "%s", "")

/* The text of an asynchronous error: axl__why formats it into a buffer of
 * cap bytes, AXL__TEXT is a fixed one. With AXL_MESSAGES 0 both are empty
 * and the error's message is its status name. */
#if AXL_MESSAGES
#define axl__why axl_format
#define axl__why_quote axl_format_quote
#define AXL__TEXT(s) (s)
#else
#define axl__why(buf, cap, ...)                                                \
    ((void)sizeof axl__unformatted(__VA_ARGS__),                               \
     (void)((cap) ? ((buf)[0] = '\0') : 0))
#define axl__why_quote(buf, cap, quote, tail, ...)                             \
    ((void)(quote), (void)(tail), axl__why(buf, cap, __VA_ARGS__))
#define AXL__TEXT(s) ""
#endif

/* A call of a part of the API the build switched off (the feature
 * switches of core/axl_config.h): AXL_ERR_FEATURE_NOT_SUPPORTED with
 * "fn: switched off in this build (<setting> 0)", nothing changed.
 * AXL__SWITCH(AXL_FEATURE_X, fn) at the top of a public function returns
 * it when the switch is 0; the compiler then drops the rest of the
 * function and every static helper only it calls. */
#if AXL_MESSAGES
axl_status axl__switched_off(const char *fn, const char *setting);
#else
#define axl__switched_off(fn, setting)                                         \
    axl__fail_status(fn, AXL_ERR_FEATURE_NOT_SUPPORTED)
#endif
#define AXL__SWITCH(on, fn)                                                    \
    do {                                                                       \
        if (!(on))                                                             \
            return axl__switched_off(fn, #on);                                 \
    } while (0)

/* AXL_ERR_INVALID with "fn: <what> must not be NULL". */
axl_status axl__null(const char *fn, const char *what);

/* Resolves a handle of a pool kind, or fails with a message saying which
 * argument and why. axl__lookup is one function; axl__lookup_fast is the
 * same, inline, for the launch path (submit, the kernel of single_task,
 * wait and release of an event). In builds for size (-Os) it is
 * axl__lookup too: a copy per caller costs more there than a call. */
void *axl__lookup(const char *fn, const char *what, int kind, uint32_t id,
                  axl_status *st);
void *axl__lookup_slow(const char *fn, const char *what, int kind,
                       uint32_t id, axl_status *st);
#if defined(__OPTIMIZE_SIZE__)
#define axl__lookup_fast axl__lookup
#else
static inline void *axl__lookup_fast(const char *fn, const char *what,
                                     int kind, uint32_t id, axl_status *st)
{
    void *obj = axl__pool_get(&axl__pools[kind], id);
    if (obj) {
        *st = AXL_SUCCESS;
        return obj;
    }
    return axl__lookup_slow(fn, what, kind, id, st);
}
#endif

/* axl__enter, then axl__lookup: the object with the lock held, or NULL
 * with *st set and the lock not held (the start of most calls that take a
 * handle). */
void *axl__enter_get(const char *fn, const char *what, int kind, uint32_t id,
                     axl_status *st);

/* Out-parameters. Every public call that writes its result through a
 * pointer checks it here, in its entry step, before the lock is taken: a
 * NULL one is AXL_ERR_INVALID with "fn: <parameter> must not be NULL" and
 * nothing held or changed. axl__need_out is the one check (a call with a
 * second out-parameter calls it for that one); the entry steps below take
 * the call's out-parameter by name (AXL__OUT) and run it first. */
axl_status axl__need_out(const char *fn, const void *out, const char *what);
axl_status axl__enter_out(const char *fn, const void *out, const char *what);
void *axl__enter_get_out(const char *fn, const char *what, int kind,
                         uint32_t id, axl_status *st, const void *out,
                         const char *out_what);
/* The entry steps of a call that makes an object of pool `room`: the
 * same, with room made in that pool (axl__room) once the lock is held and
 * before the handle is looked up, since making room may wait with the
 * lock dropped. */
axl_status axl__enter_out_room(const char *fn, const void *out,
                               const char *what, int room);
void *axl__enter_get_out_room(const char *fn, const char *what, int kind,
                              uint32_t id, axl_status *st, const void *out,
                              const char *out_what, int room);
/* The out-parameter and its name, as the entry steps above take them:
 * axl__enter_out(fn, AXL__OUT(backend)). Without messages the name is not
 * compiled in. */
#if AXL_MESSAGES
#define AXL__OUT(param) (param), #param
#else
#define AXL__OUT(param) (param), NULL
#endif

/* A pool-full failure naming the pool and its setting. */
axl_status axl__pool_full(const char *fn, int kind);

/* Without messages the name of the argument a lookup or a NULL check is
 * about is not needed: these pass NULL instead, so the names are not
 * compiled in. (runtime.c defines the functions with their names in
 * parentheses, which these macros leave alone.) */
#if !AXL_MESSAGES
#define axl__null(fn, what) axl__fail_status(fn, AXL_ERR_INVALID)
#define axl__lookup(fn, what, kind, id, st) axl__lookup(fn, NULL, kind, id, st)
#define axl__enter_get(fn, what, kind, id, st)                                 \
    axl__enter_get(fn, NULL, kind, id, st)
#define axl__enter_get_out(fn, what, ...)                                      \
    axl__enter_get_out(fn, NULL, __VA_ARGS__)
#define axl__enter_get_out_room(fn, what, ...)                                 \
    axl__enter_get_out_room(fn, NULL, __VA_ARGS__)
#if !defined(__OPTIMIZE_SIZE__)
#define axl__lookup_fast(fn, what, kind, id, st)                               \
    axl__lookup_fast(fn, NULL, kind, id, st)
#endif
#endif

/* Typed, checked lookups and entries, one set per pool (pools.h), so
 * that a queue passed where a buffer is expected does not compile:
 *  - axl__<name>_get(fn, handle, &st): the object, or NULL with *st and
 *    the message (axl__lookup, "what" from the pool list);
 *  - axl__<name>_enter(fn, handle, &st): the same with the lock taken
 *    first (axl__enter_get); on failure the lock is not held;
 *  - axl__<name>_enter_out(fn, handle, &st, AXL__OUT(out)): the same
 *    after checking the call's out-parameter (axl__enter_get_out). */
#define AXL__POOL_GET(KIND, name, type, cap, handle, what, owner)              \
    static inline type *axl__##name##_get(const char *fn, handle h,            \
                                          axl_status *st)                      \
    {                                                                          \
        return (type *)axl__lookup(fn, what, AXL__POOL_##KIND, h.id, st);      \
    }                                                                          \
    static inline type *axl__##name##_enter(const char *fn, handle h,          \
                                            axl_status *st)                    \
    {                                                                          \
        return (type *)axl__enter_get(fn, what, AXL__POOL_##KIND, h.id, st);   \
    }                                                                          \
    static inline type *axl__##name##_enter_out(                               \
        const char *fn, handle h, axl_status *st, const void *out,             \
        const char *out_what)                                                  \
    {                                                                          \
        return (type *)axl__enter_get_out(fn, what, AXL__POOL_##KIND, h.id,    \
                                          st, out, out_what);                  \
    }                                                                          \
    static inline type *axl__##name##_enter_out_room(                          \
        const char *fn, handle h, axl_status *st, const void *out,             \
        const char *out_what, int room)                                        \
    {                                                                          \
        return (type *)axl__enter_get_out_room(fn, what, AXL__POOL_##KIND,     \
                                               h.id, st, out, out_what, room); \
    }
AXL__POOL_LIST(AXL__POOL_GET)
#undef AXL__POOL_GET

/* axl__<name>_obj: the object type of pool <name>. */
#define AXL__POOL_TYPE(KIND, name, type, ...) typedef type axl__##name##_obj;
AXL__POOL_LIST(AXL__POOL_TYPE)
#undef AXL__POOL_TYPE
/* The entry sequence of a public call on one object, in one line: declares
 * `axl_status st` and `var`, the object of pool `name` behind handle h
 * with the lock held, and returns st from the call when the lock could
 * not be had or h does not resolve (nothing held then). The call's `fn`
 * must be in scope. AXL__ENTER_OUT checks the out-parameter `out` first. */
#define AXL__ENTER(name, var, h)                                               \
    axl_status st;                                                             \
    axl__##name##_obj *var = axl__##name##_enter(fn, (h), &st);        \
    if (!var)                                                                  \
    return st
#define AXL__ENTER_OUT(name, var, h, out)                                      \
    axl_status st;                                                             \
    axl__##name##_obj *var =                                           \
        axl__##name##_enter_out(fn, (h), &st, AXL__OUT(out));                  \
    if (!var)                                                                  \
    return st
/* AXL__ENTER_OUT for a call that makes an object of pool ROOM (a pool
 * kind: KERNEL, KERNEL_BUNDLE, ...): room is made there first. */
#define AXL__ENTER_OUT_ROOM(name, var, h, out, ROOM)                           \
    axl_status st;                                                             \
    axl__##name##_obj *var = axl__##name##_enter_out_room(                     \
        fn, (h), &st, AXL__OUT(out), AXL__POOL_##ROOM);                        \
    if (!var)                                                                  \
    return st

/* Copies a value into the caller's buffer under the size-in/size-out
 * rules of get_info. */
axl_status axl__info_out(const char *fn, const void *src, size_t size,
                         void *value, size_t value_size, size_t *size_ret);
axl_status axl__info_str(const char *fn, const char *s, void *value,
                         size_t value_size, size_t *size_ret);
/* List outputs: out == NULL asks the count; cap too small fails. */
axl_status axl__list_check(const char *fn, uint32_t n, const void *out,
                           uint32_t cap, uint32_t *count);

uint64_t axl__now(void);

#endif /* AXL_RT_H */
