/*
 * axl-ls - what axl sees on this machine, like sycl-ls or clinfo: every
 * platform (and why one has no device), every device with the information
 * a firmware engineer checks first, its memory banks, and the built-in
 * kernels of the design it carries, argument by argument.
 *
 *   axl-ls        the full listing
 *   axl-ls -s     one line per device
 *   axl-ls --json the full listing as one JSON object, for scripts (its
 *                 fields are in docs/tools.md, "axl-ls --json")
 *   axl-ls --build [--json]
 *                 what the library was built as: its board, OS port,
 *                 device ports and every setting as compiled in (an
 *                 installed package's capacities), without opening a
 *                 device
 *
 * Exit 0 when at least one device is found, 1 otherwise.
 */
#include <stdio.h>
#include <string.h>

#include "axl/axl.h"
#include "axl/xclbin.h"

static const char *aspect_names[AXL_ASPECT_COUNT] = {
    "cpu", "gpu", "accelerator", "custom", "emulated", "host_debuggable",
    "fp16", "fp64", "atomic64", "image", "online_compiler", "online_linker",
    "queue_profiling", "usm_device_allocations", "usm_host_allocations",
    "usm_atomic_host_allocations", "usm_shared_allocations",
    "usm_atomic_shared_allocations", "usm_system_allocations"};

static void str_info(axl_device d, axl_device_info what, char *buf, size_t n)
{
    if (axl_device_get_info(d, what, buf, n, NULL) != AXL_SUCCESS)
        snprintf(buf, n, "(%s)", axl_last_message());
}

static uint64_t u64_info(axl_device d, axl_device_info what)
{
    uint64_t v = 0;
    axl_device_get_info(d, what, &v, sizeof v, NULL);
    return v;
}

static uint32_t u32_info(axl_device d, axl_device_info what)
{
    uint32_t v = 0;
    axl_device_get_info(d, what, &v, sizeof v, NULL);
    return v;
}

static const char *kind_name(axl_arg_kind kind)
{
    return kind == AXL_ARG_BUFFER   ? "buffer"
           : kind == AXL_ARG_STREAM ? "stream"
                                    : "scalar";
}

static void print_kernels(axl_device d)
{
    axl_kernel_id ids[64];
    size_t size = 0;
    if (axl_device_get_info(d, AXL_DEVICE_INFO_BUILT_IN_KERNEL_IDS, ids,
                            sizeof ids, &size) != AXL_SUCCESS) {
        printf("    built-in kernels  (%s)\n", axl_last_message());
        return;
    }
    size_t n = size / sizeof ids[0];
    printf("    built-in kernels  %zu\n", n);
    if (!n)
        return;
    axl_context ctx;
    axl_kernel_bundle b;
    if (axl_context_create(&d, 1, NULL, &ctx) != AXL_SUCCESS)
        return;
    if (axl_get_kernel_bundle_for(ctx, NULL, 0, ids, (uint32_t)n,
                                  AXL_BUNDLE_EXECUTABLE, &b) == AXL_SUCCESS) {
        for (size_t i = 0; i < n; i++) {
            axl_kernel k;
            axl_kernel_info ki;
            if (axl_kernel_bundle_get_kernel(b, ids[i], &k) != AXL_SUCCESS)
                continue;
            axl_kernel_get_info(k, &ki);
            /* A free-running kernel is never launched: say so. */
            printf("      %s (%u compute unit%s%s)(", ki.name,
                   (unsigned)ki.compute_units, ki.compute_units == 1 ? "" : "s",
                   ki.control == AXL_XCLBIN_AP_CTRL_NONE
                       ? ", ap_ctrl_none: free-running"
                       : "");
            for (uint32_t a = 0; a < ki.num_args; a++) {
                axl_kernel_arg_info ai;
                axl_kernel_get_arg_info(k, a, &ai);
                printf("%s%u:%s %s", a ? ", " : "", (unsigned)ai.index, ai.name,
                       kind_name(ai.kind));
                if (ai.kind == AXL_ARG_SCALAR)
                    printf("[%u]", (unsigned)ai.size);
            }
            printf(")\n");
            axl_kernel_release(k);
        }
        axl_kernel_bundle_release(b);
    }
    axl_context_release(ctx);
}

/* ---- JSON ------------------------------------------------------------------ */

