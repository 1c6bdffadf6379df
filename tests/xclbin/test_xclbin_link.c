/*
 * axl-xclbin link against the hand-written sections: the stock design
 * written as a v++ link config and HLS kernel.xml files
 * (bitstreams/stock/vitis/) links to the same MEM_TOPOLOGY, IP_LAYOUT,
 * CONNECTIVITY and CLOCK_FREQ_TOPOLOGY bytes as stock.xclbin (packed from
 * the section JSON), and to the same kernels and arguments.
 *
 * Usage: test_xclbin_link LINKED.xclbin PACKED.xclbin
 */
#include "../support/axl_reader_skip.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axl/xclbin.h"

static int failures;

static unsigned char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *p = n > 0 ? malloc((size_t)n) : NULL;
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return p;
}

static void same_range(const char *what, const axl_xclbin *a,
                       axl_xclbin_range ra, const axl_xclbin *b,
                       axl_xclbin_range rb)
{
    if (ra.size != rb.size ||
        memcmp(a->data + ra.offset, b->data + rb.offset, ra.size) != 0) {
        fprintf(stderr, "%s: the linked section (%zu bytes) differs from "
                "the packed one (%zu bytes)\n", what, ra.size, rb.size);
        failures++;
    }
}

static int str_eq(axl_str a, axl_str b)
{
    return a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0;
}

int main(int argc, char **argv)
{
    if (axl_test_without_reader())
        return 0;
    if (argc != 3) {
        fprintf(stderr, "usage: test_xclbin_link LINKED PACKED\n");
        return 2;
    }
    size_t na, nb;
    unsigned char *da = slurp(argv[1], &na), *db = slurp(argv[2], &nb);
    axl_xclbin a, b;
    char why[256];
    if (!da || !db || axl_xclbin_open(&a, da, na, why, sizeof why) ||
        axl_xclbin_open(&b, db, nb, why, sizeof why)) {
        fprintf(stderr, "cannot read the images: %s\n", why);
        return 1;
    }
    same_range("MEM_TOPOLOGY", &a, a.mem_topology, &b, b.mem_topology);
    same_range("IP_LAYOUT", &a, a.ip_layout, &b, b.ip_layout);
    same_range("CONNECTIVITY", &a, a.connectivity, &b, b.connectivity);
    same_range("CLOCK_FREQ_TOPOLOGY", &a, a.clocks, &b, b.clocks);
    if (a.kernel_count != b.kernel_count) {
        fprintf(stderr, "kernels: %u linked, %u packed\n", a.kernel_count,
                b.kernel_count);
        failures++;
    }
    for (uint32_t k = 0; k < a.kernel_count && k < b.kernel_count; k++) {
        axl_xclbin_kernel ka, kb;
        axl_xclbin_get_kernel(&a, k, &ka);
        axl_xclbin_get_kernel(&b, k, &kb);
        if (!str_eq(ka.name, kb.name) || ka.arg_count != kb.arg_count ||
            ka.cu_count != kb.cu_count || ka.control != kb.control) {
            fprintf(stderr, "kernel %u (%.*s) differs\n", k,
                    (int)kb.name.len, kb.name.ptr);
            failures++;
            continue;
        }
        for (uint32_t i = 0; i < ka.arg_count; i++) {
            axl_xclbin_arg x, y;
            axl_xclbin_get_kernel_arg(&a, &ka, i, &x);
            axl_xclbin_get_kernel_arg(&b, &kb, i, &y);
            if (!str_eq(x.name, y.name) || !str_eq(x.type, y.type) ||
                x.index != y.index || x.offset != y.offset ||
                x.size != y.size || x.host_size != y.host_size ||
                x.address_qualifier != y.address_qualifier) {
                fprintf(stderr, "kernel %.*s argument %u differs\n",
                        (int)kb.name.len, kb.name.ptr, i);
                failures++;
            }
        }
    }
    free(da);
    free(db);
    if (failures)
        return 1;
    printf("the linked image has the packed image's sections and kernels\n");
    return 0;
}
