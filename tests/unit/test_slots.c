/*
 * DFX slots (issue 40, stage 5; docs/designs-design.md 3, 4), on the
 * emulated device (test_slots) and on the mmio port over the C-model
 * simulator (mmio_test_slots, AXL_TEST_MMIO): declaring a shell, and what
 * a device with one says.
 *
 *  - A shell is declared before its devices open (axl_emu_set_shell, or
 *    AXL_EMU_SHELL=<preset> in the environment), checked, and said by the
 *    device's info queries (AXL_DEVICE_INFO_SLOTS, _SHELL, _SHELL_UUID:
 *    axl extensions; SYCL 2020 has no word for slots, 0.1).
 *  - A device without one is as before: no slots, no shell.
 *  - A shell a port cannot take is refused naming what is wrong, and
 *    changes nothing.
 *  - On Linux, mmio_test_slots also loads slots through dfx-mgr's
 *    library (AXL_TEST_DFXMGR: the helper of xrt/mmio/dfxmgr.c on the
 *    fake tests/mmio/fake_dfxmgr.c; stage 6, designs-design.md 3.5).
 *
 * Seen failing before the change: the file did not build (no axl/shell.h);
 * with axl_emu_set_shell storing nothing, the slot counts are 0.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axl_test.h"
#include "axl/emu.h"
#include "axl/shell.h"
#include "axl_config.h"
#include "axl_test_designs_b_xclbin.h"

/* Who declares the shell, and the device's name in messages. */
#if defined(AXL_TEST_MMIO)
#include "axl/mmio.h"
#include "mmio_sim.h"
#define SET_SHELL axl_mmio_sim_set_shell
#define SET_SHELL_NAME "axl_mmio_sim_set_shell"
#define DEV "C-model simulator"
#else
#define SET_SHELL axl_emu_set_shell
#define SET_SHELL_NAME "axl_emu_set_shell"
#define DEV "axl emulated FPGA 0"
#endif

static int setup(void **state)
{
    return axl_test_setup(state);
}

static int teardown(void **state)
{
    AXL_OK(SET_SHELL(NULL));
    unsetenv("AXL_EMU_SHELL");
    int r = axl_test_teardown(state); /* shuts the runtime down */
#if defined(AXL_TEST_MMIO)
    AXL_OK(axl_mmio_set_board(NULL)); /* a test's board (3.4's) */
    axl_mmio_sim_defaults();
#endif
    return r;
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
    /* One region, the whole fabric, carrying the built-in design. */
    axl_region_info reg[2];
    uint32_t n = 0;
    AXL_OK(axl_device_get_regions(d, reg, 2, &n));
    assert_int_equal(n, 1);
    assert_int_equal(reg[0].slot, -1);
    assert_string_equal(reg[0].name, "fabric");
    assert_int_equal(reg[0].state, AXL_REGION_LOADED);
    assert_true(reg[0].design[0] != '\0');
    assert_int_equal(reg[0].runs, 0);
    assert_int_equal(reg[0].waiting, 0);
}

