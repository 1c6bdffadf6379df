/*
 * DFX slots on the RTL (issue 40 item 2, stage 5; docs/designs-design.md
 * 3.3, 3.6, 3.7): the testbench given shell k26_2rp (axl_rtl_set_shell),
 * its static part copy alone (axl_rtl_slots, tests/rtl/CMakeLists.txt),
 * each slot's partial built as Verilated units beside the others.
 *
 *  - vadd's partial in RP_0 and fir's in RP_1 run at the same time, beside
 *    the static part's copy, with the results of a C reference; a third
 *    design (conv2d) swaps into RP_0 and runs right, and vadd swaps back;
 *    the events' slots and the regions' designs and loads agree.
 *  - A slot load takes the shell's load_ns of simulated time: the clock
 *    moves on by it, the static part's run clocked through it.
 *  - A partial with a kernel that has no RTL here (mmult) is refused
 *    naming it, and nothing changes: the slot stays empty, the other
 *    slot runs on, and the next partial loads there.
 *
 * Slots are an axl extension: SYCL 2020 has no word for them (designs-
 * design.md 0.1); the kernels run as single tasks (SYCL 4.9.4.2).
 *
 * Seen failing before the change: with the model's attach_region NULL
 * (the testbench before), every slot load failed, "RTL simulation
 * (Verilator) models the whole fabric only: slot RP_0 takes no partial".
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axl_test.h"
#include "axl/rtl.h"
#include "axl/shell.h"
#include "axl_rtl_slots_conv2d.h"
#include "axl_rtl_slots_nop_mmult.h"
#include "axl_rtl_slots_vadd.h"
#include "axl_test_designs_b_xclbin.h"

/* ---- Partials, made as test_slots makes them ------------------------- */

enum { PART_MAX = 8192 };
static _Alignas(8) unsigned char part_vadd[PART_MAX], part_fir[PART_MAX],
    part_conv[PART_MAX], part_nop[PART_MAX];

/* A copy of the whole design `full` into out as a partial of k26_2rp
 * for slot k: XCLBIN_PR, the shell's interface UUID, a UUID of its own
 * (tag), IP i's control base at the slot's window + 64 KiB * i. */
static void register_partial(unsigned char *out, const unsigned char *full,
                             size_t size, uint32_t k, unsigned char tag)
{
    uint64_t base[16];
    for (uint32_t i = 0; i < 16; i++)
        base[i] = axl_shell_k26_2rp.slots[k].ctrl_base + 0x10000u * i;
    AXL_OK(axl_image_register(
        out, axl_test_partial(out, PART_MAX, full, size,
                              axl_shell_k26_2rp.interface_uuid, base, 16,
                              tag)));
}

/* ---- The rig ----------------------------------------------------------- */

static int setup(void **state)
{
    return axl_test_setup(state);
}

