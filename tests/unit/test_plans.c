/*
 * Plans (axl/plan.h): axl_plan_write's promises. The plans of the test
 * graphs (unit/plans/plan_graphs.h) are written at build time by a
 * program of this build (axl_add_plan) and compiled in here, so the first
 * tests read the tables a firmware would link: what each node runs on,
 * its argument registers, its edges, its buffers. The others call
 * axl_plan_write on graphs made here: what it refuses, and its sizing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axl_test.h"
#include "axl_config.h"
#include "axl/plan.h"
#include "axl/xclbin.h"

enum { N = 64 };

#define NO_EXEC ((axl_graph_exec)AXL_NONE)

typedef axl_test_rig rig;

static axl_status vadd(rig *r, axl_buffer a, axl_buffer b, axl_buffer o,
                       axl_event *e)
{
    return axl_queue_single_task(r->q, r->vadd,
                                 AXL_ARGS(AXL_ARG_IN(a), AXL_ARG_IN(b),
                                          AXL_ARG_OUT(o), AXL_ARG_U32(N)),
                                 NULL, 0, e);
}

#if AXL_TEST_PLANS_WRITTEN
#include "plan_graphs.h"

extern const axl_plan plan_small, plan_pair, plan_chain, plan_beside;

/* The stock design as const data (tests/CMakeLists.txt links it in). */
extern const axl_xclbin_design axl_design_stock;

/* The IP_LAYOUT index of unit u of plan p. */
static uint32_t ip_of(const axl_plan *p, unsigned node)
{
    return p->units[p->nodes[node].unit].ip_index;
}

/* The stock design's IP_LAYOUT: vadd_1 0, vadd_2 1, fir_1 3. */
enum { VADD_1 = 0, VADD_2 = 1, FIR_1 = 3 };

static void check_arg(const axl_plan_arg *a, uint32_t id, uint16_t offset,
                      uint8_t size, uint8_t kind)
{
    assert_int_equal(a->id, id);
    assert_int_equal(a->offset, offset);
    assert_int_equal(a->size, size);
    assert_int_equal(a->kind, kind);
}

/* The scalar argument a's value, as a uint32. */
static uint32_t scalar_u32(const axl_plan *p, const axl_plan_arg *a)
{
    assert_int_equal(a->kind, AXL_PLAN_ARG_SCALAR);
    assert_int_equal(a->bytes, 4);
    assert_true(a->ref + a->bytes <= p->scalar_bytes);
    uint32_t v;
    memcpy(&v, p->scalars + a->ref, 4);
    return v;
}

