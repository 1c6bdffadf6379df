/*
 * fw_main.c - the bare-metal test firmware: the public API on the board's
 * own CPU, with the bare-metal port and the emulated device, and nothing
 * from the C library but the string functions.
 *
 * It enumerates the emulated device, makes a context and two queues, runs
 * a diamond of host tasks with dependencies (and one that fails, through
 * the async handler), fills a pool to its capacity and checks the N+1th
 * is refused, checks with axl_stats_get that every pool is back to empty,
 * prints the pools' sizes as this CPU sees them, and shuts down. The last
 * line is "fw: PASS" or "fw: FAIL (n checks)", and the exit status says
 * the same (semihosting).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "axl/axl.h"
#include "axl/hal.h"
#include "fw_console.h"
#include "kit.h" /* the board's memory map, as the kit sets it */

/* The default capacities of core/axl_config.h, as the board sets them. */
#include "axl_config.h"


/* ---- Enumeration --------------------------------------------------------- */

static axl_device find_emulated_device(void)
{
    axl_device found = AXL_NONE;
    axl_platform plats[AXL_MAX_PLATFORMS];
    uint32_t np = 0;
    if (!OK(axl_platform_get_all(plats, AXL_MAX_PLATFORMS, &np)))
        return found;
    EXPECT(np >= 1);
    for (uint32_t p = 0; p < np; p++) {
        char name[64];
        axl_device devs[AXL_MAX_DEVICES];
        uint32_t nd = 0;
        OK(axl_platform_get_info(plats[p], AXL_PLATFORM_INFO_NAME, name,
                                 sizeof name, NULL));
        OK(axl_platform_get_devices(plats[p], AXL_DEVICE_TYPE_ALL, devs,
                                    AXL_MAX_DEVICES, &nd));
        axl_fw_printf("fw: platform %u: %s, %u device(s)\n", (unsigned)p, name,
                      (unsigned)nd);
        for (uint32_t d = 0; d < nd; d++) {
            bool emulated = false;
            char dname[64];
            uint32_t banks = 0;
            uint64_t global = 0;
            OK(axl_device_has(devs[d], AXL_ASPECT_EMULATED, &emulated));
            OK(axl_device_get_info(devs[d], AXL_DEVICE_INFO_NAME, dname,
                                   sizeof dname, NULL));
            OK(axl_device_get_info(devs[d], AXL_DEVICE_INFO_MEMORY_BANKS,
                                   &banks, sizeof banks, NULL));
            OK(axl_device_get_info(devs[d], AXL_DEVICE_INFO_GLOBAL_MEM_SIZE,
                                   &global, sizeof global, NULL));
            axl_fw_printf("fw:   device %u: %s (%u bank(s), %u KiB)%s\n",
                          (unsigned)d, dname, (unsigned)banks,
                          (unsigned)(global >> 10),
                          emulated ? ", emulated" : "");
            if (emulated && AXL_IS_NONE(found))
                found = devs[d];
        }
    }
    EXPECT(!AXL_IS_NONE(found));
    return found;
}

/* ---- Host tasks with dependencies ---------------------------------------- */

/* acquire -> (left, right) -> combine, as in the README's demo. */
enum { SAMPLES = 256 };
static int16_t samples[SAMPLES];
static int32_t sum_left, sum_right, total;
static char order[8];
static unsigned norder;

static void note(char c)
{
    if (norder < sizeof order - 1)
        order[norder++] = c;
}

static axl_status acquire(void *user)
{
    (void)user;
    note('a');
    for (int i = 0; i < SAMPLES; i++)
        samples[i] = (int16_t)((i * 37) % 201 - 100);
    return AXL_SUCCESS;
}

static axl_status half_sum(void *user)
{
    int32_t *out = user;
    int from = out == &sum_left ? 0 : SAMPLES / 2;
    note(out == &sum_left ? 'l' : 'r');
    int32_t s = 0;
    for (int i = from; i < from + SAMPLES / 2; i++)
        s += samples[i] < 0 ? -samples[i] : samples[i];
    *out = s;
    return AXL_SUCCESS;
}

