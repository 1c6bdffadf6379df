/*
 * xrt/emu - the emulated device: a device port with no XRT behind it.
 *
 * Its memory banks are the design's: on a hosted build (AXL_EMU_HOSTED)
 * each used bank of the MEM_TOPOLOGY it is programmed with, of the size
 * the design gives within the limits set at run time (axl_emu_set_limits,
 * AXL_EMU_MAX_BANK_BYTES), its storage reserved from the OS (mmap) at its
 * first allocation, so an installed library runs any design without a
 * rebuild; on bare metal AXL_EMU_BANKS static arenas of AXL_EMU_BANK_SIZE.
 * It runs a compute unit by calling the C model registered for the
 * kernel's name (include/axl/emu.h). Where that happens is the dispatch
 * mode:
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
/* mmap's MAP_ANONYMOUS and MAP_NORESERVE on a hosted build (POSIX leaves
 * them out of its strict mode); harmless on bare metal. */
#define _DEFAULT_SOURCE 1
#include <stdatomic.h>
#include <stdlib.h> /* getenv, calloc, on hosted builds */
#include <string.h>

#include "axl/buffer.h" /* axl_access_mode */
#include "axl/emu.h"
#include "axl/hal.h"
#include "axl/runtime.h"
#include "axl/shell.h"
#include "axl/trace.h"
#include "emu_config.h"
#include "emu_models.h"
#include "emu_unit.h"

#if defined(AXL_EMU_BUILTIN)
#include "axl_emu_builtin.h"
#endif
#if defined(AXL_EMU_BUILTIN_DESIGN)
/* The board's design pre-digested (boards/designs/, axl-xclbin design). */
extern const axl_xclbin_design AXL_EMU_BUILTIN_DESIGN;
#endif

#if AXL_EMU_HOSTED
#include <sys/mman.h>
#endif

/* A buffer's handle: its offset + 1, and the bank whose arena holds it in
 * the top byte. */
#define EMU_ARENA_SHIFT (sizeof(uintptr_t) * 8u - 8u)

static emu_device devices[AXL_EMU_DEVICES];

#if !AXL_EMU_HOSTED
/* The banks' storage: static, aligned for any element type and for DMA. */
static _Alignas(64) unsigned char
    storage[AXL_EMU_DEVICES][AXL_EMU_BANKS][AXL_EMU_BANK_SIZE];
#endif

static axl_status emu_probe(uint32_t *count, char *why, size_t why_size)
{
    (void)why;
    (void)why_size;
    *count = AXL_EMU_DEVICES;
    return AXL_SUCCESS;
}

/* ---- Models --------------------------------------------------------------- */

/*
 * One table: the stock models (entered at first use) and the
 * application's, one entry per kernel name. Registering a name replaces
 * the entry's model in place (a unit opened on it sees the new one);
 * removing it puts the stock model back, or leaves a tombstone (fn NULL)
 * that keeps its name, so a unit's handle never comes to point at
 * another kernel's model (a tombstone is taken again by its own name
 * only; the table has room for every application model and stock one).
 * An entry holding the stock model (`stock`) serves only axl's own
 * kernel of that name, the one its kernel.xml declares with vlnv
 * "axl:hls:<name>:...": an application's kernel named like a stock one
 * runs only a model the application registered (DESIGN.md, "The
 * emulated device"). Guarded by the runtime lock.
 */
typedef struct emu_model {
    char name[AXL_EMU_NAME_MAX];
    /* The model, by the kernels it serves: [1] axl's stock kernel of the
     * name (NULL: removed), [0] an application's (NULL too when the entry
     * holds the stock model). Indexed by bit 0 of a unit's handle (its
     * kernel is the stock one), a launch asks in one load whether the
     * entry still serves it; no larger than a model and a flag. */
    axl_emu_model_fn serves[2];
    void *user;
} emu_model;

#define MODEL_FN(m) ((m)->serves[1])        /* NULL: removed */
#define APP_MODEL(m) ((m)->serves[0] != NULL) /* the application's */

/* An entry's model (lock held). */
static void set_model(emu_model *m, axl_emu_model_fn fn, void *user,
                      bool stock)
{
    m->serves[0] = stock ? NULL : fn;
    m->serves[1] = fn;
    m->user = user;
}

#define EMU_STOCK_MAX 8 /* room for models.c's list */
static emu_model models[AXL_EMU_MAX_MODELS + EMU_STOCK_MAX];
static unsigned nmodels;
static unsigned napp;   /* entries holding an application's model */
static int stock_registered;

static void register_stock_locked(void);

static emu_model *find_model(const char *name, size_t len)
{
    for (unsigned i = 0; i < nmodels; i++)
        if (strlen(models[i].name) == len && !memcmp(models[i].name, name, len))
            return &models[i];
    return NULL;
}

static axl_emu_model_fn stock_fn(const char *name, size_t len)
{
    for (const axl_emu_stock_model *s = axl_emu_stock_models; s->name; s++)
        if (strlen(s->name) == len && !memcmp(s->name, name, len))
            return s->fn;
    return NULL;
}

static emu_model *new_entry(const char *kernel, size_t len)
{
    if (nmodels == sizeof models / sizeof models[0])
        return NULL;
    emu_model *m = &models[nmodels++];
    memset(m, 0, sizeof *m);
    memcpy(m->name, kernel, len);
    m->name[len] = '\0';
    return m;
}

static axl_status add_model(const char *kernel, axl_emu_model_fn fn,
                            void *user)
{
    size_t len = strlen(kernel);
    emu_model *m = find_model(kernel, len);
    const bool was_app = m && APP_MODEL(m);
    if (!was_app && napp == AXL_EMU_MAX_MODELS)
        return emu_fail(AXL_ERR_OUT_OF_RESOURCES,
                        "axl_emu_register_model: %u models already "
                        "(AXL_EMU_MAX_MODELS)",
                        (unsigned)AXL_EMU_MAX_MODELS);
    if (!m)
        m = new_entry(kernel, len);
    if (!m) /* every name once: tombstones of other names fill it */
        return emu_fail(AXL_ERR_OUT_OF_RESOURCES,
                        "axl_emu_register_model: %u kernel names have had "
                        "models (AXL_EMU_MAX_MODELS)",
                        (unsigned)AXL_EMU_MAX_MODELS);
    set_model(m, fn, user, false);
    napp += !was_app;
    return AXL_SUCCESS;
}

static void register_stock_locked(void)
{
    if (stock_registered)
        return;
    stock_registered = 1;
    for (const axl_emu_stock_model *s = axl_emu_stock_models; s->name; s++) {
        if (find_model(s->name, strlen(s->name)))
            continue; /* the application's, registered first */
        emu_model *m = new_entry(s->name, strlen(s->name));
        if (m)
            set_model(m, s->fn, NULL, true);
    }
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
        if (m && APP_MODEL(m))
            napp--;
        if (m) {
            const axl_emu_model_fn stock = stock_fn(kernel, strlen(kernel));
            set_model(m, stock, NULL, stock != NULL);
        }
    }
    axl_port_unlock();
    return st;
}

/* Is k axl's own stock kernel of its name (vlnv "axl:hls:<name>:...",
 * as bitstreams/stock/vitis declares them)? */
static bool stock_kernel(const axl_xclbin_kernel *k)
{
    static const char lib[] = "axl:hls:";
    const size_t n = sizeof lib - 1;
    return k->vlnv.len > n + k->name.len &&
           !memcmp(k->vlnv.ptr, lib, n) &&
           !memcmp(k->vlnv.ptr + n, k->name.ptr, k->name.len) &&
           k->vlnv.ptr[n + k->name.len] == ':';
}

/* The model that runs kernel k, or NULL (lock held). */
static emu_model *model_of_locked(const axl_xclbin_kernel *k)
{
    register_stock_locked();
    emu_model *m = find_model(k->name.ptr, k->name.len);
    if (!m || !m->serves[stock_kernel(k)])
        return NULL;
    return m;
}

