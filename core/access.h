/*
 * access.h - accesses and regions (access.c, region.c): the record a
 * command keeps of each accessor, the region it spans, the accessor
 * checks every group passes, placing a group's accessors and turning
 * them into its command's, where a location's current contents come
 * from, and walking a region row by row (for transfer.c).
 */
#ifndef AXL_ACCESS_H
#define AXL_ACCESS_H

#include "buffer_priv.h"

struct axl__required; /* handler_priv.h */

enum axl__access_flags {
    AXL__ACC_NO_INIT = 1u << 0,
    AXL__ACC_FENCE = 1u << 2,   /* stands for the whole buffer, as a write */
    AXL__ACC_XFER = 1u << 3,    /* fills loc from src before the action */
    AXL__ACC_DISCARD = 1u << 4, /* old contents not needed at all */
    AXL__ACC_HOST_ACCESS = 1u << 5 /* a host accessor's record */
};

/* One accessor of a command: where and how it touches its base buffer,
 * linked into the buffer's records while the command is unfinished. */
struct axl__access {
    uint16_t view;              /* buffer slot as required (maybe a sub) */
    uint16_t base;              /* base buffer slot */
    uint8_t mode;               /* axl_access_mode */
    uint8_t flags;              /* axl__access_flags: fixed at commit, so
                                   the dispatcher reads them unlocked */
    uint8_t linked;             /* in its buffer's record list: changes
                                   while the command runs (lock only) */
    uint8_t loc;                /* where the command touches the buffer */
    uint8_t src;                /* transfer source location, or NO_LOC */
    uint32_t ver;               /* version it reads or makes at loc */
    uint64_t offset;            /* bytes in the base: the accessed span */
    uint64_t size;
    axl__rec prev, next;
};

/* A region in elements of a view, for strided copies and fills. */
struct axl__region {
    uint32_t dims;
    size_t elem;
    size_t view_range[3];
    size_t off[3];
    size_t len[3];
};

/* Walks a region row by row (runs of the last dimension, merged when the
 * region is contiguous). */
typedef struct row_cursor {
    const struct axl__region *r;
    size_t i, j;
    bool done;
    bool whole;
} row_cursor;

void axl__rows_begin(row_cursor *c, const struct axl__region *r);
/* The next run: byte offset in the view and length. False at the end. */
bool axl__rows_next(row_cursor *c, uint64_t *off, uint64_t *len);

/* True when the region is one run of bytes in its view. */
bool axl__region_contiguous(const struct axl__region *r);

/* Where to copy from so that `to` holds the current version: a location
 * that holds it (host first), else the newest surviving one (after a
 * failure), else nowhere (the contents are unspecified). */
uint8_t axl__pick_source(const struct axl__buffer *b, uint8_t to);

#if AXL_FEATURE_GRAPHS
struct axl__plan;
/* A graph's submission c (plan p) accesses each of its plan buffers as
 * one command would, with the nodes' modes together (lock held): edges
 * that only order from the commands using them before, versions, its
 * mark on each (later commands order after it), its hold; what each
 * buffer holds where, and what was lost before, for its nodes. */
void axl__access_commit_graph(struct axl__command *c, struct axl__plan *p);
/* And when it finishes: what its failed nodes wrote is lost (from the
 * version each made), marks and holds go. */
void axl__access_finish_graph(struct axl__command *c, struct axl__plan *p);
#endif

/* An accessor's checks (buffer accessors and host accessors alike): mode
 * and flags, then, lock held, the buffer and the region. */
axl_status axl__access_args(const char *fn, axl_access_mode *mode,
                            uint32_t *flags);
axl_status axl__access_view(const char *fn, struct axl__buffer *view,
                            axl_access_mode mode, const axl_region *region,
                            bool host, struct axl__required *out);
const struct axl__region *axl__required_region(struct axl__required *r);

/* The checks of the group's accessors against their buffers, and where
 * each is touched (h->acc[i].loc). Not for a group a kernel's memo filled
 * (h->memo): the memo's launch passed them, and the memo knows where. */
axl_status axl__access_prepare(const char *fn, axl_handler *h,
                               struct axl__queue *q);
/* The handler's accessors become command c's (its slot: record ids), with
 * their edges, versions and records; the handler's buffer holds pass to
 * the command. */
void axl__access_commit(struct axl__command *c, uint16_t slot, axl_handler *h);
void axl__access_finish(struct axl__command *c, bool failed);
void axl__access_started(struct axl__command *c);

#endif /* AXL_ACCESS_H */
