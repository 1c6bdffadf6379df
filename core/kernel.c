/*
 * kernel.c - kernel objects (SYCL's kernel class): got from an executable
 * bundle, they hold it (and so its images and context) while the
 * application or a command in flight references them; their info and
 * argument descriptions come from the kernel id's metadata (image.c reads
 * it).
 */
#include <string.h>

#include "rt.h"
#include "image.h"

/* ---- Kernels ---------------------------------------------------------------------------- */

/* The kernel's slot is freed; units holding its memos' arguments forget
 * them, as its next object starts its memos' seqs again. */
static void kernel_free(struct axl__kernel *k)
{
    axl__launch_memo_drop(UINT16_MAX, AXL__SLOT(KERNEL, k));
    axl__bundle_unhold(axl__bundle_at(k->bundle));
    axl__pool_free(AXL__POOL(KERNEL), k);
}

void axl__kernel_unhold(struct axl__kernel *k)
{
    if (--k->holds || k->refs)
        return;
    kernel_free(k);
}

axl_status axl_kernel_retain(axl_kernel kernel)
{
    static const char fn[] = "axl_kernel_retain";
    axl_status st;
    struct axl__kernel *k =
        axl__enter_get(fn, "kernel", AXL__POOL_KERNEL, kernel.id, &st);
    if (!k)
        return st;
    k->refs++;
    axl__leave();
    return st;
}

axl_status axl_kernel_release(axl_kernel kernel)
{
    static const char fn[] = "axl_kernel_release";
    axl_status st;
    struct axl__kernel *k =
        axl__enter_get(fn, "kernel", AXL__POOL_KERNEL, kernel.id, &st);
    if (!k)
        return st;
    if (--k->refs == 0) {
        if (k->holds) {
            axl__pool_retire(AXL__POOL(KERNEL), k);
        } else {
            kernel_free(k);
        }
    }
    axl__leave();
    return st;
}

axl_status axl_kernel_get_id(axl_kernel kernel, axl_kernel_id *id)
{
    static const char fn[] = "axl_kernel_get_id";
    axl_status st;
    struct axl__kernel *k =
        axl__enter_get_out(fn, "kernel", AXL__POOL_KERNEL, kernel.id, &st,
                           AXL__OUT(id));
    if (!k)
        return st;
    const struct axl__kernel_id *kid = axl__kernel_id_at(k->kid);
    if (axl__image_at(kid->image)->kind == AXL__IMAGE_SOURCE)
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "kernel %s was built from source: it has no kernel_id "
                       "(seed 003)",
                       kid->name);
    else
        id->id = axl__pool_handle(AXL__POOL(KERNEL_ID), kid);
    axl__leave();
    return st;
}

axl_status axl_kernel_get_info(axl_kernel kernel, axl_kernel_info *info)
{
    static const char fn[] = "axl_kernel_get_info";
    axl_status st;
    struct axl__kernel *k =
        axl__enter_get_out(fn, "kernel", AXL__POOL_KERNEL, kernel.id, &st,
                           AXL__OUT(info));
    if (!k)
        return st;
    const struct axl__kernel_id *kid = axl__kernel_id_at(k->kid);
    axl_xclbin_kernel ki;
    axl_xclbin_get_kernel(&axl__image_at(kid->image)->x, kid->index, &ki);
    memset(info, 0, sizeof *info);
    axl_format(info->name, sizeof info->name, "%s", kid->name);
    info->num_args = kid->nargs;
    info->compute_units = ki.cu_count;
    info->cu_mask = k->cus ? k->cus
                           : ki.cu_count >= 32
                                 ? UINT32_MAX
                                 : ((uint32_t)1 << ki.cu_count) - 1u;
    /* What a launch checks (axl__kernel_prepare): the design is there. */
    const struct axl__bundle *kb = axl__bundle_at(k->bundle);
    info->runnable = kb->ndev > 0;
    for (uint8_t i = 0; i < kb->ndev; i++) {
        const struct axl__device *d = axl__device_at(kb->dev[i]);
        if (axl__kernel_compatible(kid, d))
            info->runnable &= d->loaded == kid->image + 1u;
    }
    axl__leave();
    return st;
}

/* Kernel k's unit cu in its image: ki and its IP_LAYOUT index (lock
 * held), or a failure naming how many units there are. */
