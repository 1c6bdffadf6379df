/* The stock kernel models of the emulated device (models.c), and what
 * emu.c and models.c share. */
#ifndef AXL_EMU_MODELS_H
#define AXL_EMU_MODELS_H

#include "axl/emu.h"
#include "axl/hal.h"
#include "emu_config.h"

/* axl_fail for the port's failures; with AXL_MESSAGES 0 the message is the
 * status name and the format and its arguments, checked inside a sizeof,
 * are not compiled in. */
#if AXL_MESSAGES
#define emu_fail axl_fail
#else
int axl__emu_unformatted(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
#define emu_fail(status, ...)                                                  \
    ((void)sizeof axl__emu_unformatted(__VA_ARGS__),                           \
     axl_fail(status, "%s", axl_status_name(status)))
#endif

typedef struct axl_emu_stock_model {
    const char *name;
    axl_emu_model_fn fn;
} axl_emu_stock_model;

/* For the mmio port's simulator (xrt/mmio/sim.c): the model registered
 * under a kernel name (1 when there is one), and the design the emulated
 * device carries from start-up. */
int axl__emu_model_find(const char *name, size_t len, axl_emu_model_fn *fn,
                        void **user);
void axl__emu_builtin_image(const void **bytes, size_t *size);
/* The same design pre-digested, or NULL (then the bytes above). */
const struct axl_xclbin_design *axl__emu_builtin_design(void);
int axl__emu_has_model_locked(const char *name, size_t len);

/** Ends with {NULL, NULL}. */
extern const axl_emu_stock_model axl_emu_stock_models[];

#endif
