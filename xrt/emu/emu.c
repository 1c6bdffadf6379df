/*
 * xrt/emu - the emulated device: a device port with no XRT behind it.
 *
 * Each device has AXL_EMU_BANKS static arenas as memory banks. It runs a
 * compute unit by calling the C model registered for the kernel's name
 * (include/axl/emu.h). Where that happens is the dispatch mode:
 *
 *  - asynchronous (the default), as a board runs kernels: on a hosted
 *    build each compute unit has a worker thread of its own (started at
 *    its first run, joined at shutdown), so run_start only hands the run
 *    over, submit returns at once and units overlap; on bare metal
 *    (AXL_EMU_HOSTED 0) the model runs from the port's progress op, which
 *    waits call;
 *  - deterministic (axl_emu_set_deterministic, or AXL_EMU_DETERMINISTIC=1
 *    in the environment of a hosted build): the model runs inside
 *    run_start on the dispatching thread, in submission order, and a
 *    debugger steps straight into it.
 *
 * The runtime clock (axl_clock_set) times runs, so a fixed clock gives
 * fixed timelines in the deterministic mode.
 */
#include <stdatomic.h>
#include <stdlib.h> /* getenv, on hosted builds */
#include <string.h>

#include "axl/emu.h"
#include "axl/hal.h"
#include "axl/runtime.h"
#include "emu_config.h"
#include "emu_models.h"

#if defined(AXL_EMU_BUILTIN)
#include "axl_emu_builtin.h"
#endif
#if defined(AXL_EMU_BUILTIN_DESIGN)
/* The board's design pre-digested (boards/designs/, axl-xclbin design). */
extern const axl_xclbin_design AXL_EMU_BUILTIN_DESIGN;
#endif

typedef struct emu_bank {
    axl_arena arena;
    axl_arena_block blocks[AXL_EMU_BANK_ALLOCS];
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
    void *ptr[AXL_EMU_MAX_ARGS];
} emu_unit;

typedef struct emu_device {
    uint32_t index;
    int open;
    uint32_t epoch;             /* this open; a worker of an older one ends */
    emu_unit units[AXL_EMU_UNITS];
    emu_bank banks[AXL_EMU_BANKS];
    /* What it keeps of the design it carries, copied at load_image: the
     * image's bytes are the application's and need not outlive the bundle
     * that loaded them (hal.h, load_image), so nothing later reads them.
     * Image MEM_TOPOLOGY index of each bank (the used banks of the loaded
     * design, in order), or the bank's own index with no design; and each
     * bank's tag ("" when the design does not name it). */
    bool has_design;
    uint32_t bank_mem[AXL_EMU_BANKS];
    char bank_tag[AXL_EMU_BANKS][sizeof ((axl_hal_bank *)0)->tag];
    uint64_t bank_base[AXL_EMU_BANKS]; /* its MEM_TOPOLOGY base address */
} emu_device;

static emu_device devices[AXL_EMU_DEVICES];

/* The banks' storage: static, aligned for any element type and for DMA. */
static _Alignas(64) unsigned char
    storage[AXL_EMU_DEVICES][AXL_EMU_BANKS][AXL_EMU_BANK_SIZE];

static axl_status emu_probe(uint32_t *count, char *why, size_t why_size)
{
    (void)why;
    (void)why_size;
    *count = AXL_EMU_DEVICES;
    return AXL_SUCCESS;
}

/* ---- Models --------------------------------------------------------------- */

typedef struct emu_model {
    char name[AXL_EMU_NAME_MAX];
    axl_emu_model_fn fn;
    void *user;
} emu_model;

static emu_model models[AXL_EMU_MAX_MODELS];
static unsigned nmodels;
static int stock_registered;

static void register_stock_locked(void);

static emu_model *find_model(const char *name, size_t len)
{
    for (unsigned i = 0; i < nmodels; i++)
        if (strlen(models[i].name) == len && !memcmp(models[i].name, name, len))
            return &models[i];
    return NULL;
}

