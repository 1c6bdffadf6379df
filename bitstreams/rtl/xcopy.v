// xcopy: dst[i] = src[i] + 1 for n 32-bit words, through an xpm_fifo_sync
// between the read and the write engines, as hand-written Vitis RTL
// kernels buffer their data (AMD's RTL kernel examples instantiate
// xpm_fifo_sync). Built with axl_add_rtl_kernel and nothing else: the
// macro's model comes from xrt/mmio/rtl/xpm. Arguments: src at 0x10
// (gmem0), dst at 0x1C (gmem1), n at 0x28. ap_ctrl_hs. Written for axl's
// tests.
`include "axl_hls_ports.vh"

module xcopy #(
    parameter FIFO_DEPTH = 16
) (
    input wire ap_clk,
    input wire ap_rst_n,
    `AXL_M_AXI_PORTS(gmem0, 32),
    `AXL_M_AXI_PORTS(gmem1, 32),
    `AXL_S_AXI_CONTROL_PORTS(6)
);
    reg rst;
    always @(posedge ap_clk) rst <= !ap_rst_n;

    wire ap_start, ap_continue, core_reset;
    wire ap_idle, ap_done, ap_ready;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [7*32-1:0] args;
    wire rd_idle1, rd_valid1, wr_idle0, wr_ready0, ap_continue_unused;
    wire [31:0] rd_data1;
    /* verilator lint_on UNUSEDSIGNAL */

    axl_hls_control #(
        .ADDR_WIDTH(6), .ARG_WORDS(7), .ARG_MASK(64'b101_1011)
    ) control (
        .ACLK(ap_clk), .ARESET(rst),
        `AXL_S_AXI_CONTROL_CONNECT,
        .ap_start(ap_start), .ap_continue(ap_continue),
        .ap_core_reset(core_reset), .ap_done(ap_done), .ap_ready(ap_ready),
        .ap_idle(ap_idle), .args(args)
    );

    reg req;
    reg [63:0] src, dst;
    reg [31:0] n;
    wire rd_idle, rd_valid, wr_idle, wr_ready;
    wire [31:0] rd_data;

    // The FIFO: first-word-fall-through, written from the read engine,
    // read into the write engine.
    wire fifo_full, fifo_empty, wr_busy, rd_busy;
    wire [31:0] fifo_dout;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [4:0] fifo_count;
    wire f_ae, f_af, f_dv, f_dbe, f_ovf, f_pe, f_pf, f_sbe, f_unf, f_ack;
    wire [4:0] f_rcount;
    /* verilator lint_on UNUSEDSIGNAL */
    xpm_fifo_sync #(
        .FIFO_MEMORY_TYPE("distributed"),
        .FIFO_WRITE_DEPTH(FIFO_DEPTH),
        .WRITE_DATA_WIDTH(32),
        .READ_DATA_WIDTH(32),
        .READ_MODE("fwft"),
        .FIFO_READ_LATENCY(0),
        .WR_DATA_COUNT_WIDTH(5),
        .RD_DATA_COUNT_WIDTH(5),
        .USE_ADV_FEATURES("1707")
    ) fifo (
        .wr_clk(ap_clk), .rst(rst || core_reset),
        .wr_en(rd_valid && rd_ready), .din(rd_data + 32'd1),
        .rd_en(!fifo_empty && wr_ready), .dout(fifo_dout),
        .full(fifo_full), .empty(fifo_empty),
        .wr_data_count(fifo_count), .rd_data_count(f_rcount),
        .wr_rst_busy(wr_busy), .rd_rst_busy(rd_busy),
        .almost_empty(f_ae), .almost_full(f_af), .data_valid(f_dv),
        .dbiterr(f_dbe), .overflow(f_ovf), .prog_empty(f_pe),
        .prog_full(f_pf), .sbiterr(f_sbe), .underflow(f_unf),
        .wr_ack(f_ack), .injectdbiterr(1'b0), .injectsbiterr(1'b0),
        .sleep(1'b0)
    );
    wire rd_ready = !fifo_full && !wr_busy;

    axl_hls_m_axi #(.DW(32), .MAX_BURST(16), .OUTSTANDING(4)) gmem0 (
        .clk(ap_clk), .rst(rst), .abort(core_reset),
        .rd_req(req), .rd_addr(src), .rd_beats(n), .rd_nosplit(1'b0),
        .rd_idle(rd_idle), .rd_valid(rd_valid), .rd_data(rd_data),
        .rd_ready(rd_ready),
        .wr_req(1'b0), .wr_addr(64'd0), .wr_beats(32'd0),
        .wr_last_strb(4'd0), .wr_fault(2'd0), .wr_idle(wr_idle0),
        .wr_valid(1'b0), .wr_data(32'd0), .wr_ready(wr_ready0),
        `AXL_M_AXI_CONNECT(gmem0)
    );
    axl_hls_m_axi #(.DW(32), .MAX_BURST(16), .OUTSTANDING(4)) gmem1 (
        .clk(ap_clk), .rst(rst), .abort(core_reset),
        .rd_req(1'b0), .rd_addr(64'd0), .rd_beats(32'd0), .rd_nosplit(1'b0),
        .rd_idle(rd_idle1), .rd_valid(rd_valid1), .rd_data(rd_data1),
        .rd_ready(1'b1),
        .wr_req(req), .wr_addr(dst), .wr_beats(n),
        .wr_last_strb(4'hF), .wr_fault(2'd0), .wr_idle(wr_idle),
        .wr_valid(!fifo_empty), .wr_data(fifo_dout), .wr_ready(wr_ready),
        `AXL_M_AXI_CONNECT(gmem1)
    );

    localparam S_IDLE = 2'd0, S_REQ = 2'd1, S_RUN = 2'd2, S_FINISH = 2'd3;
    reg [1:0] state;
    // Idle as HLS has it: not while a start waits (auto-restart holds it).
    assign ap_idle = state == S_IDLE && !ap_start;
    assign ap_done = state == S_FINISH;
    assign ap_ready = state == S_FINISH;

    always @(posedge ap_clk) begin
        if (rst || core_reset) begin
            state <= S_IDLE;
            req <= 1'b0;
        end else begin
            req <= 1'b0;
            case (state)
                S_IDLE:
                    if (ap_start) begin
                        src <= {args[1*32 +: 32], args[0*32 +: 32]};
                        dst <= {args[4*32 +: 32], args[3*32 +: 32]};
                        n <= args[6*32 +: 32];
                        state <= args[6*32 +: 32] == 0 ? S_FINISH : S_REQ;
                    end
                S_REQ: begin
                    req <= 1'b1;
                    state <= S_RUN;
                end
                S_RUN:
                    if (!req && rd_idle && wr_idle && fifo_empty)
                        state <= S_FINISH;
                S_FINISH:
                    state <= S_IDLE;
            endcase
        end
    end
endmodule
