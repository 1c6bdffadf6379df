/*
 * cu.c - compute units, the whole of a unit's life but its description
 * (which kernel, which IP, the banks each argument reaches, the next unit
 * of the same kernel: its placement's, place.c, copied into the run slot
 * when the design is loaded); finding a unit of a kernel; dispatching a
 * checked kernel command onto a free unit (launch.c checks it at submit),
 * the hand-off to the device port and its run_done; and the runs'
 * deadlines and timeouts.
 *
 * Each device has a run slot per compute unit of its design; a command
 * takes a free slot reachable from all its buffers, and the hal run and
 * its arguments live in that slot until the port reports the end. Nothing
 * is allocated per launch.
 */
#include <string.h>

#include "rt.h"
#include "cu.h"
#include "device_priv.h"
#include "event_priv.h"
#include "buffer_priv.h"
#include "access.h"
#include "sched_priv.h"
#include "kernel.h"
#include "transfer.h"
#include "image.h"
#include "observe.h"
#include "devops.h"
#include "pipeline_priv.h"
#include "swap.h"
#if AXL_FEATURE_GRAPHS
#include "replay.h"
#endif

/* Unit `ordinal` of kernel `kernel_index` of the design d carries (lock
 * held; programming rewrites d->cus, so look again after any wait). */
struct axl__cu *axl__cu_find(struct axl__device *d, uint16_t kernel_index,
                             uint32_t ordinal)
{
    for (uint8_t i = 0; i < d->ncus; i++)
        if (d->cus[i].kernel_index == kernel_index &&
            d->cus[i].ordinal == ordinal)
            return &d->cus[i];
    return NULL;
}

/* ---- Dispatch onto a compute unit ------------------------------------------------- */

AXL__HOT_INLINE void cu_wait(struct axl__command *c)
{
    axl__fifo_push(&axl__rt.cu_wait, c, axl__command_ref_of(c));
}

/* A unit is free again: the kernels waiting for one try again. */
static void cu_release(struct axl__device *d, struct axl__cu *cu)
{
    cu->cmd = AXL__NONE(command);
    cu->deadline = 0;
#if AXL_FEATURE_GRAPHS
    atomic_store(&cu->taken, 0);
    axl__unit_freed(d, cu); /* graphs' runs waiting for it */
#else
    (void)d;
#endif
    axl__fifo_move(&axl__rt.ready, &axl__rt.cu_wait);
#if AXL_FEATURE_DESIGN_SWAP
    axl__swap_poke(d); /* a region waiting to go quiet may be */
#endif
}

/* Takes a free unit for a plain command (lock held): a unit no command
 * holds that no graph's run holds either (those take it without the
 * lock). */
AXL__HOT_INLINE bool cu_take(struct axl__cu *x)
{
    if (AXL__IS_REF(x->cmd))
        return false;
#if AXL_FEATURE_GRAPHS
    uint8_t free_ = 0;
    return atomic_compare_exchange_strong(&x->taken, &free_, 1);
#else
    return true;
#endif
}

/* Does unit `cu` reach the bank of every buffer argument of c? */
AXL__HOT_INLINE bool cu_reaches(const struct axl__cu *cu,
                                 const struct axl__command *c)
{
    /* The command's arguments are in the kernel id's order, as cu->banks. */
    for (uint8_t i = 0; i < c->u.kernel.nargs; i++) {
        const struct axl__karg *a = &c->u.kernel.args[i];
        if (!a->acc)
            continue;
        const struct axl__access *acc = &c->acc[a->acc - 1];
        const struct axl__buffer *b = axl__buffer_at(acc->base);
        if (!(cu->banks[i] >> b->loc[acc->loc].mem.bank & 1))
            return false;
    }
    return true;
}

/* Whether kernel command c may run on unit x (of its kernel): x holds the
 * arguments of the kernel memo c was made from (so it reaches the same
 * buffers; a restricted kernel has no memo, axl__launch_recall refuses
 * it), or c's kernel may use x and x reaches c's buffers. */
AXL__HOT_INLINE bool may_take(const struct axl__cu *x,
                              const struct axl__command *c,
                              const struct axl__kernel *kn)
{
    const uint32_t memo = c->u.kernel.memo;
    return (memo && x->memo == memo &&
            axl__kernel_ref_eq(x->memo_kernel,
                               axl__kernel_ref_at(c->u.kernel.kernel))) ||
           (axl__kernel_may_use(kn, x) && cu_reaches(x, c));
}

