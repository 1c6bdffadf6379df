/*
 * test_mmio_banks.c - the board's memory checked (xrt/mmio/banks.c,
 * axl/mmio.h axl_mmio_bank_region): banks that are the same memory share
 * one allocator on the mmio port and in plans; regions that overlap
 * otherwise, or have no host view where the model needs the bytes, are
 * refused naming the bank.
 *
 * The design is vadd linked on the ZCU102 preset (zcu102_hp0_hpc0.cfg:
 * in1 and out on HP0, in2 on HPC0): every PS port is the same PS DDR, so
 * each bank of the preset (HP0-3, HPC0-1, LPD) is at 0 and 2 GiB, as v++
 * writes them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "axl/axl.h"
#include "axl/emu.h"
#include "axl/hal.h"
#include "axl/mmio.h"
#include "axl/mmio_model.h"
#include "axl/plan.h"
#include "axl/xclbin.h"
#include "axl_reader_skip.h"
#include "axl_test.h"
#include "axl_test_zcu102_vadd_xclbin.h"
#include "mmio_sim.h"

enum { N = 300 }; /* not a multiple of a page: buffers end mid-page */

static const void *design(void) { return axl_test_zcu102_vadd_xclbin; }
static size_t design_size(void) { return axl_test_zcu102_vadd_xclbin_size; }

/* The MEM_TOPOLOGY index of the bank tagged `name` (mem), or the
 * IP_LAYOUT index of the unit named `name`. */
static uint32_t index_of(bool mem, const char *name)
{
    axl_xclbin x;
    char why[64];
    AXL_OK(axl_xclbin_open(&x, design(), design_size(), why, sizeof why));
    for (uint32_t i = 0; i < (mem ? x.mem_count : x.ip_count); i++) {
        axl_xclbin_mem m;
        axl_xclbin_ip ip;
        axl_str s;
        if (mem) {
            AXL_OK(axl_xclbin_get_mem(&x, i, &m));
            s = m.tag;
        } else {
            AXL_OK(axl_xclbin_get_ip(&x, i, &ip));
            s = ip.name;
        }
        if (s.len == strlen(name) && !memcmp(s.ptr, name, s.len))
            return i;
    }
    fail_msg("no %s %s", mem ? "bank" : "unit", name);
    return 0;
}

static uint32_t bank(const char *tag) { return index_of(true, tag); }
static uint32_t unit(const char *name) { return index_of(false, name); }

static int setup(void **s)
{
    (void)s;
    AXL_OK(axl_shutdown());
    axl_mmio_sim_defaults();
    AXL_OK(axl_mmio_set_board(NULL));
    AXL_OK(axl_emu_set_builtin_image(design(), design_size()));
    return 0;
}

static int teardown(void **s)
{
    int st = axl_test_teardown(s);
    AXL_OK(axl_mmio_set_board(NULL));
    AXL_OK(axl_emu_set_builtin_image(axl_test_stock_xclbin,
                                     axl_test_stock_xclbin_size));
    axl_mmio_sim_defaults();
    return st;
}

/* DESIGN.md, "Your firmware (the board kit)": banks that are the same
 * memory share one allocator. vadd_1 reads HP0 and HPC0 and writes HP0,
 * two banks of one PS DDR with no region the board wrote: the port
 * places the three buffers apart, so the sum is right (a buffer in HP0
 * and one in HPC0 at the same address read as one). */
