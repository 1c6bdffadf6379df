// mmult: the HLS source of the stock matrix multiply (include/axl/kernels.h
// gives its semantics). `axl-xclbin kernel-xml mmult.cpp --top mmult`
// writes mmult.xml.
extern "C" void mmult(const float *a, const float *b, float *c,
                      unsigned int dim)
{
#pragma HLS INTERFACE m_axi port=a offset=slave bundle=gmem
#pragma HLS INTERFACE m_axi port=b offset=slave bundle=gmem
#pragma HLS INTERFACE m_axi port=c offset=slave bundle=gmem
    for (unsigned int i = 0; i < dim; i++)
        for (unsigned int j = 0; j < dim; j++) {
            float acc = 0.0f;
            for (unsigned int k = 0; k < dim; k++)
                acc += a[i * dim + k] * b[k * dim + j];
            c[i * dim + j] = acc;
        }
}
