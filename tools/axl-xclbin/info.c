/*
 * `axl-xclbin info`: prints what axl reads from an image, through the
 * same reader the runtime uses (core/xclbin.c).
 */
#include "info.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "platform.h"

static const char *const mem_types[] = {
    "MEM_DDR3", "MEM_DDR4", "MEM_DRAM", "MEM_STREAMING",
    "MEM_PREALLOCATED_GLOB", "MEM_ARE", "MEM_HBM", "MEM_BRAM", "MEM_URAM",
    "MEM_STREAMING_CONNECTION", "MEM_HOST", "MEM_PS_KERNEL"};
static const char *const ip_types[] = {
    "IP_MB", "IP_KERNEL", "IP_DNASC", "IP_DDR4_CONTROLLER", "IP_MEM_DDR4",
    "IP_MEM_HBM", "IP_MEM_HBM_ECC", "IP_PS_KERNEL"};
static const char *const controls[] = {
    "ap_ctrl_hs", "ap_ctrl_chain", "ap_ctrl_none", "ap_ctrl_me",
    "accel_adapter", "fast_adapter"};
static const char *const clock_types[] = {"unused", "data", "kernel",
                                          "system"};
static const char *const quals[] = {"scalar", "buffer", "constant", "local",
                                    "stream"};

#define NAME(table, v) \
    ((v) < sizeof(table) / sizeof((table)[0]) ? (table)[v] : "unknown")

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Length of a NUL-padded fixed field (strnlen is POSIX, not C11). */
static int field_len(const uint8_t *p, size_t cap)
{
    const void *nul = memchr(p, 0, cap);
    return (int)(nul ? (size_t)((const uint8_t *)nul - p) : cap);
}

static void size_text(uint64_t bytes, char *out, size_t cap)
{
    if (bytes && bytes % (1024u * 1024 * 1024) == 0)
        snprintf(out, cap, "%" PRIu64 " GiB", bytes >> 30);
    else if (bytes && bytes % (1024u * 1024) == 0)
        snprintf(out, cap, "%" PRIu64 " MiB", bytes >> 20);
    else if (bytes && bytes % 1024 == 0)
        snprintf(out, cap, "%" PRIu64 " KiB", bytes >> 10);
    else
        snprintf(out, cap, "%" PRIu64 " B", bytes);
}

/* One unit of XML character data at p (n bytes left): a character
 * reference (&lt; &gt; &amp; &quot; &apos; &#N; &#xH;) as its code point,
 * or one byte as itself. Returns the bytes it took; *raw is 1 for a byte
 * (which may be part of a UTF-8 sequence), 0 for a decoded reference. A
 * reference that is none of these stays as written. */
static size_t xml_char(const char *p, size_t n, unsigned long *cp, int *raw)
{
    static const struct { const char *name; char c; } named[] = {
        {"lt;", '<'}, {"gt;", '>'}, {"amp;", '&'}, {"quot;", '"'},
        {"apos;", '\''}};
    *raw = 1;
    *cp = (unsigned char)p[0];
    if (p[0] != '&')
        return 1;
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        size_t k = strlen(named[i].name);
        if (n > k && memcmp(p + 1, named[i].name, k) == 0) {
            *raw = 0;
            *cp = (unsigned char)named[i].c;
            return k + 1;
        }
    }
    if (n < 4 || p[1] != '#')
        return 1;
    int hex = p[2] == 'x' || p[2] == 'X';
    size_t i = hex ? 3 : 2;
    unsigned long v = 0;
    size_t start = i;
    for (; i < n && i < start + 8; i++) {
        int d;
        char c = p[i];
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (hex && c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (hex && c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            break;
        v = v * (hex ? 16u : 10u) + (unsigned)d;
    }
    if (i == start || i >= n || p[i] != ';' || v == 0 || v > 0x10FFFF ||
        (v >= 0xD800 && v <= 0xDFFF))
        return 1;
    *raw = 0;
    *cp = v;
    return i + 1;
}

/* XML character data (an argument's type, "stream&lt;int&gt;&amp;") as
 * text: references decoded, code points above ASCII in UTF-8. */
static void print_xml_text(FILE *o, const char *p, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned long c;
        int raw;
        i += xml_char(p + i, n - i, &c, &raw);
        if (raw || c < 0x80) {
            fputc((int)c, o);
        } else if (c < 0x800) {
            fputc((int)(0xC0 | c >> 6), o);
            fputc((int)(0x80 | (c & 0x3F)), o);
        } else if (c < 0x10000) {
            fputc((int)(0xE0 | c >> 12), o);
            fputc((int)(0x80 | (c >> 6 & 0x3F)), o);
            fputc((int)(0x80 | (c & 0x3F)), o);
        } else {
            fputc((int)(0xF0 | c >> 18), o);
            fputc((int)(0x80 | (c >> 12 & 0x3F)), o);
            fputc((int)(0x80 | (c >> 6 & 0x3F)), o);
            fputc((int)(0x80 | (c & 0x3F)), o);
        }
    }
}

