/*
 * pipeline_priv.h - what pipeline.c (axl/pipeline.h) offers the rest of
 * the core: its object, for the pool's storage (runtime.c), and the one
 * hook each other file calls where a command on a unit of a pipeline
 * passes: the checker at submit (launch.c), the commit (sched.c), the
 * dispatch onto a unit and its hand-off (cu.c), the completion
 * (sched.c), the timeouts (cu.c) and the design a pipeline holds
 * (bundle.c). With AXL_FEATURE_STREAMS 0 the hooks are inline stubs and
 * a kernel with stream ports is refused at submit, naming the switch.
 */
#ifndef AXL_PIPELINE_PRIV_H
#define AXL_PIPELINE_PRIV_H

#include "rt.h"
#include "device_priv.h"
#include "queue_priv.h"
#include "sched_priv.h"
#include "handler_priv.h"
#include "kernel.h"
#include "image.h"

/* A command's standing with its pipeline (c->u.kernel.pipe_flags). */
enum {
    AXL__PIPE_QUEUED = 1u << 0,  /* counted in hal.queued: the port has not
                                    been given its run */
    AXL__PIPE_RUNNING = 1u << 1, /* its run is on the unit */
    AXL__PIPE_HELD = 1u << 2     /* in the pipeline's held FIFO */
};

#if AXL_FEATURE_STREAMS

#include "axl/pipeline.h"

/* One unit of a pipeline. Its scalars (free-running and auto-restart
 * units) are kept here until start and given to the port then. */
struct axl__pipe_scalar {
    uint16_t id;                /* the argument's id */
    uint8_t size;               /* bytes, at most 8 */
    bool set;
    uint8_t bytes[8];
};

struct axl__pipeline_unit {
    uint16_t ip;                /* IP_LAYOUT index */
    uint16_t kid;               /* its kernel id's slot */
    uint8_t ordinal;            /* which unit of its kernel */
    uint8_t kind;               /* axl_pipeline_unit_kind */
    uint8_t state;              /* axl_pipeline_unit_state */
    uint8_t running;            /* command units: a run on the port */
    uint8_t nscalars;
    uint32_t down;              /* units downstream of it (bit = index) */
    uint32_t commands;          /* commands it ran */
    uint64_t held_at;           /* runtime clock: its oldest held
                                   command was held then (0: none held) */
    struct axl__pipe_scalar scalar[AXL_MAX_KERNEL_ARGS];
    char name[48];              /* its instance, "sadd_1" */
};

struct axl__pipeline {
    uint16_t holds;             /* commands on it, calls inside the port */
    uint16_t bundle;            /* slot; held (its design stays) */
    uint16_t device;            /* slot */
    uint16_t image;             /* slot of the design */
    uint8_t state;              /* axl_pipeline_state */
    uint8_t nunits;             /* in start order: consumers first */
    uint8_t npipes;
    bool busy;                  /* a call is inside the port with it */
    bool open;                  /* the port's pipeline_open succeeded */
    uint64_t start_timeout, stop_timeout;
#if AXL_FEATURE_GRAPHS
    uint32_t queue;             /* handle of the queue it was made on (weak:
                                   while it records a graph, start and
                                   stop are recorded, graph.c) */
    uint32_t rec_graph;         /* the graph a start of it was recorded in
                                   last, or 0 */
    uint32_t rec_start;         /* that start's node handle while no stop
                                   is recorded after it, else 0 */
    bool replayed;              /* a replay's start node started it: one
                                   command counted in hal.queued until it
                                   stops (on_replay) */
#endif
    struct axl__cmd_fifo held;  /* commands waiting for their consumers */
    struct axl__pipeline_unit unit[AXL_MAX_PIPELINE_UNITS];
    uint32_t pipe[AXL_MAX_PIPELINE_PIPES]; /* the design's stream indices */
    axl_hal_pipeline_unit hunit[AXL_MAX_PIPELINE_UNITS];
    axl_hal_pipeline hal;       /* what the port sees */
};

/* A kernel with stream arguments at submit (lock held): a stream argument
 * set by the host is refused, naming its stream and connection; the
 * command's one unit must be a command unit of a started pipeline. Sets
 * *pipe (the pipeline's slot + 1) and *unit. */
axl_status axl__pipeline_check_launch(const char *fn, struct axl__queue *q,
                                      const axl_handler *h,
                                      const struct axl__kernel *kn,
                                      const struct axl__kernel_id *kid,
                                      uint8_t *pipe, uint8_t *unit);
