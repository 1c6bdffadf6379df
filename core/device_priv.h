/*
 * device_priv.h - platforms and devices (platform.c, device.c): the platform
 * a port makes, a device with its run slots and the regions of its
 * fabric, and the device list and aspect checks.
 */
#ifndef AXL_DEVICE_PRIV_H
#define AXL_DEVICE_PRIV_H

#include "cu.h"
#include "axl/shell.h"

/* A platform: one registered device port and the devices it found. */
struct axl__platform {
    const axl_device_port *port;
    uint16_t device_count;
    char no_device_reason[AXL_MESSAGE_MAX]; /* the cause first: a port's
                                   message whole, then which device */
};

/* A part of a device's fabric that carries one design at a time
 * (docs/designs-design.md 1.1, struct axl__region there; that name is a
 * buffer region's here). Region 0 is the whole fabric, or a DFX shell's
 * static part; regions 1..n are the shell's slots (slot = region - 1;
 * issue 40, stage 5), read from the port at open. */
#if AXL_FEATURE_DESIGN_SWAP
#define AXL__MAX_REGIONS (1u + AXL_SHELL_MAX_SLOTS)
#else
#define AXL__MAX_REGIONS 1u
#endif
#define AXL__NO_REGION 0xFFu
struct axl__device_region {
    axl__placement_ref design;  /* the placement it carries; none: nothing,
                                   or a design the runtime no longer knows */
    uint8_t cu0, ncu;           /* its run slots: d->cus[cu0, cu0 + ncu) */
#if AXL_FEATURE_DESIGN_SWAP
    /* On-demand reprogramming (core/swap.c; designs-design.md 2.1). */
    bool loading;               /* a swap has claimed it: a design loads */
    uint8_t progressing;        /* waiters inside the port's progress, the
                                   lock dropped: a polled port's units are
                                   theirs to read, so no load begins */
    uint16_t want;              /* image slot of its oldest waiter's design,
                                   AXL__NO_WANT: no waiter */
    uint32_t want_seq;          /* that waiter's submission number: newer
                                   commands of the loaded design wait
                                   behind it (no design starves) */
    struct axl__cmd_fifo waiting; /* kernel commands and graph
                                   submissions waiting for a design */
    uint32_t epoch;             /* its run slots filled again (a load):
                                   plans bound before bind again */
    axl_hal_region desc;        /* a slot's name, window, lines and
                                   first unit (the port's region op) */
    uint8_t cap;                /* run slots it may fill from cu0 */
    uint32_t loads;             /* designs loaded into it since open
                                   (axl_region_info) */
    uint32_t loaded_at;         /* the runtime's load count after its last
                                   load: the least recent goes first */
    uint16_t incoming;          /* image slot of the design loading into
                                   it, AXL__NO_WANT: none */
    char failed_why[AXL_MESSAGE_MAX]; /* why its last waiters were failed
                                   (a load refused, a hung unit, a pinned
                                   design): a graph's submission among
                                   them fails its nodes with it when it
                                   is dispatched (replay.c) */
#endif
};
#define AXL__NO_WANT 0xFFFFu

