/*
 * hal.c - what the core offers device ports beyond the ops table: the
 * native objects behind axl objects, and devices taken in from native
 * handles (SYCL 4.5.1 get_native and make_*).
 */
#include <string.h>

#include "rt.h"
#include "cu.h"
#include "device_priv.h"
#include "buffer_priv.h"
#include "sched_priv.h"
#include "kernel.h"
#include "image.h"
#include "devops.h"
#include "swap.h"

static struct axl__device *port_device(const char *fn, axl_device device,
                                       const axl_device_port *port,
                                       axl_status *st)
{
    struct axl__device *d =
        axl__device_get(fn, device, st);
    if (d && d->port != port) {
        *st = axl__fail(fn, AXL_ERR_BACKEND_MISMATCH,
                        "the device belongs to the %s port, not to %s",
                        d->port->name,
                        port ? port->name : "(none)");
        return NULL;
    }
    return d;
}

axl_status axl_hal_buffer_mem(axl_buffer buffer, axl_device device,
                              const axl_device_port *port,
                              const axl_hal_mem **mem, uint64_t *offset)
{
    static const char fn[] = "axl_hal_buffer_mem";
    axl_status st = axl__need_out(fn, AXL__OUT(offset));
    if (st == AXL_SUCCESS)
        st = axl__enter_out(fn, AXL__OUT(mem));
    if (st != AXL_SUCCESS)
        return st;
    struct axl__buffer *view =
        axl__buffer_get(fn, buffer, &st);
    struct axl__device *d = view ? port_device(fn, device, port, &st) : NULL;
    if (d) {
        struct axl__buffer *b = axl__buffer_base(view);
        uint8_t loc = axl__device_loc(b, AXL__SLOT(DEVICE, d));
        if (loc == AXL__NO_LOC) {
            st = axl__fail(fn, AXL_ERR_INVALID,
                           "the buffer has no storage on %s yet (a command "
                           "must use it there, or axl_buffer_place)",
                           d->info.name);
        } else {
            *mem = &b->loc[loc].mem;
            *offset = view->offset;
        }
    }
    axl__leave();
    return st;
}

struct unit_wait {
    struct axl__device *d;
    axl__image_ref loaded;  /* the kernel's image, or none */
    uint16_t kernel_index;
    uint32_t ordinal;
};

/* Nothing else is changing the unit: the device is not being programmed,
 * and no command holds the unit (a command's launch opens its unit with
 * the lock dropped, and records the handle when it has it). */
static bool unit_settled(const void *arg)
{
    const struct unit_wait *w = arg;
    if (w->d->programming)
        return false;
    if (!axl__image_ref_eq(w->d->loaded, w->loaded))
        return true;
    const struct axl__cu *u = axl__cu_find(w->d, w->kernel_index, w->ordinal);
    return !u || u->opened || !AXL__IS_REF(u->cmd);
}

