/*
 * axl/axl.h - the whole public API of axl.
 *
 * axl gives firmware the SYCL 2020 host model in C: platform, device,
 * context, queue, event, command groups, with every object taken from a
 * fixed pool. Each call returns an axl_status; results come back through
 * out-parameters. See README.md for a tour and DESIGN.md for the why.
 *
 * Calls are safe from several threads on ports with threads. On bare metal
 * only these may be called from an interrupt handler: axl_event_get_status,
 * axl_last_message and, for device ports, axl_hal_run_done.
 */
#ifndef AXL_AXL_H
#define AXL_AXL_H

#include "axl/status.h"
#include "axl/types.h"
#include "axl/runtime.h"
#include "axl/platform.h"
#include "axl/device.h"
#include "axl/context.h"
#include "axl/event.h"
#include "axl/buffer.h"
#include "axl/kernel_bundle.h"
#include "axl/handler.h"
#include "axl/queue.h"
#include "axl/graph.h"
#include "axl/ip.h"
#include "axl/shell.h"
#include "axl/pipeline.h"
#include "axl/trace.h"
#include "axl/kernels.h"

#endif /* AXL_AXL_H */
