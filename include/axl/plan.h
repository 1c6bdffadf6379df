/*
 * axl/plan.h - plans: an executable graph written down as const C data on
 * the host, and replayed on a board by a small executor (DESIGN.md, "One
 * launch mechanism" and "Small firmware").
 *
 * On the host, with the full runtime and the board's design:
 *
 *     axl_graph_exec x;                 // finalized: every rule checked
 *     axl_plan_write_file(x, "filter", "filter_plan.c");
 *
 * writes `const axl_plan filter;` as C source: per node the unit it runs
 * on and each argument register's value or where it comes from (a buffer
 * and an offset, a scalar), the edges, and per buffer its size, bank,
 * alignment and what the caches need. On the board, the firmware links
 * that file, the executor (xrt/mmio/fw_exec.c), the mmio port's unit code
 * and the OS port, and nothing of the core but its formatter and status
 * names:
 *
 *     axl_plan_id p;
 *     axl_plan_load(&filter, &p);       // checks the design's UUID, banks
 *     uint32_t *in;
 *     axl_plan_buffer(p, 0, (void **)&in, NULL);
 *     fill(in);
 *     axl_plan_set_scalar(p, 1, 3, &taps, sizeof taps);
 *     axl_plan_run r;
 *     axl_plan_submit(p, &r);
 *     axl_plan_wait(r, 1000000);        // or axl_plan_poll
 *
 * A plan replays exactly the graph's nodes, in recording order, each
 * kernel run on the unit written in it, with the same executor the
 * runtime replays every executable graph with (core/exec.c). Copies and
 * host tasks are not in a plan (its buffers live where the CPU reaches
 * them: the firmware reads and writes them in place): a graph of kernel
 * nodes (and empty ones, which only order) is written, of any size, and
 * (format 3) the starts and stops of streaming pipelines it recorded
 * (axl/pipeline.h): the pipeline's auto-restart and free-running units
 * and their scalar words, which the executor starts and stops with the
 * mmio port's register sequence (xrt/mmio/fw_pipe.c, docs/plans.md,
 * "Pipelines").
 *
 * Threads: one thread drives a plan (submit, wait, poll, updates); a
 * unit's interrupt may end its runs from interrupt context.
 */
#ifndef AXL_PLAN_H
#define AXL_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "axl/graph.h"
#include "axl/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The format a plan is written in. 2 added the buffers' and nodes'
 *  names (axl_plan.buffer_names, node_names) and node kinds and runs (a
 *  node of several unit runs), all fields a plan of format 1 leaves zero
 *  (it loads as before). 3 added pipelines (axl_plan.pipes and the
 *  PIPE_START, PIPE_STOP nodes that index them), fields a plan of format
 *  1 or 2 leaves zero (it loads as before; one that holds a pipeline node
 *  is refused, naming its format). A loader refuses any other. */
#define AXL_PLAN_FORMAT 3u

/** What a node is (axl_plan_node.kind). */
enum axl_plan_node_kind {
    AXL_PLAN_NODE_KERNEL = 0, /**< runs of a kernel (format 1: every node) */
    AXL_PLAN_NODE_EMPTY = 1,  /**< only orders (a group with no action) */
    AXL_PLAN_NODE_HOST = 2,   /**< a host task, copy or fill: the runtime's
                                   replay only; never written, and a
                                   loader refuses it */
    AXL_PLAN_NODE_PIPE_START = 3, /**< a recorded axl_pipeline_start
                                   (format 3): `unit` is its index in
                                   axl_plan.pipes */
    AXL_PLAN_NODE_PIPE_STOP = 4   /**< a recorded axl_pipeline_stop (as
                                   PIPE_START) */
};

/** One run of a node of several (a recorded parallel_for's chunks): its
 *  unit and its arguments, as a node's own. */
typedef struct axl_plan_node_run {
    uint16_t unit;       /**< index in units[] */
    uint16_t arg0, nargs; /**< args[arg0, arg0 + nargs) */
} axl_plan_node_run;

/** A compute unit a plan drives. */
typedef struct axl_plan_unit {
    uint32_t ip_index;   /**< its IP_LAYOUT index */
    uint32_t chain;      /**< 1: ap_ctrl_chain, 0: ap_ctrl_hs */
    uint64_t base;       /**< IP_LAYOUT's base (the board may remap it) */
    const char *name;    /**< "vadd:vadd_1", for messages */
} axl_plan_unit;

