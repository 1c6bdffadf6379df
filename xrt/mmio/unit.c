/*
 * xrt/mmio/unit.c - the mmio port's units (mmio_unit.h): the board's
 * wiring, the arguments a unit holds, ap_start, and the three ways a
 * run's end is seen (polling, the interrupt, poll then sleep), with the
 * model of the fabric behind the seam in a model build. Shared by the
 * device port the core drives (mmio.c) and the plan executor (fw_exec.c);
 * the protocol notes are mmio.c's header, the register table
 * docs/hls-control.md.
 */
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

#include "axl/runtime.h"
#include "mmio_unit.h"

#if MMIO_MODEL && defined(AXL_MMIO_MODEL_THREADS) && AXL_MMIO_MODEL_THREADS
#include <pthread.h>
#endif

mmio_fabric axl__mmio;
axl_mmio_counters axl__mmio_counters;
static const axl_mmio_board *board_set;

axl_status axl_mmio_set_board(const axl_mmio_board *board)
{
    board_set = board;
    return AXL_SUCCESS;
}

void axl_mmio_counters_get(axl_mmio_counters *out)
{
    const axl_mmio_counters *c = &axl__mmio_counters;
    out->starts = __atomic_load_n(&c->starts, __ATOMIC_RELAXED);
    out->polls = __atomic_load_n(&c->polls, __ATOMIC_RELAXED);
    out->irq_done = __atomic_load_n(&c->irq_done, __ATOMIC_RELAXED);
    out->irq_spurious = __atomic_load_n(&c->irq_spurious, __ATOMIC_RELAXED);
    out->resets = __atomic_load_n(&c->resets, __ATOMIC_RELAXED);
    out->irq_missing = __atomic_load_n(&c->irq_missing, __ATOMIC_RELAXED);
    out->loads = __atomic_load_n(&c->loads, __ATOMIC_RELAXED);
}

#if MMIO_MODEL
/* The board a model build has when the application names none: the
 * library's (axl_mmio_model_library writes this function). */
const axl_mmio_board *axl__mmio_default_board(void);
#endif

const axl_mmio_board *axl__mmio_the_board(void)
{
#if MMIO_MODEL
    if (!board_set)
        return axl__mmio_default_board();
#endif
    return board_set;
}


#if MMIO_MODEL
/* ---- The model (a model build only) --------------------------------------
 *
 * Calls into the model are serialised by model_lock and never nested: an
 * interrupt the model raises inside a call is noted in irq_pending and
 * delivered to axl_mmio_isr once the call has returned (from the model's
 * own threads it is delivered at once). After each call the model's clock
 * is read into model_ns, which the core reads (mmio_now) with its lock
 * held, when the model must not be called. */

#if defined(AXL_MMIO_MODEL_THREADS) && AXL_MMIO_MODEL_THREADS
static pthread_mutex_t model_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local int in_model; /* this thread is inside a model call */
#define MODEL_LOCK() (pthread_mutex_lock(&model_lock), in_model = 1)
#define MODEL_UNLOCK() (in_model = 0, pthread_mutex_unlock(&model_lock))
#define IN_MODEL() in_model
#else
/* One thread (a stepped model): an interrupt can only rise inside a call. */
#define MODEL_LOCK() ((void)0)
#define MODEL_UNLOCK() ((void)0)
#define IN_MODEL() 1
#endif
#define PENDING_WORDS ((AXL_MMIO_UNITS + 31) / 32)
static _Atomic uint32_t irq_pending[PENDING_WORDS];
static _Atomic uint32_t irq_any;    /* some bit of irq_pending is set */
/* The device's clock: the model's, from where the runtime's clock stood
 * when the device first opened (never 0, which the core reads as "no
 * time", and near the host's times in a trace), going on from one attach
 * to the next. */
static _Atomic uint64_t model_ns;
static uint64_t clock_base;
static _Atomic uint8_t done_hint; /* advance said DONE (model_advance) */

static void deliver_pending(void)
{
    atomic_store(&irq_any, 0u);
    for (uint32_t w = 0; w < PENDING_WORDS; w++) {
        uint32_t bits = atomic_exchange(&irq_pending[w], 0u);
        for (uint32_t b = 0; bits; b++, bits >>= 1)
            if (bits & 1u)
                axl_mmio_isr(w * 32u + b);
    }
}

static void read_clock(const axl_mmio_model *m)
{
    /* Between a detach and the next attach the model's clock is the
     * old design's, which clock_base already counts. */
    if (!axl__mmio.attached)
        return;
    atomic_store_explicit(&model_ns, clock_base + m->now_ns(m->user),
                          memory_order_relaxed);
}

const axl_mmio_model *axl__mmio_model_enter(void)
{
    MODEL_LOCK();
    return axl__mmio.model;
}

void axl__mmio_model_leave(const axl_mmio_model *m)
{
    if (m->now_ns)
        read_clock(m);
    MODEL_UNLOCK();
    if (atomic_load_explicit(&irq_any, memory_order_relaxed))
        deliver_pending();
}

/* The isr the model is given: a unit's interrupt line rose. */
static void model_isr(uint32_t ip_index)
{
    if (ip_index >= AXL_MMIO_UNITS)
        return;
    atomic_fetch_or(&irq_pending[ip_index / 32u], 1u << (ip_index % 32u));
    atomic_store(&irq_any, 1u);
    if (!IN_MODEL()) /* from the model's own thread: now, clock read first */
        axl__mmio_model_leave(axl__mmio_model_enter());
}

/* The seam (mmio_io.h): regs is the unit's IP_LAYOUT index + 1. */
uint32_t axl__mmio_model_rd32(uintptr_t regs, uint32_t off)
{
    const axl_mmio_model *m = axl__mmio_model_enter();
    uint32_t v = m->rd32(m->user, (uint32_t)regs - 1u, off);
    axl__mmio_model_leave(m);
    return v;
}

void axl__mmio_model_wr32(uintptr_t regs, uint32_t off, uint32_t value)
{
    const axl_mmio_model *m = axl__mmio_model_enter();
    m->wr32(m->user, (uint32_t)regs - 1u, off, value);
    axl__mmio_model_leave(m);
}

uint64_t axl__mmio_model_now(void)
{
    return atomic_load_explicit(&model_ns, memory_order_relaxed);
}

/* Powers the model up with the design and the banks' regions (each with
 * its host view). */
