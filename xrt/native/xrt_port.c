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
 * progress() waits in XRT on the oldest run and reports every finished
 * one itself. Otherwise a completion thread per device, woken by the
 * launch that finds it asleep, waits in XRT (xrtRunWaitFor, at most
 * AXL_XRT_WAIT_SLICE_MS at a time) and reports what finishes. It also
 * enforces each run's timeout: a run still on the device at its deadline
 * is reported AXL_ERR_TIMEOUT and kept aside ("zombie") until XRT sees it
 * end, because XRT 2.13's C API cannot abort a run (xrt::run::abort is
 * C++ only); its unit takes a fresh XRT run meanwhile.
 *
 * Locks: one mutex per device guards its lists; XRT is called with it held
 * only for xrtRunState (a read of the command packet). axl_hal_run_done is
 * called with no lock held.
 *
 * Closing: runs, then kernels, then sub-BOs and BOs, then the device. XRT
 * 2.13 crashes at process exit when a handle is still open (its handle
 * maps are destroyed after the shim's buffer table), so the port also
 * closes what is open from an atexit handler, for programs that end
 * without axl_shutdown().
 */
#include <errno.h>
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
static axl__xrt_run_done_fn run_done_hook;
static _Thread_local xn_device *delivering_here;

xn_counts axl__xn_counts;

static pthread_mutex_t exit_lock = PTHREAD_MUTEX_INITIALIZER;
static int exit_registered;

/* ---- Small helpers ------------------------------------------------------------ */

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}



static int is_busy_errno(int e)
{
    return e == EBUSY || e == -EBUSY;
}

static const char *ert_name(int s)
{
    static const char *const names[] = {
        "0",       "NEW",     "QUEUED",    "RUNNING",    "COMPLETED", "ERROR",
        "ABORT",   "SUBMITTED", "TIMEOUT", "NORESPONSE", "SKERROR",   "SKCRASHED"};
    return s >= 0 && s < (int)(sizeof names / sizeof names[0]) ? names[s]
                                                                : "unknown";
}

/* States after which XRT will not touch the run again. SUBMITTED (7) is
 * numerically above COMPLETED but means on its way to the unit. */
static int ert_final(int s)
{
    return s == ERT_CMD_STATE_COMPLETED || s == ERT_CMD_STATE_ERROR ||
           s == ERT_CMD_STATE_ABORT || s == ERT_CMD_STATE_TIMEOUT ||
           s == ERT_CMD_STATE_NORESPONSE || s == ERT_CMD_STATE_SKERROR ||
           s == ERT_CMD_STATE_SKCRASHED;
}

static void list_init(xn_run *head)
{
    head->prev = head->next = head;
}

static int list_empty(const xn_run *head)
{
    return head->next == head;
}

static void list_push(xn_run *head, xn_run *r)
{
    r->prev = head->prev;
    r->next = head;
    head->prev->next = r;
    head->prev = r;
}

static void list_del(xn_run *r)
{
    r->prev->next = r->next;
    r->next->prev = r->prev;
    r->prev = r->next = NULL;
}

static void report(void *token, axl_status st, const char *why)
{
    axl__xrt_run_done_fn fn = run_done_hook;
    if (fn)
        fn(token, st, why);
    else
        axl_hal_run_done(token, st, why);
}

static void copy_str(char *dst, size_t cap, axl_str s)
{
    size_t n = s.len < cap - 1 ? s.len : cap - 1;
    memcpy(dst, s.ptr, n);
    dst[n] = 0;
}


/* ---- The design a device carries --------------------------------------------- */

/* Banks: the used, allocatable MEM_TOPOLOGY entries (lock held). */
static void set_image(xn_device *d, const axl_xclbin *image)
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

/* XRT reads struct axlf in place; give it 8-byte aligned bytes. */
static int load_bytes(xn_device *d, const axl_xclbin *image)
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
            rc = load_bytes(d, &d->builtin);
    } else if (uuid_zero(cur) && !d->owned) {
        /* The application's device, running nothing: axl does not program
         * it until an executable bundle asks (so a make_device the core
         * refuses leaves the device as it was). */
        free(d->builtin_bytes);
        d->builtin_bytes = NULL;
        return AXL_SUCCESS;
    } else if (uuid_zero(cur)) {
        rc = load_bytes(d, &d->builtin);
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
    set_image(d, &d->builtin);
    return AXL_SUCCESS;
}

/* ---- Compute units -------------------------------------------------------- */

/* How xrtRunSetArg reads an argument of this XML type (xrt_kernel.cpp,
 * argument::argument). */
