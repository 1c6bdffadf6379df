# boards/kv260-linux: the Kria K26 SOM is a Zynq UltraScale+ (ZU5EV) with
# the same Cortex-A53 APU as the ZCU102: the same toolchain.
include(${CMAKE_CURRENT_LIST_DIR}/../zcu102-linux/toolchain.cmake)
