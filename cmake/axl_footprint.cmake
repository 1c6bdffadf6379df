# axl_footprint.cmake - the footprint report:
#     cmake --build <build> --target axl-footprint
# prints, per component (the core, the OS port, each device port) and in
# total, .text (code and read-only data), .data and .bss of the library as
# built for the board (arm-none-eabi-size on the objects for zcu102-r5),
# and the RAM each pool of core/pools.h takes (capacity x object size),
# read from a probe object compiled with the board's compiler and capacities
# (cmake/axl_footprint_probe.c), so it works for cross builds.
#
# Beside the library as the board builds it, the target compiles a second
# copy of every component with AXL_MESSAGES=0 (core/axl_config.h: failures
# leave "<function>: <STATUS>" and the message text is not compiled in), so
# the table shows the code of both. On bare-metal boards it also links
# what a firmware links: the whole library into a program that keeps every
# exported function (--whole-archive, --gc-keep-exported, --gc-sections),
# in both configurations, and it reads the test firmware's link map when
# the tests are built (tests/firmware: the calls of a typical firmware).
# The archive counts each object whole; a link merges equal strings
# across objects and drops what nothing calls.
#
# Included by the top-level CMakeLists.txt once the library targets exist.
# Run as a script (-P) it writes the report; see the end of this file.
#
# AXL_FOOTPRINT_CODE_BUDGET and AXL_FOOTPRINT_RAM_BUDGET (bytes) are the
# targets the report checks; with AXL_FOOTPRINT_ENFORCE=ON the target fails
# when the library, as the board builds it, is over either.

