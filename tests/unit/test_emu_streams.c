/*
 * The model side of streams (axl/emu.h: axl_emu_stream_read/write, the
 * backend ops a device gives with each stream end) and axl's stream
 * kernels' C models (mm2s, sadd, s2mm, sinc), run here as the emulated
 * device is to run them (docs/streams-api.md, "The emulated device"):
 * each unit on a thread of its own, joined by bounded FIFOs, a deadlock
 * (every unit still running blocked on a full or empty FIFO) found and
 * reported by the FIFOs' backend with the units, the FIFOs and their
 * fill. The backend here is the test's, the shape the device's will have.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "axl/axl.h"
#include "axl/emu.h"
#include "axl/xclbin.h"
#include "axl_config.h" /* AXL_FEATURE_XCLBIN_READER */
#include "axl_test.h"

#define MAX_DEPTH 64

typedef struct harness harness;

typedef struct fifo {
    harness *h;
    const char *name;
    uint32_t depth, head, count;
    uint32_t word[MAX_DEPTH];
    bool last[MAX_DEPTH];
} fifo;

typedef struct unit_run {
    harness *h;
    const char *name;
    axl_emu_model_fn fn;
    axl_emu_call call;
    axl_emu_arg args[3];
    axl_emu_stream ends[2];
    axl_status result;
    char message[256];
    const fifo *blocked_on;  /* while blocked */
    bool blocked_full;
    bool done;
    bool free_running;       /* ap_ctrl_none: waiting for data is its rest */
} unit_run;

struct harness {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unit_run *units[4];
    int nunits;
    bool dead, stopped;
    char why[512];
};

/* Called with h->mu held by a unit about to wait, and by one that ended:
 * when every unit still running waits, and one of them is a command (not
 * a free-running unit, whose rest is waiting for data), the pipeline can
 * never move again. */
static void find_deadlock(harness *h)
{
    int running = 0, waiting = 0, commands = 0;
    for (int i = 0; i < h->nunits; i++) {
        const unit_run *u = h->units[i];
        /* A unit woken but not yet running again still has blocked_on:
         * it waits only while its FIFO is still full (or empty). */
        const fifo *f = u->blocked_on;
        running += !u->done;
        waiting += !u->done && f &&
                   (u->blocked_full ? f->count == f->depth : f->count == 0);
        commands += !u->done && !u->free_running;
    }
    if (h->dead || commands == 0 || waiting < running)
        return;
    h->dead = true;
    size_t n = (size_t)snprintf(h->why, sizeof h->why, "deadlock: every "
                                "unit of the pipeline is blocked:");
    for (int i = 0; i < h->nunits && n < sizeof h->why; i++) {
        const unit_run *u = h->units[i];
        if (u->done)
            continue;
        n += (size_t)snprintf(h->why + n, sizeof h->why - n, " %s %s %s (%u "
                              "of %u);", u->name,
                              u->blocked_full ? "writes full" : "reads empty",
                              u->blocked_on->name,
                              (unsigned)u->blocked_on->count,
                              (unsigned)u->blocked_on->depth);
    }
    pthread_cond_broadcast(&h->cv);
}

static _Thread_local unit_run *current;

static axl_status wait_for(fifo *f, bool full)
{
    harness *h = f->h;
    current->blocked_on = f;
    current->blocked_full = full;
    find_deadlock(h);
    while (!h->dead && !h->stopped &&
           (full ? f->count == f->depth : f->count == 0))
        pthread_cond_wait(&h->cv, &h->mu);
    current->blocked_on = NULL;
    if (h->stopped)
        return AXL_EMU_STREAM_STOPPED;
    if (h->dead)
        return axl_fail(AXL_ERR_RUNTIME, "%s", h->why);
    return AXL_SUCCESS;
}

