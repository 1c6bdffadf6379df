// vadd: the HLS source of the stock vector add (include/axl/kernels.h
// gives its semantics, xrt/emu its C model). `axl-xclbin kernel-xml
// vadd.cpp --top vadd` writes vadd.xml from it, as `v++ -c` would put in
// vadd.xo.
extern "C" void vadd(const int *in1, const int *in2, int *out_r,
                     unsigned int size)
{
#pragma HLS INTERFACE m_axi port=in1 offset=slave bundle=gmem
#pragma HLS INTERFACE m_axi port=in2 offset=slave bundle=gmem
#pragma HLS INTERFACE m_axi port=out_r offset=slave bundle=gmem
#pragma HLS INTERFACE s_axilite port=return bundle=control
    for (unsigned int i = 0; i < size; i++) {
#pragma HLS PIPELINE II=1
        // two's complement wrap, as the adder does
        out_r[i] = (int)((unsigned int)in1[i] + (unsigned int)in2[i]);
    }
}
