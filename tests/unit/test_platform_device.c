/*
 * Platforms, devices, their info descriptors and device selection
 * (spec 4.6.1, 4.6.2, 4.6.4).
 */
#include <stdio.h>
#include <string.h>

#include "axl_test.h"

/* The emulated device's platform: the board's first. */
static axl_platform emu_platform(void)
{
    axl_platform all[AXL_TEST_BOARD_PORTS];
    uint32_t n = 0;
    AXL_OK(axl_platform_get_all(all, AXL_TEST_BOARD_PORTS, &n));
    axl_backend b;
    AXL_OK(axl_platform_get_backend(all[0], &b));
    assert_int_equal(b, AXL_BACKEND_EMU);
    return all[0];
}

static void platforms_one_per_device_port_with_names_4_6_2_2(void **state)
{
    (void)state;
    uint32_t n = 0;
    AXL_OK(axl_platform_get_all(NULL, 0, &n));
    /* One per device port of the board, the emulated device's first. */
    assert_int_equal(n, AXL_TEST_BOARD_PORTS);
    axl_platform p = emu_platform();
    char name[64];
    size_t size = 0;
    AXL_OK(axl_platform_get_info(p, AXL_PLATFORM_INFO_NAME, NULL, 0, &size));
    assert_int_equal(size, strlen("axl emulation") + 1);
    AXL_OK(axl_platform_get_info(p, AXL_PLATFORM_INFO_NAME, name, sizeof name,
                                 NULL));
    assert_string_equal(name, "axl emulation");
    AXL_OK(axl_platform_get_info(p, AXL_PLATFORM_INFO_VENDOR, name,
                                 sizeof name, NULL));
    assert_string_equal(name, "axl");
    AXL_OK(axl_platform_get_info(p, AXL_PLATFORM_INFO_VERSION, name,
                                 sizeof name, NULL));
    assert_true(strlen(name) > 0);
    axl_backend b;
    AXL_OK(axl_platform_get_backend(p, &b));
    assert_int_equal(b, AXL_BACKEND_EMU);
}

static void info_buffer_too_small_is_invalid_and_untouched(void **state)
{
    (void)state;
    axl_platform p = emu_platform();
    char name[4] = {'x', 'x', 'x', 'x'};
    size_t need = 0;
    AXL_EXPECT(axl_platform_get_info(p, AXL_PLATFORM_INFO_NAME, name,
                                     sizeof name, &need),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("needs 14 bytes");
    assert_int_equal(need, 14);
    assert_memory_equal(name, "xxxx", 4);
}

static void list_too_short_is_invalid_and_untouched(void **state)
{
    (void)state;
    fake_config = (fake_port_config){.devices = 3, .flags = AXL_HAL_DEVICE_AVAILABLE};
    AXL_OK(axl_device_port_register(&fake_port));
    axl_device d[2] = {{7}, {7}};
    uint32_t n = 0;
    AXL_EXPECT(axl_device_get_all(AXL_DEVICE_TYPE_ALL, d, 2, &n),
               AXL_ERR_INVALID);
    assert_int_equal(n, 4);
    assert_int_equal(d[0].id, 7);
    assert_int_equal(d[1].id, 7);
}

static void emulated_device_info_4_6_4_2(void **state)
{
    (void)state;
    axl_device d = axl_test_emu_device();
    axl_device_type type;
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_DEVICE_TYPE, &type,
                               sizeof type, NULL));
    assert_int_equal(type, AXL_DEVICE_TYPE_ACCELERATOR);
    uint32_t u32;
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_MAX_COMPUTE_UNITS, &u32,
                               sizeof u32, NULL));
    assert_true(u32 >= 1); /* 4.6.4.2: minimum 1 */
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_ADDRESS_BITS, &u32,
                               sizeof u32, NULL));
    assert_int_equal(u32, 64);
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_MEM_BASE_ADDR_ALIGN, &u32,
                               sizeof u32, NULL));
    assert_int_equal(u32, 4096);
    uint64_t global, max_alloc, res;
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_GLOBAL_MEM_SIZE, &global,
                               sizeof global, NULL));
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_MAX_MEM_ALLOC_SIZE,
                               &max_alloc, sizeof max_alloc, NULL));
    /* From the banks: the sum, and the largest one. */
    uint32_t banks = 0;
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_MEMORY_BANKS, &banks,
                               sizeof banks, NULL));
    assert_true(banks >= 1);
    uint64_t sum = 0, largest = 0;
    for (uint32_t i = 0; i < banks; i++) {
        axl_device_bank b;
        AXL_OK(axl_device_get_bank(d, i, &b));
        sum += b.size;
        largest = b.size > largest ? b.size : largest;
    }
    assert_true(global == sum);
    assert_true(max_alloc == largest);
    /* Not a custom device: 4.6.4.2's minimum for max_mem_alloc_size. */
    uint64_t quarter = global / 4, floor128 = 128u << 20;
    assert_true(max_alloc >= (quarter > floor128 ? quarter : floor128));
    axl_device_bank b;
    AXL_EXPECT(axl_device_get_bank(d, banks, &b), AXL_ERR_INVALID);
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_PROFILING_TIMER_RESOLUTION,
                               &res, sizeof res, NULL));
    assert_true(res >= 1);
    bool flag;
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_IS_AVAILABLE, &flag,
                               sizeof flag, NULL));
    assert_true(flag);
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_IS_COMPILER_AVAILABLE,
                               &flag, sizeof flag, NULL));
    assert_false(flag);
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_IS_LINKER_AVAILABLE, &flag,
                               sizeof flag, NULL));
    assert_false(flag);
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_QUEUE_PROFILING, &flag,
                               sizeof flag, NULL));
    assert_true(flag);
    char s[128];
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_NAME, s, sizeof s, NULL));
    assert_non_null(strstr(s, "emulated"));
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_VERSION, s, sizeof s, NULL));
    assert_string_equal(s, "1.0"); /* <major>.<minor>, 4.6.4.2 */
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_VENDOR, s, sizeof s, NULL));
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_DRIVER_VERSION, s, sizeof s,
                               NULL));
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_BACKEND_VERSION, s,
                               sizeof s, NULL));
    axl_platform p, p2;
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_PLATFORM, &p, sizeof p,
                               NULL));
    p2 = emu_platform();
    assert_true(AXL_SAME(p, p2));
    AXL_OK(axl_device_get_platform(d, &p2));
    assert_true(AXL_SAME(p, p2));
    size_t size = 99;
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_BUILT_IN_KERNEL_IDS, NULL, 0,
                               &size));
    assert_int_equal(size % sizeof(axl_kernel_id), 0);
}

