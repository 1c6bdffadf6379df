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

/* What one round of the checker reads (lock held): the launch's handler
 * and queue, its kernel object, kernel id and design, the queue's device
 * and the units of the design's placement there. */
struct launch_check {
    const char *fn;
    struct axl__queue *q;
    axl_handler *h;
    struct axl__kernel *kn;
    const struct axl__kernel_id *kid;
    const struct axl__image *img;
    struct axl__device *d;
    const struct axl__placement *p;
};

/* An argument's name for messages, from the XML, read only when there is
 * something to say; `name` is the caller's buffer. */
#define ARG_NAME(lc, id)                                                       \
    arg_name((lc)->img, (lc)->kid->index, (id), name, sizeof name)

/* Step 1: the kernel's bundle, and a bundle bound with use_kernel_bundle,
 * are of the queue's context. */
static inline axl_status check_bundles(const struct launch_check *lc)
{
    const char *fn = lc->fn;
    const struct axl__bundle *kb = axl__bundle_at(lc->kn->bundle);
    if (kb->context != lc->q->context)
        return axl__fail(fn, AXL_ERR_INVALID,
                         "kernel %s comes from a bundle of another context "
                         "than the queue's",
                         lc->kid->name);
    if (lc->h->bundle) {
        axl_status st;
        struct axl__bundle *ub =
            axl__lookup(fn, "the bundle of use_kernel_bundle",
                        AXL__POOL_KERNEL_BUNDLE, lc->h->bundle, &st);
        if (!ub)
            return st;
        if (ub->context != lc->q->context)
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
    return AXL_SUCCESS;
}

/* Step 2: the device can run the kernel and carries its design now (once
 * a programming under way has ended). */
static inline axl_status check_design_carried(const struct launch_check *lc)
{
    const char *fn = lc->fn;
    const struct axl__kernel_id *kid = lc->kid;
    struct axl__device *d = lc->d;
    if (!axl__kernel_compatible(kid, d))
        return axl__fail(fn, AXL_ERR_KERNEL_NOT_SUPPORTED,
                         "kernel %s cannot run on %s", kid->name,
                         d->info.name);
#if AXL_FEATURE_DESIGN_SWAP
    /* A device that reprograms on demand runs the kernel once its design
     * is loaded (designs-design.md 2.1): the check reads the design's
     * placement, made now if it has none there; a submit never waits for
     * a load (4.6.5). */
    if (axl__dev_swaps(d)) {
        if (axl__device_carries(d, kid->image) ||
            axl__place_ready(d, lc->img))
            return AXL_SUCCESS;
        return axl__fail(fn, AXL_ERR_OUT_OF_RESOURCES,
                         "kernel %s: no placement free for its design on "
                         "%s (AXL_MAX_PLACEMENTS %u, each a design loaded)",
                         kid->name, d->info.name,
                         (unsigned)AXL_MAX_PLACEMENTS);
    }
#endif
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
    return AXL_SUCCESS;
}

/* Step 3: a command starts the kernel's unit: not a free-running one, and
 * for a kernel with stream ports, the unit of a started pipeline (its
 * pipeline and unit in *pipe, *pipe_unit). */
static inline axl_status check_launchable(const struct launch_check *lc,
                                          uint8_t *pipe, uint8_t *pipe_unit)
{
    const struct axl__kernel_id *kid = lc->kid;
    /* An ap_ctrl_none unit has no start and no done: it runs from
     * the fabric's reset, and no command launches it (XRT's
     * xrt::kernel refuses it too). */
    if (kid->free_running)
        return axl__fail(lc->fn, AXL_ERR_KERNEL_NOT_SUPPORTED,
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
    if (kid->streams)
        return axl__pipeline_check_launch(lc->fn, lc->q, lc->h, lc->kn, kid,
                                          pipe, pipe_unit);
    return AXL_SUCCESS;
}

/* Step 4: every argument set is one the kernel takes. */
static inline axl_status check_arg_ids(const struct launch_check *lc)
{
    const axl_handler *h = lc->h;
    const struct axl__kernel_id *kid = lc->kid;
    for (uint8_t i = 0; i < h->nkargs; i++) {
        bool known = false;
        for (uint8_t m = 0; m < kid->nargs; m++)
            known |= kid->args[m].id == h->kargs[i].id;
        if (!known)
            return axl__fail(lc->fn, AXL_ERR_KERNEL_ARGUMENT,
                             "kernel %s has no argument %u (it takes %u)",
                             kid->name, (unsigned)h->kargs[i].id,
                             (unsigned)kid->nargs);
    }
    return AXL_SUCCESS;
}

/* Step 5, per argument of the metadata: the one the host set for it, in
 * *set, of its kind (buffer or scalar) and size. */
static inline axl_status take_arg(const struct launch_check *lc,
                                  const struct axl__karg_meta *meta,
                                  const struct axl__karg **set)
{
    const char *fn = lc->fn;
    const axl_handler *h = lc->h;
    const struct axl__kernel_id *kid = lc->kid;
    const struct axl__karg *a = NULL;
    char name[48];
    for (uint8_t i = 0; i < h->nkargs; i++)
        if (h->kargs[i].id == meta->id)
            a = &h->kargs[i];
    if (!a)
        return axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                         "argument %u (%s) of %s was not set",
                         (unsigned)meta->id, ARG_NAME(lc, meta->id),
                         kid->name);
    if (meta->is_mem && !a->acc)
        return axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                         "argument %u (%s) of %s is a buffer, and a "
                         "scalar was set",
                         (unsigned)meta->id, ARG_NAME(lc, meta->id),
                         kid->name);
    if (!meta->is_mem && a->acc)
        return axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                         "argument %u (%s) of %s is a scalar, and an "
                         "accessor was set",
                         (unsigned)meta->id, ARG_NAME(lc, meta->id),
                         kid->name);
    if (!meta->is_mem && a->size != meta->size)
        return axl__fail(fn, AXL_ERR_KERNEL_ARGUMENT,
                         "argument %u (%s) of %s takes %u bytes; %u "
                         "were set",
                         (unsigned)meta->id, ARG_NAME(lc, meta->id),
                         kid->name, (unsigned)meta->size,
                         (unsigned)a->size);
    *set = a;
    return AXL_SUCCESS;
}

