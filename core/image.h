/*
 * image.h - the design side of the core: images (image.c), the kernel ids
 * their metadata gives (kernel_id.c), the compute-unit table a design
 * gives a device (cu.c) and kernel bundles (bundle.c, source.c). Kernel
 * objects and launches are kernel.h's.
 */
#ifndef AXL_IMAGE_H
#define AXL_IMAGE_H

#include "rt.h"
#include "cu.h"
#include "device_priv.h"

enum axl__image_kind {
    AXL__IMAGE_APP = 1,     /* registered by the application */
    AXL__IMAGE_BUILTIN,     /* the design a device came with */
    AXL__IMAGE_SOURCE       /* bytes given to create_kernel_bundle_from_source */
};

struct axl__image {
    uint16_t refs;              /* bundles holding it (source images) */
    uint8_t kind;
    bool parsed;                /* x is checked (source images: once built) */
    uint16_t device;            /* built-in: its device slot */
    uint16_t nkids;             /* its kernel ids (kernel_id.image == it) */
#if AXL_FEATURE_DESIGN_SWAP
    uint16_t lead;              /* slot of the image whose design it is:
                                   itself, or for a variant (a partial of
                                   the same kernels at another slot's
                                   bases, 1.2) the one registered first */
#endif
    axl_xclbin x;
};

/* What a kernel argument is (axl__karg_meta.is_mem). */
enum {
    AXL__ARG_SCALAR = 0,
    AXL__ARG_MEM = 1,           /* a buffer: global or constant memory */
    AXL__ARG_LOCAL = 2,         /* local memory: nothing a host sets */
    AXL__ARG_STREAM = 3         /* an AXI4-Stream port: the design joins
                                   it (axl/pipeline.h), never the host */
};

struct axl__karg_meta {
    uint16_t id;                /* the XML id */
    uint8_t is_mem;             /* AXL__ARG_* */
    uint8_t align;              /* buffer: the bytes its pointer type's
                                   elements align to (int*: 4), 1 if the
                                   type is not one axl knows */
    uint32_t size;              /* scalar hostSize */
};

struct axl__kernel_id {
    uint16_t image;             /* slot */
    uint16_t index;             /* kernel index in the image */
    uint8_t nargs;
    uint8_t ncu;
    uint8_t streams;            /* its AXL__ARG_STREAM arguments */
    uint8_t free_running;       /* ap_ctrl_none: never launched */
    struct axl__karg_meta args[AXL_MAX_KERNEL_ARGS]; /* sorted by id */
    uint16_t cu_ip[AXL_MAX_KERNEL_CUS];              /* IP_LAYOUT indexes */
    char name[AXL_KERNEL_NAME_MAX];
};

struct axl__bundle {
    uint16_t refs;
    uint16_t holds;             /* kernels taken from it */
    uint8_t state;              /* axl_bundle_state */
    bool built_from_source;
    uint16_t context;           /* slot; held */
    uint8_t ndev;
    uint16_t dev[AXL_MAX_CONTEXT_DEVICES];
    uint8_t nimg;
    uint16_t img[AXL_MAX_BUNDLE_IMAGES];
#if AXL_FEATURE_DESIGN_SWAP
    uint8_t place[AXL_MAX_CONTEXT_DEVICES]; /* per dev[i]: the slot region
                                   its designs load into
                                   (axl_kernel_bundle_place), 0: any */
#endif
};

/* The bundle pool's objects are struct axl__bundle. */
static inline struct axl__bundle *axl__bundle_at(uint16_t s)
{
    return axl__kernel_bundle_at(s);
}


/* An open IP (ip.c, axl/ip.h): a design's IP whose registers the
 * application reaches through the device's port. */
struct axl__ip {
    uint16_t holds;             /* calls inside the port with it */
    uint16_t bundle;            /* slot; held (keeps the design on device) */
    uint16_t device;            /* slot */
    uint16_t image;             /* slot of the design it is an IP of */
    uint32_t ip_index;          /* its IP_LAYOUT index */
    uintptr_t handle;           /* the port's, from ip_open */
    char name[48];              /* IP_LAYOUT's m_name, for messages */
};

