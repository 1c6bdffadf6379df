// xpm_cdc_sync_rst: axl's behavioural model of Xilinx's synchronous reset synchroniser
// (XPM_CDC_SYNC_RST), written from the
// parameters, ports and behaviour UG953/UG974 document (see README.md
// beside it); not Xilinx's source. The synchronising flops are plain
// flops: Verilator has no metastability, and the latency is the stages'.
/* verilator lint_off UNUSEDPARAM */
/* verilator lint_off UNUSEDSIGNAL */
module xpm_cdc_sync_rst #(
    parameter integer DEST_SYNC_FF = 4,
    parameter integer INIT = 1,
    parameter integer INIT_SYNC_FF = 0,
    parameter integer SIM_ASSERT_CHK = 0
) (
    input  wire src_rst,
    input  wire dest_clk,
    output wire dest_rst
);
    reg [DEST_SYNC_FF-1:0] sync = {DEST_SYNC_FF{INIT != 0 ? 1'b1 : 1'b0}};
    always @(posedge dest_clk)
        sync <= {sync[DEST_SYNC_FF-2:0], src_rst};
    assign dest_rst = sync[DEST_SYNC_FF-1];
endmodule
