/*
 * The emulated device as DESIGN.md ("The emulated device") wants it: never
 * more permissive than a board. Its banks are the design's (MEM_TOPOLOGY)
 * within limits set at run time, so an installed axl runs any design
 * without a rebuild (issue 29 item 3); a model that writes what its
 * command gave read-only fails the command, an application's kernel runs
 * only a model registered for it, and an image built for another platform
 * is said to be (item 4).
 *
 * The design is tests/unit/asym: Vitis_Accel_Examples'
 * multiple_cus_asymmetrical_xrt, four units of an application's own vadd
 * on DDR[0], DDR[1], PLRAM[0] and PLRAM[1] of a U250 shell.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axl_config.h" /* the feature switches */
#include "axl_test.h"
#include "axl/emu.h"
#include "axl/trace.h"

static axl_context emu_context(void)
{
    axl_device d = axl_test_emu_device();
    axl_context c;
    AXL_OK(axl_context_create(&d, 1, NULL, &c));
    return c;
}

#ifdef AXL_TEST_ASYM
#include "axl_test_asym_xclbin.h"

/* The asym design's vadd (an application kernel: the one of the image
 * registered, not the device's built-in vadd). */
static axl_kernel_id asym_vadd(void)
{
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_asym_xclbin,
                                      axl_test_asym_xclbin_size));
    AXL_OK(axl_image_register(axl_test_asym_xclbin,
                              axl_test_asym_xclbin_size));
    axl_kernel_id ids[8];
    uint32_t n = 0;
    AXL_OK(axl_get_kernel_ids(ids, 8, &n));
    for (uint32_t i = 0; i < n && i < 8; i++) {
        const char *name = NULL;
        AXL_OK(axl_kernel_id_get_name(ids[i], &name));
        if (strcmp(name, "vadd") == 0)
            return ids[i];
    }
    fail_msg("the asym image has no vadd");
    return ids[0];
}

static uint32_t bank_count(axl_device d)
{
    uint32_t n = 0;
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_MEMORY_BANKS, &n, sizeof n,
                               NULL));
    return n;
}

/* Issue 29 item 3: the banks are the design's used MEM_TOPOLOGY entries,
 * in order, with their tags, base addresses and sizes (a bank larger than
 * the limit is emulated at the limit, 1 GiB by default), though the board
 * (host-emu) gives the emulated device two banks and no design of four. A
 * vadd on each unit adds in its own memory. */
static void the_emulated_device_has_the_banks_of_the_design_it_is_programmed_with(void **s)
{
    (void)s;
    AXL_OK(axl_emu_register_model("vadd", axl_test_vadd_model, NULL));
    axl_kernel_id id = asym_vadd();
    axl_context c = emu_context();
    axl_device d = axl_test_emu_device();
    assert_int_equal(bank_count(d), 2); /* the stock design's */
    axl_kernel_bundle b;
    AXL_OK(axl_get_kernel_bundle_for(c, NULL, 0, &id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &b));
    assert_int_equal(bank_count(d), 4);
    static const struct {
        const char *tag;
        uint64_t size, base;
    } want[4] = {{"DDR[0]", 1ull << 30, 0x4000000000ull},
                 {"DDR[1]", 1ull << 30, 0x5000000000ull},
                 {"PLRAM[0]", 128u * 1024u, 0x3000000000ull},
                 {"PLRAM[1]", 128u * 1024u, 0x3000020000ull}};
    for (uint32_t i = 0; i < 4; i++) {
        axl_device_bank bank;
        AXL_OK(axl_device_get_bank(d, i, &bank));
        assert_string_equal(bank.tag, want[i].tag);
        assert_int_equal(bank.size, want[i].size);
        assert_int_equal(bank.base_address, want[i].base);
    }
    uint64_t global = 0;
    AXL_OK(axl_device_get_info(d, AXL_DEVICE_INFO_GLOBAL_MEM_SIZE, &global,
                               sizeof global, NULL));
    assert_int_equal(global, 2 * (1ull << 30) + 2 * 128u * 1024u);

    axl_queue q;
    AXL_OK(axl_queue_create(c, d, AXL_QUEUE_IN_ORDER, NULL, &q));
    axl_kernel all;
    AXL_OK(axl_kernel_bundle_get_kernel(b, id, &all));
    enum { N = 1024 };
    static int32_t in1[N], in2[N], out[4][N];
    for (int i = 0; i < N; i++) {
        in1[i] = i;
        in2[i] = 3 * i + 1;
    }
    for (int u = 0; u < 4; u++) {
        char units[16];
        snprintf(units, sizeof units, "vadd_%d", u + 1);
        axl_kernel k;
        AXL_OK(axl_kernel_select_units(all, units, &k));
        axl_buffer A, B, O;
        AXL_OK(axl_buffer_create_from(in1, 4, axl_range_1d(N), NULL, &A));
        AXL_OK(axl_buffer_create_from(in2, 4, axl_range_1d(N), NULL, &B));
        AXL_OK(axl_buffer_create_from(out[u], 4, axl_range_1d(N), NULL, &O));
        axl_event e;
        AXL_OK(axl_queue_single_task(
            q, k,
            AXL_ARGS(AXL_ARG_IN(A), AXL_ARG_IN(B), AXL_ARG_OUT(O),
                     AXL_ARG_U32(N)),
            NULL, 0, &e));
        AXL_OK(axl_event_wait(e));
        AXL_OK(axl_event_release(e));
        AXL_OK(axl_buffer_release(A));
        AXL_OK(axl_buffer_release(B));
        AXL_OK(axl_buffer_release(O));
        AXL_OK(axl_kernel_release(k));
        for (int i = 0; i < N; i++)
            assert_int_equal(out[u][i], in1[i] + in2[i]);
    }
    AXL_OK(axl_kernel_release(all));
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_kernel_bundle_release(b));
    AXL_OK(axl_context_release(c));
    AXL_OK(axl_emu_register_model("vadd", NULL, NULL));
}

