/*
 * The stock kernels' C models: what the IPs in bitstreams/stock.xclbin and
 * bitstreams/app.xclbin compute, argument for argument (see their XML).
 * Each checks that its buffers hold what its scalars say it will touch:
 * on hardware an overrun reads or writes whatever lies beyond; here it is
 * an error that names the argument, so CI catches it.
 */
#include <string.h>

#include "axl/runtime.h"
#include "emu_models.h"

static axl_status too_small(const axl_emu_call *c, const char *arg,
                            uint64_t need)
{
    return emu_fail(AXL_ERR_KERNEL,
                    "%s: argument %s must be a buffer of at least %llu bytes",
                    c->kernel, arg, (unsigned long long)need);
}

/* vadd(in1, in2, out_r, size): out_r[i] = in1[i] + in2[i] (int32). */
static axl_status vadd(const axl_emu_call *c, void *user)
{
    (void)user;
    uint32_t n;
    axl_status st = axl_emu_u32(c, 3, &n);
    if (st != AXL_SUCCESS)
        return st;
    uint64_t bytes = (uint64_t)n * 4;
    const int32_t *a = axl_emu_buffer(c, 0, bytes);
    const int32_t *b = axl_emu_buffer(c, 1, bytes);
    int32_t *out = axl_emu_buffer(c, 2, bytes);
    if (!a)
        return too_small(c, "in1", bytes);
    if (!b)
        return too_small(c, "in2", bytes);
    if (!out)
        return too_small(c, "out_r", bytes);
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
    uint64_t bytes = (uint64_t)dim * dim * 4;
    const float *a = axl_emu_buffer(c, 0, bytes);
    const float *b = axl_emu_buffer(c, 1, bytes);
    float *out = axl_emu_buffer(c, 2, bytes);
    if (!a || !b || !out)
        return too_small(c, !a ? "a" : !b ? "b" : "c", bytes);
    for (uint32_t i = 0; i < dim; i++)
        for (uint32_t j = 0; j < dim; j++) {
            float acc = 0.0f;
            for (uint32_t k = 0; k < dim; k++)
                acc += a[i * dim + k] * b[k * dim + j];
            out[i * dim + j] = acc;
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
    const int16_t *in = axl_emu_buffer(c, 0, (uint64_t)len * 2);
    const int16_t *coeff = axl_emu_buffer(c, 1, (uint64_t)taps * 2);
    int16_t *out = axl_emu_buffer(c, 2, (uint64_t)len * 2);
    if (!in || !out)
        return too_small(c, !in ? "in" : "out", (uint64_t)len * 2);
    if (!coeff)
        return too_small(c, "coeff", (uint64_t)taps * 2);
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
    uint64_t px = (uint64_t)w * h;
    const uint8_t *in = axl_emu_buffer(c, 0, px);
    const int8_t *k = axl_emu_buffer(c, 1, 9);
    uint8_t *out = axl_emu_buffer(c, 2, px);
    if (!in || !out)
        return too_small(c, !in ? "in" : "out", px);
    if (!k)
        return too_small(c, "coeff", 9);
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
    float *d = axl_emu_buffer(c, 0, (uint64_t)n * 4);
    if (!d)
        return too_small(c, "data", (uint64_t)n * 4);
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