/** How a pipeline's unit is controlled (axl_plan_pipe_unit.control). */
enum axl_plan_pipe_control {
    AXL_PLAN_PIPE_AUTO_RESTART = 0, /**< ap_ctrl_chain on auto-restart:
                                         started with ap_start |
                                         auto_restart (0x81), stopped by
                                         clearing it and waiting for
                                         ap_idle */
    AXL_PLAN_PIPE_AUTO_RESTART_HS = 1, /**< the same on ap_ctrl_hs (no
                                         ap_continue at the stop) */
    AXL_PLAN_PIPE_FREE_RUNNING = 2  /**< ap_ctrl_none: its scalars written,
                                         never its control word */
};

/** One scalar register word a pipeline's start writes into its unit. */
typedef struct axl_plan_pipe_word {
    uint16_t offset;     /**< register offset in the unit's control space */
    uint32_t value;      /**< the word, as axl_pipeline_set_arg set it */
} axl_plan_pipe_word;

/** An auto-restart or free-running unit of a pipeline (a command unit's
 *  runs are the plan's kernel nodes). */
typedef struct axl_plan_pipe_unit {
    uint32_t ip_index;   /**< its IP_LAYOUT index */
    uint32_t control;    /**< axl_plan_pipe_control */
    uint64_t base;       /**< IP_LAYOUT's base (the board may remap it) */
    const char *name;    /**< "sadd:sadd_1", for messages */
    uint16_t word0, nwords; /**< its scalars: pipe_words[word0, +nwords) */
} axl_plan_pipe_unit;

/** A pipeline a plan starts and stops: its units in start order
 *  (consumers first), as axl_pipeline_start takes them. */
typedef struct axl_plan_pipe {
    uint16_t unit0, nunits; /**< pipe_units[unit0, unit0 + nunits) */
    uint64_t stop_timeout_ns; /**< its stop's wait for ap_idle (0: 1 s) */
} axl_plan_pipe;

struct axl_plan;

/** The executor's pipeline code (xrt/mmio/fw_pipe.c), reached only through
 *  a plan that holds a pipeline (axl_plan.pipelines = &axl_plan_pipelines):
 *  a firmware whose plans hold none links none of it, and one built with
 *  AXL_FEATURE_STREAMS 0 fails to link such a plan. */
typedef struct axl_plan_pipe_ops {
    /* Load: the tables checked, the units mapped. */
    axl_status (*load)(const struct axl_plan *plan);
    /* Node n (PIPE_START or PIPE_STOP) replayed; a failure's message (in
     * axl_last_message) names the unit. */
    axl_status (*run)(const struct axl_plan *plan, uint32_t n);
} axl_plan_pipe_ops;

extern const axl_plan_pipe_ops axl_plan_pipelines;

/** What a buffer needs of the caches (axl_plan_buffer_desc.flags). */
enum axl_plan_buffer_flags {
    AXL_PLAN_READ = 1u,      /**< a unit reads it: cleaned before a run */
    AXL_PLAN_WRITE = 2u,     /**< a unit writes it: invalidated after */
    AXL_PLAN_UPDATABLE = 4u  /**< axl_plan_set_buffer may replace it */
};

/** A buffer of a plan: placed at load in its bank's region. */
typedef struct axl_plan_buffer_desc {
    uint64_t size;       /**< bytes */
    uint32_t bank;       /**< MEM_TOPOLOGY index */
    uint32_t align;      /**< bytes, a power of two */
    uint32_t flags;      /**< axl_plan_buffer_flags */
} axl_plan_buffer_desc;

/** What an argument register is given. */
enum axl_plan_arg_kind {
    AXL_PLAN_ARG_SCALAR = 0, /**< bytes of the plan's scalars */
    AXL_PLAN_ARG_BUFFER = 1  /**< a buffer's device address + offset */
};

