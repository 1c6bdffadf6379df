/*
 * bundle.c - kernel bundles (spec 4.11, seed 000): getting, joining and
 * querying them. The kernel_compiler extension's source bundles are
 * source.c's; kernel objects are kernel.c's.
 *
 * Each call checks its arguments in the order of its Throws list in the
 * seed, and returns AXL_ERR_INVALID (errc::invalid) or AXL_ERR_BUILD
 * (errc::build) exactly where the seed says so.
 */
#include <stdarg.h>
#include <string.h>

#include "bundle.h"
#include "pipeline_priv.h"
#include "device_priv.h"
#include "context_priv.h"
#include "kernel.h"
#include "devops.h"
#include "place.h"
#include "swap.h"

AXL__MESSAGE_ONLY static const char *state_name(uint8_t s)
{
    static const char *names[] = {"input", "object", "executable",
                                  "ext_oneapi_source"};
    return s < 4 ? names[s] : "unknown";
}

/* A call the bundle's state does not allow: "<what>; this one is <state>". */
axl_status(axl__wrong_state)(const char *fn, const char *what, uint8_t state)
{
    return axl__fail(fn, AXL_ERR_INVALID, "%s; this one is %s", what,
                     state_name(state));
}

/* A query a source bundle does not answer yet (seed 003). */
axl_status(axl__not_on_source)(const char *fn, const char *call)
{
    return axl__fail(fn, AXL_ERR_INVALID,
                     "%s is not available on a source bundle (seed 003)",
                     call);
}

/* ---- Arguments shared by the free functions ---------------------------------- */

static bool devlist_has(const devlist *l, uint16_t s)
{
    for (uint8_t i = 0; i < l->n; i++)
        if (l->slot[i] == s)
            return true;
    return false;
}

/* The devices of a call, out of the devices `all` of their owner (a
 * context, or a bundle for compile, link and build): NULL and 0 for the
 * overloads without a list (all of them); an empty list or a device
 * outside them is errc::invalid (seed 000). Duplicates are dropped. */
static axl_status pick_devices(const char *fn, const devlist *all,
                               const char *owner, const axl_device *devs,
                               uint32_t n, devlist *out)
{
    if (!devs && n == 0) {
        *out = *all;
        return AXL_SUCCESS;
    }
    if (!devs || n == 0)
        return axl__fail(fn, AXL_ERR_INVALID, "the device list is empty");
    out->n = 0;
    for (uint32_t i = 0; i < n; i++) {
        axl_status st;
        struct axl__device *d =
            axl__lookup(fn, "a device of the list", AXL__POOL_DEVICE,
                        devs[i].id, &st);
        if (!d)
            return st;
        uint16_t s = AXL__SLOT(DEVICE, d);
        if (!devlist_has(all, s))
            return axl__fail(fn, AXL_ERR_INVALID,
                             "device %u of the list (%s) is not one of the "
                             "%s's devices",
                             (unsigned)i, d->info.name, owner);
        if (!devlist_has(out, s))
            out->slot[out->n++] = s;
    }
    return AXL_SUCCESS;
}

devlist axl__devices_of(uint8_t n, const uint16_t *slot)
{
    devlist l = {n, {0}};
    memcpy(l.slot, slot, n * sizeof slot[0]);
    return l;
}

axl_status axl__resolve_devices(const char *fn, const struct axl__context *c,
                                const axl_device *devs, uint32_t n,
                                devlist *out)
{
    devlist all = axl__devices_of(c->ndev, c->dev);
    return pick_devices(fn, &all, "context", devs, n, out);
}

/* Input and object bundles need an online compiler and linker, which no
 * FPGA device has: errc::invalid for get_kernel_bundle (seed 000). */
static axl_status state_allowed(const char *fn, axl_bundle_state state,
                                const devlist *l)
{
    if (state == AXL_BUNDLE_EXECUTABLE)
        return AXL_SUCCESS;
    if (state == AXL_BUNDLE_INPUT || state == AXL_BUNDLE_OBJECT) {
        const struct axl__device *d = axl__device_at(l->slot[0]);
        return axl__fail(fn, AXL_ERR_INVALID,
                         "the %s state needs aspect::%s, which %s lacks (an "
                         "FPGA runs precompiled images)",
                         state_name((uint8_t)state),
                         state == AXL_BUNDLE_INPUT ? "online_compiler"
                                                   : "online_linker",
                         d->info.name);
    }
    return axl__fail(fn, AXL_ERR_INVALID,
                     "%d is not a state get_kernel_bundle makes (source "
                     "bundles come from "
                     "axl_kernel_bundle_create_from_source)",
                     (int)state);
}

/* Does the image have a kernel compatible with one of the devices? */
static bool image_fits(const struct axl__image *img, const devlist *l)
{
    const axl__pool *p = AXL__POOL(KERNEL_ID);
    uint16_t slot = AXL__SLOT(IMAGE, img);
    for (uint16_t s = 0; s < p->capacity; s++) {
        const struct axl__kernel_id *k = axl__kernel_id_at(s);
        if (!axl__pool_is_live(p, s) || k->image != slot)
            continue;
        for (uint8_t i = 0; i < l->n; i++)
            if (axl__kernel_compatible(k, axl__device_at(l->slot[i])))
                return true;
    }
    return false;
}

bool axl__kernel_fits(const struct axl__kernel_id *k, const devlist *l)
{
    for (uint8_t i = 0; i < l->n; i++)
        if (axl__kernel_compatible(k, axl__device_at(l->slot[i])))
            return true;
    return false;
}

/* Kernel k fits none of the devices: the message names what would make
 * it fit when a device's port says (the emulator: a C model). */
