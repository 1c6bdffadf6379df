/*
 * On-demand reprogramming of a whole fabric (issue 40, stage 3;
 * docs/designs-design.md 2 and 6.2), on the emulated device and (as
 * mmio_test_swaps) on the mmio port over its C-model simulator. Design A is
 * the device's built-in stock design (vadd); design B is designs_b.xclbin
 * (the stock fir alone, tests/unit/designs_b.cfg).
 *
 *  - 4.11 (seed 000): holding executable bundles of two device images is
 *    legal, and a kernel of one runs while the other was last loaded: the
 *    command waits for its design's turn (2.1).
 *  - 4.6.5: a submit schedules; it never waits for device work, so a
 *    swap never runs inside one, and never waits for a pending command:
 *    a host accessor this thread holds does not hold a swap (2.5).
 *  - Designs take turns by their oldest waiting command, and one swap
 *    releases every waiter of its design (2.1: A,B,A,B,A cost 2 swaps).
 *  - A device that may not swap keeps the refusal at bundle time (2.5).
 *  - A design whose memories are not the device's banks is refused at
 *    bundle time beside a held one (1.4).
 *  - Commands that could only wait for ever fail at once (2.5): a design
 *    pinned by an open IP, a unit hung at its timeout (mmio only: the
 *    emulated device opens no IP and its units cannot hang); a load the
 *    board refuses fails its waiters and keeps every buffer (2.2 step 4).
 *
 * Until stage 3 each of these failed at axl_get_kernel_bundle_for:
 * AXL_ERR_BAD_STATE, "carries the design of kernel bundle ..., whose
 * kernels another would stop".
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axl_test.h"
#include "axl/emu.h"
#include "axl_config.h"
#include "axl_test_designs_b_xclbin.h"
#if defined(AXL_TEST_MMIO)
#include "mmio_sim.h"
#endif

/* Before stage 3 the library had no axl_emu_set_swaps: weak, so the file
 * builds there and shows its failures. Built as mmio_test_swaps (the
 * C-model simulator behind the mmio port) the device is the simulator's
 * board, whose switch is axl_mmio_sim_set_swaps (its fixed_design). */
extern axl_status axl_emu_set_swaps(bool on) __attribute__((weak));
#if defined(AXL_TEST_MMIO)
extern void axl_mmio_sim_set_swaps(bool on) __attribute__((weak));
#define HAS_SWITCH (axl_mmio_sim_set_swaps != NULL)
#define SWITCH_NAME "axl_mmio_sim_set_swaps"
#else
#define HAS_SWITCH (axl_emu_set_swaps != NULL)
#define SWITCH_NAME "axl_emu_set_swaps"
#endif

enum { N = 64, TAPS = 4 };

static void swaps_on(bool on)
{
    if (axl_emu_set_swaps)
        AXL_OK(axl_emu_set_swaps(on));
#if defined(AXL_TEST_MMIO)
    if (axl_mmio_sim_set_swaps)
        axl_mmio_sim_set_swaps(on);
#endif
}

static int setup(void **state)
{
    axl_test_setup(state);
    swaps_on(true);
    return 0;
}

static int teardown(void **state)
{
#if defined(AXL_TEST_MMIO)
    axl_mmio_sim_defaults(); /* a failed test's faults go */
#endif
    int r = axl_test_teardown(state);
    swaps_on(true);
    return r;
}

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

/* Both designs held: the rig's (A: vadd) and a bundle of B with fir. */
struct two {
    axl_test_rig rig;
    axl_kernel_bundle b;
    axl_kernel fir;
    axl_buffer X, Y, S, I, C, O;
    int32_t x[N], y[N];
    int16_t in[N], coeff[TAPS];
};

