/*
 * xrt/mmio/sim.c - the register-level simulator of Vitis HLS compute units
 * (mmio_sim.h), a model of the fabric (axl_mmio_sim_model, axl/mmio_model.h)
 * with a clock of its own. It stands behind the port's seam in the tests of
 * label mmio and in the R5 kernel firmware under QEMU.
 *
 * Per unit, a register file that follows the generated s_axilite RTL
 * (mmio_regs.h; docs/hls-control.md has the table) in the variant a test sets:
 *  0x00 ap_start: a write of 1 sets it, 0 is ignored; it clears when the
 *       core raises ap_ready (or stays under auto_restart); the pulse
 *       variant always reads 0. ap_done: sticky and clear on read in
 *       ap_ctrl_hs, a level held until ap_continue in ap_ctrl_chain.
 *       ap_idle read-only. ap_ready plain (held until the next start) or
 *       clear on read. ap_continue self-clearing. auto_restart rewritten
 *       by every write. ap_sw_reset where the unit has it. Bit 9: global
 *       enable AND any status bit.
 *  0x04 global interrupt enable; 0x08 IER (bit 1 may be missing); 0x0C
 *       ISR, toggle on write or clear on read; a bit sets only when its
 *       enable is set; in ap_ctrl_chain the done bit sets again while
 *       ap_done is high.
 *  0x10+ argument registers, read back as written; unknown offsets read 0.
 *
 * Starting a unit runs the emulated device's C model of its kernel
 * (xrt/emu: the registered model, else the stock one) on the banks'
 * memory, with the arguments the registers hold. With threads (the host),
 * each unit has its own thread, so units compute at once; without (bare
 * metal), a unit's model runs when the clock reaches its done.
 *
 * Time is simulated (mmio_sim.h, "Time"): the clock moves only inside
 * the model's calls, by AXL_MMIO_SIM_ACCESS_NS a register access and up to
 * the deadline advance() is given. A run's done rises at its start plus
 * the unit's run time, and the clock never passes a done whose model has
 * not returned: it waits there (advance() waits for the unit's thread, a
 * while at a time, then hands back; an access leaves the clock there),
 * so what happens at a simulated time does not depend on how fast the
 * host ran the models.
 *
 * Streams (with threads): the design's streams join its units' C models
 * through FIFOs of the design's depth, as the fabric's AXI4-Stream FIFOs
 * join the IPs (axl/emu.h's stream ops). An ap_ctrl_none unit runs its
 * model from attach (the fabric's reset) to detach, again each time it
 * returns, reading its scalar registers anew at each stream op (what the
 * RTL reads all the time); it has no done, so the clock never waits for
 * it. A reset ends what a unit's model waits for. Under ap_ctrl_chain a
 * unit's ap_done waits for ap_continue before the next run's (what
 * back-pressure on ap_done is for): a done due meanwhile rises at the
 * continue. Under auto-restart the 2022.2-on block continues the core
 * itself and shows no done, so iterations follow each other without the
 * port; with RESTART_DONES each waits for the port's ap_continue.
 *
 * A model that waits on a stream does not compute: when every model that
 * has not returned waits on a stream that none of them can fill or drain
 * (nothing moves until the port does something), the clock goes past
 * their dues (they are late). A late unit's done is due again at the
 * clock's time when a beat lets its model go on, and rises once it has
 * returned. The simulator does not look for deadlocks (it is the
 * hardware): a run stuck on a stream ends at its command's timeout, as on
 * a board.
 */
#include <stdatomic.h>
#include <string.h>

#include "axl/emu.h"
#include "axl/hal.h"
#include "axl/mmio_model.h"
#include "axl/runtime.h"
#include "axl/shell.h"
#include "axl_board.h"
#include "emu_fifo.h"
#include "emu_models.h"
#include "mmio_config.h"
#include "mmio_regs.h"
#include "mmio_sim.h"

#if defined(AXL_MMIO_MODEL_THREADS) && AXL_MMIO_MODEL_THREADS
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#define SIM_THREADS 1
#else
#define SIM_THREADS 0
#endif

/* Units by unit number: the port's (a DFX shell's slots number theirs
 * from their first_unit, past the static design's). */
#ifndef AXL_MMIO_SIM_UNITS
#define AXL_MMIO_SIM_UNITS (AXL_MMIO_UNITS < 32 ? AXL_MMIO_UNITS : 32)
#endif
#ifndef AXL_MMIO_SIM_BANKS
#define AXL_MMIO_SIM_BANKS 2
#endif
/* Bytes of each simulated bank: the emulated device's by default, so the
 * same tests fit. */
#ifndef AXL_MMIO_SIM_BANK_SIZE
#if defined(AXL_EMU_BANK_SIZE)
#define AXL_MMIO_SIM_BANK_SIZE AXL_EMU_BANK_SIZE
#else
#define AXL_MMIO_SIM_BANK_SIZE (2u * 1024u)
#endif
#endif
/* Simulated nanoseconds a register access takes (an AXI4-Lite round trip
 * from a Zynq UltraScale+'s R5 is of that order), and a run when the test
 * sets none (axl_mmio_sim_set_run_time): one access, so the first access
 * after ap_start sees the done, as it did before the clock. */
#ifndef AXL_MMIO_SIM_ACCESS_NS
#define AXL_MMIO_SIM_ACCESS_NS 100u
#endif
#ifndef AXL_MMIO_SIM_RUN_NS
#define AXL_MMIO_SIM_RUN_NS 100u
#endif
/* A KEEPS_WRITING unit writes its buffer once every so many ns. */
#define SIM_WRITE_PERIOD_NS 20000u
/* How long advance() waits, in the host's time, for a unit's thread whose
 * done is due before it hands back to the port (whose other calls, which
 * a test's model may wait for, then get in): not simulated time, which
 * stands still meanwhile. */
#define SIM_WAIT_HOST_NS 1000000L
_Static_assert(AXL_MMIO_SIM_UNITS <= 32,
               "AXL_MMIO_SIM_UNITS must be <= 32 (a mask of units)");

/* Argument words per unit (0x10 up to 0x10 + 4 * this). */
#define SIM_ARG_WORDS 48
#define SIM_MAX_ARGS 16
/* Streams: per design, per unit, and the FIFOs' bytes. */
#define SIM_STREAMS 16
#define SIM_UNIT_STREAMS 4
#ifndef AXL_MMIO_SIM_STREAM_BYTES
#define AXL_MMIO_SIM_STREAM_BYTES (16u * 1024u)
#endif

struct sim_unit;

/* A unit's end of a stream (the FIFO is emu_fifo.h's, the emulated
 * device's). */
struct sim_end {
    emu_fifo *fifo;
    struct sim_unit *unit;
};

enum sim_state {
    SIM_IDLE,      /* ap_idle */
    SIM_HELD,      /* started; held while a spurious interrupt is out */
    SIM_PENDING,   /* started; the model has not run */
    SIM_RUNNING,   /* the model runs (on the unit's thread) */
    SIM_COMPUTED,  /* the model returned; done not raised yet (its time
                      has not come, or it waits for polls) */
    SIM_HUNG,      /* never finishes */
    SIM_WRITING    /* never finishes, and writes its buffer (KEEPS_WRITING) */
};

