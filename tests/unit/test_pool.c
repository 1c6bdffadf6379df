/*
 * The generic pool (core/pool.c) on its own: a local pool of 3 objects.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pool.h"

typedef struct obj {
    int value;
} obj;

static obj slots[3];
static uint16_t gens[3], links[3];
static axl__pool pool;

static int setup(void **state)
{
    (void)state;
    pool = (axl__pool){"thing", "AXL_MAX_THINGS", (unsigned char *)slots,
                       gens, links, sizeof(obj), 3, 5, 0, 0, 0, 0, 0};
    for (int i = 0; i < 3; i++)
        gens[i] = 0;
    axl__pool_reset(&pool);
    return 0;
}

static void pool_gives_capacity_objects_then_refuses_the_next(void **state)
{
    (void)state;
    obj *a = axl__pool_alloc(&pool), *b = axl__pool_alloc(&pool),
        *c = axl__pool_alloc(&pool);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_true(a != b && b != c && a != c);
    assert_null(axl__pool_alloc(&pool));
    assert_int_equal(pool.failures, 1);
    assert_int_equal(pool.in_use, 3);
    assert_int_equal(pool.high_water, 3);
    axl__pool_free(&pool, b);
    assert_int_equal(pool.in_use, 2);
    obj *d = axl__pool_alloc(&pool);
    assert_ptr_equal(d, b);
    assert_int_equal(pool.high_water, 3);
}

static void pool_alloc_returns_zeroed_objects(void **state)
{
    (void)state;
    obj *a = axl__pool_alloc(&pool);
    a->value = 42;
    axl__pool_free(&pool, a);
    obj *b = axl__pool_alloc(&pool);
    assert_int_equal(b->value, 0);
}

static void handle_zero_and_index_zero_never_resolve(void **state)
{
    (void)state;
    obj *a = axl__pool_alloc(&pool);
    uint32_t h = axl__pool_handle(&pool, a);
    assert_int_not_equal(h & AXL__HANDLE_INDEX_MASK, 0);
    axl__handle_problem why;
    assert_null(axl__pool_lookup(&pool, 0, &why));
    assert_int_equal(why, AXL__HANDLE_NONE);
    assert_null(axl__pool_lookup(&pool, h & ~AXL__HANDLE_INDEX_MASK, &why));
    assert_int_equal(why, AXL__HANDLE_BAD_INDEX);
    assert_ptr_equal(axl__pool_lookup(&pool, h, &why), a);
    assert_int_equal(why, AXL__HANDLE_OK);
}

static void freed_handle_is_stale_even_after_slot_reuse(void **state)
{
    (void)state;
    obj *a = axl__pool_alloc(&pool);
    uint32_t h = axl__pool_handle(&pool, a);
    axl__pool_free(&pool, a);
    axl__handle_problem why;
    assert_null(axl__pool_lookup(&pool, h, &why));
    assert_int_equal(why, AXL__HANDLE_STALE);
    obj *b = axl__pool_alloc(&pool); /* same slot, next generation */
    assert_ptr_equal(a, b);
    assert_int_not_equal(axl__pool_handle(&pool, b), h);
    assert_null(axl__pool_lookup(&pool, h, &why));
    assert_int_equal(why, AXL__HANDLE_STALE);
}

static void handle_of_other_kind_is_refused(void **state)
{
    (void)state;
    obj *a = axl__pool_alloc(&pool);
    uint32_t h = axl__pool_handle(&pool, a);
    uint32_t other = (h & ~(0x1Fu << AXL__HANDLE_KIND_SHIFT)) |
                     (6u << AXL__HANDLE_KIND_SHIFT);
    axl__handle_problem why;
    assert_null(axl__pool_lookup(&pool, other, &why));
    assert_int_equal(why, AXL__HANDLE_WRONG_KIND);
}

static void index_beyond_capacity_was_never_created(void **state)
{
    (void)state;
    uint32_t forged = (5u << AXL__HANDLE_KIND_SHIFT) |
                      (1u << AXL__HANDLE_GEN_SHIFT) | 4u; /* slot 3 of 3 */
    axl__handle_problem why;
    assert_null(axl__pool_lookup(&pool, forged, &why));
    assert_int_equal(why, AXL__HANDLE_BAD_INDEX);
}

static void generation_wraps_around_and_skips_zero(void **state)
{
    (void)state;
    obj *a = axl__pool_alloc(&pool);
    uint32_t first = axl__pool_handle(&pool, a);
    uint16_t slot = axl__pool_slot(&pool, a);
    /* 32767 lives use every nonzero 15-bit generation once. */
    for (int i = 0; i < 32767; i++) {
        axl__pool_free(&pool, a);
        obj *b = axl__pool_alloc(&pool);
        assert_ptr_equal(a, b);
        uint32_t gen = (axl__pool_handle(&pool, b) >> AXL__HANDLE_GEN_SHIFT) &
                       AXL__HANDLE_GEN_MASK;
        assert_int_not_equal(gen, 0);
        if (i < 32766)
            assert_null(axl__pool_lookup(&pool, first, NULL));
    }
    /* After the wrap the first generation is back: a handle that old is the
     * documented blind spot of 15-bit generations. */
    assert_int_equal(gens[slot], (first >> AXL__HANDLE_GEN_SHIFT) & AXL__HANDLE_GEN_MASK);
    assert_ptr_equal(axl__pool_lookup(&pool, first, NULL), a);
}

static void retired_object_has_stale_handles_but_keeps_its_slot(void **state)
{
    (void)state;
    obj *a = axl__pool_alloc(&pool);
    uint32_t h = axl__pool_handle(&pool, a);
    axl__pool_retire(&pool, a);
    axl__handle_problem why;
    assert_null(axl__pool_lookup(&pool, h, &why));
    assert_int_equal(why, AXL__HANDLE_STALE);
    assert_ptr_equal(axl__pool_lookup_any(&pool, h), a);
    assert_int_equal(pool.in_use, 1);
    axl__pool_revive(&pool, a);
    assert_ptr_equal(axl__pool_lookup(&pool, h, NULL), a);
    axl__pool_free(&pool, a);
    assert_null(axl__pool_lookup_any(&pool, h));
}

static void reset_keeps_generations_so_old_handles_stay_stale(void **state)
{
    (void)state;
    obj *a = axl__pool_alloc(&pool);
    uint32_t h = axl__pool_handle(&pool, a);
    axl__pool_free(&pool, a);
    axl__pool_reset(&pool);
    obj *b = axl__pool_alloc(&pool);
    assert_ptr_equal(a, b);
    assert_null(axl__pool_lookup(&pool, h, NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(pool_gives_capacity_objects_then_refuses_the_next, setup),
        cmocka_unit_test_setup(pool_alloc_returns_zeroed_objects, setup),
        cmocka_unit_test_setup(handle_zero_and_index_zero_never_resolve, setup),
        cmocka_unit_test_setup(freed_handle_is_stale_even_after_slot_reuse, setup),
        cmocka_unit_test_setup(handle_of_other_kind_is_refused, setup),
        cmocka_unit_test_setup(index_beyond_capacity_was_never_created, setup),
        cmocka_unit_test_setup(generation_wraps_around_and_skips_zero, setup),
        cmocka_unit_test_setup(retired_object_has_stale_handles_but_keeps_its_slot, setup),
        cmocka_unit_test_setup(reset_keeps_generations_so_old_handles_stay_stale, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
