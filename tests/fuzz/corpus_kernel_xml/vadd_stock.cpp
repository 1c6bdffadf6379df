extern "C" void k(const int *in1, const int *in2, int *out_r, unsigned int size)
{
#pragma HLS INTERFACE mode=m_axi port=in1 bundle=gmem offset=slave
#pragma HLS INTERFACE s_axilite port=return bundle=control
#pragma HLS INTERFACE ap_ctrl_hs port=return
}
