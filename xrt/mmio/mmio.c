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
 * What the driver must honour of the generated RTL (mmio_regs.h;
 * docs/hls-control.md has the table and its sources):
 *  - ap_done is clear on read in ap_ctrl_hs: the poll that sees it acts
 *    on it; a done left by a run the interrupt ended is read away before
 *    the next start.
 *  - ap_ready may be clear on read and ap_start may be a pulse: a run
 *    reads neither (a pipeline's stop, pipe.c, waits for ap_idle with
 *    ap_start clear, which a pulse start satisfies once idle).
 *  - ap_ctrl_chain holds ap_done until ap_continue, and its ISR cannot be
 *    cleared while ap_done is high: ap_continue first, then the ISR.
 *  - The ISR is toggle-on-write or clear-on-read: read it and write the
 *    same value back, which clears both.
 *
 * What a run does to a unit and how its end is seen (the held arguments,
 * ap_start, polling, the interrupt entry, the completion modes) is
 * unit.c's (mmio_unit.h), which the plan executor shares; this file is
 * the device port around it: the design, the banks, the hal's runs. All
 * hardware access goes through mmio_io.h (volatile loads and stores on a
 * board; in a model build, AXL_MMIO_MODEL, the model the board names,
 * axl/mmio_model.h, of which these files know only that interface). Device
 * memory is the regions the board declares per bank, carved by a
 * fixed-capacity allocator.
 * Caches: clean before the IP reads, invalidate before the CPU reads what
 * it wrote (axl_port_cache_*), unless the board is coherent.
 */
#include <stdatomic.h>
#include <string.h>

#include "axl/runtime.h"
#include "axl/shell.h"
#include "axl/trace.h"
#include "mmio_banks.h"
#include "mmio_unit.h"

typedef struct mmio_bank {
    axl_arena arena;     /* used when same is this bank's own index */
    axl_arena_block blocks[AXL_MMIO_BANK_ALLOCS];
    axl_mmio_bank_region region;
    unsigned char *host;
    uint8_t same;        /* the bank whose arena it uses (mmio_banks.h) */
    char tag[24];
} mmio_bank;

/* The device: the fabric's units (axl__mmio) with the design and banks. */
typedef struct mmio_device {
    axl_xclbin design;   /* the board's design, as opened here */
    int has_design;
    uint32_t nbanks;
    mmio_bank banks[AXL_MMIO_BANKS];
    mmio_memory memory;  /* the banks' regions, checked */
#if MMIO_MODEL
    axl_mmio_bank_region regions[AXL_MMIO_BANKS]; /* the banks, as given
                                                      to the model */
#endif
#if AXL_FEATURE_DESIGN_SWAP
    /* A shell's interrupt lines: the unit each of a loaded partial's
     * lines reaches (MMIO_NO_UNIT: none), rebuilt at each slot load
     * (designs-design.md 3.4). */
    uint8_t line_unit[AXL_MMIO_IRQ_LINES];
    /* Bit k: the board's program_slot loaded slot k since open, so its
     * unload_slot gives it back at close (3.3). */
    uint32_t programmed;
#endif
} mmio_device;

static mmio_device device;

#if MMIO_MODEL
/* What the runtime's messages quote for a kernel the model cannot run:
 * the model's phrase, copied at open (the port has one device). */
static char model_fix[96];

static uint64_t mmio_now(void *dev)
{
    (void)dev;
    return axl__mmio_model_now();
}

/* Powers the model up with the device's design and banks. */
static axl_status model_attach(mmio_device *d)
{
    for (uint32_t b = 0; b < d->nbanks; b++) {
        d->regions[b] = d->banks[b].region;
        d->regions[b].host = d->banks[b].host;
    }
    return axl__mmio_model_attach(&d->design, d->regions, d->nbanks);
}
#endif

static uint64_t core_now(void)
{
    return axl_hal_now();
}

/* A unit's interrupt went missing (unit.c): one line (AXL_MESSAGE_MAX);
 * docs/on-the-metal.md says more. */
static void core_warn(const mmio_unit *u, uint32_t gie, uint32_t ier)
{
    axl_hal_log(AXL_LOG_WARN,
                "mmio: %s (IP_LAYOUT %u) finished, its interrupt missing: "
                "polled from now on. Check GIE (reads %u), IER (0x%x), the "
                "IRQ controller's master enable, the IRQ wiring",
                u->name, (unsigned)(u - axl__mmio.units), (unsigned)gie,
                (unsigned)ier);
}

static void *host_of(const axl_hal_mem *m, uint64_t offset)
{
    return (unsigned char *)m->host_ptr + offset;
}

