/*
 * axl-xclbin kernel-xml (kernel_xml.h): the kernel.xml of an HLS kernel
 * from its source. Host-only (stdio, malloc).
 *
 * What it reads of C++ is what a kernel's interface needs, nothing more:
 * comments, line continuations, #include "..." (once each), object-like
 * #define and -D, typedef/using aliases, the top function's definition and
 * the #pragma lines inside its body. It does not evaluate #if: both
 * branches are read (a top defined twice is refused, saying so).
 */
#define _POSIX_C_SOURCE 200809L /* strcasecmp */

#include "kernel_xml.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pack.h"
#include "text.h"

#define MAX_PARAMS 64
#define NAME_MAX_ 64
#define TYPE_MAX 160
#define MAX_DEPTH 16      /* #include nesting, alias chains */
#define FIRST_OFFSET 0x10 /* after ap_ctrl, GIE, IER, ISR */
#define EXPAND_MAX 65536  /* bytes a macro expansion may grow to */

typedef struct line_rec {
    const char *file;
    unsigned line;
    size_t off;           /* where the line starts in the code text */
} line_rec;

typedef struct pragma_rec {
    char *text;           /* after "#pragma" */
    const char *file;
    unsigned line;
    size_t off;           /* the code text's length when it was read */
} pragma_rec;

typedef struct macro {
    char name[NAME_MAX_];
    int fn;               /* function-like: never expanded here */
    char *body;
} macro;

typedef struct alias {
    char name[NAME_MAX_];
    char *type;           /* NULL: a struct or class */
} alias;

typedef struct param {
    char name[NAME_MAX_];
    char type[TYPE_MAX + 2]; /* as the XML gives it, unescaped: "int*" */
    int mem;              /* a pointer or an array: m_axi */
    int ref;              /* a non-const reference */
    unsigned bits;        /* the element's (mem) or the value's width */
    int maxi;             /* a pragma made it m_axi */
    char bundle[NAME_MAX_];
    char saxi[NAME_MAX_]; /* s_axilite bundle a pragma gave */
    unsigned offset;
    int stream;           /* an hls::stream<T>&: an AXI4-Stream port (bits
                             is its TDATA width) */
    int dir;              /* a stream's: 1 the top reads it, 2 writes it */
} param;

typedef struct kx {
    const axl_kernel_xml_options *o;
    char *code;
    size_t len, cap;
    line_rec *lines;
    size_t nlines, caplines;
    pragma_rec *pragmas;
    size_t npragmas, cappragmas;
    macro *macros;
    size_t nmacros, capmacros;
    alias *aliases;
    size_t naliases, capaliases;
    char **files;         /* every file read, kept for line_rec.file */
    size_t nfiles, capfiles;
    char missing[256];    /* #include "..." it could not find */
    int overflow;         /* a macro expansion outgrew EXPAND_MAX */
    param p[MAX_PARAMS];
    unsigned np;
    char *err;
    size_t err_size;
} kx;

