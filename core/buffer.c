/*
 * buffer.c - buffers and sub-buffers (spec 4.7.2), their host storage and
 * allocators (4.7.1, seed 002), the destruction rules of 4.7.2.3, and host
 * accessors.
 *
 * Where a buffer's contents live and how commands reach them is planned in
 * access.c; this file owns the objects and their storage.
 */
#include <string.h>

#include "rt.h"
#include "cu.h"
#include "device_priv.h"
#include "context_priv.h"
#include "queue_priv.h"
#include "event_priv.h"
#include "buffer_priv.h"
#include "access.h"
#include "sched_priv.h"
#include "handler_priv.h"
#include "kernel.h"
#include "transfer.h"
#include "room.h"
#include "devops.h"

/* ---- Host storage: the buffer's allocator or the static arena --------------- */

#define HOST_ALIGN 64u

static _Alignas(HOST_ALIGN) unsigned char host_arena_storage[AXL_HOST_ARENA_SIZE];
static axl_arena_block host_arena_blocks[AXL_HOST_ARENA_BLOCKS];
static bool host_arena_ready;

void axl__host_arena_reset(void)
{
    axl_arena_init(&axl__rt.host_arena, host_arena_storage, AXL_HOST_ARENA_SIZE,
                   HOST_ALIGN, host_arena_blocks, AXL_HOST_ARENA_BLOCKS);
    host_arena_ready = true;
}

/* Called without the lock: a user allocator is application code. */
static void *host_alloc(const axl_allocator *a, size_t size)
{
    if (a->allocate)
        return a->allocate(size ? size : 1, HOST_ALIGN, a->user);
    uint64_t off;
    axl_port_lock();
    if (!host_arena_ready)
        axl__host_arena_reset();
    axl_status st = axl_arena_alloc(&axl__rt.host_arena, size, &off);
    axl_port_unlock();
    return st == AXL_SUCCESS ? host_arena_storage + off : NULL;
}

static void host_free(const axl_allocator *a, void *p, size_t size)
{
    if (!p)
        return;
    if (a->allocate) {
        if (a->deallocate)
            a->deallocate(p, size ? size : 1, a->user);
        return;
    }
    axl_port_lock();
    axl_arena_free(&axl__rt.host_arena,
                   (uint64_t)((unsigned char *)p - host_arena_storage));
    axl_port_unlock();
}

axl_status axl__host_storage(const char *fn, struct axl__buffer *base)
{
    /* Lock held on entry and exit; dropped around the allocator. */
    if (base->host)
        return AXL_SUCCESS;
    axl_allocator a = base->alloc;
    size_t size = (size_t)base->size;
    base->holds++;
    axl_port_unlock();
    void *p = host_alloc(&a, size);
    axl_port_lock();
    base->holds--;
    if (!p)
        return axl__fail(fn, AXL_ERR_MEMORY_ALLOCATION,
                         "the buffer's host allocator returned NULL for %zu "
                         "bytes%s",
                         size,
                         a.allocate ? ""
                                    : " (the default arena, AXL_HOST_ARENA_SIZE, "
                                      "is full)");
    if (base->host) { /* another thread was faster */
        axl_port_unlock();
        host_free(&a, p, size);
        axl_port_lock();
    } else {
        base->host = p;
        base->flags |= AXL__BUF_HOST_OWNED;
    }
    return AXL_SUCCESS;
}

/* ---- Device storage ------------------------------------------------------------ */

/* A device allocation failed (lock held): the size asked, the bank by
 * number and tag, and, for want of memory, what the bank holds (the
 * port's mem_usage, when it has one): its size, what is free, the largest
 * block, the allocations, and a setting that limits it; and whether
 * released buffers keep some for runs given up at their timeout (room.c). */
