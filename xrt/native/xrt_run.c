/*
 * xrt_run.c - the XRT port's runs: compute units opened as XRT kernels
 * with their pools of XRT runs, setting arguments (skipping the values a
 * run holds already), starting, cancelling, reaping finished runs and
 * reporting them, and the completion thread that waits in XRT. Why a run
 * returns to its pool only when XRT sees it complete, and how completion
 * is found cheapest first, is said at the top of xrt_port.c; the records
 * are xrt_port.h's.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axl/runtime.h"
#include "xrt_port.h"

static const char *ert_name(int s)
{
    static const char *const names[] = {
        "0",       "NEW",     "QUEUED",    "RUNNING",    "COMPLETED", "ERROR",
        "ABORT",   "SUBMITTED", "TIMEOUT", "NORESPONSE", "SKERROR",   "SKCRASHED"};
    return s >= 0 && s < (int)(sizeof names / sizeof names[0]) ? names[s]
                                                                : "unknown";
}

static void report(void *token, axl_status st, const char *why)
{
    axl__xrt_run_done_fn fn = axl__xn_run_done_hook;
    if (fn)
        fn(token, st, why);
    else
        axl_hal_run_done(token, st, why);
}

/* ---- Compute units -------------------------------------------------------- */

/* How xrtRunSetArg reads an argument of this XML type (xrt_kernel.cpp,
 * argument::argument). */
static uint8_t arg_kind(const axl_xclbin_arg *a)
{
    switch (a->address_qualifier) {
    case AXL_XCLBIN_ARG_GLOBAL:
    case AXL_XCLBIN_ARG_CONSTANT:
        return AXL__XRT_BO;
    case AXL_XCLBIN_ARG_LOCAL:
    case AXL_XCLBIN_ARG_STREAM:
        return AXL__XRT_SKIP;
    default:
        break;
    }
    if (axl_str_eq(a->type, "int"))
        return AXL__XRT_INT;
    if (axl_str_eq(a->type, "uint"))
        return AXL__XRT_UINT;
    if (axl_str_eq(a->type, "float"))
        return AXL__XRT_FLOAT;
    if (axl_str_eq(a->type, "double"))
        return AXL__XRT_DOUBLE;
    if (axl_str_eq(a->type, "int*") || axl_str_eq(a->type, "uint*"))
        return a->size <= 64 ? AXL__XRT_PTR : AXL__XRT_UNSUPPORTED;
    if (axl_str_eq(a->type, "float*"))
        return AXL__XRT_UNSUPPORTED; /* XRT refuses the kernel */
    if (a->size == 4)
        return AXL__XRT_U32;
    if (a->size == 8)
        return AXL__XRT_U64;
    /* XRT reads a size_t and copies min(size, 8) bytes: wider scalars
     * cannot pass through the C API. */
    return a->size < 8 ? AXL__XRT_SIZE : AXL__XRT_UNSUPPORTED;
}

void axl__xn_destroy_cu(xn_cu *cu)
{
    xn_run *spare = atomic_exchange_explicit(&cu->spare, NULL,
                                             memory_order_acquire);
    if (spare) {
        spare->next = cu->free;
        cu->free = spare;
    }
    while (cu->free) {
        xn_run *r = cu->free;
        cu->free = r->next;
        axl__xrt.run_close(r->handle);
        count(&axl__xn_counts.runs, -1);
        free(r);
    }
    if (cu->kernel) {
        axl__xrt.kernel_close(cu->kernel);
        count(&axl__xn_counts.kernels, -1);
    }
    free(cu->args);
    free(cu);
}