if(NOT CMAKE_SCRIPT_MODE_FILE)
  set(AXL_FOOTPRINT_CODE_BUDGET 32768 CACHE STRING
      "Code budget of the footprint report (text + data, bytes)")
  set(AXL_FOOTPRINT_RAM_BUDGET 24576 CACHE STRING
      "RAM budget of the footprint report (data + bss, bytes)")
  option(AXL_FOOTPRINT_ENFORCE "axl-footprint fails over the budgets" OFF)

  # binutils' size beside the nm CMake found for this compiler.
  get_filename_component(_fp_nm_dir "${CMAKE_NM}" DIRECTORY)
  get_filename_component(_fp_nm_name "${CMAKE_NM}" NAME)
  string(REGEX REPLACE "nm$" "size" _fp_size_name "${_fp_nm_name}")
  find_program(AXL_SIZE NAMES ${_fp_size_name} size HINTS ${_fp_nm_dir})

  add_library(axl_footprint_probe OBJECT EXCLUDE_FROM_ALL
              ${CMAKE_CURRENT_LIST_DIR}/axl_footprint_probe.c)
  target_include_directories(axl_footprint_probe PRIVATE
    ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/core ${AXL_BOARD_DIR})

  # The same objects without messages: each library object target again,
  # with its sources, include folders and definitions, and AXL_MESSAGES=0.
  # The same objects with other settings (a list of NAME=VALUE
  # definitions): _fp_terse_copy is AXL_MESSAGES=0.
  function(_fp_terse_copy name from)
    _fp_settings_copy(${name} ${from} AXL_MESSAGES=0)
  endfunction()
  function(_fp_settings_copy name from)
    get_target_property(srcs ${from} SOURCES)
    get_target_property(dir ${from} SOURCE_DIR)
    set(abs "")
    foreach(src IN LISTS srcs)
      if(src MATCHES "\\.(c|S)$")
        if(NOT IS_ABSOLUTE "${src}")
          set(src "${dir}/${src}")
        endif()
        list(APPEND abs "${src}")
      endif()
    endforeach()
    add_library(${name} OBJECT EXCLUDE_FROM_ALL ${abs})
    get_target_property(inc ${from} INCLUDE_DIRECTORIES)
    if(inc)
      target_include_directories(${name} PRIVATE ${inc})
    endif()
    get_target_property(defs ${from} COMPILE_DEFINITIONS)
    if(defs)
      target_compile_definitions(${name} PRIVATE ${defs})
    endif()
    get_target_property(opts ${from} COMPILE_OPTIONS)
    if(opts)
      target_compile_options(${name} PRIVATE ${opts})
    endif()
    get_target_property(libs ${from} LINK_LIBRARIES) # their include folders
    if(libs)
      target_link_libraries(${name} PRIVATE ${libs})
    endif()
    target_compile_definitions(${name} PRIVATE ${ARGN})
    add_dependencies(${name} ${from}) # its generated sources first
  endfunction()
  _fp_terse_copy(axl_fp_terse_core axl_core_obj)
  _fp_terse_copy(axl_fp_terse_port axl_port_obj)
  set(_fp_terse_objects
    $<TARGET_OBJECTS:axl_fp_terse_core> $<TARGET_OBJECTS:axl_fp_terse_port>)
  foreach(_fp_port IN LISTS AXL_DEVICE_PORTS)
    _fp_terse_copy(axl_fp_terse_dev_${_fp_port} axl_dev_${_fp_port})
    list(APPEND _fp_terse_objects
         $<TARGET_OBJECTS:axl_fp_terse_dev_${_fp_port}>)
  endforeach()
  add_library(axl_fp_terse STATIC EXCLUDE_FROM_ALL ${_fp_terse_objects}
              ${_board_ports_c})
  target_include_directories(axl_fp_terse PRIVATE
                             ${PROJECT_SOURCE_DIR}/include)
  set(_fp_depends axl axl_footprint_probe axl_fp_terse)

  # Bare metal: link what a firmware links, keeping every exported function
  # (the entry is an empty loop; nothing runs this program).
  set(_fp_links "")
  if(CMAKE_SYSTEM_NAME STREQUAL "Generic")
    foreach(_fp_cfg full terse)
      set(_fp_lib axl)
      if(_fp_cfg STREQUAL "terse")
        set(_fp_lib axl_fp_terse)
      endif()
      set(_fp_map ${CMAKE_BINARY_DIR}/axl-footprint-link-${_fp_cfg}.map)
      add_executable(axl_fp_link_${_fp_cfg} EXCLUDE_FROM_ALL
                     ${CMAKE_CURRENT_LIST_DIR}/axl_footprint_link.c)
      target_link_libraries(axl_fp_link_${_fp_cfg} PRIVATE
        -Wl,--whole-archive ${_fp_lib} -Wl,--no-whole-archive)
      target_link_options(axl_fp_link_${_fp_cfg} PRIVATE -nostartfiles
        -Wl,--gc-sections -Wl,--gc-keep-exported -Wl,--entry=axl_fp_entry
        -Wl,-Map=${_fp_map})
      list(APPEND _fp_depends axl_fp_link_${_fp_cfg})
      string(APPEND _fp_links "linkmap ${_fp_cfg} ${_fp_map}\n")
    endforeach()
  endif()

  set(_fp_content "")
  foreach(_fp_cfg full terse)
    if(_fp_cfg STREQUAL "full")
      set(_fp_core axl_core_obj)
      set(_fp_os axl_port_obj)
      set(_fp_dev axl_dev_)
      set(_fp_lib axl)
    else()
      set(_fp_core axl_fp_terse_core)
      set(_fp_os axl_fp_terse_port)
      set(_fp_dev axl_fp_terse_dev_)
      set(_fp_lib axl_fp_terse)
    endif()
    string(APPEND _fp_content "config ${_fp_cfg}\n"
      "component core\n$<JOIN:$<TARGET_OBJECTS:${_fp_core}>,\n>\n"
      "component port (${AXL_OS_PORT})\n"
      "$<JOIN:$<TARGET_OBJECTS:${_fp_os}>,\n>\n")
    foreach(_fp_port IN LISTS AXL_DEVICE_PORTS)
      string(APPEND _fp_content "component device port ${_fp_port}\n"
        "$<JOIN:$<TARGET_OBJECTS:${_fp_dev}${_fp_port}>,\n>\n")
    endforeach()
    string(APPEND _fp_content "library $<TARGET_FILE:${_fp_lib}>\n")
  endforeach()
  string(APPEND _fp_content
    "probe $<TARGET_OBJECTS:axl_footprint_probe>\n" "${_fp_links}")
  # The test firmware is defined later (tests/): the manifest is written,
  # and the firmware's map added, once the top-level CMakeLists.txt is done.
  function(_fp_finish)
    if(CMAKE_SYSTEM_NAME STREQUAL "Generic" AND TARGET axl-firmware)
      # The test firmware as built, and its objects linked again with the
      # library without messages (its own code does not change with it).
      add_dependencies(axl-footprint axl-firmware)
      set(map ${CMAKE_BINARY_DIR}/axl-footprint-firmware-terse.map)
      add_executable(axl_fp_firmware_terse EXCLUDE_FROM_ALL
                     $<TARGET_OBJECTS:axl-firmware>)
      set_target_properties(axl_fp_firmware_terse PROPERTIES
                            LINKER_LANGUAGE C)
      get_target_property(opts axl-firmware LINK_OPTIONS)
      list(FILTER opts EXCLUDE REGEX "^-Wl,-Map=")
      target_link_options(axl_fp_firmware_terse PRIVATE ${opts}
                          -Wl,-Map=${map})
      target_link_libraries(axl_fp_firmware_terse PRIVATE axl_kit_qemu
                            axl_fp_terse)
      add_dependencies(axl-footprint axl_fp_firmware_terse)
      string(APPEND _fp_content "linkmap firmware "
             "$<TARGET_FILE_DIR:axl-firmware>/axl-firmware.map\n"
             "linkmap firmware_terse ${map}\n")
    endif()
    if(TARGET axl_fp_kernel_firmware)
      # A firmware that runs a built-in kernel through the mmio port
      # (tests/firmware/fw_kernels.c with fw_board_zcu102.c), as the board
      # builds the library and with the switches it does not need off and
      # a pre-digested design (the _min ones).
      foreach(v "" _terse _min _min_terse _min_lto _min_terse_lto)
        add_dependencies(axl-footprint axl_fp_kernel_firmware${v})
        string(APPEND _fp_content "linkmap kernel_firmware${v} "
               "$<TARGET_FILE_DIR:axl_fp_kernel_firmware${v}>/"
               "axl_fp_kernel_firmware${v}.map\n")
      endforeach()
    endif()
    if(TARGET axl_fp_plan_firmware)
      # A firmware that replays a plan (tests/firmware/fw_plan.c with
      # fw_board_zcu102.c): the executor, the mmio port's unit code and
      # the OS port, with and without messages.
      foreach(v "" _terse)
        add_dependencies(axl-footprint axl_fp_plan_firmware${v})
        string(APPEND _fp_content "linkmap plan_firmware${v} "
               "$<TARGET_FILE_DIR:axl_fp_plan_firmware${v}>/"
               "axl_fp_plan_firmware${v}.map\n")
      endforeach()
    endif()
    if(TARGET axl-kit-plan-firmware)
      # The same plan firmware built with axl_add_firmware on the kit's
      # board (tests/firmware/fw_board_kit.c): the kit's rows.
      add_dependencies(axl-footprint axl-kit-plan-firmware)
      string(APPEND _fp_content "linkmap kit_plan_firmware "
             "$<TARGET_FILE_DIR:axl-kit-plan-firmware>/"
             "axl-kit-plan-firmware.map\n")
    endif()
    file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/axl-footprint.txt
         CONTENT "${_fp_content}")
  endfunction()
  cmake_language(DEFER CALL _fp_finish)

  string(TOUPPER "${CMAKE_BUILD_TYPE}" _fp_bt)
  string(STRIP "${CMAKE_C_FLAGS} ${CMAKE_C_FLAGS_${_fp_bt}}" _fp_flags)
  add_custom_target(axl-footprint
    COMMAND ${CMAKE_COMMAND}
            -DMANIFEST=${CMAKE_BINARY_DIR}/axl-footprint.txt
            -DSIZE=${AXL_SIZE} -DNM=${CMAKE_NM}
            -DBOARD=${AXL_BOARD} -DBUILD_TYPE=${CMAKE_BUILD_TYPE}
            "-DCOMPILER=${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}"
            "-DFLAGS=${_fp_flags}"
            -DCODE_BUDGET=${AXL_FOOTPRINT_CODE_BUDGET}
            -DRAM_BUDGET=${AXL_FOOTPRINT_RAM_BUDGET}
            -DENFORCE=${AXL_FOOTPRINT_ENFORCE}
            -DOUT=${CMAKE_BINARY_DIR}/axl-footprint.md
            -P ${CMAKE_CURRENT_LIST_FILE}
    DEPENDS ${_fp_depends}
    COMMENT "Footprint of axl for board ${AXL_BOARD}"
    USES_TERMINAL VERBATIM)
  return()
