/*
 * kit/console.c - the console of a firmware built with the board kit
 * (axl/firmware.h), in one of three builds:
 *
 *   AXL_FW_CONSOLE_UART=<base>  the board's UART (a Cadence UART, as the
 *                               Zynq UltraScale+ PS has two of), as the
 *                               first-stage boot loader left it: only the
 *                               transmitter is touched, and enabled in
 *                               case nothing enabled it before; 115200 8N1
 *                               or whatever the boot loader set;
 *   AXL_FW_CONSOLE_HOSTED=1     standard output and exit() (the host
 *                               build of a firmware);
 *   neither                     Arm semihosting (QEMU with -semihosting,
 *                               or a debugger that serves it).
 *
 * No stdio on the board: printf would bring newlib's allocator with it,
 * and axl_add_firmware's link check forbids that.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "axl/hal.h"
#include "kit.h"

#if defined(AXL_FW_CONSOLE_HOSTED) && !defined(AXL_FW_CONSOLE_UART)
#include <stdio.h>
#include <stdlib.h>
#endif

#if defined(AXL_FW_CONSOLE_UART)

#define UART_REG(off)                                                          \
    (*(volatile uint32_t *)(uintptr_t)((AXL_FW_CONSOLE_UART) + (off)))
#define UART_CR UART_REG(0x00u)
#define UART_SR UART_REG(0x2Cu)
#define UART_FIFO UART_REG(0x30u)
#define UART_CR_TXEN (1u << 4)
#define UART_CR_TXDIS (1u << 5)
#define UART_SR_TXFULL (1u << 4)
#define UART_SR_TXEMPTY (1u << 3)

static void put_char(char c)
{
    static int ready;
    if (!ready) {
        UART_CR = (UART_CR & ~UART_CR_TXDIS) | UART_CR_TXEN;
        ready = 1;
    }
    while (UART_SR & UART_SR_TXFULL) {
    }
    UART_FIFO = (uint8_t)c;
}

void axl_fw_puts(const char *s)
{
    for (; *s; s++) {
        if (*s == '\n')
            put_char('\r');
        put_char(*s);
    }
}

_Noreturn void axl_fw_exit(int status)
{
    axl_fw_printf("fw: exit %d\n", status);
    while (!(UART_SR & UART_SR_TXEMPTY)) {
    }
    for (;;)
        __asm__ __volatile__("wfi");
}

#elif defined(AXL_FW_CONSOLE_HOSTED)

void axl_fw_puts(const char *s)
{
    fputs(s, stdout);
    fflush(stdout);
}

_Noreturn void axl_fw_exit(int status)
{
    exit(status);
}

#else /* semihosting */

enum {
    SYS_WRITE0 = 0x04,
    SYS_EXIT = 0x18,
    ADP_STOPPED_APPLICATION_EXIT = 0x20026,
    ADP_STOPPED_RUNTIME_ERROR_UNKNOWN = 0x20023
};

static uintptr_t semihost(uintptr_t op, uintptr_t arg)
{
    register uintptr_t r0 __asm__("r0") = op;
    register uintptr_t r1 __asm__("r1") = arg;
#if defined(__thumb__)
    __asm__ __volatile__("svc 0xab" : "+r"(r0) : "r"(r1) : "memory");
#else
    __asm__ __volatile__("svc 0x123456" : "+r"(r0) : "r"(r1) : "memory");
#endif
    return r0;
}

void axl_fw_puts(const char *s)
{
    semihost(SYS_WRITE0, (uintptr_t)s);
}

_Noreturn void axl_fw_exit(int status)
{
    /* AArch32 SYS_EXIT takes a reason, not a code: QEMU exits 0 for
     * "application exit" and 1 for anything else. */
    semihost(SYS_EXIT, status == 0 ? ADP_STOPPED_APPLICATION_EXIT
                                   : ADP_STOPPED_RUNTIME_ERROR_UNKNOWN);
    for (;;) {
    }
}

/* No interrupt source under QEMU's bare machine: a wait polls the units
 * instead of sleeping in WFI (the OS port's default, which a board with
 * wired interrupts keeps). */
void axl_board_wait_for_interrupt(void)
{
}

#endif

void axl_fw_printf(const char *fmt, ...)
{
    static char line[256];
    va_list ap;
    va_start(ap, fmt);
    axl_vformat(line, sizeof line, fmt, ap);
    va_end(ap);
    axl_fw_puts(line);
}

#if !defined(AXL_FW_CONSOLE_HOSTED)
/* The fault status and address registers say what an abort was: for a
 * data abort, the address the access used (an MPU region missing or
 * without the access is status 0x00D, a background fault 0x000). */
_Noreturn void axl__fw_fault(unsigned vector, unsigned long address)
{
    static const char *const names[8] = {"reset", "undefined instruction",
                                         "svc", "prefetch abort",
                                         "data abort", "reserved", "irq",
                                         "fiq"};
    unsigned long status = 0, at = 0;
#if defined(__ARM_ARCH_7R__)
    if (vector == 4u) {
        __asm__ __volatile__("mrc p15, 0, %0, c5, c0, 0" : "=r"(status));
        __asm__ __volatile__("mrc p15, 0, %0, c6, c0, 0" : "=r"(at));
    } else if (vector == 3u) {
        __asm__ __volatile__("mrc p15, 0, %0, c5, c0, 1" : "=r"(status));
        __asm__ __volatile__("mrc p15, 0, %0, c6, c0, 2" : "=r"(at));
    }
#endif
    axl_fw_printf("fw: FAIL: unexpected %s exception near 0x%lx",
                  names[vector & 7u], address);
    if (vector == 3u || vector == 4u)
        axl_fw_printf(" (fault status 0x%03lx, address 0x%lx)", status, at);
    axl_fw_puts("\n");
    axl_fw_exit(1);
}
#endif
