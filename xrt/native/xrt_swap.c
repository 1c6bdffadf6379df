/*
 * xrt_swap.c - another design on demand (issue 40, docs/designs-design.md
 * 2.3, 5): the op region_load, for the whole fabric.
 *
 * xocl refuses a new xclbin while a BO exists in a bank the card uses
 * ("pre-existing buffer allocations", xocl_check_topology), so the load
 * parks every BO first: its bytes are synced from the device and kept in
 * host memory (the application's own memory for a BO made over it), its
 * sub-BOs and the BO are given back to XRT. After xrtDeviceLoadXclbin
 * each is made again in the same bank of the new design (the bank with
 * the same base address) and its bytes written back.
 *
 * The core's handle of an allocation is the port's record (xn_bo), which
 * stays: only the XRT BO under it changes, so the axl_hal_mem the core
 * holds needs no rewrite. Its device_address is the old BO's, which
 * nothing reads on this port (a run is given the BO itself). Sub-BOs are
 * made again on their new parent at the first run or interop call that
 * needs them (xrt_run.c, axl__xn_arg_bo); a native handle taken through
 * interop is valid until the next load, as a unit's is.
 *
 * Data commands run beside a load (the core waits only for runs): each
 * memory op holds the device's `parking` shared, the load holds it
 * exclusive. A BO that cannot be made again (a failing load leaves the
 * old design's banks, or none; the new design lacks its bank; XRT refuses
 * the allocation) stays parked, readable and writable through mem_read
 * and mem_write, and is made again at the next load that has its bank.
 * Nothing is lost and nothing leaks whatever fails.
 */
#include <stdlib.h>
#include <string.h>

#include "axl/runtime.h"
#include "xrt_port.h"

#if !defined(AXL_FEATURE_DESIGN_SWAP) || AXL_FEATURE_DESIGN_SWAP

/* Gives b's XRT BO back, its bytes kept in host memory (parking held
 * exclusive). Its sub-BOs go first: XRT frees a parent only without them. */
static axl_status park(xn_bo *b)
{
    if (!b->bo)
        return AXL_SUCCESS;
    errno = 0;
    if (axl__xrt.bo_sync(b->bo, XCL_BO_SYNC_BO_FROM_DEVICE, (size_t)b->size,
                         0) != 0)
        return axl_fail(AXL_ERR_RUNTIME,
                        "xrtBOSync from the device of %llu bytes to park "
                        "them failed%s",
                        (unsigned long long)b->size, errno_name(errno));
    if (!b->user_ptr) {
        b->shadow = malloc((size_t)b->size);
        if (!b->shadow)
            return axl_fail(AXL_ERR_MEMORY_ALLOCATION,
                            "no host memory to park %llu bytes",
                            (unsigned long long)b->size);
        if (axl__xrt.bo_read(b->bo, b->shadow, (size_t)b->size, 0) != 0) {
            free(b->shadow);
            b->shadow = NULL;
            return axl_fail(AXL_ERR_RUNTIME,
                            "xrtBORead of %llu bytes to park them failed%s",
                            (unsigned long long)b->size, errno_name(errno));
        }
    }
    while (b->subs) {
        xn_sub *s = b->subs;
        b->subs = s->next;
        axl__xn_sub_destroy(s);
    }
    axl__xrt.bo_free(b->bo);
    count(&axl__xn_counts.bos, -1);
    b->bo = NULL;
    return AXL_SUCCESS;
}

/* Makes b's BO again in memory group `group` and writes its bytes back;
 * on any failure b stays parked (parking held exclusive). */
static void unpark(xn_device *d, xn_bo *b, uint32_t group)
{
    if (b->bo || group == NO_GROUP)
        return;
    xrtBufferHandle bo;
    if (b->user_ptr) {
        bo = axl__xrt.bo_alloc_user_ptr(d->dh, b->user_ptr, (size_t)b->size,
                                        (xrtBufferFlags)b->flags, group);
    } else {
        size_t page = page_size();
        size_t bytes = ((size_t)b->size + page - 1) / page * page;
        bo = axl__xrt.bo_alloc(d->dh, bytes, (xrtBufferFlags)b->flags, group);
    }
    if (!bo)
        return;
    count(&axl__xn_counts.bos, 1);
    if ((!b->user_ptr &&
         axl__xrt.bo_write(bo, b->shadow, (size_t)b->size, 0) != 0) ||
        axl__xrt.bo_sync(bo, XCL_BO_SYNC_BO_TO_DEVICE, (size_t)b->size, 0) !=
            0) {
        axl__xrt.bo_free(bo);
        count(&axl__xn_counts.bos, -1);
        return;
    }
    b->bo = bo;
    /* A new number: no run may take it for the BO it held before. */
    b->serial = xn_bo_serial(d);
    free(b->shadow);
    b->shadow = NULL;
}