static axl_status fifo_read(void *ctx, void *beat, bool *last)
{
    fifo *f = ctx;
    harness *h = f->h;
    pthread_mutex_lock(&h->mu);
    axl_status st = f->count ? AXL_SUCCESS : wait_for(f, false);
    if (st == AXL_SUCCESS) {
        memcpy(beat, &f->word[f->head], 4);
        *last = f->last[f->head];
        f->head = (f->head + 1) % f->depth;
        f->count--;
        pthread_cond_broadcast(&h->cv);
    }
    pthread_mutex_unlock(&h->mu);
    return st;
}

static axl_status fifo_write(void *ctx, const void *beat, bool last)
{
    fifo *f = ctx;
    harness *h = f->h;
    pthread_mutex_lock(&h->mu);
    axl_status st = f->count < f->depth ? AXL_SUCCESS : wait_for(f, true);
    if (st == AXL_SUCCESS) {
        uint32_t at = (f->head + f->count) % f->depth;
        memcpy(&f->word[at], beat, 4);
        f->last[at] = last;
        f->count++;
        pthread_cond_broadcast(&h->cv);
    }
    pthread_mutex_unlock(&h->mu);
    return st;
}

static const axl_emu_stream_ops fifo_ops = {fifo_read, fifo_write};

static void *unit_main(void *arg)
{
    unit_run *u = arg;
    current = u;
    u->result = u->fn(&u->call, NULL);
    snprintf(u->message, sizeof u->message, "%s", axl_last_message());
    pthread_mutex_lock(&u->h->mu);
    u->done = true;
    find_deadlock(u->h);
    pthread_cond_broadcast(&u->h->cv);
    pthread_mutex_unlock(&u->h->mu);
    return NULL;
}

/* ---- Building the calls: argument ids as the kernels' XML gives them ---- */

static void end_of(axl_emu_stream *e, fifo *f, bool out)
{
    *e = (axl_emu_stream){&fifo_ops, f, 4, out, f->name};
}

static void stream_arg(axl_emu_arg *a, uint32_t id, const axl_emu_stream *e)
{
    *a = (axl_emu_arg){id, false, NULL, 0, NULL, e};
}

static void scalar_arg(axl_emu_arg *a, uint32_t id, const uint32_t *v)
{
    *a = (axl_emu_arg){id, false, NULL, 4, v, NULL};
}

static void buffer_arg(axl_emu_arg *a, uint32_t id, void *p, uint64_t size)
{
    *a = (axl_emu_arg){id, true, p, size, NULL, NULL};
}

static void make_unit(harness *h, unit_run *u, const char *name,
                      const char *kernel, axl_emu_model_fn fn)
{
    memset(u, 0, sizeof *u);
    u->h = h;
    u->name = name;
    u->fn = fn;
    u->call.kernel = kernel;
    u->call.arg_count = 3;
    u->call.args = u->args;
    h->units[h->nunits++] = u;
}

static void harness_init(harness *h)
{
    memset(h, 0, sizeof *h);
    pthread_mutex_init(&h->mu, NULL);
    pthread_cond_init(&h->cv, NULL);
}

static void fifo_init(fifo *f, harness *h, const char *name, uint32_t depth)
{
    memset(f, 0, sizeof *f);
    f->h = h;
    f->name = name;
    f->depth = depth;
}

static void run_all(harness *h)
{
    pthread_t t[4];
    /* consumers first, as a pipeline starts */
    for (int i = h->nunits - 1; i >= 0; i--)
        assert_int_equal(pthread_create(&t[i], NULL, unit_main, h->units[i]),
                         0);
    for (int i = 0; i < h->nunits; i++)
        pthread_join(t[i], NULL);
}

static uint32_t src[1000], dst[1001];

/* mm2s -> <mid> -> s2mm: mm2s(src, data_out, n), mid(data_in, data_out,
 * param) (sadd or sinc), s2mm(data_in, dst, m), joined by FIFOs a and b
 * of the depths given; names as the design would give them. */
