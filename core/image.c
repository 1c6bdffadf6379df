/*
 * image.c - xclbin images: application images, each device's built-in
 * design, compatibility (4.11.8), and programming a device with a design.
 * The kernel ids an image's metadata gives are kernel_id.c's; the unit
 * table a design gives a device is cu.c's.
 */
#include <string.h>

#include "rt.h"
#include "cu.h"
#include "device_priv.h"
#include "sched_priv.h"
#include "image.h"
#include "place.h"
#include "observe.h"
#include "devops.h"
#include "swap.h"

#if AXL_FEATURE_DESIGN_SWAP
static bool str_same(axl_str a, axl_str b)
{
    return a.len == b.len && (!a.len || !memcmp(a.ptr, b.ptr, a.len));
}

/* Kernel k of a and b alike: name, control protocol, and every argument
 * (name, id, kind, register offset and size, host size, type). */
static bool kernel_same(const axl_xclbin *a, const axl_xclbin *b, uint32_t k)
{
    axl_xclbin_kernel ka, kb;
    if (axl_xclbin_get_kernel(a, k, &ka) != AXL_SUCCESS ||
        axl_xclbin_get_kernel(b, k, &kb) != AXL_SUCCESS ||
        !str_same(ka.name, kb.name) || ka.control != kb.control ||
        ka.arg_count != kb.arg_count || ka.cu_count != kb.cu_count)
        return false;
    for (uint32_t i = 0; i < ka.arg_count; i++) {
        axl_xclbin_arg xa, xb;
        if (axl_xclbin_get_kernel_arg(a, &ka, i, &xa) != AXL_SUCCESS ||
            axl_xclbin_get_kernel_arg(b, &kb, i, &xb) != AXL_SUCCESS ||
            !str_same(xa.name, xb.name) || xa.index != xb.index ||
            xa.address_qualifier != xb.address_qualifier ||
            xa.offset != xb.offset || xa.size != xb.size ||
            xa.host_size != xb.host_size || !str_same(xa.type, xb.type))
            return false;
    }
    return true;
}

/* Whether partial b is a variant of partial a (1.2): the same shell, the
 * same kernels, and the same IPs in the same order (names, kinds,
 * protocols, interrupts) at other bases. */
static bool variant_of(const axl_xclbin *a, const axl_xclbin *b)
{
    static const uint8_t none[AXL_XCLBIN_UUID_SIZE];
    if (!memcmp(a->interface_uuid, none, sizeof none) ||
        memcmp(a->interface_uuid, b->interface_uuid, sizeof none) ||
        a->kernel_count != b->kernel_count || a->ip_count != b->ip_count)
        return false;
    bool moved = false;
    for (uint32_t n = 0; n < a->ip_count; n++) {
        axl_xclbin_ip ia, ib;
        if (axl_xclbin_get_ip(a, n, &ia) != AXL_SUCCESS ||
            axl_xclbin_get_ip(b, n, &ib) != AXL_SUCCESS ||
            ia.type != ib.type || ia.control != ib.control ||
            ia.interrupt_id != ib.interrupt_id || !str_same(ia.name, ib.name))
            return false;
        moved |= ia.base_address != ib.base_address;
    }
    for (uint32_t k = 0; k < a->kernel_count; k++)
        if (!kernel_same(a, b, k))
            return false;
    return moved;
}

/* The lead a partial registered now is a variant of: the first live
 * application image it is a variant of (variants make no kernel ids). */
static struct axl__image *lead_of(const axl_xclbin *x)
{
    const axl__pool *p = AXL__POOL(IMAGE);
    for (uint16_t s = 0; s < p->capacity; s++) {
        struct axl__image *img = axl__image_at(s);
        if (axl__pool_is_live(p, s) && img->kind == AXL__IMAGE_APP &&
            img->lead == s && variant_of(&img->x, x))
            return img;
    }
    return NULL;
}
#endif

/* A checked image with its kernel ids (lock held). A partial that is a
 * variant of one registered before (1.2) gets none: its lead's stand for
 * both. */
