// The interface of k (see README.md): three float vectors and a
// 64-bit length, ap_ctrl_hs. The body is ours.
#include <cstdint>

extern "C" void k(const float *a, const float *b, float *c,
                       uint64_t n)
{
#pragma HLS INTERFACE m_axi port=a offset=slave bundle=gmem0
#pragma HLS INTERFACE m_axi port=b offset=slave bundle=gmem1
#pragma HLS INTERFACE m_axi port=c offset=slave bundle=gmem2
#pragma HLS INTERFACE ap_ctrl_hs port=return
    for (uint64_t i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}
