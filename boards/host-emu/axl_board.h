/*
 * boards/host-emu - x86-64 Linux, the POSIX port and the emulated device:
 * what CI and a laptop run. Capacities are generous (memory is cheap here)
 * so tests and benchmarks can keep a thousand commands in flight.
 *
 * Each value is a default: a -D of the same name (cmake -DAXL_...=,
 * CFLAGS) or the user config header (AXL_USER_CONFIG) wins.
 */
#ifndef AXL_BOARD_H
#define AXL_BOARD_H

#ifndef AXL_MAX_PLATFORMS
#define AXL_MAX_PLATFORMS 4
#endif
#ifndef AXL_MAX_DEVICES
#define AXL_MAX_DEVICES 4
#endif
#ifndef AXL_MAX_CONTEXTS
#define AXL_MAX_CONTEXTS 16
#endif
#ifndef AXL_MAX_CONTEXT_DEVICES
#define AXL_MAX_CONTEXT_DEVICES 4
#endif
#ifndef AXL_MAX_QUEUES
#define AXL_MAX_QUEUES 16
#endif
#ifndef AXL_MAX_EVENTS
#define AXL_MAX_EVENTS 2048
#endif
#ifndef AXL_MAX_COMMANDS
#define AXL_MAX_COMMANDS 1100
#endif
#ifndef AXL_MAX_COMMAND_DEPS
#define AXL_MAX_COMMAND_DEPS 16
#endif
#ifndef AXL_MAX_ERRORS
#define AXL_MAX_ERRORS 16
#endif
#ifndef AXL_MAX_GRAPHS
#define AXL_MAX_GRAPHS 8
#endif
#ifndef AXL_MAX_GRAPH_EXECS
#define AXL_MAX_GRAPH_EXECS 8
#endif
#ifndef AXL_MAX_GRAPH_NODES
#define AXL_MAX_GRAPH_NODES 128
#endif
#ifndef AXL_MAX_BUFFERS
#define AXL_MAX_BUFFERS 256
#endif
#ifndef AXL_MAX_ACCESSORS
#define AXL_MAX_ACCESSORS 8
#endif
#ifndef AXL_MAX_HOST_ACCESSORS
#define AXL_MAX_HOST_ACCESSORS 8
#endif
#ifndef AXL_MAX_BUFFER_RECORDS
#define AXL_MAX_BUFFER_RECORDS 16
#endif
#ifndef AXL_BUFFER_DEVICE_COPIES
#define AXL_BUFFER_DEVICE_COPIES 2
#endif
#ifndef AXL_HOST_ARENA_SIZE
#define AXL_HOST_ARENA_SIZE (256u * 1024u * 1024u)
#endif
#ifndef AXL_HOST_ARENA_BLOCKS
#define AXL_HOST_ARENA_BLOCKS 512
#endif
#ifndef AXL_MAX_FILL_PATTERN
#define AXL_MAX_FILL_PATTERN 64
#endif
#ifndef AXL_MAX_IMAGES
#define AXL_MAX_IMAGES 32
#endif
#ifndef AXL_MAX_KERNEL_IDS
#define AXL_MAX_KERNEL_IDS 128
#endif
#ifndef AXL_MAX_KERNEL_BUNDLES
#define AXL_MAX_KERNEL_BUNDLES 64
#endif
#ifndef AXL_MAX_BUNDLE_IMAGES
#define AXL_MAX_BUNDLE_IMAGES 8
#endif
#ifndef AXL_MAX_KERNELS
#define AXL_MAX_KERNELS 128
#endif
#ifndef AXL_MAX_KERNEL_ARGS
#define AXL_MAX_KERNEL_ARGS 16
#endif
#ifndef AXL_MAX_ARG_BYTES
#define AXL_MAX_ARG_BYTES 128
#endif
#ifndef AXL_MAX_KERNEL_CUS
#define AXL_MAX_KERNEL_CUS 8
#endif
#ifndef AXL_MAX_DEVICE_CUS
#define AXL_MAX_DEVICE_CUS 16
#endif
#ifndef AXL_KERNEL_NAME_MAX
#define AXL_KERNEL_NAME_MAX 64
#endif
#ifndef AXL_TRACE_EVENTS
#define AXL_TRACE_EVENTS 4096
#endif
/* Arrows per record: a command that reads several results waits for more
 * than the default 4 (the demo's statistics, for up to five commands when
 * it is submitted while they run). */
#ifndef AXL_TRACE_DEPS
#define AXL_TRACE_DEPS 8
#endif

/* The emulated device's banks are the design's (MEM_TOPOLOGY, reserved
 * with mmap when first used: untouched pages cost nothing), each at most
 * AXL_EMU_MAX_BANK_BYTES; AXL_EMU_MAX_BANK_BYTES and AXL_EMU_MAX_BANKS in
 * the environment set them at run time. With no design: two banks of
 * 256 MiB, enough for info::device::max_mem_alloc_size to meet the SYCL
 * minimum of 128 MiB. */
#ifndef AXL_EMU_DEVICES
#define AXL_EMU_DEVICES 1
#endif
#ifndef AXL_EMU_BANKS
#define AXL_EMU_BANKS 2
#endif
#ifndef AXL_EMU_BANK_SIZE
#define AXL_EMU_BANK_SIZE (256u * 1024u * 1024u)
#endif
#ifndef AXL_EMU_BANK_ALLOCS
#define AXL_EMU_BANK_ALLOCS 256
#endif
#ifndef AXL_EMU_MAX_BANK_BYTES
#define AXL_EMU_MAX_BANK_BYTES (1ull << 30)
#endif
/* CI builds: a model that writes a buffer given read-only fails its
 * command (the silent wrong result a board would give). */
#ifndef AXL_EMU_CHECK_READ_ONLY
#define AXL_EMU_CHECK_READ_ONLY 1
#endif

/* The mmio port's tests (label mmio) run the same programs on the
 * simulator, whose banks are as large as the emulated device's. */
#ifndef AXL_MMIO_BANK_ALLOCS
#define AXL_MMIO_BANK_ALLOCS 256
#endif
/* As many units as the device runs at once: a design of test kernels (the
 * RTL device's, tests/rtl/rtl_test.cfg, has nine) is larger than a board's. */
#ifndef AXL_MMIO_UNITS
#define AXL_MMIO_UNITS 16
#endif

#endif /* AXL_BOARD_H */
