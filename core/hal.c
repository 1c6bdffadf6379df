/*
 * hal.c - what the core offers device ports beyond the ops table: the
 * native objects behind axl objects, and devices taken in from native
 * handles (SYCL 4.5.1 get_native and make_*).
 */
#include <string.h>

#include "rt.h"

static struct axl__device *port_device(const char *fn, axl_device device,
                                       const axl_device_port *port,
                                       axl_status *st)
{
    struct axl__device *d =
        axl__lookup(fn, "device", AXL__POOL_DEVICE, device.id, st);
    if (d && axl__platform_at(d->platform)->port != port) {
        *st = axl__fail(fn, AXL_ERR_BACKEND_MISMATCH,
                        "the device belongs to the %s port, not to %s",
                        axl__platform_at(d->platform)->port->name,
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
    if (!mem || !offset)
        return axl__fail(fn, AXL_ERR_INVALID, "mem and offset must not be NULL");
    axl_status st = axl__enter(fn);
    if (st != AXL_SUCCESS)
        return st;
    struct axl__buffer *view =
        axl__lookup(fn, "buffer", AXL__POOL_BUFFER, buffer.id, &st);
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

axl_status axl_hal_kernel_cu(axl_kernel kernel, axl_device device,
                             const axl_device_port *port, uint32_t cu,
                             uintptr_t *cu_handle)
{
    static const char fn[] = "axl_hal_kernel_cu";
    if (!cu_handle)
        return axl__fail(fn, AXL_ERR_INVALID, "cu_handle must not be NULL");
    axl_status st = axl__enter(fn);
    if (st != AXL_SUCCESS)
        return st;
    struct axl__kernel *k =
        axl__lookup(fn, "kernel", AXL__POOL_KERNEL, kernel.id, &st);
    struct axl__device *d = k ? port_device(fn, device, port, &st) : NULL;
    struct axl__cu *unit = NULL;
    const struct axl__kernel_id *kid = k ? axl__kernel_id_at(k->kid) : NULL;
    if (d && d->loaded != kid->image + 1u) {
        st = axl__fail(fn, AXL_ERR_KERNEL_NOT_SUPPORTED,
                       "%s does not carry the design of kernel %s",
                       d->info.name, kid->name);
    } else if (d) {
        for (uint8_t i = 0; i < d->ncus && !unit; i++)
            if (d->cus[i].kernel_index == kid->index &&
                d->cus[i].ordinal == cu)
                unit = &d->cus[i];
        if (!unit)
            st = axl__fail(fn, AXL_ERR_INVALID,
                           "kernel %s has no compute unit %u on %s",
                           kid->name, (unsigned)cu, d->info.name);
    }
    if (unit && !unit->opened && port->cu_open) {
        /* Open it as a first run would; another thread may do the same,
         * and then one of the two handles is closed. */
        const struct axl__image *img = axl__image_at(kid->image);
        uintptr_t h = 0;
        uint32_t ip = unit->ip;
        axl_port_unlock();
        st = port->cu_open(d->data, &img->x, kid->index, ip, &h);
        axl_port_lock();
        if (st == AXL_SUCCESS && !unit->opened) {
            unit->handle = h;
            unit->opened = true;
        } else if (st == AXL_SUCCESS) {
            uintptr_t theirs = unit->handle;
            axl_port_unlock();
            if (port->cu_close)
                port->cu_close(d->data, h);
            axl_port_lock();
            (void)theirs;
        }
    }
    if (unit && st == AXL_SUCCESS)
        *cu_handle = unit->handle;
    axl__leave();
    return st;
}

axl_status axl_hal_device_adopt(const axl_device_port *port, void *data,
                                axl_device *device)
{
    static const char fn[] = "axl_hal_device_adopt";
    if (!port || !data || !device)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "port, data and device must not be NULL");
    axl_status st = axl__enter(fn);
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
    const axl__pool *dp = AXL__POOL(DEVICE);
    for (uint16_t s = 0; s < dp->capacity; s++) {
        if (axl__pool_is_live(dp, s) && axl__device_at(s)->data == data) {
            device->id = axl__pool_handle(dp, axl__device_at(s));
            axl__leave();
            return AXL_SUCCESS;
        }
    }
    struct axl__device *d = axl__pool_alloc(AXL__POOL(DEVICE));
    if (!d) {
        axl__leave();
        return axl__pool_full(fn, AXL__POOL_DEVICE);
    }
    d->platform = AXL__SLOT(PLATFORM, p);
    d->port_index = p->device_count;
    d->data = data;
    axl_hal_device_info info;
    axl_port_unlock();
    st = port->describe(data, &info);
    axl_port_lock();
    if (st != AXL_SUCCESS) {
        axl__pool_free(AXL__POOL(DEVICE), d);
        axl__leave();
        return axl__fail(fn, st, "describing the device failed: %s",
                         axl_last_message());
    }
    d->info = info;
    axl__device_builtin(d);
    p->device_count++;
    device->id = AXL__HANDLE(DEVICE, d);
    axl__leave();
    return AXL_SUCCESS;
}
