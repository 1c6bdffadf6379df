/*
 * swap.c - on-demand reprogramming (swap.h; docs/designs-design.md 2.1,
 * 2.2, 2.5): the region FIFO, the quiet check, the claim, the load with
 * the lock dropped, and the release of the commands it was for.
 *
 * A region swaps once no run is out on its units. It never waits for a
 * pending command, a host accessor or a host task: commands that wait
 * for a design hold nothing, so the waits issue 40 names (a host accessor
 * held by the waiting thread, a command of the other design waiting on
 * this one) cannot form a cycle.
 */
#include <string.h>

#include "swap.h"

#if AXL_FEATURE_DESIGN_SWAP

#include "cu.h"
#include "sched_priv.h"
#include "image.h"
#include "kernel.h"
#include "bundle.h"
#include "place.h"
#include "observe.h"
#include "devops.h"
#include "replay.h"

/* The design command c runs (image slot): a kernel command's, or a
 * graph submission's (its plan's kernel nodes', 2.7). */
static uint16_t design_of(const struct axl__command *c)
{
#if AXL_FEATURE_GRAPHS
    if (c->kind == AXL__CMD_REPLAY)
        return c->u.replay.plan->image;
#endif
    return axl__kernel_id_at(c->u.kernel.kid)->image;
}


/* want and want_seq from the oldest waiter (none: the region wants
 * nothing, and the count of regions that do drops). */
static void want_again(struct axl__device_region *g)
{
    const bool wanted = g->want != AXL__NO_WANT;
    g->want = AXL__NO_WANT;
    for (axl__command_ref r = g->waiting.head; AXL__IS_REF(r);) {
        const struct axl__command *c = axl__command_deref(r);
        if (g->want == AXL__NO_WANT || (int32_t)(c->seq - g->want_seq) < 0) {
            g->want = design_of(c);
            g->want_seq = c->seq;
        }
        r = c->next;
    }
    if (wanted && g->want == AXL__NO_WANT)
        axl__rt.swap_wants--;
    else if (!wanted && g->want != AXL__NO_WANT)
        axl__rt.swap_wants++;
}

/* How many of g's waiters wait for design `image`. */
static uint32_t waiters_of(const struct axl__device_region *g, uint16_t image)
{
    uint32_t n = 0;
    for (axl__command_ref r = g->waiting.head; AXL__IS_REF(r);) {
        const struct axl__command *c = axl__command_deref(r);
        n += design_of(c) == image;
        r = c->next;
    }
    return n;
}

/* The waiters of design `image` leave the FIFO: to ready (st success) or
 * completed with st and why, each traced one with an arrow from the load
 * whose record is at ring position rec - 1 (0: none). How many. */
static uint32_t let_go_after(struct axl__device_region *g, uint16_t image,
                             axl_status st, const char *why, uint32_t rec)
{
    struct axl__cmd_fifo all = g->waiting;
    g->waiting.head = g->waiting.tail = AXL__NONE(command);
    uint32_t n = 0;
    struct axl__command *c;
    while ((c = axl__fifo_pop(&all))) {
        if (image != AXL__NO_WANT && design_of(c) != image) {
            axl__fifo_push(&g->waiting, c, axl__command_ref_of(c));
            continue;
        }
        n++;
        c->flags |= AXL__CMD_SWAPPED;
        if (rec && AXL__TRACED(c))
            axl__trace_dep(c, rec);
#if AXL_FEATURE_GRAPHS
        if (st != AXL_SUCCESS && c->kind == AXL__CMD_REPLAY) {
            /* Its nodes fail unrun through its dispatch, which gives
             * back what the submission holds (replay.c's finish), and
             * says why (axl__swap_failed_why). */
            c->dep_status = st;
            axl_format(g->failed_why, sizeof g->failed_why, "%s", why);
            axl__fifo_push(&axl__rt.ready, c, axl__command_ref_of(c));
            continue;
        }
#endif
        if (st == AXL_SUCCESS)
            axl__fifo_push(&axl__rt.ready, c, axl__command_ref_of(c));
        else
            axl__complete(c, st, why);
    }
    want_again(g);
    return n;
}

