# boards/zcu102-r5: bare-metal Cortex-R5F in the ZCU102's RPU, the bare-metal
# port and the emulated device. The memory map is memory.ld beside this
# file; tests/firmware links a test firmware with the linker script below.
set(AXL_OS_PORT baremetal)
# Built for size unless asked otherwise: unoptimised code does not fit the
# ATCM.
if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE MinSizeRel CACHE STRING "Build type" FORCE)
endif()
set(AXL_DEVICE_PORTS emu)
# No on-demand reprogramming (axl_board.h), given to every file compiled
# (and to firmware projects, with the package's settings) so that the
# port descriptors of include/axl/hal.h lose region_load too.
if(NOT DEFINED AXL_FEATURE_DESIGN_SWAP)
  set(AXL_FEATURE_DESIGN_SWAP 0)
endif()
# Where the firmware's code goes: tcm (the 64 KiB ATCM, the default) or ddr.
set(AXL_R5_CODE tcm CACHE STRING "R5 firmware code in: tcm or ddr")
set_property(CACHE AXL_R5_CODE PROPERTY STRINGS tcm ddr)
if(AXL_R5_CODE STREQUAL "ddr")
  set(AXL_BOARD_LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/zcu102-r5-ddr.ld)
else()
  set(AXL_BOARD_LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/zcu102-r5.ld)
endif()

# The board kit (kit/, docs/firmware.md), installed with the package: the
# ARMv7-R start-up code, the Zynq UltraScale+ R5's memory map (MPU
# regions) and board (the RPU's GIC, its cycle counter as the clock, the
# design's banks in the DDR the linker script reserves), the console on
# the ZCU102's UART0 (the USB-UART's first port, as AMD's R5 examples
# use it), the RPU's clock as the PS configuration of the ZCU102 base
# platform sets it, and the toolchain file for firmware projects.
set(AXL_KIT_CPU armv7r)
set(AXL_KIT_MEMORY_MAP ${PROJECT_SOURCE_DIR}/kit/zynqmp_map.c)
set(AXL_KIT_BOARD ${PROJECT_SOURCE_DIR}/kit/zynqmp.c
    ${PROJECT_SOURCE_DIR}/kit/zynqmp_irq.c ${PROJECT_SOURCE_DIR}/kit/zynqmp_clock.c)
set(AXL_KIT_UART 0xFF000000u)
set(AXL_KIT_CPU_HZ 500000000u)
set(AXL_KIT_TOOLCHAIN ${PROJECT_SOURCE_DIR}/kit/toolchain-cortex-r5.cmake)
# Each bank of the C-model simulator a QEMU build of a firmware runs on
# (axl_add_qemu_test): in DDR, which QEMU's machine gives 64 MiB of.
set(AXL_KIT_SIM_BANK_SIZE 262144)
