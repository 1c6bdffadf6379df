/*
 * emu_pipe.c - streams on the emulated device (docs/streaming.md, "The
 * emulated device"): the design's streams as bounded FIFOs of its depth,
 * carved from a static arena when the device is programmed; the stream
 * ends models read and write (axl/emu.h's backend ops); the pipelines the
 * core opens (hal.h), whose free-running and auto-restart units run on
 * their workers; and the deadlock: once every unit of a pipeline that
 * runs waits on a full or empty FIFO, a command among them, and no
 * command of the pipeline is still to come (hal.queued), nothing can ever
 * move, and every op that waits returns AXL_ERR_RUNTIME with one message
 * naming the units, the FIFOs and their fill.
 *
 * The decision is made under the runtime lock, by whichever unit blocks
 * or ends last, from counts: it does not depend on timing, and it comes
 * at once (zero model time), never as a hang. Which fill the FIFOs show
 * then does not depend on the interleaving either: units that only block
 * on a full or empty FIFO are a Kahn process network with bounded
 * channels, whose every run ends in the same state.
 *
 * The deterministic mode runs a pipeline's units on their workers too
 * (a model waits for its peers), one at a time: a unit runs its model
 * only while it holds the pipeline's baton, which passes at each op that
 * must wait, and at each model's end, to the first unit that can go on,
 * producers first; run_start and unit_start return once the pipeline is
 * at rest. So the interleaving is the same on every run, and a debugger
 * steps through one model at a time.
 *
 * Everything here is guarded by the runtime lock (axl_port_lock); models
 * run without it, and wait on AXL_PORT_CHANNEL_DEVICE, the emulated
 * device's channel, which the core also wakes when hal.queued falls.
 */
#include <string.h>

#include "axl/emu.h"
#include "axl/hal.h"
#include "axl/runtime.h"
#include "emu_models.h"
#include "emu_unit.h"

#if EMU_STREAMS

static _Alignas(8) unsigned char
    stream_store[AXL_EMU_DEVICES][AXL_EMU_STREAM_BYTES];
static emu_pipeline pipelines[AXL_EMU_PIPELINES];

/* ---- The design's FIFOs -------------------------------------------------- */

/* A beat's bytes: the producer's TDATA bits (32 when the XML gives
 * none), rounded up. */
/* A device that opens has no pipeline open: slots an earlier open left
 * (a runtime shut down with pipelines alive) are free again. */
void emu_pipes_forget(const emu_device *d)
{
    for (uint32_t i = 0; i < AXL_EMU_PIPELINES; i++)
        if (pipelines[i].dev == d)
            memset(&pipelines[i], 0, sizeof pipelines[i]);
}

axl_status emu_fifos_build(emu_device *d, const axl_xclbin *image)
{
    d->nfifos = 0;
    d->streams_why[0] = '\0';
    if (!image)
        return AXL_SUCCESS;
    const uint32_t n = axl_xclbin_stream_count(image);
    if (n > AXL_EMU_MAX_STREAMS) {
        axl_format(d->streams_why, sizeof d->streams_why,
                   "the design has %u streams; the emulated device joins "
                   "AXL_EMU_MAX_STREAMS (%u)",
                   (unsigned)n, (unsigned)AXL_EMU_MAX_STREAMS);
        return AXL_ERR_OUT_OF_RESOURCES;
    }
    uint64_t used = 0, need = 0;
    for (uint32_t i = 0; i < n; i++) {
        axl_xclbin_stream s;
        if (axl_xclbin_get_stream(image, i, &s) != AXL_SUCCESS)
            continue;
        need += emu_fifo_store_bytes(&s);
    }
    if (need > AXL_EMU_STREAM_BYTES) {
        axl_format(d->streams_why, sizeof d->streams_why,
                   "the design's FIFOs take %llu bytes; AXL_EMU_STREAM_BYTES "
                   "is %u",
                   (unsigned long long)need, (unsigned)AXL_EMU_STREAM_BYTES);
        return AXL_ERR_OUT_OF_RESOURCES;
    }
    for (uint32_t i = 0; i < n; i++) {
        emu_fifo *f = &d->fifos[d->nfifos];
        axl_xclbin_stream s;
        memset(f, 0, sizeof *f);
        if (axl_xclbin_get_stream(image, i, &s) != AXL_SUCCESS) {
            f->prod_ip = f->cons_ip = UINT32_MAX; /* keeps the indices */
            d->nfifos++;
            continue;
        }
        emu_fifo_init(f, &s, stream_store[d->index] + used);
        used += emu_fifo_store_bytes(&s);
        const axl_str p = axl_xclbin_instance_of(s.producer_unit);
        const axl_str c = axl_xclbin_instance_of(s.consumer_unit);
        axl_format(f->name, sizeof f->name, "%.*s.%.*s->%.*s.%.*s",
                   (int)p.len, p.ptr, (int)s.producer_port.len,
                   s.producer_port.ptr, (int)c.len, c.ptr,
                   (int)s.consumer_port.len, s.consumer_port.ptr);
        d->nfifos++;
    }
    return AXL_SUCCESS;
}

