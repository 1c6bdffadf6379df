/*
 * xrt/mmio/fw_pipe.c - the plan executor's pipelines (axl/plan.h, format
 * 3): a plan's PIPE_START and PIPE_STOP nodes, replayed on the units of a
 * streaming design with pipe.c's register sequence (docs/hls-control.md,
 * "Auto-restart"). Reached only through axl_plan.pipelines, which the
 * writer sets in a plan that holds a pipeline: a firmware whose plans hold
 * none links none of this, and one built with AXL_FEATURE_STREAMS 0 fails
 * to link such a plan (at build time rather than on the board).
 *
 *  - Start: per unit, in the pipeline's start order (consumers first), the
 *    scalar words the pipeline was given; then an auto-restart unit's
 *    stale status cleared and ap_start | auto_restart (0x81) written, as
 *    axl__mmio_unit_start does; a free-running unit (ap_ctrl_none) gets its
 *    scalars only.
 *  - Stop: per auto-restart unit, 0 written to the control word, each
 *    iteration's end acknowledged, ap_idle waited for up to the pipeline's
 *    stop timeout, then the final ap_done continued (ap_ctrl_chain), as
 *    axl__mmio_unit_stop does. A unit still busy then waits for a packet
 *    the plan never sends (its commands have ended: the stop waits for
 *    them), and is reset (ap_sw_reset, else the board's hook) as the
 *    runtime's replayed stop does; one that does not come back fails the
 *    node, naming it.
 *
 * The iterations that end while the pipeline runs are acknowledged by the
 * waiter's polls and the interrupt entry (unit.c, "Auto-restart units"),
 * which look at every unit whose `restart` is set; a plan counts none.
 */
#include <stdatomic.h>

#include "axl/plan.h"
#include "axl/runtime.h"
#include "mmio_unit.h"

#if MMIO_STREAMS

/* The stop's wait for ap_idle when the plan gives none. */
#define STOP_NS 1000000000ull

static mmio_unit *unit_of(const axl_plan_pipe_unit *pu)
{
    return &axl__mmio.units[pu->ip_index];
}

static const char *name_of(const axl_plan_pipe_unit *pu)
{
    return pu->name ? pu->name : "(unnamed)";
}

/* The pipeline tables hold together, and every start or stop node names
 * one of the plan's pipelines. */
static axl_status check(const axl_plan *p)
{
    if ((p->npipes && !p->pipes) || (p->npipe_units && !p->pipe_units))
        return mmio_fail(AXL_ERR_INVALID,
                         "axl_plan_load: plan %s: %u pipelines and no "
                         "tables for them",
                         p->name, (unsigned)p->npipes);
    for (uint32_t i = 0; i < p->npipes; i++)
        if ((uint32_t)p->pipes[i].unit0 + p->pipes[i].nunits >
            p->npipe_units)
            return mmio_fail(AXL_ERR_INVALID,
                             "axl_plan_load: plan %s: pipeline %u names "
                             "units outside its tables",
                             p->name, (unsigned)i);
    for (uint32_t k = 0; k < p->npipe_units; k++) {
        const axl_plan_pipe_unit *pu = &p->pipe_units[k];
        int ok = pu->ip_index < AXL_MMIO_UNITS &&
                 pu->control <= AXL_PLAN_PIPE_FREE_RUNNING &&
                 (uint32_t)pu->word0 + pu->nwords <= p->npipe_words &&
                 (!pu->nwords || p->pipe_words);
        for (uint32_t w = 0; ok && w < pu->nwords; w++) {
            const uint16_t at = p->pipe_words[pu->word0 + w].offset;
            ok = !(at & 3u) && at >= MMIO_ARGS;
        }
        if (!ok)
            return mmio_fail(AXL_ERR_INVALID,
                             "axl_plan_load: plan %s: pipeline unit %s "
                             "(IP_LAYOUT %u) has a control, scalar words or "
                             "registers the executor cannot drive",
                             p->name, name_of(pu), (unsigned)pu->ip_index);
    }
    for (uint32_t n = 0; n < p->nnodes; n++)
        if ((p->nodes[n].kind == AXL_PLAN_NODE_PIPE_START ||
             p->nodes[n].kind == AXL_PLAN_NODE_PIPE_STOP) &&
            p->nodes[n].unit >= p->npipes)
            return mmio_fail(AXL_ERR_INVALID,
                             "axl_plan_load: plan %s: node %u names "
                             "pipeline %u of %u",
                             p->name, (unsigned)n,
                             (unsigned)p->nodes[n].unit,
                             (unsigned)p->npipes);
    return AXL_SUCCESS;
}

/* Load: the tables checked, each unit mapped (an auto-restart one wired
 * with its protocol, a free-running one only mapped: its control word is
 * never written). */
static axl_status pipe_load(const axl_plan *p)
{
    axl_status st = check(p);
    for (uint32_t k = 0; st == AXL_SUCCESS && k < p->npipe_units; k++) {
        const axl_plan_pipe_unit *pu = &p->pipe_units[k];
        const char *name = name_of(pu);
        size_t len = 0;
        while (name[len])
            len++;
        if (unit_of(pu)->known)
            continue; /* a plan's kernel unit, or another plan's */
        if (pu->control == AXL_PLAN_PIPE_FREE_RUNNING) {
            st = axl__mmio_map_unit(pu->ip_index, pu->base, name, len);
            continue;
        }
        st = axl__mmio_wire_unit(pu->ip_index, pu->base,
                                 pu->control == AXL_PLAN_PIPE_AUTO_RESTART,
                                 name, len);
        if (st == AXL_SUCCESS)
            axl__mmio_arm(unit_of(pu));
    }
    return st;
}

