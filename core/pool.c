/*
 * pool.c - fixed pools with generation-checked handles (see pool.h).
 * Callers hold the runtime lock.
 */
#define AXL__POOL_IMPL /* defines the functions pool.h declares for -Os */
#include "pool.h"

#include <string.h>

static void build_free_list(axl__pool *p)
{
    for (uint16_t i = 0; i < p->capacity; i++) {
        p->link[i] = (uint16_t)(i + 2 <= p->capacity ? i + 2 : 0);
        if (p->gen[i] == 0)
            p->gen[i] = 1;
    }
    p->free_head = p->capacity ? 1 : 0;
    p->ready = 1;
}

void axl__pool_reset(axl__pool *p)
{
    /* Generations survive a reset, so handles from before axl_shutdown()
     * stay stale afterwards instead of naming new objects. */
    build_free_list(p);
    p->in_use = 0;
    p->high_water = 0;
    p->failures = 0;
}

bool axl__pool_has_free(axl__pool *p)
{
    if (!p->ready)
        build_free_list(p);
    if (p->free_head)
        return true;
    p->failures++;
    return false;
}

void *axl__pool_alloc(axl__pool *p)
{
    uint16_t slot;
    void *obj = axl__pool_alloc_raw(p, &slot);
    if (obj)
        memset(obj, 0, p->object_size);
    return obj;
}

void axl__pool_retire(axl__pool *p, void *obj)
{
    p->link[axl__pool_slot(p, obj)] = AXL__SLOT_RETIRED;
}

void axl__pool_free(axl__pool *p, void *obj)
{
    axl__pool_free_slot(p, axl__pool_slot(p, obj));
}

void axl__pool_free_slot(axl__pool *p, uint16_t slot)
{
    /* Generation 0 is skipped so that no live handle is all-zero in its
     * generation bits; wrap-around after 32767 lives is expected. */
    uint16_t g = (uint16_t)((p->gen[slot] + 1u) & AXL__HANDLE_GEN_MASK);
    p->gen[slot] = g ? g : 1;
    p->link[slot] = p->free_head;
    p->free_head = (uint16_t)(slot + 1);
    p->in_use--;
}

void *axl__pool_lookup(const axl__pool *p, uint32_t id,
                       axl__handle_problem *why)
{
    axl__handle_problem w = AXL__HANDLE_OK;
    uint32_t index = id & AXL__HANDLE_INDEX_MASK;
    uint32_t gen = (id >> AXL__HANDLE_GEN_SHIFT) & AXL__HANDLE_GEN_MASK;
    uint32_t kind = id >> AXL__HANDLE_KIND_SHIFT;
    void *obj = NULL;
    if (id == 0)
        w = AXL__HANDLE_NONE;
    else if (kind != p->kind)
        w = AXL__HANDLE_WRONG_KIND;
    else if (index == 0 || index > p->capacity || gen == 0)
        w = AXL__HANDLE_BAD_INDEX;
    else if (!p->ready || p->link[index - 1] != AXL__SLOT_LIVE ||
             p->gen[index - 1] != gen)
        w = AXL__HANDLE_STALE;
    else
        obj = p->slots + (size_t)(index - 1) * p->object_size;
    if (why)
        *why = w;
    return obj;
}

void axl__pool_revive(axl__pool *p, void *obj)
{
    p->link[axl__pool_slot(p, obj)] = AXL__SLOT_LIVE;
}