typedef struct pipeline {
    harness h;
    fifo a, b;
    unit_run mm2s, mid, s2mm;
    uint32_t n, param, m;
} pipeline;

static void pipeline_init(pipeline *p, const char *mid_kernel,
                          axl_emu_model_fn mid_fn, const char *names[5],
                          uint32_t depth_a, uint32_t depth_b, uint32_t n,
                          uint32_t param, uint32_t m)
{
    p->n = n;
    p->param = param;
    p->m = m;
    harness_init(&p->h);
    fifo_init(&p->a, &p->h, names[3], depth_a);
    fifo_init(&p->b, &p->h, names[4], depth_b);
    make_unit(&p->h, &p->mm2s, names[0], "mm2s", axl_emu_model_mm2s);
    make_unit(&p->h, &p->mid, names[1], mid_kernel, mid_fn);
    make_unit(&p->h, &p->s2mm, names[2], "s2mm", axl_emu_model_s2mm);
    end_of(&p->mm2s.ends[0], &p->a, true);
    buffer_arg(&p->mm2s.args[0], 0, src, sizeof src);
    stream_arg(&p->mm2s.args[1], 1, &p->mm2s.ends[0]);
    scalar_arg(&p->mm2s.args[2], 2, &p->n);
    end_of(&p->mid.ends[0], &p->a, false);
    end_of(&p->mid.ends[1], &p->b, true);
    stream_arg(&p->mid.args[0], 0, &p->mid.ends[0]);
    stream_arg(&p->mid.args[1], 1, &p->mid.ends[1]);
    scalar_arg(&p->mid.args[2], 2, &p->param);
    end_of(&p->s2mm.ends[0], &p->b, false);
    stream_arg(&p->s2mm.args[0], 0, &p->s2mm.ends[0]);
    buffer_arg(&p->s2mm.args[1], 1, dst, 4ull * m);
    scalar_arg(&p->s2mm.args[2], 2, &p->m);
}

static const char *sadd_names[5] = {
    "mm2s_1", "sadd_1", "s2mm_1", "mm2s_1.data_out -> sadd_1.data_in",
    "sadd_1.data_out -> s2mm_1.data_in"};

/* mm2s -> sadd -> s2mm through FIFOs of 4: dst = src + addend, every
 * model ends well, the FIFOs are empty. */
static void stream_models_compute_the_pipeline_through_bounded_fifos(void **s)
{
    (void)s;
    static pipeline p;
    for (uint32_t i = 0; i < 1000; i++)
        src[i] = i * 2654435761u;
    memset(dst, 0xEE, sizeof dst);
    pipeline_init(&p, "sadd", axl_emu_model_sadd, sadd_names, 4, 4, 1000,
                  0x10001, 1000);
    run_all(&p.h);
    assert_int_equal(p.mm2s.result, AXL_SUCCESS);
    assert_int_equal(p.mid.result, AXL_SUCCESS);
    assert_int_equal(p.s2mm.result, AXL_SUCCESS);
    for (uint32_t i = 0; i < 1000; i++)
        if (dst[i] != src[i] + 0x10001)
            fail_msg("dst[%u] = 0x%x, want 0x%x", i, dst[i], src[i] + 0x10001);
    assert_int_equal(dst[1000], 0xEEEEEEEEu);
    assert_int_equal(p.a.count + p.b.count, 0);
}

/* s2mm takes 10 words of the 100 mm2s sends through FIFOs of 4: once it
 * ends, mm2s and sadd wait on full FIFOs for ever. The backend finds it
 * and both models fail with the message that names each unit still
 * running, what it waits on and the FIFO's fill. */
