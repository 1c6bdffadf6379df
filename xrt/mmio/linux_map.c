/*
 * xrt/mmio/linux_map.c - the mmio port's mapping on Linux without XRT
 * (axl/mmio_linux.h): UIO for control registers, u-dma-buf for banks.
 * Only this file differs from bare metal; the port reads and writes the
 * mappings through the same seam (volatile loads and stores).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "axl/mmio_linux.h"
#include "axl/runtime.h"
#include "axl/xclbin.h"
#include "mmio_config.h"

static struct {
    void *ctrl;
    uint64_t ctrl_phys, ctrl_size;
    void *dma;
    uint64_t dma_size;
    axl_mmio_bank_region banks[AXL_MMIO_BANKS];
} map;

/* A number sysfs gives in decimal or 0x-hex. */
static axl_status read_u64(const char *path, uint64_t *out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return axl_fail(AXL_ERR_PLATFORM, "mmio (Linux): cannot open %s: %s",
                        path, strerror(errno));
    char buf[64] = "";
    char *got = fgets(buf, sizeof buf, f);
    fclose(f);
    char *end = NULL;
    errno = 0;
    unsigned long long v = got ? strtoull(buf, &end, 0) : 0;
    if (!got || end == buf || errno)
        return axl_fail(AXL_ERR_PLATFORM,
                        "mmio (Linux): %s does not hold a number", path);
    *out = v;
    return AXL_SUCCESS;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static axl_status map_file(const char *path, uint64_t size, void **out)
{
    int fd = open(path, O_RDWR | O_SYNC);
    if (fd < 0)
        return axl_fail(AXL_ERR_PLATFORM, "mmio (Linux): cannot open %s: %s",
                        path, strerror(errno));
    void *p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED,
                   fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        return axl_fail(AXL_ERR_PLATFORM,
                        "mmio (Linux): cannot map %llu bytes of %s: %s",
                        (unsigned long long)size, path, strerror(errno));
    *out = p;
    return AXL_SUCCESS;
}

static uintptr_t map_ctrl(void *user, uint64_t phys, uint32_t size)
{
    (void)user;
    (void)size;
    if (phys < map.ctrl_phys || phys - map.ctrl_phys >= map.ctrl_size)
        return 0;
    return (uintptr_t)map.ctrl + (uintptr_t)(phys - map.ctrl_phys);
}

void axl_mmio_linux_unmap(void)
{
    if (map.ctrl)
        munmap(map.ctrl, (size_t)map.ctrl_size);
    if (map.dma)
        munmap(map.dma, (size_t)map.dma_size);
    memset(&map, 0, sizeof map);
}

axl_status axl_mmio_linux_board(const axl_mmio_linux_config *cfg,
                                const void *design, size_t design_size,
                                axl_mmio_board *board)
{
    if (!cfg || !cfg->uio || !cfg->dmabuf || !board)
        return axl_fail(AXL_ERR_INVALID,
                        "axl_mmio_linux_board: the UIO and DMA buffer "
                        "devices are required");
    axl_xclbin x;
    char why[96];
    axl_status st = axl_xclbin_open(&x, design, design_size, why, sizeof why);
    if (st != AXL_SUCCESS)
        return axl_fail(st, "axl_mmio_linux_board: %s", why);
    axl_mmio_linux_unmap();
    const char *sys = cfg->sysfs ? cfg->sysfs : "/sys";
    char path[512];
    uint64_t dma_phys = 0;
    snprintf(path, sizeof path, "%s/class/uio/%s/maps/map0/addr", sys,
             base_name(cfg->uio));
    st = read_u64(path, &map.ctrl_phys);
    if (st == AXL_SUCCESS) {
        snprintf(path, sizeof path, "%s/class/uio/%s/maps/map0/size", sys,
                 base_name(cfg->uio));
        st = read_u64(path, &map.ctrl_size);
    }
    if (st == AXL_SUCCESS) {
        snprintf(path, sizeof path, "%s/class/u-dma-buf/%s/phys_addr", sys,
                 base_name(cfg->dmabuf));
        st = read_u64(path, &dma_phys);
    }
    if (st == AXL_SUCCESS) {
        snprintf(path, sizeof path, "%s/class/u-dma-buf/%s/size", sys,
                 base_name(cfg->dmabuf));
        st = read_u64(path, &map.dma_size);
    }
    if (st == AXL_SUCCESS)
        st = map_file(cfg->uio, map.ctrl_size, &map.ctrl);
    if (st == AXL_SUCCESS)
        st = map_file(cfg->dmabuf, map.dma_size, &map.dma);
    if (st != AXL_SUCCESS) {
        axl_mmio_linux_unmap();
        return st;
    }
    /* One region per used bank, equal 4 KiB-aligned parts. */
    uint32_t used = 0;
    for (uint32_t m = 0; m < x.mem_count; m++) {
        axl_xclbin_mem mem;
        if (axl_xclbin_get_mem(&x, m, &mem) == AXL_SUCCESS && mem.used)
            used++;
    }
    if (used == 0 || used > AXL_MMIO_BANKS) {
        axl_mmio_linux_unmap();
        return axl_fail(AXL_ERR_PLATFORM,
                        "axl_mmio_linux_board: the design uses %u banks; "
                        "the port carves 1..AXL_MMIO_BANKS (%u)",
                        (unsigned)used, (unsigned)AXL_MMIO_BANKS);
    }
    uint64_t part = (map.dma_size / used) & ~(uint64_t)4095;
    uint32_t b = 0;
    for (uint32_t m = 0; m < x.mem_count; m++) {
        axl_xclbin_mem mem;
        if (axl_xclbin_get_mem(&x, m, &mem) != AXL_SUCCESS || !mem.used)
            continue;
        map.banks[b] = (axl_mmio_bank_region){
            m, dma_phys + b * part, part, (unsigned char *)map.dma + b * part};
        b++;
    }
    memset(board, 0, sizeof *board);
    board->design = design;
    board->design_size = design_size;
    board->banks = map.banks;
    board->bank_count = used;
    board->map_ctrl = map_ctrl;
    board->coherent = 1; /* O_SYNC: the mapping is not cached */
    return AXL_SUCCESS;
}