static axl_status open_cu(xn_device *d, const axl_xclbin *image,
                          uint32_t kernel_index, uint32_t ip_index,
                          xn_cu **out)
{
    pthread_mutex_lock(&d->lock);
    int loaded = d->has_image &&
                 !memcmp(image->uuid, d->image.uuid, sizeof image->uuid);
    xn_cu *cu = d->cus;
    while (cu && !(cu->ip_index == ip_index && !cu->closing &&
                   !memcmp(cu->uuid, image->uuid, sizeof cu->uuid)))
        cu = cu->next;
    if (cu && loaded) {
        cu->refs++;
        pthread_mutex_unlock(&d->lock);
        *out = cu;
        return AXL_SUCCESS;
    }
    pthread_mutex_unlock(&d->lock);
    if (!loaded)
        return axl_fail(AXL_ERR_BAD_STATE,
                        "%s does not carry this image: load it first",
                        d->name);

    axl_xclbin_kernel k;
    axl_xclbin_ip ip;
    if (axl_xclbin_get_kernel(image, kernel_index, &k) != AXL_SUCCESS)
        return axl_fail(AXL_ERR_INVALID, "the image has no kernel %u",
                        (unsigned)kernel_index);
    if (axl_xclbin_get_ip(image, ip_index, &ip) != AXL_SUCCESS ||
        ip.type != AXL_XCLBIN_IP_KERNEL || ip.kernel.len != k.name.len ||
        memcmp(ip.kernel.ptr, k.name.ptr, k.name.len))
        return axl_fail(AXL_ERR_INVALID,
                        "IP %u of the image is not a compute unit of %.*s",
                        (unsigned)ip_index, (int)k.name.len, k.name.ptr);

    cu = calloc(1, sizeof *cu);
    if (!cu)
        return axl_fail(AXL_ERR_MEMORY_ALLOCATION, "no memory for a compute unit");
    cu->dev = d;
    cu->ip_index = ip_index;
    cu->refs = 1;
    memcpy(cu->uuid, image->uuid, sizeof cu->uuid);
    /* XRT names one unit "kernel:{instance}" (an IP without an instance
     * part is a whole kernel). */
    if (ip.instance.len)
        axl_format(cu->name, sizeof cu->name, "%.*s:{%.*s}", (int)k.name.len,
                   k.name.ptr, (int)ip.instance.len, ip.instance.ptr);
    else
        axl_format(cu->name, sizeof cu->name, "%.*s", (int)k.name.len,
                   k.name.ptr);

    for (uint32_t i = 0; i < k.arg_count; i++) {
        axl_xclbin_arg a;
        if (axl_xclbin_get_kernel_arg(image, &k, i, &a) == AXL_SUCCESS &&
            a.index >= cu->nargs && a.index < 1024)
            cu->nargs = a.index + 1;
    }
    cu->args = malloc((cu->nargs ? cu->nargs : 1) * sizeof *cu->args);
    if (!cu->args) {
        free(cu);
        return axl_fail(AXL_ERR_MEMORY_ALLOCATION, "no memory for a compute unit");
    }
    for (uint32_t i = 0; i < cu->nargs; i++)
        cu->args[i].kind = NO_ARG;
    for (uint32_t i = 0; i < k.arg_count; i++) {
        axl_xclbin_arg a;
        if (axl_xclbin_get_kernel_arg(image, &k, i, &a) != AXL_SUCCESS ||
            a.index >= cu->nargs)
            continue;
        cu->args[a.index].kind = arg_kind(&a);
        cu->args[a.index].xml_size = (uint32_t)a.size;
    }

    errno = 0;
    cu->kernel = axl__xrt.kernel_open(d->dh, image->uuid, cu->name);
    if (!cu->kernel) {
        int e = errno;
        free(cu->args);
        free(cu);
        return axl_fail(is_busy_errno(e) ? AXL_ERR_BAD_STATE
                                         : AXL_ERR_KERNEL_NOT_SUPPORTED,
                        "XRT cannot open compute unit %.*s:%.*s: "
                        "xrtPLKernelOpen failed%s",
                        (int)k.name.len, k.name.ptr, (int)ip.instance.len,
                        ip.instance.ptr, errno_name(e));
    }
    count(&axl__xn_counts.kernels, 1);
    axl__xn_settle_at_exit(); /* after XRT's own exit handler: before it */
    pthread_mutex_lock(&d->lock);
    cu->next = d->cus;
    d->cus = cu;
    pthread_mutex_unlock(&d->lock);
    *out = cu;
    return AXL_SUCCESS;
}

/* A run whose compute unit was closed while it ran: the unit goes when its
 * last run is back (lock held). */
void axl__xn_unlink_if_done(xn_device *d, xn_cu *cu)
{
    if (!cu->closing || cu->busy)
        return;
    xn_cu **p = &d->cus;
    while (*p && *p != cu)
        p = &(*p)->next;
    if (*p)
        *p = cu->next;
    cu->next = d->dead;
    d->dead = cu;
}

void axl__xn_destroy_dead(xn_device *d)
{
    pthread_mutex_lock(&d->lock);
    xn_cu *dead = d->dead;
    d->dead = NULL;
    pthread_mutex_unlock(&d->lock);
    while (dead) {
        xn_cu *next = dead->next;
        axl__xn_destroy_cu(dead);
        dead = next;
    }
}

/* A free run back with its unit: in the spare slot when that is empty
 * (the next start takes it without the lock), else in the pool, which
 * needs the lock (`locked`: the caller holds it). */
static void put_free(xn_device *d, xn_run *r, int locked)
{
    xn_cu *cu = r->cu;
    r->state = RUN_FREE;
    r->token = NULL;
    r->hal = NULL;
    xn_run *none = NULL;
    if (atomic_compare_exchange_strong_explicit(&cu->spare, &none, r,
                                                memory_order_release,
                                                memory_order_relaxed))
        return;
    if (!locked)
        pthread_mutex_lock(&d->lock);
    r->next = cu->free;
    cu->free = r;
    if (!locked)
        pthread_mutex_unlock(&d->lock);
}

/* A run that was on the device's lists (counted in busy) back with its
 * unit (lock held). */
