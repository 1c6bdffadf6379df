/*
 * bundle.c - kernel bundles (spec 4.11, seed 000) and the kernel_compiler
 * extension with xclbin as a binary source language (seed 003). Kernel
 * objects are kernel.c's.
 *
 * Each call checks its arguments in the order of its Throws list in the
 * seed, and returns AXL_ERR_INVALID (errc::invalid) or AXL_ERR_BUILD
 * (errc::build) exactly where the seed says so.
 */
#include <stdarg.h>
#include <string.h>

#include "rt.h"

static struct axl__bundle *get_bundle(const char *fn, axl_kernel_bundle h,
                                      axl_status *st)
{
    return axl__lookup(fn, "kernel bundle", AXL__POOL_KERNEL_BUNDLE, h.id, st);
}

AXL__MESSAGE_ONLY static const char *state_name(uint8_t s)
{
    static const char *names[] = {"input", "object", "executable",
                                  "ext_oneapi_source"};
    return s < 4 ? names[s] : "unknown";
}

/* A call the bundle's state does not allow: "<what>; this one is <state>". */
static axl_status wrong_state(const char *fn, const char *what, uint8_t state)
{
    return axl__fail(fn, AXL_ERR_INVALID, "%s; this one is %s", what,
                     state_name(state));
}

/* A query a source bundle does not answer yet (seed 003). */
static axl_status not_on_source(const char *fn, const char *call)
{
    return axl__fail(fn, AXL_ERR_INVALID,
                     "%s is not available on a source bundle (seed 003)",
                     call);
}

/* ---- Arguments shared by the free functions ---------------------------------- */

typedef struct devlist {
    uint8_t n;
    uint16_t slot[AXL_MAX_CONTEXT_DEVICES];
} devlist;

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

/* A device list of a context's or a bundle's devices. */
static devlist devices_of(uint8_t n, const uint16_t *slot)
{
    devlist l = {n, {0}};
    memcpy(l.slot, slot, n * sizeof slot[0]);
    return l;
}

