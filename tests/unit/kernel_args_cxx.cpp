// The short kernel arguments (axl/handler.h) used from C++17, as an
// application writes them: compiled with -fsyntax-only by CTest
// (kernel_args_compile_as_cxx17), since the library itself is C.
#include <axl/axl.h>

axl_status launch(axl_queue q, axl_kernel k, axl_buffer a, axl_buffer b,
                  axl_buffer out, uint32_t n, axl_event *done);
axl_status launch(axl_queue q, axl_kernel k, axl_buffer a, axl_buffer b,
                  axl_buffer out, uint32_t n, axl_event *done)
{
    axl_kernel_arg more[] = {AXL_ARG_INOUT(a), AXL_ARG_WRITE(b),
                             AXL_ARG_I32(-1), AXL_ARG_I64(-2),
                             AXL_ARG_U64(3), AXL_ARG_F32(0.5f),
                             AXL_ARG_F64(0.25), AXL_ARG_BYTES(&n, sizeof n),
                             AXL_ARG_AT(7, AXL_ARG_U32(n))};
    (void)more;
    return axl_queue_single_task(q, k,
                                 AXL_ARGS(AXL_ARG_IN(a), AXL_ARG_IN(b),
                                          AXL_ARG_OUT(out), AXL_ARG_U32(n)),
                                 nullptr, 0, done);
}
