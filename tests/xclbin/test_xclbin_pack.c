/*
 * The packer (tools/axl-xclbin/pack.c): a manifest with the JSON forms
 * xclbinutil writes (and the ones people write by hand) round-trips
 * through the reader with the values it gave; the header is laid out as
 * XRT expects; bad manifests and JSON are refused with file:line reasons.
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
#include "pack.h"
#include "xclbin_test_util.h"

#ifndef AXL_TEST_TMP_DIR
#error "AXL_TEST_TMP_DIR must name a scratch folder"
#endif

static void put(const char *name, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", AXL_TEST_TMP_DIR, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        fail_msg("cannot write %s", path);
    fwrite(text, 1, strlen(text), f);
    fclose(f);
}

static int pack(const char *manifest, unsigned char **img, size_t *size,
                char *err, size_t err_size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", AXL_TEST_TMP_DIR, manifest);
    err[0] = '\0';
    return axl_pack_manifest(path, img, size, err, err_size);
}

#define ASSERT_STR(s, z)                                                    \
    do {                                                                    \
        if (!axl_str_eq((s), (z)))                                          \
            fail_msg("got \"%.*s\", want \"%s\"", (int)(s).len, (s).ptr,    \
                     (z));                                                  \
    } while (0)

static const char mem_json[] =
    "{\n"
    "    \"mem_topology\": {\n"
    "        \"m_count\": \"3\",\n"
    "        \"m_mem_data\": [\n"
    "            { \"m_type\": \"MEM_DDR4\", \"m_used\": \"1\",\n"
    "              \"m_sizeKB\": \"0x400\", \"m_tag\": \"b\\u0061nk\\/0\",\n"
    "              \"m_base_address\": \"0x80000000\" },\n"
    "            { \"m_type\": \"MEM_HBM\", \"m_used\": 1, \"m_size\": "
    "\"2097152\",\n"
    "              \"m_tag\": \"HBM[0]\", \"m_base_address\": 4096 },\n"
    "            { \"m_type\": \"MEM_STREAMING_CONNECTION\", \"m_used\": "
    "\"1\",\n"
    "              \"m_tag\": \"stream0\" }\n"
    "        ]\n"
    "    }\n"
    "}\n";

static const char ip_json[] =
    "{ \"ip_layout\": { \"m_count\": \"3\", \"m_ip_data\": [\n"
    "  { \"m_type\": \"IP_KERNEL\", \"m_int_enable\": \"true\",\n"
    "    \"m_interrupt_id\": \"5\", \"m_ip_control\": \"AP_CTRL_HS\",\n"
    "    \"m_base_address\": \"0x10000\", \"m_name\": \"k:k_1\" },\n"
    "  { \"m_type\": \"IP_KERNEL\", \"properties\": \"0x102\",\n"
    "    \"m_base_address\": \"not_used\", \"m_name\": \"k:k_2\" },\n"
    "  { \"m_type\": \"IP_MEM_DDR4\", \"m_index\": \"3\", \"m_pc_index\": "
    "\"2\",\n"
    "    \"m_base_address\": \"0x0\", \"m_name\": \"ddr\" }\n"
    "] } }\n";

static const char con_json[] =
    "{ \"connectivity\": { \"m_count\": \"2\", \"m_connection\": [\n"
    "  { \"arg_index\": \"0\", \"m_ip_layout_index\": \"0\", "
    "\"mem_data_index\": \"1\" },\n"
    "  { \"arg_index\": 0, \"m_ip_layout_index\": 1, \"mem_data_index\": 0 }\n"
    "] } }\n";

static const char clk_json[] =
    "{ \"clock_freq_topology\": { \"m_count\": \"1\", \"m_clock_freq\": [\n"
    "  { \"m_freq_Mhz\": \"250\", \"m_type\": \"SYSTEM\", \"m_name\": "
    "\"sys\" } ] } }\n";

static const char xml[] =
    "<project><platform><device><core>\n"
    "<kernel name=\"k\" hwControlProtocol=\"ap_ctrl_hs\">\n"
    "<arg name=\"p\" addressQualifier=\"1\" id=\"0\" offset=\"0x10\" "
    "size=\"0x8\" hostSize=\"0x8\" type=\"int*\"/>\n"
    "</kernel></core></device></platform></project>\n";

static void write_round_trip_sources(void)
{
    put("mem.json", mem_json);
    put("ip.json", ip_json);
    put("con.json", con_json);
    put("clk.json", clk_json);
    put("k.xml", xml);
    put("blob.bin", "0123456789");
    put("rt.manifest",
        "# a comment line, with several words\n"
        "   # an indented comment\n"
        "\n"
        "uuid 0123abcd-4567-89ef-0123-456789ABCDEF\n"
        "platform my_platform\n"
        "timestamp 0x1234\n"
        "version 2.14.354\n"
        "mode hw_emu\n"
        "section BITSTREAM raw blob.bin\n"
        "section MEM_TOPOLOGY json mem.json\n"
        "section IP_LAYOUT json ip.json mylayout\n"
        "section CONNECTIVITY json con.json\n"
        "section CLOCK_FREQ_TOPOLOGY\tjson\tclk.json\n"
        "section EMBEDDED_METADATA raw k.xml\r\n");
}

static void manifest_round_trips_through_the_reader(void **state)
{
    (void)state;
    write_round_trip_sources();
    unsigned char *img, *again;
    size_t size, size2;
    char err[512];
    if (pack("rt.manifest", &img, &size, err, sizeof err))
        fail_msg("pack failed: %s", err);
    /* Deterministic: a second run gives the same bytes. */
    assert_int_equal(pack("rt.manifest", &again, &size2, err, sizeof err), 0);
    assert_int_equal(size, size2);
    assert_memory_equal(img, again, size);
    free(again);

    /* The header as xclbinutil writes it. */
    assert_memory_equal(img, "xclbin2", 8);
    assert_int_equal(tu_ld32(img + 8), 0xFFFFFFFFu); /* no signature */
    assert_int_equal(img[12], 0xFF);                 /* reserved */
    assert_int_equal(img[40], 0xFF);                 /* key block */
    assert_int_equal(tu_ld64(img + 296), 0x1234);    /* m_uniqueId */
    assert_int_equal(tu_ld64(img + 304), size);      /* m_length */
    assert_int_equal(tu_ld64(img + 312), 0x1234);    /* m_timeStamp */
    assert_int_equal(img[328] | img[329] << 8, 354);
    assert_int_equal(img[330], 2);
    assert_int_equal(img[331], 14);
    assert_int_equal(img[332], 4); /* XCLBIN_HW_EMU */
    assert_string_equal((const char *)img + 352, "my_platform");
    assert_int_equal(tu_ld32(img + 448), 6);
    static const char *names[] = {"blob", "mem", "mylayout", "con", "clk",
                                  "k"};
    for (unsigned i = 0; i < 6; i++) {
        const unsigned char *h = img + AXLF_HEADER + i * AXLF_SECTION;
        assert_string_equal((const char *)h + 4, names[i]);
        assert_int_equal(tu_ld64(h + 24) % 8, 0); /* aligned */
    }
    const unsigned char *blob = tu_section_data(img, K_BITSTREAM);
    assert_memory_equal(blob, "0123456789", 10);

    axl_xclbin x;
    char why[256];
    if (axl_xclbin_open(&x, img, size, why, sizeof why) != AXL_SUCCESS)
        fail_msg("reader refused the packed image: %s", why);
    static const uint8_t uuid[16] = {0x01, 0x23, 0xab, 0xcd, 0x45, 0x67,
                                     0x89, 0xef, 0x01, 0x23, 0x45, 0x67,
                                     0x89, 0xab, 0xcd, 0xef};
    assert_memory_equal(x.uuid, uuid, 16);

    axl_xclbin_mem m;
    assert_int_equal(x.mem_count, 3);
    assert_int_equal(axl_xclbin_get_mem(&x, 0, &m), AXL_SUCCESS);
    ASSERT_STR(m.tag, "bank/0"); /* \u0061 and \/ decoded */
    assert_int_equal(m.type, AXL_XCLBIN_MEM_DDR4);
    assert_int_equal(m.size, 0x400 * 1024);
    assert_int_equal(m.base_address, 0x80000000u);
    assert_int_equal(axl_xclbin_get_mem(&x, 1, &m), AXL_SUCCESS);
    assert_int_equal(m.size, 2097152); /* m_size is in bytes */
    assert_int_equal(m.base_address, 4096);
    assert_int_equal(axl_xclbin_get_mem(&x, 2, &m), AXL_SUCCESS);
    assert_int_equal(m.type, AXL_XCLBIN_MEM_STREAMING_CONNECTION);
    assert_int_equal(m.base_address, 0);

    axl_xclbin_ip ip;
    assert_int_equal(x.ip_count, 3);
    assert_int_equal(axl_xclbin_get_ip(&x, 0, &ip), AXL_SUCCESS);
    assert_int_equal(ip.interrupt_enabled, 1);
    assert_int_equal(ip.interrupt_id, 5);
    assert_int_equal(ip.control, AXL_XCLBIN_AP_CTRL_HS);
    assert_int_equal(ip.base_address, 0x10000);
    assert_int_equal(axl_xclbin_get_ip(&x, 1, &ip), AXL_SUCCESS);
    assert_int_equal(ip.control, AXL_XCLBIN_AP_CTRL_CHAIN); /* 0x102 */
    assert_int_equal(ip.interrupt_id, 1);
    assert_int_equal(ip.base_address, UINT64_MAX); /* not_used */
    const unsigned char *ipd = tu_section_data(img, K_IP_LAYOUT);
    assert_int_equal(tu_ld32(ipd + 8 + 2 * 80 + 4), 3 | 2 << 16);

    axl_xclbin_connection c;
    assert_int_equal(x.connection_count, 2);
    assert_int_equal(axl_xclbin_get_connection(&x, 1, &c), AXL_SUCCESS);
    assert_int_equal(c.ip_index, 1);
    assert_int_equal(c.mem_index, 0);

    axl_xclbin_clock clk;
    assert_int_equal(axl_xclbin_get_clock(&x, 0, &clk), AXL_SUCCESS);
    assert_int_equal(clk.freq_mhz, 250);
    assert_int_equal(clk.type, 3);
    ASSERT_STR(clk.name, "sys");

    assert_int_equal(x.kernel_count, 1);
    axl_xclbin_kernel k;
    assert_int_equal(axl_xclbin_get_kernel(&x, 0, &k), AXL_SUCCESS);
    assert_int_equal(k.cu_count, 2);
    assert_int_equal(axl_xclbin_arg_banks(&x, 0, 0), 0x2);
    free(img);
}

