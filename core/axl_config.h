/*
 * axl_config.h - every capacity of the runtime, in one place.
 *
 * Each value below is a default. A board overrides any of them in its own
 * header, boards/<board>/axl_board.h, which this file includes first (the
 * lwIP opt.h / lwipopts.h pattern). The runtime never grows: each pool is a
 * static array of its capacity, and running out is AXL_ERR_OUT_OF_RESOURCES
 * with the pool named in the message. axl_stats_get() reports use and
 * high-water marks so a firmware team can size its board header.
 *
 * Impossible combinations stop the build at the end of this file.
 */
#ifndef AXL_CONFIG_H
#define AXL_CONFIG_H

/* The application's own settings first (-DAXL_USER_CONFIG=<header> in
 * CMake), so they win over the board's and the defaults below. */
#ifdef AXL_USER_CONFIG_FILE
#include AXL_USER_CONFIG_FILE
#endif
#include "axl_board.h"

/* ---- Objects (one pool each; at most 4095 per pool) ---------------------- */

/** Platforms: one per device port in the build. */
#ifndef AXL_MAX_PLATFORMS
#define AXL_MAX_PLATFORMS 2
#endif

/** Devices over all platforms. */
#ifndef AXL_MAX_DEVICES
#define AXL_MAX_DEVICES 2
#endif

/** Contexts alive at once (a queue made without one creates its own). */
#ifndef AXL_MAX_CONTEXTS
#define AXL_MAX_CONTEXTS 2
#endif

/** Devices one context may hold. */
#ifndef AXL_MAX_CONTEXT_DEVICES
#define AXL_MAX_CONTEXT_DEVICES 2
#endif

/** Queues alive at once. */
#ifndef AXL_MAX_QUEUES
#define AXL_MAX_QUEUES 4
#endif

/** Events alive at once: one per command in flight plus every event the
 *  application still holds. */
#ifndef AXL_MAX_EVENTS
#define AXL_MAX_EVENTS 16
#endif

/** Commands in flight (submitted and not yet complete). A command's storage
 *  returns to the pool the moment it completes, even if its event lives on. */
#ifndef AXL_MAX_COMMANDS
#define AXL_MAX_COMMANDS 8
#endif

/** Dependency edges one command keeps (explicit events, accessor conflicts
 *  and in-order order). A command that needs more waits instead for every
 *  command submitted before it: coarser, never wrong. */
#ifndef AXL_MAX_COMMAND_DEPS
#define AXL_MAX_COMMAND_DEPS 4
#endif

/** Modifiable command graphs (axl_graph) alive at once. */
#ifndef AXL_MAX_GRAPHS
#define AXL_MAX_GRAPHS 1
#endif

/** Executable graphs (axl_graph_exec) alive at once. */
#ifndef AXL_MAX_GRAPH_EXECS
#define AXL_MAX_GRAPH_EXECS 1
#endif

/** Graph nodes, shared by every graph and executable graph (finalizing
 *  a graph of n nodes takes n more). Each holds a checked command group
 *  (about the size of a handler: 1 KiB on the R5 with the defaults), so
 *  the default is small; a board that records graphs raises it. */
#ifndef AXL_MAX_GRAPH_NODES
#define AXL_MAX_GRAPH_NODES 4
#endif

/** Bytes of the arena that holds executable graphs' plans (core/replay.h):
 *  per graph node about 64 bytes and 4 per edge, per kernel node's run
 *  about 200 and 48 per argument, per buffer 16. The default holds
 *  AXL_MAX_GRAPH_NODES kernel nodes of AXL_MAX_KERNEL_ARGS arguments.
 *  A finalize that does not fit fails naming it and the bytes it needs. */
#ifndef AXL_GRAPH_TABLE_BYTES
#define AXL_GRAPH_TABLE_BYTES                                                  \
    (AXL_MAX_GRAPH_NODES * (256 + 48 * AXL_MAX_KERNEL_ARGS))
#endif

/** Failure messages a graph's submission keeps, one per failed node, for
 *  the asynchronous errors its finish gives (the nodes that fail after
 *  have their status and their name). */
