// xpm_fifo_sync: axl's behavioural model of Xilinx's synchronous FIFO (XPM_FIFO_SYNC), written from
// the parameters, ports and behaviour UG953/UG974 document (see README.md
// beside it); not Xilinx's source. USE_ADV_FEATURES bits (0 overflow, 1
// prog_full, 2 wr_data_count, 3 almost_full, 4 wr_ack, 8 underflow, 9
// prog_empty, 10 rd_data_count, 11 almost_empty, 12 data_valid) gate the
// optional outputs, which read 0 when their bit is clear. ECC, sleep and
// mixed widths are not modelled.
/* verilator lint_off UNUSEDPARAM */
/* verilator lint_off UNUSEDSIGNAL */
module xpm_fifo_sync #(
    parameter integer CASCADE_HEIGHT = 0,
    parameter DOUT_RESET_VALUE = "0",
    parameter ECC_MODE = "no_ecc",
    parameter EN_SIM_ASSERT_ERR = "warning",
    parameter FIFO_MEMORY_TYPE = "auto",
    parameter integer FIFO_READ_LATENCY = 1,
    parameter integer FIFO_WRITE_DEPTH = 2048,
    parameter integer FULL_RESET_VALUE = 0,
    parameter integer PROG_EMPTY_THRESH = 10,
    parameter integer PROG_FULL_THRESH = 10,
    parameter integer RD_DATA_COUNT_WIDTH = 1,
    parameter integer READ_DATA_WIDTH = 32,
    parameter READ_MODE = "std",
    parameter integer SIM_ASSERT_CHK = 0,
    parameter USE_ADV_FEATURES = "0707",
    parameter integer WAKEUP_TIME = 0,
    parameter integer WRITE_DATA_WIDTH = 32,
    parameter integer WR_DATA_COUNT_WIDTH = 1
) (
    output wire                           almost_empty,
    output wire                           almost_full,
    output wire                           data_valid,
    output wire                           dbiterr,
    output wire [READ_DATA_WIDTH-1:0]     dout,
    output wire                           empty,
    output wire                           full,
    output wire                           overflow,
    output wire                           prog_empty,
    output wire                           prog_full,
    output wire [RD_DATA_COUNT_WIDTH-1:0] rd_data_count,
    output wire                           rd_rst_busy,
    output wire                           sbiterr,
    output wire                           underflow,
    output wire                           wr_ack,
    output wire [WR_DATA_COUNT_WIDTH-1:0] wr_data_count,
    output wire                           wr_rst_busy,
    input  wire [WRITE_DATA_WIDTH-1:0]    din,
    input  wire                           injectdbiterr,
    input  wire                           injectsbiterr,
    input  wire                           rd_en,
    input  wire                           rst,
    input  wire                           sleep,
    input  wire                           wr_clk,
    input  wire                           wr_en
);
    function integer hexval(input [8*4-1:0] s);
        integer k, v, c;
        begin
            v = 0;
            for (k = 3; k >= 0; k = k - 1) begin
                c = s[8*k +: 8];
                if (c >= "0" && c <= "9")
                    v = v * 16 + (c - "0");
                else if (c >= "a" && c <= "f")
                    v = v * 16 + (c - "a" + 10);
                else if (c >= "A" && c <= "F")
                    v = v * 16 + (c - "A" + 10);
            end
            hexval = v;
        end
    endfunction
    localparam integer ADV = hexval(USE_ADV_FEATURES);
    wire a_full, a_empty, f_prog_full, f_prog_empty, f_ack, f_ovf, f_unf, f_valid;
    wire [WR_DATA_COUNT_WIDTH-1:0] wcount;
    wire [RD_DATA_COUNT_WIDTH-1:0] rcount;
    axl_xpm_fifo_core #(
        .NAME("xpm_fifo_sync"), .DEPTH(FIFO_WRITE_DEPTH), .WIDTH(WRITE_DATA_WIDTH),
        .READ_WIDTH(READ_DATA_WIDTH),
        .FWFT(READ_MODE == "fwft" ? 1 : 0),
        .LATENCY(READ_MODE == "fwft" ? 0 : FIFO_READ_LATENCY),
        .SYNC_STAGES(0),
        .PROG_EMPTY_THRESH(PROG_EMPTY_THRESH),
        .PROG_FULL_THRESH(PROG_FULL_THRESH),
        .WR_COUNT_WIDTH(WR_DATA_COUNT_WIDTH),
        .RD_COUNT_WIDTH(RD_DATA_COUNT_WIDTH),
        .FULL_RESET_VALUE(FULL_RESET_VALUE)
    ) core (
        .wr_clk(wr_clk), .rd_clk(wr_clk), .rst(rst),
        .wr_en(wr_en), .din(din), .rd_en(rd_en), .dout(dout),
        .full(full), .empty(empty), .almost_full(a_full),
        .almost_empty(a_empty), .prog_full(f_prog_full),
        .prog_empty(f_prog_empty), .wr_ack(f_ack), .overflow(f_ovf),
        .underflow(f_unf), .data_valid(f_valid), .wr_data_count(wcount),
        .rd_data_count(rcount), .wr_rst_busy(wr_rst_busy),
        .rd_rst_busy(rd_rst_busy)
    );
    assign overflow = ADV[0] ? f_ovf : 1'b0;
    assign prog_full = ADV[1] ? f_prog_full : 1'b0;
    assign wr_data_count = ADV[2] ? wcount : {WR_DATA_COUNT_WIDTH{1'b0}};
    assign almost_full = ADV[3] ? a_full : 1'b0;
    assign wr_ack = ADV[4] ? f_ack : 1'b0;
    assign underflow = ADV[8] ? f_unf : 1'b0;
    assign prog_empty = ADV[9] ? f_prog_empty : 1'b0;
    assign rd_data_count = ADV[10] ? rcount : {RD_DATA_COUNT_WIDTH{1'b0}};
    assign almost_empty = ADV[11] ? a_empty : 1'b0;
    assign data_valid = ADV[12] ? f_valid : 1'b0;
    assign sbiterr = 1'b0;
    assign dbiterr = 1'b0;
endmodule
