/*
 * device.c - devices, their information descriptors and aspects, and
 * device selection (spec 4.6.1, 4.6.4).
 */
#include <string.h>

#include "rt.h"
#include "device_priv.h"
#include "image.h"
#include "devops.h"
#include "place.h"
#include "bundle.h"
#include "sched_priv.h"

static bool type_matches(const struct axl__device *d, axl_device_type type)
{
    return type == AXL_DEVICE_TYPE_ALL || d->info.type == (uint32_t)type;
}

axl_status axl__list_devices(const char *fn,
                             const struct axl__platform *platform,
                             axl_device_type type, axl_device *out,
                             uint32_t cap, uint32_t *count)
{
    if (type < AXL_DEVICE_TYPE_CPU || type > AXL_DEVICE_TYPE_ALL)
        return axl__fail(fn, AXL_ERR_INVALID, "%d is not a device type",
                         (int)type);
    const axl__pool *p = AXL__POOL(DEVICE);
    uint16_t want = platform ? AXL__SLOT(PLATFORM, platform) : 0;
    /* Two passes so a short array is refused before anything is written. */
    for (int fill = 0; fill < 2; fill++) {
        uint32_t n = 0;
        for (uint16_t s = 0; s < p->capacity; s++) {
            if (!axl__pool_is_live(p, s))
                continue;
            const struct axl__device *d = axl__device_at(s);
            if ((platform && d->platform != want) || !type_matches(d, type))
                continue;
            if (fill)
                out[n].id = axl__pool_handle(p, d);
            n++;
        }
        if (!fill) {
            axl_status st = axl__list_check(fn, n, out, cap, count);
            if (st != AXL_SUCCESS || !out)
                return st;
        }
    }
    return AXL_SUCCESS;
}

bool axl__device_has(const struct axl__device *d, axl_aspect aspect)
{
    const axl_hal_device_info *i = &d->info;
    bool emulated = (i->flags & AXL_HAL_DEVICE_EMULATED) != 0;
    switch (aspect) {
    case AXL_ASPECT_CPU:
        return i->type == AXL_DEVICE_TYPE_CPU;
    case AXL_ASPECT_GPU:
        return i->type == AXL_DEVICE_TYPE_GPU;
    case AXL_ASPECT_ACCELERATOR:
        return i->type == AXL_DEVICE_TYPE_ACCELERATOR;
    case AXL_ASPECT_CUSTOM:
        return i->type == AXL_DEVICE_TYPE_CUSTOM;
    case AXL_ASPECT_EMULATED:
        return emulated;
    case AXL_ASPECT_HOST_DEBUGGABLE:
        /* An emulated kernel is a C function on the host: gdb steps into it. */
        return emulated;
    case AXL_ASPECT_QUEUE_PROFILING:
        return (i->flags & AXL_HAL_DEVICE_PROFILING) != 0;
    default:
        /* No online compiler or linker (DESIGN.md), no images, no USM, and
         * fp16/fp64/atomic64 describe kernel code axl never compiles. */
        return false;
    }
}

axl_status axl_device_get_all(axl_device_type type, axl_device *out,
                              uint32_t cap, uint32_t *count)
{
    static const char fn[] = "axl_device_get_all";
    axl_status st = axl__enter_out(fn, AXL__OUT(count));
    if (st != AXL_SUCCESS)
        return st;
    st = axl__list_devices(fn, NULL, type, out, cap, count);
    axl__leave();
    return st;
}

