// xpm_cdc_pulse: axl's behavioural model of Xilinx's pulse synchroniser (XPM_CDC_PULSE):
// a rising src_pulse becomes one dest_clk pulse, written from the
// parameters, ports and behaviour UG953/UG974 document (see README.md
// beside it); not Xilinx's source. The synchronising flops are plain
// flops: Verilator has no metastability, and the latency is the stages'.
/* verilator lint_off UNUSEDPARAM */
/* verilator lint_off UNUSEDSIGNAL */
module xpm_cdc_pulse #(
    parameter integer DEST_SYNC_FF = 4,
    parameter integer INIT_SYNC_FF = 0,
    parameter integer REG_OUTPUT = 0,
    parameter integer RST_USED = 1,
    parameter integer SIM_ASSERT_CHK = 0
) (
    input  wire src_clk,
    input  wire src_pulse,
    input  wire src_rst,
    input  wire dest_clk,
    input  wire dest_rst,
    output wire dest_pulse
);
    reg src_prev = 1'b0, level = 1'b0, seen = 1'b0, out_q = 1'b0;
    reg [DEST_SYNC_FF-1:0] sync = {DEST_SYNC_FF{1'b0}};
    // Each rising edge of src_pulse toggles a level that crosses.
    always @(posedge src_clk) begin
        if (RST_USED != 0 && src_rst) begin
            src_prev <= 1'b0;
            level <= 1'b0;
        end else begin
            src_prev <= src_pulse;
            if (src_pulse && !src_prev)
                level <= !level;
        end
    end
    wire edge_seen = sync[DEST_SYNC_FF-1] != seen;
    always @(posedge dest_clk) begin
        if (RST_USED != 0 && dest_rst) begin
            sync <= {DEST_SYNC_FF{1'b0}};
            seen <= 1'b0;
            out_q <= 1'b0;
        end else begin
            sync <= {sync[DEST_SYNC_FF-2:0], level};
            seen <= sync[DEST_SYNC_FF-1];
            out_q <= edge_seen;
        end
    end
    assign dest_pulse = REG_OUTPUT != 0 ? out_q : edge_seen;
endmodule
