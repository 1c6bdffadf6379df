# boards/host-emu: x86-64 Linux, POSIX threads, the emulated device.
set(AXL_OS_PORT posix)
set(AXL_DEVICE_PORTS emu)
# The emulated device carries the stock design from start-up.
set(AXL_EMU_BUILTIN_XCLBIN ${CMAKE_CURRENT_LIST_DIR}/../../bitstreams/stock.xclbin)
