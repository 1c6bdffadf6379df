/*
 * handler.c - filling a command group (the handler of spec 4.9.4).
 *
 * The handler is a plain struct on the stack of axl_queue_submit; the calls
 * below only record. Nothing is scheduled until the group returns, so an
 * error leaves nothing behind.
 */
#include <string.h>

#include "rt.h"

void axl__handler_init(axl_handler *h)
{
    h->error = AXL_SUCCESS;
    h->why[0] = '\0';
    h->kind = 0;
    h->nactions = 0;
    h->ndeps = 0;
    h->deps_overflow = false;
}

/* Keeps the first error of the group, with its message. */
static axl_status handler_fail(axl_handler *h, axl_status st)
{
    if (h->error == AXL_SUCCESS) {
        h->error = st;
        axl_format(h->why, sizeof h->why, "%s", axl_last_message());
    }
    return st;
}

static bool usable(axl_handler *h, const char *fn, axl_status *st)
{
    if (!h) {
        *st = axl__fail(fn, AXL_ERR_INVALID, "handler must not be NULL");
        return false;
    }
    *st = h->error;
    return h->error == AXL_SUCCESS;
}

axl_status axl_handler_depends_on(axl_handler *h, axl_event event)
{
    return axl_handler_depends_on_list(h, &event, 1);
}

axl_status axl_handler_depends_on_list(axl_handler *h, const axl_event *events,
                                       uint32_t count)
{
    static const char fn[] = "axl_handler_depends_on";
    axl_status st;
    if (!usable(h, fn, &st))
        return st;
    if (count && !events)
        return handler_fail(h, axl__fail(fn, AXL_ERR_INVALID,
                                         "events is NULL with count %u",
                                         (unsigned)count));
    st = axl__enter(fn);
    if (st != AXL_SUCCESS)
        return handler_fail(h, st);
    for (uint32_t i = 0; i < count && st == AXL_SUCCESS; i++) {
        struct axl__event *e =
            axl__lookup(fn, "a dependency event", AXL__POOL_EVENT,
                        events[i].id, &st);
        if (!e || (atomic_load_explicit(&e->state, memory_order_acquire) ==
                       AXL_EVENT_COMPLETE &&
                   e->status == AXL_SUCCESS))
            continue; /* a done event orders nothing */
        bool dup = false;
        for (uint16_t j = 0; j < h->ndeps; j++)
            dup |= h->deps[j] == events[i].id;
        if (dup)
            continue;
        if (h->ndeps < AXL__HANDLER_DEPS)
            h->deps[h->ndeps++] = events[i].id;
        else
            h->deps_overflow = true;
    }
    axl__leave();
    return st == AXL_SUCCESS ? st : handler_fail(h, st);
}

/* Every action goes through here: exactly one per group. */
static axl_status set_action(axl_handler *h, const char *fn, uint8_t kind)
{
    if (++h->nactions > 1)
        return handler_fail(h, axl__fail(fn, AXL_ERR_INVALID,
                                         "a command group takes exactly one "
                                         "action and this one already has "
                                         "one"));
    h->kind = kind;
    return AXL_SUCCESS;
}

axl_status axl_handler_host_task(axl_handler *h, axl_host_task_fn fn_,
                                 void *user)
{
    static const char fn[] = "axl_handler_host_task";
    axl_status st;
    if (!usable(h, fn, &st))
        return st;
    if (!fn_)
        return handler_fail(h, axl__fail(fn, AXL_ERR_INVALID,
                                         "the host task function is NULL"));
    st = set_action(h, fn, AXL__CMD_HOST_TASK);
    if (st == AXL_SUCCESS) {
        h->u.host.fn = fn_;
        h->u.host.user = user;
    }
    return st;
}