static axl_status add_model(const char *kernel, axl_emu_model_fn fn,
                            void *user)
{
    size_t len = strlen(kernel);
    emu_model *m = find_model(kernel, len);
    if (!m) {
        if (nmodels == AXL_EMU_MAX_MODELS)
            return emu_fail(AXL_ERR_OUT_OF_RESOURCES,
                            "axl_emu_register_model: %u models already "
                            "(AXL_EMU_MAX_MODELS)",
                            (unsigned)AXL_EMU_MAX_MODELS);
        m = &models[nmodels++];
        memcpy(m->name, kernel, len + 1);
    }
    m->fn = fn;
    m->user = user;
    return AXL_SUCCESS;
}

static void register_stock_locked(void)
{
    if (stock_registered)
        return;
    stock_registered = 1;
    for (const axl_emu_stock_model *s = axl_emu_stock_models; s->name; s++)
        add_model(s->name, s->fn, NULL);
}

axl_status axl_emu_register_model(const char *kernel, axl_emu_model_fn fn,
                                  void *user)
{
    if (!kernel || !kernel[0] || strlen(kernel) >= AXL_EMU_NAME_MAX)
        return emu_fail(AXL_ERR_INVALID,
                        "axl_emu_register_model: the name needs 1..%u "
                        "characters",
                        (unsigned)AXL_EMU_NAME_MAX - 1);
    axl_port_lock();
    register_stock_locked();
    axl_status st = AXL_SUCCESS;
    if (fn) {
        st = add_model(kernel, fn, user);
    } else {
        /* NULL: back to the stock model, or no model at all. */
        emu_model *m = find_model(kernel, strlen(kernel));
        const axl_emu_stock_model *stock = axl_emu_stock_models;
        while (stock->name && strcmp(stock->name, kernel))
            stock++;
        if (m && stock->name) {
            m->fn = stock->fn;
            m->user = NULL;
        } else if (m) {
            *m = models[--nmodels];
        }
    }
    axl_port_unlock();
    return st;
}

/* The model of a kernel; the caller holds axl_port_lock. */
static emu_model *model_for_locked(const axl_xclbin *x, uint32_t kernel_index)
{
    axl_xclbin_kernel k;
    if (axl_xclbin_get_kernel(x, kernel_index, &k) != AXL_SUCCESS)
        return NULL;
    register_stock_locked();
    return find_model(k.name.ptr, k.name.len);
}

static emu_model *model_for(const axl_xclbin *x, uint32_t kernel_index)
{
    axl_port_lock();
    emu_model *m = model_for_locked(x, kernel_index);
    axl_port_unlock();
    return m;
}

/* What the mmio port's register-level simulator runs when a unit starts
 * (xrt/mmio/sim.c): the same models, registered or stock. */
int axl__emu_model_find(const char *name, size_t len, axl_emu_model_fn *fn,
                        void **user)
{
    axl_port_lock();
    register_stock_locked();
    emu_model *m = find_model(name, len);
    if (m) {
        *fn = m->fn;
        *user = m->user;
    }
    axl_port_unlock();
    return m != NULL;
}

/* The same, with axl_port_lock already held (kernel_compatible). */
int axl__emu_has_model_locked(const char *name, size_t len)
{
    register_stock_locked();
    return find_model(name, len) != NULL;
}

/* ---- The built-in design ------------------------------------------------------ */

static const void *builtin_bytes;
static size_t builtin_size;
static const axl_xclbin_design *builtin_design;
static int builtin_set;

axl_status axl_emu_set_builtin_image(const void *bytes, size_t size)
{
    builtin_bytes = bytes;
    builtin_size = bytes ? size : 0;
    builtin_design = NULL;
    builtin_set = 1;
    return AXL_SUCCESS;
}

axl_status axl_emu_set_builtin_design(const axl_xclbin_design *design)
{
    builtin_bytes = NULL;
    builtin_size = 0;
    builtin_design = design;
    builtin_set = 1;
    return AXL_SUCCESS;
}

static void builtin_image(const void **bytes, size_t *size);

void axl__emu_builtin_image(const void **bytes, size_t *size)
{
    builtin_image(bytes, size);
}