static uint8_t arg_kind(const axl_xclbin_arg *a)
{
    switch (a->address_qualifier) {
    case AXL_XCLBIN_ARG_GLOBAL:
    case AXL_XCLBIN_ARG_CONSTANT:
        return AXL__XRT_BO;
    case AXL_XCLBIN_ARG_LOCAL:
    case AXL_XCLBIN_ARG_STREAM:
        return AXL__XRT_SKIP;
    default:
        break;
    }
    if (axl_str_eq(a->type, "int"))
        return AXL__XRT_INT;
    if (axl_str_eq(a->type, "uint"))
        return AXL__XRT_UINT;
    if (axl_str_eq(a->type, "float"))
        return AXL__XRT_FLOAT;
    if (axl_str_eq(a->type, "double"))
        return AXL__XRT_DOUBLE;
    if (axl_str_eq(a->type, "int*") || axl_str_eq(a->type, "uint*"))
        return a->size <= 64 ? AXL__XRT_PTR : AXL__XRT_UNSUPPORTED;
    if (axl_str_eq(a->type, "float*"))
        return AXL__XRT_UNSUPPORTED; /* XRT refuses the kernel */
    if (a->size == 4)
        return AXL__XRT_U32;
    if (a->size == 8)
        return AXL__XRT_U64;
    /* XRT reads a size_t and copies min(size, 8) bytes: wider scalars
     * cannot pass through the C API. */
    return a->size < 8 ? AXL__XRT_SIZE : AXL__XRT_UNSUPPORTED;
}

static void destroy_cu(xn_cu *cu)
{
    while (cu->free) {
        xn_run *r = cu->free;
        cu->free = r->next;
        axl__xrt.run_close(r->handle);
        count(&axl__xn_counts.runs, -1);
        free(r);
    }
    if (cu->kernel) {
        axl__xrt.kernel_close(cu->kernel);
        count(&axl__xn_counts.kernels, -1);
    }
    free(cu->args);
    free(cu);
}

static axl_status open_cu(xn_device *d, const axl_xclbin *image,
                          uint32_t kernel_index, uint32_t ip_index,
                          xn_cu **out)
{
    pthread_mutex_lock(&d->lock);
    int loaded = d->has_image &&
                 !memcmp(image->uuid, d->image.uuid, sizeof image->uuid);
    xn_cu *cu = d->cus;
    while (cu && !(cu->ip_index == ip_index && !cu->closing &&
                   !memcmp(cu->uuid, image->uuid, sizeof cu->uuid)))
        cu = cu->next;
    if (cu && loaded) {
        cu->refs++;
        pthread_mutex_unlock(&d->lock);
        *out = cu;
        return AXL_SUCCESS;
    }
    pthread_mutex_unlock(&d->lock);
    if (!loaded)
        return axl_fail(AXL_ERR_BAD_STATE,
                        "%s does not carry this image: load it first",
                        d->name);

    axl_xclbin_kernel k;
    axl_xclbin_ip ip;
    if (axl_xclbin_get_kernel(image, kernel_index, &k) != AXL_SUCCESS)
        return axl_fail(AXL_ERR_INVALID, "the image has no kernel %u",
                        (unsigned)kernel_index);
    if (axl_xclbin_get_ip(image, ip_index, &ip) != AXL_SUCCESS ||
        ip.type != AXL_XCLBIN_IP_KERNEL || ip.kernel.len != k.name.len ||
        memcmp(ip.kernel.ptr, k.name.ptr, k.name.len))
        return axl_fail(AXL_ERR_INVALID,
                        "IP %u of the image is not a compute unit of %.*s",
                        (unsigned)ip_index, (int)k.name.len, k.name.ptr);

    cu = calloc(1, sizeof *cu);
    if (!cu)
        return axl_fail(AXL_ERR_MEMORY_ALLOCATION, "no memory for a compute unit");
    cu->dev = d;
    cu->ip_index = ip_index;
    cu->refs = 1;
    memcpy(cu->uuid, image->uuid, sizeof cu->uuid);
    /* XRT names one unit "kernel:{instance}" (an IP without an instance
     * part is a whole kernel). */
    if (ip.instance.len)
        axl_format(cu->name, sizeof cu->name, "%.*s:{%.*s}", (int)k.name.len,
                   k.name.ptr, (int)ip.instance.len, ip.instance.ptr);
    else
        axl_format(cu->name, sizeof cu->name, "%.*s", (int)k.name.len,
                   k.name.ptr);

    for (uint32_t i = 0; i < k.arg_count; i++) {
        axl_xclbin_arg a;
        if (axl_xclbin_get_kernel_arg(image, &k, i, &a) == AXL_SUCCESS &&
            a.index >= cu->nargs && a.index < 1024)
            cu->nargs = a.index + 1;
    }
    cu->args = malloc((cu->nargs ? cu->nargs : 1) * sizeof *cu->args);
    if (!cu->args) {
        free(cu);
        return axl_fail(AXL_ERR_MEMORY_ALLOCATION, "no memory for a compute unit");
    }
    for (uint32_t i = 0; i < cu->nargs; i++)
        cu->args[i].kind = NO_ARG;
    for (uint32_t i = 0; i < k.arg_count; i++) {
        axl_xclbin_arg a;
        if (axl_xclbin_get_kernel_arg(image, &k, i, &a) != AXL_SUCCESS ||
            a.index >= cu->nargs)
            continue;
        cu->args[a.index].kind = arg_kind(&a);
        cu->args[a.index].xml_size = (uint32_t)a.size;
    }

    errno = 0;
    cu->kernel = axl__xrt.kernel_open(d->dh, image->uuid, cu->name);
    if (!cu->kernel) {
        int e = errno;
        free(cu->args);
        free(cu);
        return axl_fail(is_busy_errno(e) ? AXL_ERR_BAD_STATE
                                         : AXL_ERR_KERNEL_NOT_SUPPORTED,
                        "XRT cannot open compute unit %.*s:%.*s: "
                        "xrtPLKernelOpen failed%s",
                        (int)k.name.len, k.name.ptr, (int)ip.instance.len,
                        ip.instance.ptr, errno_name(e));
    }
    count(&axl__xn_counts.kernels, 1);
    pthread_mutex_lock(&d->lock);
    cu->next = d->cus;
    d->cus = cu;
    pthread_mutex_unlock(&d->lock);
    *out = cu;
    return AXL_SUCCESS;
}

