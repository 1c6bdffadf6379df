# xrt/native/xrt.cmake - finds XRT 2.13 (headers and libxrt_coreutil) for
# the XRT device port and defines axl_add_xrt_port(). Included by the
# port's CMakeLists.txt, by boards that list the port, and by tests/xrt.
#
#   AXL_WITH_XRT=AUTO  (default) build the port when XRT is found
#   AXL_WITH_XRT=ON    XRT must be found (the configure fails otherwise)
#   AXL_WITH_XRT=OFF   never
#
# Sets AXL_XRT_FOUND, AXL_XRT_INCLUDE_DIR (the folder holding xrt/,
# experimental/ and xrt.h), AXL_XRT_COREUTIL_LIBRARY and, when the noop
# shim is installed, AXL_XRT_NOOP_SHIM (what CI runs the port on).
#
# The port links libxrt_coreutil only: libxrt_core (which Debian's xrt.pc
# also lists) is the shim XRT loads by itself from $XILINX_XRT/lib, and
# linking it too makes XRT refuse with "Multiple instances of XRT core shim
# library detected" (core/common/system.cpp).
include_guard(GLOBAL)

set(AXL_WITH_XRT AUTO CACHE STRING
    "XRT device port on boards that can have it: AUTO, ON or OFF")
set_property(CACHE AXL_WITH_XRT PROPERTY STRINGS AUTO ON OFF)
set(AXL_XRT_PORT_DIR ${CMAKE_CURRENT_LIST_DIR})
set(AXL_XRT_FOUND FALSE)

if(NOT AXL_WITH_XRT STREQUAL "OFF")
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(AXL_XRT_PC QUIET xrt)
  endif()
  # Debian's xrt.pc says prefix=/usr//usr: search the usual places too.
  find_path(AXL_XRT_INCLUDE_DIR xrt/xrt_kernel.h
            HINTS ${AXL_XRT_PC_INCLUDE_DIRS} ${AXL_XRT_PC_INCLUDEDIR}
            PATHS /opt/xilinx/xrt/include PATH_SUFFIXES xrt)
  find_library(AXL_XRT_COREUTIL_LIBRARY xrt_coreutil
               HINTS ${AXL_XRT_PC_LIBRARY_DIRS} ${AXL_XRT_PC_LIBDIR}
               PATHS /opt/xilinx/xrt/lib)
  if(AXL_XRT_INCLUDE_DIR AND AXL_XRT_COREUTIL_LIBRARY)
    set(AXL_XRT_FOUND TRUE)
    get_filename_component(_axl_xrt_libdir ${AXL_XRT_COREUTIL_LIBRARY}
                           DIRECTORY)
    find_file(AXL_XRT_NOOP_SHIM libxrt_noop.so.2
              HINTS ${_axl_xrt_libdir} PATHS /opt/xilinx/xrt/lib
              NO_DEFAULT_PATH)
  elseif(AXL_WITH_XRT STREQUAL "ON")
    message(FATAL_ERROR
      "AXL_WITH_XRT=ON, but XRT was not found (xrt/xrt_kernel.h: "
      "${AXL_XRT_INCLUDE_DIR}; libxrt_coreutil: ${AXL_XRT_COREUTIL_LIBRARY}). "
      "Install libxrt-dev (Debian 12) or XRT 2.13 in /opt/xilinx/xrt.")
  endif()
endif()

# axl_add_xrt_port(<target> OBJECT|STATIC): the port's sources as a library.
function(axl_add_xrt_port target kind)
  add_library(${target} ${kind}
    ${AXL_XRT_PORT_DIR}/xrt_api.c
    ${AXL_XRT_PORT_DIR}/xrt_env.c
    ${AXL_XRT_PORT_DIR}/xrt_interop.c
    ${AXL_XRT_PORT_DIR}/xrt_ip.c
    ${AXL_XRT_PORT_DIR}/xrt_mem.c
    ${AXL_XRT_PORT_DIR}/xrt_noop.c
    ${AXL_XRT_PORT_DIR}/xrt_run.c
    ${AXL_XRT_PORT_DIR}/xrt_swap.c
    ${AXL_XRT_PORT_DIR}/xrt_port.c)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/include
    ${AXL_BOARD_DIR} ${AXL_XRT_PORT_DIR})
  # XRT's headers are not -pedantic clean.
  target_include_directories(${target} SYSTEM PRIVATE ${AXL_XRT_INCLUDE_DIR})
  target_compile_definitions(${target} PRIVATE _POSIX_C_SOURCE=200809L)
endfunction()