#ifndef AXL_EXEC_WHYS
#define AXL_EXEC_WHYS 2
#endif

/** Explicit edges one graph node keeps (to earlier nodes: the events it
 *  was recorded depending on, and an in-order queue's previous command).
 *  Data edges between nodes are not stored: a replay finds them from the
 *  accessors, as any submission does. */
#ifndef AXL_MAX_GRAPH_NODE_DEPS
#define AXL_MAX_GRAPH_NODE_DEPS 4
#endif

/** Asynchronous errors kept until a handler consumes them; more are counted
 *  and reported as dropped. */
#ifndef AXL_MAX_ERRORS
#define AXL_MAX_ERRORS 2
#endif

/* ---- Buffers ------------------------------------------------------------------ */

/** Buffers and sub-buffers alive at once. */
#ifndef AXL_MAX_BUFFERS
#define AXL_MAX_BUFFERS 8
#endif

/** Accessors one command may declare. */
#ifndef AXL_MAX_ACCESSORS
#define AXL_MAX_ACCESSORS 4
#endif

/** Host accessors alive at once. */
#ifndef AXL_MAX_HOST_ACCESSORS
#define AXL_MAX_HOST_ACCESSORS 2
#endif

/** Unfinished accesses the scheduler tracks per buffer. Past it, the next
 *  command waits for every earlier command and stands for all of them:
 *  coarser, never wrong. */
#ifndef AXL_MAX_BUFFER_RECORDS
#define AXL_MAX_BUFFER_RECORDS 4
#endif

/** Devices one buffer may have storage on at once. */
#ifndef AXL_BUFFER_DEVICE_COPIES
#define AXL_BUFFER_DEVICE_COPIES 1
#endif

/** Bytes of the default host allocator's static arena (host storage of
 *  buffers made without an allocator of their own). */
#ifndef AXL_HOST_ARENA_SIZE
#define AXL_HOST_ARENA_SIZE 4096
#endif

/** Host allocations alive at once in that arena. */
#ifndef AXL_HOST_ARENA_BLOCKS
#define AXL_HOST_ARENA_BLOCKS 8
#endif

/** Largest fill pattern (bytes of one element). */
#ifndef AXL_MAX_FILL_PATTERN
#define AXL_MAX_FILL_PATTERN 16
#endif

/* ---- Images, kernels and bundles ----------------------------------------------- */

/** xclbin images known at once: application images, each device's built-in
 *  design, and images built from source. */
#ifndef AXL_MAX_IMAGES
#define AXL_MAX_IMAGES 2
#endif

/** Kernel ids: one per kernel of every known image. */
#ifndef AXL_MAX_KERNEL_IDS
#define AXL_MAX_KERNEL_IDS 8
#endif

/** Kernel bundles alive at once. */
#ifndef AXL_MAX_KERNEL_BUNDLES
#define AXL_MAX_KERNEL_BUNDLES 4
#endif

/** Device images one bundle may hold. */
#ifndef AXL_MAX_BUNDLE_IMAGES
#define AXL_MAX_BUNDLE_IMAGES 2
#endif

/** Kernel objects alive at once. */
#ifndef AXL_MAX_KERNELS
#define AXL_MAX_KERNELS 4
#endif

/** Events one command group's depends_on (4.9.4.1) keeps by handle; past
 *  them the group waits for every earlier command instead, which is correct
 *  and only less concurrent. On the stack of axl_queue_submit: 4 bytes
 *  each. */
#ifndef AXL_MAX_HANDLER_DEPS
#define AXL_MAX_HANDLER_DEPS 16
#endif

/** Arguments one kernel may take. */
#ifndef AXL_MAX_KERNEL_ARGS
#define AXL_MAX_KERNEL_ARGS 6
#endif

/** Bytes of scalar arguments one launch may carry. */
#ifndef AXL_MAX_ARG_BYTES
#define AXL_MAX_ARG_BYTES 32
#endif

/** Compute units of one kernel axl tracks (more are ignored, with no
 *  error: the runtime spreads runs over these). */
#ifndef AXL_MAX_KERNEL_CUS
#define AXL_MAX_KERNEL_CUS 4
#endif

