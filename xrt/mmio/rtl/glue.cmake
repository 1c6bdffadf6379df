# glue.cmake - writes the glue between one Verilated kernel and the RTL
# testbench (axl_rtl_glue.hpp), at build time, after Verilator:
#
#   cmake -DXML=<kernel.xml> -DHEADER=<Verilated V<name>.h> -DCLASS=V<name>
#         -DKERNEL=<name> -DTOP=<module> -DSYMBOL=<c name> -DOUT=<file.cpp>
#         [-DSW_RESET=1] -P glue.cmake
#
# SW_RESET: the kernel was built with ap_sw_reset (bit 8 of its control
# word), which nothing in the RTL's ports shows; axl_add_rtl_kernel's
# keyword of that name says so, and the RTL board tells the port.
#
# The bundles and the control port come from the kernel XML: its slave port
# (S_AXI_CONTROL) and each master port (M_AXI_<BUNDLE>, with its
# dataWidth). Their signals are found in the Verilated header by name,
# without regard to case (the XML upper-cases bundle names; Vitis HLS keeps
# the pragma's case in the RTL), as <port>_<AXI signal>. What is found is
# what the glue binds, with the width Verilator gives it; a signal the
# testbench needs and the RTL lacks stops the build, naming both. The AXI
# signal names themselves are the AXI4 specification's; ap_clk, ap_rst_n
# and interrupt are the names Vitis requires of a kernel.
cmake_minimum_required(VERSION 3.25)
foreach(v XML HEADER CLASS KERNEL TOP SYMBOL OUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "glue.cmake: -D${v}= is required")
  endif()
endforeach()

# ---- The Verilated top's ports: name, width -----------------------------------
file(STRINGS "${HEADER}" decls REGEX "VL_(IN|OUT)[0-9W]*\\(&")
set(all_ports "")
foreach(d IN LISTS decls)
  if(NOT d MATCHES "VL_(IN|OUT)[0-9W]*\\(&([A-Za-z0-9_]+),([0-9]+),([0-9]+)")
    continue()
  endif()
  set(member "${CMAKE_MATCH_2}")
  math(EXPR bits "${CMAKE_MATCH_3} - ${CMAKE_MATCH_4} + 1")
  # Verilator renames ports that are C++ words (interrupt -> __SYM__interrupt).
  string(REGEX REPLACE "^__SYM__" "" name "${member}")
  string(TOLOWER "${name}" key)
  set(port_${key} "${member}")
  set(bits_${key} "${bits}")
  list(APPEND all_ports "${name}")
endforeach()
if(NOT all_ports)
  message(FATAL_ERROR "glue.cmake: no ports in ${HEADER}")
endif()

# glue_bind(<out var> <field> <port name> REQUIRED|OPTIONAL <what>)
set(missing "")
function(glue_bind var field port need)
  string(TOLOWER "${port}" key)
  if(DEFINED port_${key})
    set(${var} "${${var}}        ${field} = axl_rtl::sig(m.${port_${key}}, ${bits_${key}});\n"
        PARENT_SCOPE)
  elseif(need STREQUAL "REQUIRED")
    set(missing "${missing} ${port}" PARENT_SCOPE)
  endif()
endfunction()

# ---- The kernel XML --------------------------------------------------------------------
file(READ "${XML}" xml)
string(REGEX MATCHALL "<kernel [^>]*>" kernels "${xml}")
set(found 0)
foreach(k IN LISTS kernels)
  if(k MATCHES "[ \t\r\n]name=\"([^\"]*)\"" AND CMAKE_MATCH_1 STREQUAL KERNEL)
    set(found 1)
  endif()
endforeach()
if(NOT found)
  message(FATAL_ERROR "glue.cmake: ${XML} has no <kernel name=\"${KERNEL}\">")
