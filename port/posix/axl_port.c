/*
 * port/posix - the OS port for Linux and other POSIX systems: the runtime
 * lock and wait channels (futexes on Linux; a pthread mutex and conditions
 * on CLOCK_MONOTONIC elsewhere), thread-local message buffers and pthread
 * workers.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* syscall() for futexes on Linux */

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axl/device.h"
#include "axl/hal.h"
#include "axl/kernel_bundle.h"
#include "axl/runtime.h"
#include "axl/trace.h"

/* ---- Environment switches: AXL_LOG and AXL_TRACE ---------------------------- */

/* AXL_TRACE, read at start (lock held); copied at axl_port_fini (lock
 * held) to the path axl_port_stopped writes after the lock is let go, so a
 * start on another thread meanwhile does not change it under the writer. */
static char trace_path[4096];
static char trace_path_at_stop[4096];
/* A program that exits without axl_shutdown still gets its AXL_TRACE
 * file: written at exit unless a shutdown wrote it since the last start. */
static _Atomic int trace_unwritten;
static int exit_writer_registered;

static void write_trace_at_exit(void)
{
    if (atomic_exchange(&trace_unwritten, 0) && trace_path[0] &&
        axl_trace_write(trace_path) != AXL_SUCCESS)
        fprintf(stderr, "axl: error: AXL_TRACE at exit: %s\n",
                axl_last_message());
}

static void log_to_stderr(const char *text, size_t len, void *user)
{
    (void)user;
    fprintf(stderr, "%.*s\n", (int)len, text);
}

/* Read at every start (lock held): AXL_LOG=error|warn|info|debug|off sets
 * the level with a stderr sink (unset leaves what the application set);
 * AXL_TRACE=path turns the trace on and names the file axl_shutdown
 * writes. */
static void env_switches(void)
{
    const char *level_word = getenv("AXL_LOG");
    if (level_word && level_word[0]) {
        axl_log_level level;
        if (axl_log_level_parse(level_word, &level))
            axl_log_set(level, log_to_stderr, NULL);
        else
            fprintf(stderr,
                    "axl: warn: AXL_LOG=%s is not one of error, warn, info, "
                    "debug, off: logs stay as they were\n",
                    level_word);
    }
    /* AXL_DEVICE: which devices the default selector picks (device.h);
     * unset leaves what the application chose. */
    const char *devices = getenv("AXL_DEVICE");
    if (devices && devices[0] &&
        axl_default_selector_set(devices) != AXL_SUCCESS)
        fprintf(stderr, "axl: error: AXL_DEVICE: %s\n", axl_last_message());
    const char *path = getenv("AXL_TRACE");
    trace_path[0] = '\0';
    if (path && path[0]) {
        if (strlen(path) >= sizeof trace_path) {
            fprintf(stderr, "axl: warn: AXL_TRACE: the path is too long; "
                            "no trace is written\n");
        } else if (axl_trace_enable(true) == AXL_SUCCESS) {
            memcpy(trace_path, path, strlen(path) + 1);
            atomic_store(&trace_unwritten, 1);
            if (!exit_writer_registered && atexit(write_trace_at_exit) == 0)
                exit_writer_registered = 1;
        }
    }
}

static void file_sink(const char *text, size_t len, void *user)
{
    fwrite(text, 1, len, (FILE *)user);
}

axl_status axl_trace_write(const char *path)
{
    if (!path || !path[0])
        return axl_fail(AXL_ERR_INVALID,
                        "axl_trace_write: path must not be NULL or empty");
    /* Into a file beside it, renamed over path once whole: a reader never
     * sees half a trace, and a failure leaves the old file. */
    char tmp[4096 + 16];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp)
        return axl_fail(AXL_ERR_INVALID, "axl_trace_write: path too long");
    FILE *f = fopen(tmp, "w");
    if (!f)
        return axl_fail(AXL_ERR_RUNTIME, "axl_trace_write: cannot create %s",
                        tmp);
    axl_status st = axl_trace_format(file_sink, f, 0);
    int bad = ferror(f);
    if (fclose(f) != 0)
        bad = 1;
    if (st == AXL_SUCCESS && bad)
        st = axl_fail(AXL_ERR_RUNTIME, "axl_trace_write: writing %s failed",
                      tmp);
    if (st == AXL_SUCCESS && rename(tmp, path) != 0)
        st = axl_fail(AXL_ERR_RUNTIME,
                      "axl_trace_write: cannot rename %s to %s", tmp, path);
    if (st != AXL_SUCCESS)
        remove(tmp);
    return st;
}

