/*
 * bench_check.h - the benchmarks' CHECK: a call that fails stops the
 * program with its status and message (a benchmark has no test runner
 * to report to; the figures of a run with a failed call mean nothing).
 */
#ifndef AXL_BENCH_CHECK_H
#define AXL_BENCH_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#include "axl/axl.h"

#define CHECK(call)                                                            \
    do {                                                                       \
        axl_status st_ = (call);                                               \
        if (st_ != AXL_SUCCESS) {                                              \
            fprintf(stderr, "%s: %s: %s\n", #call, axl_status_name(st_),       \
                    axl_last_message());                                       \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

#endif /* AXL_BENCH_CHECK_H */