static axl_status unfit(const char *fn, const struct axl__kernel_id *k,
                        const devlist *l)
{
#if AXL_FEATURE_DESIGN_SWAP
    /* A device with a shell says which rule of 3.2 the design breaks. */
    const struct axl__image *img = axl__image_at(k->image);
    for (uint8_t i = 0; img->kind != AXL__IMAGE_BUILTIN && i < l->n; i++) {
        char why[AXL_MESSAGE_MAX - 64];
        const struct axl__device *d = axl__device_at(l->slot[i]);
        if (axl__device_slot_count(d) && axl__device_loads_images(d) &&
            !axl__image_slot(d, &img->x, why, sizeof why))
            return axl__fail(fn, AXL_ERR_INVALID,
                             "kernel %s is compatible with none of the "
                             "devices: %s",
                             k->name, why);
    }
#endif
    const char *dev = NULL;
    const char *fix = axl__kernel_fix(k, l->slot, l->n, &dev);
    if (fix)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "kernel %s is compatible with none of the devices "
                         "(%s: %s)",
                         k->name, dev, fix);
    return axl__fail(fn, AXL_ERR_INVALID,
                     "kernel %s is compatible with none of the devices",
                     k->name);
}

/* ---- Making bundles ---------------------------------------------------------------- */

static axl_status imglist_add(const char *fn, imglist *l, uint16_t s)
{
    for (uint8_t i = 0; i < l->n; i++)
        if (l->slot[i] == s)
            return AXL_SUCCESS;
    if (l->n == AXL_MAX_BUNDLE_IMAGES)
        return axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                         "more than AXL_MAX_BUNDLE_IMAGES (%u) device images "
                         "in one bundle",
                         (unsigned)AXL_MAX_BUNDLE_IMAGES);
    l->slot[l->n++] = s;
    return AXL_SUCCESS;
}

void axl__bundle_destroy(struct axl__bundle *b)
{
    axl__context_unhold(axl__context_at(b->context));
    for (uint8_t i = 0; i < b->nimg; i++)
        axl__image_unref(axl__image_at(b->img[i]));
    axl__pool_free(AXL__POOL(KERNEL_BUNDLE), b);
}

void axl__bundle_unhold(struct axl__bundle *b)
{
    if (--b->holds == 0 && b->refs == 0)
        axl__bundle_destroy(b);
}

/* Does bundle x (slot s) run kernels on device d from the design d
 * carries? */
static bool runs_from(const struct axl__bundle *x, const struct axl__device *d)
{
    const uint16_t ds = AXL__SLOT(DEVICE, d);
    bool on_d = false, has = false;
    for (uint8_t i = 0; i < x->ndev; i++)
        on_d |= x->dev[i] == ds;
    for (uint8_t i = 0; i < x->nimg; i++)
        has |= axl__device_carries(d, x->img[i]);
    return x->state == AXL_BUNDLE_EXECUTABLE && on_d && has;
}

/* The application's hold on the design device d carries, other than
 * bundle b's: a live executable bundle whose kernels run on d from that
 * design, or a kernel object it still holds of such a bundle it released
 * (the kernel holds its bundle). AXL_SUCCESS when there is none; else
 * AXL_ERR_BAD_STATE, naming the holder when `say` (lock held).
 *
 * A device carries one design: programming another would stop that
 * holder's kernels while its bundle says they can be invoked (4.11:
 * executable device images "allow them to be invoked on a device"), and
 * is_compatible and kernel_info.runnable would disagree with a launch.
 * So a bundle that needs another design is refused while the design is
 * held, and the application says when it lets go (issue 26.4). Commands
 * in flight hold kernels too, but not for the application: programming
 * waits for them (axl__device_program). */
static axl_status design_held(const char *fn, const struct axl__device *d,
                              const struct axl__bundle *b, bool say)
{
    if (!AXL__IS_REF(d->loaded))
        return AXL_SUCCESS;
    const axl__pool *p = AXL__POOL(KERNEL_BUNDLE);
    const axl__pool *kp = AXL__POOL(KERNEL);
    for (uint16_t s = 0; s < p->capacity; s++) {
        const bool live = axl__pool_is_live(p, s);
        if (!live && p->link[s] != AXL__SLOT_RETIRED) /* free */
            continue;
        const struct axl__bundle *x = axl__bundle_at(s);
        if (x == b || !runs_from(x, d))
            continue;
        if (live) {
            if (!say)
                return AXL_ERR_BAD_STATE;
#if AXL_FEATURE_DESIGN_SWAP
            return axl__fail(fn, AXL_ERR_BAD_STATE,
                             "%s carries the design of kernel bundle "
                             "0x%08x, whose kernels another would stop: "
                             "release it and its kernels first (the device "
                             "does not reprogram on demand)",
                             d->info.name,
                             (unsigned)axl__pool_slot_handle(p, s));
#else
            return axl__fail(fn, AXL_ERR_BAD_STATE,
                             "%s carries the design of kernel bundle "
                             "0x%08x, whose kernels another would stop: "
                             "release it and its kernels first",
                             d->info.name,
                             (unsigned)axl__pool_slot_handle(p, s));
#endif
        }
        const char *ip_name;
        uint32_t ip_handle;
        if (axl__ip_holds(s, d, &ip_name, &ip_handle)) {
            if (!say)
                return AXL_ERR_BAD_STATE;
            return axl__fail(fn, AXL_ERR_BAD_STATE,
                             "%s carries the design of IP %s (0x%08x), "
                             "which another would take away: release the "
                             "IP first",
                             d->info.name, ip_name, (unsigned)ip_handle);
        }
        uint32_t pipeline;
        if (axl__pipeline_holds(s, d, &pipeline)) {
            if (!say)
                return AXL_ERR_BAD_STATE;
            return axl__fail(fn, AXL_ERR_BAD_STATE,
                             "%s carries the design of pipeline 0x%08x, "
                             "which another would stop: release the "
                             "pipeline first",
                             d->info.name, (unsigned)pipeline);
        }
        for (uint16_t k = 0; k < kp->capacity; k++) {
            if (!axl__pool_is_live(kp, k) || axl__kernel_at(k)->bundle != s)
                continue;
            if (!say)
                return AXL_ERR_BAD_STATE;
            return axl__fail(fn, AXL_ERR_BAD_STATE,
                             "%s carries the design of kernel %s "
                             "(0x%08x), which another would stop: release "
                             "the kernel first",
                             d->info.name,
                             axl__kernel_id_at(axl__kernel_at(k)->kid)->name,
                             (unsigned)axl__pool_slot_handle(kp, k));
        }
    }
    return AXL_SUCCESS;
}

