/*
 * The xclbin reader (core/xclbin.c): the stock images read back with the
 * exact values their sources give, and every kind of malformed image is
 * refused with AXL_ERR_INVALID (or FEATURE_NOT_SUPPORTED) and a one-line
 * reason naming what is wrong. Run under ASan to prove no out-of-bounds
 * read: truncated images are copied into exactly-sized heap buffers.
 *
 * Usage: test_xclbin_reader [GROUP]   (no GROUP runs every group)
 */
#include "../support/axl_reader_skip.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axl/xclbin.h"
#include "xclbin_test_util.h"

#ifndef AXL_XCLBIN_DIR
#error "AXL_XCLBIN_DIR must name the folder of the stock images"
#endif

/* ---- helpers ---- */

typedef struct image {
    unsigned char *p;
    size_t size;
} image;

static image load(const char *name)
{
    char path[1024];
    image im;
    snprintf(path, sizeof path, "%s/%s", AXL_XCLBIN_DIR, name);
    im.p = tu_read_file(path, &im.size);
    if (!im.p)
        fail_msg("cannot read %s", path);
    return im;
}

static void open_ok(axl_xclbin *x, const void *p, size_t size)
{
    char why[256] = "untouched";
    axl_status st = axl_xclbin_open(x, p, size, why, sizeof why);
    if (st != AXL_SUCCESS)
        fail_msg("open failed (%d): %s", (int)st, why);
    assert_string_equal(why, "");
}

static int all_zero(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i])
            return 0;
    return 1;
}

/* Whether the library was built with messages: with AXL_MESSAGES 0
 * (core/axl_config.h) why is only the status name. */
static int reader_messages(void)
{
    axl_xclbin x;
    char why[64] = "";
    axl_xclbin_open(&x, NULL, 0, why, sizeof why);
    return strcmp(why, axl_status_name(AXL_ERR_INVALID)) != 0;
}

/* Opening must fail with want and a one-line why containing needle (the
 * status name without messages), and leave x zeroed. */
static void expect_fail_at(const void *p, size_t size, axl_status want,
                           const char *needle, int line)
{
    axl_xclbin x;
    char why[256];
    memset(&x, 0xA5, sizeof x);
    memset(why, 0, sizeof why);
    if (!reader_messages())
        needle = axl_status_name(want);
    axl_status st = axl_xclbin_open(&x, p, size, why, sizeof why);
    if (st != want || !strstr(why, needle) || strchr(why, '\n'))
        fail_msg("line %d: got status %d why \"%s\"; want %d and \"%s\"",
                 line, (int)st, why, (int)want, needle);
    if (!all_zero(&x, sizeof x))
        fail_msg("line %d: the axl_xclbin is not zeroed after a failure",
                 line);
}

#define EXPECT_INVALID(p, size, needle) \
    expect_fail_at(p, size, AXL_ERR_INVALID, needle, __LINE__)
#define EXPECT_UNSUPPORTED(p, size, needle) \
    expect_fail_at(p, size, AXL_ERR_FEATURE_NOT_SUPPORTED, needle, __LINE__)

static int str_is(axl_str s, const char *z)
{
    return axl_str_eq(s, z);
}

#define ASSERT_STR(s, z)                                                    \
    do {                                                                    \
        if (!str_is((s), (z)))                                              \
            fail_msg("got \"%.*s\", want \"%s\"", (int)(s).len, (s).ptr,    \
                     (z));                                                  \
    } while (0)

/* An image whose only section is the XML text (without its NUL). */
static image xml_image(const char *xml)
{
    tu_sec s = {K_EMBEDDED_METADATA, xml, strlen(xml)};
    image im;
    im.p = tu_build(&s, 1, &im.size);
    assert_non_null(im.p);
    return im;
}

static void xml_rejects_at(const char *xml, axl_status want,
                           const char *needle, int line)
{
    image im = xml_image(xml);
    expect_fail_at(im.p, im.size, want, needle, line);
    free(im.p);
}

#define XML_INVALID(xml, needle) \
    xml_rejects_at(xml, AXL_ERR_INVALID, needle, __LINE__)

/* A document with one kernel around the given <arg> elements. */
#define KERNEL_DOC(args) \
    "<project><platform><device><core><kernel name=\"k\">" args \
    "</kernel></core></device></platform></project>"
#define ARG(attrs) "<arg " attrs "/>"
#define OK_ARG(name, id) \
    ARG("name=\"" name "\" addressQualifier=\"0\" id=\"" id "\" " \
        "offset=\"0x10\" size=\"0x4\"")

/* ---- the stock images ---- */

typedef struct exp_arg {
    const char *name;
    uint32_t id, qual;
    uint64_t offset, size;
    const char *type;
} exp_arg;

typedef struct exp_kernel {
    const char *name;
    uint32_t control;
    const char *cus[2];
    uint32_t cu_count;
    uint32_t arg_count;
    exp_arg args[6];
    uint64_t banks; /* what each buffer argument of each CU reaches */
} exp_kernel;

#define PTR(n, i, off, t) {n, i, AXL_XCLBIN_ARG_GLOBAL, off, 8, t}
#define U32(n, i, off) {n, i, AXL_XCLBIN_ARG_SCALAR, off, 4, "unsigned int"}

static const exp_kernel stock_kernels[] = {
    {"vadd", AXL_XCLBIN_AP_CTRL_CHAIN, {"vadd:vadd_1", "vadd:vadd_2"}, 2, 4,
     {PTR("in1", 0, 0x10, "int*"), PTR("in2", 1, 0x1c, "int*"),
      PTR("out_r", 2, 0x28, "int*"), U32("size", 3, 0x34)},
     0x3},
    {"mmult", AXL_XCLBIN_AP_CTRL_CHAIN, {"mmult:mmult_1"}, 1, 4,
     {PTR("a", 0, 0x10, "float*"), PTR("b", 1, 0x1c, "float*"),
      PTR("c", 2, 0x28, "float*"), U32("dim", 3, 0x34)},
     0x2},
    {"fir", AXL_XCLBIN_AP_CTRL_CHAIN, {"fir:fir_1"}, 1, 5,
     {PTR("in", 0, 0x10, "short*"), PTR("coeff", 1, 0x1c, "short*"),
      PTR("out", 2, 0x28, "short*"), U32("taps", 3, 0x34),
      U32("len", 4, 0x3c)},
     0x3},
    {"conv2d", AXL_XCLBIN_AP_CTRL_CHAIN, {"conv2d:conv2d_1"}, 1, 6,
     {PTR("in", 0, 0x10, "unsigned char*"),
      PTR("coeff", 1, 0x1c, "signed char*"),
      PTR("out", 2, 0x28, "unsigned char*"), U32("width", 3, 0x34),
      U32("height", 4, 0x3c), U32("shift", 5, 0x44)},
     0x3},
    {"nop", AXL_XCLBIN_AP_CTRL_HS, {"nop:nop_1"}, 1, 0, {{0}}, 0},
};

static const exp_kernel app_kernels[] = {
    {"scale", AXL_XCLBIN_AP_CTRL_CHAIN, {"scale:scale_1"}, 1, 3,
     {PTR("data", 0, 0x10, "float*"),
      {"factor", 1, AXL_XCLBIN_ARG_SCALAR, 0x1c, 4, "float"},
      U32("n", 2, 0x24)},
     0x3},
    {"nop", AXL_XCLBIN_AP_CTRL_HS, {"nop:nop_1"}, 1, 0, {{0}}, 0},
};

static const exp_kernel amd_kernels[] = {
    {"krnl_vadd", AXL_XCLBIN_AP_CTRL_CHAIN, {"krnl_vadd:krnl_vadd_1"}, 1, 4,
     {PTR("in1", 0, 0x10, "int*"), PTR("in2", 1, 0x1c, "int*"),
      PTR("out_r", 2, 0x28, "int*"), U32("size", 3, 0x34)},
     0 /* checked by hand: the args reach different banks */},
};

