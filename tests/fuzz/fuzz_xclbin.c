/*
 * Fuzz target for the xclbin reader: opens the bytes and, when the image
 * is accepted, walks every getter over every index. Beyond "no crash, no
 * out-of-bounds read" (the sanitizers' job) it checks the reader's own
 * promises and aborts when one breaks:
 *   - a refused image leaves a one-line, NUL-terminated why;
 *   - after a successful open, every getter succeeds for every index
 *     below its count and fails just past it;
 *   - every view points inside the image, and bank masks name only
 *     existing banks.
 * Built as a libFuzzer target with -DAXL_FUZZ=ON and clang; always built
 * into the corpus replay driver (replay.c; see tests/fuzz/CMakeLists.txt).
 *
 * Compiled with AXL_FUZZ_XML, the input is the EMBEDDED_METADATA of an
 * otherwise valid image (banks, compute units and connections fixed), so
 * the fuzzer spends its time in the XML walker.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "axl/xclbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile unsigned long sink;

static void need(int ok)
{
    if (!ok)
        abort();
}

/* The view lies inside the image; reading it all proves that to ASan. */
static void view(const axl_xclbin *x, axl_str s)
{
    const uint8_t *p = (const uint8_t *)s.ptr;
    need(s.len == 0 || (p >= x->data && p + s.len <= x->data + x->size));
    for (size_t i = 0; i < s.len; i++)
        sink += p[i];
}

static void walk_kernel(const axl_xclbin *x, const axl_xclbin_kernel *k)
{
    view(x, k->name);
    need(k->xml_offset < x->size && k->xml_size <= x->size - k->xml_offset);
    for (uint32_t a = 0; a < k->arg_count; a++) {
        axl_xclbin_arg arg;
        need(axl_xclbin_get_kernel_arg(x, k, a, &arg) == AXL_SUCCESS);
        view(x, arg.name);
        view(x, arg.type);
        need(arg.address_qualifier <= AXL_XCLBIN_ARG_STREAM);
    }
    axl_xclbin_arg past;
    need(axl_xclbin_get_kernel_arg(x, k, k->arg_count, &past) != AXL_SUCCESS);
    for (uint32_t cu = 0; cu < k->cu_count; cu++) {
        uint32_t ipi;
        axl_xclbin_ip ip;
        need(axl_xclbin_get_kernel_cu(x, k, cu, &ipi) == AXL_SUCCESS);
        need(axl_xclbin_get_ip(x, ipi, &ip) == AXL_SUCCESS);
        need(ip.type == AXL_XCLBIN_IP_KERNEL);
        need(ip.kernel.len == k->name.len &&
             memcmp(ip.kernel.ptr, k->name.ptr, k->name.len) == 0);
        for (uint32_t a = 0; a < k->arg_count; a++) {
            axl_xclbin_arg arg;
            need(axl_xclbin_get_kernel_arg(x, k, a, &arg) == AXL_SUCCESS);
            uint64_t banks = axl_xclbin_arg_banks(x, ipi, arg.index);
            if (x->mem_count < 64)
                need((banks >> x->mem_count) == 0);
        }
    }
    uint32_t none;
    need(axl_xclbin_get_kernel_cu(x, k, k->cu_count, &none) != AXL_SUCCESS);
}

