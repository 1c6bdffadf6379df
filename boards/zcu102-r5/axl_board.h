/*
 * boards/zcu102-r5 - bare-metal Cortex-R5F in the ZCU102's RPU (Zynq
 * UltraScale+ ZU9EG), the bare-metal port and the emulated device.
 *
 * Every capacity is the default of core/axl_config.h and
 * xrt/emu/emu_config.h: those defaults are sized for this class of target
 * (code and data in the RPU's 2 x 64 KiB of TCM; see zcu102-r5.ld), and the
 * footprint table (docs/footprint.md) is measured with them. A firmware that needs
 * more raises them here, with axl_stats_get() from a real run as the guide.
 *
 * Each value is a default: a -D of the same name (cmake -DAXL_...=,
 * CFLAGS) or the user config header (AXL_USER_CONFIG) wins.
 */
#ifndef AXL_BOARD_H
#define AXL_BOARD_H

/* No threads on bare metal: host tasks run on the thread that waits. */
#ifndef AXL_HOST_TASK_WORKERS
#define AXL_HOST_TASK_WORKERS 0
#endif

/* The stock design has six compute units (vadd x2, mmult, fir, conv2d,
 * nop); the kernel firmware (tests/firmware/fw_kernels.c) runs conv2d, the
 * fifth, so the device tracks them all. */
#ifndef AXL_MAX_DEVICE_CUS
#define AXL_MAX_DEVICE_CUS 6
#endif
/* One device: the board's one device port (the emulated device in the
 * test firmware, the mmio port in the kernel firmware). Each device slot
 * holds its units' run state (~640 bytes a unit), which this pays for the
 * two units above. */
#ifndef AXL_MAX_DEVICES
#define AXL_MAX_DEVICES 1
#endif
#ifndef AXL_MAX_CONTEXT_DEVICES
#define AXL_MAX_CONTEXT_DEVICES 1
#endif

/* No recorded graphs: a node holds a whole command group (about 1 KiB
 * here), so the default pools (4 nodes) would take 4.4 KiB of the TCM from
 * every firmware, graphs or not, and a replay costs what a plain launch
 * does today (docs/design.md, "Graphs"). A firmware that records graphs
 * sets this to 1 and sizes AXL_MAX_GRAPH_NODES to its pipeline. */
#ifndef AXL_FEATURE_GRAPHS
#define AXL_FEATURE_GRAPHS 0
#endif

/* The device keeps its design: a placement (core/place.h) is its run
 * slots' bank map, with no unit table of its own (AXL_MAX_PLACEMENTS
 * follows AXL_MAX_DEVICES, 1), so the unit tables take what they took
 * before placements (docs/footprint.md). A firmware that reprograms its
 * device on demand (issue 40) sets this to 1. */
#ifndef AXL_FEATURE_DESIGN_SWAP
#define AXL_FEATURE_DESIGN_SWAP 0
#endif

/* No register access to IPs (axl/ip.h): the R5's footprint rows stay as
 * they were. A firmware that drives an IP of its own by registers (a
 * DMA, a GPIO, an RTL block) sets this to 1 (about the IP pool and
 * ip.c's code). */
#ifndef AXL_FEATURE_IP_ACCESS
#define AXL_FEATURE_IP_ACCESS 0
#endif

/* No device with a clock of its own: the R5 drives real units (or, under
 * QEMU, the C-model simulator, which runs in real time); only a model
 * that simulates time (the mmio port's RTL model, on a host) has one. */
#ifndef AXL_DEVICE_CLOCKS
#define AXL_DEVICE_CLOCKS 0
#endif

/* Full messages (AXL_MESSAGES 1, the default): a firmware team debugging on
 * the board reads what was wrong, not only the status. A firmware short of
 * code memory sets 0 here; the footprint report (axl-footprint) gives the
 * code of both, and scripts/matrix builds and runs the firmware with 0
 * (zcu102-r5-terse). */

/* The test firmware's code fits the 64 KiB ATCM: the trace keeps the
 * moves before a command's action (not the write-backs, copies and fills
 * beside them) and names units "vadd:1", and messages keep their sentence
 * without the lists of units' banks and a full bank's usage (issue 29
 * added both: about 2.2 KiB). */
#ifndef AXL_TRACE_DETAIL
#define AXL_TRACE_DETAIL 0
#endif
#ifndef AXL_MESSAGE_DETAIL
#define AXL_MESSAGE_DETAIL 0
#endif

/* The mmio port and the plan executor: the R5 sees its TCMs at physical
 * 0 to 0x3FFFF (ATCM and BTCM, split or lockstep), not the PS DDR the
 * PL's masters reach there: a bank region without a host view in that
 * range is refused (axl_mmio_board.cpu_reserved overrides it at run time).
 * Buffers are aligned to 4 KiB (AXL_MMIO_BUFFER_ALIGN, as XRT), unless
 * the board gives axl_mmio_board.align. */
#ifndef AXL_MMIO_CPU_RESERVED
#define AXL_MMIO_CPU_RESERVED 0x40000u
#endif

#endif /* AXL_BOARD_H */