/* After done: the CPU must not read stale lines of what the IP wrote. */
static void invalidate_outputs(const axl_hal_run *run)
{
    if (axl__mmio.board->coherent)
        return;
    for (uint32_t i = 0; i < run->arg_count; i++) {
        const axl_hal_arg *a = &run->args[i];
        if (a->is_mem && a->mem)
            axl__mmio_invalidate(host_of(a->mem, a->offset), a->size);
    }
}

/* A unit's run ended (mmio_unit.h): the core hears it. */
static void hal_ended(mmio_unit *u, const void *p, axl_status st,
                      const char *why)
{
    const axl_hal_run *run = p;
    (void)u;
    invalidate_outputs(run);
    /* A port test that drives the port without the core passes no
     * token. */
    if (run->token)
        axl_hal_run_done(run->token, st, st == AXL_SUCCESS ? NULL : why);
}


#if AXL_FEATURE_DESIGN_SWAP
/* The slot (0-based) whose unit numbers hold unit n: from its first_unit
 * up to the next slot's first_unit (or AXL_MMIO_UNITS); -1: the static
 * part's (designs-design.md 2.8: a slot's units are first_unit + their
 * IP_LAYOUT index). */
static int slot_of_unit(const axl_shell *sh, uint32_t n)
{
    return axl_shell_slot_of_unit(sh, n, AXL_MMIO_UNITS);
}

/* The IP_LAYOUT index, in its own design, of unit number n. */
static uint32_t ip_of_unit(uint32_t n)
{
    const axl_shell *sh = axl__mmio.board->shell;
    const int k = slot_of_unit(sh, n);
    return k < 0 ? n : n - sh->slots[k].first_unit;
}
#else
#define ip_of_unit(n) (n)
#endif

/* ---- Opening: banks and units from the design and the board --------------- */

bool axl__mmio_reader_mem(const void *design, uint32_t index,
                          axl_xclbin_mem *out)
{
    return axl_xclbin_get_mem(design, index, out) == AXL_SUCCESS;
}

/* The banks: the board's regions (or the design's used banks), checked
 * (banks.c); banks that are the same memory share the first one's
 * allocator, so two live buffers never overlap whichever bank each is
 * in. */
static axl_status map_banks(mmio_device *d)
{
    mmio_memory *mem = &d->memory;
    axl_status st = axl__mmio_memory(
        "mmio", axl__mmio.board, &d->design,
        d->has_design ? d->design.mem_count : 0u, axl__mmio_reader_mem, mem);
    if (st != AXL_SUCCESS)
        return st;
    for (uint32_t i = 0; i < mem->count; i++) {
        mmio_bank *b = &d->banks[i];
        const axl_mmio_bank_region *r = &mem->region[i];
        b->region = *r;
        b->host = r->host;
        b->same = mem->same[i];
        axl_xclbin_mem xm;
        if (d->has_design &&
            axl_xclbin_get_mem(&d->design, r->mem_index, &xm) == AXL_SUCCESS)
            axl_format(b->tag, sizeof b->tag, "%.*s", (int)xm.tag.len,
                       xm.tag.ptr);
        else
            axl_format(b->tag, sizeof b->tag, "bank%u",
                       (unsigned)r->mem_index);
        axl_arena_init(&b->arena, b->host, r->size, mem->align, b->blocks,
                       AXL_MMIO_BANK_ALLOCS);
    }
    d->nbanks = mem->count;
    return AXL_SUCCESS;
}

/* Units: every IP_KERNEL of the design, with the board's wiring. */
static axl_status map_units(mmio_device *d)
{
    memset(axl__mmio.units, 0, sizeof axl__mmio.units);
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
#if AXL_FEATURE_DESIGN_SWAP
        const axl_shell *sh = axl__mmio.board->shell;
        const int k = slot_of_unit(sh, i);
        if (k >= 0)
            return mmio_fail(AXL_ERR_PLATFORM,
                             "mmio: the static design's compute unit %.*s is "
                             "IP_LAYOUT entry %u, a unit number of slot %s "
                             "of shell %s (from %u): the shell's first_unit "
                             "values must lie past the static units",
                             (int)ip.name.len, ip.name.ptr, (unsigned)i,
                             sh->slots[k].name, sh->name,
                             (unsigned)sh->slots[k].first_unit);
#endif
        axl__mmio.units[i].ended = hal_ended;
        axl_status st = axl__mmio_wire_unit(
            i, ip.base_address, ip.control == AXL_XCLBIN_AP_CTRL_CHAIN,
            ip.name.ptr, ip.name.len);
        if (st != AXL_SUCCESS)
            return st;
    }
    return AXL_SUCCESS;
}