static uint32_t let_go(struct axl__device_region *g, uint16_t image,
                       axl_status st, const char *why)
{
    return let_go_after(g, image, st, why, 0);
}

static bool slot_quiet(const struct axl__device *d, uint8_t r);

/* How much a slot region r of d is in the way of a design that wants
 * one (3.3), lower first: 0 empty; 1 its design nobody holds and nothing
 * of it out or waiting; 2 held but idle; 3 running; 4 others wait for
 * it; 5 pinned (never taken while another would do). */
static unsigned slot_rank(const struct axl__device *d, uint8_t r)
{
    const struct axl__device_region *g = &d->region[r];
    if (g->loading || g->want != AXL__NO_WANT)
        return 4;
    if (!AXL__IS_REF(g->design))
        return 0;
    const uint16_t was = axl__placement_deref(g->design)->image;
    if (axl__image_pinned(d, was, NULL, 0))
        return 5;
    if (!slot_quiet(d, r))
        return 3;
    return axl__image_held(d, was, NULL, 0) ? 2 : 1;
}

/* The slot a design with no region on d goes to (3.3): the one a bundle
 * of it names (axl_kernel_bundle_place), else among the slots it has a
 * variant for the least in the way (slot_rank), the least recently
 * loaded of equals, or with waiters the one whose oldest waiter is
 * oldest. 0: it has a variant for no slot of d. */
static uint8_t slot_choice(const struct axl__device *d, uint16_t image)
{
    const uint8_t named = axl__bundle_slot_named(d, image);
    if (named && axl__image_variant(d, image, named) != AXL__NO_WANT)
        return named;
    uint8_t best = 0;
    unsigned best_rank = 9;
    for (uint8_t r = 1; r <= axl__device_slot_count(d); r++) {
        if (axl__image_variant(d, image, r) == AXL__NO_WANT)
            continue;
        const struct axl__device_region *g = &d->region[r], *b = &d->region[best];
        const unsigned rank = slot_rank(d, r);
        if (!best || rank < best_rank ||
            (rank == best_rank &&
             (rank == 4 ? (int32_t)(g->want_seq - b->want_seq) < 0
                        : (int32_t)(g->loaded_at - b->loaded_at) < 0))) {
            best = r;
            best_rank = rank;
        }
    }
    return best;
}

/* The region a command of design `image` waits in on d: region 0, or
 * on a device with a shell the slot that carries the design, is loading
 * it or already has a command of it waiting (a design waits in one
 * FIFO), else slot_choice's (3.3; a shell's static part never reloads).
 * 0 also for a design that is no partial of the shell, which cannot have
 * passed the bundle's checks. */
static uint8_t region_for(const struct axl__device *d, uint16_t image)
{
    if (!axl__device_slot_count(d))
        return 0;
    const uint8_t r = axl__slot_carrying(d, image);
    if (r)
        return r;
    for (uint8_t s = 1; s <= axl__device_slot_count(d); s++) {
        const struct axl__device_region *g = &d->region[s];
        if (g->want == image || (g->loading && g->incoming == image) ||
            (g->want != AXL__NO_WANT && waiters_of(g, image)))
            return s;
    }
    return slot_choice(d, image);
}

/* What region r of d is doing, for a message: "RP_0 runs scale (1 run
 * out)", "RP_1 keeps fir for kernel bundle 0x58001002", "RP_1 is empty";
 * region 0 is "it". */
AXL__MESSAGE_ONLY static void region_says(const struct axl__device *d,
                                          uint8_t r, char *buf, size_t size)
{
    const struct axl__device_region *g = &d->region[r];
    const char *where = r ? g->desc.name : "it";
    char name[32], holder[96];
    if (g->loading) {
        axl_format(buf, size, "%s loads", where);
        return;
    }
    if (!AXL__IS_REF(g->design)) {
        axl_format(buf, size, "%s is empty", where);
        return;
    }
    const uint16_t was = axl__placement_deref(g->design)->image;
    axl__design_name(axl__image_at(was), name, sizeof name);
    uint32_t runs = 0;
    for (uint8_t i = g->cu0; i < g->cu0 + g->ncu; i++)
        runs += AXL__IS_REF(d->cus[i].cmd);
    if (runs)
        axl_format(buf, size, "%s runs %s (%u run%s out)", where, name,
                   (unsigned)runs, runs == 1 ? "" : "s");
    else if (axl__image_held(d, was, holder, sizeof holder))
        axl_format(buf, size, "%s keeps %s for %s", where, name, holder);
    else
        axl_format(buf, size, "%s holds %s", where, name);
}