/* Whether an IP handle (live, or released while a call used it) holds
 * bundle slot b on device d: the design stays (bundle.c). */
#if AXL_FEATURE_IP_ACCESS
bool axl__ip_holds(uint16_t b, const struct axl__device *d,
                   const char **name, uint32_t *handle);
#else
static inline bool axl__ip_holds(uint16_t b, const struct axl__device *d,
                                 const char **name, uint32_t *handle)
{
    (void)b, (void)d, (void)name, (void)handle;
    return false;
}
#endif

/* Images (image.c). */
void axl__image_unref(struct axl__image *img);

/* Kernel ids (kernel_id.c): an image's, made from its metadata (lock
 * held; on failure none are left) and freed with it. */
axl_status axl__image_kernels(const char *fn, struct axl__image *img);
void axl__image_kernels_free(struct axl__image *img);
bool axl__device_loads_images(const struct axl__device *d);
/* What would make kernel k run on one of these devices (slots), as the
 * first device whose port says it (kernel_fix), for messages; NULL when
 * none does. */
const char *axl__kernel_fix(const struct axl__kernel_id *k,
                            const uint16_t *devices, uint8_t n,
                            const char **device_name);
#if AXL_FEATURE_DESIGN_SWAP
/* The slot region (1..n) of d's shell that image x can load into, or 0
 * with why saying which rule of designs-design.md 3.2 it breaks (its
 * interface UUID is not the shell's; a unit outside every slot's window,
 * or units in two slots). On a device without a shell, 0 and why "". */
uint8_t axl__image_slot(const struct axl__device *d, const axl_xclbin *x,
                        char *why, size_t size);

/* The image of design `lead` (an image slot) for slot region r of d: the
 * lead itself or a variant of it (1.2) whose units lie in that slot;
 * AXL__NO_WANT when it has none (lock held; a scan: slow paths only). */
uint16_t axl__image_variant(const struct axl__device *d, uint16_t lead,
                            uint8_t r);

/* A design's name for messages: its first kernel's ("vadd"), in buf. */
const char *axl__design_name(const struct axl__image *img, char *buf,
                             size_t size);
#endif
bool axl__kernel_compatible(const struct axl__kernel_id *k,
                            const struct axl__device *d);
/* At start-up: the design device d came with. One the reader rejects
 * leaves it without built-in kernels and " (design rejected)" in its
 * name; axl__device_rejected says why (for messages). */
void axl__device_builtin(struct axl__device *d);
/* Why the design d came with was rejected, written to why; false (why
 * left "") when it came with none or it was taken. */
bool axl__device_rejected(const struct axl__device *d, char *why,
                          size_t size);
/* Programs device d with img unless it carries it (lock held; waits for
 * the commands on it, drops the lock while the port works). Once the
 * device is quiet, just before it programs, it asks may_replace (when
 * not NULL) and returns its failure instead. */
typedef axl_status (*axl__replace_check)(const char *fn,
                                         const struct axl__device *d,
                                         const void *arg);
axl_status axl__device_program(const char *fn, struct axl__device *d,
                               struct axl__image *img, axl_status fail_as,
                               char *log, size_t log_size,
                               axl__replace_check may_replace,
                               const void *arg);

/* Compute units (cu.c): unit `ordinal` of kernel `kernel_index` (NULL if
 * none; programming rewrites the run slots, so look again after any
 * wait). Their table is the placement's (place.h). */
struct axl__cu *axl__cu_find(struct axl__device *d, uint16_t kernel_index,
                             uint32_t ordinal);

/* A bundle one of its kernels no longer needs: freed with the last hold
 * once the application has released it (bundle.c). */
void axl__bundle_unhold(struct axl__bundle *b);

/* Built-in kernels of a device's design (kernel ids, ';'-separated names). */
axl_status axl__builtin_kernel_ids(const char *fn, const struct axl__device *d,
                                   void *value, size_t value_size,
                                   size_t *size_ret);
axl_status axl__builtin_kernel_names(const char *fn,
                                     const struct axl__device *d, void *value,
                                     size_t value_size, size_t *size_ret);

#endif /* AXL_IMAGE_H */