void axl__xn_run_to_pool(xn_device *d, xn_run *r)
{
    xn_cu *cu = r->cu;
    put_free(d, r, 1);
    cu->busy--;
    axl__xn_unlink_if_done(d, cu);
}

/* ---- Reaping --------------------------------------------------------------- */

static axl_status run_status(const xn_run *r, char *why, size_t cap)
{
    if (r->lost) {
        /* Never the accelerator's doing: the noop shim runs nothing. */
        axl_format(why, cap,
                   "%s: XRT's noop shim lost its completion (a BO freed "
                   "as the shim looked the run up: XRT 2.13 "
                   "pcie/noop/shim.cpp)",
                   r->cu->name);
        return AXL_ERR_RUNTIME;
    }
    if (r->cancelled) {
        axl_format(why, cap,
                   "%s was given up at its timeout; XRT saw it end (state "
                   "%s)",
                   r->cu->name, ert_name(r->ert));
        return AXL_ERR_TIMEOUT;
    }
    if (r->ert == ERT_CMD_STATE_COMPLETED)
        return AXL_SUCCESS;
    axl_format(why, cap, "%s ended in XRT state %s", r->cu->name,
               ert_name(r->ert));
    return AXL_ERR_RUNTIME;
}

/* A reported run off the device's lists (lock held): back to its pool,
 * or, one the noop shim lost, onto *lost for close_lost (XRT would refuse
 * to start it again). Either way its unit has it back. */
static void retire(xn_device *d, xn_run *r, xn_run **lost)
{
    if (!r->lost) {
        axl__xn_run_to_pool(d, r);
        return;
    }
    xn_cu *cu = r->cu;
    cu->busy--;
    axl__xn_unlink_if_done(d, cu);
    r->cu = NULL;
    r->next = *lost;
    *lost = r;
}

/* Closes the runs retire set aside (no lock held), before any unit they
 * came from is destroyed. */
static void close_lost(xn_run *lost)
{
    while (lost) {
        xn_run *r = lost;
        lost = r->next;
        axl__xrt.run_close(r->handle);
        count(&axl__xn_counts.runs, -1);
        free(r);
    }
}

/*
 * Reports a batch of runs XRT sees ended (already in `reporting`, with
 * d->delivering counted) with no lock held: the core may start the next
 * run from inside run_done. Then returns them to their pools. A run is
 * reported only once XRT sees it end, cancelled (given up at its
 * timeout) or not: until then its BOs may still be written, and the
 * core keeps them (hal.h, run_cancel).
 */
static void deliver(xn_device *d, xn_run *batch)
{
    for (xn_run *r = batch; r; r = r->batch_next) {
        char why[AXL_MESSAGE_MAX];
        why[0] = 0;
        axl_status st = run_status(r, why, sizeof why);
        report(r->token, st, why[0] ? why : NULL);
    }

    xn_run *lost = NULL;
    pthread_mutex_lock(&d->lock);
    for (xn_run *r = batch, *next; r; r = next) {
        next = r->batch_next;
        list_del(r);
        if (r == d->waiting)
            r->parked = 1; /* the completion thread puts it back */
        else
            retire(d, r, &lost);
    }
    d->delivering--;
    atomic_fetch_add(&d->reports, 1);
    if (atomic_load(&d->report_waiters))
        pthread_cond_broadcast(&d->reported);
    int dead = d->dead != NULL;
    pthread_mutex_unlock(&d->lock);
    close_lost(lost);
    if (dead)
        axl__xn_destroy_dead(d);
}

/*
 * Reports every run XRT sees ended, given up (a zombie) or not. `known` is
 * a run handle whose state the caller just got from XRT (COMPLETED saves
 * a second query). Returns how many runs it reported. Timeouts are the
 * core's: it gives a run up (run_cancel) and is told when XRT sees it end.
 */
unsigned axl__xn_reap(xn_device *d, xrtRunHandle known, int known_state)
{
    xn_run *batch = NULL, **tail = &batch;
    unsigned n = 0;
    pthread_mutex_lock(&d->lock);
    xn_run *lists[2] = {&d->inflight, &d->zombies};
    for (int l = 0; l < 2; l++)
        for (xn_run *r = lists[l]->next, *next; r != lists[l]; r = next) {
            next = r->next;
            int s = r->handle == known &&
                            known_state == ERT_CMD_STATE_COMPLETED
                        ? known_state
                        : (int)axl__xrt.run_state(r->handle);
            if (!ert_final(s)) {
                /* On the noop shim a run can stay NEW for good. */
                if (!axl__xn_noop_lost(r->handle, s, d->dh))
                    continue;
                r->lost = 1;
            }
            r->ert = s;
            list_del(r);
            r->state = RUN_DELIVERING;
            list_push(&d->reporting, r); /* where run_cancel finds it */
            r->batch_next = NULL;
            *tail = r;
            tail = &r->batch_next;
            n++;
        }
    if (n)
        d->delivering++;
    int dead = d->dead != NULL;
    pthread_mutex_unlock(&d->lock);
    if (n)
        deliver(d, batch);
    else if (dead)
        axl__xn_destroy_dead(d);
    return n;
}

