/* Checks the settings check_settings.sh gave: 4 emulated banks (CMake
 * -DAXL_EMU_BANKS=4 over the board's 2) and 3 queues (the user config
 * header, over the board's 16). */
#include <stdio.h>
#include <string.h>

#include <axl/axl.h>

int main(void)
{
    axl_device dev;
    uint32_t banks = 0, n = 0;
    if (axl_device_get_all(AXL_DEVICE_TYPE_ALL, &dev, 1, &n) || n == 0 ||
        axl_device_get_info(dev, AXL_DEVICE_INFO_MEMORY_BANKS, &banks,
                            sizeof banks, NULL)) {
        printf("no device: %s\n", axl_last_message());
        return 1;
    }
    axl_pool_stats stats[32];
    uint32_t count = 0, queues = 0;
    if (axl_stats_get(stats, 32, &count))
        return 1;
    for (uint32_t i = 0; i < count && i < 32; i++)
        if (strcmp(stats[i].name, "queue") == 0)
            queues = stats[i].capacity;
    printf("banks %u (want 4), queues %u (want 3)\n", (unsigned)banks,
           (unsigned)queues);
    return banks == 4 && queues == 3 && axl_shutdown() == AXL_SUCCESS ? 0 : 1;
}