static int check_image(const uint8_t *data, size_t size)
{
    axl_xclbin x;
    char why[200];
    memset(why, 'X', sizeof why);
    if (axl_xclbin_open(&x, data, size, why, sizeof why) != AXL_SUCCESS) {
        need(memchr(why, 0, sizeof why) != NULL);
        need(why[0] != '\0' && strchr(why, '\n') == NULL);
        need(x.data == NULL && x.kernel_count == 0);
        return 0;
    }
    need(why[0] == '\0');
    need(x.data == data && x.size <= size);

    for (uint32_t i = 0; i < x.mem_count; i++) {
        axl_xclbin_mem m;
        need(axl_xclbin_get_mem(&x, i, &m) == AXL_SUCCESS);
        view(&x, m.tag);
    }
    for (uint32_t i = 0; i < x.ip_count; i++) {
        axl_xclbin_ip ip;
        need(axl_xclbin_get_ip(&x, i, &ip) == AXL_SUCCESS);
        view(&x, ip.name);
        view(&x, ip.kernel);
        view(&x, ip.instance);
    }
    for (uint32_t i = 0; i < x.connection_count; i++) {
        axl_xclbin_connection c;
        need(axl_xclbin_get_connection(&x, i, &c) == AXL_SUCCESS);
        need(c.ip_index < x.ip_count && c.mem_index < x.mem_count);
        sink += (unsigned long)axl_xclbin_arg_banks(&x, c.ip_index,
                                                    c.arg_index);
    }
    for (uint32_t i = 0; i < x.clock_count; i++) {
        axl_xclbin_clock c;
        need(axl_xclbin_get_clock(&x, i, &c) == AXL_SUCCESS);
        view(&x, c.name);
    }
    for (uint32_t i = 0; i < x.kernel_count; i++) {
        axl_xclbin_kernel k;
        need(axl_xclbin_get_kernel(&x, i, &k) == AXL_SUCCESS);
        walk_kernel(&x, &k);
    }

    axl_xclbin_mem m;
    axl_xclbin_ip ip;
    axl_xclbin_connection c;
    axl_xclbin_clock clk;
    axl_xclbin_kernel k;
    need(axl_xclbin_get_mem(&x, x.mem_count, &m) != AXL_SUCCESS);
    need(axl_xclbin_get_ip(&x, x.ip_count, &ip) != AXL_SUCCESS);
    need(axl_xclbin_get_connection(&x, x.connection_count, &c) !=
         AXL_SUCCESS);
    need(axl_xclbin_get_clock(&x, x.clock_count, &clk) != AXL_SUCCESS);
    need(axl_xclbin_get_kernel(&x, x.kernel_count, &k) != AXL_SUCCESS);
    return 0;
}

#ifdef AXL_FUZZ_XML
static void put32(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, v);
    put32(p + 4, v >> 32);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* MEM_TOPOLOGY (2 banks), IP_LAYOUT (k:k_1, vadd:vadd_1, k:k_2),
     * CONNECTIVITY, then the input as EMBEDDED_METADATA. */
    enum { MEM = 8 + 2 * 40, IP = 8 + 3 * 80, CON = 4 + 3 * 12 };
    static const uint32_t kinds[4] = {6, 8, 7, 2};
    size_t sizes[4] = {MEM, IP, CON, size};
    size_t offs[4], len = 456 + 4 * 40;
    for (int i = 0; i < 4; i++) {
        len = (len + 7) & ~(size_t)7;
        offs[i] = len;
        len += sizes[i];
    }
    uint8_t *img = calloc(1, len);
    if (!img)
        return 0;
    memcpy(img, "xclbin2", 8);
    put64(img + 304, len);
    put32(img + 448, 4);
    for (int i = 0; i < 4; i++) {
        uint8_t *h = img + 456 + 40 * i;
        put32(h, kinds[i]);
        put64(h + 24, sizes[i] ? offs[i] : 0);
        put64(h + 32, sizes[i]);
    }
    uint8_t *mem = img + offs[0];
    put32(mem, 2);
    for (int b = 0; b < 2; b++) {
        mem[8 + 40 * b] = 1;     /* MEM_DDR4 */
        mem[8 + 40 * b + 1] = 1; /* used */
        put64(mem + 8 + 40 * b + 8, 1024);
        memcpy(mem + 8 + 40 * b + 24, b ? "bank1" : "bank0", 6);
    }
    static const char *const names[3] = {"k:k_1", "vadd:vadd_1", "k:k_2"};
    uint8_t *ip = img + offs[1];
    put32(ip, 3);
    for (int i = 0; i < 3; i++) {
        put32(ip + 8 + 80 * i, 1); /* IP_KERNEL */
        put32(ip + 8 + 80 * i + 4, 0x100u | 1u | (uint32_t)i << 1);
        put64(ip + 8 + 80 * i + 8, 0x10000u * (uint32_t)(i + 1));
        memcpy(ip + 8 + 80 * i + 16, names[i], strlen(names[i]));
    }
    static const uint32_t con[3][3] = {{0, 0, 0}, {1, 0, 1}, {0, 1, 1}};
    uint8_t *c = img + offs[2];
    put32(c, 3);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            put32(c + 4 + 12 * i + 4 * j, con[i][j]);
    if (size)
        memcpy(img + offs[3], data, size);
    check_image(img, len);
    free(img);
    return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return check_image(data, size);
}
#endif