static void a_deadlocked_pipeline_fails_naming_units_and_fifo_fill(void **s)
{
    (void)s;
    static pipeline p;
    pipeline_init(&p, "sadd", axl_emu_model_sadd, sadd_names, 4, 4, 100, 1,
                  10);
    run_all(&p.h);
    assert_int_equal(p.s2mm.result, AXL_SUCCESS);
    assert_int_equal(p.mm2s.result, AXL_ERR_RUNTIME);
    assert_int_equal(p.mid.result, AXL_ERR_RUNTIME);
    const char *want[] = {"deadlock", "mm2s_1 writes full mm2s_1.data_out "
                          "-> sadd_1.data_in (4 of 4)", "sadd_1 writes full "
                          "sadd_1.data_out -> s2mm_1.data_in (4 of 4)"};
    for (size_t i = 0; i < 3; i++)
        if (!strstr(p.h.why, want[i]))
            fail_msg("the deadlock says \"%s\"; no \"%s\"", p.h.why,
                     want[i]);
    /* The models pass on what the backend said (terse builds keep only
     * the status in the message). */
    if (axl_test_messages() && !strstr(p.mm2s.message, "deadlock"))
        fail_msg("mm2s failed with \"%s\"", p.mm2s.message);
}

/* The free-running sinc runs until its pipeline is stopped; the stop is
 * its normal end (AXL_EMU_STREAM_STOPPED -> AXL_SUCCESS), and what it
 * passed on carried its inc. Its waits count for a deadlock only while a
 * command (mm2s, s2mm) runs: the device stops it once they have ended. */
static void free_running_model_ends_well_when_its_pipeline_stops(void **s)
{
    (void)s;
    static pipeline p;
    static const char *names[5] = {
        "mm2s_2", "sinc_1", "s2mm_2", "mm2s_2.data_out -> sinc_1.data_in",
        "sinc_1.data_out -> s2mm_2.data_in"};
    pipeline_init(&p, "sinc", axl_emu_model_sinc, names, 16, 2, 50, 7, 50);
    p.mid.free_running = true;
    pthread_t t[3];
    pthread_create(&t[2], NULL, unit_main, &p.s2mm);
    pthread_create(&t[1], NULL, unit_main, &p.mid);
    pthread_create(&t[0], NULL, unit_main, &p.mm2s);
    pthread_join(t[0], NULL);
    pthread_join(t[2], NULL);
    pthread_mutex_lock(&p.h.mu);
    p.h.stopped = true;
    pthread_cond_broadcast(&p.h.cv);
    pthread_mutex_unlock(&p.h.mu);
    pthread_join(t[1], NULL);
    assert_int_equal(p.mid.result, AXL_SUCCESS);
    assert_int_equal(p.s2mm.result, AXL_SUCCESS);
    for (uint32_t i = 0; i < 50; i++)
        assert_int_equal(dst[i], src[i] + 7);
}

/* A model that reads a stream it should write, or a scalar as a stream,
 * gets errc::kernel_argument naming the argument, and nothing moves. */
static void a_model_reading_its_output_stream_is_a_kernel_argument_error(void **s)
{
    (void)s;
    harness h;
    fifo a;
    harness_init(&h);
    fifo_init(&a, &h, "x", 4);
    axl_emu_stream e;
    end_of(&e, &a, true);
    uint32_t v = 3, w;
    axl_emu_arg args[2];
    stream_arg(&args[0], 1, &e);
    scalar_arg(&args[1], 2, &v);
    axl_emu_call call = {"mm2s", 0, 2, args};
    bool last;
    assert_int_equal(axl_emu_stream_read(&call, 1, &w, &last),
                     AXL_ERR_KERNEL_ARGUMENT);
    AXL_MESSAGE_HAS("argument 1");
    assert_int_equal(axl_emu_stream_write(&call, 2, &w, false),
                     AXL_ERR_KERNEL_ARGUMENT);
    assert_int_equal(a.count, 0);
}

/* The runtime names what the design says of its kernels: an AXI4-Stream
 * argument is AXL_ARG_STREAM (never a buffer, whatever the host does),
 * and a kernel's control protocol is its XML's (axl-ls prints both). The
 * emulated device carries bitstreams/streams.xclbin, the stream kernels'
 * models registered (axl_test_setup_streams). */
