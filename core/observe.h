/*
 * observe.h - what trace.c offers the files that watch commands: the
 * trace hooks a command passes as it changes state, and debug logs.
 */
#ifndef AXL_OBSERVE_H
#define AXL_OBSERVE_H

#include "rt.h"
#include "event_priv.h"
#include "buffer_priv.h"
#include "sched_priv.h"
#include "handler_priv.h"
#include "devops.h"

/* What is watched, read once per submission: bit 0 tracing, bit 1 debug
 * logs. An atomic, so axl_trace_enable and axl_log_set need no lock (ports
 * call them while the runtime starts, lock held). A command submitted while
 * it is not 0 carries AXL__CMD_TRACED and/or AXL__CMD_LOGGED, and the hooks
 * where it changes state test those bits of its flags: off, each hook is
 * one test and branch. */
extern _Atomic uint8_t axl__observe;
#define AXL__OBSERVE_TRACE 1u
#define AXL__OBSERVE_DEBUG 2u
static inline bool axl__observing(void)
{
    return atomic_load_explicit(&axl__observe, memory_order_relaxed) != 0;
}
#define AXL__OBSERVED(c) (((c)->flags & (AXL__CMD_TRACED | AXL__CMD_LOGGED)) != 0)
#define AXL__TRACED(c) (((c)->flags & AXL__CMD_TRACED) != 0)

/* Lock held, at the end of c's submission (e: its event, h: its group,
 * in_order_prev: the in-order queue's previous event handle or 0): marks
 * c; when tracing, stamps its submission (and readiness, if it is ready
 * now) and notes the commands it depends on that are complete already
 * (those still running note themselves as they complete: axl__trace_dep). */
void axl__observe_submit(struct axl__command *c, const struct axl__event *e,
                         const axl_handler *h, uint32_t in_order_prev);
/* Lock held: c starts (its event's profiling start is set, if any). */
void axl__observe_start(struct axl__command *c, const struct axl__event *e);
/* Lock held: c completes with status; its trace record, written first so
 * its dependents' arrows can point at it: returns the record's ring
 * position + 1, or 0. */
uint32_t axl__observe_end(struct axl__command *c, const struct axl__event *e,
                          axl_status status);

#if AXL_TRACE_EVENTS
/* A time stamp of a traced command: t when not 0 (an event's profiling
 * time, so trace and profiling agree), else now on the clock of c's
 * device. */
static inline void axl__trace_stamp(const struct axl__command *c,
                                    uint64_t *field, uint64_t t)
{
    *field = t ? t : axl__command_now(c);
}
#define AXL__TRACE_STAMP(c, field, t)                                          \
    do {                                                                       \
        if (AXL__TRACED(c))                                                    \
            axl__trace_stamp((c), &(c)->tr.field, (t));                       \
    } while (0)
#define AXL__TRACE_SET(c, field, v)                                            \
    do {                                                                       \
        if (AXL__TRACED(c))                                                    \
            (c)->tr.field = (v);                                               \
    } while (0)
#else
#define AXL__TRACE_STAMP(c, field, t) ((void)(c), (void)(t))
#define AXL__TRACE_SET(c, field, v) ((void)(c)) /* v is not evaluated */
#endif
/* Lock held: s waited for the command whose record is at ring position
 * rec - 1. */
void axl__trace_dep(struct axl__command *s, uint32_t rec);
/* Whether recording is on (an atomic read). */
static inline bool axl__trace_on(void)
{
    return AXL_TRACE_EVENTS &&
           (atomic_load_explicit(&axl__observe, memory_order_relaxed) &
            AXL__OBSERVE_TRACE);
}
/* Lock held: buffer b was written back from location src at its last
 * release, from t0 to t1 (no command: a record of its own, on its
 * device's transfers track). */
#if AXL_TRACE_EVENTS
void axl__trace_write_back(const struct axl__buffer *b, uint8_t src,
                           uint64_t t0, uint64_t t1, axl_status status);
#else
/* No trace: nothing to record (a build that keeps dead calls, -O0, links
 * without trace.c's recorder). */
static inline void axl__trace_write_back(const struct axl__buffer *b,
                                         uint8_t src, uint64_t t0,
                                         uint64_t t1, axl_status status)
{
    (void)b, (void)src, (void)t0, (void)t1, (void)status;
}
#endif

/* One node of a traced graph submission (replay.c), recorded as the
 * command it stands for would be: its kind (AXL__CMD_KERNEL, a host
 * task's, a copy's or fill's, AXL__CMD_EMPTY), for a kernel its kernel id
 * and the run slot of its first run, when it ran (start 0: it never did)
 * and its status, and the records of what it waited for (the nodes before
 * it; a root, the commands the submission waited for). */