endif()

# ---- Script mode: write the report -------------------------------------------
cmake_minimum_required(VERSION 3.25)

function(kib bytes out)
  math(EXPR whole "${bytes} * 10 / 1024")
  math(EXPR int "${whole} / 10")
  math(EXPR frac "${whole} % 10")
  set(${out} "${int}.${frac}" PARENT_SCOPE)
endfunction()

function(pad text width out) # right-aligned
  string(LENGTH "${text}" len)
  if(len LESS width)
    math(EXPR n "${width} - ${len}")
    string(REPEAT " " ${n} sp)
    set(text "${sp}${text}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(padr text width out) # left-aligned
  string(LENGTH "${text}" len)
  if(len LESS width)
    math(EXPR n "${width} - ${len}")
    string(REPEAT " " ${n} sp)
    set(text "${text}${sp}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# text, data, bss of one object file (Berkeley format: text includes
# .rodata, which is what occupies code memory).
function(object_size file t d b)
  execute_process(COMMAND ${SIZE} -B ${file} OUTPUT_VARIABLE out
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${SIZE} ${file} failed")
  endif()
  string(REGEX MATCH "\n[ \t]*([0-9]+)[ \t]+([0-9]+)[ \t]+([0-9]+)" m "${out}")
  set(${t} ${CMAKE_MATCH_1} PARENT_SCOPE)
  set(${d} ${CMAKE_MATCH_2} PARENT_SCOPE)
  set(${b} ${CMAKE_MATCH_3} PARENT_SCOPE)
endfunction()

set(report "")
# What linked_size counts beside axl's runtime: another library (fp_also,
# a name that matches none by default), or the board kit's alone.
set(fp_also "axl_none_")
set(fp_kit_only 0)
macro(out text)
  string(APPEND report "${text}\n")
endmacro()

# A row: name, text, data, bss, then code and RAM, and the code without
# messages (terse text + data) when given.
macro(row name t d b terse)
  padr("${name}" 26 c0)
  pad("${t}" 7 c1)
  pad("${d}" 7 c2)
  pad("${b}" 7 c3)
  math(EXPR _code "${t} + ${d}")
  math(EXPR _ram "${d} + ${b}")
  pad("${_code}" 8 c4)
  pad("${_ram}" 8 c5)
  pad("${terse}" 14 c6)
  out("| ${c0} | ${c1} | ${c2} | ${c3} | ${c4} | ${c5} | ${c6} |")
endmacro()

# The manifest: per configuration (full: as the board builds it; terse:
# AXL_MESSAGES=0) its components' objects and its library, then the probe
# and the link maps.
file(STRINGS "${MANIFEST}" manifest)
set(components "")
set(probe "")
set(cfg "")
set(current "")
foreach(line IN LISTS manifest)
  if(line MATCHES "^config (.*)$")
    set(cfg "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^component (.*)$")
    set(current "${CMAKE_MATCH_1}")
    if(cfg STREQUAL "full")
      list(APPEND components "${current}")
    endif()
    set(objs_${cfg}_${current} "")
  elseif(line MATCHES "^library (.*)$")
    set(library_${cfg} "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^probe (.*)$")
    set(probe "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^linkmap ([a-z_]+) (.*)$")
    set(linkmap_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
  elseif(NOT line STREQUAL "")
    list(APPEND objs_${cfg}_${current} "${line}")
  endif()
endforeach()

# The board's AXL_MESSAGES, from the probe.
execute_process(COMMAND ${NM} -S -p ${probe} OUTPUT_VARIABLE probe_syms
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} -S ${probe} failed")
endif()
set(messages 1)
if(probe_syms MATCHES "[0-9a-fA-F]+ 0*1 [A-Za-z] axl_fp_messages")
  set(messages 0)
endif()

# text, data, bss of a library's members (Berkeley format), as a sum.
function(library_size lib t d b)
  execute_process(COMMAND ${SIZE} -B -t ${lib} OUTPUT_VARIABLE libout)
  string(REGEX MATCH "\n[ \t]*([0-9]+)[ \t]+([0-9]+)[ \t]+([0-9]+)[^\n]*TOTALS"
         m "${libout}")
  set(${t} ${CMAKE_MATCH_1} PARENT_SCOPE)
  set(${d} ${CMAKE_MATCH_2} PARENT_SCOPE)
  set(${b} ${CMAKE_MATCH_3} PARENT_SCOPE)
endfunction()

out("axl footprint: board ${BOARD}, ${BUILD_TYPE}, ${COMPILER}")
out("flags: ${FLAGS}")
out("")
out("The library as the board builds it (AXL_MESSAGES=${messages}); the last")
out("column is the code of the same objects built with AXL_MESSAGES=0.")
out("")
out("| component                  |    text |    data |     bss |     code |      RAM | code, terse    |")
out("|----------------------------|--------:|--------:|--------:|---------:|---------:|---------------:|")
set(sum_t 0)
set(sum_d 0)
set(sum_b 0)
set(sum_terse 0)
foreach(comp IN LISTS components)
  set(ct 0)
  set(cd 0)
  set(cb 0)
  set(detail "")
  foreach(obj IN LISTS objs_full_${comp})
    object_size(${obj} t d b)
    math(EXPR ct "${ct} + ${t}")
    math(EXPR cd "${cd} + ${d}")
    math(EXPR cb "${cb} + ${b}")
    get_filename_component(n ${obj} NAME)
    string(REGEX REPLACE "\\.(c|S)\\.(o|obj)$" ".\\1" n "${n}")
    list(APPEND detail "${n};${t};${d};${b}")
  endforeach()
  # The terse objects, by file name.
  set(cterse 0)
  foreach(obj IN LISTS objs_terse_${comp})
    object_size(${obj} t d b)
    math(EXPR code "${t} + ${d}")
    math(EXPR cterse "${cterse} + ${code}")
    get_filename_component(n ${obj} NAME)
    string(REGEX REPLACE "\\.(c|S)\\.(o|obj)$" ".\\1" n "${n}")
    set(terse_${n} ${code})
  endforeach()
  row("**${comp}**" ${ct} ${cd} ${cb} ${cterse})
  list(LENGTH objs_full_${comp} nobj)
  if(nobj GREATER 1) # one row per object: name;text;data;bss in a row
    list(LENGTH detail n)
    set(i 0)
    while(i LESS n)
      list(SUBLIST detail ${i} 4 one)
      list(GET one 0 on)
      list(GET one 1 ot)
      list(GET one 2 od)
      list(GET one 3 ob)
      set(oterse "")
      if(DEFINED terse_${on})
        set(oterse ${terse_${on}})
      endif()
      row("  ${on}" ${ot} ${od} ${ob} "${oterse}")
      math(EXPR i "${i} + 4")
    endwhile()
  endif()
  math(EXPR sum_t "${sum_t} + ${ct}")
  math(EXPR sum_d "${sum_d} + ${cd}")
  math(EXPR sum_b "${sum_b} + ${cb}")
  math(EXPR sum_terse "${sum_terse} + ${cterse}")
endforeach()

# The library also holds the board's generated port list: the difference.
library_size(${library_full} lib_t lib_d lib_b)
library_size(${library_terse} tlib_t tlib_d tlib_b)
math(EXPR glue_t "${lib_t} - ${sum_t}")
math(EXPR glue_d "${lib_d} - ${sum_d}")
math(EXPR glue_b "${lib_b} - ${sum_b}")
math(EXPR terse_code "${tlib_t} + ${tlib_d}")
math(EXPR glue_terse "${terse_code} - ${sum_terse}")
row("board port list" ${glue_t} ${glue_d} ${glue_b} ${glue_terse})
row("**total (libaxl.a)**" ${lib_t} ${lib_d} ${lib_b} ${terse_code})
out("")

# ---- What a link keeps: input sections of libaxl.a in a link map -------------
# Sums the sizes the map gives each input section of the archive's members
# (after string merging and --gc-sections): text, data, bss.
# The verdict of a row against targets (bytes): "code within 32 KiB,
# code, terse OVER 24 KiB, ...". Issue 11's for the minimal kernel
# firmware, issue 30's for the plan firmware.
function(verdict code terse ram code_lim terse_lim ram_lim out_var)
  set(verdict "")
  foreach(pair "${code};${code_lim};code" "${terse};${terse_lim};code, terse"
               "${ram};${ram_lim};RAM")
    list(GET pair 0 v)
    list(GET pair 1 lim)
    list(GET pair 2 what)
    if(v STREQUAL "")
      continue()
    endif()
    if(v GREATER lim)
      set(w "OVER")
    else()
      set(w "within")
    endif()
    kib(${lim} lim_k)
    list(APPEND verdict "${what} ${w} ${lim_k} KiB")
  endforeach()
  list(JOIN verdict ", " verdict)
  set(${out_var} "${verdict}" PARENT_SCOPE)
endfunction()

# A linked row of the report: the program, its link map and the map of
# the same without messages (may be missing); sets row_code, row_terse,
# row_ram and row_hot (the hot path's bytes, in code).
macro(linked_row label map terse_map)
  linked_size("${map}" _row_t _row_d _row_b row_hot)
  math(EXPR row_code "${_row_t} + ${_row_d}")
  math(EXPR row_ram "${_row_d} + ${_row_b}")
  set(row_terse "")
  if(NOT "${terse_map}" STREQUAL "" AND EXISTS "${terse_map}")
    linked_size("${terse_map}" _row_t _row_d _row_b _row_h)
    math(EXPR row_terse "${_row_t} + ${_row_d}")
  endif()
  padr("${label}" 46 c0)
  pad("${row_code}" 7 c1)
  pad("${row_terse}" 11 c2)
  pad("${row_ram}" 7 c3)
  pad("${row_hot}" 8 c4)
  out("| ${c0} | ${c1} | ${c2} | ${c3} | ${c4} |")
endmacro()

# text (with the hot path), data and bss of axl in a link map, and in h
# the hot path alone: the input sections .axl_hot and .axl_hot.* (AXL_HOT,
# xrt/mmio/mmio_unit.h), which the board's script puts in the ATCM.
function(linked_size map t d b h)
  set(lt 0)
  set(ld 0)
  set(lb 0)
  set(lh 0)
  # The highest address counted so far. ld lists the input sections it
  # merged (equal strings, .rodata.*.str1.*) at one address, each with the
  # size of the merged whole: only bytes above the mark count, so a merged
  # blob counts once (summing the sizes counted it once per input section:
  # +650 B for a file split in two).
  set(mark 0)
  file(STRINGS "${map}" lines)
  set(in_map 0)
  set(pending "")
  foreach(line IN LISTS lines)
    if(NOT in_map)
      if(line MATCHES "^Linker script and memory map")
        set(in_map 1)
      endif()
      continue()
    endif()
    set(sec "")
    if(line MATCHES "^[.A-Za-z]")
      set(mark 0) # an output section: memory regions need not ascend
      set(pending "")
      continue()
    endif()
    if(line MATCHES "^ ([.A-Za-z][^ ]*) +0x([0-9a-fA-F]+) +0x([0-9a-fA-F]+) +(.*)$")
      set(sec "${CMAKE_MATCH_1}")
      set(addr "${CMAKE_MATCH_2}")
      set(size "${CMAKE_MATCH_3}")
      set(file "${CMAKE_MATCH_4}")
      set(pending "")
    elseif(line MATCHES "^ ([.A-Za-z][^ ]*)$")
      set(pending "${CMAKE_MATCH_1}")
      continue()
    elseif(pending AND line MATCHES "^ +0x([0-9a-fA-F]+) +0x([0-9a-fA-F]+) +(.*)$")
      set(sec "${pending}")
      set(addr "${CMAKE_MATCH_1}")
      set(size "${CMAKE_MATCH_2}")
      set(file "${CMAKE_MATCH_3}")
      set(pending "")
    else()
      set(pending "")
      continue()
    endif()
    math(EXPR addr "0x${addr}" OUTPUT_FORMAT DECIMAL)
    math(EXPR size "0x${size}" OUTPUT_FORMAT DECIMAL)
    math(EXPR end "${addr} + ${size}")
    if(size EQUAL 0)
      continue()
    endif()
    if(end LESS_EQUAL mark)
      continue()
    endif()
    if(addr LESS mark)
      math(EXPR size "${end} - ${mark}")
    endif()
    set(mark ${end})
    # libaxl.a's members (and the plan firmware's library of the
    # executor's objects, the board kit's runtime libaxl_mmio.a, and with
    # fp_also another library's: the kit's); a pre-digested design's const data
    # (boards/designs), which stands in for the image's bytes and the
    # reader, so a row with it counts it; a plan's const data
    # (tests/firmware/plans), which stands in for the kernel path; and in
    # an -flto link, what the optimiser wrote from the library's
    # intermediate code (ltrans).
    if(fp_kit_only)
      # The kit's rows: the kit's library alone.
      if(NOT file MATCHES "libaxl_kit[a-z_]*\\.a\\(")
        continue()
      endif()
    elseif(NOT file MATCHES "lib(axl|axl_fp_terse|axl_mmio|axl_mmio_board[a-z_]*|axl_plan_fw[a-z_]*|${fp_also})\\.a\\(" AND
       NOT file MATCHES "designs/[a-z_]+\\.c\\.(o|obj)$" AND
       NOT file MATCHES "plans/[A-Za-z0-9_]+\\.c\\.(o|obj)$" AND
       NOT file MATCHES "\\.ltrans[0-9]*\\.ltrans\\.o$")
      continue()
    endif()
    if(sec MATCHES "^\\.(bss|tbss)" OR sec STREQUAL "COMMON")
      math(EXPR lb "${lb} + ${size}")
    elseif(sec MATCHES "^\\.(data|tdata)")
      math(EXPR ld "${ld} + ${size}")
    elseif(sec MATCHES "^\\.axl_hot")
      math(EXPR lt "${lt} + ${size}")
      math(EXPR lh "${lh} + ${size}")
    elseif(sec MATCHES "^\\.(text|rodata)")
      math(EXPR lt "${lt} + ${size}")
    endif()
  endforeach()
  set(${t} ${lt} PARENT_SCOPE)
  set(${d} ${ld} PARENT_SCOPE)
  set(${b} ${lb} PARENT_SCOPE)
  set(${h} ${lh} PARENT_SCOPE)
endfunction()

math(EXPR code "${lib_t} + ${lib_d}")
math(EXPR ram "${lib_d} + ${lib_b}")
kib(${code} code_k)
kib(${terse_code} terse_k)
kib(${ram} ram_k)
kib(${CODE_BUDGET} code_budget_k)
kib(${RAM_BUDGET} ram_budget_k)
set(over "")
if(code GREATER CODE_BUDGET)
  set(code_verdict "OVER")
  list(APPEND over "code")
else()
  set(code_verdict "within")
endif()
if(terse_code GREATER CODE_BUDGET)
  set(terse_verdict "OVER")
else()
  set(terse_verdict "within")
endif()
if(ram GREATER RAM_BUDGET)
  set(ram_verdict "OVER")
  list(APPEND over "RAM")
else()
  set(ram_verdict "within")
endif()
out("code ${code} B = ${code_k} KiB: ${code_verdict} the ${code_budget_k} KiB budget")
out("code ${terse_code} B = ${terse_k} KiB with AXL_MESSAGES=0: ${terse_verdict} the ${code_budget_k} KiB budget")
out("RAM  ${ram} B = ${ram_k} KiB: ${ram_verdict} the ${ram_budget_k} KiB budget")
out("text is code and read-only data, code = text + data (flash or ATCM),")
out("RAM = data + bss; all of libaxl.a: a firmware links only what it calls.")
out("")

if(DEFINED linkmap_full)
  out("Linked (libaxl.a's part of a link, --gc-sections, equal strings merged):")
  out("")
  out("| program                                        |    code | code, terse |     RAM | hot path |")
  out("|------------------------------------------------|--------:|------------:|--------:|---------:|")
  linked_row("every exported function kept (the whole API)"
             "${linkmap_full}" "${linkmap_terse}")
  if(DEFINED linkmap_firmware AND EXISTS "${linkmap_firmware}")
    linked_row("tests/firmware (a typical firmware's calls)"
               "${linkmap_firmware}" "${linkmap_firmware_terse}")
  endif()
  if(DEFINED linkmap_kernel_firmware AND EXISTS "${linkmap_kernel_firmware}")
    linked_row("kernel firmware (vadd, fir, conv2d on mmio)"
               "${linkmap_kernel_firmware}" "${linkmap_kernel_firmware_terse}")
  endif()
  if(DEFINED linkmap_kernel_firmware_min AND
     EXISTS "${linkmap_kernel_firmware_min}")
    linked_row("the same, minimal switches, pre-digested"
               "${linkmap_kernel_firmware_min}"
               "${linkmap_kernel_firmware_min_terse}")
    verdict("${row_code}" "${row_terse}" "${row_ram}" 32768 24576 24576
            min_note)
  endif()
  if(DEFINED linkmap_kernel_firmware_min_lto AND
     EXISTS "${linkmap_kernel_firmware_min_lto}")
    linked_row("the same, linked with -flto"
               "${linkmap_kernel_firmware_min_lto}"
               "${linkmap_kernel_firmware_min_terse_lto}")
    verdict("${row_code}" "${row_terse}" "${row_ram}" 32768 24576 24576
            lto_note)
  endif()
  if(DEFINED linkmap_plan_firmware AND EXISTS "${linkmap_plan_firmware}")
    linked_row("plan firmware (executor, mmio units, a plan)"
               "${linkmap_plan_firmware}" "${linkmap_plan_firmware_terse}")
    verdict("${row_code}" "${row_terse}" "${row_ram}" 16384 12288 8192
            plan_note)
    set(plan_hot ${row_hot})
  endif()
  if(DEFINED linkmap_kit_plan_firmware AND EXISTS "${linkmap_kit_plan_firmware}")
    set(fp_also "axl_kit")
    linked_row("the same built with axl_add_firmware"
               "${linkmap_kit_plan_firmware}" "")
    set(fp_also "axl_none_")
    set(kit_total ${row_code})
    set(kit_total_ram ${row_ram})
    set(fp_kit_only 1)
    linked_row("  of which the board kit"
               "${linkmap_kit_plan_firmware}" "")
    set(fp_kit_only 0)
    set(kit_own ${row_code})
    set(kit_own_ram ${row_ram})
  endif()
  out("")
  if(DEFINED min_note)
    out("The minimal kernel firmware (issue 11's targets: code 32 KiB,")
    out("24 KiB without messages, RAM 24 KiB): ${min_note}. Its rows count")
    out("the pre-digested design's const data; the rows above leave out the")
    out("image's bytes (8 KiB), which are the firmware's own.")
    if(DEFINED lto_note)
      out("Linked with -flto (the library's objects carry GCC's intermediate")
      out("code, the firmware's own do not, so what the optimiser writes is")
      out("axl's): ${lto_note}.")
    endif()
    out("")
  endif()
  if(DEFINED kit_total)
    out("The plan firmware built as a user builds one (axl_add_firmware, the")
    out("plan and the stock design by name, the kit's runtime libaxl_mmio.a):")
    out("${kit_total} B of code and ${kit_total_ram} B of RAM beside the firmware's own,")
    out("the pre-digested design's const data counted, the stacks not; of them")
    out("the board kit (libaxl_kit.a: start-up code, MPU and caches, the UART")
    out("console, the board, the GIC, the clock) ${kit_own} B and ${kit_own_ram} B.")
    out("")
  endif()
  if(DEFINED plan_note)
    out("The plan firmware (issue 30's targets: code 16 KiB, 12 KiB without")
    out("messages, RAM 8 KiB beside the plan's buffers): ${plan_note}; its")
    out("hot path (replay and completion, in the ATCM) ${plan_hot} B. It")
    out("links the executor, the mmio port's unit code, the OS port and, of")
    out("the core, the formatter, the status names and the message calls;")
    out("its row counts the plan's const data (the board names its design by")
    out("the UUID alone).")
    out("")
  endif()
endif()

# ---- Pools: capacity x object size, from the probe ---------------------------
string(REGEX MATCHALL "[0-9a-fA-F]+ [0-9a-fA-F]+ [A-Za-z] axl_fp_pool__[A-Za-z0-9_]+"
       entries "${probe_syms}")
set(pools "")
foreach(e IN LISTS entries)
  if(e MATCHES "^[0-9a-fA-F]+ ([0-9a-fA-F]+) [A-Za-z] axl_fp_pool__(.+)__(object|capacity|order)$")
    math(EXPR v "0x${CMAKE_MATCH_1}" OUTPUT_FORMAT DECIMAL)
    set(pool_${CMAKE_MATCH_2}_${CMAKE_MATCH_3} ${v})
    if(CMAKE_MATCH_3 STREQUAL "order")
      math(EXPR key "1000 + ${v}") # fixed width: sorts as text
      list(APPEND pools "${key} ${CMAKE_MATCH_2}")
    endif()
  endif()
endforeach()
list(SORT pools)
list(TRANSFORM pools REPLACE "^[0-9]+ " "")

# The pools' own symbols in the core (slots, generations, links), for the
# RAM as stored; falls back to capacity x object size.
set(core_syms "")
foreach(obj IN LISTS objs_full_core)
  execute_process(COMMAND ${NM} -S ${obj} OUTPUT_VARIABLE s)
  string(APPEND core_syms "${s}")
endforeach()

out("| pool          | capacity | object | capacity x object | with generation and link |")
out("|---------------|---------:|-------:|------------------:|-------------------------:|")
set(pool_total 0)
set(pool_total_all 0)
foreach(p IN LISTS pools)
  set(obj ${pool_${p}_object})
  set(cap ${pool_${p}_capacity})
  math(EXPR bytes "${obj} * ${cap}")
  set(stored 0)
  foreach(part slots gen link)
    if(core_syms MATCHES "[0-9a-fA-F]+ ([0-9a-fA-F]+) [bBdD] axl__${p}_${part}\n")
      math(EXPR v "0x${CMAKE_MATCH_1}" OUTPUT_FORMAT DECIMAL)
      math(EXPR stored "${stored} + ${v}")
    endif()
  endforeach()
  if(stored EQUAL 0)
    set(stored ${bytes})
  endif()
  math(EXPR pool_total "${pool_total} + ${bytes}")
  math(EXPR pool_total_all "${pool_total_all} + ${stored}")
  padr("${p}" 13 c0)
  pad("${cap}" 8 c1)
  pad("${obj}" 6 c2)
  pad("${bytes}" 17 c3)
  pad("${stored}" 24 c4)
  out("| ${c0} | ${c1} | ${c2} | ${c3} | ${c4} |")
endforeach()
pad("${pool_total}" 17 c3)
pad("${pool_total_all}" 24 c4)
out("| **total**     |          |        | ${c3} | ${c4} |")
out("")

# ---- The largest RAM users of the library ------------------------------------
execute_process(COMMAND ${NM} -S ${library_full} OUTPUT_VARIABLE lsyms)
string(REGEX MATCHALL "[^\n]+" lsyms "${lsyms}")
set(ranked "")
set(member "")
foreach(line IN LISTS lsyms)
  if(line MATCHES "^(.+)\\.(o|obj):$")
    set(member "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^[0-9a-fA-F]+ ([0-9a-fA-F]+) [bBdD] (.+)$")
    math(EXPR v "0x${CMAKE_MATCH_1}" OUTPUT_FORMAT DECIMAL)
    math(EXPR key "1000000000000 + ${v}") # fixed width: sorts as text
    list(APPEND ranked "${key} ${CMAKE_MATCH_2} (${member})")
  endif()
endforeach()
list(SORT ranked ORDER DESCENDING)
list(LENGTH ranked nr)
if(nr GREATER 8)
  list(SUBLIST ranked 0 8 ranked)
endif()
out("| largest RAM symbols                 |  bytes |")
out("|-------------------------------------|-------:|")
foreach(e IN LISTS ranked)
  string(REGEX MATCH "^1([0-9]+) (.+)$" m "${e}")
  math(EXPR v "1${CMAKE_MATCH_1} - 1000000000000")
  padr("${CMAKE_MATCH_2}" 35 c0)
  pad("${v}" 6 c1)
  out("| ${c0} | ${c1} |")
endforeach()

message("${report}")
if(OUT)
  file(WRITE "${OUT}" "${report}")
endif()
if(over AND ENFORCE)
  message(FATAL_ERROR "axl footprint over budget (${over})")
endif()