axl_status axl__mmio_model_attach(const axl_xclbin *design,
                                  const axl_mmio_bank_region *regions,
                                  uint32_t nbanks)
{
    if (!clock_base && axl__mmio.model->now_ns)
        clock_base = axl__mmio.now() | 1u;
    const axl_mmio_model *m = axl__mmio_model_enter();
    axl_status st = m->attach(m->user, design, regions, nbanks, model_isr);
    axl__mmio.attached = st == AXL_SUCCESS;
    axl__mmio_model_leave(m);
    return st;
}

/* Not serialised with the other calls: a model that joins threads of its
 * own here lets them finish an interrupt, whose entry calls the model. */
void axl__mmio_model_detach(void)
{
    if (!axl__mmio.attached)
        return;
    const axl_mmio_model *m = axl__mmio.model;
    m->detach(m->user);
    /* The next attach counts from 0 again: the device's clock goes on.
     * Under the model's lock: on a reprogramming between commands
     * (region_load) another thread may be in a call of the model (an
     * allocation's note), whose leave reads the clock. */
    MODEL_LOCK();
    axl__mmio.attached = 0;
    clock_base = atomic_load_explicit(&model_ns, memory_order_relaxed);
    MODEL_UNLOCK();
}

/* The model's word on a unit's last run (a side channel no IP has). */
axl_status axl__mmio_model_status(const mmio_unit *u, char *why, size_t size)
{
    const axl_mmio_model *m = axl__mmio.model;
    if (!m->run_status)
        return AXL_SUCCESS;
    m = axl__mmio_model_enter();
    axl_status st = m->run_status(m->user, (uint32_t)u->regs - 1u, why, size);
    axl__mmio_model_leave(m);
    return st;
}

axl_status axl_mmio_model_reset_unit(void *user, uint32_t ip_index)
{
    (void)user;
    const axl_mmio_model *m = axl__mmio.model;
    if (!m || !m->reset)
        return AXL_ERR_FEATURE_NOT_SUPPORTED;
    if (ip_index < AXL_MMIO_UNITS) /* the reset line clears the registers */
        axl__mmio_forget_held(&axl__mmio.units[ip_index]);
    m = axl__mmio_model_enter();
    axl_status st = m->reset(m->user, ip_index);
    axl__mmio_model_leave(m);
    return st;
}

axl_status axl_mmio_model_program(void *user, const axl_xclbin *image)
{
    (void)user;
    (void)image;
    return AXL_SUCCESS;
}

axl_status axl_mmio_model_program_slot(void *user, uint32_t slot,
                                       const axl_xclbin *image)
{
    (void)user;
    (void)slot;
    (void)image;
    return AXL_SUCCESS;
}

#if AXL_FEATURE_DESIGN_SWAP
/* Slot region `region` of the model now holds `design`, its units from
 * first_unit: the slot's old units powered down first (unserialised, as
 * detach: their threads may be inside isr), then the new ones up. */
axl_status axl__mmio_model_load_region(uint32_t region,
                                       const axl_xclbin *design,
                                       uint32_t first_unit)
{
    const axl_mmio_model *m = axl__mmio.model;
    if (m->detach_region)
        m->detach_region(m->user, region);
    m = axl__mmio_model_enter();
    axl_status st = m->attach_region(m->user, region, design, first_unit);
    axl__mmio_model_leave(m);
    return st;
}
#endif

void axl_mmio_model_board(axl_mmio_board *board, const axl_mmio_model *model,
                          const void *design, size_t design_size,
                          const axl_mmio_bank_region *banks,
                          uint32_t bank_count)
{
    memset(board, 0, sizeof *board);
    board->design = design;
    board->design_size = design_size;
    board->banks = banks;
    board->bank_count = bank_count;
    board->reset_unit = axl_mmio_model_reset_unit;
    board->program = axl_mmio_model_program;
#if AXL_FEATURE_DESIGN_SWAP
    board->program_slot = axl_mmio_model_program_slot;
#endif
    board->model = model;
    /* On demand only where the model is known to keep the banks across
     * an attach (designs-design.md 3.7): the board's maker says so. */
    board->fixed_design = 1;
}
#endif /* MMIO_MODEL */

/* ---- Clock ------------------------------------------------------------------ */

/* The device's clock: the model's when it has one, else the owner's. */
AXL_HOT uint64_t axl__mmio_now(void)
{
#if MMIO_MODEL
    if (axl__mmio.model->now_ns)
        return axl__mmio_model_now();
#endif
    return axl__mmio.now();
}

/* ---- Wiring and completion modes ------------------------------------------ */

uint8_t axl__mmio_board_mode(const mmio_unit *u)
{
    if (!u->irq)
        return AXL_MMIO_COMPLETION_POLL;
    uint8_t m = axl__mmio.board->completion;
    return m >= AXL_MMIO_COMPLETION_INTERRUPT &&
                   m <= AXL_MMIO_COMPLETION_POLL_THEN_SLEEP
               ? m
               : (uint8_t)AXL_MMIO_COMPLETION;
}

void axl__mmio_unit_forget(mmio_unit *u)
{
    memset((unsigned char *)u + offsetof(mmio_unit, regs), 0,
           sizeof *u - offsetof(mmio_unit, regs));
    atomic_store(&u->run, NULL);
    atomic_store(&u->hung_run, NULL);
#if MMIO_STREAMS
    __atomic_store_n(&u->restart, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&u->pipe, NULL, __ATOMIC_RELEASE);
#endif
}

axl_status axl__mmio_map_unit(uint32_t ip_index, uint64_t phys,
                              const char *name, size_t name_len)
{
    if (ip_index >= AXL_MMIO_UNITS)
        return mmio_fail(AXL_ERR_OUT_OF_RESOURCES,
                         "mmio: %.*s is IP_LAYOUT entry %u; the port drives "
                         "entries below AXL_MMIO_UNITS (%u)",
                         (int)name_len, name, (unsigned)ip_index,
                         (unsigned)AXL_MMIO_UNITS);
    const axl_mmio_board *bd = axl__mmio.board;
    mmio_unit *u = &axl__mmio.units[ip_index];
    u->phys = phys;
    u->irq = 0;
    u->sw_reset = 0;
    axl_format(u->name, sizeof u->name, "%.*s", (int)name_len, name);
    for (uint32_t w = 0; bd->units && w < bd->unit_count; w++) {
        if (bd->units[w].ip_index != ip_index)
            continue;
        if (bd->units[w].base)
            u->phys = bd->units[w].base;
        u->irq = bd->units[w].irq;
        u->sw_reset = bd->units[w].sw_reset;
    }
    if (MMIO_MODEL) {
        u->regs = (uintptr_t)ip_index + 1u; /* the model's unit (mmio_io.h) */
    } else if (bd->map_ctrl) {
        u->regs = bd->map_ctrl(bd->user, u->phys, 0x10000);
    } else if (u->phys > UINTPTR_MAX) {
        return mmio_fail(AXL_ERR_PLATFORM,
                         "mmio: %s at 0x%llx is outside the CPU's address "
                         "space; the board must map it "
                         "(axl_mmio_board.map_ctrl)",
                         u->name, (unsigned long long)u->phys);
    } else {
        u->regs = (uintptr_t)u->phys;
    }
    if (!u->regs)
        return mmio_fail(AXL_ERR_PLATFORM,
                         "mmio: the board could not map %s at 0x%llx "
                         "(axl_mmio_board.map_ctrl)",
                         u->name, (unsigned long long)u->phys);
    return AXL_SUCCESS;
}

