/*
 * Several designs on one device (issue 40; docs/designs-design.md): PROBES
 * of what the design promises, written before it is built and registered
 * DISABLED; the stage of docs/designs-design.md section 8 that makes one
 * pass enables it. Built four times: test_designs (the emulated device;
 * label unit), mmio_test_designs (the C-model simulator behind the mmio
 * port; mmio), rtl_test_designs and _polled (the RTL of the stock
 * kernels; rtl) and test_xrt_designs (XRT's noop shim,
 * AXL_TEST_DESIGNS_XRT; xrt: nothing computes there, so values are not
 * compared, and each reprogramming is seen through the port's call
 * table).
 *
 *  - 4.11: a program may hold executable bundles of several device images
 *    at once, and get_kernel_bundle has no error for "another bundle's
 *    image is on the device". Bundles of two designs held at once run
 *    their kernels alternately, with right results and nothing released
 *    in between; the device is reprogrammed once per change of design,
 *    no more (axl_stats_get's "reprogramming" row counts them).
 *  - A DFX shell of two slots runs two designs' kernels at the same time
 *    (the emulated device and the C-model simulator): each kernel's model
 *    waits, within 2 s, for the other's to have started.
 *
 * The second needs API the design adds (axl/shell.h, section 3): it is
 * declared weak in the PROBE API block below, so that the test builds
 * today and fails at the first missing call. Delete that block when
 * axl/shell.h lands; the test body stays.
 *
 * Design A is the device's built-in stock design (vadd); design B is
 * designs_b.xclbin, the stock fir alone, linked by axl-xclbin from
 * designs_b.cfg (its C model and RTL are the stock kernel's).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(AXL_TEST_DESIGNS_XRT)
#include "xrt_test.h"
#include "../support/axl_reader_skip.h"
#define VALUES 0 /* the noop shim computes nothing */
#else
#include "axl_test.h"
#define VALUES 1
#endif
#include "axl/emu.h"
#include "axl_config.h"
#include "axl_test_designs_b_xclbin.h"

enum { N = 64, TAPS = 4, ROUNDS = 3 };

/* ---- PROBE API: what docs/designs-design.md adds (delete when built) ---- */
#if !defined(AXL_TEST_DESIGNS_XRT) && !defined(AXL_TEST_RTL)
/* axl/shell.h, axl_emu_set_shell, axl_mmio_sim_set_shell and
 * axl_event_get_slot are built (stage 5). */
#include "axl/shell.h"
typedef axl_slot probe_slot;
typedef axl_shell probe_shell;
#if defined(AXL_TEST_MMIO)
#include "mmio_sim.h"
#define SET_SHELL axl_mmio_sim_set_shell
#else
#define SET_SHELL axl_emu_set_shell
#endif
#endif
/* ---- end of the PROBE API ------------------------------------------------ */

#if defined(AXL_TEST_DESIGNS_XRT)
/* Every xrtDeviceLoadXclbin the port makes: a reprogramming. */
static atomic_uint xrt_loads;

static int load_counted(xrtDeviceHandle d, const struct axlf *image)
{
    atomic_fetch_add(&xrt_loads, 1);
    return axl__xrt_real.device_load_xclbin(d, image);
}

static int setup(void **state)
{
    xt_setup(state);
    axl__xrt_set_run_done(NULL); /* runs end in the core */
    setenv("AXL_XRT_BUILTIN_XCLBIN", AXL_XCLBIN_DIR "/stock.xclbin", 1);
    atomic_store(&xrt_loads, 0);
    axl__xrt.device_load_xclbin = load_counted;
    return 0;
}

static int teardown(void **state)
{
    return xt_teardown(state);
}

static axl_device test_device(void)
{
    return xt_device(NULL);
}
#else
static int setup(void **state)
{
    return axl_test_setup(state);
}

static int teardown(void **state)
{
    return axl_test_teardown(state);
}

static axl_device test_device(void)
{
    return axl_test_emu_device();
}
#endif

/* fir of kernels.h: Q15, rounded half up, saturated. */
static int16_t fir_at(const int16_t *in, const int16_t *coeff, int i)
{
    int64_t acc = 0;
    for (int k = 0; k < TAPS && k <= i; k++)
        acc += (int32_t)coeff[k] * in[i - k];
    int64_t r = acc + (1 << 14);
    r = r >= 0 ? r / 32768 : -((-r + 32767) / 32768);
    return (int16_t)(r > 32767 ? 32767 : r < -32768 ? -32768 : r);
}

static void to_device(axl_queue q, const void *src, axl_buffer b)
{
    AXL_OK(axl_queue_copy_from_host(q, src, b, NULL, NULL, 0, NULL));
}