static void check_kernels(const axl_xclbin *x, const exp_kernel *e,
                          uint32_t n)
{
    assert_int_equal(x->kernel_count, n);
    for (uint32_t i = 0; i < n; i++) {
        axl_xclbin_kernel k;
        assert_int_equal(axl_xclbin_get_kernel(x, i, &k), AXL_SUCCESS);
        ASSERT_STR(k.name, e[i].name);
        assert_int_equal(k.control, e[i].control);
        assert_int_equal(k.arg_count, e[i].arg_count);
        assert_int_equal(k.cu_count, e[i].cu_count);
        /* The element range starts at "<kernel" and ends with '>'. */
        assert_memory_equal(x->data + k.xml_offset, "<kernel", 7);
        assert_int_equal(x->data[k.xml_offset + k.xml_size - 1], '>');
        for (uint32_t a = 0; a < k.arg_count; a++) {
            axl_xclbin_arg arg;
            const exp_arg *ea = &e[i].args[a];
            assert_int_equal(axl_xclbin_get_kernel_arg(x, &k, a, &arg),
                             AXL_SUCCESS);
            ASSERT_STR(arg.name, ea->name);
            assert_int_equal(arg.index, ea->id);
            assert_int_equal(arg.address_qualifier, ea->qual);
            assert_int_equal(arg.offset, ea->offset);
            assert_int_equal(arg.size, ea->size);
            assert_int_equal(arg.host_size, ea->size);
            ASSERT_STR(arg.type, ea->type);
        }
        axl_xclbin_arg past;
        assert_int_equal(axl_xclbin_get_kernel_arg(x, &k, k.arg_count, &past),
                         AXL_ERR_INVALID);
        for (uint32_t cu = 0; cu < k.cu_count; cu++) {
            uint32_t ipi;
            axl_xclbin_ip ip;
            assert_int_equal(axl_xclbin_get_kernel_cu(x, &k, cu, &ipi),
                             AXL_SUCCESS);
            assert_int_equal(axl_xclbin_get_ip(x, ipi, &ip), AXL_SUCCESS);
            ASSERT_STR(ip.name, e[i].cus[cu]);
            ASSERT_STR(ip.kernel, e[i].name);
            assert_int_equal(ip.control, e[i].control);
            if (!e[i].banks)
                continue;
            for (uint32_t a = 0; a < k.arg_count; a++) {
                const exp_arg *ea = &e[i].args[a];
                uint64_t want = ea->qual == AXL_XCLBIN_ARG_GLOBAL ? e[i].banks
                                                                  : 0;
                assert_int_equal(axl_xclbin_arg_banks(x, ipi, ea->id), want);
            }
        }
        uint32_t none;
        assert_int_equal(axl_xclbin_get_kernel_cu(x, &k, k.cu_count, &none),
                         AXL_ERR_INVALID);
    }
}

static void check_uuid(const axl_xclbin *x, const char *hex)
{
    char got[33];
    for (int i = 0; i < 16; i++)
        snprintf(got + 2 * i, 3, "%02x", x->uuid[i]);
    assert_string_equal(got, hex);
}

static void check_bank(const axl_xclbin *x, uint32_t i, const char *tag,
                       uint8_t type, uint8_t used, uint64_t size,
                       uint64_t base)
{
    axl_xclbin_mem m;
    assert_int_equal(axl_xclbin_get_mem(x, i, &m), AXL_SUCCESS);
    ASSERT_STR(m.tag, tag);
    assert_int_equal(m.type, type);
    assert_int_equal(m.used, used);
    assert_int_equal(m.size, size);
    assert_int_equal(m.base_address, base);
}

static void check_clock(const axl_xclbin *x, uint32_t i, const char *name,
                        uint8_t type, uint16_t mhz)
{
    axl_xclbin_clock c;
    assert_int_equal(axl_xclbin_get_clock(x, i, &c), AXL_SUCCESS);
    ASSERT_STR(c.name, name);
    assert_int_equal(c.type, type);
    assert_int_equal(c.freq_mhz, mhz);
}

#define MIB (1024ull * 1024)

static void stock_image_has_the_contracted_design(void **state)
{
    (void)state;
    image im = load("stock.xclbin");
    axl_xclbin x;
    open_ok(&x, im.p, im.size);
    assert_ptr_equal(x.data, im.p);
    assert_int_equal(x.size, im.size);
    check_uuid(&x, "5f1b0c3a7d2e4a968b412c9e6d0a1f01");
    assert_int_equal(x.section_count, 5);

    assert_int_equal(x.mem_count, 3);
    check_bank(&x, 0, "bank0", AXL_XCLBIN_MEM_DDR4, 1, 256 * MIB,
               0x4000000000ull);
    check_bank(&x, 1, "bank1", AXL_XCLBIN_MEM_DDR4, 1, 256 * MIB,
               0x4010000000ull);
    check_bank(&x, 2, "bank2", AXL_XCLBIN_MEM_DDR4, 0, 256 * MIB,
               0x4020000000ull);

    static const struct {
        const char *name, *kernel, *instance;
        uint64_t base;
        uint32_t control;
    } ips[] = {
        {"vadd:vadd_1", "vadd", "vadd_1", 0x1800000, AXL_XCLBIN_AP_CTRL_CHAIN},
        {"vadd:vadd_2", "vadd", "vadd_2", 0x1810000, AXL_XCLBIN_AP_CTRL_CHAIN},
        {"mmult:mmult_1", "mmult", "mmult_1", 0x1820000,
         AXL_XCLBIN_AP_CTRL_CHAIN},
        {"fir:fir_1", "fir", "fir_1", 0x1830000, AXL_XCLBIN_AP_CTRL_CHAIN},
        {"conv2d:conv2d_1", "conv2d", "conv2d_1", 0x1840000,
         AXL_XCLBIN_AP_CTRL_CHAIN},
        {"nop:nop_1", "nop", "nop_1", 0x1850000, AXL_XCLBIN_AP_CTRL_HS},
    };
    assert_int_equal(x.ip_count, 6);
    uint64_t last = 0;
    for (uint32_t i = 0; i < 6; i++) {
        axl_xclbin_ip ip;
        assert_int_equal(axl_xclbin_get_ip(&x, i, &ip), AXL_SUCCESS);
        assert_int_equal(ip.type, AXL_XCLBIN_IP_KERNEL);
        ASSERT_STR(ip.name, ips[i].name);
        ASSERT_STR(ip.kernel, ips[i].kernel);
        ASSERT_STR(ip.instance, ips[i].instance);
        assert_int_equal(ip.base_address, ips[i].base);
        assert_int_equal(ip.control, ips[i].control);
        assert_int_equal(ip.interrupt_enabled, 1);
        assert_int_equal(ip.interrupt_id, i);
        assert_true(ip.base_address > last); /* sorted, as XRT expects */
        last = ip.base_address;
    }

    /* 3 buffers x 2 banks for vadd_1, vadd_2, fir, conv2d; 3 x 1 for
     * mmult. */
    assert_int_equal(x.connection_count, 4 * 6 + 3);
    axl_xclbin_connection c;
    assert_int_equal(axl_xclbin_get_connection(&x, 0, &c), AXL_SUCCESS);
    assert_int_equal(c.arg_index, 0);
    assert_int_equal(c.ip_index, 0);
    assert_int_equal(c.mem_index, 0);

    assert_int_equal(x.clock_count, 2);
    check_clock(&x, 0, "DATA_CLK", 1, 300);
    check_clock(&x, 1, "KERNEL_CLK", 2, 500);

    check_kernels(&x, stock_kernels, 5);
    /* mmult cannot reach bank0: the "memory not reachable" case. */
    assert_int_equal(axl_xclbin_arg_banks(&x, 2, 0) & 1, 0);
    free(im.p);
}

static void app_image_has_scale_and_its_own_nop(void **state)
{
    (void)state;
    image im = load("app.xclbin");
    axl_xclbin x;
    open_ok(&x, im.p, im.size);
    check_uuid(&x, "9c2e4b713a5f4d08b6e17f0a2c4d6e02");
    assert_int_equal(x.mem_count, 2);
    check_bank(&x, 0, "bank0", AXL_XCLBIN_MEM_DDR4, 1, 256 * MIB,
               0x4000000000ull);
    check_bank(&x, 1, "bank1", AXL_XCLBIN_MEM_DDR4, 1, 256 * MIB,
               0x4010000000ull);
    assert_int_equal(x.ip_count, 2);
    check_kernels(&x, app_kernels, 2);
    free(im.p);
}

/* Streams (issue 39; docs/streams-api.md): each MEM_STREAMING_CONNECTION
 * entry that two CONNECTIVITY entries name is a stream; the producer is
 * the end whose <port> is write_only; the FIFO depth is the entry's size
 * word; both ports find it; a port on no stream and a stream past the
 * last are refused. The design is bitstreams/streams.xclbin, as linked
 * from streams.cfg. */
