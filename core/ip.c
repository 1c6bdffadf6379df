/*
 * ip.c - registers of any IP of a design (axl/ip.h): a handle per open IP,
 * which holds its kernel bundle so the design stays on the device, and the
 * checks every access passes before the port (hal.h, ip_*) is called.
 *
 * The port is called without the runtime lock (hal.h): a call takes a hold
 * on the handle (holds) for the time it is inside the port, so a release
 * meanwhile retires the handle (stale at once) and the last call out
 * closes it.
 */
#include <string.h>

#include "rt.h"
#include "device_priv.h"
#include "bundle.h"
#include "devops.h"
#include "image.h"

#if AXL_FEATURE_IP_ACCESS

bool axl__ip_holds(uint16_t b, const struct axl__device *d, const char **name,
                   uint32_t *handle)
{
    const axl__pool *p = AXL__POOL(IP);
    const uint16_t ds = AXL__SLOT(DEVICE, d);
    for (uint16_t s = 0; p->ready && s < p->capacity; s++) {
        if (p->link[s] != AXL__SLOT_LIVE && p->link[s] != AXL__SLOT_RETIRED)
            continue;
        const struct axl__ip *ip = axl__ip_at(s);
        if (ip->bundle == b && ip->device == ds) {
            *name = ip->name;
            *handle = axl__pool_slot_handle(p, s);
            return true;
        }
    }
    return false;
}

/* Whether IP entry x answers to name: its whole IP_LAYOUT name, or a
 * compute unit's instance ("vadd_1" for "vadd:vadd_1"). */
static bool named(const axl_xclbin_ip *x, const char *name)
{
    return axl_str_eq(x->name, name) ||
           (x->instance.len && axl_str_eq(x->instance, name));
}

/* AXL_ERR_INVALID naming what the design has instead (as many names as
 * the message holds). */
static axl_status no_such_ip(const char *fn, const struct axl__device *d,
                             const axl_xclbin *x, const char *name)
{
#if AXL_MESSAGES
    char list[AXL_MESSAGE_MAX];
    size_t len = 0;
    list[0] = '\0';
    for (uint32_t i = 0; i < x->ip_count; i++) {
        axl_xclbin_ip ip;
        if (axl_xclbin_get_ip(x, i, &ip) != AXL_SUCCESS)
            continue;
        len += axl_format(list + (len < sizeof list ? len : sizeof list),
                          len < sizeof list ? sizeof list - len : 0, "%s%.*s",
                          len ? ", " : "", (int)ip.name.len, ip.name.ptr);
    }
    return axl__fail(fn, AXL_ERR_INVALID,
                     "no IP \"%s\" in the design on %s; its IPs: %s", name,
                     d->info.name, x->ip_count ? list : "none");
#else
    (void)d, (void)x, (void)name;
    return axl__fail(fn, AXL_ERR_INVALID, "no IP \"%s\"", name);
#endif
}

/* A port's failure, as "fn: <device>: <the port's message>". */
static axl_status port_failed(const char *fn, const struct axl__ip *ip,
                              axl_status st)
{
    char why[AXL_MESSAGE_MAX];
    axl_format(why, sizeof why, "%s", axl_last_message());
    return axl__fail(fn, st, "IP %s: %s", ip->name, why);
}

/* Closes an IP: the port first (without the lock; the slot, live or
 * retired, keeps the design held meanwhile), then the slot and the hold
 * on the bundle. Lock held on entry and on return. */
static void close_ip(struct axl__ip *ip)
{
    const struct axl__device *d = axl__device_at(ip->device);
    const uintptr_t h = ip->handle;
    axl__leave();
    axl__dev_ip_close(d, h);
    axl_port_lock();
    struct axl__bundle *b = axl__bundle_at(ip->bundle);
    axl__pool_free(AXL__POOL(IP), ip);
    axl__bundle_unhold(b);
}

#if AXL_FEATURE_DESIGN_SWAP
/* The slot region of d one of b's designs is in, 0: none (lock held). */
static uint8_t in_a_slot(const struct axl__bundle *b,
                         const struct axl__device *d)
{
    for (uint8_t i = 0; d->nslots && i < b->nimg; i++) {
        const uint8_t r = axl__slot_carrying(d, b->img[i]);
        if (r)
            return r;
    }
    return 0;
}
#endif