static int fail(kx *k, const char *file, unsigned line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int fail(kx *k, const char *file, unsigned line, const char *fmt,
                ...)
{
    int n = line ? snprintf(k->err, k->err_size, "%s:%u: ", file, line)
                 : snprintf(k->err, k->err_size, "%s: ", file);
    if (n >= 0 && (size_t)n < k->err_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(k->err + n, k->err_size - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Grows *p (of *cap elements of size each) to hold n + 1. */
static int grow(void *pp, size_t *cap, size_t n, size_t each)
{
    void **p = pp;
    if (n < *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 16;
    void *q = realloc(*p, c * each);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

static int is_id(int c)
{
    return isalnum(c) || c == '_';
}

/* ---- reading the source ---------------------------------------------- */

/* Blanks the comments of a C/C++ text in place, keeping newlines (and so
 * line numbers); string and character literals are left as they are. */
static void strip_comments(char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"' || s[i] == '\'') {
            char q = s[i];
            for (i++; i < n && s[i] != q && s[i] != '\n'; i++)
                if (s[i] == '\\' && i + 1 < n)
                    i++;
        } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n')
                s[i++] = ' ';
        } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
            s[i] = s[i + 1] = ' ';
            for (i += 2; i < n && !(s[i] == '*' && i + 1 < n &&
                                     s[i + 1] == '/'); i++)
                if (s[i] != '\n')
                    s[i] = ' ';
            if (i < n)
                s[i] = s[i + 1] = ' ';
            i++;
        }
    }
}

static macro *macro_named(kx *k, const char *name, size_t n)
{
    for (size_t i = k->nmacros; i-- > 0;)
        if (strlen(k->macros[i].name) == n &&
            memcmp(k->macros[i].name, name, n) == 0)
            return &k->macros[i];
    return NULL;
}

/* #define NAME body, NAME(args) body, or -D NAME[=body]. */
static int define(kx *k, const char *s, int dash_d)
{
    while (isspace((unsigned char)*s))
        s++;
    const char *n = s;
    while (is_id((unsigned char)*s))
        s++;
    size_t nl = (size_t)(s - n);
    if (nl == 0 || nl >= NAME_MAX_)
        return 0;
    if (grow(&k->macros, &k->capmacros, k->nmacros, sizeof(macro)))
        return -1;
    macro *m = &k->macros[k->nmacros];
    memcpy(m->name, n, nl);
    m->name[nl] = '\0';
    m->fn = !dash_d && *s == '(';
    if (dash_d)
        s = *s == '=' ? s + 1 : "1";
    m->body = text_dup_n(s, strlen(s));
    if (!m->body)
        return -1;
    text_trim(m->body);
    k->nmacros++;
    return 0;
}

static void undef(kx *k, const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = 0;
    while (is_id((unsigned char)s[n]))
        n++;
    macro *m = macro_named(k, s, n);
    if (m)
        m->name[0] = '\0';
}

static int add_code(kx *k, const char *file, unsigned line, const char *s,
                    size_t n)
{
    if (grow(&k->lines, &k->caplines, k->nlines, sizeof(line_rec)))
        return -1;
    k->lines[k->nlines++] = (line_rec){file, line, k->len};
    while (k->len + n + 2 > k->cap) {
        size_t c = k->cap ? k->cap * 2 : 4096;
        char *q = realloc(k->code, c);
        if (!q)
            return -1;
        k->code = q;
        k->cap = c;
    }
    memcpy(k->code + k->len, s, n);
    k->len += n;
    k->code[k->len++] = '\n';
    k->code[k->len] = '\0';
    return 0;
}

static int load_text(kx *k, const char *path, unsigned char *data,
                     size_t size, int depth);

static int include(kx *k, const char *file, unsigned line, const char *arg,
                   int depth)
{
    while (isspace((unsigned char)*arg))
        arg++;
    if (*arg != '"')
        return 0; /* <ap_int.h>, <hls_stream.h>: known by name */
    const char *e = strchr(arg + 1, '"');
    if (!e)
        return fail(k, file, line, "#include \"...\" without its closing "
                    "quote");
    char name[512];
    snprintf(name, sizeof name, "%.*s", (int)(e - arg - 1), arg + 1);
    const char *slash = strrchr(file, '/');
    char path[1024];
    FILE *f = NULL;
    if (name[0] == '/') {
        snprintf(path, sizeof path, "%s", name);
        f = fopen(path, "rb");
    }
    if (!f) {
        snprintf(path, sizeof path, "%.*s%s", slash ? (int)(slash - file + 1)
                 : 0, file, name);
        f = fopen(path, "rb");
    }
    for (unsigned i = 0; !f && i < k->o->nincludes; i++) {
        snprintf(path, sizeof path, "%s/%s", k->o->includes[i], name);
        f = fopen(path, "rb");
    }
    if (!f) {
        size_t m = strlen(k->missing);
        snprintf(k->missing + m, sizeof k->missing - m, "%s%s",
                 m ? ", " : "", name);
        return 0;
    }
    fclose(f);
    for (size_t i = 0; i < k->nfiles; i++)
        if (strcmp(k->files[i], path) == 0)
            return 0; /* once: include guards are not evaluated */
    if (depth >= MAX_DEPTH)
        return fail(k, file, line, "#include nesting deeper than %d",
                    MAX_DEPTH);
    unsigned char *data;
    size_t size;
    if (axl_read_file(path, &data, &size))
        return fail(k, file, line, "#include \"%s\": %s cannot be read",
                    name, path);
    return load_text(k, path, data, size, depth + 1);
}

static int load(kx *k, const char *path, int depth)
{
    unsigned char *data;
    size_t size;
    if (depth == 0 && k->o->text) {
        data = (unsigned char *)text_dup_n(k->o->text, k->o->text_size);
        size = k->o->text_size;
        if (!data)
            return fail(k, path, 0, "out of memory");
    } else if (axl_read_file(path, &data, &size)) {
        return fail(k, path, 0, "cannot read the file");
    }
    return load_text(k, path, data, size, depth);
}

/* Reads one file's text (data, freed here) into the code, the pragmas and
 * the macros. */
static int load_text(kx *k, const char *path, unsigned char *data,
                     size_t size, int depth)
{
    if (grow(&k->files, &k->capfiles, k->nfiles, sizeof(char *))) {
        free(data);
        return fail(k, path, 0, "out of memory");
    }
    char *name = text_dup_n(path, strlen(path));
    if (!name) {
        free(data);
        return fail(k, path, 0, "out of memory");
    }
    k->files[k->nfiles++] = name;
    char *s = (char *)data;
    for (size_t i = 0; i < size; i++) /* no NUL in a source text */
        if (!s[i])
            s[i] = ' ';
    strip_comments(s, size);
    int r = 0;
    unsigned line = 1;
    for (size_t i = 0; r == 0 && i < size;) {
        /* One logical line: physical lines joined at a backslash. */
        unsigned first = line;
        size_t start = i, w = i;
        for (; i < size && s[i] != '\n'; i++) {
            if (s[i] == '\\' && i + 1 < size && s[i + 1] == '\n') {
                i++;
                line++;
                continue;
            }
            if (s[i] == '\\' && i + 2 < size && s[i + 1] == '\r' &&
                s[i + 2] == '\n') {
                i += 2;
                line++;
                continue;
            }
            s[w++] = s[i] == '\r' ? ' ' : s[i];
        }
        if (i < size)
            i++;
        line++;
        s[w] = '\0';
        char *t = s + start;
        while (*t == ' ' || *t == '\t')
            t++;
        if (*t != '#') {
            r = add_code(k, name, first, s + start, w - start);
            continue;
        }
        t++;
        while (*t == ' ' || *t == '\t')
            t++;
        if (strncmp(t, "include", 7) == 0 && !is_id((unsigned char)t[7])) {
            r = include(k, name, first, t + 7, depth);
        } else if (strncmp(t, "define", 6) == 0 &&
                   !is_id((unsigned char)t[6])) {
            r = define(k, t + 6, 0) ? fail(k, name, first, "out of memory")
                                    : 0;
        } else if (strncmp(t, "undef", 5) == 0) {
            undef(k, t + 5);
        } else if (strncmp(t, "pragma", 6) == 0 &&
                   !is_id((unsigned char)t[6])) {
            if (grow(&k->pragmas, &k->cappragmas, k->npragmas,
                     sizeof(pragma_rec)))
                r = fail(k, name, first, "out of memory");
            else {
                char *text = text_dup_n(t + 6, strlen(t + 6));
                if (!text)
                    r = fail(k, name, first, "out of memory");
                else
                    k->pragmas[k->npragmas++] =
                        (pragma_rec){text, name, first, k->len};
            }
        }
        /* #if, #ifdef, #else, #endif, #error ...: not evaluated */
    }
    free(data);
    return r;
}

/* ---- macros, aliases ------------------------------------------------- */

/* Appends n bytes to a growing buffer. */
static int append(char **out, size_t *len, size_t *cap, const char *s,
                  size_t n)
{
    while (*len + n + 1 > *cap) {
        size_t c = *cap * 2;
        char *q = realloc(*out, c);
        if (!q)
            return -1;
        *out = q;
        *cap = c;
    }
    memcpy(*out + *len, s, n);
    *len += n;
    (*out)[*len] = '\0';
    return 0;
}

/* s with object-like macros replaced (to a fixed point, at most 32
 * rounds; a replacement is set off by spaces so it cannot join its
 * neighbours); a malloc'd text, NULL when out of memory or when it grows
 * past EXPAND_MAX (k->overflow: a macro that contains itself twice, which
 * a C preprocessor would not expand again). */
static char *expand(kx *k, const char *s)
{
    char *cur = text_dup_n(s, strlen(s));
    for (int round = 0; cur && round < 32; round++) {
        size_t n = strlen(cur), cap = n + 16, len = 0;
        char *out = malloc(cap);
        int changed = 0, bad = !out;
        if (out)
            out[0] = '\0';
        for (size_t i = 0; !bad && i < n;) {
            size_t an = 1;
            if (cur[i] == '"') {
                size_t j = i + 1;
                while (j < n && cur[j] != '"')
                    j += cur[j] == '\\' ? 2 : 1;
                an = (j < n ? j + 1 : n) - i;
            } else if (isalpha((unsigned char)cur[i]) || cur[i] == '_') {
                size_t j = i;
                while (j < n && is_id((unsigned char)cur[j]))
                    j++;
                an = j - i;
                const macro *m = macro_named(k, cur + i, an);
                if (m && !m->fn && len <= EXPAND_MAX) {
                    bad = append(&out, &len, &cap, " ", 1) ||
                          append(&out, &len, &cap, m->body,
                                 strlen(m->body)) ||
                          append(&out, &len, &cap, " ", 1);
                    changed = 1;
                    i += an;
                    continue;
                }
            }
            bad = append(&out, &len, &cap, cur + i, an);
            i += an;
        }
        if (!bad && len > EXPAND_MAX)
            bad = k->overflow = 1;
        free(cur);
        if (bad) {
            free(out);
            return NULL;
        }
        cur = out;
        if (!changed)
            break;
    }
    return cur;
}

static int add_alias(kx *k, const char *name, size_t nl, const char *type,
                     size_t tl, int structy)
{
    if (nl == 0 || nl >= NAME_MAX_)
        return 0;
    if (grow(&k->aliases, &k->capaliases, k->naliases, sizeof(alias)))
        return -1;
    alias *a = &k->aliases[k->naliases];
    memcpy(a->name, name, nl);
    a->name[nl] = '\0';
    a->type = structy ? NULL : text_dup_n(type, tl);
    if (!structy && !a->type)
        return -1;
    if (a->type)
        text_trim(a->type);
    k->naliases++;
    return 0;
}

static int word_at(const char *s, size_t i, const char *w)
{
    size_t n = strlen(w);
    return strncmp(s + i, w, n) == 0 && (i == 0 || !is_id((unsigned char)
                                                          s[i - 1])) &&
           !is_id((unsigned char)s[i + n]);
}

/* typedef T NAME;  using NAME = T;  struct NAME {  class NAME { */
static int read_aliases(kx *k)
{
    const char *s = k->code;
    for (size_t i = 0; i < k->len; i++) {
        if (word_at(s, i, "typedef")) {
            size_t j = i + 7, depth = 0, brace = 0;
            for (; j < k->len && !(s[j] == ';' && !depth && !brace); j++) {
                if (s[j] == '(' || s[j] == '<' || s[j] == '[')
                    depth++;
                else if ((s[j] == ')' || s[j] == '>' || s[j] == ']') &&
                         depth)
                    depth--;
                else if (s[j] == '{')
                    brace++;
                else if (s[j] == '}' && brace)
                    brace--;
            }
            size_t e = j;
            while (e > i && isspace((unsigned char)s[e - 1]))
                e--;
            size_t b = e;
            while (b > i && is_id((unsigned char)s[b - 1]))
                b--;
            int fnptr = memchr(s + i, '(', j - i) != NULL;
            int structy = memchr(s + i, '{', j - i) != NULL;
            /* "typedef;" names nothing: b is back at the keyword */
            if (!fnptr && b > i + 7 &&
                add_alias(k, s + b, e - b, s + i + 7, b - i - 7, structy))
                return -1;
            i = j;
        } else if (word_at(s, i, "using")) {
            size_t j = i + 5;
            while (isspace((unsigned char)s[j]))
                j++;
            size_t b = j;
            while (is_id((unsigned char)s[j]))
                j++;
            size_t e = j;
            while (isspace((unsigned char)s[j]))
                j++;
            if (s[j] != '=' || s[j + 1] == '=')
                continue;
            const char *semi = strchr(s + j, ';');
            if (semi && add_alias(k, s + b, e - b, s + j + 1,
                                  (size_t)(semi - s - j - 1), 0))
                return -1;
        } else if (word_at(s, i, "struct") || word_at(s, i, "class") ||
                   word_at(s, i, "union")) {
            size_t j = i + (s[i] == 'c' ? 5 : s[i] == 'u' ? 5 : 6);
            while (isspace((unsigned char)s[j]))
                j++;
            size_t b = j;
            while (is_id((unsigned char)s[j]))
                j++;
            size_t e = j;
            while (isspace((unsigned char)s[j]))
                j++;
            if (e > b && (s[j] == '{' || s[j] == ':') &&
                add_alias(k, s + b, e - b, "", 0, 1))
                return -1;
        }
    }
    return 0;
}

static const alias *alias_named(const kx *k, const char *name)
{
    for (size_t i = k->naliases; i-- > 0;)
        if (strcmp(k->aliases[i].name, name) == 0)
            return &k->aliases[i];
    return NULL;
}

/* ---- integer expressions (template arguments) ------------------------ */

typedef struct ev {
    const char *p;
    int bad;
} ev;

static long long ev_expr(ev *e);

static void ev_ws(ev *e)
{
    while (isspace((unsigned char)*e->p))
        e->p++;
}

static long long ev_unary(ev *e)
{
    ev_ws(e);
    if (*e->p == '-') {
        e->p++;
        return -ev_unary(e);
    }
    if (*e->p == '(') {
        e->p++;
        long long v = ev_expr(e);
        ev_ws(e);
        if (*e->p != ')')
            e->bad = 1;
        else
            e->p++;
        return v;
    }
    if (!isdigit((unsigned char)*e->p)) {
        e->bad = 1;
        return 0;
    }
    char *end;
    long long v = strtoll(e->p, &end, 0);
    e->p = end;
    while (*e->p == 'u' || *e->p == 'U' || *e->p == 'l' || *e->p == 'L')
        e->p++;
    return v;
}

static long long ev_mul(ev *e)
{
    long long v = ev_unary(e);
    for (;;) {
        ev_ws(e);
        char op = *e->p;
        if (op != '*' && op != '/' && op != '%')
            return v;
        e->p++;
        long long r = ev_unary(e);
        if (op == '*')
            v *= r;
        else if (r == 0)
            e->bad = 1;
        else
            v = op == '/' ? v / r : v % r;
    }
}

static long long ev_add(ev *e)
{
    long long v = ev_mul(e);
    for (;;) {
        ev_ws(e);
        char op = *e->p;
        if (op != '+' && op != '-')
            return v;
        e->p++;
        long long r = ev_mul(e);
        v = op == '+' ? v + r : v - r;
    }
}

static long long ev_expr(ev *e)
{
    long long v = ev_add(e);
    for (;;) {
        ev_ws(e);
        if ((e->p[0] == '<' && e->p[1] == '<') ||
            (e->p[0] == '>' && e->p[1] == '>')) {
            int left = e->p[0] == '<';
            e->p += 2;
            long long r = ev_add(e);
            if (r < 0 || r > 62)
                e->bad = 1;
            else
                v = left ? v << r : v >> r;
        } else {
            return v;
        }
    }
}

/* An integer constant expression (macros already expanded); -1 if not. */
static long long eval_int(const char *s)
{
    ev e = {s, 0};
    long long v = ev_expr(&e);
    ev_ws(&e);
    return e.bad || *e.p ? -1 : v;
}

/* ---- types ----------------------------------------------------------- */

/* Whitespace collapsed; none around < > ( ) :: * &, one after a comma. */
static void normalize(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    int space = 0;
    for (const char *p = in; *p && n + 3 < cap; p++) {
        if (isspace((unsigned char)*p)) {
            space = n > 0;
            continue;
        }
        char prev = n ? out[n - 1] : 0;
        int glue = strchr("<>():*&,", *p) || strchr("<>(:*&", prev) ||
                   (prev == ':' && *p == ':');
        if (prev == ',')
            out[n++] = ' ';
        else if (space && !glue)
            out[n++] = ' ';
        space = 0;
        out[n++] = *p;
    }
    out[n] = '\0';
}

/* Drops whole words (const, volatile, ...) from a type text. */
static void drop_word(char *s, const char *w)
{
    size_t n = strlen(w);
    for (char *p = s; (p = strstr(p, w));) {
        if ((p == s || !is_id((unsigned char)p[-1])) &&
            !is_id((unsigned char)p[n]))
            memmove(p, p + n, strlen(p + n) + 1);
        else
            p += n;
    }
}

static const struct {
    const char *name;
    unsigned bits;
} scalars[] = {
    {"bool", 1}, {"char", 8}, {"signed char", 8}, {"unsigned char", 8},
    {"int8_t", 8}, {"uint8_t", 8}, {"short", 16}, {"unsigned short", 16},
    {"int16_t", 16}, {"uint16_t", 16}, {"half", 16}, {"int", 32},
    {"unsigned int", 32}, {"int32_t", 32}, {"uint32_t", 32}, {"float", 32},
    {"long", 64}, {"unsigned long", 64}, {"long long", 64},
    {"unsigned long long", 64}, {"int64_t", 64}, {"uint64_t", 64},
    {"size_t", 64}, {"double", 64}};

/* The spelling Vitis gives a builtin type ("unsigned" is unsigned int). */
static void canonical(char *t)
{
    static const char *const map[][2] = {
        {"unsigned", "unsigned int"}, {"signed", "int"},
        {"signed int", "int"}, {"short int", "short"},
        {"signed short", "short"}, {"unsigned short int", "unsigned short"},
        {"long int", "long"}, {"unsigned long int", "unsigned long"},
        {"long long int", "long long"},
        {"unsigned long long int", "unsigned long long"}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(t, map[i][0]) == 0) {
            strcpy(t, map[i][1]);
            return;
        }
}

/* The first template argument of "name<...>" after prefix, and (if arg2)
 * the second. */
static int template_args(const char *t, size_t prefix, char *a1, char *a2,
                         size_t cap)
{
    const char *p = t + prefix;
    int depth = 0;
    size_t n = 0;
    char *out = a1;
    a1[0] = '\0';
    if (a2)
        a2[0] = '\0';
    for (; *p; p++) {
        if (*p == '<' || *p == '(')
            depth++;
        else if ((*p == '>' || *p == ')') && depth)
            depth--;
        else if (*p == '>' && !depth)
            break;
        if (*p == ',' && !depth) {
            out[n] = '\0';
            if (out == a2 || !a2)
                break;
            out = a2;
            n = 0;
            continue;
        }
        if (n + 1 < cap)
            out[n++] = *p;
    }
    out[n] = '\0';
    return *p == '>' || *p == ',' ? 0 : -1;
}

/* The width of type t in bits: 0 and *bits, or -1 and a reason. */
static int type_bits(const kx *k, const char *t, unsigned *bits, int depth,
                     char *why, size_t why_size)
{
    if (depth > MAX_DEPTH) {
        snprintf(why, why_size, "type aliases nest deeper than %d",
                 MAX_DEPTH);
        return -1;
    }
    if (strncmp(t, "std::", 5) == 0 && !strchr(t + 5, ':'))
        t += 5;
    if (strncmp(t, "::", 2) == 0)
        t += 2;
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++)
        if (strcmp(t, scalars[i].name) == 0) {
            *bits = scalars[i].bits;
            return 0;
        }
    static const char *const ap[] = {"ap_int<", "ap_uint<", "ap_fixed<",
                                     "ap_ufixed<", "ap_int_base<"};
    char a1[TYPE_MAX], a2[TYPE_MAX];
    for (size_t i = 0; i < sizeof ap / sizeof ap[0]; i++) {
        size_t n = strlen(ap[i]);
        if (strncmp(t, ap[i], n) == 0) {
            long long w;
            if (template_args(t, n, a1, NULL, sizeof a1) ||
                (w = eval_int(a1)) < 1 || w > 4096) {
                snprintf(why, why_size, "the width of %s is not a constant "
                         "1..4096 it can read", t);
                return -1;
            }
            *bits = (unsigned)w;
            return 0;
        }
    }
    if (strncmp(t, "hls::vector<", 12) == 0) {
        unsigned eb;
        long long n;
        if (template_args(t, 12, a1, a2, sizeof a1) ||
            (n = eval_int(a2)) < 1 || n > 4096) {
            snprintf(why, why_size, "the length of %s is not a constant it "
                     "can read", t);
            return -1;
        }
        char inner[TYPE_MAX];
        normalize(a1, inner, sizeof inner);
        if (type_bits(k, inner, &eb, depth + 1, why, why_size))
            return -1;
        *bits = eb * (unsigned)n;
        return 0;
    }
    if (strncmp(t, "hls::stream<", 12) == 0 || strncmp(t, "stream<", 7) == 0 ||
        strncmp(t, "ap_axiu<", 8) == 0 || strncmp(t, "ap_axis<", 8) == 0 ||
        strncmp(t, "hls::axis<", 10) == 0) {
        snprintf(why, why_size, "%s is a stream type: axl's kernels take "
                 "memory and scalars (no AXI4-Stream)", t);
        return -2;
    }
    const alias *a = alias_named(k, t);
    if (strncmp(t, "struct ", 7) == 0 || strncmp(t, "class ", 6) == 0 ||
        strncmp(t, "union ", 6) == 0 || (a && !a->type)) {
        snprintf(why, why_size, "%s is a struct: its width and layout on "
                 "the interface are Vitis HLS's to choose (use ap_uint<N> "
                 "or a scalar type)", t);
        return -1;
    }
    if (a) {
        char inner[TYPE_MAX];
        char *x = expand((kx *)k, a->type);
        if (!x) {
            snprintf(why, why_size, "%s", k->overflow
                     ? "its macros expand past 64 KiB (one contains itself?)"
                     : "out of memory");
            return -1;
        }
        drop_word(x, "const");
        drop_word(x, "volatile");
        drop_word(x, "typename");
        normalize(x, inner, sizeof inner);
        free(x);
        canonical(inner);
        return type_bits(k, inner, bits, depth + 1, why, why_size);
    }
    snprintf(why, why_size, "type %s is unknown to it (builtin integer and "
             "floating types, ap_int/ap_uint/ap_fixed/ap_ufixed, hls::vector "
             "and typedefs of them are known)%s%s", t,
             k->missing[0] ? "; headers it could not find (give -I): " : "",
             k->missing);
    return -1;
}

/* The TDATA width of hls::stream<T>: D of ap_axiu<D,U,TI,TD> and
 * ap_axis<...>, T's width for hls::axis<T,...>, else T's width; rounded
 * up to whole bytes, as Vitis HLS pads TDATA (UG1399, AXI4-Stream
 * Interfaces). */
static int stream_bits(const kx *k, const char *t, unsigned *bits,
                       char *why, size_t why_size)
{
    size_t n = strncmp(t, "hls::", 5) == 0 ? 12 : 7;
    char elem[TYPE_MAX], a1[TYPE_MAX], inner[TYPE_MAX];
    if (template_args(t, n, a1, NULL, sizeof a1)) {
        snprintf(why, why_size, "%s: its element type is not readable", t);
        return -1;
    }
    normalize(a1, elem, sizeof elem);
    canonical(elem);
    /* typedef ap_axiu<32, 0, 0, 0> beat; hls::stream<beat> */
    for (int depth = 0; depth < MAX_DEPTH; depth++) {
        const alias *a = alias_named(k, elem);
        if (!a || !a->type)
            break;
        char *x = expand((kx *)k, a->type);
        if (!x) {
            snprintf(why, why_size, "%s", "out of memory");
            return -1;
        }
        drop_word(x, "const");
        drop_word(x, "typename");
        normalize(x, elem, sizeof elem);
        free(x);
        canonical(elem);
    }
    unsigned w = 0;
    if (strncmp(elem, "ap_axiu<", 8) == 0 || strncmp(elem, "ap_axis<", 8) == 0) {
        long long d;
        if (template_args(elem, 8, a1, NULL, sizeof a1) ||
            (d = eval_int(a1)) < 1 || d > 4096) {
            snprintf(why, why_size, "the data width of %s is not a "
                     "constant 1..4096 it can read", elem);
            return -1;
        }
        w = (unsigned)d;
    } else if (strncmp(elem, "hls::axis<", 10) == 0) {
        if (template_args(elem, 10, a1, NULL, sizeof a1))
            return snprintf(why, why_size, "%s is not readable", elem), -1;
        normalize(a1, inner, sizeof inner);
        canonical(inner);
        if (type_bits(k, inner, &w, 1, why, why_size))
            return -1;
    } else if (type_bits(k, elem, &w, 1, why, why_size)) {
        return -1;
    }
    *bits = (w + 7) / 8 * 8;
    return 0;
}

/* ---- the top function ------------------------------------------------ */

static size_t line_of(const kx *k, size_t off)
{
    size_t lo = 0, hi = k->nlines;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (k->lines[mid].off <= off)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static size_t match(const char *s, size_t len, size_t i, char open,
                    char close)
{
    int depth = 0;
    for (; i < len; i++) {
        if (s[i] == '"' || s[i] == '\'') {
            char q = s[i];
            for (i++; i < len && s[i] != q; i++)
                if (s[i] == '\\')
                    i++;
        } else if (s[i] == open) {
            depth++;
        } else if (s[i] == close && --depth == 0) {
            return i;
        }
    }
    return len;
}

typedef struct top {
    size_t name, lp, rp, lb, rb;
} top;

static int find_top(kx *k, top *t)
{
    const char *s = k->code, *name = k->o->top;
    size_t n = strlen(name);
    int defs = 0, decls = 0;
    unsigned first_line = 0;
    for (size_t i = 0; i + n <= k->len; i++) {
        if (!word_at(s, i, name))
            continue;
        size_t j = i + n;
        while (isspace((unsigned char)s[j]))
            j++;
        if (s[j] != '(')
            continue;
        size_t rp = match(s, k->len, j, '(', ')');
        if (rp >= k->len)
            continue;
        size_t b = rp + 1;
        while (isspace((unsigned char)s[b]))
            b++;
        if (s[b] == ';') {
            decls++;
            continue;
        }
        if (s[b] != '{')
            continue; /* a call */
        /* A definition needs a return type before the name: "x = f(a) {"
         * is not one, nor is a call inside an expression. */
        size_t r = i;
        while (r > 0 && isspace((unsigned char)s[r - 1]))
            r--;
        if (r == 0 || !(is_id((unsigned char)s[r - 1]) || s[r - 1] == '>' ||
                        s[r - 1] == '*' || s[r - 1] == '&'))
            continue;
        const line_rec *L = &k->lines[line_of(k, i)];
        if (defs++) {
            return fail(k, L->file, L->line, "%s is defined more than once "
                        "(also on line %u): is it inside #if branches? "
                        "kernel-xml does not evaluate #if; give one "
                        "definition", name, first_line);
        }
        first_line = L->line;
        t->name = i;
        t->lp = j;
        t->rp = rp;
        t->lb = b;
        t->rb = match(s, k->len, b, '{', '}');
    }
    if (!defs)
        return fail(k, k->o->source, 0, "%s %s", name, decls
                    ? "is declared but not defined here (kernel-xml reads "
                      "its body for the pragmas)"
                    : "is not defined here (--top names the kernel's top "
                      "function)");
    return 0;
}

/* The return type before the name: void, not a template. */
static int check_return(kx *k, const top *t)
{
    const char *s = k->code;
    size_t b = t->name;
    while (b > 0 && s[b - 1] != ';' && s[b - 1] != '}' && s[b - 1] != '{')
        b--;
    char *ret = text_dup_n(s + b, t->name - b);
    if (!ret)
        return fail(k, k->o->source, 0, "out of memory");
    const line_rec *L = &k->lines[line_of(k, t->name)];
    drop_word(ret, "extern");
    for (char *q; (q = strstr(ret, "\"C\""));)
        memset(q, ' ', 3);
    drop_word(ret, "static");
    drop_word(ret, "inline");
    char norm[TYPE_MAX];
    normalize(ret, norm, sizeof norm);
    free(ret);
    if (strstr(norm, "template"))
        return fail(k, L->file, L->line, "%s is a template: the top "
                    "function of a kernel must be a plain function (give "
                    "kernel-xml a wrapper that calls the template)",
                    k->o->top);
    if (strcmp(norm, "void") != 0)
        return fail(k, L->file, L->line, "%s returns %s: a Vitis kernel "
                    "returns void (a return value becomes an ap_return "
                    "register no host API reads; write it to memory)",
                    k->o->top, norm[0] ? norm : "nothing it can read");
    return 0;
}

/* One parameter's text: its name, XML type and width. */
static int read_param(kx *k, const char *file, unsigned line, char *text,
                      unsigned index, param *p)
{
    /* a default argument goes */
    int depth = 0;
    for (char *q = text; *q; q++) {
        if (*q == '<' || *q == '(' || *q == '[')
            depth++;
        else if ((*q == '>' || *q == ')' || *q == ']') && depth)
            depth--;
        else if (*q == '=' && !depth) {
            *q = '\0';
            break;
        }
    }
    text = text_trim(text);
    /* array suffixes: int a[1024] is a pointer on the interface */
    size_t n = strlen(text);
    int array = 0;
    while (n && text[n - 1] == ']') {
        size_t b = n - 1;
        while (b && text[b] != '[')
            b--;
        text[b] = '\0';
        n = strlen(text_trim(text));
        array = 1;
    }
    size_t e = n;
    while (e && isspace((unsigned char)text[e - 1]))
        e--;
    size_t b = e;
    while (b && is_id((unsigned char)text[b - 1]))
        b--;
    if (b == e || isdigit((unsigned char)text[b]))
        return fail(k, file, line, "parameter %u (%s) has no name: the "
                    "XML names every argument", index + 1, text);
    if (e - b >= NAME_MAX_)
        return fail(k, file, line, "parameter name %.*s is longer than %d "
                    "characters", (int)(e - b), text + b, NAME_MAX_ - 1);
    memcpy(p->name, text + b, e - b);
    p->name[e - b] = '\0';
    text[b] = '\0';
    /* pointers and references, at template depth 0 */
    int stars = 0, refs = 0, is_const = 0;
    depth = 0;
    for (char *q = text; *q; q++) {
        if (*q == '<')
            depth++;
        else if (*q == '>' && depth)
            depth--;
        else if (!depth && (*q == '*' || *q == '&')) {
            if (*q == '*')
                stars++;
            else
                refs++;
            *q = ' ';
        }
    }
    char *cv = text;
    for (char *q; (q = strstr(cv, "const")); cv = q + 5)
        if ((q == text || !is_id((unsigned char)q[-1])) &&
            !is_id((unsigned char)q[5]))
            is_const = 1;
    drop_word(text, "const");
    drop_word(text, "volatile");
    drop_word(text, "restrict");
    drop_word(text, "__restrict");
    drop_word(text, "__restrict__");
    drop_word(text, "typename");
    char base[TYPE_MAX];
    normalize(text, base, sizeof base);
    canonical(base);
    if (!base[0])
        return fail(k, file, line, "parameter %s has no type it can read",
                    p->name);
    if (stars + array > 1 || (stars + array && refs))
        return fail(k, file, line, "parameter %s: a pointer to a pointer "
                    "(or an array of pointers) has no memory-mapped "
                    "interface", p->name);
    char why[512];
    if (strncmp(base, "hls::stream<", 12) == 0 ||
        strncmp(base, "stream<", 7) == 0) {
        if (stars + array || refs != 1 || is_const)
            return fail(k, file, line, "parameter %s: a stream is passed by "
                        "non-const reference (hls::stream<T>& %s), as "
                        "Vitis HLS requires", p->name, p->name);
        if (stream_bits(k, base, &p->bits, why, sizeof why))
            return fail(k, file, line, "parameter %s: %s", p->name, why);
        p->stream = 1;
        snprintf(p->type, sizeof p->type, "%s&", base);
        return 0;
    }
    int r = type_bits(k, base, &p->bits, 0, why, sizeof why);
    if (r)
        return fail(k, file, line, "parameter %s: %s", p->name, why);
    p->mem = stars + array > 0;
    p->ref = refs && !is_const;
    snprintf(p->type, sizeof p->type, "%s%s", base, p->mem ? "*" : "");
    return 0;
}

static int read_params(kx *k, const top *t)
{
    const line_rec *L = &k->lines[line_of(k, t->lp)];
    char *raw = text_dup_n(k->code + t->lp + 1, t->rp - t->lp - 1);
    char *list = raw ? expand(k, raw) : NULL;
    free(raw);
    if (!list)
        return fail(k, L->file, L->line, "%s", k->overflow
                    ? "the parameters' macros expand past 64 KiB (one "
                      "contains itself?)" : "out of memory");
    if (strcmp(text_trim(list), "void") == 0 || !text_trim(list)[0]) {
        free(list);
        return 0;
    }
    for (char *q = list; *q; q++) /* macros may have left newlines */
        if (isspace((unsigned char)*q))
            *q = ' ';
    int depth = 0, r = 0;
    char *start = list;
    for (char *q = list;; q++) {
        if (*q == '<' || *q == '(' || *q == '[' || *q == '{')
            depth++;
        else if ((*q == '>' || *q == ')' || *q == ']' || *q == '}') && depth)
            depth--;
        if (*q && (*q != ',' || depth))
            continue;
        int end = !*q;
        *q = '\0';
        if (k->np == MAX_PARAMS) {
            r = fail(k, L->file, L->line, "more than %d parameters",
                     MAX_PARAMS);
            break;
        }
        param *p = &k->p[k->np];
        memset(p, 0, sizeof *p);
        if ((r = read_param(k, L->file, L->line, start, k->np, p)))
            break;
        for (unsigned i = 0; i < k->np; i++)
            if (strcmp(k->p[i].name, p->name) == 0) {
                r = fail(k, L->file, L->line, "two parameters named %s",
                         p->name);
                break;
            }
        if (r)
            break;
        k->np++;
        if (end)
            break;
        start = q + 1;
    }
    free(list);
    return r;
}

/* ---- pragmas --------------------------------------------------------- */

static param *param_named(kx *k, const char *name)
{
    for (unsigned i = 0; i < k->np; i++)
        if (strcmp(k->p[i].name, name) == 0)
            return &k->p[i];
    return NULL;
}

/* The value of key= among the options (case-insensitive key); NULL if
 * absent. */
static const char *option(char **opts, unsigned n, const char *key)
{
    size_t kl = strlen(key);
    for (unsigned i = 0; i < n; i++)
        if (strncasecmp(opts[i], key, kl) == 0 && opts[i][kl] == '=')
            return opts[i] + kl + 1;
    return NULL;
}

typedef struct iface {
    char control[24];     /* ap_ctrl_chain, ap_ctrl_hs, ap_ctrl_none */
    char saxi[NAME_MAX_]; /* the control bundle */
    unsigned saxi_line;
} iface;

/* Refuses an interface the tool cannot lay out or XRT cannot drive. */
static int refuse_mode(kx *k, const pragma_rec *pr, const char *mode,
                       const char *port)
{
    static const struct {
        const char *mode, *why;
    } modes[] = {
        {"axis", "axis takes an hls::stream<T>& parameter (a pointer or a "
                 "scalar has no AXI4-Stream form)"},
        {"ap_memory", "an ap_memory (BRAM) argument is a port of the "
                      "block, not memory XRT or axl allocates"},
        {"bram", "a bram argument is a port of the block, not memory XRT "
                 "or axl allocates"},
        {"ap_fifo", "an ap_fifo argument is a stream, not memory or a "
                    "register"},
        {"ap_none", "a wire interface is not in the control registers a "
                    "host writes"},
        {"ap_vld", "a wire interface is not in the control registers a "
                   "host writes"},
        {"ap_ack", "a wire interface is not in the control registers a "
                   "host writes"},
        {"ap_hs", "a wire interface is not in the control registers a "
                  "host writes"},
        {"ap_ovld", "a wire interface is not in the control registers a "
                    "host writes"},
        {"ap_stable", "a wire interface is not in the control registers a "
                      "host writes"},
    };
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (strcasecmp(mode, modes[i].mode) == 0)
            return fail(k, pr->file, pr->line, "INTERFACE %s port=%s: %s",
                        mode, port, modes[i].why);
    return fail(k, pr->file, pr->line, "INTERFACE mode \"%s\" (port=%s) is "
                "none of m_axi, s_axilite, ap_ctrl_chain, ap_ctrl_hs, "
                "ap_ctrl_none", mode, port);
}

static int interface(kx *k, const pragma_rec *pr, char **opts, unsigned n,
                     iface *f)
{
    const char *mode = option(opts, n, "mode");
    for (unsigned i = 0; !mode && i < n; i++)
        if (!strchr(opts[i], '='))
            mode = opts[i]; /* the older spelling: INTERFACE m_axi ... */
    const char *port = option(opts, n, "port");
    if (!mode || !port)
        return fail(k, pr->file, pr->line, "INTERFACE needs a mode and "
                    "port=");
    if (strcasecmp(port, "return") == 0) {
        if (strncasecmp(mode, "ap_ctrl_", 8) == 0) {
            if (strcasecmp(mode, "ap_ctrl_chain") &&
                strcasecmp(mode, "ap_ctrl_hs") &&
                strcasecmp(mode, "ap_ctrl_none"))
                return fail(k, pr->file, pr->line, "INTERFACE %s: the "
                            "block protocols are ap_ctrl_chain, ap_ctrl_hs "
                            "and ap_ctrl_none", mode);
            snprintf(f->control, sizeof f->control, "%s", mode);
            for (char *c = f->control; *c; c++)
                *c = (char)tolower((unsigned char)*c);
            return 0;
        }
        if (strcasecmp(mode, "s_axilite") == 0) {
            const char *b = option(opts, n, "bundle");
            if (b) {
                if (f->saxi[0] && strcmp(f->saxi, b) != 0)
                    return fail(k, pr->file, pr->line, "a second s_axilite "
                                "bundle, %s (after %s on line %u): a host "
                                "drives one control port", b, f->saxi,
                                f->saxi_line);
                snprintf(f->saxi, sizeof f->saxi, "%s", b);
                f->saxi_line = pr->line;
            }
            return 0;
        }
        return fail(k, pr->file, pr->line, "INTERFACE %s port=return: the "
                    "function's return takes ap_ctrl_chain, ap_ctrl_hs, "
                    "ap_ctrl_none or s_axilite", mode);
    }
    param *p = param_named(k, port);
    if (!p)
        return fail(k, pr->file, pr->line, "INTERFACE port=%s: %s has no "
                    "parameter of that name", port, k->o->top);
    if (strcasecmp(mode, "m_axi") == 0) {
        if (p->stream)
            return fail(k, pr->file, pr->line, "INTERFACE m_axi port=%s: %s "
                        "is an hls::stream (axis), not memory", port, port);
        if (!p->mem)
            return fail(k, pr->file, pr->line, "INTERFACE m_axi port=%s: %s "
                        "is a scalar; m_axi takes a pointer or an array",
                        port, port);
        const char *off = option(opts, n, "offset");
        if (off && strcasecmp(off, "slave") != 0)
            return fail(k, pr->file, pr->line, "INTERFACE m_axi port=%s "
                        "offset=%s: the address must be a register of the "
                        "control port (offset=slave) for a host to give it",
                        port, off);
        const char *b = option(opts, n, "bundle");
        /* A pragma without bundle= is in gmem0 (UG1399, M_AXI bundles);
         * with no pragma at all a pointer is in gmem (UG1393, Kernel
         * Interfaces). */
        snprintf(p->bundle, sizeof p->bundle, "%s", b ? b : "gmem0");
        p->maxi = 1;
        return 0;
    }
    if (strcasecmp(mode, "s_axilite") == 0) {
        if (p->stream)
            return fail(k, pr->file, pr->line, "INTERFACE s_axilite "
                        "port=%s: %s is an hls::stream (axis), not a "
                        "register", port, port);
        if (option(opts, n, "offset"))
            return fail(k, pr->file, pr->line, "INTERFACE s_axilite port=%s "
                        "offset=: explicit register offsets are not laid "
                        "out by kernel-xml; drop offset= to get Vitis's "
                        "default layout", port);
        const char *b = option(opts, n, "bundle");
        if (b) {
            if (f->saxi[0] && strcmp(f->saxi, b) != 0)
                return fail(k, pr->file, pr->line, "a second s_axilite "
                            "bundle, %s (after %s on line %u): a host drives "
                            "one control port", b, f->saxi, f->saxi_line);
            snprintf(f->saxi, sizeof f->saxi, "%s", b);
            f->saxi_line = pr->line;
            snprintf(p->saxi, sizeof p->saxi, "%s", b);
        }
        return 0;
    }
    if (strncasecmp(mode, "ap_ctrl_", 8) == 0)
        return fail(k, pr->file, pr->line, "INTERFACE %s goes on "
                    "port=return, not on %s", mode, port);
    if (strcasecmp(mode, "axis") == 0 && p->stream)
        return 0; /* a top-level stream is AXI4-Stream anyway */
    if (p->stream)
        return fail(k, pr->file, pr->line, "INTERFACE %s port=%s: %s is an "
                    "hls::stream, which a kernel takes as axis", mode, port,
                    port);
    return refuse_mode(k, pr, mode, port);
}

/* Splits "HLS INTERFACE m_axi port = a bundle=gmem" into words, keys and
 * values joined ("port=a"). */
static unsigned words(char *s, char **out, unsigned cap)
{
    /* glue "key = value" */
    char *w = s;
    for (char *r = s; *r; r++) {
        if (*r == '=') {
            while (w > s && isspace((unsigned char)w[-1]))
                w--;
            *w++ = '=';
            while (isspace((unsigned char)r[1]))
                r++;
            continue;
        }
        *w++ = *r;
    }
    *w = '\0';
    unsigned n = 0;
    for (char *t = strtok(s, " \t"); t && n < cap; t = strtok(NULL, " \t"))
        out[n++] = t;
    return n;
}

static int read_pragmas(kx *k, const top *t, iface *f)
{
    for (size_t i = 0; i < k->npragmas; i++) {
        const pragma_rec *pr = &k->pragmas[i];
        if (pr->off <= t->lb || pr->off > t->rb)
            continue; /* outside the top's body */
        char *text = expand(k, pr->text);
        if (!text)
            return fail(k, pr->file, pr->line, "%s", k->overflow
                        ? "the pragma's macros expand past 64 KiB (one "
                          "contains itself?)" : "out of memory");
        char *w[32];
        unsigned n = words(text, w, 32);
        int r = 0;
        if (n >= 2 && strcasecmp(w[0], "HLS") == 0) {
            const char *d = w[1];
            if (strcasecmp(d, "INTERFACE") == 0) {
                r = interface(k, pr, w + 2, n - 2, f);
            } else if (strcasecmp(d, "ARRAY_PARTITION") == 0 ||
                       strcasecmp(d, "ARRAY_RESHAPE") == 0 ||
                       strcasecmp(d, "STREAM") == 0 ||
                       strcasecmp(d, "DISAGGREGATE") == 0) {
                const char *v = option(w + 2, n - 2, "variable");
                if (v && param_named(k, v))
                    r = fail(k, pr->file, pr->line, "%s on argument %s: it "
                             "changes the argument's interface into ports "
                             "or streams the XML cannot describe; apply it "
                             "to a local copy", d, v);
            }
        }
        free(text);
        if (r)
            return r;
    }
    /* _Pragma("HLS INTERFACE ..."), directly or through a macro */
    const char *s = k->code;
    for (size_t i = t->lb; i < t->rb; i++) {
        if (!isalpha((unsigned char)s[i]) && s[i] != '_')
            continue;
        size_t j = i;
        while (is_id((unsigned char)s[j]))
            j++;
        const macro *m = macro_named(k, s + i, j - i);
        int hidden = (j - i == 7 && strncmp(s + i, "_Pragma", 7) == 0) ||
                     (m && m->fn && strstr(m->body, "_Pragma"));
        if (hidden) {
            size_t e = j;
            while (isspace((unsigned char)s[e]))
                e++;
            size_t close = s[e] == '(' ? match(s, t->rb, e, '(', ')') : e;
            for (size_t q = e; q + 9 <= close; q++)
                if (strncasecmp(s + q, "INTERFACE", 9) == 0) {
                    const line_rec *L = &k->lines[line_of(k, i)];
                    return fail(k, L->file, L->line, "an INTERFACE pragma "
                                "written through _Pragma or a macro: "
                                "kernel-xml reads #pragma HLS INTERFACE "
                                "lines; write it as one");
                }
        }
        i = j;
    }
    return 0;
}

/* ---- the XML --------------------------------------------------------- */

static void escaped(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    for (; *s && n + 7 < cap; s++) {
        const char *e = *s == '<' ? "&lt;" : *s == '>' ? "&gt;"
                      : *s == '&' ? "&amp;" : *s == '"' ? "&quot;" : NULL;
        if (e) {
            memcpy(out + n, e, strlen(e));
            n += strlen(e);
        } else {
            out[n++] = *s;
        }
    }
    out[n] = '\0';
}

static void upper(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    for (; *s && n + 1 < cap; s++)
        out[n++] = (char)toupper((unsigned char)*s);
    out[n] = '\0';
}

/* The m_axi data width of a bundle: the widest element in it (UG1399:
 * the bundle takes its widest port), a power of two, 32 at least (the
 * adapter's AXI data bus). Automatic port widening in synthesis may make
 * it wider (up to 512 by default in the Vitis flow): the XML Vitis writes
 * then says so; registers and sizes do not change. */
static unsigned bundle_width(const kx *k, const char *bundle)
{
    unsigned w = 0;
    for (unsigned i = 0; i < k->np; i++)
        if (k->p[i].mem && strcmp(k->p[i].bundle, bundle) == 0 &&
            k->p[i].bits > w)
            w = k->p[i].bits;
    unsigned p = 32;
    while (p < w)
        p *= 2;
    return p;
}

/* Bytes of a scalar as the host passes it: its width rounded up to a
 * power-of-two number of bytes (C's sizeof for builtin types). */
static unsigned scalar_bytes(unsigned bits)
{
    unsigned b = 1;
    while (b * 8 < bits)
        b *= 2;
    return b;
}

static int write_xml(kx *k, const iface *f, text *t)
{
    const char *top = k->o->top;
    const char *slash = strrchr(k->o->source, '/');
    char ctl[NAME_MAX_ + 8], bundle_port[NAME_MAX_ + 8];
    upper(f->saxi[0] ? f->saxi : "control", ctl, sizeof ctl);
    int has_slave = strcmp(f->control, "ap_ctrl_none") != 0;
    unsigned off = FIRST_OFFSET;
    for (unsigned i = 0; i < k->np; i++) {
        param *p = &k->p[i];
        if (p->stream)
            continue; /* no register: its peer is fixed at link time */
        if (p->mem && !p->bundle[0])
            strcpy(p->bundle, "gmem"); /* no pragma: UG1393's default */
        /* a 64-bit address: two data words and a reserved one; a scalar:
         * its data words and a reserved one */
        unsigned bits = p->mem ? 64 : p->bits;
        p->offset = off;
        off += ((bits + 31) / 32 + 1) * 4;
        has_slave = 1;
    }
    if (off > 0x1000)
        return fail(k, k->o->source, 0, "the control registers end at 0x%X, "
                    "past the 4 KiB control window", off);
    text_put(t, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<!-- %s: written by axl-xclbin kernel-xml from %s (the kernel.xml "
        "v++ -c puts in %s.xo) -->\n"
        "<root versionMajor=\"1\" versionMinor=\"6\">\n"
        "  <kernel name=\"%s\" language=\"c\" vlnv=\"%s:hls:%s:1.0\" "
        "hwControlProtocol=\"%s\" preferredWorkGroupSizeMultiple=\"0\" "
        "workGroupSize=\"1\" interrupt=\"%s\">\n"
        "    <ports>\n",
        top, slash ? slash + 1 : k->o->source, top, top,
        k->o->vendor ? k->o->vendor : "xilinx.com", top, f->control,
        strcmp(f->control, "ap_ctrl_none") ? "true" : "false");
    for (unsigned i = 0; i < k->np; i++) {
        const param *p = &k->p[i];
        int seen = 0;
        for (unsigned j = 0; p->mem && j < i; j++)
            seen |= k->p[j].mem && strcmp(k->p[j].bundle, p->bundle) == 0;
        if (!p->mem || seen)
            continue;
        upper(p->bundle, bundle_port, sizeof bundle_port);
        text_put(t, "      <port name=\"M_AXI_%s\" mode=\"master\" "
            "range=\"0xFFFFFFFF\" dataWidth=\"%u\" portType=\"addressable\" "
            "base=\"0x0\"/>\n", bundle_port, bundle_width(k, p->bundle));
    }
    if (has_slave)
        text_put(t, "      <port name=\"S_AXI_%s\" mode=\"slave\" range=\"0x1000\" "
            "dataWidth=\"32\" portType=\"addressable\" base=\"0x0\"/>\n", ctl);
    for (unsigned i = 0; i < k->np; i++)
        if (k->p[i].stream)
            text_put(t, "      <port name=\"%s\" mode=\"%s\" range=\"0x0\" "
                "dataWidth=\"%u\" portType=\"stream\" base=\"0x0\"/>\n",
                k->p[i].name, k->p[i].dir == 1 ? "read_only" : "write_only",
                k->p[i].bits);
    text_put(t, "    </ports>\n    <args>\n");
    for (unsigned i = 0; i < k->np; i++) {
        const param *p = &k->p[i];
        char type[TYPE_MAX * 6];
        escaped(p->type, type, sizeof type);
        unsigned size = p->mem ? 8 : scalar_bytes(p->bits);
        if (p->stream) {
            text_put(t, "      <arg name=\"%s\" addressQualifier=\"4\" id=\"%u\" "
                "port=\"%s\" size=\"0x0\" offset=\"0x0\" hostOffset=\"0x0\" "
                "hostSize=\"0x0\" type=\"%s\"/>\n", p->name, i, p->name,
                type);
            continue;
        }
        if (p->mem)
            upper(p->bundle, bundle_port, sizeof bundle_port);
        text_put(t, "      <arg name=\"%s\" addressQualifier=\"%d\" id=\"%u\" "
            "port=\"%s%s\" size=\"0x%X\" offset=\"0x%X\" hostOffset=\"0x0\" "
            "hostSize=\"0x%X\" type=\"%s\"/>\n", p->name, p->mem ? 1 : 0, i,
            p->mem ? "M_AXI_" : "S_AXI_", p->mem ? bundle_port : ctl, size,
            p->offset, size, type);
    }
    text_put(t, "    </args>\n"
        "    <compileWorkGroupSize x=\"1\" y=\"1\" z=\"1\"/>\n"
        "  </kernel>\n"
        "</root>\n");
    return t->bad ? fail(k, k->o->source, 0, "out of memory") : 0;
}

/* Whether the top reads or writes stream p, from what its body does with
 * it: .read(), .read_nb(), .empty(), >> read; .write(), .write_nb(),
 * .full(), << write (Vitis HLS decides the port's direction the same
 * way, by use). One of the two, or it is refused. */
static int stream_dir(kx *k, const top *t, param *p)
{
    static const char *const reads[] = {"read", "read_nb", "empty"};
    static const char *const writes[] = {"write", "write_nb", "full"};
    const char *s = k->code;
    int rd = 0, wr = 0;
    for (size_t i = t->lb; i < t->rb; i++) {
        if (!word_at(s, i, p->name))
            continue;
        size_t j = i + strlen(p->name);
        while (j < t->rb && isspace((unsigned char)s[j]))
            j++;
        if (s[j] == '>' && s[j + 1] == '>')
            rd = 1;
        else if (s[j] == '<' && s[j + 1] == '<')
            wr = 1;
        else if (s[j] == '.') {
            j++;
            while (j < t->rb && isspace((unsigned char)s[j]))
                j++;
            for (size_t m = 0; m < 3; m++) {
                rd |= word_at(s, j, reads[m]);
                wr |= word_at(s, j, writes[m]);
            }
        }
    }
    if (rd != wr) {
        p->dir = rd ? 1 : 2;
        return 0;
    }
    const line_rec *L = &k->lines[line_of(k, t->lp)];
    return fail(k, L->file, L->line, "stream %s: the top's body %s; "
                "kernel-xml tells an input stream from an output one by "
                "the top's own .read()/.write() (or >>/<<) on it", p->name,
                rd ? "both reads and writes it" : "neither reads nor "
                "writes it (it is passed on to a function?)");
}

static void free_kx(kx *k)
{
    free(k->code);
    free(k->lines);
    for (size_t i = 0; i < k->npragmas; i++)
        free(k->pragmas[i].text);
    free(k->pragmas);
    for (size_t i = 0; i < k->nmacros; i++)
        free(k->macros[i].body);
    free(k->macros);
    for (size_t i = 0; i < k->naliases; i++)
        free(k->aliases[i].type);
    free(k->aliases);
    for (size_t i = 0; i < k->nfiles; i++)
        free(k->files[i]);
    free(k->files);
    free(k);
}

int axl_kernel_xml(const axl_kernel_xml_options *o, char **xml, size_t *size,
                   char *err, size_t err_size)
{
    kx *k = calloc(1, sizeof *k);
    if (!k) {
        snprintf(err, err_size, "axl-xclbin kernel-xml: out of memory");
        return -1;
    }
    k->o = o;
    k->err = err;
    k->err_size = err_size;
    int r = 0;
    const char *t = o->top;
    if (!*t || isdigit((unsigned char)*t) || strlen(t) >= NAME_MAX_)
        r = fail(k, "axl-xclbin kernel-xml", 0, "--top %s is not a C "
                 "identifier", t);
    for (const char *c = t; r == 0 && *c; c++)
        if (!is_id((unsigned char)*c))
            r = fail(k, "axl-xclbin kernel-xml", 0, "--top %s is not a C "
                     "identifier", t);
    /* A VLNV field: no ':' (its separator) and nothing XML would escape. */
    const char *v = o->vendor;
    for (const char *c = v; r == 0 && v && *c; c++)
        if (!is_id((unsigned char)*c) && *c != '.' && *c != '-')
            r = fail(k, "axl-xclbin kernel-xml", 0, "--vendor %s: a vendor "
                     "is letters, digits, '_', '.' and '-' (xilinx.com)", v);
    if (r == 0 && v && (!*v || strlen(v) >= NAME_MAX_))
        r = fail(k, "axl-xclbin kernel-xml", 0, "--vendor \"%s\": a vendor "
                 "is 1 to %u characters", v, NAME_MAX_ - 1);
    for (unsigned i = 0; r == 0 && i < o->ndefines; i++)
        if (define(k, o->defines[i], 1))
            r = fail(k, "axl-xclbin kernel-xml", 0, "out of memory");
    if (r == 0)
        r = load(k, o->source, 0);
    if (r == 0 && read_aliases(k))
        r = fail(k, o->source, 0, "out of memory");
    top tp = {0, 0, 0, 0, 0};
    iface f = {"ap_ctrl_chain", "", 0};
    if (r == 0)
        r = find_top(k, &tp);
    if (r == 0)
        r = check_return(k, &tp);
    if (r == 0)
        r = read_params(k, &tp);
    if (r == 0)
        r = read_pragmas(k, &tp, &f);
    for (unsigned i = 0; r == 0 && i < k->np; i++)
        if (k->p[i].stream)
            r = stream_dir(k, &tp, &k->p[i]);
    for (unsigned i = 0; r == 0 && i < k->np; i++)
        if (k->p[i].ref) {
            const line_rec *L = &k->lines[line_of(k, tp.lp)];
            r = fail(k, L->file, L->line, "parameter %s is a reference the "
                     "kernel may write: an output register (ap_vld) no host "
                     "API reads; pass a pointer to memory", k->p[i].name);
        }
    for (unsigned i = 0; r == 0 && i < k->np; i++)
        if (k->p[i].mem && k->p[i].bits > 1024) {
            const line_rec *L = &k->lines[line_of(k, tp.lp)];
            r = fail(k, L->file, L->line, "parameter %s: elements of %u "
                     "bits are wider than the 1024 bits of an m_axi port",
                     k->p[i].name, k->p[i].bits);
        }
    text x = {0};
    if (r == 0)
        r = write_xml(k, &f, &x);
    if (r == 0) {
        *xml = x.p;
        *size = x.len;
    } else {
        free(x.p);
    }
    free_kx(k);
    return r;
}
