// xpm_cdc_array_single: axl's behavioural model of Xilinx's bus of single-bit
// synchronisers (XPM_CDC_ARRAY_SINGLE): each bit crosses on its own, written from the
// parameters, ports and behaviour UG953/UG974 document (see README.md
// beside it); not Xilinx's source. The synchronising flops are plain
// flops: Verilator has no metastability, and the latency is the stages'.
/* verilator lint_off UNUSEDPARAM */
/* verilator lint_off UNUSEDSIGNAL */
module xpm_cdc_array_single #(
    parameter integer DEST_SYNC_FF = 4,
    parameter integer INIT_SYNC_FF = 0,
    parameter integer SIM_ASSERT_CHK = 0,
    parameter integer SRC_INPUT_REG = 1,
    parameter integer WIDTH = 2
) (
    input  wire             src_clk,
    input  wire [WIDTH-1:0] src_in,
    input  wire             dest_clk,
    output wire [WIDTH-1:0] dest_out
);
    reg [WIDTH-1:0] src_q = {WIDTH{1'b0}};
    reg [WIDTH-1:0] sync [0:DEST_SYNC_FF-1];
    integer i;
    initial for (i = 0; i < DEST_SYNC_FF; i = i + 1) sync[i] = {WIDTH{1'b0}};
    always @(posedge src_clk)
        src_q <= src_in;
    always @(posedge dest_clk) begin
        sync[0] <= SRC_INPUT_REG != 0 ? src_q : src_in;
        for (i = 1; i < DEST_SYNC_FF; i = i + 1)
            sync[i] <= sync[i - 1];
    end
    assign dest_out = sync[DEST_SYNC_FF-1];
endmodule
