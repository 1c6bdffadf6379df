// The types of hbm_kernel's interface (see README.md); our own header.
#ifndef HBM_KERNEL_H
#define HBM_KERNEL_H
#include <ap_int.h>
#define BUFFER_SIZE 512
typedef ap_uint<512> mem_word_t;
#endif
