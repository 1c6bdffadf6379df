/*
 * Random programs of commands over a few buffers, run on the emulated
 * device and compared with a sequential model of the same program.
 *
 * SYCL orders conflicting accesses by submission (3.7.1, 4.7.2.3) and lets
 * the rest run in any order, so every value a command reads, and the final
 * contents, must equal running the program one command at a time in
 * submission order. The programs mix host tasks (read, write,
 * read-modify-write), fills, copies in every direction, update_host, host
 * accessors, explicit dependencies, two queues (in order and out of order),
 * sub-buffers, and buffers placed on the device, so data moves between
 * host and device banks. They launch the emulated device's vadd (two
 * compute units) both ways: axl_queue_single_task (often with exactly the
 * arguments of the launch before, so the kernel's memo of its last launch
 * and the units' hold of its arguments are used, or with one buffer, mode,
 * size or queue changed) and a command group
 * (the general path, with no_init and regions). Two buffers are released
 * and made again as the programs run, so new buffers land in freed slots.
 *
 * Every fourth seed holds a second design too (issue 40,
 * docs/designs-design.md 6.2): design B's fir (tests/unit/designs_b.cfg)
 * runs among the vadds over the same buffers, read as 16-bit samples, so
 * a device that reprograms on demand swaps between the two designs as the
 * program goes, and every value must still match the model. (Where the
 * device keeps one design, the RTL's board, B's bundle is refused and
 * those seeds run vadd alone.)
 *
 * Fixed seeds in CI; AXL_RANDOM_SEEDS=n and AXL_RANDOM_OPS=n run more.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axl_test.h"
#include "axl_config.h"
#if defined(AXL_TEST_TWO_DESIGNS)
#include "axl_test_designs_b_xclbin.h"
#endif

enum { NBUF = 7, NBASE = 5, LEN = 512, NOPS_DEFAULT = 400, SEEDS_DEFAULT = 48 };

/* Buffers: 0 is a base with two sub-buffers (views 3 and 4), 1 is made
 * from host data, 2 is size only, 5 and 6 (bases 3 and 4) are size only
 * and made again from time to time. Views index these handles. */

/* A vadd launch: out[i] = in1[i] + in2[i] for i < n. */
typedef struct klaunch {
    int way;      /* 0: axl_queue_single_task, 1: a command group */
    int qi;       /* queue 0 or 1, with its own context and kernel */
    int v[3];     /* in1, in2, out */
    axl_access_mode mode[3]; /* 0 (read_write by default) allowed */
    uint32_t n;
    bool region;  /* accessors over [0, n) rather than whole views */
    bool reversed; /* arguments given last first */
    bool no_init; /* on out (command groups only) */
} klaunch;

typedef struct world {
    axl_queue q[3];
    axl_buffer view[NBUF];
    int base_of[NBUF];   /* which model array a view reads */
    size_t off_of[NBUF]; /* the view's first element in it */
    size_t len_of[NBUF];
    int model[NBASE][LEN];
    axl_kernel_bundle bundle[2];
    axl_kernel vadd[2];
    /* Design B's fir, per queue's context, when the seed holds it. */
    bool two;
    axl_kernel_bundle bundle_b[2];
    axl_kernel fir[2];
    axl_buffer coeff;
    int16_t taps[4];
    klaunch last;
    bool have_last;
    int launches, repeats;
    int host_data[LEN];
    axl_event ev[64];
    int nev;
    uint64_t rng;
    int mismatches;
    char first[256];
} world;

static uint32_t rnd(world *w, uint32_t n)
{
    w->rng ^= w->rng << 13;
    w->rng ^= w->rng >> 7;
    w->rng ^= w->rng << 17;
    return (uint32_t)(w->rng % n);
}

static void mismatch(world *w, const char *what, int op, size_t i, int got,
                     int want)
{
    if (!w->mismatches++)
        snprintf(w->first, sizeof w->first,
                 "%s at op %d, element %zu: got %d, model says %d", what, op,
                 i, got, want);
}

/* ---- Host tasks ---------------------------------------------------------------- */

typedef struct rtask {
    world *w;
    int op, view;
    axl_access_mode mode;
    axl_region region;
    int *ptr;
    int expect[LEN];  /* what it must read (model at submission) */
} rtask;

static rtask tasks[4096];
static int ntasks;

static axl_status rtask_fn(void *user)
{
    rtask *t = user;
    size_t n = t->region.range[0];
    for (size_t i = 0; i < n; i++) {
        if (t->mode & AXL_ACCESS_READ) {
            if (t->ptr[i] != t->expect[i])
                mismatch(t->w, "host task read", t->op, i, t->ptr[i],
                         t->expect[i]);
        }
        if (t->mode == AXL_ACCESS_WRITE)
            t->ptr[i] = t->op * 7 + (int)i;
        else if (t->mode == AXL_ACCESS_READ_WRITE)
            t->ptr[i] = (int)((unsigned)t->ptr[i] + 1u);
    }
    return AXL_SUCCESS;
}

typedef struct group {
    rtask *t;
    const axl_event *deps;
    uint32_t ndeps;
} group;

static void rtask_cgf(axl_handler *h, void *user)
{
    group *g = user;
    axl_accessor a;
    axl_handler_depends_on_list(h, g->deps, g->ndeps);
    axl_handler_require(h, g->t->w->view[g->t->view], g->t->mode,
                        &g->t->region, 0, &a);
    axl_handler_host_ptr(h, a, (void **)&g->t->ptr);
    axl_handler_host_task(h, rtask_fn, g->t);
}

/* ---- Copies to the host: checked after the program ---------------------------------- */

typedef struct readback {
    int op;
    size_t n;
    int got[LEN];
    int want[LEN];
} readback;

static readback reads[2048];
static int nreads;

/* ---- The program ------------------------------------------------------------------------ */

static int *model_of(world *w, int v)
{
    return &w->model[w->base_of[v]][w->off_of[v]];
}

