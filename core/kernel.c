/*
 * kernel.c - kernel objects (SYCL's kernel class): got from an executable
 * bundle, they hold it (and so its images and context) while the
 * application or a command in flight references them; their info and
 * argument descriptions come from the kernel id's metadata (image.c reads
 * it).
 */
#include <string.h>

#include "rt.h"

/* ---- Kernels ---------------------------------------------------------------------------- */

void axl__kernel_unhold(struct axl__kernel *k)
{
    if (--k->holds || k->refs)
        return;
    axl__bundle_unhold(axl__bundle_at(k->bundle));
    axl__pool_free(AXL__POOL(KERNEL), k);
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
            axl__bundle_unhold(axl__bundle_at(k->bundle));
            axl__pool_free(AXL__POOL(KERNEL), k);
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