static void json_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static void json_kernels(axl_device d)
{
    axl_kernel_id ids[64];
    size_t size = 0;
    printf(",\"built_in_kernels\":[");
    if (axl_device_get_info(d, AXL_DEVICE_INFO_BUILT_IN_KERNEL_IDS, ids,
                            sizeof ids, &size) != AXL_SUCCESS || !size) {
        printf("]");
        return;
    }
    size_t n = size / sizeof ids[0];
    axl_context ctx;
    axl_kernel_bundle b;
    if (axl_context_create(&d, 1, NULL, &ctx) != AXL_SUCCESS) {
        printf("]");
        return;
    }
    if (axl_get_kernel_bundle_for(ctx, NULL, 0, ids, (uint32_t)n,
                                  AXL_BUNDLE_EXECUTABLE, &b) == AXL_SUCCESS) {
        int first = 1;
        for (size_t i = 0; i < n; i++) {
            axl_kernel k;
            axl_kernel_info ki;
            if (axl_kernel_bundle_get_kernel(b, ids[i], &k) != AXL_SUCCESS)
                continue;
            axl_kernel_get_info(k, &ki);
            printf("%s{\"name\":", first ? "" : ",");
            first = 0;
            json_str(ki.name);
            printf(",\"compute_units\":%u,\"control\":\"%s\",\"args\":[",
                   (unsigned)ki.compute_units,
                   axl_xclbin_control_name(ki.control));
            for (uint32_t a = 0; a < ki.num_args; a++) {
                axl_kernel_arg_info ai;
                axl_kernel_get_arg_info(k, a, &ai);
                printf("%s{\"index\":%u,\"name\":", a ? "," : "",
                       (unsigned)ai.index);
                json_str(ai.name);
                if (ai.kind != AXL_ARG_SCALAR)
                    printf(",\"kind\":\"%s\"}", kind_name(ai.kind));
                else
                    printf(",\"kind\":\"scalar\",\"size\":%u}",
                           (unsigned)ai.size);
            }
            printf("]}");
            axl_kernel_release(k);
        }
        axl_kernel_bundle_release(b);
    }
    axl_context_release(ctx);
    printf("]");
}

static void json_device(axl_device d, int index)
{
    char name[128], vendor[64], driver[64], backend[64];
    str_info(d, AXL_DEVICE_INFO_NAME, name, sizeof name);
    str_info(d, AXL_DEVICE_INFO_VENDOR, vendor, sizeof vendor);
    str_info(d, AXL_DEVICE_INFO_DRIVER_VERSION, driver, sizeof driver);
    str_info(d, AXL_DEVICE_INFO_BACKEND_VERSION, backend, sizeof backend);
    printf("{\"index\":%d,\"name\":", index);
    json_str(name);
    printf(",\"vendor\":");
    json_str(vendor);
    printf(",\"vendor_id\":%u,\"driver_version\":",
           (unsigned)u32_info(d, AXL_DEVICE_INFO_VENDOR_ID));
    json_str(driver);
    printf(",\"backend_version\":");
    json_str(backend);
    printf(",\"compute_units\":%u,\"clock_mhz\":%u,"
           "\"global_mem_bytes\":%llu,\"max_alloc_bytes\":%llu",
           (unsigned)u32_info(d, AXL_DEVICE_INFO_MAX_COMPUTE_UNITS),
           (unsigned)u32_info(d, AXL_DEVICE_INFO_MAX_CLOCK_FREQUENCY),
           (unsigned long long)u64_info(d, AXL_DEVICE_INFO_GLOBAL_MEM_SIZE),
           (unsigned long long)u64_info(d, AXL_DEVICE_INFO_MAX_MEM_ALLOC_SIZE));
    printf(",\"banks\":[");
    uint32_t banks = u32_info(d, AXL_DEVICE_INFO_MEMORY_BANKS);
    for (uint32_t b = 0, first = 1; b < banks; b++) {
        axl_device_bank bank;
        if (axl_device_get_bank(d, b, &bank) != AXL_SUCCESS)
            continue;
        printf("%s{\"index\":%u,\"tag\":", first ? "" : ",", (unsigned)b);
        first = 0;
        json_str(bank.tag);
        printf(",\"size_bytes\":%llu,\"base_address\":%llu}",
               (unsigned long long)bank.size,
               (unsigned long long)bank.base_address);
    }
    printf("],\"base_align_bits\":%u,\"timer_resolution_ns\":%llu",
           (unsigned)u32_info(d, AXL_DEVICE_INFO_MEM_BASE_ADDR_ALIGN),
           (unsigned long long)u64_info(
               d, AXL_DEVICE_INFO_PROFILING_TIMER_RESOLUTION));
    axl_aspect aspects[AXL_ASPECT_COUNT];
    size_t size = 0;
    axl_device_get_info(d, AXL_DEVICE_INFO_ASPECTS, aspects, sizeof aspects,
                        &size);
    printf(",\"aspects\":[");
    for (size_t i = 0; i < size / sizeof aspects[0]; i++)
        printf("%s\"%s\"", i ? "," : "", aspect_names[aspects[i]]);
    bool can = false;
    axl_device_can_compile(d, AXL_SOURCE_XCLBIN, &can);
    printf("],\"loads_xclbin\":%s", can ? "true" : "false");
    json_kernels(d);
    printf("}");
}

