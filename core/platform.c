/*
 * platform.c - platforms (spec 4.6.2): one per device port.
 */
#include "rt.h"
#include "device_priv.h"

axl_status axl_platform_get_all(axl_platform *out, uint32_t cap,
                                uint32_t *count)
{
    static const char fn[] = "axl_platform_get_all";
    axl_status st = axl__enter_out(fn, AXL__OUT(count));
    if (st != AXL_SUCCESS)
        return st;
    const axl__pool *p = AXL__POOL(PLATFORM);
    uint32_t n = 0;
    for (uint16_t s = 0; s < p->capacity; s++)
        n += (uint32_t)axl__pool_is_live(p, s);
    st = axl__list_check(fn, n, out, cap, count);
    if (st == AXL_SUCCESS && out) {
        uint32_t i = 0;
        for (uint16_t s = 0; s < p->capacity; s++)
            if (axl__pool_is_live(p, s))
                out[i++].id = axl__pool_handle(p, axl__platform_at(s));
    }
    axl__leave();
    return st;
}

axl_status axl_platform_get_devices(axl_platform platform,
                                    axl_device_type type, axl_device *out,
                                    uint32_t cap, uint32_t *count)
{
    static const char fn[] = "axl_platform_get_devices";
    AXL__ENTER_OUT(platform, p, platform, count);
    if (!count)
        st = axl__null(fn, "count");
    else
        st = axl__list_devices(fn, p, type, out, cap, count);
    axl__leave();
    return st;
}

axl_status axl_platform_get_info(axl_platform platform,
                                 axl_platform_info param, void *value,
                                 size_t value_size, size_t *size_ret)
{
    static const char fn[] = "axl_platform_get_info";
    AXL__ENTER(platform, p, platform);
    const char *s = NULL;
    switch (param) {
    case AXL_PLATFORM_INFO_VERSION:
        s = p->port->platform_version;
        break;
    case AXL_PLATFORM_INFO_NAME:
        s = p->port->platform_name;
        break;
    case AXL_PLATFORM_INFO_VENDOR:
        s = p->port->platform_vendor;
        break;
    case AXL_PLATFORM_INFO_NO_DEVICE_REASON:
        s = p->device_count ? "" : p->no_device_reason;
        break;
    }
    if (s)
        st = axl__info_str(fn, s, value, value_size, size_ret);
    else
        st = axl__fail(fn, AXL_ERR_INVALID,
                       "%d is not a platform info descriptor", (int)param);
    axl__leave();
    return st;
}

axl_status axl_platform_get_backend(axl_platform platform,
                                    axl_backend *backend)
{
    static const char fn[] = "axl_platform_get_backend";
    AXL__ENTER_OUT(platform, p, platform, backend);
    *backend = p->port->backend;
    axl__leave();
    return st;
}

axl_status axl_platform_has(axl_platform platform, axl_aspect aspect,
                            bool *has)
{
    static const char fn[] = "axl_platform_has";
    AXL__ENTER_OUT(platform, p, platform, has);
    if ((unsigned)aspect >= AXL_ASPECT_COUNT)
        st = axl__fail(fn, AXL_ERR_INVALID, "%d is not an aspect", (int)aspect);
    else {
        /* 4.6.2.1: true when all devices of the platform have it. */
        bool all = true;
        const axl__pool *dp = AXL__POOL(DEVICE);
        uint16_t want = AXL__SLOT(PLATFORM, p);
        for (uint16_t s = 0; s < dp->capacity; s++)
            if (axl__pool_is_live(dp, s) &&
                axl__device_at(s)->platform == want &&
                !axl__device_has(axl__device_at(s), aspect))
                all = false;
        *has = all;
    }
    axl__leave();
    return st;
}