axl_status axl_ip_open(axl_kernel_bundle kb, axl_device dev, const char *name,
                       axl_ip *out)
{
    static const char fn[] = "axl_ip_open";
    if (!name)
        return axl__null(fn, "name");
    AXL__ENTER_OUT(kernel_bundle, b, kb, out);
    struct axl__device *d = axl__device_get(fn, dev, &st);
    bool for_d = false;
    for (uint8_t i = 0; d && i < b->ndev; i++)
        for_d |= b->dev[i] == AXL__SLOT(DEVICE, d);
    if (!d) {
        /* st says which */
    } else if (b->state != AXL_BUNDLE_EXECUTABLE) {
        st = axl__wrong_state(fn, "axl_ip_open needs an executable bundle",
                              b->state);
    } else if (!for_d) {
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "the bundle is not for device %s", d->info.name);
#if AXL_FEATURE_DESIGN_SWAP
    } else if (in_a_slot(b, d)) {
        st = axl__fail(fn, AXL_ERR_FEATURE_NOT_SUPPORTED,
                       "the bundle's design is in slot %u (%s) of %s: IPs "
                       "of a design in a DFX slot cannot be opened yet "
                       "(run its kernels as commands)",
                       (unsigned)(in_a_slot(b, d) - 1),
                       d->region[in_a_slot(b, d)].desc.name, d->info.name);
#endif
    } else if (!AXL__IS_REF(d->loaded) ||
               !axl__bundle_has_image(b, axl__image_ref_slot(d->loaded))) {
        st = axl__fail(fn, AXL_ERR_BAD_STATE,
                       "%s does not carry the bundle's design (another "
                       "bundle's design is on it)",
                       d->info.name);
    } else if (!axl__dev_has_ip_access(d)) {
        st = axl__fail(fn, AXL_ERR_FEATURE_NOT_SUPPORTED,
                       "%s has no IP registers to reach (the %s port gives "
                       "no register access)",
                       d->info.name, d->port->name);
    }
    if (st != AXL_SUCCESS) {
        axl__leave();
        return st;
    }
    const uint16_t img = axl__image_ref_slot(d->loaded);
    const axl_xclbin *x = &axl__image_at(img)->x;
    axl_xclbin_ip entry;
    uint32_t index = x->ip_count;
    for (uint32_t i = 0; i < x->ip_count && index == x->ip_count; i++)
        if (axl_xclbin_get_ip(x, i, &entry) == AXL_SUCCESS &&
            named(&entry, name))
            index = i;
    if (index == x->ip_count) {
        st = no_such_ip(fn, d, x, name);
        axl__leave();
        return st;
    }
    struct axl__ip *ip = axl__pool_alloc(AXL__POOL(IP));
    if (!ip) {
        st = axl__pool_full(fn, AXL__POOL_IP);
        axl__leave();
        return st;
    }
    ip->holds = 1;
    ip->bundle = AXL__SLOT(KERNEL_BUNDLE, b);
    ip->device = AXL__SLOT(DEVICE, d);
    ip->image = img;
    ip->ip_index = index;
    axl_format(ip->name, sizeof ip->name, "%.*s", (int)entry.name.len,
               entry.name.ptr);
    b->holds++; /* the design stays while the IP is open (design_held) */
    axl__leave();
    /* The image's bytes stay: the bundle holds it, and the design cannot
     * be displaced while this slot holds the bundle. */
    uintptr_t handle = 0;
    st = axl__dev_ip_open(d, x, index, &entry, &handle);
    axl_port_lock();
    if (st != AXL_SUCCESS) {
        st = port_failed(fn, ip, st);
        axl__pool_free(AXL__POOL(IP), ip);
        axl__bundle_unhold(b);
    } else {
        ip->handle = handle;
        ip->holds = 0;
        out->id = AXL__HANDLE(IP, ip);
    }
    axl__leave();
    return st;
}

/* The IP behind a handle with a hold taken for a call into the port, the
 * lock let go; NULL with *st on failure. */
static struct axl__ip *ip_begin(const char *fn, axl_ip h, axl_status *st)
{
    struct axl__ip *ip = axl__ip_enter(fn, h, st);
    if (!ip)
        return NULL;
    ip->holds++;
    axl__leave();
    return ip;
}

/* The call is out of the port: the last one closes an IP released
 * meanwhile. */
static void ip_end(struct axl__ip *ip)
{
    axl_port_lock();
    const axl__pool *p = AXL__POOL(IP);
    if (--ip->holds == 0 &&
        p->link[axl__pool_slot(p, ip)] == AXL__SLOT_RETIRED)
        close_ip(ip);
    axl__leave();
}

/* An offset the IP's range has room for, 4-aligned. */
static axl_status check_offset(const char *fn, const struct axl__ip *ip,
                               uint32_t offset)
{
    if (offset % 4u || offset > AXL_IP_RANGE - 4u)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "offset 0x%x is %s IP %s's registers: a 32-bit "
                         "register at a multiple of 4 in 0x0..0x%x (its "
                         "range: %u KiB from its base)",
                         (unsigned)offset,
                         offset % 4u ? "not aligned to" : "outside",
                         ip->name, (unsigned)(AXL_IP_RANGE - 4u),
                         (unsigned)(AXL_IP_RANGE / 1024u));
    return AXL_SUCCESS;
}

