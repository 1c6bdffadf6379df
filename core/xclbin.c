/*
 * A zero-copy, bounds-checked reader of xclbin (axlf) images.
 *
 * axl_xclbin_open() checks the whole image once; the getters then walk the
 * same bytes again with the same code, so they cannot disagree with what
 * was checked. Nothing here allocates, prints or needs more than a fixed
 * amount of stack: the XML walker is a flat loop over tags that keeps an
 * element depth counter, not a stack, so no input can make it recurse.
 *
 * Every multi-byte field is read with byte loads in little-endian order
 * (the axlf layout is little-endian), so images may sit at any address on
 * targets that fault on unaligned loads.
 *
 * Decisions this file makes (the contract is in include/axl/xclbin.h):
 * - Bytes past the header's m_length are ignored; m_length may not exceed
 *   the bytes given.
 * - A section of size 0 may have any offset (XRT writes 0 for absent
 *   sections). A non-empty section must lie after the section table and
 *   inside m_length.
 * - Each of the five kinds axl reads (MEM_TOPOLOGY, IP_LAYOUT, CONNECTIVITY,
 *   EMBEDDED_METADATA, CLOCK_FREQ_TOPOLOGY) may appear at most once: a
 *   second one is ambiguous (XRT silently takes the first) and is rejected.
 *   Other kinds may repeat and are not looked at.
 * - Every section is optional, and an empty one (size 0, as xclbinutil
 *   writes for an empty table) reads as a table of 0 entries. Without
 *   EMBEDDED_METADATA the image has no kernels (its compute units can still
 *   be listed from IP_LAYOUT).
 * - The XML ends at its first NUL byte or at the end of its section. It
 *   must be well-formed where axl reads it: every tag, comment, processing
 *   instruction and CDATA section terminated, attribute values quoted, and
 *   elements balanced. <kernel> elements are found at any depth and may
 *   not nest; their <arg> children are the direct ones (as XRT reads
 *   them). Attribute values are returned as written: entities such as
 *   &lt; are not decoded. Numbers are decimal or 0x-hexadecimal.
 * - A kernel needs a unique, non-empty name. An argument needs name, id,
 *   addressQualifier (0..4), offset and size; hostSize defaults to size and
 *   type to "". Two arguments of one kernel may not share an id (XRT merges
 *   such "multi-component" OpenCL arguments; axl does not support them).
 * - hwControlProtocol ap_ctrl_hs, ap_ctrl_chain and ap_ctrl_none map to the
 *   IP_CONTROL values; user_managed maps to AP_CTRL_NONE (the runtime does
 *   not start such kernels); anything else is AXL_ERR_FEATURE_NOT_SUPPORTED.
 * - The header's m_mode and m_interface_uuid are read as written and not
 *   checked: tools differ in what they write there (an older flow's flat
 *   image holds its feature ROM's ids in the interface UUID's bytes), and
 *   whether an image fits a device's shell is the device's question.
 * - Streaming banks (MEM_STREAMING, MEM_STREAMING_CONNECTION) store a route
 *   id where other banks store a size: their size reads as 0.
 * - A CONNECTIVITY entry that names bank 64 or above is
 *   AXL_ERR_FEATURE_NOT_SUPPORTED: axl_xclbin_arg_banks() returns a 64-bit
 *   mask.
 * - why quotes names and values from the image with control characters
 *   replaced by '?', so it stays one line whatever the image holds. In the
 *   library of a board that sets AXL_MESSAGES to 0 (core/axl_config.h),
 *   why is only the status name, and the messages are not compiled in.
 *
 * Cost: open is O(size) for the binary tables and O(kernels x XML size)
 * for the XML (each kernel's name is compared with the earlier ones in one
 * pass); the kernel getters are O(XML size), the others O(1) or
 * O(table length).
 */
#include "axl/xclbin.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "axl/hal.h"
#include "axl_config.h" /* AXL_MESSAGES, as every core file */

/* ---- the axlf layout (XRT's xclbin.h, struct axlf and friends) ---- */

#define AXLF_MAGIC "xclbin2"           /* 8 bytes with the NUL */
#define AXLF_LENGTH_OFF 304u           /* m_header.m_length */
#define AXLF_MODE_OFF 332u             /* m_header.m_mode */
#define AXLF_INTERFACE_UUID_OFF 336u   /* m_header.m_interface_uuid */
#define AXLF_VBNV_OFF 352u             /* m_header.m_platformVBNV[64] */
#define AXLF_VBNV_SIZE 64u
#define AXLF_UUID_OFF 416u             /* m_header.uuid */
#define AXLF_NUM_SECTIONS_OFF 448u     /* m_header.m_numSections */
#define AXLF_SECTIONS_OFF 456u         /* m_sections[0] */
#define SECTION_HEADER_SIZE 40u
#define SH_KIND 0u
#define SH_OFFSET 24u
#define SH_SIZE 32u

#define KIND_EMBEDDED_METADATA 2u
#define KIND_MEM_TOPOLOGY 6u
#define KIND_CONNECTIVITY 7u
#define KIND_IP_LAYOUT 8u
#define KIND_CLOCK_FREQ_TOPOLOGY 11u

#define MEM_DATA_OFF 8u                /* struct mem_topology */
#define MEM_DATA_SIZE 40u
#define MEM_TAG_OFF 24u
#define MEM_TAG_SIZE 16u
#define IP_DATA_OFF 8u                 /* struct ip_layout */
#define IP_DATA_SIZE 80u
#define IP_NAME_OFF 16u
#define IP_NAME_SIZE 64u
#define CONNECTION_OFF 4u              /* struct connectivity */
#define CONNECTION_SIZE 12u
#define CLOCK_OFF 2u                   /* struct clock_freq_topology */
#define CLOCK_SIZE 136u
#define CLOCK_NAME_OFF 8u
#define CLOCK_NAME_SIZE 128u

#define NPOS ((size_t)-1)

static uint16_t ld16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t ld32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

static uint64_t ld64(const uint8_t *p)
{
    return (uint64_t)ld32(p) | ((uint64_t)ld32(p + 4) << 32);
}

static const char *const section_names[] = {
    "BITSTREAM",          "CLEARING_BITSTREAM",    "EMBEDDED_METADATA",
    "FIRMWARE",           "DEBUG_DATA",            "SCHED_FIRMWARE",
    "MEM_TOPOLOGY",       "CONNECTIVITY",          "IP_LAYOUT",
    "DEBUG_IP_LAYOUT",    "DESIGN_CHECK_POINT",    "CLOCK_FREQ_TOPOLOGY",
    "MCS",                "BMC",                   "BUILD_METADATA",
    "KEYVALUE_METADATA",  "USER_METADATA",         "DNA_CERTIFICATE",
    "PDI",                "BITSTREAM_PARTIAL_PDI", "PARTITION_METADATA",
    "EMULATION_DATA",     "SYSTEM_METADATA",       "SOFT_KERNEL",
    "ASK_FLASH",          "AIE_METADATA",          "ASK_GROUP_TOPOLOGY",
    "ASK_GROUP_CONNECTIVITY", "SMARTNIC",          "AIE_RESOURCES",
    "OVERLAY",            "VENDER_METADATA",       "AIE_PARTITION",
    "IP_METADATA",        "AIE_RESOURCES_BIN",     "AIE_TRACE_METADATA",
};

const char *axl_xclbin_section_name(uint32_t kind)
{
    if (kind < sizeof section_names / sizeof section_names[0])
        return section_names[kind];
    return "unknown";
}

typedef struct err {
    char *why;
    size_t cap;
} err;

/* A NUL-terminated name inside a fixed field; 0 when there is no NUL. */
static int fixed_str(const uint8_t *p, size_t field, axl_str *out)
{
    const void *nul = memchr(p, 0, field);
    if (!nul)
        return 0;
    out->ptr = (const char *)p;
    out->len = (size_t)((const uint8_t *)nul - p);
    return 1;
}

/* ---- the XML walker ---- */

typedef struct doc {
    const char *s;
    size_t n;         /* up to the first NUL or the end of the section */
    size_t base;      /* image offset of s[0] */
    uint32_t section; /* section index, for messages */
    err *e;           /* NULL in getters: the document was checked */
} doc;

enum { TAG_OPEN, TAG_CLOSE, TAG_EMPTY };

typedef struct tag {
    int kind;
    size_t start, end;        /* '<' and one past '>' */
    size_t name, name_len;    /* element name */
    size_t attrs, attrs_end;  /* the attribute text */
} tag;

/* At most this many characters of a name or value go into a message. */
#define SHOW 48

static int show(size_t len)
{
    return (int)(len < SHOW ? len : SHOW);
}

/* Only messages use it (unused, for clang, when they are compiled out). */
#if defined(__GNUC__)
__attribute__((unused))
#endif
static unsigned long line_of(const doc *d, size_t pos)
{
    unsigned long line = 1;
    for (size_t i = 0; i < pos && i < d->n; i++)
        line += d->s[i] == '\n';
    return line;
}

