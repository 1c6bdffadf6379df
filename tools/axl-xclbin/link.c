/*
 * axl-xclbin link (link.h): a v++ link config and HLS kernel.xml files to
 * an image. Host-only (stdio, malloc). The sections are written as the
 * JSON xclbinutil dumps and packed by the packer's own encoders
 * (axl_pack_image), so a linked image and a packed one cannot differ in
 * how a section is laid out.
 */
#include "link.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pack.h"
#include "text.h"
#include "platform.h"

#define MAX_KERNELS 64
#define MAX_CUS 128   /* compute units of one image */
#define MAX_ARGS 64   /* arguments of one kernel */
#define MAX_PORTS 32
#define MAX_BANKS 64  /* banks and streams: MEM_TOPOLOGY entries */
#define MAX_STREAMS 64
#define MAX_DEPTH 65536u /* beats of a stream_connect FIFO */
#define NAME_MAX_ 64  /* a kernel, unit or argument name, with its NUL */

/* axl's own platform, when no preset is named (v++ would read the .xpfm):
 * DDR4 banks tagged bank0..bankN-1 of 256 MiB from 0x4000000000, as the
 * stock images have, and the compute units' control windows from
 * 0x1800000. A preset (platform.h) gives its own banks and window. */
#define BANK_BASE 0x4000000000ull
#define BANK_STRIDE 0x10000000ull
#define BANK_KIB 0x40000ull
#define CU_BASE 0x1800000ull
#define CU_STRIDE 0x10000ull
#define DEFAULT_HZ 300000000ull
#define KERNEL_CLK_MHZ 500u
#define TAG_MAX 16    /* m_tag of MEM_TOPOLOGY, with its NUL */

typedef struct karg {
    char name[NAME_MAX_];
    unsigned id;
    unsigned qualifier;   /* addressQualifier: 1 memory, 0 scalar, 4 stream */
    char port[NAME_MAX_]; /* the port it names */
    int dir;              /* a stream's: 1 read_only (in), 2 write_only (out) */
    unsigned bits;        /* a stream's TDATA width; 0 not given */
    char *raw;            /* the <arg .../> element as written */
} karg;

typedef struct kport {
    char name[NAME_MAX_];
    char mode[16];
    unsigned bits;
} kport;

typedef struct kernel {
    char name[NAME_MAX_];
    char *attrs;          /* the <kernel ...> attributes as written */
    char control[24];     /* AP_CTRL_HS, AP_CTRL_CHAIN, AP_CTRL_NONE */
    char slave[NAME_MAX_];/* the control port (addrRemap) */
    char *ports[MAX_PORTS];
    kport port[MAX_PORTS];
    unsigned nports;
    karg args[MAX_ARGS];
    unsigned nargs;
    int nk_seen;
    const char *file;
} kernel;

typedef struct cu {
    char name[NAME_MAX_];
    unsigned kernel;
    uint64_t banks[MAX_ARGS]; /* per argument (by position in args[]) */
    unsigned stream[MAX_ARGS];/* per argument: 1 + its stream, 0 none */
} cu;

/* stream_connect=<cu>.<port>:<cu>.<port>[:<depth>]; units by name, so
 * that sorting them for IP_LAYOUT changes nothing here. */
typedef struct kstream {
    char from[NAME_MAX_], to[NAME_MAX_];
    unsigned from_arg, to_arg; /* positions in the kernels' args[] */
    unsigned depth;            /* 0: none given */
} kstream;

typedef struct bank {
    char tag[TAG_MAX];
    const char *type;     /* MEM_DDR4, ... */
    uint64_t base, size_kb;
} bank;

typedef struct link {
    kernel k[MAX_KERNELS];
    unsigned nk;
    cu c[MAX_CUS];
    unsigned nc;
    bank bank[MAX_BANKS];
    unsigned banks;
    kstream s[MAX_STREAMS];
    unsigned ns;
    unsigned default_bank;
    uint64_t cu_base;
    const axl_platform *preset; /* NULL: axl's own platform */
    const axl_platform_slot *slot; /* the slot of a partial; NULL: flat */
    uint64_t hz;          /* the kernel clock; 0: none given yet */
    char platform[64];
    uint64_t h1, h2;      /* hashes of the inputs, for the UUID */
    char *err;
    size_t err_size;
} link;