typedef struct sim_unit {
    int present;
    uint32_t ip_index;  /* its unit number (the port's) */
    uint32_t region;    /* 0: the design of attach; k + 1: slot k's */
    uint64_t base;
    int chain;
    char kernel[AXL_EMU_NAME_MAX];
    uint32_t kernel_index;
    /* Its argument registers, read once from the kernel XML at attach. */
    uint32_t nargs;
    struct {
        uint32_t id, offset, size;
        uint8_t is_mem;
    } arg[SIM_MAX_ARGS];
    uint32_t cu;        /* ordinal among the kernel's units */
    /* configuration */
    uint32_t variant, fault, fault_n;
    uint64_t run_ns;    /* how long a run takes */
    /* registers */
    uint32_t start, done, ready, auto_restart, gie, ier, isr;
    uint32_t args[SIM_ARG_WORDS];
    /* The argument words as they were at the run's ap_start, which the
     * run's model is given: the RTL latches its scalars there, so a write
     * after it (an auto-restart unit's next scalar) is the next run's. */
    uint32_t start_args[SIM_ARG_WORDS];
    int irq_line;
    uint8_t irq_dead;   /* IRQ_LOST_AFTER_LOAD: its slot was loaded and
                           not re-armed (sim_after_load) */
    /* Raised since the port last read 0x00 (done; or an ISR that says
     * done) or 0x0C (irq; or lowered GIE): what advance() answers at once
     * (axl/mmio_model.h). */
    uint8_t done_pending, irq_pending;
    /* core */
    int state;
    uint8_t due;        /* a done to raise at due_at (once computed) */
    uint64_t due_at;
    uint64_t next_write; /* SIM_WRITING: its next write */
    uint32_t generation; /* bumped by ap_sw_reset: a model's late result
                            is dropped */
    uint32_t polls;      /* reads of 0x00 since start */
    int free_running;    /* ap_ctrl_none: its model runs from attach */
    uint32_t run_gen;    /* generation its model runs in (streams) */
    uint32_t *live_argw; /* a free-running model's argument words, which
                            its stream ops refresh from the registers */
    uint32_t nends;
    axl_emu_stream ends[SIM_UNIT_STREAMS];
    struct sim_end end[SIM_UNIT_STREAMS];
    struct sim_end *waits; /* the end its model waits on (NULL: none) */
    uint8_t waits_full;    /* for room (else for a beat) */
    uint8_t late;          /* its done went by while its model waited on a
                              stream: due again when a beat lets it go on */
    axl_status result;
    char why[AXL_MESSAGE_MAX];
    unsigned char *scribble;  /* SIM_WRITING: what it writes, as it was */
    uint64_t scribble_size;   /* given at the start */
    axl_mmio_sim_stats stats;
#if SIM_THREADS
    pthread_t thread;
    int quit;
#endif
} sim_unit;

static sim_unit units[AXL_MMIO_SIM_UNITS];
static uint32_t nfifos;
#if SIM_THREADS
static emu_fifo fifos[SIM_STREAMS];
static _Alignas(8) unsigned char stream_store[AXL_MMIO_SIM_STREAM_BYTES];
#endif
/* The present units by IP_LAYOUT index (NULL: none there), for the seam's
 * one lookup per access. */
static sim_unit *unit_ptr[AXL_MMIO_SIM_UNITS];
static struct {
    uint32_t variant, fault, n;
    int set;
    uint64_t run_ns; /* 0: AXL_MMIO_SIM_RUN_NS */
} config[AXL_MMIO_SIM_UNITS];
static int attached;
/* The clock: ns since attach (written with the lock held; now_ns reads it
 * without), and the earliest due_at of a unit with a done due. */
static _Atomic uint64_t sim_ns;
static uint64_t next_due = UINT64_MAX;
/* The earliest next write of a KEEPS_WRITING unit (or later: a unit that
 * stopped writing leaves it until the clock passes it). */
static uint64_t next_write = UINT64_MAX;
/* Who hears a unit's interrupt: the isr of attach, unless a test put its
 * own handler in its place. */
static void (*attach_isr)(uint32_t ip_index);
static void (*irq_handler)(uint32_t ip_index);
static atomic_bool loads_fail; /* axl_mmio_sim_fail_loads */
/* The banks as attach gave them (the memory the units' masters reach). */
static axl_mmio_bank_region banks[AXL_MMIO_BANKS];
static uint32_t nbanks;

/* The simulator's own board (axl_mmio_sim_board): banks in static
 * storage. */
static _Alignas(64) unsigned char
    bank_storage[AXL_MMIO_SIM_BANKS][AXL_MMIO_SIM_BANK_SIZE];
static axl_mmio_bank_region regions[AXL_MMIO_BANKS];
static axl_mmio_unit_wiring wiring[AXL_MMIO_SIM_UNITS];
static axl_mmio_board board;

#if SIM_THREADS
/* One lock for the register files (a bus is one at a time anyway); each
 * unit's model runs outside it, on the unit's thread. */
static pthread_mutex_t sim_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t sim_cond = PTHREAD_COND_INITIALIZER;
#define LOCK() pthread_mutex_lock(&sim_lock)
#define UNLOCK() pthread_mutex_unlock(&sim_lock)
#define SIGNAL() pthread_cond_broadcast(&sim_cond)
#else
#define LOCK() ((void)0)
#define UNLOCK() ((void)0)
#define SIGNAL() ((void)0)
#endif

static sim_unit *unit_at(uint32_t ip_index);

static int has(const sim_unit *u, uint32_t v)
{
    return (u->variant & v) != 0;
}

/* ---- Configuration ------------------------------------------------------ */

/* The variant of units no test configured: AXL_MMIO_SIM_VARIANT (a number,
 * the enum's bits) on a host, so that ctest runs the same kernel tests on
 * every variant (tests/mmio/CMakeLists.txt); 0 otherwise. */
static uint32_t default_variant(void)
{
#if SIM_THREADS
    const char *v = getenv("AXL_MMIO_SIM_VARIANT");
    return v ? (uint32_t)strtoul(v, NULL, 0) : 0;
#else
    return 0;
#endif
}

static void apply_config(sim_unit *u)
{
    uint32_t i = u->ip_index;
    u->variant = config[i].set ? config[i].variant : default_variant();
    u->fault = config[i].set ? config[i].fault : AXL_MMIO_SIM_OK;
    u->fault_n = config[i].set ? config[i].n : 0;
    u->run_ns = config[i].run_ns ? config[i].run_ns : AXL_MMIO_SIM_RUN_NS;
    if (has(u, AXL_MMIO_SIM_HS))
        u->chain = 0;
    if (has(u, AXL_MMIO_SIM_CHAIN))
        u->chain = 1;
}

void axl_mmio_sim_set_unit(uint32_t ip_index, uint32_t variant, uint32_t fault,
                           uint32_t n)
{
    if (ip_index >= AXL_MMIO_SIM_UNITS)
        return;
    LOCK();
    config[ip_index].variant = variant;
    config[ip_index].fault = fault;
    config[ip_index].n = n;
    config[ip_index].set = 1;
    if (units[ip_index].present)
        apply_config(&units[ip_index]);
    UNLOCK();
}

void axl_mmio_sim_set_run_time(uint32_t ip_index, uint64_t ns)
{
    if (ip_index >= AXL_MMIO_SIM_UNITS)
        return;
    LOCK();
    config[ip_index].run_ns = ns;
    if (units[ip_index].present)
        apply_config(&units[ip_index]);
    UNLOCK();
}

void axl_mmio_sim_defaults(void)
{
    LOCK();
    memset(config, 0, sizeof config);
    for (uint32_t i = 0; i < AXL_MMIO_SIM_UNITS; i++)
        if (units[i].present)
            apply_config(&units[i]);
    UNLOCK();
    irq_handler = NULL;
    atomic_store(&loads_fail, false);
}

static bool sim_can_run(void *user, const axl_xclbin *image,
                        uint32_t kernel_index)
{
    (void)user;
    axl_xclbin_kernel k;
    return axl_xclbin_get_kernel(image, kernel_index, &k) == AXL_SUCCESS &&
           axl__emu_has_model_locked(k.name.ptr, k.name.len);
}

void axl_mmio_sim_set_irq_handler(void (*fn)(uint32_t ip_index))
{
    irq_handler = fn;
}

void axl_mmio_sim_port_isr(uint32_t ip_index)
{
    if (attach_isr)
        attach_isr(ip_index);
}

/* ---- Interrupts ----------------------------------------------------------- */

/* The line: global enable AND any status bit. Returns 1 on a rising edge
 * (the caller delivers it with the lock dropped). */
static int update_line(sim_unit *u)
{
    int line = u->gie && (u->isr & 3u);
    int rose = line && !u->irq_line;
    u->irq_line = line;
    if (rose)
        u->stats.irqs++;
    /* IRQ_LOST: the IP's line rises (its 0x00 bit 9 says so) and goes
     * nowhere, as behind an interrupt controller whose master enable was
     * never set. */
    if (!rose || !has(u, AXL_MMIO_SIM_IRQ_WIRED) ||
        u->fault == AXL_MMIO_SIM_IRQ_LOST || u->irq_dead)
        return 0;
    u->irq_pending = 1;
    return 1;
}

static void deliver(uint32_t ip_index)
{
    void (*fn)(uint32_t) = irq_handler ? irq_handler : attach_isr;
    if (fn)
        fn(ip_index);
}

/* Every unit of the mask (lock not held). */
static void deliver_all(uint32_t rose)
{
    for (uint32_t i = 0; rose; i++, rose >>= 1)
        if (rose & 1u)
            deliver(i);
}

