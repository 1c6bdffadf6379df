/*
 * plan_graphs.c - writes the test plans test_plans.c compiles in
 * (plan_graphs.h says each graph): on the emulated device carrying the
 * stock design, records the graph the symbol names (plan_record.c),
 * finalizes it and writes it (axl_plan_write_file).
 *
 *     plan_graphs <output.c> <symbol>
 */
#include <stdio.h>
#include <string.h>

#include "axl/axl.h"
#include "axl/emu.h"
#include "axl/plan.h"
#include "axl_plan_graphs_stock_xclbin.h"
#include "axl_plan_graphs_streams_xclbin.h"
#include "plan_graphs.h"


/* plan_pipe: on the streams design (plan_graphs.h). */
static axl_status run_pipe(const char *path, axl_device dev)
{
    plan_pipe_rig r;
    TRY(plan_pipe_up(&r, dev));
    axl_graph_exec x;
    TRY(plan_pipe_finalize(&r, &x));
    TRY(axl_plan_write_file(x, "plan_pipe", path));
    TRY(axl_graph_exec_release(x));
    TRY(plan_pipe_down(&r));
    return axl_shutdown();
}

static axl_status run(const char *path, const char *name)
{
    const int pipe = !strcmp(name, "plan_pipe");
    TRY(axl_emu_set_builtin_image(
        pipe ? axl_plan_graphs_streams_xclbin : axl_plan_graphs_stock_xclbin,
        pipe ? axl_plan_graphs_streams_xclbin_size
             : axl_plan_graphs_stock_xclbin_size));
    TRY(axl_init());
    axl_device devs[8];
    uint32_t nd = 0;
    TRY(axl_device_get_all(AXL_DEVICE_TYPE_ACCELERATOR, devs, 8, &nd));
    if (pipe)
        return run_pipe(path, devs[0]);
    plan_rig r;
    /* The emulated device: its port is the board's first. */
    TRY(plan_rig_up(&r, devs[0]));
    axl_graph_exec x;
    TRY(plan_rig_finalize(&r, name, &x));
    TRY(axl_plan_write_file(x, name, path));
    TRY(axl_graph_exec_release(x));
    TRY(plan_rig_down(&r));
    return axl_shutdown();
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: plan_graphs <output.c> <symbol>\n");
        return 2;
    }
    return run(argv[1], argv[2]) == AXL_SUCCESS ? 0 : 1;
}
