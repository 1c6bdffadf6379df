/*
 * The model side of streams (axl/emu.h): a model reads and writes the
 * beats of its stream arguments through the backend the device gives
 * with each stream end (axl_emu_stream_ops), and axl's stream kernels as
 * C models. What backs them on the emulated device (bounded FIFOs of the
 * design's depth, a worker per unit, deadlock found) is emu_pipe.c's, on
 * the C-model simulator sim.c's; nothing here knows which backend it has.
 */
#include <string.h>

#include "axl/emu.h"
#include "axl/runtime.h"
#include "emu_models.h"

static const axl_emu_stream *stream_of(const axl_emu_call *c, uint32_t id,
                                       bool out)
{
    for (uint32_t i = 0; c && i < c->arg_count; i++)
        if (c->args[i].id == id)
            return c->args[i].stream && c->args[i].stream->out == out
                       ? c->args[i].stream
                       : NULL;
    return NULL;
}

axl_status axl_emu_stream_read(const axl_emu_call *call, uint32_t id,
                               void *beat, bool *last)
{
    const axl_emu_stream *s = stream_of(call, id, false);
    bool l = false;
    if (!s || !beat)
        return emu_fail(AXL_ERR_KERNEL_ARGUMENT,
                        "%s: argument %u is no stream the kernel reads",
                        call ? call->kernel : "?", (unsigned)id);
    axl_status st = s->ops->read(s->ctx, beat, &l);
    if (last)
        *last = l;
    return st;
}

axl_status axl_emu_stream_write(const axl_emu_call *call, uint32_t id,
                                const void *beat, bool last)
{
    const axl_emu_stream *s = stream_of(call, id, true);
    if (!s || !beat)
        return emu_fail(AXL_ERR_KERNEL_ARGUMENT,
                        "%s: argument %u is no stream the kernel writes",
                        call ? call->kernel : "?", (unsigned)id);
    return s->ops->write(s->ctx, beat, last);
}

/* ---- axl's stream kernels (the HLS sources in bitstreams/streams) ----------------
 * Argument ids as their kernel.xml gives them. Beats are 32-bit words. */

axl_status axl_emu_model_mm2s(const axl_emu_call *call, void *user)
{
    (void)user;
    uint32_t n;
    axl_status st = axl_emu_u32(call, 2, &n);
    if (st != AXL_SUCCESS)
        return st;
    const uint32_t *src = axl_emu_buffer(call, 0, (uint64_t)n * 4);
    if (!src)
        return emu_fail(AXL_ERR_KERNEL_ARGUMENT, "mm2s: src holds fewer "
                        "than n = %u words", (unsigned)n);
    for (uint32_t i = 0; i < n && st == AXL_SUCCESS; i++)
        st = axl_emu_stream_write(call, 1, &src[i], i + 1 == n);
    return st;
}

axl_status axl_emu_model_sadd(const axl_emu_call *call, void *user)
{
    (void)user;
    uint32_t addend, w;
    bool last = false;
    axl_status st = axl_emu_u32(call, 2, &addend);
    while (st == AXL_SUCCESS && !last) {
        st = axl_emu_stream_read(call, 0, &w, &last);
        w += addend;
        if (st == AXL_SUCCESS)
            st = axl_emu_stream_write(call, 1, &w, last);
    }
    return st;
}

axl_status axl_emu_model_s2mm(const axl_emu_call *call, void *user)
{
    (void)user;
    uint32_t n;
    axl_status st = axl_emu_u32(call, 2, &n);
    if (st != AXL_SUCCESS)
        return st;
    uint32_t *dst = axl_emu_buffer(call, 1, (uint64_t)n * 4);
    if (!dst)
        return emu_fail(AXL_ERR_KERNEL_ARGUMENT, "s2mm: dst holds fewer "
                        "than n = %u words", (unsigned)n);
    for (uint32_t i = 0; i < n && st == AXL_SUCCESS; i++)
        st = axl_emu_stream_read(call, 0, &dst[i], NULL);
    return st;
}

/* Free-running: it ends only when the device stops its pipeline (the
 * read or write returns AXL_EMU_STREAM_STOPPED), which is its normal end.
 * inc is read at each beat, as the RTL reads its register: a new value
 * (axl_pipeline_update_arg) applies from the next beat. */
axl_status axl_emu_model_sinc(const axl_emu_call *call, void *user)
{
    (void)user;
    uint32_t inc = 0, w = 0;
    bool last = false; /* set by each read before its write (gcc -O2 for
                          aarch64 and the R5 could not see it) */
    axl_status st = AXL_SUCCESS;
    while (st == AXL_SUCCESS) {
        st = axl_emu_stream_read(call, 0, &w, &last);
        if (st == AXL_SUCCESS)
            st = axl_emu_u32(call, 2, &inc);
        if (st == AXL_SUCCESS) {
            w += inc;
            st = axl_emu_stream_write(call, 1, &w, last);
        }
    }
    return st == AXL_EMU_STREAM_STOPPED ? AXL_SUCCESS : st;
}