static void emulated_device_aspects_4_6_4_3(void **state)
{
    (void)state;
    axl_device d = axl_test_emu_device();
    axl_aspect a[AXL_ASPECT_COUNT];
    size_t size = 0;
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_ASPECTS, a, sizeof a, &size));
    size_t n = size / sizeof a[0];
    bool seen[AXL_ASPECT_COUNT] = {false};
    for (size_t i = 0; i < n; i++)
        seen[a[i]] = true;
    assert_true(seen[AXL_ASPECT_ACCELERATOR]);
    assert_true(seen[AXL_ASPECT_EMULATED]);
    assert_true(seen[AXL_ASPECT_QUEUE_PROFILING]);
    assert_false(seen[AXL_ASPECT_ONLINE_COMPILER]);
    assert_false(seen[AXL_ASPECT_ONLINE_LINKER]);
    assert_false(seen[AXL_ASPECT_GPU]);
    /* has() agrees with the list for every aspect. */
    for (int i = 0; i < AXL_ASPECT_COUNT; i++) {
        bool has;
        AXL_OK(axl_device_has(d, (axl_aspect)i, &has));
        assert_int_equal(has, seen[i]);
    }
    bool has;
    AXL_EXPECT(axl_device_has(d, AXL_ASPECT_COUNT, &has), AXL_ERR_INVALID);
    axl_platform p;
    AXL_OK(axl_device_get_platform(d, &p));
    AXL_OK(axl_platform_has(p, AXL_ASPECT_EMULATED, &has));
    assert_true(has);
}

