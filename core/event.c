/*
 * event.c - events (spec 4.6.6).
 */
#include "rt.h"
#include "cu.h"
#include "context_priv.h"
#include "queue_priv.h"
#include "event_priv.h"
#include "sched_priv.h"

static struct axl__event *get_event(const char *fn, axl_event h,
                                    axl_status *st)
{
    /* Inline: waits and releases are on the launch path. */
    return axl__lookup_fast(fn, "event", AXL__POOL_EVENT, h.id, st);
}

/* e, in slot s, goes. */
static void event_destroy(struct axl__event *e, uint16_t s)
{
    if (AXL__IS_REF(e->error))
        axl__error_unref(axl__error_deref(e->error));
    axl__pool_free_slot(AXL__POOL(EVENT), s);
}

void axl__event_unhold(struct axl__event *e)
{
    if (--e->holds == 0 && e->refs == 0)
        event_destroy(e, AXL__SLOT(EVENT, e));
}

axl_status axl_event_create_complete(axl_event *event)
{
    static const char fn[] = "axl_event_create_complete";
    axl_status st = axl__enter_out_room(fn, AXL__OUT(event), AXL__POOL_EVENT);
    if (st != AXL_SUCCESS)
        return st;
    struct axl__event *e = axl__pool_alloc(AXL__POOL(EVENT));
    if (!e) {
        st = axl__pool_full(fn, AXL__POOL_EVENT);
    } else {
        e->refs = 1;
        atomic_store_explicit(&e->state, (uint8_t)AXL_EVENT_COMPLETE,
                              memory_order_relaxed);
        event->id = AXL__HANDLE(EVENT, e);
    }
    axl__leave();
    return st;
}

axl_status axl_event_retain(axl_event event)
{
    static const char fn[] = "axl_event_retain";
    AXL__ENTER(event, e, event);
    e->refs++;
    axl__leave();
    return st;
}

axl_status axl_event_release(axl_event event)
{
    static const char fn[] = "axl_event_release";
    axl_status st = axl__enter(fn);
    if (st != AXL_SUCCESS)
        return st;
    struct axl__event *e = get_event(fn, event, &st);
    if (e && --e->refs == 0) {
        if (e->holds)
            axl__pool_retire(AXL__POOL(EVENT), e);
        else
            event_destroy(e, AXL__HANDLE_SLOT(event.id));
    }
    axl__leave();
    return st;
}

/* Resolves a list of events and holds them for the wait; lock held. */
static axl_status hold_list(const char *fn, const axl_event *events,
                            uint32_t count, struct axl__event **out)
{
    axl_status st = AXL_SUCCESS;
    for (uint32_t i = 0; i < count; i++) {
        out[i] = get_event(fn, events[i], &st);
        if (!out[i]) {
            while (i--)
                axl__event_unhold(out[i]);
            return st;
        }
        out[i]->holds++;
    }
    return st;
}

/* Whether q's errors reach a handler (its own or its context's). */
static bool handled(const struct axl__queue *q)
{
    return q->handler.fn || axl__context_at(q->context)->handler.fn;
}

/* wait_and_throw's delivery (Table 34: "any unconsumed asynchronous
 * errors from any context that the event was waiting on executions
 * from"): the errors of the event's queue, then of every other queue of
 * a context the event waited on (its own context included: its command
 * is one of those executions), then the late errors of such a context
 * none of whose queues is left. A delivery without a handler gives one
 * error as the call's status: once one has, errors that would only be
 * a status stay queued for the next call (none is lost). A queue gone
 * already reported its errors when it was released. */
static axl_status deliver_waited(const char *fn, const struct axl__event *e)
{
    axl_status first = AXL_SUCCESS;
    struct axl__queue *own = axl__pool_lookup_any(AXL__POOL(QUEUE), e->queue);
    if (own) {
        own->holds++;
        first = axl__deliver_errors(fn, own);
        axl__queue_unhold(own);
    }
    const axl__pool *qp = AXL__POOL(QUEUE);
    for (uint16_t i = 0; i < qp->capacity; i++) {
        if (!axl__pool_is_live(qp, i))
            continue;
        struct axl__queue *q = axl__pool_at(qp, i);
        if (q == own || !(e->waited_ctx & AXL__CTX_BIT(q->context)) ||
            !(AXL__IS_REF(q->err_head) || q->dropped) ||
            (first != AXL_SUCCESS && !handled(q)))
            continue;
        q->holds++;
        axl_status st = axl__deliver_errors(fn, q);
        axl__queue_unhold(q);
        if (first == AXL_SUCCESS)
            first = st;
    }
    const axl__pool *cp = AXL__POOL(CONTEXT);
    for (uint16_t i = 0; i < cp->capacity; i++) {
        if (!axl__pool_is_live(cp, i))
            continue;
        struct axl__context *c = axl__pool_at(cp, i);
        if (!(e->waited_ctx & AXL__CTX_BIT(i)) ||
            !(AXL__IS_REF(c->err_head) || c->dropped) ||
            (first != AXL_SUCCESS && !c->handler.fn))
            continue;
        c->holds++;
        axl_status st = axl__deliver_context_errors(fn, c);
        axl__context_unhold(c);
        if (first == AXL_SUCCESS)
            first = st;
    }
    return first;
}

