/*
 * axl/xclbin.h - a zero-copy, bounds-checked reader of xclbin (axlf) images.
 *
 * An xclbin is the container AMD's tools write for an FPGA design: a header,
 * a table of sections, and the sections. axl reads the ones that describe
 * the design to software:
 *   MEM_TOPOLOGY         memory banks (DDR, HBM, PLRAM, ...)
 *   IP_LAYOUT            IPs; each IP_KERNEL entry is a compute unit, named
 *                        "kernel:instance", with its base address
 *   CONNECTIVITY         which bank each compute-unit argument reaches
 *   EMBEDDED_METADATA    the kernel XML: each kernel's arguments
 *   CLOCK_FREQ_TOPOLOGY  clocks (optional)
 * The layout is the one documented by XRT's xclbin.h (struct axlf).
 *
 * The reader never copies and never allocates: axl_xclbin_open() checks the
 * whole image once (every offset, length, count and index, and the XML it
 * reads) and keeps offsets into the caller's bytes, which must stay valid
 * and unchanged while the axl_xclbin is in use. It never reads outside the
 * bytes it was given. Strings are returned as axl_str views into the image:
 * they are NOT NUL-terminated.
 *
 * After a successful open, the getters can fail only on an index out of
 * range (AXL_ERR_INVALID).
 */
#ifndef AXL_XCLBIN_H
#define AXL_XCLBIN_H

#include <stddef.h>
#include <stdint.h>

#include "axl/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AXL_XCLBIN_UUID_SIZE 16

/** A view of characters inside the image; not NUL-terminated. */
typedef struct axl_str {
    const char *ptr;
    size_t len;
} axl_str;

/** A byte range of the image; size 0 when the section is absent. */
typedef struct axl_xclbin_range {
    size_t offset;
    size_t size;
} axl_xclbin_range;

/** What an image programs (the header's m_mode, enum XCLBIN_MODE in XRT's
 *  xclbin.h). A partial (PR) image programs one reconfigurable region of
 *  a shell and names that shell in interface_uuid. */
typedef enum axl_xclbin_mode {
    AXL_XCLBIN_FLAT = 0,           /**< the whole device */
    AXL_XCLBIN_PR = 1,             /**< a partial, for a shell's region */
    AXL_XCLBIN_TANDEM_STAGE2 = 2,
    AXL_XCLBIN_TANDEM_STAGE2_WITH_PR = 3,
    AXL_XCLBIN_HW_EMU = 4,
    AXL_XCLBIN_SW_EMU = 5,
    AXL_XCLBIN_HW_EMU_PR = 6
} axl_xclbin_mode;

/** A checked image. Fill it with axl_xclbin_open(); read it with getters. */
typedef struct axl_xclbin {
    const uint8_t *data;
    size_t size;
    uint8_t uuid[AXL_XCLBIN_UUID_SIZE];
    /** The header's m_mode (axl_xclbin_mode), as written: the reader
     *  refuses no value (tools differ in what they write). */
    uint16_t mode;
    /** The header's m_interface_uuid (offset 336; XRT 2.13's header calls
     *  these bytes rom_uuid): the shell a partial image is built for. All
     *  zero when the image names none. A flat image of an older flow may
     *  hold its feature ROM's platform and feature ids here: whether the
     *  bytes mean a shell is for the device to say, not the reader. */
    uint8_t interface_uuid[AXL_XCLBIN_UUID_SIZE];
    uint32_t section_count;
    axl_xclbin_range mem_topology;
    axl_xclbin_range ip_layout;
    axl_xclbin_range connectivity;
    axl_xclbin_range metadata;    /* EMBEDDED_METADATA: the kernel XML */
    axl_xclbin_range clocks;      /* CLOCK_FREQ_TOPOLOGY */
    uint32_t mem_count;
    uint32_t ip_count;
    uint32_t connection_count;
    uint32_t clock_count;
    uint32_t kernel_count;        /* <kernel> elements in the XML */
    /** A pre-digested design (axl_xclbin_open_design): the getters answer
     *  from it, and data is NULL. */
    const struct axl_xclbin_design *design;
} axl_xclbin;

