/*
 * transfer.c - moving bytes, outside the lock: the transfers a command
 * makes before its action (access.c decides which, and records them in
 * each accessor's src and loc), the copy and fill actions (4.9.4.3), and
 * the write-back of a buffer's last release (4.7.2.3). Device memory is
 * reached through devops.h; host memory under the buffer's mutex when it
 * has one (4.7.2.3, use_mutex).
 */
#include <string.h>

#include "rt.h"
#include "device_priv.h"
#include "buffer_priv.h"
#include "sched_priv.h"
#include "transfer.h"
#include "observe.h"
#include "devops.h"
#include "access.h"

/* ---- Moving bytes (outside the lock) ------------------------------------------------ */

typedef struct dev_ref {
    const struct axl__device *dev;
    axl_hal_mem *mem;
} dev_ref;

static dev_ref dev_of(struct axl__buffer *b, uint8_t loc)
{
    const struct axl__device *d =
        axl__device_deref(b->loc[loc].device);
    dev_ref r = {d, &b->loc[loc].mem};
    return r;
}

/* Dispatching threads run these without the runtime lock: they read only
 * b->mutex, fixed while the buffer lives (never b->flags, which the lock
 * guards and submissions change). */
static void host_lock(const struct axl__buffer *b)
{
    if (b->mutex.lock)
        b->mutex.lock(b->mutex.user);
}

static void host_unlock(const struct axl__buffer *b)
{
    if (b->mutex.unlock)
        b->mutex.unlock(b->mutex.user);
}

static axl_status port_failed(char *why, size_t cap, const char *what,
                              const dev_ref *d, axl_status st)
{
    axl__why_quote(why, cap, axl_last_message(), "", "%s on %s failed (%s): ",
                   what, d->dev->port->name, axl_status_name(st));
    return st == AXL_ERR_MEMORY_ALLOCATION ? st : AXL_ERR_RUNTIME;
}

/* A device copy that is the host storage itself (zero copy over
 * use_host_ptr memory): moving between the two is cache maintenance. */
static bool aliased(const struct axl__buffer *b, uint8_t loc)
{
    return loc != AXL__LOC_HOST && b->host && b->loc[loc].mem.host_ptr == b->host;
}

/* Whole-buffer moves into each accessor's location. */
static axl_status transfers(struct axl__command *c, char *why, size_t cap);

axl_status axl__move(struct axl__buffer *b, uint8_t src, uint8_t to,
                     char *why, size_t cap)
{
    axl_status st = AXL_SUCCESS;
    if (src != AXL__LOC_HOST) {
        dev_ref s = dev_of(b, src);
        host_lock(b);
        if (aliased(b, src))
            axl_port_cache_invalidate(b->host, (size_t)b->size);
        else
            st = axl__dev_mem_read(s.dev, s.mem, 0, b->host, b->size);
        host_unlock(b);
        if (st != AXL_SUCCESS)
            return port_failed(why, cap, "reading the buffer back", &s, st);
    }
    if (to != AXL__LOC_HOST) {
        dev_ref d = dev_of(b, to);
        host_lock(b);
        if (aliased(b, to))
            axl_port_cache_flush(b->host, (size_t)b->size);
        else
            st = axl__dev_mem_write(d.dev, d.mem, 0, b->host, b->size);
        host_unlock(b);
        if (st != AXL_SUCCESS)
            return port_failed(why, cap, "copying the buffer in", &d, st);
    }
    return AXL_SUCCESS;
}

axl_status axl__run_transfers(struct axl__command *c, char *why, size_t cap)
{
    if (!(c->flags & AXL__CMD_XFER))
        return AXL_SUCCESS;
    /* Traced: the span and bytes of the moves (the command is this
     * thread's until it completes, so no lock). */
    AXL__TRACE_STAMP(c, xfer_start, 0);
    axl_status st = transfers(c, why, cap);
    AXL__TRACE_STAMP(c, xfer_end, 0);
    return st;
}

static axl_status transfers(struct axl__command *c, char *why, size_t cap)
{
    for (uint8_t i = 0; i < c->nacc; i++) {
        struct axl__access *a = &c->acc[i];
        if (!(a->flags & AXL__ACC_XFER))
            continue;
        struct axl__buffer *b = axl__buffer_at(a->base);
        axl_status st = AXL_SUCCESS;
        AXL__TRACE_SET(c, xfer_bytes, c->tr.xfer_bytes +
                                          (a->src != AXL__LOC_HOST) * b->size +
                                          (a->loc != AXL__LOC_HOST) * b->size);
#if AXL_TRACE_DETAIL
        AXL__TRACE_SET(c, xfer_out, c->tr.xfer_out +
                                        (a->src != AXL__LOC_HOST) * b->size);
        AXL__TRACE_SET(c, xfer_in, c->tr.xfer_in +
                                       (a->loc != AXL__LOC_HOST) * b->size);
        AXL__TRACE_SET(c, xfer_device,
                       axl__device_ref_slot(b->loc[a->loc != AXL__LOC_HOST
                                                      ? a->loc
                                                      : a->src]
                                                .device));
#endif
        st = axl__move(b, a->src, a->loc, why, cap);
        if (st != AXL_SUCCESS)
            return st;
    }
    return AXL_SUCCESS;
}

