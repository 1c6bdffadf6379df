/*
 * trace.c - the trace ring and its Chrome Trace Event JSON, and log lines.
 *
 * A traced command carries its times in its own slot (struct
 * axl__cmd_trace) and leaves one fixed-size record in the ring when it
 * completes, so the ring holds whole commands: never a start without its
 * end. The JSON is made record by record into a small buffer on the stack
 * and handed to the caller's sink; the core never prints.
 */
#include <string.h>

#include "axl/trace.h"
#include "rt.h"
#include "device_priv.h"
#include "event_priv.h"
#include "buffer_priv.h"
#include "access.h"
#include "sched_priv.h"
#include "handler_priv.h"
#include "image.h"
#include "observe.h"

_Atomic uint8_t axl__observe;
_Atomic uint8_t axl__log_level;

static const char *const kind_names[] = {
    [AXL__CMD_HOST_TASK] = "host_task",
    [AXL__CMD_HOST_ACCESS] = "host_accessor",
    [AXL__CMD_COPY_TO_HOST] = "copy_to_host",
    [AXL__CMD_COPY_FROM_HOST] = "copy_from_host",
    [AXL__CMD_COPY] = "copy",
    [AXL__CMD_FILL] = "fill",
    [AXL__CMD_UPDATE_HOST] = "update_host",
    [AXL__CMD_PREFETCH] = "prefetch",
    [AXL__CMD_EMPTY] = "barrier",
    [AXL__CMD_KERNEL] = "kernel",
    [AXL__CMD_REPLAY] = "graph"};

/* The name of a command kind ("kernel", "copy", ...). */
static const char *command_kind_name(uint8_t kind)
{
    return kind < sizeof kind_names / sizeof kind_names[0] && kind_names[kind]
               ? kind_names[kind]
               : "?";
}

const char *axl__command_label(const struct axl__command *c)
{
    return c->kind == AXL__CMD_KERNEL ? axl__kernel_id_at(c->u.kernel.kid)->name
                                      : command_kind_name(c->kind);
}

/* ---- Logs --------------------------------------------------------------------- */

static _Atomic(axl_text_sink) log_sink;
static void *_Atomic log_user;

static const char *const level_names[] = {"off", "error", "warn", "info",
                                          "debug"};

const char *axl_log_level_name(axl_log_level level)
{
    return (unsigned)level <= AXL_LOG_DEBUG ? level_names[level] : "?";
}

bool axl_log_level_parse(const char *word, axl_log_level *out)
{
    if (!word || !out)
        return false;
    for (unsigned i = 0; i <= AXL_LOG_DEBUG; i++) {
        if (strcmp(word, level_names[i]) == 0) {
            *out = (axl_log_level)i;
            return true;
        }
    }
    return false;
}

void axl_log_set(axl_log_level level, axl_text_sink sink, void *user)
{
    if ((unsigned)level > AXL_LOG_DEBUG)
        level = AXL_LOG_DEBUG;
    if (!AXL_LOGS || !sink)
        level = AXL_LOG_OFF;
    atomic_store_explicit(&axl__log_level, (uint8_t)AXL_LOG_OFF,
                          memory_order_release);
    atomic_store_explicit(&log_user, user, memory_order_relaxed);
    atomic_store_explicit(&log_sink, sink, memory_order_relaxed);
    atomic_store_explicit(&axl__log_level, (uint8_t)level,
                          memory_order_release);
    if (level >= AXL_LOG_DEBUG)
        atomic_fetch_or_explicit(&axl__observe, AXL__OBSERVE_DEBUG,
                                 memory_order_relaxed);
    else
        atomic_fetch_and_explicit(&axl__observe,
                                  (uint8_t)~AXL__OBSERVE_DEBUG,
                                  memory_order_relaxed);
}

axl_log_level axl_log_level_get(void)
{
    return (axl_log_level)atomic_load_explicit(&axl__log_level,
                                               memory_order_relaxed);
}

#if AXL_LOGS
void axl__log(int level, const char *fmt, ...)
{
    char line[AXL_MESSAGE_MAX];
    size_t n = axl_format(line, sizeof line, "axl: %s: ",
                          axl_log_level_name((axl_log_level)level));
    if (n >= sizeof line)
        n = sizeof line - 1;
    va_list ap;
    va_start(ap, fmt);
    size_t m = axl_vformat(line + n, sizeof line - n, fmt, ap);
    va_end(ap);
    n += m < sizeof line - n ? m : sizeof line - n - 1;
    (void)atomic_load_explicit(&axl__log_level, memory_order_acquire);
    axl_text_sink sink = atomic_load_explicit(&log_sink, memory_order_relaxed);
    void *user = atomic_load_explicit(&log_user, memory_order_relaxed);
    if (sink)
        sink(line, n, user);
}
#endif

/* A port's line: formatted here, then logged as the core's own lines are,
 * with the lock held (a sink may count on that). */