/* The same with the lock held: dropped around the handlers. */
static void deliver_unlocked(uint32_t rose)
{
    if (!rose)
        return;
    UNLOCK();
    deliver_all(rose);
    LOCK();
}

static uint32_t ier_mask(const sim_unit *u)
{
    return has(u, AXL_MMIO_SIM_NO_READY_IRQ) ? MMIO_IRQ_DONE
                                             : MMIO_IRQ_DONE | MMIO_IRQ_READY;
}

/* In ap_ctrl_chain the done status follows the ap_done level. */
static void chain_isr(sim_unit *u)
{
    if (u->chain && u->done && (u->ier & MMIO_IRQ_DONE))
        u->isr |= MMIO_IRQ_DONE;
}

/* ---- The core ------------------------------------------------------------- */

/* Inline in run_model, on every start (the launch benchmark counts it). */
static inline __attribute__((always_inline)) void *bank_ptr(uint64_t addr,
                                                            uint64_t *room);

/* A KEEPS_WRITING unit's target: the allocation its argument fault_n
 * points to when it starts (lock held). Out of line: begin is on every
 * start. */
__attribute__((noinline)) static void scribble_target(sim_unit *u)
{
    u->scribble = NULL;
    u->scribble_size = 0;
    for (uint32_t a = 0; a < u->nargs; a++) {
        if (u->arg[a].id != u->fault_n || !u->arg[a].is_mem)
            continue;
        const uint32_t *w = &u->args[(u->arg[a].offset - MMIO_ARGS) / 4];
        uint64_t addr =
            w[0] | (u->arg[a].size >= 8 ? (uint64_t)w[1] << 32 : 0);
        u->scribble = bank_ptr(addr, &u->scribble_size);
    }
}

/* The writes of a KEEPS_WRITING unit are the fabric's: on a board they
 * race with the host's by nature (an IP given up still masters memory the
 * host may write), and that race is what the tests of given-up runs are
 * about. ThreadSanitizer is told not to see them: byte stores through a
 * volatile pointer, in a function it does not instrument, so no memset
 * interceptor sees them either. */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)
#define SIM_FABRIC_WRITE __attribute__((no_sanitize("thread")))
#else
#define SIM_FABRIC_WRITE
#endif

/* One write of a KEEPS_WRITING unit (lock held). */
SIM_FABRIC_WRITE static void scribble_once(sim_unit *u)
{
    volatile unsigned char *p = u->scribble;
    for (size_t i = 0; p && i < (size_t)u->scribble_size; i++)
        p[i] = 0xEE;
    u->stats.writes++;
}

static uint64_t clock_now(void)
{
    return atomic_load_explicit(&sim_ns, memory_order_relaxed);
}

/* The earliest done due (lock held): after a change of a unit's due. */
static void find_next_due(void)
{
    uint64_t n = UINT64_MAX;
    for (uint32_t i = 0; i < AXL_MMIO_SIM_UNITS; i++)
        if (units[i].present && units[i].due && units[i].due_at < n)
            n = units[i].due_at;
    next_due = n;
}

/* The unit will raise no done at a time of its own (lock held). */
static void not_due(sim_unit *u)
{
    if (u->due) {
        u->due = 0;
        find_next_due();
    }
}

/* The start of a unit set to a fault that acts at the start. */
__attribute__((noinline)) static void begin_faulty(sim_unit *u)
{
    if (u->fault == AXL_MMIO_SIM_NEVER_DONE) {
        u->state = SIM_HUNG;
        not_due(u);
    }
    if (u->fault == AXL_MMIO_SIM_KEEPS_WRITING) {
        scribble_target(u);
        u->state = SIM_WRITING;
        u->next_write = clock_now() + SIM_WRITE_PERIOD_NS;
        if (u->next_write < next_write)
            next_write = u->next_write;
        not_due(u);
    }
}

/* A start at the clock's time: its done is due a run time later. */
static void begin(sim_unit *u)
{
    u->state = SIM_PENDING;
    u->polls = 0;
    u->result = AXL_SUCCESS;
    u->why[0] = '\0';
    u->stats.t_start = clock_now();
    u->late = 0;
    u->due = 1;
    u->due_at = u->stats.t_start + u->run_ns;
    if (u->due_at < next_due)
        next_due = u->due_at;
    memcpy(u->start_args, u->args, sizeof u->start_args);
    if (u->fault) /* one test on every start: the faults are rare */
        begin_faulty(u);
}

/* Done and ready together, as a non-pipelined HLS core raises them. Under
 * auto_restart the core starts again at once, and the 2022.2-on block
 * shows neither on the control word (its task done and ready leave an
 * auto-restart iteration out; the ISR is fed by the core's). Returns 1
 * when the interrupt line rose. */
static int raise_done(sim_unit *u)
{
    u->stats.t_end = clock_now();
    u->stats.runs++;
    u->state = SIM_IDLE;
    if (!u->auto_restart || has(u, AXL_MMIO_SIM_RESTART_DONES)) {
        u->done = 1;
        u->done_pending = 1;
        u->ready = 1;
    }
    if (u->ier & MMIO_IRQ_DONE)
        u->isr |= MMIO_IRQ_DONE;
    if ((u->ier & MMIO_IRQ_READY) && !has(u, AXL_MMIO_SIM_NO_READY_IRQ))
        u->isr |= MMIO_IRQ_READY;
    if (u->auto_restart) {
        begin(u);
        SIGNAL(); /* its thread */
    } else {
        u->start = 0;
    }
    return update_line(u);
}

/* Whether a computed run may show done now (the late-done fault). */
static int may_finish(const sim_unit *u)
{
    return u->fault != AXL_MMIO_SIM_DONE_AFTER_POLLS || u->polls >= u->fault_n;
}

/* ap_ctrl_chain: a done not yet continued holds the next one back,
 * unless the 2022.2-on block continues the core itself (auto_restart). */
static int held_back(const sim_unit *u)
{
    return u->chain && u->done &&
           (!u->auto_restart || has(u, AXL_MMIO_SIM_RESTART_DONES));
}

/* A late unit's done, due again at the clock's time (lock held). */
static void due_again(sim_unit *u)
{
    u->late = 0;
    u->due = 1;
    u->due_at = clock_now();
    if (u->due_at < next_due)
        next_due = u->due_at;
}

/* The port's allocations (test builds tell the simulator, see
 * mmio_sim.h), so a model's bounds checks see the buffer, not the bank. */
#define SIM_ALLOCS (AXL_MMIO_BANKS * AXL_MMIO_BANK_ALLOCS)
static struct {
    uint64_t phys, size;
} allocs[SIM_ALLOCS];

static void sim_note_alloc(void *user, uint64_t phys, uint64_t size)
{
    (void)user;
    LOCK();
    for (uint32_t i = 0; i < SIM_ALLOCS; i++)
        if (!allocs[i].size) {
            allocs[i].phys = phys;
            allocs[i].size = size;
            break;
        }
    UNLOCK();
}

static void sim_note_free(void *user, uint64_t phys)
{
    (void)user;
    LOCK();
    for (uint32_t i = 0; i < SIM_ALLOCS; i++)
        if (allocs[i].size && allocs[i].phys == phys)
            allocs[i].size = 0;
    UNLOCK();
}

/* Translates a device address into the banks' memory; *room is what is
 * left of its allocation (of the bank when none is known). */
static inline __attribute__((always_inline)) void *bank_ptr(uint64_t addr,
                                                            uint64_t *room)
{
    for (uint32_t i = 0; i < SIM_ALLOCS; i++)
        if (allocs[i].size && addr >= allocs[i].phys &&
            addr - allocs[i].phys < allocs[i].size) {
            uint64_t end = allocs[i].phys + allocs[i].size;
            for (uint32_t b = 0; b < nbanks; b++) {
                const axl_mmio_bank_region *r = &banks[b];
                if (r->size && addr >= r->phys && addr - r->phys < r->size) {
                    *room = end - addr;
                    return (unsigned char *)r->host + (addr - r->phys);
                }
            }
        }
    for (uint32_t b = 0; b < nbanks; b++) {
        const axl_mmio_bank_region *r = &banks[b];
        if (r->size && addr >= r->phys && addr - r->phys < r->size) {
            *room = r->size - (addr - r->phys);
            return (unsigned char *)r->host + (addr - r->phys);
        }
    }
    *room = 0;
    return NULL;
}

