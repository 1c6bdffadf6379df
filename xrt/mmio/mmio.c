/*
 * xrt/mmio - the mmio device port: HLS kernels driven through their
 * s_axilite control registers, with no XRT (DESIGN.md, "On the metal").
 *
 * One device: the design the board names. Its compute units are the
 * IP_KERNEL entries of IP_LAYOUT (ap_ctrl_hs or ap_ctrl_chain; other
 * protocols are not compatible), at the base address IP_LAYOUT gives
 * unless the board remaps it. A launch writes each argument register at
 * the offset and size the kernel XML gives (a buffer is its 64-bit device
 * address, low word first) and writes ap_start with auto_restart off. The
 * end is ap_done, seen by polling in progress() or by the unit's interrupt
 * through axl_mmio_isr(); whichever sees it first claims the run (an
 * atomic exchange), so a run ends once.
 *
 * What the driver must honour of the generated RTL (mmio_regs.h):
 *  - ap_done is clear on read in ap_ctrl_hs: the poll that sees it acts
 *    on it; a done left by a run the interrupt ended is read away before
 *    the next start.
 *  - ap_ready may be clear on read and ap_start may be a pulse: the port
 *    reads neither.
 *  - ap_ctrl_chain holds ap_done until ap_continue, and its ISR cannot be
 *    cleared while ap_done is high: ap_continue first, then the ISR.
 *  - The ISR is toggle-on-write or clear-on-read: read it and write the
 *    same value back, which clears both.
 *
 * All hardware access goes through mmio_io.h (volatile loads and stores on
 * a board; in a model build, AXL_MMIO_MODEL, the model the board names,
 * axl/mmio_model.h, of which this file knows only that interface). Device
 * memory is the regions the board declares per bank, carved by a
 * fixed-capacity allocator.
 * Caches: clean before the IP reads, invalidate before the CPU reads what
 * it wrote (axl_port_cache_*), unless the board is coherent.
 */
#include <stdatomic.h>
#include <string.h>

#include "axl/hal.h"
#include "axl/mmio.h"
#include "axl/runtime.h"
#include "axl/trace.h"
#include "mmio_config.h"
#include "mmio_io.h"
#include "mmio_regs.h"

/* Register access to any IP (axl/ip.h), unless the board switches it off
 * (AXL_FEATURE_IP_ACCESS 0 in its axl_board.h). */
#if !defined(AXL_FEATURE_IP_ACCESS) || AXL_FEATURE_IP_ACCESS
#define MMIO_IP 1
#else
#define MMIO_IP 0
#endif

#if defined(AXL_MMIO_MODEL) && AXL_MMIO_MODEL
#define MMIO_MODEL 1
#include "axl/mmio_model.h"
#if defined(AXL_MMIO_MODEL_THREADS) && AXL_MMIO_MODEL_THREADS
#include <pthread.h>
#endif
#else
#define MMIO_MODEL 0
#endif

/* With AXL_MESSAGES 0 the message is the status name (as in xrt/emu). */
#if AXL_MESSAGES
#define mmio_fail axl_fail
#else
int axl__mmio_unformatted(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
#define mmio_fail(status, ...)                                                 \
    ((void)sizeof axl__mmio_unformatted(__VA_ARGS__),                          \
     axl_fail(status, "%s", axl_status_name(status)))
#endif

typedef struct mmio_arg {
    uint32_t id;
    uint32_t offset;
    uint32_t size;
    uint8_t is_mem;
    uint32_t held[2]; /* what the register's first two words hold, where
                         the unit's held_mask says so */
} mmio_arg;

typedef struct mmio_unit {
    uintptr_t regs;      /* the CPU's address of its control space */
    uint64_t phys;
    uint8_t known;       /* an IP_KERNEL of the design */
    uint8_t chain;
    uint8_t irq;
    uint8_t sw_reset;
    /* A run given up (run_cancel) that the unit did not stop: out of use
     * until a reset or the run's late end gives the run back. Apart from
     * `run`, so that a poll or the interrupt entry, which claim `run`,
     * pay nothing for it. */
    const axl_hal_run *_Atomic hung_run;
    _Atomic uint32_t reset_ctrl; /* the control word an ap_sw_reset at
                            the timeout left (it did not read idle), or 0 */
    uint32_t kernel_index;
    uint32_t nargs;
    mmio_arg args[AXL_MMIO_MAX_ARGS];
    /* Held arguments (hal.h, args_id): bit m says args[m].held is what
     * its register holds (scalars of up to 8 bytes and addresses; larger
     * scalars are always written), held_id is the args_id of the run that
     * last wrote them (0: none). forget_held() whenever the registers may
     * have lost them. */
    uint32_t held_mask;
    uint32_t held_id;
    /* Completion (axl_mmio_completion). mode: how the unit completes now
     * (a unit the board does not wire is polled). Who ends a run: while
     * `polled` the waiter, else the interrupt entry; the two hand over
     * with the handshake of take_from_isr / give_to_isr on in_isr (the
     * entry's count of its calls inside the unit), so there is one
     * claimer at a time, and the ISR's bits are the entry's alone while
     * it claims (mmio_progress's comment says why). */
    _Atomic uint8_t mode;      /* read by every waiter, set by one */
    _Atomic uint8_t fell_back; /* its interrupt did not arrive: polled
                                  since */
    uint8_t reported;    /* the port said so (once per unit) */
    uint8_t gie_on;      /* poll then sleep: the interrupt is on */
    uint8_t done_seen;   /* interrupt: a look saw ap_done at done_at */
    _Atomic uint8_t polled;
    _Atomic uint8_t looking; /* a waiter looks at the unit (one at a time) */
    _Atomic uint32_t in_isr;
    uint64_t spin_end;   /* poll then sleep: when the waiter stops reading */
    uint64_t next_look;  /* interrupt: the next look at ap_done (0: unset) */
    uint64_t done_at;
    /* next_look, done_seen and done_at are the looker's alone (u->looking)
     * and about the run of start number look_start: a start counts in
     * `starts` (before it publishes `run`), and the looker begins afresh
     * when the count moved. A start does not reset them itself: it may
     * run on the thread the interrupt ended the last run on, while a
     * waiter is still looking at that run. */
    _Atomic uint32_t starts;
    uint32_t look_start;
    const axl_hal_run *_Atomic run; /* the run in flight, or NULL */
#if MMIO_IP
    uint8_t ip_opens;    /* axl_ip handles open on it (axl/ip.h) */
    uint32_t irqs_seen;  /* irqs when the last ip_wait returned */
    _Atomic uint32_t irqs; /* interrupts the entry acknowledged */
#endif
    char name[40];       /* IP_LAYOUT's m_name, for messages */
} mmio_unit;

typedef struct mmio_bank {
    axl_arena arena;
    axl_arena_block blocks[AXL_MMIO_BANK_ALLOCS];
    axl_mmio_bank_region region;
    unsigned char *host;
    char tag[24];
} mmio_bank;

typedef struct mmio_device {
    int open;
    const axl_mmio_board *board;
    axl_xclbin design;   /* the board's design, as opened here */
    int has_design;
    uint32_t nbanks;
    mmio_bank banks[AXL_MMIO_BANKS];
    mmio_unit units[AXL_MMIO_UNITS];
#if MMIO_MODEL
    const axl_mmio_model *model; /* the board's, while open */
    int attached;
    axl_mmio_bank_region regions[AXL_MMIO_BANKS]; /* the banks, as given
                                                      to the model */
#endif
} mmio_device;

static mmio_device device;
static const axl_mmio_board *board_set;
static axl_mmio_counters counters;

axl_status axl_mmio_set_board(const axl_mmio_board *board)
{
    board_set = board;
    return AXL_SUCCESS;
}

/* Counted from the poll, the interrupt entry and a model's threads. */
static void count(uint32_t *c)
{
    __atomic_fetch_add(c, 1u, __ATOMIC_RELAXED);
}

void axl_mmio_counters_get(axl_mmio_counters *out)
{
    out->starts = __atomic_load_n(&counters.starts, __ATOMIC_RELAXED);
    out->polls = __atomic_load_n(&counters.polls, __ATOMIC_RELAXED);
    out->irq_done = __atomic_load_n(&counters.irq_done, __ATOMIC_RELAXED);
    out->irq_spurious =
        __atomic_load_n(&counters.irq_spurious, __ATOMIC_RELAXED);
    out->resets = __atomic_load_n(&counters.resets, __ATOMIC_RELAXED);
    out->irq_missing =
        __atomic_load_n(&counters.irq_missing, __ATOMIC_RELAXED);
}

#if MMIO_MODEL
/* The board a model build has when the application names none: the
 * library's (axl_mmio_model_library writes this function). */
const axl_mmio_board *axl__mmio_default_board(void);
#endif

static const axl_mmio_board *the_board(void)
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
    atomic_store_explicit(&model_ns, clock_base + m->now_ns(m->user),
                          memory_order_relaxed);
}

