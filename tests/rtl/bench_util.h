/* What the RTL benchmarks (bench_rtl.c, bench_rtl_streams.c) share: the
 * wall and CPU clocks, and a unit of the design by its IP_LAYOUT name. */
#ifndef AXL_BENCH_RTL_UTIL_H
#define AXL_BENCH_RTL_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "axl/xclbin.h"

static inline double wall(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* This process's CPU time: the rate on a machine other jobs share. */
static inline double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The IP_LAYOUT index of unit name ("vadd:vadd_1"); exits when none. */
static inline uint32_t design_unit(const axl_xclbin *design, const char *name)
{
    for (uint32_t i = 0; i < design->ip_count; i++) {
        axl_xclbin_ip ip;
        if (axl_xclbin_get_ip(design, i, &ip) == AXL_SUCCESS &&
            axl_str_eq(ip.name, name))
            return i;
    }
    fprintf(stderr, "no unit %s\n", name);
    exit(1);
}

#endif
