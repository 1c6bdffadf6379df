# boards/zcu102-linux: aarch64 Linux (PetaLinux or Ubuntu) on the ZCU102's
# Zynq UltraScale+ ZU9EG (Cortex-A53 APU): POSIX threads, the emulated
# device, and the XRT port for the edge driver (zocl) when XRT is found for
# the target (AXL_WITH_XRT=AUTO|ON|OFF). A cross build finds no aarch64
# libxrt unless it is given a board sysroot that has one; it then builds
# with the emulated device alone.
set(AXL_OS_PORT posix)
set(AXL_DEVICE_PORTS emu)
# The emulated device carries the stock design from start-up, as on
# host-emu, so the test suite runs unchanged.
set(AXL_EMU_BUILTIN_XCLBIN ${CMAKE_CURRENT_LIST_DIR}/../../bitstreams/stock.xclbin)
include(${PROJECT_SOURCE_DIR}/xrt/native/xrt.cmake)
if(AXL_XRT_FOUND)
  list(APPEND AXL_DEVICE_PORTS native)
else()
  message(STATUS "axl: board ${AXL_BOARD}: XRT not found for "
                 "${CMAKE_SYSTEM_PROCESSOR} (AXL_WITH_XRT=${AXL_WITH_XRT}); "
                 "building with the emulated device only")
endif()
