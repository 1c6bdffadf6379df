/*
 * A bounded formatter for messages: the subset of printf the runtime needs,
 * with no allocation, no locale and no stdio, so it builds freestanding.
 *
 * Supported: %% %c %s %.*s %.Ns %d %i %u %x %X %p, the length modifiers
 * l, ll and z, the flags '0' and '-', and a field width. Anything else is
 * copied through as written, so a bad format shows up in the message
 * instead of crashing.
 */
#include "axl/hal.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>

/* Texts cut (axl_format_cuts): counted where the cut happens, so that a
 * test finds a message too long for its buffer wherever it was made (a
 * port's reason, quoted later whole in a message that fits, counts). */
static atomic_ulong cuts;
static atomic_int first_claimed;
#define FIRST_CUT 48
static char first_cut[FIRST_CUT]; /* written once, before cuts counts it */

typedef struct out {
    char *dst;
    size_t cap;
    size_t len; /* characters produced, including any that did not fit */
} out;

static void put(out *o, char c)
{
    if (o->len + 1 < o->cap)
        o->dst[o->len] = c;
    o->len++;
}

static void put_field(out *o, const char *s, size_t n, size_t width, int left,
                      char pad)
{
    size_t fill = width > n ? width - n : 0;
    if (!left)
        while (fill--)
            put(o, pad);
    for (size_t i = 0; i < n; i++)
        put(o, s[i]);
    if (left)
        while (fill--)
            put(o, ' ');
}

static void put_uint(out *o, uintmax_t v, unsigned base, int upper, int neg,
                     size_t width, int left, char pad)
{
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char tmp[3 * sizeof(uintmax_t) + 2];
    size_t n = 0;
    do {
        tmp[sizeof tmp - 1 - n++] = digits[v % base];
        v /= base;
    } while (v);
    if (neg) {
        if (pad == '0') {
            put(o, '-');
            if (width)
                width--;
        } else {
            tmp[sizeof tmp - 1 - n++] = '-';
        }
    }
    put_field(o, &tmp[sizeof tmp - n], n, width, left, pad);
}

static size_t vformat(char *dst, size_t cap, const char *fmt, va_list ap);

/* A text cut: counted, and the first one's beginning kept for the person
 * reading the failed test (the count is what is checked). */
static void count_cut(const char *text)
{
    if (!atomic_exchange_explicit(&first_claimed, 1, memory_order_relaxed))
        for (size_t i = 0; i + 1 < FIRST_CUT; i++) {
            first_cut[i] = text[i];
            if (!text[i])
                break;
        }
    atomic_fetch_add_explicit(&cuts, 1, memory_order_release);
}

size_t axl_vformat(char *dst, size_t cap, const char *fmt, va_list ap)
{
    const size_t n = vformat(dst, cap, fmt, ap);
    if (cap && n >= cap)
        count_cut(dst);
    return n;
}

unsigned long axl_format_cuts(const char **first)
{
    const unsigned long n = atomic_load_explicit(&cuts, memory_order_acquire);
    if (first)
        *first = n ? first_cut : NULL;
    return n;
}

size_t axl_format_part(char *dst, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t n = vformat(dst, cap, fmt, ap);
    va_end(ap);
    return n;
}

size_t axl_vformat_part(char *dst, size_t cap, const char *fmt, va_list ap)
{
    return vformat(dst, cap, fmt, ap);
}

