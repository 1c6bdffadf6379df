/*
 * place.c - placements (place.h): making a design's unit table and bank
 * map for a device, loading it into a region's run slots, and letting it
 * go with its design.
 */
#include <string.h>

#include "place.h"
#include "devops.h"
#include "cu.h"
#include "device_priv.h"

/* Banks of the device an argument of a unit reaches (all of them when the
 * image says nothing about connectivity). */
static uint64_t arg_banks(const struct axl__placement *p,
                          const struct axl__image *img, uint32_t ip,
                          uint32_t arg)
{
    if (img->x.connection_count == 0)
        return ~(uint64_t)0;
    uint64_t mem = axl_xclbin_arg_banks(&img->x, ip, arg), banks = 0;
    for (uint32_t m = 0; m < 64; m++)
        if ((mem >> m & 1) && p->bank_of_mem[m] != 0xFF)
            banks |= (uint64_t)1 << p->bank_of_mem[m];
    return banks;
}

/* Each unit's banks per argument the host sets, in the kernel id's
 * argument order (sorted by id) less its stream ports (the order of a
 * command's arguments, launch.c), so launches never walk CONNECTIVITY. */
static void unit_banks(const struct axl__placement *p,
                       const struct axl__image *img, struct axl__unit *u)
{
    axl_xclbin_kernel ki;
    axl_xclbin_get_kernel(&img->x, u->kernel_index, &ki);
    uint32_t ids[AXL_MAX_KERNEL_ARGS], n = 0;
    for (uint32_t a = 0; a < ki.arg_count && n < AXL_MAX_KERNEL_ARGS; a++) {
        axl_xclbin_arg arg;
        axl_xclbin_get_kernel_arg(&img->x, &ki, a, &arg);
        if (arg.address_qualifier == AXL_XCLBIN_ARG_STREAM)
            continue; /* the design joins it: no bank */
        uint32_t at = n++;
        while (at && ids[at - 1] > arg.index) {
            ids[at] = ids[at - 1];
            at--;
        }
        ids[at] = arg.index;
    }
    for (uint32_t i = 0; i < n; i++)
        u->banks[i] = arg_banks(p, img, u->ip, ids[i]);
}

/* Where unit i of p is written while p is made: its own table, or (with
 * no table of its own) the run slot of region 0 it describes, cleared. */
static struct axl__unit *unit_to_make(struct axl__device *d,
                                      struct axl__placement *p, uint8_t i)
{
#if AXL_FEATURE_DESIGN_SWAP
    (void)d;
    struct axl__unit *u = &p->units[i];
    memset(u, 0, sizeof *u);
    return u;
#else
    (void)p;
    memset(&d->cus[i], 0, sizeof d->cus[i]);
    return &d->cus[i].unit;
#endif
}

#if AXL_FEATURE_DESIGN_SWAP
/* The device bank at the base address of MEM_TOPOLOGY entry m of img, or
 * 0xFF (designs-design.md 1.4: a design beside the one the banks were
 * laid out for shares them by address). */
static uint8_t bank_at(struct axl__device *d, const struct axl__image *img,
                       uint32_t m)
{
    axl_xclbin_mem mem;
    if (axl_xclbin_get_mem(&img->x, m, &mem) != AXL_SUCCESS)
        return 0xFF;
    for (uint32_t b = 0; b < d->info.bank_count && b < 0xFF; b++) {
        axl_hal_bank bank;
        if (axl__dev_bank(d, b, &bank) == AXL_SUCCESS &&
            bank.base_address == mem.base_address)
            return (uint8_t)b;
    }
    return 0xFF;
}

