/*
 * typed_refs_compile.c - compiled, never run, by the tests
 * core_lookups_and_references_are_typed and core_rejects_*
 * (tests/CMakeLists.txt). As it is, the core's generated lookups and
 * references (core/pools.h, core/rt.h) must accept the right kind; with
 * AXL_TEST_WRONG_KIND set, the file must not compile: inside the core too,
 * a queue's handle where a buffer's is expected, or a reference to an
 * error record where one to a buffer is expected, is a type error
 * (issue 17 item 3).
 */
#include "rt.h"
#include "queue_priv.h" /* a queue's fields */

axl_status typed_probe(axl_queue q, axl_buffer b);

axl_status typed_probe(axl_queue q, axl_buffer b)
{
    static const char fn[] = "typed_probe";
    axl_status st = AXL_SUCCESS;
#if AXL_TEST_WRONG_KIND == 1
    /* A queue handle given to the buffer lookup. */
    struct axl__buffer *x = axl__buffer_get(fn, q, &st);
    (void)b;
    return x ? st : AXL_ERR_INVALID;
#elif AXL_TEST_WRONG_KIND == 2
    /* An error record's reference stored where a buffer's belongs. */
    (void)q;
    (void)b;
    (void)fn;
    axl__rt.zombie_head = axl__error_ref_at(0);
    return st;
#else
    struct axl__buffer *x = axl__buffer_get(fn, b, &st);
    struct axl__queue *y = x ? axl__queue_get(fn, q, &st) : NULL;
    if (x && y) {
        axl__rt.zombie_head = axl__buffer_ref_of(x);
        y->err_head = AXL__NONE(error);
    }
    return st;
#endif
}
