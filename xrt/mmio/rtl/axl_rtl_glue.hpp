// axl_rtl_glue.hpp - what the generated per-kernel glue gives the RTL
// testbench (testbench.cpp): a Verilated top's ports as a table of
// signals, found by name in the Verilated header from the names the
// kernel XML gives (s_axi_control_*, m_axi_<bundle>_*), and a kernel
// descriptor that makes instances. Written by glue.cmake, compiled into
// the target axl_add_rtl_kernel makes; nothing else includes it.
#ifndef AXL_RTL_GLUE_HPP
#define AXL_RTL_GLUE_HPP

#include <cstddef>
#include <cstdint>

class VerilatedContext;

namespace axl_rtl {

// One port of a Verilated top: where its value lives and how wide it is.
// Verilator stores a port of up to 8 bits in a uint8_t, up to 16 in a
// uint16_t, up to 32 in a uint32_t, up to 64 in a uint64_t and wider ones
// as little-endian 32-bit words (VlWide), so the storage size tells the
// kind. p is null for a port the RTL does not have (optional ones).
struct signal {
    void *p = nullptr;
    uint32_t bits = 0;
    uint32_t bytes = 0;
};

template <typename T> signal sig(T &port, uint32_t bits)
{
    signal s;
    s.p = static_cast<void *>(&port);
    s.bits = bits;
    s.bytes = static_cast<uint32_t>(sizeof port);
    return s;
}

// The control port (AXI4-Lite slave).
struct lite_port {
    signal awvalid, awready, awaddr, wvalid, wready, wdata, wstrb;
    signal bvalid, bready, bresp;
    signal arvalid, arready, araddr, rvalid, rready, rdata, rresp;
};

// An m_axi bundle (AXI4 master).
struct mm_port {
    const char *name = nullptr;  // "m_axi_gmem"
    uint32_t data_bits = 0;
    signal awvalid, awready, awaddr, awid, awlen, awsize, awburst;
    signal wvalid, wready, wdata, wstrb, wlast;
    signal bvalid, bready, bresp, bid;
    signal arvalid, arready, araddr, arid, arlen, arsize, arburst;
    signal rvalid, rready, rdata, rlast, rresp, rid;
};

// An AXI4-Stream port: out when the kernel writes it (TVALID, TDATA,
// TLAST, TKEEP and TSTRB are its outputs, TREADY its input), else in. Its
// width is TDATA's (tdata.bits). arg_id is its argument's id in the
// kernel XML, which CONNECTIVITY names.
struct axis_port {
    const char *name = nullptr; // "data_out"
    bool out = false;
    uint32_t arg_id = 0;
    signal tdata, tvalid, tready, tlast, tkeep, tstrb;
};

constexpr unsigned max_bundles = 16;
constexpr unsigned max_streams = 16;

// One instance of a kernel's RTL.
class dut {
  public:
    virtual ~dut() = default;
    virtual void eval() = 0;
    virtual bool finished() const = 0; // the RTL ran $finish
    virtual void close() = 0;          // final blocks, before deletion
    signal clk, rst_n, interrupt;
    lite_port ctrl;
    mm_port mm[max_bundles];
    unsigned bundles = 0;
    axis_port axis[max_streams];
    unsigned streams = 0;
    bool has_ctrl = true; // an ap_ctrl_none kernel may have no s_axi_control
};

// A kernel built in: its name in the kernel XML (what IP_LAYOUT entries
// name), its Verilog top, how to make an instance, whether its RTL has an
// interrupt pin, and whether it was built with ap_sw_reset (what
// axl_add_rtl_kernel's SW_RESET says: no port shows it).
struct kernel {
    const char *name;
    const char *top;
    dut *(*make)(VerilatedContext *ctx, const char *instance);
    bool has_interrupt;
    bool sw_reset;
};

// What a target links: its kernels and the design linked beside them.
struct registry {
    const kernel *const *kernels;
    unsigned count;
    const unsigned char *design;
    const size_t *design_size;
};

} // namespace axl_rtl

// Generated per target (axl_add_rtl_kernel); the testbench reads it.
extern const axl_rtl::registry axl__rtl_registry;

#endif