/** Memory types of MEM_TOPOLOGY (enum MEM_TYPE in XRT's xclbin.h). */
typedef enum axl_xclbin_mem_type {
    AXL_XCLBIN_MEM_DDR3 = 0,
    AXL_XCLBIN_MEM_DDR4 = 1,
    AXL_XCLBIN_MEM_DRAM = 2,
    AXL_XCLBIN_MEM_STREAMING = 3,
    AXL_XCLBIN_MEM_PREALLOCATED_GLOB = 4,
    AXL_XCLBIN_MEM_ARE = 5,
    AXL_XCLBIN_MEM_HBM = 6,
    AXL_XCLBIN_MEM_BRAM = 7,
    AXL_XCLBIN_MEM_URAM = 8,
    AXL_XCLBIN_MEM_STREAMING_CONNECTION = 9,
    AXL_XCLBIN_MEM_HOST = 10,
    AXL_XCLBIN_MEM_PS_KERNEL = 11
} axl_xclbin_mem_type;

/** One memory bank (struct mem_data). */
typedef struct axl_xclbin_mem {
    uint8_t type;           /**< axl_xclbin_mem_type */
    uint8_t used;           /**< nonzero when the design uses the bank */
    uint64_t size;          /**< bytes (MEM_TOPOLOGY stores KiB) */
    uint64_t base_address;
    axl_str tag;            /**< "DDR[0]", "HBM[3]", "bank0", ... */
    /** For a MEM_STREAMING_CONNECTION entry (a stream between two units,
     *  see axl_xclbin_get_stream): the depth of the FIFO the link put on
     *  it (stream_connect=a.out:b.in:64), in beats, from the word XRT's
     *  xclbin.h calls route_id (size is 0 for such entries); 0 when the
     *  link gave none. 0 for every other entry. */
    uint32_t fifo_depth;
} axl_xclbin_mem;

/** IP types of IP_LAYOUT (enum IP_TYPE). Compute units are IP_KERNEL. */
typedef enum axl_xclbin_ip_type {
    AXL_XCLBIN_IP_MB = 0,
    AXL_XCLBIN_IP_KERNEL = 1,
    AXL_XCLBIN_IP_DNASC = 2,
    AXL_XCLBIN_IP_DDR4_CONTROLLER = 3,
    AXL_XCLBIN_IP_MEM_DDR4 = 4,
    AXL_XCLBIN_IP_MEM_HBM = 5
} axl_xclbin_ip_type;

/** Control protocols of a compute unit (enum IP_CONTROL). */
typedef enum axl_xclbin_ip_control {
    AXL_XCLBIN_AP_CTRL_HS = 0,
    AXL_XCLBIN_AP_CTRL_CHAIN = 1,
    AXL_XCLBIN_AP_CTRL_NONE = 2,
    AXL_XCLBIN_AP_CTRL_ME = 3,
    AXL_XCLBIN_ACCEL_ADAPTER = 4
} axl_xclbin_ip_control;

/** One IP (struct ip_data). For IP_KERNEL, name is "kernel:instance". */
typedef struct axl_xclbin_ip {
    uint32_t type;          /**< axl_xclbin_ip_type */
    uint32_t control;       /**< axl_xclbin_ip_control, for IP_KERNEL */
    uint32_t interrupt_id;
    uint8_t interrupt_enabled;
    uint64_t base_address;
    axl_str name;           /**< the whole m_name */
    axl_str kernel;         /**< part of the name before ':' (all of it if none) */
    axl_str instance;       /**< part after ':' (empty if none) */
} axl_xclbin_ip;

/** One CONNECTIVITY entry: argument arg_index of IP ip_index reaches bank mem_index. */
typedef struct axl_xclbin_connection {
    uint32_t arg_index;
    uint32_t ip_index;
    uint32_t mem_index;
} axl_xclbin_connection;

/** One clock of CLOCK_FREQ_TOPOLOGY. */
typedef struct axl_xclbin_clock {
    uint16_t freq_mhz;
    uint8_t type;           /**< 0 unused, 1 data, 2 kernel, 3 system */
    axl_str name;
} axl_xclbin_clock;

/** Argument address qualifiers of the kernel XML (attribute addressQualifier). */
typedef enum axl_xclbin_addr_qual {
    AXL_XCLBIN_ARG_SCALAR = 0,   /**< passed by value in the register map */
    AXL_XCLBIN_ARG_GLOBAL = 1,   /**< pointer to global memory (a buffer) */
    AXL_XCLBIN_ARG_CONSTANT = 2,
    AXL_XCLBIN_ARG_LOCAL = 3,
    AXL_XCLBIN_ARG_STREAM = 4
} axl_xclbin_addr_qual;