bool axl__place_banks_fit(struct axl__device *d, const struct axl__image *img,
                          char *why, size_t size)
{
    for (uint32_t m = 0; m < img->x.mem_count; m++) {
        axl_xclbin_mem mem;
        if (axl_xclbin_get_mem(&img->x, m, &mem) != AXL_SUCCESS ||
            !mem.used || mem.type == AXL_XCLBIN_MEM_STREAMING ||
            mem.type == AXL_XCLBIN_MEM_STREAMING_CONNECTION ||
            bank_at(d, img, m) != 0xFF)
            continue;
        axl__why(why, size,
                 "memory %.*s (MEM_TOPOLOGY %u, 0x%llx) is no bank of %s",
                 (int)mem.tag.len, mem.tag.ptr, (unsigned)m,
                 (unsigned long long)mem.base_address, d->info.name);
        return false;
    }
    return true;
}
#endif

/* The run slots img's design may fill on d: a slot's for a partial of
 * d's shell, else region 0's (all of them without a shell). */
static uint8_t units_cap(const struct axl__device *d,
                         const struct axl__image *img)
{
#if AXL_FEATURE_DESIGN_SWAP
    if (axl__device_slot_count(d) &&
        img->kind != AXL__IMAGE_BUILTIN &&
        axl__image_slot(d, &img->x, NULL, 0))
        return AXL_MAX_SLOT_UNITS;
    return d->region[0].cap ? d->region[0].cap : AXL_MAX_DEVICE_CUS;
#else
    (void)d;
    (void)img;
    return AXL_MAX_DEVICE_CUS;
#endif
}

/* p's bank map from the device's banks (by MEM_TOPOLOGY index for the
 * design they were laid out for, by address for one loaded beside it),
 * and its units from the image's IP_LAYOUT (lock held). */
static void place_make(struct axl__device *d, struct axl__placement *p,
                       const struct axl__image *img, bool beside)
{
    memset(p->bank_of_mem, 0xFF, sizeof p->bank_of_mem);
#if AXL_FEATURE_DESIGN_SWAP
    for (uint32_t m = 0; beside && m < img->x.mem_count &&
                         m < sizeof p->bank_of_mem; m++)
        p->bank_of_mem[m] = bank_at(d, img, m);
#else
    (void)beside;
#endif
    for (uint32_t b = 0; !beside && b < d->info.bank_count; b++) {
        axl_hal_bank bank;
        if (axl__dev_bank(d, b, &bank) == AXL_SUCCESS &&
            bank.image_index < sizeof p->bank_of_mem)
            p->bank_of_mem[bank.image_index] = (uint8_t)b;
    }
    p->nunits = 0;
    p->compute_units = 0;
    const uint8_t cap = units_cap(d, img);
    for (uint32_t i = 0; i < img->x.ip_count; i++) {
        axl_xclbin_ip ip;
        axl_xclbin_get_ip(&img->x, i, &ip);
        if (ip.type != AXL_XCLBIN_IP_KERNEL)
            continue;
        p->compute_units++;
        if (p->nunits == cap)
            continue;
        for (uint32_t k = 0; k < img->x.kernel_count; k++) {
            axl_xclbin_kernel ki;
            axl_xclbin_get_kernel(&img->x, k, &ki);
            if (ki.name.len == ip.kernel.len &&
                !memcmp(ki.name.ptr, ip.kernel.ptr, ip.kernel.len)) {
                const uint8_t at = p->nunits++;
                struct axl__unit *u = unit_to_make(d, p, at);
                u->kernel_index = (uint16_t)k;
                u->ip = (uint16_t)i;
                for (uint8_t o = 0; o < at; o++)
                    u->ordinal += axl__place_unit(p, o)->kernel_index == k;
                unit_banks(p, img, u);
                break;
            }
        }
    }
    /* Each unit's next of the same kernel, cyclic. */
    for (uint8_t i = 0; i < p->nunits; i++) {
        const uint16_t k = axl__place_unit(p, i)->kernel_index;
        uint8_t j = i;
        do
            j = (uint8_t)(j + 1 == p->nunits ? 0 : j + 1);
        while (axl__place_unit(p, j)->kernel_index != k);
        ((struct axl__unit *)axl__place_unit(p, i))->next_same = j;
    }
}

