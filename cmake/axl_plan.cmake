# axl_add_plan(): a plan (include/axl/plan.h) written at build time by a
# small program of the project's own, run on the build machine.
#
#   axl_add_plan(NAME <symbol> OUTPUT <file.c>
#                SOURCES <program.c>... [LIBRARIES <lib>...]
#                | PROGRAM <target>
#                [ARGS <arg>...] [CHECKED_IN <copy.c>])
#
# The program, built against axl (SOURCES, linked with axl and LIBRARIES;
# or an executable target of the project's, PROGRAM, so one program can
# write several plans), is run as
#
#     <program> <output path> <symbol> [ARGS...]
#
# and does what the firmware will do, once, with the full runtime and the
# board's design on the emulated device: records the graph, finalizes it
# (every rule is checked there) and calls
# axl_plan_write_file(x, argv[2], argv[1]); a failure's message and a
# nonzero exit fail the build. OUTPUT (relative paths are in the current
# binary folder) is then a generated C source defining
# `const axl_plan <symbol>`: list it among a target's sources in the same
# folder, or build the target axl_plan_<symbol> alone.
#
# A cross build for the board cannot run the program: it compiles a copy
# kept in the source tree. CHECKED_IN <copy.c> names that copy and adds
# a test, plan_<symbol>_checked_in_copy_is_current, that runs the program
# again and fails when the copy differs, printing the command that
# refreshes it (the target axl_plan_<symbol>_refresh, which writes the
# copy).
#
# Host builds only (the program runs where it is built): in a cross
# build, axl_add_plan is an error.

set(_AXL_PLAN_DIR ${CMAKE_CURRENT_LIST_DIR})

function(axl_add_plan)
  cmake_parse_arguments(P "" "NAME;OUTPUT;PROGRAM;CHECKED_IN"
                        "SOURCES;LIBRARIES;ARGS" ${ARGN})
  if(NOT P_NAME OR NOT P_OUTPUT)
    message(FATAL_ERROR "axl_add_plan: NAME and OUTPUT are required")
  endif()
  if(NOT P_NAME MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "axl_add_plan: NAME ${P_NAME} is not a C identifier")
  endif()
  if(P_PROGRAM AND P_SOURCES OR NOT P_PROGRAM AND NOT P_SOURCES)
    message(FATAL_ERROR "axl_add_plan(${P_NAME}): give SOURCES (a program "
                        "to build) or PROGRAM (an executable target)")
  endif()
  if(CMAKE_CROSSCOMPILING)
    message(FATAL_ERROR "axl_add_plan(${P_NAME}): a plan is written by a "
      "program that runs where it is built; in a cross build, compile a "
      "copy written by a host build (CHECKED_IN keeps it current)")
  endif()
  set(prog ${P_PROGRAM})
  if(NOT prog)
    set(prog axl_plan_${P_NAME}_writer)
    add_executable(${prog} ${P_SOURCES})
    if(TARGET axl::axl)
      target_link_libraries(${prog} PRIVATE axl::axl)
    else()
      target_link_libraries(${prog} PRIVATE axl)
    endif()
    if(P_LIBRARIES)
      target_link_libraries(${prog} PRIVATE ${P_LIBRARIES})
    endif()
  endif()
  get_filename_component(out ${P_OUTPUT} ABSOLUTE
                         BASE_DIR ${CMAKE_CURRENT_BINARY_DIR})
  add_custom_command(OUTPUT ${out}
    COMMAND ${prog} ${out} ${P_NAME} ${P_ARGS}
    DEPENDS ${prog}
    COMMENT "Writing plan ${P_NAME} (${P_OUTPUT})" VERBATIM)
  add_custom_target(axl_plan_${P_NAME} DEPENDS ${out})
  if(P_CHECKED_IN)
    get_filename_component(copy ${P_CHECKED_IN} ABSOLUTE
                           BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    add_custom_target(axl_plan_${P_NAME}_refresh
      COMMAND ${CMAKE_COMMAND} -E copy ${out} ${copy}
      DEPENDS ${out}
      COMMENT "Refreshing ${copy} (plan ${P_NAME})" VERBATIM)
    add_test(NAME plan_${P_NAME}_checked_in_copy_is_current
      COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:${prog}>
              -DNAME=${P_NAME} "-DARGS=${P_ARGS}"
              -DFRESH=${CMAKE_CURRENT_BINARY_DIR}/${P_NAME}_fresh.c
              -DCOPY=${copy} -DBUILD=${CMAKE_BINARY_DIR}
              -P ${_AXL_PLAN_DIR}/axl_plan_check.cmake)
    set_tests_properties(plan_${P_NAME}_checked_in_copy_is_current PROPERTIES LABELS plan)
  endif()
endfunction()