/* ---- The baton and the deadlock -------------------------------------------- */

/* Whether unit x can go on now (its op's FIFO has room or a beat, or its
 * model is about to start). */
static bool can_go(const emu_unit *x)
{
    if (!x->in_model)
        return false;
    if (x->blocked)
        return emu_fifo_ready(x->blocked, x->blocked_full);
    return x->wants_baton;
}

/* Deterministic mode: the baton to the first unit that can go on,
 * producers first (the reverse of the start order), or to nobody. */
static void baton_pass(emu_pipeline *pl)
{
    pl->baton = NULL;
    for (uint32_t i = pl->hal->unit_count; i-- > 0;)
        if (pl->unit[i] && can_go(pl->unit[i])) {
            pl->baton = pl->unit[i];
            break;
        }
    axl_port_wake(AXL_PORT_CHANNEL_DEVICE);
}

/* Whether unit x has a run: a command's (handed over or in its model),
 * or a free-running or auto-restart model that runs or is due. */
static bool has_run(const emu_unit *x)
{
    return x->state == UNIT_PENDING || x->state == UNIT_RUNNING ||
           x->in_model || x->pl_run != EMU_PL_IDLE;
}

static bool is_command_run(const emu_unit *x)
{
    return x->state == UNIT_PENDING || x->state == UNIT_RUNNING;
}

static bool waits(const emu_unit *x)
{
    return x->in_model && x->blocked &&
           !emu_fifo_ready(x->blocked, x->blocked_full);
}

/* The deadlock rule (see the file's comment). */
static void check_deadlock(emu_pipeline *pl)
{
    const axl_hal_pipeline *h = pl->hal;
    if (pl->dead || h->queued)
        return;
    unsigned running = 0, waiting = 0, commands = 0;
    for (uint32_t i = 0; i < h->unit_count; i++) {
        const emu_unit *x = pl->unit[i];
        if (!x || !has_run(x))
            continue;
        running++;
        waiting += waits(x);
        commands += is_command_run(x);
    }
    if (!commands || waiting < running)
        return;
    pl->dead = true;
    /* The message: each unit that waits, producers first, what it waits
     * on and the FIFO's fill. */
    char *w = pl->hal->why;
    const size_t cap = sizeof pl->hal->why;
    size_t n = axl_format(w, cap, "deadlock in pipeline %u:",
                          (unsigned)h->number);
    for (uint32_t i = h->unit_count; i-- > 0 && n < cap;) {
        const emu_unit *x = pl->unit[i];
        if (!x || !waits(x))
            continue;
        n += axl_format(w + n, cap - n, " %s %s %s (%u of %u);",
                        h->units[i].name,
                        x->blocked_full ? "writes full" : "reads empty",
                        x->blocked->name, (unsigned)x->blocked->count,
                        (unsigned)x->blocked->depth);
    }
    if (n < cap && n && w[n - 1] == ';')
        w[n - 1] = '\0';
    pl->hal->failed = 1;
    axl_port_wake(AXL_PORT_CHANNEL_DEVICE);
}