static void two_up(struct two *t, uint32_t queue_flags)
{
    AXL_OK(axl_image_register(axl_test_designs_b_xclbin,
                              axl_test_designs_b_xclbin_size));
    t->rig = axl_test_rig_on(axl_test_emu_device(), queue_flags);
    axl_kernel_id fir_id;
    AXL_OK(axl_get_kernel_id("fir", &fir_id));
    AXL_OK(axl_get_kernel_bundle_for(t->rig.ctx, &t->rig.dev, 1, &fir_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &t->b));
    AXL_OK(axl_kernel_bundle_get_kernel(t->b, fir_id, &t->fir));
    for (int i = 0; i < N; i++) {
        t->x[i] = 3 * i;
        t->y[i] = 500 - i;
        t->in[i] = (int16_t)((i * 977) % 20000 - 10000);
    }
    for (int k = 0; k < TAPS; k++)
        t->coeff[k] = (int16_t)(8192 >> k);
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &t->X));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &t->Y));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &t->S));
    AXL_OK(axl_buffer_create(2, axl_range_1d(N), NULL, &t->I));
    AXL_OK(axl_buffer_create(2, axl_range_1d(TAPS), NULL, &t->C));
    AXL_OK(axl_buffer_create(2, axl_range_1d(N), NULL, &t->O));
    const axl_queue q = t->rig.q;
    AXL_OK(axl_queue_copy_from_host(q, t->x, t->X, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_copy_from_host(q, t->y, t->Y, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_copy_from_host(q, t->in, t->I, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_copy_from_host(q, t->coeff, t->C, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(q));
}

static void vadd(struct two *t, axl_queue q, const axl_event *deps,
                 uint32_t ndeps, axl_event *e)
{
    AXL_OK(axl_queue_single_task(
        q, t->rig.vadd,
        AXL_ARGS(AXL_ARG_IN(t->X), AXL_ARG_IN(t->Y), AXL_ARG_OUT(t->S),
                 AXL_ARG_U32(N)),
        deps, ndeps, e));
}

static void fir(struct two *t, axl_queue q, const axl_event *deps,
                uint32_t ndeps, axl_event *e)
{
    AXL_OK(axl_queue_single_task(
        q, t->fir,
        AXL_ARGS(AXL_ARG_IN(t->I), AXL_ARG_IN(t->C), AXL_ARG_OUT(t->O),
                 AXL_ARG_U32(TAPS), AXL_ARG_U32(N)),
        deps, ndeps, e));
}

/* Both results read back and checked. */
static void check_results(struct two *t)
{
    int32_t sum[N];
    int16_t out[N];
    AXL_OK(axl_queue_copy_to_host(t->rig.q, t->S, NULL, sum, NULL, 0, NULL));
    AXL_OK(axl_queue_copy_to_host(t->rig.q, t->O, NULL, out, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(t->rig.q));
    for (int i = 0; i < N; i++) {
        assert_int_equal(sum[i], t->x[i] + t->y[i]);
        assert_int_equal(out[i], fir_at(t->in, t->coeff, i));
    }
}

static void two_down(struct two *t)
{
    AXL_OK(axl_buffer_release(t->X));
    AXL_OK(axl_buffer_release(t->Y));
    AXL_OK(axl_buffer_release(t->S));
    AXL_OK(axl_buffer_release(t->I));
    AXL_OK(axl_buffer_release(t->C));
    AXL_OK(axl_buffer_release(t->O));
    AXL_OK(axl_kernel_release(t->fir));
    AXL_OK(axl_kernel_bundle_release(t->b));
    axl_test_rig_down(&t->rig);
}

/*
 * 2.5, 4.6.5: a command of A waits for a host accessor this thread holds;
 * a command of B, submitted after it on another queue, still runs: the
 * swap to B waits for runs out, never for pending commands. Then A's
 * command runs once the accessor goes (a swap back).
 */
static void a_waiting_command_never_waits_for_a_host_accessor_held_here(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_designs_b_xclbin,
                                      axl_test_designs_b_xclbin_size));
    struct two t;
    two_up(&t, AXL_QUEUE_IN_ORDER);
    axl_queue qb;
    AXL_OK(axl_queue_create(t.rig.ctx, t.rig.dev, AXL_QUEUE_IN_ORDER, NULL,
                            &qb));
    const uint32_t before = axl_test_pool("reprogramming").high_water;
    axl_host_accessor h;
    void *p;
    AXL_OK(axl_host_accessor_create(t.X, AXL_ACCESS_READ_WRITE, NULL, 0, &h,
                                    &p));
    axl_event ea, eb;
    vadd(&t, t.rig.q, NULL, 0, &ea); /* waits for the accessor */
    fir(&t, qb, NULL, 0, &eb);
    AXL_OK(axl_event_wait(eb)); /* would hang, or fail, if it waited */
    axl_event_status st;
    AXL_OK(axl_event_get_status(ea, &st, NULL));
    assert_int_not_equal(st, AXL_EVENT_COMPLETE);
    AXL_OK(axl_host_accessor_release(h));
    AXL_OK(axl_event_wait(ea));
    AXL_OK(axl_queue_wait_and_throw(qb));
    /* B, A */
    assert_int_equal(axl_test_pool("reprogramming").high_water - before, 2);
    check_results(&t);
    AXL_OK(axl_event_release(ea));
    AXL_OK(axl_event_release(eb));
    AXL_OK(axl_queue_release(qb));
    two_down(&t);
}

/* A host task that holds the commands behind it until the test lets go. */
static atomic_int gate_open;

static axl_status gate(void *user)
{
    (void)user;
    while (!atomic_load(&gate_open))
        ;
    return AXL_SUCCESS;
}

/*
 * 2.1: designs take turns by their oldest waiting command, and a swap
 * releases every waiter of its design. A, B, A, B, A on an out-of-order
 * queue, all behind one gate, with A loaded: A runs, then one swap runs
 * both Bs, then one swap back runs the other As. 2 swaps, not 4.
 */
static void designs_take_turns_by_their_oldest_waiting_command_2_1(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_designs_b_xclbin,
                                      axl_test_designs_b_xclbin_size));
    struct two t;
    two_up(&t, 0); /* out of order */
    /* An output each, and each fir its own inputs (it may write them, by
     * its metadata): no command waits for another's data. */
    axl_buffer out[5], fin[5], fco[5];
    for (int i = 0; i < 5; i++) {
        AXL_OK(axl_buffer_create(i % 2 ? 2 : 4, axl_range_1d(N), NULL,
                                 &out[i]));
        if (!(i % 2))
            continue;
        AXL_OK(axl_buffer_create(2, axl_range_1d(N), NULL, &fin[i]));
        AXL_OK(axl_buffer_create(2, axl_range_1d(TAPS), NULL, &fco[i]));
        AXL_OK(axl_queue_copy_from_host(t.rig.q, t.in, fin[i], NULL, NULL,
                                        0, NULL));
        AXL_OK(axl_queue_copy_from_host(t.rig.q, t.coeff, fco[i], NULL,
                                        NULL, 0, NULL));
    }
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    const uint32_t before = axl_test_pool("reprogramming").high_water;
    atomic_store(&gate_open, 0);
    axl_event g, e[5];
    AXL_OK(axl_queue_host_task(t.rig.q, gate, NULL, NULL, 0, &g));
    for (int i = 0; i < 5; i++) {
        if (i % 2)
            AXL_OK(axl_queue_single_task(
                t.rig.q, t.fir,
                AXL_ARGS(AXL_ARG_IN(fin[i]), AXL_ARG_IN(fco[i]),
                         AXL_ARG_OUT(out[i]), AXL_ARG_U32(TAPS),
                         AXL_ARG_U32(N)),
                &g, 1, &e[i]));
        else
            AXL_OK(axl_queue_single_task(
                t.rig.q, t.rig.vadd,
                AXL_ARGS(AXL_ARG_IN(t.X), AXL_ARG_IN(t.Y),
                         AXL_ARG_OUT(out[i]), AXL_ARG_U32(N)),
                &g, 1, &e[i]));
    }
    atomic_store(&gate_open, 1);
    for (int i = 0; i < 5; i++) {
        AXL_OK(axl_event_wait(e[i]));
        AXL_OK(axl_event_release(e[i]));
    }
    AXL_OK(axl_event_release(g));
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    assert_int_equal(axl_test_pool("reprogramming").high_water - before, 2);
    /* None loading at rest. */
    assert_int_equal(axl_test_pool("reprogramming").in_use, 0);
    for (int i = 0; i < 5; i++) {
        int32_t sum[N];
        int16_t f[N];
        AXL_OK(axl_queue_copy_to_host(t.rig.q, out[i], NULL,
                                      i % 2 ? (void *)f : (void *)sum, NULL,
                                      0, NULL));
        AXL_OK(axl_queue_wait_and_throw(t.rig.q));
        for (int k = 0; k < N; k++) {
            if (i % 2)
                assert_int_equal(f[k], fir_at(t.in, t.coeff, k));
            else
                assert_int_equal(sum[k], t.x[k] + t.y[k]);
        }
        AXL_OK(axl_buffer_release(out[i]));
        if (i % 2) {
            AXL_OK(axl_buffer_release(fin[i]));
            AXL_OK(axl_buffer_release(fco[i]));
        }
    }
    two_down(&t);
}