static axl_status mmio_probe(uint32_t *count, char *why, size_t why_size)
{
    const axl_mmio_board *bd = axl__mmio_the_board();
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
    if (axl__mmio.open == MMIO_OWNER_PLANS)
        return mmio_fail(AXL_ERR_RUNTIME,
                         "mmio: plans are loaded (axl/plan.h): the units are "
                         "the plan executor's until they are unloaded");
    memset(d, 0, sizeof *d);
    axl__mmio.board = axl__mmio_the_board();
    axl__mmio.now = core_now;
    axl__mmio.warn = core_warn;
    if (!axl__mmio.board)
        return mmio_fail(AXL_ERR_PLATFORM, "mmio: no board data");
    const axl_mmio_board *bd = axl__mmio.board;
    char why[96];
    if (bd->predigested
            ? axl_xclbin_open_design(&d->design, bd->predigested, why,
                                     sizeof why) == AXL_SUCCESS
            : bd->design &&
                  axl_xclbin_open(&d->design, bd->design, bd->design_size,
                                  why, sizeof why) == AXL_SUCCESS)
        d->has_design = 1;
#if MMIO_MODEL
    axl__mmio.model = bd->model;
    if (!axl__mmio.model)
        return mmio_fail(AXL_ERR_PLATFORM,
                         "mmio: a model build needs a model of the fabric; "
                         "the board names none (axl_mmio_board.model)");
    axl_format(model_fix, sizeof model_fix, "%s",
               axl__mmio.model->kernel_fix ? axl__mmio.model->kernel_fix
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
        axl__mmio_model_detach();
#endif
        return st;
    }
    axl__mmio.open = MMIO_OWNER_DEVICE;
    *dev = d;
    return AXL_SUCCESS;
}

#if AXL_FEATURE_DESIGN_SWAP
/* The slots the board programmed go back to it at close (axl_shutdown:
 * designs-design.md 3.3, so dfx-mgr's bookkeeping stays clean). The
 * runtime shuts down whatever the board answers: a refusal is logged. */
static void give_slots_back(mmio_device *d)
{
    const axl_mmio_board *bd = axl__mmio.board;
    for (uint32_t k = 0; bd && bd->unload_slot && k < AXL_SHELL_MAX_SLOTS;
         k++)
        if (((d->programmed >> k) & 1u) &&
            bd->unload_slot(bd->user, k) != AXL_SUCCESS)
            axl_hal_log(AXL_LOG_WARN,
                        "mmio: slot %s keeps its partial after shutdown: %s",
                        bd->shell->slots[k].name, axl_last_message());
    d->programmed = 0;
}
#endif

static void mmio_close(void *dev)
{
#if AXL_FEATURE_DESIGN_SWAP
    give_slots_back(dev);
#endif
    (void)dev;
    axl__mmio.open = MMIO_OWNER_NONE;
#if MMIO_MODEL
    axl__mmio_model_detach();
#endif
}

