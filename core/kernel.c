/*
 * kernel.c - kernel objects (SYCL's kernel class): got from an executable
 * bundle, they hold it (and so its images and context) while the
 * application or a command in flight references them; their info and
 * argument descriptions come from the kernel id's metadata (kernel_id.c
 * reads it). Each keeps the memo of its last launch by axl_queue_single_task
 * (axl__launch_memo in rt.h): launch.c's checker skips what it vouches for.
 */
#include <string.h>

#include "rt.h"
#include "device_priv.h"
#include "queue_priv.h"
#include "buffer_priv.h"
#include "sched_priv.h"
#include "handler_priv.h"
#include "kernel.h"
#include "image.h"
#include "bundle.h"
#include "place.h"
#include "devops.h"

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
    AXL__ENTER(kernel, k, kernel);
    k->refs++;
    axl__leave();
    return st;
}

axl_status axl_kernel_release(axl_kernel kernel)
{
    static const char fn[] = "axl_kernel_release";
    AXL__ENTER(kernel, k, kernel);
    if (--k->refs == 0) {
        axl__rt.kernels_gone++; /* its handle stops working */
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
    AXL__ENTER_OUT(kernel, k, kernel, id);
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
    AXL__ENTER_OUT(kernel, k, kernel, info);
    const struct axl__kernel_id *kid = axl__kernel_id_at(k->kid);
    axl_xclbin_kernel ki;
    axl_xclbin_get_kernel(&axl__image_at(kid->image)->x, kid->index, &ki);
    memset(info, 0, sizeof *info);
    axl_format(info->name, sizeof info->name, "%s", kid->name);
    info->num_args = kid->nargs;
    info->compute_units = ki.cu_count;
    info->control = ki.control;
    info->cu_mask = k->cus ? k->cus
                           : ki.cu_count >= 32
                                 ? UINT32_MAX
                                 : ((uint32_t)1 << ki.cu_count) - 1u;
    /* What a launch checks (axl__kernel_prepare): the design is there,
     * or the device loads it on demand (designs-design.md 2.4). */
    const struct axl__bundle *kb = axl__bundle_at(k->bundle);
    info->runnable = info->loaded = kb->ndev > 0;
    info->slot = -1;
    for (uint8_t i = 0; i < kb->ndev; i++) {
        const struct axl__device *d = axl__device_at(kb->dev[i]);
        if (!axl__kernel_compatible(kid, d))
            continue;
        const bool carries = axl__device_carries(d, kid->image);
#if AXL_FEATURE_DESIGN_SWAP
        /* The slot it is in on its first device with a shell (3.3). */
        const uint8_t r = d->nslots ? axl__slot_carrying(d, kid->image) : 0;
        if (r && info->slot < 0)
            info->slot = (int32_t)r - 1;
        info->loaded &= carries;
        if (axl__dev_swaps(d))
            continue;
#endif
        info->runnable &= carries;
    }
#if !AXL_FEATURE_DESIGN_SWAP
    info->loaded = info->runnable; /* nothing swaps: it runs where loaded */
#endif
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

static axl_str unit_name(const struct axl__kernel_id *kid, uint32_t cu);
static uint32_t units_of(const struct axl__kernel_id *kid, uint32_t within);
static const char *unit_list(const struct axl__kernel_id *kid, uint32_t mask,
                             char *buf, size_t size);

/* A question about unit cu of a kernel object restricted to `cus`, which
 * cu is not one of: the failure names the units it runs on. */
static axl_status not_its_unit(const char *fn, const struct axl__kernel_id *kid,
                               uint32_t cus, uint32_t cu)
{
    char list[96];
    uint32_t first = 0;
    while (first < 32 && !(cus >> first & 1u))
        first++;
    (void)list;
    return axl__fail(fn, AXL_ERR_INVALID,
                     "unit %u of kernel %s: this kernel object runs on %s "
                     "(unit %u%s) only (axl_kernel_get_arg_bank answers "
                     "for its units)",
                     (unsigned)cu, kid->name,
                     AXL__TEXT(unit_list(kid, cus, list, sizeof list)),
                     (unsigned)first, (cus & (cus - 1)) ? " and more" : "");
}

axl_status axl_kernel_get_cu_info(axl_kernel kernel, uint32_t cu,
                                  axl_kernel_cu_info *info)
{
    static const char fn[] = "axl_kernel_get_cu_info";
    if (!info)
        return axl__null(fn, "info");
    AXL__ENTER(kernel, k, kernel);
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
    AXL__ENTER(kernel, k, kernel);
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
    if (st == AXL_SUCCESS && k->cus && (cu >= 32 || !(k->cus >> cu & 1u)))
        st = not_its_unit(fn, kid, k->cus, cu);
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

/* "vadd_1: DDR[0]; vadd_3: PLRAM[0]": the memories argument `arg` (by
 * id) reaches from each unit in mask, for messages (AXL_MESSAGE_DETAIL:
 * a diagnostic a small firmware goes without). */
#if AXL_MESSAGE_DETAIL
static const char *reach_list(const struct axl__kernel_id *kid,
                                                uint32_t mask, uint32_t arg,
                                                char *buf, size_t size)
{
    const axl_xclbin *x = &axl__image_at(kid->image)->x;
    axl_xclbin_kernel ki;
    axl_xclbin_get_kernel(x, kid->index, &ki);
    size_t used = 0;
    buf[0] = '\0';
    for (uint32_t cu = 0; cu < 32 && used + 1 < size; cu++) {
        uint32_t ip;
        if (!(mask >> cu & 1u) ||
            axl_xclbin_get_kernel_cu(x, &ki, cu, &ip) != AXL_SUCCESS)
            continue;
        axl_str u = unit_name(kid, cu);
        used += axl_format(buf + used, size - used, "%s%.*s:", used ? "; " : "",
                           (int)u.len, u.ptr);
        uint64_t m = axl_xclbin_arg_banks(x, ip, arg);
        for (uint32_t b = 0; b < 64 && used + 1 < size; b++) {
            axl_xclbin_mem mem;
            if ((m >> b & 1) && axl_xclbin_get_mem(x, b, &mem) == AXL_SUCCESS)
                used += axl_format(buf + used, size - used, " %.*s",
                                   (int)mem.tag.len, mem.tag.ptr);
        }
        if (used >= size)
            used = size - 1;
    }
    return buf;
}
#endif

axl_status axl_kernel_get_arg_bank(axl_kernel kernel, uint32_t index,
                                   axl_device device,
                                   axl_kernel_arg_bank *bank)
{
    static const char fn[] = "axl_kernel_get_arg_bank";
    AXL__ENTER_OUT(kernel, k, kernel, bank);
    const struct axl__kernel_id *kid = axl__kernel_id_at(k->kid);
    const axl_xclbin *x = &axl__image_at(kid->image)->x;
    struct axl__device *d = NULL;
    if (index >= kid->nargs) {
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "kernel %s has %u arguments; there is no argument %u",
                       kid->name, (unsigned)kid->nargs, (unsigned)index);
        goto out;
    }
    const uint32_t id = kid->args[index].id;
    char name[48] = "";
    axl_xclbin_kernel ki;
    axl_xclbin_get_kernel(x, kid->index, &ki);
    for (uint32_t a = 0; AXL_MESSAGES && a < ki.arg_count; a++) {
        axl_xclbin_arg arg;
        if (axl_xclbin_get_kernel_arg(x, &ki, a, &arg) == AXL_SUCCESS &&
            arg.index == id)
            axl_format(name, sizeof name, "%.*s", (int)arg.name.len,
                       arg.name.ptr);
    }
    if (kid->args[index].is_mem != 1) {
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "argument %u (%s) of %s is a scalar: it has no bank",
                       (unsigned)id, name, kid->name);
        goto out;
    }
    if (device.id == 0) {
        d = axl__device_at(axl__bundle_at(k->bundle)->dev[0]);
    } else {
        d = axl__device_get(fn, device, &st);
        if (!d)
            goto out;
    }
    /* The memories every unit of the object reaches. */
    const uint32_t units = units_of(kid, k->cus);
    uint64_t common = ~(uint64_t)0;
    for (uint32_t cu = 0; cu < 32 && x->connection_count; cu++) {
        uint32_t ip;
        if ((units >> cu & 1u) &&
            axl_xclbin_get_kernel_cu(x, &ki, cu, &ip) == AXL_SUCCESS)
            common &= axl_xclbin_arg_banks(x, ip, id);
    }
    if (!common) {
#if AXL_MESSAGE_DETAIL
        char list[128];
        st = axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                       "argument %u (%s) of %s: its units reach no memory in "
                       "common (%s)",
                       (unsigned)id, name, kid->name,
                       reach_list(kid, units, id, list, sizeof list));
#else
        st = axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                       "argument %u (%s) of %s: its units reach no memory in "
                       "common",
                       (unsigned)id, name, kid->name);
#endif
        goto out;
    }
    uint32_t low = 0;
    while (!(common >> low & 1))
        low++;
    memset(bank, 0, sizeof *bank);
    bank->memory = low;
    bank->memories = x->connection_count ? common : 0;
    axl_xclbin_mem mem;
    if (axl_xclbin_get_mem(x, low, &mem) == AXL_SUCCESS)
        axl_format(bank->tag, sizeof bank->tag, "%.*s", (int)mem.tag.len,
                   mem.tag.ptr);
    bank->bank = UINT32_MAX;
    const struct axl__placement *p =
        axl__place_loaded(AXL__SLOT(DEVICE, d), kid->image);
    if (p && low < sizeof p->bank_of_mem && p->bank_of_mem[low] != 0xFF)
        bank->bank = p->bank_of_mem[low];