void emu_model_begin(emu_unit *u)
{
    u->in_model = true;
    u->blocked = NULL;
    emu_pipeline *pl = u->pl;
    if (!pl || !pl->det)
        return;
    u->wants_baton = true;
    while (pl->baton && pl->baton != u && u->dev->epoch == u->epoch)
        axl_port_wait(AXL_PORT_CHANNEL_DEVICE, UINT64_MAX);
    pl->baton = u;
    u->wants_baton = false;
}

void emu_model_end(emu_unit *u)
{
    u->in_model = false;
    u->blocked = NULL;
    u->wants_baton = false;
    emu_pipeline *pl = u->pl;
    if (pl) {
        if (pl->det && pl->baton == u)
            baton_pass(pl);
        check_deadlock(pl);
    }
    axl_port_wake(AXL_PORT_CHANNEL_DEVICE);
}

/* At rest: nothing of pl can go on until something outside it acts. */
static bool at_rest(const emu_pipeline *pl)
{
    if (pl->dead)
        return true;
    for (uint32_t i = 0; i < pl->hal->unit_count; i++) {
        const emu_unit *x = pl->unit[i];
        if (!x)
            continue;
        if (x->state == UNIT_PENDING ||
            (x->pl_run != EMU_PL_IDLE && !x->in_model) ||
            (x->in_model && (!x->blocked || can_go(x))))
            return false;
    }
    return true;
}

void emu_pipe_settle(emu_unit *u)
{
    axl_port_lock();
    while (u->pl && !at_rest(u->pl) && u->dev->epoch == u->epoch)
        axl_port_wait(AXL_PORT_CHANNEL_DEVICE, UINT64_MAX);
    axl_port_unlock();
}

/* ---- Stream ends ------------------------------------------------------------- */

/* A free-running unit's new scalar, taken at its next stream op (its own
 * thread: the model reads its scalars between ops). */
static void take_mailbox(emu_unit *u)
{
    if (u->pl_kind != AXL_HAL_UNIT_FREE_RUNNING || !u->mbox_pending)
        return;
    for (uint32_t i = 0; i < u->nscalars; i++)
        if (u->sc[i].id == u->mbox_id)
            memcpy(u->sc[i].bytes, u->mbox, u->sc[i].size);
    u->mbox_pending = false;
    u->mbox_taken = true;
    axl_port_wake(AXL_PORT_CHANNEL_DEVICE);
}

/* Waits until f has room (full) or a beat, holding the baton when the
 * pipeline is deterministic; else why it never will (lock held). */
static axl_status stream_wait(emu_unit *u, emu_fifo *f, bool full)
{
    take_mailbox(u);
    for (;;) {
        emu_pipeline *pl = u->pl;
        if (u->dev->epoch != u->epoch)
            return emu_fail(AXL_EMU_STREAM_STOPPED,
                            "the emulated device closed");
        if (u->pl_stop)
            return emu_fail(AXL_EMU_STREAM_STOPPED,
                            "%s: its unit was stopped or reset", f->name);
        if (u->cancelled)
            return emu_fail(AXL_ERR_TIMEOUT, "%s: given up at its timeout",
                            f->name);
        if (pl && pl->dead)
            return emu_fail(AXL_ERR_RUNTIME, "%s", pl->hal->why);
        const bool ok = emu_fifo_ready(f, full);
        if (ok && (!pl || !pl->det || pl->baton == u))
            break;
        if (ok && !pl->baton) {
            pl->baton = u;
            break;
        }
        if (u->blocked != f) {
            u->blocked = f;
            u->blocked_full = full;
            if (pl && pl->det && pl->baton == u)
                baton_pass(pl);
            if (pl)
                check_deadlock(pl);
            continue;
        }
        axl_port_wait(AXL_PORT_CHANNEL_DEVICE, UINT64_MAX);
        take_mailbox(u);
        if (u->pl)
            check_deadlock(u->pl); /* hal.queued may have fallen */
    }
    u->blocked = NULL;
    return AXL_SUCCESS;
}

