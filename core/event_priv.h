/*
 * event_priv.h - events (event.c): the object its command completes, with
 * the list of the commands that depend on it, and its holds.
 */
#ifndef AXL_EVENT_PRIV_H
#define AXL_EVENT_PRIV_H

#include "rt.h"

/* Successor lists link "dependency nodes" that live inside the successor
 * command: node id = command slot * AXL_MAX_COMMAND_DEPS + dep index + 1. */
typedef uint32_t axl__node;

/* A context slot's bit in an event's waited_ctx (slots past 31 share
 * bits: wait_and_throw then also serves a context it did not wait on,
 * never misses one). */
#define AXL__CTX_BIT(slot) (1u << ((slot) & 31u))

enum { AXL__EV_HOST_ACCESS = 1, AXL__EV_CU = 2 };

struct axl__event {
    uint16_t refs;              /* application references */
    uint16_t holds;             /* its command, a waiter, a dependency */
    _Atomic uint8_t state;      /* axl_event_status; read without the lock */
    bool profiling;
    uint8_t role;               /* AXL__EV_HOST_ACCESS: a host accessor's
                                   (edges to it are kept); AXL__EV_CU + n:
                                   a kernel's command that unit n (its
                                   ordinal within the kernel) ran, set at
                                   dispatch; 0: neither (yet). One byte
                                   set at submission for both. */
#if AXL_FEATURE_DESIGN_SWAP
    uint8_t ran_in;             /* on a device with slots, 1 + the region
                                   a kernel's command ran in (issue 40:
                                   region 0 the static part, r a slot's),
                                   set at dispatch; 0: none yet, or a
                                   device without slots (its role says
                                   whether it ran). In what was padding
                                   on 64-bit hosts. */
#endif
    axl_status status;          /* the command's result once complete */
    uint32_t queue;             /* handle of the queue it was submitted to
                                   (weak: the queue may be gone) */
    axl__command_ref command;   /* its command while not complete */
    axl__error_ref error;       /* its error record, if any */
    uint32_t waited_ctx;        /* contexts of the commands its command
                                   waited on (AXL__CTX_BIT), Table 34 */
    axl__node succ;             /* first dependent command's node */
    uint64_t t_submit, t_start, t_end;
};

/* Its command, a waiter or a dependency let go of e: freed with the last
 * hold once the application has released it. */
void axl__event_unhold(struct axl__event *e);

#endif /* AXL_EVENT_PRIV_H */