static bool fifo_has(const struct axl__cmd_fifo *f,
                     const struct axl__command *c)
{
    for (axl__command_ref x = f->head; AXL__IS_REF(x);
         x = axl__command_deref(x)->next)
        if (axl__command_deref(x) == c)
            return true;
    return false;
}

bool axl__swap_waits_why(const struct axl__command *c, char *why,
                         size_t size)
{
    const struct axl__device *d = axl__device_at(c->device);
    const uint8_t n = axl__device_slot_count(d);
    uint8_t r = 0;
    while (r <= n && !fifo_has(&d->region[r].waiting, c))
        r++;
    if (r > n)
        return false;
    char name[32], says[3][64] = {"", "", ""};
    axl__design_name(axl__image_at(design_of(c)), name, sizeof name);
    if (!r) {
        region_says(d, 0, says[0], sizeof says[0]);
        axl__why(why, size,
                 "%s did not take the design of %s within the time given "
                 "(the command goes on: wait again or poll): %s",
                 d->info.name, name, says[0]);
        return true;
    }
    for (uint8_t s = 1; s <= n && s <= 2; s++)
        region_says(d, s, says[s], sizeof says[s]);
    axl__why(why, size,
             "no slot of shell %s on %s took the design of %s within the time "
             "given (the command goes on: wait again or poll): %s%s%s%s",
             d->info.shell_name, d->info.name, name, says[1],
             n > 1 ? ", " : "", says[2], n > 2 ? ", ..." : "");
    return true;
}

#if AXL_FEATURE_GRAPHS
const char *axl__swap_failed_why(const struct axl__command *c)
{
    if (!(c->flags & AXL__CMD_SWAPPED) || !c->dep_status)
        return NULL;
    const struct axl__device *d = axl__device_at(c->device);
    const struct axl__device_region *g = &d->region[region_for(d, design_of(c))];
    return g->failed_why[0] ? g->failed_why : NULL;
}
#endif

void axl__swap_wait(struct axl__command *c)
{
    struct axl__device *d = axl__device_at(c->device);
    const uint8_t r = region_for(d, design_of(c));
    struct axl__device_region *g = &d->region[r];
    axl__fifo_push(&g->waiting, c, axl__command_ref_of(c));
    if (axl__device_slot_count(d) && !r) {
        char why[AXL_MESSAGE_MAX], name[32];
        axl__why(why, sizeof why,
                 "the design of %s fits no slot of %s's shell %s",
                 axl__design_name(axl__image_at(design_of(c)), name, sizeof name),
                 d->info.name, d->info.shell_name);
        if (g->want == AXL__NO_WANT)
            axl__rt.swap_wants++;
        g->want = design_of(c);
        let_go(g, design_of(c), AXL_ERR_BAD_STATE, why);
        return;
    }
    /* The oldest waiter says which design goes next: commands are
     * dispatched as they become ready, not in submission order. */
    if (g->want == AXL__NO_WANT)
        axl__rt.swap_wants++;
    if (g->want == AXL__NO_WANT || (int32_t)(c->seq - g->want_seq) < 0) {
        g->want = design_of(c);
        g->want_seq = c->seq;
    }
    axl__swap_poke(d);
}

/* A unit of d with a run out (a given-up one too; a hung one is reported
 * through *hung), or a graph's run: the region is not quiet. */
static bool runs_out(const struct axl__device *d, const struct axl__cu **hung)
{
    *hung = NULL;
#if AXL_FEATURE_GRAPHS
    if (d->replays)
        return true;
#endif
    for (uint8_t i = 0; i < d->ncus; i++) {
        const struct axl__cu *cu = &d->cus[i];
        if (AXL__IS_REF(cu->cmd) && cu->hung) {
            *hung = cu;
            continue;
        }
        if (AXL__IS_REF(cu->cmd)
#if AXL_FEATURE_GRAPHS
            || atomic_load_explicit(&cu->taken, memory_order_relaxed)
#endif
        )
            return true;
    }
    return false;
}