void axl_hal_log(int level, const char *fmt, ...)
{
#if AXL_LOGS
    if (atomic_load_explicit(&axl__log_level, memory_order_relaxed) < level)
        return;
    char text[AXL_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    axl_vformat(text, sizeof text, fmt, ap);
    va_end(ap);
    axl_port_lock();
    axl__log(level, "%s", text);
    axl_port_unlock();
#else
    (void)level;
    (void)fmt;
#endif
}

void axl__pool_near_full(const axl__pool *p)
{
    AXL__LOG(AXL__LOG_WARN, "pool %s near capacity: %u of %u in use (%s)",
             p->name, (unsigned)p->in_use, (unsigned)p->capacity, p->setting);
}

/* ---- The ring ------------------------------------------------------------------- */

axl_status axl_trace_enable(bool on)
{
    if (!AXL_TRACE_EVENTS && on)
        return axl_fail(AXL_ERR_FEATURE_NOT_SUPPORTED,
                        "axl_trace_enable: this build has no trace "
                        "(AXL_TRACE_EVENTS 0)");
    if (on)
        atomic_fetch_or_explicit(&axl__observe, AXL__OBSERVE_TRACE,
                                 memory_order_relaxed);
    else
        atomic_fetch_and_explicit(&axl__observe,
                                  (uint8_t)~AXL__OBSERVE_TRACE,
                                  memory_order_relaxed);
    return AXL_SUCCESS;
}

bool axl_trace_enabled(void)
{
    return (atomic_load_explicit(&axl__observe, memory_order_relaxed) &
            AXL__OBSERVE_TRACE) != 0;
}

/* ---- The hooks ------------------------------------------------------------------ */

static void trace_submit(struct axl__command *c, const struct axl__event *e,
                         const axl_handler *h, uint32_t in_order_prev);
static uint32_t trace_end(struct axl__command *c, const struct axl__event *e,
                          axl_status status, uint64_t end);

void axl__observe_submit(struct axl__command *c, const struct axl__event *e,
                         const axl_handler *h, uint32_t in_order_prev)
{
    const uint8_t o = atomic_load_explicit(&axl__observe, memory_order_relaxed);
    if (AXL_LOGS && (o & AXL__OBSERVE_DEBUG))
        c->flags |= AXL__CMD_LOGGED;
    if (AXL_TRACE_EVENTS && (o & AXL__OBSERVE_TRACE))
        trace_submit(c, e, h, in_order_prev);
}

void axl__observe_start(struct axl__command *c, const struct axl__event *e)
{
    if (c->flags & AXL__CMD_LOGGED) {
        if (c->kind == AXL__CMD_KERNEL)
            AXL__LOG(AXL__LOG_DEBUG,
                     "command #%u (%s) dispatched to compute unit %u of %s",
                     (unsigned)c->seq, axl__command_label(c),
                     (unsigned)c->u.kernel.cu,
                     axl__device_at(c->device)->info.name);
        else
            AXL__LOG(AXL__LOG_DEBUG, "command #%u (%s) dispatched (queue %d)",
                     (unsigned)c->seq, axl__command_label(c),
                     c->queue == AXL__NO_QUEUE ? -1 : (int)c->queue);
    }
    AXL__TRACE_STAMP(c, start, e->profiling ? e->t_start : 0);
}

uint32_t axl__observe_end(struct axl__command *c, const struct axl__event *e,
                          axl_status status)
{
    if (c->flags & AXL__CMD_LOGGED)
        AXL__LOG(AXL__LOG_DEBUG, "command #%u (%s) complete: %s",
                 (unsigned)c->seq, axl__command_label(c),
                 axl_status_name(status));
    if (AXL__TRACED(c))
        return trace_end(c, e, status, e->profiling ? e->t_end : 0);
    return 0;
}

#if AXL_TRACE_EVENTS

#define DEVICE_NAME_MAX 40

/* One completed command. */
/* A record that is no command: a buffer's write-back at its last release
 * (axl__trace_write_back), drawn on its device's transfers track only. */
#define KIND_WRITE_BACK 0xFEu
/* Another: a pipeline's event (axl__trace_pipeline), an instant on its
 * device's track for the pipeline's unit: cu holds the event, worker the
 * unit + 1 (0: the pipeline's own), seq the pipeline's number, bytes the
 * event's value, name the unit's name. */
#define KIND_PIPELINE 0xFDu
static const char *const pipe_event_names[] = {
    [AXL__TRACE_PIPELINE_START] = "pipeline_start",
    [AXL__TRACE_UNIT_START] = "unit_start",
    [AXL__TRACE_COMMAND_HELD] = "command_held",
    [AXL__TRACE_COMMAND_RELEASED] = "command_released",
    [AXL__TRACE_MAILBOX] = "mailbox_update",
    [AXL__TRACE_UNIT_STOP] = "unit_stop",
    [AXL__TRACE_UNIT_STOP_TIMEOUT] = "unit_stop_timeout",
    [AXL__TRACE_PIPELINE_STOP] = "pipeline_stop",
    [AXL__TRACE_PIPELINE_RESET] = "pipeline_reset",
    [AXL__TRACE_FAILED] = "pipeline_failed"};

/* Another: a design loaded into a region (axl__trace_program), a slice
 * on its device's track for the region: worker holds the region, seq the
 * load's number, bytes the commands it was for, name the new design's
 * first kernel and unit the old one's (AXL_TRACE_DETAIL; "" none),
 * xfer_in and xfer_out their uuid8 (the UUID's first four bytes), start
 * and end the load on the device's clock. Its event is 0: no command's
 * dependency finds it, only the commands it released point at it. */
#define KIND_PROGRAM 0xFCu

/* Where an action moves bytes, when its accessor is on a device. */
enum { DIR_NONE, DIR_TO_DEVICE, DIR_TO_HOST, DIR_ON_DEVICE };
static const char *const dir_names[] = {"", "to_device", "to_host",
                                        "on_device"};

struct trace_rec {
    uint64_t submit, ready, start, end; /* ns; start 0: it never ran */
    uint64_t xfer_start, xfer_end, xfer_bytes; /* the moves before the action */
    uint64_t xfer_in, xfer_out; /* of those, to a device and to the host */
    uint64_t bytes;             /* its action's bytes */
    uint32_t seq;               /* submission number */
    uint32_t event;             /* its event's handle */
    axl_status status;
    uint32_t dep_rec[AXL_TRACE_DEPS]; /* positions + 1 of its predecessors'
                                   records (their seq is read there) */
    uint16_t queue;             /* slot, or AXL__NO_QUEUE */
    uint16_t device;            /* slot */
    uint8_t kind;
#if AXL_FEATURE_DESIGN_SWAP
    uint8_t design;             /* kernels that ran: their design's image
                                   slot (in what was padding) */
#endif
    uint16_t node;              /* a graph submission's node: its index + 1
                                   (seq is the submission's), else 0 */
    uint8_t cu;                 /* kernels that ran: run slot + 1 */
    uint8_t cu_ordinal;         /* the unit's number within its kernel */
    uint8_t worker;             /* host tasks: worker + 1, 0: inline */
    uint8_t ndeps;
    uint8_t deps_hidden;        /* predecessors past AXL_TRACE_DEPS */
    uint8_t queue_lane;         /* which of its queue's tracks (overlaps) */
    uint8_t xfer_lane;          /* which of its device's transfer tracks */
    uint8_t act_dir;            /* DIR_*: its action moves device bytes */
    uint8_t act_lane;           /* ... on this transfers track */
    uint16_t xfer_device;       /* the device the moves were on */
    uint16_t act_device;        /* the device its action's bytes are on */
    char name[AXL_TRACE_NAME_MAX]; /* kernels: the kernel's name */
    /* Kernels that ran: the unit's name in the design ("vadd_2"); with
     * AXL_TRACE_DETAIL only (a firmware's ring goes without). */
    char unit[AXL_TRACE_DETAIL ? AXL_TRACE_NAME_MAX : 1];
};

/* Slices on one track must not overlap (Perfetto and chrome://tracing
 * draw only nested ones), and commands of an out-of-order queue, or
 * transfers of a device, may run at once: each gets a few tracks, and a
 * record takes the first whose last slice ended before it began. */
#define LANES 8u

/* The ring: guarded by the runtime lock (axl_port_lock), written by
 * axl__trace_end (lock held) and read one record at a time under it. head
 * counts records ever written, tail the first not yet consumed or
 * overwritten; positions are head values, record p at rec[p % capacity]. */
static struct {
    uint32_t head, tail;
    uint32_t recorded, dropped;
    uint64_t queue_lane_end[AXL_MAX_QUEUES + 1][LANES]; /* + host accessors */
    uint64_t xfer_lane_end[AXL_MAX_DEVICES][LANES];
    char device_name[AXL_MAX_DEVICES][DEVICE_NAME_MAX];
    struct trace_rec rec[AXL_TRACE_EVENTS];
} ring;

/* Arrows from the last traced writer of each buffer c reads (complete
 * already or not: a writer still running notes itself when it completes),
 * and c becomes the writer of what it writes. */
static void trace_dep_done(struct axl__command *s, uint32_t handle);

static void data_deps(struct axl__command *c)
{
    const uint32_t self = axl__pool_slot_handle(AXL__POOL(EVENT), c->event);
    for (uint8_t i = 0; i < c->nacc; i++) {
        struct axl__buffer *b = axl__buffer_at(c->acc[i].base);
        if ((c->acc[i].mode & AXL_ACCESS_READ) && b->trace_writer &&
            b->trace_writer != self)
            trace_dep_done(c, b->trace_writer);
    }
    for (uint8_t i = 0; i < c->nacc; i++)
        if (c->acc[i].mode & AXL_ACCESS_WRITE)
            axl__buffer_at(c->acc[i].base)->trace_writer = self;
}

static void trace_submit(struct axl__command *c, const struct axl__event *e,
                         const axl_handler *h, uint32_t in_order_prev)
{
    c->flags |= AXL__CMD_TRACED;
    memset(&c->tr, 0, sizeof c->tr);
    axl__trace_stamp(c, &c->tr.submit, e->profiling ? e->t_submit : 0);
    if (c->pending == 1) /* only the submission's own hold: ready now */
        c->tr.ready = c->tr.submit;
    /* Found by handle among the records: the event itself may be gone
     * (released, or never given out). One still running has no record
     * yet; it notes itself when it completes. */
    for (uint16_t i = 0; i < h->ndeps; i++)
        trace_dep_done(c, h->deps[i]);
    if (in_order_prev)
        trace_dep_done(c, in_order_prev);
    data_deps(c);
}

/* Past AXL_TRACE_DEPS the arrows kept are those of the predecessors that
 * finished last, the very last being the one that let s start: the one
 * that finished first gives way, and is counted. Records are written as
 * commands complete, so a lower ring position finished earlier (compared
 * as a difference: positions wrap); the list stays in that order. */
void axl__trace_dep(struct axl__command *s, uint32_t rec)
{
    uint8_t n = s->tr.ndeps, at = n; /* where rec goes, in finishing order */
    for (uint8_t j = n; j-- > 0;) {
        if (s->tr.dep_rec[j] == rec)
            return;
        if ((int32_t)(rec - s->tr.dep_rec[j]) < 0)
            at = j;
    }
    if (n == AXL_TRACE_DEPS) {
        if (s->tr.deps_hidden < UINT8_MAX)
            s->tr.deps_hidden++;
        if (at == 0) /* it finished before every one kept */
            return;
        memmove(&s->tr.dep_rec[0], &s->tr.dep_rec[1],
                (size_t)(at - 1u) * sizeof s->tr.dep_rec[0]);
        s->tr.dep_rec[at - 1u] = rec;
        return;
    }
    memmove(&s->tr.dep_rec[at + 1u], &s->tr.dep_rec[at],
            (size_t)(n - at) * sizeof s->tr.dep_rec[0]);
    s->tr.dep_rec[at] = rec;
    s->tr.ndeps = (uint8_t)(n + 1u);
}

/* How far back a dependency on a command complete before its dependent
 * was submitted is looked for (an arrow only; the search is bounded). */
#define DONE_DEP_LOOKBACK 64u

static void trace_dep_done(struct axl__command *s, uint32_t handle)
{
    uint32_t held = ring.head - ring.tail;
    for (uint32_t k = 1; k <= held && k <= DONE_DEP_LOOKBACK; k++) {
        const uint32_t pos = ring.head - k;
        const struct trace_rec *r = &ring.rec[pos % AXL_TRACE_EVENTS];
        if (r->event == handle) {
            axl__trace_dep(s, pos + 1u);
            return;
        }
    }
}

/* The first lane free from start on (else the one that frees first),
 * which then ends at end. */
static uint8_t pick_lane(uint64_t *lane_end, uint64_t start, uint64_t end)
{
    uint8_t best = 0;
    for (uint8_t l = 0; l < LANES; l++) {
        if (lane_end[l] <= start) {
            best = l;
            goto take;
        }
        if (lane_end[l] < lane_end[best])
            best = l;
    }
take:
    if (lane_end[best] < end)
        lane_end[best] = end;
    return best;
}

/* Bytes of a region, as handler.c counts them (the lengths of the
 * dimensions a region does not use are 1). Before issue 29 this counted
 * only the first `dims` lengths, which a command's region leaves at 0:
 * copies and fills said they moved one element. */
static uint64_t region_bytes(const struct axl__region *r)
{
    return (uint64_t)r->len[0] * r->len[1] * r->len[2] * r->elem;
}

/* The action of c moves bytes on a device when its accessor a (and b, a
 * copy's other one; 0: none) is there: dir, on that device. */
static void action_on_device(struct trace_rec *r, const struct axl__command *c,
                             uint8_t a, uint8_t b, uint8_t dir)
{
    if (!AXL_TRACE_DETAIL || !a)
        return;
    const struct axl__access *x = &c->acc[a - 1];
    const struct axl__access *y = b ? &c->acc[b - 1] : NULL;
    const struct axl__access *dev = x->loc != AXL__LOC_HOST ? x
                                    : y && y->loc != AXL__LOC_HOST ? y
                                                                  : NULL;
    if (!dev)
        return;
    r->act_dir = dir;
    r->act_device = axl__device_ref_slot(
        axl__buffer_at(dev->base)->loc[dev->loc].device);
}

/* Its name, for the device's tracks, the first time a record is about it
 * (slot AXL__NO_QUEUE: none). The track's label holds the name's first
 * DEVICE_NAME_MAX - 1 characters by design (a long one, an XRT device's
 * with its shim, is cut there, not counted as a message cut). */
static inline __attribute__((always_inline)) void name_device(uint16_t dev)
{
    if (dev < AXL_MAX_DEVICES && !ring.device_name[dev][0])
        axl_format_part(ring.device_name[dev], DEVICE_NAME_MAX, "%s",
                   axl__device_at(dev)->info.name);
}

/* A kernel's record: its name, and when it ran (r->start) its unit, run
 * slot cu on device dev. */
static void kernel_names(struct trace_rec *r, uint16_t kid, uint16_t dev,
                         uint8_t cu)
{
    const struct axl__kernel_id *k = axl__kernel_id_at(kid);
    axl_format(r->name, sizeof r->name, "%s", k->name);
    if (!r->start)
        return;
    const struct axl__device *d = axl__device_at(dev);
    r->cu = (uint8_t)(cu + 1u);
    r->cu_ordinal = d->cus[cu].ordinal;
#if AXL_FEATURE_DESIGN_SWAP
    r->design = (uint8_t)k->image;
#endif
#if AXL_TRACE_DETAIL
    /* The unit by the design's name for it (IP_LAYOUT's m_name after the
     * ':'), as XRT and Vitis Analyzer show it. */
    axl_xclbin_ip ip;
    if (axl_xclbin_get_ip(&axl__image_at(k->image)->x, d->cus[cu].ip,
                          &ip) == AXL_SUCCESS)
        axl_format(r->unit, sizeof r->unit, "%.*s", (int)ip.instance.len,
                   ip.instance.ptr);
#endif
}

/* The next record of the ring (the oldest overwritten when it is full):
 * its position. */
static uint32_t ring_take(void)
{
    if (ring.head - ring.tail >= AXL_TRACE_EVENTS) {
        ring.tail++;
        ring.dropped++;
        if (ring.dropped == 1)
            AXL__LOG(AXL__LOG_WARN,
                     "the trace ring is full: the oldest records are "
                     "overwritten (AXL_TRACE_EVENTS %u)",
                     (unsigned)AXL_TRACE_EVENTS);
    }
    ring.recorded++;
    return ring.head++;
}

uint32_t axl__trace_graph_node(const struct axl__command *c,
                               const struct axl__event *e,
                               const struct axl__trace_node *tn)
{
    const uint32_t pos = ring_take();
    struct trace_rec *r = &ring.rec[pos % AXL_TRACE_EVENTS];
    memset(r, 0, sizeof *r);
    r->submit = c->tr.submit;
    r->ready = c->tr.ready;
    r->start = tn->start;
    r->end = tn->end;
    r->xfer_device = c->device;
#if AXL_TRACE_DETAIL
    r->act_device = c->device;
#endif
    r->seq = c->seq;
    r->event = AXL__HANDLE(EVENT, e);
    r->status = tn->status;
    r->ndeps = tn->ndeps;
    r->deps_hidden = tn->deps_hidden;
    memcpy(r->dep_rec, tn->dep_rec, sizeof r->dep_rec);
    r->queue = c->queue;
    r->device = c->device;
    r->kind = tn->kind;
    r->node = (uint16_t)(tn->node + 1u);
    r->bytes = tn->bytes;
    if (tn->kind == AXL__CMD_KERNEL)
        kernel_names(r, tn->kid, c->device, tn->cu);
    const uint64_t begin = r->start ? r->start : r->end;
    r->queue_lane = pick_lane(
        ring.queue_lane_end[c->queue < AXL_MAX_QUEUES ? c->queue
                                                      : AXL_MAX_QUEUES],
        begin, r->end);
    name_device(c->queue != AXL__NO_QUEUE ? c->device : AXL__NO_QUEUE);
    return pos + 1u;
}

static uint32_t trace_end(struct axl__command *c, const struct axl__event *e,
                          axl_status status, uint64_t end)
{
    const uint32_t pos = ring_take();
    struct trace_rec *r = &ring.rec[pos % AXL_TRACE_EVENTS];
    r->submit = c->tr.submit;
    r->ready = c->tr.ready;
    r->start = e->state == AXL_EVENT_SUBMITTED ? 0 : c->tr.start;
    r->end = end ? end : axl__command_now(c);
    r->xfer_start = c->tr.xfer_start;
    r->xfer_end = c->tr.xfer_end;
    r->xfer_bytes = c->tr.xfer_bytes;
#if AXL_TRACE_DETAIL
    r->xfer_in = c->tr.xfer_in;
    r->xfer_out = c->tr.xfer_out;
    r->xfer_device = r->xfer_end ? c->tr.xfer_device : c->device;
    r->act_dir = DIR_NONE;
    r->act_device = c->device;
    r->unit[0] = '\0';
#else
    r->xfer_device = c->device;
#endif
    r->seq = c->seq;
    r->event = AXL__HANDLE(EVENT, e);
    r->status = status;
    r->ndeps = c->tr.ndeps;
    r->deps_hidden = c->tr.deps_hidden;
    memcpy(r->dep_rec, c->tr.dep_rec, sizeof r->dep_rec);
    r->queue = c->queue;
    r->device = c->device;
    r->kind = c->kind;
    r->cu = 0;
    r->cu_ordinal = 0;
    r->worker = c->kind == AXL__CMD_HOST_TASK ? c->tr.worker : 0;
    r->name[0] = '\0';
    r->bytes = 0;
    r->node = 0;
    switch (c->kind) {
    case AXL__CMD_KERNEL: {
        kernel_names(r, c->u.kernel.kid, c->device, c->u.kernel.cu);
        for (uint8_t i = 0; i < c->nacc; i++)
            r->bytes += c->acc[i].size;
        break;
    }
    case AXL__CMD_COPY_TO_HOST:
        r->bytes = region_bytes(&c->u.copy.src);
        action_on_device(r, c, c->a0, 0, DIR_TO_HOST);
        break;
    case AXL__CMD_COPY_FROM_HOST:
        r->bytes = region_bytes(&c->u.copy.dst);
        action_on_device(r, c, c->a0, 0, DIR_TO_DEVICE);
        break;
    case AXL__CMD_COPY:
        r->bytes = region_bytes(&c->u.copy.dst);
        action_on_device(r, c, c->a0, c->a1, DIR_ON_DEVICE);
        break;
    case AXL__CMD_FILL:
        r->bytes = region_bytes(&c->u.fill.dst);
        action_on_device(r, c, c->a0, 0, DIR_TO_DEVICE);
        break;
    default:
        break;
    }
    if (AXL_TRACE_DETAIL && !r->start)
        r->act_dir = DIR_NONE; /* it never ran */
    const uint64_t begin = r->start ? r->start : r->end;
    r->queue_lane = pick_lane(
        ring.queue_lane_end[c->queue < AXL_MAX_QUEUES ? c->queue
                                                      : AXL_MAX_QUEUES],
        begin, r->end);
    r->xfer_lane = r->xfer_end && r->xfer_device < AXL_MAX_DEVICES
                       ? pick_lane(ring.xfer_lane_end[r->xfer_device],
                                   r->xfer_start, r->xfer_end)
                       : 0;
#if AXL_TRACE_DETAIL
    r->act_lane = r->act_dir && r->act_device < AXL_MAX_DEVICES
                      ? pick_lane(ring.xfer_lane_end[r->act_device], begin,
                                  r->end)
                      : 0;
    if (r->xfer_end)
        name_device(r->xfer_device);
    if (r->act_dir)
        name_device(r->act_device);
#endif
    name_device(c->queue != AXL__NO_QUEUE ? c->device : AXL__NO_QUEUE);
    return pos + 1u;
}

void axl__trace_write_back(const struct axl__buffer *b, uint8_t src,
                           uint64_t t0, uint64_t t1, axl_status status)
{
    const uint32_t pos = ring_take();
    struct trace_rec *r = &ring.rec[pos % AXL_TRACE_EVENTS];
    memset(r, 0, sizeof *r);
    r->submit = r->ready = r->start = r->xfer_start = t0;
    r->end = r->xfer_end = t1 > t0 ? t1 : t0;
    r->xfer_bytes = r->xfer_out = b->size;
    r->bytes = b->size;
    r->status = status;
    r->event = AXL__HANDLE(BUFFER, b); /* what it is about */
    r->queue = AXL__NO_QUEUE;
    r->kind = KIND_WRITE_BACK;
    r->device = r->xfer_device = r->act_device =
        axl__device_ref_slot(b->loc[src].device);
    if (r->xfer_device < AXL_MAX_DEVICES)
        r->xfer_lane = pick_lane(ring.xfer_lane_end[r->xfer_device],
                                 r->xfer_start, r->xfer_end);
    name_device(r->xfer_device);
}

void axl__trace_pipeline(uint16_t device, uint32_t pipeline, uint8_t unit,
                         const char *unit_name, uint8_t what, uint64_t value,
                         axl_status status)
{
    const uint32_t pos = ring_take();
    struct trace_rec *r = &ring.rec[pos % AXL_TRACE_EVENTS];
    memset(r, 0, sizeof *r);
    r->submit = r->ready = r->start = r->end =
        axl__dev_now(axl__device_at(device));
    r->kind = KIND_PIPELINE;
    r->cu = what;
    r->worker = unit == UINT8_MAX ? 0 : (uint8_t)(unit + 1u);
    r->seq = pipeline;
    r->bytes = value;
    r->status = status;
    r->queue = AXL__NO_QUEUE;
    r->device = r->xfer_device = r->act_device = device;
    axl_format(r->name, sizeof r->name, "%s", unit_name);
    name_device(device);
}

#if AXL_FEATURE_DESIGN_SWAP
/* A design's name in a program record: its first kernel's ("" none). */
static void design_names(char *out, size_t size, uint64_t *uuid8,
                         const struct axl__image *img)
{
    axl_xclbin_kernel ki;
    out[0] = '\0';
    *uuid8 = 0;
    if (!img)
        return;
    const uint8_t *u = img->x.uuid;
    *uuid8 = (uint64_t)u[0] << 24 | (uint64_t)u[1] << 16 |
             (uint64_t)u[2] << 8 | u[3];
    if (size > 1 && axl_xclbin_get_kernel(&img->x, 0, &ki) == AXL_SUCCESS)
        axl_format(out, size, "%.*s", (int)ki.name.len, ki.name.ptr);
}

uint32_t axl__trace_program(const struct axl__trace_load *l)
{
    if (!axl__trace_on())
        return 0;
    const uint32_t pos = ring_take();
    struct trace_rec *r = &ring.rec[pos % AXL_TRACE_EVENTS];
    memset(r, 0, sizeof *r);
    r->submit = r->ready = r->start = l->t0;
    r->end = l->t1 > l->t0 ? l->t1 : l->t0;
    r->kind = KIND_PROGRAM;
    r->worker = l->region;
    r->seq = l->number;
    r->bytes = l->commands;
    r->status = l->status;
    r->queue = AXL__NO_QUEUE;
    r->device = r->xfer_device = r->act_device = l->device;
    design_names(r->name, sizeof r->name, &r->xfer_in, l->now);
    design_names(r->unit, sizeof r->unit, &r->xfer_out, l->was);
    name_device(l->device);
    return pos + 1u;
}
#endif

axl_status axl_trace_stats_get(axl_trace_stats *out)
{
    if (!out)
        return axl_fail(AXL_ERR_INVALID,
                        "axl_trace_stats_get: out must not be NULL");
    axl_port_lock();
    out->capacity = AXL_TRACE_EVENTS;
    out->held = ring.head - ring.tail;
    out->recorded = ring.recorded;
    out->dropped = ring.dropped;
    axl_port_unlock();
    return AXL_SUCCESS;
}

axl_status axl_trace_clear(void)
{
    axl_port_lock();
    ring.tail = ring.head;
    ring.recorded = 0;
    ring.dropped = 0;
    axl_port_unlock();
    return AXL_SUCCESS;
}

/* ---- Chrome Trace Event JSON ---------------------------------------------------- */

/* Tracks: pid 1 is the host (a thread per queue, host accessors, a thread
 * per host-task worker); pid 10 + slot a device (a thread per compute unit
 * it ran and one for its transfers). */
#define PID_HOST 1u
#define PID_DEVICE(d) (10u + (d))
#define TID_QUEUE(q, lane) (1u + (q) * LANES + (lane))
#define TID_HOST_ACCESS(lane) (1000u + (lane))
#define TID_WORKER(w) (2000u + (w))
#define TID_CU(cu) (1u + (cu))
#define TID_XFER(lane) (1000u + (lane))
#define PIPE_TRACKS (AXL_MAX_PIPELINE_UNITS + 1u)
#define TID_PIPE(p, u) (3000u + (p) * PIPE_TRACKS + (u))
#define TID_PROGRAM(region) (900u + (region))
/* A unit of another design in a run slot whose track a unit of a first
 * design took (a swap replaced it): a track of its own. */
#define TID_CU_OF(design, cu) (10000u + (design) * AXL_MAX_DEVICE_CUS + (cu))

typedef struct writer {
    axl_text_sink sink;
    void *user;
    char buf[512];
    size_t len;
    bool first;                 /* no event written yet */
} writer;

static void flush(writer *w)
{
    if (w->len)
        w->sink(w->buf, w->len, w->user);
    w->len = 0;
}

/* Appends formatted text; flushes first when it might not fit. */
static void put(writer *w, const char *fmt, ...) AXL__PRINTF(2, 3);
static void put(writer *w, const char *fmt, ...)
{
    va_list ap;
    for (int attempt = 0; attempt < 2; attempt++) {
        va_start(ap, fmt);
        /* A first try that does not fit is flushed and made again. */
        size_t n = axl_vformat_part(w->buf + w->len,
                                    sizeof w->buf - w->len, fmt, ap);
        va_end(ap);
        if (w->len + n < sizeof w->buf) {
            w->len += n;
            return;
        }
        if (w->len == 0) { /* longer than the buffer: cut */
            w->len = sizeof w->buf - 1;
            return;
        }
        flush(w);
    }
}

/* A JSON string's contents (names come from images: escape them). */
static void put_str(writer *w, const char *s)
{
    char esc[2 * AXL_TRACE_NAME_MAX + 2 * DEVICE_NAME_MAX + 8];
    size_t n = 0;
    for (; *s && n + 7 < sizeof esc; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') {
            esc[n++] = '\\';
            esc[n++] = (char)ch;
        } else if (ch < 0x20) {
            n += axl_format(esc + n, sizeof esc - n, "\\u%04x", ch);
        } else {
            esc[n++] = (char)ch;
        }
    }
    esc[n] = '\0';
    put(w, "%s", esc);
}