static void buffers_in_banks_of_one_memory_never_overlap_on_the_port(void **s)
{
    (void)s;
    axl_device dev = axl_test_emu_device();
    axl_context ctx;
    axl_queue q;
    AXL_OK(axl_context_create(&dev, 1, NULL, &ctx));
    AXL_OK(axl_queue_create(ctx, dev, AXL_QUEUE_IN_ORDER, NULL, &q));
    axl_kernel_id id;
    AXL_OK(axl_get_built_in_kernel_id(dev, "vadd", &id));
    axl_kernel_bundle b;
    AXL_OK(axl_get_kernel_bundle_for(ctx, NULL, 0, &id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &b));
    axl_kernel k;
    AXL_OK(axl_kernel_bundle_get_kernel(b, id, &k));
    static int32_t a[N], c[N], o[N];
    for (int i = 0; i < N; i++) {
        a[i] = i;
        c[i] = 7000 - 3 * i;
        o[i] = -1;
    }
    for (int round = 0; round < 2; round++) {
        axl_buffer A, C, O;
        AXL_OK(axl_buffer_create_from(a, 4, axl_range_1d(N), NULL, &A));
        AXL_OK(axl_buffer_create_from(c, 4, axl_range_1d(N), NULL, &C));
        AXL_OK(axl_buffer_create_from(o, 4, axl_range_1d(N), NULL, &O));
        uint32_t n = N;
        axl_kernel_arg args[4] = {
            {.index = 0, .buffer = A, .mode = AXL_ACCESS_READ},
            {.index = 1, .buffer = C, .mode = AXL_ACCESS_READ},
            {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE},
            {.index = 3, .value = &n, .size = sizeof n}};
        axl_event e;
        AXL_OK(axl_queue_single_task(q, k, args, 4, NULL, 0, &e));
        AXL_OK(axl_event_wait(e));
        AXL_OK(axl_event_release(e));
        AXL_OK(axl_buffer_release(A));
        AXL_OK(axl_buffer_release(C));
        AXL_OK(axl_buffer_release(O));
        for (int i = 0; i < N; i++)
            assert_int_equal(o[i], a[i] + c[i]);
        a[round] += 11;
    }
    AXL_OK(axl_kernel_release(k));
    AXL_OK(axl_kernel_bundle_release(b));
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_context_release(ctx));
}

/* The emulated device keeps the same rule (its C models are given host
 * pointers, but a device address must mean one place): HP0 and HPC0 are
 * carved from one arena. */
extern const axl_device_port axl_emu_port;

static void the_emulated_device_carves_banks_of_one_memory_once(void **s)
{
    (void)s;
    void *dev;
    AXL_OK(axl_emu_port.open(0, &dev));
    axl_hal_mem m[2];
    uint32_t b[2] = {UINT32_MAX, UINT32_MAX};
    for (uint32_t i = 0; i < 4; i++) {
        axl_hal_bank hb;
        if (axl_emu_port.bank(dev, i, &hb) != AXL_SUCCESS)
            break;
        if (!strcmp(hb.tag, "HP0"))
            b[0] = i;
        if (!strcmp(hb.tag, "HPC0"))
            b[1] = i;
    }
    assert_int_not_equal(b[0], UINT32_MAX);
    assert_int_not_equal(b[1], UINT32_MAX);
    AXL_OK(axl_emu_port.mem_alloc(dev, b[0], 4 * N, NULL, &m[0]));
    AXL_OK(axl_emu_port.mem_alloc(dev, b[1], 4 * N, NULL, &m[1]));
    assert_true(m[0].device_address + 4 * N <= m[1].device_address ||
                m[1].device_address + 4 * N <= m[0].device_address);
    assert_ptr_not_equal(m[0].host_ptr, m[1].host_ptr);
    axl_emu_port.mem_free(dev, &m[1]);
    axl_emu_port.mem_free(dev, &m[0]);
    /* Freed where they came from: the same place again. */
    axl_hal_mem again;
    AXL_OK(axl_emu_port.mem_alloc(dev, b[1], 4 * N, NULL, &again));
    assert_int_equal(again.device_address, m[0].device_address);
    axl_emu_port.mem_free(dev, &again);
    axl_emu_port.close(dev);
}

/* ---- Plans --------------------------------------------------------------------- */

/* Banks' memory for the boards below (one PS DDR, a little of it). */
static _Alignas(4096) unsigned char ddr[64 * 1024];

static axl_plan_unit units[1];
static axl_plan_buffer_desc buffers[3];
static const axl_plan_arg args[4] = {
    {0, 0x10, 8, AXL_PLAN_ARG_BUFFER, 0, 0, 0},
    {1, 0x1C, 8, AXL_PLAN_ARG_BUFFER, 1, 0, 0},
    {2, 0x28, 8, AXL_PLAN_ARG_BUFFER, 2, 0, 0},
    {3, 0x34, 4, AXL_PLAN_ARG_SCALAR, 0, 4, 0},
};
static const axl_plan_node nodes[1] = {{0, 0, 4, 0, 0, "vadd", 0, 0, 0}};
static const uint8_t scalars[4] = {N & 0xff, N >> 8, 0, 0};
static axl_plan sum;