static axl_status device_info(const char *fn, const struct axl__device *d,
                              axl_device_info param, void *value,
                              size_t value_size, size_t *size_ret)
{
    const axl_hal_device_info *i = &d->info;
    union {
        uint32_t u32;
        uint64_t u64;
        bool b;
        axl_device_type type;
        axl_platform platform;
        axl_aspect aspects[AXL_ASPECT_COUNT];
        uint8_t uuid[16];
    } v;
    size_t size;
    switch (param) {
    case AXL_DEVICE_INFO_DEVICE_TYPE:
        v.type = (axl_device_type)i->type;
        size = sizeof v.type;
        break;
    case AXL_DEVICE_INFO_VENDOR_ID:
        v.u32 = i->vendor_id;
        size = sizeof v.u32;
        break;
    case AXL_DEVICE_INFO_MAX_COMPUTE_UNITS:
        /* Compute units of the loaded design; 4.6.4.2 sets the minimum at 1. */
        v.u32 = d->compute_units ? d->compute_units : 1;
        size = sizeof v.u32;
        break;
    case AXL_DEVICE_INFO_MAX_CLOCK_FREQUENCY:
        v.u32 = i->max_clock_mhz;
        size = sizeof v.u32;
        break;
    case AXL_DEVICE_INFO_ADDRESS_BITS:
        v.u32 = 64;
        size = sizeof v.u32;
        break;
    case AXL_DEVICE_INFO_GLOBAL_MEM_SIZE:
        v.u64 = i->global_mem_size;
        size = sizeof v.u64;
        break;
    case AXL_DEVICE_INFO_MAX_MEM_ALLOC_SIZE:
        v.u64 = i->max_mem_alloc_size;
        size = sizeof v.u64;
        break;
    case AXL_DEVICE_INFO_MEM_BASE_ADDR_ALIGN:
        v.u32 = i->mem_base_addr_align;
        size = sizeof v.u32;
        break;
    case AXL_DEVICE_INFO_PROFILING_TIMER_RESOLUTION:
        v.u64 = i->timer_resolution_ns;
        size = sizeof v.u64;
        break;
    case AXL_DEVICE_INFO_IS_AVAILABLE:
        v.b = (i->flags & AXL_HAL_DEVICE_AVAILABLE) != 0;
        size = sizeof v.b;
        break;
    case AXL_DEVICE_INFO_IS_COMPILER_AVAILABLE:
        v.b = axl__device_has(d, AXL_ASPECT_ONLINE_COMPILER);
        size = sizeof v.b;
        break;
    case AXL_DEVICE_INFO_IS_LINKER_AVAILABLE:
        v.b = axl__device_has(d, AXL_ASPECT_ONLINE_LINKER);
        size = sizeof v.b;
        break;
    case AXL_DEVICE_INFO_QUEUE_PROFILING:
        v.b = axl__device_has(d, AXL_ASPECT_QUEUE_PROFILING);
        size = sizeof v.b;
        break;
    case AXL_DEVICE_INFO_BUILT_IN_KERNEL_IDS:
        return axl__builtin_kernel_ids(fn, d, value, value_size, size_ret);
    case AXL_DEVICE_INFO_BUILT_IN_KERNELS:
        return axl__builtin_kernel_names(fn, d, value, value_size, size_ret);
    case AXL_DEVICE_INFO_PLATFORM:
        v.platform.id = axl__pool_handle(AXL__POOL(PLATFORM),
                                         axl__platform_at(d->platform));
        size = sizeof v.platform;
        break;
    case AXL_DEVICE_INFO_NAME:
        return axl__info_str(fn, i->name, value, value_size, size_ret);
    case AXL_DEVICE_INFO_VENDOR:
        return axl__info_str(fn, i->vendor, value, value_size, size_ret);
    case AXL_DEVICE_INFO_DRIVER_VERSION:
        return axl__info_str(fn, i->driver_version, value, value_size,
                             size_ret);
    case AXL_DEVICE_INFO_VERSION:
        /* <major>.<minor> (4.6.4.2): the version of the device model axl
         * presents (SYCL 2020 itself is AXL_PLATFORM_INFO_VERSION's). */
        return axl__info_str(fn, "1.0", value, value_size, size_ret);
    case AXL_DEVICE_INFO_BACKEND_VERSION:
        return axl__info_str(fn, i->backend_version, value, value_size,
                             size_ret);
    case AXL_DEVICE_INFO_ASPECTS: {
        uint32_t n = 0;
        for (int a = 0; a < AXL_ASPECT_COUNT; a++)
            if (axl__device_has(d, (axl_aspect)a))
                v.aspects[n++] = (axl_aspect)a;
        size = n * sizeof v.aspects[0];
        break;
    }
    case AXL_DEVICE_INFO_MEMORY_BANKS:
        v.u32 = i->bank_count;
        size = sizeof v.u32;
        break;
    /* A DFX shell's (designs-design.md 4); none where nothing swaps. */
    case AXL_DEVICE_INFO_SLOTS:
        v.u32 = axl__device_slot_count(d);
        size = sizeof v.u32;
        break;
    case AXL_DEVICE_INFO_SHELL:
#if AXL_FEATURE_DESIGN_SWAP
        return axl__info_str(fn, i->shell_name, value, value_size, size_ret);
#else
        return axl__info_str(fn, "", value, value_size, size_ret);
#endif
    case AXL_DEVICE_INFO_SHELL_UUID:
        memset(v.uuid, 0, sizeof v.uuid);
#if AXL_FEATURE_DESIGN_SWAP
        if (axl__device_slot_count(d))
            memcpy(v.uuid, i->shell_uuid, sizeof v.uuid);
#endif
        size = sizeof v.uuid;
        break;
    default:
        return axl__fail(fn, AXL_ERR_INVALID,
                         "%d is not a device info descriptor", (int)param);
    }
    return axl__info_out(fn, &v, size, value, value_size, size_ret);
}

