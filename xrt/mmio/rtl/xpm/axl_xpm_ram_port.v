// axl_xpm_ram_port: the read side of one port of axl's xpm_memory models:
// READ_LATENCY stages after an enabled read (the last stage loads only
// with regce when there are two or more, as UG974 says), rst putting the
// output register to READ_RESET_VALUE. Written for axl.
module axl_xpm_ram_port #(
    parameter integer WIDTH = 32,
    parameter integer LATENCY = 2,
    parameter [WIDTH-1:0] RESET_VALUE = 0
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             en,
    input  wire             regce,
    input  wire [WIDTH-1:0] word, // the memory at the read address, this cycle
    output wire [WIDTH-1:0] dout
);
    reg [WIDTH-1:0] stage [0:(LATENCY > 0 ? LATENCY - 1 : 0)];
    integer i;
    generate
        if (LATENCY == 0) begin : comb
            assign dout = word;
        end else begin : piped
            assign dout = stage[LATENCY - 1];
            always @(posedge clk) begin
                if (en)
                    stage[0] <= word;
                for (i = 1; i < LATENCY; i = i + 1)
                    if (i < LATENCY - 1 || regce)
                        stage[i] <= stage[i - 1];
                if (rst)
                    stage[LATENCY - 1] <= RESET_VALUE;
            end
        end
    endgenerate
endmodule
