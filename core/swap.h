/*
 * swap.h - on-demand reprogramming (issue 40, docs/designs-design.md 2):
 * a kernel command whose design is not the one its device carries waits
 * in the device's region FIFO; once no run is out on the region, a waiter
 * or a worker loads the design (the port's region_load, buffers kept)
 * and the commands of that design go on. With AXL_FEATURE_DESIGN_SWAP 0
 * none of it is built: a device carries one design at a time.
 */
#ifndef AXL_SWAP_H
#define AXL_SWAP_H

#include "rt.h"
#include "device_priv.h"

struct axl__command;

#if AXL_FEATURE_DESIGN_SWAP
/* Kernel command c (dispatch, lock held) cannot run now: its design is
 * not loaded, or an older command waits for another design (2.1's
 * barrier). It waits in its region's FIFO for its design's turn. */
void axl__swap_wait(struct axl__command *c);

/* Why command c is not complete, when it waits in a region's FIFO for
 * its design (a wait that timed out says so, naming what each slot does:
 * 3.3's "no free slot within the wait"); false when it waits for none
 * (lock held). */
bool axl__swap_waits_why(const struct axl__command *c, char *why,
                         size_t size);

/* Why graph submission c, failed while it waited for its design (a load
 * refused, a hung unit, a pinned design), was failed; NULL when it was
 * not (lock held). */
const char *axl__swap_failed_why(const struct axl__command *c);

/* Whether c must wait behind the oldest waiter of d's region (lock
 * held): a newer command of the loaded design, while another waits. */
static inline bool axl__swap_behind(const struct axl__device *d,
                                    uint16_t image, uint32_t seq)
{
    if (!axl__rt.swap_wants) /* no region waits: the launch's path */
        return false;
    /* On a shell, the barrier of the slot carrying the design (3.3). */
    const struct axl__device_region *g =
        &d->region[d->nslots ? axl__slot_carrying(d, image) : 0];
    return g->want != AXL__NO_WANT && (int32_t)(seq - g->want_seq) > 0;
}

/* A run on d's units ended (lock held): a swap waiting for the region to
 * go quiet may now be due; the threads that perform it are woken. */
void axl__swap_wake(void);
static inline void axl__swap_poke(struct axl__device *d)
{
    /* Any region that waits, a slot's too (swap_wants counts them all:
     * one load on a run's end, as region 0's want was). */
    (void)d;
    if (axl__rt.swap_wants)
        axl__swap_wake();
}

/* Performs the swaps that are due (lock held; dropped around each port
 * load). Called by waits and workers, never by a submission, an ISR or
 * axl_hal_run_done (2.2). True when it did something (a load, waiters
 * failed, or its pump dispatched or freed something, which may drop the
 * lock): the caller looks at its condition again. */
bool axl__swaps_run(void);

/* Loads partial img into its slot of d's shell at bundle time (3.3; lock
 * held, dropped around the port's load): when the slot is empty, or
 * carries a design nobody holds and nothing of it is in flight. Where the
 * design there is held or in flight, nothing loads and the first command
 * of img loads it on demand (axl__swap_wait; a device that does not swap
 * refuses, AXL_ERR_BAD_STATE naming both). A design an open IP or a
 * pipeline pins is never taken out (AXL_ERR_BAD_STATE). */
axl_status axl__slot_load(const char *fn, struct axl__device *d,
                          struct axl__image *img);

/* Partial img goes to slot region r of d (axl_kernel_bundle_place, lock
 * held; r is the slot a bundle of it names now): already there, nothing;
 * in another slot, that slot gives it up when nothing of it runs or
 * waits there and no open IP or pipeline pins it (else
 * AXL_ERR_BAD_STATE, nothing changed); then axl__slot_load. */
axl_status axl__slot_move(const char *fn, struct axl__device *d,
                          struct axl__image *img, uint8_t r);
#endif

/* A unit open or a design load that held d as `programming` is over (lock
 * held): the flag is cleared, and what it held off looks again: the waits
 * (DONE) and, on a device that swaps, a swap swap_one refused meanwhile,
 * which the workers (WORK) may be the only ones to run. */
static inline void axl__programming_done(struct axl__device *d)
{
    d->programming = false;
    if (axl__rt.waiters)
        axl_port_wake(AXL_PORT_CHANNEL_DONE);
#if AXL_FEATURE_DESIGN_SWAP
    axl__swap_poke(d);
#endif
}

#endif /* AXL_SWAP_H */