axl_status axl_device_get_info(axl_device device, axl_device_info param,
                               void *value, size_t value_size,
                               size_t *size_ret)
{
    static const char fn[] = "axl_device_get_info";
    AXL__ENTER(device, d, device);
    st = device_info(fn, d, param, value, value_size, size_ret);
    axl__leave();
    return st;
}

#define NO_IMAGE 0xFFFFu /* no image slot */

/* Region r of d as the application sees it (lock held). */
static void region_info(const struct axl__device *d, uint8_t r,
                        axl_region_info *o)
{
    const struct axl__device_region *g = &d->region[r];
    memset(o, 0, sizeof *o);
    o->slot = (int32_t)r - 1;
    uint16_t image = NO_IMAGE;
    if (r == 0 && AXL__IS_REF(d->loaded))
        image = axl__image_ref_slot(d->loaded);
    else if (r > 0 && AXL__IS_REF(g->design))
        image = axl__placement_deref(g->design)->image;
#if AXL_FEATURE_DESIGN_SWAP
    axl_format(o->name, sizeof o->name, "%s", g->desc.name);
    o->state = g->loading ? AXL_REGION_LOADING
               : image != NO_IMAGE ? AXL_REGION_LOADED
                                        : AXL_REGION_EMPTY;
    char holder[96];
    o->held = image != NO_IMAGE &&
              axl__image_held(d, image, holder, sizeof holder);
    for (axl__command_ref c = g->waiting.head; AXL__IS_REF(c);
         c = axl__command_deref(c)->next)
        o->waiting++;
    o->loads = g->loads;
#else
    axl_format(o->name, sizeof o->name, "fabric");
    o->state = d->programming ? AXL_REGION_LOADING
               : image != NO_IMAGE ? AXL_REGION_LOADED
                                        : AXL_REGION_EMPTY;
#endif
    for (uint8_t i = g->cu0; i < g->cu0 + g->ncu && i < d->ncus; i++)
        o->runs += AXL__IS_REF(d->cus[i].cmd);
    if (image == NO_IMAGE)
        return;
    const struct axl__image *img = axl__image_at(image);
#if AXL_FEATURE_DESIGN_SWAP
    /* A slot says the image it loaded: the design's own, or a variant's
     * (1.2), whose UUID is its own. */
    const uint16_t loaded = r ? axl__image_variant(d, image, r) : NO_IMAGE;
    memcpy(o->design_uuid,
           axl__image_at(loaded != NO_IMAGE ? loaded : image)->x.uuid,
           sizeof o->design_uuid);
#else
    memcpy(o->design_uuid, img->x.uuid, sizeof o->design_uuid);
#endif
    axl_xclbin_kernel ki;
    if (axl_xclbin_get_kernel(&img->x, 0, &ki) == AXL_SUCCESS)
        axl_format(o->design, sizeof o->design, "%.*s", (int)ki.name.len,
                   ki.name.ptr);
}

