/*
 * port/template - the porting guide: every function the core needs from an
 * OS, with what it must do. Copy this folder to port/<your-os>/, fill in
 * each function, and point AXL_OS_PORT at it in your board's board.cmake.
 * It compiles as it is (a single-threaded port with a fake clock), so the
 * CI proves the list below stays complete.
 *
 * Reference implementations: port/posix (threads) and port/baremetal
 * (interrupts, no threads).
 */
#include "axl/hal.h"
#include "axl/kernel_bundle.h"
#include "axl/runtime.h"
#include "axl/trace.h"

/* Create the condition objects behind the wait channels. Called from
 * axl_init. Return AXL_SUCCESS or a failure with axl_fail(). */
axl_status axl_port_init(void)
{
    return AXL_SUCCESS;
}

/* Undo axl_port_init (axl_shutdown). */
void axl_port_fini(void)
{
}

/* axl_shutdown is done (no lock held): a port with files writes the trace
 * file here (posix: AXL_TRACE). */
void axl_port_stopped(void)
{
}

/* Write the trace to a file, where the platform has files (posix: fopen
 * and axl_trace_format); otherwise this. */
axl_status axl_trace_write(const char *path)
{
    (void)path;
    return axl_fail(AXL_ERR_FEATURE_NOT_SUPPORTED,
                    "axl_trace_write: this port has no files");
}

axl_status axl_image_register_file(const char *path)
{
    (void)path;
    return axl_fail(AXL_ERR_FEATURE_NOT_SUPPORTED,
                    "axl_image_register_file: this port has no files; "
                    "register the image's bytes (axl_image_register)");
}

/* The runtime lock: a mutex on an RTOS (FreeRTOS: xSemaphoreTake on a
 * mutex created statically), interrupt masking on a bare single core. It
 * must work before axl_port_init, so initialise it statically. Not
 * recursive: the core never takes it twice. */
void axl_port_lock(void)
{
}

void axl_port_unlock(void)
{
}

/* With the lock held: release it, sleep until axl_port_wake(channel) or the
 * deadline (axl_port_now_ns time base, UINT64_MAX = none), retake it. A
 * spurious return is fine. On an RTOS: a condition variable or an event
 * group bit per channel. */
void axl_port_wait(unsigned channel, uint64_t deadline_ns)
{
    (void)channel;
    (void)deadline_ns;
}

/* Wake every waiter of the channel (called with the lock held). */
void axl_port_wake(unsigned channel)
{
    (void)channel;
}

/* A monotonic clock in ns: a hardware timer, or the RTOS tick times the
 * tick period. This template counts calls. */
uint64_t axl_port_now_ns(void)
{
    static uint64_t fake;
    return fake += 1000;
}

uint64_t axl_port_clock_resolution_ns(void)
{
    return 1000;
}

/* A pause for spin loops (a PAUSE or YIELD instruction). */
void axl_port_relax(void)
{
}

/* AXL_MESSAGE_MAX bytes per thread (thread-local storage, or a slot in the
 * RTOS task control block) and one for interrupt context. */
char *axl_port_message_buffer(void)
{
    static char message[AXL_MESSAGE_MAX];
    return message;
}

/* Nonzero inside an interrupt handler. */
int axl_port_in_isr(void)
{
    return 0;
}

/* Start up to n threads running fn(arg) for host tasks; return how many
 * started. 0 is fine: host tasks then run on the thread that readies them. */
unsigned axl_port_workers_start(unsigned n, void (*fn)(void *), void *arg)
{
    (void)n;
    (void)fn;
    (void)arg;
    return 0;
}

/* Wait for those threads to return (they return once axl_shutdown asks). */
void axl_port_workers_join(void)
{
}

/* Device ports' own threads (the emulated device's per-unit workers).
 * 0: no threads here; the device port then works from run_start and
 * progress on the core's threads. */
unsigned axl_port_thread_start(void (*fn)(void *), void *arg)
{
    (void)fn;
    (void)arg;
    return 0;
}

void axl_port_thread_join(unsigned id)
{
    (void)id;
}

void axl_port_thread_detach(unsigned id)
{
    (void)id;
}

/* Data-cache maintenance around DMA, for non-coherent boards. */
void axl_port_cache_flush(const void *addr, size_t size)
{
    (void)addr;
    (void)size;
}

void axl_port_cache_invalidate(void *addr, size_t size)
{
    (void)addr;
    (void)size;
}