/*
 * 2.1, 2.3: buffers keep their bytes across swaps, in every bank: each
 * design's output, written before the other design was loaded, reads
 * back unchanged after; and a design's kernel sees inputs written while
 * the other was loaded.
 */
static void buffers_keep_their_bytes_across_swaps_2_3(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_designs_b_xclbin,
                                      axl_test_designs_b_xclbin_size));
    struct two t;
    two_up(&t, AXL_QUEUE_IN_ORDER);
    for (int r = 0; r < 3; r++) {
        vadd(&t, t.rig.q, NULL, 0, NULL);
        fir(&t, t.rig.q, NULL, 0, NULL);
        AXL_OK(axl_queue_wait_and_throw(t.rig.q));
        check_results(&t); /* after fir: vadd's sum kept */
        vadd(&t, t.rig.q, NULL, 0, NULL);
        AXL_OK(axl_queue_wait_and_throw(t.rig.q));
        check_results(&t); /* after vadd: fir's output kept */
    }
    two_down(&t);
}

/*
 * 2.5: a device that may not reprogram on demand (axl_emu_set_swaps
 * false; on mmio a board with fixed_design) keeps the refusal at bundle time, saying why; nothing changed,
 * and what the queries say, the launch does.
 */
static void a_device_that_forbids_swaps_refuses_a_second_design_2_5(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_designs_b_xclbin,
                                      axl_test_designs_b_xclbin_size));
    if (!HAS_SWITCH)
        fail_msg(SWITCH_NAME " is not in the library (issue 40)");
    swaps_on(false);
    AXL_OK(axl_image_register(axl_test_designs_b_xclbin,
                              axl_test_designs_b_xclbin_size));
    axl_test_rig rig = axl_test_rig_on(axl_test_emu_device(),
                                       AXL_QUEUE_IN_ORDER);
    axl_kernel_id fir_id;
    AXL_OK(axl_get_kernel_id("fir", &fir_id));
    axl_kernel_bundle b;
    AXL_EXPECT(axl_get_kernel_bundle_for(rig.ctx, &rig.dev, 1, &fir_id, 1,
                                         AXL_BUNDLE_EXECUTABLE, &b),
               AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("whose kernels another would stop");
    AXL_MESSAGE_HAS("the device does not reprogram on demand");
    assert_int_equal(axl_test_pool("reprogramming").in_use, 0);
    axl_test_rig_down(&rig);
    swaps_on(true);
}

#if defined(AXL_TEST_MMIO)
/*
 * 2.5: a unit hung at its timeout keeps its region: a command of the
 * other design fails at once, AXL_ERR_RUNTIME, naming the unit and the
 * way back, instead of waiting for a swap that could never come; once
 * axl_mmio_reset_unit() brought the unit back, the swap runs. On the
 * simulator: vadd's units never finish and have no ap_sw_reset, so the
 * timeout's cancel leaves them hung.
 */
