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
elseif(CASE STREQUAL "link_refuses")
  # Each mistake in a v++ config or a kernel.xml: exit 2, one line that
  # names the file, the line and the fix, and no image written.
  set(v ${SOURCES}/stock/vitis)
  function(refuse cfg regex)
    file(WRITE ${WORK}/bad.cfg "${cfg}")
    file(REMOVE ${WORK}/bad.xclbin)
    run(2 link --config ${WORK}/bad.cfg ${v}/vadd.xml -o ${WORK}/bad.xclbin)
    one_line("${err}" "${regex}")
    if(EXISTS ${WORK}/bad.xclbin)
      message(FATAL_ERROR "a refused image was written")
    endif()
  endfunction()
  refuse("[connectivity]\nnk=vmul:2\n" "bad.cfg:2: nk= names kernel vmul, which no kernel file gives")
  refuse("[connectivity]\nnk=vadd:2:a\n" "bad.cfg:2: nk=vadd:2 names fewer than 2 units")
  refuse("[connectivity]\nnk=vadd:1:a.b\n" "bad.cfg:2: nk=vadd:1 names more than 1 units")
  refuse("[connectivity]\nsp=vadd_1.in3:DDR[0]\n" "bad.cfg:2: sp=: kernel vadd has no argument in3")
  refuse("[connectivity]\nsp=vadd_1.size:DDR[0]\n" "argument size of vadd is not a memory argument")
  refuse("[connectivity]\nsp=vadd_2.in1:DDR[0]\n" "sp= names compute unit vadd_2, which no nk= makes")
  refuse("[connectivity]\nsp=vadd_1.in1:DDR[4]\n" "memory \"DDR\\[4\\]\" is not on the platform, which has 4 banks \\(--banks\\)")
  refuse("[connectivity]\nsp=vadd_1.in1:HBM[0]\n" "memory \"HBM\\[0\\]\" is none of DDR\\[i\\], DDR\\[i:j\\], bankI")
  refuse("[connectivity]\nsp=vadd_1.in1:DDR[0]\nsp=vadd_1.in1:DDR[1]\n" "bad.cfg:3: sp=: vadd_1.in1 is connected twice")
  refuse("[connectivity]\nslr=vadd_1:SLRX\n" "\"SLRX\" is not SLR0..SLR15")
  refuse("[connectivity]\nstream_connect=a.b:c.d\n" "streams between kernels are not supported")
  refuse("[clock]\nfreqHz=300000000:vadd_1\nfreqHz=250000000:vadd_1\n" "bad.cfg:3: a second kernel clock \\(250 MHz, after 300 MHz\\)")
  refuse("[connectivity]\nnk vadd\n" "bad.cfg:2: expected key=value")
  # A file that is no kernel.xml.
  file(WRITE ${WORK}/notkernel.xml "<root><nothing/></root>\n")
  run(2 link ${WORK}/notkernel.xml -o ${WORK}/bad.xclbin)
  one_line("${err}" "notkernel.xml: no <kernel> element")
  # And what works: nk=vadd:4 with named units, on 4 banks.
  file(WRITE ${WORK}/good.cfg "[connectivity]\nnk=vadd:4:vadd_1.vadd_2.vadd_3.vadd_4\n"
       "sp=vadd_3.in1:DDR[2]\nsp=vadd_4.in1:bank3\nslr=vadd_1:SLR0\n")
  run(0 link --config ${WORK}/good.cfg ${v}/vadd.xml -o ${WORK}/good.xclbin)
  run(0 info ${WORK}/good.xclbin)
  need("${out}" "\\[3\\] vadd:vadd_4 +IP_KERNEL +base 0x01830000" "nk=vadd:4")
  need("${out}" "\\[2\\] bank2 +MEM_DDR4 +used" "sp= DDR[2]")
  need("${out}" "cu vadd:vadd_4 at 0x1830000\n +in1 +-> bank3\n +in2 +-> bank0\n" "sp= bank3, default DDR[0]")
else()
  message(FATAL_ERROR "unknown CASE '${CASE}'")
endif()
