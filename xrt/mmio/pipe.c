/*
 * xrt/mmio/pipe.c - pipelines on the mmio port (axl/pipeline.h, hal.h's
 * pipeline ops): what a driver does to the units of a streaming design,
 * and no more.
 *
 *  - Auto-restart (ap_ctrl_chain): its scalars written, IER's done bit
 *    on (GIE too in interrupt mode), then 0x00 = ap_start | auto_restart
 *    (0x81). Each end of an iteration the status register shows is
 *    acknowledged (ap_continue with auto_restart kept: every write of 0x00
 *    rewrites bit 7) and counted by whoever claims the unit, a waiter's
 *    poll (progress, axl__mmio_service) or the interrupt entry; the core
 *    reads the count as the unit's iterations, which unit.c ("Auto-restart
 *    units") says the meaning of: the control block of Vitis HLS 2022.2
 *    on shows no iteration's end on the control word
 *    (docs/hls-control.md, "Auto-restart"). Stopped by taking the status
 *    register from the entry, then a write of 0x00 (bit 7 clear; a 0 in
 *    bit 0 is ignored), then ap_idle waited for on the device's clock,
 *    the ends of the last iterations counted and the final ap_done
 *    continued; past the timeout, ap_sw_reset or the board's hook
 *    (axl__mmio_reset), and the stop says so.
 *  - Free-running (ap_ctrl_none): its scalars written, nothing else (it
 *    runs from the fabric's reset; the port never writes its 0x00).
 *    Stopped only by a reset.
 *  - Command units: the core's runs (mmio.c), reset on request.
 *
 * A new scalar for an auto-restart unit is written at once and taken by
 * the iteration after the one under way (axl's RTL latches its scalars
 * at each ap_start; an HLS core built with -s_axilite_mailbox does the
 * same through its mailbox); like a mailbox, the port holds one update at
 * a time: a second waits until an ap_done has ended the iteration the
 * first was written in.
 */
#include <stdatomic.h>
#include <string.h>

#include "axl/runtime.h"
#include "mmio_unit.h"

#if MMIO_STREAMS

static mmio_unit *unit_of(const axl_hal_pipeline *p, uint32_t k)
{
    const uint32_t ip = p->units[k].ip_index;
    return ip < AXL_MMIO_UNITS && axl__mmio.units[ip].known
               ? &axl__mmio.units[ip]
               : NULL;
}

/* Writes scalar arguments into the unit's registers (held words). */
static axl_status put_scalars(mmio_unit *u, const char *name,
                              const axl_hal_arg *args, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t m = 0;
        while (m < u->nargs && u->args[m].id != args[i].id)
            m++;
        if (m == u->nargs || u->args[m].is_mem)
            return mmio_fail(AXL_ERR_KERNEL_ARGUMENT,
                             "mmio: %s has no scalar register for argument "
                             "%u",
                             name, (unsigned)args[i].id);
        const mmio_arg *r = &u->args[m];
        uint32_t word[2] = {0, 0};
        const uint64_t size = args[i].size < r->size ? args[i].size : r->size;
        memcpy(word, args[i].value, size < 8 ? (size_t)size : 8u);
        axl__mmio_put(u, m, word, r->size >= 8 ? 2u : 1u);
    }
    return AXL_SUCCESS;
}

static uint64_t deadline_in(uint64_t ns)
{
    const uint64_t now = axl__mmio_now();
    return ns > UINT64_MAX - now ? UINT64_MAX : now + ns;
}