static int teardown(void **state)
{
    AXL_OK(axl_rtl_set_shell(NULL));
    return axl_test_teardown(state);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

/* A kernel by name (copy: the device's built-in design's, the static
 * part), with the bundle that holds it. */
typedef struct held {
    axl_kernel_bundle b;
    axl_kernel k;
} held;

static held hold(axl_context c, axl_device d, const char *name)
{
    held h;
    axl_kernel_id id;
    if (!strcmp(name, "copy"))
        id = axl_test_builtin(d, name);
    else
        AXL_OK(axl_get_kernel_id(name, &id));
    AXL_OK(axl_get_kernel_bundle_for(c, &d, 1, &id, 1, AXL_BUNDLE_EXECUTABLE,
                                     &h.b));
    AXL_OK(axl_kernel_bundle_get_kernel(h.b, id, &h.k));
    return h;
}

static void let_go(held *h)
{
    AXL_OK(axl_kernel_release(h->k));
    AXL_OK(axl_kernel_bundle_release(h->b));
}

/* One command in flight: its buffers (released, so written back, at
 * its end) and its event. */
typedef struct job {
    axl_buffer buf[3];
    int nbuf;
    axl_event ev;
} job;

static axl_buffer job_buffer(job *j, void *host, size_t elem, size_t n)
{
    AXL_OK(axl_buffer_create_from(host, elem, axl_range_1d(n), NULL,
                                  &j->buf[j->nbuf]));
    return j->buf[j->nbuf++];
}

/* Waits for the job, writes its buffers back; its slot (-1: the static
 * part). */
static int32_t job_end(job *j)
{
    AXL_OK(axl_event_wait(j->ev));
    for (int i = 0; i < j->nbuf; i++)
        AXL_OK(axl_buffer_release(j->buf[i]));
    int32_t slot = 99;
    AXL_OK(axl_event_get_slot(j->ev, &slot));
    return slot;
}

static uint64_t job_time(const job *j, axl_profiling_info what)
{
    uint64_t t = 0;
    AXL_OK(axl_event_get_profiling(j->ev, what, &t));
    return t;
}

static void job_release(job *j)
{
    AXL_OK(axl_event_release(j->ev));
}

/* ---- The kernels and their C references ------------------------------ */

enum { N = 1024, TAPS = 4, W = 24, H = 16, COPY_BYTES = 64 * 1024 };

static int32_t vx[N], vy[N], vs[N];
static int16_t fin[N], ftaps[TAPS] = {8192, -4096, 2048, 1024}, fout[N];
static uint8_t cin[W * H], cout[W * H];
static int8_t ccoeff[9] = {1, 2, 1, 2, 4, 2, 1, 2, 1};
static uint8_t csrc[COPY_BYTES], cdst[COPY_BYTES];

static void inputs(int round)
{
    for (int i = 0; i < N; i++) {
        vx[i] = i * round;
        vy[i] = 100000 - i;
        fin[i] = (int16_t)((i * 977 * round) % 20000 - 10000);
    }
    for (int i = 0; i < W * H; i++)
        cin[i] = (uint8_t)(i * 37 + round);
    for (int i = 0; i < COPY_BYTES; i++)
        csrc[i] = (uint8_t)(i * 13 + round);
    memset(vs, 0, sizeof vs);
    memset(fout, 0, sizeof fout);
    memset(cout, 0, sizeof cout);
    memset(cdst, 0, sizeof cdst);
}

static job run_vadd(axl_queue q, axl_kernel k)
{
    job j = {0};
    axl_buffer X = job_buffer(&j, vx, 4, N), Y = job_buffer(&j, vy, 4, N),
               S = job_buffer(&j, vs, 4, N);
    AXL_OK(axl_queue_single_task(
        q, k, AXL_ARGS(AXL_ARG_IN(X), AXL_ARG_IN(Y), AXL_ARG_OUT(S),
                       AXL_ARG_U32(N)),
        NULL, 0, &j.ev));
    return j;
}

static void vadd_right(void)
{
    for (int i = 0; i < N; i++)
        assert_int_equal(vs[i], vx[i] + vy[i]);
}

static job run_fir(axl_queue q, axl_kernel k)
{
    job j = {0};
    axl_buffer I = job_buffer(&j, fin, 2, N),
               C = job_buffer(&j, ftaps, 2, TAPS),
               O = job_buffer(&j, fout, 2, N);
    AXL_OK(axl_queue_single_task(
        q, k, AXL_ARGS(AXL_ARG_IN(I), AXL_ARG_IN(C), AXL_ARG_OUT(O),
                       AXL_ARG_U32(TAPS), AXL_ARG_U32(N)),
        NULL, 0, &j.ev));
    return j;
}

static void fir_right(void)
{
    for (int i = 0; i < N; i++) {
        int64_t acc = 0; /* kernels.h's fir: Q15, rounded half up */
        for (int t = 0; t < TAPS && t <= i; t++)
            acc += (int32_t)ftaps[t] * fin[i - t];
        int64_t r = acc + (1 << 14);
        r = r >= 0 ? r / 32768 : -((-r + 32767) / 32768);
        assert_int_equal(fout[i], (int16_t)r);
    }
}

static job run_conv2d(axl_queue q, axl_kernel k)
{
    job j = {0};
    axl_buffer I = job_buffer(&j, cin, 1, W * H),
               C = job_buffer(&j, ccoeff, 1, 9),
               O = job_buffer(&j, cout, 1, W * H);
    AXL_OK(axl_queue_single_task(
        q, k, AXL_ARGS(AXL_ARG_IN(I), AXL_ARG_IN(C), AXL_ARG_OUT(O),
                       AXL_ARG_U32(W), AXL_ARG_U32(H), AXL_ARG_U32(4)),
        NULL, 0, &j.ev));
    return j;
}

static void conv2d_right(void)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int acc = 0; /* kernels.h's conv2d: zero padding */
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int yy = y + dy, xx = x + dx;
                    if (yy >= 0 && xx >= 0 && yy < H && xx < W)
                        acc += ccoeff[(dy + 1) * 3 + dx + 1] *
                               cin[yy * W + xx];
                }
            int v = acc < 0 ? 0 : acc >> 4;
            assert_int_equal(cout[y * W + x], v > 255 ? 255 : v);
        }
}

