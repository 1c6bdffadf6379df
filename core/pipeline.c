/*
 * pipeline.c - streaming designs (axl/pipeline.h): the pipes of a design,
 * pipelines found from its stream graph, their free-running and
 * auto-restart units, the order in which commands on their units start
 * (consumers first), stop, drain and reset with their reports, and the
 * hooks the rest of the core calls where such a command passes
 * (pipeline_priv.h).
 *
 * A pipeline holds its bundle (the design stays on the device) and, while
 * commands on its units are in flight, is held by each of them (holds): a
 * released pipeline's slot is retired (its handle stale at once) and
 * freed by the last of them. The port is called without the lock; a call
 * that does (start, update, stop, drain, reset, release) marks the
 * pipeline busy, and another such call meanwhile is refused.
 *
 * What the port sees is pl->hal (hal.h): the units in start order, the
 * streams, and `queued`, the commands on its units the port has not been
 * given yet, which an emulated device that looks for deadlocks reads.
 */
#include <string.h>

#include "rt.h"
#include "device_priv.h"
#include "queue_priv.h"
#include "sched_priv.h"
#include "handler_priv.h"
#include "kernel.h"
#include "bundle.h"
#include "image.h"
#include "devops.h"
#include "observe.h"
#include "pipeline_priv.h"
#if AXL_FEATURE_GRAPHS
#include "graph_priv.h"
#endif

#if AXL_FEATURE_STREAMS

_Static_assert(AXL_MAX_PIPELINES <= 254,
               "a command names its pipeline in a byte (slot + 1)");

static struct axl__pipeline *pipeline_at(uint8_t pipe)
{
    return axl__pipeline_at((uint16_t)(pipe - 1u));
}

/* ---- Names ------------------------------------------------------------------ */

/* The compute unit of x called `name` (its instance or its whole name),
 * or x->ip_count. */
static uint32_t unit_named(const axl_xclbin *x, const char *name)
{
    for (uint32_t i = 0; i < x->ip_count; i++) {
        axl_xclbin_ip ip;
        if (axl_xclbin_get_ip(x, i, &ip) != AXL_SUCCESS ||
            ip.type != AXL_XCLBIN_IP_KERNEL)
            continue;
        if (axl_str_eq(ip.name, name) ||
            axl_str_eq(axl_xclbin_instance_of(ip.name), name))
            return i;
    }
    return x->ip_count;
}

/* "mm2s_1.data_out->sadd_1.data_in". */
static void pipe_name(const axl_xclbin_stream *s, char *out, size_t cap)
{
    const axl_str p = axl_xclbin_instance_of(s->producer_unit);
    const axl_str c = axl_xclbin_instance_of(s->consumer_unit);
    axl_format(out, cap, "%.*s.%.*s->%.*s.%.*s", (int)p.len, p.ptr,
               (int)s->producer_port.len, s->producer_port.ptr, (int)c.len,
               c.ptr, (int)s->consumer_port.len, s->consumer_port.ptr);
}

/* The kernel id of kernel `index` of image slot img. */
static bool kid_of(uint16_t img, uint32_t index, uint16_t *slot)
{
    const axl__pool *p = AXL__POOL(KERNEL_ID);
    for (uint16_t s = 0; s < p->capacity; s++) {
        if (!axl__pool_is_live(p, s))
            continue;
        const struct axl__kernel_id *k = axl__kernel_id_at(s);
        if (k->image == img && k->index == index) {
            *slot = s;
            return true;
        }
    }
    return false;
}

/* Kernel index and unit ordinal of IP ip, by its kernel's name. */
static bool unit_of_kernel(const axl_xclbin *x, uint32_t ip,
                           uint32_t *kernel, uint32_t *ordinal)
{
    for (uint32_t k = 0; k < x->kernel_count; k++) {
        axl_xclbin_kernel ki;
        if (axl_xclbin_get_kernel(x, k, &ki) != AXL_SUCCESS)
            continue;
        for (uint32_t c = 0; c < ki.cu_count; c++) {
            uint32_t at;
            if (axl_xclbin_get_kernel_cu(x, &ki, c, &at) == AXL_SUCCESS &&
                at == ip) {
                *kernel = k;
                *ordinal = c;
                return true;
            }
        }
    }
    return false;
}

static const struct axl__device *device_of(const struct axl__pipeline *pl)
{
    return axl__device_at(pl->device);
}

static const axl_xclbin *design_of(const struct axl__pipeline *pl)
{
    return &axl__image_at(pl->image)->x;
}

/* The unit of pl called `name`, or NULL. */
static struct axl__pipeline_unit *unit_called(struct axl__pipeline *pl,
                                              const char *name)
{
    const uint32_t ip = unit_named(design_of(pl), name);
    for (uint8_t i = 0; i < pl->nunits; i++)
        if (pl->unit[i].ip == ip)
            return &pl->unit[i];
    return NULL;
}

static unsigned number_of(const struct axl__pipeline *pl)
{
    return (unsigned)pl->hal.number;
}

/* A port that gave up on a running pipeline (a deadlock, a free-running
 * or auto-restart model that failed) failed it (lock held). */
static void port_failed(struct axl__pipeline *pl)
{
    if (pl->hal.failed && pl->state == AXL_PIPELINE_RUNNING)
        pl->state = AXL_PIPELINE_FAILED;
}

/* A trace event of pl (unit UINT8_MAX: the pipeline's own). */
static void trace(const struct axl__pipeline *pl, uint8_t unit, uint8_t what,
                  uint64_t value, axl_status st)
{
    if (axl__trace_on())
        axl__trace_pipeline(pl->device, pl->hal.number, unit,
                            unit < pl->nunits ? pl->unit[unit].name : "",
                            what, value, st);
}

/* ---- Pipes ------------------------------------------------------------------ */

axl_status axl_kernel_bundle_get_pipes(axl_kernel_bundle kb,
                                       axl_pipe_info *out, uint32_t capacity,
                                       uint32_t *count)
{
    static const char fn[] = "axl_kernel_bundle_get_pipes";
    AXL__ENTER_OUT(kernel_bundle, b, kb, count);
    uint32_t n = 0;
    for (uint8_t i = 0; i < b->nimg; i++)
        n += axl_xclbin_stream_count(&axl__image_at(b->img[i])->x);
    st = axl__list_check(fn, n, out, capacity, count);
    uint32_t at = 0;
    for (uint8_t i = 0; st == AXL_SUCCESS && out && i < b->nimg; i++) {
        const axl_xclbin *x = &axl__image_at(b->img[i])->x;
        const uint32_t m = axl_xclbin_stream_count(x);
        for (uint32_t s = 0; s < m; s++, at++) {
            axl_pipe_info *p = &out[at];
            axl_xclbin_stream xs;
            memset(p, 0, sizeof *p);
            if (axl_xclbin_get_stream(x, s, &xs) != AXL_SUCCESS)
                continue;
            pipe_name(&xs, p->name, sizeof p->name);
            p->index = s;
            p->min_capacity = xs.fifo_depth;
            p->producer_arg = xs.producer_arg;
            p->consumer_arg = xs.consumer_arg;
            uint32_t k, o;
            uint16_t slot;
            if (unit_of_kernel(x, xs.producer_ip, &k, &o)) {
                p->producer_cu = o;
                if (kid_of(b->img[i], k, &slot))
                    p->producer.id = axl__pool_slot_handle(
                        AXL__POOL(KERNEL_ID), slot);
                axl_xclbin_kernel ki;
                axl_xclbin_get_kernel(x, k, &ki);
                for (uint32_t a = 0; a < ki.arg_count; a++) {
                    axl_xclbin_arg arg;
                    if (axl_xclbin_get_kernel_arg(x, &ki, a, &arg) ==
                            AXL_SUCCESS &&
                        arg.index == xs.producer_arg)
                        p->width_bits = arg.stream_bits;
                }
            }
            if (unit_of_kernel(x, xs.consumer_ip, &k, &o)) {
                p->consumer_cu = o;
                if (kid_of(b->img[i], k, &slot))
                    p->consumer.id = axl__pool_slot_handle(
                        AXL__POOL(KERNEL_ID), slot);
            }
        }
    }
    axl__leave();
    return st;
}

/* ---- Creating one --------------------------------------------------------------- */

/* The live pipeline on device slot dev that has IP ip as a unit. */
static struct axl__pipeline *pipeline_with(uint16_t dev, uint32_t ip,
                                           uint8_t *unit)
{
    const axl__pool *p = AXL__POOL(PIPELINE);
    for (uint16_t s = 0; p->ready && s < p->capacity; s++) {
        if (!axl__pool_is_live(p, s))
            continue;
        struct axl__pipeline *pl = axl__pipeline_at(s);
        if (pl->device != dev)
            continue;
        for (uint8_t i = 0; i < pl->nunits; i++)
            if (pl->unit[i].ip == ip) {
                if (unit)
                    *unit = i;
                return pl;
            }
    }
    return NULL;
}

/* The units and streams joined to IP first (breadth first over the
 * streams), into ips[] and pipes[]. */
typedef struct found {
    uint32_t ip[AXL_MAX_PIPELINE_UNITS];
    uint32_t pipe[AXL_MAX_PIPELINE_PIPES];
    uint32_t nips, npipes;
    uint32_t prod[AXL_MAX_PIPELINE_PIPES], cons[AXL_MAX_PIPELINE_PIPES];
} found;