/** Compute units of one device running at once (the run slots). */
#ifndef AXL_MAX_DEVICE_CUS
#define AXL_MAX_DEVICE_CUS 4
#endif

/** Longest kernel name kept for kernel_id::get_name, with its NUL. */
#ifndef AXL_KERNEL_NAME_MAX
#define AXL_KERNEL_NAME_MAX 32
#endif

/** A kernel that runs longer than this (ms) is given up: its event fails
 *  with AXL_ERR_TIMEOUT. A queue may set its own (axl_queue_set_timeout). */
#ifndef AXL_KERNEL_TIMEOUT_MS
#define AXL_KERNEL_TIMEOUT_MS 10000
#endif

/* ---- Host tasks and waiting ----------------------------------------------- */

/** Worker threads for host tasks on ports with threads (0: host tasks run
 *  on the thread that makes them ready). */
#ifndef AXL_HOST_TASK_WORKERS
#define AXL_HOST_TASK_WORKERS 2
#endif

/** How long a wait spins before it blocks, in ns: a completion that
 *  arrives within it reaches the waiter without a sleep. */
#ifndef AXL_WAIT_SPIN_NS
#define AXL_WAIT_SPIN_NS 20000
#endif

/** 1: a device whose time is its own (AXL_HAL_DEVICE_OWN_CLOCK: a model
 *  that simulates time, such as the mmio port's RTL model) times its
 *  commands and its kernels' timeouts by its clock (docs/design.md,
 *  "Simulated time"). 0 compiles that out, for firmware that drives real
 *  hardware: every device is then timed by the runtime's clock. */
#ifndef AXL_DEVICE_CLOCKS
#define AXL_DEVICE_CLOCKS 1
#endif

/* ---- Trace and logs (include/axl/trace.h) ------------------------------------ */

/** Records the trace ring holds: one per command completed while tracing
 *  is on (axl_trace_enable, AXL_TRACE), about 130 bytes each (host-emu,
 *  and the boards that include its header, keep 4096). When it is full
 *  the oldest is overwritten and counted as dropped. 0 compiles the trace
 *  out (axl_trace_enable then fails with AXL_ERR_FEATURE_NOT_SUPPORTED). */
#ifndef AXL_TRACE_EVENTS
#define AXL_TRACE_EVENTS 12
#endif

/** Dependencies a trace record keeps as flow arrows (host-emu and the
 *  boards that include its header keep 8). Edges beyond these are still
 *  honoured, only not drawn: the arrows kept are those of the
 *  predecessors that finished last, and the record's deps_not_shown
 *  counts the others. */
#ifndef AXL_TRACE_DEPS
#define AXL_TRACE_DEPS 4
#endif

/** Longest kernel name a trace record keeps, with its NUL. */
#ifndef AXL_TRACE_NAME_MAX
#define AXL_TRACE_NAME_MAX 24
#endif

/** 1: the trace names each compute unit's track as the design names the
 *  unit ("vadd_2"), and every transfer is a slice of its device's
 *  transfers track (a buffer's write-back at its last release, a copy or
 *  fill on device memory, each with its direction and bytes each way), as
 *  axl-trace summary counts them. 0: as before issue 29 ("vadd:1", only
 *  the moves before a command's action): about 1.3 KiB less code, for a
 *  firmware that must fit a TCM (zcu102-r5). */
#ifndef AXL_TRACE_DETAIL
#define AXL_TRACE_DETAIL 1
#endif

/** 1: log lines can be turned on at run time (axl_log_set, AXL_LOG); off,
 *  each costs one branch. 0 compiles them out. */
#ifndef AXL_LOGS
#define AXL_LOGS 1
#endif

/* ---- Feature switches --------------------------------------------------------- */

/* Optional parts of the API. Each is on by default; a board (or the
 * application's config header, or -D) sets one to 0 to compile that part
 * out of a firmware short of code memory. A switched-off call still links:
 * it returns AXL_ERR_FEATURE_NOT_SUPPORTED and changes nothing, and its
 * message names the switch ("axl_buffer_create_sub: switched off in this
 * build (AXL_FEATURE_SUB_BUFFERS 0)"). The footprint report
 * (axl-footprint) links the R5 kernel firmware with every switch it does
 * not need off. The trace ring's switch is AXL_TRACE_EVENTS 0 (below). */

