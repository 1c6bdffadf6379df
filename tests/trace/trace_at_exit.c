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
    for (int i = 0; i < 3; i++)
        if (axl_queue_host_task(q, nothing, NULL, NULL, 0, NULL) != AXL_SUCCESS)
            return 1;
    if (axl_queue_wait(q) != AXL_SUCCESS)
        return 1;
    printf("exiting without axl_shutdown\n");
    return 0;
}
