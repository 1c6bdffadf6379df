/*
 * cu.h - compute units and their runs (cu.c): a unit as a design's
 * placement describes it, the run slot a device keeps per unit, and
 * what the rest of the core calls of cu.c: dispatching a checked kernel
 * command, deadlines and timeouts, and the runs given up at their
 * timeout (what they keep, and the units that hang).
 */
#ifndef AXL_CU_H
#define AXL_CU_H

#include "rt.h"

/* Where a unit's run is in its hand-off with the port: STARTING while the
 * dispatcher is inside run_start; a run_done in that window turns it to
 * ENDED_INSIDE and the dispatcher completes the command (most emulated runs
 * end so); IDLE otherwise. */
enum axl__cu_phase {
    AXL__CU_IDLE = 0,
    AXL__CU_STARTING = 1,
    AXL__CU_ENDED_INSIDE = 2
};

/* One compute unit of a design as a placement (core/place.h) describes
 * it: which kernel and IP, and the device banks each argument the host
 * sets reaches, in the order of the kernel id's args less its stream
 * ports (the order of a command's arguments, launch.c), so launches
 * never walk CONNECTIVITY. A device's run slot carries a copy made when
 * its design is loaded. */
#define AXL__UNIT_FIELDS                                                       \
    uint16_t kernel_index;      /* the kernel's index in the image */          \
    uint16_t ip;                /* its IP_LAYOUT index */                      \
    uint8_t ordinal;            /* which unit of its kernel it is */           \
    uint8_t next_same;          /* the next unit of the same kernel (cyclic;   \
                                   in a run slot: a d->cus index) */           \
    uint64_t banks[AXL_MAX_KERNEL_ARGS];
struct axl__unit {
    AXL__UNIT_FIELDS
};

/* A compute unit of the design a device carries, and the run slot it uses:
 * the hal run and its arguments live here while the unit runs, so nothing
 * is allocated per launch. Its description is its placement's unit, read
 * by name (cu->kernel_index) or whole (cu->unit). */
struct axl__cu {
    union {
        struct axl__unit unit;
        struct {
            AXL__UNIT_FIELDS
        };
    };
    /* The fields below are ordered widest first, so that a unit is no
     * bigger than before its description became struct axl__unit (a
     * launch indexes d->cus: its size is in the hot path's arithmetic). */
    uint64_t deadline;          /* ns; the run is given up after it; 0 or
                                   UINT64_MAX: never. Armed once run_start
                                   has returned, never while the
                                   dispatcher holds the run. Abandoned: 1
                                   until the port is asked to cancel */
    uintptr_t handle;           /* from the port's cu_open, or 0; with
                                   opened: the lock's (axl__run_kernel
                                   records them after it takes it back) */
    uint32_t memo;
    /* The hand-off with the port, without the lock (enum axl__cu_phase).
     * done_status and why are written by run_done before that atomic and
     * read by the dispatcher after it. Everything else here is under the
     * runtime lock. */
    axl_status done_status;     /* with why: written by run_done before it
                                   moves phase to 2, read by the dispatcher
                                   after it takes phase (acq_rel) */
    axl__command_ref cmd;       /* the command running here, or none */
    axl__kernel_ref memo_kernel; /* with memo: the kernel memo whose buffer
                                   arguments args holds (and run.args_id
                                   names): the kernel (or none) and
                                   axl__launch_memo seq */
    _Atomic uint8_t phase;
    bool opened;
    bool prepared;              /* run's fixed fields are filled in */
    bool abandoned;             /* past its deadline: the command has
                                   completed (AXL_ERR_TIMEOUT); the run
                                   has not come back yet */
    bool cancel_asked;          /* run_cancel called (or being called) */
    bool hung;                  /* abandoned, run_cancel returned without
                                   the run, and the port says such a run
                                   may never end by itself (its unit_fix):
                                   no launch or creation waits for it */
    char why[AXL_MESSAGE_MAX];  /* an inline completion's message */
    axl_hal_run run;
    axl_hal_arg args[AXL_MAX_KERNEL_ARGS];
#if AXL_FEATURE_GRAPHS
    /* Who has the unit, without the lock: a plain command (cmd, taken
     * under the lock) or a graph's run (replay.c, taken by the executor's
     * driver), each by setting `taken` from 0 (seq_cst, with `wanted`:
     * whoever finds it taken says so there, and whoever frees it looks,
     * so no release is missed). prun: the graph's run holding it, or
     * NULL. waiting: per executable graph's slot, its runs that wait for
     * it, each promised a kick when it is free (the lock's). */
    _Atomic uint8_t taken;
    _Atomic uint8_t wanted;
    struct axl__plan_run *_Atomic prun;
    uint16_t waiting[AXL_MAX_GRAPH_EXECS];
#endif
};

/* Runs on compute units (cu.c): dispatch of a checked kernel command,
 * deadlines and timeouts (lock held). */
void axl__run_kernel(struct axl__command *c);
unsigned axl__check_timeouts(void);
bool axl__event_timed_out(struct axl__event *e);
unsigned axl__runs_out(char *what, size_t size);
uint64_t axl__next_deadline(void);
#if AXL_DEVICE_CLOCKS
uint64_t axl__device_deadline(const struct axl__device *d);
#endif
struct axl__device *axl__progress_device(void);
/* Runs given up at their timeout (cu.c): which unit holds one, with the
 * way back, for messages; and base buffer b's last release while such
 * runs keep it (its device memory counted as reserved, and logged). */
void axl__unit_what(const struct axl__device *d, const struct axl__cu *cu,
                    char *out, size_t size);
void axl__buffer_reserved(struct axl__buffer *b);
/* now + ns, saturating (a deadline; UINT64_MAX: none). */
uint64_t axl__deadline_after(uint64_t now, uint64_t ns);
/* A run given up at its timeout keeps base buffer b (its device memory
 * counted reserved once the application released it), until it comes
 * back (lock held). */
void axl__given_up_keep(struct axl__buffer *b);
void axl__given_up_let_go(struct axl__buffer *b);
/* Whether a hung unit's given-up run holds base buffer b (lock held). */
bool axl__held_by_hung(const struct axl__buffer *b);
/* Kernel commands waiting for a unit (the cu_wait FIFO) that only hung
 * units could take fail, naming one and the way back: nothing would ever
 * free those units (lock held). */
void axl__fail_stranded(void);

#endif /* AXL_CU_H */