static int index_of(const found *f, uint32_t ip)
{
    for (uint32_t i = 0; i < f->nips; i++)
        if (f->ip[i] == ip)
            return (int)i;
    return -1;
}

static axl_status gather(const char *fn, const axl_xclbin *x, uint32_t first,
                         found *f)
{
    f->nips = 1;
    f->npipes = 0;
    f->ip[0] = first;
    const uint32_t n = axl_xclbin_stream_count(x);
    for (uint32_t at = 0; at < f->nips; at++) {
        for (uint32_t s = 0; s < n; s++) {
            axl_xclbin_stream xs;
            if (axl_xclbin_get_stream(x, s, &xs) != AXL_SUCCESS ||
                (xs.producer_ip != f->ip[at] && xs.consumer_ip != f->ip[at]))
                continue;
            bool seen = false;
            for (uint32_t j = 0; j < f->npipes; j++)
                seen |= f->pipe[j] == s;
            if (seen)
                continue;
            if (f->npipes == AXL_MAX_PIPELINE_PIPES)
                return axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                                 "the pipeline has more than "
                                 "AXL_MAX_PIPELINE_PIPES (%u) streams: "
                                 "configure axl with "
                                 "-DAXL_MAX_PIPELINE_PIPES=%u",
                                 (unsigned)AXL_MAX_PIPELINE_PIPES,
                                 (unsigned)AXL_MAX_PIPELINE_PIPES * 2u);
            const uint32_t ends[2] = {xs.producer_ip, xs.consumer_ip};
            for (int e = 0; e < 2; e++) {
                if (index_of(f, ends[e]) >= 0)
                    continue;
                if (f->nips == AXL_MAX_PIPELINE_UNITS)
                    return axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                                     "the pipeline has more than "
                                     "AXL_MAX_PIPELINE_UNITS (%u) units: "
                                     "configure axl with "
                                     "-DAXL_MAX_PIPELINE_UNITS=%u",
                                     (unsigned)AXL_MAX_PIPELINE_UNITS,
                                     (unsigned)AXL_MAX_PIPELINE_UNITS * 2u);
                f->ip[f->nips++] = ends[e];
            }
            f->pipe[f->npipes] = s;
            f->prod[f->npipes] = (uint32_t)index_of(f, xs.producer_ip);
            f->cons[f->npipes] = (uint32_t)index_of(f, xs.consumer_ip);
            f->npipes++;
        }
    }
    return AXL_SUCCESS;
}

/* The units in start order, consumers first (a unit after every unit it
 * feeds), each with the units downstream of it; a cycle of streams is
 * refused, naming a unit on it. order[k] is the found index of the k-th. */
static axl_status order_units(const char *fn, const axl_xclbin *x,
                              const found *f, uint32_t *order,
                              uint32_t *down)
{
    uint32_t succ[AXL_MAX_PIPELINE_UNITS] = {0}, placed = 0, n = 0;
    for (uint32_t p = 0; p < f->npipes; p++)
        succ[f->prod[p]] |= 1u << f->cons[p];
    while (n < f->nips) {
        uint32_t pick = f->nips;
        for (uint32_t i = 0; i < f->nips && pick == f->nips; i++)
            if (!(placed >> i & 1u) && (succ[i] & ~placed) == 0)
                pick = i;
        if (pick == f->nips) {
            uint32_t i = 0;
            while (placed >> i & 1u)
                i++;
            axl_xclbin_ip ip;
            axl_xclbin_get_ip(x, f->ip[i], &ip);
            (void)ip;
            return axl__fail(fn, AXL_ERR_INVALID,
                             "the streams through %.*s make a cycle: a "
                             "pipeline's units start consumers first, and "
                             "a cycle has no first",
                             (int)ip.name.len, ip.name.ptr);
        }
        placed |= 1u << pick;
        down[pick] = succ[pick];
        for (uint32_t j = 0; j < f->nips; j++)
            if (succ[pick] >> j & 1u)
                down[pick] |= down[j];
        order[n++] = pick;
    }
    return AXL_SUCCESS;
}

/* The scalars of a free-running or auto-restart unit: its kernel's
 * scalar arguments, none set yet. */
static void unit_scalars(const axl_xclbin *x, uint32_t kernel,
                         struct axl__pipeline_unit *u)
{
    axl_xclbin_kernel ki;
    u->nscalars = 0;
    if (axl_xclbin_get_kernel(x, kernel, &ki) != AXL_SUCCESS)
        return;
    for (uint32_t a = 0; a < ki.arg_count && u->nscalars < AXL_MAX_KERNEL_ARGS;
         a++) {
        axl_xclbin_arg arg;
        if (axl_xclbin_get_kernel_arg(x, &ki, a, &arg) != AXL_SUCCESS ||
            arg.address_qualifier != AXL_XCLBIN_ARG_SCALAR)
            continue;
        struct axl__pipe_scalar *sc = &u->scalar[u->nscalars++];
        memset(sc, 0, sizeof *sc);
        sc->id = (uint16_t)arg.index;
        sc->size = (uint8_t)(arg.host_size ? arg.host_size : arg.size);
    }
}

/* Whether `name` is among the desc's auto-restart units. */
static bool on_auto_restart(const axl_pipeline_desc *d, const axl_xclbin *x,
                            uint32_t ip)
{
    for (uint32_t i = 0; i < d->auto_restart_count; i++)
        if (d->auto_restart[i] && unit_named(x, d->auto_restart[i]) == ip)
            return true;
    return false;
}

/* The desc's auto-restart names that are no unit of the pipeline, or not
 * ap_ctrl_chain: refused, naming it. */
static axl_status check_restart(const char *fn, const axl_pipeline_desc *d,
                                const axl_xclbin *x, const found *f)
{
    for (uint32_t i = 0; i < d->auto_restart_count; i++) {
        const char *name = d->auto_restart[i];
        if (!name)
            return axl__null(fn, "an auto_restart name");
        const uint32_t ip = unit_named(x, name);
        if (ip == x->ip_count || index_of(f, ip) < 0)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "auto_restart: %s is no unit of the pipeline "
                             "(its units are joined to %s by streams)",
                             name, d->unit);
        axl_xclbin_ip xi;
        axl_xclbin_get_ip(x, ip, &xi);
        if (xi.control != AXL_XCLBIN_AP_CTRL_CHAIN)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "auto_restart: %s is %s; only an ap_ctrl_chain "
                             "unit restarts by itself (control bit 7)",
                             name, axl_xclbin_control_name(xi.control));
    }
    return AXL_SUCCESS;
}

/* Fills a new pipeline from what was found (lock held). */
static axl_status fill(const char *fn, struct axl__pipeline *pl,
                       const axl_pipeline_desc *d, const axl_xclbin *x,
                       const found *f, const uint32_t *order,
                       const uint32_t *down)
{
    uint32_t pos[AXL_MAX_PIPELINE_UNITS]; /* found index -> start order */
    for (uint32_t k = 0; k < f->nips; k++)
        pos[order[k]] = k;
    pl->nunits = (uint8_t)f->nips;
    pl->npipes = (uint8_t)f->npipes;
    for (uint32_t k = 0; k < f->nips; k++) {
        const uint32_t i = order[k];
        struct axl__pipeline_unit *u = &pl->unit[k];
        memset(u, 0, sizeof *u);
        axl_xclbin_ip xi;
        uint32_t kernel = 0, ordinal = 0;
        axl_xclbin_get_ip(x, f->ip[i], &xi);
        if (!unit_of_kernel(x, f->ip[i], &kernel, &ordinal) ||
            !kid_of(pl->image, kernel, &u->kid))
            return axl__fail(fn, AXL_ERR_INVALID,
                             "unit %.*s names a kernel the design's XML "
                             "does not describe",
                             (int)xi.name.len, xi.name.ptr);
        const axl_str inst = axl_xclbin_instance_of(xi.name);
        axl_format(u->name, sizeof u->name, "%.*s", (int)inst.len, inst.ptr);
        u->ip = (uint16_t)f->ip[i];
        u->ordinal = (uint8_t)ordinal;
        u->kind = xi.control == AXL_XCLBIN_AP_CTRL_NONE
                      ? AXL_PIPELINE_FREE_RUNNING
                  : on_auto_restart(d, x, f->ip[i])
                      ? AXL_PIPELINE_AUTO_RESTART
                      : AXL_PIPELINE_COMMAND;
        u->state = AXL_PIPELINE_UNIT_IDLE;
        for (uint32_t j = 0; j < f->nips; j++)
            if (down[i] >> j & 1u)
                u->down |= 1u << pos[j];
        if (u->kind != AXL_PIPELINE_COMMAND)
            unit_scalars(x, kernel, u);
        axl_hal_pipeline_unit *h = &pl->hunit[k];
        h->ip_index = u->ip;
        h->kernel_index = kernel;
        h->kind = u->kind;
        h->name = u->name;
        h->iterations = 0;
    }
    for (uint32_t p = 0; p < f->npipes; p++)
        pl->pipe[p] = f->pipe[p];
    memset(&pl->hal, 0, sizeof pl->hal);
    pl->hal.number = (uint32_t)AXL__SLOT(PIPELINE, pl) + 1u;
    pl->hal.image = x;
    pl->hal.unit_count = pl->nunits;
    pl->hal.units = pl->hunit;
    pl->hal.stream_count = pl->npipes;
    pl->hal.streams = pl->pipe;
    return AXL_SUCCESS;
}

