# boards/zcu102-r5: bare-metal Cortex-R5F (the Zynq UltraScale+ RPU), with
# Debian's gcc-arm-none-eabi and libnewlib-arm-none-eabi: the kit's
# toolchain for the Cortex-R5F (kit/toolchain-cortex-r5.cmake says which
# flags and why), which the board's package installs for firmware
# projects (share/axl/kit/toolchain.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/../../kit/toolchain-cortex-r5.cmake)