/* The hal arguments of command c on unit cu. */
static void fill_args(struct axl__cu *cu, const struct axl__command *c)
{
    for (uint8_t i = 0; i < c->u.kernel.nargs; i++) {
        const struct axl__karg *a = &c->u.kernel.args[i];
        axl_hal_arg *h = &cu->args[i];
        h->id = a->id;
        if (a->acc) {
            const struct axl__access *acc = &c->acc[a->acc - 1];
            struct axl__buffer *b = axl__buffer_at(acc->base);
            h->is_mem = 1;
            h->mem = &b->loc[acc->loc].mem;
            h->offset = acc->offset;
            h->size = acc->size;
            h->value = NULL;
            h->access = acc->mode;
        } else {
            h->is_mem = 0;
            h->mem = NULL;
            h->offset = 0;
            h->size = a->size;
            h->value = c->u.kernel.bytes + a->off;
            h->access = 0;
        }
    }
}

/* now + ns, saturating: a timeout too long to add is no timeout
 * (UINT64_MAX is documented as "wait forever"). */
uint64_t axl__deadline_after(uint64_t now, uint64_t ns)
{
    return ns > UINT64_MAX - now ? UINT64_MAX : now + ns;
}
#define deadline_after axl__deadline_after

/* ---- What a run given up at its timeout keeps ---------------------------------- */

_Static_assert((uint32_t)AXL_MAX_DEVICES * AXL_MAX_DEVICE_CUS *
                       AXL_MAX_KERNEL_ARGS <= UINT16_MAX,
               "axl__buffer.reserved counts the given-up runs holding a "
               "buffer");

/* The bytes of device memory base buffer b has (its copies). */
static uint64_t device_bytes(const struct axl__buffer *b)
{
    uint64_t n = 0;
    for (uint32_t l = 1; l < AXL__LOCS; l++)
        if (AXL__IS_REF(b->loc[l].device))
            n += b->loc[l].mem.size;
    return n;
}

static void reserved_add(uint64_t bytes)
{
    axl__rt.reserved_bytes += bytes;
    if (axl__rt.reserved_bytes > axl__rt.reserved_high)
        axl__rt.reserved_high = axl__rt.reserved_bytes;
}

/* The base buffer of kernel argument m of command c, or NULL for a
 * scalar. */
static struct axl__buffer *arg_base(const struct axl__command *c, uint8_t m)
{
    const struct axl__karg *a = &c->u.kernel.args[m];
    return a->acc ? axl__buffer_at(c->acc[a->acc - 1].base) : NULL;
}

/* A run given up at its timeout keeps, until it comes back, what the
 * hardware may still touch: each base buffer it was given (so its device
 * memory is not freed, however the application releases it) and its
 * kernel (whose image the port's run names). Lock held; before the
 * command completes, which lets go of its own holds. */
void axl__given_up_keep(struct axl__buffer *b)
{
    b->holds++;
    if (b->reserved++ == 0 && b->refs == 0)
        reserved_add(device_bytes(b)); /* released already */
}

void axl__given_up_let_go(struct axl__buffer *b)
{
    if (--b->reserved == 0 && b->refs == 0)
        axl__rt.reserved_bytes -= device_bytes(b);
    axl__buffer_unhold(b);
}

static void keep_for_given_up(struct axl__command *c)
{
    for (uint8_t m = 0; m < c->u.kernel.nargs; m++) {
        struct axl__buffer *b = arg_base(c, m);
        if (b)
            axl__given_up_keep(b);
    }
    axl__kernel_at(c->u.kernel.kernel)->holds++;
}

/* The given-up run of c came back: what keep_for_given_up kept goes. */
static void let_go_of_given_up(struct axl__command *c)
{
    for (uint8_t m = 0; m < c->u.kernel.nargs; m++) {
        struct axl__buffer *b = arg_base(c, m);
        if (b)
            axl__given_up_let_go(b);
    }
    axl__kernel_unhold(axl__kernel_at(c->u.kernel.kernel));
}

bool axl__held_by_hung(const struct axl__buffer *b)
{
    const axl__pool *p = AXL__POOL(DEVICE);
    for (uint16_t s = 0; s < p->capacity; s++) {
        if (!axl__pool_is_live(p, s))
            continue;
        const struct axl__device *d = axl__device_at(s);
        for (uint8_t i = 0; i < d->ncus; i++) {
            const struct axl__cu *cu = &d->cus[i];
            if (!cu->hung)
                continue;
#if AXL_FEATURE_GRAPHS
            const struct axl__plan_run *pr =
                atomic_load_explicit(&cu->prun, memory_order_relaxed);
            if (pr) {
                for (uint8_t m = 0; m < pr->nargs; m++)
                    if (pr->bases[m] == AXL__SLOT(BUFFER, b))
                        return true;
                continue;
            }
#endif
            const struct axl__command *c = axl__command_deref(cu->cmd);
            for (uint8_t m = 0; m < c->u.kernel.nargs; m++)
                if (arg_base(c, m) == b)
                    return true;
        }
    }
    return false;
}

