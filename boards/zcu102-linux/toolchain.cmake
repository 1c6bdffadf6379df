# boards/zcu102-linux: aarch64 Linux on the Zynq UltraScale+ APU (Cortex-A53),
# with Debian's cross compiler (gcc-aarch64-linux-gnu).
#
# Libraries for the target come from Debian multiarch (for the tests,
# libcmocka-dev:arm64 after `dpkg --add-architecture arm64`): they live in
# /usr/lib/aarch64-linux-gnu, which the cross compiler searches already.
# Test programs run through qemu-aarch64 (qemu-user), so ctest works as on
# the host.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_C_FLAGS_INIT "-mcpu=cortex-a53")

# find_library and pkg-config must see arm64 libraries only: the host's
# x86-64 ones (libxrt, libcmocka, an x86-64 XRT in /opt/xilinx/xrt) would
# get no further than the linker.
set(CMAKE_IGNORE_PATH /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu
    /opt/xilinx/xrt/lib)
set(ENV{PKG_CONFIG_LIBDIR}
    /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")

# qemu-aarch64 runs the programs with Debian's arm64 libc (libc6:arm64,
# which libcmocka-dev:arm64 brings): its loader is /lib/ld-linux-aarch64.so.1,
# so no -L is needed. Not the cross toolchain's copy under
# /usr/aarch64-linux-gnu: with `-L /usr/aarch64-linux-gnu`, Debian 12's
# qemu-aarch64 (7.2) and libc6-arm64-cross (2.36-8) hang in the first
# pthread_create, spinning with no system call.
find_program(AXL_QEMU_AARCH64 qemu-aarch64)
if(AXL_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${AXL_QEMU_AARCH64})
endif()