axl_status axl__mmio_wire_unit(uint32_t ip_index, uint64_t phys, int chain,
                               const char *name, size_t name_len)
{
    axl_status st = axl__mmio_map_unit(ip_index, phys, name, name_len);
    if (st != AXL_SUCCESS)
        return st;
    mmio_unit *u = &axl__mmio.units[ip_index];
    u->known = 1;
    u->chain = (uint8_t)(chain != 0);
    u->mode = axl__mmio_board_mode(u);
    atomic_store(&u->polled, u->mode != AXL_MMIO_COMPLETION_INTERRUPT);
    return AXL_SUCCESS;
}

/* The entry's side of the hand-over: it counts itself in before it looks
 * at `polled`, the waiter sets `polled` before it waits for the count to
 * fall (both sequentially consistent), so either the entry sees the
 * change or the waiter sees the entry and waits for it to leave. On a
 * single core the entry runs to its end before the waiter goes on. */
AXL_HOT static void wait_for_isr(mmio_unit *u)
{
    while (atomic_load(&u->in_isr))
        axl_port_relax();
}

/* The waiter ends the unit's runs from now on. */
AXL_HOT static void take_from_isr(mmio_unit *u)
{
    atomic_store(&u->polled, 1);
    wait_for_isr(u);
}

/* The interrupt entry ends the unit's runs from now on (the entry of a
 * polled unit writes GIE 0, so it must be out before GIE is set). */
AXL_HOT static void give_to_isr(mmio_unit *u)
{
    atomic_store(&u->polled, 0);
    wait_for_isr(u);
}

/* Sets the unit's interrupt registers for its mode: on for interrupt,
 * off (GIE) with IER on for poll then sleep (ap_done still sets the ISR,
 * which its switch to sleep reads), all off for polling. A unit the
 * board does not wire is not touched. */
void axl__mmio_arm(mmio_unit *u)
{
    u->gie_on = 0;
    atomic_fetch_add(&u->starts, 1u); /* the looker begins afresh */
    if (!u->irq) {
        atomic_store(&u->polled, 1);
        return;
    }
    if (u->mode == AXL_MMIO_COMPLETION_INTERRUPT) {
        mmio_wr32(u->regs, MMIO_IER, MMIO_IRQ_DONE);
        give_to_isr(u);
        mmio_wr32(u->regs, MMIO_GIE, 1);
        return;
    }
    take_from_isr(u);
    mmio_wr32(u->regs, MMIO_GIE, 0);
    mmio_wr32(u->regs, MMIO_IER,
              u->mode == AXL_MMIO_COMPLETION_POLL ? 0u : MMIO_IRQ_DONE);
}

/* ---- Starting a run ----------------------------------------------------------- */

/* A hung unit (the core sends none a run; a port test or a plan may).
 * Apart, so that the launch path does not carry its message. */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static axl_status refuse_hung(const mmio_unit *u)
{
    return mmio_fail(AXL_ERR_RUNTIME,
                     "mmio: compute unit %s at 0x%llx hung (a run timed "
                     "out%s) and an HLS IP cannot be aborted; it stays "
                     "unusable until axl_mmio_reset_unit(%u) brings it back "
                     "(ap_sw_reset or the board's reset hook)",
                     u->name, (unsigned long long)u->phys,
                     atomic_load_explicit(&u->reset_ctrl,
                                          memory_order_relaxed)
                         ? "; ap_sw_reset left it busy"
                         : "",
                     (unsigned)(u - axl__mmio.units));
}

#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static axl_status refuse_ctrl(const mmio_unit *u, uint32_t ctrl)
{
    if (ctrl == MMIO_ALL_ONES)
        return mmio_fail(AXL_ERR_RUNTIME,
                         "mmio: compute unit %s at 0x%llx reads all ones: no "
                         "IP answers there (is the design programmed, and "
                         "the base address right?)",
                         u->name, (unsigned long long)u->phys);
    return mmio_fail(AXL_ERR_RUNTIME,
                     "mmio: compute unit %s at 0x%llx is not idle "
                     "(control word 0x%x)",
                     u->name, (unsigned long long)u->phys, (unsigned)ctrl);
}

AXL_HOT axl_status axl__mmio_ready(mmio_unit *u)
{
    if (atomic_load_explicit(&u->hung_run, memory_order_relaxed))
        return refuse_hung(u);
    if (u->idle_seen)
        return AXL_SUCCESS; /* the poll that ended its run read it idle,
                               and consumed the done */
    /* This read also consumes an ap_done (clear on read in ap_ctrl_hs)
     * that a run the interrupt ended left behind. */
    const uint32_t ctrl = mmio_rd32(u->regs, MMIO_CTRL);
    if (ctrl == MMIO_ALL_ONES || !(ctrl & MMIO_AP_IDLE))
        return refuse_ctrl(u, ctrl);
    return AXL_SUCCESS;
}

AXL_HOT void axl__mmio_put_wide(mmio_unit *u, uint32_t m, const void *value,
                        uint64_t n)
{
    const mmio_arg *r = &u->args[m];
    const unsigned char *v = value;
    u->held_mask &= ~(1u << m);
    for (uint32_t w = 0; w * 4u < r->size; w++) {
        uint32_t x = 0;
        uint64_t at = (uint64_t)w * 4u;
        if (at < n)
            memcpy(&x, v + at, n - at < 4 ? (size_t)(n - at) : 4u);
        mmio_wr32(u->regs, r->offset + w * 4u, x);
    }
}

/* Marks unit u in a hint set of mmio_fabric, after the field it hints
 * at is set: a release, which a poll's clearing of the bit (a later
 * read-modify-write of the word) acquires before it reads the field
 * again. */