static axl_status image_add(const char *fn, const axl_xclbin *x,
                            uint8_t kind, uint16_t device,
                            struct axl__image **out)
{
#if AXL_FEATURE_DESIGN_SWAP
    const struct axl__image *lead =
        kind == AXL__IMAGE_APP ? lead_of(x) : NULL;
#endif
    struct axl__image *img = axl__pool_alloc(AXL__POOL(IMAGE));
    if (!img)
        return axl__pool_full(fn, AXL__POOL_IMAGE);
    img->kind = kind;
    img->parsed = true;
    img->device = device;
    img->x = *x;
#if AXL_FEATURE_DESIGN_SWAP
    img->lead = (uint16_t)AXL__SLOT(IMAGE, lead ? lead : img);
    if (lead) {
        img->nkids = 0;
        AXL__LOG(AXL__LOG_INFO,
                 "image loaded: a variant of image %u (the same kernels at "
                 "other bases), for another slot",
                 (unsigned)img->lead);
        *out = img;
        return AXL_SUCCESS;
    }
#endif
    axl_status st = axl__image_kernels(fn, img);
    if (st != AXL_SUCCESS) {
        axl__pool_free(AXL__POOL(IMAGE), img);
        return st;
    }
    AXL__LOG(AXL__LOG_INFO, "image loaded: %s, %u kernels",
             kind == AXL__IMAGE_BUILTIN  ? "a device's built-in design"
             : kind == AXL__IMAGE_SOURCE ? "from source bytes"
                                         : "registered by the application",
             (unsigned)img->nkids);
    *out = img;
    return AXL_SUCCESS;
}

void axl__image_unref(struct axl__image *img)
{
    if (img->kind != AXL__IMAGE_SOURCE || --img->refs)
        return;
    /* Its bytes are the application's, valid only while a bundle made
     * from them lives: from here on the runtime does not know the design a
     * device it programmed carries (the next build programs it again; the
     * port kept what it reports, hal.h load_image). */
    const axl__image_ref was = axl__image_ref_of(img);
    const axl__pool *dp = AXL__POOL(DEVICE);
    for (uint16_t s = 0; s < dp->capacity; s++)
        if (axl__pool_is_live(dp, s) && axl__image_ref_eq(axl__device_at(s)->loaded, was))
            axl__device_at(s)->loaded = AXL__NONE(image);
    axl__place_forget_image(AXL__SLOT(IMAGE, img));
    axl__image_kernels_free(img);
    axl__pool_free(AXL__POOL(IMAGE), img);
}

axl_status axl_image_register(const void *bytes, size_t size)
{
    static const char fn[] = "axl_image_register";
    AXL__SWITCH(AXL_FEATURE_APP_IMAGES, fn);
    axl_xclbin x;
    char why[AXL_MESSAGE_MAX - 32];
    /* The reader needs no lock: it only reads the caller's bytes. */
    axl_status st = axl_xclbin_open(&x, bytes, size, why, sizeof why);
    if (st != AXL_SUCCESS)
        return axl__fail(fn, st, "the image is not a valid xclbin: %s", why);
    st = axl__enter(fn);
    if (st != AXL_SUCCESS)
        return st;
    const axl__pool *p = AXL__POOL(IMAGE);
    for (uint16_t s = 0; s < p->capacity; s++) {
        const struct axl__image *img = axl__image_at(s);
        if (axl__pool_is_live(p, s) && img->kind == AXL__IMAGE_APP &&
            !memcmp(img->x.uuid, x.uuid, sizeof x.uuid)) {
            axl__leave();
            return AXL_SUCCESS; /* already known */
        }
    }
    struct axl__image *img;
    st = image_add(fn, &x, AXL__IMAGE_APP, 0, &img);
    axl__leave();
    return st;
}

/* ---- Compatibility (4.11.8) ------------------------------------------------------- */

/* Can the device run images of this kind at all? */
bool axl__device_loads_images(const struct axl__device *d)
{
    return axl__dev_can_load(d) && axl__dev_runs_kernels(d) &&
           (d->info.flags & AXL_HAL_DEVICE_REPROGRAMMABLE);
}

#if AXL_FEATURE_DESIGN_SWAP
/* "9c2e4b71 (fir)": an image's UUID prefix and first kernel. */
AXL__MESSAGE_ONLY static const char *design_label(const axl_xclbin *x,
                                                  char *buf, size_t size)
{
    axl_xclbin_kernel ki;
    const bool named = axl_xclbin_get_kernel(x, 0, &ki) == AXL_SUCCESS;
    axl_format(buf, size, "%02x%02x%02x%02x (%.*s)", x->uuid[0], x->uuid[1],
               x->uuid[2], x->uuid[3], named ? (int)ki.name.len : 9,
               named ? ki.name.ptr : "no kernel");
    return buf;
}

