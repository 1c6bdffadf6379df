/*
 * axl/ip.h - the registers of any IP of a design: what XRT's xrt::ip and
 * PYNQ's register_map give, with axl's handles and statuses.
 *
 * For an IP the runtime does not drive for you: an RTL block with its own
 * register map, a DMA engine, a GPIO, or an HLS kernel you start by hand.
 *
 *     axl_ip ip;
 *     axl_ip_open(bundle, dev, "vadd:vadd_1", &ip);  // or "vadd_1"
 *     axl_ip_write32(ip, 0x10, 42);                  // first argument
 *     axl_ip_write32(ip, 0x04, 1);                   // GIE
 *     axl_ip_write32(ip, 0x08, 1);                   // IER: ap_done
 *     axl_ip_write32(ip, 0x00, 1);                   // ap_start
 *     axl_ip_wait_interrupt(ip, 1000000000);         // up to 1 s
 *     axl_ip_release(ip);
 *
 * The rules:
 * - The IP is named as the design's IP_LAYOUT names it: the whole name
 *   ("vadd:vadd_1") or, for a compute unit, its instance ("vadd_1"). An
 *   unknown name is AXL_ERR_INVALID, naming the IPs that exist.
 * - The handle holds the kernel bundle, which keeps the design on the
 *   device while it lives: a bundle that needs another design is refused
 *   (AXL_ERR_BAD_STATE, as for a kernel object, 4.11.6), and the bundle
 *   itself, released, lives on until the IP handle is released. The bundle
 *   must be executable, for `dev`, and the device must carry its design.
 * - An offset is bytes from the IP's base, 4-aligned, inside the IP's
 *   range: 64 KiB from its base (XRT's compute-unit address range, which
 *   the mmio port maps). Anything else is AXL_ERR_INVALID with the range
 *   in the message, and nothing is read or written.
 * - Registers are reached at once, beside whatever the runtime does: the
 *   runtime drives a compute unit's control registers itself when a
 *   command runs on it, so do not start a unit by hand while commands may
 *   run on it (axl_kernel_select_units keeps them elsewhere).
 * - Ports: the mmio port reaches every IP of the design. The XRT port
 *   reaches compute units (XRT 2.13's C API, xrtKernelReadRegister, on a
 *   kernel it opens exclusively) and cannot wait for an interrupt
 *   (xrt::ip::interrupt is C++ only): AXL_ERR_FEATURE_NOT_SUPPORTED. The
 *   emulated device has no registers: AXL_ERR_FEATURE_NOT_SUPPORTED at
 *   axl_ip_open.
 * - A released or stale handle is AXL_ERR_INVALID_OBJECT.
 *
 * With AXL_FEATURE_IP_ACCESS 0 every call is AXL_ERR_FEATURE_NOT_SUPPORTED
 * naming the switch.
 */
#ifndef AXL_IP_H
#define AXL_IP_H

#include <stdint.h>

#include "axl/status.h"
#include "axl/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The range every IP is given, in bytes from its base. */
#define AXL_IP_RANGE 0x10000u

/**
 * Opens IP `name` of the design bundle `kb` runs on device `dev`.
 * @param[in] kb an executable bundle whose devices include dev, and whose
 *            design dev carries
 * @param[in] dev the device
 * @param[in] name the IP's IP_LAYOUT name, or a compute unit's instance
 * @param[out] out the IP's handle
 * @return AXL_ERR_INVALID (unknown name, a bundle that is not executable
 *         or not for dev), AXL_ERR_BAD_STATE (dev carries another design),
 *         AXL_ERR_FEATURE_NOT_SUPPORTED (the device gives no register
 *         access), AXL_ERR_OUT_OF_RESOURCES (AXL_MAX_IPS), or the port's
 *         failure to open it.
 */
axl_status axl_ip_open(axl_kernel_bundle kb, axl_device dev, const char *name,
                       axl_ip *out);

/** Reads the 32-bit register at byte `offset` into *value. */
axl_status axl_ip_read32(axl_ip ip, uint32_t offset, uint32_t *value);

/** Writes value to the 32-bit register at byte `offset`. */
axl_status axl_ip_write32(axl_ip ip, uint32_t offset, uint32_t value);

/**
 * Waits until the IP has raised its interrupt since it was opened or since
 * the last wait that returned AXL_SUCCESS, and acknowledges it (the port's
 * interrupt entry clears the IP's ISR). The IP must have its interrupt
 * enabled (an HLS unit: GIE at 0x04, IER at 0x08).
 * @param[in] timeout_ns nanoseconds (on the device's clock when it has one
 *            of its own); UINT64_MAX: no limit
 * @return AXL_SUCCESS, AXL_ERR_TIMEOUT, AXL_ERR_FEATURE_NOT_SUPPORTED (the
 *         port cannot wait for an interrupt)
 */
axl_status axl_ip_wait_interrupt(axl_ip ip, uint64_t timeout_ns);

/** Releases the handle (and its hold on the bundle). */
axl_status axl_ip_release(axl_ip ip);

/** The IP's name as IP_LAYOUT gives it, NUL-terminated in cap bytes
 *  (AXL_ERR_INVALID when it does not fit), and its range in bytes. */
axl_status axl_ip_get_info(axl_ip ip, char *name, size_t cap,
                           uint32_t *range);

#ifdef __cplusplus
}
#endif

#endif /* AXL_IP_H */
