// axl_hls_m_axi: one m_axi bundle of an HLS-style kernel, written for
// axl's tests: a read engine and a write engine that turn "n beats from
// this address" into AXI4 INCR bursts as the m_axi adapter Vitis HLS
// generates does (bursts of at most MAX_BURST beats, never across a 4 KiB
// boundary, up to OUTSTANDING bursts in flight per direction, AxCACHE 0011,
// IDs and user bits 0). A beat carries one element of EB bytes: the full
// data width by default; narrower elements go as narrow transfers (AxSIZE
// of EB bytes, on the byte lanes their address gives), so a kernel of
// 8- or 16-bit elements takes buffers at any element boundary. Addresses
// are bytes, aligned to EB; rd_data and wr_data hold the element in their
// low EB bytes.
//
// abort (ap_sw_reset) ends both engines' work without breaking the bus:
// no more addresses go out, the beats still due are read and dropped, the
// bursts already addressed get their beats with no byte enabled, and the
// responses are taken; rd_idle and wr_idle say when that is done.
//
// Faults, for the testbench's protocol checks (a kernel drives them only
// when asked to misbehave): FAULT_WLAST_EARLY ends the first write burst
// one beat before its AWLEN says, FAULT_WLAST_NONE never marks its last
// beat, FAULT_NO_SPLIT issues one burst of the whole request whatever 4 KiB
// boundary it crosses.
module axl_hls_m_axi #(
    parameter DW = 32,
    parameter EB = DW / 8,
    parameter MAX_BURST = 16,
    parameter OUTSTANDING = 8
) (
    input  wire            clk,
    input  wire            rst,
    input  wire            abort,
    // reads: a request, then its beats in order on the out stream
    input  wire            rd_req,
    input  wire [63:0]     rd_addr,
    input  wire [31:0]     rd_beats,
    input  wire            rd_nosplit,
    output wire            rd_idle,
    output wire            rd_valid,
    output wire [DW-1:0]   rd_data,
    input  wire            rd_ready,
    // writes: a request, then its beats on the in stream; wr_idle once
    // every burst has its response
    input  wire            wr_req,
    input  wire [63:0]     wr_addr,
    input  wire [31:0]     wr_beats,
    input  wire [DW/8-1:0] wr_last_strb,
    input  wire [1:0]      wr_fault,
    output wire            wr_idle,
    input  wire            wr_valid,
    input  wire [DW-1:0]   wr_data,
    output wire            wr_ready,
    // AXI4 master
    output reg             AWVALID,
    input  wire            AWREADY,
    output reg  [63:0]     AWADDR,
    output wire [0:0]      AWID,
    output reg  [7:0]      AWLEN,
    output wire [2:0]      AWSIZE,
    output wire [1:0]      AWBURST,
    output wire [1:0]      AWLOCK,
    output wire [3:0]      AWCACHE,
    output wire [2:0]      AWPROT,
    output wire [3:0]      AWQOS,
    output wire [3:0]      AWREGION,
    output wire [0:0]      AWUSER,
    output wire            WVALID,
    input  wire            WREADY,
    output wire [DW-1:0]   WDATA,
    output wire [DW/8-1:0] WSTRB,
    output wire            WLAST,
    output wire [0:0]      WID,
    output wire [0:0]      WUSER,
    output reg             ARVALID,
    input  wire            ARREADY,
    output reg  [63:0]     ARADDR,
    output wire [0:0]      ARID,
    output reg  [7:0]      ARLEN,
    output wire [2:0]      ARSIZE,
    output wire [1:0]      ARBURST,
    output wire [1:0]      ARLOCK,
    output wire [3:0]      ARCACHE,
    output wire [2:0]      ARPROT,
    output wire [3:0]      ARQOS,
    output wire [3:0]      ARREGION,
    output wire [0:0]      ARUSER,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire            RVALID,
    output wire            RREADY,
    input  wire [DW-1:0]   RDATA,
    input  wire            RLAST,
    input  wire [0:0]      RID,
    input  wire [0:0]      RUSER,
    input  wire [1:0]      RRESP,
    input  wire            BVALID,
    output wire            BREADY,
    input  wire [1:0]      BRESP,
    input  wire [0:0]      BID,
    input  wire [0:0]      BUSER
    /* verilator lint_on UNUSEDSIGNAL */
);
    localparam BYTES = EB;       // bytes a beat
    localparam LANES = DW / 8;   // byte lanes of the bus
    localparam LB = LANES == 1 ? 1 : $clog2(LANES);
    localparam [2:0] SIZE = BYTES == 1 ? 3'd0 : BYTES == 2 ? 3'd1 :
                            BYTES == 4 ? 3'd2 : BYTES == 8 ? 3'd3 :
                            BYTES == 16 ? 3'd4 : BYTES == 32 ? 3'd5 :
                            BYTES == 64 ? 3'd6 : 3'd7;
    localparam [DW/8-1:0] ELEM_STRB = {{(LANES - EB){1'b0}}, {EB{1'b1}}};
    // The data side keeps the lengths of up to 16 addressed bursts.
    initial if (OUTSTANDING > 16) $fatal(1, "axl_hls_m_axi: OUTSTANDING > 16");
    localparam FAULT_WLAST_EARLY = 2'd1, FAULT_WLAST_NONE = 2'd2,
               FAULT_NO_SPLIT = 2'd3;

    assign AWID = 1'b0;
    assign AWSIZE = SIZE;
    assign AWBURST = 2'b01;
    assign AWLOCK = 2'b00;
    assign AWCACHE = 4'b0011;
    assign AWPROT = 3'b000;
    assign AWQOS = 4'b0000;
    assign AWREGION = 4'b0000;
    assign AWUSER = 1'b0;
    assign WID = 1'b0;
    assign WUSER = 1'b0;
    assign ARID = 1'b0;
    assign ARSIZE = SIZE;
    assign ARBURST = 2'b01;
    assign ARLOCK = 2'b00;
    assign ARCACHE = 4'b0011;
    assign ARPROT = 3'b000;
    assign ARQOS = 4'b0000;
    assign ARREGION = 4'b0000;
    assign ARUSER = 1'b0;

    // Beats of the next burst from addr: at most MAX_BURST, at most what is
    // left, never past the next 4 KiB boundary (unless told to).
    /* verilator lint_off UNUSEDSIGNAL */
    function [31:0] burst_beats(input [63:0] addr, input [31:0] left,
                                input nosplit);
        reg [31:0] to_4k;
        reg [31:0] n;
        begin
            to_4k = (32'd4096 - {20'd0, addr[11:0]}) / BYTES;
            n = left < MAX_BURST ? left : MAX_BURST;
            if (!nosplit && to_4k < n)
                n = to_4k;
            if (nosplit)
                n = left < 256 ? left : 256;
            burst_beats = n;
        end
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    // ---- reads -------------------------------------------------------------
    reg [63:0] ar_next;
    reg [31:0] ar_left, r_left;
    reg [7:0] r_outstanding;
    reg r_nosplit;
    wire ar_hs = ARVALID && ARREADY;
    wire r_hs = RVALID && RREADY;
    wire [31:0] ar_n = burst_beats(ar_next, ar_left, r_nosplit);
    wire ar_issue = (!ARVALID || ar_hs) && ar_left != 0 &&
                    r_outstanding < OUTSTANDING && !(rd_req && rd_idle);

    reg r_drain;
    reg [63:0] r_addr; // address of the next beat due
    assign rd_idle = ar_left == 0 && r_left == 0 && !ARVALID;
    assign rd_valid = RVALID && r_left != 0 && !r_drain;
    /* verilator lint_off WIDTH */
    assign rd_data = EB == LANES ? RDATA : RDATA >> (8 * r_addr[LB-1:0]);
    /* verilator lint_on WIDTH */
    assign RREADY = (rd_ready || r_drain) && r_left != 0;

    always @(posedge clk) begin
        if (rst) begin
            ARVALID <= 1'b0;
            ar_left <= 32'd0;
            r_left <= 32'd0;
            r_outstanding <= 8'd0;
            r_nosplit <= 1'b0;
            r_drain <= 1'b0;
        end else if (abort) begin
            // The beats of bursts not addressed yet are never due.
            ar_left <= 32'd0;
            r_left <= r_left - ar_left - (r_hs ? 32'd1 : 32'd0);
            r_drain <= 1'b1;
            if (ar_hs)
                ARVALID <= 1'b0;
            r_outstanding <= r_outstanding - (r_hs && RLAST ? 8'd1 : 8'd0);
        end else begin
            if (rd_idle)
                r_drain <= 1'b0;
            if (rd_req && rd_idle) begin
                r_addr <= rd_addr;
                ar_next <= rd_addr;
                ar_left <= rd_beats;
                r_left <= rd_beats;
                r_nosplit <= rd_nosplit;
            end else if (ar_issue) begin
                ARVALID <= 1'b1;
                ARADDR <= ar_next;
                ARLEN <= ar_n[7:0] - 8'd1;
                ar_next <= ar_next + {32'd0, ar_n} * BYTES;
                ar_left <= ar_left - ar_n;
            end else if (ar_hs) begin
                ARVALID <= 1'b0;
            end
            if (r_hs) begin
                r_left <= r_left - 32'd1;
                r_addr <= r_addr + BYTES;
            end
            // a burst counts from its address until its last beat
            r_outstanding <= r_outstanding + (ar_issue ? 8'd1 : 8'd0) -
                             (r_hs && RLAST ? 8'd1 : 8'd0);
        end
    end

    // ---- writes ------------------------------------------------------------
    reg [63:0] aw_next;
    reg [31:0] aw_left, w_left;
    reg [7:0] b_outstanding;   // bursts addressed, response not yet in
    reg [7:0] w_bursts_ready;  // bursts addressed, data not yet sent
    reg [8:0] w_beat;          // beat within the current data burst
    reg w_active;
    reg [7:0] w_len;           // beats of the current data burst, minus 1
    reg [1:0] w_fault;
    reg w_first;               // the first burst (the one a fault changes)
    reg [DW/8-1:0] last_strb;
    // AWLEN of each burst addressed, in order, for the data side.
    reg [7:0] len_q [0:15];
    reg [3:0] q_in, q_out;
    wire aw_hs = AWVALID && AWREADY;
    wire w_hs = WVALID && WREADY;
    wire [31:0] aw_n = burst_beats(aw_next, aw_left, w_fault == FAULT_NO_SPLIT);
    wire aw_issue = (!AWVALID || aw_hs) && aw_left != 0 &&
                    b_outstanding < OUTSTANDING && !(wr_req && wr_idle);

    assign wr_idle = aw_left == 0 && w_left == 0 && b_outstanding == 0 &&
                     !AWVALID;
    reg w_drain;
    reg [63:0] w_addr; // address of the next beat to send
    assign WVALID = w_active && (wr_valid || w_drain);
    assign wr_ready = w_active && WREADY && !w_drain;
    /* verilator lint_off WIDTH */
    assign WDATA = EB == LANES ? wr_data : wr_data << (8 * w_addr[LB-1:0]);
    assign WSTRB = w_drain ? {(DW/8){1'b0}} :
                   EB != LANES ? ELEM_STRB << w_addr[LB-1:0] :
                   w_left == 1 ? last_strb : {(DW/8){1'b1}};
    /* verilator lint_on WIDTH */
    assign WLAST = w_first && w_fault == FAULT_WLAST_EARLY ?
                       {1'b0, w_len} != 9'd0 && w_beat == {1'b0, w_len} - 9'd1 :
                   w_first && w_fault == FAULT_WLAST_NONE ? 1'b0 :
                   w_beat == {1'b0, w_len};
    assign BREADY = 1'b1;

    always @(posedge clk) begin
        if (rst) begin
            AWVALID <= 1'b0;
            aw_left <= 32'd0;
            w_left <= 32'd0;
            b_outstanding <= 8'd0;
            w_bursts_ready <= 8'd0;
            w_active <= 1'b0;
            w_fault <= 2'd0;
            q_in <= 4'd0;
            q_out <= 4'd0;
            w_drain <= 1'b0;
        end else if (abort) begin
            // Bursts not addressed yet are never sent; those addressed get
            // their beats, with no byte enabled.
            aw_left <= 32'd0;
            w_left <= w_left - aw_left - (w_hs ? 32'd1 : 32'd0);
            w_drain <= 1'b1;
            if (aw_hs)
                AWVALID <= 1'b0;
            if (aw_hs)
                w_bursts_ready <= w_bursts_ready + 8'd1;
            if (w_hs) begin
                w_beat <= w_beat + 9'd1;
                if (w_beat == {1'b0, w_len})
                    w_active <= 1'b0;
            end
            b_outstanding <= b_outstanding - (BVALID ? 8'd1 : 8'd0);
        end else begin
            if (wr_idle)
                w_drain <= 1'b0;
            if (wr_req && wr_idle) begin
                w_addr <= wr_addr;
                aw_next <= wr_addr;
                aw_left <= wr_beats;
                w_left <= wr_beats;
                w_fault <= wr_fault;
                w_first <= 1'b1;
                last_strb <= wr_last_strb;
            end else if (aw_issue) begin
                AWVALID <= 1'b1;
                AWADDR <= aw_next;
                AWLEN <= aw_n[7:0] - 8'd1;
                aw_next <= aw_next + {32'd0, aw_n} * BYTES;
                aw_left <= aw_left - aw_n;
                len_q[q_in] <= aw_n[7:0] - 8'd1;
                q_in <= q_in + 4'd1;
            end else if (aw_hs) begin
                AWVALID <= 1'b0;
            end
            // The data of a burst goes once its address has gone.
            if (!w_active && w_bursts_ready != 0) begin
                w_active <= 1'b1;
                w_len <= len_q[q_out];
                q_out <= q_out + 4'd1;
                w_beat <= 9'd0;
            end else if (w_hs) begin
                w_left <= w_left - 32'd1;
                w_addr <= w_addr + BYTES;
                w_beat <= w_beat + 9'd1;
                if (w_beat == {1'b0, w_len}) begin
                    w_active <= 1'b0;
                    w_first <= 1'b0;
                end
            end
            w_bursts_ready <= w_bursts_ready + (aw_hs ? 8'd1 : 8'd0) -
                              (!w_active && w_bursts_ready != 0 ? 8'd1 : 8'd0);
            b_outstanding <= b_outstanding + (aw_issue ? 8'd1 : 8'd0) -
                             (BVALID ? 8'd1 : 8'd0);
        end
    end
endmodule
