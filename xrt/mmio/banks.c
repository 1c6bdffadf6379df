/*
 * xrt/mmio/banks.c - the board's memory checked (mmio_banks.h): what the
 * mmio port and the plan executor place buffers in. Nothing is assumed
 * of a region the board gives or of a bank the design names: two regions
 * are the same memory (and then share one allocator) or apart, and the
 * CPU reaches each where the port will read and write it.
 */
#include <string.h>

#include "axl/runtime.h"
#include "mmio_banks.h"
#include "mmio_unit.h"

/* The design's banks, as the caller reads them (mmio_banks.h). */
typedef struct design_mems {
    const void *design;
    uint32_t count;
    mmio_mem_fn get;
} design_mems;

/* "HP0 (MEM_TOPOLOGY 4)", or "MEM_TOPOLOGY bank 4" without a design. */
MMIO_MESSAGE_ONLY static const char *bank_name(char *out, size_t size,
                                               const design_mems *dm,
                                               uint32_t mem_index)
{
    axl_xclbin_mem mem;
    if (dm->get && mem_index < dm->count &&
        dm->get(dm->design, mem_index, &mem))
        axl_format(out, size, "%.*s (MEM_TOPOLOGY %u)", (int)mem.tag.len,
                   mem.tag.ptr, (unsigned)mem_index);
    else
        axl_format(out, size, "MEM_TOPOLOGY bank %u", (unsigned)mem_index);
    return out;
}

/* Whether [a, a + n) and [b, b + m) share a byte (n, m > 0). */
static int overlap(uint64_t a, uint64_t n, uint64_t b, uint64_t m)
{
    return a < b + m && b < a + n;
}

/* Region r's host view: given, or (bare metal) its physical address,
 * which the CPU must reach as memory there. */
static axl_status host_view(const char *fn, const design_mems *design,
                            uint64_t reserved, axl_mmio_bank_region *r)
{
    char name[48];
    if (r->host)
        return AXL_SUCCESS;
#if MMIO_MODEL
    (void)reserved;
    return mmio_fail(AXL_ERR_PLATFORM,
                     "%s: bank %s has no host memory; a model's board backs "
                     "each bank (axl_mmio_bank_region.host)",
                     fn, bank_name(name, sizeof name, design, r->mem_index));
#else
    if (r->phys > UINTPTR_MAX || r->size - 1u > UINTPTR_MAX - r->phys)
        return mmio_fail(AXL_ERR_PLATFORM,
                         "%s: bank %s at 0x%llx is outside the CPU's "
                         "address space; give its host view (.host)",
                         fn, bank_name(name, sizeof name, design, r->mem_index),
                         (unsigned long long)r->phys);
    if (reserved && r->phys < reserved)
        return mmio_fail(AXL_ERR_PLATFORM,
                         "%s: bank %s is at 0x%llx, below 0x%llx where the "
                         "CPU sees other memory (TCM); give a region above "
                         "it or a host view (.host)",
                         fn, bank_name(name, sizeof name, design, r->mem_index),
                         (unsigned long long)r->phys,
                         (unsigned long long)reserved);
    r->host = (void *)(uintptr_t)r->phys;
    return AXL_SUCCESS;
#endif
}

/* Regions i and j (i < j, both with host views): the same memory (same[j]
 * set), apart, or refused. */
static axl_status pair(const char *fn, const design_mems *design,
                       mmio_memory *m, uint32_t i, uint32_t j)
{
    const axl_mmio_bank_region *a = &m->region[i], *b = &m->region[j];
    char na[48], nb[48];
    const uintptr_t ha = (uintptr_t)a->host, hb = (uintptr_t)b->host;
    if (a->phys == b->phys && a->size == b->size) {
        if (ha != hb)
            return mmio_fail(AXL_ERR_PLATFORM,
                             "%s: banks %s and %s are the same memory "
                             "(0x%llx, %llu bytes) with two host views",
                             fn, bank_name(na, sizeof na, design, a->mem_index),
                             bank_name(nb, sizeof nb, design, b->mem_index),
                             (unsigned long long)a->phys,
                             (unsigned long long)a->size);
        if (m->same[j] == j)
            m->same[j] = m->same[i];
        return AXL_SUCCESS;
    }
    if (overlap(a->phys, a->size, b->phys, b->size) ||
        overlap(ha, a->size, hb, b->size))
        return mmio_fail(AXL_ERR_PLATFORM,
                         "%s: banks %s (0x%llx, %llu bytes) and %s (0x%llx, "
                         "%llu bytes) overlap; give regions that are the "
                         "same memory (same base and size) or apart",
                         fn, bank_name(na, sizeof na, design, a->mem_index),
                         (unsigned long long)a->phys,
                         (unsigned long long)a->size,
                         bank_name(nb, sizeof nb, design, b->mem_index),
                         (unsigned long long)b->phys,
                         (unsigned long long)b->size);
    return AXL_SUCCESS;
}

