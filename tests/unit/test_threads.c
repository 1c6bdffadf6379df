/*
 * Every call is safe from several threads on posix: four threads submit,
 * wait, query and release at once, on shared and private queues.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "axl_test.h"
#include "axl_config.h"

static atomic_int counter;

static axl_status bump(void *user)
{
    (void)user;
    atomic_fetch_add(&counter, 1);
    return AXL_SUCCESS;
}

typedef struct worker {
    axl_queue shared;
    int rounds;
} worker;

static void *thread_main(void *p)
{
    worker *w = p;
    axl_context none = AXL_NONE;
    axl_queue own;
    if (axl_queue_create(none, axl_test_emu_device(), AXL_QUEUE_IN_ORDER, NULL,
                         &own) != AXL_SUCCESS)
        return (void *)1;
    for (int i = 0; i < w->rounds; i++) {
        axl_event a, b;
        if (axl_queue_host_task(w->shared, bump, NULL, NULL, 0, &a) ||
            axl_queue_host_task(own, bump, NULL, &a, 1, &b) ||
            axl_event_wait(b) || axl_event_release(a) || axl_event_release(b))
            return (void *)2;
        axl_event_status st;
        if (axl_event_get_status(b, &st, NULL) != AXL_ERR_INVALID_OBJECT)
            return (void *)3;
    }
    if (axl_queue_wait(own) || axl_queue_release(own))
        return (void *)4;
    return NULL;
}

static void four_threads_submit_wait_and_release_concurrently(void **state)
{
    (void)state;
    axl_queue no_queue = AXL_NONE;
    AXL_TEST_NEEDS(AXL_FEATURE_HOST_TASKS,
                   axl_queue_host_task(no_queue, bump, NULL, NULL, 0, NULL));
    atomic_store(&counter, 0);
    axl_context none = AXL_NONE;
    worker w = {{0}, 300};
    AXL_OK(axl_queue_create(none, axl_test_emu_device(), 0, NULL, &w.shared));
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        assert_int_equal(pthread_create(&t[i], NULL, thread_main, &w), 0);
    for (int i = 0; i < 4; i++) {
        void *ret;
        pthread_join(t[i], &ret);
        assert_null(ret);
    }
    AXL_OK(axl_queue_wait(w.shared));
    assert_int_equal(atomic_load(&counter), 4 * 300 * 2);
    AXL_OK(axl_queue_release(w.shared));
}

#define T(f) cmocka_unit_test_setup_teardown(f, axl_test_setup, axl_test_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(four_threads_submit_wait_and_release_concurrently),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
