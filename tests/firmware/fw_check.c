/*
 * fw_check.c - the test firmwares' checks (fw_console.h).
 */
#include "fw_console.h"

unsigned fw_failures;

bool fw_check_ok(axl_status st, const char *call, int line)
{
    if (st == AXL_SUCCESS)
        return true;
    fw_failures++;
    axl_fw_printf("fw: FAIL line %d: %s: %s\n    %s\n", line, call,
                  axl_status_name(st), axl_last_message());
    return false;
}

bool fw_check(bool cond, const char *what, int line)
{
    if (!cond) {
        fw_failures++;
        axl_fw_printf("fw: FAIL line %d: %s\n", line, what);
    }
    return cond;
}