axl_status axl_device_get_regions(axl_device device, axl_region_info *out,
                                  uint32_t cap, uint32_t *count)
{
    static const char fn[] = "axl_device_get_regions";
    AXL__ENTER_OUT(device, d, device, count);
    const uint32_t n = 1u + axl__device_slot_count(d);
    st = axl__list_check(fn, n, out, cap, count);
    for (uint32_t r = 0; st == AXL_SUCCESS && out && r < n; r++)
        region_info(d, (uint8_t)r, &out[r]);
    axl__leave();
    return st;
}

axl_status axl_device_has(axl_device device, axl_aspect aspect, bool *has)
{
    static const char fn[] = "axl_device_has";
    AXL__ENTER_OUT(device, d, device, has);
    if ((unsigned)aspect >= AXL_ASPECT_COUNT)
        st = axl__fail(fn, AXL_ERR_INVALID, "%d is not an aspect", (int)aspect);
    else
        *has = axl__device_has(d, aspect);
    axl__leave();
    return st;
}

axl_status axl_device_get_platform(axl_device device, axl_platform *platform)
{
    static const char fn[] = "axl_device_get_platform";
    AXL__ENTER_OUT(device, d, device, platform);
    platform->id = axl__pool_handle(AXL__POOL(PLATFORM),
                                    axl__platform_at(d->platform));
    axl__leave();
    return st;
}

axl_status axl_device_get_backend(axl_device device, axl_backend *backend)
{
    static const char fn[] = "axl_device_get_backend";
    AXL__ENTER_OUT(device, d, device, backend);
    *backend = d->port->backend;
    axl__leave();
    return st;
}

axl_status axl_device_get_bank(axl_device device, uint32_t index,
                               axl_device_bank *bank)
{
    static const char fn[] = "axl_device_get_bank";
    AXL__ENTER_OUT(device, d, device, bank);
    axl_hal_bank b;
    if (index >= d->info.bank_count)
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "bank %u does not exist: the device has %u",
                       (unsigned)index, (unsigned)d->info.bank_count);
    else
        st = axl__dev_bank(d, index, &b);
    if (st == AXL_SUCCESS) {
        memcpy(bank->tag, b.tag, sizeof bank->tag);
        bank->tag[sizeof bank->tag - 1] = '\0';
        bank->size = b.size;
        bank->base_address = b.base_address;
    }
    axl__leave();
    return st;
}

axl_status axl_hal_device_data(axl_device device, const axl_device_port *port,
                               void **data)
{
    static const char fn[] = "axl_hal_device_data";
    AXL__ENTER_OUT(device, d, device, data);
    if (d->port != port)
        st = axl__fail(fn, AXL_ERR_BACKEND_MISMATCH,
                       "the device belongs to the %s port, not to %s",
                       d->port->name,
                       port ? port->name : "(none)");
    else
        *data = d->data;
    axl__leave();
    return st;
}

/* ---- Selection (4.6.1.1) ---------------------------------------------------- */

/* The devices the default selector may pick (axl_default_selector_set,
 * AXL_DEVICE): set before selections, not during one (device.h), so a
 * plain buffer; "" for any. */
#define SPEC_MAX 64
static char spec[SPEC_MAX];

static bool spec_sep(char c)
{
    return c == ';' || c == '\0';
}

/* Checks one term [t, e): "backend:index", "backend:*", or a piece of a
 * name (no ':'). */
