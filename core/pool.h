/*
 * pool.h - the one fixed-size object pool every object kind uses.
 *
 * A pool is a static array of slots plus, per slot, a generation and a link.
 * Handles carry (kind, slot + 1, generation), so slot 0 is usable while the
 * all-zero handle never is. A slot is free (on the free list), live (its
 * handle works) or retired: the application released it but the runtime
 * still uses it (an event whose command is running), so its handle already
 * reads as stale while the storage stays put.
 *
 * The pools themselves are declared once, in pools.h.
 */
#ifndef AXL_POOL_H
#define AXL_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Handle layout: kind (5 bits) | generation (15 bits) | slot + 1 (12 bits).
 * Generations count 1..32767 and wrap (0 is never one); kinds are the
 * pools of pools.h, more than 16 with graphs and IP handles. */
#define AXL__HANDLE_INDEX_BITS 12u
#define AXL__HANDLE_GEN_BITS 15u
#define AXL__HANDLE_INDEX_MASK ((1u << AXL__HANDLE_INDEX_BITS) - 1u)
#define AXL__HANDLE_GEN_MASK ((1u << AXL__HANDLE_GEN_BITS) - 1u)
#define AXL__HANDLE_GEN_SHIFT AXL__HANDLE_INDEX_BITS
#define AXL__HANDLE_KIND_SHIFT (AXL__HANDLE_INDEX_BITS + AXL__HANDLE_GEN_BITS)

/* Slot states kept in the link array; any other value is a free-list link
 * (next free slot + 1, or 0 at the end). */
#define AXL__SLOT_LIVE 0xFFFFu
#define AXL__SLOT_RETIRED 0xFFFEu

typedef struct axl__pool {
    const char *name;      /* for messages: "event", "queue", ... */
    const char *setting;   /* the config macro that sizes it */
    unsigned char *slots;
    uint16_t *gen;
    uint16_t *link;
    uint32_t object_size;
    uint16_t capacity;
    uint16_t kind;
    uint16_t free_head;    /* slot + 1; 0 when full */
    uint16_t in_use;
    uint16_t high_water;
    uint32_t failures;
    int ready;             /* free list built */
} axl__pool;

/* Why a handle did not resolve. */
typedef enum axl__handle_problem {
    AXL__HANDLE_OK = 0,
    AXL__HANDLE_NONE,      /* the all-zero handle */
    AXL__HANDLE_WRONG_KIND,
    AXL__HANDLE_BAD_INDEX, /* never created by this runtime */
    AXL__HANDLE_STALE      /* released, destroyed or from an earlier life */
} axl__handle_problem;

void axl__pool_reset(axl__pool *p);
/* A zeroed object, or NULL (and failures + 1) when the pool is full. */
void *axl__pool_alloc(axl__pool *p);
/* Returns the slot to the free list; its handles turn stale. */
void axl__pool_free(axl__pool *p, void *obj);
/* The same for the object in a known slot (no division). */
void axl__pool_free_slot(axl__pool *p, uint16_t slot);
/* Handles turn stale, storage stays until axl__pool_free. */
void axl__pool_retire(axl__pool *p, void *obj);
/* The object behind a live handle, or NULL with the reason. */
void *axl__pool_lookup(const axl__pool *p, uint32_t id,
                       axl__handle_problem *why);

/* A retired object gets live handles again (a released event handed back
 * by get_wait_list). */
void axl__pool_revive(axl__pool *p, void *obj);
/* Whether a slot is free (building the free list on first use); counts
 * a failed allocation when none is. */
bool axl__pool_has_free(axl__pool *p);
/* The pool's use reached a new high past 7/8 of its capacity: a warning
 * in the log (trace.c), when logs are on. */
void axl__pool_near_full(const axl__pool *p);

static inline uint16_t axl__pool_slot(const axl__pool *p, const void *obj)
{
    return (uint16_t)(((const unsigned char *)obj - p->slots) / p->object_size);
}

