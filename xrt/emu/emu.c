/*
 * xrt/emu - the emulated device: a device port with no XRT behind it.
 *
 * Each device has AXL_EMU_BANKS static arenas as memory banks. It runs a
 * compute unit by calling the C model registered for the kernel's name
 * (include/axl/emu.h), on the thread that dispatches the command, so runs
 * are deterministic and a debugger steps straight into a model. The runtime
 * clock (axl_clock_set) times it, so a fixed clock gives fixed timelines.
 */
#include <string.h>

#include "axl/emu.h"
#include "axl/hal.h"
#include "axl/runtime.h"
#include "emu_config.h"
#include "emu_models.h"

#if defined(AXL_EMU_BUILTIN)
#include "axl_emu_builtin.h"
#endif

typedef struct emu_bank {
    axl_arena arena;
    axl_arena_block blocks[AXL_EMU_BANK_ALLOCS];
} emu_bank;

typedef struct emu_device {
    uint32_t index;
    int open;
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
static int builtin_set;

axl_status axl_emu_set_builtin_image(const void *bytes, size_t size)
{
    builtin_bytes = bytes;
    builtin_size = bytes ? size : 0;
    builtin_set = 1;
    return AXL_SUCCESS;
}

static void builtin_image(const void **bytes, size_t *size);

void axl__emu_builtin_image(const void **bytes, size_t *size)
{
    builtin_image(bytes, size);
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

static axl_status emu_open(uint32_t index, void **dev)
{
    emu_device *d = &devices[index];
    memset(d, 0, sizeof *d);
    d->index = index;
    d->open = 1;
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
    d->open = 0;
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

static axl_status emu_run_start(void *dev, const axl_hal_run *run)
{
    (void)dev;
    const emu_model *m = (const emu_model *)run->cu_handle;
    if (!m)
        m = model_for(run->image, run->kernel_index);
    if (!m)
        return emu_fail(AXL_ERR_KERNEL_NOT_SUPPORTED,
                        "the emulated device has no model for kernel %s",
                        run->kernel_name);
    axl_emu_arg args[AXL_EMU_MAX_ARGS];
    if (run->arg_count > AXL_EMU_MAX_ARGS)
        return emu_fail(AXL_ERR_KERNEL_ARGUMENT,
                        "%s has %u arguments; the emulator passes at most "
                        "AXL_EMU_MAX_ARGS (%u)",
                        run->kernel_name, (unsigned)run->arg_count,
                        (unsigned)AXL_EMU_MAX_ARGS);
    uint32_t n = run->arg_count;
    for (uint32_t i = 0; i < n; i++) {
        const axl_hal_arg *a = &run->args[i];
        args[i].id = a->id;
        args[i].is_buffer = a->is_mem != 0;
        args[i].ptr = a->is_mem
                          ? (unsigned char *)a->mem->host_ptr + a->offset
                          : NULL;
        args[i].size = a->size;
        args[i].value = a->is_mem ? NULL : a->value;
    }
    axl_emu_call call = {run->kernel_name, run->cu, n, args};
    char *msg = axl_port_message_buffer();
    msg[0] = '\0';
    axl_status st = m->fn(&call, m->user);
    if (st == AXL_EMU_HANG)
        return AXL_SUCCESS; /* started, and will never finish */
    axl_hal_run_done(run->token, st,
                     st == AXL_SUCCESS ? NULL
                     : msg[0]          ? msg
                                       : "the kernel model failed");
    return AXL_SUCCESS;
}

static void emu_run_cancel(void *dev, const axl_hal_run *run)
{
    /* A hung model already returned: nothing holds the run. */
    (void)dev;
    (void)run;
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
};
