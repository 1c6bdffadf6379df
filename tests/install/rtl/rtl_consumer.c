/* The vector add's RTL from an .xo, as compute units: both units of the
 * design (vadd2.cfg) add 4096 elements at once through the RTL model. */
#include <stdio.h>
#include <string.h>

#include <axl/mmio.h>
#include <axl/rtl.h>
#include <axl/xclbin.h>

enum { N = 4096, BANK = 1 << 16 };
static _Alignas(64) unsigned char bank0[BANK];

static void put64(const axl_mmio_model *m, uint32_t ip, uint32_t off,
                  uint64_t v)
{
    m->wr32(m->user, ip, off, (uint32_t)v);
    m->wr32(m->user, ip, off + 4, (uint32_t)(v >> 32));
}

int main(void)
{
    const axl_mmio_model *m = axl_rtl_model();
    size_t size;
    const void *bytes = axl_rtl_design(&size);
    axl_xclbin d;
    char why[128];
    axl_status st = bytes ? axl_xclbin_open(&d, bytes, size, why, sizeof why)
                          : AXL_ERR_INVALID;
    if (st == AXL_ERR_FEATURE_NOT_SUPPORTED) {
        printf("rtl: skipped, a library without the xclbin reader\n");
        return 0;
    }
    if (st != AXL_SUCCESS) {
        printf("rtl: no design\n");
        return 1;
    }
    axl_xclbin_mem mem;
    axl_xclbin_get_mem(&d, 0, &mem);
    axl_mmio_bank_region r = {0, mem.base_address, BANK, bank0};
    if (m->attach(m->user, &d, &r, 1, NULL) != AXL_SUCCESS)
        return 1;
    uint32_t *a = (uint32_t *)(void *)bank0, *b = a + N, *s = b + N;
    for (uint32_t i = 0; i < N; i++) {
        a[i] = i;
        b[i] = 1000u * i;
    }
    for (uint32_t ip = 0; ip < 2; ip++) {
        put64(m, ip, 0x10, r.phys + 2048u * ip);
        put64(m, ip, 0x1C, r.phys + 4u * N + 2048u * ip);
        put64(m, ip, 0x28, r.phys + 8u * N + 2048u * ip);
        m->wr32(m->user, ip, 0x34, 512);
        m->wr32(m->user, ip, 0x00, 1);
    }
    for (uint32_t d0 = 0, d1 = 0; !d0 || !d1;) {
        m->advance(m->user, AXL_MMIO_MODEL_ANY_UNIT, AXL_MMIO_MODEL_FOREVER);
        d0 |= m->rd32(m->user, 0, 0x00) & 2u; /* ap_done, a level here */
        d1 |= m->rd32(m->user, 1, 0x00) & 2u;
    }
    for (uint32_t i = 0; i < 1024; i++)
        if (s[i] != 1001u * i) {
            printf("rtl: sum[%u] = %u\n", i, s[i]);
            return 1;
        }
    printf("rtl: %s, 2 units of vadd at %u MHz, sums right in %llu ns\n",
           m->name, (unsigned)axl_rtl_clock_mhz(),
           (unsigned long long)m->now_ns(m->user));
    m->detach(m->user);
    return axl_rtl_clock_mhz() == 250 ? 0 : 1;
}