static void print_banks(FILE *o, const axl_xclbin *x, uint64_t mask)
{
    if (!mask) {
        fprintf(o, "(none)");
        return;
    }
    const char *sep = "";
    for (uint32_t b = 0; b < 64; b++) {
        axl_xclbin_mem m;
        if (!(mask >> b & 1))
            continue;
        if (axl_xclbin_get_mem(x, b, &m) == AXL_SUCCESS)
            fprintf(o, "%s%.*s", sep, (int)m.tag.len, m.tag.ptr);
        else
            fprintf(o, "%s#%u", sep, (unsigned)b);
        sep = " ";
    }
}

/* "mm2s:mm2s_1.out -> sadd:sadd_1.a  fifo 64" */
static void print_stream(FILE *o, const axl_xclbin_stream *st)
{
    fprintf(o, "%.*s.%.*s -> %.*s.%.*s  ", (int)st->producer_unit.len,
            st->producer_unit.ptr, (int)st->producer_port.len,
            st->producer_port.ptr, (int)st->consumer_unit.len,
            st->consumer_unit.ptr, (int)st->consumer_port.len,
            st->consumer_port.ptr);
    if (st->fifo_depth)
        fprintf(o, "fifo %u", (unsigned)st->fifo_depth);
    else
        fprintf(o, "no fifo given");
}

static int has_interface(const axl_xclbin *x)
{
    static const uint8_t none[AXL_XCLBIN_UUID_SIZE];
    return memcmp(x->interface_uuid, none, sizeof none) != 0;
}

static void print_uuid(FILE *o, const uint8_t *u)
{
    for (int i = 0; i < AXL_XCLBIN_UUID_SIZE; i++)
        fprintf(o, "%02x%s", u[i],
                (i == 3 || i == 5 || i == 7 || i == 9) ? "-" : "");
}

/* The preset shell a partial names, and the slot whose control window
 * holds every compute unit (NULL when none does). */
static const axl_platform *shell_of(const axl_xclbin *x,
                                    const axl_platform_slot **slot)
{
    *slot = NULL;
    const axl_platform *p = has_interface(x)
                                ? axl_platform_of_interface(x->interface_uuid)
                                : NULL;
    for (unsigned s = 0; p && s < p->shell->nslots && !*slot; s++) {
        const axl_platform_slot *sl = &p->shell->slots[s];
        int inside = 1;
        for (uint32_t i = 0; i < x->ip_count && inside; i++) {
            axl_xclbin_ip ip;
            if (axl_xclbin_get_ip(x, i, &ip) == AXL_SUCCESS &&
                ip.type == AXL_XCLBIN_IP_KERNEL)
                inside = ip.base_address >= sl->ctrl_base &&
                         ip.base_address - sl->ctrl_base < sl->ctrl_size;
        }
        if (inside)
            *slot = sl;
    }
    return p;
}

/* "pr (partial for shell k26_2rp, slot RP_0)", "flat". */
static void print_mode(FILE *o, const axl_xclbin *x)
{
    const axl_platform_slot *slot;
    const axl_platform *p = shell_of(x, &slot);
    fprintf(o, "mode      %s", axl_xclbin_mode_name(x->mode));
    if (p)
        fprintf(o, " (partial for shell %s, %s%s)", p->name,
                slot ? "slot " : "units outside every slot",
                slot ? slot->name : "");
    fprintf(o, "\n");
    if (has_interface(x)) {
        fprintf(o, "interface ");
        print_uuid(o, x->interface_uuid);
        fprintf(o, "\n");
    }
}

