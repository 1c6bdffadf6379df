/*
 * axl-xclbin: inspect and pack xclbin images.
 *
 *   axl-xclbin info FILE              print what axl reads from FILE
 *   axl-xclbin info --json FILE       the same as one JSON object
 *   axl-xclbin pack MANIFEST -o FILE  build an image (pack.h: the format)
 *   axl-xclbin design FILE SYMBOL -o OUT.c
 *                                     write FILE's design as C source, a
 *                                     const axl_xclbin_design SYMBOL that a
 *                                     board links instead of the bytes
 *   axl-xclbin link [--config CFG]... [--platform NAME | --banks N]
 *                   [--slot N|all] [--uuid U] KERNEL_XML... -o FILE
 *                                     build an image from a v++ link config
 *                                     and HLS kernel.xml files (link.h); on
 *                                     a DFX shell (k26_2rp) a partial for
 *                                     slot N, or one per slot
 *                                     (FILE_slot<N>.xclbin)
 *   axl-xclbin kernel-xml SOURCE --top NAME [-I DIR]... [-D NAME[=V]]...
 *                   [--vendor NAME] -o FILE
 *                                              write the kernel.xml of an HLS kernel
 *                                     from its source (kernel_xml.h)
 *
 * Exit status: 0 success; 1 usage or I/O error; 2 the image (info), the
 * manifest and its files (pack), the config and kernel files (link) or
 * the kernel source (kernel-xml) are invalid. Failures print one line on
 * stderr.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axl/xclbin.h"
#include "design.h"
#include "info.h"
#include "kernel_xml.h"
#include "link.h"
#include "pack.h"

static int usage(void)
{
    fprintf(stderr, "usage: axl-xclbin info [--json] FILE\n"
                    "       axl-xclbin pack MANIFEST -o FILE\n"
                    "       axl-xclbin design FILE SYMBOL -o OUT.c\n"
                    "       axl-xclbin link [--config CFG]... "
                    "[--platform NAME | --banks N] [--slot N|all]\n"
                    "                       [--uuid U] KERNEL_XML... -o FILE\n"
                    "       axl-xclbin kernel-xml SOURCE --top NAME "
                    "[-I DIR]... [-D NAME[=V]]...\n"
                    "                       [--vendor NAME] -o FILE\n");
    return 1;
}

static int info(const char *path, int json)
{
    unsigned char *data;
    size_t size;
    if (axl_read_file(path, &data, &size)) {
        fprintf(stderr, "axl-xclbin: %s: cannot read the file\n", path);
        return 1;
    }
    axl_xclbin x;
    char why[256];
    axl_status st = axl_xclbin_open(&x, data, size, why, sizeof why);
    if (st != AXL_SUCCESS) {
        fprintf(stderr, "axl-xclbin: %s: %s\n", path, why);
        free(data);
        return 2;
    }
    if (json)
        axl_info_print_json(stdout, path, &x);
    else
        axl_info_print(stdout, path, &x);
    free(data);
    return 0;
}

/* Writes through a temporary file so a failed run leaves no half image. */
static int write_file(const char *path, const unsigned char *p, size_t n)
{
    size_t len = strlen(path);
    char *tmp = malloc(len + 5);
    if (!tmp)
        return -1;
    memcpy(tmp, path, len);
    memcpy(tmp + len, ".tmp", 5);
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(p, 1, n, f) == n;
    if (f && fclose(f) != 0)
        ok = 0;
    if (ok && rename(tmp, path) != 0)
        ok = 0;
    if (!ok)
        remove(tmp);
    free(tmp);
    return ok ? 0 : -1;
}

/* The image built in memory: checked by our own reader, then written. */
static int finish(const char *what, unsigned char *img, size_t size,
                  const char *out)
{
    axl_xclbin x;
    char why[256];
    if (axl_xclbin_open(&x, img, size, why, sizeof why) != AXL_SUCCESS) {
        fprintf(stderr, "axl-xclbin: %s: the image is invalid: %s\n", what,
                why);
        free(img);
        return 2;
    }
    if (write_file(out, img, size)) {
        fprintf(stderr, "axl-xclbin: %s: cannot write the image\n", out);
        free(img);
        return 1;
    }
    free(img);
    return 0;
}

