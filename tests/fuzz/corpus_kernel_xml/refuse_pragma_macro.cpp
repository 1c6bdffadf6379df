#define P(x) _Pragma(#x)
void k(int *a) {
  P(HLS INTERFACE m_axi port=a bundle=g)
}