/* ---- Images from files ----------------------------------------------------- */

/* The bytes of the images axl_image_register_file read: the runtime reads
 * them in place until axl_shutdown, after which axl_port_stopped frees
 * them. A list, so they stay reachable (no leak report at exit). */
typedef struct file_image {
    struct file_image *next;
    size_t size; /* with next, 16 bytes: bytes is 8-aligned, as axlf wants */
    unsigned char bytes[];
} file_image;
static file_image *file_images;
static pthread_mutex_t file_images_lock = PTHREAD_MUTEX_INITIALIZER;

axl_status axl_image_register_file(const char *path)
{
    if (!path || !path[0])
        return axl_fail(AXL_ERR_INVALID,
                        "axl_image_register_file: path must not be NULL or "
                        "empty");
    char shown[120];
    axl_shorten(shown, sizeof shown, path);
    FILE *f = fopen(path, "rb");
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0)
        n = ftell(f);
    file_image *img = NULL;
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0)
        img = malloc(sizeof *img + (size_t)n + 1);
    if (img && fread(img->bytes, 1, (size_t)n, f) != (size_t)n) {
        free(img);
        img = NULL;
    }
    int e = errno;
    if (f)
        fclose(f);
    if (!img)
        return axl_fail(AXL_ERR_INVALID,
                        "axl_image_register_file: cannot read %s (%s)", shown,
                        strerror(e ? e : EIO));
    img->size = (size_t)n;
    axl_status st = axl_image_register(img->bytes, img->size);
    if (st != AXL_SUCCESS) {
        char why[AXL_MESSAGE_MAX];
        snprintf(why, sizeof why, "%s", axl_last_message());
        free(img);
        if (st == AXL_ERR_FEATURE_NOT_SUPPORTED)
            return axl_fail(st, "%s", why);
        return axl_fail(st, "axl_image_register_file: %s: %s", shown,
                        strncmp(why, "axl_image_register: ", 20) ? why
                                                                 : why + 20);
    }
    pthread_mutex_lock(&file_images_lock);
    img->next = file_images;
    file_images = img;
    pthread_mutex_unlock(&file_images_lock);
    return AXL_SUCCESS;
}

void axl_port_stopped(void)
{
    /* The images are gone with the runtime: their bytes go too. */
    pthread_mutex_lock(&file_images_lock);
    while (file_images) {
        file_image *img = file_images;
        file_images = img->next;
        free(img);
    }
    pthread_mutex_unlock(&file_images_lock);
    if (!trace_path_at_stop[0])
        return;
    atomic_store(&trace_unwritten, 0);
    if (axl_trace_write(trace_path_at_stop) != AXL_SUCCESS)
        fprintf(stderr, "axl: error: AXL_TRACE: %s\n", axl_last_message());
}

#if defined(__linux__)
/*
 * On Linux the runtime lock and the wait channels are futexes: an
 * uncontended lock or unlock is one atomic instruction and no call into
 * the C library, which matters on the launch path (issue: at most 1,500
 * instructions for an empty kernel's launch). The lock is the classic
 * three-state futex mutex: 0 free, 1 held, 2 held with waiters.
 */
#include <limits.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>

static _Atomic int lock_word;
static _Atomic unsigned channel_seq[AXL_PORT_CHANNEL_COUNT];
/* Waiters per channel. Changed under the lock, but atomic: with a plain
 * array a waiter could sleep through its wake (seen with the emulated
 * device's unit workers, several threads on one channel). */
static _Atomic unsigned channel_waiting[AXL_PORT_CHANNEL_COUNT];

