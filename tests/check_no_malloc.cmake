# Fails when the core library refers to the heap allocator (DESIGN.md: the
# core never calls malloc). Run as: cmake -DNM=nm -DLIB=libaxl_core.a -P this
execute_process(COMMAND ${NM} -u ${LIB} OUTPUT_VARIABLE undefined
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} -u ${LIB} failed (${rc})")
endif()
string(REGEX MATCHALL "[^\n]*\n" lines "${undefined}")
set(bad "")
foreach(line IN LISTS lines)
  if(line MATCHES "[ \t](malloc|calloc|realloc|free|strdup|strndup|aligned_alloc|posix_memalign|_sbrk|sbrk)\n")
    string(STRIP "${line}" line)
    list(APPEND bad "${line}")
  endif()
endforeach()
if(bad)
  message(FATAL_ERROR "the core refers to the allocator: ${bad}")
endif()
message(STATUS "core: no allocator reference in ${LIB}")
