/*
 * fw_plan.c - the R5 plan firmware: replays a plan (axl/plan.h) made on
 * the host against the stock design, with nothing of the runtime but the
 * executor (xrt/mmio/fw_exec.c), the mmio port's unit code and the OS port.
 *
 * The plan, axl_fw_plan (tests/firmware/plans/axl_fw_plan.c, written on
 * the host by axl_plan_write), holds two independent vadd nodes (one on
 * each vadd unit), a fir node and a conv2d node; the firmware finds them
 * in its tables by kernel. It loads the plan, then runs it a hundred
 * times: the first run with the scalars as recorded, every later one with
 * new scalars (axl_plan_set_scalar: vector lengths, taps, image sizes,
 * shifts) and with the input and output of every node swapped between
 * the plan's own placement and a second region of the same bank that the
 * firmware owns (axl_plan_set_buffer: double buffering, the next run's
 * inputs written while the current run goes on). After each run it
 * checks every output byte against the same computation on the CPU, that
 * nothing was written past what the scalars asked for, and that the
 * region not in use was not touched. It also checks a few refusals the header promises (a plan of
 * another design; updates, a second submission and unload while a run
 * goes on; updates that do not fit the plan), and that the hot path (the
 * input sections .axl_hot, AXL_HOT) was linked into the ATCM
 * (kit/sections.ld). It prints "fw: PASS" or "fw: FAIL (n
 * checks)".
 *
 * Under QEMU the board is the register-level simulator (fw_board_sim.c);
 * the footprint report links the same file with fw_board_zcu102.c (the
 * real seam) to say what a plan firmware links.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "axl/mmio.h"
#include "axl/plan.h"
#include "exec.h" /* the executor's hot functions (core/) */
#include "fw_board.h"
#include "fw_console.h"

extern const axl_plan axl_fw_plan;

/* Bounds the board's linker script gives the hot path and the ATCM. */
extern const char __axl_hot_start[], __axl_hot_end[], __axl_atcm_end[];

enum { RUNS = 100, MAX_BUFFERS = 32, POISON = 0xA5 };

/* ---- The plan, as the firmware finds it ------------------------------------ */

enum { K_VADD0, K_VADD1, K_FIR, K_CONV2D, K_COUNT };
static const char *const kernel_names[K_COUNT] = {"vadd", "vadd", "fir",
                                                  "conv2d"};

/* One node the firmware drives, with the buffers of its in (argument 0),
 * its coefficients or second input (1) and its out (2). */
typedef struct node_ref {
    uint32_t node;
    uint32_t buf[3];
    uint64_t at[3];
} node_ref;

/* Each buffer's two places: [0] the plan's own, [1] the firmware's. */
typedef struct place {
    uint8_t *host;
    uint64_t device;
} place;

static node_ref nodes[K_COUNT];
static place places[MAX_BUFFERS][2];
static bool doubled[MAX_BUFFERS]; /* swapped between its two places */

static const axl_plan_arg *arg_of(uint32_t node, uint32_t id)
{
    const axl_plan *pl = &axl_fw_plan;
    const axl_plan_node *n = &pl->nodes[node];
    for (uint32_t i = 0; i < n->nargs; i++)
        if (pl->args[n->arg0 + i].id == id)
            return &pl->args[n->arg0 + i];
    return NULL;
}

/* The scalar as the plan recorded it (a u32 for every kernel here). */
static uint32_t recorded(uint32_t node, uint32_t id)
{
    const axl_plan_arg *a = arg_of(node, id);
    uint32_t v = 0;
    if (a && a->kind == AXL_PLAN_ARG_SCALAR && a->bytes == 4)
        memcpy(&v, axl_fw_plan.scalars + a->ref, 4);
    return v;
}

