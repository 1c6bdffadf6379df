// s2mm: n words of the stream data_in to dst (bitstreams/rtl/s2mm.v is
// its RTL).
#include <ap_axi_sdata.h>
#include <ap_int.h>
#include <hls_stream.h>

typedef ap_axiu<32, 0, 0, 0> beat;

extern "C" void s2mm(hls::stream<beat> &data_in, ap_uint<32> *dst,
                     unsigned n)
{
#pragma HLS INTERFACE axis port = data_in
#pragma HLS INTERFACE m_axi port = dst offset = slave bundle = gmem
    for (unsigned i = 0; i < n; i++)
        dst[i] = data_in.read().data;
}