/* ---- The completion thread -------------------------------------------------- */

void axl__xn_deadline_after(struct timespec *ts, uint64_t ns)
{
    uint64_t t = now_ns() + ns;
    ts->tv_sec = (time_t)(t / 1000000000ull);
    ts->tv_nsec = (long)(t % 1000000000ull);
}

/* XRT's noop shim (XCL_EMULATION_MODE=noop: the XRT that CI runs) answers
 * xrtRunWaitFor by spinning until some command of the process completes,
 * whatever the timeout, and gives each completion to one waiter: a run
 * that never ends there (one the core gave up, one a test holds) would
 * keep this thread spinning, and the device's close joining it, forever.
 * On that shim the wait is the run's state, read every
 * AXL_XRT_NOOP_POLL_US until the slice is over; every other shim waits in
 * XRT, which honours the timeout. */
static int wait_slice(xrtRunHandle h, unsigned ms)
{
    if (axl__xn_env.mode != AXL__XRT_NOOP)
        return (int)axl__xrt.run_wait_for(h, ms);
    const uint64_t end = now_ns() + (uint64_t)ms * MS;
    for (;;) {
        int s = (int)axl__xrt.run_state(h);
        if (ert_final(s) || now_ns() >= end)
            return s;
        struct timespec ts = {0, AXL_XRT_NOOP_POLL_US * 1000L};
        nanosleep(&ts, NULL);
    }
}

static void *completion_main(void *arg)
{
    xn_device *d = arg;
    pthread_mutex_lock(&d->lock);
    while (!d->stop) {
        if (list_empty(&d->inflight)) {
            /* Nothing running: sleep until a launch wakes us, or poll the
             * runs given up on until XRT sees them end. */
            int zombies = !list_empty(&d->zombies);
            if (zombies) {
                pthread_mutex_unlock(&d->lock);
                axl__xn_reap(d, NULL, 0);
                pthread_mutex_lock(&d->lock);
                zombies = !list_empty(&d->zombies);
            }
            if (d->stop || !list_empty(&d->inflight))
                continue;
            d->sleeping = 1;
            if (zombies) {
                struct timespec ts;
                axl__xn_deadline_after(&ts, AXL_XRT_POLL_MS * MS);
                pthread_cond_timedwait(&d->cond, &d->lock, &ts);
            } else {
                pthread_cond_wait(&d->cond, &d->lock);
            }
            d->sleeping = 0;
            continue;
        }
        /* This thread is the only one that waits in XRT (progress polls
         * and waits for its reports instead): XRT's noop shim serves one
         * waiter per completion and ignores the timeout, and a handle
         * read under the lock may be reported, restarted or closed by
         * another thread once it is dropped, unless it stays parked
         * (deliver) until this wait and this reap are over. */
        xn_run *w = d->inflight.next;
        xrtRunHandle h = w->handle;
        d->waiting = w;
        const uint64_t t0 = now_ns();
        pthread_mutex_unlock(&d->lock);
        int s = wait_slice(h, AXL_XRT_WAIT_SLICE_MS);
        /* w is still the start that was waited on: the state XRT gave
         * holds for it. */
        unsigned reaped = axl__xn_reap(d, h, s);
        pthread_mutex_lock(&d->lock);
        d->waiting = NULL;
        if (w->parked) {
            w->parked = 0;
            xn_run *lost = NULL;
            retire(d, w, &lost);
            /* A load may wait for it (axl__xn_check_idle). */
            pthread_cond_broadcast(&d->reported);
            if (d->dead || lost) {
                pthread_mutex_unlock(&d->lock);
                close_lost(lost);
                axl__xn_destroy_dead(d);
                pthread_mutex_lock(&d->lock);
            }
        }
        if (!reaped && now_ns() - t0 < AXL_XRT_POLL_MS * MS && !d->stop) {
            /* XRT returned at once with nothing done: do not spin. */
            struct timespec ts;
            axl__xn_deadline_after(&ts, AXL_XRT_POLL_MS * MS);
            pthread_cond_timedwait(&d->cond, &d->lock, &ts);
        }
    }
    pthread_mutex_unlock(&d->lock);
    return NULL;
}

/* Started by the first launch (a device nobody runs on has no thread). */
static axl_status start_thread(xn_device *d)
{
    if (atomic_load_explicit(&d->thread_running, memory_order_acquire))
        return AXL_SUCCESS;
    axl_status st = AXL_SUCCESS;
    pthread_mutex_lock(&d->lock);
    if (!d->thread_running) {
        d->stop = 0;
        if (pthread_create(&d->thread, NULL, completion_main, d) != 0) {
            st = axl_fail(AXL_ERR_OUT_OF_RESOURCES,
                          "cannot start the completion thread of %s",
                          d->name);
        } else {
            atomic_store_explicit(&d->thread_running, 1,
                                  memory_order_release);
            count(&axl__xn_counts.threads, 1);
        }
    }
    pthread_mutex_unlock(&d->lock);
    return st;
}

