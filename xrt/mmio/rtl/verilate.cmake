# verilate.cmake - runs Verilator for axl_add_rtl_kernel at build time:
#   cmake -DARGS_FILE=<file> -DMDIR=<folder> -P verilate.cmake
# ARGS_FILE holds the command (a CMake list, written at configure time, so
# that a change of options reruns it). Its output goes to <folder>.log and
# is shown only when it fails.
cmake_minimum_required(VERSION 3.25)
file(READ "${ARGS_FILE}" cmd)
file(REMOVE_RECURSE "${MDIR}")
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE out)
file(WRITE "${MDIR}.log" "${out}")
if(NOT rc EQUAL 0)
  message("${out}")
  # A cell no file defines: a Vivado core or primitive the simulation has
  # no model of. Say where the list of what it models is.
  if(out MATCHES "Cannot find file containing module: '([^']*)'")
    message("Verilator found no Verilog for module ${CMAKE_MATCH_1}. axl "
      "ships models of the XPM FIFOs, memories and CDC macros "
      "(xrt/mmio/rtl/xpm); for anything else (Vivado IP such as "
      "floating_point, device primitives) see docs/rtl-in-ci.md, section "
      "\"What it cannot model\": give Verilator a behavioural model of it "
      "in VERILOG.")
  endif()
  message(FATAL_ERROR "Verilator failed (${rc}); its output is above and "
    "in ${MDIR}.log")
endif()