static void streams_name_both_ends_their_fifo_and_each_port(void **state)
{
    (void)state;
    image im = load("streams.xclbin");
    axl_xclbin x;
    open_ok(&x, im.p, im.size);
    assert_int_equal(axl_xclbin_stream_count(&x), 4);
    static const struct {
        const char *prod, *pport, *cons, *cport;
        uint32_t depth;
    } want[4] = {
        {"mm2s:mm2s_1", "data_out", "sadd:sadd_1", "data_in", 64},
        {"sadd:sadd_1", "data_out", "s2mm:s2mm_1", "data_in", 64},
        {"mm2s:mm2s_2", "data_out", "sinc:sinc_1", "data_in", 16},
        {"sinc:sinc_1", "data_out", "s2mm:s2mm_2", "data_in", 0},
    };
    for (uint32_t i = 0; i < 4; i++) {
        axl_xclbin_stream st;
        assert_int_equal(axl_xclbin_get_stream(&x, i, &st), AXL_SUCCESS);
        assert_true(axl_str_eq(st.producer_unit, want[i].prod));
        assert_true(axl_str_eq(st.producer_port, want[i].pport));
        assert_true(axl_str_eq(st.consumer_unit, want[i].cons));
        assert_true(axl_str_eq(st.consumer_port, want[i].cport));
        assert_int_equal(st.fifo_depth, want[i].depth);
        /* The producer's TDATA width, from its kernel's XML. */
        assert_int_equal(st.width_bits, 32);
        assert_true(axl_str_eq(axl_xclbin_instance_of(st.producer_unit),
                               strchr(want[i].prod, ':') + 1));
        assert_int_equal(st.mem_index, 4 + i);
        axl_xclbin_mem m;
        assert_int_equal(axl_xclbin_get_mem(&x, st.mem_index, &m),
                         AXL_SUCCESS);
        assert_int_equal(m.type, AXL_XCLBIN_MEM_STREAMING_CONNECTION);
        assert_int_equal(m.size, 0);
        assert_int_equal(m.fifo_depth, want[i].depth);
        uint32_t s = 99;
        assert_int_equal(axl_xclbin_port_stream(&x, st.producer_ip,
                                                st.producer_arg, &s),
                         AXL_SUCCESS);
        assert_int_equal(s, i);
        s = 99;
        assert_int_equal(axl_xclbin_port_stream(&x, st.consumer_ip,
                                                st.consumer_arg, &s),
                         AXL_SUCCESS);
        assert_int_equal(s, i);
        /* arg_banks names the stream's entry, as CONNECTIVITY does (the
         * devices' banks leave such entries out: no buffer goes there). */
        assert_int_equal(axl_xclbin_arg_banks(&x, st.producer_ip,
                                              st.producer_arg),
                         (uint64_t)1 << st.mem_index);
    }
    axl_xclbin_stream st;
    assert_int_equal(axl_xclbin_get_stream(&x, 4, &st), AXL_ERR_INVALID);
    /* A name without an instance is its own instance. */
    const axl_str whole = {"vadd", 4};
    assert_true(axl_str_eq(axl_xclbin_instance_of(whole), "vadd"));
    /* mm2s_1's src (argument 0) is memory, on no stream. */
    assert_int_equal(axl_xclbin_port_stream(&x, 0, 0, NULL), AXL_ERR_INVALID);
    /* The kernels' stream arguments and protocols. */
    axl_xclbin_kernel k;
    axl_xclbin_arg a;
    assert_int_equal(axl_xclbin_get_kernel(&x, 3, &k), AXL_SUCCESS);
    assert_true(axl_str_eq(k.name, "sinc"));
    assert_int_equal(k.control, AXL_XCLBIN_AP_CTRL_NONE);
    assert_string_equal(axl_xclbin_control_name(k.control), "ap_ctrl_none");
    assert_int_equal(axl_xclbin_get_kernel_arg(&x, &k, 1, &a), AXL_SUCCESS);
    assert_int_equal(a.address_qualifier, AXL_XCLBIN_ARG_STREAM);
    assert_int_equal(a.stream_dir, AXL_XCLBIN_STREAM_OUT);
    assert_int_equal(a.stream_bits, 32);
    assert_int_equal(axl_xclbin_get_kernel_arg(&x, &k, 2, &a), AXL_SUCCESS);
    assert_int_equal(a.stream_dir, AXL_XCLBIN_STREAM_NONE);
    axl_xclbin_ip ip;
    assert_int_equal(axl_xclbin_get_ip(&x, 5, &ip), AXL_SUCCESS);
    assert_int_equal(ip.control, AXL_XCLBIN_AP_CTRL_NONE);
    assert_int_equal(ip.interrupt_enabled, 0);
    assert_string_equal(axl_xclbin_control_name(99), "unknown");
    free(im.p);
}

static void amd_style_image_reads_through_the_extras(void **state)
{
    (void)state;
    image im = load("amd_style.xclbin");
    axl_xclbin x;
    open_ok(&x, im.p, im.size);
    check_uuid(&x, "d41c8e5a62b74f39a0c81e5b7d9f3a03");
    assert_int_equal(x.section_count, 11);
    assert_int_equal(x.mem_count, 6);
    check_bank(&x, 0, "HBM[0]", AXL_XCLBIN_MEM_HBM, 1, 256 * MIB, 0);
    check_bank(&x, 1, "HBM[1]", AXL_XCLBIN_MEM_HBM, 1, 256 * MIB,
               0x10000000);
    check_bank(&x, 4, "PLRAM[0]", AXL_XCLBIN_MEM_DRAM, 0, 128 * 1024,
               0x4000000000ull);
    check_bank(&x, 5, "HOST[0]", AXL_XCLBIN_MEM_HOST, 0, 0, 0);
    assert_int_equal(x.ip_count, 2);
    axl_xclbin_ip ip;
    assert_int_equal(axl_xclbin_get_ip(&x, 1, &ip), AXL_SUCCESS);
    assert_int_equal(ip.type, AXL_XCLBIN_IP_MEM_HBM);
    ASSERT_STR(ip.name, "hbm_memory_subsystem");
    ASSERT_STR(ip.kernel, "hbm_memory_subsystem");
    ASSERT_STR(ip.instance, "");
    assert_int_equal(x.clock_count, 3);
    check_clock(&x, 2, "hbm_aclk", 3, 450);
    /* The CDATA and the comment mention kernels; only one is real. */
    check_kernels(&x, amd_kernels, 1);
    assert_int_equal(axl_xclbin_arg_banks(&x, 0, 0), 0x1); /* HBM[0] */
    assert_int_equal(axl_xclbin_arg_banks(&x, 0, 1), 0x2); /* HBM[1] */
    assert_int_equal(axl_xclbin_arg_banks(&x, 0, 2), 0x1);
    assert_int_equal(axl_xclbin_arg_banks(&x, 0, 3), 0);
    free(im.p);
}

/* The header's m_mode and m_interface_uuid (XRT's xclbin.h, struct
 * axlf_header: offsets 332 and 336 of the image), and the bytes of a
 * section axl does not parse, as a loader needs them (issue 40). v++
 * writes a flat image with m_mode XCLBIN_FLAT and a partial with
 * XCLBIN_PR and its shell's interface UUID. */
static void amd_style_image_gives_mode_interface_uuid_and_sections(void **state)
{
    (void)state;
    image im = load("amd_style.xclbin");
    axl_xclbin x;
    open_ok(&x, im.p, im.size);
    assert_int_equal(x.mode, AXL_XCLBIN_FLAT);
    static const uint8_t zero[16];
    assert_memory_equal(x.interface_uuid, zero, 16);
    assert_string_equal(axl_xclbin_mode_name(x.mode), "flat");

    /* Its BITSTREAM is section 0: krnl_vadd.bit's 208 bytes at 0x380. */
    axl_xclbin_range r = {1, 1};
    assert_int_equal(axl_xclbin_get_section(&x, AXL_XCLBIN_SECTION_BITSTREAM,
                                            &r), AXL_SUCCESS);
    assert_int_equal(r.offset, 0x380);
    assert_int_equal(r.size, 208);
    static const uint8_t bit_start[] = {0x00, 0x09, 0x0f, 0xf0,
                                        0x0f, 0xf0, 0x0f, 0xf0};
    assert_memory_equal(x.data + r.offset, bit_start, sizeof bit_start);
    /* A kind the image lacks: an empty range, not an error. */
    r.offset = r.size = 1;
    assert_int_equal(axl_xclbin_get_section(
                         &x, AXL_XCLBIN_SECTION_PARTITION_METADATA, &r),
                     AXL_SUCCESS);
    assert_int_equal(r.size, 0);
    /* A kind axl parses is given too: the same range the reader keeps. */
    assert_int_equal(axl_xclbin_get_section(&x, 8 /* IP_LAYOUT */, &r),
                     AXL_SUCCESS);
    assert_int_equal(r.offset, x.ip_layout.offset);
    assert_int_equal(r.size, x.ip_layout.size);
    assert_int_equal(axl_xclbin_get_section(&x, 0, NULL), AXL_ERR_INVALID);
    assert_int_equal(axl_xclbin_get_section(NULL, 0, &r), AXL_ERR_INVALID);

    /* The same image made a partial for a shell: both fields read back. */
    static const uint8_t shell[16] = {0x3c, 0x9f, 0x01, 0x02, 0x03, 0x04,
                                      0x45, 0x06, 0x87, 0x08, 0x09, 0x0a,
                                      0x0b, 0x0c, 0x0d, 0xee};
    tu_st16(im.p + 332, AXL_XCLBIN_PR);
    memcpy(im.p + 336, shell, 16);
    open_ok(&x, im.p, im.size);
    assert_int_equal(x.mode, AXL_XCLBIN_PR);
    assert_memory_equal(x.interface_uuid, shell, 16);
    assert_string_equal(axl_xclbin_mode_name(x.mode), "pr");
    /* A mode XRT's enum lacks is read as written, named "unknown". */
    tu_st16(im.p + 332, 0x1234);
    open_ok(&x, im.p, im.size);
    assert_int_equal(x.mode, 0x1234);
    assert_string_equal(axl_xclbin_mode_name(x.mode), "unknown");
    assert_string_equal(axl_xclbin_mode_name(AXL_XCLBIN_HW_EMU_PR),
                        "hw_emu_pr");
    free(im.p);
}