static axl_status resolve_devices(const char *fn, const struct axl__context *c,
                                  const axl_device *devs, uint32_t n,
                                  devlist *out)
{
    devlist all = devices_of(c->ndev, c->dev);
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

static bool kernel_fits(const struct axl__kernel_id *k, const devlist *l)
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

typedef struct imglist {
    uint8_t n;
    uint16_t slot[AXL_MAX_BUNDLE_IMAGES];
} imglist;

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

static void bundle_destroy(struct axl__bundle *b)
{
    axl__context_unhold(axl__context_at(b->context));
    for (uint8_t i = 0; i < b->nimg; i++)
        axl__image_unref(axl__image_at(b->img[i]));
    axl__pool_free(AXL__POOL(KERNEL_BUNDLE), b);
}

void axl__bundle_unhold(struct axl__bundle *b)
{
    if (--b->holds == 0 && b->refs == 0)
        bundle_destroy(b);
}

/* How obtaining an executable bundle treats the design a device carries
 * (one at a time). */
enum program_mode {
    PROGRAM_NONE = 0, /* nothing to program (joins, source bundles) */
    PROGRAM_LIST,     /* get_kernel_bundle without ids, which a firmware
                         calls to list kernels: displaces no design another
                         live bundle uses */
    PROGRAM_WANT      /* for given kernels or images: programs their
                         design, displacing the one there */
};

/* Does a live executable bundle other than b use the design d carries? */
static bool design_in_use(const struct axl__device *d,
                          const struct axl__bundle *b)
{
    if (!d->loaded)
        return false;
    const uint16_t ds = AXL__SLOT(DEVICE, d);
    const axl__pool *p = AXL__POOL(KERNEL_BUNDLE);
    for (uint16_t s = 0; s < p->capacity; s++) {
        if (!axl__pool_is_live(p, s))
            continue;
        const struct axl__bundle *x = axl__bundle_at(s);
        if (x == b || x->state != AXL_BUNDLE_EXECUTABLE)
            continue;
        bool on_d = false, has = false;
        for (uint8_t i = 0; i < x->ndev; i++)
            on_d |= x->dev[i] == ds;
        for (uint8_t i = 0; i < x->nimg; i++)
            has |= x->img[i] + 1u == d->loaded;
        if (on_d && has)
            return true;
    }
    return false;
}

/* An executable bundle programs each device with its first image
 * compatible with that device (DESIGN.md: the reconfiguration happens when
 * the bundle is obtained, not at a submit), unless the device carries one
 * of its images already, or (PROGRAM_LIST) carries a design another live
 * bundle uses. The device remembers which bundle programmed it, for the
 * message of a kernel whose design this displaced. */
static axl_status program_devices(const char *fn, struct axl__bundle *b,
                                  enum program_mode mode, axl_status fail_as,
                                  char *log, size_t log_size)
{
    for (uint8_t d = 0; d < b->ndev; d++) {
        devlist one = {1, {b->dev[d]}};
        struct axl__device *dev = axl__device_at(b->dev[d]);
        struct axl__image *pick = NULL;
        bool carried = false;
        for (uint8_t i = 0; i < b->nimg; i++) {
            struct axl__image *img = axl__image_at(b->img[i]);
            if (!image_fits(img, &one))
                continue;
            if (b->img[i] + 1u == dev->loaded)
                carried = true;
            if (!pick)
                pick = img;
        }
        if (!pick || carried ||
            (mode == PROGRAM_LIST && design_in_use(dev, b)))
            continue;
        axl_status st =
            axl__device_program(fn, dev, pick, fail_as, log, log_size);
        if (st != AXL_SUCCESS)
            return st;
        dev->loaded_by = AXL__HANDLE(KERNEL_BUNDLE, b);
    }
    return AXL_SUCCESS;
}

static axl_status make_bundle(const char *fn, struct axl__context *c,
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
    for (uint8_t i = 0; i < b->nimg; i++)
        axl__image_at(b->img[i])->refs++;
    if (program && state == AXL_BUNDLE_EXECUTABLE) {
        /* Nobody else has the bundle yet, so dropping the lock while the
         * devices are programmed is safe. */
        axl_status st =
            program_devices(fn, b, program, AXL_ERR_RUNTIME, NULL, 0);
        if (st != AXL_SUCCESS) {
            bundle_destroy(b);
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
    axl_status st;
    struct axl__context *c =
        axl__enter_get_out(fn, "context", AXL__POOL_CONTEXT, context.id, &st,
                           AXL__OUT(bundle));
    if (!c)
        return st;
    devlist devs;
    imglist imgs;
    st = resolve_devices(fn, c, devices, ndevices, &devs);
    if (st == AXL_SUCCESS)
        st = state_allowed(fn, state, &devs);
    if (st == AXL_SUCCESS)
        st = app_images(fn, &devs, &imgs);
    if (st == AXL_SUCCESS)
        st = make_bundle(fn, c, (uint8_t)state, &devs, &imgs, PROGRAM_LIST,
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
    axl_status st;
    struct axl__context *c =
        axl__enter_get_out(fn, "context", AXL__POOL_CONTEXT, context.id, &st,
                           AXL__OUT(bundle));
    if (!c)
        return st;
    devlist devs;
    imglist imgs = {0, {0}};
    st = resolve_devices(fn, c, devices, ndevices, &devs);
    if (st == AXL_SUCCESS)
        st = state_allowed(fn, state, &devs);
    for (uint32_t i = 0; st == AXL_SUCCESS && i < nids; i++) {
        struct axl__kernel_id *k = axl__get_kernel_id(fn, ids[i], &st);
        if (k && !kernel_fits(k, &devs))
            st = unfit(fn, k, &devs);
        else if (k)
            st = imglist_add(fn, &imgs, k->image);
    }
    if (st == AXL_SUCCESS)
        st = make_bundle(fn, c, (uint8_t)state, &devs, &imgs, PROGRAM_WANT, false,
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
    axl_status st;
    struct axl__context *c =
        axl__enter_get_out(fn, "context", AXL__POOL_CONTEXT, context.id, &st,
                           AXL__OUT(bundle));
    if (!c)
        return st;
    devlist devs;
    imglist all, picked = {0, {0}};
    st = resolve_devices(fn, c, devices, ndevices, &devs);
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
        st = make_bundle(fn, c, (uint8_t)state, &devs, &picked, PROGRAM_WANT, false,
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
    axl_status st;
    struct axl__context *c =
        axl__enter_get_out(fn, "context", AXL__POOL_CONTEXT, context.id, &st,
                           AXL__OUT(has));
    if (!c)
        return st;
    devlist devs;
    st = resolve_devices(fn, c, devices, ndevices, &devs);
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
        struct axl__kernel_id *k = axl__get_kernel_id(fn, ids[i], &st);
        if (k && !kernel_fits(k, &devs))
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
    devlist l = devices_of(a->ndev, a->dev);
    for (uint8_t i = 0; i < b->ndev; i++)
        if (!devlist_has(&l, b->dev[i]))
            return false;
    return true;
}

axl_status axl_kernel_bundle_join(const axl_kernel_bundle *bundles,
                                  uint32_t count, axl_kernel_bundle *joined)
{
    static const char fn[] = "axl_kernel_bundle_join";
    if (!bundles || !count)
        return axl__fail(fn, AXL_ERR_INVALID, "join needs at least one bundle");
    axl_status st = axl__enter_out(fn, AXL__OUT(joined));
    if (st != AXL_SUCCESS)
        return st;
    struct axl__bundle *first = get_bundle(fn, bundles[0], &st);
    imglist imgs = {0, {0}};
    bool from_source = false;
    for (uint32_t i = 0; first && st == AXL_SUCCESS && i < count; i++) {
        struct axl__bundle *b = get_bundle(fn, bundles[i], &st);
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
        devlist devs = devices_of(first->ndev, first->dev);
        /* A join makes no new device image: nothing to program. */
        st = make_bundle(fn, axl__context_at(first->context), first->state,
                         &devs, &imgs, PROGRAM_NONE, from_source, joined);
    }
    axl__leave();
    return st;
}

/* The devices of compile/link/build: a subset of the bundle's devices. */
static axl_status subset_devices(const char *fn, const struct axl__bundle *b,
                                 const axl_device *devs, uint32_t n,
                                 devlist *out)
{
    devlist all = devices_of(b->ndev, b->dev);
    return pick_devices(fn, &all, "bundle", devs, n, out);
}

axl_status axl_kernel_bundle_compile(axl_kernel_bundle input,
                                     const axl_device *devices,
                                     uint32_t ndevices,
                                     axl_kernel_bundle *object)
{
    static const char fn[] = "axl_kernel_bundle_compile";
    axl_status st;
    struct axl__bundle *b =
        axl__enter_get_out(fn, "kernel bundle", AXL__POOL_KERNEL_BUNDLE,
                           input.id, &st, AXL__OUT(object));
    if (!b)
        return st;
    devlist devs;
    if (b->state != AXL_BUNDLE_INPUT)
        st = wrong_state(fn, "compile takes a bundle in the input state",
                         b->state);
    else
        st = subset_devices(fn, b, devices, ndevices, &devs);
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
        struct axl__bundle *b = get_bundle(fn, objects[i], &st);
        devlist devs;
        if (b && b->state != AXL_BUNDLE_OBJECT)
            st = axl__fail(fn, AXL_ERR_INVALID,
                           "link takes bundles in the object state; bundle %u "
                           "is %s",
                           (unsigned)i, state_name(b->state));
        else if (b)
            st = subset_devices(fn, b, devices, ndevices, &devs);
    }
    if (st == AXL_SUCCESS) /* an object bundle cannot exist here */
        st = axl__fail(fn, AXL_ERR_BUILD, "no online linker");
    axl__leave();
    return st;
}

/* ---- The kernel_compiler extension (seed 003) ------------------------------------------ */

static bool device_can_compile(const struct axl__device *d,
                               axl_source_language lang)
{
    return lang == AXL_SOURCE_XCLBIN && axl__device_loads_images(d);
}

axl_status axl_device_can_compile(axl_device device, axl_source_language lang,
                                  bool *can)
{
    static const char fn[] = "axl_device_can_compile";
    axl_status st;
    struct axl__device *d =
        axl__enter_get_out(fn, "device", AXL__POOL_DEVICE, device.id, &st,
                           AXL__OUT(can));
    if (!d)
        return st;
    *can = device_can_compile(d, lang);
    axl__leave();
    return st;
}

axl_status axl_kernel_bundle_create_from_source(axl_context context,
                                                axl_source_language lang,
                                                const void *bytes, size_t size,
                                                axl_kernel_bundle *bundle)
{
    static const char fn[] = "axl_kernel_bundle_create_from_source";
    if (!bytes)
        return axl__null(fn, "bytes");
    axl_status st;
    struct axl__context *c =
        axl__enter_get_out(fn, "context", AXL__POOL_CONTEXT, context.id, &st,
                           AXL__OUT(bundle));
    if (!c)
        return st;
    bool any = false;
    for (uint8_t i = 0; i < c->ndev; i++)
        any |= device_can_compile(axl__device_at(c->dev[i]), lang);
    if (!any)
        st = axl__fail(fn, AXL_ERR_INVALID,
                       lang == AXL_SOURCE_XCLBIN
                           ? "no device of the context can load xclbin images"
                           : "%d is not a source language axl knows",
                       (int)lang);
    struct axl__image *img = NULL;
    if (st == AXL_SUCCESS) {
        img = axl__pool_alloc(AXL__POOL(IMAGE));
        if (!img)
            st = axl__pool_full(fn, AXL__POOL_IMAGE);
    }
    if (img) {
        /* Not checked until build (seed 003). */
        img->kind = AXL__IMAGE_SOURCE;
        img->x.data = bytes;
        img->x.size = size;
        devlist devs = devices_of(c->ndev, c->dev);
        imglist imgs = {1, {AXL__SLOT(IMAGE, img)}};
        st = make_bundle(fn, c, AXL_BUNDLE_SOURCE, &devs, &imgs, PROGRAM_NONE, false,
                         bundle);
        if (st != AXL_SUCCESS)
            axl__pool_free(AXL__POOL(IMAGE), img);
    }
    axl__leave();
    return st;
}

/* Parses "--uuid=..." and "--require-kernel=..." (lock held). */
typedef struct build_opts {
    bool want_uuid;
    uint8_t uuid[16];
    const char *require[8];
    uint32_t nrequire;
} build_opts;

static int hexval(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

static axl_status parse_options(const char *fn, const axl_build_props *p,
                                build_opts *o)
{
    memset(o, 0, sizeof *o);
    if (!p)
        return AXL_SUCCESS;
    if (p->noptions && !p->options)
        return axl__null(fn, "options");
    for (uint32_t i = 0; i < p->noptions; i++) {
        const char *opt = p->options[i] ? p->options[i] : "(null)";
        if (!strncmp(opt, "--uuid=", 7)) {
            unsigned n = 0;
            for (const char *h = opt + 7; *h && n < 32; h++) {
                if (*h == '-')
                    continue;
                int v = hexval(*h);
                if (v < 0)
                    return axl__fail(fn, AXL_ERR_INVALID,
                                     "invalid build option %s: not hex", opt);
                o->uuid[n / 2] = (uint8_t)(o->uuid[n / 2] << 4 | v);
                n++;
            }
            if (n != 32)
                return axl__fail(fn, AXL_ERR_INVALID,
                                 "invalid build option %s: a UUID has 32 hex "
                                 "digits",
                                 opt);
            o->want_uuid = true;
        } else if (!strncmp(opt, "--require-kernel=", 17) && opt[17] &&
                   o->nrequire < 8) {
            o->require[o->nrequire++] = opt + 17;
        } else {
            return axl__fail(fn, AXL_ERR_INVALID,
                             "invalid build option \"%s\" (xclbin builds take "
                             "--uuid=<hex> and --require-kernel=<name>)",
                             opt);
        }
    }
    return AXL_SUCCESS;
}

/* The first lines of a build log: the image and its kernels. */
static void log_image(char *log, size_t size, const struct axl__image *img)
{
    size_t len = axl_format(log, size, "xclbin ");
    for (int i = 0; i < 16; i++)
        len += axl_format(log + (len < size ? len : size),
                          len < size ? size - len : 0, "%02x%s",
                          (unsigned)img->x.uuid[i],
                          i == 3 || i == 5 || i == 7 || i == 9 ? "-" : "");
    len += axl_format(log + (len < size ? len : size), len < size ? size - len : 0,
                      ": %u kernels:", (unsigned)img->x.kernel_count);
    const axl__pool *p = AXL__POOL(KERNEL_ID);
    for (uint16_t s = 0; s < p->capacity; s++)
        if (axl__pool_is_live(p, s) &&
            axl__kernel_id_at(s)->image == AXL__SLOT(IMAGE, img))
            len += axl_format(log + (len < size ? len : size),
                              len < size ? size - len : 0, " %s",
                              axl__kernel_id_at(s)->name);
    axl_format(log + (len < size ? len : size), len < size ? size - len : 0,
               "\n");
}

/* A failed build: the whole log into props->log (kernel_compiler: "a full
 * build log", also on failure; the message, cut at AXL_MESSAGE_MAX, only
 * begins it): the image's lines when it was read, then what failed. */
static axl_status build_failed(const char *fn, const axl_build_props *props,
                               const struct axl__image *img, const char *fmt,
                               ...)
{
    char line[AXL_MESSAGE_MAX];
    char *log = props && props->log && props->log_size ? props->log : NULL;
    size_t size = log ? props->log_size : 0, len = 0;
    if (log) {
        log[0] = 0;
        if (img)
            log_image(log, size, img);
        len = strlen(log);
    }
    va_list ap;
    va_start(ap, fmt);
    if (log && len < size)
        axl_vformat(log + len, size - len, fmt, ap);
    va_end(ap);
    va_start(ap, fmt);
    axl_vformat(line, sizeof line, fmt, ap);
    va_end(ap);
    return axl__fail(fn, AXL_ERR_BUILD, "build log: %s%s", line,
                     log ? "" : " (pass axl_build_props.log for all of it)");
}

static axl_status build_source(const char *fn, struct axl__bundle *src,
                               const axl_device *devices, uint32_t ndevices,
                               const axl_build_props *props,
                               axl_kernel_bundle *out)
{
    devlist devs;
    struct axl__context *c = axl__context_at(src->context);
    axl_status st = AXL_SUCCESS;
    if (devices || ndevices)
        st = resolve_devices(fn, c, devices, ndevices, &devs);
    else
        st = subset_devices(fn, src, NULL, 0, &devs);
    if (st != AXL_SUCCESS)
        return st;
    for (uint8_t i = 0; i < devs.n; i++) {
        const struct axl__device *d = axl__device_at(devs.slot[i]);
        if (!device_can_compile(d, AXL_SOURCE_XCLBIN))
            return axl__fail(fn, AXL_ERR_INVALID,
                             "%s cannot build xclbin images (it cannot be "
                             "programmed)",
                             d->info.name);
    }
    build_opts o;
    st = parse_options(fn, props, &o);
    if (st != AXL_SUCCESS)
        return st;

    /* "Compile": check the image, and the options against it, before
     * anything is made from it: a failed build changes nothing (its
     * kernel ids are made only once every check has passed). A checked
     * image stays checked. */
    struct axl__image *img = axl__image_at(src->img[0]);
    bool fresh = !img->parsed;
    axl_xclbin x = img->x;
    if (fresh) {
        /* The reader's whole explanation: into the log when there is one. */
        char local[AXL_MESSAGE_MAX];
        const bool to_log = props && props->log && props->log_size > 8;
        char *why = to_log ? props->log + 8 : local;
        size_t cap = to_log ? props->log_size - 8 : sizeof local;
        st = axl_xclbin_open(&x, img->x.data, img->x.size, why, cap);
        if (st != AXL_SUCCESS) {
            if (to_log)
                memcpy(props->log, "xclbin: ", 8);
            return axl__fail(fn, AXL_ERR_BUILD, "build log: xclbin: %s", why);
        }
    }
    /* The log's image lines list kernel ids, which a fresh image has not
     * got yet. */
    const struct axl__image *logged = fresh ? NULL : img;
    if (o.want_uuid && memcmp(o.uuid, x.uuid, 16))
        return build_failed(fn, props, logged,
                            "error: the image's UUID is not the one --uuid "
                            "asks for\n");
    for (uint32_t r = 0; r < o.nrequire; r++) {
        bool found = false;
        for (uint32_t k = 0; k < x.kernel_count && !found; k++) {
            axl_xclbin_kernel ki;
            found = axl_xclbin_get_kernel(&x, k, &ki) == AXL_SUCCESS &&
                    axl_str_eq(ki.name, o.require[r]);
        }
        if (!found)
            return build_failed(fn, props, logged,
                                "error: the image has no kernel %s "
                                "(--require-kernel)\n",
                                o.require[r]);
    }
    if (fresh) {
        img->x = x;
        img->parsed = true;
        st = axl__image_kernels(fn, img);
        if (st != AXL_SUCCESS) {
            img->parsed = false;
            return st;
        }
    }

    /* "Link": program the devices. */
    char scratch[AXL_MESSAGE_MAX];
    char *log = props && props->log ? props->log : scratch;
    size_t log_size = props && props->log ? props->log_size : sizeof scratch;
    if (log_size)
        log_image(log, log_size, img);
    imglist imgs = {1, {AXL__SLOT(IMAGE, img)}};
    st = make_bundle(fn, c, AXL_BUNDLE_EXECUTABLE, &devs, &imgs, PROGRAM_NONE, true,
                     out);
    if (st != AXL_SUCCESS)
        return st;
    struct axl__bundle *b = get_bundle(fn, *out, &st);
    st = program_devices(fn, b, PROGRAM_WANT, AXL_ERR_BUILD, log, log_size);
    if (st != AXL_SUCCESS) {
        char why[AXL_MESSAGE_MAX];
        axl_format(why, sizeof why, "%s", axl_last_message());
        size_t len = log_size ? strlen(log) : 0;
        if (len < log_size) /* the log so far, then why it stopped */
            axl_format(log + len, log_size - len, "error: %s\n", why);
        bundle_destroy(b);
        out->id = 0;
        return axl__fail(fn, AXL_ERR_BUILD, "build log: %s", why);
    }
    return AXL_SUCCESS;
}

axl_status axl_kernel_bundle_build(axl_kernel_bundle bundle,
                                   const axl_device *devices,
                                   uint32_t ndevices,
                                   const axl_build_props *props,
                                   axl_kernel_bundle *executable)
{
    static const char fn[] = "axl_kernel_bundle_build";
    axl_status st;
    struct axl__bundle *b =
        axl__enter_get_out(fn, "kernel bundle", AXL__POOL_KERNEL_BUNDLE,
                           bundle.id, &st, AXL__OUT(executable));
    if (!b)
        return st;
    devlist devs;
    if (b->state == AXL_BUNDLE_SOURCE) {
        b->holds++;
        st = build_source(fn, b, devices, ndevices, props, executable);
        axl__bundle_unhold(b);
    } else if (b->state != AXL_BUNDLE_INPUT) {
        st = wrong_state(fn,
                         "build takes a bundle in the input or source state",
                         b->state);
    } else {
        st = subset_devices(fn, b, devices, ndevices, &devs);
        if (st == AXL_SUCCESS) /* an input bundle cannot exist here */
            st = axl__fail(fn, AXL_ERR_BUILD, "no online compiler");
    }
    axl__leave();
    return st;
}

/* ---- Bundle queries (4.11.9) ------------------------------------------------------- */

axl_status axl_kernel_bundle_retain(axl_kernel_bundle bundle)
{
    static const char fn[] = "axl_kernel_bundle_retain";
    axl_status st;
    struct axl__bundle *b =
        axl__enter_get(fn, "kernel bundle", AXL__POOL_KERNEL_BUNDLE, bundle.id,
                       &st);
    if (!b)
        return st;
    b->refs++;
    axl__leave();
    return st;
}

axl_status axl_kernel_bundle_release(axl_kernel_bundle bundle)
{
    static const char fn[] = "axl_kernel_bundle_release";
    axl_status st;
    struct axl__bundle *b =
        axl__enter_get(fn, "kernel bundle", AXL__POOL_KERNEL_BUNDLE, bundle.id,
                       &st);
    if (!b)
        return st;
    if (--b->refs == 0) {
        if (b->holds)
            axl__pool_retire(AXL__POOL(KERNEL_BUNDLE), b);
        else
            bundle_destroy(b);
    }
    axl__leave();
    return st;
}

axl_status axl_kernel_bundle_get_state(axl_kernel_bundle bundle,
                                       axl_bundle_state *state)
{
    static const char fn[] = "axl_kernel_bundle_get_state";
    axl_status st;
    struct axl__bundle *b =
        axl__enter_get_out(fn, "kernel bundle", AXL__POOL_KERNEL_BUNDLE,
                           bundle.id, &st, AXL__OUT(state));
    if (!b)
        return st;
    *state = (axl_bundle_state)b->state;
    axl__leave();
    return st;
}

axl_status axl_kernel_bundle_get_context(axl_kernel_bundle bundle,
                                         axl_context *context)
{
    static const char fn[] = "axl_kernel_bundle_get_context";
    axl_status st;
    struct axl__bundle *b =
        axl__enter_get_out(fn, "kernel bundle", AXL__POOL_KERNEL_BUNDLE,
                           bundle.id, &st, AXL__OUT(context));
    if (!b)
        return st;
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
    axl_status st;
    struct axl__bundle *b =
        axl__enter_get_out(fn, "kernel bundle", AXL__POOL_KERNEL_BUNDLE,
                           bundle.id, &st, AXL__OUT(count));
    if (!b)
        return st;
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
    axl_status st;
    struct axl__bundle *b =
        axl__enter_get_out(fn, "kernel bundle", AXL__POOL_KERNEL_BUNDLE,
                           bundle.id, &st, AXL__OUT(empty));
    if (!b)
        return st;
    if (b->state == AXL_BUNDLE_SOURCE)
        st = not_on_source(fn, "empty()");
    else
        *empty = b->nimg == 0;
    axl__leave();
    return st;
}

static bool bundle_has_image(const struct axl__bundle *b, uint16_t img)
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
    if (!bundle_has_image(b, k->image))
        return false;
    devlist devs = devices_of(b->ndev, b->dev);
    if (!d)
        return kernel_fits(k, &devs);
    return devlist_has(&devs, AXL__SLOT(DEVICE, d)) &&
           axl__kernel_compatible(k, d);
}

axl_status axl_kernel_bundle_has_kernel(axl_kernel_bundle bundle,
                                        axl_kernel_id id, axl_device device,
                                        bool *has)
{
    static const char fn[] = "axl_kernel_bundle_has_kernel";
    axl_status st;
    struct axl__bundle *b =
        axl__enter_get_out(fn, "kernel bundle", AXL__POOL_KERNEL_BUNDLE,
                           bundle.id, &st, AXL__OUT(has));
    if (!b)
        return st;
    struct axl__kernel_id *k = axl__get_kernel_id(fn, id, &st);
    struct axl__device *d = NULL;
    if (k && !AXL_IS_NONE(device))
        d = axl__lookup(fn, "device", AXL__POOL_DEVICE, device.id, &st);
    if (k && st == AXL_SUCCESS && b->state == AXL_BUNDLE_SOURCE)
        st = not_on_source(fn, "has_kernel");
    if (k && st == AXL_SUCCESS)
        *has = axl__bundle_has_kernel(b, k, d);
    axl__leave();
    return st;
}

axl_status axl_kernel_bundle_get_kernel_ids(axl_kernel_bundle bundle,
                                            axl_kernel_id *out, uint32_t cap,
                                            uint32_t *count)
{
    static const char fn[] = "axl_kernel_bundle_get_kernel_ids";
    axl_status st;
    struct axl__bundle *b =
        axl__enter_get_out(fn, "kernel bundle", AXL__POOL_KERNEL_BUNDLE,
                           bundle.id, &st, AXL__OUT(count));
    if (!b)
        return st;
    if (b->state == AXL_BUNDLE_SOURCE)
        st = not_on_source(fn, "get_kernel_ids");
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

static axl_status new_kernel(const char *fn, struct axl__bundle *b,
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
    axl_status st;
    struct axl__bundle *b =
        axl__enter_get_out(fn, "kernel bundle", AXL__POOL_KERNEL_BUNDLE,
                           bundle.id, &st, AXL__OUT(kernel));
    if (!b)
        return st;
    struct axl__kernel_id *k = axl__get_kernel_id(fn, id, &st);
    if (k && b->state != AXL_BUNDLE_EXECUTABLE)
        st = wrong_state(fn, "get_kernel needs an executable bundle",
                         b->state);
    else if (k && !axl__bundle_has_kernel(b, k, NULL))
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "the bundle does not have kernel %s", k->name);
    else if (k)
        st = new_kernel(fn, b, k, kernel);
    axl__leave();
    return st;
}

axl_status axl_kernel_bundle_get_images(axl_kernel_bundle bundle,
                                        axl_device_image *out, uint32_t cap,
                                        uint32_t *count)
{
    static const char fn[] = "axl_kernel_bundle_get_images";
    axl_status st;
    struct axl__bundle *b =
        axl__enter_get_out(fn, "kernel bundle", AXL__POOL_KERNEL_BUNDLE,
                           bundle.id, &st, AXL__OUT(count));
    if (!b)
        return st;
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
    axl_status st;
    struct axl__image *img =
        axl__enter_get_out(fn, "device image", AXL__POOL_IMAGE, image.id, &st,
                           AXL__OUT(has));
    if (!img)
        return st;
    struct axl__kernel_id *k = axl__get_kernel_id(fn, id, &st);
    struct axl__device *d = NULL;
    if (k && !AXL_IS_NONE(device))
        d = axl__lookup(fn, "device", AXL__POOL_DEVICE, device.id, &st);
    if (k && st == AXL_SUCCESS)
        *has = k->image == AXL__SLOT(IMAGE, img) &&
               (!d || axl__kernel_compatible(k, d));
    axl__leave();
    return st;
}

axl_status axl_device_image_get_uuid(axl_device_image image, uint8_t uuid[16])
{
    static const char fn[] = "axl_device_image_get_uuid";
    axl_status st;
    struct axl__image *img =
        axl__enter_get_out(fn, "device image", AXL__POOL_IMAGE, image.id, &st,
                           AXL__OUT(uuid));
    if (!img)
        return st;
    memcpy(uuid, img->x.uuid, 16);
    axl__leave();
    return st;
}

/* ext_oneapi_has_kernel(name): only bundles built from source (seed 003). */
static struct axl__kernel_id *source_kernel_any(const struct axl__bundle *b,
                                                const char *name, bool fit)
{
    if (!b->built_from_source || !name)
        return NULL;
    devlist devs = devices_of(b->ndev, b->dev);
    const axl__pool *p = AXL__POOL(KERNEL_ID);
    for (uint16_t s = 0; s < p->capacity; s++) {
        struct axl__kernel_id *k = axl__kernel_id_at(s);
        if (axl__pool_is_live(p, s) && bundle_has_image(b, k->image) &&
            !strcmp(k->name, name) && (!fit || kernel_fits(k, &devs)))
            return k;
    }
    return NULL;
}

static struct axl__kernel_id *source_kernel(const struct axl__bundle *b,
                                            const char *name)
{
    return source_kernel_any(b, name, true);
}

/* ext_oneapi_has_kernel(name) is false: say whether the image has the
 * kernel but no device can run it, and what would make one. */
static axl_status no_source_kernel(const char *fn,
                                   const struct axl__bundle *b,
                                   const char *name)
{
    const struct axl__kernel_id *k = source_kernel_any(b, name, false);
    if (!k)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "ext_oneapi_has_kernel(\"%s\") is false for this "
                         "bundle",
                         name ? name : "(null)");
    devlist devs = devices_of(b->ndev, b->dev);
    const char *dev = NULL;
    const char *fix = axl__kernel_fix(k, devs.slot, devs.n, &dev);
    return axl__fail(fn, AXL_ERR_INVALID,
                     "ext_oneapi_has_kernel(\"%s\") is false: no device of "
                     "the bundle can run it%s%s%s%s%s",
                     name, fix ? " (" : "", fix ? dev : "", fix ? ": " : "",
                     fix ? fix : "", fix ? ")" : "");
}

axl_status axl_kernel_bundle_ext_has_kernel(axl_kernel_bundle bundle,
                                            const char *name, bool *has)
{
    static const char fn[] = "axl_kernel_bundle_ext_has_kernel";
    axl_status st;
    struct axl__bundle *b =
        axl__enter_get_out(fn, "kernel bundle", AXL__POOL_KERNEL_BUNDLE,
                           bundle.id, &st, AXL__OUT(has));
    if (!b)
        return st;
    if (b->state == AXL_BUNDLE_SOURCE)
        st = not_on_source(fn, "ext_oneapi_has_kernel");
    else
        *has = source_kernel(b, name) != NULL;
    axl__leave();
    return st;
}

axl_status axl_kernel_bundle_ext_get_kernel(axl_kernel_bundle bundle,
                                            const char *name,
                                            axl_kernel *kernel)
{
    static const char fn[] = "axl_kernel_bundle_ext_get_kernel";
    axl_status st;
    struct axl__bundle *b =
        axl__enter_get_out(fn, "kernel bundle", AXL__POOL_KERNEL_BUNDLE,
                           bundle.id, &st, AXL__OUT(kernel));
    if (!b)
        return st;
    struct axl__kernel_id *k = source_kernel(b, name);
    if (b->state != AXL_BUNDLE_EXECUTABLE)
        st = wrong_state(fn,
                         "ext_oneapi_get_kernel needs an executable bundle",
                         b->state);
    else if (!k)
        st = no_source_kernel(fn, b, name);
    else
        st = new_kernel(fn, b, k, kernel);
    axl__leave();
    return st;
}