/* Finds the four nodes by kernel, the vadds on two different units. */
static bool find_nodes(void)
{
    const axl_plan *pl = &axl_fw_plan;
    bool found[K_COUNT] = {false};
    for (uint32_t n = 0; n < pl->nnodes; n++) {
        for (int k = 0; k < K_COUNT; k++) {
            if (found[k] || strcmp(pl->nodes[n].kernel, kernel_names[k]))
                continue;
            found[k] = true;
            nodes[k].node = n;
            for (uint32_t id = 0; id < 3; id++) {
                const axl_plan_arg *a = arg_of(n, id);
                if (!EXPECT(a && a->kind == AXL_PLAN_ARG_BUFFER &&
                            a->ref < pl->nbuffers && a->ref < MAX_BUFFERS))
                    return false;
                nodes[k].buf[id] = a->ref;
                nodes[k].at[id] = a->at;
            }
            break;
        }
    }
    for (int k = 0; k < K_COUNT; k++)
        if (!EXPECT(found[k]))
            return false;
    const axl_plan_node *v0 = &pl->nodes[nodes[K_VADD0].node];
    const axl_plan_node *v1 = &pl->nodes[nodes[K_VADD1].node];
    return EXPECT(v0->unit != v1->unit) &&
           EXPECT(v0->npreds == 0 && v1->npreds == 0);
}

/* Elements of `elem` bytes argument id of node k can hold. */
static uint32_t capacity(int k, uint32_t id, uint32_t elem)
{
    const node_ref *r = &nodes[k];
    return (uint32_t)((axl_fw_plan.buffers[r->buf[id]].size - r->at[id]) /
                      elem);
}

/* Where argument id of node k is in place set s. */
static void *view(int k, uint32_t id, int s)
{
    const node_ref *r = &nodes[k];
    int which = doubled[r->buf[id]] ? s : 0;
    return places[r->buf[id]][which].host + r->at[id];
}

/* Gives the in and out buffer of every node a second region in its bank,
 * from the region's end down, above the plan's own placements. */
static bool place_doubles(axl_plan_id p)
{
    const axl_plan *pl = &axl_fw_plan;
    for (uint32_t b = 0; b < pl->nbuffers && b < MAX_BUFFERS; b++) {
        void *host;
        if (!OK(axl_plan_buffer(p, b, &host, &places[b][0].device)))
            return false;
        places[b][0].host = host;
    }
    for (int k = 0; k < K_COUNT; k++) {
        doubled[nodes[k].buf[0]] = true;
        doubled[nodes[k].buf[2]] = true;
    }
    for (uint32_t b = 0; b < pl->nbuffers && b < MAX_BUFFERS; b++) {
        if (!doubled[b])
            continue;
        const axl_plan_buffer_desc *d = &pl->buffers[b];
        void *rhost;
        uint64_t rphys, rsize;
        if (!EXPECT(fw_bank_region(d->bank, &rhost, &rphys, &rsize)))
            return false;
        /* The lowest address taken in the bank so far: the region's end,
         * or the last double placed in it. */
        uint64_t top = rphys + rsize;
        for (uint32_t o = 0; o < b; o++)
            if (doubled[o] && pl->buffers[o].bank == d->bank &&
                places[o][1].device < top)
                top = places[o][1].device;
        uint64_t low = 0; /* the end of the plan's own buffers there */
        for (uint32_t o = 0; o < pl->nbuffers && o < MAX_BUFFERS; o++)
            if (pl->buffers[o].bank == d->bank &&
                places[o][0].device + pl->buffers[o].size > low)
                low = places[o][0].device + pl->buffers[o].size;
        /* As the port aligns the plan's own (the board's alignment, at
         * least the plan's). */
        uint64_t align = d->align > fw_buffer_align() ? d->align
                                                      : fw_buffer_align();
        uint64_t at = (top - d->size) & ~(align - 1);
        if (top < d->size || at < low) {
            axl_fw_printf("fw: FAIL: bank %u has no room for a second "
                          "buffer %u (%u bytes)\n",
                          (unsigned)d->bank, (unsigned)b, (unsigned)d->size);
            fw_failures++;
            return false;
        }
        places[b][1].device = at;
        places[b][1].host = (uint8_t *)rhost + (at - rphys);
    }
    return true;
}

