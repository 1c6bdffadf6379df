/* A firmware's host build on the kernels' RTL (axl_add_firmware ... MODEL
 * vadd_rtl): the board kit's board is the RTL's, carrying the design the
 * firmware was built with, and the plain API runs vadd on both units. */
#include <stdio.h>

#include <axl/axl.h>
#include <axl/firmware.h>

int main(void)
{
    enum { N = 256 };
    static int32_t a[N], b[N], s[N];
    for (int i = 0; i < N; i++)
        a[i] = 7 * i, b[i] = N - i;
    axl_queue q;
    axl_device dev;
    axl_context ctx;
    axl_kernel_id id;
    axl_kernel_bundle kb;
    axl_kernel k;
    axl_buffer A, B, S;
    if (axl_fw_board(NULL, 0) ||
        axl_queue_create_selected(axl_default_selector, NULL, 0, NULL, &q) ||
        axl_queue_get_device(q, &dev) || axl_queue_get_context(q, &ctx) ||
        axl_get_built_in_kernel_id(dev, "vadd", &id) ||
        axl_get_kernel_bundle_for(ctx, &dev, 1, &id, 1, AXL_BUNDLE_EXECUTABLE,
                                  &kb) ||
        axl_kernel_bundle_get_kernel(kb, id, &k) ||
        axl_buffer_create_from_const(a, 4, axl_range_1d(N), NULL, &A) ||
        axl_buffer_create_from_const(b, 4, axl_range_1d(N), NULL, &B) ||
        axl_buffer_create_from(s, 4, axl_range_1d(N), NULL, &S) ||
        axl_queue_single_task(q, k, AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(B),
                                             AXL_ARG_OUT(S), AXL_ARG_U32(N)),
                              NULL, 0, NULL) ||
        axl_buffer_release(S) || axl_buffer_release(A) ||
        axl_buffer_release(B) || axl_kernel_release(k) ||
        axl_kernel_bundle_release(kb) || axl_queue_release(q) ||
        axl_shutdown()) {
        printf("rtl firmware: %s\n", axl_last_message());
        return 1;
    }
    for (int i = 0; i < N; i++)
        if (s[i] != 6 * i + N) {
            printf("rtl firmware: s[%d] = %d\n", i, (int)s[i]);
            return 1;
        }
    printf("rtl firmware: vadd on the RTL, sums right\n");
    return 0;
}
