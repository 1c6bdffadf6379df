/*
 * Helpers shared by the XRT port's tests: registering the port, finding
 * its device, reading images, catching completions, and teardown that
 * checks no XRT handle is left open.
 */
#ifndef AXL_XRT_TEST_H
#define AXL_XRT_TEST_H

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "axl_test.h"
#include "axl/backend/xrt.h"
#include "xclbin_test_util.h"
#include "xrt_native.h"

#define XT_PORT (&axl_native_port)

/* The port joins the runtime: by the board, or registered here. */
static inline void xt_register(void)
{
#if !AXL_TEST_XRT_IN_BOARD
    AXL_OK(axl_device_port_register(&axl_native_port));
#endif
}

static inline axl_platform xt_platform(void)
{
    axl_platform p[8];
    uint32_t n = 0;
    AXL_OK(axl_platform_get_all(p, 8, &n));
    for (uint32_t i = 0; i < n; i++) {
        axl_backend b;
        AXL_OK(axl_platform_get_backend(p[i], &b));
        if (b == AXL_BACKEND_XRT)
            return p[i];
    }
    fail_msg("no XRT platform");
    return p[0];
}

/* The first XRT device, and the port's state for it. */
static inline axl_device xt_device(void **data)
{
    axl_device d[4];
    uint32_t n = 0;
    AXL_OK(axl_platform_get_devices(xt_platform(), AXL_DEVICE_TYPE_ALL, d, 4,
                                    &n));
    assert_true(n >= 1);
    if (data)
        AXL_OK(axl_hal_device_data(d[0], XT_PORT, data));
    return d[0];
}

/* ---- Images ---------------------------------------------------------------- */

typedef struct xt_image {
    unsigned char *bytes;
    size_t size;
    axl_xclbin x;
} xt_image;

static inline void xt_image_from(xt_image *img, unsigned char *bytes,
                                 size_t size)
{
    char why[256];
    img->bytes = bytes;
    img->size = size;
    assert_non_null(bytes);
    if (axl_xclbin_open(&img->x, bytes, size, why, sizeof why) != AXL_SUCCESS)
        fail_msg("the image does not open: %s", why);
}

static inline void xt_image_load(xt_image *img, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", AXL_XCLBIN_DIR, name);
    size_t size = 0;
    unsigned char *bytes = tu_read_file(path, &size);
    if (!bytes)
        fail_msg("cannot read %s", path);
    xt_image_from(img, bytes, size);
}

static inline void xt_image_free(xt_image *img)
{
    free(img->bytes);
    memset(img, 0, sizeof *img);
}

/* Kernel `name`'s index and the IP_LAYOUT index of its compute unit cu. */
static inline void xt_kernel(const axl_xclbin *x, const char *name,
                             uint32_t cu, uint32_t *kernel_index,
                             uint32_t *ip_index)
{
    *kernel_index = *ip_index = 0;
    for (uint32_t i = 0; i < x->kernel_count; i++) {
        axl_xclbin_kernel k;
        AXL_OK(axl_xclbin_get_kernel(x, i, &k));
        if (axl_str_eq(k.name, name)) {
            *kernel_index = i;
            AXL_OK(axl_xclbin_get_kernel_cu(x, &k, cu, ip_index));
            return;
        }
    }
    fail_msg("no kernel %s", name);
}

/* ---- Completions --------------------------------------------------------- */

typedef struct xt_done {
    void *token;
    axl_status status;
    char why[AXL_MESSAGE_MAX];
    pthread_t thread;
} xt_done;

#define XT_MAX_DONE 512
static pthread_mutex_t xt_done_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t xt_done_cond = PTHREAD_COND_INITIALIZER;
static xt_done xt_dones[XT_MAX_DONE];
static unsigned xt_ndone;

static inline void xt_capture(void *token, axl_status status, const char *why)
{
    pthread_mutex_lock(&xt_done_lock);
    if (xt_ndone < XT_MAX_DONE) {
        xt_done *d = &xt_dones[xt_ndone++];
        d->token = token;
        d->status = status;
        snprintf(d->why, sizeof d->why, "%s", why ? why : "");
        d->thread = pthread_self();
    }
    pthread_cond_broadcast(&xt_done_cond);
    pthread_mutex_unlock(&xt_done_lock);
}

/* Forgets the completions seen so far (tokens are often reused). */
static inline void xt_done_reset(void)
{
    pthread_mutex_lock(&xt_done_lock);
    xt_ndone = 0;
    pthread_mutex_unlock(&xt_done_lock);
}

static inline unsigned xt_count_done(void *token)
{
    unsigned n = 0;
    pthread_mutex_lock(&xt_done_lock);
    for (unsigned i = 0; i < xt_ndone; i++)
        n += xt_dones[i].token == token;
    pthread_mutex_unlock(&xt_done_lock);
    return n;
}

/* How many completions were seen so far (for xt_wait_done_since). */
static inline unsigned xt_mark(void)
{
    pthread_mutex_lock(&xt_done_lock);
    unsigned n = xt_ndone;
    pthread_mutex_unlock(&xt_done_lock);
    return n;
}

/* Waits up to ms for a completion of token after the first `since` ones;
 * 0 if none came. */