static inline const axl_mmio_model *model_enter(void)
{
    MODEL_LOCK();
    return device.model;
}

static inline void model_leave(const axl_mmio_model *m)
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
    if (!IN_MODEL())
        model_leave(model_enter()); /* from the model's own thread: now,
                                       with its clock read first */
}

/* The seam (mmio_io.h): regs is the unit's IP_LAYOUT index + 1. */
static inline uint32_t mmio_rd32(uintptr_t regs, uint32_t off)
{
    const axl_mmio_model *m = model_enter();
    uint32_t v = m->rd32(m->user, (uint32_t)regs - 1u, off);
    model_leave(m);
    return v;
}

static inline void mmio_wr32(uintptr_t regs, uint32_t off, uint32_t value)
{
    const axl_mmio_model *m = model_enter();
    m->wr32(m->user, (uint32_t)regs - 1u, off, value);
    model_leave(m);
}

static uint64_t mmio_now(void *dev)
{
    (void)dev;
    return atomic_load_explicit(&model_ns, memory_order_relaxed);
}

/* Powers the model up with the device's design and banks. */
static axl_status model_attach(mmio_device *d)
{
    for (uint32_t b = 0; b < d->nbanks; b++) {
        d->regions[b] = d->banks[b].region;
        d->regions[b].host = d->banks[b].host;
    }
    if (!clock_base && d->model->now_ns)
        clock_base = axl_hal_now() | 1u;
    const axl_mmio_model *m = model_enter();
    axl_status st = m->attach(m->user, &d->design, d->regions, d->nbanks,
                              model_isr);
    d->attached = st == AXL_SUCCESS;
    model_leave(m);
    return st;
}

/* Not serialised with the other calls: a model that joins threads of its
 * own here lets them finish an interrupt, whose entry calls the model. */
static void model_detach(mmio_device *d)
{
    if (!d->attached)
        return;
    const axl_mmio_model *m = d->model;
    m->detach(m->user);
    d->attached = 0;
    /* The next attach counts from 0 again: the device's clock goes on. */
    clock_base = atomic_load_explicit(&model_ns, memory_order_relaxed);
}

/* The model's word on a unit's last run (a side channel no IP has). */
static axl_status model_run_status(const mmio_unit *u, char *why,
                                   size_t size)
{
    const axl_mmio_model *m = device.model;
    if (!m->run_status)
        return AXL_SUCCESS;
    m = model_enter();
    axl_status st = m->run_status(m->user, (uint32_t)u->regs - 1u, why, size);
    model_leave(m);
    return st;
}

axl_status axl_mmio_model_reset_unit(void *user, uint32_t ip_index)
{
    (void)user;
    const axl_mmio_model *m = device.model;
    if (!m || !m->reset)
        return AXL_ERR_FEATURE_NOT_SUPPORTED;
    if (ip_index < AXL_MMIO_UNITS) {
        /* The reset line clears the argument registers. */
        device.units[ip_index].held_mask = 0;
        device.units[ip_index].held_id = 0;
    }
    m = model_enter();
    axl_status st = m->reset(m->user, ip_index);
    model_leave(m);
    return st;
}

axl_status axl_mmio_model_program(void *user, const axl_xclbin *image)
{
    (void)user;
    (void)image;
    return AXL_SUCCESS;
}

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
    board->model = model;
}

/* What the runtime's messages quote for a kernel the model cannot run:
 * the model's phrase, copied at open (the port has one device). */
static char model_fix[96];
#endif /* MMIO_MODEL */

/* ---- Caches --------------------------------------------------------------- */

static void clean(const mmio_device *d, const void *p, uint64_t size)
{
    if (!d->board->coherent && size)
        axl_port_cache_flush(p, (size_t)size);
}

static void invalidate(const mmio_device *d, void *p, uint64_t size)
{
    if (!d->board->coherent && size)
        axl_port_cache_invalidate(p, (size_t)size);
}

/* The device's clock: the model's when it has one, else the runtime's. */
static uint64_t dev_now(const mmio_device *d)
{
#if MMIO_MODEL
    if (d->model->now_ns)
        return mmio_now(NULL);
#else
    (void)d;
#endif
    return axl_hal_now();
}

/* ---- Held arguments and completion modes --------------------------------- */

/* The registers may have lost what the port wrote (a reset, a reload):
 * the next run writes every argument. */
static void forget_held(mmio_unit *u)
{
    u->held_mask = 0;
    u->held_id = 0;
}

/* The mode a unit completes in when nothing has set one. */
static uint8_t board_mode(const mmio_device *d, const mmio_unit *u)
{
    if (!u->irq)
        return AXL_MMIO_COMPLETION_POLL;
    uint8_t m = d->board->completion;
    return m >= AXL_MMIO_COMPLETION_INTERRUPT &&
                   m <= AXL_MMIO_COMPLETION_POLL_THEN_SLEEP
               ? m
               : (uint8_t)AXL_MMIO_COMPLETION;
}

/* The entry's side of the hand-over: it counts itself in before it looks
 * at `polled`, the waiter sets `polled` before it waits for the count to
 * fall (both sequentially consistent), so either the entry sees the
 * change or the waiter sees the entry and waits for it to leave. On a
 * single core the entry runs to its end before the waiter goes on. */
static void wait_for_isr(mmio_unit *u)
{
    while (atomic_load(&u->in_isr))
        axl_port_relax();
}

/* The waiter ends the unit's runs from now on. */
static void take_from_isr(mmio_unit *u)
{
    atomic_store(&u->polled, 1);
    wait_for_isr(u);
}

/* The interrupt entry ends the unit's runs from now on (the entry of a
 * polled unit writes GIE 0, so it must be out before GIE is set). */
static void give_to_isr(mmio_unit *u)
{
    atomic_store(&u->polled, 0);
    wait_for_isr(u);
}

/* Sets the unit's interrupt registers for its mode: on for interrupt,
 * off (GIE) with IER on for poll then sleep (ap_done still sets the ISR,
 * which its switch to sleep reads), all off for polling. A unit the
 * board does not wire is not touched. */
static void arm(mmio_unit *u)
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

/* ---- Opening: banks and units from the design and the board --------------- */

static axl_status add_bank(mmio_device *d, const axl_mmio_bank_region *r)
{
    if (d->nbanks == AXL_MMIO_BANKS)
        return mmio_fail(AXL_ERR_OUT_OF_RESOURCES,
                         "mmio: the design has more banks than "
                         "AXL_MMIO_BANKS (%u)",
                         (unsigned)AXL_MMIO_BANKS);
    mmio_bank *b = &d->banks[d->nbanks];
    b->region = *r;
    if (r->host) {
        b->host = r->host;
    } else if (MMIO_MODEL) {
        return mmio_fail(AXL_ERR_PLATFORM,
                         "mmio: bank %u has no host memory; a model's "
                         "board backs each bank (axl_mmio_bank_region.host)",
                         (unsigned)r->mem_index);
    } else {
        if (r->phys > UINTPTR_MAX || r->size > UINTPTR_MAX - r->phys)
            return mmio_fail(AXL_ERR_PLATFORM,
                             "mmio: bank %u at 0x%llx is outside the CPU's "
                             "address space; the board must give its host "
                             "view (axl_mmio_bank_region.host)",
                             (unsigned)r->mem_index,
                             (unsigned long long)r->phys);
        b->host = (unsigned char *)(uintptr_t)r->phys;
    }
    axl_xclbin_mem mem;
    if (d->has_design &&
        axl_xclbin_get_mem(&d->design, r->mem_index, &mem) == AXL_SUCCESS)
        axl_format(b->tag, sizeof b->tag, "%.*s", (int)mem.tag.len,
                   mem.tag.ptr);
    else
        axl_format(b->tag, sizeof b->tag, "bank%u", (unsigned)r->mem_index);
    axl_arena_init(&b->arena, b->host, r->size, AXL_MMIO_MEM_ALIGN_BITS / 8,
                   b->blocks, AXL_MMIO_BANK_ALLOCS);
    d->nbanks++;
    return AXL_SUCCESS;
}

