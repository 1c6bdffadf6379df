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

#include "axl/hal.h"
#include "emu_config.h"

typedef struct emu_bank {
    axl_arena arena;
    axl_arena_block blocks[AXL_EMU_BANK_ALLOCS];
} emu_bank;

typedef struct emu_device {
    uint32_t index;
    int open;
    emu_bank banks[AXL_EMU_BANKS];
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

static axl_status emu_open(uint32_t index, void **dev)
{
    emu_device *d = &devices[index];
    memset(d, 0, sizeof *d);
    d->index = index;
    d->open = 1;
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
    return AXL_SUCCESS;
}

static axl_status emu_bank_info(void *dev, uint32_t index, axl_hal_bank *out)
{
    (void)dev;
    memset(out, 0, sizeof *out);
    axl_format(out->tag, sizeof out->tag, "bank%u", (unsigned)index);
    out->size = AXL_EMU_BANK_SIZE;
    out->base_address = 0x4000000000ull + (uint64_t)index * 0x1000000000ull;
    out->image_index = index;
    return AXL_SUCCESS;
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
};