static void a_written_plan_compiles_and_its_tables_say_what_the_graph_recorded(
    void **s)
{
    (void)s;
    const axl_plan *p = &plan_small;
    assert_int_equal(p->format, AXL_PLAN_FORMAT);
    assert_string_equal(p->name, "plan_small");
    assert_memory_equal(p->uuid, axl_design_stock.uuid, 16);
    /* Nodes in recording order, each with its kernel; the third waits for
     * the first (it reads C, which the first writes), and for nothing
     * else: the fir beside them is no edge. */
    assert_int_equal(p->nnodes, 3);
    assert_string_equal(p->nodes[0].kernel, "vadd");
    assert_string_equal(p->nodes[1].kernel, "fir");
    assert_string_equal(p->nodes[2].kernel, "vadd");
    assert_int_equal(p->nodes[0].npreds, 0);
    assert_int_equal(p->nodes[1].npreds, 0);
    assert_int_equal(p->nodes[2].npreds, 1);
    assert_int_equal(p->npreds, 1);
    assert_int_equal(p->preds[p->nodes[2].pred0], 0);
    /* Units: the third node's only neighbour is the fir, so it stays on
     * vadd_1; the table has the two units the nodes use. */
    assert_int_equal(p->nunits, 2);
    assert_int_equal(ip_of(p, 0), VADD_1);
    assert_int_equal(ip_of(p, 1), FIR_1);
    assert_int_equal(ip_of(p, 2), VADD_1);
    for (unsigned u = 0; u < p->nunits; u++) {
        const axl_xclbin_ip *ip = &axl_design_stock.ips[p->units[u].ip_index];
        assert_int_equal(p->units[u].base, ip->base_address);
        assert_int_equal(p->units[u].chain,
                         ip->control == AXL_XCLBIN_AP_CTRL_CHAIN);
        assert_int_equal(strlen(p->units[u].name), ip->name.len);
        assert_memory_equal(p->units[u].name, ip->name.ptr, ip->name.len);
    }
    /* Arguments: the kernel XML's registers (vadd: in1 0x10, in2 0x1c,
     * out_r 0x28, size 0x34; fir: in 0x10, coeff 0x1c, out 0x28, taps
     * 0x34, len 0x3c), the scalars as recorded. */
    assert_int_equal(p->nargs, 13);
    assert_int_equal(p->nodes[0].nargs, 4);
    assert_int_equal(p->nodes[1].nargs, 5);
    assert_int_equal(p->nodes[2].nargs, 4);
    const axl_plan_arg *a = p->args + p->nodes[0].arg0;
    check_arg(&a[0], 0, 0x10, 8, AXL_PLAN_ARG_BUFFER);
    check_arg(&a[1], 1, 0x1c, 8, AXL_PLAN_ARG_BUFFER);
    check_arg(&a[2], 2, 0x28, 8, AXL_PLAN_ARG_BUFFER);
    check_arg(&a[3], 3, 0x34, 4, AXL_PLAN_ARG_SCALAR);
    assert_int_equal(scalar_u32(p, &a[3]), PLAN_N);
    a = p->args + p->nodes[1].arg0;
    check_arg(&a[3], 3, 0x34, 4, AXL_PLAN_ARG_SCALAR);
    check_arg(&a[4], 4, 0x3c, 4, AXL_PLAN_ARG_SCALAR);
    assert_int_equal(scalar_u32(p, &a[3]), PLAN_TAPS);
    assert_int_equal(scalar_u32(p, &a[4]), PLAN_N);
    a = p->args + p->nodes[2].arg0;
    assert_int_equal(scalar_u32(p, &a[3]), PLAN_N / 2);
    assert_int_equal(p->scalar_bytes, 16);
    /* Buffers: one per base buffer, in the order the nodes name them
     * (A B C, Fi Fc Fo, S), each where finalize placed it (bank 0), at
     * the device's 512-byte alignment, with what the nodes do to it. */
    assert_int_equal(p->nbuffers, 7);
    const uint64_t size[7] = {4 * PLAN_N, 4 * PLAN_N, 4 * PLAN_N,
                              2 * PLAN_N, 2 * PLAN_TAPS, 2 * PLAN_N,
                              4 * PLAN_S};
    const uint32_t flags[7] = {AXL_PLAN_READ, AXL_PLAN_READ,
                               AXL_PLAN_READ | AXL_PLAN_WRITE,
                               AXL_PLAN_READ, AXL_PLAN_READ,
                               AXL_PLAN_WRITE, AXL_PLAN_WRITE};
    for (unsigned b = 0; b < 7; b++) {
        assert_int_equal(p->buffers[b].size, size[b]);
        assert_int_equal(p->buffers[b].bank, 0);
        assert_int_equal(p->buffers[b].align, 512);
        assert_int_equal(p->buffers[b].flags, flags[b] | AXL_PLAN_UPDATABLE);
    }
    /* Each buffer argument names its buffer, and where in it: E, the
     * sub-buffer, is S (buffer 6) from byte PLAN_E_AT * 4. */
    a = p->args + p->nodes[0].arg0;
    assert_int_equal(a[0].ref, 0);
    assert_int_equal(a[1].ref, 1);
    assert_int_equal(a[2].ref, 2);
    a = p->args + p->nodes[2].arg0;
    assert_int_equal(a[0].ref, 2);
    assert_int_equal(a[0].at, 0);
    assert_int_equal(a[1].ref, 1);
    assert_int_equal(a[2].ref, 6);
    assert_int_equal(a[2].at, 4 * PLAN_E_AT);
    print_message("plan_small: %u nodes on %s, %s, %s; E at byte %llu of "
                  "buffer %u\n",
                  (unsigned)p->nnodes, p->units[p->nodes[0].unit].name,
                  p->units[p->nodes[1].unit].name,
                  p->units[p->nodes[2].unit].name,
                  (unsigned long long)a[2].at, (unsigned)a[2].ref);
}