/* Item 3: the limits are set at run time, by the application
 * (axl_emu_set_limits) or the environment (AXL_EMU_MAX_BANKS,
 * AXL_EMU_MAX_BANK_BYTES), and apply when a device is programmed: a
 * design with more banks is refused naming the limit, larger banks are
 * emulated at the limit's size. */
static void the_emulated_banks_stay_within_the_limits_set_at_run_time(void **s)
{
    (void)s;
    AXL_OK(axl_emu_register_model("vadd", axl_test_vadd_model, NULL));
    axl_kernel_id id = asym_vadd();
    axl_context c = emu_context();
    axl_device d = axl_test_emu_device();
    axl_kernel_bundle b = {7};

    axl_emu_limits two = {.max_banks = 2};
    AXL_OK(axl_emu_set_limits(&two));
    AXL_EXPECT(axl_get_kernel_bundle_for(c, NULL, 0, &id, 1,
                                         AXL_BUNDLE_EXECUTABLE, &b),
               AXL_ERR_RUNTIME);
    AXL_MESSAGE_HAS("the design uses 4 memory banks, the emulated device at "
                    "most 2 (AXL_EMU_MAX_BANKS)");
    assert_int_equal(b.id, 7);

    axl_emu_limits small = {.max_bank_bytes = 64u * 1024u};
    AXL_OK(axl_emu_set_limits(&small));
    AXL_OK(axl_get_kernel_bundle_for(c, NULL, 0, &id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &b));
    axl_device_bank bank;
    AXL_OK(axl_device_get_bank(d, 0, &bank));
    assert_int_equal(bank.size, 64u * 1024u);
    AXL_OK(axl_device_get_bank(d, 3, &bank));
    assert_int_equal(bank.size, 64u * 1024u); /* PLRAM's 128 KiB, capped */
    AXL_OK(axl_kernel_bundle_release(b));
    AXL_OK(axl_context_release(c));
    AXL_OK(axl_shutdown());

    /* Back to the environment's, read when the runtime starts. */
    AXL_OK(axl_emu_set_limits(NULL));
    setenv("AXL_EMU_MAX_BANK_BYTES", "1M", 1);
    id = asym_vadd();
    c = emu_context();
    d = axl_test_emu_device();
    AXL_OK(axl_device_get_bank(d, 0, &bank)); /* the stock design's, too */
    assert_int_equal(bank.size, 1u << 20);
    AXL_OK(axl_get_kernel_bundle_for(c, NULL, 0, &id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &b));
    AXL_OK(axl_device_get_bank(d, 1, &bank));
    assert_int_equal(bank.size, 1u << 20);
    AXL_OK(axl_device_get_bank(d, 2, &bank));
    assert_int_equal(bank.size, 128u * 1024u);
    AXL_OK(axl_kernel_bundle_release(b));
    AXL_OK(axl_context_release(c));
    unsetenv("AXL_EMU_MAX_BANK_BYTES");
    AXL_OK(axl_emu_register_model("vadd", NULL, NULL));
}

