#include "axl_test.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axl/emu.h"
#include "axl_config.h" /* the feature switches */
#if defined(AXL_TEST_MMIO) && AXL_FEATURE_DESIGN_SWAP
#include "mmio_sim.h" /* the simulator's board: axl_mmio_sim_set_swaps */
#endif
#if defined(AXL_TEST_RTL) && AXL_TEST_RTL && AXL_FEATURE_DESIGN_SWAP
#include "axl/rtl.h" /* the RTL's board: axl_rtl_set_swaps, _set_shell */
#endif
#include "pool.h"       /* to release what a skipped test left */
#include "pools.h"

extern axl__pool axl__pools[AXL__POOL_COUNT];

/* The calls each feature switch (core/axl_config.h) turns off. */
typedef struct switched_call {
    const char *fn;
    bool on;
    const char *setting;
} switched_call;

#define SW(fn, s) {fn, s, #s}
static const switched_call switched[] = {
    SW("axl_buffer_create_sub", AXL_FEATURE_SUB_BUFFERS),
    SW("axl_host_accessor_create", AXL_FEATURE_HOST_ACCESSORS),
    SW("axl_host_accessor_release", AXL_FEATURE_HOST_ACCESSORS),
    SW("axl_handler_host_task", AXL_FEATURE_HOST_TASKS),
    SW("axl_queue_host_task", AXL_FEATURE_HOST_TASKS),
    SW("axl_event_get_profiling", AXL_FEATURE_PROFILING),
    SW("axl_device_can_compile", AXL_FEATURE_SOURCE_BUNDLES),
    SW("axl_kernel_bundle_create_from_source", AXL_FEATURE_SOURCE_BUNDLES),
    SW("axl_kernel_bundle_build", AXL_FEATURE_SOURCE_BUNDLES),
    SW("axl_kernel_bundle_join", AXL_FEATURE_JOIN),
    SW("axl_image_register", AXL_FEATURE_APP_IMAGES),
    SW("axl_xclbin_open", AXL_FEATURE_XCLBIN_READER),
    SW("axl_graph_create", AXL_FEATURE_GRAPHS),
    SW("axl_graph_release", AXL_FEATURE_GRAPHS),
    SW("axl_graph_begin_recording", AXL_FEATURE_GRAPHS),
    SW("axl_graph_end_recording", AXL_FEATURE_GRAPHS),
    SW("axl_graph_add", AXL_FEATURE_GRAPHS),
    SW("axl_graph_node_from_event", AXL_FEATURE_GRAPHS),
    SW("axl_graph_node_count", AXL_FEATURE_GRAPHS),
    SW("axl_graph_finalize", AXL_FEATURE_GRAPHS),
    SW("axl_graph_exec_release", AXL_FEATURE_GRAPHS),
    SW("axl_queue_submit_graph", AXL_FEATURE_GRAPHS),
    SW("axl_ip_open", AXL_FEATURE_IP_ACCESS),
    SW("axl_ip_read32", AXL_FEATURE_IP_ACCESS),
    SW("axl_ip_write32", AXL_FEATURE_IP_ACCESS),
    SW("axl_ip_wait_interrupt", AXL_FEATURE_IP_ACCESS),
    SW("axl_ip_release", AXL_FEATURE_IP_ACCESS),
    SW("axl_ip_get_info", AXL_FEATURE_IP_ACCESS),
    SW("axl_graph_exec_update_scalar", AXL_FEATURE_GRAPHS),
    SW("axl_graph_exec_update_buffer", AXL_FEATURE_GRAPHS),
    SW("axl_plan_write", AXL_FEATURE_GRAPHS),
    SW("axl_plan_write_file", AXL_FEATURE_GRAPHS),
    /* Calls that take a design's bytes. */
    SW("axl_mmio_sim_attach", AXL_FEATURE_XCLBIN_READER),
    SW("axl_mmio_linux_board", AXL_FEATURE_XCLBIN_READER),
    {"axl_trace_enable", AXL_TRACE_EVENTS > 0, "AXL_TRACE_EVENTS"},
};
#undef SW

