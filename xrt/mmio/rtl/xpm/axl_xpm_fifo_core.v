// axl_xpm_fifo_core: the storage and flags shared by axl's models of
// xpm_fifo_sync and xpm_fifo_async (see README.md). Written for axl.
// The write side counts on wr_clk, the read side on rd_clk; each sees the
// other's pointer through SYNC_STAGES flops (0: at once, one clock), so a
// write shows on the read side's empty only after those stages, and a
// read frees room for full only after them, as on silicon.
/* verilator lint_off UNUSEDPARAM */
module axl_xpm_fifo_core #(
    parameter NAME = "xpm_fifo_sync",
    parameter DEPTH = 2048,
    parameter WIDTH = 32,
    parameter READ_WIDTH = 32,
    parameter FWFT = 0,
    parameter LATENCY = 1,
    parameter SYNC_STAGES = 0,
    parameter PROG_EMPTY_THRESH = 10,
    parameter PROG_FULL_THRESH = 10,
    parameter WR_COUNT_WIDTH = 1,
    parameter RD_COUNT_WIDTH = 1,
    parameter FULL_RESET_VALUE = 0,
    parameter [WIDTH-1:0] DOUT_RESET = 0
) (
    input  wire                      wr_clk,
    input  wire                      rd_clk,
    input  wire                      rst,
    input  wire                      wr_en,
    input  wire [WIDTH-1:0]          din,
    input  wire                      rd_en,
    output reg  [WIDTH-1:0]          dout,
    output wire                      full,
    output wire                      empty,
    output wire                      almost_full,
    output wire                      almost_empty,
    output wire                      prog_full,
    output wire                      prog_empty,
    output reg                       wr_ack,
    output reg                       overflow,
    output reg                       underflow,
    output reg                       data_valid,
    output wire [WR_COUNT_WIDTH-1:0] wr_data_count,
    output wire [RD_COUNT_WIDTH-1:0] rd_data_count,
    output wire                      wr_rst_busy,
    output wire                      rd_rst_busy
);
/* verilator lint_on UNUSEDPARAM */
    localparam AW = DEPTH <= 2 ? 1 : $clog2(DEPTH);
    localparam CW = AW + 1; // pointers and counts: one bit more
    initial begin
        if (READ_WIDTH != WIDTH)
            $fatal(1, "%s: READ_DATA_WIDTH %0d differs from WRITE_DATA_WIDTH %0d; axl's model (xrt/mmio/rtl/xpm) takes equal widths only (docs/rtl-in-ci.md, What the simulation cannot model)", NAME, READ_WIDTH, WIDTH);
        if (DEPTH < 16 || (DEPTH & (DEPTH - 1)) != 0)
            $fatal(1, "%s: FIFO_WRITE_DEPTH %0d is not a power of two from 16 (UG974)", NAME, DEPTH);
    end

    reg [WIDTH-1:0] mem [0:DEPTH-1];
    reg [CW-1:0] wptr, rptr;           // in their own domains
    reg [CW-1:0] wptr_rd [0:SYNC_STAGES]; // wptr as the read side sees it
    reg [CW-1:0] rptr_wr [0:SYNC_STAGES]; // rptr as the write side sees it
    wire [CW-1:0] wptr_seen = wptr_rd[SYNC_STAGES];
    wire [CW-1:0] rptr_seen = rptr_wr[SYNC_STAGES];

    // Reset: synchronous to wr_clk; both sides busy while it is high and
    // for the cycles it takes to cross.
    reg [3:0] wr_busy, rd_busy;
    assign wr_rst_busy = rst || wr_busy != 0;
    assign rd_rst_busy = rst || rd_busy != 0;

    wire [CW-1:0] wr_count = wptr - rptr_seen;
    assign full = wr_rst_busy ? FULL_RESET_VALUE != 0 : wr_count == DEPTH;
    assign almost_full = !wr_rst_busy && wr_count >= DEPTH - 1;
    assign prog_full = !wr_rst_busy && wr_count >= PROG_FULL_THRESH;

    // The read side: fwft keeps the head in dout (a word out of the
    // memory but not yet read); std shows it LATENCY cycles after rd_en.
    wire [CW-1:0] stored = wptr_seen - rptr; // words not yet taken from mem
    reg head;                               // fwft: dout holds a word
    wire [CW-1:0] rd_count = stored + (FWFT != 0 && head ? 1 : 0);
    assign empty = rd_rst_busy || (FWFT != 0 ? !head : stored == 0);
    assign almost_empty = !rd_rst_busy && rd_count <= 1;
    assign prog_empty = rd_rst_busy || rd_count <= PROG_EMPTY_THRESH;
    assign wr_data_count = wr_count >> (CW > WR_COUNT_WIDTH ? CW - WR_COUNT_WIDTH : 0);
    assign rd_data_count = rd_count >> (CW > RD_COUNT_WIDTH ? CW - RD_COUNT_WIDTH : 0);

    integer i;
    always @(posedge wr_clk) begin
        if (rst) begin
            wptr <= 0;
            wr_busy <= 4'd2;
            wr_ack <= 1'b0;
            overflow <= 1'b0;
            for (i = 0; i <= SYNC_STAGES; i = i + 1)
                rptr_wr[i] <= 0;
        end else begin
            if (wr_busy != 0)
                wr_busy <= wr_busy - 4'd1;
            wr_ack <= wr_en && !full;
            overflow <= wr_en && full;
            if (wr_en && !full) begin
                mem[wptr[AW-1:0]] <= din;
                wptr <= wptr + 1'b1;
            end
            rptr_wr[0] <= rptr;
            for (i = 1; i <= SYNC_STAGES; i = i + 1)
                rptr_wr[i] <= rptr_wr[i - 1];
        end
    end

    // std mode's pipeline: the word read, then LATENCY-1 more stages.
    reg [WIDTH-1:0] pipe [0:LATENCY];
    reg [LATENCY:0] pipe_v;
    wire pop = FWFT != 0 ? (rd_en && head) || (!head && stored != 0)
                         : rd_en && stored != 0 && !rd_rst_busy;
    always @(posedge rd_clk) begin
        if (rst || rd_rst_busy) begin
            rptr <= 0;
            head <= 1'b0;
            dout <= DOUT_RESET;
            data_valid <= 1'b0;
            underflow <= 1'b0;
            pipe_v <= 0;
            if (rst)
                rd_busy <= SYNC_STAGES + 2;
            else if (rd_busy != 0)
                rd_busy <= rd_busy - 4'd1;
            for (i = 0; i <= SYNC_STAGES; i = i + 1)
                wptr_rd[i] <= 0;
        end else begin
            underflow <= rd_en && empty;
            wptr_rd[0] <= wptr;
            for (i = 1; i <= SYNC_STAGES; i = i + 1)
                wptr_rd[i] <= wptr_rd[i - 1];
            if (FWFT != 0) begin
                // A word moves into dout when dout is free or being read.
                if (pop && (stored != 0)) begin
                    dout <= mem[rptr[AW-1:0]];
                    rptr <= rptr + 1'b1;
                    head <= 1'b1;
                end else if (rd_en && head) begin
                    head <= 1'b0;
                end
                data_valid <= pop && stored != 0 ? 1'b1 :
                              rd_en && head ? 1'b0 : head;
            end else begin
                pipe_v[0] <= pop;
                if (pop) begin
                    pipe[0] <= mem[rptr[AW-1:0]];
                    rptr <= rptr + 1'b1;
                end
                for (i = 1; i < LATENCY; i = i + 1) begin
                    pipe[i] <= pipe[i - 1];
                    pipe_v[i] <= pipe_v[i - 1];
                end
                if (LATENCY <= 1) begin
                    if (pop)
                        dout <= mem[rptr[AW-1:0]];
                    data_valid <= pop;
                end else begin
                    if (pipe_v[LATENCY - 2])
                        dout <= pipe[LATENCY - 2];
                    data_valid <= pipe_v[LATENCY - 2];
                end
            end
        end
    end
endmodule
