// sadd: stream adder. Adds the scalar addend to every 32-bit word of the
// AXI4-Stream data_in and writes it to data_out, up to and including the
// beat with TLAST, which ends the run; the interface Vitis HLS generates
// for
//     void sadd(hls::stream<ap_axiu<32, 0, 0, 0>> &data_in,
//               hls::stream<ap_axiu<32, 0, 0, 0>> &data_out,
//               unsigned addend)
// (addend at 0x10). ap_ctrl_chain by default: started with auto-restart
// it takes packet after packet. One register stage, full throughput,
// TDATA/TLAST held while TVALID waits for TREADY. Written for axl's tests.
`include "axl_hls_ports.vh"

module sadd #(
    parameter CHAIN = 1,
    parameter ISR_COR = 0,
    parameter READY_COR = 0,
    parameter START_PULSE = 0,
    parameter SW_RESET = 0,
    parameter READY_IRQ = 1,
    parameter RESTART_DONES = 0
) (
    input wire ap_clk,
    input wire ap_rst_n,
    `AXL_AXIS_IN_PORTS(data_in, 32),
    `AXL_AXIS_OUT_PORTS(data_out, 32),
    `AXL_S_AXI_CONTROL_PORTS(5)
);
    reg rst;
    always @(posedge ap_clk) rst <= !ap_rst_n;

    wire ap_start, ap_continue, core_reset;
    wire ap_idle, ap_done, ap_ready;
    wire [31:0] args;

    axl_hls_control #(
        .ADDR_WIDTH(5), .ARG_WORDS(1), .ARG_MASK(64'b1), // addend 0x10
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
    localparam S_IDLE = 2'd0, S_RUN = 2'd1, S_DRAIN = 2'd2, S_FINISH = 2'd3;
    reg [1:0] state;
    reg done_held;
    reg [31:0] addend;
    reg ov, ol;
    reg [31:0] od;

    // Takes a beat while running and its register is free (or leaving).
    assign data_in_TREADY = state == S_RUN && (!ov || data_out_TREADY);
    assign data_out_TVALID = ov;
    assign data_out_TDATA = od;
    assign data_out_TLAST = ol;
    assign data_out_TKEEP = 4'hF;
    assign data_out_TSTRB = 4'hF;

    wire finishing = state == S_FINISH && (CHAIN == 0 || !done_held);
    // Idle as HLS has it: not while a start waits (auto-restart holds it).
    assign ap_idle = state == S_IDLE && !ap_start;
    assign ap_done = CHAIN != 0 ? done_held : finishing;
    assign ap_ready = finishing;

    /* verilator lint_off UNUSEDSIGNAL */
    wire [7:0] unused_keep = data_in_TKEEP ^ data_in_TSTRB;
    /* verilator lint_on UNUSEDSIGNAL */

    always @(posedge ap_clk) begin
        if (core_rst) begin
            state <= S_IDLE;
            done_held <= 1'b0;
            ov <= 1'b0;
            ol <= 1'b0;
            od <= 32'd0;
        end else begin
            if (ap_continue)
                done_held <= 1'b0;
            if (data_in_TVALID && data_in_TREADY) begin
                ov <= 1'b1;
                od <= data_in_TDATA + addend;
                ol <= data_in_TLAST;
            end else if (data_out_TREADY) begin
                ov <= 1'b0;
            end
            case (state)
                S_IDLE:
                    if (ap_start) begin
                        addend <= args;
                        state <= S_RUN;
                    end
                S_RUN:
                    if (data_in_TVALID && data_in_TREADY && data_in_TLAST)
                        state <= S_DRAIN;
                S_DRAIN:
                    if (!ov || data_out_TREADY)
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