axl_status axl__mmio_pipeline_open(void *dev, axl_hal_pipeline *p)
{
    (void)dev;
    for (uint32_t k = 0; k < p->unit_count; k++) {
        mmio_unit *u = unit_of(p, k);
        if (!u)
            return mmio_fail(AXL_ERR_KERNEL_NOT_SUPPORTED,
                             "mmio: %s (IP_LAYOUT %u) is not a unit the port "
                             "maps (AXL_MMIO_UNITS %u)",
                             p->units[k].name,
                             (unsigned)p->units[k].ip_index,
                             (unsigned)AXL_MMIO_UNITS);
        if (p->units[k].kind == AXL_HAL_UNIT_COMMAND)
            continue;
        if (atomic_load(&u->run) || atomic_load(&u->hung_run))
            return mmio_fail(AXL_ERR_BAD_STATE, "mmio: %s runs a command",
                             p->units[k].name);
        axl_status st = axl__mmio_layout(u, p->image,
                                         p->units[k].kernel_index);
        if (st != AXL_SUCCESS)
            return st;
    }
    for (uint32_t k = 0; k < p->unit_count; k++)
        __atomic_store_n(&unit_of(p, k)->pipe, p, __ATOMIC_RELEASE);
    return AXL_SUCCESS;
}

int axl__mmio_work_to_come(void)
{
    for (uint32_t i = 0; i < AXL_MMIO_UNITS; i++) {
        const axl_hal_pipeline *p =
            __atomic_load_n(&axl__mmio.units[i].pipe, __ATOMIC_ACQUIRE);
        if (p && __atomic_load_n(&p->queued, __ATOMIC_ACQUIRE))
            return 1;
    }
    return 0;
}

void axl__mmio_pipeline_close(void *dev, axl_hal_pipeline *p)
{
    (void)dev;
    for (uint32_t k = 0; k < p->unit_count; k++) {
        mmio_unit *u = unit_of(p, k);
        if (u)
            __atomic_store_n(&u->pipe, NULL, __ATOMIC_RELEASE);
        if (u && p->units[k].kind == AXL_HAL_UNIT_AUTO_RESTART) {
            __atomic_store_n(&u->restart, 0, __ATOMIC_SEQ_CST);
            u->iterations = NULL;
        }
    }
}

axl_status axl__mmio_unit_start(void *dev, axl_hal_pipeline *p, uint32_t k,
                                const axl_hal_arg *args, uint32_t n)
{
    (void)dev;
    mmio_unit *u = unit_of(p, k);
    const uint32_t kind = p->units[k].kind;
    if (kind == AXL_HAL_UNIT_COMMAND)
        return AXL_SUCCESS;
    if (kind == AXL_HAL_UNIT_FREE_RUNNING)
        return put_scalars(u, p->units[k].name, args, n);
    axl_status st = axl__mmio_ready(u);
    if (st == AXL_SUCCESS)
        st = put_scalars(u, p->units[k].name, args, n);
    if (st != AXL_SUCCESS)
        return st;
    axl__mmio_restart_go(u, &p->units[k].iterations);
    return AXL_SUCCESS;
}

static uint32_t iterations(const axl_hal_pipeline *p, uint32_t k)
{
    return __atomic_load_n(&p->units[k].iterations, __ATOMIC_RELAXED);
}

axl_status axl__mmio_unit_update(void *dev, axl_hal_pipeline *p, uint32_t k,
                                 const axl_hal_arg *arg, uint64_t timeout_ns)
{
    (void)dev;
    mmio_unit *u = unit_of(p, k);
    const char *name = p->units[k].name;
    if (p->units[k].kind == AXL_HAL_UNIT_FREE_RUNNING)
        return put_scalars(u, name, arg, 1); /* read all the time */
    if (!__atomic_load_n(&u->restart, __ATOMIC_RELAXED))
        return mmio_fail(AXL_ERR_BAD_STATE, "mmio: %s is not on auto-restart",
                         name);
    /* A done that stands now is of an iteration under way before: answered
     * first, so the count below is the iteration under way's. */
    axl__mmio_service(u);
    /* One update at a time, as a mailbox holds one: an earlier write is
     * taken once the iteration it was written in ends. */
    const uint64_t until = deadline_in(timeout_ns);
    while (u->mbox_pending && iterations(p, k) == u->mbox_at) {
        if (axl__mmio_now() >= until)
            return mmio_fail(AXL_ERR_TIMEOUT,
                             "%s's register still waits for an iteration to "
                             "take an earlier update %llu ns later (it ended "
                             "%u iterations): nothing changed",
                             name, (unsigned long long)timeout_ns,
                             (unsigned)u->mbox_at);
        axl__mmio_give_time(until);
    }
    axl_status st = put_scalars(u, name, arg, 1);
    if (st != AXL_SUCCESS)
        return st;
    u->mbox_pending = 1;
    u->mbox_at = iterations(p, k);
    return AXL_SUCCESS;
}