static axl_status end_read(void *ctx, void *beat, bool *last)
{
    struct emu_end *e = ctx;
    emu_fifo *f = e->fifo;
    axl_port_lock();
    axl_status st = stream_wait(e->unit, f, false);
    if (st == AXL_SUCCESS) {
        emu_fifo_pop(f, beat, last);
        axl_port_wake(AXL_PORT_CHANNEL_DEVICE);
    }
    axl_port_unlock();
    return st;
}

static axl_status end_write(void *ctx, const void *beat, bool last)
{
    struct emu_end *e = ctx;
    emu_fifo *f = e->fifo;
    axl_port_lock();
    axl_status st = stream_wait(e->unit, f, true);
    if (st == AXL_SUCCESS) {
        emu_fifo_push(f, beat, last);
        axl_port_wake(AXL_PORT_CHANNEL_DEVICE);
    }
    axl_port_unlock();
    return st;
}

static const axl_emu_stream_ops end_ops = {end_read, end_write};

uint32_t emu_stream_args(emu_unit *u, axl_emu_arg *args, uint32_t n,
                         uint32_t cap)
{
    const emu_device *d = u->dev;
    u->nends = 0;
    for (uint32_t i = 0; i < d->nfifos; i++) {
        emu_fifo *f = (emu_fifo *)&d->fifos[i];
        for (int out = 1; out >= 0; out--) {
            if ((out ? f->prod_ip : f->cons_ip) != u->ip ||
                u->nends == AXL_EMU_UNIT_STREAMS || n == cap)
                continue;
            const uint32_t k = u->nends++;
            u->end[k].fifo = f;
            u->end[k].unit = u;
            u->ends[k] = (axl_emu_stream){&end_ops, &u->end[k], f->bytes,
                                          out != 0, f->name};
            args[n++] = (axl_emu_arg){out ? f->prod_arg : f->cons_arg, false,
                                      NULL, 0, NULL, &u->ends[k]};
        }
    }
    return n;
}

/* ---- Free-running and auto-restart units ------------------------------------- */

bool emu_pipe_due(const emu_unit *u)
{
    return u->pl && u->pl_run != EMU_PL_IDLE && !u->in_model && u->pl_fn;
}

/* The unit's kernel name, for the model's call. */
static void kernel_name(const emu_pipeline *pl, uint32_t k, char *out,
                        size_t cap)
{
    axl_xclbin_kernel ki;
    if (axl_xclbin_get_kernel(pl->hal->image, pl->hal->units[k].kernel_index,
                              &ki) == AXL_SUCCESS)
        axl_format(out, cap, "%.*s", (int)ki.name.len, ki.name.ptr);
    else
        axl_format(out, cap, "%s", pl->hal->units[k].name);
}