struct axl__trace_node {
    uint32_t node;              /* its index in the graph */
    uint8_t kind;
    uint8_t cu;                 /* kernels that ran: run slot */
    uint16_t kid;               /* kernels: kernel id slot */
    uint64_t start, end;
    uint64_t bytes;             /* its accessors' bytes */
    axl_status status;
    uint32_t dep_rec[AXL_TRACE_DEPS];
    uint8_t ndeps, deps_hidden;
};
#if AXL_TRACE_EVENTS
/* Lock held: node tn of submission c (event e) into the ring; its
 * record's position + 1 (for the arrows of the nodes after it). */
uint32_t axl__trace_graph_node(const struct axl__command *c,
                               const struct axl__event *e,
                               const struct axl__trace_node *tn);
#endif

/* A pipeline's events (pipeline.c, axl/pipeline.h), each one record of
 * the ring, on a track of its device named after the pipeline and the
 * unit ("pipeline 1: sadd_1"; unit UINT8_MAX: the pipeline's own). */
enum axl__trace_pipe_event {
    AXL__TRACE_PIPELINE_START = 1, /* value: its units */
    AXL__TRACE_UNIT_START,         /* value: its kind */
    AXL__TRACE_COMMAND_HELD,       /* value: the command's number */
    AXL__TRACE_COMMAND_RELEASED,   /* value: the command's number */
    AXL__TRACE_MAILBOX,            /* value: iterations when it returned */
    AXL__TRACE_UNIT_STOP,          /* value: iterations */
    AXL__TRACE_UNIT_STOP_TIMEOUT,  /* value: iterations */
    AXL__TRACE_PIPELINE_STOP,      /* value: units that did not stop */
    AXL__TRACE_PIPELINE_RESET,     /* value: units that did not reset */
    AXL__TRACE_FAILED              /* value: the failed command's number */
};
#if AXL_TRACE_EVENTS
void axl__trace_pipeline(uint16_t device, uint32_t pipeline, uint8_t unit,
                         const char *unit_name, uint8_t what, uint64_t value,
                         axl_status status);
#else
static inline void axl__trace_pipeline(uint16_t device, uint32_t pipeline,
                                       uint8_t unit, const char *unit_name,
                                       uint8_t what, uint64_t value,
                                       axl_status status)
{
    (void)device, (void)pipeline, (void)unit, (void)unit_name, (void)what;
    (void)value, (void)status;
}
#endif

/* A design loaded into a region of a device (swap.c, image.c;
 * docs/designs-design.md 2.6): one record of the ring, a slice on the
 * device's track for the region ("fabric"), from which an arrow goes to
 * each command the load was for. */
struct axl__image;
struct axl__trace_load {
    uint16_t device;
    uint8_t region;
    axl_status status;
    uint32_t number;                 /* the load's, since start-up */
    uint32_t commands;               /* released (or failed) by it */
    const struct axl__image *was;    /* the design before: NULL none */
    const struct axl__image *now;    /* the design loaded (or tried) */
    uint64_t t0, t1;                 /* the load, on the device's clock */
};
#if AXL_TRACE_EVENTS && AXL_FEATURE_DESIGN_SWAP
/* Lock held: the record's position + 1, for the commands' arrows
 * (axl__trace_dep); 0 when recording is off. */
uint32_t axl__trace_program(const struct axl__trace_load *l);
#else
static inline uint32_t axl__trace_program(const struct axl__trace_load *l)
{
    (void)l;
    return 0;
}
#endif

/* Logs: the level is an atomic read without the lock; a line below it
 * costs that one load and branch. axl__log formats and calls the sink. */
extern _Atomic uint8_t axl__log_level;
#if AXL_LOGS
void axl__log(int level, const char *fmt, ...) AXL__PRINTF(2, 3);
#define AXL__LOG(level, ...)                                                   \
    do {                                                                       \
        if (atomic_load_explicit(&axl__log_level, memory_order_relaxed) >=    \
            (level))                                                           \
            axl__log((level), __VA_ARGS__);                                    \
    } while (0)
#else
int axl__unformatted(const char *fmt, ...) AXL__PRINTF(1, 2);
#define AXL__LOG(level, ...)                                                   \
    ((void)(level), (void)sizeof axl__unformatted(__VA_ARGS__))
#endif
#define AXL__LOG_ERROR 1
#define AXL__LOG_WARN 2
#define AXL__LOG_INFO 3
#define AXL__LOG_DEBUG 4
/* For logs: a kernel's name, else the kind's. */
const char *axl__command_label(const struct axl__command *c);

#endif /* AXL_OBSERVE_H */
