/* vadd_check.h - what the installed package's consumers run (consumer.c,
 * rtl/rtl_firmware.c): kernel id, a vadd, once on queue q over 64
 * elements; 0 when every sum is right, else 1 after saying why. *units
 * gets how many compute units the kernel has. */
#ifndef VADD_CHECK_H
#define VADD_CHECK_H

#include <stdio.h>

#include <axl/axl.h>

static int vadd_check(axl_queue q, axl_kernel_id id, uint32_t *units)
{
    enum { N = 64 };
    int32_t a[N], b[N], s[N];
    for (int i = 0; i < N; i++) {
        a[i] = i;
        b[i] = 1000 * i;
    }
    axl_context ctx;
    axl_kernel_bundle kb;
    axl_kernel k;
    axl_buffer A, B, S;
    axl_kernel_info info = {0};
    if (axl_queue_get_context(q, &ctx) ||
        axl_get_kernel_bundle_for(ctx, NULL, 0, &id, 1, AXL_BUNDLE_EXECUTABLE,
                                  &kb) ||
        axl_kernel_bundle_get_kernel(kb, id, &k) ||
        axl_kernel_get_info(k, &info) ||
        axl_buffer_create_from_const(a, 4, axl_range_1d(N), NULL, &A) ||
        axl_buffer_create_from_const(b, 4, axl_range_1d(N), NULL, &B) ||
        axl_buffer_create_from(s, 4, axl_range_1d(N), NULL, &S) ||
        axl_queue_single_task(q, k, AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(B),
                                             AXL_ARG_OUT(S), AXL_ARG_U32(N)),
                              NULL, 0, NULL) ||
        axl_buffer_release(S) || axl_buffer_release(A) ||
        axl_buffer_release(B) || axl_kernel_release(k) ||
        axl_kernel_bundle_release(kb)) {
        printf("vadd: %s\n", axl_last_message());
        return 1;
    }
    for (int i = 0; i < N; i++)
        if (s[i] != 1001 * i) {
            printf("vadd: s[%d] = %d\n", i, (int)s[i]);
            return 1;
        }
    *units = info.compute_units;
    return 0;
}

#endif /* VADD_CHECK_H */