/* ---- failure messages ---- */

#if AXL_MESSAGES
/* Messages quote names and values from the image: keep them one line. */
static void one_line(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7F)
            *s = '?';
}

static axl_status verr(err *e, axl_status st, const char *fmt, va_list ap)
{
    if (e && e->why && e->cap) {
        axl_vformat(e->why, e->cap, fmt, ap);
        one_line(e->why);
    }
    return st;
}

static axl_status fail(err *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static axl_status fail(err *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    axl_status st = verr(e, AXL_ERR_INVALID, fmt, ap);
    va_end(ap);
    return st;
}

static axl_status unsupported(err *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static axl_status unsupported(err *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    axl_status st = verr(e, AXL_ERR_FEATURE_NOT_SUPPORTED, fmt, ap);
    va_end(ap);
    return st;
}

static axl_status xml_fail(const doc *d, axl_status st, size_t pos,
                           const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static axl_status xml_fail(const doc *d, axl_status st, size_t pos,
                           const char *fmt, ...)
{
    err *e = d->e;
    if (!e || !e->why || !e->cap)
        return st;
    size_t len = axl_format(e->why, e->cap, "section %u (EMBEDDED_METADATA): "
                            "line %lu: ", (unsigned)d->section,
                            line_of(d, pos));
    if (len < e->cap - 1) {
        va_list ap;
        va_start(ap, fmt);
        axl_vformat(e->why + len, e->cap - len, fmt, ap);
        va_end(ap);
    }
    one_line(e->why);
    return st;
}
#else
/* Without messages, why is the status name. The formats and their
 * arguments stay in the source, checked inside a sizeof and not compiled
 * in (as axl__fail in core/rt.h). */
static axl_status fail_status(const err *e, axl_status st)
{
    if (e && e->why && e->cap)
        axl_format(e->why, e->cap, "%s", axl_status_name(st));
    return st;
}
int axl__xclbin_unformatted(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
#define AXL__UNFORMATTED(...) ((void)sizeof axl__xclbin_unformatted(__VA_ARGS__))
#define fail(e, ...)                                                           \
    (AXL__UNFORMATTED(__VA_ARGS__), fail_status(e, AXL_ERR_INVALID))
#define unsupported(e, ...)                                                    \
    (AXL__UNFORMATTED(__VA_ARGS__),                                            \
     fail_status(e, AXL_ERR_FEATURE_NOT_SUPPORTED))
#define xml_fail(d, st, pos, ...)                                              \
    (AXL__UNFORMATTED(__VA_ARGS__), (void)(pos), fail_status((d)->e, st))
#endif

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int is_name_start(char ch)
{
    unsigned char c = (unsigned char)ch;
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
           c == ':' || c >= 0x80;
}

static int is_name_char(char c)
{
    return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

/* Index of pat in s[from, n), or NPOS. */
static size_t find(const doc *d, size_t from, const char *pat)
{
    size_t m = strlen(pat);
    while (from < d->n && d->n - from >= m) {
        const char *c = memchr(d->s + from, pat[0], d->n - from - m + 1);
        if (!c)
            return NPOS;
        size_t at = (size_t)(c - d->s);
        if (memcmp(c, pat, m) == 0)
            return at;
        from = at + 1;
    }
    return NPOS;
}

static int starts(const doc *d, size_t pos, const char *pat)
{
    size_t m = strlen(pat);
    return d->n - pos >= m && memcmp(d->s + pos, pat, m) == 0;
}

/* Past a <!DOCTYPE ...> or other <!...> declaration, with its quotes and
 * [internal subset]; NPOS if it never ends. */
static size_t skip_declaration(const doc *d, size_t p)
{
    size_t brackets = 0;
    char quote = 0;
    for (size_t i = p + 2; i < d->n; i++) {
        char c = d->s[i];
        if (quote) {
            if (c == quote)
                quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '[') {
            brackets++;
        } else if (c == ']') {
            if (brackets)
                brackets--;
        } else if (c == '>' && !brackets) {
            return i + 1;
        }
    }
    return NPOS;
}

/*
 * Past text, comments, processing instructions, CDATA and declarations,
 * from *pos to the '<' of the next element tag: 1 with *pos there, 0 at
 * the end of the document, or -1 on malformed XML (the message is in
 * d->e).
 */
static int skip_to_element(const doc *d, size_t *pos)
{
    const char *s = d->s;
    size_t n = d->n;
    size_t p = *pos;
    for (;;) {
        const char *lt = p < n ? memchr(s + p, '<', n - p) : NULL;
        if (!lt)
            return 0;
        p = (size_t)(lt - s);
        size_t q;
        if (starts(d, p, "<!--")) {
            q = find(d, p + 4, "-->");
            if (q == NPOS) {
                xml_fail(d, AXL_ERR_INVALID, p, "comment never ends");
                return -1;
            }
            p = q + 3;
        } else if (starts(d, p, "<![CDATA[")) {
            q = find(d, p + 9, "]]>");
            if (q == NPOS) {
                xml_fail(d, AXL_ERR_INVALID, p, "CDATA section never ends");
                return -1;
            }
            p = q + 3;
        } else if (starts(d, p, "<?")) {
            q = find(d, p + 2, "?>");
            if (q == NPOS) {
                xml_fail(d, AXL_ERR_INVALID, p,
                         "processing instruction never ends");
                return -1;
            }
            p = q + 2;
        } else if (starts(d, p, "<!")) {
            p = skip_declaration(d, p);
            if (p == NPOS) {
                xml_fail(d, AXL_ERR_INVALID, (size_t)(lt - s),
                         "declaration never ends");
                return -1;
            }
        } else {
            *pos = p;
            return 1;
        }
    }
}

/* The end of closing tag t (name read), from i: spaces and '>'. 1 with t
 * filled, or -1 on malformed XML. */
static int end_closing_tag(const doc *d, tag *t, size_t i)
{
    const char *s = d->s;
    size_t n = d->n;
    int nl = show(t->name_len);
    const char *nm = s + t->name;
    while (i < n && is_space(s[i]))
        i++;
    if (i >= n || s[i] != '>') {
        xml_fail(d, AXL_ERR_INVALID, t->start, "</%.*s> is not terminated by "
                 "'>'", nl, nm);
        return -1;
    }
    t->kind = TAG_CLOSE;
    t->attrs = t->attrs_end = i;
    t->end = i + 1;
    return 1;
}

/* One attribute name="value" (or 'value') of tag t, from *at (its name's
 * first character): 0 with *at past the closing quote, or -1 on malformed
 * XML. */
static int skip_attribute(const doc *d, const tag *t, size_t *at)
{
    const char *s = d->s;
    size_t n = d->n;
    size_t p = t->start, i = *at;
    int nl = show(t->name_len);
    const char *nm = s + t->name;
    size_t an = i;
    while (i < n && is_name_char(s[i]))
        i++;
    int al = show(i - an);
    while (i < n && is_space(s[i]))
        i++;
    if (i >= n || s[i] != '=') {
        xml_fail(d, AXL_ERR_INVALID, p, "attribute '%.*s' of <%.*s> has "
                 "no value", al, s + an, nl, nm);
        return -1;
    }
    i++;
    while (i < n && is_space(s[i]))
        i++;
    if (i >= n || (s[i] != '"' && s[i] != '\'')) {
        xml_fail(d, AXL_ERR_INVALID, p, "attribute '%.*s' of <%.*s> is "
                 "not quoted", al, s + an, nl, nm);
        return -1;
    }
    const char *close = memchr(s + i + 1, s[i], n - i - 1);
    if (!close) {
        xml_fail(d, AXL_ERR_INVALID, p, "value of attribute '%.*s' of "
                 "<%.*s> never ends", al, s + an, nl, nm);
        return -1;
    }
    *at = (size_t)(close - s) + 1;
    return 0;
}

/* The attributes and end of opening tag t (name read), from i, up to its
 * '>' (TAG_OPEN) or '/>' (TAG_EMPTY). 1 with t filled, or -1 on malformed
 * XML. */
static int end_opening_tag(const doc *d, tag *t, size_t i)
{
    const char *s = d->s;
    size_t n = d->n;
    size_t p = t->start;
    int nl = show(t->name_len);
    const char *nm = s + t->name;
    t->attrs = i;
    for (;;) {
        size_t before = i;
        while (i < n && is_space(s[i]))
            i++;
        if (i >= n) {
            xml_fail(d, AXL_ERR_INVALID, p, "<%.*s> is not terminated by '>'",
                     nl, nm);
            return -1;
        }
        if (s[i] == '>') {
            t->kind = TAG_OPEN;
            t->attrs_end = i;
            t->end = i + 1;
            return 1;
        }
        if (s[i] == '/') {
            if (i + 1 < n && s[i + 1] == '>') {
                t->kind = TAG_EMPTY;
                t->attrs_end = i;
                t->end = i + 2;
                return 1;
            }
            xml_fail(d, AXL_ERR_INVALID, p, "stray '/' in <%.*s>", nl, nm);
            return -1;
        }
        if (i == before || !is_name_start(s[i])) {
            xml_fail(d, AXL_ERR_INVALID, p, "unexpected '%c' in <%.*s>", s[i],
                     nl, nm);
            return -1;
        }
        if (skip_attribute(d, t, &i) < 0)
            return -1;
    }
}

/*
 * The next element tag at or after *pos, skipping text, comments,
 * processing instructions, CDATA and declarations. Returns 1 with t
 * filled, 0 at the end of the document, or -1 on malformed XML (the
 * message is in d->e).
 */
static int next_tag(const doc *d, size_t *pos, tag *t)
{
    const char *s = d->s;
    size_t n = d->n;
    size_t p = *pos;
    int got = skip_to_element(d, &p);
    if (got == 0)
        *pos = n;
    if (got <= 0)
        return got;

    size_t i = p + 1;
    int closing = i < n && s[i] == '/';
    i += (size_t)closing;
    if (i >= n || !is_name_start(s[i])) {
        xml_fail(d, AXL_ERR_INVALID, p, "'<' is not followed by an element "
                 "name");
        return -1;
    }
    t->start = p;
    t->name = i;
    while (i < n && is_name_char(s[i]))
        i++;
    t->name_len = i - t->name;
    int r = closing ? end_closing_tag(d, t, i) : end_opening_tag(d, t, i);
    if (r > 0)
        *pos = t->end;
    return r;
}

static int tag_is(const doc *d, const tag *t, const char *name)
{
    size_t m = strlen(name);
    return t->name_len == m && memcmp(d->s + t->name, name, m) == 0;
}

/* The value of attribute name of a checked tag, as a view; 0 if absent. */
static int attr(const doc *d, const tag *t, const char *name, axl_str *v)
{
    const char *s = d->s;
    size_t i = t->attrs, end = t->attrs_end, m = strlen(name);
    while (i < end) {
        while (i < end && is_space(s[i]))
            i++;
        size_t an = i;
        while (i < end && is_name_char(s[i]))
            i++;
        size_t al = i - an;
        const char *eq = al ? memchr(s + i, '=', end - i) : NULL;
        if (!eq)
            return 0;
        i = (size_t)(eq - s) + 1;
        while (i < end && is_space(s[i]))
            i++;
        if (i >= end)
            return 0;
        const char *close = memchr(s + i + 1, s[i], end - i - 1);
        if (!close)
            return 0;
        if (al == m && memcmp(s + an, name, m) == 0) {
            v->ptr = s + i + 1;
            v->len = (size_t)(close - (s + i + 1));
            return 1;
        }
        i = (size_t)(close - s) + 1;
    }
    return 0;
}

/* Decimal or 0x-hexadecimal, nothing else. 0 bad, -1 overflow, 1 ok. */
static int parse_u64(axl_str v, uint64_t *out)
{
    uint64_t r = 0;
    size_t i = 0;
    unsigned base = 10;
    if (v.len > 2 && v.ptr[0] == '0' && (v.ptr[1] == 'x' || v.ptr[1] == 'X')) {
        base = 16;
        i = 2;
    }
    if (i >= v.len)
        return 0;
    for (; i < v.len; i++) {
        char c = v.ptr[i];
        unsigned dgt;
        if (c >= '0' && c <= '9')
            dgt = (unsigned)(c - '0');
        else if (base == 16 && c >= 'a' && c <= 'f')
            dgt = (unsigned)(c - 'a' + 10);
        else if (base == 16 && c >= 'A' && c <= 'F')
            dgt = (unsigned)(c - 'A' + 10);
        else
            return 0;
        /* Overflow checks without 64-bit division (none on a Cortex-R5). */
        if (base == 16 ? r >> 60 != 0
                       : r > UINT64_MAX / 10 ||
                             (r == UINT64_MAX / 10 && dgt > UINT64_MAX % 10))
            return -1;
        r = r * base + dgt;
    }
    *out = r;
    return 1;
}

static int str_eq(axl_str a, axl_str b)
{
    return a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0;
}

int axl_str_eq(axl_str s, const char *z)
{
    if (!z)
        return 0;
    size_t m = strlen(z);
    return s.len == m && (m == 0 || memcmp(s.ptr, z, m) == 0);
}

/* hwControlProtocol; 0 when the value is unknown. */
static int control_of(axl_str v, uint32_t *out)
{
    if (axl_str_eq(v, "ap_ctrl_hs"))
        *out = AXL_XCLBIN_AP_CTRL_HS;
    else if (axl_str_eq(v, "ap_ctrl_chain"))
        *out = AXL_XCLBIN_AP_CTRL_CHAIN;
    else if (axl_str_eq(v, "ap_ctrl_none") || axl_str_eq(v, "user_managed"))
        *out = AXL_XCLBIN_AP_CTRL_NONE;
    else
        return 0;
    return 1;
}

/* A numeric attribute of an <arg>; required unless dflt is given. */
static axl_status arg_number(const doc *d, const tag *t, axl_str kname,
                             axl_str aname, const char *key, uint64_t max,
                             const uint64_t *dflt, uint64_t *out)
{
    axl_str v;
    if (!attr(d, t, key, &v)) {
        if (dflt) {
            *out = *dflt;
            return AXL_SUCCESS;
        }
        return xml_fail(d, AXL_ERR_INVALID, t->start, "kernel '%.*s' arg "
                        "'%.*s' has no %s", show(kname.len), kname.ptr,
                        show(aname.len), aname.ptr, key);
    }
    int r = parse_u64(v, out);
    if (r == 0)
        return xml_fail(d, AXL_ERR_INVALID, t->start, "kernel '%.*s' arg "
                        "'%.*s': %s=\"%.*s\" is not a number", show(kname.len),
                        kname.ptr, show(aname.len), aname.ptr, key,
                        show(v.len), v.ptr);
    if (r < 0 || *out > max)
        return xml_fail(d, AXL_ERR_INVALID, t->start, "kernel '%.*s' arg "
                        "'%.*s': %s=\"%.*s\" is out of range (max %llu)",
                        show(kname.len), kname.ptr, show(aname.len),
                        aname.ptr, key, show(v.len), v.ptr,
                        (unsigned long long)max);
    return AXL_SUCCESS;
}

static void stream_port(const doc *d, size_t kpos, axl_xclbin_arg *a,
                        const tag *t);

/* Reads (and, when d->e is set, checks) one direct-child <arg> of the
 * kernel whose start tag is at kpos. */
static axl_status read_arg(const doc *d, size_t kpos, const tag *t,
                           axl_str kname, axl_xclbin_arg *a)
{
    memset(a, 0, sizeof *a);
    if (!attr(d, t, "name", &a->name) || a->name.len == 0)
        return xml_fail(d, AXL_ERR_INVALID, t->start, "an arg of kernel "
                        "'%.*s' has no name", show(kname.len), kname.ptr);
    uint64_t id, aq, dflt;
    axl_status st;
    if ((st = arg_number(d, t, kname, a->name, "id", UINT32_MAX, NULL, &id)) ||
        (st = arg_number(d, t, kname, a->name, "addressQualifier",
                         AXL_XCLBIN_ARG_STREAM, NULL, &aq)) ||
        (st = arg_number(d, t, kname, a->name, "offset", UINT64_MAX, NULL,
                         &a->offset)) ||
        (st = arg_number(d, t, kname, a->name, "size", UINT64_MAX, NULL,
                         &a->size)))
        return st;
    dflt = a->size;
    if ((st = arg_number(d, t, kname, a->name, "hostSize", UINT64_MAX, &dflt,
                         &a->host_size)))
        return st;
    a->index = (uint32_t)id;
    a->address_qualifier = (uint32_t)aq;
    if (!attr(d, t, "type", &a->type)) {
        a->type.ptr = d->s + t->start;
        a->type.len = 0;
    }
    if (a->address_qualifier == AXL_XCLBIN_ARG_STREAM)
        stream_port(d, kpos, a, t);
    return AXL_SUCCESS;
}

/* Reads (and checks) the attributes of a <kernel> start tag. */
static axl_status read_kernel_tag(const doc *d, const tag *t,
                                  axl_xclbin_kernel *k)
{
    memset(k, 0, sizeof *k);
    if (!attr(d, t, "name", &k->name) || k->name.len == 0)
        return xml_fail(d, AXL_ERR_INVALID, t->start, "<kernel> has no name");
    axl_str v;
    k->control = AXL_XCLBIN_AP_CTRL_HS;
    if (attr(d, t, "hwControlProtocol", &v) && !control_of(v, &k->control))
        return xml_fail(d, AXL_ERR_FEATURE_NOT_SUPPORTED, t->start,
                        "kernel '%.*s': hwControlProtocol \"%.*s\" is not "
                        "supported", show(k->name.len), k->name.ptr,
                        show(v.len), v.ptr);
    if (!attr(d, t, "vlnv", &k->vlnv)) {
        k->vlnv.ptr = d->s + t->start;
        k->vlnv.len = 0;
    }
    k->xml_offset = d->base + t->start;
    return AXL_SUCCESS;
}

/*
 * Walks the direct-child <arg> elements of the kernel whose start tag
 * begins at kpos and calls visit for each one. Returns 0 after the whole
 * element (*end is then one past its last byte), the first nonzero value
 * visit returns, -1 on malformed XML (the message is in d->e) or -2 when
 * the document ends inside the element.
 */
typedef int (*arg_visit)(void *ctx, const doc *d, const tag *t);

static int walk_children(const doc *d, size_t kpos, const char *name,
                         arg_visit visit, void *ctx, size_t *end)
{
    size_t pos = kpos;
    tag t;
    if (next_tag(d, &pos, &t) != 1)
        return -1;
    if (t.kind == TAG_EMPTY) {
        *end = t.end;
        return 0;
    }
    size_t depth = 1;
    for (;;) {
        int r = next_tag(d, &pos, &t);
        if (r != 1)
            return r < 0 ? -1 : -2;
        if (t.kind == TAG_CLOSE) {
            if (--depth == 0) {
                *end = t.end;
                return 0;
            }
            continue;
        }
        if (depth == 1 && tag_is(d, &t, name) && visit) {
            int v = visit(ctx, d, &t);
            if (v)
                return v;
        }
        if (t.kind == TAG_OPEN)
            depth++;
    }
}

static int walk_args(const doc *d, size_t kpos, arg_visit visit, void *ctx,
                     size_t *end)
{
    return walk_children(d, kpos, "arg", visit, ctx, end);
}

typedef struct port_find {
    axl_str name;
    axl_xclbin_arg *a;
} port_find;

static int find_port(void *ctx, const doc *d, const tag *t)
{
    port_find *pf = ctx;
    axl_str v;
    uint64_t bits;
    if (!attr(d, t, "name", &v) || !str_eq(v, pf->name))
        return 0;
    if (attr(d, t, "mode", &v)) {
        if (axl_str_eq(v, "read_only"))
            pf->a->stream_dir = AXL_XCLBIN_STREAM_IN;
        else if (axl_str_eq(v, "write_only"))
            pf->a->stream_dir = AXL_XCLBIN_STREAM_OUT;
    }
    if (attr(d, t, "dataWidth", &v) && parse_u64(v, &bits) == 1 &&
        bits <= UINT32_MAX)
        pf->a->stream_bits = (uint32_t)bits;
    return 1;
}

/* A stream argument's direction and width: the <port> its port attribute
 * names, a direct child of the kernel as in the xclbin's XML (Vitis
 * writes no <ports> wrapper there). Left NONE and 0 when it is absent. */
static void stream_port(const doc *d, size_t kpos, axl_xclbin_arg *a,
                        const tag *t)
{
    port_find pf = {{NULL, 0}, a};
    size_t end;
    if (!attr(d, t, "port", &pf.name))
        return;
    walk_children(d, kpos, "port", find_port, &pf, &end);
}

/* The index-th <kernel> start tag of a checked document (kernels do not
 * nest there); 1 found, 0 not. */
static int find_kernel(const doc *d, uint32_t index, tag *out)
{
    size_t pos = 0;
    uint32_t seen = 0;
    tag t;
    while (next_tag(d, &pos, &t) == 1) {
        if (t.kind != TAG_CLOSE && tag_is(d, &t, "kernel") &&
            seen++ == index) {
            *out = t;
            return 1;
        }
    }
    return 0;
}

/* ---- checking the XML ---- */

/* A <kernel> named name whose start tag is before limit (in *out). */
static int earlier_kernel(const doc *d, axl_str name, size_t limit, tag *out)
{
    size_t pos = 0;
    tag t;
    while (next_tag(d, &pos, &t) == 1 && t.start < limit) {
        axl_str v;
        if (t.kind != TAG_CLOSE && tag_is(d, &t, "kernel") &&
            attr(d, &t, "name", &v) && str_eq(v, name)) {
            *out = t;
            return 1;
        }
    }
    return 0;
}

typedef struct arg_check {
    axl_str kname;
    size_t first;   /* position of the kernel's start tag */
    axl_status st;
} arg_check;

typedef struct dup_search {
    const tag *until;
    uint32_t id;
    int found;
} dup_search;

static int find_dup_id(void *ctx, const doc *d, const tag *t)
{
    dup_search *ds = ctx;
    if (t->start >= ds->until->start)
        return 1;
    axl_str v;
    uint64_t id;
    if (attr(d, t, "id", &v) && parse_u64(v, &id) == 1 && id == ds->id) {
        ds->found = 1;
        return 1;
    }
    return 0;
}

static int check_arg(void *ctx, const doc *d, const tag *t)
{
    arg_check *ac = ctx;
    axl_xclbin_arg a;
    ac->st = read_arg(d, ac->first, t, ac->kname, &a);
    if (ac->st)
        return 1;
    dup_search ds = {t, a.index, 0};
    size_t end;
    walk_args(d, ac->first, find_dup_id, &ds, &end);
    if (ds.found) {
        ac->st = xml_fail(d, AXL_ERR_INVALID, t->start, "kernel '%.*s': arg "
                          "'%.*s' repeats id %u", show(ac->kname.len),
                          ac->kname.ptr, show(a.name.len), a.name.ptr,
                          (unsigned)a.index);
        return 1;
    }
    return 0;
}

static axl_status check_xml(const doc *d, uint32_t *kernel_count)
{
    size_t pos = 0, depth = 0, kdepth = 0, elements = 0;
    uint32_t kernels = 0;
    tag t, kt;
    axl_xclbin_kernel k = {0};
    int r;
    while ((r = next_tag(d, &pos, &t)) == 1) {
        int nl = show(t.name_len);
        const char *nm = d->s + t.name;
        elements++;
        if (t.kind == TAG_CLOSE) {
            if (depth == 0)
                return xml_fail(d, AXL_ERR_INVALID, t.start, "</%.*s> closes "
                                "no element", nl, nm);
            depth--;
            if (kdepth && --kdepth == 0 && !tag_is(d, &t, "kernel"))
                return xml_fail(d, AXL_ERR_INVALID, t.start, "</%.*s> closes "
                                "kernel '%.*s'", nl, nm, show(k.name.len),
                                k.name.ptr);
            continue;
        }
        if (t.kind == TAG_OPEN)
            depth++;
        if (kdepth) {
            if (tag_is(d, &t, "kernel"))
                return xml_fail(d, AXL_ERR_INVALID, t.start, "<kernel> inside "
                                "kernel '%.*s'", show(k.name.len), k.name.ptr);
            if (t.kind == TAG_OPEN)
                kdepth++;
            continue;
        }
        if (!tag_is(d, &t, "kernel"))
            continue;

        axl_status st = read_kernel_tag(d, &t, &k);
        if (st)
            return st;
        if (kernels == UINT32_MAX)
            return xml_fail(d, AXL_ERR_INVALID, t.start, "too many kernels");
        /* Kernel names are unique: one pass over the earlier kernels. */
        if (earlier_kernel(d, k.name, t.start, &kt))
            return xml_fail(d, AXL_ERR_INVALID, t.start, "kernel '%.*s' is "
                            "defined twice (first on line %lu)",
                            show(k.name.len), k.name.ptr,
                            line_of(d, kt.start));
        kernels++;
        /* Its direct <arg> children; this also proves the element ends. */
        arg_check ac = {k.name, t.start, AXL_SUCCESS};
        size_t end;
        int w = walk_args(d, t.start, check_arg, &ac, &end);
        if (ac.st)
            return ac.st;
        if (w == -2)
            return xml_fail(d, AXL_ERR_INVALID, t.start, "kernel '%.*s' has "
                            "no </kernel>", show(k.name.len), k.name.ptr);
        if (w < 0)
            return AXL_ERR_INVALID;
        if (t.kind == TAG_OPEN)
            kdepth = 1;
    }
    if (r < 0)
        return AXL_ERR_INVALID;
    if (depth)
        return xml_fail(d, AXL_ERR_INVALID, d->n, "the document ends with %zu "
                        "element(s) open", depth);
    if (!elements)
        return xml_fail(d, AXL_ERR_INVALID, 0, "no XML element found");
    *kernel_count = kernels;
    return AXL_SUCCESS;
}

static void make_doc(const axl_xclbin *x, doc *d, err *e, uint32_t section)
{
    const char *s = (const char *)x->data + x->metadata.offset;
    const char *nul = x->metadata.size ? memchr(s, 0, x->metadata.size) : NULL;
    d->s = s;
    d->n = nul ? (size_t)(nul - s) : x->metadata.size;
    d->base = x->metadata.offset;
    d->section = section;
    d->e = e;
}

/* ---- checking the binary sections ---- */

static axl_status check_count(err *e, uint32_t index, uint32_t kind,
                              const axl_xclbin_range *r, uint64_t count_field,
                              int64_t count, uint64_t head, uint64_t entry,
                              uint32_t *out)
{
    const char *name = axl_xclbin_section_name(kind);
    /* xclbinutil writes an empty section for an empty table. */
    if (r->size == 0) {
        *out = 0;
        return AXL_SUCCESS;
    }
    if (r->size < count_field)
        return fail(e, "section %u (%s): %zu bytes cannot hold m_count",
                    (unsigned)index, name, r->size);
    if (count < 0)
        return fail(e, "section %u (%s): m_count %lld is negative",
                    (unsigned)index, name, (long long)count);
    /* count < 2^31 and entry <= 136: no overflow in 64 bits. */
    uint64_t need = head + (uint64_t)count * entry;
    if (need > r->size)
        return fail(e, "section %u (%s): m_count %lld needs %llu bytes, the "
                    "section has %zu", (unsigned)index, name, (long long)count,
                    (unsigned long long)need, r->size);
    *out = (uint32_t)count;
    return AXL_SUCCESS;
}

static axl_status check_mem(const axl_xclbin *x, err *e, uint32_t sec)
{
    const uint8_t *p = x->data + x->mem_topology.offset + MEM_DATA_OFF;
    for (uint32_t i = 0; i < x->mem_count; i++, p += MEM_DATA_SIZE) {
        axl_str tag;
        if (!fixed_str(p + MEM_TAG_OFF, MEM_TAG_SIZE, &tag))
            return fail(e, "section %u (MEM_TOPOLOGY): bank %u: m_tag has no "
                        "NUL within its %u bytes", (unsigned)sec, (unsigned)i,
                        MEM_TAG_SIZE);
        uint8_t type = p[0];
        uint64_t kib = ld64(p + 8);
        if (type != AXL_XCLBIN_MEM_STREAMING &&
            type != AXL_XCLBIN_MEM_STREAMING_CONNECTION &&
            kib > UINT64_MAX / 1024)
            return fail(e, "section %u (MEM_TOPOLOGY): bank %u (%.*s): "
                        "m_size 0x%llx KiB overflows 64 bits of bytes",
                        (unsigned)sec, (unsigned)i, show(tag.len), tag.ptr,
                        (unsigned long long)kib);
    }
    return AXL_SUCCESS;
}

static axl_status check_ips(const axl_xclbin *x, err *e, uint32_t sec)
{
    const uint8_t *p = x->data + x->ip_layout.offset + IP_DATA_OFF;
    for (uint32_t i = 0; i < x->ip_count; i++, p += IP_DATA_SIZE) {
        axl_str name;
        if (!fixed_str(p + IP_NAME_OFF, IP_NAME_SIZE, &name))
            return fail(e, "section %u (IP_LAYOUT): ip %u: m_name has no NUL "
                        "within its %u bytes", (unsigned)sec, (unsigned)i,
                        IP_NAME_SIZE);
    }
    return AXL_SUCCESS;
}

static axl_status check_connections(const axl_xclbin *x, err *e, uint32_t sec)
{
    const uint8_t *p = x->data + x->connectivity.offset + CONNECTION_OFF;
    for (uint32_t i = 0; i < x->connection_count; i++, p += CONNECTION_SIZE) {
        int32_t arg = (int32_t)ld32(p);
        int32_t ip = (int32_t)ld32(p + 4);
        int32_t mem = (int32_t)ld32(p + 8);
        if (arg < 0)
            return fail(e, "section %u (CONNECTIVITY): connection %u: "
                        "arg_index %ld is negative", (unsigned)sec,
                        (unsigned)i, (long)arg);
        if (ip < 0 || (uint32_t)ip >= x->ip_count)
            return fail(e, "section %u (CONNECTIVITY): connection %u: "
                        "m_ip_layout_index %ld is not below the %u IPs of "
                        "IP_LAYOUT", (unsigned)sec, (unsigned)i, (long)ip,
                        (unsigned)x->ip_count);
        if (mem < 0 || (uint32_t)mem >= x->mem_count)
            return fail(e, "section %u (CONNECTIVITY): connection %u: "
                        "mem_data_index %ld is not below the %u banks of "
                        "MEM_TOPOLOGY", (unsigned)sec, (unsigned)i, (long)mem,
                        (unsigned)x->mem_count);
        if (mem >= 64)
            return unsupported(e, "section %u (CONNECTIVITY): connection %u: "
                               "bank %ld is beyond the 64 banks axl tracks",
                               (unsigned)sec, (unsigned)i, (long)mem);
    }
    return AXL_SUCCESS;
}

static axl_status check_clocks(const axl_xclbin *x, err *e, uint32_t sec)
{
    const uint8_t *p = x->data + x->clocks.offset + CLOCK_OFF;
    for (uint32_t i = 0; i < x->clock_count; i++, p += CLOCK_SIZE) {
        axl_str name;
        if (!fixed_str(p + CLOCK_NAME_OFF, CLOCK_NAME_SIZE, &name))
            return fail(e, "section %u (CLOCK_FREQ_TOPOLOGY): clock %u: "
                        "m_name has no NUL within its %u bytes",
                        (unsigned)sec, (unsigned)i, CLOCK_NAME_SIZE);
    }
    return AXL_SUCCESS;
}

/* Where the sections axl reads were found: have_* when present (at most
 * once each), idx_* their index in the section table. */
typedef struct known_sections {
    uint32_t idx_mem, idx_ip, idx_conn, idx_xml, idx_clk;
    int have_mem, have_ip, have_conn, have_xml, have_clk;
} known_sections;

/* The magic and the header's sizes: *length (m_length) and *nsec
 * (m_numSections), checked against the bytes given and each other. */
static axl_status check_header(const uint8_t *b, size_t size, err *e,
                               uint64_t *length, uint32_t *nsec)
{
    if (!b)
        return fail(e, "no image (NULL data)");
    if (size < 8)
        return fail(e, "image is %zu bytes, too short for the magic", size);
    if (memcmp(b, AXLF_MAGIC, 8) != 0) {
        if (memcmp(b, "xclbin", 6) == 0 && b[6] >= '0' && b[6] <= '9' &&
            b[7] == 0)
            return unsupported(e, "magic \"xclbin%c\": only xclbin2 (axlf) "
                               "images are supported", (char)b[6]);
        return fail(e, "bad magic: the image does not start with "
                    "\"xclbin2\\0\"");
    }
    if (size < AXLF_SECTIONS_OFF)
        return fail(e, "image is %zu bytes, the axlf header needs %u", size,
                    AXLF_SECTIONS_OFF);

    *length = ld64(b + AXLF_LENGTH_OFF);
    *nsec = ld32(b + AXLF_NUM_SECTIONS_OFF);
    if (*length > size)
        return fail(e, "header m_length %llu is larger than the %zu bytes "
                    "given", (unsigned long long)*length, size);
    if (*length < AXLF_SECTIONS_OFF)
        return fail(e, "header m_length %llu is smaller than the %u-byte "
                    "axlf header", (unsigned long long)*length,
                    AXLF_SECTIONS_OFF);
    /* nsec < 2^32, so nsec * 40 cannot overflow 64 bits. */
    if ((uint64_t)*nsec * SECTION_HEADER_SIZE > *length - AXLF_SECTIONS_OFF)
        return fail(e, "header m_numSections %lu needs %llu bytes of section "
                    "table, m_length %llu leaves %llu", (unsigned long)*nsec,
                    (unsigned long long)*nsec * SECTION_HEADER_SIZE,
                    (unsigned long long)*length,
                    (unsigned long long)(*length - AXLF_SECTIONS_OFF));
    return AXL_SUCCESS;
}

/* The section table: each entry's bounds, and the place of the five kinds
 * axl reads (x's ranges, f). */
static axl_status find_sections(axl_xclbin *x, const uint8_t *b,
                                uint64_t length, err *e,
                                known_sections *f)
{
    const uint32_t nsec = x->section_count;
    uint64_t table_end = AXLF_SECTIONS_OFF + (uint64_t)nsec *
                         SECTION_HEADER_SIZE;
    for (uint32_t i = 0; i < nsec; i++) {
        const uint8_t *h = b + AXLF_SECTIONS_OFF + (size_t)i *
                           SECTION_HEADER_SIZE;
        uint32_t kind = ld32(h + SH_KIND);
        uint64_t off = ld64(h + SH_OFFSET);
        uint64_t sz = ld64(h + SH_SIZE);
        const char *name = axl_xclbin_section_name(kind);
        if (sz != 0) {
            if (off < table_end)
                return fail(e, "section %u (%s): offset %llu is inside the "
                            "header and section table (%llu bytes)",
                            (unsigned)i, name, (unsigned long long)off,
                            (unsigned long long)table_end);
            if (off > length || sz > length - off)
                return fail(e, "section %u (%s): offset %llu + size %llu is "
                            "past m_length %llu", (unsigned)i, name,
                            (unsigned long long)off, (unsigned long long)sz,
                            (unsigned long long)length);
        }
        axl_xclbin_range *r;
        int *have;
        uint32_t *idx;
        switch (kind) {
        case KIND_MEM_TOPOLOGY:
            r = &x->mem_topology, have = &f->have_mem, idx = &f->idx_mem;
            break;
        case KIND_IP_LAYOUT:
            r = &x->ip_layout, have = &f->have_ip, idx = &f->idx_ip;
            break;
        case KIND_CONNECTIVITY:
            r = &x->connectivity, have = &f->have_conn, idx = &f->idx_conn;
            break;
        case KIND_EMBEDDED_METADATA:
            r = &x->metadata, have = &f->have_xml, idx = &f->idx_xml;
            break;
        case KIND_CLOCK_FREQ_TOPOLOGY:
            r = &x->clocks, have = &f->have_clk, idx = &f->idx_clk;
            break;
        default:
            continue;
        }
        if (*have)
            return fail(e, "section %u (%s) repeats section %u: an image has "
                        "at most one", (unsigned)i, name, (unsigned)*idx);
        *have = 1;
        *idx = i;
        r->offset = sz ? (size_t)off : 0;
        r->size = (size_t)sz;
    }
    return AXL_SUCCESS;
}

/* The contents of each section found: table counts and entries, then the
 * XML. */
static axl_status check_sections(axl_xclbin *x, const uint8_t *b, err *e,
                                 const known_sections *f)
{
    axl_status st;
    const uint8_t *p;
    if (f->have_mem) {
        p = b + x->mem_topology.offset;
        if ((st = check_count(e, f->idx_mem, KIND_MEM_TOPOLOGY,
                              &x->mem_topology, 4,
                              x->mem_topology.size >= 4 ? (int32_t)ld32(p) : 0,
                              MEM_DATA_OFF, MEM_DATA_SIZE, &x->mem_count)) ||
            (st = check_mem(x, e, f->idx_mem)))
            return st;
    }
    if (f->have_ip) {
        p = b + x->ip_layout.offset;
        if ((st = check_count(e, f->idx_ip, KIND_IP_LAYOUT, &x->ip_layout, 4,
                              x->ip_layout.size >= 4 ? (int32_t)ld32(p) : 0,
                              IP_DATA_OFF, IP_DATA_SIZE, &x->ip_count)) ||
            (st = check_ips(x, e, f->idx_ip)))
            return st;
    }
    if (f->have_conn) {
        p = b + x->connectivity.offset;
        if ((st = check_count(e, f->idx_conn, KIND_CONNECTIVITY,
                              &x->connectivity, 4,
                              x->connectivity.size >= 4 ? (int32_t)ld32(p) : 0,
                              CONNECTION_OFF, CONNECTION_SIZE,
                              &x->connection_count)) ||
            (st = check_connections(x, e, f->idx_conn)))
            return st;
    }
    if (f->have_clk) {
        p = b + x->clocks.offset;
        if ((st = check_count(e, f->idx_clk, KIND_CLOCK_FREQ_TOPOLOGY,
                              &x->clocks, 2,
                              x->clocks.size >= 2 ? (int16_t)ld16(p) : 0,
                              CLOCK_OFF, CLOCK_SIZE, &x->clock_count)) ||
            (st = check_clocks(x, e, f->idx_clk)))
            return st;
    }
    if (f->have_xml && x->metadata.size) {
        doc d;
        make_doc(x, &d, e, f->idx_xml);
        if ((st = check_xml(&d, &x->kernel_count)))
            return st;
    }
    return AXL_SUCCESS;
}

static axl_status open_image(axl_xclbin *x, const uint8_t *b, size_t size,
                             err *e)
{
    uint64_t length = 0;
    uint32_t nsec = 0;
    axl_status st = check_header(b, size, e, &length, &nsec);
    if (st)
        return st;

    x->data = b;
    x->size = (size_t)length;
    memcpy(x->uuid, b + AXLF_UUID_OFF, AXL_XCLBIN_UUID_SIZE);
    x->mode = ld16(b + AXLF_MODE_OFF);
    memcpy(x->interface_uuid, b + AXLF_INTERFACE_UUID_OFF,
           AXL_XCLBIN_UUID_SIZE);
    x->section_count = nsec;

    known_sections f = {0};
    if ((st = find_sections(x, b, length, e, &f)))
        return st;
    return check_sections(x, b, e, &f);
}

axl_status axl_xclbin_open(axl_xclbin *x, const void *data, size_t size,
                           char *why, size_t why_size)
{
    err e = {why, why_size};
    if (why && why_size)
        why[0] = '\0';
    if (!x)
        return fail(&e, "no axl_xclbin to fill (NULL)");
    memset(x, 0, sizeof *x);
    /* Switched off, the reader's code is dead below and not linked. */
    if (!AXL_FEATURE_XCLBIN_READER)
        return unsupported(&e, "this build reads no xclbin image, only "
                               "pre-digested designs "
                               "(AXL_FEATURE_XCLBIN_READER 0)");
    axl_status st = open_image(x, data, size, &e);
    if (st)
        memset(x, 0, sizeof *x);
    return st;
}

/* ---- pre-digested designs ---- */

static int str_ok(axl_str v)
{
    return v.ptr || !v.len;
}

axl_status axl_xclbin_open_design(axl_xclbin *x, const axl_xclbin_design *d,
                                  char *why, size_t why_size)
{
    err e = {why, why_size};
    if (why && why_size)
        why[0] = '\0';
    if (!x)
        return fail(&e, "no axl_xclbin to fill (NULL)");
    memset(x, 0, sizeof *x);
    if (!d)
        return fail(&e, "no design (NULL)");
    if ((d->mem_count && !d->mems) || (d->ip_count && !d->ips) ||
        (d->connection_count && !d->connections) ||
        (d->clock_count && !d->clocks) || (d->kernel_count && !d->kernels))
        return fail(&e, "design: a count without its array");
    if (d->mem_count > 64)
        return fail(&e, "design: %u banks, at most 64", (unsigned)d->mem_count);
    for (uint32_t i = 0; i < d->mem_count; i++)
        if (!str_ok(d->mems[i].tag))
            return fail(&e, "design: bank %u: tag without characters",
                        (unsigned)i);
    for (uint32_t i = 0; i < d->ip_count; i++) {
        const axl_xclbin_ip *ip = &d->ips[i];
        if (!str_ok(ip->name) || !str_ok(ip->kernel) || !str_ok(ip->instance))
            return fail(&e, "design: IP %u: name without characters",
                        (unsigned)i);
    }
    for (uint32_t i = 0; i < d->connection_count; i++) {
        const axl_xclbin_connection *c = &d->connections[i];
        if (c->ip_index >= d->ip_count || c->mem_index >= d->mem_count)
            return fail(&e, "design: connection %u: IP %u or bank %u out of "
                            "range", (unsigned)i, (unsigned)c->ip_index,
                        (unsigned)c->mem_index);
    }
    for (uint32_t i = 0; i < d->clock_count; i++)
        if (!str_ok(d->clocks[i].name))
            return fail(&e, "design: clock %u: name without characters",
                        (unsigned)i);
    for (uint32_t k = 0; k < d->kernel_count; k++) {
        const axl_xclbin_design_kernel *dk = &d->kernels[k];
        if (!str_ok(dk->kernel.name) || dk->kernel.xml_offset != k ||
            (dk->kernel.arg_count && !dk->args))
            return fail(&e, "design: kernel %u: no name, arguments or "
                            "index", (unsigned)k);
        uint32_t cus = 0;
        for (uint32_t i = 0; i < d->ip_count; i++)
            cus += d->ips[i].type == AXL_XCLBIN_IP_KERNEL &&
                   str_eq(d->ips[i].kernel, dk->kernel.name);
        if (cus != dk->kernel.cu_count)
            return fail(&e, "design: kernel %u: %u compute units, IP_LAYOUT "
                            "has %u", (unsigned)k,
                        (unsigned)dk->kernel.cu_count, (unsigned)cus);
        for (uint32_t a = 0; a < dk->kernel.arg_count; a++)
            if (!str_ok(dk->args[a].name) || !str_ok(dk->args[a].type))
                return fail(&e, "design: kernel %u: argument %u without a "
                                "name", (unsigned)k, (unsigned)a);
    }
    memcpy(x->uuid, d->uuid, sizeof x->uuid);
    x->mode = d->mode;
    memcpy(x->interface_uuid, d->interface_uuid, sizeof x->interface_uuid);
    x->mem_count = d->mem_count;
    x->ip_count = d->ip_count;
    x->connection_count = d->connection_count;
    x->clock_count = d->clock_count;
    x->kernel_count = d->kernel_count;
    x->design = d;
    return AXL_SUCCESS;
}

/* ---- getters ---- */

/* A getter reads the design when x has one; else the image's bytes, which
 * a build without the reader never has (the byte paths below are then
 * dead code, and not linked). */
static int usable(const axl_xclbin *x)
{
    return x && (x->design || (AXL_FEATURE_XCLBIN_READER && x->data));
}

#define FROM_DESIGN(x, array, count, index, out)                               \
    do {                                                                       \
        if ((x)->design) {                                                     \
            if ((index) >= (x)->design->count)                                 \
                return AXL_ERR_INVALID;                                        \
            *(out) = (x)->design->array[index];                                \
            return AXL_SUCCESS;                                                \
        }                                                                      \
        if (!AXL_FEATURE_XCLBIN_READER)                                        \
            return AXL_ERR_INVALID;                                            \
    } while (0)

axl_status axl_xclbin_get_mem(const axl_xclbin *x, uint32_t index,
                              axl_xclbin_mem *out)
{
    if (!usable(x) || !out || index >= x->mem_count)
        return AXL_ERR_INVALID;
    FROM_DESIGN(x, mems, mem_count, index, out);
    const uint8_t *p = x->data + x->mem_topology.offset + MEM_DATA_OFF +
                       (size_t)index * MEM_DATA_SIZE;
    memset(out, 0, sizeof *out);
    out->type = p[0];
    out->used = p[1];
    if (out->type != AXL_XCLBIN_MEM_STREAMING &&
        out->type != AXL_XCLBIN_MEM_STREAMING_CONNECTION)
        out->size = ld64(p + 8) * 1024;
    else if (out->type == AXL_XCLBIN_MEM_STREAMING_CONNECTION &&
             ld64(p + 8) <= UINT32_MAX)
        out->fifo_depth = (uint32_t)ld64(p + 8);
    out->base_address = ld64(p + 16);
    if (!fixed_str(p + MEM_TAG_OFF, MEM_TAG_SIZE, &out->tag))
        return AXL_ERR_INVALID;
    return AXL_SUCCESS;
}

axl_status axl_xclbin_get_ip(const axl_xclbin *x, uint32_t index,
                             axl_xclbin_ip *out)
{
    if (!usable(x) || !out || index >= x->ip_count)
        return AXL_ERR_INVALID;
    FROM_DESIGN(x, ips, ip_count, index, out);
    const uint8_t *p = x->data + x->ip_layout.offset + IP_DATA_OFF +
                       (size_t)index * IP_DATA_SIZE;
    memset(out, 0, sizeof *out);
    uint32_t props = ld32(p + 4);
    out->type = ld32(p);
    out->interrupt_enabled = (uint8_t)(props & 0x1u);
    out->interrupt_id = (props & 0xFEu) >> 1;
    out->control = (props & 0xFF00u) >> 8;
    out->base_address = ld64(p + 8);
    if (!fixed_str(p + IP_NAME_OFF, IP_NAME_SIZE, &out->name))
        return AXL_ERR_INVALID;
    const char *colon = out->name.len ? memchr(out->name.ptr, ':',
                                               out->name.len) : NULL;
    out->kernel = out->name;
    out->instance.ptr = out->name.ptr + out->name.len;
    out->instance.len = 0;
    if (colon) {
        out->kernel.len = (size_t)(colon - out->name.ptr);
        out->instance.ptr = colon + 1;
        out->instance.len = out->name.len - out->kernel.len - 1;
    }
    return AXL_SUCCESS;
}

axl_status axl_xclbin_get_connection(const axl_xclbin *x, uint32_t index,
                                     axl_xclbin_connection *out)
{
    if (!usable(x) || !out || index >= x->connection_count)
        return AXL_ERR_INVALID;
    FROM_DESIGN(x, connections, connection_count, index, out);
    const uint8_t *p = x->data + x->connectivity.offset + CONNECTION_OFF +
                       (size_t)index * CONNECTION_SIZE;
    out->arg_index = ld32(p);
    out->ip_index = ld32(p + 4);
    out->mem_index = ld32(p + 8);
    return AXL_SUCCESS;
}

axl_status axl_xclbin_get_clock(const axl_xclbin *x, uint32_t index,
                                axl_xclbin_clock *out)
{
    if (!usable(x) || !out || index >= x->clock_count)
        return AXL_ERR_INVALID;
    FROM_DESIGN(x, clocks, clock_count, index, out);
    const uint8_t *p = x->data + x->clocks.offset + CLOCK_OFF +
                       (size_t)index * CLOCK_SIZE;
    memset(out, 0, sizeof *out);
    out->freq_mhz = ld16(p);
    out->type = p[2];
    if (!fixed_str(p + CLOCK_NAME_OFF, CLOCK_NAME_SIZE, &out->name))
        return AXL_ERR_INVALID;
    return AXL_SUCCESS;
}

static uint32_t count_cus(const axl_xclbin *x, axl_str kernel)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < x->ip_count; i++) {
        axl_xclbin_ip ip;
        if (axl_xclbin_get_ip(x, i, &ip) == AXL_SUCCESS &&
            ip.type == AXL_XCLBIN_IP_KERNEL && str_eq(ip.kernel, kernel))
            n++;
    }
    return n;
}

static int count_arg(void *ctx, const doc *d, const tag *t)
{
    (void)d;
    (void)t;
    (*(uint32_t *)ctx)++;
    return 0;
}

/* A getter, not a field of axl_xclbin: only what asks (the XRT port, a
 * hosted emulated device) links it. */
axl_str axl_xclbin_get_platform(const axl_xclbin *x)
{
    axl_str p = {NULL, 0};
    if (!usable(x))
        return p;
    if (x->design)
        return str_ok(x->design->platform) ? x->design->platform : p;
    p.ptr = (const char *)x->data + AXLF_VBNV_OFF;
    while (p.len < AXLF_VBNV_SIZE && p.ptr[p.len])
        p.len++;
    return p;
}

/* The section table was checked at open: every entry lies inside the
 * image, and a non-empty section inside m_length after the table. */
axl_status axl_xclbin_get_section(const axl_xclbin *x, uint32_t kind,
                                  axl_xclbin_range *out)
{
    if (!usable(x) || !out)
        return AXL_ERR_INVALID;
    if (x->design)
        return AXL_ERR_FEATURE_NOT_SUPPORTED; /* a design has no bytes */
    out->offset = 0;
    out->size = 0;
    for (uint32_t i = 0; i < x->section_count; i++) {
        const uint8_t *h = x->data + AXLF_SECTIONS_OFF +
                           (size_t)i * SECTION_HEADER_SIZE;
        if (ld32(h + SH_KIND) != kind)
            continue;
        size_t size = (size_t)ld64(h + SH_SIZE);
        out->offset = size ? (size_t)ld64(h + SH_OFFSET) : 0;
        out->size = size;
        break;
    }
    return AXL_SUCCESS;
}

const char *axl_xclbin_mode_name(uint32_t mode)
{
    static const char *const names[] = {"flat", "pr", "tandem_stage2",
                                        "tandem_stage2_with_pr", "hw_emu",
                                        "sw_emu", "hw_emu_pr"};
    return mode < sizeof names / sizeof names[0] ? names[mode] : "unknown";
}

axl_status axl_xclbin_get_kernel(const axl_xclbin *x, uint32_t index,
                                 axl_xclbin_kernel *out)
{
    if (!usable(x) || !out || index >= x->kernel_count)
        return AXL_ERR_INVALID;
    if (x->design) {
        *out = x->design->kernels[index].kernel;
        return AXL_SUCCESS;
    }
    if (!AXL_FEATURE_XCLBIN_READER)
        return AXL_ERR_INVALID;
    doc d;
    tag t;
    make_doc(x, &d, NULL, 0);
    if (find_kernel(&d, index, &t) != 1 ||
        read_kernel_tag(&d, &t, out) != AXL_SUCCESS)
        return AXL_ERR_INVALID;
    size_t end;
    uint32_t args = 0;
    if (walk_args(&d, t.start, count_arg, &args, &end) != 0)
        return AXL_ERR_INVALID;
    out->arg_count = args;
    out->xml_size = end - t.start;
    out->cu_count = count_cus(x, out->name);
    return AXL_SUCCESS;
}

/* k came from the caller: it must describe a kernel element of x. */
static int kernel_in(const axl_xclbin *x, const axl_xclbin_kernel *k)
{
    return k && k->xml_offset >= x->metadata.offset &&
           k->xml_offset - x->metadata.offset < x->metadata.size;
}

typedef struct arg_pick {
    uint32_t want, seen;
    tag t;
} arg_pick;

static int pick_arg(void *ctx, const doc *d, const tag *t)
{
    arg_pick *ap = ctx;
    (void)d;
    if (ap->seen++ == ap->want) {
        ap->t = *t;
        return 1;
    }
    return 0;
}

axl_status axl_xclbin_get_kernel_arg(const axl_xclbin *x,
                                     const axl_xclbin_kernel *k,
                                     uint32_t index, axl_xclbin_arg *out)
{
    if (!usable(x) || !out || !k)
        return AXL_ERR_INVALID;
    if (x->design) {
        const axl_xclbin_design_kernel *dk;
        if (k->xml_offset >= x->design->kernel_count)
            return AXL_ERR_INVALID;
        dk = &x->design->kernels[k->xml_offset];
        if (index >= dk->kernel.arg_count)
            return AXL_ERR_INVALID;
        *out = dk->args[index];
        return AXL_SUCCESS;
    }
    if (!AXL_FEATURE_XCLBIN_READER)
        return AXL_ERR_INVALID;
    if (!kernel_in(x, k))
        return AXL_ERR_INVALID;
    doc d;
    make_doc(x, &d, NULL, 0);
    size_t kpos = k->xml_offset - x->metadata.offset;
    if (kpos >= d.n || !starts(&d, kpos, "<kernel"))
        return AXL_ERR_INVALID;
    arg_pick ap = {index, 0, {0}};
    size_t end;
    if (walk_args(&d, kpos, pick_arg, &ap, &end) != 1)
        return AXL_ERR_INVALID;
    return read_arg(&d, kpos, &ap.t, k->name, out);
}

axl_status axl_xclbin_get_kernel_cu(const axl_xclbin *x,
                                    const axl_xclbin_kernel *k, uint32_t cu,
                                    uint32_t *ip_index)
{
    if (!usable(x) || !k || !ip_index)
        return AXL_ERR_INVALID;
    uint32_t seen = 0;
    for (uint32_t i = 0; i < x->ip_count; i++) {
        axl_xclbin_ip ip;
        if (axl_xclbin_get_ip(x, i, &ip) != AXL_SUCCESS)
            return AXL_ERR_INVALID;
        if (ip.type == AXL_XCLBIN_IP_KERNEL && str_eq(ip.kernel, k->name) &&
            seen++ == cu) {
            *ip_index = i;
            return AXL_SUCCESS;
        }
    }
    return AXL_ERR_INVALID;
}

uint64_t axl_xclbin_arg_banks(const axl_xclbin *x, uint32_t ip_index,
                              uint32_t arg_id)
{
    uint64_t mask = 0;
    if (!usable(x))
        return 0;
    for (uint32_t i = 0; i < x->connection_count; i++) {
        axl_xclbin_connection c;
        if (axl_xclbin_get_connection(x, i, &c) == AXL_SUCCESS &&
            c.ip_index == ip_index && c.arg_index == arg_id &&
            c.mem_index < 64)
            mask |= (uint64_t)1 << c.mem_index;
    }
    return mask;
}

/* ---- streams ---- */

/* The CONNECTIVITY entries that name bank m: the first two in *a and *b;
 * returns how many there are. */
static uint32_t stream_ends(const axl_xclbin *x, uint32_t m,
                            axl_xclbin_connection *a, axl_xclbin_connection *b)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < x->connection_count; i++) {
        axl_xclbin_connection c;
        if (axl_xclbin_get_connection(x, i, &c) != AXL_SUCCESS ||
            c.mem_index != m)
            continue;
        if (n == 0)
            *a = c;
        else if (n == 1)
            *b = c;
        n++;
    }
    return n;
}

/* The stream bank of the index-th stream, or mem_count. */
static uint32_t stream_bank(const axl_xclbin *x, uint32_t index)
{
    uint32_t seen = 0;
    for (uint32_t m = 0; m < x->mem_count; m++) {
        axl_xclbin_mem mem;
        axl_xclbin_connection a, b;
        if (axl_xclbin_get_mem(x, m, &mem) != AXL_SUCCESS ||
            mem.type != AXL_XCLBIN_MEM_STREAMING_CONNECTION ||
            stream_ends(x, m, &a, &b) != 2)
            continue;
        if (seen++ == index)
            return m;
    }
    return x->mem_count;
}

uint32_t axl_xclbin_stream_count(const axl_xclbin *x)
{
    uint32_t n = 0;
    if (!usable(x))
        return 0;
    while (stream_bank(x, n) < x->mem_count)
        n++;
    return n;
}

axl_str axl_xclbin_instance_of(axl_str ip_name)
{
    for (size_t i = 0; i < ip_name.len; i++)
        if (ip_name.ptr[i] == ':') {
            axl_str s = {ip_name.ptr + i + 1, ip_name.len - i - 1};
            return s;
        }
    return ip_name;
}

/* Argument arg_id of the unit at IP ip_index: its direction, the unit's
 * and the argument's names, and its TDATA bits. */
static uint8_t port_of(const axl_xclbin *x, uint32_t ip_index,
                       uint32_t arg_id, axl_str *unit, axl_str *port,
                       uint32_t *bits)
{
    axl_xclbin_ip ip;
    if (axl_xclbin_get_ip(x, ip_index, &ip) != AXL_SUCCESS)
        return AXL_XCLBIN_STREAM_NONE;
    *unit = ip.name;
    for (uint32_t k = 0; k < x->kernel_count; k++) {
        axl_xclbin_kernel kern;
        if (axl_xclbin_get_kernel(x, k, &kern) != AXL_SUCCESS ||
            !str_eq(kern.name, ip.kernel))
            continue;
        for (uint32_t i = 0; i < kern.arg_count; i++) {
            axl_xclbin_arg arg;
            if (axl_xclbin_get_kernel_arg(x, &kern, i, &arg) == AXL_SUCCESS &&
                arg.index == arg_id) {
                *port = arg.name;
                *bits = arg.stream_bits;
                return arg.stream_dir;
            }
        }
    }
    return AXL_XCLBIN_STREAM_NONE;
}

axl_status axl_xclbin_get_stream(const axl_xclbin *x, uint32_t index,
                                 axl_xclbin_stream *out)
{
    if (!usable(x) || !out)
        return AXL_ERR_INVALID;
    uint32_t m = stream_bank(x, index);
    axl_xclbin_mem mem;
    axl_xclbin_connection a = {0}, b = {0}; /* stream_ends may find one end only */
    if (m >= x->mem_count || axl_xclbin_get_mem(x, m, &mem) != AXL_SUCCESS)
        return AXL_ERR_INVALID;
    stream_ends(x, m, &a, &b);
    memset(out, 0, sizeof *out);
    axl_str un[2] = {{"", 0}, {"", 0}}, pn[2] = {{"", 0}, {"", 0}};
    uint32_t bits[2] = {0, 0};
    uint8_t da =
        port_of(x, a.ip_index, a.arg_index, &un[0], &pn[0], &bits[0]);
    uint8_t db =
        port_of(x, b.ip_index, b.arg_index, &un[1], &pn[1], &bits[1]);
    /* The producer is the end whose port writes; else the first entry. */
    int swap = da == AXL_XCLBIN_STREAM_IN || db == AXL_XCLBIN_STREAM_OUT;
    const axl_xclbin_connection *p = swap ? &b : &a, *c = swap ? &a : &b;
    out->mem_index = m;
    out->fifo_depth = mem.fifo_depth;
    out->producer_ip = p->ip_index;
    out->producer_arg = p->arg_index;
    out->consumer_ip = c->ip_index;
    out->consumer_arg = c->arg_index;
    out->width_bits = bits[swap];
    out->producer_unit = un[swap];
    out->producer_port = pn[swap];
    out->consumer_unit = un[!swap];
    out->consumer_port = pn[!swap];
    return AXL_SUCCESS;
}

axl_status axl_xclbin_port_stream(const axl_xclbin *x, uint32_t ip_index,
                                  uint32_t arg_id, uint32_t *stream_index)
{
    if (!usable(x))
        return AXL_ERR_INVALID;
    /* A port's stream is the bank its CONNECTIVITY entry names. */
    uint32_t n = 0;
    for (uint32_t m = 0; m < x->mem_count; m++) {
        axl_xclbin_mem mem;
        axl_xclbin_connection a, b;
        if (axl_xclbin_get_mem(x, m, &mem) != AXL_SUCCESS ||
            mem.type != AXL_XCLBIN_MEM_STREAMING_CONNECTION ||
            stream_ends(x, m, &a, &b) != 2)
            continue;
        if ((a.ip_index == ip_index && a.arg_index == arg_id) ||
            (b.ip_index == ip_index && b.arg_index == arg_id)) {
            if (stream_index)
                *stream_index = n;
            return AXL_SUCCESS;
        }
        n++;
    }
    return AXL_ERR_INVALID;
}

const char *axl_xclbin_control_name(uint32_t control)
{
    static const char *const names[] = {"ap_ctrl_hs", "ap_ctrl_chain",
                                        "ap_ctrl_none", "ap_ctrl_me",
                                        "accel_adapter"};
    return control < sizeof names / sizeof names[0] ? names[control]
                                                    : "unknown";
}