/* Microseconds with three decimals, exactly the nanoseconds. */
#define US_FMT "%llu.%03u"
#define US(ns) (unsigned long long)((ns) / 1000u), (unsigned)((ns) % 1000u)

static void event_start(writer *w)
{
    put(w, "%s\n", w->first ? "" : ",");
    w->first = false;
}

static void meta(writer *w, const char *what, unsigned pid, unsigned tid,
                 const char *name, unsigned sort)
{
    event_start(w);
    put(w, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%u,\"tid\":%u,"
           "\"args\":{\"name\":\"",
        what, pid, tid);
    put_str(w, name);
    put(w, "\"}}");
    event_start(w);
    put(w, "{\"ph\":\"M\",\"name\":\"%s_sort_index\",\"pid\":%u,\"tid\":%u,"
           "\"args\":{\"sort_index\":%u}}",
        what[0] == 'p' ? "process" : "thread", pid, tid, sort);
}

/* Tracks named so far, so each gets its names once. */
typedef struct seen {
    bool host;
    bool queue[AXL_MAX_QUEUES][LANES];
    bool host_access[LANES];
    bool worker[AXL_HOST_TASK_WORKERS + 1];
    bool device[AXL_MAX_DEVICES];
    bool cu[AXL_MAX_DEVICES][AXL_MAX_DEVICE_CUS];
    bool xfer[AXL_MAX_DEVICES][LANES];
    bool pipe[AXL_MAX_DEVICES][AXL_MAX_PIPELINES + 1][PIPE_TRACKS];
#if AXL_FEATURE_DESIGN_SWAP
    bool program[AXL_MAX_DEVICES]; /* region 0's track (the fabric) */
    uint8_t cu_design[AXL_MAX_DEVICES][AXL_MAX_DEVICE_CUS]; /* + 1: whose
                                   unit's name TID_CU carries */
    bool cu_of[AXL_MAX_DEVICES][AXL_MAX_IMAGES][AXL_MAX_DEVICE_CUS];
#endif
} seen;