void emu_pipe_run(emu_unit *u)
{
    emu_pipeline *pl = u->pl;
    const uint32_t k = u->pl_index;
    axl_emu_arg args[AXL_EMU_MAX_ARGS];
    uint32_t n = 0;
    for (uint32_t i = 0; i < u->nscalars && n < AXL_EMU_MAX_ARGS; i++)
        args[n++] = (axl_emu_arg){u->sc[i].id, false, NULL, u->sc[i].size,
                                  u->sc[i].bytes, NULL};
    n = emu_stream_args(u, args, n, AXL_EMU_MAX_ARGS);
    char kernel[AXL_EMU_NAME_MAX];
    kernel_name(pl, k, kernel, sizeof kernel);
    const axl_emu_call call = {kernel, 0, n, args};
    const axl_emu_model_fn fn = u->pl_fn;
    void *user = u->pl_user;
    const uint32_t epoch = u->epoch;
    emu_model_begin(u);
    axl_port_unlock();
    char *msg = axl_port_message_buffer();
    msg[0] = '\0';
    axl_status st = fn(&call, user);
    char why[AXL_MESSAGE_MAX];
    axl_format(why, sizeof why, "%s", msg[0] ? msg : "the model failed");
    msg[0] = '\0';
    axl_port_lock();
    emu_model_end(u);
    if (u->dev->epoch != epoch || u->pl != pl)
        return;
    if (u->pl_kind == AXL_HAL_UNIT_AUTO_RESTART)
        __atomic_fetch_add(&pl->hal->units[k].iterations, 1u,
                           __ATOMIC_RELAXED);
    if (st != AXL_SUCCESS && st != AXL_EMU_STREAM_STOPPED) {
        /* Its failure is the pipeline's (a deadlock says so already). */
        u->pl_run = EMU_PL_IDLE;
        if (!pl->hal->failed) {
            pl->hal->failed = 1;
            axl_format(pl->hal->why, sizeof pl->hal->why, "%s failed: %s",
                       pl->hal->units[k].name, why);
        }
    } else if (u->pl_stop || st == AXL_EMU_STREAM_STOPPED ||
               u->pl_run == EMU_PL_LAST) {
        u->pl_run = EMU_PL_IDLE;
    }
    /* Else called again: the next iteration of an auto-restart unit, a
     * free-running model that returned by itself. An auto-restart unit's
     * next iteration starts here, as the hardware restarts at done, not
     * when a worker next calls the model: the mailbox is read now, and a
     * stop from here on lets that iteration run (emu_unit_stop). */
    else if (u->pl_kind == AXL_HAL_UNIT_AUTO_RESTART && u->mbox_pending) {
        for (uint32_t i = 0; i < u->nscalars; i++)
            if (u->sc[i].id == u->mbox_id)
                memcpy(u->sc[i].bytes, u->mbox, u->sc[i].size);
        u->mbox_pending = false;
        u->mbox_taken = true;
    }
    axl_port_wake(AXL_PORT_CHANNEL_DEVICE);
}

/* ---- The port's pipeline ops -------------------------------------------------- */

/* Waits (lock held) until done(u) or the port's clock passes until. */
static bool wait_for(const emu_unit *u, bool (*done)(const emu_unit *),
                     uint64_t until)
{
    while (!done(u)) {
        if (u->dev->epoch != u->epoch && u->thread)
            return false;
        if (until != UINT64_MAX && axl_port_now_ns() >= until)
            return false;
        axl_port_wait(AXL_PORT_CHANNEL_DEVICE, until);
    }
    return true;
}

static uint64_t deadline_in(uint64_t ns)
{
    const uint64_t now = axl_port_now_ns();
    return ns > UINT64_MAX - now ? UINT64_MAX : now + ns;
}

static bool model_out(const emu_unit *u)
{
    return !u->in_model && u->pl_run == EMU_PL_IDLE &&
           u->state != UNIT_PENDING && u->state != UNIT_RUNNING;
}

static bool restart_over(const emu_unit *u)
{
    return !u->in_model && u->pl_run == EMU_PL_IDLE;
}

static bool mailbox_taken(const emu_unit *u)
{
    return u->mbox_taken;
}

static bool mailbox_free(const emu_unit *u)
{
    return !u->mbox_pending;
}

/* "it waits on empty X (0 of 64)", or "". */
static void waits_on(const emu_unit *u, char *out, size_t cap)
{
    out[0] = '\0';
    if (u->in_model && u->blocked)
        axl_format(out, cap, "; it waits on %s %s (%u of %u)",
                   u->blocked_full ? "full" : "empty", u->blocked->name,
                   (unsigned)u->blocked->count, (unsigned)u->blocked->depth);
}

