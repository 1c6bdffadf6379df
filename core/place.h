/*
 * place.h - placements: a design made ready for one device
 * (docs/designs-design.md 1.3). A placement is the design's unit table
 * (which kernel and IP each compute unit is, the device banks each of its
 * arguments reaches) and the map of the design's memories onto the
 * device's banks, built once from the image. A region of the device
 * (struct axl__device_region, rt.h) carries one, and its run slots (d->cus) are
 * filled from it when the design is loaded. The launch checker reads the
 * placement of the kernel's design; dispatch reads the run slots.
 *
 * Today a device carries one design in region 0, and a placement lives
 * while its design is loaded there (issue 40's stage 2); on-demand
 * reprogramming (stage 3) keeps unloaded ones ready. With
 * AXL_FEATURE_DESIGN_SWAP 0 a placement keeps no table of its own: its
 * units are the device's run slots, as before placements.
 */
#ifndef AXL_PLACE_H
#define AXL_PLACE_H

#include "rt.h"
#include "cu.h"
#include "device_priv.h"
#include "kernel.h"
#include "image.h"

struct axl__placement {
    uint16_t device;            /* slot */
    uint16_t image;             /* slot of its design */
    uint8_t region;             /* where it is loaded, or AXL__NO_REGION */
    uint8_t nunits;             /* its units (at most AXL_MAX_DEVICE_CUS) */
    uint16_t compute_units;     /* its design's, counted past nunits too */
    uint8_t bank_of_mem[64];    /* MEM_TOPOLOGY index -> device bank, 0xFF:
                                   none */
#if AXL_FEATURE_DESIGN_SWAP
    struct axl__unit units[AXL_MAX_DEVICE_CUS];
#endif
};

/* Unit i of placement p (i < p->nunits). */
static inline const struct axl__unit *
axl__place_unit(const struct axl__placement *p, uint8_t i)
{
#if AXL_FEATURE_DESIGN_SWAP
    return &p->units[i];
#else
    const struct axl__device *d = axl__device_at(p->device);
    return &d->cus[d->region[p->region].cu0 + i].unit;
#endif
}

/* The placement of image slot `image` loaded in a region of device slot
 * `device`, or NULL (lock held). */
struct axl__placement *axl__place_loaded(uint16_t device, uint16_t image);

#if AXL_FEATURE_DESIGN_SWAP
/* The placement of image slot `image` on device slot `device`, loaded or
 * not, or NULL (lock held). */
struct axl__placement *axl__place_find(uint16_t device, uint16_t image);

/* The placement of img on d, made beside the loaded design when it has
 * none (its banks mapped onto the device's by address, 1.4), or NULL when
 * the pool is full of loaded ones (lock held). */
struct axl__placement *axl__place_ready(struct axl__device *d,
                                        const struct axl__image *img);

/* Whether every memory img's design uses is a bank of d (1.4: designs
 * on one device share its banks, matched by base address); if not, why
 * names the first that is not (lock held). */
bool axl__place_banks_fit(struct axl__device *d, const struct axl__image *img,
                          char *why, size_t size);

/* Region 0 of d now runs p, loaded by a swap (region_load: the banks
 * stay): the placement it ran stays, unloaded, for its design's return;
 * the run slots are filled from p (lock held). */
void axl__place_swap_in(struct axl__device *d, struct axl__placement *p);

/* Region 0 of d runs nothing the runtime knows (a swap failed, or one is
 * loading): its placement stays, unloaded (lock held). */
void axl__place_swap_out(struct axl__device *d);

/* Slot region r of d now runs p (a partial loaded there, 3.3): the
 * placement it ran stays, unloaded; its run slots are filled from p
 * (lock held). */
void axl__place_slot_in(struct axl__device *d, uint8_t r,
                        struct axl__placement *p);

/* Slot region r of d runs nothing the runtime knows (its load failed:
 * its old units' handles were closed): its placement stays, unloaded,
 * and a command of its design loads it again (lock held). */
void axl__place_slot_out(struct axl__device *d, uint8_t r);
#endif

/* The placement of kernel kn's design (image slot `image`) on device slot
 * `device`, through kn's cache (a handle compare when it is the last one)
 * with AXL_FEATURE_DESIGN_SWAP, or NULL when the design has none there
 * (lock held). */
static inline struct axl__placement *
axl__kernel_place(struct axl__kernel *kn, uint16_t device, uint16_t image)
{
#if AXL_FEATURE_DESIGN_SWAP
    struct axl__placement *p = axl__pool_get(AXL__POOL(PLACEMENT), kn->place);
    if (p && p->device == device && p->image == image)
        return p;
    p = axl__place_find(device, image);
    kn->place = p ? axl__pool_handle(AXL__POOL(PLACEMENT), p) : 0;
    return p;
#else
    (void)kn; /* one placement a device: its region's is found at once */
    return axl__place_loaded(device, image);
#endif
}

/* Region 0 of device d now carries image img (NULL: nothing the runtime
 * knows; lock held): the placement it carried goes, img's is made from
 * the image and the device's banks as they are now, and the run slots
 * are filled from it. Never fails: each device has a placement to take
 * (AXL_MAX_PLACEMENTS >= AXL_MAX_DEVICES, and a device's old one is freed
 * first). */
void axl__place_adopt(struct axl__device *d, const struct axl__image *img);

/* Image slot `image` is going (its last bundle released): its placements
 * go too, and a region that carried it carries a design the runtime no
 * longer knows (lock held). */
void axl__place_forget_image(uint16_t image);

#endif /* AXL_PLACE_H */
