/*
 * xrt_mem.c - the XRT port's memory: one BO per allocation (over the
 * application's memory when it asks for zero copy and XRT can), reads and
 * writes with their syncs, device-to-device copies, and the sub-BOs a
 * buffer argument at an offset needs (kept with their BO, freed with it).
 * The device records and locks are xrt_port.c's (xrt_port.h). Each op
 * holds the device's `parking` shared: a design load (xrt_swap.c) holds
 * it exclusive while it replaces the BOs under the core's handles, and a
 * BO it left parked is served from its shadow.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axl/runtime.h"
#include "xrt_port.h"

/* ---- Memory ------------------------------------------------------------------- */

static axl_status alloc(xn_device *d, uint32_t bank, uint64_t size,
                        void *user_ptr, axl_hal_mem *out)
{
    pthread_mutex_lock(&d->lock);
    uint32_t nbanks = d->nbanks;
    uint32_t group = bank < nbanks ? d->bank_mem[bank] : 0;
    axl_xclbin_mem m = {0};
    if (bank < nbanks)
        m = d->bank_info[bank];
    pthread_mutex_unlock(&d->lock);
    if (bank >= nbanks)
        return axl_fail(AXL_ERR_INVALID, "%s has %u memory banks; no bank %u",
                        d->name, (unsigned)nbanks, (unsigned)bank);
    if (size == 0 || size > SIZE_MAX)
        return axl_fail(AXL_ERR_INVALID, "cannot allocate %llu bytes",
                        (unsigned long long)size);
    if (group == NO_GROUP)
        return axl_fail(AXL_ERR_MEMORY_ALLOCATION,
                        "bank %u of %s is not in the design it carries now",
                        (unsigned)bank, d->name);
    if (size > m.size)
        return axl_fail(AXL_ERR_MEMORY_ALLOCATION,
                        "%llu bytes do not fit bank %u (%llu bytes)",
                        (unsigned long long)size, (unsigned)bank,
                        (unsigned long long)m.size);
    xrtBufferFlags flags =
        m.type == AXL_XCLBIN_MEM_HOST ? XCL_BO_FLAGS_HOST_ONLY : XCL_BO_FLAGS_NONE;

    xn_bo *b = calloc(1, sizeof *b);
    if (!b)
        return axl_fail(AXL_ERR_MEMORY_ALLOCATION, "no memory for a buffer record");
    b->serial = xn_bo_serial(d);
    errno = 0;
    if (user_ptr) {
        /* XRT pins page-aligned memory only (xrt_bo.cpp alloc_ubuf); the
         * core copies otherwise. */
        if ((uintptr_t)user_ptr % page_size()) {
            free(b);
            return axl_fail(AXL_ERR_FEATURE_NOT_SUPPORTED,
                            "host memory at %p is not page aligned: XRT "
                            "cannot use it in place",
                            user_ptr);
        }
        b->bo = axl__xrt.bo_alloc_user_ptr(d->dh, user_ptr, (size_t)size,
                                           flags, group);
        if (!b->bo) {
            int e = errno;
            free(b);
            return axl_fail(AXL_ERR_FEATURE_NOT_SUPPORTED,
                            "xrtBOAllocUserPtr failed%s: XRT cannot use "
                            "this host memory in place",
                            errno_name(e));
        }
        b->user_ptr = user_ptr;
    } else {
        /* Whole pages: XRT backs a BO with aligned_alloc(page, size), which
         * C11 defines only for sizes that are a multiple of the alignment
         * (ASan aborts on the others), and the driver allocates pages. */
        size_t page = page_size();
        size_t bytes = ((size_t)size + page - 1) / page * page;
        b->bo = axl__xrt.bo_alloc(d->dh, bytes, flags, group);
        if (!b->bo) {
            int e = errno;
            free(b);
            return axl_fail(AXL_ERR_MEMORY_ALLOCATION,
                            "xrtBOAlloc of %llu bytes in bank %u failed%s",
                            (unsigned long long)size, (unsigned)bank,
                            errno_name(e));
        }
    }
    count(&axl__xn_counts.bos, 1);
    b->dev = d;
    b->size = size;
    b->bank = bank;
    b->flags = (uint32_t)flags;
    pthread_mutex_lock(&d->lock);
    b->next = d->bos;
    if (d->bos)
        d->bos->prev = b;
    d->bos = b;
    pthread_mutex_unlock(&d->lock);
    out->handle = (uintptr_t)b;
    /* Never the host's view, even over user memory: on a card the device
     * copy is across PCIe and only xrtBOSync moves it, so the core must go
     * through mem_write/mem_read (which skip the copy and only sync when
     * the bytes are the user memory itself). */
    out->host_ptr = NULL;
    out->device_address = axl__xrt.bo_address(b->bo);
    out->size = size;
    out->bank = bank;
    return AXL_SUCCESS;
}