/* Whether text names fn as a call ("fn(" in a call's source, "fn:" in a
 * message). */
static bool names(const char *text, const char *fn)
{
    size_t n = strlen(fn);
    for (const char *p = text; (p = strstr(p, fn)) != NULL; p += n)
        if ((p == text || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z'))) &&
            (p[n] == '(' || p[n] == ':'))
            return true;
    return false;
}

const char *axl_test_switch_of(const char *fn)
{
    for (size_t i = 0; i < sizeof switched / sizeof switched[0]; i++)
        if (!switched[i].on && strcmp(switched[i].fn, fn) == 0)
            return switched[i].setting;
    return NULL;
}

/* The switch that made a call fail with FEATURE_NOT_SUPPORTED, when the
 * call (or the call the message names) is one this build switched off;
 * NULL when it is not (then the failure is a failure). */
static const char *switched_off_by(const char *call)
{
    const char *m = axl_last_message();
    for (size_t i = 0; i < sizeof switched / sizeof switched[0]; i++) {
        const switched_call *c = &switched[i];
        if (!c->on && (names(call, c->fn) || names(m, c->fn)))
            return c->setting;
    }
    return NULL;
}

void axl_test_expect(axl_status got, axl_status want, const char *call,
                     const char *file, int line)
{
    const char *setting;
    /* A test that reaches a part of the API this build switched off skips
     * the rest of itself, once the call answered as a switched-off call
     * must (AXL_TEST_NEEDS does the same where a test asks first). */
    if (got != want && got == AXL_ERR_FEATURE_NOT_SUPPORTED &&
        (setting = switched_off_by(call)) != NULL)
        axl_test_switched_off(setting, got, file, line);
    if (got != want) {
        print_error("%s:%d: %s returned %s, expected %s\n  message: %s\n",
                    file, line, call, axl_status_name(got),
                    axl_status_name(want), axl_last_message());
        _fail(file, line);
    }
}

bool axl_test_messages(void)
{
    /* With messages the reader says why; without, it gives the status. */
    char why[64] = "";
    axl_xclbin_open(NULL, NULL, 0, why, sizeof why);
    return strcmp(why, axl_status_name(AXL_ERR_INVALID)) != 0;
}

void axl_test_message_has(const char *text, const char *file, int line)
{
    if (axl_test_messages() && !strstr(axl_last_message(), text)) {
        print_error("%s:%d: message \"%s\" lacks \"%s\"\n", file, line,
                    axl_last_message(), text);
        _fail(file, line);
    }
}

axl_pool_stats axl_test_pool(const char *name)
{
    axl_pool_stats s[64];
    uint32_t n = 0;
    AXL_OK(axl_stats_get(s, 64, &n));
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(s[i].name, name) == 0)
            return s[i];
    fail_msg("no pool named %s", name);
    return s[0];
}

#if defined(AXL_TEST_PREDIGESTED) || !AXL_FEATURE_XCLBIN_READER
/* The same tests over the same images with every built-in design in its
 * pre-digested form (tests/CMakeLists.txt builds them this way as
 * <test>_predigested): the emulated device carries the design of its
 * board's image, and the fake port hands over the design of whichever
 * test image a test gives it. A build without the reader reads designs
 * only in that form: there every test does this. */
extern const axl_xclbin_design axl_design_stock;
extern const axl_xclbin_design axl_design_app;
extern const axl_xclbin_design axl_design_amd_style;

static const axl_xclbin_design *design_of(const void *image)
{
    if (image == axl_test_stock_xclbin)
        return &axl_design_stock;
    if (image == axl_test_app_xclbin)
        return &axl_design_app;
    if (image == axl_test_amd_style_xclbin)
        return &axl_design_amd_style;
    return NULL;
}
#endif

/* A test skipped halfway (a switched-off call) leaves what it made so
 * far: the teardown releases it, in an order where nothing released is
 * still needed by what follows, until each handle is stale. */
static bool skipped_halfway;

#define REL(type, fn)                                                          \
    static axl_status rel_##type(uint32_t id)                                  \
    {                                                                          \
        type h;                                                                \
        h.id = id;                                                             \
        return fn(h);                                                          \
    }