static axl_region random_region(world *w, int v)
{
    size_t len = w->len_of[v];
    size_t n = 1 + rnd(w, (uint32_t)(len < 64 ? len : 64));
    size_t o = rnd(w, (uint32_t)(len - n + 1));
    axl_region r = {{o, 0, 0}, {n, 1, 1}};
    return r;
}

static void keep_event(world *w, axl_event e)
{
    if (w->nev == 64) {
        axl_event_release(w->ev[0]);
        memmove(w->ev, w->ev + 1, 63 * sizeof w->ev[0]);
        w->nev--;
    }
    w->ev[w->nev++] = e;
}

static int trace;
static long total_launches, total_repeats, total_firs;
#if defined(AXL_TEST_TWO_DESIGNS)
static bool took_two; /* a seed held design B beside the built-in one */
#endif

/* ---- Kernel launches ---------------------------------------------------------------- */

static const axl_access_mode in_modes[3] = {AXL_ACCESS_READ,
                                            AXL_ACCESS_READ_WRITE, 0};
static const axl_access_mode out_modes[3] = {AXL_ACCESS_WRITE,
                                             AXL_ACCESS_READ_WRITE, 0};

static size_t min_len(const world *w, const klaunch *k)
{
    size_t len = w->len_of[k->v[0]];
    for (int i = 1; i < 3; i++)
        if (w->len_of[k->v[i]] < len)
            len = w->len_of[k->v[i]];
    return len;
}

/* Do the first n elements of views a and b share model elements? */
static bool overlap(const world *w, int a, int b, uint32_t n)
{
    if (w->base_of[a] != w->base_of[b])
        return false;
    size_t x = w->off_of[a], y = w->off_of[b];
    return x < y + n && y < x + n;
}

static bool k_valid(const world *w, const klaunch *k)
{
    if (k->n == 0 || k->n > min_len(w, k))
        return false;
    if (overlap(w, k->v[2], k->v[0], k->n) ||
        overlap(w, k->v[2], k->v[1], k->n))
        return false;
    /* A write-only or no_init output over its whole view leaves what vadd
     * does not write unspecified: vadd writes all of it. */
    if ((k->mode[2] == AXL_ACCESS_WRITE || k->no_init) && !k->region &&
        k->n != w->len_of[k->v[2]])
        return false;
    return true;
}

static klaunch k_random(world *w)
{
    klaunch k = {0};
    k.way = (int)rnd(w, 2);
    k.qi = (int)rnd(w, 2);
    for (int i = 0; i < 3; i++)
        k.v[i] = (int)rnd(w, NBUF);
    k.mode[0] = in_modes[rnd(w, 3)];
    k.mode[1] = in_modes[rnd(w, 3)];
    k.mode[2] = out_modes[rnd(w, 3)];
    size_t len = min_len(w, &k);
    k.n = rnd(w, 3) == 0 ? (uint32_t)len : 1 + rnd(w, (uint32_t)len);
    k.region = rnd(w, 4) == 0;
    k.no_init = rnd(w, 3) == 0;
    k.reversed = rnd(w, 4) == 0;
    return k;
}

/* The launch before with one thing changed. */
static klaunch k_mutate(world *w, klaunch k)
{
    switch (rnd(w, 8)) {
    case 0:
    case 1:
        k.v[rnd(w, 3)] = (int)rnd(w, NBUF);
        break;
    case 2: {
        int i = (int)rnd(w, 3);
        k.mode[i] = i == 2 ? out_modes[rnd(w, 3)] : in_modes[rnd(w, 3)];
        break;
    }
    case 3:
        k.n = 1 + rnd(w, (uint32_t)min_len(w, &k));
        break;
    case 4:
        k.way ^= 1;
        break;
    case 5:
        k.qi ^= 1;
        break;
    case 6:
        k.region = !k.region;
        break;
    default:
        k.no_init = !k.no_init;
        k.reversed = !k.reversed;
        break;
    }
    return k;
}

typedef struct kgroup {
    world *w;
    const klaunch *k;
    const axl_event *deps;
    uint32_t ndeps;
    uint32_t n;
} kgroup;

static void k_cgf(axl_handler *h, void *user)
{
    const kgroup *g = user;
    const klaunch *k = g->k;
    axl_region r = {{0, 0, 0}, {k->n, 1, 1}};
    axl_handler_depends_on_list(h, g->deps, g->ndeps);
    if (k->reversed)
        axl_handler_set_arg(h, 3, &g->n, sizeof g->n);
    for (uint32_t j = 0; j < 3; j++) {
        uint32_t i = k->reversed ? 2 - j : j;
        axl_accessor a;
        axl_handler_require(h, g->w->view[k->v[i]],
                            k->mode[i] ? k->mode[i] : AXL_ACCESS_READ_WRITE,
                            k->region ? &r : NULL,
                            i == 2 && k->no_init ? AXL_ACCESS_NO_INIT : 0, &a);
        axl_handler_set_arg_accessor(h, i, a);
    }
    if (!k->reversed)
        axl_handler_set_arg(h, 3, &g->n, sizeof g->n);
    axl_handler_single_task(h, g->w->vadd[k->qi]);
}