static void two_independent_nodes_of_a_two_unit_kernel_get_two_units_a_chain_one(
    void **s)
{
    (void)s;
    assert_int_equal(plan_pair.nnodes, 2);
    assert_int_equal(plan_pair.nunits, 2);
    assert_int_equal(ip_of(&plan_pair, 0), VADD_1);
    assert_int_equal(ip_of(&plan_pair, 1), VADD_2);
    assert_int_equal(plan_pair.npreds, 0);
    assert_int_equal(plan_chain.nnodes, 3);
    assert_int_equal(plan_chain.nunits, 1);
    for (unsigned i = 0; i < 3; i++)
        assert_int_equal(ip_of(&plan_chain, i), VADD_1);
    /* Each waits for the one before only (laid out: none implied). */
    assert_int_equal(plan_chain.npreds, 2);
    assert_int_equal(plan_chain.preds[plan_chain.nodes[1].pred0], 0);
    assert_int_equal(plan_chain.preds[plan_chain.nodes[2].pred0], 1);
    print_message("pair: %s, %s; chain: %s x3\n",
                  plan_pair.units[plan_pair.nodes[0].unit].name,
                  plan_pair.units[plan_pair.nodes[1].unit].name,
                  plan_chain.units[0].name);
}

static void a_node_gets_a_unit_no_node_beside_it_has_else_the_least_given(
    void **s)
{
    (void)s;
    const axl_plan *p = &plan_beside;
    assert_int_equal(p->nnodes, 4);
    /* Node 1 runs after node 0 only: vadd_1, as node 0. Node 2 runs
     * beside node 1 (on vadd_1): vadd_2. Node 3 runs beside all three
     * (vadd_1 twice, vadd_2 once): vadd_2. */
    assert_int_equal(ip_of(p, 0), VADD_1);
    assert_int_equal(ip_of(p, 1), VADD_1);
    assert_int_equal(ip_of(p, 2), VADD_2);
    assert_int_equal(ip_of(p, 3), VADD_2);
    assert_int_equal(p->nodes[3].npreds, 0);
    assert_int_equal(p->nodes[1].npreds, 1);
    assert_int_equal(p->nodes[2].npreds, 1);
}
#endif /* AXL_TEST_PLANS_WRITTEN */

/* Two vadds over six buffers, neither waiting for the other, finalized
 * (laid out); *b gets the buffers. */