/** One argument register of a node. */
typedef struct axl_plan_arg {
    uint32_t id;         /**< the kernel argument's index */
    uint16_t offset;     /**< register offset in the unit's control space */
    uint8_t size;        /**< register bytes (4, 8, or more for a struct) */
    uint8_t kind;        /**< axl_plan_arg_kind */
    uint32_t ref;        /**< buffer index, or first byte in scalars[] */
    uint32_t bytes;      /**< scalar: its bytes (<= size) */
    uint64_t at;         /**< buffer: byte offset of the argument in it */
} axl_plan_arg;

/** One node: after its preds have ended, a kernel node runs `unit` with
 *  its arguments, or (nruns > 1) each of runs[run0, run0 + nruns). */
typedef struct axl_plan_node {
    uint16_t unit;       /**< index in units[] */
    uint16_t arg0, nargs;   /**< its arguments: args[arg0, arg0 + nargs) */
    uint16_t pred0, npreds; /**< earlier nodes it waits for:
                                 preds[pred0, pred0 + npreds) */
    const char *kernel;  /**< the kernel's name, for messages */
    uint8_t kind;        /**< axl_plan_node_kind (format 1: 0) */
    uint16_t run0, nruns; /**< nruns > 1: its runs; else the one run
                               unit, arg0 and nargs say (format 1: 0) */
} axl_plan_node;

/** A plan: what axl_plan_write_file writes, as const data. */
typedef struct axl_plan {
    uint32_t format;     /**< AXL_PLAN_FORMAT */
    const char *name;
    uint8_t uuid[16];    /**< the design's (its xclbin's m_header.uuid) */
    uint16_t nunits, nbuffers, nnodes, nargs, npreds;
    uint16_t scalar_bytes;
    const axl_plan_unit *units;
    const axl_plan_buffer_desc *buffers;
    const axl_plan_node *nodes; /**< in an order that respects the edges */
    const axl_plan_arg *args;
    const uint16_t *preds;
    const uint8_t *scalars;     /**< the scalars as recorded */
    /** Format 2: the names given when writing (axl_plan_write_named), one
     *  per buffer and one per node, NULL where none was given; each table
     *  NULL when no name was (and in a plan of format 1). */
    const char *const *buffer_names;
    const char *const *node_names;
    const axl_plan_node_run *runs; /**< format 2: nodes' runs, or NULL */
    uint16_t nruns;
    /** Format 3: the pipelines its PIPE_START and PIPE_STOP nodes index,
     *  their units and the units' scalar words; all NULL (and `pipelines`
     *  too) when it holds no pipeline node. */
    uint16_t npipes, npipe_units, npipe_words;
    const axl_plan_pipe *pipes;
    const axl_plan_pipe_unit *pipe_units;
    const axl_plan_pipe_word *pipe_words;
    const axl_plan_pipe_ops *pipelines; /**< &axl_plan_pipelines */
} axl_plan;

/* ------------------------------------------------------------------------ */
/* Writing a plan (the host, with the full runtime: core/plan.c)             */
/* ------------------------------------------------------------------------ */

