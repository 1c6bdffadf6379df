/*
 * Pre-digested designs (axl_xclbin_open_design, axl-xclbin design): for
 * every stock image, the C source axl-xclbin wrote at build time gives
 * the same answer to every getter as the image's bytes (banks, IPs with
 * their base addresses and protocols, connections, clocks, kernels and
 * their arguments with ids, offsets and sizes, compute units, argument
 * connectivity, the UUID); a design that contradicts itself is refused
 * with AXL_ERR_INVALID and leaves the axl_xclbin zeroed.
 *
 * In a build without the reader (AXL_FEATURE_XCLBIN_READER 0) the bytes
 * cannot be opened: the test checks that they are refused with
 * AXL_ERR_FEATURE_NOT_SUPPORTED and that the designs still open.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "axl/xclbin.h"
#include "axl_config.h"

#include "axl_test_amd_style_xclbin.h"
#include "axl_test_app_xclbin.h"
#include "axl_test_stock_xclbin.h"
#include "axl_test_streams_xclbin.h"

extern const axl_xclbin_design axl_design_stock;
extern const axl_xclbin_design axl_design_app;
extern const axl_xclbin_design axl_design_amd_style;
extern const axl_xclbin_design axl_design_streams;

typedef struct pair {
    const char *name;
    const unsigned char *bytes;
    const size_t *size;
    const axl_xclbin_design *design;
} pair;

static const pair pairs[] = {
    {"stock", axl_test_stock_xclbin, &axl_test_stock_xclbin_size,
     &axl_design_stock},
    {"app", axl_test_app_xclbin, &axl_test_app_xclbin_size,
     &axl_design_app},
    {"amd_style", axl_test_amd_style_xclbin, &axl_test_amd_style_xclbin_size,
     &axl_design_amd_style},
    /* Streams between units and a free-running one (issue 39). */
    {"streams", axl_test_streams_xclbin, &axl_test_streams_xclbin_size,
     &axl_design_streams},
};

static void str_equal(axl_str a, axl_str b)
{
    assert_int_equal(a.len, b.len);
    if (a.len)
        assert_memory_equal(a.ptr, b.ptr, a.len);
}

