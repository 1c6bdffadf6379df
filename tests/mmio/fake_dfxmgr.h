/*
 * tests/mmio/fake_dfxmgr.h - what the fake libdfx-mgr.so (fake_dfxmgr.c)
 * records and how a test steers it. The test opens the same module the
 * helper does (AXL_DFXMGR_LIB) and finds `fake_dfxmgr_state` in it with dlsym.
 */
#ifndef FAKE_DFXMGR_H
#define FAKE_DFXMGR_H

typedef struct fake_dfxmgr {
    /** Every call, in order: "load fir=0;", "unload 0=0;", "uio
     *  AccelConfig 0;" ("remove" for the old library's unload). */
    char log[1024];
    int fail_load;   /**< nonzero: dfxmgr_load returns it, loads nothing */
    int fail_unload; /**< nonzero: dfxmgr_unload returns it */
    char uio[32];    /**< what dfxmgr_uio_by_name answers, "" for NULL */
    int held[8];     /**< handles given out and not unloaded */
} fake_dfxmgr;

#endif /* FAKE_DFXMGR_H */