/* Bytes after m_length (a signature, padding) are not part of the image. */
static void bytes_past_m_length_are_ignored(void **state)
{
    (void)state;
    image im = load("stock.xclbin");
    unsigned char *big = malloc(im.size + 100);
    memcpy(big, im.p, im.size);
    memset(big + im.size, 0xEE, 100);
    axl_xclbin x;
    open_ok(&x, big, im.size + 100);
    assert_int_equal(x.size, im.size);
    assert_int_equal(x.kernel_count, 5);
    free(big);
    free(im.p);
}

static void image_without_metadata_has_cus_but_no_kernels(void **state)
{
    (void)state;
    image im = load("stock.xclbin");
    /* Turn the XML section into a BUILD_METADATA blob. */
    size_t h = tu_find_section(im.p, K_EMBEDDED_METADATA, NULL);
    assert_true(h != 0);
    tu_st32(im.p + h, K_BUILD_METADATA);
    axl_xclbin x;
    open_ok(&x, im.p, im.size);
    assert_int_equal(x.kernel_count, 0);
    assert_int_equal(x.ip_count, 6);
    axl_xclbin_kernel k;
    assert_int_equal(axl_xclbin_get_kernel(&x, 0, &k), AXL_ERR_INVALID);
    free(im.p);
}

/* xclbinutil writes an empty section for an empty table; a section of size
 * 0 may also carry any offset. */
static void empty_sections_read_as_empty_tables(void **state)
{
    (void)state;
    tu_sec s[] = {{K_MEM_TOPOLOGY, NULL, 0}, {K_IP_LAYOUT, NULL, 0},
                  {K_CONNECTIVITY, NULL, 0}, {K_CLOCK_FREQ_TOPOLOGY, NULL, 0},
                  {K_EMBEDDED_METADATA, NULL, 0}};
    image im;
    im.p = tu_build(s, 5, &im.size);
    tu_st64(im.p + AXLF_HEADER + 24, 0xFFFFFFFFFFFFull); /* offset, size 0 */
    axl_xclbin x;
    open_ok(&x, im.p, im.size);
    assert_int_equal(x.mem_count + x.ip_count + x.connection_count +
                     x.clock_count + x.kernel_count, 0);
    free(im.p);

    im.p = tu_build(NULL, 0, &im.size);
    open_ok(&x, im.p, im.size);
    assert_int_equal(x.section_count, 0);
    free(im.p);
}

static void getters_refuse_bad_indices_and_arguments(void **state)
{
    (void)state;
    image im = load("stock.xclbin");
    axl_xclbin x;
    open_ok(&x, im.p, im.size);
    axl_xclbin_mem m;
    axl_xclbin_ip ip;
    axl_xclbin_connection c;
    axl_xclbin_clock clk;
    axl_xclbin_kernel k;
    axl_xclbin_arg a;
    uint32_t u;
    assert_int_equal(axl_xclbin_get_mem(&x, 3, &m), AXL_ERR_INVALID);
    assert_int_equal(axl_xclbin_get_ip(&x, 6, &ip), AXL_ERR_INVALID);
    assert_int_equal(axl_xclbin_get_connection(&x, 27, &c), AXL_ERR_INVALID);
    assert_int_equal(axl_xclbin_get_clock(&x, 2, &clk), AXL_ERR_INVALID);
    assert_int_equal(axl_xclbin_get_kernel(&x, 5, &k), AXL_ERR_INVALID);
    assert_int_equal(axl_xclbin_get_kernel(&x, UINT32_MAX, &k),
                     AXL_ERR_INVALID);
    assert_int_equal(axl_xclbin_get_mem(NULL, 0, &m), AXL_ERR_INVALID);
    assert_int_equal(axl_xclbin_get_mem(&x, 0, NULL), AXL_ERR_INVALID);
    assert_int_equal(axl_xclbin_get_kernel(&x, 0, &k), AXL_SUCCESS);
    assert_int_equal(axl_xclbin_get_kernel_arg(&x, NULL, 0, &a),
                     AXL_ERR_INVALID);
    assert_int_equal(axl_xclbin_get_kernel_cu(&x, &k, 0, NULL),
                     AXL_ERR_INVALID);
    /* A kernel that does not point at a <kernel> of this image. */
    axl_xclbin_kernel bogus = k;
    bogus.xml_offset = 3;
    assert_int_equal(axl_xclbin_get_kernel_arg(&x, &bogus, 0, &a),
                     AXL_ERR_INVALID);
    bogus.xml_offset = k.xml_offset + 1;
    assert_int_equal(axl_xclbin_get_kernel_arg(&x, &bogus, 0, &a),
                     AXL_ERR_INVALID);
    bogus.xml_offset = (size_t)-1;
    assert_int_equal(axl_xclbin_get_kernel_arg(&x, &bogus, 0, &a),
                     AXL_ERR_INVALID);
    /* No connection: a scalar, an unknown IP, an unknown argument. */
    assert_int_equal(axl_xclbin_arg_banks(&x, 0, 3), 0);
    assert_int_equal(axl_xclbin_arg_banks(&x, 99, 0), 0);
    assert_int_equal(axl_xclbin_arg_banks(&x, 0, 99), 0);
    assert_int_equal(axl_xclbin_arg_banks(NULL, 0, 0), 0);
    /* A zeroed (failed) axl_xclbin answers nothing. */
    axl_xclbin zero;
    memset(&zero, 0, sizeof zero);
    assert_int_equal(axl_xclbin_get_mem(&zero, 0, &m), AXL_ERR_INVALID);
    assert_int_equal(axl_xclbin_get_kernel_cu(&zero, &k, 0, &u),
                     AXL_ERR_INVALID);
    free(im.p);
}

static void small_helpers_behave(void **state)
{
    (void)state;
    axl_str s = {"vadd:vadd_1", 4};
    assert_true(axl_str_eq(s, "vadd"));
    assert_false(axl_str_eq(s, "vad"));
    assert_false(axl_str_eq(s, "vadd:"));
    assert_false(axl_str_eq(s, NULL));
    axl_str empty = {"", 0};
    assert_true(axl_str_eq(empty, ""));
    assert_string_equal(axl_xclbin_section_name(6), "MEM_TOPOLOGY");
    assert_string_equal(axl_xclbin_section_name(2), "EMBEDDED_METADATA");
    assert_string_equal(axl_xclbin_section_name(35), "AIE_TRACE_METADATA");
    assert_string_equal(axl_xclbin_section_name(36), "unknown");
    assert_string_equal(axl_xclbin_section_name(UINT32_MAX), "unknown");

    /* why is optional and is cut (NUL-terminated) to its size. */
    char tiny[8];
    axl_xclbin x;
    assert_int_equal(axl_xclbin_open(&x, "nope", 4, NULL, 0),
                     AXL_ERR_INVALID);
    assert_int_equal(axl_xclbin_open(&x, "nope", 4, tiny, sizeof tiny),
                     AXL_ERR_INVALID);
    assert_int_equal(strlen(tiny), 7);
    assert_int_equal(axl_xclbin_open(NULL, "nope", 4, tiny, sizeof tiny),
                     AXL_ERR_INVALID);
    assert_int_equal(axl_xclbin_open(&x, NULL, 500, tiny, sizeof tiny),
                     AXL_ERR_INVALID);
}