static int is_identifier(const char *s)
{
    if (!*s || (*s >= '0' && *s <= '9'))
        return 0;
    for (; *s; s++)
        if (!(*s == '_' || (*s >= 'a' && *s <= 'z') ||
              (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
            return 0;
    return 1;
}

/* The design of an image as C source, written through a temporary file. */
static int design(int argc, char **argv)
{
    if (argc != 6 || strcmp(argv[4], "-o") != 0 || !is_identifier(argv[3]))
        return usage();
    const char *path = argv[2], *symbol = argv[3], *out = argv[5];
    unsigned char *data;
    size_t size;
    if (axl_read_file(path, &data, &size)) {
        fprintf(stderr, "axl-xclbin: %s: cannot read the file\n", path);
        return 1;
    }
    axl_xclbin x;
    char why[256];
    if (axl_xclbin_open(&x, data, size, why, sizeof why) != AXL_SUCCESS) {
        fprintf(stderr, "axl-xclbin: %s: %s\n", path, why);
        free(data);
        return 2;
    }
    char *text = NULL;
    size_t text_size = 0;
    FILE *f = open_memstream(&text, &text_size);
    const char *base = strrchr(path, '/');
    char err[512] = "out of memory";
    int r = f ? axl_design_write(f, base ? base + 1 : path, symbol, &x, err,
                                 sizeof err)
              : 1;
    if (f && fclose(f) != 0 && r == 0)
        r = 1;
    free(data);
    if (r) {
        fprintf(stderr, "axl-xclbin: %s\n", err);
        free(text);
        return r;
    }
    r = write_file(out, (const unsigned char *)text, text_size);
    free(text);
    if (r) {
        fprintf(stderr, "axl-xclbin: %s: cannot write the source\n", out);
        return 1;
    }
    return 0;
}

/* --slot all: slot 0's image is linked; the others follow, each to
 * <out without .xclbin>_slot<N>.xclbin. */
static int link_all_slots(axl_link_options *o, unsigned char *img,
                          size_t size, const char *out, unsigned nslots)
{
    size_t n = strlen(out);
    if (n > 7 && strcmp(out + n - 7, ".xclbin") == 0)
        n -= 7;
    char *path = malloc(n + 32);
    if (!path) {
        free(img);
        fprintf(stderr, "axl-xclbin: link: out of memory\n");
        return 1;
    }
    int r = 0;
    for (unsigned s = 0; r == 0 && s < nslots; s++) {
        char err[512];
        o->slot = (int)s;
        if (s > 0 && axl_link(o, &img, &size, err, sizeof err)) {
            fprintf(stderr, "axl-xclbin: %s\n", err);
            r = 2;
            break;
        }
        snprintf(path, n + 32, "%.*s_slot%u.xclbin", (int)n, out, s);
        r = finish("link", img, size, path);
    }
    free(path);
    return r;
}

static int link_cmd(int argc, char **argv)
{
    const char **configs = calloc((size_t)argc, sizeof *configs);
    const char **kernels = calloc((size_t)argc, sizeof *kernels);
    unsigned nslots = 0;
    axl_link_options o = {configs, 0, kernels, 0, 0, NULL, NULL, -1, 0,
                          &nslots};
    const char *out = NULL;
    int bad = !configs || !kernels;
    for (int i = 2; !bad && i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (strcmp(a, "-o") == 0 && more)
            out = argv[++i];
        else if (strcmp(a, "--config") == 0 && more)
            configs[o.nconfigs++] = argv[++i];
        else if (strcmp(a, "--uuid") == 0 && more)
            o.uuid = argv[++i];
        else if (strcmp(a, "--platform") == 0 && more)
            o.platform = argv[++i];
        else if (strcmp(a, "--slot") == 0 && more) {
            const char *v = argv[++i];
            char *e;
            unsigned long n = strtoul(v, &e, 10);
            o.all_slots = strcmp(v, "all") == 0;
            bad = !o.all_slots && (!*v || *e || n > 255);
            o.slot = o.all_slots ? 0 : (int)n;
        } else if (strcmp(a, "--banks") == 0 && more) {
            char *e;
            unsigned long n = strtoul(argv[++i], &e, 10);
            bad = *e || n == 0 || n > 64;
            o.banks = (unsigned)n;
        } else if (a[0] != '-')
            kernels[o.nkernels++] = a;
        else
            bad = 1;
    }
    int r;
    if (bad || !out || o.nkernels == 0) {
        r = usage();
    } else {
        unsigned char *img;
        size_t size;
        char err[512];
        if (axl_link(&o, &img, &size, err, sizeof err)) {
            fprintf(stderr, "axl-xclbin: %s\n", err);
            r = 2;
        } else if (!o.all_slots) {
            r = finish("link", img, size, out);
        } else {
            r = link_all_slots(&o, img, size, out, nslots);
        }
    }
    free(configs);
    free(kernels);
    return r;
}

static int kernel_xml_cmd(int argc, char **argv)
{
    const char **inc = calloc((size_t)argc, sizeof *inc);
    const char **def = calloc((size_t)argc, sizeof *def);
    axl_kernel_xml_options o = {NULL, NULL, inc, 0, def, 0, NULL, 0, NULL};
    const char *out = NULL;
    int bad = !inc || !def;
    for (int i = 2; !bad && i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (strcmp(a, "-o") == 0 && more)
            out = argv[++i];
        else if (strcmp(a, "--top") == 0 && more)
            o.top = argv[++i];
        else if (strcmp(a, "--vendor") == 0 && more)
            o.vendor = argv[++i];
        else if (strcmp(a, "-I") == 0 && more)
            inc[o.nincludes++] = argv[++i];
        else if (strncmp(a, "-I", 2) == 0 && a[2])
            inc[o.nincludes++] = a + 2;
        else if (strcmp(a, "-D") == 0 && more)
            def[o.ndefines++] = argv[++i];
        else if (strncmp(a, "-D", 2) == 0 && a[2])
            def[o.ndefines++] = a + 2;
        else if (a[0] != '-' && !o.source)
            o.source = a;
        else
            bad = 1;
    }
    int r;
    if (bad || !o.source || !o.top || !out) {
        r = usage();
    } else {
        char *xml;
        size_t size;
        char err[512];
        if (axl_kernel_xml(&o, &xml, &size, err, sizeof err)) {
            fprintf(stderr, "axl-xclbin: %s\n", err);
            r = 2;
        } else {
            r = write_file(out, (const unsigned char *)xml, size);
            if (r) {
                fprintf(stderr, "axl-xclbin: %s: cannot write the XML\n",
                        out);
                r = 1;
            }
            free(xml);
        }
    }
    free(inc);
    free(def);
    return r;
}

static int pack(int argc, char **argv)
{
    const char *manifest = NULL, *out = NULL;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (!manifest && argv[i][0] != '-')
            manifest = argv[i];
        else
            return usage();
    }
    if (!manifest || !out)
        return usage();
    unsigned char *img;
    size_t size;
    char err[512];
    if (axl_pack_manifest(manifest, &img, &size, err, sizeof err)) {
        fprintf(stderr, "axl-xclbin: %s\n", err);
        return 2;
    }
    /* Never write an image our own reader would refuse. */
    axl_xclbin x;
    char why[256];
    if (axl_xclbin_open(&x, img, size, why, sizeof why) != AXL_SUCCESS) {
        fprintf(stderr, "axl-xclbin: %s: the packed image is invalid: %s\n",
                manifest, why);
        free(img);
        return 2;
    }
    if (write_file(out, img, size)) {
        fprintf(stderr, "axl-xclbin: %s: cannot write the image\n", out);
        free(img);
        return 1;
    }
    free(img);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "info") == 0)
        return info(argv[2], 0);
    if (argc == 4 && strcmp(argv[1], "info") == 0 &&
        strcmp(argv[2], "--json") == 0)
        return info(argv[3], 1);
    if (argc >= 2 && strcmp(argv[1], "pack") == 0)
        return pack(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "design") == 0)
        return design(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "link") == 0)
        return link_cmd(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "kernel-xml") == 0)
        return kernel_xml_cmd(argc, argv);
    return usage();
}
