/*
 * xrt_noop.c - what keeps the port's XRT calls clear of a race in XRT
 * 2.13's noop shim, and what tells a run whose completion the shim lost.
 *
 * The race (core/pcie/noop/shim.cpp in XRT 2.13): the shim keeps every BO
 * in one std::map for the process. xclFreeBO finds the BO under the map's
 * lock and erases it without the lock (buffer::free), while every other
 * BO call looks BOs up under the lock. With Runtime.noop_completion_
 * delay_us set, the shim also has a completion thread: each started run
 * is queued, and that thread takes them one at a time, in the order they
 * were started, waits until the delay has passed and then looks up the
 * run's command BO to mark it COMPLETED. An erase while it looks can make
 * the lookup miss; it throws "no such bo handle", the shim's task queue
 * swallows that, and the run stays NEW for good. A program that frees
 * BOs while runs complete (axl does, whenever a buffer is released)
 * loses a run now and then on a loaded machine.
 *
 * On that shim, and only there, the table's calls (xrt_api.c) pass a
 * gate. A call that can free a BO in the shim (xrtBOFree; xrtRunClose,
 * xrtKernelClose and xrtDeviceClose, which free command BOs) goes alone:
 * it waits until no other call that touches BOs is inside the shim and
 * until every run started has been looked up by the completion thread
 * (its state is final), and no such call starts meanwhile. The others go
 * side by side. So the erase meets no lookup. Runs started are recorded
 * for that (until seen final), each with two numbers of one counter,
 * taken before and after its xrtRunStart.
 *
 * A completion lost anyway (a BO the application freed with its own XRT
 * calls) is told by that order: when a run started after another's
 * xrtRunStart returned is complete, the completion thread has passed the
 * earlier one, and if that is still NEW it will stay NEW. When no later
 * run can tell, a probe does: a command BO of the port's own given to the
 * shim (xclExecBuf), which the completion thread marks like a run. The
 * port reports such a run at once, naming the shim (xrt_run.c), instead
 * of leaving it to the core's timeout.
 *
 * Nothing here runs on any other shim: each entry point first checks the
 * mode (xrt_env.c, fixed once the shim is loaded).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "xrt_port.h"

#include "xrt.h" /* xclAllocBO, xclMapBO, xclExecBuf (the shim's own) */

static int on_noop(void)
{
    return axl__xn_env.mode == AXL__XRT_NOOP;
}

/* ---- The gate ----------------------------------------------------------------- */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
/* Calls inside the shim that look BOs up. With `freeing` (a free waits
 * or runs), seq_cst both: a call that counts itself in and then sees no
 * free, and a free that raises the flag and then sees no call, cannot
 * both pass. */
static atomic_int users;
static atomic_int freeing;
static int free_taken; /* one free at a time (lock) */

static void user_out(void)
{
    if (atomic_fetch_sub(&users, 1) == 1 && atomic_load(&freeing)) {
        pthread_mutex_lock(&lock);
        pthread_cond_broadcast(&cond);
        pthread_mutex_unlock(&lock);
    }
}

int axl__xn_noop_use_begin(void)
{
    if (!on_noop())
        return 0;
    for (;;) {
        atomic_fetch_add(&users, 1);
        if (!atomic_load(&freeing))
            return 1;
        user_out();
        pthread_mutex_lock(&lock);
        while (atomic_load(&freeing))
            pthread_cond_wait(&cond, &lock);
        pthread_mutex_unlock(&lock);
    }
}

void axl__xn_noop_use_end(int gated)
{
    if (gated)
        user_out();
}

/* ---- Runs started, in the order the shim completes them ------------------------ */

typedef struct started {
    xrtRunHandle h;
    uint64_t before, after;  /* the counter around xrtRunStart */
    uint64_t at_ns;          /* when it started */
    uint8_t lost;            /* the shim will never complete it */
} started;

static atomic_uint_fast64_t counter;
static started *runs;        /* (lock) */
static size_t nruns, capruns;
static atomic_size_t nruns_seen; /* nruns, read without the lock */
/* The highest `before` of a run seen complete: every run whose `after`
 * is below it has been passed by the completion thread (lock). */
static uint64_t passed;

/* The probe: one command BO for the process (the shim's BOs are the
 * process's, whatever device they were made on). */
static xclBufferHandle probe_bo = NULLBO;
static struct ert_packet *probe_pkt;
static int probe_out;        /* queued, not yet complete (lock) */
static uint64_t probe_before;
static int probe_failed;     /* the shim refused it: no probes */
/* A device of the shim to make the probe's BO on and queue it with
 * (lock): the last one opened or named by a lookup, while open. */