/* One launch of k, then the model's vadd. */
static axl_status k_launch(world *w, const klaunch *k, const axl_event *deps,
                          uint32_t nd, axl_event *e)
{
    if (trace)
        fprintf(stderr,
                "  vadd %s q%d: %d(%d) + %d(%d) -> %d(%d)%s n %u%s%s\n",
                k->way ? "group" : "single_task", k->qi, k->v[0],
                (int)k->mode[0], k->v[1], (int)k->mode[1], k->v[2],
                (int)k->mode[2], k->no_init ? " no_init" : "",
                (unsigned)k->n, k->region ? " region" : "",
                k->reversed ? " reversed" : "");
    axl_status st;
    if (k->way == 0) {
        axl_region r = {{0, 0, 0}, {k->n, 1, 1}};
        uint32_t n = k->n;
        axl_kernel_arg args[4];
        for (uint32_t i = 0; i < 3; i++)
            args[i] = (axl_kernel_arg){.index = i,
                                       .buffer = w->view[k->v[i]],
                                       .mode = k->mode[i],
                                       .region = k->region ? &r : NULL};
        /* no_init travels in the mode (AXL_ACCESS_WRITE_NO_INIT, ...). */
        if (k->no_init)
            args[2].mode = k->mode[2] == AXL_ACCESS_WRITE
                               ? AXL_ACCESS_WRITE_NO_INIT
                               : AXL_ACCESS_READ_WRITE_NO_INIT;
        args[3] = (axl_kernel_arg){.index = 3, .value = &n, .size = sizeof n};
        /* In order, every other size: by position, the scalar by value
         * (AXL_ARG_POS, AXL_ARG_U32), which must launch the same. */
        if (!k->reversed && (n & 1)) {
            for (int i = 0; i < 3; i++)
                args[i].index = AXL_ARG_POS;
            args[3] = AXL_ARG_U32(n);
        }
        if (k->reversed)
            for (int i = 0; i < 2; i++) {
                axl_kernel_arg t = args[i];
                args[i] = args[3 - i];
                args[3 - i] = t;
            }
        st = axl_queue_single_task(w->q[k->qi], w->vadd[k->qi], args, 4,
                                   deps, nd, e);
    } else {
        kgroup g = {w, k, deps, nd, k->n};
        st = axl_queue_submit(w->q[k->qi], k_cgf, &g, e);
    }
    if (st != AXL_SUCCESS)
        return st;
    const int *a = model_of(w, k->v[0]), *b = model_of(w, k->v[1]);
    int *o = model_of(w, k->v[2]);
    int sum[LEN];
    for (uint32_t i = 0; i < k->n; i++)
        sum[i] = (int)((uint32_t)a[i] + (uint32_t)b[i]);
    memcpy(o, sum, k->n * sizeof(int));
    w->launches++;
    return AXL_SUCCESS;
}

/* One to three launches: often exactly the launch before (the caches'
 * case), or it with one thing changed, else a new one. */
static axl_status k_op(world *w, const axl_event *deps, uint32_t nd,
                       axl_event *e)
{
    int times = rnd(w, 3) ? 1 : 2 + (int)rnd(w, 2);
    axl_status st = AXL_SUCCESS;
    for (int t = 0; t < times && st == AXL_SUCCESS; t++) {
        uint32_t pick = rnd(w, 10);
        klaunch k;
        if (w->have_last && pick < 5) {
            k = w->last;
            w->repeats++;
        } else if (w->have_last && pick < 8) {
            k = k_mutate(w, w->last);
        } else {
            k = k_random(w);
        }
        for (int tries = 0; !k_valid(w, &k) && tries < 50; tries++)
            k = k_random(w);
        if (!k_valid(w, &k))
            return AXL_SUCCESS;
        w->last = k;
        w->have_last = true;
        if (!AXL_IS_NONE(*e))
            keep_event(w, *e);
        axl_event none = AXL_NONE;
        *e = none;
        st = k_launch(w, &k, t ? NULL : deps, t ? 0 : nd, e);
    }
    return st;
}

/* ---- Design B's fir (some seeds) ------------------------------------------------------ */

#if defined(AXL_TEST_TWO_DESIGNS)
/* fir of kernels.h: Q15, rounded half up, saturated. */
static int16_t fir_at(const int16_t *in, const int16_t *c, uint32_t i)
{
    int64_t acc = 0;
    for (uint32_t k = 0; k < 4 && k <= i; k++)
        acc += (int32_t)c[k] * in[i - k];
    int64_t r = acc + (1 << 14);
    r = r >= 0 ? r / 32768 : -((-r + 32767) / 32768);
    return (int16_t)(r > 32767 ? 32767 : r < -32768 ? -32768 : r);
}

/* fir over the first n elements of two views that do not overlap, read
 * and written as 2n samples; the output's other elements kept
 * (read_write). */
static axl_status f_op(world *w, const axl_event *deps, uint32_t nd,
                       axl_event *e)
{
    const int qi = (int)rnd(w, 2), vi = (int)rnd(w, NBUF),
              vo = (int)rnd(w, NBUF);
    size_t len = w->len_of[vi] < w->len_of[vo] ? w->len_of[vi]
                                                : w->len_of[vo];
    const uint32_t n = 1 + rnd(w, (uint32_t)len);
    if (overlap(w, vo, vi, n))
        return AXL_SUCCESS;
    if (trace)
        fprintf(stderr, "  fir q%d: %d -> %d n %u\n", qi, vi, vo,
                (unsigned)n);
    axl_status st = axl_queue_single_task(
        w->q[qi], w->fir[qi],
        AXL_ARGS(AXL_ARG_IN(w->view[vi]), AXL_ARG_IN(w->coeff),
                 AXL_ARG_INOUT(w->view[vo]), AXL_ARG_U32(4),
                 AXL_ARG_U32(2 * n)),
        deps, nd, e);
    if (st != AXL_SUCCESS)
        return st;
    int16_t in[2 * LEN], out[2 * LEN];
    memcpy(in, model_of(w, vi), n * sizeof(int));
    for (uint32_t i = 0; i < 2 * n; i++)
        out[i] = fir_at(in, w->taps, i);
    memcpy(model_of(w, vo), out, n * sizeof(int));
    total_firs++;
    return AXL_SUCCESS;
}

/* Design B's bundle and fir in each kernel queue's context, if the device
 * takes a second design (false where it keeps one: the refusal). */
static bool two_designs_up(world *w)
{
    const axl_status reg = axl_image_register(
        axl_test_designs_b_xclbin, axl_test_designs_b_xclbin_size);
    if (reg == AXL_ERR_FEATURE_NOT_SUPPORTED)
        return false; /* a build without application images */
    AXL_OK(reg);
    axl_kernel_id fir;
    AXL_OK(axl_get_kernel_id("fir", &fir));
    for (int i = 0; i < 2; i++) {
        axl_context ctx;
        AXL_OK(axl_queue_get_context(w->q[i], &ctx));
        axl_status st = axl_get_kernel_bundle_for(
            ctx, NULL, 0, &fir, 1, AXL_BUNDLE_EXECUTABLE, &w->bundle_b[i]);
        if (st == AXL_ERR_BAD_STATE && i == 0)
            return false; /* the device keeps one design */
        AXL_OK(st);
        AXL_OK(axl_kernel_bundle_get_kernel(w->bundle_b[i], fir,
                                            &w->fir[i]));
    }
    for (int k = 0; k < 4; k++)
        w->taps[k] = (int16_t)(12000 >> k);
    AXL_OK(axl_buffer_create_from(w->taps, 2, axl_range_1d(4), NULL,
                                  &w->coeff));
    return true;
}

