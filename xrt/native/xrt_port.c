/*
 * xrt/native - the XRT device port: Alveo cards and Zynq/Kria/Versal
 * boards through libxrt_coreutil's C API (XRT 2.13).
 *
 * One axl device per XRT device (xrtDeviceOpen by index). Its memory banks
 * are the used banks of the image it carries (MEM_TOPOLOGY; the bank's
 * MEM_TOPOLOGY index is XRT's memory group). Images arrive checked by the
 * core (axl_xclbin_open: XRT itself crashes on malformed ones) and load
 * from memory with xrtDeviceLoadXclbin.
 *
 * Each compute unit is opened as its own XRT kernel, "kernel:{instance}",
 * with a pool of XRT runs that only grows to the number of runs in flight
 * on it at once; a run returns to its pool when XRT says it is complete,
 * never earlier (xrtRunStart on a run XRT has not seen complete resets its
 * state to NEW and wedges it for good: run_impl::start in xrt_kernel.cpp).
 * A buffer argument at an offset uses a sub-BO, kept with its buffer.
 *
 * Devices live in a table of AXL_XRT_DEVICES slots: those the core opens
 * by index and those made from an application's handle (make_device),
 * which are told apart by `owned`: axl closes only the XRT handles it
 * opened.
 *
 * Completion, cheapest first: a run XRT already sees complete when
 * run_start checks (the noop shim, or a unit faster than the call) is
 * reported before run_start returns. A waiting thread that calls
 * progress() reports every run XRT's packets say has ended (xrtRunState)
 * and otherwise sleeps until the completion thread reports a batch. The
 * completion thread per device, woken by the launch that finds it
 * asleep, is the only thread that waits in XRT (xrtRunWaitFor, at most
 * AXL_XRT_WAIT_SLICE_MS at a time) and reports what finishes. Timeouts
 * are the core's: a run it gives up (run_cancel) is kept aside ("zombie")
 * and reported only when XRT sees it end, because XRT 2.13's C API cannot
 * abort a run (xrt::run::abort is C++ only) and the accelerator may still
 * write its BOs; until then the core keeps them and the unit.
 *
 * Locks: one mutex per device guards its lists and pools; XRT is called
 * with it held only for xrtRunState (a read of the command packet) while
 * reaping. axl_hal_run_done is called with no lock held. A launch whose
 * run XRT sees complete before run_start returns (the noop shim, a unit
 * faster than the call) takes no lock at all: the run comes from its
 * unit's spare slot and goes back there by atomic exchange (xrt_run.c,
 * "The fast path"); a run still going takes the lock once, to join the
 * inflight list.
 *
 * Closing: runs, then kernels, then sub-BOs and BOs, then the device. XRT
 * 2.13 crashes at process exit when a handle is still open (its handle
 * maps are destroyed after the shim's buffer table), so the port also
 * closes what is open from an atexit handler, for programs that end
 * without axl_shutdown().
 *
 * Files: this one opens and closes devices, loads designs and holds the
 * ops table; xrt_run.c has compute units, runs, reaping and the
 * completion thread; xrt_mem.c has BOs and sub-BOs; xrt_swap.c another
 * design on demand (BOs parked around a load); xrt_port.h their records;
 * xrt_api.c the XRT calls, which on XRT's noop shim pass the gate of
 * xrt_noop.c (that shim frees BOs racing its own lookups).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "axl/runtime.h"
#include "xrt/version.h"
#include "xrt_port.h"

static xn_device devices[AXL_XRT_DEVICES];
/* Guards taking and searching slots of `devices` (open and open_native);
 * a slot is given back by close, which the core calls once. */
static pthread_mutex_t devices_lock = PTHREAD_MUTEX_INITIALIZER;
axl__xrt_env axl__xn_env;
axl__xrt_run_done_fn axl__xn_run_done_hook;

xn_counts axl__xn_counts;

static pthread_mutex_t exit_lock = PTHREAD_MUTEX_INITIALIZER;
static int exit_registered;

/* ---- Small helpers ------------------------------------------------------------ */

static void copy_str(char *dst, size_t cap, axl_str s)
{
    size_t n = s.len < cap - 1 ? s.len : cap - 1;
    memcpy(dst, s.ptr, n);
    dst[n] = 0;
}

/* ---- The design a device carries --------------------------------------------- */