struct axl__device {
    uint16_t platform;          /* slot */
    bool programming;           /* a new design is being loaded */
    uint8_t ncus;               /* run slots in use (d->cus), all regions' */
#if AXL_FEATURE_DESIGN_SWAP
    uint8_t nslots;             /* its shell's slots (regions 1..nslots),
                                   0 without one: read at open, beside the
                                   hot fields (a launch asks) */
#endif
    const axl_device_port *port; /* its platform's; called via devops.h */
    void *data;                 /* the port's state */
    uint32_t compute_units;     /* of the loaded design */
    axl__image_ref builtin;     /* the design it came with, or none */
    axl__image_ref loaded;      /* the design it carries, or none: region
                                   0's placement's image (kept beside it
                                   until the regions replace it, stage 3) */
    uint32_t loaded_by;         /* handle of the bundle that programmed it
                                   (weak; 0: the design it came with) */
    uint32_t inflight;          /* commands on it not yet complete */
    uint32_t args_ids;          /* the last axl_hal_run.args_id given out
                                   on it (never reused while it is open;
                                   at UINT32_MAX no more are given) */
    struct axl__cu cus[AXL_MAX_DEVICE_CUS];
#if AXL_DEVICE_CLOCKS
    uint64_t deadline_seen;     /* with a clock of its own: its runs'
                                   earliest deadline, as axl__next_deadline
                                   last found it (lock held; the wait that
                                   called it drives it to there) */
#endif
#if AXL_FEATURE_GRAPHS
    uint16_t replays;           /* graph submissions dispatched on it and
                                   not finished (replay.c): a waiter
                                   drives a polled device while one runs,
                                   as while a unit has a command (their
                                   runs start without the lock: a waiter
                                   asleep would never see them) */
    uint16_t replays_timed;     /* those whose runs have a timeout: with
                                   none, a wait reads no run's deadline
                                   (axl__replay_deadline) */
#endif
    struct axl__device_region region[AXL__MAX_REGIONS];
    axl_hal_device_info info;
};

/* The slots of d's DFX shell (issue 40, 3.1): 0 without one. */
static inline uint32_t axl__device_slot_count(const struct axl__device *d)
{
#if AXL_FEATURE_DESIGN_SWAP
    return d->nslots;
#else
    (void)d;
    return 0;
#endif
}

#if AXL_FEATURE_DESIGN_SWAP
/* The slot region (1..n) of d carrying the design in image slot s, or 0
 * (none, or d has no shell; lock held). */
uint8_t axl__slot_carrying(const struct axl__device *d, uint16_t s);

/* The region whose run slots hold run slot i of d. */
static inline uint8_t axl__region_of_cu(const struct axl__device *d,
                                        uint8_t i)
{
    for (uint8_t r = (uint8_t)axl__device_slot_count(d); r > 0; r--)
        if (i >= d->region[r].cu0)
            return r;
    return 0;
}
#endif

/* The port's unit number of run slot i of d (hal.h): its IP_LAYOUT index,
 * plus its slot's first_unit for a slot's unit. */
static inline uint32_t axl__unit_number(const struct axl__device *d,
                                        uint8_t i)
{
    const uint32_t ip = d->cus[i].ip;
#if AXL_FEATURE_DESIGN_SWAP
    if (d->nslots)
        return ip + d->region[axl__region_of_cu(d, i)].desc.first_unit;
#endif
    return ip;
}

/* The run slots [*lo, *hi) a design's kernels may take on d: those of
 * slot region r (1..n), or region 0's (all run slots in use, without a
 * shell). */
static inline void axl__region_units(const struct axl__device *d, uint8_t r,
                                     uint8_t *lo, uint8_t *hi)
{
#if AXL_FEATURE_DESIGN_SWAP
    if (d->nslots) {
        *lo = d->region[r].cu0;
        *hi = (uint8_t)(d->region[r].cu0 + d->region[r].ncu);
        return;
    }
#endif
    (void)r;
    *lo = 0;
    *hi = d->ncus;
}

/* Whether device d carries the design in image slot s: the whole
 * fabric's (or the static part's), or a slot's (issue 40, 3.3). */
AXL__REF_INLINE bool axl__device_carries(const struct axl__device *d,
                                         uint16_t s)
{
    if (axl__image_ref_eq(d->loaded, axl__image_ref_at(s)))
        return true;
#if AXL_FEATURE_DESIGN_SWAP
    return d->nslots && axl__slot_carrying(d, s) != 0;
#else
    return false;
#endif
}

/* The devices of one type of `platform` (NULL: of every platform), as a
 * list output (device.c). */
axl_status axl__list_devices(const char *fn,
                             const struct axl__platform *platform,
                             axl_device_type type, axl_device *out,
                             uint32_t cap, uint32_t *count);
/* Whether device d has an aspect (device.c). */
bool axl__device_has(const struct axl__device *d, axl_aspect aspect);

#endif /* AXL_DEVICE_PRIV_H */