#if AXL_FEATURE_DESIGN_SWAP
/* Whether bundle slot s pins its design on d: an open IP or a pipeline
 * of it (2.5). why: `lead` (what is kept), then by what and the way out. */
static bool bundle_pins(uint16_t s, const struct axl__device *d,
                        const char *lead, char *why, size_t size)
{
    const char *ip_name;
    uint32_t ip_handle, pipeline;
    if (axl__ip_holds(s, d, &ip_name, &ip_handle)) {
        axl__why(why, size,
                 "%s for open IP %s (0x%08x): release it first (nothing "
                 "was loaded)",
                 lead, ip_name, (unsigned)ip_handle);
        return true;
    }
    if (axl__pipeline_holds(s, d, &pipeline)) {
        axl__why(why, size,
                 "%s for pipeline 0x%08x: release it first (nothing was "
                 "loaded)",
                 lead, (unsigned)pipeline);
        return true;
    }
    return false;
}

bool axl__design_pinned(const struct axl__device *d, char *why, size_t size)
{
    char lead[sizeof d->info.name + 24];
    axl_format(lead, sizeof lead, "%s keeps its design", d->info.name);
    const axl__pool *p = AXL__POOL(KERNEL_BUNDLE);
    for (uint16_t s = 0; AXL__IS_REF(d->loaded) && s < p->capacity; s++) {
        if (!axl__pool_is_live(p, s) && p->link[s] != AXL__SLOT_RETIRED)
            continue; /* free */
        if (runs_from(axl__bundle_at(s), d) &&
            bundle_pins(s, d, lead, why, size))
            return true;
    }
    return false;
}
#endif

#if AXL_FEATURE_DESIGN_SWAP
/* Whether bundle x holds kernels of design `image` on d: executable, for
 * d, with that image. */
static bool holds_image(const struct axl__bundle *x,
                        const struct axl__device *d, uint16_t image)
{
    const uint16_t ds = AXL__SLOT(DEVICE, d);
    bool on_d = false, has = false;
    for (uint8_t i = 0; i < x->ndev; i++)
        on_d |= x->dev[i] == ds;
    for (uint8_t i = 0; i < x->nimg; i++)
        has |= x->img[i] == image;
    return x->state == AXL_BUNDLE_EXECUTABLE && on_d && has;
}

bool axl__image_held(const struct axl__device *d, uint16_t image,
                     char *why, size_t size)
{
    const axl__pool *p = AXL__POOL(KERNEL_BUNDLE);
    const axl__pool *kp = AXL__POOL(KERNEL);
    for (uint16_t s = 0; s < p->capacity; s++) {
        const bool live = axl__pool_is_live(p, s);
        if (!live && p->link[s] != AXL__SLOT_RETIRED) /* free */
            continue;
        if (!holds_image(axl__bundle_at(s), d, image))
            continue;
        const char *ip_name;
        uint32_t ip_handle, pipeline;
        if (live)
            axl__why(why, size, "kernel bundle 0x%08x",
                     (unsigned)axl__pool_slot_handle(p, s));
        else if (axl__ip_holds(s, d, &ip_name, &ip_handle))
            axl__why(why, size, "open IP %s (0x%08x)", ip_name,
                     (unsigned)ip_handle);
        else if (axl__pipeline_holds(s, d, &pipeline))
            axl__why(why, size, "pipeline 0x%08x", (unsigned)pipeline);
        else {
            uint16_t k = 0;
            while (k < kp->capacity && (!axl__pool_is_live(kp, k) ||
                                        axl__kernel_at(k)->bundle != s))
                k++;
            if (k == kp->capacity)
                continue; /* retired, nothing of it left */
            axl__why(why, size, "kernel %s (0x%08x)",
                     axl__kernel_id_at(axl__kernel_at(k)->kid)->name,
                     (unsigned)axl__pool_slot_handle(kp, k));
        }
        return true;
    }
    return false;
}
#endif

#if AXL_FEATURE_DESIGN_SWAP
bool axl__image_pinned(const struct axl__device *d, uint16_t image,
                       char *why, size_t size)
{
    const axl__pool *p = AXL__POOL(KERNEL_BUNDLE);
    for (uint16_t s = 0; s < p->capacity; s++) {
        if (!axl__pool_is_live(p, s) && p->link[s] != AXL__SLOT_RETIRED)
            continue; /* free */
        if (holds_image(axl__bundle_at(s), d, image) &&
            bundle_pins(s, d, "its design stays", why, size))
            return true;
    }
    return false;
}
#endif

/* What axl__device_program asks once the device is quiet, just before it
 * programs (the lock was dropped while it waited: a bundle may have come
 * for the design there since). */
struct replace_check {
    const struct axl__bundle *b;
    bool say;
};

static axl_status may_replace(const char *fn, const struct axl__device *d,
                              const void *arg)
{
    const struct replace_check *rc = arg;
    return design_held(fn, d, rc->b, rc->say);
}

/* An executable bundle programs each device with its first image
 * compatible with that device (DESIGN.md: the reconfiguration happens when
 * the bundle is obtained, not at a submit), unless the device carries one
 * of its images already. A design the application holds (design_held) is
 * never displaced: PROGRAM_WANT is refused, before any device is
 * programmed, and PROGRAM_LIST leaves that device as it is. The device
 * remembers which bundle programmed it, for the message of a kernel whose
 * design is no longer there. */
