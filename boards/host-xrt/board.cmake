# boards/host-xrt: x86-64 Linux with an Alveo card (or none): POSIX
# threads, the emulated device, and the XRT port when XRT is found
# (AXL_WITH_XRT=AUTO|ON|OFF). Without a card, CI runs the XRT port on XRT's
# noop shim (tests/xrt).
set(AXL_OS_PORT posix)
set(AXL_DEVICE_PORTS emu)
# The emulated device carries the stock design from start-up, as on
# host-emu, so the same tests and demo run beside the cards.
set(AXL_EMU_BUILTIN_XCLBIN ${CMAKE_CURRENT_LIST_DIR}/../../bitstreams/stock.xclbin)
include(${PROJECT_SOURCE_DIR}/xrt/native/xrt.cmake)
if(AXL_XRT_FOUND)
  list(APPEND AXL_DEVICE_PORTS native)
else()
  message(STATUS "axl: board host-xrt: XRT not found (AXL_WITH_XRT="
                 "${AXL_WITH_XRT}); building with the emulated device only")
endif()
