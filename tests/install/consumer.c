/* A program built against an installed axl, through find_package or
 * pkg-config: proves the package files are right. */
#include <stdio.h>

#include <axl/axl.h>

int main(void)
{
    uint32_t n = 0;
    if (axl_device_get_all(AXL_DEVICE_TYPE_ALL, NULL, 0, &n) != AXL_SUCCESS)
        return 1;
    printf("devices: %u\n", (unsigned)n);
    return n ? axl_shutdown() : 1;
}
