/*
 * cu.c - compute units: the table of units a device's design gives it
 * (which kernel, which IP, the banks each argument reaches, the next unit
 * of the same kernel), made when the design is adopted so a launch never
 * walks the image's sections, and finding a unit of a kernel.
 */
#include <string.h>

#include "rt.h"
#include "image.h"
#include "devops.h"

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

/* Run slots and bank map for the design now on the device (lock held;
 * img NULL: none). */
void axl__cu_adopt(struct axl__device *d, const struct axl__image *img)
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

/* Unit `ordinal` of kernel `kernel_index` of the design d carries (lock
 * held; programming rewrites d->cus, so look again after any wait). */
struct axl__cu *axl__cu_find(struct axl__device *d, uint16_t kernel_index,
                             uint32_t ordinal)
{
    for (uint8_t i = 0; i < d->ncus; i++)
        if (d->cus[i].kernel_index == kernel_index &&
            d->cus[i].ordinal == ordinal)
            return &d->cus[i];
    return NULL;
}
