/*
 * fw_plan.c - writes the R5 plan firmware's plan (fw_plan.h): on the
 * host, with the full runtime and the emulated device carrying the stock
 * design the R5 board carries, records the graph once, finalizes it
 * (every rule checked there) and writes it as C source.
 *
 *     fw_plan <output.c> <symbol>
 *
 * tests/CMakeLists.txt runs it (axl_add_plan) and compares what it writes
 * with the checked-in axl_fw_plan.c, which the R5 cross build compiles.
 */
#include <stdio.h>
#include <stdlib.h>

#include "axl/axl.h"
#include "axl/emu.h"
#include "axl/plan.h"
#include "axl_fw_plan_stock_xclbin.h"
#include "fw_plan.h"

static int failed(const char *call, axl_status st)
{
    fprintf(stderr, "fw_plan: %s: %s (%s)\n", call, axl_status_name(st),
            axl_last_message());
    return 1;
}

#define TRY(call)                                                              \
    do {                                                                       \
        axl_status st_ = (call);                                               \
        if (st_ != AXL_SUCCESS)                                                \
            return failed(#call, st_);                                         \
    } while (0)

typedef struct rig {
    axl_device dev;
    axl_context ctx;
    axl_queue q;
    axl_kernel_bundle bundle;
    axl_kernel vadd, fir, conv2d;
} rig;

/* A buffer of n elements of elem bytes, placed in the device's bank. */
static axl_status buffer(const rig *r, size_t elem, size_t n, uint32_t bank,
                         axl_buffer *out)
{
    axl_status st = axl_buffer_create(elem, axl_range_1d(n), NULL, out);
    if (st == AXL_SUCCESS)
        st = axl_buffer_place(*out, r->dev, bank);
    return st;
}

static int record(rig *r, axl_buffer *b, axl_graph_exec *x)
{
    TRY(buffer(r, 4, FW_PLAN_VN, 0, &b[FW_PLAN_X]));
    TRY(buffer(r, 4, FW_PLAN_VN, 0, &b[FW_PLAN_Y]));
    TRY(buffer(r, 4, FW_PLAN_VN, 0, &b[FW_PLAN_O0]));
    TRY(buffer(r, 4, FW_PLAN_VN, 1, &b[FW_PLAN_P]));
    TRY(buffer(r, 4, FW_PLAN_VN, 1, &b[FW_PLAN_Q]));
    TRY(buffer(r, 4, FW_PLAN_VN, 1, &b[FW_PLAN_O1]));
    TRY(buffer(r, 2, FW_PLAN_FLEN, 0, &b[FW_PLAN_F]));
    TRY(buffer(r, 1, FW_PLAN_CW * FW_PLAN_CH, 1, &b[FW_PLAN_G]));
    axl_graph g;
    TRY(axl_graph_create(r->ctx, r->dev, &g));
    TRY(axl_graph_begin_recording(g, r->q));
    TRY(axl_queue_single_task(
        r->q, r->vadd,
        AXL_ARGS(AXL_ARG_IN(b[FW_PLAN_X]), AXL_ARG_IN(b[FW_PLAN_Y]),
                 AXL_ARG_OUT(b[FW_PLAN_O0]), AXL_ARG_U32(FW_PLAN_VN)),
        NULL, 0, NULL));
    TRY(axl_queue_single_task(
        r->q, r->vadd,
        AXL_ARGS(AXL_ARG_IN(b[FW_PLAN_P]), AXL_ARG_IN(b[FW_PLAN_Q]),
                 AXL_ARG_OUT(b[FW_PLAN_O1]), AXL_ARG_U32(FW_PLAN_VN)),
        NULL, 0, NULL));
    TRY(axl_queue_single_task(
        r->q, r->fir,
        AXL_ARGS(AXL_ARG_IN(b[FW_PLAN_X]), AXL_ARG_IN(b[FW_PLAN_Y]),
                 AXL_ARG_OUT(b[FW_PLAN_F]), AXL_ARG_U32(FW_PLAN_FTAPS),
                 AXL_ARG_U32(FW_PLAN_FLEN)),
        NULL, 0, NULL));
    TRY(axl_queue_single_task(
        r->q, r->conv2d,
        AXL_ARGS(AXL_ARG_IN(b[FW_PLAN_P]), AXL_ARG_IN(b[FW_PLAN_Q]),
                 AXL_ARG_OUT(b[FW_PLAN_G]), AXL_ARG_U32(FW_PLAN_CW),
                 AXL_ARG_U32(FW_PLAN_CH), AXL_ARG_U32(FW_PLAN_SHIFT)),
        NULL, 0, NULL));
    TRY(axl_graph_end_recording(g, r->q));
    TRY(axl_graph_finalize(g, x));
    TRY(axl_graph_release(g));
    return 0;
}

static axl_status kernel(rig *r, const char *name, axl_kernel *k)
{
    axl_kernel_id id;
    axl_status st = axl_get_built_in_kernel_id(r->dev, name, &id);
    if (st == AXL_SUCCESS)
        st = axl_kernel_bundle_get_kernel(r->bundle, id, k);
    return st;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: fw_plan <output.c> <symbol>\n");
        return 2;
    }
    /* The design the R5 board carries (tests/firmware: fw_board_sim.c). */
    TRY(axl_emu_set_builtin_image(axl_fw_plan_stock_xclbin,
                                  axl_fw_plan_stock_xclbin_size));
    TRY(axl_init());
    rig r;
    axl_device devs[8];
    uint32_t nd = 0;
    TRY(axl_device_get_all(AXL_DEVICE_TYPE_ACCELERATOR, devs, 8, &nd));
    r.dev = devs[0]; /* the emulated device: its port is the board's first */
    axl_kernel_id ids[3];
    TRY(axl_get_built_in_kernel_id(r.dev, "vadd", &ids[0]));
    TRY(axl_get_built_in_kernel_id(r.dev, "fir", &ids[1]));
    TRY(axl_get_built_in_kernel_id(r.dev, "conv2d", &ids[2]));
    TRY(axl_context_create(&r.dev, 1, NULL, &r.ctx));
    TRY(axl_queue_create(r.ctx, r.dev, 0, NULL, &r.q));
    TRY(axl_get_kernel_bundle_for(r.ctx, NULL, 0, ids, 3,
                                  AXL_BUNDLE_EXECUTABLE, &r.bundle));
    TRY(kernel(&r, "vadd", &r.vadd));
    TRY(kernel(&r, "fir", &r.fir));
    TRY(kernel(&r, "conv2d", &r.conv2d));
    axl_buffer b[FW_PLAN_BUFFERS];
    axl_graph_exec x;
    if (record(&r, b, &x))
        return 1;
    TRY(axl_plan_write_file(x, argv[2], argv[1]));
    TRY(axl_graph_exec_release(x));
    for (int i = 0; i < FW_PLAN_BUFFERS; i++)
        TRY(axl_buffer_release(b[i]));
    TRY(axl_kernel_release(r.vadd));
    TRY(axl_kernel_release(r.fir));
    TRY(axl_kernel_release(r.conv2d));
    TRY(axl_kernel_bundle_release(r.bundle));
    TRY(axl_queue_release(r.q));
    TRY(axl_context_release(r.ctx));
    TRY(axl_shutdown());
    return 0;
}