axl_status emu_pipeline_open(void *dev, axl_hal_pipeline *p)
{
    emu_device *d = dev;
    axl_status st = AXL_SUCCESS;
    axl_port_lock();
    emu_pipeline *pl = NULL;
    for (uint32_t i = 0; i < AXL_EMU_PIPELINES && !pl; i++)
        if (!pipelines[i].hal)
            pl = &pipelines[i];
    if (d->streams_why[0])
        st = emu_fail(AXL_ERR_OUT_OF_RESOURCES, "%s", d->streams_why);
    else if (!pl)
        st = emu_fail(AXL_ERR_OUT_OF_RESOURCES,
                      "the emulated device runs AXL_EMU_PIPELINES (%u) "
                      "pipelines at once",
                      (unsigned)AXL_EMU_PIPELINES);
    for (uint32_t s = 0; st == AXL_SUCCESS && s < p->stream_count; s++)
        if (p->streams[s] >= d->nfifos)
            st = emu_fail(AXL_ERR_INVALID,
                          "stream %u is not one of the device's design",
                          (unsigned)p->streams[s]);
    if (st == AXL_SUCCESS && p->unit_count > 32)
        st = emu_fail(AXL_ERR_OUT_OF_RESOURCES, "over 32 units");
    for (uint32_t k = 0; st == AXL_SUCCESS && k < p->unit_count; k++) {
        emu_unit *x = emu_unit_for(d, p->units[k].ip_index);
        if (!x)
            st = emu_fail(AXL_ERR_OUT_OF_RESOURCES,
                          "%s: the design has more compute units than the "
                          "emulator keeps (AXL_EMU_UNITS, %u)",
                          p->units[k].name, (unsigned)AXL_EMU_UNITS);
        else if (x->pl)
            st = emu_fail(AXL_ERR_BAD_STATE, "%s is in another pipeline",
                          p->units[k].name);
        pl->unit[k] = x;
    }
    if (st == AXL_SUCCESS) {
        memset(pl, 0, sizeof *pl);
        pl->hal = p;
        pl->dev = d;
        pl->det = emu_is_deterministic();
        for (uint32_t k = 0; k < p->unit_count; k++) {
            emu_unit *x = emu_unit_for(d, p->units[k].ip_index);
            pl->unit[k] = x;
            x->pl = pl;
            x->pl_index = k;
            x->pl_kind = (uint8_t)p->units[k].kind;
            x->pl_run = EMU_PL_IDLE;
            x->pl_stop = false;
            x->pl_fn = NULL;
            x->nscalars = 0;
            x->mbox_pending = x->mbox_taken = false;
        }
        p->port = pl;
    }
    axl_port_unlock();
    return st;
}

void emu_pipeline_close(void *dev, axl_hal_pipeline *p)
{
    (void)dev;
    emu_pipeline *pl = p->port;
    if (!pl)
        return;
    axl_port_lock();
    /* Free-running and auto-restart models end (the core stopped the
     * pipeline); then the units leave it. */
    for (uint32_t k = 0; k < p->unit_count; k++) {
        emu_unit *x = pl->unit[k];
        if (!x || x->pl_kind == AXL_HAL_UNIT_COMMAND)
            continue;
        x->pl_run = EMU_PL_IDLE;
        x->pl_stop = true;
        axl_port_wake(AXL_PORT_CHANNEL_DEVICE);
        while (x->in_model && x->dev->epoch == x->epoch)
            axl_port_wait(AXL_PORT_CHANNEL_DEVICE, UINT64_MAX);
        x->pl_stop = false;
    }
    for (uint32_t k = 0; k < p->unit_count; k++) {
        emu_unit *x = pl->unit[k];
        if (!x)
            continue;
        x->pl = NULL;
        x->pl_kind = AXL_HAL_UNIT_COMMAND;
        x->pl_fn = NULL;
        x->blocked = NULL;
    }
    pl->hal = NULL;
    p->port = NULL;
    axl_port_wake(AXL_PORT_CHANNEL_DEVICE);
    axl_port_unlock();
}

