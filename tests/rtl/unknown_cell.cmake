# A Verilator failure on a cell no file defines (a Vivado core, a
# primitive) says where the docs list what the simulation cannot model:
# verilate.cmake, as axl_add_rtl_kernel runs it, on a top that
# instantiates a macro axl has no model of.
#   cmake -DVERILATOR=<verilator> -DTESTBENCH=<xrt/mmio/rtl> -DWORK=<dir>
#         -P unknown_cell.cmake
file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/top.v
"module top(input wire clk, output wire q);
    xpm_nothing_like_it #(.WIDTH(1)) u (.clk(clk), .q(q));
endmodule
")
file(WRITE ${WORK}/args "${VERILATOR};--lint-only;--no-timing;-y;${TESTBENCH}/xpm;+libext+.v+.sv;--top-module;top;${WORK}/top.v")
execute_process(COMMAND ${CMAKE_COMMAND} -DARGS_FILE=${WORK}/args
                        -DMDIR=${WORK}/m -P ${TESTBENCH}/verilate.cmake
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0)
  message(FATAL_ERROR "Verilator took a cell nothing defines:\n${out}")
endif()
string(REGEX REPLACE "[ \n]+" " " flat "${out}")
foreach(want "Verilator found no Verilog for module xpm_nothing_like_it"
        "docs/rtl-in-ci.md, section \"What it cannot model\"")
  string(FIND "${flat}" "${want}" at)
  if(at LESS 0)
    message(FATAL_ERROR "no '${want}' in:\n${out}")
  endif()
endforeach()
message("ok: the failure points at the docs")