AXL_HOT static inline void hint_set(uint32_t *set, const mmio_unit *u)
{
    const uint32_t i = (uint32_t)(u - axl__mmio.units);
    __atomic_fetch_or(&set[i / 32u], 1u << (i % 32u), __ATOMIC_RELEASE);
}

/* Whether unit u has the work a hint set of mmio_fabric marks: a run
 * out (busy) or, with streams, auto-restart (restarting). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
AXL_HOT static inline int hinted_work(const uint32_t *set, const mmio_unit *u)
{
#if MMIO_STREAMS
    if (set != axl__mmio.busy)
        return __atomic_load_n(&u->restart, __ATOMIC_SEQ_CST) != 0;
#endif
    (void)set;
    return atomic_load(&u->run) != NULL;
}

/* A poll found no work where unit u's bit (bit of word w) of a hint set
 * says: the bit goes and the work is looked at again, since a start that
 * set both meanwhile either set the bit after this clear or released its
 * work to it (the bit is then put back). Whether there is work. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
AXL_HOT static inline int hint_recheck(uint32_t *set, uint32_t w,
                                       uint32_t bit, const mmio_unit *u)
{
    __atomic_fetch_and(&set[w], ~bit, __ATOMIC_ACQUIRE);
    if (!hinted_work(set, u))
        return 0;
    __atomic_fetch_or(&set[w], bit, __ATOMIC_RELAXED);
    return 1;
}

AXL_HOT void axl__mmio_go(mmio_unit *u, const void *run)
{
    if (u->mode == AXL_MMIO_COMPLETION_POLL_THEN_SLEEP) {
        if (u->gie_on) {
            /* The interrupt ended the last run: off again for the spin. */
            atomic_store(&u->polled, 1);
            mmio_wr32(u->regs, MMIO_GIE, 0);
            u->gie_on = 0;
        }
        u->spin_end = axl__mmio_now() + AXL_MMIO_POLL_SPIN_NS;
    }
    u->idle_seen = 0;
    atomic_fetch_add(&u->starts, 1u);
    atomic_store(&u->run, run);
    hint_set(axl__mmio.busy, u);
    axl__mmio_count(&axl__mmio_counters.starts);
    /* One write: ap_start with auto_restart (bit 7) off. */
    mmio_wr32(u->regs, MMIO_CTRL, MMIO_AP_START);
}

/* ---- Seeing the end ----------------------------------------------------------- */

/* Tells the unit's client how its run ended; in a model build a run the
 * IP ended well carries the model's word on it (a side channel no IP
 * has), asked here once for both clients. */
AXL_HOT static void tell(mmio_unit *u, const void *run, axl_status st,
                         const char *why)
{
#if MMIO_MODEL
    char buf[AXL_MESSAGE_MAX];
    if (st == AXL_SUCCESS) {
        st = axl__mmio_model_status(u, buf, sizeof buf);
        why = buf;
    }
#endif
    u->ended(u, run, st, why);
}

AXL_HOT void axl__mmio_finish(mmio_unit *u, axl_status st, const char *why)
{
    const void *run = atomic_exchange(&u->run, NULL);
    if (!run)
        return;
    if (u->chain)
        mmio_wr32(u->regs, MMIO_CTRL, MMIO_AP_CONTINUE);
    tell(u, run, st, why);
}

/* The unit finished and its interrupt did not come (a look saw ap_done a
 * grace ago, grace_of): said once, counted, and the unit is polled
 * from now on, its interrupt off. Nonzero when the run ended. */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static int interrupt_missing(mmio_unit *u)
{
    take_from_isr(u);
    if (!atomic_load(&u->run)) {
        /* It came after all, only late: the entry keeps the unit. */
        give_to_isr(u);
        return 1;
    }
    const uint32_t gie = mmio_rd32(u->regs, MMIO_GIE);
    const uint32_t ier = mmio_rd32(u->regs, MMIO_IER);
    mmio_wr32(u->regs, MMIO_GIE, 0);
    mmio_wr32(u->regs, MMIO_IER, 0);
    u->mode = AXL_MMIO_COMPLETION_POLL;
    u->fell_back = 1;
    u->gie_on = 0;
    axl__mmio_count(&axl__mmio_counters.irq_missing);
    if (!u->reported && axl__mmio.warn) {
        u->reported = 1;
        axl__mmio.warn(u, gie, ier);
    }
    const void *run = atomic_exchange(&u->run, NULL);
    if (!run)
        return 1;
    if (u->chain)
        mmio_wr32(u->regs, MMIO_CTRL, MMIO_AP_CONTINUE);
    /* The done bit the entry never acknowledged (IER is 0 now: no other
     * sets). */
    const uint32_t isr = mmio_rd32(u->regs, MMIO_ISR);
    if (isr && isr != MMIO_ALL_ONES)
        mmio_wr32(u->regs, MMIO_ISR, isr);
    tell(u, run, AXL_SUCCESS, NULL);
    return 1;
}

/* How long the looker gives run `start` of u between looks and a done
 * it saw for its interrupt: AXL_MMIO_IRQ_GRACE_NS, or for the first run
 * it looks at after a slot load wired the unit AXL_MMIO_IRQ_VERIFY_NS
 * (designs-design 3.4: a load may leave the slot's lines dead; that run
 * finds out). */
AXL_HOT static uint64_t grace_of(const mmio_unit *u, uint32_t start)
{
#if AXL_FEATURE_DESIGN_SWAP
    if (start == u->verify_start)
        return AXL_MMIO_IRQ_VERIFY_NS;
#else
    (void)u;
    (void)start;
#endif
    return AXL_MMIO_IRQ_GRACE_NS;
}

/* An interrupt-driven unit, looked at by one waiter (u->looking): every
 * grace (grace_of) a read of its control word; a done seen there that
 * the interrupt has not ended one grace later is a missing
 * interrupt. The read clears an ap_ctrl_hs ap_done, and the look keeps
 * what it saw (done_seen), for that fall-back; the entry does not need
 * it: it reads the ISR, for ap_ctrl_chain too when the control word shows
 * no done (isr_entry). Nonzero when the run ended. */
