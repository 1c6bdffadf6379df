/*
 * kernel.h - kernel objects (kernel.c) and the launch checker
 * (launch.c): a kernel with its memo of the last plain launch, which
 * units it may use, reading an axl_kernel_arg, and the memo's recall.
 * Also parallel_for's chunks (parallel.c), which plans cut the same way.
 */
#ifndef AXL_KERNEL_H
#define AXL_KERNEL_H

#include "cu.h"

/*
 * A kernel's memo of its last launch by axl_queue_single_task whose
 * arguments were plain (one per kernel argument, buffers without a region,
 * placed on the queue's device), made when the one checker
 * (axl__kernel_prepare, axl__access_prepare) passed it. A later launch with
 * the same arguments on a queue of the same device and context skips the
 * rules whose inputs the memo holds: the argument ids, kinds and sizes
 * against the metadata, and for each buffer its handle, mode, context,
 * alignment, location and bank against the units.
 *
 * It needs no global counter to stay true: each remembered buffer is its
 * handle, whose generation changes when the buffer is released (the
 * handle turns stale at once) and its slot reused, and a live buffer's
 * view, flags, context and device copies never change (copies are freed
 * only with the buffer; axl__launch_memo_drop also clears memos naming a
 * slot being freed, so a generation that wraps cannot bring one back).
 * What can change between launches is checked each time: the design on
 * the device, whether each buffer's contents are current there (or have
 * host storage to come from), the timeout.
 *
 * seq names the memo; a unit that ran it keeps its hal
 * arguments (axl__cu.memo), and the port is told so (axl_hal_run.args_id).
 */
struct axl__memo_arg {
    uint32_t what;              /* buffer: its handle; scalar: its size */
    int8_t given;               /* axl_kernel_arg.index as given: the
                                   argument's id, or -1 for AXL_ARG_POS
                                   (then the id is the position; ids are
                                   below 64), so one compare checks it */
    uint8_t mode;               /* buffer: its access mode (no_init in bit
                                   2; the default made READ_WRITE); scalar: 0 */
    uint8_t given_mode;         /* buffer: axl_kernel_arg.mode as given */
    uint8_t loc;                /* buffer: its location on the device */
};

struct axl__launch_memo {
    uint32_t seq;               /* this memo's number for its kernel (the
                                   last one given; never 0 once made) */
    uint16_t context, device;   /* slots: the queue's (in its order) */
#if AXL_FEATURE_GRAPHS
    uint16_t no_graph[2];       /* 0 (the kernel is zeroed at creation):
                                   a queue that records into no graph, as
                                   its graph and graph_pad read */
#endif
    bool holds;                 /* false: no memo, or one forgotten */
    uint8_t nargs;
    uint16_t image;             /* slot of the design it ran on */
    struct axl__memo_arg arg[AXL_MAX_KERNEL_ARGS];
};

struct axl__kernel {
    uint16_t refs;
    uint16_t holds;             /* commands using it */
    uint16_t bundle;            /* slot; held */
    uint16_t kid;               /* slot */
    uint8_t cu_hint;            /* the unit to try first (round robin) */
#if AXL_FEATURE_DESIGN_SWAP
    uint32_t place;             /* handle of the placement its last checked
                                   launch found (place.h), or 0: a cache,
                                   valid while the handle is live */
#endif
    uint32_t cus;               /* the units it may run on, bit = ordinal
                                   within the kernel; 0: all of them
                                   (axl_kernel_select_units) */
    struct axl__launch_memo memo; /* see axl__launch_memo */
};

/* Whether kernel object k may run on unit cu (of its kernel): a kernel
 * restricted to some units (axl_kernel_select_units) runs only there. */
static inline bool axl__kernel_may_use_unit(const struct axl__kernel *k,
                                            const struct axl__unit *u)
{
    return !k->cus || (k->cus >> u->ordinal & 1u);
}
static inline bool axl__kernel_may_use(const struct axl__kernel *k,
                                       const struct axl__cu *cu)
{
    return axl__kernel_may_use_unit(k, &cu->unit);
}

/* A kernel object one of its commands no longer needs: freed with the
 * last hold once the application has released it (kernel.c). */
void axl__kernel_unhold(struct axl__kernel *k);

/* The launch checker (launch.c): the one set of rules a kernel group
 * passes before its command is made. */
axl_status axl__kernel_prepare(const char *fn, struct axl__queue *q,
                               axl_handler *h);

/* An axl_kernel_arg's id (AXL_ARG_POS: its position i in the list), its
 * kind (a buffer has neither value nor size) and a scalar's bytes (value,
 * or the argument's own `scalar` when NULL). */
static inline uint32_t axl__arg_index(const axl_kernel_arg *a, uint32_t i)
{
    return a->index == AXL_ARG_POS ? i : a->index;
}
static inline bool axl__arg_is_scalar(const axl_kernel_arg *a)
{
    return ((uintptr_t)a->value | a->size) != 0;
}
static inline const void *axl__arg_bytes(const axl_kernel_arg *a)
{
    return a->value ? a->value : (const void *)a->scalar.bytes;
}

/* axl_queue_single_task's group from its kernel's memo (kernel.c; lock
 * held), or false: the handler calls fill it. */
bool axl__launch_recall(axl_handler *h, const struct axl__queue *q,
                        axl_kernel kernel, const axl_kernel_arg *args,
                        uint32_t nargs);
/* A group the memo filled becomes the group the handler calls would have
 * filled, for a submission that checks it again in full: it waited with
 * the lock dropped, and what the recall vouched for may have changed. */
void axl__launch_unrecall(axl_handler *h);
/* A single_task group the checker passed and command c was made from:
 * its kernel remembers it if it is plain (lock held). */
void axl__launch_remember(const struct axl__queue *q, const axl_handler *h,
                          struct axl__command *c);
/* Memos naming buffer slot `buffer`, or units holding the arguments of a
 * memo of kernel slot `kernel` (each UINT16_MAX when not asked), are
 * forgotten: the slot is being freed (lock held). */
void axl__launch_memo_drop(uint16_t buffer, uint16_t kernel);

/* Chunk j of a parallel_for's range cut in `chunks` (parallel.c): its
 * first item and count, the range in granules dealt out as evenly as they
 * go (the first chunks take one more when they do not divide), the last
 * cut at the range's end. */
void axl__split_chunk(uint64_t range, uint64_t granule, uint32_t chunks,
                      uint32_t j, uint64_t *first, uint64_t *count);

#endif /* AXL_KERNEL_H */