struct axl__placement *axl__place_loaded(uint16_t device, uint16_t image)
{
    const struct axl__device *d = axl__device_at(device);
    for (uint8_t r = 0; r < AXL__MAX_REGIONS; r++) {
        if (!AXL__IS_REF(d->region[r].design))
            continue;
        struct axl__placement *p = axl__placement_deref(d->region[r].design);
        if (p->image == image)
            return p;
    }
    return NULL;
}

/* Region r of d carries nothing the runtime knows; its placement goes. */
static void region_clear(struct axl__device *d, uint8_t r)
{
    struct axl__device_region *g = &d->region[r];
    if (AXL__IS_REF(g->design))
        axl__pool_free(AXL__POOL(PLACEMENT),
                       axl__placement_deref(g->design));
    g->design = AXL__NONE(placement);
#if AXL_FEATURE_DESIGN_SWAP
    g->epoch++; /* its units go: plans bound to them bind again */
#endif
}

/* d's run slots in use: to the end of the last region's (with slots,
 * the static part's unused ones between are cleared: no kernel's). */
static void ncus_again(struct axl__device *d)
{
    uint8_t n = (uint8_t)(d->region[0].cu0 + d->region[0].ncu);
#if AXL_FEATURE_DESIGN_SWAP
    for (uint8_t r = 1; r <= axl__device_slot_count(d); r++)
        if (d->region[r].ncu)
            n = (uint8_t)(d->region[r].cu0 + d->region[r].ncu);
#endif
    d->ncus = n;
}

/* Region g of d runs placement p: its run slots filled from p's units,
 * run state cleared (lock held). */
static void region_fill(struct axl__device *d, struct axl__device_region *g,
                        struct axl__placement *p)
{
#if AXL_FEATURE_DESIGN_SWAP
    for (uint8_t i = 0; i < p->nunits; i++) {
        struct axl__cu *cu = &d->cus[g->cu0 + i];
        memset(cu, 0, sizeof *cu);
        cu->unit = p->units[i];
        cu->next_same = (uint8_t)(g->cu0 + p->units[i].next_same);
    }
    g->epoch++; /* the units' handles are new: plans bind again */
#endif
    g->design = axl__placement_ref_of(p);
    g->ncu = p->nunits;
    if (g == &d->region[0])
        d->compute_units = p->compute_units;
    ncus_again(d);
}

#if AXL_FEATURE_DESIGN_SWAP
/* Every placement of d not loaded goes: their bank maps were made
 * against banks a whole-device load lays out again. */
static void forget_unloaded(struct axl__device *d)
{
    const axl__pool *pp = AXL__POOL(PLACEMENT);
    for (uint16_t s = 0; s < pp->capacity; s++) {
        if (!axl__pool_is_live(pp, s))
            continue;
        struct axl__placement *p = axl__placement_at(s);
        if (p->device == AXL__SLOT(DEVICE, d) && p->region == AXL__NO_REGION)
            axl__pool_free(AXL__POOL(PLACEMENT), p);
    }
}
#endif

void axl__place_adopt(struct axl__device *d, const struct axl__image *img)
{
    struct axl__device_region *g = &d->region[0];
    region_clear(d, 0);
#if AXL_FEATURE_DESIGN_SWAP
    forget_unloaded(d);
#endif
    g->cu0 = 0;
    g->ncu = 0;
    ncus_again(d);
    d->compute_units = 0;
    if (!img)
        return;
    struct axl__placement *p = axl__pool_alloc(AXL__POOL(PLACEMENT));
    if (!p)
        return; /* cannot be: see place.h */
    p->device = AXL__SLOT(DEVICE, d);
    p->image = AXL__SLOT(IMAGE, img);
    p->region = 0;
    place_make(d, p, img, false);
    region_fill(d, g, p);
}

#if AXL_FEATURE_DESIGN_SWAP
struct axl__placement *axl__place_find(uint16_t device, uint16_t image)
{
    const axl__pool *pp = AXL__POOL(PLACEMENT);
    for (uint16_t s = 0; s < pp->capacity; s++) {
        if (!axl__pool_is_live(pp, s))
            continue;
        struct axl__placement *p = axl__placement_at(s);
        if (p->device == device && p->image == image)
            return p;
    }
    return NULL;
}

