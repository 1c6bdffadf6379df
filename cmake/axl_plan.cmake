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
# `const axl_plan <symbol>`, written by every build (the target
# axl_plan_<symbol> is part of ALL): list it among a target's sources in
# the same folder to compile it.
#
# A cross build for the board cannot run the program: it compiles a copy
# kept in the source tree. CHECKED_IN <copy.c> names that copy and adds
# a test, plan_<symbol>_checked_in_copy_is_current, that runs the program
# again and fails when the copy differs, printing the command that
# refreshes it (the target axl_plan_<symbol>_refresh, which writes the
# copy). That test needs testing enabled (enable_testing() or
# include(CTest) in the top-level CMakeLists.txt): without it configuring
# fails, saying so.
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
  # Built by default: the plan is written at build time whether or not a
  # target lists OUTPUT among its sources.
  add_custom_target(axl_plan_${P_NAME} ALL DEPENDS ${out})
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
    # ctest runs that test only where testing is enabled: checked once
    # the whole project is read (enable_testing() may come later).
    # (A deferred call's arguments are read when it runs: EVAL fixes them.)
    cmake_language(EVAL CODE "cmake_language(DEFER DIRECTORY \
      [[${CMAKE_SOURCE_DIR}]] CALL _axl_plan_needs_testing [[${P_NAME}]] \
      [[${CMAKE_CURRENT_SOURCE_DIR}]])")
  endif()
endfunction()

function(_axl_plan_needs_testing name dir)
  get_directory_property(here DIRECTORY ${dir} DEFINITION
                         CMAKE_TESTING_ENABLED)
  get_directory_property(top DIRECTORY ${CMAKE_SOURCE_DIR} DEFINITION
                         CMAKE_TESTING_ENABLED)
  if(NOT here OR NOT top)
    message(FATAL_ERROR "axl_add_plan(NAME ${name} CHECKED_IN ...) adds the "
      "test plan_${name}_checked_in_copy_is_current, which keeps the "
      "checked-in copy current; ctest sees it only with testing enabled: "
      "add enable_testing() (or include(CTest)) to the top-level "
      "CMakeLists.txt, before add_subdirectory() of ${dir}")
  endif()
endfunction()
