/*
 * message.c - the calling thread's message (axl_fail, axl_last_message),
 * apart from the runtime so that a firmware that only replays plans
 * (axl/plan.h) links it with the formatter and the status names alone.
 */
#include <stdarg.h>

#include "axl/hal.h"
#include "axl/runtime.h"

axl_status axl_fail(axl_status status, const char *fmt, ...)
{
    char *buf = axl_port_message_buffer();
    va_list ap;
    va_start(ap, fmt);
    axl_vformat(buf, AXL_MESSAGE_MAX, fmt, ap);
    va_end(ap);
    return status;
}

const char *axl_last_message(void)
{
    return axl_port_message_buffer();
}
