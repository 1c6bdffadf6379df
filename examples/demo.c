/*
 * demo - what axl sees and a first pipeline on it.
 *
 * Lists every platform and device with the information a firmware engineer
 * checks first, then runs a few host tasks with dependencies on a profiling
 * queue and prints their timeline. Build and run with the README's first
 * command; it runs on the emulated device anywhere.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "axl/axl.h"

#define CHECK(call)                                                            \
    do {                                                                       \
        axl_status st_ = (call);                                               \
        if (st_ != AXL_SUCCESS) {                                              \
            fprintf(stderr, "%s:%d: %s: %s\n  %s\n", __FILE__, __LINE__,       \
                    #call, axl_status_name(st_), axl_last_message());          \
            return 1;                                                          \
        }                                                                      \
    } while (0)

static const char *aspect_name(axl_aspect a)
{
    static const char *names[AXL_ASPECT_COUNT] = {
        "cpu", "gpu", "accelerator", "custom", "emulated", "host_debuggable",
        "fp16", "fp64", "atomic64", "image", "online_compiler",
        "online_linker", "queue_profiling", "usm_device_allocations",
        "usm_host_allocations", "usm_atomic_host_allocations",
        "usm_shared_allocations", "usm_atomic_shared_allocations",
        "usm_system_allocations"};
    return (unsigned)a < AXL_ASPECT_COUNT ? names[a] : "?";
}

static int print_device(axl_device d)
{
    char name[64], vendor[32], driver[32];
    uint32_t cus, align, banks;
    uint64_t global, max_alloc, res;
    axl_aspect aspects[AXL_ASPECT_COUNT];
    size_t asize;
    CHECK(axl_device_get_info(d, AXL_DEVICE_INFO_NAME, name, sizeof name, NULL));
    CHECK(axl_device_get_info(d, AXL_DEVICE_INFO_VENDOR, vendor, sizeof vendor,
                              NULL));
    CHECK(axl_device_get_info(d, AXL_DEVICE_INFO_DRIVER_VERSION, driver,
                              sizeof driver, NULL));
    CHECK(axl_device_get_info(d, AXL_DEVICE_INFO_MAX_COMPUTE_UNITS, &cus,
                              sizeof cus, NULL));
    CHECK(axl_device_get_info(d, AXL_DEVICE_INFO_GLOBAL_MEM_SIZE, &global,
                              sizeof global, NULL));
    CHECK(axl_device_get_info(d, AXL_DEVICE_INFO_MAX_MEM_ALLOC_SIZE,
                              &max_alloc, sizeof max_alloc, NULL));
    CHECK(axl_device_get_info(d, AXL_DEVICE_INFO_MEM_BASE_ADDR_ALIGN, &align,
                              sizeof align, NULL));
    CHECK(axl_device_get_info(d, AXL_DEVICE_INFO_PROFILING_TIMER_RESOLUTION,
                              &res, sizeof res, NULL));
    CHECK(axl_device_get_info(d, AXL_DEVICE_INFO_MEMORY_BANKS, &banks,
                              sizeof banks, NULL));
    CHECK(axl_device_get_info(d, AXL_DEVICE_INFO_ASPECTS, aspects,
                              sizeof aspects, &asize));
    printf("  device: %s\n", name);
    printf("    vendor            %s (driver %s)\n", vendor, driver);
    printf("    compute units     %u\n", (unsigned)cus);
    printf("    global memory     %llu MiB in %u bank(s), largest allocation "
           "%llu MiB\n",
           (unsigned long long)(global >> 20), (unsigned)banks,
           (unsigned long long)(max_alloc >> 20));
    for (uint32_t i = 0; i < banks; i++) {
        axl_device_bank b;
        CHECK(axl_device_get_bank(d, i, &b));
        printf("      bank %u  %-8s %6llu MiB at 0x%llx\n", (unsigned)i, b.tag,
               (unsigned long long)(b.size >> 20),
               (unsigned long long)b.base_address);
    }
    printf("    base alignment    %u bits\n", (unsigned)align);
    printf("    timer resolution  %llu ns\n", (unsigned long long)res);
    printf("    aspects          ");
    for (size_t i = 0; i < asize / sizeof aspects[0]; i++)
        printf(" %s", aspect_name(aspects[i]));
    printf("\n");
    return 0;
}

static int list_everything(void)
{
    axl_platform plats[8];
    uint32_t np;
    CHECK(axl_platform_get_all(plats, 8, &np));
    for (uint32_t p = 0; p < np; p++) {
        char name[64], vendor[64], version[64], why[128];
        CHECK(axl_platform_get_info(plats[p], AXL_PLATFORM_INFO_NAME, name,
                                    sizeof name, NULL));
        CHECK(axl_platform_get_info(plats[p], AXL_PLATFORM_INFO_VENDOR, vendor,
                                    sizeof vendor, NULL));
        CHECK(axl_platform_get_info(plats[p], AXL_PLATFORM_INFO_VERSION,
                                    version, sizeof version, NULL));
        printf("platform %u: %s (%s, %s)\n", (unsigned)p, name, vendor,
               version);
        axl_device devs[8];
        uint32_t nd;
        CHECK(axl_platform_get_devices(plats[p], AXL_DEVICE_TYPE_ALL, devs, 8,
                                       &nd));
        if (nd == 0) {
            CHECK(axl_platform_get_info(plats[p],
                                        AXL_PLATFORM_INFO_NO_DEVICE_REASON,
                                        why, sizeof why, NULL));
            printf("  no device: %s\n", why);
        }
        for (uint32_t d = 0; d < nd; d++)
            if (print_device(devs[d]))
                return 1;
    }
    return 0;
}

/* ---- A small pipeline of host tasks -------------------------------------- */