static axl_graph_exec pair(rig *r, axl_buffer *b)
{
    for (int i = 0; i < 6; i++)
        AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &b[i]));
    axl_graph g;
    AXL_OK(axl_graph_create(r->ctx, r->dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r->q));
    AXL_OK(vadd(r, b[0], b[1], b[2], NULL));
    AXL_OK(vadd(r, b[3], b[4], b[5], NULL));
    AXL_OK(axl_graph_end_recording(g, r->q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    AXL_OK(axl_graph_release(g));
    return x;
}

static void release_all(axl_buffer *b, int n)
{
    for (int i = 0; i < n; i++)
        AXL_OK(axl_buffer_release(b[i]));
}

static axl_status host_noop(void *user)
{
    (void)user;
    return AXL_SUCCESS;
}

/* A plan holds kernel nodes: a graph with a host task is refused, naming
 * the node, and nothing is written. */
static void a_graph_with_a_host_task_is_refused_with_a_message_and_nothing_written(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_plan_write(NO_EXEC, "p", NULL, 0, NULL));
    rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_buffer b[3];
    for (int i = 0; i < 3; i++)
        AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &b[i]));
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r.q));
    AXL_OK(vadd(&r, b[0], b[1], b[2], NULL));
    AXL_OK(axl_queue_host_task(r.q, host_noop, NULL, NULL, 0, NULL));
    AXL_OK(axl_graph_end_recording(g, r.q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    AXL_OK(axl_graph_release(g));
    char dst[64];
    memset(dst, 'x', sizeof dst);
    size_t len = 12345;
    AXL_EXPECT(axl_plan_write(x, "plan", dst, sizeof dst, &len),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("axl_plan_write");
    AXL_MESSAGE_HAS("node 1 is a host task");
    print_message("%s\n", axl_last_message());
    for (size_t i = 0; i < sizeof dst; i++)
        assert_int_equal(dst[i], 'x');
    assert_int_equal(len, 12345);
    /* The file call says the same, as its own, and writes no file. */
    const char *path = "test_plans_host_task.c";
    remove(path);
    AXL_EXPECT(axl_plan_write_file(x, "plan", path), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("axl_plan_write_file: ");
    AXL_MESSAGE_HAS("node 1 is a host task");
    FILE *f = fopen(path, "r");
    assert_null(f);
    AXL_OK(axl_graph_exec_release(x));
    release_all(b, 3);
    axl_test_rig_down(&r);
}

/* Every executable graph is a plan: one of a single node is written too
 * (once refused: a graph was written only when laid out, 2 to 64 kernel
 * nodes), in format 2. */
static void a_graph_of_one_node_is_written_in_format_2(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_plan_write(NO_EXEC, "p", NULL, 0, NULL));
    rig r = axl_test_rig_up(0);
    axl_buffer b[3];
    for (int i = 0; i < 3; i++)
        AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &b[i]));
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r.q));
    AXL_OK(vadd(&r, b[0], b[1], b[2], NULL));
    AXL_OK(axl_graph_end_recording(g, r.q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    AXL_OK(axl_graph_release(g));
    size_t len = 0;
    AXL_OK(axl_plan_write(x, "one", NULL, 0, &len));
    static char text[16384];
    assert_true(len < sizeof text);
    AXL_OK(axl_plan_write(x, "one", text, sizeof text, NULL));
    assert_non_null(strstr(text, ".format = AXL_PLAN_FORMAT,")); /* 2 */
    assert_non_null(strstr(text, ".nnodes = 1,"));
    AXL_OK(axl_graph_exec_release(x));
    release_all(b, 3);
    axl_test_rig_down(&r);
}

static void a_bad_name_or_destination_is_refused_and_nothing_written(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_plan_write(NO_EXEC, "p", NULL, 0, NULL));
    rig r = axl_test_rig_up(0);
    axl_buffer b[6];
    axl_graph_exec x = pair(&r, b);
    char dst[64];
    memset(dst, 'x', sizeof dst);
    size_t len = 7;
    const char *bad[] = {"", "2plans", "a plan", "plan-1"};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        AXL_EXPECT(axl_plan_write(x, bad[i], dst, sizeof dst, &len),
                   AXL_ERR_INVALID);
        AXL_MESSAGE_HAS("not a C identifier");
    }
    AXL_EXPECT(axl_plan_write(x, NULL, dst, sizeof dst, &len),
               AXL_ERR_INVALID);
    AXL_EXPECT(axl_plan_write(x, "p", NULL, 16, &len), AXL_ERR_INVALID);
    AXL_EXPECT(axl_plan_write(x, "p", NULL, 0, NULL), AXL_ERR_INVALID);
    AXL_EXPECT(axl_plan_write(NO_EXEC, "p", dst, sizeof dst, &len),
               AXL_ERR_INVALID_OBJECT);
    for (size_t i = 0; i < sizeof dst; i++)
        assert_int_equal(dst[i], 'x');
    assert_int_equal(len, 7);
    AXL_OK(axl_graph_exec_release(x));
    release_all(b, 6);
    axl_test_rig_down(&r);
}