static axl_status out_of_memory(const char *fn, const struct axl__device *d,
                                uint32_t bank, uint64_t size, axl_status st,
                                const axl_hal_bank_usage *use,
                                const char *blocked)
{
    axl_hal_bank hb;
    if (axl__dev_bank(d, bank, &hb) != AXL_SUCCESS)
        hb.tag[0] = '\0';
    hb.tag[sizeof hb.tag - 1] = '\0';
    if (st != AXL_ERR_MEMORY_ALLOCATION)
        return axl__fail(fn, AXL_ERR_MEMORY_ALLOCATION,
                         "%llu bytes in bank %u (%s) of %s: %s",
                         (unsigned long long)size, (unsigned)bank, hb.tag,
                         d->info.name, axl_status_name(st));
    /* What holds some of it: commands that wait for what this thread
     * blocks (axl__memory_room did not wait for them: it never ends), or
     * runs given up at their timeout. */
    char reserved[AXL_MESSAGE_MAX / 2];
    if (blocked[0])
        axl_format(reserved, sizeof reserved,
                   " (some is kept for commands that wait for %s)", blocked);
    else
        axl_format(reserved, sizeof reserved, "%s",
                   axl__rt.reserved_bytes
                       ? " (some is reserved for runs given up at their "
                         "timeout: reset their units)"
                       : "");
#if AXL_MESSAGE_DETAIL
    char has[16];
    if (!use)
        return axl__fail(fn, AXL_ERR_MEMORY_ALLOCATION,
                         "%llu bytes in bank %u (%s) of %s: out of device "
                         "memory: the bank has %s%s",
                         (unsigned long long)size, (unsigned)bank, hb.tag,
                         d->info.name, axl_bytes(has, sizeof has, hb.size),
                         reserved);
    char free_[16], block[16];
    const bool full = use->max_allocations &&
                      use->allocations >= use->max_allocations;
    return axl__fail(
        fn, AXL_ERR_MEMORY_ALLOCATION,
        "%llu bytes in bank %u (%s) of %s: out of device memory: the bank "
        "has %s, %s free, the largest block %s; %u allocation%s%s%s%s%s",
        (unsigned long long)size, (unsigned)bank, hb.tag, d->info.name,
        axl_bytes(has, sizeof has, use->size),
        axl_bytes(free_, sizeof free_, use->free),
        axl_bytes(block, sizeof block, use->largest_free),
        (unsigned)use->allocations, use->allocations == 1 ? "" : "s",
        full ? ", its most" : "", use->note[0] ? "; size: " : "",
        use->note, reserved);
#else
    (void)use;
    return axl__fail(fn, AXL_ERR_MEMORY_ALLOCATION,
                     "%llu bytes in bank %u (%s) of %s: out of device "
                     "memory%s",
                     (unsigned long long)size, (unsigned)bank, hb.tag,
                     d->info.name, reserved);
#endif
}

/* The location of b's copy on device d in bank `bank`, allocating it if the
 * buffer has none there (lock held; dropped around the port). */
axl_status axl__device_copy(const char *fn, struct axl__buffer *b,
                            struct axl__device *d, uint32_t bank,
                            uint8_t *loc)
{
    uint16_t ds = AXL__SLOT(DEVICE, d);
    for (int attempt = 0; attempt < 2; attempt++) {
        uint8_t l = axl__device_loc(b, ds);
        if (l != AXL__NO_LOC) {
            if (b->loc[l].mem.bank != bank)
                return axl__fail(fn, AXL_ERR_INVALID,
                                 "the buffer already lives in bank %u of %s, "
                                 "not bank %u",
                                 (unsigned)b->loc[l].mem.bank, d->info.name,
                                 (unsigned)bank);
            *loc = l;
            return AXL_SUCCESS;
        }
        uint8_t k = AXL__NO_LOC;
        for (uint8_t i = 1; i < AXL__LOCS && k == AXL__NO_LOC; i++)
            if (!AXL__IS_REF(b->loc[i].device))
                k = i;
        if (k == AXL__NO_LOC)
            return axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                             "the buffer already has storage on %u devices "
                             "(AXL_BUFFER_DEVICE_COPIES)",
                             (unsigned)AXL_BUFFER_DEVICE_COPIES);
        if (!axl__dev_has_memory(d))
            return axl__fail(fn, AXL_ERR_FEATURE_NOT_SUPPORTED,
                             "the %s port has no device memory", d->port->name);
        if (bank >= d->info.bank_count)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "%s has %u memory banks; there is no bank %u",
                             d->info.name, (unsigned)d->info.bank_count,
                             (unsigned)bank);
        /* use_host_ptr asks the port for zero copy over the host memory. */
        void *user = (b->flags & AXL_BUFFER_USE_HOST_PTR) ? b->host : NULL;
        axl_hal_mem mem = {0};
        b->holds++;
        axl_port_unlock();
        axl_status st = axl__dev_mem_alloc(d, bank, b->size, user, &mem);
        if (st == AXL_ERR_FEATURE_NOT_SUPPORTED && user)
            st = axl__dev_mem_alloc(d, bank, b->size, NULL, &mem);
        /* For the message: what the bank holds (asked unlocked). */
        axl_hal_bank_usage use;
        const bool have_use = AXL_MESSAGE_DETAIL &&
                              st == AXL_ERR_MEMORY_ALLOCATION &&
                              axl__dev_mem_usage(d, bank, &use);
        axl_port_lock();
        char blocked[AXL_MESSAGE_MAX / 2];
        blocked[0] = '\0';
        if (st == AXL_ERR_MEMORY_ALLOCATION &&
            axl__memory_room(blocked, sizeof blocked)) {
            /* Bytes released buffers held (freed now, or once the
             * command that kept them ended): placed again. */
            b->holds--;
            attempt--;
            continue;
        }
        b->holds--;
        if (st != AXL_SUCCESS)
            return out_of_memory(fn, d, bank, b->size, st,
                                 have_use ? &use : NULL, blocked);
        if (axl__device_loc(b, ds) != AXL__NO_LOC ||
            AXL__IS_REF(b->loc[k].device)) {
            /* Another thread placed it meanwhile: use theirs. */
            b->holds++;
            axl_port_unlock();
            axl__dev_mem_free(d, &mem);
            axl_port_lock();
            b->holds--;
            continue;
        }
        b->loc[k].device = axl__device_ref_at(ds);
        b->loc[k].mem = mem;
        b->loc[k].xfer = 0;
        /* Never written and made without data: nothing to bring in. */
        b->loc[k].ver =
            b->cur == 0 && !(b->flags & AXL__BUF_HOST_DATA) ? 0 : AXL__VER_NONE;
        *loc = k;
        return AXL_SUCCESS;
    }
    return axl__fail(fn, AXL_ERR_RUNTIME, "internal: placement did not settle");
}