static axl_status kernel_cu(const char *fn, const struct axl__kernel_id *kid,
                            uint32_t cu, axl_xclbin_kernel *ki,
                            uint32_t *ip)
{
    const axl_xclbin *x = &axl__image_at(kid->image)->x;
    axl_xclbin_get_kernel(x, kid->index, ki);
    if (cu >= ki->cu_count ||
        axl_xclbin_get_kernel_cu(x, ki, cu, ip) != AXL_SUCCESS)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "kernel %s has %u compute units; there is no unit %u",
                         kid->name, (unsigned)ki->cu_count, (unsigned)cu);
    return AXL_SUCCESS;
}

axl_status axl_kernel_get_cu_info(axl_kernel kernel, uint32_t cu,
                                  axl_kernel_cu_info *info)
{
    static const char fn[] = "axl_kernel_get_cu_info";
    if (!info)
        return axl__null(fn, "info");
    axl_status st;
    struct axl__kernel *k =
        axl__enter_get(fn, "kernel", AXL__POOL_KERNEL, kernel.id, &st);
    if (!k)
        return st;
    const struct axl__kernel_id *kid = axl__kernel_id_at(k->kid);
    axl_xclbin_kernel ki;
    uint32_t ip;
    st = kernel_cu(fn, kid, cu, &ki, &ip);
    if (st == AXL_SUCCESS) {
        axl_xclbin_ip x;
        axl_xclbin_get_ip(&axl__image_at(kid->image)->x, ip, &x);
        memset(info, 0, sizeof *info);
        axl_format(info->name, sizeof info->name, "%.*s",
                   (int)x.instance.len, x.instance.ptr);
        info->ip_index = ip;
        info->base_address = x.base_address;
    }
    axl__leave();
    return st;
}

axl_status axl_kernel_get_arg_memories(axl_kernel kernel, uint32_t cu,
                                       uint32_t index, uint64_t *memories,
                                       char *tag, size_t tag_size)
{
    static const char fn[] = "axl_kernel_get_arg_memories";
    if (!memories || (tag_size && !tag))
        return axl__null(fn, "memories or tag");
    axl_status st;
    struct axl__kernel *k =
        axl__enter_get(fn, "kernel", AXL__POOL_KERNEL, kernel.id, &st);
    if (!k)
        return st;
    const struct axl__kernel_id *kid = axl__kernel_id_at(k->kid);
    const axl_xclbin *x = &axl__image_at(kid->image)->x;
    axl_xclbin_kernel ki;
    uint32_t ip;
    if (index >= kid->nargs)
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "kernel %s has %u arguments; there is no argument %u",
                       kid->name, (unsigned)kid->nargs, (unsigned)index);
    else
        st = kernel_cu(fn, kid, cu, &ki, &ip);
    if (st == AXL_SUCCESS) {
        uint64_t m = axl_xclbin_arg_banks(x, ip, kid->args[index].id);
        *memories = m;
        if (tag_size)
            tag[0] = '\0';
        axl_xclbin_mem mem;
        uint32_t low = 0;
        while (m && !(m >> low & 1))
            low++;
        if (m && tag_size && axl_xclbin_get_mem(x, low, &mem) == AXL_SUCCESS)
            axl_format(tag, tag_size, "%.*s", (int)mem.tag.len, mem.tag.ptr);
    }
    axl__leave();
    return st;
}

axl_status axl_kernel_get_arg_info(axl_kernel kernel, uint32_t index,
                                   axl_kernel_arg_info *info)
{
    static const char fn[] = "axl_kernel_get_arg_info";
    axl_status st;
    struct axl__kernel *k =
        axl__enter_get_out(fn, "kernel", AXL__POOL_KERNEL, kernel.id, &st,
                           AXL__OUT(info));
    if (!k)
        return st;
    const struct axl__kernel_id *kid = axl__kernel_id_at(k->kid);
    if (index >= kid->nargs) {
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "kernel %s has %u arguments; there is no argument %u",
                       kid->name, (unsigned)kid->nargs, (unsigned)index);
    } else {
        const axl_xclbin *x = &axl__image_at(kid->image)->x;
        axl_xclbin_kernel ki;
        axl_xclbin_get_kernel(x, kid->index, &ki);
        memset(info, 0, sizeof *info);
        info->index = kid->args[index].id;
        info->kind = kid->args[index].is_mem ? AXL_ARG_BUFFER : AXL_ARG_SCALAR;
        info->size = kid->args[index].size;
        for (uint32_t a = 0; a < ki.arg_count; a++) {
            axl_xclbin_arg arg;
            axl_xclbin_get_kernel_arg(x, &ki, a, &arg);
            if (arg.index != info->index)
                continue;
            axl_format(info->name, sizeof info->name, "%.*s",
                       (int)arg.name.len, arg.name.ptr);
            info->offset = arg.offset;
        }
    }
    axl__leave();
    return st;
}

