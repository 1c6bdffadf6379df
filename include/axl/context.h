/*
 * axl/context.h - contexts (spec 4.6.3).
 *
 * A context groups devices of one platform. Its async handler receives the
 * asynchronous errors of queues that have no handler of their own.
 */
#ifndef AXL_CONTEXT_H
#define AXL_CONTEXT_H

#include "axl/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** info::context descriptors (spec 4.6.3.2). */
typedef enum axl_context_info {
    AXL_CONTEXT_INFO_PLATFORM = 0, /**< axl_platform */
    AXL_CONTEXT_INFO_DEVICES = 1   /**< axl_device[] */
} axl_context_info;

/**
 * context(deviceList, asyncHandler). The devices must be valid, distinct
 * after duplicates are dropped, at most AXL_MAX_CONTEXT_DEVICES, and all of
 * one platform (else AXL_ERR_INVALID). handler may be NULL.
 */
axl_status axl_context_create(const axl_device *devices, uint32_t count,
                              const axl_async_handler *handler,
                              axl_context *context);

/** Common reference semantics (4.5.2): a new reference / drop one. The
 *  last release frees the context once its queues are gone. 4.13.1.1: its
 *  async handler gets every unconsumed error that would reach it: those
 *  of its queues that have no handler of their own, and the late errors
 *  of its released queues (the handle is stale while the handler runs).
 *  Without a handler it is released all the same and returns the oldest
 *  error's status with a message counting them; its own go with it, its
 *  queues' stay with them. */
axl_status axl_context_retain(axl_context context);
axl_status axl_context_release(axl_context context);

axl_status axl_context_get_info(axl_context context, axl_context_info param,
                                void *value, size_t value_size,
                                size_t *size_ret);
axl_status axl_context_get_platform(axl_context context,
                                    axl_platform *platform);
axl_status axl_context_get_devices(axl_context context, axl_device *out,
                                   uint32_t cap, uint32_t *count);

#ifdef __cplusplus
}
#endif

#endif /* AXL_CONTEXT_H */