static void two_designs_down(world *w)
{
    for (int i = 0; i < 2; i++) {
        AXL_OK(axl_kernel_release(w->fir[i]));
        AXL_OK(axl_kernel_bundle_release(w->bundle_b[i]));
    }
    AXL_OK(axl_buffer_release(w->coeff));
}
#else
static axl_status f_op(world *w, const axl_event *deps, uint32_t nd,
                       axl_event *e)
{
    return k_op(w, deps, nd, e);
}
#endif

/* ---- Buffers made again: a new buffer in a freed slot ------------------------------- */

static axl_status remake(world *w, int op, axl_event *e)
{
    int v = 5 + (int)rnd(w, 2);
    static const size_t lens[3] = {LEN, LEN / 2, 64};
    size_t len = lens[rnd(w, 3)];
    if (len == 64)
        len += rnd(w, 64);
    axl_status st = axl_buffer_release(w->view[v]);
    if (st == AXL_SUCCESS)
        st = axl_buffer_create(sizeof(int), axl_range_1d(len), NULL,
                               &w->view[v]);
    if (st != AXL_SUCCESS)
        return st;
    w->len_of[v] = len;
    int *m = model_of(w, v);
    if (trace)
        fprintf(stderr, "  remade view %d, %zu elements\n", v, len);
    switch (rnd(w, 3)) {
    case 0: { /* a fill on any queue */
        int value = -op;
        for (size_t i = 0; i < len; i++)
            m[i] = value;
        return axl_queue_fill(w->q[rnd(w, 3)], w->view[v], NULL, &value,
                              sizeof value, NULL, 0, e);
    }
    case 1: { /* the host writes it */
        axl_host_accessor ha;
        int *p;
        st = axl_host_accessor_create(w->view[v], AXL_ACCESS_WRITE, NULL, 0,
                                      &ha, (void **)&p);
        if (st != AXL_SUCCESS)
            return st;
        for (size_t i = 0; i < len; i++)
            m[i] = p[i] = op * 5 + (int)i;
        return axl_host_accessor_release(ha);
    }
    default: { /* a copy from the host (the source lives to the end) */
        static int sources[2048][LEN];
        int *src = sources[op % 2048];
        for (size_t i = 0; i < len; i++)
            m[i] = src[i] = op * 11 - (int)i;
        return axl_queue_copy_from_host(w->q[rnd(w, 3)], src, w->view[v],
                                        NULL, NULL, 0, e);
    }
    }
}