axl_status axl__program_devices(const char *fn, struct axl__bundle *b,
                                enum program_mode mode, axl_status fail_as,
                                char *log, size_t log_size)
{
    /* = {0}: at one device per context GCC cannot see that only
     * pick[< b->ndev] is read (-Wmaybe-uninitialized, -Os). */
    struct axl__image *pick[AXL_MAX_CONTEXT_DEVICES] = {0};
    const bool list = mode == PROGRAM_LIST;
    for (uint8_t d = 0; d < b->ndev; d++) {
        devlist one = {1, {b->dev[d]}};
        struct axl__device *dev = axl__device_at(b->dev[d]);
        pick[d] = NULL;
        bool carried = false;
        for (uint8_t i = 0; i < b->nimg; i++) {
            struct axl__image *img = axl__image_at(b->img[i]);
            if (!image_fits(img, &one))
                continue;
            if (axl__device_carries(dev, b->img[i]))
                carried = true;
            if (!pick[d])
                pick[d] = img;
        }
        if (carried)
            pick[d] = NULL;
#if AXL_FEATURE_DESIGN_SWAP
        /* A partial goes into its slot of the device's shell now (3.3),
         * never over the whole fabric, which would take the shell away.
         * The form without ids loads none. */
        if (pick[d] && axl__device_slot_count(dev)) {
            /* Every partial of it shares the device's banks (1.4): one
             * whose memory is none of them is refused now, nothing
             * loaded, not at its first command. */
            for (uint8_t i = 0; !list && i < b->nimg; i++) {
                struct axl__image *img = axl__image_at(b->img[i]);
                char why[AXL_MESSAGE_MAX - 96];
                if (!image_fits(img, &one) ||
                    axl__place_banks_fit(dev, img, why, sizeof why))
                    continue;
                char name[32];
                return axl__fail(fn, AXL_ERR_INVALID,
                                 "%s's design cannot load in a slot of "
                                 "%s: %s (a partial uses the banks the "
                                 "device has)",
                                 axl__design_name(img, name, sizeof name),
                                 dev->info.name, why);
            }
            const axl_status st =
                list ? AXL_SUCCESS : axl__slot_load(fn, dev, pick[d]);
            if (st != AXL_SUCCESS)
                return st;
            pick[d] = NULL;
            continue;
        }
        /* A device that reprograms on demand loads the design now only
         * where that displaces nothing held and waits for nothing
         * (designs-design.md 2.2); else at its first command. */
        if (pick[d] && axl__dev_swaps(dev) &&
            (dev->inflight || dev->programming ||
             dev->region[0].want != AXL__NO_WANT ||
             design_held(fn, dev, b, false) != AXL_SUCCESS)) {
            /* Loaded beside another, it keeps the device's banks (1.4):
             * a memory that is none of them is refused now, nothing
             * programmed, not at the first command. */
            char why[AXL_MESSAGE_MAX - 96];
            if (!list &&
                !axl__place_banks_fit(dev, pick[d], why, sizeof why)) {
                char name[32];
                return axl__fail(fn, AXL_ERR_INVALID,
                                 "%s's design cannot load beside "
                                 "another: %s (designs on one device share "
                                 "its banks; held alone it lays them out)",
                                 axl__design_name(pick[d], name, sizeof name),
                                 why);
            }
            pick[d] = NULL;
        }
#endif
        if (pick[d] && design_held(fn, dev, b, !list) != AXL_SUCCESS) {
            if (!list)
                return AXL_ERR_BAD_STATE; /* nothing programmed yet */
            pick[d] = NULL;
        }
    }
    const struct replace_check rc = {b, !list};
    for (uint8_t d = 0; d < b->ndev; d++) {
        if (!pick[d])
            continue;
        struct axl__device *dev = axl__device_at(b->dev[d]);
        axl_status st = axl__device_program(fn, dev, pick[d], fail_as, log,
                                            log_size, may_replace, &rc);
        if (st == AXL_ERR_BAD_STATE && list)
            continue; /* held since: left as it is */
        if (st != AXL_SUCCESS)
            return st;
        dev->loaded_by = AXL__HANDLE(KERNEL_BUNDLE, b);
    }
    return AXL_SUCCESS;
}

axl_status axl__make_bundle(const char *fn, struct axl__context *c,
                            uint8_t state, const devlist *devs,
                            const imglist *imgs, enum program_mode program,
                            bool from_source, axl_kernel_bundle *out)
{
    struct axl__bundle *b = axl__pool_alloc(AXL__POOL(KERNEL_BUNDLE));
    if (!b)
        return axl__pool_full(fn, AXL__POOL_KERNEL_BUNDLE);
    b->refs = 1;
    b->state = state;
    b->built_from_source = from_source;
    b->context = AXL__SLOT(CONTEXT, c);
    c->holds++;
    b->ndev = devs->n;
    memcpy(b->dev, devs->slot, devs->n * sizeof devs->slot[0]);
    b->nimg = imgs->n;
    memcpy(b->img, imgs->slot, imgs->n * sizeof imgs->slot[0]);
#if AXL_FEATURE_DESIGN_SWAP
    memset(b->place, 0, sizeof b->place);
#endif
    for (uint8_t i = 0; i < b->nimg; i++)
        axl__image_at(b->img[i])->refs++;
    if (program && state == AXL_BUNDLE_EXECUTABLE) {
        /* Nobody else has the bundle yet, so dropping the lock while the
         * devices are programmed is safe. */
        axl_status st =
            axl__program_devices(fn, b, program, AXL_ERR_RUNTIME, NULL, 0);
        if (st != AXL_SUCCESS) {
            axl__bundle_destroy(b);
            return st;
        }
    }
    out->id = AXL__HANDLE(KERNEL_BUNDLE, b);
    return AXL_SUCCESS;
}

/* Every application image with a kernel for one of the devices. */
static axl_status app_images(const char *fn, const devlist *devs,
                             imglist *out)
{
    const axl__pool *p = AXL__POOL(IMAGE);
    out->n = 0;
    for (uint16_t s = 0; s < p->capacity; s++) {
        const struct axl__image *img = axl__image_at(s);
        if (axl__pool_is_live(p, s) && img->kind == AXL__IMAGE_APP &&
            image_fits(img, devs)) {
            axl_status st = imglist_add(fn, out, s);
            if (st != AXL_SUCCESS)
                return st;
        }
    }
    return AXL_SUCCESS;
}

