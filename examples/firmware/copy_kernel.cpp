// copy_kernel.cpp - the HLS source of the design's first kernel: copies
// size words from in to out. CMake writes its kernel.xml from this file
// (axl_kernel_xml), so no Vitis is needed; copy_model.c is its C model.
extern "C" {
void copy_kernel(const int *in, int *out, int size)
{
#pragma HLS INTERFACE m_axi port = in bundle = gmem
#pragma HLS INTERFACE m_axi port = out bundle = gmem
    for (int i = 0; i < size; i++) {
#pragma HLS PIPELINE II = 1
        out[i] = in[i];
    }
}
}