const axl_xclbin_design *axl__emu_builtin_design(void)
{
    if (builtin_set)
        return builtin_design;
#if defined(AXL_EMU_BUILTIN_DESIGN)
    return &AXL_EMU_BUILTIN_DESIGN;
#else
    return NULL;
#endif
}

static void builtin_image(const void **bytes, size_t *size)
{
    if (builtin_set) {
        *bytes = builtin_bytes;
        *size = builtin_size;
        return;
    }
#if defined(AXL_EMU_BUILTIN)
    *bytes = axl_emu_builtin;
    *size = axl_emu_builtin_size;
#else
    *bytes = NULL;
    *size = 0;
#endif
}

/* Banks follow the used banks of the design, in MEM_TOPOLOGY order; their
 * tags are copied (image NULL: no design). */
static void map_banks(emu_device *d, const axl_xclbin *image)
{
    uint32_t b = 0;
    d->has_design = image != NULL;
    memset(d->bank_tag, 0, sizeof d->bank_tag);
    for (uint32_t m = 0; image && m < image->mem_count && b < AXL_EMU_BANKS;
         m++) {
        axl_xclbin_mem mem;
        if (axl_xclbin_get_mem(image, m, &mem) != AXL_SUCCESS || !mem.used)
            continue;
        axl_format(d->bank_tag[b], sizeof d->bank_tag[b], "%.*s",
                   (int)mem.tag.len, mem.tag.ptr);
        d->bank_base[b] = mem.base_address;
        d->bank_mem[b++] = m;
    }
    for (; b < AXL_EMU_BANKS; b++)
        d->bank_mem[b] = image ? UINT32_MAX : b;
}

static uint32_t epochs; /* opens so far, under the runtime lock */

static axl_status emu_open(uint32_t index, void **dev)
{
    emu_device *d = &devices[index];
    /* Called with the runtime lock held (the core starts up under it). */
    memset(d, 0, sizeof *d);
    d->index = index;
    d->open = 1;
    d->epoch = ++epochs;
    for (unsigned u = 0; u < AXL_EMU_UNITS; u++) {
        d->units[u].ip = UINT32_MAX;
        d->units[u].dev = d;
    }
    map_banks(d, NULL);
    for (uint32_t b = 0; b < AXL_EMU_BANKS; b++)
        axl_arena_init(&d->banks[b].arena, storage[index][b],
                       AXL_EMU_BANK_SIZE, AXL_EMU_MEM_ALIGN_BITS / 8,
                       d->banks[b].blocks, AXL_EMU_BANK_ALLOCS);
    *dev = d;
    return AXL_SUCCESS;
}

static void emu_close(void *dev)
{
    emu_device *d = dev;
    unsigned join[AXL_EMU_UNITS], detach[AXL_EMU_UNITS], nj = 0, nd = 0;
    axl_port_lock();
    /* A worker inside axl_hal_run_done finishes that first. */
    for (unsigned u = 0; u < AXL_EMU_UNITS; u++)
        while (d->units[u].reporting)
            axl_port_wait(AXL_PORT_CHANNEL_DEVICE, UINT64_MAX);
    for (unsigned u = 0; u < AXL_EMU_UNITS; u++) {
        emu_unit *x = &d->units[u];
        x->stop = true;
        if (!x->thread)
            continue;
        /* A worker still in a model (a run given up for its timeout) is
         * left to end by itself: it sees the new epoch and reports
         * nothing. */
        if (x->state == UNIT_RUNNING)
            detach[nd++] = x->thread;
        else
            join[nj++] = x->thread;
        x->thread = 0;
    }
    d->epoch = ++epochs;
    d->open = 0;
    axl_port_wake(AXL_PORT_CHANNEL_DEVICE);
    axl_port_unlock();
    for (unsigned i = 0; i < nj; i++)
        axl_port_thread_join(join[i]);
    for (unsigned i = 0; i < nd; i++)
        axl_port_thread_detach(detach[i]);
}

