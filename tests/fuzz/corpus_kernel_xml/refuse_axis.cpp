void k(int *a, int b) {
#pragma HLS INTERFACE axis port=b
}
