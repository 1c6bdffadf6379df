// mm2s: memory to stream. Reads n 32-bit words from src through one m_axi
// bundle (gmem) and writes them, in order, to the AXI4-Stream data_out,
// TLAST on the last; the interface Vitis HLS generates for
//     void mm2s(const ap_uint<32> *src,
//               hls::stream<ap_axiu<32, 0, 0, 0>> &data_out, unsigned n)
// (src at 0x10, n at 0x1C; data_out has no register). ap_ctrl_chain by
// default, ap_sw_reset optional. An output register between the read
// engine and the port keeps TDATA/TLAST still while TVALID waits for
// TREADY (AXI4-Stream). Written for axl's tests.
//
// FAULT=1 builds a rogue for the testbench's stream checks: then n's top
// bits ask it to break AXI4-Stream (n[31]: drop TVALID while it waits for
// TREADY; n[30]: change TDATA while it waits; n[29]: set TSTRB on a byte
// TKEEP leaves out), and n[28:0] is the count.
`include "axl_hls_ports.vh"

module mm2s #(
    parameter CHAIN = 1,
    parameter ISR_COR = 0,
    parameter READY_COR = 0,
    parameter START_PULSE = 0,
    parameter SW_RESET = 0,
    parameter READY_IRQ = 1,
    parameter FAULT = 0
) (
    input wire ap_clk,
    input wire ap_rst_n,
    `AXL_M_AXI_PORTS(gmem, 32),
    `AXL_AXIS_OUT_PORTS(data_out, 32),
    `AXL_S_AXI_CONTROL_PORTS(6)
);
    reg rst;
    always @(posedge ap_clk) rst <= !ap_rst_n;

    wire ap_start, ap_continue, core_reset;
    wire ap_idle, ap_done, ap_ready;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [4*32-1:0] args;
    wire wr_idle, wr_ready;
    /* verilator lint_on UNUSEDSIGNAL */

    axl_hls_control #(
        .ADDR_WIDTH(6), .ARG_WORDS(4),
        .ARG_MASK(64'b1011), // src 0x10-0x14, n 0x1C
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
    reg [63:0] src;
    reg [31:0] n, sent;
    wire rd_idle, rd_valid, rd_ready;
    wire [31:0] rd_data;

    axl_hls_m_axi #(.DW(32), .MAX_BURST(16), .OUTSTANDING(4)) gmem (
        .clk(ap_clk), .rst(rst), .abort(core_reset),
        .rd_req(req), .rd_addr(src), .rd_beats(n), .rd_nosplit(1'b0),
        .rd_idle(rd_idle), .rd_valid(rd_valid), .rd_data(rd_data),
        .rd_ready(rd_ready),
        .wr_req(1'b0), .wr_addr(64'd0), .wr_beats(32'd0),
        .wr_last_strb(4'd0), .wr_fault(2'd0), .wr_idle(wr_idle),
        .wr_valid(1'b0), .wr_data(32'd0), .wr_ready(wr_ready),
        `AXL_M_AXI_CONNECT(gmem)
    );

    // The output register.
    reg ov, ol;
    reg [31:0] od;
    reg [31:0] taken; // words taken from the read engine
    assign rd_ready = !ov || data_out_TREADY;
    reg [2:0] fault;   // the rogue's: drop TVALID, change TDATA, bad TSTRB
    reg waited;        // the beat in the register was offered and not taken
    assign data_out_TVALID = ov && !(fault[2] && waited);
    assign data_out_TDATA = od ^ {31'd0, fault[1] && waited};
    assign data_out_TLAST = ol;
    assign data_out_TKEEP = fault[0] ? 4'h7 : 4'hF;
    assign data_out_TSTRB = 4'hF;

    localparam S_IDLE = 2'd0, S_REQ = 2'd1, S_RUN = 2'd2, S_FINISH = 2'd3;
    reg [1:0] state;
    reg done_held;
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
            ov <= 1'b0;
            ol <= 1'b0;
            od <= 32'd0;
            taken <= 32'd0;
            sent <= 32'd0;
            fault <= 3'd0;
            waited <= 1'b0;
        end else begin
            waited <= ov && !data_out_TREADY && !waited;
            req <= 1'b0;
            if (ap_continue)
                done_held <= 1'b0;
            if (rd_valid && rd_ready) begin
                ov <= 1'b1;
                od <= rd_data;
                ol <= taken + 32'd1 == n;
                taken <= taken + 32'd1;
            end else if (data_out_TREADY) begin
                ov <= 1'b0;
            end
            if (ov && data_out_TREADY)
                sent <= sent + 32'd1;
            case (state)
                S_IDLE:
                    if (ap_start) begin
                        src <= {args[1*32 +: 32], args[0*32 +: 32]};
                        n <= FAULT != 0 ? {3'd0, args[3*32 +: 29]} :
                                          args[3*32 +: 32];
                        fault <= FAULT != 0 ? args[3*32 + 29 +: 3] : 3'd0;
                        taken <= 32'd0;
                        sent <= 32'd0;
                        state <= (FAULT != 0 ? args[3*32 +: 29] == 0 :
                                  args[3*32 +: 32] == 0) ? S_FINISH : S_REQ;
                    end
                S_REQ: begin
                    req <= 1'b1;
                    state <= S_RUN;
                end
                S_RUN:
                    if (!req && rd_idle && sent == n)
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