static axl_status map_banks(mmio_device *d)
{
    const axl_mmio_board *bd = d->board;
    d->nbanks = 0;
    if (bd->banks) {
        for (uint32_t i = 0; i < bd->bank_count; i++) {
            axl_status st = add_bank(d, &bd->banks[i]);
            if (st != AXL_SUCCESS)
                return st;
        }
        return AXL_SUCCESS;
    }
    for (uint32_t m = 0; d->has_design && m < d->design.mem_count; m++) {
        axl_xclbin_mem mem;
        if (axl_xclbin_get_mem(&d->design, m, &mem) != AXL_SUCCESS ||
            !mem.used)
            continue;
        axl_mmio_bank_region r = {m, mem.base_address, mem.size, NULL};
        axl_status st = add_bank(d, &r);
        if (st != AXL_SUCCESS)
            return st;
    }
    return AXL_SUCCESS;
}

/* Units: every IP_KERNEL of the design, with the board's wiring. */
static axl_status map_units(mmio_device *d)
{
    memset(d->units, 0, sizeof d->units);
    const axl_mmio_board *bd = d->board;
    for (uint32_t i = 0; d->has_design && i < d->design.ip_count; i++) {
        axl_xclbin_ip ip;
        if (axl_xclbin_get_ip(&d->design, i, &ip) != AXL_SUCCESS ||
            ip.type != AXL_XCLBIN_IP_KERNEL)
            continue;
        if (i >= AXL_MMIO_UNITS)
            return mmio_fail(AXL_ERR_OUT_OF_RESOURCES,
                             "mmio: compute unit %.*s is IP_LAYOUT entry %u; "
                             "the port drives entries below AXL_MMIO_UNITS "
                             "(%u)",
                             (int)ip.name.len, ip.name.ptr, (unsigned)i,
                             (unsigned)AXL_MMIO_UNITS);
        mmio_unit *u = &d->units[i];
        u->known = 1;
        u->chain = ip.control == AXL_XCLBIN_AP_CTRL_CHAIN;
        u->phys = ip.base_address;
        axl_format(u->name, sizeof u->name, "%.*s", (int)ip.name.len,
                   ip.name.ptr);
        for (uint32_t w = 0; bd->units && w < bd->unit_count; w++) {
            if (bd->units[w].ip_index != i)
                continue;
            if (bd->units[w].base)
                u->phys = bd->units[w].base;
            u->irq = bd->units[w].irq;
            u->sw_reset = bd->units[w].sw_reset;
        }
        u->mode = board_mode(d, u);
        atomic_store(&u->polled,
                     u->mode != AXL_MMIO_COMPLETION_INTERRUPT);
        if (MMIO_MODEL) {
            u->regs = (uintptr_t)i + 1u; /* the model's unit (mmio_io.h) */
        } else if (bd->map_ctrl) {
            u->regs = bd->map_ctrl(bd->user, u->phys, 0x10000);
        } else if (u->phys > UINTPTR_MAX) {
            return mmio_fail(AXL_ERR_PLATFORM,
                             "mmio: compute unit %s at 0x%llx is outside "
                             "the CPU's address space; the board must map "
                             "it (axl_mmio_board.map_ctrl)",
                             u->name, (unsigned long long)u->phys);
        } else {
            u->regs = (uintptr_t)u->phys;
        }
        if (!u->regs)
            return mmio_fail(AXL_ERR_PLATFORM,
                             "mmio: the board could not map compute unit %s "
                             "at 0x%llx",
                             u->name, (unsigned long long)u->phys);
    }
    return AXL_SUCCESS;
}

static axl_status mmio_probe(uint32_t *count, char *why, size_t why_size)
{
    const axl_mmio_board *bd = the_board();
    *count = bd && (bd->design || bd->predigested) ? 1 : 0;
    if (!*count)
        axl_format(why, why_size,
                   "no board data names a design (axl_mmio_set_board)");
    return AXL_SUCCESS;
}

static axl_status mmio_open(uint32_t index, void **dev)
{
    (void)index;
    mmio_device *d = &device;
    memset(d, 0, sizeof *d);
    d->board = the_board();
    if (!d->board)
        return mmio_fail(AXL_ERR_PLATFORM, "mmio: no board data");
    char why[96];
    if (d->board->predigested
            ? axl_xclbin_open_design(&d->design, d->board->predigested, why,
                                     sizeof why) == AXL_SUCCESS
            : d->board->design &&
                  axl_xclbin_open(&d->design, d->board->design,
                                  d->board->design_size, why,
                                  sizeof why) == AXL_SUCCESS)
        d->has_design = 1;
#if MMIO_MODEL
    d->model = d->board->model;
    if (!d->model)
        return mmio_fail(AXL_ERR_PLATFORM,
                         "mmio: a model build needs a model of the fabric; "
                         "the board names none (axl_mmio_board.model)");
    axl_format(model_fix, sizeof model_fix, "%s",
               d->model->kernel_fix ? d->model->kernel_fix
                                    : "use a model that runs it");
#endif
    axl_status st = map_banks(d);
#if MMIO_MODEL
    if (st == AXL_SUCCESS && d->has_design)
        st = model_attach(d);
#endif
    if (st == AXL_SUCCESS)
        st = map_units(d);
    if (st != AXL_SUCCESS) {
#if MMIO_MODEL
        model_detach(d);
#endif
        return st;
    }
    d->open = 1;
    *dev = d;
    return AXL_SUCCESS;
}

static void mmio_close(void *dev)
{
    mmio_device *d = dev;
    d->open = 0;
#if MMIO_MODEL
    model_detach(d);
#endif
}

static axl_status mmio_describe(void *dev, axl_hal_device_info *info)
{
    const mmio_device *d = dev;
    memset(info, 0, sizeof *info);
#if MMIO_MODEL
    /* The units are a model's, and the name says which (alone: the
     * runtime's messages quote it with the model's kernel_fix). */
    axl_format(info->name, sizeof info->name, "%s",
               d->model->name ? d->model->name : "a model of an mmio FPGA");
#else
    axl_format(info->name, sizeof info->name, "axl mmio FPGA (%u units)",
               (unsigned)d->design.ip_count);
#endif
    axl_format(info->vendor, sizeof info->vendor, "axl");
    axl_format(info->driver_version, sizeof info->driver_version, "0.1");
#if MMIO_MODEL
    axl_format(info->backend_version, sizeof info->backend_version,
               "axl-mmio 0.1 (model)");
#else
    axl_format(info->backend_version, sizeof info->backend_version,
               "axl-mmio 0.1");
#endif
    info->type = AXL_DEVICE_TYPE_ACCELERATOR;
    info->flags = AXL_HAL_DEVICE_AVAILABLE | AXL_HAL_DEVICE_PROFILING;
#if MMIO_MODEL
    /* aspect::emulated; a model with a clock is the device's clock. */
    info->flags |= AXL_HAL_DEVICE_EMULATED;
    if (d->model->now_ns)
        info->flags |= AXL_HAL_DEVICE_OWN_CLOCK;
#endif
    if (d->board->program)
        info->flags |= AXL_HAL_DEVICE_REPROGRAMMABLE;
    info->mem_base_addr_align = AXL_MMIO_MEM_ALIGN_BITS;
    info->max_clock_mhz = 300;
    info->bank_count = d->nbanks;
    for (uint32_t b = 0; b < d->nbanks; b++) {
        info->global_mem_size += d->banks[b].region.size;
        if (d->banks[b].region.size > info->max_mem_alloc_size)
            info->max_mem_alloc_size = d->banks[b].region.size;
    }
    info->timer_resolution_ns = axl_port_clock_resolution_ns();
#if MMIO_MODEL
    if (d->model->now_ns)
        info->timer_resolution_ns = 1;
#endif
    info->builtin_image = d->board->design;
    info->builtin_image_size = d->board->design_size;
    info->builtin_design = d->board->predigested;
    return AXL_SUCCESS;
}

static axl_status mmio_bank_info(void *dev, uint32_t index, axl_hal_bank *out)
{
    const mmio_device *d = dev;
    memset(out, 0, sizeof *out);
    const mmio_bank *b = &d->banks[index];
    axl_format(out->tag, sizeof out->tag, "%s", b->tag);
    out->size = b->region.size;
    out->base_address = b->region.phys;
    out->image_index = b->region.mem_index;
    return AXL_SUCCESS;
}

