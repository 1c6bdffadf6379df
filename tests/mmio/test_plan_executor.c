/*
 * test_plan_executor.c - the plan executor (axl/plan.h, xrt/mmio/fw_exec.c)
 * on the C-model register simulator: plans written by hand here, so each
 * table says exactly what a test needs (tests/unit/test_plans.c checks
 * the plans the writer makes, and that a written plan replays as the
 * graph does).
 *
 * The design is the simulator's (the stock design: vadd on two units,
 * in1 0x10, in2 0x1C, out 0x28, size 0x34).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "axl/axl.h"
#include "axl/mmio.h"
#include "axl/plan.h"
#include "axl_test.h"
#include "mmio_sim.h"

#define N 64u /* elements of each vector */

static axl_plan_unit units[2] = {
    {0, 1, 0, "vadd:vadd_1"},
    {1, 1, 0, "vadd:vadd_2"},
};
static axl_plan_buffer_desc buffers[4];
/* node 0: C = A + B on vadd_1; node 1: D = C + A on vadd_2, after 0. */
static const axl_plan_arg args[8] = {
    {0, 0x10, 8, AXL_PLAN_ARG_BUFFER, 0, 0, 0},
    {1, 0x1C, 8, AXL_PLAN_ARG_BUFFER, 1, 0, 0},
    {2, 0x28, 8, AXL_PLAN_ARG_BUFFER, 2, 0, 0},
    {3, 0x34, 4, AXL_PLAN_ARG_SCALAR, 0, 4, 0},
    {0, 0x10, 8, AXL_PLAN_ARG_BUFFER, 2, 0, 0},
    {1, 0x1C, 8, AXL_PLAN_ARG_BUFFER, 0, 0, 0},
    {2, 0x28, 8, AXL_PLAN_ARG_BUFFER, 3, 0, 0},
    {3, 0x34, 4, AXL_PLAN_ARG_SCALAR, 4, 4, 0},
};
static const uint16_t preds[1] = {0};
static axl_plan_node nodes[2] = {
    {.unit = 0, .arg0 = 0, .nargs = 4, .pred0 = 0, .npreds = 0,
     .kernel = "vadd"},
    {.unit = 1, .arg0 = 4, .nargs = 4, .pred0 = 0, .npreds = 1,
     .kernel = "vadd"},
};
static const uint8_t scalars[8] = {N, 0, 0, 0, N, 0, 0, 0};
static axl_plan chain;

/* The plan for the simulator's board: its design's UUID, its first bank. */
static int setup(void **state)
{
    (void)state;
    axl_mmio_sim_defaults();
    const axl_mmio_board *bd = axl_mmio_sim_board();
    assert_non_null(bd);
    assert_true(bd->bank_count >= 1);
    for (uint32_t b = 0; b < 4; b++)
        buffers[b] = (axl_plan_buffer_desc){
            N * 4u, bd->banks[0].mem_index, 64,
            (b < 2 ? AXL_PLAN_READ : AXL_PLAN_READ | AXL_PLAN_WRITE) |
                AXL_PLAN_UPDATABLE};
    chain = (axl_plan){
        .format = AXL_PLAN_FORMAT, .name = "chain",
        .nunits = 2, .nbuffers = 4, .nnodes = 2, .nargs = 8, .npreds = 1,
        .scalar_bytes = 8, .units = units, .buffers = buffers,
        .nodes = nodes, .args = args, .preds = preds, .scalars = scalars};
    memcpy(chain.uuid, bd->predigested ? bd->predigested->uuid
                                       : (const uint8_t *)bd->design + 416,
           16);
    return 0;
}

static uint32_t *buf(axl_plan_id p, uint32_t i)
{
    void *host = NULL;
    assert_int_equal(axl_plan_buffer(p, i, &host, NULL), AXL_SUCCESS);
    return host;
}

