/*
 * axl/hal.h - the contract between the axl core and its ports.
 *
 * For people who write a port, not for applications. Two kinds of port meet
 * the core here (DESIGN.md, "The ports"):
 *
 *  - The OS port (port/<os>/): lock, wait/wake, monotonic clock, per-thread
 *    message storage, optional worker threads, cache maintenance. Exactly
 *    one is linked; CMake picks the folder, so the core calls these
 *    functions directly with no indirection.
 *  - Device ports (xrt/emu, xrt/native, ...): a const axl_device_port of
 *    function pointers each. Several can live in one build; each becomes one
 *    platform whose devices are the ones the port finds.
 *
 * Threading: the core serialises its own state with axl_port_lock(). It
 * never holds that lock while it calls a device-port op (except
 * kernel_compatible, see there), a kernel model or application code, so
 * ops may block and may call back into the core (axl_hal_run_done) from
 * any thread. A device port may take the same lock for short updates of
 * its own state (never across a model, a blocking call or a call into
 * axl). Who owns what during a call-out is written beside the runtime
 * state in core/rt.h.
 */
#ifndef AXL_HAL_H
#define AXL_HAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "axl/status.h"
#include "axl/types.h"
#include "axl/xclbin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Formatting (shared by the core, the ports and the xclbin reader)          */
/* ------------------------------------------------------------------------ */

/**
 * snprintf without stdio or allocation: %% %c %s %.*s %d %i %u %x %X %p,
 * modifiers l ll z, flags 0 and -, a width. Always NUL-terminates when
 * cap > 0 and returns the length the whole text needs (like snprintf).
 */
