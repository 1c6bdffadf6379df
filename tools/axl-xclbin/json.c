/*
 * Recursive-descent JSON reader for the packer (a host tool). Nesting is
 * capped so a hostile file cannot exhaust the stack.
 */
#include "json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

typedef struct parser {
    const char *s;
    size_t n, i;
    unsigned line;
    char *err;
    size_t err_size;
    int failed;
} parser;

static void perr(parser *p, const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = 1;
    if (!p->err || !p->err_size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err, p->err_size, fmt, ap);
    va_end(ap);
    /* Names and values from the input may hold line breaks: the reason
     * stays one line. */
    for (char *c = p->err; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7F)
            *c = '?';
}

/* A character of the input as a message shows it: itself when printable,
 * else \xNN, so a reason stays one line whatever the input holds. */
typedef struct shown_char {
    char s[8];
} shown_char;
static shown_char shown(int c)
{
    shown_char r;
    unsigned char u = (unsigned char)c;
    if (u >= 0x20 && u < 0x7F)
        snprintf(r.s, sizeof r.s, "%c", (char)u);
    else
        snprintf(r.s, sizeof r.s, "\\x%02X", (unsigned)u);
    return r;
}

static void skip_ws(parser *p)
{
    while (p->i < p->n) {
        char c = p->s[p->i];
        if (c == '\n')
            p->line++;
        else if (c != ' ' && c != '\t' && c != '\r')
            break;
        p->i++;
    }
}

static json *node(parser *p, json_type t)
{
    json *j = calloc(1, sizeof *j);
    if (!j) {
        perr(p, "out of memory");
        return NULL;
    }
    j->type = t;
    j->line = p->line;
    return j;
}

void json_free(json *j)
{
    while (j) {
        json *next = j->next;
        json_free(j->child);
        free(j->key);
        free(j->text);
        free(j);
        j = next;
    }
}