/* A prefetch's buffer gets storage on the queue's device (the bank it has
 * there, else bank 0; axl_buffer_place chooses another), and its accessor
 * is placed there, so the command's transfer fills it (lock held; dropped
 * while the port allocates). */
axl_status axl__prefetch_prepare(const char *fn, struct axl__queue *q,
                                 axl_handler *h)
{
    struct axl__required *r = &h->acc[h->a0 - 1];
    axl_status st = AXL_SUCCESS;
    uint8_t loc;
    if (axl__device_loc(r->base, q->device) == AXL__NO_LOC)
        st = axl__device_copy(fn, r->base, axl__device_at(q->device), 0,
                              &loc);
    if (st == AXL_SUCCESS)
        r->on_device = true;
    return st;
}

axl_status axl_buffer_place(axl_buffer buffer, axl_device device,
                            uint32_t bank)
{
    static const char fn[] = "axl_buffer_place";
    AXL__ENTER(buffer, view, buffer);
    struct axl__device *d =
        axl__device_get(fn, device, &st);
    if (d) {
        uint8_t loc;
        st = axl__device_copy(fn, axl__buffer_base(view), d, bank, &loc);
    }
    axl__leave();
    return st;
}

/* ---- Creation ---------------------------------------------------------------- */

#define USER_FLAGS                                                             \
    (AXL_BUFFER_USE_HOST_PTR | AXL_BUFFER_CONTEXT_BOUND | AXL_BUFFER_USE_MUTEX)

static axl_status check_range(const char *fn, size_t elem, axl_range r,
                              uint64_t *bytes)
{
    if (elem == 0)
        return axl__fail(fn, AXL_ERR_INVALID, "the element size is 0");
    if (r.dims < 1 || r.dims > 3)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "a buffer has 1, 2 or 3 dimensions, not %u",
                         (unsigned)r.dims);
    uint64_t n = elem;
    for (uint32_t i = 0; i < r.dims; i++) {
        if (r.size[i] == 0)
            return axl__fail(fn, AXL_ERR_INVALID, "range[%u] is 0",
                             (unsigned)i);
        if (!axl__mul_size(n, r.size[i], &n) || n > (size_t)-1)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "the buffer's size overflows");
    }
    *bytes = n;
    return AXL_SUCCESS;
}

/* The properties' flags and what they need; direct: the buffer uses the
 * host memory itself (use_host_ptr, use_mutex), not a copy of it. */