static xrtDeviceHandle probe_dh;

static uint64_t stamp(void)
{
    return atomic_fetch_add(&counter, 1) + 1;
}

static started *find(xrtRunHandle h)
{
    for (size_t i = 0; i < nruns; i++)
        if (runs[i].h == h)
            return &runs[i];
    return NULL;
}

static void drop(started *e)
{
    *e = runs[--nruns];
    atomic_store(&nruns_seen, nruns);
}

static void saw_complete(started *e)
{
    if (e->before > passed)
        passed = e->before;
    drop(e);
}

uint64_t axl__xn_noop_before_start(void)
{
    return on_noop() ? stamp() : 0;
}

void axl__xn_noop_started(xrtRunHandle h, uint64_t before, int state)
{
    /* Completed inside xrtRunStart with no run recorded: h has no record
     * to drop (one made by an earlier start of h, on any thread, counts
     * in nruns_seen before h could be started again), so no lock. */
    if (!on_noop() || (ert_final(state) && !atomic_load(&nruns_seen)))
        return;
    const uint64_t after = stamp();
    pthread_mutex_lock(&lock);
    started *e = find(h);
    if (ert_final(state)) {
        /* Completed inside xrtRunStart: no completion thread (no delay),
         * nothing queued. */
        if (e)
            drop(e);
        pthread_mutex_unlock(&lock);
        return;
    }
    if (!e && nruns == capruns) {
        size_t cap = capruns ? capruns * 2 : 64;
        started *bigger = realloc(runs, cap * sizeof *runs);
        if (!bigger) {
            /* Not recorded: a free will not wait for it (the old race). */
            pthread_mutex_unlock(&lock);
            return;
        }
        runs = bigger;
        capruns = cap;
    }
    if (!e) {
        e = &runs[nruns++];
        atomic_store(&nruns_seen, nruns);
    }
    memset(e, 0, sizeof *e);
    e->h = h;
    e->before = before;
    e->after = after;
    e->at_ns = now_ns();
    pthread_mutex_unlock(&lock);
}

void axl__xn_noop_saw_state(xrtRunHandle h, int state)
{
    if (!ert_final(state) || !on_noop() || !atomic_load(&nruns_seen))
        return;
    pthread_mutex_lock(&lock);
    started *e = find(h);
    if (e && !e->lost)
        saw_complete(e);
    pthread_mutex_unlock(&lock);
}

void axl__xn_noop_forget(xrtRunHandle h)
{
    if (!on_noop() || !atomic_load(&nruns_seen))
        return;
    pthread_mutex_lock(&lock);
    started *e = find(h);
    if (e)
        drop(e);
    pthread_mutex_unlock(&lock);
}

/* The probe is back (lock held): the completion thread passed every run
 * whose xrtRunStart had returned when it was queued. */
static void probe_check(void)
{
    if (probe_out && probe_pkt->state == ERT_CMD_STATE_COMPLETED) {
        probe_out = 0;
        if (probe_before > passed)
            passed = probe_before;
    }
}

/* Queues the probe (lock held, and no free under way but the caller's:
 * `freeing` changes only under the lock, so with it clear no erase can
 * run until the lock is dropped). */
static void probe_start(void)
{
    if (probe_out || probe_failed || !probe_dh)
        return;
    static unsigned int (*alloc_bo)(xclDeviceHandle, size_t, int,
                                    unsigned int);
    static void *(*map_bo)(xclDeviceHandle, unsigned int, bool);
    static int (*exec_buf)(xclDeviceHandle, unsigned int);
    if (!exec_buf) {
        void *shim = axl__xn_env.shim;
        *(void **)&alloc_bo = shim ? dlsym(shim, "xclAllocBO") : NULL;
        *(void **)&map_bo = shim ? dlsym(shim, "xclMapBO") : NULL;
        *(void **)&exec_buf = shim ? dlsym(shim, "xclExecBuf") : NULL;
        if (!alloc_bo || !map_bo || !exec_buf) {
            probe_failed = 1;
            return;
        }
    }
    xclDeviceHandle xcl = xrtDeviceToXclDevice(probe_dh);
    if (!xcl) {
        probe_failed = 1;
        return;
    }
    if (probe_bo == NULLBO) {
        /* Kept for the process, never freed: freeing it is the race. */
        probe_bo = alloc_bo(xcl, 4096, 0, XCL_BO_FLAGS_EXECBUF);
        probe_pkt = probe_bo == NULLBO ? NULL : map_bo(xcl, probe_bo, true);
        if (!probe_pkt) {
            probe_failed = 1;
            return;
        }
    }
    probe_pkt->state = ERT_CMD_STATE_NEW;
    probe_before = stamp();
    if (exec_buf(xcl, probe_bo) != 0) {
        probe_failed = 1;
        return;
    }
    probe_out = 1;
}

