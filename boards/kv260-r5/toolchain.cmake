# boards/kv260-r5: bare-metal Cortex-R5F (the K26 SOM's RPU): the kit's
# toolchain for the Cortex-R5F, as for zcu102-r5.
include(${CMAKE_CURRENT_LIST_DIR}/../../kit/toolchain-cortex-r5.cmake)