/* ---- What each run computes --------------------------------------------------- */

typedef struct params {
    uint32_t n[2];              /* vadd sizes */
    uint32_t taps, len;         /* fir */
    uint32_t w, h, shift;       /* conv2d */
} params;

static params params_of(int i)
{
    params q;
    if (i == 0) { /* as recorded */
        q.n[0] = recorded(nodes[K_VADD0].node, 3);
        q.n[1] = recorded(nodes[K_VADD1].node, 3);
        q.taps = recorded(nodes[K_FIR].node, 3);
        q.len = recorded(nodes[K_FIR].node, 4);
        q.w = recorded(nodes[K_CONV2D].node, 3);
        q.h = recorded(nodes[K_CONV2D].node, 4);
        q.shift = recorded(nodes[K_CONV2D].node, 5);
        return q;
    }
    uint32_t v0 = capacity(K_VADD0, 2, 4), v1 = capacity(K_VADD1, 2, 4);
    q.n[0] = v0 - (uint32_t)i % (v0 < 5 ? v0 : 5);
    q.n[1] = 1 + (uint32_t)i * 7 % v1;
    uint32_t ctaps = capacity(K_FIR, 1, 2), flen = capacity(K_FIR, 2, 2);
    q.taps = 1 + (uint32_t)i % ctaps;
    q.len = flen - (uint32_t)i * 5 % flen;
    uint32_t w0 = recorded(nodes[K_CONV2D].node, 3);
    uint32_t h0 = recorded(nodes[K_CONV2D].node, 4);
    q.w = w0 > 3 ? w0 - (uint32_t)i % 3 : w0;
    q.h = h0 > 2 ? h0 - (uint32_t)i % 2 : h0;
    q.shift = (uint32_t)i % 8;
    return q;
}

static void set_scalars(axl_plan_id p, const params *q)
{
    OK(axl_plan_set_scalar(p, nodes[K_VADD0].node, 3, &q->n[0], 4));
    OK(axl_plan_set_scalar(p, nodes[K_VADD1].node, 3, &q->n[1], 4));
    OK(axl_plan_set_scalar(p, nodes[K_FIR].node, 3, &q->taps, 4));
    OK(axl_plan_set_scalar(p, nodes[K_FIR].node, 4, &q->len, 4));
    OK(axl_plan_set_scalar(p, nodes[K_CONV2D].node, 3, &q->w, 4));
    OK(axl_plan_set_scalar(p, nodes[K_CONV2D].node, 4, &q->h, 4));
    OK(axl_plan_set_scalar(p, nodes[K_CONV2D].node, 5, &q->shift, 4));
}

/* Puts every doubled buffer in place set s. */
static void set_buffers(axl_plan_id p, int s)
{
    for (uint32_t b = 0; b < axl_fw_plan.nbuffers && b < MAX_BUFFERS; b++)
        if (doubled[b])
            OK(axl_plan_set_buffer(p, b, s ? places[b][1].host : NULL,
                                   s ? places[b][1].device : 0,
                                   axl_fw_plan.buffers[b].size));
}

/* Run i's inputs in place set s, and every output of s poisoned. */
static void fill(int i, int s)
{
    uint32_t v0 = capacity(K_VADD0, 0, 4);
    int32_t *a = view(K_VADD0, 0, s);
    for (uint32_t k = 0; k < v0; k++)
        a[k] = (int32_t)(k * (uint32_t)(i + 3)) - 1000 * i;
    uint32_t v1 = capacity(K_VADD1, 0, 4);
    a = view(K_VADD1, 0, s);
    for (uint32_t k = 0; k < v1; k++)
        a[k] = (int32_t)(k ^ (uint32_t)i * 2654435761u);
    uint32_t fl = capacity(K_FIR, 0, 2);
    int16_t *f = view(K_FIR, 0, s);
    for (uint32_t k = 0; k < fl; k++)
        f[k] = (int16_t)((int32_t)((k + (uint32_t)i * 13) * 2749 % 20000) -
                         10000);
    uint32_t px = capacity(K_CONV2D, 0, 1);
    uint8_t *img = view(K_CONV2D, 0, s);
    for (uint32_t k = 0; k < px; k++)
        img[k] = (uint8_t)((k * 37 + (uint32_t)i * 11) ^ (k >> 3));
    for (int k = 0; k < K_COUNT; k++)
        memset(view(k, 2, s), POISON,
               axl_fw_plan.buffers[nodes[k].buf[2]].size - nodes[k].at[2]);
}

