/*
 * axl/kernels.h - what the stock kernels compute.
 *
 * The emulated device carries bitstreams/stock.xclbin (vadd, mmult, fir,
 * conv2d, nop) as its built-in design; bitstreams/app.xclbin holds scale
 * and another nop. Each kernel runs a C model (xrt/emu/models.c) that this
 * header specifies: argument by argument (the ids are the kernel XML's,
 * 0..n-1 in this order, so AXL_ARG_ constructors take them by position),
 * element types, rounding, overflow and edges. The same kernel.xml files
 * are installed in share/axl/vitis for designs linked with
 * axl_link_xclbin.
 *
 * Common to all: a scalar is a 32-bit value (AXL_ARG_U32, AXL_ARG_F32);
 * each buffer must hold at least the elements the scalars say the kernel
 * touches, else the command fails with AXL_ERR_KERNEL and a message naming
 * the argument and the bytes it needs ("vadd: argument in2 must be a
 * buffer of at least 4096 bytes"); on hardware an overrun would read or
 * write past the buffer instead. A kernel with a count of 0 touches
 * nothing and succeeds. Elements past the count are not written.
 */
#ifndef AXL_KERNELS_H
#define AXL_KERNELS_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * vadd(in1, in2, out_r, size): out_r[i] = in1[i] + in2[i] for i < size.
 * - in1, in2: int32_t[size], read (AXL_ARG_IN);
 * - out_r: int32_t[size], written (AXL_ARG_OUT);
 * - size: uint32_t, elements.
 * The sum wraps modulo 2^32 (two's complement, as the adder does):
 * INT32_MAX + 1 is INT32_MIN. Element by element, so out_r may be in1
 * or in2 (the same buffer given twice reads it twice).
 * Units: 2 in stock.xclbin, each reaching bank 0 and bank 1.
 */
enum axl_vadd_args {
    AXL_VADD_IN1 = 0,
    AXL_VADD_IN2 = 1,
    AXL_VADD_OUT = 2,
    AXL_VADD_SIZE = 3
};

/**
 * mmult(a, b, c, dim): c = a x b for square dim x dim matrices.
 * - a, b: float[dim * dim], row-major, read;
 * - c: float[dim * dim], row-major, written (it must not be a or b);
 * - dim: uint32_t.
 * c[i*dim + j] = sum over k = 0..dim-1, in that order, of
 * a[i*dim + k] * b[k*dim + j], accumulated in float (IEEE single, round to
 * nearest) from 0.0f: results equal a host loop written the same way.
 * Unit: 1, reaching bank 1 only (a buffer in bank 0 is refused at submit).
 */
enum axl_mmult_args {
    AXL_MMULT_A = 0,
    AXL_MMULT_B = 1,
    AXL_MMULT_C = 2,
    AXL_MMULT_DIM = 3
};

/**
 * fir(in, coeff, out, taps, len): a Q15 direct-form FIR filter.
 * - in: int16_t[len] Q15 samples, read;
 * - coeff: int16_t[taps] Q15 coefficients, read;
 * - out: int16_t[len], written (it must not be in);
 * - taps, len: uint32_t.
 * acc = sum over k < taps with k <= i of coeff[k] * in[i - k], exact
 * (64-bit); samples before in[0] are zero (the filter starts with an empty
 * history, no wrap-around). out[i] = clamp(floor((acc + 2^14) / 2^15),
 * -32768, 32767): rounded half up, then saturated, never wrapped.
 */
enum axl_fir_args {
    AXL_FIR_IN = 0,
    AXL_FIR_COEFF = 1,
    AXL_FIR_OUT = 2,
    AXL_FIR_TAPS = 3,
    AXL_FIR_LEN = 4
};

/**
 * conv2d(in, coeff, out, width, height, shift): a 3x3 filter over an 8-bit
 * image.
 * - in: uint8_t[height][width] pixels, row-major, read;
 * - coeff: int8_t[9], the window row by row (coeff[0] is up-left of the
 *   pixel, coeff[4] the pixel, coeff[8] down-right), read;
 * - out: uint8_t[height][width], written (it must not be in);
 * - width, height: uint32_t pixels; shift: uint32_t, 0..30 (above 30 the
 *   command fails with AXL_ERR_KERNEL).
 * acc(x, y) = sum over dy, dx in -1..1 of coeff[(dy+1)*3 + (dx+1)] *
 * in[y+dy][x+dx], in 32 bits (exact), where pixels outside the image are 0
 * (zero padding). The window is NOT flipped: this is a correlation, as
 * image filters are usually written, not a convolution in the strict
 * sense (an asymmetric coeff shows the difference). out = 0 when acc is
 * negative, else min(acc >> shift, 255).
 */
enum axl_conv2d_args {
    AXL_CONV2D_IN = 0,
    AXL_CONV2D_COEFF = 1,
    AXL_CONV2D_OUT = 2,
    AXL_CONV2D_WIDTH = 3,
    AXL_CONV2D_HEIGHT = 4,
    AXL_CONV2D_SHIFT = 5
};

/**
 * scale(data, factor, n) (app.xclbin): data[i] = data[i] * factor for
 * i < n, in place, in float (IEEE single, round to nearest).
 * - data: float[n], read and written (AXL_ARG_INOUT);
 * - factor: float (AXL_ARG_F32); n: uint32_t.
 */
enum axl_scale_args {
    AXL_SCALE_DATA = 0,
    AXL_SCALE_FACTOR = 1,
    AXL_SCALE_N = 2
};

/**
 * nop(): no arguments; starts and finishes (what a launch costs).
 */

#ifdef __cplusplus
}
#endif

#endif /* AXL_KERNELS_H */