static axl_status mmio_load_image(void *dev, const axl_xclbin *image,
                                  char *why, size_t why_size)
{
    mmio_device *d = dev;
    if (!d->board->program) {
        axl_format(why, why_size,
                   "the board gives the mmio port no way to program the "
                   "fabric (axl_mmio_board.program)");
        return AXL_ERR_FEATURE_NOT_SUPPORTED;
    }
    for (uint32_t i = 0; i < AXL_MMIO_UNITS; i++)
        if (atomic_load(&d->units[i].run) ||
            atomic_load(&d->units[i].hung_run)) {
            axl_format(why, why_size, "compute unit %s is running",
                       d->units[i].name);
            return AXL_ERR_RUNTIME;
        }
    axl_status st = d->board->program(d->board->user, image);
    if (st != AXL_SUCCESS) {
        axl_format(why, why_size, "%s", axl_last_message());
        return st;
    }
    d->design = *image;
    d->has_design = 1;
#if MMIO_MODEL
    model_detach(d);
    st = model_attach(d);
    if (st != AXL_SUCCESS) {
        axl_format(why, why_size, "%s", axl_last_message());
        return st;
    }
#endif
    st = map_units(d);
    if (st != AXL_SUCCESS)
        axl_format(why, why_size, "%s", axl_last_message());
    return st;
}

/* The protocols the port drives: the kernel's and each of its units'. */
static bool drivable(const axl_xclbin *image, uint32_t kernel_index)
{
    axl_xclbin_kernel k;
    if (axl_xclbin_get_kernel(image, kernel_index, &k) != AXL_SUCCESS)
        return false;
    if (k.control != AXL_XCLBIN_AP_CTRL_HS &&
        k.control != AXL_XCLBIN_AP_CTRL_CHAIN)
        return false;
    for (uint32_t c = 0; c < k.cu_count; c++) {
        uint32_t ip_index;
        axl_xclbin_ip ip;
        if (axl_xclbin_get_kernel_cu(image, &k, c, &ip_index) != AXL_SUCCESS ||
            axl_xclbin_get_ip(image, ip_index, &ip) != AXL_SUCCESS)
            return false;
        if (ip.control != AXL_XCLBIN_AP_CTRL_HS &&
            ip.control != AXL_XCLBIN_AP_CTRL_CHAIN)
            return false;
    }
    return true;
}

static bool mmio_kernel_compatible(void *dev, const axl_xclbin *image,
                                   uint32_t kernel_index)
{
#if MMIO_MODEL
    const axl_mmio_model *m = ((const mmio_device *)dev)->model;
    if (m->can_run && !m->can_run(m->user, image, kernel_index))
        return false; /* the model cannot run it */
#else
    (void)dev;
#endif
    return drivable(image, kernel_index);
}

static const char *protocol_name(uint32_t control)
{
    switch (control) {
    case AXL_XCLBIN_AP_CTRL_NONE: return "ap_ctrl_none";
    case AXL_XCLBIN_AP_CTRL_ME: return "ap_ctrl_me";
    case AXL_XCLBIN_ACCEL_ADAPTER: return "accel_adapter";
    default: return "an unknown protocol";
    }
}

static axl_status mmio_cu_open(void *dev, const axl_xclbin *image,
                               uint32_t kernel_index, uint32_t ip_index,
                               uintptr_t *cu_handle)
{
    mmio_device *d = dev;
    axl_xclbin_kernel k;
    axl_xclbin_ip ip;
    if (axl_xclbin_get_kernel(image, kernel_index, &k) != AXL_SUCCESS ||
        axl_xclbin_get_ip(image, ip_index, &ip) != AXL_SUCCESS)
        return mmio_fail(AXL_ERR_KERNEL_NOT_SUPPORTED,
                         "mmio: no kernel %u or IP %u in the design",
                         (unsigned)kernel_index, (unsigned)ip_index);
    if (!drivable(image, kernel_index))
        return mmio_fail(AXL_ERR_KERNEL_NOT_SUPPORTED,
                         "mmio: kernel %.*s uses %s; the mmio port drives "
                         "ap_ctrl_hs and ap_ctrl_chain units only",
                         (int)k.name.len, k.name.ptr,
                         protocol_name(ip.control != AXL_XCLBIN_AP_CTRL_HS &&
                                               ip.control !=
                                                   AXL_XCLBIN_AP_CTRL_CHAIN
                                           ? ip.control
                                           : k.control));
    if (ip_index >= AXL_MMIO_UNITS || !d->units[ip_index].known)
        return mmio_fail(AXL_ERR_KERNEL_NOT_SUPPORTED,
                         "mmio: compute unit %.*s (IP_LAYOUT %u) is not one "
                         "the port maps (AXL_MMIO_UNITS %u)",
                         (int)ip.name.len, ip.name.ptr, (unsigned)ip_index,
                         (unsigned)AXL_MMIO_UNITS);
#if MMIO_MODEL
    /* A kernel of the design the device came with is compatible whatever
     * the model (the core asks kernel_compatible only of other images), so
     * one the model cannot run is refused here, before its unit is
     * touched, as the emulated device refuses a kernel without a C model:
     * on the RTL its unit would read all ones. */
    const axl_mmio_model *model = d->model;
    if (model->can_run && !model->can_run(model->user, image, kernel_index))
        return mmio_fail(AXL_ERR_KERNEL_NOT_SUPPORTED,
                         "mmio: %s cannot run kernel %.*s: %s",
                         model->name ? model->name : "the model",
                         (int)k.name.len, k.name.ptr, model_fix);
#endif
    mmio_unit *u = &d->units[ip_index];
    if (k.arg_count > AXL_MMIO_MAX_ARGS)
        return mmio_fail(AXL_ERR_KERNEL_NOT_SUPPORTED,
                         "mmio: kernel %.*s has %u arguments; the port keeps "
                         "AXL_MMIO_MAX_ARGS (%u)",
                         (int)k.name.len, k.name.ptr, (unsigned)k.arg_count,
                         (unsigned)AXL_MMIO_MAX_ARGS);
    /* The register layout, from the XML, never computed. */
    u->nargs = 0;
    for (uint32_t a = 0; a < k.arg_count; a++) {
        axl_xclbin_arg x;
        if (axl_xclbin_get_kernel_arg(image, &k, a, &x) != AXL_SUCCESS)
            return mmio_fail(AXL_ERR_KERNEL_NOT_SUPPORTED,
                             "mmio: kernel %.*s: argument %u unreadable",
                             (int)k.name.len, k.name.ptr, (unsigned)a);
        if (x.address_qualifier == AXL_XCLBIN_ARG_STREAM ||
            x.address_qualifier == AXL_XCLBIN_ARG_LOCAL)
            continue; /* not in the register map */
        if (x.offset < MMIO_ARGS || (x.offset & 3) || x.size == 0 ||
            x.size > 64 || x.offset + x.size > 0x10000)
            return mmio_fail(AXL_ERR_KERNEL_NOT_SUPPORTED,
                             "mmio: kernel %.*s: argument %.*s at offset "
                             "0x%llx, %llu bytes, is not a register the "
                             "port can write",
                             (int)k.name.len, k.name.ptr, (int)x.name.len,
                             x.name.ptr, (unsigned long long)x.offset,
                             (unsigned long long)x.size);
        mmio_arg *m = &u->args[u->nargs++];
        m->id = x.index;
        m->offset = (uint32_t)x.offset;
        m->size = (uint32_t)x.size;
        m->is_mem = x.address_qualifier != AXL_XCLBIN_ARG_SCALAR;
    }
    /* By id, as runs give them. */
    for (uint32_t i = 1; i < u->nargs; i++)
        for (uint32_t j = i; j > 0 && u->args[j - 1].id > u->args[j].id; j--) {
            mmio_arg t = u->args[j];
            u->args[j] = u->args[j - 1];
            u->args[j - 1] = t;
        }
    u->kernel_index = kernel_index;
    forget_held(u); /* another layout, or a reloaded design */
    /* ap_done raises the interrupt where the mode wants one; ap_ready
     * never does (a bit some cores lack). */
    arm(u);
    *cu_handle = (uintptr_t)u;
    return AXL_SUCCESS;
}

static void mmio_cu_close(void *dev, uintptr_t cu_handle)
{
    (void)dev;
    mmio_unit *u = (mmio_unit *)cu_handle;
    if (u && u->irq)
        mmio_wr32(u->regs, MMIO_GIE, 0);
}

/* ---- Runs --------------------------------------------------------------- */

static void *host_of(const axl_hal_mem *m, uint64_t offset)
{
    return (unsigned char *)m->host_ptr + offset;
}

/* After done: the CPU must not read stale lines of what the IP wrote. */
static void invalidate_outputs(const mmio_device *d, const axl_hal_run *run)
{
    if (d->board->coherent)
        return;
    for (uint32_t i = 0; i < run->arg_count; i++) {
        const axl_hal_arg *a = &run->args[i];
        if (a->is_mem && a->mem)
            invalidate(d, host_of(a->mem, a->offset), a->size);
    }
}

