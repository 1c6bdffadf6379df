/*
 * emu_fifo.c - the bounded FIFO of beats behind a stream (emu_fifo.h),
 * linked by the emulated device and by the mmio port's C-model simulator.
 */
#include "emu_fifo.h"

#include <string.h>

static uint32_t beat_bytes(const axl_xclbin_stream *s)
{
    return ((s->width_bits ? s->width_bits : 32u) + 7u) / 8u;
}

static uint32_t depth_of(const axl_xclbin_stream *s)
{
    return s->fifo_depth ? s->fifo_depth : 2u;
}

uint64_t emu_fifo_store_bytes(const axl_xclbin_stream *s)
{
    const uint64_t beats = depth_of(s);
    return (beats * (beat_bytes(s) + 1u) + 7u) & ~(uint64_t)7u;
}

void emu_fifo_init(emu_fifo *f, const axl_xclbin_stream *s,
                   unsigned char *store)
{
    memset(f, 0, sizeof *f);
    f->prod_ip = s->producer_ip;
    f->prod_arg = s->producer_arg;
    f->cons_ip = s->consumer_ip;
    f->cons_arg = s->consumer_arg;
    f->bytes = beat_bytes(s);
    f->depth = depth_of(s);
    f->data = store;
    f->last = store + (uint64_t)f->depth * f->bytes;
}

bool emu_fifo_ready(const emu_fifo *f, bool full)
{
    return full ? f->count < f->depth : f->count > 0;
}

void emu_fifo_pop(emu_fifo *f, void *beat, bool *last)
{
    memcpy(beat, f->data + (uint64_t)f->head * f->bytes, f->bytes);
    *last = f->last[f->head] != 0;
    f->head = f->head + 1u == f->depth ? 0u : f->head + 1u;
    f->count--;
}

void emu_fifo_push(emu_fifo *f, const void *beat, bool last)
{
    uint32_t at = f->head + f->count;
    if (at >= f->depth)
        at -= f->depth;
    memcpy(f->data + (uint64_t)at * f->bytes, beat, f->bytes);
    f->last[at] = last ? 1u : 0u;
    f->count++;
}