/* The model of a kernel; the caller holds axl_port_lock. */
/* The model entries of the last kernels asked for, by image (its bytes,
 * size and UUID) and kernel index: a launch asks for its kernel's model
 * each time its design is not loaded (kernel_compatible), and finding
 * the name in the XML again was two thirds of a slot swap's cost per
 * command (axl-bench slotswap8). models[] only grows, so an entry stays
 * its name's; whether it serves the kernel is asked each time. */
static struct model_seen {
    const void *data;
    size_t size;
    uint8_t uuid[AXL_XCLBIN_UUID_SIZE];
    uint32_t kernel_index;
    emu_model *m;
    bool stock;
} seen[4];
static unsigned seen_next;

static emu_model *model_for_locked(const axl_xclbin *x, uint32_t kernel_index)
{
    for (unsigned i = 0; i < sizeof seen / sizeof seen[0]; i++) {
        const struct model_seen *e = &seen[i];
        if (e->m && e->data == x->data && e->size == x->size &&
            e->kernel_index == kernel_index &&
            !memcmp(e->uuid, x->uuid, sizeof e->uuid))
            return e->m->serves[e->stock] ? e->m : NULL;
    }
    axl_xclbin_kernel k;
    if (axl_xclbin_get_kernel(x, kernel_index, &k) != AXL_SUCCESS)
        return NULL;
    register_stock_locked();
    emu_model *m = find_model(k.name.ptr, k.name.len);
    if (!m)
        return NULL;
    struct model_seen *e = &seen[seen_next++ % (sizeof seen / sizeof seen[0])];
    e->data = x->data;
    e->size = x->size;
    memcpy(e->uuid, x->uuid, sizeof e->uuid);
    e->kernel_index = kernel_index;
    e->m = m;
    e->stock = stock_kernel(&k);
    return m->serves[e->stock] ? m : NULL;
}

/* What the mmio port's register-level simulator runs when a unit starts
 * (xrt/mmio/sim.c): the model registered under the name, or the stock
 * one (by name only: the simulator is told no kernel's vlnv). */
int axl__emu_model_find(const char *name, size_t len, axl_emu_model_fn *fn,
                        void **user)
{
    axl_port_lock();
    register_stock_locked();
    emu_model *m = find_model(name, len);
    const bool found = m && MODEL_FN(m);
    if (found) {
        *fn = MODEL_FN(m);
        *user = m->user;
    }
    axl_port_unlock();
    return found;
}

/* The same, with axl_port_lock already held (kernel_compatible). */
int axl__emu_has_model_locked(const char *name, size_t len)
{
    register_stock_locked();
    emu_model *m = find_model(name, len);
    return m && MODEL_FN(m);
}

/* Why kernel_index of x has no model, for the message of a unit's open:
 * a stock model of its name that is not its own, or none at all. */
static axl_status no_model(const axl_xclbin *x, uint32_t kernel_index)
{
#if !AXL_MESSAGE_DETAIL
    (void)x;
    return emu_fail(AXL_ERR_KERNEL_NOT_SUPPORTED,
                    "the emulated device has no model for kernel %u "
                    "(axl_emu_register_model)",
                    (unsigned)kernel_index);
#endif
    axl_xclbin_kernel k;
    if (axl_xclbin_get_kernel(x, kernel_index, &k) != AXL_SUCCESS)
        return emu_fail(AXL_ERR_KERNEL_NOT_SUPPORTED,
                        "the emulated device has no model for kernel %u",
                        (unsigned)kernel_index);
    if (AXL_MESSAGE_DETAIL && stock_fn(k.name.ptr, k.name.len))
        return emu_fail(AXL_ERR_KERNEL_NOT_SUPPORTED,
                        "kernel %.*s (%.*s) has no model: the stock %.*s "
                        "model runs only axl's own kernel "
                        "(axl_emu_register_model)",
                        (int)k.name.len, k.name.ptr, (int)k.vlnv.len,
                        k.vlnv.ptr, (int)k.name.len, k.name.ptr);
    return emu_fail(AXL_ERR_KERNEL_NOT_SUPPORTED,
                    "the emulated device has no model for kernel %.*s "
                    "(axl_emu_register_model)",
                    (int)k.name.len, k.name.ptr);
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

/* ---- Banks -------------------------------------------------------------------------- */

/* A bank of the design: used, and memory a buffer can live in (a stream
 * connection is not, as the XRT port has it). */
static bool design_bank(const axl_xclbin_mem *m)
{
    return m->used && m->type != AXL_XCLBIN_MEM_STREAMING &&
           m->type != AXL_XCLBIN_MEM_STREAMING_CONNECTION;
}

static uint32_t design_banks(const axl_xclbin *image)
{
    uint32_t used = 0;
    for (uint32_t m = 0; image && m < image->mem_count; m++) {
        axl_xclbin_mem mem;
        if (axl_xclbin_get_mem(image, m, &mem) == AXL_SUCCESS &&
            design_bank(&mem))
            used++;
    }
    return used;
}

#if AXL_EMU_HOSTED
/* The limits: the application's (axl_emu_set_limits) when it set them,
 * else the environment's as read at the last open; fields 0 are the
 * defaults. Under the runtime lock. */
static axl_emu_limits app_limits, env_limits;
static bool app_limits_set;
/* An environment limit that was not a number, said in a log line from
 * the next call without the lock (open has it). */
static const char *_Atomic bad_env;

#if AXL_FEATURE_DESIGN_SWAP
/* An AXL_EMU_SHELL that named no preset, said the same way: its value
 * and device, kept under the runtime lock by the open that read it. */
static char bad_shell[32];
static uint32_t bad_shell_device;
static _Atomic bool bad_shell_seen;
#endif

static void say_bad_env(void)
{
    const char *name = atomic_exchange(&bad_env, (const char *)NULL);
    if (name)
        axl_hal_log(AXL_LOG_WARN,
                    "%s=%s is not a number (bytes with K, M or G): the "
                    "emulated device uses its default",
                    name, getenv(name) ? getenv(name) : "");
#if AXL_FEATURE_DESIGN_SWAP
    if (atomic_exchange(&bad_shell_seen, false)) {
        char value[sizeof bad_shell];
        axl_port_lock();
        memcpy(value, bad_shell, sizeof value);
        const uint32_t index = bad_shell_device;
        axl_port_unlock();
        axl_hal_log(AXL_LOG_WARN,
                    "axl emulated FPGA %u: AXL_EMU_SHELL=%s names no preset "
                    "shell (k26_2rp): the device has no slots",
                    (unsigned)index, value);
    }
#endif
}

static axl_emu_limits limits_now(void)
{
    axl_emu_limits l = app_limits_set ? app_limits : env_limits;
    if (!l.max_banks || l.max_banks > EMU_BANK_SLOTS)
        l.max_banks = EMU_BANK_SLOTS;
    if (!l.max_bank_bytes)
        l.max_bank_bytes = AXL_EMU_MAX_BANK_BYTES;
    return l;
}

/* "4096", "64K", "1M", "2G" (binary units): false when it is not one. */
static bool parse_bytes(const char *v, uint64_t *out)
{
    uint64_t n = 0;
    const char *p = v;
    if (*p < '0' || *p > '9')
        return false;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (n > (UINT64_MAX - 9) / 10)
            return false;
        n = n * 10 + (uint64_t)(*p - '0');
    }
    unsigned shift = 0;
    if (*p == 'K' || *p == 'k')
        shift = 10;
    else if (*p == 'M' || *p == 'm')
        shift = 20;
    else if (*p == 'G' || *p == 'g')
        shift = 30;
    if (shift)
        p++;
    if (*p || n > UINT64_MAX >> shift)
        return false;
    *out = n << shift;
    return true;
}

/* AXL_EMU_MAX_BANKS and AXL_EMU_MAX_BANK_BYTES, at each open (a value
 * that is not a number is left out, and said so in a log line). */