void axl__swap_wake(void)
{
    axl_port_wake(AXL_PORT_CHANNEL_DONE);
    if (axl__rt.idle_workers)
        axl_port_wake(AXL_PORT_CHANNEL_WORK);
}

/* Its commands fail at once: the hung unit will not give the region back
 * (2.5), and a wait for it would never end. */
static void fail_for_hung(struct axl__device *d, const struct axl__cu *hung)
{
    char why[AXL_MESSAGE_MAX], what[AXL_MESSAGE_MAX - 64];
    axl__unit_what(d, hung, what, sizeof what);
    axl__why(why, sizeof why, "%s cannot be programmed now: %s",
             d->info.name, what);
    let_go(&d->region[0], AXL__NO_WANT, AXL_ERR_RUNTIME, why);
}

/* The trace's record of a load of design `want` into region 0 of d in
 * place of `was` (2.6): its ring position + 1, 0 when not recording. */
static uint32_t trace_load(const struct axl__device *d, uint8_t r,
                           uint16_t want, axl__image_ref was, axl_status st,
                           uint64_t t0, uint64_t t1)
{
    if (!axl__trace_on())
        return 0;
    const struct axl__trace_load note = {
        .device = (uint16_t)AXL__SLOT(DEVICE, d),
        .region = r,
        .status = st,
        .number = axl__rt.loads + axl__rt.load_fails + 1u,
        .commands = waiters_of(&d->region[r], want),
        .was = AXL__IS_REF(was) ? axl__image_deref(was) : NULL,
        .now = axl__image_at(want),
        .t0 = t0,
        .t1 = t1};
    return axl__trace_program(&note);
}

/* Loads g's wanted design into d (2.2 steps 1-4): claimed with the lock
 * held, loaded with it dropped, settled with it held again. */
static void load(struct axl__device *d, struct axl__device_region *g)
{
    struct axl__image *img = axl__image_at(g->want);
    const uint16_t want = g->want;
    /* Step 1, the claim: no dispatch of either design until it is done
     * (the device carries nothing meanwhile), no other load. */
    uintptr_t old[AXL_MAX_DEVICE_CUS] = {0};
    uint8_t nold = 0;
    for (uint8_t i = 0; i < d->ncus; i++)
        if (d->cus[i].opened)
            old[nold++] = d->cus[i].handle;
    const axl__image_ref was = d->loaded;
    g->loading = true;
    d->programming = true;
    d->loaded = AXL__NONE(image);
    axl__place_swap_out(d);
    axl__rt.loading++;
    img->refs++; /* kept while unlocked */
    axl_port_unlock();

    /* Step 2: the old design's unit handles closed, the new one loaded. */
    for (uint8_t i = 0; i < nold; i++)
        axl__dev_cu_close(d, old[i]);
    char why[AXL_MESSAGE_MAX] = "";
    uint32_t region = 0;
    const uint64_t t0 = axl__dev_now(d);
    axl_status st = axl__dev_region_load(d, &region, &img->x, why, sizeof why);
    const uint64_t t1 = axl__dev_now(d);
    axl_hal_device_info info;
    if (st == AXL_SUCCESS)
        st = axl__dev_describe(d, &info);

    axl_port_lock();
    img->refs--;
    axl__rt.loading--;
    g->loading = false;
    d->programming = false;
    struct axl__placement *p = NULL;
    if (st == AXL_SUCCESS && !(p = axl__place_ready(d, img))) {
        st = AXL_ERR_OUT_OF_RESOURCES;
        axl_format(why, sizeof why,
                   "every placement is in use (AXL_MAX_PLACEMENTS %u, all loaded)",
                   (unsigned)AXL_MAX_PLACEMENTS);
    }
    /* Written before the commands it was for leave: each points at it. */
    const uint32_t rec = trace_load(d, 0, want, was, st, t0, t1);
    if (st != AXL_SUCCESS) {
        /* Step 4: what the region carries now is unknown. */
        axl__rt.load_fails++;
        char msg[AXL_MESSAGE_MAX], name[32];
        axl__why(msg, sizeof msg,
                 "programming %s with the design of %s failed (%s): %s",
                 d->info.name, axl__design_name(img, name, sizeof name),
                 axl_status_name(st), why[0] ? why : axl_last_message());
        let_go_after(g, want, st, msg, rec);
    } else {
        /* Step 3: it carries the new design; its commands go on. */
        info.builtin_image = d->info.builtin_image;
        info.builtin_image_size = d->info.builtin_image_size;
        info.builtin_design = d->info.builtin_design;
        info.region_count = d->info.region_count; /* as read at open */
        d->info = info;
        d->loaded = axl__image_ref_of(img);
        d->loaded_by = 0;
        axl__place_swap_in(d, p);
        axl__rt.loads++;
        g->loads++;
        const uint32_t n = let_go_after(g, want, AXL_SUCCESS, NULL, rec);
        char name[32], old_name[32];
        AXL__LOG(AXL__LOG_INFO,
                 "device programmed: %s: the design of %s in place of %s, "
                 "%llu ns, %u command%s released",
                 d->info.name, axl__design_name(img, name, sizeof name),
                 AXL__IS_REF(was) ? axl__design_name(axl__image_deref(was),
                                                old_name, sizeof old_name)
                                  : "none",
                 (unsigned long long)(t1 - t0), (unsigned)n,
                 n == 1 ? "" : "s");
        (void)name;
        (void)old_name;
        (void)n;
        (void)t0;
        (void)t1;
        (void)was;
    }
    axl__swap_wake();
}