static axl_status check_props(const char *fn, const void *host,
                              const axl_buffer_props *props, bool direct)
{
    if (props->flags & ~(uint32_t)USER_FLAGS)
        return axl__fail(fn, AXL_ERR_INVALID, "unknown buffer flags 0x%x",
                         (unsigned)(props->flags & ~(uint32_t)USER_FLAGS));
    if (direct && !host)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "use_host_ptr and use_mutex need host memory to use");
    if ((props->flags & AXL_BUFFER_USE_MUTEX) &&
        (!props->mutex || !props->mutex->lock || !props->mutex->unlock))
        return axl__fail(fn, AXL_ERR_INVALID,
                         "use_mutex needs a mutex with lock and unlock");
    if (props->allocator && !props->allocator->allocate)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "an allocator needs an allocate function");
    return AXL_SUCCESS;
}

/* What new buffer b does with the application's host memory: its initial
 * contents, read-only or written back to at destruction (4.7.2.3), used
 * in place (direct) or through *storage, which b owns from here (*storage
 * NULL). */
static void adopt_host_data(struct axl__buffer *b, void *host, bool is_const,
                            bool direct, void **storage)
{
    b->flags |= AXL__BUF_HOST_DATA;
    if (is_const)
        b->flags |= AXL__BUF_READ_ONLY;
    else {
        b->final_dst = host;
        b->flags |= AXL__BUF_WRITE_BACK;
    }
    if (direct) {
        b->host = host;
    } else {
        b->host = *storage;
        b->flags |= AXL__BUF_HOST_OWNED;
        *storage = NULL;
    }
}

static axl_status create(const char *fn, void *host, bool is_const,
                         size_t elem, axl_range range,
                         const axl_buffer_props *props, axl_buffer *out)
{
    axl_buffer_props none = {0};
    if (!props)
        props = &none;
    axl_status st = axl__need_out(fn, out, "buffer");
    if (st != AXL_SUCCESS)
        return st;
    uint64_t bytes = 0;
    st = check_range(fn, elem, range, &bytes);
    if (st != AXL_SUCCESS)
        return st;
    const bool direct = (props->flags & (AXL_BUFFER_USE_HOST_PTR |
                                         AXL_BUFFER_USE_MUTEX)) != 0;
    st = check_props(fn, host, props, direct);
    if (st != AXL_SUCCESS)
        return st;

    /* Host storage first, without the lock (the allocator is user code),
     * so a failure leaves nothing behind. */
    axl_allocator alloc = props->allocator ? *props->allocator
                                           : (axl_allocator){0};
    void *storage = NULL;
    if (host && !direct) {
        storage = host_alloc(&alloc, (size_t)bytes);
        if (!storage)
            return axl__fail(fn, AXL_ERR_MEMORY_ALLOCATION,
                             "the host allocator returned NULL for the "
                             "buffer's %llu bytes%s",
                             (unsigned long long)bytes,
                             alloc.allocate ? ""
                                            : " (the default arena, "
                                              "AXL_HOST_ARENA_SIZE, is full)");
    }

    st = axl__enter(fn);
    if (st == AXL_SUCCESS) {
        /* Before any lookup: making room may drop the lock. */
        st = axl__room_for(fn, AXL__POOL_BUFFER);
        struct axl__context *ctx = NULL;
        if (st == AXL_SUCCESS && (props->flags & AXL_BUFFER_CONTEXT_BOUND))
            ctx = axl__lookup(fn, "the bound context", AXL__POOL_CONTEXT,
                              props->context.id, &st);
        struct axl__buffer *b = NULL;
        if (st == AXL_SUCCESS) {
            b = axl__pool_alloc(AXL__POOL(BUFFER));
            if (!b)
                st = axl__pool_full(fn, AXL__POOL_BUFFER);
        }
        if (b) {
            b->refs = 1;
            b->base = AXL__SLOT(BUFFER, b);
            b->flags = props->flags;
            b->dims = range.dims;
            b->elem = elem;
            for (uint32_t i = 0; i < 3; i++)
                b->range[i] = i < range.dims ? range.size[i] : 1;
            b->size = bytes;
            /* A bound buffer holds its context while it lives, so the
             * slot is never another context's under it. */
            b->context = axl__context_ref_of(ctx);
            if (ctx)
                ctx->holds++;
            b->alloc = alloc;
            /* Set only with use_mutex: host_lock goes by it alone. */
            b->mutex = (props->flags & AXL_BUFFER_USE_MUTEX) && props->mutex
                           ? *props->mutex
                           : (axl_buffer_mutex){0};
            b->written = false;
            b->user = host;
            b->cur = 0;
            for (uint32_t l = 0; l < AXL__LOCS; l++)
                b->loc[l].ver = AXL__VER_NONE;
            /* A buffer without data holds "unspecified contents" anywhere:
             * version 0 everywhere, nothing to move. */
            b->loc[AXL__LOC_HOST].ver = 0;
            if (host)
                adopt_host_data(b, host, is_const, direct, &storage);
            out->id = AXL__HANDLE(BUFFER, b);
        }
        axl__leave();
        if (b && host && !direct) {
            /* 4.7.2.3 rule 2: the initial contents are the host memory's.
             * The buffer is ours alone until this call returns. */
            memcpy(b->host, host, (size_t)bytes);
        }
    }
    if (storage)
        host_free(&alloc, storage, (size_t)bytes);
    return st;
}