static axl_status emu_describe(void *dev, axl_hal_device_info *info)
{
    const emu_device *d = dev;
    memset(info, 0, sizeof *info);
    axl_format(info->name, sizeof info->name, "axl emulated FPGA %u",
               (unsigned)d->index);
    axl_format(info->vendor, sizeof info->vendor, "axl");
    axl_format(info->driver_version, sizeof info->driver_version, "0.1");
    axl_format(info->backend_version, sizeof info->backend_version,
               "axl-emu 0.1 (C models)");
    info->vendor_id = 0;
    /* An accelerator like the board it stands in for, so the same selectors
     * pick it in CI; aspect::emulated tells the two apart. */
    info->type = AXL_DEVICE_TYPE_ACCELERATOR;
    info->flags = AXL_HAL_DEVICE_AVAILABLE | AXL_HAL_DEVICE_EMULATED |
                  AXL_HAL_DEVICE_PROFILING | AXL_HAL_DEVICE_REPROGRAMMABLE;
    info->mem_base_addr_align = AXL_EMU_MEM_ALIGN_BITS;
    info->max_clock_mhz = 300;
    info->bank_count = AXL_EMU_BANKS;
    info->global_mem_size = (uint64_t)AXL_EMU_BANKS * AXL_EMU_BANK_SIZE;
    info->max_mem_alloc_size = AXL_EMU_BANK_SIZE;
    info->timer_resolution_ns = axl_port_clock_resolution_ns();
    builtin_image(&info->builtin_image, &info->builtin_image_size);
    info->builtin_design = axl__emu_builtin_design();
    return AXL_SUCCESS;
}

static axl_status emu_bank_info(void *dev, uint32_t index, axl_hal_bank *out)
{
    const emu_device *d = dev;
    memset(out, 0, sizeof *out);
    /* A bank of the design has its MEM_TOPOLOGY tag and base address
     * (what the design's addresses mean); one without, the stock images'
     * layout. Its size is what is emulated. */
    if (d->has_design && d->bank_mem[index] != UINT32_MAX) {
        memcpy(out->tag, d->bank_tag[index], sizeof out->tag);
        out->base_address = d->bank_base[index];
    } else {
        out->base_address = 0x4000000000ull + (uint64_t)index * 0x10000000ull;
    }
    if (!out->tag[0])
        axl_format(out->tag, sizeof out->tag, "bank%u", (unsigned)index);
    out->size = AXL_EMU_BANK_SIZE;
    out->image_index = d->bank_mem[index];
    return AXL_SUCCESS;
}

/* ---- Designs and runs ------------------------------------------------------------ */

static axl_status emu_load_image(void *dev, const axl_xclbin *image,
                                 char *why, size_t why_size)
{
    /* Each used bank of the design is one of the device's static arenas:
     * a design with more is refused here, when its bundle is obtained (or
     * at start-up for the board's design), not later by a placement. */
    uint32_t used = 0;
    for (uint32_t m = 0; image && m < image->mem_count; m++) {
        axl_xclbin_mem mem;
        if (axl_xclbin_get_mem(image, m, &mem) == AXL_SUCCESS && mem.used)
            used++;
    }
    if (used > AXL_EMU_BANKS) {
#if AXL_MESSAGES
        axl_format(why, why_size,
                   "the design uses %u memory banks, AXL_EMU_BANKS is %u: "
                   "raise it (-DAXL_EMU_BANKS=%u)",
                   (unsigned)used, (unsigned)AXL_EMU_BANKS, (unsigned)used);
#else
        (void)why;
        (void)why_size;
#endif
        return AXL_ERR_OUT_OF_RESOURCES;
    }
    emu_device *d = dev;
    map_banks(d, image);
    /* Idle units serve the new design's units from their next run. */
    axl_port_lock();
    for (unsigned u = 0; u < AXL_EMU_UNITS; u++)
        if (d->units[u].state == UNIT_IDLE && !d->units[u].reporting)
            d->units[u].ip = UINT32_MAX;
    axl_port_unlock();
    return AXL_SUCCESS;
}

static bool emu_kernel_compatible(void *dev, const axl_xclbin *image,
                                  uint32_t kernel_index)
{
    (void)dev;
    /* Called with the runtime lock held (see hal.h). */
    return model_for_locked(image, kernel_index) != NULL;
}

