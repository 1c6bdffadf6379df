/*
 * Streaming pipelines (axl/pipeline.h) on the XRT port, on XRT 2.13's
 * noop shim: the port runs none (XRT's xrt::kernel refuses ap_ctrl_none
 * units, and its driver does not drive auto-restart), so a pipeline is
 * refused at creation with AXL_ERR_FEATURE_NOT_SUPPORTED and a message
 * that says why and where pipelines run, nothing made (issue 39).
 *
 * The board's design is bitstreams/streams.cfg's (AXL_XRT_BUILTIN_XCLBIN):
 * mm2s_1 -> sadd_1 -> s2mm_1 and mm2s_2 -> sinc_1 -> s2mm_2.
 */
#include "../support/axl_reader_skip.h"
#include <stdio.h>

#include "xrt_test.h"

#include "axl/pipeline.h"
#include "axl_config.h" /* AXL_FEATURE_STREAMS */

static int setup(void **state)
{
    xt_setup(state);
    axl__xrt_set_run_done(NULL); /* runs end in the core */
    setenv("AXL_XRT_BUILTIN_XCLBIN", AXL_XCLBIN_DIR "/streams.xclbin", 1);
    return 0;
}

static void a_pipeline_on_the_xrt_port_is_not_supported_naming_why(void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_STREAMS,
                   axl_pipeline_create(AXL_NO_QUEUE, NULL, NULL));
    axl_device dev = xt_device(NULL);
    axl_context ctx;
    axl_queue q;
    axl_kernel_bundle b;
    AXL_OK(axl_context_create(&dev, 1, NULL, &ctx));
    AXL_OK(axl_queue_create(ctx, dev, 0, NULL, &q));
    axl_kernel_id ids[8];
    size_t size = 0;
    AXL_OK(axl_device_get_info(dev, AXL_DEVICE_INFO_BUILT_IN_KERNEL_IDS, ids,
                               sizeof ids, &size));
    assert_int_equal(size / sizeof ids[0], 4); /* mm2s, sadd, s2mm, sinc */
    AXL_OK(axl_get_kernel_bundle_for(ctx, &dev, 1, ids,
                                     (uint32_t)(size / sizeof ids[0]),
                                     AXL_BUNDLE_EXECUTABLE, &b));
    static const char *const restart[] = {"sadd_1"};
    const axl_pipeline_desc d = {b, "sadd_1", restart, 1, 0, 0};
    axl_pipeline p = AXL_NO_PIPELINE;
    AXL_EXPECT(axl_pipeline_create(q, &d, &p), AXL_ERR_FEATURE_NOT_SUPPORTED);
    AXL_MESSAGE_HAS("runs no pipelines");
    AXL_MESSAGE_HAS("ap_ctrl_none");
    AXL_MESSAGE_HAS("auto-restart");
    AXL_MESSAGE_HAS("the mmio port");
    assert_int_equal(p.id, 0);
    /* The free-running unit's pipeline: the same answer. */
    const axl_pipeline_desc free = {b, "sinc_1", NULL, 0, 0, 0};
    AXL_EXPECT(axl_pipeline_create(q, &free, &p),
               AXL_ERR_FEATURE_NOT_SUPPORTED);
    AXL_MESSAGE_HAS("ap_ctrl_none");
    assert_int_equal(axl_test_pool("pipeline").in_use, 0);
    AXL_OK(axl_kernel_bundle_release(b));
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_context_release(ctx));
}

int main(void)
{
    if (axl_test_without_reader()) /* the port reads the design's xclbin */
        return 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(
            a_pipeline_on_the_xrt_port_is_not_supported_naming_why, setup,
            xt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
