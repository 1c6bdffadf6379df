/*
 * kit/zynqmp_map.c - the memory map of a Cortex-R5F of the Zynq
 * UltraScale+ RPU (ZU9EG on the ZCU102, the K26 SOM's XCK26 on the
 * KV260: the same PS, whatever the PL holds), as its MPU regions (kit.h).
 * The start-up code sets them before main() (mpu_armv7r.c).
 *
 *   0x00000000  2 GiB  PS DDR, low window; the ATCM (0x00000000) and BTCM
 *                      (0x00020000) lie over its start for this core:
 *                      normal, write-back cached (a TCM access is never
 *                      cached), executable
 *   0x80000000  1 GiB  the PL: M_AXI_HPM0_LPD (0x80000000), M_AXI_HPM0/1_FPD
 *                      (0xA0000000, 0xB0000000), where the kernels'
 *                      AXI4-Lite control registers are: device memory
 *   0xC0000000  512 MiB  QSPI linear window: device memory
 *   0xE0000000  512 MiB  PCIe low, CoreSight, the RPU's GIC (0xF9000000),
 *                      the FPD and LPD peripherals (0xFD000000,
 *                      0xFF000000: the UARTs, timers): device memory
 *   0xFFFC0000  256 KiB  OCM, shared with the APU (and its ATF): normal,
 *                      not cached, shared, executable
 *
 * Nothing is executable but memory; the PL and the peripherals are never
 * cached, and device accesses are neither merged nor reordered, so a
 * kernel's ap_start follows its argument words.
 */
#include "kit.h"

const axl__fw_region axl__fw_regions[] = {
    {0x00000000u, 31u, AXL_FW_NORMAL_WB},
    {0x80000000u, 30u, AXL_FW_DEVICE},
    {0xC0000000u, 29u, AXL_FW_DEVICE},
    {0xE0000000u, 29u, AXL_FW_DEVICE},
    {0xFFFC0000u, 18u, AXL_FW_NORMAL_SHARED},
};
const uint32_t axl__fw_region_count =
    sizeof axl__fw_regions / sizeof axl__fw_regions[0];
