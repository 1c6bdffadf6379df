/*
 * devops.h - the one place the core calls a device port (include/axl/hal.h).
 *
 * Each op of axl_device_port has one inline wrapper here, and the core calls
 * a port through these only. The contract is held here and in
 * port_lacks() (runtime.c), which every port an application or test brings
 * passes at axl_device_port_register; the board's own ports, built with the
 * library, are checked by test_port_contract (the_board_ports_keep_the_
 * contract) rather than by code every firmware would carry:
 *
 *   required           name, probe, open, close, describe, bank: checked at
 *                      registration, called without a test.
 *   device memory      mem_alloc, mem_write and mem_read: all three or none
 *                      (checked at registration). None: buffers cannot be
 *                      placed on the device (axl__device_copy tests
 *                      axl__dev_has_memory and says so), so the core reads
 *                      and writes only memory that mem_alloc gave, and the
 *                      three are called without a test. mem_free may be
 *                      NULL (a port that never gives memory back).
 *   runs kernels       run_start. NULL: the device runs no kernel, its
 *                      built-in design included (axl__dev_runs_kernels, in
 *                      axl__kernel_compatible), so no launch reaches it.
 *   the rest           load_image (NULL: AXL_ERR_FEATURE_NOT_SUPPORTED; the
 *                      device is not reprogrammable), kernel_compatible
 *                      (NULL: every kernel of a loadable image), mem_copy
 *                      (NULL: the caller bounces through host memory; it
 *                      needs device memory; tested by axl__dev_can_copy),
 *                      cu_open (NULL: handle 0) with cu_close (NULL:
 *                      nothing to close), run_cancel (NULL: an abandoned
 *                      run is waited for as it is; it still ends through
 *                      axl_hal_run_done), progress (NULL: the port finishes
 *                      runs by itself; a wait sleeps), ip_open with
 *                      ip_close, ip_read32 and ip_write32 (all four or
 *                      none, checked at registration; NULL: no register
 *                      access, axl/ip.h), ip_wait (NULL: cannot wait for
 *                      an IP's interrupt), mem_usage (NULL: a failed
 *                      allocation's message gives the bank's size only;
 *                      axl__dev_mem_usage says whether it could),
 *                      pipeline_open with pipeline_close, unit_start and
 *                      unit_stop (all four or none, checked at
 *                      registration; NULL: no pipelines, axl/pipeline.h),
 *                      unit_update (NULL: no scalar updates while
 *                      running), pipeline_drained (NULL: the FIFOs cannot
 *                      be seen).
 *
 * probe and open, and describe for a device a port adopts, run before there
 * is a device: runtime.c and hal.c call them on the port (they are required).
 *
 * So no port, however incomplete, makes the core call through NULL (STYLE:
 * "a missing op is never undefined behaviour"). The wrappers are inline: the
 * launch path pays no call for them.
 */
#ifndef AXL_DEVOPS_H
#define AXL_DEVOPS_H

#include "rt.h"
#include "device_priv.h"
#include "sched_priv.h"

/* A NULL optional op's answer; the message names the op. */
#define axl__dev_lacks(d, op)                                                  \
    axl__fail(op, AXL_ERR_FEATURE_NOT_SUPPORTED, "the %s port lacks it",      \
              (d)->port->name)

/* ---- Required ------------------------------------------------------------- */

static inline void axl__dev_close(const struct axl__device *d)
{
    d->port->close(d->data);
}

static inline axl_status axl__dev_describe(const struct axl__device *d,
                                           axl_hal_device_info *info)
{
    return d->port->describe(d->data, info);
}

static inline axl_status axl__dev_bank(const struct axl__device *d,
                                       uint32_t index, axl_hal_bank *out)
{
    return d->port->bank(d->data, index, out);
}

/* ---- Designs ---------------------------------------------------------------- */

static inline bool axl__dev_can_load(const struct axl__device *d)
{
    return d->port->load_image != NULL;
}

static inline axl_status axl__dev_load_image(const struct axl__device *d,
                                             const axl_xclbin *image,
                                             char *why, size_t why_size)
{
    if (!d->port->load_image)
        return axl__dev_lacks(d, "load_image");
    return d->port->load_image(d->data, image, why, why_size);
}

#if AXL_FEATURE_DESIGN_SWAP
/* Whether d is reprogrammed on demand (issue 40): the port loads a design
 * keeping allocations, and says the device may (hal.h). */
static inline bool axl__dev_swaps(const struct axl__device *d)
{
    return d->port->region_load && (d->info.flags & AXL_HAL_DEVICE_SWAPS);
}

static inline axl_status axl__dev_region_load(const struct axl__device *d,
                                              uint32_t *region,
                                              const axl_xclbin *image,
                                              char *why, size_t why_size)
{
    return d->port->region_load(d->data, region, image, why, why_size);
}
#endif