static void from_device(axl_queue q, axl_buffer b, void *dst)
{
    AXL_OK(axl_queue_copy_to_host(q, b, NULL, dst, NULL, 0, NULL));
}

/*
 * 4.11 (seed 000): executable bundles' device images "allow them to be
 * invoked on a device"; a program holds a bundle of the built-in design
 * (vadd) and one of an application design (fir) at once and runs each
 * kernel in turn, three rounds, with right results, releasing nothing in
 * between. The device changes design five times (B, A, B, A, B), no more:
 * a command of the design already there costs no reprogramming.
 * Today: the second bundle is refused (AXL_ERR_BAD_STATE, "carries the
 * design of kernel bundle ..., whose kernels another would stop").
 */
static void bundles_of_two_designs_run_alternately_without_a_release_4_11(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_designs_b_xclbin,
                                      axl_test_designs_b_xclbin_size));
    axl_device d = test_device();
    AXL_OK(axl_image_register(axl_test_designs_b_xclbin,
                              axl_test_designs_b_xclbin_size));
    /* Design A's bundle and vadd: the rig's (tests/support). */
    axl_test_rig rig = axl_test_rig_on(d, AXL_QUEUE_IN_ORDER);
    const axl_queue q = rig.q;
    const axl_kernel vadd = rig.vadd;
    axl_kernel_id vadd_id = axl_test_builtin(d, "vadd"), fir_id;
    AXL_OK(axl_get_kernel_id("fir", &fir_id));
    axl_kernel_bundle b;
    AXL_OK(axl_get_kernel_bundle_for(rig.ctx, &d, 1, &fir_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &b));
    axl_kernel fir;
    AXL_OK(axl_kernel_bundle_get_kernel(b, fir_id, &fir));
    /* What the queries say, a launch does: both run on the device. */
    bool ok = false;
    AXL_OK(axl_is_compatible(&vadd_id, 1, d, &ok));
    assert_true(ok);
    AXL_OK(axl_is_compatible(&fir_id, 1, d, &ok));
    assert_true(ok);
    axl_kernel_info info;
    AXL_OK(axl_kernel_get_info(vadd, &info));
    assert_true(info.runnable);
    AXL_OK(axl_kernel_get_info(fir, &info));
    assert_true(info.runnable);

    int32_t x[N], y[N], sum[N];
    int16_t in[N], coeff[TAPS], out[N];
    axl_buffer X, Y, S, I, C, O;
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &X));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &Y));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &S));
    AXL_OK(axl_buffer_create(2, axl_range_1d(N), NULL, &I));
    AXL_OK(axl_buffer_create(2, axl_range_1d(TAPS), NULL, &C));
    AXL_OK(axl_buffer_create(2, axl_range_1d(N), NULL, &O));
    const uint32_t before = axl_test_pool("reprogramming").high_water;
#if defined(AXL_TEST_DESIGNS_XRT)
    const unsigned loads_before = atomic_load(&xrt_loads);
#endif
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < N; i++) {
            x[i] = (r + 1) * i;
            y[i] = 1000 * (r + 1) - i;
            in[i] = (int16_t)((i * 977 + r * 131) % 20000 - 10000);
        }
        for (int k = 0; k < TAPS; k++)
            coeff[k] = (int16_t)(8192 >> k) * (r % 2 ? -1 : 1);
        /* Design A's vadd. */
        to_device(q, x, X);
        to_device(q, y, Y);
        AXL_OK(axl_queue_single_task(
            q, vadd,
            AXL_ARGS(AXL_ARG_IN(X), AXL_ARG_IN(Y), AXL_ARG_OUT(S),
                     AXL_ARG_U32(N)),
            NULL, 0, NULL));
        memset(sum, 0, sizeof sum);
        from_device(q, S, sum);
        AXL_OK(axl_queue_wait_and_throw(q));
        for (int i = 0; VALUES && i < N; i++)
            assert_int_equal(sum[i], x[i] + y[i]);
        /* Design B's fir, the buffers above left where they are. */
        to_device(q, in, I);
        to_device(q, coeff, C);
        AXL_OK(axl_queue_single_task(
            q, fir,
            AXL_ARGS(AXL_ARG_IN(I), AXL_ARG_IN(C), AXL_ARG_OUT(O),
                     AXL_ARG_U32(TAPS), AXL_ARG_U32(N)),
            NULL, 0, NULL));
        memset(out, 0, sizeof out);
        from_device(q, O, out);
        AXL_OK(axl_queue_wait_and_throw(q));
        for (int i = 0; VALUES && i < N; i++)
            assert_int_equal(out[i], fir_at(in, coeff, i));
        /* A's sum is still readable after B ran: buffers survive. */
        memset(sum, 0, sizeof sum);
        from_device(q, S, sum);
        AXL_OK(axl_queue_wait_and_throw(q));
        for (int i = 0; VALUES && i < N; i++)
            assert_int_equal(sum[i], x[i] + y[i]);
    }
    assert_int_equal(axl_test_pool("reprogramming").high_water - before,
                     2 * ROUNDS - 1);