axl_status axl_buffer_create(size_t elem_size, axl_range range,
                             const axl_buffer_props *props, axl_buffer *buffer)
{
    return create("axl_buffer_create", NULL, false, elem_size, range, props,
                  buffer);
}

axl_status axl_buffer_create_from(void *host, size_t elem_size,
                                  axl_range range,
                                  const axl_buffer_props *props,
                                  axl_buffer *buffer)
{
    static const char fn[] = "axl_buffer_create_from";
    if (!host)
        return axl__null(fn, "host");
    return create(fn, host, false, elem_size, range, props, buffer);
}

axl_status axl_buffer_create_from_const(const void *host, size_t elem_size,
                                        axl_range range,
                                        const axl_buffer_props *props,
                                        axl_buffer *buffer)
{
    static const char fn[] = "axl_buffer_create_from_const";
    if (!host)
        return axl__null(fn, "host");
    /* The const is kept in the flags: the memory is never written. */
    return create(fn, (void *)(uintptr_t)host, true, elem_size, range, props,
                  buffer);
}

axl_status axl_buffer_create_sub(axl_buffer base, const size_t offset[3],
                                 axl_range range, axl_buffer *sub)
{
    static const char fn[] = "axl_buffer_create_sub";
    AXL__SWITCH(AXL_FEATURE_SUB_BUFFERS, fn);
    if (!offset)
        return axl__null(fn, "offset");
    AXL__ENTER_OUT_ROOM(buffer, b, base, sub, BUFFER);
    if (b->flags & AXL__BUF_SUB)
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "sub-buffers are made from a base buffer, not from a "
                       "sub-buffer (4.7.2.1)");
    else if (range.dims != b->dims)
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "the sub-range has %u dimensions, the buffer %u",
                       (unsigned)range.dims, (unsigned)b->dims);
    size_t r[3] = {1, 1, 1}, o[3] = {0, 0, 0};
    for (uint32_t i = 0; st == AXL_SUCCESS && i < b->dims; i++) {
        r[i] = range.size[i];
        o[i] = offset[i];
        if (r[i] == 0 || o[i] > b->range[i] || r[i] > b->range[i] - o[i])
            st = axl__fail(fn, AXL_ERR_INVALID,
                           "dimension %u: offset %zu + range %zu exceeds the "
                           "buffer's %zu (out of bounds)",
                           (unsigned)i, o[i], r[i], b->range[i]);
    }
    /* Contiguous (4.7.2.3): after the first dimension whose range is less
     * than the buffer's, every later one must have range 1... unless it is
     * the first partial one; i.e. the region is one run of the linear
     * order: all dimensions after the first with range > 1 must be full. */
    if (st == AXL_SUCCESS) {
        uint32_t first = 0;
        while (first < b->dims && r[first] == 1)
            first++;
        for (uint32_t i = first + 1; i < b->dims; i++)
            if (r[i] != b->range[i] || o[i] != 0)
                st = axl__fail(fn, AXL_ERR_INVALID,
                               "the region is not contiguous in the buffer "
                               "(dimension %u must cover all %zu elements "
                               "from 0)",
                               (unsigned)i, b->range[i]);
    }
    struct axl__buffer *s = NULL;
    if (st == AXL_SUCCESS) {
        s = axl__pool_alloc(AXL__POOL(BUFFER));
        if (!s)
            st = axl__pool_full(fn, AXL__POOL_BUFFER);
    }
    if (s) {
        uint64_t lin = 0;
        for (uint32_t i = 0; i < 3; i++)
            lin = lin * b->range[i] + o[i];
        s->refs = 1;
        s->base = AXL__SLOT(BUFFER, b);
        s->flags = AXL__BUF_SUB | (b->flags & AXL__BUF_READ_ONLY);
        s->dims = b->dims;
        s->elem = b->elem;
        uint64_t n = b->elem;
        for (uint32_t i = 0; i < 3; i++) {
            s->range[i] = r[i];
            n *= r[i];
        }
        s->size = n;
        s->offset = lin * b->elem;
        b->holds++; /* the base lives while its sub-buffers do */
        sub->id = AXL__HANDLE(BUFFER, s);
    }
    axl__leave();
    return st;
}

