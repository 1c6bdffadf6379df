/*
 * xrt/mmio/dfxmgr.c - a board's program_slot through Xilinx's dfx-mgr
 * (axl/mmio_linux.h; issue 40, docs/designs-design.md 3.5).
 *
 * dfx-mgr's client library is opened with dlopen at the first slot load,
 * so axl neither builds nor starts against it: where it is absent, a slot
 * load fails naming the library, and everything else runs. The daemon
 * (dfx-mgrd) owns the fabric's slots; the library talks to it over a
 * socket. Facts relied on (Xilinx/dfx-mgr at 9de0f80, src/dfxmgr_client.h
 * and .c, src/daemon_helper.c, README.md):
 *  - int dfxmgr_load(char *package): the slot handle the daemon gave the
 *    accelerator (a small number from a free list, not the slot's index),
 *    or a negative error: -1 (load failed, or no daemon: the client then
 *    fails its write), -2 no package of that name, -3 no empty slot, -4
 *    secure platform;
 *  - int dfxmgr_unload(int handle), called dfxmgr_remove before 2026
 *    (f4f97da): 0, or -1;
 *  - char *dfxmgr_uio_by_name(char *obuf, int handle, const char *name):
 *    "/dev/uioN" of the accelerator's UIO of that name;
 *  - the daemon loads <package>/<package>_slot<N> into the lowest empty
 *    slot N for which that folder exists;
 *  - the shared library is libdfx-mgr.so.<major>: 2 since 0cfd948 (2024),
 *    1 before; libdfx-mgr.so only where the development files are.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axl/mmio_linux.h"
#include "axl/runtime.h"
#include "axl/shell.h"
#include "axl/xclbin.h"

/* One load or unload at a time: the helper's handle table, and the
 * library opened once. (dfx-mgr serialises loads itself.) */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* What a negative dfxmgr_load result means (daemon_helper.h). */
static const char *load_error(int rc)
{
    switch (rc) {
    case -1: return "the load failed, or dfx-mgrd is not running";
    case -2: return "dfx-mgr has no such package";
    case -3: return "no empty slot the package has a folder for";
    case -4: return "the platform is secure";
    default: return "undocumented";
    }
}

/* dlerror's reason, without glibc's "cannot open shared object file"
 * between the file and the system's error (messages are short). */
static void keep_reason(char *why, size_t size, const char *e)
{
    static const char noise[] = ": cannot open shared object file";
    const char *cut = strstr(e, noise);
    if (cut)
        snprintf(why, size, "%.*s%s", (int)(cut - e), e,
                 cut + sizeof noise - 1);
    else
        snprintf(why, size, "%s", e);
}

/* Opens the first library of the list that loads, and takes its calls. */
static axl_status open_library(axl_mmio_dfxmgr *m)
{
    static const char *const names[] = {"libdfx-mgr.so.2", "libdfx-mgr.so.1",
                                        "libdfx-mgr.so"};
    const char *env = getenv("AXL_DFXMGR_LIB");
    const char *only = m->library ? m->library : (env && *env ? env : NULL);
    const char *tried = only ? only : names[0];
    char why[160] = "not found";
    for (size_t i = 0; !m->lib && i < (only ? 1u : 3u); i++) {
        tried = only ? only : names[i];
        m->lib = dlopen(tried, RTLD_NOW | RTLD_LOCAL);
        const char *e = m->lib ? NULL : dlerror();
        if (e && i == 0) /* the first name's reason, not the fallbacks' */
            keep_reason(why, sizeof why, e);
    }
    if (!m->lib)
        return axl_fail(AXL_ERR_FEATURE_NOT_SUPPORTED,
                        "no dfx-mgr library: %s (%s)", why,
                        only ? (m->library ? "axl_mmio_dfxmgr.library"
                                           : "AXL_DFXMGR_LIB")
                             : "nor .so.1, .so; AXL_DFXMGR_LIB names one");
    /* POSIX: a data pointer from dlsym converts to a function pointer. */
    *(void **)&m->load = dlsym(m->lib, "dfxmgr_load");
    *(void **)&m->unload = dlsym(m->lib, "dfxmgr_unload");
    if (!m->unload)
        *(void **)&m->unload = dlsym(m->lib, "dfxmgr_remove");
    *(void **)&m->uio_by_name = dlsym(m->lib, "dfxmgr_uio_by_name");
    if (m->load && m->unload)
        return AXL_SUCCESS;
    dlclose(m->lib);
    m->lib = NULL;
    return axl_fail(AXL_ERR_FEATURE_NOT_SUPPORTED,
                    "%s is not dfx-mgr's library: it has no %s",
                    tried, m->load ? "dfxmgr_unload (nor dfxmgr_remove)"
                                   : "dfxmgr_load");
}

/* The package of `image` for `slot`: the board's, or the first kernel's
 * name. */
static axl_status package_of(axl_mmio_dfxmgr *m, uint32_t slot,
                             const axl_xclbin *image, char *name)
{
    if (m->package)
        return m->package(m->user, slot, image, name, AXL_MMIO_DFXMGR_NAME);
    axl_xclbin_kernel k;
    if (axl_xclbin_get_kernel(image, 0, &k) != AXL_SUCCESS ||
        k.name.len == 0 || k.name.len >= AXL_MMIO_DFXMGR_NAME)
        return axl_fail(AXL_ERR_INVALID,
                        "the partial for slot %u has no kernel name to be "
                        "its dfx-mgr package (axl_mmio_dfxmgr.package)",
                        (unsigned)slot);
    memcpy(name, k.name.ptr, k.name.len);
    name[k.name.len] = '\0';
    return AXL_SUCCESS;
}