/* ---- get_kernel_bundle (4.11.6) ------------------------------------------------------- */

axl_status axl_get_kernel_bundle(axl_context context,
                                 const axl_device *devices, uint32_t ndevices,
                                 axl_bundle_state state,
                                 axl_kernel_bundle *bundle)
{
    static const char fn[] = "axl_get_kernel_bundle";
    AXL__ENTER_OUT_ROOM(context, c, context, bundle, KERNEL_BUNDLE);
    devlist devs;
    imglist imgs;
    st = axl__resolve_devices(fn, c, devices, ndevices, &devs);
    if (st == AXL_SUCCESS)
        st = state_allowed(fn, state, &devs);
    if (st == AXL_SUCCESS)
        st = app_images(fn, &devs, &imgs);
    if (st == AXL_SUCCESS)
        st = axl__make_bundle(fn, c, (uint8_t)state, &devs, &imgs, PROGRAM_LIST,
                         false, bundle);
    axl__leave();
    return st;
}

axl_status axl_get_kernel_bundle_for(axl_context context,
                                     const axl_device *devices,
                                     uint32_t ndevices,
                                     const axl_kernel_id *ids, uint32_t nids,
                                     axl_bundle_state state,
                                     axl_kernel_bundle *bundle)
{
    static const char fn[] = "axl_get_kernel_bundle_for";
    if (nids && !ids)
        return axl__null(fn, "ids");
    AXL__ENTER_OUT_ROOM(context, c, context, bundle, KERNEL_BUNDLE);
    devlist devs;
    imglist imgs = {0, {0}};
    st = axl__resolve_devices(fn, c, devices, ndevices, &devs);
    if (st == AXL_SUCCESS)
        st = state_allowed(fn, state, &devs);
    for (uint32_t i = 0; st == AXL_SUCCESS && i < nids; i++) {
        struct axl__kernel_id *k = axl__kernel_id_get(fn, ids[i], &st);
        if (k && !axl__kernel_fits(k, &devs))
            st = unfit(fn, k, &devs);
        else if (k)
            st = imglist_add(fn, &imgs, k->image);
    }
    if (st == AXL_SUCCESS)
        st = axl__make_bundle(fn, c, (uint8_t)state, &devs, &imgs, PROGRAM_WANT, false,
                         bundle);
    axl__leave();
    return st;
}

axl_status axl_get_kernel_bundle_selected(axl_context context,
                                          const axl_device *devices,
                                          uint32_t ndevices,
                                          axl_bundle_state state,
                                          axl_image_selector_fn selector,
                                          void *user,
                                          axl_kernel_bundle *bundle)
{
    static const char fn[] = "axl_get_kernel_bundle_selected";
    if (!selector)
        return axl__null(fn, "selector");
    AXL__ENTER_OUT_ROOM(context, c, context, bundle, KERNEL_BUNDLE);
    devlist devs;
    imglist all, picked = {0, {0}};
    st = axl__resolve_devices(fn, c, devices, ndevices, &devs);
    if (st == AXL_SUCCESS)
        st = state_allowed(fn, state, &devs);
    if (st == AXL_SUCCESS)
        st = app_images(fn, &devs, &all);
    if (st == AXL_SUCCESS) {
        /* The selector is application code: no lock held. Application
         * images live until axl_shutdown, and the context is held. */
        c->holds++;
        axl__leave();
        for (uint8_t i = 0; i < all.n; i++) {
            axl_device_image h = {
                axl__pool_handle(AXL__POOL(IMAGE), axl__image_at(all.slot[i]))};
            if (selector(h, user))
                picked.slot[picked.n++] = all.slot[i];
        }
        st = axl__enter(fn);
        if (st != AXL_SUCCESS)
            return st;
        st = axl__make_bundle(fn, c, (uint8_t)state, &devs, &picked, PROGRAM_WANT, false,
                         bundle);
        axl__context_unhold(c);
    }
    axl__leave();
    return st;
}

axl_status axl_has_kernel_bundle(axl_context context,
                                 const axl_device *devices, uint32_t ndevices,
                                 const axl_kernel_id *ids, uint32_t nids,
                                 axl_bundle_state state, bool *has)
{
    static const char fn[] = "axl_has_kernel_bundle";
    if (nids && !ids)
        return axl__null(fn, "ids");
    AXL__ENTER_OUT(context, c, context, has);
    devlist devs;
    st = axl__resolve_devices(fn, c, devices, ndevices, &devs);
    bool yes = st == AXL_SUCCESS;
    /* Only executable bundles exist here: input and object need an online
     * compiler and linker (false, not an error, for has_kernel_bundle). */
    if (yes && state != AXL_BUNDLE_EXECUTABLE)
        yes = false;
    if (st == AXL_SUCCESS && !ids) {
        imglist imgs;
        st = app_images(fn, &devs, &imgs);
        yes = yes && st == AXL_SUCCESS && imgs.n > 0;
    }
    for (uint32_t i = 0; st == AXL_SUCCESS && i < nids; i++) {
        struct axl__kernel_id *k = axl__kernel_id_get(fn, ids[i], &st);
        if (k && !axl__kernel_fits(k, &devs))
            yes = false;
    }
    if (st == AXL_SUCCESS)
        *has = yes;
    axl__leave();
    return st;
}

/* ---- join, compile, link (4.11.10, 4.11.11) ------------------------------------------- */

static bool same_devices(const struct axl__bundle *a,
                         const struct axl__bundle *b)
{
    if (a->ndev != b->ndev)
        return false;
    devlist l = axl__devices_of(a->ndev, a->dev);
    for (uint8_t i = 0; i < b->ndev; i++)
        if (!devlist_has(&l, b->dev[i]))
            return false;
    return true;
}

