/*
 * emu_unit.h - the emulated device's state, shared by emu.c (the port:
 * banks, runs, workers) and emu_pipe.c (streams: the FIFOs between units,
 * pipelines, deadlocks). Everything here is guarded by the runtime lock
 * (axl_port_lock), which the port takes for its own short sections.
 */
#ifndef AXL_EMU_UNIT_H
#define AXL_EMU_UNIT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "axl/emu.h"
#include "axl/hal.h"
#include "axl/shell.h"
#include "emu_config.h"

/* Streams need a worker per unit: a hosted build's. */
#define EMU_STREAMS (AXL_EMU_HOSTED && AXL_EMU_STREAM_BYTES > 0)

#if EMU_STREAMS
/* One stream of the design: a bounded FIFO of its depth between the
 * producer's port and the consumer's (emu_fifo.h). */
#include "emu_fifo.h"

/* A free-running or auto-restart unit's run (emu_unit.pl_run). */
enum { EMU_PL_IDLE = 0, EMU_PL_RUN = 1, EMU_PL_LAST = 2 /* restart
        cleared: its current iteration is its last */ };
#endif

#if AXL_EMU_HOSTED
/* Banks a device can have: as many as the core's bank masks hold. */
#define EMU_BANK_SLOTS 64
#else
#define EMU_BANK_SLOTS AXL_EMU_BANKS
#endif

typedef struct emu_bank {
    axl_arena arena;
#if AXL_EMU_HOSTED
    /* Made at the bank's first allocation and kept until the device
     * closes (blocks) or the bank is empty when a design of another size
     * comes (map): allocations alive across a reprogramming keep theirs. */
    axl_arena_block *blocks;
    unsigned char *map;
    uint64_t map_size;
    uint64_t design_size; /* the design's size, before the limit */
#else
    axl_arena_block blocks[AXL_EMU_BANK_ALLOCS];
#endif
} emu_bank;

/*
 * A compute unit's run, as the emulator holds it between run_start and
 * axl_hal_run_done. Every field is guarded by the runtime lock
 * (axl_port_lock), taken by run_start, run_cancel, progress, close and the
 * unit's worker; the model itself runs without it, on what the worker
 * copied out under it. run points at the core's hal run, valid until the
 * run is reported (hal.h); ptr holds the buffer arguments' bytes, found at
 * run_start while the buffers are certainly alive.
 */
enum { UNIT_IDLE, UNIT_PENDING, UNIT_RUNNING, UNIT_HUNG };

typedef struct emu_unit {
    uint32_t ip;            /* the IP_LAYOUT index it serves; UINT32_MAX: free */
    uint8_t state;          /* UNIT_* */
    bool cancelled;         /* given up: what the model returns is discarded */
    bool reporting;         /* its worker is inside axl_hal_run_done */
    bool stop;              /* close: the worker ends */
    unsigned thread;        /* its worker (axl_port_thread_start), 0: none */
    struct emu_device *dev;
    const axl_hal_run *run;
    axl_emu_model_fn fn;
    void *user;
    /* Its model, set by cu_open (under the lock, and only when it
     * changes: a launch reads it without the lock), which gives a handle
     * naming this unit (unit_of). */
    const struct emu_model *model;
    bool stock;             /* its kernel is axl's stock one (model->serves) */
    /* The model's call record: kept from run to run while the core gives
     * the same nonzero args_id (hal.h: the same ids and memory arguments;
     * only scalars differ), so such a run refreshes the scalars and
     * nothing else. Written by run_start while the unit holds no run (the
     * core gives a unit one run at a time), read by the model's caller. */
    uint32_t args_id;       /* 0: the record is the last run's, kept for none */
    uint32_t scalars;       /* bit i: args[i] is a scalar */
    uint32_t alone;         /* bit i: args[i] is a buffer given read-only
                               that no writable argument reaches (what the
                               read-only check digests) */
    axl_emu_arg args[AXL_EMU_MAX_ARGS];
    uint32_t nargs;         /* of args[]: the run's, then its stream ends */
    uint32_t epoch;         /* the open its worker serves */
#if EMU_STREAMS
    /* Streams (emu_pipe.c), all the lock's. Its stream ends: one per
     * stream port the design joins, into the device's FIFOs. */
    uint32_t nends;
    axl_emu_stream ends[AXL_EMU_UNIT_STREAMS];
    struct emu_end {
        struct emu_fifo *fifo;
        struct emu_unit *unit;
    } end[AXL_EMU_UNIT_STREAMS];
    struct emu_pipeline *pl; /* its pipeline while one is open */
    uint32_t pl_index;      /* its unit index there */
    uint8_t pl_kind;        /* axl_hal_unit_kind */
    uint8_t pl_run;         /* free-running, auto-restart: EMU_PL_* */
    bool pl_stop;           /* its stream ops end (a reset, a close) */
    bool in_model;          /* a model of it runs (or is about to) */
    bool wants_baton;       /* deterministic: ready, waiting for the baton */
    bool blocked_full;
    struct emu_fifo *blocked; /* the FIFO an op of it waits on */
    axl_emu_model_fn pl_fn; /* a free-running or auto-restart unit's */
    void *pl_user;
    /* Its scalars (free-running, auto-restart), and the mailbox: a new
     * value taken at the next iteration (auto-restart) or stream op
     * (free-running). */
    uint32_t nscalars;
    struct emu_scalar {
        uint32_t id, size;
        uint8_t bytes[8];
    } sc[AXL_EMU_MAX_ARGS];
    bool mbox_pending, mbox_taken;
    uint32_t mbox_id;
    uint8_t mbox[8];
#endif
} emu_unit;

