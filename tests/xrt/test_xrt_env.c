/*
 * What XRT 2.13 needs from the environment before its first device call.
 * XRT aborts the process (std::terminate from inside its C API) when
 * XILINX_XRT is unset or empty, when XCL_EMULATION_MODE names no shim, or
 * when $XILINX_XRT/lib/lib<shim>.so.2 is missing, not a file, or does not
 * load. The port checks all of that first: the XRT platform then lists no
 * device and says why, and the firmware lives on.
 *
 * XRT keeps what it learns from the environment for the life of the
 * process, so each case runs in its own process (one CTest test each):
 *
 * Usage: test_xrt_env CASE
 */
#include "../support/axl_reader_skip.h"
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "xrt_test.h"

static void mkdirs(const char *path)
{
    char p[512];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0755);
            *s = '/';
        }
    mkdir(p, 0755);
}

static const char *scratch(const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/env/%s", AXL_TEST_SCRATCH, name);
    mkdirs(path);
    return path;
}

/* Starts the runtime in the environment the case set up and checks the
 * XRT platform: `devices` devices, or none with `reason` in its reason. */
static void expect(uint32_t devices, const char *reason)
{
    xt_register();
    AXL_OK(axl_init());
    axl_platform p = xt_platform();
    uint32_t n = 99;
    AXL_OK(axl_platform_get_devices(p, AXL_DEVICE_TYPE_ALL, NULL, 0, &n));
    assert_int_equal(n, devices);
    char why[AXL_MESSAGE_MAX] = ""; /* a reason is at most a message */
    AXL_OK(axl_platform_get_info(p, AXL_PLATFORM_INFO_NO_DEVICE_REASON, why,
                                 sizeof why, NULL));
    print_message("reason: \"%s\"\n", why);
    if (reason)
        assert_non_null(strstr(why, reason));
    else
        assert_string_equal(why, "");
    /* The emulated device is unaffected. */
    axl_test_emu_device();
}

static void xilinx_xrt_unset(void **state)
{
    (void)state;
    unsetenv("XILINX_XRT");
    unsetenv("XCL_EMULATION_MODE");
    expect(0, "XILINX_XRT is not set: XRT 2.13 would abort");
}

static void xilinx_xrt_empty(void **state)
{
    (void)state;
    setenv("XILINX_XRT", "", 1);
    setenv("XCL_EMULATION_MODE", "noop", 1);
    expect(0, "XILINX_XRT is not set");
}

static void xilinx_xrt_wrong_folder(void **state)
{
    (void)state;
    setenv("XILINX_XRT", scratch("wrong"), 1);
    unsetenv("XCL_EMULATION_MODE");
    expect(0, "XRT would abort: no libxrt_core.so.2 (in ");
}

static void noop_shim_missing(void **state)
{
    (void)state;
    const char *root = scratch("missing");
    mkdirs(root);
    setenv("XILINX_XRT", root, 1);
    setenv("XCL_EMULATION_MODE", "noop", 1);
    expect(0, "XRT would abort: no libxrt_noop.so.2 (in ");
}

static void noop_shim_is_a_folder(void **state)
{
    (void)state;
    const char *root = scratch("folder");
    char lib[600];
    snprintf(lib, sizeof lib, "%s/lib/libxrt_noop.so.2", root);
    mkdirs(lib);
    setenv("XILINX_XRT", root, 1);
    setenv("XCL_EMULATION_MODE", "noop", 1);
    expect(0, "XRT would abort: libxrt_noop.so.2 is not a file (in ");
}

static void noop_shim_is_not_a_library(void **state)
{
    (void)state;
    const char *root = scratch("text");
    char lib[600];
    snprintf(lib, sizeof lib, "%s/lib", root);
    mkdirs(lib);
    snprintf(lib, sizeof lib, "%s/lib/libxrt_noop.so.2", root);
    FILE *f = fopen(lib, "w");
    assert_non_null(f);
    fputs("not a shared object\n", f);
    fclose(f);
    setenv("XILINX_XRT", root, 1);
    setenv("XCL_EMULATION_MODE", "noop", 1);
    expect(0, "libxrt_noop.so.2 does not load: "); /* then dlerror */
}

