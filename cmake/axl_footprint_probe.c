/*
 * axl_footprint_probe.c - compiled (never linked) by the axl-footprint
 * target with the board's compiler and capacities, to read each pool's
 * object size and capacity from a cross build without running anything:
 * for every pool of core/pools.h it defines arrays whose sizes are
 * sizeof(object), the capacity and the pool's place in the list, and the
 * report reads them back with `nm -S`. It follows the pool list, so new
 * pools show up by themselves.
 */
#include "objects.h" /* every pool's object type */

#define AXL_FP_POOL(KIND, name, type, cap, ...)                                \
    char axl_fp_pool__##name##__object[sizeof(type)];                          \
    char axl_fp_pool__##name##__capacity[(cap)];                               \
    char axl_fp_pool__##name##__order[AXL__POOL_##KIND + 1];
AXL__POOL_LIST(AXL_FP_POOL)
#undef AXL_FP_POOL

/* AXL_MESSAGES as the board builds the library: 1 + its value bytes. */
char axl_fp_messages[AXL_MESSAGES + 1];