/* The bundle's checks for a pipeline on q's device (lock held). */
static axl_status bundle_ok(const char *fn, const struct axl__queue *q,
                            const struct axl__bundle *b,
                            const struct axl__device *d)
{
    bool for_d = false;
    for (uint8_t i = 0; i < b->ndev; i++)
        for_d |= b->dev[i] == q->device;
    if (b->state != AXL_BUNDLE_EXECUTABLE)
        return axl__wrong_state(fn, "a pipeline needs an executable bundle",
                                b->state);
    if (b->context != q->context)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "the bundle's context is not the queue's");
    if (!for_d)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "the bundle is not for the queue's device %s",
                         d->info.name);
    bool carries = false;
    for (uint8_t i = 0; i < b->nimg; i++)
        carries |= axl__device_carries(d, b->img[i]);
    if (!carries)
        return axl__fail(fn, AXL_ERR_BAD_STATE,
                         "%s does not carry the bundle's design",
                         d->info.name);
#if AXL_FEATURE_DESIGN_SWAP
    /* Its IPs would be taken at their bare IP_LAYOUT index, not at the
     * slot's unit numbers (designs-design.md 3.4): refused. */
    for (uint8_t i = 0; d->nslots && i < b->nimg; i++) {
        const uint8_t r = axl__slot_carrying(d, b->img[i]);
        if (r)
            return axl__fail(fn, AXL_ERR_FEATURE_NOT_SUPPORTED,
                             "the bundle's design is in slot %u (%s) of %s: "
                             "pipelines of a design in a DFX slot are not "
                             "built yet",
                             (unsigned)(r - 1), d->region[r].desc.name,
                             d->info.name);
    }
#endif
    if (!axl__dev_has_pipelines(d) && d->port->no_pipelines)
        return axl__fail(fn, AXL_ERR_FEATURE_NOT_SUPPORTED,
                         "%s runs no pipelines: %s", d->info.name,
                         d->port->no_pipelines);
    if (!axl__dev_has_pipelines(d))
        return axl__fail(fn, AXL_ERR_FEATURE_NOT_SUPPORTED,
                         "%s runs no pipelines: the %s port starts no "
                         "free-running (ap_ctrl_none) or auto-restart unit",
                         d->info.name, d->port->name);
    return AXL_SUCCESS;
}

/* Frees a pipeline nothing holds (lock held). */
static void pipeline_free(struct axl__pipeline *pl)
{
    struct axl__bundle *b = axl__bundle_at(pl->bundle);
    axl__pool_free(AXL__POOL(PIPELINE), pl);
    axl__bundle_unhold(b);
}

static void hooks_on(void); /* below the calls it gives */

axl_status axl_pipeline_create(axl_queue queue, const axl_pipeline_desc *desc,
                               axl_pipeline *out)
{
    static const char fn[] = "axl_pipeline_create";
    if (!desc)
        return axl__null(fn, "desc");
    if (!desc->unit)
        return axl__null(fn, "desc->unit");
    if (desc->auto_restart_count && !desc->auto_restart)
        return axl__null(fn, "desc->auto_restart");
    AXL__ENTER_OUT(queue, q, queue, out);
    struct axl__device *d = axl__device_at(q->device);
    struct axl__bundle *b = axl__kernel_bundle_get(fn, desc->bundle, &st);
    if (b)
        st = bundle_ok(fn, q, b, d);
    if (st != AXL_SUCCESS) {
        axl__leave();
        return st;
    }
    const uint16_t img = axl__image_ref_slot(d->loaded);
    const axl_xclbin *x = &axl__image_at(img)->x;
    const uint32_t first = unit_named(x, desc->unit);
    found f;
    f.nips = f.npipes = 0;
    uint32_t order[AXL_MAX_PIPELINE_UNITS], down[AXL_MAX_PIPELINE_UNITS] = {0};
    if (first == x->ip_count)
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "no compute unit \"%s\" in the design on %s",
                       desc->unit, d->info.name);
    else
        st = gather(fn, x, first, &f);
    if (st == AXL_SUCCESS && f.npipes == 0)
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "%s has no stream joined to another unit: it is no "
                       "unit of a pipeline (launch it as any kernel)",
                       desc->unit);
    if (st == AXL_SUCCESS)
        st = check_restart(fn, desc, x, &f);
    if (st == AXL_SUCCESS)
        st = order_units(fn, x, &f, order, down);
    for (uint32_t i = 0; st == AXL_SUCCESS && i < f.nips; i++) {
        const struct axl__pipeline *other = pipeline_with(q->device, f.ip[i],
                                                          NULL);
        if (other) {
            axl_xclbin_ip xi;
            axl_xclbin_get_ip(x, f.ip[i], &xi);
            (void)xi;
            st = axl__fail(fn, AXL_ERR_BAD_STATE,
                           "%.*s is a unit of pipeline %u already (0x%08x): "
                           "release it first",
                           (int)xi.name.len, xi.name.ptr,
                           number_of(other),
                           (unsigned)AXL__HANDLE(PIPELINE, other));
        }
    }
    struct axl__pipeline *pl = NULL;
    if (st == AXL_SUCCESS) {
        pl = axl__pool_alloc(AXL__POOL(PIPELINE));
        if (!pl)
            st = axl__pool_full(fn, AXL__POOL_PIPELINE);
    }
    if (st == AXL_SUCCESS) {
        hooks_on(); /* a pipeline exists: the scheduler's calls reach it */
        memset(pl, 0, sizeof *pl);
        pl->bundle = AXL__SLOT(KERNEL_BUNDLE, b);
        pl->device = q->device;
#if AXL_FEATURE_GRAPHS
        pl->queue = AXL__HANDLE(QUEUE, q);
#endif
        pl->image = img;
        pl->state = AXL_PIPELINE_CREATED;
        pl->start_timeout = desc->start_timeout_ns
                                ? desc->start_timeout_ns
                                : AXL_PIPELINE_START_TIMEOUT_NS;
        pl->stop_timeout = desc->stop_timeout_ns
                               ? desc->stop_timeout_ns
                               : AXL_PIPELINE_STOP_TIMEOUT_NS;
        st = fill(fn, pl, desc, x, &f, order, down);
        if (st != AXL_SUCCESS)
            axl__pool_free(AXL__POOL(PIPELINE), pl);
    }
    if (st != AXL_SUCCESS) {
        axl__leave();
        return st;
    }
    b->holds++; /* its design stays (bundle.c, design_held) */
    pl->holds = 1;
    pl->busy = true;
    axl__leave();
    st = axl__dev_pipeline_open(d, &pl->hal);
    axl_port_lock();
    pl->busy = false;
    pl->holds = 0;
    if (st != AXL_SUCCESS) {
        char why[AXL_MESSAGE_MAX];
        axl_format(why, sizeof why, "%s", axl_last_message());
        st = axl__fail(fn, st, "%s", why);
        pipeline_free(pl);
    } else {
        pl->open = true;
        out->id = AXL__HANDLE(PIPELINE, pl);
        AXL__LOG(AXL__LOG_INFO,
                 "pipeline %u on %s: %u units, %u pipes, from %s",
                 number_of(pl), d->info.name, (unsigned)pl->nunits,
                 (unsigned)pl->npipes, desc->unit);
    }
    axl__leave();
    return st;
}

/* ---- Calls that reach the port ---------------------------------------------- */

/* The pipeline behind h with the lock held and the call marked busy, or
 * NULL with *st (lock not held). */
static struct axl__pipeline *begin_call(const char *fn, axl_pipeline h,
                                        axl_status *st)
{
    struct axl__pipeline *pl = axl__pipeline_enter(fn, h, st);
    if (!pl)
        return NULL;
    if (pl->busy) {
        *st = axl__fail(fn, AXL_ERR_BAD_STATE,
                        "pipeline %u: another call on it is inside the "
                        "device's port; call again once it returns",
                        number_of(pl));
        axl__leave();
        return NULL;
    }
    pl->busy = true;
    pl->holds++;
    return pl;
}

/* The call is over (lock held on entry, let go on return); a pipeline
 * released meanwhile is freed by its last holder. */
static void end_call(struct axl__pipeline *pl)
{
    pl->busy = false;
    const axl__pool *p = AXL__POOL(PIPELINE);
    if (--pl->holds == 0 &&
        p->link[axl__pool_slot(p, pl)] == AXL__SLOT_RETIRED)
        pipeline_free(pl);
    axl__leave();
}