static void same_design(const axl_xclbin *x, const axl_xclbin *d)
{
    assert_memory_equal(x->uuid, d->uuid, AXL_XCLBIN_UUID_SIZE);
    assert_int_equal(x->mode, d->mode);
    assert_memory_equal(x->interface_uuid, d->interface_uuid,
                        AXL_XCLBIN_UUID_SIZE);
    assert_int_equal(x->mem_count, d->mem_count);
    assert_int_equal(x->ip_count, d->ip_count);
    assert_int_equal(x->connection_count, d->connection_count);
    assert_int_equal(x->clock_count, d->clock_count);
    assert_int_equal(x->kernel_count, d->kernel_count);
    for (uint32_t i = 0; i <= x->mem_count; i++) {
        axl_xclbin_mem a, b;
        axl_status sa = axl_xclbin_get_mem(x, i, &a);
        assert_int_equal(sa, axl_xclbin_get_mem(d, i, &b));
        if (sa != AXL_SUCCESS)
            continue; /* one past the end: both refuse it */
        assert_int_equal(a.type, b.type);
        assert_int_equal(a.used, b.used);
        assert_int_equal(a.size, b.size);
        assert_int_equal(a.base_address, b.base_address);
        assert_int_equal(a.fifo_depth, b.fifo_depth);
        str_equal(a.tag, b.tag);
    }
    assert_int_equal(axl_xclbin_stream_count(x), axl_xclbin_stream_count(d));
    for (uint32_t i = 0; i <= axl_xclbin_stream_count(x); i++) {
        axl_xclbin_stream a, b;
        axl_status sa = axl_xclbin_get_stream(x, i, &a);
        assert_int_equal(sa, axl_xclbin_get_stream(d, i, &b));
        if (sa != AXL_SUCCESS)
            continue;
        assert_int_equal(a.mem_index, b.mem_index);
        assert_int_equal(a.fifo_depth, b.fifo_depth);
        assert_int_equal(a.producer_ip, b.producer_ip);
        assert_int_equal(a.producer_arg, b.producer_arg);
        assert_int_equal(a.consumer_ip, b.consumer_ip);
        assert_int_equal(a.consumer_arg, b.consumer_arg);
        str_equal(a.producer_unit, b.producer_unit);
        str_equal(a.producer_port, b.producer_port);
        str_equal(a.consumer_unit, b.consumer_unit);
        str_equal(a.consumer_port, b.consumer_port);
        uint32_t sx = 99, sd = 98;
        assert_int_equal(axl_xclbin_port_stream(x, a.consumer_ip,
                                                a.consumer_arg, &sx),
                         AXL_SUCCESS);
        assert_int_equal(axl_xclbin_port_stream(d, b.consumer_ip,
                                                b.consumer_arg, &sd),
                         AXL_SUCCESS);
        assert_int_equal(sx, i);
        assert_int_equal(sd, i);
    }
    for (uint32_t i = 0; i <= x->ip_count; i++) {
        axl_xclbin_ip a, b;
        axl_status sa = axl_xclbin_get_ip(x, i, &a);
        assert_int_equal(sa, axl_xclbin_get_ip(d, i, &b));
        if (sa != AXL_SUCCESS)
            continue;
        assert_int_equal(a.type, b.type);
        assert_int_equal(a.control, b.control);
        assert_int_equal(a.interrupt_id, b.interrupt_id);
        assert_int_equal(a.interrupt_enabled, b.interrupt_enabled);
        assert_int_equal(a.base_address, b.base_address);
        str_equal(a.name, b.name);
        str_equal(a.kernel, b.kernel);
        str_equal(a.instance, b.instance);
        for (uint32_t arg = 0; arg < 16; arg++)
            assert_int_equal(axl_xclbin_arg_banks(x, i, arg),
                             axl_xclbin_arg_banks(d, i, arg));
    }
    for (uint32_t i = 0; i <= x->connection_count; i++) {
        axl_xclbin_connection a, b;
        axl_status sa = axl_xclbin_get_connection(x, i, &a);
        assert_int_equal(sa, axl_xclbin_get_connection(d, i, &b));
        if (sa != AXL_SUCCESS)
            continue;
        assert_int_equal(a.arg_index, b.arg_index);
        assert_int_equal(a.ip_index, b.ip_index);
        assert_int_equal(a.mem_index, b.mem_index);
    }
    for (uint32_t i = 0; i <= x->clock_count; i++) {
        axl_xclbin_clock a, b;
        axl_status sa = axl_xclbin_get_clock(x, i, &a);
        assert_int_equal(sa, axl_xclbin_get_clock(d, i, &b));
        if (sa != AXL_SUCCESS)
            continue;
        assert_int_equal(a.freq_mhz, b.freq_mhz);
        assert_int_equal(a.type, b.type);
        str_equal(a.name, b.name);
    }
    for (uint32_t k = 0; k <= x->kernel_count; k++) {
        axl_xclbin_kernel a, b;
        axl_status sa = axl_xclbin_get_kernel(x, k, &a);
        assert_int_equal(sa, axl_xclbin_get_kernel(d, k, &b));
        if (sa != AXL_SUCCESS)
            continue;
        str_equal(a.name, b.name);
        assert_int_equal(a.arg_count, b.arg_count);
        assert_int_equal(a.cu_count, b.cu_count);
        assert_int_equal(a.control, b.control);
        for (uint32_t i = 0; i <= a.arg_count; i++) {
            axl_xclbin_arg p, q;
            axl_status sp = axl_xclbin_get_kernel_arg(x, &a, i, &p);
            assert_int_equal(sp, axl_xclbin_get_kernel_arg(d, &b, i, &q));
            if (sp != AXL_SUCCESS)
                continue;
            str_equal(p.name, q.name);
            assert_int_equal(p.index, q.index);
            assert_int_equal(p.address_qualifier, q.address_qualifier);
            assert_int_equal(p.offset, q.offset);
            assert_int_equal(p.size, q.size);
            assert_int_equal(p.host_size, q.host_size);
            assert_int_equal(p.stream_dir, q.stream_dir);
            assert_int_equal(p.stream_bits, q.stream_bits);
            str_equal(p.type, q.type);
        }
        for (uint32_t cu = 0; cu <= a.cu_count; cu++) {
            uint32_t ia = 99, ib = 98;
            axl_status sc = axl_xclbin_get_kernel_cu(x, &a, cu, &ia);
            assert_int_equal(sc, axl_xclbin_get_kernel_cu(d, &b, cu, &ib));
            if (sc == AXL_SUCCESS)
                assert_int_equal(ia, ib);
        }
    }
}