/** axl_buffer_create_sub (4.7.2.1 sub-buffers). */
#ifndef AXL_FEATURE_SUB_BUFFERS
#define AXL_FEATURE_SUB_BUFFERS 1
#endif

/** axl_host_accessor_create (4.7.6.10 host accessors). */
#ifndef AXL_FEATURE_HOST_ACCESSORS
#define AXL_FEATURE_HOST_ACCESSORS 1
#endif

/** axl_handler_host_task and axl_queue_host_task (4.10 host tasks). */
#ifndef AXL_FEATURE_HOST_TASKS
#define AXL_FEATURE_HOST_TASKS 1
#endif

/** axl_event_get_profiling (4.6.6.1, queue profiling). */
#ifndef AXL_FEATURE_PROFILING
#define AXL_FEATURE_PROFILING 1
#endif

/** The kernel_compiler extension: axl_device_can_compile,
 *  axl_kernel_bundle_create_from_source and axl_kernel_bundle_build
 *  (images that arrive at run time as source bundles). */
#ifndef AXL_FEATURE_SOURCE_BUNDLES
#define AXL_FEATURE_SOURCE_BUNDLES 1
#endif

/** axl_kernel_bundle_join (4.11.12). */
#ifndef AXL_FEATURE_JOIN
#define AXL_FEATURE_JOIN 1
#endif

/** Application images (axl_image_register): 0 keeps the device built-in
 *  kernels of each device's design only, and no device is reprogrammed. */
#ifndef AXL_FEATURE_APP_IMAGES
#define AXL_FEATURE_APP_IMAGES 1
#endif

/** The xclbin reader (axl_xclbin_open, core/xclbin.c's parser): 0 reads
 *  designs only in their pre-digested form, a const axl_xclbin_design that
 *  axl-xclbin writes as C source (axl-xclbin design), which a board links
 *  instead of the image bytes. */
#ifndef AXL_FEATURE_XCLBIN_READER
#define AXL_FEATURE_XCLBIN_READER 1
#endif

/** Recorded command graphs (axl/graph.h): axl_graph_*, axl_queue_submit_graph
 *  and recording on queues. 0 compiles them out with their pools (the
 *  launch path then keeps no recording check either). */
#ifndef AXL_FEATURE_GRAPHS
#define AXL_FEATURE_GRAPHS 1
#endif

/** Register access to the IPs of a design (axl/ip.h): axl_ip_open,
 *  axl_ip_read32, axl_ip_write32, axl_ip_wait_interrupt, axl_ip_release,
 *  with their pool (AXL_MAX_IPS). 0 compiles them out; the launch path
 *  does not use them either way. */
#ifndef AXL_FEATURE_IP_ACCESS
#define AXL_FEATURE_IP_ACCESS 1
#endif

/** IP handles (axl_ip) alive at once. */
#ifndef AXL_MAX_IPS
#define AXL_MAX_IPS 2
#endif

/** Designs that change on a device while the program runs (issue 40,
 *  docs/designs-design.md): a placement (AXL_MAX_PLACEMENTS) keeps its
 *  design's unit table of its own, copied into the device's run slots
 *  when the design is loaded. 0 keeps one table per device, the run
 *  slots themselves (a placement is then their bank map alone), for a
 *  firmware whose device keeps its design (zcu102-r5). No design swaps
 *  on demand yet either way: that is the stage 3. */
#ifndef AXL_FEATURE_DESIGN_SWAP
#define AXL_FEATURE_DESIGN_SWAP 1
#endif

/** Run slots a DFX slot's design may use (issue 40, designs-design.md
 *  1.1, 3.1): a device with a shell of n slots keeps the last
 *  n * AXL_MAX_SLOT_UNITS of its AXL_MAX_DEVICE_CUS run slots for them,
 *  the rest for its static design. A shell that leaves the static design
 *  none is not taken (a warning says so). */