/* A run whose compute unit was closed while it ran: the unit goes when its
 * last run is back (lock held). */
static void unlink_if_done(xn_device *d, xn_cu *cu)
{
    if (!cu->closing || cu->busy)
        return;
    xn_cu **p = &d->cus;
    while (*p && *p != cu)
        p = &(*p)->next;
    if (*p)
        *p = cu->next;
    cu->next = d->dead;
    d->dead = cu;
}

static void destroy_dead(xn_device *d)
{
    pthread_mutex_lock(&d->lock);
    xn_cu *dead = d->dead;
    d->dead = NULL;
    pthread_mutex_unlock(&d->lock);
    while (dead) {
        xn_cu *next = dead->next;
        destroy_cu(dead);
        dead = next;
    }
}

/* A run back in its pool (lock held). */
static void run_to_pool(xn_device *d, xn_run *r)
{
    xn_cu *cu = r->cu;
    r->state = RUN_FREE;
    r->token = NULL;
    r->hal = NULL;
    r->next = cu->free;
    cu->free = r;
    cu->busy--;
    unlink_if_done(d, cu);
}

/* ---- Reaping --------------------------------------------------------------- */

static axl_status run_status(const xn_run *r, char *why, size_t cap)
{
    if (r->timed_out) {
        axl_format(why, cap,
                   "%s did not finish within %llu ms (XRT state %s); the "
                   "compute unit stays busy until it does",
                   r->cu->name, (unsigned long long)(r->timeout_ns / MS),
                   ert_name(r->ert));
        return AXL_ERR_TIMEOUT;
    }
    if (r->ert == ERT_CMD_STATE_COMPLETED)
        return AXL_SUCCESS;
    axl_format(why, cap, "%s ended in XRT state %s", r->cu->name,
               ert_name(r->ert));
    return AXL_ERR_RUNTIME;
}

/*
 * Reports a batch of finished runs (already in `reporting`, with
 * d->delivering counted) with no lock held: the core may start the next
 * run from inside run_done. A run the core cancels from inside run_done is
 * skipped. Then returns them to their pools (or keeps timed-out ones that
 * are still on the device).
 */
static void deliver(xn_device *d, xn_run *batch)
{
    xn_device *outer = delivering_here;
    delivering_here = d;
    for (xn_run *r = batch; r; r = r->batch_next) {
        if (r->cancelled)
            continue;
        char why[AXL_MESSAGE_MAX];
        why[0] = 0;
        axl_status st = run_status(r, why, sizeof why);
        report(r->token, st, why[0] ? why : NULL);
    }
    delivering_here = outer;

    pthread_mutex_lock(&d->lock);
    for (xn_run *r = batch, *next; r; r = next) {
        next = r->batch_next;
        list_del(r);
        if (r->timed_out && !ert_final(r->ert)) {
            r->state = RUN_ZOMBIE;
            list_push(&d->zombies, r);
        } else {
            run_to_pool(d, r);
        }
    }
    d->delivering--;
    if (d->cancel_waiters)
        pthread_cond_broadcast(&d->reported);
    int dead = d->dead != NULL;
    pthread_mutex_unlock(&d->lock);
    if (dead)
        destroy_dead(d);
}

/*
 * Reports every run that has finished or passed its deadline, and returns
 * zombies that finished to their pools. `known` is a run handle whose
 * state the caller just got from XRT (COMPLETED saves a second query).
 * Returns how many runs it reported.
 */
