/*
 * buffer_priv.h - buffers (buffer.c): where a buffer's contents are (its
 * locations and versions), the buffer object, host accessors, and what
 * other files call of buffer.c: host storage, device copies, holds and
 * the zombies freed outside the lock.
 */
#ifndef AXL_BUFFER_PRIV_H
#define AXL_BUFFER_PRIV_H

#include "rt.h"

/* Where a base buffer's contents can be: location 0 is host storage, the
 * others are copies on devices. Each knows the version it will hold once
 * the commands submitted so far are done, and which command, if any, is
 * still filling it (DESIGN notes in docs/design.md, "data movement"). */
#define AXL__LOC_HOST 0u
#define AXL__LOCS (1u + AXL_BUFFER_DEVICE_COPIES)
#define AXL__VER_NONE UINT32_MAX
#define AXL__NO_LOC 0xFFu

struct axl__loc {
    axl__device_ref device;     /* its device; none for host / unused */
    uint32_t ver;               /* version held once submitted work is done */
    uint32_t xfer;              /* event of the command filling it, or 0 */
    axl_hal_mem mem;            /* device copies */
};

enum axl__buffer_flags {
    AXL__BUF_READ_ONLY = 1u << 8,   /* made from const host memory */
    AXL__BUF_HOST_DATA = 1u << 9,   /* made from host memory */
    AXL__BUF_WRITE_BACK = 1u << 11, /* write back on the last release */
    AXL__BUF_HOST_OWNED = 1u << 12, /* host storage came from the allocator */
    AXL__BUF_SUB = 1u << 13,
    AXL__BUF_ZOMBIE = 1u << 14      /* released; freed once idle */
};

/* Dependency records: the accessors of unfinished commands, linked into
 * their base buffer's list. id = command slot * AXL_MAX_ACCESSORS + i + 1. */
typedef uint32_t axl__rec;

struct axl__buffer {
    uint16_t refs;
    uint16_t holds;             /* commands, sub-buffers, host accessors,
                                   handlers being filled */
    uint16_t busy;              /* base: unfinished commands using it */
    uint16_t base;              /* slot of the base buffer (itself if base) */
    uint32_t flags;             /* axl_buffer_flags | axl__buffer_flags */
    uint32_t dims;
    size_t elem;
    size_t range[3];
    uint64_t offset;            /* byte offset in the base */
    uint64_t size;              /* bytes */
    /* Base buffers only: */
    axl__context_ref context;   /* context_bound: its context, or none */
    uint16_t reserved;          /* runs given up at their timeout that were
                                   given it as an argument and have not
                                   come back (each holds it): its device
                                   memory stays reserved, and while one of
                                   them is on a hung unit a whole write
                                   does not clear lost_status (the IP may
                                   still write it) */
    void *host;                 /* host storage, or NULL */
    void *user;                 /* host memory given at creation */
    void *final_dst;            /* where the last release writes back */
    axl_allocator alloc;        /* .allocate NULL: the static arena */
    axl_buffer_mutex mutex;     /* fixed at creation; zero unless
                                   use_mutex (dispatchers read it alone) */
    bool written;               /* a write accessor was created */
    uint32_t cur;               /* current version */
    axl_status lost_status;     /* a failed command left the contents
                                   unknown: later users fail the same way */
    uint32_t lost_event;        /* that command's event, and the handles */
    uint32_t lost_queue;        /* of its queue and of that queue's */
    uint32_t lost_context;      /* context (0: none; 4.7.2.3: where its
                                   release reports the loss) */
    struct axl__loc loc[AXL__LOCS];
    axl__rec rec_head, rec_tail;
    uint8_t nrec;
    axl__buffer_ref next_zombie;
    uint32_t trace_writer;      /* base: event handle of the last traced
                                   command that wrote it (trace arrows) */
#if AXL_FEATURE_GRAPHS
    /* Base: a graph's submission that uses it and has not finished (its
     * event handle, 0: none): later commands order after it (replay.c).
     * And the last version a failed write lost (lost_ver, with why:
     * lost_ver_status and the event that failed): a command committed
     * after a graph that reads that version fails unrun at dispatch,
     * whatever was committed since. A graph that only reads it, and
     * where it is current, orders only the commands that write it. */
    uint32_t graph_ev;
    bool graph_writes;          /* it (or one it waits for) writes or
                                   moves the buffer: a reader orders
                                   after it too, not only a writer */
    uint32_t lost_ver;
    axl_status lost_ver_status;
    uint32_t lost_ver_event;
#endif
};

/* A host accessor (4.7.6.3): the HOST_ACCESS command that stands for it
 * until it is released, by the thread that made it. */
struct axl__host_accessor {
    uint16_t command;           /* slot of its HOST_ACCESS command */
    uint32_t event;             /* that command's event */
    uint32_t buffer;            /* the buffer's handle (for messages) */
    const void *owner;          /* the creating thread's message buffer:
                                   who can release it (issue 16.5) */
};

/* A view's base buffer (itself if it is one). */
static inline struct axl__buffer *axl__buffer_base(const struct axl__buffer *b)
{
    return axl__buffer_at(b->base);
}
/* A released buffer nobody uses any more is freed later, outside the
 * lock (a zombie: see axl__free_zombies). */
void axl__buffer_zombie(struct axl__buffer *b);
static inline void axl__buffer_unhold(struct axl__buffer *b)
{
    if (--b->holds == 0 && b->refs == 0)
        axl__buffer_zombie(b);
}
void axl__free_zombies(void);
/* The default host allocator's arena, emptied (at start-up). */
void axl__host_arena_reset(void);
/* A base buffer's host storage, made if it has none (lock held, dropped
 * around an application's allocator). */
axl_status axl__host_storage(const char *fn, struct axl__buffer *base);
/* Base buffer b's copy on device d in `bank`, made if it has none: its
 * location in *loc (lock held, dropped around the port). */
axl_status axl__device_copy(const char *fn, struct axl__buffer *b,
                            struct axl__device *d, uint32_t bank,
                            uint8_t *loc);
/* The location of a base buffer's copy on a device, or AXL__NO_LOC. */
static inline uint8_t axl__device_loc(const struct axl__buffer *b,
                                      uint16_t device)
{
    for (uint8_t l = 1; l < AXL__LOCS; l++)
        if (axl__device_ref_eq(b->loc[l].device, axl__device_ref_at(device)))
            return l;
    return AXL__NO_LOC;
}

/* A prefetch group's accessor placed on the queue's device, storage made
 * there if needed (buffer.c; lock held, dropped around the port). */
axl_status axl__prefetch_prepare(const char *fn, struct axl__queue *q,
                                 axl_handler *h);

#endif /* AXL_BUFFER_PRIV_H */