/* "RP_0 0x80000000+32 MiB, RP_1 0x82000000+32 MiB": d's slots. */
AXL__MESSAGE_ONLY static const char *slot_list(const struct axl__device *d,
                                               char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = '\0';
    for (uint8_t r = 1; r <= axl__device_slot_count(d) && at < size; r++) {
        const axl_hal_region *g = &d->region[r].desc;
        const bool mib = !(g->ctrl_size & 0xFFFFF);
        at += (size_t)axl_format(
            buf + at, size - at, "%s%s 0x%llx+%llu %s", r == 1 ? "" : ", ",
            g->name, (unsigned long long)g->ctrl_base,
            (unsigned long long)(g->ctrl_size >> (mib ? 20 : 10)),
            mib ? "MiB" : "KiB");
    }
    return buf;
}

/* The slot region whose window holds address a, or 0. */
static uint8_t slot_at(const struct axl__device *d, uint64_t a)
{
    for (uint8_t r = 1; r <= axl__device_slot_count(d); r++) {
        const axl_hal_region *g = &d->region[r].desc;
        if (a >= g->ctrl_base && a - g->ctrl_base < g->ctrl_size)
            return r;
    }
    return 0;
}

uint8_t axl__image_slot(const struct axl__device *d, const axl_xclbin *x,
                        char *why, size_t size)
{
    char label[48], list[160];
    if (why && size)
        why[0] = '\0';
    if (!axl__device_slot_count(d))
        return 0;
    const uint8_t *u = d->info.shell_uuid;
    if (memcmp(x->interface_uuid, u, sizeof x->interface_uuid)) {
        static const uint8_t none[AXL_XCLBIN_UUID_SIZE];
        const uint8_t *i = x->interface_uuid;
        if (!memcmp(i, none, sizeof none))
            axl__why(why, size,
                     "design %s is a full design; %s takes partials of its "
                     "shell %s (%02x%02x%02x%02x) only (a full one would "
                     "replace the shell)",
                     design_label(x, label, sizeof label), d->info.name,
                     d->info.shell_name, u[0], u[1], u[2], u[3]);
        else
            axl__why(why, size,
                     "design %s is a partial for shell %02x%02x%02x%02x-..., "
                     "and %s's shell is %s (%02x%02x%02x%02x)",
                     design_label(x, label, sizeof label), i[0], i[1], i[2],
                     i[3], d->info.name, d->info.shell_name, u[0], u[1],
                     u[2], u[3]);
        return 0;
    }
    uint8_t slot = 0;
    for (uint32_t n = 0; n < x->ip_count; n++) {
        axl_xclbin_ip ip;
        if (axl_xclbin_get_ip(x, n, &ip) != AXL_SUCCESS ||
            ip.type != AXL_XCLBIN_IP_KERNEL)
            continue;
        const uint8_t r = slot_at(d, ip.base_address);
        if (r && (!slot || r == slot)) {
            slot = r;
            continue;
        }
        if (!r)
            axl__why(why, size,
                     "design %s has units at 0x%llx, outside every slot of "
                     "shell %s (%s)",
                     design_label(x, label, sizeof label),
                     (unsigned long long)ip.base_address, d->info.shell_name,
                     slot_list(d, list, sizeof list));
        else
            axl__why(why, size,
                     "design %s has units in slots %s and %s of shell %s: a "
                     "partial is for one slot",
                     design_label(x, label, sizeof label),
                     d->region[slot].desc.name, d->region[r].desc.name,
                     d->info.shell_name);
        return 0;
    }
    if (!slot)
        axl__why(why, size, "design %s has no compute unit to place in a "
                 "slot of shell %s",
                 design_label(x, label, sizeof label), d->info.shell_name);
    return slot;
}
#endif

#if AXL_FEATURE_DESIGN_SWAP
const char *axl__design_name(const struct axl__image *img, char *buf,
                             size_t size)
{
    axl_xclbin_kernel ki;
    if (axl_xclbin_get_kernel(&img->x, 0, &ki) != AXL_SUCCESS)
        return "(no kernel)";
    axl_format(buf, size, "%.*s", (int)ki.name.len, ki.name.ptr);
    return buf;
}

uint16_t axl__image_variant(const struct axl__device *d, uint16_t lead,
                            uint8_t r)
{
    const axl__pool *p = AXL__POOL(IMAGE);
    for (uint16_t s = 0; s < p->capacity; s++) {
        const struct axl__image *img = axl__image_at(s);
        if (axl__pool_is_live(p, s) && img->kind != AXL__IMAGE_BUILTIN &&
            img->lead == lead && img->parsed &&
            axl__image_slot(d, &img->x, NULL, 0) == r)
            return s;
    }
    return AXL__NO_WANT;
}
#endif

