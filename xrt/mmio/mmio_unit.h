/*
 * mmio_unit.h - the mmio port's units: what a run does to an HLS IP's
 * control registers, and how its end is seen (xrt/mmio/unit.c). Two
 * clients share it: the device port the core drives (mmio.c, a run is an
 * axl_hal_run) and the plan executor (fw_exec.c, a run is a plan's node's). A
 * unit holds one run at a time, an opaque pointer of its client's; the
 * client's `ended` is told, once, how it ended.
 *
 * The replay and completion path is marked AXL_HOT: its own input
 * section, which a firmware's linker script may put in the R5's ATCM
 * (kit/sections.ld does).
 */
#ifndef AXL_MMIO_UNIT_H
#define AXL_MMIO_UNIT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "axl/hal.h"
#include "axl/mmio.h"
#include "mmio_config.h"
#include "mmio_io.h"
#include "mmio_regs.h"

#if defined(AXL_MMIO_MODEL) && AXL_MMIO_MODEL
#define MMIO_MODEL 1
#include "axl/mmio_model.h"
#else
#define MMIO_MODEL 0
#endif

/* Register access to any IP (axl/ip.h), unless the board switches it off
 * (AXL_FEATURE_IP_ACCESS 0 in its axl_board.h). */
#if !defined(AXL_FEATURE_IP_ACCESS) || AXL_FEATURE_IP_ACCESS
#define MMIO_IP 1
#else
#define MMIO_IP 0
#endif

/* Streaming pipelines (axl/pipeline.h, pipe.c), unless the board
 * switches them off (AXL_FEATURE_STREAMS 0 in its axl_board.h). */
#if !defined(AXL_FEATURE_STREAMS) || AXL_FEATURE_STREAMS
#define MMIO_STREAMS 1
#else
#define MMIO_STREAMS 0
#endif

/* The hot path's section (see above): AXL_HOT, the executor's
 * (core/exec.h, which the plan firmware's executor runs on). */
#include "exec.h"

/* A static function only messages use: with AXL_MESSAGES 0 it is named
 * only inside a sizeof, which clang reports as not needed. */
#if defined(__GNUC__)
#define MMIO_MESSAGE_ONLY __attribute__((unused))
#else
#define MMIO_MESSAGE_ONLY
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

typedef struct mmio_unit mmio_unit;

/* How a unit's run ended, told once to the client that started it: from
 * the poll of a waiter, from the interrupt entry (interrupt context), or
 * from a reset. `run` is the client's pointer. In a model build a run the
 * IP ended well already carries the model's word on it (unit.c, tell). */
typedef void (*mmio_ended_fn)(mmio_unit *u, const void *run, axl_status st,
                              const char *why);