/* ---- truncation ---- */

static void every_truncation_is_refused(const char *name)
{
    image im = load(name);
    for (size_t len = 0; len < im.size; len++) {
        /* Exactly len bytes on the heap: ASan catches any read past. */
        unsigned char *p = malloc(len ? len : 1);
        memcpy(p, im.p, len);
        const char *needle = len < 8 ? "too short for the magic"
                           : len < AXLF_HEADER ? "the axlf header needs 456"
                                               : "is larger than the";
        expect_fail_at(p, len, AXL_ERR_INVALID, needle, __LINE__);
        free(p);
    }
    free(im.p);
}

static void stock_truncated_at_every_length_is_refused(void **state)
{
    (void)state;
    every_truncation_is_refused("stock.xclbin");
}

static void app_truncated_at_every_length_is_refused(void **state)
{
    (void)state;
    every_truncation_is_refused("app.xclbin");
}

static void amd_style_truncated_at_every_length_is_refused(void **state)
{
    (void)state;
    every_truncation_is_refused("amd_style.xclbin");
}

/* A lying m_length that covers only a prefix: every section past it is
 * refused by name. */
static void m_length_cutting_into_sections_is_refused(void **state)
{
    (void)state;
    image im = load("stock.xclbin");
    tu_st64(im.p + 304, 1000);
    EXPECT_INVALID(im.p, im.size, "(IP_LAYOUT): offset 784 + size 488 is "
                   "past m_length 1000");
    free(im.p);
}

/* ---- header ---- */

static void bad_magic_is_refused(void **state)
{
    (void)state;
    image im = load("stock.xclbin");
    im.p[0] = 'X';
    EXPECT_INVALID(im.p, im.size, "bad magic");
    memcpy(im.p, "xclbin2", 7);
    im.p[7] = ' ';
    EXPECT_INVALID(im.p, im.size, "bad magic");
    memcpy(im.p, "xclbin0", 8);
    EXPECT_UNSUPPORTED(im.p, im.size, "only xclbin2");
    free(im.p);
}

static void m_length_outside_the_buffer_is_refused(void **state)
{
    (void)state;
    image im = load("stock.xclbin");
    tu_st64(im.p + 304, im.size + 1);
    EXPECT_INVALID(im.p, im.size, "is larger than the 8232 bytes given");
    tu_st64(im.p + 304, UINT64_MAX);
    EXPECT_INVALID(im.p, im.size, "m_length 18446744073709551615 is larger");
    tu_st64(im.p + 304, 455);
    EXPECT_INVALID(im.p, im.size, "smaller than the 456-byte axlf header");
    free(im.p);
}

static void huge_section_count_is_refused(void **state)
{
    (void)state;
    image im = load("stock.xclbin");
    tu_st32(im.p + 448, UINT32_MAX);
    EXPECT_INVALID(im.p, im.size, "m_numSections 4294967295 needs "
                   "171798691800 bytes of section table");
    tu_st32(im.p + 448, 0x10000);
    EXPECT_INVALID(im.p, im.size, "m_numSections 65536");
    /* One entry too many for the image. */
    tu_st32(im.p + 448, (uint32_t)((im.size - AXLF_HEADER) / 40 + 1));
    EXPECT_INVALID(im.p, im.size, "bytes of section table");
    free(im.p);
}

/* ---- sections and tables ---- */

static void section_offset_past_the_end_is_refused(void **state)
{
    (void)state;
    image im = load("stock.xclbin");
    unsigned char *h = im.p + AXLF_HEADER + 1 * AXLF_SECTION; /* IP_LAYOUT */
    tu_st64(h + 24, im.size);
    EXPECT_INVALID(im.p, im.size, "section 1 (IP_LAYOUT): offset 8232 + size "
                   "488 is past m_length 8232");
    tu_st64(h + 24, im.size - 487);
    EXPECT_INVALID(im.p, im.size, "is past m_length");
    /* offset + size wraps around 2^64 */
    tu_st64(h + 24, 0xFFFFFFFFFFFFFFF0ull);
    tu_st64(h + 32, 0x20);
    EXPECT_INVALID(im.p, im.size, "offset 18446744073709551600 + size 32");
    tu_st64(h + 24, 0x300);
    tu_st64(h + 32, UINT64_MAX);
    EXPECT_INVALID(im.p, im.size, "size 18446744073709551615 is past");
    /* inside the header */
    tu_st64(h + 24, 8);
    tu_st64(h + 32, 16);
    EXPECT_INVALID(im.p, im.size, "section 1 (IP_LAYOUT): offset 8 is inside "
                   "the header and section table (656 bytes)");
    free(im.p);
}

static void unread_sections_are_checked_too(void **state)
{
    (void)state;
    image im = load("amd_style.xclbin");
    unsigned idx;
    size_t h = tu_find_section(im.p, K_BITSTREAM, &idx);
    assert_true(h != 0);
    tu_st64(im.p + h + 32, im.size);
    EXPECT_INVALID(im.p, im.size, "section 0 (BITSTREAM): offset");
    free(im.p);
}

static void repeated_section_kind_is_refused(void **state)
{
    (void)state;
    image im = load("stock.xclbin");
    /* Section 3 (CLOCK_FREQ_TOPOLOGY) becomes a second IP_LAYOUT. */
    tu_st32(im.p + AXLF_HEADER + 3 * AXLF_SECTION, K_IP_LAYOUT);
    EXPECT_INVALID(im.p, im.size, "section 3 (IP_LAYOUT) repeats section 1");
    free(im.p);
}

static void huge_m_count_is_refused(void **state)
{
    (void)state;
    image im = load("stock.xclbin");
    unsigned char *mem = tu_section_data(im.p, K_MEM_TOPOLOGY);
    unsigned char *ip = tu_section_data(im.p, K_IP_LAYOUT);
    unsigned char *con = tu_section_data(im.p, K_CONNECTIVITY);
    unsigned char *clk = tu_section_data(im.p, K_CLOCK_FREQ_TOPOLOGY);

    tu_st32(mem, 1000000);
    EXPECT_INVALID(im.p, im.size, "section 0 (MEM_TOPOLOGY): m_count 1000000 "
                   "needs 40000008 bytes, the section has 128");
    tu_st32(mem, 4); /* one more than there is room for */
    EXPECT_INVALID(im.p, im.size, "m_count 4 needs 168 bytes");
    tu_st32(mem, 0x80000000u);
    EXPECT_INVALID(im.p, im.size, "(MEM_TOPOLOGY): m_count -2147483648 is "
                   "negative");
    tu_st32(mem, 3);

    tu_st32(ip, INT32_MAX);
    EXPECT_INVALID(im.p, im.size, "section 1 (IP_LAYOUT): m_count 2147483647 "
                   "needs 171798691768 bytes");
    tu_st32(ip, 6);

    tu_st32(con, 28);
    EXPECT_INVALID(im.p, im.size, "section 2 (CONNECTIVITY): m_count 28 needs "
                   "340 bytes, the section has 328");
    tu_st32(con, 27);

    tu_st16(clk, 0x7FFF);
    EXPECT_INVALID(im.p, im.size, "(CLOCK_FREQ_TOPOLOGY): m_count 32767");
    tu_st16(clk, 0xFFFF);
    EXPECT_INVALID(im.p, im.size, "(CLOCK_FREQ_TOPOLOGY): m_count -1 is "
                   "negative");
    free(im.p);
}

static void section_too_small_for_its_count_field_is_refused(void **state)
{
    (void)state;
    unsigned char two[2] = {0, 0};
    tu_sec s = {K_IP_LAYOUT, two, 2};
    image im;
    im.p = tu_build(&s, 1, &im.size);
    EXPECT_INVALID(im.p, im.size, "section 0 (IP_LAYOUT): 2 bytes cannot "
                   "hold m_count");
    free(im.p);
}

static void connectivity_index_out_of_range_is_refused(void **state)
{
    (void)state;
    image im = load("stock.xclbin");
    unsigned char *c = tu_section_data(im.p, K_CONNECTIVITY) + 4;
    tu_st32(c + 4, 6);
    EXPECT_INVALID(im.p, im.size, "section 2 (CONNECTIVITY): connection 0: "
                   "m_ip_layout_index 6 is not below the 6 IPs of IP_LAYOUT");
    tu_st32(c + 4, UINT32_MAX);
    EXPECT_INVALID(im.p, im.size, "m_ip_layout_index -1 is not below");
    tu_st32(c + 4, 0);
    tu_st32(c + 12 * 26 + 8, 3); /* the last connection */
    EXPECT_INVALID(im.p, im.size, "connection 26: mem_data_index 3 is not "
                   "below the 3 banks of MEM_TOPOLOGY");
    tu_st32(c + 12 * 26 + 8, 1);
    tu_st32(c, 0xFFFFFFFEu);
    EXPECT_INVALID(im.p, im.size, "connection 0: arg_index -2 is negative");
    free(im.p);
}

