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
#include "axl/hal.h"

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

/* Cortex-R5 caches on the Zynq UltraScale+ RPU are not coherent with the
 * PL. A board with caches enabled overrides these with its BSP's
 * Xil_DCacheFlushRange / Xil_DCacheInvalidateRange. */
__attribute__((weak)) void axl_port_cache_flush(const void *addr, size_t size)
{
    (void)addr;
    (void)size;
}

__attribute__((weak)) void axl_port_cache_invalidate(void *addr, size_t size)
{
    (void)addr;
    (void)size;
}