REL(axl_host_accessor, axl_host_accessor_release)
REL(axl_kernel, axl_kernel_release)
#if AXL_FEATURE_IP_ACCESS
REL(axl_ip, axl_ip_release)
#endif
REL(axl_kernel_bundle, axl_kernel_bundle_release)
REL(axl_event, axl_event_release)
/* The skipped test's frame is gone: a buffer over its stack must not be
 * written back into it. */
static axl_status rel_axl_buffer(uint32_t id)
{
    axl_buffer h;
    h.id = id;
    axl_buffer_set_write_back(h, false);
    axl_buffer_set_final_data(h, NULL);
    return axl_buffer_release(h);
}
REL(axl_queue, axl_queue_release)
#if AXL_FEATURE_GRAPHS
REL(axl_graph_exec, axl_graph_exec_release)
REL(axl_graph, axl_graph_release)
#endif
REL(axl_context, axl_context_release)
#undef REL

static void release_what_was_left(void)
{
    static const struct {
        int kind;
        axl_status (*release)(uint32_t id);
    } order[] = {
        {AXL__POOL_HOST_ACCESSOR, rel_axl_host_accessor},
#if AXL_FEATURE_IP_ACCESS
        {AXL__POOL_IP, rel_axl_ip},
#endif
        {AXL__POOL_KERNEL, rel_axl_kernel},
        {AXL__POOL_KERNEL_BUNDLE, rel_axl_kernel_bundle},
        {AXL__POOL_EVENT, rel_axl_event},
        {AXL__POOL_BUFFER, rel_axl_buffer},
#if AXL_FEATURE_GRAPHS
        {AXL__POOL_GRAPH_EXEC, rel_axl_graph_exec},
        {AXL__POOL_GRAPH, rel_axl_graph},
#endif
        {AXL__POOL_QUEUE, rel_axl_queue},
        {AXL__POOL_CONTEXT, rel_axl_context},
    };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        const axl__pool *p = &axl__pools[order[i].kind];
        for (uint16_t slot = 0; p->ready && slot < p->capacity; slot++) {
            for (int n = 0; n < 1000 && p->link[slot] == AXL__SLOT_LIVE;
                 n++) {
                uint32_t id = ((uint32_t)p->kind << AXL__HANDLE_KIND_SHIFT) |
                              ((uint32_t)p->gen[slot]
                               << AXL__HANDLE_GEN_SHIFT) |
                              (uint32_t)(slot + 1);
                if (order[i].release(id) != AXL_SUCCESS)
                    break;
            }
        }
    }
}

void axl_test_switched_off(const char *setting, axl_status got,
                           const char *file, int line)
{
    skipped_halfway = true;
    if (got != AXL_ERR_FEATURE_NOT_SUPPORTED) {
        print_error("%s:%d: %s: a switched-off call returned %s\n", file,
                    line, setting, axl_status_name(got));
        _fail(file, line);
    }
    /* The reader says why in its own buffer, not in the message. */
    if (strcmp(setting, "AXL_FEATURE_XCLBIN_READER") != 0)
        axl_test_message_has(setting, file, line);
    print_message("switched off: %s (%s:%d)\n", setting, file, line);
    skip();
}

void axl_test_skip_on_rtl(const char *why, const char *file, int line)
{
    skipped_halfway = true; /* the teardown releases what it made */
    print_message("not on the RTL: %s (%s:%d)\n", why, file, line);
    skip();
}

const char *axl_test_kernel_fix(void)
{
#if defined(AXL_TEST_RTL) && AXL_TEST_RTL
    return "add its RTL with axl_add_rtl_kernel() in CMake";
#else
    return "register a C model with axl_emu_register_model()";
#endif
}

/* Texts the formatter had cut when the test began (axl_format_cuts). */
static unsigned long cuts_at_setup;

