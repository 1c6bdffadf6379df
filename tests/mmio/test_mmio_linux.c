/*
 * The mmio port's Linux mapping (xrt/mmio/linux_map.c): UIO for control
 * registers, a contiguous DMA buffer for banks. Plain files stand in for
 * /dev/uio0, /dev/udmabuf0 and their sysfs attributes (mmap of a regular
 * file behaves as of a device here), so the test sees every register write
 * and every byte the port puts in a bank, at the offsets the physical
 * addresses give. Only the mapping differs from bare metal: the port
 * below is the same code with the same seam.
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "axl_test.h"
#include "axl/mmio.h"
#include "axl/mmio_linux.h"
#include "mmio_regs.h"

extern const axl_device_port axl_mmio_port;

static char root[256];

static void put(const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void dirs(const char *rel)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *p = path + strlen(root) + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0700);
            *p = '/';
        }
    mkdir(path, 0700);
}

static void sized(const char *rel, off_t size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, size), 0);
    close(fd);
}

static uint32_t word_at(const char *rel, off_t off)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    int fd = open(path, O_RDONLY);
    uint32_t v = 0;
    assert_int_equal(pread(fd, &v, 4, off), 4);
    close(fd);
    return v;
}

static void set_word(const char *rel, off_t off, uint32_t v)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    int fd = open(path, O_RDWR);
    assert_int_equal(pwrite(fd, &v, 4, off), 4);
    close(fd);
}

static int make_tree(void **s)
{
    (void)s;
    snprintf(root, sizeof root, "/tmp/axl-mmio-linux-XXXXXX");
    assert_non_null(mkdtemp(root));
    dirs("sys/class/uio/uio0/maps/map0");
    dirs("sys/class/u-dma-buf/udmabuf0");
    dirs("dev");
    /* The stock design's units sit at 0x1800000 + 0x10000 * i. */
    put("sys/class/uio/uio0/maps/map0/addr", "0x1800000\n");
    put("sys/class/uio/uio0/maps/map0/size", "0x60000\n");
    put("sys/class/u-dma-buf/udmabuf0/phys_addr", "0x70000000\n");
    put("sys/class/u-dma-buf/udmabuf0/size", "1048576\n");
    sized("dev/uio0", 0x60000);
    sized("dev/udmabuf0", 1 << 20);
    return 0;
}

static int remove_tree(void **s)
{
    (void)s;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    return system(cmd) == 0 ? 0 : -1;
}

static axl_mmio_linux_config config(void)
{
    static char uio[300], dma[300], sys[300];
    snprintf(uio, sizeof uio, "%s/dev/uio0", root);
    snprintf(dma, sizeof dma, "%s/dev/udmabuf0", root);
    snprintf(sys, sizeof sys, "%s/sys", root);
    return (axl_mmio_linux_config){uio, dma, sys};
}

static void the_port_writes_registers_and_banks_through_the_mappings(void **s)
{
    (void)s;
    axl_mmio_linux_config cfg = config();
    axl_mmio_board board;
    AXL_OK(axl_mmio_linux_board(&cfg, axl_test_stock_xclbin,
                                axl_test_stock_xclbin_size, &board));
    assert_int_equal(board.bank_count, 2);
    AXL_OK(axl_mmio_set_board(&board));
    void *dev;
    AXL_OK(axl_mmio_port.open(0, &dev));
    axl_hal_bank b1;
    AXL_OK(axl_mmio_port.bank(dev, 1, &b1));
    assert_int_equal(b1.base_address, 0x70000000u + (1u << 19));
    assert_int_equal(b1.image_index, 1);

    /* A bank allocation is the DMA buffer's memory at its physical
     * offset. */
    axl_hal_mem mem;
    AXL_OK(axl_mmio_port.mem_alloc(dev, 1, 64, NULL, &mem));
    uint32_t pattern[4] = {0x11111111, 0x22222222, 0x33333333, 0x44444444};
    AXL_OK(axl_mmio_port.mem_write(dev, &mem, 0, pattern, sizeof pattern));
    off_t at = (off_t)(mem.device_address - 0x70000000u);
    assert_int_equal(word_at("dev/udmabuf0", at + 8), 0x33333333);

    /* vadd_2 (IP_LAYOUT 1, at 0x1810000) reads idle: a launch writes its
     * argument registers at the XML's offsets, then ap_start. */
    set_word("dev/uio0", 0x10000, MMIO_AP_IDLE);
    axl_xclbin x;
    char why[64];
    AXL_OK(axl_xclbin_open(&x, axl_test_stock_xclbin,
                           axl_test_stock_xclbin_size, why, sizeof why));
    uintptr_t h;
    AXL_OK(axl_mmio_port.cu_open(dev, &x, 0, 1, &h));
    uint32_t n = 16;
    axl_hal_arg args[4] = {{0, 1, 64, &mem, 0, NULL, AXL_ACCESS_READ},
                           {1, 1, 64, &mem, 0, NULL, AXL_ACCESS_READ},
                           {2, 1, 64, &mem, 0, NULL, AXL_ACCESS_WRITE},
                           {3, 0, 4, NULL, 0, &n, 0}};
    axl_hal_run run = {.token = NULL, .image = &x, .kernel_index = 0,
                       .kernel_name = "vadd", .cu = 1, .ip_index = 1,
                       .cu_handle = h, .arg_count = 4, .args = args};
    AXL_OK(axl_mmio_port.run_start(dev, &run));
    assert_int_equal(word_at("dev/uio0", 0x10000 + 0x10),
                     (uint32_t)mem.device_address);
    assert_int_equal(word_at("dev/uio0", 0x10000 + 0x14),
                     (uint32_t)(mem.device_address >> 32));
    assert_int_equal(word_at("dev/uio0", 0x10000 + 0x28),
                     (uint32_t)mem.device_address);
    assert_int_equal(word_at("dev/uio0", 0x10000 + 0x34), 16);
    assert_int_equal(word_at("dev/uio0", 0x10000), MMIO_AP_START);
    /* Nothing answers: give it up (a hung unit with no reset). */
    axl_mmio_port.run_cancel(dev, &run);
    axl_mmio_port.mem_free(dev, &mem);
    axl_mmio_port.close(dev);
    AXL_OK(axl_mmio_set_board(NULL));
    axl_mmio_linux_unmap();
}