void axl__xn_stop_thread(xn_device *d)
{
    if (!d->thread_running)
        return;
    pthread_mutex_lock(&d->lock);
    d->stop = 1;
    pthread_cond_broadcast(&d->cond);
    pthread_mutex_unlock(&d->lock);
    if (!pthread_equal(pthread_self(), d->thread))
        pthread_join(d->thread, NULL);
    else
        pthread_detach(d->thread);
    d->thread_running = 0;
    count(&axl__xn_counts.threads, -1);
}

/* ---- Runs ---------------------------------------------------------------------- */

axl_status axl__xn_cu_open(void *dev, const axl_xclbin *image,
                           uint32_t kernel_index, uint32_t ip_index,
                           uintptr_t *cu_handle)
{
    xn_cu *cu = NULL;
    axl_status st = open_cu(dev, image, kernel_index, ip_index, &cu);
    if (st == AXL_SUCCESS)
        *cu_handle = (uintptr_t)cu;
    return st;
}

void axl__xn_cu_close(void *dev, uintptr_t cu_handle)
{
    xn_device *d = dev;
    xn_cu *cu = (xn_cu *)cu_handle;
    if (!cu)
        return;
    pthread_mutex_lock(&d->lock);
    if (--cu->refs == 0) {
        cu->closing = 1;
        axl__xn_unlink_if_done(d, cu);
    }
    pthread_mutex_unlock(&d->lock);
    axl__xn_destroy_dead(d);
}

/* The BO of `size` bytes at `offset` in an allocation (offset < b->size,
 * size <= b->size - offset): the allocation itself when that is all of it,
 * or a sub-BO made once and kept with the allocation. An accessor at an
 * offset gives the kernel the range from there to the end; interop asks
 * for a sub-buffer's own range. */
axl_status axl__xn_arg_bo(xn_device *d, xn_bo *b, uint64_t offset,
                          uint64_t size, xrtBufferHandle *out,
                          uint64_t *serial)
{
    if (!b->bo)
        return axl_fail(AXL_ERR_BAD_STATE,
                        "the allocation is parked in host memory: bank %u "
                        "is not in the design %s carries",
                        (unsigned)b->bank, d->name);
    if (!offset && size >= b->size) {
        *out = b->bo;
        if (serial)
            *serial = b->serial;
        return AXL_SUCCESS;
    }
    pthread_mutex_lock(&d->lock);
    xn_sub *s = b->subs;
    while (s && (s->offset != offset || s->size != size))
        s = s->next;
    pthread_mutex_unlock(&d->lock);
    if (s) {
        *out = s->bo;
        if (serial)
            *serial = s->serial;
        return AXL_SUCCESS;
    }
    s = calloc(1, sizeof *s);
    if (!s)
        return axl_fail(AXL_ERR_MEMORY_ALLOCATION, "no memory for a sub-buffer");
    errno = 0;
    s->bo = axl__xrt.bo_sub_alloc(b->bo, (size_t)size, (size_t)offset);
    if (!s->bo) {
        int e = errno;
        free(s);
        return axl_fail(AXL_ERR_MEMORY_ALLOCATION,
                        "xrtBOSubAlloc of %llu bytes at offset %llu failed%s",
                        (unsigned long long)size, (unsigned long long)offset,
                        errno_name(e));
    }
    s->offset = offset;
    s->size = size;
    s->serial = xn_bo_serial(d);
    count(&axl__xn_counts.sub_bos, 1);
    pthread_mutex_lock(&d->lock);
    xn_sub *other = b->subs;
    while (other && (other->offset != offset || other->size != size))
        other = other->next;
    if (!other) {
        s->next = b->subs;
        b->subs = s;
    }
    pthread_mutex_unlock(&d->lock);
    if (other) { /* another thread made the same one meanwhile */
        axl__xn_sub_destroy(s);
        s = other;
    }
    *out = s->bo;
    if (serial)
        *serial = s->serial;
    return AXL_SUCCESS;
}

