/*
 * fw_console.h - the test firmware's only output: a line at a time over
 * Arm semihosting (QEMU with -semihosting, or a debugger), or over the
 * ZynqMP's UART0 when built with FW_CONSOLE_UART. No stdio: printf would
 * bring newlib's allocator with it, and the link check forbids that.
 */
#ifndef FW_CONSOLE_H
#define FW_CONSOLE_H

/** Writes a NUL-terminated string as it is. */
void fw_puts(const char *s);

/** Formats with axl_format (the runtime's own bounded formatter) and
 *  writes the result; longer lines are cut. */
void fw_printf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/** Ends the run: semihosting SYS_EXIT (QEMU exits 0 when passed, 1
 *  otherwise); over the UART, the last line says it and the core sleeps. */
_Noreturn void fw_exit(int status);

/** Checks the firmwares share: a failed one is counted in fw_failures and
 *  reported with its line, the call and axl_last_message(). */
#include "axl/axl.h"
#include <stdbool.h>
extern unsigned fw_failures;
bool fw_check_ok(axl_status st, const char *call, int line);
bool fw_check(bool cond, const char *what, int line);
#define OK(call) fw_check_ok((call), #call, __LINE__)
#define EXPECT(cond) fw_check((cond), #cond, __LINE__)

/** Called by the startup code for an unexpected exception. */
_Noreturn void fw_fault(unsigned vector, unsigned long address);

#endif /* FW_CONSOLE_H */
