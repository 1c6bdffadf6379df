/*
 * axl/mmio_linux.h - the mmio port on Linux without XRT (the PYNQ way):
 * the units' control registers through a UIO device, the banks carved
 * from a contiguous DMA buffer device (u-dma-buf). Only the mapping
 * differs from bare metal: the port, its seam and its allocator are the
 * same. For board code on a Linux board that lists the mmio port.
 */
#ifndef AXL_MMIO_LINUX_H
#define AXL_MMIO_LINUX_H

#include <stddef.h>
#include <stdint.h>

#include "axl/mmio.h"
#include "axl/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct axl_mmio_linux_config {
    /** A UIO device whose map 0 spans the units' control spaces (a
     *  generic-uio node over the PL's AXI4-Lite window): "/dev/uio0". */
    const char *uio;
    /** The contiguous buffer the banks are carved from, opened O_SYNC
     *  (uncached, so no cache maintenance is needed): "/dev/udmabuf0". */
    const char *dmabuf;
    /** Where sysfs is ("/sys"; tests point elsewhere). The physical base
     *  and size of both come from it: class/uio/uioN/maps/map0/{addr,size}
     *  and class/u-dma-buf/<name>/{phys_addr,size}. */
    const char *sysfs;
} axl_mmio_linux_config;

/**
 * Maps both devices and fills *board for axl_mmio_set_board(): the design
 * given, one bank region per used MEM_TOPOLOGY bank (equal, 4 KiB-aligned
 * parts of the DMA buffer), map_ctrl into the UIO map, coherent. The
 * caller may add unit wiring and hooks before setting it. Messages name
 * the file that could not be opened, read or mapped.
 */
axl_status axl_mmio_linux_board(const axl_mmio_linux_config *cfg,
                                const void *design, size_t design_size,
                                axl_mmio_board *board);

/** Unmaps what axl_mmio_linux_board mapped (after axl_shutdown). */
void axl_mmio_linux_unmap(void);

#ifdef __cplusplus
}
#endif

#endif /* AXL_MMIO_LINUX_H */