static axl_status emu_cu_open(void *dev, const axl_xclbin *image,
                              uint32_t kernel_index, uint32_t ip_index,
                              uintptr_t *cu_handle)
{
    (void)dev;
    (void)ip_index;
    emu_model *m = model_for(image, kernel_index);
    if (!m) {
        axl_xclbin_kernel k;
        axl_xclbin_get_kernel(image, kernel_index, &k);
        return emu_fail(AXL_ERR_KERNEL_NOT_SUPPORTED,
                        "the emulated device has no model for kernel %.*s "
                        "(axl_emu_register_model)",
                        (int)k.name.len, k.name.ptr);
    }
    *cu_handle = (uintptr_t)m;
    return AXL_SUCCESS;
}

/* ---- Dispatch -------------------------------------------------------------------- */

/* -1: not chosen yet (the environment says, at the first run); atomic:
 * read by every run_start, without the lock. */
static _Atomic int deterministic = -1;

axl_status axl_emu_set_deterministic(bool on)
{
    atomic_store_explicit(&deterministic, on, memory_order_relaxed);
    return AXL_SUCCESS;
}

static bool is_deterministic(void)
{
    int mode = atomic_load_explicit(&deterministic, memory_order_relaxed);
    if (mode < 0) {
        const char *v = NULL;
#if AXL_EMU_HOSTED
        v = getenv("AXL_EMU_DETERMINISTIC");
#endif
        mode = v && v[0] && strcmp(v, "0") != 0;
        int unset = -1;
        atomic_compare_exchange_strong(&deterministic, &unset, mode);
        mode = atomic_load_explicit(&deterministic, memory_order_relaxed);
    }
    return mode != 0;
}

/* Calls a model on a run (no lock held). The calling thread's message is
 * the model's while it runs (axl_fail) and is given back afterwards: a
 * port never changes it (hal.h). A failure's text goes to why. */
static inline __attribute__((always_inline)) axl_status
call_model(const axl_hal_run *run, axl_emu_model_fn fn, void *user,
           void *const *ptr, char *why)
{
    axl_emu_arg args[AXL_EMU_MAX_ARGS];
    const uint32_t n = run->arg_count;
    for (uint32_t i = 0; i < n; i++) {
        const axl_hal_arg *a = &run->args[i];
        args[i].id = a->id;
        args[i].is_buffer = a->is_mem != 0;
        args[i].ptr = ptr[i];
        args[i].size = a->size;
        args[i].value = a->is_mem ? NULL : a->value;
    }
    axl_emu_call call = {run->kernel_name, run->cu, n, args};
    char *msg = axl_port_message_buffer();
    char saved[AXL_MESSAGE_MAX];
    const bool keep = msg[0] != '\0'; /* most launches have nothing to keep */
    if (keep)
        memcpy(saved, msg, AXL_MESSAGE_MAX);
    msg[0] = '\0';
    axl_status st = fn(&call, user);
    if (st != AXL_SUCCESS)
        axl_format(why, AXL_MESSAGE_MAX, "%s",
                   msg[0] ? msg : "the kernel model failed");
    if (keep)
        memcpy(msg, saved, AXL_MESSAGE_MAX);
    else
        msg[0] = '\0';
    return st;
}

/* The unit that serves IP ip on d, taking a free one for it (lock held). */
static emu_unit *unit_for(emu_device *d, uint32_t ip)
{
    emu_unit *free_unit = NULL;
    for (unsigned u = 0; u < AXL_EMU_UNITS; u++) {
        if (d->units[u].ip == ip)
            return &d->units[u];
        if (!free_unit && d->units[u].ip == UINT32_MAX)
            free_unit = &d->units[u];
    }
    if (free_unit)
        free_unit->ip = ip;
    return free_unit;
}

/* A model on unit u returned st (lock held; dropped around the report). A
 * hung model keeps the run until run_cancel; a given-up run is reported
 * with its result discarded. */