/* ---- Destruction ---------------------------------------------------------------- */

/* Frees storage; lock held on entry, dropped around the port and the
 * allocator, which may be application code. */
static void destroy_base(struct axl__buffer *b)
{
    axl_allocator alloc = b->alloc;
    void *host = (b->flags & AXL__BUF_HOST_OWNED) ? b->host : NULL;
    size_t size = (size_t)b->size;
    axl_hal_mem mems[AXL__LOCS];
    struct axl__device *devs[AXL__LOCS];
    uint32_t n = 0;
    if (AXL__IS_REF(b->context))
        axl__context_unhold(axl__context_deref(b->context));
    for (uint32_t l = 1; l < AXL__LOCS; l++) {
        if (!AXL__IS_REF(b->loc[l].device))
            continue;
        devs[n] = axl__device_deref(b->loc[l].device);
        mems[n++] = b->loc[l].mem;
    }
    axl__pool_free(AXL__POOL(BUFFER), b);
    axl_port_unlock();
    for (uint32_t i = 0; i < n; i++)
        axl__dev_mem_free(devs[i], &mems[i]);
    host_free(&alloc, host, size);
    axl_port_lock();
}

/* A buffer whose last reference is gone and whose last user just let go:
 * queue it; axl__free_zombies frees it outside any caller's critical path. */
void axl__buffer_zombie(struct axl__buffer *b)
{
    b->next_zombie = axl__rt.zombie_head;
    axl__rt.zombie_head = axl__buffer_ref_of(b);
}

void axl__free_zombies(void)
{
    while (AXL__IS_REF(axl__rt.zombie_head)) {
        struct axl__buffer *b = axl__buffer_deref(axl__rt.zombie_head);
        axl__rt.zombie_head = b->next_zombie;
        /* Released already; the slot is reused next: no kernel's memo may
         * name it (its handle's generation could wrap back). */
        axl__launch_memo_drop(AXL__SLOT(BUFFER, b), UINT16_MAX);
        if (b->flags & AXL__BUF_SUB) {
            struct axl__buffer *base = axl__buffer_at(b->base);
            axl__pool_free(AXL__POOL(BUFFER), b);
            axl__buffer_unhold(base);
        } else {
            destroy_base(b);
        }
    }
}

axl_status axl_buffer_retain(axl_buffer buffer)
{
    static const char fn[] = "axl_buffer_retain";
    AXL__ENTER(buffer, b, buffer);
    b->refs++;
    axl__leave();
    return st;
}

static bool buffer_idle(const void *arg)
{
    const struct axl__buffer *b = arg;
    return b->busy == 0;
}

