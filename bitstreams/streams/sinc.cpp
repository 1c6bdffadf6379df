// sinc: free-running (ap_ctrl_none): inc added to every word of data_in,
// written to data_out, for ever (bitstreams/rtl/sinc.v is its RTL).
#include <ap_axi_sdata.h>
#include <ap_int.h>
#include <hls_stream.h>

typedef ap_axiu<32, 0, 0, 0> beat;

extern "C" void sinc(hls::stream<beat> &data_in, hls::stream<beat> &data_out,
                     unsigned inc)
{
#pragma HLS INTERFACE ap_ctrl_none port = return
#pragma HLS INTERFACE axis port = data_in
#pragma HLS INTERFACE axis port = data_out
#pragma HLS INTERFACE s_axilite port = inc
    beat b = data_in.read();
    b.data += inc;
    data_out.write(b);
}
