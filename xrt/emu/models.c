/*
 * The stock kernels' C models: what the IPs in bitstreams/stock.xclbin and
 * bitstreams/app.xclbin compute, argument for argument (see their XML).
 * Each checks that its buffers hold what its scalars say it will touch:
 * on hardware an overrun reads or writes whatever lies beyond; here it is
 * an error that names the argument, so CI catches it.
 */
#include <stdint.h>
#include <string.h>

#include "axl/runtime.h"
#include "emu_models.h"

/* A buffer argument the model reads or writes as elements of `align`
 * bytes: it must hold `count` of them (`count * align` bytes, computed
 * with the checked arithmetic of axl/hal.h, so a size past 64 bits is
 * refused rather than wrapped to something small) and start on an element
 * boundary, as an HLS master's port needs (the runtime refuses a
 * misaligned argument at submit; this keeps a model from ever doing a
 * misaligned load). NULL with the failure's message otherwise. */
static void *arg_buffer(const axl_emu_call *c, uint32_t id, const char *arg,
                        uint64_t count, uint32_t align, axl_status *st)
{
    uint64_t need;
    if (!axl__mul_size(count, align, &need)) {
        *st = emu_fail(AXL_ERR_KERNEL,
                       "%s: argument %s must be a buffer of %llu elements of "
                       "%u bytes, more than 2^64 bytes",
                       c->kernel, arg, (unsigned long long)count,
                       (unsigned)align);
        return NULL;
    }
    void *p = axl_emu_buffer(c, id, need);
    if (!p) {
        *st = emu_fail(AXL_ERR_KERNEL,
                       "%s: argument %s must be a buffer of at least %llu "
                       "bytes",
                       c->kernel, arg, (unsigned long long)need);
        return NULL;
    }
    if ((uintptr_t)p % align) {
        *st = emu_fail(AXL_ERR_KERNEL,
                       "%s: argument %s must start on a %u-byte boundary",
                       c->kernel, arg, (unsigned)align);
        return NULL;
    }
    return p;
}

/* vadd(in1, in2, out_r, size): out_r[i] = in1[i] + in2[i] (int32). */
static axl_status vadd(const axl_emu_call *c, void *user)
{
    (void)user;
    uint32_t n;
    axl_status st = axl_emu_u32(c, 3, &n);
    if (st != AXL_SUCCESS)
        return st;
    const int32_t *a = arg_buffer(c, 0, "in1", n, 4, &st);
    const int32_t *b = a ? arg_buffer(c, 1, "in2", n, 4, &st) : NULL;
    int32_t *out = b ? arg_buffer(c, 2, "out_r", n, 4, &st) : NULL;
    if (!out)
        return st;
    for (uint32_t i = 0; i < n; i++)
        out[i] = (int32_t)((uint32_t)a[i] + (uint32_t)b[i]); /* wraps, as HW */
    return AXL_SUCCESS;
}

/* mmult(a, b, c, dim): c = a x b, square float32 matrices, row-major. */
static axl_status mmult(const axl_emu_call *c, void *user)
{
    (void)user;
    uint32_t dim;
    axl_status st = axl_emu_u32(c, 3, &dim);
    if (st != AXL_SUCCESS)
        return st;
    uint64_t elems = (uint64_t)dim * dim; /* < 2^64: dim < 2^32 */
    const float *a = arg_buffer(c, 0, "a", elems, 4, &st);
    const float *b = a ? arg_buffer(c, 1, "b", elems, 4, &st) : NULL;
    float *out = b ? arg_buffer(c, 2, "c", elems, 4, &st) : NULL;
    if (!out)
        return st;
    /* The buffers hold dim * dim elements, so the indexes fit a size_t. */
    size_t n = dim;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            float acc = 0.0f;
            for (size_t k = 0; k < n; k++)
                acc += a[i * n + k] * b[k * n + j];
            out[i * n + j] = acc;
        }
    return AXL_SUCCESS;
}