static axl_status combine(void *user)
{
    (void)user;
    note('c');
    total = sum_left + sum_right;
    return AXL_SUCCESS;
}

static axl_status broken_sensor(void *user)
{
    return axl_fail(AXL_ERR_RUNTIME, "sensor %d did not answer",
                    *(const int *)user);
}

static unsigned handled_errors;
static axl_status handled_status;

static void on_async_errors(const axl_async_error *errors, uint32_t count,
                            uint32_t dropped, void *user)
{
    (void)user;
    (void)dropped;
    for (uint32_t i = 0; i < count; i++) {
        handled_errors++;
        handled_status = errors[i].status;
        axl_fw_printf("fw: async error: %s: %s\n",
                      axl_status_name(errors[i].status), errors[i].message);
    }
}

static void run_pipeline(axl_device dev)
{
    axl_context ctx;
    axl_queue q, inorder;
    axl_async_handler handler = {on_async_errors, NULL};
    if (!OK(axl_context_create(&dev, 1, &handler, &ctx)))
        return;
    if (OK(axl_queue_create(ctx, dev, 0, NULL, &q))) {
        axl_event ev[4];
        OK(axl_queue_host_task(q, acquire, NULL, NULL, 0, &ev[0]));
        OK(axl_queue_host_task(q, half_sum, &sum_left, &ev[0], 1, &ev[1]));
        OK(axl_queue_host_task(q, half_sum, &sum_right, &ev[0], 1, &ev[2]));
        OK(axl_queue_host_task(q, combine, NULL, &ev[1], 2, &ev[3]));
        OK(axl_event_wait(ev[3]));
        axl_event_status es = AXL_EVENT_SUBMITTED;
        axl_status result = AXL_ERR_RUNTIME;
        OK(axl_event_get_status(ev[0], &es, &result));
        EXPECT(es == AXL_EVENT_COMPLETE && result == AXL_SUCCESS);

        int32_t want = 0;
        for (int i = 0; i < SAMPLES; i++) {
            int v = (i * 37) % 201 - 100;
            want += v < 0 ? -v : v;
        }
        axl_fw_printf("fw: pipeline: total %d (expected %d), order %s\n",
                      (int)total, (int)want, order);
        EXPECT(total == want);
        EXPECT(norder == 4 && order[0] == 'a' && order[3] == 'c');
        for (int i = 0; i < 4; i++)
            OK(axl_event_release(ev[i]));

        /* A failing host task: its event carries the error, the context's
         * handler gets it from wait_and_throw. */
        static const int sensor = 7;
        axl_event bad;
        if (OK(axl_queue_host_task(q, broken_sensor, (void *)&sensor, NULL, 0,
                                   &bad))) {
            EXPECT(axl_event_wait(bad) == AXL_ERR_RUNTIME);
            OK(axl_queue_wait_and_throw(q));
            EXPECT(handled_errors == 1 && handled_status == AXL_ERR_RUNTIME);
            OK(axl_event_release(bad));
        }
        OK(axl_queue_release(q));
    }

    /* An in-order queue keeps submission order without explicit events. */
    if (OK(axl_queue_create(ctx, dev, AXL_QUEUE_IN_ORDER, NULL, &inorder))) {
        norder = 0;
        OK(axl_queue_host_task(inorder, acquire, NULL, NULL, 0, NULL));
        OK(axl_queue_host_task(inorder, half_sum, &sum_right, NULL, 0, NULL));
        OK(axl_queue_host_task(inorder, half_sum, &sum_left, NULL, 0, NULL));
        OK(axl_queue_host_task(inorder, combine, NULL, NULL, 0, NULL));
        OK(axl_queue_wait(inorder));
        order[norder] = 0;
        EXPECT(norder == 4 && order[0] == 'a' && order[1] == 'r' &&
               order[2] == 'l' && order[3] == 'c');
        OK(axl_queue_release(inorder));
    }
    OK(axl_context_release(ctx));
}

