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
#include "axl/shell.h"
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

/* ---- DFX slots through dfx-mgr (issue 40; docs/designs-design.md 3.5) ----
 *
 * A board whose shell (axl_mmio_board.shell) is Xilinx's dfx-mgr's to
 * program sets program_slot = axl_mmio_dfxmgr_program_slot, unload_slot =
 * axl_mmio_dfxmgr_unload_slot and user = an axl_mmio_dfxmgr. The helper
 * opens dfx-mgr's client library with dlopen at the first slot load (no
 * build or run-time dependency until then: the same binary runs where
 * dfx-mgr is absent, and tests hand it a fake), asks it to load the
 * partial's package, and keeps dfx-mgr's handle per slot: the next load
 * into that slot unloads it first, and axl_shutdown gives it back. Built
 * with AXL_MMIO_DFXMGR (on by default in Linux builds). What dfx-mgr's
 * library offers (Xilinx/dfx-mgr src/dfxmgr_client.h):
 * dfxmgr_load(package) -> a slot handle, or a negative error;
 * dfxmgr_unload(handle) (dfxmgr_remove before 2026) -> 0 or -1;
 * dfxmgr_uio_by_name(obuf, handle, name) -> "/dev/uioN". The daemon picks
 * the slot: the lowest empty one for which the package has an
 * <package>_slot<N> folder. A package made for axl holds the partial
 * linked for slot N in its <package>_slot<N> folder only, so that
 * dfx-mgr's choice is the slot axl asked for; uio_name lets the helper
 * check it.
 */

/** The most characters of a dfx-mgr package name, NUL included. */
#define AXL_MMIO_DFXMGR_NAME 64u

typedef struct axl_mmio_dfxmgr {
    /** The library to open; NULL: $AXL_DFXMGR_LIB when set, else
     *  "libdfx-mgr.so.2", "libdfx-mgr.so.1" (releases before 2024.2), then
     *  "libdfx-mgr.so". */
    const char *library;
    /** Writes into name (size bytes) the dfx-mgr package that holds
     *  `image` for slot `slot` (0-based, the shell's order). NULL: the
     *  partial's first kernel's name ("vadd"). */
    axl_status (*package)(void *user, uint32_t slot,
                          const struct axl_xclbin *image, char *name,
                          size_t size);
    void *user;
    /** A UIO the partial's device tree overlay names (its `name` in sysfs,
     *  "AccelConfig" on Kria's 2RP designs): after a load the helper asks
     *  dfx-mgr for it and checks its map 0 lies in the slot's control
     *  window, so a package loaded into another slot is unloaded and
     *  refused. NULL: no check. */
    const char *uio_name;
    /** The board's shell (axl_mmio_board.shell): the slots' windows for
     *  that check. */
    const axl_shell *shell;
    /** Where sysfs is for that check ("/sys"; tests point elsewhere). */
    const char *sysfs;
    /* The helper's own, zero before the first load. */
    void *lib;
    int (*load)(char *package);
    int (*unload)(int handle);
    char *(*uio_by_name)(char *obuf, int handle, const char *name);
    int handle[AXL_SHELL_MAX_SLOTS]; /**< dfx-mgr's handle + 1 per slot;
                                         0: none */
} axl_mmio_dfxmgr;

/**
 * axl_mmio_board.program_slot through dfx-mgr (user: an axl_mmio_dfxmgr):
 * unloads what the helper loaded into `slot`, loads the package of `image`
 * and records dfx-mgr's handle. Errors: AXL_ERR_FEATURE_NOT_SUPPORTED when
 * the library cannot be opened or lacks dfxmgr_load (naming the file);
 * AXL_ERR_PLATFORM when dfx-mgr fails, with its return code and what it
 * means; nothing recorded changes on a failed load.
 */
axl_status axl_mmio_dfxmgr_program_slot(void *user, uint32_t slot,
                                        const struct axl_xclbin *image);

/**
 * axl_mmio_board.unload_slot through dfx-mgr (user: an axl_mmio_dfxmgr):
 * unloads the package the helper loaded into `slot`, if any. The port
 * calls it at axl_shutdown for each slot it loaded. AXL_ERR_PLATFORM when
 * dfx-mgr refuses, with its return code; the handle is then kept (the next
 * load into the slot, or axl_mmio_dfxmgr_close, tries again).
 */
axl_status axl_mmio_dfxmgr_unload_slot(void *user, uint32_t slot);

/**
 * Unloads every slot the helper still holds (none once axl_shutdown gave
 * them back through unload_slot; all of them for a board without it) and
 * closes the library, after axl_shutdown. The first failure is returned,
 * after trying every slot; the library stays open then.
 */
axl_status axl_mmio_dfxmgr_close(axl_mmio_dfxmgr *m);

#ifdef __cplusplus
}
#endif

#endif /* AXL_MMIO_LINUX_H */