/* Waits for events in chunks, so a list of any length needs only a small
 * array on the stack. */
#define WAIT_CHUNK 16

static axl_status wait_list(const char *fn, const axl_event *events,
                            uint32_t count, bool deliver, uint64_t timeout_ns)
{
    if (count && !events)
        return axl__fail(fn, AXL_ERR_INVALID, "events is NULL with count %u",
                         (unsigned)count);
    axl_status st = axl__enter(fn);
    if (st != AXL_SUCCESS)
        return st;
    axl_status first = AXL_SUCCESS;
    char first_msg[AXL_MESSAGE_MAX] = "";
    uint64_t until = UINT64_MAX;
    if (timeout_ns != UINT64_MAX) {
        uint64_t now = axl__now();
        until = timeout_ns < UINT64_MAX - now ? now + timeout_ns
                                              : UINT64_MAX - 1;
    }
    for (uint32_t base = 0; base < count; base += WAIT_CHUNK) {
        uint32_t n = count - base < WAIT_CHUNK ? count - base : WAIT_CHUNK;
        struct axl__event *evs[WAIT_CHUNK];
        st = hold_list(fn, events + base, n, evs);
        if (st != AXL_SUCCESS)
            break;
        /* wait: the result is the commands' status. wait_and_throw: the
         * errors go to the handlers, and the result is what delivery gives
         * (the first error only when there is no handler), as for queues. */
        st = axl__wait_events_until(fn, evs, n, until);
        bool all_done = true; /* else the wait gave up (time, deadlock) */
        for (uint32_t i = 0; i < n; i++)
            all_done &= atomic_load_explicit(&evs[i]->state,
                                             memory_order_acquire) ==
                        AXL_EVENT_COMPLETE;
        if (!all_done) {
            for (uint32_t i = 0; i < n; i++)
                axl__event_unhold(evs[i]);
            break; /* the wait's own failure, not a command's */
        }
        for (uint32_t i = 0; i < n; i++) {
            if (deliver)
                st = deliver_waited(fn, evs[i]);
            if (st != AXL_SUCCESS && first == AXL_SUCCESS) {
                first = st;
                axl_format(first_msg, sizeof first_msg, "%s",
                           axl_last_message());
            }
            axl__event_unhold(evs[i]);
        }
        st = AXL_SUCCESS;
    }
    axl__leave();
    if (st != AXL_SUCCESS)
        return st;
    if (first != AXL_SUCCESS)
        axl_format(axl_port_message_buffer(), AXL_MESSAGE_MAX, "%s",
                   first_msg);
    return first;
}

axl_status axl_event_wait(axl_event event)
{
    static const char fn[] = "axl_event_wait";
    /* Fast path: already complete, as after most emulated launches. */
    axl_status st = axl__enter(fn);
    if (st != AXL_SUCCESS)
        return st;
    struct axl__event *e = get_event(fn, event, &st);
    bool done = e && atomic_load_explicit(&e->state, memory_order_acquire) ==
                         AXL_EVENT_COMPLETE;
    if (done && e->status == AXL_SUCCESS) {
        axl__leave();
        return AXL_SUCCESS;
    }
    axl__leave();
    return e ? wait_list(fn, &event, 1, false, UINT64_MAX) : st;
}

axl_status axl_event_wait_for(axl_event event, uint64_t timeout_ns)
{
    /* UINT64_MAX - 1 at most: a limit, however far, is never "forever". */
    return wait_list("axl_event_wait_for", &event, 1, false,
                     timeout_ns == UINT64_MAX ? UINT64_MAX - 1 : timeout_ns);
}

axl_status axl_event_wait_list(const axl_event *events, uint32_t count)
{
    return wait_list("axl_event_wait_list", events, count, false, UINT64_MAX);
}

axl_status axl_event_wait_and_throw(axl_event event)
{
    return wait_list("axl_event_wait_and_throw", &event, 1, true, UINT64_MAX);
}

axl_status axl_event_wait_and_throw_list(const axl_event *events,
                                         uint32_t count)
{
    return wait_list("axl_event_wait_and_throw_list", events, count, true,
                     UINT64_MAX);
}

axl_status axl_event_get_status(axl_event event, axl_event_status *status,
                                axl_status *error)
{
    static const char fn[] = "axl_event_get_status";
    AXL__ENTER_OUT(event, e, event, status);
    *status = (axl_event_status)atomic_load_explicit(&e->state,
                                                     memory_order_acquire);
    /* A poll enforces its kernel's timeout as a wait would (without
     * blocking: safe from an interrupt handler). */
    if (*status == AXL_EVENT_RUNNING && axl__event_timed_out(e))
        *status = AXL_EVENT_COMPLETE;
    if (error)
        *error = *status == AXL_EVENT_COMPLETE ? e->status : AXL_SUCCESS;
    axl__leave();
    return st;
}