static void unknown_descriptor_is_invalid(void **state)
{
    (void)state;
    axl_device d = axl_test_emu_device();
    uint32_t v;
    AXL_EXPECT(axl_device_get_info(d, (axl_device_info)999, &v, sizeof v, NULL),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("999");
}

static void get_devices_filters_by_type(void **state)
{
    (void)state;
    uint32_t n = 99;
    AXL_OK(axl_device_get_all(AXL_DEVICE_TYPE_GPU, NULL, 0, &n));
    assert_int_equal(n, 0);
    AXL_OK(axl_device_get_all(AXL_DEVICE_TYPE_ACCELERATOR, NULL, 0, &n));
    assert_true(n >= 1);
    axl_platform p = emu_platform();
    AXL_OK(axl_platform_get_devices(p, AXL_DEVICE_TYPE_ACCELERATOR, NULL, 0,
                                    &n));
    assert_int_equal(n, 1);
    AXL_OK(axl_platform_get_devices(p, AXL_DEVICE_TYPE_CPU, NULL, 0, &n));
    assert_int_equal(n, 0);
    AXL_EXPECT(axl_device_get_all((axl_device_type)0, NULL, 0, &n),
               AXL_ERR_INVALID);
}

static int pick_by_name(axl_device d, const void *user)
{
    char name[64];
    axl_device_get_info(d, AXL_DEVICE_INFO_NAME, name, sizeof name, NULL);
    return strstr(name, (const char *)user) ? 5 : 0;
}

static int reject_all(axl_device d, const void *user)
{
    (void)d;
    (void)user;
    return -1;
}

static void default_selector_prefers_hardware_over_emulated_4_6_1_1(void **state)
{
    (void)state;
    fake_config = (fake_port_config){
        .devices = 1, .flags = AXL_HAL_DEVICE_AVAILABLE, .name = "real card"};
    AXL_OK(axl_device_port_register(&fake_port));
    axl_device d;
    AXL_OK(axl_device_select(axl_default_selector, NULL, &d));
    char name[64];
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_NAME, name, sizeof name,
                               NULL));
    assert_non_null(strstr(name, "real card"));
    /* One platform more, with its device. */
    uint32_t n;
    AXL_OK(axl_platform_get_all(NULL, 0, &n));
    assert_int_equal(n, AXL_TEST_BOARD_PORTS + 1);
}

static void default_selector_falls_back_to_emulated_4_6_1_1(void **state)
{
    (void)state;
    /* A hardware device that is not available scores below the emulator. */
    fake_config = (fake_port_config){.devices = 1, .name = "busy card"};
    AXL_OK(axl_device_port_register(&fake_port));
    axl_device d;
    AXL_OK(axl_device_select(axl_default_selector, NULL, &d));
    assert_true(AXL_SAME(d, axl_test_emu_device()));
}

static void accelerator_selector_rejects_other_types_4_6_1_1(void **state)
{
    (void)state;
    fake_config = (fake_port_config){.devices = 1,
                                     .type = AXL_DEVICE_TYPE_CUSTOM,
                                     .flags = AXL_HAL_DEVICE_AVAILABLE,
                                     .name = "custom"};
    AXL_OK(axl_device_port_register(&fake_port));
    axl_device d;
    AXL_OK(axl_device_select(axl_accelerator_selector, NULL, &d));
    assert_true(AXL_SAME(d, axl_test_emu_device()));
}

static void user_selector_picks_highest_score_4_6_1_1(void **state)
{
    (void)state;
    fake_config = (fake_port_config){
        .devices = 2, .flags = AXL_HAL_DEVICE_AVAILABLE, .name = "scored"};
    AXL_OK(axl_device_port_register(&fake_port));
    axl_device d;
    AXL_OK(axl_device_select(pick_by_name, "scored 1", &d));
    char name[64];
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_NAME, name, sizeof name,
                               NULL));
    assert_string_equal(name, "scored 1");
}

static void all_negative_scores_is_runtime_error_4_6_1_1(void **state)
{
    (void)state;
    axl_device d = {12345};
    AXL_EXPECT(axl_device_select(reject_all, NULL, &d), AXL_ERR_RUNTIME);
    assert_int_equal(d.id, 12345);
    assert_int_equal(axl_status_errc(AXL_ERR_RUNTIME), AXL_ERRC_RUNTIME);
}

static void aspect_selector_requires_and_denies_4_6_1_1(void **state)
{
    (void)state;
    fake_config = (fake_port_config){.devices = 1, .flags = AXL_HAL_DEVICE_AVAILABLE, .name = "hw"};
    AXL_OK(axl_device_port_register(&fake_port));
    axl_aspect emulated = AXL_ASPECT_EMULATED;
    axl_aspect profiling = AXL_ASPECT_QUEUE_PROFILING;
    axl_device d;
    axl_aspect_list want_emu = {&emulated, 1, NULL, 0};
    AXL_OK(axl_device_select(axl_aspect_selector, &want_emu, &d));
    assert_true(AXL_SAME(d, axl_test_emu_device()));
    axl_aspect_list no_emu = {NULL, 0, &emulated, 1};
    AXL_OK(axl_device_select(axl_aspect_selector, &no_emu, &d));
    assert_false(AXL_SAME(d, axl_test_emu_device()));
    axl_aspect_list impossible = {&profiling, 1, &emulated, 1};
    AXL_EXPECT(axl_device_select(axl_aspect_selector, &impossible, &d),
               AXL_ERR_RUNTIME);
}

