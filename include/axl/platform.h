/*
 * axl/platform.h - platforms (spec 4.6.2).
 *
 * One platform per device port in the build ("axl emulation", "AMD XRT").
 * The set is fixed from start-up to axl_shutdown (4.6.2: "a fixed number of
 * platforms"); platforms and their devices need no release.
 *
 * Lists use one convention everywhere: pass out == NULL to learn the count;
 * otherwise cap must hold them all, or the call fails with AXL_ERR_INVALID
 * (setting *count to what is needed) and writes nothing.
 */
#ifndef AXL_PLATFORM_H
#define AXL_PLATFORM_H

#include "axl/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** info::platform descriptors (spec 4.6.2.2); all are strings. */
typedef enum axl_platform_info {
    AXL_PLATFORM_INFO_VERSION = 0,
    AXL_PLATFORM_INFO_NAME = 1,
    AXL_PLATFORM_INFO_VENDOR = 2,
    /** Why the platform has no devices ("" when it has some): XRT found
     *  no driver, say. An axl extension for axl-ls. */
    AXL_PLATFORM_INFO_NO_DEVICE_REASON = 3
} axl_platform_info;

/** platform::get_platforms(). */
axl_status axl_platform_get_all(axl_platform *out, uint32_t cap,
                                uint32_t *count);

/** platform::get_devices(type): AXL_DEVICE_TYPE_ALL for every device. */
axl_status axl_platform_get_devices(axl_platform platform,
                                    axl_device_type type, axl_device *out,
                                    uint32_t cap, uint32_t *count);

/**
 * platform::get_info. Strings are written NUL-terminated into value. With
 * value == NULL only *size_ret is set (bytes needed, including the NUL).
 * A value_size too small is AXL_ERR_INVALID, with *size_ret set and value
 * untouched. size_ret may be NULL.
 */
axl_status axl_platform_get_info(axl_platform platform,
                                 axl_platform_info param, void *value,
                                 size_t value_size, size_t *size_ret);

axl_status axl_platform_get_backend(axl_platform platform,
                                    axl_backend *backend);

/** platform::has(aspect): true when every device of the platform has it. */
axl_status axl_platform_has(axl_platform platform, axl_aspect aspect,
                            bool *has);

#ifdef __cplusplus
}
#endif

#endif /* AXL_PLATFORM_H */
