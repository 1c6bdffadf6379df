/*
 * Shared test support: the pools-are-empty teardown every test uses, a
 * clock the test controls, and a fake device port.
 */
#ifndef AXL_TEST_H
#define AXL_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "axl/axl.h"
#include "axl/hal.h"

/* Asserts an axl call's status, printing the runtime's message if not. */
#define AXL_OK(call) axl_test_expect((call), AXL_SUCCESS, #call, __FILE__, __LINE__)
#define AXL_EXPECT(call, status)                                               \
    axl_test_expect((call), (status), #call, __FILE__, __LINE__)
void axl_test_expect(axl_status got, axl_status want, const char *call,
                     const char *file, int line);

/* Asserts the last message contains text. A library built with
 * AXL_MESSAGES 0 (core/axl_config.h) leaves only "<function>: <STATUS>",
 * so there the text is not checked. */
#define AXL_MESSAGE_HAS(text) axl_test_message_has((text), __FILE__, __LINE__)
void axl_test_message_has(const char *text, const char *file, int line);

/* Feature switches (core/axl_config.h). A test that needs a part of the
 * API a build may switch off starts with AXL_TEST_NEEDS(switch, call):
 * with the switch on it goes on; off, it checks that `call` (a call of
 * the switched-off part) answers AXL_ERR_FEATURE_NOT_SUPPORTED with a
 * message naming the switch, then skips the rest of the test (cmocka
 * prints "[  SKIPPED ]", after "switched off: <switch>"). The switches
 * are in "axl_config.h" (core/, on every test's include path). */
#define AXL_TEST_NEEDS(on, call)                                               \
    do {                                                                       \
        if (!(on))                                                             \
            axl_test_switched_off(#on, (call), __FILE__, __LINE__);            \
    } while (0)
void axl_test_switched_off(const char *setting, axl_status got,
                           const char *file, int line);
/* The switch that turns off public function fn in this build, or NULL
 * when fn is there. */
const char *axl_test_switch_of(const char *fn);

/* The device the kernel tests run on. The emulated device and the
 * C-model simulator behind the mmio port run every stock kernel with its
 * C model and let a test put a C model of its own in place
 * (axl_emu_register_model). The RTL device (tests/rtl, AXL_TEST_RTL) runs
 * the RTL of the stock kernels that have one: a test that needs mmult
 * (floating point, no RTL) or a C model of its own starts with
 * AXL_TEST_NEEDS_C_MODELS("why"), which there prints "not on the RTL:
 * <why>" and skips the test (cmocka prints "[  SKIPPED ]"); a test whose
 * first part runs anywhere puts it where the rest begins (the teardown
 * releases what the test made). */
#if defined(AXL_TEST_RTL) && AXL_TEST_RTL
#define AXL_TEST_NEEDS_C_MODELS(why)                                           \
    axl_test_skip_on_rtl((why), __FILE__, __LINE__)
#else
#define AXL_TEST_NEEDS_C_MODELS(why) ((void)0)
#endif
void axl_test_skip_on_rtl(const char *why, const char *file, int line);
/* What the device's messages say would make a kernel it cannot run run
 * (its port's kernel_fix): the RTL model's phrase on the RTL device, the
 * C models' elsewhere. */
const char *axl_test_kernel_fix(void);

/* Whether the library was built with AXL_MESSAGES 1 (asked of the xclbin
 * reader, which leaves the last message alone). */
bool axl_test_messages(void);

/* cmocka setup/teardown. Teardown fails the test unless every pool the
 * application fills is back to empty, then shuts the runtime down and
 * checks that every pool is empty (lwIP's lwip_check_ensure_no_alloc). */
int axl_test_setup(void **state);
int axl_test_teardown(void **state);
/* cmocka setup for the streams design (bitstreams/streams.cfg):
 * axl_test_setup, then the emulated device (and the mmio simulator)
 * carries the design, and its kernels' C models (mm2s, sadd, s2mm, sinc)
 * are registered. A program that uses it embeds the image as
 * axl_test_streams_xclbin (axl_embed_xclbin; tests/support/
 * axl_test_streams.c). */
int axl_test_setup_streams(void **state);

/* A clock that advances by `step` ns on every read (deterministic). */
void axl_test_clock_install(uint64_t start, uint64_t step);
void axl_test_clock_remove(void);

/* Pool statistics by name ("event", "queue", ...), or another row of
 * axl_stats_get ("reprogramming": high_water counts loads since start-up,
 * in_use regions loading now, failures failed loads). */
axl_pool_stats axl_test_pool(const char *name);

/* The emulated device (the board's first device). */
axl_device axl_test_emu_device(void);

/* A queue (flags: axl_queue_create's) in its own context on the emulated
 * device, with the built-in vadd as a kernel; down waits for the queue
 * and releases them all. */
typedef struct axl_test_rig {
    axl_device dev;
    axl_context ctx;
    axl_queue q;
    axl_kernel_bundle bundle;
    union {
        axl_kernel vadd;   /* the rig's kernel: vadd, */
        axl_kernel kernel; /* or the one axl_test_rig_config names */
    };
} axl_test_rig;
axl_test_rig axl_test_rig_up(uint32_t flags);
/* The same on another device (one that has the stock design's vadd). */
axl_test_rig axl_test_rig_on(axl_device dev, uint32_t flags);
/* The same with asynchronous error handlers (4.13.1): the context's and
 * the queue's, each NULL for none; dev AXL_NONE is the emulated device;
 * kernel, the built-in kernel the bundle is made for (NULL: vadd), for a
 * device that has no vadd; id, a kernel of a registered image instead
 * (AXL_NONE: the built-in one). */
typedef struct axl_test_rig_config {
    axl_device dev;
    uint32_t flags;
    const axl_async_handler *on_context;
    const axl_async_handler *on_queue;
    const char *kernel;
    axl_kernel_id id;
} axl_test_rig_config;
axl_test_rig axl_test_rig_as(axl_test_rig_config config);
/* Waits for the rig's queue, then releases what the rig still holds (its
 * bundle and vadd unless let go). */
void axl_test_rig_down(axl_test_rig *r);
/* The same without the wait: commands still in flight are the runtime's
 * (for a test of what a release or a shutdown does with them). */
void axl_test_rig_drop(axl_test_rig *r);
/* Lets the rig's bundle and vadd go before the rest: their design no
 * longer holds the device (4.11.6), so another can be programmed. A test
 * may put a bundle of its own in r->bundle then; down releases it. */
void axl_test_rig_let_go(axl_test_rig *r);
/* Whether the emulated devices opened from now on reprogram on demand
 * (axl_emu_set_swaps; in mmio builds also the simulator's board,
 * axl_mmio_sim_set_swaps; issue 40): a test of a device that cannot swap
 * turns them off at its start (then the bundle of a second design is
 * refused while one is held); axl_test_setup turns them on again. A
 * build without AXL_FEATURE_DESIGN_SWAP never swaps. */
void axl_test_emu_swaps(bool on);

/* A copy of xclbin `full` (size bytes) into out (cap bytes) made a
 * partial design as v++ and `axl-xclbin link --slot` write one: m_mode
 * XCLBIN_PR and interface UUID iface (NULL: both left as they are, a
 * full design), a UUID of its own (its last byte xor tag), and IP_LAYOUT
 * entry i's control base at base[i] for i < nbase (issue 40,
 * docs/designs-design.md 3.2). Returns size; fails the test when the
 * copy does not fit. */
/* Little-endian fields of an xclbin, and the data of its first section
 * of `kind` (axlf_section_kind: 6 MEM_TOPOLOGY, 8 IP_LAYOUT), or NULL. */
uint32_t axl_test_rd32(const unsigned char *p);
void axl_test_wr64(unsigned char *p, uint64_t v);
unsigned char *axl_test_section(unsigned char *image, uint32_t kind);

size_t axl_test_partial(unsigned char *out, size_t cap,
                        const unsigned char *full, size_t size,
                        const uint8_t *iface, const uint64_t *base,
                        uint32_t nbase, unsigned char tag);
/* Built-in kernel `name` of dev, and that kernel of the rig's bundle
 * (the caller releases it): any kernel of the design vadd is in, since
 * the bundle holds the whole design. */
axl_kernel_id axl_test_builtin(axl_device dev, const char *name);
axl_kernel axl_test_rig_kernel(const axl_test_rig *r, const char *name);

/* A fake device port: devices that are real hardware to the runtime.
 * Register before the runtime starts (setup shuts it down first). */
typedef struct fake_port_config {
    uint32_t devices;
    uint32_t type;      /* axl_device_type */
    uint32_t flags;     /* axl_hal_device_flags */
    const char *name;
    uint32_t program_mask; /* bit i: device i can be programmed (and runs
                              kernels, each finishing at once) */
    bool polled;        /* runs finish only when a wait calls progress() */
    const void *builtin_image; /* the design every device carries, or NULL */
    size_t builtin_image_size;
} fake_port_config;
extern fake_port_config fake_config;

/* What the fake port's memory ops did (reset by the teardown). */
typedef struct fake_mem_stats {
    uint32_t allocs, frees, writes, reads, copies;
    uint64_t bytes_written, bytes_read;
    uint32_t fail_alloc_after; /* 0: never; n: the nth alloc and later fail */
} fake_mem_stats;
extern fake_mem_stats fake_mem;

/* What a polled fake port did (reset by the teardown). */
typedef struct fake_run_stats {
    uint32_t started, progress_calls, finished_in_progress;
} fake_run_stats;
extern fake_run_stats fake_runs;

/* Images linked into the tests (bitstreams/). */
#include "axl_test_amd_style_xclbin.h"
#include "axl_test_app_xclbin.h"
#include "axl_test_stock_xclbin.h"
#ifdef AXL_TEST_LINKED_IMAGES
#include "axl_test_vadd_4banks_xclbin.h"
#endif

/* A C model of vadd for images whose kernels have other names. */
struct axl_emu_call;
axl_status axl_test_vadd_model(const struct axl_emu_call *call, void *user);
/* A C model whose first run holds its unit until the test sets go (5 s at
 * most); the later runs end at once. Its user is its hold, which the test
 * zeroes before it registers it: axl_emu_register_model("fir",
 * axl_test_holding_model, &hold). runs counts the runs begun. */
typedef struct axl_test_hold {
    atomic_int runs, go;
} axl_test_hold;
axl_status axl_test_holding_model(const struct axl_emu_call *call,
                                  void *user);
extern const axl_device_port fake_port;
extern const axl_device_port fake_port_b; /* a second platform */

/* fake_port registered with one available device, which has memory: a
 * second device, for data that moves between devices. */
axl_device axl_test_fake_device(void);
/* The same with another configuration: its first device. */
axl_device axl_test_fake_device_as(fake_port_config config);

/* A host task that holds its worker until the atomic_int flag points at
 * is set (10 s at most, so a test that fails before it opens the gate
 * does not hang its teardown). */
axl_status axl_test_gate(void *flag);

/* A host allocator (axl_buffer_props.allocator) a test steers (reset by
 * the teardown): before each allocation it calls axl_test_alloc_hook
 * once, if set, as another part of the application acting while the
 * runtime has its lock dropped for the allocation; then it refuses while
 * axl_test_alloc_refuse is set, and counts what it gives in
 * axl_test_allocs. Before each deallocation it calls axl_test_free_hook
 * once, if set, the same way (the runtime frees storage with its lock
 * dropped). */
extern const axl_allocator axl_test_allocator;
extern void (*axl_test_alloc_hook)(void);
extern void (*axl_test_free_hook)(void);
extern bool axl_test_alloc_refuse;
extern int axl_test_allocs;

#endif /* AXL_TEST_H */