#if SIM_THREADS
/* ---- Streams: the FIFOs between the units' models ------------------------- */

/* Waits (lock held) until the FIFO has room (full) or a beat, or the
 * unit's model is to end: a reset (its generation moved), a detach. A
 * free-running model's argument words are refreshed from its registers
 * here, at each op (its thread's own copy: the model reads it between
 * ops). */
static axl_status stream_wait(struct sim_end *e, int full)
{
    sim_unit *u = e->unit;
    for (;;) {
        if (u->quit || u->generation != u->run_gen) {
            u->waits = NULL;
            return axl_fail(AXL_EMU_STREAM_STOPPED,
                            "%s: its unit was reset", e->fifo->name);
        }
        if (u->live_argw)
            memcpy(u->live_argw, u->args, sizeof u->args);
        if (emu_fifo_ready(e->fifo, full)) {
            u->waits = NULL;
            return AXL_SUCCESS;
        }
        if (!u->waits) {
            /* It stops computing: whoever waits for the fabric to be
             * still looks again (once per wait, so that two waiting
             * models do not wake each other for ever). */
            u->waits = e;
            u->waits_full = (uint8_t)full;
            SIGNAL();
        }
        pthread_cond_wait(&sim_cond, &sim_lock);
    }
}

/* After a FIFO moved (lock held): a late unit whose model it lets go on
 * is due again now. */
static void let_go(void)
{
    for (uint32_t i = 0; i < AXL_MMIO_SIM_UNITS; i++) {
        sim_unit *u = &units[i];
        if (u->present && u->late && u->waits &&
            emu_fifo_ready(u->waits->fifo, u->waits_full))
            due_again(u);
    }
}

static axl_status end_read(void *ctx, void *beat, bool *last)
{
    struct sim_end *e = ctx;
    emu_fifo *f = e->fifo;
    LOCK();
    axl_status st = stream_wait(e, 0);
    if (st == AXL_SUCCESS) {
        emu_fifo_pop(f, beat, last);
        let_go();
        SIGNAL();
    }
    UNLOCK();
    return st;
}

static axl_status end_write(void *ctx, const void *beat, bool last)
{
    struct sim_end *e = ctx;
    emu_fifo *f = e->fifo;
    LOCK();
    axl_status st = stream_wait(e, 1);
    if (st == AXL_SUCCESS) {
        emu_fifo_push(f, beat, last);
        let_go();
        SIGNAL();
    }
    UNLOCK();
    return st;
}

static const axl_emu_stream_ops end_ops = {end_read, end_write};

#endif

/* The design's streams as FIFOs, and each unit's ends (lock held, at
 * attach): only with threads, which blocking models need. */
static void join_streams(const axl_xclbin *x)
{
    nfifos = 0;
#if SIM_THREADS
    uint64_t used = 0;
    const uint32_t n = axl_xclbin_stream_count(x);
    for (uint32_t i = 0; i < n && nfifos < SIM_STREAMS; i++) {
        axl_xclbin_stream st;
        if (axl_xclbin_get_stream(x, i, &st) != AXL_SUCCESS)
            continue;
        emu_fifo *f = &fifos[nfifos];
        const uint64_t need = emu_fifo_store_bytes(&st);
        if (used + need > sizeof stream_store)
            break; /* its units' models find no stream, and say so */
        emu_fifo_init(f, &st, stream_store + used);
        used += need;
        axl_format(f->name, sizeof f->name, "%.*s.%.*s->%.*s.%.*s",
                   (int)st.producer_unit.len, st.producer_unit.ptr,
                   (int)st.producer_port.len, st.producer_port.ptr,
                   (int)st.consumer_unit.len, st.consumer_unit.ptr,
                   (int)st.consumer_port.len, st.consumer_port.ptr);
        for (uint32_t e = 0; e < 2; e++) {
            const uint32_t ip = e ? f->cons_ip : f->prod_ip;
            sim_unit *u = ip < AXL_MMIO_SIM_UNITS && units[ip].present
                              ? &units[ip]
                              : NULL;
            if (!u || u->nends == SIM_UNIT_STREAMS)
                continue;
            const uint32_t k = u->nends++;
            u->end[k].fifo = f;
            u->end[k].unit = u;
            u->ends[k] = (axl_emu_stream){&end_ops, &u->end[k], f->bytes,
                                          e == 0, f->name};
        }
        nfifos++;
    }
#else
    (void)x;
#endif
}

/* Whether every model that has not returned waits on a stream that is
 * still empty (or full): then nothing moves until the port does something,
 * and the clock need not wait for them (lock held). */
static int fabric_waits(void)
{
#if SIM_THREADS
    for (uint32_t i = 0; i < AXL_MMIO_SIM_UNITS; i++) {
        const sim_unit *u = &units[i];
        if (!u->present || (u->state != SIM_PENDING &&
                            u->state != SIM_RUNNING && u->state != SIM_HELD))
            continue;
        if (u->state != SIM_RUNNING || !u->waits || u->quit ||
            u->generation != u->run_gen ||
            emu_fifo_ready(u->waits->fifo, u->waits_full))
            return 0;
    }
    return 1;
#else
    return 0;
#endif
}

/* Runs the model with the arguments the registers hold (the snapshot the
 * caller took) and its stream ends. No lock held. */
static axl_status run_model(const sim_unit *u, const uint32_t *argw,
                            char *why, size_t why_size)
{
    axl_emu_arg args[SIM_MAX_ARGS];
    uint32_t n = u->nargs;
    for (uint32_t a = 0; a < n; a++) {
        const uint32_t *w = &argw[(u->arg[a].offset - MMIO_ARGS) / 4];
        axl_emu_arg *e = &args[a];
        e->id = u->arg[a].id;
        e->stream = NULL;
        if (!u->arg[a].is_mem) {
            e->is_buffer = false;
            e->ptr = NULL;
            e->size = u->arg[a].size;
            e->value = w;
        } else {
            uint64_t addr =
                w[0] | (u->arg[a].size >= 8 ? (uint64_t)w[1] << 32 : 0);
            uint64_t room;
            e->is_buffer = true;
            LOCK();
            e->ptr = bank_ptr(addr, &room);
            UNLOCK();
            e->size = room; /* the allocation's rest (see mmio_sim.h) */
            e->value = NULL;
        }
    }
    for (uint32_t k = 0; k < u->nends && n < SIM_MAX_ARGS; k++) {
        const struct sim_end *e = &u->end[k];
        const int out = u->ends[k].out;
        args[n++] = (axl_emu_arg){out ? e->fifo->prod_arg : e->fifo->cons_arg,
                                  false, NULL, 0, NULL, &u->ends[k]};
    }
    axl_emu_model_fn fn;
    void *user;
    if (!axl__emu_model_find(u->kernel, strlen(u->kernel), &fn, &user)) {
        axl_format(why, why_size,
                   "the simulator has no C model for kernel %s "
                   "(axl_emu_register_model)",
                   u->kernel);
        return AXL_ERR_KERNEL_NOT_SUPPORTED;
    }
    axl_emu_call call = {u->kernel, u->cu, n, args};
    char *msg = axl_port_message_buffer();
    msg[0] = '\0';
    axl_status st = fn(&call, user);
    if (st != AXL_SUCCESS && st != AXL_EMU_HANG)
        axl_format(why, why_size, "%s",
                   msg[0] ? msg : "the kernel model failed");
    return st;
}

/* After the model: its result, kept for its done (lock held). */
static void computed(sim_unit *u, axl_status st, const char *why)
{
    if (st == AXL_EMU_HANG) {
        u->state = SIM_HUNG;
        not_due(u);
        return;
    }
    u->result = st;
    if (st != AXL_SUCCESS)
        axl_format(u->why, sizeof u->why, "%s", why);
    u->state = SIM_COMPUTED;
    if (u->late) /* its done rises at the next access or advance */
        due_again(u);
}