/* ---- Logs and the trace through callbacks --------------------------------- */

/* Log lines go to the console, as a firmware would send them to a UART. */
static unsigned log_lines;

static void fw_log_line(const char *text, size_t len, void *user)
{
    (void)user;
    log_lines++;
    axl_fw_printf("fw: log: %.*s\n", (int)len, text);
}

/* The trace drained through a sink: counted and checked for its shape (a
 * firmware would copy it to a UART or a buffer a debugger reads). */
typedef struct drain {
    unsigned long bytes;
    unsigned slices;
    char first, last;
    char tail[8];                 /* the last bytes, to find slices across */
} drain;

static void count_sink(const char *text, size_t len, void *user)
{
    drain *d = user;
    static const char key[] = "\"ph\":\"X\"";
    if (!d->bytes && len)
        d->first = text[0];
    for (size_t i = 0; i < len; i++) {
        memmove(d->tail, d->tail + 1, sizeof d->tail - 1);
        d->tail[sizeof d->tail - 1] = text[i];
        if (memcmp(d->tail + sizeof d->tail - (sizeof key - 1), key,
                   sizeof key - 1) == 0)
            d->slices++;
    }
    if (len)
        d->last = text[len - 1];
    d->bytes += len;
}

static void drain_trace(void)
{
    axl_trace_stats st;
    OK(axl_trace_stats_get(&st));
    drain d = {0};
    OK(axl_trace_format(count_sink, &d, AXL_TRACE_CONSUME));
    axl_trace_stats after;
    OK(axl_trace_stats_get(&after));
    axl_fw_printf("fw: trace: %u commands recorded (ring of %u, %u dropped), "
                  "%lu bytes of JSON, %u slices drained\n",
                  (unsigned)st.recorded, (unsigned)st.capacity,
                  (unsigned)st.dropped, d.bytes, d.slices);
    EXPECT(st.recorded >= 9 && st.dropped == 0);
    EXPECT(d.first == '{' && d.last == '\n' && d.slices >= st.held);
    EXPECT(after.held == 0);
    OK(axl_trace_enable(false));
}

/* ---- A pool to its capacity and one more ---------------------------------- */

static void fill_event_pool(void)
{
    static axl_event evs[AXL_MAX_EVENTS];
    uint32_t made = 0;
    while (made < AXL_MAX_EVENTS &&
           axl_event_create_complete(&evs[made]) == AXL_SUCCESS)
        made++;
    EXPECT(made == AXL_MAX_EVENTS);
    axl_event extra;
    EXPECT(axl_event_create_complete(&extra) == AXL_ERR_OUT_OF_RESOURCES);
    axl_fw_printf("fw: event pool full at %u: %s\n", (unsigned)made,
                  axl_last_message());
    for (uint32_t i = 0; i < made; i++)
        OK(axl_event_release(evs[i]));
}

/* ---- Pools ------------------------------------------------------------------ */

static void check_pools(bool after_shutdown)
{
    axl_pool_stats stats[32]; /* every pool and the reserved memory row */
    uint32_t n = 0;
    if (!OK(axl_stats_get(stats, 32, &n)))
        return;
    uint32_t total_bytes = 0;
    if (after_shutdown)
        axl_fw_printf("fw: %-10s %-22s %6s %5s %7s\n", "pool", "setting",
                      "object", "cap", "bytes");
    for (uint32_t i = 0; i < n; i++) {
        const axl_pool_stats *s = &stats[i];
        /* Platforms, devices and the placements of their designs live
         * from start-up to shut-down. */
        bool static_pool = s->name[0] == 'p' || s->name[0] == 'd';
        if (after_shutdown || !static_pool)
            if (!fw_check(s->in_use == 0, "pool back to empty", __LINE__))
                axl_fw_printf("fw:   %s: %u in use\n", s->name,
                              (unsigned)s->in_use);
        if (after_shutdown) {
            uint32_t bytes = s->object_size * s->capacity;
            total_bytes += bytes;
            axl_fw_printf("fw: %-10s %-22s %6u %5u %7u\n", s->name, s->setting,
                          (unsigned)s->object_size, (unsigned)s->capacity,
                          (unsigned)bytes);
        }
    }
    if (after_shutdown)
        axl_fw_printf("fw: %-10s %-22s %6s %5s %7u\n", "total", "", "", "",
                      (unsigned)total_bytes);
}