static job run_copy(axl_queue q, axl_kernel k)
{
    job j = {0};
    axl_buffer S = job_buffer(&j, csrc, 1, COPY_BYTES),
               D = job_buffer(&j, cdst, 1, COPY_BYTES);
    AXL_OK(axl_queue_single_task(
        q, k, AXL_ARGS(AXL_ARG_IN(S), AXL_ARG_OUT(D),
                       AXL_ARG_U32(COPY_BYTES)),
        NULL, 0, &j.ev));
    return j;
}

static void copy_right(void)
{
    assert_memory_equal(cdst, csrc, COPY_BYTES);
}

/* The regions' designs and loads: region 1 + k is slot k. */
static void regions_say(axl_device d, const char *rp0, uint32_t loads0,
                        const char *rp1, uint32_t loads1)
{
    axl_region_info reg[3];
    uint32_t n = 0;
    AXL_OK(axl_device_get_regions(d, reg, 3, &n));
    assert_int_equal(n, 3);
    assert_string_equal(reg[0].name, "static");
    assert_string_equal(reg[0].design, "copy");
    assert_string_equal(reg[1].name, "RP_0");
    assert_string_equal(reg[1].design, rp0);
    assert_int_equal(reg[1].loads, loads0);
    assert_string_equal(reg[2].name, "RP_1");
    assert_string_equal(reg[2].design, rp1);
    assert_int_equal(reg[2].loads, loads1);
}

static double wall_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- The tests ----------------------------------------------------------- */

/* vadd in RP_0 and fir in RP_1 run at once beside the static part's copy
 * (their runs overlap in the device's simulated time), each right; then
 * conv2d takes RP_0 on demand (vadd's bundle still held, 3.3) while fir
 * stays in RP_1, and vadd comes back. */