size_t axl_format(char *dst, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
size_t axl_vformat(char *dst, size_t cap, const char *fmt, va_list ap);
/** How many texts axl_format and axl_vformat have cut since the program
 *  started (cap > 0 and the text longer: messages, names, whatever they
 *  wrote), and the beginning of the first one cut (NULL: none). Every
 *  message axl writes must fit its buffer: the tests' teardown asserts
 *  that none was cut. A copy into a buffer the caller sized, which may cut
 *  by contract, goes through axl_format_part and is not counted. */
unsigned long axl_format_cuts(const char **first);
/** axl_format into a buffer whose size the caller chose (a name into an
 *  info struct, a list into the application's buffer) or that is filled
 *  piece by piece (a writer that flushes and tries again): cutting there
 *  is the contract, not counted by axl_format_cuts. */
size_t axl_format_part(char *dst, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
size_t axl_vformat_part(char *dst, size_t cap, const char *fmt, va_list ap);
/** A message that quotes another (a failure quoting the one it comes
 *  from): dst = the text fmt makes, then `quote`, then `tail`. When the
 *  whole does not fit, the quote gives way in its middle ("...", as
 *  axl_shorten), so that its beginning and its end, where a message names
 *  the fix, stay; that counts as a cut (axl_format_cuts). Returns the
 *  length written. */
size_t axl_format_quote(char *dst, size_t cap, const char *quote,
                        const char *tail, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
size_t axl_vformat_quote(char *dst, size_t cap, const char *quote,
                         const char *tail, const char *fmt, va_list ap);
/** Copies s (a path, say) into dst, cap bytes with the NUL; when it does
 *  not fit, keeps its beginning and its end with "..." between, so a
 *  message that names a long path keeps its file name and its room for
 *  the reason. The cuts fall on '/' where the room allows, so that every
 *  folder name shown is whole ("/home/user/.../build/design.xclbin").
 *  Returns dst. */
const char *axl_shorten(char *dst, size_t cap, const char *s);
/** A size for a message: "128 KiB", "1 GiB" when exact, "31.5 KiB" (to a
 *  tenth, rounded down) when not, "700 bytes" under 1 KiB. Returns dst. */
const char *axl_bytes(char *dst, size_t cap, uint64_t n);

/* ------------------------------------------------------------------------ */
/* The OS port: implemented once per OS in port/<os>/axl_port.c              */
/* ------------------------------------------------------------------------ */

/** Size of each thread's message buffer, including the NUL. */
#define AXL_MESSAGE_MAX 256

/** Wait channels. A port may implement them with one condition each, or
 *  with one shared event flag: waiters re-check their condition anyway. */
enum axl_port_channel {
    AXL_PORT_CHANNEL_DONE = 0, /**< a command finished */
    AXL_PORT_CHANNEL_WORK = 1, /**< a host task is ready for a worker */
    AXL_PORT_CHANNEL_DEVICE = 2, /**< for device ports' own threads
                                      (axl_port_thread_start) */
    AXL_PORT_CHANNEL_COUNT = 3
};

/** Called once by axl_init() before anything else, and by axl_shutdown(),
 *  both with the runtime lock held. A hosted port reads its environment
 *  switches in axl_port_init (AXL_LOG, AXL_TRACE: axl_log_set,
 *  axl_trace_enable; neither takes the lock). */
axl_status axl_port_init(void);
void axl_port_fini(void);
/** Called by axl_shutdown() once the runtime is down, without the lock:
 *  where a hosted port writes the trace file AXL_TRACE names
 *  (axl_trace_format may be called). Bare metal: nothing to do. */
void axl_port_stopped(void);

/** The runtime lock. Not recursive. On bare metal this masks interrupts
 *  (with nesting), which is why the core holds it only for short, bounded
 *  sections. Must work before axl_port_init() (static initialisation). */
void axl_port_lock(void);
void axl_port_unlock(void);

/**
 * Called with the lock held: releases it, blocks until axl_port_wake() on
 * the channel, the deadline (axl_port_now_ns() time base; UINT64_MAX for
 * none) or a spurious wake-up, then takes the lock again. On bare metal this
 * is where the CPU sleeps (WFI) until an interrupt.
 */
void axl_port_wait(unsigned channel, uint64_t deadline_ns);

/** Wakes every waiter of a channel. Called with the lock held. */
void axl_port_wake(unsigned channel);

/** Monotonic time in nanoseconds, and the clock's resolution. */
uint64_t axl_port_now_ns(void);
uint64_t axl_port_clock_resolution_ns(void);

/** A short pause inside a spin loop (PAUSE, YIELD or nothing). */
void axl_port_relax(void);

/** AXL_MESSAGE_MAX bytes that belong to the calling thread (one buffer for
 *  thread context and one for interrupt context on bare metal). */
char *axl_port_message_buffer(void);

/** Nonzero when called from an interrupt handler. */
int axl_port_in_isr(void);

/**
 * Starts up to n worker threads running fn(arg); returns how many were
 * started. A port without threads returns 0: host tasks then run on the
 * thread that makes them ready, and waits drive all progress.
 */
unsigned axl_port_workers_start(unsigned n, void (*fn)(void *), void *arg);
/** Joins the workers after fn has returned in each of them. */
void axl_port_workers_join(void);

/**
 * Starts one thread running fn(arg) for a device port (the emulated device
 * runs each compute unit's model on one). Returns its id, nonzero, or 0
 * when the port has no threads (bare metal) or no room left: the device
 * port then does the work on a thread of the core's (run_start or
 * progress). A port has room for a fixed number (64 on POSIX).
 */
unsigned axl_port_thread_start(void (*fn)(void *), void *arg);
/** Waits until thread `id`'s fn has returned, and frees its id. */
void axl_port_thread_join(unsigned id);
/** Frees thread `id` without waiting for it (its fn is stuck in a model
 *  that never returns); it ends by itself when fn returns. */
void axl_port_thread_detach(unsigned id);

/** Data-cache maintenance for DMA on boards without coherency; no-ops on
 *  coherent systems. */
void axl_port_cache_flush(const void *addr, size_t size);
void axl_port_cache_invalidate(void *addr, size_t size);

/* ------------------------------------------------------------------------ */
/* Device ports                                                              */
/* ------------------------------------------------------------------------ */

/** Device flags reported by describe(). */
enum axl_hal_device_flags {
    AXL_HAL_DEVICE_AVAILABLE = 1u << 0, /**< info::device::is_available */
    AXL_HAL_DEVICE_EMULATED = 1u << 1,  /**< aspect::emulated */
    AXL_HAL_DEVICE_PROFILING = 1u << 2, /**< aspect::queue_profiling */
    AXL_HAL_DEVICE_REPROGRAMMABLE = 1u << 3, /**< load_image works */
    /** Its time is its own (the port's now op): a model that simulates
     *  time, which moves only as the port drives it (progress). */
    AXL_HAL_DEVICE_OWN_CLOCK = 1u << 4,
    /** region_load may run while bundles of other designs are held: the
     *  device is reprogrammed on demand between commands (issue 40,
     *  docs/designs-design.md 2). Without it a bundle of another design
     *  is refused while one is held. */
    AXL_HAL_DEVICE_SWAPS = 1u << 5
};

/** What a device port says about one of its devices. */
typedef struct axl_hal_device_info {
    char name[64];
    char vendor[32];
    char driver_version[32];
    char backend_version[32];
    uint32_t vendor_id;
    uint32_t type;                /**< axl_device_type */
    uint32_t flags;               /**< axl_hal_device_flags */
    uint32_t mem_base_addr_align; /**< bits (info::device::mem_base_addr_align) */
    uint32_t max_clock_mhz;
    uint32_t bank_count;          /**< memory banks, read with bank() */
    uint64_t global_mem_size;     /**< bytes over all banks */
    uint64_t max_mem_alloc_size;  /**< largest single allocation */
    uint64_t timer_resolution_ns;
    /** The design the device carries (its built-in kernels): the image the
     *  board names, or the one already loaded. NULL when none. The bytes
     *  must stay valid while the device is open. */
    const void *builtin_image;
    size_t builtin_image_size;
    /** The same design pre-digested (axl-xclbin design), used instead of
     *  builtin_image when not NULL: the kernel ids, names and every query
     *  are the same. It must stay valid while the device is open. */
    const struct axl_xclbin_design *builtin_design;
#if !defined(AXL_FEATURE_DESIGN_SWAP) || AXL_FEATURE_DESIGN_SWAP
    /** A DFX shell (issue 40, docs/designs-design.md 2.8, 3.1): 1 + its
     *  slots, read with the region op (region 0: the static part); 0 or
     *  1: no shell, the whole fabric is region 0. */
    uint32_t region_count;
    uint8_t shell_uuid[16];       /**< what its partials name */
    char shell_name[24];          /**< "k26_2rp"; "" without a shell */
#endif
} axl_hal_device_info;

/** One memory bank of a device. */
typedef struct axl_hal_bank {
    char tag[24];          /**< as in MEM_TOPOLOGY: "bank0", "DDR[1]", ... */
    uint64_t size;         /**< bytes axl may allocate in it */
    uint64_t base_address; /**< device address of the bank */
    uint32_t image_index;  /**< its MEM_TOPOLOGY index in the loaded image */
} axl_hal_bank;

/** What a bank holds now (the optional mem_usage op), for the message of
 *  an allocation that failed. */
typedef struct axl_hal_bank_usage {
    uint64_t size;            /**< bytes axl may allocate in it */
    uint64_t free;            /**< bytes not allocated */
    uint64_t largest_free;    /**< the largest allocation that fits now */
    uint32_t allocations;     /**< allocations alive in it */
    uint32_t max_allocations; /**< how many it can hold; 0: no limit */
    /** Why its size is not the design's, as a setting to change ("" when
     *  it is): "AXL_EMU_MAX_BANK_BYTES of 16 GiB". */
    char note[64];
} axl_hal_bank_usage;

/** A region of a device's fabric (issue 40, docs/designs-design.md
 *  2.8): region 0 is the whole fabric or a shell's static part, regions
 *  1..n its slots (slot = region - 1), one design each. */
typedef struct axl_hal_region {
    char name[16];                 /**< "fabric", "RP_0" */
    uint64_t ctrl_base, ctrl_size; /**< its control window */
    uint32_t irq_first, irq_count; /**< its interrupt lines */
    uint32_t first_unit;           /**< the port's unit number of a
                                        design's IP_LAYOUT entry 0 there */
} axl_hal_region;

struct axl_slot;
/** A port's region op for a shell's slot (axl/shell.h): `out` from the
 *  slot's name, window, lines and first unit. */
void axl_hal_region_of_slot(const struct axl_slot *slot,
                            axl_hal_region *out);

/** A device allocation. handle and host_ptr belong to the port. */
typedef struct axl_hal_mem {
    uintptr_t handle;        /**< the port's handle; 0 for none */
    void *host_ptr;          /**< where the host may access it directly, or NULL */
    uint64_t device_address; /**< what a compute unit is given */
    uint64_t size;
    uint32_t bank;
} axl_hal_mem;

/** One kernel argument of a run. */
typedef struct axl_hal_arg {
    uint32_t id;          /**< the argument's id in the kernel metadata */
    uint32_t is_mem;      /**< 1: a buffer (mem + offset); 0: a scalar */
    uint64_t size;        /**< scalar bytes, or bytes of the accessed range */
    const axl_hal_mem *mem;
    uint64_t offset;      /**< byte offset of the accessed range in mem */
    const void *value;    /**< scalar bytes */
    /** A buffer's access mode as the command gave it (axl_access_mode:
     *  AXL_ACCESS_READ, _WRITE, _READ_WRITE, with or without no_init): a
     *  port that can tell (the emulated device) fails a run whose kernel
     *  writes a buffer given read-only. 0 for a scalar. */
    uint32_t access;
} axl_hal_arg;

/** One kernel invocation, handed to run_start(). Valid until run_done. */
typedef struct axl_hal_run {
    void *token;              /**< the core's; give it back to axl_hal_run_done */
    const axl_xclbin *image;  /**< the image the kernel comes from */
    uint32_t kernel_index;    /**< index of the kernel in image's XML */
    const char *kernel_name;
    uint32_t cu;              /**< compute unit ordinal within the kernel */
    uint32_t ip_index;        /**< that unit's IP_LAYOUT index */
    uintptr_t cu_handle;      /**< from cu_open(), or 0 */
    uint32_t arg_count;
    /** A hint a port may use and may ignore: "the same memory arguments as
     *  an earlier run with this id". 0 promises nothing. Two runs on the
     *  same device with the same nonzero args_id have the same arg_count,
     *  the same ids in the same order, the same is_mem, and for each
     *  memory argument the same mem, offset and size (the same
     *  allocation, still allocated); only scalars' values may differ. The
     *  core gives out a new id whenever that could change (another
     *  buffer, a kernel relaunched from other arguments), and never gives
     *  an id again while the device is open, so a port may keep what it
     *  set for an id (per run object, per unit) and skip setting and
     *  comparing memory arguments when it sees the id again. A port that
     *  keeps nothing reads args as always. */
    uint32_t args_id;
    const axl_hal_arg *args;  /**< sorted by id */
    axl_range range;          /**< parallel_for range; {1,{1,1,1}} for single_task */
    uint64_t timeout_ns;      /**< 0: none */
} axl_hal_run;

/* ---- Pipelines (axl/pipeline.h) ------------------------------------------ */

/** What a unit of a pipeline is to the port. */
enum axl_hal_unit_kind {
    AXL_HAL_UNIT_COMMAND = 0,      /**< runs the core's runs (run_start) */
    AXL_HAL_UNIT_FREE_RUNNING = 1, /**< ap_ctrl_none: runs from the fabric's
                                        reset; its scalars are read all the
                                        time */
    AXL_HAL_UNIT_AUTO_RESTART = 2  /**< ap_ctrl_chain started with
                                        auto_restart (control bit 7) */
};

/** One unit of a pipeline. */
typedef struct axl_hal_pipeline_unit {
    uint32_t ip_index;     /**< IP_LAYOUT index */
    uint32_t kernel_index; /**< its kernel in the image's XML */
    uint32_t kind;         /**< axl_hal_unit_kind */
    const char *name;      /**< its instance ("sadd_1"), for messages */
    /** Auto-restart: iterations the port saw end since its start
     *  (axl_pipeline_unit_info.iterations says what each port counts).
     *  Written by the port, read by the core, with __atomic builtins
     *  (relaxed). */
    uint32_t iterations;
} axl_hal_pipeline_unit;

/**
 * A pipeline as the core hands it to the port (pipeline_open to
 * pipeline_close): a connected part of the design's stream graph, its
 * units in start order (consumers first) and its streams. The core owns
 * it; the port keeps a pointer while it is open.
 */
typedef struct axl_hal_pipeline {
    uint32_t number;       /**< "pipeline <number>" in messages */
    const axl_xclbin *image;
    uint32_t unit_count;
    axl_hal_pipeline_unit *units;
    uint32_t stream_count;
    const uint32_t *streams; /**< axl_xclbin_get_stream indices */
    /** Under the runtime lock (axl_port_lock), which a port takes for its
     *  own short sections. queued: commands on the pipeline's units that
     *  the core has and the port has not been given yet (run_start), and
     *  one while a graph's replay has the pipeline started: while it is
     *  not 0 more work is coming, so a port that looks for deadlocks does
     *  not call one; the core wakes AXL_PORT_CHANNEL_DEVICE when it falls.
     *  The core moves it with __atomic builtins, so a port may read it
     *  with __atomic_load_n without the lock. failed and why: the port gave up on the pipeline (a
     *  deadlock), written by the port. */
    uint32_t queued;
    uint32_t failed;
    char why[AXL_MESSAGE_MAX];
    void *port;            /**< the port's, from pipeline_open */
} axl_hal_pipeline;

/** unit_stop's `how`. */
enum axl_hal_stop {
    /** Auto-restart: clear it and wait for the unit to go idle, resetting
     *  it past the timeout; free-running: leave it running; a command
     *  unit: nothing (the core waits for its run). */
    AXL_HAL_STOP = 0,
    /** Any unit: ap_sw_reset, else the board's reset hook (the emulated
     *  device ends its model); a run on it ends (run_done, failed). */
    AXL_HAL_RESET = 1,
    /** Close (the pipeline is let go of): auto-restart cleared, and a
     *  unit not idle at once is reset (the emulated device ends its model
     *  at its next stream op), which is no failure; the emulated device
     *  ends free-running models too (a board leaves them running). */
    AXL_HAL_CLOSE = 2
};

/**
 * A device port. Required ops: probe, open, close, describe, bank. The rest
 * are optional: NULL means the feature is missing and the core reports
 * AXL_ERR_FEATURE_NOT_SUPPORTED (or uses the documented fallback).
 * Device memory is mem_alloc, mem_write and mem_read, all three or none
 * (mem_copy needs them; mem_free may be NULL). Without run_start the device
 * runs no kernel, its built-in design included. Registration checks this
 * once and refuses a port that breaks it, naming the op (the board's own
 * ports are checked by a test); the core calls ports through core/devops.h
 * only.
 */
typedef struct axl_device_port {
    const char *name;             /**< short, for messages: "emu", "xrt" */
    const char *platform_name;    /**< info::platform::name */
    const char *platform_vendor;  /**< info::platform::vendor */
    const char *platform_version; /**< info::platform::version */
    axl_backend backend;

    /** How many devices there are. A port that cannot look (no driver, no
     *  environment) reports 0 and says why in `why`; that is not an error. */
    axl_status (*probe)(uint32_t *count, char *why, size_t why_size);
    /** Opens device `index` (< count); *dev is the port's state for it. */
    axl_status (*open)(uint32_t index, void **dev);
    void (*close)(void *dev);
    /** Fills info; called at open and again after load_image(). */
    axl_status (*describe)(void *dev, axl_hal_device_info *info);
    /** Bank `index` (< info.bank_count). */
    axl_status (*bank)(void *dev, uint32_t index, axl_hal_bank *out);

    /** Programs the device with an image the core has already checked.
     *  The image and its bytes are valid during the call only (an image
     *  built from source is the application's, which may free it once its
     *  bundles are gone): a port copies what it reports later, such as
     *  its banks' tags. */
    axl_status (*load_image)(void *dev, const axl_xclbin *image, char *why,
                             size_t why_size);
    /** Optional: whether the device can run kernel `kernel_index` of an
     *  image (the emulator: it has a model for it). NULL: a device that
     *  can load images runs all their kernels. The one op called WITH the
     *  runtime lock held: it must answer from memory, without blocking,
     *  taking axl_port_lock or calling back into axl. */
    bool (*kernel_compatible)(void *dev, const axl_xclbin *image,
                              uint32_t kernel_index);
    /** Optional, with kernel_compatible: what an application does so that
     *  a kernel it refused can run (the emulator: register a C model), a
     *  short phrase (messages are AXL_MESSAGE_MAX bytes) the core's
     *  messages quote after the device's name. */
    const char *kernel_fix;

    /** Allocates size bytes in a bank. user_ptr, when not NULL, asks for an
     *  allocation over that host memory (zero copy); a port that cannot do
     *  it returns AXL_ERR_FEATURE_NOT_SUPPORTED and the core copies. */
    axl_status (*mem_alloc)(void *dev, uint32_t bank, uint64_t size,
                            void *user_ptr, axl_hal_mem *out);
    void (*mem_free)(void *dev, axl_hal_mem *mem);
    /** Optional: what bank `bank` holds now, for the message of an
     *  allocation that failed (AXL_ERR_MEMORY_ALLOCATION: the bank's size,
     *  what is free, the largest block). Called without the lock. NULL:
     *  the message says only the bank's size. */
    axl_status (*mem_usage)(void *dev, uint32_t bank, axl_hal_bank_usage *out);
    /** Host to device and back, including any cache or BO sync. Blocking. */
    axl_status (*mem_write)(void *dev, axl_hal_mem *mem, uint64_t offset,
                            const void *src, uint64_t size);
    axl_status (*mem_read)(void *dev, axl_hal_mem *mem, uint64_t offset,
                           void *dst, uint64_t size);
    /** Optional: device to device in one device. NULL: the core bounces
     *  through host memory. */
    axl_status (*mem_copy)(void *dev, axl_hal_mem *dst, uint64_t dst_offset,
                           axl_hal_mem *src, uint64_t src_offset,
                           uint64_t size);

    /** Optional: opens compute unit `cu` of a kernel once, before its first
     *  run, so run_start() does no lookup. */
    axl_status (*cu_open)(void *dev, const axl_xclbin *image,
                          uint32_t kernel_index, uint32_t ip_index,
                          uintptr_t *cu_handle);
    void (*cu_close)(void *dev, uintptr_t cu_handle);

    /** Starts a run. The port reports its end with axl_hal_run_done(),
     *  possibly before run_start returns. A failure returned here means the
     *  run never started (and run_done must not be called). */
    axl_status (*run_start)(void *dev, const axl_hal_run *run);
    /** Optional: gives up on a run that passed its timeout (the core
     *  has already failed its command with AXL_ERR_TIMEOUT). The run
     *  still ends with exactly one axl_hal_run_done, whose status is then
     *  ignored: from inside run_cancel only when nothing the run was
     *  given can be touched any more (a unit a reset left idle, a model
     *  that has returned), else when that becomes true (an emulated model
     *  that returns late, a run the driver sees end, a unit the board
     *  resets). Until then the run and its memory stay valid: the core
     *  keeps the buffers it was given, and their device memory, even
     *  after the application releases them, and the unit takes no other
     *  run. Called without the lock, never while run_start for the run
     *  is still inside the port, at most once per run; it must not
     *  block. NULL: the core waits for the run's axl_hal_run_done as it
     *  is. */
    void (*run_cancel)(void *dev, const axl_hal_run *run);
    /** Optional, with run_cancel: what brings back a unit whose cancelled
     *  run run_cancel did not report, a short phrase the core's messages
     *  quote after naming the unit and its IP_LAYOUT index. Set, it says
     *  such a run may never end by itself (a hung IP): the core does not
     *  wait for it, so a launch that only such units could take fails
     *  (AXL_ERR_RUNTIME), and so does the creation of an object whose
     *  pool is full of slots only such runs keep (AXL_ERR_OUT_OF_
     *  RESOURCES), each naming the unit and this phrase. NULL: a
     *  cancelled run ends by itself (an emulated model returning late),
     *  and is waited for. */
    const char *unit_fix;
    /** Optional: drives completions for ports without their own thread or
     *  interrupt, or lets a waiting thread reap them sooner than such a
     *  thread would. A wait calls it, with no lock held, instead of
     *  sleeping while one of the device's units runs; it reports what has
     *  finished (axl_hal_run_done) and returns by deadline_ns (on the
     *  device's clock: now below for a device with a clock of its own,
     *  else axl_hal_now()'s; UINT64_MAX: no deadline), or at once if it
     *  has nothing to wait for. */
    void (*progress)(void *dev, uint64_t deadline_ns);
    /** Optional: the clock of a device whose describe() sets
     *  AXL_HAL_DEVICE_OWN_CLOCK, in nanoseconds, never going back (a
     *  model's simulated time). The core then times that device's
     *  commands (profiling, trace) and its kernels' timeouts by it, and
     *  gives progress deadlines on it; such a progress may return after a
     *  bounded stretch of the device's time with nothing ended, so that a
     *  waiter can look at the host's clock and other devices. Called with
     *  the runtime lock held: it answers from memory, without blocking. */
    uint64_t (*now)(void *dev);

    /** Optional: register
     *  access to any IP of the design the device carries (axl/ip.h).
     *  ip_open readies IP `ip_index` of image (its IP_LAYOUT entry `ip`)
     *  for access, *handle the port's (0 allowed); a failure says why
     *  with axl_fail. ip_close undoes it. ip_read32 and ip_write32 reach
     *  one 32-bit register at byte `offset` of the IP's control space:
     *  the core has checked that it is 4-aligned and inside the IP's
     *  range. ip_wait returns AXL_SUCCESS once the IP has raised its
     *  interrupt since it was opened or since the last ip_wait returned
     *  (and acknowledges it), AXL_ERR_TIMEOUT when timeout_ns pass first
     *  (UINT64_MAX: none); it may block and must return by the deadline;
     *  AXL_ERR_FEATURE_NOT_SUPPORTED with a message where the port cannot
     *  wait. Called without the runtime lock; the core keeps the design
     *  on the device while an IP is open. ip_open, ip_close, ip_read32
     *  and ip_write32 come all four or none (registration checks it);
     *  ip_wait may be NULL on its own. NULL: the device gives no access
     *  to registers (AXL_ERR_FEATURE_NOT_SUPPORTED). */
    axl_status (*ip_open)(void *dev, const axl_xclbin *image,
                          uint32_t ip_index, const axl_xclbin_ip *ip,
                          uintptr_t *handle);
    void (*ip_close)(void *dev, uintptr_t handle);
    axl_status (*ip_read32)(void *dev, uintptr_t handle, uint32_t offset,
                            uint32_t *value);
    axl_status (*ip_write32)(void *dev, uintptr_t handle, uint32_t offset,
                             uint32_t value);
    axl_status (*ip_wait)(void *dev, uintptr_t handle, uint64_t timeout_ns);

    /** Optional: streaming pipelines (axl/pipeline.h), called without the
     *  runtime lock. pipeline_open, pipeline_close, unit_start and
     *  unit_stop come all four or none (registration checks it); NULL:
     *  the device runs no pipeline (AXL_ERR_FEATURE_NOT_SUPPORTED at
     *  axl_pipeline_create).
     *  - pipeline_open readies the port for p (the emulated device: its
     *    units' workers, its FIFOs' owner); a failure says why with
     *    axl_fail. pipeline_close undoes it (after a stop).
     *  - unit_start starts unit `unit` (an index into p->units, a free-
     *    running or auto-restart one) with its scalars: free-running, the
     *    scalars written; auto-restart, the scalars then ap_start with
     *    auto_restart. The core calls it for each such unit in p's order.
     *  - unit_update gives a running unit a new scalar: free-running, at
     *    once; auto-restart, through its mailbox, AXL_SUCCESS once an
     *    iteration that started after it has taken it, AXL_ERR_TIMEOUT
     *    (with a message) when none did within timeout_ns (the device's
     *    clock). NULL: AXL_ERR_FEATURE_NOT_SUPPORTED.
     *  - unit_stop (axl_hal_stop): AXL_ERR_TIMEOUT with a message naming
     *    what the unit waited on when it did not stop within timeout_ns
     *    (then it was reset).
     *  - pipeline_drained waits until p's FIFOs are empty:
     *    AXL_ERR_TIMEOUT naming one that is not and its fill. NULL: the
     *    port cannot see them (AXL_ERR_FEATURE_NOT_SUPPORTED). */
    axl_status (*pipeline_open)(void *dev, axl_hal_pipeline *p);
    void (*pipeline_close)(void *dev, axl_hal_pipeline *p);
    axl_status (*unit_start)(void *dev, axl_hal_pipeline *p, uint32_t unit,
                             const axl_hal_arg *args, uint32_t arg_count);
    axl_status (*unit_update)(void *dev, axl_hal_pipeline *p, uint32_t unit,
                              const axl_hal_arg *arg, uint64_t timeout_ns);
    axl_status (*unit_stop)(void *dev, axl_hal_pipeline *p, uint32_t unit,
                            uint32_t how, uint64_t timeout_ns);
    axl_status (*pipeline_drained)(void *dev, axl_hal_pipeline *p,
                                   uint64_t timeout_ns);
    /** Optional, without pipeline_open: why the port runs no pipeline, a
     *  short phrase axl_pipeline_create's refusal quotes after naming the
     *  device ("XRT's xrt::kernel refuses ap_ctrl_none units ..."). NULL:
     *  the refusal says the port cannot start free-running or
     *  auto-restart units. */
    const char *no_pipelines;

    /** Optional, with AXL_HAL_DEVICE_SWAPS (issue 40,
     *  docs/designs-design.md 2.3, 2.8): loads an image the core has
     *  checked into region *region (0: the whole fabric, the only one
     *  until DFX slots; out: the region used), keeping every live
     *  allocation, its bytes and its axl_hal_mem, and never renumbering
     *  banks (unlike load_image, which may lay the banks out again). A
     *  port may make the memory under a handle again (the XRT port parks
     *  its BOs around the load) where its units are given the handle, not
     *  device_address, which it then need not keep. Called without the
     *  lock, never from a completion, once no run is out on the region
     *  and every unit handle of it is closed; describe() is called after
     *  it. Data commands (mem_read, mem_write, mem_copy, mem_alloc,
     *  mem_free) may run meanwhile: a port that moves memory serialises
     *  them with the load itself. */
#if !defined(AXL_FEATURE_DESIGN_SWAP) || AXL_FEATURE_DESIGN_SWAP
    /* A build given AXL_FEATURE_DESIGN_SWAP=0 (the zcu102-r5 board's
     * board.cmake, for every file it compiles) never calls it: a port
     * descriptor keeps its size. */
    axl_status (*region_load)(void *dev, uint32_t *region,
                              const axl_xclbin *image, char *why,
                              size_t why_size);
    /** Optional, with region_count > 1 in describe(): region `index`
     *  (1..region_count - 1: the shell's slots). */
    axl_status (*region)(void *dev, uint32_t index, axl_hal_region *out);
#endif
} axl_device_port;

/**
 * Adds a device port before the runtime starts (before the first axl call,
 * or after axl_shutdown()). The ports the board lists are added by
 * themselves; this is for ports an application or a test brings. Checks the
 * required ops.
 */
axl_status axl_device_port_register(const axl_device_port *port);

/**
 * A device port reports the end of a run. status AXL_SUCCESS or a failure
 * with `why` (copied; may be NULL). Safe from any thread and, on bare metal,
 * from an interrupt handler (it then only records the completion; the next
 * wait dispatches what became ready). Exactly once per run that run_start
 * started, cancelled or not: the unit is free again only then. It never
 * changes the calling thread's message (axl_last_message).
 */
void axl_hal_run_done(void *token, axl_status status, const char *why);

/**
 * The port's state for one of its devices (what open() returned): how a
 * port's interop functions (SYCL 4.5.1 get_native) reach their own handles.
 * AXL_ERR_BACKEND_MISMATCH when the device belongs to another port.
 */
axl_status axl_hal_device_data(axl_device device, const axl_device_port *port,
                               void **data);

/**
 * The allocation behind a buffer (or sub-buffer) on a device of `port`,
 * and the view's byte offset in it: how a port's interop reaches its native
 * buffer. AXL_ERR_INVALID when the buffer has no storage on that device.
 * Valid while the buffer lives.
 */
axl_status axl_hal_buffer_mem(axl_buffer buffer, axl_device device,
                              const axl_device_port *port,
                              const axl_hal_mem **mem, uint64_t *offset);

/**
 * The cu_open() handle of compute unit `cu` of a kernel on a device of
 * `port`, opening the unit if no command has yet. AXL_ERR_KERNEL_NOT_
 * SUPPORTED when the device does not carry the kernel's image,
 * AXL_ERR_INVALID past its last unit. Valid until the device is
 * reprogrammed or the runtime stops.
 */
axl_status axl_hal_kernel_cu(axl_kernel kernel, axl_device device,
                             const axl_device_port *port, uint32_t cu,
                             uintptr_t *cu_handle);

/**
 * Takes in a device whose port state the port built itself (make_device
 * from a native handle, SYCL 4.5.1.3): the core describes it as at open,
 * adds it to the port's platform and closes it at axl_shutdown. The same
 * data gives the same device. AXL_ERR_OUT_OF_RESOURCES when the device
 * pool is full; AXL_ERR_INVALID when the port is not one of the runtime's.
 */
axl_status axl_hal_device_adopt(const axl_device_port *port, void *data,
                                axl_device *device);

/**
 * A log line from a device port (level: axl_log_level, axl/trace.h), which
 * the core formats and hands to the sink axl_log_set gave, as it does its
 * own lines ("axl: warn: ..."): below the level set, nothing happens. Safe
 * from any thread without the runtime lock; not with it held (the sink is
 * called with it).
 */
void axl_hal_log(int level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/** The runtime's clock (axl_clock_set() may replace the port's clock). */
uint64_t axl_hal_now(void);

/* ------------------------------------------------------------------------ */
/* Checked size arithmetic                                                   */
/* ------------------------------------------------------------------------ */

/* Every size the core, a port or a kernel model computes from what an
 * application gave (element size x range, offset + length, dim x dim x 4)
 * goes through these: *out = a * b (a + b, a * b * c) and true, or false
 * with *out untouched when the exact result does not fit in 64 bits. A
 * caller then fails with a message instead of checking a wrapped size. */
static inline bool axl__mul_size(uint64_t a, uint64_t b, uint64_t *out)
{
    if (a && b > UINT64_MAX / a)
        return false;
    *out = a * b;
    return true;
}

static inline bool axl__add_size(uint64_t a, uint64_t b, uint64_t *out)
{
    if (b > UINT64_MAX - a)
        return false;
    *out = a + b;
    return true;
}

static inline bool axl__mul3_size(uint64_t a, uint64_t b, uint64_t c,
                                  uint64_t *out)
{
    uint64_t ab;
    return axl__mul_size(a, b, &ab) && axl__mul_size(ab, c, out);
}

/* ------------------------------------------------------------------------ */
/* A bounded allocator for ports and the core                                */
/* ------------------------------------------------------------------------ */

/**
 * First-fit over a fixed region, with the bookkeeping outside the region (a
 * table of blocks the caller provides), so device memory holds only data
 * and a kernel that overruns its buffer cannot corrupt the allocator. Each
 * call is O(blocks). Not thread-safe: callers serialise (a device port may
 * take axl_port_lock() around it; the core never holds that lock while it
 * calls a port op).
 */
typedef struct axl_arena_block {
    uint64_t offset;
    uint64_t size;
} axl_arena_block;

typedef struct axl_arena {
    unsigned char *base;      /**< NULL for an address space without storage */
    uint64_t size;
    uint64_t align;           /**< power of two */
    axl_arena_block *blocks;  /**< allocated blocks, sorted by offset */
    uint32_t max_blocks;
    uint32_t nblocks;
    uint64_t in_use;          /**< bytes */
    uint64_t high_water;
    uint32_t failures;
} axl_arena;

void axl_arena_init(axl_arena *a, void *base, uint64_t size, uint64_t align,
                    axl_arena_block *blocks, uint32_t max_blocks);
/** AXL_ERR_MEMORY_ALLOCATION when no gap fits or the block table is full. */
axl_status axl_arena_alloc(axl_arena *a, uint64_t size, uint64_t *offset);
/** AXL_ERR_INVALID for an offset that is not the start of a block. */
axl_status axl_arena_free(axl_arena *a, uint64_t offset);
/** The largest block axl_arena_alloc could return now. */
uint64_t axl_arena_largest_free(const axl_arena *a);

#ifdef __cplusplus
}
#endif

#endif /* AXL_HAL_H */