static void run_op(world *w, int op)
{
    axl_queue q = w->q[rnd(w, 3)];
    int v = (int)rnd(w, NBUF);
    int *m = model_of(w, v);
    axl_region r = random_region(w, v);
    size_t o = r.offset[0], n = r.range[0];
    /* Up to two explicit dependencies on recent commands. */
    axl_event deps[2];
    uint32_t nd = 0;
    for (uint32_t k = rnd(w, 3); k && w->nev; k--)
        deps[nd++] = w->ev[rnd(w, (uint32_t)w->nev)];
    axl_event e = AXL_NONE;
    axl_status st = AXL_SUCCESS;
    uint32_t kind = rnd(w, 11);
    if (trace)
        fprintf(stderr, "op %d: kind %u queue %d view %d [%zu,+%zu) deps %u\n",
                op, (unsigned)kind, AXL_SAME(q, w->q[0]) ? 0 : 1, v, o, n,
                (unsigned)nd);
    switch (kind) {
    case 0:
    case 1: { /* host task */
        rtask *t = &tasks[ntasks++];
        static const axl_access_mode modes[3] = {
            AXL_ACCESS_READ, AXL_ACCESS_WRITE, AXL_ACCESS_READ_WRITE};
        *t = (rtask){.w = w, .op = op, .view = v, .mode = modes[rnd(w, 3)],
                     .region = r};
        memcpy(t->expect, m + o, n * sizeof(int));
        group g = {t, deps, nd};
        st = axl_queue_submit(q, rtask_cgf, &g, &e);
        for (size_t i = 0; i < n; i++) {
            if (t->mode == AXL_ACCESS_WRITE)
                m[o + i] = op * 7 + (int)i;
            else if (t->mode == AXL_ACCESS_READ_WRITE)
                m[o + i] = (int)((unsigned)m[o + i] + 1u);
        }
        break;
    }
    case 2: { /* fill */
        int value = op * 13;
        st = axl_queue_fill(q, w->view[v], &r, &value, sizeof value, deps, nd,
                            &e);
        for (size_t i = 0; i < n; i++)
            m[o + i] = value;
        break;
    }
    case 3: { /* copy from the host (the source lives to the end) */
        static int sources[2048][64];
        int *src = sources[op % 2048];
        for (size_t i = 0; i < n; i++)
            src[i] = -op * 100 - (int)i;
        st = axl_queue_copy_from_host(q, src, w->view[v], &r, deps, nd, &e);
        memcpy(m + o, src, n * sizeof(int));
        break;
    }
    case 4: { /* copy to the host */
        readback *rb = &reads[nreads++];
        rb->op = op;
        rb->n = n;
        memcpy(rb->want, m + o, n * sizeof(int));
        st = axl_queue_copy_to_host(q, w->view[v], &r, rb->got, deps, nd, &e);
        break;
    }
    case 5: { /* accessor to accessor, same length elsewhere */
        /* Another base buffer, so source and destination never overlap. */
        int v2 = (int)rnd(w, NBUF);
        while (w->base_of[v2] == w->base_of[v] || w->len_of[v2] < n)
            v2 = (v2 + 1) % NBUF;
        size_t o2 = rnd(w, (uint32_t)(w->len_of[v2] - n + 1));
        axl_region r2 = {{o2, 0, 0}, {n, 1, 1}};
        int *m2 = model_of(w, v2);
        if (trace)
            fprintf(stderr, "  -> view %d [%zu,+%zu)\n", v2, o2, n);
        st = axl_queue_copy(q, w->view[v], &r, w->view[v2], &r2, deps, nd, &e);
        memmove(m2 + o2, m + o, n * sizeof(int));
        break;
    }
    case 6: /* update_host */
        st = axl_queue_update_host(q, w->view[v], &r, deps, nd, &e);
        break;
    case 8:
    case 9: /* kernels */
        st = w->two && rnd(w, 3) == 0 ? f_op(w, deps, nd, &e)
                                       : k_op(w, deps, nd, &e);
        break;
    case 10: /* a buffer made again */
        st = remake(w, op, &e);
        break;
    default: { /* host accessor: synchronous, checked on the spot */
        axl_host_accessor ha;
        int *p;
        bool write = rnd(w, 2);
        st = axl_host_accessor_create(
            w->view[v], write ? AXL_ACCESS_READ_WRITE : AXL_ACCESS_READ, &r, 0,
            &ha, (void **)&p);
        if (st != AXL_SUCCESS)
            break;
        for (size_t i = 0; i < n; i++) {
            if (p[i] != m[o + i])
                mismatch(w, "host accessor", op, i, p[i], m[o + i]);
            if (write)
                m[o + i] = p[i] = op * 3 + 1;
        }
        st = axl_host_accessor_release(ha);
        break;
    }
    }
    if (st != AXL_SUCCESS) {
        if (!w->mismatches++)
            snprintf(w->first, sizeof w->first, "op %d failed: %s: %s", op,
                     axl_status_name(st), axl_last_message());
        return;
    }
    if (!AXL_IS_NONE(e))
        keep_event(w, e);
    if (getenv("AXL_RANDOM_SYNC") && !AXL_IS_NONE(e)) {
        axl_event_status es;
        axl_status err = AXL_SUCCESS;
        axl_event_wait(e);
        axl_event_get_status(e, &es, &err);
        if (err != AXL_SUCCESS)
            fprintf(stderr, "op %d: command failed: %s\n", op, axl_status_name(err));
    }
    if (getenv("AXL_RANDOM_SYNC")) {
        static const int bv[NBASE] = {0, 1, 2, 5, 6};
        for (int b = 0; b < NBASE; b++) {
            axl_host_accessor ha; int *p;
            axl_host_accessor_create(w->view[bv[b]], AXL_ACCESS_READ, NULL, 0, &ha, (void **)&p);
            for (size_t i = 0; i < w->len_of[bv[b]]; i++)
                if (p[i] != w->model[b][i]) { fprintf(stderr, "after op %d base %d [%zu] %d vs %d\n", op, b, i, p[i], w->model[b][i]); break; }
            axl_host_accessor_release(ha);
        }
    }
}