static int hex4(parser *p, unsigned *out)
{
    unsigned v = 0;
    if (p->n - p->i < 4) {
        perr(p, "truncated \\u escape");
        return -1;
    }
    for (int k = 0; k < 4; k++) {
        char c = p->s[p->i++];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else {
            perr(p, "bad \\u escape");
            return -1;
        }
    }
    *out = v;
    return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

static char *copy(parser *p, const char *src, size_t len)
{
    char *o = malloc(len + 1);
    if (!o) {
        perr(p, "out of memory");
        return NULL;
    }
    memcpy(o, src, len);
    o[len] = '\0';
    return o;
}

/* A string starting at the opening quote; returns a malloc'd copy. */
static char *string(parser *p)
{
    p->i++; /* the quote */
    /* Find the closing quote first; decoding never makes text longer. */
    size_t end = p->i;
    while (end < p->n && p->s[end] != '"')
        end += p->s[end] == '\\' ? 2 : 1;
    if (end >= p->n) {
        perr(p, "string never ends");
        return NULL;
    }
    char *o = malloc(end - p->i + 1);
    if (!o) {
        perr(p, "out of memory");
        return NULL;
    }
    size_t len = 0;
    while (p->i < end) {
        char c = p->s[p->i++];
        if ((unsigned char)c < 0x20) {
            perr(p, "control character in a string");
            free(o);
            return NULL;
        }
        if (c != '\\') {
            o[len++] = c;
            continue;
        }
        char e = p->s[p->i++];
        unsigned cp;
        switch (e) {
        case '"': o[len++] = '"'; break;
        case '\\': o[len++] = '\\'; break;
        case '/': o[len++] = '/'; break;
        case 'b': o[len++] = '\b'; break;
        case 'f': o[len++] = '\f'; break;
        case 'n': o[len++] = '\n'; break;
        case 'r': o[len++] = '\r'; break;
        case 't': o[len++] = '\t'; break;
        case 'u':
            if (end - p->i < 4 || hex4(p, &cp)) {
                perr(p, "bad \\u escape");
                free(o);
                return NULL;
            }
            if (cp >= 0xD800 && cp < 0xDC00 && end - p->i >= 6 &&
                p->s[p->i] == '\\' && p->s[p->i + 1] == 'u') {
                unsigned lo;
                p->i += 2;
                if (hex4(p, &lo)) {
                    free(o);
                    return NULL;
                }
                if (lo >= 0xDC00 && lo < 0xE000)
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            len += put_utf8(o + len, cp);
            break;
        default:
            perr(p, "bad escape '\\%s'", shown(e).s);
            free(o);
            return NULL;
        }
    }
    p->i = end + 1;
    o[len] = '\0';
    return o;
}

static json *value(parser *p, int depth);

static json *container(parser *p, int depth, int object)
{
    json *j = node(p, object ? JSON_OBJECT : JSON_ARRAY);
    if (!j)
        return NULL;
    char close = object ? '}' : ']';
    json **tail = &j->child;
    p->i++;
    skip_ws(p);
    if (p->i < p->n && p->s[p->i] == close) {
        p->i++;
        return j;
    }
    for (;;) {
        char *key = NULL;
        skip_ws(p);
        if (object) {
            if (p->i >= p->n || p->s[p->i] != '"') {
                perr(p, "expected a member name in quotes");
                goto bad;
            }
            key = string(p);
            if (!key)
                goto bad;
            skip_ws(p);
            if (p->i >= p->n || p->s[p->i] != ':') {
                perr(p, "expected ':' after \"%s\"", key);
                free(key);
                goto bad;
            }
            p->i++;
        }
        json *v = value(p, depth + 1);
        if (!v) {
            free(key);
            goto bad;
        }
        v->key = key;
        *tail = v;
        tail = &v->next;
        skip_ws(p);
        if (p->i < p->n && p->s[p->i] == ',') {
            p->i++;
            continue;
        }
        if (p->i < p->n && p->s[p->i] == close) {
            p->i++;
            return j;
        }
        perr(p, "expected ',' or '%c'", close);
        goto bad;
    }
bad:
    json_free(j);
    return NULL;
}

static json *value(parser *p, int depth)
{
    if (depth > MAX_DEPTH) {
        perr(p, "nesting deeper than %d", MAX_DEPTH);
        return NULL;
    }
    skip_ws(p);
    if (p->i >= p->n) {
        perr(p, "expected a value, found the end");
        return NULL;
    }
    char c = p->s[p->i];
    if (c == '{' || c == '[')
        return container(p, depth, c == '{');
    if (c == '"') {
        json *j = node(p, JSON_STRING);
        if (!j)
            return NULL;
        j->text = string(p);
        if (!j->text) {
            json_free(j);
            return NULL;
        }
        return j;
    }
    static const struct {
        const char *word;
        json_type type;
    } words[] = {{"true", JSON_BOOL}, {"false", JSON_BOOL}, {"null", JSON_NULL}};
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++) {
        size_t m = strlen(words[k].word);
        if (p->n - p->i >= m && memcmp(p->s + p->i, words[k].word, m) == 0) {
            json *j = node(p, words[k].type);
            if (!j)
                return NULL;
            j->text = copy(p, words[k].word, m);
            p->i += m;
            if (!j->text) {
                json_free(j);
                return NULL;
            }
            return j;
        }
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        size_t start = p->i;
        while (p->i < p->n && p->s[p->i] &&
               strchr("+-0123456789.eE", p->s[p->i]))
            p->i++;
        json *j = node(p, JSON_NUMBER);
        if (!j)
            return NULL;
        j->text = copy(p, p->s + start, p->i - start);
        if (!j->text) {
            json_free(j);
            return NULL;
        }
        return j;
    }
    perr(p, "unexpected '%s'", shown(c).s);
    return NULL;
}

json *json_parse(const char *text, size_t len, unsigned *err_line, char *err,
                 size_t err_size)
{
    parser p = {text, len, 0, 1, err, err_size, 0};
    json *j = value(&p, 0);
    if (j) {
        skip_ws(&p);
        if (p.i != p.n) {
            perr(&p, "text after the JSON value");
            json_free(j);
            j = NULL;
        }
    }
    if (!j && err_line)
        *err_line = p.line;
    return j;
}

const json *json_get(const json *obj, const char *key)
{
    if (!obj || obj->type != JSON_OBJECT)
        return NULL;
    for (const json *m = obj->child; m; m = m->next)
        if (m->key && strcmp(m->key, key) == 0)
            return m;
    return NULL;
}

size_t json_count(const json *j)
{
    size_t n = 0;
    if (j && (j->type == JSON_ARRAY || j->type == JSON_OBJECT))
        for (const json *m = j->child; m; m = m->next)
            n++;
    return n;
}

int json_u64(const json *j, uint64_t *out)
{
    if (!j || (j->type != JSON_STRING && j->type != JSON_NUMBER) || !j->text)
        return -1;
    const char *s = j->text;
    unsigned base = 10;
    uint64_t v = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (!*s)
        return -1;
    for (; *s; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (base == 16 && *s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else if (base == 16 && *s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A' + 10);
        else
            return -1;
        if (v > (UINT64_MAX - d) / base)
            return -1;
        v = v * base + d;
    }
    *out = v;
    return 0;
}
