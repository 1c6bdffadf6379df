# axl_add_rtl_kernel: a kernel's own RTL as compute units of the mmio port,
# under Verilator (docs/rtl-in-ci.md). Installed as axlRtl.cmake; comes with
# find_package(axl).
#
#   axl_add_rtl_kernel(<target>
#       KERNEL_XML <kernel.xml> VERILOG <folder or file>...  |  XO <file.xo>
#       [TOP <module>]            the Verilog top (default: the kernel's name)
#       [KERNEL <name>]           which <kernel> of the XML (default: its first)
#       [VERILATOR_ARGS <arg>...] more Verilator options (-G parameters...)
#       [SW_RESET]                the kernel was built with ap_sw_reset
#                                 (Vitis HLS: config_interface
#                                 -s_axilite_sw_reset)
#       [CONFIG <v++.cfg>...]     the design: a v++ link config
#       [DESIGN <file.xclbin>]    or an image (instead of CONFIG)
#       [STEPPED])                the runtime for a program of one thread
#
# Calling it again with the same <target> adds another kernel to the same
# device. <target> is a static library that stands for axl in a program:
# the runtime whose one device is the mmio port on a model of the fabric
# (axl_mmio_model_library), whose board is the RTL's (axl/rtl.h:
# axl_rtl_board()): the design, linked by axl_link_xclbin from the
# kernels' XML and the CONFIG files (one unit of each kernel without
# CONFIG), or the DESIGN image; every compute unit of a kernel added is an
# instance of its RTL. So a program that links <target> (and not axl
# itself) runs those kernels through the plain axl API. It may also drive
# the model itself (axl_rtl_model()). At the end of the folder's
# CMakeLists.txt the design is linked and the kernel list written; a
# program links one such target. STEPPED (on any of the calls) builds
# the runtime as axl_mmio_model_library's STEPPED does, without the lock
# around the model, for programs that call axl from one thread.
#
# What runs at build time, per kernel: Verilator (--cc --build, through
# verilate.cmake, which shows its output only when it fails) on the
# Verilog, then glue.cmake, which binds the Verilated top's ports to the
# testbench by the names the kernel XML gives; then the C++ compiler. The
# project must enable C++ (project(... LANGUAGES C CXX)): Verilator's
# output is C++.
#
# Verilator's options, and why (Vitis HLS output needs them):
#   --no-timing        HLS RTL carries `timescale and #delays meant for
#                      event simulators; a cycle model ignores them
#   --unroll-count 4096  HLS RTL initialises ROMs and register files in
#                      loops far longer than Verilator's default of 64
#   -Wno-fatal -Wno-lint -Wno-style  generated RTL is full of width and
#                      unused-signal warnings that say nothing wrong
#   -O3, and the model compiled at -O2 (OPT_FAST): simulation speed
#   -y <xpm>           axl's behavioural models of the Xilinx macros Vitis
#                      RTL instantiates (xpm_fifo_sync, xpm_memory_*,
#                      xpm_cdc_*; xrt/mmio/rtl/xpm/README.md): a module
#                      the kernel's Verilog does not define is looked for
#                      there, so the user lists none of them
# A file of the Verilog folders that is not Verilog is left out; .dat
# files (ROM contents that HLS RTL reads with $readmemh from the current
# folder) are copied next to the target.
if(COMMAND axl_add_rtl_kernel)
  return()
endif()
if(NOT AXL_RTL_TESTBENCH_DIR)
  set(AXL_RTL_TESTBENCH_DIR ${CMAKE_CURRENT_LIST_DIR})
endif()
set(AXL_RTL_TESTBENCH_DIR ${AXL_RTL_TESTBENCH_DIR} CACHE INTERNAL
    "Sources of the RTL testbench (testbench.cpp, axl_rtl_glue.hpp, glue.cmake)")
