/*
 * copy_model.c - the C model of copy_kernel.cpp, for the builds where the
 * fabric is a model: the plan's writer (record.c) and the firmware under
 * QEMU and on the host (axl_add_firmware's MODEL_SOURCES). The stock vadd
 * has its own model.
 */
#include <string.h>

#include "axl/emu.h"
#include "axl/firmware.h"

static axl_status copy_model(const axl_emu_call *call, void *user)
{
    (void)user;
    uint32_t size;
    memcpy(&size, call->args[2].value, sizeof size);
    if (call->args[0].size < 4u * size || call->args[1].size < 4u * size)
        return AXL_ERR_KERNEL;
    memcpy(call->args[1].ptr, call->args[0].ptr, 4u * size);
    return AXL_SUCCESS;
}

axl_status axl_fw_register_models(void)
{
    return axl_emu_register_model("copy_kernel", copy_model, NULL);
}
