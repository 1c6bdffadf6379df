// s2mm: stream to memory. Takes n 32-bit words from the AXI4-Stream
// data_in and writes them to dst through one m_axi bundle (gmem); the
// interface Vitis HLS generates for
//     void s2mm(hls::stream<ap_axiu<32, 0, 0, 0>> &data_in,
//               ap_uint<32> *dst, unsigned n)
// (dst at 0x10, n at 0x1C). TLAST is not looked at: n says how many. It
// takes no beat past the n-th, so a longer stream waits in its FIFO.
// ap_ctrl_chain by default. Written for axl's tests.
`include "axl_hls_ports.vh"

module s2mm #(
    parameter CHAIN = 1,
    parameter ISR_COR = 0,
    parameter READY_COR = 0,
    parameter START_PULSE = 0,
    parameter SW_RESET = 0,
    parameter READY_IRQ = 1
) (
    input wire ap_clk,
    input wire ap_rst_n,
    `AXL_AXIS_IN_PORTS(data_in, 32),
    `AXL_M_AXI_PORTS(gmem, 32),
    `AXL_S_AXI_CONTROL_PORTS(6)
);
    reg rst;
    always @(posedge ap_clk) rst <= !ap_rst_n;

    wire ap_start, ap_continue, core_reset;
    wire ap_idle, ap_done, ap_ready;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [4*32-1:0] args;
    wire rd_idle, rd_valid;
    wire [31:0] rd_data;
    /* verilator lint_on UNUSEDSIGNAL */

    axl_hls_control #(
        .ADDR_WIDTH(6), .ARG_WORDS(4),
        .ARG_MASK(64'b1011), // dst 0x10-0x14, n 0x1C
        .CHAIN(CHAIN), .ISR_COR(ISR_COR), .READY_COR(READY_COR),
        .START_PULSE(START_PULSE), .SW_RESET(SW_RESET),
        .READY_IRQ(READY_IRQ)
    ) control (
        .ACLK(ap_clk), .ARESET(rst),
        `AXL_S_AXI_CONTROL_CONNECT,
        .ap_start(ap_start), .ap_continue(ap_continue),
        .ap_core_reset(core_reset), .ap_done(ap_done), .ap_ready(ap_ready),
        .ap_idle(ap_idle), .args(args)
    );

    wire core_rst = rst || core_reset;
    reg req;
    reg [63:0] dst;
    reg [31:0] n, got;
    wire wr_idle, wr_ready;
    localparam S_IDLE = 2'd0, S_REQ = 2'd1, S_RUN = 2'd2, S_FINISH = 2'd3;
    reg [1:0] state;
    wire taking = state == S_RUN && got != n;

    axl_hls_m_axi #(.DW(32), .MAX_BURST(16), .OUTSTANDING(4)) gmem (
        .clk(ap_clk), .rst(rst), .abort(core_reset),
        .rd_req(1'b0), .rd_addr(64'd0), .rd_beats(32'd0), .rd_nosplit(1'b0),
        .rd_idle(rd_idle), .rd_valid(rd_valid), .rd_data(rd_data),
        .rd_ready(1'b1),
        .wr_req(req), .wr_addr(dst), .wr_beats(n),
        .wr_last_strb(4'hF), .wr_fault(2'd0), .wr_idle(wr_idle),
        .wr_valid(data_in_TVALID && taking), .wr_data(data_in_TDATA),
        .wr_ready(wr_ready),
        `AXL_M_AXI_CONNECT(gmem)
    );

    reg done_held;
    assign data_in_TREADY = taking && wr_ready;
    wire finishing = state == S_FINISH && (CHAIN == 0 || !done_held);
    // Idle as HLS has it: not while a start waits (auto-restart holds it).
    assign ap_idle = state == S_IDLE && !ap_start;
    assign ap_done = CHAIN != 0 ? done_held : finishing;
    assign ap_ready = finishing;

    always @(posedge ap_clk) begin
        if (core_rst) begin
            state <= S_IDLE;
            req <= 1'b0;
            done_held <= 1'b0;
            got <= 32'd0;
        end else begin
            req <= 1'b0;
            if (ap_continue)
                done_held <= 1'b0;
            if (data_in_TVALID && data_in_TREADY)
                got <= got + 32'd1;
            case (state)
                S_IDLE:
                    if (ap_start) begin
                        dst <= {args[1*32 +: 32], args[0*32 +: 32]};
                        n <= args[3*32 +: 32];
                        got <= 32'd0;
                        state <= args[3*32 +: 32] == 0 ? S_FINISH : S_REQ;
                    end
                S_REQ: begin
                    req <= 1'b1;
                    state <= S_RUN;
                end
                S_RUN:
                    if (!req && got == n && wr_idle)
                        state <= S_FINISH;
                S_FINISH:
                    if (finishing) begin
                        if (CHAIN != 0)
                            done_held <= 1'b1;
                        state <= S_IDLE;
                    end
            endcase
        end
    end
endmodule