/* ---- What the kit's start-up code set before main ------------------------ */

/* The MPU on with the board's memory map, region by region as the kit's
 * table says (kit/zynqmp_map.c), the unused ones off, and both caches on
 * (QEMU models the MPU: a wrong region faults; it models no cache, so the
 * C and I bits are all it can show). */
static void check_memory_map(void)
{
    uint32_t sctlr, mpuir;
    __asm__ __volatile__("mrc p15, 0, %0, c1, c0, 0" : "=r"(sctlr));
    __asm__ __volatile__("mrc p15, 0, %0, c0, c0, 4" : "=r"(mpuir));
    EXPECT((sctlr & 1u) != 0);          /* M: the MPU */
    EXPECT((sctlr & (1u << 2)) != 0);   /* C: the data cache */
    EXPECT((sctlr & (1u << 12)) != 0);  /* I: the instruction cache */
    EXPECT((sctlr & (1u << 13)) == 0);  /* V: vectors at 0 */
    uint32_t slots = (mpuir >> 8) & 0xFFu;
    EXPECT(slots >= axl__fw_region_count);
    for (uint32_t i = 0; i < slots; i++) {
        uint32_t base, size, access;
        __asm__ __volatile__("mcr p15, 0, %0, c6, c2, 0" ::"r"(i));
        __asm__ __volatile__("isb");
        __asm__ __volatile__("mrc p15, 0, %0, c6, c1, 0" : "=r"(base));
        __asm__ __volatile__("mrc p15, 0, %0, c6, c1, 2" : "=r"(size));
        __asm__ __volatile__("mrc p15, 0, %0, c6, c1, 4" : "=r"(access));
        if (i >= axl__fw_region_count) {
            EXPECT((size & 1u) == 0);
            continue;
        }
        const axl__fw_region *r = &axl__fw_regions[i];
        uint32_t want_size = ((r->size_log2 - 1u) << 1) | 1u;
        if (!EXPECT(base == r->base && size == want_size &&
                    access == r->access))
            axl_fw_printf("fw: MPU region %u: base 0x%08lx size 0x%lx access "
                          "0x%lx\n",
                          (unsigned)i, (unsigned long)base,
                          (unsigned long)size, (unsigned long)access);
    }
    /* .data as the image has it, .bss zero (the start-up code's copy and
     * clear). */
    static uint32_t initialised = 0x5A5A1234u, zeroed;
    EXPECT(initialised == 0x5A5A1234u && zeroed == 0);
    axl_fw_printf("fw: MPU on, %u of %u regions, caches on\n",
                  (unsigned)axl__fw_region_count, (unsigned)slots);
}

int main(void)
{
    axl_fw_puts("fw: axl test firmware (" AXL_FW_BOARD ")\n");
    check_memory_map();
    axl_log_set(AXL_LOG_INFO, fw_log_line, NULL);
    OK(axl_init());
    axl_log_set(AXL_LOG_OFF, NULL, NULL);
    EXPECT(log_lines >= 1 || !AXL_LOGS); /* the device found */
    if (AXL_TRACE_EVENTS)
        OK(axl_trace_enable(true));
    else
        EXPECT(axl_trace_enable(true) == AXL_ERR_FEATURE_NOT_SUPPORTED);
    axl_device dev = find_emulated_device();
    if (!AXL_IS_NONE(dev)) {
        run_pipeline(dev);
        if (AXL_TRACE_EVENTS)
            drain_trace();
        fill_event_pool();
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