/* The record's masks hold a bit per argument. */
_Static_assert(AXL_EMU_MAX_ARGS <= 32, "AXL_EMU_MAX_ARGS above 32");

typedef struct emu_device {
    uint32_t index;
    int open;
    uint32_t epoch;             /* this open; a worker of an older one ends */
#if AXL_FEATURE_DESIGN_SWAP
    bool swaps_off;             /* axl_emu_set_swaps(false) at its open */
    const axl_shell *shell;     /* its DFX shell at its open, or NULL
                                   (axl_emu_set_shell, AXL_EMU_SHELL) */
#endif
    emu_unit units[AXL_EMU_UNITS];
    emu_bank banks[EMU_BANK_SLOTS];
    /* What it keeps of the design it carries, copied at load_image: the
     * image's bytes are the application's and need not outlive the bundle
     * that loaded them (hal.h, load_image), so nothing later reads them.
     * The banks (nbanks of them: the design's used banks, or AXL_EMU_BANKS
     * with no design), each bank's MEM_TOPOLOGY index (UINT32_MAX: none),
     * its tag ("" when the design does not name it) and base address.
     * Written under the runtime lock (open holds it; load_image takes it). */
    bool has_design;
    uint32_t nbanks;
    uint32_t bank_mem[EMU_BANK_SLOTS];
    char bank_tag[EMU_BANK_SLOTS][sizeof ((axl_hal_bank *)0)->tag];
    uint64_t bank_base[EMU_BANK_SLOTS]; /* its MEM_TOPOLOGY base address */
    /* The bank whose arena each bank's buffers are carved from: banks of
     * the design at one base and of one size are one memory (every ZynqMP
     * PS port, HP0-3, HPC0-1, LPD, reaches the same DDR), so two live
     * buffers never share an address whichever of them they are in. */
    uint8_t bank_same[EMU_BANK_SLOTS];
    /* The platform it stands in for (axl_emu_set_platform), set at open:
     * a design built for another is warned about. "" for none. */
    char platform[64];
#if EMU_STREAMS
    /* The design's streams, as FIFOs carved from stream_store when it is
     * programmed (emu_pipe.c); why they could not be, or "". Written
     * under the lock; a run's start reads nfifos without it (none: the
     * unit has no stream port, emu.c's has_streams). */
    _Atomic uint32_t nfifos;
    struct emu_fifo fifos[AXL_EMU_MAX_STREAMS];
    char streams_why[96];
#endif
} emu_device;


#if EMU_STREAMS
/* A pipeline the core opened (hal.h's axl_hal_pipeline, port field). */
typedef struct emu_pipeline {
    axl_hal_pipeline *hal;      /* NULL: a free slot */
    emu_device *dev;
    emu_unit *unit[32];         /* hal->units' emulated units */
    bool dead;                  /* a deadlock was found: hal->why says it */
    bool det;                   /* deterministic mode: one model at a time */
    emu_unit *baton;            /* det: the unit that may run, or NULL */
} emu_pipeline;

/* emu_pipe.c, for emu.c (lock held unless said). */
/* A device that opens has no pipeline open. */
void emu_pipes_forget(const emu_device *d);
/* The FIFOs of a design (image NULL: none) are made. */
axl_status emu_fifos_build(emu_device *d, const axl_xclbin *image);
/* Appends unit u's stream ends to args[n..cap); the new count. */
uint32_t emu_stream_args(emu_unit *u, axl_emu_arg *args, uint32_t n,
                         uint32_t cap);
/* A model of u is about to run / has returned (the baton, deadlocks). */
void emu_model_begin(emu_unit *u);
void emu_model_end(emu_unit *u);
/* The worker of a free-running or auto-restart unit has a run due; runs
 * it (the lock dropped around the model). */
bool emu_pipe_due(const emu_unit *u);
void emu_pipe_run(emu_unit *u);
/* Deterministic mode: after a run of u was handed to its worker, waits
 * until u's pipeline is at rest (no lock held on entry). */
void emu_pipe_settle(emu_unit *u);
/* The port's pipeline ops. */
axl_status emu_pipeline_open(void *dev, axl_hal_pipeline *p);
void emu_pipeline_close(void *dev, axl_hal_pipeline *p);
axl_status emu_unit_start(void *dev, axl_hal_pipeline *p, uint32_t unit,
                          const axl_hal_arg *args, uint32_t n);
axl_status emu_unit_update(void *dev, axl_hal_pipeline *p, uint32_t unit,
                           const axl_hal_arg *arg, uint64_t timeout_ns);
axl_status emu_unit_stop(void *dev, axl_hal_pipeline *p, uint32_t unit,
                         uint32_t how, uint64_t timeout_ns);
axl_status emu_pipeline_drained(void *dev, axl_hal_pipeline *p,
                                uint64_t timeout_ns);
#endif

/* emu.c, for emu_pipe.c (lock held). */
emu_unit *emu_unit_for(emu_device *d, uint32_t ip);
axl_emu_model_fn emu_model_of(const axl_xclbin *image, uint32_t kernel_index,
                              void **user);
bool emu_is_deterministic(void);
void emu_worker_start(emu_unit *u);

#endif /* AXL_EMU_UNIT_H */