axl_status axl__xn_mem_alloc(void *dev, uint32_t bank, uint64_t size,
                             void *user_ptr, axl_hal_mem *out)
{
    xn_device *d = dev;
    pthread_rwlock_rdlock(&d->parking);
    axl_status st = alloc(d, bank, size, user_ptr, out);
    pthread_rwlock_unlock(&d->parking);
    return st;
}

void axl__xn_mem_free(void *dev, axl_hal_mem *mem)
{
    xn_device *d = dev;
    xn_bo *b = bo_of(mem);
    if (!b)
        return;
    pthread_rwlock_rdlock(&d->parking);
    pthread_mutex_lock(&d->lock);
    if (b->prev)
        b->prev->next = b->next;
    else
        d->bos = b->next;
    if (b->next)
        b->next->prev = b->prev;
    pthread_mutex_unlock(&d->lock);
    axl__xn_bo_destroy(b);
    pthread_rwlock_unlock(&d->parking);
    mem->handle = 0;
}

void axl__xn_sub_destroy(xn_sub *s)
{
    axl__xrt.bo_free(s->bo);
    count(&axl__xn_counts.sub_bos, -1);
    free(s);
}

void axl__xn_bo_destroy(xn_bo *b)
{
    while (b->subs) {
        xn_sub *s = b->subs;
        b->subs = s->next;
        axl__xn_sub_destroy(s);
    }
    if (b->bo) { /* else parked */
        axl__xrt.bo_free(b->bo);
        count(&axl__xn_counts.bos, -1);
    }
    free(b->shadow);
    free(b);
}

static axl_status range_check(const xn_bo *b, uint64_t offset, uint64_t size,
                              const char *what)
{
    if (!b)
        return axl_fail(AXL_ERR_INVALID, "%s: not an XRT allocation", what);
    if (offset > b->size || size > b->size - offset)
        return axl_fail(AXL_ERR_INVALID,
                        "%s of %llu bytes at %llu: the allocation has %llu",
                        what, (unsigned long long)size,
                        (unsigned long long)offset,
                        (unsigned long long)b->size);
    return AXL_SUCCESS;
}

/* Where a parked BO's bytes are: its shadow, or the application's memory
 * XRT used in place. */
static unsigned char *parked_bytes(const xn_bo *b)
{
    return b->user_ptr ? b->user_ptr : b->shadow;
}

axl_status axl__xn_bo_put(xn_bo *b, uint64_t offset, const void *src,
                          uint64_t size)
{
    if (!b->bo) {
        unsigned char *to = parked_bytes(b) + offset;
        if (to != src)
            memmove(to, src, (size_t)size);
        return AXL_SUCCESS;
    }
    errno = 0;
    if (src != (const unsigned char *)b->user_ptr + offset &&
        axl__xrt.bo_write(b->bo, src, (size_t)size, (size_t)offset) != 0)
        return axl_fail(AXL_ERR_RUNTIME, "xrtBOWrite of %llu bytes failed%s",
                        (unsigned long long)size, errno_name(errno));
    if (axl__xrt.bo_sync(b->bo, XCL_BO_SYNC_BO_TO_DEVICE, (size_t)size,
                         (size_t)offset) != 0)
        return axl_fail(AXL_ERR_RUNTIME,
                        "xrtBOSync to the device of %llu bytes failed%s",
                        (unsigned long long)size, errno_name(errno));
    return AXL_SUCCESS;
}

axl_status axl__xn_bo_get(xn_bo *b, uint64_t offset, void *dst, uint64_t size)
{
    if (!b->bo) {
        const unsigned char *from = parked_bytes(b) + offset;
        if (from != dst)
            memmove(dst, from, (size_t)size);
        return AXL_SUCCESS;
    }
    errno = 0;
    if (axl__xrt.bo_sync(b->bo, XCL_BO_SYNC_BO_FROM_DEVICE, (size_t)size,
                         (size_t)offset) != 0)
        return axl_fail(AXL_ERR_RUNTIME,
                        "xrtBOSync from the device of %llu bytes failed%s",
                        (unsigned long long)size, errno_name(errno));
    if (dst != (unsigned char *)b->user_ptr + offset &&
        axl__xrt.bo_read(b->bo, dst, (size_t)size, (size_t)offset) != 0)
        return axl_fail(AXL_ERR_RUNTIME, "xrtBORead of %llu bytes failed%s",
                        (unsigned long long)size, errno_name(errno));
    return AXL_SUCCESS;
}