static void unit_finish(emu_unit *u, axl_status st, const char *why)
{
    if (st == AXL_EMU_HANG && !u->cancelled) {
        u->state = UNIT_HUNG;
        return;
    }
    void *token = u->run->token;
    const bool cancelled = u->cancelled;
    u->state = UNIT_IDLE;
    u->cancelled = false;
    u->run = NULL;
    u->reporting = true;
    axl_port_unlock();
    axl_hal_run_done(token, cancelled ? AXL_ERR_TIMEOUT : st,
                     st == AXL_SUCCESS ? NULL : why);
    axl_port_lock();
    u->reporting = false;
    axl_port_wake(AXL_PORT_CHANNEL_DEVICE);
}

/* Takes u's pending run to run it (lock held): what the model needs. */
static void unit_take(emu_unit *u, const axl_hal_run **run,
                      axl_emu_model_fn *fn, void **user, void **ptr)
{
    u->state = UNIT_RUNNING;
    *run = u->run;
    *fn = u->fn;
    *user = u->user;
    memcpy(ptr, u->ptr, (*run)->arg_count * sizeof ptr[0]);
}

#if AXL_EMU_HOSTED
/* A unit's worker: runs each run handed to the unit, until close. */
static void unit_main(void *arg)
{
    emu_unit *u = arg;
    axl_port_lock();
    const uint32_t epoch = u->dev->epoch;
    while (u->dev->epoch == epoch && !u->stop) {
        if (u->state != UNIT_PENDING) {
            axl_port_wait(AXL_PORT_CHANNEL_DEVICE, UINT64_MAX);
            continue;
        }
        const axl_hal_run *run;
        axl_emu_model_fn fn;
        void *user;
        void *ptr[AXL_EMU_MAX_ARGS];
        unit_take(u, &run, &fn, &user, ptr);
        axl_port_unlock();
        char why[AXL_MESSAGE_MAX];
        axl_status st = call_model(run, fn, user, ptr, why);
        axl_port_lock();
        if (u->dev->epoch != epoch)
            break; /* closed meanwhile (shutdown gave the run up) */
        unit_finish(u, st, why);
    }
    axl_port_unlock();
}
#else
/* Bare metal: waits run the models of the device's pending runs here. */
static void emu_progress(void *dev, uint64_t deadline_ns)
{
    (void)deadline_ns; /* a model, like a unit's work, runs to its end */
    emu_device *d = dev;
    axl_port_lock();
    for (unsigned u = 0; u < AXL_EMU_UNITS; u++) {
        emu_unit *x = &d->units[u];
        if (x->state != UNIT_PENDING)
            continue;
        const axl_hal_run *run;
        axl_emu_model_fn fn;
        void *user;
        void *ptr[AXL_EMU_MAX_ARGS];
        unit_take(x, &run, &fn, &user, ptr);
        axl_port_unlock();
        char why[AXL_MESSAGE_MAX];
        axl_status st = call_model(run, fn, user, ptr, why);
        axl_port_lock();
        unit_finish(x, st, why);
        u = (unsigned)-1; /* a report may have started another run */
    }
    axl_port_unlock();
}
#endif

static axl_status too_many_units(const axl_hal_run *run)
{
    return emu_fail(AXL_ERR_OUT_OF_RESOURCES,
                    "%s: the design has more compute units than the "
                    "emulator keeps runs for (AXL_EMU_UNITS, %u)",
                    run->kernel_name, (unsigned)AXL_EMU_UNITS);
}