axl_status axl_event_get_compute_unit(axl_event event, uint32_t *cu)
{
    static const char fn[] = "axl_event_get_compute_unit";
    AXL__ENTER_OUT(event, e, event, cu);
    /* Set under the lock when the command is dispatched to a unit. */
    if (e->role >= AXL__EV_CU)
        *cu = e->role - AXL__EV_CU;
    else
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "the event's command ran on no compute unit (not a "
                       "kernel's, not dispatched yet, or failed before)");
    axl__leave();
    return st;
}

axl_status axl_event_get_slot(axl_event event, int32_t *slot)
{
    static const char fn[] = "axl_event_get_slot";
    AXL__ENTER_OUT(event, e, event, slot);
    /* Set under the lock when the command is dispatched to a unit;
     * without slots (AXL_FEATURE_DESIGN_SWAP 0) a kernel's command ran on
     * the whole fabric. */
    uint8_t ran_in = e->role >= AXL__EV_CU; /* the whole fabric */
#if AXL_FEATURE_DESIGN_SWAP
    if (e->ran_in)
        ran_in = e->ran_in; /* a device with slots: set at dispatch */
#endif
    if (ran_in)
        *slot = (int32_t)ran_in - 2;
    else
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "the event's command ran in no region of a device "
                       "(not a kernel's, not dispatched yet, or failed "
                       "before)");
    axl__leave();
    return st;
}

axl_status axl_event_get_profiling(axl_event event, axl_profiling_info param,
                                   uint64_t *ns)
{
    static const char fn[] = "axl_event_get_profiling";
    AXL__SWITCH(AXL_FEATURE_PROFILING, fn);
    AXL__ENTER_OUT(event, e, event, ns);
    if (!e->profiling) {
        st = e->queue
                 ? axl__fail(fn, AXL_ERR_INVALID,
                             "its queue was made without "
                             "AXL_QUEUE_ENABLE_PROFILING "
                             "(property::queue::enable_profiling; 4.6.6 "
                             "makes this errc::invalid)")
                 : axl__fail(fn, AXL_ERR_INVALID,
                             "the event has no queue (made by "
                             "axl_event_create_complete), so no profiling "
                             "information (4.6.6: errc::invalid)");
    } else {
        e->holds++;
        switch (param) {
        case AXL_PROFILING_COMMAND_SUBMIT:
            *ns = e->t_submit;
            break;
        case AXL_PROFILING_COMMAND_START:
            /* Not when the command waits for what this thread blocks. */
            st = axl__wait_started(fn, e);
            if (st != AXL_SUCCESS)
                break;
            /* A command that fails before running gets its start once it
             * completes; wait for that if it has none yet. */
            if (!e->t_start) {
                struct axl__event *one = e;
                axl__wait_events(fn, &one, 1);
            }
            *ns = e->t_start;
            break;
        case AXL_PROFILING_COMMAND_END: {
            st = axl__wait_check(fn, AXL__WAITED_EVENT, e, AXL_ERR_BAD_STATE,
                                 "the wait");
            if (st != AXL_SUCCESS)
                break;
            struct axl__event *one = e;
            axl__wait_events(fn, &one, 1);
            *ns = e->t_end;
            break;
        }
        default:
            st = axl__fail(fn, AXL_ERR_INVALID,
                           "%d is not a profiling descriptor", (int)param);
            break;
        }
        axl__event_unhold(e);
    }
    axl__leave();
    return st;
}

axl_status axl_event_get_wait_list(axl_event event, axl_event *out,
                                   uint32_t cap, uint32_t *count)
{
    static const char fn[] = "axl_event_get_wait_list";
    AXL__ENTER_OUT(event, e, event, count);
    const struct axl__command *c =
        AXL__IS_REF(e->command) ? axl__command_deref(e->command) : NULL;
    uint32_t n = 0;
    for (uint8_t j = 0; c && j < c->ndeps; j++)
        n += AXL__IS_REF(c->deps[j].pred);
    st = axl__list_check(fn, n, out, cap, count);
    if (st == AXL_SUCCESS && out) {
        uint32_t i = 0;
        for (uint8_t j = 0; c && j < c->ndeps; j++) {
            if (!AXL__IS_REF(c->deps[j].pred))
                continue;
            struct axl__event *p = axl__event_deref(c->deps[j].pred);
            if (p->refs++ == 0)
                axl__pool_revive(AXL__POOL(EVENT), p);
            out[i++].id = AXL__HANDLE(EVENT, p);
        }
    }
    axl__leave();
    return st;
}
