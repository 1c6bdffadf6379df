/*
 * chain.c - the firmware: replays the plan record.c wrote (copy_kernel
 * then vadd, chained through DDR) a few times with new data, checking
 * every output word. The same file runs on the board, under QEMU and on
 * the host (axl_add_firmware, axl_add_qemu_test).
 */
#include <stdint.h>

#include "axl/firmware.h"
#include "axl/plan.h"
#include "chain.h"

extern const axl_plan chain_plan;

/* Where argument `arg` (a buffer) of node `node` is, in the loaded plan. */
static int32_t *buffer_of(axl_plan_id p, uint32_t node, uint32_t arg)
{
    const axl_plan_node *n = &chain_plan.nodes[node];
    for (uint32_t i = n->arg0; i < n->arg0 + n->nargs; i++) {
        const axl_plan_arg *a = &chain_plan.args[i];
        void *host;
        if (a->id == arg && a->kind == AXL_PLAN_ARG_BUFFER &&
            axl_plan_buffer(p, a->ref, &host, NULL) == AXL_SUCCESS)
            return (int32_t *)((char *)host + a->at);
    }
    return NULL;
}

int main(void)
{
    axl_plan_id p;
    axl_plan_run r;
    if (axl_fw_board(NULL, 0) != AXL_SUCCESS ||
        axl_plan_load(&chain_plan, &p) != AXL_SUCCESS) {
        axl_fw_printf("chain: %s\n", axl_last_message());
        return 1;
    }
    int32_t *in = buffer_of(p, CHAIN_COPY, 0), *b = buffer_of(p, CHAIN_VADD, 1);
    int32_t *out = buffer_of(p, CHAIN_VADD, 2);
    unsigned wrong = 0;
    for (int32_t run = 0; run < 4; run++) {
        for (int32_t i = 0; i < CHAIN_N; i++) {
            in[i] = i * run;
            b[i] = 1000 * i;
            out[i] = -1;
        }
        if (axl_plan_submit(p, &r) != AXL_SUCCESS ||
            axl_plan_wait(r, 1000000000u) != AXL_SUCCESS) {
            axl_fw_printf("chain: run %d: %s\n", (int)run, axl_last_message());
            return 1;
        }
        for (int32_t i = 0; i < CHAIN_N; i++)
            wrong += out[i] != i * run + 1000 * i;
    }
    axl_fw_printf("chain: 4 runs of %d words, %u wrong: %s\n", CHAIN_N, wrong,
                  wrong ? "FAIL" : "ok");
    return wrong != 0;
}