#ifndef AXL_MAX_SLOT_UNITS
#define AXL_MAX_SLOT_UNITS 4
#endif

/** Designs made ready for a device, loaded or not (placements,
 *  core/place.h: a design's unit table and bank map for one device;
 *  docs/designs-design.md 1.3). Each device's loaded design takes one; a
 *  device carries one design at a time until on-demand reprogramming
 *  (issue 40, stage 3) keeps others ready too. Without
 *  AXL_FEATURE_DESIGN_SWAP one per device is all there can be. */
#ifndef AXL_MAX_PLACEMENTS
#if AXL_FEATURE_DESIGN_SWAP
#define AXL_MAX_PLACEMENTS 8
#else
#define AXL_MAX_PLACEMENTS AXL_MAX_DEVICES
#endif
#endif

/** Streaming designs (axl/pipeline.h): axl_kernel_bundle_get_pipes and
 *  axl_pipeline_*, with their pool (AXL_MAX_PIPELINES). 0 compiles them
 *  out; a launch of a kernel with stream ports is then refused at submit
 *  naming this switch (nothing else would start its peers). */
#ifndef AXL_FEATURE_STREAMS
#define AXL_FEATURE_STREAMS 1
#endif

/** Pipelines (axl_pipeline) alive at once. */
#ifndef AXL_MAX_PIPELINES
#define AXL_MAX_PIPELINES 2
#endif

/** Units of one pipeline (at most 32). */
#ifndef AXL_MAX_PIPELINE_UNITS
#define AXL_MAX_PIPELINE_UNITS 8
#endif

/** Pipes (streams) of one pipeline. */
#ifndef AXL_MAX_PIPELINE_PIPES
#define AXL_MAX_PIPELINE_PIPES 8
#endif

/* ---- Messages ------------------------------------------------------------- */

/** What a failure leaves in axl_last_message() (and in asynchronous errors).
 *  1: a sentence that names the argument, object or setting at fault and
 *  why, such as "axl_buffer_create_sub: dimension 0: offset 8 + range 16
 *  exceeds the buffer's 16 (out of bounds)". 0: only the function and the
 *  status, "axl_buffer_create_sub: AXL_ERR_INVALID"; asynchronous errors
 *  and the xclbin reader's why give the status name. Statuses and every
 *  check are the same either way: 0 drops the message text and the code
 *  that formats it, about a quarter of the library's code (see the
 *  footprint table in docs/footprint.md), for firmware that is short of code
 *  memory and logs statuses. */
#ifndef AXL_MESSAGES
#define AXL_MESSAGES 1
#endif

/** With AXL_MESSAGES 1: 1 adds the details a message can list: the banks
 *  each unit of a kernel reaches when a buffer is out of their reach,
 *  what a bank holds when an allocation does not fit (its size, what is
 *  free, the largest block). 0 keeps the sentence without the list:
 *  about 0.9 KiB less code, for a firmware that must fit a TCM
 *  (zcu102-r5). */
#ifndef AXL_MESSAGE_DETAIL
#define AXL_MESSAGE_DETAIL AXL_MESSAGES
#endif

/* ---- Checks ---------------------------------------------------------------- */