AXL_HOT static int look_for_interrupt(mmio_unit *u)
{
    const uint64_t now = axl__mmio_now();
    const uint32_t start = atomic_load(&u->starts);
    if (start != u->look_start) { /* another run: begin afresh */
        u->look_start = start;
        u->next_look = 0;
        u->done_seen = 0;
#if AXL_FEATURE_DESIGN_SWAP
        if (u->verify_next) { /* the first run since a slot load */
            u->verify_next = 0;
            u->verify_start = start;
        }
#endif
    }
#if MMIO_MODEL
    if (!u->done_seen &&
        atomic_load_explicit(&done_hint, memory_order_relaxed)) {
        atomic_store_explicit(&done_hint, 0, memory_order_relaxed);
        u->next_look = now; /* look now */
    }
#endif
    const uint64_t grace = grace_of(u, start);
    if (!u->next_look) {
        u->next_look = now + grace;
        return 0;
    }
    if (now < u->next_look)
        return 0;
    u->next_look = now + grace;
    if (u->done_seen)
        return now - u->done_at >= grace ? interrupt_missing(u) : 0;
    const uint32_t ctrl = mmio_rd32(u->regs, MMIO_CTRL);
    if (!atomic_load(&u->run))
        return 1; /* the interrupt ended it meanwhile */
    if (ctrl != MMIO_ALL_ONES && (ctrl & MMIO_AP_DONE)) {
        u->done_seen = 1;
        u->done_at = now;
    }
    return 0;
}

/* Poll then sleep, the spin over: the ISR's stale done bits (of runs the
 * poll ended; IER stays on) are cleared while GIE is 0 and the entry
 * leaves the ISR alone, then one more read of ap_done (a done that came
 * since would have been cleared with them), then GIE on: a done from
 * here raises the line. Nonzero when the run ended. */
AXL_HOT static int go_to_sleep(mmio_unit *u)
{
    const uint32_t isr = mmio_rd32(u->regs, MMIO_ISR);
    if (isr && isr != MMIO_ALL_ONES)
        mmio_wr32(u->regs, MMIO_ISR, isr);
    const uint32_t ctrl = mmio_rd32(u->regs, MMIO_CTRL);
    if (ctrl != MMIO_ALL_ONES && (ctrl & MMIO_AP_DONE)) {
        axl__mmio_finish(u, AXL_SUCCESS, NULL);
        return 1;
    }
    give_to_isr(u);
    u->gie_on = 1;
    mmio_wr32(u->regs, MMIO_GIE, 1);
    return !atomic_load(&u->run);
}

/* A unit whose end is (or is about to be) the interrupt's, looked at by
 * the waiter that claims it. Nonzero when its run ended, -1 while the
 * poll spins (the caller reads the control word). */
AXL_HOT static int look_at_unit(mmio_unit *u)
{
    if (!atomic_load(&u->polled))
        return look_for_interrupt(u);
    if (axl__mmio_now() >= u->spin_end)
        return go_to_sleep(u);
    return -1; /* still spinning: poll it */
}

/* Reads a claimed unit's control word once; nonzero when its run ended. */
AXL_HOT static int read_ctrl(mmio_unit *u)
{
    axl__mmio_count(&axl__mmio_counters.polls);
    uint32_t ctrl = mmio_rd32(u->regs, MMIO_CTRL);
    if (ctrl == MMIO_ALL_ONES) {
        axl__mmio_finish(u, AXL_ERR_RUNTIME,
               "mmio: the compute unit's registers read all ones: the IP "
               "stopped answering");
        return 1;
    }
    if (ctrl & MMIO_AP_DONE) {
        /* Idle, and its done consumed: by this read (ap_ctrl_hs) or by
         * the ap_continue finish writes (ap_ctrl_chain). */
        u->idle_seen = (ctrl & MMIO_AP_IDLE) != 0;
        axl__mmio_finish(u, AXL_SUCCESS, NULL);
        return 1;
    }
    return 0;
}

/* Looks at a running unit once; nonzero when its run ended. One waiter
 * at a time (u->looking), whatever the unit's mode: two waiters polling
 * one unit, the first could end run 1 and start run 2 on it (its end
 * dispatches the next command) between the second's read of the run
 * and its read of the control word, and the second would end run 2 on
 * run 1's done (an ap_ctrl_chain done stands until ap_continue). A
 * waiter that finds the unit claimed moves on to the others. And one
 * claimer of the run at a time: a polled unit's runs are the waiter's,
 * an interrupt-driven one's the entry's. With two, a poll could end
 * run 1 and the next run start while run 1's done bit still stands in
 * the ISR, and the interrupt entry, seeing it, would end run 2 before
 * the IP had. (Clearing the ISR from the poll instead races the entry's
 * read-and-write-back on a toggle-on-write ISR.) The waiter takes a unit
 * over (take_from_isr) only with its GIE off or going off, and touches
 * the ISR only then. */
AXL_HOT static int poll_unit(mmio_unit *u)
{
    if (atomic_exchange(&u->looking, 1))
        return !atomic_load(&u->run);
    int ended = 1; /* the run ended before the claim */
    if (atomic_load(&u->run)) {
        ended = -1;
        if (atomic_load_explicit(&u->mode, memory_order_relaxed) !=
            AXL_MMIO_COMPLETION_POLL)
            ended = look_at_unit(u);
        if (ended < 0)
            ended = read_ctrl(u);
    }
    atomic_store(&u->looking, 0);
    return ended;
}

/* Hung units (run_cancel) are looked at, never waited for: one whose IP
 * raised ap_done after all gives its run back. From progress while it
 * waits for other units (the core does not wait for hung ones). */
static void poll_hung(void)
{
    for (uint32_t i = 0; i < AXL_MMIO_UNITS; i++) {
        mmio_unit *u = &axl__mmio.units[i];
        if (!atomic_load(&u->hung_run) || !atomic_load(&u->polled))
            continue; /* an interrupt-driven unit's late end is its
                         interrupt's */
        uint32_t ctrl = mmio_rd32(u->regs, MMIO_CTRL);
        if (ctrl == MMIO_ALL_ONES || !(ctrl & MMIO_AP_DONE))
            continue;
        if (u->chain)
            mmio_wr32(u->regs, MMIO_CTRL, MMIO_AP_CONTINUE);
        const void *run = atomic_exchange(&u->hung_run, NULL);
        if (run)
            u->ended(u, run, AXL_ERR_TIMEOUT,
                     "the run was given up at its timeout; its unit "
                     "raised ap_done later");
    }
}

#if MMIO_MODEL
/* The model stopped (advance said so): every running unit's run ends,
 * with what the model says of it. */
