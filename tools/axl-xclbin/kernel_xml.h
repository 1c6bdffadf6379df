/*
 * axl-xclbin kernel-xml: the kernel.xml `v++ -c` puts in a kernel's .xo,
 * from the HLS C/C++ source, for a CI without Vitis.
 *
 *   axl-xclbin kernel-xml kernel.cpp --top NAME [-I DIR]... [-D NAME[=V]]...
 *                         [--vendor NAME] -o kernel.xml
 *
 * It reads the top function's signature and the `#pragma HLS INTERFACE`
 * lines of its body and lays the control registers out as the RTL Vitis
 * HLS generates does. The rules it implements, the facts they were checked
 * against and what it refuses are in docs/vitis.md ("kernel.xml from the
 * HLS source"). Refusals are one line: file:line: what and why.
 */
#ifndef AXL_XCLBIN_KERNEL_XML_H
#define AXL_XCLBIN_KERNEL_XML_H

#include <stddef.h>

typedef struct axl_kernel_xml_options {
    const char *source;                /* the kernel's .cpp/.c */
    const char *top;                   /* the top function's name */
    const char *const *includes;       /* -I folders for #include "..." */
    unsigned nincludes;
    const char *const *defines;        /* -D NAME or NAME=VALUE */
    unsigned ndefines;
    const char *text;                  /* NULL: read source; else its text */
    size_t text_size;
    /* The vendor of the kernel's VLNV (<vendor>:hls:<top>:1.0), as Vitis
     * HLS's `config_export -vendor` sets it; NULL: xilinx.com, its
     * default. axl's stock kernels say axl: the emulated device runs its
     * stock model only for a kernel of that VLNV. */
    const char *vendor;
} axl_kernel_xml_options;

/** The XML; 0 and a malloc'd NUL-terminated text, or -1 and a reason. */
int axl_kernel_xml(const axl_kernel_xml_options *o, char **xml,
                   size_t *size, char *err, size_t err_size);

#endif