/* Every getter of the design answers as the image's bytes do. */
static void design_answers_as_the_image(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const pair *p = &pairs[i];
        axl_xclbin x, d;
        char why[256] = "untouched";
        assert_int_equal(axl_xclbin_open_design(&d, p->design, why,
                                                sizeof why),
                         AXL_SUCCESS);
        assert_string_equal(why, "");
        assert_ptr_equal(d.design, p->design);
        assert_null(d.data);
        assert_true(d.kernel_count > 0);
        axl_status st = axl_xclbin_open(&x, p->bytes, *p->size, why,
                                        sizeof why);
#if AXL_FEATURE_XCLBIN_READER
        assert_int_equal(st, AXL_SUCCESS);
        print_message("design %s: %u kernels, %u IPs, %u banks, same as "
                      "the image\n", p->name, (unsigned)d.kernel_count,
                      (unsigned)d.ip_count, (unsigned)d.mem_count);
        same_design(&x, &d);
#else
        (void)same_design;
        assert_int_equal(st, AXL_ERR_FEATURE_NOT_SUPPORTED);
        print_message("[  SKIPPED ] design %s against its bytes: the reader "
                      "is switched off (AXL_FEATURE_XCLBIN_READER 0)\n",
                      p->name);
#endif
    }
}

/* A design that contradicts itself is refused, as a bad image is. */
static void contradictory_design_is_refused(void **state)
{
    (void)state;
    axl_xclbin_design bad = axl_design_stock;
    axl_xclbin_connection conns[1] = {{0, 0, 0}};
    axl_xclbin_design_kernel ks[1];
    axl_xclbin x;
    char why[256];

    conns[0].mem_index = bad.mem_count; /* no such bank */
    bad.connections = conns;
    bad.connection_count = 1;
    memset(&x, 0xA5, sizeof x);
    assert_int_equal(axl_xclbin_open_design(&x, &bad, why, sizeof why),
                     AXL_ERR_INVALID);
    assert_null(x.design);
    assert_int_equal(x.kernel_count, 0);

    bad = axl_design_stock;
    bad.kernels = NULL; /* a count without its array */
    assert_int_equal(axl_xclbin_open_design(&x, &bad, why, sizeof why),
                     AXL_ERR_INVALID);

    bad = axl_design_stock;
    ks[0] = bad.kernels[0];
    ks[0].kernel.cu_count++; /* IP_LAYOUT has fewer */
    bad.kernels = ks;
    bad.kernel_count = 1;
    assert_int_equal(axl_xclbin_open_design(&x, &bad, why, sizeof why),
                     AXL_ERR_INVALID);
    assert_int_equal(axl_xclbin_open_design(&x, NULL, why, sizeof why),
                     AXL_ERR_INVALID);

    /* A kernel of another design is not one of this one. */
    axl_xclbin_kernel k;
    assert_int_equal(axl_xclbin_open_design(&x, &axl_design_stock, why,
                                            sizeof why),
                     AXL_SUCCESS);
    assert_int_equal(axl_xclbin_get_kernel(&x, 0, &k), AXL_SUCCESS);
    axl_xclbin_arg a;
    k.xml_offset = x.kernel_count;
    assert_int_equal(axl_xclbin_get_kernel_arg(&x, &k, 0, &a),
                     AXL_ERR_INVALID);
}

/* A partial's mode and shell come with its design, as from its bytes
 * (issue 40); a design has no section bytes to give. */
static void a_partial_design_gives_its_mode_and_shell(void **state)
{
    (void)state;
    axl_xclbin_design part = axl_design_stock;
    static const uint8_t shell[AXL_XCLBIN_UUID_SIZE] = {
        0x3c, 0x9f, 1, 2, 3, 4, 0x45, 6, 0x87, 8, 9, 10, 11, 12, 13, 0xee};
    part.mode = AXL_XCLBIN_PR;
    memcpy(part.interface_uuid, shell, sizeof shell);
    axl_xclbin x;
    char why[256];
    assert_int_equal(axl_xclbin_open_design(&x, &part, why, sizeof why),
                     AXL_SUCCESS);
    assert_int_equal(x.mode, AXL_XCLBIN_PR);
    assert_memory_equal(x.interface_uuid, shell, sizeof shell);
    axl_xclbin_range r;
    assert_int_equal(axl_xclbin_get_section(&x, AXL_XCLBIN_SECTION_BITSTREAM,
                                            &r),
                     AXL_ERR_FEATURE_NOT_SUPPORTED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(design_answers_as_the_image),
        cmocka_unit_test(contradictory_design_is_refused),
        cmocka_unit_test(a_partial_design_gives_its_mode_and_shell),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
