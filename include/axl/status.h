/*
 * axl/status.h - the one status type every axl call returns.
 *
 * Each failure is one of SYCL 2020's errc values (spec 4.13.2, listed in
 * DESIGN.md), plus three axl codes that keep apart what errc folds together:
 * "no such object" (a stale, destroyed or never-created handle), "pool full"
 * and "wrong state". axl_status_errc() maps every status to its errc, so a
 * C++ wrapper can throw exactly what SYCL would.
 *
 * A failing call also leaves a message for the calling thread (or, on bare
 * metal, the calling context); read it with axl_last_message(). The message
 * lives in static storage owned by the runtime: nothing is allocated.
 */
#ifndef AXL_STATUS_H
#define AXL_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/** Result of every axl call. AXL_SUCCESS is 0; failures are negative. */
typedef enum axl_status {
    AXL_SUCCESS = 0,

    /* One code per SYCL 2020 errc value, named after it. */
    AXL_ERR_RUNTIME = -1,               /**< errc::runtime */
    AXL_ERR_KERNEL = -2,                /**< errc::kernel */
    AXL_ERR_ACCESSOR = -3,              /**< errc::accessor */
    AXL_ERR_ND_RANGE = -4,              /**< errc::nd_range */
    AXL_ERR_EVENT = -5,                 /**< errc::event */
    AXL_ERR_KERNEL_ARGUMENT = -6,       /**< errc::kernel_argument */
    AXL_ERR_BUILD = -7,                 /**< errc::build */
    AXL_ERR_INVALID = -8,               /**< errc::invalid */
    AXL_ERR_MEMORY_ALLOCATION = -9,     /**< errc::memory_allocation */
    AXL_ERR_PLATFORM = -10,             /**< errc::platform */
    AXL_ERR_PROFILING = -11,            /**< errc::profiling */
    AXL_ERR_FEATURE_NOT_SUPPORTED = -12, /**< errc::feature_not_supported */
    AXL_ERR_KERNEL_NOT_SUPPORTED = -13, /**< errc::kernel_not_supported */
    AXL_ERR_BACKEND_MISMATCH = -14,     /**< errc::backend_mismatch */

    /* axl codes; each maps onto one errc value (see axl_status_errc). */
    /** A handle that is stale, destroyed, never created or of another kind
     *  (errc::invalid). */
    AXL_ERR_INVALID_OBJECT = -15,
    /** A fixed pool is full of what the application holds (slots released
     *  objects keep for commands in flight are waited for first:
     *  runtime.h); the message names it (errc::memory_allocation). */
    AXL_ERR_OUT_OF_RESOURCES = -16,
    /** The object exists but is in a state that forbids the call, such as a
     *  host accessor released twice (errc::invalid). */
    AXL_ERR_BAD_STATE = -17,
    /** A command did not finish within its timeout (errc::runtime). */
    AXL_ERR_TIMEOUT = -18
} axl_status;

/** SYCL 2020 errc values (spec 4.13.2), numbered as in the specification. */
typedef enum axl_errc {
    AXL_ERRC_SUCCESS = 0,
    AXL_ERRC_RUNTIME,
    AXL_ERRC_KERNEL,
    AXL_ERRC_ACCESSOR,
    AXL_ERRC_ND_RANGE,
    AXL_ERRC_EVENT,
    AXL_ERRC_KERNEL_ARGUMENT,
    AXL_ERRC_BUILD,
    AXL_ERRC_INVALID,
    AXL_ERRC_MEMORY_ALLOCATION,
    AXL_ERRC_PLATFORM,
    AXL_ERRC_PROFILING,
    AXL_ERRC_FEATURE_NOT_SUPPORTED,
    AXL_ERRC_KERNEL_NOT_SUPPORTED,
    AXL_ERRC_BACKEND_MISMATCH
} axl_errc;

/** The errc a status stands for. Unknown values map to AXL_ERRC_RUNTIME. */
axl_errc axl_status_errc(axl_status status);

/** A short constant name, "AXL_ERR_INVALID" for example; never NULL. */
const char *axl_status_name(axl_status status);

/**
 * The message the last failing axl call left for the calling thread.
 * It stays valid until the next axl call on the same thread. A successful
 * call does not clear it. Never NULL ("" when no call has failed).
 */
const char *axl_last_message(void);

#ifdef __cplusplus
}
#endif

#endif /* AXL_STATUS_H */