/* The regions the board gives, or the design's used banks. */
static axl_status gather(const char *fn, const axl_mmio_board *bd,
                         const design_mems *design, mmio_memory *m)
{
    uint32_t n = 0;
    if (bd->banks) {
        if (bd->bank_count > AXL_MMIO_BANKS)
            return mmio_fail(AXL_ERR_OUT_OF_RESOURCES,
                             "%s: %u bank regions, AXL_MMIO_BANKS is %u",
                             fn, (unsigned)bd->bank_count,
                             (unsigned)AXL_MMIO_BANKS);
        n = bd->bank_count;
        if (n)
            memcpy(m->region, bd->banks, n * sizeof m->region[0]);
    }
    for (uint32_t b = 0; !bd->banks && design->get && b < design->count;
         b++) {
        axl_xclbin_mem mem;
        if (!design->get(design->design, b, &mem) || !mem.used)
            continue;
        if (n == AXL_MMIO_BANKS)
            return mmio_fail(AXL_ERR_OUT_OF_RESOURCES,
                             "%s: the design has more banks than "
                             "AXL_MMIO_BANKS (%u)",
                             fn, (unsigned)AXL_MMIO_BANKS);
        m->region[n++] = (axl_mmio_bank_region){b, mem.base_address,
                                                mem.size, NULL};
    }
    m->count = n;
    return AXL_SUCCESS;
}

axl_status axl__mmio_memory(const char *fn, const axl_mmio_board *bd,
                            const void *dsg, uint32_t mem_count,
                            mmio_mem_fn mem, mmio_memory *m)
{
    const design_mems dm = {dsg, mem_count, mem}, *design = &dm;
    memset(m, 0, sizeof *m);
    m->align = bd->align ? bd->align : (uint32_t)AXL_MMIO_BUFFER_ALIGN;
    if (m->align < 64u || (m->align & (m->align - 1u)))
        return mmio_fail(AXL_ERR_PLATFORM,
                         "%s: alignment %u is not a power of two of at "
                         "least 64 (axl_mmio_board.align)",
                         fn, (unsigned)m->align);
    axl_status st = gather(fn, bd, design, m);
    const uint64_t reserved =
        bd->cpu_reserved ? bd->cpu_reserved : (uint64_t)AXL_MMIO_CPU_RESERVED;
    for (uint32_t i = 0; st == AXL_SUCCESS && i < m->count; i++) {
        char name[48];
        m->same[i] = (uint8_t)i;
        if (!m->region[i].size)
            return mmio_fail(AXL_ERR_PLATFORM,
                             "%s: bank %s has a region of 0 bytes",
                             fn, bank_name(name, sizeof name, design,
                                           m->region[i].mem_index));
        st = host_view(fn, design, reserved, &m->region[i]);
        for (uint32_t j = 0; st == AXL_SUCCESS && j < i; j++)
            st = pair(fn, design, m, j, i);
    }
    return st;
}

int axl__mmio_region_of(const mmio_memory *m, uint32_t bank)
{
    for (uint32_t r = 0; r < m->count; r++)
        if (m->region[r].mem_index == bank)
            return (int)r;
    return -1;
}

bool axl__mmio_digest_mem(const void *design, uint32_t index,
                          axl_xclbin_mem *out)
{
    const axl_xclbin_design *d = design;
    if (index >= d->mem_count)
        return false;
    *out = d->mems[index];
    return true;
}
