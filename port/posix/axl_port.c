/*
 * port/posix - the OS port for Linux and other POSIX systems: a pthread
 * mutex for the runtime lock, one condition variable per wait channel on
 * CLOCK_MONOTONIC, thread-local message buffers and pthread workers.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include "axl/hal.h"
#include "axl/runtime.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t channels[AXL_PORT_CHANNEL_COUNT];
static int channels_ready;

#define MAX_WORKERS 16
static pthread_t workers[MAX_WORKERS];
static unsigned worker_count;

typedef struct worker_arg {
    void (*fn)(void *);
    void *arg;
} worker_arg;
static worker_arg worker_main_arg;

axl_status axl_port_init(void)
{
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
