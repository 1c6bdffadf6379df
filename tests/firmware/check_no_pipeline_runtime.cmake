# Fails when a firmware that never creates a pipeline links pipeline.c's
# runtime: its calls reach the scheduler through the table that
# axl_pipeline_create sets (core/pipeline_priv.h), so with --gc-sections
# only the launch check, which refuses a stream argument in any build,
# may come from pipeline.c. Run as:
#   cmake -DMAP=<file.map> -P this
file(STRINGS "${MAP}" lines)
set(in_map FALSE)
set(section "")
set(bad "")
foreach(line IN LISTS lines)
  if(line MATCHES "^Linker script and memory map")
    set(in_map TRUE)
  elseif(in_map)
    # " .text.name" alone on its line, then its address, size and file;
    # or all of it on one line.
    if(line MATCHES "^ (\\.[^ ]+)$")
      set(section "${CMAKE_MATCH_1}")
    elseif(line MATCHES "^ (\\.[^ ]+) +0x")
      set(section "${CMAKE_MATCH_1}")
    endif()
    if(line MATCHES "\\(pipeline\\.c\\.o(bj)?\\)$" AND
       section MATCHES "^\\.text\\.(on_|release_held|fail_held|axl_pipeline_)")
      list(APPEND bad "${section}")
    endif()
  endif()
endforeach()
if(bad)
  list(REMOVE_DUPLICATES bad)
  string(REPLACE ";" ", " bad "${bad}")
  message(FATAL_ERROR "${MAP}: a firmware that creates no pipeline links "
                      "pipeline.c's runtime: ${bad}")
endif()