static void a_hung_unit_fails_the_other_designs_commands_at_once_2_5(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_designs_b_xclbin,
                                      axl_test_designs_b_xclbin_size));
    for (uint32_t ip = 0; ip < 2; ip++) /* vadd_1, vadd_2 */
        axl_mmio_sim_set_unit(ip, AXL_MMIO_SIM_NO_SW_RESET,
                              AXL_MMIO_SIM_NEVER_DONE, 0);
    struct two t;
    two_up(&t, AXL_QUEUE_IN_ORDER);
    AXL_OK(axl_queue_set_timeout(t.rig.q, 1000000u)); /* 1 ms, its clock */
    axl_event e;
    vadd(&t, t.rig.q, NULL, 0, &e);
    AXL_EXPECT(axl_event_wait(e), AXL_ERR_TIMEOUT);
    AXL_OK(axl_event_release(e));
    AXL_EXPECT(axl_queue_wait_and_throw(t.rig.q), AXL_ERR_TIMEOUT);
    fir(&t, t.rig.q, NULL, 0, &e);
    AXL_EXPECT(axl_event_wait(e), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("cannot be programmed now");
    AXL_MESSAGE_HAS("axl_mmio_reset_unit() brings it back");
    AXL_OK(axl_event_release(e));
    AXL_EXPECT(axl_queue_wait_and_throw(t.rig.q), AXL_ERR_RUNTIME);
    /* Brought back: fir's design loads, and both compute. */
    axl_mmio_sim_defaults();
    AXL_OK(axl_mmio_reset_unit(0));
    AXL_OK(axl_queue_set_timeout(t.rig.q, 0));
    fir(&t, t.rig.q, NULL, 0, NULL);
    vadd(&t, t.rig.q, NULL, 0, NULL);
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    check_results(&t);
    two_down(&t);
}
#endif

/*
 * Stage 4 (2.7): an executable graph of A replayed, B swapped in by a
 * command, the graph replayed again: it waits for A's turn as a command
 * would and computes the same.
 */
