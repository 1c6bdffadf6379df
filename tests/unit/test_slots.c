/*
 * DFX slots (issue 40, stage 5; docs/designs-design.md 3, 4), on the
 * emulated device: declaring a shell, and what a device with one says.
 *
 *  - A shell is declared before its devices open (axl_emu_set_shell, or
 *    AXL_EMU_SHELL=<preset> in the environment), checked, and said by the
 *    device's info queries (AXL_DEVICE_INFO_SLOTS, _SHELL, _SHELL_UUID:
 *    axl extensions; SYCL 2020 has no word for slots, 0.1).
 *  - A device without one is as before: no slots, no shell.
 *  - A shell a port cannot take is refused naming what is wrong, and
 *    changes nothing.
 *
 * Seen failing before the change: the file did not build (no axl/shell.h);
 * with axl_emu_set_shell storing nothing, the slot counts are 0.
 */
#include <stdlib.h>
#include <string.h>

#include "axl_test.h"
#include "axl/emu.h"
#include "axl/shell.h"
#include "axl_config.h"

static int setup(void **state)
{
    return axl_test_setup(state);
}

static int teardown(void **state)
{
    AXL_OK(axl_emu_set_shell(NULL));
    unsetenv("AXL_EMU_SHELL");
    return axl_test_teardown(state);
}

static uint32_t slots_of(axl_device d)
{
    uint32_t n = 99;
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_SLOTS, &n, sizeof n, NULL));
    return n;
}

static void shell_of(axl_device d, char *name, size_t size, uint8_t uuid[16])
{
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_SHELL, name, size, NULL));
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_SHELL_UUID, uuid, 16,
                               NULL));
}

static void a_device_without_a_shell_has_no_slots(void **s)
{
    (void)s;
    axl_device d = axl_test_emu_device();
    char name[32] = "x";
    uint8_t uuid[16], zero[16] = {0};
    memset(uuid, 0xA5, sizeof uuid);
    shell_of(d, name, sizeof name, uuid);
    assert_int_equal(slots_of(d), 0);
    assert_string_equal(name, "");
    assert_memory_equal(uuid, zero, 16);
}

static void the_k26_2rp_preset_gives_a_device_two_slots(void **s)
{
    (void)s;
    assert_ptr_equal(axl_shell_find("k26_2rp"), &axl_shell_k26_2rp);
    assert_null(axl_shell_find("k26_3rp"));
    assert_null(axl_shell_find(NULL));
    AXL_OK(axl_emu_set_shell(&axl_shell_k26_2rp));
    axl_device d = axl_test_emu_device();
    char name[32];
    uint8_t uuid[16];
    shell_of(d, name, sizeof name, uuid);
    assert_int_equal(slots_of(d), 2);
    assert_string_equal(name, "k26_2rp");
    assert_memory_equal(uuid, axl_shell_k26_2rp.interface_uuid, 16);
    /* The preset is Kria 2RP's (3.6): RP_0 and RP_1, 32 MiB apart. */
    assert_string_equal(axl_shell_k26_2rp.slots[0].name, "RP_0");
    assert_true(axl_shell_k26_2rp.slots[1].ctrl_base == 0x82000000ull);
    assert_int_equal(axl_shell_k26_2rp.slots[1].first_unit, 12);
}

static void the_environment_names_a_preset(void **s)
{
    (void)s;
    setenv("AXL_EMU_SHELL", "k26_2rp", 1);
    axl_device d = axl_test_emu_device();
    assert_int_equal(slots_of(d), 2);
    AXL_OK(axl_shutdown());
    /* A name that is no preset: no shell (a warning says so). */
    setenv("AXL_EMU_SHELL", "no_such_shell", 1);
    d = axl_test_emu_device();
    assert_int_equal(slots_of(d), 0);
}

static void a_shell_applies_to_devices_opened_after_it(void **s)
{
    (void)s;
    axl_device d = axl_test_emu_device();
    AXL_OK(axl_emu_set_shell(&axl_shell_k26_2rp));
    assert_int_equal(slots_of(d), 0); /* open already: kept as it was */
    AXL_OK(axl_shutdown());
    d = axl_test_emu_device();
    assert_int_equal(slots_of(d), 2);
}

static const axl_slot overlapping[2] = {
    {"A", 0x80000000u, 0x2000000u, 8, 4, 8},
    {"B", 0x81000000u, 0x2000000u, 12, 4, 12},
};

static void a_shell_a_port_cannot_take_is_refused(void **s)
{
    (void)s;
    axl_shell bad = {"twin", {1}, 2, overlapping, 0};
    AXL_EXPECT(axl_emu_set_shell(&bad), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("axl_emu_set_shell");
    AXL_MESSAGE_HAS("shell twin: the control windows of slots 0 (A) and "
                    "1 (B) overlap");
    bad.slot_count = 0;
    AXL_EXPECT(axl_emu_set_shell(&bad), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("shell twin has 0 slots (1 to AXL_SHELL_MAX_SLOTS");
    bad.slot_count = AXL_SHELL_MAX_SLOTS + 1;
    AXL_EXPECT(axl_emu_set_shell(&bad), AXL_ERR_INVALID);
    const axl_slot nameless = {NULL, 0x80000000u, 0x1000u, 0, 0, 0};
    bad.slots = &nameless;
    bad.slot_count = 1;
    AXL_EXPECT(axl_emu_set_shell(&bad), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("shell twin: slot 0 needs a name");
    const axl_slot empty = {"E", 0x80000000u, 0, 0, 0, 0};
    bad.slots = &empty;
    AXL_EXPECT(axl_emu_set_shell(&bad), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("slot 0 (E) has a control window of 0x0 bytes");
    bad.name = NULL;
    AXL_EXPECT(axl_emu_set_shell(&bad), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("a shell needs a name");
    /* Nothing changed: the device opens without a shell. */
    assert_int_equal(slots_of(axl_test_emu_device()), 0);
    AXL_OK(axl_shell_check(NULL, &axl_shell_k26_2rp));
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(a_device_without_a_shell_has_no_slots),
        T(the_k26_2rp_preset_gives_a_device_two_slots),
        T(the_environment_names_a_preset),
        T(a_shell_applies_to_devices_opened_after_it),
        T(a_shell_a_port_cannot_take_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
