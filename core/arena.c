/*
 * arena.c - a bounded first-fit allocator whose bookkeeping lives outside
 * the memory it hands out (see axl_arena in hal.h).
 */
#include <string.h>

#include "axl/hal.h"

void axl_arena_init(axl_arena *a, void *base, uint64_t size, uint64_t align,
                    axl_arena_block *blocks, uint32_t max_blocks)
{
    memset(a, 0, sizeof *a);
    a->base = base;
    a->size = size;
    a->align = align ? align : 1;
    a->blocks = blocks;
    a->max_blocks = max_blocks;
}

static uint64_t align_up(uint64_t v, uint64_t align)
{
    return (v + align - 1) & ~(align - 1);
}

axl_status axl_arena_alloc(axl_arena *a, uint64_t size, uint64_t *offset)
{
    if (size == 0)
        size = 1; /* distinct blocks even for empty buffers */
    if (a->nblocks == a->max_blocks || size > a->size) {
        a->failures++;
        return AXL_ERR_MEMORY_ALLOCATION;
    }
    uint64_t start = 0;
    uint32_t at = 0;
    for (;; at++) {
        start = align_up(start, a->align);
        uint64_t end = at < a->nblocks ? a->blocks[at].offset : a->size;
        if (start <= end && end - start >= size)
            break;
        if (at == a->nblocks) {
            a->failures++;
            return AXL_ERR_MEMORY_ALLOCATION;
        }
        start = a->blocks[at].offset + a->blocks[at].size;
    }
    memmove(&a->blocks[at + 1], &a->blocks[at],
            (a->nblocks - at) * sizeof a->blocks[0]);
    a->blocks[at].offset = start;
    a->blocks[at].size = size;
    a->nblocks++;
    a->in_use += size;
    if (a->in_use > a->high_water)
        a->high_water = a->in_use;
    *offset = start;
    return AXL_SUCCESS;
}

axl_status axl_arena_free(axl_arena *a, uint64_t offset)
{
    uint32_t lo = 0, hi = a->nblocks;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (a->blocks[mid].offset < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == a->nblocks || a->blocks[lo].offset != offset)
        return AXL_ERR_INVALID;
    a->in_use -= a->blocks[lo].size;
    memmove(&a->blocks[lo], &a->blocks[lo + 1],
            (a->nblocks - lo - 1) * sizeof a->blocks[0]);
    a->nblocks--;
    return AXL_SUCCESS;
}

uint64_t axl_arena_largest_free(const axl_arena *a)
{
    if (a->nblocks == a->max_blocks)
        return 0;
    uint64_t best = 0, start = 0;
    for (uint32_t at = 0; at <= a->nblocks; at++) {
        start = align_up(start, a->align);
        uint64_t end = at < a->nblocks ? a->blocks[at].offset : a->size;
        if (end > start && end - start > best)
            best = end - start;
        if (at < a->nblocks)
            start = a->blocks[at].offset + a->blocks[at].size;
    }
    return best;
}