/* What the scheduler, the units and the bundles ask of pipelines, set by
 * the first axl_pipeline_create (lock held) and read with the lock held:
 * until a pipeline exists no command is on one, so each call is a no-op,
 * and a firmware that never creates a pipeline links none of pipeline.c
 * (about 12 KiB of Thumb-2 code on the R5; only the launch check below,
 * which refuses a stream argument in any build, is linked directly). */
struct axl__pipeline_hooks {
    /* c, a command on a pipeline unit, is committed: a command to come. */
    void (*committed)(struct axl__command *c);
    /* At dispatch (lock held): true when c does not go on now, held
     * until its consumers start, or failed (its pipeline stopped). */
    bool (*hold)(struct axl__command *c);
    /* c's run is with the port now (lock held, after run_start): its
     * unit has started, and commands held for it may go. */
    void (*dispatched)(struct axl__command *c);
    /* c completes (lock held, from complete()). */
    void (*ended)(struct axl__command *c, axl_status status,
                  const char *why);
    /* Held commands past their start timeout fail (lock held); the
     * earliest such deadline, runtime clock (UINT64_MAX: none). */
    unsigned (*check_timeouts)(uint64_t now);
    uint64_t (*next_deadline)(void);
    /* A live pipeline holding bundle slot b on device d (bundle.c's
     * design_held names it). */
    bool (*holds)(uint16_t b, const struct axl__device *d,
                  uint32_t *handle);
#if AXL_FEATURE_GRAPHS
    /* A replay's start or stop node of pipeline `handle` (no lock held,
     * a host-task worker): the pipeline started or stopped now. */
    axl_status (*replay)(uint32_t handle, bool start);
#endif
};
extern const struct axl__pipeline_hooks *axl__pipeline_hooks; /* runtime.c */

static inline void axl__pipeline_committed(struct axl__command *c)
{
    if (axl__pipeline_hooks)
        axl__pipeline_hooks->committed(c);
}
static inline bool axl__pipeline_hold(struct axl__command *c)
{
    return axl__pipeline_hooks && axl__pipeline_hooks->hold(c);
}
static inline void axl__pipeline_dispatched(struct axl__command *c)
{
    if (axl__pipeline_hooks)
        axl__pipeline_hooks->dispatched(c);
}
static inline void axl__pipeline_ended(struct axl__command *c,
                                       axl_status status, const char *why)
{
    if (axl__pipeline_hooks)
        axl__pipeline_hooks->ended(c, status, why);
}
static inline unsigned axl__pipeline_check_timeouts(uint64_t now)
{
    return axl__pipeline_hooks ? axl__pipeline_hooks->check_timeouts(now)
                               : 0;
}
static inline uint64_t axl__pipeline_next_deadline(void)
{
    return axl__pipeline_hooks ? axl__pipeline_hooks->next_deadline()
                               : UINT64_MAX;
}
static inline bool axl__pipeline_holds(uint16_t b,
                                       const struct axl__device *d,
                                       uint32_t *handle)
{
    return axl__pipeline_hooks && axl__pipeline_hooks->holds(b, d, handle);
}

#else /* !AXL_FEATURE_STREAMS */

axl_status axl__pipeline_check_launch(const char *fn, struct axl__queue *q,
                                      const axl_handler *h,
                                      const struct axl__kernel *kn,
                                      const struct axl__kernel_id *kid,
                                      uint8_t *pipe, uint8_t *unit);
static inline void axl__pipeline_committed(struct axl__command *c)
{
    (void)c;
}
static inline bool axl__pipeline_hold(struct axl__command *c)
{
    (void)c;
    return false;
}
static inline void axl__pipeline_dispatched(struct axl__command *c)
{
    (void)c;
}
static inline void axl__pipeline_ended(struct axl__command *c,
                                       axl_status status, const char *why)
{
    (void)c, (void)status, (void)why;
}
static inline unsigned axl__pipeline_check_timeouts(uint64_t now)
{
    (void)now;
    return 0;
}
static inline uint64_t axl__pipeline_next_deadline(void)
{
    return UINT64_MAX;
}
static inline bool axl__pipeline_holds(uint16_t b,
                                       const struct axl__device *d,
                                       uint32_t *handle)
{
    (void)b, (void)d, (void)handle;
    return false;
}

#endif /* AXL_FEATURE_STREAMS */

#endif /* AXL_PIPELINE_PRIV_H */