static void platform_without_devices_says_why(void **state)
{
    (void)state;
    fake_config = (fake_port_config){.devices = 0};
    AXL_OK(axl_device_port_register(&fake_port));
    axl_platform all[AXL_TEST_BOARD_PORTS + 1];
    uint32_t n;
    AXL_OK(axl_platform_get_all(all, AXL_TEST_BOARD_PORTS + 1, &n));
    assert_int_equal(n, AXL_TEST_BOARD_PORTS + 1);
    axl_platform p = all[AXL_TEST_BOARD_PORTS]; /* registered ones come last */
    char why[128];
    AXL_OK(axl_platform_get_info(p, AXL_PLATFORM_INFO_NO_DEVICE_REASON, why,
                                 sizeof why, NULL));
    assert_non_null(strstr(why, "told to find nothing"));
    AXL_OK(axl_platform_get_devices(p, AXL_DEVICE_TYPE_ALL, NULL, 0, &n));
    assert_int_equal(n, 0);
    bool has = true;
    AXL_OK(axl_platform_has(p, AXL_ASPECT_GPU, &has));
    assert_true(has); /* vacuous: all of no devices */
}

static void port_registration_checks_required_ops(void **state)
{
    (void)state;
    axl_device_port broken = fake_port;
    broken.bank = NULL;
    AXL_EXPECT(axl_device_port_register(&broken), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("bank");
    AXL_OK(axl_init());
    AXL_EXPECT(axl_device_port_register(&fake_port), AXL_ERR_BAD_STATE);
}

/* Messages that name a path keep their reason: axl_shorten keeps a long
 * path's beginning and its file name, in the room it is given, and cuts
 * on its separators, so that no folder name shown is cut in two (issue
 * 35.4: paths stay readable). */
static void shortened_path_keeps_its_beginning_and_file_name(void **state)
{
    (void)state;
    char path[400], out[48];
    snprintf(path, sizeof path, "/home/someone");
    for (int i = 0; i < 12; i++)
        strcat(path, "/a_rather_long_folder");
    strcat(path, "/design.xclbin");
    assert_ptr_equal(axl_shorten(out, sizeof out, path), out);
    assert_string_equal(out, "/home/someone/.../design.xclbin");
    /* With more room, whole folders on either side of the dots. */
    char wide[80];
    axl_shorten(wide, sizeof wide, path);
    assert_true(strlen(wide) < sizeof wide);
    assert_string_equal(wide, "/home/someone/.../a_rather_long_folder/"
                              "a_rather_long_folder/design.xclbin");
    /* A file name longer than the room keeps its end, cut where it must. */
    char name[200] = "/x/";
    for (int i = 0; i < 10; i++)
        strcat(name, "long_file_name_");
    strcat(name, "end.xclbin");
    axl_shorten(out, sizeof out, name);
    assert_int_equal(strlen(out), sizeof out - 1);
    assert_non_null(strstr(out, "..."));
    assert_string_equal(out + strlen(out) - 10, "end.xclbin");
}

static void short_text_is_copied_whole(void **state)
{
    (void)state;
    char out[16];
    assert_string_equal(axl_shorten(out, sizeof out, "a/b.xclbin"),
                        "a/b.xclbin");
    assert_string_equal(axl_shorten(out, sizeof out, "exactly_15_char"),
                        "exactly_15_char");
    char tiny[3];
    assert_string_equal(axl_shorten(tiny, sizeof tiny, "abcdef"), "ef");
}

#define T(f) cmocka_unit_test_setup_teardown(f, axl_test_setup, axl_test_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(platforms_one_per_device_port_with_names_4_6_2_2),
        T(shortened_path_keeps_its_beginning_and_file_name),
        T(short_text_is_copied_whole),
        T(info_buffer_too_small_is_invalid_and_untouched),
        T(list_too_short_is_invalid_and_untouched),
        T(emulated_device_info_4_6_4_2),
        T(emulated_device_aspects_4_6_4_3),
        T(unknown_descriptor_is_invalid),
        T(get_devices_filters_by_type),
        T(default_selector_prefers_hardware_over_emulated_4_6_1_1),
        T(default_selector_falls_back_to_emulated_4_6_1_1),
        T(accelerator_selector_rejects_other_types_4_6_1_1),
        T(user_selector_picks_highest_score_4_6_1_1),
        T(all_negative_scores_is_runtime_error_4_6_1_1),
        T(aspect_selector_requires_and_denies_4_6_1_1),
        T(platform_without_devices_says_why),
        T(port_registration_checks_required_ops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
