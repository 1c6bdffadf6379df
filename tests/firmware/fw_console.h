/*
 * fw_console.h - what axl's test firmwares share beside the kit's console
 * (axl/firmware.h: axl_fw_puts, axl_fw_printf, over semihosting under
 * QEMU): checks that count failures and say where they were.
 */
#ifndef FW_CONSOLE_H
#define FW_CONSOLE_H

#include <stdbool.h>

#include "axl/axl.h"
#include "axl/firmware.h"

/** A failed check is counted in fw_failures and reported with its line,
 *  the call and axl_last_message(). */
extern unsigned fw_failures;
bool fw_check_ok(axl_status st, const char *call, int line);
bool fw_check(bool cond, const char *what, int line);
#define OK(call) fw_check_ok((call), #call, __LINE__)
#define EXPECT(cond) fw_check((cond), #cond, __LINE__)

#endif /* FW_CONSOLE_H */