/** Which way a stream argument (addressQualifier 4) carries data, seen
 *  from its kernel: the mode of the <port> its arg names. */
typedef enum axl_xclbin_stream_dir {
    AXL_XCLBIN_STREAM_NONE = 0, /**< not a stream, or its port is not found */
    AXL_XCLBIN_STREAM_IN = 1,   /**< mode="read_only": the kernel consumes */
    AXL_XCLBIN_STREAM_OUT = 2   /**< mode="write_only": the kernel produces */
} axl_xclbin_stream_dir;

/** One kernel of the XML. xml_offset/xml_size locate its element. */
typedef struct axl_xclbin_kernel {
    axl_str name;
    uint32_t arg_count;     /**< <arg> elements */
    uint32_t cu_count;      /**< IP_KERNEL entries whose kernel part is name */
    uint32_t control;       /**< axl_xclbin_ip_control from hwControlProtocol
                                 (AP_CTRL_HS when absent) */
    size_t xml_offset;      /**< offset of "<kernel" in the image */
    size_t xml_size;        /**< bytes up to and including "</kernel>" or "/>" */
    /** Its vendor:library:name:version (attribute vlnv; empty when
     *  absent): "xilinx.com:hls:vadd:1.0" as Vitis HLS writes it, and
     *  "axl:hls:vadd:1.0" for axl's stock kernels (axl/kernels.h), which
     *  is how the emulated device knows a kernel its stock model runs. */
    axl_str vlnv;
} axl_xclbin_kernel;

/** One argument of a kernel (an <arg> element). */
typedef struct axl_xclbin_arg {
    axl_str name;
    uint32_t index;             /**< attribute id */
    uint32_t address_qualifier; /**< axl_xclbin_addr_qual */
    uint64_t offset;            /**< register offset in the control map */
    uint64_t size;              /**< bytes in the control map (8 for pointers) */
    uint64_t host_size;         /**< bytes the host passes */
    axl_str type;               /**< "int*", "float", "unsigned int", ... */
    /** For a stream (AXL_XCLBIN_ARG_STREAM): its direction and the width
     *  of TDATA in bits, from the <port> the arg names (mode read_only or
     *  write_only, dataWidth); NONE and 0 when that port is not there. A
     *  stream is never an argument the host sets: its peer is fixed by
     *  the design (axl_xclbin_port_stream). */
    uint8_t stream_dir;         /**< axl_xclbin_stream_dir */
    uint32_t stream_bits;
} axl_xclbin_arg;

/**
 * A stream between two compute units, joined by the link
 * (stream_connect=<producer cu>.<port>:<consumer cu>.<port>[:<depth>]).
 * In the image it is what v++ writes: a MEM_STREAMING_CONNECTION entry of
 * MEM_TOPOLOGY and the two CONNECTIVITY entries that name it, one for
 * each end's argument (XRT skips such entries when it places buffers).
 * Streams are numbered in MEM_TOPOLOGY order of their entries.
 */
typedef struct axl_xclbin_stream {
    uint32_t mem_index;     /**< its MEM_STREAMING_CONNECTION entry */
    uint32_t fifo_depth;    /**< beats (axl_xclbin_mem.fifo_depth); 0: none given */
    uint32_t producer_ip;   /**< IP_LAYOUT index of the unit that writes */
    uint32_t producer_arg;  /**< its argument's id (XML id) */
    uint32_t consumer_ip;   /**< IP_LAYOUT index of the unit that reads */
    uint32_t consumer_arg;
    /** TDATA bits of the producer's port (its axl_xclbin_arg.stream_bits);
     *  0 when the XML gives none. */
    uint32_t width_bits;
    /** Views into the design, for messages: the units' IP_LAYOUT names
     *  ("mm2s:mm2s_1") and their arguments' names ("out"); a port whose
     *  kernel the XML lacks has an empty name. */
    axl_str producer_unit, producer_port, consumer_unit, consumer_port;
} axl_xclbin_stream;

/** The instance in an IP_LAYOUT name ("sadd_1" of "sadd:sadd_1"); the
 *  whole name when it has no ':'. */
axl_str axl_xclbin_instance_of(axl_str ip_name);