/* vadd_1: buffer 0 (HP1) + buffer 1 (HPC0) into buffer 2 (HP3). */
static void make_plan(void)
{
    units[0] = (axl_plan_unit){unit("vadd:vadd_1"), 1, 0, "vadd:vadd_1"};
    const char *tags[3] = {"HP1", "HPC0", "HP3"};
    for (uint32_t i = 0; i < 3; i++)
        buffers[i] = (axl_plan_buffer_desc){
            N * 4u, bank(tags[i]), 64,
            (i < 2 ? AXL_PLAN_READ : AXL_PLAN_WRITE) | AXL_PLAN_UPDATABLE};
    sum = (axl_plan){
        .format = AXL_PLAN_FORMAT, .name = "sum",
        .nunits = 1, .nbuffers = 3, .nnodes = 1, .nargs = 4, .npreds = 0,
        .scalar_bytes = 4, .units = units, .buffers = buffers,
        .nodes = nodes, .args = args, .preds = NULL, .scalars = scalars};
    memcpy(sum.uuid, (const uint8_t *)design() + 416, 16);
}

static axl_mmio_board board;
static axl_mmio_bank_region regions[3];

/* A board with the given regions for HP1, HPC0 and HP3. */
static void set_board(const axl_mmio_bank_region r[3])
{
    memcpy(regions, r, sizeof regions);
    axl_mmio_model_board(&board, &axl_mmio_sim_model, design(), design_size(),
                         regions, 3);
    AXL_OK(axl_mmio_set_board(&board));
    make_plan();
}

static uint32_t *host_of(axl_plan_id p, uint32_t i, uint64_t *phys)
{
    void *host = NULL;
    AXL_OK(axl_plan_buffer(p, i, &host, phys));
    return host;
}

/* The same rule in a plan: three banks, one memory (one region given
 * three times, as a ZCU102 board gives its PS DDR): the load places the
 * buffers apart, at the board's alignment (4 KiB unless it says), and the
 * replay's sum is right. */
static void a_plan_places_buffers_of_one_memory_apart(void **s)
{
    (void)s;
    const axl_mmio_bank_region r[3] = {
        {bank("HP1"), 0x10000000u, sizeof ddr, ddr},
        {bank("HPC0"), 0x10000000u, sizeof ddr, ddr},
        {bank("HP3"), 0x10000000u, sizeof ddr, ddr}};
    set_board(r);
    axl_plan_id p;
    AXL_OK(axl_plan_load(&sum, &p));
    uint64_t at[3];
    int32_t *a = (int32_t *)host_of(p, 0, &at[0]);
    int32_t *c = (int32_t *)host_of(p, 1, &at[1]);
    int32_t *o = (int32_t *)host_of(p, 2, &at[2]);
    for (uint32_t i = 0; i < 3; i++) {
        assert_int_equal(at[i] % 4096u, 0);
        for (uint32_t j = 0; j < i; j++)
            assert_true(at[j] + N * 4u <= at[i] || at[i] + N * 4u <= at[j]);
    }
    for (int i = 0; i < N; i++) {
        a[i] = 5 * i;
        c[i] = -i;
        o[i] = 0x5a5a;
    }
    axl_plan_run run;
    AXL_OK(axl_plan_submit(p, &run));
    AXL_OK(axl_plan_wait(run, 0));
    for (int i = 0; i < N; i++)
        assert_int_equal(o[i], 4 * i);
    AXL_OK(axl_plan_unload(p));
}