static axl_status set_arg(xn_device *d, xn_cu *cu, xn_run *r,
                          const axl_hal_arg *a)
{
    if (a->id >= cu->nargs || cu->args[a->id].kind == NO_ARG)
        return axl_fail(AXL_ERR_KERNEL_ARGUMENT,
                        "%s has no argument %u", cu->name, (unsigned)a->id);
    const xn_arg *m = &cu->args[a->id];
    axl__xrt_value v;
    memset(&v, 0, sizeof v);
    v.kind = (axl__xrt_kind)m->kind;
    unsigned char pad[64];
    uint64_t bits = 0;
    if (a->is_mem) {
        xn_bo *b = bo_of(a->mem);
        if (m->kind != AXL__XRT_BO)
            return axl_fail(AXL_ERR_KERNEL_ARGUMENT,
                            "argument %u of %s is a scalar, not a buffer",
                            (unsigned)a->id, cu->name);
        if (!b || b->dev != d)
            return axl_fail(AXL_ERR_KERNEL_ARGUMENT,
                            "argument %u of %s: the buffer is not on %s",
                            (unsigned)a->id, cu->name, d->name);
        if (!b->bo) /* parked: the design lacks its bank (xrt_swap.c) */
            return axl_fail(AXL_ERR_KERNEL_ARGUMENT,
                            "argument %u of %s: the buffer's bank %u is not "
                            "in the design %s carries",
                            (unsigned)a->id, cu->name, (unsigned)b->bank,
                            d->name);
        if (a->offset >= b->size)
            return axl_fail(AXL_ERR_KERNEL_ARGUMENT,
                            "argument %u of %s: offset %llu is past the "
                            "%llu-byte allocation",
                            (unsigned)a->id, cu->name,
                            (unsigned long long)a->offset,
                            (unsigned long long)b->size);
        axl_status st = AXL_SUCCESS;
        if (a->offset) {
            st = axl__xn_arg_bo(d, b, a->offset, b->size - a->offset,
                                &v.v.bo, &bits);
        } else {
            v.v.bo = b->bo;
            bits = b->serial;
        }
        if (st != AXL_SUCCESS)
            return st;
    } else {
        uint64_t raw = 0;
        size_t n = a->size < sizeof raw ? (size_t)a->size : sizeof raw;
        if (m->kind == AXL__XRT_BO)
            return axl_fail(AXL_ERR_KERNEL_ARGUMENT,
                            "argument %u of %s is a buffer, not a scalar",
                            (unsigned)a->id, cu->name);
        if (!a->value || !a->size)
            return axl_fail(AXL_ERR_KERNEL_ARGUMENT,
                            "argument %u of %s has no value", (unsigned)a->id,
                            cu->name);
        memcpy(&raw, a->value, n); /* little-endian, as XRT copies it */
        bits = raw;
        switch (m->kind) {
        case AXL__XRT_INT: {
            uint32_t u = (uint32_t)raw;
            memcpy(&v.v.i, &u, sizeof u);
            break;
        }
        case AXL__XRT_UINT:
            v.v.u = (unsigned int)raw;
            break;
        case AXL__XRT_FLOAT: {
            float f;
            uint32_t u = (uint32_t)raw;
            memcpy(&f, &u, sizeof f);
            v.v.d = f;
            break;
        }
        case AXL__XRT_DOUBLE:
            memcpy(&v.v.d, &raw, sizeof v.v.d);
            break;
        case AXL__XRT_PTR:
            memset(pad, 0, sizeof pad);
            memcpy(pad, a->value,
                   a->size < sizeof pad ? (size_t)a->size : sizeof pad);
            v.v.p = pad;
            break;
        case AXL__XRT_U32:
            v.v.u32 = (uint32_t)raw;
            break;
        case AXL__XRT_U64:
            v.v.u64 = raw;
            break;
        case AXL__XRT_SIZE:
            v.v.z = (size_t)raw;
            break;
        case AXL__XRT_SKIP:
            break;
        default:
            return axl_fail(AXL_ERR_KERNEL_ARGUMENT,
                            "argument %u of %s (%u bytes) cannot pass "
                            "through XRT 2.13's C API",
                            (unsigned)a->id, cu->name,
                            (unsigned)m->xml_size);
        }
    }
    /* Wider pointed-to scalars are not remembered: always set. A BO is
     * known by its number (xn_device.bo_serials), not its handle. */
    xn_argval *held = &r->vals[a->id];
    int keep = AXL_XRT_KEEP_RUN_ARGS && m->kind != AXL__XRT_PTR;
    if (keep && held->known && held->bits == bits)
        return AXL_SUCCESS;
    held->known = 0;
    errno = 0;
    if (axl__xrt.run_set_arg(r->handle, (int)a->id, &v) != 0)
        return axl_fail(AXL_ERR_KERNEL_ARGUMENT,
                        "xrtRunSetArg(%s, %u) failed%s", cu->name,
                        (unsigned)a->id, errno_name(errno));
    held->bits = bits;
    held->known = (uint8_t)keep;
    return AXL_SUCCESS;
}

/*
 * The fast path. A start is one thread's from take_run to the moment the
 * run is either reported (ended inside run_start) or on the inflight
 * list: no other thread can reach the run meanwhile (run_cancel looks
 * only at the lists, and the core never cancels a run while its
 * run_start is still in the port, hal.h), so arguments, xrtRunStart and
 * the state read need no lock. The unit's spare slot lends and takes
 * back the run with one atomic exchange each, safe for starts on one
 * unit from several threads at once (each exchange hands a run to one
 * taker), which the core does not do but the port does not rely on.
 * A run that ended inside run_start is reported and returned to the
 * spare slot with no lock at all: the core does not close its unit or
 * the device before its run_start has returned (the run's command
 * completes only then). A run still going takes the lock once, to join
 * the inflight list where the completion thread, progress and
 * run_cancel find it.
 */