static void read_env_limits(void)
{
    env_limits = (axl_emu_limits){0};
    const char *v = getenv("AXL_EMU_MAX_BANK_BYTES");
    if (v && v[0] && !parse_bytes(v, &env_limits.max_bank_bytes)) {
        env_limits.max_bank_bytes = 0;
        atomic_store(&bad_env, "AXL_EMU_MAX_BANK_BYTES");
    }
    v = getenv("AXL_EMU_MAX_BANKS");
    uint64_t n = 0;
    if (v && v[0] && (!parse_bytes(v, &n) || n > UINT32_MAX))
        atomic_store(&bad_env, "AXL_EMU_MAX_BANKS");
    else
        env_limits.max_banks = (uint32_t)n;
}

axl_status axl_emu_set_limits(const axl_emu_limits *limits)
{
    axl_port_lock();
    app_limits_set = limits != NULL;
    if (limits)
        app_limits = *limits;
    axl_port_unlock();
    return AXL_SUCCESS;
}

axl_status axl_emu_get_limits(axl_emu_limits *limits)
{
    if (!limits)
        return emu_fail(AXL_ERR_INVALID,
                        "axl_emu_get_limits: limits must not be NULL");
    axl_port_lock();
    *limits = limits_now();
    axl_port_unlock();
    return AXL_SUCCESS;
}

/* Bank b takes `size` bytes (lock held). An empty bank gives back storage
 * of another size (the next allocation reserves the new size); one with
 * allocations alive keeps its storage, and its size covers them. */
static void bank_resize(emu_bank *k, uint64_t size)
{
    if (k->arena.nblocks == 0) {
        if (k->map && k->map_size != size) {
            munmap(k->map, (size_t)k->map_size);
            k->map = NULL;
            k->map_size = 0;
        }
        axl_arena_init(&k->arena, k->map, size, AXL_EMU_MEM_ALIGN_BITS / 8,
                       k->blocks, AXL_EMU_BANK_ALLOCS);
        return;
    }
    const axl_arena_block *last = &k->arena.blocks[k->arena.nblocks - 1];
    const uint64_t end = last->offset + last->size;
    if (size > k->map_size)
        size = k->map_size;
    k->arena.size = size < end ? end : size;
}

/* Storage for bank k, at its first allocation (lock held): the OS gives
 * pages as they are touched, so a large bank costs what is used. */