#if SIM_THREADS
static void *unit_thread(void *arg)
{
    sim_unit *u = arg;
    LOCK();
    for (;;) {
        while (!u->quit && u->state != SIM_PENDING)
            pthread_cond_wait(&sim_cond, &sim_lock);
        if (u->quit)
            break;
        u->state = SIM_RUNNING;
        uint32_t gen = u->generation;
        u->run_gen = gen;
        uint32_t argw[SIM_ARG_WORDS];
        memcpy(argw, u->free_running ? u->args : u->start_args,
               sizeof argw);
        u->live_argw = u->free_running ? argw : NULL;
        UNLOCK();
        char why[AXL_MESSAGE_MAX] = "";
        axl_status st = run_model(u, argw, why, sizeof why);
        LOCK();
        u->live_argw = NULL;
        if (u->free_running) {
            /* From the fabric's reset to detach: again, unless it failed
             * (its status kept for run_status). */
            if (st != AXL_SUCCESS && st != AXL_EMU_STREAM_STOPPED) {
                u->result = st;
                axl_format(u->why, sizeof u->why, "%s", why);
                u->state = SIM_IDLE;
            } else if (u->state == SIM_RUNNING) {
                u->state = SIM_PENDING;
            }
            SIGNAL();
            continue;
        }
        if (gen != u->generation || u->state != SIM_RUNNING)
            continue; /* reset meanwhile */
        computed(u, st, why);
        SIGNAL();
    }
    UNLOCK();
    return NULL;
}
#endif

/* Whether the unit's model has returned, so that its done can rise (lock
 * held). Without threads its model runs here, when its time has come. */
static int returned(sim_unit *u)
{
#if !SIM_THREADS
    if (u->state == SIM_PENDING) {
        u->state = SIM_RUNNING;
        char why[AXL_MESSAGE_MAX] = "";
        computed(u, run_model(u, u->start_args, why, sizeof why), why);
    }
#endif
    return u->state != SIM_HELD && u->state != SIM_PENDING &&
           u->state != SIM_RUNNING;
}

/* The clock to t (never back). A KEEPS_WRITING unit writes once for the
 * periods passed (its writes are all the same: counted per period). */
static void set_clock(uint64_t t)
{
    if (t <= clock_now())
        return;
    if (t >= next_write) { /* rare: a hung unit that keeps writing */
        next_write = UINT64_MAX;
        for (uint32_t i = 0; i < AXL_MMIO_SIM_UNITS; i++) {
            sim_unit *u = &units[i];
            if (!u->present || u->state != SIM_WRITING)
                continue;
            if (u->next_write <= t) {
                uint64_t n = (t - u->next_write) / SIM_WRITE_PERIOD_NS + 1;
                scribble_once(u);
                u->stats.writes += (uint32_t)(n - 1);
                u->next_write += n * SIM_WRITE_PERIOD_NS;
            }
            if (u->next_write < next_write)
                next_write = u->next_write;
        }
    }
    atomic_store_explicit(&sim_ns, t, memory_order_relaxed);
}

enum { STEP_REACHED, STEP_RAISED, STEP_WAITS };

/* One step of the clock towards t (lock held): to the earliest done due
 * by then, raised there if its unit's model has returned (STEP_RAISED,
 * *who; bit who of *rose when its line rose), or the clock stops there
 * (STEP_WAITS: a thread still computes it, or a spurious interrupt
 * holds it); with none due, to t (STEP_REACHED). */
static int step_to(uint64_t t, sim_unit **who, uint32_t *rose)
{
    if (next_due > t) {
        set_clock(t);
        return STEP_REACHED;
    }
    sim_unit *u = NULL;
    for (uint32_t i = 0; i < AXL_MMIO_SIM_UNITS && !u; i++)
        if (units[i].present && units[i].due && units[i].due_at == next_due)
            u = &units[i];
    *who = u;
    set_clock(u->due_at);
    if (!returned(u)) {
        if (u->state != SIM_RUNNING || !fabric_waits())
            return STEP_WAITS;
        /* Its model waits on a stream, as every other does: late. */
        not_due(u);
        u->late = 1;
        return STEP_RAISED;
    }
    not_due(u);
    /* A model that hung, a done that waits for polls or one that an
     * earlier done not yet continued holds back, rises no done now. */
    if (u->state == SIM_COMPUTED && may_finish(u) && !held_back(u) &&
        raise_done(u))
        *rose |= 1u << u->ip_index;
    return STEP_RAISED;
}

/* A register access: its time passes first, and what falls due meanwhile
 * happens (the clock stops at a done a thread still computes). The units
 * whose line rose. Lock held. */
static uint32_t tick(void)
{
    const uint64_t t = clock_now() + AXL_MMIO_SIM_ACCESS_NS;
    uint32_t rose = 0;
    sim_unit *who;
    if (next_due > t) { /* the common case: nothing due */
        set_clock(t);
        return 0;
    }
    while (step_to(t, &who, &rose) == STEP_RAISED)
        ;
    return rose;
}

#if SIM_THREADS
/* Waits for u's thread to return from its model (lock held), a while of
 * the host's time at most unless forever. Whether it returned, or every
 * model waits on a stream (the caller steps again: u is late). */
static int wait_for_model(sim_unit *u, int forever)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += SIM_WAIT_HOST_NS;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    while (!returned(u) && u->present && !fabric_waits()) {
        if (forever)
            pthread_cond_wait(&sim_cond, &sim_lock);
        else if (pthread_cond_timedwait(&sim_cond, &sim_lock, &until))
            break;
    }
    return returned(u) || fabric_waits();
}
#endif

/* What advance() answers at once (lock held): a unit's interrupt or done
 * that no read has seen. */
static int pending(uint32_t ip_index)
{
    int ev = AXL_MMIO_MODEL_DEADLINE;
    for (uint32_t i = 0; i < AXL_MMIO_SIM_UNITS; i++) {
        const sim_unit *u = &units[i];
        if (!u->present ||
            (ip_index != AXL_MMIO_MODEL_ANY_UNIT && i != ip_index))
            continue;
        if (u->irq_pending)
            return AXL_MMIO_MODEL_IRQ;
        if (u->done_pending)
            ev = AXL_MMIO_MODEL_DONE;
    }
    return ev;
}

/* Time for the units, up to until_ns: each done due by then rises at its
 * time, once its unit's model has returned. Returns at the first event of
 * the unit asked for (or any), at until_ns, or, with a thread still
 * computing a done due by then, after a while of the host's time with the
 * clock at that done (the port calls again). Without a deadline, it runs
 * to the next done due (none: returns at once). */
static int sim_advance(void *user, uint32_t ip_index, uint64_t until_ns)
{
    (void)user;
    LOCK();
    int ev;
    while ((ev = pending(ip_index)) == AXL_MMIO_MODEL_DEADLINE) {
        uint64_t t = until_ns;
        if (t == AXL_MMIO_MODEL_FOREVER && (t = next_due) == UINT64_MAX)
            break;
        sim_unit *who = NULL;
        uint32_t rose = 0;
        int step = step_to(t, &who, &rose);
        if (step == STEP_REACHED)
            break;
        if (step == STEP_RAISED) {
            deliver_unlocked(rose);
            continue;
        }
#if SIM_THREADS
        if (!wait_for_model(who, until_ns == AXL_MMIO_MODEL_FOREVER))
            break;
#else
        break; /* held by a spurious interrupt: its handler lets it go */
#endif
    }
    UNLOCK();
    return ev;
}

void axl_mmio_sim_settle(uint32_t ip_index)
{
    if (ip_index >= AXL_MMIO_SIM_UNITS)
        return;
    sim_unit *u = &units[ip_index];
    LOCK();
    const uint64_t at = u->due_at;
    while (u->present && u->due && u->due_at <= at) {
        sim_unit *who = NULL;
        uint32_t rose = 0;
        int step = step_to(at, &who, &rose);
        if (step == STEP_RAISED) {
            deliver_unlocked(rose);
            continue;
        }
#if SIM_THREADS
        if (step == STEP_WAITS && wait_for_model(who, 1))
            continue;
#endif
        break;
    }
    UNLOCK();
}

/* ---- Power ---------------------------------------------------------------- */

static void sim_detach(void *user);

/* IP_LAYOUT entry i of design as unit n of region `region`, if it is a
 * compute unit the simulator runs (lock held). */