/* Which unit holds a run given up at its timeout, and the way back: the
 * port's phrase for a hung unit, else that the run is waited for. Short:
 * it ends messages that say what it blocks first. */
void axl__unit_what(const struct axl__device *d, const struct axl__cu *cu,
                    char *out, size_t size)
{
    (void)d; /* not compiled in without messages */
    (void)cu;
    const axl_hal_run *run = &cu->run;
#if AXL_FEATURE_GRAPHS
    const struct axl__plan_run *pr =
        atomic_load_explicit(&cu->prun, memory_order_relaxed);
    if (pr)
        run = &pr->hal; /* a graph's run holds it */
#endif
    (void)run;
    axl__why(out, size,
             "%s unit %u (IP_LAYOUT %u) on %s, %s at its timeout: %s",
             run->kernel_name, (unsigned)run->cu, (unsigned)cu->ip,
             d->info.name, cu->hung ? "hung" : "given up",
             cu->hung ? d->port->unit_fix : "back once its run ends");
}

/* The application's last reference to base buffer b went while given-up
 * runs keep it (b->reserved): its device memory stays reserved until
 * they come back, which the statistics count and the log says. */
void axl__buffer_reserved(struct axl__buffer *b)
{
    const uint64_t bytes = device_bytes(b);
    reserved_add(bytes);
    AXL__LOG(AXL__LOG_WARN,
             "buffer 0x%08x released; its %llu device bytes stay reserved "
             "until the unit of the run given up at its timeout is back",
             (unsigned)AXL__HANDLE(BUFFER, b), (unsigned long long)bytes);
}

/* The run of c on unit cu came back to this thread (lock held): the unit
 * is free again, and the command completes, unless a timeout already
 * completed it (then what the run kept, and its slot, are left to free). */
AXL__COLD static void given_up_back(struct axl__device *d, struct axl__cu *cu,
                                    struct axl__command *c)
{
    if (cu->hung)
        axl__rt.hung_units--;
    cu->abandoned = cu->cancel_asked = cu->hung = false;
    let_go_of_given_up(c);
    cu_release(d, cu);
    axl__pool_free_slot(AXL__POOL(COMMAND), AXL__SLOT(COMMAND, c));
    /* Nothing completes here, yet a wait may be for this unit (a device
     * to program, shutdown's runs out, a creation). */
    if (axl__rt.waiters)
        axl_port_wake(AXL_PORT_CHANNEL_DONE);
}

static inline void run_back(struct axl__device *d, struct axl__cu *cu,
                            struct axl__command *c, axl_status status,
                            const char *why)
{
    if (cu->abandoned) {
        given_up_back(d, cu, c);
    } else {
        cu_release(d, cu);
        axl__complete(c, status, why);
    }
}

/* Asks the port to give up an abandoned run (lock held; dropped around
 * the call). The run still comes back through axl_hal_run_done; a port
 * with no run_cancel is waited for as it is. */
static void cancel_run(struct axl__device *d, struct axl__cu *cu)
{
    cu->cancel_asked = true;
    cu->deadline = 0;
    if (!axl__dev_can_cancel(d))
        return;
    const axl__command_ref given_up = cu->cmd;
    axl_port_unlock();
    axl__dev_run_cancel(d, &cu->run);
    axl_port_lock();
    /* Not given back, and the port says such a run may never end: the
     * unit is hung. Nothing waits for it: launches only it could take
     * fail (the ones waiting for a unit look again), and so do creations
     * whose slots only it keeps. */
    if (d->port->unit_fix && cu->abandoned &&
        axl__command_ref_eq(cu->cmd, given_up)) {
        cu->hung = true;
        axl__rt.hung_units++;
        axl__fail_stranded();
        if (axl__rt.waiters)
            axl_port_wake(AXL_PORT_CHANNEL_DONE);
    }
}

/* The hung unit that is all kernel command c (waiting for a unit) could
 * run on, or NULL when a unit that is not hung could take it: the units
 * axl__run_kernel would choose from. */
static const struct axl__cu *stranded(const struct axl__command *c)
{
    const struct axl__device *d = axl__device_at(c->device);
    const struct axl__kernel *kn = axl__kernel_at(c->u.kernel.kernel);
    const uint16_t kernel_index = axl__kernel_id_at(c->u.kernel.kid)->index;
    const struct axl__cu *hung = NULL;
    for (uint8_t i = 0; i < d->ncus; i++) {
        const struct axl__cu *x = &d->cus[i];
        if (x->kernel_index != kernel_index || !may_take(x, c, kn))
            continue;
        if (!x->hung)
            return NULL;
        hung = x;
    }
    return hung;
}