/* The unit called `name` for a call, or NULL with the message. */
static struct axl__pipe_scalar *scalar_of(const char *fn,
                                          struct axl__pipeline *pl,
                                          const char *name, uint32_t id,
                                          size_t size,
                                          struct axl__pipeline_unit **unit,
                                          axl_status *st)
{
    struct axl__pipeline_unit *u = unit_called(pl, name);
    *unit = u;
    if (!u) {
        *st = axl__fail(fn, AXL_ERR_INVALID,
                        "%s is no unit of pipeline %u", name, number_of(pl));
        return NULL;
    }
    if (u->kind == AXL_PIPELINE_COMMAND) {
        *st = axl__fail(fn, AXL_ERR_INVALID,
                        "%s is a command unit of pipeline %u: its arguments "
                        "are its commands' (only free-running and "
                        "auto-restart units take them here)",
                        u->name, number_of(pl));
        return NULL;
    }
    for (uint8_t i = 0; i < u->nscalars; i++) {
        struct axl__pipe_scalar *sc = &u->scalar[i];
        if (sc->id != id)
            continue;
        if (size != sc->size || size > sizeof sc->bytes) {
            *st = axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                            "argument %u of %s takes %u bytes; %u were "
                            "given%s",
                            (unsigned)id, u->name, (unsigned)sc->size,
                            (unsigned)size,
                            sc->size > sizeof sc->bytes
                                ? " (a pipeline takes scalars of 8 bytes at "
                                  "most)"
                                : "");
            return NULL;
        }
        *st = AXL_SUCCESS;
        return sc;
    }
    *st = axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                    "%s has no scalar argument %u (its scalars are register "
                    "arguments of its kernel's XML; streams are the "
                    "design's)",
                    u->name, (unsigned)id);
    return NULL;
}

axl_status axl_pipeline_set_arg(axl_pipeline h, const char *unit,
                                uint32_t arg_index, const void *value,
                                size_t size)
{
    static const char fn[] = "axl_pipeline_set_arg";
    if (!unit)
        return axl__null(fn, "unit");
    if (!value)
        return axl__null(fn, "value");
    AXL__ENTER(pipeline, pl, h);
    struct axl__pipeline_unit *u;
    struct axl__pipe_scalar *sc =
        scalar_of(fn, pl, unit, arg_index, size, &u, &st);
    if (sc && (pl->state == AXL_PIPELINE_RUNNING ||
               pl->state == AXL_PIPELINE_STOPPING || pl->busy)) {
        st = axl__fail(fn, AXL_ERR_BAD_STATE,
                       "pipeline %u is running: axl_pipeline_update_arg "
                       "changes a running unit's scalar",
                       number_of(pl));
        sc = NULL;
    }
    if (sc) {
        memcpy(sc->bytes, value, size);
        sc->set = true;
    }
    axl__leave();
    return st;
}

/* Unit i's scalars as hal arguments. */
static uint32_t hal_args(const struct axl__pipeline_unit *u, axl_hal_arg *a)
{
    for (uint8_t i = 0; i < u->nscalars; i++) {
        memset(&a[i], 0, sizeof a[i]);
        a[i].id = u->scalar[i].id;
        a[i].size = u->scalar[i].size;
        a[i].value = u->scalar[i].bytes;
    }
    return u->nscalars;
}

/* Lets held commands whose consumers have all started go (lock held). */
static void release_held(struct axl__pipeline *pl);

static bool started(const struct axl__pipeline_unit *u)
{
    return u->kind != AXL_PIPELINE_COMMAND
               ? u->state == AXL_PIPELINE_UNIT_STARTED ||
                     u->state == AXL_PIPELINE_UNIT_RESTARTING
               : u->running != 0;
}

/* Stops units [0, n) of pl that were started, producers first (lock held;
 * dropped around the port). */
static void stop_units(struct axl__pipeline *pl, uint32_t n, uint32_t how)
{
    const struct axl__device *d = device_of(pl);
    for (uint32_t k = n; k-- > 0;) {
        struct axl__pipeline_unit *u = &pl->unit[k];
        if (u->kind == AXL_PIPELINE_COMMAND || !started(u))
            continue;
        axl__leave();
        axl__dev_unit_stop(d, &pl->hal, k, how, pl->stop_timeout);
        axl_port_lock();
        u->state = AXL_PIPELINE_UNIT_STOPPED;
    }
}

/*
 * A start or stop called while the queue the pipeline was made on records
 * a graph is a node of that graph (graph.c), not run now
 * (sycl_ext_oneapi_graph's record-and-replay: "commands submitted to a
 * queue in the recording state are not executed"). True when the call
 * is done with that (*st its status, or a bad handle's).
 */
static bool recorded(const char *fn, axl_pipeline h, uint8_t kind,
                     axl_status *st)
{
#if AXL_FEATURE_GRAPHS
    struct axl__pipeline *pl = axl__pipeline_enter(fn, h, st);
    if (!pl)
        return true;
    struct axl__queue *q = axl__pool_get(AXL__POOL(QUEUE), pl->queue);
    const bool rec = q && AXL__IS_REF(q->graph) && axl__graph_pipe_fn;
    if (rec)
        *st = axl__graph_pipe_fn(fn, q, h.id, kind);
    axl__leave();
    return rec;
#else
    (void)fn, (void)h, (void)kind, (void)st;
    return false;
#endif
}

static axl_status start_now(const char *fn, axl_pipeline h);
static axl_status stop_now(const char *fn, axl_pipeline h,
                           axl_pipeline_report *report);

axl_status axl_pipeline_start(axl_pipeline h)
{
    static const char fn[] = "axl_pipeline_start";
    axl_status st;
    if (recorded(fn, h, AXL__CMD_PIPE_START, &st))
        return st;
    return start_now(fn, h);
}

static axl_status start_now(const char *fn, axl_pipeline h)
{
    axl_status st;
    struct axl__pipeline *pl = begin_call(fn, h, &st);
    if (!pl)
        return st;
    if (pl->state != AXL_PIPELINE_CREATED &&
        pl->state != AXL_PIPELINE_STOPPED) {
        static const char *const names[] = {"created", "running", "stopping",
                                            "stopped", "failed"};
        (void)names;
        st = axl__fail(fn, AXL_ERR_BAD_STATE,
                       "pipeline %u is %s: it starts from created or "
                       "stopped%s",
                       number_of(pl), names[pl->state % 5u],
                       pl->state == AXL_PIPELINE_FAILED
                           ? " (axl_pipeline_reset first)"
                           : "");
    }
    for (uint8_t k = 0; st == AXL_SUCCESS && k < pl->nunits; k++)
        for (uint8_t i = 0; i < pl->unit[k].nscalars; i++)
            if (!pl->unit[k].scalar[i].set) {
                st = axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                               "argument %u of %s was not set "
                               "(axl_pipeline_set_arg)",
                               (unsigned)pl->unit[k].scalar[i].id,
                               pl->unit[k].name);
                break;
            }
    if (st != AXL_SUCCESS) {
        end_call(pl);
        return st;
    }
    const struct axl__device *d = device_of(pl);
    pl->hal.failed = 0;
    pl->hal.why[0] = '\0';
    trace(pl, UINT8_MAX, AXL__TRACE_PIPELINE_START, pl->nunits, AXL_SUCCESS);
    uint8_t k = 0;
    for (; k < pl->nunits; k++) {
        struct axl__pipeline_unit *u = &pl->unit[k];
        if (u->kind == AXL_PIPELINE_COMMAND)
            continue;
        axl_hal_arg args[AXL_MAX_KERNEL_ARGS];
        const uint32_t n = hal_args(u, args);
        __atomic_store_n(&pl->hunit[k].iterations, 0u, __ATOMIC_RELAXED);
        axl__leave();
        st = axl__dev_unit_start(d, &pl->hal, k, args, n);
        axl_port_lock();
        if (st != AXL_SUCCESS) {
            char why[AXL_MESSAGE_MAX];
            axl_format(why, sizeof why, "%s", axl_last_message());
            st = axl__fail(fn, st, "%s did not start: %s", u->name, why);
            u->state = AXL_PIPELINE_UNIT_FAILED;
            break;
        }
        u->state = u->kind == AXL_PIPELINE_AUTO_RESTART
                       ? AXL_PIPELINE_UNIT_RESTARTING
                       : AXL_PIPELINE_UNIT_STARTED;
        trace(pl, k, AXL__TRACE_UNIT_START, u->kind, AXL_SUCCESS);
    }
    if (st != AXL_SUCCESS) {
        char why[AXL_MESSAGE_MAX];
        axl_format(why, sizeof why, "%s", axl_last_message());
        stop_units(pl, k, AXL_HAL_STOP);
        axl__fail(fn, st, "%s", why); /* the stops may have set one */
    } else {
        pl->state = AXL_PIPELINE_RUNNING;
        release_held(pl);
    }
    end_call(pl);
    return st;
}

axl_status axl_pipeline_update_arg(axl_pipeline h, const char *unit,
                                   uint32_t arg_index, const void *value,
                                   size_t size, uint64_t timeout_ns)
{
    static const char fn[] = "axl_pipeline_update_arg";
    if (!unit)
        return axl__null(fn, "unit");
    if (!value)
        return axl__null(fn, "value");
    axl_status st;
    struct axl__pipeline *pl = begin_call(fn, h, &st);
    if (!pl)
        return st;
    struct axl__pipeline_unit *u;
    struct axl__pipe_scalar *sc =
        scalar_of(fn, pl, unit, arg_index, size, &u, &st);
    if (sc && pl->state != AXL_PIPELINE_RUNNING) {
        st = axl__fail(fn, AXL_ERR_BAD_STATE,
                       "pipeline %u is not running: axl_pipeline_set_arg "
                       "sets a scalar for its next start",
                       number_of(pl));
        sc = NULL;
    }
    if (!sc) {
        end_call(pl);
        return st;
    }
    axl_hal_arg arg;
    uint8_t bytes[8];
    memcpy(bytes, value, size);
    memset(&arg, 0, sizeof arg);
    arg.id = sc->id;
    arg.size = size;
    arg.value = bytes;
    const uint32_t k = (uint32_t)(u - pl->unit);
    axl__leave();
    st = axl__dev_unit_update(device_of(pl), &pl->hal, k, &arg, timeout_ns);
    axl_port_lock();
    if (st == AXL_SUCCESS) {
        memcpy(sc->bytes, bytes, size); /* the next start's too */
    } else {
        char why[AXL_MESSAGE_MAX];
        axl_format(why, sizeof why, "%s", axl_last_message());
        st = axl__fail(fn, st, "%s", why);
    }
    trace(pl, (uint8_t)k, AXL__TRACE_MAILBOX,
          __atomic_load_n(&pl->hunit[k].iterations, __ATOMIC_RELAXED), st);
    end_call(pl);
    return st;
}

