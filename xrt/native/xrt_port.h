/*
 * xrt_port.h - private to the XRT device port's files: xrt_port.c (devices,
 * designs and the ops table), xrt_run.c (compute units, runs, reaping and
 * the completion thread) and xrt_mem.c (BOs and sub-BOs). The records
 * below are the port's state; the lists and their locking are described
 * at the top of xrt_port.c.
 */
#ifndef AXL_XRT_PORT_H
#define AXL_XRT_PORT_H

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "xrt_native.h"

#define MAX_BANKS 64
#define MS 1000000ull
#define NO_GROUP UINT32_MAX

/* ---- Records ---------------------------------------------------------------- */

typedef struct xn_device xn_device;
typedef struct xn_cu xn_cu;

enum run_state {
    RUN_FREE = 0,   /* in its compute unit's pool */
    RUN_BUSY,       /* started: in the device's inflight list */
    RUN_DELIVERING, /* finished: being reported */
    RUN_ZOMBIE      /* given up at its timeout, still on the device */
};

/* What one argument of an XRT run holds: XRT keeps each value in the run's
 * command packet from one start to the next, so a launch that gives the
 * run the value it already holds skips xrtRunSetArg (four of them are most
 * of the XRT cost of a launch). A run started with the core's args_id of
 * its last start holds its buffer arguments without looking (xn_run.args_id). */
typedef struct xn_argval {
    uint64_t bits;           /* the BO's number (xn_bo_serial), or the
                                scalar's bytes */
    uint8_t known;           /* the run holds `bits` */
} xn_argval;

typedef struct xn_run {
    xn_cu *cu;
    xrtRunHandle handle;
    int state;
    int ert;                 /* the XRT state it ended in */
    int cancelled;           /* given up at its timeout: a zombie */
    int lost;                /* XRT's noop shim lost its completion: it
                                stays NEW, and XRT refuses to start it
                                again, so it is closed, not pooled */
    int parked;              /* reported while the completion thread
                                waits on it (xn_device.waiting) */
    void *token;
    const axl_hal_run *hal;
    struct xn_run *prev, *next; /* its list: inflight, zombies, reporting */
    struct xn_run *batch_next;  /* the batch being reported */
    uint32_t args_id;        /* axl_hal_run.args_id whose buffer
                                arguments the run holds, or 0 (hal.h) */
    xn_argval *vals;         /* per argument id (its unit's nargs), in the
                                run's own allocation, after it */
    uint32_t nscalars;       /* with args_id: where the scalars are in */
    uint32_t *scalars;       /* axl_hal_run.args (at most nargs, after
                                vals), the only arguments a start with
                                the same args_id looks at */
} xn_run;

typedef struct xn_arg {
    uint8_t kind;            /* axl__xrt_kind, or NO_ARG */
    uint32_t xml_size;       /* bytes in the register map */
} xn_arg;

#define NO_ARG 0xff

struct xn_cu {
    xn_device *dev;
    xrtKernelHandle kernel;
    uint8_t uuid[AXL_XCLBIN_UUID_SIZE];
    uint32_t ip_index;
    uint32_t refs;
    uint32_t busy;           /* runs on the device's lists (inflight,
                                zombies, reporting) or parked: not those
                                a starting thread holds, whose unit the
                                core does not close under it (hal.h) */
    int closing;
    int lazy;                /* opened by run_start, not by the core */
    char name[80];           /* "vadd:{vadd_1}" */
    uint32_t nargs;          /* highest argument id + 1 */
    xn_arg *args;
    /* One free run kept out of the pool, taken and given back with one
     * atomic exchange each and no lock: the run a unit's next start
     * finds without the device's lock (xrt_run.c, "The fast path"). A
     * run is in `spare`, in `free`, on one of the device's lists, or
     * held by the one thread that took it, never two at once. */
    _Atomic(struct xn_run *) spare;
    xn_run *free;            /* the pool (singly linked), under the lock */
    xn_cu *next;
};

typedef struct xn_sub {
    uint64_t offset;
    uint64_t size;
    xrtBufferHandle bo;
    uint64_t serial;         /* xn_bo_serial: never another BO's */
    struct xn_sub *next;
} xn_sub;

