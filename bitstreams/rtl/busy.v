// busy: a slow kernel for timeouts. Round after round (rounds of them; 0:
// forever) it writes the round's number into each of out[0..words-1], one
// single-beat write at a time, waiting delay cycles before each, so that
// its writes go on for as long as a test needs and after the driver has
// given up on it. ap_ctrl_hs and no ap_sw_reset by default: once started
// with rounds 0 only ap_rst_n stops it. Arguments: out at 0x10 (64-bit
// pointer), words at 0x1C, rounds at 0x24, delay at 0x2C (32-bit scalars
// at an 8-byte stride). Written for axl's tests.
`include "axl_hls_ports.vh"

module busy #(
    parameter CHAIN = 0,
    parameter ISR_COR = 0,
    parameter READY_COR = 0,
    parameter START_PULSE = 0,
    parameter SW_RESET = 0,
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
    wire [8*32-1:0] args;
    /* verilator lint_on UNUSEDSIGNAL */

    axl_hls_control #(
        .ADDR_WIDTH(6), .ARG_WORDS(8),
        // out 0x10-0x14, words 0x1C, rounds 0x24, delay 0x2C
        .ARG_MASK(64'b1010_1011),
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

    localparam S_IDLE = 3'd0, S_WAIT = 3'd1, S_REQ = 3'd2, S_WRITE = 3'd3,
               S_RESP = 3'd4, S_FINISH = 3'd5;
    reg [2:0] state;

    wire core_rst = rst || core_reset;
    reg wr_req;
    reg [63:0] wr_addr;
    wire wr_idle, wr_ready;
    reg [31:0] round;
    /* verilator lint_off UNUSEDSIGNAL */
    wire rd_idle, rd_valid;
    wire [31:0] rd_data;
    /* verilator lint_on UNUSEDSIGNAL */

    axl_hls_m_axi #(.DW(32), .MAX_BURST(16), .OUTSTANDING(4)) gmem (
        .clk(ap_clk), .rst(rst), .abort(core_reset),
        .rd_req(1'b0), .rd_addr(64'd0), .rd_beats(32'd0), .rd_nosplit(1'b0),
        .rd_idle(rd_idle), .rd_valid(rd_valid), .rd_data(rd_data),
        .rd_ready(1'b1),
        .wr_req(wr_req), .wr_addr(wr_addr), .wr_beats(32'd1),
        .wr_last_strb(4'hF), .wr_fault(2'd0), .wr_idle(wr_idle),
        .wr_valid(state == S_WRITE), .wr_data(round),
        .wr_ready(wr_ready),
        `AXL_M_AXI_CONNECT(gmem)
    );

    reg [63:0] out;
    reg [31:0] words, rounds, delay, i, count;
    reg done_held;

    wire finishing = state == S_FINISH && (CHAIN == 0 || !done_held);
    // Idle as HLS has it: not while a start waits (auto-restart holds it).
    assign ap_idle = state == S_IDLE && !ap_start;
    assign ap_done = CHAIN != 0 ? done_held : finishing;
    assign ap_ready = finishing;

    always @(posedge ap_clk) begin
        if (core_rst) begin
            state <= S_IDLE;
            wr_req <= 1'b0;
            done_held <= 1'b0;
        end else begin
            wr_req <= 1'b0;
            if (ap_continue)
                done_held <= 1'b0;
            case (state)
                S_IDLE:
                    if (ap_start) begin
                        out <= {args[1*32 +: 32], args[0*32 +: 32]};
                        words <= args[3*32 +: 32];
                        rounds <= args[5*32 +: 32];
                        delay <= args[7*32 +: 32];
                        round <= 32'd1;
                        i <= 32'd0;
                        count <= args[7*32 +: 32];
                        state <= args[3*32 +: 32] == 0 ? S_FINISH : S_WAIT;
                    end
                S_WAIT:
                    if (count == 0)
                        state <= S_REQ;
                    else
                        count <= count - 32'd1;
                S_REQ: begin
                    wr_req <= 1'b1;
                    wr_addr <= out + {32'd0, i} * 4;
                    state <= S_WRITE;
                end
                S_WRITE:
                    if (wr_ready)
                        state <= S_RESP;
                S_RESP:
                    if (wr_idle && !wr_req) begin
                        count <= delay;
                        if (i + 32'd1 < words) begin
                            i <= i + 32'd1;
                            state <= S_WAIT;
                        end else if (rounds != 0 && round == rounds) begin
                            state <= S_FINISH;
                        end else begin
                            i <= 32'd0;
                            round <= round + 32'd1;
                            state <= S_WAIT;
                        end
                    end
                S_FINISH:
                    if (finishing) begin
                        if (CHAIN != 0)
                            done_held <= 1'b1;
                        state <= S_IDLE;
                    end
                default:
                    state <= S_IDLE;
            endcase
        end
    end
endmodule