axl_status axl_kernel_bundle_join(const axl_kernel_bundle *bundles,
                                  uint32_t count, axl_kernel_bundle *joined)
{
    static const char fn[] = "axl_kernel_bundle_join";
    AXL__SWITCH(AXL_FEATURE_JOIN, fn);
    if (!bundles || !count)
        return axl__fail(fn, AXL_ERR_INVALID, "join needs at least one bundle");
    axl_status st =
        axl__enter_out_room(fn, AXL__OUT(joined), AXL__POOL_KERNEL_BUNDLE);
    if (st != AXL_SUCCESS)
        return st;
    struct axl__bundle *first = axl__kernel_bundle_get(fn, bundles[0], &st);
    imglist imgs = {0, {0}};
    bool from_source = false;
    for (uint32_t i = 0; first && st == AXL_SUCCESS && i < count; i++) {
        struct axl__bundle *b = axl__kernel_bundle_get(fn, bundles[i], &st);
        if (!b)
            break;
        if (b->state != first->state)
            st = axl__fail(fn, AXL_ERR_INVALID,
                           "bundle %u is in the %s state, bundle 0 in %s",
                           (unsigned)i, state_name(b->state),
                           state_name(first->state));
        else if (b->context != first->context)
            st = axl__fail(fn, AXL_ERR_INVALID,
                           "bundle %u has another context than bundle 0",
                           (unsigned)i);
        else if (!same_devices(b, first))
            st = axl__fail(fn, AXL_ERR_INVALID,
                           "bundle %u has another set of devices than bundle 0",
                           (unsigned)i);
        for (uint8_t j = 0; st == AXL_SUCCESS && j < b->nimg; j++)
            st = imglist_add(fn, &imgs, b->img[j]);
        from_source |= b->built_from_source;
    }
    if (first && st == AXL_SUCCESS) {
        devlist devs = axl__devices_of(first->ndev, first->dev);
        /* A join makes no new device image: nothing to program. */
        st = axl__make_bundle(fn, axl__context_at(first->context), first->state,
                         &devs, &imgs, PROGRAM_NONE, from_source, joined);
    }
    axl__leave();
    return st;
}

/* The devices of compile/link/build: a subset of the bundle's devices. */
axl_status axl__subset_devices(const char *fn, const struct axl__bundle *b,
                               const axl_device *devs, uint32_t n,
                               devlist *out)
{
    devlist all = axl__devices_of(b->ndev, b->dev);
    return pick_devices(fn, &all, "bundle", devs, n, out);
}

axl_status axl_kernel_bundle_compile(axl_kernel_bundle input,
                                     const axl_device *devices,
                                     uint32_t ndevices,
                                     axl_kernel_bundle *object)
{
    static const char fn[] = "axl_kernel_bundle_compile";
    AXL__ENTER_OUT(kernel_bundle, b, input, object);
    devlist devs;
    if (b->state != AXL_BUNDLE_INPUT)
        st = axl__wrong_state(fn, "compile takes a bundle in the input state",
                         b->state);
    else
        st = axl__subset_devices(fn, b, devices, ndevices, &devs);
    if (st == AXL_SUCCESS) /* an input bundle cannot exist here */
        st = axl__fail(fn, AXL_ERR_BUILD, "no online compiler");
    axl__leave();
    return st;
}

axl_status axl_kernel_bundle_link(const axl_kernel_bundle *objects,
                                  uint32_t count, const axl_device *devices,
                                  uint32_t ndevices,
                                  axl_kernel_bundle *executable)
{
    static const char fn[] = "axl_kernel_bundle_link";
    if (!objects || !count)
        return axl__fail(fn, AXL_ERR_INVALID, "link needs at least one bundle");
    axl_status st = axl__enter_out(fn, AXL__OUT(executable));
    if (st != AXL_SUCCESS)
        return st;
    for (uint32_t i = 0; st == AXL_SUCCESS && i < count; i++) {
        struct axl__bundle *b = axl__kernel_bundle_get(fn, objects[i], &st);
        devlist devs;
        if (b && b->state != AXL_BUNDLE_OBJECT)
            st = axl__fail(fn, AXL_ERR_INVALID,
                           "link takes bundles in the object state; bundle %u "
                           "is %s",
                           (unsigned)i, state_name(b->state));
        else if (b)
            st = axl__subset_devices(fn, b, devices, ndevices, &devs);
    }
    if (st == AXL_SUCCESS) /* an object bundle cannot exist here */
        st = axl__fail(fn, AXL_ERR_BUILD, "no online linker");
    axl__leave();
    return st;
}

/* ---- Bundle queries (4.11.9) ------------------------------------------------------- */

axl_status axl_kernel_bundle_retain(axl_kernel_bundle bundle)
{
    static const char fn[] = "axl_kernel_bundle_retain";
    AXL__ENTER(kernel_bundle, b, bundle);
    b->refs++;
    axl__leave();
    return st;
}

axl_status axl_kernel_bundle_release(axl_kernel_bundle bundle)
{
    static const char fn[] = "axl_kernel_bundle_release";
    AXL__ENTER(kernel_bundle, b, bundle);
    if (--b->refs == 0) {
        if (b->holds)
            axl__pool_retire(AXL__POOL(KERNEL_BUNDLE), b);
        else
            axl__bundle_destroy(b);
    }
    axl__leave();
    return st;
}

axl_status axl_kernel_bundle_get_state(axl_kernel_bundle bundle,
                                       axl_bundle_state *state)
{
    static const char fn[] = "axl_kernel_bundle_get_state";
    AXL__ENTER_OUT(kernel_bundle, b, bundle, state);
    *state = (axl_bundle_state)b->state;
    axl__leave();
    return st;
}

axl_status axl_kernel_bundle_get_context(axl_kernel_bundle bundle,
                                         axl_context *context)
{
    static const char fn[] = "axl_kernel_bundle_get_context";
    AXL__ENTER_OUT(kernel_bundle, b, bundle, context);
    context->id =
        axl__pool_handle(AXL__POOL(CONTEXT), axl__context_at(b->context));
    axl__leave();
    return st;
}