static void add_unit(const axl_xclbin *design, uint32_t i, uint32_t n,
                     uint32_t region)
{
    axl_xclbin_ip ip;
    if (axl_xclbin_get_ip(design, i, &ip) != AXL_SUCCESS ||
        ip.type != AXL_XCLBIN_IP_KERNEL || ip.kernel.len >= AXL_EMU_NAME_MAX)
        return;
    sim_unit *u = &units[n];
    u->present = 1;
    u->ip_index = n;
    u->region = region;
    u->base = ip.base_address;
    u->chain = ip.control == AXL_XCLBIN_AP_CTRL_CHAIN;
    memcpy(u->kernel, ip.kernel.ptr, ip.kernel.len);
    u->kernel[ip.kernel.len] = '\0';
    for (uint32_t k = 0; k < design->kernel_count; k++) {
        axl_xclbin_kernel kk;
        if (axl_xclbin_get_kernel(design, k, &kk) != AXL_SUCCESS ||
            kk.name.len != ip.kernel.len ||
            memcmp(kk.name.ptr, ip.kernel.ptr, ip.kernel.len))
            continue;
        u->kernel_index = k;
        /* Sorted by id, as the emulated device passes them. */
        for (uint32_t a = 0; a < kk.arg_count && u->nargs < SIM_MAX_ARGS;
             a++) {
            axl_xclbin_arg x;
            if (axl_xclbin_get_kernel_arg(design, &kk, a, &x) !=
                    AXL_SUCCESS ||
                x.address_qualifier == AXL_XCLBIN_ARG_STREAM ||
                x.address_qualifier == AXL_XCLBIN_ARG_LOCAL ||
                x.offset < MMIO_ARGS || (x.offset & 3) ||
                x.offset + x.size > MMIO_ARGS + 4 * SIM_ARG_WORDS)
                continue;
            uint32_t j = u->nargs++;
            while (j > 0 && u->arg[j - 1].id > x.index) {
                u->arg[j] = u->arg[j - 1];
                j--;
            }
            u->arg[j].id = x.index;
            u->arg[j].offset = (uint32_t)x.offset;
            u->arg[j].size = (uint32_t)x.size;
            u->arg[j].is_mem =
                x.address_qualifier != AXL_XCLBIN_ARG_SCALAR;
        }
    }
    for (uint32_t j = 0; j < n; j++)
        if (units[j].present && units[j].region == region &&
            !strcmp(units[j].kernel, u->kernel))
            u->cu++;
    apply_config(u);
    /* ap_ctrl_none runs from the fabric's reset (with threads: its
     * model waits on its streams). */
    u->free_running = SIM_THREADS && ip.control == AXL_XCLBIN_AP_CTRL_NONE;
    u->state = u->free_running ? SIM_PENDING : SIM_IDLE;
    unit_ptr[n] = u;
}

#if SIM_THREADS
/* Unit n's thread; the unit is taken out again when none is made. */
static axl_status start_thread(uint32_t n)
{
    if (!units[n].present ||
        !pthread_create(&units[n].thread, NULL, unit_thread, &units[n]))
        return AXL_SUCCESS;
    units[n].present = 0;
    unit_ptr[n] = NULL;
    return axl_fail(AXL_ERR_RUNTIME, "mmio simulator: no thread for unit %u",
                    (unsigned)n);
}
#endif

/* The design as the port opened it (valid during the call: what the units
 * need of it is copied), and the banks the port carved. */
static axl_status sim_attach(void *user, const axl_xclbin *design,
                             const axl_mmio_bank_region *given,
                             uint32_t given_count,
                             void (*isr)(uint32_t ip_index))
{
    (void)user;
    if (attached)
        sim_detach(NULL);
    LOCK();
    memset(units, 0, sizeof units);
    memset(unit_ptr, 0, sizeof unit_ptr);
    atomic_store_explicit(&sim_ns, 0, memory_order_relaxed);
    next_due = next_write = UINT64_MAX;
    nbanks = given_count < AXL_MMIO_BANKS ? given_count : AXL_MMIO_BANKS;
    memcpy(banks, given, nbanks * sizeof *banks);
    attach_isr = isr;
    for (uint32_t i = 0; i < design->ip_count && i < AXL_MMIO_SIM_UNITS;
         i++)
        add_unit(design, i, i, 0);
    join_streams(design);
    attached = 1;
    UNLOCK();
#if SIM_THREADS
    for (uint32_t i = 0; i < AXL_MMIO_SIM_UNITS; i++) {
        axl_status st = start_thread(i);
        if (st != AXL_SUCCESS) {
            sim_detach(NULL);
            return st;
        }
    }
#endif
    return AXL_SUCCESS;
}

static void sim_detach(void *user)
{
    (void)user;
    if (!attached)
        return;
#if SIM_THREADS
    LOCK();
    for (uint32_t i = 0; i < AXL_MMIO_SIM_UNITS; i++)
        units[i].quit = 1;
    SIGNAL();
    UNLOCK();
    for (uint32_t i = 0; i < AXL_MMIO_SIM_UNITS; i++)
        if (units[i].present)
            pthread_join(units[i].thread, NULL);
#endif
    LOCK();
    memset(units, 0, sizeof units);
    memset(unit_ptr, 0, sizeof unit_ptr);
    next_due = UINT64_MAX;
    attached = 0;
    UNLOCK();
}

#if AXL_FEATURE_DESIGN_SWAP
/* A DFX slot (designs-design.md 3.7): the partial's units as unit numbers
 * first_unit + IP_LAYOUT index, beside the units attached already, whose
 * runs and the clock go on. Its streams are not joined (a partial's
 * streams are not built yet). */
static axl_status sim_attach_region(void *user, uint32_t region,
                                    const axl_xclbin *design,
                                    uint32_t first_unit)
{
    (void)user;
    if (!attached || region == 0 || first_unit > AXL_MMIO_SIM_UNITS ||
        design->ip_count > AXL_MMIO_SIM_UNITS - first_unit)
        return axl_fail(AXL_ERR_OUT_OF_RESOURCES,
                        "mmio simulator: slot region %u's %u units from "
                        "unit %u do not fit its %u units "
                        "(AXL_MMIO_SIM_UNITS)%s",
                        (unsigned)region, (unsigned)design->ip_count,
                        (unsigned)first_unit, (unsigned)AXL_MMIO_SIM_UNITS,
                        attached ? "" : ", or nothing is attached");
    LOCK();
    for (uint32_t i = 0; i < design->ip_count; i++)
        if (unit_ptr[first_unit + i])
            goto taken;
    for (uint32_t i = 0; i < design->ip_count; i++) {
        add_unit(design, i, first_unit + i, region);
        sim_unit *u = &units[first_unit + i];
        u->irq_dead = u->fault == AXL_MMIO_SIM_IRQ_LOST_AFTER_LOAD;
    }
    UNLOCK();
#if SIM_THREADS
    for (uint32_t i = 0; i < design->ip_count; i++) {
        axl_status st = start_thread(first_unit + i);
        if (st != AXL_SUCCESS)
            return st;
    }
#endif
    return AXL_SUCCESS;
taken:
    UNLOCK();
    return axl_fail(AXL_ERR_BAD_STATE,
                    "mmio simulator: slot region %u's units from unit %u "
                    "are taken by units attached already",
                    (unsigned)region, (unsigned)first_unit);
}

/* The slot's units powered down: their threads joined, their register
 * files gone (a later attach_region starts them afresh). */
static void sim_detach_region(void *user, uint32_t region)
{
    (void)user;
    if (!attached || region == 0)
        return;
#if SIM_THREADS
    LOCK();
    for (uint32_t i = 0; i < AXL_MMIO_SIM_UNITS; i++)
        if (units[i].present && units[i].region == region)
            units[i].quit = 1;
    SIGNAL();
    UNLOCK();
    for (uint32_t i = 0; i < AXL_MMIO_SIM_UNITS; i++)
        if (units[i].present && units[i].region == region)
            pthread_join(units[i].thread, NULL);
#endif
    LOCK();
    for (uint32_t i = 0; i < AXL_MMIO_SIM_UNITS; i++)
        if (units[i].present && units[i].region == region) {
            memset(&units[i], 0, sizeof units[i]);
            unit_ptr[i] = NULL;
        }
    find_next_due();
    UNLOCK();
}
#endif

/* The board's reset line: the whole unit back to power-on state. */
static axl_status sim_reset(void *user, uint32_t ip_index)
{
    (void)user;
    sim_unit *u = unit_at(ip_index);
    if (!u)
        return AXL_ERR_INVALID;
    LOCK();
    uint32_t others = tick();
    u->generation++;
    u->state = u->free_running ? SIM_PENDING : SIM_IDLE;
    u->start = u->done = u->ready = u->auto_restart = 0;
    u->gie = u->ier = u->isr = 0;
    u->irq_line = 0;
    u->done_pending = u->irq_pending = 0;
    u->late = 0;
    not_due(u);
    SIGNAL();
    UNLOCK();
    deliver_all(others);
    return AXL_SUCCESS;
}

