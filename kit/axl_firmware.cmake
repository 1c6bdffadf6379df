# Your own firmware with the board kit (docs/firmware.md). Installed with
# every package (find_package(axl) includes it) and used by axl's own
# build (tests/firmware).
#
#   axl_add_firmware(<target> SOURCES <file>...
#                    [DESIGN <file.xclbin> | <name>]
#                    [PLAN <plan.c> | <name>]...
#                    [CODE tcm|ddr] [DEVICE_MEMORY <bytes>]
#                    [MODEL_SOURCES <file>...] [MODEL <library>]
#                    [LIBRARIES <library>...])
#
# With a board package (zcu102-r5, kv260-r5: the project configured with
# -DCMAKE_TOOLCHAIN_FILE=<prefix>/share/axl/kit/toolchain.cmake), builds
# <target>.elf for the board: the sources, the plans, the design
# pre-digested (axl-xclbin design, as axl_fw_design() gives it), the
# runtime with the mmio port on the real bus and the plan executor
# (axl::axl_mmio), and the kit: its start-up code, the board's UART as
# the console, its board (axl_fw_board), interrupt entry and clock
# (axl/firmware.h), linked with the board's linker script (code in the
# 64 KiB ATCM with CODE tcm, the default, or in DDR with CODE ddr; the
# hot path in the ATCM either way; DEVICE_MEMORY bytes of DDR for the
# design's banks, 4 MiB by default). Beside it: <target>.bin (objcopy -O
# binary, for a loader that takes raw images) and <target>.map, which the
# build checks for the heap allocator (a firmware that links malloc or
# printf fails to build).
#
# With the host package it builds <target> as a host program of the same
# sources on a model of the fabric: the C-model simulator running the
# emulated device's C models behind the registers, or MODEL <library>,
# say a target of axl_add_rtl_kernel (the kernels' RTL under Verilator);
# the console is standard output. MODEL_SOURCES are compiled into the
# model builds only (here and under QEMU): a kernel of your own registers
# its C model there, in `axl_status axl_fw_register_models(void)`, which
# axl_fw_board() calls first.
#
# DESIGN and PLAN take files, or the names axl_add_host_project gave
# them. A plan is the C source axl_add_plan writes on the host; the
# firmware declares `extern const axl_plan <symbol>;`.
#
#   axl_add_qemu_test(<name> FIRMWARE <target>
#                     [PASS_REGULAR_EXPRESSION <regex>...] [TIMEOUT <s>])
#
# A ctest that runs <target> on QEMU's Cortex-R5F (a board package only):
# the same sources built again as <target>-qemu.elf, with the C-model
# simulator as the fabric (axl_fw_board gives its board, carrying the
# same design), semihosting as the console, code in DDR. It passes when
# main() returns 0 and the output matches every regex. Label: firmware.
#
#   axl_add_host_project(<name> [SOURCE_DIR <dir>] [PLANS <name>...]
#                        [DESIGNS <file>...] [TESTS])
#
# In a firmware project (cross), builds the project in SOURCE_DIR
# (default: <name>) on the host with the host package, as an
# ExternalProject, every time the firmware project builds: there the
# design is linked and the plans written (axl_add_plan runs a program of
# yours with the full runtime). PLANS <name> is its <build>/<name>.c,
# DESIGNS <file> its <build>/<file>; axl_add_firmware takes both by name.
# TESTS adds a ctest that runs the host project's own tests. The host
# package is found from AXL_HOST_PREFIX, or from axl-xclbin on the PATH.

# ---- What the package or build gives -----------------------------------------

