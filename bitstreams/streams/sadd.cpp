// sadd: addend added to every word of data_in, written to data_out, up to
// and including the beat with TLAST (bitstreams/rtl/sadd.v is its RTL).
#include <ap_axi_sdata.h>
#include <ap_int.h>
#include <hls_stream.h>

typedef ap_axiu<32, 0, 0, 0> beat;

extern "C" void sadd(hls::stream<beat> &data_in, hls::stream<beat> &data_out,
                     unsigned addend)
{
#pragma HLS INTERFACE axis port = data_in
#pragma HLS INTERFACE axis port = data_out
    for (bool last = false; !last;) {
        beat b = data_in.read();
        b.data += addend;
        last = b.last;
        data_out.write(b);
    }
}
