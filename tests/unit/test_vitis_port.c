/*
 * What a Vitis user porting a host program asks, answered in one call and
 * in messages that say what to do (issue 29 item 5): the bank of a kernel
 * argument for the units a kernel object runs on (XRT's group_id), which
 * units reach which banks when a buffer is out of their reach, what a
 * bank holds when it is full, and how to raise a capacity in an
 * installed axl. And what a user sets from outside (item 7): the device
 * (AXL_DEVICE, as XRT's -d or ONEAPI_DEVICE_SELECTOR), an image by its
 * path, and what the build is (board, ports, capacities).
 *
 * The design is tests/unit/asym (test_emulated_device.c): four units of
 * a vadd, on DDR[0], DDR[1], PLRAM[0] and PLRAM[1].
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axl_test.h"
#include "axl/emu.h"
#include "axl_config.h" /* the feature switches */

/* The context pool is full at AXL_MAX_CONTEXTS: a capacity a user of an
 * installed package raises by configuring axl again (-DAXL_MAX_...=N) or
 * with a user config header; "the board header" is not theirs to edit. */
static void a_full_pool_says_how_to_raise_its_capacity(void **s)
{
    (void)s;
    axl_pool_stats pool = axl_test_pool("context");
    axl_context c[64];
    axl_device d = axl_test_emu_device();
    assert_true(pool.capacity <= 64);
    for (uint32_t i = 0; i < pool.capacity; i++)
        AXL_OK(axl_context_create(&d, 1, NULL, &c[i]));
    axl_context extra;
    AXL_EXPECT(axl_context_create(&d, 1, NULL, &extra),
               AXL_ERR_OUT_OF_RESOURCES);
    char want[128];
    snprintf(want, sizeof want,
             "the context pool is full (%u in use): configure axl with "
             "-DAXL_MAX_CONTEXTS=%u",
             (unsigned)pool.capacity, (unsigned)pool.capacity * 2);
    AXL_MESSAGE_HAS(want);
    AXL_MESSAGE_HAS("or set it in an AXL_USER_CONFIG header");
    for (uint32_t i = 0; i < pool.capacity; i++)
        AXL_OK(axl_context_release(c[i]));
}

/* ---- From outside (item 7) --------------------------------------------------------- */

static axl_device selected(void)
{
    axl_device d = {0};
    AXL_OK(axl_device_select(axl_default_selector, NULL, &d));
    return d;
}

/* Issue 29 item 7: AXL_DEVICE (or axl_default_selector_set) chooses what
 * the default selector picks, as ONEAPI_DEVICE_SELECTOR does: by backend
 * (the port's name) and index among that port's devices, or '*', or by a
 * piece of the device's name; several terms with ';'. Without it a
 * hardware device (here the fake port's) wins over the emulated one. A
 * choice that matches no device makes the selection fail naming it and
 * the devices there are; a malformed one is refused and changes nothing. */
