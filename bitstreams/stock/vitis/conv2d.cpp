// conv2d: the HLS source of the stock 3x3 filter (include/axl/kernels.h
// gives its semantics: a correlation with zero padding). `axl-xclbin
// kernel-xml conv2d.cpp --top conv2d` writes conv2d.xml.
extern "C" void conv2d(const unsigned char *in, const signed char *coeff,
                       unsigned char *out, unsigned int width,
                       unsigned int height, unsigned int shift)
{
#pragma HLS INTERFACE m_axi port=in offset=slave bundle=gmem
#pragma HLS INTERFACE m_axi port=coeff offset=slave bundle=gmem
#pragma HLS INTERFACE m_axi port=out offset=slave bundle=gmem
    for (unsigned int y = 0; y < height; y++)
        for (unsigned int x = 0; x < width; x++) {
            int acc = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int yy = (int)y + dy, xx = (int)x + dx;
                    if (yy >= 0 && xx >= 0 && yy < (int)height &&
                        xx < (int)width)
                        acc += coeff[(dy + 1) * 3 + dx + 1] *
                               in[yy * (int)width + xx];
                }
            int v = acc < 0 ? 0 : acc >> shift;
            out[y * width + x] = (unsigned char)(v > 255 ? 255 : v);
        }
}
