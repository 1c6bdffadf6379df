// streaming_k2k_mm_kernels.cpp - the HLS sources of the two kernels that
// examples/ported/streaming_k2k_mm.c runs, written for axl with the
// interfaces of Vitis_Accel_Examples host_xrt/streaming_k2k_mm_xrt
// (krnl_stream_vadd: in1, in2, out as a stream, size; krnl_stream_vmult:
// in1, in2 as a stream, out, size), so that the example's own
// krnl_stream_vadd_vmult.cfg links against them. CMake makes each
// kernel.xml with axl_kernel_xml (no Vitis needed); the program runs them
// on the emulated device through C models it registers.
#include <ap_axi_sdata.h>
#include <hls_stream.h>

typedef ap_axiu<32, 0, 0, 0> word;

extern "C" {
void krnl_stream_vadd(const int *in1, const int *in2,
                      hls::stream<word> &out, int size)
{
#pragma HLS INTERFACE axis port = out
    for (int i = 0; i < size; i++) {
        word w;
        w.data = in1[i] + in2[i];
        w.last = i + 1 == size;
        out.write(w);
    }
}

void krnl_stream_vmult(const int *in1, hls::stream<word> &in2, int *out,
                       int size)
{
#pragma HLS INTERFACE axis port = in2
    for (int i = 0; i < size; i++)
        out[i] = in1[i] * in2.read().data;
}
}
