// rogue: a kernel that breaks the AXI4 protocol on purpose, for the
// testbench's protocol checks. It writes beats words (0, 1, 2, ...) from
// addr, or reads them, in the way mode says:
//   0  a well-formed write (the control case)
//   1  one write burst of all the beats, across any 4 KiB boundary
//   2  a write whose first burst ends (WLAST) one beat before its AWLEN
//   3  a write whose first burst never marks its last beat
//   4  one read burst of all the beats, across any 4 KiB boundary
// Arguments: addr at 0x10 (64-bit pointer), mode at 0x1C, beats at 0x24.
// ap_ctrl_hs. Written for axl's tests.
`include "axl_hls_ports.vh"

module rogue #(
    parameter CHAIN = 0,
    parameter ISR_COR = 0,
    parameter READY_COR = 0,
    parameter START_PULSE = 0,
    parameter SW_RESET = 1,
    parameter READY_IRQ = 1
) (
    input wire ap_clk,
    input wire ap_rst_n,
    `AXL_M_AXI_PORTS(gmem, 32),
    `AXL_S_AXI_CONTROL_PORTS(6)
);
    reg rst;
    always @(posedge ap_clk) rst <= !ap_rst_n;

    wire ap_start, ap_continue, core_reset;
    wire ap_idle, ap_done, ap_ready;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [6*32-1:0] args;
    /* verilator lint_on UNUSEDSIGNAL */

    axl_hls_control #(
        .ADDR_WIDTH(6), .ARG_WORDS(6),
        // addr 0x10-0x14, mode 0x1C, beats 0x24
        .ARG_MASK(64'b10_1011),
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
    reg rd_req, wr_req;
    reg [63:0] addr;
    reg [31:0] beats, mode, count;
    wire rd_idle, wr_idle, wr_ready;
    /* verilator lint_off UNUSEDSIGNAL */
    wire rd_valid;
    wire [31:0] rd_data;
    /* verilator lint_on UNUSEDSIGNAL */
    localparam S_IDLE = 2'd0, S_REQ = 2'd1, S_RUN = 2'd2, S_FINISH = 2'd3;
    reg [1:0] state;

    axl_hls_m_axi #(.DW(32), .MAX_BURST(16), .OUTSTANDING(4)) gmem (
        .clk(ap_clk), .rst(rst), .abort(core_reset),
        .rd_req(rd_req), .rd_addr(addr), .rd_beats(beats),
        .rd_nosplit(mode == 32'd4), .rd_idle(rd_idle), .rd_valid(rd_valid),
        .rd_data(rd_data), .rd_ready(1'b1),
        .wr_req(wr_req), .wr_addr(addr), .wr_beats(beats),
        .wr_last_strb(4'hF),
        .wr_fault(mode == 32'd1 ? 2'd3 : mode == 32'd2 ? 2'd1 :
                  mode == 32'd3 ? 2'd2 : 2'd0),
        .wr_idle(wr_idle), .wr_valid(state == S_RUN), .wr_data(count),
        .wr_ready(wr_ready),
        `AXL_M_AXI_CONNECT(gmem)
    );

    reg done_held;
    wire finishing = state == S_FINISH && (CHAIN == 0 || !done_held);
    // Idle as HLS has it: not while a start waits (auto-restart holds it).
    assign ap_idle = state == S_IDLE && !ap_start;
    assign ap_done = CHAIN != 0 ? done_held : finishing;
    assign ap_ready = finishing;

    always @(posedge ap_clk) begin
        if (core_rst) begin
            state <= S_IDLE;
            rd_req <= 1'b0;
            wr_req <= 1'b0;
            done_held <= 1'b0;
        end else begin
            rd_req <= 1'b0;
            wr_req <= 1'b0;
            if (ap_continue)
                done_held <= 1'b0;
            case (state)
                S_IDLE:
                    if (ap_start) begin
                        addr <= {args[1*32 +: 32], args[0*32 +: 32]};
                        mode <= args[3*32 +: 32];
                        beats <= args[5*32 +: 32];
                        count <= 32'd0;
                        state <= args[5*32 +: 32] == 0 ? S_FINISH : S_REQ;
                    end
                S_REQ: begin
                    if (mode == 32'd4)
                        rd_req <= 1'b1;
                    else
                        wr_req <= 1'b1;
                    state <= S_RUN;
                end
                S_RUN: begin
                    if (wr_ready)
                        count <= count + 32'd1;
                    if (!rd_req && !wr_req && rd_idle && wr_idle &&
                        (mode == 32'd4 || count == beats))
                        state <= S_FINISH;
                end
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