typedef struct xn_bo {
    xn_device *dev;
    xrtBufferHandle bo;      /* NULL while parked */
    uint64_t serial;         /* xn_bo_serial: never another BO's */
    void *user_ptr;          /* xrtBOAllocUserPtr memory, or NULL */
    uint64_t size;
    uint32_t bank;           /* the device's bank (xn_device.bank_mem) */
    uint32_t flags;          /* xrtBufferFlags it was made with */
    /* Parked (a design load, xrt_swap.c): its bytes are here (or in
     * user_ptr) and it has no XRT BO; mem_read and mem_write serve them
     * until a design with its bank loads. */
    unsigned char *shadow;
    xn_sub *subs;
    struct xn_bo *prev, *next;
} xn_bo;

struct xn_device {
    int open;
    int owned;               /* axl opened the XRT device (not make_device) */
    uint32_t index;
    xrtDeviceHandle dh;
    pthread_mutex_t lock;
    pthread_cond_t cond;     /* wakes the completion thread */
    pthread_cond_t reported; /* a batch was reported (progress waits) */
    /* Both atomic (seq_cst), as a pair: a run reported inside run_start
     * bumps reports and then reads report_waiters without the lock;
     * progress, under the lock, bumps report_waiters and then reads
     * reports before it sleeps. One of the two sees the other's bump, so
     * no waiter sleeps through a report (notify_reported in xrt_run.c). */
    atomic_uint report_waiters;
    _Atomic uint64_t reports; /* batches reported so far */
    /* The run the completion thread waits on in XRT: when it is reported
     * meanwhile it is parked, not put back in its pool, until that wait
     * returns, so no launch restarts it and no close closes it under the
     * wait. */
    xn_run *waiting;
    pthread_t thread;
    atomic_int thread_running;
    int stop;
    int sleeping;            /* the thread waits for a launch to wake it */
    uint32_t delivering;     /* batches being reported */
    xn_run inflight;         /* list heads (sentinels) */
    xn_run zombies;
    xn_run reporting;
    xn_cu *cus;
    xn_cu *dead;             /* closed while busy, destroyed when idle */
    xn_bo *bos;
    /* Memory ops hold it shared, a design load (xrt_swap.c) exclusive:
     * the core runs data commands beside a load, and the load replaces
     * every BO under the handles the core holds. */
    pthread_rwlock_t parking;
    int swaps;               /* reprograms on demand (not AXL_XRT_SWAPS=0) */
    /* Numbers BOs and sub-BOs as they are made: a run that held a BO
     * argument knows it by its number, never by its handle, whose value a
     * new BO may take once the old one is freed. */
    _Atomic uint64_t bo_serials;
    /* The design. */
    int has_image;
    /* image's bytes are the core's (or builtin_bytes) only while it loads
     * the image: an application's source bytes need not outlive their
     * bundle (hal.h, load_image). What is read later is copied here. */
    axl_xclbin image;
    unsigned char *builtin_bytes;
    axl_xclbin builtin;
    int builtin_on;          /* the device still carries it */
    uint32_t nbanks;
    uint32_t bank_mem[MAX_BANKS]; /* axl bank -> MEM_TOPOLOGY index, or
                                     NO_GROUP: the loaded design lacks
                                     the bank (its BOs stay parked) */
    axl_xclbin_mem bank_info[MAX_BANKS]; /* its entry, tag in bank_tag */
    char bank_tag[MAX_BANKS][24];
    /* The card's platform: the VBNV the driver reports, else
     * AXL_XRT_PLATFORM (the noop shim and the emulation modes report
     * none); "" when neither says. A design for another card is refused. */
    char platform[64];
    /* What describe() says. */
    char name[64];
    char driver_version[32];
    uint32_t vendor_id;
    uint32_t clock_mhz;      /* the image's kernel clock */
    uint32_t device_clock_mhz; /* what the shim says, if anything */
};

/* Live XRT objects, for the tests' leak checks (axl__xrt_get_counts). */
typedef struct xn_counts {
    atomic_uint devices, kernels, runs, bos, sub_bos, threads;
} xn_counts;
extern xn_counts axl__xn_counts;
/* How XRT was found (xrt_env.c): the shim, sw_emu, hw_emu or hardware. */
extern axl__xrt_env axl__xn_env;

static inline void count(atomic_uint *c, int delta)
{
    if (delta > 0)
        atomic_fetch_add_explicit(c, (unsigned)delta, memory_order_relaxed);
    else
        atomic_fetch_sub_explicit(c, (unsigned)-delta, memory_order_relaxed);
}

