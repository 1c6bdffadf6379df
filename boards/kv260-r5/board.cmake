# boards/kv260-r5: bare-metal Cortex-R5F in the RPU of the Kria KV260's
# K26 SOM (Zynq UltraScale+ XCK26): the same processing system as the
# ZCU102's (RPU, TCMs, OCM, the PS DDR's low 2 GiB, the RPU's GIC), so the
# zcu102-r5 board's settings and kit, with the K26's own linker scripts
# (memory.ld beside this file) and its console: the Kria starter kits'
# serial console is the PS UART1 (0xFF010000; their Linux console is
# ttyPS1, their ATF's ZYNQMP_CONSOLE cadence1), not UART0. What differs is
# the PL: the KV260 base platform's designs (xilinx_kv260_base_202420_1:
# HP0..HP3, HPC0, HPC1; units from M_AXI_HPM0_FPD at 0xA0000000).
include(${CMAKE_CURRENT_LIST_DIR}/../zcu102-r5/board.cmake)
if(AXL_R5_CODE STREQUAL "ddr")
  set(AXL_BOARD_LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/kv260-r5-ddr.ld)
else()
  set(AXL_BOARD_LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/kv260-r5.ld)
endif()
set(AXL_KIT_UART 0xFF010000u)
