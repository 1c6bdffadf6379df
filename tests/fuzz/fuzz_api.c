/*
 * Fuzz target for the public API: each input is a program, one operation
 * per byte plus the bytes it takes for its arguments, run on the emulated
 * device and two devices of the test support's fake port (another
 * platform: contexts of one or both, queues on either, buffers that move
 * between devices, built-in kernels that finish at once, programming).
 * Programs create, retain and release every object kind
 * (contexts, queues, buffers and sub-buffers, events, kernel bundles,
 * kernels, host accessors), submit fills, copies both ways and between
 * buffers, host tasks, update_host, kernels (single_task and command
 * groups, with random argument ids, sizes, modes and regions) and waits,
 * ask get_info and the other getters with random parameters and sizes,
 * exhaust the event pool, and shut the runtime down and use it again.
 * Handles are live, stale (released, or from before a shutdown), forged
 * or none; sizes are zero, small or huge; regions may lie outside their
 * buffer.
 *
 * Invariants, checked beyond "no crash, no sanitizer report":
 *   - a call given a stale, forged or none handle fails, with a message;
 *   - a call that fails leaves every pool as it was (kernel ids,
 *     images and host accessors always; the others, which completions on
 *     other threads change, when no command is in flight);
 *   - after the program releases what it still holds, every pool is back
 *     at the in-use count it had before the program (axl_stats_get);
 *   - a double release fails.
 *
 * Paths issue 18 lists as crashing or corrupting today are left out unless
 * AXL_FUZZ_ISSUE18 enables them (each spot names its item): NULL
 * out-parameters of the getters of item 1, freeing a source image's bytes
 * (2), releasing a queue from its handler (3), timeouts (4, 5, 11),
 * kernel arguments at unaligned offsets (6), builds that fail (7), large
 * mmult dims (9), buffers bound to a context (10), queues that make their
 * own context (12), source bytes freed or changed (2), builds that fail
 * on --uuid or --require-kernel (7), a slow or hung model with a
 * timeout, and shutdown while it runs (4, 11). AXL_FUZZ_ISSUE18 (CMake:
 * -DAXL_FUZZ_ISSUE18=0xFFF, a mask: bit n-1 for item n) aims the fuzzer
 * at them, as their fixes land. Item 8 (a launch clears the dispatching
 * thread's message) is reached but not checked: the target does not
 * require a message for a timeout.
 *
 * Graphs (issue 26): recorded launches become kernel nodes, updated with
 * scalars and buffers that fit (so updates succeed, not only fail), and
 * the rules of recorded commands' events are checked: a live one waited
 * on is AXL_ERR_INVALID, once its graph is gone AXL_ERR_INVALID_OBJECT,
 * and a recorded command that depends on an event from outside its
 * graph is refused whether or not that event is complete.
 * axl_shutdown is followed by axl_init or by a first call, with the fake
 * port registered again.
 *
 * AXL_FUZZ_TRACE=1 in the environment prints each operation and status
 * (replay_api FILE shows what a reproducer does); AXL_FUZZ_STATS=1 prints,
 * at exit, how often the paths above were taken with success.
 *
 * Not reached: the XRT port, calls from several application threads
 * (tests/unit/test_stress.c does that).
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "axl/axl.h"
#include "axl/emu.h"
#include "axl_test.h" /* the fake port (tests/support) */
#include "axl_fuzz_app_xclbin.h"
#include "axl_fuzz_stock_xclbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* AXL_FUZZ_ISSUE18: bit n-1 set lets the program take the path of issue
 * 18's item n (0: none, 0xFFF: all twelve). */
#ifndef AXL_FUZZ_ISSUE18
#define AXL_FUZZ_ISSUE18 0xFFF
#endif
#define ITEM18(n) ((AXL_FUZZ_ISSUE18 >> ((n) - 1)) & 1)

static void need_(int ok, const char *what, int line)
{
    if (!ok) {
        fprintf(stderr, "fuzz_api.c:%d: broken: %s (last message: %s)\n",
                line, what, axl_last_message());
        abort();
    }
}
#define need(x) need_((x) ? 1 : 0, #x, __LINE__)

/* ---- the program's bytes ---------------------------------------------------- */

static const uint8_t *in_p, *in_end;

static uint8_t u8(void)
{
    return in_p < in_end ? *in_p++ : 0;
}
static uint32_t u32(void)
{
    uint32_t v = u8();
    v |= (uint32_t)u8() << 8;
    v |= (uint32_t)u8() << 16;
    v |= (uint32_t)u8() << 24;
    return v;
}
/* Sizes: mostly small, sometimes zero or huge. */
static size_t size_arg(void)
{
    static const size_t table[] = {0, 1, 2, 3, 4, 7, 8, 16, 31, 64, 100,
                                   256, 1024, 4096, (size_t)1 << 20,
                                   (size_t)1 << 32, SIZE_MAX / 2, SIZE_MAX};
    uint8_t b = u8();
    if (b < 0xF0)
        return table[b % (sizeof table / sizeof table[0])];
    return u32();
}

/* ---- handles: live, stale, forged, none -------------------------------------- */

enum kind { CTX, QUE, BUF, EVT, BUN, KER, NKINDS };
#define MAXH 8

typedef struct {
    uint32_t live[NKINDS][MAXH]; /* one entry per reference held */
    uint8_t nlive[NKINDS];
    uint32_t dead[NKINDS][MAXH]; /* released or from before a shutdown */
    uint8_t ndead[NKINDS];
    size_t buf_bytes[MAXH];      /* per live buffer entry */
    size_t buf_elem[MAXH];
} world;

static world w;

enum hclass { LIVE, DEAD, FORGED, NONE };

static bool is_live_anywhere(uint32_t id)
{
    for (int k = 0; k < NKINDS; k++)
        for (int i = 0; i < w.nlive[k]; i++)
            if (w.live[k][i] == id)
                return true;
    return false;
}

/* A handle of kind k: *cls says what it is; *at its live index or -1. */
static uint32_t pick(int k, enum hclass *cls, int *at)
{
    uint8_t b = u8();
    *at = -1;
    if ((b & 15) == 1 && w.ndead[k]) {
        *cls = DEAD;
        uint32_t id = w.dead[k][(b >> 4) % w.ndead[k]];
        if (!is_live_anywhere(id))
            return id;
    }
    if ((b & 15) == 2) {
        uint32_t id = u32();
        if (id && !is_live_anywhere(id)) {
            *cls = FORGED;
            return id;
        }
    }
    if ((b & 15) == 0 || !w.nlive[k]) {
        *cls = NONE;
        return 0;
    }
    *cls = LIVE;
    *at = (b >> 4) % w.nlive[k];
    return w.live[k][*at];
}

static void add_live(int k, uint32_t id)
{
    if (w.nlive[k] < MAXH)
        w.live[k][w.nlive[k]++] = id;
}
static void add_dead(int k, uint32_t id)
{
    for (int i = 0; i < w.ndead[k]; i++)
        if (w.dead[k][i] == id)
            return;
    if (w.ndead[k] < MAXH)
        w.dead[k][w.ndead[k]++] = id;
    else
        w.dead[k][id % MAXH] = id;
}
/* Drops live entry i; dead if no other entry names the same object. */
static void drop_live(int k, int i)
{
    uint32_t id = w.live[k][i];
    w.nlive[k]--;
    w.live[k][i] = w.live[k][w.nlive[k]];
    if (k == BUF) {
        w.buf_bytes[i] = w.buf_bytes[w.nlive[k]];
        w.buf_elem[i] = w.buf_elem[w.nlive[k]];
    }
    for (int j = 0; j < w.nlive[k]; j++)
        if (w.live[k][j] == id)
            return;
    add_dead(k, id);
}

/* ---- pools --------------------------------------------------------------------- */

#define NPOOLS 32
typedef struct {
    uint32_t n;
    axl_pool_stats s[NPOOLS];
} pools;

static void get_pools(pools *p)
{
    need(axl_stats_get(p->s, NPOOLS, &p->n) == AXL_SUCCESS);
}

/* Pools a failed call must leave alone. Commands in flight free slots of
 * most kinds as they complete, on other threads (a released queue, its
 * context, a kernel, its bundle, buffers, events): those pools are
 * compared only when no command was in flight before or after the call. */
