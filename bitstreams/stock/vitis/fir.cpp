// fir: the HLS source of the stock Q15 FIR filter (include/axl/kernels.h
// gives its semantics). `axl-xclbin kernel-xml fir.cpp --top fir` writes
// fir.xml.
extern "C" void fir(const short *in, const short *coeff, short *out,
                    unsigned int taps, unsigned int len)
{
#pragma HLS INTERFACE m_axi port=in offset=slave bundle=gmem
#pragma HLS INTERFACE m_axi port=coeff offset=slave bundle=gmem
#pragma HLS INTERFACE m_axi port=out offset=slave bundle=gmem
    for (unsigned int i = 0; i < len; i++) {
        long long acc = 0;
        for (unsigned int k = 0; k < taps && k <= i; k++)
            acc += (long long)coeff[k] * in[i - k];
        long long y = (acc + (1 << 14)) >> 15;
        out[i] = (short)(y > 32767 ? 32767 : y < -32768 ? -32768 : y);
    }
}
