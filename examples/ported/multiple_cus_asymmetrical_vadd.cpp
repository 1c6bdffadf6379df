// multiple_cus_asymmetrical_vadd.cpp - the HLS source of the vadd that
// examples/ported/multiple_cus_asymmetrical.c runs, written for axl with
// the interface of Vitis_Accel_Examples host_xrt/multiple_cus_asymmetrical_xrt
// (arguments in1, in2, out, size; in1 and out on one AXI master, in2 on
// another), so that the example's own vadd.cfg links against it. CMake
// makes its kernel.xml with axl_kernel_xml (no Vitis needed); the program
// runs it on the emulated device through a C model it registers.
extern "C" {
void vadd(const unsigned int *in1, const unsigned int *in2, unsigned int *out,
          int size)
{
#pragma HLS INTERFACE m_axi port = in1 bundle = gmem0
#pragma HLS INTERFACE m_axi port = in2 bundle = gmem1
#pragma HLS INTERFACE m_axi port = out bundle = gmem0
    for (int i = 0; i < size; i++) {
#pragma HLS PIPELINE II = 1
        out[i] = in1[i] + in2[i];
    }
}
}
