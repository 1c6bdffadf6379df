/*
 * source.c - the kernel_compiler extension (seed 003) with xclbin as a
 * binary source language: a source bundle holds the bytes unread, build
 * reads them ("compile": the image and the options are checked, its
 * kernel ids made) and programs the devices ("link"), and a bundle built
 * so answers ext_oneapi_has_kernel / ext_oneapi_get_kernel by name.
 * Bundles themselves are bundle.c's.
 *
 * Each call checks its arguments in the order of its Throws list in the
 * seed, and returns AXL_ERR_INVALID (errc::invalid) or AXL_ERR_BUILD
 * (errc::build) exactly where the seed says so.
 */
#include <stdarg.h>
#include <string.h>

#include "bundle.h"
#include "device_priv.h"
#include "context_priv.h"

static bool device_can_compile(const struct axl__device *d,
                               axl_source_language lang)
{
    return lang == AXL_SOURCE_XCLBIN && axl__device_loads_images(d);
}

axl_status axl_device_can_compile(axl_device device, axl_source_language lang,
                                  bool *can)
{
    static const char fn[] = "axl_device_can_compile";
    AXL__SWITCH(AXL_FEATURE_SOURCE_BUNDLES, fn);
    AXL__ENTER_OUT(device, d, device, can);
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
    AXL__SWITCH(AXL_FEATURE_SOURCE_BUNDLES, fn);
    if (!bytes)
        return axl__null(fn, "bytes");
    AXL__ENTER_OUT_ROOM(context, c, context, bundle, KERNEL_BUNDLE);
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
#if AXL_FEATURE_DESIGN_SWAP
        img->lead = (uint16_t)AXL__SLOT(IMAGE, img); /* its own design */
#endif
        img->x.data = bytes;
        img->x.size = size;
        devlist devs = axl__devices_of(c->ndev, c->dev);
        imglist imgs = {1, {AXL__SLOT(IMAGE, img)}};
        st = axl__make_bundle(fn, c, AXL_BUNDLE_SOURCE, &devs, &imgs, PROGRAM_NONE, false,
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
    /* The application's buffer (axl_format_part: cut to its size). */
    size_t len = axl_format_part(log, size, "xclbin ");
    for (int i = 0; i < 16; i++)
        len += axl_format_part(log + (len < size ? len : size),
                               len < size ? size - len : 0, "%02x%s",
                               (unsigned)img->x.uuid[i],
                               i == 3 || i == 5 || i == 7 || i == 9 ? "-"
                                                                    : "");
    len += axl_format_part(log + (len < size ? len : size),
                           len < size ? size - len : 0, ": %u kernels:",
                           (unsigned)img->x.kernel_count);
    const axl__pool *p = AXL__POOL(KERNEL_ID);
    for (uint16_t s = 0; s < p->capacity; s++)
        if (axl__pool_is_live(p, s) &&
            axl__kernel_id_at(s)->image == AXL__SLOT(IMAGE, img))
            len += axl_format_part(log + (len < size ? len : size),
                                   len < size ? size - len : 0, " %s",
                                   axl__kernel_id_at(s)->name);
    axl_format_part(log + (len < size ? len : size),
                    len < size ? size - len : 0, "\n");
}

/* A failed build: the whole log into props->log (kernel_compiler: "a full
 * build log", also on failure; the message, cut at AXL_MESSAGE_MAX, only
 * begins it): the image's lines when it was read, then what failed. */
static axl_status build_failed(const char *fn, const axl_build_props *props,
                               const struct axl__image *img, const char *fmt,
                               ...)
{
    char line[AXL_MESSAGE_MAX - 112];
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
    if (log && len < size) /* the application's buffer: cut to its size */
        axl_vformat_part(log + len, size - len, fmt, ap);
    va_end(ap);
    /* The message begins the log: its line shortened in the middle (a
     * long kernel name) so that the message, and what to pass for all of
     * it, stay whole. */
    char full[AXL_MESSAGE_MAX];
    va_start(ap, fmt);
    axl_vformat_part(full, sizeof full, fmt, ap);
    va_end(ap);
    axl_shorten(line, sizeof line, full);
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
        st = axl__resolve_devices(fn, c, devices, ndevices, &devs);
    else
        st = axl__subset_devices(fn, src, NULL, 0, &devs);
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
     * kernel ids are made only once every check has passed, and go again
     * if programming fails). A built image stays checked. */
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
    axl_kernel_bundle made; /* *out only once the build has succeeded */
    st = axl__make_bundle(fn, c, AXL_BUNDLE_EXECUTABLE, &devs, &imgs,
                          PROGRAM_NONE, true, &made);
    if (st != AXL_SUCCESS)
        return st;
    struct axl__bundle *b = axl__kernel_bundle_get(fn, made, &st);
    st = axl__program_devices(fn, b, PROGRAM_WANT, AXL_ERR_BUILD, log, log_size);
    if (st != AXL_SUCCESS) {
        char why[AXL_MESSAGE_MAX];
        axl_format(why, sizeof why, "%s", axl_last_message());
        size_t len = log_size ? strlen(log) : 0;
        if (len < log_size) /* the log so far, then why it stopped */
            axl_format(log + len, log_size - len, "error: %s\n", why);
        axl__bundle_destroy(b);
        if (fresh) {
            /* A failed build makes nothing: the kernel ids this build made
             * go, and the image is checked again at the next one. */
            axl__image_kernels_free(img);
            img->parsed = false;
        }
        /* A design the application holds on a device (bundle.c) is not a
         * failed build: the image is good, and builds once it is let go. */
        return axl__fail(fn,
                         st == AXL_ERR_BAD_STATE ? st : AXL_ERR_BUILD,
                         "build log: %s", why);
    }
    *out = made;
    return AXL_SUCCESS;
}