#define AXL__CHECK_POOL(n)                                                     \
    _Static_assert((n) >= 1 && (n) <= 4095, #n " must be between 1 and 4095")

AXL__CHECK_POOL(AXL_MAX_PLATFORMS);
AXL__CHECK_POOL(AXL_MAX_DEVICES);
AXL__CHECK_POOL(AXL_MAX_CONTEXTS);
AXL__CHECK_POOL(AXL_MAX_QUEUES);
AXL__CHECK_POOL(AXL_MAX_EVENTS);
AXL__CHECK_POOL(AXL_MAX_COMMANDS);
AXL__CHECK_POOL(AXL_MAX_ERRORS);
AXL__CHECK_POOL(AXL_MAX_BUFFERS);
AXL__CHECK_POOL(AXL_MAX_HOST_ACCESSORS);
AXL__CHECK_POOL(AXL_MAX_IMAGES);
AXL__CHECK_POOL(AXL_MAX_KERNEL_IDS);
AXL__CHECK_POOL(AXL_MAX_KERNEL_BUNDLES);
AXL__CHECK_POOL(AXL_MAX_KERNELS);

_Static_assert(AXL_MAX_CONTEXT_DEVICES >= 1 &&
                   AXL_MAX_CONTEXT_DEVICES <= AXL_MAX_DEVICES,
               "AXL_MAX_CONTEXT_DEVICES must be 1..AXL_MAX_DEVICES");
_Static_assert(AXL_MAX_COMMAND_DEPS >= 1 && AXL_MAX_COMMAND_DEPS <= 64,
               "AXL_MAX_COMMAND_DEPS must be 1..64");
_Static_assert(AXL_MAX_EVENTS >= AXL_MAX_COMMANDS,
               "every command in flight needs an event: "
               "AXL_MAX_EVENTS must be >= AXL_MAX_COMMANDS");
_Static_assert(AXL_MAX_HANDLER_DEPS >= 1 && AXL_MAX_HANDLER_DEPS <= 255,
               "AXL_MAX_HANDLER_DEPS must be 1..255");
_Static_assert(AXL_MAX_ACCESSORS >= 1 && AXL_MAX_ACCESSORS <= 32,
               "AXL_MAX_ACCESSORS must be 1..32");
_Static_assert(AXL_MAX_BUFFER_RECORDS >= 2 && AXL_MAX_BUFFER_RECORDS <= 255,
               "AXL_MAX_BUFFER_RECORDS must be 2..255");
_Static_assert(AXL_BUFFER_DEVICE_COPIES >= 1 && AXL_BUFFER_DEVICE_COPIES <= 8,
               "AXL_BUFFER_DEVICE_COPIES must be 1..8");
_Static_assert(AXL_MAX_HOST_ACCESSORS < AXL_MAX_COMMAND_DEPS,
               "a command keeps a real edge to every host accessor it waits "
               "for: AXL_MAX_COMMAND_DEPS must exceed AXL_MAX_HOST_ACCESSORS");
_Static_assert(AXL_HOST_ARENA_BLOCKS >= 1, "AXL_HOST_ARENA_BLOCKS must be >= 1");
_Static_assert(AXL_MAX_FILL_PATTERN >= 1 && AXL_MAX_FILL_PATTERN <= 256,
               "AXL_MAX_FILL_PATTERN must be 1..256");
_Static_assert(AXL_MAX_BUNDLE_IMAGES >= 1 && AXL_MAX_BUNDLE_IMAGES <= 64,
               "AXL_MAX_BUNDLE_IMAGES must be 1..64");
_Static_assert(AXL_MAX_KERNEL_ARGS >= 1 && AXL_MAX_KERNEL_ARGS <= 64,
               "AXL_MAX_KERNEL_ARGS must be 1..64");
_Static_assert(AXL_MAX_ARG_BYTES >= 4 && AXL_MAX_ARG_BYTES <= 4096,
               "AXL_MAX_ARG_BYTES must be 4..4096");
_Static_assert(AXL_MAX_KERNEL_CUS >= 1 && AXL_MAX_KERNEL_CUS <= 32,
               "AXL_MAX_KERNEL_CUS must be 1..32");
_Static_assert(AXL_MAX_DEVICE_CUS >= AXL_MAX_KERNEL_CUS,
               "AXL_MAX_DEVICE_CUS must be >= AXL_MAX_KERNEL_CUS");
_Static_assert(AXL_KERNEL_NAME_MAX >= 8, "AXL_KERNEL_NAME_MAX must be >= 8");
_Static_assert(AXL_HOST_TASK_WORKERS <= 16,
               "AXL_HOST_TASK_WORKERS must be 0..16");
_Static_assert(AXL_MESSAGES == 0 || AXL_MESSAGES == 1,
               "AXL_MESSAGES must be 0 or 1");
_Static_assert(AXL_TRACE_EVENTS >= 0 && AXL_TRACE_EVENTS <= 1048576,
               "AXL_TRACE_EVENTS must be 0..1048576");
_Static_assert(AXL_TRACE_DEPS >= 1 && AXL_TRACE_DEPS <= 16,
               "AXL_TRACE_DEPS must be 1..16");
_Static_assert(AXL_TRACE_NAME_MAX >= 8, "AXL_TRACE_NAME_MAX must be >= 8");
_Static_assert(AXL_LOGS == 0 || AXL_LOGS == 1, "AXL_LOGS must be 0 or 1");
_Static_assert(AXL_TRACE_DETAIL == 0 || AXL_TRACE_DETAIL == 1,
               "AXL_TRACE_DETAIL must be 0 or 1");
_Static_assert(AXL_MESSAGE_DETAIL == 0 ||
                   (AXL_MESSAGE_DETAIL == 1 && AXL_MESSAGES == 1),
               "AXL_MESSAGE_DETAIL must be 0, or 1 with AXL_MESSAGES 1");

#define AXL__CHECK_SWITCH(s) _Static_assert((s) == 0 || (s) == 1, #s " must be 0 or 1")
AXL__CHECK_SWITCH(AXL_FEATURE_SUB_BUFFERS);
AXL__CHECK_SWITCH(AXL_FEATURE_HOST_ACCESSORS);
AXL__CHECK_SWITCH(AXL_FEATURE_HOST_TASKS);
AXL__CHECK_SWITCH(AXL_FEATURE_PROFILING);
AXL__CHECK_SWITCH(AXL_FEATURE_SOURCE_BUNDLES);
AXL__CHECK_SWITCH(AXL_FEATURE_JOIN);
AXL__CHECK_SWITCH(AXL_FEATURE_APP_IMAGES);
AXL__CHECK_SWITCH(AXL_FEATURE_XCLBIN_READER);
AXL__CHECK_SWITCH(AXL_FEATURE_GRAPHS);
AXL__CHECK_SWITCH(AXL_FEATURE_IP_ACCESS);
AXL__CHECK_POOL(AXL_MAX_IPS);
AXL__CHECK_SWITCH(AXL_FEATURE_STREAMS);
AXL__CHECK_SWITCH(AXL_FEATURE_DESIGN_SWAP);
AXL__CHECK_POOL(AXL_MAX_PLACEMENTS);
/* Each device's loaded design has a placement. */
_Static_assert(AXL_MAX_PLACEMENTS >= AXL_MAX_DEVICES,
               "AXL_MAX_PLACEMENTS must be >= AXL_MAX_DEVICES");
AXL__CHECK_POOL(AXL_MAX_PIPELINES);
_Static_assert(AXL_MAX_PIPELINE_UNITS >= 2 && AXL_MAX_PIPELINE_UNITS <= 32,
               "AXL_MAX_PIPELINE_UNITS must be 2..32 (a stream joins two)");
_Static_assert(AXL_MAX_PIPELINE_PIPES >= 1 && AXL_MAX_PIPELINE_PIPES <= 255,
               "AXL_MAX_PIPELINE_PIPES must be 1..255");
_Static_assert(AXL_MAX_GRAPHS >= 1 && AXL_MAX_GRAPH_EXECS >= 1 &&
                   AXL_MAX_GRAPH_NODES >= 1,
               "the graph pools need at least one object each");
_Static_assert(AXL_MAX_GRAPH_NODE_DEPS >= 1 && AXL_MAX_GRAPH_NODE_DEPS <= 16,
               "AXL_MAX_GRAPH_NODE_DEPS must be 1..16");
/* Images that arrive at run time are xclbin bytes loaded onto a device. */
#if AXL_FEATURE_SOURCE_BUNDLES && !AXL_FEATURE_APP_IMAGES
#error "AXL_FEATURE_SOURCE_BUNDLES needs AXL_FEATURE_APP_IMAGES: a source bundle's image is an application image built at run time"
#endif
#if AXL_FEATURE_APP_IMAGES && !AXL_FEATURE_XCLBIN_READER
#error "AXL_FEATURE_APP_IMAGES needs AXL_FEATURE_XCLBIN_READER: application images are xclbin bytes (only a board's built-in design comes pre-digested)"
#endif

#endif /* AXL_CONFIG_H */