/* A free run of the unit: its spare without the lock, else one from its
 * pool, else a new XRT run (the pool grows to the number of runs in
 * flight on the unit at once). */
static axl_status take_run(xn_device *d, xn_cu *cu, xn_run **out)
{
    xn_run *r = atomic_exchange_explicit(&cu->spare, NULL,
                                         memory_order_acquire);
    if (!r) {
        pthread_mutex_lock(&d->lock);
        r = cu->free;
        if (r)
            cu->free = r->next;
        pthread_mutex_unlock(&d->lock);
    }
    if (!r) {
        r = calloc(1, sizeof *r + cu->nargs * (sizeof r->vals[0] +
                                                sizeof r->scalars[0]));
        if (r) {
            _Static_assert(sizeof(xn_run) % _Alignof(xn_argval) == 0,
                           "the values follow the run");
            _Static_assert(sizeof(xn_argval) % _Alignof(uint32_t) == 0,
                           "the scalars' places follow the values");
            r->vals = (xn_argval *)(r + 1);
            r->scalars = (uint32_t *)(r->vals + cu->nargs);
            errno = 0;
            r->handle = axl__xrt.run_open(cu->kernel);
            if (!r->handle) {
                int e = errno;
                free(r);
                r = NULL;
                errno = e;
            }
        }
        if (!r)
            return axl_fail(AXL_ERR_MEMORY_ALLOCATION,
                            "xrtRunOpen(%s) failed%s", cu->name,
                            errno_name(errno));
        r->cu = cu;
        count(&axl__xn_counts.runs, 1);
    }
    r->state = RUN_BUSY;
    r->cancelled = 0;
    r->ert = 0;
    *out = r;
    return AXL_SUCCESS;
}

/* A run that never started (lock not held; it was never counted busy).
 * `wedged`: XRT may have reset it without starting it, so it cannot be
 * started again: close it. */
static void give_back(xn_device *d, xn_run *r, int wedged)
{
    if (!wedged) {
        put_free(d, r, 0);
        return;
    }
    axl__xrt.run_close(r->handle);
    count(&axl__xn_counts.runs, -1);
    free(r);
}

/* A batch was reported: wakes the progress() calls that sleep for one.
 * The lock only when one does (see xn_device.report_waiters). */
static void notify_reported(xn_device *d)
{
    atomic_fetch_add(&d->reports, 1);
    if (atomic_load(&d->report_waiters)) {
        pthread_mutex_lock(&d->lock);
        pthread_cond_broadcast(&d->reported);
        pthread_mutex_unlock(&d->lock);
    }
}

