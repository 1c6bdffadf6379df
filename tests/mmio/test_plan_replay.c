/*
 * test_plan_replay.c - a written plan replays as its graph runs (issue 30
 * item 3): the test graphs (tests/unit/plans: plan_graphs.h), recorded
 * once with the full runtime on this build's mmio device and submitted,
 * then their plans, written at build time on the emulated device
 * (axl_add_plan), loaded and submitted by the executor on the same
 * device's model, from the same bytes: every buffer must come out the
 * same. Built twice: on the C-model simulator (label mmio) and on the
 * stock design's RTL under Verilator (label rtl).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "axl/axl.h"
#include "axl/plan.h"
#include "plan_graphs.h"

extern const axl_plan plan_small, plan_pair, plan_chain, plan_beside;

enum { MAX_BYTES = 1024 };

static uint8_t before[8][MAX_BYTES]; /* each base buffer's bytes going in */
static uint8_t graph_out[8][MAX_BYTES]; /* and out of the graph's run */

#define OK(call)                                                               \
    do {                                                                       \
        axl_status st_ = (call);                                               \
        if (st_ != AXL_SUCCESS)                                                \
            fail_msg("%s: %s: %s", #call, axl_status_name(st_),                \
                     axl_last_message());                                      \
    } while (0)

/* Bytes no kernel's result could come from by chance: small values, so
 * vadd's sums, fir's taps and conv2d's shifts stay in range. */
static void fill(uint32_t seed)
{
    for (uint32_t b = 0; b < 8; b++)
        for (uint32_t i = 0; i < MAX_BYTES; i++)
            before[b][i] = (uint8_t)((i * 7u + b * 13u + seed) % 23u);
}

/* The graph with the runtime: the buffers written from `before`, one
 * submission, every base buffer read back. */
static void run_graph(const char *name, uint32_t nbuffers)
{
    OK(axl_init());
    axl_device dev;
    OK(axl_device_select(axl_default_selector, NULL, &dev));
    plan_rig r;
    OK(plan_rig_up(&r, dev));
    axl_graph_exec x;
    OK(plan_rig_finalize(&r, name, &x));
    assert_true(r.nb >= nbuffers);
    for (uint32_t b = 0; b < nbuffers; b++) {
        size_t n = 0;
        OK(axl_buffer_get_byte_size(r.b[b], &n));
        assert_true(n <= MAX_BYTES);
        OK(axl_queue_copy_from_host(r.q, before[b], r.b[b], NULL, NULL, 0,
                                    NULL));
    }
    axl_event e;
    OK(axl_queue_submit_graph(r.q, x, NULL, 0, &e));
    OK(axl_event_wait(e));
    OK(axl_event_release(e));
    for (uint32_t b = 0; b < nbuffers; b++)
        OK(axl_queue_copy_to_host(r.q, r.b[b], NULL, graph_out[b], NULL, 0,
                                  NULL));
    OK(axl_queue_wait(r.q));
    OK(axl_graph_exec_release(x));
    OK(plan_rig_down(&r));
    OK(axl_shutdown());
}

/* The plan with the executor, from the same bytes; compared. */
static void run_plan(const axl_plan *p)
{
    axl_plan_id id;
    OK(axl_plan_load(p, &id));
    for (uint32_t b = 0; b < p->nbuffers; b++) {
        void *host;
        OK(axl_plan_buffer(id, b, &host, NULL));
        memcpy(host, before[b], (size_t)p->buffers[b].size);
    }
    axl_plan_run run;
    OK(axl_plan_submit(id, &run));
    OK(axl_plan_wait(run, 0));
    for (uint32_t b = 0; b < p->nbuffers; b++) {
        void *host;
        OK(axl_plan_buffer(id, b, &host, NULL));
        if (memcmp(host, graph_out[b], (size_t)p->buffers[b].size)) {
            const uint8_t *h = host;
            uint32_t i = 0;
            while (h[i] == graph_out[b][i])
                i++;
            fail_msg("plan %s, buffer %u, byte %u: 0x%02x, the graph's 0x%02x",
                     p->name, (unsigned)b, (unsigned)i, h[i],
                     graph_out[b][i]);
        }
        /* And the kernels did run: an output differs from its input. */
    }
    OK(axl_plan_unload(id));
}

static void same_bytes(const axl_plan *p, uint32_t seed)
{
    fill(seed);
    run_graph(p->name, p->nbuffers);
    int moved = 0;
    for (uint32_t b = 0; b < p->nbuffers; b++)
        moved |= memcmp(before[b], graph_out[b],
                        (size_t)p->buffers[b].size) != 0;
    assert_true(moved); /* the graph wrote something */
    run_plan(p);
}

/* Each test graph (plan_graphs.h): its plan, replayed, leaves every buffer
 * as the graph run with the runtime leaves it. */
static void a_plan_of_vadd_fir_and_a_sub_buffer_gives_the_graphs_bytes(
    void **state)
{
    (void)state;
    same_bytes(&plan_small, 1);
}

static void a_plan_of_two_independent_nodes_gives_the_graphs_bytes(
    void **state)
{
    (void)state;
    same_bytes(&plan_pair, 2);
}

static void a_plan_of_a_chain_gives_the_graphs_bytes(void **state)
{
    (void)state;
    same_bytes(&plan_chain, 3);
}

static void a_plan_of_nodes_beside_each_other_gives_the_graphs_bytes(
    void **state)
{
    (void)state;
    same_bytes(&plan_beside, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            a_plan_of_vadd_fir_and_a_sub_buffer_gives_the_graphs_bytes),
        cmocka_unit_test(
            a_plan_of_two_independent_nodes_gives_the_graphs_bytes),
        cmocka_unit_test(a_plan_of_a_chain_gives_the_graphs_bytes),
        cmocka_unit_test(
            a_plan_of_nodes_beside_each_other_gives_the_graphs_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