static inline int xt_wait_done_since(void *token, unsigned since, unsigned ms,
                                     xt_done *out)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += ms / 1000;
    until.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    int found = 0;
    pthread_mutex_lock(&xt_done_lock);
    for (;;) {
        for (unsigned i = since; i < xt_ndone && !found; i++)
            if (xt_dones[i].token == token) {
                if (out)
                    *out = xt_dones[i];
                found = 1;
            }
        if (found ||
            pthread_cond_timedwait(&xt_done_cond, &xt_done_lock, &until) ==
                ETIMEDOUT)
            break;
    }
    pthread_mutex_unlock(&xt_done_lock);
    return found;
}

/* Waits up to ms for the completion of token. */
static inline int xt_wait_done(void *token, unsigned ms, xt_done *out)
{
    return xt_wait_done_since(token, 0, ms, out);
}

static inline void xt_sleep_ms(unsigned ms)
{
    struct timespec t = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* ---- Setup and teardown -------------------------------------------------- */

/* The port's completion threads read the call table (axl__xrt) while a
 * run is in flight or given up; a test changes it only while none is, and
 * the setup and the teardown put it back only once the runtime has shut
 * down and every such thread is joined (xt_table_restore). */
static inline void xt_table_restore(void)
{
    axl__xrt_counts c;
    axl__xrt_get_counts(&c);
    if (c.threads)
        fail_msg("the XRT port still runs %u completion thread(s): its call "
                 "table is left as the test set it",
                 c.threads);
    axl__xrt = axl__xrt_real;
}

static inline int xt_setup(void **state)
{
    axl_test_setup(state); /* shuts down, or fails the test */
    xt_table_restore();
    xt_done_reset();
    axl__xrt_set_run_done(xt_capture);
    xt_register();
    return 0;
}

/* The pools are empty (axl_test_teardown), and so is the port: no XRT
 * device, kernel, run, BO or thread left. */
static inline int xt_teardown(void **state)
{
    /* The shutdown in axl_test_teardown runs through the table the test
     * left (its fakes hand on to XRT's own once released), and joins the
     * completion threads: only then is the table put back. */
    int st = axl_test_teardown(state);
    axl__xrt_counts c;
    axl__xrt_get_counts(&c);
    if (c.devices || c.kernels || c.runs || c.bos || c.sub_bos ||
        c.busy_runs || c.threads) {
        print_error("XRT handles left: %u devices, %u kernels, %u runs "
                    "(%u busy), %u BOs, %u sub-BOs, %u threads\n",
                    c.devices, c.kernels, c.runs, c.busy_runs, c.bos,
                    c.sub_bos, c.threads);
        st = -1;
    }
    if (!c.threads)
        axl__xrt = axl__xrt_real;
    axl__xrt_set_run_done(NULL);
    unsetenv("AXL_XRT_BUILTIN_XCLBIN");
    return st;
}

#define XT_TEST(fn) cmocka_unit_test_setup_teardown(fn, xt_setup, xt_teardown)

/* ---- A run XRT reports stuck --------------------------------------------- */

/* After xt_stick_next_run(state), XRT's state and wait calls (through the
 * port's call table, as xt_setup_stock installs it) report the next run
 * started in `state` until xt_stuck_run_ends() or until its handle starts
 * again (a pooled run used again): ERT_CMD_STATE_ERROR is a failed
 * command; ERT_CMD_STATE_RUNNING a hung accelerator, whose every wait
 * sleeps its time and answers ERT_CMD_STATE_TIMEOUT, as XRT's does. */
static atomic_int xt_stick_next;
static _Atomic(enum ert_cmd_state) xt_stuck_state;
static _Atomic(xrtRunHandle) xt_stuck;

static inline void xt_stick_next_run(enum ert_cmd_state state)
{
    atomic_store(&xt_stuck_state, state);
    atomic_store(&xt_stick_next, 1);
}

static inline void xt_stuck_run_ends(void)
{
    atomic_store(&xt_stuck, NULL);
}

static inline int xt_start_marking(xrtRunHandle h)
{
    if (atomic_exchange(&xt_stick_next, 0))
        atomic_store(&xt_stuck, h);
    else if (atomic_load(&xt_stuck) == h)
        xt_stuck_run_ends();
    return axl__xrt_real.run_start(h);
}

static inline enum ert_cmd_state xt_state_faked(xrtRunHandle h)
{
    return h == atomic_load(&xt_stuck) ? atomic_load(&xt_stuck_state)
                                       : axl__xrt_real.run_state(h);
}

static inline enum ert_cmd_state xt_wait_faked(xrtRunHandle h, unsigned ms)
{
    if (h != atomic_load(&xt_stuck))
        return axl__xrt_real.run_wait_for(h, ms);
    if (atomic_load(&xt_stuck_state) != ERT_CMD_STATE_RUNNING)
        return atomic_load(&xt_stuck_state);
    xt_sleep_ms(ms);
    return ERT_CMD_STATE_TIMEOUT;
}

/* xt_setup for tests of the core on the XRT port: runs end in the core
 * (no completions caught), the stock design is the device's built-in one,
 * and the stuck-run fakes are in the call table, no run stuck yet. */
static inline int xt_setup_stock(void **state)
{
    xt_setup(state);
    axl__xrt_set_run_done(NULL);
    setenv("AXL_XRT_BUILTIN_XCLBIN", AXL_XCLBIN_DIR "/stock.xclbin", 1);
    atomic_store(&xt_stick_next, 0);
    xt_stuck_run_ends();
    axl__xrt.run_start = xt_start_marking;
    axl__xrt.run_state = xt_state_faked;
    axl__xrt.run_wait_for = xt_wait_faked;
    return 0;
}

#endif /* AXL_XRT_TEST_H */