axl_status emu_unit_start(void *dev, axl_hal_pipeline *p, uint32_t k,
                          const axl_hal_arg *args, uint32_t n)
{
    (void)dev;
    emu_pipeline *pl = p->port;
    axl_status st = AXL_SUCCESS;
    axl_port_lock();
    emu_unit *u = pl->unit[k];
    void *user = NULL;
    const axl_emu_model_fn fn =
        emu_model_of(p->image, p->units[k].kernel_index, &user);
    if (!fn)
        st = emu_fail(AXL_ERR_KERNEL_NOT_SUPPORTED,
                      "%s has no C model (axl_emu_register_model)",
                      p->units[k].name);
    if (st == AXL_SUCCESS && n > AXL_EMU_MAX_ARGS)
        st = emu_fail(AXL_ERR_KERNEL_ARGUMENT, "%s: over AXL_EMU_MAX_ARGS "
                      "scalars", p->units[k].name);
    if (st == AXL_SUCCESS) {
        u->nscalars = n;
        for (uint32_t i = 0; i < n; i++) {
            u->sc[i].id = args[i].id;
            u->sc[i].size = args[i].size <= 8 ? (uint32_t)args[i].size : 8u;
            memcpy(u->sc[i].bytes, args[i].value, u->sc[i].size);
        }
        u->pl_fn = fn;
        u->pl_user = user;
        u->pl_stop = false;
        u->mbox_pending = u->mbox_taken = false;
        pl->dead = false;
        u->pl_run = EMU_PL_RUN;
        emu_worker_start(u);
        if (!u->thread) {
            u->pl_run = EMU_PL_IDLE;
            st = emu_fail(AXL_ERR_OUT_OF_RESOURCES,
                          "%s: no worker thread to be had for it",
                          p->units[k].name);
        }
        axl_port_wake(AXL_PORT_CHANNEL_DEVICE);
    }
    axl_port_unlock();
    if (st == AXL_SUCCESS && pl->det)
        emu_pipe_settle(u);
    return st;
}

axl_status emu_unit_update(void *dev, axl_hal_pipeline *p, uint32_t k,
                           const axl_hal_arg *arg, uint64_t timeout_ns)
{
    (void)dev;
    emu_pipeline *pl = p->port;
    axl_status st = AXL_SUCCESS;
    axl_port_lock();
    emu_unit *u = pl->unit[k];
    if (arg->size > sizeof u->mbox) {
        axl_port_unlock();
        return emu_fail(AXL_ERR_KERNEL_ARGUMENT, "over 8 bytes");
    }
    if (u->pl_run != EMU_PL_RUN) {
        axl_port_unlock();
        return emu_fail(AXL_ERR_BAD_STATE, "%s is not running",
                        p->units[k].name);
    }
    if (u->pl_kind == AXL_HAL_UNIT_FREE_RUNNING && !u->in_model) {
        /* Between its calls: the next one reads it. */
        for (uint32_t i = 0; i < u->nscalars; i++)
            if (u->sc[i].id == arg->id)
                memcpy(u->sc[i].bytes, arg->value, u->sc[i].size);
        axl_port_unlock();
        return AXL_SUCCESS;
    }
    /* The mailbox holds one update: an earlier one not taken yet is
     * waited for (XRT's mailbox write does the same). */
    if (!wait_for(u, mailbox_free, deadline_in(timeout_ns))) {
        char where[112];
        waits_on(u, where, sizeof where);
        st = emu_fail(AXL_ERR_TIMEOUT,
                      "%s's mailbox still holds an update %llu ns later (it "
                      "ended %u iterations%s): nothing changed",
                      p->units[k].name, (unsigned long long)timeout_ns,
                      (unsigned)__atomic_load_n(&p->units[k].iterations,
                                                __ATOMIC_RELAXED),
                      where);
        axl_port_unlock();
        return st;
    }
    u->mbox_id = arg->id;
    memcpy(u->mbox, arg->value, (size_t)arg->size);
    u->mbox_pending = true;
    u->mbox_taken = false;
    axl_port_wake(AXL_PORT_CHANNEL_DEVICE); /* a free-running op takes it */
    /* A free-running unit takes it at its next stream op (at once when
     * it waits in one): what a register read all the time gives. */
    if (u->pl_kind == AXL_HAL_UNIT_FREE_RUNNING &&
        !wait_for(u, mailbox_taken, deadline_in(timeout_ns))) {
        u->mbox_pending = false;
        st = emu_fail(AXL_ERR_TIMEOUT,
                      "%s did not reach a stream op within %llu ns to take "
                      "its new scalar: nothing changed",
                      p->units[k].name, (unsigned long long)timeout_ns);
    }
    axl_port_unlock();
    return st;
}

