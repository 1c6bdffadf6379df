/*
 * launch.c - the one checker of a kernel command at submit (arguments
 * against the metadata, memory reachable per CONNECTIVITY, the design on
 * the device; a launch filled from its kernel's memo, kernel.c, skips what
 * the memo vouches for). The handler's kernel calls, which fill the group
 * the checker reads, are in handler.c; dispatch onto a compute unit, the
 * hand-off to the port, completions and timeouts are cu.c's.
 */
#include <string.h>

#include "rt.h"
#include "cu.h"
#include "device_priv.h"
#include "queue_priv.h"
#include "buffer_priv.h"
#include "sched_priv.h"
#include "handler_priv.h"
#include "kernel.h"
#include "image.h"
#include "place.h"
#include "devops.h"
#include "pipeline_priv.h"

/* ---- Checks at submit ------------------------------------------------------------- */

AXL__MESSAGE_ONLY static const char *arg_name(const struct axl__image *img,
                                              uint32_t kernel, uint32_t id,
                                              char *buf, size_t size)
{
    axl_xclbin_kernel ki;
    axl_xclbin_get_kernel(&img->x, kernel, &ki);
    for (uint32_t a = 0; a < ki.arg_count; a++) {
        axl_xclbin_arg arg;
        axl_xclbin_get_kernel_arg(&img->x, &ki, a, &arg);
        if (arg.index == id) {
            axl_format(buf, size, "%.*s", (int)arg.name.len, arg.name.ptr);
            return buf;
        }
    }
    axl_format(buf, size, "#%u", (unsigned)id);
    return buf;
}

/* "vadd_1: DDR[0]; vadd_3: PLRAM[0]": the banks argument m (in the
 * kernel id's order) reaches from each unit of kernel object kn in its
 * placement p on d, for messages (lock held). */
#if AXL_MESSAGE_DETAIL
static const char *
reach_list(const struct axl__device *d, const struct axl__placement *p,
           const struct axl__image *img, const struct axl__kernel *kn,
           const struct axl__kernel_id *kid, uint8_t m, char *buf,
           size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (uint8_t c = 0; c < p->nunits && used + 1 < size; c++) {
        const struct axl__unit *cu = axl__place_unit(p, c);
        if (cu->kernel_index != kid->index ||
            !axl__kernel_may_use_unit(kn, cu))
            continue;
        axl_xclbin_ip ip;
        axl_xclbin_get_ip(&img->x, cu->ip, &ip);
        used += axl_format(buf + used, size - used, "%s%.*s:",
                           used ? "; " : "", (int)ip.instance.len,
                           ip.instance.ptr);
        for (uint32_t b = 0; b < d->info.bank_count && b < 64 &&
                             used + 1 < size;
             b++) {
            axl_hal_bank hb;
            if ((cu->banks[m] >> b & 1) &&
                axl__dev_bank(d, b, &hb) == AXL_SUCCESS)
                used += axl_format(buf + used, size - used, " %.*s",
                                   (int)sizeof hb.tag, hb.tag);
        }
        if (used >= size)
            used = size - 1;
    }
    return buf;
}
#endif

static bool device_ready(const void *arg)
{
    return !((const struct axl__device *)arg)->programming;
}

/* Lock held; dropped (and everything checked again) while device memory is
 * allocated for a buffer argument. */