axl_status axl_kernel_bundle_get_devices(axl_kernel_bundle bundle,
                                         axl_device *out, uint32_t cap,
                                         uint32_t *count)
{
    static const char fn[] = "axl_kernel_bundle_get_devices";
    AXL__ENTER_OUT(kernel_bundle, b, bundle, count);
    st = axl__list_check(fn, b->ndev, out, cap, count);
    if (st == AXL_SUCCESS && out)
        for (uint8_t i = 0; i < b->ndev; i++)
            out[i].id = axl__pool_handle(AXL__POOL(DEVICE),
                                         axl__device_at(b->dev[i]));
    axl__leave();
    return st;
}

axl_status axl_kernel_bundle_is_empty(axl_kernel_bundle bundle, bool *empty)
{
    static const char fn[] = "axl_kernel_bundle_is_empty";
    AXL__ENTER_OUT(kernel_bundle, b, bundle, empty);
    if (b->state == AXL_BUNDLE_SOURCE)
        st = axl__not_on_source(fn, "empty()");
    else
        *empty = b->nimg == 0;
    axl__leave();
    return st;
}

bool axl__bundle_has_image(const struct axl__bundle *b, uint16_t img)
{
    for (uint8_t i = 0; i < b->nimg; i++)
        if (b->img[i] == img)
            return true;
    return false;
}

/* has_kernel(id [, dev]) of an executable bundle (lock held). */
bool axl__bundle_has_kernel(const struct axl__bundle *b,
                            const struct axl__kernel_id *k,
                            const struct axl__device *d)
{
    if (!axl__bundle_has_image(b, k->image))
        return false;
    devlist devs = axl__devices_of(b->ndev, b->dev);
    if (!d)
        return axl__kernel_fits(k, &devs);
    return devlist_has(&devs, AXL__SLOT(DEVICE, d)) &&
           axl__kernel_compatible(k, d);
}

axl_status axl_kernel_bundle_has_kernel(axl_kernel_bundle bundle,
                                        axl_kernel_id id, axl_device device,
                                        bool *has)
{
    static const char fn[] = "axl_kernel_bundle_has_kernel";
    AXL__ENTER_OUT(kernel_bundle, b, bundle, has);
    struct axl__kernel_id *k = axl__kernel_id_get(fn, id, &st);
    struct axl__device *d = NULL;
    if (k && !AXL_IS_NONE(device))
        d = axl__device_get(fn, device, &st);
    if (k && st == AXL_SUCCESS && b->state == AXL_BUNDLE_SOURCE)
        st = axl__not_on_source(fn, "has_kernel");
    if (k && st == AXL_SUCCESS)
        *has = axl__bundle_has_kernel(b, k, d);
    axl__leave();
    return st;
}

#if AXL_FEATURE_DESIGN_SWAP
uint8_t axl__bundle_slot_named(const struct axl__device *d, uint16_t image)
{
    const axl__pool *p = AXL__POOL(KERNEL_BUNDLE);
    const uint16_t ds = AXL__SLOT(DEVICE, d);
    for (uint16_t s = 0; s < p->capacity; s++) {
        const struct axl__bundle *b = axl__bundle_at(s);
        if (!axl__pool_is_live(p, s) || !axl__bundle_has_image(b, image))
            continue;
        for (uint8_t i = 0; i < b->ndev; i++)
            if (b->dev[i] == ds && b->place[i])
                return b->place[i];
    }
    return 0;
}

/* b holds at most one partial design for d, with an image for slot
 * region r (1.2): else AXL_ERR_INVALID saying which (lock held). */
static axl_status place_check(const char *fn, const struct axl__bundle *b,
                              const struct axl__device *d, uint8_t r)
{
    uint8_t partials = 0;
    for (uint8_t i = 0; i < b->nimg; i++) {
        const struct axl__image *img = axl__image_at(b->img[i]);
        partials += img->kind != AXL__IMAGE_BUILTIN &&
                    axl__image_slot(d, &img->x, NULL, 0);
    }
    if (partials > 1)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "the bundle holds %u designs for the slots of %s, "
                         "and a slot holds one: place a bundle of one "
                         "design (axl_get_kernel_bundle_for its kernels)",
                         (unsigned)partials, d->info.name);
    for (uint8_t i = 0; i < b->nimg; i++) {
        const struct axl__image *img = axl__image_at(b->img[i]);
        if (img->kind == AXL__IMAGE_BUILTIN ||
            !axl__image_slot(d, &img->x, NULL, 0) ||
            axl__image_variant(d, b->img[i], r) != 0xFFFFu)
            continue;
        char name[32];
        return axl__fail(fn, AXL_ERR_INVALID,
                         "the design of %s has no image for slot %u (%s) "
                         "of %s: register a variant linked for it (the same "
                         "kernels at that slot's bases)",
                         axl__design_name(img, name, sizeof name),
                         (unsigned)(r - 1), d->region[r].desc.name,
                         d->info.name);
    }
    return AXL_SUCCESS;
}
#endif

axl_status axl_kernel_bundle_place(axl_kernel_bundle bundle,
                                   axl_device device, int32_t slot)
{
    static const char fn[] = "axl_kernel_bundle_place";
    AXL__ENTER(kernel_bundle, b, bundle);
    struct axl__device *d = axl__device_get(fn, device, &st);
    uint8_t at = 0;
    while (d && at < b->ndev && b->dev[at] != AXL__SLOT(DEVICE, d))
        at++;
    /* Without AXL_FEATURE_DESIGN_SWAP no device has slots: -1 is all. */
    const uint32_t n = d ? axl__device_slot_count(d) : 0;
    if (d && b->state != AXL_BUNDLE_EXECUTABLE)
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "the bundle is not executable: only an executable "
                       "bundle's designs load into slots");
    else if (d && at == b->ndev)
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "%s is not one of the bundle's devices",
                       d->info.name);
    else if (d && (slot < -1 || (slot >= 0 && (uint32_t)slot >= n)))
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "%s has %u slot%s: there is no slot %d%s",
                       d->info.name, (unsigned)n, n == 1 ? "" : "s",
                       (int)slot, n ? "" : " (it has no DFX shell)");