axl_status axl_ip_read32(axl_ip h, uint32_t offset, uint32_t *value)
{
    static const char fn[] = "axl_ip_read32";
    if (!value)
        return axl__null(fn, "value");
    axl_status st;
    struct axl__ip *ip = axl__ip_enter(fn, h, &st);
    if (!ip)
        return st;
    st = check_offset(fn, ip, offset);
    axl__leave();
    if (st != AXL_SUCCESS || !(ip = ip_begin(fn, h, &st)))
        return st;
    st = axl__dev_ip_read32(axl__device_at(ip->device), ip->handle, offset,
                            value);
    if (st != AXL_SUCCESS)
        st = port_failed(fn, ip, st);
    ip_end(ip);
    return st;
}

axl_status axl_ip_write32(axl_ip h, uint32_t offset, uint32_t value)
{
    static const char fn[] = "axl_ip_write32";
    axl_status st;
    struct axl__ip *ip = axl__ip_enter(fn, h, &st);
    if (!ip)
        return st;
    st = check_offset(fn, ip, offset);
    axl__leave();
    if (st != AXL_SUCCESS || !(ip = ip_begin(fn, h, &st)))
        return st;
    st = axl__dev_ip_write32(axl__device_at(ip->device), ip->handle, offset,
                             value);
    if (st != AXL_SUCCESS)
        st = port_failed(fn, ip, st);
    ip_end(ip);
    return st;
}

axl_status axl_ip_wait_interrupt(axl_ip h, uint64_t timeout_ns)
{
    static const char fn[] = "axl_ip_wait_interrupt";
    axl_status st;
    struct axl__ip *ip = axl__ip_enter(fn, h, &st);
    if (!ip)
        return st;
    const struct axl__device *d = axl__device_at(ip->device);
    if (!axl__dev_can_ip_wait(d))
        st = axl__fail(fn, AXL_ERR_FEATURE_NOT_SUPPORTED,
                       "the %s port cannot wait for an IP's interrupt "
                       "(IP %s on %s); poll its status register instead",
                       d->port->name, ip->name, d->info.name);
    axl__leave();
    if (st != AXL_SUCCESS || !(ip = ip_begin(fn, h, &st)))
        return st;
    st = axl__dev_ip_wait(d, ip->handle, timeout_ns);
    if (st == AXL_ERR_TIMEOUT)
        st = axl__fail(fn, st,
                       "IP %s raised no interrupt within %llu ns (are its "
                       "interrupt enables set? an HLS unit: GIE 0x04, IER "
                       "0x08)",
                       ip->name, (unsigned long long)timeout_ns);
    else if (st != AXL_SUCCESS)
        st = port_failed(fn, ip, st);
    ip_end(ip);
    return st;
}

axl_status axl_ip_release(axl_ip h)
{
    static const char fn[] = "axl_ip_release";
    AXL__ENTER(ip, ip, h);
    axl__pool_retire(AXL__POOL(IP), ip); /* its handle is stale at once */
    if (ip->holds == 0)
        close_ip(ip); /* else the last call out of the port does */
    axl__leave();
    return st;
}

axl_status axl_ip_get_info(axl_ip h, char *name, size_t cap, uint32_t *range)
{
    static const char fn[] = "axl_ip_get_info";
    AXL__ENTER(ip, ip, h);
    const size_t need = strlen(ip->name) + 1;
    if (name && need > cap)
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "the name takes %u bytes; cap is %u", (unsigned)need,
                       (unsigned)cap);
    else if (name)
        memcpy(name, ip->name, need);
    if (st == AXL_SUCCESS && range)
        *range = AXL_IP_RANGE;
    axl__leave();
    return st;
}

#else /* !AXL_FEATURE_IP_ACCESS: every call answers that it is switched off */

#define OFF(name) return axl__switched_off(#name, "AXL_FEATURE_IP_ACCESS")

axl_status axl_ip_open(axl_kernel_bundle kb, axl_device dev, const char *name,
                       axl_ip *out)
{
    (void)kb, (void)dev, (void)name, (void)out;
    OFF(axl_ip_open);
}
axl_status axl_ip_read32(axl_ip ip, uint32_t offset, uint32_t *value)
{
    (void)ip, (void)offset, (void)value;
    OFF(axl_ip_read32);
}
axl_status axl_ip_write32(axl_ip ip, uint32_t offset, uint32_t value)
{
    (void)ip, (void)offset, (void)value;
    OFF(axl_ip_write32);
}
axl_status axl_ip_wait_interrupt(axl_ip ip, uint64_t timeout_ns)
{
    (void)ip, (void)timeout_ns;
    OFF(axl_ip_wait_interrupt);
}
axl_status axl_ip_release(axl_ip ip)
{
    (void)ip;
    OFF(axl_ip_release);
}
axl_status axl_ip_get_info(axl_ip ip, char *name, size_t cap, uint32_t *range)
{
    (void)ip, (void)name, (void)cap, (void)range;
    OFF(axl_ip_get_info);
}

#endif /* AXL_FEATURE_IP_ACCESS */