/* ---- Text ------------------------------------------------------------------ */

static void print_device(axl_device d, int index, int short_form)
{
    char name[128], vendor[64], driver[64], backend[64];
    str_info(d, AXL_DEVICE_INFO_NAME, name, sizeof name);
    if (short_form) {
        bool emu = false;
        axl_device_has(d, AXL_ASPECT_EMULATED, &emu);
        printf("  [%d] %s%s\n", index, name, emu ? " (emulated)" : "");
        return;
    }
    str_info(d, AXL_DEVICE_INFO_VENDOR, vendor, sizeof vendor);
    str_info(d, AXL_DEVICE_INFO_DRIVER_VERSION, driver, sizeof driver);
    str_info(d, AXL_DEVICE_INFO_BACKEND_VERSION, backend, sizeof backend);
    printf("  device %d: %s\n", index, name);
    printf("    vendor            %s (id 0x%x)\n", vendor,
           (unsigned)u32_info(d, AXL_DEVICE_INFO_VENDOR_ID));
    printf("    driver            %s; backend %s\n", driver, backend);
    printf("    compute units     %u\n",
           (unsigned)u32_info(d, AXL_DEVICE_INFO_MAX_COMPUTE_UNITS));
    printf("    clock             %u MHz\n",
           (unsigned)u32_info(d, AXL_DEVICE_INFO_MAX_CLOCK_FREQUENCY));
    printf("    global memory     %llu MiB; largest allocation %llu MiB\n",
           (unsigned long long)(u64_info(d, AXL_DEVICE_INFO_GLOBAL_MEM_SIZE) >> 20),
           (unsigned long long)(u64_info(d, AXL_DEVICE_INFO_MAX_MEM_ALLOC_SIZE) >>
                                20));
    uint32_t banks = u32_info(d, AXL_DEVICE_INFO_MEMORY_BANKS);
    for (uint32_t b = 0; b < banks; b++) {
        axl_device_bank bank;
        if (axl_device_get_bank(d, b, &bank) == AXL_SUCCESS)
            printf("      bank %u  %-10s %8llu KiB at 0x%llx\n", (unsigned)b,
                   bank.tag, (unsigned long long)(bank.size >> 10),
                   (unsigned long long)bank.base_address);
    }
    printf("    base alignment    %u bits\n",
           (unsigned)u32_info(d, AXL_DEVICE_INFO_MEM_BASE_ADDR_ALIGN));
    printf("    timer resolution  %llu ns\n",
           (unsigned long long)u64_info(d, AXL_DEVICE_INFO_PROFILING_TIMER_RESOLUTION));
    axl_aspect aspects[AXL_ASPECT_COUNT];
    size_t size = 0;
    axl_device_get_info(d, AXL_DEVICE_INFO_ASPECTS, aspects, sizeof aspects,
                        &size);
    printf("    aspects          ");
    for (size_t i = 0; i < size / sizeof aspects[0]; i++)
        printf(" %s", aspect_names[aspects[i]]);
    printf("\n");
    bool can = false;
    axl_device_can_compile(d, AXL_SOURCE_XCLBIN, &can);
    printf("    loads xclbin      %s\n", can ? "yes" : "no");
    print_kernels(d);
}

