/*
 * opencl_hello_world.c - Vitis_Accel_Examples' hello_world as it was
 * written for OpenCL (cl::Buffer with CL_MEM_USE_HOST_PTR, enqueueTask) on
 * axl: random inputs, buffers over the host's arrays (use_host_ptr), one
 * vadd, the result compared with the host's, the first mismatch printed.
 */
#include <stdlib.h>

#include "example.h"
#include "opencl_hello_world_xclbin.h"

#define N 4096

int main(void)
{
    static int32_t in1[N], in2[N], hw[N], sw[N];
    for (int i = 0; i < N; i++) {
        in1[i] = rand();
        in2[i] = rand();
        sw[i] = (int32_t)((uint32_t)in1[i] + (uint32_t)in2[i]);
    }
    axl_queue q;
    axl_context ctx;
    axl_kernel_id id;
    axl_kernel_bundle bundle;
    axl_kernel vadd;
    axl_buffer A, B, S;
    CHECK(axl_image_register(opencl_hello_world_xclbin,
                             opencl_hello_world_xclbin_size));
    CHECK(axl_queue_create_selected(axl_accelerator_selector, NULL,
                                    AXL_QUEUE_ENABLE_PROFILING, NULL, &q));
    CHECK(axl_queue_get_context(q, &ctx));
    CHECK(axl_get_kernel_id("vadd", &id));
    CHECK(axl_get_kernel_bundle_for(ctx, NULL, 0, &id, 1,
                                    AXL_BUNDLE_EXECUTABLE, &bundle));
    CHECK(axl_kernel_bundle_get_kernel(bundle, id, &vadd));
    CHECK(axl_buffer_create_from_const(in1, 4, axl_range_1d(N), NULL, &A));
    CHECK(axl_buffer_create_from_const(in2, 4, axl_range_1d(N), NULL, &B));
    CHECK(axl_buffer_create_from(hw, 4, axl_range_1d(N), NULL, &S));
    CHECK(axl_queue_single_task(q, vadd,
                                AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(B),
                                         AXL_ARG_OUT(S), AXL_ARG_U32(N)),
                                NULL, 0, NULL));
    CHECK(axl_buffer_release(S)); /* waits for vadd, then writes hw[] */
    CHECK(axl_buffer_release(A));
    CHECK(axl_buffer_release(B));
    CHECK(axl_kernel_release(vadd));
    CHECK(axl_kernel_bundle_release(bundle));
    CHECK(axl_queue_release(q));
    for (int i = 0; i < N; i++)
        if (hw[i] != sw[i]) {
            printf("Error: i = %d CPU result = %d Device result = %d\n", i,
                   sw[i], hw[i]);
            printf("TEST FAILED\n");
            return 1;
        }
    printf("TEST PASSED\n");
    return axl_shutdown();
}