/* Banks: the used, allocatable MEM_TOPOLOGY entries (lock held). */
void axl__xn_set_image(xn_device *d, const axl_xclbin *image)
{
    d->has_image = image != NULL;
    d->nbanks = 0;
    d->clock_mhz = 0;
    if (!image)
        return;
    d->image = *image;
    for (uint32_t i = 0; i < image->mem_count && d->nbanks < MAX_BANKS; i++) {
        axl_xclbin_mem m;
        if (axl_xclbin_get_mem(image, i, &m) != AXL_SUCCESS || !m.used)
            continue;
        if (m.type == AXL_XCLBIN_MEM_STREAMING ||
            m.type == AXL_XCLBIN_MEM_STREAMING_CONNECTION)
            continue;
        copy_str(d->bank_tag[d->nbanks], sizeof d->bank_tag[0], m.tag);
        m.tag.ptr = d->bank_tag[d->nbanks];
        m.tag.len = strlen(d->bank_tag[d->nbanks]);
        d->bank_info[d->nbanks] = m;
        d->bank_mem[d->nbanks++] = i;
    }
    for (uint32_t i = 0; i < image->clock_count; i++) {
        axl_xclbin_clock c;
        if (axl_xclbin_get_clock(image, i, &c) == AXL_SUCCESS && c.type == 2 &&
            c.freq_mhz > d->clock_mhz)
            d->clock_mhz = c.freq_mhz;
    }
    d->builtin_on = d->builtin_bytes &&
                    !memcmp(image->uuid, d->builtin.uuid, sizeof image->uuid);
}

static int uuid_zero(const unsigned char *u)
{
    for (int i = 0; i < AXL_XCLBIN_UUID_SIZE; i++)
        if (u[i])
            return 0;
    return 1;
}

/* ---- The card a design is for ------------------------------------------------------ */

/* The card a platform name is for: its second word, lower case ("u250"
 * in xilinx_u250_gen3x16_xdma_4_1_202210_1, in the shell's own
 * xilinx_u250_gen3x16_xdma_shell_4_1 and in xilinx:u250:...; "zcu102" in
 * xilinx_zcu102_base_202210_1). Empty when the name has no second word,
 * or is axl's own emulation platform (axl_emu...), which names no card. */
static void platform_card(axl_str p, char *card, size_t cap)
{
    card[0] = '\0';
    if (p.len >= 7 && !memcmp(p.ptr, "axl_emu", 7))
        return;
    size_t i = 0, n = 0;
    while (i < p.len && p.ptr[i] != '_' && p.ptr[i] != ':')
        i++;
    for (i++; i < p.len && p.ptr[i] != '_' && p.ptr[i] != ':' && n + 1 < cap;
         i++) {
        char c = p.ptr[i];
        card[n++] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
    }
    card[n] = '\0';
}

/* A design for another card than d's (the VBNV of its header against the
 * device's): the failure, naming both. The names of one card differ
 * between the driver (the shell's VBNV) and v++ (the platform's, with
 * its release), so only another card is refused here; a shell of the
 * same card that does not fit is XRT's to refuse (interface UUIDs). */
axl_status axl__xn_other_card(const xn_device *d, const axl_xclbin *image,
                             char *why, size_t why_size)
{
    char want[32], got[32];
    platform_card((axl_str){d->platform, strlen(d->platform)}, want,
                  sizeof want);
    const axl_str platform = axl_xclbin_get_platform(image);
    platform_card(platform, got, sizeof got);
    if (!want[0] || !got[0] || !strcmp(want, got))
        return AXL_SUCCESS;
    axl_format(why, why_size,
               "the design was built for platform %.*s, a %s; %s is %s, a %s",
               (int)platform.len, platform.ptr, got, d->name,
               d->platform, want);
    return axl_fail(AXL_ERR_BUILD, "%s", why);
}

/* XRT reads struct axlf in place; give it 8-byte aligned bytes. */
int axl__xn_load_bytes(xn_device *d, const axl_xclbin *image)
{
    const void *bytes = image->data;
    void *copy = NULL;
    if ((uintptr_t)bytes % 8) {
        copy = malloc(image->size);
        if (!copy) {
            errno = ENOMEM;
            return -1;
        }
        memcpy(copy, bytes, image->size);
        bytes = copy;
    }
    errno = 0;
    int rc = axl__xrt.device_load_xclbin(d->dh, (const struct axlf *)bytes);
    free(copy);
    return rc;
}