/* Ends a run this caller claimed (ap_continue already given). */
static void end_claimed(mmio_device *d, mmio_unit *u,
                        const axl_hal_run *run, axl_status st,
                        const char *why)
{
    (void)u;
    invalidate_outputs(d, run);
    char buf[AXL_MESSAGE_MAX];
#if MMIO_MODEL
    if (st == AXL_SUCCESS) {
        st = model_run_status(u, buf, sizeof buf);
        why = buf;
    }
#else
    (void)buf;
#endif
    axl_hal_run_done(run->token, st, st == AXL_SUCCESS ? NULL : why);
}

/* Ends the unit's run if this caller is the first to see its end. */
static void finish(mmio_device *d, mmio_unit *u, axl_status st,
                   const char *why)
{
    const axl_hal_run *run = atomic_exchange(&u->run, NULL);
    if (!run)
        return;
    if (u->chain)
        mmio_wr32(u->regs, MMIO_CTRL, MMIO_AP_CONTINUE);
    end_claimed(d, u, run, st, why);
}

/* run_start on a hung unit (the core sends none; a port test may). Apart,
 * so that the launch path does not carry its message. */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static axl_status refuse_hung(const mmio_unit *u, const axl_hal_run *run)
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
                     (unsigned)run->ip_index);
}

static axl_status mmio_run_start(void *dev, const axl_hal_run *run)
{
    mmio_device *d = dev;
    mmio_unit *u = (mmio_unit *)run->cu_handle;
    if (!u)
        return mmio_fail(AXL_ERR_RUNTIME, "mmio: %s was not opened",
                         run->kernel_name);
    if (atomic_load_explicit(&u->hung_run, memory_order_relaxed))
        return refuse_hung(u, run);
    /* This read also consumes an ap_done (clear on read in ap_ctrl_hs)
     * that a run the interrupt ended left behind. */
    uint32_t ctrl = mmio_rd32(u->regs, MMIO_CTRL);
    if (ctrl == MMIO_ALL_ONES)
        return mmio_fail(AXL_ERR_RUNTIME,
                         "mmio: compute unit %s at 0x%llx reads all ones: no "
                         "IP answers there (is the design programmed, and "
                         "the base address right?)",
                         u->name, (unsigned long long)u->phys);
    if (!(ctrl & MMIO_AP_IDLE))
        return mmio_fail(AXL_ERR_RUNTIME,
                         "mmio: compute unit %s at 0x%llx is not idle "
                         "(control word 0x%x)",
                         u->name, (unsigned long long)u->phys,
                         (unsigned)ctrl);
    /* Held arguments: the registers keep what the last run wrote, so
     * only a word that differs is written; with the args_id of the run
     * that wrote them, buffers' addresses are not even looked at (hal.h
     * promises the same allocations). Caches are cleaned all the same. */
    const int same_mem = run->args_id && run->args_id == u->held_id;
    uint32_t m = 0;
    for (uint32_t i = 0; i < run->arg_count; i++) {
        const axl_hal_arg *a = &run->args[i];
        while (m < u->nargs && u->args[m].id < a->id)
            m++;
        if (m == u->nargs || u->args[m].id != a->id) {
            forget_held(u); /* this run's id did not write them all */
            return mmio_fail(AXL_ERR_KERNEL_ARGUMENT,
                             "mmio: %s has no register for argument %u",
                             run->kernel_name, (unsigned)a->id);
        }
        mmio_arg *r = &u->args[m];
        const uint32_t bit = 1u << m;
        uint32_t word[2];
        uint32_t words = r->size >= 8 ? 2u : 1u;
        if (a->is_mem) {
            clean(d, host_of(a->mem, a->offset), a->size);
            if (same_mem && (u->held_mask & bit))
                continue;
            uint64_t addr = a->mem->device_address + a->offset;
            word[0] = (uint32_t)addr;
            word[1] = (uint32_t)(addr >> 32);
        } else {
            const unsigned char *v = a->value;
            uint64_t n = a->size < r->size ? a->size : r->size;
            if (r->size > 8) {
                /* Not held: written whole. */
                u->held_mask &= ~bit;
                for (uint32_t w = 0; w * 4u < r->size; w++) {
                    uint32_t x = 0;
                    uint64_t at = (uint64_t)w * 4u;
                    if (at < n)
                        memcpy(&x, v + at, n - at < 4 ? n - at : 4);
                    mmio_wr32(u->regs, r->offset + w * 4u, x);
                }
                continue;
            }
            word[0] = word[1] = 0;
            memcpy(word, v, (size_t)n);
        }
        const int held = (u->held_mask & bit) != 0;
        for (uint32_t w = 0; w < words; w++)
            if (!held || r->held[w] != word[w]) {
                mmio_wr32(u->regs, r->offset + w * 4u, word[w]);
                r->held[w] = word[w];
            }
        u->held_mask |= bit;
    }
    u->held_id = run->args_id;
    if (u->mode == AXL_MMIO_COMPLETION_POLL_THEN_SLEEP) {
        if (u->gie_on) {
            /* The interrupt ended the last run: off again for the spin. */
            atomic_store(&u->polled, 1);
            mmio_wr32(u->regs, MMIO_GIE, 0);
            u->gie_on = 0;
        }
        u->spin_end = dev_now(d) + AXL_MMIO_POLL_SPIN_NS;
    }
    atomic_fetch_add(&u->starts, 1u);
    atomic_store(&u->run, run);
    count(&counters.starts);
    /* One write: ap_start with auto_restart (bit 7) off. */
    mmio_wr32(u->regs, MMIO_CTRL, MMIO_AP_START);
    return AXL_SUCCESS;
}

/* The unit finished and its interrupt did not come (a look saw ap_done an
 * AXL_MMIO_IRQ_GRACE_NS ago): said once, counted, and the unit is polled
 * from now on, its interrupt off. Nonzero when the run ended. */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static int interrupt_missing(mmio_device *d, mmio_unit *u)
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
    count(&counters.irq_missing);
    if (!u->reported) {
        u->reported = 1;
        /* One line (AXL_MESSAGE_MAX): docs/on-the-metal.md says more. */
        axl_hal_log(AXL_LOG_WARN,
                    "mmio: %s (IP_LAYOUT %u) finished, its interrupt "
                    "missing: polled from now on. Check GIE (reads %u), IER "
                    "(0x%x), the IRQ controller's master enable, the IRQ "
                    "wiring",
                    u->name, (unsigned)(u - d->units), (unsigned)gie,
                    (unsigned)ier);
    }
    const axl_hal_run *run = atomic_exchange(&u->run, NULL);
    if (!run)
        return 1;
    if (u->chain)
        mmio_wr32(u->regs, MMIO_CTRL, MMIO_AP_CONTINUE);
    /* The done bit the entry never acknowledged (IER is 0 now: no other
     * sets). */
    const uint32_t isr = mmio_rd32(u->regs, MMIO_ISR);
    if (isr && isr != MMIO_ALL_ONES)
        mmio_wr32(u->regs, MMIO_ISR, isr);
    end_claimed(d, u, run, AXL_SUCCESS, NULL);
    return 1;
}

/* An interrupt-driven unit, looked at by one waiter (u->looking): every
 * AXL_MMIO_IRQ_GRACE_NS a read of its control word; a done seen there
 * that the interrupt has not ended one grace later is a missing
 * interrupt. (The read clears an ap_ctrl_hs ap_done, which the entry does
 * not need: it reads the ISR.) Nonzero when the run ended. */