static axl_status mmio_describe(void *dev, axl_hal_device_info *info)
{
    const mmio_device *d = dev;
    memset(info, 0, sizeof *info);
#if MMIO_MODEL
    /* The units are a model's, and the name says which (alone: the
     * runtime's messages quote it with the model's kernel_fix). */
    const axl_mmio_model *model = axl__mmio.model;
    axl_format(info->name, sizeof info->name, "%s",
               model->name ? model->name : "a model of an mmio FPGA");
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
    if (model->now_ns)
        info->flags |= AXL_HAL_DEVICE_OWN_CLOCK;
#endif
    if (axl__mmio.board->program)
        info->flags |= AXL_HAL_DEVICE_REPROGRAMMABLE;
#if AXL_FEATURE_DESIGN_SWAP
    /* A board that reprograms may do it on demand, unless it says the
     * design stays while it is held (axl_mmio_board.fixed_design). */
    if (axl__mmio.board->program && !axl__mmio.board->fixed_design)
        info->flags |= AXL_HAL_DEVICE_SWAPS;
    const axl_shell *sh = axl__mmio.board->shell;
    if (sh) {
        info->region_count = 1 + sh->slot_count;
        memcpy(info->shell_uuid, sh->interface_uuid, sizeof info->shell_uuid);
        axl_format(info->shell_name, sizeof info->shell_name, "%s",
                   sh->name);
    }
#endif
    /* A sub-buffer's origin keeps what the buffers themselves keep. */
    info->mem_base_addr_align =
        d->memory.align * 8u < AXL_MMIO_MEM_ALIGN_BITS
            ? d->memory.align * 8u
            : AXL_MMIO_MEM_ALIGN_BITS;
    info->max_clock_mhz = 300;
    info->bank_count = d->nbanks;
    for (uint32_t b = 0; b < d->nbanks; b++) {
        if (d->banks[b].same == b) /* each memory once */
            info->global_mem_size += d->banks[b].region.size;
        if (d->banks[b].region.size > info->max_mem_alloc_size)
            info->max_mem_alloc_size = d->banks[b].region.size;
    }
    info->timer_resolution_ns = axl_port_clock_resolution_ns();
#if MMIO_MODEL
    if (model->now_ns)
        info->timer_resolution_ns = 1;
#endif
    info->builtin_image = axl__mmio.board->design;
    info->builtin_image_size = axl__mmio.board->design_size;
    info->builtin_design = axl__mmio.board->predigested;
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

/* The board programs the fabric with image, and the port takes up its
 * units (the model powers up with them). The banks, their allocators and
 * every buffer in them stay: a board's program hook leaves memory alone,
 * and the model is handed the same regions (designs-design.md 2.3). */
static axl_status program_fabric(mmio_device *d, const axl_xclbin *image,
                                 char *why, size_t why_size)
{
    if (!axl__mmio.board->program) {
        axl_format(why, why_size,
                   "the board gives the mmio port no way to program the "
                   "fabric (axl_mmio_board.program)");
        return AXL_ERR_FEATURE_NOT_SUPPORTED;
    }
    for (uint32_t i = 0; i < AXL_MMIO_UNITS; i++)
        if (atomic_load(&axl__mmio.units[i].run) ||
            atomic_load(&axl__mmio.units[i].hung_run)) {
            axl_format(why, why_size, "compute unit %s is running",
                       axl__mmio.units[i].name);
            return AXL_ERR_RUNTIME;
        }
    axl_status st =
        axl__mmio.board->program(axl__mmio.board->user, image);
    if (st != AXL_SUCCESS) {
        axl_format(why, why_size, "%s", axl_last_message());
        return st;
    }
    d->design = *image;
    d->has_design = 1;
#if MMIO_MODEL
    /* The simulated IPs of the old design stop (their threads joined),
     * the new design's start from their reset; the banks' bytes are the
     * port's and stay. */
    axl__mmio_model_detach();
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

static axl_status mmio_load_image(void *dev, const axl_xclbin *image,
                                  char *why, size_t why_size)
{
    return program_fabric(dev, image, why, why_size);
}

#if AXL_FEATURE_DESIGN_SWAP
/* ---- DFX slots (issue 40 stage 5, designs-design.md 3.4, 3.7) ------------- */

/* Region `index` of a device with a shell: region 0 its static part,
 * region k + 1 its slot k. */
static axl_status mmio_region(void *dev, uint32_t index, axl_hal_region *out)
{
    (void)dev;
    const axl_shell *sh = axl__mmio.board->shell;
    memset(out, 0, sizeof *out);
    if (index == 0) {
        axl_format(out->name, sizeof out->name, "static");
        return AXL_SUCCESS;
    }
    if (!sh || index > sh->slot_count)
        return mmio_fail(AXL_ERR_INVALID, "mmio: the device has no region %u",
                         (unsigned)index);
    axl_hal_region_of_slot(&sh->slots[index - 1], out);
    return AXL_SUCCESS;
}

/* Whether slot k's units are all idle (no run, none hung): else why. */
static axl_status slot_idle(const axl_shell *sh, uint32_t k, char *why,
                            size_t why_size)
{
    for (uint32_t n = 0; n < AXL_MMIO_UNITS; n++) {
        const mmio_unit *u = &axl__mmio.units[n];
        if (slot_of_unit(sh, n) == (int)k &&
            (atomic_load(&u->run) || atomic_load(&u->hung_run))) {
            axl_format(why, why_size, "compute unit %s of slot %s is running",
                       u->name, sh->slots[k].name);
            return AXL_ERR_RUNTIME;
        }
    }
    return AXL_SUCCESS;
}

/* Slot k's units and their interrupt lines forgotten: a slot being
 * programmed (or whose load failed) has no unit the port drives. */
static void forget_slot_units(mmio_device *d, uint32_t k)
{
    const axl_shell *sh = axl__mmio.board->shell;
    /* None has a run out (slot_idle); waiters may still look at them. */
    for (uint32_t n = 0; n < AXL_MMIO_UNITS; n++)
        if (slot_of_unit(sh, n) == (int)k)
            axl__mmio_unit_forget(&axl__mmio.units[n]);
    for (uint32_t l = 0; l < AXL_MMIO_IRQ_LINES; l++)
        if (d->line_unit[l] &&
            slot_of_unit(sh, d->line_unit[l] - 1u) == (int)k)
            d->line_unit[l] = 0;
}

/* Slot k's units are the partial's now: each IP_KERNEL i of image wired
 * as unit first_unit + i at its base (in the slot's window: the core's
 * 3.2 check), its interrupt line irq_first + its interrupt id mapped to
 * it. */
static axl_status map_slot_units(mmio_device *d, uint32_t k,
                                 const axl_xclbin *image)
{
    const axl_shell *sh = axl__mmio.board->shell;
    const axl_slot *slot = &sh->slots[k];
    for (uint32_t i = 0; i < image->ip_count; i++) {
        axl_xclbin_ip ip;
        if (axl_xclbin_get_ip(image, i, &ip) != AXL_SUCCESS ||
            ip.type != AXL_XCLBIN_IP_KERNEL)
            continue;
        const uint32_t n = slot->first_unit + i;
        if (slot_of_unit(sh, n) != (int)k)
            return mmio_fail(AXL_ERR_OUT_OF_RESOURCES,
                             "mmio: compute unit %.*s is IP_LAYOUT entry %u "
                             "of a partial for slot %s: unit %u is past the "
                             "slot's unit numbers (the next slot's "
                             "first_unit, or AXL_MMIO_UNITS %u)",
                             (int)ip.name.len, ip.name.ptr, (unsigned)i,
                             slot->name, (unsigned)n,
                             (unsigned)AXL_MMIO_UNITS);
        axl__mmio.units[n].ended = hal_ended;
        axl_status st = axl__mmio_wire_unit(
            n, ip.base_address, ip.control == AXL_XCLBIN_AP_CTRL_CHAIN,
            ip.name.ptr, ip.name.len);
        if (st != AXL_SUCCESS)
            return st;
        const uint32_t line = slot->irq_first + ip.interrupt_id;
        if (ip.interrupt_id < slot->irq_count && line < AXL_MMIO_IRQ_LINES)
            d->line_unit[line] = (uint8_t)(n + 1u);
        /* Its first run checks the interrupt at AXL_MMIO_IRQ_VERIFY_NS
         * (3.4; unit.c grace_of). */
        axl__mmio.units[n].verify_next = 1;
    }
    return AXL_SUCCESS;
}

/* The board re-arms its interrupt controller for slot k's lines, which a
 * partial load may leave dead (3.4); a board without the hook has
 * nothing to re-arm, and the first runs' check catches a line that
 * stayed dead. */
static axl_status rearm_slot(uint32_t k, char *why, size_t why_size)
{
    const axl_mmio_board *bd = axl__mmio.board;
    if (!bd->after_load)
        return AXL_SUCCESS;
    axl_status st = bd->after_load(bd->user, k);
    if (st != AXL_SUCCESS)
        axl_format(why, why_size,
                   "the board's after_load for %s failed: %s",
                   bd->shell->slots[k].name, axl_last_message());
    return st;
}

/* A partial into slot region r: the board programs the slot (model
 * boards accept), the model attaches the slot's units, the port wires
 * them, and the board re-arms the slot's interrupts. A failure at any
 * step leaves the slot without units the port drives. The banks, the static part's units and the other slots' are
 * untouched: their runs go on. */
static axl_status slot_load(mmio_device *d, uint32_t r,
                            const axl_xclbin *image, char *why,
                            size_t why_size)
{
    const axl_mmio_board *bd = axl__mmio.board;
    const axl_shell *sh = bd->shell;
    if (!sh || r > sh->slot_count) {
        axl_format(why, why_size, "the mmio device has no region %u",
                   (unsigned)r);
        return AXL_ERR_INVALID;
    }
    const axl_slot *slot = &sh->slots[r - 1];
    if (!bd->program_slot) {
        axl_format(why, why_size,
                   "the board gives the mmio port no way to program slot %s "
                   "(axl_mmio_board.program_slot)",
                   slot->name);
        return AXL_ERR_FEATURE_NOT_SUPPORTED;
    }
#if MMIO_MODEL
    if (!axl__mmio.model->attach_region) {
        axl_format(why, why_size,
                   "%s models the whole fabric only: slot %s takes no "
                   "partial (axl_mmio_model.attach_region)",
                   axl__mmio.model->name ? axl__mmio.model->name
                                         : "the model",
                   slot->name);
        return AXL_ERR_FEATURE_NOT_SUPPORTED;
    }
#endif
    axl_status st = slot_idle(sh, r - 1, why, why_size);
    if (st != AXL_SUCCESS)
        return st;
    forget_slot_units(d, r - 1);
    st = bd->program_slot(bd->user, r - 1, image);
    if (st == AXL_SUCCESS)
        d->programmed |= 1u << (r - 1);
#if MMIO_MODEL
    if (st == AXL_SUCCESS)
        st = axl__mmio_model_load_region(r, image, slot->first_unit);
#endif
    if (st == AXL_SUCCESS)
        st = map_slot_units(d, r - 1, image);
    if (st != AXL_SUCCESS)
        axl_format(why, why_size, "%s", axl_last_message());
    else
        st = rearm_slot(r - 1, why, why_size);
    if (st != AXL_SUCCESS) {
        forget_slot_units(d, r - 1); /* none the port drives */
        return st;
    }
    axl__mmio_count(&axl__mmio_counters.loads);
    return AXL_SUCCESS;
}

void axl_mmio_irq(uint32_t line)
{
    if (axl__mmio.open == MMIO_OWNER_DEVICE && line < AXL_MMIO_IRQ_LINES &&
        device.line_unit[line])
        axl_mmio_isr(device.line_unit[line] - 1u);
}

/* Another design on demand (issue 40, designs-design.md 2.2, 5): the
 * whole fabric, region 0, as load_image, which already keeps the banks;
 * a shell's slot, region 1.., slot_load. */
static axl_status mmio_region_load(void *dev, uint32_t *region,
                                   const axl_xclbin *image, char *why,
                                   size_t why_size)
{
    if (*region != 0)
        return slot_load(dev, *region, image, why, why_size);
    return program_fabric(dev, image, why, why_size);
}
#endif

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
    (void)dev;
    const axl_mmio_model *m = axl__mmio.model;
    if (m->can_run && !m->can_run(m->user, image, kernel_index))
        return false; /* the model cannot run it */
#else
    (void)dev;
#endif
    return drivable(image, kernel_index);
}

MMIO_MESSAGE_ONLY static const char *protocol_name(uint32_t control)
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
    (void)dev;
    axl_xclbin_kernel k;
    axl_xclbin_ip ip;
    /* ip_index is the unit number: a slot's first_unit + the entry. */
    if (axl_xclbin_get_kernel(image, kernel_index, &k) != AXL_SUCCESS ||
        axl_xclbin_get_ip(image, ip_of_unit(ip_index), &ip) != AXL_SUCCESS)
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
    if (ip_index >= AXL_MMIO_UNITS || !axl__mmio.units[ip_index].known)
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
    const axl_mmio_model *model = axl__mmio.model;
    if (model->can_run && !model->can_run(model->user, image, kernel_index))
        return mmio_fail(AXL_ERR_KERNEL_NOT_SUPPORTED,
                         "mmio: %s cannot run kernel %.*s: %s",
                         model->name ? model->name : "the model",
                         (int)k.name.len, k.name.ptr, model_fix);
#endif
    mmio_unit *u = &axl__mmio.units[ip_index];
    axl_status st = axl__mmio_layout(u, image, kernel_index);
    if (st != AXL_SUCCESS)
        return st;
    /* ap_done raises the interrupt where the mode wants one; ap_ready
     * never does (a bit some cores lack). */
    axl__mmio_arm(u);
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

static axl_status mmio_run_start(void *dev, const axl_hal_run *run)
{
    (void)dev;
    mmio_unit *u = (mmio_unit *)run->cu_handle;
    if (!u)
        return mmio_fail(AXL_ERR_RUNTIME, "mmio: %s was not opened",
                         run->kernel_name);
    axl_status st = axl__mmio_ready(u);
    if (st != AXL_SUCCESS)
        return st;
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
            axl__mmio_forget_held(u); /* this run's id did not write them
                                         all */
            return mmio_fail(AXL_ERR_KERNEL_ARGUMENT,
                             "mmio: %s has no register for argument %u",
                             run->kernel_name, (unsigned)a->id);
        }
        const mmio_arg *r = &u->args[m];
        uint64_t v;
        if (a->is_mem) {
            axl__mmio_clean(host_of(a->mem, a->offset), a->size);
            if (same_mem && (u->held_mask & (1u << m)))
                continue;
            v = a->mem->device_address + a->offset;
        } else {
            uint64_t n = a->size < r->size ? a->size : r->size;
            if (r->size > 8) {
                axl__mmio_put_wide(u, m, a->value, n);
                continue;
            }
            /* Into zeroed words, not a zeroed uint64_t: GCC at -Os keeps
             * that zero in a VFP register on the R5 (32 B more). */
            uint32_t w[2] = {0, 0};
            memcpy(w, a->value, (size_t)n);
            v = w[0] | (uint64_t)w[1] << 32;
        }
        axl__mmio_put_value(u, m, v);
    }
    u->held_id = run->args_id;
    axl__mmio_go(u, run);
    return AXL_SUCCESS;
}



