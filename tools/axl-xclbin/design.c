/*
 * axl-xclbin design: an xclbin's design as C source, a const
 * axl_xclbin_design (include/axl/xclbin.h) a board links instead of the
 * image's bytes. Every value is what the reader's getters answer for the
 * image, so the core gives the same kernel ids, names and answers from
 * either form; strings become string constants the design's views point
 * into.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include "design.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The image's strings, each written once as a constant sN. */
typedef struct strtab {
    axl_str *s;
    size_t n, cap;
} strtab;

static int str_same(axl_str a, axl_str b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

/* Index of s in the table, adding it; -1 when out of memory. */
static long intern(strtab *t, axl_str s)
{
    for (size_t i = 0; i < t->n; i++)
        if (str_same(t->s[i], s))
            return (long)i;
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 32;
        axl_str *p = realloc(t->s, cap * sizeof *p);
        if (!p)
            return -1;
        t->s = p;
        t->cap = cap;
    }
    t->s[t->n] = s;
    return (long)t->n++;
}

static void put_c_string(FILE *out, axl_str s)
{
    fputc('"', out);
    for (size_t i = 0; i < s.len; i++) {
        unsigned char c = (unsigned char)s.ptr[i];
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20 || c >= 0x7F || c == '?')
            fprintf(out, "\\%03o", c); /* octal: no trigraphs, no hex runs */
        else
            fputc(c, out);
    }
    fputc('"', out);
}

/* A view: {sN, len}, or {sN + off, len} for a view inside another string. */
static void put_view(FILE *out, strtab *t, axl_str whole, axl_str part)
{
    long i = intern(t, whole);
    size_t off = (size_t)(part.ptr - whole.ptr);
    if (off)
        fprintf(out, "{s%ld + %zu, %zu}", i, off, part.len);
    else
        fprintf(out, "{s%ld, %zu}", i, part.len);
}

/* A string already written whole, or inside a longer one, is reused. */
static void put_str(FILE *out, strtab *t, axl_str s)
{
    for (size_t i = 0; s.len && i < t->n; i++)
        for (size_t off = 0; off + s.len <= t->s[i].len; off++)
            if (memcmp(t->s[i].ptr + off, s.ptr, s.len) == 0) {
                axl_str part = {t->s[i].ptr + off, s.len};
                put_view(out, t, t->s[i], part);
                return;
            }
    put_view(out, t, s, s);
}

/* Everything but the string constants goes to body; the constants are
 * known only at the end and are written first. */