/* The track of a kernel record that ran (r->cu set, its device's slot in
 * range): its run slot's, unless a unit of another design named that one
 * first. */
static unsigned cu_track(const seen *sn, const struct trace_rec *r)
{
    const unsigned cu = r->cu - 1u;
#if AXL_FEATURE_DESIGN_SWAP
    const uint8_t owner = sn->cu_design[r->device][cu];
    if (owner && owner != r->design + 1u && r->design < AXL_MAX_IMAGES)
        return TID_CU_OF(r->design, cu);
#else
    (void)sn;
#endif
    return TID_CU(cu);
}

static void device_label(char *out, size_t cap, uint16_t dev)
{
    char name[DEVICE_NAME_MAX];
    axl_port_lock();
    memcpy(name, ring.device_name[dev], sizeof name);
    axl_port_unlock();
    name[sizeof name - 1] = '\0';
    axl_format(out, cap, "device %u%s%s", (unsigned)dev, name[0] ? ": " : "",
               name);
}

static void name_process(writer *w, seen *sn, uint16_t dev)
{
    char label[96];
    if (sn->device[dev])
        return;
    sn->device[dev] = true;
    device_label(label, sizeof label, dev);
    meta(w, "process_name", PID_DEVICE(dev), 0, label, PID_DEVICE(dev));
}