static void two_slots_run_at_once_and_a_third_design_swaps_in_3_3(void **s)
{
    (void)s;
    AXL_OK(axl_rtl_set_shell(&axl_shell_k26_2rp));
    register_partial(part_vadd, axl_rtl_slots_vadd, axl_rtl_slots_vadd_size,
                     0, 0x10);
    register_partial(part_fir, axl_test_designs_b_xclbin,
                     axl_test_designs_b_xclbin_size, 1, 0x11);
    register_partial(part_conv, axl_rtl_slots_conv2d,
                     axl_rtl_slots_conv2d_size, 0, 0x12);
    axl_device d = axl_test_emu_device();
    axl_context c;
    axl_queue q;
    AXL_OK(axl_context_create(&d, 1, NULL, &c));
    AXL_OK(axl_queue_create(c, d, AXL_QUEUE_ENABLE_PROFILING, NULL, &q));
    held copy = hold(c, d, "copy"), vadd = hold(c, d, "vadd"),
         fir = hold(c, d, "fir"), conv = hold(c, d, "conv2d");

    /* Round 1: the three at once. */
    inputs(1);
    const double t0 = wall_s();
    const uint64_t c0 = axl_rtl_cycles();
    job jc = run_copy(q, copy.k), jv = run_vadd(q, vadd.k),
        jf = run_fir(q, fir.k);
    assert_int_equal(job_end(&jc), -1);
    assert_int_equal(job_end(&jv), 0);
    assert_int_equal(job_end(&jf), 1);
    print_message("two slots and the static part: %llu cycles simulated "
                  "(%.3f ms at %u MHz) in %.3f s\n",
                  (unsigned long long)(axl_rtl_cycles() - c0),
                  (double)(axl_rtl_cycles() - c0) / axl_rtl_clock_mhz() / 1e3,
                  axl_rtl_clock_mhz(), wall_s() - t0);
    copy_right();
    vadd_right();
    fir_right();
    /* At the same time: each run started before the other ended. */
    const uint64_t vs0 = job_time(&jv, AXL_PROFILING_COMMAND_START),
                   ve0 = job_time(&jv, AXL_PROFILING_COMMAND_END),
                   fs0 = job_time(&jf, AXL_PROFILING_COMMAND_START),
                   fe0 = job_time(&jf, AXL_PROFILING_COMMAND_END),
                   cs0 = job_time(&jc, AXL_PROFILING_COMMAND_START),
                   ce0 = job_time(&jc, AXL_PROFILING_COMMAND_END);
    assert_true(vs0 < fe0 && fs0 < ve0);
    assert_true(cs0 < fe0 && fs0 < ce0);
    job_release(&jc);
    job_release(&jv);
    job_release(&jf);
    regions_say(d, "vadd", 1, "fir", 1);
    /* The testbench has both slots' units, at their unit numbers. */
    axl_rtl_unit_stats st;
    AXL_OK(axl_rtl_unit_stats_get(8, &st));
    assert_true(st.busy_cycles > 0);
    AXL_OK(axl_rtl_unit_stats_get(12, &st));
    assert_true(st.busy_cycles > 0);

    /* Round 2: conv2d swaps into RP_0 beside fir, which runs again. */
    inputs(2);
    job jx = run_conv2d(q, conv.k);
    jf = run_fir(q, fir.k);
    assert_int_equal(job_end(&jx), 0);
    assert_int_equal(job_end(&jf), 1);
    conv2d_right();
    fir_right();
    job_release(&jx);
    job_release(&jf);
    regions_say(d, "conv2d", 2, "fir", 1);

    /* Round 3: vadd back in RP_0. */
    inputs(3);
    jv = run_vadd(q, vadd.k);
    assert_int_equal(job_end(&jv), 0);
    vadd_right();
    job_release(&jv);
    regions_say(d, "vadd", 3, "fir", 1);

    let_go(&copy);
    let_go(&vadd);
    let_go(&fir);
    let_go(&conv);
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_context_release(c));
}

/* 3.6: a load moves the device's simulated clock on by the shell's
 * load_ns, the static part's copy clocked through it (all its beats
 * written during the load); vadd starts load_ns after copy at least; no
 * load, no such gap. */
static void a_slot_load_takes_the_shells_load_ns_of_simulated_time_3_6(
    void **s)
{
    (void)s;
    static axl_slot slots[2];
    static axl_shell slow;
    memcpy(slots, axl_shell_k26_2rp.slots, sizeof slots);
    slow = axl_shell_k26_2rp;
    slow.slots = slots;
    slow.load_ns = 500000; /* 0.5 ms: 150,000 cycles at 300 MHz */
    AXL_OK(axl_rtl_set_shell(&slow));
    register_partial(part_vadd, axl_rtl_slots_vadd, axl_rtl_slots_vadd_size,
                     0, 0x20);
    axl_device d = axl_test_emu_device();
    axl_context c;
    axl_queue q;
    AXL_OK(axl_context_create(&d, 1, NULL, &c));
    AXL_OK(axl_queue_create(c, d, AXL_QUEUE_ENABLE_PROFILING, NULL, &q));
    held copy = hold(c, d, "copy");
    inputs(1);
    const double t0 = wall_s();
    const uint64_t c0 = axl_rtl_cycles();
    job jc = run_copy(q, copy.k);
    held vadd = hold(c, d, "vadd"); /* loads RP_0: the clock moves on */
    /* copy (IP 0 of the static part) was clocked through the load: every
     * beat of it is written by the time the load returns. */
    axl_rtl_unit_stats st;
    AXL_OK(axl_rtl_unit_stats_get(0, &st));
    assert_int_equal(st.write_beats, COPY_BYTES / 64);
    job jv = run_vadd(q, vadd.k);
    assert_int_equal(job_end(&jv), 0);
    assert_int_equal(job_end(&jc), -1);
    const uint64_t cycles = axl_rtl_cycles() - c0;
    print_message("a load of %llu ns: %llu cycles simulated in %.3f s\n",
                  (unsigned long long)slow.load_ns,
                  (unsigned long long)cycles, wall_s() - t0);
    assert_true(cycles >= slow.load_ns * axl_rtl_clock_mhz() / 1000u);
    copy_right();
    vadd_right();
    /* vadd started once the load was over. */
    assert_true(job_time(&jv, AXL_PROFILING_COMMAND_START) -
                    job_time(&jc, AXL_PROFILING_COMMAND_START) >=
                slow.load_ns);
    job_release(&jc);
    job_release(&jv);
    /* Loaded: the next run has no load before it. */
    const uint64_t c1 = axl_rtl_cycles();
    jv = run_vadd(q, vadd.k);
    assert_int_equal(job_end(&jv), 0);
    assert_true(axl_rtl_cycles() - c1 <
                slow.load_ns * axl_rtl_clock_mhz() / 1000u);
    job_release(&jv);
    let_go(&copy);
    let_go(&vadd);
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_context_release(c));
}

