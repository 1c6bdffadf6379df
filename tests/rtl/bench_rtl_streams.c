/*
 * axl-bench-rtl-streams: simulated cycles a second of the three-kernel
 * stream pipeline mm2s -> sadd -> s2mm (bitstreams/rtl, joined by the
 * testbench through the FIFOs of bitstreams/streams.xclbin), driven
 * through the model interface as the mmio port drives it. Prints
 * `name value unit` lines; exits 1 when the sums are wrong.
 *
 *   build/default/tests/rtl/axl-bench-rtl-streams [words]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axl/mmio.h"
#include "axl/rtl.h"
#include "axl/xclbin.h"

#include "bench_util.h"

#include "axl_rtl_streams_xclbin.h"

static const axl_mmio_model *m;
static axl_xclbin design;

static uint32_t unit(const char *name)
{
    return design_unit(&design, name);
}

static void start(uint32_t ip, uint64_t addr, uint32_t n)
{
    m->wr32(m->user, ip, 0x10, (uint32_t)addr);
    m->wr32(m->user, ip, 0x14, (uint32_t)(addr >> 32));
    m->wr32(m->user, ip, 0x1C, n);
    m->wr32(m->user, ip, 0x00, 1);
}

static void isr(uint32_t ip)
{
    (void)ip;
}

int main(int argc, char **argv)
{
    uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 100000;
    size_t bytes = (size_t)n * 4;
    uint8_t *bank = calloc(1, 2 * bytes + 4096);
    char why[160];
    if (!bank || axl_xclbin_open(&design, axl_rtl_streams_xclbin,
                                 axl_rtl_streams_xclbin_size, why,
                                 sizeof why) != AXL_SUCCESS) {
        fprintf(stderr, "setup: %s\n", bank ? why : "out of memory");
        return 1;
    }
    axl_xclbin_mem mem;
    axl_xclbin_get_mem(&design, 0, &mem);
    axl_mmio_bank_region r = {0, mem.base_address, 2 * bytes + 4096, bank};
    m = axl_rtl_model();
    if (m->attach(m->user, &design, &r, 1, isr) != AXL_SUCCESS)
        return 1;
    uint32_t *src = (uint32_t *)(void *)bank;
    for (uint32_t i = 0; i < n; i++)
        src[i] = i * 2654435761u;
    uint32_t mm2s = unit("mm2s:mm2s_1"), sadd = unit("sadd:sadd_1"),
             s2mm = unit("s2mm:s2mm_1");
    uint64_t c0 = axl_rtl_cycles();
    double w0 = wall(), p0 = cpu();
    start(s2mm, mem.base_address + bytes, n);
    m->wr32(m->user, sadd, 0x10, 3);
    m->wr32(m->user, sadd, 0x00, 1);
    start(mm2s, mem.base_address, n);
    while (!(m->rd32(m->user, s2mm, 0x00) & 2))
        if (m->advance(m->user, s2mm, AXL_MMIO_MODEL_FOREVER) ==
            AXL_MMIO_MODEL_ERROR)
            return 1;
    double w = wall() - w0, p = cpu() - p0;
    uint64_t cycles = axl_rtl_cycles() - c0;
    const uint32_t *dst = (const uint32_t *)(const void *)(bank + bytes);
    for (uint32_t i = 0; i < n; i++)
        if (dst[i] != src[i] + 3) {
            fprintf(stderr, "dst[%u] = 0x%x, want 0x%x\n", i, dst[i],
                    src[i] + 3);
            return 1;
        }
    printf("rtl_stream_pipeline_words %u words\n", n);
    printf("rtl_stream_pipeline_cycles %llu cycles\n",
           (unsigned long long)cycles);
    printf("rtl_stream_pipeline_cycles_per_word %.3f cycles\n",
           (double)cycles / n);
    printf("rtl_stream_pipeline_sim_rate %.0f cycles/s (wall)\n",
           cycles / (w > 0 ? w : 1e-9));
    printf("rtl_stream_pipeline_sim_rate_cpu %.0f cycles/s (cpu)\n",
           cycles / (p > 0 ? p : 1e-9));
    m->detach(m->user);
    free(bank);
    return 0;
}
