/*
 * sched_priv.h - the scheduler (sched.c): commands (their kinds, flags,
 * edges and actions), the FIFOs that carry them, asynchronous errors,
 * and what the rest of the core calls of sched.c: making a group's
 * command, completing it, pumping, waiting (and the waits that can never
 * end) and delivering errors.
 */
#ifndef AXL_SCHED_PRIV_H
#define AXL_SCHED_PRIV_H

#include "access.h"
#include "event_priv.h"

enum axl__command_kind {
    AXL__CMD_HOST_TASK = 1,
    AXL__CMD_HOST_ACCESS,   /* a host accessor: "runs" until released */
    AXL__CMD_COPY_TO_HOST,  /* accessor -> application memory */
    AXL__CMD_COPY_FROM_HOST,/* application memory -> accessor */
    AXL__CMD_COPY,          /* accessor -> accessor */
    AXL__CMD_FILL,
    AXL__CMD_UPDATE_HOST,
    AXL__CMD_PREFETCH,      /* accessor -> the queue's device */
    AXL__CMD_EMPTY,         /* a group with no action (4.9.3): done once
                               what it depends on is (a barrier) */
    AXL__CMD_KERNEL,        /* single_task on a compute unit */
    AXL__CMD_REPLAY,        /* a submission of an executable graph's plan
                               (replay.c): one command, no command per
                               node; the executor runs its nodes */
    AXL__CMD_PIPE_START,    /* graph nodes only: a recorded
                               axl_pipeline_start, run at each replay */
    AXL__CMD_PIPE_STOP      /* graph nodes only: its axl_pipeline_stop */
};

enum axl__command_flags {
    AXL__CMD_BARRIER = 1u << 0,  /* waits for every earlier command */
    AXL__CMD_INFLIGHT = 1u << 1, /* in the submission-order list */
    AXL__CMD_XFER = 1u << 2,     /* an accessor moves data first (XFER) */
    AXL__CMD_TRACED = 1u << 3,   /* tracing was on at submission: tr is
                                    filled and a record is made at the end */
    AXL__CMD_LOGGED = 1u << 4,   /* debug logs were on at submission */
    AXL__CMD_KEEP_SLOT = 1u << 5, /* abandoned run: completing the event
                                    leaves the slot to the run's owner */
    AXL__CMD_SWAPPED = 1u << 6,  /* released by the swap that loaded its
                                    design: past the barrier of the next
                                    waiter (swap.c; one swap per design
                                    change, however many commands) */
    AXL__CMD_AFTER_GRAPH = 1u << 8 /* waits for a graph's submission through
                                    a buffer (an edge that only orders):
                                    its dispatch looks whether the graph
                                    lost what it reads (replay.c) */
};

#define AXL__NO_QUEUE 0xFFFFu   /* host accessors run on no queue */

/* A kernel argument as set on a handler and kept by its command. */
struct axl__karg {
    uint16_t id;                /* the argument's id in the metadata */
    uint8_t acc;                /* buffer: accessor index + 1; scalar: 0 */
    uint16_t off;               /* scalar: offset of its bytes */
    uint16_t size;              /* scalar: bytes */
};

#if AXL_TRACE_EVENTS
/* What a traced command gathers on its way; written into the ring when it
 * completes (trace.c). Set only while AXL__CMD_TRACED is in its flags, by
 * whoever owns the command at that moment: the lock holder, or between
 * dispatch and completion the thread running it (the lock hand-off orders
 * those). Times are axl__command_now() (devops.h), the profiling clock:
 * its device's. */
struct axl__cmd_trace {
    uint64_t submit, ready, start;
    uint64_t xfer_start, xfer_end;  /* data moved before the action */
    uint64_t xfer_bytes;
    uint64_t xfer_in, xfer_out;     /* of them, to a device, to the host */
    uint16_t xfer_device;           /* the device slot they moved on */
    uint32_t dep_rec[AXL_TRACE_DEPS]; /* ring position + 1 of the records
                                   of the commands it waited for */
    uint8_t ndeps;
    uint8_t deps_hidden;        /* waited for, but past AXL_TRACE_DEPS */
    uint8_t worker;             /* host tasks: worker + 1, 0: inline */
};
#endif