/* A device's transfers track: every move between the host and a device,
 * or on it, whatever made it (a command's moves before its action, a
 * copy or fill on device memory, a host accessor, a write-back). */
static void name_xfer(writer *w, seen *sn, uint16_t dev, unsigned lane)
{
    char label[32];
    if (sn->xfer[dev][lane])
        return;
    sn->xfer[dev][lane] = true;
    if (lane)
        axl_format(label, sizeof label, "transfers (%u)", lane + 1u);
    else
        axl_format(label, sizeof label, "transfers");
    meta(w, "thread_name", PID_DEVICE(dev), TID_XFER(lane), label,
         TID_XFER(lane));
}

static void name_tracks(writer *w, seen *sn, const struct trace_rec *r)
{
    char label[96];
    if (!sn->host) {
        sn->host = true;
        meta(w, "process_name", PID_HOST, 0, "axl host", 0);
    }
    const unsigned ql = r->queue_lane % LANES;
    if (r->queue == AXL__NO_QUEUE) {
        if (!sn->host_access[ql]) {
            sn->host_access[ql] = true;
            axl_format(label, sizeof label, ql ? "host accessors (%u)"
                                                : "host accessors",
                       ql + 1u);
            meta(w, "thread_name", PID_HOST, TID_HOST_ACCESS(ql), label,
                 TID_HOST_ACCESS(ql));
        }
    } else if (r->queue < AXL_MAX_QUEUES && !sn->queue[r->queue][ql]) {
        sn->queue[r->queue][ql] = true;
        if (ql)
            axl_format(label, sizeof label, "queue %u (%u)",
                       (unsigned)r->queue, ql + 1u);
        else
            axl_format(label, sizeof label, "queue %u", (unsigned)r->queue);
        meta(w, "thread_name", PID_HOST, TID_QUEUE(r->queue, ql), label,
             TID_QUEUE(r->queue, ql));
    }
    if (r->kind == AXL__CMD_HOST_TASK && r->start &&
        r->worker <= AXL_HOST_TASK_WORKERS && !sn->worker[r->worker]) {
        sn->worker[r->worker] = true;
        if (r->worker)
            axl_format(label, sizeof label, "host-task worker %u",
                       (unsigned)r->worker);
        else
            axl_format(label, sizeof label,
                       "host tasks (on the submitting thread)");
        meta(w, "thread_name", PID_HOST, TID_WORKER(r->worker), label,
             TID_WORKER(r->worker));
    }
    const bool cu = r->device < AXL_MAX_DEVICES && r->queue != AXL__NO_QUEUE &&
                    r->cu && r->cu <= AXL_MAX_DEVICE_CUS;
    const bool xfer = r->xfer_end && r->xfer_device < AXL_MAX_DEVICES;
    const bool act = AXL_TRACE_DETAIL && r->act_dir &&
                     r->act_device < AXL_MAX_DEVICES;
    if (cu || xfer)
        name_process(w, sn, cu ? r->device : r->xfer_device);
    if (AXL_TRACE_DETAIL && xfer && cu)
        name_process(w, sn, r->xfer_device);
    if (act)
        name_process(w, sn, r->act_device);
    if (cu) {
        bool *named = &sn->cu[r->device][r->cu - 1];
#if AXL_FEATURE_DESIGN_SWAP
        uint8_t *owner = &sn->cu_design[r->device][r->cu - 1];
        if (!*owner)
            *owner = (uint8_t)(r->design + 1u);
        if (cu_track(sn, r) != TID_CU(r->cu - 1))
            named = &sn->cu_of[r->device][r->design][r->cu - 1];
#endif
        if (!*named) {
            *named = true;
            /* The design's name for the unit ("vadd_2"), which XRT and
             * Vitis Analyzer show; else the kernel and its ordinal. */
            if (AXL_TRACE_DETAIL && r->unit[0])
                axl_format(label, sizeof label, "%s", r->unit);
            else
                axl_format(label, sizeof label, "%s:%u", r->name,
                           (unsigned)r->cu_ordinal);
            meta(w, "thread_name", PID_DEVICE(r->device), cu_track(sn, r),
                 label, cu_track(sn, r));
        }
    }
    if (xfer)
        name_xfer(w, sn, r->xfer_device, r->xfer_lane % LANES);
    if (act)
        name_xfer(w, sn, r->act_device, r->act_lane % LANES);
}

