/*
 * plan_record.c - the test graphs (plan_graphs.h), recorded by the program
 * that writes their plans (plan_graphs.c, on the emulated device) and by
 * the test that replays those plans beside the graphs themselves
 * (tests/mmio/test_plan_replay.c, on the mmio port's models): one
 * recording, so the plan and the graph it is compared with are the same.
 */
#include <stdio.h>
#include <string.h>

#include "axl/axl.h"
#include "plan_graphs.h"

axl_status plan_why(const char *call, axl_status st)
{
    if (st != AXL_SUCCESS)
        fprintf(stderr, "plan: %s: %s (%s)\n", call, axl_status_name(st),
                axl_last_message());
    return st;
}

static axl_buffer buffer(plan_rig *r, size_t elem, size_t n)
{
    axl_buffer b = AXL_NONE;
    plan_why("axl_buffer_create",
        axl_buffer_create(elem, axl_range_1d(n), NULL, &b));
    r->b[r->nb++] = b;
    return b;
}

static axl_status vadd(plan_rig *r, axl_buffer a, axl_buffer b, axl_buffer o,
                       uint32_t n)
{
    return axl_queue_single_task(r->q, r->vadd,
                                 AXL_ARGS(AXL_ARG_IN(a), AXL_ARG_IN(b),
                                          AXL_ARG_OUT(o), AXL_ARG_U32(n)),
                                 NULL, 0, NULL);
}

/* The commands of the graph `name` (plan_graphs.h), onto r->q. */
axl_status plan_record(plan_rig *r, const char *name)
{
    const uint32_t n = PLAN_N;
    if (!strcmp(name, "plan_small")) {
        axl_buffer A = buffer(r, 4, PLAN_N), B = buffer(r, 4, PLAN_N),
                   C = buffer(r, 4, PLAN_N), Fi = buffer(r, 2, PLAN_N),
                   Fc = buffer(r, 2, PLAN_TAPS), Fo = buffer(r, 2, PLAN_N),
                   S = buffer(r, 4, PLAN_S);
        axl_buffer E;
        const size_t at[3] = {PLAN_E_AT, 0, 0};
        TRY(axl_buffer_create_sub(S, at, axl_range_1d(PLAN_N / 2), &E));
        r->b[r->nb++] = E;
        TRY(vadd(r, A, B, C, n));
        TRY(axl_queue_single_task(
            r->q, r->fir,
            AXL_ARGS(AXL_ARG_IN(Fi), AXL_ARG_IN(Fc), AXL_ARG_OUT(Fo),
                     AXL_ARG_U32(PLAN_TAPS), AXL_ARG_U32(PLAN_N)),
            NULL, 0, NULL));
        return vadd(r, C, B, E, n / 2);
    }
    if (!strcmp(name, "plan_pair")) {
        axl_buffer A = buffer(r, 4, PLAN_N), B = buffer(r, 4, PLAN_N),
                   C = buffer(r, 4, PLAN_N), D = buffer(r, 4, PLAN_N),
                   E = buffer(r, 4, PLAN_N), F = buffer(r, 4, PLAN_N);
        TRY(vadd(r, A, B, C, n));
        return vadd(r, D, E, F, n);
    }
    if (!strcmp(name, "plan_chain")) {
        axl_buffer A = buffer(r, 4, PLAN_N), B = buffer(r, 4, PLAN_N),
                   C = buffer(r, 4, PLAN_N), D = buffer(r, 4, PLAN_N);
        TRY(vadd(r, A, B, C, n));
        TRY(vadd(r, C, B, D, n));
        return vadd(r, D, A, C, n);
    }
    if (!strcmp(name, "plan_beside")) {
        axl_buffer A = buffer(r, 4, PLAN_N), B = buffer(r, 4, PLAN_N),
                   C = buffer(r, 4, PLAN_N), D = buffer(r, 4, PLAN_N),
                   E = buffer(r, 4, PLAN_N), F = buffer(r, 4, PLAN_N);
        TRY(vadd(r, A, B, C, n));
        TRY(vadd(r, C, B, D, n));
        TRY(vadd(r, C, A, E, n));
        return vadd(r, A, B, F, n);
    }
    fprintf(stderr, "plan_record: no graph %s\n", name);
    return AXL_ERR_INVALID;
}

static axl_status kernel(plan_rig *r, const char *name, axl_kernel *k)
{
    axl_kernel_id id;
    axl_status st = axl_get_built_in_kernel_id(r->dev, name, &id);
    if (st == AXL_SUCCESS)
        st = axl_kernel_bundle_get_kernel(r->bundle, id, k);
    return st;
}

