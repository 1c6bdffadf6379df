// xpm_cdc_gray: axl's behavioural model of Xilinx's Gray-coded counter synchroniser
// (XPM_CDC_GRAY): the source binary value, Gray-coded on src_clk, crosses
// and is decoded back to binary, written from the
// parameters, ports and behaviour UG953/UG974 document (see README.md
// beside it); not Xilinx's source. The synchronising flops are plain
// flops: Verilator has no metastability, and the latency is the stages'.
/* verilator lint_off UNUSEDPARAM */
/* verilator lint_off UNUSEDSIGNAL */
module xpm_cdc_gray #(
    parameter integer DEST_SYNC_FF = 4,
    parameter integer INIT_SYNC_FF = 0,
    parameter integer REG_OUTPUT = 0,
    parameter integer SIM_ASSERT_CHK = 0,
    parameter integer SIM_LOSSLESS_GRAY_CHK = 0,
    parameter integer WIDTH = 2
) (
    input  wire             src_clk,
    input  wire [WIDTH-1:0] src_in_bin,
    input  wire             dest_clk,
    output wire [WIDTH-1:0] dest_out_bin
);
    reg [WIDTH-1:0] gray = {WIDTH{1'b0}};
    reg [WIDTH-1:0] sync [0:DEST_SYNC_FF-1];
    reg [WIDTH-1:0] out_q = {WIDTH{1'b0}};
    reg [WIDTH-1:0] bin;
    integer i;
    initial for (i = 0; i < DEST_SYNC_FF; i = i + 1) sync[i] = {WIDTH{1'b0}};
    always @(posedge src_clk)
        gray <= src_in_bin ^ (src_in_bin >> 1);
    always @(posedge dest_clk) begin
        sync[0] <= gray;
        for (i = 1; i < DEST_SYNC_FF; i = i + 1)
            sync[i] <= sync[i - 1];
        out_q <= bin;
    end
    always @(*) begin
        bin[WIDTH-1] = sync[DEST_SYNC_FF-1][WIDTH-1];
        for (i = WIDTH - 2; i >= 0; i = i - 1)
            bin[i] = bin[i + 1] ^ sync[DEST_SYNC_FF-1][i];
    end
    assign dest_out_bin = REG_OUTPUT != 0 ? out_q : bin;
endmodule
