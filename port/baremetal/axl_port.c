/*
 * port/baremetal - the OS port for firmware without an OS (Cortex-R5 on
 * Zynq UltraScale+, or any single core).
 *
 * There are no threads: host tasks run on the caller's thread when they
 * become ready, and waits drive all progress. The runtime lock masks
 * interrupts (nesting allowed), so a device's completion interrupt can call
 * axl_hal_run_done safely. Waiting sleeps in WFI until an interrupt.
 *
 * The board supplies time and, optionally, sleep:
 *   uint64_t axl_board_now_ns(void);          a free-running timer
 *   void axl_board_wait_for_interrupt(void);  WFI, or nothing
 * Weak defaults below let the port link before a board provides them; the
 * default clock only counts calls, which keeps time moving but means
 * nothing as a duration.
 */
#include <stddef.h>
#include <stdint.h>

#include "axl/hal.h"
#include "axl/kernel_bundle.h"
#include "axl/runtime.h"
#include "axl/trace.h"

__attribute__((weak)) uint64_t axl_board_now_ns(void)
{
    static uint64_t ticks;
    return ticks += 1000;
}

__attribute__((weak)) void axl_board_wait_for_interrupt(void)
{
#if defined(__ARM_ARCH) && !defined(__aarch64__)
    __asm__ __volatile__("wfi" ::: "memory");
#elif defined(__aarch64__)
    __asm__ __volatile__("wfi" ::: "memory");
#endif
}

/* ---- Interrupt masking ---------------------------------------------------- */

static unsigned lock_depth;
static unsigned long saved_mask;
static volatile int isr_depth;

static unsigned long irq_save(void)
{
    unsigned long flags = 0;
#if defined(__ARM_ARCH) && !defined(__aarch64__)
    __asm__ __volatile__("mrs %0, cpsr\n\tcpsid i" : "=r"(flags)::"memory");
#elif defined(__aarch64__)
    __asm__ __volatile__("mrs %0, daif\n\tmsr daifset, #2"
                         : "=r"(flags)::"memory");
#endif
    return flags;
}

static void irq_restore(unsigned long flags)
{
#if defined(__ARM_ARCH) && !defined(__aarch64__)
    __asm__ __volatile__("msr cpsr_c, %0" ::"r"(flags) : "memory");
#elif defined(__aarch64__)
    __asm__ __volatile__("msr daif, %0" ::"r"(flags) : "memory");
#else
    (void)flags;
#endif
}

/* The board's interrupt entry calls these around handlers that may call
 * into axl, so axl_port_in_isr() and the message buffers know. */
void axl_board_isr_enter(void)
{
    isr_depth++;
}

void axl_board_isr_exit(void)
{
    isr_depth--;
}

axl_status axl_port_init(void)
{
    return AXL_SUCCESS;
}

void axl_port_fini(void)
{
}

void axl_port_stopped(void)
{
    /* The firmware drains the trace itself (axl_trace_format). */
}

axl_status axl_trace_write(const char *path)
{
    (void)path;
    return axl_fail(AXL_ERR_FEATURE_NOT_SUPPORTED,
                    "axl_trace_write: bare metal has no files; drain the "
                    "trace with axl_trace_format and a sink");
}

axl_status axl_image_register_file(const char *path)
{
    (void)path;
    return axl_fail(AXL_ERR_FEATURE_NOT_SUPPORTED,
                    "axl_image_register_file: this port has no files; "
                    "register the image's bytes (axl_image_register)");
}

void axl_port_lock(void)
{
    unsigned long flags = irq_save();
    if (lock_depth++ == 0)
        saved_mask = flags;
}

void axl_port_unlock(void)
{
    if (--lock_depth == 0)
        irq_restore(saved_mask);
}

void axl_port_wait(unsigned channel, uint64_t deadline_ns)
{
    (void)channel;
    /* Called with interrupts masked. WFI wakes on a pending interrupt even
     * while masked; unmasking afterwards lets the handler run, and the
     * caller re-checks its condition under the lock. */
    if (axl_board_now_ns() >= deadline_ns)
        return;
    unsigned depth = lock_depth;
    unsigned long mask = saved_mask;
    axl_board_wait_for_interrupt();
    lock_depth = 0;
    irq_restore(mask);
    axl_port_lock();
    lock_depth = depth;
}

void axl_port_wake(unsigned channel)
{
    (void)channel; /* one core: the waiter re-checks after any interrupt */
}

uint64_t axl_port_now_ns(void)
{
    return axl_board_now_ns();
}

uint64_t axl_port_clock_resolution_ns(void)
{
    return 1000;
}

void axl_port_relax(void)
{
}

