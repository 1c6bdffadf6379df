/*
 * kernel_id.c - kernel ids (spec 4.11.4): made from an image's metadata
 * (its kernels, their arguments and units) when the image is added, freed
 * with it, and what the application asks of them: all ids, an id by name,
 * a device's built-in kernels, an id's name.
 */
#include <string.h>

#include "rt.h"
#include "device_priv.h"
#include "image.h"

/* ---- Kernel ids from an image's metadata --------------------------------------- */

void axl__image_kernels_free(struct axl__image *img)
{
    uint16_t slot = AXL__SLOT(IMAGE, img);
    axl__pool *p = AXL__POOL(KERNEL_ID);
    for (uint16_t s = 0; s < p->capacity; s++)
        if (axl__pool_is_live(p, s) && axl__kernel_id_at(s)->image == slot)
            axl__pool_free(p, axl__kernel_id_at(s));
    img->nkids = 0;
}

/* The alignment of what a pointer argument of this type points to, from
 * its C type in the metadata ("float*", "const unsigned short *",
 * "ap_uint<512>*"): the addresses the kernel's master can use for it. The
 * last word names the type ("unsigned int": int). 1 for a type axl does
 * not know (the port's own alignment still applies). */
static uint8_t pointee_align(axl_str type)
{
    const char *end = type.ptr + type.len;
    while (end > type.ptr && (end[-1] == '*' || end[-1] == ' '))
        end--;
    const char *w = end;
    while (w > type.ptr && w[-1] != ' ')
        w--;
    axl_str t = {w, (size_t)(end - w)};
    /* Groups of names, each ended by an empty one, for 1, 2, 4, 8 bytes. */
    static const char names[] = "char\0bool\0int8_t\0uint8_t\0\0"
                                "short\0half\0int16_t\0uint16_t\0\0"
                                "int\0float\0int32_t\0uint32_t\0\0"
                                "long\0double\0int64_t\0uint64_t\0";
    uint8_t align = 1;
    for (const char *n = names; n < names + sizeof names - 1;
         n += strlen(n) + 1) {
        if (!*n)
            align *= 2;
        else if (axl_str_eq(t, n))
            return align;
    }
    /* ap_int<W> / ap_uint<W>: W bits, aligned to the power of two that
     * holds them (at most 64 bytes, a 512-bit master's width). */
    const char *lt = memchr(t.ptr, '<', t.len);
    if (lt && end[-1] == '>' &&
        ((lt - t.ptr == 6 && !memcmp(t.ptr, "ap_int", 6)) ||
         (lt - t.ptr == 7 && !memcmp(t.ptr, "ap_uint", 7)))) {
        uint32_t bits = 0;
        for (const char *c = lt + 1; c < end - 1; c++) {
            if (*c < '0' || *c > '9' || bits > 4096)
                return 1;
            bits = bits * 10 + (uint32_t)(*c - '0');
        }
        align = 1;
        while (align * 8u < bits && align < 64)
            align *= 2;
        return align;
    }
    return 1;
}

