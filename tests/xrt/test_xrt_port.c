/*
 * The XRT device port on XRT 2.13's noop shim: through the public API where
 * the core drives it (platform, device info, banks, interop), and through
 * its ops table for the rest (images, memory, compute units, runs), with
 * XRT failures injected at every step that can fail.
 *
 * On the noop shim everything succeeds and nothing executes: buffers keep
 * what was written (a BO is plain host memory), and every run completes
 * the moment it starts, or after Runtime.noop_completion_delay_us (group
 * "delayed"). A hung accelerator is simulated by making XRT report RUNNING
 * for one run.
 *
 * Usage: test_xrt_port platform|memory|runs|faults|delayed|noop|race
 */
#include "../support/axl_reader_skip.h"
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>

#include <sys/stat.h>

#include "xrt_test.h"
#include "xrt_port.h" /* the device's lock, for the fast path's test */

static const axl_device_port *const P = &axl_native_port;

static xt_image stock, app, amd;

static void load_images(void)
{
    xt_image_load(&stock, "stock.xclbin");
    xt_image_load(&app, "app.xclbin");
    xt_image_load(&amd, "amd_style.xclbin");
}

static int setup(void **state)
{
    xt_setup(state);
    load_images();
    return 0;
}

/* Images are freed after shutdown: the port reads the loaded one until it
 * closes. */
static int teardown(void **state)
{
    int st = xt_teardown(state);
    xt_image_free(&stock);
    xt_image_free(&app);
    xt_image_free(&amd);
    return st;
}

#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

/* The XRT device's port state with `img` loaded. */
static void *device_with(const xt_image *img)
{
    void *dev;
    xt_device(&dev);
    char why[256] = "";
    if (P->load_image(dev, &img->x, why, sizeof why) != AXL_SUCCESS)
        fail_msg("load_image: %s", why);
    return dev;
}

/* ---- Injected XRT failures -------------------------------------------------- */

static atomic_int hang_next;       /* the next started run hangs */
static _Atomic(xrtRunHandle) hung; /* the run XRT reports RUNNING for */
static atomic_int released;        /* ...until this is set */
static atomic_int error_next;      /* the next started run ends in ERROR */
static _Atomic(xrtRunHandle) errored;
static atomic_int lose_next;       /* the next started run: its completion */
static _Atomic(xrtRunHandle) lost; /* lost, as the noop shim's race does */
static _Atomic(xrtRunHandle) last_started;
static atomic_int fail_at;         /* set_arg: fail argument fail_at - 1 */
static atomic_int calls;           /* set_arg calls */

static void faults_reset(void)
{
    hang_next = 0;
    hung = NULL;
    released = 0;
    error_next = 0;
    errored = NULL;
    lose_next = 0;
    lost = NULL;
    last_started = NULL;
    fail_at = 0;
    calls = 0;
}

static int start_marking(xrtRunHandle h)
{
    if (atomic_exchange(&hang_next, 0)) {
        hung = h;
        released = 0;
    }
    if (atomic_exchange(&error_next, 0))
        errored = h;
    if (atomic_exchange(&lose_next, 0))
        lost = h;
    last_started = h;
    return axl__xrt_real.run_start(h);
}

static enum ert_cmd_state state_faked(xrtRunHandle h)
{
    if (h == hung && !released)
        return ERT_CMD_STATE_RUNNING;
    if (h == errored)
        return ERT_CMD_STATE_ERROR;
    if (h == lost)
        return ERT_CMD_STATE_NEW;
    return axl__xrt_real.run_state(h);
}

static enum ert_cmd_state wait_faked(xrtRunHandle h, unsigned ms)
{
    if ((h == hung && !released) || h == lost) {
        xt_sleep_ms(ms);
        return ERT_CMD_STATE_TIMEOUT; /* XRT's answer when the wait times out */
    }
    if (h == errored)
        return ERT_CMD_STATE_ERROR;
    return axl__xrt_real.run_wait_for(h, ms);
}

static void install_fake_states(void)
{
    faults_reset();
    axl__xrt.run_start = start_marking;
    axl__xrt.run_state = state_faked;
    axl__xrt.run_wait_for = wait_faked;
}

/* ---- Runs ---------------------------------------------------------------- */

typedef struct vadd_run {
    axl_hal_run run;
    axl_hal_arg args[4];
    uint32_t n;
} vadd_run;

static void vadd_setup(vadd_run *v, const xt_image *img, uint32_t cu,
                       uintptr_t cu_handle, const axl_hal_mem *a,
                       const axl_hal_mem *b, const axl_hal_mem *c, uint32_t n)
{
    memset(v, 0, sizeof *v);
    v->n = n;
    xt_kernel(&img->x, "vadd", cu, &v->run.kernel_index, &v->run.ip_index);
    v->run.token = v;
    v->run.image = &img->x;
    v->run.kernel_name = "vadd";
    v->run.cu = cu;
    v->run.cu_handle = cu_handle;
    v->run.arg_count = 4;
    v->run.args = v->args;
    v->run.range = axl_range_1d(1);
    const axl_hal_mem *m[3] = {a, b, c};
    for (uint32_t i = 0; i < 3; i++) {
        v->args[i].id = i;
        v->args[i].is_mem = 1;
        v->args[i].mem = m[i];
        v->args[i].size = m[i] ? m[i]->size : 0;
    }
    v->args[3].id = 3;
    v->args[3].size = sizeof v->n;
    v->args[3].value = &v->n;
}

static void alloc3(void *dev, axl_hal_mem m[3], uint64_t size)
{
    for (int i = 0; i < 3; i++)
        AXL_OK(P->mem_alloc(dev, (uint32_t)(i % 2), size, NULL, &m[i]));
}

static void free3(void *dev, axl_hal_mem m[3])
{
    for (int i = 0; i < 3; i++)
        P->mem_free(dev, &m[i]);
}

static axl__xrt_counts counts(void)
{
    axl__xrt_counts c;
    axl__xrt_get_counts(&c);
    return c;
}

static void run_ok(void *dev, vadd_run *v)
{
    unsigned since = xt_mark();
    AXL_OK(P->run_start(dev, &v->run));
    xt_done d;
    assert_true(xt_wait_done_since(v, since, 10000, &d));
    if (d.status != AXL_SUCCESS)
        fail_msg("run ended with %s: %s", axl_status_name(d.status), d.why);
}

/* ======================= platform: the public API ============================= */

static void xrt_platform_lists_one_noop_device_named_for_its_shim(void **state)
{
    (void)state;
    axl_platform p = xt_platform();
    uint32_t n = 0;
    AXL_OK(axl_platform_get_devices(p, AXL_DEVICE_TYPE_ALL, NULL, 0, &n));
    assert_int_equal(n, 1); /* the noop shim's xclProbe says 1 */
    char s[128];
    AXL_OK(axl_platform_get_info(p, AXL_PLATFORM_INFO_NAME, s, sizeof s,
                                 NULL));
    assert_string_equal(s, "AMD XRT");
    axl_device d = xt_device(NULL);
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_NAME, s, sizeof s, NULL));
    assert_non_null(strstr(s, "XRT noop shim: nothing executes"));
}

static void noop_device_is_an_emulated_accelerator_with_xrt_versions(
    void **state)
{
    (void)state;
    axl_device d = xt_device(NULL);
    axl_device_type type;
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_DEVICE_TYPE, &type,
                               sizeof type, NULL));
    assert_int_equal(type, AXL_DEVICE_TYPE_ACCELERATOR);
    bool has = false;
    AXL_OK(axl_device_has(d, AXL_ASPECT_EMULATED, &has));
    assert_true(has); /* a selector that wants hardware must skip it */
    AXL_OK(axl_device_has(d, AXL_ASPECT_QUEUE_PROFILING, &has));
    assert_true(has);
    uint32_t u32 = 0;
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_VENDOR_ID, &u32, sizeof u32,
                               NULL));
    assert_int_equal(u32, 0x10ee);
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_MEM_BASE_ADDR_ALIGN, &u32,
                               sizeof u32, NULL));
    assert_int_equal(u32, AXL_XRT_MEM_ALIGN_BITS);
    char s[64];
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_BACKEND_VERSION, s,
                               sizeof s, NULL));
    assert_non_null(strstr(s, "XRT 2.13"));
    assert_non_null(strstr(s, "libxrt_noop.so.2"));
    axl_backend b;
    AXL_OK(axl_device_get_backend(d, &b));
    assert_int_equal(b, AXL_BACKEND_XRT);
}

static void without_a_design_the_device_has_no_memory_banks(void **state)
{
    (void)state;
    axl_device d = xt_device(NULL);
    uint32_t banks = 99;
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_MEMORY_BANKS, &banks,
                               sizeof banks, NULL));
    assert_int_equal(banks, 0);
    axl_device_bank bank;
    AXL_EXPECT(axl_device_get_bank(d, 0, &bank), AXL_ERR_INVALID);
}

static void board_design_loads_at_open_with_its_banks_and_kernels(
    void **state)
{
    (void)state;
    setenv("AXL_XRT_BUILTIN_XCLBIN", AXL_XCLBIN_DIR "/stock.xclbin", 1);
    void *dev;
    axl_device d = xt_device(&dev);
    uint32_t banks = 0;
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_MEMORY_BANKS, &banks,
                               sizeof banks, NULL));
    assert_int_equal(banks, 2); /* bank2 is unused in MEM_TOPOLOGY */
    axl_device_bank bank;
    AXL_OK(axl_device_get_bank(d, 1, &bank));
    assert_string_equal(bank.tag, "bank1");
    assert_int_equal(bank.size, 256u << 20);
    assert_int_equal(bank.base_address, 0x4010000000ull);
    char names[256] = "";
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_BUILT_IN_KERNELS, names,
                               sizeof names, NULL));
    assert_non_null(strstr(names, "vadd"));
    assert_non_null(strstr(names, "conv2d"));
    /* XRT has it: its UUID is the device's. */
    xuid_t uuid;
    assert_int_equal(xrtDeviceGetXclbinUUID(axl__xrt_device_handle(dev), uuid),
                     0);
    assert_memory_equal(uuid, stock.x.uuid, sizeof uuid);
    axl_hal_device_info info;
    AXL_OK(P->describe(dev, &info));
    assert_non_null(info.builtin_image);
    assert_int_equal(info.builtin_image_size, stock.size);
    assert_int_equal(info.max_clock_mhz, 500); /* its KERNEL_CLK */
}

/* What the device says it already runs, and what the port then asks XRT. */
static xuid_t running;
static atomic_int loads_by_uuid, loads_of_bytes;

static int uuid_running(xrtDeviceHandle d, xuid_t out)
{
    (void)d;
    memcpy(out, running, sizeof running);
    return 0;
}

static int attach_by_uuid(xrtDeviceHandle d, const xuid_t uuid)
{
    (void)d, (void)uuid;
    loads_by_uuid++;
    return 0;
}

static int load_counted(xrtDeviceHandle d, const struct axlf *image)
{
    loads_of_bytes++;
    return axl__xrt_real.device_load_xclbin(d, image);
}

static void board_design_already_running_is_attached_not_reprogrammed(
    void **state)
{
    (void)state;
    setenv("AXL_XRT_BUILTIN_XCLBIN", AXL_XCLBIN_DIR "/stock.xclbin", 1);
    memcpy(running, stock.x.uuid, sizeof running);
    loads_by_uuid = loads_of_bytes = 0;
    axl__xrt.device_get_xclbin_uuid = uuid_running;
    axl__xrt.device_load_xclbin_uuid = attach_by_uuid;
    axl__xrt.device_load_xclbin = load_counted;
    void *dev;
    axl_device d = xt_device(&dev);
    assert_int_equal(loads_by_uuid, 1);
    assert_int_equal(loads_of_bytes, 0);
    uint32_t banks = 0;
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_MEMORY_BANKS, &banks,
                               sizeof banks, NULL));
    assert_int_equal(banks, 2);
    axl_hal_device_info info;
    AXL_OK(P->describe(dev, &info));
    assert_non_null(info.builtin_image);
}