axl_status axl_buffer_release(axl_buffer buffer)
{
    static const char fn[] = "axl_buffer_release";
    AXL__ENTER(buffer, b, buffer);
    if (b->refs == 1 && !(b->flags & AXL__BUF_SUB) &&
        (b->flags & (AXL__BUF_WRITE_BACK | AXL__BUF_HOST_DATA)) &&
        axl__held_by_caller(b)) {
        /* The release would block for a host accessor this thread holds:
         * a wait that can never end. Nothing changes. */
        st = axl__fail(fn, AXL_ERR_BAD_STATE,
                       "the last release waits for the buffer's commands, "
                       "and this thread holds a host accessor of it: "
                       "release the accessor first");
        axl__leave();
        return st;
    }
    /* The same for a command using it that waits for what this thread
     * blocks (a host task it runs: issue 35.2), when the release would
     * block (below). */
    if (b->refs == 1 && !(b->flags & AXL__BUF_SUB) &&
        (((b->flags & AXL__BUF_WRITE_BACK) && b->final_dst && b->written) ||
         (b->flags & AXL__BUF_HOST_DATA))) {
        st = axl__wait_check(fn, AXL__WAITED_BUFFER, b, AXL_ERR_BAD_STATE,
                             "the last release's wait for the buffer's "
                             "commands");
        if (st != AXL_SUCCESS) {
            axl__leave();
            return st;
        }
    }
    if (--b->refs) {
        axl__leave();
        return st;
    }
    axl__pool_retire(AXL__POOL(BUFFER), b); /* its handle is stale now */
    axl__rt.buffers_gone++;
    if (b->reserved) /* a run given up at its timeout may still write it */
        axl__buffer_reserved(b);
    if (!(b->flags & AXL__BUF_SUB)) {
        /* 4.7.2.3: block if there is data to write back, or if the buffer
         * was made from host memory that commands still use. */
        bool write_back = (b->flags & AXL__BUF_WRITE_BACK) && b->final_dst &&
                          b->written;
        bool block = write_back || (b->flags & AXL__BUF_HOST_DATA);
        if (block) {
            b->holds++;
            axl__wait_until_pred(buffer_idle, b);
            if (write_back)
                st = axl__write_back(fn, b);
            if (st != AXL_SUCCESS) /* 4.7.2.3: the async handler too */
                axl__buffer_destroy_error(b, buffer.id, st);
            b->holds--;
        }
    }
    /* Free now if nothing uses it, else when the last command lets go
     * (seed 002: the allocator may be called after this returns). */
    b->holds++;
    axl__buffer_unhold(b);
    axl__free_zombies();
    axl__leave();
    return st;
}

axl_status axl_buffer_set_final_data(axl_buffer buffer, void *dst)
{
    static const char fn[] = "axl_buffer_set_final_data";
    AXL__ENTER(buffer, b, buffer);
    if (b->flags & AXL__BUF_SUB)
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "a sub-buffer shares its base's final data; set it on "
                       "the base");
    else {
        b->final_dst = dst;
        if (dst)
            b->flags |= AXL__BUF_WRITE_BACK;
        else
            b->flags &= ~(uint32_t)AXL__BUF_WRITE_BACK;
    }
    axl__leave();
    return st;
}

axl_status axl_buffer_set_write_back(axl_buffer buffer, bool write_back)
{
    static const char fn[] = "axl_buffer_set_write_back";
    AXL__ENTER(buffer, b, buffer);
    if (b->flags & AXL__BUF_SUB)
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "write-back belongs to the base buffer");
    else {
        if (write_back)
            b->flags |= AXL__BUF_WRITE_BACK;
        else
            b->flags &= ~(uint32_t)AXL__BUF_WRITE_BACK;
    }
    axl__leave();
    return st;
}

axl_status axl_buffer_get_range(axl_buffer buffer, axl_range *range)
{
    static const char fn[] = "axl_buffer_get_range";
    AXL__ENTER_OUT(buffer, b, buffer, range);
    range->dims = b->dims;
    for (uint32_t i = 0; i < 3; i++)
        range->size[i] = b->range[i];
    axl__leave();
    return st;
}

axl_status axl_buffer_get_byte_size(axl_buffer buffer, size_t *bytes)
{
    static const char fn[] = "axl_buffer_get_byte_size";
    AXL__ENTER_OUT(buffer, b, buffer, bytes);
    *bytes = (size_t)b->size;
    axl__leave();
    return st;
}

axl_status axl_buffer_is_sub_buffer(axl_buffer buffer, bool *is_sub)
{
    static const char fn[] = "axl_buffer_is_sub_buffer";
    AXL__ENTER_OUT(buffer, b, buffer, is_sub);
    *is_sub = (b->flags & AXL__BUF_SUB) != 0;
    axl__leave();
    return st;
}

/* ---- Host accessors ------------------------------------------------------------ */

static bool started_or_done(const void *arg)
{
    const struct axl__event *e = arg;
    return atomic_load_explicit(&e->state, memory_order_acquire) !=
           AXL_EVENT_SUBMITTED;
}

