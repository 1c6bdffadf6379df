/*
 * test_plan_pipes.c - a plan holding a pipeline (axl/plan.h, format 3;
 * issue 39 item 5): plan_pipe, written at build time on the emulated
 * device from the graph start, mm2s, s2mm, stop (tests/unit/plans:
 * plan_graphs.h), replayed by the plan executor (xrt/mmio/fw_exec.c,
 * fw_pipe.c) on the C-model simulator carrying the streams design, and
 * compared with the same pipeline's direct run through the runtime.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "axl/axl.h"
#include "axl/emu.h"
#include "axl/mmio.h"
#include "axl/plan.h"
#include "axl_reader_skip.h"
#include "axl_test.h"
#include "mmio_sim.h"
#include "plan_graphs.h"

extern const axl_plan plan_pipe;

static uint32_t src[2][PLAN_PIPE_N], want[2][PLAN_PIPE_N];

static int setup(void **state)
{
    axl_test_setup_streams(state); /* the simulator's design: streams */
    axl_mmio_sim_defaults();
    return 0;
}

static int teardown(void **state)
{
    axl_mmio_sim_defaults();
    AXL_OK(axl_mmio_set_board(NULL));
    return axl_test_teardown(state);
}

static void words(axl_buffer b, uint32_t *w, int write)
{
    axl_host_accessor ha;
    void *p;
    AXL_OK(axl_host_accessor_create(b, write ? AXL_ACCESS_WRITE
                                             : AXL_ACCESS_READ,
                                    NULL, 0, &ha, &p));
    if (write)
        memcpy(p, w, sizeof src[0]);
    else
        memcpy(w, p, sizeof src[0]);
    AXL_OK(axl_host_accessor_release(ha));
}

/* The pipeline run directly with the runtime, once per input: started,
 * its packet, stopped (sadd_1, on auto-restart, may wait for a next
 * packet and is reset past the stop timeout): want[k] from src[k]. */
static void direct_runs(void)
{
    AXL_OK(axl_init());
    axl_device dev;
    AXL_OK(axl_device_select(axl_default_selector, NULL, &dev));
    plan_pipe_rig r;
    AXL_OK(plan_pipe_up(&r, dev));
    for (uint32_t k = 0; k < 2; k++) {
        for (uint32_t i = 0; i < PLAN_PIPE_N; i++)
            src[k][i] = (i + 7u * k + 1u) * 2654435761u;
        words(r.S, src[k], 1);
        AXL_OK(axl_pipeline_start(r.p));
        AXL_OK(plan_pipe_packet(&r));
        AXL_OK(axl_queue_wait(r.q));
        const axl_status st = axl_pipeline_stop(r.p, NULL);
        if (st != AXL_SUCCESS && st != AXL_ERR_TIMEOUT)
            fail_msg("axl_pipeline_stop: %s", axl_last_message());
        words(r.D, want[k], 0);
        for (uint32_t i = 0; i < PLAN_PIPE_N; i++)
            assert_int_equal(want[k][i], src[k][i] + PLAN_PIPE_ADD);
    }
    AXL_OK(plan_pipe_down(&r));
    AXL_OK(axl_shutdown());
}

static uint32_t *buf(axl_plan_id p, uint32_t i)
{
    void *host = NULL;
    AXL_OK(axl_plan_buffer(p, i, &host, NULL));
    return host;
}

/* plan.h, format 3: the written plan carries the pipeline (its
 * auto-restart unit, sadd_1, with the scalar it was given) and its start
 * and stop nodes; replayed twice with new input, it computes the direct
 * runs' bytes. */
