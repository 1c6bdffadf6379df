/*
 * The platform presets (platform.h). Each row is a fact of the platform's
 * metadata as public material shows it; docs/vitis.md lists the source of
 * every one and marks the ones derived from a sibling platform.
 */
#include "platform.h"

#include <ctype.h>
#include <string.h>

#define KIB(bytes) ((uint64_t)(bytes) >> 10)
#define MIB(n) ((uint64_t)(n) << 20)
#define GIB(n) ((uint64_t)(n) << 30)
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Alveo U200/U250 (DDR4 shells): four 16 GiB DDR4 banks 64 GiB apart from
 * 0x40_0000_0000, 128 KiB PLRAMs (one per SLR) from 0x30_0000_0000, and
 * the host-memory bank. */
static const axl_platform_mem u200_mems[] = {
    {"DDR", 4, "MEM_DDR4", 0x4000000000ull, GIB(64), KIB(GIB(16))},
    {"PLRAM", 3, "MEM_DRAM", 0x3000000000ull, MIB(2), KIB(128 << 10)},
    {"HOST", 1, "MEM_HOST", 0, 0, KIB(GIB(16))},
};
static const axl_platform_mem u250_mems[] = {
    {"DDR", 4, "MEM_DDR4", 0x4000000000ull, GIB(64), KIB(GIB(16))},
    {"PLRAM", 4, "MEM_DRAM", 0x3000000000ull, MIB(2), KIB(128 << 10)},
    {"HOST", 1, "MEM_HOST", 0, 0, KIB(GIB(16))},
};

/* Alveo U50 (8 GiB HBM2) and U55C (16 GiB HBM2): 32 pseudo-channels from
 * address 0, back to back. */
static const axl_platform_mem u50_mems[] = {
    {"HBM", 32, "MEM_DRAM", 0, MIB(256), KIB(MIB(256))},
    {"PLRAM", 4, "MEM_DRAM", 0x3000000000ull, MIB(2), KIB(128 << 10)},
    {"HOST", 1, "MEM_HOST", 0, 0, KIB(GIB(16))},
};
static const axl_platform_mem u55c_mems[] = {
    {"HBM", 32, "MEM_DRAM", 0, MIB(512), KIB(MIB(512))},
    {"PLRAM", 6, "MEM_DRAM", 0x3000000000ull, MIB(2), KIB(128 << 10)},
    {"HOST", 1, "MEM_HOST", 0, 0, KIB(GIB(16))},
};

/* Zynq UltraScale+ base platforms: every PS slave port the platform gives
 * v++ (its sptag) reaches the same PS DDR, low 2 GiB at address 0. */
#define PS_PORT(tag) {tag, 0, "MEM_DRAM", 0, 0, KIB(GIB(2))}
static const axl_platform_mem zcu_mems[] = {
    PS_PORT("HP0"), PS_PORT("HP1"), PS_PORT("HP2"), PS_PORT("HP3"),
    PS_PORT("HPC0"), PS_PORT("HPC1"), PS_PORT("LPD"),
};
static const axl_platform_mem kv260_mems[] = {
    PS_PORT("HP0"), PS_PORT("HP1"), PS_PORT("HP2"), PS_PORT("HP3"),
    PS_PORT("HPC0"), PS_PORT("HPC1"),
};

/* Kria K26 with the 2RP DFX shell (Xilinx/kria-dfx-hw,
 * k26/2rp_design): each slot's data port reaches the PS DDR through HPC0
 * (low 2 GiB at 0) and the static region's two inter-RM buffers. */
static const axl_platform_mem k26_2rp_mems[] = {
    PS_PORT("HPC0"),
    {"IRB0", 0, "MEM_DRAM", 0x200000000ull, 0, KIB(GIB(1))},
    {"IRB1", 0, "MEM_DRAM", 0x280000000ull, 0, KIB(GIB(1))},
};
/* RP_0 and RP_1: a 32 MiB control aperture and 4 interrupt lines each.
 * The interface UUID is axl's: the shell is a Vivado DFX design with no
 * Vitis platform, so AMD gives it none (docs/vitis.md). */