void axl__fail_stranded(void)
{
    struct axl__cmd_fifo all = axl__rt.cu_wait;
    axl__rt.cu_wait.head = axl__rt.cu_wait.tail = AXL__NONE(command);
    struct axl__command *c;
    while ((c = axl__fifo_pop(&all))) {
        const struct axl__cu *hung = stranded(c);
        if (!hung) {
            cu_wait(c);
            continue;
        }
        char why[AXL_MESSAGE_MAX], what[AXL_MESSAGE_MAX - 48];
        axl__unit_what(axl__device_at(c->device), hung, what, sizeof what);
        axl__why(why, sizeof why, "no free unit: %s", what);
        axl__complete(c, AXL_ERR_RUNTIME, why);
    }
}

#define unit_number(d, i) axl__unit_number(d, i)

/* Step 1 of a dispatch: a free unit of c's kernel (kernel_index on d)
 * that reaches its buffers, going round its units from the one after the
 * last used, so runs spread over them; NULL when none is free, with
 * *any set when one could take c once it is. */
AXL__HOT_INLINE struct axl__cu *take_unit_in(struct axl__device *d,
                                             struct axl__command *c,
                                             uint16_t kernel_index,
                                             uint8_t lo, uint8_t hi,
                                             bool *any)
{
    struct axl__kernel *kn = axl__kernel_at(c->u.kernel.kernel);
    uint8_t first = kn->cu_hint;
    if (first >= hi || d->cus[first].kernel_index != kernel_index ||
        first < lo) {
        first = lo;
        while (first < hi && d->cus[first].kernel_index != kernel_index)
            first++;
    }
    for (int round = 0; round < 2; round++) {
        for (uint8_t i = first; first < hi;) {
            struct axl__cu *x = &d->cus[i];
            if (may_take(x, c, kn)) {
                *any = true;
                if (cu_take(x)) {
                    c->u.kernel.cu = i;
                    kn->cu_hint = x->next_same;
                    return x;
                }
            }
            i = x->next_same;
            if (i == first)
                break;
        }
#if AXL_FEATURE_GRAPHS
        /* Said before looking again: a graph's run that frees a unit
         * without the lock meanwhile sees it and looks at cu_wait. */
        if (*any && !round)
            atomic_store(&axl__rt.unit_waits, 1);
        else
#endif
            break;
    }
    return NULL;
}

#if AXL_FEATURE_DESIGN_SWAP
/* take_unit on a device with slots: among the run slots of the region
 * carrying design `image` (kept out of the launch's path on devices
 * without). */
AXL__COLD static struct axl__cu *take_slot_unit(struct axl__device *d,
                                                struct axl__command *c,
                                                uint16_t kernel_index,
                                                uint16_t image, bool *any)
{
    uint8_t lo, hi;
    axl__region_units(d, axl__slot_carrying(d, image), &lo, &hi);
    return take_unit_in(d, c, kernel_index, lo, hi, any);
}
#endif

/* Step 1 on d's run slots: the whole fabric's, or (with slots) those of
 * the region carrying the design of image slot `image`. */
AXL__HOT_INLINE struct axl__cu *take_unit(struct axl__device *d,
                                          struct axl__command *c,
                                          uint16_t kernel_index,
                                          uint16_t image, bool *any)
{
#if AXL_FEATURE_DESIGN_SWAP
    if (d->nslots)
        return take_slot_unit(d, c, kernel_index, image, any);
#else
    (void)image;
#endif
    return take_unit_in(d, c, kernel_index, 0, d->ncus, any);
}

/* No unit free for c: it waits for one (any: one of its units could take
 * it), or fails when none of them reaches its buffers. */
AXL__HOT_INLINE void no_free_unit(struct axl__command *c, bool any)
{
    if (any) {
        cu_wait(c);
        if (axl__rt.hung_units) /* it may wait for hung units only */
            axl__fail_stranded();
    } else
        axl__complete(c, AXL_ERR_KERNEL_NOT_SUPPORTED,
                      AXL__TEXT("no compute unit of the kernel on the "
                                "device (past AXL_MAX_DEVICE_CUS?) "
                                "reaches its buffers"));
}

/* Step 2: the hal run of c in unit cu's slot, and its arguments (kept
 * from the unit's last run when that was of the same memo). */