static void a_device_running_another_design_has_no_builtin_kernels(
    void **state)
{
    (void)state;
    setenv("AXL_XRT_BUILTIN_XCLBIN", AXL_XCLBIN_DIR "/stock.xclbin", 1);
    memset(running, 0xab, sizeof running);
    loads_by_uuid = loads_of_bytes = 0;
    axl__xrt.device_get_xclbin_uuid = uuid_running;
    axl__xrt.device_load_xclbin_uuid = attach_by_uuid;
    axl__xrt.device_load_xclbin = load_counted;
    void *dev;
    axl_device d = xt_device(&dev);
    assert_int_equal(loads_by_uuid + loads_of_bytes, 0); /* left alone */
    uint32_t banks = 9;
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_MEMORY_BANKS, &banks,
                               sizeof banks, NULL));
    assert_int_equal(banks, 0);
    char names[64] = "x";
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_BUILT_IN_KERNELS, names,
                               sizeof names, NULL));
    assert_string_equal(names, "");
    axl_hal_device_info info;
    AXL_OK(P->describe(dev, &info));
    assert_null(info.builtin_image);
}

static void unreadable_board_design_leaves_no_device_and_says_why(
    void **state)
{
    (void)state;
    setenv("AXL_XRT_BUILTIN_XCLBIN", "/nonexistent/design.xclbin", 1);
    axl_platform p = xt_platform();
    uint32_t n = 9;
    AXL_OK(axl_platform_get_devices(p, AXL_DEVICE_TYPE_ALL, NULL, 0, &n));
    assert_int_equal(n, 0);
    char why[128];
    AXL_OK(axl_platform_get_info(p, AXL_PLATFORM_INFO_NO_DEVICE_REASON, why,
                                 sizeof why, NULL));
    assert_non_null(strstr(why, "cannot read the board's design"));
}

static void malformed_board_design_leaves_no_device_and_says_why(
    void **state)
{
    (void)state;
    setenv("AXL_XRT_BUILTIN_XCLBIN", AXL_XCLBIN_CORPUS "/bad_magic.bin", 1);
    axl_platform p = xt_platform();
    uint32_t n = 9;
    AXL_OK(axl_platform_get_devices(p, AXL_DEVICE_TYPE_ALL, NULL, 0, &n));
    assert_int_equal(n, 0);
    char why[AXL_MESSAGE_MAX]; /* a reason is at most a message */
    AXL_OK(axl_platform_get_info(p, AXL_PLATFORM_INFO_NO_DEVICE_REASON, why,
                                 sizeof why, NULL));
    assert_non_null(strstr(why, "bad_magic.bin"));
    /* The reader's reason, too (AXL_MESSAGES 0: its status name). */
    assert_non_null(strstr(why, axl_test_messages()
                                    ? "only xclbin2 (axlf) images are supported"
                                    : "AXL_ERR_"));
}

/* A design in a folder deep enough that its path alone fills a message:
 * the reason still comes first and whole, and the path keeps its file
 * name (shortened in the middle). */
static const char *deep_copy(const char *src, char *path, size_t cap)
{
    snprintf(path, cap, "%s", AXL_TEST_SCRATCH);
    mkdir(path, 0755);
    for (int i = 0; i < 12; i++) {
        size_t n = strlen(path);
        snprintf(path + n, cap - n,
                 "/a_folder_name_long_enough_to_push_the_reason_out_%d", i);
        mkdir(path, 0755);
    }
    size_t n = strlen(path);
    snprintf(path + n, cap - n, "/%s", strrchr(src, '/') + 1);
    FILE *in = fopen(src, "rb"), *out = fopen(path, "wb");
    assert_non_null(in);
    assert_non_null(out);
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, in)) > 0)
        assert_int_equal(fwrite(buf, 1, got, out), got);
    fclose(in);
    fclose(out);
    assert_true(strlen(path) > 2 * AXL_MESSAGE_MAX);
    return path;
}

static void board_design_in_a_long_path_says_why_first(void **state)
{
    (void)state;
    char path[1024];
    setenv("AXL_XRT_BUILTIN_XCLBIN",
           deep_copy(AXL_XCLBIN_CORPUS "/bad_magic.bin", path, sizeof path),
           1);
    axl_platform p = xt_platform();
    uint32_t n = 9;
    AXL_OK(axl_platform_get_devices(p, AXL_DEVICE_TYPE_ALL, NULL, 0, &n));
    assert_int_equal(n, 0);
    char why[1024];
    size_t len = 0;
    AXL_OK(axl_platform_get_info(p, AXL_PLATFORM_INFO_NO_DEVICE_REASON, why,
                                 sizeof why, &len));
    assert_true(len <= AXL_MESSAGE_MAX);
    /* The reader's reason, whole, before the path; the file's name. */
    char *cause = strstr(why, axl_test_messages()
                                  ? "only xclbin2 (axlf) images are supported"
                                  : "AXL_ERR_");
    char *name = strstr(why, "bad_magic.bin");
    assert_non_null(cause);
    assert_non_null(name);
    assert_true(cause < name);
}

static void unreadable_board_design_in_a_long_path_says_why_first(
    void **state)
{
    (void)state;
    char path[1024];
    deep_copy(AXL_XCLBIN_CORPUS "/bad_magic.bin", path, sizeof path);
    snprintf(strrchr(path, '/'), 32, "/missing.xclbin");
    setenv("AXL_XRT_BUILTIN_XCLBIN", path, 1);
    axl_platform p = xt_platform();
    char why[1024];
    AXL_OK(axl_platform_get_info(p, AXL_PLATFORM_INFO_NO_DEVICE_REASON, why,
                                 sizeof why, NULL));
    char *cause = strstr(why, "cannot read the board's design");
    char *name = strstr(why, "missing.xclbin");
    assert_non_null(cause);
    assert_non_null(name);
    assert_true(cause < name);
}

static void native_device_handle_is_the_open_xrt_device(void **state)
{
    (void)state;
    void *dev;
    axl_device d = xt_device(&dev);
    void *native = NULL;
    AXL_OK(axl_xrt_get_native_device(d, &native));
    assert_ptr_equal(native, axl__xrt_device_handle(dev));
    xuid_t uuid;
    assert_int_equal(xrtDeviceGetXclbinUUID(native, uuid), 0);
    AXL_EXPECT(axl_xrt_get_native_device(axl_test_emu_device(), &native),
               AXL_ERR_BACKEND_MISMATCH);
    AXL_EXPECT(axl_xrt_get_native_device(d, NULL), AXL_ERR_INVALID);
    axl_device stale = {0};
    AXL_EXPECT(axl_xrt_get_native_device(stale, &native),
               AXL_ERR_INVALID_OBJECT);
}

static void port_state_over_an_application_xrt_handle(void **state)
{
    (void)state;
    xt_device(NULL); /* the runtime (and XRT) started */
    xrtDeviceHandle mine = xrtDeviceOpen(0);
    assert_non_null(mine);
    void *dev = NULL, *again = NULL;
    int created = 0;
    AXL_OK(axl__xrt_open_native(mine, &dev, &created));
    assert_int_equal(created, 1);
    AXL_OK(axl__xrt_open_native(mine, &again, &created));
    assert_int_equal(created, 0);
    assert_ptr_equal(dev, again);
    axl_hal_device_info info;
    AXL_OK(P->describe(dev, &info));
    assert_non_null(strstr(info.name, "noop"));
    char why[128];
    AXL_OK(P->load_image(dev, &stock.x, why, sizeof why));
    AXL_OK(P->describe(dev, &info));
    assert_int_equal(info.bank_count, 2);
    P->close(dev);
    /* Still the application's: axl did not close it. */
    xuid_t uuid;
    assert_int_equal(xrtDeviceGetXclbinUUID(mine, uuid), 0);
    assert_int_equal(xrtDeviceClose(mine), 0);
}

/* ======================= memory: images and buffers ============================ */

static void load_image_gives_the_used_banks_of_each_image(void **state)
{
    (void)state;
    const xt_image *imgs[] = {&stock, &app, &amd};
    for (size_t i = 0; i < 3; i++) {
        void *dev = device_with(imgs[i]);
        const axl_xclbin *x = &imgs[i]->x;
        axl_hal_device_info info;
        AXL_OK(P->describe(dev, &info));
        uint32_t b = 0;
        uint64_t total = 0;
        for (uint32_t m = 0; m < x->mem_count; m++) {
            axl_xclbin_mem mem;
            AXL_OK(axl_xclbin_get_mem(x, m, &mem));
            if (!mem.used)
                continue;
            axl_hal_bank bank;
            AXL_OK(P->bank(dev, b, &bank));
            assert_int_equal(bank.image_index, m); /* XRT's memory group */
            assert_int_equal(bank.size, mem.size);
            assert_int_equal(bank.base_address, mem.base_address);
            assert_int_equal(strlen(bank.tag), mem.tag.len);
            assert_memory_equal(bank.tag, mem.tag.ptr, mem.tag.len);
            total += mem.size;
            b++;
        }
        assert_int_equal(info.bank_count, b);
        assert_int_equal(info.global_mem_size, total);
        axl_hal_bank bank;
        AXL_EXPECT(P->bank(dev, b, &bank), AXL_ERR_INVALID);
        assert_null(info.builtin_image); /* no board design named */
    }
}

static void load_image_is_refused_while_compute_units_are_open(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    uint32_t k, ip;
    xt_kernel(&stock.x, "vadd", 0, &k, &ip);
    uintptr_t cu = 0;
    AXL_OK(P->cu_open(dev, &stock.x, k, ip, &cu));
    char why[256] = "";
    AXL_EXPECT(P->load_image(dev, &app.x, why, sizeof why),
               AXL_ERR_BAD_STATE);
    assert_non_null(strstr(why, "compute units open"));
    P->cu_close(dev, cu);
    AXL_OK(P->load_image(dev, &app.x, why, sizeof why));
}

/* Issue 29 item 4: an image built for another card than the device's
 * (the VBNV of its header against the device's: what the driver says, or
 * AXL_XRT_PLATFORM where it says nothing, as the noop shim) is refused
 * before XRT sees it, naming both; another name of the same card (a
 * shell's VBNV against the platform's) goes on to XRT, which checks the
 * shell itself; axl's own emulation platform names no card. */
static void an_image_built_for_another_card_is_refused_naming_both_platforms(
    void **state)
{
    (void)state;
    setenv("AXL_XRT_PLATFORM", "xilinx_u250_gen3x16_xdma_shell_4_1", 1);
    void *dev;
    xt_device(&dev);
    char why[256] = "";
    AXL_EXPECT(P->load_image(dev, &amd.x, why, sizeof why), AXL_ERR_BUILD);
    if (!strstr(why, "xilinx_u55c_gen3x16_xdma_3_202210_1") ||
        !strstr(why, "xilinx_u250_gen3x16_xdma_shell_4_1"))
        fail_msg("both platforms are not named: %s", why);
    AXL_OK(P->load_image(dev, &stock.x, why, sizeof why));
    AXL_OK(axl_shutdown());
    setenv("AXL_XRT_PLATFORM", "xilinx_u55c_gen3x16_xdma_base_3", 1);
    xt_register();
    xt_device(&dev);
    AXL_OK(P->load_image(dev, &amd.x, why, sizeof why));
    unsetenv("AXL_XRT_PLATFORM");
}

static void written_bytes_read_back_in_each_bank(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    for (uint32_t bank = 0; bank < 2; bank++) {
        axl_hal_mem m;
        AXL_OK(P->mem_alloc(dev, bank, 4096, NULL, &m));
        assert_int_not_equal(m.handle, 0);
        assert_null(m.host_ptr);
        assert_int_not_equal(m.device_address, 0);
        assert_int_equal(m.bank, bank);
        unsigned char in[4096], out[4096];
        for (size_t i = 0; i < sizeof in; i++)
            in[i] = (unsigned char)(i * 7 + bank);
        AXL_OK(P->mem_write(dev, &m, 0, in, sizeof in));
        memset(out, 0, sizeof out);
        AXL_OK(P->mem_read(dev, &m, 0, out, sizeof out));
        assert_memory_equal(in, out, sizeof in);
        /* Ranges inside. */
        AXL_OK(P->mem_write(dev, &m, 100, "axl", 3));
        AXL_OK(P->mem_read(dev, &m, 99, out, 5));
        assert_memory_equal(out + 1, "axl", 3);
        assert_int_equal(out[0], in[99]);
        P->mem_free(dev, &m);
        assert_int_equal(m.handle, 0);
    }
    assert_int_equal(counts().bos, 0);
}