static long futex(volatile void *addr, int op, unsigned val,
                  const struct timespec *ts)
{
    return syscall(SYS_futex, addr, op | FUTEX_PRIVATE_FLAG, val, ts, NULL,
                   FUTEX_BITSET_MATCH_ANY);
}

axl_status axl_port_init(void)
{
    env_switches();
    return AXL_SUCCESS;
}

void axl_port_fini(void)
{
    memcpy(trace_path_at_stop, trace_path, sizeof trace_path);
}

void axl_port_lock(void)
{
    int c = 0;
    if (atomic_compare_exchange_strong_explicit(&lock_word, &c, 1,
                                                memory_order_acquire,
                                                memory_order_relaxed))
        return;
    if (c != 2)
        c = atomic_exchange_explicit(&lock_word, 2, memory_order_acquire);
    while (c != 0) {
        futex((volatile void *)&lock_word, FUTEX_WAIT, 2, NULL);
        c = atomic_exchange_explicit(&lock_word, 2, memory_order_acquire);
    }
}

void axl_port_unlock(void)
{
    if (atomic_fetch_sub_explicit(&lock_word, 1, memory_order_release) != 1) {
        atomic_store_explicit(&lock_word, 0, memory_order_release);
        futex((volatile void *)&lock_word, FUTEX_WAKE, 1, NULL);
    }
}

void axl_port_wait(unsigned channel, uint64_t deadline_ns)
{
    unsigned seen = atomic_load_explicit(&channel_seq[channel],
                                         memory_order_relaxed);
    atomic_fetch_add_explicit(&channel_waiting[channel], 1,
                              memory_order_relaxed);
    axl_port_unlock();
    if (deadline_ns == UINT64_MAX) {
        futex((volatile void *)&channel_seq[channel], FUTEX_WAIT_BITSET, seen, NULL);
    } else {
        /* FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC time. */
        struct timespec ts = {(time_t)(deadline_ns / 1000000000u),
                              (long)(deadline_ns % 1000000000u)};
        futex((volatile void *)&channel_seq[channel], FUTEX_WAIT_BITSET, seen, &ts);
    }
    axl_port_lock();
    atomic_fetch_sub_explicit(&channel_waiting[channel], 1,
                              memory_order_relaxed);
}

void axl_port_wake(unsigned channel)
{
    atomic_fetch_add_explicit(&channel_seq[channel], 1, memory_order_release);
    if (atomic_load_explicit(&channel_waiting[channel], memory_order_relaxed))
        futex((volatile void *)&channel_seq[channel], FUTEX_WAKE, INT_MAX, NULL);
}

#else /* other POSIX systems: a mutex and one condition per channel */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t channels[AXL_PORT_CHANNEL_COUNT];
static int channels_ready;

axl_status axl_port_init(void)
{
    env_switches();
    if (channels_ready)
        return AXL_SUCCESS;
    pthread_condattr_t attr;
    if (pthread_condattr_init(&attr) != 0 ||
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) != 0)
        return axl_fail(AXL_ERR_RUNTIME, "pthread_condattr failed");
    for (unsigned i = 0; i < AXL_PORT_CHANNEL_COUNT; i++)
        if (pthread_cond_init(&channels[i], &attr) != 0)
            return axl_fail(AXL_ERR_RUNTIME, "pthread_cond_init failed");
    pthread_condattr_destroy(&attr);
    channels_ready = 1;
    return AXL_SUCCESS;
}

void axl_port_fini(void)
{
    /* Conditions stay initialised: destroying them while a late waiter
     * could still wake is worse than keeping two small objects. */
    memcpy(trace_path_at_stop, trace_path, sizeof trace_path);
}

void axl_port_lock(void)
{
    pthread_mutex_lock(&lock);
}

void axl_port_unlock(void)
{
    pthread_mutex_unlock(&lock);
}

void axl_port_wait(unsigned channel, uint64_t deadline_ns)
{
    if (deadline_ns == UINT64_MAX) {
        pthread_cond_wait(&channels[channel], &lock);
        return;
    }
    struct timespec ts = {(time_t)(deadline_ns / 1000000000u),
                          (long)(deadline_ns % 1000000000u)};
    pthread_cond_timedwait(&channels[channel], &lock, &ts);
}