/* ---- Kernels on some of their units ------------------------------------------------ */

/* Instance name of kid's unit cu (IP_LAYOUT "vadd:vadd_1" -> "vadd_1"). */
static axl_str unit_name(const struct axl__kernel_id *kid, uint32_t cu)
{
    const axl_xclbin *x = &axl__image_at(kid->image)->x;
    axl_xclbin_kernel ki;
    uint32_t ip;
    axl_xclbin_ip info;
    axl_xclbin_get_kernel(x, kid->index, &ki);
    if (axl_xclbin_get_kernel_cu(x, &ki, cu, &ip) != AXL_SUCCESS ||
        axl_xclbin_get_ip(x, ip, &info) != AXL_SUCCESS)
        return (axl_str){NULL, 0};
    return info.instance;
}

/* The units a kernel object can be given (bit = ordinal): its image's, up
 * to 32, within `within` (0: all). */
static uint32_t units_of(const struct axl__kernel_id *kid, uint32_t within)
{
    axl_xclbin_kernel ki;
    axl_xclbin_get_kernel(&axl__image_at(kid->image)->x, kid->index, &ki);
    uint32_t n = ki.cu_count < 32 ? ki.cu_count : 32;
    uint32_t all = n == 32 ? UINT32_MAX : ((uint32_t)1 << n) - 1u;
    return within ? all & within : all;
}

/* "vadd_1, vadd_2": the names of the units in mask, for messages. */
AXL__MESSAGE_ONLY static const char *unit_list(const struct axl__kernel_id *kid,
                                               uint32_t mask, char *buf,
                                               size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (uint32_t cu = 0; cu < 32 && used + 1 < size; cu++) {
        if (!(mask >> cu & 1u))
            continue;
        axl_str s = unit_name(kid, cu);
        used += axl_format(buf + used, size - used, "%s%.*s",
                           used ? ", " : "", (int)s.len, s.ptr);
        if (used >= size)
            used = size - 1;
    }
    return buf;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t';
}

/* The units spec names ("vadd:{vadd_1,vadd_2}", "{vadd_1,vadd_2}",
 * "vadd_1,vadd_2"), as a mask of ordinals, each one of `within` (0: all
 * units of the kernel); lock held. */
static axl_status parse_units(const char *fn, const struct axl__kernel_id *kid,
                              uint32_t within, const char *spec,
                              uint32_t *mask)
{
    const uint32_t have = units_of(kid, within);
    char list[160];
#define UNITS unit_list(kid, have, list, sizeof list)
    const char *p = spec;
    const char *colon = strchr(spec, ':');
    if (colon) {
        size_t n = (size_t)(colon - spec);
        if (n != strlen(kid->name) || memcmp(spec, kid->name, n) != 0)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "\"%s\" names kernel %.*s; this kernel is %s "
                             "(its units: %s)",
                             spec, (int)n, spec, kid->name, UNITS);
        p = colon + 1;
    }
    while (is_space(*p))
        p++;
    const bool brace = *p == '{';
    if (brace)
        p++;
    uint32_t m = 0;
    for (;;) {
        while (is_space(*p))
            p++;
        const char *b = p;
        while (*p && *p != ',' && *p != '}')
            p++;
        const char *e = p;
        while (e > b && is_space(e[-1]))
            e--;
        const size_t len = (size_t)(e - b);
        if (!len)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "\"%s\": a unit name is missing (the units of "
                             "%s: %s)",
                             spec, kid->name, UNITS);
        uint32_t cu = 0;
        for (; cu < 32; cu++) {
            if (!(have >> cu & 1u))
                continue;
            axl_str s = unit_name(kid, cu);
            if (s.len == len && memcmp(s.ptr, b, len) == 0)
                break;
        }
        if (cu == 32)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "kernel %s has no compute unit %.*s%s (its "
                             "units: %s)",
                             kid->name, (int)len, b,
                             within ? " among the units of this kernel object"
                                    : "",
                             UNITS);
        m |= (uint32_t)1 << cu;
        if (*p != ',')
            break;
        p++;
    }
    if (brace && *p++ != '}')
        return axl__fail(fn, AXL_ERR_INVALID,
                         "\"%s\": the list of units has no closing '}'",
                         spec);
    while (is_space(*p))
        p++;
    if (*p)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "\"%s\": text after the list of units", spec);