struct axl__dep {
    axl__node next;             /* next node in the predecessor's list */
    axl__event_ref pred;        /* predecessor event; none if unused */
    bool strong;                /* a data or explicit dependency: its
                                   failure fails this command (an in-order
                                   edge only orders) */
};

/* What a graph submission's commit found of one of its plan's buffers:
 * the submission's own (replay.c), kept in its command until it is
 * dispatched, since later submissions of the graph commit before it runs.
 * As many as the kernel arguments' room holds, so commands grow for none. */
struct axl__plan_seen {
    uint32_t ver_made;          /* the version its writes make */
    uint32_t lost_event;        /* the command that lost it before, or 0 */
    int16_t lost;               /* axl_status: lost before the graph */
    uint8_t mask;               /* locations current for the nodes */
};
#define AXL__REPLAY_SEEN_ROOM                                                  \
    ((AXL_MAX_KERNEL_ARGS * sizeof(struct axl__karg) + AXL_MAX_ARG_BYTES) /  \
     sizeof(struct axl__plan_seen))
#define AXL__REPLAY_SEEN                                                       \
    (AXL__REPLAY_SEEN_ROOM < AXL_MAX_BUFFERS ? AXL__REPLAY_SEEN_ROOM           \
                                             : AXL_MAX_BUFFERS)

struct axl__command {
    uint32_t seq;               /* submission order */
    uint8_t kind;
    uint16_t flags;
    uint8_t ndeps;
    uint16_t event;             /* slot */
    uint16_t queue;             /* slot */
    uint16_t pending;           /* unfinished predecessors (+1 for a barrier) */
    axl__command_ref next;      /* in its FIFO (struct axl__cmd_fifo) */
    axl__command_ref prev_inflight, next_inflight; /* submission order */
    axl_status dep_status;      /* first failure among predecessors */
    uint32_t dep_event;         /* the failed predecessor's event handle */
    uint8_t nacc;
    uint8_t a0, a1;             /* accessors the action names, 1-based */
    uint16_t device;            /* slot of the queue's device */
    struct axl__dep deps[AXL_MAX_COMMAND_DEPS];
    struct axl__access acc[AXL_MAX_ACCESSORS];
#if AXL_TRACE_EVENTS
    struct axl__cmd_trace tr;
#endif
    union axl__action {
        struct {
            axl_host_task_fn fn;
            void *user;
            const void *runner; /* while it runs: the thread running it
                                   (its message buffer), else NULL */
            axl__command_ref next_running; /* in axl__rt.running */
        } host;
        struct {
            void *host;         /* application memory, either direction */
            struct axl__region src, dst;
        } copy;
        struct {
            struct axl__region dst;
            uint8_t pattern[AXL_MAX_FILL_PATTERN];
        } fill;
        struct {
            uint16_t kernel;    /* kernel object slot; held */
            uint16_t kid;
            uint8_t nargs;
            uint8_t cu;         /* the run slot, once dispatched */
            uint8_t pipe;       /* a unit of a pipeline: its slot + 1
                                   (pipeline_priv.h), else 0 */
            uint8_t pipe_unit;  /* which unit of it */
            uint8_t pipe_flags; /* AXL__PIPE_*: the lock's */
            uint32_t memo;      /* the kernel's axl__launch_memo seq it was
                                   made from, or 0 */
            struct axl__karg args[AXL_MAX_KERNEL_ARGS];
            uint8_t bytes[AXL_MAX_ARG_BYTES];
            uint64_t timeout_ns;
        } kernel;
        struct {                /* AXL__CMD_PIPE_START, _STOP */
            uint32_t handle;    /* the pipeline's (weak: a replay finds
                                   it released and fails the node) */
        } pipe;
        struct {                /* AXL__CMD_HOST_ACCESS */
            bool dropped;       /* its creation gave up waiting for it
                                   (a wait that could never end): it
                                   ends at once when it starts */
        } access;
        struct {                /* AXL__CMD_REPLAY */
            uint16_t exec;      /* its executable graph's slot (held) */
            struct axl__plan *plan; /* the plan it was committed with (an
                                   update made while it is pending gives
                                   the graph a new one: replay.h) */
            /* What its commit found, copied into the plan at dispatch,
             * when the plan has at most AXL__REPLAY_SEEN buffers (else
             * the commit wrote the plan: none of its submissions was
             * pending, graph.c waits for them): */
            bool moves, any_lost;
            struct axl__plan_seen seen[AXL__REPLAY_SEEN];
        } replay;
    } u;
};
_Static_assert(sizeof((union axl__action){0}.replay) <=
                   sizeof((union axl__action){0}.kernel),
               "a graph submission's view fits in the kernel arguments' room");