/* ---- Stopping ------------------------------------------------------------------ */

/* Notes a unit that did not stop in the report (the first one's name and
 * why), and counts it. */
static void report_unit(axl_pipeline_report *r, const char *unit,
                        const char *why)
{
    if (r->not_stopped++ == 0) {
        axl_format(r->unit, sizeof r->unit, "%s", unit);
        axl_format(r->why, sizeof r->why, "%s", why);
    }
}

/* Held commands fail (lock held): the pipeline stops or resets. */
static void fail_held(struct axl__pipeline *pl, const char *what)
{
    struct axl__command *c;
    while ((c = axl__fifo_pop(&pl->held))) {
        c->u.kernel.pipe_flags &= (uint8_t)~AXL__PIPE_HELD;
        char why[AXL_MESSAGE_MAX];
        axl__why(why, sizeof why,
                 "pipeline %u was %s before %s's command could start",
                 number_of(pl), what,
                 pl->unit[c->u.kernel.pipe_unit].name);
        axl__complete(c, AXL_ERR_BAD_STATE, why);
    }
    for (uint8_t k = 0; k < pl->nunits; k++)
        pl->unit[k].held_at = 0;
}

/* Whether no command runs on pl's units (a wait's predicate). */
static bool commands_out(const void *arg)
{
    const struct axl__pipeline *pl = arg;
    for (uint8_t k = 0; k < pl->nunits; k++)
        if (pl->unit[k].running)
            return false;
    return true;
}

/* hal.queued moves under the lock; a port's waiter may read it without
 * (hal.h: the mmio port tells its model whether work is to come before
 * each slice of the model's time), so it moves atomically. */
static void queued_add(struct axl__pipeline *pl, uint32_t n)
{
    __atomic_fetch_add(&pl->hal.queued, n, __ATOMIC_RELEASE);
}

static void queued_less(struct axl__pipeline *pl)
{
    __atomic_fetch_sub(&pl->hal.queued, 1u, __ATOMIC_RELEASE);
    axl_port_wake(AXL_PORT_CHANNEL_DEVICE);
}

/* A pipeline a replay started stops (by the replay's stop node, or by
 * hand after a replay that failed before it): hal.queued as it was. */
static void replay_over(struct axl__pipeline *pl)
{
#if AXL_FEATURE_GRAPHS
    if (!pl->replayed)
        return;
    pl->replayed = false;
    queued_less(pl);
#else
    (void)pl;
#endif
}

/* Stop: held commands fail, auto-restart units stop producers first,
 * commands in flight are waited for (lock held, dropped meanwhile). */
static void stop(struct axl__pipeline *pl, uint32_t how,
                 axl_pipeline_report *r)
{
    const struct axl__device *d = device_of(pl);
    replay_over(pl);
    pl->state = AXL_PIPELINE_STOPPING;
    fail_held(pl, "stopped");
    for (uint32_t k = pl->nunits; k-- > 0;) {
        struct axl__pipeline_unit *u = &pl->unit[k];
        if (u->kind == AXL_PIPELINE_COMMAND || !started(u))
            continue;
        axl__leave();
        axl_status st = axl__dev_unit_stop(d, &pl->hal, k, how,
                                           pl->stop_timeout);
        char why[AXL_MESSAGE_MAX];
        axl_format(why, sizeof why, "%s", axl_last_message());
        axl_port_lock();
        const uint32_t n =
            __atomic_load_n(&pl->hunit[k].iterations, __ATOMIC_RELAXED);
        if (st != AXL_SUCCESS) {
            report_unit(r, u->name, why);
            trace(pl, (uint8_t)k, AXL__TRACE_UNIT_STOP_TIMEOUT, n, st);
        } else {
            trace(pl, (uint8_t)k, AXL__TRACE_UNIT_STOP, n, st);
        }
        /* A free-running unit runs on (nothing stops one but a reset);
         * the emulated device ends its model only at close. */
        u->state = u->kind == AXL_PIPELINE_FREE_RUNNING && how == AXL_HAL_STOP
                       ? AXL_PIPELINE_UNIT_STARTED
                       : AXL_PIPELINE_UNIT_STOPPED;
    }
    const uint64_t until = axl__now() + pl->stop_timeout;
    if (!axl__wait_until_pred_by(commands_out, pl, until < axl__now()
                                                       ? UINT64_MAX
                                                       : until)) {
        for (uint8_t k = 0; k < pl->nunits; k++) {
            if (!pl->unit[k].running)
                continue;
            char why[AXL_MESSAGE_MAX];
            axl__why(why, sizeof why,
                     "its command still runs %llu ns after the stop (it "
                     "goes on: wait for it, or reset the pipeline)",
                     (unsigned long long)pl->stop_timeout);
            report_unit(r, pl->unit[k].name, why);
        }
    }
    pl->state = AXL_PIPELINE_STOPPED;
    trace(pl, UINT8_MAX, AXL__TRACE_PIPELINE_STOP, r->not_stopped,
          r->not_stopped ? AXL_ERR_TIMEOUT : AXL_SUCCESS);
}

/* The result of a stop, drain or reset: the report's first unit. */
static axl_status stop_result(const char *fn, const struct axl__pipeline *pl,
                              const axl_pipeline_report *r, const char *verb)
{
    (void)pl, (void)verb;
    if (!r->not_stopped)
        return AXL_SUCCESS;
    return axl__fail(fn, AXL_ERR_TIMEOUT,
                     "pipeline %u: %u unit%s did not %s: %s: %s",
                     number_of(pl), (unsigned)r->not_stopped,
                     r->not_stopped == 1 ? "" : "s", verb, r->unit, r->why);
}

/* What stop and drain begin with: the report cleared, the call begun
 * (NULL, *st set, for a bad handle), a running or failed pipeline stopped
 * and *st the stop's result. */
static struct axl__pipeline *stop_call(const char *fn, axl_pipeline h,
                                       axl_pipeline_report *r,
                                       axl_status *st)
{
    memset(r, 0, sizeof *r);
    struct axl__pipeline *pl = begin_call(fn, h, st);
    if (!pl)
        return NULL;
    if (pl->state == AXL_PIPELINE_RUNNING ||
        pl->state == AXL_PIPELINE_FAILED)
        stop(pl, AXL_HAL_STOP, r);
    *st = stop_result(fn, pl, r, "stop");
    return pl;
}

axl_status axl_pipeline_stop(axl_pipeline h, axl_pipeline_report *report)
{
    static const char fn[] = "axl_pipeline_stop";
    axl_pipeline_report own;
    axl_status st;
    if (recorded(fn, h, AXL__CMD_PIPE_STOP, &st)) {
        if (report)
            memset(report, 0, sizeof *report);
        return st;
    }
    return stop_now(fn, h, report ? report : &own);
}

static axl_status stop_now(const char *fn, axl_pipeline h,
                           axl_pipeline_report *report)
{
    axl_status st;
    struct axl__pipeline *pl = stop_call(fn, h, report, &st);
    if (pl)
        end_call(pl);
    return st;
}

axl_status axl_pipeline_drain(axl_pipeline h, axl_pipeline_report *report)
{
    static const char fn[] = "axl_pipeline_drain";
    axl_pipeline_report own;
    axl_pipeline_report *r = report ? report : &own;
    axl_status st;
    struct axl__pipeline *pl = stop_call(fn, h, r, &st);
    if (!pl)
        return st;
    const struct axl__device *d = device_of(pl);
    if (st == AXL_SUCCESS && !axl__dev_can_drain(d)) {
        st = axl__fail(fn, AXL_ERR_FEATURE_NOT_SUPPORTED,
                       "pipeline %u is stopped; the %s port cannot see the "
                       "fabric's FIFOs, so whether its pipes are empty is "
                       "not known",
                       number_of(pl), d->port->name);
    } else if (st == AXL_SUCCESS) {
        axl__leave();
        st = axl__dev_pipeline_drained(d, &pl->hal, pl->stop_timeout);
        char why[AXL_MESSAGE_MAX];
        axl_format(why, sizeof why, "%s", axl_last_message());
        axl_port_lock();
        if (st != AXL_SUCCESS) {
            report_unit(r, "", why);
            st = axl__fail(fn, st, "pipeline %u is stopped, not drained: %s",
                           number_of(pl), why);
        }
    }
    end_call(pl);
    return st;
}