/* The swap region 0 of d is due for, if any (lock held). */
static bool swap_one(struct axl__device *d)
{
    struct axl__device_region *g = &d->region[0];
    if (g->want == AXL__NO_WANT || g->loading || d->programming)
        return false;
    if (axl__device_carries(d, g->want)) {
        /* Its design came (a bundle loaded it): its waiters go on. */
        let_go(g, g->want, AXL_SUCCESS, NULL);
        return true;
    }
    const struct axl__cu *hung;
    if (runs_out(d, &hung))
        return false;
    /* A waiter still inside the port's progress (a run was out when it
     * looked) may read the units a load rewrites: the last one out
     * wakes the waits (sched.c). */
    if (g->progressing && !hung)
        return false;
    if (hung) {
        fail_for_hung(d, hung);
        return true;
    }
    /* A pinned design is never swapped out: the commands that would
     * need it to go fail at once (2.5), not wait for the application. */
    char why[AXL_MESSAGE_MAX];
    if (axl__design_pinned(d, why, sizeof why)) {
        let_go(g, g->want, AXL_ERR_BAD_STATE, why);
        return true;
    }
    load(d, g);
    return true;
}

static bool slot_swap_one(struct axl__device *d, uint8_t r);

bool axl__swaps_run(void)
{
    /* Commands a swap released, or waiting for a unit freed since, go
     * first: a claim after them finds their runs out (2.2 step 1). The
     * pump may drop the lock (a buffer freed, a command dispatched): then
     * the caller's condition may have changed meanwhile, and it looks
     * again rather than sleep on what it saw before (a wait that did
     * slept through a host accessor's start: 1 in 100 runs of the random
     * programs' two-design seeds). */
    bool did = axl__pump();
    const axl__pool *p = AXL__POOL(DEVICE);
    for (uint16_t s = 0; axl__rt.swap_wants && s < p->capacity; s++)
        if (axl__pool_is_live(p, s)) {
            struct axl__device *d = axl__device_at(s);
            did |= swap_one(d);
            for (uint8_t r = 1; r <= axl__device_slot_count(d); r++)
                did |= slot_swap_one(d, r);
        }
    if (did)
        axl__pump();
    return did;
}

/* ---- Slots (3.3): a partial loaded into its slot ----------------------- */

/* No load into a slot region is under way (axl__wait_until_pred). */
static bool slot_idle(const void *arg)
{
    return !((const struct axl__device_region *)arg)->loading;
}