static int look_for_interrupt(mmio_device *d, mmio_unit *u)
{
    const uint64_t now = dev_now(d);
    const uint32_t start = atomic_load(&u->starts);
    if (start != u->look_start) { /* another run: begin afresh */
        u->look_start = start;
        u->next_look = 0;
        u->done_seen = 0;
    }
#if MMIO_MODEL
    if (!u->done_seen &&
        atomic_load_explicit(&done_hint, memory_order_relaxed)) {
        atomic_store_explicit(&done_hint, 0, memory_order_relaxed);
        u->next_look = now; /* look now */
    }
#endif
    if (!u->next_look) {
        u->next_look = now + AXL_MMIO_IRQ_GRACE_NS;
        return 0;
    }
    if (now < u->next_look)
        return 0;
    u->next_look = now + AXL_MMIO_IRQ_GRACE_NS;
    if (u->done_seen)
        return now - u->done_at >= AXL_MMIO_IRQ_GRACE_NS
                   ? interrupt_missing(d, u)
                   : 0;
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
static int go_to_sleep(mmio_device *d, mmio_unit *u)
{
    const uint32_t isr = mmio_rd32(u->regs, MMIO_ISR);
    if (isr && isr != MMIO_ALL_ONES)
        mmio_wr32(u->regs, MMIO_ISR, isr);
    const uint32_t ctrl = mmio_rd32(u->regs, MMIO_CTRL);
    if (ctrl != MMIO_ALL_ONES && (ctrl & MMIO_AP_DONE)) {
        finish(d, u, AXL_SUCCESS, NULL);
        return 1;
    }
    give_to_isr(u);
    u->gie_on = 1;
    mmio_wr32(u->regs, MMIO_GIE, 1);
    return !atomic_load(&u->run);
}

/* A unit whose end is (or is about to be) the interrupt's: one waiter at
 * a time looks at it. Nonzero when its run ended. */
static int look_at_unit(mmio_device *d, mmio_unit *u)
{
    if (atomic_exchange(&u->looking, 1))
        return !atomic_load(&u->run);
    int ended;
    if (!atomic_load(&u->run))
        ended = 1;
    else if (!atomic_load(&u->polled))
        ended = look_for_interrupt(d, u);
    else if (dev_now(d) >= u->spin_end)
        ended = go_to_sleep(d, u);
    else
        ended = -1; /* still spinning: poll it */
    atomic_store(&u->looking, 0);
    return ended;
}

/* Looks at a running unit once; nonzero when its run ended. One claimer
 * per unit at a time: a polled unit's runs are the waiter's, an
 * interrupt-driven one's the entry's. With two, a poll could end run 1
 * and the next run start while run 1's done bit still stands in the ISR,
 * and the interrupt entry, seeing it, would end run 2 before the IP had.
 * (Clearing the ISR from the poll instead races the entry's
 * read-and-write-back on a toggle-on-write ISR.) The waiter takes a unit
 * over (take_from_isr) only with its GIE off or going off, and touches
 * the ISR only then. */
static int poll_unit(mmio_device *d, mmio_unit *u)
{
    if (!atomic_load(&u->run))
        return 0;
    if (atomic_load_explicit(&u->mode, memory_order_relaxed) !=
        AXL_MMIO_COMPLETION_POLL) {
        int ended = look_at_unit(d, u);
        if (ended >= 0)
            return ended;
    }
    count(&counters.polls);
    uint32_t ctrl = mmio_rd32(u->regs, MMIO_CTRL);
    if (ctrl == MMIO_ALL_ONES) {
        finish(d, u, AXL_ERR_RUNTIME,
               "mmio: the compute unit's registers read all ones: the IP "
               "stopped answering");
        return 1;
    }
    if (ctrl & MMIO_AP_DONE) {
        finish(d, u, AXL_SUCCESS, NULL);
        return 1;
    }
    return 0;
}

/* Hung units (run_cancel) are looked at, never waited for: one whose IP
 * raised ap_done after all gives its run back. From progress while it
 * waits for other units (the core does not wait for hung ones). */
static void poll_hung(mmio_device *d)
{
    for (uint32_t i = 0; i < AXL_MMIO_UNITS; i++) {
        mmio_unit *u = &d->units[i];
        if (!atomic_load(&u->hung_run) || !atomic_load(&u->polled))
            continue; /* an interrupt-driven unit's late end is its
                         interrupt's */
        uint32_t ctrl = mmio_rd32(u->regs, MMIO_CTRL);
        if (ctrl == MMIO_ALL_ONES || !(ctrl & MMIO_AP_DONE))
            continue;
        if (u->chain)
            mmio_wr32(u->regs, MMIO_CTRL, MMIO_AP_CONTINUE);
        const axl_hal_run *run = atomic_exchange(&u->hung_run, NULL);
        if (run && run->token)
            axl_hal_run_done(run->token, AXL_ERR_TIMEOUT,
                             "the run was given up at its timeout; its unit "
                             "raised ap_done later");
    }
}

#if MMIO_MODEL
/* The model stopped (advance said so): every running unit's run ends,
 * with what the model says of it. */
static void model_stopped(mmio_device *d)
{
    for (uint32_t i = 0; i < AXL_MMIO_UNITS; i++) {
        mmio_unit *u = &d->units[i];
        if (!atomic_load(&u->run))
            continue;
        char why[AXL_MESSAGE_MAX];
        axl_status st = model_run_status(u, why, sizeof why);
        if (st == AXL_SUCCESS) {
            st = AXL_ERR_RUNTIME;
            axl_format(why, sizeof why,
                       "mmio: the model (%s) stopped while compute unit %s "
                       "ran",
                       d->model->name ? d->model->name : "unnamed", u->name);
        }
        finish(d, u, st, why);
    }
}

/* Gives the model time while a unit runs: with a clock, one slice of it
 * (up to the deadline), after which progress returns so the waiter can
 * look at the host's clock and other devices (hal.h, now); in real time,
 * whatever is pending (a model without threads runs its units here). Nonzero
 * when progress should return after its next look at the units. */
static int model_advance(mmio_device *d, uint64_t deadline_ns)
{
    const axl_mmio_model *m = d->model;
    uint64_t until = AXL_MMIO_MODEL_FOREVER;
    if (m->now_ns) {
        uint64_t now = atomic_load_explicit(&model_ns, memory_order_relaxed);
        until = now + AXL_MMIO_MODEL_SLICE_NS;
        if (deadline_ns < until)
            until = deadline_ns;
        until = until > clock_base ? until - clock_base : 0;
    }
    m = model_enter();
    int ev = m->advance(m->user, AXL_MMIO_MODEL_ANY_UNIT, until);
    model_leave(m);
    if (ev == AXL_MMIO_MODEL_DONE)
        /* A done stands that no read has seen: an interrupt-driven unit's
         * look reads it now (the model returns at once until it is read,
         * mmio_model.h, advance). */
        atomic_store_explicit(&done_hint, 1, memory_order_relaxed);
    if (ev == AXL_MMIO_MODEL_ERROR) {
        model_stopped(d);
        return 1;
    }
    return m->now_ns != NULL;
}

/* The device's clock: the model's, else the runtime's. */
static uint64_t device_now(const mmio_device *d)
{
    return d->model->now_ns ? mmio_now(NULL) : axl_hal_now();
}
#endif

static void mmio_progress(void *dev, uint64_t deadline_ns)
{
    mmio_device *d = dev;
#if MMIO_MODEL
    int advanced = 0;
#endif
    for (;;) {
        int running = 0, ended = 0;
        for (uint32_t i = 0; i < AXL_MMIO_UNITS; i++) {
            if (!atomic_load(&d->units[i].run))
                continue;
            running = 1;
            ended |= poll_unit(d, &d->units[i]);
        }
        if (!running || ended)
            return;
#if MMIO_MODEL
        if (advanced ||
            (deadline_ns != UINT64_MAX && device_now(d) >= deadline_ns))
            return;
        advanced = model_advance(d, deadline_ns);
#else
        if (deadline_ns != UINT64_MAX && axl_hal_now() >= deadline_ns)
            return;
#endif
        poll_hung(d); /* while it waits anyway */
        axl_port_relax();
    }
}

static void isr_entry(mmio_device *d, mmio_unit *u);

void axl_mmio_isr(uint32_t ip_index)
{
    mmio_device *d = &device;
    if (!d->open || ip_index >= AXL_MMIO_UNITS)
        return;
    mmio_unit *u = &d->units[ip_index];
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
    isr_entry(d, u);
    atomic_fetch_sub(&u->in_isr, 1u);
}

/* The entry proper, for a unit whose runs it ends. */
static void isr_entry(mmio_device *d, mmio_unit *u)
{
    int done;
    if (u->chain) {
        /* ap_done is a level here, and reading it clears nothing. While it
         * is high the ISR's done bit sets again whatever clears it, so:
         * ap_continue first, then read the ISR and write it back (which
         * clears a clear-on-read ISR at the read, a toggle-on-write one at
         * the write). */
        uint32_t ctrl = mmio_rd32(u->regs, MMIO_CTRL);
        if (ctrl == MMIO_ALL_ONES)
            return;
        done = (ctrl & MMIO_AP_DONE) != 0;
        if (done)
            mmio_wr32(u->regs, MMIO_CTRL, MMIO_AP_CONTINUE);
        uint32_t s = mmio_rd32(u->regs, MMIO_ISR);
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
        count(&counters.irq_spurious);
        return;
    }
    const axl_hal_run *run = atomic_exchange(&u->run, NULL);
    if (!run) {
        /* A run given up at its timeout that ended after all, or none (a
         * cancel or a reset took it). */
        run = atomic_exchange(&u->hung_run, NULL);
        if (!run)
            return;
    }
    count(&counters.irq_done);
    invalidate_outputs(d, run);
    axl_status st = AXL_SUCCESS;
    char why[AXL_MESSAGE_MAX];
#if MMIO_MODEL
    st = model_run_status(u, why, sizeof why);
#else
    why[0] = '\0';
#endif
    axl_hal_run_done(run->token, st, st == AXL_SUCCESS ? NULL : why);
}

/* ---- Resets and given-up runs ------------------------------------------- */

/* After a reset: polls the control word until the unit reads idle with
 * ap_sw_reset clear (AXL_MMIO_RESET_POLLS reads), then clears what the
 * core may have left (ap_done of ap_ctrl_chain, the ISR) and enables its
 * interrupt again. 1 when it came back; *ctrl: the last word read. */
static int back_idle(mmio_unit *u, uint32_t *ctrl)
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
                arm(u);
            }
            return 1;
        }
        axl_port_relax();
    }
    return 0;
}