/* Gives back what the helper loaded into `slot`, if anything. */
static axl_status unload_slot(axl_mmio_dfxmgr *m, uint32_t slot)
{
    if (m->handle[slot] == 0)
        return AXL_SUCCESS;
    const int h = m->handle[slot] - 1;
    const int rc = m->unload(h);
    if (rc != 0)
        return axl_fail(AXL_ERR_PLATFORM,
                        "dfx-mgr's unload(%d) for slot %u returned %d", h,
                        (unsigned)slot, rc);
    m->handle[slot] = 0;
    return AXL_SUCCESS;
}

/* A number sysfs gives in decimal or 0x-hex; 0 when it cannot be read. */
static int read_u64(const char *path, uint64_t *out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char buf[64] = "";
    const char *got = fgets(buf, sizeof buf, f);
    fclose(f);
    char *end = NULL;
    *out = got ? strtoull(buf, &end, 0) : 0;
    return got && end != buf;
}

/* Whether dfx-mgr put handle h into `slot`: its UIO uio_name's map 0 lies
 * in the slot's window (dfx-mgr's handle names no slot). */
static axl_status check_slot(axl_mmio_dfxmgr *m, uint32_t slot, int h,
                             const char *package)
{
    if (!m->uio_name || !m->shell || slot >= m->shell->slot_count)
        return AXL_SUCCESS;
    const axl_slot *s = &m->shell->slots[slot];
    char dev[256] = "";
    if (!m->uio_by_name || !m->uio_by_name(dev, h, m->uio_name) || !*dev)
        return axl_fail(AXL_ERR_PLATFORM,
                        "dfx-mgr names no UIO %s of %s (handle %d): "
                        "cannot check it is in %s",
                        m->uio_name, package, h, s->name);
    dev[sizeof dev - 1] = '\0';
    const char *base = strrchr(dev, '/');
    base = base ? base + 1 : dev;
    char path[512];
    uint64_t addr = 0;
    snprintf(path, sizeof path, "%s/class/uio/%s/maps/map0/addr",
             m->sysfs ? m->sysfs : "/sys", base);
    if (!read_u64(path, &addr))
        return axl_fail(AXL_ERR_PLATFORM, "cannot read %s (%s of %s)", path,
                        m->uio_name, package);
    if (addr >= s->ctrl_base && addr - s->ctrl_base < s->ctrl_size)
        return AXL_SUCCESS;
    return axl_fail(AXL_ERR_PLATFORM,
                    "dfx-mgr put %s outside %s: its %s (%s) at 0x%llx is "
                    "not in 0x%llx+0x%llx (one package per slot)",
                    package, s->name, m->uio_name, base,
                    (unsigned long long)addr,
                    (unsigned long long)s->ctrl_base,
                    (unsigned long long)s->ctrl_size);
}

static axl_status program_locked(axl_mmio_dfxmgr *m, uint32_t slot,
                                 const axl_xclbin *image)
{
    char package[AXL_MMIO_DFXMGR_NAME];
    axl_status st = package_of(m, slot, image, package);
    if (st == AXL_SUCCESS && !m->lib)
        st = open_library(m);
    if (st == AXL_SUCCESS)
        st = unload_slot(m, slot);
    if (st != AXL_SUCCESS)
        return st;
    const int h = m->load(package);
    if (h < 0)
        return axl_fail(AXL_ERR_PLATFORM,
                        "dfxmgr_load(\"%s\") for slot %u returned %d: %s",
                        package, (unsigned)slot, h, load_error(h));
    st = check_slot(m, slot, h, package);
    if (st != AXL_SUCCESS) {
        (void)m->unload(h); /* the message says why; leave dfx-mgr clean */
        return st;
    }
    m->handle[slot] = h + 1;
    return AXL_SUCCESS;
}

axl_status axl_mmio_dfxmgr_program_slot(void *user, uint32_t slot,
                                        const axl_xclbin *image)
{
    axl_mmio_dfxmgr *m = user;
    if (!m || !image || slot >= AXL_SHELL_MAX_SLOTS)
        return axl_fail(AXL_ERR_INVALID,
                        "axl_mmio_dfxmgr_program_slot: needs the board's "
                        "axl_mmio_dfxmgr as user, a partial, and a slot "
                        "below %u",
                        (unsigned)AXL_SHELL_MAX_SLOTS);
    pthread_mutex_lock(&lock);
    const axl_status st = program_locked(m, slot, image);
    pthread_mutex_unlock(&lock);
    return st;
}

axl_status axl_mmio_dfxmgr_unload_slot(void *user, uint32_t slot)
{
    axl_mmio_dfxmgr *m = user;
    if (!m || slot >= AXL_SHELL_MAX_SLOTS)
        return axl_fail(AXL_ERR_INVALID,
                        "axl_mmio_dfxmgr_unload_slot: needs the board's "
                        "axl_mmio_dfxmgr as user and a slot below %u",
                        (unsigned)AXL_SHELL_MAX_SLOTS);
    pthread_mutex_lock(&lock);
    const axl_status st = unload_slot(m, slot);
    pthread_mutex_unlock(&lock);
    return st;
}

axl_status axl_mmio_dfxmgr_close(axl_mmio_dfxmgr *m)
{
    if (!m)
        return AXL_SUCCESS;
    pthread_mutex_lock(&lock);
    axl_status first = AXL_SUCCESS;
    for (uint32_t k = 0; m->lib && k < AXL_SHELL_MAX_SLOTS; k++) {
        const axl_status st = unload_slot(m, k);
        if (first == AXL_SUCCESS)
            first = st;
    }
    if (m->lib && first == AXL_SUCCESS) {
        dlclose(m->lib);
        m->lib = NULL;
        m->load = NULL;
        m->unload = NULL;
        m->uio_by_name = NULL;
    }
    pthread_mutex_unlock(&lock);
    return first;
}