/* Slot region r of d is quiet: no load, no run out on its run slots (a
 * given-up one too; 2.7's taken flag for a graph's runs). */
static bool slot_quiet(const struct axl__device *d, uint8_t r)
{
    const struct axl__device_region *g = &d->region[r];
    if (g->loading)
        return false;
    for (uint8_t i = g->cu0; i < g->cu0 + g->ncu; i++) {
        const struct axl__cu *cu = &d->cus[i];
        /* A hung unit never comes back: the port's load refuses it. */
        if ((AXL__IS_REF(cu->cmd) && !cu->hung)
#if AXL_FEATURE_GRAPHS
            || atomic_load_explicit(&cu->taken, memory_order_relaxed)
#endif
        )
            return false;
    }
    return true;
}

/* The handles of slot region r's opened units, into old; how many. */
static uint8_t opened_units(const struct axl__device *d, uint8_t r,
                            uintptr_t old[AXL_MAX_SLOT_UNITS])
{
    const struct axl__device_region *g = &d->region[r];
    uint8_t n = 0;
    for (uint8_t i = 0; i < g->ncu && n < AXL_MAX_SLOT_UNITS; i++)
        if (d->cus[g->cu0 + i].opened)
            old[n++] = d->cus[g->cu0 + i].handle;
    return n;
}

/* The port's load of img into slot region r, the lock dropped; the
 * slot's old unit handles are closed first. */
static axl_status slot_program(struct axl__device *d, uint8_t r,
                               struct axl__image *img, char *why,
                               size_t size, uint64_t *t0, uint64_t *t1)
{
    struct axl__device_region *g = &d->region[r];
    uintptr_t old[AXL_MAX_SLOT_UNITS];
    const uint8_t nold = opened_units(d, r, old);
    g->loading = true;
    g->incoming = img->lead;
    img->refs++; /* kept while unlocked */
    axl__rt.loading++;
    axl_port_unlock();
    for (uint8_t i = 0; i < nold; i++)
        axl__dev_cu_close(d, old[i]);
    uint32_t region = r;
    *t0 = axl__dev_now(d);
    axl_status st = AXL_ERR_FEATURE_NOT_SUPPORTED;
    if (d->port->region_load)
        st = d->port->region_load(d->data, &region, &img->x, why, size);
    else
        axl_format(why, size, "its port loads no region");
    *t1 = axl__dev_now(d);
    axl_port_lock();
    axl__rt.loading--;
    img->refs--;
    g->loading = false;
    g->incoming = AXL__NO_WANT;
    axl_port_wake(AXL_PORT_CHANNEL_DONE);
    return st;
}

/* Loads design `image` into slot region r of d (lock held, dropped
 * around the port's load), counts it and traces it; the region's
 * waiters for it go on, or fail with the load's message. The failure's
 * message is left in `msg`. */