void axl_port_wake(unsigned channel)
{
    pthread_cond_broadcast(&channels[channel]);
}

#endif

#define MAX_WORKERS 16
static pthread_t workers[MAX_WORKERS];
static unsigned worker_count;

typedef struct worker_arg {
    void (*fn)(void *);
    void *arg;
} worker_arg;
static worker_arg worker_main_arg;

uint64_t axl_port_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t axl_port_clock_resolution_ns(void)
{
    struct timespec ts;
    if (clock_getres(CLOCK_MONOTONIC, &ts) != 0)
        return 1000;
    uint64_t ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    return ns ? ns : 1;
}

void axl_port_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ __volatile__("pause");
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

char *axl_port_message_buffer(void)
{
    static _Thread_local char message[AXL_MESSAGE_MAX];
    return message;
}

int axl_port_in_isr(void)
{
    return 0;
}

static void *worker_entry(void *p)
{
    const worker_arg *w = p;
    w->fn(w->arg);
    return NULL;
}

unsigned axl_port_workers_start(unsigned n, void (*fn)(void *), void *arg)
{
    worker_main_arg.fn = fn;
    worker_main_arg.arg = arg;
    worker_count = 0;
    for (unsigned i = 0; i < n && i < MAX_WORKERS; i++) {
        if (pthread_create(&workers[i], NULL, worker_entry, &worker_main_arg))
            break;
        worker_count++;
    }
    return worker_count;
}

void axl_port_workers_join(void)
{
    for (unsigned i = 0; i < worker_count; i++)
        pthread_join(workers[i], NULL);
    worker_count = 0;
}

/* Device ports' own threads: a fixed table, so ids are small and a
 * joined or detached thread frees its entry. Guarded by its own mutex:
 * device ports start and join threads without the runtime lock. */
#define AXL_PORT_MAX_THREADS 64
static struct {
    pthread_t thread;
    void (*fn)(void *);
    void *arg;
    int used;
} threads[AXL_PORT_MAX_THREADS];
static pthread_mutex_t threads_lock = PTHREAD_MUTEX_INITIALIZER;

static void *thread_entry(void *p)
{
    unsigned i = (unsigned)(uintptr_t)p;
    pthread_mutex_lock(&threads_lock);
    void (*fn)(void *) = threads[i].fn;
    void *arg = threads[i].arg;
    pthread_mutex_unlock(&threads_lock);
    fn(arg);
    return NULL;
}

unsigned axl_port_thread_start(void (*fn)(void *), void *arg)
{
    pthread_mutex_lock(&threads_lock);
    unsigned i = 0;
    while (i < AXL_PORT_MAX_THREADS && threads[i].used)
        i++;
    if (i == AXL_PORT_MAX_THREADS) {
        pthread_mutex_unlock(&threads_lock);
        return 0;
    }
    threads[i].fn = fn;
    threads[i].arg = arg;
    threads[i].used = 1;
    if (pthread_create(&threads[i].thread, NULL, thread_entry,
                       (void *)(uintptr_t)i) != 0) {
        threads[i].used = 0;
        pthread_mutex_unlock(&threads_lock);
        return 0;
    }
    pthread_mutex_unlock(&threads_lock);
    return i + 1;
}

static pthread_t thread_take(unsigned id)
{
    pthread_mutex_lock(&threads_lock);
    pthread_t t = threads[id - 1].thread;
    threads[id - 1].used = 0;
    pthread_mutex_unlock(&threads_lock);
    return t;
}

void axl_port_thread_join(unsigned id)
{
    if (id && id <= AXL_PORT_MAX_THREADS)
        pthread_join(thread_take(id), NULL);
}

void axl_port_thread_detach(unsigned id)
{
    if (id && id <= AXL_PORT_MAX_THREADS)
        pthread_detach(thread_take(id));
}

void axl_port_cache_flush(const void *addr, size_t size)
{
    /* Linux user space reaches device memory through the driver (XRT
     * syncs BOs), so there is nothing to do here. */
    (void)addr;
    (void)size;
}

void axl_port_cache_invalidate(void *addr, size_t size)
{
    (void)addr;
    (void)size;
}
