// copy: dst[0..bytes) = src[0..bytes), 512 bits a beat, reading through
// one m_axi bundle (gmem0) and writing through another (gmem1), both at
// once: each beat read is the next beat written, with the last one's write
// strobes cut to what is left of bytes. Bursts of up to 64 beats (4 KiB),
// up to 8 in flight each way. Arguments: src at 0x10 (gmem0), dst at 0x1C
// (gmem1), bytes at 0x28; src and dst aligned to 64 bytes (the mmio
// port's allocations are). ap_ctrl_hs with ap_sw_reset by default. Written
// for axl's tests.
`include "axl_hls_ports.vh"

module copy #(
    parameter CHAIN = 0,
    parameter ISR_COR = 0,
    parameter READY_COR = 0,
    parameter START_PULSE = 0,
    parameter SW_RESET = 1,
    parameter READY_IRQ = 1
) (
    input wire ap_clk,
    input wire ap_rst_n,
    `AXL_M_AXI_PORTS(gmem0, 512),
    `AXL_M_AXI_PORTS(gmem1, 512),
    `AXL_S_AXI_CONTROL_PORTS(6)
);
    reg rst;
    always @(posedge ap_clk) rst <= !ap_rst_n;

    wire ap_start, ap_continue, core_reset;
    wire ap_idle, ap_done, ap_ready;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [7*32-1:0] args;
    /* verilator lint_on UNUSEDSIGNAL */

    axl_hls_control #(
        .ADDR_WIDTH(6), .ARG_WORDS(7),
        // src 0x10-0x14, dst 0x1C-0x20, bytes 0x28
        .ARG_MASK(64'b101_1011),
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
    reg [63:0] src, dst;
    reg [31:0] beats;
    reg [63:0] last_strb;
    wire rd_idle, rd_valid, rd_ready, wr_idle, wr_ready;
    wire [511:0] data;
    /* verilator lint_off UNUSEDSIGNAL */
    wire rd_idle1, rd_valid1, wr_idle0, wr_ready0;
    wire [511:0] rd_data1;
    /* verilator lint_on UNUSEDSIGNAL */

    axl_hls_m_axi #(.DW(512), .MAX_BURST(64), .OUTSTANDING(8)) gmem0 (
        .clk(ap_clk), .rst(rst), .abort(core_reset),
        .rd_req(req), .rd_addr(src), .rd_beats(beats), .rd_nosplit(1'b0),
        .rd_idle(rd_idle), .rd_valid(rd_valid), .rd_data(data),
        .rd_ready(rd_ready),
        .wr_req(1'b0), .wr_addr(64'd0), .wr_beats(32'd0),
        .wr_last_strb(64'd0), .wr_fault(2'd0), .wr_idle(wr_idle0),
        .wr_valid(1'b0), .wr_data(512'd0), .wr_ready(wr_ready0),
        `AXL_M_AXI_CONNECT(gmem0)
    );
    axl_hls_m_axi #(.DW(512), .MAX_BURST(64), .OUTSTANDING(8)) gmem1 (
        .clk(ap_clk), .rst(rst), .abort(core_reset),
        .rd_req(1'b0), .rd_addr(64'd0), .rd_beats(32'd0), .rd_nosplit(1'b0),
        .rd_idle(rd_idle1), .rd_valid(rd_valid1), .rd_data(rd_data1),
        .rd_ready(1'b1),
        .wr_req(req), .wr_addr(dst), .wr_beats(beats),
        .wr_last_strb(last_strb), .wr_fault(2'd0), .wr_idle(wr_idle),
        .wr_valid(rd_valid), .wr_data(data), .wr_ready(wr_ready),
        `AXL_M_AXI_CONNECT(gmem1)
    );
    assign rd_ready = wr_ready;

    localparam S_IDLE = 2'd0, S_REQ = 2'd1, S_RUN = 2'd2, S_FINISH = 2'd3;
    reg [1:0] state;
    reg done_held;
    wire [31:0] bytes = args[6*32 +: 32];

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
        end else begin
            req <= 1'b0;
            if (ap_continue)
                done_held <= 1'b0;
            case (state)
                S_IDLE:
                    if (ap_start) begin
                        src <= {args[1*32 +: 32], args[0*32 +: 32]};
                        dst <= {args[4*32 +: 32], args[3*32 +: 32]};
                        beats <= (bytes + 32'd63) >> 6;
                        last_strb <= bytes[5:0] == 6'd0 ? ~64'd0 :
                                     ~(~64'd0 << bytes[5:0]);
                        state <= bytes == 0 ? S_FINISH : S_REQ;
                    end
                S_REQ: begin
                    req <= 1'b1;
                    state <= S_RUN;
                end
                S_RUN:
                    if (!req && rd_idle && wr_idle)
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