axl_status plan_rig_up(plan_rig *r, axl_device dev)
{
    memset(r, 0, sizeof *r);
    r->dev = dev;
    axl_kernel_id ids[2];
    TRY(axl_get_built_in_kernel_id(r->dev, "vadd", &ids[0]));
    TRY(axl_get_built_in_kernel_id(r->dev, "fir", &ids[1]));
    TRY(axl_context_create(&r->dev, 1, NULL, &r->ctx));
    TRY(axl_queue_create(r->ctx, r->dev, 0, NULL, &r->q));
    TRY(axl_get_kernel_bundle_for(r->ctx, NULL, 0, ids, 2,
                                  AXL_BUNDLE_EXECUTABLE, &r->bundle));
    TRY(kernel(r, "vadd", &r->vadd));
    TRY(kernel(r, "fir", &r->fir));
    return AXL_SUCCESS;
}

axl_status plan_rig_finalize(plan_rig *r, const char *name,
                             axl_graph_exec *x)
{
    axl_graph g;
    TRY(axl_graph_create(r->ctx, r->dev, &g));
    TRY(axl_graph_begin_recording(g, r->q));
    TRY(plan_record(r, name));
    TRY(axl_graph_end_recording(g, r->q));
    TRY(axl_graph_finalize(g, x));
    return axl_graph_release(g);
}

axl_status plan_rig_down(plan_rig *r)
{
    for (unsigned i = r->nb; i-- > 0;)
        TRY(axl_buffer_release(r->b[i]));
    TRY(axl_kernel_release(r->vadd));
    TRY(axl_kernel_release(r->fir));
    TRY(axl_kernel_bundle_release(r->bundle));
    TRY(axl_queue_release(r->q));
    return axl_context_release(r->ctx);
}

/* ---- plan_pipe: a pipeline's start and stop around its packet ----------- */

static axl_status by_name(plan_pipe_rig *r, const char *name, axl_kernel *k)
{
    return axl_kernel_bundle_get_kernel_by_name(r->bundle, name, k);
}

axl_status plan_pipe_up(plan_pipe_rig *r, axl_device dev)
{
    memset(r, 0, sizeof *r);
    r->dev = dev;
    axl_kernel_id id;
    TRY(axl_get_built_in_kernel_id(dev, "sadd", &id));
    TRY(axl_context_create(&r->dev, 1, NULL, &r->ctx));
    TRY(axl_queue_create(r->ctx, r->dev, 0, NULL, &r->q));
    /* sadd's bundle holds the whole design (its pipeline's kernels). */
    TRY(axl_get_kernel_bundle_for(r->ctx, NULL, 0, &id, 1,
                                  AXL_BUNDLE_EXECUTABLE, &r->bundle));
    TRY(axl_kernel_bundle_get_kernel(r->bundle, id, &r->sadd));
    TRY(by_name(r, "mm2s:{mm2s_1}", &r->mm2s));
    TRY(by_name(r, "s2mm:{s2mm_1}", &r->s2mm));
    static const char *const names[] = {"sadd_1"};
    const axl_pipeline_desc d = {r->bundle, "sadd_1", names, 1, 0,
                                 PLAN_PIPE_STOP_NS};
    TRY(axl_pipeline_create(r->q, &d, &r->p));
    const uint32_t add = PLAN_PIPE_ADD;
    TRY(axl_pipeline_set_arg(r->p, "sadd_1", 2, &add, 4));
    TRY(axl_buffer_create(4, axl_range_1d(PLAN_PIPE_N), NULL, &r->S));
    return axl_buffer_create(4, axl_range_1d(PLAN_PIPE_N), NULL, &r->D);
}

axl_status plan_pipe_packet(plan_pipe_rig *r)
{
    const uint32_t n = PLAN_PIPE_N;
    TRY(axl_queue_single_task(r->q, r->mm2s,
                              AXL_ARGS(AXL_ARG_AT(0, AXL_ARG_IN(r->S)),
                                       AXL_ARG_AT(2, AXL_ARG_U32(n))),
                              NULL, 0, NULL));
    return axl_queue_single_task(r->q, r->s2mm,
                                 AXL_ARGS(AXL_ARG_AT(1, AXL_ARG_OUT(r->D)),
                                          AXL_ARG_AT(2, AXL_ARG_U32(n))),
                                 NULL, 0, NULL);
}

axl_status plan_pipe_finalize(plan_pipe_rig *r, axl_graph_exec *x)
{
    axl_graph g;
    TRY(axl_graph_create(r->ctx, r->dev, &g));
    TRY(axl_graph_begin_recording(g, r->q));
    TRY(axl_pipeline_start(r->p));
    TRY(plan_pipe_packet(r));
    TRY(axl_pipeline_stop(r->p, NULL));
    TRY(axl_graph_end_recording(g, r->q));
    TRY(axl_graph_finalize(g, x));
    return axl_graph_release(g);
}

axl_status plan_pipe_down(plan_pipe_rig *r)
{
    TRY(axl_queue_wait(r->q));
    TRY(axl_pipeline_release(r->p));
    TRY(axl_buffer_release(r->S));
    TRY(axl_buffer_release(r->D));
    TRY(axl_kernel_release(r->sadd));
    TRY(axl_kernel_release(r->mm2s));
    TRY(axl_kernel_release(r->s2mm));
    TRY(axl_kernel_bundle_release(r->bundle));
    TRY(axl_queue_release(r->q));
    return axl_context_release(r->ctx);
}