static axl_status bank_storage(emu_bank *k)
{
    if (!k->blocks) {
        k->blocks = calloc(AXL_EMU_BANK_ALLOCS, sizeof k->blocks[0]);
        if (!k->blocks)
            return AXL_ERR_MEMORY_ALLOCATION;
        k->arena.blocks = k->blocks;
    }
    if (!k->map) {
        size_t n = k->arena.size ? (size_t)k->arena.size : 1;
        void *p = mmap(NULL, n, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            return AXL_ERR_MEMORY_ALLOCATION;
        k->map = p;
        k->map_size = k->arena.size;
        k->arena.base = p;
    }
    return AXL_SUCCESS;
}

static void bank_release(emu_bank *k)
{
    if (k->map)
        munmap(k->map, k->map_size ? (size_t)k->map_size : 1);
    free(k->blocks);
    memset(k, 0, sizeof *k);
}
#else
axl_status axl_emu_set_limits(const axl_emu_limits *limits)
{
    (void)limits;
    return emu_fail(AXL_ERR_FEATURE_NOT_SUPPORTED,
                    "axl_emu_set_limits: a bare-metal build's banks are "
                    "static (AXL_EMU_BANKS %u of AXL_EMU_BANK_SIZE %lu)",
                    (unsigned)AXL_EMU_BANKS,
                    (unsigned long)AXL_EMU_BANK_SIZE);
}

axl_status axl_emu_get_limits(axl_emu_limits *limits)
{
    if (!limits)
        return emu_fail(AXL_ERR_INVALID,
                        "axl_emu_get_limits: limits must not be NULL");
    limits->max_banks = AXL_EMU_BANKS;
    limits->max_bank_bytes = AXL_EMU_BANK_SIZE;
    return AXL_SUCCESS;
}
#endif

/* The size MEM_TOPOLOGY gives bank m of image. */
static uint64_t bank_size_of(const axl_xclbin *image, uint32_t m)
{
    axl_xclbin_mem mem;
    return axl_xclbin_get_mem(image, m, &mem) == AXL_SUCCESS ? mem.size : 0;
}

/* Banks follow the used banks of the design, in MEM_TOPOLOGY order, with
 * their tags and base addresses copied (image NULL: no design, the
 * board's AXL_EMU_BANKS). A design with more banks than the device takes
 * is refused, saying which limit, and changes nothing. Lock held. */
static axl_status map_banks(emu_device *d, const axl_xclbin *image,
                            char *why, size_t why_size)
{
    const uint32_t used = image ? design_banks(image) : AXL_EMU_BANKS;
#if AXL_EMU_HOSTED
    const axl_emu_limits lim = limits_now();
    if (used > lim.max_banks) {
#if AXL_MESSAGES
        axl_format(why, why_size,
                   "the design uses %u memory banks, the emulated device "
                   "at most %u (AXL_EMU_MAX_BANKS)",
                   (unsigned)used, (unsigned)lim.max_banks);
#endif
#else
    if (used > AXL_EMU_BANKS) {
#if AXL_MESSAGES
        axl_format(why, why_size,
                   "the design uses %u memory banks, AXL_EMU_BANKS is %u: "
                   "raise it (-DAXL_EMU_BANKS=%u)",
                   (unsigned)used, (unsigned)AXL_EMU_BANKS, (unsigned)used);
#endif
#endif
#if !AXL_MESSAGES
        (void)why;
        (void)why_size;
#endif
        return AXL_ERR_OUT_OF_RESOURCES;
    }
    d->has_design = image != NULL;
    d->nbanks = used;
    memset(d->bank_tag, 0, sizeof d->bank_tag);
#if AXL_EMU_HOSTED
    uint64_t size[EMU_BANK_SLOTS];
#endif
    uint32_t b = 0;
    for (uint32_t m = 0; image && m < image->mem_count && b < used; m++) {
        axl_xclbin_mem mem;
        if (axl_xclbin_get_mem(image, m, &mem) != AXL_SUCCESS ||
            !design_bank(&mem))
            continue;
        axl_format(d->bank_tag[b], sizeof d->bank_tag[b], "%.*s",
                   (int)mem.tag.len, mem.tag.ptr);
        d->bank_base[b] = mem.base_address;
        d->bank_same[b] = (uint8_t)b;
        for (uint32_t k = 0; k < b; k++)
            if (d->bank_base[k] == mem.base_address &&
                bank_size_of(image, d->bank_mem[k]) == mem.size) {
                d->bank_same[b] = d->bank_same[k];
                break;
            }
#if AXL_EMU_HOSTED
        size[b] = mem.size ? mem.size : AXL_EMU_BANK_SIZE;
#endif
        d->bank_mem[b++] = m;
    }
    for (; b < EMU_BANK_SLOTS; b++) {
        d->bank_same[b] = (uint8_t)b;
        d->bank_mem[b] = image ? UINT32_MAX : b;
#if AXL_EMU_HOSTED
        size[b] = AXL_EMU_BANK_SIZE;
#endif
    }
#if AXL_EMU_HOSTED
    for (b = 0; b < EMU_BANK_SLOTS; b++) {
        emu_bank *k = &d->banks[b];
        k->design_size = size[b];
        bank_resize(k, size[b] < lim.max_bank_bytes ? size[b]
                                                    : lim.max_bank_bytes);
    }
#endif
    return AXL_SUCCESS;
}

/* Bank b's device address: the design's, or the stock images' layout. */
static uint64_t bank_address(const emu_device *d, uint32_t b)
{
    return d->has_design && d->bank_mem[b] != UINT32_MAX
               ? d->bank_base[b]
               : 0x4000000000ull + (uint64_t)b * 0x10000000ull;
}

/* ---- The platform it stands in for ----------------------------------------------- */

#if AXL_EMU_HOSTED
static char app_platform[64]; /* axl_emu_set_platform's; under the lock */
static bool app_platform_set;

axl_status axl_emu_set_platform(const char *vbnv)
{
    if (vbnv && strlen(vbnv) >= sizeof app_platform)
        return emu_fail(AXL_ERR_INVALID,
                        "axl_emu_set_platform: a platform name has at most "
                        "63 characters (the xclbin header's m_platformVBNV)");
    axl_port_lock();
    app_platform_set = vbnv != NULL;
    axl_format(app_platform, sizeof app_platform, "%s", vbnv ? vbnv : "");
    axl_port_unlock();
    return AXL_SUCCESS;
}

/* axl's own emulation platform: "axl_emu" (what axl-xclbin link names
 * when told none), "axl_emu_stock_1_0", ...: taken for any platform. */
static bool neutral_platform(axl_str p)
{
    return p.len >= 7 && !memcmp(p.ptr, "axl_emu", 7);
}

/* At open (lock held): the application's platform, else the
 * environment's, else the one of the design the device comes with. */
static void choose_platform(emu_device *d, const axl_xclbin *builtin)
{
    const char *v = NULL;
#if AXL_EMU_HOSTED
    v = getenv("AXL_EMU_PLATFORM");
#endif
    if (app_platform_set)
        axl_format(d->platform, sizeof d->platform, "%s", app_platform);
    else if (v && v[0])
        axl_format(d->platform, sizeof d->platform, "%s", v);
    else if (builtin) {
        const axl_str p = axl_xclbin_get_platform(builtin);
        axl_format(d->platform, sizeof d->platform, "%.*s", (int)p.len,
                   p.len ? p.ptr : "");
    }
}

/* A design built for another platform than the device's: a warning
 * naming both (no lock held). */
static void check_platform(const emu_device *d, const axl_xclbin *image)
{
    const axl_str want = {d->platform, strlen(d->platform)};
    const axl_str got = axl_xclbin_get_platform(image);
    if (!want.len || !got.len || neutral_platform(got) ||
        (got.len == want.len && !memcmp(got.ptr, want.ptr, got.len)))
        return;
    axl_hal_log(AXL_LOG_WARN,
                "axl emulated FPGA %u: the design was built for platform "
                "%.*s; the device stands in for %s (AXL_EMU_PLATFORM): "
                "it runs, unchecked against that platform",
                (unsigned)d->index, (int)got.len, got.ptr, d->platform);
}
#else
/* Bare metal: a firmware links the designs it runs; the check, a log
 * line, is left out where the code must fit beside it (the R5's ATCM). */
axl_status axl_emu_set_platform(const char *vbnv)
{
    (void)vbnv;
    return emu_fail(AXL_ERR_FEATURE_NOT_SUPPORTED,
                    "axl_emu_set_platform: a hosted build's (on bare metal "
                    "the firmware links its designs)");
}
#endif

static uint32_t epochs; /* opens so far, under the runtime lock */

#if !AXL_FEATURE_DESIGN_SWAP
/* Shells come with design swaps (issue 40): switched off here. */
axl_status axl_emu_set_shell(const struct axl_shell *shell)
{
    (void)shell;
    return emu_fail(AXL_ERR_FEATURE_NOT_SUPPORTED,
                    "axl_emu_set_shell: switched off in this build "
                    "(AXL_FEATURE_DESIGN_SWAP 0)");
}
#endif

#if AXL_FEATURE_DESIGN_SWAP
/* Whether the devices opened from now on reprogram on demand (issue 40):
 * axl_emu_set_swaps. */
static _Atomic bool swaps_off;

axl_status axl_emu_set_swaps(bool on)
{
    atomic_store_explicit(&swaps_off, !on, memory_order_relaxed);
    return AXL_SUCCESS;
}

/* The shell the devices opened from now on have (issue 40, 3.1):
 * axl_emu_set_shell's, or NULL (then AXL_EMU_SHELL's preset, if any). */
static const axl_shell *_Atomic app_shell;

axl_status axl_emu_set_shell(const axl_shell *shell)
{
    if (shell) {
        const axl_status st = axl_shell_check("axl_emu_set_shell", shell);
        if (st != AXL_SUCCESS)
            return st;
    }
    atomic_store_explicit(&app_shell, shell, memory_order_relaxed);
    return AXL_SUCCESS;
}

/* The shell a device opened now has: the application's, else the
 * environment's preset (hosted builds), else none. */
static const axl_shell *shell_now(uint32_t index)
{
    const axl_shell *sh =
        atomic_load_explicit(&app_shell, memory_order_relaxed);
#if AXL_EMU_HOSTED
    const char *v = getenv("AXL_EMU_SHELL");
    if (!sh && v && v[0] && !(sh = axl_shell_find(v))) {
        /* Said from the next call without the lock (open has it). */
        axl_format(bad_shell, sizeof bad_shell, "%s", v);
        bad_shell_device = index;
        atomic_store(&bad_shell_seen, true);
    }
#else
    (void)index;
#endif
    return sh;
}

/* Region `index` of a device with a shell: its slot index - 1. */
static axl_status emu_region(void *dev, uint32_t index, axl_hal_region *out)
{
    const emu_device *d = dev;
    memset(out, 0, sizeof *out);
    if (index == 0) {
        axl_format(out->name, sizeof out->name, "static");
        return AXL_SUCCESS;
    }
    if (!d->shell || index > d->shell->slot_count)
        return emu_fail(AXL_ERR_INVALID,
                        "axl emulated FPGA %u has no region %u",
                        (unsigned)d->index, (unsigned)index);
    axl_hal_region_of_slot(&d->shell->slots[index - 1], out);
    return AXL_SUCCESS;
}
#endif

static axl_status emu_open(uint32_t index, void **dev)
{
    emu_device *d = &devices[index];
    /* Called with the runtime lock held (the core starts up under it). */
    memset(d, 0, sizeof *d);
    d->index = index;
    d->open = 1;
    d->epoch = ++epochs;
#if AXL_FEATURE_DESIGN_SWAP
    d->swaps_off = atomic_load_explicit(&swaps_off, memory_order_relaxed);
    d->shell = shell_now(index);
#endif
    for (unsigned u = 0; u < AXL_EMU_UNITS; u++) {
        d->units[u].ip = UINT32_MAX;
        d->units[u].dev = d;
    }
#if EMU_STREAMS
    emu_pipes_forget(d);
#endif
#if AXL_EMU_HOSTED
    read_env_limits();
#else
    for (uint32_t b = 0; b < AXL_EMU_BANKS; b++)
        axl_arena_init(&d->banks[b].arena, storage[index][b],
                       AXL_EMU_BANK_SIZE, AXL_EMU_MEM_ALIGN_BITS / 8,
                       d->banks[b].blocks, AXL_EMU_BANK_ALLOCS);
#endif
#if AXL_EMU_HOSTED
    /* The banks of the design it comes with; without one (or past the
     * limits, which a later programming says), the board's. */
    axl_xclbin x;
    const void *bytes;
    size_t size;
    const axl_xclbin_design *design = axl__emu_builtin_design();
    builtin_image(&bytes, &size);
    char why[AXL_MESSAGE_MAX];
    axl_status st = AXL_ERR_INVALID;
    if (design)
        st = axl_xclbin_open_design(&x, design, NULL, 0);
    else if (bytes)
        st = axl_xclbin_open(&x, bytes, size, NULL, 0);
    choose_platform(d, st == AXL_SUCCESS ? &x : NULL);
    if (st != AXL_SUCCESS || map_banks(d, &x, why, sizeof why) != AXL_SUCCESS)
        map_banks(d, NULL, why, sizeof why);
#if EMU_STREAMS
    /* A design whose FIFOs do not fit opens all the same: its pipelines
     * are refused, saying why. */
    emu_fifos_build(d, st == AXL_SUCCESS ? &x : NULL);
#endif
#else
    /* Bare metal: the static banks, named for the design when it is
     * programmed (as before issue 29). */
    char why[8];
    map_banks(d, NULL, why, sizeof why);
#endif
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
#if AXL_EMU_HOSTED
    /* A worker left in a model (detached above) may still write its
     * buffers: then the banks stay (a leak, for a model that hangs past
     * shutdown, rather than a crash). */
    axl_port_lock();
    for (uint32_t b = 0; b < EMU_BANK_SLOTS && !nd; b++)
        bank_release(&d->banks[b]);
    axl_port_unlock();
#endif
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
#if AXL_FEATURE_DESIGN_SWAP
    if (!d->swaps_off)
        info->flags |= AXL_HAL_DEVICE_SWAPS;
    if (d->shell) {
        info->region_count = 1 + d->shell->slot_count;
        memcpy(info->shell_uuid, d->shell->interface_uuid,
               sizeof info->shell_uuid);
        axl_format(info->shell_name, sizeof info->shell_name, "%s",
                   d->shell->name);
    }
#endif
    info->mem_base_addr_align = AXL_EMU_MEM_ALIGN_BITS;
    info->max_clock_mhz = 300;
    info->bank_count = d->nbanks;
#if AXL_EMU_HOSTED
    for (uint32_t b = 0; b < d->nbanks; b++) {
        const uint64_t size = d->banks[b].arena.size;
        if (d->bank_same[b] == b) /* each memory once */
            info->global_mem_size += size;
        if (size > info->max_mem_alloc_size)
            info->max_mem_alloc_size = size;
    }
#else
    info->global_mem_size = (uint64_t)d->nbanks * AXL_EMU_BANK_SIZE;
    info->max_mem_alloc_size = AXL_EMU_BANK_SIZE;
#endif
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
    memcpy(out->tag, d->bank_tag[index], sizeof out->tag);
    out->base_address = bank_address(d, index);
    if (!out->tag[0])
        axl_format(out->tag, sizeof out->tag, "bank%u", (unsigned)index);
    out->size = d->banks[index].arena.size;
    out->image_index = d->bank_mem[index];
    return AXL_SUCCESS;
}

/* ---- Designs and runs ------------------------------------------------------------ */

/* The design's streams joined, and idle units serve its units from their
 * next run (lock held): what loading a design and swapping one in share. */
static axl_status take_design(emu_device *d, const axl_xclbin *image,
                              char *why, size_t why_size)
{
    axl_status st = AXL_SUCCESS;
#if EMU_STREAMS
    st = emu_fifos_build(d, image);
    if (st != AXL_SUCCESS)
        axl_format(why, why_size, "%s", d->streams_why);
#else
    (void)d;
    (void)image;
    (void)why;
    (void)why_size;
#endif
    for (unsigned u = 0; st == AXL_SUCCESS && u < AXL_EMU_UNITS; u++)
        if (d->units[u].state == UNIT_IDLE && !d->units[u].reporting)
            d->units[u].ip = UINT32_MAX;
    return st;
}

static axl_status emu_load_image(void *dev, const axl_xclbin *image,
                                 char *why, size_t why_size)
{
    /* The design's banks (refused here, when its bundle is obtained, if
     * there are too many: not later by a placement). */
    emu_device *d = dev;
#if AXL_EMU_HOSTED
    say_bad_env();
    if (image)
        check_platform(d, image);
#endif
    axl_port_lock();
    axl_status st = map_banks(d, image, why, why_size);
    if (st == AXL_SUCCESS)
        st = take_design(d, image, why, why_size);
    axl_port_unlock();
    return st;
}

#if AXL_FEATURE_DESIGN_SWAP
/* Whether unit number ip is one of slot k's: from its first_unit up to
 * the next slot's (or AXL_EMU_UNITS past it). */
static bool in_slot(const axl_shell *sh, uint32_t k, uint32_t ip)
{
    return axl_shell_slot_of_unit(sh, ip, sh->slots[k].first_unit +
                                              AXL_EMU_UNITS) == (int)k;
}

/* A partial into slot region r (designs-design.md 3.7): the slot's idle
 * units serve the new design's units from their next run, and the load
 * takes the shell's load_ns. The banks, the other slots' and the static
 * part's units are untouched: their runs go on. */
static axl_status slot_load(emu_device *d, uint32_t r, char *why,
                            size_t why_size)
{
    if (!d->shell || r > d->shell->slot_count) {
        axl_format(why, why_size, "the emulated device has no region %u",
                   (unsigned)r);
        return AXL_ERR_INVALID;
    }
    axl_port_lock();
    for (unsigned u = 0; u < AXL_EMU_UNITS; u++) {
        emu_unit *x = &d->units[u];
        if (x->ip != UINT32_MAX && in_slot(d->shell, r - 1, x->ip)) {
            /* A run the core saw end may still be reported from this
             * unit's thread (unit_finish): that ends by itself. */
            while (x->reporting)
                axl_port_wait(AXL_PORT_CHANNEL_DEVICE, UINT64_MAX);
            if (x->state != UNIT_IDLE) {
                axl_port_unlock();
                axl_format(why, why_size, "unit %u of slot %s still runs",
                           (unsigned)x->ip, d->shell->slots[r - 1].name);
                return AXL_ERR_BAD_STATE;
            }
            x->ip = UINT32_MAX;
        }
    }
    const uint64_t end = axl_port_now_ns() + d->shell->load_ns;
    while (d->shell->load_ns && axl_port_now_ns() < end)
        axl_port_wait(AXL_PORT_CHANNEL_DEVICE, end);
    axl_port_unlock();
    return AXL_SUCCESS;
}
#endif

/* A design loaded beside the others (issue 40, designs-design.md 2.3):
 * the banks, their arenas and every allocation in them stay as they are
 * (the core maps the design's memories onto them by address); the
 * design's streams are joined and idle units serve its units from their
 * next run. Only the whole fabric (region 0) until DFX slots. */
#if AXL_FEATURE_DESIGN_SWAP
static axl_status emu_region_load(void *dev, uint32_t *region,
                                  const axl_xclbin *image, char *why,
                                  size_t why_size)
{
    emu_device *d = dev;
    if (*region != 0)
        return slot_load(d, *region, why, why_size);
#if AXL_EMU_HOSTED
    check_platform(d, image);
#endif
    axl_port_lock();
    const axl_status st = take_design(d, image, why, why_size);
    axl_port_unlock();
    return st;
}
#endif

static bool emu_kernel_compatible(void *dev, const axl_xclbin *image,
                                  uint32_t kernel_index)
{
    (void)dev;
    /* Called with the runtime lock held (see hal.h). */
    return model_for_locked(image, kernel_index) != NULL;
}

static emu_unit *unit_for(emu_device *d, uint32_t ip);

emu_unit *emu_unit_for(emu_device *d, uint32_t ip)
{
    return unit_for(d, ip);
}

axl_emu_model_fn emu_model_of(const axl_xclbin *image, uint32_t kernel_index,
                              void **user)
{
    emu_model *m = model_for_locked(image, kernel_index);
    *user = m ? m->user : NULL;
    return m ? MODEL_FN(m) : NULL;
}

/* A unit's handle names the emulator's unit for the IP (bit 1 set), which
 * holds the model and the call record its launches reuse; when every unit
 * is taken (a design with more than AXL_EMU_UNITS), its model's entry,
 * with bit 0 set when the kernel is axl's stock kernel (which the stock
 * model may serve): such a unit's runs build their record each time. */
#define UNIT_HANDLE ((uintptr_t)2)

static axl_status emu_cu_open(void *dev, const axl_xclbin *image,
                              uint32_t kernel_index, uint32_t ip_index,
                              uintptr_t *cu_handle)
{
    emu_device *d = dev;
    axl_xclbin_kernel k;
    emu_model *m = NULL;
    emu_unit *u = NULL;
    bool stock = false;
    axl_port_lock();
    if (axl_xclbin_get_kernel(image, kernel_index, &k) == AXL_SUCCESS) {
        m = model_of_locked(&k);
        stock = stock_kernel(&k);
    }
    if (m && (u = unit_for(d, ip_index)) != NULL &&
        (u->model != m || u->stock != stock)) {
        /* Written only when it changes: a second open of a unit that
         * runs (axl_hal_kernel_cu) leaves alone what its launch reads. */
        u->model = m;
        u->stock = stock;
    }
    axl_port_unlock();
    if (!m)
        return no_model(image, kernel_index);
    *cu_handle = u ? (uintptr_t)u | UNIT_HANDLE : (uintptr_t)m | (uintptr_t)stock;
    return AXL_SUCCESS;
}

/* The unit a run's handle names, or NULL. */
static inline emu_unit *unit_of(const axl_hal_run *run)
{
    const uintptr_t h = run->cu_handle;
    return h & UNIT_HANDLE ? (emu_unit *)(h & ~UNIT_HANDLE) : NULL;
}

/* The model a run calls (no lock held): its unit's entry, unless the
 * entry no longer serves it (removed, the stock model for an
 * application's kernel, or given to another name), then looked up. */
static axl_emu_model_fn run_model(const axl_hal_run *run, const emu_unit *u,
                                  void **user)
{
    const uintptr_t h = run->cu_handle;
    const emu_model *m;
    axl_emu_model_fn fn;
    if (u) {
        m = u->model; /* set by the open that gave the handle */
        fn = m->serves[u->stock];
    } else {
        m = (const emu_model *)(h & ~(uintptr_t)1);
        fn = m ? m->serves[h & 1] : NULL;
    }
    if (!fn) {
        axl_port_lock();
        m = model_for_locked(run->image, run->kernel_index);
        fn = m ? MODEL_FN(m) : NULL;
        axl_port_unlock();
    }
    *user = fn ? m->user : NULL;
    return fn;
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
        mode = v && v[0] && (v[0] != '0' || v[1]);
        int unset = -1;
        atomic_compare_exchange_strong(&deterministic, &unset, mode);
        mode = atomic_load_explicit(&deterministic, memory_order_relaxed);
    }
    return mode != 0;
}

bool emu_is_deterministic(void)
{
    return is_deterministic();
}

/* ---- Arguments given read-only ------------------------------------------------ */

/* The check is compiled in on hosted builds and where the board turns it
 * on; a bare-metal build without it (R5 code in the ATCM) carries none. */
#define EMU_RO_CHECK (AXL_EMU_HOSTED || AXL_EMU_CHECK_READ_ONLY)

/* -1: not chosen yet (the environment, else AXL_EMU_CHECK_READ_ONLY, at
 * the first run); atomic, read by every run. */
static _Atomic int check_ro = -1;

axl_status axl_emu_check_read_only(bool on)
{
    if (!EMU_RO_CHECK && on)
        return emu_fail(AXL_ERR_FEATURE_NOT_SUPPORTED,
                        "axl_emu_check_read_only: this build has no "
                        "read-only check (AXL_EMU_CHECK_READ_ONLY 0)");
    atomic_store_explicit(&check_ro, on, memory_order_relaxed);
    return AXL_SUCCESS;
}

/* The first run's choice: the environment, else the setting. */
static __attribute__((noinline)) bool choose_read_only(void)
{
    int on = AXL_EMU_CHECK_READ_ONLY;
#if AXL_EMU_HOSTED
    const char *v = getenv("AXL_EMU_CHECK_READ_ONLY");
    if (v && v[0])
        on = v[0] != '0' || v[1];
#endif
    int unset = -1;
    atomic_compare_exchange_strong(&check_ro, &unset, on);
    return atomic_load_explicit(&check_ro, memory_order_relaxed) != 0;
}

static inline bool checking_read_only(void)
{
    if (!EMU_RO_CHECK)
        return false;
    const int on = atomic_load_explicit(&check_ro, memory_order_relaxed);
    return on < 0 ? choose_read_only() : on != 0;
}

/* A 64-bit digest of n bytes: Fletcher's two running sums over 8-byte
 * words, in four independent lanes (the CPU runs them side by side), the
 * tail byte by byte, mixed at the end. A model's write shows as another
 * digest: a changed word changes the first sum, and words moved or
 * traded change the second (each word counts by its position); only a
 * write of what was there changes nothing, which is nothing to report.
 * About 0.5 instructions a byte (tests/bench/instructions.sh). */
static uint64_t digest(const unsigned char *p, uint64_t n)
{
    uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0;
    uint64_t i = 0;
    for (; i + 32 <= n; i += 32) {
        uint64_t w[4];
        memcpy(w, p + i, 32);
        a0 += w[0];
        a1 += w[1];
        a2 += w[2];
        a3 += w[3];
        b0 += a0;
        b1 += a1;
        b2 += a2;
        b3 += a3;
    }
    for (; i < n; i++) {
        a0 += p[i];
        b0 += a0;
    }
    const uint64_t k = 0x9e3779b97f4a7c15ull;
    const uint64_t v[8] = {a0, b0, a1, b1, a2, b2, a3, b3};
    uint64_t h = n;
    for (int l = 0; l < 8; l++) {
        h = (h ^ v[l]) * k;
        h ^= h >> 31;
    }
    return h;
}

/* Is argument a a buffer given read-only (bytes to check)? */
static inline bool read_only(const axl_hal_arg *a)
{
    return a->is_mem &&
           (a->access & (AXL_ACCESS_READ | AXL_ACCESS_WRITE)) ==
               AXL_ACCESS_READ &&
           a->size;
}

/* No writable argument of run reaches the bytes of read-only buffer
 * argument i (the kernel may write through that one: out_r = in1). */
static bool read_only_alone(const axl_hal_run *run, const axl_emu_arg *args,
                            uint32_t i)
{
    const unsigned char *lo = args[i].ptr, *hi = lo + args[i].size;
    for (uint32_t j = 0; j < run->arg_count; j++) {
        const axl_hal_arg *b = &run->args[j];
        if (j == i || !b->is_mem || !(b->access & AXL_ACCESS_WRITE))
            continue;
        const unsigned char *blo = args[j].ptr, *bhi = blo + b->size;
        if (blo < hi && lo < bhi)
            return false;
    }
    return true;
}

/* The failure of a run whose model wrote argument i, given read-only. */
static axl_status wrote_read_only(const axl_hal_run *run, uint32_t i,
                                  char *why)
{
    const uint32_t id = run->args[i].id;
    axl_xclbin_kernel k;
    axl_xclbin_arg arg;
    axl_str name = {"?", 1};
    if (axl_xclbin_get_kernel(run->image, run->kernel_index, &k) ==
        AXL_SUCCESS)
        for (uint32_t a = 0; a < k.arg_count; a++)
            if (axl_xclbin_get_kernel_arg(run->image, &k, a, &arg) ==
                    AXL_SUCCESS &&
                arg.index == id)
                name = arg.name;
#if AXL_MESSAGES
    axl_format(why, AXL_MESSAGE_MAX,
               "%s wrote argument %u (%.*s), which the command gave "
               "read-only: give it AXL_ARG_OUT or AXL_ARG_INOUT "
               "(a board would drop the result)",
               run->kernel_name, (unsigned)id, (int)name.len, name.ptr);
#else
    (void)name;
    axl_format(why, AXL_MESSAGE_MAX, "%s",
               axl_status_name(AXL_ERR_KERNEL_ARGUMENT));
#endif
    return AXL_ERR_KERNEL_ARGUMENT;
}

/* Digests into before[] each buffer of `alone` (bit i: argument i) when
 * the check is on; answers which. The switch is asked only for a
 * read-only buffer. */
static __attribute__((noinline)) uint32_t
digest_read_only(const axl_emu_arg *args, uint32_t alone, uint64_t *before)
{
    if (!checking_read_only())
        return 0;
    for (uint32_t i = 0, m = alone; m; i++, m >>= 1)
        if (m & 1u)
            before[i] = digest(args[i].ptr, args[i].size);
    return alone;
}

/* After the model: a buffer of `checked` whose digest changed fails the
 * run. */
static __attribute__((noinline)) axl_status
check_read_only(const axl_hal_run *run, const axl_emu_arg *args,
                const uint64_t *before, uint32_t checked, char *why)
{
    for (uint32_t i = 0; checked; i++, checked >>= 1)
        if ((checked & 1u) && digest(args[i].ptr, args[i].size) != before[i])
            return wrote_read_only(run, i, why);
    return AXL_SUCCESS;
}

/* Fills a model's call record from run's arguments: each one's bytes
 * (memory: found now, while the buffers are certainly alive), which are
 * scalars, and which buffers the read-only check covers. */
static void record_build(const axl_hal_run *run, axl_emu_arg *args,
                         uint32_t *scalars, uint32_t *alone)
{
    const uint32_t n = run->arg_count;
    uint32_t sc = 0, ro = 0;
    for (uint32_t i = 0; i < n; i++) {
        const axl_hal_arg *a = &run->args[i];
        args[i].id = a->id;
        args[i].is_buffer = a->is_mem != 0;
        args[i].ptr =
            a->is_mem ? (unsigned char *)a->mem->host_ptr + a->offset : NULL;
        args[i].size = a->size;
        args[i].value = a->is_mem ? NULL : a->value;
        args[i].stream = NULL; /* streams: the emulated device's next step */
        sc |= (uint32_t)!a->is_mem << i;
    }
    for (uint32_t i = 0; EMU_RO_CHECK && i < n; i++)
        if (read_only(&run->args[i]) && read_only_alone(run, args, i))
            ro |= 1u << i;
    *scalars = sc;
    *alone = ro;
}

/* A run with the record's args_id: only its scalars are new. */
static inline void record_refresh(const axl_hal_run *run, axl_emu_arg *args,
                                  uint32_t scalars)
{
    for (uint32_t i = 0; scalars; i++, scalars >>= 1)
        if (scalars & 1u) {
            args[i].size = run->args[i].size;
            args[i].value = run->args[i].value;
        }
}

/* Calls a model with its arguments (no lock held). The calling thread's
 * message is the model's while it runs (axl_fail) and is given back
 * afterwards: a port never changes it (hal.h). A failure's text goes to
 * why. */
static inline __attribute__((always_inline)) axl_status
invoke(const axl_hal_run *run, axl_emu_model_fn fn, void *user,
       const axl_emu_arg *args, uint32_t nargs, char *why)
{
    axl_emu_call call = {run->kernel_name, run->cu, nargs, args};
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

/* Calls a model on a run with its call record (no lock held; see
 * invoke). With the read-only check on, each buffer of `alone` is
 * digested before and after: a change fails the run. */
static inline __attribute__((always_inline)) axl_status
call_model(const axl_hal_run *run, axl_emu_model_fn fn, void *user,
           const axl_emu_arg *args, uint32_t nargs, uint32_t alone, char *why)
{
    if (!alone)
        return invoke(run, fn, user, args, nargs, why);
    uint64_t before[AXL_EMU_MAX_ARGS] = {0}; /* only checked ones are read */
    const uint32_t checked = digest_read_only(args, alone, before);
    axl_status st = invoke(run, fn, user, args, nargs, why);
    if (st == AXL_SUCCESS && checked)
        st = check_read_only(run, args, before, checked, why);
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
                      axl_emu_model_fn *fn, void **user, uint32_t *alone)
{
    u->state = UNIT_RUNNING;
    *run = u->run;
    *fn = u->fn;
    *user = u->user;
    *alone = u->alone;
}

#if AXL_EMU_HOSTED
/* A unit's worker: runs each run handed to the unit, until close. */
static void unit_main(void *arg)
{
    emu_unit *u = arg;
    axl_port_lock();
    const uint32_t epoch = u->dev->epoch;
    u->epoch = epoch;
    while (u->dev->epoch == epoch && !u->stop) {
#if EMU_STREAMS
        if (u->state != UNIT_PENDING && emu_pipe_due(u)) {
            emu_pipe_run(u); /* a free-running or auto-restart unit's */
            continue;
        }
#endif
        if (u->state != UNIT_PENDING) {
            axl_port_wait(AXL_PORT_CHANNEL_DEVICE, UINT64_MAX);
            continue;
        }
        const axl_hal_run *run;
        axl_emu_model_fn fn;
        void *user;
        uint32_t alone;
        unit_take(u, &run, &fn, &user, &alone);
        /* The model gets a copy: one that outlives a shutdown (its run
         * given up, this worker detached) must not see the record a
         * later open clears. */
        axl_emu_arg args[AXL_EMU_MAX_ARGS];
        const uint32_t nargs = u->nargs;
        memcpy(args, u->args, nargs * sizeof args[0]);
#if EMU_STREAMS
        emu_model_begin(u);
#endif
        axl_port_unlock();
        char why[AXL_MESSAGE_MAX];
        axl_status st = call_model(run, fn, user, args, nargs, alone, why);
        axl_port_lock();
#if EMU_STREAMS
        emu_model_end(u);
#endif
        if (u->dev->epoch != epoch)
            break; /* closed meanwhile (shutdown gave the run up) */
        unit_finish(u, st, why);
    }
    axl_port_unlock();
}

/* Starts u's worker if it has none (lock held). */
void emu_worker_start(emu_unit *u)
{
    if (!u->thread) {
        u->stop = false;
        u->thread = axl_port_thread_start(unit_main, u);
    }
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
        uint32_t alone;
        unit_take(x, &run, &fn, &user, &alone);
        axl_port_unlock();
        char why[AXL_MESSAGE_MAX];
        axl_status st = call_model(run, fn, user, x->args, x->nargs, alone,
                                   why);
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

#if EMU_STREAMS
/* Whether run's IP has stream ports (a FIFO of d's design ends there). */
static inline bool has_streams(emu_device *d, const axl_hal_run *run)
{
    /* A design without streams (most): no lock. The FIFOs change only
     * when a design loads, with none of its units running. */
    if (!atomic_load_explicit(&d->nfifos, memory_order_relaxed))
        return false;
    axl_port_lock();
    bool streams = false;
    for (uint32_t f = 0; f < d->nfifos && !streams; f++)
        streams = d->fifos[f].prod_ip == run->ip_index ||
                  d->fifos[f].cons_ip == run->ip_index;
    axl_port_unlock();
    return streams;
}
#endif

/* The call record of run: the unit's (u), reused while the args_id is the
 * one it was built for; a unit-less deterministic run builds its own in
 * `own`. NULL for a kernel without arguments. *alone: the buffers the
 * read-only check digests. */
static inline axl_emu_arg *call_record(emu_unit *u, const axl_hal_run *run,
                                       axl_emu_arg *own, uint32_t *alone)
{
    *alone = 0;
    if (!run->arg_count) {
        if (u) {
            /* No arguments, nothing to check: the unit's worker reads the
             * check's buffers from here, and a unit may have served a
             * kernel with buffers before (a programming gives idle units
             * to other IPs). Left as it was, the worker digested the last
             * run's buffers, freed and unmapped since (issue 35,
             * fuzz_api). */
            u->args_id = 0;
            u->alone = 0;
        }
        return NULL;
    }
    axl_emu_arg *args = u ? u->args : own;
    if (u && run->args_id && u->args_id == run->args_id) {
        record_refresh(run, args, u->scalars);
        *alone = u->alone;
    } else {
        uint32_t scalars;
        record_build(run, args, &scalars, alone);
        if (u) {
            u->args_id = run->args_id;
            u->scalars = scalars;
            u->alone = *alone;
        }
    }
    return args;
}

/* Hands run to unit u's worker (started if it has none); false when no
 * worker thread can be had, and the caller runs it. Bare metal: the next
 * wait runs it (emu_progress). streams: u has stream ports; det: the
 * deterministic mode, where run_start returns once the pipeline is at
 * rest. */
static inline bool hand_to_worker(emu_unit *u, const axl_hal_run *run,
                                  axl_emu_model_fn fn, void *user,
                                  bool streams, bool det)
{
    (void)streams;
    (void)det;
    axl_port_lock();
    u->run = run;
    u->fn = fn;
    u->user = user;
    u->cancelled = false;
    u->state = UNIT_PENDING;
    u->nargs = run->arg_count;
#if EMU_STREAMS
    if (streams)
        u->nargs = emu_stream_args(u, u->args, run->arg_count,
                                   AXL_EMU_MAX_ARGS);
#endif
#if AXL_EMU_HOSTED
    emu_worker_start(u);
    if (u->thread) {
        axl_port_wake(AXL_PORT_CHANNEL_DEVICE);
        axl_port_unlock();
#if EMU_STREAMS
        if (det)
            emu_pipe_settle(u);
#endif
        return true;
    }
    u->state = UNIT_IDLE; /* no thread to be had: run it here */
    axl_port_unlock();
    return false;
#else
    axl_port_unlock();
    return true;
#endif
}

/* Runs run's model here, now (deterministic, or no worker to be had),
 * and reports its end; a model that hangs leaves the run started. */
static inline axl_status run_here(emu_device *d, emu_unit *u,
                                  const axl_hal_run *run, axl_emu_model_fn fn,
                                  void *user, const axl_emu_arg *args,
                                  uint32_t alone)
{
    char why[AXL_MESSAGE_MAX];
    axl_status st = call_model(run, fn, user, args, run->arg_count, alone,
                               why);
    if (st == AXL_EMU_HANG) {
        /* Started, and will never finish: a unit holds the run until the
         * core gives it up (run_cancel). */
        axl_port_lock();
        if (!u)
            u = unit_for(d, run->ip_index);
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

static axl_status emu_run_start(void *dev, const axl_hal_run *run)
{
    emu_device *d = dev;
    emu_unit *u = unit_of(run);
    void *user;
    const axl_emu_model_fn fn = run_model(run, u, &user);
    if (!fn)
        return no_model(run->image, run->kernel_index);
    if (run->arg_count > AXL_EMU_MAX_ARGS)
        return emu_fail(AXL_ERR_KERNEL_ARGUMENT,
                        "%s has %u arguments; the emulator passes at most "
                        "AXL_EMU_MAX_ARGS (%u)",
                        run->kernel_name, (unsigned)run->arg_count,
                        (unsigned)AXL_EMU_MAX_ARGS);
    const bool det = is_deterministic();
#if EMU_STREAMS
    /* A unit with stream ports runs on its worker in either mode: its
     * model waits for its peers (deterministic: one at a time, with the
     * baton, and run_start returns once the pipeline is at rest). */
    const bool streams = has_streams(d, run);
#else
    const bool streams = false;
#endif
    const bool async = !det || streams;
    if (!u && async) {
        /* A handle without a unit: one may have come free since. */
        axl_port_lock();
        u = unit_for(d, run->ip_index);
        axl_port_unlock();
        if (!u)
            return too_many_units(run);
        u->args_id = 0;
    }
    axl_emu_arg own[AXL_EMU_MAX_ARGS];
    uint32_t alone;
    const axl_emu_arg *args = call_record(u, run, own, &alone);
    if (async && hand_to_worker(u, run, fn, user, streams, det))
        return AXL_SUCCESS;
    /* Deterministic: here, now. */
    return run_here(d, u, run, fn, user, args, alone);
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
             * discarded, when it returns; until then the unit is busy.
             * A stream op it waits in returns (emu_pipe.c). */
            x->cancelled = true;
            axl_port_wake(AXL_PORT_CHANNEL_DEVICE);
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
#if AXL_EMU_HOSTED
    say_bad_env();
#endif
    uint64_t off;
    axl_port_lock();
    if (bank >= d->nbanks) { /* a programming may change it: read locked */
        axl_port_unlock();
        return AXL_ERR_INVALID;
    }
    const uint32_t same = d->bank_same[bank];
    emu_bank *k = &d->banks[same];
#if AXL_EMU_HOSTED
    axl_status st = size <= k->arena.size ? bank_storage(k) : AXL_SUCCESS;
    if (st == AXL_SUCCESS)
        st = axl_arena_alloc(&k->arena, size, &off);
#else
    axl_status st = axl_arena_alloc(&k->arena, size, &off);
#endif
    unsigned char *base = k->arena.base;
    const uint64_t address = bank_address(d, bank);
    axl_port_unlock();
    if (st != AXL_SUCCESS)
        return st;
    /* 0 means none; the top byte: the arena's bank (a later design may
     * share banks otherwise). */
    out->handle = ((uintptr_t)off + 1) | (uintptr_t)same << EMU_ARENA_SHIFT;
    out->host_ptr = base + off;
    out->device_address = address + off;
    out->size = size;
    out->bank = bank;
    return AXL_SUCCESS;
}

static void emu_mem_free(void *dev, axl_hal_mem *mem)
{
    emu_device *d = dev;
    axl_port_lock();
    const uintptr_t off = mem->handle & (((uintptr_t)1 << EMU_ARENA_SHIFT) - 1);
    axl_arena_free(&d->banks[mem->handle >> EMU_ARENA_SHIFT].arena,
                   (uint64_t)(off - 1));
    axl_port_unlock();
    mem->handle = 0;
}

#if AXL_EMU_HOSTED
/* What a bank holds, for the message of an allocation that failed (a
 * hosted build's: bare metal leaves it out for room, and the message
 * gives the bank's size). */
static axl_status emu_mem_usage(void *dev, uint32_t bank,
                                axl_hal_bank_usage *out)
{
    emu_device *d = dev;
    if (bank >= EMU_BANK_SLOTS)
        return AXL_ERR_INVALID;
    memset(out, 0, sizeof *out);
    axl_port_lock();
    const axl_arena *a = &d->banks[d->bank_same[bank]].arena;
    out->size = a->size;
    out->free = a->size > a->in_use ? a->size - a->in_use : 0;
    out->largest_free = axl_arena_largest_free(a);
    out->allocations = a->nblocks;
    out->max_allocations = a->max_blocks ? a->max_blocks : AXL_EMU_BANK_ALLOCS;
    const uint64_t full = d->banks[bank].design_size;
    char size[16];
    if (full > a->size)
        axl_format(out->note, sizeof out->note,
                   "AXL_EMU_MAX_BANK_BYTES (the design's: %s)",
                   axl_bytes(size, sizeof size, full));
    axl_port_unlock();
    return AXL_SUCCESS;
}
#endif

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
#if AXL_EMU_HOSTED
    .mem_usage = emu_mem_usage,
#endif
    .mem_write = emu_mem_write,
    .mem_read = emu_mem_read,
    .mem_copy = emu_mem_copy,
    .load_image = emu_load_image,
#if AXL_FEATURE_DESIGN_SWAP
    .region_load = emu_region_load,
    .region = emu_region,
#endif
    .kernel_compatible = emu_kernel_compatible,
    /* "its own": a stock model serves only axl's kernel of its name. */
    .kernel_fix = "register a C model with axl_emu_register_model()",
    .cu_open = emu_cu_open,
    .run_start = emu_run_start,
    .run_cancel = emu_run_cancel,
#if !AXL_EMU_HOSTED
    .progress = emu_progress,
#endif
#if EMU_STREAMS
    .pipeline_open = emu_pipeline_open,
    .pipeline_close = emu_pipeline_close,
    .unit_start = emu_unit_start,
    .unit_update = emu_unit_update,
    .unit_stop = emu_unit_stop,
    .pipeline_drained = emu_pipeline_drained,
#endif
};


