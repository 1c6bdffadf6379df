/*
 * The streams design's set-up (axl_test.h: axl_test_setup_streams), in a
 * file of its own: only the programs that call it embed the image it
 * carries (axl_embed_xclbin ... axl_test_streams_xclbin), and a program
 * that does not call it does not link it.
 */
#include "axl_test.h"

#include "axl/emu.h"

/* The program's own copy of the image (axl_embed_xclbin declares these in
 * the header it writes beside the program, not here: the RTL programs
 * embed the streams.xclbin built with the RTL). */
extern const unsigned char axl_test_streams_xclbin[];
extern const size_t axl_test_streams_xclbin_size;

int axl_test_setup_streams(void **state)
{
    axl_test_setup(state);
    AXL_OK(axl_emu_set_builtin_image(axl_test_streams_xclbin,
                                     axl_test_streams_xclbin_size));
    AXL_OK(axl_emu_register_model("mm2s", axl_emu_model_mm2s, NULL));
    AXL_OK(axl_emu_register_model("sadd", axl_emu_model_sadd, NULL));
    AXL_OK(axl_emu_register_model("s2mm", axl_emu_model_s2mm, NULL));
    AXL_OK(axl_emu_register_model("sinc", axl_emu_model_sinc, NULL));
    return 0;
}