# Global properties (set by axlConfig.cmake, or by kit/CMakeLists.txt in
# axl's own build), so every folder of a project sees them:
#   AXL_KIT            board, host, or empty (no kit in this package)
#   AXL_KIT_LD_DIRS    folders of the linker scripts (-L)
#   AXL_KIT_LD_TCM, AXL_KIT_LD_DDR  the board's two scripts
function(_axl_fw_target out name)
  if(TARGET axl::${name})
    set(${out} axl::${name} PARENT_SCOPE)
  elseif(TARGET ${name})
    set(${out} ${name} PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

# Links <target> as a kit firmware: KIND board (the UART, the board's
# clock) or qemu (semihosting), CODE tcm or ddr, the kit library first,
# then LIBRARIES (the runtime).
function(_axl_fw_link target)
  cmake_parse_arguments(L "" "KIND;CODE" "LIBRARIES" ${ARGN})
  get_property(dirs GLOBAL PROPERTY AXL_KIT_LD_DIRS)
  string(TOUPPER "${L_CODE}" code)
  get_property(script GLOBAL PROPERTY AXL_KIT_LD_${code})
  if(NOT script)
    message(FATAL_ERROR "axl firmware ${target}: CODE ${L_CODE}: the board "
                        "has tcm and ddr")
  endif()
  if(L_KIND STREQUAL "board")
    _axl_fw_target(kit axl_kit)
  else()
    _axl_fw_target(kit axl_kit_qemu)
  endif()
  set_target_properties(${target} PROPERTIES SUFFIX .elf)
  target_link_libraries(${target} PRIVATE ${kit} ${L_LIBRARIES})
  set(map ${CMAKE_CURRENT_BINARY_DIR}/${target}.map)
  set(ld_files "")
  foreach(d IN LISTS dirs)
    target_link_options(${target} PRIVATE -L${d})
    file(GLOB more ${d}/*.ld)
    list(APPEND ld_files ${more})
  endforeach()
  # The start-up code is in the kit's library: nothing else names _start.
  target_link_options(${target} PRIVATE -T${script} -Wl,--undefined=_start
                      -Wl,-Map=${map} -Wl,--cref)
  if(L_KIND STREQUAL "board")
    # The board's clock, over the OS port's weak default (which counts).
    target_link_options(${target} PRIVATE -Wl,--undefined=axl_board_now_ns)
  endif()
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${ld_files})
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -DMAP=${map} -DELF=$<TARGET_FILE:${target}>
            -DNM=${CMAKE_NM}
            -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/check_link_map.cmake
    VERBATIM)
  if(L_KIND STREQUAL "board" AND CMAKE_OBJCOPY)
    add_custom_command(TARGET ${target} POST_BUILD
      COMMAND ${CMAKE_OBJCOPY} -O binary $<TARGET_FILE:${target}>
              $<TARGET_FILE_DIR:${target}>/${target}.bin
      VERBATIM)
  endif()
endfunction()

# The pre-digested design of an xclbin as C source, once per folder, and a
# source naming it the firmware's (axl__fw_design). Sets <srcs> and
# <deps> (targets to wait for).
function(_axl_fw_design target xclbin srcs deps)
  set(dep "")
  get_property(host_file GLOBAL PROPERTY AXL_HOST_OUTPUT_${xclbin})
  if(host_file)
    get_property(dep GLOBAL PROPERTY AXL_HOST_OUTPUT_${xclbin}_TARGET)
    set(xclbin ${host_file})
  else()
    get_filename_component(xclbin ${xclbin} ABSOLUTE
                           BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  endif()
  get_filename_component(name ${xclbin} NAME_WE)
  string(MAKE_C_IDENTIFIER "axl_design_${name}" sym)
  set(tool "")
  if(TARGET axl-xclbin)
    set(tool axl-xclbin)
  elseif(TARGET axl::axl-xclbin)
    set(tool axl::axl-xclbin)
  elseif(TARGET axl_core_obj)
    # axl's own cross build: the checked-in copy below, whatever
    # axl-xclbin the PATH may hold.
  else()
    _axl_fw_host_prefix(prefix)
    find_program(AXL_XCLBIN_TOOL axl-xclbin HINTS ${prefix}/bin)
    if(AXL_XCLBIN_TOOL)
      set(tool ${AXL_XCLBIN_TOOL})
    endif()
  endif()
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/axl_designs)
  if(tool)
    set(c ${dir}/${sym}.c)
    if(NOT TARGET ${sym}_source)
      file(MAKE_DIRECTORY ${dir})
      set(tool_dep ${tool})
      if(NOT TARGET ${tool})
        set(tool_dep "")
      endif()
      add_custom_command(OUTPUT ${c}
        COMMAND ${tool} design ${xclbin} ${sym} -o ${c}
        DEPENDS ${tool_dep} ${xclbin}
        COMMENT "Pre-digesting ${name}.xclbin as ${sym}" VERBATIM)
      add_custom_target(${sym}_source DEPENDS ${c})
      if(dep)
        add_dependencies(${sym}_source ${dep})
      endif()
      # An image axl_link_xclbin links in this project: made once, by
      # its own target, before the design is read from it.
      if(COMMAND _axl_wait_for)
        _axl_wait_for(${sym}_source ${xclbin})
      endif()
    endif()
    list(APPEND dep ${sym}_source)
  else()
    # axl's own cross build: the checked-in copy (boards/designs).
    set(c ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../boards/designs/${name}.c)
    if(NOT EXISTS ${c})
      message(FATAL_ERROR "axl_add_firmware(${target}): DESIGN ${xclbin}: "
        "no axl-xclbin to pre-digest it; give the host package's prefix "
        "(-DAXL_HOST_PREFIX=<prefix>) or put axl-xclbin on the PATH")
    endif()
  endif()
  set(alias ${CMAKE_CURRENT_BINARY_DIR}/${target}_design.c)
  file(CONFIGURE OUTPUT ${alias} CONTENT
"/* Generated by axl_add_firmware(${target}): the design it was built
 * with, as axl_fw_design() gives it. */
#include \"axl/xclbin.h\"
extern const axl_xclbin_design ${sym};
extern const axl_xclbin_design *const axl__fw_design;
const axl_xclbin_design *const axl__fw_design = &${sym};
")
  set(${srcs} ${c} ${alias} PARENT_SCOPE)
  set(${deps} ${dep} PARENT_SCOPE)
endfunction()

# A PLAN's source: a registered host plan's, or a file.
function(_axl_fw_plan plan file dep)
  get_property(host_file GLOBAL PROPERTY AXL_HOST_OUTPUT_${plan})
  if(host_file)
    get_property(t GLOBAL PROPERTY AXL_HOST_OUTPUT_${plan}_TARGET)
    set(${file} ${host_file} PARENT_SCOPE)
    set(${dep} ${t} PARENT_SCOPE)
    return()
  endif()
  if(NOT plan MATCHES "\\.c$")
    message(FATAL_ERROR "axl firmware: PLAN ${plan}: no plan of that name "
      "(axl_add_host_project's PLANS), and not a .c file (axl_add_plan's "
      "OUTPUT)")
  endif()
  get_filename_component(f ${plan} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  if(NOT EXISTS ${f} AND NOT IS_ABSOLUTE ${plan})
    get_filename_component(f ${plan} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  # A plan axl_add_plan writes in this project (OUTPUT <name>.c): its
  # target writes it first, so no two targets run its command at once.
  get_filename_component(stem ${f} NAME_WE)
  set(t "")
  if(TARGET axl_plan_${stem})
    set(t axl_plan_${stem})
  endif()
  set(${file} ${f} PARENT_SCOPE)
  set(${dep} "${t}" PARENT_SCOPE)
endfunction()

function(_axl_fw_host_prefix out)
  if(NOT AXL_HOST_PREFIX)
    find_program(_axl_host_tool axl-xclbin NO_CACHE)
    if(_axl_host_tool)
      get_filename_component(p ${_axl_host_tool} DIRECTORY)
      get_filename_component(p ${p} DIRECTORY)
      set(AXL_HOST_PREFIX ${p} CACHE PATH "The host package of axl")
    endif()
  endif()
  set(${out} "${AXL_HOST_PREFIX}" PARENT_SCOPE)
endfunction()

# ---- axl_add_firmware ----------------------------------------------------------

function(axl_add_firmware target)
  cmake_parse_arguments(F "" "DESIGN;CODE;DEVICE_MEMORY;MODEL"
                        "SOURCES;PLAN;MODEL_SOURCES;LIBRARIES" ${ARGN})
  if(F_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "axl_add_firmware(${target}): unknown argument "
      "${F_UNPARSED_ARGUMENTS} (the keywords are SOURCES, DESIGN, PLAN, "
      "CODE, DEVICE_MEMORY, MODEL_SOURCES, MODEL, LIBRARIES)")
  endif()
  if(NOT F_SOURCES)
    message(FATAL_ERROR "axl_add_firmware(${target}): no SOURCES")
  endif()
  get_property(kind GLOBAL PROPERTY AXL_KIT)
  if(NOT kind)
    message(FATAL_ERROR "axl_add_firmware(${target}): this axl has no "
      "board kit (board ${AXL_BOARD}): build the firmware with a board "
      "package (zcu102-r5, kv260-r5) or the host package (host-emu)")
  endif()
  if(NOT F_CODE)
    set(F_CODE tcm)
  endif()
  set(srcs "")
  set(deps "")
  foreach(p IN LISTS F_PLAN)
    _axl_fw_plan(${p} f d)
    list(APPEND srcs ${f})
    list(APPEND deps ${d})
  endforeach()
  if(F_DESIGN)
    _axl_fw_design(${target} ${F_DESIGN} dsrcs ddeps)
    list(APPEND srcs ${dsrcs})
    list(APPEND deps ${ddeps})
  endif()
  set(main_srcs "")
  foreach(s IN LISTS F_SOURCES)
    get_filename_component(a ${s} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND main_srcs ${a})
  endforeach()
  set(model_srcs "")
  foreach(s IN LISTS F_MODEL_SOURCES)
    get_filename_component(a ${s} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND model_srcs ${a})
  endforeach()

  if(kind STREQUAL "board")
    add_executable(${target} ${main_srcs} ${srcs})
    _axl_fw_target(runtime axl_mmio)
    _axl_fw_link(${target} KIND board CODE ${F_CODE}
                 LIBRARIES ${runtime} ${F_LIBRARIES})
    if(F_DEVICE_MEMORY)
      target_link_options(${target} PRIVATE
                          -Wl,--defsym=__axl_device_size=${F_DEVICE_MEMORY})
    endif()
    # What axl_add_qemu_test builds again.
    set_target_properties(${target} PROPERTIES
      AXL_FW_SOURCES "${main_srcs};${srcs}"
      AXL_FW_MODEL_SOURCES "${model_srcs}"
      AXL_FW_LIBRARIES "${F_LIBRARIES}"
      AXL_FW_DEPENDS "${deps}")
  else()
    add_executable(${target} ${main_srcs} ${srcs} ${model_srcs})
    set(model ${F_MODEL})
    if(NOT model)
      set(model ${target}_model)
      axl_mmio_model_library(${model})
    endif()
    _axl_fw_target(kit axl_kit_host)
    target_link_libraries(${target} PRIVATE ${kit} ${model} ${F_LIBRARIES})
  endif()
  if(deps)
    add_dependencies(${target} ${deps})
  endif()
endfunction()

# ---- axl_add_qemu_test -----------------------------------------------------------

function(axl_add_qemu_test name)
  cmake_parse_arguments(Q "" "FIRMWARE;TIMEOUT" "PASS_REGULAR_EXPRESSION"
                        ${ARGN})
  if(Q_UNPARSED_ARGUMENTS OR NOT Q_FIRMWARE)
    message(FATAL_ERROR "axl_add_qemu_test(${name}): give FIRMWARE <target> "
      "[PASS_REGULAR_EXPRESSION <regex>...] [TIMEOUT <seconds>]")
  endif()
  get_property(kind GLOBAL PROPERTY AXL_KIT)
  if(NOT kind STREQUAL "board")
    message(FATAL_ERROR "axl_add_qemu_test(${name}): QEMU runs the firmware "
      "of a board package (zcu102-r5, kv260-r5); with the host package "
      "axl_add_firmware builds a host program: add_test(NAME ${name} "
      "COMMAND ${Q_FIRMWARE}) runs it")
  endif()
  get_target_property(srcs ${Q_FIRMWARE} AXL_FW_SOURCES)
  if(NOT srcs)
    message(FATAL_ERROR "axl_add_qemu_test(${name}): ${Q_FIRMWARE} was not "
                        "made by axl_add_firmware")
  endif()
  set(q ${Q_FIRMWARE}-qemu)
  if(NOT TARGET ${q})
    get_target_property(model_srcs ${Q_FIRMWARE} AXL_FW_MODEL_SOURCES)
    get_target_property(libs ${Q_FIRMWARE} AXL_FW_LIBRARIES)
    get_target_property(deps ${Q_FIRMWARE} AXL_FW_DEPENDS)
    add_executable(${q} ${srcs} ${model_srcs})
    # The simulator for one thread: a unit's C model runs when the port
    # polls it.
    axl_mmio_model_library(${q}_model STEPPED)
    if(TARGET ${q}_model_port)
      # axl's own build compiles it here: the prebuilt's bank size.
      get_property(bank GLOBAL PROPERTY AXL_KIT_SIM_BANK_SIZE)
      target_compile_definitions(${q}_model_port PRIVATE
                                 AXL_MMIO_SIM_BANK_SIZE=${bank})
    endif()
    _axl_fw_link(${q} KIND qemu CODE ddr LIBRARIES ${q}_model ${libs})
    foreach(p INCLUDE_DIRECTORIES COMPILE_DEFINITIONS COMPILE_OPTIONS)
      set_property(TARGET ${q} APPEND PROPERTY ${p}
                   $<TARGET_PROPERTY:${Q_FIRMWARE},${p}>)
    endforeach()
    if(deps)
      add_dependencies(${q} ${deps})
    endif()
  endif()
  find_program(AXL_QEMU_SYSTEM_ARM NAMES qemu-system-arm qemu-system-aarch64)
  if(NOT Q_TIMEOUT)
    set(Q_TIMEOUT 120)
  endif()
  set(pass "")
  set(i 0)
  foreach(re IN LISTS Q_PASS_REGULAR_EXPRESSION)
    list(APPEND pass "-DPASS_${i}=${re}")
    math(EXPR i "${i} + 1")
  endforeach()
  if(AXL_QEMU_SYSTEM_ARM)
    add_test(NAME ${name}
      COMMAND ${CMAKE_COMMAND} -DQEMU=${AXL_QEMU_SYSTEM_ARM}
              -DELF=$<TARGET_FILE:${q}> -DPASS_COUNT=${i} ${pass}
              -DSECONDS=${Q_TIMEOUT}
              -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/run_qemu.cmake)
  else()
    # The test is there and fails, saying why, rather than passing
    # without running.
    add_test(NAME ${name}
      COMMAND ${CMAKE_COMMAND} -E echo
              "${name}: no qemu-system-arm on the PATH (Debian: qemu-system-arm)")
    set_tests_properties(${name} PROPERTIES
                         FAIL_REGULAR_EXPRESSION "no qemu-system-arm")
  endif()
  set_tests_properties(${name} PROPERTIES LABELS "firmware;qemu"
                       TIMEOUT ${Q_TIMEOUT})
endfunction()

# ---- axl_add_host_project --------------------------------------------------------

function(axl_add_host_project name)
  cmake_parse_arguments(H "TESTS" "SOURCE_DIR" "PLANS;DESIGNS" ${ARGN})
  if(H_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "axl_add_host_project(${name}): unknown argument "
      "${H_UNPARSED_ARGUMENTS} (the keywords are SOURCE_DIR, PLANS, "
      "DESIGNS, TESTS)")
  endif()
  if(NOT H_SOURCE_DIR)
    set(H_SOURCE_DIR ${name})
  endif()
  get_filename_component(src ${H_SOURCE_DIR} ABSOLUTE
                         BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  _axl_fw_host_prefix(prefix)
  if(NOT prefix OR NOT EXISTS ${prefix})
    message(FATAL_ERROR "axl_add_host_project(${name}): no host package of "
      "axl: give its prefix (-DAXL_HOST_PREFIX=<prefix>) or put its "
      "bin/axl-xclbin on the PATH")
  endif()
  set(bin ${CMAKE_CURRENT_BINARY_DIR}/${name})
  set(outputs "")
  foreach(p IN LISTS H_PLANS)
    set_property(GLOBAL PROPERTY AXL_HOST_OUTPUT_${p} ${bin}/${p}.c)
    set_property(GLOBAL PROPERTY AXL_HOST_OUTPUT_${p}_TARGET ${name})
    list(APPEND outputs ${bin}/${p}.c)
  endforeach()
  foreach(d IN LISTS H_DESIGNS)
    set_property(GLOBAL PROPERTY AXL_HOST_OUTPUT_${d} ${bin}/${d})
    set_property(GLOBAL PROPERTY AXL_HOST_OUTPUT_${d}_TARGET ${name})
    list(APPEND outputs ${bin}/${d})
  endforeach()
  include(ExternalProject)
  # Configured with the host's own compiler: nothing of this project's
  # toolchain is passed on.
  ExternalProject_Add(${name}
    SOURCE_DIR ${src}
    BINARY_DIR ${bin}
    CMAKE_ARGS -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=RelWithDebInfo
    INSTALL_COMMAND ""
    BUILD_ALWAYS ON
    BUILD_BYPRODUCTS ${outputs})
  if(H_TESTS)
    add_test(NAME ${name}_host_tests
             COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${bin}
                     --output-on-failure)
    set_tests_properties(${name}_host_tests PROPERTIES LABELS "firmware")
  endif()
endfunction()