/* Item 4: an application image's kernel runs only a model registered for
 * it, never the stock model of the same name (the asym design's vadd is
 * the application's: its vlnv is Vitis's, not axl's stock kernel's), and
 * the refusal says so. Registered, it runs (the bank test above). */
static void an_application_kernel_runs_only_a_model_registered_for_it(void **s)
{
    (void)s;
    axl_kernel_id id = asym_vadd();
    axl_context c = emu_context();
    axl_kernel_bundle b = {9};
    AXL_EXPECT(axl_get_kernel_bundle_for(c, NULL, 0, &id, 1,
                                         AXL_BUNDLE_EXECUTABLE, &b),
               AXL_ERR_INVALID);
    AXL_MESSAGE_HAS("kernel vadd is compatible with none of the devices");
    AXL_MESSAGE_HAS("register a C model with axl_emu_register_model()");
    assert_int_equal(b.id, 9);
    bool ok = true;
    AXL_OK(axl_is_compatible(&id, 1, axl_test_emu_device(), &ok));
    assert_false(ok);
    AXL_OK(axl_context_release(c));
}

static char log_text[1024];

static void log_sink(const char *text, size_t len, void *user)
{
    (void)user;
    size_t at = strlen(log_text);
    if (at + len + 2 < sizeof log_text) {
        memcpy(log_text + at, text, len);
        log_text[at + len] = '\n';
        log_text[at + len + 1] = '\0';
    }
}

/* Item 4: an image built for another platform (VBNV in its header) than
 * the one the emulated device stands in for is warned about when the
 * device is programmed with it, naming both; AXL_EMU_PLATFORM (or
 * axl_emu_set_platform) makes the device that platform. */
static void an_image_for_another_platform_is_warned_about_with_both_names(void **s)
{
    (void)s;
    AXL_OK(axl_emu_register_model("vadd", axl_test_vadd_model, NULL));
    axl_kernel_id id = asym_vadd();
    axl_context c = emu_context();
    log_text[0] = '\0';
    axl_log_set(AXL_LOG_WARN, log_sink, NULL);
    axl_kernel_bundle b;
    AXL_OK(axl_get_kernel_bundle_for(c, NULL, 0, &id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &b));
    AXL_OK(axl_kernel_bundle_release(b));
    if (!strstr(log_text, "xilinx_u250_gen3x16_xdma_4_1_202210_1") ||
        !strstr(log_text, "axl_emu_stock_1_0"))
        fail_msg("no warning naming both platforms: \"%s\"", log_text);
    AXL_OK(axl_context_release(c));
    AXL_OK(axl_shutdown());
    /* The device as that platform: nothing to say. */
    AXL_OK(axl_emu_set_platform("xilinx_u250_gen3x16_xdma_4_1_202210_1"));
    id = asym_vadd();
    c = emu_context();
    log_text[0] = '\0';
    AXL_OK(axl_get_kernel_bundle_for(c, NULL, 0, &id, 1,
                                     AXL_BUNDLE_EXECUTABLE, &b));
    AXL_OK(axl_kernel_bundle_release(b));
    axl_log_set(AXL_LOG_OFF, NULL, NULL);
    assert_string_equal(log_text, "");
    AXL_OK(axl_emu_set_platform(NULL));
    AXL_OK(axl_context_release(c));
    AXL_OK(axl_emu_register_model("vadd", NULL, NULL));
}
#endif /* AXL_TEST_ASYM */

/* ---- No silent emulator (item 4) ------------------------------------------------- */

static axl_kernel builtin_vadd(axl_kernel_bundle *b, axl_context c)
{
    axl_kernel_id id;
    AXL_OK(axl_get_built_in_kernel_id(axl_test_emu_device(), "vadd", &id));
    AXL_OK(axl_get_kernel_bundle_for(c, NULL, 0, &id, 1,
                                     AXL_BUNDLE_EXECUTABLE, b));
    axl_kernel k;
    AXL_OK(axl_kernel_bundle_get_kernel(*b, id, &k));
    return k;
}

