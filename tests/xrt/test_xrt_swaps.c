/*
 * Another design on demand on the XRT port (issue 40 stage 3;
 * docs/designs-design.md 2.3, 5, 6.2), on XRT's noop shim, where BOs are
 * host memory and nothing computes: design A is the device's built-in
 * stock design (vadd), design B designs_b.xclbin (fir alone).
 *
 *  - keep_bytes: xocl refuses a new xclbin while BOs exist, so the port
 *    parks every BO around xrtDeviceLoadXclbin; each buffer, a sub-buffer
 *    among them, reads back the bytes it had, after each of several
 *    swaps, and the port holds as many BOs after as before.
 *  - beside_data: copies on another queue while the first swaps land
 *    whole (the load and the memory ops take turns).
 *  - failing_load: an xrtDeviceLoadXclbin that fails (through the port's
 *    call table) fails the commands that waited for the design, naming
 *    the device and the design; every buffer still reads back its bytes;
 *    the next load of another design works; the teardown finds no BO,
 *    sub-BO or kernel left.
 *  - forbidden: AXL_XRT_SWAPS=0 keeps the refusal of a second design's
 *    bundle (2.5).
 *  - graphs: an executable graph of A across swaps (stage 4, 2.7):
 *    replayed after B ran and again, waiting for a B run in flight,
 *    submitted back to back with B's commands, and refused when it holds
 *    both designs; vadd computes there through the call table, so its
 *    sums are checked, and a run on a unit of a design that left fails.
 *
 * 4.11 (seed 000): holding executable bundles of two device images at once
 * is legal; 4.7.2.3 is why a buffer's bytes must survive on the device.
 */
#include <stdio.h>
#include <time.h>

#include "xrt_test.h"
#include "../support/axl_reader_skip.h"
#include "axl_config.h"
#include "axl_test_designs_b_xclbin.h"

#if AXL_FEATURE_DESIGN_SWAP && AXL_FEATURE_APP_IMAGES && \
    AXL_FEATURE_SUB_BUFFERS
#define SWAPS 1
#else
#define SWAPS 0
#endif

#if SWAPS
enum { N = 2048, TAPS = 4, SUB_AT = 1024, SUB_N = 1024 };

static atomic_uint loads;
static atomic_int fail_loads;  /* loads still to fail */
static atomic_int fail_allocs; /* BO allocations fail until the next load */
static atomic_int and_allocs;  /* a failing load sets fail_allocs so */

/* Every xrtDeviceLoadXclbin the port makes; the first fail_loads fail
 * (EIO, as a card whose load the driver refused), and with
 * fail_allocs so do the BOs made again after them. */
static int load_counted(xrtDeviceHandle d, const struct axlf *image)
{
    atomic_fetch_add(&loads, 1);
    if (atomic_load(&fail_loads) > 0) {
        atomic_fetch_sub(&fail_loads, 1);
        atomic_store(&fail_allocs, atomic_load(&and_allocs));
        errno = EIO;
        return -EIO;
    }
    atomic_store(&fail_allocs, 0);
    return axl__xrt_real.device_load_xclbin(d, image);
}

static xrtBufferHandle alloc_failing(xrtDeviceHandle dev, size_t size,
                                     xrtBufferFlags flags, xrtMemoryGroup group)
{
    if (atomic_load(&fail_allocs)) {
        errno = ENOMEM;
        return NULL;
    }
    return axl__xrt_real.bo_alloc(dev, size, flags, group);
}

/* beside_data: each read of a BO takes a while, as across PCIe, so the
 * copies are still moving bytes when a load parks. */
static atomic_int slow_reads;

static int read_slowly(xrtBufferHandle bo, void *dst, size_t size,
                       size_t skip)
{
    if (atomic_load(&slow_reads)) {
        struct timespec t = {0, 200000};
        nanosleep(&t, NULL);
    }
    return axl__xrt_real.bo_read(bo, dst, size, skip);
}

static int setup(void **state)
{
    xt_setup(state);
    axl__xrt_set_run_done(NULL); /* runs end in the core */
    setenv("AXL_XRT_BUILTIN_XCLBIN", AXL_XCLBIN_DIR "/stock.xclbin", 1);
    atomic_store(&loads, 0);
    atomic_store(&fail_loads, 0);
    atomic_store(&fail_allocs, 0);
    atomic_store(&and_allocs, 0);
    axl__xrt.device_load_xclbin = load_counted;
    axl__xrt.bo_alloc = alloc_failing;
    atomic_store(&slow_reads, 0);
    axl__xrt.bo_read = read_slowly;
    return 0;
}

static int teardown(void **state)
{
    unsetenv("AXL_XRT_SWAPS");
    return xt_teardown(state);
}


static axl__xrt_counts counts(void)
{
    axl__xrt_counts c;
    axl__xrt_get_counts(&c);
    return c;
}