/* The unit is back after a reset: the run it held, given up or not, is
 * over and goes back to the core (its one run_done; a given-up run's
 * status is ignored there). */
static void back_after_reset(mmio_unit *u)
{
    axl__mmio_count(&axl__mmio_counters.resets);
    atomic_store_explicit(&u->reset_ctrl, 0, memory_order_relaxed);
    const void *run = atomic_exchange(&u->hung_run, NULL);
    if (!run)
        run = atomic_exchange(&u->run, NULL);
    if (run)
        u->ended(u, run, AXL_ERR_RUNTIME,
                 "mmio: the compute unit was reset before its run ended");
}

/* The register layout of kernel kernel_index, from the XML, never
 * computed (a failure says why). */
axl_status axl__mmio_layout(mmio_unit *u, const axl_xclbin *image,
                            uint32_t kernel_index)
{
    axl_xclbin_kernel k;
    if (axl_xclbin_get_kernel(image, kernel_index, &k) != AXL_SUCCESS)
        return mmio_fail(AXL_ERR_KERNEL_NOT_SUPPORTED,
                         "mmio: no kernel %u in the design",
                         (unsigned)kernel_index);
    if (k.arg_count > AXL_MMIO_MAX_ARGS)
        return mmio_fail(AXL_ERR_KERNEL_NOT_SUPPORTED,
                         "mmio: kernel %.*s has %u arguments; the port keeps "
                         "AXL_MMIO_MAX_ARGS (%u)",
                         (int)k.name.len, k.name.ptr, (unsigned)k.arg_count,
                         (unsigned)AXL_MMIO_MAX_ARGS);
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
    axl__mmio_forget_held(u); /* another layout, or a reloaded design */
    return AXL_SUCCESS;
}