/* Bytes of a view at location loc: host pointer or device range. */
typedef struct place {
    struct axl__buffer *base;
    uint8_t loc;
    uint64_t view_off; /* the view's offset in the base */
} place;

static place place_of(const struct axl__access *a)
{
    place p = {axl__buffer_at(a->base), a->loc,
               axl__buffer_at(a->view)->offset};
    return p;
}

static axl_status place_read(const place *p, uint64_t off, void *dst,
                             uint64_t len, char *why, size_t cap)
{
    if (p->loc == AXL__LOC_HOST) {
        memcpy(dst, (unsigned char *)p->base->host + p->view_off + off, len);
        return AXL_SUCCESS;
    }
    dev_ref d = dev_of(p->base, p->loc);
    axl_status st = axl__dev_mem_read(d.dev, d.mem, p->view_off + off, dst, len);
    return st == AXL_SUCCESS ? st : port_failed(why, cap, "a read", &d, st);
}

static axl_status place_write(const place *p, uint64_t off, const void *src,
                              uint64_t len, char *why, size_t cap)
{
    if (p->loc == AXL__LOC_HOST) {
        memcpy((unsigned char *)p->base->host + p->view_off + off, src, len);
        return AXL_SUCCESS;
    }
    dev_ref d = dev_of(p->base, p->loc);
    axl_status st =
        axl__dev_mem_write(d.dev, d.mem, p->view_off + off, src, len);
    return st == AXL_SUCCESS ? st : port_failed(why, cap, "a write", &d, st);
}

/* copy(accessor, dst) and copy(src, accessor): rows to and from packed
 * application memory. */
static axl_status copy_host(const struct axl__access *acc, uint8_t a0,
                            const union axl__action *u, bool to_host,
                            char *why, size_t cap)
{
    const struct axl__access *a = &acc[a0 - 1];
    const struct axl__region *r = to_host ? &u->copy.src : &u->copy.dst;
    place p = place_of(a);
    unsigned char *mem = u->copy.host;
    row_cursor rows;
    axl__rows_begin(&rows, r);
    uint64_t off, len, done = 0;
    axl_status st = AXL_SUCCESS;
    if (p.loc == AXL__LOC_HOST)
        host_lock(p.base);
    while (st == AXL_SUCCESS && axl__rows_next(&rows, &off, &len)) {
        st = to_host ? place_read(&p, off, mem + done, len, why, cap)
                     : place_write(&p, off, mem + done, len, why, cap);
        done += len;
    }
    if (p.loc == AXL__LOC_HOST)
        host_unlock(p.base);
    return st;
}

/* copy(accessor, accessor): the source's rows poured into the destination's
 * rows, through a bounce chunk when the bytes are on a device. */
static axl_status copy(const struct axl__access *acc, uint8_t a0, uint8_t a1,
                       const union axl__action *u, char *why, size_t cap)
{
    place s = place_of(&acc[a0 - 1]), d = place_of(&acc[a1 - 1]);
    row_cursor rs, rd;
    axl__rows_begin(&rs, &u->copy.src);
    axl__rows_begin(&rd, &u->copy.dst);
    uint64_t so = 0, sl = 0, doff = 0, dl = 0;
    axl_status st = AXL_SUCCESS;
    unsigned char chunk[512];
    dev_ref sr = {0}, dr = {0};
    bool on_device = s.loc != AXL__LOC_HOST;
    if (on_device) {
        sr = dev_of(s.base, s.loc);
        dr = dev_of(d.base, d.loc);
    } else {
        host_lock(s.base);
        if (d.base != s.base)
            host_lock(d.base);
    }
    for (;;) {
        if (!sl && !axl__rows_next(&rs, &so, &sl))
            break;
        if (!dl && !axl__rows_next(&rd, &doff, &dl))
            break;
        uint64_t n = sl < dl ? sl : dl;
        if (!on_device) {
            memmove((unsigned char *)d.base->host + d.view_off + doff,
                    (unsigned char *)s.base->host + s.view_off + so, n);
        } else if (axl__dev_can_copy(dr.dev)) {
            st = axl__dev_mem_copy(dr.dev, dr.mem, d.view_off + doff, sr.mem,
                                   s.view_off + so, n);
            if (st != AXL_SUCCESS)
                return port_failed(why, cap, "a device copy", &dr, st);
        } else {
            n = n < sizeof chunk ? n : sizeof chunk;
            st = place_read(&s, so, chunk, n, why, cap);
            if (st == AXL_SUCCESS)
                st = place_write(&d, doff, chunk, n, why, cap);
            if (st != AXL_SUCCESS)
                return st;
        }
        so += n, sl -= n, doff += n, dl -= n;
    }
    if (!on_device) {
        if (d.base != s.base)
            host_unlock(d.base);
        host_unlock(s.base);
    }
    return st;
}

