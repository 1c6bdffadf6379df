/*
 * emu_fifo.h - a stream of the design as a bounded FIFO of beats: the one
 * the emulated device (emu_pipe.c) and the mmio port's C-model simulator
 * (xrt/mmio/sim.c) put between their units' models. It moves beats only;
 * each port holds its own lock around these calls, and waits, wakes and
 * names its FIFOs in its own way.
 */
#ifndef AXL_EMU_FIFO_H
#define AXL_EMU_FIFO_H

#include <stdbool.h>
#include <stdint.h>

#include "axl/xclbin.h"

/* One stream: depth beats between the producer's port and the
 * consumer's. */
typedef struct emu_fifo {
    uint32_t prod_ip, prod_arg, cons_ip, cons_arg;
    uint32_t depth;             /* beats (2 when the design gives none) */
    uint32_t bytes;             /* a beat's TDATA bytes */
    uint32_t head, count;
    unsigned char *data;        /* depth beats */
    unsigned char *last;        /* depth TLAST flags */
    char name[72];              /* the port's: "mm2s_1.data_out->..." */
} emu_fifo;

/* The bytes of store a FIFO for s takes (its beats and their TLAST
 * flags, rounded up to 8). */
uint64_t emu_fifo_store_bytes(const axl_xclbin_stream *s);

/* f joins s's ends, empty, its beats at store (emu_fifo_store_bytes of
 * it); its name is left empty for the port to give. */
void emu_fifo_init(emu_fifo *f, const axl_xclbin_stream *s,
                   unsigned char *store);

/* Whether f has room for a beat (full: the writer's question) or holds
 * one (the reader's). */
bool emu_fifo_ready(const emu_fifo *f, bool full);

/* Takes the oldest beat (f holds one). */
void emu_fifo_pop(emu_fifo *f, void *beat, bool *last);

/* Adds a beat (f has room). */
void emu_fifo_push(emu_fifo *f, const void *beat, bool last);

#endif /* AXL_EMU_FIFO_H */
