/*
 * The packer: builds an xclbin (axlf) image from a manifest.
 *
 * Manifest: one directive per line, `#` starts a comment line, blank lines
 * are ignored, fields are separated by blanks, paths are relative to the
 * manifest's folder.
 *
 *   uuid      5b6fd2a4-6a9a-4bd1-8c3e-0d3c1f0a7a11    (required)
 *   platform  xilinx_zcu102_base_202210_1             (m_platformVBNV)
 *   timestamp 0          (m_timeStamp and m_uniqueId; default 0)
 *   version   2.13.0     (xclbin version MAJOR.MINOR.PATCH; default 2.13.0)
 *   mode      flat       (flat pr tandem_stage2 tandem_stage2_with_pr
 *                         hw_emu sw_emu hw_emu_pr; default flat)
 *   interface_uuid UUID  (m_interface_uuid: the shell a partial is for;
 *                         default none, all zero)
 *   section   KIND FORMAT FILE [NAME]
 *
 * `section` mirrors `xclbinutil --add-section KIND:FORMAT:FILE`: KIND is a
 * section kind name (MEM_TOPOLOGY, IP_LAYOUT, BITSTREAM, ...), FORMAT is
 * `raw` (the file's bytes) or `json` (the JSON `xclbinutil --dump-section
 * KIND:JSON:file` writes, for MEM_TOPOLOGY, ASK_GROUP_TOPOLOGY, IP_LAYOUT,
 * CONNECTIVITY, ASK_GROUP_CONNECTIVITY, CLOCK_FREQ_TOPOLOGY and
 * DEBUG_IP_LAYOUT). NAME is the 15-character section name; like
 * xclbinutil it defaults to the file name without folder and extension.
 * Sections are written in manifest order, each aligned to 8 bytes.
 *
 * Nothing depends on the clock, the user or the machine: the same manifest
 * and files give the same bytes.
 */
#ifndef AXL_XCLBIN_PACK_H
#define AXL_XCLBIN_PACK_H

#include <stddef.h>

/**
 * Builds the image described by the manifest at path. On success returns
 * 0 and a malloc'd image in *out (free it); on failure returns -1 with a
 * one-line reason in err.
 */
int axl_pack_manifest(const char *path, unsigned char **out, size_t *out_size,
                      char *err, size_t err_size);

/** One section from memory: kind by name ("MEM_TOPOLOGY"), the section
 *  name (15 characters), json (the xclbinutil JSON of the kind) or raw. */
typedef struct axl_pack_section {
    const char *kind;
    const char *name;
    int json;
    const void *data;
    size_t size;
} axl_pack_section;

/** An image from sections in memory (axl-xclbin link); `what` names the
 *  input in messages. Version 2.13.0, mode flat, timestamp 0. */
typedef struct axl_pack_input {
    const char *what;
    unsigned char uuid[16];
    const char *platform;
    const axl_pack_section *sections;
    unsigned count;
    unsigned mode;                     /* m_mode: 0 flat, 1 pr, ... */
    unsigned char interface_uuid[16];  /* m_interface_uuid; zero: none */
} axl_pack_input;

/** As axl_pack_manifest, from sections in memory. */
int axl_pack_image(const axl_pack_input *in, unsigned char **out,
                   size_t *out_size, char *err, size_t err_size);

/** Reads a whole file into a malloc'd buffer (NUL-terminated for text). */
int axl_read_file(const char *path, unsigned char **out, size_t *size);

#endif
