// The interface of hbm_kernel (see README.md); the body is ours. The type
// of maxi comes from the header, as in the original.
#include "hbm_kernel.h"

extern "C" {
void hbm_kernel(mem_word_t *maxi, unsigned size, int pattern, unsigned range)
{
    #pragma HLS INTERFACE m_axi port=maxi offset=slave bundle=gmem depth=BUFFER_SIZE
    #pragma HLS INTERFACE s_axilite port=maxi bundle=control
    #pragma HLS INTERFACE s_axilite port=size bundle=control
    #pragma HLS INTERFACE s_axilite port=pattern bundle=control
    #pragma HLS INTERFACE s_axilite port=range bundle=control
    #pragma HLS INTERFACE s_axilite port=return bundle=control
    for (unsigned i = 0; i < size && pattern; i++)
        maxi[i % range] = maxi[i];
}
}
