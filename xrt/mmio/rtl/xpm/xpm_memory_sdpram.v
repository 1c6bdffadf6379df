// xpm_memory_sdpram: axl's behavioural model of Xilinx's simple dual-port RAM (XPM_MEMORY_SDPRAM):
// writes on port A, reads on port B, written from the
// parameters, ports and behaviour UG953/UG974 document (see README.md
// beside it); not Xilinx's source. MEMORY_SIZE bits of words of the write
// width; byte writes (wea/web bit per BYTE_WRITE_WIDTH bits); read latency
// and regce, rst and READ_RESET_VALUE, WRITE_MODE; MEMORY_INIT_FILE read
// with $readmemh. ECC, sleep, mixed widths and MEMORY_INIT_PARAM other
// than "0" or "" are not modelled (a mixed width stops the simulation at
// start-up, naming the macro).
/* verilator lint_off UNUSEDPARAM */
/* verilator lint_off UNUSEDSIGNAL */
module xpm_memory_sdpram #(
    parameter integer ADDR_WIDTH_A = 6,
    parameter integer ADDR_WIDTH_B = 6,
    parameter integer BYTE_WRITE_WIDTH_A = 32,
    parameter integer READ_DATA_WIDTH_B = 32,
    parameter integer READ_LATENCY_B = 2,
    parameter READ_RESET_VALUE_B = "0",
    parameter RST_MODE_A = "SYNC",
    parameter RST_MODE_B = "SYNC",
    parameter integer WRITE_DATA_WIDTH_A = 32,
    parameter WRITE_MODE_B = "no_change",
    parameter integer AUTO_SLEEP_TIME = 0,
    parameter integer CASCADE_HEIGHT = 0,
    parameter CLOCKING_MODE = "common_clock",
    parameter ECC_MODE = "no_ecc",
    parameter ECC_BIT_RANGE = "7:0",
    parameter ECC_TYPE = "none",
    parameter IGNORE_INIT_SYNTH = 0,
    parameter MEMORY_INIT_FILE = "none",
    parameter MEMORY_INIT_PARAM = "0",
    parameter MEMORY_OPTIMIZATION = "true",
    parameter MEMORY_PRIMITIVE = "auto",
    parameter integer MEMORY_SIZE = 2048,
    parameter integer MESSAGE_CONTROL = 0,
    parameter RAM_DECOMP = "auto",
    parameter integer SIM_ASSERT_CHK = 0,
    parameter integer USE_EMBEDDED_CONSTRAINT = 0,
    parameter integer USE_MEM_INIT = 1,
    parameter integer USE_MEM_INIT_MMI = 0,
    parameter WAKEUP_TIME = "disable_sleep",
    parameter integer WRITE_PROTECT = 1
) (
    output wire                        dbiterrb,
    output wire [READ_DATA_WIDTH_B-1:0] doutb,
    output wire                        sbiterrb,
    input  wire [ADDR_WIDTH_A-1:0]     addra,
    input  wire [ADDR_WIDTH_B-1:0]     addrb,
    input  wire                        clka,
    input  wire                        clkb,
    input  wire [WRITE_DATA_WIDTH_A-1:0] dina,
    input  wire                        ena,
    input  wire                        enb,
    input  wire                        injectdbiterra,
    input  wire                        injectsbiterra,
    input  wire                        regceb,
    input  wire                        rstb,
    input  wire                        sleep,
    input  wire [WRITE_DATA_WIDTH_A/BYTE_WRITE_WIDTH_A-1:0] wea
);
    localparam integer WORDS = MEMORY_SIZE / WRITE_DATA_WIDTH_A;
    localparam integer W = WRITE_DATA_WIDTH_A;
    reg [W-1:0] mem [0:WORDS-1];
    integer i;
    initial begin
        for (i = 0; i < WORDS; i = i + 1)
            mem[i] = {W{1'b0}};
        if (MEMORY_INIT_FILE != "none" && MEMORY_INIT_FILE != "")
            $readmemh(MEMORY_INIT_FILE, mem);
        if (MEMORY_INIT_PARAM != "0" && MEMORY_INIT_PARAM != "")
            $fatal(1, "%m: MEMORY_INIT_PARAM is not modelled by axl's xpm_memory (docs/rtl-in-ci.md, What the simulation cannot model); use MEMORY_INIT_FILE");
        if (READ_DATA_WIDTH_B != WRITE_DATA_WIDTH_A)
            $fatal(1, "%m: xpm_memory_sdpram with READ_DATA_WIDTH_B %0d and WRITE_DATA_WIDTH_A %0d: axl's model takes equal widths only (docs/rtl-in-ci.md, What the simulation cannot model)", READ_DATA_WIDTH_B, WRITE_DATA_WIDTH_A);
    end
    always @(posedge clka)
        if (ena)
            for (i = 0; i < W / BYTE_WRITE_WIDTH_A; i = i + 1)
                if (wea[i])
                    mem[addra % WORDS][i * BYTE_WRITE_WIDTH_A +: BYTE_WRITE_WIDTH_A] <=
                        dina[i * BYTE_WRITE_WIDTH_A +: BYTE_WRITE_WIDTH_A];

    wire rclk = CLOCKING_MODE == "common_clock" ? clka : clkb;
    axl_xpm_ram_port #(.WIDTH(W), .LATENCY(READ_LATENCY_B)) port_b (
        .clk(rclk), .rst(rstb), .en(enb), .regce(regceb),
        .word(mem[addrb % WORDS]), .dout(doutb));
    assign sbiterrb = 1'b0;
    assign dbiterrb = 1'b0;
endmodule