struct axl__error {
    axl_status status;
    uint32_t event;             /* event handle at the time of the failure */
    uint32_t queue;             /* queue handle */
    axl__error_ref next;        /* in the queue's list */
    uint8_t refs;               /* the queue's list and the event */
    bool listed;                /* still unconsumed in the queue's list */
    char message[AXL_MESSAGE_MAX];
};

/* The FIFOs of commands (struct axl__cmd_fifo): push c, whose reference
 * is r, at the tail; pop the head (NULL if empty); move all of `from` to
 * the tail of `to`. */
static inline void axl__fifo_push(struct axl__cmd_fifo *f,
                                  struct axl__command *c,
                                  axl__command_ref r)
{
    c->next = AXL__NONE(command);
    if (AXL__IS_REF(f->tail))
        axl__command_deref(f->tail)->next = r;
    else
        f->head = r;
    f->tail = r;
}

static inline struct axl__command *axl__fifo_pop(struct axl__cmd_fifo *f)
{
    if (!AXL__IS_REF(f->head))
        return NULL;
    struct axl__command *c = axl__command_deref(f->head);
    f->head = c->next;
    if (!AXL__IS_REF(f->head))
        f->tail = AXL__NONE(command);
    c->next = AXL__NONE(command);
    return c;
}

static inline void axl__fifo_move(struct axl__cmd_fifo *to,
                                  struct axl__cmd_fifo *from)
{
    if (!AXL__IS_REF(from->head))
        return;
    if (AXL__IS_REF(to->tail))
        axl__command_deref(to->tail)->next = from->head;
    else
        to->head = from->head;
    to->tail = from->tail;
    from->head = from->tail = AXL__NONE(command);
}

/* Makes c wait for e (strong: e's failure fails c; lock held). */
void axl__add_dep(struct axl__command *c, struct axl__event *e, bool strong);
/* A data edge that only orders (to or from a graph's submission): noted as
 * a strong one is (Table 34's contexts), carrying no failure. */
void axl__add_weak_dep(struct axl__command *c, struct axl__event *e);
/* An asynchronous error of q that no event carries (a graph's node; the
 * event handle is its submission's), at the end of q's list (lock held). */
void axl__async_error(struct axl__queue *q, uint32_t event, axl_status st,
                      const char *why);
/* An error record loses one of its references (its queue's list, its
 * event): freed with the last (lock held). */
void axl__error_unref(struct axl__error *err);
/* An error found while base buffer b (handle id) was destroyed, with the
 * caller's message: also an asynchronous error. */
void axl__buffer_destroy_error(const struct axl__buffer *b, uint32_t id,
                               axl_status st);

/* Lets go of the buffers a handler holds (lock held). */
void axl__handler_drop(axl_handler *h);
/* Builds the command of a checked group; its accessors are placed here
 * (axl__access_prepare). */
axl_status axl__commit(const char *fn, struct axl__queue *q, axl_handler *h,
                       struct axl__command **out_cmd, axl_event *out);
#if AXL_FEATURE_GRAPHS
/* axl__commit for a graph's submission to q, lean (replay.c): a command
 * of kind AXL__CMD_REPLAY for slot exec's plan, with no accessor, kernel
 * or placement of its own, its edges the plan's (axl__replay_edges),
 * deps' and the in-order one. For a submission that nothing observes
 * (axl__observing false): a traced or logged one takes axl__commit, whose
 * record reads the handler. */
axl_status axl__commit_replay(const char *fn, struct axl__queue *q,
                              uint16_t exec, struct axl__plan *plan,
                              const uint32_t *deps, unsigned ndeps,
                              bool overflow, struct axl__command **out_cmd,
                              axl_event *out);
