/*
 * Registers of any IP (axl/ip.h): on the mmio port over the C-model
 * simulator (mmio_test_ip, label mmio) every promise of the header; on the
 * emulated device (test_ip) the refusal.
 */
#include <string.h>

#include "axl_test.h"
#include "axl_config.h"
#include "axl/ip.h"
#if defined(AXL_TEST_MMIO)
#include "mmio_regs.h"
#include "mmio_sim.h"
#endif

#if defined(AXL_TEST_MMIO)

enum { CTRL = 0x00, GIE = 0x04, IER = 0x08, ISR = 0x0C, VADD_SIZE = 0x34 };

/* axl/ip.h: "the IP is named as IP_LAYOUT names it: the whole name or a
 * compute unit's instance". The idle bit of an HLS unit at rest. */
static void a_units_ap_ctrl_reads_idle_by_either_name(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(0);
    const char *names[] = {"vadd:vadd_1", "vadd_1"};
    for (int i = 0; i < 2; i++) {
        axl_ip ip;
        AXL_OK(axl_ip_open(r.bundle, r.dev, names[i], &ip));
        uint32_t v = 0;
        AXL_OK(axl_ip_read32(ip, CTRL, &v));
        assert_true(v & MMIO_AP_IDLE);
        assert_false(v & MMIO_AP_START);
        char name[48];
        uint32_t range = 0;
        AXL_OK(axl_ip_get_info(ip, name, sizeof name, &range));
        assert_string_equal(name, "vadd:vadd_1");
        assert_int_equal(range, AXL_IP_RANGE);
        AXL_OK(axl_ip_release(ip));
    }
    axl_test_rig_down(&r);
}

static void a_scalar_argument_register_reads_back_what_was_written(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(0);
    axl_ip ip;
    AXL_OK(axl_ip_open(r.bundle, r.dev, "vadd_2", &ip));
    AXL_OK(axl_ip_write32(ip, VADD_SIZE, 0x12345678u));
    uint32_t v = 0;
    AXL_OK(axl_ip_read32(ip, VADD_SIZE, &v));
    assert_int_equal(v, 0x12345678u);
    AXL_OK(axl_ip_release(ip));
    axl_test_rig_down(&r);
}

/* Started by register writes, with GIE and IER set: the wait returns once
 * the unit has raised its interrupt, with the line polled (not wired) and
 * through the port's interrupt entry (wired). */
static void start_and_wait(uint32_t variant)
{
    AXL_OK(axl_shutdown()); /* the wiring is read when the device opens */
    axl_mmio_sim_defaults();
    axl_mmio_sim_set_unit(5 /* nop_1 */, variant, AXL_MMIO_SIM_OK, 0);
    axl_test_rig r = axl_test_rig_up(0);
    axl_ip ip;
    AXL_OK(axl_ip_open(r.bundle, r.dev, "nop_1", &ip));
    AXL_OK(axl_ip_write32(ip, GIE, 1));
    AXL_OK(axl_ip_write32(ip, IER, MMIO_IRQ_DONE));
    AXL_OK(axl_ip_write32(ip, CTRL, MMIO_AP_START));
    AXL_OK(axl_ip_wait_interrupt(ip, 10000000000ull));
    uint32_t isr = 1;
    AXL_OK(axl_ip_read32(ip, ISR, &isr));
    assert_int_equal(isr, 0); /* acknowledged */
    /* One interrupt, one wait: the next finds none. */
    AXL_EXPECT(axl_ip_wait_interrupt(ip, 1000000), AXL_ERR_TIMEOUT);
    AXL_OK(axl_ip_release(ip));
    axl_test_rig_down(&r);
    axl_mmio_sim_defaults();
}

static void a_unit_started_by_registers_raises_the_interrupt_waited_for(
    void **s)
{
    (void)s;
    start_and_wait(0);
    start_and_wait(AXL_MMIO_SIM_IRQ_WIRED);
}