/* A partial one of whose kernels (mmult) has no RTL here: its load is
 * refused naming the kernel; RP_1 stays empty and the testbench has no
 * unit there, vadd in RP_0 runs on, and fir then loads into RP_1. */
static void a_partial_with_a_kernel_without_rtl_is_refused_naming_it(
    void **s)
{
    (void)s;
    AXL_OK(axl_rtl_set_shell(&axl_shell_k26_2rp));
    register_partial(part_vadd, axl_rtl_slots_vadd, axl_rtl_slots_vadd_size,
                     0, 0x30);
    register_partial(part_nop, axl_rtl_slots_nop_mmult,
                     axl_rtl_slots_nop_mmult_size, 1, 0x31);
    register_partial(part_fir, axl_test_designs_b_xclbin,
                     axl_test_designs_b_xclbin_size, 1, 0x32);
    axl_device d = axl_test_emu_device();
    axl_context c;
    axl_queue q;
    AXL_OK(axl_context_create(&d, 1, NULL, &c));
    AXL_OK(axl_queue_create(c, d, AXL_QUEUE_IN_ORDER, NULL, &q));
    held vadd = hold(c, d, "vadd");
    axl_kernel_id nop_id;
    AXL_OK(axl_get_kernel_id("nop", &nop_id));
    axl_kernel_bundle bn;
    AXL_EXPECT(axl_get_kernel_bundle_for(c, &d, 1, &nop_id, 1,
                                         AXL_BUNDLE_EXECUTABLE, &bn),
               AXL_ERR_FEATURE_NOT_SUPPORTED);
    AXL_MESSAGE_HAS("programming slot 1 (RP_1) of RTL simulation "
                    "(Verilator) with the design of nop failed");
    AXL_MESSAGE_HAS("its kernel mmult has no RTL here (axl_add_rtl_kernel)");
    axl_region_info reg[3];
    uint32_t n = 0;
    AXL_OK(axl_device_get_regions(d, reg, 3, &n));
    assert_int_equal(reg[2].state, AXL_REGION_EMPTY);
    axl_rtl_unit_stats st;
    AXL_EXPECT(axl_rtl_unit_stats_get(12, &st), AXL_ERR_INVALID);
    inputs(1);
    job jv = run_vadd(q, vadd.k);
    assert_int_equal(job_end(&jv), 0);
    vadd_right();
    job_release(&jv);
    held fir = hold(c, d, "fir");
    job jf = run_fir(q, fir.k);
    assert_int_equal(job_end(&jf), 1);
    fir_right();
    job_release(&jf);
    let_go(&vadd);
    let_go(&fir);
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_context_release(c));
}

int main(void)
{
    if (getenv("AXL_TEST_ONLY"))
        cmocka_set_test_filter(getenv("AXL_TEST_ONLY"));
    const struct CMUnitTest tests[] = {
        T(two_slots_run_at_once_and_a_third_design_swaps_in_3_3),
        T(a_slot_load_takes_the_shells_load_ns_of_simulated_time_3_6),
        T(a_partial_with_a_kernel_without_rtl_is_refused_naming_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