#undef UNITS
    /* All the kernel's units: no restriction (the launch path's plan). */
    *mask = m == units_of(kid, 0) ? 0 : m;
    return AXL_SUCCESS;
}

/* A new kernel object of kid from bundle b on units `cus` (lock held). */
static axl_status kernel_on(const char *fn, uint16_t bundle, uint16_t kid,
                            uint32_t cus, axl_kernel *out)
{
    struct axl__kernel *kn = axl__pool_alloc(AXL__POOL(KERNEL));
    if (!kn)
        return axl__pool_full(fn, AXL__POOL_KERNEL);
    kn->refs = 1;
    kn->bundle = bundle;
    kn->kid = kid;
    kn->cus = cus;
    axl__bundle_at(bundle)->holds++;
    out->id = AXL__HANDLE(KERNEL, kn);
    return AXL_SUCCESS;
}

axl_status axl_kernel_select_units(axl_kernel kernel, const char *units,
                                   axl_kernel *selected)
{
    static const char fn[] = "axl_kernel_select_units";
    if (!units)
        return axl__null(fn, "units");
    axl_status st;
    struct axl__kernel *k =
        axl__enter_get_out(fn, "kernel", AXL__POOL_KERNEL, kernel.id, &st,
                           AXL__OUT(selected));
    if (!k)
        return st;
    uint32_t mask;
    st = parse_units(fn, axl__kernel_id_at(k->kid), k->cus, units, &mask);
    if (st == AXL_SUCCESS)
        st = kernel_on(fn, k->bundle, k->kid, mask ? mask : k->cus, selected);
    axl__leave();
    return st;
}

axl_status axl_kernel_bundle_get_kernel_by_name(axl_kernel_bundle bundle,
                                                const char *name,
                                                axl_kernel *kernel)
{
    static const char fn[] = "axl_kernel_bundle_get_kernel_by_name";
    if (!name)
        return axl__null(fn, "name");
    axl_status st;
    struct axl__bundle *b =
        axl__enter_get_out(fn, "kernel bundle", AXL__POOL_KERNEL_BUNDLE,
                           bundle.id, &st, AXL__OUT(kernel));
    if (!b)
        return st;
    const char *colon = strchr(name, ':');
    const size_t n = colon ? (size_t)(colon - name) : strlen(name);
    const axl__pool *p = AXL__POOL(KERNEL_ID);
    const struct axl__kernel_id *found = NULL;
    char list[160];
    size_t used = 0;
    list[0] = '\0';
    for (uint16_t s = 0; s < p->capacity && !found; s++) {
        const struct axl__kernel_id *k = axl__kernel_id_at(s);
        if (b->built_from_source || !axl__pool_is_live(p, s) ||
            !axl__bundle_has_kernel(b, k, NULL))
            continue;
        if (strlen(k->name) == n && memcmp(k->name, name, n) == 0)
            found = k;
        else if (AXL_MESSAGES && used + 1 < sizeof list)
        {
            used += axl_format(list + used, sizeof list - used, "%s%s",
                               used ? ", " : "", k->name);
            if (used >= sizeof list)
                used = sizeof list - 1;
        }
    }
    if (b->state != AXL_BUNDLE_EXECUTABLE)
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "get_kernel needs an executable bundle");
    else if (!found)
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "the bundle has no kernel %.*s (its kernels: %s)",
                       (int)n, name, used ? list : "none");
    else {
        uint32_t mask = 0;
        if (colon)
            st = parse_units(fn, found, 0, name, &mask);
        if (st == AXL_SUCCESS)
            st = kernel_on(fn, AXL__SLOT(KERNEL_BUNDLE, b),
                           AXL__SLOT(KERNEL_ID, found), mask, kernel);
    }
    axl__leave();
    return st;
}
