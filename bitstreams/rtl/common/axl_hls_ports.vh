// axl_hls_ports.vh: the port lists of a Vitis HLS kernel's AXI interfaces
// (names and widths as the generated top-level module has them), and their
// connections to axl_hls_control and axl_hls_m_axi. A macro per list so
// that every test kernel presents exactly the same interface.
`ifndef AXL_HLS_PORTS_VH
`define AXL_HLS_PORTS_VH

// An m_axi bundle b of DW data bits, 64-bit addresses, 1-bit IDs and user
// signals, AXI3-style 2-bit lock (what the generated RTL has).
`define AXL_M_AXI_PORTS(b, DW) \
    output wire            m_axi_``b``_AWVALID, \
    input  wire            m_axi_``b``_AWREADY, \
    output wire [63:0]     m_axi_``b``_AWADDR, \
    output wire [0:0]      m_axi_``b``_AWID, \
    output wire [7:0]      m_axi_``b``_AWLEN, \
    output wire [2:0]      m_axi_``b``_AWSIZE, \
    output wire [1:0]      m_axi_``b``_AWBURST, \
    output wire [1:0]      m_axi_``b``_AWLOCK, \
    output wire [3:0]      m_axi_``b``_AWCACHE, \
    output wire [2:0]      m_axi_``b``_AWPROT, \
    output wire [3:0]      m_axi_``b``_AWQOS, \
    output wire [3:0]      m_axi_``b``_AWREGION, \
    output wire [0:0]      m_axi_``b``_AWUSER, \
    output wire            m_axi_``b``_WVALID, \
    input  wire            m_axi_``b``_WREADY, \
    output wire [DW-1:0]   m_axi_``b``_WDATA, \
    output wire [DW/8-1:0] m_axi_``b``_WSTRB, \
    output wire            m_axi_``b``_WLAST, \
    output wire [0:0]      m_axi_``b``_WID, \
    output wire [0:0]      m_axi_``b``_WUSER, \
    output wire            m_axi_``b``_ARVALID, \
    input  wire            m_axi_``b``_ARREADY, \
    output wire [63:0]     m_axi_``b``_ARADDR, \
    output wire [0:0]      m_axi_``b``_ARID, \
    output wire [7:0]      m_axi_``b``_ARLEN, \
    output wire [2:0]      m_axi_``b``_ARSIZE, \
    output wire [1:0]      m_axi_``b``_ARBURST, \
    output wire [1:0]      m_axi_``b``_ARLOCK, \
    output wire [3:0]      m_axi_``b``_ARCACHE, \
    output wire [2:0]      m_axi_``b``_ARPROT, \
    output wire [3:0]      m_axi_``b``_ARQOS, \
    output wire [3:0]      m_axi_``b``_ARREGION, \
    output wire [0:0]      m_axi_``b``_ARUSER, \
    input  wire            m_axi_``b``_RVALID, \
    output wire            m_axi_``b``_RREADY, \
    input  wire [DW-1:0]   m_axi_``b``_RDATA, \
    input  wire            m_axi_``b``_RLAST, \
    input  wire [0:0]      m_axi_``b``_RID, \
    input  wire [0:0]      m_axi_``b``_RUSER, \
    input  wire [1:0]      m_axi_``b``_RRESP, \
    input  wire            m_axi_``b``_BVALID, \
    output wire            m_axi_``b``_BREADY, \
    input  wire [1:0]      m_axi_``b``_BRESP, \
    input  wire [0:0]      m_axi_``b``_BID, \
    input  wire [0:0]      m_axi_``b``_BUSER

`define AXL_M_AXI_CONNECT(b) \
    .AWVALID(m_axi_``b``_AWVALID), .AWREADY(m_axi_``b``_AWREADY), \
    .AWADDR(m_axi_``b``_AWADDR), .AWID(m_axi_``b``_AWID), \
    .AWLEN(m_axi_``b``_AWLEN), .AWSIZE(m_axi_``b``_AWSIZE), \
    .AWBURST(m_axi_``b``_AWBURST), .AWLOCK(m_axi_``b``_AWLOCK), \
    .AWCACHE(m_axi_``b``_AWCACHE), .AWPROT(m_axi_``b``_AWPROT), \
    .AWQOS(m_axi_``b``_AWQOS), .AWREGION(m_axi_``b``_AWREGION), \
    .AWUSER(m_axi_``b``_AWUSER), \
    .WVALID(m_axi_``b``_WVALID), .WREADY(m_axi_``b``_WREADY), \
    .WDATA(m_axi_``b``_WDATA), .WSTRB(m_axi_``b``_WSTRB), \
    .WLAST(m_axi_``b``_WLAST), .WID(m_axi_``b``_WID), \
    .WUSER(m_axi_``b``_WUSER), \
    .ARVALID(m_axi_``b``_ARVALID), .ARREADY(m_axi_``b``_ARREADY), \
    .ARADDR(m_axi_``b``_ARADDR), .ARID(m_axi_``b``_ARID), \
    .ARLEN(m_axi_``b``_ARLEN), .ARSIZE(m_axi_``b``_ARSIZE), \
    .ARBURST(m_axi_``b``_ARBURST), .ARLOCK(m_axi_``b``_ARLOCK), \
    .ARCACHE(m_axi_``b``_ARCACHE), .ARPROT(m_axi_``b``_ARPROT), \
    .ARQOS(m_axi_``b``_ARQOS), .ARREGION(m_axi_``b``_ARREGION), \
    .ARUSER(m_axi_``b``_ARUSER), \
    .RVALID(m_axi_``b``_RVALID), .RREADY(m_axi_``b``_RREADY), \
    .RDATA(m_axi_``b``_RDATA), .RLAST(m_axi_``b``_RLAST), \
    .RID(m_axi_``b``_RID), .RUSER(m_axi_``b``_RUSER), \
    .RRESP(m_axi_``b``_RRESP), \
    .BVALID(m_axi_``b``_BVALID), .BREADY(m_axi_``b``_BREADY), \
    .BRESP(m_axi_``b``_BRESP), .BID(m_axi_``b``_BID), \
    .BUSER(m_axi_``b``_BUSER)