/* Called with the runtime lock held (hal.h allows it for this op only). */
static inline bool axl__dev_kernel_compatible(const struct axl__device *d,
                                              const axl_xclbin *image,
                                              uint32_t kernel_index)
{
    return !d->port->kernel_compatible ||
           d->port->kernel_compatible(d->data, image, kernel_index);
}

/* ---- Device memory (mem_alloc, mem_write, mem_read: all or none) ------------------------------------ */

static inline bool axl__dev_has_memory(const struct axl__device *d)
{
    return d->port->mem_alloc != NULL;
}

static inline axl_status axl__dev_mem_alloc(const struct axl__device *d,
                                            uint32_t bank, uint64_t size,
                                            void *user_ptr, axl_hal_mem *out)
{
    return d->port->mem_alloc(d->data, bank, size, user_ptr, out);
}

static inline void axl__dev_mem_free(const struct axl__device *d,
                                     axl_hal_mem *mem)
{
    if (d->port->mem_free)
        d->port->mem_free(d->data, mem);
}

static inline axl_status axl__dev_mem_write(const struct axl__device *d,
                                            axl_hal_mem *mem, uint64_t offset,
                                            const void *src, uint64_t size)
{
    return d->port->mem_write(d->data, mem, offset, src, size);
}

static inline axl_status axl__dev_mem_read(const struct axl__device *d,
                                           axl_hal_mem *mem, uint64_t offset,
                                           void *dst, uint64_t size)
{
    return d->port->mem_read(d->data, mem, offset, dst, size);
}

/* What bank `bank` holds now (no lock held), for a failed allocation's
 * message: false when the port cannot say. */
static inline bool axl__dev_mem_usage(const struct axl__device *d,
                                      uint32_t bank, axl_hal_bank_usage *out)
{
    return d->port->mem_usage &&
           d->port->mem_usage(d->data, bank, out) == AXL_SUCCESS;
}

/* Whether mem_copy exists; without it the caller bounces through the host.
 * axl__dev_mem_copy is called only when it does. */
static inline bool axl__dev_can_copy(const struct axl__device *d)
{
    return d->port->mem_copy != NULL;
}

static inline axl_status axl__dev_mem_copy(const struct axl__device *d,
                                           axl_hal_mem *dst, uint64_t dst_offset,
                                           axl_hal_mem *src, uint64_t src_offset,
                                           uint64_t size)
{
    return d->port->mem_copy(d->data, dst, dst_offset, src, src_offset, size);
}

/* ---- Compute units and runs ------------------------------------------------- */

/* A port without cu_open needs no per-unit handle: 0. */
static inline axl_status axl__dev_cu_open(const struct axl__device *d,
                                          const axl_xclbin *image,
                                          uint32_t kernel_index,
                                          uint32_t ip_index, uintptr_t *handle)
{
    if (!d->port->cu_open) {
        *handle = 0;
        return AXL_SUCCESS;
    }
    return d->port->cu_open(d->data, image, kernel_index, ip_index, handle);
}

static inline bool axl__dev_has_cu_open(const struct axl__device *d)
{
    return d->port->cu_open != NULL;
}

static inline void axl__dev_cu_close(const struct axl__device *d,
                                     uintptr_t handle)
{
    if (d->port->cu_close)
        d->port->cu_close(d->data, handle);
}

static inline bool axl__dev_runs_kernels(const struct axl__device *d)
{
    return d->port->run_start != NULL;
}

/* Called without a test, on the launch path: a kernel reaches dispatch only
 * on a device it is compatible with (its bundle's), and
 * axl__kernel_compatible refuses every kernel, built-in ones included, on a
 * device whose port has no run_start (test_port_contract). */
static inline axl_status axl__dev_run_start(const struct axl__device *d,
                                            const axl_hal_run *run)
{
    return d->port->run_start(d->data, run);
}

static inline bool axl__dev_can_cancel(const struct axl__device *d)
{
    return d->port->run_cancel != NULL;
}

static inline void axl__dev_run_cancel(const struct axl__device *d,
                                       const axl_hal_run *run)
{
    if (d->port->run_cancel)
        d->port->run_cancel(d->data, run);
}

/* Whether waits must drive this device's completions (progress). */
static inline bool axl__dev_polled(const struct axl__device *d)
{
    return d->port->progress != NULL;
}

static inline void axl__dev_progress(const struct axl__device *d,
                                     uint64_t deadline_ns)
{
    if (d->port->progress)
        d->port->progress(d->data, deadline_ns);
}

/* ---- Time (hal.h: now, AXL_HAL_DEVICE_OWN_CLOCK) ----------------------------- */

/* Whether the device's time is its own: a model's simulated clock
 * (never, with AXL_DEVICE_CLOCKS 0). */