static void ranges_outside_an_allocation_are_invalid(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    axl_hal_mem m, n;
    AXL_OK(P->mem_alloc(dev, 0, 64, NULL, &m));
    AXL_OK(P->mem_alloc(dev, 1, 64, NULL, &n));
    char b[128];
    AXL_EXPECT(P->mem_write(dev, &m, 1, b, 64), AXL_ERR_INVALID);
    AXL_EXPECT(P->mem_read(dev, &m, 65, b, 0), AXL_ERR_INVALID);
    AXL_EXPECT(P->mem_read(dev, &m, UINT64_MAX, b, 2), AXL_ERR_INVALID);
    AXL_EXPECT(P->mem_copy(dev, &m, 0, &n, 1, 64), AXL_ERR_INVALID);
    AXL_OK(P->mem_read(dev, &m, 64, b, 0)); /* empty, at the end */
    P->mem_free(dev, &m);
    P->mem_free(dev, &n);
}

static void allocations_outside_the_banks_are_refused(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    axl_hal_mem m;
    AXL_EXPECT(P->mem_alloc(dev, 2, 64, NULL, &m), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("no bank 2");
    AXL_EXPECT(P->mem_alloc(dev, 0, 0, NULL, &m), AXL_ERR_INVALID);
    AXL_EXPECT(P->mem_alloc(dev, 0, (256u << 20) + 1, NULL, &m),
               AXL_ERR_MEMORY_ALLOCATION);
    assert_int_equal(counts().bos, 0);
}

static void page_aligned_user_memory_is_used_in_place(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *user = aligned_alloc(page, 2 * page);
    assert_non_null(user);
    memset(user, 0x5a, 2 * page);
    axl_hal_mem m;
    AXL_OK(P->mem_alloc(dev, 0, 2 * page, user, &m));
    /* The core goes through mem_write/mem_read (they sync the BO). */
    assert_null(m.host_ptr);
    AXL_OK(P->mem_write(dev, &m, 0, user, 2 * page)); /* in place: sync only */
    unsigned char out[64];
    AXL_OK(P->mem_read(dev, &m, page, out, sizeof out));
    for (size_t i = 0; i < sizeof out; i++)
        assert_int_equal(out[i], 0x5a);
    /* A write from elsewhere lands in the user's memory (the BO is it). */
    AXL_OK(P->mem_write(dev, &m, 8, "zero-copy", 9));
    assert_memory_equal(user + 8, "zero-copy", 9);
    AXL_OK(P->mem_read(dev, &m, 0, user, 2 * page)); /* in place: sync only */
    P->mem_free(dev, &m);
    free(user);
}

static void unaligned_user_memory_is_not_supported_so_the_core_copies(
    void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *user = aligned_alloc(page, 2 * page);
    axl_hal_mem m;
    AXL_EXPECT(P->mem_alloc(dev, 0, page, user + 64, &m),
               AXL_ERR_FEATURE_NOT_SUPPORTED);
    AXL_MESSAGE_HAS("not page aligned");
    assert_int_equal(counts().bos, 0);
    free(user);
}

static void mem_copy_moves_bytes_between_allocations(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    axl_hal_mem a, b;
    AXL_OK(P->mem_alloc(dev, 0, 256, NULL, &a));
    AXL_OK(P->mem_alloc(dev, 1, 256, NULL, &b));
    unsigned char in[256], out[256];
    for (int i = 0; i < 256; i++)
        in[i] = (unsigned char)i;
    AXL_OK(P->mem_write(dev, &a, 0, in, sizeof in));
    memset(out, 0, sizeof out);
    AXL_OK(P->mem_write(dev, &b, 0, out, sizeof out));
    AXL_OK(P->mem_copy(dev, &b, 16, &a, 32, 100));
    AXL_OK(P->mem_read(dev, &b, 0, out, sizeof out));
    assert_memory_equal(out + 16, in + 32, 100);
    assert_int_equal(out[15], 0);
    assert_int_equal(out[116], 0);
    /* Overlapping ranges of one allocation move as memmove would. */
    AXL_OK(P->mem_copy(dev, &a, 8, &a, 0, 200));
    AXL_OK(P->mem_read(dev, &a, 0, out, sizeof out));
    assert_memory_equal(out + 8, in, 200);
    AXL_OK(P->mem_write(dev, &a, 0, in, sizeof in));
    AXL_OK(P->mem_copy(dev, &a, 0, &a, 8, 200));
    AXL_OK(P->mem_read(dev, &a, 0, out, sizeof out));
    assert_memory_equal(out, in + 8, 200);
    P->mem_free(dev, &a);
    P->mem_free(dev, &b);
}

/* ======================= runs: compute units and launches ======================= */

static void cu_open_opens_one_xrt_kernel_per_compute_unit(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    uint32_t k, ip0, ip1;
    xt_kernel(&stock.x, "vadd", 0, &k, &ip0);
    xt_kernel(&stock.x, "vadd", 1, &k, &ip1);
    uintptr_t cu0 = 0, cu1 = 0, again = 0;
    AXL_OK(P->cu_open(dev, &stock.x, k, ip0, &cu0));
    AXL_OK(P->cu_open(dev, &stock.x, k, ip1, &cu1));
    AXL_OK(P->cu_open(dev, &stock.x, k, ip0, &again));
    assert_true(cu0 && cu1 && cu0 != cu1);
    assert_int_equal(again, cu0);
    assert_non_null(axl__xrt_cu_kernel(cu0));
    assert_ptr_not_equal(axl__xrt_cu_kernel(cu0), axl__xrt_cu_kernel(cu1));
    assert_int_equal(counts().kernels, 2);
    P->cu_close(dev, again);
    assert_int_equal(counts().kernels, 2); /* still open once */
    P->cu_close(dev, cu0);
    P->cu_close(dev, cu1);
    assert_int_equal(counts().kernels, 0);
}

/* axl/ip.h on XRT: a compute unit's registers through the C API, on an
 * exclusive kernel, and no interrupt wait (xrt::ip::interrupt is C++
 * only). */
static void ip_registers_of_a_unit_go_through_an_exclusive_xrt_kernel(
    void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    uint32_t k, ip0;
    xt_kernel(&stock.x, "vadd", 0, &k, &ip0);
    axl_xclbin_ip ip;
    AXL_OK(axl_xclbin_get_ip(&stock.x, ip0, &ip));
    uintptr_t h = 0;
    AXL_OK(P->ip_open(dev, &stock.x, ip0, &ip, &h));
    assert_true(h != 0);
    /* The noop shim has no register space: XRT refuses each access
     * (EPERM, "failed to read ip(0)"), which the port reports naming
     * the call. */
    uint32_t v = 0xDEAD;
    AXL_EXPECT(P->ip_read32(dev, h, 0x34, &v), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("xrtKernelReadRegister at 0x34 failed");
    AXL_EXPECT(P->ip_write32(dev, h, 0x34, 5), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("xrtKernelWriteRegister at 0x34 failed");
    P->ip_close(dev, h);
    assert_null(P->ip_wait);
    ip.type = AXL_XCLBIN_IP_MEM_DDR4; /* not a unit: out of the C API's reach */
    AXL_EXPECT(P->ip_open(dev, &stock.x, ip0, &ip, &h),
               AXL_ERR_FEATURE_NOT_SUPPORTED);
    AXL_MESSAGE_HAS("compute units only");
}

static void cu_open_refuses_wrong_indexes_and_images_not_loaded(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    uint32_t k, ip, k2, ip2;
    xt_kernel(&stock.x, "vadd", 0, &k, &ip);
    xt_kernel(&stock.x, "mmult", 0, &k2, &ip2);
    uintptr_t cu = 0;
    AXL_EXPECT(P->cu_open(dev, &stock.x, 99, ip, &cu), AXL_ERR_INVALID);
    AXL_EXPECT(P->cu_open(dev, &stock.x, k, 99, &cu), AXL_ERR_INVALID);
    AXL_EXPECT(P->cu_open(dev, &stock.x, k, ip2, &cu), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("not a compute unit of vadd");
    AXL_EXPECT(P->cu_open(dev, &app.x, 0, 0, &cu), AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("load it first");
    assert_int_equal(cu, 0);
    assert_int_equal(counts().kernels, 0);
}

static void vadd_with_three_buffers_and_a_scalar_completes(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    uint32_t k, ip;
    xt_kernel(&stock.x, "vadd", 0, &k, &ip);
    uintptr_t cu;
    AXL_OK(P->cu_open(dev, &stock.x, k, ip, &cu));
    axl_hal_mem m[3];
    alloc3(dev, m, 4096);
    vadd_run v;
    vadd_setup(&v, &stock, 0, cu, &m[0], &m[1], &m[2], 1024);
    run_ok(dev, &v);
    assert_int_equal(xt_count_done(&v), 1);
    axl__xrt_counts c = counts();
    assert_int_equal(c.runs, 1);
    assert_int_equal(c.busy_runs, 0);
    free3(dev, m);
    P->cu_close(dev, cu);
}

static void sequential_runs_reuse_one_xrt_run(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    uint32_t k, ip;
    xt_kernel(&stock.x, "vadd", 1, &k, &ip);
    uintptr_t cu;
    AXL_OK(P->cu_open(dev, &stock.x, k, ip, &cu));
    axl_hal_mem m[3];
    alloc3(dev, m, 4096);
    static vadd_run v[200];
    for (int i = 0; i < 200; i++) {
        vadd_setup(&v[i], &stock, 1, cu, &m[0], &m[1], &m[2], (uint32_t)i);
        run_ok(dev, &v[i]);
    }
    assert_int_equal(counts().runs, 1);
    free3(dev, m);
    P->cu_close(dev, cu);
}

/* The fast path (xrt_run.c): a run XRT sees complete before run_start
 * returns comes from its unit's spare slot, is reported and goes back
 * without the device's lock, so a launch on the noop shim (or on a unit
 * faster than the call) never waits for a completion thread or a waiter
 * that holds it. Here the test holds the lock while another thread
 * launches. */
typedef struct starter {
    void *dev;
    vadd_run *v;
    axl_status st;
} starter;

static void *start_one(void *arg)
{
    starter *s = arg;
    s->st = P->run_start(s->dev, &s->v->run);
    return NULL;
}

static void a_run_complete_at_once_is_started_and_reported_without_the_device_lock(
    void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    uint32_t k, ip;
    xt_kernel(&stock.x, "vadd", 0, &k, &ip);
    uintptr_t cu;
    AXL_OK(P->cu_open(dev, &stock.x, k, ip, &cu));
    axl_hal_mem m[3];
    alloc3(dev, m, 4096);
    vadd_run first, second;
    vadd_setup(&first, &stock, 0, cu, &m[0], &m[1], &m[2], 1);
    run_ok(dev, &first); /* the unit's run exists, the thread runs */
    vadd_setup(&second, &stock, 0, cu, &m[0], &m[1], &m[2], 2);
    pthread_mutex_t *lock = &((xn_device *)dev)->lock;
    pthread_mutex_lock(lock);
    starter s = {dev, &second, AXL_ERR_RUNTIME};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, start_one, &s), 0);
    xt_done d;
    int reported = xt_wait_done(&second, 10000, &d);
    pthread_mutex_unlock(lock);
    pthread_join(t, NULL);
    assert_true(reported);
    AXL_OK(s.st);
    assert_int_equal(d.status, AXL_SUCCESS);
    assert_int_equal(counts().runs, 1); /* the same XRT run, back again */
    assert_int_equal(counts().busy_runs, 0);
    free3(dev, m);
    P->cu_close(dev, cu);
}

/* The spare slot is one atomic exchange, not an owner: starts on one unit
 * from two threads at once (which the core does not do, one run per unit,
 * but the port does not rely on) each get a run of their own, each run is
 * reported once, and the pool holds no more runs than were out at once.
 * For ThreadSanitizer as much as for the asserts. */
typedef struct looper {
    void *dev;
    vadd_run *v;
    unsigned n, failed;
} looper;

static void *start_many(void *arg)
{
    looper *l = arg;
    for (unsigned i = 0; i < l->n; i++)
        if (P->run_start(l->dev, &l->v->run) != AXL_SUCCESS)
            l->failed++;
    return NULL;
}

static void runs_started_on_one_unit_from_two_threads_are_each_reported_once(
    void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    uint32_t k, ip;
    xt_kernel(&stock.x, "vadd", 0, &k, &ip);
    uintptr_t cu;
    AXL_OK(P->cu_open(dev, &stock.x, k, ip, &cu));
    axl_hal_mem m[3];
    alloc3(dev, m, 4096);
    vadd_run v[2];
    looper l[2];
    pthread_t t[2];
    for (int i = 0; i < 2; i++) {
        vadd_setup(&v[i], &stock, 0, cu, &m[0], &m[1], &m[2],
                   (uint32_t)i + 1);
        l[i] = (looper){dev, &v[i], 200, 0};
    }
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, start_many, &l[i]), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(l[i].failed, 0);
        for (int j = 0; j < 2000 && xt_count_done(&v[i]) < 200; j++)
            xt_sleep_ms(5);
        assert_int_equal(xt_count_done(&v[i]), 200);
    }
    axl__xrt_counts c = counts();
    assert_true(c.runs >= 1 && c.runs <= 2);
    assert_int_equal(c.busy_runs, 0);
    free3(dev, m);
    P->cu_close(dev, cu);
}

static int set_arg_fails_at(xrtRunHandle run, int index,
                            const axl__xrt_value *v)
{
    ++calls;
    if (index + 1 == fail_at) {
        errno = EINVAL;
        return -1;
    }
    return axl__xrt_real.run_set_arg(run, index, v);
}

static int set_arg_counted(xrtRunHandle run, int index,
                           const axl__xrt_value *v)
{
    ++calls;
    return axl__xrt_real.run_set_arg(run, index, v);
}

#if AXL_XRT_KEEP_RUN_ARGS
/* XRT keeps a run's arguments from one start to the next: a launch gives
 * XRT only the values the run does not hold yet. A freed BO's handle may
 * come back for a new BO, so a run knows the BOs it holds by their numbers
 * (never another BO's), not by their handles. */
static void a_run_is_given_only_the_arguments_it_does_not_hold(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    uint32_t k, ip;
    xt_kernel(&stock.x, "vadd", 0, &k, &ip);
    uintptr_t cu;
    AXL_OK(P->cu_open(dev, &stock.x, k, ip, &cu));
    axl_hal_mem m[3], other;
    alloc3(dev, m, 8192);
    AXL_OK(P->mem_alloc(dev, 0, 8192, NULL, &other));
    faults_reset();
    axl__xrt.run_set_arg = set_arg_counted;
    vadd_run v;
    vadd_setup(&v, &stock, 0, cu, &m[0], &m[1], &m[2], 16);
    run_ok(dev, &v);
    assert_int_equal(calls, 4);
    run_ok(dev, &v);
    assert_int_equal(calls, 4); /* all held */
    v.n = 17;
    run_ok(dev, &v);
    assert_int_equal(calls, 5); /* the scalar */
    v.args[1].mem = &other;
    run_ok(dev, &v);
    assert_int_equal(calls, 6); /* one buffer */
    v.args[1].offset = 64;
    run_ok(dev, &v);
    assert_int_equal(calls, 7); /* a sub-BO is another BO */
    v.args[1].offset = 0;
    run_ok(dev, &v);
    assert_int_equal(calls, 8);
    /* Another BO freed: the run still holds its own (until issue 17 any
     * BO freed made runs set all their buffers again, 3 calls here; each
     * BO is now known by its number, so nothing needs setting). */
    axl_hal_mem spare;
    AXL_OK(P->mem_alloc(dev, 1, 4096, NULL, &spare));
    P->mem_free(dev, &spare);
    run_ok(dev, &v);
    assert_int_equal(calls, 8);
    /* A BO the run holds freed and a new one made in its place (XRT may
     * give it the freed one's handle): the new one is set, the others and
     * the scalar are still held. */
    P->mem_free(dev, &other);
    AXL_OK(P->mem_alloc(dev, 0, 8192, NULL, &other));
    run_ok(dev, &v);
    assert_int_equal(calls, 9);
    /* A failed set is not taken as held. */
    fail_at = 4;
    axl__xrt.run_set_arg = set_arg_fails_at;
    v.n = 18;
    AXL_EXPECT(P->run_start(dev, &v.run), AXL_ERR_KERNEL_ARGUMENT);
    fail_at = 0;
    calls = 0;
    run_ok(dev, &v);
    assert_int_equal(calls, 1);
    assert_int_equal(counts().runs, 1);
    axl__xrt = axl__xrt_real;
    free3(dev, m);
    P->mem_free(dev, &other);
    P->cu_close(dev, cu);
}

/* axl_hal_run.args_id (hal.h): a start with the nonzero id of the run's
 * last start holds its buffer arguments without looking at them, and
 * compares only its scalars; a new id, or a start that failed, looks at
 * every argument again. */
static void a_run_with_the_args_id_of_its_last_start_sets_only_scalars(
    void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    uint32_t k, ip;
    xt_kernel(&stock.x, "vadd", 0, &k, &ip);
    uintptr_t cu;
    AXL_OK(P->cu_open(dev, &stock.x, k, ip, &cu));
    axl_hal_mem m[3], other;
    alloc3(dev, m, 8192);
    AXL_OK(P->mem_alloc(dev, 0, 8192, NULL, &other));
    faults_reset();
    axl__xrt.run_set_arg = set_arg_counted;
    vadd_run v;
    vadd_setup(&v, &stock, 0, cu, &m[0], &m[1], &m[2], 16);
    v.run.args_id = 5;
    run_ok(dev, &v);
    assert_int_equal(calls, 4);
    run_ok(dev, &v);
    assert_int_equal(calls, 4); /* all held */
    /* The port does not even look at them: a memory argument it could not
     * use (no allocation) under the same id is not noticed. */
    axl_hal_mem none = {0};
    v.args[0].mem = &none;
    run_ok(dev, &v);
    assert_int_equal(calls, 4);
    v.args[0].mem = &m[0];
    v.n = 17;
    run_ok(dev, &v);
    assert_int_equal(calls, 5); /* the scalar, compared */
    /* Another buffer comes with another id: it is set, the rest held. */
    v.args[1].mem = &other;
    v.run.args_id = 6;
    run_ok(dev, &v);
    assert_int_equal(calls, 6);
    /* A start that fails at the scalar: the run forgets the id, and the
     * next start with it sets the scalar again. */
    fail_at = 4;
    axl__xrt.run_set_arg = set_arg_fails_at;
    v.n = 18;
    AXL_EXPECT(P->run_start(dev, &v.run), AXL_ERR_KERNEL_ARGUMENT);
    fail_at = 0;
    calls = 0;
    run_ok(dev, &v);
    assert_int_equal(calls, 1);
    run_ok(dev, &v);
    assert_int_equal(calls, 1);
    assert_int_equal(counts().runs, 1);
    axl__xrt = axl__xrt_real;
    free3(dev, m);
    P->mem_free(dev, &other);
    P->cu_close(dev, cu);
}
#else
/* AXL_XRT_KEEP_RUN_ARGS 0: every launch sets every argument. */
static void a_run_is_given_every_argument_when_runs_keep_none(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    uint32_t k, ip;
    xt_kernel(&stock.x, "vadd", 0, &k, &ip);
    uintptr_t cu;
    AXL_OK(P->cu_open(dev, &stock.x, k, ip, &cu));
    axl_hal_mem m[3];
    alloc3(dev, m, 8192);
    faults_reset();
    axl__xrt.run_set_arg = set_arg_counted;
    vadd_run v;
    vadd_setup(&v, &stock, 0, cu, &m[0], &m[1], &m[2], 16);
    run_ok(dev, &v);
    run_ok(dev, &v);
    assert_int_equal(calls, 8);
    axl__xrt = axl__xrt_real;
    free3(dev, m);
    P->cu_close(dev, cu);
}
#endif

static void accessor_offsets_use_one_cached_sub_bo_each(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    uint32_t k, ip;
    xt_kernel(&stock.x, "vadd", 0, &k, &ip);
    uintptr_t cu;
    AXL_OK(P->cu_open(dev, &stock.x, k, ip, &cu));
    axl_hal_mem m[3];
    alloc3(dev, m, 8192);
    vadd_run v;
    for (int round = 0; round < 3; round++) {
        vadd_setup(&v, &stock, 0, cu, &m[0], &m[1], &m[2], 16);
        v.args[0].offset = 512; /* accessor at element 128 of an int buffer */
        v.args[1].offset = 4096;
        v.args[2].offset = 512; /* another buffer: its own sub-BO */
        run_ok(dev, &v);
        xt_done_reset();
    }
    assert_int_equal(counts().sub_bos, 3);
    P->mem_free(dev, &m[0]); /* frees its sub-BO too */
    assert_int_equal(counts().sub_bos, 2);
    P->mem_free(dev, &m[1]);
    P->mem_free(dev, &m[2]);
    assert_int_equal(counts().sub_bos, 0);
    P->cu_close(dev, cu);
}

/* An image with one scalar of each kind XRT's C API reads differently. */
static const char *const types_xml[] = {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<project name=\"types\"><platform vendor=\"axl\" boardid=\"emu\" "
    "name=\"types\" featureRomTime=\"0\"><version major=\"1\" minor=\"0\"/>"
    "<device name=\"fpga0\" fpgaDevice=\"emulated\" addrWidth=\"64\">"
    "<core name=\"OCL_REGION_0\" target=\"hw\" type=\"clc_region\" "
    "clockFreq=\"0MHz\" numComputeUnits=\"6\">\n",
#define K(name, args)                                                          \
    "<kernel name=\"" name "\" language=\"c\" vlnv=\"axl:hls:" name ":1.0\" "  \
    "hwControlProtocol=\"ap_ctrl_chain\">"                                     \
    "<port name=\"M_AXI_GMEM\" mode=\"master\" range=\"0xFFFFFFFF\" "          \
    "dataWidth=\"32\" portType=\"addressable\" base=\"0x0\"/>"                 \
    "<port name=\"S_AXI_CONTROL\" mode=\"slave\" range=\"0x1000\" "            \
    "dataWidth=\"32\" portType=\"addressable\" base=\"0x0\"/>" args           \
    "</kernel>\n"
#define BUF(n, id, off)                                                        \
    "<arg name=\"" n "\" addressQualifier=\"1\" id=\"" id "\" "                \
    "port=\"M_AXI_GMEM\" size=\"0x8\" offset=\"" off "\" hostOffset=\"0x0\" "  \
    "hostSize=\"0x8\" type=\"int*\"/>"
#define VAL(n, id, size, off, type)                                            \
    "<arg name=\"" n "\" addressQualifier=\"0\" id=\"" id "\" "                \
    "port=\"S_AXI_CONTROL\" size=\"" size "\" offset=\"" off "\" "             \
    "hostOffset=\"0x0\" hostSize=\"" size "\" type=\"" type "\"/>"
#define BUFS BUF("in", "0", "0x10") BUF("b", "1", "0x1C") BUF("out", "2", "0x28")
    K("vadd", BUFS VAL("size", "3", "0x4", "0x34", "int")),
    K("mmult", BUFS VAL("dim", "3", "0x4", "0x34", "uint")),
    K("fir", BUFS VAL("taps", "3", "0x8", "0x34", "double")
          VAL("len", "4", "0x4", "0x40", "int*")),
    K("conv2d", BUFS VAL("width", "3", "0x2", "0x34", "short")
          VAL("height", "4", "0x8", "0x3C", "unsigned long long")
          VAL("shift", "5", "0x10", "0x44", "struct wide")),
    K("nop", ""),
    "</core></device></platform></project>\n"};
#undef K
#undef BUF
#undef VAL
#undef BUFS

/* stock.xclbin's sections with types_xml as its kernel metadata. */
static void make_types_image(xt_image *img)
{
    static const uint32_t kinds[] = {K_MEM_TOPOLOGY, K_IP_LAYOUT,
                                     K_CONNECTIVITY, K_CLOCK_FREQ_TOPOLOGY};
    tu_sec s[5];
    for (int i = 0; i < 4; i++) {
        size_t h = tu_find_section(stock.bytes, kinds[i], NULL);
        assert_int_not_equal(h, 0);
        s[i].kind = kinds[i];
        s[i].data = stock.bytes + tu_ld64(stock.bytes + h + 24);
        s[i].size = (size_t)tu_ld64(stock.bytes + h + 32);
    }
    static char xml[16384];
    xml[0] = 0;
    for (size_t i = 0; i < sizeof types_xml / sizeof types_xml[0]; i++)
        strcat(xml, types_xml[i]);
    s[4].kind = K_EMBEDDED_METADATA;
    s[4].data = xml;
    s[4].size = strlen(xml);
    size_t size = 0;
    unsigned char *bytes = tu_build(s, 5, &size);
    xt_image_from(img, bytes, size);
}

typedef struct seen_arg {
    int index;
    axl__xrt_kind kind;
    axl__xrt_value v;
    unsigned char bytes[16]; /* what a pointer points at */
    int rc;
} seen_arg;
static seen_arg seen[16];
static int nseen;

static int set_arg_seen(xrtRunHandle run, int index, const axl__xrt_value *v)
{
    int rc = axl__xrt_real.run_set_arg(run, index, v);
    if (nseen < 16) {
        seen_arg *s = &seen[nseen++];
        s->index = index;
        s->kind = v->kind;
        s->v = *v;
        if (v->kind == AXL__XRT_PTR)
            memcpy(s->bytes, v->v.p, 4);
        s->rc = rc;
    }
    return rc;
}

static void scalars_pass_the_way_xrt_reads_each_type(void **state)
{
    (void)state;
    xt_image types;
    make_types_image(&types);
    void *dev = device_with(&types);
    axl_hal_mem m[3];
    alloc3(dev, m, 4096);
    axl__xrt.run_set_arg = set_arg_seen;

    struct {
        const char *kernel;
        uint32_t nargs;
        uint64_t size[3];
        axl__xrt_kind kind[3];
    } cases[] = {
        {"vadd", 1, {4}, {AXL__XRT_INT}},
        {"mmult", 1, {4}, {AXL__XRT_UINT}},
        {"fir", 2, {8, 4}, {AXL__XRT_DOUBLE, AXL__XRT_PTR}},
        {"conv2d", 2, {2, 8}, {AXL__XRT_SIZE, AXL__XRT_U64}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        vadd_run v;
        vadd_setup(&v, &stock, 0, 0, &m[0], &m[1], &m[2], 0);
        xt_kernel(&types.x, cases[c].kernel, 0, &v.run.kernel_index,
                  &v.run.ip_index);
        v.run.image = &types.x;
        v.run.kernel_name = cases[c].kernel;
        axl_hal_arg args[5];
        memcpy(args, v.args, 3 * sizeof args[0]);
        union {
            int32_t i;
            uint32_t u;
            double d;
            uint16_t s;
            uint64_t u64;
        } values[2];
        memset(values, 0, sizeof values);
        for (uint32_t a = 0; a < cases[c].nargs; a++) {
            switch (cases[c].kind[a]) {
            case AXL__XRT_INT: values[a].i = -7; break;
            case AXL__XRT_UINT: values[a].u = 4000000000u; break;
            case AXL__XRT_DOUBLE: values[a].d = 2.5; break;
            case AXL__XRT_PTR: values[a].u = 0xa1b2c3d4u; break;
            case AXL__XRT_SIZE: values[a].s = 0xbeef; break;
            default: values[a].u64 = 0x0123456789abcdefull; break;
            }
            args[3 + a] = (axl_hal_arg){3 + a, 0, cases[c].size[a], NULL, 0,
                                        &values[a], 0};
        }
        v.run.args = args;
        v.run.arg_count = 3 + cases[c].nargs;
        nseen = 0;
        xt_done_reset();
        run_ok(dev, &v);
        assert_int_equal(nseen, 3 + (int)cases[c].nargs);
        for (int i = 0; i < nseen; i++)
            assert_int_equal(seen[i].rc, 0); /* XRT took each one */
        for (uint32_t a = 0; a < cases[c].nargs; a++) {
            const seen_arg *s = &seen[3 + a];
            assert_int_equal(s->kind, cases[c].kind[a]);
            switch (s->kind) {
            case AXL__XRT_INT: assert_int_equal(s->v.v.i, -7); break;
            case AXL__XRT_UINT: assert_int_equal(s->v.v.u, 4000000000u); break;
            case AXL__XRT_DOUBLE: assert_true(s->v.v.d == 2.5); break;
            case AXL__XRT_PTR:
                assert_memory_equal(s->bytes, &values[a].u, 4);
                break;
            case AXL__XRT_SIZE: assert_int_equal(s->v.v.z, 0xbeef); break;
            default:
                assert_int_equal(s->v.v.u64, 0x0123456789abcdefull);
                break;
            }
        }
    }
    /* float (app's scale kernel) goes as a double, as C promotes it. */

    /* A 16-byte scalar cannot pass through the C API. */
    xt_done_reset();
    vadd_run v;
    vadd_setup(&v, &stock, 0, 0, &m[0], &m[1], &m[2], 0);
    xt_kernel(&types.x, "conv2d", 0, &v.run.kernel_index, &v.run.ip_index);
    v.run.image = &types.x;
    unsigned char wide[16] = {1};
    axl_hal_arg args[4];
    memcpy(args, v.args, 3 * sizeof args[0]);
    args[3] = (axl_hal_arg){5, 0, 16, NULL, 0, wide, 0};
    v.run.args = args;
    v.run.arg_count = 4;
    AXL_EXPECT(P->run_start(dev, &v.run), AXL_ERR_KERNEL_ARGUMENT);
    AXL_MESSAGE_HAS("cannot pass through XRT 2.13's C API");
    assert_int_equal(counts().busy_runs, 0);
    assert_int_equal(xt_count_done(&v), 0);

    free3(dev, m);
    axl_shutdown(); /* the port reads the image until the device closes */
    xt_image_free(&types);
}

static void float_scalar_passes_as_a_double(void **state)
{
    (void)state;
    void *dev = device_with(&app);
    axl_hal_mem m;
    AXL_OK(P->mem_alloc(dev, 0, 4096, NULL, &m));
    axl__xrt.run_set_arg = set_arg_seen;
    float factor = 1.5f;
    uint32_t n = 1024;
    axl_hal_arg args[3] = {{0, 1, 4096, &m, 0, NULL, AXL_ACCESS_READ_WRITE},
                           {1, 0, 4, NULL, 0, &factor, 0},
                           {2, 0, 4, NULL, 0, &n, 0}};
    axl_hal_run run = {0};
    xt_kernel(&app.x, "scale", 0, &run.kernel_index, &run.ip_index);
    run.token = &run;
    run.image = &app.x;
    run.arg_count = 3;
    run.args = args;
    nseen = 0;
    AXL_OK(P->run_start(dev, &run));
    assert_true(xt_wait_done(&run, 10000, NULL));
    assert_int_equal(nseen, 3);
    assert_int_equal(seen[1].kind, AXL__XRT_FLOAT);
    assert_true(seen[1].v.v.d == 1.5);
    assert_int_equal(seen[2].kind, AXL__XRT_U32); /* "unsigned int" */
    assert_int_equal(seen[2].v.v.u32, 1024);
    P->mem_free(dev, &m);
}

static void wrong_arguments_are_kernel_argument_errors_and_start_nothing(
    void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    uint32_t k, ip;
    xt_kernel(&stock.x, "vadd", 0, &k, &ip);
    uintptr_t cu;
    AXL_OK(P->cu_open(dev, &stock.x, k, ip, &cu));
    axl_hal_mem m[3];
    alloc3(dev, m, 4096);
    vadd_run v;

    vadd_setup(&v, &stock, 0, cu, &m[0], &m[1], &m[2], 1);
    v.args[3] = v.args[0]; /* a buffer where the scalar goes */
    v.args[3].id = 3;
    AXL_EXPECT(P->run_start(dev, &v.run), AXL_ERR_KERNEL_ARGUMENT);
    AXL_MESSAGE_HAS("is a scalar, not a buffer");

    vadd_setup(&v, &stock, 0, cu, &m[0], &m[1], &m[2], 1);
    v.args[1].is_mem = 0; /* a scalar where a buffer goes */
    v.args[1].value = &v.n;
    v.args[1].size = 4;
    AXL_EXPECT(P->run_start(dev, &v.run), AXL_ERR_KERNEL_ARGUMENT);
    AXL_MESSAGE_HAS("is a buffer, not a scalar");

    vadd_setup(&v, &stock, 0, cu, &m[0], &m[1], &m[2], 1);
    v.args[3].id = 7;
    AXL_EXPECT(P->run_start(dev, &v.run), AXL_ERR_KERNEL_ARGUMENT);
    AXL_MESSAGE_HAS("has no argument 7");

    vadd_setup(&v, &stock, 0, cu, &m[0], &m[1], &m[2], 1);
    v.args[2].offset = 4096; /* past the allocation */
    AXL_EXPECT(P->run_start(dev, &v.run), AXL_ERR_KERNEL_ARGUMENT);

    vadd_setup(&v, &stock, 0, cu, &m[0], NULL, &m[2], 1);
    AXL_EXPECT(P->run_start(dev, &v.run), AXL_ERR_KERNEL_ARGUMENT);

    vadd_setup(&v, &stock, 0, cu, &m[0], &m[1], &m[2], 1);
    v.args[3].value = NULL;
    AXL_EXPECT(P->run_start(dev, &v.run), AXL_ERR_KERNEL_ARGUMENT);

    assert_int_equal(counts().busy_runs, 0);
    assert_int_equal(counts().runs, 1); /* one, back in the pool */
    assert_int_equal(xt_count_done(&v), 0);
    free3(dev, m);
    P->cu_close(dev, cu);
}

static void a_run_without_cu_open_opens_its_unit_until_the_design_changes(
    void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    axl_hal_mem m[3];
    alloc3(dev, m, 4096);
    vadd_run v[3];
    for (int i = 0; i < 3; i++) {
        vadd_setup(&v[i], &stock, 0, 0, &m[0], &m[1], &m[2], 8);
        run_ok(dev, &v[i]);
    }
    assert_int_equal(counts().kernels, 1);
    assert_int_equal(counts().runs, 1);
    char why[128];
    AXL_OK(P->load_image(dev, &app.x, why, sizeof why)); /* closes it */
    assert_int_equal(counts().kernels, 0);
    free3(dev, m);
}

static void shutdown_closes_runs_kernels_and_buffers_in_order(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    uint32_t k, ip;
    xt_kernel(&stock.x, "vadd", 0, &k, &ip);
    uintptr_t cu;
    AXL_OK(P->cu_open(dev, &stock.x, k, ip, &cu));
    axl_hal_mem m[3];
    alloc3(dev, m, 8192);
    vadd_run v;
    vadd_setup(&v, &stock, 0, cu, &m[0], &m[1], &m[2], 8);
    v.args[0].offset = 4096;
    run_ok(dev, &v);
    axl__xrt_counts c = counts();
    assert_true(c.devices == 1 && c.kernels == 1 && c.runs == 1 &&
                c.bos == 3 && c.sub_bos == 1 && c.threads == 1);
    /* Left open on purpose: teardown's axl_shutdown closes them and checks
     * every count is back to zero. */
}

/* ======================= faults: XRT failing at each step ====================== */

static int load_fails(xrtDeviceHandle d, const struct axlf *a)
{
    (void)d;
    (void)a;
    errno = EINVAL;
    return -1;
}

static int load_busy(xrtDeviceHandle d, const struct axlf *a)
{
    (void)d;
    (void)a;
    errno = EBUSY;
    return -EBUSY;
}

static void xrt_refusing_an_image_is_a_build_error_with_why(void **state)
{
    (void)state;
    void *dev;
    xt_device(&dev);
    char why[256] = "";
    axl__xrt.device_load_xclbin = load_fails;
    AXL_EXPECT(P->load_image(dev, &stock.x, why, sizeof why), AXL_ERR_BUILD);
    assert_non_null(strstr(why, "xrtDeviceLoadXclbin returned -1"));
    assert_non_null(strstr(why, "EINVAL"));
    axl__xrt.device_load_xclbin = load_busy;
    AXL_EXPECT(P->load_image(dev, &stock.x, why, sizeof why),
               AXL_ERR_BAD_STATE);
    axl_hal_device_info info;
    AXL_OK(P->describe(dev, &info));
    assert_int_equal(info.bank_count, 0); /* unchanged */
}

static xrtBufferHandle bo_alloc_fails(xrtDeviceHandle d, size_t s,
                                      xrtBufferFlags f, xrtMemoryGroup g)
{
    (void)d, (void)s, (void)f, (void)g;
    errno = ENOMEM;
    return NULL;
}

static xrtBufferHandle user_ptr_fails(xrtDeviceHandle d, void *p, size_t s,
                                      xrtBufferFlags f, xrtMemoryGroup g)
{
    (void)d, (void)p, (void)s, (void)f, (void)g;
    errno = EINVAL; /* "userptr is not supported for NoDMA platforms" */
    return NULL;
}

static void failed_allocations_map_to_memory_allocation_or_a_copy(
    void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    axl_hal_mem m;
    axl__xrt.bo_alloc = bo_alloc_fails;
    AXL_EXPECT(P->mem_alloc(dev, 0, 64, NULL, &m), AXL_ERR_MEMORY_ALLOCATION);
    AXL_MESSAGE_HAS("xrtBOAlloc");
    AXL_MESSAGE_HAS("ENOMEM");
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    void *user = aligned_alloc(page, page);
    axl__xrt.bo_alloc_user_ptr = user_ptr_fails;
    AXL_EXPECT(P->mem_alloc(dev, 0, page, user, &m),
               AXL_ERR_FEATURE_NOT_SUPPORTED);
    AXL_MESSAGE_HAS("xrtBOAllocUserPtr");
    assert_int_equal(counts().bos, 0);
    free(user);
}

static int sync_fails(xrtBufferHandle b, enum xclBOSyncDirection d, size_t s,
                      size_t o)
{
    (void)b, (void)d, (void)s, (void)o;
    errno = EIO;
    return -1;
}

static int rw_fails(xrtBufferHandle b, const void *p, size_t s, size_t o)
{
    (void)b, (void)p, (void)s, (void)o;
    return -1;
}

static int copy_fails(xrtBufferHandle a, xrtBufferHandle b, size_t s,
                      size_t d, size_t o)
{
    (void)a, (void)b, (void)s, (void)d, (void)o;
    return -EINVAL;
}

static void failed_transfers_are_runtime_errors(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    axl_hal_mem m, n;
    AXL_OK(P->mem_alloc(dev, 0, 64, NULL, &m));
    AXL_OK(P->mem_alloc(dev, 0, 64, NULL, &n));
    char b[64] = {0};
    axl__xrt.bo_sync = sync_fails;
    AXL_EXPECT(P->mem_write(dev, &m, 0, b, 64), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("xrtBOSync to the device");
    AXL_EXPECT(P->mem_read(dev, &m, 0, b, 64), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("EIO");
    axl__xrt = axl__xrt_real;
    axl__xrt.bo_write = rw_fails;
    AXL_EXPECT(P->mem_write(dev, &m, 0, b, 64), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("xrtBOWrite");
    /* On the noop shim the port copies through host memory (the shim's
     * xrtBOCopy would do nothing); elsewhere xrtBOCopy. */
    axl__xrt = axl__xrt_real;
    axl__xrt.bo_copy = copy_fails;
    axl__xrt.bo_write = rw_fails;
    AXL_EXPECT(P->mem_copy(dev, &m, 0, &n, 0, 64), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("through host memory failed");
    axl__xrt = axl__xrt_real;
    P->mem_free(dev, &m);
    P->mem_free(dev, &n);
}

static xrtKernelHandle kernel_open_fails(xrtDeviceHandle d, const xuid_t u,
                                         const char *name)
{
    (void)d, (void)u, (void)name;
    errno = EINVAL;
    return NULL;
}

static xrtRunHandle run_open_fails(xrtKernelHandle k)
{
    (void)k;
    errno = ENOMEM;
    return NULL;
}

static void failed_kernel_and_run_opens_leave_nothing_behind(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    uint32_t k, ip;
    xt_kernel(&stock.x, "vadd", 0, &k, &ip);
    uintptr_t cu = 0;
    axl__xrt.kernel_open = kernel_open_fails;
    AXL_EXPECT(P->cu_open(dev, &stock.x, k, ip, &cu),
               AXL_ERR_KERNEL_NOT_SUPPORTED);
    AXL_MESSAGE_HAS("xrtPLKernelOpen");
    assert_int_equal(counts().kernels, 0);
    axl__xrt = axl__xrt_real;
    AXL_OK(P->cu_open(dev, &stock.x, k, ip, &cu));
    axl_hal_mem m[3];
    alloc3(dev, m, 64);
    vadd_run v;
    vadd_setup(&v, &stock, 0, cu, &m[0], &m[1], &m[2], 1);
    axl__xrt.run_open = run_open_fails;
    AXL_EXPECT(P->run_start(dev, &v.run), AXL_ERR_MEMORY_ALLOCATION);
    AXL_MESSAGE_HAS("xrtRunOpen");
    axl__xrt_counts c = counts();
    assert_int_equal(c.runs, 0);
    assert_int_equal(c.busy_runs, 0);
    assert_int_equal(xt_count_done(&v), 0);
    axl__xrt = axl__xrt_real;
    run_ok(dev, &v);
    free3(dev, m);
    P->cu_close(dev, cu);
}

static xrtBufferHandle sub_fails(xrtBufferHandle p, size_t s, size_t o)
{
    (void)p, (void)s, (void)o;
    errno = ENOMEM;
    return NULL;
}

static void failed_arguments_return_the_run_to_its_pool(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    uint32_t k, ip;
    xt_kernel(&stock.x, "vadd", 0, &k, &ip);
    uintptr_t cu;
    AXL_OK(P->cu_open(dev, &stock.x, k, ip, &cu));
    axl_hal_mem m[3];
    alloc3(dev, m, 8192);
    vadd_run v;
    /* Each argument in turn; those before it were set by the launch
     * before, and the run still holds them. */
    for (int at = 1; at <= 4; at++) {
        faults_reset();
        fail_at = at;
        axl__xrt.run_set_arg = set_arg_fails_at;
        vadd_setup(&v, &stock, 0, cu, &m[0], &m[1], &m[2], 1);
        AXL_EXPECT(P->run_start(dev, &v.run), AXL_ERR_KERNEL_ARGUMENT);
        AXL_MESSAGE_HAS("xrtRunSetArg");
    }
    axl__xrt = axl__xrt_real;
    axl__xrt.bo_sub_alloc = sub_fails;
    vadd_setup(&v, &stock, 0, cu, &m[0], &m[1], &m[2], 1);
    v.args[1].offset = 64;
    AXL_EXPECT(P->run_start(dev, &v.run), AXL_ERR_MEMORY_ALLOCATION);
    AXL_MESSAGE_HAS("xrtBOSubAlloc");
    axl__xrt_counts c = counts();
    assert_int_equal(c.runs, 1);
    assert_int_equal(c.busy_runs, 0);
    assert_int_equal(c.sub_bos, 0);
    assert_int_equal(xt_count_done(&v), 0);
    axl__xrt = axl__xrt_real;
    run_ok(dev, &v); /* the same XRT run, reused */
    assert_int_equal(counts().runs, 1);
    free3(dev, m);
    P->cu_close(dev, cu);
}

static int start_fails(xrtRunHandle h)
{
    (void)h;
    errno = EIO;
    return -1;
}

static void a_failed_start_closes_the_xrt_run_it_may_have_wedged(
    void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    uint32_t k, ip;
    xt_kernel(&stock.x, "vadd", 0, &k, &ip);
    uintptr_t cu;
    AXL_OK(P->cu_open(dev, &stock.x, k, ip, &cu));
    axl_hal_mem m[3];
    alloc3(dev, m, 64);
    vadd_run v;
    vadd_setup(&v, &stock, 0, cu, &m[0], &m[1], &m[2], 1);
    run_ok(dev, &v);
    assert_int_equal(counts().runs, 1);
    xt_done_reset();
    axl__xrt.run_start = start_fails;
    vadd_setup(&v, &stock, 0, cu, &m[0], &m[1], &m[2], 1);
    AXL_EXPECT(P->run_start(dev, &v.run), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("xrtRunStart");
    assert_int_equal(counts().runs, 0); /* closed, not pooled */
    assert_int_equal(counts().busy_runs, 0);
    assert_int_equal(xt_count_done(&v), 0);
    axl__xrt = axl__xrt_real;
    run_ok(dev, &v);
    free3(dev, m);
    P->cu_close(dev, cu);
}

static void a_run_ending_in_error_is_a_runtime_error(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    install_fake_states();
    axl_hal_mem m[3];
    alloc3(dev, m, 64);
    vadd_run v;
    vadd_setup(&v, &stock, 0, 0, &m[0], &m[1], &m[2], 1);
    error_next = 1;
    AXL_OK(P->run_start(dev, &v.run));
    xt_done d;
    assert_true(xt_wait_done(&v, 10000, &d));
    assert_int_equal(d.status, AXL_ERR_RUNTIME);
    assert_non_null(strstr(d.why, "vadd:{vadd_1} ended in XRT state ERROR"));
    assert_int_equal(counts().busy_runs, 0);
    errored = NULL;
    free3(dev, m);
}

/* hal.h (run_cancel): a run's memory stays valid until its one run_done,
 * so the port reports a run only once XRT sees it end. A hung run past
 * its timeout is not reported by the port (timeouts are the core's);
 * given up by the core (run_cancel) it is set aside, still counted busy,
 * and reported once, with AXL_ERR_TIMEOUT, when the accelerator ends. */
static void a_hung_run_is_reported_only_once_xrt_sees_it_end(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    install_fake_states();
    uint32_t k, ip;
    xt_kernel(&stock.x, "vadd", 0, &k, &ip);
    uintptr_t cu;
    AXL_OK(P->cu_open(dev, &stock.x, k, ip, &cu));
    axl_hal_mem m[3];
    alloc3(dev, m, 64);
    vadd_run v;
    vadd_setup(&v, &stock, 0, cu, &m[0], &m[1], &m[2], 1);
    v.run.timeout_ns = 30 * 1000000ull;
    hang_next = 1;
    AXL_OK(P->run_start(dev, &v.run));
    assert_false(xt_wait_done(&v, 100, NULL)); /* well past 30 ms */
    P->run_cancel(dev, &v.run);
    xt_sleep_ms(20);
    assert_int_equal(xt_count_done(&v), 0);
    assert_int_equal(counts().busy_runs, 1); /* still on the device */
    released = 1; /* the accelerator finally ends */
    xt_done d;
    assert_true(xt_wait_done(&v, 10000, &d));
    assert_int_equal(d.status, AXL_ERR_TIMEOUT);
    assert_non_null(strstr(d.why, "given up at its timeout"));
    for (int i = 0; i < 2000 && counts().busy_runs; i++)
        xt_sleep_ms(5);
    assert_int_equal(counts().busy_runs, 0);
    xt_sleep_ms(20);
    assert_int_equal(xt_count_done(&v), 1); /* reported once */
    P->run_cancel(dev, &v.run); /* again, after the end: nothing */
    assert_int_equal(xt_count_done(&v), 1);
    free3(dev, m);
    P->cu_close(dev, cu);
}

/* progress() waits for what XRT does: a run past its timeout that XRT
 * still runs is not reported, and is when it ends, with its own status
 * (nobody gave it up). */
static void progress_reports_a_late_run_when_xrt_sees_it_end(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    install_fake_states();
    axl_hal_mem m[3];
    alloc3(dev, m, 64);
    vadd_run v;
    vadd_setup(&v, &stock, 0, 0, &m[0], &m[1], &m[2], 1);
    v.run.timeout_ns = 20 * 1000000ull;
    hang_next = 1;
    AXL_OK(P->run_start(dev, &v.run));
    for (int i = 0; i < 10; i++) /* 50 ms, past the 20 ms timeout */
        P->progress(dev, axl_hal_now() + 5 * 1000000ull);
    assert_int_equal(xt_count_done(&v), 0);
    released = 1;
    for (int i = 0; i < 2000 && !xt_count_done(&v); i++)
        P->progress(dev, axl_hal_now() + 5 * 1000000ull);
    xt_done d;
    assert_true(xt_wait_done(&v, 0, &d));
    assert_int_equal(d.status, AXL_SUCCESS);
    for (int i = 0; i < 2000 && counts().busy_runs; i++)
        xt_sleep_ms(5);
    /* The completion thread may still be in its wait on the run progress
     * reported: let it go back to sleep under the device's lock (counts()
     * takes it) before the teardown puts the real table back. */
    xt_sleep_ms(20);
    (void)counts();
    free3(dev, m);
}

static void closing_a_unit_during_its_run_waits_for_the_run(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    install_fake_states();
    uint32_t k, ip;
    xt_kernel(&stock.x, "vadd", 0, &k, &ip);
    uintptr_t cu;
    AXL_OK(P->cu_open(dev, &stock.x, k, ip, &cu));
    axl_hal_mem m[3];
    alloc3(dev, m, 64);
    vadd_run v;
    vadd_setup(&v, &stock, 0, cu, &m[0], &m[1], &m[2], 1);
    hang_next = 1;
    AXL_OK(P->run_start(dev, &v.run));
    P->cu_close(dev, cu);
    assert_int_equal(counts().kernels, 1); /* its run is still on it */
    released = 1;
    assert_true(xt_wait_done(&v, 10000, NULL));
    for (int i = 0; i < 2000 && counts().kernels; i++)
        xt_sleep_ms(5);
    assert_int_equal(counts().kernels, 0);
    assert_int_equal(counts().runs, 0);
    free3(dev, m);
}

static void shutdown_with_a_hung_run_gives_up_after_the_close_wait(
    void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    install_fake_states();
    axl_hal_mem m[3];
    alloc3(dev, m, 64);
    vadd_run v;
    vadd_setup(&v, &stock, 0, 0, &m[0], &m[1], &m[2], 1);
    hang_next = 1;
    AXL_OK(P->run_start(dev, &v.run));
    /* The run never ends: shutdown waits AXL_XRT_CLOSE_WAIT_MS, then
     * closes every handle anyway (XRT's driver drops the run with the
     * device) and reports nothing. */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    AXL_OK(axl_shutdown());
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
                (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    assert_true(ms >= AXL_XRT_CLOSE_WAIT_MS - 50);
    /* It gives up (the run never ends): closing the rest takes a while
     * on a loaded machine, never another wait. */
    assert_true(ms < AXL_XRT_CLOSE_WAIT_MS + 30000);
    axl__xrt_counts c = counts();
    assert_int_equal(c.devices + c.kernels + c.runs + c.bos + c.threads, 0);
    assert_int_equal(xt_count_done(&v), 0);
}

/* ======================= delayed: runs that end after they start ================= */

static void a_run_ending_later_is_reported_by_the_completion_thread(
    void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    axl_hal_mem m[3];
    alloc3(dev, m, 64);
    vadd_run v;
    xt_done d;
    /* A start that took the run's 20 ms itself (this thread descheduled,
     * on a loaded machine) finds it complete and reports it there, as it
     * should: then it is tried again. */
    for (int tries = 0; tries < 20; tries++) {
        vadd_setup(&v, &stock, 0, 0, &m[0], &m[1], &m[2], 1);
        unsigned since = xt_mark();
        AXL_OK(P->run_start(dev, &v.run));
        assert_true(xt_wait_done_since(&v, since, 10000, &d));
        if (!pthread_equal(d.thread, pthread_self()))
            break;
    }
    assert_int_equal(d.status, AXL_SUCCESS);
    assert_false(pthread_equal(d.thread, pthread_self()));
    assert_int_equal(counts().threads, 1);
    free3(dev, m);
}

static void progress_returns_once_the_oldest_run_is_reported(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    axl_hal_mem m[3];
    alloc3(dev, m, 64);
    vadd_run v;
    vadd_setup(&v, &stock, 0, 0, &m[0], &m[1], &m[2], 1);
    AXL_OK(P->run_start(dev, &v.run));
    /* Each call returns after a report or a wait slice: 10 s of them, for
     * a loaded machine whose shim thread is slow to complete the run. */
    const uint64_t until = axl_hal_now() + 10000ull * 1000000ull;
    while (!xt_count_done(&v) && axl_hal_now() < until)
        P->progress(dev, UINT64_MAX);
    assert_int_equal(xt_count_done(&v), 1);
    P->progress(dev, UINT64_MAX); /* nothing in flight: returns */
    free3(dev, m);
}

static void runs_in_flight_together_grow_the_pool_then_reuse_it(
    void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    uint32_t k, ip;
    xt_kernel(&stock.x, "vadd", 0, &k, &ip);
    uintptr_t cu;
    AXL_OK(P->cu_open(dev, &stock.x, k, ip, &cu));
    axl_hal_mem m[3];
    alloc3(dev, m, 64);
    vadd_run v[8];
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 4; i++) {
            vadd_setup(&v[round * 4 + i], &stock, 0, cu, &m[0], &m[1], &m[2],
                       (uint32_t)i);
            AXL_OK(P->run_start(dev, &v[round * 4 + i].run));
        }
        for (int i = 0; i < 4; i++)
            assert_true(xt_wait_done(&v[round * 4 + i], 10000, NULL));
        for (int i = 0; i < 10000 && counts().busy_runs; i++)
            xt_sleep_ms(1);
    }
    axl__xrt_counts c = counts();
    assert_true(c.runs >= 2 && c.runs <= 4); /* not 8 */
    assert_int_equal(c.busy_runs, 0);
    free3(dev, m);
    P->cu_close(dev, cu);
}

static void noop_wait_blocks_past_a_deadline_so_a_late_run_completes(
    void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    axl_hal_mem m[3];
    alloc3(dev, m, 64);
    vadd_run v;
    vadd_setup(&v, &stock, 0, 0, &m[0], &m[1], &m[2], 1);
    v.run.timeout_ns = 5 * 1000000ull; /* the shim needs 20 ms */
    AXL_OK(P->run_start(dev, &v.run));
    xt_done d;
    assert_true(xt_wait_done(&v, 10000, &d));
    /* The noop shim's xclExecWait spins until a run completes and ignores
     * its timeout, so XRT returns COMPLETED after 20 ms. Either way the
     * port reports a run when XRT sees it end: a timeout is the core's
     * (it gives the run up; group faults covers that). */
    assert_int_equal(d.status, AXL_SUCCESS);
    free3(dev, m);
}

static void shutdown_waits_for_runs_still_in_flight(void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    axl_hal_mem m[3];
    alloc3(dev, m, 64);
    static vadd_run v[3];
    for (int i = 0; i < 3; i++) {
        vadd_setup(&v[i], &stock, i % 2, 0, &m[0], &m[1], &m[2], 1);
        AXL_OK(P->run_start(dev, &v[i].run));
    }
    /* Teardown shuts down with them on the device. */
    (void)m;
}

/* ======================= noop: XRT's noop shim and its race ==================== */

/* XRT 2.13's noop shim erases a freed BO from its BO table without the
 * table's lock, while its completion thread looks up each started run's
 * command BO (after Runtime.noop_completion_delay_us: 20 ms here) to mark
 * it complete; a lookup that meets the erase misses, and the run stays
 * NEW for good (xrt_noop.c). So a BO free waits until that thread has
 * looked up every run started: when it returns, the run is complete. */
static void a_bo_free_waits_until_the_noop_shim_has_looked_up_each_run(
    void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    install_fake_states(); /* records the run started (last_started) */
    axl_hal_mem m[3], other;
    alloc3(dev, m, 64);
    AXL_OK(P->mem_alloc(dev, 0, 64, NULL, &other));
    vadd_run v;
    /* Until the run is still NEW when the free starts (a thread
     * descheduled for the shim's 20 ms, on a loaded machine, finds it
     * complete already, and the free proves nothing). */
    int tried = 0;
    for (int tries = 0; tries < 20 && !tried; tries++) {
        vadd_setup(&v, &stock, 0, 0, &m[0], &m[1], &m[2], 1);
        unsigned since = xt_mark();
        AXL_OK(P->run_start(dev, &v.run));
        xrtRunHandle h = last_started;
        assert_non_null(h);
        if (axl__xrt_real.run_state(h) == ERT_CMD_STATE_NEW) {
            P->mem_free(dev, &other); /* no lookup may meet its erase */
            assert_int_equal(axl__xrt_real.run_state(h),
                             ERT_CMD_STATE_COMPLETED);
            tried = 1;
        }
        assert_true(xt_wait_done_since(&v, since, 10000, NULL));
    }
    assert_true(tried);
    free3(dev, m);
}

/* The shim's completion thread takes runs in the order they started: a
 * run still NEW when a later one is complete was passed, and will stay
 * NEW. The port reports it then, as the shim's lost completion, rather
 * than leave it to the core's timeout; XRT would refuse to start that
 * run again, so the port closes it. */
static void a_run_whose_completion_the_noop_shim_lost_is_reported_naming_it(
    void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    install_fake_states();
    uint32_t k, ip;
    xt_kernel(&stock.x, "vadd", 0, &k, &ip);
    uintptr_t cu;
    AXL_OK(P->cu_open(dev, &stock.x, k, ip, &cu));
    axl_hal_mem m[3];
    alloc3(dev, m, 64);
    vadd_run a, b;
    vadd_setup(&a, &stock, 0, cu, &m[0], &m[1], &m[2], 1);
    vadd_setup(&b, &stock, 0, cu, &m[0], &m[1], &m[2], 2);
    a.run.timeout_ns = 60000ull * 1000000ull; /* not what tells it */
    lose_next = 1;
    AXL_OK(P->run_start(dev, &a.run));
    AXL_OK(P->run_start(dev, &b.run));
    xt_done d;
    assert_true(xt_wait_done(&b, 10000, &d));
    assert_int_equal(d.status, AXL_SUCCESS);
    assert_true(xt_wait_done(&a, 10000, &d));
    assert_int_equal(d.status, AXL_ERR_RUNTIME);
    assert_non_null(strstr(d.why, "vadd:{vadd_1}: XRT's noop shim lost its "
                                  "completion"));
    /* a's run is closed once reported, with no lock held. */
    for (int i = 0; i < 2000 && (counts().busy_runs || counts().runs > 1); i++)
        xt_sleep_ms(5);
    axl__xrt_counts c = counts();
    assert_int_equal(c.busy_runs, 0);
    assert_int_equal(c.runs, 1); /* b's, pooled; a's closed */
    lost = NULL;
    assert_int_equal(xt_count_done(&a), 1);
    free3(dev, m);
    P->cu_close(dev, cu);
}

/* With no later run to tell, a probe does: a command BO the port queues
 * behind a run still NEW after AXL_XRT_NOOP_PROBE_MS, which the shim's
 * completion thread completes like a run. */
static void a_lone_run_whose_completion_the_noop_shim_lost_is_found_by_a_probe(
    void **state)
{
    (void)state;
    void *dev = device_with(&stock);
    install_fake_states();
    axl_hal_mem m[3];
    alloc3(dev, m, 64);
    vadd_run a;
    vadd_setup(&a, &stock, 0, 0, &m[0], &m[1], &m[2], 1);
    lose_next = 1;
    AXL_OK(P->run_start(dev, &a.run));
    xt_done d;
    assert_false(xt_wait_done(&a, AXL_XRT_NOOP_PROBE_MS / 2, NULL));
    assert_true(xt_wait_done(&a, 10000, &d));
    assert_int_equal(d.status, AXL_ERR_RUNTIME);
    assert_non_null(strstr(d.why, "XRT's noop shim lost its completion"));
    for (int i = 0; i < 2000 && counts().busy_runs; i++)
        xt_sleep_ms(5);
    assert_int_equal(counts().busy_runs, 0);
    lost = NULL;
    free3(dev, m);
}

/* ======================= race: frees beside completing runs ==================== */

/* The race itself, for a while (AXL_STRESS_SECONDS, 2 by default): two
 * threads keep RACE_RUNS runs each in flight, on the shim completing each
 * 100 us after its start (its completion thread looks them up back to
 * back), while a third frees and allocates BOs among a thousand (a deep
 * BO table, rebalanced at each erase). Every run must be reported,
 * successful, within 2 s. */
#define RACE_RUNS 16

typedef struct racer {
    void *dev;
    uintptr_t cu;
    axl_hal_mem *m;
    uint32_t unit;
    atomic_int *stop;
    vadd_run v[RACE_RUNS];
    atomic_int done[RACE_RUNS];
    axl_status status[RACE_RUNS];
    char why[AXL_MESSAGE_MAX];
    unsigned runs, lost;
} racer;

static racer race_racers[2];

static void racer_done(void *token, axl_status st, const char *why)
{
    for (int i = 0; i < 2; i++) {
        racer *r = &race_racers[i];
        if ((vadd_run *)token >= r->v && (vadd_run *)token < r->v + RACE_RUNS) {
            size_t j = (size_t)((vadd_run *)token - r->v);
            r->status[j] = st;
            if (st != AXL_SUCCESS)
                snprintf(r->why, sizeof r->why, "%s", why ? why : "");
            atomic_store(&r->done[j], 1);
        }
    }
}

static void *race_runs(void *arg)
{
    racer *r = arg;
    while (!atomic_load(r->stop)) {
        for (int j = 0; j < RACE_RUNS; j++) {
            vadd_setup(&r->v[j], &stock, r->unit, r->cu, &r->m[0], &r->m[1],
                       &r->m[2], r->runs + 1);
            atomic_store(&r->done[j], 0);
            if (P->run_start(r->dev, &r->v[j].run) != AXL_SUCCESS) {
                atomic_store(&r->done[j], 1);
                r->status[j] = AXL_ERR_RUNTIME;
                snprintf(r->why, sizeof r->why, "%s", axl_last_message());
            }
            r->runs++;
        }
        uint64_t until = axl_hal_now() + 2000ull * 1000000ull;
        for (int j = 0; j < RACE_RUNS; j++) {
            while (!atomic_load(&r->done[j]) && axl_hal_now() < until)
                sched_yield();
            if (!atomic_load(&r->done[j]) || r->status[j] != AXL_SUCCESS)
                r->lost++;
        }
        if (r->lost) {
            atomic_store(r->stop, 1); /* runs not back stay the port's */
            break;
        }
    }
    return NULL;
}

typedef struct churner {
    void *dev;
    atomic_int *stop;
    axl_hal_mem bos[1000];
    unsigned frees;
} churner;

static void *race_frees(void *arg)
{
    churner *c = arg;
    unsigned i = 0;
    while (!atomic_load(c->stop)) {
        axl_hal_mem *b = &c->bos[i++ % 1000];
        P->mem_free(c->dev, b);
        if (P->mem_alloc(c->dev, 0, 64, NULL, b) != AXL_SUCCESS)
            break;
        c->frees++;
    }
    return NULL;
}

static void runs_beside_bo_frees_all_complete_on_the_noop_shim(void **state)
{
    (void)state;
    const char *env = getenv("AXL_STRESS_SECONDS");
    const unsigned seconds = env && atoi(env) > 0 ? (unsigned)atoi(env) : 2;
    void *dev = device_with(&stock);
    axl__xrt_set_run_done(racer_done);
    uintptr_t cu[2];
    axl_hal_mem m[3];
    alloc3(dev, m, 64);
    atomic_int stop = 0;
    racer *r = race_racers;
    static churner c;
    memset(&c, 0, sizeof c);
    c.dev = dev;
    c.stop = &stop;
    for (int i = 0; i < 1000; i++)
        AXL_OK(P->mem_alloc(dev, 0, 64, NULL, &c.bos[i]));
    for (uint32_t i = 0; i < 2; i++) {
        uint32_t k, ip;
        xt_kernel(&stock.x, "vadd", i, &k, &ip);
        AXL_OK(P->cu_open(dev, &stock.x, k, ip, &cu[i]));
        memset(&r[i], 0, sizeof r[i]);
        r[i] = (racer){.dev = dev, .cu = cu[i], .m = m, .unit = i,
                       .stop = &stop};
    }
    pthread_t t[3];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, race_runs, &r[i]), 0);
    assert_int_equal(pthread_create(&t[2], NULL, race_frees, &c), 0);
    for (unsigned ms = 0; ms < seconds * 1000 && !atomic_load(&stop); ms += 10)
        xt_sleep_ms(10);
    atomic_store(&stop, 1);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    print_message("%u + %u runs beside %u BO frees in %u s\n", r[0].runs,
                  r[1].runs, c.frees, seconds);
    for (int i = 0; i < 2; i++)
        if (r[i].lost)
            fail_msg("%u of %u runs on unit %d not reported in 2 s or "
                     "failed%s%s",
                     r[i].lost, r[i].runs, i, r[i].why[0] ? ": " : "",
                     r[i].why);
    for (int i = 0; i < 1000; i++)
        P->mem_free(dev, &c.bos[i]);
    free3(dev, m);
    for (int i = 0; i < 2; i++)
        P->cu_close(dev, cu[i]);
}

/* ---- main ------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    if (axl_test_without_reader())
        return 0;
    const char *group = argc > 1 ? argv[1] : "";
    const struct CMUnitTest platform[] = {
        TEST(xrt_platform_lists_one_noop_device_named_for_its_shim),
        TEST(noop_device_is_an_emulated_accelerator_with_xrt_versions),
        TEST(without_a_design_the_device_has_no_memory_banks),
        TEST(board_design_loads_at_open_with_its_banks_and_kernels),
        TEST(board_design_already_running_is_attached_not_reprogrammed),
        TEST(a_device_running_another_design_has_no_builtin_kernels),
        TEST(unreadable_board_design_leaves_no_device_and_says_why),
        TEST(malformed_board_design_leaves_no_device_and_says_why),
        TEST(board_design_in_a_long_path_says_why_first),
        TEST(unreadable_board_design_in_a_long_path_says_why_first),
        TEST(native_device_handle_is_the_open_xrt_device),
        TEST(port_state_over_an_application_xrt_handle),
    };
    const struct CMUnitTest memory[] = {
        TEST(load_image_gives_the_used_banks_of_each_image),
        TEST(load_image_is_refused_while_compute_units_are_open),
        TEST(an_image_built_for_another_card_is_refused_naming_both_platforms),
        TEST(written_bytes_read_back_in_each_bank),
        TEST(ranges_outside_an_allocation_are_invalid),
        TEST(allocations_outside_the_banks_are_refused),
        TEST(page_aligned_user_memory_is_used_in_place),
        TEST(unaligned_user_memory_is_not_supported_so_the_core_copies),
        TEST(mem_copy_moves_bytes_between_allocations),
    };
    const struct CMUnitTest runs[] = {
        TEST(cu_open_opens_one_xrt_kernel_per_compute_unit),
        TEST(cu_open_refuses_wrong_indexes_and_images_not_loaded),
        TEST(ip_registers_of_a_unit_go_through_an_exclusive_xrt_kernel),
        TEST(vadd_with_three_buffers_and_a_scalar_completes),
        TEST(sequential_runs_reuse_one_xrt_run),
        TEST(a_run_complete_at_once_is_started_and_reported_without_the_device_lock),
        TEST(runs_started_on_one_unit_from_two_threads_are_each_reported_once),
#if AXL_XRT_KEEP_RUN_ARGS
        TEST(a_run_is_given_only_the_arguments_it_does_not_hold),
        TEST(a_run_with_the_args_id_of_its_last_start_sets_only_scalars),
#else
        TEST(a_run_is_given_every_argument_when_runs_keep_none),
#endif
        TEST(accessor_offsets_use_one_cached_sub_bo_each),
        TEST(scalars_pass_the_way_xrt_reads_each_type),
        TEST(float_scalar_passes_as_a_double),
        TEST(wrong_arguments_are_kernel_argument_errors_and_start_nothing),
        TEST(a_run_without_cu_open_opens_its_unit_until_the_design_changes),
        TEST(shutdown_closes_runs_kernels_and_buffers_in_order),
    };
    const struct CMUnitTest faults[] = {
        TEST(xrt_refusing_an_image_is_a_build_error_with_why),
        TEST(failed_allocations_map_to_memory_allocation_or_a_copy),
        TEST(failed_transfers_are_runtime_errors),
        TEST(failed_kernel_and_run_opens_leave_nothing_behind),
        TEST(failed_arguments_return_the_run_to_its_pool),
        TEST(a_failed_start_closes_the_xrt_run_it_may_have_wedged),
        TEST(a_run_ending_in_error_is_a_runtime_error),
        TEST(a_hung_run_is_reported_only_once_xrt_sees_it_end),
        TEST(progress_reports_a_late_run_when_xrt_sees_it_end),
        TEST(closing_a_unit_during_its_run_waits_for_the_run),
        TEST(shutdown_with_a_hung_run_gives_up_after_the_close_wait),
    };
    const struct CMUnitTest delayed[] = {
        TEST(a_run_ending_later_is_reported_by_the_completion_thread),
        TEST(progress_returns_once_the_oldest_run_is_reported),
        TEST(runs_in_flight_together_grow_the_pool_then_reuse_it),
        TEST(noop_wait_blocks_past_a_deadline_so_a_late_run_completes),
        TEST(shutdown_waits_for_runs_still_in_flight),
    };
    const struct CMUnitTest noop[] = {
        TEST(a_bo_free_waits_until_the_noop_shim_has_looked_up_each_run),
        TEST(a_run_whose_completion_the_noop_shim_lost_is_reported_naming_it),
        TEST(a_lone_run_whose_completion_the_noop_shim_lost_is_found_by_a_probe),
    };
    const struct CMUnitTest race[] = {
        TEST(runs_beside_bo_frees_all_complete_on_the_noop_shim),
    };
    if (!strcmp(group, "platform"))
        return cmocka_run_group_tests_name("platform", platform, NULL, NULL);
    if (!strcmp(group, "memory"))
        return cmocka_run_group_tests_name("memory", memory, NULL, NULL);
    if (!strcmp(group, "runs"))
        return cmocka_run_group_tests_name("runs", runs, NULL, NULL);
    if (!strcmp(group, "faults"))
        return cmocka_run_group_tests_name("faults", faults, NULL, NULL);
    if (!strcmp(group, "delayed"))
        return cmocka_run_group_tests_name("delayed", delayed, NULL, NULL);
    if (!strcmp(group, "noop"))
        return cmocka_run_group_tests_name("noop", noop, NULL, NULL);
    if (!strcmp(group, "race"))
        return cmocka_run_group_tests_name("race", race, NULL, NULL);
    fprintf(stderr,
            "usage: %s platform|memory|runs|faults|delayed|noop|race\n",
            argv[0]);
    return 2;
}