// The control port (AW address bits wide) and the interrupt output.
`define AXL_S_AXI_CONTROL_PORTS(AW) \
    input  wire            s_axi_control_AWVALID, \
    output wire            s_axi_control_AWREADY, \
    input  wire [AW-1:0]   s_axi_control_AWADDR, \
    input  wire            s_axi_control_WVALID, \
    output wire            s_axi_control_WREADY, \
    input  wire [31:0]     s_axi_control_WDATA, \
    input  wire [3:0]      s_axi_control_WSTRB, \
    input  wire            s_axi_control_ARVALID, \
    output wire            s_axi_control_ARREADY, \
    input  wire [AW-1:0]   s_axi_control_ARADDR, \
    output wire            s_axi_control_RVALID, \
    input  wire            s_axi_control_RREADY, \
    output wire [31:0]     s_axi_control_RDATA, \
    output wire [1:0]      s_axi_control_RRESP, \
    output wire            s_axi_control_BVALID, \
    input  wire            s_axi_control_BREADY, \
    output wire [1:0]      s_axi_control_BRESP, \
    output wire            interrupt

`define AXL_S_AXI_CONTROL_CONNECT \
    .AWVALID(s_axi_control_AWVALID), .AWREADY(s_axi_control_AWREADY), \
    .AWADDR(s_axi_control_AWADDR), \
    .WVALID(s_axi_control_WVALID), .WREADY(s_axi_control_WREADY), \
    .WDATA(s_axi_control_WDATA), .WSTRB(s_axi_control_WSTRB), \
    .ARVALID(s_axi_control_ARVALID), .ARREADY(s_axi_control_ARREADY), \
    .ARADDR(s_axi_control_ARADDR), \
    .RVALID(s_axi_control_RVALID), .RREADY(s_axi_control_RREADY), \
    .RDATA(s_axi_control_RDATA), .RRESP(s_axi_control_RRESP), \
    .BVALID(s_axi_control_BVALID), .BREADY(s_axi_control_BREADY), \
    .BRESP(s_axi_control_BRESP), .interrupt(interrupt)

// An AXI4-Stream port p of DW data bits as Vitis HLS generates it for an
// hls::stream<ap_axiu<DW,0,0,0>>& argument: TDATA, TVALID, TREADY, TKEEP,
// TSTRB, TLAST (no TUSER, TID, TDEST at widths 0). _IN: the kernel reads
// it (a slave); _OUT: the kernel writes it (a master).
`define AXL_AXIS_IN_PORTS(p, DW) \
    input  wire [DW-1:0]   p``_TDATA, \
    input  wire            p``_TVALID, \
    output wire            p``_TREADY, \
    input  wire [DW/8-1:0] p``_TKEEP, \
    input  wire [DW/8-1:0] p``_TSTRB, \
    input  wire [0:0]      p``_TLAST

`define AXL_AXIS_OUT_PORTS(p, DW) \
    output wire [DW-1:0]   p``_TDATA, \
    output wire            p``_TVALID, \
    input  wire            p``_TREADY, \
    output wire [DW/8-1:0] p``_TKEEP, \
    output wire [DW/8-1:0] p``_TSTRB, \
    output wire [0:0]      p``_TLAST

`endif