/* The unit is back after a reset: the run it held, given up or not, is
 * over and goes back to the core (its one run_done; a given-up run's
 * status is ignored there). */
static void back_after_reset(mmio_unit *u)
{
    count(&counters.resets);
    atomic_store_explicit(&u->reset_ctrl, 0, memory_order_relaxed);
    const axl_hal_run *run = atomic_exchange(&u->hung_run, NULL);
    if (!run)
        run = atomic_exchange(&u->run, NULL);
    /* A port test that drives the port without the core passes no
     * token. */
    if (run && run->token)
        axl_hal_run_done(run->token, AXL_ERR_RUNTIME,
                         "mmio: the compute unit was reset before its run "
                         "ended");
}

/* ap_sw_reset where the board says the unit has it, then the board's
 * hook; the unit is back when it reads idle, and its run (if any) ends
 * then. Else why says what each attempt did. */
static axl_status reset_unit(mmio_device *d, uint32_t ip_index, char *why,
                             size_t why_size)
{
    mmio_unit *u = &d->units[ip_index];
    uint32_t ctrl = 0;
    char sw[96] = "";
    forget_held(u);
    if (u->sw_reset) {
        mmio_wr32(u->regs, MMIO_CTRL, MMIO_AP_SW_RESET);
        if (back_idle(u, &ctrl)) {
            back_after_reset(u);
            return AXL_SUCCESS;
        }
        /* The board says the core has ap_sw_reset; the core does not act
         * on it: the hook may still bring it back. */
        axl_format(sw, sizeof sw,
                   "ap_sw_reset left it busy (control word 0x%x)",
                   (unsigned)ctrl);
    }
    if (!d->board->reset_unit) {
        if (!u->sw_reset)
            return AXL_ERR_FEATURE_NOT_SUPPORTED;
        axl_format(why, why_size, "%s, and the board has no reset hook", sw);
        return AXL_ERR_RUNTIME;
    }
    axl_status st = d->board->reset_unit(d->board->user, ip_index);
    if (st == AXL_SUCCESS && back_idle(u, &ctrl)) {
        back_after_reset(u);
        return AXL_SUCCESS;
    }
    if (st != AXL_SUCCESS)
        axl_format(why, why_size, "%s%sthe board's reset hook failed (%s: %s)",
                   sw, sw[0] ? "; " : "", axl_status_name(st),
                   axl_last_message());
    else
        axl_format(why, why_size,
                   "%s%sthe board's reset hook left it busy (control word "
                   "0x%x)",
                   sw, sw[0] ? "; " : "", (unsigned)ctrl);
    return AXL_ERR_RUNTIME;
}

axl_status axl_mmio_reset_unit(uint32_t ip_index)
{
    mmio_device *d = &device;
    if (!d->open || ip_index >= AXL_MMIO_UNITS || !d->units[ip_index].known)
        return mmio_fail(AXL_ERR_INVALID,
                         "axl_mmio_reset_unit: no compute unit at IP_LAYOUT "
                         "index %u",
                         (unsigned)ip_index);
    mmio_unit *u = &d->units[ip_index];
    char why[AXL_MESSAGE_MAX - 48];
    why[0] = '\0';
    axl_status st = reset_unit(d, ip_index, why, sizeof why);
    if (st == AXL_ERR_FEATURE_NOT_SUPPORTED)
        return mmio_fail(st,
                         "axl_mmio_reset_unit: compute unit %s has no "
                         "ap_sw_reset and the board no reset hook: only a "
                         "reset of the fabric brings it back",
                         u->name);
    if (st != AXL_SUCCESS)
        return mmio_fail(st, "axl_mmio_reset_unit: %s did not come back: %s",
                         u->name, why);
    return AXL_SUCCESS;
}