out:
    axl__leave();
    return st;
}

axl_status axl_kernel_get_arg_info(axl_kernel kernel, uint32_t index,
                                   axl_kernel_arg_info *info)
{
    static const char fn[] = "axl_kernel_get_arg_info";
    AXL__ENTER_OUT(kernel, k, kernel, info);
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
            if (arg.address_qualifier == AXL_XCLBIN_ARG_STREAM)
                info->kind = AXL_ARG_STREAM;
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
    AXL__ENTER_OUT_ROOM(kernel, k, kernel, selected, KERNEL);
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
    AXL__ENTER_OUT_ROOM(kernel_bundle, b, bundle, kernel, KERNEL);
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

/* ---- The kernel's memo of its last launch ---------------------------------------- */

/*
 * axl_queue_single_task's group filled from its kernel's memo, when the
 * arguments are the memo's (axl__launch_memo): what the handler calls
 * would record for them (one accessor per buffer argument, in the order
 * given, at the location the memo found; the arguments in the kernel's
 * order, as axl__kernel_prepare orders them), marked with the memo's seq so
 * that the checker skips what the memo vouches for. False, the handler
 * untouched and no buffer held: the handler calls fill it, and the checker
 * checks it all (and finds and says what is wrong).
 */
bool axl__launch_recall(axl_handler *h, const struct axl__queue *q,
                        axl_kernel kernel, const axl_kernel_arg *args,
                        uint32_t nargs)
{
    struct axl__kernel *kn = axl__pool_get(AXL__POOL(KERNEL), kernel.id);
    if (!kn)
        return false;
    const struct axl__launch_memo *mm = &kn->memo;
    const axl__pool *bp = AXL__POOL(BUFFER);
    _Static_assert(offsetof(struct axl__queue, device) ==
                       offsetof(struct axl__queue, context) + 2,
                   "the memo compares a queue's context and device at once");
#if AXL_FEATURE_GRAPHS
    /* With the queue's graph (none: no_graph's 0) in the same compare: a
     * queue that records is never given a memo's group (axl__submit's
     * check of a group filled by the handler calls records it). */
    _Static_assert(offsetof(struct axl__queue, graph) ==
                           offsetof(struct axl__queue, context) + 4 &&
                       offsetof(struct axl__queue, graph_pad) ==
                           offsetof(struct axl__queue, context) + 6 &&
                       offsetof(struct axl__launch_memo, no_graph) ==
                           offsetof(struct axl__launch_memo, context) + 4,
                   "the memo compares a queue's graph with them");
#define MEMO_QUEUE_BYTES 8
#else
#define MEMO_QUEUE_BYTES 4
#endif
    /* A kernel restricted to some units (axl_kernel_select_units, maybe
     * since the memo was made) is checked in full. */
    if (!mm->holds || kn->cus || mm->nargs != nargs ||
        memcmp(&mm->context, &q->context, MEMO_QUEUE_BYTES) != 0)
        return false;
#undef MEMO_QUEUE_BYTES
    /* The design the memo's launch found on the device, not being
     * replaced (the checker waits, or says what is wrong). */
    const struct axl__device *d = axl__device_at(q->device);
    if (d->programming || !axl__device_carries(d, mm->image))
        return false;
    unsigned nacc = 0, used = 0;
    struct axl__required *r = h->acc; /* the next accessor */
    for (uint32_t i = 0; i < nargs; i++) {
        const axl_kernel_arg *a = &args[i];
        const struct axl__memo_arg *k = &mm->arg[i];
        const int g = k->given; /* the id as given; -1: the position */
        if (a->index != (uint32_t)g)
            goto miss;
        const unsigned m = g < 0 ? i : (unsigned)g;
        struct axl__karg *ka = &h->u.kernel.args[m];
        if (!k->mode) { /* a scalar: of the same size (so not a buffer) */
            if (a->size != k->what ||
                (k->what > sizeof a->scalar && !a->value))
                goto miss;
            const void *v = axl__arg_bytes(a);
            if (k->what == 4) /* most scalars: a few moves, not a call */
                memcpy(h->kbytes + used, v, 4);
            else
                memcpy(h->kbytes + used, v, k->what);
            ka->id = (uint16_t)m;
            ka->acc = 0;
            ka->off = (uint16_t)used;
            ka->size = (uint16_t)k->what;
            used += k->what;
            continue;
        }
        if (a->buffer.id != k->what || a->mode != k->given_mode ||
            a->region || axl__arg_is_scalar(a))
            goto miss;
        /* Validated by the handle's generation: a released buffer's handle
         * is stale at once (its kind and slot were checked when the memo
         * was made). */
        const uint16_t vs = AXL__HANDLE_SLOT(k->what);
        if (bp->link[vs] != AXL__SLOT_LIVE ||
            bp->gen[vs] != ((k->what >> AXL__HANDLE_GEN_SHIFT) &
                             AXL__HANDLE_GEN_MASK))
            goto miss;
        struct axl__buffer *view = axl__buffer_at(vs);
        struct axl__buffer *b = axl__buffer_base(view);
        /* Nothing to make host storage for (axl__access_prepare would). */
        if (!(b->host || b->loc[k->loc].ver == b->cur))
            goto miss;
        view->holds++; /* the handler's, as the handler calls hold it */
        r->view = vs;
        r->buf = view;
        r->base = b;
        /* no_init in the mode (6, 7) is the accessor's flag */
        r->mode = k->mode & AXL_ACCESS_READ_WRITE;
        r->flags = k->mode >> 2 ? AXL_ACCESS_NO_INIT : 0;
        r->off = 0; /* (on_device and whole are read by the checks the
                       memo skips, and region by data commands only) */
        r->size = view->size;
        r->loc = k->loc;
        ka->id = (uint16_t)m;
        ka->acc = (uint8_t)(nacc + 1);
        ka->off = 0;
        ka->size = 0;
        nacc++;
        r++;
    }
    h->nacc = (uint8_t)nacc;
    h->kbytes_used = (uint16_t)used;
    h->u.kernel.nargs = (uint8_t)nargs;
    h->memo = mm->seq;
    h->kernel = kernel.id;
    h->u.kernel.kid = kn->kid;
    h->u.kernel.kernel = AXL__HANDLE_SLOT(kernel.id);
    h->u.kernel.timeout_ns = q->timeout_ns; /* single_task sets none */
    h->u.kernel.memo = mm->seq;
    h->u.kernel.pipe = 0; /* a memo is never of a stream kernel */
    h->kind = AXL__CMD_KERNEL;
    h->nactions = 1;
    return true;
miss:
    for (unsigned i = 0; i < nacc; i++)
        h->acc[i].buf->holds--;
    return false;
}

void axl__launch_unrecall(axl_handler *h)
{
    /* What axl__handler_set_args and axl_handler_single_task leave: each
     * argument by id (the memo's are 0..n-1, its command arguments in that
     * order), whole accessors the checker has not placed yet, the scalars'
     * bytes where the recall copied them. The handler keeps its holds. */
    for (uint8_t i = 0; i < h->u.kernel.nargs; i++)
        h->kargs[i] = h->u.kernel.args[i];
    h->nkargs = h->u.kernel.nargs;
    for (uint8_t i = 0; i < h->nacc; i++) {
        h->acc[i].on_device = false;
        h->acc[i].whole = true;
    }
    h->memo = 0;
    h->u.kernel.memo = 0;
}

/* The units holding the hal arguments of kernel slot ks's memos forget
 * them (a memo seq can come again once the kernel slot is reused, or its
 * seq wraps). */
static void units_forget(uint16_t ks)
{
    const axl__pool *p = AXL__POOL(DEVICE);
    const axl__kernel_ref k = axl__kernel_ref_at(ks);
    for (uint16_t s = 0; s < p->capacity; s++)
        for (uint8_t i = 0; i < AXL_MAX_DEVICE_CUS; i++)
            if (axl__kernel_ref_eq(axl__device_at(s)->cus[i].memo_kernel, k))
                axl__device_at(s)->cus[i].memo_kernel = AXL__NONE(kernel);
}

/*
 * The kernel of a single_task group the checker passed remembers it
 * (axl__launch_memo), when it is plain: one argument per kernel argument
 * (so each id once), buffers without a region that the checker placed on
 * the queue's device. Called while command c, made from h, is not yet
 * dispatched: c takes the new memo's seq, so the unit it runs on keeps its
 * arguments for the next launch like it.
 */
void axl__launch_remember(const struct axl__queue *q, const axl_handler *h,
                          struct axl__command *c)
{
    struct axl__kernel *kn = axl__kernel_at(c->u.kernel.kernel);
    struct axl__launch_memo *mm = &kn->memo;
    const struct axl__kernel_id *kid = axl__kernel_id_at(kn->kid);
    const uint32_t nargs = h->nargs;
    mm->holds = false;
    if (nargs != kid->nargs || kn->cus)
        return;
    unsigned nacc = 0;
    for (uint32_t i = 0; i < nargs; i++) {
        const axl_kernel_arg *a = &h->args[i];
        struct axl__memo_arg *k = &mm->arg[i];
        const uint32_t m = axl__arg_index(a, i);
        /* the ids 0..n-1 HLS kernels have: argument m is the command's
         * argument m (axl__kernel_prepare orders them so) */
        if (m >= nargs || kid->args[m].id != m)
            return;
        k->given = a->index == AXL_ARG_POS ? -1 : (int8_t)m;
        if (axl__arg_is_scalar(a)) {
            k->what = (uint32_t)a->size;
            k->mode = 0;
            continue;
        }
        const struct axl__required *r = &h->acc[nacc++];
        if (a->region || !r->on_device || r->loc == AXL__LOC_HOST)
            return;
        k->what = a->buffer.id;
        k->mode = (uint8_t)(a->mode ? a->mode : AXL_ACCESS_READ_WRITE);
        k->given_mode = (uint8_t)a->mode;
        k->loc = r->loc;
    }
    uint32_t seq = mm->seq + 1;
    if (seq == 0) { /* wrapped: old seqs come again */
        units_forget(c->u.kernel.kernel);
        seq = 1;
    }
    mm->seq = seq;
    mm->holds = true;
    mm->nargs = (uint8_t)nargs;
    mm->device = q->device;
    mm->context = q->context;
    mm->image = kid->image;
    c->u.kernel.memo = seq;
}

void axl__launch_memo_drop(uint16_t buffer, uint16_t kernel)
{
    if (kernel != UINT16_MAX) {
        units_forget(kernel);
        return;
    }
    const axl__pool *p = AXL__POOL(KERNEL);
    for (uint16_t s = 0; s < p->capacity; s++) {
        struct axl__launch_memo *mm = &axl__kernel_at(s)->memo;
        for (uint8_t i = 0; mm->holds && i < mm->nargs; i++)
            if (mm->arg[i].mode &&
                (mm->arg[i].what & AXL__HANDLE_INDEX_MASK) == buffer + 1u)
                mm->holds = false;
    }
}
