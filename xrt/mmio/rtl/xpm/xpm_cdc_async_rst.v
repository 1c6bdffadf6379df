// xpm_cdc_async_rst: axl's behavioural model of Xilinx's asynchronous reset
// synchroniser (XPM_CDC_ASYNC_RST): asserts at once, releases after
// DEST_SYNC_FF dest_clk edges, written from the
// parameters, ports and behaviour UG953/UG974 document (see README.md
// beside it); not Xilinx's source. The synchronising flops are plain
// flops: Verilator has no metastability, and the latency is the stages'.
/* verilator lint_off UNUSEDPARAM */
/* verilator lint_off UNUSEDSIGNAL */
module xpm_cdc_async_rst #(
    parameter integer DEST_SYNC_FF = 4,
    parameter integer INIT_SYNC_FF = 0,
    parameter integer RST_ACTIVE_HIGH = 0
) (
    input  wire src_arst,
    input  wire dest_clk,
    output wire dest_arst
);
    localparam ACTIVE = RST_ACTIVE_HIGH != 0 ? 1'b1 : 1'b0;
    reg [DEST_SYNC_FF-1:0] sync = {DEST_SYNC_FF{ACTIVE}};
    wire asserted = src_arst == ACTIVE;
    // A cycle model has no asynchronous edge: the assertion shows on the
    // output at once (combinationally), the release after the stages.
    always @(posedge dest_clk)
        sync <= asserted ? {DEST_SYNC_FF{ACTIVE}} : {sync[DEST_SYNC_FF-2:0], !ACTIVE};
    assign dest_arst = asserted ? ACTIVE : sync[DEST_SYNC_FF-1];
endmodule
