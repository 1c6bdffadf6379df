/*
 * image.c - xclbin images and their kernels: application images, each
 * device's built-in design, kernel ids (spec 4.11.4), compatibility
 * (4.11.8), and programming a device with a design.
 */
#include <string.h>

#include "rt.h"
#include "devops.h"

/* ---- Kernel ids from an image's metadata --------------------------------------- */

static void free_kernel_ids(struct axl__image *img)
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
static axl_status add_kernel_ids(const char *fn, struct axl__image *img)
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
            if (arg.address_qualifier == AXL_XCLBIN_ARG_STREAM ||
                arg.address_qualifier == AXL_XCLBIN_ARG_LOCAL)
                m.is_mem = 2; /* not something a host sets: unsupported */
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
        img->nkids++;
    }
    if (st != AXL_SUCCESS)
        free_kernel_ids(img);
    return st;
}

axl_status axl__image_kernels(const char *fn, struct axl__image *img)
{
    return add_kernel_ids(fn, img);
}

/* A checked image with its kernel ids (lock held). */
axl_status axl__image_add(const char *fn, const axl_xclbin *x, uint8_t kind,
                          uint16_t device, struct axl__image **out)
{
    struct axl__image *img = axl__pool_alloc(AXL__POOL(IMAGE));
    if (!img)
        return axl__pool_full(fn, AXL__POOL_IMAGE);
    img->kind = kind;
    img->parsed = true;
    img->device = device;
    img->x = *x;
    axl_status st = add_kernel_ids(fn, img);
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
    uint16_t was = (uint16_t)(AXL__SLOT(IMAGE, img) + 1);
    const axl__pool *dp = AXL__POOL(DEVICE);
    for (uint16_t s = 0; s < dp->capacity; s++)
        if (axl__pool_is_live(dp, s) && axl__device_at(s)->loaded == was)
            axl__device_at(s)->loaded = 0;
    free_kernel_ids(img);
    axl__pool_free(AXL__POOL(IMAGE), img);
}

axl_status axl_image_register(const void *bytes, size_t size)
{
    static const char fn[] = "axl_image_register";
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
    st = axl__image_add(fn, &x, AXL__IMAGE_APP, 0, &img);
    axl__leave();
    return st;
}

/* ---- Kernel ids ----------------------------------------------------------------- */

struct axl__kernel_id *axl__get_kernel_id(const char *fn, axl_kernel_id h,
                                          axl_status *st)
{
    return axl__lookup(fn, "kernel id", AXL__POOL_KERNEL_ID, h.id, st);
}