static void axl_device_chooses_what_the_default_selector_picks(void **s)
{
    (void)s;
    axl_device fake = axl_test_fake_device();
    axl_device emu = axl_test_emu_device();
    assert_int_equal(selected().id, fake.id);
    AXL_OK(axl_default_selector_set("emu:0"));
    assert_int_equal(selected().id, emu.id);
    AXL_OK(axl_default_selector_set("emu:*"));
    assert_int_equal(selected().id, emu.id);
    AXL_OK(axl_default_selector_set("fake:0"));
    assert_int_equal(selected().id, fake.id);
    AXL_OK(axl_default_selector_set("Emulated"));
    assert_int_equal(selected().id, emu.id);
    AXL_OK(axl_default_selector_set("xrt:3;emu:0"));
    assert_int_equal(selected().id, emu.id);
    AXL_OK(axl_default_selector_set("xrt:3"));
    axl_device d = {0};
    AXL_EXPECT(axl_device_select(axl_default_selector, NULL, &d),
               AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("AXL_DEVICE \"xrt:3\" matches none of the devices: "
                    "emu:0 (axl emulated FPGA 0), fake:0 (fake FPGA 0)");
    AXL_EXPECT(axl_default_selector_set("emu:first"), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("\"emu:first\": after ':' an index or '*'");
    AXL_EXPECT(axl_device_select(axl_default_selector, NULL, &d),
               AXL_ERR_RUNTIME); /* still xrt:3 */
    AXL_OK(axl_default_selector_set(NULL));
    assert_int_equal(selected().id, fake.id);

    /* From the environment, read when the runtime starts. */
    AXL_OK(axl_shutdown());
    fake_config = (fake_port_config){.devices = 1,
                                     .flags = AXL_HAL_DEVICE_AVAILABLE};
    AXL_OK(axl_device_port_register(&fake_port));
    setenv("AXL_DEVICE", "emu:0", 1);
    emu = axl_test_emu_device();
    assert_int_equal(selected().id, emu.id);
    /* A selector built on the default one that takes none of them: the
     * failure says AXL_DEVICE limits it. */
    axl_aspect emulated = AXL_ASPECT_EMULATED;
    axl_aspect_list not_emulated = {NULL, 0, &emulated, 1};
    AXL_EXPECT(axl_device_select(axl_aspect_selector, &not_emulated, &d),
               AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("no device of those AXL_DEVICE \"emu:0\" names scored "
                    "0 or more");
    unsetenv("AXL_DEVICE");
    AXL_OK(axl_default_selector_set(NULL));
}

/* Item 7: an image from a file in one call (hosted builds): its kernels
 * are the application's at once; a path that cannot be read, or bytes
 * that are not an xclbin, are refused naming the file. */
static void an_image_registers_from_its_file_in_one_call(void **s)
{
    (void)s;
    char path[] = "/tmp/axl-test-image-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(axl_test_app_xclbin, 1, axl_test_app_xclbin_size,
                            f),
                     axl_test_app_xclbin_size);
    fclose(f);
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES, axl_image_register_file(path));
    AXL_OK(axl_image_register_file(path));
    remove(path);
    axl_kernel_id id;
    AXL_OK(axl_get_kernel_id("scale", &id));
    AXL_EXPECT(axl_image_register_file(path), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("cannot read");
    AXL_MESSAGE_HAS(path);
    f = fopen(path, "wb");
    assert_non_null(f);
    fputs("not an xclbin", f);
    fclose(f);
    AXL_EXPECT(axl_image_register_file(path), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("not a valid xclbin");
    remove(path);
}

/* Item 7: the library says what it was built as: its board, its ports
 * and every capacity as compiled (what axl-ls --build prints, and the
 * CMake package's variables, tests/install). */
static void the_library_states_its_board_ports_and_capacities(void **s)
{
    (void)s;
    axl_build_info b;
    AXL_OK(axl_build_info_get(&b));
    assert_non_null(strstr(b.device_ports, "emu"));
    assert_true(b.board[0] != '\0');
    assert_true(b.os_port[0] != '\0');
    bool events = false, banks = false;
    for (uint32_t i = 0; i < b.setting_count; i++) {
        if (!strcmp(b.settings[i].name, "AXL_MAX_EVENTS")) {
            events = true;
            assert_int_equal(b.settings[i].value,
                             axl_test_pool("event").capacity);
        }
        banks |= !strcmp(b.settings[i].name, "AXL_EMU_MAX_BANK_BYTES");
    }
    assert_true(events);
    assert_true(banks);
}

#ifdef AXL_TEST_ASYM
#include "axl_test_asym_xclbin.h"

/* The stock vadd on the emulated device, its image registered again
 * with four units of different banks (axl_test_asym_xclbin), and a kernel
 * of each unit. */
typedef struct asym_rig {
    axl_test_rig t; /* t.vadd on all four units */
    axl_kernel unit[4]; /* on vadd_1 .. vadd_4 */
} asym_rig;

static asym_rig asym_up(void)
{
    asym_rig r;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_asym_xclbin,
                                      axl_test_asym_xclbin_size));
    AXL_OK(axl_emu_register_model("vadd", axl_test_vadd_model, NULL));
    AXL_OK(axl_image_register(axl_test_asym_xclbin,
                              axl_test_asym_xclbin_size));
    axl_kernel_id ids[8], id = {0};
    uint32_t n = 0;
    AXL_OK(axl_get_kernel_ids(ids, 8, &n));
    for (uint32_t i = 0; i < n && i < 8; i++) {
        const char *name;
        AXL_OK(axl_kernel_id_get_name(ids[i], &name));
        if (!strcmp(name, "vadd"))
            id = ids[i];
    }
    r.t = axl_test_rig_as(
        (axl_test_rig_config){.flags = AXL_QUEUE_IN_ORDER, .id = id});
    for (int u = 0; u < 4; u++) {
        char name[16];
        snprintf(name, sizeof name, "vadd_%d", u + 1);
        AXL_OK(axl_kernel_select_units(r.t.vadd, name, &r.unit[u]));
    }
    return r;
}