AXL__HOT_INLINE void fill_run(struct axl__device *d, struct axl__cu *cu,
                              struct axl__command *c,
                              const struct axl__image *img,
                              const struct axl__kernel_id *kid)
{
    const uint32_t memo = c->u.kernel.memo;
    const axl__kernel_ref mk = axl__kernel_ref_at(c->u.kernel.kernel);
    axl_hal_run *run = &cu->run;
    if (!cu->prepared) {
        /* What stays the same from run to run on this unit. */
        run->image = &img->x;
        run->kernel_index = kid->index;
        run->kernel_name = kid->name;
        run->cu = cu->ordinal;
        run->ip_index = unit_number(d, (uint8_t)(cu - d->cus));
        run->args = cu->args;
        run->range = (axl_range){1, {1, 1, 1}};
        cu->prepared = true;
    }
    run->token = c;
    run->cu_handle = cu->handle;
    run->arg_count = c->u.kernel.nargs;
    run->timeout_ns = c->u.kernel.timeout_ns;
    if (memo && cu->memo == memo &&
        axl__kernel_ref_eq(cu->memo_kernel, mk)) {
        /* The unit's last run was of the same memo: the same ids and
         * buffers; only the scalars' bytes are this command's. */
        for (uint8_t i = 0; i < c->u.kernel.nargs; i++) {
            const struct axl__karg *a = &c->u.kernel.args[i];
            if (!a->acc)
                cu->args[i].value = c->u.kernel.bytes + a->off;
        }
    } else {
        fill_args(cu, c);
        cu->memo = memo;
        cu->memo_kernel = memo ? mk : AXL__NONE(kernel);
        /* The port may keep what it sets for an id (hal.h). */
        run->args_id = memo && d->args_ids != UINT32_MAX ? ++d->args_ids : 0;
    }
}

/* Step 3: c's event says it runs, and the unit is being started. */
AXL__HOT_INLINE void mark_running(struct axl__device *d, struct axl__cu *cu,
                                  struct axl__command *c,
                                  struct axl__event *e)
{
    if (e->profiling)
        e->t_start = axl__dev_now(d);
    if (AXL__OBSERVED(c))
        axl__observe_start(c, e);
    atomic_store_explicit(&e->state, (uint8_t)AXL_EVENT_RUNNING,
                          memory_order_release);
    /* A wait for this start (4.6.6) is woken: this hold of the lock is
     * not always the one whose wake made the command ready. */
    if (atomic_load_explicit(&axl__rt.start_waits, memory_order_relaxed))
        axl_port_wake(AXL_PORT_CHANNEL_DONE);
    /* No deadline while this thread moves the data and starts the run:
     * a timeout must not abandon a run its dispatcher still holds. */
    cu->deadline = 0;
    atomic_store_explicit(&cu->phase, AXL__CU_STARTING, memory_order_relaxed);
}

/* Step 5, lock held again: the unit's new handle recorded (now_open),
 * and the run's owner settled: this thread when it never started (st) or
 * ended inside run_start, else the port, with the run's deadline. */
AXL__HOT_INLINE void settle_start(struct axl__device *d, struct axl__cu *cu,
                                  struct axl__command *c, axl_status st,
                                  bool now_open, const char *why)
{
    if (now_open) {
        /* cu->handle and cu->opened are the lock's (axl_hal_kernel_cu
         * reads them): recorded here, not while the lock was dropped. The
         * unit stays this command's until phase is taken below. */
        cu->handle = cu->run.cu_handle;
        cu->opened = true;
        if (axl__rt.waiters)
            axl_port_wake(AXL_PORT_CHANNEL_DONE);
    }
    uint8_t phase = atomic_exchange_explicit(&cu->phase, AXL__CU_IDLE,
                                             memory_order_acq_rel);
    if (st == AXL_SUCCESS && c->u.kernel.pipe)
        axl__pipeline_dispatched(c); /* before run_back may free c */
    if (st != AXL_SUCCESS) {
        /* Never started: this thread has the run back. */
        run_back(d, cu, c, st, why);
    } else if (phase == AXL__CU_ENDED_INSIDE) {
        /* It ended inside run_start (see axl_hal_run_done). */
        run_back(d, cu, c, cu->done_status,
                 cu->done_status == AXL_SUCCESS ? NULL : cu->why);
    } else if (c->u.kernel.timeout_ns) {
        /* It goes on: its timeout counts from here (one clock read, only
         * for runs that did not end inside run_start), on the device's
         * clock. */
        cu->deadline = deadline_after(axl__dev_now(d), c->u.kernel.timeout_ns);
    }
    /* else: the port reports the end with axl_hal_run_done. */
}