/**
 * Writes the executable graph x as C source defining `const axl_plan
 * <name>` (name a C identifier, at most 55 characters: its tables are
 * <name>_units, <name>_buffers, ...) into dst, NUL-terminated; *len (may
 * be NULL when cap > 0) gets the length the whole text needs, without
 * the NUL, as snprintf says it: a call with cap 0 (dst may be NULL)
 * writes nothing and only sizes it (AXL_SUCCESS). Each unit, buffer, node
 * and argument is commented (kernel, unit, argument name, the nodes that
 * use a buffer). The text depends only on the graph and the design, so
 * the same program writes the same bytes.
 *
 * Statuses, each with a message naming the call: AXL_ERR_INVALID, dst
 * and *len untouched, when a node is a host task, copy or fill (the
 * message names it), x has no kernel node, its device carries another
 * design than its kernels' now, a unit is neither ap_ctrl_hs nor
 * ap_ctrl_chain, a pipeline is of another design or a scalar of one of
 * its units is not set, or name is not an identifier;
 * AXL_ERR_INVALID_OBJECT when a node's kernel, buffer or pipeline was
 * released;
 * AXL_ERR_OUT_OF_RESOURCES when cap > 0 is too small (dst holds "", *len
 * the length needed); AXL_ERR_FEATURE_NOT_SUPPORTED with
 * AXL_FEATURE_GRAPHS 0.
 *
 * What is written, from what finalize checked and built (the graph's
 * plan, which the runtime's replays walk too):
 * - nodes in recording order (which respects the edges), each with the
 *   earlier nodes it waits for (none implied by another);
 * - per node the unit, chosen at finalize, once: the first of its kernel's
 *   units (those its kernel object may use) that reaches its buffers'
 *   banks and that no node it could run beside (neither its ancestor
 *   nor its descendant) was given; failing that, the one such nodes were
 *   given least. Two independent nodes of a kernel with two units get
 *   one each; a chain stays on the first;
 * - per argument register (the kernel XML's id, offset and size): a
 *   scalar's bytes as recorded, or a plan buffer and the offset the
 *   launch gives the unit in it (a sub-buffer's in its base);
 * - one plan buffer per base buffer the nodes use: its size, its bank
 *   (MEM_TOPOLOGY index) where finalize placed it, an alignment of at
 *   least the device's mem_base_addr_align and a cache line (64 bytes),
 *   READ and WRITE from every node's access modes, and UPDATABLE;
 * - per pipeline a start or stop node names (format 3): its auto-restart
 *   and free-running units in start order (consumers first), each with
 *   its IP_LAYOUT index and base, its control and the register words of
 *   the scalars axl_pipeline_set_arg gave it (the values now, not at
 *   recording), and its stop timeout; the plan then sets
 *   .pipelines = &axl_plan_pipelines (a plan with none does not: it is
 *   written as in format 2 but for the number);
 * - the design's UUID.
 */
axl_status axl_plan_write(axl_graph_exec x, const char *name, char *dst,
                          size_t cap, size_t *len);

/** A name for a plan's buffer or node, given when writing it: exactly one
 *  of buffer and node is set (the other {0}). */
typedef struct axl_plan_name {
    const char *name;    /**< a C identifier of at most 31 characters */
    axl_buffer buffer;   /**< a buffer the nodes use (or a sub-buffer of
                              it): names the plan buffer of its base */
    axl_graph_node node; /**< a kernel node of the graph (or of x) */
} axl_plan_name;

/**
 * axl_plan_write with names: each names[i] names the plan buffer its
 * buffer handle became, or the plan node its node handle became, in the
 * written tables (axl_plan.buffer_names, node_names), so a
 * firmware finds them with axl_plan_find_buffer / axl_plan_find_node
 * instead of indices (which follow the order the graph first used them).
 * names may be NULL when count is 0 (then this is axl_plan_write).
 * AXL_ERR_INVALID, naming the entry, when a name is not an identifier or
 * given twice (among buffers, among nodes), an entry sets neither or both
 * handles, or its buffer is none the nodes use or its node not one of the
 * graph's kernel nodes; AXL_ERR_INVALID_OBJECT for a stale handle; else
 * axl_plan_write's statuses.
 */
axl_status axl_plan_write_named(axl_graph_exec x, const char *name,
                                const axl_plan_name *names, uint32_t count,
                                char *dst, size_t cap, size_t *len);

/**
 * axl_plan_write into the file at path, written whole or not at all
 * (through "<path>.tmp", renamed over it). Hosted builds only (the POSIX
 * OS port's): a bare-metal build has no file system, and no such call
 * (linking it fails, at build time rather than on the board).
 * AXL_ERR_RUNTIME naming the path and the reason when it cannot be
 * written; axl_plan_write's statuses, the message naming this call.
 */
axl_status axl_plan_write_file(axl_graph_exec x, const char *name,
                               const char *path);

/** axl_plan_write_file with names (axl_plan_write_named). */
axl_status axl_plan_write_file_named(axl_graph_exec x, const char *name,
                                     const axl_plan_name *names,
                                     uint32_t count, const char *path);

/* ------------------------------------------------------------------------ */
/* Replaying a plan (the board: xrt/mmio/fw_exec.c, beside the mmio port)       */
/* ------------------------------------------------------------------------ */

/** A loaded plan: a slot and a generation (0 is none). */
typedef struct axl_plan_id {
    uint32_t id;
} axl_plan_id;

/** One submission of a loaded plan. */
typedef struct axl_plan_run {
    uint32_t plan;       /**< the plan's id */
    uint32_t seq;        /**< its submission number */
} axl_plan_run;