static int16_t sat16(int64_t v)
{
    return (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
}

/* fir(in, coeff, out, taps, len): Q15 direct form, zero history,
 * out[i] = sat16((sum_k coeff[k] * in[i - k] + 2^14) >> 15). */
static axl_status fir(const axl_emu_call *c, void *user)
{
    (void)user;
    uint32_t taps, len;
    axl_status st = axl_emu_u32(c, 3, &taps);
    if (st == AXL_SUCCESS)
        st = axl_emu_u32(c, 4, &len);
    if (st != AXL_SUCCESS)
        return st;
    const int16_t *in = arg_buffer(c, 0, "in", len, 2, &st);
    int16_t *out = in ? arg_buffer(c, 2, "out", len, 2, &st) : NULL;
    const int16_t *coeff = out ? arg_buffer(c, 1, "coeff", taps, 2, &st) : NULL;
    if (!coeff)
        return st;
    for (uint32_t i = 0; i < len; i++) {
        int64_t acc = 0;
        for (uint32_t k = 0; k < taps && k <= i; k++)
            acc += (int32_t)coeff[k] * in[i - k];
        /* Round half up, then an arithmetic shift done with division so it
         * is defined for negative sums. */
        int64_t r = acc + (1 << 14);
        out[i] = sat16(r >= 0 ? r / 32768 : -((-r + 32767) / 32768));
    }
    return AXL_SUCCESS;
}

/* conv2d(in, coeff, out, width, height, shift): 3x3 over 8-bit pixels,
 * zero padding, out = clamp((sum coeff * in) >> shift, 0, 255). */
static axl_status conv2d(const axl_emu_call *c, void *user)
{
    (void)user;
    uint32_t w, h, shift;
    axl_status st = axl_emu_u32(c, 3, &w);
    if (st == AXL_SUCCESS)
        st = axl_emu_u32(c, 4, &h);
    if (st == AXL_SUCCESS)
        st = axl_emu_u32(c, 5, &shift);
    if (st != AXL_SUCCESS)
        return st;
    if (shift > 30)
        return emu_fail(AXL_ERR_KERNEL, "conv2d: shift %u is above 30",
                        (unsigned)shift);
    uint64_t px = (uint64_t)w * h; /* < 2^64: w, h < 2^32 */
    const uint8_t *in = arg_buffer(c, 0, "in", px, 1, &st);
    uint8_t *out = in ? arg_buffer(c, 2, "out", px, 1, &st) : NULL;
    const int8_t *k = out ? arg_buffer(c, 1, "coeff", 9, 1, &st) : NULL;
    if (!k)
        return st;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            int32_t acc = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int64_t yy = (int64_t)y + dy, xx = (int64_t)x + dx;
                    if (yy < 0 || xx < 0 || yy >= h || xx >= w)
                        continue;
                    acc += k[(dy + 1) * 3 + dx + 1] * in[yy * w + xx];
                }
            int32_t v = acc < 0 ? 0 : acc >> shift;
            out[(uint64_t)y * w + x] = (uint8_t)(v > 255 ? 255 : v);
        }
    return AXL_SUCCESS;
}

/* scale(data, factor, n): data[i] *= factor (float32), in place. */
static axl_status scale(const axl_emu_call *c, void *user)
{
    (void)user;
    uint32_t n;
    float f;
    axl_status st = axl_emu_u32(c, 2, &n);
    if (st == AXL_SUCCESS)
        st = axl_emu_f32(c, 1, &f);
    if (st != AXL_SUCCESS)
        return st;
    float *d = arg_buffer(c, 0, "data", n, 4, &st);
    if (!d)
        return st;
    for (uint32_t i = 0; i < n; i++)
        d[i] *= f;
    return AXL_SUCCESS;
}

/* nop(): starts and finishes: what a launch costs. */
static axl_status nop(const axl_emu_call *c, void *user)
{
    (void)c;
    (void)user;
    return AXL_SUCCESS;
}

const axl_emu_stock_model axl_emu_stock_models[] = {
    {"vadd", vadd},   {"mmult", mmult}, {"fir", fir}, {"conv2d", conv2d},
    {"scale", scale}, {"nop", nop},     {NULL, NULL},
};