axl_status axl__xn_load(xn_device *d, const axl_xclbin *image, char *why,
                        size_t why_size)
{
    const int rc = axl__xn_load_bytes(d, image);
    if (rc == 0)
        return AXL_SUCCESS;
    const int e = errno;
    const axl_status st = is_busy_errno(e) || is_busy_errno(rc)
                              ? AXL_ERR_BAD_STATE
                              : AXL_ERR_BUILD;
    axl_format(why, why_size,
               "XRT refused the image: xrtDeviceLoadXclbin returned %d%s; "
               "XRT printed why on stderr",
               rc, errno_name(e));
    return axl_fail(st, "%s", why);
}

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *p = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        n = ftell(f);
    if (n > 0 && fseek(f, 0, SEEK_SET) == 0) {
        p = malloc((size_t)n);
        if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
            free(p);
            p = NULL;
        }
    }
    fclose(f);
    *size = p ? (size_t)n : 0;
    return p;
}

/* A failure about the board's design: the cause first, whole, then the
 * design's path, shortened in the middle to the room left (the core adds
 * which device after it, in a message of AXL_MESSAGE_MAX). */
static axl_status design_fail(axl_status st, const char *path,
                              const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static axl_status design_fail(axl_status st, const char *path,
                              const char *fmt, ...)
{
    char cause[AXL_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    axl_vformat(cause, sizeof cause, fmt, ap);
    va_end(ap);
    static const char around[] = " (AXL_XRT_BUILTIN_XCLBIN=)";
    size_t used = strlen(cause) + sizeof around + 32; /* 32: the core's */
    size_t room = used + 40 < AXL_MESSAGE_MAX ? AXL_MESSAGE_MAX - used : 40;
    char shown[AXL_MESSAGE_MAX];
    axl_shorten(shown, room, path);
    return axl_fail(st, "%s (AXL_XRT_BUILTIN_XCLBIN=%s)", cause, shown);
}

/* The design the board names: AXL_XRT_BUILTIN_XCLBIN. */
static axl_status open_builtin(xn_device *d)
{
    const char *path = getenv("AXL_XRT_BUILTIN_XCLBIN");
    if (!path || !path[0])
        path = AXL_XRT_BUILTIN_XCLBIN;
    if (!path[0])
        return AXL_SUCCESS;
    size_t size = 0;
    d->builtin_bytes = read_file(path, &size);
    if (!d->builtin_bytes)
        return design_fail(AXL_ERR_INVALID, path,
                           "cannot read the board's design");
    char why[AXL_MESSAGE_MAX];
    axl_status st = axl_xclbin_open(&d->builtin, d->builtin_bytes, size, why,
                                    sizeof why);
    if (st != AXL_SUCCESS) {
        free(d->builtin_bytes);
        d->builtin_bytes = NULL;
        return design_fail(st, path, "the board's design is not usable: %s",
                           why);
    }
    char other[AXL_MESSAGE_MAX];
    if (axl__xn_other_card(d, &d->builtin, other, sizeof other) != AXL_SUCCESS) {
        free(d->builtin_bytes);
        d->builtin_bytes = NULL;
        return design_fail(AXL_ERR_BUILD, path, "%s", other);
    }
    xuid_t cur;
    memset(cur, 0, sizeof cur);
    if (axl__xrt.device_get_xclbin_uuid(d->dh, cur) != 0)
        memset(cur, 0, sizeof cur);
    int rc = -1;
    if (!memcmp(cur, d->builtin.uuid, sizeof cur)) {
        /* Already on the device: attach its metadata to this process
         * without programming (the noop shim cannot; then load it). */
        rc = axl__xrt.device_load_xclbin_uuid(d->dh, d->builtin.uuid);
        if (rc != 0)
            rc = axl__xn_load_bytes(d, &d->builtin);
    } else if (uuid_zero(cur) && !d->owned) {
        /* The application's device, running nothing: axl does not program
         * it until an executable bundle asks (so a make_device the core
         * refuses leaves the device as it was). */
        free(d->builtin_bytes);
        d->builtin_bytes = NULL;
        return AXL_SUCCESS;
    } else if (uuid_zero(cur)) {
        rc = axl__xn_load_bytes(d, &d->builtin);
        if (rc != 0) {
            int e = errno;
            free(d->builtin_bytes);
            d->builtin_bytes = NULL;
            return design_fail(AXL_ERR_BUILD, path,
                               "XRT refused the board's design: "
                               "xrtDeviceLoadXclbin returned %d%s",
                               rc, errno_name(e));
        }
    } else {
        /* It carries a design axl was not told about: no built-in
         * kernels, no banks, until the application loads an image. */
        free(d->builtin_bytes);
        d->builtin_bytes = NULL;
        return AXL_SUCCESS;
    }
    if (rc != 0) {
        free(d->builtin_bytes);
        d->builtin_bytes = NULL;
        return design_fail(AXL_ERR_BUILD, path,
                           "XRT would not attach the board's design");
    }
    axl__xn_set_image(d, &d->builtin);
    return AXL_SUCCESS;
}

/* ---- Opening and closing ------------------------------------------------------ */

static void close_device(xn_device *d)
{
    if (!d->open)
        return;
    /* Let the runs on the device end (the core has waited for its own;
     * what is left finished late or was given up). */
    uint64_t until = now_ns() + AXL_XRT_CLOSE_WAIT_MS * MS;
    for (;;) {
        pthread_mutex_lock(&d->lock);
        int busy = !list_empty(&d->inflight) || !list_empty(&d->zombies) ||
                   d->delivering;
        pthread_mutex_unlock(&d->lock);
        if (!busy || now_ns() >= until)
            break;
        /* xrtRunState only: the noop shim's wait ignores its timeout. */
        axl__xn_reap(d, NULL, 0);
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    axl__xn_stop_thread(d);

    /* Runs, then kernels, then buffers, then the device. */
    xn_run *lists[] = {&d->inflight, &d->zombies, &d->reporting};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        while (!list_empty(lists[i])) {
            xn_run *r = lists[i]->next;
            list_del(r);
            axl__xn_run_to_pool(d, r);
        }
    axl__xn_destroy_dead(d);
    while (d->cus) {
        xn_cu *cu = d->cus;
        d->cus = cu->next;
        axl__xn_destroy_cu(cu);
    }
    while (d->bos) {
        xn_bo *b = d->bos;
        d->bos = b->next;
        axl__xn_bo_destroy(b);
    }
    axl__xn_noop_device(d->dh, 0);
    if (d->owned)
        axl__xrt.device_close(d->dh);
    count(&axl__xn_counts.devices, -1);
    free(d->builtin_bytes);
    d->builtin_bytes = NULL;
    pthread_cond_destroy(&d->cond);
    pthread_cond_destroy(&d->reported);
    pthread_rwlock_destroy(&d->parking);
    pthread_mutex_destroy(&d->lock);
    d->open = 0;
}

static void close_all_at_exit(void)
{
    for (uint32_t i = 0; i < AXL_XRT_DEVICES; i++)
        close_device(&devices[i]);
}

/* Whether a thread of the process other than the caller is runnable
 * (state R in /proc/self/task/<tid>/stat): one made but not run yet. */
static int others_runnable(void)
{
    DIR *dir = opendir("/proc/self/task");
    if (!dir)
        return 0;
    /* This thread's id: /proc/thread-self is "<pid>/task/<tid>". */
    char link[64];
    const ssize_t ln = readlink("/proc/thread-self", link, sizeof link - 1);
    link[ln > 0 ? ln : 0] = 0;
    const char *slash = strrchr(link, '/');
    const long self = slash ? strtol(slash + 1, NULL, 10) : 0;
    int runnable = 0;
    struct dirent *e;
    while (!runnable && (e = readdir(dir)) != NULL) {
        char *end;
        const long tid = strtol(e->d_name, &end, 10);
        if (*end || tid <= 0 || tid == self)
            continue;
        char path[64], stat[256];
        snprintf(path, sizeof path, "/proc/self/task/%ld/stat", tid);
        const int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        const ssize_t n = read(fd, stat, sizeof stat - 1);
        close(fd);
        if (n <= 0)
            continue;
        stat[n] = 0;
        /* "tid (name) S ...": the state follows the name's last ')'. */
        const char *p = strrchr(stat, ')');
        runnable = p && p[1] == ' ' && p[2] == 'R';
    }
    closedir(dir);
    return runnable;
}

/* XRT 2.13's first kernel open starts a monitor thread, and XRT's exit
 * handler (registered by that open) stops and joins it. A thread that has
 * not reached its wait yet can miss the stop (XRT's later sources set it
 * under the wait's lock, saying why), and the join never returns: a
 * program that exits within moments of its first kernel open on a busy
 * machine hangs in exit (test_xrt_exit: 4 hangs in 450 runs beside other
 * work, each in xrt_core::kds::stop joining a thread asleep in its
 * wait). Registered after that open, this handler runs before XRT's and
 * lets the other threads run until none is runnable, for at most
 * AXL_XRT_EXIT_SETTLE_MS: the monitor thread then waits where the stop
 * reaches it. */
static void settle_threads_at_exit(void)
{
    const uint64_t until = now_ns() + (uint64_t)AXL_XRT_EXIT_SETTLE_MS * MS;
    while (others_runnable() && now_ns() < until) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
}

/* fn as an exit handler, once (*registered). Handlers run in the reverse
 * order of their registration. */
static void at_exit_once(int *registered, void (*fn)(void))
{
    pthread_mutex_lock(&exit_lock);
    if (!*registered && atexit(fn) == 0)
        *registered = 1;
    pthread_mutex_unlock(&exit_lock);
}

void axl__xn_settle_at_exit(void)
{
    static int registered;
    if (AXL_XRT_EXIT_SETTLE_MS)
        at_exit_once(&registered, settle_threads_at_exit);
}

/* XRT's own handle maps are destroyed at exit after the shim's buffer
 * table, and an open BO then crashes in xclFreeBO. Handlers registered
 * after the shim loaded run before that. */
static void register_exit_handler(void)
{
    at_exit_once(&exit_registered, close_all_at_exit);
}

static axl_status init_device(xn_device *d, uint32_t index, xrtDeviceHandle dh,
                              int owned)
{
    memset(d, 0, sizeof *d);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&d->cond, &ca);
    pthread_cond_init(&d->reported, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&d->lock, NULL);
    pthread_rwlock_init(&d->parking, NULL);
    /* Another design on demand (issue 40): parked BOs around each load;
     * AXL_XRT_SWAPS=0 keeps the refusal of a second design. */
    const char *swaps = getenv("AXL_XRT_SWAPS");
    d->swaps = !(swaps && !strcmp(swaps, "0"));
    list_init(&d->inflight);
    list_init(&d->zombies);
    list_init(&d->reporting);
    d->index = index;
    d->dh = dh;
    d->owned = owned;
    d->open = 1;
    count(&axl__xn_counts.devices, 1);
    register_exit_handler();
    axl__xn_noop_device(dh, 1); /* the noop shim's probe may use it */

    struct xclDeviceInfo2 info;
    memset(&info, 0, sizeof info);
    int have_info =
        axl__xn_env.device_info &&
        axl__xn_env.device_info(axl__xrt.device_to_xcl(dh), &info) == 0;
    const char *suffix = axl__xn_env.mode == AXL__XRT_NOOP
                             ? " (XRT noop shim: nothing executes)"
                         : axl__xn_env.mode == AXL__XRT_SW_EMU ? " (XRT sw_emu)"
                         : axl__xn_env.mode == AXL__XRT_HW_EMU ? " (XRT hw_emu)"
                                                        : "";
    info.mName[sizeof info.mName - 1] = 0;
    const char *platform = getenv("AXL_XRT_PLATFORM");
    axl_format(d->platform, sizeof d->platform, "%s",
               have_info && info.mName[0] ? info.mName
               : platform                 ? platform
                                          : "");
    if (have_info && info.mName[0])
        axl_format(d->name, sizeof d->name, "%s%s", info.mName, suffix);
    else if (owned)
        axl_format(d->name, sizeof d->name, "XRT device %u%s",
                   (unsigned)index, suffix);
    else
        axl_format(d->name, sizeof d->name, "XRT device (application's)%s",
                   suffix);
    d->vendor_id = have_info && info.mVendorId ? info.mVendorId : 0x10ee;
    axl_format(d->driver_version, sizeof d->driver_version, "XRT %s",
               xrt_build_version);
    if (have_info)
        d->device_clock_mhz = info.mOCLFrequency[0];

    axl_status st = open_builtin(d);
    if (st != AXL_SUCCESS) {
        char msg[AXL_MESSAGE_MAX];
        axl_format(msg, sizeof msg, "%s", axl_last_message());
        close_device(d);
        return axl_fail(st, "%s", msg);
    }
    return AXL_SUCCESS;
}

/* ---- The ops ------------------------------------------------------------------ */

static axl_status xn_probe(uint32_t *count_out, char *why, size_t why_size)
{
    *count_out = 0;
    axl__xrt_env e;
    if (axl__xrt_env_check(&e, why, why_size) != 0)
        return AXL_SUCCESS;
    axl__xn_env = e;
    unsigned n = e.probe ? e.probe() : 0;
    if (!e.probe) {
        /* No xclProbe in the shim: count what opens. */
        for (xrtDeviceHandle h; n < AXL_XRT_DEVICES &&
                                (h = axl__xrt.device_open(n)) != NULL;
             n++)
            axl__xrt.device_close(h);
    }
    if (n == 0)
        axl_format(why, why_size, "XRT (%s) found no device%s", e.shim_name,
                   e.mode == AXL__XRT_HW ? ": is the xocl or zocl driver loaded?"
                                         : "");
    *count_out = n < AXL_XRT_DEVICES ? n : AXL_XRT_DEVICES;
    return AXL_SUCCESS;
}

/* A free slot of `devices` (devices_lock held), or NULL. */
static xn_device *free_slot(void)
{
    for (uint32_t i = 0; i < AXL_XRT_DEVICES; i++)
        if (!devices[i].open)
            return &devices[i];
    return NULL;
}

static axl_status xn_open(uint32_t index, void **dev)
{
    pthread_mutex_lock(&devices_lock);
    axl_status st = AXL_SUCCESS;
    for (uint32_t i = 0; i < AXL_XRT_DEVICES && st == AXL_SUCCESS; i++)
        if (devices[i].open && devices[i].owned && devices[i].index == index)
            st = axl_fail(AXL_ERR_BAD_STATE, "XRT device %u is already open",
                          (unsigned)index);
    xn_device *d = st == AXL_SUCCESS ? free_slot() : NULL;
    if (st == AXL_SUCCESS && !d)
        st = axl_fail(AXL_ERR_OUT_OF_RESOURCES,
                      "XRT device %u: the XRT port holds %u devices "
                      "(AXL_XRT_DEVICES)",
                      (unsigned)index, (unsigned)AXL_XRT_DEVICES);
    if (st == AXL_SUCCESS) {
        errno = 0;
        xrtDeviceHandle dh = axl__xrt.device_open(index);
        if (!dh)
            st = axl_fail(AXL_ERR_RUNTIME,
                          "xrtDeviceOpen(%u) failed%s; XRT printed why on "
                          "stderr",
                          (unsigned)index, errno_name(errno));
        else
            st = init_device(d, index, dh, 1);
    }
    if (st == AXL_SUCCESS)
        *dev = d;
    pthread_mutex_unlock(&devices_lock);
    return st;
}

static void xn_close(void *dev)
{
    close_device(dev);
}

static axl_status xn_describe(void *dev, axl_hal_device_info *info)
{
    xn_device *d = dev;
    memset(info, 0, sizeof *info);
    axl_format(info->vendor, sizeof info->vendor, "Xilinx");
    axl_format(info->driver_version, sizeof info->driver_version, "%s",
               d->driver_version);
    axl_format(info->backend_version, sizeof info->backend_version,
               "XRT %s (%s)", xrt_build_version,
               axl__xn_env.shim_name[0] ? axl__xn_env.shim_name : "libxrt");
    info->vendor_id = d->vendor_id;
    info->type = AXL_DEVICE_TYPE_ACCELERATOR;
    info->flags = AXL_HAL_DEVICE_AVAILABLE | AXL_HAL_DEVICE_PROFILING |
                  AXL_HAL_DEVICE_REPROGRAMMABLE;
#if !defined(AXL_FEATURE_DESIGN_SWAP) || AXL_FEATURE_DESIGN_SWAP
    if (d->swaps)
        info->flags |= AXL_HAL_DEVICE_SWAPS;
#endif
    /* Every XCL_EMULATION_MODE, noop included, is "somehow emulated": a
     * selector that wants hardware must not pick a shim that runs nothing. */
    if (axl__xn_env.mode != AXL__XRT_HW)
        info->flags |= AXL_HAL_DEVICE_EMULATED;
    info->mem_base_addr_align = AXL_XRT_MEM_ALIGN_BITS;
    info->timer_resolution_ns = 1;
    pthread_mutex_lock(&d->lock);
    axl_format(info->name, sizeof info->name, "%s", d->name);
    info->max_clock_mhz = d->clock_mhz ? d->clock_mhz : d->device_clock_mhz;
    info->bank_count = d->nbanks;
    for (uint32_t b = 0; b < d->nbanks; b++) {
        axl_xclbin_mem m = d->bank_info[b];
        info->global_mem_size += m.size;
        if (m.size > info->max_mem_alloc_size)
            info->max_mem_alloc_size = m.size;
    }
    if (d->builtin_on) {
        info->builtin_image = d->builtin.data;
        info->builtin_image_size = d->builtin.size;
    }
    pthread_mutex_unlock(&d->lock);
    return AXL_SUCCESS;
}

static axl_status xn_bank(void *dev, uint32_t index, axl_hal_bank *out)
{
    xn_device *d = dev;
    memset(out, 0, sizeof *out);
    axl_status st = AXL_SUCCESS;
    pthread_mutex_lock(&d->lock);
    if (index >= d->nbanks)
        st = axl_fail(AXL_ERR_INVALID, "%s has %u memory banks; no bank %u",
                      d->name, (unsigned)d->nbanks, (unsigned)index);
    else {
        axl_xclbin_mem m = d->bank_info[index];
        copy_str(out->tag, sizeof out->tag, m.tag);
        out->size = m.size;
        out->base_address = m.base_address;
        out->image_index = d->bank_mem[index];
    }
    pthread_mutex_unlock(&d->lock);
    return st;
}

/* A design loads only onto a device with no unit open and no run out: the
 * units the port opened by itself (lazy) are closed with the design. */
axl_status axl__xn_check_idle(xn_device *d, char *why, size_t why_size)
{
    pthread_mutex_lock(&d->lock);
    /* A run reported while the completion thread waits on it in XRT is
     * parked until that wait returns (it ended: within a wait slice), and
     * keeps its unit busy: the core saw it end and may load now, so the
     * load waits for it rather than find that unit open (issue 40 2.7: a
     * graph's swap right after the other design's run failed so). */
    while (d->waiting && d->waiting->parked) {
        struct timespec ts;
        axl__xn_deadline_after(&ts, AXL_XRT_POLL_MS * 1000000ull);
        pthread_cond_timedwait(&d->reported, &d->lock, &ts);
    }
    uint32_t open_cus = 0;
    for (xn_cu *cu = d->cus; cu; cu = cu->next) {
        if (!cu->lazy) {
            open_cus++;
        } else if (!cu->closing) { /* ours: close it with the design */
            cu->closing = 1;
            axl__xn_unlink_if_done(d, cu);
        }
    }
    int busy = !list_empty(&d->inflight) || !list_empty(&d->zombies) ||
               d->delivering;
    pthread_mutex_unlock(&d->lock);
    axl__xn_destroy_dead(d);
    if (open_cus || busy) {
        axl_format(why, why_size,
                   "%s still has %u compute units open%s: close them first",
                   d->name, (unsigned)open_cus,
                   busy ? " and runs on the device" : "");
        return axl_fail(AXL_ERR_BAD_STATE, "%s", why);
    }
    return AXL_SUCCESS;
}

static axl_status xn_load_image(void *dev, const axl_xclbin *image, char *why,
                                size_t why_size)
{
    xn_device *d = dev;
    axl_status st;
    if (!image || !image->data || !image->size) {
        axl_format(why, why_size, "no image");
        return axl_fail(AXL_ERR_INVALID, "no image");
    }
    st = axl__xn_check_idle(d, why, why_size);
    if (st != AXL_SUCCESS)
        return st;
    st = axl__xn_other_card(d, image, why, why_size);
    if (st != AXL_SUCCESS)
        return st;
    st = axl__xn_load(d, image, why, why_size);
    if (st != AXL_SUCCESS)
        return st;
    pthread_mutex_lock(&d->lock);
    axl__xn_set_image(d, image);
    pthread_mutex_unlock(&d->lock);
    return AXL_SUCCESS;
}

const axl_device_port axl_native_port = {
    .name = "xrt",
    .platform_name = "AMD XRT",
    .platform_vendor = "AMD Xilinx",
    .platform_version = "SYCL 2020 axl-xrt 0.1 (XRT 2.13 C API)",
    .backend = AXL_BACKEND_XRT,
    .probe = xn_probe,
    .open = xn_open,
    .close = xn_close,
    .describe = xn_describe,
    .bank = xn_bank,
    .load_image = xn_load_image,
#if !defined(AXL_FEATURE_DESIGN_SWAP) || AXL_FEATURE_DESIGN_SWAP
    .region_load = axl__xn_region_load,
#endif
    .mem_alloc = axl__xn_mem_alloc,
    .mem_free = axl__xn_mem_free,
    .mem_write = axl__xn_mem_write,
    .mem_read = axl__xn_mem_read,
    .mem_copy = axl__xn_mem_copy,
    .cu_open = axl__xn_cu_open,
    .cu_close = axl__xn_cu_close,
    .run_start = axl__xn_run_start,
    .run_cancel = axl__xn_run_cancel,
    /* A run XRT never sees end (a hung accelerator) never comes back by
     * itself. */
    .unit_fix = "it is back when XRT sees the run end (a card reset, "
                "xbutil reset, ends it)",
    .progress = axl__xn_progress,
    /* No ip_wait: XRT 2.13 waits for an IP's interrupt in C++ only
     * (xrt::ip::interrupt). */
    .ip_open = axl__xn_ip_open,
    .ip_close = axl__xn_ip_close,
    .ip_read32 = axl__xn_ip_read32,
    .ip_write32 = axl__xn_ip_write32,
    /* No pipelines: XRT 2.13 gives ap_ctrl_none units to xrt::ip only, and
     * auto-restart only as the native API's autostart counter (its driver
     * leaves control bits 5-7 alone). */
    .no_pipelines = "XRT's xrt::kernel refuses ap_ctrl_none units and its "
                    "driver leaves auto-restart (bit 7) alone; the mmio port "
                    "runs them",
};

/* ---- Test hooks and interop ----------------------------------------------------- */

void axl__xrt_get_counts(axl__xrt_counts *out)
{
    out->devices = atomic_load(&axl__xn_counts.devices);
    out->kernels = atomic_load(&axl__xn_counts.kernels);
    out->runs = atomic_load(&axl__xn_counts.runs);
    out->bos = atomic_load(&axl__xn_counts.bos);
    out->sub_bos = atomic_load(&axl__xn_counts.sub_bos);
    out->busy_runs = 0; /* summed here, not counted per launch */
    for (uint32_t i = 0; i < AXL_XRT_DEVICES; i++) {
        xn_device *d = &devices[i];
        if (!d->open)
            continue;
        pthread_mutex_lock(&d->lock);
        for (const xn_cu *cu = d->cus; cu; cu = cu->next)
            out->busy_runs += cu->busy;
        for (const xn_cu *cu = d->dead; cu; cu = cu->next)
            out->busy_runs += cu->busy;
        pthread_mutex_unlock(&d->lock);
    }
    out->threads = atomic_load(&axl__xn_counts.threads);
}

void axl__xrt_set_run_done(axl__xrt_run_done_fn fn)
{
    axl__xn_run_done_hook = fn;
}

axl_status axl__xrt_open_native(xrtDeviceHandle dh, void **dev, int *created)
{
    *created = 0;
    if (!dh)
        return axl_fail(AXL_ERR_INVALID, "no XRT device handle");
    pthread_mutex_lock(&devices_lock);
    if (!axl__xn_env.shim_name[0]) {
        /* XRT is loaded (the caller has a device): learn which shim. */
        axl__xrt_env e;
        char why[96];
        if (axl__xrt_env_check(&e, why, sizeof why) == 0)
            axl__xn_env = e;
    }
    axl_status st = AXL_SUCCESS;
    xn_device *d = NULL;
    for (uint32_t i = 0; i < AXL_XRT_DEVICES && !d; i++)
        if (devices[i].open && devices[i].dh == dh)
            d = &devices[i];
    if (!d) {
        d = free_slot();
        if (!d)
            st = axl_fail(AXL_ERR_OUT_OF_RESOURCES,
                          "the XRT port holds %u devices (AXL_XRT_DEVICES)",
                          (unsigned)AXL_XRT_DEVICES);
        else
            st = init_device(d, (uint32_t)(d - devices), dh, 0);
        *created = st == AXL_SUCCESS;
    }
    if (st == AXL_SUCCESS)
        *dev = d;
    pthread_mutex_unlock(&devices_lock);
    return st;
}

xrtDeviceHandle axl__xrt_device_handle(void *dev)
{
    return dev ? ((xn_device *)dev)->dh : NULL;
}

xrtKernelHandle axl__xrt_cu_kernel(uintptr_t cu_handle)
{
    return cu_handle ? ((xn_cu *)cu_handle)->kernel : NULL;
}

/* Interop reads a BO beside a design load (xrt_swap.c) under the same
 * lock as the memory ops; the handle it gives is valid until the next. */
xrtBufferHandle axl__xrt_mem_bo(const axl_hal_mem *mem)
{
    xn_bo *b = bo_of(mem);
    if (!b)
        return NULL;
    pthread_rwlock_rdlock(&b->dev->parking);
    xrtBufferHandle bo = b->bo;
    pthread_rwlock_unlock(&b->dev->parking);
    return bo;
}

axl_status axl__xrt_mem_bo_at(void *dev, const axl_hal_mem *mem,
                              uint64_t offset, uint64_t size,
                              xrtBufferHandle *bo)
{
    xn_device *d = dev;
    xn_bo *b = bo_of(mem);
    if (!d || !b || b->dev != d)
        return axl_fail(AXL_ERR_INVALID, "not an allocation of %s",
                        d ? d->name : "an XRT device");
    if (!size || offset >= b->size || size > b->size - offset)
        return axl_fail(AXL_ERR_INVALID,
                        "%llu bytes at %llu: the allocation has %llu",
                        (unsigned long long)size, (unsigned long long)offset,
                        (unsigned long long)b->size);
    pthread_rwlock_rdlock(&d->parking);
    axl_status st = axl__xn_arg_bo(d, b, offset, size, bo, NULL);
    pthread_rwlock_unlock(&d->parking);
    return st;
}