/**
 * Loads a plan: checks its format, that it fits the executor's capacities
 * (AXL_PLAN_LOADED, AXL_PLAN_MAX_NODES, ... in mmio_config.h), that the
 * design the board programmed (axl_mmio_set_board) has the plan's UUID,
 * that each unit is one of its compute units and each bank a region the
 * board gives, then places the buffers in their banks' regions after
 * those of the plans loaded before it (no allocator: a region's bytes
 * come back when the plans placed after them are unloaded too) and readies
 * the units (their interrupts as the board's completion mode says).
 * Statuses: AXL_ERR_INVALID (a plan that does not match the board: the
 * message says what), AXL_ERR_OUT_OF_RESOURCES (no free slot, or a bank's
 * region too small), AXL_ERR_PLATFORM (no board).
 */
axl_status axl_plan_load(const axl_plan *plan, axl_plan_id *out);

/**
 * The index of the plan's buffer named `name` when it was written
 * (axl_plan_write_named), for axl_plan_buffer and axl_plan_set_buffer. A
 * look at the const tables: a plan need not be loaded. AXL_ERR_INVALID,
 * naming the plan and the name, when it has no buffer of that name.
 */
axl_status axl_plan_find_buffer(const axl_plan *plan, const char *name,
                                uint32_t *index);

/** The same for a node (axl_plan_set_scalar's node). */
axl_status axl_plan_find_node(const axl_plan *plan, const char *name,
                              uint32_t *index);

/** Unloads a plan that is not running (AXL_ERR_BAD_STATE while it runs). */
axl_status axl_plan_unload(axl_plan_id plan);

/** Where buffer `index` of a loaded plan is: the CPU's address and the
 *  device address the units are given (either pointer may be NULL). The
 *  firmware reads and writes its bytes there between runs. */
axl_status axl_plan_buffer(axl_plan_id plan, uint32_t index, void **host,
                           uint64_t *device_address);

/**
 * Gives argument arg_id of node `node` a new value from the next
 * submission on. size must be the scalar's size as recorded;
 * AXL_ERR_INVALID (changing nothing) when the node has no such scalar or
 * the size differs, AXL_ERR_BAD_STATE while the plan runs.
 */
axl_status axl_plan_set_scalar(axl_plan_id plan, uint32_t node,
                               uint32_t arg_id, const void *value,
                               size_t size);

/**
 * Replaces buffer `index` from the next submission on with memory the
 * firmware owns (double buffering): host is the CPU's view of it,
 * device_address what units are given. It must be in the same bank (the
 * board's region for the buffer's bank holds [device_address,
 * device_address + size)), as large as the plan's buffer, and aligned as
 * it. AXL_ERR_INVALID (changing nothing) otherwise, or when the buffer is
 * not updatable; AXL_ERR_BAD_STATE while the plan runs. host NULL puts the
 * plan's own placement back.
 */
axl_status axl_plan_set_buffer(axl_plan_id plan, uint32_t index, void *host,
                               uint64_t device_address, uint64_t size);

/**
 * Submits the plan: cleans the caches over what its units read and
 * starts every node with no predecessor. One submission of a plan runs
 * at a time: AXL_ERR_BAD_STATE while the last one has not been waited
 * for to its end. A node whose unit another plan's node holds starts when
 * that unit is free.
 */
axl_status axl_plan_submit(axl_plan_id plan, axl_plan_run *run);

/**
 * Drives the plan until run has ended or timeout_ns (0: none) has passed:
 * each ended node releases the nodes that wait for it. Returns the run's
 * status: AXL_SUCCESS; the first failed node's status with a message that
 * names the node, its kernel and unit (the nodes after it do not run);
 * AXL_ERR_TIMEOUT when the time ran out first (the run goes on: wait or
 * poll again).
 */
axl_status axl_plan_wait(axl_plan_run run, uint64_t timeout_ns);

/** One look without waiting: *done 0 while the run goes on (AXL_SUCCESS),
 *  else as axl_plan_wait's end. */
axl_status axl_plan_poll(axl_plan_run run, int *done);

#ifdef __cplusplus
}
#endif

#endif /* AXL_PLAN_H */
