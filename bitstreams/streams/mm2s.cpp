// mm2s: n words of src to the stream data_out, TLAST on the last. The HLS
// source of axl's stream kernels (bitstreams/rtl/mm2s.v is its RTL,
// written by hand to the interface Vitis HLS generates from this; the C
// model is xrt/emu/stream_models.c). mm2s.xml is `axl-xclbin kernel-xml`'s
// output from it.
#include <ap_axi_sdata.h>
#include <ap_int.h>
#include <hls_stream.h>

typedef ap_axiu<32, 0, 0, 0> beat;

extern "C" void mm2s(const ap_uint<32> *src, hls::stream<beat> &data_out,
                     unsigned n)
{
#pragma HLS INTERFACE m_axi port = src offset = slave bundle = gmem
#pragma HLS INTERFACE axis port = data_out
    for (unsigned i = 0; i < n; i++) {
        beat b;
        b.data = src[i];
        b.keep = -1;
        b.strb = -1;
        b.last = i + 1 == n;
        data_out.write(b);
    }
}