/* Unparks every parked BO of d into its bank's group now. */
static void unpark_all(xn_device *d)
{
    for (xn_bo *b = d->bos; b; b = b->next)
        unpark(d, b, b->bank < d->nbanks ? d->bank_mem[b->bank] : NO_GROUP);
}

/* Parks every BO of d; on a failure those parked are made again (the old
 * design is still loaded) and the load does not happen. */
static axl_status park_all(xn_device *d, char *why, size_t why_size)
{
    for (xn_bo *b = d->bos; b; b = b->next) {
        axl_status st = park(b);
        if (st != AXL_SUCCESS) {
            axl_format(why, why_size, "%s", axl_last_message());
            unpark_all(d);
            return st;
        }
    }
    return AXL_SUCCESS;
}

/* The device's banks stay (region_load never renumbers them): each now
 * maps to the new design's memory at the same base address, or to none
 * (its BOs stay parked). A device that had no banks takes the design's.
 * The design's uuid and clock are d's (lock held). */
static void adopt(xn_device *d, const axl_xclbin *image)
{
    if (!d->nbanks) {
        axl__xn_set_image(d, image);
        return;
    }
    uint32_t nbanks = d->nbanks;
    uint32_t mem[MAX_BANKS];
    for (uint32_t k = 0; k < nbanks; k++) {
        mem[k] = NO_GROUP;
        for (uint32_t i = 0; i < image->mem_count; i++) {
            axl_xclbin_mem m;
            if (axl_xclbin_get_mem(image, i, &m) == AXL_SUCCESS && m.used &&
                m.base_address == d->bank_info[k].base_address &&
                m.type != AXL_XCLBIN_MEM_STREAMING &&
                m.type != AXL_XCLBIN_MEM_STREAMING_CONNECTION) {
                mem[k] = i;
                break;
            }
        }
    }
    /* set_image reads the clock, the uuid and whether it is the board's
     * design; the banks are then put back as they were. */
    axl_xclbin_mem info[MAX_BANKS];
    char tag[MAX_BANKS][24];
    memcpy(info, d->bank_info, sizeof info);
    memcpy(tag, d->bank_tag, sizeof tag);
    axl__xn_set_image(d, image);
    memcpy(d->bank_info, info, sizeof info);
    memcpy(d->bank_tag, tag, sizeof tag);
    for (uint32_t k = 0; k < nbanks; k++) {
        d->bank_info[k].tag.ptr = d->bank_tag[k];
        d->bank_mem[k] = mem[k];
    }
    d->nbanks = nbanks;
}

static axl_status load_parked(xn_device *d, const axl_xclbin *image,
                              char *why, size_t why_size)
{
    axl_status st = axl__xn_check_idle(d, why, why_size);
    if (st == AXL_SUCCESS)
        st = axl__xn_other_card(d, image, why, why_size);
    if (st == AXL_SUCCESS)
        st = park_all(d, why, why_size);
    if (st != AXL_SUCCESS)
        return st;
    st = axl__xn_load(d, image, why, why_size);
    if (st != AXL_SUCCESS) {
        /* What the card carries is unknown: no unit opens until a load
         * succeeds. The buffers go back into the banks as they were if
         * XRT still has them, else stay parked. */
        pthread_mutex_lock(&d->lock);
        d->has_image = 0;
        d->builtin_on = 0;
        pthread_mutex_unlock(&d->lock);
    } else {
        pthread_mutex_lock(&d->lock);
        adopt(d, image);
        pthread_mutex_unlock(&d->lock);
    }
    unpark_all(d);
    return st;
}

axl_status axl__xn_region_load(void *dev, uint32_t *region,
                               const axl_xclbin *image, char *why,
                               size_t why_size)
{
    xn_device *d = dev;
    if (*region != 0) {
        axl_format(why, why_size, "%s has no region %u (the whole fabric "
                   "only)", d->name, (unsigned)*region);
        return axl_fail(AXL_ERR_INVALID, "%s", why);
    }
    if (!image || !image->data || !image->size) {
        axl_format(why, why_size, "no image");
        return axl_fail(AXL_ERR_INVALID, "no image");
    }
    pthread_rwlock_wrlock(&d->parking);
    axl_status st = load_parked(d, image, why, why_size);
    pthread_rwlock_unlock(&d->parking);
    return st;
}

#else
typedef int axl__xn_no_swaps; /* ISO C: a file declares something */
#endif