/* One kernel id per kernel of the image (lock held). On failure none. */
axl_status axl__image_kernels(const char *fn, struct axl__image *img)
{
    const axl_xclbin *x = &img->x;
    axl_status st = AXL_SUCCESS;
    for (uint32_t k = 0; k < x->kernel_count && st == AXL_SUCCESS; k++) {
        axl_xclbin_kernel ki;
        axl_xclbin_get_kernel(x, k, &ki);
        if (ki.name.len >= AXL_KERNEL_NAME_MAX) {
            st = axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                           "kernel %.*s: its name is longer than "
                           "AXL_KERNEL_NAME_MAX - 1 (%u)",
                           (int)ki.name.len, ki.name.ptr,
                           (unsigned)AXL_KERNEL_NAME_MAX - 1);
            break;
        }
        if (ki.arg_count > AXL_MAX_KERNEL_ARGS) {
            st = axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                           "kernel %.*s has %u arguments; AXL_MAX_KERNEL_ARGS "
                           "is %u",
                           (int)ki.name.len, ki.name.ptr,
                           (unsigned)ki.arg_count,
                           (unsigned)AXL_MAX_KERNEL_ARGS);
            break;
        }
        struct axl__kernel_id *id = axl__pool_alloc(AXL__POOL(KERNEL_ID));
        if (!id) {
            st = axl__pool_full(fn, AXL__POOL_KERNEL_ID);
            break;
        }
        id->image = AXL__SLOT(IMAGE, img);
        id->index = (uint16_t)k;
        memcpy(id->name, ki.name.ptr, ki.name.len);
        id->name[ki.name.len] = '\0';
        id->nargs = (uint8_t)ki.arg_count;
        id->streams = 0;
        /* The second bound is the check above again, for the compiler: at
         * one argument, GCC's -Warray-bounds cannot see that the sorted
         * insert below stays inside args[] without it. */
        for (uint32_t a = 0; a < ki.arg_count && a < AXL_MAX_KERNEL_ARGS;
             a++) {
            axl_xclbin_arg arg;
            axl_xclbin_get_kernel_arg(x, &ki, a, &arg);
            struct axl__karg_meta m;
            m.id = (uint16_t)arg.index;
            m.is_mem = arg.address_qualifier == AXL_XCLBIN_ARG_GLOBAL ||
                       arg.address_qualifier == AXL_XCLBIN_ARG_CONSTANT;
            if (arg.address_qualifier == AXL_XCLBIN_ARG_LOCAL)
                m.is_mem = AXL__ARG_LOCAL; /* nothing a host sets */
            if (arg.address_qualifier == AXL_XCLBIN_ARG_STREAM) {
                m.is_mem = AXL__ARG_STREAM; /* the design joins it */
                id->streams++;
            }
            m.align = m.is_mem == 1 ? pointee_align(arg.type) : 1;
            m.size = (uint32_t)(m.is_mem ? 8
                                : arg.host_size ? arg.host_size
                                                : arg.size);
            /* Keep them sorted by id. */
            uint32_t at = a;
            while (at && id->args[at - 1].id > m.id) {
                id->args[at] = id->args[at - 1];
                at--;
            }
            id->args[at] = m;
        }
        id->ncu = (uint8_t)(ki.cu_count < AXL_MAX_KERNEL_CUS
                                ? ki.cu_count
                                : AXL_MAX_KERNEL_CUS);
        for (uint32_t c = 0; c < id->ncu; c++) {
            uint32_t ip;
            axl_xclbin_get_kernel_cu(x, &ki, c, &ip);
            id->cu_ip[c] = (uint16_t)ip;
        }
        /* hwControlProtocol is the kernel's: its units share it. */
        axl_xclbin_ip xi;
        id->free_running = id->ncu &&
                           axl_xclbin_get_ip(x, id->cu_ip[0], &xi) ==
                               AXL_SUCCESS &&
                           xi.control == AXL_XCLBIN_AP_CTRL_NONE;
        img->nkids++;
    }
    if (st != AXL_SUCCESS)
        axl__image_kernels_free(img);
    return st;
}


/* ---- Kernel ids ----------------------------------------------------------------- */

/* Kernel ids of one image, in kernel order, or all application ones. */
static uint32_t image_kernel_ids(const struct axl__image *img,
                                 axl_kernel_id *out, uint32_t cap)
{
    const axl__pool *p = AXL__POOL(KERNEL_ID);
    uint16_t slot = AXL__SLOT(IMAGE, img);
    uint32_t n = 0;
    for (uint16_t k = 0; k < img->x.kernel_count; k++)
        for (uint16_t s = 0; s < p->capacity; s++) {
            const struct axl__kernel_id *id = axl__kernel_id_at(s);
            if (axl__pool_is_live(p, s) && id->image == slot &&
                id->index == k) {
                if (out && n < cap)
                    out[n].id = axl__pool_handle(p, id);
                n++;
            }
        }
    return n;
}

axl_status axl_get_kernel_ids(axl_kernel_id *out, uint32_t cap,
                              uint32_t *count)
{
    static const char fn[] = "axl_get_kernel_ids";
    axl_status st = axl__enter_out(fn, AXL__OUT(count));
    if (st != AXL_SUCCESS)
        return st;
    const axl__pool *p = AXL__POOL(IMAGE);
    uint32_t n = 0;
    for (uint16_t s = 0; s < p->capacity; s++)
        if (axl__pool_is_live(p, s) &&
            axl__image_at(s)->kind == AXL__IMAGE_APP)
            n += image_kernel_ids(axl__image_at(s), NULL, 0);
    st = axl__list_check(fn, n, out, cap, count);
    if (st == AXL_SUCCESS && out) {
        uint32_t i = 0;
        for (uint16_t s = 0; s < p->capacity; s++)
            if (axl__pool_is_live(p, s) &&
                axl__image_at(s)->kind == AXL__IMAGE_APP)
                i += image_kernel_ids(axl__image_at(s), out + i, cap - i);
    }
    axl__leave();
    return st;
}

