# Fails when a firmware's link map (or its symbol table) shows the heap
# allocator. Run as:
#   cmake -DMAP=<file.map> -DELF=<file.elf> [-DNM=<nm>] [-DKEEP=1] -P this
# Without KEEP the ELF is deleted on failure, so the next build links (and
# checks) again instead of taking the bad image as up to date.
set(names "malloc|free|realloc|calloc|reallocf|memalign|sbrk|_sbrk|_malloc_r|_free_r|_realloc_r|_calloc_r|_memalign_r|_sbrk_r|_malloc_trim_r|__malloc_lock")
set(bad "")

file(STRINGS "${MAP}" lines)
foreach(line IN LISTS lines)
  string(REGEX REPLACE "[ \t]+" " " line "${line}")
  # "Archive member included to satisfy reference by file (symbol)":
  #     libc_nano.a(libc_a-mallocr.o)
  #                           foo.o (malloc)
  if(line MATCHES "\\((${names})\\)$")
    list(APPEND bad "a library member was linked for ${CMAKE_MATCH_1}: ${line}")
  # The cross reference table (--cref): a symbol at the start of a line.
  elseif(line MATCHES "^(${names}) ")
    list(APPEND bad "symbol ${CMAKE_MATCH_1} in the cross reference table")
  # An input section of the allocator in the memory map.
  elseif(line MATCHES "^ \\.text\\.(${names})( |$)")
    list(APPEND bad "section .text.${CMAKE_MATCH_1} in the memory map")
  endif()
endforeach()

if(NM)
  execute_process(COMMAND ${NM} "${ELF}" OUTPUT_VARIABLE syms RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} ${ELF} failed (${rc})")
  endif()
  string(REGEX MATCHALL "[^\n]*\n" syms "${syms}")
  foreach(line IN LISTS syms)
    if(line MATCHES " [TtWwUu] (${names})\n")
      list(APPEND bad "symbol ${CMAKE_MATCH_1} in ${ELF}")
    endif()
  endforeach()
endif()

if(bad)
  list(REMOVE_DUPLICATES bad)
  if(NOT KEEP)
    file(REMOVE "${ELF}")
  endif()
  list(JOIN bad "\n  " text)
  message(FATAL_ERROR "the firmware links the heap allocator:\n  ${text}\n"
                      "(see ${MAP})")
endif()
message(STATUS "no allocator in ${MAP}")
