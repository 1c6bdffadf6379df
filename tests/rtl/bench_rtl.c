/*
 * axl-bench-rtl: simulated cycles a second of the vector add's RTL
 * (bitstreams/rtl/vadd.v) under the RTL model, driven through the model
 * interface as the mmio port drives it, and the same with two units at
 * once. Prints `name value unit` lines.
 *
 *   build/default/tests/rtl/axl-bench-rtl [elements]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axl/mmio.h"
#include "axl/rtl.h"
#include "axl/xclbin.h"

#include "bench_util.h"

static const axl_mmio_model *m;
static axl_xclbin design;

static uint32_t unit(const char *name)
{
    return design_unit(&design, name);
}

static void start(uint32_t ip, uint64_t a, uint64_t b, uint64_t o, uint32_t n)
{
    uint64_t v[3] = {a, b, o};
    for (int i = 0; i < 3; i++) {
        m->wr32(m->user, ip, 0x10 + 12u * (uint32_t)i, (uint32_t)v[i]);
        m->wr32(m->user, ip, 0x14 + 12u * (uint32_t)i, (uint32_t)(v[i] >> 32));
    }
    m->wr32(m->user, ip, 0x34, n);
    m->wr32(m->user, ip, 0x00, 1);
}

int main(int argc, char **argv)
{
    uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 1u << 20;
    size_t bank = 4u * n * 4u + 4096;
    m = axl_rtl_model();
    size_t size;
    const void *bytes = axl_rtl_design(&size);
    char why[128];
    axl_status st = axl_xclbin_open(&design, bytes, size, why, sizeof why);
    if (st == AXL_ERR_FEATURE_NOT_SUPPORTED) {
        printf("skipped: a library without the xclbin reader\n");
        return 0;
    }
    if (st != AXL_SUCCESS) {
        fprintf(stderr, "design: %s\n", why);
        return 1;
    }
    axl_mmio_bank_region r[2];
    for (uint32_t i = 0; i < 2; i++) {
        axl_xclbin_mem mem;
        axl_xclbin_get_mem(&design, i, &mem);
        r[i] = (axl_mmio_bank_region){i, mem.base_address, bank,
                                      calloc(1, bank)};
    }
    uint32_t *a = r[0].host, *b = a + n, *o = r[1].host, *o2 = o + n;
    for (uint32_t i = 0; i < n; i++) {
        a[i] = i;
        b[i] = 7u * i;
    }
    if (m->attach(m->user, &design, r, 2, NULL) != AXL_SUCCESS)
        return 1;
    uint32_t u1 = unit("vadd:vadd_1"), u2 = unit("vadd:vadd_2");
    uint64_t pa = r[0].phys, pb = pa + 4ull * n, po = r[1].phys,
             po2 = po + 4ull * n;

    uint64_t c0 = axl_rtl_cycles();
    double t0 = wall(), p0 = cpu();
    start(u1, pa, pb, po, n);
    while (m->advance(m->user, u1, AXL_MMIO_MODEL_FOREVER) !=
           AXL_MMIO_MODEL_DONE)
        ;
    double t1 = wall(), p1 = cpu();
    uint64_t cycles = axl_rtl_cycles() - c0;
    m->wr32(m->user, u1, 0x00, 1u << 4); /* ap_continue */
    for (uint32_t i = 0; i < n; i++)
        if (o[i] != 8u * i) {
            fprintf(stderr, "out_r[%u] wrong\n", i);
            return 1;
        }
    printf("rtl_vadd_elements %u\n", n);
    printf("rtl_vadd_cycles %llu cycles\n", (unsigned long long)cycles);
    printf("rtl_vadd_cycles_per_element %.3f cycles\n", (double)cycles / n);
    printf("rtl_vadd_wall %.3f s\n", t1 - t0);
    printf("rtl_vadd_sim_rate %.0f cycles/s\n", (double)cycles / (t1 - t0));
    printf("rtl_vadd_sim_rate_cpu %.0f cycles/cpu-s\n",
           (double)cycles / (p1 - p0));

    c0 = axl_rtl_cycles();
    t0 = wall();
    p0 = cpu();
    start(u1, pa, pb, po, n);
    start(u2, pa, pb, po2, n);
    /* As the port waits: time, then a look at each unit (ap_done is a
     * level in ap_ctrl_chain). */
    for (uint32_t d1 = 0, d2 = 0; !d1 || !d2;) {
        m->advance(m->user, AXL_MMIO_MODEL_ANY_UNIT, AXL_MMIO_MODEL_FOREVER);
        d1 |= m->rd32(m->user, u1, 0x00) & 2u;
        d2 |= m->rd32(m->user, u2, 0x00) & 2u;
    }
    t1 = wall();
    p1 = cpu();
    cycles = axl_rtl_cycles() - c0;
    for (uint32_t i = 0; i < n; i++)
        if (o2[i] != 8u * i) {
            fprintf(stderr, "vadd_2 out_r[%u] wrong\n", i);
            return 1;
        }
    printf("rtl_vadd_two_units_cycles %llu cycles\n",
           (unsigned long long)cycles);
    printf("rtl_vadd_two_units_sim_rate %.0f cycles/s\n",
           (double)cycles / (t1 - t0));
    printf("rtl_vadd_two_units_sim_rate_cpu %.0f cycles/cpu-s\n",
           (double)cycles / (p1 - p0));
    m->detach(m->user);
    free(r[0].host);
    free(r[1].host);
    return 0;
}
