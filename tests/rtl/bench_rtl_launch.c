/*
 * axl-bench-rtl-launch: simulated cycles and control-register accesses of
 * one polled launch of the stock vadd (16 elements) on its RTL, as the
 * least a hand-written driver needs and as axl's mmio port does it (issue
 * 27's "cycles per launch against the least a hand-written driver
 * needs"). Prints `name value unit` lines.
 *
 * The hand-written driver, on the model interface (axl/mmio_model.h): the
 * three 64-bit pointers and the count (7 writes), ap_start (1), the wait
 * (advance() to DONE: the testbench's own look at the control word,
 * counted as no access, stands for a poll loop's last read), the read
 * that sees ap_done (1) and ap_continue (1). The same with the arguments
 * already in their registers (what the port's launch cache keeps): 3.
 * axl: axl_queue_single_task, wait, release on an in-order queue, every
 * unit polled (AXL_RTL_IRQ=0), after two launches that place the buffers
 * and open the unit; the unit's counters (axl_rtl_unit_stats_get) give
 * the port's own accesses.
 *
 *   build/default/tests/rtl/axl-bench-rtl-launch
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axl/axl.h"
#include "axl/mmio.h"
#include "axl/rtl.h"
#include "axl/xclbin.h"

#include "../bench/bench_check.h"

enum { N = 16, LAUNCHES = 100 };

static uint32_t unit_of(const axl_xclbin *x, const char *name)
{
    for (uint32_t i = 0; i < x->ip_count; i++) {
        axl_xclbin_ip ip;
        if (axl_xclbin_get_ip(x, i, &ip) == AXL_SUCCESS &&
            ip.name.len == strlen(name) &&
            memcmp(ip.name.ptr, name, ip.name.len) == 0)
            return i;
    }
    fprintf(stderr, "no unit %s\n", name);
    exit(1);
}

/* One launch by hand; its cycles and control accesses. */
static void by_hand(const axl_mmio_model *m, uint32_t ip, const uint64_t *p,
                    int with_args, uint64_t *cycles, uint64_t *accesses)
{
    axl_rtl_unit_stats s0, s1;
    CHECK(axl_rtl_unit_stats_get(ip, &s0));
    uint64_t c0 = axl_rtl_cycles();
    if (with_args) {
        for (uint32_t i = 0; i < 3; i++) {
            m->wr32(m->user, ip, 0x10 + 12 * i, (uint32_t)p[i]);
            m->wr32(m->user, ip, 0x14 + 12 * i, (uint32_t)(p[i] >> 32));
        }
        m->wr32(m->user, ip, 0x34, N);
    }
    m->wr32(m->user, ip, 0x00, 1); /* ap_start */
    while (m->advance(m->user, ip, AXL_MMIO_MODEL_FOREVER) !=
           AXL_MMIO_MODEL_DONE)
        ;
    if (!(m->rd32(m->user, ip, 0x00) & 2u)) {
        fprintf(stderr, "no ap_done\n");
        exit(1);
    }
    m->wr32(m->user, ip, 0x00, 1u << 4); /* ap_continue */
    *cycles = axl_rtl_cycles() - c0;
    CHECK(axl_rtl_unit_stats_get(ip, &s1));
    *accesses = (s1.control_reads - s0.control_reads) +
                (s1.control_writes - s0.control_writes);
}

int main(void)
{
    setenv("AXL_RTL_IRQ", "0", 1); /* before the board is made */
    size_t size;
    const void *bytes = axl_rtl_design(&size);
    axl_xclbin x;
    if (axl_xclbin_open(&x, bytes, size, NULL, 0) != AXL_SUCCESS) {
        printf("skipped: no design or no xclbin reader\n");
        return 0;
    }
    const axl_mmio_board *board = axl_rtl_board();
    const axl_mmio_model *m = axl_rtl_model();
    uint32_t ip = unit_of(&x, "vadd:vadd_1");

    /* By hand, on the board's banks. */
    CHECK(m->attach(m->user, &x, board->banks, board->bank_count, NULL));
    uint64_t base = board->banks[0].phys;
    uint64_t p[3] = {base, base + 4096, base + 8192};
    uint64_t hc, ha, lc, la;
    by_hand(m, ip, p, 1, &hc, &ha);
    by_hand(m, ip, p, 1, &hc, &ha);
    by_hand(m, ip, p, 0, &lc, &la);
    m->detach(m->user);

    /* Through axl. */
    axl_device d;
    CHECK(axl_device_select(axl_default_selector, NULL, &d));
    axl_context ctx;
    CHECK(axl_context_create(&d, 1, NULL, &ctx));
    axl_queue q;
    CHECK(axl_queue_create(ctx, d, AXL_QUEUE_IN_ORDER, NULL, &q));
    axl_kernel_id id;
    CHECK(axl_get_built_in_kernel_id(d, "vadd", &id));
    axl_kernel_bundle kb;
    CHECK(axl_get_kernel_bundle_for(ctx, NULL, 0, &id, 1,
                                    AXL_BUNDLE_EXECUTABLE, &kb));
    axl_kernel k;
    CHECK(axl_kernel_bundle_get_kernel(kb, id, &k));
    axl_buffer a, b, o;
    CHECK(axl_buffer_create(4, axl_range_1d(N), NULL, &a));
    CHECK(axl_buffer_create(4, axl_range_1d(N), NULL, &b));
    CHECK(axl_buffer_create(4, axl_range_1d(N), NULL, &o));
    uint32_t n = N;
    axl_kernel_arg args[4] = {
        {.index = 0, .buffer = a, .mode = AXL_ACCESS_READ},
        {.index = 1, .buffer = b, .mode = AXL_ACCESS_READ},
        {.index = 2, .buffer = o, .mode = AXL_ACCESS_WRITE_NO_INIT},
        {.index = 3, .value = &n, .size = 4}};
    uint64_t ac = 0, aa = 0;
    for (int i = 0; i < 2 + LAUNCHES; i++) {
        axl_rtl_unit_stats s0, s1;
        axl_event e;
        uint64_t c0 = axl_rtl_cycles();
        CHECK(axl_rtl_unit_stats_get(ip, &s0));
        CHECK(axl_queue_single_task(q, k, args, 4, NULL, 0, &e));
        CHECK(axl_event_wait(e));
        CHECK(axl_event_release(e));
        CHECK(axl_rtl_unit_stats_get(ip, &s1));
        if (i >= 2) { /* the first two place the buffers, open the unit */
            ac += axl_rtl_cycles() - c0;
            aa += (s1.control_reads - s0.control_reads) +
                  (s1.control_writes - s0.control_writes);
        }
    }
    CHECK(axl_buffer_release(a));
    CHECK(axl_buffer_release(b));
    CHECK(axl_buffer_release(o));
    CHECK(axl_kernel_release(k));
    CHECK(axl_kernel_bundle_release(kb));
    CHECK(axl_queue_release(q));
    CHECK(axl_context_release(ctx));
    printf("rtl_launch_by_hand %llu cycles %llu accesses\n",
           (unsigned long long)hc, (unsigned long long)ha);
    printf("rtl_launch_by_hand_args_set %llu cycles %llu accesses\n",
           (unsigned long long)lc, (unsigned long long)la);
    printf("rtl_launch_axl %.1f cycles %.1f accesses\n",
           (double)ac / LAUNCHES, (double)aa / LAUNCHES);
    return 0;
}