static void model_stopped(void)
{
    for (uint32_t i = 0; i < AXL_MMIO_UNITS; i++) {
        mmio_unit *u = &axl__mmio.units[i];
        if (!atomic_load(&u->run))
            continue;
        char why[AXL_MESSAGE_MAX];
        axl_status st = axl__mmio_model_status(u, why, sizeof why);
        if (st == AXL_SUCCESS) {
            st = AXL_ERR_RUNTIME;
            axl_format(why, sizeof why,
                       "mmio: the model (%s) stopped while compute unit %s "
                       "ran",
                       axl__mmio.model->name ? axl__mmio.model->name : "unnamed", u->name);
        }
        axl__mmio_finish(u, st, why);
    }
}

/* Some runs failed, the model goes on: those runs end, with what the
 * model says of each. */
static void runs_failed(void)
{
    for (uint32_t i = 0; i < AXL_MMIO_UNITS; i++) {
        mmio_unit *u = &axl__mmio.units[i];
        if (!atomic_load(&u->run))
            continue;
        char why[AXL_MESSAGE_MAX];
        const axl_status st = axl__mmio_model_status(u, why, sizeof why);
        if (st != AXL_SUCCESS)
            axl__mmio_finish(u, st, why);
    }
}

/* Gives the model time while a unit runs: with a clock, one slice of it
 * (up to the deadline), after which progress returns so the waiter can
 * look at the host's clock and other devices (hal.h, now); in real time,
 * whatever is pending (a model without threads runs its units here). Nonzero
 * when progress should return after its next look at the units. */
int axl__mmio_model_advance(uint64_t deadline_ns)
{
    const axl_mmio_model *m = axl__mmio.model;
    uint64_t until = AXL_MMIO_MODEL_FOREVER;
    if (m->now_ns) {
        uint64_t now = atomic_load_explicit(&model_ns, memory_order_relaxed);
        until = now + AXL_MMIO_MODEL_SLICE_NS;
        if (deadline_ns < until)
            until = deadline_ns;
        until = until > clock_base ? until - clock_base : 0;
    }
    m = axl__mmio_model_enter();
#if MMIO_STREAMS
    if (m->work_to_come)
        m->work_to_come(m->user, axl__mmio_work_to_come());
#endif
    int ev = m->advance(m->user, AXL_MMIO_MODEL_ANY_UNIT, until);
    axl__mmio_model_leave(m);
    if (ev == AXL_MMIO_MODEL_DONE)
        /* A done stands that no read has seen: an interrupt-driven unit's
         * look reads it now (the model returns at once until it is read,
         * mmio_model.h, advance). */
        atomic_store_explicit(&done_hint, 1, memory_order_relaxed);
    if (ev == AXL_MMIO_MODEL_ERROR) {
        model_stopped();
        return 1;
    }
    if (ev == AXL_MMIO_MODEL_RUN_FAILED) {
        runs_failed();
        return 1;
    }
    return m->now_ns != NULL;
}

#endif

#if MMIO_STREAMS
/* ---- Auto-restart units (pipe.c) -------------------------------------------
 *
 * What the hardware shows of an iteration's end depends on the release
 * that generated the control block (docs/hls-control.md, "Auto-restart"):
 * from 2022.2 the control word shows none (the block continues the core
 * itself) and only the status register's done bit sets, once per
 * iteration, sticky; before 2022.2 the control word's ap_done rises too
 * and, in ap_ctrl_chain, the core waits for ap_continue. The port cannot
 * tell which it drives, and counts from the status bit, which both set:
 * an iteration is counted when a look finds it set, so iterations that
 * end while it is still set count as one. Before 2022.2 that never
 * happens (the core waits for the look's ap_continue); from 2022.2 the
 * count is exact while each iteration outlasts the gap between two looks
 * (the interrupt entry's latency, or a waiter's polls), and short by the
 * iterations merged otherwise. IER's done bit is on for such a unit in
 * every completion mode; GIE only in interrupt mode. */

void axl__mmio_restart_arm(mmio_unit *u)
{
    if (u->irq) {
        take_from_isr(u);
        mmio_wr32(u->regs, MMIO_GIE, 0);
    }
    /* A done status left by a command's run (poll then sleep leaves
     * them) is no iteration of this one. */
    const uint32_t s = mmio_rd32(u->regs, MMIO_ISR);
    if (s && s != MMIO_ALL_ONES)
        mmio_wr32(u->regs, MMIO_ISR, s);
    mmio_wr32(u->regs, MMIO_IER, MMIO_IRQ_DONE);
    u->gie_on = 0;
    if (u->irq && u->mode == AXL_MMIO_COMPLETION_INTERRUPT) {
        give_to_isr(u);
        mmio_wr32(u->regs, MMIO_GIE, 1);
    }
}

void axl__mmio_restart_claim(mmio_unit *u)
{
    if (u->irq) {
        take_from_isr(u);
        mmio_wr32(u->regs, MMIO_GIE, 0);
    }
    __atomic_store_n(&u->restart, 0, __ATOMIC_SEQ_CST);
    /* A waiter's look under way (axl__mmio_service), which might write
     * auto_restart back, ends first; a later one sees restart clear. */
    while (atomic_exchange(&u->looking, 1))
        axl_port_relax();
    atomic_store(&u->looking, 0);
}

int axl__mmio_restart_look(mmio_unit *u, uint32_t keep)
{
    const uint32_t s = mmio_rd32(u->regs, MMIO_ISR);
    if (s == MMIO_ALL_ONES || !(s & MMIO_IRQ_DONE))
        return 0;
    /* ap_continue first (before 2022.2 the core holds ap_done for it, and
     * a clear-on-read status set itself again meanwhile; from 2022.2 it
     * changes nothing), with auto_restart as it is to stay: every write
     * of 0x00 rewrites it. Then the status read again and written back,
     * which clears either kind. */
    mmio_wr32(u->regs, MMIO_CTRL, MMIO_AP_CONTINUE | keep);
    const uint32_t again = mmio_rd32(u->regs, MMIO_ISR);
    if (again && again != MMIO_ALL_ONES)
        mmio_wr32(u->regs, MMIO_ISR, again);
    if (u->iterations)
        __atomic_fetch_add(u->iterations, 1u, __ATOMIC_RELAXED);
    return 1;
}

void axl__mmio_restart_end(mmio_unit *u)
{
    /* The last iteration's status bit, set before the unit read idle. */
    axl__mmio_restart_look(u, 0);
    /* From 2022.2 the control word's one done rises as the core goes
     * idle, a cycle after the idle bit may be read: ap_ctrl_chain holds
     * it until ap_continue, which it is given now, done read or not. */
    if (u->chain)
        mmio_wr32(u->regs, MMIO_CTRL, MMIO_AP_CONTINUE);
    u->iterations = NULL;
    axl__mmio_arm(u); /* as its mode has it for commands */
}