/* The operands that are not doubled (vadd's in2, the coefficients): set
 * once, before the first run. */
static void fill_fixed(void)
{
    for (int k = K_VADD0; k <= K_VADD1; k++) {
        int32_t *b = view(k, 1, 0);
        for (uint32_t j = 0; j < capacity(k, 1, 4); j++)
            b[j] = 7 * (int32_t)j + k;
    }
    static const int16_t taps[8] = {1200, -3400, 8000, 16000,
                                    16000, 8000, -3400, 1200};
    int16_t *c = view(K_FIR, 1, 0);
    for (uint32_t j = 0; j < capacity(K_FIR, 1, 2); j++)
        c[j] = taps[j % 8];
    static const int8_t k3[9] = {1, 2, 1, 2, 4, 2, 1, 2, 1};
    int8_t *ck = view(K_CONV2D, 1, 0);
    for (uint32_t j = 0; j < 9 && j < capacity(K_CONV2D, 1, 1); j++)
        ck[j] = k3[j];
}

static bool poisoned(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != POISON)
            return false;
    return true;
}

static int16_t sat16(int64_t v)
{
    return (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
}

static unsigned wrong[K_COUNT]; /* runs with a wrong output, per node */

/* Checks run i's outputs in set s against the CPU: the first elements
 * the scalars name, nothing written past them, and set !s untouched. */
static void check(int i, int s, const params *q)
{
    bool ok[K_COUNT];
    for (int k = K_VADD0; k <= K_VADD1; k++) {
        const int32_t *a = view(k, 0, s), *b = view(k, 1, s);
        const int32_t *o = view(k, 2, s);
        uint32_t n = q->n[k - K_VADD0], cap = capacity(k, 2, 4);
        ok[k] = n <= cap;
        for (uint32_t j = 0; ok[k] && j < n; j++)
            ok[k] = o[j] == (int32_t)((uint32_t)a[j] + (uint32_t)b[j]);
        ok[k] = ok[k] && poisoned((const uint8_t *)(o + n), (cap - n) * 4u);
    }
    {
        const int16_t *in = view(K_FIR, 0, s), *c = view(K_FIR, 1, s);
        const int16_t *o = view(K_FIR, 2, s);
        uint32_t cap = capacity(K_FIR, 2, 2);
        ok[K_FIR] = q->len <= cap;
        for (uint32_t j = 0; ok[K_FIR] && j < q->len; j++) {
            int64_t acc = 0;
            for (uint32_t t = 0; t < q->taps && t <= j; t++)
                acc += (int32_t)c[t] * in[j - t];
            int64_t v = acc + (1 << 14);
            ok[K_FIR] = o[j] == sat16(v >= 0 ? v / 32768
                                             : -((-v + 32767) / 32768));
        }
        ok[K_FIR] = ok[K_FIR] &&
                    poisoned((const uint8_t *)(o + q->len),
                             (cap - q->len) * 2u);
    }
    {
        const uint8_t *img = view(K_CONV2D, 0, s);
        const int8_t *k3 = view(K_CONV2D, 1, s);
        const uint8_t *o = view(K_CONV2D, 2, s);
        uint32_t w = q->w, h = q->h, cap = capacity(K_CONV2D, 2, 1);
        ok[K_CONV2D] = w * h <= cap;
        for (uint32_t y = 0; ok[K_CONV2D] && y < h; y++)
            for (uint32_t x = 0; ok[K_CONV2D] && x < w; x++) {
                int32_t acc = 0;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        int32_t yy = (int32_t)y + dy, xx = (int32_t)x + dx;
                        if (yy < 0 || xx < 0 || yy >= (int32_t)h ||
                            xx >= (int32_t)w)
                            continue;
                        acc += k3[(dy + 1) * 3 + dx + 1] * img[yy * w + xx];
                    }
                int32_t v = acc < 0 ? 0 : acc >> q->shift;
                ok[K_CONV2D] = o[y * w + x] == (uint8_t)(v > 255 ? 255 : v);
            }
        ok[K_CONV2D] = ok[K_CONV2D] && poisoned(o + w * h, cap - w * h);
    }
    /* The set not in use: its outputs as fill() poisoned them. */
    for (int k = 0; k < K_COUNT; k++) {
        const node_ref *r = &nodes[k];
        const uint8_t *other = view(k, 2, !s);
        if (other != view(k, 2, s))
            ok[k] = ok[k] &&
                    poisoned(other, axl_fw_plan.buffers[r->buf[2]].size -
                                        r->at[2]);
    }
    for (int k = 0; k < K_COUNT; k++)
        if (!ok[k] && wrong[k]++ == 0)
            axl_fw_printf("fw: FAIL: run %d: %s (node %u) wrong in buffer set "
                          "%d\n",
                          i, kernel_names[k], (unsigned)nodes[k].node, s);
}

