// The layout rules of docs/vitis.md on what the public kernels do not
// cover (test only, never synthesised).
#include "ap_int.h"
#include "hls_vector.h"

using pixel_t = unsigned char;
typedef ap_uint<WIDE> wide_t; // WIDE comes from -D WIDE=256

extern "C" void layout(const pixel_t *img, const int *lut, wide_t *big,
                       short hist[256], hls::vector<float, 16> *vec,
                       bool flag, double gain, char bias, long long count,
                       ap_uint<65> key)
{
#pragma HLS INTERFACE mode=m_axi port=img bundle=gmem0
#pragma HLS INTERFACE mode=m_axi port=lut bundle=gmem0
#pragma HLS INTERFACE mode=m_axi port=big bundle=wide
#pragma HLS INTERFACE m_axi port=hist
#pragma HLS INTERFACE mode=s_axilite port=return
#pragma HLS ARRAY_PARTITION variable=local_copy complete
    (void)img; (void)lut; (void)big; (void)hist; (void)vec;
    (void)flag; (void)gain; (void)bias; (void)count; (void)key;
}