axl_status axl_pipeline_reset(axl_pipeline h, axl_pipeline_report *report)
{
    static const char fn[] = "axl_pipeline_reset";
    axl_pipeline_report own;
    axl_pipeline_report *r = report ? report : &own;
    memset(r, 0, sizeof *r);
    axl_status st;
    struct axl__pipeline *pl = begin_call(fn, h, &st);
    if (!pl)
        return st;
    const struct axl__device *d = device_of(pl);
    replay_over(pl);
    pl->state = AXL_PIPELINE_STOPPING;
    fail_held(pl, "reset");
    for (uint32_t k = pl->nunits; k-- > 0;) {
        struct axl__pipeline_unit *u = &pl->unit[k];
        axl__leave();
        st = axl__dev_unit_stop(d, &pl->hal, k, AXL_HAL_RESET,
                                pl->stop_timeout);
        char why[AXL_MESSAGE_MAX];
        axl_format(why, sizeof why, "%s", axl_last_message());
        axl_port_lock();
        if (st != AXL_SUCCESS)
            report_unit(r, u->name, why);
        u->state = AXL_PIPELINE_UNIT_IDLE;
    }
    /* Commands on its units end as their units were reset. */
    const uint64_t until = axl__now() + pl->stop_timeout;
    axl__wait_until_pred_by(commands_out, pl,
                            until < axl__now() ? UINT64_MAX : until);
    pl->hal.failed = 0;
    pl->hal.why[0] = '\0';
    pl->state = AXL_PIPELINE_CREATED;
    trace(pl, UINT8_MAX, AXL__TRACE_PIPELINE_RESET, r->not_stopped,
          r->not_stopped ? AXL_ERR_TIMEOUT : AXL_SUCCESS);
    st = stop_result(fn, pl, r, "reset");
    end_call(pl);
    return st;
}

axl_status axl_pipeline_release(axl_pipeline h)
{
    static const char fn[] = "axl_pipeline_release";
    axl_pipeline_report r;
    memset(&r, 0, sizeof r);
    axl_status st;
    struct axl__pipeline *pl = begin_call(fn, h, &st);
    if (!pl)
        return st;
    axl__pool_retire(AXL__POOL(PIPELINE), pl); /* stale at once */
    if (pl->state == AXL_PIPELINE_RUNNING ||
        pl->state == AXL_PIPELINE_FAILED)
        stop(pl, AXL_HAL_CLOSE, &r);
    else
        fail_held(pl, "released");
    st = stop_result(fn, pl, &r, "stop");
    if (pl->open) {
        pl->open = false;
        axl__leave();
        axl__dev_pipeline_close(device_of(pl), &pl->hal);
        axl_port_lock();
    }
    pl->state = AXL_PIPELINE_STOPPED;
    end_call(pl); /* frees it unless a command still holds it */
    return st;
}

axl_status axl_pipeline_get_state(axl_pipeline h, axl_pipeline_state *state,
                                  uint32_t *unit_count,
                                  axl_pipeline_report *report)
{
    static const char fn[] = "axl_pipeline_get_state";
    AXL__ENTER_OUT(pipeline, pl, h, state);
    port_failed(pl);
    *state = (axl_pipeline_state)pl->state;
    if (unit_count)
        *unit_count = pl->nunits;
    if (report) {
        memset(report, 0, sizeof *report);
        if (pl->state == AXL_PIPELINE_FAILED)
            axl_format(report->why, sizeof report->why, "%s", pl->hal.why);
        for (uint8_t k = 0; k < pl->nunits; k++)
            if (pl->unit[k].state == AXL_PIPELINE_UNIT_FAILED &&
                report->not_stopped++ == 0)
                axl_format(report->unit, sizeof report->unit, "%s",
                           pl->unit[k].name);
    }
    axl__leave();
    return st;
}

axl_status axl_pipeline_get_unit(axl_pipeline h, uint32_t index,
                                 axl_pipeline_unit_info *info)
{
    static const char fn[] = "axl_pipeline_get_unit";
    AXL__ENTER_OUT(pipeline, pl, h, info);
    const struct axl__device *d = axl__device_at(pl->device);
    if (pl->state == AXL_PIPELINE_RUNNING && axl__dev_polled(d)) {
        /* A port whose waiters end its runs also counts a polled
         * auto-restart unit's iterations when it looks: one look (no
         * wait), so an iteration that ended after the last waiter went
         * is counted. The lock is dropped for it: looked up again. */
        axl_port_unlock();
        axl__dev_progress(d, 0);
        axl_port_lock();
        pl = axl__pipeline_get(fn, h, &st);
        if (!pl) {
            axl__leave();
            return st;
        }
    }
    if (index >= pl->nunits) {
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "pipeline %u has %u units; there is no unit %u",
                       number_of(pl), (unsigned)pl->nunits, (unsigned)index);
    } else {
        const struct axl__pipeline_unit *u = &pl->unit[index];
        memset(info, 0, sizeof *info);
        axl_format(info->name, sizeof info->name, "%s", u->name);
        info->kernel.id =
            axl__pool_slot_handle(AXL__POOL(KERNEL_ID), u->kid);
        info->cu = u->ordinal;
        info->kind = (axl_pipeline_unit_kind)u->kind;
        info->state = (axl_pipeline_unit_state)u->state;
        info->commands = u->commands;
        info->iterations =
            __atomic_load_n(&pl->hunit[index].iterations, __ATOMIC_RELAXED);
    }
    axl__leave();
    return st;
}

/* ---- Commands on its units (the hooks) ---------------------------------------- */

/* The unit a stream kernel's command runs on: the one unit of the kernel
 * object on q's device (lock held); d->ncus when none or several. */
static uint8_t the_unit(const struct axl__device *d,
                        const struct axl__kernel *kn,
                        const struct axl__kernel_id *kid, uint8_t *count)
{
    uint8_t at = d->ncus;
    *count = 0;
    for (uint8_t c = 0; c < d->ncus; c++)
        if (d->cus[c].kernel_index == kid->index &&
            axl__kernel_may_use(kn, &d->cus[c])) {
            at = c;
            ++*count;
        }
    return *count == 1 ? at : d->ncus;
}

/* A stream argument the host set: refused, naming the stream and its
 * connection (the first unit of the kernel object says which). */
AXL__COLD static axl_status stream_set(const char *fn,
                                       const struct axl__kernel_id *kid,
                                       uint32_t id, uint32_t ip)
{
    const axl_xclbin *x = &axl__image_at(kid->image)->x;
    char name[48] = "", pipe[96] = "?";
    uint32_t fifo = 0;
#if AXL_MESSAGES
    axl_xclbin_kernel ki;
    axl_xclbin_get_kernel(x, kid->index, &ki);
    for (uint32_t a = 0; a < ki.arg_count; a++) {
        axl_xclbin_arg arg;
        if (axl_xclbin_get_kernel_arg(x, &ki, a, &arg) == AXL_SUCCESS &&
            arg.index == id)
            axl_format(name, sizeof name, "%.*s", (int)arg.name.len,
                       arg.name.ptr);
    }
    uint32_t s;
    axl_xclbin_stream xs;
    if (axl_xclbin_port_stream(x, ip, id, &s) == AXL_SUCCESS &&
        axl_xclbin_get_stream(x, s, &xs) == AXL_SUCCESS) {
        pipe_name(&xs, pipe, sizeof pipe);
        fifo = xs.fifo_depth;
    }
#else
    (void)x, (void)ip;
#endif
    (void)name, (void)pipe, (void)fifo;
    if (!fifo)
        return axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                         "argument %u (%s) of %s is an AXI4-Stream port: "
                         "the design joins %s; the host does not set it (give "
                         "the others by id: AXL_ARG_AT)",
                         (unsigned)id, name, kid->name, pipe);
    return axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                     "argument %u (%s) of %s is an AXI4-Stream port: the "
                     "design joins %s (FIFO of %u); the host does not set it "
                     "(give the others by id: AXL_ARG_AT)",
                     (unsigned)id, name, kid->name, pipe, (unsigned)fifo);
}

axl_status axl__pipeline_check_launch(const char *fn, struct axl__queue *q,
                                      const axl_handler *h,
                                      const struct axl__kernel *kn,
                                      const struct axl__kernel_id *kid,
                                      uint8_t *pipe, uint8_t *unit)
{
    const struct axl__device *d = axl__device_at(q->device);
    uint8_t n;
    const uint8_t c = the_unit(d, kn, kid, &n);
    uint32_t first_ip = 0;
    for (uint8_t i = 0; i < d->ncus; i++)
        if (d->cus[i].kernel_index == kid->index &&
            axl__kernel_may_use(kn, &d->cus[i])) {
            first_ip = d->cus[i].ip;
            break;
        }
    for (uint8_t m = 0; m < kid->nargs; m++) {
        if (kid->args[m].is_mem != AXL__ARG_STREAM)
            continue;
        for (uint8_t i = 0; i < h->nkargs; i++)
            if (h->kargs[i].id == kid->args[m].id)
                return stream_set(fn, kid, kid->args[m].id, first_ip);
    }
    if (c == d->ncus)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "kernel %s has stream ports and the kernel object "
                         "runs on %u of its units: a command on a pipeline "
                         "runs on one (axl_kernel_select_units)",
                         kid->name, (unsigned)n);
    const uint32_t ip = d->cus[c].ip;
    uint8_t k = 0;
    struct axl__pipeline *pl = pipeline_with(q->device, ip, &k);
    const axl_xclbin *x = &axl__image_at(kid->image)->x;
    axl_xclbin_ip xi;
    axl_xclbin_get_ip(x, ip, &xi);
    const axl_str inst = axl_xclbin_instance_of(xi.name);
    if (!pl)
        return axl__fail(fn, AXL_ERR_BAD_STATE,
                         "%.*s is a unit of no pipeline: its streams join "
                         "units a pipeline starts (axl_pipeline_create, "
                         "axl_pipeline_start)",
                         (int)inst.len, inst.ptr);
    if (pl->unit[k].kind != AXL_PIPELINE_COMMAND)
        return axl__fail(fn, AXL_ERR_BAD_STATE,
                         "%s is %s in pipeline %u: its runs are the "
                         "pipeline's (axl_pipeline_update_arg changes its "
                         "scalars)",
                         pl->unit[k].name,
                         pl->unit[k].kind == AXL_PIPELINE_FREE_RUNNING
                             ? "free-running"
                             : "on auto-restart",
                         number_of(pl));
    *pipe = (uint8_t)(AXL__SLOT(PIPELINE, pl) + 1u);
    *unit = k;