static void an_offset_out_of_range_or_unaligned_is_refused_and_writes_nothing(
    void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(0);
    axl_ip ip;
    AXL_OK(axl_ip_open(r.bundle, r.dev, "vadd_1", &ip));
    AXL_OK(axl_ip_write32(ip, VADD_SIZE, 7));
    AXL_EXPECT(axl_ip_write32(ip, VADD_SIZE + 2, 0xFFFFFFFFu),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("not aligned");
    AXL_EXPECT(axl_ip_write32(ip, AXL_IP_RANGE, 0xFFFFFFFFu),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("0x0..0xfffc");
    uint32_t v = 0xAA;
    AXL_EXPECT(axl_ip_read32(ip, 0xFFFFFFFCu, &v), AXL_ERR_INVALID);
    assert_int_equal(v, 0xAA);
    AXL_OK(axl_ip_read32(ip, VADD_SIZE, &v));
    assert_int_equal(v, 7);
    AXL_OK(axl_ip_release(ip));
    axl_test_rig_down(&r);
}

static void a_released_ip_handle_is_an_invalid_object(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(0);
    axl_ip ip;
    AXL_OK(axl_ip_open(r.bundle, r.dev, "vadd_1", &ip));
    AXL_OK(axl_ip_release(ip));
    uint32_t v;
    AXL_EXPECT(axl_ip_read32(ip, 0, &v), AXL_ERR_INVALID_OBJECT);
    AXL_EXPECT(axl_ip_write32(ip, 0, 0), AXL_ERR_INVALID_OBJECT);
    AXL_EXPECT(axl_ip_wait_interrupt(ip, 0), AXL_ERR_INVALID_OBJECT);
    AXL_EXPECT(axl_ip_release(ip), AXL_ERR_INVALID_OBJECT);
    axl_test_rig_down(&r);
}

static void a_wait_without_an_interrupt_times_out(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(0);
    axl_ip ip;
    AXL_OK(axl_ip_open(r.bundle, r.dev, "vadd_1", &ip));
    AXL_EXPECT(axl_ip_wait_interrupt(ip, 2000000), AXL_ERR_TIMEOUT);
    AXL_MESSAGE_HAS("raised no interrupt within 2000000 ns");
    AXL_OK(axl_ip_release(ip));
    axl_test_rig_down(&r);
}

static void an_unknown_name_is_refused_naming_the_ips(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(0);
    axl_ip ip = AXL_NONE;
    AXL_EXPECT(axl_ip_open(r.bundle, r.dev, "vadd_9", &ip), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("no IP \"vadd_9\"");
    AXL_MESSAGE_HAS("vadd:vadd_1, vadd:vadd_2");
    assert_true(AXL_IS_NONE(ip));
    axl_test_rig_down(&r);
}

/* The handle holds the bundle: released first, it lives on, and the
 * design stays until the IP is released. */
static void an_open_ip_keeps_its_bundle_and_design(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(0);
    axl_ip ip;
    AXL_OK(axl_ip_open(r.bundle, r.dev, "vadd_1", &ip));
    axl_test_rig_let_go(&r); /* the rig's kernel, then its bundle */
    AXL_OK(axl_ip_write32(ip, VADD_SIZE, 3));
    assert_int_equal(axl_test_pool("kernel_bundle").in_use, 1);
    AXL_OK(axl_ip_release(ip));
    assert_int_equal(axl_test_pool("kernel_bundle").in_use, 0);
    axl_test_rig_down(&r);
}

#else /* the emulated device */

static void the_emulated_device_refuses_register_access(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_IP_ACCESS,
                   axl_ip_open(AXL_NO_KERNEL_BUNDLE, AXL_NO_DEVICE, "x",
                               NULL));
    axl_test_rig r = axl_test_rig_up(0);
    axl_ip ip = AXL_NONE;
    AXL_EXPECT(axl_ip_open(r.bundle, r.dev, "vadd_1", &ip),
               AXL_ERR_FEATURE_NOT_SUPPORTED);
    AXL_MESSAGE_HAS("no IP registers to reach");
    assert_true(AXL_IS_NONE(ip));
    axl_test_rig_down(&r);
}

#endif

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, axl_test_setup, axl_test_teardown)
    const struct CMUnitTest tests[] = {
#if defined(AXL_TEST_MMIO)
        T(a_units_ap_ctrl_reads_idle_by_either_name),
        T(a_scalar_argument_register_reads_back_what_was_written),
        T(a_unit_started_by_registers_raises_the_interrupt_waited_for),
        T(an_offset_out_of_range_or_unaligned_is_refused_and_writes_nothing),
        T(a_released_ip_handle_is_an_invalid_object),
        T(a_wait_without_an_interrupt_times_out),
        T(an_unknown_name_is_refused_naming_the_ips),
        T(an_open_ip_keeps_its_bundle_and_design),
#else
        T(the_emulated_device_refuses_register_access),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