axl_status emu_unit_stop(void *dev, axl_hal_pipeline *p, uint32_t k,
                         uint32_t how, uint64_t timeout_ns)
{
    (void)dev;
    emu_pipeline *pl = p->port;
    axl_status st = AXL_SUCCESS;
    axl_port_lock();
    emu_unit *u = pl->unit[k];
    const uint8_t kind = u->pl_kind;
    const uint64_t until = deadline_in(timeout_ns);
    if (how == AXL_HAL_STOP && kind == AXL_HAL_UNIT_AUTO_RESTART &&
        u->pl_run != EMU_PL_IDLE) {
        /* auto_restart cleared: the iteration under way is its last,
         * also one whose model a worker has not called yet (it began
         * at the last one's end, or at start). */
        u->pl_run = EMU_PL_LAST;
        if (!wait_for(u, restart_over, until)) {
            char where[112];
            waits_on(u, where, sizeof where);
            u->pl_stop = true; /* the reset the board's port would do */
            axl_port_wake(AXL_PORT_CHANNEL_DEVICE);
            wait_for(u, restart_over, deadline_in(timeout_ns));
            u->pl_stop = false;
            u->pl_run = EMU_PL_IDLE;
            st = emu_fail(AXL_ERR_TIMEOUT,
                          "%s was still busy %llu ns after auto-restart was "
                          "cleared%s: reset",
                          p->units[k].name, (unsigned long long)timeout_ns,
                          where);
        }
    } else if (how != AXL_HAL_STOP &&
               (kind != AXL_HAL_UNIT_COMMAND || how == AXL_HAL_RESET)) {
        /* Reset (any unit), close (free-running, auto-restart): its
         * model ends (its stream ops return AXL_EMU_STREAM_STOPPED), and
         * a command's run fails with it. */
        u->pl_run = EMU_PL_IDLE;
        u->pl_stop = true;
        axl_port_wake(AXL_PORT_CHANNEL_DEVICE);
        if (!wait_for(u, model_out, until))
            st = emu_fail(AXL_ERR_TIMEOUT,
                          "%s's model did not return within %llu ns of its "
                          "reset (a model returns what its stream ops "
                          "return)",
                          p->units[k].name, (unsigned long long)timeout_ns);
        u->pl_stop = false;
    }
    /* A pipeline none of whose units runs a model any more is not dead:
     * the next start goes afresh (the FIFOs keep their beats). */
    bool any = false;
    for (uint32_t i = 0; i < p->unit_count; i++)
        any |= pl->unit[i] && pl->unit[i]->in_model;
    if (!any && how != AXL_HAL_STOP)
        pl->dead = false;
    axl_port_unlock();
    return st;
}

axl_status emu_pipeline_drained(void *dev, axl_hal_pipeline *p,
                                uint64_t timeout_ns)
{
    emu_device *d = dev;
    const uint64_t until = deadline_in(timeout_ns);
    axl_port_lock();
    for (;;) {
        const emu_fifo *full = NULL;
        for (uint32_t s = 0; s < p->stream_count && !full; s++)
            if (d->fifos[p->streams[s]].count)
                full = &d->fifos[p->streams[s]];
        if (!full)
            break;
        if (axl_port_now_ns() >= until) {
            axl_status st = emu_fail(
                AXL_ERR_TIMEOUT,
                "pipe %s holds %u of %u beats %llu ns after the stop "
                "(nothing running reads it)",
                full->name, (unsigned)full->count, (unsigned)full->depth,
                (unsigned long long)timeout_ns);
            axl_port_unlock();
            return st;
        }
        axl_port_wait(AXL_PORT_CHANNEL_DEVICE, until);
    }
    axl_port_unlock();
    return AXL_SUCCESS;
}

#endif /* EMU_STREAMS */
