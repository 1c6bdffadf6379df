/*
 * text.c - a text that grows as it is written, and two string helpers
 * (text.h).
 */
#include "text.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void text_put(text *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->p ? t->p + t->len : NULL,
                          t->p ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->bad = 1;
            return;
        }
        if (t->p && (size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        /* Not enough room: double until the piece and its '\0' fit, then
         * write it again. */
        size_t cap = t->cap ? t->cap * 2 : 2048;
        while (cap < t->len + (size_t)n + 1)
            cap *= 2;
        char *p = realloc(t->p, cap);
        if (!p) {
            t->bad = 1;
            return;
        }
        t->p = p;
        t->cap = cap;
    }
}

char *text_dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

char *text_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}
