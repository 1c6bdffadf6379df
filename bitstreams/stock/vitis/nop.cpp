// nop: the HLS source of the stock empty kernel (what a launch costs).
// `axl-xclbin kernel-xml nop.cpp --top nop` writes nop.xml.
extern "C" void nop(void)
{
#pragma HLS INTERFACE ap_ctrl_hs port=return
#pragma HLS INTERFACE s_axilite port=return bundle=control
}