static const axl_platform_slot k26_2rp_slots[] = {
    {"RP_0", 0x80000000ull, MIB(32), 4},
    {"RP_1", 0x82000000ull, MIB(32), 4},
};
static const axl_platform_shell k26_2rp_shell = {
    {0x6e, 0x4c, 0xc1, 0xcf, 0x0a, 0x87, 0x40, 0x5e, 0xa9, 0x34, 0xa8, 0xa3,
     0x88, 0xef, 0xb3, 0xf3},
    k26_2rp_slots, COUNT(k26_2rp_slots)};

#define MEMS(m) m, COUNT(m)
static const axl_platform presets[] = {
    {"xilinx_u200_gen3x16_xdma_2_202110_1", "u200", MEMS(u200_mems),
     "DDR[1]", 0x1400000, NULL},
    {"xilinx_u250_gen3x16_xdma_4_1_202210_1", "u250", MEMS(u250_mems),
     "DDR[1]", 0x1400000, NULL},
    {"xilinx_u50_gen3x16_xdma_5_202210_1", "u50", MEMS(u50_mems), "HBM[0]",
     0x1400000, NULL},
    {"xilinx_u55c_gen3x16_xdma_3_202210_1", "u55c", MEMS(u55c_mems),
     "HBM[0]", 0x1400000, NULL},
    {"xilinx_zcu102_base_202220_1", "zcu102", MEMS(zcu_mems), "HP0",
     0xA0000000, NULL},
    {"xilinx_zcu104_base_202220_1", "zcu104", MEMS(zcu_mems), "HP0",
     0xA0000000, NULL},
    {"xilinx_kv260_base_202420_1", "kv260", MEMS(kv260_mems), "HP0",
     0xA0000000, NULL},
    {"k26_2rp", "k26", MEMS(k26_2rp_mems), "HPC0", 0x80000000ull,
     &k26_2rp_shell},
};

/* Length of name without a release suffix _YYYYMM_N (v++ names carry the
 * tool release and the platform's revision, e.g. _202210_1). */
static size_t family_len(const char *name)
{
    size_t n = strlen(name), i = n;
    while (i > 0 && isdigit((unsigned char)name[i - 1]))
        i--;
    if (i == n || i < 8 || name[i - 1] != '_')
        return n;
    size_t d = i - 1, j = d;
    while (j > 0 && isdigit((unsigned char)name[j - 1]))
        j--;
    if (d - j != 6 || j == 0 || name[j - 1] != '_')
        return n;
    return j - 1;
}

void axl_platform_basename(const char *name, char *out, size_t out_size)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".xpfm") == 0)
        n -= 5;
    if (n >= out_size)
        n = out_size - 1;
    memcpy(out, base, n);
    out[n] = '\0';
}

const axl_platform *axl_platform_find(const char *name)
{
    char base[128];
    axl_platform_basename(name, base, sizeof base);
    for (size_t i = 0; i < COUNT(presets); i++)
        if (strcmp(presets[i].name, base) == 0)
            return &presets[i];
    size_t n = family_len(base);
    if (n == strlen(base))
        return NULL;
    for (size_t i = 0; i < COUNT(presets); i++)
        if (family_len(presets[i].name) == n &&
            strncmp(presets[i].name, base, n) == 0)
            return &presets[i];
    return NULL;
}

void axl_platform_names(char *out, size_t out_size)
{
    size_t k = 0;
    out[0] = '\0';
    for (size_t i = 0; i < COUNT(presets) && k < out_size; i++) {
        int r = snprintf(out + k, out_size - k, "%s%s", i ? ", " : "",
                         presets[i].name);
        if (r < 0)
            break;
        k += (size_t)r;
    }
}

void axl_platform_shell_names(char *out, size_t out_size)
{
    size_t k = 0;
    out[0] = '\0';
    for (size_t i = 0; i < COUNT(presets) && k < out_size; i++) {
        if (!presets[i].shell)
            continue;
        int r = snprintf(out + k, out_size - k, "%s%s", k ? ", " : "",
                         presets[i].name);
        if (r < 0)
            break;
        k += (size_t)r;
    }
}

const axl_platform *axl_platform_of_interface(const unsigned char uuid[16])
{
    for (size_t i = 0; i < COUNT(presets); i++)
        if (presets[i].shell &&
            memcmp(presets[i].shell->interface_uuid, uuid, 16) == 0)
            return &presets[i];
    return NULL;
}
