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
# Where the firmware's code goes: tcm (the 64 KiB ATCM, the default) or ddr.
set(AXL_R5_CODE tcm CACHE STRING "R5 firmware code in: tcm or ddr")
set_property(CACHE AXL_R5_CODE PROPERTY STRINGS tcm ddr)
if(AXL_R5_CODE STREQUAL "ddr")
  set(AXL_BOARD_LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/zcu102-r5-ddr.ld)
else()
  set(AXL_BOARD_LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/zcu102-r5.ld)
endif()