struct mmio_unit {
    /* First, apart: what waiters, the hung units' look and a model's
     * advance read of any unit without the port's lock, so that a slot's
     * load can zero the rest of a unit it no longer drives with one
     * memset and store these as they are read (axl__mmio_unit_forget). */
    const void *_Atomic run; /* the run in flight, or NULL */
    /* A run given up (run_cancel) that the unit did not stop: out of use
     * until a reset or the run's late end gives the run back. Apart from
     * `run`, so that a poll or the interrupt entry, which claim `run`,
     * pay nothing for it. */
    const void *_Atomic hung_run;
#if MMIO_STREAMS
    uint8_t restart; /* on auto-restart (mbox_pending's comment below) */
    /* The open pipeline the unit is in (pipe.c), or NULL; read without
     * the lock (__atomic builtins) for the model's work_to_come. */
    axl_hal_pipeline *pipe;
#endif
    /* The rest (from regs on) is read by the port's holder and, while
     * a run is out, by who claims it. */
    uintptr_t regs;      /* the CPU's address of its control space */
    uint64_t phys;
    uint8_t known;       /* a compute unit a client drives */
    uint8_t chain;
    uint8_t irq;
    uint8_t sw_reset;
    _Atomic uint32_t reset_ctrl; /* the control word an ap_sw_reset at
                            the timeout left (it did not read idle), or 0 */
    mmio_ended_fn ended; /* its client's */
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
     * it claims (axl__mmio_progress's comment says why). */
    _Atomic uint8_t mode;      /* read by every waiter, set by one */
    _Atomic uint8_t fell_back; /* its interrupt did not arrive: polled
                                  since */
    uint8_t reported;    /* the port said so (once per unit) */
    uint8_t gie_on;      /* poll then sleep: the interrupt is on */
    uint8_t done_seen;   /* interrupt: a look saw ap_done at done_at */
    uint8_t idle_seen;   /* the waiter's poll ended its last run on a
                            control word with ap_done and ap_idle: the
                            next start need not read it again */
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
#if AXL_FEATURE_DESIGN_SWAP
    /* A slot load wired the unit (mmio.c, with no run out): the first run
     * the looker then sees, start number verify_start, is watched at
     * AXL_MMIO_IRQ_VERIFY_NS instead of the grace (unit.c, grace_of). The
     * looker's, as the fields above, once a run is out. */
    uint8_t verify_next;
    uint32_t verify_start;
#endif
#if MMIO_STREAMS
    /* A unit of a pipeline on auto-restart (pipe.c): each end of an
     * iteration the status register shows (unit.c, "Auto-restart units")
     * is acknowledged, with ap_continue and auto_restart kept, by whoever
     * claims the unit, a waiter's poll (axl__mmio_service) or the
     * interrupt entry, and counted in *iterations (the core's, with
     * __atomic builtins). restart (first in the unit) is read by both and
     * the stop, with __atomic builtins. */
    uint8_t mbox_pending; /* a scalar written since the done counted in
                             mbox_at: the iteration after it takes it */
    uint32_t mbox_at;
    uint32_t *iterations;
#endif
#if MMIO_IP
    uint8_t ip_opens;    /* axl_ip handles open on it (axl/ip.h) */
    uint32_t irqs_seen;  /* irqs when the last ip_wait returned */
    _Atomic uint32_t irqs; /* interrupts the entry acknowledged */
#endif
    char name[40];       /* IP_LAYOUT's m_name, for messages */
};

/* Unit u zeroed, the fields others read without the port's lock stored
 * atomically (unit.c). */
void axl__mmio_unit_forget(mmio_unit *u);

/* Words of a set of units (mmio_fabric's hints). */
#define MMIO_UNIT_WORDS ((AXL_MMIO_UNITS + 31u) / 32u)

/* Who has the units: the device port (the core's) or the plan executor.
 * One at a time: each refuses to open what the other holds. */
enum { MMIO_OWNER_NONE = 0, MMIO_OWNER_DEVICE = 1, MMIO_OWNER_PLANS = 2 };

/* The fabric: the board, its units, and (a model build) the model. */
typedef struct mmio_fabric {
    int open;            /* an MMIO_OWNER_ */
    const axl_mmio_board *board;
    uint64_t (*now)(void);              /* the owner's clock */
    /* The owner's log of a unit whose interrupt went missing (GIE and
     * IER as read), or NULL: the owner words it (a plan firmware,
     * which counts it in axl_mmio_counters.irq_missing, links no text). */
    void (*warn)(const mmio_unit *u, uint32_t gie, uint32_t ier);
    mmio_unit units[AXL_MMIO_UNITS];
    /* Hints for a waiter's poll, so that it visits the units with work
     * and not every unit (bit i: units[i]; __atomic builtins). busy: a
     * start set it after publishing `run`; restarting: an auto-restart
     * start set it after `restart`. A poll that finds the field clear
     * clears the bit and reads the field again (a start between the two
     * reads sets the bit after the clear, or is seen by the second read),
     * so a bit may stand for nothing but never lacks for a unit with
     * work. The fields are the truth. */
    uint32_t busy[MMIO_UNIT_WORDS];
#if MMIO_STREAMS
    uint32_t restarting[MMIO_UNIT_WORDS];
#endif
#if MMIO_MODEL
    const axl_mmio_model *model; /* the board's, while open */
    int attached;
#endif
} mmio_fabric;

extern mmio_fabric axl__mmio;
extern axl_mmio_counters axl__mmio_counters;

/* The board the application set (axl_mmio_set_board), or in a model
 * build the library's default. */
const axl_mmio_board *axl__mmio_the_board(void);

/* Counted from the poll, the interrupt entry and a model's threads. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void axl__mmio_count(uint32_t *c)
{
    __atomic_fetch_add(c, 1u, __ATOMIC_RELAXED);
}

/* ---- Caches ---------------------------------------------------------------- */

static inline void axl__mmio_clean(const void *p, uint64_t size)
{
    if (!axl__mmio.board->coherent && size)
        axl_port_cache_flush(p, (size_t)size);
}

static inline void axl__mmio_invalidate(void *p, uint64_t size)
{
    if (!axl__mmio.board->coherent && size)
        axl_port_cache_invalidate(p, (size_t)size);
}

/* ---- Units ----------------------------------------------------------------- */

/* The registers may have lost what the port wrote (a reset, a reload):
 * the next run writes every argument. */
static inline void axl__mmio_forget_held(mmio_unit *u)
{
    u->held_mask = 0;
    u->held_id = 0;
}

/* IP_LAYOUT entry ip_index (at phys, name for messages) with the board's
 * wiring (base, interrupt, ap_sw_reset) and its control space's address
 * (any IP, axl/ip.h, as a compute unit). */
axl_status axl__mmio_map_unit(uint32_t ip_index, uint64_t phys,
                              const char *name, size_t name_len);

/* The same for a compute unit, with its protocol and completion mode;
 * nothing else of it changes. */
axl_status axl__mmio_wire_unit(uint32_t ip_index, uint64_t phys, int chain,
                               const char *name, size_t name_len);

/* The mode a unit completes in when nothing has set one. */
uint8_t axl__mmio_board_mode(const mmio_unit *u);

/* Sets the unit's interrupt registers for its mode. */
void axl__mmio_arm(mmio_unit *u);

/* Before a start: the unit answers and is idle (a read that also consumes
 * an ap_done a run the interrupt ended left). A failure says why. */
axl_status axl__mmio_ready(mmio_unit *u);

/* Writes argument register m's words where they differ from what it
 * holds (words: 1 or 2), and holds them. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void axl__mmio_put(mmio_unit *u, uint32_t m,
                                 const uint32_t word[2], uint32_t words)
{
    mmio_arg *r = &u->args[m];
    const uint32_t bit = 1u << m;
    const int held = (u->held_mask & bit) != 0;
    for (uint32_t w = 0; w < words; w++)
        if (!held || r->held[w] != word[w]) {
            mmio_wr32(u->regs, r->offset + w * 4u, word[w]);
            r->held[w] = word[w];
        }
    u->held_mask |= bit;
}

/* Writes v, a buffer's address or a scalar of up to 8 bytes, into
 * argument register m: its low word, and its high word when the register
 * has two (little-endian, as every target and the registers). What both
 * clients (mmio.c, fw_exec.c) write for an argument; inline, so the
 * plan executor's start stays in the hot section with no call. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void axl__mmio_put_value(mmio_unit *u, uint32_t m, uint64_t v)
{
    const uint32_t word[2] = {(uint32_t)v, (uint32_t)(v >> 32)};
    axl__mmio_put(u, m, word, u->args[m].size >= 8 ? 2u : 1u);
}

/* Writes a scalar wider than 8 bytes whole (never held). */
void axl__mmio_put_wide(mmio_unit *u, uint32_t m, const void *value,
                        uint64_t n);

/* Starts the unit on `run` (its arguments written): the completion
 * mode's set-up, then ap_start. */
void axl__mmio_go(mmio_unit *u, const void *run);

/* Ends the unit's run if this caller is the first to see its end. */
void axl__mmio_finish(mmio_unit *u, axl_status st, const char *why);

/* Looks at every running unit and gives a model time, until one run
 * ended or deadline_ns passed (the device's clock). */
void axl__mmio_progress(uint64_t deadline_ns);

/* The device's clock: a model's when it has one, else the owner's. */
uint64_t axl__mmio_now(void);

/* After a reset: back when the unit reads idle. */
int axl__mmio_back_idle(mmio_unit *u, uint32_t *ctrl);

/* The unit's argument registers from kernel kernel_index's XML (mmio.c). */
axl_status axl__mmio_layout(mmio_unit *u, const axl_xclbin *image,
                            uint32_t kernel_index);
/* ap_sw_reset, else the board's hook (mmio.c): AXL_ERR_FEATURE_NOT_
 * SUPPORTED with neither, else why says what each attempt did. */
axl_status axl__mmio_reset(uint32_t ip_index, char *why, size_t why_size);

#if MMIO_STREAMS
/* 1 when a pipeline open on the units has work the host has not given
 * the port yet (hal.h, axl_hal_pipeline.queued); read without the lock. */
int axl__mmio_work_to_come(void);
/* Auto-restart units (unit.c, "Auto-restart units", says what the count
 * means). A polled one's look: an iteration ended is acknowledged
 * (ap_continue, auto_restart kept) and counted; 1 when one ended. */
int axl__mmio_service(mmio_unit *u);
/* Before ap_start | auto_restart: IER's done bit on, a stale status
 * cleared, GIE on in interrupt mode (the entry counts) else off. */
void axl__mmio_restart_arm(mmio_unit *u);
/* The stop's first step: the unit's status register is the caller's (the
 * entry out, GIE off), restart clear, and no look under way writes
 * auto_restart back. */
void axl__mmio_restart_claim(mmio_unit *u);
/* A look at the status register by its claimer: an iteration ended is
 * acknowledged (ap_continue | keep, keep being auto_restart or 0) and
 * counted; 1 when one ended. */
int axl__mmio_restart_look(mmio_unit *u, uint32_t keep);
/* The stop's last step, the unit idle: the last iteration counted, the
 * final done (chain) continued, the count let go of, the interrupt
 * registers as the unit's mode has them for commands. */
void axl__mmio_restart_end(mmio_unit *u);
/* The start, its scalars written: counted in *iterations (or NULL),
 * armed, and ap_start | auto_restart (0x81). The device port's start
 * and a plan's (fw_pipe.c) both. */
void axl__mmio_restart_go(mmio_unit *u, uint32_t *iterations);
/* One look of the stop's wait, auto_restart cleared: the iterations that
 * ended counted, a done continued; 1 when the unit is idle (*ctrl the
 * control word read). */
int axl__mmio_restart_idle(mmio_unit *u, uint32_t *ctrl);
/* Time for the fabric while a pipeline call waits (no lock held): the
 * runs and auto-restart units looked at, a model given a slice (its
 * clock moves only so). */
void axl__mmio_give_time(uint64_t deadline_ns);
/* The device port's pipeline ops (pipe.c, hal.h). */
axl_status axl__mmio_pipeline_open(void *dev, axl_hal_pipeline *p);
void axl__mmio_pipeline_close(void *dev, axl_hal_pipeline *p);
axl_status axl__mmio_unit_start(void *dev, axl_hal_pipeline *p,
                                uint32_t unit, const axl_hal_arg *args,
                                uint32_t n);
axl_status axl__mmio_unit_update(void *dev, axl_hal_pipeline *p,
                                 uint32_t unit, const axl_hal_arg *arg,
                                 uint64_t timeout_ns);
axl_status axl__mmio_unit_stop(void *dev, axl_hal_pipeline *p, uint32_t unit,
                               uint32_t how, uint64_t timeout_ns);
#endif

#if MMIO_MODEL
/* The model's side (a model build only): serialised calls, its clock. */
const axl_mmio_model *axl__mmio_model_enter(void);
void axl__mmio_model_leave(const axl_mmio_model *m);
uint64_t axl__mmio_model_now(void);
axl_status axl__mmio_model_attach(const axl_xclbin *design,
                                  const axl_mmio_bank_region *regions,
                                  uint32_t nbanks);
void axl__mmio_model_detach(void);
#if AXL_FEATURE_DESIGN_SWAP
axl_status axl__mmio_model_load_region(uint32_t region,
                                       const axl_xclbin *design,
                                       uint32_t first_unit);
#endif
axl_status axl__mmio_model_status(const mmio_unit *u, char *why,
                                  size_t size);
int axl__mmio_model_advance(uint64_t deadline_ns);
#endif

#endif /* AXL_MMIO_UNIT_H */