static void a_small_cap_is_out_of_resources_and_the_sizing_call_is_exact(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_plan_write(NO_EXEC, "p", NULL, 0, NULL));
    rig r = axl_test_rig_up(0);
    axl_buffer b[6];
    axl_graph_exec x = pair(&r, b);
    size_t need = 0;
    AXL_OK(axl_plan_write(x, "pair", NULL, 0, &need));
    assert_true(need > 0);
    char *text = malloc(need + 2);
    assert_non_null(text);
    /* One byte short (no room for the NUL): nothing but the NUL. */
    memset(text, 'x', need + 2);
    size_t len = 0;
    AXL_EXPECT(axl_plan_write(x, "pair", text, need, &len),
               AXL_ERR_OUT_OF_RESOURCES);
    AXL_MESSAGE_HAS("axl_plan_write");
    print_message("%s\n", axl_last_message());
    assert_int_equal(len, need);
    assert_int_equal(text[0], '\0');
    /* Exactly the length and its NUL: the whole text. */
    memset(text, 'x', need + 2);
    len = 0;
    AXL_OK(axl_plan_write(x, "pair", text, need + 1, &len));
    assert_int_equal(len, need);
    assert_int_equal(strlen(text), need);
    assert_int_equal(text[need + 1], 'x');
    assert_non_null(strstr(text, "const axl_plan pair = {"));
    /* The same bytes again (the text depends on the graph alone), and the
     * same in a file. */
    char *again = malloc(need + 1);
    assert_non_null(again);
    AXL_OK(axl_plan_write(x, "pair", again, need + 1, NULL));
    assert_string_equal(again, text);
    const char *path = "test_plans_pair.c";
    AXL_OK(axl_plan_write_file(x, "pair", path));
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t got = fread(again, 1, need + 1, f);
    fclose(f);
    remove(path);
    assert_int_equal(got, need);
    again[got] = '\0';
    assert_string_equal(again, text);
    free(again);
    free(text);
    print_message("the plan of two vadds takes %zu bytes of C\n", need);
    AXL_OK(axl_graph_exec_release(x));
    release_all(b, 6);
    axl_test_rig_down(&r);
}

/* axl_plan_write_named (plan.h): a buffer named by its handle, a node by
 * its node handle, each written where the plan numbers it (buffers in
 * the order the nodes first use them), so a firmware finds them by name
 * (axl_plan_find_buffer / _node); bad names change nothing. */