#if AXL_FEATURE_GRAPHS
    /* Recorded (or checked at finalize): the graph orders it after a
     * recorded start of its pipeline (graph.c), whatever runs now. */
    if (AXL__IS_REF(q->graph))
        return AXL_SUCCESS;
#endif
    port_failed(pl);
    if (pl->state != AXL_PIPELINE_RUNNING)
        return axl__fail(fn, AXL_ERR_BAD_STATE,
                         "%s is a unit of pipeline %u, which is not "
                         "started: axl_pipeline_start first%s",
                         pl->unit[k].name, number_of(pl),
                         pl->state == AXL_PIPELINE_FAILED
                             ? " (it failed: axl_pipeline_reset)"
                             : "");
    return AXL_SUCCESS;
}

static void on_committed(struct axl__command *c)
{
    struct axl__pipeline *pl = pipeline_at(c->u.kernel.pipe);
    pl->holds++;
    queued_add(pl, 1u);
    c->u.kernel.pipe_flags = AXL__PIPE_QUEUED;
}

/* The first unit downstream of unit k of pl that has not started, or
 * pl->nunits. */
static uint8_t waits_for(const struct axl__pipeline *pl, uint8_t k)
{
    for (uint8_t j = 0; j < pl->nunits; j++)
        if ((pl->unit[k].down >> j & 1u) && !started(&pl->unit[j]))
            return j;
    return pl->nunits;
}

static void release_held(struct axl__pipeline *pl)
{
    struct axl__cmd_fifo all = pl->held;
    pl->held.head = pl->held.tail = AXL__NONE(command);
    for (uint8_t k = 0; k < pl->nunits; k++)
        pl->unit[k].held_at = 0;
    struct axl__command *c;
    while ((c = axl__fifo_pop(&all))) {
        const uint8_t k = c->u.kernel.pipe_unit;
        if (pl->state == AXL_PIPELINE_RUNNING &&
            waits_for(pl, k) != pl->nunits) {
            axl__fifo_push(&pl->held, c, axl__command_ref_of(c));
            continue; /* still held: its held_at is set again below */
        }
        c->u.kernel.pipe_flags &= (uint8_t)~AXL__PIPE_HELD;
        if (pl->unit[k].state == AXL_PIPELINE_UNIT_HELD)
            pl->unit[k].state = AXL_PIPELINE_UNIT_IDLE;
        trace(pl, k, AXL__TRACE_COMMAND_RELEASED, c->seq, AXL_SUCCESS);
        axl__fifo_push(&axl__rt.ready, c, axl__command_ref_of(c));
    }
    const uint64_t now = AXL__IS_REF(pl->held.head) ? axl__now() : 0;
    for (axl__command_ref r = pl->held.head; AXL__IS_REF(r);) {
        const struct axl__command *c = axl__command_deref(r);
        struct axl__pipeline_unit *u = &pl->unit[c->u.kernel.pipe_unit];
        if (!u->held_at)
            u->held_at = now;
        r = c->next;
    }
}

static bool on_hold(struct axl__command *c)
{
    struct axl__pipeline *pl = pipeline_at(c->u.kernel.pipe);
    const uint8_t k = c->u.kernel.pipe_unit;
    struct axl__pipeline_unit *u = &pl->unit[k];
    port_failed(pl);
    if (pl->state != AXL_PIPELINE_RUNNING) {
        char why[AXL_MESSAGE_MAX];
        axl__why(why, sizeof why,
                 "pipeline %u is %s: %s's command did not run",
                 number_of(pl),
                 pl->state == AXL_PIPELINE_FAILED ? "failed" : "stopped",
                 u->name);
        axl__complete(c, AXL_ERR_BAD_STATE, why);
        return true;
    }
    if (waits_for(pl, k) == pl->nunits)
        return false;
    c->u.kernel.pipe_flags |= AXL__PIPE_HELD;
    axl__fifo_push(&pl->held, c, axl__command_ref_of(c));
    if (!u->held_at)
        u->held_at = axl__now();
    u->state = AXL_PIPELINE_UNIT_HELD;
    trace(pl, k, AXL__TRACE_COMMAND_HELD, c->seq, AXL_SUCCESS);
    return true;
}

static void on_dispatched(struct axl__command *c)
{
    struct axl__pipeline *pl = pipeline_at(c->u.kernel.pipe);
    struct axl__pipeline_unit *u = &pl->unit[c->u.kernel.pipe_unit];
    if (c->u.kernel.pipe_flags & AXL__PIPE_QUEUED) {
        queued_less(pl);
    }
    c->u.kernel.pipe_flags =
        (uint8_t)((c->u.kernel.pipe_flags & ~AXL__PIPE_QUEUED) |
                  AXL__PIPE_RUNNING);
    u->running = 1;
    u->commands++;
    u->state = AXL_PIPELINE_UNIT_STARTED;
    if (AXL__IS_REF(pl->held.head))
        release_held(pl);
}

static void on_ended(struct axl__command *c, axl_status status,
                     const char *why)
{
    struct axl__pipeline *pl = pipeline_at(c->u.kernel.pipe);
    struct axl__pipeline_unit *u = &pl->unit[c->u.kernel.pipe_unit];
    const uint8_t flags = c->u.kernel.pipe_flags;
    c->u.kernel.pipe_flags = 0;
    if (flags & AXL__PIPE_QUEUED) {
        queued_less(pl);
    }
    if (flags & AXL__PIPE_RUNNING) {
        u->running = 0;
        if (u->state == AXL_PIPELINE_UNIT_STARTED)
            u->state = AXL_PIPELINE_UNIT_IDLE;
        /* A command that ran and failed leaves the pipes in a state no
         * one knows: the pipeline fails with it (a deadlock, a timeout). */
        if (status != AXL_SUCCESS && (pl->state == AXL_PIPELINE_RUNNING ||
                                      pl->state == AXL_PIPELINE_STOPPING)) {
            u->state = AXL_PIPELINE_UNIT_FAILED;
            if (pl->state == AXL_PIPELINE_RUNNING) {
                pl->state = AXL_PIPELINE_FAILED;
                if (!pl->hal.failed)
                    axl_format(pl->hal.why, sizeof pl->hal.why, "%s: %s",
                               u->name, why ? why : "failed");
                trace(pl, c->u.kernel.pipe_unit, AXL__TRACE_FAILED, c->seq,
                      status);
            }
        }
    }
    const axl__pool *p = AXL__POOL(PIPELINE);
    if (--pl->holds == 0 &&
        p->link[axl__pool_slot(p, pl)] == AXL__SLOT_RETIRED)
        pipeline_free(pl);
}

/* Why unit k's held command waits: the unit downstream that has not
 * started and a pipe into it from k's side. */
static void held_why(const struct axl__pipeline *pl, uint8_t k,
                     const struct axl__queue *q, char *why, size_t cap)
{
    const uint8_t j = waits_for(pl, k);
    char pipe[96] = "";
#if AXL_MESSAGES
    const axl_xclbin *x = design_of(pl);
    for (uint8_t p = 0; p < pl->npipes && !pipe[0]; p++) {
        axl_xclbin_stream xs;
        if (axl_xclbin_get_stream(x, pl->pipe[p], &xs) != AXL_SUCCESS ||
            j == pl->nunits || xs.consumer_ip != pl->unit[j].ip)
            continue;
        bool from = xs.producer_ip == pl->unit[k].ip;
        for (uint8_t i = 0; i < pl->nunits && !from; i++)
            from = (pl->unit[k].down >> i & 1u) &&
                   xs.producer_ip == pl->unit[i].ip;
        if (from)
            pipe_name(&xs, pipe, sizeof pipe);
    }
#endif
    (void)q;
    axl__why(why, cap,
             "%s waited %llu ms for %s downstream to start (pipe %s): a "
             "command on it, or axl_pipeline_start, starts it%s",
             pl->unit[k].name,
             (unsigned long long)(pl->start_timeout / 1000000u),
             j < pl->nunits ? pl->unit[j].name : "a unit", pipe,
             q && (q->flags & AXL_QUEUE_IN_ORDER)
                 ? " (an in-order queue runs a consumer submitted after "
                   "its producer only once the producer ends)"
                 : "");
}