static axl_status emu_run_start(void *dev, const axl_hal_run *run)
{
    emu_device *d = dev;
    const emu_model *m = (const emu_model *)run->cu_handle;
    if (!m)
        m = model_for(run->image, run->kernel_index);
    if (!m)
        return emu_fail(AXL_ERR_KERNEL_NOT_SUPPORTED,
                        "the emulated device has no model for kernel %s",
                        run->kernel_name);
    if (run->arg_count > AXL_EMU_MAX_ARGS)
        return emu_fail(AXL_ERR_KERNEL_ARGUMENT,
                        "%s has %u arguments; the emulator passes at most "
                        "AXL_EMU_MAX_ARGS (%u)",
                        run->kernel_name, (unsigned)run->arg_count,
                        (unsigned)AXL_EMU_MAX_ARGS);
    void *ptr[AXL_EMU_MAX_ARGS];
    for (uint32_t i = 0; i < run->arg_count; i++) {
        const axl_hal_arg *a = &run->args[i];
        ptr[i] = a->is_mem ? (unsigned char *)a->mem->host_ptr + a->offset
                           : NULL;
    }
    const axl_emu_model_fn fn = m->fn;
    void *const user = m->user;
    char why[AXL_MESSAGE_MAX];

    if (!is_deterministic()) {
        axl_port_lock();
        emu_unit *u = unit_for(d, run->ip_index);
        if (!u) {
            axl_port_unlock();
            return too_many_units(run);
        }
        u->run = run;
        u->fn = fn;
        u->user = user;
        memcpy(u->ptr, ptr, run->arg_count * sizeof ptr[0]);
        u->cancelled = false;
        u->state = UNIT_PENDING;
#if AXL_EMU_HOSTED
        if (!u->thread) {
            u->stop = false;
            u->thread = axl_port_thread_start(unit_main, u);
        }
        if (u->thread) {
            axl_port_wake(AXL_PORT_CHANNEL_DEVICE);
            axl_port_unlock();
            return AXL_SUCCESS;
        }
        u->state = UNIT_IDLE; /* no thread to be had: run it here */
        axl_port_unlock();
#else
        axl_port_unlock();
        return AXL_SUCCESS; /* the next wait runs it (emu_progress) */
#endif
    }

    /* Deterministic: here, now. */
    axl_status st = call_model(run, fn, user, ptr, why);
    if (st == AXL_EMU_HANG) {
        /* Started, and will never finish: a unit holds the run until the
         * core gives it up (run_cancel). */
        axl_port_lock();
        emu_unit *u = unit_for(d, run->ip_index);
        if (u) {
            u->run = run;
            u->state = UNIT_HUNG;
        }
        axl_port_unlock();
        return u ? AXL_SUCCESS : too_many_units(run);
    }
    axl_hal_run_done(run->token, st, st == AXL_SUCCESS ? NULL : why);
    return AXL_SUCCESS;
}

static void emu_run_cancel(void *dev, const axl_hal_run *run)
{
    emu_device *d = dev;
    void *token = NULL;
    axl_port_lock();
    for (unsigned u = 0; u < AXL_EMU_UNITS; u++) {
        emu_unit *x = &d->units[u];
        if (x->run != run || x->state == UNIT_IDLE)
            continue;
        if (x->state == UNIT_RUNNING) {
            /* The model runs on: its worker reports the run, result
             * discarded, when it returns; until then the unit is busy. */
            x->cancelled = true;
        } else {
            /* Not started, or hung after its model returned: given back
             * now. */
            token = run->token;
            x->state = UNIT_IDLE;
            x->run = NULL;
        }
        break;
    }
    axl_port_unlock();
    if (token)
        axl_hal_run_done(token, AXL_ERR_TIMEOUT, NULL);
}

/* ---- Model helpers --------------------------------------------------------------- */

static const axl_emu_arg *arg_of(const axl_emu_call *c, uint32_t id)
{
    for (uint32_t i = 0; i < c->arg_count; i++)
        if (c->args[i].id == id)
            return &c->args[i];
    return NULL;
}

void *axl_emu_buffer(const axl_emu_call *call, uint32_t id,
                     uint64_t min_bytes)
{
    const axl_emu_arg *a = arg_of(call, id);
    return a && a->is_buffer && a->size >= min_bytes ? a->ptr : NULL;
}

axl_status axl_emu_u32(const axl_emu_call *call, uint32_t id, uint32_t *out)
{
    if (!out)
        return emu_fail(AXL_ERR_INVALID, "axl_emu_u32: out must not be NULL");
    const axl_emu_arg *a = arg_of(call, id);
    if (!a || a->is_buffer || a->size != 4)
        return emu_fail(AXL_ERR_KERNEL_ARGUMENT,
                        "%s: argument %u is not a 4-byte scalar", call->kernel,
                        (unsigned)id);
    memcpy(out, a->value, 4);
    return AXL_SUCCESS;
}