static void the_k26_2rp_preset_gives_a_device_two_slots(void **s)
{
    (void)s;
    assert_ptr_equal(axl_shell_find("k26_2rp"), &axl_shell_k26_2rp);
    assert_null(axl_shell_find("k26_3rp"));
    assert_null(axl_shell_find(NULL));
    AXL_OK(SET_SHELL(&axl_shell_k26_2rp));
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

#if !defined(AXL_TEST_MMIO) /* AXL_EMU_SHELL is the emulated device's */
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
#endif

static void a_shell_applies_to_devices_opened_after_it(void **s)
{
    (void)s;
    axl_device d = axl_test_emu_device();
    AXL_OK(SET_SHELL(&axl_shell_k26_2rp));
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
    AXL_EXPECT(SET_SHELL(&bad), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS(SET_SHELL_NAME);
    AXL_MESSAGE_HAS("shell twin: the control windows of slots 0 (A) and "
                    "1 (B) overlap");
    bad.slot_count = 0;
    AXL_EXPECT(SET_SHELL(&bad), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("shell twin has 0 slots (1 to AXL_SHELL_MAX_SLOTS");
    bad.slot_count = AXL_SHELL_MAX_SLOTS + 1;
    AXL_EXPECT(SET_SHELL(&bad), AXL_ERR_INVALID);
    const axl_slot nameless = {NULL, 0x80000000u, 0x1000u, 0, 0, 0};
    bad.slots = &nameless;
    bad.slot_count = 1;
    AXL_EXPECT(SET_SHELL(&bad), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("shell twin: slot 0 needs a name");
    const axl_slot empty = {"E", 0x80000000u, 0, 0, 0, 0};
    bad.slots = &empty;
    AXL_EXPECT(SET_SHELL(&bad), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("slot 0 (E) has a control window of 0x0 bytes");
    bad.name = NULL;
    AXL_EXPECT(SET_SHELL(&bad), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("a shell needs a name");
    /* Nothing changed: the device opens without a shell. */
    assert_int_equal(slots_of(axl_test_emu_device()), 0);
    AXL_OK(axl_shell_check(NULL, &axl_shell_k26_2rp));
}

/* ---- Partial designs: what is compatible with a shell (3.2) ---------- */

static _Alignas(8) unsigned char image[8192];
static char got[512]; /* try_image's bundle message */

#define GOT_HAS(text)                                                          \
    do {                                                                       \
        if (!strstr(got, text))                                                \
            fail_msg("message \"%s\" lacks \"%s\"", got, text);              \
    } while (0)

/* A copy of `full` as a partial: XCLBIN_PR and interface UUID `iface`
 * (NULL: left flat), a UUID of its own (tag), IP k's control base at
 * base[k]. */
static size_t partial_of(const unsigned char *full, size_t size,
                         const uint8_t *iface, const uint64_t *base,
                         unsigned char tag)
{
    return axl_test_partial(image, sizeof image, full, size, iface, base, 2,
                            tag);
}

/* On a fresh runtime whose emulated device has shell k26_2rp: whether
 * kernel `kernel` of the image in `image` is compatible with it, and the
 * status of obtaining its executable bundle (its message then read by
 * the caller). */
static axl_status try_image(size_t size, const char *kernel, bool *compat)
{
    AXL_OK(axl_shutdown());
    AXL_OK(SET_SHELL(&axl_shell_k26_2rp));
    AXL_OK(axl_image_register(image, size));
    axl_device d = axl_test_emu_device();
    axl_kernel_id id;
    AXL_OK(axl_get_kernel_id(kernel, &id));
    AXL_OK(axl_is_compatible(&id, 1, d, compat));
    axl_context c;
    AXL_OK(axl_context_create(&d, 1, NULL, &c));
    axl_kernel_bundle b;
    const axl_status st = axl_get_kernel_bundle_for(
        c, &d, 1, &id, 1, AXL_BUNDLE_EXECUTABLE, &b);
    strncpy(got, axl_last_message(), sizeof got - 1);
    if (st == AXL_SUCCESS)
        AXL_OK(axl_kernel_bundle_release(b));
    AXL_OK(axl_context_release(c));
    return st;
}

static void only_partials_of_the_shell_in_one_slot_are_compatible_3_2(
    void **s)
{
    (void)s;
    const uint8_t *k26 = axl_shell_k26_2rp.interface_uuid;
    static const uint8_t other[16] = {0x7a, 0x11, 0x40, 0x2e};
    const uint64_t rp0[2] = {0x80000000u, 0x80010000u};
    const uint64_t rp1[2] = {0x82000000u, 0x82010000u};
    const uint64_t both[2] = {0x80000000u, 0x82000000u};
    const uint64_t outside[2] = {0xa0010000u, 0xa0020000u};
    bool compat = false;
    size_t n;

    /* A partial of the shell, its units in RP_1: compatible, and its
     * bundle loads it there. */
    n = partial_of(axl_test_designs_b_xclbin, axl_test_designs_b_xclbin_size,
                   k26, rp1, 1);
    AXL_OK(try_image(n, "fir", &compat));
    assert_true(compat);

    /* A partial for another shell. */
    n = partial_of(axl_test_designs_b_xclbin, axl_test_designs_b_xclbin_size,
                   other, rp0, 2);
    assert_int_equal(try_image(n, "fir", &compat), AXL_ERR_INVALID);
    assert_false(compat);
    GOT_HAS("kernel fir is compatible with none of the devices: "
                    "design ");
    GOT_HAS("(fir) is a partial for shell 7a11402e-..., and " DEV
                    "'s shell is k26_2rp (6e4cc1cf)");

    /* A full design: it would replace the shell. */
    n = partial_of(axl_test_designs_b_xclbin, axl_test_designs_b_xclbin_size,
                   NULL, rp0, 3);
    assert_int_equal(try_image(n, "fir", &compat), AXL_ERR_INVALID);
    assert_false(compat);
    GOT_HAS("(fir) is a full design; " DEV " takes partials "
            "of its shell k26_2rp (6e4cc1cf) only");

    /* The shell's, with units outside every slot's window. */
    n = partial_of(axl_test_app_xclbin, axl_test_app_xclbin_size, k26,
                   outside, 4);
    assert_int_equal(try_image(n, "scale", &compat), AXL_ERR_INVALID);
    assert_false(compat);
    GOT_HAS("(scale) has units at 0xa0010000, outside every slot of "
                    "shell k26_2rp (RP_0 0x80000000+32 MiB, RP_1 "
                    "0x82000000+32 MiB)");

    /* The shell's, with units in both slots. */
    n = partial_of(axl_test_app_xclbin, axl_test_app_xclbin_size, k26, both,
                   5);
    assert_int_equal(try_image(n, "scale", &compat), AXL_ERR_INVALID);
    assert_false(compat);
    GOT_HAS("(scale) has units in slots RP_0 and RP_1 of shell "
                    "k26_2rp: a partial is for one slot");

    /* Without a shell the interface UUID is not looked at: the partial
     * for another shell runs on the whole fabric as before. */
    AXL_OK(axl_shutdown());
    AXL_OK(SET_SHELL(NULL));
    n = partial_of(axl_test_designs_b_xclbin, axl_test_designs_b_xclbin_size,
                   other, rp0, 6);
    AXL_OK(axl_image_register(image, n));
    axl_device d = axl_test_emu_device();
    axl_kernel_id id;
    AXL_OK(axl_get_kernel_id("fir", &id));
    AXL_OK(axl_is_compatible(&id, 1, d, &compat));
    assert_true(compat);
}

/* 1.4 on a shell: a partial shares the device's banks, so one whose
 * memories are none of them is refused when its bundle is obtained,
 * naming the memory, not at its first command. */
static void a_partial_whose_memory_is_no_bank_is_refused_at_bundle_time(
    void **s)
{
    (void)s;
    const uint64_t rp0[2] = {0x80000000u, 0x80010000u};
    const size_t n = partial_of(axl_test_app_xclbin, axl_test_app_xclbin_size,
                                axl_shell_k26_2rp.interface_uuid, rp0, 0x30);
    /* MEM_TOPOLOGY (kind 6): each entry's base address 0x70_0000_0000 up. */
    unsigned char *mt = axl_test_section(image, 6u);
    assert_non_null(mt);
    for (uint32_t i = 0; i < axl_test_rd32(mt); i++)
        axl_test_wr64(mt + 8 + 40u * i + 16,
                      0x7000000000ull + 0x100000000ull * i);
    bool compat = false;
    assert_int_equal(try_image(n, "scale", &compat), AXL_ERR_INVALID);
    GOT_HAS("scale's design cannot load in a slot of ");
    GOT_HAS("(MEM_TOPOLOGY 0, 0x7000000000) is no bank of ");
}

/* The tests' device with its shell, a context and a queue on it, and
 * the kernel ids of scale (ids[0]) and fir (ids[1]). */
typedef struct slot_rig {
    axl_device d;
    axl_context c;
    axl_queue q;
    axl_kernel_id ids[2];
} slot_rig;

static slot_rig slot_rig_up(uint32_t queue_flags)
{
    slot_rig r;
    r.d = axl_test_emu_device();
    AXL_OK(axl_context_create(&r.d, 1, NULL, &r.c));
    AXL_OK(axl_queue_create(r.c, r.d, queue_flags, NULL, &r.q));
    AXL_OK(axl_get_kernel_id("scale", &r.ids[0]));
    AXL_OK(axl_get_kernel_id("fir", &r.ids[1]));
    return r;
}

static void slot_rig_down(slot_rig *r)
{
    AXL_OK(axl_queue_release(r->q));
    AXL_OK(axl_context_release(r->c));
}

/* ---- Loading into slots, running there (3.3) ------------------------ */

static _Alignas(8) unsigned char part_scale[8192], part_fir[8192];

/* k26_2rp on the device; scale (app.xclbin) made a partial for RP_0 and
 * fir (design B) for RP_1, registered. */
static void two_partials(void)
{
    const uint8_t *k26 = axl_shell_k26_2rp.interface_uuid;
    const uint64_t rp0[2] = {0x80000000u, 0x80010000u};
    const uint64_t rp1[2] = {0x82000000u, 0x82010000u};
    AXL_OK(SET_SHELL(&axl_shell_k26_2rp));
    size_t n = partial_of(axl_test_app_xclbin, axl_test_app_xclbin_size, k26,
                          rp0, 0x10);
    memcpy(part_scale, image, n);
    AXL_OK(axl_image_register(part_scale, n));
    n = partial_of(axl_test_designs_b_xclbin, axl_test_designs_b_xclbin_size,
                   k26, rp1, 0x11);
    memcpy(part_fir, image, n);
    AXL_OK(axl_image_register(part_fir, n));
}

/* vadd of the static part, on the rig's queue: its sums, and it ran in
 * no slot (-1). */
static void run_vadd(axl_test_rig *rig, int32_t *x, int32_t *y,
                     int32_t *sum)
{
    enum { N = 64 };
    axl_buffer X, Y, S;
    memset(sum, 0, N * sizeof *sum);
    AXL_OK(axl_buffer_create_from(x, 4, axl_range_1d(N), NULL, &X));
    AXL_OK(axl_buffer_create_from(y, 4, axl_range_1d(N), NULL, &Y));
    AXL_OK(axl_buffer_create_from(sum, 4, axl_range_1d(N), NULL, &S));
    axl_event ev;
    AXL_OK(axl_queue_single_task(
        rig->q, rig->vadd,
        AXL_ARGS(AXL_ARG_IN(X), AXL_ARG_IN(Y), AXL_ARG_OUT(S),
                 AXL_ARG_U32(N)),
        NULL, 0, &ev));
    AXL_OK(axl_event_wait(ev));
    int32_t slot = 9;
    AXL_OK(axl_event_get_slot(ev, &slot));
    assert_int_equal(slot, -1); /* the static part */
    AXL_OK(axl_event_release(ev));
    AXL_OK(axl_buffer_release(X));
    AXL_OK(axl_buffer_release(Y));
    AXL_OK(axl_buffer_release(S));
    for (int i = 0; i < N; i++)
        assert_int_equal(sum[i], x[i] + y[i]);
}

/* Each kernel of a bundle of a partial runs in its slot, with right
 * results, beside the device's built-in design (the static part), whose
 * vadd still runs; each event names where it ran. */
static void partials_load_into_their_slots_and_run_there_3_3(void **s)
{
    (void)s;
    enum { N = 64, TAPS = 4 };
    two_partials();
    slot_rig r = slot_rig_up(AXL_QUEUE_IN_ORDER);
    axl_device d = r.d;
    axl_context c = r.c;
    axl_queue q = r.q;
    const axl_kernel_id scale_id = r.ids[0], fir_id = r.ids[1];
    axl_kernel_bundle bs, bf;
    AXL_OK(axl_get_kernel_bundle_for(c, &d, 1, &scale_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &bs));
    AXL_OK(axl_get_kernel_bundle_for(c, &d, 1, &fir_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &bf));
    axl_kernel scale, fir;
    AXL_OK(axl_kernel_bundle_get_kernel(bs, scale_id, &scale));
    AXL_OK(axl_kernel_bundle_get_kernel(bf, fir_id, &fir));
    float data[N];
    int16_t in[N], taps[TAPS] = {8192, -4096, 2048, 1024}, out[N];
    for (int i = 0; i < N; i++) {
        data[i] = (float)i;
        in[i] = (int16_t)((i * 977) % 20000 - 10000);
    }
    axl_buffer D, I, C, O;
    AXL_OK(axl_buffer_create_from(data, 4, axl_range_1d(N), NULL, &D));
    AXL_OK(axl_buffer_create_from(in, 2, axl_range_1d(N), NULL, &I));
    AXL_OK(axl_buffer_create_from(taps, 2, axl_range_1d(TAPS), NULL, &C));
    AXL_OK(axl_buffer_create_from(out, 2, axl_range_1d(N), NULL, &O));
    /* vadd first: its units open before the slots' do. */
    axl_test_rig rig = axl_test_rig_on(d, 0);
    int32_t x[N], y[N], sum[N];
    for (int i = 0; i < N; i++) {
        x[i] = i;
        y[i] = 1000 - i;
    }
    run_vadd(&rig, x, y, sum); /* twice: each of its units opens */
    run_vadd(&rig, x, y, sum);
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
    AXL_OK(axl_event_wait(ef));
    /* What the device holds now (4): the static part, scale, fir. */
    axl_region_info reg[3];
    uint32_t nreg = 0;
    AXL_OK(axl_device_get_regions(d, NULL, 0, &nreg));
    assert_int_equal(nreg, 3);
    AXL_OK(axl_device_get_regions(d, reg, 3, &nreg));
    assert_int_equal(reg[0].slot, -1);
    assert_string_equal(reg[0].name, "static");
    assert_int_equal(reg[0].state, AXL_REGION_LOADED);
    assert_int_equal(reg[1].slot, 0);
    assert_string_equal(reg[1].name, "RP_0");
    assert_string_equal(reg[1].design, "scale");
    assert_memory_equal(reg[1].design_uuid, part_scale + 416, 16);
    assert_true(reg[1].held);
    assert_int_equal(reg[1].state, AXL_REGION_LOADED);
    assert_string_equal(reg[2].name, "RP_1");
    assert_string_equal(reg[2].design, "fir");
    assert_true(reg[2].held);
    int32_t slot_s = 9, slot_f = 9;
    AXL_OK(axl_event_get_slot(es, &slot_s));
    AXL_OK(axl_event_get_slot(ef, &slot_f));
    assert_int_equal(slot_s, 0); /* RP_0 */
    assert_int_equal(slot_f, 1); /* RP_1 */
    /* The static part's vadd (the built-in design) runs as before, on
     * its units opened before scale's: a slot's unit is another unit of
     * the port (first_unit + its IP index), so scale's open did not take
     * vadd's IP 0. */
    run_vadd(&rig, x, y, sum);
    run_vadd(&rig, x, y, sum);
    axl_test_rig_down(&rig);
    AXL_OK(axl_queue_wait(q));
    AXL_OK(axl_buffer_release(D));
    AXL_OK(axl_buffer_release(I));
    AXL_OK(axl_buffer_release(C));
    AXL_OK(axl_buffer_release(O));
    for (int i = 0; i < N; i++)
        assert_true(data[i] == 2.0f * (float)i);
    for (int i = 0; i < N; i++) {
        int64_t acc = 0; /* kernels.h's fir: Q15, rounded half up */
        for (int t = 0; t < TAPS && t <= i; t++)
            acc += (int32_t)taps[t] * in[i - t];
        int64_t r = acc + (1 << 14);
        r = r >= 0 ? r / 32768 : -((-r + 32767) / 32768);
        assert_int_equal(out[i], (int16_t)r);
    }
    AXL_OK(axl_event_release(es));
    AXL_OK(axl_event_release(ef));
    AXL_OK(axl_kernel_release(scale));
    AXL_OK(axl_kernel_release(fir));
    AXL_OK(axl_kernel_bundle_release(bs));
    AXL_OK(axl_kernel_bundle_release(bf));
    slot_rig_down(&r);
}

/* Loads since start-up: the "reprogramming" row of axl_stats_get. */
static uint32_t loads(void)
{
    axl_pool_stats st[40];
    uint32_t n = 0;
    AXL_OK(axl_stats_get(st, 40, &n));
    for (uint32_t i = 0; i < n; i++)
        if (!strcmp(st[i].name, "reprogramming"))
            return st[i].high_water;
    fail_msg("axl_stats_get has no \"reprogramming\" row");
    return 0;
}

/* fir on q: right values, ran in slot `slot`. */
static void run_fir_in(axl_queue q, axl_kernel fir, int32_t in_slot)
{
    enum { N = 32, TAPS = 2 };
    int16_t in[N], taps[TAPS] = {16384, 16384}, out[N];
    for (int i = 0; i < N; i++)
        in[i] = (int16_t)(i * 100);
    axl_buffer I, C, O;
    AXL_OK(axl_buffer_create_from(in, 2, axl_range_1d(N), NULL, &I));
    AXL_OK(axl_buffer_create_from(taps, 2, axl_range_1d(TAPS), NULL, &C));
    AXL_OK(axl_buffer_create_from(out, 2, axl_range_1d(N), NULL, &O));
    axl_event ef;
    AXL_OK(axl_queue_single_task(
        q, fir,
        AXL_ARGS(AXL_ARG_IN(I), AXL_ARG_IN(C), AXL_ARG_OUT(O),
                 AXL_ARG_U32(TAPS), AXL_ARG_U32(N)),
        NULL, 0, &ef));
    AXL_OK(axl_event_wait(ef));
    int32_t slot = 9;
    AXL_OK(axl_event_get_slot(ef, &slot));
    assert_int_equal(slot, in_slot);
    AXL_OK(axl_event_release(ef));
    AXL_OK(axl_buffer_release(I));
    AXL_OK(axl_buffer_release(C));
    AXL_OK(axl_buffer_release(O));
    /* Half of each of two samples: their mean, (i*100 + (i-1)*100) / 2. */
    assert_int_equal(out[0], 0);
    for (int i = 1; i < N; i++)
        assert_int_equal(out[i], i * 100 - 50);
}

/* fir in slot RP_0 of d, on q: right values, ran in slot 0. */
static void run_fir_in_rp0(axl_queue q, axl_kernel fir)
{
    run_fir_in(q, fir, 0);
}

/* scale and fir both partials for RP_0 (k26_2rp on the device). */
static void one_slot_partials(void)
{
    const uint8_t *k26 = axl_shell_k26_2rp.interface_uuid;
    const uint64_t rp0[2] = {0x80000000u, 0x80010000u};
    AXL_OK(SET_SHELL(&axl_shell_k26_2rp));
    size_t n = partial_of(axl_test_app_xclbin, axl_test_app_xclbin_size, k26,
                          rp0, 0x20);
    memcpy(part_scale, image, n);
    AXL_OK(axl_image_register(part_scale, n));
    n = partial_of(axl_test_designs_b_xclbin, axl_test_designs_b_xclbin_size,
                   k26, rp0, 0x21);
    memcpy(part_fir, image, n);
    AXL_OK(axl_image_register(part_fir, n));
}

/* scale in slot RP_0, on q: data[i] doubled, ran in slot 0. */
static void run_scale_in_rp0(axl_queue q, axl_kernel scale, int round)
{
    enum { N = 16 };
    float data[N];
    for (int i = 0; i < N; i++)
        data[i] = (float)(i + round);
    axl_buffer D;
    AXL_OK(axl_buffer_create_from(data, 4, axl_range_1d(N), NULL, &D));
    axl_event e;
    AXL_OK(axl_queue_single_task(
        q, scale,
        AXL_ARGS(AXL_ARG_INOUT(D), AXL_ARG_F32(2.0f), AXL_ARG_U32(N)), NULL,
        0, &e));
    AXL_OK(axl_event_wait(e));
    int32_t slot = 9;
    AXL_OK(axl_event_get_slot(e, &slot));
    assert_int_equal(slot, 0);
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_buffer_release(D));
    for (int i = 0; i < N; i++)
        assert_true(data[i] == 2.0f * (float)(i + round));
}

/* Two partials for one slot, both held (3.3, and 4.11: bundles of two
 * designs live side by side): the second's bundle is given without a
 * load, and each command whose design is not in the slot waits until
 * nothing of the design there is in flight, then loads its own; results
 * stay right and each swap is counted. */
static void a_held_slot_takes_another_design_on_demand_3_3(void **s)
{
    (void)s;
    one_slot_partials();
    slot_rig r = slot_rig_up(AXL_QUEUE_IN_ORDER);
    axl_device d = r.d;
    axl_context c = r.c;
    axl_queue q = r.q;
    const axl_kernel_id scale_id = r.ids[0], fir_id = r.ids[1];
    const uint32_t before = loads();
    axl_kernel_bundle bs, bf;
    AXL_OK(axl_get_kernel_bundle_for(c, &d, 1, &scale_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &bs));
    assert_int_equal(loads(), before + 1);
    /* scale's bundle holds RP_0: fir's is given, nothing loaded. */
    AXL_OK(axl_get_kernel_bundle_for(c, &d, 1, &fir_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &bf));
    assert_int_equal(loads(), before + 1);
    axl_region_info reg[3];
    uint32_t nreg = 0;
    AXL_EXPECT(axl_device_get_regions(d, reg, 1, &nreg), AXL_ERR_INVALID);
    AXL_OK(axl_device_get_regions(d, reg, 3, &nreg));
    assert_string_equal(reg[1].design, "scale");
    assert_true(reg[1].held);
    assert_int_equal(reg[2].state, AXL_REGION_EMPTY);
    axl_kernel scale, fir;
    AXL_OK(axl_kernel_bundle_get_kernel(bs, scale_id, &scale));
    AXL_OK(axl_kernel_bundle_get_kernel(bf, fir_id, &fir));
    /* Alternately, with no release between: a load at each change. */
    run_fir_in_rp0(q, fir);
    assert_int_equal(loads(), before + 2);
    run_scale_in_rp0(q, scale, 0);
    assert_int_equal(loads(), before + 3);
    run_scale_in_rp0(q, scale, 1); /* there already */
    assert_int_equal(loads(), before + 3);
    run_fir_in_rp0(q, fir);
    assert_int_equal(loads(), before + 4);
    AXL_OK(axl_device_get_regions(d, reg, 3, &nreg));
    assert_string_equal(reg[1].design, "fir");
    assert_int_equal(reg[1].waiting, 0);
    assert_int_equal(reg[1].loads, 4); /* scale, fir, scale, fir */
    assert_int_equal(reg[2].loads, 0);
    assert_int_equal(reg[0].loads, 0); /* the static part never loads */
    bool compat = false;
    AXL_OK(axl_is_compatible(&scale_id, 1, d, &compat));
    assert_true(compat); /* still a partial of the shell: it may come back */
    AXL_OK(axl_kernel_release(scale));
    AXL_OK(axl_kernel_release(fir));
    AXL_OK(axl_kernel_bundle_release(bs));
    AXL_OK(axl_kernel_bundle_release(bf));
    slot_rig_down(&r);
}

/* Submitted together on an out-of-order queue, scale's design in the
 * slot: fir's command waits while scale's are in flight (3.3: "nothing
 * of it is in flight"), then takes the slot; every result is right. */
static void a_slot_changes_only_once_nothing_of_its_design_is_in_flight_3_3(
    void **s)
{
    (void)s;
    enum { N = 16, K = 3 };
    one_slot_partials();
    slot_rig r = slot_rig_up(0);
    axl_device d = r.d;
    axl_context c = r.c;
    axl_queue q = r.q;
    const axl_kernel_id *ids = r.ids;
    axl_kernel_bundle b, bs;
    AXL_OK(axl_get_kernel_bundle_for(c, &d, 1, ids, 1, AXL_BUNDLE_EXECUTABLE,
                                     &bs)); /* scale in RP_0 */
    AXL_OK(axl_get_kernel_bundle_for(c, &d, 1, ids, 2, AXL_BUNDLE_EXECUTABLE,
                                     &b));
    axl_kernel scale, fir;
    AXL_OK(axl_kernel_bundle_get_kernel(b, ids[0], &scale));
    AXL_OK(axl_kernel_bundle_get_kernel(b, ids[1], &fir));
    AXL_OK(axl_kernel_bundle_release(bs));
    float data[K][N];
    int16_t in[N], taps[2] = {16384, 16384}, out[N];
    axl_buffer D[K], I, C, O;
    for (int k = 0; k < K; k++) {
        for (int i = 0; i < N; i++)
            data[k][i] = (float)(k * 100 + i);
        AXL_OK(axl_buffer_create_from(data[k], 4, axl_range_1d(N), NULL,
                                      &D[k]));
    }
    for (int i = 0; i < N; i++)
        in[i] = (int16_t)(i * 100);
    AXL_OK(axl_buffer_create_from(in, 2, axl_range_1d(N), NULL, &I));
    AXL_OK(axl_buffer_create_from(taps, 2, axl_range_1d(2), NULL, &C));
    AXL_OK(axl_buffer_create_from(out, 2, axl_range_1d(N), NULL, &O));
    const uint32_t before = loads();
    axl_event e[K + 1];
    for (int k = 0; k < 2; k++)
        AXL_OK(axl_queue_single_task(
            q, scale,
            AXL_ARGS(AXL_ARG_INOUT(D[k]), AXL_ARG_F32(2.0f), AXL_ARG_U32(N)),
            NULL, 0, &e[k]));
    AXL_OK(axl_queue_single_task(
        q, fir,
        AXL_ARGS(AXL_ARG_IN(I), AXL_ARG_IN(C), AXL_ARG_OUT(O),
                 AXL_ARG_U32(2), AXL_ARG_U32(N)),
        NULL, 0, &e[2]));
    AXL_OK(axl_queue_single_task(
        q, scale,
        AXL_ARGS(AXL_ARG_INOUT(D[2]), AXL_ARG_F32(2.0f), AXL_ARG_U32(N)),
        NULL, 0, &e[3]));
    AXL_OK(axl_queue_wait(q));
    for (int k = 0; k <= K; k++) {
        axl_event_status st;
        axl_status err = AXL_ERR_RUNTIME;
        AXL_OK(axl_event_get_status(e[k], &st, &err));
        assert_int_equal(st, AXL_EVENT_COMPLETE);
        AXL_OK(err);
        AXL_OK(axl_event_release(e[k]));
    }
    /* fir's load, and scale's back when its last command came after fir
     * had taken the slot (the emulated units may be that quick). */
    assert_true(loads() == before + 1 || loads() == before + 2);
    for (int k = 0; k < K; k++)
        AXL_OK(axl_buffer_release(D[k]));
    AXL_OK(axl_buffer_release(I));
    AXL_OK(axl_buffer_release(C));
    AXL_OK(axl_buffer_release(O));
    for (int k = 0; k < K; k++)
        for (int i = 0; i < N; i++)
            assert_true(data[k][i] == 2.0f * (float)(k * 100 + i));
    assert_int_equal(out[0], 0);
    for (int i = 1; i < N; i++)
        assert_int_equal(out[i], i * 100 - 50);
    AXL_OK(axl_kernel_release(scale));
    AXL_OK(axl_kernel_release(fir));
    AXL_OK(axl_kernel_bundle_release(b));
    slot_rig_down(&r);
}

/* scale's model for the next tests, axl_test_holding_model: its first
 * run holds its unit until the test sets scale_hold.go. */
static axl_test_hold scale_hold;

/* scale's run on q (its buffer D of n floats doubled), held until
 * scale_hold.go: its unit is out once this returns, its event in *e. The
 * test sets scale_hold.go, and puts the model back. */
static void scale_held(axl_queue q, axl_kernel scale, axl_buffer D,
                       uint32_t n, axl_event *e)
{
    AXL_OK(axl_emu_register_model("scale", axl_test_holding_model,
                                  &scale_hold));
    atomic_store(&scale_hold.runs, 0);
    atomic_store(&scale_hold.go, 0);
    AXL_OK(axl_queue_single_task(
        q, scale,
        AXL_ARGS(AXL_ARG_INOUT(D), AXL_ARG_F32(2.0f), AXL_ARG_U32(n)), NULL,
        0, e));
    for (int ms = 0; ms < 5000 && !atomic_load(&scale_hold.runs); ms++) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

/* A command waiting for a slot goes before newer commands of the design
 * there (3.3, as region 0's 2.1): without that barrier a stream of
 * scale's commands would keep fir out of RP_0 for ever. scale's first
 * run holds the slot while fir and two newer scale commands come; fir
 * must end before either of them starts. */
static void a_waiting_design_goes_before_newer_commands_of_the_slots_3_3(
    void **s)
{
    (void)s;
    uint64_t t;
    AXL_TEST_NEEDS(AXL_FEATURE_PROFILING,
                   axl_event_get_profiling((axl_event)AXL_NONE,
                                           AXL_PROFILING_COMMAND_START, &t));
    enum { N = 8 };
    one_slot_partials();
    slot_rig r = slot_rig_up(AXL_QUEUE_ENABLE_PROFILING);
    axl_device d = r.d;
    axl_context c = r.c;
    axl_queue q = r.q;
    const axl_kernel_id *ids = r.ids;
    axl_kernel_bundle b, bs;
    AXL_OK(axl_get_kernel_bundle_for(c, &d, 1, ids, 1, AXL_BUNDLE_EXECUTABLE,
                                     &bs)); /* scale in RP_0 */
    AXL_OK(axl_get_kernel_bundle_for(c, &d, 1, ids, 2, AXL_BUNDLE_EXECUTABLE,
                                     &b));
    AXL_OK(axl_kernel_bundle_release(bs));
    axl_kernel scale, fir;
    AXL_OK(axl_kernel_bundle_get_kernel(b, ids[0], &scale));
    AXL_OK(axl_kernel_bundle_get_kernel(b, ids[1], &fir));
    float data[3][N] = {{0}};
    int16_t in[N] = {0}, taps[2] = {16384, 16384}, out[N];
    axl_buffer D[3], I, C, O;
    for (int k = 0; k < 3; k++)
        AXL_OK(axl_buffer_create_from(data[k], 4, axl_range_1d(N), NULL,
                                      &D[k]));
    AXL_OK(axl_buffer_create_from(in, 2, axl_range_1d(N), NULL, &I));
    AXL_OK(axl_buffer_create_from(taps, 2, axl_range_1d(2), NULL, &C));
    AXL_OK(axl_buffer_create_from(out, 2, axl_range_1d(N), NULL, &O));
    axl_event e0, ef, e1, e2;
    scale_held(q, scale, D[0], N, &e0);
    AXL_OK(axl_queue_single_task(
        q, fir,
        AXL_ARGS(AXL_ARG_IN(I), AXL_ARG_IN(C), AXL_ARG_OUT(O),
                 AXL_ARG_U32(2), AXL_ARG_U32(N)),
        NULL, 0, &ef));
    AXL_OK(axl_queue_single_task(
        q, scale,
        AXL_ARGS(AXL_ARG_INOUT(D[1]), AXL_ARG_F32(2.0f), AXL_ARG_U32(N)),
        NULL, 0, &e1));
    AXL_OK(axl_queue_single_task(
        q, scale,
        AXL_ARGS(AXL_ARG_INOUT(D[2]), AXL_ARG_F32(2.0f), AXL_ARG_U32(N)),
        NULL, 0, &e2));
    atomic_store(&scale_hold.go, 1);
    AXL_OK(axl_queue_wait(q));
    uint64_t fir_end, s1, s2;
    AXL_OK(axl_event_get_profiling(ef, AXL_PROFILING_COMMAND_END, &fir_end));
    AXL_OK(axl_event_get_profiling(e1, AXL_PROFILING_COMMAND_START, &s1));
    AXL_OK(axl_event_get_profiling(e2, AXL_PROFILING_COMMAND_START, &s2));
    assert_true(fir_end <= s1);
    assert_true(fir_end <= s2);
    assert_int_equal(atomic_load(&scale_hold.runs), 3);
    AXL_OK(axl_event_release(e0));
    AXL_OK(axl_event_release(ef));
    AXL_OK(axl_event_release(e1));
    AXL_OK(axl_event_release(e2));
    for (int k = 0; k < 3; k++)
        AXL_OK(axl_buffer_release(D[k]));
    AXL_OK(axl_buffer_release(I));
    AXL_OK(axl_buffer_release(C));
    AXL_OK(axl_buffer_release(O));
    AXL_OK(axl_emu_register_model("scale", NULL, NULL));
    AXL_OK(axl_kernel_release(scale));
    AXL_OK(axl_kernel_release(fir));
    AXL_OK(axl_kernel_bundle_release(b));
    slot_rig_down(&r);
}

/* The "a command never waits on a reprogramming that can never
 * happen": this thread holds a host accessor that scale's command (of the
 * design in RP_0) waits for, then waits for fir's, which needs RP_0. The
 * slot does not wait for scale's pending command: fir loads and ends,
 * then scale's runs once the accessor goes (two loads). */
static void a_slot_load_never_waits_for_a_pending_command_3_3(void **s)
{
    (void)s;
    enum { N = 8 };
    one_slot_partials();
    slot_rig r = slot_rig_up(0);
    axl_device d = r.d;
    axl_context c = r.c;
    axl_queue q = r.q;
    const axl_kernel_id *ids = r.ids;
    axl_kernel_bundle b, bs;
    AXL_OK(axl_get_kernel_bundle_for(c, &d, 1, ids, 1, AXL_BUNDLE_EXECUTABLE,
                                     &bs)); /* scale in RP_0 */
    AXL_OK(axl_get_kernel_bundle_for(c, &d, 1, ids, 2, AXL_BUNDLE_EXECUTABLE,
                                     &b));
    AXL_OK(axl_kernel_bundle_release(bs));
    axl_kernel scale, fir;
    AXL_OK(axl_kernel_bundle_get_kernel(b, ids[0], &scale));
    AXL_OK(axl_kernel_bundle_get_kernel(b, ids[1], &fir));
    float data[N];
    int16_t in[N], taps[2] = {16384, 16384}, out[N];
    for (int i = 0; i < N; i++) {
        data[i] = (float)i;
        in[i] = (int16_t)(i * 100);
    }
    axl_buffer D, I, C, O;
    AXL_OK(axl_buffer_create_from(data, 4, axl_range_1d(N), NULL, &D));
    AXL_OK(axl_buffer_create_from(in, 2, axl_range_1d(N), NULL, &I));
    AXL_OK(axl_buffer_create_from(taps, 2, axl_range_1d(2), NULL, &C));
    AXL_OK(axl_buffer_create_from(out, 2, axl_range_1d(N), NULL, &O));
    const uint32_t before = loads();
    axl_host_accessor h;
    void *p;
    AXL_OK(axl_host_accessor_create(D, AXL_ACCESS_READ_WRITE, NULL, 0, &h,
                                    &p));
    axl_event es, ef;
    AXL_OK(axl_queue_single_task(
        q, scale,
        AXL_ARGS(AXL_ARG_INOUT(D), AXL_ARG_F32(2.0f), AXL_ARG_U32(N)), NULL,
        0, &es)); /* waits for the accessor */
    AXL_OK(axl_queue_single_task(
        q, fir,
        AXL_ARGS(AXL_ARG_IN(I), AXL_ARG_IN(C), AXL_ARG_OUT(O),
                 AXL_ARG_U32(2), AXL_ARG_U32(N)),
        NULL, 0, &ef));
    AXL_OK(axl_event_wait(ef)); /* would hang if the slot waited */
    axl_event_status st;
    AXL_OK(axl_event_get_status(es, &st, NULL));
    assert_int_not_equal(st, AXL_EVENT_COMPLETE);
    AXL_OK(axl_host_accessor_release(h));
    AXL_OK(axl_event_wait(es));
    assert_int_equal(loads() - before, 2); /* fir, then scale back */
    AXL_OK(axl_event_release(es));
    AXL_OK(axl_event_release(ef));
    AXL_OK(axl_buffer_release(D));
    AXL_OK(axl_buffer_release(I));
    AXL_OK(axl_buffer_release(C));
    AXL_OK(axl_buffer_release(O));
    for (int i = 0; i < N; i++)
        assert_true(data[i] == 2.0f * (float)i);
    assert_int_equal(out[0], 0);
    for (int i = 1; i < N; i++)
        assert_int_equal(out[i], i * 100 - 50);
    AXL_OK(axl_kernel_release(scale));
    AXL_OK(axl_kernel_release(fir));
    AXL_OK(axl_kernel_bundle_release(b));
    slot_rig_down(&r);
}

/* A graph whose kernel node is a partial's runs in the partial's slot,
 * and again after another design took the slot and gave it back (its
 * plan binds the slot's units again, 3.3 and designs-design.md 2.7). */
static void a_graph_of_a_partials_kernel_runs_in_its_slot_3_3(void **s)
{
    (void)s;
    enum { N = 8 };
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    one_slot_partials();
    slot_rig r = slot_rig_up(AXL_QUEUE_IN_ORDER);
    axl_device d = r.d;
    axl_context c = r.c;
    axl_queue q = r.q;
    const axl_kernel_id *ids = r.ids;
    axl_kernel_bundle b;
    AXL_OK(axl_get_kernel_bundle_for(c, &d, 1, ids, 2, AXL_BUNDLE_EXECUTABLE,
                                     &b));
    axl_kernel scale, fir;
    AXL_OK(axl_kernel_bundle_get_kernel(b, ids[0], &scale));
    AXL_OK(axl_kernel_bundle_get_kernel(b, ids[1], &fir));
    float data[N];
    for (int i = 0; i < N; i++)
        data[i] = (float)i;
    axl_buffer D;
    AXL_OK(axl_buffer_create_from(data, 4, axl_range_1d(N), NULL, &D));
    axl_graph g;
    AXL_OK(axl_graph_create(c, d, &g));
    AXL_OK(axl_graph_begin_recording(g, q));
    AXL_OK(axl_queue_single_task(
        q, scale,
        AXL_ARGS(AXL_ARG_INOUT(D), AXL_ARG_F32(2.0f), AXL_ARG_U32(N)), NULL,
        0, NULL));
    AXL_OK(axl_graph_end_recording(g, q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    const uint32_t before = loads();
    for (int round = 0; round < 3; round++) {
        axl_event e;
        AXL_OK(axl_queue_submit_graph(q, x, NULL, 0, &e));
        AXL_OK(axl_event_wait(e));
        AXL_OK(axl_event_release(e));
        run_fir_in_rp0(q, fir); /* takes RP_0 */
    }
    /* Each round: scale's design in, then fir's. */
    /* fir's, then each later round scale's and fir's (scale was there
     * from its bundle). */
    assert_int_equal(loads() - before, 5);
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_buffer_release(D));
    for (int i = 0; i < N; i++)
        assert_true(data[i] == 8.0f * (float)i);
    AXL_OK(axl_kernel_release(scale));
    AXL_OK(axl_kernel_release(fir));
    AXL_OK(axl_kernel_bundle_release(b));
    slot_rig_down(&r);
}

/* A device that does not reprogram on demand (axl_emu_set_swaps off)
 * never evicts a held design: the other's bundle is refused naming the
 * holder, and given once the application lets go (3.3). */
static void without_swaps_a_held_slot_refuses_another_design_3_3(void **s)
{
    (void)s;
    axl_test_emu_swaps(false);
    one_slot_partials();
    slot_rig r = slot_rig_up(AXL_QUEUE_IN_ORDER);
    axl_device d = r.d;
    axl_context c = r.c;
    axl_queue q = r.q;
    const axl_kernel_id scale_id = r.ids[0], fir_id = r.ids[1];
    const uint32_t before = loads();
    axl_kernel_bundle bs, bf;
    AXL_OK(axl_get_kernel_bundle_for(c, &d, 1, &scale_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &bs));
    assert_int_equal(loads(), before + 1);
    AXL_EXPECT(axl_get_kernel_bundle_for(c, &d, 1, &fir_id, 1,
                                         AXL_BUNDLE_EXECUTABLE, &bf),
               AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("slot 0 (RP_0) of " DEV " carries the "
                    "design of scale, held by kernel bundle 0x");
    AXL_MESSAGE_HAS("the design of fir cannot load there until it is "
                    "released");
    assert_int_equal(loads(), before + 1);
    /* Its kernel, kept after its bundle, still holds it. */
    axl_kernel scale;
    AXL_OK(axl_kernel_bundle_get_kernel(bs, scale_id, &scale));
    AXL_OK(axl_kernel_bundle_release(bs));
    AXL_EXPECT(axl_get_kernel_bundle_for(c, &d, 1, &fir_id, 1,
                                         AXL_BUNDLE_EXECUTABLE, &bf),
               AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("held by kernel scale (0x");
    AXL_OK(axl_kernel_release(scale));
    axl_region_info reg[3];
    uint32_t nreg = 0;
    AXL_OK(axl_device_get_regions(d, reg, 3, &nreg));
    assert_string_equal(reg[1].design, "scale");
    assert_false(reg[1].held);
    AXL_OK(axl_get_kernel_bundle_for(c, &d, 1, &fir_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &bf));
    assert_int_equal(loads(), before + 2);
    axl_kernel fir;
    AXL_OK(axl_kernel_bundle_get_kernel(bf, fir_id, &fir));
    run_fir_in_rp0(q, fir);
    AXL_OK(axl_kernel_release(fir));
    AXL_OK(axl_kernel_bundle_release(bf));
    slot_rig_down(&r);
}

#if defined(AXL_TEST_MMIO)
/* ---- The mmio port over the C-model simulator ------------------------ */

/* The simulator's own limits (mmio_sim.h): a slot's units start below
 * AXL_MMIO_SIM_UNITS and its lines end within the port's
 * AXL_MMIO_IRQ_LINES. A shell past them is refused naming the slot, and
 * the shell given before stays. */
static void a_shell_the_simulator_cannot_take_is_refused(void **s)
{
    (void)s;
    AXL_OK(axl_mmio_sim_set_shell(&axl_shell_k26_2rp));
    const axl_slot far[1] = {{"FAR", 0x80000000u, 0x2000000u, 8, 4, 200}};
    axl_shell bad = {"far_units", {1}, 1, far, 0};
    AXL_EXPECT(axl_mmio_sim_set_shell(&bad), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("axl_mmio_sim_set_shell: shell far_units: slot FAR's "
                    "units start at 200, past the simulator's");
    const axl_slot high[1] = {{"HIGH", 0x80000000u, 0x2000000u, 30, 4, 8}};
    bad.slots = high;
    AXL_EXPECT(axl_mmio_sim_set_shell(&bad), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("slot HIGH's interrupt lines 30+4 pass the port's");
    assert_int_equal(slots_of(axl_test_emu_device()), 2); /* k26_2rp's */
}

/* A slot load goes through the board's program_slot: one the board
 * refuses fails the bundle naming the slot, the device and the board's
 * reason, and leaves the slot empty; once the board accepts, the same
 * partial loads there and runs right. */
static void a_slot_load_the_board_refuses_fails_and_the_next_one_loads(
    void **s)
{
    (void)s;
    enum { N = 32, TAPS = 2 };
    two_partials();
    slot_rig r = slot_rig_up(AXL_QUEUE_IN_ORDER);
    axl_device d = r.d;
    axl_context c = r.c;
    axl_queue q = r.q;
    const axl_kernel_id fir_id = r.ids[1];
    axl_kernel_bundle bf;
    axl_mmio_sim_fail_loads(true);
    AXL_EXPECT(axl_get_kernel_bundle_for(c, &d, 1, &fir_id, 1,
                                         AXL_BUNDLE_EXECUTABLE, &bf),
               AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("programming slot 1 (RP_1) of C-model simulator with "
                    "the design of fir failed");
    AXL_MESSAGE_HAS("the simulated board refused the partial for slot 1 "
                    "(axl_mmio_sim_fail_loads)");
    axl_region_info reg[3];
    uint32_t nreg = 0;
    AXL_OK(axl_device_get_regions(d, reg, 3, &nreg));
    assert_int_equal(reg[2].state, AXL_REGION_EMPTY);
    axl_mmio_sim_fail_loads(false);
    AXL_OK(axl_get_kernel_bundle_for(c, &d, 1, &fir_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &bf));
    axl_kernel fir;
    AXL_OK(axl_kernel_bundle_get_kernel(bf, fir_id, &fir));
    int16_t in[N], taps[TAPS] = {16384, 16384}, out[N];
    for (int i = 0; i < N; i++)
        in[i] = (int16_t)(i * 100);
    axl_buffer I, C, O;
    AXL_OK(axl_buffer_create_from(in, 2, axl_range_1d(N), NULL, &I));
    AXL_OK(axl_buffer_create_from(taps, 2, axl_range_1d(TAPS), NULL, &C));
    AXL_OK(axl_buffer_create_from(out, 2, axl_range_1d(N), NULL, &O));
    AXL_OK(axl_queue_single_task(
        q, fir,
        AXL_ARGS(AXL_ARG_IN(I), AXL_ARG_IN(C), AXL_ARG_OUT(O),
                 AXL_ARG_U32(TAPS), AXL_ARG_U32(N)),
        NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q));
    AXL_OK(axl_buffer_release(I));
    AXL_OK(axl_buffer_release(C));
    AXL_OK(axl_buffer_release(O));
    assert_int_equal(out[0], 0);
    for (int i = 1; i < N; i++)
        assert_int_equal(out[i], i * 100 - 50);
    AXL_OK(axl_kernel_release(fir));
    AXL_OK(axl_kernel_bundle_release(bf));
    slot_rig_down(&r);
}

/* Unit number n's runs and control base in the simulator. */
static axl_mmio_sim_stats unit_stats(uint32_t n)
{
    axl_mmio_sim_stats st;
    axl_mmio_sim_stats_get(n, &st);
    return st;
}

/* A slot's units are the simulator's units first_unit + IP_LAYOUT index
 * at the partial's bases in the slot's window (3.4): scale (app.xclbin's
 * IP 0) runs on unit 8 at 0x80000000, not on the static part's unit 0
 * (the built-in design's own scale); fir on unit 12 at 0x82000000, wired
 * for its interrupt, whose end the interrupt reports. Slot RP_1's line
 * 12 (irq_first + fir's interrupt id 0) reaches fir's unit through
 * axl_mmio_irq; line 13 reaches none. */
static void slot_units_sit_at_the_slots_numbers_and_lines_3_4(void **s)
{
    (void)s;
    enum { N = 16, TAPS = 2 };
    axl_mmio_sim_set_unit(12, AXL_MMIO_SIM_IRQ_WIRED, AXL_MMIO_SIM_OK, 0);
    two_partials();
    slot_rig r = slot_rig_up(AXL_QUEUE_IN_ORDER);
    axl_device d = r.d;
    axl_context c = r.c;
    axl_queue q = r.q;
    const axl_kernel_id scale_id = r.ids[0], fir_id = r.ids[1];
    axl_kernel_bundle bs, bf;
    AXL_OK(axl_get_kernel_bundle_for(c, &d, 1, &scale_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &bs));
    AXL_OK(axl_get_kernel_bundle_for(c, &d, 1, &fir_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &bf));
    axl_kernel scale, fir;
    AXL_OK(axl_kernel_bundle_get_kernel(bs, scale_id, &scale));
    AXL_OK(axl_kernel_bundle_get_kernel(bf, fir_id, &fir));
    const uint32_t static_runs = unit_stats(0).runs;
    float data[N];
    int16_t in[N], taps[TAPS] = {16384, 16384}, out[N];
    for (int i = 0; i < N; i++) {
        data[i] = (float)i;
        in[i] = (int16_t)(i * 100);
    }
    axl_buffer D, I, C, O;
    AXL_OK(axl_buffer_create_from(data, 4, axl_range_1d(N), NULL, &D));
    AXL_OK(axl_buffer_create_from(in, 2, axl_range_1d(N), NULL, &I));
    AXL_OK(axl_buffer_create_from(taps, 2, axl_range_1d(TAPS), NULL, &C));
    AXL_OK(axl_buffer_create_from(out, 2, axl_range_1d(N), NULL, &O));
    AXL_OK(axl_queue_single_task(
        q, scale,
        AXL_ARGS(AXL_ARG_INOUT(D), AXL_ARG_F32(3.0f), AXL_ARG_U32(N)), NULL,
        0, NULL));
    AXL_OK(axl_queue_single_task(
        q, fir,
        AXL_ARGS(AXL_ARG_IN(I), AXL_ARG_IN(C), AXL_ARG_OUT(O),
                 AXL_ARG_U32(TAPS), AXL_ARG_U32(N)),
        NULL, 0, NULL));
    AXL_OK(axl_queue_wait(q));
    axl_mmio_sim_stats st = unit_stats(8);
    assert_int_equal(st.runs, 1);
    assert_true(st.base == 0x80000000u);
    assert_int_equal(unit_stats(0).runs, static_runs);
    st = unit_stats(12);
    assert_int_equal(st.runs, 1);
    assert_true(st.base == 0x82000000u);
    assert_true(st.irqs >= 1);
    axl_mmio_counters before, after;
    axl_mmio_counters_get(&before);
    assert_true(before.irq_done >= 1); /* fir's end */
    axl_mmio_irq(13);
    axl_mmio_irq(1000);
    axl_mmio_counters_get(&after);
    assert_int_equal(after.irq_spurious, before.irq_spurious);
    axl_mmio_irq(12); /* fir idle: its ISR says nothing */
    axl_mmio_counters_get(&after);
    assert_int_equal(after.irq_spurious, before.irq_spurious + 1);
    AXL_OK(axl_buffer_release(D));
    AXL_OK(axl_buffer_release(I));
    AXL_OK(axl_buffer_release(C));
    AXL_OK(axl_buffer_release(O));
    for (int i = 0; i < N; i++)
        assert_true(data[i] == 3.0f * (float)i);
    assert_int_equal(out[0], 0);
    for (int i = 1; i < N; i++)
        assert_int_equal(out[i], i * 100 - 50);
    AXL_OK(axl_kernel_release(scale));
    AXL_OK(axl_kernel_release(fir));
    AXL_OK(axl_kernel_bundle_release(bs));
    AXL_OK(axl_kernel_bundle_release(bf));
    slot_rig_down(&r);
    axl_mmio_sim_defaults();
}

/* ---- After a load: the board re-arms, the port checks (3.4) ---------- */

/* The simulator's board with its after_load hook watched: each call
 * counted with its slot, refused while after_fails, else passed to the
 * simulator's (which re-arms). */
static axl_mmio_board watched_board;
static axl_status (*sim_after_load)(void *user, uint32_t slot);
static atomic_int after_calls;
static atomic_uint after_slots[4];
static atomic_bool after_fails;

static axl_status watching_after_load(void *user, uint32_t slot)
{
    int i = atomic_fetch_add(&after_calls, 1);
    if (i < 4)
        atomic_store(&after_slots[i], slot);
    if (atomic_load(&after_fails))
        return axl_fail(AXL_ERR_RUNTIME, "the GIC refused slot %u's lines",
                        (unsigned)slot);
    return sim_after_load(user, slot);
}

/* k26_2rp's partials registered, and the device to open on the
 * simulator's board with `hook` for its after_load (NULL: none). Set
 * before the runtime opens the device; teardown restores the board. */
static void partials_on_a_board_with(axl_status (*hook)(void *, uint32_t))
{
    AXL_OK(axl_mmio_sim_set_shell(&axl_shell_k26_2rp));
    watched_board = *axl_mmio_sim_board();
    sim_after_load = watched_board.after_load;
    assert_non_null(sim_after_load); /* the simulator's board re-arms */
    watched_board.after_load = hook;
    atomic_store(&after_calls, 0);
    atomic_store(&after_fails, false);
    AXL_OK(axl_mmio_set_board(&watched_board));
    two_partials();
}

/* The port calls the board's after_load once per slot load, after
 * program_slot, with the slot it loaded; axl_mmio_counters.loads counts
 * the loads. */
static void after_load_is_called_once_per_load_with_its_slot_3_4(void **s)
{
    (void)s;
    partials_on_a_board_with(watching_after_load);
    slot_rig r = slot_rig_up(AXL_QUEUE_IN_ORDER);
    axl_device d = r.d;
    const axl_kernel_id scale_id = r.ids[0], fir_id = r.ids[1];
    axl_mmio_counters before, after;
    axl_mmio_counters_get(&before);
    axl_kernel_bundle bs, bf;
    AXL_OK(axl_get_kernel_bundle_for(r.c, &d, 1, &scale_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &bs));
    assert_int_equal(atomic_load(&after_calls), 1);
    assert_int_equal(atomic_load(&after_slots[0]), 0); /* RP_0 */
    AXL_OK(axl_get_kernel_bundle_for(r.c, &d, 1, &fir_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &bf));
    assert_int_equal(atomic_load(&after_calls), 2);
    assert_int_equal(atomic_load(&after_slots[1]), 1); /* RP_1 */
    axl_kernel fir;
    AXL_OK(axl_kernel_bundle_get_kernel(bf, fir_id, &fir));
    run_fir_in(r.q, fir, 1);
    assert_int_equal(atomic_load(&after_calls), 2); /* a run loads none */
    axl_mmio_counters_get(&after);
    assert_int_equal(after.loads, before.loads + 2);
    AXL_OK(axl_kernel_release(fir));
    AXL_OK(axl_kernel_bundle_release(bs));
    AXL_OK(axl_kernel_bundle_release(bf));
    slot_rig_down(&r);
}

/* A board that cannot re-arm fails the load: the bundle fails naming the
 * slot and the board's reason, the slot stays empty, no load is counted;
 * once the board can, the same partial loads and runs right. */
static void an_after_load_failure_fails_the_load_3_4(void **s)
{
    (void)s;
    partials_on_a_board_with(watching_after_load);
    slot_rig r = slot_rig_up(AXL_QUEUE_IN_ORDER);
    axl_device d = r.d;
    const axl_kernel_id fir_id = r.ids[1];
    axl_mmio_counters before, after;
    axl_mmio_counters_get(&before);
    axl_kernel_bundle bf;
    atomic_store(&after_fails, true);
    AXL_EXPECT(axl_get_kernel_bundle_for(r.c, &d, 1, &fir_id, 1,
                                         AXL_BUNDLE_EXECUTABLE, &bf),
               AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("programming slot 1 (RP_1) of C-model simulator with "
                    "the design of fir failed");
    AXL_MESSAGE_HAS("the board's after_load for RP_1 failed: the GIC "
                    "refused slot 1's lines");
    assert_int_equal(atomic_load(&after_calls), 1);
    axl_region_info reg[3];
    uint32_t nreg = 0;
    AXL_OK(axl_device_get_regions(d, reg, 3, &nreg));
    assert_int_equal(reg[2].state, AXL_REGION_EMPTY);
    axl_mmio_counters_get(&after);
    assert_int_equal(after.loads, before.loads);
    atomic_store(&after_fails, false);
    AXL_OK(axl_get_kernel_bundle_for(r.c, &d, 1, &fir_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &bf));
    assert_int_equal(atomic_load(&after_calls), 2);
    axl_kernel fir;
    AXL_OK(axl_kernel_bundle_get_kernel(bf, fir_id, &fir));
    run_fir_in(r.q, fir, 1);
    axl_mmio_counters_get(&after);
    assert_int_equal(after.loads, before.loads + 1);
    AXL_OK(axl_kernel_release(fir));
    AXL_OK(axl_kernel_bundle_release(bf));
    slot_rig_down(&r);
}

/* fir loaded into RP_1 (unit 12, wired for its interrupt, whose line the
 * load leaves dead: AXL_MMIO_SIM_IRQ_LOST_AFTER_LOAD) on a board with
 * `hook` for after_load; it runs twice, each run given 20 ms of the
 * device's clock (a fifth of AXL_MMIO_IRQ_GRACE_NS: only the first-run
 * check, AXL_MMIO_IRQ_VERIFY_NS, ends it in time when the interrupt is
 * missing). What the port counted over the runs, and how unit 12
 * completes after them. */
static void fir_after_a_lossy_load(axl_status (*hook)(void *, uint32_t),
                                   axl_mmio_counters *delta,
                                   uint32_t *mode, int *fell_back)
{
    axl_mmio_sim_set_unit(12, AXL_MMIO_SIM_IRQ_WIRED,
                          AXL_MMIO_SIM_IRQ_LOST_AFTER_LOAD, 0);
    partials_on_a_board_with(hook);
    slot_rig r = slot_rig_up(AXL_QUEUE_IN_ORDER);
    axl_device d = r.d;
    const axl_kernel_id fir_id = r.ids[1];
    axl_kernel_bundle bf;
    AXL_OK(axl_get_kernel_bundle_for(r.c, &d, 1, &fir_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &bf));
    axl_kernel fir;
    AXL_OK(axl_kernel_bundle_get_kernel(bf, fir_id, &fir));
    AXL_OK(axl_queue_set_timeout(r.q, 20u * 1000000u));
    axl_mmio_counters before, after;
    axl_mmio_counters_get(&before);
    run_fir_in(r.q, fir, 1);
    run_fir_in(r.q, fir, 1);
    axl_mmio_counters_get(&after);
    delta->irq_missing = after.irq_missing - before.irq_missing;
    delta->irq_done = after.irq_done - before.irq_done;
    AXL_OK(axl_mmio_completion_get(12, mode, fell_back));
    AXL_OK(axl_kernel_release(fir));
    AXL_OK(axl_kernel_bundle_release(bf));
    slot_rig_down(&r);
}

/* A board without after_load, whose load left the slot's line dead: the
 * first run is watched at AXL_MMIO_IRQ_VERIFY_NS, so its done without
 * the interrupt is caught well inside the run's 20 ms and it completes
 * right; the port counts the missing interrupt once and polls the unit
 * from then on (the second run too completes right). */
static void a_dead_line_after_a_load_is_caught_on_the_first_run_3_4(
    void **s)
{
    (void)s;
    axl_mmio_counters delta;
    uint32_t mode = 99;
    int fell_back = 0;
    fir_after_a_lossy_load(NULL, &delta, &mode, &fell_back);
    assert_int_equal(delta.irq_missing, 1);
    assert_int_equal(delta.irq_done, 0);
    assert_int_equal(mode, AXL_MMIO_COMPLETION_POLL);
    assert_int_equal(fell_back, 1);
}

/* The same with the simulator's board, whose after_load re-arms the
 * slot: both runs end by their interrupt, none is missing. */
static void a_board_that_rearms_after_a_load_keeps_its_interrupts_3_4(
    void **s)
{
    (void)s;
    axl_mmio_counters delta;
    uint32_t mode = 99;
    int fell_back = 1;
    fir_after_a_lossy_load(watching_after_load, &delta, &mode, &fell_back);
    assert_int_equal(atomic_load(&after_calls), 1);
    assert_int_equal(delta.irq_missing, 0);
    assert_int_equal(delta.irq_done, 2);
    assert_int_equal(mode, AXL_MMIO_COMPLETION_INTERRUPT);
    assert_int_equal(fell_back, 0);
}
#endif

static void *scale_go_soon(void *arg)
{
    (void)arg;
    struct timespec ts = {0, 20000000};
    nanosleep(&ts, NULL);
    atomic_store(&scale_hold.go, 1);
    return NULL;
}

/* On a device that does not swap, a bundle whose slot carries a design
 * nobody holds any more, with a run of it still out, waits for that run
 * (it ends by itself) and then loads: no refusal. */
static void without_swaps_an_unheld_slot_is_taken_once_its_runs_end_3_3(
    void **s)
{
    (void)s;
    enum { N = 8 };
    axl_test_emu_swaps(false);
    one_slot_partials();
    slot_rig r = slot_rig_up(AXL_QUEUE_IN_ORDER);
    axl_device d = r.d;
    axl_context c = r.c;
    axl_queue q = r.q;
    const axl_kernel_id scale_id = r.ids[0], fir_id = r.ids[1];
    const uint32_t before = loads();
    axl_kernel_bundle bs, bf;
    AXL_OK(axl_get_kernel_bundle_for(c, &d, 1, &scale_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &bs));
    axl_kernel scale;
    AXL_OK(axl_kernel_bundle_get_kernel(bs, scale_id, &scale));
    float data[N] = {0};
    axl_buffer D;
    AXL_OK(axl_buffer_create_from(data, 4, axl_range_1d(N), NULL, &D));
    axl_event e;
    scale_held(q, scale, D, N, &e);
    /* Let go of scale while its run is out. */
    AXL_OK(axl_kernel_release(scale));
    AXL_OK(axl_kernel_bundle_release(bs));
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, scale_go_soon, NULL), 0);
    AXL_OK(axl_get_kernel_bundle_for(c, &d, 1, &fir_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &bf));
    pthread_join(t, NULL);
    axl_event_status st;
    AXL_OK(axl_event_get_status(e, &st, NULL));
    assert_int_equal(st, AXL_EVENT_COMPLETE);
    assert_int_equal(loads(), before + 2);
    axl_kernel fir;
    AXL_OK(axl_kernel_bundle_get_kernel(bf, fir_id, &fir));
    run_fir_in_rp0(q, fir);
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_buffer_release(D));
    AXL_OK(axl_emu_register_model("scale", NULL, NULL));
    AXL_OK(axl_kernel_release(fir));
    AXL_OK(axl_kernel_bundle_release(bf));
    slot_rig_down(&r);
}

/* ---- Through dfx-mgr (3.5; stage 6) ----------------------------------
 *
 * The simulator's board with k26_2rp, whose program_slot is the helper
 * axl_mmio_dfxmgr_program_slot (xrt/mmio/dfxmgr.c) on a fake
 * libdfx-mgr.so (tests/mmio/fake_dfxmgr.c, named by AXL_DFXMGR_LIB): it
 * hands out slot handles as dfx-mgrd does (the lowest free one, which is
 * not the slot's index), records each call and fails on request. The
 * simulator still attaches the slot's units, so the kernels run.
 */
#if defined(AXL_TEST_DFXMGR)
#include <dlfcn.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "axl/mmio_linux.h"
#include "fake_dfxmgr.h"

static axl_mmio_board dfx_board;
static axl_mmio_dfxmgr dfx;

/* The board above, with the library at `lib` and the partials
 * `partials` registers; the fake's state, cleared, or NULL when `lib`
 * does not open. */
static fake_dfxmgr *through_dfxmgr(const char *lib, void (*partials)(void))
{
    AXL_OK(axl_mmio_sim_set_shell(&axl_shell_k26_2rp));
    memset(&dfx, 0, sizeof dfx);
    dfx_board = *axl_mmio_sim_board();
    dfx_board.program_slot = axl_mmio_dfxmgr_program_slot;
    dfx_board.unload_slot = axl_mmio_dfxmgr_unload_slot;
    dfx_board.user = &dfx;
    AXL_OK(axl_mmio_set_board(&dfx_board));
    setenv("AXL_DFXMGR_LIB", lib, 1);
    partials();
    /* The module the helper opens (one copy: dlopen counts references). */
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    fake_dfxmgr *f = h ? (fake_dfxmgr *)dlsym(h, "fake_dfxmgr_state") : NULL;
    if (f)
        memset(f, 0, sizeof *f);
    return f;
}

static int dfx_teardown(void **state)
{
    int rc = teardown(state); /* shuts the runtime down */
    (void)axl_mmio_dfxmgr_close(&dfx);
    AXL_OK(axl_mmio_set_board(NULL));
    unsetenv("AXL_DFXMGR_LIB");
    return rc;
}

/* What the runtime logged (axl_log_set), a line each. */
static char shutdown_log[1024];

static void keep_log(const char *text, size_t len, void *user)
{
    (void)user;
    const size_t at = strlen(shutdown_log);
    if (at + len + 2 < sizeof shutdown_log) {
        memcpy(shutdown_log + at, text, len);
        shutdown_log[at + len] = '\n';
        shutdown_log[at + len + 1] = '\0';
    }
}

static axl_region_state rp1_state(axl_device d)
{
    axl_region_info reg[3];
    uint32_t n = 0;
    AXL_OK(axl_device_get_regions(d, reg, 3, &n));
    assert_int_equal(n, 3);
    return reg[2].state;
}

/* fir's bundle on d: its status (the slot load is at bundle time). */
static axl_status fir_bundle(axl_device d, axl_context *c,
                             axl_kernel_bundle *b)
{
    axl_kernel_id id;
    AXL_OK(axl_get_kernel_id("fir", &id));
    AXL_OK(axl_context_create(&d, 1, NULL, c));
    return axl_get_kernel_bundle_for(*c, &d, 1, &id, 1, AXL_BUNDLE_EXECUTABLE,
                                     b);
}

/* fir of bundle b in RP_1, its sums checked; b and c released. */
static void run_fir_and_release(axl_device d, axl_context c,
                                axl_kernel_bundle b)
{
    enum { N = 16, TAPS = 2 };
    axl_kernel_id id;
    AXL_OK(axl_get_kernel_id("fir", &id));
    axl_kernel fir;
    AXL_OK(axl_kernel_bundle_get_kernel(b, id, &fir));
    axl_queue q;
    AXL_OK(axl_queue_create(c, d, AXL_QUEUE_IN_ORDER, NULL, &q));
    int16_t in[N], taps[TAPS] = {16384, 16384}, out[N];
    for (int i = 0; i < N; i++)
        in[i] = (int16_t)(i * 100);
    axl_buffer I, C, O;
    AXL_OK(axl_buffer_create_from(in, 2, axl_range_1d(N), NULL, &I));
    AXL_OK(axl_buffer_create_from(taps, 2, axl_range_1d(TAPS), NULL, &C));
    AXL_OK(axl_buffer_create_from(out, 2, axl_range_1d(N), NULL, &O));
    axl_event e;
    AXL_OK(axl_queue_single_task(
        q, fir,
        AXL_ARGS(AXL_ARG_IN(I), AXL_ARG_IN(C), AXL_ARG_OUT(O),
                 AXL_ARG_U32(TAPS), AXL_ARG_U32(N)),
        NULL, 0, &e));
    AXL_OK(axl_event_wait(e));
    int32_t slot = 9;
    AXL_OK(axl_event_get_slot(e, &slot));
    assert_int_equal(slot, 1);
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_buffer_release(I));
    AXL_OK(axl_buffer_release(C));
    AXL_OK(axl_buffer_release(O));
    for (int i = 1; i < N; i++)
        assert_int_equal(out[i], i * 100 - 50);
    AXL_OK(axl_kernel_release(fir));
    AXL_OK(axl_kernel_bundle_release(b));
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_context_release(c));
}

/* Each slot load asks dfx-mgr for the partial's package (its first
 * kernel's name) and keeps the handle dfx-mgr gives, which is not the
 * slot's index: fir, loaded first into RP_1, gets handle 0, scale in RP_0
 * handle 1. axl_shutdown gives both back (3.3), slot by slot, so the next
 * start finds dfx-mgr's slots free: fir gets handle 0 again, with no
 * unload first, and axl_mmio_dfxmgr_close has nothing left to unload. */
static void a_slot_load_asks_dfx_mgr_for_the_partials_package_3_5(void **s)
{
    (void)s;
    fake_dfxmgr *f = through_dfxmgr(AXL_TEST_DFXMGR, two_partials);
    assert_non_null(f);
    axl_device d = axl_test_emu_device();
    axl_context c;
    axl_kernel_bundle bf, bs;
    AXL_OK(fir_bundle(d, &c, &bf));
    axl_kernel_id scale_id;
    AXL_OK(axl_get_kernel_id("scale", &scale_id));
    AXL_OK(axl_get_kernel_bundle_for(c, &d, 1, &scale_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &bs));
    assert_string_equal(f->log, "load fir=0;load scale=1;");
    assert_int_equal(dfx.handle[1], 0 + 1);
    assert_int_equal(dfx.handle[0], 1 + 1);
    AXL_OK(axl_kernel_bundle_release(bs));
    run_fir_and_release(d, c, bf);
    AXL_OK(axl_shutdown());
    assert_string_equal(f->log, "load fir=0;load scale=1;"
                                "unload 1=0;unload 0=0;");
    assert_int_equal(dfx.handle[0] + dfx.handle[1], 0);
    for (int i = 0; i < 8; i++)
        assert_int_equal(f->held[i], 0);

    two_partials(); /* a shutdown forgets the registered images */
    d = axl_test_emu_device();
    AXL_OK(fir_bundle(d, &c, &bf));
    assert_string_equal(f->log, "load fir=0;load scale=1;"
                                "unload 1=0;unload 0=0;load fir=0;");
    run_fir_and_release(d, c, bf);
    AXL_OK(axl_shutdown());
    AXL_OK(axl_mmio_dfxmgr_close(&dfx));
    assert_string_equal(f->log, "load fir=0;load scale=1;"
                                "unload 1=0;unload 0=0;load fir=0;"
                                "unload 0=0;");
    assert_int_equal(dfx.handle[0] + dfx.handle[1], 0);
}

/* Two packages taking turns in one slot (RP_0): each load unloads the
 * handle of the package before it, so dfx-mgr never holds two for one
 * slot. A board without unload_slot keeps its last one past axl_shutdown,
 * until axl_mmio_dfxmgr_close gives it back. */
static void a_slot_taking_another_package_unloads_the_last_first_3_5(
    void **s)
{
    (void)s;
    fake_dfxmgr *f = through_dfxmgr(AXL_TEST_DFXMGR, one_slot_partials);
    assert_non_null(f);
    dfx_board.unload_slot = NULL;
    slot_rig r = slot_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel_bundle bs, bf;
    AXL_OK(axl_get_kernel_bundle_for(r.c, &r.d, 1, &r.ids[0], 1,
                                     AXL_BUNDLE_EXECUTABLE, &bs));
    AXL_OK(axl_get_kernel_bundle_for(r.c, &r.d, 1, &r.ids[1], 1,
                                     AXL_BUNDLE_EXECUTABLE, &bf));
    assert_string_equal(f->log, "load scale=0;");
    axl_kernel scale, fir;
    AXL_OK(axl_kernel_bundle_get_kernel(bs, r.ids[0], &scale));
    AXL_OK(axl_kernel_bundle_get_kernel(bf, r.ids[1], &fir));
    run_fir_in_rp0(r.q, fir);
    assert_string_equal(f->log, "load scale=0;unload 0=0;load fir=0;");
    run_scale_in_rp0(r.q, scale, 0);
    assert_string_equal(f->log, "load scale=0;unload 0=0;load fir=0;"
                                "unload 0=0;load scale=0;");
    assert_int_equal(dfx.handle[0], 0 + 1);
    assert_int_equal(dfx.handle[1], 0);
    AXL_OK(axl_kernel_release(scale));
    AXL_OK(axl_kernel_release(fir));
    AXL_OK(axl_kernel_bundle_release(bs));
    AXL_OK(axl_kernel_bundle_release(bf));
    slot_rig_down(&r);
    AXL_OK(axl_shutdown());
    assert_int_equal(dfx.handle[0], 0 + 1); /* no unload_slot: kept */
    AXL_OK(axl_mmio_dfxmgr_close(&dfx));
    assert_string_equal(f->log, "load scale=0;unload 0=0;load fir=0;"
                                "unload 0=0;load scale=0;unload 0=0;");
    assert_int_equal(dfx.handle[0], 0);
}

/* Without dfx-mgr's library a slot load fails naming it
 * (AXL_ERR_FEATURE_NOT_SUPPORTED), the slot stays empty, and nothing is
 * recorded. */
static void without_dfx_mgr_a_slot_load_fails_naming_its_library_3_5(
    void **s)
{
    (void)s;
    assert_null(through_dfxmgr("/nonexistent/libdfx-mgr.so", two_partials));
    axl_device d = axl_test_emu_device();
    axl_context c;
    axl_kernel_bundle bf;
    AXL_EXPECT(fir_bundle(d, &c, &bf), AXL_ERR_FEATURE_NOT_SUPPORTED);
    AXL_MESSAGE_HAS("programming slot 1 (RP_1) of C-model simulator with "
                    "the design of fir failed");
    AXL_MESSAGE_HAS("no dfx-mgr library: /nonexistent/libdfx-mgr.so: No "
                    "such file or directory (AXL_DFXMGR_LIB)");
    assert_int_equal(rp1_state(d), AXL_REGION_EMPTY);
    assert_null(dfx.lib);
    assert_int_equal(dfx.handle[1], 0);
    /* Unnamed, the helper tries the installed names (none here). */
    unsetenv("AXL_DFXMGR_LIB");
    void *real = dlopen("libdfx-mgr.so.2", RTLD_NOW | RTLD_NOLOAD);
    if (!real) {
        axl_kernel_id id;
        AXL_OK(axl_get_kernel_id("fir", &id));
        AXL_EXPECT(axl_get_kernel_bundle_for(c, &d, 1, &id, 1,
                                             AXL_BUNDLE_EXECUTABLE, &bf),
                   AXL_ERR_FEATURE_NOT_SUPPORTED);
        AXL_MESSAGE_HAS("no dfx-mgr library: libdfx-mgr.so.2: No such "
                        "file or directory (nor .so.1, .so; AXL_DFXMGR_LIB "
                        "names one)");
    }
    AXL_OK(axl_context_release(c));
}

/* A load dfx-mgr refuses fails with its return code and what it means
 * (AXL_ERR_PLATFORM), leaving the slot empty and no handle recorded; the
 * next loads and runs. An unload it refuses at axl_shutdown is logged
 * (the runtime shuts down all the same) and keeps the handle: the next
 * load into the slot tries it again, and, refused, loads nothing and says
 * so. */
static void a_load_dfx_mgr_refuses_fails_with_its_code_3_5(void **s)
{
    (void)s;
    fake_dfxmgr *f = through_dfxmgr(AXL_TEST_DFXMGR, two_partials);
    assert_non_null(f);
    f->fail_load = -3;
    axl_device d = axl_test_emu_device();
    axl_context c;
    axl_kernel_bundle bf;
    AXL_EXPECT(fir_bundle(d, &c, &bf), AXL_ERR_PLATFORM);
    AXL_MESSAGE_HAS("of C-model simulator with the design of fir failed");
    AXL_MESSAGE_HAS("dfxmgr_load(\"fir\") for slot 1 returned -3: no "
                    "empty slot the package has a folder for");
    assert_string_equal(f->log, "load fir=-3;");
    assert_int_equal(rp1_state(d), AXL_REGION_EMPTY);
    assert_int_equal(dfx.handle[1], 0);
    AXL_OK(axl_context_release(c));
    f->fail_load = 0;
    AXL_OK(fir_bundle(d, &c, &bf));
    assert_int_equal(rp1_state(d), AXL_REGION_LOADED);
    run_fir_and_release(d, c, bf);
    f->fail_unload = -1;
    shutdown_log[0] = '\0';
    axl_log_set(AXL_LOG_WARN, keep_log, NULL);
    AXL_OK(axl_shutdown());
    axl_log_set(AXL_LOG_OFF, NULL, NULL);
    assert_string_equal(f->log, "load fir=-3;load fir=0;unload 0=-1;");
    assert_int_equal(dfx.handle[1], 0 + 1);
#if AXL_LOGS
    if (!strstr(shutdown_log, "mmio: slot RP_1 keeps its partial after "
                              "shutdown: ") ||
        (axl_test_messages() &&
         !strstr(shutdown_log, "dfx-mgr's unload(0) for slot 1 returned -1")))
        fail_msg("no warning of the refused unload: \"%s\"", shutdown_log);
#endif

    two_partials();
    d = axl_test_emu_device();
    AXL_EXPECT(fir_bundle(d, &c, &bf), AXL_ERR_PLATFORM);
    AXL_MESSAGE_HAS("dfx-mgr's unload(0) for slot 1 returned -1");
    assert_string_equal(f->log, "load fir=-3;load fir=0;unload 0=-1;"
                                "unload 0=-1;");
    assert_int_equal(dfx.handle[1], 0 + 1);
    AXL_OK(axl_context_release(c));
    f->fail_unload = 0;
}

/* A dfx-mgr from before 2026 calls its unload dfxmgr_remove: the helper
 * takes that one. */
static void an_older_dfx_mgr_unloads_with_dfxmgr_remove_3_5(void **s)
{
    (void)s;
    fake_dfxmgr *f = through_dfxmgr(AXL_TEST_DFXMGR_OLD, two_partials);
    assert_non_null(f);
    axl_device d = axl_test_emu_device();
    axl_context c;
    axl_kernel_bundle bf;
    AXL_OK(fir_bundle(d, &c, &bf));
    run_fir_and_release(d, c, bf);
    AXL_OK(axl_shutdown());
    AXL_OK(axl_mmio_dfxmgr_close(&dfx));
    assert_string_equal(f->log, "load fir=0;remove 0=0;");
}

static void write_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

/* dfx-mgr picks the slot itself (the lowest empty one the package has a
 * folder for), and its handle names no slot. With uio_name the helper
 * asks for that UIO and checks its map 0 lies in the slot's window: a
 * package loaded elsewhere is unloaded and refused, naming both. */
static void a_package_dfx_mgr_put_in_another_slot_is_refused_3_5(void **s)
{
    (void)s;
    fake_dfxmgr *f = through_dfxmgr(AXL_TEST_DFXMGR, two_partials);
    assert_non_null(f);
    char root[] = "/tmp/axl_dfxmgr_XXXXXX", path[256];
    assert_non_null(mkdtemp(root));
    const char *dirs[] = {"/class", "/class/uio", "/class/uio/uio4",
                          "/class/uio/uio4/maps", "/class/uio/uio4/maps/map0"};
    for (size_t i = 0; i < 5; i++) {
        snprintf(path, sizeof path, "%s%s", root, dirs[i]);
        assert_int_equal(mkdir(path, 0700), 0);
    }
    snprintf(path, sizeof path, "%s/class/uio/uio4/maps/map0/addr", root);
    write_file(path, "0x80000000\n"); /* RP_0's window */
    strcpy(f->uio, "/dev/uio4");
    dfx.uio_name = "AccelConfig";
    dfx.shell = &axl_shell_k26_2rp;
    dfx.sysfs = root;
    axl_device d = axl_test_emu_device();
    axl_context c;
    axl_kernel_bundle bf;
    AXL_EXPECT(fir_bundle(d, &c, &bf), AXL_ERR_PLATFORM);
    AXL_MESSAGE_HAS("dfx-mgr put fir outside RP_1: its AccelConfig (uio4) "
                    "at 0x80000000 is not in 0x82000000+0x2000000 (one "
                    "package per slot)");
    assert_string_equal(f->log, "load fir=0;uio AccelConfig 0;unload 0=0;");
    assert_int_equal(dfx.handle[1], 0);
    assert_int_equal(rp1_state(d), AXL_REGION_EMPTY);
    AXL_OK(axl_context_release(c));
    write_file(path, "0x82000000\n"); /* RP_1's */
    AXL_OK(fir_bundle(d, &c, &bf));
    assert_int_equal(dfx.handle[1], 0 + 1);
    run_fir_and_release(d, c, bf);
    remove(path);
    for (size_t i = 5; i-- > 0;) {
        snprintf(path, sizeof path, "%s%s", root, dirs[i]);
        rmdir(path);
    }
    rmdir(root);
}
#endif

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

/* ---- Variants: one design linked for several slots (1.2, 3.3) ------- */

static _Alignas(8) unsigned char part_scale1[8192];

/* scale (app.xclbin) linked for RP_0 and, as its variant, for RP_1 (the
 * same kernels at the other slot's bases, another UUID); fir for RP_0
 * only. The kernel ids' count after scale's first image is in *ids. */
static void variant_partials(uint32_t *ids)
{
    const uint8_t *k26 = axl_shell_k26_2rp.interface_uuid;
    const uint64_t rp0[2] = {0x80000000u, 0x80010000u};
    const uint64_t rp1[2] = {0x82000000u, 0x82010000u};
    AXL_OK(SET_SHELL(&axl_shell_k26_2rp));
    size_t n = partial_of(axl_test_app_xclbin, axl_test_app_xclbin_size, k26,
                          rp0, 0x40);
    memcpy(part_scale, image, n);
    AXL_OK(axl_image_register(part_scale, n));
    AXL_OK(axl_get_kernel_ids(NULL, 0, ids));
    n = partial_of(axl_test_app_xclbin, axl_test_app_xclbin_size, k26, rp1,
                   0x42);
    memcpy(part_scale1, image, n);
    AXL_OK(axl_image_register(part_scale1, n));
    n = partial_of(axl_test_designs_b_xclbin, axl_test_designs_b_xclbin_size,
                   k26, rp0, 0x41);
    memcpy(part_fir, image, n);
    AXL_OK(axl_image_register(part_fir, n));
}

/* scale on q: each value doubled, and it ran in slot `slot`. */
static void run_scale_in(axl_queue q, axl_kernel scale, int32_t slot)
{
    enum { N = 16 };
    float data[N];
    for (int i = 0; i < N; i++)
        data[i] = (float)i;
    axl_buffer D;
    AXL_OK(axl_buffer_create_from(data, 4, axl_range_1d(N), NULL, &D));
    axl_event e;
    AXL_OK(axl_queue_single_task(
        q, scale,
        AXL_ARGS(AXL_ARG_INOUT(D), AXL_ARG_F32(2.0f), AXL_ARG_U32(N)), NULL,
        0, &e));
    AXL_OK(axl_event_wait(e));
    int32_t ran = 9;
    AXL_OK(axl_event_get_slot(e, &ran));
    assert_int_equal(ran, slot);
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_buffer_release(D));
    for (int i = 0; i < N; i++)
        assert_true(data[i] == 2.0f * (float)i);
}

/* The design each slot of d carries now ("" for none), and its loads. */
static void slots_hold(axl_device d, const char *rp0, const char *rp1,
                       uint32_t loads0, uint32_t loads1)
{
    axl_region_info reg[3];
    uint32_t n = 0;
    AXL_OK(axl_device_get_regions(d, reg, 3, &n));
    assert_int_equal(n, 3);
    assert_string_equal(reg[1].design, rp0);
    assert_string_equal(reg[2].design, rp1);
    assert_int_equal(reg[1].loads, loads0);
    assert_int_equal(reg[2].loads, loads1);
}

/* A partial of the same kernels as one registered before, at another
 * slot's bases, is an image of that design (1.2; SYCL 2020 4.11: a
 * bundle may hold several compatible images of a kernel, and which one
 * runs is the implementation's): it makes no kernel id of its own. */
static void a_variant_makes_no_kernel_id_of_its_own_1_2(void **s)
{
    (void)s;
    uint32_t before = 0, after = 0;
    variant_partials(&before);
    AXL_OK(axl_get_kernel_ids(NULL, 0, &after));
    /* fir's design (designs_b) brings its own ids; scale's variant none. */
    axl_kernel_id ids[64];
    uint32_t n = 0;
    AXL_OK(axl_get_kernel_ids(ids, 64, &n));
    uint32_t scales = 0, firs = 0;
    for (uint32_t i = 0; i < n; i++) {
        const char *name = NULL;
        AXL_OK(axl_kernel_id_get_name(ids[i], &name));
        scales += !strcmp(name, "scale");
        firs += !strcmp(name, "fir");
    }
    assert_int_equal(scales, 1);
    assert_int_equal(firs, 1);
    assert_true(after > before);
}

/* A design with an image for each slot loads into the free one (3.3):
 * fir (RP_0 only) holds RP_0, so scale goes to RP_1, and both run at
 * once, with no swap between them. */
static void a_design_with_variants_loads_into_the_free_slot_3_3(void **s)
{
    (void)s;
    uint32_t ids0;
    variant_partials(&ids0);
    slot_rig r = slot_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel_bundle bf, bs;
    AXL_OK(axl_get_kernel_bundle_for(r.c, &r.d, 1, &r.ids[1], 1,
                                     AXL_BUNDLE_EXECUTABLE, &bf));
    AXL_OK(axl_get_kernel_bundle_for(r.c, &r.d, 1, &r.ids[0], 1,
                                     AXL_BUNDLE_EXECUTABLE, &bs));
    slots_hold(r.d, "fir", "scale", 1, 1);
    /* RP_1 says the image it loaded: the variant, with its own UUID. */
    axl_region_info reg[3];
    uint32_t nreg = 0;
    AXL_OK(axl_device_get_regions(r.d, reg, 3, &nreg));
    assert_memory_equal(reg[2].design_uuid, part_scale1 + 416, 16);
    assert_memory_not_equal(reg[2].design_uuid, part_scale + 416, 16);
    axl_kernel scale, fir;
    AXL_OK(axl_kernel_bundle_get_kernel(bs, r.ids[0], &scale));
    AXL_OK(axl_kernel_bundle_get_kernel(bf, r.ids[1], &fir));
    for (int round = 0; round < 2; round++) {
        run_scale_in(r.q, scale, 1);
        run_fir_in_rp0(r.q, fir);
    }
    slots_hold(r.d, "fir", "scale", 1, 1); /* no load since */
    AXL_OK(axl_kernel_release(scale));
    AXL_OK(axl_kernel_release(fir));
    AXL_OK(axl_kernel_bundle_release(bs));
    AXL_OK(axl_kernel_bundle_release(bf));
    slot_rig_down(&r);
}

/* axl_kernel_bundle_place names the slot a bundle's design goes to: out
 * of the slot it was loaded in, into one it has an image for; a slot it
 * has no image for, one the device lacks, or a bundle of two designs is
 * refused, and nothing changes. */
static void a_placed_bundles_design_moves_to_the_slot_named_3_3(void **s)
{
    (void)s;
    uint32_t ids0;
    variant_partials(&ids0);
    slot_rig r = slot_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel_bundle bs, bf, both;
    AXL_OK(axl_get_kernel_bundle_for(r.c, &r.d, 1, &r.ids[0], 1,
                                     AXL_BUNDLE_EXECUTABLE, &bs));
    slots_hold(r.d, "scale", "", 1, 0); /* the first empty slot */
    axl_kernel scale;
    AXL_OK(axl_kernel_bundle_get_kernel(bs, r.ids[0], &scale));
    axl_kernel_info info;
    AXL_OK(axl_kernel_get_info(scale, &info));
    assert_int_equal(info.slot, 0);
    AXL_OK(axl_kernel_bundle_place(bs, r.d, 1));
    slots_hold(r.d, "", "scale", 1, 1);
    AXL_OK(axl_kernel_get_info(scale, &info));
    assert_int_equal(info.slot, 1);
    assert_true(info.loaded);
    run_scale_in(r.q, scale, 1);
    /* Refused, nothing changed. */
    assert_int_equal(axl_kernel_bundle_place(bs, r.d, 2), AXL_ERR_INVALID);
    assert_non_null(strstr(axl_last_message(), "there is no slot 2"));
    AXL_OK(axl_get_kernel_bundle_for(r.c, &r.d, 1, &r.ids[1], 1,
                                     AXL_BUNDLE_EXECUTABLE, &bf));
    slots_hold(r.d, "fir", "scale", 2, 1);
    assert_int_equal(axl_kernel_bundle_place(bf, r.d, 1), AXL_ERR_INVALID);
    assert_non_null(strstr(axl_last_message(),
                           "the design of fir has no image for slot 1 "
                           "(RP_1) of " DEV));
    AXL_OK(axl_get_kernel_bundle_for(r.c, &r.d, 1, r.ids, 2,
                                     AXL_BUNDLE_EXECUTABLE, &both));
    assert_int_equal(axl_kernel_bundle_place(both, r.d, 0), AXL_ERR_INVALID);
    assert_non_null(strstr(axl_last_message(), "the bundle holds 2 designs"));
    slots_hold(r.d, "fir", "scale", 2, 1);
    run_scale_in(r.q, scale, 1);
    /* -1: any slot again; the design stays where it is. */
    AXL_OK(axl_kernel_bundle_place(bs, r.d, -1));
    slots_hold(r.d, "fir", "scale", 2, 1);
    AXL_OK(axl_kernel_release(scale));
    AXL_OK(axl_kernel_bundle_release(both));
    AXL_OK(axl_kernel_bundle_release(bf));
    AXL_OK(axl_kernel_bundle_release(bs));
    slot_rig_down(&r);
}

/* A design that runs is not moved: its slot has a run out. */
static void a_running_design_is_not_moved_3_3(void **s)
{
    (void)s;
    uint32_t ids0;
    variant_partials(&ids0);
    slot_rig r = slot_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel_bundle bs;
    AXL_OK(axl_get_kernel_bundle_for(r.c, &r.d, 1, &r.ids[0], 1,
                                     AXL_BUNDLE_EXECUTABLE, &bs));
    axl_kernel scale;
    AXL_OK(axl_kernel_bundle_get_kernel(bs, r.ids[0], &scale));
    float data[4] = {1, 2, 3, 4};
    axl_buffer D;
    AXL_OK(axl_buffer_create_from(data, 4, axl_range_1d(4), NULL, &D));
    axl_event e;
    scale_held(r.q, scale, D, 4, &e);
    assert_int_equal(axl_kernel_bundle_place(bs, r.d, 1),
                     AXL_ERR_BAD_STATE);
    assert_non_null(strstr(axl_last_message(),
                           "the design of scale has commands running in or "
                           "waiting for slot 0 (RP_0)"));
    atomic_store(&scale_hold.go, 1);
    AXL_OK(axl_event_wait(e));
    slots_hold(r.d, "scale", "", 1, 0);
    AXL_OK(axl_kernel_bundle_place(bs, r.d, 1)); /* now it may */
    slots_hold(r.d, "", "scale", 1, 1);
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_buffer_release(D));
    AXL_OK(axl_emu_register_model("scale", NULL, NULL));
    AXL_OK(axl_kernel_release(scale));
    AXL_OK(axl_kernel_bundle_release(bs));
    slot_rig_down(&r);
}

/* No slot within the wait (3.3): a command whose design every slot it
 * has an image for keeps busy times out, its message naming the shell,
 * the design and what each slot does; it then runs once the slot frees. */
static void a_wait_for_a_slot_that_times_out_says_what_each_slot_does_3_3(
    void **s)
{
    (void)s;
    one_slot_partials(); /* scale and fir: RP_0 only */
    slot_rig r = slot_rig_up(0); /* out of order: fir waits for no command */
    axl_kernel_bundle b;
    AXL_OK(axl_get_kernel_bundle_for(r.c, &r.d, 1, r.ids, 2,
                                     AXL_BUNDLE_EXECUTABLE, &b));
    axl_kernel scale, fir;
    AXL_OK(axl_kernel_bundle_get_kernel(b, r.ids[0], &scale));
    AXL_OK(axl_kernel_bundle_get_kernel(b, r.ids[1], &fir));
    float data[4] = {1, 2, 3, 4};
    int16_t in[4] = {0}, taps[2] = {16384, 16384}, out[4];
    axl_buffer D, I, C, O;
    AXL_OK(axl_buffer_create_from(data, 4, axl_range_1d(4), NULL, &D));
    AXL_OK(axl_buffer_create_from(in, 2, axl_range_1d(4), NULL, &I));
    AXL_OK(axl_buffer_create_from(taps, 2, axl_range_1d(2), NULL, &C));
    AXL_OK(axl_buffer_create_from(out, 2, axl_range_1d(4), NULL, &O));
    axl_event es, ef;
    scale_held(r.q, scale, D, 4, &es);
    AXL_OK(axl_queue_single_task(
        r.q, fir,
        AXL_ARGS(AXL_ARG_IN(I), AXL_ARG_IN(C), AXL_ARG_OUT(O),
                 AXL_ARG_U32(2), AXL_ARG_U32(4)),
        NULL, 0, &ef));
    assert_int_equal(axl_event_wait_for(ef, 5000000), AXL_ERR_TIMEOUT);
    const char *m = axl_last_message();
    if (!strstr(m, "no slot of shell k26_2rp on " DEV " took the design of "
                   "fir within the time given") ||
        !strstr(m, "RP_0 runs scale (1 run out), RP_1 is empty"))
        fail_msg("message \"%s\"", m);
    atomic_store(&scale_hold.go, 1);
    AXL_OK(axl_event_wait(ef));
    AXL_OK(axl_event_wait(es));
    AXL_OK(axl_event_release(es));
    AXL_OK(axl_event_release(ef));
    AXL_OK(axl_buffer_release(D));
    AXL_OK(axl_buffer_release(I));
    AXL_OK(axl_buffer_release(C));
    AXL_OK(axl_buffer_release(O));
    AXL_OK(axl_emu_register_model("scale", NULL, NULL));
    AXL_OK(axl_kernel_release(scale));
    AXL_OK(axl_kernel_release(fir));
    AXL_OK(axl_kernel_bundle_release(b));
    slot_rig_down(&r);
}

/* A graph follows its design to the slot it loads in (a variant, 3.3):
 * recorded while scale ran in RP_0, replayed after fir took RP_0, it
 * runs in RP_1, where scale's variant loads, with right values. */
static void a_graph_follows_its_design_to_another_slot_3_3(void **s)
{
    (void)s;
    enum { N = 8 };
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    uint32_t ids0;
    variant_partials(&ids0);
    slot_rig r = slot_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel_bundle b;
    AXL_OK(axl_get_kernel_bundle_for(r.c, &r.d, 1, r.ids, 2,
                                     AXL_BUNDLE_EXECUTABLE, &b));
    slots_hold(r.d, "scale", "", 1, 0);
    axl_kernel scale, fir;
    AXL_OK(axl_kernel_bundle_get_kernel(b, r.ids[0], &scale));
    AXL_OK(axl_kernel_bundle_get_kernel(b, r.ids[1], &fir));
    float data[N];
    for (int i = 0; i < N; i++)
        data[i] = (float)i;
    axl_buffer D;
    AXL_OK(axl_buffer_create_from(data, 4, axl_range_1d(N), NULL, &D));
    axl_graph g;
    AXL_OK(axl_graph_create(r.c, r.d, &g));
    AXL_OK(axl_graph_begin_recording(g, r.q));
    AXL_OK(axl_queue_single_task(
        r.q, scale,
        AXL_ARGS(AXL_ARG_INOUT(D), AXL_ARG_F32(2.0f), AXL_ARG_U32(N)), NULL,
        0, NULL));
    AXL_OK(axl_graph_end_recording(g, r.q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    for (int round = 0; round < 3; round++) {
        axl_event e;
        AXL_OK(axl_queue_submit_graph(r.q, x, NULL, 0, &e));
        AXL_OK(axl_event_wait(e));
        AXL_OK(axl_event_release(e));
        run_fir_in_rp0(r.q, fir); /* takes RP_0 once */
    }
    /* scale in RP_0 from its bundle; fir into RP_0; scale's variant into
     * RP_1; then nothing moves. */
    slots_hold(r.d, "fir", "scale", 2, 1);
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    AXL_OK(axl_buffer_release(D));
    for (int i = 0; i < N; i++)
        assert_true(data[i] == 8.0f * (float)i);
    AXL_OK(axl_kernel_release(scale));
    AXL_OK(axl_kernel_release(fir));
    AXL_OK(axl_kernel_bundle_release(b));
    slot_rig_down(&r);
}

/* An IP of a design in a slot would be reached at its bare IP_LAYOUT
 * index, not at the slot's unit (3.4): axl_ip_open refuses it, naming
 * the slot, and opens nothing. */
static void an_ip_of_a_design_in_a_slot_is_refused_3_4(void **s)
{
    (void)s;
    uint32_t ids0;
    variant_partials(&ids0);
    slot_rig r = slot_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel_bundle bs;
    AXL_OK(axl_get_kernel_bundle_for(r.c, &r.d, 1, &r.ids[0], 1,
                                     AXL_BUNDLE_EXECUTABLE, &bs));
    axl_ip ip;
    assert_int_equal(axl_ip_open(bs, r.d, "scale", &ip),
                     AXL_ERR_FEATURE_NOT_SUPPORTED);
    assert_non_null(strstr(axl_last_message(),
                           "the bundle's design is in slot 0 (RP_0) of " DEV
                           ": IPs of a design in a DFX slot cannot be "
                           "opened yet"));
    AXL_OK(axl_kernel_bundle_release(bs));
    slot_rig_down(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(a_device_without_a_shell_has_no_slots),
        T(the_k26_2rp_preset_gives_a_device_two_slots),
#if !defined(AXL_TEST_MMIO)
        T(the_environment_names_a_preset),
#endif
        T(a_shell_applies_to_devices_opened_after_it),
        T(a_shell_a_port_cannot_take_is_refused),
        T(only_partials_of_the_shell_in_one_slot_are_compatible_3_2),
        T(a_partial_whose_memory_is_no_bank_is_refused_at_bundle_time),
        T(partials_load_into_their_slots_and_run_there_3_3),
        T(a_held_slot_takes_another_design_on_demand_3_3),
        T(a_slot_changes_only_once_nothing_of_its_design_is_in_flight_3_3),
        T(a_waiting_design_goes_before_newer_commands_of_the_slots_3_3),
        T(a_slot_load_never_waits_for_a_pending_command_3_3),
        T(a_graph_of_a_partials_kernel_runs_in_its_slot_3_3),
        T(without_swaps_a_held_slot_refuses_another_design_3_3),
        T(without_swaps_an_unheld_slot_is_taken_once_its_runs_end_3_3),
        T(a_variant_makes_no_kernel_id_of_its_own_1_2),
        T(a_design_with_variants_loads_into_the_free_slot_3_3),
        T(a_placed_bundles_design_moves_to_the_slot_named_3_3),
        T(a_running_design_is_not_moved_3_3),
        T(a_wait_for_a_slot_that_times_out_says_what_each_slot_does_3_3),
        T(a_graph_follows_its_design_to_another_slot_3_3),
        T(an_ip_of_a_design_in_a_slot_is_refused_3_4),
#if defined(AXL_TEST_MMIO)
        T(a_shell_the_simulator_cannot_take_is_refused),
        T(a_slot_load_the_board_refuses_fails_and_the_next_one_loads),
        T(slot_units_sit_at_the_slots_numbers_and_lines_3_4),
        T(after_load_is_called_once_per_load_with_its_slot_3_4),
        T(an_after_load_failure_fails_the_load_3_4),
        T(a_dead_line_after_a_load_is_caught_on_the_first_run_3_4),
        T(a_board_that_rearms_after_a_load_keeps_its_interrupts_3_4),
#endif
#if defined(AXL_TEST_DFXMGR)
#define D(f) cmocka_unit_test_setup_teardown(f, setup, dfx_teardown)
        D(a_slot_load_asks_dfx_mgr_for_the_partials_package_3_5),
        D(a_slot_taking_another_package_unloads_the_last_first_3_5),
        D(without_dfx_mgr_a_slot_load_fails_naming_its_library_3_5),
        D(a_load_dfx_mgr_refuses_fails_with_its_code_3_5),
        D(an_older_dfx_mgr_unloads_with_dfxmgr_remove_3_5),
        D(a_package_dfx_mgr_put_in_another_slot_is_refused_3_5),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