static void a_graph_replays_after_its_design_was_swapped_out_and_back(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_designs_b_xclbin,
                                      axl_test_designs_b_xclbin_size));
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    struct two t;
    two_up(&t, AXL_QUEUE_IN_ORDER);
    axl_graph g;
    AXL_OK(axl_graph_create(t.rig.ctx, t.rig.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, t.rig.q));
    vadd(&t, t.rig.q, NULL, 0, NULL);
    vadd(&t, t.rig.q, NULL, 0, NULL);
    AXL_OK(axl_graph_end_recording(g, t.rig.q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    for (int r = 0; r < 3; r++) {
        AXL_OK(axl_queue_submit_graph(t.rig.q, x, NULL, 0, NULL));
        AXL_OK(axl_queue_wait_and_throw(t.rig.q));
        fir(&t, t.rig.q, NULL, 0, NULL);
        AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    }
    AXL_OK(axl_queue_submit_graph(t.rig.q, x, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    check_results(&t);
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    two_down(&t);
}

/*
 * Stage 4 (2.7, 2.1), 4.6.5: with B loaded, a graph of A and a command
 * of B, twice, submitted back to back on an out-of-order queue with no
 * wait between: no submission fails or waits for a load (the graphs'
 * wait for A's turn at dispatch, the second while the first is pending),
 * and every one completes with right results.
 */
static void a_graph_and_a_command_of_two_designs_submitted_back_to_back(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_designs_b_xclbin,
                                      axl_test_designs_b_xclbin_size));
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    struct two t;
    two_up(&t, 0); /* out of order */
    axl_graph g;
    AXL_OK(axl_graph_create(t.rig.ctx, t.rig.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, t.rig.q));
    vadd(&t, t.rig.q, NULL, 0, NULL);
    AXL_OK(axl_graph_end_recording(g, t.rig.q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    fir(&t, t.rig.q, NULL, 0, NULL);
    AXL_OK(axl_queue_wait_and_throw(t.rig.q)); /* B loaded */
    axl_event e[4];
    AXL_OK(axl_queue_submit_graph(t.rig.q, x, NULL, 0, &e[0]));
    fir(&t, t.rig.q, NULL, 0, &e[1]);
    AXL_OK(axl_queue_submit_graph(t.rig.q, x, NULL, 0, &e[2]));
    fir(&t, t.rig.q, NULL, 0, &e[3]);
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    for (int i = 0; i < 4; i++) {
        axl_event_status st;
        axl_status es;
        AXL_OK(axl_event_get_status(e[i], &st, &es));
        assert_int_equal(st, AXL_EVENT_COMPLETE);
        assert_int_equal(es, AXL_SUCCESS);
        AXL_OK(axl_event_release(e[i]));
    }
    check_results(&t);
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    two_down(&t);
}

/*
 * Stage 4 (2.7): a graph runs one design on a whole-fabric device. One of
 * vadd (A) and fir (B) is refused at its submission, saying so, and
 * nothing runs (no load).
 */
static void a_graph_of_two_designs_is_refused_at_its_submission(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_designs_b_xclbin,
                                      axl_test_designs_b_xclbin_size));
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    struct two t;
    two_up(&t, AXL_QUEUE_IN_ORDER);
    axl_graph g;
    AXL_OK(axl_graph_create(t.rig.ctx, t.rig.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, t.rig.q));
    vadd(&t, t.rig.q, NULL, 0, NULL);
    fir(&t, t.rig.q, NULL, 0, NULL);
    AXL_OK(axl_graph_end_recording(g, t.rig.q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    const uint32_t before = axl_test_pool("reprogramming").high_water;
    assert_int_equal(axl_queue_submit_graph(t.rig.q, x, NULL, 0, NULL),
                     AXL_ERR_FEATURE_NOT_SUPPORTED);
    assert_non_null(strstr(axl_last_message(), "a graph runs one design"));
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    assert_int_equal(axl_test_pool("reprogramming").high_water, before);
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    two_down(&t);
}

/*
 * 1.4: designs on one device share its banks, matched by base address. A
 * design whose memory is none of them (here design B with its memories
 * moved to 0x7000000000, MEM_TOPOLOGY patched in a copy) is refused when
 * its bundle is obtained beside a held one, AXL_ERR_INVALID, naming the
 * memory and the way out; nothing is loaded and the held design runs on.
 */
static void a_design_whose_memory_is_no_bank_of_the_device_is_refused_1_4(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_designs_b_xclbin,
                                      axl_test_designs_b_xclbin_size));
    static uint8_t moved[64 * 1024];
    assert_true(axl_test_designs_b_xclbin_size <= sizeof moved);
    memcpy(moved, axl_test_designs_b_xclbin, axl_test_designs_b_xclbin_size);
    axl_xclbin x;
    AXL_OK(axl_xclbin_open(&x, moved, axl_test_designs_b_xclbin_size, NULL,
                           0));
    axl_xclbin_range topo; /* MEM_TOPOLOGY: m_count, then 40-byte entries */
    AXL_OK(axl_xclbin_get_section(&x, 6u, &topo));
    assert_true(topo.size >= 8u + 40u);
    int32_t count;
    memcpy(&count, moved + topo.offset, 4);
    for (int32_t m = 0; m < count; m++) {
        uint8_t *e = moved + topo.offset + 8u + 40u * (size_t)m;
        const uint64_t base = 0x7000000000ull + ((uint64_t)m << 32);
        memcpy(e + 16, &base, 8); /* m_base_address */
    }
    AXL_OK(axl_image_register(moved, axl_test_designs_b_xclbin_size));
    axl_test_rig rig = axl_test_rig_on(axl_test_emu_device(),
                                       AXL_QUEUE_IN_ORDER);
    const uint32_t loads = axl_test_pool("reprogramming").high_water;
    axl_kernel_id fir_id;
    AXL_OK(axl_get_kernel_id("fir", &fir_id));
    axl_kernel_bundle b;
    AXL_EXPECT(axl_get_kernel_bundle_for(rig.ctx, &rig.dev, 1, &fir_id, 1,
                                         AXL_BUNDLE_EXECUTABLE, &b),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("fir's design cannot load beside another");
    AXL_MESSAGE_HAS(", 0x7000000000) is no bank of");
    AXL_MESSAGE_HAS("designs on one device share its banks");
    assert_int_equal(axl_test_pool("reprogramming").high_water, loads);
    axl_test_rig_down(&rig);
}

#if defined(AXL_TEST_MMIO)
/*
 * 2.5: a design pinned by an open IP (axl/ip.h: the handle holds its
 * bundle's design; the emulated device opens none) is never swapped
 * out: a command of the other design fails at once, AXL_ERR_BAD_STATE,
 * naming the IP and the way out, instead of waiting for the application
 * to release it; nothing was loaded. Once the IP is released the swap
 * runs and both designs compute.
 */
static void a_pinned_design_fails_the_other_designs_commands_at_once_2_5(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_designs_b_xclbin,
                                      axl_test_designs_b_xclbin_size));
    struct two t;
    two_up(&t, AXL_QUEUE_IN_ORDER);
    vadd(&t, t.rig.q, NULL, 0, NULL); /* A is loaded */
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    const uint32_t loads = axl_test_pool("reprogramming").high_water;
    axl_ip ip;
    AXL_OK(axl_ip_open(t.rig.bundle, t.rig.dev, "vadd_2", &ip));
    axl_event e;
    fir(&t, t.rig.q, NULL, 0, &e);
    AXL_EXPECT(axl_event_wait(e), AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("keeps its design for open IP vadd");
    AXL_MESSAGE_HAS("nothing was loaded");
    AXL_OK(axl_event_release(e));
    AXL_EXPECT(axl_queue_wait_and_throw(t.rig.q), AXL_ERR_BAD_STATE);
    assert_int_equal(axl_test_pool("reprogramming").high_water, loads);
    AXL_OK(axl_ip_release(ip));
    fir(&t, t.rig.q, NULL, 0, NULL);
    vadd(&t, t.rig.q, NULL, 0, NULL);
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    assert_int_equal(axl_test_pool("reprogramming").high_water, loads + 2);
    check_results(&t);
    two_down(&t);
}
#endif

#if defined(AXL_TEST_MMIO)
/*
 * 2.2 step 4: a load the board refuses fails the commands that waited
 * for it, naming the device, the design and the board's why, and counts
 * a failure; every buffer keeps its bytes, and the next command of
 * either design loads its design again (the fabric's content is then
 * unknown to the runtime, and it says none).
 */
static void a_failed_load_fails_its_waiters_and_keeps_every_buffer_2_2(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_designs_b_xclbin,
                                      axl_test_designs_b_xclbin_size));
    struct two t;
    two_up(&t, AXL_QUEUE_IN_ORDER);
    vadd(&t, t.rig.q, NULL, 0, NULL); /* A is loaded, S written */
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    const axl_pool_stats before = axl_test_pool("reprogramming");
    axl_mmio_sim_fail_loads(true);
    axl_event e;
    fir(&t, t.rig.q, NULL, 0, &e);
    AXL_EXPECT(axl_event_wait(e), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("programming ");
    AXL_MESSAGE_HAS("with the design of fir failed");
    AXL_MESSAGE_HAS("the simulated board refused the design");
    AXL_OK(axl_event_release(e));
    AXL_EXPECT(axl_queue_wait_and_throw(t.rig.q), AXL_ERR_RUNTIME);
    const axl_pool_stats after = axl_test_pool("reprogramming");
    assert_int_equal(after.failures, before.failures + 1);
    assert_int_equal(after.high_water, before.high_water);
    assert_int_equal(after.in_use, 0);
    axl_mmio_sim_fail_loads(false);
    /* S kept vadd's sum through the failed load: read before any run. */
    int32_t sum[N];
    AXL_OK(axl_queue_copy_to_host(t.rig.q, t.S, NULL, sum, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    for (int i = 0; i < N; i++)
        assert_int_equal(sum[i], t.x[i] + t.y[i]);
    fir(&t, t.rig.q, NULL, 0, NULL);
    vadd(&t, t.rig.q, NULL, 0, NULL);
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    check_results(&t);
    two_down(&t);
}
#endif

#if defined(AXL_TEST_MMIO)
/*
 * Stage 4 (2.7, 2.2 step 4): a graph's submission that waited for a load
 * the board refused fails as a command would: its event says why (the
 * device, the design and the board's reason, not only "not run"), and
 * the graph replays once the design loads.
 */
static void a_graphs_failed_load_says_why_in_its_event_2_7(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_designs_b_xclbin,
                                      axl_test_designs_b_xclbin_size));
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    struct two t;
    two_up(&t, AXL_QUEUE_IN_ORDER);
    axl_graph g;
    AXL_OK(axl_graph_create(t.rig.ctx, t.rig.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, t.rig.q));
    fir(&t, t.rig.q, NULL, 0, NULL);
    AXL_OK(axl_graph_end_recording(g, t.rig.q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    vadd(&t, t.rig.q, NULL, 0, NULL); /* A is loaded */
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    axl_mmio_sim_fail_loads(true);
    axl_event e;
    AXL_OK(axl_queue_submit_graph(t.rig.q, x, NULL, 0, &e));
    AXL_EXPECT(axl_event_wait(e), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("with the design of fir failed");
    AXL_MESSAGE_HAS("the simulated board refused the design");
    AXL_OK(axl_event_release(e));
    AXL_EXPECT(axl_queue_wait_and_throw(t.rig.q), AXL_ERR_RUNTIME);
    axl_mmio_sim_fail_loads(false);
    AXL_OK(axl_queue_submit_graph(t.rig.q, x, NULL, 0, NULL));
    vadd(&t, t.rig.q, NULL, 0, NULL);
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    check_results(&t);
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    two_down(&t);
}
#endif

/* The trace as text (axl_trace_format's sink). */
static char doc[1u << 20];
static size_t doc_len;

static void mem_sink(const char *text, size_t len, void *user)
{
    (void)user;
    if (doc_len + len < sizeof doc) {
        memcpy(doc + doc_len, text, len);
        doc_len += len;
        doc[doc_len] = '\0';
    }
}

/* Events of the trace that start with `head` and hold `has` (before the
 * next event). */
static unsigned events_with(const char *head, const char *has)
{
    unsigned n = 0;
    for (const char *p = strstr(doc, head); p; p = strstr(p + 1, head)) {
        const char *end = strstr(p + 1, "\n");
        const char *at = strstr(p, has);
        n += at && (!end || at < end);
    }
    return n;
}

/* Every kernel slice is on the track named after its unit: a run slot
 * that ran vadd_1 and, after a swap, fir_b shows them on two tracks. How
 * many kernel slices were looked at. */
static unsigned kernels_on_their_units_tracks(void)
{
    unsigned n = 0;
    const char *head = "{\"ph\":\"X\",\"cat\":\"kernel\"";
    for (const char *p = strstr(doc, head); p; p = strstr(p + 1, head)) {
        unsigned pid, tid;
        char unit[64], want[160];
        const char *t = strstr(p, "\"pid\":");
        const char *u = strstr(p, "\"unit\":\"");
        assert_non_null(t);
        assert_non_null(u);
        assert_int_equal(sscanf(t, "\"pid\":%u,\"tid\":%u", &pid, &tid), 2);
        assert_int_equal(sscanf(u, "\"unit\":\"%63[^\"]", unit), 1);
        snprintf(want, sizeof want,
                 "\"pid\":%u,\"tid\":%u,\"args\":{\"name\":\"%s\"}", pid,
                 tid, unit);
        if (!strstr(doc, want))
            fail_msg("%s ran on track %u of device %u, not named %s", unit,
                     tid, pid, unit);
        n++;
    }
    return n;
}

/* The n-th program slice (0: the first), its whole line. */
static const char *program_slice(unsigned n, char *out, size_t size)
{
    const char *p = doc;
    for (unsigned i = 0;; i++, p++) {
        p = strstr(p, "\"cat\":\"program\"");
        if (!p)
            fail_msg("the trace has %u program records, not %u", i, n + 1);
        if (i == n)
            break;
    }
    const char *end = strstr(p, "\n");
    size_t len = end ? (size_t)(end - p) : strlen(p);
    len = len < size - 1 ? len : size - 1;
    memcpy(out, p, len);
    out[len] = '\0';
    return out;
}

/*
 * 2.6: a trace holds one program record per load, naming the design
 * loaded and the one it replaced, how long it took and how many commands
 * it was for, on a track of its own ("fabric"), with an arrow to each
 * command it released. fir, vadd, fir, vadd with vadd loaded: 4 loads.
 * Before issue 40 stage 3's trace record the trace had none (seen
 * failing: "the trace has 0 program records, not 1"); and a unit's
 * track was its run slot's, named after the first unit it ran, so after
 * a swap vadd_1 ran on "fir_b" (seen failing: "vadd_1 ran on track 1
 * of device 10, not named vadd_1").
 */
static void a_trace_holds_a_program_record_per_swap_2_6(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_designs_b_xclbin,
                                      axl_test_designs_b_xclbin_size));
    if (!AXL_TRACE_EVENTS)
        skip();
    struct two t;
    two_up(&t, AXL_QUEUE_IN_ORDER);
    vadd(&t, t.rig.q, NULL, 0, NULL); /* vadd's design loaded first */
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    AXL_OK(axl_trace_clear());
    AXL_OK(axl_trace_enable(true));
    for (int r = 0; r < 2; r++) {
        fir(&t, t.rig.q, NULL, 0, NULL);
        AXL_OK(axl_queue_wait_and_throw(t.rig.q));
        vadd(&t, t.rig.q, NULL, 0, NULL);
        AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    }
    AXL_OK(axl_trace_enable(false));
    doc_len = 0;
    doc[0] = '\0';
    AXL_OK(axl_trace_format(mem_sink, NULL, 0));
    const char *out = getenv("AXL_TEST_TRACE_OUT"); /* the tool's fixture */
    if (out)
        AXL_OK(axl_trace_write(out));
    char line[1024];
    for (unsigned i = 0; i < 4; i++) {
        program_slice(i, line, sizeof line);
        assert_non_null(strstr(line, i % 2 ? "\"design\":\"vadd\""
                                           : "\"design\":\"fir\""));
        assert_non_null(strstr(line, i % 2 ? "\"old_design\":\"fir\""
                                           : "\"old_design\":\"vadd\""));
        assert_non_null(strstr(line, "\"status\":\"AXL_SUCCESS\""));
        assert_non_null(strstr(line, "\"commands\":1,"));
        assert_non_null(strstr(line, "\"slot\":\"fabric\""));
        assert_non_null(strstr(line, "\"load_ns\":"));
        assert_non_null(strstr(line, "\"design_uuid8\":\""));
    }
    assert_int_equal(events_with("{\"ph\":\"X\"", "\"cat\":\"program\""),
                     4);
    /* Its track, named once; an arrow from it to each command it let go,
     * which names the load (not among its deps: no command). */
    assert_int_equal(events_with("{\"ph\":\"M\",\"name\":\"thread_name\"",
                                 "\"name\":\"fabric\""),
                     1);
    assert_int_equal(events_with("{\"ph\":\"s\"", "\"tid\":900,"), 4);
    assert_int_equal(events_with("{\"ph\":\"X\",\"cat\":\"kernel\"",
                                 ",\"program\":"),
                     4);
    /* A run slot's units of two designs on tracks of their own. */
    assert_int_equal(kernels_on_their_units_tracks(), 4);
    two_down(&t);
}

/*
 * 2.4: axl_kernel_info.loaded says whether a kernel's design is in its
 * device now, and flips across a swap; runnable stays true (the device
 * loads on demand); slot is -1 (the whole fabric). Before, the structure
 * had neither field (the test did not compile); with loaded answering as
 * runnable does, fir's first check fails.
 */
static void kernel_info_loaded_flips_across_a_swap_2_4(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_designs_b_xclbin,
                                      axl_test_designs_b_xclbin_size));
    struct two t;
    two_up(&t, AXL_QUEUE_IN_ORDER);
    vadd(&t, t.rig.q, NULL, 0, NULL);
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    axl_kernel_info a, b;
    AXL_OK(axl_kernel_get_info(t.rig.vadd, &a));
    AXL_OK(axl_kernel_get_info(t.fir, &b));
    assert_true(a.loaded);
    assert_false(b.loaded);
    assert_true(a.runnable && b.runnable);
    assert_int_equal(a.slot, -1);
    assert_int_equal(b.slot, -1);
    fir(&t, t.rig.q, NULL, 0, NULL);
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    AXL_OK(axl_kernel_get_info(t.rig.vadd, &a));
    AXL_OK(axl_kernel_get_info(t.fir, &b));
    assert_false(a.loaded);
    assert_true(b.loaded);
    assert_true(a.runnable && b.runnable);
    two_down(&t);
}

