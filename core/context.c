/*
 * context.c - contexts (spec 4.6.3).
 */
#include "rt.h"
#include "device_priv.h"
#include "context_priv.h"
#include "queue_priv.h"
#include "sched_priv.h"

bool axl__context_has_device(const struct axl__context *c, uint16_t dev)
{
    for (uint8_t i = 0; i < c->ndev; i++)
        if (c->dev[i] == dev)
            return true;
    return false;
}

/* Builds a context from device handles; lock held. */
axl_status axl__context_make(const char *fn, const axl_device *devices,
                             uint32_t count, const axl_async_handler *handler,
                             struct axl__context **out)
{
    if (count == 0 || !devices)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "a context needs at least one device");
    uint16_t dev[AXL_MAX_CONTEXT_DEVICES];
    uint8_t ndev = 0;
    uint16_t platform = 0;
    for (uint32_t i = 0; i < count; i++) {
        axl_status st;
        struct axl__device *d =
            axl__lookup(fn, "a device of the list", AXL__POOL_DEVICE,
                        devices[i].id, &st);
        if (!d)
            return st;
        uint16_t s = AXL__SLOT(DEVICE, d);
        if (i == 0)
            platform = d->platform;
        else if (d->platform != platform)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "device %u is of another platform than device 0 "
                             "(4.6.3.1: all devices of a context share one)",
                             (unsigned)i);
        bool dup = false;
        for (uint8_t j = 0; j < ndev; j++)
            dup |= dev[j] == s;
        if (dup)
            continue;
        if (ndev == AXL_MAX_CONTEXT_DEVICES)
            return axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                             "more than AXL_MAX_CONTEXT_DEVICES (%u) devices",
                             (unsigned)AXL_MAX_CONTEXT_DEVICES);
        dev[ndev++] = s;
    }
    struct axl__context *c = axl__pool_alloc(AXL__POOL(CONTEXT));
    if (!c)
        return axl__pool_full(fn, AXL__POOL_CONTEXT);
    c->refs = 1;
    c->platform = platform;
    c->ndev = ndev;
    for (uint8_t j = 0; j < ndev; j++)
        c->dev[j] = dev[j];
    if (handler)
        c->handler = *handler;
    *out = c;
    return AXL_SUCCESS;
}

axl_status axl_context_create(const axl_device *devices, uint32_t count,
                              const axl_async_handler *handler,
                              axl_context *context)
{
    static const char fn[] = "axl_context_create";
    axl_status st =
        axl__enter_out_room(fn, AXL__OUT(context), AXL__POOL_CONTEXT);
    if (st != AXL_SUCCESS)
        return st;
    struct axl__context *c = NULL;
    st = axl__context_make(fn, devices, count, handler, &c);
    if (st == AXL_SUCCESS)
        context->id = AXL__HANDLE(CONTEXT, c);
    axl__leave();
    return st;
}

/* Frees the context's own listed errors (late errors of its released
 * queues). */
static void drop_errors(struct axl__context *c)
{
    while (AXL__IS_REF(c->err_head)) {
        struct axl__error *e = axl__error_deref(c->err_head);
        c->err_head = e->next;
        e->listed = false;
        axl__error_unref(e);
    }
    c->err_tail = AXL__NONE(error);
    c->dropped = 0;
}

static void context_destroy(struct axl__context *c)
{
    /* Released queues' late errors nobody can ask for any more. */
    drop_errors(c);
    axl__pool_free(AXL__POOL(CONTEXT), c);
}

void axl__context_unhold(struct axl__context *c)
{
    if (--c->holds == 0 && c->refs == 0)
        context_destroy(c);
}

axl_status axl_context_retain(axl_context context)
{
    static const char fn[] = "axl_context_retain";
    AXL__ENTER(context, c, context);
    c->refs++;
    axl__leave();
    return st;
}

axl_status axl__context_drop(struct axl__context *c)
{
    if (--c->refs)
        return AXL_SUCCESS;
    if (c->holds)
        axl__pool_retire(AXL__POOL(CONTEXT), c);
    else
        context_destroy(c);
    return AXL_SUCCESS;
}

