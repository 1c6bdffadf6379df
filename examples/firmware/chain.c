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

/* The CPU's view of the plan's buffer named `name` (record.c names them). */
static int32_t *buffer(axl_plan_id p, const char *name)
{
    uint32_t index;
    void *host = NULL;
    if (axl_plan_find_buffer(&chain_plan, name, &index) == AXL_SUCCESS)
        axl_plan_buffer(p, index, &host, NULL);
    return host;
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
    int32_t *in = buffer(p, "in"), *b = buffer(p, "b"), *out = buffer(p, "out");
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