static void connectivity_without_ip_layout_is_refused(void **state)
{
    (void)state;
    unsigned char con[16] = {1, 0, 0, 0};
    unsigned char mem[48] = {1, 0, 0, 0, 0, 0, 0, 0, 1, 1};
    tu_sec s[] = {{K_MEM_TOPOLOGY, mem, sizeof mem},
                  {K_CONNECTIVITY, con, sizeof con}};
    image im;
    im.p = tu_build(s, 2, &im.size);
    EXPECT_INVALID(im.p, im.size, "m_ip_layout_index 0 is not below the 0 "
                   "IPs");
    free(im.p);
}

static void bank_beyond_64_is_not_supported(void **state)
{
    (void)state;
    enum { BANKS = 65 };
    unsigned char mem[8 + 40 * BANKS];
    memset(mem, 0, sizeof mem);
    tu_st32(mem, BANKS);
    unsigned char ip[8 + 80];
    memset(ip, 0, sizeof ip);
    tu_st32(ip, 1);
    tu_st32(ip + 8, AXL_XCLBIN_IP_KERNEL);
    memcpy(ip + 8 + 16, "k:k_1", 6);
    unsigned char con[4 + 12];
    memset(con, 0, sizeof con);
    tu_st32(con, 1);
    tu_st32(con + 4 + 8, 64);
    tu_sec s[] = {{K_MEM_TOPOLOGY, mem, sizeof mem},
                  {K_IP_LAYOUT, ip, sizeof ip},
                  {K_CONNECTIVITY, con, sizeof con}};
    image im;
    im.p = tu_build(s, 3, &im.size);
    EXPECT_UNSUPPORTED(im.p, im.size, "bank 64 is beyond the 64 banks");
    /* 65 banks are fine as long as connections stay below 64. */
    tu_st32(im.p + tu_ld64(im.p + AXLF_HEADER + 2 * AXLF_SECTION + 24) + 12,
            63);
    axl_xclbin x;
    open_ok(&x, im.p, im.size);
    assert_int_equal(x.mem_count, 65);
    assert_int_equal(axl_xclbin_arg_banks(&x, 0, 0), 1ull << 63);
    free(im.p);
}

static void names_without_nul_are_refused(void **state)
{
    (void)state;
    image im = load("stock.xclbin");
    unsigned char *mem = tu_section_data(im.p, K_MEM_TOPOLOGY);
    unsigned char *ip = tu_section_data(im.p, K_IP_LAYOUT);
    unsigned char *clk = tu_section_data(im.p, K_CLOCK_FREQ_TOPOLOGY);
    unsigned char saved[128];

    memcpy(saved, mem + 8 + 40 + 24, 16);
    memset(mem + 8 + 40 + 24, 'b', 16);
    EXPECT_INVALID(im.p, im.size, "section 0 (MEM_TOPOLOGY): bank 1: m_tag "
                   "has no NUL within its 16 bytes");
    memcpy(mem + 8 + 40 + 24, saved, 16);

    memset(ip + 8 + 5 * 80 + 16, 'n', 64);
    EXPECT_INVALID(im.p, im.size, "section 1 (IP_LAYOUT): ip 5: m_name has no "
                   "NUL within its 64 bytes");
    memset(ip + 8 + 5 * 80 + 16, 0, 64);
    memcpy(ip + 8 + 5 * 80 + 16, "nop:nop_1", 9);

    memcpy(saved, clk + 2 + 8, 128);
    memset(clk + 2 + 8, 'c', 128);
    EXPECT_INVALID(im.p, im.size, "section 3 (CLOCK_FREQ_TOPOLOGY): clock 0: "
                   "m_name has no NUL within its 128 bytes");
    memcpy(clk + 2 + 8, saved, 128);

    axl_xclbin x;
    open_ok(&x, im.p, im.size); /* restored */
    free(im.p);
}

static void bank_size_overflowing_bytes_is_refused(void **state)
{
    (void)state;
    image im = load("stock.xclbin");
    unsigned char *mem = tu_section_data(im.p, K_MEM_TOPOLOGY);
    tu_st64(mem + 8 + 8, 1ull << 60); /* KiB */
    EXPECT_INVALID(im.p, im.size, "bank 0 (bank0): m_size 0x1000000000000000 "
                   "KiB overflows");
    /* A streaming bank stores a route id there, not a size. */
    mem[8] = AXL_XCLBIN_MEM_STREAMING;
    axl_xclbin x;
    open_ok(&x, im.p, im.size);
    axl_xclbin_mem m;
    assert_int_equal(axl_xclbin_get_mem(&x, 0, &m), AXL_SUCCESS);
    assert_int_equal(m.size, 0);
    free(im.p);
}

/* Names in the image go into why: control characters must not break the
 * one-line promise (the fuzzer found this). */
static void why_stays_one_line_with_control_characters(void **state)
{
    (void)state;
    unsigned char mem[8 + 40];
    memset(mem, 0, sizeof mem);
    tu_st32(mem, 1);
    mem[8] = AXL_XCLBIN_MEM_DDR4;
    tu_st64(mem + 8 + 8, UINT64_MAX);
    memcpy(mem + 8 + 24, "a\nb\rc\x7f", 6);
    tu_sec s = {K_MEM_TOPOLOGY, mem, sizeof mem};
    image im;
    im.p = tu_build(&s, 1, &im.size);
    EXPECT_INVALID(im.p, im.size, "bank 0 (a?b?c?): m_size");
    free(im.p);
    XML_INVALID(KERNEL_DOC(ARG("name=\"a\" id=\"\n1\" addressQualifier=\"0\" "
                               "offset=\"0\" size=\"4\"")),
                "id=\"?1\" is not a number");
}

/* ---- XML: refused ---- */

static void xml_syntax_errors_are_refused(void **state)
{
    (void)state;
    XML_INVALID("<project><kernel name=\"k\"", "line 1: <kernel> is not "
                "terminated by '>'");
    XML_INVALID("<project>\n<kernel name=k></kernel></project>",
                "line 2: attribute 'name' of <kernel> is not quoted");
    XML_INVALID("<project><kernel name=\"k></kernel></project>",
                "value of attribute 'name' of <kernel> never ends");
    XML_INVALID("<project><kernel name></kernel></project>",
                "attribute 'name' of <kernel> has no value");
    XML_INVALID("<project><kernel name=\"a\"name=\"b\"/></project>",
                "unexpected 'n' in <kernel>");
    XML_INVALID("<project><kernel name=\"a\" / ></project>",
                "stray '/' in <kernel>");
    XML_INVALID("<project>< kernel/></project>", "'<' is not followed by an "
                "element name");
    XML_INVALID("<project></project ", "</project> is not terminated");
    XML_INVALID("<!-- open comment <project/>", "comment never ends");
    XML_INVALID("<project><![CDATA[ x </project>", "CDATA section never ends");
    XML_INVALID("<?xml version=\"1.0\"<project/>", "processing instruction "
                "never ends");
    XML_INVALID("<!DOCTYPE p [ <!ENTITY x \">\"> <project/>",
                "declaration never ends");
    XML_INVALID("</project>", "line 1: </project> closes no element");
    XML_INVALID("<project>\n<platform>\n</project>", "the document ends with "
                "1 element(s) open");
    XML_INVALID("just some text, no markup", "no XML element found");
    XML_INVALID(" \n\t", "no XML element found");
}

static void xml_kernel_structure_errors_are_refused(void **state)
{
    (void)state;
    XML_INVALID("<project><kernel name=\"k\"><arg name=\"a\" id=\"0\" "
                "addressQualifier=\"0\" offset=\"0x10\" size=\"4\"/>",
                "kernel 'k' has no </kernel>");
    XML_INVALID("<project><kernel name=\"k\"><module></kernel></module>"
                "</project>", "</module> closes kernel 'k'");
    XML_INVALID("<p><kernel name=\"a\"><kernel name=\"b\"/></kernel></p>",
                "<kernel> inside kernel 'a'");
    XML_INVALID("<p>\n<kernel name=\"a\"/>\n<kernel name=\"b\"/>\n"
                "<kernel name=\"a\"/></p>",
                "line 4: kernel 'a' is defined twice (first on line 2)");
    XML_INVALID("<p><kernel language=\"c\"/></p>", "<kernel> has no name");
    XML_INVALID("<p><kernel name=\"\"/></p>", "<kernel> has no name");
    xml_rejects_at("<p><kernel name=\"k\" hwControlProtocol=\"ap_ctrl_zz\"/>"
                   "</p>", AXL_ERR_FEATURE_NOT_SUPPORTED,
                   "kernel 'k': hwControlProtocol \"ap_ctrl_zz\" is not "
                   "supported", __LINE__);
}