/* ---- The hot path ------------------------------------------------------------ */

static bool in_hot(uintptr_t f)
{
    f &= ~(uintptr_t)1; /* a Thumb function's address has bit 0 set */
    return f >= (uintptr_t)__axl_hot_start && f < (uintptr_t)__axl_hot_end;
}

static void check_hot_path(void)
{
    uintptr_t lo = (uintptr_t)__axl_hot_start, hi = (uintptr_t)__axl_hot_end;
    axl_fw_printf("fw: hot path 0x%05lx..0x%05lx (%lu bytes), ATCM ends at "
                  "0x%05lx\n",
                  (unsigned long)lo, (unsigned long)hi,
                  (unsigned long)(hi - lo),
                  (unsigned long)(uintptr_t)__axl_atcm_end);
    EXPECT(hi > lo);
    EXPECT(hi <= (uintptr_t)__axl_atcm_end);
    /* The wait that drives a replay, a unit's interrupt entry, and the
     * executor's walk and run end (core/exec.c). */
    EXPECT(in_hot((uintptr_t)&axl_plan_wait));
    EXPECT(in_hot((uintptr_t)&axl_mmio_isr));
    EXPECT(in_hot((uintptr_t)&axl__exec_drive_held));
    EXPECT(in_hot((uintptr_t)&axl__exec_run_ended));
}

/* ---- Replays ------------------------------------------------------------------ */

/* What the header says is refused, while run r goes on. */
static void refusals_while_running(axl_plan_id p)
{
    uint32_t n = 1;
    axl_plan_run again;
    EXPECT(axl_plan_submit(p, &again) == AXL_ERR_BAD_STATE);
    EXPECT(axl_plan_set_scalar(p, nodes[K_VADD0].node, 3, &n, 4) ==
           AXL_ERR_BAD_STATE);
    uint32_t b = nodes[K_VADD0].buf[0];
    EXPECT(axl_plan_set_buffer(p, b, places[b][1].host, places[b][1].device,
                               axl_fw_plan.buffers[b].size) ==
           AXL_ERR_BAD_STATE);
    EXPECT(axl_plan_unload(p) == AXL_ERR_BAD_STATE);
}