void axl_info_print(FILE *o, const char *path, const axl_xclbin *x)
{
    const uint8_t *h = x->data;
    fprintf(o, "image     %s (%zu bytes)\n", path, x->size);
    fprintf(o, "uuid      ");
    print_uuid(o, x->uuid);
    fprintf(o, "\nplatform  %.*s\n", field_len(h + 352, 64),
            (const char *)h + 352);
    print_mode(o, x);

    fprintf(o, "sections  %u\n", (unsigned)x->section_count);
    for (uint32_t i = 0; i < x->section_count; i++) {
        const uint8_t *s = h + 456 + (size_t)i * 40;
        uint32_t kind = (uint32_t)s[0] | (uint32_t)s[1] << 8 |
                        (uint32_t)s[2] << 16 | (uint32_t)s[3] << 24;
        fprintf(o, "  %-3u %-22s %-16.*s offset 0x%06" PRIx64 " size %"
                PRIu64 "\n", (unsigned)i, axl_xclbin_section_name(kind),
                field_len(s + 4, 16), (const char *)s + 4,
                rd64(s + 24), rd64(s + 32));
    }

    fprintf(o, "memory banks  %u\n", (unsigned)x->mem_count);
    for (uint32_t i = 0; i < x->mem_count; i++) {
        axl_xclbin_mem m;
        char sz[32];
        if (axl_xclbin_get_mem(x, i, &m))
            continue;
        size_text(m.size, sz, sizeof sz);
        if (m.type == AXL_XCLBIN_MEM_STREAMING_CONNECTION)
            snprintf(sz, sizeof sz, "fifo %u", (unsigned)m.fifo_depth);
        fprintf(o, "  [%u] %-16.*s %-10s %-6s %-9s base 0x%" PRIx64 "\n",
                (unsigned)i, (int)m.tag.len, m.tag.ptr,
                NAME(mem_types, m.type), m.used ? "used" : "unused", sz,
                m.base_address);
    }

    fprintf(o, "compute units / IPs  %u\n", (unsigned)x->ip_count);
    for (uint32_t i = 0; i < x->ip_count; i++) {
        axl_xclbin_ip ip;
        if (axl_xclbin_get_ip(x, i, &ip))
            continue;
        fprintf(o, "  [%u] %-28.*s %-10s base 0x%08" PRIx64, (unsigned)i,
                (int)ip.name.len, ip.name.ptr, NAME(ip_types, ip.type),
                ip.base_address);
        if (ip.type == AXL_XCLBIN_IP_KERNEL)
            fprintf(o, "  %s, interrupt %s (id %u)",
                    NAME(controls, ip.control),
                    ip.interrupt_enabled ? "on" : "off",
                    (unsigned)ip.interrupt_id);
        fprintf(o, "\n");
    }

    uint32_t streams = axl_xclbin_stream_count(x);
    if (streams) {
        fprintf(o, "streams  %u\n", (unsigned)streams);
        for (uint32_t i = 0; i < streams; i++) {
            axl_xclbin_stream st;
            if (axl_xclbin_get_stream(x, i, &st) != AXL_SUCCESS)
                continue;
            fprintf(o, "  [%u] ", (unsigned)i);
            print_stream(o, &st);
            fprintf(o, "\n");
        }
    }

    if (x->clock_count) {
        fprintf(o, "clocks  %u\n", (unsigned)x->clock_count);
        for (uint32_t i = 0; i < x->clock_count; i++) {
            axl_xclbin_clock c;
            if (axl_xclbin_get_clock(x, i, &c) == AXL_SUCCESS)
                fprintf(o, "  [%u] %-20.*s %-7s %u MHz\n", (unsigned)i,
                        (int)c.name.len, c.name.ptr, NAME(clock_types, c.type),
                        (unsigned)c.freq_mhz);
        }
    }

    fprintf(o, "kernels  %u\n", (unsigned)x->kernel_count);
    for (uint32_t i = 0; i < x->kernel_count; i++) {
        axl_xclbin_kernel k;
        if (axl_xclbin_get_kernel(x, i, &k))
            continue;
        fprintf(o, "  %.*s  (%s, %u argument%s, %u compute unit%s)\n",
                (int)k.name.len, k.name.ptr, NAME(controls, k.control),
                (unsigned)k.arg_count, k.arg_count == 1 ? "" : "s",
                (unsigned)k.cu_count, k.cu_count == 1 ? "" : "s");
        for (uint32_t a = 0; a < k.arg_count; a++) {
            axl_xclbin_arg arg;
            if (axl_xclbin_get_kernel_arg(x, &k, a, &arg))
                continue;
            fprintf(o, "    arg %-3u %-12.*s %-8s offset 0x%02" PRIx64
                    " size %-3" PRIu64 " ", (unsigned)arg.index,
                    (int)arg.name.len, arg.name.ptr,
                    NAME(quals, arg.address_qualifier), arg.offset, arg.size);
            print_xml_text(o, arg.type.ptr, arg.type.len);
            if (arg.address_qualifier == AXL_XCLBIN_ARG_STREAM)
                fprintf(o, "  (%s, %u bits)",
                        arg.stream_dir == AXL_XCLBIN_STREAM_IN    ? "in"
                        : arg.stream_dir == AXL_XCLBIN_STREAM_OUT ? "out"
                                                                  : "?",
                        (unsigned)arg.stream_bits);
            fputc('\n', o);
        }
        for (uint32_t cu = 0; cu < k.cu_count; cu++) {
            uint32_t ipi;
            axl_xclbin_ip ip;
            if (axl_xclbin_get_kernel_cu(x, &k, cu, &ipi) ||
                axl_xclbin_get_ip(x, ipi, &ip))
                continue;
            fprintf(o, "    cu %.*s at 0x%" PRIx64 "\n", (int)ip.name.len,
                    ip.name.ptr, ip.base_address);
            for (uint32_t a = 0; a < k.arg_count; a++) {
                axl_xclbin_arg arg;
                if (axl_xclbin_get_kernel_arg(x, &k, a, &arg) ||
                    arg.address_qualifier == AXL_XCLBIN_ARG_SCALAR)
                    continue;
                fprintf(o, "      %-12.*s -> ", (int)arg.name.len,
                        arg.name.ptr);
                uint32_t si;
                axl_xclbin_stream st;
                if (arg.address_qualifier != AXL_XCLBIN_ARG_STREAM)
                    print_banks(o, x, axl_xclbin_arg_banks(x, ipi, arg.index));
                else if (axl_xclbin_port_stream(x, ipi, arg.index, &si) ||
                         axl_xclbin_get_stream(x, si, &st))
                    fprintf(o, "(no stream: unconnected)");
                else {
                    fprintf(o, "stream %u: ", (unsigned)si);
                    print_stream(o, &st);
                }
                fprintf(o, "\n");
            }
        }
    }
}