enum { SAMPLES = 4096 };
static int16_t raw[SAMPLES];
static int32_t energy_left, energy_right;
static int32_t total;

static void busy_ms(int ms)
{
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

static axl_status acquire(void *user)
{
    (void)user;
    for (int i = 0; i < SAMPLES; i++)
        raw[i] = (int16_t)((i * 37) % 2001 - 1000);
    busy_ms(2);
    return AXL_SUCCESS;
}

static axl_status energy(void *user)
{
    int32_t *out = user;
    int half = out == &energy_left ? 0 : SAMPLES / 2;
    int64_t e = 0;
    for (int i = half; i < half + SAMPLES / 2; i++)
        e += raw[i] < 0 ? -raw[i] : raw[i];
    *out = (int32_t)(e / (SAMPLES / 2));
    busy_ms(3);
    return AXL_SUCCESS;
}

static axl_status combine(void *user)
{
    (void)user;
    total = energy_left + energy_right;
    busy_ms(1);
    return AXL_SUCCESS;
}

int main(void)
{
    printf("== axl: platforms and devices ==\n");
    if (list_everything())
        return 1;

    printf("\n== host tasks on a profiling queue ==\n");
    axl_queue q;
    CHECK(axl_queue_create_selected(axl_default_selector, NULL,
                                    AXL_QUEUE_ENABLE_PROFILING, NULL, &q));
    /* acquire -> (left, right in parallel) -> combine */
    axl_event ev[4];
    CHECK(axl_queue_host_task(q, acquire, NULL, NULL, 0, &ev[0]));
    CHECK(axl_queue_host_task(q, energy, &energy_left, &ev[0], 1, &ev[1]));
    CHECK(axl_queue_host_task(q, energy, &energy_right, &ev[0], 1, &ev[2]));
    CHECK(axl_queue_host_task(q, combine, NULL, &ev[1], 2, &ev[3]));
    CHECK(axl_queue_wait_and_throw(q));

    static const char *names[4] = {"acquire", "energy left", "energy right",
                                   "combine"};
    uint64_t t0 = 0;
    printf("  %-14s %10s %10s %10s   (us from first submit)\n", "command",
           "submit", "start", "end");
    for (int i = 0; i < 4; i++) {
        uint64_t s, b, e;
        CHECK(axl_event_get_profiling(ev[i], AXL_PROFILING_COMMAND_SUBMIT, &s));
        CHECK(axl_event_get_profiling(ev[i], AXL_PROFILING_COMMAND_START, &b));
        CHECK(axl_event_get_profiling(ev[i], AXL_PROFILING_COMMAND_END, &e));
        if (i == 0)
            t0 = s;
        printf("  %-14s %10.1f %10.1f %10.1f\n", names[i], (s - t0) / 1e3,
               (b - t0) / 1e3, (e - t0) / 1e3);
    }
    int32_t expect_left = 0, expect_right = 0;
    {
        int64_t l = 0, r = 0;
        for (int i = 0; i < SAMPLES; i++) {
            int v = (i * 37) % 2001 - 1000;
            *(i < SAMPLES / 2 ? &l : &r) += v < 0 ? -v : v;
        }
        expect_left = (int32_t)(l / (SAMPLES / 2));
        expect_right = (int32_t)(r / (SAMPLES / 2));
    }
    int ok = total == expect_left + expect_right;
    printf("  result %d (host check %d): %s\n", (int)total,
           (int)(expect_left + expect_right), ok ? "ok" : "MISMATCH");
    for (int i = 0; i < 4; i++)
        CHECK(axl_event_release(ev[i]));
    CHECK(axl_queue_release(q));
    CHECK(axl_shutdown());
    return ok ? 0 : 1;
}
