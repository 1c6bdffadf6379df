/*
 * Launching kernels on the emulated device: the stock models against host
 * computations, argument checks against the metadata, memory reachability
 * per CONNECTIVITY, several compute units at once, timeouts of a hung
 * accelerator, use_kernel_bundle (4.9.4.4), and designs programmed when a
 * bundle is obtained.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "axl_test.h"
#include "axl/emu.h"
#include "axl/xclbin.h"

/* ---- The stock models against the host --------------------------------------------- */

static void vadd_adds_on_the_emulated_device(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel k = axl_test_rig_kernel(&r, "vadd");
    enum { N = 4096 };
    static int32_t a[N], b[N], out[N];
    for (int i = 0; i < N; i++) {
        a[i] = i * 3;
        b[i] = -i + 7;
    }
    axl_buffer A, B, O;
    AXL_OK(axl_buffer_create_from(a, 4, axl_range_1d(N), NULL, &A));
    AXL_OK(axl_buffer_create_from(b, 4, axl_range_1d(N), NULL, &B));
    AXL_OK(axl_buffer_create_from(out, 4, axl_range_1d(N), NULL, &O));
    uint32_t n = N;
    axl_kernel_arg args[4] = {{.index = 0, .buffer = A, .mode = AXL_ACCESS_READ},
                              {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
                              {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE},
                              {.index = 3, .value = &n, .size = sizeof n}};
    AXL_OK(axl_queue_single_task(r.q, k, args, 4, NULL, 0, NULL));
    AXL_OK(axl_buffer_release(O)); /* blocks, then writes back */
    for (int i = 0; i < N; i++)
        assert_int_equal(out[i], a[i] + b[i]);
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

static void mmult_multiplies_matrices(void **s)
{
    (void)s;
    AXL_TEST_NEEDS_C_MODELS("mmult is floating point and has no RTL");
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel k = axl_test_rig_kernel(&r, "mmult");
    enum { D = 16 };
    static float a[D * D], b[D * D], c[D * D], want[D * D];
    for (int i = 0; i < D * D; i++) {
        a[i] = (float)(i % 7) - 3.0f;
        b[i] = (float)(i % 5) * 0.5f;
    }
    for (int i = 0; i < D; i++)
        for (int j = 0; j < D; j++) {
            float acc = 0;
            for (int x = 0; x < D; x++)
                acc += a[i * D + x] * b[x * D + j];
            want[i * D + j] = acc;
        }
    axl_buffer A, B, C;
    AXL_OK(axl_buffer_create_from_const(a, 4, axl_range_2d(D, D), NULL, &A));
    AXL_OK(axl_buffer_create_from_const(b, 4, axl_range_2d(D, D), NULL, &B));
    AXL_OK(axl_buffer_create(4, axl_range_2d(D, D), NULL, &C));
    uint32_t dim = D;
    axl_kernel_arg args[4] = {{.index = 0, .buffer = A, .mode = AXL_ACCESS_READ},
                              {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
                              {.index = 2, .buffer = C, .mode = AXL_ACCESS_WRITE},
                              {.index = 3, .value = &dim, .size = 4}};
    AXL_OK(axl_queue_single_task(r.q, k, args, 4, NULL, 0, NULL));
    AXL_OK(axl_queue_copy_to_host(r.q, C, NULL, c, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    assert_memory_equal(c, want, sizeof want);
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(C));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

static void fir_filters_q15_samples(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel k = axl_test_rig_kernel(&r, "fir");
    enum { L = 256, T = 8 };
    static int16_t in[L], coeff[T], out[L], want[L];
    for (int i = 0; i < L; i++)
        in[i] = (int16_t)((i * 977) % 20000 - 10000);
    for (int t = 0; t < T; t++)
        coeff[t] = (int16_t)(4096 - t * 300); /* Q15 */
    for (int i = 0; i < L; i++) {
        int64_t acc = 0;
        for (int t = 0; t < T && t <= i; t++)
            acc += coeff[t] * in[i - t];
        int64_t v = (acc + 16384) >> 15;
        want[i] = (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
    }
    axl_buffer I, C, O;
    AXL_OK(axl_buffer_create_from_const(in, 2, axl_range_1d(L), NULL, &I));
    AXL_OK(axl_buffer_create_from_const(coeff, 2, axl_range_1d(T), NULL, &C));
    AXL_OK(axl_buffer_create(2, axl_range_1d(L), NULL, &O));
    uint32_t taps = T, len = L;
    axl_kernel_arg args[5] = {{.index = 0, .buffer = I, .mode = AXL_ACCESS_READ},
                              {.index = 1, .buffer = C, .mode = AXL_ACCESS_READ},
                              {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE},
                              {.index = 3, .value = &taps, .size = 4},
                              {.index = 4, .value = &len, .size = 4}};
    AXL_OK(axl_queue_single_task(r.q, k, args, 5, NULL, 0, NULL));
    AXL_OK(axl_queue_copy_to_host(r.q, O, NULL, out, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    assert_memory_equal(out, want, sizeof want);
    AXL_OK(axl_buffer_release(I));
    AXL_OK(axl_buffer_release(C));
    AXL_OK(axl_buffer_release(O));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

static void conv2d_convolves_8_bit_images(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel k = axl_test_rig_kernel(&r, "conv2d");
    enum { W = 37, H = 23 };
    static uint8_t in[H][W], out[H][W], want[H][W];
    static const int8_t sharpen[9] = {0, -1, 0, -1, 5, -1, 0, -1, 0};
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            in[y][x] = (uint8_t)((x * 13 + y * 7) % 256);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int acc = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    if (y + dy >= 0 && y + dy < H && x + dx >= 0 && x + dx < W)
                        acc += sharpen[(dy + 1) * 3 + dx + 1] * in[y + dy][x + dx];
            int v = acc < 0 ? 0 : acc >> 0;
            want[y][x] = (uint8_t)(v > 255 ? 255 : v);
        }
    axl_buffer I, C, O;
    AXL_OK(axl_buffer_create_from_const(in, 1, axl_range_2d(H, W), NULL, &I));
    AXL_OK(axl_buffer_create_from_const(sharpen, 1, axl_range_1d(9), NULL, &C));
    AXL_OK(axl_buffer_create(1, axl_range_2d(H, W), NULL, &O));
    uint32_t w = W, h = H, shift = 0;
    axl_kernel_arg args[6] = {{.index = 0, .buffer = I, .mode = AXL_ACCESS_READ},
                              {.index = 1, .buffer = C, .mode = AXL_ACCESS_READ},
                              {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE},
                              {.index = 3, .value = &w, .size = 4},
                              {.index = 4, .value = &h, .size = 4},
                              {.index = 5, .value = &shift, .size = 4}};
    AXL_OK(axl_queue_single_task(r.q, k, args, 6, NULL, 0, NULL));
    AXL_OK(axl_queue_copy_to_host(r.q, O, NULL, out, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    assert_memory_equal(out, want, sizeof want);
    AXL_OK(axl_buffer_release(I));
    AXL_OK(axl_buffer_release(C));
    AXL_OK(axl_buffer_release(O));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

/* A vadd of 100 elements over buffers of 4 fails its run: the C model's
 * argument check fails it before it runs (AXL_ERR_KERNEL); the RTL has no
 * such check, and its memory model fails the run at the first write past
 * the output buffer (AXL_ERR_RUNTIME, naming the unit and the bundle). */
#if defined(AXL_TEST_RTL) && AXL_TEST_RTL
#define OVERRUN AXL_ERR_RUNTIME
#define OVERRUN_SAYS "is outside every buffer"
#define OVERRUN_CAUSE "(AXL_ERR_RUNTIME: RTL vadd:vadd_"
#else
#define OVERRUN AXL_ERR_KERNEL
#define OVERRUN_SAYS "in1 must be a buffer of at least 400 bytes"
#define OVERRUN_CAUSE "(AXL_ERR_KERNEL: vadd: argument"
#endif

static void model_failure_fails_the_event_and_its_dependents(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(0);
    axl_kernel k = axl_test_rig_kernel(&r, "vadd");
    axl_buffer A, O;
    AXL_OK(axl_buffer_create(4, axl_range_1d(4), NULL, &A));
    AXL_OK(axl_buffer_create(4, axl_range_1d(4), NULL, &O));
    uint32_t n = 100; /* more than the 4 elements the buffers hold */
    axl_kernel_arg args[4] = {{.index = 0, .buffer = A, .mode = AXL_ACCESS_READ},
                              {.index = 1, .buffer = A, .mode = AXL_ACCESS_READ},
                              {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE},
                              {.index = 3, .value = &n, .size = 4}};
    axl_event e, after;
    AXL_OK(axl_queue_single_task(r.q, k, args, 4, NULL, 0, &e));
    int host[4];
    AXL_OK(axl_queue_copy_to_host(r.q, O, NULL, host, NULL, 0, &after));
    AXL_EXPECT(axl_event_wait(e), OVERRUN);
    AXL_MESSAGE_HAS(OVERRUN_SAYS);
    AXL_EXPECT(axl_event_wait(after), OVERRUN);
    AXL_MESSAGE_HAS("not run");
    AXL_EXPECT(axl_queue_wait_and_throw(r.q), OVERRUN);
    /* Without a handler each throw gives one error, the next one stays
     * queued (4.13.1.2; before issue 16 the rest were folded into "(and
     * more)" and lost): the dependent's comes second. */
    AXL_MESSAGE_HAS("1 more queued");
    AXL_EXPECT(axl_queue_throw_asynchronous(r.q), OVERRUN);
    AXL_MESSAGE_HAS("not run");
    AXL_OK(axl_queue_throw_asynchronous(r.q));
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_event_release(after));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(O));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

/* A command that reads what a failed command wrote fails too (SYCL 4.13:
 * the error reaches the handler); its message names the buffer, and for
 * a kernel the argument, through which it depends on the failure. */
static void a_command_after_a_failed_write_names_the_buffer_4_13(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(0);
    axl_kernel k = axl_test_rig_kernel(&r, "vadd");
    axl_buffer A, O;
    AXL_OK(axl_buffer_create(4, axl_range_1d(4), NULL, &A));
    AXL_OK(axl_buffer_create(4, axl_range_1d(4), NULL, &O));
    axl_event bad, next, copy;
    /* 100 elements in buffers of 4: the model fails, O is left unknown. */
    AXL_OK(axl_queue_single_task(r.q, k,
                                 AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A),
                                          AXL_ARG_INOUT(O), AXL_ARG_U32(100)),
                                 NULL, 0, &bad));
    AXL_OK(axl_queue_single_task(r.q, k,
                                 AXL_ARGS(AXL_ARG_IN(O), AXL_ARG_IN(A),
                                          AXL_ARG_OUT(A), AXL_ARG_U32(4)),
                                 NULL, 0, &next));
    int host[4];
    AXL_OK(axl_queue_copy_to_host(r.q, O, NULL, host, NULL, 0, &copy));
    AXL_EXPECT(axl_event_wait(bad), OVERRUN);
    char want[96];
    snprintf(want, sizeof want,
             "depends on failed writing buffer 0x%x (argument 0) " OVERRUN_CAUSE,
             (unsigned)O.id);
    AXL_EXPECT(axl_event_wait(next), OVERRUN);
    AXL_MESSAGE_HAS(want);
    snprintf(want, sizeof want, "depends on failed writing buffer 0x%x (",
             (unsigned)O.id);
    AXL_EXPECT(axl_event_wait(copy), OVERRUN);
    AXL_MESSAGE_HAS(want);
    /* One error per throw (4.13.1.2): the two dependents' come after. */
    AXL_EXPECT(axl_queue_wait_and_throw(r.q), OVERRUN);
    AXL_EXPECT(axl_queue_throw_asynchronous(r.q), OVERRUN);
    AXL_EXPECT(axl_queue_throw_asynchronous(r.q), OVERRUN);
    AXL_OK(axl_queue_throw_asynchronous(r.q));
    AXL_OK(axl_event_release(bad));
    AXL_OK(axl_event_release(next));
    AXL_OK(axl_event_release(copy));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(O));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

/* The emulated device's banks are the used banks of its design's
 * MEM_TOPOLOGY, with that section's tags and base addresses (what axl-ls
 * prints), not addresses of its own. */
static void emulated_banks_have_the_designs_mem_topology_addresses(void **s)
{
    (void)s;
    axl_xclbin x;
    AXL_OK(axl_xclbin_open(&x, axl_test_stock_xclbin,
                           axl_test_stock_xclbin_size, NULL, 0));
    axl_device dev = axl_test_emu_device();
    uint32_t b = 0;
    for (uint32_t m = 0; m < x.mem_count; m++) {
        axl_xclbin_mem mem;
        AXL_OK(axl_xclbin_get_mem(&x, m, &mem));
        if (!mem.used)
            continue;
        axl_device_bank bank;
        AXL_OK(axl_device_get_bank(dev, b++, &bank));
        assert_int_equal(bank.base_address, mem.base_address);
        assert_int_equal(strlen(bank.tag), mem.tag.len);
        assert_memory_equal(bank.tag, mem.tag.ptr, mem.tag.len);
    }
    assert_int_equal(b, 2);
    axl_device_bank bank;
    AXL_OK(axl_device_get_bank(dev, 1, &bank));
    assert_int_equal(bank.base_address, 0x4010000000ull);
}

/* A kernel's compute units and the memories each argument of each unit
 * reaches, by MEM_TOPOLOGY index and tag (XRT's "vadd:{vadd_1}" and
 * kernel::group_id), as stock.xclbin's IP_LAYOUT and CONNECTIVITY say. */
static void compute_units_and_the_memories_their_arguments_reach(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel vadd = axl_test_rig_kernel(&r, "vadd");
    axl_kernel mmult = axl_test_rig_kernel(&r, "mmult");
    axl_kernel_cu_info cu;
    AXL_OK(axl_kernel_get_cu_info(vadd, 1, &cu));
    assert_string_equal(cu.name, "vadd_2");
    assert_int_equal(cu.base_address, 0x1810000);
    assert_int_equal(cu.ip_index, 1);
    AXL_EXPECT(axl_kernel_get_cu_info(vadd, 2, &cu), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("kernel vadd has 2 compute units; there is no unit 2");
    uint64_t m = 0;
    char tag[16];
    AXL_OK(axl_kernel_get_arg_memories(vadd, 1, 2, &m, tag, sizeof tag));
    assert_int_equal(m, 0x3); /* out_r: bank0 and bank1 */
    assert_string_equal(tag, "bank0");
    AXL_OK(axl_kernel_get_arg_memories(vadd, 0, 3, &m, tag, sizeof tag));
    assert_int_equal(m, 0); /* size: a scalar */
    AXL_OK(axl_kernel_get_arg_memories(mmult, 0, 0, &m, tag, sizeof tag));
    assert_int_equal(m, 0x2); /* bank1 only */
    assert_string_equal(tag, "bank1");
    AXL_EXPECT(axl_kernel_get_arg_memories(mmult, 0, 4, &m, NULL, 0),
               AXL_ERR_INVALID);
    AXL_OK(axl_kernel_release(vadd));
    AXL_OK(axl_kernel_release(mmult));
    axl_test_rig_down(&r);
}

/* ---- Arguments against the metadata ------------------------------------------------- */

typedef struct argcase {
    axl_kernel k;
    axl_buffer a, b, o;
    int variant;
} argcase;

static void arg_cgf(axl_handler *h, void *user)
{
    argcase *c = user;
    axl_accessor a, b, o;
    axl_handler_require(h, c->a, AXL_ACCESS_READ, NULL, 0, &a);
    axl_handler_require(h, c->b, AXL_ACCESS_READ, NULL, 0, &b);
    axl_handler_require(h, c->o, AXL_ACCESS_WRITE, NULL, 0, &o);
    uint32_t n = 4;
    uint64_t wide = 4;
    axl_handler_set_arg_accessor(h, 0, a);
    axl_handler_set_arg_accessor(h, 1, b);
    switch (c->variant) {
    case 0: /* arg 2 never set */
        axl_handler_set_arg(h, 3, &n, sizeof n);
        break;
    case 1: /* a scalar where a buffer goes */
        axl_handler_set_arg(h, 2, &n, sizeof n);
        axl_handler_set_arg(h, 3, &n, sizeof n);
        break;
    case 2: /* an accessor where a scalar goes */
        axl_handler_set_arg_accessor(h, 2, o);
        axl_handler_set_arg_accessor(h, 3, o);
        break;
    case 3: /* 8 bytes for a 4-byte scalar */
        axl_handler_set_arg_accessor(h, 2, o);
        axl_handler_set_arg(h, 3, &wide, sizeof wide);
        break;
    case 4: /* an argument the kernel does not have */
        axl_handler_set_arg_accessor(h, 2, o);
        axl_handler_set_arg(h, 3, &n, sizeof n);
        axl_handler_set_arg(h, 7, &n, sizeof n);
        break;
    }
    axl_handler_single_task(h, c->k);
}

static void bad_arguments_are_kernel_argument_errors_and_nothing_runs(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(0);
    argcase c = {axl_test_rig_kernel(&r, "vadd"), AXL_NONE, AXL_NONE, AXL_NONE,
                 0};
    AXL_OK(axl_buffer_create(4, axl_range_1d(4), NULL, &c.a));
    AXL_OK(axl_buffer_create(4, axl_range_1d(4), NULL, &c.b));
    AXL_OK(axl_buffer_create(4, axl_range_1d(4), NULL, &c.o));
    static const char *says[5] = {"(out_r) of vadd was not set",
                                  "is a buffer, and a scalar was set",
                                  "is a scalar, and an accessor was set",
                                  "takes 4 bytes; 8 were set",
                                  "has no argument 7"};
    for (int v = 0; v < 5; v++) {
        c.variant = v;
        axl_event e = {11};
        AXL_EXPECT(axl_queue_submit(r.q, arg_cgf, &c, &e),
                   AXL_ERR_KERNEL_ARGUMENT);
        AXL_MESSAGE_HAS(says[v]);
        assert_int_equal(e.id, 11);
        assert_int_equal(axl_test_pool("command").in_use, 0);
    }
    assert_int_equal(axl_status_errc(AXL_ERR_KERNEL_ARGUMENT),
                     AXL_ERRC_KERNEL_ARGUMENT);
    AXL_OK(axl_buffer_release(c.a));
    AXL_OK(axl_buffer_release(c.b));
    AXL_OK(axl_buffer_release(c.o));
    AXL_OK(axl_kernel_release(c.k));
    axl_test_rig_down(&r);
}

/* ---- axl_queue_single_task against its command group ------------------------------ */

/* The command group axl_queue_single_task stands for, made with the handler
 * calls, which single_task must match, whether the handler calls or the
 * kernel's memo of its last launch fill its group. */
typedef struct st_group {
    axl_kernel k;
    const axl_kernel_arg *args;
    uint32_t nargs;
} st_group;

static void st_cgf(axl_handler *h, void *user)
{
    const st_group *g = user;
    for (uint32_t i = 0; i < g->nargs; i++) {
        const axl_kernel_arg *a = &g->args[i];
        if (a->value) {
            axl_handler_set_arg(h, a->index, a->value, a->size);
        } else {
            axl_accessor acc;
            axl_handler_require(h, a->buffer,
                                a->mode ? a->mode : AXL_ACCESS_READ_WRITE,
                                a->region, 0, &acc);
            axl_handler_set_arg_accessor(h, a->index, acc);
        }
    }
    axl_handler_single_task(h, g->k);
}

/* The group both ways: the same status, the same message. */
static void both_ways(axl_queue q, axl_kernel k, const axl_kernel_arg *args,
                      uint32_t n, axl_status want)
{
    char first[AXL_MESSAGE_MAX];
    AXL_EXPECT(axl_queue_single_task(q, k, args, n, NULL, 0, NULL), want);
    /* Each names the call made (issue 16.7); the rest is the same. */
    const char *m = axl_last_message();
    if (want != AXL_SUCCESS) { /* terse: "axl_queue_single_task: STATUS" */
        assert_int_equal(strncmp(m, "axl_queue_single_task: ", 23), 0);
        snprintf(first, sizeof first, "axl_queue_submit: %s", m + 23);
    } else {
        strcpy(first, m);
    }
    AXL_OK(axl_queue_wait_and_throw(q));
    st_group g = {k, args, n};
    AXL_EXPECT(axl_queue_submit(q, st_cgf, &g, NULL), want);
    if (want != AXL_SUCCESS)
        assert_string_equal(axl_last_message(), first);
    AXL_OK(axl_queue_wait_and_throw(q));
    assert_int_equal(axl_test_pool("command").in_use, 0);
}

static void single_task_says_what_its_command_group_says(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel k = axl_test_rig_kernel(&r, "vadd");
    static const int32_t ro[16] = {1, 2, 3};
    axl_buffer A, B, O, C, S, N;
    AXL_OK(axl_buffer_create(4, axl_range_1d(16), NULL, &A));
    AXL_OK(axl_buffer_create(4, axl_range_1d(16), NULL, &B));
    AXL_OK(axl_buffer_create(4, axl_range_1d(16), NULL, &O));
    AXL_OK(axl_buffer_create_from_const(ro, 4, axl_range_1d(16), NULL, &C));
    AXL_OK(axl_buffer_create(4, axl_range_1d(16), NULL, &N));
    AXL_OK(axl_buffer_create(4, axl_range_1d(16), NULL, &S));
    AXL_OK(axl_buffer_release(S)); /* a stale handle */
    uint32_t n = 16;
    uint64_t wide = 16;
    axl_region all = {{0}, {16}}, outside = {{12}, {8}};
    /* Every buffer but N on the device already, as the memo remembers them. */
    axl_kernel_arg ok[4] = {{.index = 0, .buffer = A, .mode = AXL_ACCESS_READ},
                            {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
                            {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE},
                            {.index = 3, .value = &n, .size = sizeof n}};
    both_ways(r.q, k, ok, 4, AXL_SUCCESS);
    axl_kernel_arg c2[4] = {{.index = 0, .buffer = C, .mode = AXL_ACCESS_READ},
                            {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
                            {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE},
                            {.index = 3, .value = &n, .size = sizeof n}};
    both_ways(r.q, k, c2, 4, AXL_SUCCESS);

    struct {
        axl_kernel_arg args[5];
        uint32_t n;
        axl_status want;
    } cases[] = {
        /* in another order, the buffers' default mode */
        {{{.index = 3, .value = &n, .size = sizeof n},
          {.index = 2, .buffer = O, .mode = 0},
          {.index = 0, .buffer = A, .mode = AXL_ACCESS_READ},
          {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ}}, 4, AXL_SUCCESS},
        /* a region, even of all of it: the general path */
        {{{.index = 0, .buffer = A, .mode = AXL_ACCESS_READ, .region = &all},
          {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
          {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE},
          {.index = 3, .value = &n, .size = sizeof n}}, 4, AXL_SUCCESS},
        /* a buffer not on the device yet: the general path places it */
        {{{.index = 0, .buffer = N, .mode = AXL_ACCESS_READ},
          {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
          {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE},
          {.index = 3, .value = &n, .size = sizeof n}}, 4, AXL_SUCCESS},
        /* one buffer twice */
        {{{.index = 0, .buffer = A, .mode = AXL_ACCESS_READ},
          {.index = 1, .buffer = A, .mode = AXL_ACCESS_READ},
          {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE},
          {.index = 3, .value = &n, .size = sizeof n}}, 4, AXL_SUCCESS},
        /* an argument missing */
        {{{.index = 0, .buffer = A, .mode = AXL_ACCESS_READ},
          {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
          {.index = 3, .value = &n, .size = sizeof n}}, 3, AXL_ERR_KERNEL_ARGUMENT},
        /* one too many */
        {{{.index = 0, .buffer = A, .mode = AXL_ACCESS_READ},
          {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
          {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE},
          {.index = 3, .value = &n, .size = sizeof n},
          {.index = 7, .value = &n, .size = sizeof n}}, 5, AXL_ERR_KERNEL_ARGUMENT},
        /* an id twice, one missing */
        {{{.index = 0, .buffer = A, .mode = AXL_ACCESS_READ},
          {.index = 0, .buffer = B, .mode = AXL_ACCESS_READ},
          {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE},
          {.index = 3, .value = &n, .size = sizeof n}}, 4, AXL_ERR_KERNEL_ARGUMENT},
        /* a scalar where a buffer goes, a buffer where a scalar goes */
        {{{.index = 0, .value = &n, .size = sizeof n},
          {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
          {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE},
          {.index = 3, .value = &n, .size = sizeof n}}, 4, AXL_ERR_KERNEL_ARGUMENT},
        {{{.index = 0, .buffer = A, .mode = AXL_ACCESS_READ},
          {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
          {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE},
          {.index = 3, .buffer = B, .mode = AXL_ACCESS_READ}}, 4, AXL_ERR_KERNEL_ARGUMENT},
        /* 8 bytes for 4; no bytes */
        {{{.index = 0, .buffer = A, .mode = AXL_ACCESS_READ},
          {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
          {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE},
          {.index = 3, .value = &wide, .size = sizeof wide}}, 4,
         AXL_ERR_KERNEL_ARGUMENT},
        {{{.index = 0, .buffer = A, .mode = AXL_ACCESS_READ},
          {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
          {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE},
          {.index = 3, .value = &n, .size = 0}}, 4, AXL_ERR_KERNEL_ARGUMENT},
        /* a stale buffer, a write to const memory, a bad mode, a region
         * outside the buffer */
        {{{.index = 0, .buffer = S, .mode = AXL_ACCESS_READ},
          {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
          {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE},
          {.index = 3, .value = &n, .size = sizeof n}}, 4, AXL_ERR_INVALID_OBJECT},
        /* a kernel may write a buffer made from const host memory
         * (4.7.2.3 rule 2.2: read-only on the host only) */
        {{{.index = 0, .buffer = A, .mode = AXL_ACCESS_READ},
          {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
          {.index = 2, .buffer = C, .mode = AXL_ACCESS_WRITE},
          {.index = 3, .value = &n, .size = sizeof n}}, 4, AXL_SUCCESS},
        /* 6 and 7 are the no_init modes; 5 and 8 are no mode */
        {{{.index = 0, .buffer = A, .mode = (axl_access_mode)5},
          {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
          {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE},
          {.index = 3, .value = &n, .size = sizeof n}}, 4, AXL_ERR_INVALID},
        {{{.index = 0, .buffer = A, .mode = (axl_access_mode)8},
          {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
          {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE},
          {.index = 3, .value = &n, .size = sizeof n}}, 4, AXL_ERR_INVALID},
        {{{.index = 0, .buffer = A, .mode = AXL_ACCESS_READ, .region = &outside},
          {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
          {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE},
          {.index = 3, .value = &n, .size = sizeof n}}, 4, AXL_ERR_INVALID},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        both_ways(r.q, k, cases[i].args, cases[i].n, cases[i].want);
    /* A stale kernel and a stale queue, after a plain group. */
    axl_kernel gone = axl_test_rig_kernel(&r, "vadd");
    AXL_OK(axl_kernel_release(gone));
    both_ways(r.q, gone, ok, 4, AXL_ERR_INVALID_OBJECT);
    axl_queue q2;
    AXL_OK(axl_queue_create(r.ctx, r.dev, AXL_QUEUE_IN_ORDER, NULL, &q2));
    AXL_OK(axl_queue_release(q2));
    char first[AXL_MESSAGE_MAX];
    AXL_EXPECT(axl_queue_single_task(q2, k, ok, 4, NULL, 0, NULL),
               AXL_ERR_INVALID_OBJECT);
    /* Each names the call made (issue 16.7); the rest is the same (terse
     * messages too: "axl_queue_single_task: STATUS"). */
    AXL_MESSAGE_HAS("axl_queue_single_task: ");
    snprintf(first, sizeof first, "axl_queue_submit: %s",
             axl_last_message() + 23);
    st_group g = {k, ok, 4};
    AXL_EXPECT(axl_queue_submit(q2, st_cgf, &g, NULL), AXL_ERR_INVALID_OBJECT);
    assert_string_equal(axl_last_message(), first);
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(O));
    AXL_OK(axl_buffer_release(C));
    AXL_OK(axl_buffer_release(N));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

/* Launches whose buffers are already on the device (filled from the memo)
 * keep their order through the buffers on an out-of-order queue too, and
 * see what the host wrote in between. */
static void repeated_launches_keep_their_data_order(void **s)
{
    (void)s;
    for (int in_order = 0; in_order < 2; in_order++) {
        axl_test_rig r = axl_test_rig_up(in_order ? AXL_QUEUE_IN_ORDER : 0);
        axl_kernel k = axl_test_rig_kernel(&r, "vadd");
        enum { N = 64, ROUNDS = 12 };
        static int32_t x[N], y[N], z[N], got[N];
        int32_t want_x[N], want_y[N], want_z[N];
        for (int i = 0; i < N; i++) {
            want_x[i] = x[i] = i;
            want_y[i] = y[i] = 1000 - i;
            want_z[i] = z[i] = 0;
        }
        axl_buffer X, Y, Z;
        AXL_OK(axl_buffer_create_from(x, 4, axl_range_1d(N), NULL, &X));
        AXL_OK(axl_buffer_create_from(y, 4, axl_range_1d(N), NULL, &Y));
        AXL_OK(axl_buffer_create_from(z, 4, axl_range_1d(N), NULL, &Z));
        uint32_t n = N;
        for (int round = 0; round < ROUNDS; round++) {
            /* z = x + y, then x = z + y, then y = x + z: each reads what
             * the one before wrote, and overwrites what it read. */
            axl_buffer in1[3] = {X, Z, X}, in2[3] = {Y, Y, Z},
                       out[3] = {Z, X, Y};
            int32_t *w1[3] = {want_x, want_z, want_x},
                    *w2[3] = {want_y, want_y, want_z},
                    *wo[3] = {want_z, want_x, want_y};
            for (int j = 0; j < 3; j++) {
                axl_kernel_arg args[4] = {
                    {.index = 0, .buffer = in1[j], .mode = AXL_ACCESS_READ},
                    {.index = 1, .buffer = in2[j], .mode = AXL_ACCESS_READ},
                    {.index = 2, .buffer = out[j], .mode = AXL_ACCESS_WRITE},
                    {.index = 3, .value = &n, .size = sizeof n}};
                AXL_OK(axl_queue_single_task(r.q, k, args, 4, NULL, 0, NULL));
                for (int i = 0; i < N; i++)
                    wo[j][i] = w1[j][i] + w2[j][i];
            }
            if (round % 3 == 1) { /* the host writes y between launches */
                int32_t fresh[N];
                for (int i = 0; i < N; i++)
                    want_y[i] = fresh[i] = round * 7 - i;
                AXL_OK(axl_queue_copy_from_host(r.q, fresh, Y, NULL, NULL, 0,
                                                NULL));
                AXL_OK(axl_queue_wait_and_throw(r.q));
            }
            if (round % 4 == 2) { /* and reads z through a host accessor */
                axl_host_accessor ha;
                void *p;
                AXL_OK(axl_host_accessor_create(Z, AXL_ACCESS_READ, NULL, 0,
                                                &ha, &p));
                assert_memory_equal(p, want_z, sizeof want_z);
                AXL_OK(axl_host_accessor_release(ha));
            }
        }
        axl_buffer all[3] = {X, Y, Z};
        int32_t *want[3] = {want_x, want_y, want_z};
        for (int b = 0; b < 3; b++) {
            AXL_OK(axl_queue_copy_to_host(r.q, all[b], NULL, got, NULL, 0,
                                          NULL));
            AXL_OK(axl_queue_wait_and_throw(r.q));
            assert_memory_equal(got, want[b], sizeof got);
        }
        AXL_OK(axl_buffer_release(X));
        AXL_OK(axl_buffer_release(Y));
        AXL_OK(axl_buffer_release(Z));
        AXL_OK(axl_kernel_release(k));
        axl_test_rig_down(&r);
    }
}

static atomic_int gate_open;

/* A launch filled from the kernel's memo (before issue 17: planned into the
 * command pool's next free slot before taking it): a full event or command
 * pool must still say so as the general path does, count one failure, and
 * leave no command, buffer hold or data behind. */
static void a_launch_from_the_memo_into_full_pools_changes_nothing(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel k = axl_test_rig_kernel(&r, "vadd");
    enum { N = 16 };
    int32_t a[N], b[N];
    for (int i = 0; i < N; i++) {
        a[i] = i;
        b[i] = 3 * i;
    }
    const uint16_t buffers = axl_test_pool("buffer").in_use;
    axl_buffer A, B, O;
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &A));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &B));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &O));
    AXL_OK(axl_queue_copy_from_host(r.q, a, A, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_copy_from_host(r.q, b, B, NULL, NULL, 0, NULL));
    uint32_t n = N;
    axl_kernel_arg args[4] = {{.index = 0, .buffer = A, .mode = AXL_ACCESS_READ},
                              {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
                              {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE},
                              {.index = 3, .value = &n, .size = sizeof n}};
    for (int i = 0; i < 3; i++) /* placed and remembered, recalled twice */
        AXL_OK(axl_queue_single_task(r.q, k, args, 4, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));

    /* Every event slot held: the group is filled, the event is not made. */
    uint32_t ecap = axl_test_pool("event").capacity;
    static axl_event held[4096];
    for (uint32_t i = 0; i < ecap; i++)
        AXL_OK(axl_event_create_complete(&held[i]));
    uint32_t efail = axl_test_pool("event").failures;
    AXL_EXPECT(axl_queue_single_task(r.q, k, args, 4, NULL, 0, NULL),
               AXL_ERR_OUT_OF_RESOURCES);
    AXL_MESSAGE_HAS("event pool is full");
    assert_int_equal(axl_test_pool("event").failures, efail + 1);
    st_group g = {k, args, 4};
    AXL_EXPECT(axl_queue_submit(r.q, st_cgf, &g, NULL),
               AXL_ERR_OUT_OF_RESOURCES);
    AXL_MESSAGE_HAS("event pool is full");
    assert_int_equal(axl_test_pool("command").in_use, 0);
    for (uint32_t i = 0; i < ecap; i++)
        AXL_OK(axl_event_release(held[i]));

    /* Every command slot taken by launches waiting behind a host task:
     * the launch from the memo finds none, and says so as the general path
     * does, one failure. */
    atomic_store(&gate_open, 0);
    axl_event gate;
    AXL_OK(
        axl_queue_host_task(r.q, axl_test_gate, &gate_open, NULL, 0, &gate));
    uint32_t ccap = axl_test_pool("command").capacity;
    for (uint32_t i = 1; i < ccap; i++)
        AXL_OK(axl_queue_single_task(r.q, k, args, 4, &gate, 1, NULL));
    uint32_t cfail = axl_test_pool("command").failures;
    AXL_EXPECT(axl_queue_single_task(r.q, k, args, 4, &gate, 1, NULL),
               AXL_ERR_OUT_OF_RESOURCES);
    AXL_MESSAGE_HAS("command pool is full");
    assert_int_equal(axl_test_pool("command").failures, cfail + 1);
    atomic_store(&gate_open, 1);
    AXL_OK(axl_queue_wait_and_throw(r.q));
    AXL_OK(axl_event_release(gate));

    /* And the launch goes through as before, with the data. */
    AXL_OK(axl_queue_single_task(r.q, k, args, 4, NULL, 0, NULL));
    int32_t got[N];
    AXL_OK(axl_queue_copy_to_host(r.q, O, NULL, got, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    for (int i = 0; i < N; i++)
        assert_int_equal(got[i], a[i] + b[i]);
    assert_int_equal(axl_test_pool("command").in_use, 0);
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(O));
    /* No hold left behind: the buffers are gone with their handles. */
    assert_int_equal(axl_test_pool("buffer").in_use, buffers);
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

/* vadd's output against a + b (n elements), read back from O. */
static void expect_sum(axl_test_rig *r, axl_buffer O, const int32_t *a,
                       const int32_t *b, int n)
{
    int32_t got[64];
    AXL_OK(axl_queue_copy_to_host(r->q, O, NULL, got, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r->q));
    for (int i = 0; i < n; i++)
        assert_int_equal(got[i], a[i] + b[i]);
}

/* A launch like the kernel's last plain one is checked against what that
 * one found (the kernel's memo, axl__launch_memo): what may differ since
 * must still be
 * seen, each time the same way as the general path sees it. */
static void a_launch_like_the_last_one_still_sees_what_changed(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel k = axl_test_rig_kernel(&r, "vadd");
    enum { N = 16 };
    static const int32_t ro[N] = {5, 6, 7};
    int32_t a[N], b[N], b2[N], a2[N];
    for (int i = 0; i < N; i++) {
        a[i] = i;
        b[i] = 100 * i;
        b2[i] = -3 * i;
        a2[i] = 7 + i;
    }
    axl_buffer A, B, O, C;
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &A));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &B));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &O));
    AXL_OK(axl_buffer_create_from_const(ro, 4, axl_range_1d(N), NULL, &C));
    AXL_OK(axl_queue_copy_from_host(r.q, a, A, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_copy_from_host(r.q, b, B, NULL, NULL, 0, NULL));
    uint32_t n = N;
    uint64_t wide = N;
    axl_kernel_arg ok[4] = {{.index = 0, .buffer = A, .mode = AXL_ACCESS_READ},
                            {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
                            {.index = 2, .buffer = O, .mode = AXL_ACCESS_WRITE},
                            {.index = 3, .value = &n, .size = sizeof n}};
    /* The first places the buffers, the second plans and is remembered,
     * the third is like it. */
    for (int i = 0; i < 3; i++)
        AXL_OK(axl_queue_single_task(r.q, k, ok, 4, NULL, 0, NULL));
    expect_sum(&r, O, a, b, N);

    /* The host writes B: the device's copy lags, and the launch brings
     * the new contents over. */
    AXL_OK(axl_queue_single_task(r.q, k, ok, 4, NULL, 0, NULL));
    AXL_OK(axl_queue_copy_from_host(r.q, b2, B, NULL, NULL, 0, NULL));
    AXL_OK(axl_queue_single_task(r.q, k, ok, 4, NULL, 0, NULL));
    expect_sum(&r, O, a, b2, N);
    /* Through a host accessor, the host's copy is the newer one. */
    AXL_OK(axl_queue_single_task(r.q, k, ok, 4, NULL, 0, NULL));
    axl_host_accessor ha;
    void *p;
    AXL_OK(axl_host_accessor_create(B, AXL_ACCESS_WRITE, NULL, 0, &ha, &p));
    for (int i = 0; i < N; i++)
        ((int32_t *)p)[i] = b2[i] = 11 * i + 1;
    AXL_OK(axl_host_accessor_release(ha));
    AXL_OK(axl_queue_single_task(r.q, k, ok, 4, NULL, 0, NULL));
    expect_sum(&r, O, a, b2, N);

    /* Units that ran the memo's launch keep its buffer arguments; a run of other
     * buffers on them in between (a group made with the handler calls,
     * on both of vadd's units) must not leave its own behind. */
    axl_buffer O2;
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &O2));
    axl_kernel_arg other[4] = {{.index = 0, .buffer = B, .mode = AXL_ACCESS_READ},
                               {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
                               {.index = 2, .buffer = O2, .mode = AXL_ACCESS_WRITE},
                               {.index = 3, .value = &n, .size = sizeof n}};
    st_group g = {k, other, 4};
    for (int round = 0; round < 2; round++) {
        AXL_OK(axl_queue_single_task(r.q, k, ok, 4, NULL, 0, NULL));
        AXL_OK(axl_queue_single_task(r.q, k, ok, 4, NULL, 0, NULL));
        AXL_OK(axl_queue_submit(r.q, st_cgf, &g, NULL));
        AXL_OK(axl_queue_submit(r.q, st_cgf, &g, NULL));
        expect_sum(&r, O2, b2, b2, N);
        int32_t zero[N] = {0};
        AXL_OK(axl_queue_copy_from_host(r.q, zero, O, NULL, NULL, 0, NULL));
        AXL_OK(axl_queue_single_task(r.q, k, ok, 4, NULL, 0, NULL));
        expect_sum(&r, O, a, b2, N);
        AXL_OK(axl_queue_copy_from_host(r.q, zero, O, NULL, NULL, 0, NULL));
        AXL_OK(axl_queue_single_task(r.q, k, ok, 4, NULL, 0, NULL));
        expect_sum(&r, O, a, b2, N);
    }
    AXL_OK(axl_buffer_release(O2));

    /* The same buffers with other modes, sizes or regions: each as the
     * general path says. */
    /* (With the output given read-only, vadd of 0 elements: one that
     * writes it fails on the emulated device, test_emulated_device.) */
    uint32_t none = 0;
    axl_kernel_arg to_const[4] = {{.index = 0, .buffer = A, .mode = AXL_ACCESS_READ},
                                  {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
                                  {.index = 2, .buffer = C, .mode = AXL_ACCESS_READ},
                                  {.index = 3, .value = &none, .size = sizeof n}};
    AXL_OK(axl_queue_single_task(r.q, k, to_const, 4, NULL, 0, NULL));
    AXL_OK(axl_queue_single_task(r.q, k, to_const, 4, NULL, 0, NULL));
    to_const[3].value = &n;
    /* A kernel may write memory made from const host data (4.7.2.3 rule
     * 2.2; before issue 16 both were AXL_ERR_INVALID). */
    to_const[2].mode = AXL_ACCESS_WRITE;
    both_ways(r.q, k, to_const, 4, AXL_SUCCESS);
    to_const[2].mode = 0; /* read_write, by default */
    both_ways(r.q, k, to_const, 4, AXL_SUCCESS);
    AXL_OK(axl_queue_single_task(r.q, k, ok, 4, NULL, 0, NULL));
    ok[3].value = &wide;
    ok[3].size = sizeof wide;
    both_ways(r.q, k, ok, 4, AXL_ERR_KERNEL_ARGUMENT);
    ok[3].value = &n;
    ok[3].size = sizeof n;
    AXL_OK(axl_queue_single_task(r.q, k, ok, 4, NULL, 0, NULL));
    ok[3] = (axl_kernel_arg){.index = 3, .buffer = B, .mode = AXL_ACCESS_READ};
    both_ways(r.q, k, ok, 4, AXL_ERR_KERNEL_ARGUMENT);
    ok[3] = (axl_kernel_arg){.index = 3, .value = &n, .size = sizeof n};
    AXL_OK(axl_queue_single_task(r.q, k, ok, 4, NULL, 0, NULL));
    ok[1].index = 3;
    ok[3].index = 1;
    both_ways(r.q, k, ok, 4, AXL_ERR_KERNEL_ARGUMENT);
    ok[1].index = 1;
    ok[3].index = 3;
    AXL_OK(axl_queue_single_task(r.q, k, ok, 4, NULL, 0, NULL));
    both_ways(r.q, k, ok, 3, AXL_ERR_KERNEL_ARGUMENT);

    /* A released buffer's handle is stale, though the launch before was
     * like this one; a new buffer in its slot is another buffer. */
    AXL_OK(axl_queue_single_task(r.q, k, ok, 4, NULL, 0, NULL));
    AXL_OK(axl_queue_single_task(r.q, k, ok, 4, NULL, 0, NULL));
    AXL_OK(axl_buffer_release(A));
    both_ways(r.q, k, ok, 4, AXL_ERR_INVALID_OBJECT);
    AXL_OK(axl_buffer_create_from(a2, 4, axl_range_1d(N), NULL, &A));
    ok[0].buffer = A;
    AXL_OK(axl_queue_single_task(r.q, k, ok, 4, NULL, 0, NULL));
    AXL_OK(axl_queue_single_task(r.q, k, ok, 4, NULL, 0, NULL));
    expect_sum(&r, O, a2, b2, N);

    /* The queue's context, not only its device, is part of what was
     * found: the kernel's bundle is of r.ctx. */
    axl_context ctx2;
    axl_queue q2;
    AXL_OK(axl_context_create(&r.dev, 1, NULL, &ctx2));
    AXL_OK(axl_queue_create(ctx2, r.dev, AXL_QUEUE_IN_ORDER, NULL, &q2));
    AXL_OK(axl_queue_single_task(r.q, k, ok, 4, NULL, 0, NULL));
    /* both_ways waits for q2 alone and then counts commands: r.q's launch
     * must have ended on a device that finishes runs later (mmio). The
     * kernel's last launch stays the one above. */
    AXL_OK(axl_queue_wait(r.q));
    both_ways(q2, k, ok, 4, AXL_ERR_INVALID);
    AXL_OK(axl_queue_wait_and_throw(r.q));
    AXL_OK(axl_queue_release(q2));
    AXL_OK(axl_context_release(ctx2));

    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(O));
    AXL_OK(axl_buffer_release(C));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

static void memory_a_compute_unit_cannot_reach_is_a_kernel_argument_error(void **s)
{
    (void)s;
    /* mmult's arguments connect to bank1 only (stock CONNECTIVITY). */
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel k = axl_test_rig_kernel(&r, "mmult");
    axl_buffer A, B, C;
    AXL_OK(axl_buffer_create(4, axl_range_1d(4), NULL, &A));
    AXL_OK(axl_buffer_create(4, axl_range_1d(4), NULL, &B));
    AXL_OK(axl_buffer_create(4, axl_range_1d(4), NULL, &C));
    AXL_OK(axl_buffer_place(A, r.dev, 0));
    uint32_t dim = 2;
    axl_kernel_arg args[4] = {{.index = 0, .buffer = A, .mode = AXL_ACCESS_READ},
                              {.index = 1, .buffer = B, .mode = AXL_ACCESS_READ},
                              {.index = 2, .buffer = C, .mode = AXL_ACCESS_WRITE},
                              {.index = 3, .value = &dim, .size = 4}};
    AXL_EXPECT(axl_queue_single_task(r.q, k, args, 4, NULL, 0, NULL),
               AXL_ERR_KERNEL_ARGUMENT);
    AXL_MESSAGE_HAS("in bank0, which no unit of the kernel object reaches "
                    "(mmult_1: bank1)");
    AXL_TEST_NEEDS_C_MODELS("the rest runs mmult, which has no RTL");
    /* Buffers not placed yet go where the unit reaches them: bank1. */
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_create(4, axl_range_1d(4), NULL, &A));
    args[0].buffer = A;
    AXL_OK(axl_queue_single_task(r.q, k, args, 4, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    AXL_OK(axl_buffer_place(A, r.dev, 1)); /* already there: fine */
    AXL_EXPECT(axl_buffer_place(A, r.dev, 0), AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("already lives in bank 1");
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_buffer_release(C));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

static void pf_cgf(axl_handler *h, void *user)
{
    axl_handler_parallel_for(h, axl_range_1d(64), *(axl_kernel *)user);
}

static void parallel_for_on_a_built_in_kernel_is_feature_not_supported(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(0);
    axl_kernel k = axl_test_rig_kernel(&r, "nop");
    AXL_EXPECT(axl_queue_submit(r.q, pf_cgf, &k, NULL),
               AXL_ERR_FEATURE_NOT_SUPPORTED);
    AXL_MESSAGE_HAS("single_task");
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

/* ---- use_kernel_bundle (4.9.4.4) ------------------------------------------------------- */

typedef struct ukb {
    axl_kernel k;
    axl_kernel_bundle b;
} ukb;

static void ukb_cgf(axl_handler *h, void *user)
{
    ukb *u = user;
    axl_handler_use_kernel_bundle(h, u->b);
    axl_handler_single_task(h, u->k);
}

/* Every axl kernel is a kernel object, and single_task(kernel) "ignores
 * any kernel_bundle that was bound" (4.9.4.2): a bound bundle without the
 * kernel does not stop it (before issue 16 this was refused). */
static void use_kernel_bundle_is_ignored_by_a_kernel_object_4_9_4_2(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel nop = axl_test_rig_kernel(&r, "nop");
    axl_kernel_bundle empty;
    AXL_OK(axl_get_kernel_bundle(r.ctx, NULL, 0, AXL_BUNDLE_EXECUTABLE, &empty));
    ukb u = {nop, empty};
    axl_event e;
    AXL_OK(axl_queue_submit(r.q, ukb_cgf, &u, &e));
    AXL_OK(axl_event_wait(e));
    AXL_OK(axl_event_release(e));
    u.b = r.bundle;
    AXL_OK(axl_queue_submit(r.q, ukb_cgf, &u, &e));
    AXL_OK(axl_event_wait(e));
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_kernel_bundle_release(empty));
    AXL_OK(axl_kernel_release(nop));
    axl_test_rig_down(&r);
}

static void kernel_from_a_bundle_of_another_context_is_invalid(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(0);
    axl_kernel nop = axl_test_rig_kernel(&r, "nop");
    axl_context other;
    AXL_OK(axl_context_create(&r.dev, 1, NULL, &other));
    axl_queue q2;
    AXL_OK(axl_queue_create(other, r.dev, 0, NULL, &q2));
    AXL_EXPECT(axl_queue_single_task(q2, nop, NULL, 0, NULL, 0, NULL),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("another context");
    AXL_OK(axl_queue_release(q2));
    AXL_OK(axl_context_release(other));
    AXL_OK(axl_kernel_release(nop));
    axl_test_rig_down(&r);
}

/* ---- Designs: programmed when a bundle is obtained ---------------------------------- */

/* app.xclbin's scale halves 64 floats on q (a host buffer, in and out). */
static void scale_halves(axl_queue q, axl_kernel scale)
{
    float data[64];
    for (int i = 0; i < 64; i++)
        data[i] = (float)i;
    axl_buffer D;
    AXL_OK(axl_buffer_create_from(data, 4, axl_range_1d(64), NULL, &D));
    AXL_OK(axl_queue_single_task(q, scale,
                                 AXL_ARGS(AXL_ARG_INOUT(D), AXL_ARG_F32(0.5f),
                                          AXL_ARG_U32(64)),
                                 NULL, 0, NULL));
    AXL_OK(axl_buffer_release(D));
    assert_true(data[63] == 31.5f);
}

static void obtaining_an_application_bundle_programs_the_device(void **s)
{
    (void)s;
    /* A device that cannot reprogram on demand (issue 40: with swaps,
     * test_swaps.c holds both designs and runs both). */
    axl_test_emu_swaps(false);
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel vadd_nop = axl_test_rig_kernel(&r, "nop");
    AXL_OK(axl_image_register(axl_test_app_xclbin, axl_test_app_xclbin_size));
    /* Without ids (listing kernels), the bundle does not displace the
     * stock design the rig's bundle uses (issue 16.7; before, it did). */
    axl_kernel_bundle listed;
    AXL_OK(axl_get_kernel_bundle(r.ctx, NULL, 0, AXL_BUNDLE_EXECUTABLE,
                                 &listed));
    uint32_t cus;
    AXL_OK(axl_device_get_info(r.dev, AXL_DEVICE_INFO_MAX_COMPUTE_UNITS, &cus,
                               sizeof cus, NULL));
    assert_int_not_equal(cus, 2);
    AXL_OK(axl_kernel_bundle_release(listed));
    AXL_TEST_NEEDS_C_MODELS("the rest runs app.xclbin's scale (floating "
                            "point), which has no RTL");
    /* For kernel ids it would: refused while the rig's bundle and a
     * kernel of it hold the stock design (issue 26.4). */
    axl_kernel_id scale_id;
    AXL_OK(axl_get_kernel_id("scale", &scale_id));
    axl_kernel_bundle app;
    AXL_EXPECT(axl_get_kernel_bundle_for(r.ctx, NULL, 0, &scale_id, 1,
                                         AXL_BUNDLE_EXECUTABLE, &app),
               AXL_ERR_BAD_STATE);
    AXL_OK(axl_kernel_release(vadd_nop));
    axl_test_rig_let_go(&r);
    AXL_OK(axl_get_kernel_bundle_for(r.ctx, NULL, 0, &scale_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &app));
    /* The device now carries app.xclbin: 2 compute units. */
    AXL_OK(axl_device_get_info(r.dev, AXL_DEVICE_INFO_MAX_COMPUTE_UNITS, &cus,
                               sizeof cus, NULL));
    assert_int_equal(cus, 2);
    axl_kernel scale;
    AXL_OK(axl_kernel_bundle_get_kernel(app, scale_id, &scale));
    scale_halves(r.q, scale);
    /* A built-in bundle programs the stock design back, once the
     * application's bundle is let go. */
    AXL_OK(axl_kernel_release(scale));
    AXL_OK(axl_kernel_bundle_release(app));
    axl_kernel_id nop_id = axl_test_builtin(r.dev, "nop");
    AXL_OK(axl_get_kernel_bundle_for(r.ctx, NULL, 0, &nop_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &r.bundle));
    vadd_nop = axl_test_rig_kernel(&r, "nop");
    axl_event e;
    AXL_OK(axl_queue_single_task(r.q, vadd_nop, NULL, 0, NULL, 0, &e));
    AXL_OK(axl_event_wait(e));
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_kernel_release(vadd_nop));
    axl_test_rig_down(&r);
}

/* A device programmed again and again keeps one placement (its loaded
 * design's unit table and bank map, core/place.h; docs/designs-design.md
 * 1.3): the one it carried goes with each new design, so the pool
 * (AXL_MAX_PLACEMENTS, 8; the device count with AXL_FEATURE_DESIGN_SWAP
 * 0) never fills, and the last design's units compute. */
static void a_device_programmed_again_and_again_keeps_one_placement(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    AXL_OK(axl_image_register(axl_test_app_xclbin, axl_test_app_xclbin_size));
    AXL_TEST_NEEDS_C_MODELS("it runs app.xclbin's scale (floating point), "
                            "which has no RTL");
    axl_test_rig_let_go(&r);
    const uint32_t placed = axl_test_pool("placement").in_use;
    assert_true(placed >= 1); /* the stock design's, at least */
    axl_kernel_id scale_id, nop_id = axl_test_builtin(r.dev, "nop");
    AXL_OK(axl_get_kernel_id("scale", &scale_id));
    axl_kernel_bundle b;
    for (int i = 0; i < 10; i++) {
        AXL_OK(axl_get_kernel_bundle_for(r.ctx, NULL, 0,
                                         i % 2 ? &nop_id : &scale_id, 1,
                                         AXL_BUNDLE_EXECUTABLE, &b));
        assert_int_equal(axl_test_pool("placement").in_use, placed);
        AXL_OK(axl_kernel_bundle_release(b));
    }
    AXL_OK(axl_get_kernel_bundle_for(r.ctx, NULL, 0, &scale_id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &b));
    axl_kernel scale;
    AXL_OK(axl_kernel_bundle_get_kernel(b, scale_id, &scale));
    scale_halves(r.q, scale);
    AXL_OK(axl_kernel_release(scale));
    AXL_OK(axl_kernel_bundle_release(b));
    axl_test_rig_down(&r);
}

static void built_from_source_kernel_runs_by_name(void **s)
{
    (void)s;
    AXL_TEST_NEEDS_C_MODELS("it runs app.xclbin's scale (floating point), "
                            "which has no RTL");
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_test_rig_let_go(&r); /* its design would hold the device (4.11.6) */
    axl_kernel_bundle src, exe;
    AXL_OK(axl_kernel_bundle_create_from_source(r.ctx, AXL_SOURCE_XCLBIN,
                                                axl_test_app_xclbin,
                                                axl_test_app_xclbin_size,
                                                &src));
    AXL_OK(axl_kernel_bundle_build(src, NULL, 0, NULL, &exe));
    axl_kernel k;
    AXL_OK(axl_kernel_bundle_ext_get_kernel(exe, "scale", &k));
    float v[4] = {1, 2, 3, 4};
    axl_buffer B;
    AXL_OK(axl_buffer_create_from(v, 4, axl_range_1d(4), NULL, &B));
    float f = 2.0f;
    uint32_t n = 4;
    axl_kernel_arg args[3] = {{.index = 0, .buffer = B, .mode = AXL_ACCESS_READ_WRITE},
                              {.index = 1, .value = &f, .size = 4},
                              {.index = 2, .value = &n, .size = 4}};
    AXL_OK(axl_queue_single_task(r.q, k, args, 3, NULL, 0, NULL));
    AXL_OK(axl_buffer_release(B));
    assert_true(v[3] == 8.0f);
    AXL_OK(axl_kernel_release(k));
    AXL_OK(axl_kernel_bundle_release(exe));
    AXL_OK(axl_kernel_bundle_release(src));
    axl_test_rig_down(&r);
}

/* ---- Arguments written short (AXL_ARG_*) ------------------------------------------- */

/* The same vadd three ways (explicit ids, positions with the scalar by
 * value, and a command group with axl_handler_set_args): the same sums. */
typedef struct set_args_group {
    axl_kernel k;
    axl_buffer a, b, o;
    uint32_t n;
} set_args_group;

static void set_args_cgf(axl_handler *h, void *user)
{
    const set_args_group *g = user;
    axl_handler_set_args(h, AXL_ARGS(AXL_ARG_IN(g->a), AXL_ARG_IN(g->b),
                                     AXL_ARG_OUT(g->o), AXL_ARG_U32(g->n)));
    axl_handler_single_task(h, g->k);
}

static void kernel_args_by_position_and_value_launch_both_paths_4_9_4(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel k = axl_test_rig_kernel(&r, "vadd");
    enum { N = 256 };
    static int32_t a[N], b[N], out1[N], out2[N];
    for (int i = 0; i < N; i++) {
        a[i] = i * 7 - 300;
        b[i] = INT32_MAX - i; /* wraps, as vadd does */
    }
    axl_buffer A, B, O1, O2;
    AXL_OK(axl_buffer_create_from_const(a, 4, axl_range_1d(N), NULL, &A));
    AXL_OK(axl_buffer_create_from_const(b, 4, axl_range_1d(N), NULL, &B));
    AXL_OK(axl_buffer_create_from(out1, 4, axl_range_1d(N), NULL, &O1));
    AXL_OK(axl_buffer_create_from(out2, 4, axl_range_1d(N), NULL, &O2));
    /* By position, the scalar by value: no variable, no sizeof. */
    AXL_OK(axl_queue_single_task(r.q, k,
                                 AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(B),
                                          AXL_ARG_OUT(O1), AXL_ARG_U32(N)),
                                 NULL, 0, NULL));
    set_args_group g = {k, A, B, O2, N};
    AXL_OK(axl_queue_submit(r.q, set_args_cgf, &g, NULL));
    AXL_OK(axl_buffer_release(O1));
    AXL_OK(axl_buffer_release(O2));
    for (int i = 0; i < N; i++) {
        int32_t want = (int32_t)((uint32_t)a[i] + (uint32_t)b[i]);
        assert_int_equal(out1[i], want);
        assert_int_equal(out2[i], want);
    }
    /* Explicit ids in any order (AXL_ARG_AT) mean the same. */
    memset(out1, 0, sizeof out1);
    AXL_OK(axl_buffer_create_from(out1, 4, axl_range_1d(N), NULL, &O1));
    AXL_OK(axl_queue_single_task(
        r.q, k,
        AXL_ARGS(AXL_ARG_AT(3, AXL_ARG_U32(N / 2)), AXL_ARG_AT(2, AXL_ARG_OUT(O1)),
                 AXL_ARG_AT(0, AXL_ARG_IN(A)), AXL_ARG_AT(1, AXL_ARG_IN(B))),
        NULL, 0, NULL));
    AXL_OK(axl_buffer_release(O1));
    assert_int_equal(out1[N / 2 - 1],
                     (int32_t)((uint32_t)a[N / 2 - 1] + (uint32_t)b[N / 2 - 1]));
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(B));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

static void kernel_args_by_value_check_like_set_arg_4_9_4(void **s)
{
    (void)s;
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel k = axl_test_rig_kernel(&r, "vadd");
    axl_buffer A, O;
    AXL_OK(axl_buffer_create(4, axl_range_1d(16), NULL, &A));
    AXL_OK(axl_buffer_create(4, axl_range_1d(16), NULL, &O));
    /* A 64-bit scalar where the kernel takes 32 bits: as set_arg says. */
    AXL_EXPECT(axl_queue_single_task(r.q, k,
                                     AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A),
                                              AXL_ARG_OUT(O), AXL_ARG_U64(16)),
                                     NULL, 0, NULL),
               AXL_ERR_KERNEL_ARGUMENT);
    AXL_MESSAGE_HAS("argument 3");
    /* A scalar with no pointer and more bytes than it holds. */
    AXL_EXPECT(axl_queue_single_task(r.q, k,
                                     AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A),
                                              AXL_ARG_OUT(O),
                                              AXL_ARG_BYTES(NULL, 16)),
                                     NULL, 0, NULL),
               AXL_ERR_KERNEL_ARGUMENT);
    AXL_MESSAGE_HAS("argument 3: a scalar of 16 bytes with value NULL");
    /* One argument too few, by position. */
    AXL_EXPECT(axl_queue_single_task(r.q, k,
                                     AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A),
                                              AXL_ARG_OUT(O)),
                                     NULL, 0, NULL),
               AXL_ERR_KERNEL_ARGUMENT);
    /* An output on const memory: the device may write it (4.7.2.3 rule
     * 2.2: read-only on the host only), and nothing is written back. */
    static const int32_t ro[16] = {0};
    axl_buffer C;
    AXL_OK(axl_buffer_create_from_const(ro, 4, axl_range_1d(16), NULL, &C));
    AXL_OK(axl_queue_single_task(r.q, k,
                                 AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(A),
                                          AXL_ARG_OUT(C), AXL_ARG_U32(16)),
                                 NULL, 0, NULL));
    AXL_OK(axl_buffer_release(C));
    for (int i = 0; i < 16; i++)
        assert_int_equal(ro[i], 0);
    AXL_OK(axl_queue_wait(r.q));
    assert_int_equal(axl_test_pool("command").in_use, 0);
    AXL_OK(axl_buffer_release(A));
    AXL_OK(axl_buffer_release(O));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

/* ---- Compute units ----------------------------------------------------------------------- */

static atomic_int active, most;

static axl_status overlapping_vadd(const axl_emu_call *c, void *user)
{
    (void)c;
    (void)user;
    int now = atomic_fetch_add(&active, 1) + 1;
    int seen = atomic_load(&most);
    while (now > seen && !atomic_compare_exchange_weak(&most, &seen, now))
        ;
    /* Stay until another unit is busy too (or a while has passed). */
    for (int i = 0; i < 2000 && atomic_load(&active) < 2; i++) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    struct timespec ts = {0, 5000000};
    nanosleep(&ts, NULL);
    atomic_fetch_sub(&active, 1);
    return AXL_SUCCESS;
}

typedef struct launcher {
    axl_queue q;
    axl_kernel k;
    axl_buffer a, o;
    axl_status st;
} launcher;

static void *launch(void *p)
{
    launcher *l = p;
    uint32_t n = 1;
    axl_kernel_arg args[4] = {{.index = 0, .buffer = l->a, .mode = AXL_ACCESS_READ},
                              {.index = 1, .buffer = l->a, .mode = AXL_ACCESS_READ},
                              {.index = 2, .buffer = l->o, .mode = AXL_ACCESS_WRITE},
                              {.index = 3, .value = &n, .size = 4}};
    axl_event e;
    l->st = axl_queue_single_task(l->q, l->k, args, 4, NULL, 0, &e);
    if (l->st == AXL_SUCCESS) {
        l->st = axl_event_wait(e);
        axl_event_release(e);
    }
    return NULL;
}

static void a_kernel_with_two_compute_units_runs_two_commands_at_once(void **s)
{
    (void)s;
    AXL_TEST_NEEDS_C_MODELS("it sees the overlap from inside a C model of "
                            "its own (tests/rtl/test_rtl_device.c sees it in "
                            "simulated time)");
    AXL_OK(axl_emu_register_model("vadd", overlapping_vadd, NULL));
    atomic_store(&active, 0);
    atomic_store(&most, 0);
    axl_test_rig r = axl_test_rig_up(0);
    axl_kernel k = axl_test_rig_kernel(&r, "vadd");
    enum { T = 3 };
    launcher l[T];
    pthread_t t[T];
    axl_buffer a;
    AXL_OK(axl_buffer_create(4, axl_range_1d(4), NULL, &a));
    for (int i = 0; i < T; i++) {
        l[i] = (launcher){r.q, k, a, AXL_NONE, AXL_SUCCESS};
        AXL_OK(axl_buffer_create(4, axl_range_1d(4), NULL, &l[i].o));
    }
    for (int i = 0; i < T; i++)
        pthread_create(&t[i], NULL, launch, &l[i]);
    for (int i = 0; i < T; i++) {
        pthread_join(t[i], NULL);
        AXL_OK(l[i].st);
        AXL_OK(axl_buffer_release(l[i].o));
    }
    AXL_OK(axl_emu_register_model("vadd", NULL, NULL));
    assert_int_equal(atomic_load(&most), 2); /* two units, never three */
    AXL_OK(axl_buffer_release(a));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

/* ---- A kernel that never finishes -------------------------------------------------------- */

static axl_status hang(const axl_emu_call *c, void *user)
{
    (void)c;
    (void)user;
    return AXL_EMU_HANG;
}

static void a_hung_kernel_times_out_and_frees_its_compute_unit(void **s)
{
    (void)s;
    AXL_TEST_NEEDS_C_MODELS("it hangs nop with a C model of its own "
                            "(tests/rtl/test_rtl_device.c times out the "
                            "busy kernel's RTL)");
    AXL_OK(axl_emu_register_model("nop", hang, NULL));
    axl_test_rig r = axl_test_rig_up(AXL_QUEUE_IN_ORDER);
    axl_kernel k = axl_test_rig_kernel(&r, "nop");
    AXL_OK(axl_queue_set_timeout(r.q, 50u * 1000000u));
    axl_event e;
    AXL_OK(axl_queue_single_task(r.q, k, NULL, 0, NULL, 0, &e));
    AXL_EXPECT(axl_event_wait(e), AXL_ERR_TIMEOUT);
    AXL_MESSAGE_HAS("did not finish within 50 ms");
    AXL_OK(axl_event_release(e));
    AXL_EXPECT(axl_queue_wait_and_throw(r.q), AXL_ERR_TIMEOUT);
    /* The unit is usable again (with no timeout: a loaded machine can
     * take 50 ms to run a nop on the mmio simulator). */
    AXL_OK(axl_emu_register_model("nop", NULL, NULL));
    AXL_OK(axl_queue_set_timeout(r.q, 0));
    AXL_OK(axl_queue_single_task(r.q, k, NULL, 0, NULL, 0, &e));
    AXL_OK(axl_event_wait(e));
    AXL_OK(axl_event_release(e));
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}

static void kernel_profiling_orders_submit_start_end(void **s)
{
    (void)s;
    axl_test_clock_install(5000, 7);
    axl_test_rig r =
        axl_test_rig_up(AXL_QUEUE_IN_ORDER | AXL_QUEUE_ENABLE_PROFILING);
    axl_kernel k = axl_test_rig_kernel(&r, "nop");
    axl_event e[3];
    for (int i = 0; i < 3; i++)
        AXL_OK(axl_queue_single_task(r.q, k, NULL, 0, NULL, 0, &e[i]));
    AXL_OK(axl_queue_wait(r.q));
    uint64_t prev = 0;
    for (int i = 0; i < 3; i++) {
        uint64_t sub, start, end;
        AXL_OK(axl_event_get_profiling(e[i], AXL_PROFILING_COMMAND_SUBMIT, &sub));
        AXL_OK(axl_event_get_profiling(e[i], AXL_PROFILING_COMMAND_START, &start));
        AXL_OK(axl_event_get_profiling(e[i], AXL_PROFILING_COMMAND_END, &end));
        assert_true(sub <= start && start < end && start >= prev);
        prev = end;
        AXL_OK(axl_event_release(e[i]));
    }
    AXL_OK(axl_kernel_release(k));
    axl_test_rig_down(&r);
}


/* ---- The kernel's memo of its last launch (issue 17) ------------------------------- */

/* What the memo does is seen from a port: axl_hal_run.args_id (hal.h) is
 * the same while launches are filled from the same memo, and new once
 * anything the memo remembers could have changed. A fake port records it;
 * the application design's scale (one buffer, two scalars, one compute
 * unit) runs on two fake devices. These restate against the memo what
 * the tests of axl_queue_single_task's one-pass plan checked of its cache
 * (axl__launch_cache, before issue 17). */
static uint32_t memo_id;

static axl_status memo_run_start(void *dev, const axl_hal_run *run)
{
    memo_id = run->args_id;
    return fake_port.run_start(dev, run);
}

typedef struct memo_rig {
    axl_device dev[2];
    axl_context ctx;
    axl_queue q, q2;
    axl_kernel_bundle bundle;
    axl_kernel k;
} memo_rig;

static axl_kernel memo_scale(axl_kernel_bundle b)
{
    axl_kernel_id ids[8];
    uint32_t n = 0;
    AXL_OK(axl_kernel_bundle_get_kernel_ids(b, ids, 8, &n));
    for (uint32_t i = 0; i < n; i++) {
        const char *name;
        AXL_OK(axl_kernel_id_get_name(ids[i], &name));
        if (!strcmp(name, "scale")) {
            axl_kernel k;
            AXL_OK(axl_kernel_bundle_get_kernel(b, ids[i], &k));
            return k;
        }
    }
    fail_msg("no scale");
    return (axl_kernel){0};
}

static memo_rig memo_up(void)
{
    static axl_device_port p;
    p = fake_port;
    p.run_start = memo_run_start;
    fake_config = (fake_port_config){.devices = 2,
                                     .flags = AXL_HAL_DEVICE_AVAILABLE,
                                     .program_mask = 3};
    AXL_OK(axl_device_port_register(&p));
    memo_rig r;
    axl_aspect emulated = AXL_ASPECT_EMULATED;
    axl_aspect_list hw = {NULL, 0, &emulated, 1};
    AXL_OK(axl_device_select(axl_aspect_selector, &hw, &r.dev[0]));
    axl_platform pf;
    AXL_OK(axl_device_get_platform(r.dev[0], &pf));
    uint32_t n = 0;
    AXL_OK(axl_platform_get_devices(pf, AXL_DEVICE_TYPE_ALL, r.dev, 2, &n));
    assert_int_equal(n, 2);
    AXL_OK(axl_context_create(r.dev, 2, NULL, &r.ctx));
    AXL_OK(axl_queue_create(r.ctx, r.dev[0], AXL_QUEUE_IN_ORDER, NULL, &r.q));
    AXL_OK(axl_queue_create(r.ctx, r.dev[1], AXL_QUEUE_IN_ORDER, NULL, &r.q2));
    /* One application design on both devices: one kernel for both. */
    AXL_OK(axl_image_register(axl_test_app_xclbin, axl_test_app_xclbin_size));
    AXL_OK(axl_get_kernel_bundle(r.ctx, r.dev, 2, AXL_BUNDLE_EXECUTABLE,
                                 &r.bundle));
    r.k = memo_scale(r.bundle);
    return r;
}

static void memo_down(memo_rig *r)
{
    AXL_OK(axl_queue_wait(r->q));
    AXL_OK(axl_queue_wait(r->q2));
    AXL_OK(axl_kernel_release(r->k));
    AXL_OK(axl_kernel_bundle_release(r->bundle));
    AXL_OK(axl_queue_release(r->q));
    AXL_OK(axl_queue_release(r->q2));
    AXL_OK(axl_context_release(r->ctx));
}

/* One launch; the id its run had. */
static uint32_t memo_launch(axl_queue q, axl_kernel k,
                            const axl_kernel_arg *args)
{
    memo_id = 0xFFFFFFFFu;
    AXL_OK(axl_queue_single_task(q, k, args, 3, NULL, 0, NULL));
    AXL_OK(axl_queue_wait_and_throw(q));
    assert_int_not_equal(memo_id, 0xFFFFFFFFu);
    return memo_id;
}

/* A launch whose memo (or the unit's hold of it) was made again: a new
 * nonzero id; *id becomes it. */
static void memo_new(axl_queue q, axl_kernel k, const axl_kernel_arg *args,
                     uint32_t *id)
{
    uint32_t now = memo_launch(q, k, args);
    assert_int_not_equal(now, 0);
    assert_int_not_equal(now, *id);
    *id = now;
}

static void memo_same(axl_queue q, axl_kernel k, const axl_kernel_arg *args,
                      uint32_t id)
{
    assert_int_equal(memo_launch(q, k, args), id);
}

static void the_memo_of_a_launch_is_dropped_when_anything_it_holds_changes(
    void **s)
{
    (void)s;
    memo_rig r = memo_up();
    enum { N = 64 };
    axl_buffer D, D2;
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &D));
    float factor = 2.0f;
    uint32_t n = N;
    axl_kernel_arg args[3] = {
        {.index = 0, .buffer = D, .mode = AXL_ACCESS_READ_WRITE},
        {.index = 1, .value = &factor, .size = sizeof factor},
        {.index = 2, .value = &n, .size = sizeof n}};
    uint32_t id = memo_launch(r.q, r.k, args); /* placed and remembered */
    assert_int_not_equal(id, 0);
    memo_same(r.q, r.k, args, id);

    /* A scalar's value is not remembered: the memo holds. */
    n = 17;
    factor = 3.0f;
    memo_same(r.q, r.k, args, id);
    /* Another queue of the same device and context: it holds. */
    axl_queue q3;
    AXL_OK(axl_queue_create(r.ctx, r.dev[0], AXL_QUEUE_IN_ORDER, NULL, &q3));
    memo_same(q3, r.k, args, id);
    AXL_OK(axl_queue_release(q3));

    /* The accessor's mode changes. */
    args[0].mode = AXL_ACCESS_READ;
    memo_new(r.q, r.k, args, &id);
    memo_same(r.q, r.k, args, id);
    args[0].mode = AXL_ACCESS_WRITE_NO_INIT;
    memo_new(r.q, r.k, args, &id);
    /* The same accessor with the default mode: the memo compares the mode
     * as given, so it is made again. */
    args[0].mode = AXL_ACCESS_READ_WRITE;
    memo_new(r.q, r.k, args, &id);
    args[0].mode = 0;
    memo_new(r.q, r.k, args, &id);
    memo_same(r.q, r.k, args, id);

    /* An argument's id given by position instead of by number. */
    args[1].index = AXL_ARG_POS;
    memo_new(r.q, r.k, args, &id);
    memo_same(r.q, r.k, args, id);

    /* A sub-buffer of D in D's place, then D again. */
    axl_buffer sub;
    const size_t zero[3] = {0, 0, 0};
    AXL_OK(axl_buffer_create_sub(D, zero, axl_range_1d(N / 2), &sub));
    args[0].buffer = sub;
    memo_new(r.q, r.k, args, &id);
    memo_same(r.q, r.k, args, id);
    args[0].buffer = D;
    memo_new(r.q, r.k, args, &id);
    AXL_OK(axl_buffer_release(sub));
    memo_same(r.q, r.k, args, id);

    /* The buffer released and a new one made, which takes its slot with a
     * new generation: its handle is not the one remembered. */
    AXL_OK(axl_buffer_release(D));
    AXL_OK(axl_queue_wait(r.q));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &D2));
    assert_int_equal(D2.id & 0xFFFu, D.id & 0xFFFu); /* the same slot */
    args[0].buffer = D2;
    memo_new(r.q, r.k, args, &id);
    memo_same(r.q, r.k, args, id);

    /* The other device: the buffer placed there too, the memo made for it;
     * back on the first, the memo is made again (it holds one device's
     * placement), and the unit there takes a new id for it. */
    uint32_t other = memo_launch(r.q2, r.k, args);
    assert_int_not_equal(other, 0);
    memo_new(r.q, r.k, args, &id);
    memo_same(r.q, r.k, args, id);

    /* A command group of the same arguments: its run carries no id and the
     * unit gives up its hold, so the next launch gets a new one. */
    args[1].index = 1; /* (st_cgf takes ids) */
    memo_new(r.q, r.k, args, &id);
    memo_id = 0xFFFFFFFFu;
    st_group g = {r.k, args, 3};
    AXL_OK(axl_queue_submit(r.q, st_cgf, &g, NULL));
    AXL_OK(axl_queue_wait_and_throw(r.q));
    assert_int_equal(memo_id, 0);
    memo_new(r.q, r.k, args, &id);
    memo_same(r.q, r.k, args, id);

    /* The kernel object released and taken again in its slot (its memos
     * start afresh): the unit does not take the new object's memo for the
     * old one's. */
    AXL_OK(axl_kernel_release(r.k));
    r.k = memo_scale(r.bundle);
    memo_new(r.q, r.k, args, &id);
    memo_same(r.q, r.k, args, id);
    /* Once more right after its first memo, whose number the next object's
     * first memo has too, and with another buffer: the unit must not take
     * that memo for the one its arguments came from. */
    const uint32_t slot = r.k.id & 0xFFFu;
    AXL_OK(axl_kernel_release(r.k));
    r.k = memo_scale(r.bundle);
    assert_int_equal(r.k.id & 0xFFFu, slot);
    axl_buffer D3;
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &D3));
    args[0].buffer = D3;
    memo_new(r.q, r.k, args, &id);
    memo_same(r.q, r.k, args, id);

    AXL_OK(axl_buffer_release(D2));
    AXL_OK(axl_buffer_release(D3));
    memo_down(&r);
}

/* A port with no completion thread or interrupt (a polled driver) finishes
 * runs only when a wait lets it: waits call its progress() instead of
 * sleeping (event::wait, 4.6.6, must return once the command is done). */
static void a_polled_port_finishes_runs_when_a_wait_calls_progress(void **s)
{
    (void)s;
    axl_device dev = axl_test_fake_device_as((fake_port_config){
        .devices = 1, .flags = AXL_HAL_DEVICE_AVAILABLE, .program_mask = 1,
        .polled = true});
    axl_context ctx;
    axl_queue q;
    AXL_OK(axl_context_create(&dev, 1, NULL, &ctx));
    AXL_OK(axl_queue_create(ctx, dev, AXL_QUEUE_IN_ORDER, NULL, &q));
    /* Without progress() the runs would pass this and fail as timeouts. */
    AXL_OK(axl_queue_set_timeout(q, 5000ull * 1000000u));
    AXL_OK(axl_image_register(axl_test_app_xclbin, axl_test_app_xclbin_size));
    axl_kernel_bundle app;
    AXL_OK(axl_get_kernel_bundle(ctx, &dev, 1, AXL_BUNDLE_EXECUTABLE, &app));
    axl_kernel_id ids[4];
    uint32_t n = 0;
    AXL_OK(axl_kernel_bundle_get_kernel_ids(app, ids, 4, &n));
    axl_kernel nop = {0};
    for (uint32_t i = 0; i < n; i++) {
        const char *name;
        AXL_OK(axl_kernel_id_get_name(ids[i], &name));
        if (!strcmp(name, "nop"))
            AXL_OK(axl_kernel_bundle_get_kernel(app, ids[i], &nop));
    }
    assert_true(nop.id != 0);
    axl_event e[3];
    for (int i = 0; i < 3; i++)
        AXL_OK(axl_queue_single_task(q, nop, NULL, 0, NULL, 0, &e[i]));
    /* One compute unit: the first run is out, and nothing finished it. */
    assert_int_equal(fake_runs.started, 1);
    assert_int_equal(fake_runs.progress_calls, 0);
    axl_event_status st;
    axl_status err;
    AXL_OK(axl_event_get_status(e[0], &st, &err));
    assert_int_not_equal(st, AXL_EVENT_COMPLETE);
    AXL_OK(axl_event_wait(e[2]));
    assert_int_equal(fake_runs.started, 3);
    assert_int_equal(fake_runs.finished_in_progress, 3);
    assert_true(fake_runs.progress_calls >= 3);
    for (int i = 0; i < 3; i++) {
        AXL_OK(axl_event_get_status(e[i], &st, &err));
        assert_int_equal(st, AXL_EVENT_COMPLETE);
        assert_int_equal(err, AXL_SUCCESS);
        AXL_OK(axl_event_release(e[i]));
    }
    AXL_OK(axl_kernel_release(nop));
    AXL_OK(axl_kernel_bundle_release(app));
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_context_release(ctx));
}

#define T(f) cmocka_unit_test_setup_teardown(f, axl_test_setup, axl_test_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(vadd_adds_on_the_emulated_device),
        T(mmult_multiplies_matrices),
        T(fir_filters_q15_samples),
        T(conv2d_convolves_8_bit_images),
        T(model_failure_fails_the_event_and_its_dependents),
        T(a_command_after_a_failed_write_names_the_buffer_4_13),
        T(emulated_banks_have_the_designs_mem_topology_addresses),
        T(compute_units_and_the_memories_their_arguments_reach),
        T(bad_arguments_are_kernel_argument_errors_and_nothing_runs),
        T(single_task_says_what_its_command_group_says),
        T(kernel_args_by_position_and_value_launch_both_paths_4_9_4),
        T(kernel_args_by_value_check_like_set_arg_4_9_4),
        T(repeated_launches_keep_their_data_order),
        T(a_launch_like_the_last_one_still_sees_what_changed),
        T(a_launch_from_the_memo_into_full_pools_changes_nothing),
        T(the_memo_of_a_launch_is_dropped_when_anything_it_holds_changes),
        T(memory_a_compute_unit_cannot_reach_is_a_kernel_argument_error),
        T(parallel_for_on_a_built_in_kernel_is_feature_not_supported),
        T(use_kernel_bundle_is_ignored_by_a_kernel_object_4_9_4_2),
        T(kernel_from_a_bundle_of_another_context_is_invalid),
        T(obtaining_an_application_bundle_programs_the_device),
        T(a_device_programmed_again_and_again_keeps_one_placement),
        T(built_from_source_kernel_runs_by_name),
        T(a_kernel_with_two_compute_units_runs_two_commands_at_once),
        T(a_hung_kernel_times_out_and_frees_its_compute_unit),
        T(kernel_profiling_orders_submit_start_end),
        T(a_polled_port_finishes_runs_when_a_wait_calls_progress),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