static const char *rec_name(const struct trace_rec *r)
{
    return r->kind == KIND_WRITE_BACK ? "write_back"
           : r->kind == AXL__CMD_KERNEL && r->name[0]
               ? r->name
               : command_kind_name(r->kind);
}

static unsigned queue_tid(const struct trace_rec *r)
{
    const unsigned l = r->queue_lane % LANES;
    return r->queue == AXL__NO_QUEUE ? TID_HOST_ACCESS(l)
                                     : TID_QUEUE(r->queue, l);
}

/* The track where a record ran: its compute unit, its host-task worker,
 * else its queue (arrows go between these). */
static void exec_track(const seen *sn, const struct trace_rec *r,
                       unsigned *pid, unsigned *tid)
{
    if (r->cu && r->cu <= AXL_MAX_DEVICE_CUS && r->device < AXL_MAX_DEVICES) {
        *pid = PID_DEVICE(r->device);
        *tid = cu_track(sn, r);
#if AXL_FEATURE_DESIGN_SWAP
    } else if (r->kind == KIND_PROGRAM) {
        *pid = PID_DEVICE(r->device);
        *tid = TID_PROGRAM(r->worker);
#endif
    } else if (r->kind == AXL__CMD_HOST_TASK && r->start) {
        *pid = PID_HOST;
        *tid = TID_WORKER(r->worker);
    } else {
        *pid = PID_HOST;
        *tid = queue_tid(r);
    }
}

/* Where a record's slice on its queue track begins and ends. */
static uint64_t rec_begin(const struct trace_rec *r)
{
    return r->start ? r->start : r->end;
}

/* A predecessor still in the ring: its number and where its arrow
 * starts. */
typedef struct pred {
    uint32_t seq;
#if AXL_FEATURE_DESIGN_SWAP
    bool program;               /* a load (its number in seq), no command */
#endif
    unsigned pid, tid;
    uint64_t mid;
} pred;