/* ---- JSON ------------------------------------------------------------------ */

static void json_bytes(FILE *o, const char *p, size_t n)
{
    fputc('"', o);
    for (size_t i = 0; i < n && p[i]; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c == '"' || c == '\\')
            fprintf(o, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            fprintf(o, "\\u%04x", c);
        else
            fputc(c, o);
    }
    fputc('"', o);
}

#define JSTR(o, s) json_bytes((o), (s).ptr, (s).len)

/* XML character data as a JSON string: references decoded (code points
 * as \uXXXX, a surrogate pair above U+FFFF), other bytes as json_bytes
 * writes them. */
static void json_xml_text(FILE *o, const char *p, size_t n)
{
    fputc('"', o);
    for (size_t i = 0; i < n && p[i];) {
        unsigned long c;
        int raw;
        i += xml_char(p + i, n - i, &c, &raw);
        if (c == '"' || c == '\\')
            fprintf(o, "\\%c", (int)c);
        else if (c >= 0x20 && c < 0x7f)
            fputc((int)c, o);
        else if (raw || c < 0x10000)
            fprintf(o, "\\u%04lx", c);
        else
            fprintf(o, "\\u%04lx\\u%04lx", 0xD800 + ((c - 0x10000) >> 10),
                    0xDC00 + ((c - 0x10000) & 0x3FF));
    }
    fputc('"', o);
}

static void json_banks(FILE *o, const axl_xclbin *x, uint64_t mask)
{
    fprintf(o, "[");
    const char *sep = "";
    for (uint32_t b = 0; b < 64; b++)
        if (mask >> b & 1) {
            fprintf(o, "%s%u", sep, (unsigned)b);
            sep = ",";
        }
    (void)x;
    fprintf(o, "]");
}