/* The port's BO count once it is want, or after 10 s: the buffers a
 * failed command held and the test released go when the command gives
 * back what it holds, which may come just after its event completes, on
 * the thread that failed it (a count that stays wrong still fails). */
static unsigned bos_once(unsigned want)
{
    for (int ms = 0; ms < 10000 && counts().bos != want; ms++) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    return counts().bos;
}

/* Both designs held: the rig's (A: vadd) and a bundle of B (fir); X has a
 * sub-buffer, the range vadd is given. */
struct two {
    axl_test_rig rig;
    axl_kernel_bundle b;
    axl_kernel fir;
    axl_buffer X, sub, Y, S, I, C, O;
    int32_t x[N], y[N];
    int16_t in[N], coeff[TAPS];
};

static void two_up(struct two *t)
{
    AXL_OK(axl_image_register(axl_test_designs_b_xclbin,
                              axl_test_designs_b_xclbin_size));
    t->rig = axl_test_rig_on(xt_device(NULL), AXL_QUEUE_IN_ORDER);
    axl_kernel_id fir_id;
    AXL_OK(axl_get_kernel_id("fir", &fir_id));
    AXL_OK(axl_get_kernel_bundle_for(t->rig.ctx, &t->rig.dev, 1, &fir_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &t->b));
    AXL_OK(axl_kernel_bundle_get_kernel(t->b, fir_id, &t->fir));
    for (int i = 0; i < N; i++) {
        t->x[i] = 3 * i + 7;
        t->y[i] = 500000 - i;
        t->in[i] = (int16_t)((i * 977) % 20000 - 10000);
    }
    for (int k = 0; k < TAPS; k++)
        t->coeff[k] = (int16_t)(8192 >> k);
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &t->X));
    /* 4 KiB in: a multiple of the port's 4096-bit alignment. */
    const size_t at[3] = {SUB_AT, 0, 0};
    AXL_OK(axl_buffer_create_sub(t->X, at, axl_range_1d(SUB_N), &t->sub));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &t->Y));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &t->S));
    AXL_OK(axl_buffer_create(2, axl_range_1d(N), NULL, &t->I));
    AXL_OK(axl_buffer_create(2, axl_range_1d(TAPS), NULL, &t->C));
    AXL_OK(axl_buffer_create(2, axl_range_1d(N), NULL, &t->O));
    const axl_queue q = t->rig.q;
    AXL_OK(axl_queue_copy_from_host(q, t->x, t->X, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_copy_from_host(q, t->y, t->Y, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_copy_from_host(q, t->in, t->I, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_copy_from_host(q, t->coeff, t->C, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(q));
}

/* Kernels that read and write their buffers (read_write): afterwards the
 * device copy is the only current one, so a read after a swap reads what
 * the swap kept. On the noop shim they compute nothing. */
static void vadd(struct two *t, axl_event *e)
{
    AXL_OK(axl_queue_single_task(
        t->rig.q, t->rig.kernel,
        AXL_ARGS(AXL_ARG_INOUT(t->sub), AXL_ARG_INOUT(t->Y), AXL_ARG_OUT(t->S),
                 AXL_ARG_U32(SUB_N)),
        NULL, 0, e));
}

static void fir_on(struct two *t, axl_queue q, axl_event *e)
{
    AXL_OK(axl_queue_single_task(
        q, t->fir,
        AXL_ARGS(AXL_ARG_INOUT(t->I), AXL_ARG_INOUT(t->C), AXL_ARG_OUT(t->O),
                 AXL_ARG_U32(TAPS), AXL_ARG_U32(N)),
        NULL, 0, e));
}

static void fir(struct two *t, axl_event *e)
{
    fir_on(t, t->rig.q, e);
}

/* fir on buffers of its own, released after: a failed command's
 * buffers are not read again (the commands after it would not run). */
static void fir_fresh(struct two *t, axl_event *e)
{
    axl_buffer I, C, O;
    AXL_OK(axl_buffer_create(2, axl_range_1d(N), NULL, &I));
    AXL_OK(axl_buffer_create(2, axl_range_1d(TAPS), NULL, &C));
    AXL_OK(axl_buffer_create(2, axl_range_1d(N), NULL, &O));
    AXL_OK(axl_queue_single_task(
        t->rig.q, t->fir,
        AXL_ARGS(AXL_ARG_IN(I), AXL_ARG_IN(C), AXL_ARG_OUT(O),
                 AXL_ARG_U32(TAPS), AXL_ARG_U32(N)),
        NULL, 0, e));
    AXL_OK(axl_buffer_release(I));
    AXL_OK(axl_buffer_release(C));
    AXL_OK(axl_buffer_release(O));
}

/* vadd's buffers read back (from the device) with the bytes written at
 * the start: the sub-buffer first (alone, then through its base). */
static void check_a(struct two *t)
{
    static int32_t back[N];
    memset(back, 0, sizeof back);
    AXL_OK(axl_queue_copy_to_host(t->rig.q, t->sub, NULL, back, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(t->rig.q));
    assert_memory_equal(back, t->x + SUB_AT, SUB_N * sizeof(int32_t));
    memset(back, 0, sizeof back);
    AXL_OK(axl_queue_copy_to_host(t->rig.q, t->X, NULL, back, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(t->rig.q));
    assert_memory_equal(back, t->x, sizeof t->x);
    memset(back, 0, sizeof back);
    AXL_OK(axl_queue_copy_to_host(t->rig.q, t->Y, NULL, back, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(t->rig.q));
    assert_memory_equal(back, t->y, sizeof t->y);
}

static void check_b(struct two *t)
{
    int16_t in[N], coeff[TAPS];
    memset(in, 0, sizeof in);
    memset(coeff, 0, sizeof coeff);
    AXL_OK(axl_queue_copy_to_host(t->rig.q, t->I, NULL, in, NULL, 0, NULL));
    AXL_OK(axl_queue_copy_to_host(t->rig.q, t->C, NULL, coeff, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(t->rig.q));
    assert_memory_equal(in, t->in, sizeof in);
    assert_memory_equal(coeff, t->coeff, sizeof coeff);
}

static void two_down(struct two *t)
{
    AXL_OK(axl_buffer_release(t->sub));
    AXL_OK(axl_buffer_release(t->X));
    AXL_OK(axl_buffer_release(t->Y));
    AXL_OK(axl_buffer_release(t->S));
    AXL_OK(axl_buffer_release(t->I));
    AXL_OK(axl_buffer_release(t->C));
    AXL_OK(axl_buffer_release(t->O));
    AXL_OK(axl_kernel_release(t->fir));
    AXL_OK(axl_kernel_bundle_release(t->b));
    axl_test_rig_down(&t->rig);
}

/*
 * 2.3: a swap parks every BO (xocl refuses a design while BOs exist) and
 * makes it again after: each buffer, the sub-buffer among them, reads
 * back its bytes after each swap; the sub-BO is made again on its new
 * parent; the port holds as many BOs after five swaps as before.
 */
static void buffers_keep_their_bytes_across_swaps_with_a_sub_buffer_2_3(
    void **s)
{
    (void)s;
    struct two t;
    two_up(&t);
    vadd(&t, NULL);
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    const unsigned loads0 = atomic_load(&loads);
    assert_int_equal(counts().sub_bos, 1); /* vadd's range of X */
    unsigned bos0 = 0;
    for (int r = 0; r < 2; r++) {
        fir(&t, NULL); /* A's buffers parked, made again */
        AXL_OK(axl_queue_wait_and_throw(t.rig.q));
        assert_int_equal(counts().sub_bos, 0); /* went with its parent */
        check_a(&t);
        vadd(&t, NULL); /* B's parked, made again; the sub-BO made again */
        AXL_OK(axl_queue_wait_and_throw(t.rig.q));
        assert_int_equal(counts().sub_bos, 1);
        check_b(&t);
        if (!r)
            bos0 = counts().bos; /* every buffer on the device */
    }
    fir(&t, NULL);
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    check_a(&t);
    assert_int_equal(atomic_load(&loads) - loads0, 5);
    assert_int_equal(counts().bos, bos0);
    two_down(&t);
}

/*
 * 2.3: data commands run beside a swap (the core waits for runs only):
 * a second thread copies between buffers on the device, on a queue of
 * its own, waiting for each copy, while this one alternates designs;
 * every copy lands whole. The port's memory ops and the load take turns
 * on its parking lock (TSan: tsan preset).
 */
enum { COPIES = 48 };
struct beside {
    axl_queue q;
    axl_buffer W, Z[COPIES];
};

static void *copy_main(void *arg)
{
    struct beside *b = arg;
    for (int k = 0; k < COPIES; k++) {
        AXL_OK(axl_queue_copy(b->q, b->W, NULL, b->Z[k], NULL, NULL, 0,
                              NULL));
        AXL_OK(axl_queue_wait_and_throw(b->q));
    }
    return NULL;
}

static void copies_beside_swaps_land_whole_2_3(void **s)
{
    (void)s;
    enum { ROUNDS = 4 };
    struct two t;
    two_up(&t);
    struct beside b;
    AXL_OK(axl_queue_create(t.rig.ctx, t.rig.dev, AXL_QUEUE_IN_ORDER, NULL,
                            &b.q));
    vadd(&t, NULL); /* Y's device copy the only current one */
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &b.W));
    for (int k = 0; k < COPIES; k++)
        AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &b.Z[k]));
    AXL_OK(axl_queue_copy(b.q, t.Y, NULL, b.W, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(b.q));
    const unsigned loads0 = atomic_load(&loads);
    atomic_store(&slow_reads, 1);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, copy_main, &b), 0);
    for (int r = 0; r < ROUNDS; r++) {
        fir(&t, NULL);
        AXL_OK(axl_queue_wait_and_throw(t.rig.q));
        vadd(&t, NULL);
        AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    }
    assert_int_equal(pthread_join(th, NULL), 0);
    atomic_store(&slow_reads, 0);
    assert_int_equal(atomic_load(&loads) - loads0, 2 * ROUNDS);
    static int32_t back[N];
    for (int k = 0; k < COPIES; k++) {
        memset(back, 0, sizeof back);
        AXL_OK(axl_queue_copy_to_host(b.q, b.Z[k], NULL, back, NULL, 0, NULL));
        AXL_OK(axl_queue_wait_and_throw(b.q));
        assert_memory_equal(back, t.y, sizeof t.y);
        AXL_OK(axl_buffer_release(b.Z[k]));
    }
    check_a(&t);
    AXL_OK(axl_buffer_release(b.W));
    AXL_OK(axl_queue_release(b.q));
    two_down(&t);
}

/*
 * 2.2 step 4, 2.3: a load XRT refuses fails the commands that waited for
 * the design, naming the device and the design, with what XRT said; no
 * buffer loses a byte: first with the BOs made again in the banks as they
 * were, then with XRT refusing those too (they stay parked, read and
 * written from host memory), until a load succeeds and makes them again.
 * The teardown finds no BO, sub-BO or kernel left.
 */
static void a_failing_load_fails_its_commands_and_keeps_every_buffer_2_2(
    void **s)
{
    (void)s;
    struct two t;
    two_up(&t);
    vadd(&t, NULL);
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    char name[128];
    AXL_OK(axl_device_get_info(t.rig.dev, AXL_DEVICE_INFO_NAME, name,
                               sizeof name, NULL));
    const unsigned bos = counts().bos;
    for (int round = 0; round < 2; round++) {
        atomic_store(&fail_loads, 1);
        atomic_store(&and_allocs, round); /* round 1: they stay parked */
        axl_event e;
        fir_fresh(&t, &e);
        const axl_status st = axl_event_wait(e);
        assert_int_not_equal(st, AXL_SUCCESS);
        AXL_MESSAGE_HAS("programming ");
        AXL_MESSAGE_HAS(name);
        AXL_MESSAGE_HAS("with the design of fir failed");
        AXL_MESSAGE_HAS("xrtDeviceLoadXclbin returned");
        AXL_OK(axl_event_release(e));
        AXL_EXPECT(axl_queue_wait_and_throw(t.rig.q), st);
        AXL_OK(axl_queue_wait_and_throw(t.rig.q));
        /* Made again in the banks as they were, or all parked. */
        assert_int_equal(bos_once(round ? 0 : bos), round ? 0 : bos);
        check_a(&t);
    }
    /* Written while parked, then made again by the next load (XRT
     * allocates again). */
    atomic_store(&fail_allocs, 0);
    for (int i = 0; i < N; i++)
        t.y[i] = -i;
    AXL_OK(axl_queue_copy_from_host(t.rig.q, t.y, t.Y, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    fir_fresh(&t, NULL);
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    assert_true(counts().bos > 0);
    check_a(&t);
    vadd(&t, NULL); /* back to A: its buffers in their BOs again */
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    check_a(&t);
    two_down(&t);
}

/*
 * 2.5: AXL_XRT_SWAPS=0 forbids reprogramming on demand: a bundle of a
 * second design is refused while one is held, saying why, and nothing is
 * loaded.
 */
static void swaps_forbidden_by_the_environment_keep_the_refusal_2_5(void **s)
{
    (void)s;
    setenv("AXL_XRT_SWAPS", "0", 1);
    AXL_OK(axl_image_register(axl_test_designs_b_xclbin,
                              axl_test_designs_b_xclbin_size));
    axl_test_rig rig = axl_test_rig_on(xt_device(NULL), AXL_QUEUE_IN_ORDER);
    const unsigned loads0 = atomic_load(&loads);
    axl_kernel_id fir_id;
    AXL_OK(axl_get_kernel_id("fir", &fir_id));
    axl_kernel_bundle b;
    AXL_EXPECT(axl_get_kernel_bundle_for(rig.ctx, &rig.dev, 1, &fir_id, 1,
                                         AXL_BUNDLE_EXECUTABLE, &b),
               AXL_ERR_BAD_STATE);
    AXL_MESSAGE_HAS("whose kernels another would stop");
    AXL_MESSAGE_HAS("the device does not reprogram on demand");
    assert_int_equal(atomic_load(&loads), loads0);
    axl_test_rig_down(&rig);
}

#if AXL_FEATURE_GRAPHS
/* ---- Executable graphs across swaps (stage 4; 2.7) ------------------------
 *
 * The noop shim computes nothing. For these cases the call table makes
 * vadd compute at xrtRunStart, from the BOs and size its run was given,
 * in the shim's BOs (host memory), so a replay's sums are checked as on a
 * card. A run started whose kernel was closed since (a unit of a design
 * swapped out), or that the port never opened, fails: a replay not bound
 * again to the loaded units shows. */
enum { NOTED_KERNELS = 32, NOTED_RUNS = 256 };
struct fake_kernel {
    xrtKernelHandle h;
    bool vadd;
};
struct fake_run {
    xrtRunHandle h;
    xrtKernelHandle k;
    xrtBufferHandle bo[3];
    uint32_t n;
};
static pthread_mutex_t fake_lock = PTHREAD_MUTEX_INITIALIZER;
static struct fake_kernel noted_kernels[NOTED_KERNELS];
static struct fake_run noted_runs[NOTED_RUNS];
static atomic_uint vadd_starts; /* vadd runs computed */
static atomic_uint stale_starts; /* runs started on no open kernel */

static xrtKernelHandle kernel_open_noted(xrtDeviceHandle d, const xuid_t uuid,
                                         const char *name)
{
    xrtKernelHandle h = axl__xrt_real.kernel_open(d, uuid, name);
    pthread_mutex_lock(&fake_lock);
    for (int i = 0; h && i < NOTED_KERNELS; i++)
        if (!noted_kernels[i].h) {
            noted_kernels[i].h = h;
            noted_kernels[i].vadd = !strncmp(name, "vadd", 4);
            break;
        }
    pthread_mutex_unlock(&fake_lock);
    return h;
}

static int kernel_close_noted(xrtKernelHandle h)
{
    pthread_mutex_lock(&fake_lock);
    for (int i = 0; i < NOTED_KERNELS; i++)
        if (noted_kernels[i].h == h)
            noted_kernels[i].h = NULL;
    pthread_mutex_unlock(&fake_lock);
    return axl__xrt_real.kernel_close(h);
}

static xrtRunHandle run_open_noted(xrtKernelHandle k)
{
    xrtRunHandle h = axl__xrt_real.run_open(k);
    pthread_mutex_lock(&fake_lock);
    for (int i = 0; h && i < NOTED_RUNS; i++)
        if (!noted_runs[i].h) {
            memset(&noted_runs[i], 0, sizeof noted_runs[i]);
            noted_runs[i].h = h;
            noted_runs[i].k = k;
            break;
        }
    pthread_mutex_unlock(&fake_lock);
    return h;
}

static int run_close_noted(xrtRunHandle h)
{
    pthread_mutex_lock(&fake_lock);
    for (int i = 0; i < NOTED_RUNS; i++)
        if (noted_runs[i].h == h)
            noted_runs[i].h = NULL;
    pthread_mutex_unlock(&fake_lock);
    return axl__xrt_real.run_close(h);
}

static struct fake_run *fake_run_of(xrtRunHandle h)
{
    for (int i = 0; i < NOTED_RUNS; i++)
        if (noted_runs[i].h == h)
            return &noted_runs[i];
    return NULL;
}

static int set_arg_noted(xrtRunHandle h, int index, const axl__xrt_value *v)
{
    pthread_mutex_lock(&fake_lock);
    struct fake_run *r = fake_run_of(h);
    if (r && index < 3 && v->kind == AXL__XRT_BO)
        r->bo[index] = v->v.bo;
    else if (r && index == 3)
        r->n = v->kind == AXL__XRT_UINT ? v->v.u : v->v.u32;
    pthread_mutex_unlock(&fake_lock);
    return axl__xrt_real.run_set_arg(h, index, v);
}

/* The run's kernel, open, or NULL; whether it is a vadd. */
static const struct fake_kernel *open_kernel_of(const struct fake_run *r)
{
    for (int i = 0; r && i < NOTED_KERNELS; i++)
        if (noted_kernels[i].h && noted_kernels[i].h == r->k)
            return &noted_kernels[i];
    return NULL;
}

static void vadd_computed(const struct fake_run *r)
{
    static int32_t a[N], b[N], sum[N];
    const size_t bytes = (size_t)(r->n <= N ? r->n : N) * sizeof(int32_t);
    axl__xrt_real.bo_read(r->bo[0], a, bytes, 0);
    axl__xrt_real.bo_read(r->bo[1], b, bytes, 0);
    for (uint32_t i = 0; i < r->n && i < N; i++)
        sum[i] = a[i] + b[i];
    axl__xrt_real.bo_write(r->bo[2], sum, bytes, 0);
    atomic_fetch_add(&vadd_starts, 1);
}

static int start_computing(xrtRunHandle h)
{
    pthread_mutex_lock(&fake_lock);
    const struct fake_run *r = fake_run_of(h);
    const struct fake_kernel *k = open_kernel_of(r);
    if (k && k->vadd)
        vadd_computed(r);
    pthread_mutex_unlock(&fake_lock);
    if (!k) {
        atomic_fetch_add(&stale_starts, 1);
        errno = ENODEV;
        return -ENODEV;
    }
    return xt_start_marking(h); /* and may stick (xrt_test.h) */
}

static int setup_graphs(void **state)
{
    setup(state);
    memset(noted_kernels, 0, sizeof noted_kernels);
    memset(noted_runs, 0, sizeof noted_runs);
    atomic_store(&vadd_starts, 0);
    atomic_store(&stale_starts, 0);
    atomic_store(&xt_stick_next, 0);
    xt_stuck_run_ends();
    axl__xrt.kernel_open = kernel_open_noted;
    axl__xrt.kernel_close = kernel_close_noted;
    axl__xrt.run_open = run_open_noted;
    axl__xrt.run_close = run_close_noted;
    axl__xrt.run_set_arg = set_arg_noted;
    axl__xrt.run_start = start_computing;
    axl__xrt.run_state = xt_state_faked;
    axl__xrt.run_wait_for = xt_wait_faked;
    /* The runtime started: the teardown's shutdown forgets the port
     * registered here even when a test is skipped before any call. */
    (void)xt_platform();
    return 0;
}

/* A's vadd on whole buffers, S = X + Y, on queue q. */
static void vadd_on(struct two *t, axl_queue q, axl_event *e)
{
    AXL_OK(axl_queue_single_task(
        q, t->rig.kernel,
        AXL_ARGS(AXL_ARG_IN(t->X), AXL_ARG_IN(t->Y), AXL_ARG_OUT(t->S),
                 AXL_ARG_U32(N)),
        NULL, 0, e));
}

/* An executable graph of design A: vadd, recorded on the rig's queue. */
static axl_graph_exec graph_of_vadd(struct two *t, axl_graph *g)
{
    AXL_OK(axl_graph_create(t->rig.ctx, t->rig.dev, g));
    AXL_OK(axl_graph_begin_recording(*g, t->rig.q));
    vadd_on(t, t->rig.q, NULL);
    AXL_OK(axl_graph_end_recording(*g, t->rig.q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(*g, &x));
    return x;
}

/* New inputs for round r: X written again, so each replay's sums are its
 * own (a replay that did not run leaves the last round's). */
static void inputs_for_round(struct two *t, int r)
{
    for (int i = 0; i < N; i++)
        t->x[i] = (r + 1) * 1000 + 5 * i;
    AXL_OK(axl_queue_copy_from_host(t->rig.q, t->x, t->X, NULL, NULL, 0,
                                    NULL));
    AXL_OK(axl_queue_wait_and_throw(t->rig.q));
}

static void check_sums(struct two *t)
{
    static int32_t sum[N];
    memset(sum, 0, sizeof sum);
    AXL_OK(axl_queue_copy_to_host(t->rig.q, t->S, NULL, sum, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(t->rig.q));
    for (int i = 0; i < N; i++)
        if (sum[i] != t->x[i] + t->y[i])
            fail_msg("sum[%d] = %d, not %d + %d", i, sum[i], t->x[i], t->y[i]);
}

static void event_succeeded(axl_event e)
{
    axl_event_status st;
    axl_status es;
    AXL_OK(axl_event_get_status(e, &st, &es));
    assert_int_equal(st, AXL_EVENT_COMPLETE);
    AXL_OK(es);
    AXL_OK(axl_event_release(e));
}

/*
 * 2.7: an executable graph of A replayed, B swapped in by a kernel
 * command, the graph replayed again, three times: each replay waits for
 * A's turn as a command would, binds again to A's units (made again by
 * the load) and computes its round's sums; each change of design is one
 * xrtDeviceLoadXclbin and one load in axl_stats_get's reprogramming row.
 */
static void a_graph_replays_after_its_design_was_swapped_out_and_back_2_7(
    void **s)
{
    (void)s;
    struct two t;
    two_up(&t);
    axl_graph g;
    axl_graph_exec x = graph_of_vadd(&t, &g);
    const unsigned loads0 = atomic_load(&loads);
    const uint32_t reprog0 = axl_test_pool("reprogramming").high_water;
    enum { ROUNDS = 3 };
    for (int r = 0; r < ROUNDS; r++) {
        inputs_for_round(&t, r);
        AXL_OK(axl_queue_submit_graph(t.rig.q, x, NULL, 0, NULL));
        AXL_OK(axl_queue_wait_and_throw(t.rig.q));
        fir(&t, NULL); /* B swapped in */
        AXL_OK(axl_queue_wait_and_throw(t.rig.q));
        check_sums(&t); /* read back after the swap */
    }
    inputs_for_round(&t, ROUNDS);
    AXL_OK(axl_queue_submit_graph(t.rig.q, x, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    check_sums(&t);
    /* A loaded at the start: B, A, B, A, B, A. */
    assert_int_equal(atomic_load(&loads) - loads0, 2 * ROUNDS);
    assert_int_equal(axl_test_pool("reprogramming").high_water - reprog0,
                     2 * ROUNDS);
    assert_int_equal(atomic_load(&vadd_starts), ROUNDS + 1);
    assert_int_equal(atomic_load(&stale_starts), 0);
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    two_down(&t);
}

/* Waits up to 10 s for the run marked by xt_stick_next_run to start. */
static void wait_stuck_started(void)
{
    for (int ms = 0; ms < 10000 && !atomic_load(&xt_stuck); ms++)
        xt_sleep_ms(1);
    assert_non_null(atomic_load(&xt_stuck));
}

/*
 * 2.7, 2.2: a graph of A submitted on another queue while B's fir is
 * still running (XRT reports its run in progress) waits: no load while
 * a run is out on the region's units, vadd not started, the graph not
 * complete. Once fir ends, A is loaded once and the graph computes.
 */
static void a_graph_waits_for_the_other_designs_run_in_flight_2_7(void **s)
{
    (void)s;
    struct two t;
    two_up(&t);
    axl_graph g;
    axl_graph_exec x = graph_of_vadd(&t, &g);
    inputs_for_round(&t, 0);
    axl_queue qb;
    AXL_OK(axl_queue_create(t.rig.ctx, t.rig.dev, AXL_QUEUE_IN_ORDER, NULL,
                            &qb));
    xt_stick_next_run(ERT_CMD_STATE_RUNNING);
    axl_event ef, eg;
    fir_on(&t, qb, &ef); /* B loaded, fir's run held in flight */
    wait_stuck_started();
    const unsigned loads0 = atomic_load(&loads);
    const uint32_t reprog0 = axl_test_pool("reprogramming").high_water;
    AXL_OK(axl_queue_submit_graph(t.rig.q, x, NULL, 0, &eg));
    xt_sleep_ms(100);
    axl_event_status st;
    axl_status es;
    AXL_OK(axl_event_get_status(eg, &st, &es));
    assert_int_not_equal(st, AXL_EVENT_COMPLETE);
    AXL_OK(axl_event_get_status(ef, &st, &es));
    assert_int_not_equal(st, AXL_EVENT_COMPLETE);
    assert_int_equal(atomic_load(&loads), loads0);
    assert_int_equal(atomic_load(&vadd_starts), 0);
    xt_stuck_run_ends(); /* fir finishes */
    AXL_OK(axl_event_wait(eg));
    AXL_OK(axl_event_wait(ef));
    event_succeeded(eg);
    event_succeeded(ef);
    AXL_OK(axl_queue_wait_and_throw(qb));
    check_sums(&t);
    assert_int_equal(atomic_load(&loads) - loads0, 1);
    assert_int_equal(axl_test_pool("reprogramming").high_water - reprog0, 1);
    assert_int_equal(atomic_load(&vadd_starts), 1);
    assert_int_equal(atomic_load(&stale_starts), 0);
    AXL_OK(axl_queue_release(qb));
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    two_down(&t);
}

/*
 * 2.7, 2.1, 4.6.5: with B loaded, a graph of A and a command of B, twice,
 * submitted back to back on an out-of-order queue with no wait between:
 * no submission fails or waits for a load (the graphs wait for A's turn
 * at dispatch, the second while the first is pending), every one
 * completes, and the sums are right.
 */
static void a_graph_and_a_command_of_two_designs_submitted_back_to_back_2_7(
    void **s)
{
    (void)s;
    struct two t;
    two_up(&t);
    axl_graph g;
    axl_graph_exec x = graph_of_vadd(&t, &g);
    inputs_for_round(&t, 0);
    axl_queue q;
    AXL_OK(axl_queue_create(t.rig.ctx, t.rig.dev, 0, NULL, &q));
    fir_on(&t, q, NULL);
    AXL_OK(axl_queue_wait_and_throw(q)); /* B loaded */
    const unsigned loads0 = atomic_load(&loads);
    axl_event e[4];
    AXL_OK(axl_queue_submit_graph(q, x, NULL, 0, &e[0]));
    fir_on(&t, q, &e[1]);
    AXL_OK(axl_queue_submit_graph(q, x, NULL, 0, &e[2]));
    fir_on(&t, q, &e[3]);
    AXL_OK(axl_queue_wait_and_throw(q));
    for (int i = 0; i < 4; i++)
        event_succeeded(e[i]);
    check_sums(&t);
    assert_true(atomic_load(&loads) - loads0 >= 1);
    assert_int_equal(atomic_load(&vadd_starts), 2);
    assert_int_equal(atomic_load(&stale_starts), 0);
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    two_down(&t);
}

/*
 * 2.7: a graph runs one design on a whole-fabric device. One of vadd (A)
 * and fir (B) is refused at its submission, AXL_ERR_FEATURE_NOT_SUPPORTED
 * saying so, and nothing runs or loads.
 */
static void a_graph_of_two_designs_is_refused_at_its_submission_2_7(void **s)
{
    (void)s;
    struct two t;
    two_up(&t);
    axl_graph g;
    AXL_OK(axl_graph_create(t.rig.ctx, t.rig.dev, &g));
    AXL_OK(axl_graph_begin_recording(g, t.rig.q));
    vadd_on(&t, t.rig.q, NULL);
    fir(&t, NULL);
    AXL_OK(axl_graph_end_recording(g, t.rig.q));
    axl_graph_exec x;
    AXL_OK(axl_graph_finalize(g, &x));
    const unsigned loads0 = atomic_load(&loads);
    const uint32_t reprog0 = axl_test_pool("reprogramming").high_water;
    AXL_EXPECT(axl_queue_submit_graph(t.rig.q, x, NULL, 0, NULL),
               AXL_ERR_FEATURE_NOT_SUPPORTED);
    AXL_MESSAGE_HAS("a graph runs one design");
    AXL_OK(axl_queue_wait_and_throw(t.rig.q));
    assert_int_equal(atomic_load(&loads), loads0);
    assert_int_equal(axl_test_pool("reprogramming").high_water, reprog0);
    assert_int_equal(atomic_load(&vadd_starts), 0);
    AXL_OK(axl_graph_exec_release(x));
    AXL_OK(axl_graph_release(g));
    two_down(&t);
}

#define GRAPH_TEST(fn)                                                         \
    cmocka_unit_test_setup_teardown(fn, setup_graphs, teardown)
#endif /* AXL_FEATURE_GRAPHS */

#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
#endif /* SWAPS */

int main(int argc, char **argv)
{
    if (axl_test_without_reader())
        return 0;
#if !SWAPS
    (void)argc;
    (void)argv;
    printf("switched off: AXL_FEATURE_DESIGN_SWAP, _APP_IMAGES or "
           "_SUB_BUFFERS\n");
    return 0;
#else
    const char *group = argc > 1 ? argv[1] : "";
    const struct CMUnitTest keep_bytes[] = {
        TEST(buffers_keep_their_bytes_across_swaps_with_a_sub_buffer_2_3),
    };
    const struct CMUnitTest beside_data[] = {
        TEST(copies_beside_swaps_land_whole_2_3),
    };
    const struct CMUnitTest failing_load[] = {
        TEST(a_failing_load_fails_its_commands_and_keeps_every_buffer_2_2),
    };
    const struct CMUnitTest forbidden[] = {
        TEST(swaps_forbidden_by_the_environment_keep_the_refusal_2_5),
    };
    if (!strcmp(group, "keep_bytes"))
        return cmocka_run_group_tests_name("keep_bytes", keep_bytes, NULL,
                                           NULL);
    if (!strcmp(group, "beside_data"))
        return cmocka_run_group_tests_name("beside_data", beside_data, NULL,
                                           NULL);
    if (!strcmp(group, "failing_load"))
        return cmocka_run_group_tests_name("failing_load", failing_load, NULL,
                                           NULL);
    if (!strcmp(group, "forbidden"))
        return cmocka_run_group_tests_name("forbidden", forbidden, NULL, NULL);
#if AXL_FEATURE_GRAPHS
    const struct CMUnitTest graphs[] = {
        GRAPH_TEST(
            a_graph_replays_after_its_design_was_swapped_out_and_back_2_7),
        GRAPH_TEST(a_graph_waits_for_the_other_designs_run_in_flight_2_7),
        GRAPH_TEST(
            a_graph_and_a_command_of_two_designs_submitted_back_to_back_2_7),
        GRAPH_TEST(a_graph_of_two_designs_is_refused_at_its_submission_2_7),
    };
    if (!strcmp(group, "graphs")) {
        if (getenv("AXL_TEST_ONLY"))
            cmocka_set_test_filter(getenv("AXL_TEST_ONLY"));
        return cmocka_run_group_tests_name("graphs", graphs, NULL, NULL);
    }
#else
    if (!strcmp(group, "graphs")) {
        printf("switched off: AXL_FEATURE_GRAPHS\n");
        return 0;
    }
#endif
    fprintf(stderr,
            "usage: %s keep_bytes|beside_data|failing_load|forbidden|graphs\n",
            argv[0]);
    return 2;
#endif
}
