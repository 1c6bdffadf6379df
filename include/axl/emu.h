/*
 * axl/emu.h - C models of kernels for the emulated device.
 *
 * The emulated device runs a compute unit by calling the model registered
 * under the kernel's name (the stock ones in xrt/emu/models.c: vadd,
 * mmult, fir, conv2d, scale, nop, whose arguments and results
 * axl/kernels.h specifies; an application adds models of its own IPs
 * here). A stock model runs only axl's own kernel of its name, the one
 * whose kernel.xml declares vlnv "axl:hls:<name>:..." (share/axl/vitis):
 * an application's kernel named like a stock one (its own vadd) runs only
 * a model the application registers for it. A model sees device memory as the compute unit would: each
 * buffer argument points into the emulated memory bank the buffer lives
 * in, at the accessor's first byte, with the accessor's size. Scalars are
 * the bytes the host set, of the size the kernel metadata gives.
 *
 * Models run one at a time per compute unit, with no runtime lock held.
 * By default they run asynchronously, as kernels run on a board: on a
 * hosted build each compute unit has a worker thread of its own, so units
 * overlap and submit returns at once; on bare metal the waits run them
 * (the port's progress op). In the deterministic mode
 * (axl_emu_set_deterministic, or AXL_EMU_DETERMINISTIC=1) a model runs on
 * the thread that dispatches its command, in submission order, and a
 * debugger steps straight in. A model may call axl_fail(); the thread's
 * message is given back when the model returns.
 */
#ifndef AXL_EMU_H
#define AXL_EMU_H

#include <stddef.h>
#include <stdint.h>

#include "axl/types.h"

struct axl_xclbin_design;
struct axl_shell;

