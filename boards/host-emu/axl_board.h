/*
 * boards/host-emu - x86-64 Linux, the POSIX port and the emulated device:
 * what CI and a laptop run. Capacities are generous (memory is cheap here)
 * so tests and benchmarks can keep a thousand commands in flight.
 */
#ifndef AXL_BOARD_H
#define AXL_BOARD_H

#define AXL_MAX_PLATFORMS 4
#define AXL_MAX_DEVICES 4
#define AXL_MAX_CONTEXTS 16
#define AXL_MAX_CONTEXT_DEVICES 4
#define AXL_MAX_QUEUES 16
#define AXL_MAX_EVENTS 2048
#define AXL_MAX_COMMANDS 1100
#define AXL_MAX_COMMAND_DEPS 16
#define AXL_MAX_ERRORS 16
#define AXL_MAX_BUFFERS 256
#define AXL_MAX_ACCESSORS 8
#define AXL_MAX_HOST_ACCESSORS 8
#define AXL_MAX_BUFFER_RECORDS 16
#define AXL_BUFFER_DEVICE_COPIES 2
#define AXL_HOST_ARENA_SIZE (256u * 1024u * 1024u)
#define AXL_HOST_ARENA_BLOCKS 512
#define AXL_MAX_FILL_PATTERN 64
#define AXL_MAX_IMAGES 32
#define AXL_MAX_KERNEL_IDS 128
#define AXL_MAX_KERNEL_BUNDLES 64
#define AXL_MAX_BUNDLE_IMAGES 8
#define AXL_MAX_KERNELS 128
#define AXL_MAX_KERNEL_ARGS 16
#define AXL_MAX_ARG_BYTES 128
#define AXL_MAX_KERNEL_CUS 8
#define AXL_MAX_DEVICE_CUS 16
#define AXL_KERNEL_NAME_MAX 64
#define AXL_TRACE_EVENTS 4096

/* Two banks of 256 MiB: enough for info::device::max_mem_alloc_size to meet
 * the SYCL minimum of 128 MiB. The arenas are bss, so untouched pages cost
 * nothing. */
#define AXL_EMU_DEVICES 1
#define AXL_EMU_BANKS 2
#define AXL_EMU_BANK_SIZE (256u * 1024u * 1024u)
#define AXL_EMU_BANK_ALLOCS 256

/* The mmio port's tests (label mmio) run the same programs on the
 * simulator, whose banks are as large as the emulated device's. */
#define AXL_MMIO_BANK_ALLOCS 256

#endif /* AXL_BOARD_H */
