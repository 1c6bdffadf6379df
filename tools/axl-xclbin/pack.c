/*
 * The packer (see pack.h for the manifest format). Host-only: it uses
 * stdio and malloc. The image layout follows XRT's xclbin.h and what
 * xclbinutil writes: header, section table right after it, each section
 * aligned to 8 bytes with zero padding. xclbinutil also appends a JSON
 * "mirror" of the metadata after the last section; nothing reads it back
 * when loading an image, so the packer leaves it out.
 */
#include "pack.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axl/xclbin.h"
#include "json.h"

#define HEADER_SIZE 456u
#define SECTION_HEADER_SIZE 40u
#define MAX_SECTIONS 256

typedef struct buf {
    unsigned char *p;
    size_t len, cap;
} buf;

static int grow(buf *b, size_t n)
{
    if (b->cap - b->len >= n)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < n)
        cap *= 2;
    unsigned char *p = realloc(b->p, cap);
    if (!p)
        return -1;
    b->p = p;
    b->cap = cap;
    return 0;
}

/* Appends n zero bytes; returns where they start, or NULL. */
static unsigned char *zeros(buf *b, size_t n)
{
    if (grow(b, n))
        return NULL;
    unsigned char *p = b->p + b->len;
    memset(p, 0, n);
    b->len += n;
    return p;
}

