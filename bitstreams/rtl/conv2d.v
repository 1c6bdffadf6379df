// conv2d: the stock conv2d kernel (bitstreams/stock/vitis/conv2d.xml; the C
// model in xrt/emu/models.c computes the same): a 3x3 convolution over
// 8-bit pixels with zero padding, out = clamp((sum coeff * in) >> shift,
// 0, 255), negative sums giving 0. Interface as Vitis HLS gives it: one
// m_axi bundle gmem of 32 bits (byte transfers), in at 0x10, coeff at
// 0x1C, out at 0x28, width at 0x34, height at 0x3C, shift at 0x44;
// ap_ctrl_chain.
//
// It reads the nine coefficients, then the image into a local memory of
// MAXPIX pixels, then computes each pixel with nine multiply-adds and
// writes it. Bounds the C model has not: an image above MAXPIX pixels is
// cut there, and a shift above 30 (which the C model refuses) shifts.
// Written for axl's tests.
`include "axl_hls_ports.vh"

module conv2d #(
    parameter CHAIN = 1,
    parameter ISR_COR = 0,
    parameter READY_COR = 0,
    parameter START_PULSE = 0,
    parameter SW_RESET = 1,
    parameter READY_IRQ = 1,
    parameter MAXPIX = 1 << 18
) (
    input wire ap_clk,
    input wire ap_rst_n,
    `AXL_M_AXI_PORTS(gmem, 32),
    `AXL_S_AXI_CONTROL_PORTS(7)
);
    localparam PB = $clog2(MAXPIX);
    reg rst;
    always @(posedge ap_clk) rst <= !ap_rst_n;

    wire ap_start, ap_continue, core_reset;
    wire ap_idle, ap_done, ap_ready;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [14*32-1:0] args;
    /* verilator lint_on UNUSEDSIGNAL */

    axl_hls_control #(
        .ADDR_WIDTH(7), .ARG_WORDS(14),
        // in 0x10-0x14, coeff 0x1C-0x20, out 0x28-0x2C, width 0x34,
        // height 0x3C, shift 0x44
        .ARG_MASK(64'b10_1010_1101_1011),
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

    localparam S_IDLE = 3'd0, S_COEFF = 3'd1, S_IMAGE = 3'd2, S_MAC = 3'd3,
               S_OUT = 3'd4, S_DRAIN = 3'd5, S_FINISH = 3'd6;
    reg [2:0] state;
    reg rd_req, wr_req;
    reg [63:0] rd_addr;
    reg [31:0] rd_beats, w, h, px, idx, x, y;
    reg [4:0] shift;
    reg [3:0] t;
    reg signed [31:0] acc;
    wire rd_idle, rd_valid, wr_idle, wr_ready;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] rd_data; // the byte in its low 8 bits
    /* verilator lint_on UNUSEDSIGNAL */
    reg signed [7:0] coeff [0:8];
    reg [7:0] image [0:MAXPIX-1];
    reg done_held;

    // The neighbour of tap t (dy = t / 3 - 1, dx = t % 3 - 1), and whether
    // it lies inside the image.
    wire [1:0] ty = t < 4'd3 ? 2'd0 : t < 4'd6 ? 2'd1 : 2'd2;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [3:0] tx4 = t - {2'd0, ty} * 4'd3;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [1:0] tx = tx4[1:0];
    wire [31:0] ny = y + {30'd0, ty} - 32'd1;
    wire [31:0] nx = x + {30'd0, tx} - 32'd1;
    wire in_image = !(y == 0 && ty == 2'd0) && !(x == 0 && tx == 2'd0) &&
                  ny < h && nx < w;
    /* verilator lint_off WIDTH */
    wire [PB-1:0] at = ny * w + nx;
    /* verilator lint_on WIDTH */
    wire signed [16:0] product = coeff[t] * $signed({1'b0, image[at]});
    wire signed [31:0] shifted = acc >>> shift;
    wire [7:0] value = acc < 0 ? 8'd0 : shifted > 32'sd255 ? 8'd255 :
                       shifted[7:0];

    axl_hls_m_axi #(.DW(32), .EB(1), .MAX_BURST(16), .OUTSTANDING(8)) gmem (
        .clk(ap_clk), .rst(rst), .abort(core_reset),
        .rd_req(rd_req), .rd_addr(rd_addr), .rd_beats(rd_beats),
        .rd_nosplit(1'b0), .rd_idle(rd_idle), .rd_valid(rd_valid),
        .rd_data(rd_data), .rd_ready(state == S_COEFF || state == S_IMAGE),
        .wr_req(wr_req), .wr_addr({args[7*32 +: 32], args[6*32 +: 32]}),
        .wr_beats(px), .wr_last_strb(4'hF), .wr_fault(2'd0),
        .wr_idle(wr_idle), .wr_valid(state == S_OUT),
        .wr_data({24'd0, value}), .wr_ready(wr_ready),
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
                        w <= args[9*32 +: 32];
                        h <= args[11*32 +: 32];
                        shift <= args[13*32 +: 5];
                        px <= args[9*32 +: 32] * args[11*32 +: 32] > MAXPIX ?
                              MAXPIX : args[9*32 +: 32] * args[11*32 +: 32];
                        idx <= 32'd0;
                        if (args[9*32 +: 32] == 0 || args[11*32 +: 32] == 0) begin
                            state <= S_FINISH;
                        end else begin
                            rd_req <= 1'b1;
                            rd_addr <= {args[4*32 +: 32], args[3*32 +: 32]};
                            rd_beats <= 32'd9;
                            state <= S_COEFF;
                        end
                    end
                S_COEFF:
                    if (idx == 32'd9) begin
                        if (!rd_req && rd_idle) begin
                            rd_req <= 1'b1;
                            rd_addr <= {args[1*32 +: 32], args[0*32 +: 32]};
                            rd_beats <= px;
                            idx <= 32'd0;
                            state <= S_IMAGE;
                        end
                    end else if (rd_valid) begin
                        coeff[idx[3:0]] <= rd_data[7:0];
                        idx <= idx + 32'd1;
                    end
                S_IMAGE:
                    if (idx == px) begin
                        if (!rd_req && rd_idle) begin
                            wr_req <= 1'b1;
                            x <= 32'd0;
                            y <= 32'd0;
                            t <= 4'd0;
                            acc <= 32'sd0;
                            state <= S_MAC;
                        end
                    end else if (rd_valid) begin
                        image[idx[PB-1:0]] <= rd_data[7:0];
                        idx <= idx + 32'd1;
                    end
                S_MAC:
                    if (t == 4'd9) begin
                        state <= S_OUT;
                    end else begin
                        if (in_image)
                            acc <= acc + {{15{product[16]}}, product};
                        t <= t + 4'd1;
                    end
                S_OUT:
                    if (wr_ready) begin
                        t <= 4'd0;
                        acc <= 32'sd0;
                        if (x + 32'd1 == w) begin
                            x <= 32'd0;
                            y <= y + 32'd1;
                        end else begin
                            x <= x + 32'd1;
                        end
                        state <= y * w + x + 32'd1 == px ? S_DRAIN : S_MAC;
                    end
                S_DRAIN:
                    if (wr_idle)
                        state <= S_FINISH;
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