static void asym_down(asym_rig *r)
{
    AXL_OK(axl_queue_wait(r->t.q));
    for (int u = 0; u < 4; u++)
        AXL_OK(axl_kernel_release(r->unit[u]));
    axl_test_rig_down(&r->t);
    AXL_OK(axl_emu_register_model("vadd", NULL, NULL));
}

/* Issue 29 item 5, XRT's kernel::group_id(argno) in one call: the memory
 * an argument reaches from the units the kernel object runs on (here the
 * one unit kept), its tag, and the bank of the device axl_buffer_place
 * takes; a buffer placed there runs on that unit. The kernel object on
 * all four units has no memory in common for it: the failure names each
 * unit's. A scalar has no bank. axl_kernel_get_arg_memories, asked for a
 * unit the object does not run on, says which it runs on instead of
 * answering for another unit. */
static void the_bank_of_an_argument_for_the_units_a_kernel_runs_on_in_one_call(void **s)
{
    (void)s;
    asym_rig r = asym_up();
    axl_kernel_arg_bank bank;
    AXL_OK(axl_kernel_get_arg_bank(r.unit[2], 0, AXL_NO_DEVICE, &bank));
    assert_int_equal(bank.memory, 4); /* MEM_TOPOLOGY: PLRAM[0] */
    assert_int_equal(bank.memories, 1u << 4);
    assert_string_equal(bank.tag, "PLRAM[0]");
    assert_int_equal(bank.bank, 2); /* the device's third bank */
    AXL_OK(axl_kernel_get_arg_bank(r.unit[1], 2, axl_test_emu_device(),
                                   &bank));
    assert_string_equal(bank.tag, "DDR[1]");
    assert_int_equal(bank.bank, 1);

    enum { N = 64 };
    static int32_t a[N], b[N], o[N];
    for (int i = 0; i < N; i++)
        a[i] = b[i] = i;
    axl_buffer A, B, O;
    AXL_OK(axl_buffer_create_from(a, 4, axl_range_1d(N), NULL, &A));
    AXL_OK(axl_buffer_create_from(b, 4, axl_range_1d(N), NULL, &B));
    AXL_OK(axl_buffer_create_from(o, 4, axl_range_1d(N), NULL, &O));
    AXL_OK(axl_kernel_get_arg_bank(r.unit[3], 0, AXL_NO_DEVICE, &bank));
    AXL_OK(axl_buffer_place(A, axl_test_emu_device(), bank.bank));
    AXL_OK(axl_buffer_place(B, axl_test_emu_device(), bank.bank));
    AXL_OK(axl_buffer_place(O, axl_test_emu_device(), bank.bank));
    axl_event e;
    AXL_OK(axl_queue_single_task(r.t.q, r.unit[3],
                                 AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(B),
                                          AXL_ARG_OUT(O), AXL_ARG_U32(N)),
                                 NULL, 0, &e));
    AXL_OK(axl_event_wait(e));
    uint32_t cu = 9;
    AXL_OK(axl_event_get_compute_unit(e, &cu));
    assert_int_equal(cu, 3);
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(O));
    assert_int_equal(o[N - 1], 2 * (N - 1));

    bank.memory = 77;
    AXL_EXPECT(axl_kernel_get_arg_bank(r.t.vadd, 0, AXL_NO_DEVICE, &bank),
               AXL_ERR_KERNEL_ARGUMENT);
    AXL_MESSAGE_HAS("argument 0 (in1) of vadd: its units reach no memory in "
                    "common (vadd_1: DDR[0]; vadd_2: DDR[1]; vadd_3: "
                    "PLRAM[0]; vadd_4: PLRAM[1])");
    assert_int_equal(bank.memory, 77);
    AXL_EXPECT(axl_kernel_get_arg_bank(r.unit[0], 3, AXL_NO_DEVICE, &bank),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("argument 3 (size) of vadd is a scalar");

    uint64_t m = 0;
    char tag[24];
    AXL_OK(axl_kernel_get_arg_memories(r.unit[2], 2, 0, &m, tag, sizeof tag));
    assert_string_equal(tag, "PLRAM[0]");
    AXL_EXPECT(axl_kernel_get_arg_memories(r.unit[2], 0, 0, &m, tag,
                                           sizeof tag),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("this kernel object runs on vadd_3 (unit 2) only");
    asym_down(&r);
}

/* Item 5: a buffer in a bank the kernel object's units do not reach is
 * refused at submit naming the units and the banks they do reach. */
static void a_bank_no_unit_reaches_names_the_units_and_the_banks_they_reach(void **s)
{
    (void)s;
    asym_rig r = asym_up();
    enum { N = 64 };
    axl_buffer A, B, O;
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &A));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &B));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &O));
    AXL_OK(axl_buffer_place(A, axl_test_emu_device(), 0)); /* DDR[0] */
    AXL_EXPECT(axl_queue_single_task(r.t.q, r.unit[2],
                                     AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(B),
                                              AXL_ARG_OUT(O), AXL_ARG_U32(N)),
                                     NULL, 0, NULL),
               AXL_ERR_KERNEL_ARGUMENT);
    AXL_MESSAGE_HAS("argument 0 (in1) of vadd: the buffer is in DDR[0], "
                    "which no unit of the kernel object reaches (vadd_3: "
                    "PLRAM[0])");
    /* Each buffer reachable from a unit, but none reaches both: refused
     * at submit (before, the command failed at dispatch, saying only
     * that no compute unit reaches its buffers). */
    AXL_OK(axl_buffer_place(B, axl_test_emu_device(), 1)); /* DDR[1] */
    AXL_EXPECT(axl_queue_single_task(r.t.q, r.t.vadd,
                                     AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(B),
                                              AXL_ARG_OUT(O), AXL_ARG_U32(N)),
                                     NULL, 0, NULL),
               AXL_ERR_KERNEL_ARGUMENT);
    AXL_MESSAGE_HAS("argument 1 (in2) of vadd: the buffer is in DDR[1], "
                    "which no unit that reaches the buffers before it "
                    "reaches (vadd_1: DDR[0]; vadd_2: DDR[1];");
    /* With in1 where in2 is, vadd_2 runs it. */
    axl_event e;
    AXL_OK(axl_queue_single_task(r.t.q, r.t.vadd,
                                 AXL_ARGS(AXL_ARG_IN(B), AXL_ARG_IN(B),
                                          AXL_ARG_OUT(O), AXL_ARG_U32(N)),
                                 NULL, 0, &e));
    AXL_OK(axl_event_wait(e));
    uint32_t cu = 9;
    AXL_OK(axl_event_get_compute_unit(e, &cu));
    assert_int_equal(cu, 1);
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(O));
    asym_down(&r);
}