axl_status axl__kernel_prepare(const char *fn, struct axl__queue *q,
                               axl_handler *h)
{
    for (int round = 0; round <= AXL_MAX_KERNEL_ARGS; round++) {
        axl_status st;
        struct axl__kernel *kn =
            axl__lookup_fast(fn, "kernel", AXL__POOL_KERNEL, h->kernel, &st);
        if (!kn)
            return st;
        struct axl__kernel_id *kid = axl__kernel_id_at(kn->kid);
        struct axl__image *img = axl__image_at(kid->image);
        struct axl__device *d = axl__device_at(q->device);
        const struct axl__bundle *kb = axl__bundle_at(kn->bundle);
        if (kb->context != q->context)
            return axl__fail(fn, AXL_ERR_INVALID,
                             "kernel %s comes from a bundle of another context "
                             "than the queue's",
                             kid->name);
        if (h->bundle) {
            struct axl__bundle *ub =
                axl__lookup(fn, "the bundle of use_kernel_bundle",
                            AXL__POOL_KERNEL_BUNDLE, h->bundle, &st);
            if (!ub)
                return st;
            if (ub->context != q->context)
                return axl__fail(fn, AXL_ERR_INVALID,
                                 "use_kernel_bundle: the bundle's context is "
                                 "not the queue's (4.9.4.4)");
            if (ub->state != AXL_BUNDLE_EXECUTABLE)
                return axl__fail(fn, AXL_ERR_INVALID,
                                 "use_kernel_bundle: the bundle is not "
                                 "executable");
            /* Every axl kernel is a kernel object: single_task(kernel)
             * "ignores any kernel_bundle that was bound" and uses the one
             * that contains the kernel (4.9.4.2). */
        }
        if (!axl__kernel_compatible(kid, d))
            return axl__fail(fn, AXL_ERR_KERNEL_NOT_SUPPORTED,
                             "kernel %s cannot run on %s", kid->name,
                             d->info.name);
        if (d->programming)
            axl__wait_until_pred(device_ready, d);
        if (!axl__device_carries(d, kid->image)) {
            if (d->loaded_by)
                return axl__fail(fn, AXL_ERR_KERNEL_NOT_SUPPORTED,
                                 "%s does not carry the design of kernel %s "
                                 "now: kernel bundle 0x%08x programmed "
                                 "another (a bundle for %s programs it once "
                                 "nothing holds that one)",
                                 d->info.name, kid->name,
                                 (unsigned)d->loaded_by, kid->name);
            return axl__fail(fn, AXL_ERR_KERNEL_NOT_SUPPORTED,
                             "%s does not carry the design of kernel %s "
                             "now: it carries the one it came with (a bundle "
                             "for %s programs it once nothing holds that)",
                             d->info.name, kid->name, kid->name);
        }
        /* The units that may run it: its design's placement on d. */
        const struct axl__placement *p =
            axl__kernel_place(kn, q->device, kid->image);

        /* An ap_ctrl_none unit has no start and no done: it runs from
         * the fabric's reset, and no command launches it (XRT's
         * xrt::kernel refuses it too). */
        if (kid->free_running)
            return axl__fail(fn, AXL_ERR_KERNEL_NOT_SUPPORTED,
                             "kernel %s is ap_ctrl_none (free-running): it "
                             "runs from the fabric's reset and takes no "
                             "launch; %s",
                             kid->name,
                             kid->streams
                                 ? "its pipeline sets its scalars "
                                   "(axl_pipeline_set_arg, axl/pipeline.h)"
                                 : "axl_ip_open reaches its registers "
                                   "(axl/ip.h)");

        /* A kernel with stream ports: its streams are the design's, its
         * unit one of a started pipeline (pipeline.c). */
        uint8_t pipe = 0, pipe_unit = 0;
        if (kid->streams) {
            st = axl__pipeline_check_launch(fn, q, h, kn, kid, &pipe,
                                            &pipe_unit);
            if (st != AXL_SUCCESS)
                return st;
        }

        /* Arguments against the metadata. The names for messages come from
         * the XML, read only when there is something to say. */
        char name[48];
#define ARG_NAME(id) arg_name(img, kid->index, (id), name, sizeof name)
        for (uint8_t i = 0; i < h->nkargs; i++) {
            bool known = false;
            for (uint8_t m = 0; m < kid->nargs; m++)
                known |= kid->args[m].id == h->kargs[i].id;
            if (!known)
                return axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                                 "kernel %s has no argument %u (it takes %u)",
                                 kid->name, (unsigned)h->kargs[i].id,
                                 (unsigned)kid->nargs);
        }
        bool allocated = false;
        /* The units that may run it are the kernel object's, less those
         * struck off (bit c, for the first 32) for not reaching a buffer
         * already on the device. */
        uint32_t struck = 0;
        h->u.kernel.nargs = 0;
        for (uint8_t m = 0; m < kid->nargs; m++) {
            const struct axl__karg_meta *meta = &kid->args[m];
            if (meta->is_mem == AXL__ARG_STREAM)
                continue; /* the design's (checked above) */
            const struct axl__karg *set = NULL;
            for (uint8_t i = 0; i < h->nkargs; i++)
                if (h->kargs[i].id == meta->id)
                    set = &h->kargs[i];
            if (!set)
                return axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                                 "argument %u (%s) of %s was not set",
                                 (unsigned)meta->id, ARG_NAME(meta->id),
                                 kid->name);
            if (meta->is_mem && !set->acc)
                return axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                                 "argument %u (%s) of %s is a buffer, and a "
                                 "scalar was set",
                                 (unsigned)meta->id, ARG_NAME(meta->id),
                                 kid->name);
            if (!meta->is_mem && set->acc)
                return axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                                 "argument %u (%s) of %s is a scalar, and an "
                                 "accessor was set",
                                 (unsigned)meta->id, ARG_NAME(meta->id),
                                 kid->name);
            if (!meta->is_mem && set->size != meta->size)
                return axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                                 "argument %u (%s) of %s takes %u bytes; %u "
                                 "were set",
                                 (unsigned)meta->id, ARG_NAME(meta->id),
                                 kid->name, (unsigned)meta->size,
                                 (unsigned)set->size);
            h->u.kernel.args[h->u.kernel.nargs++] = *set;
            if (!meta->is_mem)
                continue;
            /* Its place among the arguments the host sets: a unit's
             * banks are kept in that order (cu.c, unit_banks). */
            const uint8_t hm = (uint8_t)(h->u.kernel.nargs - 1u);
            /* The address must be one the kernel's master can use for
             * its pointer type. */
            struct axl__required *r = &h->acc[set->acc - 1];
            uint64_t at = r->buf->offset + r->off;
            if (at % meta->align)
                return axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                                 "argument %u (%s) of %s: its accessor starts "
                                 "at byte %llu of the buffer, and the kernel "
                                 "reads it as %u-byte elements (its pointer "
                                 "type in the kernel's metadata): the device "
                                 "address must be a multiple of %u",
                                 (unsigned)meta->id, ARG_NAME(meta->id),
                                 kid->name, (unsigned long long)at,
                                 (unsigned)meta->align,
                                 (unsigned)meta->align);
            /* The memory must be reachable from a unit of the kernel
             * object that also reaches the buffers before it (the device
             * keeps each unit's banks per argument): a launch no one unit
             * can run is refused here, not left to fail at dispatch. */
            struct axl__buffer *b = r->base;
            uint64_t any = 0, all = ~(uint64_t)0;
            for (uint8_t c = 0; c < p->nunits; c++) {
                const struct axl__unit *u = axl__place_unit(p, c);
                if (u->kernel_index != kid->index ||
                    !axl__kernel_may_use_unit(kn, u) ||
                    (c < 32 && (struck >> c & 1u)))
                    continue;
                any |= u->banks[hm];
                all &= u->banks[hm];
            }
            uint8_t loc = axl__device_loc(b, q->device);
            if (loc != AXL__NO_LOC) {
                uint32_t bank = b->loc[loc].mem.bank;
                if (!(any >> bank & 1)) {
                    axl_hal_bank hb;
                    axl__dev_bank(d, bank, &hb);
#if AXL_MESSAGE_DETAIL
                    char units[128];
                    return axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                                     "argument %u (%s) of %s: the buffer is "
                                     "in %s, which no unit %s reaches (%s)",
                                     (unsigned)meta->id, ARG_NAME(meta->id),
                                     kid->name, hb.tag,
                                     struck ? "that reaches the buffers "
                                              "before it"
                                            : "of the kernel object",
                                     reach_list(d, p, img, kn, kid, hm,
                                                units, sizeof units));
#else
                    return axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                                     "argument %u (%s) of %s: the buffer is "
                                     "in %s, which no unit %s reaches",
                                     (unsigned)meta->id, ARG_NAME(meta->id),
                                     kid->name, hb.tag,
                                     struck ? "that reaches the buffers "
                                              "before it"
                                            : "of the kernel object");