static size_t length(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

size_t axl_format_quote(char *dst, size_t cap, const char *quote,
                        const char *tail, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const size_t n = axl_vformat_quote(dst, cap, quote, tail, fmt, ap);
    va_end(ap);
    return n;
}

size_t axl_vformat_quote(char *dst, size_t cap, const char *quote,
                         const char *tail, const char *fmt, va_list ap)
{
    if (!cap)
        return 0;
    size_t h = axl_vformat(dst, cap, fmt, ap); /* counts its own cut */
    if (h >= cap)
        return cap - 1;
    const size_t q = length(quote), t = length(tail);
    size_t room = cap - h; /* for the quote, the tail and the NUL */
    if (q + t < room) {
        for (size_t i = 0; i <= q; i++)
            dst[h + i] = quote[i];
        h += q;
    } else {
        count_cut(dst);
        if (t + 1 < room) {
            axl_shorten(dst + h, room - t, quote);
            h += length(dst + h);
        }
    }
    room = cap - h;
    size_t i = 0;
    for (; i < t && i + 1 < room; i++)
        dst[h + i] = tail[i];
    dst[h + i] = '\0';
    return h + i;
}

static size_t vformat(char *dst, size_t cap, const char *fmt, va_list ap)
{
    out o = {dst, cap, 0};
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') {
            put(&o, *p);
            continue;
        }
        const char *start = p++;
        int left = 0;
        char pad = ' ';
        size_t width = 0;
        size_t prec = (size_t)-1;
        for (;; p++) {
            if (*p == '-')
                left = 1;
            else if (*p == '0')
                pad = '0';
            else
                break;
        }
        while (*p >= '0' && *p <= '9')
            width = width * 10 + (size_t)(*p++ - '0');
        if (*p == '.') {
            p++;
            if (*p == '*') {
                int n = va_arg(ap, int);
                prec = n < 0 ? 0 : (size_t)n;
                p++;
            } else {
                prec = 0;
                while (*p >= '0' && *p <= '9')
                    prec = prec * 10 + (size_t)(*p++ - '0');
            }
        }
        int lng = 0, sz = 0;
        if (*p == 'l') {
            lng = 1;
            if (*++p == 'l') {
                lng = 2;
                p++;
            }
        } else if (*p == 'z') {
            sz = 1;
            p++;
        }
        if (left)
            pad = ' ';
        switch (*p) {
        case '%':
            put(&o, '%');
            break;
        case 'c': {
            char c = (char)va_arg(ap, int);
            put_field(&o, &c, 1, width, left, ' ');
            break;
        }
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (!s)
                s = "(null)";
            size_t n = 0;
            while (n < prec && s[n])
                n++;
            put_field(&o, s, n, width, left, ' ');
            break;
        }
        case 'd':
        case 'i': {
            intmax_t v = sz    ? (intmax_t)va_arg(ap, ptrdiff_t)
                         : lng == 2 ? (intmax_t)va_arg(ap, long long)
                         : lng      ? (intmax_t)va_arg(ap, long)
                                    : (intmax_t)va_arg(ap, int);
            uintmax_t u = v < 0 ? (uintmax_t)0 - (uintmax_t)v : (uintmax_t)v;
            put_uint(&o, u, 10, 0, v < 0, width, left, pad);
            break;
        }
        case 'u':
        case 'x':
        case 'X': {
            uintmax_t v = sz    ? (uintmax_t)va_arg(ap, size_t)
                          : lng == 2 ? (uintmax_t)va_arg(ap, unsigned long long)
                          : lng      ? (uintmax_t)va_arg(ap, unsigned long)
                                     : (uintmax_t)va_arg(ap, unsigned);
            put_uint(&o, v, *p == 'u' ? 10 : 16, *p == 'X', 0, width, left, pad);
            break;
        }
        case 'p': {
            uintptr_t v = (uintptr_t)va_arg(ap, void *);
            put(&o, '0');
            put(&o, 'x');
            put_uint(&o, v, 16, 0, 0, 0, 0, ' ');
            break;
        }
        default:
            /* Unknown conversion: copy it through as written. */
            for (const char *q = start; q <= p && *q; q++)
                put(&o, *q);
            if (!*p)
                p--;
            break;
        }
    }
    if (cap)
        dst[o.len < cap ? o.len : cap - 1] = '\0';
    return o.len;
}

size_t axl_format(char *dst, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t n = axl_vformat(dst, cap, fmt, ap);
    va_end(ap);
    return n;
}

const char *axl_shorten(char *dst, size_t cap, const char *s)
{
    if (!cap)
        return dst;
    size_t n = 0;
    while (s[n])
        n++;
    if (n < cap) {
        for (size_t i = 0; i <= n; i++)
            dst[i] = s[i];
        return dst;
    }
    /* Too long: its head, "...", and its tail (a path's file name), the
     * tail given the larger share. */
    static const char dots[] = "...";
    size_t keep = cap - 1;
    if (keep <= sizeof dots - 1) {
        for (size_t i = 0; i < keep; i++)
            dst[i] = s[n - keep + i];
        dst[keep] = '\0';
        return dst;
    }
    keep -= sizeof dots - 1;
    size_t head = keep / 3, o = 0;
    /* A path stays readable: the cuts fall on its separators when they
     * can, so that no folder's name and never the file's is cut in two
     * ("/home/user/.../build/design.xclbin"): the head ends after a '/'
     * within its share, the tail takes the rest of the room and starts
     * at a '/' if one is in it (else, a file name longer than the room,
     * it keeps its end). */
    for (size_t h = head; h > 1; h--)
        if (s[h - 1] == '/') {
            head = h;
            break;
        }
    size_t tail = keep - head;
    for (size_t t = tail; t > 0; t--)
        if (s[n - t] == '/') {
            tail = t;
            break;
        }
    for (size_t i = 0; i < head; i++)
        dst[o++] = s[i];
    for (size_t i = 0; i < sizeof dots - 1; i++)
        dst[o++] = dots[i];
    for (size_t i = n - tail; i < n; i++)
        dst[o++] = s[i];
    dst[o] = '\0';
    return dst;
}

const char *axl_bytes(char *dst, size_t cap, uint64_t n)
{
    static const char *const unit[] = {"KiB", "MiB", "GiB", "TiB"};
    int u = -1;
    for (int i = 3; i >= 0 && u < 0; i--)
        if (n >> (10 * (i + 1)))
            u = i;
    if (u < 0) {
        axl_format(dst, cap, "%llu bytes", (unsigned long long)n);
        return dst;
    }
    const unsigned shift = 10u * (unsigned)(u + 1);
    const uint64_t whole = n >> shift;
    const uint64_t rest = n & ((1ull << shift) - 1);
    if (!rest)
        axl_format(dst, cap, "%llu %s", (unsigned long long)whole, unit[u]);
    else
        axl_format(dst, cap, "%llu.%u %s", (unsigned long long)whole,
                   (unsigned)((rest * 10u) >> shift), unit[u]);
    return dst;
}