static axl_status slot_load_now(struct axl__device *d, uint8_t r,
                                uint16_t image, char *msg, size_t size)
{
    struct axl__device_region *g = &d->region[r];
    struct axl__image *img = axl__image_at(image);
    const axl__image_ref was =
        AXL__IS_REF(g->design)
            ? axl__image_ref_at(axl__placement_deref(g->design)->image)
            : AXL__NONE(image);
    char why[AXL_MESSAGE_MAX] = "", name[32];
    uint64_t t0 = 0, t1 = 0;
    /* The design's image for this slot (1.2): its own or a variant's;
     * the placement is the design's, the same units in the same order. */
    axl_status st = slot_program(
        d, r, axl__image_at(axl__image_variant(d, image, r)), why,
        sizeof why, &t0, &t1);
    struct axl__placement *p = NULL;
    if (st == AXL_SUCCESS && !(p = axl__place_ready(d, img))) {
        st = AXL_ERR_OUT_OF_RESOURCES;
        axl_format(why, sizeof why,
                   "every placement is in use (AXL_MAX_PLACEMENTS %u)",
                   (unsigned)AXL_MAX_PLACEMENTS);
    }
    /* Written before the commands it was for leave: each points at it. */
    const uint32_t rec = trace_load(d, r, image, was, st, t0, t1);
    if (st != AXL_SUCCESS) {
        /* What the slot carries now is unknown (2.2 step 4). */
        axl__place_slot_out(d, r);
        axl__rt.load_fails++;
        axl__why(msg, size,
                 "programming slot %u (%s) of %s with the design of %s "
                 "failed (%s): %s",
                 (unsigned)(r - 1), g->desc.name, d->info.name,
                 axl__design_name(img, name, sizeof name), axl_status_name(st),
                 why[0] ? why : axl_last_message());
        let_go_after(g, image, st, msg, rec);
        axl__swap_wake();
        return st;
    }
    axl__place_slot_in(d, r, p);
    axl__rt.loads++;
    g->loads++;
    g->loaded_at = axl__rt.loads;
    const uint32_t n = let_go_after(g, image, AXL_SUCCESS, NULL, rec);
    AXL__LOG(AXL__LOG_INFO,
             "device programmed: %s slot %s: the design of %s, %llu ns, %u "
             "command%s released",
             d->info.name, g->desc.name, axl__design_name(img, name, sizeof name),
             (unsigned long long)(t1 - t0), (unsigned)n, n == 1 ? "" : "s");
    (void)n;
    axl__swap_wake();
    return AXL_SUCCESS;
}

/* Why the design in slot region r of d may not leave it: an open IP or a
 * pipeline pins it (2.5, as region 0's); false when it may. */
static bool slot_pinned(const struct axl__device *d, uint8_t r, char *why,
                        size_t size)
{
    const struct axl__device_region *g = &d->region[r];
    if (!AXL__IS_REF(g->design))
        return false;
    return axl__image_pinned(d, axl__placement_deref(g->design)->image, why,
                             size);
}

/* The load slot region r of d is due for, if any (lock held): its
 * oldest waiter's design, once no run of the design there is out (its
 * newer commands wait behind the waiter: axl__swap_behind). The
 * application holding that design does not keep the slot: its next
 * command brings it back, as region 0's swaps do (2.1). Like region 0's,
 * it never waits for a pending command: one may wait for what the
 * thread waiting for the load holds (a host accessor). */
static bool slot_swap_one(struct axl__device *d, uint8_t r)
{
    struct axl__device_region *g = &d->region[r];
    if (g->want == AXL__NO_WANT || g->loading || d->programming)
        return false;
    if (axl__slot_carrying(d, g->want) == r) {
        let_go(g, g->want, AXL_SUCCESS, NULL);
        return true;
    }
    if (AXL__IS_REF(g->design)) {
        char why[AXL_MESSAGE_MAX];
        if (slot_pinned(d, r, why, sizeof why)) {
            let_go(g, g->want, AXL_ERR_BAD_STATE, why);
            return true;
        }
        if (!slot_quiet(d, r))
            return false;
    }
    /* A polled port's waiter reads the units a load rewrites. */
    if (d->region[0].progressing)
        return false;
    char msg[AXL_MESSAGE_MAX];
    (void)slot_load_now(d, r, g->want, msg, sizeof msg);
    return true;
}

/* slot_quiet for axl__wait_until_pred. */
struct slot_of {
    const struct axl__device *d;
    uint8_t r;
};

static bool slot_quiet_of(const void *arg)
{
    const struct slot_of *q = arg;
    return slot_quiet(q->d, q->r);
}

