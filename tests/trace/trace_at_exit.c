/*
 * A program that exits without axl_shutdown (nor releasing anything):
 * with AXL_TRACE set, the posix port still writes the trace, at exit.
 * check_exit_trace.py runs it and parses the file.
 */
#include <stdio.h>

#include "axl/axl.h"

static axl_status nothing(void *user)
{
    (void)user;
    return AXL_SUCCESS;
}

int main(void)
{
    axl_queue q;
    if (axl_queue_create_selected(axl_default_selector, NULL,
                                  AXL_QUEUE_IN_ORDER, NULL, &q) != AXL_SUCCESS)
        return 1;
    /* A build with the trace ring or host tasks switched off
     * (core/axl_config.h) has nothing to show: exit 77, which the check
     * reports as skipped once the calls answered as switched off. */
    if (axl_trace_enable(true) == AXL_ERR_FEATURE_NOT_SUPPORTED) {
        printf("switched off: AXL_TRACE_EVENTS 0\n");
        return 77;
    }
    for (int i = 0; i < 3; i++) {
        axl_status st = axl_queue_host_task(q, nothing, NULL, NULL, 0, NULL);
        if (st == AXL_ERR_FEATURE_NOT_SUPPORTED) {
            printf("switched off: AXL_FEATURE_HOST_TASKS 0\n");
            return 77;
        }
        if (st != AXL_SUCCESS)
            return 1;
    }
    if (axl_queue_wait(q) != AXL_SUCCESS)
        return 1;
    printf("exiting without axl_shutdown\n");
    return 0;
}