/* axl-ls --build: the library's axl_build_info. */
static int print_build(int json)
{
    axl_build_info b;
    if (axl_build_info_get(&b) != AXL_SUCCESS) {
        fprintf(stderr, "axl-ls: %s\n", axl_last_message());
        return 1;
    }
    if (json) {
        printf("{\"format\":\"axl-ls-build\",\"version\":1,\"axl\":");
        json_str(b.version);
        printf(",\"board\":");
        json_str(b.board);
        printf(",\"os_port\":");
        json_str(b.os_port);
        printf(",\"device_ports\":[");
        const char *p = b.device_ports;
        for (int first = 1; *p;) {
            char port[32];
            size_t n = strcspn(p, " ");
            snprintf(port, sizeof port, "%.*s", (int)n, p);
            printf("%s", first ? "" : ",");
            json_str(port);
            first = 0;
            p += n;
            p += *p == ' ';
        }
        printf("],\"user_config\":");
        json_str(b.user_config);
        printf(",\"settings\":{");
        for (uint32_t i = 0; i < b.setting_count; i++) {
            printf("%s", i ? "," : "");
            json_str(b.settings[i].name);
            if (b.settings[i].text) {
                printf(":");
                json_str(b.settings[i].text);
            } else {
                printf(":%llu", (unsigned long long)b.settings[i].value);
            }
        }
        printf("}}\n");
        return 0;
    }
    printf("axl %s, built for board %s\n", b.version, b.board);
    printf("  OS port       %s\n", b.os_port);
    printf("  device ports  %s\n", b.device_ports);
    printf("  user config   %s\n", b.user_config[0] ? b.user_config : "(none)");
    printf("  given         %s\n", b.given[0] ? b.given : "(none)");
    printf("  settings      as compiled in; to change one, configure axl "
           "with -D<setting>=<value>\n");
    for (uint32_t i = 0; i < b.setting_count; i++) {
        if (b.settings[i].text)
            printf("    %-28s \"%s\"\n", b.settings[i].name,
                   b.settings[i].text);
        else
            printf("    %-28s %llu\n", b.settings[i].name,
                   (unsigned long long)b.settings[i].value);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--build") &&
        (argc == 2 || (argc == 3 && !strcmp(argv[2], "--json"))))
        return print_build(argc == 3);
    int short_form = argc == 2 && !strcmp(argv[1], "-s");
    int json = argc == 2 && !strcmp(argv[1], "--json");
    if (argc > 2 || (argc == 2 && !short_form && !json)) {
        fprintf(stderr, "usage: axl-ls [-s | --json | --build [--json]]\n");
        return 2;
    }
    axl_platform plats[16];
    uint32_t np = 0;
    if (axl_platform_get_all(plats, 16, &np) != AXL_SUCCESS) {
        fprintf(stderr, "axl-ls: %s\n", axl_last_message());
        return 1;
    }
    int devices = 0;
    if (json)
        printf("{\"format\":\"axl-ls\",\"version\":1,\"platforms\":[");
    for (uint32_t p = 0; p < np; p++) {
        char name[64], vendor[64], version[64];
        axl_platform_get_info(plats[p], AXL_PLATFORM_INFO_NAME, name,
                              sizeof name, NULL);
        axl_platform_get_info(plats[p], AXL_PLATFORM_INFO_VENDOR, vendor,
                              sizeof vendor, NULL);
        axl_platform_get_info(plats[p], AXL_PLATFORM_INFO_VERSION, version,
                              sizeof version, NULL);
        axl_device devs[16];
        uint32_t nd = 0;
        axl_platform_get_devices(plats[p], AXL_DEVICE_TYPE_ALL, devs, 16, &nd);
        if (json) {
            printf("%s{\"index\":%u,\"name\":", p ? "," : "", (unsigned)p);
            json_str(name);
            printf(",\"vendor\":");
            json_str(vendor);
            printf(",\"version\":");
            json_str(version);
            printf(",\"no_device_reason\":");
            if (nd == 0) {
                char why[128] = "";
                axl_platform_get_info(plats[p],
                                      AXL_PLATFORM_INFO_NO_DEVICE_REASON, why,
                                      sizeof why, NULL);
                json_str(why);
            } else {
                printf("null");
            }
            printf(",\"devices\":[");
            for (uint32_t d = 0; d < nd; d++) {
                if (d)
                    printf(",");
                json_device(devs[d], devices++);
            }
            printf("]}");
            continue;
        }
        printf("platform %u: %s (%s; %s)\n", (unsigned)p, name, vendor,
               version);
        if (nd == 0) {
            char why[128];
            axl_platform_get_info(plats[p], AXL_PLATFORM_INFO_NO_DEVICE_REASON,
                                  why, sizeof why, NULL);
            printf("  no device: %s\n", why);
        }
        for (uint32_t d = 0; d < nd; d++)
            print_device(devs[d], devices++, short_form);
    }
    if (json)
        printf("]}\n");
    axl_shutdown();
    return devices ? 0 : 1;
}