/* ---- Pre-digested designs ------------------------------------------------------ */

/** One kernel of a pre-digested design: what axl_xclbin_get_kernel gives
 *  (xml_offset holds the kernel's index, xml_size 0) and its arguments in
 *  document order. */
typedef struct axl_xclbin_design_kernel {
    axl_xclbin_kernel kernel;
    const axl_xclbin_arg *args; /**< kernel.arg_count of them */
} axl_xclbin_design_kernel;

/**
 * A design as const data: every answer the getters give for an image,
 * already read. `axl-xclbin design FILE SYMBOL` writes one as C source
 * from an xclbin; a board whose design is known when its firmware is
 * built links it instead of the image's bytes (and, with
 * AXL_FEATURE_XCLBIN_READER 0, without the reader). Its strings are
 * axl_str views into the C source's own constants.
 */
typedef struct axl_xclbin_design {
    uint8_t uuid[AXL_XCLBIN_UUID_SIZE];
    uint32_t mem_count;
    uint32_t ip_count;
    uint32_t connection_count;
    uint32_t clock_count;
    uint32_t kernel_count;
    const axl_xclbin_mem *mems;
    const axl_xclbin_ip *ips;
    const axl_xclbin_connection *connections;
    const axl_xclbin_clock *clocks;
    const axl_xclbin_design_kernel *kernels;
    axl_str platform; /**< as axl_xclbin_get_platform gives it */
    uint16_t mode;    /**< axl_xclbin.mode (0: flat) */
    uint8_t interface_uuid[AXL_XCLBIN_UUID_SIZE]; /**< axl_xclbin.interface_uuid */
} axl_xclbin_design;

/**
 * Fills x from a pre-digested design, after checking it as axl_xclbin_open
 * checks an image: every count has its array, every index (a connection's
 * IP and bank, an argument's id) is in range, and each kernel's compute
 * unit count matches IP_LAYOUT. The design must stay valid while x is in
 * use. On failure x is zeroed, the status is AXL_ERR_INVALID and why (if
 * not NULL) says what is wrong.
 */
axl_status axl_xclbin_open_design(axl_xclbin *x, const axl_xclbin_design *d,
                                  char *why, size_t why_size);

/**
 * Checks a whole image and fills x. On failure x is zeroed, the status is
 * AXL_ERR_INVALID (or AXL_ERR_FEATURE_NOT_SUPPORTED for a well-formed image
 * of a kind axl does not read) and why (if not NULL) holds one line naming
 * what is wrong, such as "section 2 (IP_LAYOUT): m_count 1000000 needs
 * 80000008 bytes, the section has 88". In a build with the reader
 * switched off (AXL_FEATURE_XCLBIN_READER 0) it is
 * AXL_ERR_FEATURE_NOT_SUPPORTED for every image: such a build reads
 * designs only with axl_xclbin_open_design.
 */
axl_status axl_xclbin_open(axl_xclbin *x, const void *data, size_t size,
                           char *why, size_t why_size);

/** The name XRT gives a section kind (axlf_section_kind), or "unknown". */
const char *axl_xclbin_section_name(uint32_t kind);

/** Section kinds outside the five axl reads, for axl_xclbin_get_section
 *  (axlf_section_kind in XRT's xclbin.h). */
#define AXL_XCLBIN_SECTION_BITSTREAM 0u
#define AXL_XCLBIN_SECTION_PDI 18u
#define AXL_XCLBIN_SECTION_BITSTREAM_PARTIAL_PDI 19u
#define AXL_XCLBIN_SECTION_PARTITION_METADATA 20u

/**
 * The bytes of the first section of kind `kind` (the numbering of
 * axl_xclbin_section_name) in *out, as a range of x->data: a partial's
 * BITSTREAM for a loader (xilfpga, the FPGA manager), its
 * PARTITION_METADATA. A kind the image lacks gives AXL_SUCCESS and a
 * range of size 0. The range was checked at open (inside m_length, after
 * the section table). AXL_ERR_FEATURE_NOT_SUPPORTED for a pre-digested
 * design (it has no bytes), AXL_ERR_INVALID for a NULL argument.
 */
axl_status axl_xclbin_get_section(const axl_xclbin *x, uint32_t kind,
                                  axl_xclbin_range *out);