/* A checked kernel command onto a unit, in steps: a free unit taken (1),
 * its run filled (2) and marked running (3), the run started with the
 * lock dropped (4), and who has the run settled (5). */
void axl__run_kernel(struct axl__command *c)
{
    struct axl__device *d = axl__device_at(c->device);
    const struct axl__kernel_id *kid = axl__kernel_id_at(c->u.kernel.kid);
    const struct axl__image *img = axl__image_at(kid->image);
#if AXL_FEATURE_DESIGN_SWAP
    /* Its design is not loaded, or an older command waits for another
     * (designs-design.md 2.1): it waits for its design's turn. */
    if (axl__dev_swaps(d) &&
        (!axl__device_carries(d, kid->image) ||
         (axl__swap_behind(d, kid->image, c->seq) &&
          !(c->flags & AXL__CMD_SWAPPED)))) {
        axl__swap_wait(c);
        return;
    }
#endif
    if (!axl__device_carries(d, kid->image)) {
        axl__complete(c, AXL_ERR_KERNEL_NOT_SUPPORTED,
                      AXL__TEXT("the device was programmed with another "
                                "design before the kernel could run"));
        return;
    }
    /* A unit of a pipeline starts after the units downstream of it. */
    if (c->u.kernel.pipe && axl__pipeline_hold(c))
        return;
    bool any = false;
    struct axl__cu *cu = take_unit(d, c, kid->index, kid->image, &any);
    if (!cu) {
        no_free_unit(c, any);
        return;
    }
    struct axl__event *e = axl__event_at(c->event);
    cu->cmd = e->command;
    e->role = (uint8_t)(AXL__EV_CU + cu->ordinal);
#if AXL_FEATURE_DESIGN_SWAP
    if (d->nslots) /* else 0: with its role, the whole fabric */
        e->ran_in = (uint8_t)(1u + axl__region_of_cu(d, c->u.kernel.cu));
#endif
    fill_run(d, cu, c, img, kid);
    mark_running(d, cu, c, e);
    bool opened = cu->opened;
    axl_port_unlock();

    /* Step 4, lock dropped: c's data moved to the device, the unit opened
     * when the port opens units and it was not yet, and the run started.
     * (Kept here: as a function of its own it cost the launch 7
     * instructions, tests/bench/instructions.sh.) */
    char why[AXL_MESSAGE_MAX];
    why[0] = '\0';
    axl_hal_run *run = &cu->run;
    axl_status st = c->flags & AXL__CMD_XFER
                        ? axl__run_transfers(c, why, sizeof why)
                        : AXL_SUCCESS;
    bool now_open = false; /* cu_open gave run->cu_handle: record it */
    if (st == AXL_SUCCESS && !opened && axl__dev_has_cu_open(d)) {
        uintptr_t handle = 0;
        st = axl__dev_cu_open(d, &img->x, kid->index,
                              unit_number(d, (uint8_t)(cu - d->cus)),
                              &handle);
        if (st == AXL_SUCCESS) {
            run->cu_handle = handle;
            now_open = true;
        } else {
            axl_format(why, sizeof why, "%s", axl_last_message());
        }
    }
    if (st == AXL_SUCCESS) {
        st = axl__dev_run_start(d, run);
        if (st != AXL_SUCCESS)
            axl_format(why, sizeof why, "%s", axl_last_message());
    }

    axl_port_lock();
    settle_start(d, cu, c, st, now_open, why);
}

/* A kernel command's run ended (axl_hal_run_done). Out of line, so the
 * call that gives a graph's run its end saves no registers. */
AXL__NOINLINE static void command_run_done(void *token, axl_status status,
                                          const char *why)
{
    struct axl__command *c = token;
    /* The unit and device of a running command do not change: reading
     * them needs no lock. */
    struct axl__device *d = axl__device_at(c->device);
    struct axl__cu *cu = &d->cus[c->u.kernel.cu];
    cu->done_status = status;
    if (status != AXL_SUCCESS)
        axl_format(cu->why, sizeof cu->why, "%s", why ? why : "");
    uint8_t inside = AXL__CU_STARTING;
    if (atomic_compare_exchange_strong_explicit(&cu->phase, &inside,
                                                AXL__CU_ENDED_INSIDE,
                                                memory_order_acq_rel,
                                                memory_order_acquire))
        return; /* still inside run_start: the dispatcher completes it */
    axl_port_lock();
    run_back(d, cu, c, status, why);
    if (!axl_port_in_isr())
        axl__pump();
    axl_port_unlock();
}