static void xml_arg_errors_are_refused(void **state)
{
    (void)state;
    XML_INVALID(KERNEL_DOC(ARG("addressQualifier=\"0\" id=\"0\" offset=\"0\" "
                               "size=\"4\"")),
                "an arg of kernel 'k' has no name");
    XML_INVALID(KERNEL_DOC(ARG("name=\"a\" addressQualifier=\"0\" "
                               "offset=\"0\" size=\"4\"")),
                "kernel 'k' arg 'a' has no id");
    XML_INVALID(KERNEL_DOC(ARG("name=\"a\" id=\"0\" offset=\"0\" size=\"4\"")),
                "kernel 'k' arg 'a' has no addressQualifier");
    XML_INVALID(KERNEL_DOC(ARG("name=\"a\" id=\"0\" addressQualifier=\"0\" "
                               "size=\"4\"")),
                "kernel 'k' arg 'a' has no offset");
    XML_INVALID(KERNEL_DOC(ARG("name=\"a\" id=\"0\" addressQualifier=\"0\" "
                               "offset=\"0\"")),
                "kernel 'k' arg 'a' has no size");
    XML_INVALID(KERNEL_DOC(OK_ARG("a", "0") OK_ARG("b", "1") OK_ARG("c", "0")),
                "kernel 'k': arg 'c' repeats id 0");
    XML_INVALID(KERNEL_DOC(ARG("name=\"a\" id=\"0\" addressQualifier=\"0\" "
                               "offset=\"0xZZ\" size=\"4\"")),
                "kernel 'k' arg 'a': offset=\"0xZZ\" is not a number");
    XML_INVALID(KERNEL_DOC(ARG("name=\"a\" id=\"\" addressQualifier=\"0\" "
                               "offset=\"0\" size=\"4\"")),
                "id=\"\" is not a number");
    XML_INVALID(KERNEL_DOC(ARG("name=\"a\" id=\"0x\" addressQualifier=\"0\" "
                               "offset=\"0\" size=\"4\"")),
                "id=\"0x\" is not a number");
    XML_INVALID(KERNEL_DOC(ARG("name=\"a\" id=\"-1\" addressQualifier=\"0\" "
                               "offset=\"0\" size=\"4\"")),
                "id=\"-1\" is not a number");
    XML_INVALID(KERNEL_DOC(ARG("name=\"a\" id=\" 1\" addressQualifier=\"0\" "
                               "offset=\"0\" size=\"4\"")),
                "id=\" 1\" is not a number");
    XML_INVALID(KERNEL_DOC(ARG("name=\"a\" id=\"0\" addressQualifier=\"0\" "
                               "offset=\"0x10000000000000000\" size=\"4\"")),
                "offset=\"0x10000000000000000\" is out of range");
    XML_INVALID(KERNEL_DOC(ARG("name=\"a\" id=\"0\" addressQualifier=\"0\" "
                               "offset=\"18446744073709551616\" size=\"4\"")),
                "offset=\"18446744073709551616\" is out of range");
    XML_INVALID(KERNEL_DOC(ARG("name=\"a\" id=\"4294967296\" "
                               "addressQualifier=\"0\" offset=\"0\" "
                               "size=\"4\"")),
                "id=\"4294967296\" is out of range (max 4294967295)");
    XML_INVALID(KERNEL_DOC(ARG("name=\"a\" id=\"0\" addressQualifier=\"5\" "
                               "offset=\"0\" size=\"4\"")),
                "addressQualifier=\"5\" is out of range (max 4)");
    XML_INVALID(KERNEL_DOC(ARG("name=\"a\" id=\"0\" addressQualifier=\"0\" "
                               "offset=\"0\" size=\"4\" hostSize=\"big\"")),
                "hostSize=\"big\" is not a number");
}

static void xml_error_names_the_line(void **state)
{
    (void)state;
    XML_INVALID("<?xml version=\"1.0\"?>\n<project>\n  <kernel name=\"k\">\n"
                "    <arg name=\"a\" id=\"0\" addressQualifier=\"0\" "
                "offset=\"0x1g\" size=\"4\"/>\n  </kernel>\n</project>\n",
                "section 0 (EMBEDDED_METADATA): line 4: kernel 'k' arg 'a': "
                "offset=\"0x1g\" is not a number");
}

/* ---- XML: accepted ---- */

static void open_xml(axl_xclbin *x, image *im, const char *xml)
{
    *im = xml_image(xml);
    open_ok(x, im->p, im->size);
}

static void xml_decorations_are_skipped(void **state)
{
    (void)state;
    axl_xclbin x;
    image im;
    open_xml(&x, &im,
             "\xEF\xBB\xBF<?xml version='1.0' encoding=\"UTF-8\"?>\n"
             "<!DOCTYPE project [ <!ENTITY e \"<kernel name='ent'/>\"> "
             "<!ELEMENT project ANY> ]>\n"
             "<!-- <kernel name=\"in_comment\"/> -->\n"
             "<project a = 'x>y' b=\"it's\">\n"
             "  <?pi <kernel name=\"in_pi\"/> ?>\n"
             "  <text><![CDATA[<kernel name=\"in_cdata\"/>]]> &lt;kernel&gt;"
             "</text>\n"
             "  <kernelClocks><clock port=\"KERNEL_CLK\"/></kernelClocks>\n"
             "  <kernels/>\n"
             "  <kernel\n    name = 'k1'\n    hwControlProtocol=\"ap_ctrl_none\""
             "\n  >\n"
             "    <module name=\"m\"><arg name=\"deep\" id=\"9\"/></module>\n"
             "    <args><arg name=\"wrapped\" id=\"8\"/></args>\n"
             "    <arg name='x' addressQualifier='0' id='0' offset='16' "
             "size='4'></arg>\n"
             "    <arg name=\"p\" addressQualifier=\"1\" id=\"1\" "
             "offset=\"0X1C\" size=\"0x8\" hostSize=\"0x8\" "
             "type=\"hls::stream&lt;int&gt;&amp;\"/>\n"
             "    <instance name=\"k1_1\"><addrRemap base=\"0x0\"/></instance>\n"
             "  </kernel>\n"
             "  <kernel name=\"k2\" hwControlProtocol=\"user_managed\"/>\n"
             "  <deep><er><kernel name=\"k3\"></kernel></er></deep>\n"
             "</project>\n");
    assert_int_equal(x.kernel_count, 3);
    axl_xclbin_kernel k;
    axl_xclbin_arg a;
    assert_int_equal(axl_xclbin_get_kernel(&x, 0, &k), AXL_SUCCESS);
    ASSERT_STR(k.name, "k1");
    assert_int_equal(k.control, AXL_XCLBIN_AP_CTRL_NONE);
    assert_int_equal(k.arg_count, 2); /* only direct children */
    assert_int_equal(k.cu_count, 0);  /* no IP_LAYOUT */
    assert_int_equal(axl_xclbin_get_kernel_arg(&x, &k, 0, &a), AXL_SUCCESS);
    ASSERT_STR(a.name, "x");
    assert_int_equal(a.offset, 16);
    assert_int_equal(a.size, 4);
    assert_int_equal(a.host_size, 4); /* defaults to size */
    ASSERT_STR(a.type, "");           /* no type attribute */
    assert_int_equal(axl_xclbin_get_kernel_arg(&x, &k, 1, &a), AXL_SUCCESS);
    ASSERT_STR(a.name, "p");
    assert_int_equal(a.index, 1);
    assert_int_equal(a.address_qualifier, AXL_XCLBIN_ARG_GLOBAL);
    assert_int_equal(a.offset, 0x1c);
    ASSERT_STR(a.type, "hls::stream&lt;int&gt;&amp;"); /* as written */
    assert_int_equal(axl_xclbin_get_kernel(&x, 1, &k), AXL_SUCCESS);
    ASSERT_STR(k.name, "k2");
    assert_int_equal(k.control, AXL_XCLBIN_AP_CTRL_NONE);
    assert_int_equal(k.arg_count, 0);
    assert_int_equal(x.data[k.xml_offset + k.xml_size - 2], '/');
    assert_int_equal(axl_xclbin_get_kernel(&x, 2, &k), AXL_SUCCESS);
    ASSERT_STR(k.name, "k3");
    assert_int_equal(k.control, AXL_XCLBIN_AP_CTRL_HS); /* default */
    assert_memory_equal(x.data + k.xml_offset + k.xml_size - 9, "</kernel>",
                        9);
    free(im.p);
}