static inline const char *errno_name(int e)
{
    switch (e < 0 ? -e : e) {
    case 0: return "";
    case EPERM: return " (errno EPERM)";
    case ENOENT: return " (errno ENOENT)";
    case EIO: return " (errno EIO)";
    case ENOMEM: return " (errno ENOMEM)";
    case EACCES: return " (errno EACCES)";
    case EFAULT: return " (errno EFAULT)";
    case EBUSY: return " (errno EBUSY)";
    case ENODEV: return " (errno ENODEV)";
    case EINVAL: return " (errno EINVAL)";
    case ENOSPC: return " (errno ENOSPC)";
    case ENOSYS: return " (errno ENOSYS)";
    case ENOTSUP: return " (errno ENOTSUP)";
    case ETIMEDOUT: return " (errno ETIMEDOUT)";
    default: return " (errno set)";
    }
}

static inline size_t page_size(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

static inline xn_bo *bo_of(const axl_hal_mem *mem)
{
    return mem ? (xn_bo *)mem->handle : NULL;
}

/* ---- Small helpers (xrt_port.c and xrt_run.c) ---- */

static inline uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static inline int is_busy_errno(int e)
{
    return e == EBUSY || e == -EBUSY;
}

/* States after which XRT will not touch the run again. SUBMITTED (7) is
 * numerically above COMPLETED but means on its way to the unit. */
static inline int ert_final(int s)
{
    return s == ERT_CMD_STATE_COMPLETED || s == ERT_CMD_STATE_ERROR ||
           s == ERT_CMD_STATE_ABORT || s == ERT_CMD_STATE_TIMEOUT ||
           s == ERT_CMD_STATE_NORESPONSE || s == ERT_CMD_STATE_SKERROR ||
           s == ERT_CMD_STATE_SKCRASHED;
}

static inline void list_init(xn_run *head)
{
    head->prev = head->next = head;
}

static inline int list_empty(const xn_run *head)
{
    return head->next == head;
}

static inline void list_push(xn_run *head, xn_run *r)
{
    r->prev = head->prev;
    r->next = head;
    head->prev->next = r;
    head->prev = r;
}

static inline void list_del(xn_run *r)
{
    r->prev->next = r->next;
    r->next->prev = r->prev;
    r->prev = r->next = NULL;
}

/* ---- Memory (xrt_mem.c) ---- */

axl_status axl__xn_mem_alloc(void *dev, uint32_t bank, uint64_t size,
                             void *user_ptr, axl_hal_mem *out);
void axl__xn_mem_free(void *dev, axl_hal_mem *mem);
/* Gives a BO back to XRT, the sub-buffer BOs made of it first (b is out
 * of its device's list); a sub-buffer BO alone. */
void axl__xn_bo_destroy(xn_bo *b);
void axl__xn_sub_destroy(xn_sub *s);
axl_status axl__xn_mem_write(void *dev, axl_hal_mem *mem, uint64_t offset,
                             const void *src, uint64_t size);
axl_status axl__xn_mem_read(void *dev, axl_hal_mem *mem, uint64_t offset,
                            void *dst, uint64_t size);
axl_status axl__xn_mem_copy(void *dev, axl_hal_mem *dst, uint64_t dst_offset,
                            axl_hal_mem *src, uint64_t src_offset,
                            uint64_t size);

/* A BO's bytes read or written with their syncs, or its shadow's while
 * it is parked (parking held shared or exclusive). */
axl_status axl__xn_bo_get(xn_bo *b, uint64_t offset, void *dst, uint64_t size);
axl_status axl__xn_bo_put(xn_bo *b, uint64_t offset, const void *src,
                          uint64_t size);

/* ---- Designs on demand (xrt_swap.c) ---- */

#if !defined(AXL_FEATURE_DESIGN_SWAP) || AXL_FEATURE_DESIGN_SWAP
/* The op region_load; check is the port's refusal of a load while units
 * are open or runs out (xrt_port.c), adopt what the device carries after
 * a load of image (lock held). */
axl_status axl__xn_region_load(void *dev, uint32_t *region,
                               const axl_xclbin *image, char *why,
                               size_t why_size);
#endif
axl_status axl__xn_check_idle(xn_device *d, char *why, size_t why_size);
/* ts = now (CLOCK_REALTIME, for pthread_cond_timedwait) + ns. */
void axl__xn_deadline_after(struct timespec *ts, uint64_t ns);
axl_status axl__xn_other_card(const xn_device *d, const axl_xclbin *image,
                              char *why, size_t why_size);
int axl__xn_load_bytes(xn_device *d, const axl_xclbin *image);
/* image loaded onto d's card, or why XRT refused it in why and the last
 * message: AXL_ERR_BAD_STATE when the card was busy, else AXL_ERR_BUILD
 * (load_image and region_load). */
axl_status axl__xn_load(xn_device *d, const axl_xclbin *image, char *why,
                        size_t why_size);
void axl__xn_set_image(xn_device *d, const axl_xclbin *image);

/* ---- Runs (xrt_run.c) ---- */

/* The hook the tests set in place of axl_hal_run_done (or NULL). */
extern axl__xrt_run_done_fn axl__xn_run_done_hook;
/* Closing a unit (lock held): destroy_cu frees a unit and its runs; a
 * unit closed while busy waits on the device's dead list until its runs
 * are back (unlink_if_done, destroy_dead). */
void axl__xn_destroy_cu(xn_cu *cu);
void axl__xn_unlink_if_done(xn_device *d, xn_cu *cu);
void axl__xn_destroy_dead(xn_device *d);
void axl__xn_run_to_pool(xn_device *d, xn_run *r);
/* Reports the finished runs of d (known: a run whose state the caller
 * read already, as known_state); returns how many. */
unsigned axl__xn_reap(xn_device *d, xrtRunHandle known, int known_state);
void axl__xn_stop_thread(xn_device *d);
/* Once, after a kernel open: an exit handler that lets the process's
 * threads settle before XRT's own stops them (xrt_port.c). */
void axl__xn_settle_at_exit(void);
/* The BO (or sub-BO) for size bytes at offset of b. */
axl_status axl__xn_arg_bo(xn_device *d, xn_bo *b, uint64_t offset,
                          uint64_t size, xrtBufferHandle *bo,
                          uint64_t *serial);
/* The ops. */
/* Registers of compute units (xrt_ip.c, axl/ip.h). */
axl_status axl__xn_ip_open(void *dev, const axl_xclbin *image,
                           uint32_t ip_index, const axl_xclbin_ip *ip,
                           uintptr_t *handle);
void axl__xn_ip_close(void *dev, uintptr_t handle);
axl_status axl__xn_ip_read32(void *dev, uintptr_t handle, uint32_t offset,
                             uint32_t *value);
axl_status axl__xn_ip_write32(void *dev, uintptr_t handle, uint32_t offset,
                              uint32_t value);

axl_status axl__xn_cu_open(void *dev, const axl_xclbin *image,
                           uint32_t kernel_index, uint32_t ip_index,
                           uintptr_t *cu_handle);
void axl__xn_cu_close(void *dev, uintptr_t cu_handle);
axl_status axl__xn_run_start(void *dev, const axl_hal_run *run);
void axl__xn_run_cancel(void *dev, const axl_hal_run *run);
void axl__xn_progress(void *dev, uint64_t deadline_ns);

/* ---- XRT's noop shim (xrt_noop.c) ---- */

/* Its gate, around the table's calls (xrt_api.c): a call that looks BOs up
 * (use) or one that can free one (free). Each begin returns whether the
 * gate applies (the noop shim), for its end. */
int axl__xn_noop_use_begin(void);
void axl__xn_noop_use_end(int gated);
int axl__xn_noop_free_begin(void);
void axl__xn_noop_free_end(int gated);
/* Runs started: the counter before xrtRunStart, then the run and the
 * state XRT gave right after it; a state read; a run closing. A device
 * the port opened or took (open 1) or closes (0). */
uint64_t axl__xn_noop_before_start(void);
void axl__xn_noop_started(xrtRunHandle h, uint64_t before, int state);
void axl__xn_noop_saw_state(xrtRunHandle h, int state);
void axl__xn_noop_forget(xrtRunHandle h);
void axl__xn_noop_device(xrtDeviceHandle dh, int open);
/* Whether the shim lost the completion of a run XRT says is in `state`
 * (only NEW can be): it will stay NEW for good. May queue a probe on dh. */
int axl__xn_noop_lost(xrtRunHandle h, int state, xrtDeviceHandle dh);

/* A new BO's number on d (see xn_device.bo_serials). */
static inline uint64_t xn_bo_serial(xn_device *d)
{
    return atomic_fetch_add_explicit(&d->bo_serials, 1,
                                     memory_order_relaxed) + 1;
}

#endif /* AXL_XRT_PORT_H */