#ifdef __cplusplus
extern "C" {
#endif

/**
 * What backs a stream a model reads or writes (an AXI4-Stream port joined
 * to another unit's by the design's stream_connect): the emulated device
 * gives a bounded FIFO of the design's depth between two units that each
 * run on a worker of their own (docs/streaming.md, "The emulated
 * device"); the C-model simulator behind the mmio port gives the same
 * between its units' threads; a test may give its own. Each op moves one beat of the
 * stream's width and blocks until it can, or until the device gives up on
 * the pipeline, and then returns why: a deadlock found (every unit of the
 * pipeline blocked on a full or empty FIFO; the message names the units
 * and the FIFOs with their fill), a stop (AXL_EMU_STREAM_STOPPED), a
 * reset. A model returns such a status at once, as it got it.
 */
typedef struct axl_emu_stream_ops {
    axl_status (*read)(void *ctx, void *beat, bool *last);
    axl_status (*write)(void *ctx, const void *beat, bool last);
} axl_emu_stream_ops;

/** A stream end, as the device hands it to a model. */
typedef struct axl_emu_stream {
    const axl_emu_stream_ops *ops;
    void *ctx;
    uint32_t bytes;      /**< a beat's TDATA bytes (the port's dataWidth / 8) */
    bool out;            /**< the model writes it (mode write_only) */
    const char *name;    /**< "mm2s_1.data_out->sadd_1.data_in" */
} axl_emu_stream;

/** What a read or write returns when the pipeline was stopped: a
 *  free-running model returns it and ends, which is how it is told to. */
#define AXL_EMU_STREAM_STOPPED AXL_ERR_BAD_STATE

/** One argument of a call, in the order of the kernel's argument ids. */
typedef struct axl_emu_arg {
    uint32_t id;
    bool is_buffer;
    void *ptr;           /**< buffer: its bytes in the bank; scalar: NULL */
    uint64_t size;       /**< buffer: bytes reachable; scalar: bytes */
    const void *value;   /**< scalar: its bytes */
    /** A stream argument's end (is_buffer false, ptr and value NULL);
     *  NULL for every other argument. Read or write it with
     *  axl_emu_stream_read/axl_emu_stream_write. */
    const axl_emu_stream *stream;
} axl_emu_arg;

/** One invocation of a compute unit. */
typedef struct axl_emu_call {
    const char *kernel;  /**< the kernel's name */
    uint32_t cu;         /**< which of its compute units */
    uint32_t arg_count;
    const axl_emu_arg *args;
} axl_emu_call;

/**
 * A model. Return AXL_SUCCESS, or a failure (axl_fail() adds a message),
 * which fails the command like a kernel that reported an error. Returning
 * AXL_EMU_HANG makes the compute unit never finish, as a hung accelerator
 * would: the runtime gives up after the queue's timeout. A model that is
 * still running at its timeout keeps its unit busy until it returns; what
 * it returns then is discarded (the command has failed with
 * AXL_ERR_TIMEOUT).
 */
typedef axl_status (*axl_emu_model_fn)(const axl_emu_call *call, void *user);

#define AXL_EMU_HANG AXL_ERR_TIMEOUT

/**
 * Registers (or replaces) the model of a kernel by name: every kernel of
 * that name runs it, axl's stock kernel of the name included. A kernel is
 * compatible with the emulated device when it has a model (a stock model
 * counts only for axl's own kernel). fn NULL puts back the stock model of
 * that name, or removes the model if there is none; a name keeps its
 * place in the table after its model is removed (a compute unit opened
 * on it may still look there), so AXL_EMU_MAX_MODELS bounds the names an
 * application registers over its life. AXL_ERR_OUT_OF_RESOURCES past it.
 */
axl_status axl_emu_register_model(const char *kernel, axl_emu_model_fn fn,
                                  void *user);

/**
 * The design the emulated device carries from start-up (its built-in
 * kernels), instead of the one its board names. Call before the runtime
 * starts; NULL gives a device with no design. The bytes are read in place.
 */
axl_status axl_emu_set_builtin_image(const void *bytes, size_t size);

/**
 * The same with a pre-digested design (axl-xclbin design): the device
 * carries it from start-up, with the same kernel ids, names and answers
 * as the image it was written from. Call before the runtime starts; it
 * replaces a design set by axl_emu_set_builtin_image, and the reverse.
 */
axl_status axl_emu_set_builtin_design(const struct axl_xclbin_design *design);

/**
 * Chooses how the emulated device runs models. Off (the default):
 * asynchronously, as a board runs kernels: submit returns at once, each
 * compute unit runs its model on a worker thread of its own (bare metal:
 * from the waits, through the port's progress), and units overlap. On:
 * deterministically, each model inside the submit (or wait) that
 * dispatches its command, in submission order, on that thread. A hosted
 * build reads AXL_EMU_DETERMINISTIC=1 from the environment at the first
 * run unless this was called. Applies to runs started after the call.
 */
axl_status axl_emu_set_deterministic(bool on);

/**
 * Whether the emulated devices reprogram on demand (issue 40,
 * docs/designs-design.md 2): on (the default), bundles of several designs
 * live side by side and a command whose design is not loaded waits for
 * its turn, the device is reprogrammed and the command runs, buffers
 * kept. Off: a device behaves as one that cannot swap, and a bundle of
 * another design is refused while one is held. Applies to devices opened
 * after the call (call it before the first axl call, or after
 * axl_shutdown). Only in builds with AXL_FEATURE_DESIGN_SWAP (not the
 * zcu102-r5 board's), where nothing swaps.
 */
axl_status axl_emu_set_swaps(bool on);

/**
 * Gives the emulated devices opened from now on a DFX shell (issue 40,
 * axl/shell.h, docs/designs-design.md 3.1): its slots take partial
 * designs of that shell, each beside the others and beside the device's
 * built-in design (the static part). `shell` is checked
 * (axl_shell_check: AXL_ERR_INVALID naming what is wrong, nothing
 * changed) and must stay valid while those devices are open. NULL: no
 * shell from the application; a hosted build then reads
 * AXL_EMU_SHELL=<preset> ("k26_2rp", axl_shell_find) when a device
 * opens. Call it before the first axl call or after axl_shutdown; a
 * device already open keeps what it had. Only in builds with
 * AXL_FEATURE_DESIGN_SWAP.
 */
axl_status axl_emu_set_shell(const struct axl_shell *shell);

/**
 * Limits of a hosted build's emulated device (DESIGN.md, "The emulated
 * device"). There its memory banks are the design's: when a device is
 * programmed (and at start-up, for the design it comes with) each used
 * bank of MEM_TOPOLOGY becomes one, in order, with its tag, base address
 * and size, its storage reserved from the OS at the bank's first
 * allocation. These limits keep a design within what the host should
 * give: a design with more banks than max_banks is refused when it is
 * programmed, naming the limit; a bank larger than max_bank_bytes is
 * emulated at that size (its allocations fail past it, as on a smaller
 * board). A device with no design has the board's AXL_EMU_BANKS banks of
 * AXL_EMU_BANK_SIZE, capped the same way.
 */
typedef struct axl_emu_limits {
    uint32_t max_banks;      /**< 0: 64, the most a device has */
    uint64_t max_bank_bytes; /**< 0: AXL_EMU_MAX_BANK_BYTES (1 GiB) */
} axl_emu_limits;

/**
 * Sets the limits, which apply from the next programming of a device (or
 * the next start). NULL goes back to the environment's, read at each
 * start of the runtime: AXL_EMU_MAX_BANKS, and AXL_EMU_MAX_BANK_BYTES in
 * bytes or with a K, M or G suffix (binary); unset, the defaults. A bare-
 * metal build's banks are static (AXL_EMU_BANKS x AXL_EMU_BANK_SIZE):
 * AXL_ERR_FEATURE_NOT_SUPPORTED there.
 */
axl_status axl_emu_set_limits(const axl_emu_limits *limits);

/** The limits in force: the application's, else the environment's or
 *  the defaults (0 fields filled in). */
axl_status axl_emu_get_limits(axl_emu_limits *limits);

/**
 * Whether a model that writes a buffer its command gave read-only
 * (AXL_ARG_IN, AXL_ACCESS_READ) fails that command, with
 * AXL_ERR_KERNEL_ARGUMENT and a message naming the argument. On a board
 * such a kernel writes memory nothing brings back, so the host reads stale
 * data in silence; the emulated device says so. It costs a hash of each
 * read-only buffer before and after the model (see docs/design.md for
 * the figure); a read-only buffer that the same run also writes through
 * another argument is not checked. The default is AXL_EMU_CHECK_READ_ONLY
 * (on in host-emu, the board CI builds; off elsewhere), or
 * AXL_EMU_CHECK_READ_ONLY=0/1 in a hosted build's environment at start.
 * Applies to runs started after the call. A bare-metal build with
 * AXL_EMU_CHECK_READ_ONLY 0 carries no check: turning it on there is
 * AXL_ERR_FEATURE_NOT_SUPPORTED.
 */
axl_status axl_emu_check_read_only(bool on);

/**
 * The platform the emulated device stands in for (the VBNV an xclbin's
 * header names, "xilinx_u250_gen3x16_xdma_4_1_202210_1"). When a device
 * is programmed with a design built for another platform, a warning log
 * line names both (the banks and units are the design's; what the real
 * platform would do with it is not checked). NULL goes back to
 * AXL_EMU_PLATFORM from a hosted build's environment, else the platform
 * of the design the device comes with. Designs of axl's own emulation
 * platform (names beginning "axl_emu", what axl-xclbin link writes when
 * no platform is named) are taken for any. Applies from the next start.
 * Hosted builds only (a bare-metal firmware links its designs):
 * AXL_ERR_FEATURE_NOT_SUPPORTED on bare metal.
 */
axl_status axl_emu_set_platform(const char *vbnv);

/** A buffer argument's bytes, or NULL when id is not a buffer argument or
 *  has fewer than min_bytes. */
void *axl_emu_buffer(const axl_emu_call *call, uint32_t id,
                     uint64_t min_bytes);

/** A 32-bit scalar argument, or AXL_ERR_KERNEL_ARGUMENT. */
axl_status axl_emu_u32(const axl_emu_call *call, uint32_t id, uint32_t *out);

/** A float scalar argument, or AXL_ERR_KERNEL_ARGUMENT. */
axl_status axl_emu_f32(const axl_emu_call *call, uint32_t id, float *out);

/**
 * Reads one beat of stream argument id into beat (the stream's bytes of
 * TDATA) and its TLAST into *last (may be NULL). Blocks while the FIFO is
 * empty. AXL_ERR_KERNEL_ARGUMENT when id is not a stream the model reads;
 * else what the stream's backend says (axl_emu_stream_ops): AXL_SUCCESS,
 * or why the device gave up on the pipeline, which the model returns.
 */
axl_status axl_emu_stream_read(const axl_emu_call *call, uint32_t id,
                               void *beat, bool *last);

/** Writes one beat (and its TLAST) to stream argument id; blocks while
 *  the FIFO is full. As axl_emu_stream_read otherwise. */
axl_status axl_emu_stream_write(const axl_emu_call *call, uint32_t id,
                                const void *beat, bool last);

/**
 * axl's stream kernels (bitstreams/streams: the HLS sources, whose RTL is
 * bitstreams/rtl), as C models: mm2s (src, data_out, n), sadd (data_in,
 * data_out, addend: until TLAST), s2mm (data_in, dst, n) and the
 * free-running sinc (data_in, data_out, inc: until stopped). Register
 * them by name with axl_emu_register_model where a device runs streams.
 */
axl_status axl_emu_model_mm2s(const axl_emu_call *call, void *user);
axl_status axl_emu_model_sadd(const axl_emu_call *call, void *user);
axl_status axl_emu_model_s2mm(const axl_emu_call *call, void *user);
axl_status axl_emu_model_sinc(const axl_emu_call *call, void *user);

#ifdef __cplusplus
}
#endif

#endif /* AXL_EMU_H */