/* The scalar words of unit pu, as the pipeline was given them. */
static void put_words(const axl_plan *p, const axl_plan_pipe_unit *pu)
{
    mmio_unit *u = unit_of(pu);
    for (uint32_t w = 0; w < pu->nwords; w++) {
        const axl_plan_pipe_word *pw = &p->pipe_words[pu->word0 + w];
        mmio_wr32(u->regs, pw->offset, pw->value);
    }
    axl__mmio_forget_held(u); /* a kernel node's arguments may be gone */
}

/* axl__mmio_unit_start's sequence for an auto-restart unit. */
static axl_status start_unit(const axl_plan *p, const axl_plan_pipe_unit *pu)
{
    mmio_unit *u = unit_of(pu);
    if (pu->control == AXL_PLAN_PIPE_FREE_RUNNING) {
        put_words(p, pu);
        return AXL_SUCCESS;
    }
    axl_status st = axl__mmio_ready(u);
    if (st != AXL_SUCCESS)
        return st;
    put_words(p, pu);
    axl__mmio_restart_go(u, NULL); /* a plan counts no iterations */
    return AXL_SUCCESS;
}

/* Past the stop's timeout: reset (ap_sw_reset, else the board's hook).
 * AXL_SUCCESS when it came back idle. */
static axl_status reset_busy(const axl_plan_pipe_unit *pu, uint64_t ns,
                             uint32_t ctrl)
{
    char why[AXL_MESSAGE_MAX - 64];
    why[0] = '\0';
    unit_of(pu)->iterations = NULL;
    const axl_status st = axl__mmio_reset(pu->ip_index, why, sizeof why);
    if (st == AXL_SUCCESS)
        return AXL_SUCCESS;
    return mmio_fail(AXL_ERR_TIMEOUT,
                     "%s was still busy %llu ns after auto-restart was "
                     "cleared (control word 0x%x), and did not reset: %s",
                     name_of(pu), (unsigned long long)ns, (unsigned)ctrl,
                     st == AXL_ERR_FEATURE_NOT_SUPPORTED
                         ? "no ap_sw_reset and no board reset hook"
                         : why);
}

/* axl__mmio_unit_stop's sequence: auto_restart cleared, ap_idle waited
 * for (each iteration that ends meanwhile acknowledged), the final done
 * continued. */
static axl_status stop_unit(const axl_plan_pipe_unit *pu, uint64_t ns)
{
    if (pu->control == AXL_PLAN_PIPE_FREE_RUNNING)
        return AXL_SUCCESS; /* it runs on: only a reset stops it */
    mmio_unit *u = unit_of(pu);
    axl__mmio_restart_claim(u);
    mmio_wr32(u->regs, MMIO_CTRL, 0);
    const uint64_t now = axl__mmio_now();
    const uint64_t until = ns > UINT64_MAX - now ? UINT64_MAX : now + ns;
    uint32_t ctrl = 0;
    while (!axl__mmio_restart_idle(u, &ctrl)) {
        if (axl__mmio_now() >= until)
            return reset_busy(pu, ns, ctrl);
        axl__mmio_give_time(until);
    }
    axl__mmio_restart_end(u);
    return AXL_SUCCESS;
}

/* Node n: its pipeline's units started, or stopped (every unit, the
 * first failure kept); a failure's message names the plan, the node and
 * the unit. */
static axl_status pipe_run(const axl_plan *p, uint32_t n)
{
    const axl_plan_node *nd = &p->nodes[n];
    const axl_plan_pipe *pp = &p->pipes[nd->unit];
    const int start = nd->kind == AXL_PLAN_NODE_PIPE_START;
    const uint64_t ns = pp->stop_timeout_ns ? pp->stop_timeout_ns : STOP_NS;
    axl_status first = AXL_SUCCESS;
    char why[AXL_MESSAGE_MAX - 64];
    for (uint32_t k = 0; k < pp->nunits && (!start || !first); k++) {
        const axl_plan_pipe_unit *pu = &p->pipe_units[pp->unit0 + k];
        /* A stop goes on past a unit that failed: the others stop too. */
        const axl_status st = start ? start_unit(p, pu) : stop_unit(pu, ns);
        if (st != AXL_SUCCESS && first == AXL_SUCCESS) {
            first = st;
            axl_format(why, sizeof why, "%s", axl_last_message());
        }
    }
    if (first == AXL_SUCCESS)
        return AXL_SUCCESS;
    return mmio_fail(first, "plan %s: node %u (pipeline %u's %s) failed: %s",
                     p->name, (unsigned)n, (unsigned)nd->unit,
                     start ? "start" : "stop", why);
}

const axl_plan_pipe_ops axl_plan_pipelines = {.load = pipe_load,
                                              .run = pipe_run};

#endif /* MMIO_STREAMS */