static inline bool axl__dev_clocked(const struct axl__device *d)
{
#if AXL_DEVICE_CLOCKS
    return (d->info.flags & AXL_HAL_DEVICE_OWN_CLOCK) && d->port->now;
#else
    (void)d;
    return false;
#endif
}

/* The device's clock: its own, else the runtime's. Its commands' times
 * and its kernels' deadlines count it. Lock held or not. */
static inline uint64_t axl__dev_now(const struct axl__device *d)
{
    return axl__dev_clocked(d) ? d->port->now(d->data) : axl__now();
}

/* The clock of a command's queue's device (the runtime's for a command
 * without a queue): what its profiling and trace times count. */
static inline uint64_t axl__command_now(const struct axl__command *c)
{
#if AXL_DEVICE_CLOCKS
    if (c->queue != AXL__NO_QUEUE)
        return axl__dev_now(axl__device_at(c->device));
#else
    (void)c;
#endif
    return axl__now();
}

/* ---- IP registers (ip_open, ip_close, ip_read32, ip_write32: all or none;
 * ip_wait on its own), called without the lock (ip.c) ------------------------- */

static inline bool axl__dev_has_ip_access(const struct axl__device *d)
{
    return d->port->ip_open != NULL;
}

static inline axl_status axl__dev_ip_open(const struct axl__device *d,
                                          const axl_xclbin *image,
                                          uint32_t ip_index,
                                          const axl_xclbin_ip *ip,
                                          uintptr_t *handle)
{
    return d->port->ip_open(d->data, image, ip_index, ip, handle);
}

static inline void axl__dev_ip_close(const struct axl__device *d,
                                     uintptr_t handle)
{
    d->port->ip_close(d->data, handle);
}

static inline axl_status axl__dev_ip_read32(const struct axl__device *d,
                                            uintptr_t handle, uint32_t offset,
                                            uint32_t *value)
{
    return d->port->ip_read32(d->data, handle, offset, value);
}

static inline axl_status axl__dev_ip_write32(const struct axl__device *d,
                                             uintptr_t handle, uint32_t offset,
                                             uint32_t value)
{
    return d->port->ip_write32(d->data, handle, offset, value);
}

/* NULL ip_wait: the port cannot wait; the caller says so. */
static inline bool axl__dev_can_ip_wait(const struct axl__device *d)
{
    return d->port->ip_wait != NULL;
}

static inline axl_status axl__dev_ip_wait(const struct axl__device *d,
                                          uintptr_t handle,
                                          uint64_t timeout_ns)
{
    return d->port->ip_wait(d->data, handle, timeout_ns);
}

/* ---- Pipelines (pipeline_open, pipeline_close, unit_start, unit_stop: all
 * or none; unit_update and pipeline_drained on their own), called without
 * the lock (pipeline.c) ------------------------------------------------------ */

static inline bool axl__dev_has_pipelines(const struct axl__device *d)
{
    return d->port->pipeline_open != NULL;
}

static inline axl_status axl__dev_pipeline_open(const struct axl__device *d,
                                                axl_hal_pipeline *p)
{
    return d->port->pipeline_open(d->data, p);
}

static inline void axl__dev_pipeline_close(const struct axl__device *d,
                                           axl_hal_pipeline *p)
{
    d->port->pipeline_close(d->data, p);
}

static inline axl_status axl__dev_unit_start(const struct axl__device *d,
                                             axl_hal_pipeline *p,
                                             uint32_t unit,
                                             const axl_hal_arg *args,
                                             uint32_t n)
{
    return d->port->unit_start(d->data, p, unit, args, n);
}

/* NULL unit_update: the port cannot change a running unit's scalars. */
static inline axl_status axl__dev_unit_update(const struct axl__device *d,
                                              axl_hal_pipeline *p,
                                              uint32_t unit,
                                              const axl_hal_arg *arg,
                                              uint64_t timeout_ns)
{
    if (!d->port->unit_update)
        return axl__dev_lacks(d, "unit_update");
    return d->port->unit_update(d->data, p, unit, arg, timeout_ns);
}

static inline axl_status axl__dev_unit_stop(const struct axl__device *d,
                                            axl_hal_pipeline *p,
                                            uint32_t unit, uint32_t how,
                                            uint64_t timeout_ns)
{
    return d->port->unit_stop(d->data, p, unit, how, timeout_ns);
}

/* NULL pipeline_drained: the port cannot see the FIFOs; the caller says
 * so. */
static inline bool axl__dev_can_drain(const struct axl__device *d)
{
    return d->port->pipeline_drained != NULL;
}

static inline axl_status axl__dev_pipeline_drained(const struct axl__device *d,
                                                   axl_hal_pipeline *p,
                                                   uint64_t timeout_ns)
{
    return d->port->pipeline_drained(d->data, p, timeout_ns);
}

#endif /* AXL_DEVOPS_H */