axl_status axl__xn_mem_write(void *dev, axl_hal_mem *mem, uint64_t offset,
                             const void *src, uint64_t size)
{
    xn_device *d = dev;
    xn_bo *b = bo_of(mem);
    axl_status st = range_check(b, offset, size, "write");
    if (st != AXL_SUCCESS || !size)
        return st;
    pthread_rwlock_rdlock(&d->parking);
    st = axl__xn_bo_put(b, offset, src, size);
    pthread_rwlock_unlock(&d->parking);
    return st;
}

axl_status axl__xn_mem_read(void *dev, axl_hal_mem *mem, uint64_t offset,
                            void *dst, uint64_t size)
{
    xn_device *d = dev;
    xn_bo *b = bo_of(mem);
    axl_status st = range_check(b, offset, size, "read");
    if (st != AXL_SUCCESS || !size)
        return st;
    pthread_rwlock_rdlock(&d->parking);
    st = axl__xn_bo_get(b, offset, dst, size);
    pthread_rwlock_unlock(&d->parking);
    return st;
}

/* Device to device through host memory, in chunks (backwards when the
 * ranges overlap in one BO with the destination after the source). */
static axl_status copy_through_host(xn_bo *db, uint64_t dst_offset, xn_bo *sb,
                                    uint64_t src_offset, uint64_t size)
{
    enum { CHUNK = 64 * 1024 };
    unsigned char *tmp = malloc(size < CHUNK ? (size_t)size : CHUNK);
    if (!tmp)
        return axl_fail(AXL_ERR_MEMORY_ALLOCATION, "no memory to copy through");
    int backwards = db == sb && dst_offset > src_offset;
    axl_status st = AXL_SUCCESS;
    for (uint64_t done = 0; done < size && st == AXL_SUCCESS;) {
        uint64_t n = size - done < CHUNK ? size - done : CHUNK;
        uint64_t at = backwards ? size - done - n : done;
        st = axl__xn_bo_get(sb, src_offset + at, tmp, n);
        if (st == AXL_SUCCESS)
            st = axl__xn_bo_put(db, dst_offset + at, tmp, n);
        done += n;
    }
    free(tmp);
    if (st != AXL_SUCCESS)
        return axl_fail(AXL_ERR_RUNTIME,
                        "copying %llu bytes through host memory failed: %s",
                        (unsigned long long)size, axl_last_message());
    return st;
}

static axl_status copy(xn_bo *db, uint64_t dst_offset, xn_bo *sb,
                       uint64_t src_offset, uint64_t size)
{
    /* The noop shim runs xrtBOCopy as a KDMA command it never executes:
     * the copy would succeed and move nothing. A parked BO has no XRT BO
     * to copy with. */
    if (axl__xn_env.mode == AXL__XRT_NOOP || !db->bo || !sb->bo)
        return copy_through_host(db, dst_offset, sb, src_offset, size);
    errno = 0;
    /* XRT uses the device's copy engine when it has one and otherwise
     * syncs, copies through host memory and syncs back. */
    int rc = axl__xrt.bo_copy(db->bo, sb->bo, (size_t)size,
                              (size_t)dst_offset, (size_t)src_offset);
    if (rc != 0)
        return axl_fail(AXL_ERR_RUNTIME,
                        "xrtBOCopy of %llu bytes returned %d%s",
                        (unsigned long long)size, rc, errno_name(errno));
    return AXL_SUCCESS;
}

axl_status axl__xn_mem_copy(void *dev, axl_hal_mem *dst, uint64_t dst_offset,
                            axl_hal_mem *src, uint64_t src_offset,
                            uint64_t size)
{
    xn_device *d = dev;
    xn_bo *db = bo_of(dst), *sb = bo_of(src);
    axl_status st = range_check(db, dst_offset, size, "copy destination");
    if (st == AXL_SUCCESS)
        st = range_check(sb, src_offset, size, "copy source");
    if (st != AXL_SUCCESS || !size)
        return st;
    pthread_rwlock_rdlock(&d->parking);
    st = copy(db, dst_offset, sb, src_offset, size);
    pthread_rwlock_unlock(&d->parking);
    return st;
}