axl_status axl__xn_run_start(void *dev, const axl_hal_run *run)
{
    xn_device *d = dev;
    xn_cu *cu = (xn_cu *)run->cu_handle;
    axl_status st;
    if (!cu) {
        /* No cu_open from the core: open (and keep) the unit now. */
        st = open_cu(d, run->image, run->kernel_index, run->ip_index, &cu);
        if (st != AXL_SUCCESS)
            return st;
        pthread_mutex_lock(&d->lock);
        if (cu->refs > 1)
            cu->refs--; /* one reference for all the lazy opens */
        else
            cu->lazy = 1;
        pthread_mutex_unlock(&d->lock);
    } else if (cu->dev != d || cu->closing) {
        return axl_fail(AXL_ERR_INVALID,
                        "compute unit handle of another device or closed");
    }
    st = start_thread(d);
    if (st != AXL_SUCCESS)
        return st;
    xn_run *r = NULL;
    st = take_run(d, cu, &r);
    if (st != AXL_SUCCESS)
        return st;
    /* The same nonzero args_id as the run's last start: the run holds
     * these buffer arguments already (hal.h), and the ids and kinds
     * set_arg checked then, so only the scalars it recorded are looked
     * at, and each is set only when its value changed. A replay of what
     * the run holds is xrtRunStart alone. */
    if (AXL_XRT_KEEP_RUN_ARGS && run->args_id && r->args_id == run->args_id) {
        for (uint32_t i = 0; i < r->nscalars; i++) {
            const axl_hal_arg *a = &run->args[r->scalars[i]];
            const xn_argval *held = &r->vals[a->id];
            if (held->known && a->size <= sizeof held->bits) {
                uint64_t raw = 0;
                if (a->size == 4)
                    memcpy(&raw, a->value, 4);
                else
                    memcpy(&raw, a->value, (size_t)a->size);
                if (raw == held->bits)
                    continue;
            }
            st = set_arg(d, cu, r, a);
            if (st != AXL_SUCCESS) {
                r->args_id = 0;
                give_back(d, r, 0);
                return st;
            }
        }
    } else {
        /* Every argument; the scalars' places are recorded for the next
         * start with this args_id (at most nargs: set_arg refuses ids
         * past them, and repeated ids are not recorded past that). */
        uint32_t n = 0;
        int recorded = 1;
        r->args_id = 0;
        for (uint32_t i = 0; i < run->arg_count; i++) {
            const axl_hal_arg *a = &run->args[i];
            st = set_arg(d, cu, r, a);
            if (st != AXL_SUCCESS) {
                give_back(d, r, 0);
                return st;
            }
            if (!a->is_mem) {
                if (n < cu->nargs)
                    r->scalars[n++] = i;
                else
                    recorded = 0;
            }
        }
        r->nscalars = n;
        r->args_id = recorded ? run->args_id : 0;
    }
    errno = 0;
    if (axl__xrt.run_start(r->handle) != 0) {
        int e = errno;
        give_back(d, r, 1);
        return axl_fail(AXL_ERR_RUNTIME, "xrtRunStart(%s) failed%s",
                        cu->name, errno_name(e));
    }
    /* A run XRT already sees complete (the noop shim, or a unit faster
     * than this call) is reported now, before run_start returns, as the
     * hal allows: no thread needs to wake for it, and no lock is taken
     * (the fast path above). */
    int s = (int)axl__xrt.run_state(r->handle);
    if (ert_final(s)) {
        /* Never cancelled: the core cancels no run inside run_start. */
        char why[AXL_MESSAGE_MAX];
        axl_status rs = AXL_SUCCESS;
        if (s != ERT_CMD_STATE_COMPLETED) {
            r->ert = s;
            rs = run_status(r, why, sizeof why);
        }
        put_free(d, r, 0); /* back with its unit before anyone is told */
        report(run->token, rs, rs == AXL_SUCCESS ? NULL : why);
        notify_reported(d);
        return AXL_SUCCESS;
    }
    r->token = run->token;
    r->hal = run;
    pthread_mutex_lock(&d->lock);
    cu->busy++;
    list_push(&d->inflight, r);
    if (d->sleeping)
        pthread_cond_signal(&d->cond);
    pthread_mutex_unlock(&d->lock);
    return AXL_SUCCESS;
}

void axl__xn_run_cancel(void *dev, const axl_hal_run *run)
{
    /* XRT 2.13's C API cannot abort a run, and a run still on the device
     * may still write its BOs: hal.h, its memory stays valid until its
     * one axl_hal_run_done. So it is set aside (a zombie) and reported
     * when XRT sees it end (axl__xn_reap), never here; one being reported
     * already has its report under way, which is its end. */
    xn_device *d = dev;
    pthread_mutex_lock(&d->lock);
    xn_run *r = d->inflight.next;
    while (r != &d->inflight && r->hal != run)
        r = r->next;
    if (r != &d->inflight) {
        list_del(r);
        r->state = RUN_ZOMBIE;
        r->cancelled = 1;
        list_push(&d->zombies, r);
    }
    pthread_mutex_unlock(&d->lock);
}

/*
 * A waiting application thread's turn: it reports every run XRT sees
 * ended (xrtRunState, a read of the command packet), and if none has,
 * sleeps until the completion thread reports a batch, at most a wait
 * slice and never past the deadline. It never waits in XRT itself: the
 * completion thread does, one waiter per device, the design XRT's
 * unmanaged wait is made for; two threads waiting there on the noop shim
 * could spin for good on a run that will not complete.
 */
void axl__xn_progress(void *dev, uint64_t deadline_ns)
{
    xn_device *d = dev;
    pthread_mutex_lock(&d->lock);
    const int idle = list_empty(&d->inflight);
    const uint64_t seen = atomic_load(&d->reports);
    pthread_mutex_unlock(&d->lock);
    if (idle || axl__xn_reap(d, NULL, 0))
        return;
    uint64_t ns = (uint64_t)AXL_XRT_WAIT_SLICE_MS * MS;
    if (deadline_ns != UINT64_MAX) {
        uint64_t now = axl_hal_now();
        uint64_t left = deadline_ns > now ? deadline_ns - now : 0;
        if (left < ns)
            ns = left;
    }
    if (!ns)
        return;
    struct timespec ts;
    axl__xn_deadline_after(&ts, ns);
    pthread_mutex_lock(&d->lock);
    /* The bump comes before the check (xn_device.report_waiters). */
    atomic_fetch_add(&d->report_waiters, 1);
    if (atomic_load(&d->reports) == seen && !list_empty(&d->inflight))
        pthread_cond_timedwait(&d->reported, &d->lock, &ts);
    atomic_fetch_sub(&d->report_waiters, 1);
    pthread_mutex_unlock(&d->lock);
}