static void a_pipelines_plan_replays_its_direct_runs_bytes(void **state)
{
    (void)state;
    assert_int_equal(plan_pipe.format, 3);
    assert_int_equal(plan_pipe.npipes, 1);
    assert_int_equal(plan_pipe.npipe_units, 1);
    assert_string_equal(plan_pipe.pipe_units[0].name, "sadd:sadd_1");
    assert_int_equal(plan_pipe.pipe_units[0].control,
                     AXL_PLAN_PIPE_AUTO_RESTART);
    assert_int_equal(plan_pipe.pipe_words[0].value, PLAN_PIPE_ADD);
    assert_int_equal(plan_pipe.nodes[0].kind, AXL_PLAN_NODE_PIPE_START);
    assert_int_equal(plan_pipe.nodes[3].kind, AXL_PLAN_NODE_PIPE_STOP);
    assert_ptr_equal(plan_pipe.pipelines, &axl_plan_pipelines);
    direct_runs();
    axl_plan_id p;
    AXL_OK(axl_plan_load(&plan_pipe, &p));
    for (uint32_t k = 0; k < 2; k++) {
        memcpy(buf(p, 0), src[k], sizeof src[k]);
        memset(buf(p, 1), 0xEE, sizeof src[k]);
        axl_plan_run run;
        AXL_OK(axl_plan_submit(p, &run));
        AXL_OK(axl_plan_wait(run, 1000000000u));
        assert_memory_equal(buf(p, 1), want[k], sizeof want[k]);
    }
    AXL_OK(axl_plan_unload(p));
}

/* plan_pipe's pipeline alone: its start, then its stop. */
static const uint16_t only_preds[1] = {0};
static axl_plan_node only_nodes[2] = {
    {.unit = 0, .kernel = "axl_pipeline_start",
     .kind = AXL_PLAN_NODE_PIPE_START},
    {.unit = 0, .pred0 = 0, .npreds = 1, .kernel = "axl_pipeline_stop",
     .kind = AXL_PLAN_NODE_PIPE_STOP},
};

static axl_plan start_and_stop(void)
{
    axl_plan only = plan_pipe;
    only.nnodes = 2;
    only.nodes = only_nodes;
    only.npreds = 1;
    only.preds = only_preds;
    only.nargs = 0;
    only.args = NULL;
    only.node_names = NULL;
    return only;
}

/* A plan of format 1 or 2 has no pipeline tables: one holding a pipeline
 * node is refused at load, naming its format (and the same tables load
 * as format 3). */
static void an_older_plan_with_a_pipeline_node_is_refused_naming_its_format(
    void **state)
{
    (void)state;
    axl_plan old = start_and_stop();
    old.format = 2;
    axl_plan_id p;
    assert_int_equal(axl_plan_load(&old, &p), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("node 0 is of kind 3 in a plan of format 2: not a "
                    "kernel or empty node, nor a pipeline's start or stop "
                    "(format 3, .pipelines set)");
    assert_int_equal(p.id, 0);
    const axl_plan now = start_and_stop();
    AXL_OK(axl_plan_load(&now, &p));
    AXL_OK(axl_plan_unload(p));
}

/* A stop waits for ap_idle up to the pipeline's stop timeout; a unit
 * still busy then, which neither ap_sw_reset nor the board's hook brings
 * back, fails the stop node, naming the unit and the timeout. */
static void a_stop_whose_unit_never_goes_idle_fails_naming_it(void **state)
{
    (void)state;
    const uint32_t ip = plan_pipe.pipe_units[0].ip_index;
    axl_mmio_sim_set_unit(ip, AXL_MMIO_SIM_NO_SW_RESET,
                          AXL_MMIO_SIM_NEVER_DONE, 0);
    static axl_mmio_board board; /* the simulator's, with no reset hook */
    board = *axl_mmio_sim_board();
    board.reset_unit = NULL;
    AXL_OK(axl_mmio_set_board(&board));
    const axl_plan only = start_and_stop();
    axl_plan_id p;
    AXL_OK(axl_plan_load(&only, &p));
    axl_plan_run run;
    AXL_OK(axl_plan_submit(p, &run));
    assert_int_equal(axl_plan_wait(run, 1000000000u), AXL_ERR_TIMEOUT);
    AXL_MESSAGE_HAS("plan plan_pipe: node 1 (pipeline 0's stop) failed: ");
    AXL_MESSAGE_HAS("sadd_1 was still busy 20000 ns after auto-restart was "
                    "cleared");
    AXL_MESSAGE_HAS("did not reset");
    AXL_OK(axl_plan_unload(p));
}

int main(void)
{
    if (axl_test_without_reader())
        return 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(
            a_pipelines_plan_replays_its_direct_runs_bytes, setup,
            teardown),
        cmocka_unit_test_setup_teardown(
            an_older_plan_with_a_pipeline_node_is_refused_naming_its_format,
            setup, teardown),
        /* Last: it leaves a unit that never goes idle. */
        cmocka_unit_test_setup_teardown(
            a_stop_whose_unit_never_goes_idle_fails_naming_it, setup,
            teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