int axl_design_write(FILE *out, const char *source, const char *symbol,
                     const axl_xclbin *x, char *err, size_t err_size)
{
    strtab t = {0};
    char *text = NULL;
    size_t text_size = 0;
    FILE *b = open_memstream(&text, &text_size);
    if (!b) {
        snprintf(err, err_size, "out of memory");
        return 1;
    }
    int bad = 0;

    if (x->mem_count) {
        fprintf(b, "static const axl_xclbin_mem mems[%" PRIu32 "] = {\n",
                x->mem_count);
        for (uint32_t i = 0; i < x->mem_count && !bad; i++) {
            axl_xclbin_mem m;
            bad = axl_xclbin_get_mem(x, i, &m) != AXL_SUCCESS;
            if (bad)
                break;
            fprintf(b, "    {.type = %u, .used = %u, .size = 0x%" PRIx64
                       ", .base_address = 0x%" PRIx64 ", .tag = ",
                    (unsigned)m.type, (unsigned)m.used, m.size,
                    m.base_address);
            put_str(b, &t, m.tag);
            if (m.fifo_depth)
                fprintf(b, ", .fifo_depth = %u", (unsigned)m.fifo_depth);
            fprintf(b, "},\n");
        }
        fprintf(b, "};\n\n");
    }
    if (x->ip_count && !bad) {
        fprintf(b, "static const axl_xclbin_ip ips[%" PRIu32 "] = {\n",
                x->ip_count);
        for (uint32_t i = 0; i < x->ip_count && !bad; i++) {
            axl_xclbin_ip ip;
            bad = axl_xclbin_get_ip(x, i, &ip) != AXL_SUCCESS;
            if (bad)
                break;
            fprintf(b, "    {.type = %" PRIu32 ", .control = %" PRIu32
                       ", .interrupt_id = %" PRIu32
                       ", .interrupt_enabled = %u,\n"
                       "     .base_address = 0x%" PRIx64 ", .name = ",
                    ip.type, ip.control, ip.interrupt_id,
                    (unsigned)ip.interrupt_enabled, ip.base_address);
            put_str(b, &t, ip.name);
            fprintf(b, ",\n     .kernel = ");
            put_view(b, &t, ip.name, ip.kernel);
            fprintf(b, ", .instance = ");
            put_view(b, &t, ip.name, ip.instance);
            fprintf(b, "},\n");
        }
        fprintf(b, "};\n\n");
    }
    if (x->connection_count && !bad) {
        fprintf(b, "static const axl_xclbin_connection connections[%" PRIu32
                   "] = {\n", x->connection_count);
        for (uint32_t i = 0; i < x->connection_count && !bad; i++) {
            axl_xclbin_connection c;
            bad = axl_xclbin_get_connection(x, i, &c) != AXL_SUCCESS;
            if (!bad)
                fprintf(b, "    {.arg_index = %" PRIu32 ", .ip_index = %" PRIu32
                           ", .mem_index = %" PRIu32 "},\n",
                        c.arg_index, c.ip_index, c.mem_index);
        }
        fprintf(b, "};\n\n");
    }
    if (x->clock_count && !bad) {
        fprintf(b, "static const axl_xclbin_clock clocks[%" PRIu32 "] = {\n",
                x->clock_count);
        for (uint32_t i = 0; i < x->clock_count && !bad; i++) {
            axl_xclbin_clock c;
            bad = axl_xclbin_get_clock(x, i, &c) != AXL_SUCCESS;
            if (bad)
                break;
            fprintf(b, "    {.freq_mhz = %u, .type = %u, .name = ",
                    (unsigned)c.freq_mhz, (unsigned)c.type);
            put_str(b, &t, c.name);
            fprintf(b, "},\n");
        }
        fprintf(b, "};\n\n");
    }
    for (uint32_t k = 0; k < x->kernel_count && !bad; k++) {
        axl_xclbin_kernel kk;
        bad = axl_xclbin_get_kernel(x, k, &kk) != AXL_SUCCESS;
        if (bad || !kk.arg_count)
            continue;
        fprintf(b, "static const axl_xclbin_arg k%" PRIu32 "_args[%" PRIu32
                   "] = {\n", k, kk.arg_count);
        for (uint32_t a = 0; a < kk.arg_count && !bad; a++) {
            axl_xclbin_arg arg;
            bad = axl_xclbin_get_kernel_arg(x, &kk, a, &arg) != AXL_SUCCESS;
            if (bad)
                break;
            fprintf(b, "    {.name = ");
            put_str(b, &t, arg.name);
            fprintf(b, ", .index = %" PRIu32 ", .address_qualifier = %" PRIu32
                       ",\n     .offset = 0x%" PRIx64 ", .size = %" PRIu64
                       ", .host_size = %" PRIu64 ", .type = ",
                    arg.index, arg.address_qualifier, arg.offset, arg.size,
                    arg.host_size);
            put_str(b, &t, arg.type);
            if (arg.address_qualifier == AXL_XCLBIN_ARG_STREAM)
                fprintf(b, ",\n     .stream_dir = %u, .stream_bits = %" PRIu32,
                        (unsigned)arg.stream_dir, arg.stream_bits);
            fprintf(b, "},\n");
        }
        fprintf(b, "};\n\n");
    }
    if (x->kernel_count && !bad) {
        fprintf(b, "static const axl_xclbin_design_kernel kernels[%" PRIu32
                   "] = {\n", x->kernel_count);
        for (uint32_t k = 0; k < x->kernel_count && !bad; k++) {
            axl_xclbin_kernel kk;
            bad = axl_xclbin_get_kernel(x, k, &kk) != AXL_SUCCESS;
            if (bad)
                break;
            fprintf(b, "    {.kernel = {.name = ");
            put_str(b, &t, kk.name);
            if (kk.vlnv.len) {
                fprintf(b, ", .vlnv = ");
                put_str(b, &t, kk.vlnv);
            }
            fprintf(b, ", .arg_count = %" PRIu32 ", .cu_count = %" PRIu32
                       ", .control = %" PRIu32 ",\n"
                       "                .xml_offset = %" PRIu32 "},\n",
                    kk.arg_count, kk.cu_count, kk.control, k);
            if (kk.arg_count)
                fprintf(b, "     .args = k%" PRIu32 "_args},\n", k);
            else
                fprintf(b, "     .args = NULL},\n");
        }
        fprintf(b, "};\n\n");
    }
    if (!bad) {
        fprintf(b, "const axl_xclbin_design %s = {\n    .uuid = {", symbol);
        for (int i = 0; i < AXL_XCLBIN_UUID_SIZE; i++)
            fprintf(b, "%s0x%02x", i ? ", " : "", x->uuid[i]);
        fprintf(b, "},\n");
        fprintf(b, "    .mem_count = %" PRIu32 ",\n    .ip_count = %" PRIu32
                   ",\n    .connection_count = %" PRIu32
                   ",\n    .clock_count = %" PRIu32
                   ",\n    .kernel_count = %" PRIu32 ",\n",
                x->mem_count, x->ip_count, x->connection_count,
                x->clock_count, x->kernel_count);
        fprintf(b, "    .mems = %s,\n    .ips = %s,\n    .connections = %s,\n"
                   "    .clocks = %s,\n    .kernels = %s,\n",
                x->mem_count ? "mems" : "NULL", x->ip_count ? "ips" : "NULL",
                x->connection_count ? "connections" : "NULL",
                x->clock_count ? "clocks" : "NULL",
                x->kernel_count ? "kernels" : "NULL");
        /* Only a partial's: flat designs' sources stay as they were. */
        if (x->mode)
            fprintf(b, "    .mode = %u,\n", (unsigned)x->mode);
        static const uint8_t none[AXL_XCLBIN_UUID_SIZE];
        if (memcmp(x->interface_uuid, none, sizeof none) != 0) {
            fprintf(b, "    .interface_uuid = {");
            for (int i = 0; i < AXL_XCLBIN_UUID_SIZE; i++)
                fprintf(b, "%s0x%02x", i ? ", " : "", x->interface_uuid[i]);
            fprintf(b, "},\n");
        }
        const axl_str platform = axl_xclbin_get_platform(x);
        if (platform.len) {
            fprintf(b, "    .platform = ");
            put_str(b, &t, platform);
            fprintf(b, ",\n");
        }
        fprintf(b, "};\n");
    }
    if (fclose(b) != 0)
        bad = 1;
    if (bad) {
        snprintf(err, err_size, "%s: the image's design cannot be read",
                 source);
        free(text);
        free(t.s);
        return 2;
    }

    fprintf(out,
            "/* Generated by axl-xclbin design from %s; do not edit.\n"
            " * The design of that image, pre-digested: a board links it\n"
            " * instead of the image's bytes (include/axl/xclbin.h,\n"
            " * axl_xclbin_design). */\n"
            "#include <stddef.h>\n\n#include \"axl/xclbin.h\"\n\n"
            "extern const axl_xclbin_design %s;\n\n",
            source, symbol);
    for (size_t i = 0; i < t.n; i++) {
        fprintf(out, "static const char s%zu[] = ", i);
        put_c_string(out, t.s[i]);
        fprintf(out, ";\n");
    }
    if (t.n)
        fputc('\n', out);
    fwrite(text, 1, text_size, out);
    free(text);
    free(t.s);
    return ferror(out) ? 1 : 0;
}
