# Runs axl-xclbin as a user does and checks its exit status and output.
#   cmake -DTOOL=<axl-xclbin> -DCASE=<case> -DIMAGES=<dir> -DSOURCES=<dir>
#         -DCORPUS=<dir> -DWORK=<scratch dir> -P tool_test.cmake

function(run want_rc)
  execute_process(COMMAND ${TOOL} ${ARGN} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL want_rc)
    message(FATAL_ERROR "axl-xclbin ${ARGN}: exit ${rc}, want ${want_rc}\n"
                        "stdout: ${out}\nstderr: ${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

function(need text regex what)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "${what}: no match for '${regex}' in:\n${text}")
  endif()
endfunction()

# stderr holds exactly one line (ending in a newline) matching regex.
function(one_line text regex)
  string(REGEX MATCHALL "\n" newlines "${text}")
  list(LENGTH newlines n)
  if(NOT n EQUAL 1 OR NOT text MATCHES "\n$")
    message(FATAL_ERROR "want one line on stderr, got:\n${text}")
  endif()
  need("${text}" "${regex}" "stderr")
endfunction()

file(MAKE_DIRECTORY ${WORK})

if(CASE STREQUAL "info_valid")
  run(0 info ${IMAGES}/stock.xclbin)
  need("${out}" "uuid +5f1b0c3a-7d2e-4a96-8b41-2c9e6d0a1f01" "stock")
  need("${out}" "kernels +5\n" "stock")
  foreach(k vadd mmult fir conv2d nop)
    need("${out}" "\n  ${k}  \\(" "stock kernel ${k}")
  endforeach()
  need("${out}" "cu vadd:vadd_2 at 0x1810000" "stock")
  need("${out}" "a +-> bank1\n" "stock mmult reaches bank1 only")
  need("${out}" "\\[2\\] bank2 +MEM_DDR4 +unused +256 MiB" "stock bank2")
  if(NOT err STREQUAL "")
    message(FATAL_ERROR "stderr is not empty: ${err}")
  endif()
  run(0 info ${IMAGES}/app.xclbin)
  need("${out}" "\n  scale  \\(ap_ctrl_chain, 3 arguments, 1 compute unit\\)"
       "app")
  run(0 info ${IMAGES}/amd_style.xclbin)
  need("${out}" "\n  krnl_vadd  \\(" "amd_style")
  need("${out}" "in2 +-> HBM\\[1\\]" "amd_style")
elseif(CASE STREQUAL "info_invalid")
  run(2 info ${CORPUS}/truncated_stock_1000.bin)
  one_line("${err}" "^axl-xclbin: .*truncated_stock_1000.bin: header m_length 8232 is larger than the 1000 bytes given")
  if(NOT out STREQUAL "")
    message(FATAL_ERROR "stdout is not empty: ${out}")
  endif()
  run(2 info ${CORPUS}/xml_duplicate_arg_id.bin)
  one_line("${err}" "kernel 'scale': arg 'factor' repeats id 0")
  run(2 info ${CORPUS}/empty.bin)
  one_line("${err}" "image is 0 bytes")
elseif(CASE STREQUAL "usage")
  run(1)
  run(1 info)
  run(1 info a b)
  run(1 frobnicate x)
  run(1 pack ${SOURCES}/stock/stock.manifest)
  run(1 info ${WORK}/does-not-exist.xclbin)
  one_line("${err}" "cannot read the file")
elseif(CASE STREQUAL "pack_round_trip")
  file(REMOVE ${WORK}/stock.xclbin)
  run(0 pack ${SOURCES}/stock/stock.manifest -o ${WORK}/stock.xclbin)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files
                          ${WORK}/stock.xclbin ${SOURCES}/stock.xclbin
                  RESULT_VARIABLE differ)
  if(differ)
    message(FATAL_ERROR "the packed image differs from the checked-in one")
  endif()
  run(0 info ${WORK}/stock.xclbin)
  need("${out}" "kernels +5\n" "repacked stock")
elseif(CASE STREQUAL "pack_refuses")
  # A connection to IP 9 of a 2-IP layout: the packer encodes it, but its
  # own reader refuses the result, so nothing is written.
  file(WRITE ${WORK}/bad.manifest
       "uuid 9c2e4b71-3a5f-4d08-b6e1-7f0a2c4d6e02\n"
       "section MEM_TOPOLOGY json ${SOURCES}/app/mem_topology.json\n"
       "section IP_LAYOUT    json ${SOURCES}/app/ip_layout.json\n"
       "section CONNECTIVITY json bad_connectivity.json\n")
  file(WRITE ${WORK}/bad_connectivity.json
       "{ \"connectivity\": { \"m_count\": \"1\", \"m_connection\": [ { "
       "\"arg_index\": \"0\", \"m_ip_layout_index\": \"9\", "
       "\"mem_data_index\": \"0\" } ] } }\n")
  file(REMOVE ${WORK}/bad.xclbin)
  run(2 pack ${WORK}/bad.manifest -o ${WORK}/bad.xclbin)
  one_line("${err}" "the packed image is invalid: .*m_ip_layout_index 9 is not below the 2 IPs")
  if(EXISTS ${WORK}/bad.xclbin)
    message(FATAL_ERROR "a refused image was written")
  endif()
  file(WRITE ${WORK}/nouuid.manifest "platform x\n")
  run(2 pack ${WORK}/nouuid.manifest -o ${WORK}/bad.xclbin)
  one_line("${err}" "nouuid.manifest: no uuid line")
else()
  message(FATAL_ERROR "unknown CASE '${CASE}'")
endif()