axl_status axl_context_release(axl_context context)
{
    static const char fn[] = "axl_context_release";
    AXL__ENTER(context, c, context);
    if (c->refs > 1) {
        c->refs--;
        axl__leave();
        return st;
    }
    /* The last reference. The handle goes stale first, and the context is
     * held while its handler runs (a release from the handler is a second
     * release). 4.13.1.1: a context destroyed with unconsumed
     * asynchronous errors passes them to its handler: every error that
     * would reach it (axl__give_context_errors). */
    c->holds++;
    axl__context_drop(c);
    if (c->handler.fn) {
        axl__give_context_errors(c);
        axl__context_unhold(c);
        axl__leave();
        return st;
    }
    /* Without a handler, the release says so: its own errors (late errors
     * of its released queues) are reported here and go with it; its
     * queues' stay with them (a throw or the queue's release reports
     * them), and the message counts them too. */
    const uint16_t slot = AXL__SLOT(CONTEXT, c);
    unsigned n = 0;
    axl_status first = AXL_SUCCESS;
    const axl__pool *qp = AXL__POOL(QUEUE);
    for (uint16_t i = 0; i < qp->capacity; i++) {
        if (!axl__pool_is_live(qp, i))
            continue;
        const struct axl__queue *q = axl__pool_at(qp, i);
        if (q->context != slot)
            continue;
        for (axl__error_ref r = q->err_head; AXL__IS_REF(r);
             r = axl__error_deref(r)->next, n++)
            if (first == AXL_SUCCESS)
                first = axl__error_deref(r)->status;
    }
    /* Late errors of its released queues: the context's own. */
    unsigned late = 0;
    axl_status late_first = AXL_SUCCESS;
    for (axl__error_ref r = c->err_head; AXL__IS_REF(r);
         r = axl__error_deref(r)->next, late++)
        if (late_first == AXL_SUCCESS)
            late_first = axl__error_deref(r)->status;
    if (first == AXL_SUCCESS)
        first = late_first;
    n += late;
    if (n)
        st = axl__fail(fn, first,
                       "released while it and its queues hold %u "
                       "unconsumed asynchronous error%s (and no handler: "
                       "its own go with it; a queue's throw or release "
                       "reports the queue's)",
                       n, n == 1 ? "" : "s");
    else if (c->dropped)
        st = axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                       "released holding %u unconsumed asynchronous errors "
                       "the full error pool dropped (and no handler)",
                       (unsigned)c->dropped);
    drop_errors(c); /* reported: not again through a queue's throw */
    axl__context_unhold(c);
    axl__leave();
    return st;
}

static axl_status context_devices(const char *fn, const struct axl__context *c,
                                  axl_device *out, uint32_t cap,
                                  uint32_t *count)
{
    axl_status st = axl__list_check(fn, c->ndev, out, cap, count);
    if (st == AXL_SUCCESS && out)
        for (uint8_t i = 0; i < c->ndev; i++)
            out[i].id = axl__pool_handle(AXL__POOL(DEVICE),
                                         axl__device_at(c->dev[i]));
    return st;
}

axl_status axl_context_get_info(axl_context context, axl_context_info param,
                                void *value, size_t value_size,
                                size_t *size_ret)
{
    static const char fn[] = "axl_context_get_info";
    AXL__ENTER(context, c, context);
    if (param == AXL_CONTEXT_INFO_PLATFORM) {
        axl_platform p = {axl__pool_handle(AXL__POOL(PLATFORM),
                                           axl__platform_at(c->platform))};
        st = axl__info_out(fn, &p, sizeof p, value, value_size, size_ret);
    } else if (param == AXL_CONTEXT_INFO_DEVICES) {
        axl_device d[AXL_MAX_CONTEXT_DEVICES];
        uint32_t n;
        context_devices(fn, c, d, AXL_MAX_CONTEXT_DEVICES, &n);
        st = axl__info_out(fn, d, n * sizeof d[0], value, value_size,
                           size_ret);
    } else {
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "%d is not a context info descriptor", (int)param);
    }
    axl__leave();
    return st;
}

axl_status axl_context_get_platform(axl_context context,
                                    axl_platform *platform)
{
    axl_status st =
        axl__need_out("axl_context_get_platform", AXL__OUT(platform));
    if (st != AXL_SUCCESS)
        return st;
    return axl_context_get_info(context, AXL_CONTEXT_INFO_PLATFORM, platform,
                                sizeof *platform, NULL);
}

axl_status axl_context_get_devices(axl_context context, axl_device *out,
                                   uint32_t cap, uint32_t *count)
{
    static const char fn[] = "axl_context_get_devices";
    AXL__ENTER_OUT(context, c, context, count);
    st = context_devices(fn, c, out, cap, count);
    axl__leave();
    return st;
}