int axl_test_setup(void **state)
{
    (void)state;
    cuts_at_setup = axl_format_cuts(NULL);
    AXL_OK(axl_shutdown());
    axl_test_emu_swaps(true); /* a test that turned them off may have failed */
#if AXL_FEATURE_DESIGN_SWAP
    AXL_OK(axl_emu_set_shell(NULL)); /* nor a shell one gave (issue 40) */
#if defined(AXL_TEST_MMIO)
    AXL_OK(axl_mmio_sim_set_shell(NULL)); /* the simulator's board's */
#endif
#if defined(AXL_TEST_RTL) && AXL_TEST_RTL
    AXL_OK(axl_rtl_set_shell(NULL)); /* the RTL board's */
#endif
#endif
#if defined(AXL_TEST_PREDIGESTED)
    AXL_OK(axl_emu_set_builtin_design(&AXL_TEST_EMU_DESIGN));
#endif
    return 0;
}

int axl_test_teardown(void **state)
{
    (void)state;
    /* A test skipped halfway: what it left is released, and what may
     * still be in flight ends in the shutdown below, which must then
     * leave every pool empty. */
    bool skipped = skipped_halfway;
    if (skipped) {
        skipped_halfway = false;
        release_what_was_left();
    }
    /* A run given up at its timeout keeps its command (and the kernel,
     * bundle and context the command holds) until its unit is back
     * (core/cu.c, abandon). On the emulated device a worker still inside
     * the model when the run was given up reports it when the model
     * returns, which a loaded machine can put after the test's last wait:
     * such a run gets a bounded time to come back (the worker needs no
     * call of ours) before what is left is called a leak. A real leak
     * never comes back, so it is still reported, 10 s later. */
    for (int ms = 0; ms < 10000 && !skipped &&
                     axl_test_pool("command").in_use != 0;
         ms++) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    axl_pool_stats s[32];
    uint32_t n = 0;
    AXL_OK(axl_stats_get(s, 32, &n));
    int leaks = 0;
    for (uint32_t i = 0; i < n; i++) {
        /* What the runtime owns until shutdown: devices, the placements
         * of the designs they carry, and the images and kernel ids of
         * registered and built-in designs. */
        if (!strcmp(s[i].name, "platform") || !strcmp(s[i].name, "device") ||
            !strcmp(s[i].name, "placement") ||
            !strcmp(s[i].name, "image") || !strcmp(s[i].name, "kernel_id"))
            continue;
        if (s[i].in_use && !skipped) {
            print_error("leak: %u %s still in use\n", (unsigned)s[i].in_use,
                        s[i].name);
            leaks++;
        }
    }
    axl_test_clock_remove();
    AXL_OK(axl_shutdown());
    AXL_OK(axl_stats_get(s, 32, &n));
    for (uint32_t i = 0; i < n; i++) {
        if (s[i].in_use) {
            print_error("after shutdown: %u %s in use\n",
                        (unsigned)s[i].in_use, s[i].name);
            leaks++;
        }
    }
    /* Every message whole (issue 35.4): none of the texts the runtime,
     * the ports and the models formatted during the test was cut. */
    const char *last;
    const unsigned long cuts = axl_format_cuts(&last);
    if (cuts != cuts_at_setup) {
        print_error("%lu text(s) did not fit their buffer (cut); the "
                    "first of the program began \"%s\"\n",
                    cuts - cuts_at_setup, last ? last : "");
        leaks++;
    }
    cuts_at_setup = cuts;
    fake_config = (fake_port_config){0};
    axl_test_alloc_hook = NULL;
    axl_test_free_hook = NULL;
    axl_test_alloc_refuse = false;
    axl_test_allocs = 0;
    memset(&fake_mem, 0, sizeof fake_mem);
    memset(&fake_runs, 0, sizeof fake_runs);
    return leaks ? -1 : 0;
}

/* Read by whatever thread asks the runtime the time (dispatchers, a
 * port's own threads, progress), with or without the runtime lock:
 * atomic. */
static _Atomic uint64_t clock_now, clock_step;

static uint64_t test_clock(void *user)
{
    (void)user;
    uint64_t step = atomic_load(&clock_step);
    return atomic_fetch_add(&clock_now, step) + step;
}

void axl_test_clock_install(uint64_t start, uint64_t step)
{
    atomic_store(&clock_now, start);
    atomic_store(&clock_step, step);
    axl_clock_set(test_clock, NULL);
}