/* One vadd whose output goes as `out_mode`; returns the event's status. */
static axl_status vadd_with(axl_queue q, axl_kernel k, axl_buffer in1,
                            axl_buffer in2, axl_buffer out,
                            axl_access_mode out_mode, uint32_t n)
{
    axl_event e;
    AXL_OK(axl_queue_single_task(
        q, k,
        AXL_ARGS(AXL_ARG_IN(in1), AXL_ARG_IN(in2),
                 axl_arg_buffer(AXL_ARG_POS, out, out_mode), AXL_ARG_U32(n)),
        NULL, 0, &e));
    axl_status st = axl_event_wait(e);
    AXL_OK(axl_event_release(e));
    return st;
}

/* Issue 29 item 4, DESIGN.md "a model that writes what the command gave
 * read-only fails that command": an output given as AXL_ARG_IN (a read)
 * is written by the model, which on a board writes memory nothing brings
 * back (the result is silently 0); here the command fails naming the
 * argument, in both dispatch modes. The same buffer read through one
 * argument and written through another is the kernel's right. Switched
 * off (axl_emu_check_read_only), the command runs as a board would. */
static void a_model_that_writes_an_argument_given_read_only_fails_its_command(void **s)
{
    (void)s;
    axl_context c = emu_context();
    axl_device d = axl_test_emu_device();
    axl_kernel_bundle b;
    axl_kernel k = builtin_vadd(&b, c);
    axl_queue q;
    AXL_OK(axl_queue_create(c, d, AXL_QUEUE_IN_ORDER, NULL, &q));
    enum { N = 256 };
    static int32_t x[N], y[N], z[N];
    for (int i = 0; i < N; i++)
        x[i] = y[i] = i;
    axl_buffer X, Y, Z;
    AXL_OK(axl_buffer_create_from(x, 4, axl_range_1d(N), NULL, &X));
    AXL_OK(axl_buffer_create_from(y, 4, axl_range_1d(N), NULL, &Y));
    AXL_OK(axl_buffer_create_from(z, 4, axl_range_1d(N), NULL, &Z));
    for (int det = 0; det < 2; det++) {
        AXL_OK(axl_emu_set_deterministic(det));
        AXL_EXPECT(vadd_with(q, k, X, Y, Z, AXL_ACCESS_READ, N),
                   AXL_ERR_KERNEL_ARGUMENT);
        AXL_MESSAGE_HAS("vadd wrote argument 2 (out_r), which the command "
                        "gave read-only");
        AXL_EXPECT(axl_queue_throw_asynchronous(q), AXL_ERR_KERNEL_ARGUMENT);
        /* The output as an output, and in1 written in place (out_r = in1,
         * the same buffer given twice): both the kernel's right. */
        AXL_OK(vadd_with(q, k, X, Y, Z, AXL_ACCESS_WRITE_NO_INIT, N));
        AXL_OK(vadd_with(q, k, X, Y, X, AXL_ACCESS_READ_WRITE, N));
    }
    AXL_OK(axl_emu_set_deterministic(false));
    AXL_OK(axl_emu_check_read_only(false));
    AXL_OK(vadd_with(q, k, X, Y, Z, AXL_ACCESS_READ, N));
    AXL_OK(axl_emu_check_read_only(true));
    AXL_OK(axl_buffer_release(X));
    AXL_OK(axl_buffer_release(Y));
    AXL_OK(axl_buffer_release(Z));
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_kernel_release(k));
    AXL_OK(axl_kernel_bundle_release(b));
    AXL_OK(axl_context_release(c));
}

/* hal.h, axl_hal_run.args_id: the emulated device keeps each unit's call
 * record (the model's arguments) while the core gives the same args_id,
 * and refreshes only the scalars. So a repeated launch sees its own size,
 * another output buffer is seen as such, and the read-only check follows
 * its switch though the record was built with it off; in both dispatch
 * modes. */
