/*
 * record.c - writes the firmware's plan on the host (axl_add_plan runs it
 * as `record <output.c> <symbol>`): records the graph once on the
 * emulated device carrying the design, finalizes it (every rule checked
 * here) and writes it as C source, naming the buffers the firmware uses.
 */
#include <stdio.h>

#include "axl/axl.h"
#include "axl/emu.h"
#include "axl/firmware.h"
#include "axl/plan.h"
#include "chain.h"
#include "chain_xclbin.h"

#define TRY(call)                                                              \
    do {                                                                       \
        if ((call) != AXL_SUCCESS) {                                           \
            fprintf(stderr, "record: %s: %s\n", #call, axl_last_message());    \
            return 1;                                                          \
        }                                                                      \
    } while (0)

int main(int argc, char **argv)
{
    axl_device dev;
    axl_context ctx;
    axl_queue q;
    axl_kernel_id ids[2];
    axl_kernel_bundle bundle;
    axl_kernel copy, vadd;
    axl_buffer in, mid, b, out;
    axl_graph g;
    axl_graph_exec x;
    if (argc != 3)
        return 2;
    TRY(axl_fw_register_models());
    TRY(axl_emu_set_builtin_image(chain_xclbin, chain_xclbin_size));
    TRY(axl_queue_create_selected(axl_default_selector, NULL,
                                  AXL_QUEUE_IN_ORDER, NULL, &q));
    TRY(axl_queue_get_device(q, &dev));
    TRY(axl_queue_get_context(q, &ctx));
    TRY(axl_get_built_in_kernel_id(dev, "copy_kernel", &ids[0]));
    TRY(axl_get_built_in_kernel_id(dev, "vadd", &ids[1]));
    TRY(axl_get_kernel_bundle_for(ctx, &dev, 1, ids, 2, AXL_BUNDLE_EXECUTABLE,
                                  &bundle));
    TRY(axl_kernel_bundle_get_kernel(bundle, ids[0], &copy));
    TRY(axl_kernel_bundle_get_kernel(bundle, ids[1], &vadd));
    TRY(axl_buffer_create(4, axl_range_1d(CHAIN_N), NULL, &in));
    TRY(axl_buffer_create(4, axl_range_1d(CHAIN_N), NULL, &mid));
    TRY(axl_buffer_create(4, axl_range_1d(CHAIN_N), NULL, &b));
    TRY(axl_buffer_create(4, axl_range_1d(CHAIN_N), NULL, &out));
    TRY(axl_graph_create(ctx, dev, &g));
    TRY(axl_graph_begin_recording(g, q));
    TRY(axl_queue_single_task(q, copy,
                              AXL_ARGS(AXL_ARG_IN(in), AXL_ARG_OUT(mid),
                                       AXL_ARG_U32(CHAIN_N)),
                              NULL, 0, NULL));
    TRY(axl_queue_single_task(q, vadd,
                              AXL_ARGS(AXL_ARG_IN(mid), AXL_ARG_IN(b),
                                       AXL_ARG_OUT(out), AXL_ARG_U32(CHAIN_N)),
                              NULL, 0, NULL));
    TRY(axl_graph_end_recording(g, q));
    TRY(axl_graph_finalize(g, &x));
    const axl_plan_name names[] = {{.name = "in", .buffer = in},
                                   {.name = "b", .buffer = b},
                                   {.name = "out", .buffer = out}};
    TRY(axl_plan_write_file_named(x, argv[2], names, 3, argv[1]));
    return 0; /* the process ends: nothing to give back */
}