static void run_program(uint64_t seed, int nops)
{
    world *w = calloc(1, sizeof *w);
    w->rng = seed * 0x9E3779B97F4A7C15ull + 1;
    ntasks = nreads = 0;
    axl_device dev = axl_test_emu_device();
    axl_context none = AXL_NONE;
    AXL_OK(axl_queue_create(none, dev, AXL_QUEUE_IN_ORDER, NULL, &w->q[0]));
    AXL_OK(axl_queue_create(none, dev, 0, NULL, &w->q[1]));
    /* A second device (the tests' fake port, with memory): data also moves
     * from device to device, through the host. */
    axl_aspect emulated = AXL_ASPECT_EMULATED;
    axl_aspect_list hw = {NULL, 0, &emulated, 1};
    axl_device fake;
    AXL_OK(axl_device_select(axl_aspect_selector, &hw, &fake));
    AXL_OK(axl_queue_create(none, fake, 0, NULL, &w->q[2]));
    for (int i = 0; i < LEN; i++)
        w->model[1][i] = w->host_data[i] = i * 2;
    AXL_OK(axl_buffer_create(sizeof(int), axl_range_1d(LEN), NULL, &w->view[0]));
    AXL_OK(axl_buffer_create_from(w->host_data, sizeof(int), axl_range_1d(LEN),
                                  NULL, &w->view[1]));
    AXL_OK(axl_buffer_create(sizeof(int), axl_range_1d(LEN), NULL, &w->view[2]));
    size_t lo[3] = {0}, hi[3] = {LEN / 2};
    AXL_OK(axl_buffer_create_sub(w->view[0], lo, axl_range_1d(LEN / 2),
                                 &w->view[3]));
    AXL_OK(axl_buffer_create_sub(w->view[0], hi, axl_range_1d(LEN / 2),
                                 &w->view[4]));
    AXL_OK(axl_buffer_create(sizeof(int), axl_range_1d(LEN), NULL, &w->view[5]));
    AXL_OK(axl_buffer_create(sizeof(int), axl_range_1d(LEN), NULL, &w->view[6]));
    int base_of[NBUF] = {0, 1, 2, 0, 0, 3, 4};
    size_t off_of[NBUF] = {0, 0, 0, 0, LEN / 2, 0, 0};
    size_t len_of[NBUF] = {LEN, LEN, LEN, LEN / 2, LEN / 2, LEN, LEN};
    memcpy(w->base_of, base_of, sizeof base_of);
    memcpy(w->off_of, off_of, sizeof off_of);
    memcpy(w->len_of, len_of, sizeof len_of);
    /* The size-only buffers start with unspecified contents: give them
     * known ones first, in the model too. */
    static const int size_only[4] = {0, 2, 5, 6};
    for (int i = 0; i < 4; i++) {
        int b = size_only[i];
        int zero = 0;
        AXL_OK(axl_queue_fill(w->q[0], w->view[b], NULL, &zero, sizeof zero,
                              NULL, 0, NULL));
    }
    /* Some seeds keep buffers on the device's banks. */
    if (seed % 2) {
        AXL_OK(axl_buffer_place(w->view[0], dev, 0));
        AXL_OK(axl_buffer_place(w->view[1], dev, 1));
    }
    if (seed % 3 == 0) {
        AXL_OK(axl_buffer_place(w->view[1], fake, 0));
        AXL_OK(axl_buffer_place(w->view[2], fake, 0));
    }
    /* vadd from each emulated queue's context (each made its own). */
    axl_kernel_id vadd;
    AXL_OK(axl_get_built_in_kernel_id(dev, "vadd", &vadd));
    for (int i = 0; i < 2; i++) {
        axl_context ctx;
        AXL_OK(axl_queue_get_context(w->q[i], &ctx));
        AXL_OK(axl_get_kernel_bundle_for(ctx, NULL, 0, &vadd, 1,
                                         AXL_BUNDLE_EXECUTABLE,
                                         &w->bundle[i]));
        AXL_OK(axl_kernel_bundle_get_kernel(w->bundle[i], vadd, &w->vadd[i]));
    }
#if defined(AXL_TEST_TWO_DESIGNS)
    w->two = seed % 4 == 2 && two_designs_up(w); /* even: no view placed in bank 1, which fir_b does not reach */
    took_two |= w->two;
#endif
    for (int op = 0; op < nops; op++)
        run_op(w, op);
    for (int i = 0; i < 3; i++)
        AXL_OK(axl_queue_wait(w->q[i]));
    for (int i = 0; i < nreads; i++)
        for (size_t k = 0; k < reads[i].n; k++)
            if (reads[i].got[k] != reads[i].want[k])
                mismatch(w, "copy to host", reads[i].op, k, reads[i].got[k],
                         reads[i].want[k]);
    /* Final contents. */
    static const int base_view[NBASE] = {0, 1, 2, 5, 6};
    for (int b = 0; b < NBASE; b++) {
        axl_host_accessor ha;
        int *p;
        int v = base_view[b];
        AXL_OK(axl_host_accessor_create(w->view[v], AXL_ACCESS_READ, NULL, 0,
                                        &ha, (void **)&p));
        for (int i = 0; i < (int)w->len_of[v]; i++)
            if (p[i] != w->model[b][i])
                mismatch(w, "final contents", nops, (size_t)i, p[i],
                         w->model[b][i]);
        AXL_OK(axl_host_accessor_release(ha));
    }
    for (int i = 0; i < w->nev; i++)
        AXL_OK(axl_event_release(w->ev[i]));
    for (int b = NBUF - 1; b >= 0; b--)
        AXL_OK(axl_buffer_release(w->view[b]));
    for (int i = 0; i < 2; i++) {
        AXL_OK(axl_kernel_release(w->vadd[i]));
        AXL_OK(axl_kernel_bundle_release(w->bundle[i]));
    }
#if defined(AXL_TEST_TWO_DESIGNS)
    if (w->two)
        two_designs_down(w);
#endif
    total_launches += w->launches;
    total_repeats += w->repeats;
    /* Buffer 1 was made from host data: written back on release. */
    for (int i = 0; i < LEN; i++)
        if (w->host_data[i] != w->model[1][i])
            mismatch(w, "write-back", nops, (size_t)i, w->host_data[i],
                     w->model[1][i]);
    for (int i = 0; i < 3; i++)
        AXL_OK(axl_queue_release(w->q[i]));
    if (w->mismatches) {
        print_error("seed %llu: %d mismatches; first: %s\n",
                    (unsigned long long)seed, w->mismatches, w->first);
        free(w);
        fail();
    }
    free(w);
}

static int env_int(const char *name, int fallback)
{
    const char *s = getenv(name);
    return s && atoi(s) > 0 ? atoi(s) : fallback;
}

static void random_programs_match_the_sequential_model(void **state)
{
    (void)state;
    int seeds = env_int("AXL_RANDOM_SEEDS", SEEDS_DEFAULT);
    trace = env_int("AXL_RANDOM_TRACE", 0);
    int ops = env_int("AXL_RANDOM_OPS", NOPS_DEFAULT);
    if (ops > 2000)
        ops = 2000;
    int first = env_int("AXL_RANDOM_FIRST", 1);
    fake_config = (fake_port_config){.devices = 1, .flags = AXL_HAL_DEVICE_AVAILABLE};
    AXL_OK(axl_device_port_register(&fake_port));
    for (int s = first; s < first + seeds; s++)
        run_program((uint64_t)s, ops);
    if (trace || seeds > SEEDS_DEFAULT)
        fprintf(stderr, "%d seeds: %ld kernel launches, %ld repeating the "
                "launch before, %ld of design B's fir\n", seeds,
                total_launches, total_repeats, total_firs);
#if defined(AXL_TEST_TWO_DESIGNS) && AXL_FEATURE_DESIGN_SWAP && \
    AXL_FEATURE_APP_IMAGES && !defined(AXL_TEST_RTL)
    /* The emulated device and the C-model simulator take both designs:
     * the seeds that hold B ran its fir among the vadds. */
    if (seeds >= 4) {
        assert_true(took_two);
        assert_true(total_firs > 0);
    }
#endif
    /* The programs launched kernels, some exactly like the one before. */
    if (seeds >= 3) {
        assert_true(total_launches > 0);
        assert_true(total_repeats > 0);
    }
    /* The programs did move data to and from the second device. */
    if (seeds >= 3) {
        assert_true(fake_mem.writes > 0);
        assert_true(fake_mem.reads > 0);
    }
}

/* The scheduler's fallbacks change nothing observable: the same programs
 * with every buffer's record list and every command's edge list pushed to
 * their limits by many overlapping readers. */