endif()
string(REGEX MATCHALL "<port [^>]*>" ports "${xml}")
string(REGEX MATCHALL "<arg [^>]*>" xml_args "${xml}")
set(control "ap_ctrl_hs")
foreach(k IN LISTS kernels)
  if(k MATCHES "[ \t\r\n]name=\"${KERNEL}\"" AND
     k MATCHES "hwControlProtocol=\"([^\"]*)\"")
    set(control "${CMAKE_MATCH_1}")
  endif()
endforeach()

set(body "")
glue_bind(body "clk" "ap_clk" REQUIRED)
glue_bind(body "rst_n" "ap_rst_n" OPTIONAL)
glue_bind(body "interrupt" "interrupt" OPTIONAL)
set(has_interrupt false)
if(DEFINED port_interrupt)
  set(has_interrupt true)
endif()
set(sw_reset false)
if(SW_RESET)
  set(sw_reset true)
endif()

set(lite_signals AWVALID AWREADY AWADDR WVALID WREADY WDATA WSTRB BVALID
    BREADY ARVALID ARREADY ARADDR RVALID RREADY RDATA)
set(mm_signals AWVALID AWREADY AWADDR AWLEN AWSIZE WVALID WREADY WDATA WSTRB
    WLAST BVALID BREADY ARVALID ARREADY ARADDR ARLEN ARSIZE RVALID RREADY
    RDATA RLAST)
set(mm_optional AWID AWBURST BRESP BID ARID ARBURST RRESP RID)

set(axis_signals TDATA TVALID TREADY)
set(axis_optional TLAST TKEEP TSTRB)

set(nbundles 0)
set(nstreams 0)
set(have_slave 0)
foreach(p IN LISTS ports)
  if(NOT p MATCHES "[ \t\r\n]name=\"([^\"]*)\"")
    continue()
  endif()
  set(pname "${CMAKE_MATCH_1}")
  set(mode "")
  if(p MATCHES "[ \t\r\n]mode=\"([^\"]*)\"")
    set(mode "${CMAKE_MATCH_1}")
  endif()
  set(width "")
  if(p MATCHES "[ \t\r\n]dataWidth=\"([0-9]+)\"")
    set(width "${CMAKE_MATCH_1}")
  endif()
  if(mode STREQUAL "slave")
    if(have_slave)
      message(FATAL_ERROR "glue.cmake: ${XML}: kernel ${KERNEL} has a second "
        "slave port (${pname}); the testbench drives one control port")
    endif()
    set(have_slave 1)
    foreach(s IN LISTS lite_signals)
      string(TOLOWER "${s}" f)
      glue_bind(body "ctrl.${f}" "${pname}_${s}" REQUIRED)
    endforeach()
    foreach(s BRESP RRESP)
      string(TOLOWER "${s}" f)
      glue_bind(body "ctrl.${f}" "${pname}_${s}" OPTIONAL)
    endforeach()
  elseif(mode STREQUAL "master")
    if(NOT width)
      message(FATAL_ERROR "glue.cmake: ${XML}: master port ${pname} has no "
        "dataWidth")
    endif()
    string(TOLOWER "${pname}" lname)
    string(TOLOWER "${pname}_RDATA" rkey)
    if(DEFINED bits_${rkey} AND NOT bits_${rkey} EQUAL width)
      message(FATAL_ERROR "glue.cmake: ${XML} says ${pname} is ${width} bits "
        "wide, the RTL's ${port_${rkey}} is ${bits_${rkey}}")
    endif()
    set(i ${nbundles})
    string(APPEND body "        mm[${i}].name = \"${lname}\";\n"
                       "        mm[${i}].data_bits = ${width};\n")
    foreach(s IN LISTS mm_signals)
      string(TOLOWER "${s}" f)
      glue_bind(body "mm[${i}].${f}" "${pname}_${s}" REQUIRED)
    endforeach()
    foreach(s IN LISTS mm_optional)
      string(TOLOWER "${s}" f)
      glue_bind(body "mm[${i}].${f}" "${pname}_${s}" OPTIONAL)
    endforeach()
    math(EXPR nbundles "${nbundles} + 1")
  endif()
  if(mode STREQUAL "read_only" OR mode STREQUAL "write_only")
    # An AXI4-Stream port: <port>_TDATA, _TVALID, _TREADY (and _TLAST,
    # _TKEEP, _TSTRB when the RTL has them), joined by the testbench to
    # its peer's through a FIFO of the design's depth. Its argument's id
    # is what CONNECTIVITY names.
    set(id "")
    foreach(a IN LISTS xml_args)
      if(a MATCHES "[ \t\r\n]port=\"${pname}\"" AND
         a MATCHES "[ \t\r\n]id=\"([0-9]+)\"")
        set(id "${CMAKE_MATCH_1}")
      endif()
    endforeach()
    if(id STREQUAL "")
      message(FATAL_ERROR "glue.cmake: ${XML}: stream port ${pname} is the "
        "port of no <arg>")
    endif()
    string(TOLOWER "${pname}_TDATA" dkey)
    if(width AND DEFINED bits_${dkey} AND NOT bits_${dkey} EQUAL width)
      message(FATAL_ERROR "glue.cmake: ${XML} says stream ${pname} is "
        "${width} bits wide, the RTL's ${port_${dkey}} is ${bits_${dkey}}")
    endif()
    set(i ${nstreams})
    set(out false)
    if(mode STREQUAL "write_only")
      set(out true)
    endif()
    string(APPEND body "        axis[${i}].name = \"${pname}\";\n"
                       "        axis[${i}].out = ${out};\n"
                       "        axis[${i}].arg_id = ${id};\n")
    foreach(sg IN LISTS axis_signals)
      string(TOLOWER "${sg}" f)
      glue_bind(body "axis[${i}].${f}" "${pname}_${sg}" REQUIRED)
    endforeach()
    foreach(sg IN LISTS axis_optional)
      string(TOLOWER "${sg}" f)
      glue_bind(body "axis[${i}].${f}" "${pname}_${sg}" OPTIONAL)
    endforeach()
    math(EXPR nstreams "${nstreams} + 1")
  endif()