static void a_launch_with_the_arguments_a_unit_keeps_sees_its_own_scalars(void **s)
{
    (void)s;
    axl_context c = emu_context();
    axl_device d = axl_test_emu_device();
    axl_kernel_bundle b;
    axl_kernel k = builtin_vadd(&b, c);
    axl_queue q;
    AXL_OK(axl_queue_create(c, d, AXL_QUEUE_IN_ORDER, NULL, &q));
    enum { N = 64 };
    int32_t x[N], y[N], got[N];
    for (int i = 0; i < N; i++) {
        x[i] = i;
        y[i] = 1000;
    }
    axl_buffer X, Y, Z, W;
    AXL_OK(axl_buffer_create_from(x, 4, axl_range_1d(N), NULL, &X));
    AXL_OK(axl_buffer_create_from(y, 4, axl_range_1d(N), NULL, &Y));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &Z));
    AXL_OK(axl_buffer_create(4, axl_range_1d(N), NULL, &W));
    const int32_t zero = 0;
    for (int det = 0; det < 2; det++) {
        AXL_OK(axl_emu_set_deterministic(det));
        /* The same buffers, sizes N, then 8, 3, 40 (the units take turns,
         * so the last two reuse records): each launch adds as many
         * elements as its own size says, and no more. Queued together, so
         * that no launch's scalar lies where an earlier one's lay. */
        const uint32_t sizes[] = {N, 8, 3, 40, 5, 1};
        int32_t each[6][N];
        for (int r = 0; r < 6; r++) {
            AXL_OK(axl_queue_fill(q, Z, NULL, &zero, 4, NULL, 0, NULL));
            AXL_OK(axl_queue_single_task(
                q, k,
                AXL_ARGS(AXL_ARG_IN(X), AXL_ARG_IN(Y), AXL_ARG_OUT(Z),
                         AXL_ARG_U32(sizes[r])),
                NULL, 0, NULL));
            AXL_OK(axl_queue_copy_to_host(q, Z, NULL, each[r], NULL, 0, NULL));
        }
        AXL_OK(axl_queue_wait(q));
        for (int r = 0; r < 6; r++)
            for (uint32_t i = 0; i < N; i++)
                assert_int_equal(each[r][i],
                                 i < sizes[r] ? (int32_t)i + 1000 : 0);
        /* Another output: the model writes it, not the last one. */
        AXL_OK(axl_queue_fill(q, Z, NULL, &zero, 4, NULL, 0, NULL));
        AXL_OK(vadd_with(q, k, X, Y, W, AXL_ACCESS_WRITE_NO_INIT, N));
        AXL_OK(axl_queue_copy_to_host(q, W, NULL, got, NULL, 0, NULL));
        AXL_OK(axl_queue_wait(q));
        assert_int_equal(got[N - 1], N - 1 + 1000);
        AXL_OK(axl_queue_copy_to_host(q, Z, NULL, got, NULL, 0, NULL));
        AXL_OK(axl_queue_wait(q));
        assert_int_equal(got[N - 1], 0);
        /* The output given read-only, the check off, twice (the second
         * launch reuses the record); the check on: the same launch fails
         * (on zeros: a write of what is there changes nothing). */
        AXL_OK(axl_emu_check_read_only(false));
        AXL_OK(vadd_with(q, k, X, Y, Z, AXL_ACCESS_READ, N));
        AXL_OK(vadd_with(q, k, X, Y, Z, AXL_ACCESS_READ, N));
        AXL_OK(axl_emu_check_read_only(true));
        AXL_OK(axl_queue_fill(q, Z, NULL, &zero, 4, NULL, 0, NULL));
        AXL_EXPECT(vadd_with(q, k, X, Y, Z, AXL_ACCESS_READ, N),
                   AXL_ERR_KERNEL_ARGUMENT);
        AXL_MESSAGE_HAS("vadd wrote argument 2 (out_r)");
        AXL_EXPECT(axl_queue_throw_asynchronous(q), AXL_ERR_KERNEL_ARGUMENT);
    }
    AXL_OK(axl_emu_set_deterministic(false));
    AXL_OK(axl_buffer_release(X));
    AXL_OK(axl_buffer_release(Y));
    AXL_OK(axl_buffer_release(Z));
    AXL_OK(axl_buffer_release(W));
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_kernel_release(k));
    AXL_OK(axl_kernel_bundle_release(b));
    AXL_OK(axl_context_release(c));
}

#ifdef AXL_TEST_NOP_ALONE
#include "axl_test_nop_alone_xclbin.h"

static axl_status nop_model(const axl_emu_call *call, void *user)
{
    (void)call;
    (void)user;
    return AXL_SUCCESS;
}

/* Issue 35 (fuzz_api; tests/fuzz/found/README.md): a unit that a
 * programming gives to a kernel without arguments checks no buffers. The
 * unit of IP 0 runs vadd with two read-only buffers (the read-only check
 * keeps them in the unit's call record); the nop_alone design puts nop at
 * IP 0. Before the fix the unit's worker digested vadd's buffers again for
 * nop's run, from the record, in the banks the programming had unmapped:
 * SEGV (seen here on the unfixed emu.c). */
