/* A firmware's host build: the kit's board (the C-model simulator with
 * the design the firmware was built with), then the runtime on it. */
#include "axl/axl.h"
#include "axl/firmware.h"

int main(void)
{
    axl_mmio_bank_region r;
    axl_device devs[2];
    uint32_t n = 0;
    if (axl_fw_board(NULL, 0) != AXL_SUCCESS ||
        axl_fw_bank_region(0, &r) != AXL_SUCCESS || !r.host ||
        axl_device_get_all(AXL_DEVICE_TYPE_ACCELERATOR, devs, 2, &n) !=
            AXL_SUCCESS ||
        n != 1 || axl_shutdown() != AXL_SUCCESS) {
        axl_fw_printf("fw: FAIL: %s\n", axl_last_message());
        return 1;
    }
    axl_fw_printf("fw: PASS (bank 0: %lu bytes)\n", (unsigned long)r.size);
    return 0;
}
