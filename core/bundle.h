/*
 * bundle.h - what bundle.c offers source.c (the kernel_compiler path):
 * device and image lists, making and programming a bundle, and the
 * checks and messages both files give; and to kernel.c, whether a bundle
 * holds a kernel.
 */
#ifndef AXL_BUNDLE_H
#define AXL_BUNDLE_H

#include <string.h>

#include "image.h"
#include "device_priv.h"
#include "context_priv.h"

typedef struct devlist {
    uint8_t n;
    uint16_t slot[AXL_MAX_CONTEXT_DEVICES];
} devlist;

/* A device list of a context's or a bundle's devices. */
devlist axl__devices_of(uint8_t n, const uint16_t *slot);

typedef struct imglist {
    uint8_t n;
    uint16_t slot[AXL_MAX_BUNDLE_IMAGES];
} imglist;

/* How obtaining an executable bundle treats the design a device carries
 * (one at a time). */
enum program_mode {
    PROGRAM_NONE = 0, /* nothing to program (joins, source bundles) */
    PROGRAM_LIST,     /* get_kernel_bundle without ids, which a firmware
                         calls to list kernels: displaces no design another
                         live bundle uses */
    PROGRAM_WANT      /* for given kernels or images: programs their
                         design, displacing the one there */
};

/* A call the bundle's state does not allow: "<what>; this one is <state>". */
axl_status axl__wrong_state(const char *fn, const char *what, uint8_t state);
/* A query a source bundle does not answer yet (seed 003). */
axl_status axl__not_on_source(const char *fn, const char *call);
/* Without messages the text they would say is not compiled in: the
 * callers pass NULL (bundle.c defines them with their names in
 * parentheses, which these leave alone). */
#if !AXL_MESSAGES
#define axl__wrong_state(fn, what, state) axl__wrong_state(fn, NULL, state)
#define axl__not_on_source(fn, call) axl__not_on_source(fn, NULL)
#endif
/* The devices of a call: out of a context's (resolve) or, for compile,
 * link and build, a bundle's (subset); NULL and 0 mean all of them. */
axl_status axl__resolve_devices(const char *fn, const struct axl__context *c,
                                const axl_device *devs, uint32_t n,
                                devlist *out);
axl_status axl__subset_devices(const char *fn, const struct axl__bundle *b,
                               const axl_device *devs, uint32_t n,
                               devlist *out);
/* Is kernel k compatible with one of the devices? */
bool axl__kernel_fits(const struct axl__kernel_id *k, const devlist *l);
bool axl__bundle_has_image(const struct axl__bundle *b, uint16_t img);
/* A new bundle of context c holding the images, its devices programmed
 * as `program` says (executable bundles only). */
axl_status axl__make_bundle(const char *fn, struct axl__context *c,
                            uint8_t state, const devlist *devs,
                            const imglist *imgs, enum program_mode program,
                            bool from_source, axl_kernel_bundle *out);
#if AXL_FEATURE_DESIGN_SWAP
/* Whether an open IP or a pipeline of the design d carries pins it there
 * (designs-design.md 2.5): a swap would take it away. The message in why
 * (lock held). */
bool axl__design_pinned(const struct axl__device *d, char *why, size_t size);

/* Whether the application holds design `image` on d (a live executable
 * bundle of it for d, or a kernel, open IP or pipeline of a released
 * one); why names the first holder (lock held; a scan, slow paths). */
bool axl__image_held(const struct axl__device *d, uint16_t image,
                     char *why, size_t size);

/* Whether design `image` on d is pinned by an open IP or a pipeline of a
 * bundle of it: never taken out of its slot (2.5); why says by what
 * (lock held; a scan, slow paths). */
bool axl__image_pinned(const struct axl__device *d, uint16_t image,
                       char *why, size_t size);

/* The slot region a bundle of design `image` names for it on d
 * (axl_kernel_bundle_place), 0: none (lock held; a scan, slow paths). */
uint8_t axl__bundle_slot_named(const struct axl__device *d, uint16_t image);
#endif
axl_status axl__program_devices(const char *fn, struct axl__bundle *b,
                                enum program_mode mode, axl_status fail_as,
                                char *log, size_t log_size);
void axl__bundle_destroy(struct axl__bundle *b);
/* A kernel object of kernel id k, taken from bundle b (which it holds). */
axl_status axl__new_kernel(const char *fn, struct axl__bundle *b,
                           const struct axl__kernel_id *k, axl_kernel *out);

/* Whether bundle b holds kernel id k, for device d if not NULL: its
 * has_kernel (lock held; kernel.c asks it of a kernel's bundle). */
bool axl__bundle_has_kernel(const struct axl__bundle *b,
                            const struct axl__kernel_id *k,
                            const struct axl__device *d);

#endif /* AXL_BUNDLE_H */