static void expect_pack_error(const char *manifest, const char *needle,
                              int line)
{
    unsigned char *img = NULL;
    size_t size;
    char err[512];
    int r = pack(manifest, &img, &size, err, sizeof err);
    if (r != -1 || !strstr(err, needle) || strchr(err, '\n'))
        fail_msg("line %d: pack gave %d \"%s\"; want -1 and \"%s\"", line, r,
                 err, needle);
    assert_null(img);
}

#define PACK_ERROR(m, needle) expect_pack_error(m, needle, __LINE__)

static void bad_manifests_are_refused(void **state)
{
    (void)state;
    write_round_trip_sources();
    put("m1", "platform p\n");
    PACK_ERROR("m1", "m1: no uuid line");
    put("m2", "uuid 0123abcd-4567-89ef-0123-456789abcde\n");
    PACK_ERROR("m2", "m2:1: \"0123abcd-4567-89ef-0123-456789abcde\" is not "
               "a UUID");
    put("m3", "uuid 0123abcd-4567-89ef-0123-456789abcdef\nfrobnicate 1\n");
    PACK_ERROR("m3", "m3:2: unknown directive \"frobnicate\"");
    put("m4", "uuid 0123abcd-4567-89ef-0123-456789abcdef\n"
              "section NOT_A_KIND raw blob.bin\n");
    PACK_ERROR("m4", "m4:2: unknown section kind \"NOT_A_KIND\"");
    put("m5", "uuid 0123abcd-4567-89ef-0123-456789abcdef\n"
              "section BITSTREAM xml blob.bin\n");
    PACK_ERROR("m5", "format \"xml\" is neither raw nor json");
    put("m6", "uuid 0123abcd-4567-89ef-0123-456789abcdef\n"
              "section BITSTREAM raw missing.bin\n");
    PACK_ERROR("m6", "m6:2: cannot read");
    put("m7", "uuid 0123abcd-4567-89ef-0123-456789abcdef\n"
              "section BITSTREAM json blob.bin\n");
    PACK_ERROR("m7", "blob.bin:1: the JSON is not an object");
    put("m8", "uuid 0123abcd-4567-89ef-0123-456789abcdef\nversion 2.x\n");
    PACK_ERROR("m8", "version \"2.x\" is not MAJOR.MINOR.PATCH");
    put("m9", "uuid 0123abcd-4567-89ef-0123-456789abcdef\nmode turbo\n");
    PACK_ERROR("m9", "unknown mode \"turbo\"");
    put("m10", "uuid 0123abcd-4567-89ef-0123-456789abcdef\n"
               "section BITSTREAM raw blob.bin a_name_too_long_\n");
    PACK_ERROR("m10", "section name \"a_name_too_long_\" is longer than 15");
    put("m11", "uuid 0123abcd-4567-89ef-0123-456789abcdef\n"
               "section DEBUG_DATA json mem.json\n");
    PACK_ERROR("m11", "no JSON format for section DEBUG_DATA");
}