void axl__mmio_restart_go(mmio_unit *u, uint32_t *iterations)
{
    u->iterations = iterations;
    u->mbox_pending = 0;
    axl__mmio_restart_arm(u);
    __atomic_store_n(&u->restart, 1, __ATOMIC_SEQ_CST);
    hint_set(axl__mmio.restarting, u);
    u->idle_seen = 0;
    axl__mmio_count(&axl__mmio_counters.starts);
    mmio_wr32(u->regs, MMIO_CTRL, MMIO_AP_START | MMIO_AUTO_RESTART);
}

int axl__mmio_restart_idle(mmio_unit *u, uint32_t *ctrl)
{
    for (;;) {
        /* The iterations that end meanwhile, counted from the status
         * register as while it ran. */
        axl__mmio_restart_look(u, 0);
        *ctrl = mmio_rd32(u->regs, MMIO_CTRL);
        if (*ctrl == MMIO_ALL_ONES)
            return 0;
        if (!(*ctrl & MMIO_AP_DONE))
            return (*ctrl & MMIO_AP_IDLE) && !(*ctrl & MMIO_AP_START);
        /* The last iteration's end (ap_ctrl_chain holds it): from 2022.2
         * the one done the control word shows, before it each
         * iteration's; counted from the status register either way. */
        mmio_wr32(u->regs, MMIO_CTRL, MMIO_AP_CONTINUE);
    }
}

void axl__mmio_give_time(uint64_t deadline_ns)
{
    axl__mmio_progress(deadline_ns);
#if MMIO_MODEL
    axl__mmio_model_advance(deadline_ns);
#endif
    axl_port_relax();
}

int axl__mmio_service(mmio_unit *u)
{
    if (!__atomic_load_n(&u->restart, __ATOMIC_RELAXED) ||
        !atomic_load(&u->polled))
        return 0; /* an interrupt-driven one's is the entry's */
    if (atomic_exchange(&u->looking, 1))
        return 0; /* another waiter looks at it, or a stop has it */
    int ended = 0;
    if (__atomic_load_n(&u->restart, __ATOMIC_SEQ_CST))
        ended = axl__mmio_restart_look(u, MMIO_AUTO_RESTART);
    atomic_store(&u->looking, 0);
    return ended;
}

/* The polled auto-restart units, while a waiter looks anyway. */
static void service_restarting(void)
{
    for (uint32_t w = 0; w < MMIO_UNIT_WORDS; w++) {
        mmio_unit *u = &axl__mmio.units[w * 32u];
        uint32_t bit = 1u;
        for (uint32_t b = __atomic_load_n(&axl__mmio.restarting[w],
                                          __ATOMIC_ACQUIRE);
             b; b >>= 1, u++, bit <<= 1)
            if ((b & 1u) && (hinted_work(axl__mmio.restarting, u) ||
                             hint_recheck(axl__mmio.restarting, w, bit, u)))
                axl__mmio_service(u);
    }
}
#endif

AXL_HOT void axl__mmio_progress(uint64_t deadline_ns)
{
#if MMIO_MODEL
    int advanced = 0;
#endif
    for (;;) {
        int running = 0, ended = 0;
#if MMIO_STREAMS
        service_restarting();
#endif
        for (uint32_t w = 0; w < MMIO_UNIT_WORDS; w++) {
            mmio_unit *u = &axl__mmio.units[w * 32u];
            uint32_t bit = 1u;
            for (uint32_t b = __atomic_load_n(&axl__mmio.busy[w],
                                              __ATOMIC_ACQUIRE);
                 b; b >>= 1, u++, bit <<= 1) {
                if (!(b & 1u))
                    continue;
                if (!hinted_work(axl__mmio.busy, u) &&
                    !hint_recheck(axl__mmio.busy, w, bit, u))
                    continue;
                running = 1;
                ended |= poll_unit(u);
            }
        }
        if (!running || ended)
            return;
#if MMIO_MODEL
        if (advanced ||
            (deadline_ns != UINT64_MAX && axl__mmio_now() >= deadline_ns))
            return;
        advanced = axl__mmio_model_advance(deadline_ns);
#else
        if (deadline_ns != UINT64_MAX && axl__mmio_now() >= deadline_ns)
            return;
#endif
        poll_hung(); /* while it waits anyway */
        axl_port_relax();
    }
}
AXL_HOT static void isr_entry(mmio_unit *u);

AXL_HOT void axl_mmio_isr(uint32_t ip_index)
{
    if (!axl__mmio.open || ip_index >= AXL_MMIO_UNITS)
        return;
    mmio_unit *u = &axl__mmio.units[ip_index];
#if MMIO_IP
    if (!u->known && u->ip_opens) {
        /* An IP the application opened (not a compute unit): acknowledge
         * its ISR as an HLS one is (toggle on write or clear on read). */
        uint32_t s = mmio_rd32(u->regs, MMIO_ISR);
        if (s && s != MMIO_ALL_ONES) {
            mmio_wr32(u->regs, MMIO_ISR, s);
            atomic_fetch_add(&u->irqs, 1u);
        }
        return;
    }
#endif
    if (!u->known)
        return;
    atomic_fetch_add(&u->in_isr, 1u);
    if (atomic_load(&u->polled)) {
        /* The waiter ends this unit's runs (take_from_isr): a late or
         * stale interrupt. Its line goes down with GIE; the ISR is the
         * waiter's. */
        mmio_wr32(u->regs, MMIO_GIE, 0);
        atomic_fetch_sub(&u->in_isr, 1u);
        return;
    }
    isr_entry(u);
    atomic_fetch_sub(&u->in_isr, 1u);
}