/* Loads the chain with A[i] = i + seed, B[i] = 3i. */
static axl_plan_id load_chain(uint32_t seed)
{
    axl_plan_id p;
    assert_int_equal(axl_plan_load(&chain, &p), AXL_SUCCESS);
    uint32_t *a = buf(p, 0), *b = buf(p, 1);
    for (uint32_t i = 0; i < N; i++) {
        a[i] = i + seed;
        b[i] = 3u * i;
    }
    return p;
}

/* plan.h, axl_plan_submit/axl_plan_wait: a node starts after the nodes it
 * waits for have ended, on its unit; D = C + A is right only after C. */
static void a_plan_runs_each_node_after_its_predecessors(void **state)
{
    (void)state;
    axl_plan_id p = load_chain(5);
    for (uint32_t round = 0; round < 3; round++) {
        memset(buf(p, 3), 0, N * 4u);
        axl_plan_run r;
        assert_int_equal(axl_plan_submit(p, &r), AXL_SUCCESS);
        assert_int_equal(axl_plan_wait(r, 0), AXL_SUCCESS);
        const uint32_t *a = buf(p, 0), *d = buf(p, 3);
        for (uint32_t i = 0; i < N; i++)
            assert_int_equal(d[i], 2u * a[i] + 3u * i);
        buf(p, 0)[round] += 100u; /* the next round reads the new bytes */
    }
    assert_int_equal(axl_plan_unload(p), AXL_SUCCESS);
}

/* axl_plan_set_scalar: from the next submission on; node 1 with a
 * smaller size leaves the rest of D alone. */