static void put_mem_manifest(const char *json)
{
    put("bad.json", json);
    put("bm", "uuid 0123abcd-4567-89ef-0123-456789abcdef\n"
              "section MEM_TOPOLOGY json bad.json\n");
}

static void bad_section_json_is_refused(void **state)
{
    (void)state;
    put_mem_manifest("{\n  \"mem_topology\" {\n}");
    PACK_ERROR("bm", "bad.json:2: expected ':' after \"mem_topology\"");
    put_mem_manifest("{ \"mem_topology\": { \"m_count\": \"2\", "
                     "\"m_mem_data\": [ ] } }");
    PACK_ERROR("bm", "m_count is 2 but \"m_mem_data\" has 0 entries");
    put_mem_manifest("{ \"mem_topology\": { \"m_count\": \"1\", "
                     "\"m_mem_data\": [ { \"m_type\": \"MEM_DDR9\", "
                     "\"m_used\": \"1\", \"m_tag\": \"t\", "
                     "\"m_base_address\": \"0\" } ] } }");
    PACK_ERROR("bm", "unknown m_type \"MEM_DDR9\"");
    put_mem_manifest("{ \"mem_topology\": { \"m_count\": \"1\", "
                     "\"m_mem_data\": [ { \"m_type\": \"MEM_DDR4\", "
                     "\"m_used\": \"1\", \"m_tag\": \"sixteen_chars_xx\", "
                     "\"m_base_address\": \"0\" } ] } }");
    PACK_ERROR("bm", "\"m_tag\" \"sixteen_chars_xx\" is longer than 15");
    put_mem_manifest("{ \"mem_topology\": { \"m_count\": \"1\", "
                     "\"m_mem_data\": [ { \"m_type\": \"MEM_DDR4\", "
                     "\"m_used\": \"1\", \"m_tag\": \"t\", \"m_size\": "
                     "\"1000\", \"m_base_address\": \"0\" } ] } }");
    PACK_ERROR("bm", "\"m_size\" 1000 is not a multiple of 1024");
    put_mem_manifest("{ \"mem_topology\": { \"m_count\": \"1\", "
                     "\"m_mem_data\": [ { \"m_type\": \"MEM_DDR4\", "
                     "\"m_used\": \"1\", \"m_tag\": \"t\", \"m_size\": "
                     "\"1024\", \"m_sizeKB\": \"1\", \"m_base_address\": "
                     "\"0\" } ] } }");
    PACK_ERROR("bm", "\"m_size\" and \"m_sizeKB\" are mutually exclusive");
    put_mem_manifest("{ \"mem_topology\": { \"m_count\": \"1\", "
                     "\"m_mem_data\": [ { \"m_type\": \"MEM_DDR4\", "
                     "\"m_used\": \"1\", \"m_tag\": \"t\" } ] } }");
    PACK_ERROR("bm", "missing \"m_base_address\"");
    put_mem_manifest("{ \"mem_topology\": { \"m_count\": \"0x\", "
                     "\"m_mem_data\": [] } }");
    PACK_ERROR("bm", "\"m_count\" is not an unsigned number");
    put_mem_manifest("{ \"group_topology\": {} }");
    PACK_ERROR("bm", "no \"mem_topology\" object");
    put_mem_manifest("{ \"mem_topology\": { \"m_count\": \"1\", "
                     "\"m_mem_data\": [ { \"m_tag\": \"caf\\u00e9\\ud83d"
                     "\\ude00\", \"m_type\": \"MEM_DDR4\", \"m_used\": 2, "
                     "\"m_base_address\": \"0x0\" } ] } }");
    unsigned char *img;
    size_t size;
    char err[512];
    if (pack("bm", &img, &size, err, sizeof err))
        fail_msg("pack failed: %s", err);
    const unsigned char *mem = tu_section_data(img, K_MEM_TOPOLOGY);
    /* UTF-8 of "café😀" */
    assert_memory_equal(mem + 8 + 24, "caf\xC3\xA9\xF0\x9F\x98\x80", 10);
    free(img);
    put_mem_manifest("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
                     "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
                     "]]]");
    PACK_ERROR("bm", "nesting deeper than 64");
    put_mem_manifest("{ \"mem_topology\": \"unterminated }");
    PACK_ERROR("bm", "string never ends");
    put_mem_manifest("{ \"a\": \"\\q\" }");
    PACK_ERROR("bm", "bad escape '\\q'");
    put_mem_manifest("{ }\n x");
    PACK_ERROR("bm", "bad.json:2: text after the JSON value");
    put("ps.json", "{ \"ip_layout\": { \"m_count\": \"1\", \"m_ip_data\": "
                   "[ { \"m_type\": \"IP_PS_KERNEL\", \"m_subtype\": \"DPU\", "
                   "\"m_base_address\": \"not_used\", \"m_name\": \"p\" } ] } }");
    put("pm", "uuid 0123abcd-4567-89ef-0123-456789abcdef\n"
              "section IP_LAYOUT json ps.json\n");
    PACK_ERROR("pm", "IP_PS_KERNEL m_subtype, m_functional and m_kernel_id "
               "are not supported");
}

int main(void)
{
    if (axl_test_without_reader())
        return 0;
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(manifest_round_trips_through_the_reader),
        cmocka_unit_test(bad_manifests_are_refused),
        cmocka_unit_test(bad_section_json_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