static void emulation_mode_unknown(void **state)
{
    (void)state;
    setenv("XILINX_XRT", AXL_TEST_NOOP_ROOT, 1);
    setenv("XCL_EMULATION_MODE", "bogus", 1);
    expect(0, "XCL_EMULATION_MODE='bogus' is not sw_emu, hw_emu or noop");
}

static void emulation_mode_empty(void **state)
{
    (void)state;
    setenv("XILINX_XRT", AXL_TEST_NOOP_ROOT, 1);
    setenv("XCL_EMULATION_MODE", "", 1);
    expect(0, "XCL_EMULATION_MODE='' is not");
}

static void noop_shim_present(void **state)
{
    (void)state;
    setenv("XILINX_XRT", AXL_TEST_NOOP_ROOT, 1);
    setenv("XCL_EMULATION_MODE", "noop", 1);
    expect(1, NULL);
}

/* A program that links libxrt_core (as Debian's xrt.pc asks) has XRT's
 * system before axl looks: XRT then ignores the environment, and so does
 * the port (loading the noop shim beside it would make XRT throw from a
 * static constructor and end the process). */
static void xrt_core_already_loaded(void **state)
{
    (void)state;
    void *core = dlopen(AXL_TEST_XRT_CORE, RTLD_NOW | RTLD_GLOBAL);
    assert_non_null(core);
    setenv("XILINX_XRT", AXL_TEST_NOOP_ROOT, 1);
    setenv("XCL_EMULATION_MODE", "noop", 1);
    xt_register();
    AXL_OK(axl_init());
    axl_platform p = xt_platform();
    uint32_t n = 0;
    AXL_OK(axl_platform_get_devices(p, AXL_DEVICE_TYPE_ALL, NULL, 0, &n));
    char why[AXL_MESSAGE_MAX] = ""; /* a reason is at most a message */
    AXL_OK(axl_platform_get_info(p, AXL_PLATFORM_INFO_NO_DEVICE_REASON, why,
                                 sizeof why, NULL));
    print_message("%u devices, reason: \"%s\"\n", (unsigned)n, why);
    if (n == 0) /* no card here: the real driver's answer, not noop's */
        assert_non_null(strstr(why, "XRT (libxrt_core.so.2) found no device"));
}

/* The reason for all of the above: XRT itself, asked for a device without
 * XILINX_XRT, ends the process with SIGABRT. */
static void xrt_aborts(void **state)
{
    (void)state;
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        unsetenv("XILINX_XRT");
        unsetenv("XCL_EMULATION_MODE");
        xrtDeviceHandle h = xrtDeviceOpen(0);
        _exit(h ? 3 : 4); /* XRT returned: it no longer aborts */
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFSIGNALED(status))
        fail_msg("XRT returned (exit %d) instead of aborting: the port's "
                 "environment check may be stricter than XRT now",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    assert_int_equal(WTERMSIG(status), SIGABRT);
}

int main(int argc, char **argv)
{
    if (axl_test_without_reader())
        return 0;
    if (argc < 2) {
        fprintf(stderr, "usage: %s CASE\n", argv[0]);
        return 2;
    }
    const struct CMUnitTest tests[] = {
        XT_TEST(xilinx_xrt_unset),
        XT_TEST(xilinx_xrt_empty),
        XT_TEST(xilinx_xrt_wrong_folder),
        XT_TEST(noop_shim_missing),
        XT_TEST(noop_shim_is_a_folder),
        XT_TEST(noop_shim_is_not_a_library),
        XT_TEST(emulation_mode_unknown),
        XT_TEST(emulation_mode_empty),
        XT_TEST(noop_shim_present),
        XT_TEST(xrt_core_already_loaded),
        cmocka_unit_test(xrt_aborts),
    };
    cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests_name(argv[1], tests, NULL, NULL);
}