/* ---- The board the simulator stands for ----------------------------------- */

/* Regions in static storage for the used banks of a design. Banks at
 * one base are one memory (every ZynqMP PS port reaches the same DDR):
 * they get the same storage, as the port sees them (mmio_banks.h). */
static uint32_t fill_regions(const axl_xclbin *x)
{
    uint32_t nb = 0, stored = 0;
    memset(regions, 0, sizeof regions);
    for (uint32_t m = 0; m < x->mem_count && nb < AXL_MMIO_BANKS; m++) {
        axl_xclbin_mem mem;
        if (axl_xclbin_get_mem(x, m, &mem) != AXL_SUCCESS || !mem.used)
            continue;
        void *host = NULL;
        for (uint32_t k = 0; k < nb && !host; k++)
            if (regions[k].phys == mem.base_address)
                host = regions[k].host;
        if (!host && stored == AXL_MMIO_SIM_BANKS)
            break;
        if (!host)
            host = bank_storage[stored++];
        regions[nb++] = (axl_mmio_bank_region){
            m, mem.base_address, AXL_MMIO_SIM_BANK_SIZE, host};
    }
    return nb;
}

/* The board keeps its design while it is held (axl_mmio_sim_set_swaps). */
static bool fixed_design;

/* The board's program hook: the model boards' (any design), unless a
 * test asked the next loads to fail (axl_mmio_sim_fail_loads). */
static axl_status sim_program(void *user, const axl_xclbin *image)
{
    if (atomic_load(&loads_fail))
        return axl_fail(AXL_ERR_RUNTIME,
                        "the simulated board refused the design "
                        "(axl_mmio_sim_fail_loads)");
    return axl_mmio_model_program(user, image);
}

#if AXL_FEATURE_DESIGN_SWAP
/* The board's shell (axl_mmio_sim_set_shell), or NULL. */
static const axl_shell *_Atomic sim_shell;

/* The board's program_slot: the model boards' (any partial), unless a
 * test asked the next loads to fail; a real-time pause of the shell's
 * load_ns where the simulator has threads (designs-design.md 3.6). */
static axl_status sim_program_slot(void *user, uint32_t slot,
                                   const axl_xclbin *image)
{
    if (atomic_load(&loads_fail))
        return axl_fail(AXL_ERR_RUNTIME,
                        "the simulated board refused the partial for slot %u "
                        "(axl_mmio_sim_fail_loads)",
                        (unsigned)slot);
#if SIM_THREADS
    const axl_shell *sh = atomic_load(&sim_shell);
    if (sh && sh->load_ns) {
        struct timespec t = {(time_t)(sh->load_ns / 1000000000u),
                             (long)(sh->load_ns % 1000000000u)};
        nanosleep(&t, NULL);
    }
#endif
    return axl_mmio_model_program_slot(user, slot, image);
}

/* The board's after_load: slot `slot`'s interrupt lines re-armed, those
 * the load left dead (AXL_MMIO_SIM_IRQ_LOST_AFTER_LOAD) reach the port
 * again. */
static axl_status sim_after_load(void *user, uint32_t slot)
{
    (void)user;
    LOCK();
    for (uint32_t i = 0; i < AXL_MMIO_SIM_UNITS; i++)
        if (units[i].present && units[i].region == slot + 1u)
            units[i].irq_dead = 0;
    UNLOCK();
    return AXL_SUCCESS;
}

axl_status axl_mmio_sim_set_shell(const axl_shell *shell)
{
    static const char fn[] = "axl_mmio_sim_set_shell";
    if (shell) {
        axl_status st = axl_shell_check(fn, shell);
        if (st != AXL_SUCCESS)
            return st;
        for (uint32_t k = 0; k < shell->slot_count; k++) {
            const axl_slot *s = &shell->slots[k];
            if (s->first_unit >= AXL_MMIO_SIM_UNITS)
                return axl_fail(AXL_ERR_INVALID,
                                "%s: shell %s: slot %s's units start at %u, "
                                "past the simulator's %u "
                                "(AXL_MMIO_SIM_UNITS)",
                                fn, shell->name, s->name,
                                (unsigned)s->first_unit,
                                (unsigned)AXL_MMIO_SIM_UNITS);
            if (s->irq_first > AXL_MMIO_IRQ_LINES ||
                s->irq_count > AXL_MMIO_IRQ_LINES - s->irq_first)
                return axl_fail(AXL_ERR_INVALID,
                                "%s: shell %s: slot %s's interrupt lines "
                                "%u+%u pass the port's %u "
                                "(AXL_MMIO_IRQ_LINES)",
                                fn, shell->name, s->name,
                                (unsigned)s->irq_first,
                                (unsigned)s->irq_count,
                                (unsigned)AXL_MMIO_IRQ_LINES);
        }
    }
    atomic_store(&sim_shell, shell);
    return AXL_SUCCESS;
}
#else
/* Shells come with design swaps (issue 40): switched off here. */
axl_status axl_mmio_sim_set_shell(const axl_shell *shell)
{
    (void)shell;
    return axl_fail(AXL_ERR_FEATURE_NOT_SUPPORTED,
                    "axl_mmio_sim_set_shell: switched off in this build "
                    "(AXL_FEATURE_DESIGN_SWAP 0)");
}
#endif

void axl_mmio_sim_fail_loads(bool on)
{
    atomic_store(&loads_fail, on);
}

void axl_mmio_sim_set_swaps(bool on)
{
    fixed_design = !on;
}

const axl_mmio_board *axl_mmio_sim_board(void)
{
    const void *bytes;
    size_t size;
    axl__emu_builtin_image(&bytes, &size);
    const axl_xclbin_design *digest = axl__emu_builtin_design();
    axl_xclbin x;
    uint32_t nb = 0;
    /* A design the reader rejects has no regions here; the port, opening
     * it again, says why. */
    if (digest ? axl_xclbin_open_design(&x, digest, NULL, 0) == AXL_SUCCESS
               : bytes && axl_xclbin_open(&x, bytes, size, NULL, 0) ==
                              AXL_SUCCESS)
        nb = fill_regions(&x);
    uint32_t nw = 0;
    for (uint32_t i = 0; i < AXL_MMIO_SIM_UNITS; i++) {
        uint32_t v = config[i].set ? config[i].variant : default_variant();
        wiring[nw++] = (axl_mmio_unit_wiring){
            i, 0, (v & AXL_MMIO_SIM_IRQ_WIRED) != 0,
            (v & AXL_MMIO_SIM_NO_SW_RESET) == 0};
    }
    board = (axl_mmio_board){
        .design = bytes,
        .design_size = size,
        .predigested = digest,
        .banks = regions,
        .bank_count = nb,
        .units = wiring,
        .unit_count = nw,
        .reset_unit = axl_mmio_model_reset_unit,
        .program = sim_program,
        .coherent = 0,
        .user = NULL,
        .model = &axl_mmio_sim_model,
        .fixed_design = fixed_design,
#if AXL_FEATURE_DESIGN_SWAP
        .shell = atomic_load(&sim_shell),
        .program_slot = sim_program_slot,
        .after_load = sim_after_load,
#endif
    };
    return &board;
}

/* ---- Powered by a test, without the port ------------------------------------- */

static axl_xclbin test_design;

axl_status axl_mmio_sim_attach(const void *bytes, size_t size)
{
    char why[96];
    axl_status st = axl_xclbin_open(&test_design, bytes, size, why, sizeof why);
    if (st != AXL_SUCCESS)
        return axl_fail(st, "mmio simulator: %s", why);
    return sim_attach(NULL, &test_design, regions, fill_regions(&test_design),
                      NULL);
}

axl_status axl_mmio_sim_attach_design(const axl_xclbin_design *digest)
{
    char why[96];
    axl_status st =
        axl_xclbin_open_design(&test_design, digest, why, sizeof why);
    if (st != AXL_SUCCESS)
        return axl_fail(st, "mmio simulator: %s", why);
    return sim_attach(NULL, &test_design, regions, fill_regions(&test_design),
                      NULL);
}

void axl_mmio_sim_detach(void)
{
    sim_detach(NULL);
}

