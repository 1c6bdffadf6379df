# axl_footprint.cmake - the footprint report:
#     cmake --build <build> --target axl-footprint
# prints, per component (the core, the OS port, each device port) and in
# total, .text (code and read-only data), .data and .bss of the library as
# built for the board (arm-none-eabi-size on the objects for zcu102-r5),
# and the RAM each pool of core/pools.h takes (capacity x object size),
# read from a probe object compiled with the board's compiler and capacities
# (cmake/axl_footprint_probe.c), so it works for cross builds.
#
# Included by the top-level CMakeLists.txt once the library targets exist.
# Run as a script (-P) it writes the report; see the end of this file.
#
# AXL_FOOTPRINT_CODE_BUDGET and AXL_FOOTPRINT_RAM_BUDGET (bytes) are the
# targets the report checks; with AXL_FOOTPRINT_ENFORCE=ON the target fails
# when the library is over either.

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

  set(_fp_content "")
  string(APPEND _fp_content
    "component core\n$<JOIN:$<TARGET_OBJECTS:axl_core_obj>,\n>\n"
    "component port (${AXL_OS_PORT})\n$<JOIN:$<TARGET_OBJECTS:axl_port_obj>,\n>\n")
  foreach(_fp_port IN LISTS AXL_DEVICE_PORTS)
    string(APPEND _fp_content "component device port ${_fp_port}\n"
      "$<JOIN:$<TARGET_OBJECTS:axl_dev_${_fp_port}>,\n>\n")
  endforeach()
  string(APPEND _fp_content
    "library $<TARGET_FILE:axl>\n"
    "probe $<TARGET_OBJECTS:axl_footprint_probe>\n")
  file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/axl-footprint.txt
       CONTENT "${_fp_content}")

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
    DEPENDS axl axl_footprint_probe
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
macro(out text)
  string(APPEND report "${text}\n")
endmacro()

macro(row name t d b)
  padr("${name}" 26 c0)
  pad("${t}" 7 c1)
  pad("${d}" 7 c2)
  pad("${b}" 7 c3)
  math(EXPR _code "${t} + ${d}")
  math(EXPR _ram "${d} + ${b}")
  pad("${_code}" 8 c4)
  pad("${_ram}" 8 c5)
  out("| ${c0} | ${c1} | ${c2} | ${c3} | ${c4} | ${c5} |")
endmacro()

file(STRINGS "${MANIFEST}" manifest)
set(components "")
set(library "")
set(probe "")
set(current "")
foreach(line IN LISTS manifest)
  if(line MATCHES "^component (.*)$")
    set(current "${CMAKE_MATCH_1}")
    list(APPEND components "${current}")
    set(objs_${current} "")
  elseif(line MATCHES "^library (.*)$")
    set(library "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^probe (.*)$")
    set(probe "${CMAKE_MATCH_1}")
  elseif(NOT line STREQUAL "")
    list(APPEND objs_${current} "${line}")
  endif()
endforeach()

out("axl footprint: board ${BOARD}, ${BUILD_TYPE}, ${COMPILER}")
out("flags: ${FLAGS}")
out("")
out("| component                  |    text |    data |     bss |     code |      RAM |")
out("|----------------------------|--------:|--------:|--------:|---------:|---------:|")
set(sum_t 0)
set(sum_d 0)
set(sum_b 0)
foreach(comp IN LISTS components)
  set(ct 0)
  set(cd 0)
  set(cb 0)
  set(detail "")
  foreach(obj IN LISTS objs_${comp})
    object_size(${obj} t d b)
    math(EXPR ct "${ct} + ${t}")
    math(EXPR cd "${cd} + ${d}")
    math(EXPR cb "${cb} + ${b}")
    get_filename_component(n ${obj} NAME)
    string(REGEX REPLACE "\\.(c|S)\\.(o|obj)$" ".\\1" n "${n}")
    list(APPEND detail "${n};${t};${d};${b}")
  endforeach()
  row("**${comp}**" ${ct} ${cd} ${cb})
  list(LENGTH objs_${comp} nobj)
  if(nobj GREATER 1) # one row per object: name;text;data;bss in a row
    list(LENGTH detail n)
    set(i 0)
    while(i LESS n)
      list(SUBLIST detail ${i} 4 one)
      list(GET one 0 on)
      list(GET one 1 ot)
      list(GET one 2 od)
      list(GET one 3 ob)
      row("  ${on}" ${ot} ${od} ${ob})
      math(EXPR i "${i} + 4")
    endwhile()
  endif()
  math(EXPR sum_t "${sum_t} + ${ct}")
  math(EXPR sum_d "${sum_d} + ${cd}")
  math(EXPR sum_b "${sum_b} + ${cb}")
endforeach()

# The library also holds the board's generated port list: the difference.
execute_process(COMMAND ${SIZE} -B -t ${library} OUTPUT_VARIABLE libout)
string(REGEX MATCH "\n[ \t]*([0-9]+)[ \t]+([0-9]+)[ \t]+([0-9]+)[^\n]*TOTALS"
       m "${libout}")
set(lib_t ${CMAKE_MATCH_1})
set(lib_d ${CMAKE_MATCH_2})
set(lib_b ${CMAKE_MATCH_3})
math(EXPR glue_t "${lib_t} - ${sum_t}")
math(EXPR glue_d "${lib_d} - ${sum_d}")
math(EXPR glue_b "${lib_b} - ${sum_b}")
row("board port list" ${glue_t} ${glue_d} ${glue_b})
row("**total (libaxl.a)**" ${lib_t} ${lib_d} ${lib_b})
out("")

math(EXPR code "${lib_t} + ${lib_d}")
math(EXPR ram "${lib_d} + ${lib_b}")
kib(${code} code_k)
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
if(ram GREATER RAM_BUDGET)
  set(ram_verdict "OVER")
  list(APPEND over "RAM")
else()
  set(ram_verdict "within")
endif()
out("code ${code} B = ${code_k} KiB: ${code_verdict} the ${code_budget_k} KiB budget")
out("RAM  ${ram} B = ${ram_k} KiB: ${ram_verdict} the ${ram_budget_k} KiB budget")
out("text is code and read-only data, code = text + data (flash or ATCM),")
out("RAM = data + bss; all of libaxl.a: a firmware links only what it calls.")
out("")

# ---- Pools: capacity x object size, from the probe ---------------------------
execute_process(COMMAND ${NM} -S -p ${probe} OUTPUT_VARIABLE probe_syms
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} -S ${probe} failed")
endif()
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
foreach(obj IN LISTS objs_core)
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
execute_process(COMMAND ${NM} -S ${library} OUTPUT_VARIABLE lsyms)
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