static void many_readers_then_a_writer_match_the_model(void **state)
{
    (void)state;
    axl_queue q;
    axl_context none = AXL_NONE;
    AXL_OK(axl_queue_create(none, axl_test_emu_device(), 0, NULL, &q));
    static int data[LEN];
    for (int i = 0; i < LEN; i++)
        data[i] = i;
    axl_buffer b;
    AXL_OK(axl_buffer_create_from(data, sizeof(int), axl_range_1d(LEN), NULL,
                                  &b));
    world w = {0};
    static rtask readers[100];
    for (int k = 0; k < 100; k++) {
        readers[k] = (rtask){.w = &w, .op = k, .view = 0,
                             .mode = AXL_ACCESS_READ,
                             .region = {{(size_t)k, 0, 0}, {64, 1, 1}}};
        memcpy(readers[k].expect, data + k, 64 * sizeof(int));
        w.view[0] = b;
        group g = {&readers[k], NULL, 0};
        AXL_OK(axl_queue_submit(q, rtask_cgf, &g, NULL));
    }
    static rtask writer;
    writer = (rtask){.w = &w, .op = 1000, .view = 0, .mode = AXL_ACCESS_WRITE,
                     .region = {{0, 0, 0}, {LEN, 1, 1}}};
    group g = {&writer, NULL, 0};
    AXL_OK(axl_queue_submit(q, rtask_cgf, &g, NULL));
    AXL_OK(axl_queue_wait(q));
    AXL_OK(axl_buffer_release(b));
    for (int i = 0; i < LEN; i++)
        assert_int_equal(data[i], 1000 * 7 + i);
    assert_int_equal(w.mismatches, 0);
    AXL_OK(axl_queue_release(q));
}

/* ---- Graph replay (axl/graph.h): the same random program submitted one
 * command at a time and recorded once then replayed gives the same bytes.
 * Its commands are those a graph records: fills, copies between buffers
 * and from and to the host, vadd both ways, host tasks over accessors,
 * with accessor and explicit edges, on an in-order or out-of-order queue.
 * Each program runs twice both ways (replayed twice): what a run leaves is
 * the next one's input. */

enum { GBUF = 4, GLEN = 96, GOPS_MAX = 40, GSEEDS = 24 };

typedef struct gop {
    int kind;
    int a, b, o;           /* buffers */
    uint32_t n;            /* elements (vadd, host task) */
    int value;             /* fill value, host task addend */
    int dep;               /* an earlier op this one names, or -1 */
    bool group;            /* vadd through a command group */
    int src[GLEN];         /* copy from the host */
    int dst[2][GLEN];      /* copy to the host: per world */
} gop;

typedef struct gtask {
    const gop *op;
    int *ptr;
} gtask;

typedef struct gctx {
    const gop *op;
    const axl_buffer *buf;
    axl_kernel k;
    gtask *task;
    const axl_event *deps;
    uint32_t ndeps;
} gctx;

static gop gops[GOPS_MAX];
static gtask gtasks[2][GOPS_MAX];

static axl_status gtask_fn(void *user)
{
    const gtask *t = user;
    for (uint32_t i = 0; i < t->op->n; i++)
        t->ptr[i] = t->ptr[i] * 3 + t->op->value;
    return AXL_SUCCESS;
}

static void gtask_cgf(axl_handler *h, void *user)
{
    const gctx *c = user;
    axl_accessor acc;
    axl_region r = {{0, 0, 0}, {c->op->n, 1, 1}};
    axl_handler_depends_on_list(h, c->deps, c->ndeps);
    axl_handler_require(h, c->buf[c->op->a], AXL_ACCESS_READ_WRITE, &r, 0,
                        &acc);
    c->task->op = c->op;
    axl_handler_host_ptr(h, acc, (void **)&c->task->ptr);
    axl_handler_host_task(h, gtask_fn, c->task);
}

static void gvadd_cgf(axl_handler *h, void *user)
{
    const gctx *c = user;
    axl_handler_depends_on_list(h, c->deps, c->ndeps);
    axl_kernel_arg args[4] = {
        axl_arg_buffer(0, c->buf[c->op->a], AXL_ACCESS_READ),
        axl_arg_buffer(1, c->buf[c->op->b], AXL_ACCESS_READ),
        axl_arg_buffer(2, c->buf[c->op->o], AXL_ACCESS_READ_WRITE),
        axl_arg_u32(3, c->op->n)};
    axl_handler_set_args(h, args, 4);
    axl_handler_single_task(h, c->k);
}

/* Submits op i of world w on q (recording or not); its event in ev[i]. */
static void gop_submit(axl_queue q, axl_kernel k, const axl_buffer *buf,
                       int w, int i, axl_event *ev)
{
    const gop *op = &gops[i];
    const axl_event *deps = op->dep >= 0 ? &ev[op->dep] : NULL;
    uint32_t nd = op->dep >= 0 ? 1 : 0;
    gctx c = {op, buf, k, &gtasks[w][i], deps, nd};
    switch (op->kind) {
    case 0:
        AXL_OK(axl_queue_fill(q, buf[op->o], NULL, &op->value, sizeof(int),
                              deps, nd, &ev[i]));
        break;
    case 1:
        AXL_OK(axl_queue_copy(q, buf[op->a], NULL, buf[op->o], NULL, deps, nd,
                              &ev[i]));
        break;
    case 2:
        AXL_OK(axl_queue_copy_from_host(q, op->src, buf[op->o], NULL, deps,
                                        nd, &ev[i]));
        break;
    case 3:
        AXL_OK(axl_queue_copy_to_host(q, buf[op->a], NULL,
                                      (void *)gops[i].dst[w], deps, nd,
                                      &ev[i]));
        break;
    case 4:
        if (op->group) {
            AXL_OK(axl_queue_submit(q, gvadd_cgf, &c, &ev[i]));
        } else {
            AXL_OK(axl_queue_single_task(
                q, k,
                AXL_ARGS(AXL_ARG_IN(buf[op->a]), AXL_ARG_IN(buf[op->b]),
                         AXL_ARG_INOUT(buf[op->o]), AXL_ARG_U32(op->n)),
                deps, nd, &ev[i]));
        }
        break;
    default:
        AXL_OK(axl_queue_submit(q, gtask_cgf, &c, &ev[i]));
        break;
    }
}