/* A complete ("X") slice of a record on one track. */
static void slice(writer *w, const struct trace_rec *r, unsigned pid,
                  unsigned tid, const char *cat, const pred *preds,
                  unsigned npreds)
{
    uint64_t b = rec_begin(r);
    event_start(w);
    put(w, "{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"", cat);
    put_str(w, rec_name(r));
    put(w, "\",\"pid\":%u,\"tid\":%u,\"ts\":" US_FMT ",\"dur\":" US_FMT, pid,
        tid, US(b), US(r->end - b));
    put(w, ",\"args\":{\"seq\":%u,\"kind\":\"%s\",\"status\":\"%s\","
           "\"queue\":%d,\"device\":%u",
        (unsigned)r->seq, command_kind_name(r->kind),
        axl_status_name(r->status),
        r->queue == AXL__NO_QUEUE ? -1 : (int)r->queue, (unsigned)r->device);
    if (r->kind == AXL__CMD_KERNEL) {
        put(w, ",\"kernel\":\"");
        put_str(w, r->name);
        put(w, "\"");
        if (r->cu) {
            put(w, ",\"compute_unit\":%u,\"cu_ordinal\":%u",
                (unsigned)(r->cu - 1), (unsigned)r->cu_ordinal);
            if (AXL_TRACE_DETAIL && r->unit[0]) {
                put(w, ",\"unit\":\"");
                put_str(w, r->unit);
                put(w, "\"");
            }
        }
    }
    if (r->kind == AXL__CMD_HOST_TASK && r->start)
        put(w, ",\"worker\":%u", (unsigned)r->worker);
    if (r->node) /* seq: its graph submission's */
        put(w, ",\"graph_node\":%u", (unsigned)(r->node - 1u));
    put(w, ",\"bytes\":%llu,\"transfer_bytes\":%llu",
        (unsigned long long)r->bytes, (unsigned long long)r->xfer_bytes);
    put(w, ",\"submit_ns\":%llu,\"ready_ns\":%llu,\"start_ns\":%llu,"
           "\"end_ns\":%llu",
        (unsigned long long)r->submit, (unsigned long long)r->ready,
        (unsigned long long)r->start, (unsigned long long)r->end);
    put(w, ",\"deps\":[");
#if AXL_FEATURE_DESIGN_SWAP
    const char *sep = "";
    for (unsigned j = 0; j < npreds; j++) {
        if (preds[j].program)
            continue;
        put(w, "%s%u", sep, (unsigned)preds[j].seq);
        sep = ",";
    }
    put(w, "]");
    /* The load it waited for (its design's): the arrow from it. */
    for (unsigned j = 0; j < npreds; j++)
        if (preds[j].program)
            put(w, ",\"program\":%u", (unsigned)preds[j].seq);
#else
    for (unsigned j = 0; j < npreds; j++)
        put(w, "%s%u", j ? "," : "", (unsigned)preds[j].seq);
    put(w, "]");
#endif
    if (r->deps_hidden) /* waited for, no arrow: past AXL_TRACE_DEPS */
        put(w, ",\"deps_not_shown\":%u", (unsigned)r->deps_hidden);
    put(w, "}}");
}

/* A slice on device dev's transfers track: bytes moved by record r from
 * t0 to t1 (`of`: "moves" before its action, its "action" itself, or a
 * "write_back"), to the device and to the host. Its name says what made
 * it; "bytes" is the total, "direction" the way they went. */
static void transfer(writer *w, const struct trace_rec *r, uint16_t dev,
                     uint8_t lane, uint64_t t0, uint64_t t1, const char *of,
                     uint64_t in, uint64_t out)
{
#if !AXL_TRACE_DETAIL
    /* Only the moves before an action, as before issue 29. */
    (void)of;
    (void)in;
    (void)out;
    event_start(w);
    put(w, "{\"ph\":\"X\",\"cat\":\"transfer\",\"name\":\"transfer\","
           "\"pid\":%u,\"tid\":%u,\"ts\":" US_FMT ",\"dur\":" US_FMT
           ",\"args\":{\"seq\":%u,\"of\":\"moves\",\"bytes\":%llu,"
           "\"for\":\"%s\"}}",
        PID_DEVICE(dev), TID_XFER(lane % LANES), US(t0), US(t1 - t0),
        (unsigned)r->seq, (unsigned long long)r->xfer_bytes, rec_name(r));
    return;
#endif
    const bool action = of[0] == 'a';
    const uint64_t bytes = action && !in && !out ? r->bytes : in + out;
    const char *dir = action           ? dir_names[r->act_dir % 4u]
                      : in && out      ? "both"
                      : in             ? "to_device"
                                       : "to_host";
    if (action) {
        in = r->act_dir == DIR_TO_DEVICE ? bytes : 0;
        out = r->act_dir == DIR_TO_HOST ? bytes : 0;
    }
    event_start(w);
    put(w, "{\"ph\":\"X\",\"cat\":\"transfer\",\"name\":\"%s\","
           "\"pid\":%u,\"tid\":%u,\"ts\":" US_FMT ",\"dur\":" US_FMT
           ",\"args\":{\"seq\":%u,\"of\":\"%s\",\"direction\":\"%s\","
           "\"bytes\":%llu,\"to_device\":%llu,\"to_host\":%llu,"
           "\"for\":\"%s\"}}",
        action ? rec_name(r) : of[0] == 'w' ? of : "transfer",
        PID_DEVICE(dev), TID_XFER(lane % LANES), US(t0), US(t1 - t0),
        (unsigned)r->seq, of, dir, (unsigned long long)bytes,
        (unsigned long long)in, (unsigned long long)out, rec_name(r));
}

/* Copies the record at position pos if it is still in the ring. */
static bool rec_get(uint32_t pos, struct trace_rec *out)
{
    axl_port_lock();
    bool ok = pos - ring.tail < ring.head - ring.tail;
    if (ok)
        *out = ring.rec[pos % AXL_TRACE_EVENTS];
    axl_port_unlock();
    return ok;
}

/* A pipeline's event: an instant on its unit's track of its device. */
static void pipeline_event(writer *w, seen *sn, const struct trace_rec *r)
{
    const unsigned p = r->seq <= AXL_MAX_PIPELINES ? r->seq : 0;
    const unsigned u = r->worker < PIPE_TRACKS ? r->worker : 0;
    const uint16_t dev = r->device < AXL_MAX_DEVICES ? r->device : 0;
    const char *what =
        r->cu < sizeof pipe_event_names / sizeof pipe_event_names[0] &&
                pipe_event_names[r->cu]
            ? pipe_event_names[r->cu]
            : "pipeline";
    name_process(w, sn, dev);
    if (!sn->pipe[dev][p][u]) {
        char label[64];
        sn->pipe[dev][p][u] = true;
        if (u)
            axl_format(label, sizeof label, "pipeline %u: %s", (unsigned)r->seq,
                       r->name);
        else
            axl_format(label, sizeof label, "pipeline %u", (unsigned)r->seq);
        meta(w, "thread_name", PID_DEVICE(dev), TID_PIPE(p, u), label,
             TID_PIPE(p, u));
    }
    event_start(w);
    put(w, "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"pipeline\",\"name\":\"%s\","
           "\"pid\":%u,\"tid\":%u,\"ts\":" US_FMT ",\"args\":{\"pipeline\":%u,"
           "\"unit\":\"",
        what, PID_DEVICE(dev), TID_PIPE(p, u), US(r->end), (unsigned)r->seq);
    put_str(w, r->name);
    put(w, "\",\"value\":%llu,\"status\":\"%s\",\"device\":%u}}",
        (unsigned long long)r->bytes, axl_status_name(r->status),
        (unsigned)r->device);
}

#if AXL_FEATURE_DESIGN_SWAP
/* A load: a slice on its device's track for the region, "fabric" (the
 * whole of it: region 0 is all there is until slots, issue 40 stage 5). */
static void program_slice(writer *w, seen *sn, const struct trace_rec *r)
{
    const uint16_t dev = r->device < AXL_MAX_DEVICES ? r->device : 0;
    name_process(w, sn, dev);
    if (!sn->program[dev]) {
        sn->program[dev] = true;
        meta(w, "thread_name", PID_DEVICE(dev), TID_PROGRAM(r->worker),
             "fabric", TID_PROGRAM(r->worker));
    }
    event_start(w);
    put(w, "{\"ph\":\"X\",\"cat\":\"program\",\"name\":\"program\","
           "\"pid\":%u,\"tid\":%u,\"ts\":" US_FMT ",\"dur\":" US_FMT
           ",\"args\":{\"load\":%u,\"status\":\"%s\",\"device\":%u,"
           "\"region\":%u,\"slot\":\"fabric\",\"design\":\"",
        PID_DEVICE(dev), TID_PROGRAM(r->worker), US(r->start),
        US(r->end - r->start), (unsigned)r->seq, axl_status_name(r->status),
        (unsigned)r->device, (unsigned)r->worker);
    put_str(w, r->name);
    put(w, "\",\"design_uuid8\":\"%08llx\",\"old_design\":\"",
        (unsigned long long)r->xfer_in);
    put_str(w, r->unit);
    put(w, "\",\"old_design_uuid8\":\"%08llx\",\"load_ns\":%llu,"
           "\"commands\":%llu,\"start_ns\":%llu,\"end_ns\":%llu}}",
        (unsigned long long)r->xfer_out,
        (unsigned long long)(r->end - r->start), (unsigned long long)r->bytes,
        (unsigned long long)r->start, (unsigned long long)r->end);
}
#endif

static void record(writer *w, seen *sn, uint32_t pos,
                   const struct trace_rec *r)
{
    if (r->kind == KIND_PIPELINE) {
        pipeline_event(w, sn, r);
        return;
    }
#if AXL_FEATURE_DESIGN_SWAP
    if (r->kind == KIND_PROGRAM) {
        program_slice(w, sn, r);
        return;
    }
#endif
    /* The commands it waited for that are still in the ring (positions
     * are never reused: one in [tail, head) is the record it was). */
    pred preds[AXL_TRACE_DEPS];
    unsigned npreds = 0;
    for (uint8_t j = 0; j < r->ndeps && j < AXL_TRACE_DEPS; j++) {
        struct trace_rec p;
        if (!r->dep_rec[j] || !rec_get(r->dep_rec[j] - 1u, &p))
            continue;
        uint64_t pb = rec_begin(&p);
        preds[npreds].seq = p.seq;
#if AXL_FEATURE_DESIGN_SWAP
        preds[npreds].program = p.kind == KIND_PROGRAM;
#endif
        preds[npreds].mid = pb + (p.end - pb) / 2u;
        exec_track(sn, &p, &preds[npreds].pid, &preds[npreds].tid);
        npreds++;
    }
    name_tracks(w, sn, r);
    if (AXL_TRACE_DETAIL && r->kind == KIND_WRITE_BACK) {
        transfer(w, r, r->xfer_device, r->xfer_lane, r->xfer_start,
                 r->xfer_end, "write_back", r->xfer_in, r->xfer_out);
        return;
    }
    slice(w, r, PID_HOST, queue_tid(r), "command", preds, npreds);
    if (r->cu && r->cu <= AXL_MAX_DEVICE_CUS && r->device < AXL_MAX_DEVICES)
        slice(w, r, PID_DEVICE(r->device), cu_track(sn, r), "kernel", preds,
              npreds);
    if (r->kind == AXL__CMD_HOST_TASK && r->start)
        slice(w, r, PID_HOST, TID_WORKER(r->worker), "host_task", preds,
              npreds);
    if (r->xfer_end && r->xfer_device < AXL_MAX_DEVICES)
        transfer(w, r, r->xfer_device, r->xfer_lane, r->xfer_start,
                 r->xfer_end, "moves", r->xfer_in, r->xfer_out);
    if (AXL_TRACE_DETAIL && r->act_dir && r->act_device < AXL_MAX_DEVICES)
        transfer(w, r, r->act_device, r->act_lane, rec_begin(r), r->end,
                 "action",
                 r->act_dir == DIR_TO_DEVICE ? r->bytes : 0,
                 r->act_dir == DIR_TO_HOST ? r->bytes : 0);
    /* An arrow from each of them. */
    for (unsigned j = 0; j < npreds; j++) {
        unsigned long long id =
            (unsigned long long)pos * AXL_TRACE_DEPS + j + 1u;
        unsigned spid, stid;
        exec_track(sn, r, &spid, &stid);
        event_start(w);
        put(w, "{\"ph\":\"s\",\"cat\":\"dependency\",\"name\":\"dependency\","
               "\"id\":%llu,\"pid\":%u,\"tid\":%u,\"ts\":" US_FMT "}",
            id, preds[j].pid, preds[j].tid, US(preds[j].mid));
        event_start(w);
        put(w, "{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"dependency\","
               "\"name\":\"dependency\",\"id\":%llu,\"pid\":%u,\"tid\":%u,"
               "\"ts\":" US_FMT "}",
            id, spid, stid, US(rec_begin(r)));
    }
}

axl_status axl_trace_format(axl_text_sink sink, void *user, uint32_t flags)
{
    if (!sink)
        return axl_fail(AXL_ERR_INVALID,
                        "axl_trace_format: sink must not be NULL");
    if (flags & ~(uint32_t)AXL_TRACE_CONSUME)
        return axl_fail(AXL_ERR_INVALID,
                        "axl_trace_format: unknown flags 0x%x",
                        (unsigned)flags);
    writer w = {sink, user, "", 0, true};
    axl_port_lock();
    uint32_t pos = ring.tail, end = ring.head, dropped = ring.dropped;
    axl_port_unlock();
    seen sn;
    memset(&sn, 0, sizeof sn);
    put(&w, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"axl\","
            "\"capacity\":%u,\"dropped\":%u},\"traceEvents\":[",
        (unsigned)AXL_TRACE_EVENTS, (unsigned)dropped);
    for (; pos != end; pos++) {
        struct trace_rec r;
        if (!rec_get(pos, &r))
            continue; /* overwritten meanwhile */
        record(&w, &sn, pos, &r);
    }
    put(&w, "\n]}\n");
    flush(&w);
    if (flags & AXL_TRACE_CONSUME) {
        axl_port_lock();
        if (end - ring.tail <= ring.head - ring.tail)
            ring.tail = end;
        axl_port_unlock();
    }
    return AXL_SUCCESS;
}

#else /* AXL_TRACE_EVENTS 0 */

static void trace_submit(struct axl__command *c, const struct axl__event *e,
                         const axl_handler *h, uint32_t in_order_prev)
{
    (void)c;
    (void)e;
    (void)h;
    (void)in_order_prev;
}

static uint32_t trace_end(struct axl__command *c, const struct axl__event *e,
                          axl_status status, uint64_t end)
{
    (void)c;
    (void)e;
    (void)status;
    (void)end;
    return 0;
}

void axl__trace_dep(struct axl__command *s, uint32_t rec)
{
    (void)s;
    (void)rec;
}

axl_status axl_trace_stats_get(axl_trace_stats *out)
{
    if (!out)
        return axl_fail(AXL_ERR_INVALID,
                        "axl_trace_stats_get: out must not be NULL");
    memset(out, 0, sizeof *out);
    return AXL_SUCCESS;
}

axl_status axl_trace_clear(void)
{
    return AXL_SUCCESS;
}

axl_status axl_trace_format(axl_text_sink sink, void *user, uint32_t flags)
{
    (void)user;
    if (!sink)
        return axl_fail(AXL_ERR_INVALID,
                        "axl_trace_format: sink must not be NULL");
    if (flags & ~(uint32_t)AXL_TRACE_CONSUME)
        return axl_fail(AXL_ERR_INVALID,
                        "axl_trace_format: unknown flags 0x%x",
                        (unsigned)flags);
    static const char doc[] = "{\"traceEvents\":[]}\n";
    sink(doc, sizeof doc - 1, user);
    return AXL_SUCCESS;
}

#endif
