/*
 * shell.c - DFX shells (axl/shell.h; docs/designs-design.md 3.1, 3.6):
 * the presets, and the check a port runs on a shell it is given.
 */
#include <string.h>

#include "axl/shell.h"
#include "axl/hal.h"
#include "rt.h"

/* Kria K26 2RP (axl/shell.h says where each number comes from). The
 * interface UUID is tools/axl-xclbin/platform.c's k26_2rp_shell's: the
 * partials `axl-xclbin link --platform k26_2rp --slot N` writes name it. */
static const axl_slot k26_2rp_slots[] = {
    {"RP_0", 0x80000000ull, 0x2000000ull, 8, 4, 8},
    {"RP_1", 0x82000000ull, 0x2000000ull, 12, 4, 12},
};

const axl_shell axl_shell_k26_2rp = {
    "k26_2rp",
    {0x6e, 0x4c, 0xc1, 0xcf, 0x0a, 0x87, 0x40, 0x5e, 0xa9, 0x34, 0xa8, 0xa3,
     0x88, 0xef, 0xb3, 0xf3},
    2,
    k26_2rp_slots,
    0, /* a real partial load's time is for a board to measure (8) */
};

const axl_shell *axl_shell_find(const char *name)
{
    static const axl_shell *const presets[] = {&axl_shell_k26_2rp};
    for (size_t i = 0; name && i < sizeof presets / sizeof presets[0]; i++)
        if (!strcmp(presets[i]->name, name))
            return presets[i];
    return NULL;
}

/* Whether windows a and b share an address. */
static bool overlap(const axl_slot *a, const axl_slot *b)
{
    return a->ctrl_base < b->ctrl_base + b->ctrl_size &&
           b->ctrl_base < a->ctrl_base + a->ctrl_size;
}

/* Slot i of sh, checked against the slots before it. */
static axl_status check_slot(const char *fn, const axl_shell *sh, uint32_t i)
{
    const axl_slot *s = &sh->slots[i];
    if (!s->name || !s->name[0] || strlen(s->name) > 15)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "shell %s: slot %u needs a name of 1 to 15 "
                         "characters",
                         sh->name, (unsigned)i);
    if (s->ctrl_size == 0 || s->ctrl_base + s->ctrl_size < s->ctrl_base)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "shell %s: slot %u (%s) has a control window of "
                         "0x%llx bytes at 0x%llx (none, or past the end of "
                         "the address space)",
                         sh->name, (unsigned)i, s->name,
                         (unsigned long long)s->ctrl_size,
                         (unsigned long long)s->ctrl_base);
    for (uint32_t j = 0; j < i; j++)
        if (overlap(s, &sh->slots[j]))
            return axl__fail(fn, AXL_ERR_INVALID,
                             "shell %s: the control windows of slots %u "
                             "(%s) and %u (%s) overlap",
                             sh->name, (unsigned)j, sh->slots[j].name,
                             (unsigned)i, s->name);
    return AXL_SUCCESS;
}

axl_status axl_shell_check(const char *fn, const axl_shell *sh)
{
    if (!fn)
        fn = "axl_shell_check";
    if (!sh)
        return axl__fail(fn, AXL_ERR_INVALID, "shell is NULL");
    if (!sh->name || !sh->name[0] || strlen(sh->name) > 23)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "a shell needs a name of 1 to 23 characters");
    if (sh->slot_count == 0 || sh->slot_count > AXL_SHELL_MAX_SLOTS ||
        !sh->slots)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "shell %s has %u slots%s (1 to "
                         "AXL_SHELL_MAX_SLOTS, %u)",
                         sh->name, (unsigned)sh->slot_count,
                         sh->slots ? "" : " and no slot table",
                         (unsigned)AXL_SHELL_MAX_SLOTS);
    for (uint32_t i = 0; i < sh->slot_count; i++) {
        const axl_status st = check_slot(fn, sh, i);
        if (st != AXL_SUCCESS)
            return st;
    }
    return AXL_SUCCESS;
}

int axl_shell_slot_of_unit(const axl_shell *sh, uint32_t n, uint32_t units)
{
    for (uint32_t k = 0; sh && k < sh->slot_count; k++) {
        const uint32_t lo = sh->slots[k].first_unit;
        uint32_t hi = units;
        for (uint32_t j = 0; j < sh->slot_count; j++)
            if (sh->slots[j].first_unit > lo && sh->slots[j].first_unit < hi)
                hi = sh->slots[j].first_unit;
        if (n >= lo && n < hi)
            return (int)k;
    }
    return -1;
}

#if !defined(AXL_FEATURE_DESIGN_SWAP) || AXL_FEATURE_DESIGN_SWAP
void axl_hal_region_of_slot(const axl_slot *slot, axl_hal_region *out)
{
    memset(out, 0, sizeof *out);
    axl_format(out->name, sizeof out->name, "%s", slot->name);
    out->ctrl_base = slot->ctrl_base;
    out->ctrl_size = slot->ctrl_size;
    out->irq_first = slot->irq_first;
    out->irq_count = slot->irq_count;
    out->first_unit = slot->first_unit;
}
#endif
