// xpm_cdc_handshake: axl's behavioural model of Xilinx's bus synchroniser with a
// full handshake (XPM_CDC_HANDSHAKE): src_send with src_in held until
// src_rcv; dest_req with dest_out; with DEST_EXT_HSK the destination
// answers with dest_ack, else the macro acknowledges by itself, written from the
// parameters, ports and behaviour UG953/UG974 document (see README.md
// beside it); not Xilinx's source. The synchronising flops are plain
// flops: Verilator has no metastability, and the latency is the stages'.
/* verilator lint_off UNUSEDPARAM */
/* verilator lint_off UNUSEDSIGNAL */
module xpm_cdc_handshake #(
    parameter integer DEST_EXT_HSK = 1,
    parameter integer DEST_SYNC_FF = 4,
    parameter integer INIT_SYNC_FF = 0,
    parameter integer SIM_ASSERT_CHK = 0,
    parameter integer SRC_SYNC_FF = 4,
    parameter integer WIDTH = 1
) (
    input  wire             src_clk,
    input  wire [WIDTH-1:0] src_in,
    input  wire             src_send,
    output wire             src_rcv,
    input  wire             dest_clk,
    output reg  [WIDTH-1:0] dest_out = {WIDTH{1'b0}},
    output wire             dest_req,
    input  wire             dest_ack
);
    reg [WIDTH-1:0] src_q = {WIDTH{1'b0}};
    reg send_q = 1'b0;
    reg [DEST_SYNC_FF-1:0] req_sync = {DEST_SYNC_FF{1'b0}};
    reg [SRC_SYNC_FF-1:0] ack_sync = {SRC_SYNC_FF{1'b0}};
    reg req_seen = 1'b0, int_ack = 1'b0, dest_ack_q = 1'b0;
    // The source registers the bus with src_send and holds it.
    always @(posedge src_clk) begin
        if (src_send && !send_q)
            src_q <= src_in;
        send_q <= src_send;
        ack_sync <= {ack_sync[SRC_SYNC_FF-2:0], DEST_EXT_HSK != 0 ? dest_ack_q : int_ack};
    end
    assign src_rcv = ack_sync[SRC_SYNC_FF-1];
    always @(posedge dest_clk) begin
        req_sync <= {req_sync[DEST_SYNC_FF-2:0], send_q};
        req_seen <= req_sync[DEST_SYNC_FF-1];
        if (req_sync[DEST_SYNC_FF-1] && !req_seen)
            dest_out <= src_q;
        dest_ack_q <= dest_ack;
        int_ack <= req_sync[DEST_SYNC_FF-1];
    end
    // With DEST_EXT_HSK the request stays until the destination's ack;
    // without it dest_req is a one-cycle pulse.
    assign dest_req = DEST_EXT_HSK != 0 ? req_sync[DEST_SYNC_FF-1] :
                      req_sync[DEST_SYNC_FF-1] && !req_seen;
endmodule