/* Kernel ids of one image, in kernel order, or all application ones. */
uint32_t axl__image_kernel_ids(const struct axl__image *img,
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
            n += axl__image_kernel_ids(axl__image_at(s), NULL, 0);
    st = axl__list_check(fn, n, out, cap, count);
    if (st == AXL_SUCCESS && out) {
        uint32_t i = 0;
        for (uint16_t s = 0; s < p->capacity; s++)
            if (axl__pool_is_live(p, s) &&
                axl__image_at(s)->kind == AXL__IMAGE_APP)
                i += axl__image_kernel_ids(axl__image_at(s), out + i, cap - i);
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
    struct axl__kernel_id *k = axl__get_kernel_id(fn, id, &st);
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
    axl_status st;
    struct axl__device *d =
        axl__enter_get_out(fn, "device", AXL__POOL_DEVICE, device.id, &st,
                           AXL__OUT(id));
    if (!d)
        return st;
    if (!d->builtin ||
        !kernel_id_named(name, (uint16_t)(d->builtin - 1), id))
        st = axl__fail(fn, AXL_ERR_INVALID,
                       d->builtin ? "%s has no built-in kernel named %s "
                                    "(AXL_DEVICE_INFO_BUILT_IN_KERNELS "
                                    "lists them)"
                                  : "%s carries no design, so no built-in "
                                    "kernel named %s",
                       d->info.name, name);
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

bool axl__kernel_compatible(const struct axl__kernel_id *k,
                            const struct axl__device *d)
{
    const struct axl__image *img = axl__image_at(k->image);
    if (img->kind == AXL__IMAGE_BUILTIN)
        return img->device == AXL__SLOT(DEVICE, d) && axl__dev_runs_kernels(d);
    for (uint8_t a = 0; a < k->nargs; a++)
        if (k->args[a].is_mem > 1)
            return false; /* streams and local memory: not from a host */
    if (!axl__device_loads_images(d))
        return false;
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
    axl_status st;
    struct axl__device *d =
        axl__enter_get_out(fn, "device", AXL__POOL_DEVICE, device.id, &st,
                           AXL__OUT(compatible));
    if (!d)
        return st;
    bool all = true;
    for (uint32_t i = 0; i < count && st == AXL_SUCCESS; i++) {
        struct axl__kernel_id *k = axl__get_kernel_id(fn, ids[i], &st);
        if (k && !axl__kernel_compatible(k, d))
            all = false;
    }
    if (st == AXL_SUCCESS)
        *compatible = all;
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
    if (d->builtin)
        n = axl__image_kernel_ids(axl__image_at((uint16_t)(d->builtin - 1)),
                                  ids, AXL_MAX_KERNEL_IDS);
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
    for (uint16_t s = 0; d->builtin && s < p->capacity; s++) {
        const struct axl__kernel_id *k = axl__kernel_id_at(s);
        if (!axl__pool_is_live(p, s) || k->image != d->builtin - 1u)
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

/* ---- The design a device carries ------------------------------------------------- */

/* Run slots and bank map for the design now on the device (lock held). */
/* Banks of the device an argument of a unit reaches (all of them when the
 * image says nothing about connectivity). */
uint64_t axl__arg_banks(const struct axl__device *d,
                        const struct axl__image *img, uint32_t ip,
                        uint32_t arg)
{
    if (img->x.connection_count == 0)
        return ~(uint64_t)0;
    uint64_t mem = axl_xclbin_arg_banks(&img->x, ip, arg), banks = 0;
    for (uint32_t m = 0; m < 64; m++)
        if ((mem >> m & 1) && d->bank_of_mem[m] != 0xFF)
            banks |= (uint64_t)1 << d->bank_of_mem[m];
    return banks;
}

/* Each unit's banks per argument, in the kernel id's argument order
 * (sorted by id), so launches never walk CONNECTIVITY. */
static void unit_banks(struct axl__device *d, const struct axl__image *img,
                       struct axl__cu *cu)
{
    axl_xclbin_kernel ki;
    axl_xclbin_get_kernel(&img->x, cu->kernel_index, &ki);
    uint32_t ids[AXL_MAX_KERNEL_ARGS], n = 0;
    for (uint32_t a = 0; a < ki.arg_count && n < AXL_MAX_KERNEL_ARGS; a++) {
        axl_xclbin_arg arg;
        axl_xclbin_get_kernel_arg(&img->x, &ki, a, &arg);
        uint32_t at = n++;
        while (at && ids[at - 1] > arg.index) {
            ids[at] = ids[at - 1];
            at--;
        }
        ids[at] = arg.index;
    }
    for (uint32_t i = 0; i < n; i++)
        cu->banks[i] = axl__arg_banks(d, img, cu->ip, ids[i]);
}

static void link_units(struct axl__device *d)
{
    for (uint8_t i = 0; i < d->ncus; i++) {
        uint8_t j = i;
        do
            j = (uint8_t)(j + 1 == d->ncus ? 0 : j + 1);
        while (d->cus[j].kernel_index != d->cus[i].kernel_index);
        d->cus[i].next_same = j;
    }
}

static void adopt_design(struct axl__device *d, const struct axl__image *img)
{
    memset(d->bank_of_mem, 0xFF, sizeof d->bank_of_mem);
    for (uint32_t b = 0; b < d->info.bank_count; b++) {
        axl_hal_bank bank;
        if (axl__dev_bank(d, b, &bank) == AXL_SUCCESS &&
            bank.image_index < sizeof d->bank_of_mem)
            d->bank_of_mem[bank.image_index] = (uint8_t)b;
    }
    d->ncus = 0;
    d->compute_units = 0;
    for (uint32_t i = 0; img && i < img->x.ip_count; i++) {
        axl_xclbin_ip ip;
        axl_xclbin_get_ip(&img->x, i, &ip);
        if (ip.type != AXL_XCLBIN_IP_KERNEL)
            continue;
        d->compute_units++;
        if (d->ncus == AXL_MAX_DEVICE_CUS)
            continue;
        for (uint32_t k = 0; k < img->x.kernel_count; k++) {
            axl_xclbin_kernel ki;
            axl_xclbin_get_kernel(&img->x, k, &ki);
            if (ki.name.len == ip.kernel.len &&
                !memcmp(ki.name.ptr, ip.kernel.ptr, ip.kernel.len)) {
                struct axl__cu *cu = &d->cus[d->ncus++];
                memset(cu, 0, sizeof *cu);
                cu->kernel_index = (uint16_t)k;
                cu->ip = (uint16_t)i;
                for (uint8_t o = 0; o + 1u < d->ncus; o++)
                    cu->ordinal += d->cus[o].kernel_index == k;
                unit_banks(d, img, cu);
                break;
            }
        }
    }
    link_units(d);
}

/* At start-up: the design the device came with (lock held). A design the
 * reader rejects leaves the device without built-in kernels, and says why
 * in its name. */
void axl__device_builtin(struct axl__device *d)
{
    const axl_hal_device_info *i = &d->info;
    struct axl__image *img = NULL;
    if (i->builtin_image) {
        axl_xclbin x;
        char why[96];
        axl_status st = axl_xclbin_open(&x, i->builtin_image,
                                        i->builtin_image_size, why, sizeof why);
        if (st == AXL_SUCCESS)
            st = axl__image_add("axl_init", &x, AXL__IMAGE_BUILTIN,
                                AXL__SLOT(DEVICE, d), &img);
        else
            axl_format(d->info.name + strlen(d->info.name),
                       sizeof d->info.name - strlen(d->info.name),
                       " (design rejected: %s)", why);
        if (img)
            d->builtin = d->loaded = (uint16_t)(AXL__SLOT(IMAGE, img) + 1);
    }
    adopt_design(d, img);
}

/* No command in flight on d, no run out on any of its units (a run given
 * up at its timeout has completed its command, but its unit, and the run
 * the port will report, stay until the port gives it back: programming
 * replaces the unit table), and no other thread programming it. */
static bool device_quiet(const void *arg)
{
    const struct axl__device *d = arg;
    if (d->inflight != 0 || d->programming)
        return false;
    for (uint8_t i = 0; i < d->ncus; i++)
        if (d->cus[i].cmd)
            return false;
    return true;
}

/* Programs device d with an image unless it carries it (lock held; waits
 * for the commands on the device first, and drops the lock while the port
 * works). */
axl_status axl__device_program(const char *fn, struct axl__device *d,
                               struct axl__image *img, axl_status fail_as,
                               char *log, size_t log_size)
{
    uint16_t want = (uint16_t)(AXL__SLOT(IMAGE, img) + 1);
    while (d->loaded != want) {
        axl__wait_until_pred(device_quiet, d);
        if (d->loaded == want)
            break;
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
        axl_port_unlock();
        for (uint8_t c = 0; c < nold; c++)
            axl__dev_cu_close(d, old[c]);
        char why[AXL_MESSAGE_MAX] = "";
        axl_status st = axl__dev_load_image(d, &img->x, why, sizeof why);
        axl_hal_device_info info;
        if (st == AXL_SUCCESS)
            st = axl__dev_describe(d, &info);
        axl_port_lock();
        img->refs--;
        d->programming = false;
        if (st != AXL_SUCCESS) {
            d->loaded = 0; /* what it carries now is unknown */
            adopt_design(d, NULL);
            if (axl__rt.waiters)
                axl_port_wake(AXL_PORT_CHANNEL_DONE);
            return axl__fail(fn, fail_as, "programming %s failed (%s): %s",
                             d->info.name, axl_status_name(st),
                             why[0] ? why : axl_last_message());
        }
        info.builtin_image = d->info.builtin_image;
        info.builtin_image_size = d->info.builtin_image_size;
        d->info = info;
        d->loaded = want;
        adopt_design(d, img);
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
