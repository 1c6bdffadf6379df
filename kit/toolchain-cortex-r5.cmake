# kit/toolchain-cortex-r5.cmake: bare-metal Cortex-R5F (the Zynq
# UltraScale+ RPU: boards zcu102-r5 and kv260-r5) with Debian's
# gcc-arm-none-eabi and libnewlib-arm-none-eabi. The CPU flags are
# the ones AMD's Vitis BSP uses for the RPU, plus -mthumb: Thumb-2 code is
# about 30% smaller than ARM code for the same -Os build (see the footprint
# table, docs/footprint.md) and it is what Debian's newlib multilib for this CPU
# (thumb/v7+fp/hard) is built as. Everything is freestanding: newlib
# supplies memcpy, memset and the like, nothing else (tests/firmware checks
# the link map for the allocator).
#
# The flags initialise CMAKE_C_FLAGS: add to them with the CFLAGS
# environment variable at the first configure (CMake puts it in front, as
# scripts/matrix does for its minimal-capacity variant); a -DCMAKE_C_FLAGS
# replaces them. -DAXL_R5_ISA=arm builds ARM-state code instead of Thumb-2.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
# No OS to link a test program against while CMake checks the compiler.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

if(NOT AXL_R5_ISA)
  set(AXL_R5_ISA thumb)
endif()
set(AXL_CPU_FLAGS
    "-mcpu=cortex-r5 -mfloat-abi=hard -mfpu=vfpv3-d16 -m${AXL_R5_ISA}")
set(CMAKE_C_FLAGS_INIT
    "${AXL_CPU_FLAGS} -ffreestanding -ffunction-sections -fdata-sections")
set(CMAKE_ASM_FLAGS_INIT "${AXL_CPU_FLAGS}")
# nano.specs: newlib-nano's small string functions. No startup files: the
# firmware brings its own vectors and reset code.
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "${AXL_CPU_FLAGS} --specs=nano.specs -nostartfiles -Wl,--gc-sections")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