static void kernel_info_names_stream_arguments_and_the_control_protocol(void **s)
{
    (void)s;
    axl_device dev = axl_test_emu_device();
    if (!AXL_FEATURE_XCLBIN_READER) {
        /* streams.xclbin is xclbin bytes: without the reader the device
         * carries no design, and its kernels' absence says why. */
        axl_kernel_id none;
        assert_int_equal(axl_get_built_in_kernel_id(dev, "sadd", &none),
                         AXL_ERR_INVALID);
        AXL_MESSAGE_HAS("was rejected: this build reads no xclbin");
        skip();
    }
    axl_kernel_id ids[8];
    size_t size = 0;
    AXL_OK(axl_device_get_info(dev, AXL_DEVICE_INFO_BUILT_IN_KERNEL_IDS, ids,
                               sizeof ids, &size));
    uint32_t n = (uint32_t)(size / sizeof ids[0]);
    assert_int_equal(n, 4);
    axl_context ctx;
    axl_kernel_bundle b;
    AXL_OK(axl_context_create(&dev, 1, NULL, &ctx));
    AXL_OK(axl_get_kernel_bundle_for(ctx, NULL, 0, ids, n,
                                     AXL_BUNDLE_EXECUTABLE, &b));
    static const struct {
        const char *name;
        uint32_t control;
        axl_arg_kind kinds[3];
    } want[4] = {
        {"mm2s", AXL_XCLBIN_AP_CTRL_CHAIN,
         {AXL_ARG_BUFFER, AXL_ARG_STREAM, AXL_ARG_SCALAR}},
        {"sadd", AXL_XCLBIN_AP_CTRL_CHAIN,
         {AXL_ARG_STREAM, AXL_ARG_STREAM, AXL_ARG_SCALAR}},
        {"s2mm", AXL_XCLBIN_AP_CTRL_CHAIN,
         {AXL_ARG_STREAM, AXL_ARG_BUFFER, AXL_ARG_SCALAR}},
        {"sinc", AXL_XCLBIN_AP_CTRL_NONE,
         {AXL_ARG_STREAM, AXL_ARG_STREAM, AXL_ARG_SCALAR}},
    };
    for (uint32_t i = 0; i < n; i++) {
        axl_kernel k;
        axl_kernel_info ki;
        AXL_OK(axl_kernel_bundle_get_kernel(b, ids[i], &k));
        AXL_OK(axl_kernel_get_info(k, &ki));
        uint32_t w = 0;
        while (w < 4 && strcmp(want[w].name, ki.name) != 0)
            w++;
        assert_true(w < 4);
        assert_int_equal(ki.control, want[w].control);
        assert_int_equal(ki.num_args, 3);
        for (uint32_t a = 0; a < 3; a++) {
            axl_kernel_arg_info ai;
            AXL_OK(axl_kernel_get_arg_info(k, a, &ai));
            if (ai.kind != want[w].kinds[a])
                fail_msg("%s argument %u (%s) is kind %d, want %d", ki.name,
                         (unsigned)a, ai.name, (int)ai.kind,
                         (int)want[w].kinds[a]);
        }
        AXL_OK(axl_kernel_release(k));
    }
    AXL_OK(axl_kernel_bundle_release(b));
    AXL_OK(axl_context_release(ctx));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stream_models_compute_the_pipeline_through_bounded_fifos),
        cmocka_unit_test(a_deadlocked_pipeline_fails_naming_units_and_fifo_fill),
        cmocka_unit_test(free_running_model_ends_well_when_its_pipeline_stops),
        cmocka_unit_test(a_model_reading_its_output_stream_is_a_kernel_argument_error),
        cmocka_unit_test_setup_teardown(
            kernel_info_names_stream_arguments_and_the_control_protocol,
            axl_test_setup_streams, axl_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