axl_status axl_kernel_bundle_build(axl_kernel_bundle bundle,
                                   const axl_device *devices,
                                   uint32_t ndevices,
                                   const axl_build_props *props,
                                   axl_kernel_bundle *executable)
{
    static const char fn[] = "axl_kernel_bundle_build";
    AXL__SWITCH(AXL_FEATURE_SOURCE_BUNDLES, fn);
    AXL__ENTER_OUT_ROOM(kernel_bundle, b, bundle, executable,
                        KERNEL_BUNDLE);
    devlist devs;
    if (b->state == AXL_BUNDLE_SOURCE) {
        b->holds++;
        st = build_source(fn, b, devices, ndevices, props, executable);
        axl__bundle_unhold(b);
    } else if (b->state != AXL_BUNDLE_INPUT) {
        st = axl__wrong_state(fn,
                         "build takes a bundle in the input or source state",
                         b->state);
    } else {
        st = axl__subset_devices(fn, b, devices, ndevices, &devs);
        if (st == AXL_SUCCESS) /* an input bundle cannot exist here */
            st = axl__fail(fn, AXL_ERR_BUILD, "no online compiler");
    }
    axl__leave();
    return st;
}

/* ext_oneapi_has_kernel(name): only bundles built from source (seed 003). */
static struct axl__kernel_id *source_kernel_any(const struct axl__bundle *b,
                                                const char *name, bool fit)
{
    if (!b->built_from_source || !name)
        return NULL;
    devlist devs = axl__devices_of(b->ndev, b->dev);
    const axl__pool *p = AXL__POOL(KERNEL_ID);
    for (uint16_t s = 0; s < p->capacity; s++) {
        struct axl__kernel_id *k = axl__kernel_id_at(s);
        if (axl__pool_is_live(p, s) && axl__bundle_has_image(b, k->image) &&
            !strcmp(k->name, name) && (!fit || axl__kernel_fits(k, &devs)))
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
    devlist devs = axl__devices_of(b->ndev, b->dev);
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
    AXL__ENTER_OUT(kernel_bundle, b, bundle, has);
    if (b->state == AXL_BUNDLE_SOURCE)
        st = axl__not_on_source(fn, "ext_oneapi_has_kernel");
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
    AXL__ENTER_OUT_ROOM(kernel_bundle, b, bundle, kernel, KERNEL);
    struct axl__kernel_id *k = source_kernel(b, name);
    if (b->state != AXL_BUNDLE_EXECUTABLE)
        st = axl__wrong_state(fn,
                         "ext_oneapi_get_kernel needs an executable bundle",
                         b->state);
    else if (!k)
        st = no_source_kernel(fn, b, name);
    else
        st = axl__new_kernel(fn, b, k, kernel);
    axl__leave();
    return st;
}