#endif
                }
                for (uint8_t c = 0; c < p->nunits && c < 32; c++)
                    if (axl__place_unit(p, c)->kernel_index == kid->index &&
                        !(axl__place_unit(p, c)->banks[hm] >> bank & 1))
                        struck |= 1u << c;
            } else {
                uint64_t pick = all ? all : any;
                if (!pick)
                    return axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                                     "argument %u (%s) of %s reaches no bank "
                                     "of %s",
                                     (unsigned)meta->id, ARG_NAME(meta->id),
                                     kid->name, d->info.name);
                uint32_t bank = 0;
                while (!(pick >> bank & 1))
                    bank++;
                st = axl__device_copy(fn, b, d, bank, &loc);
                if (st != AXL_SUCCESS)
                    return st;
                allocated = true;
                break; /* the lock was dropped: check everything again */
            }
            r->on_device = true;
        }
#undef ARG_NAME
        if (allocated)
            continue;
        h->u.kernel.kid = kn->kid;
        h->u.kernel.kernel = AXL__HANDLE_SLOT(h->kernel);
        h->u.kernel.timeout_ns = h->timeout_ns ? h->timeout_ns : q->timeout_ns;
        h->u.kernel.memo = 0;
        h->u.kernel.pipe = pipe;
        h->u.kernel.pipe_unit = pipe_unit;
        return AXL_SUCCESS;
    }
    return axl__fail(fn, AXL_ERR_RUNTIME,
                     "internal: kernel argument placement did not settle");
}