static unsigned reap(xn_device *d, xrtRunHandle known, int known_state)
{
    xn_run *batch = NULL, **tail = &batch;
    unsigned n = 0;
    pthread_mutex_lock(&d->lock);
    uint64_t now = 0;
    for (xn_run *r = d->inflight.next, *next; r != &d->inflight; r = next) {
        next = r->next;
        int s = r->handle == known && known_state == ERT_CMD_STATE_COMPLETED
                    ? known_state
                    : (int)axl__xrt.run_state(r->handle);
        if (!ert_final(s)) {
            if (!r->deadline)
                continue;
            if (!now)
                now = now_ns();
            if (now < r->deadline)
                continue;
            r->timed_out = 1;
        }
        r->ert = s;
        list_del(r);
        r->state = RUN_DELIVERING;
        list_push(&d->reporting, r); /* where run_cancel finds it */
        r->batch_next = NULL;
        *tail = r;
        tail = &r->batch_next;
        n++;
    }
    for (xn_run *z = d->zombies.next, *next; z != &d->zombies; z = next) {
        next = z->next;
        if (ert_final((int)axl__xrt.run_state(z->handle))) {
            list_del(z);
            run_to_pool(d, z);
        }
    }
    if (n)
        d->delivering++;
    int dead = d->dead != NULL;
    pthread_mutex_unlock(&d->lock);
    if (n)
        deliver(d, batch);
    else if (dead)
        destroy_dead(d);
    return n;
}

/* ---- The completion thread -------------------------------------------------- */

static void deadline_after(struct timespec *ts, uint64_t ns)
{
    uint64_t t = now_ns() + ns;
    ts->tv_sec = (time_t)(t / 1000000000ull);
    ts->tv_nsec = (long)(t % 1000000000ull);
}

static void *completion_main(void *arg)
{
    xn_device *d = arg;
    pthread_mutex_lock(&d->lock);
    while (!d->stop) {
        if (list_empty(&d->inflight)) {
            /* Nothing running: sleep until a launch wakes us, or poll the
             * runs given up on until XRT sees them end. */
            int zombies = !list_empty(&d->zombies);
            if (zombies) {
                pthread_mutex_unlock(&d->lock);
                reap(d, NULL, 0);
                pthread_mutex_lock(&d->lock);
                zombies = !list_empty(&d->zombies);
            }
            if (d->stop || !list_empty(&d->inflight))
                continue;
            d->sleeping = 1;
            if (zombies) {
                struct timespec ts;
                deadline_after(&ts, AXL_XRT_POLL_MS * MS);
                pthread_cond_timedwait(&d->cond, &d->lock, &ts);
            } else {
                pthread_cond_wait(&d->cond, &d->lock);
            }
            d->sleeping = 0;
            continue;
        }
        xrtRunHandle h = d->inflight.next->handle;
        uint64_t slice = AXL_XRT_WAIT_SLICE_MS * MS, t0 = now_ns();
        for (xn_run *r = d->inflight.next; r != &d->inflight; r = r->next)
            if (r->deadline && r->deadline > t0 && r->deadline - t0 < slice)
                slice = r->deadline - t0;
        pthread_mutex_unlock(&d->lock);
        unsigned ms = (unsigned)((slice + MS - 1) / MS);
        int s = (int)axl__xrt.run_wait_for(h, ms ? ms : 1);
        unsigned reaped = reap(d, h, s);
        pthread_mutex_lock(&d->lock);
        if (!reaped && now_ns() - t0 < AXL_XRT_POLL_MS * MS && !d->stop) {
            /* XRT returned at once with nothing done: do not spin. */
            struct timespec ts;
            deadline_after(&ts, AXL_XRT_POLL_MS * MS);
            pthread_cond_timedwait(&d->cond, &d->lock, &ts);
        }
    }
    pthread_mutex_unlock(&d->lock);
    return NULL;
}

/* Started by the first launch (a device nobody runs on has no thread). */
static axl_status start_thread(xn_device *d)
{
    if (atomic_load_explicit(&d->thread_running, memory_order_acquire))
        return AXL_SUCCESS;
    axl_status st = AXL_SUCCESS;
    pthread_mutex_lock(&d->lock);
    if (!d->thread_running) {
        d->stop = 0;
        if (pthread_create(&d->thread, NULL, completion_main, d) != 0) {
            st = axl_fail(AXL_ERR_OUT_OF_RESOURCES,
                          "cannot start the completion thread of %s",
                          d->name);
        } else {
            atomic_store_explicit(&d->thread_running, 1,
                                  memory_order_release);
            count(&axl__xn_counts.threads, 1);
        }
    }
    pthread_mutex_unlock(&d->lock);
    return st;
}