/* And what is refused at any time, changing nothing. */
static void refusals(axl_plan_id p)
{
    uint32_t n = 1;
    uint16_t narrow = 1;
    /* A scalar of another size than recorded, a buffer argument as a
     * scalar, a node the plan has not. */
    EXPECT(axl_plan_set_scalar(p, nodes[K_VADD0].node, 3, &narrow, 2) ==
           AXL_ERR_INVALID);
    EXPECT(axl_plan_set_scalar(p, nodes[K_VADD0].node, 0, &n, 4) ==
           AXL_ERR_INVALID);
    EXPECT(axl_plan_set_scalar(p, axl_fw_plan.nnodes, 3, &n, 4) ==
           AXL_ERR_INVALID);
    /* A buffer too small, and one outside its bank's region. */
    uint32_t b = nodes[K_VADD0].buf[0];
    const axl_plan_buffer_desc *d = &axl_fw_plan.buffers[b];
    EXPECT(axl_plan_set_buffer(p, b, places[b][1].host, places[b][1].device,
                               d->size - 4) == AXL_ERR_INVALID);
    void *rhost;
    uint64_t rphys, rsize;
    if (fw_bank_region(d->bank, &rhost, &rphys, &rsize))
        EXPECT(axl_plan_set_buffer(p, b, rhost, rphys + rsize, d->size) ==
               AXL_ERR_INVALID);
}

static void replay(void)
{
    const axl_plan *pl = &axl_fw_plan;
    /* A plan made for another design is refused at load. */
    axl_plan other = *pl;
    other.uuid[15] ^= 0x5a;
    axl_plan_id p = {0};
    if (!EXPECT(axl_plan_load(&other, &p) == AXL_ERR_INVALID))
        axl_plan_unload(p);
    if (!OK(axl_plan_load(pl, &p)))
        return;
    axl_fw_printf("fw: plan %s: %u nodes, %u buffers, %u units\n", pl->name,
                  (unsigned)pl->nnodes, (unsigned)pl->nbuffers,
                  (unsigned)pl->nunits);
    if (!find_nodes() || !place_doubles(p)) {
        OK(axl_plan_unload(p));
        return;
    }
    refusals(p);
    fill_fixed();
    fill(0, 0);
    unsigned swaps = 0, scalar_sets = 0, polled = 0;
    for (int i = 0; i < RUNS; i++) {
        int s = i & 1;
        params q = params_of(i);
        if (i > 0) {
            set_scalars(p, &q);
            scalar_sets += 7;
        }
        set_buffers(p, s);
        swaps++;
        axl_plan_run r;
        if (!OK(axl_plan_submit(p, &r)))
            break;
        if (i == 0)
            refusals_while_running(p);
        /* Double buffering: the next run's inputs go to the other set
         * while this one runs (and its outputs are poisoned, which the
         * check below reads as untouched). */
        fill(i + 1, !s);
        axl_status st;
        if (i % 3 == 1) {
            int done = 0;
            unsigned looks = 0;
            do
                st = axl_plan_poll(r, &done);
            while (st == AXL_SUCCESS && !done && ++looks < 10000000u);
            EXPECT(done);
            polled++;
        } else {
            st = axl_plan_wait(r, 1000000000u);
        }
        if (!OK(st))
            break;
        check(i, s, &q);
    }
    unsigned bad = 0;
    for (int k = 0; k < K_COUNT; k++)
        bad += wrong[k];
    EXPECT(bad == 0);
    EXPECT(fw_units_ran("vadd", 2));
    axl_fw_printf("fw: %d runs (%u waited by polling), %u scalar updates, %u "
                  "buffer swaps: %s\n",
                  RUNS, polled, scalar_sets, swaps, bad ? "wrong" : "ok");
    OK(axl_plan_unload(p));
    EXPECT(axl_plan_submit(p, &(axl_plan_run){0}) != AXL_SUCCESS);
}

int main(void)
{
    axl_fw_puts("fw: axl plan firmware (" AXL_FW_BOARD ", mmio port)\n");
    OK(fw_board());
    check_hot_path();
    replay();
    if (fw_failures) {
        axl_fw_printf("fw: FAIL (%u checks)\n", fw_failures);
        return 1;
    }
    axl_fw_puts("fw: PASS\n");
    return 0;
}