static axl_status term_check(const char *fn, const char *all, const char *t,
                             const char *e)
{
    const char *colon = NULL;
    for (const char *c = t; c < e; c++)
        if (*c == ':')
            colon = colon ? e : c; /* a second ':' */
    if (t == e)
        return axl__fail(fn, AXL_ERR_INVALID, "\"%s\": an empty term", all);
    if (!colon)
        return AXL_SUCCESS;
    if (colon == e || colon == t)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "\"%s\": a term is backend:index, backend:* or a "
                         "piece of a device's name",
                         all);
    bool star = colon + 2 == e && colon[1] == '*';
    bool digits = colon + 1 < e;
    for (const char *c = colon + 1; c < e && !star; c++)
        digits &= *c >= '0' && *c <= '9';
    if (!star && !digits)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "\"%s\": after ':' an index or '*' (emu:0, xrt:*)",
                         all);
    return AXL_SUCCESS;
}

axl_status axl_default_selector_set(const char *s)
{
    static const char fn[] = "axl_default_selector_set";
    if (!s)
        s = "";
    size_t n = strlen(s);
    if (n >= SPEC_MAX)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "the choice of devices has %zu characters; at most "
                         "%u",
                         n, (unsigned)SPEC_MAX - 1);
    for (const char *t = s; n && *t;) {
        const char *e = t;
        while (!spec_sep(*e))
            e++;
        axl_status st = term_check(fn, s, t, e);
        if (st != AXL_SUCCESS)
            return st;
        t = *e ? e + 1 : e;
    }
    memcpy(spec, s, n + 1);
    return AXL_SUCCESS;
}

/* d's number among its platform's devices: the index of "emu:0" (lock
 * held). */
static uint32_t index_in_platform(const struct axl__device *d)
{
    const axl__pool *p = AXL__POOL(DEVICE);
    uint32_t n = 0;
    for (uint16_t s = 0; s < AXL__SLOT(DEVICE, d); s++)
        n += axl__pool_is_live(p, s) && axl__device_at(s)->platform == d->platform;
    return n;
}

static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Does term [t, e) name device d (lock held)? */
static bool term_matches(const struct axl__device *d, const char *t,
                         const char *e)
{
    const char *colon = t;
    while (colon < e && *colon != ':')
        colon++;
    if (colon == e) { /* a piece of the name, any case */
        const size_t len = (size_t)(e - t);
        for (const char *h = d->info.name; *h; h++) {
            size_t i = 0;
            while (i < len && h[i] && lower(h[i]) == lower(t[i]))
                i++;
            if (i == len)
                return true;
        }
        return false;
    }
    const char *port = d->port->name;
    if ((size_t)(colon - t) != strlen(port) ||
        memcmp(t, port, (size_t)(colon - t)) != 0)
        return false;
    if (colon[1] == '*')
        return true;
    uint32_t want = 0;
    for (const char *c = colon + 1; c < e; c++)
        want = want * 10u + (uint32_t)(*c - '0');
    return index_in_platform(d) == want;
}

/* Is d one the default selector may pick (lock held)? */
static bool chosen(const struct axl__device *d)
{
    if (!spec[0])
        return true;
    for (const char *t = spec; *t;) {
        const char *e = t;
        while (!spec_sep(*e))
            e++;
        if (term_matches(d, t, e))
            return true;
        t = *e ? e + 1 : e;
    }
    return false;
}

/* "emu:0 (axl emulated FPGA 0), xrt:0 (...)": the devices, by what
 * AXL_DEVICE calls them (lock held). */
AXL__MESSAGE_ONLY static const char *device_names(char *buf, size_t size)
{
    const axl__pool *p = AXL__POOL(DEVICE);
    size_t used = 0;
    buf[0] = '\0';
    for (uint16_t s = 0; s < p->capacity && used + 1 < size; s++) {
        if (!axl__pool_is_live(p, s))
            continue;
        const struct axl__device *d = axl__device_at(s);
        used += axl_format(buf + used, size - used, "%s%s:%u (%s)",
                           used ? ", " : "", d->port->name,
                           (unsigned)index_in_platform(d), d->info.name);
        if (used >= size)
            used = size - 1;
    }
    return buf;
}