/* One thread's stream of one design's commands, each waited for. */
struct stream {
    struct two *t;
    axl_queue q;
    bool is_fir;
    axl_status st;
};

static void *stream_main(void *arg)
{
    struct stream *s = arg;
    s->st = AXL_SUCCESS;
    for (int i = 0; i < 40 && s->st == AXL_SUCCESS; i++) {
        s->st = s->is_fir
                    ? axl_queue_single_task(
                          s->q, s->t->fir,
                          AXL_ARGS(AXL_ARG_IN(s->t->I), AXL_ARG_IN(s->t->C),
                                   AXL_ARG_OUT(s->t->O), AXL_ARG_U32(TAPS),
                                   AXL_ARG_U32(N)),
                          NULL, 0, NULL)
                    : axl_queue_single_task(
                          s->q, s->t->rig.vadd,
                          AXL_ARGS(AXL_ARG_IN(s->t->X), AXL_ARG_IN(s->t->Y),
                                   AXL_ARG_OUT(s->t->S), AXL_ARG_U32(N)),
                          NULL, 0, NULL);
        if (s->st == AXL_SUCCESS && i % 4 == 3)
            s->st = axl_queue_wait_and_throw(s->q);
    }
    if (s->st == AXL_SUCCESS)
        s->st = axl_queue_wait_and_throw(s->q);
    return NULL;
}