static unsigned on_check_timeouts(uint64_t now)
{
    unsigned n = 0;
    const axl__pool *p = AXL__POOL(PIPELINE);
    for (uint16_t s = 0; p->ready && s < p->capacity; s++) {
        if (p->link[s] != AXL__SLOT_LIVE && p->link[s] != AXL__SLOT_RETIRED)
            continue;
        struct axl__pipeline *pl = axl__pipeline_at(s);
        if (!AXL__IS_REF(pl->held.head))
            continue;
        struct axl__cmd_fifo all = pl->held;
        pl->held.head = pl->held.tail = AXL__NONE(command);
        struct axl__command *c;
        while ((c = axl__fifo_pop(&all))) {
            struct axl__pipeline_unit *u = &pl->unit[c->u.kernel.pipe_unit];
            if (!u->held_at || now - u->held_at < pl->start_timeout) {
                axl__fifo_push(&pl->held, c, axl__command_ref_of(c));
                continue;
            }
            char why[AXL_MESSAGE_MAX];
            held_why(pl, c->u.kernel.pipe_unit,
                     c->queue != AXL__NO_QUEUE ? axl__queue_at(c->queue)
                                               : NULL,
                     why, sizeof why);
            c->u.kernel.pipe_flags &= (uint8_t)~AXL__PIPE_HELD;
            u->state = AXL_PIPELINE_UNIT_IDLE;
            axl__complete(c, AXL_ERR_TIMEOUT, why);
            n++;
        }
        /* Units with no held command left hold nothing. */
        for (uint8_t k = 0; k < pl->nunits; k++) {
            bool any = false;
            for (axl__command_ref r = pl->held.head; AXL__IS_REF(r);) {
                const struct axl__command *h = axl__command_deref(r);
                any |= h->u.kernel.pipe_unit == k;
                r = h->next;
            }
            if (!any)
                pl->unit[k].held_at = 0;
        }
    }
    return n;
}

static uint64_t on_next_deadline(void)
{
    uint64_t next = UINT64_MAX;
    const axl__pool *p = AXL__POOL(PIPELINE);
    for (uint16_t s = 0; p->ready && s < p->capacity; s++) {
        if (p->link[s] != AXL__SLOT_LIVE && p->link[s] != AXL__SLOT_RETIRED)
            continue;
        const struct axl__pipeline *pl = axl__pipeline_at(s);
        for (uint8_t k = 0; k < pl->nunits; k++) {
            const uint64_t at = pl->unit[k].held_at;
            if (!at)
                continue;
            const uint64_t due = at + pl->start_timeout < at
                                     ? UINT64_MAX
                                     : at + pl->start_timeout;
            if (due < next)
                next = due;
        }
    }
    return next;
}

static bool on_holds(uint16_t b, const struct axl__device *d,
                     uint32_t *handle)
{
    const axl__pool *p = AXL__POOL(PIPELINE);
    const uint16_t ds = AXL__SLOT(DEVICE, d);
    for (uint16_t s = 0; p->ready && s < p->capacity; s++) {
        if (p->link[s] != AXL__SLOT_LIVE && p->link[s] != AXL__SLOT_RETIRED)
            continue;
        const struct axl__pipeline *pl = axl__pipeline_at(s);
        if (pl->bundle == b && pl->device == ds) {
            *handle = axl__pool_slot_handle(p, s);
            return true;
        }
    }
    return false;
}

#if AXL_FEATURE_GRAPHS
/* A replayed stop runs after every command the graph gave the pipeline's
 * units has ended: an auto-restart unit still busy past the stop timeout
 * waits for a packet the graph never sends, and its reset (as
 * axl_pipeline_stop does it) ends the pipeline's work as the graph meant;
 * only a command still running then fails the node. */
static axl_status replay_stop(axl_pipeline h)
{
    static const char fn[] = "axl_pipeline_stop (replayed)";
    axl_pipeline_report r;
    axl_status st;
    struct axl__pipeline *pl = stop_call(fn, h, &r, &st);
    if (!pl)
        return st;
    if (st == AXL_ERR_TIMEOUT && commands_out(pl))
        st = AXL_SUCCESS;
    end_call(pl);
    return st;
}

/* Whether pipeline `handle` is in a replay (lock taken here): on, a
 * command of it counts as still to come (hal.queued) until it stops. */
static void mark_replayed(uint32_t handle, bool on)
{
    axl_port_lock();
    struct axl__pipeline *pl = axl__pool_get(AXL__POOL(PIPELINE), handle);
    if (pl && on && !pl->replayed) {
        pl->replayed = true;
        queued_add(pl, 1u);
    } else if (pl && !on) {
        replay_over(pl);
    }
    axl_port_unlock();
}

/* A replayed start or stop node: the calls' own work, never recorded
 * (the queue may record another graph meanwhile). The commands on the
 * pipeline's units come as the replay's runs, which the port is given
 * one after another: from before the units start until the pipeline
 * stops, a command of it counts as still to come (hal.queued), so
 * neither the emulated device nor the RTL testbench (through the mmio
 * port's work_to_come) takes a gap between two of them, or between the
 * start and the first, for a deadlock. */
static axl_status on_replay(uint32_t handle, bool start)
{
    const axl_pipeline h = {handle};
    if (!start)
        return replay_stop(h);
    mark_replayed(handle, true);
    const axl_status st = start_now("axl_pipeline_start (replayed)", h);
    if (st != AXL_SUCCESS)
        mark_replayed(handle, false);
    return st;
}

#endif

static const struct axl__pipeline_hooks hooks = {
    on_committed,      on_hold,          on_dispatched, on_ended,
    on_check_timeouts, on_next_deadline, on_holds,
#if AXL_FEATURE_GRAPHS
    on_replay,
#endif
};

static void hooks_on(void)
{
    axl__pipeline_hooks = &hooks;
}

#else /* !AXL_FEATURE_STREAMS: every call answers that it is switched off */

#define OFF(name) return axl__switched_off(#name, "AXL_FEATURE_STREAMS")

axl_status axl__pipeline_check_launch(const char *fn, struct axl__queue *q,
                                      const axl_handler *h,
                                      const struct axl__kernel *kn,
                                      const struct axl__kernel_id *kid,
                                      uint8_t *pipe, uint8_t *unit)
{
    (void)q, (void)h, (void)kn, (void)pipe, (void)unit;
    (void)kid; /* named only in the message */
    return axl__fail(fn, AXL_ERR_FEATURE_NOT_SUPPORTED,
                     "kernel %s has AXI4-Stream ports, and pipelines are "
                     "switched off in this build (AXL_FEATURE_STREAMS 0)",
                     kid->name);
}

axl_status axl_kernel_bundle_get_pipes(axl_kernel_bundle bundle,
                                       axl_pipe_info *out, uint32_t capacity,
                                       uint32_t *count)
{
    (void)bundle, (void)out, (void)capacity, (void)count;
    OFF(axl_kernel_bundle_get_pipes);
}
axl_status axl_pipeline_create(axl_queue queue, const axl_pipeline_desc *desc,
                               axl_pipeline *out)
{
    (void)queue, (void)desc, (void)out;
    OFF(axl_pipeline_create);
}
axl_status axl_pipeline_release(axl_pipeline pipeline)
{
    (void)pipeline;
    OFF(axl_pipeline_release);
}
axl_status axl_pipeline_set_arg(axl_pipeline pipeline, const char *unit,
                                uint32_t arg_index, const void *value,
                                size_t size)
{
    (void)pipeline, (void)unit, (void)arg_index, (void)value, (void)size;
    OFF(axl_pipeline_set_arg);
}
axl_status axl_pipeline_start(axl_pipeline pipeline)
{
    (void)pipeline;
    OFF(axl_pipeline_start);
}
axl_status axl_pipeline_update_arg(axl_pipeline pipeline, const char *unit,
                                   uint32_t arg_index, const void *value,
                                   size_t size, uint64_t timeout_ns)
{
    (void)pipeline, (void)unit, (void)arg_index, (void)value, (void)size;
    (void)timeout_ns;
    OFF(axl_pipeline_update_arg);
}
axl_status axl_pipeline_stop(axl_pipeline pipeline, axl_pipeline_report *r)
{
    (void)pipeline, (void)r;
    OFF(axl_pipeline_stop);
}
axl_status axl_pipeline_drain(axl_pipeline pipeline, axl_pipeline_report *r)
{
    (void)pipeline, (void)r;
    OFF(axl_pipeline_drain);
}
axl_status axl_pipeline_reset(axl_pipeline pipeline, axl_pipeline_report *r)
{
    (void)pipeline, (void)r;
    OFF(axl_pipeline_reset);
}
axl_status axl_pipeline_get_state(axl_pipeline pipeline,
                                  axl_pipeline_state *state,
                                  uint32_t *unit_count,
                                  axl_pipeline_report *report)
{
    (void)pipeline, (void)state, (void)unit_count, (void)report;
    OFF(axl_pipeline_get_state);
}
axl_status axl_pipeline_get_unit(axl_pipeline pipeline, uint32_t index,
                                 axl_pipeline_unit_info *info)
{
    (void)pipeline, (void)index, (void)info;
    OFF(axl_pipeline_get_unit);
}

#endif /* AXL_FEATURE_STREAMS */