/* ap_sw_reset where the board says the unit has it, then the board's
 * hook; the unit is back when it reads idle, and its run (if any) ends
 * then. Else why says what each attempt did. */
axl_status axl__mmio_reset(uint32_t ip_index, char *why, size_t why_size)
{
    mmio_unit *u = &axl__mmio.units[ip_index];
    uint32_t ctrl = 0;
    char sw[96] = "";
    axl__mmio_forget_held(u);
    if (u->sw_reset) {
        mmio_wr32(u->regs, MMIO_CTRL, MMIO_AP_SW_RESET);
        if (axl__mmio_back_idle(u, &ctrl)) {
            back_after_reset(u);
            return AXL_SUCCESS;
        }
        /* The board says the core has ap_sw_reset; the core does not act
         * on it: the hook may still bring it back. */
        axl_format(sw, sizeof sw,
                   "ap_sw_reset left it busy (control word 0x%x)",
                   (unsigned)ctrl);
    }
    const axl_mmio_board *bd = axl__mmio.board;
    if (!bd->reset_unit) {
        if (!u->sw_reset)
            return AXL_ERR_FEATURE_NOT_SUPPORTED;
        axl_format(why, why_size, "%s, and the board has no reset hook", sw);
        return AXL_ERR_RUNTIME;
    }
    axl_status st = bd->reset_unit(bd->user, ip_index);
    if (st == AXL_SUCCESS && axl__mmio_back_idle(u, &ctrl)) {
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
    if (axl__mmio.open != MMIO_OWNER_DEVICE || ip_index >= AXL_MMIO_UNITS ||
        !axl__mmio.units[ip_index].known)
        return mmio_fail(AXL_ERR_INVALID,
                         "axl_mmio_reset_unit: no compute unit at IP_LAYOUT "
                         "index %u",
                         (unsigned)ip_index);
    mmio_unit *u = &axl__mmio.units[ip_index];
    char why[AXL_MESSAGE_MAX - 48];
    why[0] = '\0';
    axl_status st = axl__mmio_reset(ip_index, why, sizeof why);
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
    const void *mine = run;
    if (!atomic_compare_exchange_strong(&u->run, &mine, NULL))
        return; /* it ended meanwhile; the core sees its run_done */
    /* This call has the run. A done the interrupt sees between here and
     * hung_run below finds no run: the unit then waits for a reset. */
    if (u->sw_reset) {
        uint32_t ctrl = 0;
        axl__mmio_forget_held(u);
        mmio_wr32(u->regs, MMIO_CTRL, MMIO_AP_SW_RESET);
        if (axl__mmio_back_idle(u, &ctrl)) {
            axl__mmio_count(&axl__mmio_counters.resets);
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
    axl_arena *arena = &d->banks[b->same].arena;
    uint64_t off;
    axl_port_lock();
    uint32_t full = arena->nblocks == arena->max_blocks;
    axl_status st = axl_arena_alloc(arena, size, &off);
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
    if (axl__mmio.model->note_alloc) {
        const axl_mmio_model *m = axl__mmio_model_enter();
        m->note_alloc(m->user, out->device_address, size);
        axl__mmio_model_leave(m);
    }
#endif
    return AXL_SUCCESS;
}

static void mmio_mem_free(void *dev, axl_hal_mem *mem)
{
    mmio_device *d = dev;
#if MMIO_MODEL
    if (axl__mmio.model->note_free) {
        const axl_mmio_model *m = axl__mmio_model_enter();
        m->note_free(m->user, mem->device_address);
        axl__mmio_model_leave(m);
    }
#endif
    axl_port_lock();
    axl_arena_free(&d->banks[d->banks[mem->bank].same].arena,
                   (uint64_t)(mem->handle - 1));
    axl_port_unlock();
    mem->handle = 0;
}

static axl_status mmio_mem_write(void *dev, axl_hal_mem *mem, uint64_t offset,
                                 const void *src, uint64_t size)
{
    (void)dev;
    if (offset > mem->size || size > mem->size - offset)
        return AXL_ERR_INVALID;
    void *p = host_of(mem, offset);
    memcpy(p, src, (size_t)size);
    axl__mmio_clean(p, size);
    return AXL_SUCCESS;
}

static axl_status mmio_mem_read(void *dev, axl_hal_mem *mem, uint64_t offset,
                                void *dst, uint64_t size)
{
    (void)dev;
    if (offset > mem->size || size > mem->size - offset)
        return AXL_ERR_INVALID;
    void *p = host_of(mem, offset);
    axl__mmio_invalidate(p, size);
    memcpy(dst, p, (size_t)size);
    return AXL_SUCCESS;
}

static axl_status mmio_mem_copy(void *dev, axl_hal_mem *dst, uint64_t dst_off,
                                axl_hal_mem *src, uint64_t src_off,
                                uint64_t size)
{
    (void)dev;
    if (dst_off > dst->size || size > dst->size - dst_off ||
        src_off > src->size || size > src->size - src_off)
        return AXL_ERR_INVALID;
    void *s = host_of(src, src_off), *t = host_of(dst, dst_off);
    axl__mmio_invalidate(s, size);
    memmove(t, s, (size_t)size);
    axl__mmio_clean(t, size);
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
    (void)dev;
    (void)image;
    if (ip_index >= AXL_MMIO_UNITS)
        return mmio_fail(AXL_ERR_OUT_OF_RESOURCES,
                         "mmio: it is IP_LAYOUT entry %u; the port reaches "
                         "entries below AXL_MMIO_UNITS (%u)",
                         (unsigned)ip_index, (unsigned)AXL_MMIO_UNITS);
    mmio_unit *u = &axl__mmio.units[ip_index];
    if (!u->known && !u->ip_opens) {
        axl_status st = axl__mmio_map_unit(ip_index, ip->base_address,
                                           ip->name.ptr, ip->name.len);
        if (st != AXL_SUCCESS)
            return st;
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
    (void)dev;
    axl__mmio.units[handle - 1u].ip_opens--;
}

static axl_status mmio_ip_read32(void *dev, uintptr_t handle, uint32_t offset,
                                 uint32_t *value)
{
    (void)dev;
    *value = mmio_rd32(axl__mmio.units[handle - 1u].regs, offset);
    return AXL_SUCCESS;
}

static axl_status mmio_ip_write32(void *dev, uintptr_t handle,
                                  uint32_t offset, uint32_t value)
{
    (void)dev;
    mmio_wr32(axl__mmio.units[handle - 1u].regs, offset, value);
    return AXL_SUCCESS;
}

/* An interrupt wired to the CPU is the entry's (axl_mmio_isr counts what
 * it acknowledges); one that is not is seen in the IP's ISR, which this
 * acknowledges the same way (read it, write it back). */
static axl_status mmio_ip_wait(void *dev, uintptr_t handle,
                               uint64_t timeout_ns)
{
    (void)dev;
    mmio_unit *u = &axl__mmio.units[handle - 1u];
#if MMIO_MODEL
    const uint64_t now = axl__mmio_now();
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
        if (axl__mmio_now() >= deadline)
            return AXL_ERR_TIMEOUT;
        (void)axl__mmio_model_advance(deadline);
#else
        if (axl_hal_now() >= deadline)
            return AXL_ERR_TIMEOUT;
#endif
        axl_port_relax();
    }
}
#endif /* MMIO_IP */

static void mmio_progress(void *dev, uint64_t deadline_ns)
{
    (void)dev;
    axl__mmio_progress(deadline_ns);
}

const axl_device_port axl_mmio_port = {
    .name = "mmio",
    .platform_name = "axl mmio",
    .platform_vendor = "axl",
    .platform_version = "SYCL 2020 axl-mmio 0.1",
    .backend = AXL_BACKEND_MMIO,
    .probe = mmio_probe,
    .open = mmio_open,
    .close = mmio_close,
    .describe = mmio_describe,
    .bank = mmio_bank_info,
    .load_image = mmio_load_image,
#if AXL_FEATURE_DESIGN_SWAP
    .region_load = mmio_region_load,
    .region = mmio_region,
#endif
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
#if MMIO_STREAMS
    .pipeline_open = axl__mmio_pipeline_open,
    .pipeline_close = axl__mmio_pipeline_close,
    .unit_start = axl__mmio_unit_start,
    .unit_update = axl__mmio_unit_update,
    .unit_stop = axl__mmio_unit_stop,
#endif
};