/* Step 5, per buffer argument: the address must be one the kernel's
 * master can use for its pointer type. */
static inline axl_status check_arg_align(const struct launch_check *lc,
                                         const struct axl__karg_meta *meta,
                                         const struct axl__required *r)
{
    char name[48];
    uint64_t at = r->buf->offset + r->off;
    if (at % meta->align)
        return axl__fail(lc->fn, AXL_ERR_KERNEL_ARGUMENT,
                         "argument %u (%s) of %s: its accessor starts "
                         "at byte %llu of the buffer, and the kernel "
                         "reads it as %u-byte elements (its pointer "
                         "type in the kernel's metadata): the device "
                         "address must be a multiple of %u",
                         (unsigned)meta->id, ARG_NAME(lc, meta->id),
                         lc->kid->name, (unsigned long long)at,
                         (unsigned)meta->align, (unsigned)meta->align);
    return AXL_SUCCESS;
}

/* The failure of a buffer argument (the host's hm-th) in bank `bank`,
 * which no unit that may run the launch reaches. */
static axl_status no_unit_reaches(const struct launch_check *lc,
                                  const struct axl__karg_meta *meta,
                                  uint8_t hm, uint32_t bank, uint32_t struck)
{
    char name[48];
    axl_hal_bank hb;
    axl__dev_bank(lc->d, bank, &hb);
#if AXL_MESSAGE_DETAIL
    char units[128];
    return axl__fail(lc->fn, AXL_ERR_KERNEL_ARGUMENT,
                     "argument %u (%s) of %s: the buffer is "
                     "in %s, which no unit %s reaches (%s)",
                     (unsigned)meta->id, ARG_NAME(lc, meta->id),
                     lc->kid->name, hb.tag,
                     struck ? "that reaches the buffers "
                              "before it"
                            : "of the kernel object",
                     reach_list(lc->d, lc->p, lc->img, lc->kn, lc->kid, hm,
                                units, sizeof units));
#else
    (void)hm;
    return axl__fail(lc->fn, AXL_ERR_KERNEL_ARGUMENT,
                     "argument %u (%s) of %s: the buffer is "
                     "in %s, which no unit %s reaches",
                     (unsigned)meta->id, ARG_NAME(lc, meta->id),
                     lc->kid->name, hb.tag,
                     struck ? "that reaches the buffers "
                              "before it"
                            : "of the kernel object");
#endif
}

/* Step 5, per buffer argument (the host's hm-th: a unit's banks are kept
 * in that order, cu.c, unit_banks): the memory must be reachable from a
 * unit of the kernel object that also reaches the buffers before it (the
 * device keeps each unit's banks per argument): a launch no one unit can
 * run is refused here, not left to fail at dispatch. The units that
 * don't reach a buffer already on the device are struck off (*struck,
 * bit c, for the first 32); a buffer not on the device yet is given a
 * copy in a bank they reach (*moved: the lock was dropped). */
