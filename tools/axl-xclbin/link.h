/*
 * axl-xclbin link: an image from what a Vitis user has, instead of
 * hand-written section JSON: the `v++ --link --config` files (their
 * [connectivity] nk=, sp=, slr= and [clock] keys) and each kernel's HLS
 * kernel.xml (the one inside the .xo, `<root><kernel>...`).
 *
 * The image gets what v++ would write for the same config on the
 * platform: a preset (platform.h) named by --platform or by the config's
 * platform=, else axl's own (--banks N DDR banks tagged bank<i>), in the
 * order v++ writes it:
 *   MEM_TOPOLOGY  every bank of the platform, m_used 1 for those an
 *                 argument reaches;
 *   IP_LAYOUT     one IP_KERNEL per compute unit, "kernel:cu", kernels in
 *                 the order of the kernel files, units in nk= order, at
 *                 consecutive 64 KiB control windows from the platform's
 *                 base, interrupt ids in that order;
 *   CONNECTIVITY  per unit (IP_LAYOUT order), per memory argument (id
 *                 order), one entry per bank its sp= names (a bank's tag
 *                 DDR[0], PLRAM[1], HBM[3], HOST[0], HP0; a range
 *                 HBM[0:3] names several; bank<i> is DDR[i]; no sp=: the
 *                 platform's default bank);
 *   CLOCK_FREQ_TOPOLOGY  DATA_CLK at the kernel clock in whole MHz
 *                 ([clock] freqHz= or defaultFreqHz= in Hz, or
 *                 kernel_frequency= in MHz, decimals allowed; 300 MHz when
 *                 none) and KERNEL_CLK at 500 MHz;
 *   EMBEDDED_METADATA  the kernels' XML with one <instance> per unit and
 *                 the exact clocks in <kernelClocks>.
 * On a DFX shell (k26_2rp) the image is a partial for one slot (slot in
 * the options): control windows from the slot's base, m_mode XCLBIN_PR
 * and the shell's interface UUID in the header.
 */
#ifndef AXL_XCLBIN_LINK_H
#define AXL_XCLBIN_LINK_H

#include <stddef.h>

typedef struct axl_link_options {
    const char *const *configs;  /* v++ config files */
    unsigned nconfigs;
    const char *const *kernels;  /* kernel.xml files */
    unsigned nkernels;
    unsigned banks;              /* DDR banks of axl's own platform
                                    (0: 4); refused with a preset */
    const char *uuid;            /* NULL: derived from the inputs */
    const char *platform;        /* a preset's name or .xpfm path; NULL:
                                    platform= of the config (a preset's
                                    banks when it names one), else
                                    axl_emu */
    int slot;                    /* -1: a design for the whole device;
                                    else a partial for this slot of the
                                    platform's DFX shell (k26_2rp): mode
                                    XCLBIN_PR, the shell's interface UUID,
                                    units in the slot's control window,
                                    interrupt ids below its line count,
                                    the slot in the UUID's inputs */
    int all_slots;               /* the caller links every slot in turn
                                    (--slot all): a fixed --uuid is refused */
    unsigned *nslots;            /* out when not NULL: the platform's slots
                                    (0: none), set even on failure */
} axl_link_options;

/** Builds the image; 0 and a malloc'd image, or -1 with a reason in err. */
int axl_link(const axl_link_options *o, unsigned char **out, size_t *out_size,
             char *err, size_t err_size);

#endif