#endif
void axl__complete(struct axl__command *c, axl_status status, const char *why);
/* The checks of a group before its command is built (its first error, one
 * action, the kernel's one checker); graph.c runs them on recorded groups. */
#if AXL_FEATURE_GRAPHS
axl_status axl__group_check(const char *fn, struct axl__queue *q,
                            axl_handler *h);
#endif
/* Checks a filled group and makes its command. */
axl_status axl__submit(const char *fn, struct axl__queue *q, axl_handler *h,
                       axl_event *out);
/* Dispatches every ready command, drives graphs' unclaimed runs and frees
 * released buffers (lock held). Each of these may drop the lock: true when
 * it did any, and a caller that looked at a condition before looks again
 * (a wait that slept on what it saw would miss the change, and its wake). */
bool axl__pump(void);
axl_status axl__wait_events(const char *fn, struct axl__event *const *evs,
                            uint32_t n);
axl_status axl__wait_events_until(const char *fn,
                                  struct axl__event *const *evs, uint32_t n,
                                  uint64_t until);
axl_status axl__wait_queue(const char *fn, struct axl__queue *q);
bool axl__held_by_caller(const struct axl__buffer *b);
/* Waits until e's command starts, unless that can never happen
 * (AXL_ERR_BAD_STATE, axl__wait_check). */
axl_status axl__wait_started(const char *fn, struct axl__event *e);
typedef bool (*axl__done_fn)(const void *arg);
void axl__wait_until_pred(axl__done_fn done, const void *arg);
/* The same, giving up at until (runtime clock): false then. */
bool axl__wait_until_pred_by(axl__done_fn done, const void *arg,
                             uint64_t until);
void axl__workers_main(void *arg);
axl_status axl__deliver_errors(const char *fn, struct axl__queue *q);
/* The context's own unconsumed errors (late errors of its released
 * queues): to its handler, else the oldest as the result. */
axl_status axl__deliver_context_errors(const char *fn,
                                       struct axl__context *ctx);
/* A context's last release, with a handler: every error that would reach
 * that handler, given to it (4.13.1.1; the caller holds ctx). */
void axl__give_context_errors(struct axl__context *ctx);

/* Waits that can never end (sched.c, issues 16.5 and 35.2). A thread
 * blocks the host accessors it holds and the host tasks it runs (with
 * what they call: handlers, command-group functions, allocators); a wait
 * of that thread for commands that need one of them, directly or through
 * what they wait for, would never end. What a wait waits for: */
enum axl__waited {
    AXL__WAITED_EVENT,  /* struct axl__event: its command */
    AXL__WAITED_QUEUE,  /* struct axl__queue: its commands in flight */
    AXL__WAITED_BUFFER, /* base struct axl__buffer: the commands using it */
    AXL__WAITED_DEVICE, /* struct axl__device: its commands in flight */
    AXL__WAITED_ALL     /* (arg NULL) every command in flight */
};
/* Could a wait of any thread never end now: a host accessor alive or a
 * host task running? Two loads; the checks below cost nothing more while
 * it is false. */
static inline bool axl__wait_may_block(void)
{
    return AXL__POOL(HOST_ACCESSOR)->in_use || AXL__IS_REF(axl__rt.running);
}
/* Would a wait of the calling thread for `arg` never end? *why then names
 * what it needs ("the host task this thread runs (event 0x...)", "a host
 * accessor of buffer 0x... that this thread holds"). Lock held. */
bool axl__wait_blocked(enum axl__waited what, const void *arg, char *why,
                       size_t cap);
/* The same as a status: `as` with "<first> can never end: it waits for
 * <why>", nothing changed; else AXL_SUCCESS. */
axl_status axl__wait_check(const char *fn, enum axl__waited what,
                           const void *arg, axl_status as, const char *first);

/* For room.c: waits until e completes (held meanwhile), unless that can
 * never happen (e waits for a host accessor this thread holds or a host
 * task it runs): AXL_ERR_BAD_STATE, with *why naming it. */
axl_status axl__wait_for_room(struct axl__event *e, char *why, size_t cap);

#endif /* AXL_SCHED_PRIV_H */