axl_status axl_kernel_id_get_name(axl_kernel_id id, const char **name)
{
    static const char fn[] = "axl_kernel_id_get_name";
    axl_status st = axl__enter_out(fn, AXL__OUT(name));
    if (st != AXL_SUCCESS)
        return st;
    struct axl__kernel_id *k = axl__kernel_id_get(fn, id, &st);
    if (k)
        *name = k->name;
    axl__leave();
    return st;
}

/* The first live kernel id called name of an application image (image
 * AXL__NO_IMAGE) or of that image; writes its handle to *id. */
#define AXL__NO_IMAGE 0xFFFFu
static bool kernel_id_named(const char *name, uint16_t image,
                            axl_kernel_id *id)
{
    const axl__pool *p = AXL__POOL(KERNEL_ID);
    for (uint16_t s = 0; s < p->capacity; s++) {
        const struct axl__kernel_id *k = axl__kernel_id_at(s);
        if (!axl__pool_is_live(p, s) || strcmp(k->name, name))
            continue;
        if (image == AXL__NO_IMAGE
                ? axl__image_at(k->image)->kind == AXL__IMAGE_APP
                : k->image == image) {
            id->id = axl__pool_handle(p, k);
            return true;
        }
    }
    return false;
}

axl_status axl_get_kernel_id(const char *name, axl_kernel_id *id)
{
    static const char fn[] = "axl_get_kernel_id";
    if (!name)
        return axl__null(fn, "name");
    axl_status st = axl__enter_out(fn, AXL__OUT(id));
    if (st != AXL_SUCCESS)
        return st;
    if (!kernel_id_named(name, AXL__NO_IMAGE, id))
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "no registered application image has a kernel named "
                       "%s",
                       name);
    axl__leave();
    return st;
}

axl_status axl_get_built_in_kernel_id(axl_device device, const char *name,
                                      axl_kernel_id *id)
{
    static const char fn[] = "axl_get_built_in_kernel_id";
    if (!name)
        return axl__null(fn, "name");
    AXL__ENTER_OUT(device, d, device, id);
    char why[AXL_MESSAGE_MAX];
    if (!AXL__IS_REF(d->builtin)) {
        if (axl__device_rejected(d, why, sizeof why))
            st = axl__fail_quote(fn, AXL_ERR_INVALID, why,
                                 "%s has no built-in kernel named %s: the "
                                 "design it came with was rejected: ",
                                 d->info.name, name);
        else
            st = axl__fail(fn, AXL_ERR_INVALID,
                           "%s carries no design, so no built-in kernel "
                           "named %s",
                           d->info.name, name);
    } else if (!kernel_id_named(name, axl__image_ref_slot(d->builtin), id))
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "%s has no built-in kernel named %s "
                       "(AXL_DEVICE_INFO_BUILT_IN_KERNELS lists them)",
                       d->info.name, name);
    axl__leave();
    return st;
}

/* ---- Built-in kernels of a device ----------------------------------------------- */

axl_status axl__builtin_kernel_ids(const char *fn, const struct axl__device *d,
                                   void *value, size_t value_size,
                                   size_t *size_ret)
{
    axl_kernel_id ids[AXL_MAX_KERNEL_IDS];
    uint32_t n = 0;
    if (AXL__IS_REF(d->builtin))
        n = image_kernel_ids(axl__image_deref(d->builtin), ids,
                             AXL_MAX_KERNEL_IDS);
    return axl__info_out(fn, ids, n * sizeof ids[0], value, value_size,
                         size_ret);
}

axl_status axl__builtin_kernel_names(const char *fn,
                                     const struct axl__device *d, void *value,
                                     size_t value_size, size_t *size_ret)
{
    /* OpenCL's form: names separated by ';'. */
    char names[AXL_MESSAGE_MAX * 2];
    size_t len = 0;
    names[0] = '\0';
    const axl__pool *p = AXL__POOL(KERNEL_ID);
    for (uint16_t s = 0; AXL__IS_REF(d->builtin) && s < p->capacity; s++) {
        const struct axl__kernel_id *k = axl__kernel_id_at(s);
        if (!axl__pool_is_live(p, s) || k->image != axl__image_ref_slot(d->builtin))
            continue;
        len += axl_format(names + (len < sizeof names ? len : sizeof names),
                          len < sizeof names ? sizeof names - len : 0, "%s%s",
                          len ? ";" : "", k->name);
    }
    if (len >= sizeof names)
        return axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                         "the built-in kernel names take %zu bytes, more "
                         "than axl lists here (%zu)",
                         len + 1, sizeof names);
    return axl__info_str(fn, names, value, value_size, size_ret);
}