static void stop_thread(xn_device *d)
{
    if (!d->thread_running)
        return;
    pthread_mutex_lock(&d->lock);
    d->stop = 1;
    pthread_cond_broadcast(&d->cond);
    pthread_mutex_unlock(&d->lock);
    if (!pthread_equal(pthread_self(), d->thread))
        pthread_join(d->thread, NULL);
    else
        pthread_detach(d->thread);
    d->thread_running = 0;
    count(&axl__xn_counts.threads, -1);
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
        reap(d, NULL, 0);
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    stop_thread(d);

    /* Runs, then kernels, then buffers, then the device. */
    xn_run *lists[] = {&d->inflight, &d->zombies, &d->reporting};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        while (!list_empty(lists[i])) {
            xn_run *r = lists[i]->next;
            list_del(r);
            run_to_pool(d, r);
        }
    destroy_dead(d);
    while (d->cus) {
        xn_cu *cu = d->cus;
        d->cus = cu->next;
        destroy_cu(cu);
    }
    while (d->bos) {
        xn_bo *b = d->bos;
        d->bos = b->next;
        while (b->subs) {
            xn_sub *s = b->subs;
            b->subs = s->next;
            axl__xrt.bo_free(s->bo);
            count(&axl__xn_counts.sub_bos, -1);
            free(s);
        }
        axl__xrt.bo_free(b->bo);
        count(&axl__xn_counts.bos, -1);
        free(b);
    }
    if (d->owned)
        axl__xrt.device_close(d->dh);
    count(&axl__xn_counts.devices, -1);
    free(d->builtin_bytes);
    d->builtin_bytes = NULL;
    pthread_cond_destroy(&d->cond);
    pthread_cond_destroy(&d->reported);
    pthread_mutex_destroy(&d->lock);
    d->open = 0;
}

static void close_all_at_exit(void)
{
    for (uint32_t i = 0; i < AXL_XRT_DEVICES; i++)
        close_device(&devices[i]);
}

/* XRT's own handle maps are destroyed at exit after the shim's buffer
 * table, and an open BO then crashes in xclFreeBO. Handlers registered
 * after the shim loaded run before that. */
