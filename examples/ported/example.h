/* example.h - what the four ported examples share, as the originals share
 * cmdlineparser.h and xcl2.hpp: a check that says which call failed and
 * why (axl_last_message), and ends the program. */
#ifndef EXAMPLE_H
#define EXAMPLE_H
#include <stdio.h>
#include "axl/axl.h"
#define CHECK(call)                                                            \
    do {                                                                       \
        if ((call) != AXL_SUCCESS) {                                           \
            fprintf(stderr, "%s: %s\n", #call, axl_last_message());            \
            return 1;                                                          \
        }                                                                      \
    } while (0)
#endif