bool axl__kernel_compatible(const struct axl__kernel_id *k,
                            const struct axl__device *d)
{
    const struct axl__image *img = axl__image_at(k->image);
    if (img->kind == AXL__IMAGE_BUILTIN)
        return img->device == AXL__SLOT(DEVICE, d) && axl__dev_runs_kernels(d);
    for (uint8_t a = 0; a < k->nargs; a++)
        if (k->args[a].is_mem == AXL__ARG_LOCAL)
            return false; /* local memory: not from a host (a stream is
                             the design's: axl/pipeline.h) */
    if (!axl__device_loads_images(d))
        return false;
#if AXL_FEATURE_DESIGN_SWAP
    /* On a shell only its partials, each in one slot (3.2): one in a
     * slot now was checked when it loaded (a launch pays its compares,
     * not a scan of its IP_LAYOUT). */
    if (axl__device_slot_count(d) && !axl__slot_carrying(d, k->image) &&
        !axl__image_slot(d, &img->x, NULL, 0))
        return false;
#endif
    return axl__dev_kernel_compatible(d, &img->x, k->index);
}

const char *axl__kernel_fix(const struct axl__kernel_id *k,
                            const uint16_t *devices, uint8_t n,
                            const char **device_name)
{
    for (uint8_t i = 0; i < n; i++) {
        const struct axl__device *d = axl__device_at(devices[i]);
        if (d->port->kernel_fix && axl__device_loads_images(d) &&
            !axl__kernel_compatible(k, d)) {
            *device_name = d->info.name;
            return d->port->kernel_fix;
        }
    }
    return NULL;
}

axl_status axl_is_compatible(const axl_kernel_id *ids, uint32_t count,
                             axl_device device, bool *compatible)
{
    static const char fn[] = "axl_is_compatible";
    if (count && !ids)
        return axl__null(fn, "ids");
    AXL__ENTER_OUT(device, d, device, compatible);
    bool all = true;
    for (uint32_t i = 0; i < count && st == AXL_SUCCESS; i++) {
        struct axl__kernel_id *k = axl__kernel_id_get(fn, ids[i], &st);
        if (k && !axl__kernel_compatible(k, d))
            all = false;
    }
    if (st == AXL_SUCCESS)
        *compatible = all;
    axl__leave();
    return st;
}

/* ---- The design a device carries ------------------------------------------------- */

/* The design d came with, opened into x; its reader's answer. */
static axl_status open_builtin(const struct axl__device *d, axl_xclbin *x,
                               char *why, size_t size)
{
    const axl_hal_device_info *i = &d->info;
    /* A pre-digested design (axl-xclbin design) needs no reader. */
    return i->builtin_design
               ? axl_xclbin_open_design(x, i->builtin_design, why, size)
               : axl_xclbin_open(x, i->builtin_image, i->builtin_image_size,
                                 why, size);
}

/* The name says only that the design was rejected (a device name has 64
 * bytes); the reason, which may not fit there, is read again when a
 * message needs it. */
#if AXL_FEATURE_DESIGN_SWAP
/* d's regions from its port (lock held): a shell's slots, each read with
 * the region op; a shell the core cannot hold (too many slots, no region
 * op, a slot that does not read) leaves the device without slots, with a
 * warning. */