axl_status axl__slot_load(const char *fn, struct axl__device *d,
                          struct axl__image *img)
{
    char why[AXL_MESSAGE_MAX], name[32], other[32];
    if (!axl__image_slot(d, &img->x, why, sizeof why))
        return axl__fail(fn, AXL_ERR_INVALID, "%s", why);
    const uint16_t image = (uint16_t)AXL__SLOT(IMAGE, img);
    uint8_t r;
    for (;;) {
        /* Chosen again after each wait: a slot may have come free. */
        r = region_for(d, image);
        struct axl__device_region *g = &d->region[r];
        if (g->loading) {
            axl__wait_until_pred(slot_idle, g);
            continue;
        }
        if (axl__slot_carrying(d, image) == r)
            return AXL_SUCCESS;
        /* Commands wait for the slot: they go first, and a command of
         * this design loads it in its turn. */
        if (g->want != AXL__NO_WANT && axl__dev_swaps(d))
            return AXL_SUCCESS;
        if (!AXL__IS_REF(g->design))
            break;
        const uint16_t was = axl__placement_deref(g->design)->image;
        if (slot_pinned(d, r, why, sizeof why))
            return axl__fail(fn, AXL_ERR_BAD_STATE,
                             "slot %u (%s) of %s cannot take the design of "
                             "%s now: %s",
                             (unsigned)(r - 1), g->desc.name, d->info.name,
                             axl__design_name(img, name, sizeof name), why);
        char holder[96];
        const bool held = axl__image_held(d, was, holder, sizeof holder);
        if (!held && slot_quiet(d, r))
            break;
        /* The design there is held or running: on a device that swaps,
         * the bundle is given and its first command loads it (on
         * demand), never a wait here for what this thread may hold. */
        if (axl__dev_swaps(d))
            return AXL_SUCCESS;
        if (held)
            return axl__fail(fn, AXL_ERR_BAD_STATE,
                             "slot %u (%s) of %s carries the design of %s, "
                             "held by %s: the design of %s cannot load "
                             "there until it is released",
                             (unsigned)(r - 1), g->desc.name, d->info.name,
                             axl__design_name(axl__image_at(was), other,
                                         sizeof other),
                             holder, axl__design_name(img, name, sizeof name));
        /* Nobody holds it and its runs are out: they end by themselves. */
        const struct slot_of q = {d, r};
        axl__wait_until_pred(slot_quiet_of, &q);
    }
    const axl_status st = slot_load_now(d, r, image, why, sizeof why);
    if (st != AXL_SUCCESS)
        return axl__fail(fn, st, "%s", why);
    return AXL_SUCCESS;
}

/* Slot region r of d gives up its design (lock held, dropped around the
 * port's closes of its units, the region marked loading meanwhile): it
 * carries nothing the runtime knows, and the design's placement stays,
 * unloaded, for its next load. The region is quiet. */
static void slot_vacate(struct axl__device *d, uint8_t r)
{
    struct axl__device_region *g = &d->region[r];
    uintptr_t old[AXL_MAX_SLOT_UNITS];
    const uint8_t nold = opened_units(d, r, old);
    g->loading = true;
    axl__rt.loading++;
    axl_port_unlock();
    for (uint8_t i = 0; i < nold; i++)
        axl__dev_cu_close(d, old[i]);
    axl_port_lock();
    axl__rt.loading--;
    g->loading = false;
    axl__place_slot_out(d, r);
    axl_port_wake(AXL_PORT_CHANNEL_DONE);
}

axl_status axl__slot_move(const char *fn, struct axl__device *d,
                          struct axl__image *img, uint8_t r)
{
    const uint16_t image = (uint16_t)AXL__SLOT(IMAGE, img);
    axl__wait_until_pred(slot_idle, &d->region[r]);
    const uint8_t cur = axl__slot_carrying(d, image);
    if (cur == r)
        return AXL_SUCCESS;
    if (cur) {
        const struct axl__device_region *g = &d->region[cur];
        char why[AXL_MESSAGE_MAX - 96], name[32];
        axl__design_name(img, name, sizeof name);
        if (slot_pinned(d, cur, why, sizeof why))
            return axl__fail(fn, AXL_ERR_BAD_STATE,
                             "the design of %s stays in slot %u (%s) of %s: "
                             "%s",
                             name, (unsigned)(cur - 1), g->desc.name,
                             d->info.name, why);
        if (!slot_quiet(d, cur) || g->want != AXL__NO_WANT)
            return axl__fail(fn, AXL_ERR_BAD_STATE,
                             "the design of %s has commands running in or "
                             "waiting for slot %u (%s) of %s: place it once "
                             "they are done (nothing changed)",
                             name, (unsigned)(cur - 1), g->desc.name,
                             d->info.name);
        slot_vacate(d, cur);
    }
    return axl__slot_load(fn, d, img);
}

#endif /* AXL_FEATURE_DESIGN_SWAP */