/* Whether e will never be completed (lock held): started before a run the
 * completion thread has passed, and NEW when read now. Read now, after
 * `passed` was raised (under the lock), not before: a state read earlier
 * may be from before the completion thread reached the run at all. A
 * free's wait reads XRT itself (what the shim does is what counts). */
static int behind(started *e)
{
    if (!e->lost && e->after < passed &&
        (int)xrtRunState(e->h) == ERT_CMD_STATE_NEW)
        e->lost = 1;
    return e->lost;
}

int axl__xn_noop_lost(xrtRunHandle h, int state, xrtDeviceHandle dh)
{
    if (!on_noop() || state != ERT_CMD_STATE_NEW ||
        !atomic_load(&nruns_seen))
        return 0;
    pthread_mutex_lock(&lock);
    if (dh)
        probe_dh = dh;
    probe_check();
    started *e = find(h);
    int lost = e && e->lost;
    const int passed_by = e && !lost && e->after < passed;
    if (e && !lost && !passed_by && !atomic_load(&freeing) &&
        now_ns() - e->at_ns >= (uint64_t)AXL_XRT_NOOP_PROBE_MS * MS)
        probe_start();
    pthread_mutex_unlock(&lock);
    /* The state the caller read may be from before the completion thread
     * reached the run: read it again, now (through the table, as the port
     * reads states). */
    if (passed_by && (int)axl__xrt.run_state(h) == ERT_CMD_STATE_NEW) {
        pthread_mutex_lock(&lock);
        e = find(h);
        if (e)
            e->lost = 1;
        pthread_mutex_unlock(&lock);
        lost = 1;
    }
    return lost;
}

void axl__xn_noop_device(xrtDeviceHandle dh, int open)
{
    if (!on_noop())
        return;
    pthread_mutex_lock(&lock);
    if (open)
        probe_dh = dh;
    else if (probe_dh == dh)
        probe_dh = NULL;
    pthread_mutex_unlock(&lock);
}

/* ---- A free -------------------------------------------------------------------- */

/* Whether a recorded run (or the probe) may still be looked up by the
 * completion thread (lock held): reads each one's state (a read of its
 * command packet), forgets those complete, marks those it passed; the
 * oldest start still waited for in *oldest_ns. */
static int runs_pending(uint64_t *oldest_ns)
{
    probe_check();
    for (size_t i = 0; i < nruns;) {
        started *e = &runs[i];
        if (!e->lost && ert_final((int)xrtRunState(e->h)))
            saw_complete(e); /* runs[i] is another now: look at it */
        else
            i++;
    }
    int pending = 0;
    *oldest_ns = UINT64_MAX;
    for (size_t i = 0; i < nruns; i++) {
        started *e = &runs[i];
        if (behind(e))
            continue;
        pending = 1;
        if (e->at_ns < *oldest_ns)
            *oldest_ns = e->at_ns;
    }
    return pending || probe_out;
}

int axl__xn_noop_free_begin(void)
{
    if (!on_noop())
        return 0;
    pthread_mutex_lock(&lock);
    while (free_taken)
        pthread_cond_wait(&cond, &lock);
    free_taken = 1;
    atomic_store(&freeing, 1);
    while (atomic_load(&users))
        pthread_cond_wait(&cond, &lock);
    /* Alone now: no call looks BOs up, none starts a run. Wait for the
     * completion thread to pass the runs started. */
    const uint64_t t0 = now_ns();
    uint64_t oldest;
    while (runs_pending(&oldest)) {
        const uint64_t now = now_ns();
        if (now - t0 >= (uint64_t)AXL_XRT_NOOP_FREE_WAIT_MS * MS)
            break; /* the shim's thread is gone or its delay is longer */
        if (oldest != UINT64_MAX &&
            now - oldest >= (uint64_t)AXL_XRT_NOOP_PROBE_MS * MS)
            probe_start();
        pthread_mutex_unlock(&lock);
        struct timespec ts = {0, AXL_XRT_NOOP_POLL_US * 1000L};
        nanosleep(&ts, NULL);
        pthread_mutex_lock(&lock);
    }
    pthread_mutex_unlock(&lock);
    return 1;
}

void axl__xn_noop_free_end(int gated)
{
    if (!gated)
        return;
    pthread_mutex_lock(&lock);
    free_taken = 0;
    atomic_store(&freeing, 0);
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
}
