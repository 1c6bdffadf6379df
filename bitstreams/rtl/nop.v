// nop: starts and finishes (the stock nop kernel: what a launch costs),
// with the interface Vitis HLS gives a kernel without arguments: ap_clk,
// ap_rst_n, s_axi_control (control registers only) and interrupt.
// ap_ctrl_hs, as the stock nop.xml says. Written for axl's tests.
`include "axl_hls_ports.vh"

module nop #(
    parameter CHAIN = 0,
    parameter ISR_COR = 0,
    parameter READY_COR = 0,
    parameter START_PULSE = 0,
    parameter SW_RESET = 1,
    parameter READY_IRQ = 1
) (
    input wire ap_clk,
    input wire ap_rst_n,
    `AXL_S_AXI_CONTROL_PORTS(4)
);
    reg rst;
    always @(posedge ap_clk) rst <= !ap_rst_n;

    wire ap_start, ap_continue, core_reset;
    wire ap_idle, ap_done, ap_ready;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] args;
    /* verilator lint_on UNUSEDSIGNAL */

    axl_hls_control #(
        .ADDR_WIDTH(4), .ARG_WORDS(1), .ARG_MASK(64'd0),
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

    localparam S_IDLE = 1'b0, S_FINISH = 1'b1;
    reg state;
    reg done_held;
    wire finishing = state == S_FINISH && (CHAIN == 0 || !done_held);
    // Idle as HLS has it: not while a start waits (auto-restart holds it).
    assign ap_idle = state == S_IDLE && !ap_start;
    assign ap_done = CHAIN != 0 ? done_held : finishing;
    assign ap_ready = finishing;

    always @(posedge ap_clk) begin
        if (rst || core_reset) begin
            state <= S_IDLE;
            done_held <= 1'b0;
        end else begin
            if (ap_continue)
                done_held <= 1'b0;
            if (state == S_IDLE && ap_start)
                state <= S_FINISH;
            else if (finishing) begin
                if (CHAIN != 0)
                    done_held <= 1'b1;
                state <= S_IDLE;
            end
        end
    end
endmodule
