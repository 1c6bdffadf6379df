// sinc: a free-running stream kernel (ap_ctrl_none). From reset on it
// adds inc to every 32-bit word of the AXI4-Stream data_in and writes it
// to data_out, TLAST passed along; nothing starts or stops it. inc is the
// one register of its s_axi_control (0x10), as Vitis HLS generates for
//     void sinc(hls::stream<ap_axiu<32, 0, 0, 0>> &data_in,
//               hls::stream<ap_axiu<32, 0, 0, 0>> &data_out, unsigned inc)
//     { #pragma HLS INTERFACE ap_ctrl_none port=return ... }
// with no ap_start, done or interrupt: 0x00 reads 0, and a new inc applies
// from the next beat. Written for axl's tests.
`include "axl_hls_ports.vh"

module sinc (
    input wire ap_clk,
    input wire ap_rst_n,
    `AXL_AXIS_IN_PORTS(data_in, 32),
    `AXL_AXIS_OUT_PORTS(data_out, 32),
    input  wire            s_axi_control_AWVALID,
    output wire            s_axi_control_AWREADY,
    input  wire [4:0]      s_axi_control_AWADDR,
    input  wire            s_axi_control_WVALID,
    output wire            s_axi_control_WREADY,
    input  wire [31:0]     s_axi_control_WDATA,
    input  wire [3:0]      s_axi_control_WSTRB,
    input  wire            s_axi_control_ARVALID,
    output wire            s_axi_control_ARREADY,
    input  wire [4:0]      s_axi_control_ARADDR,
    output wire            s_axi_control_RVALID,
    input  wire            s_axi_control_RREADY,
    output wire [31:0]     s_axi_control_RDATA,
    output wire [1:0]      s_axi_control_RRESP,
    output wire            s_axi_control_BVALID,
    input  wire            s_axi_control_BREADY,
    output wire [1:0]      s_axi_control_BRESP
);
    reg rst;
    always @(posedge ap_clk) rst <= !ap_rst_n;

    // The register file: inc at 0x10, everything else reads 0.
    reg aw_done, w_done, b_pending, r_pending;
    reg [4:0] waddr;
    reg [31:0] wdata, rdata, inc;
    // Nothing is taken while in reset (the generated slave's reset state).
    assign s_axi_control_AWREADY = !rst && !aw_done && !b_pending;
    assign s_axi_control_WREADY = !rst && !w_done && !b_pending;
    assign s_axi_control_BVALID = b_pending;
    assign s_axi_control_BRESP = 2'b00;
    assign s_axi_control_ARREADY = !rst && !r_pending;
    assign s_axi_control_RVALID = r_pending;
    assign s_axi_control_RDATA = rdata;
    assign s_axi_control_RRESP = 2'b00;

    always @(posedge ap_clk) begin
        if (rst) begin
            aw_done <= 1'b0;
            w_done <= 1'b0;
            b_pending <= 1'b0;
            r_pending <= 1'b0;
            inc <= 32'd0;
            rdata <= 32'd0;
        end else begin
            if (s_axi_control_AWVALID && s_axi_control_AWREADY) begin
                aw_done <= 1'b1;
                waddr <= s_axi_control_AWADDR;
            end
            if (s_axi_control_WVALID && s_axi_control_WREADY) begin
                w_done <= 1'b1;
                wdata <= s_axi_control_WDATA;
            end
            if (aw_done && w_done) begin
                if (waddr == 5'h10)
                    inc <= wdata;
                aw_done <= 1'b0;
                w_done <= 1'b0;
                b_pending <= 1'b1;
            end
            if (b_pending && s_axi_control_BREADY)
                b_pending <= 1'b0;
            if (s_axi_control_ARVALID && s_axi_control_ARREADY) begin
                rdata <= s_axi_control_ARADDR == 5'h10 ? inc : 32'd0;
                r_pending <= 1'b1;
            end else if (r_pending && s_axi_control_RREADY) begin
                r_pending <= 1'b0;
            end
        end
    end

    /* verilator lint_off UNUSEDSIGNAL */
    wire [3:0] unused = s_axi_control_WSTRB ^ data_in_TKEEP ^ data_in_TSTRB;
    /* verilator lint_on UNUSEDSIGNAL */

    // The stream: one register stage, running from reset.
    reg ov, ol;
    reg [31:0] od;
    assign data_in_TREADY = !rst && (!ov || data_out_TREADY);
    assign data_out_TVALID = ov;
    assign data_out_TDATA = od;
    assign data_out_TLAST = ol;
    assign data_out_TKEEP = 4'hF;
    assign data_out_TSTRB = 4'hF;
    always @(posedge ap_clk) begin
        if (rst) begin
            ov <= 1'b0;
            ol <= 1'b0;
            od <= 32'd0;
        end else if (data_in_TVALID && data_in_TREADY) begin
            ov <= 1'b1;
            od <= data_in_TDATA + inc;
            ol <= data_in_TLAST;
        end else if (data_out_TREADY) begin
            ov <= 1'b0;
        end
    end
endmodule