endforeach()
if(NOT have_slave AND NOT control STREQUAL "ap_ctrl_none")
  message(FATAL_ERROR "glue.cmake: ${XML}: kernel ${KERNEL} has no slave "
    "(s_axi_control) port; the testbench starts kernels through it (only "
    "an ap_ctrl_none kernel may have none)")
endif()
if(nstreams GREATER 16)
  message(FATAL_ERROR "glue.cmake: ${XML}: ${nstreams} stream ports, the "
    "testbench takes 16")
endif()
if(nbundles GREATER 16)
  message(FATAL_ERROR "glue.cmake: ${XML}: ${nbundles} m_axi bundles, the "
    "testbench takes 16")
endif()
if(missing)
  string(REPLACE ";" ", " have "${all_ports}")
  message(FATAL_ERROR "glue.cmake: the RTL of ${KERNEL} (top ${TOP}) lacks"
    "${missing}, which the kernel XML (${XML}) implies. Its ports: ${have}")
endif()

file(WRITE "${OUT}.tmp"
"// Generated by axl_add_rtl_kernel (glue.cmake) from ${XML} and
// ${HEADER}; do not edit.
#include \"${CLASS}.h\"

#include \"axl_rtl_glue.hpp\"

namespace {

class unit final : public axl_rtl::dut {
  public:
    unit(VerilatedContext *ctx, const char *name) : m(ctx, name)
    {
${body}        bundles = ${nbundles};
        streams = ${nstreams};
        has_ctrl = ${have_slave};
    }
    void eval() override { m.eval(); }
    bool finished() const override { return m.contextp()->gotFinish(); }
    void close() override { m.final(); }

  private:
    ${CLASS} m;
};

axl_rtl::dut *make(VerilatedContext *ctx, const char *name)
{
    return new unit(ctx, name);
}

} // namespace

extern const axl_rtl::kernel ${SYMBOL};
const axl_rtl::kernel ${SYMBOL} = {\"${KERNEL}\", \"${TOP}\", make,
                                   ${has_interrupt}, ${sw_reset}};
")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
