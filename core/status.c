/*
 * status.c - names of statuses and their SYCL errc values.
 */
#include "axl/status.h"

typedef struct status_row {
    axl_status status;
    axl_errc errc;
    const char *name;
} status_row;

static const status_row rows[] = {
    {AXL_SUCCESS, AXL_ERRC_SUCCESS, "AXL_SUCCESS"},
    {AXL_ERR_RUNTIME, AXL_ERRC_RUNTIME, "AXL_ERR_RUNTIME"},
    {AXL_ERR_KERNEL, AXL_ERRC_KERNEL, "AXL_ERR_KERNEL"},
    {AXL_ERR_ACCESSOR, AXL_ERRC_ACCESSOR, "AXL_ERR_ACCESSOR"},
    {AXL_ERR_ND_RANGE, AXL_ERRC_ND_RANGE, "AXL_ERR_ND_RANGE"},
    {AXL_ERR_EVENT, AXL_ERRC_EVENT, "AXL_ERR_EVENT"},
    {AXL_ERR_KERNEL_ARGUMENT, AXL_ERRC_KERNEL_ARGUMENT,
     "AXL_ERR_KERNEL_ARGUMENT"},
    {AXL_ERR_BUILD, AXL_ERRC_BUILD, "AXL_ERR_BUILD"},
    {AXL_ERR_INVALID, AXL_ERRC_INVALID, "AXL_ERR_INVALID"},
    {AXL_ERR_MEMORY_ALLOCATION, AXL_ERRC_MEMORY_ALLOCATION,
     "AXL_ERR_MEMORY_ALLOCATION"},
    {AXL_ERR_PLATFORM, AXL_ERRC_PLATFORM, "AXL_ERR_PLATFORM"},
    {AXL_ERR_PROFILING, AXL_ERRC_PROFILING, "AXL_ERR_PROFILING"},
    {AXL_ERR_FEATURE_NOT_SUPPORTED, AXL_ERRC_FEATURE_NOT_SUPPORTED,
     "AXL_ERR_FEATURE_NOT_SUPPORTED"},
    {AXL_ERR_KERNEL_NOT_SUPPORTED, AXL_ERRC_KERNEL_NOT_SUPPORTED,
     "AXL_ERR_KERNEL_NOT_SUPPORTED"},
    {AXL_ERR_BACKEND_MISMATCH, AXL_ERRC_BACKEND_MISMATCH,
     "AXL_ERR_BACKEND_MISMATCH"},
    {AXL_ERR_INVALID_OBJECT, AXL_ERRC_INVALID, "AXL_ERR_INVALID_OBJECT"},
    {AXL_ERR_OUT_OF_RESOURCES, AXL_ERRC_MEMORY_ALLOCATION,
     "AXL_ERR_OUT_OF_RESOURCES"},
    {AXL_ERR_BAD_STATE, AXL_ERRC_INVALID, "AXL_ERR_BAD_STATE"},
    {AXL_ERR_TIMEOUT, AXL_ERRC_RUNTIME, "AXL_ERR_TIMEOUT"},
};

static const status_row *find(axl_status s)
{
    for (unsigned i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i].status == s)
            return &rows[i];
    return 0;
}

axl_errc axl_status_errc(axl_status status)
{
    const status_row *r = find(status);
    return r ? r->errc : AXL_ERRC_RUNTIME;
}

const char *axl_status_name(axl_status status)
{
    const status_row *r = find(status);
    return r ? r->name : "AXL_ERR_(unknown)";
}
