/*
 * axl_plan_file.c - axl_plan_write_file (axl/plan.h): a plan's C source
 * into a file, on a hosted OS (the POSIX port's; a bare-metal build, with
 * no file system, has no such call).
 *
 * The text is measured, formatted into memory (this port may allocate;
 * the core does not) and written to "<path>.tmp", which is then renamed
 * over path: a build that runs the plan's program never sees half a
 * file.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axl/hal.h"
#include "axl/plan.h"
#include "axl/runtime.h"

static const char fn[] = "axl_plan_write_file";

/* axl_plan_write's failure, said again as this call's. */
static axl_status again(axl_status st)
{
    char was[AXL_MESSAGE_MAX];
    const char *m = axl_last_message();
    const char *colon = strstr(m, ": ");
    axl_format(was, sizeof was, "%s", colon ? colon + 2 : m);
    return axl_fail(st, "%s: %s", fn, was);
}

axl_status axl_plan_write_file(axl_graph_exec x, const char *name,
                               const char *path)
{
    return axl_plan_write_file_named(x, name, NULL, 0, path);
}

axl_status axl_plan_write_file_named(axl_graph_exec x, const char *name,
                                     const axl_plan_name *names,
                                     uint32_t count, const char *path)
{
    if (!path)
        return axl_fail(AXL_ERR_INVALID, "%s: path must not be NULL", fn);
    size_t n = 0;
    axl_status st = axl_plan_write_named(x, name, names, count, NULL, 0, &n);
    if (st != AXL_SUCCESS)
        return again(st);
    char *text = malloc(n + 1);
    if (!text)
        return axl_fail(AXL_ERR_OUT_OF_RESOURCES,
                        "%s: no memory for the plan's %zu bytes", fn, n);
    st = axl_plan_write_named(x, name, names, count, text, n + 1, NULL);
    if (st != AXL_SUCCESS) {
        free(text);
        return again(st);
    }
    size_t plen = strlen(path);
    char *tmp = malloc(plen + sizeof ".tmp");
    if (!tmp) {
        free(text);
        return axl_fail(AXL_ERR_OUT_OF_RESOURCES, "%s: no memory", fn);
    }
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp", sizeof ".tmp");
    FILE *f = fopen(tmp, "wb");
    int err = f ? 0 : errno;
    if (f) {
        if (fwrite(text, 1, n, f) != n)
            err = errno ? errno : EIO;
        if (fclose(f) != 0 && !err)
            err = errno;
        if (!err && rename(tmp, path) != 0)
            err = errno;
        if (err)
            remove(tmp);
    }
    free(text);
    free(tmp);
    if (err)
        return axl_fail(AXL_ERR_RUNTIME, "%s: cannot write %s: %s", fn, path,
                        strerror(err));
    return AXL_SUCCESS;
}