void axl_test_clock_remove(void)
{
    axl_clock_set(NULL, NULL);
}

axl_device axl_test_emu_device(void)
{
    axl_device d[8];
    uint32_t n = 0;
    AXL_OK(axl_device_get_all(AXL_DEVICE_TYPE_ALL, d, 8, &n));
    for (uint32_t i = 0; i < n; i++) {
        bool emu = false;
        AXL_OK(axl_device_has(d[i], AXL_ASPECT_EMULATED, &emu));
        if (emu)
            return d[i];
    }
    fail_msg("no emulated device");
    return d[0];
}

axl_status axl_test_gate(void *flag)
{
    for (int i = 0; i < 100000 && !atomic_load((atomic_int *)flag); i++) {
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
    return AXL_SUCCESS;
}

axl_device axl_test_fake_device(void)
{
    return axl_test_fake_device_as((fake_port_config){
        .devices = 1, .flags = AXL_HAL_DEVICE_AVAILABLE});
}

axl_device axl_test_fake_device_as(fake_port_config config)
{
    fake_config = config;
    AXL_OK(axl_device_port_register(&fake_port));
    axl_aspect emulated = AXL_ASPECT_EMULATED;
    axl_aspect_list not_emulated = {NULL, 0, &emulated, 1};
    axl_device fake;
    AXL_OK(axl_device_select(axl_aspect_selector, &not_emulated, &fake));
    return fake;
}

void (*axl_test_alloc_hook)(void);
void (*axl_test_free_hook)(void);
bool axl_test_alloc_refuse;
int axl_test_allocs;

static void *test_allocate(size_t size, size_t align, void *user)
{
    (void)user;
    void (*hook)(void) = axl_test_alloc_hook;
    axl_test_alloc_hook = NULL;
    if (hook)
        hook();
    if (axl_test_alloc_refuse)
        return NULL;
    axl_test_allocs++;
    return aligned_alloc(align, (size + align - 1) / align * align);
}

static void test_deallocate(void *p, size_t size, void *user)
{
    (void)size;
    (void)user;
    void (*hook)(void) = axl_test_free_hook;
    axl_test_free_hook = NULL;
    if (hook)
        hook();
    free(p);
}

const axl_allocator axl_test_allocator = {test_allocate, test_deallocate,
                                          NULL};

axl_test_rig axl_test_rig_up(uint32_t flags)
{
    return axl_test_rig_on(axl_test_emu_device(), flags);
}

axl_test_rig axl_test_rig_on(axl_device dev, uint32_t flags)
{
    return axl_test_rig_as((axl_test_rig_config){.dev = dev, .flags = flags});
}

axl_test_rig axl_test_rig_as(axl_test_rig_config c)
{
    axl_test_rig r;
    r.dev = AXL_IS_NONE(c.dev) ? axl_test_emu_device() : c.dev;
    AXL_OK(axl_context_create(&r.dev, 1, c.on_context, &r.ctx));
    AXL_OK(axl_queue_create(r.ctx, r.dev, c.flags, c.on_queue, &r.q));
    const axl_kernel_id id =
        !AXL_IS_NONE(c.id) ? c.id
                           : axl_test_builtin(r.dev, c.kernel ? c.kernel : "vadd");
    AXL_OK(axl_get_kernel_bundle_for(r.ctx, NULL, 0, &id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &r.bundle));
    AXL_OK(axl_kernel_bundle_get_kernel(r.bundle, id, &r.kernel));
    return r;
}

void axl_test_emu_swaps(bool on)
{
#if AXL_FEATURE_DESIGN_SWAP
    AXL_OK(axl_emu_set_swaps(on));
#if defined(AXL_TEST_MMIO)
    axl_mmio_sim_set_swaps(on); /* the simulator's board (fixed_design) */
#endif
#if defined(AXL_TEST_RTL) && AXL_TEST_RTL
    axl_rtl_set_swaps(on); /* the RTL's board (fixed_design) */
#endif
#else
    (void)on;
#endif
}

void axl_test_rig_let_go(axl_test_rig *r)
{
    if (!AXL_IS_NONE(r->vadd))
        AXL_OK(axl_kernel_release(r->vadd));
    if (!AXL_IS_NONE(r->bundle))
        AXL_OK(axl_kernel_bundle_release(r->bundle));
    r->vadd = (axl_kernel)AXL_NONE;
    r->bundle = (axl_kernel_bundle)AXL_NONE;
}

void axl_test_rig_down(axl_test_rig *r)
{
    AXL_OK(axl_queue_wait(r->q));
    axl_test_rig_drop(r);
}

void axl_test_rig_drop(axl_test_rig *r)
{
    axl_test_rig_let_go(r);
    AXL_OK(axl_queue_release(r->q));
    AXL_OK(axl_context_release(r->ctx));
}

axl_kernel_id axl_test_builtin(axl_device dev, const char *name)
{
    axl_kernel_id id;
    AXL_OK(axl_get_built_in_kernel_id(dev, name, &id));
    return id;
}

axl_kernel axl_test_rig_kernel(const axl_test_rig *r, const char *name)
{
    axl_kernel k;
    AXL_OK(axl_kernel_bundle_get_kernel(r->bundle,
                                        axl_test_builtin(r->dev, name), &k));
    return k;
}

/* ---- The fake port ----------------------------------------------------------- */

fake_port_config fake_config;
fake_mem_stats fake_mem;

/* One 1 MiB bank per fake device, handed out by a bounded arena. */
#define FAKE_BANK (1u << 20)
static _Alignas(64) unsigned char fake_storage[8][FAKE_BANK];
static axl_arena fake_arena[8];
static axl_arena_block fake_blocks[8][64];

static axl_status fake_probe(uint32_t *count, char *why, size_t size)
{
    *count = fake_config.devices;
    if (!fake_config.devices)
        snprintf(why, size, "the fake port was told to find nothing");
    return AXL_SUCCESS;
}

static int fake_state[8];

static int fake_index(void *dev)
{
    return (int)((int *)dev - fake_state);
}

static axl_status fake_open(uint32_t index, void **dev)
{
    fake_state[index] = 1;
    axl_arena_init(&fake_arena[index], fake_storage[index], FAKE_BANK, 512,
                   fake_blocks[index], 64);
    *dev = &fake_state[index];
    return AXL_SUCCESS;
}


static axl_status fake_mem_alloc(void *dev, uint32_t bank, uint64_t size,
                                 void *user_ptr, axl_hal_mem *out)
{
    (void)user_ptr;
    if (bank != 0)
        return AXL_ERR_INVALID;
    fake_mem.allocs++;
    if (fake_mem.fail_alloc_after && fake_mem.allocs >= fake_mem.fail_alloc_after)
        return AXL_ERR_MEMORY_ALLOCATION;
    uint64_t off;
    axl_port_lock();
    axl_status st = axl_arena_alloc(&fake_arena[fake_index(dev)], size, &off);
    axl_port_unlock();
    if (st != AXL_SUCCESS)
        return st;
    out->handle = (uintptr_t)off + 1;
    out->host_ptr = fake_storage[fake_index(dev)] + off;
    out->device_address = off;
    out->size = size;
    out->bank = bank;
    return AXL_SUCCESS;
}

static void fake_mem_free(void *dev, axl_hal_mem *mem)
{
    fake_mem.frees++;
    axl_port_lock();
    axl_arena_free(&fake_arena[fake_index(dev)], (uint64_t)(mem->handle - 1));
    axl_port_unlock();
}

static axl_status fake_mem_write(void *dev, axl_hal_mem *mem, uint64_t off,
                                 const void *src, uint64_t size)
{
    (void)dev;
    if (off + size > mem->size)
        return AXL_ERR_INVALID;
    __atomic_add_fetch(&fake_mem.writes, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&fake_mem.bytes_written, size, __ATOMIC_RELAXED);
    memcpy((unsigned char *)mem->host_ptr + off, src, size);
    return AXL_SUCCESS;
}

static axl_status fake_mem_read(void *dev, axl_hal_mem *mem, uint64_t off,
                                void *dst, uint64_t size)
{
    (void)dev;
    if (off + size > mem->size)
        return AXL_ERR_INVALID;
    __atomic_add_fetch(&fake_mem.reads, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&fake_mem.bytes_read, size, __ATOMIC_RELAXED);
    memcpy(dst, (const unsigned char *)mem->host_ptr + off, size);
    return AXL_SUCCESS;
}

static axl_status fake_open_b(uint32_t index, void **dev)
{
    return fake_open(index + 4, dev);
}

static void fake_close(void *dev)
{
    *(int *)dev = 0;
}

static axl_status fake_describe(void *dev, axl_hal_device_info *info)
{
    memset(info, 0, sizeof *info);
    snprintf(info->name, sizeof info->name, "%s %d",
             fake_config.name ? fake_config.name : "fake FPGA",
             (int)((int *)dev - fake_state));
    snprintf(info->vendor, sizeof info->vendor, "tests");
    snprintf(info->driver_version, sizeof info->driver_version, "1.0");
    snprintf(info->backend_version, sizeof info->backend_version, "fake");
    info->vendor_id = 0x10ee;
    info->type = fake_config.type ? fake_config.type
                                  : AXL_DEVICE_TYPE_ACCELERATOR;
    info->flags = fake_config.flags;
    if (fake_config.program_mask >> fake_index(dev) & 1)
        info->flags |= AXL_HAL_DEVICE_REPROGRAMMABLE;
    info->mem_base_addr_align = 4096;
    info->bank_count = 1;
    info->global_mem_size = 1u << 20;
    info->max_mem_alloc_size = 1u << 20;
    info->timer_resolution_ns = 1;
    info->builtin_image = fake_config.builtin_image;
    info->builtin_image_size = fake_config.builtin_image_size;
#if defined(AXL_TEST_PREDIGESTED) || !AXL_FEATURE_XCLBIN_READER
    info->builtin_design = design_of(fake_config.builtin_image);
    if (info->builtin_design) {
        info->builtin_image = NULL;
        info->builtin_image_size = 0;
    }
#endif
    return AXL_SUCCESS;
}

static axl_status fake_bank(void *dev, uint32_t index, axl_hal_bank *out)
{
    (void)dev;
    memset(out, 0, sizeof *out);
    snprintf(out->tag, sizeof out->tag, "fake%u", (unsigned)index);
    out->size = 1u << 20;
    return AXL_SUCCESS;
}

static axl_status fake_load_image(void *dev, const axl_xclbin *image,
                                  char *why, size_t size)
{
    (void)dev;
    (void)image;
    (void)why;
    (void)size;
    return AXL_SUCCESS;
}

fake_run_stats fake_runs;
static pthread_mutex_t fake_run_lock = PTHREAD_MUTEX_INITIALIZER;
static void *fake_pending[16];
static unsigned fake_npending;

static axl_status fake_run_start(void *dev, const axl_hal_run *run)
{
    (void)dev;
    if (!fake_config.polled) {
        axl_hal_run_done(run->token, AXL_SUCCESS, NULL);
        return AXL_SUCCESS;
    }
    pthread_mutex_lock(&fake_run_lock);
    axl_status st = AXL_ERR_OUT_OF_RESOURCES;
    if (fake_npending < 16) {
        fake_pending[fake_npending++] = run->token;
        fake_runs.started++;
        st = AXL_SUCCESS;
    }
    pthread_mutex_unlock(&fake_run_lock);
    return st;
}

/* Finishes every run started so far, as a polled driver would. */
static void fake_progress(void *dev, uint64_t deadline_ns)
{
    (void)dev;
    (void)deadline_ns;
    void *done[16];
    pthread_mutex_lock(&fake_run_lock);
    unsigned n = fake_npending;
    memcpy(done, fake_pending, n * sizeof done[0]);
    fake_npending = 0;
    fake_runs.progress_calls++;
    fake_runs.finished_in_progress += n;
    pthread_mutex_unlock(&fake_run_lock);
    for (unsigned i = 0; i < n; i++)
        axl_hal_run_done(done[i], AXL_SUCCESS, NULL);
}

axl_status axl_test_holding_model(const struct axl_emu_call *call,
                                  void *user)
{
    (void)call;
    axl_test_hold *h = user;
    if (atomic_fetch_add(&h->runs, 1) == 0)
        for (int ms = 0; ms < 5000 && !atomic_load(&h->go); ms++) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
    return AXL_SUCCESS;
}

axl_status axl_test_vadd_model(const struct axl_emu_call *c, void *user)
{
    (void)user;
    uint32_t n;
    axl_status st = axl_emu_u32(c, 3, &n);
    if (st != AXL_SUCCESS)
        return st;
    const int32_t *a = axl_emu_buffer(c, 0, n * 4u);
    const int32_t *b = axl_emu_buffer(c, 1, n * 4u);
    int32_t *o = axl_emu_buffer(c, 2, n * 4u);
    if (!a || !b || !o)
        return axl_fail(AXL_ERR_KERNEL, "buffers too small");
    for (uint32_t i = 0; i < n; i++)
        o[i] = a[i] + b[i];
    return AXL_SUCCESS;
}

const axl_device_port fake_port = {
    .name = "fake",
    .platform_name = "fake hardware",
    .platform_vendor = "tests",
    .platform_version = "1",
    .backend = AXL_BACKEND_XRT,
    .probe = fake_probe,
    .open = fake_open,
    .close = fake_close,
    .describe = fake_describe,
    .bank = fake_bank,
    .mem_alloc = fake_mem_alloc,
    .mem_free = fake_mem_free,
    .mem_write = fake_mem_write,
    .mem_read = fake_mem_read,
    .load_image = fake_load_image,
    .run_start = fake_run_start,
    .progress = fake_progress,
};

const axl_device_port fake_port_b = {
    .name = "fake-b",
    .platform_name = "fake hardware B",
    .platform_vendor = "tests",
    .platform_version = "1",
    .backend = AXL_BACKEND_XRT,
    .probe = fake_probe,
    .open = fake_open_b,
    .close = fake_close,
    .describe = fake_describe,
    .bank = fake_bank,
    .mem_alloc = fake_mem_alloc,
    .mem_free = fake_mem_free,
    .mem_write = fake_mem_write,
    .mem_read = fake_mem_read,
};

/* ---- Partial designs (issue 40) ----------------------------------------- */

/* XRT's axlf layout (xclbin.h): m_header.m_mode, m_interface_uuid, uuid,
 * the section table; IP_LAYOUT's ip_data (80 bytes each, the base at 8). */
#define AXLF_MODE_OFF 332u
#define AXLF_IFACE_OFF 336u
#define AXLF_UUID_OFF 416u
#define AXLF_NSECT_OFF 448u
#define AXLF_SECT_OFF 456u
#define XCLBIN_PR 1u
#define IP_LAYOUT_KIND 8u

uint32_t axl_test_rd32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

void axl_test_wr64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

unsigned char *axl_test_section(unsigned char *image, uint32_t kind)
{
    const uint32_t nsect = axl_test_rd32(image + AXLF_NSECT_OFF);
    for (uint32_t s = 0; s < nsect; s++) {
        const unsigned char *h = image + AXLF_SECT_OFF + 40u * s;
        if (axl_test_rd32(h) == kind)
            return image + axl_test_rd32(h + 24);
    }
    return NULL;
}

size_t axl_test_partial(unsigned char *out, size_t cap,
                        const unsigned char *full, size_t size,
                        const uint8_t *iface, const uint64_t *base,
                        uint32_t nbase, unsigned char tag)
{
    assert_true(size <= cap);
    memcpy(out, full, size);
    if (iface) {
        out[AXLF_MODE_OFF] = XCLBIN_PR;
        out[AXLF_MODE_OFF + 1] = 0;
        memcpy(out + AXLF_IFACE_OFF, iface, 16);
    }
    out[AXLF_UUID_OFF + 15] ^= tag;
    unsigned char *ip = axl_test_section(out, IP_LAYOUT_KIND);
    for (uint32_t i = 0; ip && i < axl_test_rd32(ip) && i < nbase; i++)
        axl_test_wr64(ip + 8 + 80u * i + 8, base[i]);
    return size;
}