axl_status axl_emu_f32(const axl_emu_call *call, uint32_t id, float *out)
{
    uint32_t bits = 0; /* gcc -O3 cannot see it is set on success */
    if (!out)
        return emu_fail(AXL_ERR_INVALID, "axl_emu_f32: out must not be NULL");
    axl_status st = axl_emu_u32(call, id, &bits);
    if (st == AXL_SUCCESS)
        memcpy(out, &bits, 4);
    return st;
}

static axl_status emu_mem_alloc(void *dev, uint32_t bank, uint64_t size,
                                void *user_ptr, axl_hal_mem *out)
{
    emu_device *d = dev;
    if (user_ptr)
        return AXL_ERR_FEATURE_NOT_SUPPORTED; /* banks are separate memory */
    if (bank >= AXL_EMU_BANKS)
        return AXL_ERR_INVALID;
    uint64_t off;
    axl_port_lock();
    axl_status st = axl_arena_alloc(&d->banks[bank].arena, size, &off);
    axl_port_unlock();
    if (st != AXL_SUCCESS)
        return st;
    axl_hal_bank b;
    emu_bank_info(dev, bank, &b);
    out->handle = (uintptr_t)off + 1; /* 0 means none */
    out->host_ptr = storage[d->index][bank] + off;
    out->device_address = b.base_address + off;
    out->size = size;
    out->bank = bank;
    return AXL_SUCCESS;
}

static void emu_mem_free(void *dev, axl_hal_mem *mem)
{
    emu_device *d = dev;
    axl_port_lock();
    axl_arena_free(&d->banks[mem->bank].arena, (uint64_t)(mem->handle - 1));
    axl_port_unlock();
    mem->handle = 0;
}

static axl_status emu_mem_write(void *dev, axl_hal_mem *mem, uint64_t offset,
                                const void *src, uint64_t size)
{
    (void)dev;
    if (offset > mem->size || size > mem->size - offset)
        return AXL_ERR_INVALID;
    memcpy((unsigned char *)mem->host_ptr + offset, src, size);
    return AXL_SUCCESS;
}

static axl_status emu_mem_read(void *dev, axl_hal_mem *mem, uint64_t offset,
                               void *dst, uint64_t size)
{
    (void)dev;
    if (offset > mem->size || size > mem->size - offset)
        return AXL_ERR_INVALID;
    memcpy(dst, (const unsigned char *)mem->host_ptr + offset, size);
    return AXL_SUCCESS;
}

static axl_status emu_mem_copy(void *dev, axl_hal_mem *dst, uint64_t dst_off,
                               axl_hal_mem *src, uint64_t src_off,
                               uint64_t size)
{
    (void)dev;
    if (dst_off > dst->size || size > dst->size - dst_off ||
        src_off > src->size || size > src->size - src_off)
        return AXL_ERR_INVALID;
    memmove((unsigned char *)dst->host_ptr + dst_off,
            (const unsigned char *)src->host_ptr + src_off, size);
    return AXL_SUCCESS;
}

const axl_device_port axl_emu_port = {
    .name = "emu",
    .platform_name = "axl emulation",
    .platform_vendor = "axl",
    .platform_version = "SYCL 2020 axl-emu 0.1",
    .backend = AXL_BACKEND_EMU,
    .probe = emu_probe,
    .open = emu_open,
    .close = emu_close,
    .describe = emu_describe,
    .bank = emu_bank_info,
    .mem_alloc = emu_mem_alloc,
    .mem_free = emu_mem_free,
    .mem_write = emu_mem_write,
    .mem_read = emu_mem_read,
    .mem_copy = emu_mem_copy,
    .load_image = emu_load_image,
    .kernel_compatible = emu_kernel_compatible,
    .kernel_fix = "register a C model with axl_emu_register_model()",
    .cu_open = emu_cu_open,
    .run_start = emu_run_start,
    .run_cancel = emu_run_cancel,
#if !AXL_EMU_HOSTED
    .progress = emu_progress,
#endif
};