/* A placement no region carries, to make room (NULL: none). */
static struct axl__placement *unloaded_one(void)
{
    const axl__pool *pp = AXL__POOL(PLACEMENT);
    for (uint16_t s = 0; s < pp->capacity; s++)
        if (axl__pool_is_live(pp, s) &&
            axl__placement_at(s)->region == AXL__NO_REGION)
            return axl__placement_at(s);
    return NULL;
}

struct axl__placement *axl__place_ready(struct axl__device *d,
                                        const struct axl__image *img)
{
    struct axl__placement *p =
        axl__place_find(AXL__SLOT(DEVICE, d), AXL__SLOT(IMAGE, img));
    if (p)
        return p;
    p = axl__pool_alloc(AXL__POOL(PLACEMENT));
    if (!p) {
        /* Full: one not loaded is made again when next needed. */
        struct axl__placement *old = unloaded_one();
        if (!old)
            return NULL;
        axl__pool_free(AXL__POOL(PLACEMENT), old);
        p = axl__pool_alloc(AXL__POOL(PLACEMENT));
        if (!p)
            return NULL;
    }
    p->device = AXL__SLOT(DEVICE, d);
    p->image = AXL__SLOT(IMAGE, img);
    p->region = AXL__NO_REGION;
    place_make(d, p, img, true);
    return p;
}

void axl__place_swap_in(struct axl__device *d, struct axl__placement *p)
{
    struct axl__device_region *g = &d->region[0];
    if (AXL__IS_REF(g->design))
        axl__placement_deref(g->design)->region = AXL__NO_REGION;
    g->design = AXL__NONE(placement);
    p->region = 0;
    region_fill(d, g, p);
}

/* Region r of d runs nothing the runtime knows: its placement stays,
 * unloaded, and plans bound to its units bind again. */
static void region_out(struct axl__device *d, uint8_t r)
{
    struct axl__device_region *g = &d->region[r];
    g->epoch++; /* it carries nothing: plans bound before are not */
    if (AXL__IS_REF(g->design))
        axl__placement_deref(g->design)->region = AXL__NO_REGION;
    g->design = AXL__NONE(placement);
    g->ncu = 0;
    ncus_again(d);
}

void axl__place_swap_out(struct axl__device *d)
{
    region_out(d, 0);
    d->compute_units = 0;
}

uint8_t axl__slot_carrying(const struct axl__device *d, uint16_t s)
{
    for (uint8_t r = 1; r <= axl__device_slot_count(d); r++) {
        const struct axl__device_region *g = &d->region[r];
        if (!g->loading && AXL__IS_REF(g->design) &&
            axl__placement_deref(g->design)->image == s)
            return r;
    }
    return 0;
}

void axl__place_slot_out(struct axl__device *d, uint8_t r)
{
    region_out(d, r);
}

void axl__place_slot_in(struct axl__device *d, uint8_t r,
                        struct axl__placement *p)
{
    struct axl__device_region *g = &d->region[r];
    if (AXL__IS_REF(g->design))
        axl__placement_deref(g->design)->region = AXL__NO_REGION;
    g->design = AXL__NONE(placement);
    p->region = r;
    region_fill(d, g, p);
}
#endif

void axl__place_forget_image(uint16_t image)
{
    const axl__pool *pp = AXL__POOL(PLACEMENT);
    for (uint16_t s = 0; s < pp->capacity; s++) {
        if (!axl__pool_is_live(pp, s))
            continue;
        struct axl__placement *p = axl__placement_at(s);
        if (p->image != image)
            continue;
        if (p->region != AXL__NO_REGION)
            axl__device_at(p->device)->region[p->region].design =
                AXL__NONE(placement);
        axl__pool_free(AXL__POOL(PLACEMENT), p);
    }
}