file(GLOB AXL_RTL_XPM_MODELS ${AXL_RTL_TESTBENCH_DIR}/xpm/*.v)

# The Verilog files of a folder: .v and .sv, and of an unpacked IP only
# those under hdl/verilog (else under a folder named verilog), so that its
# VHDL and simulation copies stay out.
function(_axl_rtl_verilog_of dir out)
  file(GLOB_RECURSE all CONFIGURE_DEPENDS ${dir}/*.v ${dir}/*.sv)
  foreach(pattern "/hdl/verilog/" "/verilog/")
    set(preferred "")
    foreach(f IN LISTS all)
      file(RELATIVE_PATH rel ${dir} ${f})
      if("/${rel}" MATCHES "${pattern}")
        list(APPEND preferred ${f})
      endif()
    endforeach()
    if(preferred)
      set(all ${preferred})
      break()
    endif()
  endforeach()
  list(SORT all)
  set(${out} ${all} PARENT_SCOPE)
endfunction()

# The C++ runtime of Verilator, once per project.
function(_axl_rtl_verilated root)
  if(TARGET axl_verilated)
    return()
  endif()
  add_library(axl_verilated STATIC ${root}/include/verilated.cpp
              ${root}/include/verilated_threads.cpp)
  target_include_directories(axl_verilated SYSTEM PUBLIC ${root}/include
                             ${root}/include/vltstd)
  target_compile_definitions(axl_verilated PUBLIC VM_COVERAGE=0 VM_SC=0
    VM_TRACE=0 VM_TRACE_FST=0 VM_TRACE_VCD=0)
  target_compile_options(axl_verilated PRIVATE -w -faligned-new)
  set_target_properties(axl_verilated PROPERTIES CXX_STANDARD 17
    CXX_STANDARD_REQUIRED ON POSITION_INDEPENDENT_CODE ON)
  set(THREADS_PREFER_PTHREAD_FLAG ON)
  find_package(Threads REQUIRED)
  target_link_libraries(axl_verilated PUBLIC Threads::Threads)
endfunction()

function(axl_add_rtl_kernel target)
  cmake_parse_arguments(R "SW_RESET;STEPPED" "KERNEL_XML;XO;TOP;KERNEL;DESIGN"
                        "VERILOG;VERILATOR_ARGS;CONFIG" ${ARGN})
  set(where "axl_add_rtl_kernel(${target})")
  if(R_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${where}: unknown arguments ${R_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT CMAKE_CXX_COMPILER_LOADED)
    message(FATAL_ERROR "${where}: Verilator's output is C++; enable it with "
      "project(... LANGUAGES C CXX) or enable_language(CXX) before this call")
  endif()
  find_program(AXL_VERILATOR verilator)
  if(NOT AXL_VERILATOR)
    message(FATAL_ERROR "${where}: no verilator on the PATH (Debian: apt "
      "install verilator; 5.006 or newer)")
  endif()
  if(NOT AXL_VERILATOR_ROOT)
    execute_process(COMMAND ${AXL_VERILATOR} --getenv VERILATOR_ROOT
      OUTPUT_VARIABLE root OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
    if(rc OR NOT EXISTS "${root}/include/verilated.cpp")
      message(FATAL_ERROR "${where}: ${AXL_VERILATOR} --getenv VERILATOR_ROOT "
        "gave '${root}', which has no include/verilated.cpp")
    endif()
    set(AXL_VERILATOR_ROOT ${root} CACHE INTERNAL "Verilator's kit")
  endif()
  set(base ${CMAKE_CURRENT_BINARY_DIR}/${target}.rtl)

  # ---- The kernel XML and the Verilog ------------------------------------
  set(incdirs "")
  set(sources "")
  if(R_XO)
    if(R_KERNEL_XML OR R_VERILOG)
      message(FATAL_ERROR "${where}: XO takes the XML and the Verilog from "
        "the .xo; give XO, or KERNEL_XML and VERILOG")
    endif()
    get_filename_component(xo ${R_XO} ABSOLUTE)
    if(NOT EXISTS ${xo})
      message(FATAL_ERROR "${where}: no such .xo: ${xo}")
    endif()
    get_filename_component(xo_name ${xo} NAME_WE)
    set(out ${base}/xo/${xo_name})
    # Unpacked at configure time (an .xo is a zip; cmake reads zips), and
    # again when it changes; the IP inside may itself be a zip.
    file(REMOVE_RECURSE ${out})
    file(ARCHIVE_EXTRACT INPUT ${xo} DESTINATION ${out})
    file(GLOB_RECURSE zips ${out}/*.zip)
    foreach(z IN LISTS zips)
      file(ARCHIVE_EXTRACT INPUT ${z} DESTINATION ${z}.d)
    endforeach()
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${xo})
    file(GLOB_RECURSE xmls ${out}/kernel.xml)
    if(NOT xmls)
      message(FATAL_ERROR "${where}: ${xo} holds no kernel.xml")
    endif()
    list(GET xmls 0 xml)
    _axl_rtl_verilog_of(${out} sources)
    foreach(f IN LISTS sources)
      get_filename_component(d ${f} DIRECTORY)
      list(APPEND incdirs ${d})
    endforeach()
  else()
    if(NOT R_KERNEL_XML OR NOT R_VERILOG)
      message(FATAL_ERROR "${where}: give KERNEL_XML and VERILOG, or XO")
    endif()
    get_filename_component(xml ${R_KERNEL_XML} ABSOLUTE)
    foreach(v IN LISTS R_VERILOG)
      get_filename_component(v ${v} ABSOLUTE)
      if(IS_DIRECTORY ${v})
        _axl_rtl_verilog_of(${v} found)
        list(APPEND sources ${found})
        list(APPEND incdirs ${v})
        foreach(f IN LISTS found)
          get_filename_component(d ${f} DIRECTORY)
          list(APPEND incdirs ${d})
        endforeach()
      elseif(EXISTS ${v})
        list(APPEND sources ${v})
        get_filename_component(d ${v} DIRECTORY)
        list(APPEND incdirs ${d})
      else()
        message(FATAL_ERROR "${where}: VERILOG ${v}: no such file or folder")
      endif()
    endforeach()
  endif()
  if(NOT EXISTS ${xml})
    message(FATAL_ERROR "${where}: no such kernel XML: ${xml}")
  endif()
  if(NOT sources)
    message(FATAL_ERROR "${where}: no Verilog (.v, .sv) in ${R_VERILOG}${R_XO}")
  endif()
  list(REMOVE_DUPLICATES incdirs)

  file(READ ${xml} text)
  string(REGEX MATCHALL "<kernel [^>]*>" kernels "${text}")
  set(kernel "")
  foreach(k IN LISTS kernels)
    if(k MATCHES "[ \t\r\n]name=\"([^\"]*)\"")
      if(NOT R_KERNEL OR CMAKE_MATCH_1 STREQUAL R_KERNEL)
        set(kernel ${CMAKE_MATCH_1})
        break()
      endif()
    endif()
  endforeach()
  if(NOT kernel)
    message(FATAL_ERROR "${where}: ${xml} has no <kernel name=\"${R_KERNEL}\">")
  endif()
  if(NOT kernel MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "${where}: kernel name '${kernel}' is not a C "
      "identifier")
  endif()
  set(top ${kernel})
  if(R_TOP)
    set(top ${R_TOP})
  endif()
  if(TARGET ${target})
    get_property(added TARGET ${target} PROPERTY AXL_RTL_KERNELS)
    if(kernel IN_LIST added)
      message(FATAL_ERROR "${where}: kernel ${kernel} is in it already")
    endif()
  endif()

  # ---- Verilator, then the glue ------------------------------------------
  set(cls V${kernel})
  set(mdir ${base}/${kernel})
  set(args --cc --build --Mdir ${mdir} --prefix ${cls} --top-module ${top}
      --no-timing --unroll-count 4096 -Wno-fatal -Wno-lint -Wno-style -O3
      -MAKEFLAGS CXX=${CMAKE_CXX_COMPILER} -MAKEFLAGS OPT_FAST=-O2
      -MAKEFLAGS OPT_SLOW=-O1 -CFLAGS -std=c++17 -CFLAGS -fPIC)
  foreach(d IN LISTS incdirs)
    list(APPEND args -I${d})
  endforeach()
  list(APPEND args -y ${AXL_RTL_TESTBENCH_DIR}/xpm +libext+.v+.sv
       ${R_VERILATOR_ARGS} ${sources})
  set(args_file ${mdir}.args)
  file(CONFIGURE OUTPUT ${args_file} CONTENT "${AXL_VERILATOR};${args}")
  add_custom_command(OUTPUT ${mdir}/${cls}__ALL.a ${mdir}/${cls}.h
    COMMAND ${CMAKE_COMMAND} -DARGS_FILE=${args_file} -DMDIR=${mdir}
            -P ${AXL_RTL_TESTBENCH_DIR}/verilate.cmake
    DEPENDS ${sources} ${xml} ${args_file}
            ${AXL_RTL_TESTBENCH_DIR}/verilate.cmake ${AXL_RTL_XPM_MODELS}
    COMMENT "Verilating ${kernel} (top ${top})"
    VERBATIM)
  set(symbol axl_rtl_kernel_${kernel})
  set(glue ${base}/${kernel}_glue.cpp)
  # What the glue is told beyond the XML and the header, in a file so that
  # a change reruns it.
  set(sw_reset 0)
  if(R_SW_RESET)
    set(sw_reset 1)
  endif()
  set(glue_opts ${mdir}.glue)
  file(CONFIGURE OUTPUT ${glue_opts} CONTENT "SW_RESET=${sw_reset}\n")
  add_custom_command(OUTPUT ${glue}
    COMMAND ${CMAKE_COMMAND} -DXML=${xml} -DHEADER=${mdir}/${cls}.h
            -DCLASS=${cls} -DKERNEL=${kernel} -DTOP=${top} -DSYMBOL=${symbol}
            -DSW_RESET=${sw_reset} -DOUT=${glue}
            -P ${AXL_RTL_TESTBENCH_DIR}/glue.cmake
    DEPENDS ${mdir}/${cls}.h ${xml} ${glue_opts}
            ${AXL_RTL_TESTBENCH_DIR}/glue.cmake
    COMMENT "Binding ${kernel}'s ports to the testbench"
    VERBATIM)
  # ROM contents HLS RTL loads with $readmemh("./x.dat") at start-up.
  foreach(d IN LISTS incdirs)
    file(GLOB dats ${d}/*.dat)
    if(dats)
      file(COPY ${dats} DESTINATION ${CMAKE_CURRENT_BINARY_DIR})
    endif()
  endforeach()

  # ---- The target: the testbench, the kernels, the design ----------------
  if(NOT TARGET ${target})
    _axl_rtl_verilated(${AXL_VERILATOR_ROOT})
    add_library(${target} STATIC ${AXL_RTL_TESTBENCH_DIR}/testbench.cpp)
    target_include_directories(${target} PRIVATE ${AXL_RTL_TESTBENCH_DIR})
    set_target_properties(${target} PROPERTIES CXX_STANDARD 17
      CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF
      POSITION_INDEPENDENT_CODE ON)
    # axl's headers; the runtime comes at the end of the folder.
    target_include_directories(${target} PRIVATE
      $<TARGET_PROPERTY:axl::axl,INTERFACE_INCLUDE_DIRECTORIES>)
    set_property(TARGET ${target} PROPERTY AXL_RTL_BASE ${base})
    cmake_language(EVAL CODE "cmake_language(DEFER CALL _axl_rtl_finish [[${target}]])")
  endif()
  target_sources(${target} PRIVATE ${glue})
  set_source_files_properties(${glue} PROPERTIES INCLUDE_DIRECTORIES ${mdir})
  target_link_libraries(${target} PUBLIC ${mdir}/${cls}__ALL.a axl_verilated)
  if(R_STEPPED)
    set_property(TARGET ${target} PROPERTY AXL_RTL_STEPPED STEPPED)
  endif()
  set_property(TARGET ${target} APPEND PROPERTY AXL_RTL_KERNELS ${kernel})
  set_property(TARGET ${target} APPEND PROPERTY AXL_RTL_XMLS ${xml})
  foreach(c IN LISTS R_CONFIG)
    get_filename_component(c ${c} ABSOLUTE)
    set_property(TARGET ${target} APPEND PROPERTY AXL_RTL_CONFIGS ${c})
  endforeach()
  if(R_DESIGN)
    get_filename_component(d ${R_DESIGN} ABSOLUTE)
    set_property(TARGET ${target} PROPERTY AXL_RTL_DESIGN ${d})
  endif()
endfunction()

# At the end of the folder: the design, the list of kernels, the runtime.
function(_axl_rtl_finish target)
  get_target_property(stepped ${target} AXL_RTL_STEPPED)
  if(NOT stepped)
    set(stepped "")
  endif()
  # axl with the mmio port on this target's RTL, whose default board is
  # axl_rtl_board() (in the testbench). In the source tree that is a
  # static library which needs the testbench back: the two are linked both
  # ways, which CMake resolves by repeating them. From the package it
  # compiles the board's port list into each program.
  set(runtime ${target}_axl)
  axl_mmio_model_library(${runtime} ${stepped} BOARD axl_rtl_board)
  target_link_libraries(${target} INTERFACE ${runtime})
  get_target_property(type ${runtime} TYPE)
  if(type STREQUAL "STATIC_LIBRARY")
    target_link_libraries(${runtime} INTERFACE ${target})
  endif()
  get_target_property(base ${target} AXL_RTL_BASE)
  get_target_property(kernels ${target} AXL_RTL_KERNELS)
  get_target_property(xmls ${target} AXL_RTL_XMLS)
  get_target_property(configs ${target} AXL_RTL_CONFIGS)
  get_target_property(design ${target} AXL_RTL_DESIGN)
  string(MAKE_C_IDENTIFIER "axl_rtl_${target}_design" sym)
  if(design AND configs)
    message(FATAL_ERROR "axl_add_rtl_kernel(${target}): CONFIG and DESIGN "
      "both given; the design is one or the other")
  endif()
  if(NOT design)
    set(design ${base}/${target}.xclbin)
    if(NOT configs)
      set(configs "")
    endif()
    axl_link_xclbin(${design} KERNELS ${xmls} CONFIG ${configs})
  endif()
  axl_embed_xclbin(${target} ${design} ${sym})
  set(decls "")
  set(refs "")
  foreach(k IN LISTS kernels)
    string(APPEND decls "extern const axl_rtl::kernel axl_rtl_kernel_${k};\n")
    string(APPEND refs "    &axl_rtl_kernel_${k},\n")
  endforeach()
  list(LENGTH kernels n)
  set(reg ${base}/registry.cpp)
  file(CONFIGURE OUTPUT ${reg} CONTENT
"// Generated by axl_add_rtl_kernel for ${target}; do not edit.
#include \"axl_rtl_glue.hpp\"
#include \"${sym}.h\"

${decls}
namespace {
const axl_rtl::kernel *const kernels[] = {
${refs}};
} // namespace

extern const axl_rtl::registry axl__rtl_registry;
const axl_rtl::registry axl__rtl_registry = {kernels, ${n}, ${sym},
                                             &${sym}_size};
")
  target_sources(${target} PRIVATE ${reg})
endfunction()
