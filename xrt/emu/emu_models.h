/* The stock kernel models of the emulated device (models.c). */
#ifndef AXL_EMU_MODELS_H
#define AXL_EMU_MODELS_H

#include "axl/emu.h"

typedef struct axl_emu_stock_model {
    const char *name;
    axl_emu_model_fn fn;
} axl_emu_stock_model;

/** Ends with {NULL, NULL}. */
extern const axl_emu_stock_model axl_emu_stock_models[];

#endif