static void st16(unsigned char *p, uint64_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static void st32(unsigned char *p, uint64_t v)
{
    st16(p, v);
    st16(p + 2, v >> 16);
}

static void st64(unsigned char *p, uint64_t v)
{
    st32(p, v);
    st32(p + 4, v >> 32);
}

/* ---- errors ---- */

typedef struct ctx {
    const char *file; /* the file being read, for messages */
    char *err;
    size_t err_size;
} ctx;

static int fail(ctx *c, unsigned line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int fail(ctx *c, unsigned line, const char *fmt, ...)
{
    int k = line ? snprintf(c->err, c->err_size, "%s:%u: ", c->file, line)
                 : snprintf(c->err, c->err_size, "%s: ", c->file);
    if (k >= 0 && (size_t)k < c->err_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err + k, c->err_size - (size_t)k, fmt, ap);
        va_end(ap);
    }
    /* Text from the files may hold line breaks: the reason stays one
     * line. */
    for (char *p = c->err; c->err_size && *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7F)
            *p = '?';
    return -1;
}

int axl_read_file(const char *path, unsigned char **out, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    buf b = {0};
    for (;;) {
        if (grow(&b, 4096 + 1)) {
            free(b.p);
            fclose(f);
            return -1;
        }
        size_t n = fread(b.p + b.len, 1, b.cap - b.len - 1, f);
        b.len += n;
        if (n == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(b.p);
        return -1;
    }
    b.p[b.len] = '\0';
    *out = b.p;
    *size = b.len;
    return 0;
}

/* ---- JSON section encoders ---- */

/* A required unsigned member; fails when absent, not a number or > max. */
static int need_u64(ctx *c, const json *obj, const char *key, uint64_t max,
                    uint64_t *out)
{
    const json *v = json_get(obj, key);
    if (!v)
        return fail(c, obj->line, "missing \"%s\"", key);
    if (json_u64(v, out))
        return fail(c, v->line, "\"%s\" is not an unsigned number", key);
    if (*out > max)
        return fail(c, v->line, "\"%s\" %llu is larger than %llu", key,
                    (unsigned long long)*out, (unsigned long long)max);
    return 0;
}

static int opt_u64(ctx *c, const json *obj, const char *key, uint64_t max,
                   uint64_t dflt, uint64_t *out)
{
    if (!json_get(obj, key)) {
        *out = dflt;
        return 0;
    }
    return need_u64(c, obj, key, max, out);
}

static int need_str(ctx *c, const json *obj, const char *key, size_t max_len,
                    const char **out)
{
    const json *v = json_get(obj, key);
    if (!v)
        return fail(c, obj->line, "missing \"%s\"", key);
    if (v->type != JSON_STRING)
        return fail(c, v->line, "\"%s\" is not a string", key);
    if (strlen(v->text) > max_len)
        return fail(c, v->line, "\"%s\" \"%s\" is longer than %zu "
                    "characters", key, v->text, max_len);
    *out = v->text;
    return 0;
}

/* A string from a fixed list of names; the index is the value. */
static int need_enum(ctx *c, const json *obj, const char *key,
                     const char *const *names, size_t count, uint64_t *out)
{
    const char *s;
    if (need_str(c, obj, key, 64, &s))
        return -1;
    for (size_t i = 0; i < count; i++)
        if (names[i] && strcmp(names[i], s) == 0) {
            *out = i;
            return 0;
        }
    return fail(c, json_get(obj, key)->line, "unknown %s \"%s\"", key, s);
}

/* The array `key` of node; checks it has exactly count entries. */
static const json *table(ctx *c, const json *node, const char *key,
                         uint64_t count)
{
    const json *a = json_get(node, key);
    if (!a || a->type != JSON_ARRAY) {
        fail(c, node->line, "missing array \"%s\"", key);
        return NULL;
    }
    if (json_count(a) != count) {
        fail(c, a->line, "m_count is %llu but \"%s\" has %zu entries",
             (unsigned long long)count, key, json_count(a));
        return NULL;
    }
    return a;
}

static const json *payload(ctx *c, const json *root, const char *node)
{
    const json *n = json_get(root, node);
    if (!n || n->type != JSON_OBJECT)
        fail(c, root->line, "no \"%s\" object", node);
    return n;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *const mem_types[] = {
    "MEM_DDR3", "MEM_DDR4", "MEM_DRAM", "MEM_STREAMING",
    "MEM_PREALLOCATED_GLOB", "MEM_ARE", "MEM_HBM", "MEM_BRAM", "MEM_URAM",
    "MEM_STREAMING_CONNECTION", "MEM_HOST", "MEM_PS_KERNEL"};

static int put_str(unsigned char *field, const char *s)
{
    memcpy(field, s, strlen(s));
    return 0;
}

static int enc_mem(ctx *c, const json *root, const char *node, buf *b)
{
    const json *t = payload(c, root, node);
    uint64_t count;
    if (!t || need_u64(c, t, "m_count", INT32_MAX, &count))
        return -1;
    const json *a = table(c, t, "m_mem_data", count);
    if (!a)
        return -1;
    if (count == 0)
        return 0; /* xclbinutil writes an empty section */
    unsigned char *h = zeros(b, 8);
    if (!h)
        return fail(c, 0, "out of memory");
    st32(h, count);
    for (const json *m = a->child; m; m = m->next) {
        uint64_t type, used, kib = 0, base = 0, bytes;
        const char *tag;
        if (need_enum(c, m, "m_type", mem_types, COUNT(mem_types), &type) ||
            need_u64(c, m, "m_used", 255, &used) ||
            need_str(c, m, "m_tag", 15, &tag))
            return -1;
        if (type != 9 /* MEM_STREAMING_CONNECTION */) {
            int has_bytes = json_get(m, "m_size") != NULL;
            int has_kib = json_get(m, "m_sizeKB") != NULL;
            if (has_bytes && has_kib)
                return fail(c, m->line, "\"m_size\" and \"m_sizeKB\" are "
                            "mutually exclusive");
            if (has_bytes) {
                if (need_u64(c, m, "m_size", UINT64_MAX, &bytes))
                    return -1;
                if (bytes % 1024)
                    return fail(c, m->line, "\"m_size\" %llu is not a "
                                "multiple of 1024", (unsigned long long)bytes);
                kib = bytes / 1024;
            } else if (opt_u64(c, m, "m_sizeKB", UINT64_MAX, 0, &kib)) {
                return -1;
            }
            if (need_u64(c, m, "m_base_address", UINT64_MAX, &base))
                return -1;
        } else if (opt_u64(c, m, "route_id", UINT64_MAX, 0, &kib)) {
            /* A stream between units: the word XRT's mem_data calls
             * route_id, where axl keeps the FIFO depth in beats. */
            return -1;
        }
        unsigned char *e = zeros(b, 40);
        if (!e)
            return fail(c, 0, "out of memory");
        e[0] = (unsigned char)type;
        e[1] = (unsigned char)used;
        st64(e + 8, kib);
        st64(e + 16, base);
        put_str(e + 24, tag);
    }
    return 0;
}

static const char *const ip_types[] = {
    "IP_MB", "IP_KERNEL", "IP_DNASC", "IP_DDR4_CONTROLLER", "IP_MEM_DDR4",
    "IP_MEM_HBM", "IP_MEM_HBM_ECC", "IP_PS_KERNEL"};
static const char *const ip_controls[] = {
    "AP_CTRL_HS", "AP_CTRL_CHAIN", "AP_CTRL_NONE", "AP_CTRL_ME",
    "ACCEL_ADAPTER", "FAST_ADAPTER"};

static int enc_ip(ctx *c, const json *root, buf *b)
{
    const json *t = payload(c, root, "ip_layout");
    uint64_t count;
    if (!t || need_u64(c, t, "m_count", INT32_MAX, &count))
        return -1;
    const json *a = table(c, t, "m_ip_data", count);
    if (!a)
        return -1;
    if (count == 0)
        return 0;
    unsigned char *h = zeros(b, 8);
    if (!h)
        return fail(c, 0, "out of memory");
    st32(h, count);
    for (const json *m = a->child; m; m = m->next) {
        uint64_t type, props = 0, v, base;
        const char *name;
        if (need_enum(c, m, "m_type", ip_types, COUNT(ip_types), &type) ||
            need_str(c, m, "m_name", 63, &name))
            return -1;
        if (type == 4 || type == 5 || type == 6) { /* IP_MEM_* */
            uint64_t pc;
            if (need_u64(c, m, "m_index", UINT16_MAX, &v) ||
                opt_u64(c, m, "m_pc_index", 255, 0, &pc))
                return -1;
            props = v | (pc << 16);
        } else {
            if (type == 7 && (json_get(m, "m_subtype") ||
                              json_get(m, "m_functional") ||
                              json_get(m, "m_kernel_id")))
                return fail(c, m->line, "IP_PS_KERNEL m_subtype, "
                            "m_functional and m_kernel_id are not supported: "
                            "give \"properties\"");
            if (opt_u64(c, m, "properties", UINT32_MAX, 0, &props))
                return -1;
            if (json_get(m, "m_int_enable")) {
                const json *ie = json_get(m, "m_int_enable");
                int on;
                if (ie->text && strcmp(ie->text, "true") == 0)
                    on = 1;
                else if (ie->text && strcmp(ie->text, "false") == 0)
                    on = 0;
                else if (need_u64(c, m, "m_int_enable", 1, &v))
                    return -1;
                else
                    on = (int)v;
                props = (props & ~0x1u) | (uint64_t)on;
            }
            if (json_get(m, "m_interrupt_id")) {
                if (need_u64(c, m, "m_interrupt_id", 0x7F, &v))
                    return -1;
                props = (props & ~0xFEu) | (v << 1);
            }
            if (json_get(m, "m_ip_control")) {
                if (need_enum(c, m, "m_ip_control", ip_controls,
                              COUNT(ip_controls), &v))
                    return -1;
                props = (props & ~0xFF00u) | (v << 8);
            }
        }
        const json *ba = json_get(m, "m_base_address");
        if (ba && ba->type == JSON_STRING && strcmp(ba->text, "not_used") == 0)
            base = UINT64_MAX;
        else if (need_u64(c, m, "m_base_address", UINT64_MAX, &base))
            return -1;
        unsigned char *e = zeros(b, 80);
        if (!e)
            return fail(c, 0, "out of memory");
        st32(e, type);
        st32(e + 4, props);
        st64(e + 8, base);
        put_str(e + 16, name);
    }
    return 0;
}

static int enc_connectivity(ctx *c, const json *root, const char *node,
                            buf *b)
{
    const json *t = payload(c, root, node);
    uint64_t count;
    if (!t || need_u64(c, t, "m_count", INT32_MAX, &count))
        return -1;
    const json *a = table(c, t, "m_connection", count);
    if (!a)
        return -1;
    if (count == 0)
        return 0;
    unsigned char *h = zeros(b, 4);
    if (!h)
        return fail(c, 0, "out of memory");
    st32(h, count);
    for (const json *m = a->child; m; m = m->next) {
        uint64_t arg, ip, mem;
        if (need_u64(c, m, "arg_index", INT32_MAX, &arg) ||
            need_u64(c, m, "m_ip_layout_index", INT32_MAX, &ip) ||
            need_u64(c, m, "mem_data_index", INT32_MAX, &mem))
            return -1;
        unsigned char *e = zeros(b, 12);
        if (!e)
            return fail(c, 0, "out of memory");
        st32(e, arg);
        st32(e + 4, ip);
        st32(e + 8, mem);
    }
    return 0;
}

static const char *const clock_types[] = {"UNUSED", "DATA", "KERNEL",
                                          "SYSTEM"};

static int enc_clocks(ctx *c, const json *root, buf *b)
{
    const json *t = payload(c, root, "clock_freq_topology");
    uint64_t count;
    if (!t || need_u64(c, t, "m_count", INT16_MAX, &count))
        return -1;
    const json *a = table(c, t, "m_clock_freq", count);
    if (!a)
        return -1;
    if (count == 0)
        return 0;
    unsigned char *h = zeros(b, 2);
    if (!h)
        return fail(c, 0, "out of memory");
    st16(h, count);
    for (const json *m = a->child; m; m = m->next) {
        uint64_t freq, type;
        const char *name;
        if (need_u64(c, m, "m_freq_Mhz", UINT16_MAX, &freq) ||
            need_enum(c, m, "m_type", clock_types, COUNT(clock_types),
                      &type) ||
            need_str(c, m, "m_name", 127, &name))
            return -1;
        unsigned char *e = zeros(b, 136);
        if (!e)
            return fail(c, 0, "out of memory");
        st16(e, freq);
        e[2] = (unsigned char)type;
        put_str(e + 8, name);
    }
    return 0;
}

static const char *const debug_ip_types[] = {
    "UNDEFINED", "LAPC", "ILA", "AXI_MM_MONITOR", "AXI_TRACE_FUNNEL",
    "AXI_MONITOR_FIFO_LITE", "AXI_MONITOR_FIFO_FULL", "ACCEL_MONITOR",
    "AXI_STREAM_MONITOR", "AXI_STREAM_PROTOCOL_CHECKER", "TRACE_S2MM",
    "AXI_DMA", "TRACE_S2MM_FULL", "AXI_NOC", "ACCEL_DEADLOCK_DETECTOR"};

static int enc_debug_ip(ctx *c, const json *root, buf *b)
{
    const json *t = payload(c, root, "debug_ip_layout");
    uint64_t count;
    if (!t || need_u64(c, t, "m_count", UINT16_MAX, &count))
        return -1;
    const json *a = table(c, t, "m_debug_ip_data", count);
    if (!a)
        return -1;
    if (count == 0)
        return 0;
    unsigned char *h = zeros(b, 8);
    if (!h)
        return fail(c, 0, "out of memory");
    st16(h, count);
    for (const json *m = a->child; m; m = m->next) {
        uint64_t type, index, props, major, minor, base;
        const char *name;
        if (need_enum(c, m, "m_type", debug_ip_types, COUNT(debug_ip_types),
                      &type) ||
            need_u64(c, m, "m_index", UINT16_MAX, &index) ||
            need_u64(c, m, "m_properties", 255, &props) ||
            opt_u64(c, m, "m_major", 255, 0, &major) ||
            opt_u64(c, m, "m_minor", 255, 0, &minor) ||
            need_u64(c, m, "m_base_address", UINT64_MAX, &base) ||
            need_str(c, m, "m_name", 127, &name))
            return -1;
        unsigned char *e = zeros(b, 144);
        if (!e)
            return fail(c, 0, "out of memory");
        e[0] = (unsigned char)type;
        e[1] = (unsigned char)(index & 0xFF);
        e[2] = (unsigned char)props;
        e[3] = (unsigned char)major;
        e[4] = (unsigned char)minor;
        e[5] = (unsigned char)(index >> 8);
        st64(e + 8, base);
        put_str(e + 16, name);
    }
    return 0;
}

static int encode_json(ctx *c, uint32_t kind, const unsigned char *text,
                       size_t len, buf *b)
{
    char jerr[256];
    unsigned line;
    json *root = json_parse((const char *)text, len, &line, jerr, sizeof jerr);
    if (!root)
        return fail(c, line, "%s", jerr);
    int r;
    if (root->type != JSON_OBJECT)
        r = fail(c, root->line, "the JSON is not an object");
    else if (kind == 6)
        r = enc_mem(c, root, "mem_topology", b);
    else if (kind == 26)
        r = enc_mem(c, root, "group_topology", b);
    else if (kind == 8)
        r = enc_ip(c, root, b);
    else if (kind == 7)
        r = enc_connectivity(c, root, "connectivity", b);
    else if (kind == 27)
        r = enc_connectivity(c, root, "group_connectivity", b);
    else if (kind == 11)
        r = enc_clocks(c, root, b);
    else if (kind == 9)
        r = enc_debug_ip(c, root, b);
    else
        r = fail(c, 0, "no JSON format for section %s",
                 axl_xclbin_section_name(kind));
    json_free(root);
    return r;
}

/* ---- the manifest ---- */

typedef struct section {
    uint32_t kind;
    char name[16];
    buf data;
} section;

typedef struct manifest {
    unsigned char uuid[16];
    int have_uuid;
    char platform[64];
    uint64_t timestamp;
    unsigned major, minor, patch;
    unsigned mode;
    unsigned char interface_uuid[16];
    section sections[MAX_SECTIONS];
    unsigned nsec;
} manifest;

static int parse_uuid(const char *s, unsigned char out[16])
{
    size_t k = 0;
    for (size_t i = 0; s[i]; i++) {
        if (s[i] == '-' && (i == 8 || i == 13 || i == 18 || i == 23))
            continue;
        int hi, lo;
        char a = s[i], b = s[i + 1];
#define HEXV(ch) ((ch) >= '0' && (ch) <= '9' ? (ch) - '0' : \
                  (ch) >= 'a' && (ch) <= 'f' ? (ch) - 'a' + 10 : \
                  (ch) >= 'A' && (ch) <= 'F' ? (ch) - 'A' + 10 : -1)
        hi = HEXV(a);
        lo = b ? HEXV(b) : -1;
#undef HEXV
        if (hi < 0 || lo < 0 || k == 16)
            return -1;
        out[k++] = (unsigned char)(hi << 4 | lo);
        i++;
    }
    return k == 16 && strlen(s) == 36 ? 0 : -1;
}

static uint32_t kind_of(const char *name)
{
    for (uint32_t k = 0; k < 64; k++)
        if (strcmp(axl_xclbin_section_name(k), name) == 0)
            return k;
    return UINT32_MAX;
}

static const char *const modes[] = {"flat", "pr", "tandem_stage2",
                                    "tandem_stage2_with_pr", "hw_emu",
                                    "sw_emu", "hw_emu_pr"};

/* dir of the manifest + rel, unless rel is absolute. */
static char *join(const char *manifest_path, const char *rel)
{
    const char *slash = strrchr(manifest_path, '/');
    size_t dl = (rel[0] == '/' || !slash) ? 0
                                          : (size_t)(slash - manifest_path) + 1;
    char *p = malloc(dl + strlen(rel) + 1);
    if (!p)
        return NULL;
    memcpy(p, manifest_path, dl);
    strcpy(p + dl, rel);
    return p;
}

/* The section name xclbinutil would give: the file's stem. */
static void stem(const char *path, char out[16])
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    if (n > 15)
        n = 15;
    memset(out, 0, 16);
    memcpy(out, base, n);
}

/* Section nsec of m from bytes in memory: JSON encoded (what names the
 * source in messages) or raw. */
static int put_section(ctx *c, manifest *m, unsigned line, uint32_t kind,
                       const char *name, int is_json,
                       const unsigned char *data, size_t size,
                       const char *what)
{
    if (m->nsec == MAX_SECTIONS)
        return fail(c, line, "more than %d sections", MAX_SECTIONS);
    section *s = &m->sections[m->nsec];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    memcpy(s->name, name, strlen(name) < 15 ? strlen(name) : 15);
    int r = 0;
    if (is_json) {
        ctx jc = {what, c->err, c->err_size};
        r = encode_json(&jc, kind, data, size, &s->data);
    } else if (size && !zeros(&s->data, size)) {
        r = fail(c, line, "out of memory");
    } else if (size) {
        memcpy(s->data.p, data, size);
    }
    if (r) {
        free(s->data.p);
        return -1;
    }
    m->nsec++;
    return 0;
}

static int add_section(ctx *c, manifest *m, unsigned line, char **f,
                       int nf, const char *manifest_path)
{
    if (nf < 4 || nf > 5)
        return fail(c, line, "usage: section KIND FORMAT FILE [NAME]");
    uint32_t kind = kind_of(f[1]);
    if (kind == UINT32_MAX)
        return fail(c, line, "unknown section kind \"%s\"", f[1]);
    int is_json = strcmp(f[2], "json") == 0;
    if (!is_json && strcmp(f[2], "raw") != 0)
        return fail(c, line, "format \"%s\" is neither raw nor json", f[2]);
    if (nf == 5 && strlen(f[4]) > 15)
        return fail(c, line, "section name \"%s\" is longer than 15 "
                    "characters", f[4]);
    char *path = join(manifest_path, f[3]);
    if (!path)
        return fail(c, line, "out of memory");
    unsigned char *data;
    size_t size;
    if (axl_read_file(path, &data, &size)) {
        fail(c, line, "cannot read %s", path);
        free(path);
        return -1;
    }
    char name[16];
    if (nf == 5) {
        memset(name, 0, sizeof name);
        memcpy(name, f[4], strlen(f[4]));
    } else {
        stem(f[3], name);
    }
    int r = put_section(c, m, line, kind, name, is_json, data, size, path);
    free(data);
    free(path);
    return r;
}

static int parse_manifest(ctx *c, manifest *m, char *text,
                          const char *manifest_path)
{
    unsigned line = 0;
    char *save = text;
    m->major = 2;
    m->minor = 13;
    m->patch = 0;
    while (save && *save) {
        char *l = save;
        char *nl = strchr(l, '\n');
        if (nl) {
            *nl = '\0';
            save = nl + 1;
        } else {
            save = NULL;
        }
        line++;
        const char *first = l + strspn(l, " \t\r");
        if (*first == '#')
            continue;
        char *f[8];
        int nf = 0;
        for (char *p = l; *p;) {
            while (*p == ' ' || *p == '\t' || *p == '\r')
                *p++ = '\0';
            if (!*p)
                break;
            if (nf == 8)
                return fail(c, line, "too many fields");
            f[nf++] = p;
            while (*p && *p != ' ' && *p != '\t' && *p != '\r')
                p++;
        }
        if (nf == 0)
            continue;
        const char *key = f[0];
        if (strcmp(key, "section") == 0) {
            if (add_section(c, m, line, f, nf, manifest_path))
                return -1;
            continue;
        }
        if (nf != 2)
            return fail(c, line, "usage: %s VALUE", key);
        if (strcmp(key, "uuid") == 0) {
            if (parse_uuid(f[1], m->uuid))
                return fail(c, line, "\"%s\" is not a UUID like "
                            "01234567-89ab-cdef-0123-456789abcdef", f[1]);
            m->have_uuid = 1;
        } else if (strcmp(key, "platform") == 0) {
            if (strlen(f[1]) > 63)
                return fail(c, line, "platform name longer than 63 "
                            "characters");
            strcpy(m->platform, f[1]);
        } else if (strcmp(key, "timestamp") == 0) {
            json j = {JSON_STRING, NULL, f[1], NULL, NULL, line};
            if (json_u64(&j, &m->timestamp))
                return fail(c, line, "timestamp \"%s\" is not a number",
                            f[1]);
        } else if (strcmp(key, "version") == 0) {
            char tail;
            if (sscanf(f[1], "%u.%u.%u%c", &m->major, &m->minor, &m->patch,
                       &tail) != 3 || m->major > 255 || m->minor > 255 ||
                m->patch > 65535)
                return fail(c, line, "version \"%s\" is not MAJOR.MINOR.PATCH",
                            f[1]);
        } else if (strcmp(key, "interface_uuid") == 0) {
            if (parse_uuid(f[1], m->interface_uuid))
                return fail(c, line, "\"%s\" is not a UUID like "
                            "01234567-89ab-cdef-0123-456789abcdef", f[1]);
        } else if (strcmp(key, "mode") == 0) {
            unsigned k;
            for (k = 0; k < COUNT(modes); k++)
                if (strcmp(modes[k], f[1]) == 0)
                    break;
            if (k == COUNT(modes))
                return fail(c, line, "unknown mode \"%s\"", f[1]);
            m->mode = k;
        } else {
            return fail(c, line, "unknown directive \"%s\"", key);
        }
    }
    if (!m->have_uuid)
        return fail(c, 0, "no uuid line (the UUID must be given: images are "
                    "reproducible)");
    return 0;
}

static int assemble(ctx *c, const manifest *m, buf *out)
{
    unsigned char *h = zeros(out, HEADER_SIZE +
                                  (size_t)m->nsec * SECTION_HEADER_SIZE);
    if (!h)
        return fail(c, 0, "out of memory");
    memcpy(h, "xclbin2", 8);
    st32(h + 8, 0xFFFFFFFFu);            /* m_signature_length: none */
    memset(h + 12, 0xFF, 28);            /* reserved */
    memset(h + 40, 0xFF, 256);           /* m_keyBlock */
    st64(h + 296, m->timestamp);         /* m_uniqueId */
    st64(h + 312, m->timestamp);         /* m_timeStamp */
    st16(h + 328, m->patch);
    h[330] = (unsigned char)m->major;
    h[331] = (unsigned char)m->minor;
    st16(h + 332, m->mode);
    memcpy(h + 336, m->interface_uuid, 16); /* m_interface_uuid */
    memcpy(h + 352, m->platform, strlen(m->platform));
    memcpy(h + 416, m->uuid, 16);
    st32(h + 448, m->nsec);

    for (unsigned i = 0; i < m->nsec; i++) {
        const section *s = &m->sections[i];
        size_t pad = (8 - out->len % 8) % 8;
        if (pad && !zeros(out, pad))
            return fail(c, 0, "out of memory");
        size_t off = out->len;
        if (s->data.len && !zeros(out, s->data.len))
            return fail(c, 0, "out of memory");
        if (s->data.len)
            memcpy(out->p + off, s->data.p, s->data.len);
        unsigned char *sh = out->p + HEADER_SIZE + (size_t)i *
                            SECTION_HEADER_SIZE;
        st32(sh, s->kind);
        memcpy(sh + 4, s->name, 16);
        st64(sh + 24, s->data.len ? off : 0);
        st64(sh + 32, s->data.len);
    }
    st64(out->p + 304, out->len);        /* m_length */
    return 0;
}

int axl_pack_manifest(const char *path, unsigned char **out, size_t *out_size,
                      char *err, size_t err_size)
{
    ctx c = {path, err, err_size};
    unsigned char *text;
    size_t size;
    if (axl_read_file(path, &text, &size))
        return fail(&c, 0, "cannot read the manifest");
    manifest *m = calloc(1, sizeof *m);
    if (!m) {
        free(text);
        return fail(&c, 0, "out of memory");
    }
    int r = parse_manifest(&c, m, (char *)text, path);
    buf img = {0};
    if (r == 0)
        r = assemble(&c, m, &img);
    for (unsigned i = 0; i < m->nsec; i++)
        free(m->sections[i].data.p);
    free(m);
    free(text);
    if (r) {
        free(img.p);
        return -1;
    }
    *out = img.p;
    *out_size = img.len;
    return 0;
}

int axl_pack_image(const axl_pack_input *in, unsigned char **out,
                   size_t *out_size, char *err, size_t err_size)
{
    ctx c = {in->what, err, err_size};
    if (in->platform && strlen(in->platform) > 63)
        return fail(&c, 0, "platform name longer than 63 characters");
    manifest *m = calloc(1, sizeof *m);
    if (!m)
        return fail(&c, 0, "out of memory");
    memcpy(m->uuid, in->uuid, 16);
    if (in->platform)
        strcpy(m->platform, in->platform);
    m->major = 2;
    m->minor = 13;
    m->mode = in->mode;
    memcpy(m->interface_uuid, in->interface_uuid, 16);
    int r = 0;
    for (unsigned i = 0; r == 0 && i < in->count; i++) {
        const axl_pack_section *s = &in->sections[i];
        uint32_t kind = kind_of(s->kind);
        if (kind == UINT32_MAX)
            r = fail(&c, 0, "unknown section kind \"%s\"", s->kind);
        else
            r = put_section(&c, m, 0, kind, s->name, s->json,
                            (const unsigned char *)s->data, s->size,
                            in->what);
    }
    buf img = {0};
    if (r == 0)
        r = assemble(&c, m, &img);
    for (unsigned i = 0; i < m->nsec; i++)
        free(m->sections[i].data.p);
    free(m);
    if (r) {
        free(img.p);
        return -1;
    }
    *out = img.p;
    *out_size = img.len;
    return 0;
}
