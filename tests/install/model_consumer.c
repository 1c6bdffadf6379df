/* A program with a model of its own behind the installed mmio port
 * (axl/mmio_model.h): axl_mmio_model_library(... BOARD model_board) makes
 * its board, below, the default, so the program then uses the plain API.
 * The model: each unit of the design ends a run 1 us of its clock after
 * ap_start, and a register access takes 10 ns. */
#include <stdio.h>
#include <string.h>

#include <axl/axl.h>
#include <axl/mmio_model.h>
#include <axl/xclbin.h>

#include "stock_xclbin.h"

enum { UNITS = 8 };
static uint64_t now;
static uint64_t end[UNITS]; /* 0: idle */
static int done[UNITS];

static axl_status attach(void *user, const axl_xclbin *design,
                         const axl_mmio_bank_region *banks, uint32_t n,
                         void (*isr)(uint32_t))
{
    (void)user, (void)design, (void)banks, (void)n, (void)isr;
    memset(end, 0, sizeof end);
    memset(done, 0, sizeof done);
    return AXL_SUCCESS;
}

static void detach(void *user)
{
    (void)user;
}

static uint32_t rd32(void *user, uint32_t i, uint32_t off)
{
    (void)user;
    now += 10;
    if (i >= UNITS || off != 0)
        return 0;
    if (end[i] && now >= end[i]) {
        end[i] = 0;
        done[i] = 1;
    }
    uint32_t v = (end[i] ? 0x1u : 0x4u) | (done[i] ? 0x2u : 0u);
    done[i] = 0; /* clear on read (ap_ctrl_hs) */
    return v;
}

static void wr32(void *user, uint32_t i, uint32_t off, uint32_t v)
{
    (void)user;
    now += 10;
    if (i < UNITS && off == 0 && (v & 1u) && !end[i])
        end[i] = now + 1000;
}

static int advance(void *user, uint32_t unit, uint64_t until)
{
    (void)user, (void)unit;
    uint64_t first = until;
    for (int i = 0; i < UNITS; i++)
        if (end[i] && end[i] < first)
            first = end[i];
    if (first > now)
        now = first;
    return first < until ? AXL_MMIO_MODEL_DONE : AXL_MMIO_MODEL_DEADLINE;
}

static uint64_t now_ns(void *user)
{
    (void)user;
    return now;
}

static const axl_mmio_model model = {
    .name = "consumer's model",
    .attach = attach,
    .detach = detach,
    .rd32 = rd32,
    .wr32 = wr32,
    .advance = advance,
    .now_ns = now_ns,
};

static unsigned char memory[4096];
static const axl_mmio_bank_region banks[1] = {
    {0, 0x4000000000ull, sizeof memory, memory}};
static axl_mmio_board board;

const axl_mmio_board *model_board(void);
const axl_mmio_board *model_board(void)
{
    axl_mmio_model_board(&board, &model, stock_xclbin, stock_xclbin_size,
                         banks, 1);
    return &board;
}

int main(void)
{
    axl_device d;
    char name[64];
    axl_queue q;
    axl_context ctx;
    axl_kernel_id id;
    axl_kernel_bundle kb;
    axl_kernel k;
    axl_event e;
    uint64_t t0, t1;
    axl_xclbin x;
    /* A build that reads no xclbin (AXL_FEATURE_XCLBIN_READER 0) has no
     * design to give the model. */
    if (axl_xclbin_open(&x, "", 0, NULL, 0) == AXL_ERR_FEATURE_NOT_SUPPORTED) {
        printf("model: skipped, this build reads no xclbin\n");
        return axl_shutdown() ? 1 : 0;
    }
    if (axl_device_select(axl_default_selector, NULL, &d) ||
        axl_device_get_info(d, AXL_DEVICE_INFO_NAME, name, sizeof name,
                            NULL) ||
        axl_queue_create_selected(axl_default_selector, NULL,
                                  AXL_QUEUE_ENABLE_PROFILING, NULL, &q) ||
        axl_queue_get_context(q, &ctx) ||
        axl_get_built_in_kernel_id(d, "nop", &id) ||
        axl_get_kernel_bundle_for(ctx, NULL, 0, &id, 1, AXL_BUNDLE_EXECUTABLE,
                                  &kb) ||
        axl_kernel_bundle_get_kernel(kb, id, &k) ||
        axl_queue_single_task(q, k, NULL, 0, NULL, 0, &e) ||
        axl_event_wait(e)) {
        printf("model: %s\n", axl_last_message());
        return 1;
    }
    /* The run took its 1 us of the model's clock, and a few accesses (a
     * build without profiling, AXL_FEATURE_PROFILING 0, cannot say). */
    axl_status st = axl_event_get_profiling(e, AXL_PROFILING_COMMAND_START,
                                            &t0);
    if (st == AXL_SUCCESS)
        st = axl_event_get_profiling(e, AXL_PROFILING_COMMAND_END, &t1);
    if (st == AXL_SUCCESS)
        printf("model: %s ran nop in %llu ns of its clock\n", name,
               (unsigned long long)(t1 - t0));
    else if (st == AXL_ERR_FEATURE_NOT_SUPPORTED)
        printf("model: %s ran nop (%s)\n", name, axl_last_message());
    else
        return 1;
    if (strcmp(name, "consumer's model") ||
        (st == AXL_SUCCESS && (t1 - t0 < 1000 || t1 - t0 > 2000)) ||
        axl_event_release(e) || axl_kernel_release(k) ||
        axl_kernel_bundle_release(kb) || axl_queue_release(q))
        return 1;
    return axl_shutdown() ? 1 : 0;
}