#if AXL_FEATURE_DESIGN_SWAP
    if (d && st == AXL_SUCCESS && slot >= 0)
        st = place_check(fn, b, d, (uint8_t)(slot + 1));
    if (d && st == AXL_SUCCESS) {
        const uint8_t was = b->place[at];
        b->place[at] = (uint8_t)(slot + 1);
        /* Each design goes there now, as at the bundle's making (3.3):
         * out of another slot where nothing of it runs, into the named
         * one where that displaces nothing held or running (else its
         * first command loads it). */
        for (uint8_t i = 0; st == AXL_SUCCESS && slot >= 0 && i < b->nimg;
             i++) {
            struct axl__image *img = axl__image_at(b->img[i]);
            if (img->kind != AXL__IMAGE_BUILTIN &&
                axl__image_slot(d, &img->x, NULL, 0))
                st = axl__slot_move(fn, d, img, (uint8_t)(slot + 1));
        }
        if (st != AXL_SUCCESS)
            b->place[at] = was;
    }
#endif
    axl__leave();
    return st;
}

axl_status axl_kernel_bundle_get_kernel_ids(axl_kernel_bundle bundle,
                                            axl_kernel_id *out, uint32_t cap,
                                            uint32_t *count)
{
    static const char fn[] = "axl_kernel_bundle_get_kernel_ids";
    AXL__ENTER_OUT(kernel_bundle, b, bundle, count);
    if (b->state == AXL_BUNDLE_SOURCE)
        st = axl__not_on_source(fn, "get_kernel_ids");
    if (st == AXL_SUCCESS) {
        /* Kernels built from source have no kernel_id (seed 003). */
        uint32_t n = 0;
        axl_kernel_id ids[AXL_MAX_KERNEL_IDS];
        const axl__pool *p = AXL__POOL(KERNEL_ID);
        for (uint16_t s = 0; !b->built_from_source && s < p->capacity; s++) {
            const struct axl__kernel_id *k = axl__kernel_id_at(s);
            if (axl__pool_is_live(p, s) && axl__bundle_has_kernel(b, k, NULL))
                ids[n++].id = axl__pool_handle(p, k);
        }
        st = axl__list_check(fn, n, out, cap, count);
        if (st == AXL_SUCCESS && out)
            memcpy(out, ids, n * sizeof ids[0]);
    }
    axl__leave();
    return st;
}

axl_status axl__new_kernel(const char *fn, struct axl__bundle *b,
                           const struct axl__kernel_id *k, axl_kernel *out)
{
    struct axl__kernel *kn = axl__pool_alloc(AXL__POOL(KERNEL));
    if (!kn)
        return axl__pool_full(fn, AXL__POOL_KERNEL);
    kn->refs = 1;
    kn->bundle = AXL__SLOT(KERNEL_BUNDLE, b);
    kn->kid = AXL__SLOT(KERNEL_ID, k);
    b->holds++;
    out->id = AXL__HANDLE(KERNEL, kn);
    return AXL_SUCCESS;
}

axl_status axl_kernel_bundle_get_kernel(axl_kernel_bundle bundle,
                                        axl_kernel_id id, axl_kernel *kernel)
{
    static const char fn[] = "axl_kernel_bundle_get_kernel";
    AXL__ENTER_OUT_ROOM(kernel_bundle, b, bundle, kernel, KERNEL);
    struct axl__kernel_id *k = axl__kernel_id_get(fn, id, &st);
    if (k && b->state != AXL_BUNDLE_EXECUTABLE)
        st = axl__wrong_state(fn, "get_kernel needs an executable bundle",
                         b->state);
    else if (k && !axl__bundle_has_kernel(b, k, NULL))
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "the bundle does not have kernel %s", k->name);
    else if (k)
        st = axl__new_kernel(fn, b, k, kernel);
    axl__leave();
    return st;
}

axl_status axl_kernel_bundle_get_images(axl_kernel_bundle bundle,
                                        axl_device_image *out, uint32_t cap,
                                        uint32_t *count)
{
    static const char fn[] = "axl_kernel_bundle_get_images";
    AXL__ENTER_OUT(kernel_bundle, b, bundle, count);
    if (b->state == AXL_BUNDLE_SOURCE)
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "a source bundle has no device images yet (seed 003)");
    else
        st = axl__list_check(fn, b->nimg, out, cap, count);
    if (st == AXL_SUCCESS && out)
        for (uint8_t i = 0; i < b->nimg; i++)
            out[i].id = axl__pool_handle(AXL__POOL(IMAGE),
                                         axl__image_at(b->img[i]));
    axl__leave();
    return st;
}

axl_status axl_device_image_has_kernel(axl_device_image image,
                                       axl_kernel_id id, axl_device device,
                                       bool *has)
{
    static const char fn[] = "axl_device_image_has_kernel";
    AXL__ENTER_OUT(image, img, image, has);
    struct axl__kernel_id *k = axl__kernel_id_get(fn, id, &st);
    struct axl__device *d = NULL;
    if (k && !AXL_IS_NONE(device))
        d = axl__device_get(fn, device, &st);
    if (k && st == AXL_SUCCESS)
        *has = k->image == AXL__SLOT(IMAGE, img) &&
               (!d || axl__kernel_compatible(k, d));
    axl__leave();
    return st;
}

axl_status axl_device_image_get_uuid(axl_device_image image, uint8_t uuid[16])
{
    static const char fn[] = "axl_device_image_get_uuid";
    AXL__ENTER_OUT(image, img, image, uuid);
    memcpy(uuid, img->x.uuid, 16);
    axl__leave();
    return st;
}
