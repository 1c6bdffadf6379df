/*
 * multiple_cus_asymmetrical.c - Vitis_Accel_Examples'
 * multiple_cus_asymmetrical_xrt on axl: four units of vadd, each wired to
 * a memory of its own by the example's unchanged vadd.cfg (vadd_1 on
 * DDR[0], vadd_2 on DDR[1], vadd_3 on PLRAM[0], vadd_4 on PLRAM[1] of a
 * U250), the kernel.xml made from the HLS source, not the stock one. One
 * kernel object per unit (axl_kernel_select_units, XRT's "vadd:{vadd_1}"),
 * its buffers placed in the bank its arguments reach (axl_kernel_get_arg_bank,
 * XRT's group_id), four runs at once; every byte checked against the host.
 * The kernel is the application's, so it runs the C model registered here.
 */
#include <string.h>
#include "example.h"
#include "axl/emu.h"
#include "multiple_cus_asymmetrical_xclbin.h"

#define N (1024 * 16)
#define CUS 4
#define CHUNK (N / CUS)

/* The C model of multiple_cus_asymmetrical_vadd.cpp: out = in1 + in2,
 * `size` elements, refused past the shortest buffer it was handed. */
static axl_status vadd_model(const axl_emu_call *call, void *user)
{
    (void)user;
    const uint32_t *in1 = call->args[0].ptr, *in2 = call->args[1].ptr;
    uint32_t *out = call->args[2].ptr, size;
    memcpy(&size, call->args[3].value, sizeof size);
    for (uint32_t arg = 0; arg < 3; arg++)
        if ((uint64_t)size * 4 > call->args[arg].size)
            return axl_fail(AXL_ERR_KERNEL_ARGUMENT, "vadd: size %u is past "
                            "argument %u's end", size, arg);
    for (uint32_t i = 0; i < size; i++)
        out[i] = in1[i] + in2[i];
    return AXL_SUCCESS;
}

int main(void)
{
    static uint32_t a[N], b[N], out[N], expect[N];
    for (uint32_t i = 0; i < N; i++) {
        a[i] = i * 2654435761u;
        b[i] = ~i << 7;
        expect[i] = a[i] + b[i];
    }
    memset(out, 0xA5, sizeof out); /* a byte the units leave is a failure */
    axl_queue q;
    axl_device dev;
    axl_context ctx;
    axl_kernel_id id;
    axl_kernel_bundle bundle;
    axl_kernel vadd, cu[CUS];
    axl_buffer buf[CUS][3];
    CHECK(axl_emu_register_model("vadd", vadd_model, NULL));
    CHECK(axl_image_register(multiple_cus_asymmetrical_xclbin,
                             multiple_cus_asymmetrical_xclbin_size));
    CHECK(axl_queue_create_selected(axl_default_selector, NULL, 0, NULL, &q));
    CHECK(axl_queue_get_context(q, &ctx));
    CHECK(axl_queue_get_device(q, &dev));
    CHECK(axl_get_kernel_id("vadd", &id));
    CHECK(axl_get_kernel_bundle_for(ctx, NULL, 0, &id, 1,
                                    AXL_BUNDLE_EXECUTABLE, &bundle));
    CHECK(axl_kernel_bundle_get_kernel(bundle, id, &vadd));
    for (int u = 0; u < CUS; u++) {
        char name[16];
        snprintf(name, sizeof name, "vadd_%d", u + 1);
        CHECK(axl_kernel_select_units(vadd, name, &cu[u]));
        size_t at = (size_t)u * CHUNK;
        CHECK(axl_buffer_create_from_const(a + at, 4, axl_range_1d(CHUNK),
                                           NULL, &buf[u][0]));
        CHECK(axl_buffer_create_from_const(b + at, 4, axl_range_1d(CHUNK),
                                           NULL, &buf[u][1]));
        CHECK(axl_buffer_create_from(out + at, 4, axl_range_1d(CHUNK), NULL,
                                     &buf[u][2]));
        axl_kernel_arg_bank bank;
        for (uint32_t arg = 0; arg < 3; arg++) {
            CHECK(axl_kernel_get_arg_bank(cu[u], arg, dev, &bank));
            CHECK(axl_buffer_place(buf[u][arg], dev, bank.bank));
        }
        printf("%s: buffers in %s\n", name, bank.tag);
        CHECK(axl_queue_single_task(q, cu[u],
                                    AXL_ARGS(AXL_ARG_IN(buf[u][0]),
                                             AXL_ARG_IN(buf[u][1]),
                                             AXL_ARG_OUT(buf[u][2]),
                                             AXL_ARG_U32(CHUNK)),
                                    NULL, 0, NULL));
    }
    CHECK(axl_queue_wait_and_throw(q));
    for (int u = 0; u < CUS; u++) {
        for (int arg = 0; arg < 3; arg++)
            CHECK(axl_buffer_release(buf[u][arg])); /* out: writes out[] */
        CHECK(axl_kernel_release(cu[u]));
    }
    CHECK(axl_kernel_release(vadd));
    CHECK(axl_kernel_bundle_release(bundle));
    CHECK(axl_queue_release(q));
    if (memcmp(out, expect, sizeof out) != 0) {
        fprintf(stderr, "the units' sums differ from the host's\n");
        return 1;
    }
    printf("TEST PASSED\n");
    return axl_shutdown();
}