static bool always_stable(const char *name)
{
    static const char *const names[] = {"kernel_id", "image",
                                        "host_accessor", "platform",
                                        "device"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

static uint32_t in_use(const pools *p, const char *name)
{
    for (uint32_t i = 0; i < p->n; i++)
        if (strcmp(p->s[i].name, name) == 0)
            return p->s[i].in_use;
    return 0;
}

/* Placements are designs made ready for devices (core/place.h): a
 * program changes them (a device it programmed keeps the design; a
 * kernel launched on a device that reprograms on demand makes its
 * design's, issue 40; a source image's last bundle takes its placements
 * along), so they are never compared, only bounded: at most one per
 * device and image. */
static void same_pools(const pools *a, const pools *b, bool all)
{
    need(a->n == b->n);
    need(in_use(b, "placement") <=
         in_use(b, "device") * in_use(b, "image"));
    bool quiet = in_use(a, "command") == 0 && in_use(b, "command") == 0;
    for (uint32_t i = 0; i < a->n; i++) {
        if (strcmp(a->s[i].name, "placement") == 0)
            continue;
        if (!all && !quiet && !always_stable(a->s[i].name))
            continue;
        if (a->s[i].in_use != b->s[i].in_use) {
            fprintf(stderr, "pool %s: %u in use, was %u\n", a->s[i].name,
                    b->s[i].in_use, a->s[i].in_use);
            need(a->s[i].in_use == b->s[i].in_use);
        }
    }
}

/* Checks one call's result: a non-live handle must fail, with a
 * message, and any failure must leave the stable pools alone. */
static pools before;
static void begin(void)
{
    get_pools(&before);
}
static bool trace; /* AXL_FUZZ_TRACE set: each op and status on stderr */
static axl_status end(axl_status st, enum hclass cls)
{
    if (trace)
        fprintf(stderr, "  %s %s%s%s\n", axl_status_name(st),
                cls == LIVE ? "" : "(not live) ", st ? ": " : "",
                st ? axl_last_message() : "");
    if (cls != LIVE)
        need(st != AXL_SUCCESS);
    if (st != AXL_SUCCESS) {
        need(axl_last_message()[0] != '\0');
        pools after;
        get_pools(&after);
        same_pools(&before, &after, false);
    }
    return st;
}
#define WORST(a, b) ((a) != LIVE ? (a) : (b))

/* ---- the device, its kernels and memory the programs use ----------------------- */

/* The emulated device, and every device: it and the fake port's. */
static axl_device dev;
enum { NDEV = 3 };
static axl_device devs[NDEV];
static uint32_t ndevs;
/* Built-in kernel ids per device (vadd, fir, nop, mmult): a device's
 * built-in kernels are its own (seed 000). kid_* are the emulated
 * device's. */
static axl_kernel_id kids[NDEV][4];
#define kid_vadd kids[0][0]
#define kid_fir kids[0][1]
#define kid_nop kids[0][2]
#define kid_mmult kids[0][3]

/* What the paths issue 26 asked to reach did (AXL_FUZZ_STATS). */
static struct {
    unsigned long kernel_nodes, updates_scalar, updates_buffer, replays,
        restarts, inits, fake_commands, node_waits, outside_refused;
} stats;
static pools baseline;
static int32_t host_mem[MAXH][1024]; /* create_from memory, per slot */
static uint8_t scratch[1 << 16];     /* copy targets and sources */
/* Host tasks on several workers touch it: atomic (tsan). */
static _Atomic unsigned long sink;

static axl_status task_ok(void *user)
{
    (void)user;
    atomic_fetch_add(&sink, 1);
    return AXL_SUCCESS;
}
static axl_status task_fails(void *user)
{
    (void)user;
    return axl_fail(AXL_ERR_RUNTIME, "a host task failed on purpose");
}

static uint32_t releasing_queue;  /* the queue op_release is releasing */
static axl_status inner_release = 1; /* what the handler's release gave */

static void handler_fn(const axl_async_error *e, uint32_t n, uint32_t dropped,
                       void *user)
{
    (void)user;
    (void)dropped;
    for (uint32_t i = 0; i < n; i++) {
        need(e[i].status != AXL_SUCCESS);
        need(e[i].message != NULL);
        atomic_fetch_add(&sink, strlen(e[i].message));
    }
#if ITEM18(3)
    /* Item 3: a handler that releases the queue being released (the
     * handler runs inside axl_queue_release). */
    if (n && user && releasing_queue && e[0].queue.id == releasing_queue) {
        inner_release = axl_queue_release(e[0].queue);
        releasing_queue = 0;
    }
#endif
}
static const axl_async_handler handler = {handler_fn, NULL};
/* Item 3: a handler that releases its queue (user not NULL). */
static int releasing_mark;
static const axl_async_handler handler_releasing = {handler_fn,
                                                    &releasing_mark};

static const axl_async_handler *handler_arg(void)
{
    uint8_t b = u8() % 3;
    return b == 0 ? NULL : b == 2 && ITEM18(3) ? &handler_releasing : &handler;
}

static axl_region region_arg(void)
{
    axl_region r;
    for (int i = 0; i < 3; i++) {
        r.offset[i] = i ? 0 : size_arg() / 4;
        r.range[i] = i ? 1 : size_arg();
    }
    if (u8() & 1)
        r.offset[1] = size_arg();
    return r;
}

/* The fake port's devices: two, programmable, carrying the stock design
 * (so they have the built-in kernels, which finish at once). Registered
 * before the runtime starts, and again after each axl_shutdown (which
 * forgets the ports an application added). */
static void fake_devices(void)
{
    fake_config = (fake_port_config){
        .devices = 2,
        .flags = AXL_HAL_DEVICE_AVAILABLE,
        .program_mask = 3,
        .builtin_image = axl_test_stock_xclbin,
        .builtin_image_size = axl_test_stock_xclbin_size};
    need(axl_device_port_register(&fake_port) == AXL_SUCCESS);
}

/* Finds the devices and their built-in kernel ids (the runtime starts
 * here, unless axl_init did). */
static void devices_up(void)
{
    axl_device all[8];
    uint32_t n = 0;
    need(axl_device_get_all(AXL_DEVICE_TYPE_ALL, all, 8, &n) == AXL_SUCCESS);
    ndevs = 1;
    for (uint32_t i = 0; i < n; i++) {
        bool emu = false;
        need(axl_device_has(all[i], AXL_ASPECT_EMULATED, &emu) ==
             AXL_SUCCESS);
        if (emu)
            devs[0] = all[i];
        else if (ndevs < NDEV)
            devs[ndevs++] = all[i];
    }
    need(ndevs == NDEV);
    dev = devs[0];
    static const char *const names[4] = {"vadd", "fir", "nop", "mmult"};
    for (uint32_t d = 0; d < ndevs; d++)
        for (int i = 0; i < 4; i++)
            need(axl_get_built_in_kernel_id(devs[d], names[i],
                                            &kids[d][i]) == AXL_SUCCESS);
}

static void print_stats(void)
{
    fprintf(stderr,
            "fuzz_api: kernel nodes %lu, scalar updates %lu, buffer updates "
            "%lu, replays %lu, restarts %lu (axl_init %lu), commands on "
            "fake devices %lu, node-event waits refused %lu, outside "
            "events refused %lu\n",
            stats.kernel_nodes, stats.updates_scalar, stats.updates_buffer,
            stats.replays, stats.restarts, stats.inits, stats.fake_commands,
            stats.node_waits, stats.outside_refused);
}

static void once(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    fake_devices();
    devices_up();
    if (getenv("AXL_FUZZ_STATS"))
        atexit(print_stats);
}

/* A device for a call: the emulated one mostly, a fake one sometimes. */
static axl_device dev_arg(void)
{
    uint8_t b = u8();
    return (b & 3) == 3 ? devs[1 + (b >> 2) % (ndevs - 1)] : dev;
}

/* One of a live context's devices (the emulated device for any other). */
static axl_device ctx_dev(uint32_t c, enum hclass cls)
{
    axl_device d[4];
    uint32_t n = 0;
    uint8_t b = u8();
    if (cls != LIVE ||
        axl_context_get_devices((axl_context){c}, d, 4, &n) != AXL_SUCCESS ||
        n == 0)
        return dev;
    return d[b % n];
}

/* Whether d is a fake device (for the statistics). */
static bool is_fake(axl_device d)
{
    return d.id != dev.id;
}

/* Releases one reference of kind k. Some last releases release all the
 * same and say why with a status; for the program's bookkeeping they are
 * releases that succeeded:
 *  - a queue or context holding unconsumed asynchronous errors
 *    (4.13.1.1, issue 16; a queue's errors are not thrown first: a throw
 *    runs its handler, which may release the queue, item 3's path);
 *  - a buffer whose contents a failed command lost: nothing is written
 *    back (4.7.2.3). */
/* AXL_MESSAGES=0 builds (-DAXL_MESSAGES=0 reaches every file) say only
 * "<function>: <STATUS>". */
#if defined(AXL_MESSAGES) && AXL_MESSAGES == 0
#define MESSAGES_ON 0
#else
#define MESSAGES_ON 1
#endif

static bool alive(int k, uint32_t id)
{
    bool b;
    size_t n;
    axl_platform p;
    switch (k) {
    case CTX: return axl_context_get_platform((axl_context){id}, &p) == AXL_SUCCESS;
    case QUE: return axl_queue_is_in_order((axl_queue){id}, &b) == AXL_SUCCESS;
    default: return axl_buffer_get_byte_size((axl_buffer){id}, &n) == AXL_SUCCESS;
    }
}

static axl_status release_kind(int k, uint32_t id)
{
    axl_status st;
    const char *anyway = NULL;
    /* Whether a failed release released all the same: by the message when
     * there is one, else (AXL_MESSAGES=0) by the handle going stale. */
    const bool was_alive = (k == CTX || k == QUE || k == BUF) && alive(k, id);
    switch (k) {
    case CTX:
        st = axl_context_release((axl_context){id});
        anyway = "unconsumed asynchronous error";
        break;
    case QUE:
        st = axl_queue_release((axl_queue){id});
        anyway = "unconsumed asynchronous error";
        break;
    case BUF:
        st = axl_buffer_release((axl_buffer){id});
        anyway = "nothing written back";
        break;
    case EVT: st = axl_event_release((axl_event){id}); break;
    case BUN: st = axl_kernel_bundle_release((axl_kernel_bundle){id}); break;
    default: st = axl_kernel_release((axl_kernel){id}); break;
    }
    if (st != AXL_SUCCESS && anyway &&
        (strstr(axl_last_message(), anyway) ||
         (!MESSAGES_ON && was_alive && !alive(k, id))))
        return AXL_SUCCESS;
    return st;
}

/* ---- operations ------------------------------------------------------------------ */

static void op_context_create(void)
{
    axl_context c;
    /* The emulated device, a fake one, both fake ones (one platform), or
     * the emulated and a fake one (two platforms: refused, 4.6.3.1). */
    axl_device set[2] = {dev, dev};
    uint32_t n = 1;
    const uint8_t b = u8();
    switch (b % 8) {
    case 4: set[0] = devs[1]; break;
    case 5: set[0] = devs[2]; break;
    case 6: set[0] = devs[1]; set[1] = devs[2]; n = 2; break;
    case 7: set[1] = devs[1]; n = 2; break;
    default: break;
    }
    begin();
    axl_status st = axl_context_create(set, n, handler_arg(), &c);
    if (b % 8 == 7)
        need(st == AXL_ERR_INVALID);
    if (end(st, LIVE) != AXL_SUCCESS)
        return;
    if (w.nlive[CTX] < MAXH)
        add_live(CTX, c.id);
    else
        need(release_kind(CTX, c.id) == AXL_SUCCESS); /* no room for it */
}

static void op_release(int k)
{
    enum hclass cls;
    int at;
    uint32_t id = pick(k, &cls, &at);
    begin();
    axl_status st;
    int refs = 0; /* the program's references to it */
    for (int j = 0; j < w.nlive[k]; j++)
        refs += w.live[k][j] == id;
    releasing_queue = k == QUE && cls == LIVE ? id : 0;
    inner_release = 1;
    st = release_kind(k, id);
    /* Releasing a live reference succeeds (4.5.2: a release is never
     * refused while the application holds the object). */
    if (cls == LIVE)
        need(st == AXL_SUCCESS);
    end(st, cls);
    releasing_queue = 0;
    if (cls == LIVE && st == AXL_SUCCESS)
        drop_live(k, at);
    if (inner_release != 1) {
        /* Item 3: the handler released it too. That is a release of a
         * reference the program still held, or a double release, which
         * must fail. */
        if (refs < 2)
            need(inner_release != AXL_SUCCESS);
        else if (inner_release == AXL_SUCCESS)
            for (int j = 0; j < w.nlive[k]; j++)
                if (w.live[k][j] == id) {
                    drop_live(k, j);
                    break;
                }
    }
}

static void op_retain(int k)
{
    enum hclass cls;
    int at;
    uint32_t id = pick(k, &cls, &at);
    begin();
    axl_status st;
    switch (k) {
    case CTX: st = axl_context_retain((axl_context){id}); break;
    case QUE: st = axl_queue_retain((axl_queue){id}); break;
    case BUF: st = axl_buffer_retain((axl_buffer){id}); break;
    case EVT: st = axl_event_retain((axl_event){id}); break;
    case BUN: st = axl_kernel_bundle_retain((axl_kernel_bundle){id}); break;
    default: st = axl_kernel_retain((axl_kernel){id}); break;
    }
    end(st, cls);
    if (st == AXL_SUCCESS) {
        if (w.nlive[k] < MAXH) {
            size_t bytes = k == BUF ? w.buf_bytes[at] : 0;
            size_t elem = k == BUF ? w.buf_elem[at] : 0;
            add_live(k, id);
            if (k == BUF) {
                w.buf_bytes[w.nlive[k] - 1] = bytes;
                w.buf_elem[w.nlive[k] - 1] = elem;
            }
        } else {
            /* No room to remember it: give the reference back. */
            axl_status r;
            r = release_kind(k, id);
            need(r == AXL_SUCCESS);
        }
    }
}

/* Releases a handle the program holds once, then again: the second
 * release is of a stale handle and fails. */
static void op_double_release(void)
{
    int k = u8() % NKINDS;
    for (int i = 0; i < w.nlive[k]; i++) {
        uint32_t id = w.live[k][i];
        int refs = 0;
        for (int j = 0; j < w.nlive[k]; j++)
            refs += w.live[k][j] == id;
        if (refs != 1)
            continue;
        axl_status st;
        for (int pass = 0; pass < 2; pass++) {
            begin();
            st = release_kind(k, id);
            if (pass == 0) {
                need(st == AXL_SUCCESS);
                drop_live(k, i);
            } else {
                end(st, DEAD);
            }
        }
        return;
    }
}

static void op_queue_create(void)
{
    enum hclass cls;
    int at;
    uint32_t c = pick(CTX, &cls, &at);
    uint32_t flags = u8() & 7; /* bit 2 is no flag: refused */
    axl_queue q;
    begin();
    axl_status st;
    if (cls == NONE && !ITEM18(12)) {
        /* Item 12: a queue that makes its own context can leave it behind
         * (axl_shutdown says AXL_ERR_BAD_STATE); give it one. */
        return;
    }
    const axl_device qd = cls == NONE ? dev_arg() : ctx_dev(c, cls);
    st = axl_queue_create((axl_context){c}, qd, flags, handler_arg(), &q);
    if (flags & 4)
        need(st != AXL_SUCCESS);
    /* The none context is allowed: the queue makes its own. */
    if (end(st, cls == NONE ? LIVE : cls) == AXL_SUCCESS) {
        if (w.nlive[QUE] < MAXH)
            add_live(QUE, q.id);
        else
            need(release_kind(QUE, q.id) == AXL_SUCCESS);
    }
}

static void op_buffer_create(void)
{
    size_t elem = size_arg();
    axl_range r = {1 + u8() % 3, {size_arg(), 1, 1}};
    if (r.dims > 1)
        r.size[1] = size_arg();
    uint8_t how = u8();
    axl_buffer_props props = {0};
    enum hclass cls = LIVE;
    int at;
    if ((how & 3) == 3) {
#if ITEM18(10)
        /* Item 10: a buffer bound to a context the program may release. */
        props.flags = AXL_BUFFER_CONTEXT_BOUND;
        props.context.id = pick(CTX, &cls, &at);
#else
        (void)at;
#endif
    }
    axl_buffer b;
    int slot = w.nlive[BUF];
    begin();
    axl_status st;
    /* Host memory only where the whole range fits in it (a smaller block
     * than the range is the application's bug, not one axl can see). */
    bool fits = elem && r.size[0] && r.size[1] &&
                elem <= sizeof host_mem[0] &&
                r.size[0] <= sizeof host_mem[0] / elem &&
                r.size[1] <= sizeof host_mem[0] / elem / r.size[0] &&
                slot < MAXH;
    if ((how & 3) == 1 && fits)
        st = axl_buffer_create_from(host_mem[slot], elem, r,
                                    props.flags ? &props : NULL, &b);
    else if ((how & 3) == 2 && fits)
        st = axl_buffer_create_from_const(host_mem[slot], elem, r, NULL, &b);
    else
        st = axl_buffer_create(elem, r, props.flags ? &props : NULL, &b);
    if (props.flags && cls != LIVE)
        end(st, cls);
    else
        end(st, LIVE);
    if (st == AXL_SUCCESS) {
        if (slot < MAXH) {
            add_live(BUF, b.id);
            w.buf_bytes[slot] = elem * r.size[0] * r.size[1];
            w.buf_elem[slot] = elem;
        } else {
            need(axl_buffer_release(b) == AXL_SUCCESS);
        }
    }
}

static void op_buffer_sub(void)
{
    enum hclass cls;
    int at;
    uint32_t id = pick(BUF, &cls, &at);
    size_t off[3] = {size_arg(), 0, 0};
    axl_range r = {1, {size_arg(), 1, 1}};
    axl_buffer s;
    begin();
    axl_status st = axl_buffer_create_sub((axl_buffer){id}, off, r, &s);
    if (end(st, cls) == AXL_SUCCESS) {
        size_t bytes = 0;
        need(axl_buffer_get_byte_size(s, &bytes) == AXL_SUCCESS);
        need(bytes <= w.buf_bytes[at]);
        if (w.nlive[BUF] < MAXH) {
            add_live(BUF, s.id);
            w.buf_bytes[w.nlive[BUF] - 1] = bytes;
            w.buf_elem[w.nlive[BUF] - 1] = w.buf_elem[at];
        } else {
            need(axl_buffer_release(s) == AXL_SUCCESS);
        }
    }
}

/* Up to two events the program holds (or stale, forged ones). */
static uint32_t deps_arg(axl_event *deps, enum hclass *cls)
{
    uint32_t n = u8() % 3;
    *cls = LIVE;
    for (uint32_t i = 0; i < n; i++) {
        enum hclass c;
        int at;
        deps[i].id = pick(EVT, &c, &at);
        *cls = WORST(*cls, c);
    }
    return n;
}

/* A command submitted to a queue on a fake device (the statistics). */
static void count_fake(axl_status st, uint32_t q)
{
    axl_device d;
    if (st == AXL_SUCCESS &&
        axl_queue_get_device((axl_queue){q}, &d) == AXL_SUCCESS &&
        is_fake(d))
        stats.fake_commands++;
}

static void keep_event(axl_status st, axl_event e, bool asked)
{
    if (st != AXL_SUCCESS || !asked)
        return;
    if (w.nlive[EVT] < MAXH)
        add_live(EVT, e.id);
    else
        need(axl_event_release(e) == AXL_SUCCESS);
}

static void op_command(void)
{
    enum hclass qc, bc, bc2 = LIVE, dc;
    int qa, ba, ba2 = -1;
    uint32_t q = pick(QUE, &qc, &qa);
    uint32_t b = pick(BUF, &bc, &ba);
    axl_event deps[3], ev = {0};
    uint32_t nd = deps_arg(deps, &dc);
    bool want_ev = u8() & 1;
    axl_event *evp = want_ev ? &ev : NULL;
    axl_region reg = region_arg();
    const axl_region *rp = (u8() & 1) ? &reg : NULL;
    size_t bytes = ba >= 0 ? w.buf_bytes[ba] : 0;
    uint8_t which = u8() % 6;
    axl_status st;
    enum hclass cls = WORST(WORST(qc, bc), dc);
    begin();
    switch (which) {
    case 0: {
        uint32_t pat = u32();
        size_t ps = size_arg();
        st = axl_queue_fill((axl_queue){q}, (axl_buffer){b}, rp, &pat,
                            ps > sizeof pat ? sizeof pat : ps, deps, nd, evp);
        break;
    }
    case 1:
        if (bytes > sizeof scratch)
            return;
        st = axl_queue_copy_to_host((axl_queue){q}, (axl_buffer){b}, rp,
                                    scratch, deps, nd, evp);
        break;
    case 2:
        if (bytes > sizeof scratch)
            return;
        st = axl_queue_copy_from_host((axl_queue){q}, scratch,
                                      (axl_buffer){b}, rp, deps, nd, evp);
        break;
    case 3: {
        uint32_t b2 = pick(BUF, &bc2, &ba2);
        cls = WORST(cls, bc2);
        begin();
        st = axl_queue_copy((axl_queue){q}, (axl_buffer){b}, rp,
                            (axl_buffer){b2}, (u8() & 1) ? &reg : NULL, deps,
                            nd, evp);
        break;
    }
    case 4:
        st = axl_queue_update_host((axl_queue){q}, (axl_buffer){b}, rp, deps,
                                   nd, evp);
        break;
    default:
        cls = WORST(qc, dc);
        st = axl_queue_host_task((axl_queue){q},
                                 (u8() & 1) ? task_ok : task_fails, NULL,
                                 deps, nd, evp);
        break;
    }
    end(st, cls);
    count_fake(st, q);
    keep_event(st, ev, want_ev);
}

static void op_kernel_get(void)
{
    enum hclass cc;
    int ca;
    uint32_t c = pick(CTX, &cc, &ca);
    /* A device of the context, and its built-in ids (sometimes another
     * device's: compatible with none of the context's, refused). */
    axl_device kd = ctx_dev(c, cc);
    uint32_t di = 0;
    for (uint32_t i = 0; i < ndevs; i++)
        if (devs[i].id == kd.id)
            di = i;
    if ((u8() & 7) == 7)
        di = (di + 1) % ndevs;
    axl_kernel_id ids[2];
    ids[0] = kids[di][u8() % 4];
    ids[1] = kids[di][u8() % 4];
    uint32_t nids = 1 + (u8() & 1);
    axl_kernel_bundle bun;
    begin();
    axl_status st = axl_get_kernel_bundle_for(
        (axl_context){c}, (u8() & 1) ? &kd : NULL, (u8() & 1), ids, nids,
        (axl_bundle_state)(u8() % 5), &bun);
    if (end(st, cc) != AXL_SUCCESS)
        return;
    axl_kernel k;
    begin();
    st = axl_kernel_bundle_get_kernel(bun, ids[u8() & 1], &k);
    if (end(st, LIVE) == AXL_SUCCESS) {
        if (w.nlive[KER] < MAXH)
            add_live(KER, k.id);
        else
            need(axl_kernel_release(k) == AXL_SUCCESS);
    }
    if (w.nlive[BUN] < MAXH && (u8() & 1))
        add_live(BUN, bun.id);
    else
        need(axl_kernel_bundle_release(bun) == AXL_SUCCESS);
}

static void op_single_task(void)
{
    enum hclass qc, kc, dc;
    int qa, ka;
    uint32_t q = pick(QUE, &qc, &qa);
    uint32_t k = pick(KER, &kc, &ka);
    axl_kernel_arg args[6];
    uint64_t scal[6]; /* a size up to 8 reads inside it */
    axl_region regs[6];
    uint32_t nargs = u8() % 7;
    enum hclass cls = WORST(qc, kc);
    for (uint32_t i = 0; i < nargs; i++) {
        memset(&args[i], 0, sizeof args[i]);
        uint8_t b = u8();
        args[i].index = (b & 0x80) ? u8() : i;
        if (b & 1) {
            scal[i] = (b & 2) ? u32() : u8();
            /* The stock models' work grows with their sizes (fir: taps x
             * len, mmult: dim^3), and a model still running at its
             * timeout keeps its command until it returns (emu.h): a fir
             * of 131,071 taps over as many samples ran 20 s under ASan,
             * past the cleanup's wait. A size a buffer could hold stays
             * small; a large one becomes one no buffer holds (2^28 and up,
             * past a 256 MiB bank), which a model refuses at once. */
            if (scal[i] > 256 && scal[i] < (1u << 28))
                scal[i] = (scal[i] & 1) ? scal[i] % 257
                                        : scal[i] | (1u << 28);
#if !ITEM18(9)
            /* Item 9: mmult reads out of bounds for dims whose square
             * wraps; keep the scalars small. */
            scal[i] &= 0xFF;
#endif
            args[i].value = &scal[i];
            args[i].size = (b & 4) ? size_arg() % 9 : 4;
        } else {
            enum hclass c;
            int at;
            args[i].buffer.id = pick(BUF, &c, &at);
            cls = WORST(cls, c);
            args[i].mode = (axl_access_mode)(b >> 5 & 3);
            if (b & 8) {
                regs[i] = region_arg();
#if !ITEM18(6)
                /* Item 6: a region at an offset the kernel cannot use is
                 * accepted and the models read it unaligned. */
                if (at < 0 || w.buf_elem[at] % 4 != 0)
                    continue;
#endif
                args[i].region = &regs[i];
            }
        }
    }
    axl_event deps[3], ev = {0};
    uint32_t nd = deps_arg(deps, &dc);
    cls = WORST(cls, dc);
    const uint8_t evb = u8();
    bool want_ev = evb & 1;
    if (trace) {
        fprintf(stderr, "  %s queue %08x (%d) kernel %08x (%d), %u deps (%d)\n",
                evb & 0x80 ? "parallel_for" : "single_task", (unsigned)q,
                (int)qc, (unsigned)k, (int)kc, (unsigned)nd, (int)dc);
        for (uint32_t i = 0; i < nargs; i++)
            fprintf(stderr, "    arg %u: index %u %s %08x size %zu mode %d%s\n",
                    (unsigned)i, (unsigned)args[i].index,
                    args[i].value ? "scalar" : "buffer",
                    (unsigned)args[i].buffer.id, args[i].size,
                    (int)args[i].mode, args[i].region ? " region" : "");
        for (uint32_t i = 0; i < nd; i++)
            fprintf(stderr, "    dep %u: %08x\n", (unsigned)i,
                    (unsigned)deps[i].id);
    }
    begin();
    axl_status st;
    if (evb & 0x80) {
        /* parallel_for over the kernel's units: the same arguments, a
         * range from the byte, the count in "size" or none, some buffers
         * whole; a failure leaves the pools as they were (all or none). */
        axl_split split = {.count_arg = (evb & 2) ? "size" : NULL,
                           .offset_arg = (evb & 4) ? "size" : NULL,
                           .whole = (uint64_t)(evb >> 3 & 3)};
        st = axl_queue_parallel_for((axl_queue){q}, (axl_kernel){k},
                                    (size_t)(evb >> 5 & 3) * 256u, args,
                                    nargs, &split, deps, nd,
                                    want_ev ? &ev : NULL);
    } else {
        st = axl_queue_single_task((axl_queue){q}, (axl_kernel){k}, args,
                                   nargs, deps, nd, want_ev ? &ev : NULL);
    }
    end(st, cls);
    count_fake(st, q);
    keep_event(st, ev, want_ev);
}

/* A command group whose calls come from the program's bytes. */
static void cgf(axl_handler *h, void *user)
{
    (void)user;
    axl_accessor acc[3];
    uint32_t nacc = 0;
    unsigned steps = u8() % 8;
    for (unsigned s = 0; s < steps; s++) {
        enum hclass c;
        int at;
        switch (u8() % 9) {
        case 0: {
            uint32_t b = pick(BUF, &c, &at);
            axl_region r = region_arg();
            axl_accessor a;
            axl_status st = axl_handler_require(
                h, (axl_buffer){b}, (axl_access_mode)(u8() & 3),
                (u8() & 1) ? &r : NULL, u8() & 3, &a);
            if (c != LIVE)
                need(st != AXL_SUCCESS);
            if (st == AXL_SUCCESS && nacc < 3)
                acc[nacc++] = a;
            break;
        }
        case 1: {
            axl_event e = {pick(EVT, &c, &at)};
            (void)axl_handler_depends_on(h, e);
            break;
        }
        case 2:
            if (nacc) {
                /* Sizes up to 8 bytes are read from it: 8 bytes. */
                uint64_t pat = u32() | (uint64_t)u32() << 32;
                (void)axl_handler_fill(h, acc[u8() % nacc], &pat,
                                       1u << (u8() % 4));
            }
            break;
        case 3:
            if (nacc > 1)
                (void)axl_handler_copy(h, acc[0], acc[1]);
            break;
        case 4:
            (void)axl_handler_host_task(h, task_ok, NULL);
            break;
        case 5:
            if (nacc)
                (void)axl_handler_set_arg_accessor(h, u8() % 6,
                                                   acc[u8() % nacc]);
            break;
        case 6: {
            uint64_t v = u8();
            (void)axl_handler_set_arg(h, u8() % 6, &v, size_arg() % 9);
            break;
        }
        case 7: {
            axl_kernel k = {pick(KER, &c, &at)};
            (void)axl_handler_single_task(h, k);
            break;
        }
        default:
#if ITEM18(4) || ITEM18(5)
            (void)axl_handler_set_timeout(h, ITEM18(5) && (u8() & 1)
                                                 ? UINT64_MAX
                                                 : (uint64_t)u32() *
                                                       (u8() + 1));
#endif
            if (nacc)
                (void)axl_handler_update_host(h, acc[0]);
            break;
        }
    }
}

static void op_submit(void)
{
    enum hclass qc;
    int qa;
    uint32_t q = pick(QUE, &qc, &qa);
    axl_event ev = {0};
    bool want_ev = u8() & 1;
    begin();
    axl_status st = axl_queue_submit((axl_queue){q}, cgf, NULL,
                                     want_ev ? &ev : NULL);
    end(st, qc);
    keep_event(st, ev, want_ev);
}

static void op_wait(void)
{
    enum hclass cls;
    int at;
    axl_status st;
    uint8_t how = u8() % 6;
    switch (how) {
    case 0: {
        uint32_t e = pick(EVT, &cls, &at);
        begin();
        st = axl_event_wait((axl_event){e});
        break;
    }
    case 1: {
        uint32_t e = pick(EVT, &cls, &at);
        begin();
        st = axl_event_wait_and_throw((axl_event){e});
        break;
    }
    case 2: {
        axl_event list[3];
        uint32_t n = deps_arg(list, &cls);
        begin();
        st = axl_event_wait_list(list, n);
        break;
    }
    case 3: {
        uint32_t q = pick(QUE, &cls, &at);
        begin();
        st = axl_queue_wait((axl_queue){q});
        break;
    }
    case 4: {
        uint32_t q = pick(QUE, &cls, &at);
        begin();
        st = axl_queue_wait_and_throw((axl_queue){q});
        break;
    }
    default: {
        uint32_t q = pick(QUE, &cls, &at);
        begin();
        st = axl_queue_throw_asynchronous((axl_queue){q});
        break;
    }
    }
    if ((how == 1 || how >= 4) && cls == LIVE && st != AXL_SUCCESS) {
        /* The *_throw calls report an asynchronous error (4.13) by
         * consuming it: a failure that changes the error pool. */
        need(axl_last_message()[0] != '\0');
        return;
    }
    end(st, cls);
}

static void op_host_accessor(void)
{
    enum hclass cls;
    int at;
    uint32_t b = pick(BUF, &cls, &at);
    axl_region r = region_arg();
    axl_host_accessor ha;
    void *ptr = NULL;
    begin();
    axl_status st = axl_host_accessor_create(
        (axl_buffer){b}, (axl_access_mode)(u8() & 3), (u8() & 1) ? &r : NULL,
        u8() & 3, &ha, &ptr);
    if (end(st, cls) != AXL_SUCCESS)
        return;
    need(ptr != NULL || w.buf_bytes[at] == 0);
    /* Held across no other call: a command on the buffer would wait for
     * it, and this program has one thread. */
    need(axl_host_accessor_release(ha) == AXL_SUCCESS);
    begin();
    end(axl_host_accessor_release(ha), DEAD);
}

static void op_info(void)
{
    enum hclass cls;
    int at;
    uint8_t buf[256];
    size_t vs = size_arg() % (sizeof buf + 1), ret = 0;
    void *value = (u8() & 1) ? buf : NULL;
    uint32_t param = u8() % 32;
    axl_status st;
    switch (u8() % 10) {
    case 0:
        cls = LIVE;
        begin();
        st = axl_device_get_info(dev_arg(), (axl_device_info)param, value, vs,
                                 (u8() & 1) ? &ret : NULL);
        if (value && st == AXL_SUCCESS)
            need(ret == 0 || ret <= vs);
        break;
    case 1: {
        uint32_t c = pick(CTX, &cls, &at);
        begin();
        st = axl_context_get_info((axl_context){c}, (axl_context_info)param,
                                  value, vs, &ret);
        break;
    }
    case 2: {
        uint32_t q = pick(QUE, &cls, &at);
        begin();
        st = axl_queue_get_info((axl_queue){q}, (axl_queue_info)param, value,
                                vs, &ret);
        break;
    }
    case 3: {
        uint32_t k = pick(KER, &cls, &at);
        axl_kernel_arg_info ai;
        begin();
        st = axl_kernel_get_arg_info((axl_kernel){k}, param, &ai);
        break;
    }
    case 4: {
        axl_device_bank bank;
        cls = LIVE;
        begin();
        /* Item 1: NULL out-parameters of axl_device_get_bank,
         * axl_device_get_backend, axl_device_get_platform and
         * axl_platform_get_backend crash. */
        st = axl_device_get_bank(dev_arg(), param,
                                 ITEM18(1) && (u8() & 1) ? NULL : &bank);
        break;
    }
    case 5: {
        uint32_t b = pick(BUF, &cls, &at);
        axl_range r;
        size_t bytes;
        bool sub;
        begin();
        st = axl_buffer_get_range((axl_buffer){b}, (u8() & 1) ? &r : NULL);
        end(st, cls);
        begin();
        st = axl_buffer_get_byte_size((axl_buffer){b}, &bytes);
        if (st == AXL_SUCCESS && at >= 0)
            need(bytes == w.buf_bytes[at]);
        end(st, cls);
        begin();
        st = axl_buffer_is_sub_buffer((axl_buffer){b}, &sub);
        break;
    }
    case 6: {
        uint32_t e = pick(EVT, &cls, &at);
        axl_event_status es;
        axl_status err;
        uint64_t ns;
        begin();
        st = axl_event_get_status((axl_event){e}, &es, &err);
        end(st, cls);
        begin();
        st = axl_event_get_profiling((axl_event){e},
                                     (axl_profiling_info)(param % 4), &ns);
        if (cls == LIVE)
            return; /* profiling may be off: either answer is right */
        end(st, cls);
        uint32_t cu;
        begin();
        st = axl_event_get_compute_unit((axl_event){e}, &cu);
        break;
    }
    case 7: {
        uint32_t k = pick(KER, &cls, &at);
        axl_kernel_info ki;
        begin();
        st = axl_kernel_get_info((axl_kernel){k}, (u8() & 1) ? &ki : NULL);
        if (cls == LIVE) {
            /* The kernel on some of its units, by a name from param
             * (some are no unit of it: AXL_ERR_INVALID, nothing made). */
            static const char *const units[] = {
                "vadd_1", "vadd:{vadd_2}", "{vadd_1,vadd_2}", "{nosuch}",
                "fir_1", "mmult:{mmult_1", "", "nop:{nop_1}"};
            axl_kernel k2;
            begin();
            st = axl_kernel_select_units((axl_kernel){k}, units[param % 8],
                                         &k2);
            if (end(st, LIVE) == AXL_SUCCESS) {
                if (w.nlive[KER] < MAXH)
                    add_live(KER, k2.id);
                else
                    need(axl_kernel_release(k2) == AXL_SUCCESS);
            }
            return;
        }
        break;
    }
    case 8: {
        uint32_t b = pick(BUN, &cls, &at);
        axl_kernel_id ids[4];
        uint32_t n;
        begin();
        st = axl_kernel_bundle_get_kernel_ids((axl_kernel_bundle){b},
                                              (u8() & 1) ? ids : NULL,
                                              param % 5, &n);
        if (cls == LIVE)
            return;
        break;
    }
    default: {
        uint32_t q = pick(QUE, &cls, &at);
        begin();
        uint64_t t = 0; /* items 4, 5, 11: timeouts race, wrap, hang */
        if (ITEM18(5) && (u8() & 1))
            t = UINT64_MAX;
        else if (ITEM18(4))
            t = u32();
        st = axl_queue_set_timeout((axl_queue){q}, t);
        break;
    }
    }
    end(st, cls);
}

/* A vadd of the graph's own (issue 26): a bundle and kernel for the
 * built-in vadd of the recording queue's device, and buffers of 64 ints
 * it owns, so a recorded launch is a kernel node and updates that fit
 * can succeed. */
typedef struct own_vadd {
    axl_kernel_bundle bundle;
    axl_kernel k;
    axl_buffer a, b, o, o2;
    bool up;
} own_vadd;

static void own_vadd_up(own_vadd *v, axl_context ctx, axl_device d)
{
    memset(v, 0, sizeof *v);
    uint32_t di = 0;
    for (uint32_t i = 0; i < ndevs; i++)
        if (devs[i].id == d.id)
            di = i;
    /* Refused while another design is held there (4.11.6): no node. */
    if (axl_get_kernel_bundle_for(ctx, &d, 1, &kids[di][0], 1,
                                  AXL_BUNDLE_EXECUTABLE,
                                  &v->bundle) != AXL_SUCCESS)
        return;
    need(axl_kernel_bundle_get_kernel(v->bundle, kids[di][0], &v->k) ==
         AXL_SUCCESS);
    axl_buffer *bufs[4] = {&v->a, &v->b, &v->o, &v->o2};
    for (int i = 0; i < 4; i++)
        need(axl_buffer_create(4, axl_range_1d(64), NULL, bufs[i]) ==
             AXL_SUCCESS);
    v->up = true;
}

static void own_vadd_down(own_vadd *v)
{
    if (!v->up)
        return;
    need(axl_kernel_release(v->k) == AXL_SUCCESS);
    need(axl_kernel_bundle_release(v->bundle) == AXL_SUCCESS);
    axl_buffer bufs[4] = {v->a, v->b, v->o, v->o2};
    for (int i = 0; i < 4; i++)
        need(axl_buffer_release(bufs[i]) == AXL_SUCCESS ||
             strstr(axl_last_message(), "nothing written back"));
    v->up = false;
}

/* Recorded graphs (issue 13), whole inside the op: a live queue records
 * a few fills, copies and launches of the program's buffers (independent
 * ones make the one event a join) and, sometimes, a vadd of its own; the
 * graph is finalized, submitted a few times, updated (a forged node is
 * refused; the launch's node takes a count and a buffer that fit, and
 * whatever the program gives), and released. A recorded command's event
 * is refused as an event (AXL_ERR_INVALID) while its graph lives, and is
 * stale (AXL_ERR_INVALID_OBJECT) after; a recorded command that depends
 * on an event of the program's, complete or not, is refused. Handles
 * that are not live must be refused. */
static void op_graph(void)
{
    enum hclass qc;
    int qa;
    uint32_t q = pick(QUE, &qc, &qa);
    axl_status st;
    axl_graph g = {0};
    if (qc != LIVE) {
        axl_context c0 = {0};
        axl_device d0 = {0};
        begin();
        st = axl_graph_create(c0, d0, &g);
        end(st, NONE);
        begin();
        st = axl_graph_begin_recording((axl_graph){u32() | 1u},
                                       (axl_queue){q});
        end(st, qc);
        return;
    }
    axl_context ctx;
    axl_device gdev;
    need(axl_queue_get_context((axl_queue){q}, &ctx) == AXL_SUCCESS);
    need(axl_queue_get_device((axl_queue){q}, &gdev) == AXL_SUCCESS);
    own_vadd ov = {0};
    if (u8() & 1)
        own_vadd_up(&ov, ctx, gdev);
    begin();
    st = axl_graph_create(ctx, gdev, &g);
    if (end(st, LIVE) != AXL_SUCCESS) {
        own_vadd_down(&ov);
        return; /* switched off, or the pool is full */
    }
    begin();
    st = axl_graph_begin_recording(g, (axl_queue){q});
    axl_event kev = {0}; /* a recorded launch's node, for updates */
    uint32_t kcount = 0; /* its count argument's value */
    bool kown = false;   /* the launch is the own vadd's */
    if (end(st, LIVE) == AXL_SUCCESS) {
        unsigned n = u8() % 5;
        for (unsigned i = 0; i < n; i++) {
            enum hclass bc, oc;
            int ba, oa;
            uint32_t b = pick(BUF, &bc, &ba);
            uint8_t how = u8();
            begin();
            if ((how & 0xC0) == 0xC0) {
                /* A launch: vadd's shape (two in, one out, a count) on
                 * whichever kernel is picked; a mismatch is refused. */
                enum hclass kc, c2, c3;
                int ka, a2, a3;
                uint32_t k = pick(KER, &kc, &ka);
                uint32_t b2 = pick(BUF, &c2, &a2), b3 = pick(BUF, &c3, &a3);
                axl_event ev = {0};
                st = axl_queue_single_task(
                    (axl_queue){q}, (axl_kernel){k},
                    AXL_ARGS(AXL_ARG_IN((axl_buffer){b}),
                             AXL_ARG_IN((axl_buffer){b2}),
                             AXL_ARG_OUT((axl_buffer){b3}),
                             AXL_ARG_U32((uint32_t)(how & 0x3F))),
                    NULL, 0, &ev);
                end(st, WORST(kc, WORST(bc, WORST(c2, c3))));
                if (st == AXL_SUCCESS && !kown) {
                    kev = ev; /* a node's stand-in: not released */
                    kcount = how & 0x3F;
                }
            } else if ((how & 0xC0) == 0x80) {
                st = axl_queue_host_task((axl_queue){q}, task_ok, NULL, NULL,
                                         0, NULL);
                end(st, LIVE);
            } else if (how & 1) {
                uint32_t o = pick(BUF, &oc, &oa);
                st = axl_queue_copy((axl_queue){q}, (axl_buffer){b}, NULL,
                                    (axl_buffer){o}, NULL, NULL, 0, NULL);
                end(st, WORST(bc, oc));
            } else {
                size_t elem = ba >= 0 ? w.buf_elem[ba] : 4;
                st = axl_queue_fill((axl_queue){q}, (axl_buffer){b}, NULL,
                                    scratch, (how & 2) ? elem : size_arg(),
                                    NULL, 0, NULL);
                end(st, bc);
            }
        }
        if (ov.up) {
            /* The own vadd, after what was recorded so far (the last
             * launch's node, when there is one, as an explicit edge). */
            axl_event ev;
            kcount = 1 + u8() % 64;
            begin();
            st = axl_queue_single_task(
                (axl_queue){q}, ov.k,
                AXL_ARGS(AXL_ARG_IN(ov.a), AXL_ARG_IN(ov.b),
                         AXL_ARG_OUT(ov.o), AXL_ARG_U32(kcount)),
                kev.id ? &kev : NULL, kev.id ? 1 : 0, &ev);
            if (end(st, LIVE) == AXL_SUCCESS) {
                kev = ev;
                kown = true;
            }
        }
        if (kev.id) {
            stats.kernel_nodes++;
            if (is_fake(gdev))
                stats.fake_commands++;
        }
        /* Issue 26.3: an event of the program's, pending, failed or
         * complete, is from outside the graph: always refused. */
        if (w.nlive[EVT]) {
            axl_event outside = {w.live[EVT][u8() % w.nlive[EVT]]};
            begin();
            st = axl_queue_host_task((axl_queue){q}, task_ok, NULL, &outside,
                                     1, NULL);
            need(st == AXL_ERR_INVALID);
            end(st, LIVE);
            stats.outside_refused++;
        }
        need(axl_graph_end_recording(g, (axl_queue){q}) == AXL_SUCCESS);
    }
    /* Issue 26.2: a live recorded command's event where an event goes. */
    if (kev.id) {
        begin();
        st = axl_event_wait(kev);
        need(st == AXL_ERR_INVALID);
        end(st, LIVE);
        stats.node_waits++;
    }
    axl_graph_exec x;
    begin();
    const axl_status fin = axl_graph_finalize(g, &x);
    end(fin, LIVE);
    /* The launch's node, named while its graph lives (updates take it
     * even once the graph is released). */
    axl_graph_node knode = {0};
    if (kev.id)
        need(axl_graph_node_from_event(kev, &knode) == AXL_SUCCESS);
    if (u8() & 1) { /* the executable graph does not need it */
        need(axl_graph_release(g) == AXL_SUCCESS);
        g.id = 0;
        if (kev.id) { /* its nodes went with it: stale */
            begin();
            st = axl_event_wait(kev);
            need(st == AXL_ERR_INVALID_OBJECT);
            end(st, DEAD);
        }
    }
    if (fin == AXL_SUCCESS) {
        for (unsigned k = u8() % 4; k; k--) {
            axl_event done = {0};
            const bool want = u8() & 1;
            begin();
            st = axl_queue_submit_graph((axl_queue){q}, x, NULL, 0,
                                        want ? &done : NULL);
            if (end(st, LIVE) == AXL_SUCCESS) {
                stats.replays++;
                if (want) {
                    (void)axl_event_wait(done); /* a node may fail */
                    need(axl_event_release(done) == AXL_SUCCESS);
                }
            }
        }
        /* Updates between submissions: a forged node is refused; the
         * launch's node takes a count and a buffer that fit (the own
         * vadd's spare output), and a swap of any buffer (checked: a
         * wrong shape or bank, or a dead buffer, changes nothing). */
        axl_graph_node node = {u32()};
        uint32_t v = u32();
        begin();
        st = axl_graph_exec_update_scalar(x, node, u8(), &v, sizeof v);
        need(st != AXL_SUCCESS || node.id == knode.id);
        end(st, LIVE);
        if (knode.id) {
            node = knode;
            v = kcount ? 1 + v % kcount : v & 0x3F;
            begin();
            st = axl_graph_exec_update_scalar(x, node, 3, &v, sizeof v);
            if (kown)
                need(st == AXL_SUCCESS);
            if (end(st, LIVE) == AXL_SUCCESS)
                stats.updates_scalar++;
            if (kown) {
                begin();
                st = axl_graph_exec_update_buffer(x, node, 2, ov.o2);
                if (end(st, LIVE) == AXL_SUCCESS)
                    stats.updates_buffer++;
            }
            enum hclass bc;
            int ba;
            uint32_t b = pick(BUF, &bc, &ba);
            begin();
            st = axl_graph_exec_update_buffer(x, node, u8() % 3,
                                              (axl_buffer){b});
            if (end(st, bc) == AXL_SUCCESS)
                stats.updates_buffer++;
            for (unsigned k = u8() % 3; k; k--) {
                axl_event done = {0};
                begin();
                st = axl_queue_submit_graph((axl_queue){q}, x, NULL, 0,
                                            &done);
                if (end(st, LIVE) == AXL_SUCCESS) {
                    stats.replays++;
                    (void)axl_event_wait(done);
                    need(axl_event_release(done) == AXL_SUCCESS);
                }
            }
        }
        need(axl_graph_exec_release(x) == AXL_SUCCESS);
        begin();
        st = axl_graph_exec_release(x);
        end(st, DEAD);
    }
    if (g.id)
        need(axl_graph_release(g) == AXL_SUCCESS);
    own_vadd_down(&ov); /* replays in flight hold what they use */
}

/* Takes events until the pool is full: the refusal names the pool and
 * changes nothing; then gives them back. */
static void op_exhaust(void)
{
    static axl_event evs[4096];
    uint32_t n = 0;
    if (u8() >= 32) /* thousands of calls: not too often */
        return;
    const uint32_t cap = sizeof evs / sizeof evs[0];
    axl_status st = AXL_SUCCESS;
    while (n < cap) {
        while (n < cap && axl_event_create_complete(&evs[n]) == AXL_SUCCESS)
            n++;
        if (n == cap)
            break;
        /* Full: one more is refused, names the setting, changes nothing.
         * Unless a command finished on another thread meanwhile and its
         * event's last hold freed a slot (a slow model's run coming back):
         * then that one is taken too, and the pool filled again. */
        axl_event extra;
        begin();
        st = axl_event_create_complete(&extra);
        if (st == AXL_SUCCESS) {
            evs[n++] = extra;
            continue;
        }
        need(st == AXL_ERR_OUT_OF_RESOURCES);
        /* (AXL_MESSAGES 0: the message is the status name.) */
        need(strstr(axl_last_message(), "AXL_MAX_EVENTS") != NULL ||
             strstr(axl_last_message(), "AXL_ERR_OUT_OF_RESOURCES") != NULL);
        end(st, LIVE);
        break;
    }
    while (n)
        need(axl_event_release(evs[--n]) == AXL_SUCCESS);
}

/* A bundle from source (the stock or the app image, whole, cut short or
 * with a byte changed), built with or without options; the source bundle
 * and the executable are kept. */
static void op_source(void)
{
    enum hclass cc;
    int ca;
    uint32_t c = pick(CTX, &cc, &ca);
    uint8_t how = u8();
    const unsigned char *img = (how & 1) ? axl_fuzz_app_xclbin
                                         : axl_fuzz_stock_xclbin;
    size_t size = (how & 1) ? axl_fuzz_app_xclbin_size
                            : axl_fuzz_stock_xclbin_size;
    const void *bytes = img; /* read in place: the image lives for good */
    uint8_t *own = NULL;
    if (how & 2) {
        /* Cut short: always refused by the build, so nothing keeps it. */
        size = u8() % 400;
    } else if ((how & 4) && ITEM18(2)) {
        /* Item 2: bytes the program frees once it released the bundles,
         * while the device may still carry the design. */
        own = malloc(size);
        need(own != NULL);
        memcpy(own, img, size);
        own[u32() % size] ^= u8();
        bytes = own;
    }
    axl_kernel_bundle src;
    begin();
    axl_status st = axl_kernel_bundle_create_from_source(
        (axl_context){c}, AXL_SOURCE_XCLBIN, (u8() & 1) ? bytes : NULL, size,
        &src);
    if (end(st, cc) != AXL_SUCCESS) {
        free(own);
        return;
    }
    const char *opts[2];
    uint32_t nopts = 0;
    uint8_t o = u8();
    if ((o & 3) == 1 && ITEM18(7))
        opts[nopts++] = "--uuid=00000000000000000000000000000000"; /* item 7 */
    else if ((o & 3) == 2 && ITEM18(7))
        opts[nopts++] = "--require-kernel=none_such"; /* item 7 */
    else if ((o & 3) == 3)
        opts[nopts++] = "--no-such-option"; /* refused before anything */
    axl_build_props props = {opts, nopts, NULL, 0};
    axl_kernel_bundle exe;
    begin();
    axl_device bd = ctx_dev(c, cc);
    st = axl_kernel_bundle_build(src, &bd, 1, (o & 4) ? &props : NULL, &exe);
    end(st, LIVE);
    if (st == AXL_SUCCESS) {
        if (w.nlive[BUN] < MAXH && !own)
            add_live(BUN, exe.id);
        else
            need(axl_kernel_bundle_release(exe) == AXL_SUCCESS);
    }
    if (w.nlive[BUN] < MAXH && !own)
        add_live(BUN, src.id);
    else
        need(axl_kernel_bundle_release(src) == AXL_SUCCESS);
    free(own); /* item 2 only: the bundles are gone */
}

/* Commands in the runtime's pool now (in flight anywhere). */
static uint32_t commands_in_use(void)
{
    axl_pool_stats st[32];
    uint32_t n = 0;
    need(axl_stats_get(st, 32, &n) == AXL_SUCCESS);
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(st[i].name, "command") == 0)
            return st[i].in_use;
    return 0;
}

/* Items 4 and 11: nop's model made slow or hung, launched with a queue
 * timeout (a run the runtime must give up), then the stock model back.
 * The slow model takes 0.3 ms and the timeout is 0.1 to 1.6 ms, so some
 * slow runs time out and most finish; the same mix at 2 ms and 1 to 16 ms
 * made this op 84% of fuzz_api's time, waiting. */
static unsigned model_mode;
static axl_status nop_model(const axl_emu_call *call, void *user)
{
    (void)call;
    (void)user;
    if (model_mode == 1) {
        struct timespec ts = {0, 300000};
        nanosleep(&ts, NULL);
        return AXL_SUCCESS;
    }
    return AXL_EMU_HANG;
}
static void op_model(void)
{
    uint8_t b = u8();
    if (!(ITEM18(4) || ITEM18(11)))
        return;
    enum hclass qc, kc;
    int qa, ka;
    uint32_t q = pick(QUE, &qc, &qa);
    uint32_t k = pick(KER, &kc, &ka);
    if (qc != LIVE || kc != LIVE)
        return;
    /* The slow or hung model is for this op's command only. A command
     * submitted earlier (no timeout: a queue's timeout counts for the
     * kernels submitted after it is set) that runs nop under it would hang
     * for ever, as a kernel that never finishes does on a board: correct,
     * and a hang of the harness, not of the runtime. So every live queue
     * is drained first, and nothing must be left in flight (commands of
     * released queues, or ones behind a host accessor, count too). */
    for (int i = 0; i < w.nlive[QUE]; i++)
        if (axl_queue_wait((axl_queue){w.live[QUE][i]}) != AXL_SUCCESS)
            return;
    if (commands_in_use() != 0)
        return;
    /* Set only now: a run of an earlier op's model may still have been
     * reading it (a data race under TSan) until the drain above. */
    model_mode = b & 1;
    need(axl_emu_register_model("nop", nop_model, NULL) == AXL_SUCCESS);
    (void)axl_queue_set_timeout((axl_queue){q}, 100000ull * (1 + (b >> 4)));
    axl_event ev = {0};
    axl_status st = axl_queue_single_task((axl_queue){q}, (axl_kernel){k},
                                          NULL, 0, NULL, 0, &ev);
    if (trace)
        fprintf(stderr, "  model %s, launch %s\n",
                model_mode ? "slow" : "hung", axl_status_name(st));
    if (st == AXL_SUCCESS) {
        if (b & 2) {
            (void)axl_event_wait(ev);
        } else if (ITEM18(11) && !(b & 4)) {
            /* Item 11: shutdown while it is in flight (refused: the
             * program holds objects; it must still return). */
            (void)axl_shutdown();
        }
        need(axl_event_release(ev) == AXL_SUCCESS);
    }
    (void)axl_queue_wait((axl_queue){q});
    (void)axl_queue_set_timeout((axl_queue){q}, 0);
    need(axl_emu_register_model("nop", NULL, NULL) == AXL_SUCCESS);
}

static bool holds_anything(void)
{
    for (int k = 0; k < NKINDS; k++)
        if (w.nlive[k])
            return true;
    return false;
}

static void op_shutdown(void)
{
    /* A restart reads the device's design again: most of a program's
     * time if it came often. */
    if (u8() >= 16)
        return;
    axl_status st = axl_shutdown();
    if (holds_anything()) {
        need(st == AXL_ERR_BAD_STATE);
        return;
    }
    need(st == AXL_SUCCESS);
    stats.restarts++;
    /* The runtime starts again, at axl_init or at the next call, with the
     * fake port registered again (a shutdown forgets it); every handle
     * from before is stale (the dead lists keep some), and the built-in
     * kernel ids are new ones. */
    for (int k = 0; k < NKINDS; k++)
        for (int i = 0; i < w.nlive[k]; i++)
            add_dead(k, w.live[k][i]);
    fake_devices();
    if (u8() & 1) {
        need(axl_init() == AXL_SUCCESS);
        need(axl_init() == AXL_SUCCESS); /* again: nothing */
        stats.inits++;
    }
    devices_up();
}

/* Releases everything the program holds, waits, and checks every pool
 * is back where it started. */
static void cleanup(void)
{
    for (int i = 0; i < w.nlive[QUE]; i++)
        (void)axl_queue_wait(((axl_queue){w.live[QUE][i]}));
    static const int order[] = {EVT, KER, BUN, BUF, QUE, CTX};
    for (int o = 0; o < NKINDS; o++) {
        int k = order[o];
        while (w.nlive[k]) {
            uint32_t id = w.live[k][0];
            axl_status st;
            st = release_kind(k, id);
            need(st == AXL_SUCCESS);
            drop_live(k, 0);
        }
    }
    /* Host tasks still running hold commands, events and buffers for a
     * moment after their queue's wait returned their events, and a model
     * that outlived its timeout holds its command until it returns. On a
     * loaded machine (a long -fork run beside builds) that moment can pass
     * 200 ms, so the bound is 10 s of the clock, not a count of naps. */
    pools now;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        get_pools(&now);
        bool same = now.n == baseline.n;
        for (uint32_t i = 0; same && i < now.n; i++)
            same = now.s[i].in_use == baseline.s[i].in_use ||
                   strcmp(now.s[i].name, "placement") == 0;
        clock_gettime(CLOCK_MONOTONIC, &t);
        if (same || t.tv_sec - t0.tv_sec >= 10)
            break;
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
    same_pools(&baseline, &now, true);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    once();
    if (!baseline.n) {
        get_pools(&baseline);
        trace = getenv("AXL_FUZZ_TRACE") != NULL;
    }
    in_p = data;
    in_end = data + size;
    /* Each input stands alone: no stale handle from an earlier one. */
    memset(w.ndead, 0, sizeof w.ndead);
    while (in_p < in_end) {
        uint8_t op = u8();
        if (trace)
            fprintf(stderr, "op %u\n", op == 0xFF ? 22u : op % 22u);
        if (op == 0xFF) { /* taken from op_wait (0xFF % 22 is 13) */
            op_graph();
            continue;
        }
        switch (op % 22) {
        case 0: op_context_create(); break;
        case 1: op_queue_create(); break;
        case 2: op_buffer_create(); break;
        case 3: op_buffer_sub(); break;
        case 4: op_release(u8() % NKINDS); break;
        case 5: op_retain(u8() % NKINDS); break;
        case 6: op_double_release(); break;
        case 7: case 8: op_command(); break;
        case 9: op_kernel_get(); break;
        case 10: case 11: op_single_task(); break;
        case 12: op_submit(); break;
        case 13: op_wait(); break;
        case 14: op_host_accessor(); break;
        case 15: case 16: op_info(); break;
        case 17: op_exhaust(); break;
        case 18: op_shutdown(); break;
        case 19: op_source(); break;
        case 20: op_model(); break;
        default: cleanup(); break;
        }
    }
    cleanup();
    return 0;
}