axl_status axl_hal_kernel_cu(axl_kernel kernel, axl_device device,
                             const axl_device_port *port, uint32_t cu,
                             uintptr_t *cu_handle)
{
    static const char fn[] = "axl_hal_kernel_cu";
    axl_status st = axl__enter_out(fn, AXL__OUT(cu_handle));
    if (st != AXL_SUCCESS)
        return st;
    struct axl__kernel *k =
        axl__kernel_get(fn, kernel, &st);
    struct axl__device *d = k ? port_device(fn, device, port, &st) : NULL;
    const struct axl__kernel_id *kid = d ? axl__kernel_id_at(k->kid) : NULL;
    struct unit_wait w = {d, kid ? axl__image_ref_at(kid->image) : AXL__NONE(image),
                          kid ? kid->index : 0, cu};
    uintptr_t mine = 0; /* a handle this call opened and has not recorded */
    bool have = false;
    while (d) {
        if (have) {
            /* Just opened, the lock taken again: record the handle, unless
             * a command took the unit meanwhile (its launch opens the unit
             * too and records its own handle), then give this one back
             * before waiting for anything. */
            struct axl__cu *u = axl__image_ref_eq(d->loaded, w.loaded)
                                    ? axl__cu_find(d, kid->index, cu)
                                    : NULL;
            have = false;
            if (u && !u->opened && !AXL__IS_REF(u->cmd)) {
                u->handle = mine;
                u->opened = true;
                *cu_handle = mine;
                break;
            }
            axl_port_unlock();
            axl__dev_cu_close(d, mine);
            axl_port_lock();
            continue;
        }
        if (!unit_settled(&w)) {
            axl__wait_until_pred(unit_settled, &w);
            continue;
        }
        if (!axl__image_ref_eq(d->loaded, w.loaded)) {
            st = axl__fail(fn, AXL_ERR_KERNEL_NOT_SUPPORTED,
                           "%s does not carry the design of kernel %s",
                           d->info.name, kid->name);
            break;
        }
        struct axl__cu *unit = axl__cu_find(d, kid->index, cu);
        if (!unit) {
            st = axl__fail(fn, AXL_ERR_INVALID,
                           "kernel %s has no compute unit %u on %s",
                           kid->name, (unsigned)cu, d->info.name);
            break;
        }
        if (unit->opened || !axl__dev_has_cu_open(d)) {
            *cu_handle = unit->handle;
            break;
        }
        /* Open it as a first run would, with the lock dropped. Meanwhile
         * the device counts as being programmed, so its design stays (and
         * submissions wait) until the handle is recorded. */
        const struct axl__image *img = axl__image_at(kid->image);
        uint32_t ip = unit->ip;
        d->programming = true;
        axl_port_unlock();
        st = axl__dev_cu_open(d, &img->x, kid->index, ip, &mine);
        axl_port_lock();
        axl__programming_done(d);
        if (st != AXL_SUCCESS)
            break;
        have = true;
    }
    axl__leave();
    return st;
}

/* The live device whose port state is `data` (lock held), or NULL. */
static struct axl__device *device_of_data(const void *data)
{
    const axl__pool *dp = AXL__POOL(DEVICE);
    for (uint16_t s = 0; s < dp->capacity; s++)
        if (axl__pool_is_live(dp, s) && axl__device_at(s)->data == data)
            return axl__device_at(s);
    return NULL;
}

axl_status axl_hal_device_adopt(const axl_device_port *port, void *data,
                                axl_device *device)
{
    static const char fn[] = "axl_hal_device_adopt";
    axl_status st = axl__need_out(fn, AXL__OUT(device));
    if (st != AXL_SUCCESS)
        return st;
    if (!port || !data)
        return axl__fail(fn, AXL_ERR_INVALID, "port and data must not be NULL");
    st = axl__enter(fn);
    if (st != AXL_SUCCESS)
        return st;
    struct axl__platform *p = NULL;
    const axl__pool *pp = AXL__POOL(PLATFORM);
    for (uint16_t s = 0; s < pp->capacity && !p; s++)
        if (axl__pool_is_live(pp, s) && axl__platform_at(s)->port == port)
            p = axl__platform_at(s);
    if (!p) {
        axl__leave();
        return axl__fail(fn, AXL_ERR_INVALID,
                         "the %s port is not one of the runtime's ports",
                         port->name ? port->name : "(unnamed)");
    }
    struct axl__device *d = device_of_data(data);
    if (!d) {
        /* Described before it joins the pool, so nobody sees a device
         * without its info; then looked for again, as another thread may
         * have taken the same data in meanwhile. */
        axl_hal_device_info info;
        axl_port_unlock();
        st = port->describe(data, &info);
        axl_port_lock();
        if (st != AXL_SUCCESS) {
            char why[AXL_MESSAGE_MAX];
            axl_format(why, sizeof why, "%s", axl_last_message());
            axl__leave();
            return axl__fail(fn, st, "describing the device failed: %s", why);
        }
        d = device_of_data(data);
        if (!d) {
            d = axl__pool_alloc(AXL__POOL(DEVICE));
            if (!d) {
                axl__leave();
                return axl__pool_full(fn, AXL__POOL_DEVICE);
            }
            d->platform = AXL__SLOT(PLATFORM, p);
            d->port = port;
            d->data = data;
            d->info = info;
            axl__device_builtin(d);
            p->device_count++;
        }
    }
    device->id = AXL__HANDLE(DEVICE, d);
    axl__leave();
    return AXL_SUCCESS;
}
