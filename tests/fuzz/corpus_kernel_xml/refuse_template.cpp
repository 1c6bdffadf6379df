template <int N>
void k(ap_uint<N*2> *a, hls::vector<ap_fixed<16, 8>, 4> v) {
}
