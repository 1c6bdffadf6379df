// vadd: out_r[i] = in1[i] + in2[i] for i < size (32-bit, wrapping), the
// stock vadd kernel (bitstreams/stock/vitis/vadd.xml; xrt/emu/models.c
// computes the same) as RTL with the interface Vitis HLS gives it: ap_clk,
// ap_rst_n, one m_axi bundle gmem of 32 bits, s_axi_control with in1 at
// 0x10, in2 at 0x1C, out_r at 0x28 (64-bit pointers, 12-byte stride) and
// size at 0x34, and the interrupt output. Written for axl's tests.
//
// It works in chunks of CHUNK elements: a burst read of in1 into a local
// buffer, then in2 read and out_r written as one stream (each in2 beat
// plus the buffered in1 element is the next out_r beat). Parameters pick
// the variant of the control protocol (axl_hls_control); the stock XML
// says ap_ctrl_chain.
`include "axl_hls_ports.vh"

module vadd #(
    parameter CHAIN = 1,
    parameter ISR_COR = 0,
    parameter READY_COR = 0,
    parameter START_PULSE = 0,
    parameter SW_RESET = 1,
    parameter READY_IRQ = 1,
    parameter RESTART_DONES = 0,
    parameter CHUNK = 256,
    parameter MAX_BURST = 16,
    parameter OUTSTANDING = 16
) (
    input wire ap_clk,
    input wire ap_rst_n,
    `AXL_M_AXI_PORTS(gmem, 32),
    `AXL_S_AXI_CONTROL_PORTS(6)
);
    reg rst;
    always @(posedge ap_clk) rst <= !ap_rst_n;

    wire ap_start, ap_continue, core_reset;
    reg ap_done, ap_ready;
    wire ap_idle;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [12*32-1:0] args; // the reserved words read as 0
    /* verilator lint_on UNUSEDSIGNAL */

    axl_hls_control #(
        .ADDR_WIDTH(6), .ARG_WORDS(12),
        // in1 0x10-0x14, in2 0x1C-0x20, out_r 0x28-0x2C, size 0x34
        .ARG_MASK(64'b10_1101_1011),
        .CHAIN(CHAIN), .ISR_COR(ISR_COR), .READY_COR(READY_COR),
        .START_PULSE(START_PULSE), .SW_RESET(SW_RESET),
        .READY_IRQ(READY_IRQ), .RESTART_DONES(RESTART_DONES)
    ) control (
        .ACLK(ap_clk), .ARESET(rst),
        `AXL_S_AXI_CONTROL_CONNECT,
        .ap_start(ap_start), .ap_continue(ap_continue),
        .ap_core_reset(core_reset), .ap_done(ap_done), .ap_ready(ap_ready),
        .ap_idle(ap_idle), .args(args)
    );

    wire core_rst = rst || core_reset;

    reg rd_req, wr_req;
    reg [63:0] rd_addr, wr_addr;
    reg [31:0] rd_beats, wr_beats;
    wire rd_idle, rd_valid, rd_ready, wr_idle, wr_valid, wr_ready;
    wire [31:0] rd_data, wr_data;

    axl_hls_m_axi #(.DW(32), .MAX_BURST(MAX_BURST),
                    .OUTSTANDING(OUTSTANDING)) gmem (
        .clk(ap_clk), .rst(rst), .abort(core_reset),
        .rd_req(rd_req), .rd_addr(rd_addr), .rd_beats(rd_beats),
        .rd_nosplit(1'b0), .rd_idle(rd_idle), .rd_valid(rd_valid),
        .rd_data(rd_data), .rd_ready(rd_ready),
        .wr_req(wr_req), .wr_addr(wr_addr), .wr_beats(wr_beats),
        .wr_last_strb(4'hF), .wr_fault(2'd0), .wr_idle(wr_idle),
        .wr_valid(wr_valid), .wr_data(wr_data), .wr_ready(wr_ready),
        `AXL_M_AXI_CONNECT(gmem)
    );

    localparam S_IDLE = 3'd0, S_CHUNK = 3'd1, S_READ1 = 3'd2,
               S_START2 = 3'd3, S_ADD = 3'd4, S_FINISH = 3'd5;
    reg [2:0] state;
    reg [63:0] in1, in2, out_r;
    reg [31:0] left, n, idx;
    reg done_held; // ap_ctrl_chain: ap_done until ap_continue
    reg [31:0] buffer [0:CHUNK-1];

    // Idle as HLS has it: not while a start waits (auto-restart holds it).
    assign ap_idle = state == S_IDLE && !ap_start;
    // The sum stream: an in2 beat goes out with the buffered in1 element.
    assign wr_valid = state == S_ADD && rd_valid;
    assign wr_data = rd_data + buffer[idx[$clog2(CHUNK)-1:0]];
    assign rd_ready = state == S_READ1 || (state == S_ADD && wr_ready);

    // The run ends once every write has its response; in ap_ctrl_chain
    // not before the last done was taken (ap_continue).
    wire finishing = state == S_FINISH && wr_idle &&
                     (CHAIN == 0 || !done_held);
    always @(*) begin
        ap_done = CHAIN != 0 ? done_held : finishing;
        ap_ready = finishing;
    end

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
                        in1 <= {args[1*32 +: 32], args[0*32 +: 32]};
                        in2 <= {args[4*32 +: 32], args[3*32 +: 32]};
                        out_r <= {args[7*32 +: 32], args[6*32 +: 32]};
                        left <= args[9*32 +: 32];
                        state <= S_CHUNK;
                    end
                S_CHUNK:
                    if (left == 0) begin
                        state <= S_FINISH;
                    end else if (rd_idle && wr_idle) begin
                        n <= left < CHUNK ? left : CHUNK;
                        rd_req <= 1'b1;
                        rd_addr <= in1;
                        rd_beats <= left < CHUNK ? left : CHUNK;
                        idx <= 32'd0;
                        state <= S_READ1;
                    end
                S_READ1:
                    if (rd_valid) begin
                        buffer[idx[$clog2(CHUNK)-1:0]] <= rd_data;
                        idx <= idx + 32'd1;
                        if (idx + 32'd1 == n)
                            state <= S_START2;
                    end
                S_START2:
                    if (rd_idle && !rd_req) begin
                        rd_req <= 1'b1;
                        rd_addr <= in2;
                        rd_beats <= n;
                        wr_req <= 1'b1;
                        wr_addr <= out_r;
                        wr_beats <= n;
                        idx <= 32'd0;
                        state <= S_ADD;
                    end
                S_ADD:
                    if (wr_valid && wr_ready) begin
                        idx <= idx + 32'd1;
                        if (idx + 32'd1 == n) begin
                            in1 <= in1 + {32'd0, n} * 4;
                            in2 <= in2 + {32'd0, n} * 4;
                            out_r <= out_r + {32'd0, n} * 4;
                            left <= left - n;
                            state <= S_CHUNK;
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