static mmio_unit *unit_at(uint32_t ip_index)
{
    mmio_device *d = &device;
    if (!d->open || ip_index >= AXL_MMIO_UNITS || !d->units[ip_index].known)
        return NULL;
    return &d->units[ip_index];
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
    u->mode = mode == AXL_MMIO_COMPLETION_BOARD ? board_mode(&device, u)
                                                : (uint8_t)mode;
    u->fell_back = 0;
    arm(u);
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

/*
 * An HLS IP cannot be aborted, and a hung one may still be mastering the
 * memory it was given. So the run stays the unit's (hal.h: its memory
 * stays valid) until the unit is really stopped: by ap_sw_reset here,
 * when the board says the unit has it and the unit then reads idle; else
 * by axl_mmio_reset_unit (ap_sw_reset, then the board's hook), or when the
 * IP raises ap_done after all (a poll, or its interrupt). Each gives the
 * run back with its one run_done. Meanwhile the unit is hung: run_start
 * refuses it, and the core, told by unit_fix that such a run may never
 * end, does not wait for it.
 */
static void mmio_run_cancel(void *dev, const axl_hal_run *run)
{
    (void)dev;
    mmio_unit *u = (mmio_unit *)run->cu_handle;
    if (!u)
        return;
    const axl_hal_run *mine = run;
    if (!atomic_compare_exchange_strong(&u->run, &mine, NULL))
        return; /* it ended meanwhile; the core sees its run_done */
    /* This call has the run. A done the interrupt sees between here and
     * hung_run below finds no run: the unit then waits for a reset. */
    if (u->sw_reset) {
        uint32_t ctrl = 0;
        forget_held(u);
        mmio_wr32(u->regs, MMIO_CTRL, MMIO_AP_SW_RESET);
        if (back_idle(u, &ctrl)) {
            count(&counters.resets);
            if (run->token)
                axl_hal_run_done(run->token, AXL_ERR_TIMEOUT,
                                 "the run was given up after its timeout; "
                                 "ap_sw_reset stopped its unit");
            return;
        }
        /* Not discarded: axl_mmio_reset_unit and run_start say it. */
        atomic_store_explicit(&u->reset_ctrl, ctrl ? ctrl : MMIO_AP_SW_RESET,
                              memory_order_relaxed);
    }
    atomic_store(&u->hung_run, run);
}

/* ---- Memory ------------------------------------------------------------- */

static axl_status mmio_mem_alloc(void *dev, uint32_t bank, uint64_t size,
                                 void *user_ptr, axl_hal_mem *out)
{
    mmio_device *d = dev;
    if (user_ptr)
        return AXL_ERR_FEATURE_NOT_SUPPORTED; /* banks are the board's */
    if (bank >= d->nbanks)
        return AXL_ERR_INVALID;
    mmio_bank *b = &d->banks[bank];
    uint64_t off;
    axl_port_lock();
    uint32_t full = b->arena.nblocks == b->arena.max_blocks;
    axl_status st = axl_arena_alloc(&b->arena, size, &off);
    axl_port_unlock();
    if (st != AXL_SUCCESS) {
        if (full)
            return mmio_fail(AXL_ERR_OUT_OF_RESOURCES,
                             "mmio: bank %s holds %u allocations already "
                             "(AXL_MMIO_BANK_ALLOCS)",
                             b->tag, (unsigned)AXL_MMIO_BANK_ALLOCS);
        return mmio_fail(AXL_ERR_OUT_OF_RESOURCES,
                         "mmio: bank %s has no free run of %llu bytes (the "
                         "region the board declares is %llu bytes)",
                         b->tag, (unsigned long long)size,
                         (unsigned long long)b->region.size);
    }
    out->handle = (uintptr_t)off + 1;
    out->host_ptr = b->host + off;
    out->device_address = b->region.phys + off;
    out->size = size;
    out->bank = bank;
#if MMIO_MODEL
    if (d->model->note_alloc) {
        const axl_mmio_model *m = model_enter();
        m->note_alloc(m->user, out->device_address, size);
        model_leave(m);
    }
#endif
    return AXL_SUCCESS;
}

static void mmio_mem_free(void *dev, axl_hal_mem *mem)
{
    mmio_device *d = dev;
#if MMIO_MODEL
    if (d->model->note_free) {
        const axl_mmio_model *m = model_enter();
        m->note_free(m->user, mem->device_address);
        model_leave(m);
    }
#endif
    axl_port_lock();
    axl_arena_free(&d->banks[mem->bank].arena, (uint64_t)(mem->handle - 1));
    axl_port_unlock();
    mem->handle = 0;
}

static axl_status mmio_mem_write(void *dev, axl_hal_mem *mem, uint64_t offset,
                                 const void *src, uint64_t size)
{
    mmio_device *d = dev;
    if (offset > mem->size || size > mem->size - offset)
        return AXL_ERR_INVALID;
    void *p = host_of(mem, offset);
    memcpy(p, src, (size_t)size);
    clean(d, p, size);
    return AXL_SUCCESS;
}

static axl_status mmio_mem_read(void *dev, axl_hal_mem *mem, uint64_t offset,
                                void *dst, uint64_t size)
{
    mmio_device *d = dev;
    if (offset > mem->size || size > mem->size - offset)
        return AXL_ERR_INVALID;
    void *p = host_of(mem, offset);
    invalidate(d, p, size);
    memcpy(dst, p, (size_t)size);
    return AXL_SUCCESS;
}

static axl_status mmio_mem_copy(void *dev, axl_hal_mem *dst, uint64_t dst_off,
                                axl_hal_mem *src, uint64_t src_off,
                                uint64_t size)
{
    mmio_device *d = dev;
    if (dst_off > dst->size || size > dst->size - dst_off ||
        src_off > src->size || size > src->size - src_off)
        return AXL_ERR_INVALID;
    void *s = host_of(src, src_off), *t = host_of(dst, dst_off);
    invalidate(d, s, size);
    memmove(t, s, (size_t)size);
    clean(d, t, size);
    return AXL_SUCCESS;
}

#if MMIO_IP
/* ---- Registers of any IP (axl/ip.h) ---------------------------------------
 *
 * The handle is the IP's IP_LAYOUT index + 1. A compute unit is reached
 * where the port drives it; any other IP is mapped here, at its IP_LAYOUT
 * base (or the board's wiring), AXL_IP_RANGE bytes as for a unit. */

static axl_status mmio_ip_open(void *dev, const axl_xclbin *image,
                               uint32_t ip_index, const axl_xclbin_ip *ip,
                               uintptr_t *handle)
{
    mmio_device *d = dev;
    (void)image;
    if (ip_index >= AXL_MMIO_UNITS)
        return mmio_fail(AXL_ERR_OUT_OF_RESOURCES,
                         "mmio: it is IP_LAYOUT entry %u; the port reaches "
                         "entries below AXL_MMIO_UNITS (%u)",
                         (unsigned)ip_index, (unsigned)AXL_MMIO_UNITS);
    mmio_unit *u = &d->units[ip_index];
    if (!u->known && !u->ip_opens) {
        const axl_mmio_board *bd = d->board;
        u->phys = ip->base_address;
        u->irq = 0;
        for (uint32_t w = 0; bd->units && w < bd->unit_count; w++)
            if (bd->units[w].ip_index == ip_index) {
                if (bd->units[w].base)
                    u->phys = bd->units[w].base;
                u->irq = bd->units[w].irq;
            }
        axl_format(u->name, sizeof u->name, "%.*s", (int)ip->name.len,
                   ip->name.ptr);
        if (MMIO_MODEL)
            u->regs = (uintptr_t)ip_index + 1u;
        else if (bd->map_ctrl)
            u->regs = bd->map_ctrl(bd->user, u->phys, 0x10000);
        else
            u->regs = u->phys <= UINTPTR_MAX ? (uintptr_t)u->phys : 0;
        if (!u->regs)
            return mmio_fail(AXL_ERR_PLATFORM,
                             "mmio: the board could not map it at 0x%llx "
                             "(axl_mmio_board.map_ctrl)",
                             (unsigned long long)u->phys);
    }
    if (u->ip_opens == UINT8_MAX)
        return mmio_fail(AXL_ERR_OUT_OF_RESOURCES,
                         "mmio: %u handles are open on it already",
                         (unsigned)UINT8_MAX);
    if (!u->ip_opens)
        u->irqs_seen = atomic_load(&u->irqs);
    u->ip_opens++;
    *handle = (uintptr_t)ip_index + 1u;
    return AXL_SUCCESS;
}

static void mmio_ip_close(void *dev, uintptr_t handle)
{
    mmio_device *d = dev;
    d->units[handle - 1u].ip_opens--;
}

static axl_status mmio_ip_read32(void *dev, uintptr_t handle, uint32_t offset,
                                 uint32_t *value)
{
    mmio_device *d = dev;
    *value = mmio_rd32(d->units[handle - 1u].regs, offset);
    return AXL_SUCCESS;
}

static axl_status mmio_ip_write32(void *dev, uintptr_t handle,
                                  uint32_t offset, uint32_t value)
{
    mmio_device *d = dev;
    mmio_wr32(d->units[handle - 1u].regs, offset, value);
    return AXL_SUCCESS;
}

/* An interrupt wired to the CPU is the entry's (axl_mmio_isr counts what
 * it acknowledges); one that is not is seen in the IP's ISR, which this
 * acknowledges the same way (read it, write it back). */
static axl_status mmio_ip_wait(void *dev, uintptr_t handle,
                               uint64_t timeout_ns)
{
    mmio_device *d = dev;
    mmio_unit *u = &d->units[handle - 1u];
#if MMIO_MODEL
    const uint64_t now = device_now(d);
#else
    const uint64_t now = axl_hal_now();
#endif
    uint64_t deadline = UINT64_MAX;
    if (timeout_ns != UINT64_MAX)
        (void)axl__add_size(now, timeout_ns, &deadline);
    for (;;) {
        const uint32_t n = atomic_load(&u->irqs);
        if (n != u->irqs_seen) {
            u->irqs_seen = n;
            return AXL_SUCCESS;
        }
        if (!u->irq) {
            const uint32_t s = mmio_rd32(u->regs, MMIO_ISR);
            if (s && s != MMIO_ALL_ONES) {
                mmio_wr32(u->regs, MMIO_ISR, s);
                return AXL_SUCCESS;
            }
        }
#if MMIO_MODEL
        if (device_now(d) >= deadline)
            return AXL_ERR_TIMEOUT;
        (void)model_advance(d, deadline);
#else
        if (axl_hal_now() >= deadline)
            return AXL_ERR_TIMEOUT;
#endif
        axl_port_relax();
    }
}
#endif /* MMIO_IP */

const axl_device_port axl_mmio_port = {
    .name = "mmio",
    .platform_name = "axl mmio",
    .platform_vendor = "axl",
    .platform_version = "SYCL 2020 axl-mmio 0.1",
    .backend = AXL_BACKEND_EMU,
    .probe = mmio_probe,
    .open = mmio_open,
    .close = mmio_close,
    .describe = mmio_describe,
    .bank = mmio_bank_info,
    .load_image = mmio_load_image,
    .kernel_compatible = mmio_kernel_compatible,
#if MMIO_MODEL
    .kernel_fix = model_fix, /* the model's (mmio_open) */
#endif
    .mem_alloc = mmio_mem_alloc,
    .mem_free = mmio_mem_free,
    .mem_write = mmio_mem_write,
    .mem_read = mmio_mem_read,
    .mem_copy = mmio_mem_copy,
    .cu_open = mmio_cu_open,
    .cu_close = mmio_cu_close,
    .run_start = mmio_run_start,
    .run_cancel = mmio_run_cancel,
    .unit_fix = "axl_mmio_reset_unit() brings it back",
    .progress = mmio_progress,
#if MMIO_MODEL
    .now = mmio_now,
#endif
#if MMIO_IP
    .ip_open = mmio_ip_open,
    .ip_close = mmio_ip_close,
    .ip_read32 = mmio_ip_read32,
    .ip_write32 = mmio_ip_write32,
    .ip_wait = mmio_ip_wait,
#endif
};
