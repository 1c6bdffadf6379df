/*
 * Every image the parser tests use, fed to the XRT port's load path the
 * way the core feeds it: axl_xclbin_open first (XRT 2.13 itself crashes on
 * some malformed images: it trusts m_header.m_length and the section
 * table), then load_image only when the reader accepts the image. Each
 * image gets a status and nothing crashes; images the reader accepts but
 * XRT refuses come back as AXL_ERR_BUILD with XRT's return code.
 *
 * Every image is copied into a heap block of exactly its size, so under
 * ASan a read past its end is caught.
 */
#include "../support/axl_reader_skip.h"
#include <dirent.h>
#include <stdio.h>

#include "xrt_test.h"

static const axl_device_port *const P = &axl_native_port;

/* What the core does with an image for a device: check, then load. */
static axl_status load_as_the_core_does(void *dev, const unsigned char *bytes,
                                        size_t size, axl_xclbin *x, char *why,
                                        size_t why_size, int *reached_xrt)
{
    axl_status st = axl_xclbin_open(x, bytes, size, why, why_size);
    *reached_xrt = st == AXL_SUCCESS;
    if (st != AXL_SUCCESS)
        return st;
    return P->load_image(dev, x, why, why_size);
}

static unsigned char *exact_copy(const unsigned char *p, size_t n)
{
    unsigned char *q = malloc(n ? n : 1);
    assert_non_null(q);
    if (n)
        memcpy(q, p, n);
    return q;
}

/* The image the device carries must outlive it (the port reads it until
 * the device closes or loads another): keep the last one that loaded. */
static unsigned char *kept;

static void keep(unsigned char *p)
{
    free(kept);
    kept = p;
}

static int teardown(void **state)
{
    int st = xt_teardown(state);
    free(kept);
    kept = NULL;
    return st;
}

static int is_valid_image(const char *name)
{
    size_t n = strlen(name);
    return n > 7 && !strcmp(name + n - 7, ".xclbin");
}

static void each_corpus_image_gets_a_status_and_good_ones_load(void **state)
{
    (void)state;
    void *dev;
    xt_device(&dev);
    DIR *dir = opendir(AXL_XCLBIN_CORPUS);
    assert_non_null(dir);
    unsigned files = 0, refused = 0, loaded = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", AXL_XCLBIN_CORPUS, e->d_name);
        size_t size = 0;
        unsigned char *raw = tu_read_file(path, &size);
        assert_non_null(raw);
        unsigned char *img = exact_copy(raw, size);
        free(raw);
        axl_xclbin x;
        char why[256] = "";
        int xrt = 0;
        axl_status st =
            load_as_the_core_does(dev, img, size, &x, why, sizeof why, &xrt);
        print_message("%-36s %-28s %s\n", e->d_name, axl_status_name(st),
                      why);
        files++;
        if (is_valid_image(e->d_name)) {
            if (st != AXL_SUCCESS)
                fail_msg("%s should load: %s", e->d_name, why);
            loaded++;
            keep(img);
        } else {
            assert_int_not_equal(st, AXL_SUCCESS);
            assert_true(st == AXL_ERR_INVALID ||
                        st == AXL_ERR_FEATURE_NOT_SUPPORTED);
            assert_false(xrt); /* XRT never saw it */
            assert_true(why[0] != 0);
            refused++;
            free(img);
        }
    }
    closedir(dir);
    print_message("%u images: %u loaded, %u refused before XRT\n", files,
                  loaded, refused);
    assert_true(files >= 10);
    assert_true(loaded >= 3);
}

static void each_truncation_of_the_stock_images_is_refused_before_xrt(
    void **state)
{
    (void)state;
    void *dev;
    xt_device(&dev);
    const char *names[] = {"stock.xclbin", "app.xclbin", "amd_style.xclbin"};
    for (size_t i = 0; i < 3; i++) {
        xt_image full;
        xt_image_load(&full, names[i]);
        unsigned tried = 0;
        for (size_t len = 0; len < full.size;
             len += len < 1024 ? 1 : 1 + len / 64) {
            unsigned char *img = exact_copy(full.bytes, len);
            axl_xclbin x;
            char why[256];
            int xrt = 0;
            axl_status st = load_as_the_core_does(dev, img, len, &x, why,
                                                  sizeof why, &xrt);
            if (st == AXL_SUCCESS || xrt)
                fail_msg("%s cut to %zu bytes reached XRT (%s)", names[i],
                         len, axl_status_name(st));
            free(img);
            tried++;
        }
        unsigned char *img = exact_copy(full.bytes, full.size);
        axl_xclbin x;
        char why[256];
        int xrt = 0;
        AXL_OK(load_as_the_core_does(dev, img, full.size, &x, why, sizeof why,
                                     &xrt));
        keep(img);
        print_message("%s: %u truncations refused, the whole image loads\n",
                      names[i], tried);
        xt_image_free(&full);
    }
}

/* xorshift: the same mutants on every run. */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void mutants_the_reader_accepts_load_or_fail_cleanly(void **state)
{
    (void)state;
    void *dev;
    xt_device(&dev);
    const char *names[] = {"stock.xclbin", "app.xclbin", "amd_style.xclbin"};
    unsigned total = 0, reached = 0, xrt_ok = 0, xrt_refused = 0;
    for (size_t i = 0; i < 3; i++) {
        xt_image base;
        xt_image_load(&base, names[i]);
        for (unsigned m = 0; m < 700; m++) {
            unsigned char *img = exact_copy(base.bytes, base.size);
            /* A few bytes, or a whole 32-bit field, anywhere. */
            unsigned edits = 1 + (unsigned)(next() % 4);
            for (unsigned e = 0; e < edits; e++) {
                size_t at = (size_t)(next() % base.size);
                if (next() % 3 == 0 && at + 4 <= base.size) {
                    static const uint32_t odd[] = {0, 1, 0x7fffffff,
                                                   0x80000000u, 0xffffffffu};
                    tu_st32(img + at, odd[next() % 5]);
                } else {
                    img[at] ^= (unsigned char)(1u << (next() % 8));
                }
            }
            axl_xclbin x;
            char why[256];
            int xrt = 0;
            axl_status st = load_as_the_core_does(dev, img, base.size, &x, why,
                                                  sizeof why, &xrt);
            total++;
            if (xrt) {
                reached++;
                if (st == AXL_SUCCESS) {
                    xrt_ok++;
                    keep(img);
                    continue;
                }
                assert_true(st == AXL_ERR_BUILD || st == AXL_ERR_BAD_STATE);
                xrt_refused++;
            } else {
                assert_true(st == AXL_ERR_INVALID ||
                            st == AXL_ERR_FEATURE_NOT_SUPPORTED);
            }
            free(img);
        }
        xt_image_free(&base);
    }
    print_message("%u mutants: %u refused by the reader, %u reached XRT "
                  "(%u loaded, %u refused by XRT)\n",
                  total, total - reached, reached, xrt_ok, xrt_refused);
}

int main(void)
{
    if (axl_test_without_reader())
        return 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(
            each_corpus_image_gets_a_status_and_good_ones_load, xt_setup,
            teardown),
        cmocka_unit_test_setup_teardown(
            each_truncation_of_the_stock_images_is_refused_before_xrt,
            xt_setup, teardown),
        cmocka_unit_test_setup_teardown(
            mutants_the_reader_accepts_load_or_fail_cleanly, xt_setup,
            teardown),
    };
    return cmocka_run_group_tests_name("xrt_images", tests, NULL, NULL);
}