/** The name of an axl_xclbin_mode as XRT's enum spells it without its
 *  prefix, lower case ("flat", "pr", "hw_emu_pr"), or "unknown". */
const char *axl_xclbin_mode_name(uint32_t mode);

axl_status axl_xclbin_get_mem(const axl_xclbin *x, uint32_t index,
                              axl_xclbin_mem *out);
axl_status axl_xclbin_get_ip(const axl_xclbin *x, uint32_t index,
                             axl_xclbin_ip *out);
axl_status axl_xclbin_get_connection(const axl_xclbin *x, uint32_t index,
                                     axl_xclbin_connection *out);
axl_status axl_xclbin_get_clock(const axl_xclbin *x, uint32_t index,
                                axl_xclbin_clock *out);

/** The platform the design was built for: the header's m_platformVBNV
 *  ("xilinx_u250_gen3x16_xdma_4_1_202210_1"), a pre-digested design's
 *  `platform`; empty ({NULL, 0}) when it names none. */
axl_str axl_xclbin_get_platform(const axl_xclbin *x);

/** The index-th <kernel> of the XML, in document order. */
axl_status axl_xclbin_get_kernel(const axl_xclbin *x, uint32_t index,
                                 axl_xclbin_kernel *out);

/** The index-th <arg> of kernel k, in document order (not by id). */
axl_status axl_xclbin_get_kernel_arg(const axl_xclbin *x,
                                     const axl_xclbin_kernel *k,
                                     uint32_t index, axl_xclbin_arg *out);

/**
 * The IP_LAYOUT index of the cu-th compute unit of kernel k (cu counted in
 * IP_LAYOUT order among the IP_KERNEL entries whose kernel part is k's name).
 */
axl_status axl_xclbin_get_kernel_cu(const axl_xclbin *x,
                                    const axl_xclbin_kernel *k, uint32_t cu,
                                    uint32_t *ip_index);

/**
 * The banks argument arg_id (the XML id) of IP ip_index is connected to,
 * as a bit mask over MEM_TOPOLOGY indices 0..63. 0 when the argument has
 * no connection (a scalar, or a design without CONNECTIVITY).
 */
uint64_t axl_xclbin_arg_banks(const axl_xclbin *x, uint32_t ip_index,
                              uint32_t arg_id);

/** The streams of the design: how many there are (MEM_STREAMING_CONNECTION
 *  entries that two CONNECTIVITY entries name). O(banks x connections). */
uint32_t axl_xclbin_stream_count(const axl_xclbin *x);

/**
 * The index-th stream. Which end produces is told by the arguments'
 * direction (axl_xclbin_arg.stream_dir) where the XML gives it, else by
 * CONNECTIVITY order (the producer's entry first, as axl-xclbin link
 * writes them). AXL_ERR_INVALID for an index out of range.
 */
axl_status axl_xclbin_get_stream(const axl_xclbin *x, uint32_t index,
                                 axl_xclbin_stream *out);

/**
 * The stream that argument arg_id of IP ip_index is an end of: its index
 * in *stream_index (may be NULL). AXL_ERR_INVALID when the argument is on
 * no stream: not a stream argument, or a stream port left unconnected
 * (which axl-xclbin link refuses; an image from elsewhere may have one).
 * A message that names a stream and its connection is built from it:
 * the two units' names (axl_xclbin_get_ip) and their arguments' names
 * (the name views of axl_xclbin_stream), e.g. "mm2s:mm2s_1.out -> sadd:sadd_1.a
 * (FIFO of 64)".
 */
axl_status axl_xclbin_port_stream(const axl_xclbin *x, uint32_t ip_index,
                                  uint32_t arg_id, uint32_t *stream_index);

/** The name of a control protocol as the kernel XML writes it
 *  ("ap_ctrl_hs", "ap_ctrl_chain", "ap_ctrl_none", ...), or "unknown".
 *  An ap_ctrl_none unit has no start or done: it runs from reset, and
 *  the host never launches it. An ap_ctrl_chain unit can also be set to
 *  restart by itself (auto-restart, bit 7 of its control word). */
const char *axl_xclbin_control_name(uint32_t control);

/** 1 when s equals the NUL-terminated string z, else 0. */
int axl_str_eq(axl_str s, const char *z);

#ifdef __cplusplus
}
#endif

#endif /* AXL_XCLBIN_H */