#if defined(AXL_TEST_DESIGNS_XRT)
    assert_int_equal(atomic_load(&xrt_loads) - loads_before, 2 * ROUNDS - 1);
#endif
    AXL_OK(axl_buffer_release(X));
    AXL_OK(axl_buffer_release(Y));
    AXL_OK(axl_buffer_release(S));
    AXL_OK(axl_buffer_release(I));
    AXL_OK(axl_buffer_release(C));
    AXL_OK(axl_buffer_release(O));
    AXL_OK(axl_kernel_release(fir));
    AXL_OK(axl_kernel_bundle_release(b));
    axl_test_rig_down(&rig);
}

#if !defined(AXL_TEST_DESIGNS_XRT) && !defined(AXL_TEST_RTL)
/* ---- Two slots, two designs at once ---------------------------------- */

/* The probe shell: two slots at the control windows of Kria's 2RP
 * opendfx shell (RP_0 at 0x8000_0000, RP_1 at 0x8200_0000, 32 MiB each;
 * Xilinx/kria-dfx-hw, k26/2rp_design/opendfx_shell.tcl), four interrupt
 * lines each; the static region is the device's built-in design (stock:
 * units 0..5), so slot units start at 8 and 12. */
static const probe_slot probe_slots[2] = {
    {"RP_0", 0x80000000u, 0x2000000u, 8, 4, 8},
    {"RP_1", 0x82000000u, 0x2000000u, 12, 4, 12},
};
static const probe_shell probe_2rp = {
    "probe_2rp",
    {0x7a, 0x11, 0x40, 0x2e, 0x5c, 0x93, 0x4b, 0x0d, 0x8e, 0x21, 0x6f, 0x3a,
     0xc4, 0x55, 0x19, 0x02},
    2,
    probe_slots,
    1000000u, /* 1 ms a partial load */
};

/* A partial design for the probe shell, made from a full one: XCLBIN_PR,
 * the shell's interface UUID, a UUID of its own, and its units' control
 * bases in the slot's window (64 KiB apart), as v++ and axl-xclbin link
 * would write it for that slot (docs/designs-design.md, section 3). */
static size_t make_partial(const unsigned char *full, size_t size,
                           unsigned char *out, size_t cap,
                           const probe_slot *slot, unsigned char tag)
{
    uint64_t base[16];
    for (uint32_t i = 0; i < 16; i++)
        base[i] = slot->ctrl_base + 0x10000u * i;
    return axl_test_partial(out, cap, full, size, probe_2rp.interface_uuid,
                            base, 16, tag);
}

/* Each model waits (2 s at most) for the other to have started: both
 * finish only if the two slots' units ran at the same time. */
static atomic_int scale_started, fir_started;

static bool other_started(atomic_int *other)
{
    for (int ms = 0; ms < 2000; ms++) {
        if (atomic_load(other))
            return true;
        struct timespec t = {0, 1000000L};
        nanosleep(&t, NULL);
    }
    return false;
}

static axl_status scale_meets_fir(const axl_emu_call *call, void *user)
{
    (void)call, (void)user;
    atomic_store(&scale_started, 1);
    return other_started(&fir_started) ? AXL_SUCCESS : AXL_ERR_KERNEL;
}

static axl_status fir_meets_scale(const axl_emu_call *call, void *user)
{
    (void)call, (void)user;
    atomic_store(&fir_started, 1);
    return other_started(&scale_started) ? AXL_SUCCESS : AXL_ERR_KERNEL;
}

static _Alignas(8) unsigned char partial0[8192], partial1[8192];

/*
 * A shell of two slots: scale (a partial of app.xclbin's kernels) goes to
 * one slot and fir (a partial of design B) to the other, both loaded by
 * their bundles; their commands on an out-of-order queue run at once
 * (each model waits for the other) and each event names its slot.
 * Passes on the emulated device and on the C-model simulator (each
 * slot's units the simulator's, numbered from the slot's first_unit)
 * since stage 5.
 */
