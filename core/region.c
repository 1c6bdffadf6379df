/*
 * region.c - the part of a buffer a command reaches: an accessor's or a
 * command's region checked against its view (access mode, flags, range
 * and offset), normalised to three dimensions, the bytes it spans, and
 * walking it row by row for transfer.c. access.c orders commands by these
 * spans and decides where the data must be.
 */
#include <string.h>

#include "rt.h"
#include "buffer_priv.h"
#include "handler_priv.h"
#include "access.h"

/* ---- Regions ------------------------------------------------------------------ */

/* Normalised to 3 dimensions, leading ones 1: a 1-d buffer of n is
 * {1, 1, n}. The last dimension is contiguous (3.11.1). */
static axl_status region_make(const char *fn, const struct axl__buffer *view,
                              const axl_region *in, struct axl__region *out)
{
    uint32_t d = view->dims, shift = 3 - d;
    out->dims = d;
    out->elem = view->elem;
    for (uint32_t i = 0; i < 3; i++) {
        out->view_range[i] = 1;
        out->off[i] = 0;
        out->len[i] = 1;
    }
    if (!in) { /* the whole view: nothing to check */
        for (uint32_t i = 0; i < d; i++)
            out->view_range[i + shift] = out->len[i + shift] = view->range[i];
        return AXL_SUCCESS;
    }
    for (uint32_t i = 0; i < d; i++) {
        size_t r = view->range[i];
        size_t o = in->offset[i];
        size_t n = in->range[i];
        if (n == 0 || o > r || n > r - o)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "the accessor's dimension %u (offset %zu, range "
                             "%zu) is outside the buffer's %zu",
                             (unsigned)i, o, n, r);
        out->view_range[i + shift] = r;
        out->off[i + shift] = o;
        out->len[i + shift] = n;
    }
    return AXL_SUCCESS;
}

/* The checks of an accessor that need no lock: its mode and flags. A
 * mode with no_init in it (AXL_ACCESS_WRITE_NO_INIT, ...) becomes the plain
 * mode and the flag. */
axl_status axl__access_args(const char *fn, axl_access_mode *mode,
                            uint32_t *flags)
{
    uint32_t m = (uint32_t)*mode;
    if (m == AXL_ACCESS_WRITE_NO_INIT || m == AXL_ACCESS_READ_WRITE_NO_INIT) {
        m &= AXL_ACCESS_READ_WRITE;
        *flags |= AXL_ACCESS_NO_INIT;
    }
    if (m < AXL_ACCESS_READ || m > AXL_ACCESS_READ_WRITE)
        return axl__fail(fn, AXL_ERR_INVALID, "%d is not an access mode",
                         (int)*mode);
    if (*flags & ~(uint32_t)AXL_ACCESS_NO_INIT)
        return axl__fail(fn, AXL_ERR_INVALID, "unknown accessor flags 0x%x",
                         (unsigned)*flags);
    if ((*flags & AXL_ACCESS_NO_INIT) && m == AXL_ACCESS_READ)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "no_init with a read-only accessor (4.7.6.4: "
                         "errc::invalid)");
    *mode = (axl_access_mode)m;
    return AXL_SUCCESS;
}

static void region_span(const struct axl__region *r, uint64_t *off,
                        uint64_t *size);

/* The checks against the buffer (lock held): no host write to a buffer
 * made from const host memory (host: a host accessor's), and the region, made in out->region with the
 * bytes it spans in out->off and out->size. The region of a whole view is
 * left to axl__required_region: only data commands and host_ptr read
 * regions, and a kernel's accessors are nearly always whole views. */
axl_status axl__access_view(const char *fn, struct axl__buffer *view,
                            axl_access_mode mode, const axl_region *region,
                            bool host, struct axl__required *out)
{
    /* C's `const void *` is rule 2.2 of 4.7.2.3: the data is read-only on
     * the host only; commands may write (Table 38), and nothing is written
     * back unless set_final_data names a destination. One departure: with
     * use_host_ptr the const memory itself is the host copy, so a command
     * that writes would write into it. */
    if ((mode & AXL_ACCESS_WRITE) && (view->flags & AXL__BUF_READ_ONLY)) {
        const struct axl__buffer *b = axl__buffer_base(view);
        if (host)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "a write host accessor on a buffer made from "
                             "const host memory, which is read-only on the "
                             "host (4.7.2.3 rule 2.2)");
        if (!(b->flags & AXL__BUF_HOST_OWNED))
            return axl__fail(fn, AXL_ERR_INVALID,
                             "a write accessor on a buffer made from const "
                             "host memory with use_host_ptr: that memory is "
                             "the buffer's host copy, and is read-only");
    }
    out->buf = view;
    out->base = axl__buffer_base(view);
    out->whole = !region;
    if (!region) { /* its size is the product of its range */
        out->off = 0;
        out->size = view->size;
        return AXL_SUCCESS;
    }
    axl_status st = region_make(fn, view, region, &out->region);
    if (st == AXL_SUCCESS)
        region_span(&out->region, &out->off, &out->size);
    return st;
}

/* The accessor's region, made now if it is a whole view's. The view's
 * shape never changes, so this needs no lock. */
const struct axl__region *axl__required_region(struct axl__required *r)
{
    if (r->whole) { /* made once */
        region_make(NULL, r->buf, NULL, &r->region);
        r->whole = false;
    }
    return &r->region;
}

static uint64_t region_elems(const struct axl__region *r)
{
    return (uint64_t)r->len[0] * r->len[1] * r->len[2];
}

/* Byte offset in the view of element (i, j, k) of the region's origin. */
static uint64_t region_at(const struct axl__region *r, size_t i, size_t j,
                          size_t k)
{
    uint64_t lin = ((uint64_t)(r->off[0] + i) * r->view_range[1] +
                    (r->off[1] + j)) *
                       r->view_range[2] +
                   (r->off[2] + k);
    return lin * r->elem;
}

/* The bytes from the region's first element to the end of its last. */
static void region_span(const struct axl__region *r, uint64_t *off,
                        uint64_t *size)
{
    uint64_t first = region_at(r, 0, 0, 0);
    uint64_t last = region_at(r, r->len[0] - 1, r->len[1] - 1, r->len[2] - 1);
    *off = first;
    *size = last + r->elem - first;
}

bool axl__region_contiguous(const struct axl__region *r)
{
    uint64_t off, size;
    region_span(r, &off, &size);
    return size == region_elems(r) * r->elem;
}

void axl__rows_begin(row_cursor *c, const struct axl__region *r)
{
    c->r = r;
    c->i = c->j = 0;
    c->done = false;
    c->whole = axl__region_contiguous(r);
}

bool axl__rows_next(row_cursor *c, uint64_t *off, uint64_t *len)
{
    if (c->done)
        return false;
    const struct axl__region *r = c->r;
    if (c->whole) {
        region_span(r, off, len);
        c->done = true;
        return true;
    }
    *off = region_at(r, c->i, c->j, 0);
    *len = (uint64_t)r->len[2] * r->elem;
    if (++c->j == r->len[1]) {
        c->j = 0;
        if (++c->i == r->len[0])
            c->done = true;
    }
    return true;
}