/* Resets unit k (ap_sw_reset, else the board's hook): AXL_SUCCESS when
 * it came back idle. */
static axl_status reset(const axl_hal_pipeline *p, uint32_t k, char *how,
                        size_t cap)
{
    mmio_unit *u = unit_of(p, k);
    char why[AXL_MESSAGE_MAX - 64];
    why[0] = '\0';
    axl_status st =
        axl__mmio_reset(p->units[k].ip_index, why, sizeof why);
    if (st == AXL_SUCCESS)
        axl_format(how, cap, "%s", u->sw_reset ? "ap_sw_reset"
                                               : "the board's reset hook");
    else if (st == AXL_ERR_FEATURE_NOT_SUPPORTED)
        axl_format(how, cap, "no ap_sw_reset and no board reset hook: only "
                             "a reset of the fabric stops it");
    else
        axl_format(how, cap, "%s", why);
    return st;
}

axl_status axl__mmio_unit_stop(void *dev, axl_hal_pipeline *p, uint32_t k,
                               uint32_t how, uint64_t timeout_ns)
{
    (void)dev;
    mmio_unit *u = unit_of(p, k);
    const char *name = p->units[k].name;
    const uint32_t kind = p->units[k].kind;
    char done_by[AXL_MESSAGE_MAX - 64];
    if (kind != AXL_HAL_UNIT_AUTO_RESTART) {
        /* A command unit's run is the core's; a free-running unit runs on
         * (nothing but a reset stops one). */
        if (how != AXL_HAL_RESET)
            return AXL_SUCCESS;
        if (reset(p, k, done_by, sizeof done_by) != AXL_SUCCESS)
            return mmio_fail(AXL_ERR_RUNTIME, "mmio: %s did not reset: %s",
                             name, done_by);
        return AXL_SUCCESS;
    }
    /* auto_restart off, after the entry and the polls let go of the unit
     * (either would write it back), so that nothing sets it again. */
    axl__mmio_restart_claim(u);
    mmio_wr32(u->regs, MMIO_CTRL, 0);
    if (how == AXL_HAL_RESET) {
        u->iterations = NULL;
        if (reset(p, k, done_by, sizeof done_by) != AXL_SUCCESS)
            return mmio_fail(AXL_ERR_RUNTIME, "mmio: %s did not reset: %s",
                             name, done_by);
        return AXL_SUCCESS;
    }
    /* Close (the pipeline let go of) ends the unit at once, as the
     * emulated device ends its model: not idle now, it is reset. */
    const uint64_t until =
        how == AXL_HAL_CLOSE ? axl__mmio_now() : deadline_in(timeout_ns);
    uint32_t ctrl = 0;
    while (!axl__mmio_restart_idle(u, &ctrl)) {
        if (axl__mmio_now() >= until) {
            u->iterations = NULL;
            axl_status st = reset(p, k, done_by, sizeof done_by);
            if (st == AXL_SUCCESS && how == AXL_HAL_CLOSE)
                return AXL_SUCCESS;
            if (st != AXL_SUCCESS)
                return mmio_fail(AXL_ERR_RUNTIME,
                                 "mmio: %s was still busy %llu ns after "
                                 "auto-restart was cleared (control word "
                                 "0x%x), and did not reset: %s",
                                 name, (unsigned long long)timeout_ns,
                                 (unsigned)ctrl, done_by);
            return mmio_fail(AXL_ERR_TIMEOUT,
                             "%s was still busy %llu ns after auto-restart "
                             "was cleared (control word 0x%x): reset by %s",
                             name, (unsigned long long)timeout_ns,
                             (unsigned)ctrl, done_by);
        }
        axl__mmio_give_time(until);
    }
    axl__mmio_restart_end(u);
    return AXL_SUCCESS;
}

#endif /* MMIO_STREAMS */