void axl_hal_run_done(void *token, axl_status status, const char *why)
{
#if AXL_FEATURE_GRAPHS
    /* A graph's run (its token is in the graph tables, replay.c). */
    if (axl__plan_owns(token)) {
        if (!axl__replay_ended_inside(token, status))
            axl__replay_run_done(token, status, why);
        return;
    }
#endif
    command_run_done(token, status, why);
}

/* ---- Timeouts ------------------------------------------------------------------------- */

#if AXL_DEVICE_CLOCKS
/* The earliest deadline of a run on d, on d's clock (UINT64_MAX: none). */
uint64_t axl__device_deadline(const struct axl__device *d)
{
#if AXL_FEATURE_GRAPHS
    uint64_t next = axl__replay_deadline(d);
#else
    uint64_t next = UINT64_MAX;
#endif
    for (uint8_t i = 0; i < d->ncus; i++)
        if (AXL__IS_REF(d->cus[i].cmd) && d->cus[i].deadline &&
            d->cus[i].deadline < next)
            next = d->cus[i].deadline;
    return next;
}
#endif

/* The earliest deadline of a run on a device whose clock is the runtime's
 * (UINT64_MAX: none), or 0 when a run on a device with a clock of its own
 * is past its deadline: due now, on any clock. Each device with a clock
 * of its own keeps its earliest deadline in deadline_seen (when 0 is not
 * returned), for the wait's progress of it. */
uint64_t axl__next_deadline(void)
{
    uint64_t next = axl__pipeline_next_deadline(); /* held commands' */
    const axl__pool *p = AXL__POOL(DEVICE);
    for (uint16_t s = 0; s < p->capacity; s++) {
        if (!axl__pool_is_live(p, s))
            continue;
        struct axl__device *d = axl__device_at(s);
#if AXL_DEVICE_CLOCKS
        if (axl__dev_clocked(d)) {
            /* Kept for the wait's progress of d; its clock is read only
             * when a run has a deadline. */
            const uint64_t dl = d->deadline_seen = axl__device_deadline(d);
            if (dl != UINT64_MAX && axl__dev_now(d) >= dl)
                return 0;
            continue;
        }
#endif
        for (uint8_t i = 0; i < d->ncus; i++)
            if (AXL__IS_REF(d->cus[i].cmd) && d->cus[i].deadline &&
                d->cus[i].deadline < next)
                next = d->cus[i].deadline;
#if AXL_FEATURE_GRAPHS
        const uint64_t r = axl__replay_deadline(d);
        if (r < next)
            next = r;
#endif
    }
    return next;
}

/* A device whose port drives completions from waits (progress op) and
 * which has a run out, or NULL. */
struct axl__device *axl__progress_device(void)
{
    const axl__pool *p = AXL__POOL(DEVICE);
    for (uint16_t s = 0; s < p->capacity; s++) {
        if (!axl__pool_is_live(p, s))
            continue;
        struct axl__device *d = axl__device_at(s);
        if (!axl__dev_polled(d))
            continue;
#if AXL_FEATURE_GRAPHS
        /* A graph's submission starts its runs without the lock, maybe
         * after this look: driven from its dispatch to its end, or a
         * waiter that slept meanwhile would never see them end. */
        if (d->replays)
            return d;
#endif
        /* A hung unit's run is not waited for (cancel_run). */
        for (uint8_t i = 0; i < d->ncus; i++)
            if ((AXL__IS_REF(d->cus[i].cmd)
#if AXL_FEATURE_GRAPHS
                 || atomic_load_explicit(&d->cus[i].prun,
                                         memory_order_relaxed)
#endif
                     ) &&
                !d->cus[i].hung)
                return d;
    }
    return NULL;
}

/* Abandons the run on cu, past its deadline (lock held): its command
 * completes with AXL_ERR_TIMEOUT now, once; the unit and the command's
 * slot stay with the run until it comes back (run_back). */
static void abandon(struct axl__device *d, struct axl__cu *cu)
{
    struct axl__command *c = axl__command_deref(cu->cmd);
    char why[AXL_MESSAGE_MAX];
    /* In us below a ms (a model's simulated time makes such timeouts
     * ordinary), not "0 ms". */
    const uint64_t t = c->u.kernel.timeout_ns;
    const bool us = t < 1000000u;
    axl__why(why, sizeof why,
             "kernel %s on compute unit %u of %s did not finish within "
             "%llu %cs: given up (its buffers stay reserved until the "
             "unit is back)",
             cu->run.kernel_name, (unsigned)cu->run.cu, d->info.name,
             (unsigned long long)(t / (us ? 1000u : 1000000u)),
             us ? 'u' : 'm');
    if (axl__rt.shutting_down && axl__rt.gave_up++ == 0)
        axl_format(axl__rt.gave_up_what, sizeof axl__rt.gave_up_what,
                   "kernel %s on compute unit %u of %s", cu->run.kernel_name,
                   (unsigned)cu->run.cu, d->info.name);
    cu->abandoned = true;
    cu->deadline = 1; /* due at once: the next check asks the port to
                         cancel (cancel_run clears it) */
    c->flags |= AXL__CMD_KEEP_SLOT;
    keep_for_given_up(c);
    axl__complete(c, AXL_ERR_TIMEOUT, why);
}