/* axl_mmio_board.align: a board short of memory gives a cache line. */
static void the_board_sets_the_buffers_alignment(void **s)
{
    (void)s;
    const axl_mmio_bank_region r[3] = {
        {bank("HP1"), 0x10000000u, sizeof ddr, ddr},
        {bank("HPC0"), 0x10000000u, sizeof ddr, ddr},
        {bank("HP3"), 0x10000000u, sizeof ddr, ddr}};
    set_board(r);
    board.align = 64;
    axl_plan_id p;
    AXL_OK(axl_plan_load(&sum, &p));
    uint64_t at[3];
    for (uint32_t i = 0; i < 3; i++)
        (void)host_of(p, i, &at[i]);
    assert_int_equal(at[1] - at[0], 1216); /* 1200 bytes, up to 64 */
    assert_int_equal(at[2] - at[1], 1216);
    AXL_OK(axl_plan_unload(p));
    board.align = 100;
    AXL_EXPECT(axl_plan_load(&sum, &p), AXL_ERR_PLATFORM);
    AXL_MESSAGE_HAS("alignment 100 is not a power of two");
}

/* Regions that overlap without being the same memory are refused, the
 * message naming both banks and the fix; nothing is loaded. */
static void overlapping_regions_are_refused_naming_the_banks(void **s)
{
    (void)s;
    const axl_mmio_bank_region r[3] = {
        {bank("HP1"), 0x10000000u, 16384, ddr},
        {bank("HPC0"), 0x10002000u, 16384, ddr + 8192},
        {bank("HP3"), 0x10008000u, 16384, ddr + 32768}};
    set_board(r);
    axl_plan_id p;
    AXL_EXPECT(axl_plan_load(&sum, &p), AXL_ERR_PLATFORM);
    AXL_MESSAGE_HAS("banks HP1");
    AXL_MESSAGE_HAS("HPC0");
    AXL_MESSAGE_HAS("overlap; give regions that are the same memory");
    /* Apart physically, one memory for the CPU: refused the same. */
    const axl_mmio_bank_region r2[3] = {
        {bank("HP1"), 0x10000000u, 16384, ddr},
        {bank("HPC0"), 0x20000000u, 16384, ddr},
        {bank("HP3"), 0x30000000u, 16384, ddr + 32768}};
    set_board(r2);
    AXL_EXPECT(axl_plan_load(&sum, &p), AXL_ERR_PLATFORM);
    AXL_MESSAGE_HAS("overlap");
    /* The same memory with two views of it. */
    const axl_mmio_bank_region r3[3] = {
        {bank("HP1"), 0x10000000u, 16384, ddr},
        {bank("HPC0"), 0x10000000u, 16384, ddr + 16384},
        {bank("HP3"), 0x30000000u, 16384, ddr + 32768}};
    set_board(r3);
    AXL_EXPECT(axl_plan_load(&sum, &p), AXL_ERR_PLATFORM);
    AXL_MESSAGE_HAS("are the same memory");
}

/* mmio_model.h: the banks' host storage is never NULL. A model board
 * with a region of no host memory is refused before the model sees it. */
static void a_region_without_host_memory_is_refused_on_a_model(void **s)
{
    (void)s;
    const axl_mmio_bank_region r[3] = {
        {bank("HP1"), 0x10000000u, 16384, ddr},
        {bank("HPC0"), 0x20000000u, 16384, NULL},
        {bank("HP3"), 0x30000000u, 16384, ddr + 32768}};
    set_board(r);
    axl_plan_id p;
    AXL_EXPECT(axl_plan_load(&sum, &p), AXL_ERR_PLATFORM);
    AXL_MESSAGE_HAS("bank HPC0");
    AXL_MESSAGE_HAS("has no host memory");
}

int main(void)
{
    /* The design is read from its xclbin (bank and unit indices). */
    if (axl_test_without_reader())
        return 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(
            buffers_in_banks_of_one_memory_never_overlap_on_the_port, setup,
            teardown),
        cmocka_unit_test_setup_teardown(
            the_emulated_device_carves_banks_of_one_memory_once, setup,
            teardown),
        cmocka_unit_test_setup_teardown(
            a_plan_places_buffers_of_one_memory_apart, setup, teardown),
        cmocka_unit_test_setup_teardown(the_board_sets_the_buffers_alignment,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(
            overlapping_regions_are_refused_naming_the_banks, setup,
            teardown),
        cmocka_unit_test_setup_teardown(
            a_region_without_host_memory_is_refused_on_a_model, setup,
            teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