/* axl_mmio_board.align: buffers 4 KiB apart unless the board says (as
 * XRT aligns them: an RTL kernel's 256-beat burst from a buffer's start
 * must not cross 4 KiB). */
static void buffers_are_aligned_to_4_kib_unless_the_board_says(void **s)
{
    (void)s;
    axl_mmio_linux_config cfg = config();
    axl_mmio_board board;
    AXL_OK(axl_mmio_linux_board(&cfg, axl_test_stock_xclbin,
                                axl_test_stock_xclbin_size, &board));
    for (uint32_t align = 0; align <= 64; align += 64) {
        board.align = align;
        AXL_OK(axl_mmio_set_board(&board));
        void *dev;
        AXL_OK(axl_mmio_port.open(0, &dev));
        axl_hal_mem m[2];
        AXL_OK(axl_mmio_port.mem_alloc(dev, 0, 100, NULL, &m[0]));
        AXL_OK(axl_mmio_port.mem_alloc(dev, 0, 100, NULL, &m[1]));
        assert_int_equal(m[1].device_address - m[0].device_address,
                         align ? 128u : 4096u);
        axl_mmio_port.mem_free(dev, &m[1]);
        axl_mmio_port.mem_free(dev, &m[0]);
        axl_mmio_port.close(dev);
    }
    AXL_OK(axl_mmio_set_board(NULL));
    axl_mmio_linux_unmap();
}

/* axl_mmio_board.cpu_reserved: a bank the CPU would read at its physical
 * address where it sees other memory (the R5's TCMs at 0) is refused,
 * naming the bank and the fix, and the device does not open. */
static void a_bank_where_the_cpu_sees_other_memory_is_refused(void **s)
{
    (void)s;
    axl_mmio_linux_config cfg = config();
    axl_mmio_board board;
    AXL_OK(axl_mmio_linux_board(&cfg, axl_test_stock_xclbin,
                                axl_test_stock_xclbin_size, &board));
    static const axl_mmio_bank_region low[1] = {{0, 0x10000, 0x8000, NULL}};
    board.banks = low;
    board.bank_count = 1;
    board.cpu_reserved = 0x40000;
    AXL_OK(axl_mmio_set_board(&board));
    void *dev;
    AXL_EXPECT(axl_mmio_port.open(0, &dev), AXL_ERR_PLATFORM);
    AXL_MESSAGE_HAS("(MEM_TOPOLOGY 0) is at 0x10000, below 0x40000");
    AXL_MESSAGE_HAS("give a region above it or a host view (.host)");
    AXL_OK(axl_mmio_set_board(NULL));
    axl_mmio_linux_unmap();
}

static void a_missing_device_file_is_named(void **s)
{
    (void)s;
    axl_mmio_linux_config cfg = config();
    char uio[300];
    snprintf(uio, sizeof uio, "%s/dev/uio7", root);
    cfg.uio = uio;
    axl_mmio_board board;
    AXL_EXPECT(axl_mmio_linux_board(&cfg, axl_test_stock_xclbin,
                                    axl_test_stock_xclbin_size, &board),
               AXL_ERR_PLATFORM);
    AXL_MESSAGE_HAS("uio7");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_port_writes_registers_and_banks_through_the_mappings),
        cmocka_unit_test(a_missing_device_file_is_named),
        cmocka_unit_test(buffers_are_aligned_to_4_kib_unless_the_board_says),
        cmocka_unit_test(a_bank_where_the_cpu_sees_other_memory_is_refused),
    };
    return cmocka_run_group_tests(tests, make_tree, remove_tree);
}
