/*
 * Helpers shared by the xclbin tests: reading files, little-endian
 * pokes, and a tiny image builder for hand-made malformed images.
 */
#ifndef AXL_XCLBIN_TEST_UTIL_H
#define AXL_XCLBIN_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AXLF_HEADER 456u
#define AXLF_SECTION 40u

/* Section kinds (XRT's axlf_section_kind). */
enum {
    K_BITSTREAM = 0,
    K_EMBEDDED_METADATA = 2,
    K_MEM_TOPOLOGY = 6,
    K_CONNECTIVITY = 7,
    K_IP_LAYOUT = 8,
    K_CLOCK_FREQ_TOPOLOGY = 11,
    K_BUILD_METADATA = 14
};

static inline unsigned char *tu_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    unsigned char *p = malloc(cap);
    for (;;) {
        if (!p)
            break;
        len += fread(p + len, 1, cap - len, f);
        if (len < cap)
            break;
        unsigned char *g = realloc(p, cap *= 2);
        if (!g) {
            free(p);
            p = NULL;
        } else {
            p = g;
        }
    }
    fclose(f);
    *size = len;
    return p;
}

static inline void tu_st16(unsigned char *p, uint64_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static inline void tu_st32(unsigned char *p, uint64_t v)
{
    tu_st16(p, v);
    tu_st16(p + 2, v >> 16);
}

static inline void tu_st64(unsigned char *p, uint64_t v)
{
    tu_st32(p, v);
    tu_st32(p + 4, v >> 32);
}

static inline uint64_t tu_ld64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static inline uint32_t tu_ld32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* Offset of the section table entry of the first section of kind, and its
 * index in *index; 0 when there is none. */
static inline size_t tu_find_section(const unsigned char *img, uint32_t kind,
                                     unsigned *index)
{
    uint32_t n = tu_ld32(img + 448);
    for (uint32_t i = 0; i < n; i++) {
        size_t h = AXLF_HEADER + (size_t)i * AXLF_SECTION;
        if (tu_ld32(img + h) == kind) {
            if (index)
                *index = i;
            return h;
        }
    }
    return 0;
}

/* Start of the data of the first section of kind. */
static inline unsigned char *tu_section_data(unsigned char *img, uint32_t kind)
{
    size_t h = tu_find_section(img, kind, NULL);
    return h ? img + tu_ld64(img + h + 24) : NULL;
}

typedef struct tu_sec {
    uint32_t kind;
    const void *data;
    size_t size;
} tu_sec;

/* An image with these sections, laid out as the packer does. The UUID is
 * 00 01 02 .. 0f. Free the result. */
static inline unsigned char *tu_build(const tu_sec *s, unsigned n,
                                      size_t *size)
{
    size_t len = AXLF_HEADER + (size_t)n * AXLF_SECTION;
    size_t off[64];
    for (unsigned i = 0; i < n && i < 64; i++) {
        len = (len + 7) & ~(size_t)7;
        off[i] = len;
        len += s[i].size;
    }
    unsigned char *img = calloc(1, len ? len : 1);
    if (!img)
        return NULL;
    memcpy(img, "xclbin2", 8);
    tu_st64(img + 304, len);
    for (int i = 0; i < 16; i++)
        img[416 + i] = (unsigned char)i;
    tu_st32(img + 448, n);
    for (unsigned i = 0; i < n && i < 64; i++) {
        unsigned char *h = img + AXLF_HEADER + (size_t)i * AXLF_SECTION;
        tu_st32(h, s[i].kind);
        tu_st64(h + 24, s[i].size ? off[i] : 0);
        tu_st64(h + 32, s[i].size);
        if (s[i].size)
            memcpy(img + off[i], s[i].data, s[i].size);
    }
    *size = len;
    return img;
}

#endif