char *axl_port_message_buffer(void)
{
    static char thread_message[AXL_MESSAGE_MAX];
    static char isr_message[AXL_MESSAGE_MAX];
    return isr_depth ? isr_message : thread_message;
}

int axl_port_in_isr(void)
{
    return isr_depth != 0;
}

unsigned axl_port_workers_start(unsigned n, void (*fn)(void *), void *arg)
{
    (void)n;
    (void)fn;
    (void)arg;
    return 0;
}

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

/* ---- Data-cache maintenance by address range -------------------------------
 *
 * The RPU's Cortex-R5 caches and the APU's A53 caches (without the ACP or
 * a coherent port) are not coherent with what a PL master reads and
 * writes. The mmio port cleans a buffer's lines before an IP reads it and
 * invalidates them before the CPU reads what an IP wrote.
 *
 * - ARMv7-R (Cortex-R5): CP15 DCCMVAC (clean to the point of coherency),
 *   DCIMVAC (invalidate) and DCCIMVAC (both), by MVA, line size from the
 *   Cache Type Register (DminLine, 32 bytes on the R5).
 * - AArch64 (Cortex-A53): DC CVAC, DC IVAC and DC CIVAC, line size from
 *   CTR_EL0 (64 bytes on the A53). At EL0 these need SCTLR_EL1.UCI.
 *
 * Invalidate never drops data beside the range: a partial line at either
 * end is cleaned and invalidated instead, so whatever shares it is written
 * back first. A board whose BSP does this its own way (Xil_DCacheFlushRange)
 * or whose memory is coherent may override both (they are weak).
 */
#if defined(__aarch64__)
static size_t dline(void)
{
    uint64_t ctr;
    __asm__ __volatile__("mrs %0, ctr_el0" : "=r"(ctr));
    return (size_t)4 << ((ctr >> 16) & 0xF);
}
#define DC_CLEAN(a) __asm__ __volatile__("dc cvac, %0" ::"r"(a) : "memory")
#define DC_INVAL(a) __asm__ __volatile__("dc ivac, %0" ::"r"(a) : "memory")
#define DC_CLINV(a) __asm__ __volatile__("dc civac, %0" ::"r"(a) : "memory")
#define DC_SYNC() __asm__ __volatile__("dsb sy" ::: "memory")
#define AXL_PORT_DCACHE 1
#elif defined(__ARM_ARCH) && !defined(__aarch64__) &&                         \
    (defined(__ARM_ARCH_7R__) || defined(__ARM_ARCH_7A__))
static size_t dline(void)
{
    uint32_t ctr;
    __asm__ __volatile__("mrc p15, 0, %0, c0, c0, 1" : "=r"(ctr));
    return (size_t)4 << ((ctr >> 16) & 0xF);
}
#define DC_CLEAN(a)                                                            \
    __asm__ __volatile__("mcr p15, 0, %0, c7, c10, 1" ::"r"(a) : "memory")
#define DC_INVAL(a)                                                            \
    __asm__ __volatile__("mcr p15, 0, %0, c7, c6, 1" ::"r"(a) : "memory")
#define DC_CLINV(a)                                                            \
    __asm__ __volatile__("mcr p15, 0, %0, c7, c14, 1" ::"r"(a) : "memory")
#define DC_SYNC() __asm__ __volatile__("dsb" ::: "memory")
#define AXL_PORT_DCACHE 1
#else
#define AXL_PORT_DCACHE 0 /* a host build of this file: nothing to do */
#endif

__attribute__((weak)) void axl_port_cache_flush(const void *addr, size_t size)
{
#if AXL_PORT_DCACHE
    if (!size)
        return;
    size_t line = dline();
    uintptr_t a = (uintptr_t)addr & ~(uintptr_t)(line - 1);
    uintptr_t end = (uintptr_t)addr + size;
    DC_SYNC(); /* the CPU's stores first */
    for (; a < end; a += line)
        DC_CLEAN(a);
    DC_SYNC();
#else
    (void)addr;
    (void)size;
#endif
}

__attribute__((weak)) void axl_port_cache_invalidate(void *addr, size_t size)
{
#if AXL_PORT_DCACHE
    if (!size)
        return;
    size_t line = dline();
    uintptr_t start = (uintptr_t)addr, end = start + size;
    uintptr_t a = start & ~(uintptr_t)(line - 1);
    DC_SYNC();
    for (; a < end; a += line) {
        if (a < start || a + line > end)
            DC_CLINV(a); /* shares its line with other data */
        else
            DC_INVAL(a);
    }
    DC_SYNC();
#else
    (void)addr;
    (void)size;
#endif
}
