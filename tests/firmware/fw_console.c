/*
 * fw_console.c - output and exit for the test firmware (see fw_console.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "axl/hal.h"
#include "fw_console.h"

#if defined(FW_CONSOLE_UART)

/* ZynqMP UART0 (Cadence UART) as the FSBL leaves it: only the transmitter
 * is touched, and enabled in case nothing enabled it before. */
#define UART0_BASE 0xFF000000u
#define UART_CR (*(volatile uint32_t *)(UART0_BASE + 0x00u))
#define UART_SR (*(volatile uint32_t *)(UART0_BASE + 0x2Cu))
#define UART_FIFO (*(volatile uint32_t *)(UART0_BASE + 0x30u))
#define UART_CR_TXEN (1u << 4)
#define UART_CR_TXDIS (1u << 5)
#define UART_SR_TXFULL (1u << 4)

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

void fw_puts(const char *s)
{
    for (; *s; s++) {
        if (*s == '\n')
            put_char('\r');
        put_char(*s);
    }
}

_Noreturn void fw_exit(int status)
{
    fw_puts(status == 0 ? "fw: exit 0\n" : "fw: exit 1\n");
    for (;;)
        __asm__ __volatile__("wfi");
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

void fw_puts(const char *s)
{
    semihost(SYS_WRITE0, (uintptr_t)s);
}

_Noreturn void fw_exit(int status)
{
    /* AArch32 SYS_EXIT takes a reason, not a code: QEMU exits 0 for
     * "application exit" and 1 for anything else. */
    semihost(SYS_EXIT, status == 0 ? ADP_STOPPED_APPLICATION_EXIT
                                   : ADP_STOPPED_RUNTIME_ERROR_UNKNOWN);
    for (;;) {
    }
}

#endif

void fw_printf(const char *fmt, ...)
{
    static char line[256];
    va_list ap;
    va_start(ap, fmt);
    axl_vformat(line, sizeof line, fmt, ap);
    va_end(ap);
    fw_puts(line);
}

_Noreturn void fw_fault(unsigned vector, unsigned long address)
{
    static const char *const names[8] = {"reset", "undefined instruction",
                                         "svc", "prefetch abort",
                                         "data abort", "reserved", "irq",
                                         "fiq"};
    fw_printf("fw: FAIL: unexpected %s exception near 0x%lx\n",
              names[vector & 7u], address);
    fw_exit(1);
}

unsigned fw_failures;

bool fw_check_ok(axl_status st, const char *call, int line)
{
    if (st == AXL_SUCCESS)
        return true;
    fw_failures++;
    fw_printf("fw: FAIL line %d: %s: %s\n    %s\n", line, call,
              axl_status_name(st), axl_last_message());
    return false;
}

bool fw_check(bool cond, const char *what, int line)
{
    if (!cond) {
        fw_failures++;
        fw_printf("fw: FAIL line %d: %s\n", line, what);
    }
    return cond;
}
