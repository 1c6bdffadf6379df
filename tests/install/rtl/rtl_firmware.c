/* A firmware's host build on the kernels' RTL (axl_add_firmware ... MODEL
 * vadd_rtl): the board kit's board is the RTL's, carrying the design the
 * firmware was built with, and the plain API runs vadd on it. */
#include <stdio.h>

#include <axl/axl.h>
#include <axl/firmware.h>

#include "../vadd_check.h"

int main(void)
{
    axl_queue q;
    axl_device dev;
    axl_kernel_id id;
    uint32_t units = 0;
    if (axl_fw_board(NULL, 0) ||
        axl_queue_create_selected(axl_default_selector, NULL, 0, NULL, &q) ||
        axl_queue_get_device(q, &dev) ||
        axl_get_built_in_kernel_id(dev, "vadd", &id)) {
        printf("rtl firmware: %s\n", axl_last_message());
        return 1;
    }
    if (vadd_check(q, id, &units) || axl_queue_release(q) || axl_shutdown())
        return 1;
    printf("rtl firmware: vadd on %u units of RTL, sums right\n",
           (unsigned)units);
    return units == 2 ? 0 : 1;
}