static void a_scalar_update_reaches_the_next_submission(void **state)
{
    (void)state;
    axl_plan_id p = load_chain(1);
    uint32_t half = N / 2u;
    assert_int_equal(axl_plan_set_scalar(p, 1, 3, &half, sizeof half),
                     AXL_SUCCESS);
    uint32_t *d = buf(p, 3);
    for (uint32_t i = 0; i < N; i++)
        d[i] = 0xdeadu;
    axl_plan_run r;
    assert_int_equal(axl_plan_submit(p, &r), AXL_SUCCESS);
    int done = 0;
    axl_status st;
    while ((st = axl_plan_poll(r, &done)) == AXL_SUCCESS && !done)
        ;
    assert_int_equal(st, AXL_SUCCESS);
    const uint32_t *a = buf(p, 0);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(d[i], i < half ? 2u * a[i] + 3u * i : 0xdeadu);
    /* Refused without a change: not a scalar, the wrong size, no node. */
    assert_int_equal(axl_plan_set_scalar(p, 1, 0, &half, 4), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("no scalar argument 0");
    assert_int_equal(axl_plan_set_scalar(p, 1, 3, &half, 2), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("is 4 bytes; 2 given");
    assert_int_equal(axl_plan_set_scalar(p, 2, 3, &half, 4), AXL_ERR_INVALID);
    assert_int_equal(axl_plan_unload(p), AXL_SUCCESS);
}

/* axl_plan_set_buffer: double buffering in the same bank, checked. */
static void a_buffer_update_swaps_memory_of_the_same_bank(void **state)
{
    (void)state;
    axl_plan_id p = load_chain(7);
    /* Memory of the firmware's in the same region, after the plan's. */
    const axl_mmio_board *bd = axl_mmio_sim_board();
    const axl_mmio_bank_region *g = &bd->banks[0];
    uint64_t d_phys;
    assert_int_equal(axl_plan_buffer(p, 3, NULL, &d_phys), AXL_SUCCESS);
    /* At the board's alignment (4 KiB: AXL_MMIO_BUFFER_ALIGN). */
    const uint64_t other = (d_phys + 4u * N + 4095u) & ~(uint64_t)4095u;
    uint32_t *host = (uint32_t *)((unsigned char *)g->host +
                                  (other - g->phys));
    assert_int_equal(axl_plan_set_buffer(p, 3, host, other, N * 4u),
                     AXL_SUCCESS);
    memset(host, 0, N * 4u);
    memset(buf(p, 3), 0, 0); /* buf() now answers the new memory */
    assert_ptr_equal(buf(p, 3), host);
    axl_plan_run r;
    assert_int_equal(axl_plan_submit(p, &r), AXL_SUCCESS);
    assert_int_equal(axl_plan_wait(r, 0), AXL_SUCCESS);
    const uint32_t *a = buf(p, 0);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(host[i], 2u * a[i] + 3u * i);
    /* Too small, misaligned, outside the bank, a wrong host view. */
    assert_int_equal(axl_plan_set_buffer(p, 3, host, other, N),
                     AXL_ERR_INVALID);
    assert_int_equal(axl_plan_set_buffer(p, 3, host + 1, other + 4, N * 4u),
                     AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("aligned to 4096");
    assert_int_equal(axl_plan_set_buffer(p, 3, host, g->phys + g->size,
                                         N * 4u),
                     AXL_ERR_INVALID);
    assert_int_equal(axl_plan_set_buffer(p, 3, host + 16, other, N * 4u),
                     AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("the CPU's view");
    assert_ptr_equal(buf(p, 3), host); /* unchanged by the refusals */
    assert_int_equal(axl_plan_set_buffer(p, 3, NULL, 0, 0), AXL_SUCCESS);
    assert_int_not_equal((uintptr_t)buf(p, 3), (uintptr_t)host);
    assert_int_equal(axl_plan_unload(p), AXL_SUCCESS);
}

/* The executor writes none of a node's registers when its unit holds
 * what that node's last start wrote; an update between submissions must
 * still reach the registers (and nodes that wrote the same words share
 * what the unit holds until one of them is updated). */
static void an_update_between_submissions_reaches_the_registers(void **state)
{
    (void)state;
    /* Both nodes on vadd_1 with the same arguments: D = A + B twice. */
    axl_plan_node same[2] = {nodes[0], nodes[1]};
    static const uint16_t first[1] = {0};
    axl_plan_arg args2[8];
    memcpy(args2, args, 4 * sizeof args[0]);
    memcpy(args2 + 4, args, 4 * sizeof args[0]);
    args2[7].ref = 4; /* its own scalar, as the writer gives each */
    same[1].unit = 0;
    axl_plan twice = chain;
    twice.nodes = same;
    twice.preds = first;
    twice.args = args2;
    axl_plan_id p;
    assert_int_equal(axl_plan_load(&twice, &p), AXL_SUCCESS);
    uint32_t *a = buf(p, 0), *b = buf(p, 1), *c = buf(p, 2);
    for (uint32_t i = 0; i < N; i++) {
        a[i] = i;
        b[i] = 1000u;
    }
    axl_plan_run r;
    memset(c, 0, N * 4u);
    assert_int_equal(axl_plan_submit(p, &r), AXL_SUCCESS);
    assert_int_equal(axl_plan_wait(r, 0), AXL_SUCCESS);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(c[i], i + 1000u);
    /* Node 1's size halved: node 0 still writes all of C, node 1 the
     * first half again (its register rewritten, node 0's too after it). */
    uint32_t half = N / 2u;
    assert_int_equal(axl_plan_set_scalar(p, 1, 3, &half, 4), AXL_SUCCESS);
    for (uint32_t i = 0; i < N; i++)
        b[i] = 2000u;
    memset(c, 0, N * 4u);
    assert_int_equal(axl_plan_submit(p, &r), AXL_SUCCESS);
    assert_int_equal(axl_plan_wait(r, 0), AXL_SUCCESS);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(c[i], i + 2000u);
    /* Node 0's size halved too: the second half of C stays as it was. */
    assert_int_equal(axl_plan_set_scalar(p, 0, 3, &half, 4), AXL_SUCCESS);
    for (uint32_t i = 0; i < N; i++)
        c[i] = 7u;
    assert_int_equal(axl_plan_submit(p, &r), AXL_SUCCESS);
    assert_int_equal(axl_plan_wait(r, 0), AXL_SUCCESS);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(c[i], i < half ? i + 2000u : 7u);
    /* B replaced after runs: the units' address registers follow. */
    const axl_mmio_board *bd = axl_mmio_sim_board();
    const axl_mmio_bank_region *g = &bd->banks[0];
    uint64_t c_phys;
    assert_int_equal(axl_plan_buffer(p, 3, NULL, &c_phys), AXL_SUCCESS);
    const uint64_t other = (c_phys + 4u * N + 4095u) & ~(uint64_t)4095u;
    uint32_t *nb = (uint32_t *)((unsigned char *)g->host +
                                (other - g->phys));
    for (uint32_t i = 0; i < N; i++)
        nb[i] = 3000u;
    assert_int_equal(axl_plan_set_buffer(p, 1, nb, other, N * 4u),
                     AXL_SUCCESS);
    assert_int_equal(axl_plan_submit(p, &r), AXL_SUCCESS);
    assert_int_equal(axl_plan_wait(r, 0), AXL_SUCCESS);
    for (uint32_t i = 0; i < half; i++)
        assert_int_equal(c[i], i + 3000u);
    assert_int_equal(axl_plan_unload(p), AXL_SUCCESS);
}

/* axl_plan_load: a plan made for another design is refused, naming the
 * UUIDs; so is a bank the board has no region for, and tables that do
 * not hold together. Nothing is loaded. */
static void load_refuses_what_does_not_match_the_board(void **state)
{
    (void)state;
    axl_plan other = chain;
    other.uuid[0] ^= 0xffu;
    axl_plan_id p = {77};
    assert_int_equal(axl_plan_load(&other, &p), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("UUID");
    assert_int_equal(p.id, 0);

    axl_plan_buffer_desc far[4];
    memcpy(far, buffers, sizeof far);
    far[2].bank = 60;
    other = chain;
    other.buffers = far;
    assert_int_equal(axl_plan_load(&other, &p), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("bank 60");

    far[2] = buffers[2];
    far[2].size = 1u << 30;
    assert_int_equal(axl_plan_load(&other, &p), AXL_ERR_OUT_OF_RESOURCES);
    AXL_MESSAGE_HAS("does not fit");

    axl_plan_node back[2] = {nodes[0], nodes[1]};
    static const uint16_t self[1] = {1};
    back[1].pred0 = 0;
    other = chain;
    other.nodes = back;
    other.preds = self;
    assert_int_equal(axl_plan_load(&other, &p), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("not before it");

    /* Nodes whose edges share the table's entries: more edges in all
     * than the table holds (64 named in a table of 32), which the
     * successor lists, sized by the table, cannot hold. Refused. */
    static const uint16_t zeros[32] = {0};
    axl_plan_node shared[3] = {nodes[0], nodes[1], nodes[1]};
    shared[1].pred0 = shared[2].pred0 = 0;
    shared[1].npreds = shared[2].npreds = 32;
    other = chain;
    other.nnodes = 3;
    other.nodes = shared;
    other.preds = zeros;
    other.npreds = 32;
    assert_int_equal(axl_plan_load(&other, &p), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("node 2 names edges");

    other = chain;
    other.format = AXL_PLAN_FORMAT + 1u;
    assert_int_equal(axl_plan_load(&other, &p), AXL_ERR_INVALID);

    /* A node of two runs (a recorded parallel_for's chunks as one node)
     * with the executor's default AXL_PLAN_SEVERAL_RUNS 0: refused,
     * naming the switch (mmio_config.h). */
    static const axl_plan_node_run two[2] = {{0, 0, 4}, {0, 0, 4}};
    axl_plan_node wide[2] = {nodes[0], nodes[1]};
    wide[0].run0 = 0;
    wide[0].nruns = 2;
    other = chain;
    other.nodes = wide;
    other.runs = two;
    other.nruns = 2;
    assert_int_equal(axl_plan_load(&other, &p),
                     AXL_ERR_FEATURE_NOT_SUPPORTED);
    AXL_MESSAGE_HAS("AXL_PLAN_SEVERAL_RUNS");

    /* The refusals left nothing behind: the plan loads and runs. */
    p = load_chain(0);
    axl_plan_run r;
    assert_int_equal(axl_plan_submit(p, &r), AXL_SUCCESS);
    assert_int_equal(axl_plan_wait(r, 0), AXL_SUCCESS);
    assert_int_equal(axl_plan_unload(p), AXL_SUCCESS);
}

/* Handles: an unloaded plan's id and an old submission are refused;
 * while a submission runs, updates, another submission and unloading
 * are AXL_ERR_BAD_STATE. Unloading gives the bytes back. */
static void ids_and_states_are_checked(void **state)
{
    (void)state;
    axl_plan_id p = load_chain(2);
    uint64_t first;
    assert_int_equal(axl_plan_buffer(p, 0, NULL, &first), AXL_SUCCESS);
    axl_plan_id q = load_chain(2); /* placed after p */
    uint64_t second;
    assert_int_equal(axl_plan_buffer(q, 0, NULL, &second), AXL_SUCCESS);
    assert_true(second >= first + 4u * 4u * N);
    axl_plan_id third;
    assert_int_equal(axl_plan_load(&chain, &third),
                     AXL_ERR_OUT_OF_RESOURCES); /* AXL_PLAN_LOADED is 2 */

    axl_mmio_sim_set_unit(1, 0, AXL_MMIO_SIM_DONE_AFTER_POLLS, 50);
    axl_plan_run r;
    assert_int_equal(axl_plan_submit(q, &r), AXL_SUCCESS);
    uint32_t n = N;
    axl_plan_run again;
    assert_int_equal(axl_plan_submit(q, &again), AXL_ERR_BAD_STATE);
    assert_int_equal(axl_plan_set_scalar(q, 0, 3, &n, 4), AXL_ERR_BAD_STATE);
    assert_int_equal(axl_plan_unload(q), AXL_ERR_BAD_STATE);
    assert_int_equal(axl_plan_wait(r, 0), AXL_SUCCESS);
    assert_int_equal(axl_plan_wait(r, 0), AXL_SUCCESS); /* once more */

    assert_int_equal(axl_plan_unload(q), AXL_SUCCESS);
    assert_int_equal(axl_plan_buffer(q, 0, NULL, NULL),
                     AXL_ERR_INVALID_OBJECT);
    assert_int_equal(axl_plan_wait(r, 0), AXL_ERR_INVALID_OBJECT);
    assert_int_equal(axl_plan_unload(p), AXL_SUCCESS);
    p = load_chain(2); /* the region is whole again */
    uint64_t now;
    assert_int_equal(axl_plan_buffer(p, 0, NULL, &now), AXL_SUCCESS);
    assert_true(now == first);
    assert_int_equal(axl_plan_unload(p), AXL_SUCCESS);
    axl_mmio_sim_defaults();
}

/* axl_plan_wait: a node that fails fails the run with a message naming
 * it, and the nodes after it do not run; a timeout leaves the run going. */
static void a_failed_node_fails_the_run_and_the_nodes_after_it(void **state)
{
    (void)state;
    axl_mmio_sim_set_unit(0, 0, AXL_MMIO_SIM_ALL_ONES, 0);
    axl_plan_id p = load_chain(3);
    uint32_t *d = buf(p, 3);
    d[0] = 0x5a5au;
    axl_plan_run r;
    assert_int_equal(axl_plan_submit(p, &r), AXL_SUCCESS);
    assert_int_equal(axl_plan_wait(r, 0), AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("node 0 (vadd)");
    AXL_MESSAGE_HAS("reads all ones");
    assert_int_equal(d[0], 0x5a5au); /* node 1 did not run */
    assert_int_equal(axl_plan_unload(p), AXL_SUCCESS);

    axl_mmio_sim_set_unit(0, 0, AXL_MMIO_SIM_NEVER_DONE, 0);
    p = load_chain(3);
    assert_int_equal(axl_plan_submit(p, &r), AXL_SUCCESS);
    assert_int_equal(axl_plan_wait(r, 2000000), AXL_ERR_TIMEOUT);
    AXL_MESSAGE_HAS("2 of 2 nodes left");
    int done = 1;
    assert_int_equal(axl_plan_poll(r, &done), AXL_SUCCESS);
    assert_int_equal(done, 0);
}

/* One owner of the units at a time (mmio_unit.h): plans are refused
 * while the runtime has the mmio device open. */
static void plans_and_the_runtime_do_not_share_units(void **state)
{
    (void)state;
    axl_mmio_sim_defaults();
    assert_int_equal(axl_init(), AXL_SUCCESS);
    axl_plan_id p;
    assert_int_equal(axl_plan_load(&chain, &p), AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("axl_shutdown first");
    assert_int_equal(axl_shutdown(), AXL_SUCCESS);
    p = load_chain(4);
    assert_int_equal(axl_plan_unload(p), AXL_SUCCESS);
}

/* axl_plan_find_buffer / axl_plan_find_node (plan.h): by the names the
 * plan carries (format 2), in the const tables, loaded or not; a plan of
 * format 1 has none and still loads, as one of format 2 does. */
static void buffers_and_nodes_are_found_by_their_names(void **state)
{
    (void)state;
    static const char *const bnames[4] = {"a", "b", NULL, "d"};
    static const char *const nnames[2] = {NULL, "twice"};
    axl_plan named = chain;
    named.buffer_names = bnames;
    named.node_names = nnames;
    uint32_t i = 99;
    assert_int_equal(axl_plan_find_buffer(&named, "d", &i), AXL_SUCCESS);
    assert_int_equal(i, 3);
    assert_int_equal(axl_plan_find_node(&named, "twice", &i), AXL_SUCCESS);
    assert_int_equal(i, 1);
    i = 99;
    assert_int_equal(axl_plan_find_buffer(&named, "c", &i), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("plan chain: no buffer named \"c\"");
    assert_int_equal(i, 99);
    assert_int_equal(axl_plan_find_node(&chain, "twice", &i),
                     AXL_ERR_INVALID);
    /* Format 1: no names, loads as before. */
    axl_plan old = chain;
    old.format = 1;
    assert_int_equal(axl_plan_find_buffer(&old, "a", &i), AXL_ERR_INVALID);
    axl_plan_id p;
    assert_int_equal(axl_plan_load(&old, &p), AXL_SUCCESS);
    assert_int_equal(axl_plan_unload(p), AXL_SUCCESS);
    /* Format 2 (names, no pipelines: format 3 added them) loads too. */
    old = named;
    old.format = 2;
    assert_int_equal(axl_plan_load(&old, &p), AXL_SUCCESS);
    assert_int_equal(axl_plan_unload(p), AXL_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plans_and_the_runtime_do_not_share_units),
        cmocka_unit_test(a_plan_runs_each_node_after_its_predecessors),
        cmocka_unit_test(a_scalar_update_reaches_the_next_submission),
        cmocka_unit_test(a_buffer_update_swaps_memory_of_the_same_bank),
        cmocka_unit_test(an_update_between_submissions_reaches_the_registers),
        cmocka_unit_test(load_refuses_what_does_not_match_the_board),
        cmocka_unit_test(ids_and_states_are_checked),
        cmocka_unit_test(buffers_and_nodes_are_found_by_their_names),
        /* Last: it leaves a unit that never finishes. */
        cmocka_unit_test(a_failed_node_fails_the_run_and_the_nodes_after_it),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