static void graph_program(uint64_t seed)
{
    world rw = {.rng = seed * 0x9E3779B97F4A7C15ull + 1};
    world *r = &rw; /* rnd() */
    const uint32_t flags = seed % 2 ? AXL_QUEUE_IN_ORDER : 0;
    const int nops = 8 + (int)rnd(r, GOPS_MAX - 8);
    for (int i = 0; i < nops; i++) {
        gop *op = &gops[i];
        op->kind = (int)rnd(r, 6);
        op->a = (int)rnd(r, GBUF);
        op->b = (int)rnd(r, GBUF);
        do
            op->o = (int)rnd(r, GBUF);
        while (op->kind == 1 && op->o == op->a);
        op->n = 1 + rnd(r, GLEN);
        op->value = (int)rnd(r, 1000) - 500;
        op->group = rnd(r, 2);
        op->dep = i && rnd(r, 4) == 0 ? (int)rnd(r, (uint32_t)i) : -1;
        for (int k = 0; k < GLEN; k++)
            op->src[k] = (int)rnd(r, 100000);
        memset(op->dst, 0, sizeof op->dst);
    }
    axl_device dev = axl_test_emu_device();
    axl_context ctx;
    AXL_OK(axl_context_create(&dev, 1, NULL, &ctx));
    axl_queue q;
    AXL_OK(axl_queue_create(ctx, dev, flags, NULL, &q));
    axl_kernel_id vid;
    axl_kernel_bundle bundle;
    axl_kernel k;
    AXL_OK(axl_get_built_in_kernel_id(dev, "vadd", &vid));
    AXL_OK(axl_get_kernel_bundle_for(ctx, NULL, 0, &vid, 1,
                                     AXL_BUNDLE_EXECUTABLE, &bundle));
    AXL_OK(axl_kernel_bundle_get_kernel(bundle, vid, &k));
    /* Two worlds of buffers with the same contents. */
    axl_buffer buf[2][GBUF];
    static int init[GBUF][GLEN];
    for (int b = 0; b < GBUF; b++)
        for (int i = 0; i < GLEN; i++)
            init[b][i] = (int)rnd(r, 1000);
    for (int w = 0; w < 2; w++)
        for (int b = 0; b < GBUF; b++) {
            AXL_OK(axl_buffer_create(sizeof(int), axl_range_1d(GLEN), NULL,
                                     &buf[w][b]));
            AXL_OK(axl_queue_copy_from_host(q, init[b], buf[w][b], NULL, NULL,
                                            0, NULL));
        }
    AXL_OK(axl_queue_wait_and_throw(q));
    /* Recorded once over world 1. */
    axl_graph g;
    axl_event rec[GOPS_MAX];
    AXL_OK(axl_graph_create(ctx, dev, &g));
    AXL_OK(axl_graph_begin_recording(g, q));
    for (int i = 0; i < nops; i++)
        gop_submit(q, k, buf[1], 1, i, rec);
    AXL_OK(axl_graph_end_recording(g, q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    AXL_OK(axl_graph_release(g));
    for (int run = 0; run < 2; run++) {
        axl_event ev[GOPS_MAX];
        for (int i = 0; i < nops; i++)
            gop_submit(q, k, buf[0], 0, i, ev);
        AXL_OK(axl_queue_wait_and_throw(q));
        for (int i = 0; i < nops; i++)
            AXL_OK(axl_event_release(ev[i]));
        axl_event done;
        AXL_OK(axl_queue_submit_graph(q, x, NULL, 0, &done));
        AXL_OK(axl_event_wait(done));
        AXL_OK(axl_event_release(done));
        AXL_OK(axl_queue_wait_and_throw(q));
        for (int b = 0; b < GBUF; b++) {
            int got[2][GLEN];
            for (int w = 0; w < 2; w++)
                AXL_OK(axl_queue_copy_to_host(q, buf[w][b], NULL, got[w],
                                              NULL, 0, NULL));
            AXL_OK(axl_queue_wait_and_throw(q));
            if (memcmp(got[0], got[1], sizeof got[0]) != 0) {
                print_error("seed %llu run %d: buffer %d differs after replay "
                            "(%d ops)\n",
                            (unsigned long long)seed, run, b, nops);
                fail();
            }
        }
        for (int i = 0; i < nops; i++)
            if (gops[i].kind == 3 &&
                memcmp(gops[i].dst[0], gops[i].dst[1], sizeof gops[i].dst[0]))
            {
                print_error("seed %llu run %d: op %d's copy to the host "
                            "differs after replay\n",
                            (unsigned long long)seed, run, i);
                fail();
            }
    }
    AXL_OK(axl_graph_exec_release(x));
    for (int w = 0; w < 2; w++)
        for (int b = 0; b < GBUF; b++)
            AXL_OK(axl_buffer_release(buf[w][b]));
    AXL_OK(axl_kernel_release(k));
    AXL_OK(axl_kernel_bundle_release(bundle));
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_context_release(ctx));
}

static void random_programs_replayed_from_a_graph_give_the_same_bytes(
    void **state)
{
    (void)state;
    AXL_TEST_NEEDS(AXL_FEATURE_GRAPHS,
                   axl_graph_create(AXL_NO_CONTEXT, AXL_NO_DEVICE, NULL));
    if (AXL_MAX_GRAPH_NODES < 2 * GOPS_MAX) {
        print_message("AXL_MAX_GRAPH_NODES %d: too few for these programs\n",
                      AXL_MAX_GRAPH_NODES);
        skip();
    }
    int seeds = env_int("AXL_RANDOM_SEEDS", GSEEDS);
    int first = env_int("AXL_RANDOM_FIRST", 1);
    for (int s = first; s < first + seeds; s++)
        graph_program((uint64_t)s);
}

#define T(f) cmocka_unit_test_setup_teardown(f, axl_test_setup, axl_test_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(random_programs_match_the_sequential_model),
        T(many_readers_then_a_writer_match_the_model),
        T(random_programs_replayed_from_a_graph_give_the_same_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
