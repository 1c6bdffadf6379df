// xpm_cdc_single: axl's behavioural model of Xilinx's single-bit synchroniser (XPM_CDC_SINGLE), written from the
// parameters, ports and behaviour UG953/UG974 document (see README.md
// beside it); not Xilinx's source. The synchronising flops are plain
// flops: Verilator has no metastability, and the latency is the stages'.
/* verilator lint_off UNUSEDPARAM */
/* verilator lint_off UNUSEDSIGNAL */
module xpm_cdc_single #(
    parameter integer DEST_SYNC_FF = 4,
    parameter integer INIT_SYNC_FF = 0,
    parameter integer SIM_ASSERT_CHK = 0,
    parameter integer SRC_INPUT_REG = 1
) (
    input  wire src_clk,
    input  wire src_in,
    input  wire dest_clk,
    output wire dest_out
);
    reg src_q = 1'b0;
    reg [DEST_SYNC_FF-1:0] sync = {DEST_SYNC_FF{1'b0}};
    always @(posedge src_clk)
        src_q <= src_in;
    wire s = SRC_INPUT_REG != 0 ? src_q : src_in;
    always @(posedge dest_clk)
        sync <= {sync[DEST_SYNC_FF-2:0], s};
    assign dest_out = sync[DEST_SYNC_FF-1];
endmodule
