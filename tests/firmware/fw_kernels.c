/*
 * fw_kernels.c - the R5 kernel firmware: built-in kernels of the board's
 * design run through the mmio port (xrt/mmio), with the same API and
 * kernel ids as on the emulated device.
 *
 * Under QEMU the port's seam reaches the register-level simulator
 * (fw_board_sim.c): the units are its register files and the C models of
 * xrt/emu compute behind them, in several variants of the generated RTL
 * (vadd's two units end by interrupt). It runs vadd on both compute units
 * at once, fir and conv2d, checks every result against the same computation on the
 * CPU, checks with axl_stats_get that every pool is back to empty, and
 * prints "fw: PASS" or "fw: FAIL (n checks)".
 *
 * fw_board() (fw_board_sim.c, or fw_board_zcu102.c for a real ZCU102)
 * gives the port its board before the runtime starts.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "axl/axl.h"
#include "axl/mmio.h"
#include "fw_board.h"
#include "fw_console.h"


typedef struct rig {
    axl_device dev;
    axl_context ctx;
    axl_queue q;
    axl_kernel_bundle bundle;
} rig;

static axl_kernel kernel(rig *r, const char *name)
{
    axl_kernel_id id;
    axl_kernel k = AXL_NONE;
    if (OK(axl_get_built_in_kernel_id(r->dev, name, &id)))
        OK(axl_kernel_bundle_get_kernel(r->bundle, id, &k));
    return k;
}

/* ---- vadd over both compute units ---------------------------------------- */

enum { VN = 64 };

static void vadd_on_both_units(rig *r)
{
    static int32_t a[2][VN], b[2][VN], o[2][VN];
    for (int u = 0; u < 2; u++)
        for (int i = 0; i < VN; i++) {
            a[u][i] = i * (u + 3) - 100;
            b[u][i] = 7 * i + u;
            o[u][i] = 0;
        }
    axl_kernel k = kernel(r, "vadd");
    axl_buffer A[2], B[2], O[2];
    axl_event e[2];
    uint32_t n = VN;
    /* Two independent launches on an out-of-order queue: the second goes
     * to the unit the first leaves free. */
    for (int u = 0; u < 2; u++) {
        OK(axl_buffer_create_from(a[u], 4, axl_range_1d(VN), NULL, &A[u]));
        OK(axl_buffer_create_from(b[u], 4, axl_range_1d(VN), NULL, &B[u]));
        OK(axl_buffer_create_from(o[u], 4, axl_range_1d(VN), NULL, &O[u]));
        axl_kernel_arg args[4] = {{.index = 0, .buffer = A[u], .mode = AXL_ACCESS_READ},
                                  {.index = 1, .buffer = B[u], .mode = AXL_ACCESS_READ},
                                  {.index = 2, .buffer = O[u], .mode = AXL_ACCESS_WRITE_NO_INIT},
                                  {.index = 3, .value = &n, .size = sizeof n}};
        OK(axl_queue_single_task(r->q, k, args, 4, NULL, 0, &e[u]));
    }
    for (int u = 0; u < 2; u++) {
        OK(axl_event_wait(e[u]));
        OK(axl_event_release(e[u]));
        OK(axl_buffer_release(A[u]));
        OK(axl_buffer_release(B[u]));
        OK(axl_buffer_release(O[u])); /* writes back */
    }
    OK(axl_queue_wait_and_throw(r->q));
    unsigned bad = 0;
    for (int u = 0; u < 2; u++)
        for (int i = 0; i < VN; i++)
            bad += o[u][i] != a[u][i] + b[u][i];
    EXPECT(bad == 0);
    EXPECT(fw_units_ran("vadd", 2));
    EXPECT(fw_interrupts_ended(2)); /* vadd's units are the wired ones */
    OK(axl_kernel_release(k));
    axl_fw_printf("fw: vadd x2 on both units: %s\n", bad ? "wrong" : "ok");
}

/* ---- fir ------------------------------------------------------------------ */

enum { FTAPS = 8, FLEN = 96 };

