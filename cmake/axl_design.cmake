# axl_design_source(<out_var> <file.xclbin> <c_symbol>)
#
# The design of an xclbin as C source, a const axl_xclbin_design
# <c_symbol> (include/axl/xclbin.h) a target links instead of the image's
# bytes: written at build time by `axl-xclbin design` when the build has
# the tool (host builds), else the checked-in copy
# boards/designs/<image name>.c (cross builds and AXL_BUILD_TOOLS=OFF; its
# symbol is axl_design_<image name>, and the host test
# design_sources_are_current keeps it equal to what the tool writes).
# Sets <out_var> to the source to add to the target.
function(axl_design_source out xclbin symbol)
  get_filename_component(name ${xclbin} NAME_WE)
  if(TARGET axl-xclbin)
    set(dir ${CMAKE_CURRENT_BINARY_DIR}/axl_designs)
    file(MAKE_DIRECTORY ${dir})
    set(c ${dir}/${symbol}.c)
    add_custom_command(OUTPUT ${c}
      COMMAND axl-xclbin design ${xclbin} ${symbol} -o ${c}
      DEPENDS axl-xclbin ${xclbin}
      COMMENT "Pre-digesting ${name}.xclbin as ${symbol}"
      VERBATIM)
  else()
    set(c ${PROJECT_SOURCE_DIR}/boards/designs/${name}.c)
    if(NOT symbol STREQUAL "axl_design_${name}")
      message(FATAL_ERROR "axl_design_source: without axl-xclbin the "
        "symbol is the checked-in axl_design_${name}, not ${symbol}")
    endif()
    if(NOT EXISTS ${c})
      message(FATAL_ERROR "axl_design_source: no axl-xclbin in this build "
        "and no checked-in ${c}")
    endif()
  endif()
  set(${out} ${c} PARENT_SCOPE)
endfunction()