static void a_unit_given_to_a_kernel_without_arguments_checks_no_old_buffers(
    void **s)
{
    (void)s;
    AXL_TEST_NEEDS(AXL_FEATURE_APP_IMAGES,
                   axl_image_register(axl_test_nop_alone_xclbin,
                                      axl_test_nop_alone_xclbin_size));
    AXL_OK(axl_emu_set_deterministic(false)); /* the units' workers */
    AXL_OK(axl_emu_check_read_only(true));
    axl_context c = emu_context();
    axl_device d = axl_test_emu_device();
    axl_kernel_bundle b;
    axl_kernel k = builtin_vadd(&b, c);
    axl_queue q;
    AXL_OK(axl_queue_create(c, d, AXL_QUEUE_IN_ORDER, NULL, &q));
    enum { N = 1024 };
    static int32_t x[N], y[N], z[N];
    axl_buffer X, Y, Z;
    AXL_OK(axl_buffer_create_from(x, 4, axl_range_1d(N), NULL, &X));
    AXL_OK(axl_buffer_create_from(y, 4, axl_range_1d(N), NULL, &Y));
    AXL_OK(axl_buffer_create_from(z, 4, axl_range_1d(N), NULL, &Z));
    AXL_OK(vadd_with(q, k, X, Y, Z, AXL_ACCESS_WRITE_NO_INIT, N));
    AXL_OK(axl_buffer_release(X));
    AXL_OK(axl_buffer_release(Y));
    AXL_OK(axl_buffer_release(Z));
    AXL_OK(axl_kernel_release(k));
    AXL_OK(axl_kernel_bundle_release(b));

    AXL_OK(axl_image_register(axl_test_nop_alone_xclbin,
                              axl_test_nop_alone_xclbin_size));
    AXL_OK(axl_emu_register_model("nop", nop_model, NULL));
    /* Banks of another size: the programming gives the old storage back
     * to the OS (a design whose banks differ, as the fuzzer's did). */
    const axl_emu_limits small = {.max_bank_bytes = 1u << 20};
    AXL_OK(axl_emu_set_limits(&small));
    axl_kernel_id nop;
    AXL_OK(axl_get_kernel_id("nop", &nop));
    AXL_OK(axl_get_kernel_bundle_for(c, NULL, 0, &nop, 1,
                                     AXL_BUNDLE_EXECUTABLE, &b));
    AXL_OK(axl_kernel_bundle_get_kernel(b, nop, &k));
    for (int run = 0; run < 3; run++) {
        AXL_OK(axl_queue_single_task(q, k, NULL, 0, NULL, 0, NULL));
        AXL_OK(axl_queue_wait(q));
    }
    AXL_OK(axl_emu_register_model("nop", NULL, NULL));
    AXL_OK(axl_emu_set_limits(NULL));
    AXL_OK(axl_queue_release(q));
    AXL_OK(axl_kernel_release(k));
    AXL_OK(axl_kernel_bundle_release(b));
    AXL_OK(axl_context_release(c));
}
#endif

static void skipped_without_the_asym_design(void **s)
{
    (void)s;
#ifdef AXL_TEST_ASYM
    return;
#else
    skip();
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#ifdef AXL_TEST_ASYM
        cmocka_unit_test_setup_teardown(
            the_emulated_device_has_the_banks_of_the_design_it_is_programmed_with,
            axl_test_setup, axl_test_teardown),
        cmocka_unit_test_setup_teardown(
            the_emulated_banks_stay_within_the_limits_set_at_run_time,
            axl_test_setup, axl_test_teardown),
        cmocka_unit_test_setup_teardown(
            an_application_kernel_runs_only_a_model_registered_for_it,
            axl_test_setup, axl_test_teardown),
        cmocka_unit_test_setup_teardown(
            an_image_for_another_platform_is_warned_about_with_both_names,
            axl_test_setup, axl_test_teardown),
#endif
        cmocka_unit_test_setup_teardown(
            a_model_that_writes_an_argument_given_read_only_fails_its_command,
            axl_test_setup, axl_test_teardown),
        cmocka_unit_test_setup_teardown(
            a_launch_with_the_arguments_a_unit_keeps_sees_its_own_scalars,
            axl_test_setup, axl_test_teardown),
#ifdef AXL_TEST_NOP_ALONE
        cmocka_unit_test_setup_teardown(
            a_unit_given_to_a_kernel_without_arguments_checks_no_old_buffers,
            axl_test_setup, axl_test_teardown),
#endif
        cmocka_unit_test_setup_teardown(skipped_without_the_asym_design,
                                        axl_test_setup, axl_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