static void register_exit_handler(void)
{
    pthread_mutex_lock(&exit_lock);
    if (!exit_registered && atexit(close_all_at_exit) == 0)
        exit_registered = 1;
    pthread_mutex_unlock(&exit_lock);
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
    list_init(&d->inflight);
    list_init(&d->zombies);
    list_init(&d->reporting);
    d->index = index;
    d->dh = dh;
    d->owned = owned;
    d->open = 1;
    count(&axl__xn_counts.devices, 1);
    register_exit_handler();

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

static axl_status xn_load_image(void *dev, const axl_xclbin *image, char *why,
                                size_t why_size)
{
    xn_device *d = dev;
    axl_status st;
    if (!image || !image->data || !image->size) {
        axl_format(why, why_size, "no image");
        return axl_fail(AXL_ERR_INVALID, "no image");
    }
    pthread_mutex_lock(&d->lock);
    uint32_t open_cus = 0;
    for (xn_cu *cu = d->cus; cu; cu = cu->next) {
        if (!cu->lazy) {
            open_cus++;
        } else if (!cu->closing) { /* ours: close it with the design */
            cu->closing = 1;
            unlink_if_done(d, cu);
        }
    }
    int busy = !list_empty(&d->inflight) || !list_empty(&d->zombies) ||
               d->delivering;
    pthread_mutex_unlock(&d->lock);
    destroy_dead(d);
    if (open_cus || busy) {
        axl_format(why, why_size,
                   "%s still has %u compute units open%s: close them first",
                   d->name, (unsigned)open_cus,
                   busy ? " and runs on the device" : "");
        return axl_fail(AXL_ERR_BAD_STATE, "%s", why);
    }
    int rc = load_bytes(d, image);
    if (rc != 0) {
        int e = errno;
        st = is_busy_errno(e) || is_busy_errno(rc) ? AXL_ERR_BAD_STATE
                                                   : AXL_ERR_BUILD;
        axl_format(why, why_size,
                   "XRT refused the image: xrtDeviceLoadXclbin returned "
                   "%d%s; XRT printed why on stderr",
                   rc, errno_name(e));
        return axl_fail(st, "%s", why);
    }
    pthread_mutex_lock(&d->lock);
    set_image(d, image);
    pthread_mutex_unlock(&d->lock);
    return AXL_SUCCESS;
}

/* ---- Runs ---------------------------------------------------------------------- */

static axl_status xn_cu_open(void *dev, const axl_xclbin *image,
                             uint32_t kernel_index, uint32_t ip_index,
                             uintptr_t *cu_handle)
{
    xn_cu *cu = NULL;
    axl_status st = open_cu(dev, image, kernel_index, ip_index, &cu);
    if (st == AXL_SUCCESS)
        *cu_handle = (uintptr_t)cu;
    return st;
}

static void xn_cu_close(void *dev, uintptr_t cu_handle)
{
    xn_device *d = dev;
    xn_cu *cu = (xn_cu *)cu_handle;
    if (!cu)
        return;
    pthread_mutex_lock(&d->lock);
    if (--cu->refs == 0) {
        cu->closing = 1;
        unlink_if_done(d, cu);
    }
    pthread_mutex_unlock(&d->lock);
    destroy_dead(d);
}

/* The BO of `size` bytes at `offset` in an allocation (offset < b->size,
 * size <= b->size - offset): the allocation itself when that is all of it,
 * or a sub-BO made once and kept with the allocation. An accessor at an
 * offset gives the kernel the range from there to the end; interop asks
 * for a sub-buffer's own range. */
static axl_status arg_bo(xn_device *d, xn_bo *b, uint64_t offset,
                         uint64_t size, xrtBufferHandle *out)
{
    if (!offset && size >= b->size) {
        *out = b->bo;
        return AXL_SUCCESS;
    }
    pthread_mutex_lock(&d->lock);
    xn_sub *s = b->subs;
    while (s && (s->offset != offset || s->size != size))
        s = s->next;
    pthread_mutex_unlock(&d->lock);
    if (s) {
        *out = s->bo;
        return AXL_SUCCESS;
    }
    s = calloc(1, sizeof *s);
    if (!s)
        return axl_fail(AXL_ERR_MEMORY_ALLOCATION, "no memory for a sub-buffer");
    errno = 0;
    s->bo = axl__xrt.bo_sub_alloc(b->bo, (size_t)size, (size_t)offset);
    if (!s->bo) {
        int e = errno;
        free(s);
        return axl_fail(AXL_ERR_MEMORY_ALLOCATION,
                        "xrtBOSubAlloc of %llu bytes at offset %llu failed%s",
                        (unsigned long long)size, (unsigned long long)offset,
                        errno_name(e));
    }
    s->offset = offset;
    s->size = size;
    count(&axl__xn_counts.sub_bos, 1);
    pthread_mutex_lock(&d->lock);
    xn_sub *other = b->subs;
    while (other && (other->offset != offset || other->size != size))
        other = other->next;
    if (!other) {
        s->next = b->subs;
        b->subs = s;
    }
    pthread_mutex_unlock(&d->lock);
    if (other) { /* another thread made the same one meanwhile */
        axl__xrt.bo_free(s->bo);
        count(&axl__xn_counts.sub_bos, -1);
        free(s);
        s = other;
    }
    *out = s->bo;
    return AXL_SUCCESS;
}

static axl_status set_arg(xn_device *d, xn_cu *cu, xn_run *r,
                          const axl_hal_arg *a)
{
    if (a->id >= cu->nargs || cu->args[a->id].kind == NO_ARG)
        return axl_fail(AXL_ERR_KERNEL_ARGUMENT,
                        "%s has no argument %u", cu->name, (unsigned)a->id);
    const xn_arg *m = &cu->args[a->id];
    axl__xrt_value v;
    memset(&v, 0, sizeof v);
    v.kind = (axl__xrt_kind)m->kind;
    unsigned char pad[64];
    uint64_t bits = 0;
    if (a->is_mem) {
        xn_bo *b = bo_of(a->mem);
        if (m->kind != AXL__XRT_BO)
            return axl_fail(AXL_ERR_KERNEL_ARGUMENT,
                            "argument %u of %s is a scalar, not a buffer",
                            (unsigned)a->id, cu->name);
        if (!b || b->dev != d)
            return axl_fail(AXL_ERR_KERNEL_ARGUMENT,
                            "argument %u of %s: the buffer is not on %s",
                            (unsigned)a->id, cu->name, d->name);
        if (a->offset >= b->size)
            return axl_fail(AXL_ERR_KERNEL_ARGUMENT,
                            "argument %u of %s: offset %llu is past the "
                            "%llu-byte allocation",
                            (unsigned)a->id, cu->name,
                            (unsigned long long)a->offset,
                            (unsigned long long)b->size);
        axl_status st = AXL_SUCCESS;
        if (a->offset)
            st = arg_bo(d, b, a->offset, b->size - a->offset, &v.v.bo);
        else
            v.v.bo = b->bo;
        if (st != AXL_SUCCESS)
            return st;
        bits = (uintptr_t)v.v.bo;
    } else {
        uint64_t raw = 0;
        size_t n = a->size < sizeof raw ? (size_t)a->size : sizeof raw;
        if (m->kind == AXL__XRT_BO)
            return axl_fail(AXL_ERR_KERNEL_ARGUMENT,
                            "argument %u of %s is a buffer, not a scalar",
                            (unsigned)a->id, cu->name);
        if (!a->value || !a->size)
            return axl_fail(AXL_ERR_KERNEL_ARGUMENT,
                            "argument %u of %s has no value", (unsigned)a->id,
                            cu->name);
        memcpy(&raw, a->value, n); /* little-endian, as XRT copies it */
        bits = raw;
        switch (m->kind) {
        case AXL__XRT_INT: {
            uint32_t u = (uint32_t)raw;
            memcpy(&v.v.i, &u, sizeof u);
            break;
        }
        case AXL__XRT_UINT:
            v.v.u = (unsigned int)raw;
            break;
        case AXL__XRT_FLOAT: {
            float f;
            uint32_t u = (uint32_t)raw;
            memcpy(&f, &u, sizeof f);
            v.v.d = f;
            break;
        }
        case AXL__XRT_DOUBLE:
            memcpy(&v.v.d, &raw, sizeof v.v.d);
            break;
        case AXL__XRT_PTR:
            memset(pad, 0, sizeof pad);
            memcpy(pad, a->value,
                   a->size < sizeof pad ? (size_t)a->size : sizeof pad);
            v.v.p = pad;
            break;
        case AXL__XRT_U32:
            v.v.u32 = (uint32_t)raw;
            break;
        case AXL__XRT_U64:
            v.v.u64 = raw;
            break;
        case AXL__XRT_SIZE:
            v.v.z = (size_t)raw;
            break;
        case AXL__XRT_SKIP:
            break;
        default:
            return axl_fail(AXL_ERR_KERNEL_ARGUMENT,
                            "argument %u of %s (%u bytes) cannot pass "
                            "through XRT 2.13's C API",
                            (unsigned)a->id, cu->name,
                            (unsigned)m->xml_size);
        }
    }
    /* Wider pointed-to scalars are not remembered: always set. */
    xn_argval *held = &r->vals[a->id];
    int keep = AXL_XRT_KEEP_RUN_ARGS && m->kind != AXL__XRT_PTR;
    if (keep && held->known && held->bits == bits)
        return AXL_SUCCESS;
    held->known = 0;
    errno = 0;
    if (axl__xrt.run_set_arg(r->handle, (int)a->id, &v) != 0)
        return axl_fail(AXL_ERR_KERNEL_ARGUMENT,
                        "xrtRunSetArg(%s, %u) failed%s", cu->name,
                        (unsigned)a->id, errno_name(errno));
    held->bits = bits;
    held->known = (uint8_t)keep;
    return AXL_SUCCESS;
}

/* A run from the unit's pool, or a new XRT run (the pool grows to the
 * number of runs in flight on the unit at once). */
static axl_status take_run(xn_device *d, xn_cu *cu, xn_run **out)
{
    pthread_mutex_lock(&d->lock);
    xn_run *r = cu->free;
    if (r)
        cu->free = r->next;
    cu->busy++;
    pthread_mutex_unlock(&d->lock);
    if (!r) {
        r = calloc(1, sizeof *r + cu->nargs * sizeof r->vals[0]);
        if (r) {
            _Static_assert(sizeof(xn_run) % _Alignof(xn_argval) == 0,
                           "the values follow the run");
            r->vals = (xn_argval *)(r + 1);
            errno = 0;
            r->handle = axl__xrt.run_open(cu->kernel);
            if (!r->handle) {
                int e = errno;
                free(r);
                r = NULL;
                errno = e;
            }
        }
        if (!r) {
            int e = errno;
            pthread_mutex_lock(&d->lock);
            cu->busy--;
            pthread_mutex_unlock(&d->lock);
            return axl_fail(AXL_ERR_MEMORY_ALLOCATION,
                            "xrtRunOpen(%s) failed%s", cu->name,
                            errno_name(e));
        }
        r->cu = cu;
        r->bo_epoch = atomic_load_explicit(&d->bo_epoch, memory_order_relaxed);
        count(&axl__xn_counts.runs, 1);
    } else {
        unsigned epoch =
            atomic_load_explicit(&d->bo_epoch, memory_order_relaxed);
        if (r->bo_epoch != epoch) {
            for (uint32_t i = 0; i < cu->nargs; i++)
                if (cu->args[i].kind == AXL__XRT_BO)
                    r->vals[i].known = 0;
            r->bo_epoch = epoch;
        }
    }
    r->state = RUN_BUSY;
    r->timed_out = 0;
    r->cancelled = 0;
    r->ert = 0;
    *out = r;
    return AXL_SUCCESS;
}

/* A run that never started (lock not held). `wedged`: XRT may have reset
 * it without starting it, so it cannot be started again: close it. */
static void give_back(xn_device *d, xn_run *r, int wedged)
{
    pthread_mutex_lock(&d->lock);
    if (!wedged) {
        run_to_pool(d, r);
        pthread_mutex_unlock(&d->lock);
        return;
    }
    r->cu->busy--;
    unlink_if_done(d, r->cu);
    pthread_mutex_unlock(&d->lock);
    axl__xrt.run_close(r->handle);
    count(&axl__xn_counts.runs, -1);
    free(r);
    destroy_dead(d);
}

static axl_status xn_run_start(void *dev, const axl_hal_run *run)
{
    xn_device *d = dev;
    xn_cu *cu = (xn_cu *)run->cu_handle;
    axl_status st;
    if (!cu) {
        /* No cu_open from the core: open (and keep) the unit now. */
        st = open_cu(d, run->image, run->kernel_index, run->ip_index, &cu);
        if (st != AXL_SUCCESS)
            return st;
        pthread_mutex_lock(&d->lock);
        if (cu->refs > 1)
            cu->refs--; /* one reference for all the lazy opens */
        else
            cu->lazy = 1;
        pthread_mutex_unlock(&d->lock);
    } else if (cu->dev != d || cu->closing) {
        return axl_fail(AXL_ERR_INVALID,
                        "compute unit handle of another device or closed");
    }
    st = start_thread(d);
    if (st != AXL_SUCCESS)
        return st;
    xn_run *r = NULL;
    st = take_run(d, cu, &r);
    if (st != AXL_SUCCESS)
        return st;
    for (uint32_t i = 0; i < run->arg_count; i++) {
        st = set_arg(d, cu, r, &run->args[i]);
        if (st != AXL_SUCCESS) {
            give_back(d, r, 0);
            return st;
        }
    }
    r->token = run->token;
    r->hal = run;
    r->timeout_ns = run->timeout_ns;
    r->deadline = 0;
    errno = 0;
    if (axl__xrt.run_start(r->handle) != 0) {
        int e = errno;
        give_back(d, r, 1);
        return axl_fail(AXL_ERR_RUNTIME, "xrtRunStart(%s) failed%s",
                        cu->name, errno_name(e));
    }
    /* A run XRT already sees complete (the noop shim, or a unit faster
     * than this call) is reported now, before run_start returns, as the
     * hal allows: no thread needs to wake for it. */
    pthread_mutex_lock(&d->lock);
    int s = (int)axl__xrt.run_state(r->handle);
    if (ert_final(s)) {
        r->ert = s;
        r->state = RUN_DELIVERING;
        r->batch_next = NULL;
        list_push(&d->reporting, r);
        d->delivering++;
        pthread_mutex_unlock(&d->lock);
        deliver(d, r);
        return AXL_SUCCESS;
    }
    /* Only a run that goes on running needs its deadline (and the clock
     * read), counted from here: a few XRT calls after its start. */
    r->deadline = run->timeout_ns ? now_ns() + run->timeout_ns : 0;
    list_push(&d->inflight, r);
    if (d->sleeping)
        pthread_cond_signal(&d->cond);
    pthread_mutex_unlock(&d->lock);
    return AXL_SUCCESS;
}

static void xn_run_cancel(void *dev, const axl_hal_run *run)
{
    /* hal.h: the run ends with exactly one axl_hal_run_done. One still on
     * the device is set aside (a zombie until XRT sees it end, its unit
     * takes a fresh XRT run) and reported here, at once; one being
     * reported already has its report under way, which is its end. */
    xn_device *d = dev;
    void *token = NULL;
    pthread_mutex_lock(&d->lock);
    xn_run *r = d->inflight.next;
    while (r != &d->inflight && r->hal != run)
        r = r->next;
    if (r != &d->inflight) {
        token = r->token;
        list_del(r);
        r->state = RUN_ZOMBIE;
        r->cancelled = 1;
        r->token = NULL;
        list_push(&d->zombies, r);
    }
    pthread_mutex_unlock(&d->lock);
    if (token)
        report(token, AXL_ERR_TIMEOUT,
               "the run was given up; it stays on the device until XRT "
               "sees it end");
}

static void xn_progress(void *dev, uint64_t deadline_ns)
{
    xn_device *d = dev;
    pthread_mutex_lock(&d->lock);
    xrtRunHandle h = list_empty(&d->inflight) ? NULL : d->inflight.next->handle;
    pthread_mutex_unlock(&d->lock);
    if (!h)
        return;
    unsigned ms = AXL_XRT_WAIT_SLICE_MS;
    if (deadline_ns != UINT64_MAX) {
        uint64_t now = axl_hal_now();
        uint64_t left = deadline_ns > now ? deadline_ns - now : 0;
        if (left / MS < ms)
            ms = (unsigned)(left / MS);
    }
    int s = ms ? (int)axl__xrt.run_wait_for(h, ms) : (int)axl__xrt.run_state(h);
    reap(d, h, s);
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
    .mem_alloc = axl__xn_mem_alloc,
    .mem_free = axl__xn_mem_free,
    .mem_write = axl__xn_mem_write,
    .mem_read = axl__xn_mem_read,
    .mem_copy = axl__xn_mem_copy,
    .cu_open = xn_cu_open,
    .cu_close = xn_cu_close,
    .run_start = xn_run_start,
    .run_cancel = xn_run_cancel,
    .progress = xn_progress,
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
    run_done_hook = fn;
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

xrtBufferHandle axl__xrt_mem_bo(const axl_hal_mem *mem)
{
    xn_bo *b = bo_of(mem);
    return b ? b->bo : NULL;
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
    return arg_bo(d, b, offset, size, bo);
}
