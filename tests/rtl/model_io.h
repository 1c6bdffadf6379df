/* What the RTL model's tests (test_rtl_model.c, test_rtl_streams.c)
 * share: the model (axl_rtl_model(), set by each test's setup) and its
 * control-space accesses as the mmio port makes them. */
#ifndef AXL_TEST_RTL_MODEL_IO_H
#define AXL_TEST_RTL_MODEL_IO_H

#include <stdint.h>

#include "axl/mmio_model.h"

static const axl_mmio_model *m;

static inline uint32_t rd(uint32_t ip, uint32_t off)
{
    return m->rd32(m->user, ip, off);
}

static inline void wr(uint32_t ip, uint32_t off, uint32_t v)
{
    m->wr32(m->user, ip, off, v);
}

/* A 64-bit argument: low word, then high word. */
static inline void wr64(uint32_t ip, uint32_t off, uint64_t v)
{
    wr(ip, off, (uint32_t)v);
    wr(ip, off + 4, (uint32_t)(v >> 32));
}

#endif