/* Item 5: out of device memory says the bank's size and what is free in
 * it (PLRAM[0] holds 128 KiB; a buffer of 96 KiB is there). */
static void out_of_device_memory_says_the_bank_size_and_what_is_free(void **s)
{
    (void)s;
    asym_rig r = asym_up();
    axl_buffer big, more;
    AXL_OK(axl_buffer_create(1, axl_range_1d(96 * 1024), NULL, &big));
    AXL_OK(axl_buffer_create(1, axl_range_1d(64 * 1024), NULL, &more));
    AXL_OK(axl_buffer_place(big, axl_test_emu_device(), 2));
    AXL_EXPECT(axl_buffer_place(more, axl_test_emu_device(), 2),
               AXL_ERR_MEMORY_ALLOCATION);
    AXL_MESSAGE_HAS("65536 bytes in bank 2 (PLRAM[0]) of axl emulated FPGA 0: "
                    "out of device memory: the bank has 128 KiB, 32 KiB free, "
                    "the largest block 32 KiB; 1 allocation");
    AXL_OK(axl_buffer_release(big));
    AXL_OK(axl_buffer_release(more));
    asym_down(&r);
}
#endif /* AXL_TEST_ASYM */

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(
            a_full_pool_says_how_to_raise_its_capacity, axl_test_setup,
            axl_test_teardown),
        cmocka_unit_test_setup_teardown(
            axl_device_chooses_what_the_default_selector_picks,
            axl_test_setup, axl_test_teardown),
        cmocka_unit_test_setup_teardown(
            an_image_registers_from_its_file_in_one_call, axl_test_setup,
            axl_test_teardown),
        cmocka_unit_test_setup_teardown(
            the_library_states_its_board_ports_and_capacities,
            axl_test_setup, axl_test_teardown),
#ifdef AXL_TEST_ASYM
        cmocka_unit_test_setup_teardown(
            the_bank_of_an_argument_for_the_units_a_kernel_runs_on_in_one_call,
            axl_test_setup, axl_test_teardown),
        cmocka_unit_test_setup_teardown(
            a_bank_no_unit_reaches_names_the_units_and_the_banks_they_reach,
            axl_test_setup, axl_test_teardown),
        cmocka_unit_test_setup_teardown(
            out_of_device_memory_says_the_bank_size_and_what_is_free,
            axl_test_setup, axl_test_teardown),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
