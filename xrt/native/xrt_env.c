/*
 * xrt_env.c - what XRT 2.13 needs from the environment before its first
 * device call, checked without letting XRT see a failure.
 *
 * libxrt_coreutil loads its shim on first use (core/common/system.cpp
 * load_shim, core/common/module_loader.cpp shim_path): the shim is
 * $XILINX_XRT/lib/lib<name>.so.<major>, where <name> comes from
 * XCL_EMULATION_MODE (unset: xrt_core; sw_emu: xrt_swemu; hw_emu:
 * xrt_hwemu; noop: xrt_noop; anything else, even empty, is an error).
 * XILINX_XRT unset or empty is an error on x86 and means /usr on Arm. The
 * file must exist, be a regular file (after links) and dlopen with
 * RTLD_NOW | RTLD_GLOBAL.
 *
 * When any of that fails XRT throws std::runtime_error; the C API catches
 * it and reports it through its message layer, whose console logger asks
 * the (unloadable) shim for the host name, throws again inside the catch
 * handler, and the exception leaves a C function: std::terminate, SIGABRT.
 * So this file repeats the checks and, when they pass, loads the shim
 * exactly as XRT would, so XRT finds it loaded and its own load cannot
 * fail afterwards. A shim already in the process wins, as it does for XRT
 * (its system object exists, so XRT loads nothing).
 *
 * Not followed: xrt.ini's Runtime.hw_em_driver / sw_em_driver overrides
 * of the emulation shim's name (axl checks the default name).
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "axl/runtime.h"
#include "xrt/version.h"
#include "xrt_native.h"

static axl__xrt_env loaded; /* set once a shim is loaded: XRT's choice too */
static int have_loaded;

/* dlsym into a function pointer without the object/function pointer cast
 * ISO C does not define. */
static void *symbol(void *lib, const char *name)
{
    dlerror();
    return dlsym(lib, name);
}

/* The shims by soname, in XRT's order of modes. */
static const struct {
    axl__xrt_mode mode;
    const char *name;
} shims[] = {{AXL__XRT_HW, "xrt_core"},
             {AXL__XRT_SW_EMU, "xrt_swemu"},
             {AXL__XRT_HW_EMU, "xrt_hwemu"},
             {AXL__XRT_NOOP, "xrt_noop"}};

static void find_symbols(axl__xrt_env *env)
{
    void *p = symbol(env->shim, "xclProbe");
    if (p)
        memcpy(&env->probe, &p, sizeof p);
    p = symbol(env->shim, "xclGetDeviceInfo2");
    if (p)
        memcpy(&env->device_info, &p, sizeof p);
}

int axl__xrt_env_check(axl__xrt_env *env, char *why, size_t why_size)
{
    if (have_loaded) {
        *env = loaded;
        return 0;
    }
    memset(env, 0, sizeof *env);

    /* A shim already in the process (the program links libxrt_core, as
     * Debian's xrt.pc asks, or used XRT first) is XRT's system: XRT then
     * never looks at the environment, and loading a second shim would make
     * XRT throw from a static constructor ("Multiple instances of XRT core
     * shim library detected", core/common/system.cpp). */
    for (size_t i = 0; i < sizeof shims / sizeof shims[0]; i++) {
        char so[32];
        axl_format(so, sizeof so, "lib%s.so.%u", shims[i].name,
                   (unsigned)XRT_MAJOR(XRT_VERSION_CODE));
        void *h = dlopen(so, RTLD_NOW | RTLD_NOLOAD);
        if (!h)
            continue;
        env->mode = shims[i].mode;
        env->shim = h;
        axl_format(env->shim_name, sizeof env->shim_name, "%s", so);
        axl_format(env->shim_path, sizeof env->shim_path, "%s", so);
        find_symbols(env);
        loaded = *env;
        have_loaded = 1;
        return 0;
    }

    const char *root = getenv("XILINX_XRT");
    if (!root || !root[0]) {
#if defined(__aarch64__) || defined(__arm__)
        root = "/usr";
#else
        axl_format(why, why_size,
                   "XILINX_XRT is not set: XRT 2.13 would abort the process");
        return -1;
#endif
    }

    const char *mode = getenv("XCL_EMULATION_MODE");
    const char *name;
    if (!mode) {
        env->mode = AXL__XRT_HW;
        name = "xrt_core";
    } else if (!strcmp(mode, "sw_emu")) {
        env->mode = AXL__XRT_SW_EMU;
        name = "xrt_swemu";
    } else if (!strcmp(mode, "hw_emu")) {
        env->mode = AXL__XRT_HW_EMU;
        name = "xrt_hwemu";
    } else if (!strcmp(mode, "noop")) {
        env->mode = AXL__XRT_NOOP;
        name = "xrt_noop";
    } else {
        axl_format(why, why_size,
                   "XCL_EMULATION_MODE='%s' is not sw_emu, hw_emu or noop: "
                   "XRT would abort",
                   mode);
        return -1;
    }

    size_t n = strlen(root);
    const char *sep = n && root[n - 1] == '/' ? "" : "/";
    size_t need = axl_format(env->shim_path, sizeof env->shim_path,
                             "%s%slib/lib%s.so.%u", root, sep, name,
                             (unsigned)XRT_MAJOR(XRT_VERSION_CODE));
    if (need >= sizeof env->shim_path) {
        axl_format(why, why_size, "XILINX_XRT is too long (%zu bytes)", n);
        return -1;
    }
    axl_format(env->shim_name, sizeof env->shim_name, "lib%s.so.%u", name,
               (unsigned)XRT_MAJOR(XRT_VERSION_CODE));

    /* The folder after the cause, shortened in the middle: a deep
     * XILINX_XRT leaves the reason whole. */
    char shown[64];
    axl_shorten(shown, sizeof shown, root);
    struct stat st;
    if (stat(env->shim_path, &st) != 0) {
        axl_format(why, why_size, "XRT would abort: no %s (in %s/lib)",
                   env->shim_name, shown);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        axl_format(why, why_size,
                   "XRT would abort: %s is not a file (in %s/lib)",
                   env->shim_name, shown);
        return -1;
    }

    env->shim = dlopen(env->shim_path, RTLD_NOW | RTLD_GLOBAL);
    if (!env->shim) {
        const char *e = dlerror();
        size_t n = strlen(env->shim_path);
        if (e && !strncmp(e, env->shim_path, n) && !strncmp(e + n, ": ", 2))
            e += n + 2; /* dlerror starts with the path; keep the why */
        axl_format(why, why_size, "XRT would abort: %s does not load: %s",
                   env->shim_name, e ? e : "dlopen failed");
        return -1;
    }
    /* The shim stays loaded for the process, as XRT keeps it. */
    find_symbols(env);
    loaded = *env;
    have_loaded = 1;
    return 0;
}
