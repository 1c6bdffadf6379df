/*
 * text.h - what the tool's writers and readers share: a text that grows as
 * it is written (kernel.xml, the link's JSON sections), and two string
 * helpers. The tool runs on the build host and may allocate.
 */
#ifndef AXL_XCLBIN_TEXT_H
#define AXL_XCLBIN_TEXT_H

#include <stddef.h>

/* A text written piece by piece; bad is set (and stays) when a piece could
 * not be written. The caller frees p. */
typedef struct text {
    char *p;
    size_t len, cap;
    int bad;
} text;

/* Appends the printf-style piece to t, growing it as needed. */
void text_put(text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A copy of the n bytes at s with a '\0' after them, or NULL when memory
 * runs out. */
char *text_dup_n(const char *s, size_t n);

/* s without its leading and trailing white space (the end is cut in place). */
char *text_trim(char *s);

#endif /* AXL_XCLBIN_TEXT_H */