axl_status axl_device_select(axl_selector_fn selector, const void *user,
                             axl_device *device)
{
    static const char fn[] = "axl_device_select";
    if (!selector)
        return axl__null(fn, "selector");
    axl_status st = axl__enter_out(fn, AXL__OUT(device));
    if (st != AXL_SUCCESS)
        return st;
    axl_device all[AXL_MAX_DEVICES];
    uint32_t n = 0;
    st = axl__list_devices(fn, NULL, AXL_DEVICE_TYPE_ALL, all,
                           AXL_MAX_DEVICES, &n);
    axl__leave();
    if (st != AXL_SUCCESS)
        return st;
    /* The selector runs without the lock: it may query devices. */
    int best = -1;
    uint32_t pick = 0;
    for (uint32_t i = 0; i < n; i++) {
        int score = selector(all[i], user);
        if (score > best) {
            best = score;
            pick = i;
        }
    }
    if (best < 0 && n && spec[0] &&
        (selector == axl_default_selector ||
         selector == axl_accelerator_selector ||
         selector == axl_aspect_selector)) {
        char names[128];
        (void)names; /* AXL_MESSAGES 0: not formatted */
        axl_port_lock();
        bool any = false;
        const axl__pool *p = AXL__POOL(DEVICE);
        for (uint16_t s = 0; s < p->capacity && !any; s++)
            any = axl__pool_is_live(p, s) && chosen(axl__device_at(s));
        st = axl__fail(fn, AXL_ERR_RUNTIME,
                       any ? "no device of those AXL_DEVICE \"%s\" names "
                             "scored 0 or more (the devices: %s)"
                           : "AXL_DEVICE \"%s\" matches none of the "
                             "devices: %s",
                       spec, AXL__TEXT(device_names(names, sizeof names)));
        axl_port_unlock();
        return st;
    }
    if (best < 0)
        return axl__fail(fn, AXL_ERR_RUNTIME,
                         n ? "no device of the %u scored 0 or more"
                           : "there is no device (%u found)",
                         (unsigned)n);
    *device = all[pick];
    return AXL_SUCCESS;
}

static bool query_bool(axl_device d, axl_device_info what)
{
    bool b = false;
    axl_device_get_info(d, what, &b, sizeof b, NULL);
    return b;
}

int axl_default_selector(axl_device device, const void *user)
{
    (void)user;
    if (spec[0]) {
        axl_status st;
        const struct axl__device *d = axl__device_enter("axl_default_selector",
                                                        device, &st);
        if (!d)
            return -1;
        bool ok = chosen(d);
        axl__leave();
        if (!ok)
            return -1;
    }
    /* Table 14: default_selector_v selects a device whenever one exists,
     * so every device scores 0 or more; available hardware first, then
     * the emulated device (the fallback 4.6.1.1 allows), then a device
     * that is not available (its queue creation then says why). */
    if (!query_bool(device, AXL_DEVICE_INFO_IS_AVAILABLE))
        return 0;
    bool emulated = false;
    axl_device_has(device, AXL_ASPECT_EMULATED, &emulated);
    return emulated ? 100 : 1000;
}

int axl_accelerator_selector(axl_device device, const void *user)
{
    bool acc = false;
    axl_device_has(device, AXL_ASPECT_ACCELERATOR, &acc);
    return acc ? axl_default_selector(device, user) : -1;
}

int axl_aspect_selector(axl_device device, const void *user)
{
    const axl_aspect_list *l = user;
    if (l) {
        for (uint32_t i = 0; i < l->require_count; i++) {
            bool has = false;
            if (axl_device_has(device, l->require[i], &has) != AXL_SUCCESS ||
                !has)
                return -1;
        }
        for (uint32_t i = 0; i < l->deny_count; i++) {
            bool has = false;
            if (axl_device_has(device, l->deny[i], &has) != AXL_SUCCESS || has)
                return -1;
        }
    }
    return axl_default_selector(device, NULL);
}
