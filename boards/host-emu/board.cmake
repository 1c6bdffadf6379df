# boards/host-emu: x86-64 Linux, POSIX threads, the emulated device.
set(AXL_OS_PORT posix)
set(AXL_DEVICE_PORTS emu)