static int16_t sat16(int64_t v)
{
    return (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
}

static void fir(rig *r)
{
    static int16_t in[FLEN], out[FLEN], want[FLEN];
    static const int16_t coeff[FTAPS] = {1200, -3400, 8000, 16000,
                                         16000, 8000, -3400, 1200};
    for (int i = 0; i < FLEN; i++)
        in[i] = (int16_t)((i * 2749) % 20000 - 10000);
    for (int i = 0; i < FLEN; i++) {
        int64_t acc = 0;
        for (int t = 0; t < FTAPS && t <= i; t++)
            acc += (int32_t)coeff[t] * in[i - t];
        int64_t v = acc + (1 << 14);
        want[i] = sat16(v >= 0 ? v / 32768 : -((-v + 32767) / 32768));
    }
    axl_kernel k = kernel(r, "fir");
    axl_buffer I, C, O;
    OK(axl_buffer_create_from(in, 2, axl_range_1d(FLEN), NULL, &I));
    OK(axl_buffer_create_from_const(coeff, 2, axl_range_1d(FTAPS), NULL, &C));
    OK(axl_buffer_create_from(out, 2, axl_range_1d(FLEN), NULL, &O));
    uint32_t taps = FTAPS, len = FLEN;
    axl_kernel_arg args[5] = {{.index = 0, .buffer = I, .mode = AXL_ACCESS_READ},
                              {.index = 1, .buffer = C, .mode = AXL_ACCESS_READ},
                              {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE_NO_INIT},
                              {.index = 3, .value = &taps, .size = 4},
                              {.index = 4, .value = &len, .size = 4}};
    OK(axl_queue_single_task(r->q, k, args, 5, NULL, 0, NULL));
    OK(axl_queue_wait_and_throw(r->q));
    OK(axl_buffer_release(I));
    OK(axl_buffer_release(C));
    OK(axl_buffer_release(O));
    bool same = memcmp(out, want, sizeof want) == 0;
    EXPECT(same);
    OK(axl_kernel_release(k));
    axl_fw_printf("fw: fir %u taps over %u samples: %s\n", (unsigned)FTAPS,
                  (unsigned)FLEN, same ? "ok" : "wrong");
}

/* ---- conv2d ----------------------------------------------------------------- */

enum { CW = 16, CH = 12 };

static void conv2d(rig *r)
{
    static uint8_t img[CW * CH], out[CW * CH], want[CW * CH];
    static const int8_t k3[9] = {1, 2, 1, 2, 4, 2, 1, 2, 1};
    uint32_t w = CW, h = CH, shift = 4;
    for (int i = 0; i < CW * CH; i++)
        img[i] = (uint8_t)((i * 37) ^ (i >> 3));
    for (int y = 0; y < CH; y++)
        for (int x = 0; x < CW; x++) {
            int32_t acc = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int yy = y + dy, xx = x + dx;
                    if (yy < 0 || xx < 0 || yy >= CH || xx >= CW)
                        continue;
                    acc += k3[(dy + 1) * 3 + dx + 1] * img[yy * CW + xx];
                }
            int32_t v = acc < 0 ? 0 : acc >> shift;
            want[y * CW + x] = (uint8_t)(v > 255 ? 255 : v);
        }
    axl_kernel k = kernel(r, "conv2d");
    axl_buffer I, C, O;
    OK(axl_buffer_create_from(img, 1, axl_range_1d(CW * CH), NULL, &I));
    OK(axl_buffer_create_from_const(k3, 1, axl_range_1d(9), NULL, &C));
    OK(axl_buffer_create_from(out, 1, axl_range_1d(CW * CH), NULL, &O));
    axl_kernel_arg args[6] = {{.index = 0, .buffer = I, .mode = AXL_ACCESS_READ},
                              {.index = 1, .buffer = C, .mode = AXL_ACCESS_READ},
                              {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE_NO_INIT},
                              {.index = 3, .value = &w, .size = 4},
                              {.index = 4, .value = &h, .size = 4},
                              {.index = 5, .value = &shift, .size = 4}};
    OK(axl_queue_single_task(r->q, k, args, 6, NULL, 0, NULL));
    OK(axl_queue_wait_and_throw(r->q));
    OK(axl_buffer_release(I));
    OK(axl_buffer_release(C));
    OK(axl_buffer_release(O));
    bool same = memcmp(out, want, sizeof want) == 0;
    EXPECT(same);
    OK(axl_kernel_release(k));
    axl_fw_printf("fw: conv2d %ux%u: %s\n", (unsigned)CW, (unsigned)CH,
                  same ? "ok" : "wrong");
}

/* ---- Pools ------------------------------------------------------------------ */

static void check_pools(bool after_shutdown)
{
    axl_pool_stats stats[32]; /* every pool and the reserved memory row */
    uint32_t n = 0;
    if (!OK(axl_stats_get(stats, 32, &n)))
        return;
    for (uint32_t i = 0; i < n; i++) {
        const axl_pool_stats *s = &stats[i];
        /* What the runtime owns until shutdown: platforms, devices, the
         * placement of the design each carries, and the built-in
         * design's image and kernel ids. */
        bool owned = !strcmp(s->name, "platform") ||
                     !strcmp(s->name, "device") ||
                     !strcmp(s->name, "placement") ||
                     !strcmp(s->name, "image") ||
                     !strcmp(s->name, "kernel_id");
        if ((after_shutdown || !owned) &&
            !fw_check(s->in_use == 0, "pool back to empty", __LINE__))
            axl_fw_printf("fw:   %s: %u in use\n", s->name,
                          (unsigned)s->in_use);
    }
}

int main(void)
{
    axl_fw_puts("fw: axl kernel firmware (" AXL_FW_BOARD ", mmio port)\n");
    OK(fw_board());
    OK(axl_init());
    rig r;
    axl_device devs[2];
    uint32_t nd = 0;
    OK(axl_device_get_all(AXL_DEVICE_TYPE_ACCELERATOR, devs, 2, &nd));
    if (EXPECT(nd == 1)) {
        r.dev = devs[0];
        char name[64];
        OK(axl_device_get_info(r.dev, AXL_DEVICE_INFO_NAME, name, sizeof name,
                               NULL));
        axl_fw_printf("fw: device: %s\n", name);
        axl_kernel_id ids[3];
        OK(axl_get_built_in_kernel_id(r.dev, "vadd", &ids[0]));
        OK(axl_get_built_in_kernel_id(r.dev, "fir", &ids[1]));
        OK(axl_get_built_in_kernel_id(r.dev, "conv2d", &ids[2]));
        OK(axl_context_create(&r.dev, 1, NULL, &r.ctx));
        OK(axl_queue_create(r.ctx, r.dev, 0, NULL, &r.q));
        OK(axl_get_kernel_bundle_for(r.ctx, NULL, 0, ids, 3,
                                     AXL_BUNDLE_EXECUTABLE, &r.bundle));
        vadd_on_both_units(&r);
        fir(&r);
        conv2d(&r);
        OK(axl_kernel_bundle_release(r.bundle));
        OK(axl_queue_release(r.q));
        OK(axl_context_release(r.ctx));
    }
    check_pools(false);
    OK(axl_shutdown());
    check_pools(true);
    if (fw_failures) {
        axl_fw_printf("fw: FAIL (%u checks)\n", fw_failures);
        return 1;
    }
    axl_fw_puts("fw: PASS\n");
    return 0;
}