static void two_slots_run_two_designs_kernels_at_the_same_time(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_DESIGN_SWAP, SET_SHELL(&probe_2rp));
    AXL_OK(SET_SHELL(&probe_2rp));
    const size_t n0 =
        make_partial(axl_test_app_xclbin, axl_test_app_xclbin_size,
                     partial0, sizeof partial0, &probe_slots[0], 0x40);
    const size_t n1 = make_partial(axl_test_designs_b_xclbin,
                                   axl_test_designs_b_xclbin_size, partial1,
                                   sizeof partial1, &probe_slots[1], 0x41);
    AXL_OK(axl_image_register(partial0, n0));
    AXL_OK(axl_image_register(partial1, n1));
    atomic_store(&scale_started, 0);
    atomic_store(&fir_started, 0);
    AXL_OK(axl_emu_register_model("scale", scale_meets_fir, NULL));
    AXL_OK(axl_emu_register_model("fir", fir_meets_scale, NULL));
#if !defined(AXL_TEST_MMIO)
    AXL_OK(axl_emu_set_deterministic(false)); /* units on their workers */
#endif
    axl_device d = test_device();
    axl_context c;
    AXL_OK(axl_context_create(&d, 1, NULL, &c));
    axl_queue q;
    AXL_OK(axl_queue_create(c, d, 0, NULL, &q)); /* out of order */
    axl_kernel_id scale_id, fir_id;
    AXL_OK(axl_get_kernel_id("scale", &scale_id));
    AXL_OK(axl_get_kernel_id("fir", &fir_id));
    axl_kernel_bundle bs, bf;
    AXL_OK(axl_get_kernel_bundle_for(c, &d, 1, &scale_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &bs));
    AXL_OK(axl_get_kernel_bundle_for(c, &d, 1, &fir_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &bf));
    axl_kernel scale, fir;
    AXL_OK(axl_kernel_bundle_get_kernel(bs, scale_id, &scale));
    AXL_OK(axl_kernel_bundle_get_kernel(bf, fir_id, &fir));
    axl_buffer D, I, C, O;
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &D));
    AXL_OK(axl_buffer_create(2, axl_range_1d(N), NULL, &I));
    AXL_OK(axl_buffer_create(2, axl_range_1d(TAPS), NULL, &C));
    AXL_OK(axl_buffer_create(2, axl_range_1d(N), NULL, &O));
    axl_event es, ef;
    AXL_OK(axl_queue_single_task(
        q, scale,
        AXL_ARGS(AXL_ARG_INOUT(D), AXL_ARG_F32(2.0f), AXL_ARG_U32(N)), NULL,
        0, &es));
    AXL_OK(axl_queue_single_task(
        q, fir,
        AXL_ARGS(AXL_ARG_IN(I), AXL_ARG_IN(C), AXL_ARG_OUT(O),
                 AXL_ARG_U32(TAPS), AXL_ARG_U32(N)),
        NULL, 0, &ef));
    AXL_OK(axl_event_wait(es));
    AXL_OK(axl_event_wait(ef));
    int32_t slot_s = -1, slot_f = -1;
    AXL_OK(axl_event_get_slot(es, &slot_s));
    AXL_OK(axl_event_get_slot(ef, &slot_f));
    assert_true(slot_s >= 0 && slot_f >= 0 && slot_s != slot_f);
    AXL_OK(axl_event_release(es));
    AXL_OK(axl_event_release(ef));
    AXL_OK(axl_buffer_release(D));
    AXL_OK(axl_buffer_release(I));
    AXL_OK(axl_buffer_release(C));
    AXL_OK(axl_buffer_release(O));
    AXL_OK(axl_kernel_release(scale));
    AXL_OK(axl_kernel_release(fir));
    AXL_OK(axl_kernel_bundle_release(bs));
    AXL_OK(axl_kernel_bundle_release(bf));
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_context_release(c));
    AXL_OK(axl_emu_register_model("scale", NULL, NULL));
    AXL_OK(axl_emu_register_model("fir", NULL, NULL));
    AXL_OK(SET_SHELL(NULL));
}
#endif

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
#if defined(AXL_TEST_DESIGNS_XRT)
    /* The XRT port reads the design: nothing to run without the reader. */
    if (axl_test_without_reader())
        return 0;
#endif
    const struct CMUnitTest tests[] = {
        T(bundles_of_two_designs_run_alternately_without_a_release_4_11),
#if !defined(AXL_TEST_DESIGNS_XRT) && !defined(AXL_TEST_RTL)
        T(two_slots_run_two_designs_kernels_at_the_same_time),
#endif
    };
    /* AXL_TEST_ONLY=<name pattern>: one probe at a time. */
    if (getenv("AXL_TEST_ONLY"))
        cmocka_set_test_filter(getenv("AXL_TEST_ONLY"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
