/*
 * mmio_banks.h - the board's memory as the mmio port (mmio.c) and the plan
 * executor (fw_exec.c) place buffers in it (banks.c): the bank regions
 * checked once, and which of them are the same memory.
 *
 * Every ZynqMP PS port (HP0-3, HPC0-1, LPD) reaches the same PS DDR, so a
 * design linked for such a platform has several banks at one base and of
 * one size. Banks that are the same memory share one allocator: two live
 * buffers never overlap, whichever banks they were placed in
 * (DESIGN.md, "Your firmware (the board kit)").
 */
#ifndef AXL_MMIO_BANKS_H
#define AXL_MMIO_BANKS_H

#include <stdbool.h>
#include <stdint.h>

#include "axl/mmio.h"
#include "axl/xclbin.h"
#include "axl/status.h"
#include "mmio_config.h"

/* The board's regions, checked: each with the CPU's view of it. */
typedef struct mmio_memory {
    uint32_t count;
    axl_mmio_bank_region region[AXL_MMIO_BANKS]; /* host never NULL */
    /* same[i]: the first region of the same memory as region i (i itself
     * when none before it is): the one whose allocator i uses. */
    uint8_t same[AXL_MMIO_BANKS];
    uint32_t align;      /* every buffer's alignment, bytes */
} mmio_memory;

/* The design's MEM_TOPOLOGY entry `index` (false: none), through the
 * reader or a pre-digested design's table, as its caller links. */
typedef bool (*mmio_mem_fn)(const void *design, uint32_t index,
                            axl_xclbin_mem *out);

/*
 * The regions buffers go in: the board's (axl_mmio_board.banks), or with
 * none the design's used MEM_TOPOLOGY banks at their addresses (design,
 * mem_count and mem: its entries, or NULL), checked:
 *  - at most AXL_MMIO_BANKS of them, each of a nonzero size;
 *  - each with a host view: given, or (bare metal, host NULL) the
 *    physical address itself, which must then be in the CPU's address
 *    space and above the memory the CPU does not reach there (the
 *    board's cpu_reserved: the R5's TCMs at physical 0); a model build
 *    needs every host view given (the model reads the bytes there);
 *  - any two either the same memory (the same physical base and size and
 *    the same host view: they share one allocator) or apart, both
 *    physically and in the CPU's view;
 *  - the board's alignment a power of two of at least 64 bytes.
 * A refusal's message (fn first) names the bank (its tag when the design
 * is given) and the fix; *out is then not to be used.
 */
axl_status axl__mmio_memory(const char *fn, const axl_mmio_board *bd,
                            const void *design, uint32_t mem_count,
                            mmio_mem_fn mem, mmio_memory *out);

/* mmio_mem_fn over a pre-digested design (an axl_xclbin_design: no
 * reader), and over an opened axl_xclbin (mmio.c: the reader's). */
bool axl__mmio_digest_mem(const void *design, uint32_t index,
                          axl_xclbin_mem *out);
bool axl__mmio_reader_mem(const void *design, uint32_t index,
                          axl_xclbin_mem *out);

/* The region of MEM_TOPOLOGY bank `bank` in m, or -1. */
int axl__mmio_region_of(const mmio_memory *m, uint32_t bank);

#endif /* AXL_MMIO_BANKS_H */