void axl_mmio_sim_stats_get(uint32_t ip_index, axl_mmio_sim_stats *out)
{
    memset(out, 0, sizeof *out);
    if (ip_index >= AXL_MMIO_SIM_UNITS)
        return;
    LOCK();
    *out = units[ip_index].stats;
    out->base = units[ip_index].present ? units[ip_index].base : 0;
    UNLOCK();
}

/* ---- The seam ----------------------------------------------------------------- */

static sim_unit *unit_at(uint32_t ip_index)
{
    return ip_index < AXL_MMIO_SIM_UNITS ? unit_ptr[ip_index] : NULL;
}

/* A read of the control word; sets *rose when the interrupt line rose. */
static uint32_t read_ctrl(sim_unit *u, int *rose)
{
    if (u->state != SIM_IDLE)
        u->polls++;
    /* A done that waited for polls or for ap_continue, its time come. */
    if (u->state == SIM_COMPUTED && !u->due && may_finish(u) &&
        !held_back(u))
        *rose |= raise_done(u);
    int busy = u->state != SIM_IDLE;
    uint32_t v = 0;
    if (u->start && !has(u, AXL_MMIO_SIM_START_PULSE))
        v |= MMIO_AP_START;
    if (u->done)
        v |= MMIO_AP_DONE;
    if (!busy)
        v |= MMIO_AP_IDLE;
    if (u->ready)
        v |= MMIO_AP_READY;
    if (u->auto_restart)
        v |= MMIO_AUTO_RESTART;
    if (u->gie && (u->isr & 3u))
        v |= MMIO_INTERRUPT;
    /* Clear on read: ap_done in ap_ctrl_hs, ap_ready where the core was
     * built so (2022.1 on). */
    if (!u->chain)
        u->done = 0;
    if (has(u, AXL_MMIO_SIM_READY_COR))
        u->ready = 0;
    return v;
}

static uint32_t sim_rd32(void *user, uint32_t ip_index, uint32_t off)
{
    (void)user;
    sim_unit *u = unit_at(ip_index);
    if (!u)
        return MMIO_ALL_ONES; /* nothing decodes the address */
    LOCK();
    uint32_t others = tick();
    uint32_t v = 0;
    int rose = 0;
    if (u->fault == AXL_MMIO_SIM_ALL_ONES) {
        UNLOCK();
        deliver_all(others);
        return MMIO_ALL_ONES;
    }
    switch (off) {
    case MMIO_CTRL:
        v = read_ctrl(u, &rose);
        u->done_pending = 0; /* the port has looked */
        break;
    case MMIO_GIE:
        v = u->gie;
        break;
    case MMIO_IER:
        v = u->ier;
        break;
    case MMIO_ISR:
        v = u->isr;
        u->irq_pending = 0;
        if (v & MMIO_IRQ_DONE)
            u->done_pending = 0; /* an ISR that says done told the port */
        if (u->state == SIM_HELD) {
            u->state = SIM_PENDING; /* the handler saw the spurious line */
            SIGNAL();
        }
        if (has(u, AXL_MMIO_SIM_ISR_COR)) {
            u->isr = 0;
            chain_isr(u);
            update_line(u);
        }
        break;
    default:
        if (off >= MMIO_ARGS && off < MMIO_ARGS + 4 * SIM_ARG_WORDS &&
            !(off & 3))
            v = u->args[(off - MMIO_ARGS) / 4];
        break; /* unknown offsets read 0 */
    }
    UNLOCK();
    deliver_all(others | (rose ? 1u << u->ip_index : 0u));
    return v;
}

static int write_ctrl(sim_unit *u, uint32_t v)
{
    int rose = 0;
    if ((v & MMIO_AP_SW_RESET) && !has(u, AXL_MMIO_SIM_NO_SW_RESET)) {
        u->generation++;
        u->state = u->free_running ? SIM_PENDING : SIM_IDLE;
        u->start = u->done = u->ready = 0;
        u->isr = 0;
        u->auto_restart = 0;
        u->done_pending = u->irq_pending = 0;
        u->late = 0;
        not_due(u);
        return 0;
    }
    u->auto_restart = (v & MMIO_AUTO_RESTART) != 0;
    if ((v & MMIO_AP_CONTINUE) && u->chain) {
        u->done = 0;
        /* The next iteration's done, held back by this one's: its time
         * has come (or it is still due, and rises then). */
        if (u->state == SIM_COMPUTED && !u->due && may_finish(u))
            rose = raise_done(u);
    }
    if (v & MMIO_AP_START) {
        if (u->state == SIM_IDLE) {
            u->start = 1;
            u->ready = 0;
            begin(u);
            u->start = !has(u, AXL_MMIO_SIM_START_PULSE);
        } else if (!has(u, AXL_MMIO_SIM_START_PULSE)) {
            u->start = 1; /* held; taken when the core is ready */
        }
    }
    return rose;
}

static void sim_wr32(void *user, uint32_t ip_index, uint32_t off,
                     uint32_t value)
{
    (void)user;
    sim_unit *u = unit_at(ip_index);
    if (!u)
        return;
    LOCK();
    uint32_t others = tick();
    int rose = 0;
    if (u->fault == AXL_MMIO_SIM_ALL_ONES || off >= MMIO_ARGS) {
        /* The common case first: an argument register. */
        if (u->fault != AXL_MMIO_SIM_ALL_ONES &&
            off < MMIO_ARGS + 4 * SIM_ARG_WORDS && !(off & 3))
            u->args[(off - MMIO_ARGS) / 4] = value;
        UNLOCK(); /* writes elsewhere are ignored */
        deliver_all(others);
        return;
    }
    switch (off) {
    case MMIO_CTRL:
        rose = write_ctrl(u, value);
        chain_isr(u);
        if ((value & MMIO_AP_START) && u->state == SIM_PENDING &&
            u->fault == AXL_MMIO_SIM_IRQ_WITHOUT_DONE) {
            /* The line, with no status bit behind it; the core goes on
             * once the handler has seen it: read the ISR (sim_rd32). */
            u->stats.irqs++;
            if (has(u, AXL_MMIO_SIM_IRQ_WIRED)) {
                u->state = SIM_HELD;
                u->irq_pending = 1;
                rose = 1;
            }
        } else {
            rose = update_line(u) || rose;
        }
        SIGNAL();
        break;
    case MMIO_GIE:
        u->gie = value & 1u;
        rose = update_line(u);
        if (!u->gie)
            u->irq_pending = 0; /* its line went down */
        break;
    case MMIO_IER:
        u->ier = value & ier_mask(u);
        break;
    case MMIO_ISR:
        if (!has(u, AXL_MMIO_SIM_ISR_COR)) {
            /* Toggle on write: a 1 on a clear bit sets it (a spurious
             * interrupt). */
            u->isr ^= value & ier_mask(u);
            chain_isr(u);
            rose = update_line(u);
        }
        break;
    default:
        break; /* writes elsewhere are ignored */
    }
    UNLOCK();
    deliver_all(others | (rose ? 1u << u->ip_index : 0u));
}

static axl_status sim_run_status(void *user, uint32_t ip_index, char *why,
                                 size_t size)
{
    (void)user;
    sim_unit *u = unit_at(ip_index);
    if (!u)
        return AXL_SUCCESS;
    LOCK();
    axl_status st = u->result;
    if (st != AXL_SUCCESS)
        axl_format(why, size, "%s", u->why);
    UNLOCK();
    return st;
}

static uint64_t sim_now_ns(void *user)
{
    (void)user;
    return clock_now();
}

static int sim_irq_line(void *user, uint32_t ip_index)
{
    (void)user;
    sim_unit *u = unit_at(ip_index);
    if (!u)
        return 0;
    LOCK();
    int line = u->irq_line;
    UNLOCK();
    return line;
}

const axl_mmio_model axl_mmio_sim_model = {
    .name = "C-model simulator",
    .kernel_fix = "register a C model with axl_emu_register_model()",
    .user = NULL,
    .attach = sim_attach,
    .detach = sim_detach,
    .rd32 = sim_rd32,
    .wr32 = sim_wr32,
    .advance = sim_advance,
    .now_ns = sim_now_ns,
    .irq_line = sim_irq_line,
    .reset = sim_reset,
    .can_run = sim_can_run,
    .run_status = sim_run_status,
    .note_alloc = sim_note_alloc,
    .note_free = sim_note_free,
#if AXL_FEATURE_DESIGN_SWAP
    .attach_region = sim_attach_region,
    .detach_region = sim_detach_region,
#endif
};