/* fill(accessor, pattern). */
static axl_status fill(const struct axl__access *acc, uint8_t a0,
                       const union axl__action *u, char *why, size_t cap)
{
    place p = place_of(&acc[a0 - 1]);
    const struct axl__region *r = &u->fill.dst;
    /* A chunk of whole patterns (elements are at most 256 bytes). */
    unsigned char chunk[512];
    size_t chunk_bytes = sizeof chunk / r->elem * r->elem;
    for (size_t k = 0; k < chunk_bytes; k += r->elem)
        memcpy(chunk + k, u->fill.pattern, r->elem);
    row_cursor rows;
    axl__rows_begin(&rows, r);
    uint64_t off, len;
    axl_status st = AXL_SUCCESS;
    if (p.loc == AXL__LOC_HOST)
        host_lock(p.base);
    while (st == AXL_SUCCESS && axl__rows_next(&rows, &off, &len)) {
        while (st == AXL_SUCCESS && len) {
            uint64_t n = len < chunk_bytes ? len : chunk_bytes;
            st = place_write(&p, off, chunk, n, why, cap);
            off += n;
            len -= n;
        }
    }
    if (p.loc == AXL__LOC_HOST)
        host_unlock(p.base);
    return st;
}

axl_status axl__data_action(uint8_t kind, const struct axl__access *acc,
                            uint8_t a0, uint8_t a1,
                            const union axl__action *u, char *why,
                            size_t cap)
{
    switch (kind) {
    case AXL__CMD_COPY_TO_HOST:
        return copy_host(acc, a0, u, true, why, cap);
    case AXL__CMD_COPY_FROM_HOST:
        return copy_host(acc, a0, u, false, why, cap);
    case AXL__CMD_COPY:
        return copy(acc, a0, a1, u, why, cap);
    case AXL__CMD_FILL:
        return fill(acc, a0, u, why, cap);
    default: /* update_host, prefetch, empty: the moves were the job */
        return AXL_SUCCESS;
    }
}

/* ---- Write-back on the last release (4.7.2.3) --------------------------------------- */

axl_status axl__write_back(const char *fn, struct axl__buffer *b)
{
    /* Lock held, buffer idle; dropped while bytes move. */
    uint8_t src = b->loc[AXL__LOC_HOST].ver == b->cur && b->host
                      ? AXL__LOC_HOST
                      : axl__pick_source(b, AXL__NO_LOC);
    /* Only the newest contents go back. An older copy (the host's, from
     * before a kernel that failed writing the device's) is not the
     * buffer's contents: the application's memory keeps what it had, and
     * the release says so (issue 35: it wrote the stale copy back and
     * returned AXL_SUCCESS). */
    if (src != AXL__NO_LOC && b->loc[src].ver != b->cur)
        src = AXL__NO_LOC;
    /* Traced: a write-back from a device is a transfer of its own. */
    const bool traced = AXL_TRACE_DETAIL && src != AXL__NO_LOC &&
                        src != AXL__LOC_HOST && axl__trace_on();
    const uint64_t t0 = traced ? axl__now() : 0;
    if (src == AXL__NO_LOC)
        return axl__fail(fn, AXL_ERR_RUNTIME,
                         "nothing written back: the buffer's contents were "
                         "lost when a command writing it failed%s%s%s; the "
                         "host memory keeps what it had",
                         b->lost_status ? " (" : "",
                         b->lost_status ? axl_status_name(b->lost_status)
                                        : "",
                         b->lost_status ? ")" : "");
    void *dst = b->final_dst;
    axl_status st = AXL_SUCCESS;
    char why[AXL_MESSAGE_MAX] = "";
    axl_port_unlock();
    bool user_memory = dst == b->user;
    if (user_memory)
        host_lock(b);
    if (src == AXL__LOC_HOST) {
        if (b->host != dst)
            memcpy(dst, b->host, (size_t)b->size);
    } else {
        dev_ref d = dev_of(b, src);
        st = axl__dev_mem_read(d.dev, d.mem, 0, dst, b->size);
        if (st != AXL_SUCCESS)
            st = port_failed(why, sizeof why, "writing the buffer back", &d, st);
    }
    if (user_memory)
        host_unlock(b);
    const uint64_t t1 = traced ? axl__now() : 0;
    axl_port_lock();
    if (traced)
        axl__trace_write_back(b, src, t0, t1, st);
    if (st != AXL_SUCCESS)
        return axl__fail_as(fn, st, why);
    return AXL_SUCCESS;
}