static void read_regions(struct axl__device *d)
{
    const uint32_t n = d->info.region_count;
    for (uint8_t r = 0; r < AXL__MAX_REGIONS; r++) {
        d->region[r].want = AXL__NO_WANT; /* image slot 0 is a design */
        d->region[r].incoming = AXL__NO_WANT;
        d->region[r].loads = 0;
        d->region[r].loaded_at = 0;
        memset(&d->region[r].desc, 0, sizeof d->region[r].desc);
    }
    axl_format(d->region[0].desc.name, sizeof d->region[0].desc.name,
               n > 1 ? "static" : "fabric");
    d->region[0].cu0 = 0;
    d->region[0].cap = AXL_MAX_DEVICE_CUS;
    d->nslots = 0;
    if (n <= 1)
        return;
    /* The slots' run slots are the last ones: the static part keeps the
     * first (1.1). */
    const uint32_t slot_cus = (n - 1) * AXL_MAX_SLOT_UNITS;
    axl_status st = AXL_ERR_INVALID;
    uint32_t r = 1;
    if (n <= AXL__MAX_REGIONS && d->port->region &&
        slot_cus < AXL_MAX_DEVICE_CUS)
        for (st = AXL_SUCCESS; r < n && st == AXL_SUCCESS; r++) {
            st = d->port->region(d->data, r, &d->region[r].desc);
            d->region[r].cu0 = (uint8_t)(AXL_MAX_DEVICE_CUS - slot_cus +
                                         (r - 1) * AXL_MAX_SLOT_UNITS);
            d->region[r].cap = AXL_MAX_SLOT_UNITS;
        }
    if (st == AXL_SUCCESS) {
        d->region[0].cap = (uint8_t)(AXL_MAX_DEVICE_CUS - slot_cus);
        d->nslots = (uint8_t)(n - 1);
        return;
    }
    AXL__LOG(AXL__LOG_WARN,
             "%s: shell %s with %u slots not taken (at most %u, through the "
             "port's region op, AXL_MAX_SLOT_UNITS %u each below "
             "AXL_MAX_DEVICE_CUS %u): the device has no slots",
             d->info.name, d->info.shell_name, (unsigned)(n - 1),
             (unsigned)(AXL__MAX_REGIONS - 1), (unsigned)AXL_MAX_SLOT_UNITS,
             (unsigned)AXL_MAX_DEVICE_CUS);
    d->info.region_count = 0;
    for (r = 1; r < AXL__MAX_REGIONS; r++)
        d->region[r].cu0 = d->region[r].cap = 0;
}
#endif

void axl__device_builtin(struct axl__device *d)
{
    static const char note[] = " (design rejected)";
    const axl_hal_device_info *i = &d->info;
    struct axl__image *img = NULL;
#if AXL_FEATURE_DESIGN_SWAP
    read_regions(d);
#endif
    if (i->builtin_image || i->builtin_design) {
        axl_xclbin x;
        axl_status st = open_builtin(d, &x, NULL, 0);
        if (st == AXL_SUCCESS)
            st = image_add("axl_init", &x, AXL__IMAGE_BUILTIN,
                           AXL__SLOT(DEVICE, d), &img);
        else if (strlen(d->info.name) + sizeof note <= sizeof d->info.name)
            strcat(d->info.name, note);
        if (img)
            d->builtin = d->loaded = axl__image_ref_of(img);
    }
    axl__place_adopt(d, img);
}

bool axl__device_rejected(const struct axl__device *d, char *why,
                          size_t size)
{
    axl_xclbin x;
    why[0] = '\0';
    if (AXL__IS_REF(d->builtin) ||
        !(d->info.builtin_image || d->info.builtin_design))
        return false;
    return open_builtin(d, &x, why, size) != AXL_SUCCESS;
}

/* No command in flight on d, no run out on any of its units (a run given
 * up at its timeout has completed its command, but its unit, and the run
 * the port will report, stay until the port gives it back: programming
 * replaces the unit table), and no other thread programming it. A hung
 * unit (cu.c: a given-up run that may never end) is not waited for: the
 * programming fails instead. */
static bool device_quiet(const void *arg)
{
    const struct axl__device *d = arg;
    if (d->inflight != 0 || d->programming)
        return false;
#if AXL_FEATURE_DESIGN_SWAP
    if (d->region[0].want != AXL__NO_WANT)
        return false; /* a swap is to come: after it */
#endif
    for (uint8_t i = 0; i < d->ncus; i++)
        if (AXL__IS_REF(d->cus[i].cmd) && !d->cus[i].hung)
            return false;
    return true;
}

/* A hung unit of d, or NULL. */
static const struct axl__cu *hung_unit(const struct axl__device *d)
{
    for (uint8_t i = 0; i < d->ncus; i++)
        if (AXL__IS_REF(d->cus[i].cmd) && d->cus[i].hung)
            return &d->cus[i];
    return NULL;
}

#if AXL_FEATURE_DESIGN_SWAP
/* The trace's record of a load a bundle asked for (designs-design.md
 * 2.6): no command waited for it, so it releases none. */
static void trace_load(const struct axl__device *d, axl__image_ref was,
                       const struct axl__image *img, axl_status st,
                       uint64_t t0)
{
    if (!axl__trace_on())
        return;
    const struct axl__trace_load note = {
        .device = (uint16_t)AXL__SLOT(DEVICE, d),
        .region = 0,
        .status = st,
        .number = axl__rt.loads + axl__rt.load_fails + 1u,
        .commands = 0,
        .was = AXL__IS_REF(was) ? axl__image_deref(was) : NULL,
        .now = img,
        .t0 = t0,
        .t1 = axl__dev_now(d)};
    axl__trace_program(&note);
}
#endif