void axl_info_print_json(FILE *o, const char *path, const axl_xclbin *x)
{
    const uint8_t *h = x->data;
    fprintf(o, "{\"format\":\"axl-xclbin-info\",\"version\":1,\"image\":");
    json_bytes(o, path, strlen(path));
    fprintf(o, ",\"size_bytes\":%zu,\"uuid\":\"", x->size);
    print_uuid(o, x->uuid);
    fprintf(o, "\",\"platform\":");
    json_bytes(o, (const char *)h + 352, (size_t)field_len(h + 352, 64));
    const axl_platform_slot *slot;
    const axl_platform *shell = shell_of(x, &slot);
    fprintf(o, ",\"mode\":\"%s\",\"mode_id\":%u,\"interface_uuid\":",
            axl_xclbin_mode_name(x->mode), (unsigned)x->mode);
    if (has_interface(x)) {
        fprintf(o, "\"");
        print_uuid(o, x->interface_uuid);
        fprintf(o, "\"");
    } else {
        fprintf(o, "null");
    }
    fprintf(o, ",\"shell\":");
    if (shell)
        fprintf(o, "\"%s\"", shell->name);
    else
        fprintf(o, "null");
    fprintf(o, ",\"slot\":");
    if (slot)
        fprintf(o, "\"%s\"", slot->name);
    else
        fprintf(o, "null");

    fprintf(o, ",\n\"sections\":[");
    for (uint32_t i = 0; i < x->section_count; i++) {
        const uint8_t *s = h + 456 + (size_t)i * 40;
        uint32_t kind = (uint32_t)s[0] | (uint32_t)s[1] << 8 |
                        (uint32_t)s[2] << 16 | (uint32_t)s[3] << 24;
        fprintf(o, "%s{\"index\":%u,\"kind\":\"%s\",\"kind_id\":%u,"
                   "\"name\":",
                i ? "," : "", (unsigned)i, axl_xclbin_section_name(kind),
                (unsigned)kind);
        json_bytes(o, (const char *)s + 4, (size_t)field_len(s + 4, 16));
        fprintf(o, ",\"offset\":%" PRIu64 ",\"size_bytes\":%" PRIu64 "}",
                rd64(s + 24), rd64(s + 32));
    }

    fprintf(o, "],\n\"memory_banks\":[");
    for (uint32_t i = 0, n = 0; i < x->mem_count; i++) {
        axl_xclbin_mem m;
        if (axl_xclbin_get_mem(x, i, &m))
            continue;
        fprintf(o, "%s{\"index\":%u,\"tag\":", n++ ? "," : "", (unsigned)i);
        JSTR(o, m.tag);
        fprintf(o, ",\"type\":\"%s\",\"used\":%s,\"size_bytes\":%" PRIu64
                   ",\"base_address\":%" PRIu64,
                NAME(mem_types, m.type), m.used ? "true" : "false", m.size,
                m.base_address);
        if (m.type == AXL_XCLBIN_MEM_STREAMING_CONNECTION)
            fprintf(o, ",\"fifo_depth\":%u", (unsigned)m.fifo_depth);
        fprintf(o, "}");
    }

    fprintf(o, "],\n\"ips\":[");
    for (uint32_t i = 0, n = 0; i < x->ip_count; i++) {
        axl_xclbin_ip ip;
        if (axl_xclbin_get_ip(x, i, &ip))
            continue;
        fprintf(o, "%s{\"index\":%u,\"name\":", n++ ? "," : "", (unsigned)i);
        JSTR(o, ip.name);
        fprintf(o, ",\"type\":\"%s\",\"base_address\":%" PRIu64,
                NAME(ip_types, ip.type), ip.base_address);
        if (ip.type == AXL_XCLBIN_IP_KERNEL)
            fprintf(o, ",\"control\":\"%s\",\"interrupt\":%s,"
                       "\"interrupt_id\":%u",
                    NAME(controls, ip.control),
                    ip.interrupt_enabled ? "true" : "false",
                    (unsigned)ip.interrupt_id);
        fprintf(o, "}");
    }

    fprintf(o, "],\n\"streams\":[");
    for (uint32_t i = 0, n = axl_xclbin_stream_count(x); i < n; i++) {
        axl_xclbin_stream st;
        if (axl_xclbin_get_stream(x, i, &st) != AXL_SUCCESS)
            continue;
        fprintf(o, "%s{\"index\":%u,\"bank\":%u,\"fifo_depth\":%u,"
                   "\"producer\":{\"ip_index\":%u,\"arg\":%u,\"unit\":",
                i ? "," : "", (unsigned)i, (unsigned)st.mem_index,
                (unsigned)st.fifo_depth, (unsigned)st.producer_ip,
                (unsigned)st.producer_arg);
        JSTR(o, st.producer_unit);
        fprintf(o, ",\"port\":");
        JSTR(o, st.producer_port);
        fprintf(o, "},\"consumer\":{\"ip_index\":%u,\"arg\":%u,\"unit\":",
                (unsigned)st.consumer_ip, (unsigned)st.consumer_arg);
        JSTR(o, st.consumer_unit);
        fprintf(o, ",\"port\":");
        JSTR(o, st.consumer_port);
        fprintf(o, "}}");
    }

    fprintf(o, "],\n\"clocks\":[");
    for (uint32_t i = 0, n = 0; i < x->clock_count; i++) {
        axl_xclbin_clock c;
        if (axl_xclbin_get_clock(x, i, &c) != AXL_SUCCESS)
            continue;
        fprintf(o, "%s{\"index\":%u,\"name\":", n++ ? "," : "", (unsigned)i);
        JSTR(o, c.name);
        fprintf(o, ",\"type\":\"%s\",\"freq_mhz\":%u}",
                NAME(clock_types, c.type), (unsigned)c.freq_mhz);
    }

    fprintf(o, "],\n\"kernels\":[");
    for (uint32_t i = 0, n = 0; i < x->kernel_count; i++) {
        axl_xclbin_kernel k;
        if (axl_xclbin_get_kernel(x, i, &k))
            continue;
        fprintf(o, "%s{\"name\":", n++ ? "," : "");
        JSTR(o, k.name);
        fprintf(o, ",\"control\":\"%s\",\"args\":[",
                NAME(controls, k.control));
        for (uint32_t a = 0, m = 0; a < k.arg_count; a++) {
            axl_xclbin_arg arg;
            if (axl_xclbin_get_kernel_arg(x, &k, a, &arg))
                continue;
            fprintf(o, "%s{\"index\":%u,\"name\":", m++ ? "," : "",
                    (unsigned)arg.index);
            JSTR(o, arg.name);
            fprintf(o, ",\"qualifier\":\"%s\",\"offset\":%" PRIu64
                       ",\"size_bytes\":%" PRIu64 ",\"type\":",
                    NAME(quals, arg.address_qualifier), arg.offset, arg.size);
            json_xml_text(o, arg.type.ptr, arg.type.len);
            if (arg.address_qualifier == AXL_XCLBIN_ARG_STREAM)
                fprintf(o, ",\"direction\":\"%s\",\"bits\":%u",
                        arg.stream_dir == AXL_XCLBIN_STREAM_IN    ? "in"
                        : arg.stream_dir == AXL_XCLBIN_STREAM_OUT ? "out"
                                                                  : "unknown",
                        (unsigned)arg.stream_bits);
            fprintf(o, "}");
        }
        fprintf(o, "],\"compute_units\":[");
        for (uint32_t cu = 0, m = 0; cu < k.cu_count; cu++) {
            uint32_t ipi;
            axl_xclbin_ip ip;
            if (axl_xclbin_get_kernel_cu(x, &k, cu, &ipi) ||
                axl_xclbin_get_ip(x, ipi, &ip))
                continue;
            fprintf(o, "%s{\"name\":", m++ ? "," : "");
            JSTR(o, ip.name);
            fprintf(o, ",\"ip_index\":%u,\"base_address\":%" PRIu64
                       ",\"arg_banks\":{",
                    (unsigned)ipi, ip.base_address);
            for (uint32_t a = 0, l = 0; a < k.arg_count; a++) {
                axl_xclbin_arg arg;
                if (axl_xclbin_get_kernel_arg(x, &k, a, &arg) ||
                    arg.address_qualifier == AXL_XCLBIN_ARG_SCALAR)
                    continue;
                fprintf(o, "%s", l++ ? "," : "");
                JSTR(o, arg.name);
                fprintf(o, ":");
                json_banks(o, x, axl_xclbin_arg_banks(x, ipi, arg.index));
            }
            fprintf(o, "}}");
        }
        fprintf(o, "]}");
    }
    fprintf(o, "]}\n");
}
