/*
 * Platform presets for axl-xclbin link: the memory banks, the default bank
 * and the compute units' control window of the Vitis platforms users link
 * for, by the name `v++ --platform` takes, so a design linked here has the
 * MEM_TOPOLOGY v++ writes on that platform.
 *
 * The facts and where each comes from are in docs/vitis.md ("Platform
 * presets"); a fact no public material gave is marked there as derived.
 */
#ifndef AXL_XCLBIN_PLATFORM_H
#define AXL_XCLBIN_PLATFORM_H

#include <stdint.h>
#include <stdio.h>

/** A run of banks of one kind: tag[0] .. tag[count-1] at base + i *
 *  stride, or (count 0) one bank tagged `tag` itself ("HP0"). */
typedef struct axl_platform_mem {
    const char *tag;
    unsigned count;
    const char *type;      /* MEM_DDR4, MEM_HBM, ... as xclbinutil's JSON */
    uint64_t base;
    uint64_t stride;
    uint64_t size_kb;
} axl_platform_mem;

/** A reconfigurable slot of a DFX shell: the AXI4-Lite window its units'
 *  control registers sit in, and the interrupt lines it has. */
typedef struct axl_platform_slot {
    const char *name;           /* "RP_0", as the shell's design names it */
    uint64_t ctrl_base, ctrl_size;
    unsigned irq_count;
} axl_platform_slot;

/** A DFX shell: the interface UUID its partials name, and its slots. */
typedef struct axl_platform_shell {
    unsigned char interface_uuid[16];
    const axl_platform_slot *slots;
    unsigned nslots;
} axl_platform_shell;

typedef struct axl_platform {
    const char *name;           /* as v++ --platform takes it */
    const char *board;          /* boardid in the kernel XML */
    const axl_platform_mem *mems;
    unsigned nmems;
    const char *default_mem;    /* the bank an argument without sp= gets */
    uint64_t cu_base;           /* the first compute unit's control window */
    /* A DFX shell's slots: a design for it is a partial for one slot
     * (link --slot); NULL for a flat platform. */
    const axl_platform_shell *shell;
} axl_platform;

/**
 * The preset for name: a platform name, the same platform of another
 * release (xilinx_zcu102_base_202320_1 gets the xilinx_zcu102_base_202220_1
 * facts: only the date suffix differs), or an .xpfm path whose file name is
 * one. NULL when none fits.
 */
const axl_platform *axl_platform_find(const char *name);

/** The platform name of an .xpfm path (its file name without the
 *  extension), or name itself, into out. */
void axl_platform_basename(const char *name, char *out, size_t out_size);

/** Writes the presets' names, comma-separated, for messages. */
void axl_platform_names(char *out, size_t out_size);

/** The same for the presets with a shell (link --slot). */
void axl_platform_shell_names(char *out, size_t out_size);

/** The preset whose shell has this interface UUID, or NULL. */
const axl_platform *axl_platform_of_interface(const unsigned char uuid[16]);

#endif