/* Whether a unit's run is past its deadline and not yet abandoned. */
static bool overdue(const struct axl__cu *cu, uint64_t now)
{
    return AXL__IS_REF(cu->cmd) && !cu->abandoned && cu->deadline &&
           cu->deadline != UINT64_MAX && now >= cu->deadline;
}

/*
 * Gives up runs past their deadline, and asks the ports to cancel
 * abandoned runs they hold (lock held; dropped around run_cancel, never
 * from an interrupt handler). A run has no deadline while its dispatcher
 * is still inside run_start (axl__run_kernel arms it after), so nothing
 * here races the dispatcher. Returns how many runs it abandoned. Called
 * wherever progress is made: waits, polls, shutdown.
 */
unsigned axl__check_timeouts(void)
{
    const uint64_t host_now = axl__now();
    unsigned n = axl__pipeline_check_timeouts(host_now);
    const bool may_call_out = !axl_port_in_isr();
    const axl__pool *p = AXL__POOL(DEVICE);
    for (uint16_t s = 0; s < p->capacity; s++) {
        if (!axl__pool_is_live(p, s))
            continue;
        struct axl__device *d = axl__device_at(s);
        /* Each device's deadlines are on its own clock. */
        const uint64_t now = axl__dev_clocked(d) ? axl__dev_now(d) : host_now;
#if AXL_FEATURE_GRAPHS
        n += axl__replay_timeouts(d, now, may_call_out);
#endif
        for (uint8_t i = 0; i < d->ncus; i++) {
            struct axl__cu *cu = &d->cus[i];
            if (!AXL__IS_REF(cu->cmd))
                continue;
            if (overdue(cu, now)) {
                abandon(d, cu);
                n++;
            }
            if (AXL__IS_REF(cu->cmd) && cu->abandoned && !cu->cancel_asked &&
                may_call_out)
                cancel_run(d, cu);
        }
    }
    return n;
}

/* For a poll (lock held, any context, never blocks): abandons e's run if
 * it is past its deadline, and outside an interrupt handler asks the port
 * to cancel it (run_cancel must not block). Whether e completed so. */
bool axl__event_timed_out(struct axl__event *e)
{
    if (!AXL__IS_REF(e->command))
        return false;
    const struct axl__command *c = axl__command_deref(e->command);
    if (c->kind != AXL__CMD_KERNEL ||
        atomic_load_explicit(&e->state, memory_order_acquire) !=
            AXL_EVENT_RUNNING)
        return false;
    struct axl__device *d = axl__device_at(c->device);
    struct axl__cu *cu = &d->cus[c->u.kernel.cu];
    if (!axl__command_ref_eq(cu->cmd, e->command) ||
        !overdue(cu, axl__dev_now(d)))
        return false;
    abandon(d, cu);
    if (!axl_port_in_isr()) {
        cancel_run(d, cu);
        axl__pump();
    }
    return true;
}

/* Runs still out on a unit (abandoned ones whose port has not given them
 * back); the first is described in what. For axl_shutdown. */
unsigned axl__runs_out(char *what, size_t size)
{
    unsigned n = 0;
    const axl__pool *p = AXL__POOL(DEVICE);
    for (uint16_t s = 0; s < p->capacity; s++) {
        if (!axl__pool_is_live(p, s))
            continue;
        const struct axl__device *d = axl__device_at(s);
        for (uint8_t i = 0; i < d->ncus; i++) {
            const struct axl__cu *cu = &d->cus[i];
            const axl_hal_run *run = AXL__IS_REF(cu->cmd) ? &cu->run : NULL;
#if AXL_FEATURE_GRAPHS
            const struct axl__plan_run *pr =
                atomic_load_explicit(&cu->prun, memory_order_relaxed);
            if (!run && pr)
                run = &pr->hal;
#endif
            if (!run)
                continue;
            if (n++ == 0)
                axl_format(what, size, "kernel %s on compute unit %u of %s",
                           run->kernel_name, (unsigned)run->cu,
                           d->info.name);
        }
    }
    return n;
}