/* Programs device d with an image unless it carries it (lock held; waits
 * for the commands on the device first, and drops the lock while the port
 * works). */
axl_status axl__device_program(const char *fn, struct axl__device *d,
                               struct axl__image *img, axl_status fail_as,
                               char *log, size_t log_size,
                               axl__replace_check may_replace,
                               const void *arg)
{
    const axl__image_ref want = axl__image_ref_of(img);
    while (!axl__image_ref_eq(d->loaded, want)) {
        /* Not when a command on the device waits for what this thread
         * blocks (a host task on one of its queues: issue 35.2). */
        const axl_status blocked = axl__wait_check(
            fn, AXL__WAITED_DEVICE, d, AXL_ERR_BAD_STATE,
            "the wait for the device's commands before programming it");
        if (blocked != AXL_SUCCESS)
            return blocked;
        axl__wait_until_pred(device_quiet, d);
        if (axl__image_ref_eq(d->loaded, want))
            break;
        const struct axl__cu *hung = hung_unit(d);
        if (hung) {
            char what[AXL_MESSAGE_MAX];
            axl__unit_what(d, hung, what, sizeof what);
            return axl__fail(fn, fail_as, "%s cannot be programmed now: %s",
                             d->info.name, what);
        }
        if (may_replace) {
            axl_status st = may_replace(fn, d, arg);
            if (st != AXL_SUCCESS)
                return st;
        }
        if (!axl__dev_can_load(d))
            return axl__fail(fn, fail_as,
                             "%s cannot be programmed (its port has no "
                             "load_image)",
                             d->info.name);
        d->programming = true;
        /* = {0}: at one unit, GCC cannot see that only old[< nold] is read
         * (-Wmaybe-uninitialized). */
        uintptr_t old[AXL_MAX_DEVICE_CUS] = {0};
        uint8_t nold = 0;
        for (uint8_t c = 0; c < d->ncus; c++)
            if (d->cus[c].opened)
                old[nold++] = d->cus[c].handle;
        img->refs++; /* keep a source image while unlocked */
#if AXL_FEATURE_DESIGN_SWAP
        const axl__image_ref was = d->loaded;
#endif
        axl_port_unlock();
        for (uint8_t c = 0; c < nold; c++)
            axl__dev_cu_close(d, old[c]);
        char why[AXL_MESSAGE_MAX] = "";
#if AXL_FEATURE_DESIGN_SWAP
        const uint64_t t0 = axl__dev_now(d); /* the load, as swap.c's */
#endif
        axl_status st = axl__dev_load_image(d, &img->x, why, sizeof why);
        axl_hal_device_info info;
        if (st == AXL_SUCCESS)
            st = axl__dev_describe(d, &info);
        axl_port_lock();
        img->refs--;
        axl__programming_done(d);
#if AXL_FEATURE_DESIGN_SWAP
        trace_load(d, was, img, st, t0);
#endif
        if (st != AXL_SUCCESS) {
            d->loaded = AXL__NONE(image); /* what it carries now is unknown */
            axl__place_adopt(d, NULL);
            if (axl__rt.waiters)
                axl_port_wake(AXL_PORT_CHANNEL_DONE);
            return axl__fail_quote(fn, fail_as,
                                   why[0] ? why : axl_last_message(),
                                   "programming %s failed (%s): ",
                                   d->info.name, axl_status_name(st));
        }
        info.builtin_image = d->info.builtin_image;
        info.builtin_image_size = d->info.builtin_image_size;
        info.builtin_design = d->info.builtin_design;
#if AXL_FEATURE_DESIGN_SWAP
        info.region_count = d->info.region_count; /* as read at open */
#endif
        d->info = info;
        d->loaded = want;
        axl__place_adopt(d, img);
#if AXL_FEATURE_DESIGN_SWAP
        axl__rt.loads++;
#endif
        AXL__LOG(AXL__LOG_INFO, "device programmed: %s, %u compute units",
                 d->info.name, (unsigned)d->compute_units);
        if (log && log_size)
            axl_format(log + strlen(log), log_size - strlen(log),
                       "programmed %s\n", d->info.name);
        if (axl__rt.waiters)
            axl_port_wake(AXL_PORT_CHANNEL_DONE);
    }
    return AXL_SUCCESS;
}
