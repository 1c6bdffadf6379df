/*
 * objects.h - every pool's object type, complete: for the two files that
 * size every pool of pools.h, the pools' storage (runtime.c) and the
 * footprint probe (cmake/axl_footprint_probe.c). Any other file includes
 * the header of the objects it uses.
 */
#ifndef AXL_OBJECTS_H
#define AXL_OBJECTS_H

#include "rt.h"
#include "device_priv.h"   /* platform, device */
#include "context_priv.h"  /* context */
#include "queue_priv.h"    /* queue */
#include "event_priv.h"    /* event */
#include "sched_priv.h"         /* command, error */
#include "buffer_priv.h"   /* buffer, host accessor */
#include "image.h"         /* image, kernel id, kernel bundle, IP */
#include "kernel.h"        /* kernel */
#include "graph_priv.h"    /* graph, executable graph, graph node */
#include "pipeline_priv.h" /* pipeline */
#include "place.h"         /* placement */

#endif /* AXL_OBJECTS_H */