axl_status axl_host_accessor_create(axl_buffer buffer, axl_access_mode mode,
                                    const axl_region *region, uint32_t flags,
                                    axl_host_accessor *accessor, void **ptr)
{
    static const char fn[] = "axl_host_accessor_create";
    AXL__SWITCH(AXL_FEATURE_HOST_ACCESSORS, fn);
    if (!ptr)
        return axl__null(fn, "ptr");
    const axl_status args = axl__access_args(fn, &mode, &flags);
    if (args != AXL_SUCCESS)
        return args;
    AXL__ENTER_OUT(buffer, view, buffer, accessor);
    axl_handler h;
    axl__handler_init(&h);
    st = axl__access_view(fn, view, mode, region, true, &h.acc[0]);
    struct axl__host_accessor *ha = NULL;
    if (st == AXL_SUCCESS) {
        ha = axl__pool_alloc(AXL__POOL(HOST_ACCESSOR));
        if (!ha)
            st = axl__pool_full(fn, AXL__POOL_HOST_ACCESSOR);
    }
    struct axl__command *c = NULL;
    if (ha) {
        view->holds++;
        h.kind = AXL__CMD_HOST_ACCESS;
        h.nactions = 1;
        h.nacc = 1;
        h.acc[0].view = AXL__HANDLE_SLOT(buffer.id);
        h.acc[0].mode = (uint8_t)mode;
        h.acc[0].flags = (uint8_t)flags;
        h.acc[0].on_device = false;
        st = axl__commit(fn, NULL, &h, &c, NULL);
        axl__handler_drop(&h);
    }
    if (st != AXL_SUCCESS) {
        if (ha)
            axl__pool_free(AXL__POOL(HOST_ACCESSOR), ha);
        axl__leave();
        return st;
    }
    struct axl__event *e = axl__event_at(c->event);
    c->u.access.dropped = false;
    ha->command = AXL__SLOT(COMMAND, c);
    ha->event = AXL__HANDLE(EVENT, e);
    ha->buffer = buffer.id;
    ha->owner = axl_port_message_buffer();
    e->holds++;
    axl__pump();
    /* Its command waits for commands that wait for what this thread blocks
     * (a host task it runs: issue 35.2): not waited for. The accessor is
     * dropped, and its command, once its turn comes, ends as a released
     * accessor's does (run_host_access). */
    char why[AXL_MESSAGE_MAX - 64];
    if (axl__wait_may_block() && !started_or_done(e) &&
        axl__wait_blocked(AXL__WAITED_EVENT, e, why, sizeof why)) {
        c->u.access.dropped = true;
        axl__pool_free(AXL__POOL(HOST_ACCESSOR), ha);
        st = axl__fail(fn, AXL_ERR_BAD_STATE,
                       "the wait for the buffer can never end: it waits "
                       "for %s", why);
        axl__event_unhold(e);
        axl__leave();
        return st;
    }
    axl__wait_until_pred(started_or_done, e);
    if (atomic_load_explicit(&e->state, memory_order_acquire) ==
        AXL_EVENT_COMPLETE) {
        /* The data could not be brought to the host. */
        const struct axl__error *err =
            AXL__IS_REF(e->error) ? axl__error_deref(e->error) : NULL;
        st = axl__fail_as(fn, e->status,
                          err ? err->message : axl_status_name(e->status));
        axl__pool_free(AXL__POOL(HOST_ACCESSOR), ha);
    } else {
        const struct axl__region *g = axl__required_region(&h.acc[0]);
        uint64_t lin = ((uint64_t)g->off[0] * g->view_range[1] + g->off[1]) *
                           g->view_range[2] +
                       g->off[2];
        struct axl__buffer *b = axl__buffer_base(view);
        *ptr = (unsigned char *)b->host + view->offset + lin * g->elem;
        accessor->id = AXL__HANDLE(HOST_ACCESSOR, ha);
    }
    axl__event_unhold(e);
    axl__leave();
    return st;
}

axl_status axl_host_accessor_release(axl_host_accessor accessor)
{
    static const char fn[] = "axl_host_accessor_release";
    AXL__SWITCH(AXL_FEATURE_HOST_ACCESSORS, fn);
    AXL__ENTER(host_accessor, ha, accessor);
    struct axl__command *c = axl__command_at(ha->command);
    axl__pool_free(AXL__POOL(HOST_ACCESSOR), ha);
    /* Its end releases the commands that waited for it. */
    axl__complete(c, AXL_SUCCESS, NULL);
    axl__pump();
    axl__leave();
    return st;
}