static void xml_numbers_at_the_limits_parse(void **state)
{
    (void)state;
    axl_xclbin x;
    image im;
    open_xml(&x, &im, KERNEL_DOC(
        ARG("name=\"a\" id=\"4294967295\" addressQualifier=\"4\" "
            "offset=\"18446744073709551615\" size=\"0xFFFFFFFFFFFFFFFF\" "
            "hostSize=\"0x0000000000000000000001\"")));
    axl_xclbin_kernel k;
    axl_xclbin_arg a;
    assert_int_equal(axl_xclbin_get_kernel(&x, 0, &k), AXL_SUCCESS);
    assert_int_equal(axl_xclbin_get_kernel_arg(&x, &k, 0, &a), AXL_SUCCESS);
    assert_int_equal(a.index, UINT32_MAX);
    assert_int_equal(a.address_qualifier, AXL_XCLBIN_ARG_STREAM);
    assert_true(a.offset == UINT64_MAX);
    assert_true(a.size == UINT64_MAX);
    assert_int_equal(a.host_size, 1); /* leading zeros are fine */
    free(im.p);
}

static void xml_ends_at_the_first_nul(void **state)
{
    (void)state;
    static const char xml[] = "<p><kernel name=\"k\"/></p>\0<<garbage";
    tu_sec s = {K_EMBEDDED_METADATA, xml, sizeof xml};
    image im;
    im.p = tu_build(&s, 1, &im.size);
    axl_xclbin x;
    open_ok(&x, im.p, im.size);
    assert_int_equal(x.kernel_count, 1);
    free(im.p);
}

static void cu_count_matches_the_kernel_part_of_ip_names(void **state)
{
    (void)state;
    static const char *names[] = {"k:k_1", "kk:k_2", "k:k_3", "k", "k_x:1"};
    static const uint32_t types[] = {AXL_XCLBIN_IP_KERNEL,
                                     AXL_XCLBIN_IP_KERNEL,
                                     AXL_XCLBIN_IP_KERNEL,
                                     AXL_XCLBIN_IP_KERNEL,
                                     AXL_XCLBIN_IP_MEM_DDR4};
    unsigned char ip[8 + 5 * 80];
    memset(ip, 0, sizeof ip);
    tu_st32(ip, 5);
    for (int i = 0; i < 5; i++) {
        tu_st32(ip + 8 + 80 * i, types[i]);
        tu_st32(ip + 8 + 80 * i + 4, 0x0100 | 0x1 | (uint32_t)(i << 1));
        tu_st64(ip + 8 + 80 * i + 8, 0x1000u * (unsigned)i);
        memcpy(ip + 8 + 80 * i + 16, names[i], strlen(names[i]));
    }
    const char *xml = "<p><kernel name=\"k\"/><kernel name=\"k_x\"/></p>";
    tu_sec s[] = {{K_IP_LAYOUT, ip, sizeof ip},
                  {K_EMBEDDED_METADATA, xml, strlen(xml)}};
    image im;
    im.p = tu_build(s, 2, &im.size);
    axl_xclbin x;
    open_ok(&x, im.p, im.size);
    axl_xclbin_kernel k;
    uint32_t idx;
    assert_int_equal(axl_xclbin_get_kernel(&x, 0, &k), AXL_SUCCESS);
    assert_int_equal(k.cu_count, 3); /* k:k_1, k:k_3 and "k" */
    assert_int_equal(axl_xclbin_get_kernel_cu(&x, &k, 0, &idx), AXL_SUCCESS);
    assert_int_equal(idx, 0);
    assert_int_equal(axl_xclbin_get_kernel_cu(&x, &k, 1, &idx), AXL_SUCCESS);
    assert_int_equal(idx, 2);
    assert_int_equal(axl_xclbin_get_kernel_cu(&x, &k, 2, &idx), AXL_SUCCESS);
    assert_int_equal(idx, 3);
    axl_xclbin_ip ipd;
    assert_int_equal(axl_xclbin_get_ip(&x, 3, &ipd), AXL_SUCCESS);
    ASSERT_STR(ipd.kernel, "k");
    ASSERT_STR(ipd.instance, "");
    assert_int_equal(ipd.interrupt_id, 3);
    assert_int_equal(ipd.control, AXL_XCLBIN_AP_CTRL_CHAIN);
    assert_int_equal(axl_xclbin_get_kernel(&x, 1, &k), AXL_SUCCESS);
    assert_int_equal(k.cu_count, 0); /* its only IP is not IP_KERNEL */
    free(im.p);
}

/* ---- groups ---- */

typedef struct group {
    const char *name;
    const struct CMUnitTest *tests;
    size_t count;
} group;

#define GROUP(n, t) {n, t, sizeof(t) / sizeof((t)[0])}

int main(int argc, char **argv)
{
    if (axl_test_without_reader())
        return 0;
    static const struct CMUnitTest values[] = {
        cmocka_unit_test(stock_image_has_the_contracted_design),
        cmocka_unit_test(app_image_has_scale_and_its_own_nop),
        cmocka_unit_test(amd_style_image_reads_through_the_extras),
        cmocka_unit_test(amd_style_image_gives_mode_interface_uuid_and_sections),
        cmocka_unit_test(streams_name_both_ends_their_fifo_and_each_port),
        cmocka_unit_test(bytes_past_m_length_are_ignored),
        cmocka_unit_test(image_without_metadata_has_cus_but_no_kernels),
        cmocka_unit_test(empty_sections_read_as_empty_tables),
        cmocka_unit_test(getters_refuse_bad_indices_and_arguments),
        cmocka_unit_test(small_helpers_behave),
        cmocka_unit_test(cu_count_matches_the_kernel_part_of_ip_names),
    };
    static const struct CMUnitTest truncation[] = {
        cmocka_unit_test(stock_truncated_at_every_length_is_refused),
        cmocka_unit_test(app_truncated_at_every_length_is_refused),
        cmocka_unit_test(amd_style_truncated_at_every_length_is_refused),
        cmocka_unit_test(m_length_cutting_into_sections_is_refused),
    };
    static const struct CMUnitTest header[] = {
        cmocka_unit_test(bad_magic_is_refused),
        cmocka_unit_test(m_length_outside_the_buffer_is_refused),
        cmocka_unit_test(huge_section_count_is_refused),
    };
    static const struct CMUnitTest tables[] = {
        cmocka_unit_test(section_offset_past_the_end_is_refused),
        cmocka_unit_test(unread_sections_are_checked_too),
        cmocka_unit_test(repeated_section_kind_is_refused),
        cmocka_unit_test(huge_m_count_is_refused),
        cmocka_unit_test(section_too_small_for_its_count_field_is_refused),
        cmocka_unit_test(connectivity_index_out_of_range_is_refused),
        cmocka_unit_test(connectivity_without_ip_layout_is_refused),
        cmocka_unit_test(bank_beyond_64_is_not_supported),
        cmocka_unit_test(names_without_nul_are_refused),
        cmocka_unit_test(bank_size_overflowing_bytes_is_refused),
        cmocka_unit_test(why_stays_one_line_with_control_characters),
    };
    static const struct CMUnitTest xml[] = {
        cmocka_unit_test(xml_syntax_errors_are_refused),
        cmocka_unit_test(xml_kernel_structure_errors_are_refused),
        cmocka_unit_test(xml_arg_errors_are_refused),
        cmocka_unit_test(xml_error_names_the_line),
        cmocka_unit_test(xml_decorations_are_skipped),
        cmocka_unit_test(xml_numbers_at_the_limits_parse),
        cmocka_unit_test(xml_ends_at_the_first_nul),
    };
    static const group groups[] = {
        GROUP("values", values),   GROUP("truncation", truncation),
        GROUP("header", header),   GROUP("tables", tables),
        GROUP("xml", xml),
    };
    int failed = 0, ran = 0;
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) {
        if (argc > 1 && strcmp(argv[1], groups[i].name) != 0)
            continue;
        ran++;
        failed += _cmocka_run_group_tests(groups[i].name, groups[i].tests,
                                          groups[i].count, NULL, NULL);
    }
    if (!ran) {
        fprintf(stderr, "no test group named '%s'\n", argv[1]);
        return 2;
    }
    return failed ? 1 : 0;
}
