/*
 * context_priv.h - contexts (context.c): the object, and making, holding and
 * dropping one (queue.c makes a context for a queue made without one).
 */
#ifndef AXL_CONTEXT_PRIV_H
#define AXL_CONTEXT_PRIV_H

#include "rt.h"

/* An application context: its devices, its async handler, and the
 * errors its released queues left it. */
struct axl__context {
    uint16_t refs;              /* application references */
    uint16_t holds;             /* queues using it */
    uint16_t platform;
    uint8_t ndev;
    uint16_t dev[AXL_MAX_CONTEXT_DEVICES];
    axl_async_handler handler;
    axl__error_ref err_head, err_tail; /* errors of commands that finished
                                    after their queue's last release */
    uint32_t dropped;           /* such errors lost to a full error pool */
};

/* A queue or bundle that used c no longer does: freed with the last hold
 * once the application has released it. */
void axl__context_unhold(struct axl__context *c);
/* Whether device slot dev is one of c's. */
bool axl__context_has_device(const struct axl__context *c, uint16_t dev);
/* Builds a context from device handles (lock held): axl_context_create's,
 * and the one a queue made without a context owns. */
axl_status axl__context_make(const char *fn, const axl_device *devices,
                             uint32_t count, const axl_async_handler *handler,
                             struct axl__context **out);
/* One application reference let go: with the last, c is freed, or
 * retired while a queue or bundle still holds it. */
axl_status axl__context_drop(struct axl__context *c);

#endif /* AXL_CONTEXT_PRIV_H */