static inline void *axl__pool_at(const axl__pool *p, uint16_t slot)
{
    return p->slots + (size_t)slot * p->object_size;
}

/* The handle of the object in a slot (live or retired). */
static inline uint32_t axl__pool_slot_handle(const axl__pool *p, uint16_t slot)
{
    return ((uint32_t)p->kind << AXL__HANDLE_KIND_SHIFT) |
           ((uint32_t)p->gen[slot] << AXL__HANDLE_GEN_SHIFT) |
           (uint32_t)(slot + 1);
}

static inline int axl__pool_is_live(const axl__pool *p, uint16_t slot)
{
    return slot < p->capacity && p->link[slot] == AXL__SLOT_LIVE;
}

/* A live or retired object's handle, lookup_any and alloc_raw below:
 * inline for the launch path. In builds for size (-Os) the compiler would keep a copy in
 * every file that calls them, so there they are functions of pool.c. */
#if defined(__OPTIMIZE_SIZE__) && !defined(AXL__POOL_IMPL)
uint32_t axl__pool_handle(const axl__pool *p, const void *obj);
void *axl__pool_lookup_any(const axl__pool *p, uint32_t id);
void *axl__pool_alloc_raw(axl__pool *p, uint16_t *slot);
#else
#if defined(__OPTIMIZE_SIZE__)
#define AXL__POOL_FN
#else
#define AXL__POOL_FN static inline
#endif
AXL__POOL_FN uint32_t axl__pool_handle(const axl__pool *p, const void *obj)
{
    return axl__pool_slot_handle(p, axl__pool_slot(p, obj));
}

/* Like axl__pool_alloc, without zeroing, and with the object's slot in
 * *slot: for large objects the caller initialises field by field
 * (commands and events, on the launch path). */
AXL__POOL_FN void *axl__pool_alloc_raw(axl__pool *p, uint16_t *slot)
{
    if ((!p->ready || !p->free_head) && !axl__pool_has_free(p))
        return NULL;
    const uint16_t s = (uint16_t)(p->free_head - 1);
    p->free_head = p->link[s];
    p->link[s] = AXL__SLOT_LIVE;
    if (++p->in_use > p->high_water) {
        p->high_water = p->in_use;
        /* A new high: the rare branch warns when it passes 7/8. */
        if ((uint32_t)p->in_use * 8u >= (uint32_t)p->capacity * 7u)
            axl__pool_near_full(p);
    }
    *slot = s;
    return p->slots + (size_t)s * p->object_size;
}

/* Like lookup, but retired objects resolve too: for the runtime's own
 * references (an in-order queue's last event), never for the application's. */
AXL__POOL_FN void *axl__pool_lookup_any(const axl__pool *p, uint32_t id)
{
    uint32_t index = id & AXL__HANDLE_INDEX_MASK;
    if ((id >> AXL__HANDLE_KIND_SHIFT) != p->kind || index == 0 ||
        index > p->capacity || !p->ready)
        return NULL;
    uint16_t link = p->link[index - 1];
    if ((link != AXL__SLOT_LIVE && link != AXL__SLOT_RETIRED) ||
        p->gen[index - 1] != ((id >> AXL__HANDLE_GEN_SHIFT) & AXL__HANDLE_GEN_MASK))
        return NULL;
    return p->slots + (size_t)(index - 1) * p->object_size;
}
#undef AXL__POOL_FN
#endif

/* The object behind a live handle, or NULL: the fast path of lookup. */
static inline void *axl__pool_get(const axl__pool *p, uint32_t id)
{
    uint32_t index = id & AXL__HANDLE_INDEX_MASK;
    if ((id >> AXL__HANDLE_KIND_SHIFT) != p->kind || index == 0 ||
        index > p->capacity || p->link[index - 1] != AXL__SLOT_LIVE ||
        p->gen[index - 1] != ((id >> AXL__HANDLE_GEN_SHIFT) & AXL__HANDLE_GEN_MASK))
        return NULL;
    return p->slots + (size_t)(index - 1) * p->object_size;
}

#endif /* AXL_POOL_H */