static int fail(link *l, const char *file, unsigned line, const char *fmt,
                ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int fail(link *l, const char *file, unsigned line, const char *fmt,
                ...)
{
    int k = line ? snprintf(l->err, l->err_size, "%s:%u: ", file, line)
                 : snprintf(l->err, l->err_size, "%s: ", file);
    if (k >= 0 && (size_t)k < l->err_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(l->err + k, l->err_size - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static void hash(link *l, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        l->h1 = (l->h1 ^ b[i]) * 0x100000001b3ull;
        l->h2 = (l->h2 ^ b[i]) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
    }
}

/* ---- kernel.xml ---------------------------------------------------- */

/* One tag of an XML text: <name attrs> or <name attrs/> or </name>.
 * Comments, declarations and processing instructions are skipped. */
typedef struct xtag {
    const char *name, *attrs, *start;
    size_t nlen, alen, len;
    int closing;
} xtag;

static int next_tag(const char **pp, const char *end, xtag *t)
{
    const char *p = *pp;
    for (;;) {
        while (p < end && *p != '<')
            p++;
        if (p >= end)
            return 0;
        if (end - p >= 4 && memcmp(p, "<!--", 4) == 0) {
            const char *q = p + 4;
            while (q + 3 <= end && memcmp(q, "-->", 3) != 0)
                q++;
            if (q + 3 > end)
                return -1;
            p = q + 3;
            continue;
        }
        const char *q = p + 1;
        char quote = 0;
        while (q < end && (quote || *q != '>')) {
            if (quote && *q == quote)
                quote = 0;
            else if (!quote && (*q == '"' || *q == '\''))
                quote = *q;
            q++;
        }
        if (q >= end)
            return -1;
        if (p[1] == '?' || p[1] == '!') {
            p = q + 1;
            continue;
        }
        t->start = p;
        t->len = (size_t)(q + 1 - p);
        t->closing = p[1] == '/';
        const char *n = p + 1 + t->closing;
        t->name = n;
        while (n < q && !isspace((unsigned char)*n) && *n != '/')
            n++;
        t->nlen = (size_t)(n - t->name);
        t->attrs = n;
        const char *ae = q;
        if (ae > n && ae[-1] == '/')
            ae--;
        t->alen = (size_t)(ae - n);
        *pp = q + 1;
        return 1;
    }
}

static int is_tag(const xtag *t, const char *name)
{
    return t->nlen == strlen(name) && memcmp(t->name, name, t->nlen) == 0;
}

/* The value of attribute key (entities left as written); 1 found, 0 not,
 * -1 longer than out. */
static int attr(const xtag *t, const char *key, char *out, size_t out_size)
{
    const char *p = t->attrs, *end = t->attrs + t->alen;
    size_t kl = strlen(key);
    while (p < end) {
        while (p < end && isspace((unsigned char)*p))
            p++;
        const char *k = p;
        while (p < end && *p != '=' && !isspace((unsigned char)*p))
            p++;
        size_t klen = (size_t)(p - k);
        while (p < end && isspace((unsigned char)*p))
            p++;
        if (p >= end || *p != '=')
            return 0;
        p++;
        while (p < end && isspace((unsigned char)*p))
            p++;
        if (p >= end || (*p != '"' && *p != '\''))
            return 0;
        char q = *p++;
        const char *v = p;
        while (p < end && *p != q)
            p++;
        if (p >= end)
            return 0;
        if (klen == kl && memcmp(k, key, kl) == 0) {
            size_t vl = (size_t)(p - v);
            if (vl + 1 > out_size)
                return -1;
            memcpy(out, v, vl);
            out[vl] = '\0';
            return 1;
        }
        p++;
    }
    return 0;
}

static int parse_uint(const char *s, unsigned long long max,
                      unsigned long long *out)
{
    char *e;
    if (!*s || *s == '-' || isspace((unsigned char)*s))
        return -1;
    unsigned long long v = strtoull(s, &e, 0);
    if (*e || v > max)
        return -1;
    *out = v;
    return 0;
}

/* Each stream argument's direction and width, from the <port> it names
 * (mode read_only: the kernel reads the stream; write_only: it writes). */
static int stream_ports(link *l, const char *file)
{
    for (unsigned i = 0; i < l->nk; i++) {
        kernel *k = &l->k[i];
        if (k->file != file)
            continue;
        for (unsigned a = 0; a < k->nargs; a++) {
            karg *g = &k->args[a];
            if (g->qualifier != 4)
                continue;
            const kport *p = NULL;
            for (unsigned q = 0; q < k->nports && !p; q++)
                if (strcasecmp(k->port[q].name, g->port) == 0)
                    p = &k->port[q];
            if (!p || (strcmp(p->mode, "read_only") != 0 &&
                       strcmp(p->mode, "write_only") != 0))
                return fail(l, file, 0, "kernel %s: stream argument %s "
                            "names port \"%s\", which is no <port> of mode "
                            "read_only or write_only", k->name, g->name,
                            g->port);
            g->dir = strcmp(p->mode, "read_only") == 0 ? 1 : 2;
            g->bits = p->bits;
        }
    }
    return 0;
}

static int read_kernel_xml(link *l, const char *file)
{
    unsigned char *data;
    size_t size;
    if (axl_read_file(file, &data, &size))
        return fail(l, file, 0, "cannot read the file");
    hash(l, data, size);
    const char *p = (const char *)data, *end = p + size;
    xtag t;
    int r, found = 0;
    kernel *k = NULL;
    while ((r = next_tag(&p, end, &t)) == 1) {
        if (is_tag(&t, "kernel") && !t.closing) {
            if (l->nk == MAX_KERNELS) {
                free(data);
                return fail(l, file, 0, "more than %d kernels", MAX_KERNELS);
            }
            k = &l->k[l->nk++];
            memset(k, 0, sizeof *k);
            k->file = file;
            found = 1;
            char proto[32] = "ap_ctrl_hs";
            if (attr(&t, "name", k->name, sizeof k->name) != 1 ||
                !k->name[0] || attr(&t, "hwControlProtocol", proto,
                                    sizeof proto) < 0) {
                free(data);
                return fail(l, file, 0, "a <kernel> without a name (of at "
                            "most %d characters)", NAME_MAX_ - 1);
            }
            for (unsigned i = 0; i + 1 < l->nk; i++)
                if (strcmp(l->k[i].name, k->name) == 0) {
                    free(data);
                    return fail(l, file, 0, "kernel %s is given twice "
                                "(also in %s)", k->name, l->k[i].file);
                }
            if (strcmp(proto, "ap_ctrl_chain") == 0)
                strcpy(k->control, "AP_CTRL_CHAIN");
            else if (strcmp(proto, "ap_ctrl_hs") == 0)
                strcpy(k->control, "AP_CTRL_HS");
            else if (strcmp(proto, "ap_ctrl_none") == 0)
                strcpy(k->control, "AP_CTRL_NONE");
            else {
                free(data);
                return fail(l, file, 0, "kernel %s: hwControlProtocol "
                            "\"%s\" is none of ap_ctrl_hs, ap_ctrl_chain, "
                            "ap_ctrl_none", k->name, proto);
            }
            strcpy(k->slave, "S_AXI_CONTROL");
            k->attrs = text_dup_n(t.attrs, t.alen);
        } else if (is_tag(&t, "kernel") && t.closing) {
            k = NULL;
        } else if (k && is_tag(&t, "port") && !t.closing) {
            char mode[16];
            if (k->nports == MAX_PORTS) {
                free(data);
                return fail(l, file, 0, "kernel %s: more than %d ports",
                            k->name, MAX_PORTS);
            }
            kport *kp = &k->port[k->nports];
            char w[24];
            unsigned long long bits = 0;
            if (attr(&t, "mode", mode, sizeof mode) != 1)
                mode[0] = '\0';
            if (mode[0] && strcmp(mode, "slave") == 0 &&
                attr(&t, "name", k->slave, sizeof k->slave) != 1)
                strcpy(k->slave, "S_AXI_CONTROL");
            if (attr(&t, "name", kp->name, sizeof kp->name) != 1)
                kp->name[0] = '\0';
            strcpy(kp->mode, mode);
            if (attr(&t, "dataWidth", w, sizeof w) == 1 &&
                parse_uint(w, 1u << 20, &bits) == 0)
                kp->bits = (unsigned)bits;
            k->ports[k->nports++] = text_dup_n(t.start, t.len);
        } else if (k && is_tag(&t, "arg") && !t.closing) {
            if (k->nargs == MAX_ARGS) {
                free(data);
                return fail(l, file, 0, "kernel %s: more than %d arguments",
                            k->name, MAX_ARGS);
            }
            karg *a = &k->args[k->nargs];
            char v[32];
            unsigned long long id, q;
            if (attr(&t, "name", a->name, sizeof a->name) != 1 ||
                attr(&t, "id", v, sizeof v) != 1 ||
                parse_uint(v, MAX_ARGS - 1, &id) ||
                attr(&t, "addressQualifier", v, sizeof v) != 1 ||
                parse_uint(v, 4, &q)) {
                free(data);
                return fail(l, file, 0, "kernel %s: argument %u needs a "
                            "name, an id below %d and an addressQualifier "
                            "0..4", k->name, k->nargs, MAX_ARGS);
            }
            for (unsigned i = 0; i < k->nargs; i++)
                if (k->args[i].id == id || strcmp(k->args[i].name,
                                                  a->name) == 0) {
                    free(data);
                    return fail(l, file, 0, "kernel %s: two arguments "
                                "with id %llu or name %s", k->name, id,
                                a->name);
                }
            a->id = (unsigned)id;
            a->qualifier = (unsigned)q;
            if (attr(&t, "port", a->port, sizeof a->port) != 1)
                a->port[0] = '\0';
            a->raw = text_dup_n(t.start, t.len);
            k->nargs++;
        }
    }
    free(data);
    if (r < 0)
        return fail(l, file, 0, "the XML ends inside a tag or comment");
    if (!found)
        return fail(l, file, 0, "no <kernel> element (give the kernel.xml "
                    "of an HLS kernel, as in its .xo)");
    return stream_ports(l, file);
}

/* ---- the v++ config ------------------------------------------------ */

static kernel *kernel_named(link *l, const char *name)
{
    for (unsigned i = 0; i < l->nk; i++)
        if (strcmp(l->k[i].name, name) == 0)
            return &l->k[i];
    return NULL;
}

static cu *cu_named(link *l, const char *name)
{
    for (unsigned i = 0; i < l->nc; i++)
        if (strcmp(l->c[i].name, name) == 0)
            return &l->c[i];
    return NULL;
}

static int add_cu(link *l, const char *file, unsigned line, unsigned kernel,
                  const char *name)
{
    if (!*name || strlen(name) >= NAME_MAX_)
        return fail(l, file, line, "a compute unit name must have 1..%d "
                    "characters", NAME_MAX_ - 1);
    if (cu_named(l, name))
        return fail(l, file, line, "compute unit %s is named twice", name);
    if (l->nc == MAX_CUS)
        return fail(l, file, line, "more than %d compute units", MAX_CUS);
    cu *c = &l->c[l->nc++];
    memset(c, 0, sizeof *c);
    strcpy(c->name, name);
    c->kernel = kernel;
    return 0;
}

/* nk=<kernel>:<count>[:<name>.<name>...] */
static int do_nk(link *l, const char *file, unsigned line, char *v)
{
    char *c1 = strchr(v, ':');
    if (!c1)
        return fail(l, file, line, "nk=%s: expected <kernel>:<count>"
                    "[:<cu>.<cu>...]", v);
    *c1 = '\0';
    char *count = c1 + 1, *names = strchr(count, ':');
    if (names)
        *names++ = '\0';
    kernel *k = kernel_named(l, text_trim(v));
    if (!k)
        return fail(l, file, line, "nk= names kernel %s, which no kernel "
                    "file gives", v);
    if (k->nk_seen)
        return fail(l, file, line, "nk= for kernel %s is given twice",
                    k->name);
    unsigned long long n;
    if (parse_uint(text_trim(count), MAX_CUS, &n) || n == 0)
        return fail(l, file, line, "nk=%s: the count \"%s\" is not 1..%d",
                    k->name, count, MAX_CUS);
    k->nk_seen = 1;
    unsigned ki = (unsigned)(k - l->k);
    for (unsigned long long i = 0; i < n; i++) {
        char name[NAME_MAX_ * 2];
        if (names) {
            char *dot = strchr(names, '.');
            if (dot)
                *dot = '\0';
            else if (i + 1 < n)
                return fail(l, file, line, "nk=%s:%llu names fewer than "
                            "%llu units", k->name, n, n);
            snprintf(name, sizeof name, "%s", text_trim(names));
            names = dot ? dot + 1 : NULL;
        } else {
            snprintf(name, sizeof name, "%s_%llu", k->name, i + 1);
        }
        if (add_cu(l, file, line, ki, name))
            return -1;
    }
    if (names)
        return fail(l, file, line, "nk=%s:%llu names more than %llu units",
                    k->name, n, n);
    return 0;
}

/* A decimal number at *p (digits only), moving *p past it. */
static int digits(const char **p, unsigned long long *out)
{
    if (!isdigit((unsigned char)**p))
        return -1;
    unsigned long long v = 0;
    while (isdigit((unsigned char)**p)) {
        if (v > 100000)
            return -1;
        v = v * 10 + (unsigned)(*(*p)++ - '0');
    }
    *out = v;
    return 0;
}

static int bank_named(const link *l, const char *tag)
{
    for (unsigned b = 0; b < l->banks; b++)
        if (strcmp(l->bank[b].tag, tag) == 0)
            return (int)b;
    return -1;
}

/* Bank i of a family: FAMILY[i], or for DDR on a platform that tags its
 * DDR banks bank<i> (v++ maps DDR[i] there, as on axl's own platform). */
static int bank_of(const link *l, const char *family, unsigned long long i)
{
    char tag[TAG_MAX + 24];
    snprintf(tag, sizeof tag, "%s[%llu]", family, i);
    int b = bank_named(l, tag);
    if (b < 0 && strcmp(family, "DDR") == 0) {
        snprintf(tag, sizeof tag, "bank%llu", i);
        b = bank_named(l, tag);
    }
    return b;
}

/* A memory of the platform as a bit set, by the names v++ takes after
 * sp=: a bank's tag (DDR[0], PLRAM[1], HBM[3], HOST[0], bank2, HP0),
 * FAMILY[i:j] for the banks i..j of a family (HBM[0:3], DDR[0:1]), and
 * bank<i> for DDR[i]. -1: not a memory name; -2: not on the platform. */
static int memory(const link *l, const char *s, uint64_t *set)
{
    int b = bank_named(l, s);
    if (b >= 0) {
        *set = 1ull << b;
        return 0;
    }
    const char *open = strchr(s, '[');
    const char *p;
    unsigned long long a, z;
    if (open && open > s && (size_t)(open - s) < TAG_MAX) {
        char family[TAG_MAX];
        memcpy(family, s, (size_t)(open - s));
        family[open - s] = '\0';
        for (const char *f = family; *f; f++)
            if (!isalpha((unsigned char)*f))
                return -1;
        p = open + 1;
        if (digits(&p, &a))
            return -1;
        z = a;
        if (*p == ':' && (p++, digits(&p, &z)))
            return -1;
        if (strcmp(p, "]") != 0)
            return -1;
        if (a > z)
            return -2;
        *set = 0;
        for (unsigned long long i = a; i <= z; i++) {
            if ((b = bank_of(l, family, i)) < 0)
                return -2;
            *set |= 1ull << b;
        }
        return 0;
    }
    if (strncmp(s, "bank", 4) == 0) {
        p = s + 4;
        if (digits(&p, &a) || *p)
            return -1;
        if ((b = bank_of(l, "DDR", a)) < 0)
            return -2;
        *set = 1ull << b;
        return 0;
    }
    return -1;
}

/* The platform's banks for a message: runs of one family as DDR[0:3]. */
static void bank_list(const link *l, char *out, size_t out_size)
{
    size_t k = 0;
    out[0] = '\0';
    for (unsigned b = 0; b < l->banks && k < out_size;) {
        const char *tag = l->bank[b].tag;
        const char *open = strchr(tag, '[');
        size_t fl = open ? (size_t)(open - tag) : 0;
        unsigned e = b;
        if (open && strtoul(open + 1, NULL, 10) == 0)
            while (e + 1 < l->banks &&
                   strncmp(l->bank[e + 1].tag, tag, fl + 1) == 0 &&
                   strtoul(l->bank[e + 1].tag + fl + 1, NULL, 10) == e + 1 - b)
                e++;
        int r = e > b ? snprintf(out + k, out_size - k, "%s%.*s[0:%u]",
                                 k ? " " : "", (int)fl, tag, e - b)
                      : snprintf(out + k, out_size - k, "%s%s", k ? " " : "",
                                 tag);
        if (r < 0)
            break;
        k += (size_t)r;
        b = e + 1;
    }
}

/* sp=<cu>.<arg>:<memory> */
static int do_sp(link *l, const char *file, unsigned line, char *v)
{
    char *colon = strchr(v, ':');
    char *dot = colon ? memchr(v, '.', (size_t)(colon - v)) : NULL;
    if (!colon || !dot)
        return fail(l, file, line, "sp=%s: expected <cu>.<argument>:"
                    "<memory>", v);
    *colon = '\0';
    /* the last dot before the colon ends the unit's name */
    for (char *d = dot; d; d = strchr(d + 1, '.'))
        dot = d;
    *dot = '\0';
    const char *cname = text_trim(v), *aname = text_trim(dot + 1),
               *mem = text_trim(colon + 1);
    cu *c = cu_named(l, cname);
    if (!c)
        return fail(l, file, line, "sp= names compute unit %s, which no "
                    "nk= makes (units without nk= are <kernel>_1)", cname);
    kernel *k = &l->k[c->kernel];
    unsigned ai;
    for (ai = 0; ai < k->nargs; ai++)
        if (strcmp(k->args[ai].name, aname) == 0)
            break;
    if (ai == k->nargs)
        return fail(l, file, line, "sp=: kernel %s has no argument %s",
                    k->name, aname);
    if (k->args[ai].qualifier != 1)
        return fail(l, file, line, "sp=: argument %s of %s is not a "
                    "memory argument (addressQualifier %u)", aname, k->name,
                    k->args[ai].qualifier);
    uint64_t set;
    int r = memory(l, mem, &set);
    if (r < 0) {
        char have[512];
        bank_list(l, have, sizeof have);
        if (r == -1)
            return fail(l, file, line, "sp=: \"%s\" is not a memory name "
                        "(a bank's tag, FAMILY[i:j] or bank<i>); platform %s "
                        "has %s", mem, l->platform, have);
        return fail(l, file, line, "sp=: memory \"%s\" is not on platform "
                    "%s, which has %s%s", mem, l->platform, have,
                    l->preset ? "" : " (--banks N for more DDR banks)");
    }
    if (c->banks[ai])
        return fail(l, file, line, "sp=: %s.%s is connected twice", cname,
                    aname);
    c->banks[ai] = set;
    return 0;
}

/* One end of a stream_connect: <cu>.<port> (the port is the kernel's
 * argument of that name, or the argument on the port of that name). */
static int stream_end(link *l, const char *file, unsigned line, char *v,
                      cu **c_out, unsigned *arg)
{
    char *dot = strrchr(v, '.');
    if (!dot)
        return fail(l, file, line, "stream_connect: \"%s\" is not "
                    "<cu>.<port>", v);
    *dot = '\0';
    const char *cname = text_trim(v), *pname = text_trim(dot + 1);
    cu *c = cu_named(l, cname);
    if (!c)
        return fail(l, file, line, "stream_connect names compute unit %s, "
                    "which no nk= makes (units without nk= are "
                    "<kernel>_1)", cname);
    const kernel *k = &l->k[c->kernel];
    unsigned ai;
    for (ai = 0; ai < k->nargs; ai++)
        if (strcmp(k->args[ai].name, pname) == 0 ||
            (k->args[ai].qualifier == 4 &&
             strcasecmp(k->args[ai].port, pname) == 0))
            break;
    if (ai == k->nargs)
        return fail(l, file, line, "stream_connect: kernel %s (unit %s) has "
                    "no port %s", k->name, cname, pname);
    if (k->args[ai].qualifier != 4)
        return fail(l, file, line, "stream_connect: %s.%s is not a stream "
                    "(addressQualifier %u; streams are 4)", cname, pname,
                    k->args[ai].qualifier);
    if (c->stream[ai])
        return fail(l, file, line, "stream_connect: %s.%s is connected "
                    "twice (a stream has one producer and one consumer)",
                    cname, pname);
    *c_out = c;
    *arg = ai;
    return 0;
}

/* stream_connect=<cu>.<out port>:<cu>.<in port>[:<FIFO depth>] (sc= is
 * its short form): the producer's write_only port to the consumer's
 * read_only one, with a FIFO of that many beats between them. */
static int do_sc(link *l, const char *file, unsigned line, char *v)
{
    char *c1 = strchr(v, ':');
    char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1)
        return fail(l, file, line, "stream_connect=%s: expected <cu>.<port>:"
                    "<cu>.<port>[:<depth>]", v);
    *c1 = '\0';
    if (c2)
        *c2 = '\0';
    unsigned long long depth = 0;
    if (c2 && (parse_uint(text_trim(c2 + 1), MAX_DEPTH, &depth) || depth < 2))
        return fail(l, file, line, "stream_connect: FIFO depth \"%s\" is not "
                    "2..%u beats", text_trim(c2 + 1), MAX_DEPTH);
    if (l->ns == MAX_STREAMS || l->banks + l->ns >= MAX_BANKS)
        return fail(l, file, line, "stream_connect: more than %u banks and "
                    "streams in one design", MAX_BANKS);
    cu *p, *c;
    unsigned pa, ca;
    if (stream_end(l, file, line, v, &p, &pa) ||
        stream_end(l, file, line, c1 + 1, &c, &ca))
        return -1;
    const karg *out = &l->k[p->kernel].args[pa],
               *in = &l->k[c->kernel].args[ca];
    if (p == c)
        return fail(l, file, line, "stream_connect: %s drives itself (%s to "
                    "%s); v++ refuses that too", p->name, out->name,
                    in->name);
    if (out->dir != 2)
        return fail(l, file, line, "stream_connect: %s.%s is an input "
                    "(read_only) stream; the first end is the producer's "
                    "output", p->name, out->name);
    if (in->dir != 1)
        return fail(l, file, line, "stream_connect: %s.%s is an output "
                    "(write_only) stream; the second end is the consumer's "
                    "input", c->name, in->name);
    if (out->bits && in->bits && out->bits != in->bits)
        return fail(l, file, line, "stream_connect: %s.%s is %u bits wide, "
                    "%s.%s %u; axl puts no width converter between them",
                    p->name, out->name, out->bits, c->name, in->name,
                    in->bits);
    kstream *s = &l->s[l->ns++];
    strcpy(s->from, p->name);
    strcpy(s->to, c->name);
    s->from_arg = pa;
    s->to_arg = ca;
    s->depth = (unsigned)depth;
    p->stream[pa] = c->stream[ca] = l->ns;
    return 0;
}

/* slr=<cu>:SLR<n>: placement only; nothing of it reaches these sections. */
static int do_slr(link *l, const char *file, unsigned line, char *v)
{
    char *colon = strchr(v, ':');
    if (!colon)
        return fail(l, file, line, "slr=%s: expected <cu>:SLR<n>", v);
    *colon = '\0';
    unsigned long long n;
    const char *slr = text_trim(colon + 1);
    if (!cu_named(l, text_trim(v)))
        return fail(l, file, line, "slr= names compute unit %s, which no "
                    "nk= makes", text_trim(v));
    if (strncmp(slr, "SLR", 3) != 0 || parse_uint(slr + 3, 15, &n))
        return fail(l, file, line, "slr=: \"%s\" is not SLR0..SLR15", slr);
    return 0;
}

/* The kernel clock in Hz. CLOCK_FREQ_TOPOLOGY holds whole MHz (uint16_t
 * m_freq_Mhz in XRT's xclbin.h): 333.33 MHz is written 333 there, as
 * XRT itself reads the XML's "333.330000MHz" (std::stoul, which stops at
 * the point); the XML's kernelClocks keep the exact value. */
static int set_hz(link *l, const char *file, unsigned line,
                  unsigned long long hz)
{
    if (hz < 1000000 || hz >= 65536000000ull)
        return fail(l, file, line, "a clock of %llu Hz is outside 1 MHz.."
                    "65535 MHz", hz);
    if (l->hz && l->hz != hz)
        return fail(l, file, line, "a second kernel clock (%llu Hz, after "
                    "%llu Hz): axl's images have one kernel clock", hz,
                    (unsigned long long)l->hz);
    l->hz = hz;
    return 0;
}

/* A decimal number of MHz ("300", "333.33", up to 6 decimals) in Hz. */
static int parse_mhz(const char *s, unsigned long long *hz)
{
    const char *p = s;
    unsigned long long whole, frac = 0, scale = 1000000;
    if (digits(&p, &whole))
        return -1;
    if (*p == '.') {
        p++;
        if (!isdigit((unsigned char)*p))
            return -1;
        while (isdigit((unsigned char)*p)) {
            if (scale == 1)
                return -1;
            scale /= 10;
            frac += (unsigned long long)(*p++ - '0') * scale;
        }
    }
    if (*p)
        return -1;
    *hz = whole * 1000000ull + frac;
    return 0;
}

/* [clock] freqHz=<hz>:<cu>[,<cu>...] or defaultFreqHz=<hz>. */
static int do_clock(link *l, const char *file, unsigned line,
                    const char *key, char *v)
{
    unsigned long long hz;
    char *colon = strchr(v, ':');
    if (strcmp(key, "defaultFreqHz") == 0) {
        if (parse_uint(text_trim(v), UINT64_MAX, &hz))
            return fail(l, file, line, "defaultFreqHz=%s is not a number "
                        "of Hz", v);
        return set_hz(l, file, line, hz);
    }
    if (strcmp(key, "freqHz") != 0)
        return fail(l, file, line, "[clock] %s= is not supported (freqHz= "
                    "and defaultFreqHz= are)", key);
    if (!colon)
        return fail(l, file, line, "freqHz=%s: expected <hz>:<cu>", v);
    *colon = '\0';
    if (parse_uint(text_trim(v), UINT64_MAX, &hz))
        return fail(l, file, line, "freqHz=%s is not a number of Hz", v);
    for (char *u = strtok(colon + 1, ","); u; u = strtok(NULL, ",")) {
        char *pin = strchr(u, '.'); /* <cu>.<clock pin> */
        if (pin)
            *pin = '\0';
        if (!cu_named(l, text_trim(u)))
            return fail(l, file, line, "freqHz= names compute unit %s, "
                        "which no nk= makes", text_trim(u));
    }
    return set_hz(l, file, line, hz);
}

/* Pass 0 reads nk= (units must exist before sp=, slr= and freqHz= name
 * them, wherever those lines are); pass 1 the rest. */
static int read_config(link *l, const char *file, const char *body,
                       int pass)
{
    char *copy = text_dup_n(body, strlen(body));
    if (!copy)
        return fail(l, file, 0, "out of memory");
    char section[32] = "";
    unsigned line = 0;
    int r = 0;
    for (char *s = copy, *nl; r == 0 && s; s = nl) {
        nl = strchr(s, '\n');
        if (nl)
            *nl++ = '\0';
        line++;
        char *t = text_trim(s);
        if (!*t || *t == '#')
            continue;
        if (*t == '[') {
            char *e = strchr(t, ']');
            if (!e || e[1] || (size_t)(e - t) >= sizeof section) {
                r = fail(l, file, line, "a section header is [name]");
                break;
            }
            *e = '\0';
            strcpy(section, text_trim(t + 1));
            continue;
        }
        char *eq = strchr(t, '=');
        if (!eq) {
            r = fail(l, file, line, "expected key=value");
            break;
        }
        *eq = '\0';
        char *key = text_trim(t), *v = text_trim(eq + 1);
        if (strcmp(section, "connectivity") == 0) {
            if (strcmp(key, "nk") == 0)
                r = pass == 0 ? do_nk(l, file, line, v) : 0;
            else if (pass == 0)
                continue;
            else if (strcmp(key, "sp") == 0)
                r = do_sp(l, file, line, v);
            else if (strcmp(key, "slr") == 0)
                r = do_slr(l, file, line, v);
            else if (strcmp(key, "stream_connect") == 0 ||
                     strcmp(key, "sc") == 0)
                r = do_sc(l, file, line, v);
            else if (strcmp(key, "connect") == 0)
                r = fail(l, file, line, "connect= is not supported; join "
                         "two kernels' streams with stream_connect=<cu>."
                         "<port>:<cu>.<port>[:<depth>]");
            else
                r = fail(l, file, line, "[connectivity] %s= is not "
                         "supported (nk=, sp=, slr= and stream_connect= "
                         "are)", key);
        } else if (!section[0] && strcmp(key, "platform") == 0) {
            /* In pass 0: sp= needs the platform's banks. The command
             * line's --platform wins. */
            if (pass == 0 && !l->platform[0])
                axl_platform_basename(v, l->platform, sizeof l->platform);
        } else if (pass == 0) {
            continue;
        } else if (strcmp(section, "clock") == 0) {
            r = do_clock(l, file, line, key, v);
        } else if (!section[0] && strcmp(key, "kernel_frequency") == 0) {
            /* "300", "333.33", or "0:300|1:500" (clock id 0 is the
             * kernel clock) */
            unsigned long long hz;
            char *sel = v, *bar = strchr(v, '|');
            if (bar)
                *bar = '\0';
            if (strncmp(sel, "0:", 2) == 0)
                sel += 2;
            if (parse_mhz(text_trim(sel), &hz))
                r = fail(l, file, line, "kernel_frequency=%s: expected MHz "
                         "(300, 333.33 or 0:300|1:500)", v);
            else
                r = set_hz(l, file, line, hz);
        }
        /* Other sections ([vivado], [advanced], [hls], ...) and other
         * top-level options do not change these sections. */
    }
    free(copy);
    return r;
}

/* ---- the sections -------------------------------------------------- */

static void mem_json(const link *l, text *t)
{
    uint64_t used = 0;
    for (unsigned i = 0; i < l->nc; i++)
        for (unsigned a = 0; a < MAX_ARGS; a++)
            used |= l->c[i].banks[a];
    text_put(t, "{\"mem_topology\": {\"m_count\": \"%u\", \"m_mem_data\": [",
        l->banks + l->ns);
    for (unsigned b = 0; b < l->banks; b++)
        text_put(t, "%s{\"m_type\": \"%s\", \"m_used\": \"%d\", "
            "\"m_sizeKB\": \"0x%llx\", \"m_tag\": \"%s\", "
            "\"m_base_address\": \"0x%llx\"}", b ? ", " : "",
            l->bank[b].type, (int)(used >> b & 1),
            (unsigned long long)l->bank[b].size_kb, l->bank[b].tag,
            (unsigned long long)l->bank[b].base);
    /* A stream is a MEM_STREAMING_CONNECTION entry, as v++ writes one,
     * with its FIFO depth in the word XRT calls route_id. */
    for (unsigned s = 0; s < l->ns; s++)
        text_put(t, "%s{\"m_type\": \"MEM_STREAMING_CONNECTION\", \"m_used\": "
            "\"1\", \"route_id\": \"%u\", \"m_tag\": \"stream%u\"}",
            l->banks + s ? ", " : "", l->s[s].depth, s);
    text_put(t, "]}}");
}

static void ip_json(const link *l, text *t)
{
    text_put(t, "{\"ip_layout\": {\"m_count\": \"%u\", \"m_ip_data\": [", l->nc);
    for (unsigned i = 0; i < l->nc; i++) {
        const kernel *k = &l->k[l->c[i].kernel];
        /* An ap_ctrl_none unit has no done, so no interrupt. */
        text_put(t, "%s{\"m_type\": \"IP_KERNEL\", \"m_int_enable\": \"%d\", "
            "\"m_interrupt_id\": \"%u\", \"m_ip_control\": \"%s\", "
            "\"m_base_address\": \"0x%llx\", \"m_name\": \"%s:%s\"}",
            i ? ", " : "", strcmp(k->control, "AP_CTRL_NONE") != 0, i,
            k->control,
            (unsigned long long)(l->cu_base + i * CU_STRIDE), k->name,
            l->c[i].name);
    }
    text_put(t, "]}}");
}

static void conn_json(const link *l, text *t)
{
    text body = {0};
    unsigned n = 0;
    for (unsigned i = 0; i < l->nc; i++) {
        const kernel *k = &l->k[l->c[i].kernel];
        for (unsigned id = 0; id < MAX_ARGS; id++)
            for (unsigned a = 0; a < k->nargs; a++) {
                if (k->args[a].id != id || k->args[a].qualifier != 1)
                    continue;
                for (unsigned b = 0; b < l->banks; b++)
                    if (l->c[i].banks[a] >> b & 1)
                        text_put(&body, "%s{\"arg_index\": \"%u\", "
                            "\"m_ip_layout_index\": \"%u\", "
                            "\"mem_data_index\": \"%u\"}", n++ ? ", " : "",
                            id, i, b);
            }
    }
    /* Each stream: the producer's end, then the consumer's. */
    for (unsigned s = 0; s < l->ns; s++)
        for (int end = 0; end < 2; end++) {
            const char *name = end ? l->s[s].to : l->s[s].from;
            unsigned ui = 0;
            while (ui < l->nc && strcmp(l->c[ui].name, name) != 0)
                ui++;
            const kernel *k = &l->k[l->c[ui].kernel];
            unsigned a = end ? l->s[s].to_arg : l->s[s].from_arg;
            text_put(&body, "%s{\"arg_index\": \"%u\", \"m_ip_layout_index\": "
                "\"%u\", \"mem_data_index\": \"%u\"}", n++ ? ", " : "",
                k->args[a].id, ui, l->banks + s);
        }
    text_put(t, "{\"connectivity\": {\"m_count\": \"%u\", \"m_connection\": [%s]}}",
        n, body.p ? body.p : "");
    t->bad |= body.bad;
    free(body.p);
}

static uint64_t clock_hz(const link *l)
{
    return l->hz ? l->hz : DEFAULT_HZ;
}

static void clock_json(const link *l, text *t)
{
    text_put(t, "{\"clock_freq_topology\": {\"m_count\": \"2\", \"m_clock_freq\": "
        "[{\"m_freq_Mhz\": \"%u\", \"m_type\": \"DATA\", \"m_name\": "
        "\"DATA_CLK\"}, {\"m_freq_Mhz\": \"%u\", \"m_type\": \"KERNEL\", "
        "\"m_name\": \"KERNEL_CLK\"}]}}",
        (unsigned)(clock_hz(l) / 1000000u), KERNEL_CLK_MHZ);
}

static void xml(const link *l, text *t)
{
    uint64_t hz = clock_hz(l);
    text_put(t, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<!-- written by axl-xclbin link -->\n"
        "<project name=\"%s\">\n"
        "  <platform vendor=\"%s\" boardid=\"%s\" name=\"%s\" "
        "featureRomTime=\"0\">\n"
        "    <version major=\"1\" minor=\"0\"/>\n"
        "    <device name=\"fpga0\" fpgaDevice=\"%s\" "
        "addrWidth=\"64\">\n"
        "      <core name=\"OCL_REGION_0\" target=\"hw\" type=\"clc_region\" "
        "clockFreq=\"%uMHz\" numComputeUnits=\"%u\">\n"
        "        <kernelClocks>\n"
        "          <clock port=\"DATA_CLK\" frequency=\"%u.%06uMHz\"/>\n"
        "          <clock port=\"KERNEL_CLK\" frequency=\"%u.000000MHz\"/>\n"
        "        </kernelClocks>\n",
        l->nk ? l->k[0].name : "axl", l->preset ? "xilinx" : "axl",
        l->preset ? l->preset->board : "emu", l->platform,
        l->preset ? l->preset->board : "emulated",
        (unsigned)(hz / 1000000u), l->nc, (unsigned)(hz / 1000000u),
        (unsigned)(hz % 1000000u), KERNEL_CLK_MHZ);
    for (unsigned i = 0; i < l->nk; i++) {
        const kernel *k = &l->k[i];
        text_put(t, "        <kernel%s>\n", k->attrs ? k->attrs : "");
        for (unsigned p = 0; p < k->nports; p++)
            text_put(t, "          %s\n", k->ports[p]);
        for (unsigned a = 0; a < k->nargs; a++)
            text_put(t, "          %s\n", k->args[a].raw);
        for (unsigned c = 0; c < l->nc; c++)
            if (l->c[c].kernel == i)
                text_put(t, "          <instance name=\"%s\">\n"
                    "            <addrRemap base=\"0x%llx\" range=\"0x%llx\" "
                    "port=\"%s\"/>\n          </instance>\n",
                    l->c[c].name,
                    (unsigned long long)(l->cu_base + c * CU_STRIDE),
                    (unsigned long long)CU_STRIDE, k->slave);
        text_put(t, "        </kernel>\n");
    }
    text_put(t, "      </core>\n    </device>\n  </platform>\n</project>\n");
}

static int parse_uuid(const char *s, unsigned char out[16])
{
    size_t k = 0;
    for (size_t i = 0; s[i] && k < 16; i++) {
        if (s[i] == '-')
            continue;
        unsigned v;
        if (!isxdigit((unsigned char)s[i]) ||
            !isxdigit((unsigned char)s[i + 1]) ||
            sscanf(s + i, "%2x", &v) != 1)
            return -1;
        out[k++] = (unsigned char)v;
        i++;
    }
    return k == 16 && strlen(s) == 36 ? 0 : -1;
}

static void free_link(link *l)
{
    for (unsigned i = 0; i < l->nk; i++) {
        free(l->k[i].attrs);
        for (unsigned p = 0; p < l->k[i].nports; p++)
            free(l->k[i].ports[p]);
        for (unsigned a = 0; a < l->k[i].nargs; a++)
            free(l->k[i].args[a].raw);
    }
    free(l);
}

/* The banks sp= names: a preset's (--platform, or the config's platform=
 * when it names one) or axl's own (--banks N). Runs after pass 0, which
 * reads platform=. */
/* "0 (RP_0), 1 (RP_1) and 2 (RP_2)", or with names 0 "0, 1 or all". */
static void slot_list(const axl_platform_shell *sh, int names, char *out,
                      size_t cap)
{
    size_t k = 0;
    out[0] = '\0';
    for (unsigned i = 0; i < sh->nslots && k < cap; i++) {
        const char *sep = i == 0 ? "" : i + 1 < sh->nslots ? ", "
                                       : names ? " and " : ", ";
        int r = names ? snprintf(out + k, cap - k, "%s%u (%s)", sep, i,
                                 sh->slots[i].name)
                      : snprintf(out + k, cap - k, "%s%u", sep, i);
        if (r < 0)
            return;
        k += (size_t)r;
    }
    if (!names && k < cap)
        snprintf(out + k, cap - k, " or all");
}

/* A DFX shell takes partials only, one per slot; a flat platform none.
 * A partial's units sit in its slot's control window, and the slot is
 * part of what the UUID is made from. */
static int setup_slot(link *l, const axl_link_options *o)
{
    const char *me = "axl-xclbin link";
    const axl_platform_shell *sh = l->preset ? l->preset->shell : NULL;
    char list[256];
    if (o->slot < 0) {
        if (!sh)
            return 0;
        slot_list(sh, 0, list, sizeof list);
        return fail(l, me, 0, "platform %s is a DFX shell: a design for it "
                    "is a partial for one of its slots (--slot %s)",
                    l->platform, list);
    }
    if (!sh) {
        axl_platform_shell_names(list, sizeof list);
        return fail(l, me, 0, "--slot %d: platform %s has no reconfigurable "
                    "slots (the shells: %s)", o->slot, l->platform, list);
    }
    if ((unsigned)o->slot >= sh->nslots) {
        slot_list(sh, 1, list, sizeof list);
        return fail(l, me, 0, "--slot %d: platform %s has slots %s", o->slot,
                    l->platform, list);
    }
    l->slot = &sh->slots[o->slot];
    unsigned slot = (unsigned)o->slot;
    hash(l, &slot, sizeof slot);
    return 0;
}

static int setup_platform(link *l, const axl_link_options *o)
{
    const char *me = "axl-xclbin link";
    if (l->platform[0])
        l->preset = axl_platform_find(l->platform);
    else
        strcpy(l->platform, "axl_emu");
    if (o->platform && !l->preset) {
        char known[1024];
        axl_platform_names(known, sizeof known);
        return fail(l, me, 0, "--platform %s: no preset of that name (the "
                    "presets: %s)", o->platform, known);
    }
    if (l->preset && o->banks)
        return fail(l, me, 0, "--banks %u describes axl's own platform; %s "
                    "has its own banks", o->banks, l->platform);
    if (setup_slot(l, o))
        return -1;
    if (!l->preset) {
        for (unsigned b = 0; b < l->banks; b++) {
            bank *k = &l->bank[b];
            snprintf(k->tag, sizeof k->tag, "bank%u", b);
            k->type = "MEM_DDR4";
            k->base = BANK_BASE + b * BANK_STRIDE;
            k->size_kb = BANK_KIB;
        }
        l->default_bank = 0;
        l->cu_base = CU_BASE;
        return 0;
    }
    const axl_platform *p = l->preset;
    l->banks = 0;
    for (unsigned m = 0; m < p->nmems; m++) {
        const axl_platform_mem *pm = &p->mems[m];
        for (unsigned i = 0; i < (pm->count ? pm->count : 1); i++) {
            if (l->banks == MAX_BANKS)
                return fail(l, me, 0, "platform %s: more than %d banks",
                            l->platform, MAX_BANKS);
            bank *k = &l->bank[l->banks++];
            if (pm->count)
                snprintf(k->tag, sizeof k->tag, "%s[%u]", pm->tag, i);
            else
                snprintf(k->tag, sizeof k->tag, "%s", pm->tag);
            k->type = pm->type;
            k->base = pm->base + i * pm->stride;
            k->size_kb = pm->size_kb;
        }
    }
    int d = bank_named(l, p->default_mem);
    l->default_bank = d < 0 ? 0 : (unsigned)d;
    l->cu_base = l->slot ? l->slot->ctrl_base : p->cu_base;
    hash(l, p->name, strlen(p->name));
    return 0;
}

int axl_link(const axl_link_options *o, unsigned char **out, size_t *out_size,
             char *err, size_t err_size)
{
    link *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, err_size, "axl-xclbin link: out of memory");
        return -1;
    }
    l->err = err;
    l->err_size = err_size;
    l->h1 = 0xcbf29ce484222325ull;
    l->h2 = 0x84222325cbf29ce4ull;
    l->banks = o->banks ? o->banks : 4;
    int r = 0;
    if (l->banks > MAX_BANKS)
        r = fail(l, "axl-xclbin link", 0, "--banks %u: at most %d",
                 l->banks, MAX_BANKS);
    if (o->platform)
        axl_platform_basename(o->platform, l->platform, sizeof l->platform);
    hash(l, &l->banks, sizeof l->banks);
    if (r == 0 && o->nkernels == 0)
        r = fail(l, "axl-xclbin link", 0, "no kernel.xml given");
    for (unsigned i = 0; r == 0 && i < o->nkernels; i++)
        r = read_kernel_xml(l, o->kernels[i]);
    unsigned char **cfg = calloc(o->nconfigs + 1, sizeof *cfg);
    for (unsigned i = 0; r == 0 && i < o->nconfigs; i++) {
        size_t size;
        if (!cfg || axl_read_file(o->configs[i], &cfg[i], &size))
            r = fail(l, o->configs[i], 0, "cannot read the file");
        else
            hash(l, cfg[i], size);
    }
    for (int pass = 0; pass < 2; pass++) {
        for (unsigned i = 0; r == 0 && i < o->nconfigs; i++)
            r = read_config(l, o->configs[i], (const char *)cfg[i], pass);
        if (r == 0 && pass == 0)
            r = setup_platform(l, o);
        /* A kernel no nk= names gets one unit, <kernel>_1, as in v++. */
        for (unsigned i = 0; r == 0 && pass == 0 && i < l->nk; i++)
            if (!l->k[i].nk_seen) {
                char name[NAME_MAX_ + 8];
                snprintf(name, sizeof name, "%s_1", l->k[i].name);
                r = add_cu(l, "axl-xclbin link", 0, i, name);
            }
    }
    for (unsigned i = 0; cfg && i < o->nconfigs; i++)
        free(cfg[i]);
    free(cfg);
    /* IP_LAYOUT lists units by kernel (kernel file order), then nk= order. */
    if (r == 0) {
        cu *sorted = malloc(sizeof(cu) * (l->nc ? l->nc : 1));
        unsigned n = 0;
        for (unsigned k = 0; sorted && k < l->nk; k++)
            for (unsigned i = 0; i < l->nc; i++)
                if (l->c[i].kernel == k)
                    sorted[n++] = l->c[i];
        if (!sorted)
            r = fail(l, "axl-xclbin link", 0, "out of memory");
        else
            memcpy(l->c, sorted, sizeof(cu) * n);
        free(sorted);
    }
    /* A partial's units fit its slot: control windows inside the slot's
     * aperture, interrupt ids (the IP_LAYOUT index) below its lines. */
    for (unsigned i = 0; r == 0 && l->slot && i < l->nc; i++) {
        const kernel *k = &l->k[l->c[i].kernel];
        if ((uint64_t)(i + 1) * CU_STRIDE > l->slot->ctrl_size)
            r = fail(l, "axl-xclbin link", 0, "slot %s of %s has a %llu KiB "
                     "control window: compute unit %s does not fit",
                     l->slot->name, l->platform,
                     (unsigned long long)(l->slot->ctrl_size >> 10),
                     l->c[i].name);
        else if (strcmp(k->control, "AP_CTRL_NONE") != 0 &&
                 i >= l->slot->irq_count)
            r = fail(l, "axl-xclbin link", 0, "slot %s of %s has %u "
                     "interrupt lines: compute unit %s would need line %u "
                     "(link at most %u units with interrupts per slot)",
                     l->slot->name, l->platform, l->slot->irq_count,
                     l->c[i].name, i, l->slot->irq_count);
    }
    /* Memory arguments with no sp=: the platform's default bank. A
     * stream port no stream_connect joins would be left undriven in the
     * fabric: refused, naming it. */
    for (unsigned i = 0; r == 0 && i < l->nc; i++) {
        const kernel *k = &l->k[l->c[i].kernel];
        for (unsigned a = 0; r == 0 && a < k->nargs; a++) {
            if (k->args[a].qualifier == 1 && !l->c[i].banks[a])
                l->c[i].banks[a] = 1ull << l->default_bank;
            if (k->args[a].qualifier == 4 && !l->c[i].stream[a])
                r = fail(l, k->file, 0, "compute unit %s: stream port %s "
                         "(%s, argument %u of kernel %s) is connected to "
                         "nothing; join it in the config with "
                         "stream_connect=%s%s.%s%s", l->c[i].name,
                         k->args[a].name,
                         k->args[a].dir == 1 ? "an input" : "an output",
                         k->args[a].id, k->name,
                         k->args[a].dir == 1 ? "<cu>.<port>:" : "",
                         l->c[i].name, k->args[a].name,
                         k->args[a].dir == 1 ? "" : ":<cu>.<port>");
        }
    }
    text mem = {0}, ip = {0}, conn = {0}, clk = {0}, meta = {0};
    if (r == 0) {
        mem_json(l, &mem);
        ip_json(l, &ip);
        conn_json(l, &conn);
        clock_json(l, &clk);
        xml(l, &meta);
        if (mem.bad || ip.bad || conn.bad || clk.bad || meta.bad)
            r = fail(l, "axl-xclbin link", 0, "out of memory");
    }
    if (r == 0) {
        axl_pack_input in = {"axl-xclbin link", {0}, l->platform, NULL, 0,
                             0, {0}};
        if (l->slot) {
            in.mode = 1; /* XCLBIN_PR */
            memcpy(in.interface_uuid, l->preset->shell->interface_uuid, 16);
        }
        if (o->uuid && o->all_slots) {
            r = fail(l, "axl-xclbin link", 0, "--uuid gives one UUID: with "
                     "--slot all each slot's image needs its own (link one "
                     "slot at a time)");
        } else if (o->uuid) {
            if (parse_uuid(o->uuid, in.uuid))
                r = fail(l, "axl-xclbin link", 0, "--uuid %s is not a UUID "
                         "like 01234567-89ab-cdef-0123-456789abcdef",
                         o->uuid);
        } else {
            for (int i = 0; i < 8; i++) {
                in.uuid[i] = (unsigned char)(l->h1 >> (8 * i));
                in.uuid[8 + i] = (unsigned char)(l->h2 >> (8 * i));
            }
            in.uuid[6] = (unsigned char)((in.uuid[6] & 0x0F) | 0x80);
            in.uuid[8] = (unsigned char)((in.uuid[8] & 0x3F) | 0x80);
        }
        axl_pack_section s[5] = {
            {"MEM_TOPOLOGY", "mem_topology", 1, mem.p, mem.len},
            {"IP_LAYOUT", "ip_layout", 1, ip.p, ip.len},
            {"CONNECTIVITY", "connectivity", 1, conn.p, conn.len},
            {"CLOCK_FREQ_TOPOLOGY", "clock_freq_topo", 1, clk.p, clk.len},
            {"EMBEDDED_METADATA", "metadata", 0, meta.p, meta.len}};
        in.sections = s;
        in.count = 5;
        if (r == 0)
            r = axl_pack_image(&in, out, out_size, err, err_size);
    }
    free(mem.p);
    free(ip.p);
    free(conn.p);
    free(clk.p);
    free(meta.p);
    if (o->nslots)
        *o->nslots = l->preset && l->preset->shell
                         ? l->preset->shell->nslots : 0;
    free_link(l);
    return r;
}