/*
 * 2.1, 2.2: two threads, one a design each, submit and wait at once: the
 * claims race the dispatches and the runs' ends (run under TSan with
 * -R swap). Every command runs, with right results, and no design
 * starves the other.
 */
static void two_threads_of_two_designs_both_finish_with_right_results(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_designs_b_xclbin,
                                      axl_test_designs_b_xclbin_size));
    struct two t;
    two_up(&t, AXL_QUEUE_IN_ORDER);
    axl_queue qb;
    AXL_OK(axl_queue_create(t.rig.ctx, t.rig.dev, AXL_QUEUE_IN_ORDER, NULL,
                            &qb));
    struct stream a = {&t, t.rig.q, false, AXL_SUCCESS};
    struct stream b = {&t, qb, true, AXL_SUCCESS};
    pthread_t ta, tb;
    assert_int_equal(pthread_create(&ta, NULL, stream_main, &a), 0);
    assert_int_equal(pthread_create(&tb, NULL, stream_main, &b), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    AXL_OK(a.st);
    AXL_OK(b.st);
    assert_true(axl_test_pool("reprogramming").high_water >= 1);
    assert_int_equal(axl_test_pool("reprogramming").in_use, 0);
    check_results(&t);
    AXL_OK(axl_queue_release(qb));
    two_down(&t);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

/* fir's model for the next test, axl_test_holding_model: its first run
 * holds its unit until the test sets fir_hold.go. */
static axl_test_hold fir_hold;

/* A timed wait for a command whose design waits for the device (2.1)
 * says what keeps it out when it times out; the command goes on and
 * ends right once the other design's run is over. */
static void a_timed_wait_for_a_swap_says_what_the_device_runs_2_1(void **s)
{
    (void)s;
    struct two t;
    two_up(&t, 0); /* out of order: vadd waits for no command */
    AXL_OK(axl_emu_register_model("fir", axl_test_holding_model, &fir_hold));
    atomic_store(&fir_hold.runs, 0);
    atomic_store(&fir_hold.go, 0);
    axl_event ef, ea;
    fir(&t, t.rig.q, NULL, 0, &ef);
    for (int ms = 0; ms < 5000 && !atomic_load(&fir_hold.runs); ms++) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    vadd(&t, t.rig.q, NULL, 0, &ea);
    assert_int_equal(axl_event_wait_for(ea, 5000000), AXL_ERR_TIMEOUT);
    const char *m = axl_last_message();
    if (!strstr(m, "did not take the design of vadd within the time given "
                   "(the command goes on: wait again or poll): it runs fir "
                   "(1 run out)"))
        fail_msg("message \"%s\"", m);
    atomic_store(&fir_hold.go, 1);
    AXL_OK(axl_event_wait(ea));
    AXL_OK(axl_event_wait(ef));
    AXL_OK(axl_emu_register_model("fir", NULL, NULL));
    AXL_OK(axl_event_release(ef));
    fir(&t, t.rig.q, NULL, 0, &ef); /* the holding model computes nothing */
    AXL_OK(axl_event_wait(ef));
    check_results(&t);
    AXL_OK(axl_event_release(ea));
    AXL_OK(axl_event_release(ef));
    two_down(&t);
}

int main(void)
{
#if !AXL_FEATURE_DESIGN_SWAP
    /* Nothing swaps in this build: test_kernels and test_sycl_rules
     * check the refusal that stays. */
    printf("switched off: AXL_FEATURE_DESIGN_SWAP\n");
    return 0;
#endif
    const struct CMUnitTest tests[] = {
        T(a_waiting_command_never_waits_for_a_host_accessor_held_here),
        T(designs_take_turns_by_their_oldest_waiting_command_2_1),
        T(buffers_keep_their_bytes_across_swaps_2_3),
        T(a_device_that_forbids_swaps_refuses_a_second_design_2_5),
        T(two_threads_of_two_designs_both_finish_with_right_results),
        T(a_graph_replays_after_its_design_was_swapped_out_and_back),
        T(a_graph_and_a_command_of_two_designs_submitted_back_to_back),
        T(a_graph_of_two_designs_is_refused_at_its_submission),
        T(a_design_whose_memory_is_no_bank_of_the_device_is_refused_1_4),
        T(a_trace_holds_a_program_record_per_swap_2_6),
        T(kernel_info_loaded_flips_across_a_swap_2_4),
        T(a_timed_wait_for_a_swap_says_what_the_device_runs_2_1),
#if defined(AXL_TEST_MMIO)
        T(a_pinned_design_fails_the_other_designs_commands_at_once_2_5),
        T(a_hung_unit_fails_the_other_designs_commands_at_once_2_5),
        T(a_failed_load_fails_its_waiters_and_keeps_every_buffer_2_2),
        T(a_graphs_failed_load_says_why_in_its_event_2_7),
#endif
    };
    if (getenv("AXL_TEST_ONLY"))
        cmocka_set_test_filter(getenv("AXL_TEST_ONLY"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