static void a_plan_carries_the_names_given_for_its_buffers_and_nodes(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_plan_write_named(NO_EXEC, "p", NULL, 0, NULL, 0, NULL));
    rig r = axl_test_rig_up(0);
    axl_buffer b[6];
    for (int i = 0; i < 6; i++)
        AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &b[i]));
    axl_graph g;
    AXL_OK(axl_graph_create(r.ctx, r.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, r.q));
    axl_event e;
    AXL_OK(vadd(&r, b[0], b[1], b[2], NULL));
    AXL_OK(vadd(&r, b[3], b[4], b[5], &e));
    axl_graph_node second;
    AXL_OK(axl_graph_node_from_event(e, &second));
    AXL_OK(axl_graph_end_recording(g, r.q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    axl_buffer view;
    const size_t at[3] = {0, 0, 0};
    AXL_OK(axl_buffer_create_sub(b[4], at, axl_range_1d(N / 2), &view));
    const axl_plan_name names[3] = {
        {.name = "out", .buffer = b[5]},
        {.name = "second", .node = second},
        {.name = "gain", .buffer = view}}; /* a view names its base */
    static char text[16384];
    AXL_OK(axl_plan_write_named(x, "pair", names, 3, text, sizeof text,
                                NULL));
    assert_non_null(strstr(text, "static const char *const "
                                 "pair_buffer_names[6] = {NULL, NULL, NULL, "
                                 "NULL, \"gain\", \"out\"};"));
    assert_non_null(strstr(text, "static const char *const "
                                 "pair_node_names[2] = {NULL, "
                                 "\"second\"};"));
    assert_non_null(strstr(text, ".buffer_names = pair_buffer_names,"));
    assert_non_null(strstr(text, ".node_names = pair_node_names,"));
    /* Without names: no tables (the text a plan without them had). */
    AXL_OK(axl_plan_write(x, "pair", text, sizeof text, NULL));
    assert_null(strstr(text, "_names"));
    /* Refused, dst untouched: not an identifier, twice, neither or both
     * handles, a buffer the graph does not use, a node of no graph. */
    axl_buffer other;
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &other));
    const axl_plan_name bad[6][2] = {
        {{.name = "2x", .buffer = b[0]}},
        {{.name = "a", .buffer = b[0]}, {.name = "a", .buffer = b[1]}},
        {{.name = "a"}},
        {{.name = "a", .buffer = b[0], .node = second}},
        {{.name = "a", .buffer = other}},
        {{.name = "a", .buffer = b[0]}, {.name = "b", .buffer = b[0]}}};
    const uint32_t counts[6] = {1, 2, 1, 1, 1, 2};
    const char *says[6] = {"not a C identifier", "given twice",
                           "set one of buffer and node",
                           "set one of buffer and node", "none the graph",
                           "is named \"a\" already"};
    for (int i = 0; i < 6; i++) {
        text[0] = 'z';
        AXL_EXPECT(axl_plan_write_named(x, "pair", bad[i], counts[i], text,
                                        sizeof text, NULL),
                   AXL_ERR_INVALID);
        AXL_MESSAGE_HAS(says[i]);
        assert_int_equal(text[0], 'z');
    }
    AXL_OK(axl_buffer_release(other));
    AXL_OK(axl_buffer_release(view));
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    release_all(b, 6);
    axl_test_rig_down(&r);
}

static void a_released_buffer_is_refused(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_plan_write(NO_EXEC, "p", NULL, 0, NULL));
    rig r = axl_test_rig_up(0);
    axl_buffer b[6];
    axl_graph_exec x = pair(&r, b);
    AXL_OK(axl_buffer_release(b[4]));
    size_t len = 3;
    AXL_EXPECT(axl_plan_write(x, "pair", NULL, 0, &len),
               AXL_ERR_INVALID_OBJECT);
    AXL_MESSAGE_HAS("was released");
    print_message("%s\n", axl_last_message());
    assert_int_equal(len, 3);
    AXL_OK(axl_graph_exec_release(x));
    b[4] = b[5];
    release_all(b, 5);
    axl_test_rig_down(&r);
}

#define T(f) cmocka_unit_test_setup_teardown(f, axl_test_setup, axl_test_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
#if AXL_TEST_PLANS_WRITTEN
        cmocka_unit_test(
            a_written_plan_compiles_and_its_tables_say_what_the_graph_recorded),
        cmocka_unit_test(
            two_independent_nodes_of_a_two_unit_kernel_get_two_units_a_chain_one),
        cmocka_unit_test(
            a_node_gets_a_unit_no_node_beside_it_has_else_the_least_given),
#endif
        T(a_graph_with_a_host_task_is_refused_with_a_message_and_nothing_written),
        T(a_graph_of_one_node_is_written_in_format_2),
        T(a_bad_name_or_destination_is_refused_and_nothing_written),
        T(a_small_cap_is_out_of_resources_and_the_sizing_call_is_exact),
        T(a_released_buffer_is_refused),
        T(a_plan_carries_the_names_given_for_its_buffers_and_nodes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
