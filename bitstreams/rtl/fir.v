// fir: the stock fir kernel (bitstreams/stock/vitis/fir.xml; the C model
// in xrt/emu/models.c computes the same): a Q15 direct-form filter with
// zero history, out[i] = sat16((sum over k < taps, k <= i of
// coeff[k] * in[i - k] + 2^14) >> 15), on 16-bit samples. Interface as
// Vitis HLS gives it: one m_axi bundle gmem of 32 bits (16-bit narrow
// transfers, so buffers may start at any sample), in at 0x10, coeff at
// 0x1C, out at 0x28, taps at 0x34, len at 0x3C; ap_ctrl_chain.
//
// The coefficients are read first into a local memory; then each input
// sample is shifted into a history of MAXTAPS samples and its output is
// taps multiply-adds later. Like any HLS kernel it has a bound the C model
// has not: taps above MAXTAPS use the first MAXTAPS coefficients. Written
// for axl's tests.
`include "axl_hls_ports.vh"

module fir #(
    parameter CHAIN = 1,
    parameter ISR_COR = 0,
    parameter READY_COR = 0,
    parameter START_PULSE = 0,
    parameter SW_RESET = 1,
    parameter READY_IRQ = 1,
    parameter MAXTAPS = 4096
) (
    input wire ap_clk,
    input wire ap_rst_n,
    `AXL_M_AXI_PORTS(gmem, 32),
    `AXL_S_AXI_CONTROL_PORTS(6)
);
    localparam TB = $clog2(MAXTAPS);
    reg rst;
    always @(posedge ap_clk) rst <= !ap_rst_n;

    wire ap_start, ap_continue, core_reset;
    wire ap_idle, ap_done, ap_ready;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [12*32-1:0] args;
    /* verilator lint_on UNUSEDSIGNAL */

    axl_hls_control #(
        .ADDR_WIDTH(6), .ARG_WORDS(12),
        // in 0x10-0x14, coeff 0x1C-0x20, out 0x28-0x2C, taps 0x34, len 0x3C
        .ARG_MASK(64'b1010_1101_1011),
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

    localparam S_IDLE = 3'd0, S_COEFF = 3'd1, S_START = 3'd2, S_TAKE = 3'd3,
               S_MAC = 3'd4, S_OUT = 3'd5, S_DRAIN = 3'd6, S_FINISH = 3'd7;
    reg [2:0] state;
    reg rd_req, wr_req;
    reg [63:0] rd_addr, out;
    reg [31:0] rd_beats, len, ntaps, i, k, idx;
    wire rd_idle, rd_valid, wr_idle, wr_ready;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] rd_data; // the sample in its low half
    /* verilator lint_on UNUSEDSIGNAL */
    reg signed [63:0] acc;
    reg [TB-1:0] head;
    reg signed [15:0] coeff [0:MAXTAPS-1];
    reg signed [15:0] hist [0:MAXTAPS-1];
    reg done_held;

    // Round half up, then an arithmetic shift (floor), then saturate.
    wire signed [63:0] rounded = acc + 64'sd16384;
    wire signed [63:0] q = rounded >>> 15;
    wire [15:0] y = q > 64'sd32767 ? 16'h7FFF :
                    q < -64'sd32768 ? 16'h8000 : q[15:0];
    wire signed [31:0] product = coeff[k[TB-1:0]] * hist[head - k[TB-1:0]];
    // Multiply-adds for sample i: k < taps and k <= i.
    wire [31:0] macs = ntaps < i + 32'd1 ? ntaps : i + 32'd1;

    axl_hls_m_axi #(.DW(32), .EB(2), .MAX_BURST(16), .OUTSTANDING(8)) gmem (
        .clk(ap_clk), .rst(rst), .abort(core_reset),
        .rd_req(rd_req), .rd_addr(rd_addr), .rd_beats(rd_beats),
        .rd_nosplit(1'b0), .rd_idle(rd_idle), .rd_valid(rd_valid),
        .rd_data(rd_data), .rd_ready(state == S_COEFF || state == S_TAKE),
        .wr_req(wr_req), .wr_addr(out), .wr_beats(len),
        .wr_last_strb(4'hF), .wr_fault(2'd0), .wr_idle(wr_idle),
        .wr_valid(state == S_OUT), .wr_data({16'd0, y}),
        .wr_ready(wr_ready),
        `AXL_M_AXI_CONNECT(gmem)
    );

    wire finishing = state == S_FINISH && (CHAIN == 0 || !done_held);
    // Idle as HLS has it: not while a start waits (auto-restart holds it).
    assign ap_idle = state == S_IDLE && !ap_start;
    assign ap_done = CHAIN != 0 ? done_held : finishing;
    assign ap_ready = finishing;

    always @(posedge ap_clk) begin
        if (rst || core_reset) begin
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
                        len <= args[11*32 +: 32];
                        out <= {args[7*32 +: 32], args[6*32 +: 32]};
                        // the coefficients a sample can meet
                        ntaps <= args[9*32 +: 32] < args[11*32 +: 32] ?
                                 (args[9*32 +: 32] < MAXTAPS ?
                                  args[9*32 +: 32] : MAXTAPS) :
                                 (args[11*32 +: 32] < MAXTAPS ?
                                  args[11*32 +: 32] : MAXTAPS);
                        idx <= 32'd0;
                        if (args[11*32 +: 32] == 0) begin
                            state <= S_FINISH;
                        end else begin
                            rd_req <= 1'b1;
                            rd_addr <= {args[4*32 +: 32], args[3*32 +: 32]};
                            rd_beats <= args[9*32 +: 32] < args[11*32 +: 32] ?
                                 (args[9*32 +: 32] < MAXTAPS ?
                                  args[9*32 +: 32] : MAXTAPS) :
                                 (args[11*32 +: 32] < MAXTAPS ?
                                  args[11*32 +: 32] : MAXTAPS);
                            state <= S_COEFF;
                        end
                    end
                S_COEFF:
                    if (idx == ntaps) begin
                        if (!rd_req && rd_idle) begin
                            rd_req <= 1'b1;
                            rd_addr <= {args[1*32 +: 32], args[0*32 +: 32]};
                            rd_beats <= len;
                            wr_req <= 1'b1;
                            i <= 32'd0;
                            head <= {TB{1'b0}};
                            state <= S_START;
                        end
                    end else if (rd_valid) begin
                        coeff[idx[TB-1:0]] <= rd_data[15:0];
                        idx <= idx + 32'd1;
                    end
                S_START:
                    state <= S_TAKE;
                S_TAKE:
                    if (rd_valid) begin
                        hist[head] <= rd_data[15:0];
                        acc <= 64'sd0;
                        k <= 32'd0;
                        state <= S_MAC;
                    end
                S_MAC:
                    if (k == macs) begin
                        state <= S_OUT;
                    end else begin
                        acc <= acc + {{32{product[31]}}, product};
                        k <= k + 32'd1;
                    end
                S_OUT:
                    if (wr_ready) begin
                        head <= head + 1'b1;
                        i <= i + 32'd1;
                        state <= i + 32'd1 == len ? S_DRAIN : S_TAKE;
                    end
                S_DRAIN:
                    if (rd_idle && wr_idle)
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
