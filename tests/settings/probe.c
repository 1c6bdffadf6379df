/* Checks the settings check_settings.sh gave: emulated banks of at most
 * 1 MiB (CMake -DAXL_EMU_MAX_BANK_BYTES=1048576 over the board's 256 MiB
 * for the stock design's banks) and 3 queues (the user config header,
 * over the board's 16). */
#include <stdio.h>
#include <string.h>

#include <axl/axl.h>

int main(void)
{
    axl_device dev;
    axl_device_bank bank;
    uint32_t n = 0;
    if (axl_device_get_all(AXL_DEVICE_TYPE_ALL, &dev, 1, &n) || n == 0 ||
        axl_device_get_bank(dev, 0, &bank)) {
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
    printf("bank 0: %llu bytes (want 1048576), queues %u (want 3)\n",
           (unsigned long long)bank.size, (unsigned)queues);
    return bank.size == 1048576 && queues == 3 &&
                   axl_shutdown() == AXL_SUCCESS
               ? 0
               : 1;
}
