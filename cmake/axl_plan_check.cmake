# The test axl_add_plan(... CHECKED_IN <copy>) adds (cmake -P): runs the
# plan's program again into FRESH and fails when COPY, the checked-in
# copy a cross build compiles, differs from it.
#   -DPROGRAM= -DNAME= [-DARGS=] -DFRESH= -DCOPY= -DBUILD=
execute_process(COMMAND ${PROGRAM} ${FRESH} ${NAME} ${ARGS}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "plan ${NAME}: ${PROGRAM} failed (${rc}):\n${out}${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${FRESH} ${COPY}
  RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  message(FATAL_ERROR "plan ${NAME}: the checked-in ${COPY} is not what "
    "${PROGRAM} writes now (${FRESH}); refresh it with\n"
    "  cmake --build ${BUILD} --target axl_plan_${NAME}_refresh\n"
    "and commit it (a cross build compiles that copy).")
endif()
message(STATUS "ok: ${COPY} is what ${PROGRAM} writes")
