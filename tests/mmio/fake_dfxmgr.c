/*
 * tests/mmio/fake_dfxmgr.c - a stand-in for dfx-mgr's client library
 * (libdfx-mgr.so), for the helper's tests (xrt/mmio/dfxmgr.c): the same
 * three calls, answering as dfx-mgrd does (the lowest free slot handle
 * per load, not the slot's index; 0 or -1 per unload), recording each
 * call and failing on request. Built with FAKE_DFXMGR_OLD it is a library
 * from before 2026, whose unload is called dfxmgr_remove.
 */
#include <stdio.h>
#include <string.h>

#include "fake_dfxmgr.h"

fake_dfxmgr fake_dfxmgr_state;

static void note(const char *fmt, const char *s, int n)
{
    char line[128];
    snprintf(line, sizeof line, fmt, s, n);
    strncat(fake_dfxmgr_state.log, line,
            sizeof fake_dfxmgr_state.log - strlen(fake_dfxmgr_state.log) - 1);
}

int dfxmgr_load(char *package)
{
    fake_dfxmgr *f = &fake_dfxmgr_state;
    int h = f->fail_load;
    for (int i = 0; h == 0 && i < 8; i++)
        if (!f->held[i]) {
            f->held[i] = 1;
            h = i + 1;
        }
    h = f->fail_load ? f->fail_load : (h ? h - 1 : -3);
    note("load %s=%d;", package, h);
    return h;
}

static int unload(const char *what, int handle)
{
    fake_dfxmgr *f = &fake_dfxmgr_state;
    int rc = f->fail_unload;
    if (!rc)
        rc = handle >= 0 && handle < 8 && f->held[handle] ? 0 : -1;
    if (rc == 0)
        f->held[handle] = 0;
    char fmt[32];
    snprintf(fmt, sizeof fmt, "%s %%s%%d=%d;", what, rc);
    note(fmt, "", handle);
    return rc;
}

#if defined(FAKE_DFXMGR_OLD)
int dfxmgr_remove(int handle)
{
    return unload("remove", handle);
}
#else
int dfxmgr_unload(int handle)
{
    return unload("unload", handle);
}
#endif

char *dfxmgr_uio_by_name(char *obuf, int handle, const char *name)
{
    note("uio %s %d;", name, handle);
    if (!fake_dfxmgr_state.uio[0])
        return NULL;
    strcpy(obuf, fake_dfxmgr_state.uio);
    return obuf;
}