static inline axl_status reach_arg(const struct launch_check *lc,
                                   const struct axl__karg_meta *meta,
                                   uint8_t hm, struct axl__required *r,
                                   uint32_t *struck, bool *moved)
{
    const struct axl__placement *p = lc->p;
    const uint16_t kernel_index = lc->kid->index;
    struct axl__buffer *b = r->base;
    uint64_t any = 0, all = ~(uint64_t)0;
    for (uint8_t c = 0; c < p->nunits; c++) {
        const struct axl__unit *u = axl__place_unit(p, c);
        if (u->kernel_index != kernel_index ||
            !axl__kernel_may_use_unit(lc->kn, u) ||
            (c < 32 && (*struck >> c & 1u)))
            continue;
        any |= u->banks[hm];
        all &= u->banks[hm];
    }
    uint8_t loc = axl__device_loc(b, lc->q->device);
    if (loc != AXL__NO_LOC) {
        uint32_t bank = b->loc[loc].mem.bank;
        if (!(any >> bank & 1))
            return no_unit_reaches(lc, meta, hm, bank, *struck);
        for (uint8_t c = 0; c < p->nunits && c < 32; c++)
            if (axl__place_unit(p, c)->kernel_index == kernel_index &&
                !(axl__place_unit(p, c)->banks[hm] >> bank & 1))
                *struck |= 1u << c;
        r->on_device = true;
        return AXL_SUCCESS;
    }
    uint64_t pick = all ? all : any;
    if (!pick) {
        char name[48];
        return axl__fail(lc->fn, AXL_ERR_KERNEL_ARGUMENT,
                         "argument %u (%s) of %s reaches no bank "
                         "of %s",
                         (unsigned)meta->id, ARG_NAME(lc, meta->id),
                         lc->kid->name, lc->d->info.name);
    }
    uint32_t bank = 0;
    while (!(pick >> bank & 1))
        bank++;
    *moved = true;
    return axl__device_copy(lc->fn, b, lc->d, bank, &loc);
}
#undef ARG_NAME

/* Step 5: the arguments against the metadata, into the command's
 * argument list in the metadata's order (streams left out: the
 * design's, checked in step 3). *moved: a buffer was given device memory
 * and the lock dropped; everything is checked again. */
static inline axl_status check_args(const struct launch_check *lc,
                                    bool *moved)
{
    axl_handler *h = lc->h;
    const struct axl__kernel_id *kid = lc->kid;
    /* The units that may run it are the kernel object's, less those
     * struck off (bit c, for the first 32) for not reaching a buffer
     * already on the device. */
    uint32_t struck = 0;
    h->u.kernel.nargs = 0;
    for (uint8_t m = 0; m < kid->nargs; m++) {
        const struct axl__karg_meta *meta = &kid->args[m];
        if (meta->is_mem == AXL__ARG_STREAM)
            continue;
        const struct axl__karg *set = NULL;
        axl_status st = take_arg(lc, meta, &set);
        if (st != AXL_SUCCESS)
            return st;
        h->u.kernel.args[h->u.kernel.nargs++] = *set;
        if (!meta->is_mem)
            continue;
        struct axl__required *r = &h->acc[set->acc - 1];
        st = check_arg_align(lc, meta, r);
        if (st == AXL_SUCCESS)
            st = reach_arg(lc, meta, (uint8_t)(h->u.kernel.nargs - 1u), r,
                           &struck, moved);
        if (st != AXL_SUCCESS || *moved)
            return st;
    }
    return AXL_SUCCESS;
}

/* The checks in steps (bundles 1, design on the device 2, a unit a
 * command starts 3, argument ids 4, each argument 5), then the command's
 * kernel part. Lock held; dropped (and everything checked again) while
 * device memory is allocated for a buffer argument. */
axl_status axl__kernel_prepare(const char *fn, struct axl__queue *q,
                               axl_handler *h)
{
    for (int round = 0; round <= AXL_MAX_KERNEL_ARGS; round++) {
        axl_status st;
        struct launch_check lc = {.fn = fn, .q = q, .h = h};
        lc.kn = axl__lookup_fast(fn, "kernel", AXL__POOL_KERNEL, h->kernel,
                                 &st);
        if (!lc.kn)
            return st;
        lc.kid = axl__kernel_id_at(lc.kn->kid);
        lc.img = axl__image_at(lc.kid->image);
        lc.d = axl__device_at(q->device);
        if ((st = check_bundles(&lc)) != AXL_SUCCESS ||
            (st = check_design_carried(&lc)) != AXL_SUCCESS)
            return st;
        /* The units that may run it: its design's placement on d. */
        lc.p = axl__kernel_place(lc.kn, q->device, lc.kid->image);
        uint8_t pipe = 0, pipe_unit = 0;
        bool moved = false;
        if ((st = check_launchable(&lc, &pipe, &pipe_unit)) != AXL_SUCCESS ||
            (st = check_arg_ids(&lc)) != AXL_SUCCESS ||
            (st = check_args(&lc, &moved)) != AXL_SUCCESS)
            return st;
        if (moved)
            continue; /* the lock was dropped: check everything again */
        h->u.kernel.kid = lc.kn->kid;
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