/* The entry proper, for a unit whose runs it ends. */
AXL_HOT static void isr_entry(mmio_unit *u)
{
    int done;
#if MMIO_STREAMS
    if (__atomic_load_n(&u->restart, __ATOMIC_RELAXED)) {
        /* An auto-restart unit's iteration (or iterations) ended: counted,
         * auto_restart kept; no run of the core's ends. (The control word
         * shows no done here from 2022.2: the branch below would take the
         * status for a run's end and write 0x10, clearing bit 7.) */
        if (axl__mmio_restart_look(u, MMIO_AUTO_RESTART)) {
#if MMIO_IP
            atomic_fetch_add(&u->irqs, 1u);
#endif
        } else {
            axl__mmio_count(&axl__mmio_counters.irq_spurious);
        }
        return;
    }
#endif
    if (u->chain) {
        /* ap_done is a level here, and reading it clears nothing. While it
         * is high the ISR's done bit sets again whatever clears it, so:
         * ap_continue first, then read the ISR and write it back (which
         * clears a clear-on-read ISR at the read, a toggle-on-write one at
         * the write). The run ended when either says done. */
        uint32_t ctrl = mmio_rd32(u->regs, MMIO_CTRL);
        if (ctrl == MMIO_ALL_ONES)
            return;
        done = (ctrl & MMIO_AP_DONE) != 0;
        if (done)
            mmio_wr32(u->regs, MMIO_CTRL, MMIO_AP_CONTINUE);
        uint32_t s = mmio_rd32(u->regs, MMIO_ISR);
        if (!done && s != MMIO_ALL_ONES && (s & MMIO_IRQ_DONE)) {
            /* The ISR says done and the control word did not: ap_done
             * rose between the two reads, or another read of 0x00 (a
             * look for a missing interrupt, the board's handler) cleared
             * it first on a unit whose registers behave as ap_ctrl_hs
             * whatever IP_LAYOUT says (issue 35). The run ended either
             * way: ap_continue (a level's, in the first case; nothing to
             * an ap_ctrl_hs unit), then the ISR read again, since a
             * clear-on-read one set its done bit again while ap_done was
             * high. */
            done = 1;
            mmio_wr32(u->regs, MMIO_CTRL, MMIO_AP_CONTINUE);
            s |= mmio_rd32(u->regs, MMIO_ISR);
        }
        if (s)
            mmio_wr32(u->regs, MMIO_ISR, s);
#if MMIO_IP
        if (s && s != MMIO_ALL_ONES)
            atomic_fetch_add(&u->irqs, 1u);
#endif
    } else {
        /* ap_done is clear on read in ap_ctrl_hs: the ISR says it. */
        uint32_t s = mmio_rd32(u->regs, MMIO_ISR);
        if (s == MMIO_ALL_ONES)
            return;
        if (s)
            mmio_wr32(u->regs, MMIO_ISR, s);
#if MMIO_IP
        if (s)
            atomic_fetch_add(&u->irqs, 1u);
#endif
        done = (s & MMIO_IRQ_DONE) != 0;
    }
    if (!done) {
        axl__mmio_count(&axl__mmio_counters.irq_spurious);
        return;
    }
    const void *run = atomic_exchange(&u->run, NULL);
    if (!run) {
        /* A run given up at its timeout that ended after all, or none (a
         * cancel or a reset took it). */
        run = atomic_exchange(&u->hung_run, NULL);
        if (!run)
            return;
    }
    axl__mmio_count(&axl__mmio_counters.irq_done);
    tell(u, run, AXL_SUCCESS, NULL);
}

/* ---- Resets and given-up runs ------------------------------------------- */

/* After a reset: polls the control word until the unit reads idle with
 * ap_sw_reset clear (AXL_MMIO_RESET_POLLS reads), then clears what the
 * interrupt again. 1 when it came back; *ctrl: the last word read. */
int axl__mmio_back_idle(mmio_unit *u, uint32_t *ctrl)
{
    for (unsigned i = 0; i < AXL_MMIO_RESET_POLLS; i++) {
        uint32_t c = mmio_rd32(u->regs, MMIO_CTRL);
        *ctrl = c;
        if (c != MMIO_ALL_ONES && (c & MMIO_AP_IDLE) &&
            !(c & MMIO_AP_SW_RESET)) {
            if (u->chain && (c & MMIO_AP_DONE))
                mmio_wr32(u->regs, MMIO_CTRL, MMIO_AP_CONTINUE);
            if (u->irq) {
                /* Nothing runs: the entry has nothing to claim. */
                take_from_isr(u);
                uint32_t s = mmio_rd32(u->regs, MMIO_ISR);
                if (s)
                    mmio_wr32(u->regs, MMIO_ISR, s);
                axl__mmio_arm(u);
            }
            return 1;
        }
        axl_port_relax();
    }
    return 0;
}
static mmio_unit *unit_at(uint32_t ip_index)
{
    if (!axl__mmio.open || ip_index >= AXL_MMIO_UNITS ||
        !axl__mmio.units[ip_index].known)
        return NULL;
    return &axl__mmio.units[ip_index];
}

axl_status axl_mmio_set_completion(uint32_t ip_index, uint32_t mode)
{
    mmio_unit *u = unit_at(ip_index);
    if (!u)
        return mmio_fail(AXL_ERR_INVALID,
                         "axl_mmio_set_completion: no compute unit at "
                         "IP_LAYOUT index %u",
                         (unsigned)ip_index);
    if (mode > AXL_MMIO_COMPLETION_POLL_THEN_SLEEP)
        return mmio_fail(AXL_ERR_INVALID,
                         "axl_mmio_set_completion: %u is no "
                         "axl_mmio_completion (0 board, 1 interrupt, 2 "
                         "polling, 3 poll then sleep)",
                         (unsigned)mode);
    if (!u->irq && (mode == AXL_MMIO_COMPLETION_INTERRUPT ||
                    mode == AXL_MMIO_COMPLETION_POLL_THEN_SLEEP))
        return mmio_fail(AXL_ERR_INVALID,
                         "axl_mmio_set_completion: the board does not wire "
                         "compute unit %s's interrupt "
                         "(axl_mmio_unit_wiring.irq): it can only be polled",
                         u->name);
    if (atomic_load(&u->run) || atomic_load(&u->hung_run))
        return mmio_fail(AXL_ERR_RUNTIME,
                         "axl_mmio_set_completion: compute unit %s is "
                         "running; set its completion between runs",
                         u->name);
    u->mode = mode == AXL_MMIO_COMPLETION_BOARD ? axl__mmio_board_mode(u)
                                                : (uint8_t)mode;
    u->fell_back = 0;
    axl__mmio_arm(u);
    return AXL_SUCCESS;
}

axl_status axl_mmio_completion_get(uint32_t ip_index, uint32_t *mode,
                                   int *fell_back)
{
    const mmio_unit *u = unit_at(ip_index);
    if (!u)
        return mmio_fail(AXL_ERR_INVALID,
                         "axl_mmio_completion_get: no compute unit at "
                         "IP_LAYOUT index %u (or the device is not open)",
                         (unsigned)ip_index);
    if (mode)
        *mode = u->mode;
    if (fell_back)
        *fell_back = u->fell_back;
    return AXL_SUCCESS;
}
