// xrt/mmio/rtl/testbench.cpp - the RTL model behind the mmio port's seam
// (axl/rtl.h, axl/mmio_model.h): Verilated kernels, one instance per
// compute unit, clocked together; an AXI4-Lite master on each control
// port; an AXI4 slave per m_axi bundle on the device's banks, with protocol
// checks. C++ because Verilator's output is; the C API is axl/rtl.h.
//
// A cycle, for each unit: ap_clk low and the inputs the testbench decided
// at the end of the last cycle, eval; sample what the RTL drives and take
// the handshakes (valid and ready both high before the edge); ap_clk high,
// eval; decide the next cycle's inputs from the testbench's state only, so
// nothing it drives depends combinationally on what the RTL drives.
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <sys/mman.h>

#include "verilated.h"

#include "axl/mmio.h"
#include "axl/rtl.h"
#include "axl/runtime.h"
#include "axl/shell.h"
#include "axl/xclbin.h"

#include "axl_rtl_glue.hpp"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the RTL testbench copies Verilator's little-endian words as bytes"
#endif

namespace {

using axl_rtl::signal;

// The control word (xrt/mmio/mmio_regs.h; docs/hls-control.md).
constexpr uint32_t ap_start = 1u << 0, ap_done = 1u << 1, ap_idle = 1u << 2,
                   ap_ready = 1u << 3, auto_restart = 1u << 7;
constexpr uint32_t all_ones = 0xFFFFFFFFu;

constexpr uint32_t reset_cycles = 16;   // ap_rst_n low
constexpr uint32_t settle_cycles = 16;  // clocked after its last activity
constexpr uint32_t peek_gap = 8;        // cycles between looks at a run
constexpr uint32_t lite_timeout = 1000; // cycles for a control access
constexpr uint32_t queue_depth = 16;    // bursts a bundle takes in each way

inline uint64_t get(const signal &s)
{
    switch (s.bytes) {
    case 0:
        return 0;
    case 1:
        return *static_cast<const uint8_t *>(s.p);
    case 2:
        return *static_cast<const uint16_t *>(s.p);
    case 4:
        return *static_cast<const uint32_t *>(s.p);
    case 8:
        return *static_cast<const uint64_t *>(s.p);
    default: {
        const uint32_t *w = static_cast<const uint32_t *>(s.p);
        return w[0] | static_cast<uint64_t>(w[1]) << 32;
    }
    }
}

inline bool high(const signal &s)
{
    return (get(s) & 1u) != 0;
}

inline void put(const signal &s, uint64_t v)
{
    if (s.bits < 64)
        v &= (uint64_t{1} << s.bits) - 1;
    switch (s.bytes) {
    case 0:
        return;
    case 1:
        *static_cast<uint8_t *>(s.p) = static_cast<uint8_t>(v);
        return;
    case 2:
        *static_cast<uint16_t *>(s.p) = static_cast<uint16_t>(v);
        return;
    case 4:
        *static_cast<uint32_t *>(s.p) = static_cast<uint32_t>(v);
        return;
    case 8:
        *static_cast<uint64_t *>(s.p) = v;
        return;
    default: {
        uint32_t *w = static_cast<uint32_t *>(s.p);
        w[0] = static_cast<uint32_t>(v);
        w[1] = static_cast<uint32_t>(v >> 32);
        return;
    }
    }
}

struct bank {
    uint64_t phys, size;
    uint8_t *host;
};

struct buffer {
    uint64_t phys, size;
};

// One AXI4 burst the memory has taken and not finished.
struct burst {
    uint64_t addr = 0;
    uint32_t beats = 0, size = 0, id = 0, beat = 0;
    uint64_t ready_at = 0;   // cycle of its first answer (reads)
    uint8_t *host = nullptr; // memory at addr; null outside every bank
    uint64_t lo = 0, hi = 0; // the buffer at addr (writes; lo == hi: none)
    bool bad = false;        // an error was reported for it
    bool decerr = false;     // answered DECERR (outside every bank)

    uint64_t beat_addr(uint32_t k) const
    {
        return k == 0 ? addr : (addr & ~uint64_t{size - 1}) + uint64_t{k} * size;
    }
};

struct response {
    uint32_t id, resp;
    uint64_t ready_at;
};

// The slave side of one m_axi bundle.
struct mem_slave {
    const axl_rtl::mm_port *p = nullptr;
    uint32_t bus = 0; // bytes a beat
    std::deque<burst> ar, aw;
    std::deque<response> b;
    // what it drives this cycle
    bool arready = false, awready = false, wready = false, rvalid = false,
         bvalid = false;
    // a VALID seen without its READY, which must stay (AXI4 A3.2.1)
    bool ar_wait = false, aw_wait = false, w_wait = false;
    // What is driven needs no rewriting: the idle pattern, the read data
    // of the beat due.
    bool idle_driven = false, rdata_fresh = false;
    uint64_t ar_wait_addr = 0, aw_wait_addr = 0;
};

// One beat of a stream, as the producer drove it.
struct beat {
    uint8_t data[128] = {0}; // TDATA, up to 1024 bits
    uint64_t keep = 0, strb = 0;
    bool last = false;
};

// A stream of the design (stream_connect): the producer's port to the
// consumer's through a FIFO of the design's depth, the fabric's AXI4-Stream
// data FIFO. Units are indices into testbench::units.
struct stream_link {
    uint32_t index = 0;           // in the design (axl_xclbin_get_stream)
    std::string name;             // "mm2s:mm2s_1.data_out -> sadd:sadd_1.data_in"
    std::string pipe;             // "mm2s_1.data_out->sadd_1.data_in"
    uint64_t last_move = 0;       // cycle a beat last went in or out
    size_t prod = 0, cons = 0;
    const axl_rtl::axis_port *pp = nullptr, *cp = nullptr;
    uint32_t depth = 2;
    std::deque<beat> q;
    // What the testbench drove this cycle: the producer's TREADY, the
    // consumer's TVALID (the head of q, which pushes leave in place).
    bool ready_driven = false, valid_driven = false;
    bool waiting = false;         // the producer offered held, not taken
    beat held;
    axl_rtl_stream_stats stats{};
};

struct lite_master {
    enum { idle, writing, reading } op = idle;
    bool peek = false;   // the testbench's own read of 0x00
    bool addr = false;   // address still to hand over
    bool data = false;   // write data still to hand over
    bool done = false;
    uint32_t offset = 0, value = 0, result = 0, resp = 0;
    uint64_t since = 0;
    bool dirty = true;   // the signals must be driven again
};

struct unit {
    uint32_t ip = 0;
    std::string name;      // IP_LAYOUT's "kernel:instance"
    const axl_rtl::kernel *kernel = nullptr;
    std::unique_ptr<axl_rtl::dut> d;
    bool chain = false;
    lite_master lite;
    std::vector<mem_slave> mem;
    uint32_t region = 0;   // 0: the fabric or static part; k + 1: slot k
    bool in_reset = false;
    bool irq = false;          // the pin after the last edge
    bool irq_edge = false;     // rose in this cycle: the isr is due
    // Raised since the port last read 0x0C (irq; done too when the ISR
    // said it) or 0x00 (done): what
    // advance() returns at once (mmio_model.h).
    bool irq_pending = false, done_pending = false;
    bool done_told = false; // the ISR said done since the last start
    bool running = false, restart = false;
    uint64_t started_at = 0, next_peek = 0, last_activity = 0;
    uint32_t shadow = 0;   // what peeks cleared, for the port's next read
    uint32_t run_errors = 0;
    std::string run_error;
    axl_rtl_unit_stats stats{};
    std::vector<size_t> links; // the streams it is an end of
    size_t comp = 0;           // its part of the stream graph
    uint64_t last_mem = 0;     // cycle a memory beat of its last moved
};

class testbench {
  public:
    stream_link *link(uint32_t index)
    {
        for (stream_link &l : links)
            if (l.index == index)
                return &l;
        return nullptr;
    }
    axl_status attach(const axl_xclbin *design, const axl_mmio_bank_region *b,
                      uint32_t n, void (*isr)(uint32_t));
    void detach();
    axl_status attach_region(uint32_t region, const axl_xclbin *design,
                             uint32_t first_unit);
    void detach_region(uint32_t region);
    uint32_t rd32(uint32_t ip, uint32_t off);
    void wr32(uint32_t ip, uint32_t off, uint32_t v);
    int advance(uint32_t ip, uint64_t until_ns);
    uint64_t now_ns() const;
    int irq_line(uint32_t ip);
    axl_status reset(uint32_t ip);
    bool can_run(const axl_xclbin *image, uint32_t kernel_index) const;
    axl_status run_status(uint32_t ip, char *why, size_t size);
    void note_alloc(uint64_t phys, uint64_t size);
    void note_free(uint64_t phys);
    void work_to_come(int pending);

    uint64_t cycles() const { return cycle; }
    uint32_t mhz() const { return clock_mhz; }
    unit *find(uint32_t ip);
    uint32_t read_latency = 20, write_latency = 4;
    uint64_t watchdog = uint64_t{1} << 30;
    uint64_t deadlock_cycles = 4096;
    uint64_t load_ns = 0; // a slot load's time (the board's shell)

  private:
    axl_status add_unit(uint32_t n, const axl_xclbin_ip &ip,
                        const axl_rtl::kernel *k, uint32_t region);
    void pass_time(uint64_t ns);
    void drop_region(uint32_t region);
    void reap();
    std::atomic<uint32_t> dropped{0}; // regions detach_region let go
    bool step();
    void cycle_unit(unit &u);
    void sample_lite(unit &u);
    void drive_lite(unit &u);
    void sample_mem(unit &u, mem_slave &s);
    void drive_mem(mem_slave &s);
    void take_address(unit &u, mem_slave &s, bool write);
    void write_beat(unit &u, mem_slave &s, burst &w);
    void fill_read(mem_slave &s, const burst &r);
    void peeked(unit &u, uint32_t v);
    void begin(unit &u, bool write, uint32_t off, uint32_t v, bool peek);
    bool run_lite(unit &u);
    void finish_peek(unit &u);
    bool quiet(const unit &u) const;
    void error(unit &u, const char *fmt, ...)
#if defined(__GNUC__)
        __attribute__((format(printf, 3, 4)))
#endif
        ;
    void hold_reset(std::vector<unit *> which);
    axl_status join_streams(const axl_xclbin *design);
    void sample_streams(unit &u);
    void drive_streams();
    bool streams_live() const;
    bool find_deadlock();
    bool stalled(const unit &u, std::string *what) const;
    uint64_t to_cycles(uint64_t ns) const;

    std::unique_ptr<VerilatedContext> ctx;
    std::vector<unit> units;
    std::vector<bank> banks;
    std::vector<buffer> buffers;
    std::vector<stream_link> links;
    bool live = false; // a stream had work at the start of this cycle
    size_t ncomps = 0;  // parts of the stream graph (unit.comp)
    std::vector<uint64_t> comp_reported; // the cycle each last said a
                                         // deadlock (0: none since it moved)
    bool host_pending = false; // the host has work for a pipeline to give
    uint64_t pending_fell = 0; // the cycle host_pending last went false
    void (*isr)(uint32_t) = nullptr;
    uint64_t cycle = 0;
    uint32_t clock_mhz = 300;
    bool failed = false; // the RTL ran $finish, or the watchdog fired
    uint64_t progress = 0; // cycle of the last start, end, edge or reset
    std::string failure;
};

testbench tb;

// ---- Errors of a run -------------------------------------------------------

void testbench::error(unit &u, const char *fmt, ...)
{
    u.stats.protocol_errors++;
    if (u.run_errors++ == 0) {
        char buf[256];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
        u.run_error = buf;
    }
}

// ---- The clock ---------------------------------------------------------------

uint64_t testbench::now_ns() const
{
    return cycle * 1000u / clock_mhz;
}

// The first cycle at or after ns.
uint64_t testbench::to_cycles(uint64_t ns) const
{
    if (ns > (UINT64_MAX - 999u) / clock_mhz)
        return UINT64_MAX;
    return (ns * clock_mhz + 999u) / 1000u;
}

// Whether a unit can be left unclocked: no run the testbench knows of, no
// bus traffic, and nothing for settle_cycles. An HLS core that reads
// ap_idle with no transaction in flight holds its state until its inputs
// move, so a gated clock changes nothing it could show.
bool testbench::quiet(const unit &u) const
{
    // (A burst in flight keeps last_activity at the last cycle.) The
    // units of a stream are clocked together while any stream has work:
    // a beat in a FIFO, or a unit of a stream that is busy.
    if (!u.links.empty() && live)
        return false;
    return !u.running && !u.in_reset && u.lite.op == lite_master::idle &&
           cycle - u.last_activity > settle_cycles;
}

bool testbench::streams_live() const
{
    for (const stream_link &l : links)
        if (!l.q.empty() || l.waiting)
            return true;
    for (const unit &u : units)
        if (!u.links.empty() &&
            (u.running || u.in_reset || u.lite.op != lite_master::idle ||
             cycle - u.last_activity <= settle_cycles))
            return true;
    return false;
}

// One cycle of every unit that is not gated; false when all were.
bool testbench::step()
{
    bool edges = false, clocked = false;
    live = !links.empty() && streams_live();
    for (unit &u : units) {
        if (quiet(u))
            continue;
        clocked = true;
        if (u.running && u.lite.op == lite_master::idle && !u.in_reset &&
            cycle >= u.next_peek)
            begin(u, false, 0, 0, true);
        cycle_unit(u);
        edges |= u.irq_edge;
    }
    if (live)
        drive_streams();
    cycle++;
    // The board's vector table, for every unit whose line rose, whatever
    // call of the port's the cycle ran in (mmio_model.h: the isr does not
    // call back; the port runs its entry once that call has returned).
    if (edges)
        for (unit &u : units)
            if (u.irq_edge) {
                u.irq_edge = false;
                progress = cycle;
                if (isr)
                    isr(u.ip);
            }
    return clocked;
}

void testbench::cycle_unit(unit &u)
{
    axl_rtl::dut &d = *u.d;
    put(d.clk, 0);
    d.eval();
    bool active = u.running || u.lite.op != lite_master::idle || u.in_reset;
    if (!u.in_reset) {
        sample_lite(u);
        for (mem_slave &s : u.mem) {
            sample_mem(u, s);
            active |= !s.ar.empty() || !s.aw.empty() || !s.b.empty();
        }
        if (!u.links.empty())
            sample_streams(u);
    }
    put(d.clk, 1);
    d.eval();
    if (active) {
        u.last_activity = cycle;
        u.stats.busy_cycles++;
    }
    drive_lite(u);
    for (mem_slave &s : u.mem)
        drive_mem(s);
    bool line = high(d.interrupt);
    if (line && !u.irq) {
        u.irq_pending = u.irq_edge = true;
        u.stats.irqs++;
    }
    if (line != u.irq)
        u.last_activity = cycle;
    u.irq = line;
    if (d.finished() && !failed) {
        failed = true;
        failure = "the RTL of " + u.name + " ran $finish";
    }
}

// ---- The control port ---------------------------------------------------------

void testbench::begin(unit &u, bool write, uint32_t off, uint32_t v, bool peek)
{
    lite_master &l = u.lite;
    l.op = write ? lite_master::writing : lite_master::reading;
    l.peek = peek;
    l.addr = true;
    l.data = write;
    l.done = false;
    l.offset = off;
    l.value = v;
    l.since = cycle;
    l.dirty = true;
    drive_lite(u);
}

void testbench::drive_lite(unit &u)
{
    const axl_rtl::lite_port &c = u.d->ctrl;
    lite_master &l = u.lite;
    if (!l.dirty)
        return;
    l.dirty = false;
    bool w = l.op == lite_master::writing && !u.in_reset;
    bool r = l.op == lite_master::reading && !u.in_reset;
    put(c.awvalid, w && l.addr);
    put(c.awaddr, l.offset);
    put(c.wvalid, w && l.data);
    put(c.wdata, l.value);
    put(c.wstrb, 0xF);
    put(c.bready, w);
    put(c.arvalid, r && l.addr);
    put(c.araddr, l.offset);
    put(c.rready, r);
}

void testbench::sample_lite(unit &u)
{
    const axl_rtl::lite_port &c = u.d->ctrl;
    lite_master &l = u.lite;
    if (l.op == lite_master::idle)
        return;
    if (l.op == lite_master::writing) {
        if (l.addr && high(c.awready))
            l.addr = false, l.dirty = true;
        if (l.data && high(c.wready))
            l.data = false, l.dirty = true;
        if (high(c.bvalid)) {
            l.resp = static_cast<uint32_t>(get(c.bresp));
            l.done = true;
        }
    } else if (l.op == lite_master::reading) {
        if (l.addr && high(c.arready)) {
            l.addr = false;
            l.dirty = true;
        } else if (!l.addr && high(c.rvalid)) {
            l.result = static_cast<uint32_t>(get(c.rdata));
            l.resp = static_cast<uint32_t>(get(c.rresp));
            l.done = true;
        }
    }
    if (!l.done)
        return;
    bool peek = l.peek, read = l.op == lite_master::reading;
    l.op = lite_master::idle;
    l.peek = false;
    l.dirty = true;
    if (l.resp != 0)
        error(u, "%s: s_axi_control answered %s at 0x%x with %s",
              u.name.c_str(), read ? "a read" : "a write",
              static_cast<unsigned>(l.offset),
              l.resp == 2 ? "SLVERR" : l.resp == 3 ? "DECERR" : "EXOKAY");
    if (peek)
        peeked(u, l.result);
}

// What a look at a running unit's control word tells: the run ended
// (done), or the unit is idle with no run pending (its done went to a read
// of the port's). What the read cleared is kept for the port's next read.
void testbench::peeked(unit &u, uint32_t v)
{
    if (!u.chain)
        u.shadow |= v & ap_done;
    u.shadow |= v & ap_ready;
    u.next_peek = cycle + peek_gap;
    if (v & ap_done) {
        u.done_pending = !u.done_told;
        progress = cycle;
        u.running = u.restart;
    } else if ((v & ap_idle) && !(v & ap_start) && !u.restart &&
               cycle - u.started_at > 2 * settle_cycles) {
        u.running = false;
    }
}

// Runs the clock until the unit's control access ends. False when the
// slave never answered.
bool testbench::run_lite(unit &u)
{
    uint64_t limit = cycle + lite_timeout;
    while (u.lite.op != lite_master::idle) {
        if (cycle >= limit || failed) {
            if (!failed)
                error(u, "%s: s_axi_control did not answer %s of 0x%x in %u "
                      "cycles", u.name.c_str(),
                      u.lite.op == lite_master::reading ? "a read" : "a write",
                      static_cast<unsigned>(u.lite.offset), lite_timeout);
            u.lite.op = lite_master::idle;
            u.lite.dirty = true;
            drive_lite(u);
            return false;
        }
        step();
    }
    return true;
}

void testbench::finish_peek(unit &u)
{
    if (u.lite.op != lite_master::idle)
        run_lite(u);
}

uint32_t testbench::rd32(uint32_t ip, uint32_t off)
{
    unit *u = find(ip);
    if (!u || failed || !u->d->has_ctrl)
        return all_ones; // nothing decodes the address
    finish_peek(*u);
    begin(*u, false, off, 0, false);
    if (!run_lite(*u))
        return all_ones;
    u->stats.control_reads++;
    uint32_t v = u->lite.result;
    if (off == 0) {
        v |= u->shadow;
        u->shadow = 0;
        u->done_pending = false; // the port has looked
        if (v & ap_done)
            u->running = u->restart;
    } else if (off == 0x0C) {
        u->irq_pending = false;
        // An ISR that says done told the port of the run's end: an
        // interrupt-driven ap_ctrl_hs driver reads no 0x00 after it, so
        // this run's done must not be (or stay) pending: advance() would
        // return at once, without time, while the port waits for another
        // unit. A peek may see ap_done after this read.
        if (v & 1u) {
            u->done_pending = false;
            u->done_told = true;
        }
    }
    return v;
}

void testbench::wr32(uint32_t ip, uint32_t off, uint32_t v)
{
    unit *u = find(ip);
    if (!u || failed || !u->d->has_ctrl)
        return;
    finish_peek(*u);
    if (off == 0 && (v & (ap_start | auto_restart)) && u->running) {
        // A start while no read of 0x00 has consumed the last run's end (a
        // driver that reads only the ISR): the generated RTL still holds
        // that run's ap_done (sticky in ap_ctrl_hs), which a look during
        // the new run would take for its end. A look now consumes it
        // into the shadow, so the driver's next read of 0x00 still sees
        // it, as it would on the RTL, and any done a look sees from here
        // on is the new run's.
        begin(*u, false, 0, 0, true);
        run_lite(*u);
    }
    begin(*u, true, off, v, false);
    run_lite(*u);
    u->stats.control_writes++;
    if (off != 0)
        return;
    // Auto-restart cleared: the status reads of its iterations told the
    // port nothing of the done the control word raises as the unit ends
    // (2022.2 on), which advance() reports.
    if (u->restart && !(v & auto_restart))
        u->done_told = false;
    u->restart = (v & auto_restart) != 0;
    if (v & (ap_start | auto_restart)) {
        // A new run: its errors start afresh; a plain ap_ready the core
        // held clears at a start.
        u->running = true;
        u->started_at = cycle;
        progress = cycle;
        u->next_peek = cycle + peek_gap;
        u->done_pending = u->done_told = false;
        u->shadow &= ~ap_ready;
        u->run_errors = 0;
        u->run_error.clear();
    }
}

// ---- The memory ------------------------------------------------------------------

void testbench::take_address(unit &u, mem_slave &s, bool write)
{
    const axl_rtl::mm_port &p = *s.p;
    burst b;
    b.addr = get(write ? p.awaddr : p.araddr);
    b.beats = static_cast<uint32_t>(get(write ? p.awlen : p.arlen)) + 1;
    uint32_t size_log2 = static_cast<uint32_t>(get(write ? p.awsize : p.arsize));
    const signal &burst_sig = write ? p.awburst : p.arburst;
    uint32_t type = burst_sig.p ? static_cast<uint32_t>(get(burst_sig)) : 1;
    b.id = static_cast<uint32_t>(get(write ? p.awid : p.arid));
    b.size = 1u << size_log2;
    const char *what = write ? "write" : "read";
    if (b.size > s.bus) {
        error(u, "%s %s: %s burst at 0x%llx has AxSIZE %u bytes, wider than "
              "the %u-bit bus", u.name.c_str(), p.name, what,
              static_cast<unsigned long long>(b.addr), b.size, s.bus * 8);
        b.size = s.bus;
        b.bad = true;
    }
    if (type != 1 && !b.bad) {
        error(u, "%s %s: %s burst at 0x%llx is %s; the memory model takes "
              "INCR bursts (what Vitis HLS issues)", u.name.c_str(), p.name,
              what, static_cast<unsigned long long>(b.addr),
              type == 0 ? "FIXED" : type == 2 ? "WRAP" : "of reserved type 3");
        b.bad = true;
    }
    // One past the last byte (a beat ends at its size's alignment).
    uint64_t end = (b.beat_addr(b.beats - 1) & ~uint64_t{b.size - 1}) + b.size;
    if ((b.addr >> 12) != ((end - 1) >> 12) && !b.bad) {
        error(u, "%s %s: %s burst of %u beats at 0x%llx crosses a 4 KiB "
              "boundary (AXI4 forbids it)", u.name.c_str(), p.name, what,
              b.beats, static_cast<unsigned long long>(b.addr));
        b.bad = true;
    }
    for (const bank &k : banks)
        if (b.addr >= k.phys && end <= k.phys + k.size && end > b.addr) {
            b.host = k.host + (b.addr - k.phys);
            break;
        }
    if (!b.host) {
        b.decerr = true;
        if (!b.bad)
            error(u, "%s %s: %s burst of %u beats at 0x%llx is outside every "
                  "bank", u.name.c_str(), p.name, what, b.beats,
                  static_cast<unsigned long long>(b.addr));
        b.bad = true;
    }
    if (write) {
        for (const buffer &f : buffers)
            if (b.addr >= f.phys && b.addr - f.phys < f.size) {
                b.lo = f.phys;
                b.hi = f.phys + f.size;
                break;
            }
        u.stats.write_bursts++;
        s.aw.push_back(b);
    } else {
        b.ready_at = cycle + read_latency;
        u.stats.read_bursts++;
        if (s.ar.empty())
            s.rdata_fresh = false; // a new beat at the head
        s.ar.push_back(b);
    }
}

void testbench::write_beat(unit &u, mem_slave &s, burst &w)
{
    const axl_rtl::mm_port &p = *s.p;
    bool last = w.beat + 1 == w.beats;
    bool wlast = high(p.wlast);
    if (wlast != last && !w.bad) {
        error(u, "%s %s: WLAST %s on beat %u of the %u-beat write burst at "
              "0x%llx (AWLEN says)", u.name.c_str(), p.name,
              wlast ? "set" : "missing", w.beat + 1, w.beats,
              static_cast<unsigned long long>(w.addr));
        w.bad = true;
    }
    uint8_t strb[128 / 8] = {0};
    std::memcpy(strb, p.wstrb.p, p.wstrb.bytes < sizeof strb ? p.wstrb.bytes
                                                             : sizeof strb);
    const uint8_t *data = static_cast<const uint8_t *>(p.wdata.p);
    uint64_t a = w.beat_addr(w.beat);
    uint64_t end = (a & ~uint64_t{w.size - 1}) + w.size;
    uint64_t lane_mask = s.bus - 1;
    bool checked = !buffers.empty() && !w.bad;
    for (uint64_t x = a; x < end; x++) {
        uint32_t lane = static_cast<uint32_t>(x & lane_mask);
        if (!(strb[lane >> 3] >> (lane & 7) & 1))
            continue;
        if (checked && (x < w.lo || x >= w.hi)) {
            error(u, "%s %s: write at 0x%llx is outside every buffer",
                  u.name.c_str(), p.name,
                  static_cast<unsigned long long>(x));
            w.bad = true;
            checked = false;
        }
        if (w.host)
            w.host[x - w.addr] = data[lane];
    }
    u.stats.write_beats++;
    u.last_mem = cycle;
    w.beat++;
}

void testbench::fill_read(mem_slave &s, const burst &r)
{
    const signal &rd = s.p->rdata;
    uint8_t *data = static_cast<uint8_t *>(rd.p);
    uint64_t a = r.beat_addr(r.beat);
    if (r.size == s.bus && !(a & (s.bus - 1)) && r.host) {
        std::memcpy(data, r.host + (a - r.addr), s.bus);
        return;
    }
    std::memset(data, 0, s.bus);
    if (!r.host)
        return;
    uint64_t end = (a & ~uint64_t{r.size - 1}) + r.size;
    for (uint64_t x = a; x < end; x++)
        data[x & (s.bus - 1)] = r.host[x - r.addr];
}

void testbench::sample_mem(unit &u, mem_slave &s)
{
    const axl_rtl::mm_port &p = *s.p;
    bool arvalid = high(p.arvalid), awvalid = high(p.awvalid),
         wvalid = high(p.wvalid);
    // VALID must stay until READY, with the same address (AXI4 A3.2.1).
    if (s.ar_wait && !arvalid)
        error(u, "%s %s: ARVALID dropped before ARREADY", u.name.c_str(),
              p.name);
    else if (s.ar_wait && get(p.araddr) != s.ar_wait_addr)
        error(u, "%s %s: ARADDR changed while ARVALID waited for ARREADY",
              u.name.c_str(), p.name);
    if (s.aw_wait && !awvalid)
        error(u, "%s %s: AWVALID dropped before AWREADY", u.name.c_str(),
              p.name);
    else if (s.aw_wait && get(p.awaddr) != s.aw_wait_addr)
        error(u, "%s %s: AWADDR changed while AWVALID waited for AWREADY",
              u.name.c_str(), p.name);
    if (s.w_wait && !wvalid)
        error(u, "%s %s: WVALID dropped before WREADY", u.name.c_str(),
              p.name);
    s.ar_wait = arvalid && !s.arready;
    s.aw_wait = awvalid && !s.awready;
    s.w_wait = wvalid && !s.wready;
    if (s.ar_wait)
        s.ar_wait_addr = get(p.araddr);
    if (s.aw_wait)
        s.aw_wait_addr = get(p.awaddr);

    if (arvalid && s.arready)
        take_address(u, s, false);
    if (s.rvalid && high(p.rready)) {
        burst &r = s.ar.front();
        u.stats.read_beats++;
        u.last_mem = cycle;
        s.rdata_fresh = false;
        if (++r.beat == r.beats)
            s.ar.pop_front();
    }
    if (awvalid && s.awready)
        take_address(u, s, true);
    if (wvalid && s.wready) {
        burst &w = s.aw.front();
        write_beat(u, s, w);
        if (w.beat == w.beats) {
            s.b.push_back({w.id, w.decerr ? 3u : 0u, cycle + write_latency});
            s.aw.pop_front();
        }
    }
    if (s.bvalid && high(p.bready))
        s.b.pop_front();
}

void testbench::drive_mem(mem_slave &s)
{
    const axl_rtl::mm_port &p = *s.p;
    bool idle = s.ar.empty() && s.aw.empty() && s.b.empty();
    if (idle && s.idle_driven)
        return;
    s.idle_driven = idle;
    uint64_t next = cycle + 1;
    s.arready = s.ar.size() < queue_depth;
    s.awready = s.aw.size() < queue_depth;
    s.wready = !s.aw.empty();
    s.rvalid = !s.ar.empty() && s.ar.front().ready_at <= next;
    s.bvalid = !s.b.empty() && s.b.front().ready_at <= next;
    put(p.arready, s.arready);
    put(p.awready, s.awready);
    put(p.wready, s.wready);
    put(p.rvalid, s.rvalid);
    put(p.bvalid, s.bvalid);
    if (s.rvalid && !s.rdata_fresh) {
        const burst &r = s.ar.front();
        fill_read(s, r);
        put(p.rlast, r.beat + 1 == r.beats);
        put(p.rresp, r.decerr ? 3 : 0);
        put(p.rid, r.id);
        s.rdata_fresh = true;
    }
    if (s.bvalid) {
        put(p.bresp, s.b.front().resp);
        put(p.bid, s.b.front().id);
    }
}

// ---- Streams ------------------------------------------------------------------------
//
// The fabric's AXI4-Stream FIFO between two units, checked on the
// producer's side against the AXI4-Stream rules (ARM IHI 0051, 2.2.1: once
// TVALID is high it stays high, with the same TDATA, TLAST, TKEEP and
// TSTRB, until TREADY takes the beat; TSTRB high with TKEEP low is
// reserved). Pushes and pops use what was driven at the end of the last
// cycle, so the order in which units are clocked changes nothing.

beat read_beat(const axl_rtl::axis_port &p)
{
    beat b;
    uint32_t n = p.tdata.bytes < sizeof b.data ? p.tdata.bytes
                                               : static_cast<uint32_t>(sizeof b.data);
    std::memcpy(b.data, p.tdata.p, n);
    uint32_t lanes = (p.tdata.bits + 7) / 8;
    uint64_t all = lanes >= 64 ? ~uint64_t{0} : (uint64_t{1} << lanes) - 1;
    b.keep = p.tkeep.p ? get(p.tkeep) : all;
    b.strb = p.tstrb.p ? get(p.tstrb) : b.keep;
    b.last = p.tlast.p ? high(p.tlast) : false;
    return b;
}

// The instance in an IP_LAYOUT name ("sadd_1" of "sadd:sadd_1").
std::string instance(axl_str whole)
{
    std::string s(whole.ptr, whole.len);
    size_t at = s.find(':');
    return at == std::string::npos ? s : s.substr(at + 1);
}

bool same_beat(const beat &a, const beat &b, uint32_t bytes)
{
    return a.keep == b.keep && a.strb == b.strb && a.last == b.last &&
           std::memcmp(a.data, b.data, bytes) == 0;
}

void testbench::sample_streams(unit &u)
{
    for (size_t li : u.links) {
        stream_link &l = links[li];
        if (&units[l.cons] == &u && l.valid_driven && high(l.cp->tready)) {
            l.q.pop_front();
            u.last_activity = cycle;
            l.last_move = cycle;
        }
        if (&units[l.prod] != &u)
            continue;
        const axl_rtl::axis_port &p = *l.pp;
        bool valid = high(p.tvalid);
        uint32_t bytes = p.tdata.bytes < sizeof l.held.data
                             ? p.tdata.bytes
                             : static_cast<uint32_t>(sizeof l.held.data);
        if (!valid) {
            if (l.waiting) {
                l.stats.protocol_errors++;
                error(u, "stream %s: TVALID fell before TREADY took its beat "
                      "(AXI4-Stream: TVALID stays high until the handshake)",
                      l.name.c_str());
            }
            l.waiting = false;
            continue;
        }
        beat b = read_beat(p);
        if (l.waiting && !same_beat(b, l.held, bytes)) {
            l.stats.protocol_errors++;
            error(u, "stream %s: TDATA, TLAST, TKEEP or TSTRB changed while "
                  "TVALID waited for TREADY (AXI4-Stream: they hold until "
                  "the handshake)", l.name.c_str());
        }
        if (b.strb & ~b.keep) {
            l.stats.protocol_errors++;
            error(u, "stream %s: TSTRB 0x%llx sets bytes TKEEP 0x%llx leaves "
                  "out (a reserved combination in AXI4-Stream)",
                  l.name.c_str(), static_cast<unsigned long long>(b.strb),
                  static_cast<unsigned long long>(b.keep));
        }
        u.last_activity = cycle;
        if (l.ready_driven) {
            l.q.push_back(b);
            l.waiting = false;
            l.last_move = cycle;
            l.stats.beats++;
            if (l.q.size() > l.stats.max_fill)
                l.stats.max_fill = static_cast<uint32_t>(l.q.size());
        } else {
            l.waiting = true;
            l.held = b;
            l.stats.full_cycles++;
        }
    }
}

void testbench::drive_streams()
{
    for (stream_link &l : links) {
        l.ready_driven = l.q.size() < l.depth;
        put(l.pp->tready, l.ready_driven);
        l.valid_driven = !l.q.empty();
        put(l.cp->tvalid, l.valid_driven);
        if (!l.valid_driven)
            continue;
        const beat &b = l.q.front();
        const axl_rtl::axis_port &c = *l.cp;
        std::memcpy(c.tdata.p, b.data,
                    c.tdata.bytes < sizeof b.data ? c.tdata.bytes : sizeof b.data);
        put(c.tkeep, b.keep);
        put(c.tstrb, b.strb);
        put(c.tlast, b.last);
    }
}

// The design's streams whose two ends have RTL: each a FIFO between the
// producer's port and the consumer's, found by the arguments' ids.
axl_status testbench::join_streams(const axl_xclbin *design)
{
    links.clear();
    uint32_t n = axl_xclbin_stream_count(design);
    for (uint32_t i = 0; i < n; i++) {
        axl_xclbin_stream st;
        if (axl_xclbin_get_stream(design, i, &st) != AXL_SUCCESS)
            continue;
        size_t pu = units.size(), cu = units.size();
        for (size_t k = 0; k < units.size(); k++) {
            if (units[k].ip == st.producer_ip)
                pu = k;
            if (units[k].ip == st.consumer_ip)
                cu = k;
        }
        if (pu == units.size() || cu == units.size())
            continue; // an end without RTL: its port is never driven
        stream_link l;
        l.index = i;
        l.name = std::string(st.producer_unit.ptr, st.producer_unit.len) +
                 "." + std::string(st.producer_port.ptr, st.producer_port.len) +
                 " -> " +
                 std::string(st.consumer_unit.ptr, st.consumer_unit.len) +
                 "." + std::string(st.consumer_port.ptr, st.consumer_port.len);
        l.pipe = instance(st.producer_unit) + "." +
                 std::string(st.producer_port.ptr, st.producer_port.len) +
                 "->" + instance(st.consumer_unit) + "." +
                 std::string(st.consumer_port.ptr, st.consumer_port.len);
        l.prod = pu;
        l.cons = cu;
        l.depth = st.fifo_depth ? st.fifo_depth : 2;
        const axl_rtl::dut &pd = *units[pu].d, &cd = *units[cu].d;
        for (unsigned a = 0; a < pd.streams; a++)
            if (pd.axis[a].out && pd.axis[a].arg_id == st.producer_arg)
                l.pp = &pd.axis[a];
        for (unsigned a = 0; a < cd.streams; a++)
            if (!cd.axis[a].out && cd.axis[a].arg_id == st.consumer_arg)
                l.cp = &cd.axis[a];
        if (!l.pp || !l.cp)
            return axl_fail(AXL_ERR_INVALID,
                            "RTL model: stream %s: the RTL of %s has no %s "
                            "stream port for argument %u",
                            l.name.c_str(),
                            (!l.pp ? units[pu] : units[cu]).name.c_str(),
                            !l.pp ? "output" : "input",
                            static_cast<unsigned>(!l.pp ? st.producer_arg
                                                        : st.consumer_arg));
        if (l.pp->tdata.bits != l.cp->tdata.bits)
            return axl_fail(AXL_ERR_INVALID,
                            "RTL model: stream %s: TDATA is %u bits at the "
                            "producer, %u at the consumer; the fabric has "
                            "no width converter", l.name.c_str(),
                            static_cast<unsigned>(l.pp->tdata.bits),
                            static_cast<unsigned>(l.cp->tdata.bits));
        l.stats.depth = l.depth;
        units[pu].links.push_back(links.size());
        units[cu].links.push_back(links.size());
        links.push_back(l);
    }
    // Parts of the stream graph, each unit labelled with its part's
    // lowest unit index (a few passes suffice for any design).
    for (size_t k = 0; k < units.size(); k++)
        units[k].comp = k;
    for (bool moved = true; moved;) {
        moved = false;
        for (const stream_link &l : links) {
            size_t c = units[l.prod].comp < units[l.cons].comp
                           ? units[l.prod].comp
                           : units[l.cons].comp;
            moved |= units[l.prod].comp != c || units[l.cons].comp != c;
            units[l.prod].comp = units[l.cons].comp = c;
        }
    }
    ncomps = units.size();
    comp_reported.assign(ncomps, 0);
    pending_fell = 0;
    drive_streams();
    return AXL_SUCCESS;
}

// Whether a unit a run keeps busy waits on a stream: its beat offered to
// a full FIFO, or its TREADY up before an empty one. *what says which,
// for the message. (Its memory may wait behind the stream: a mover's read
// engine stops taking beats; find_deadlock asks that none moved.)
bool testbench::stalled(const unit &u, std::string *what) const
{
    char buf[160];
    for (size_t li : u.links) {
        const stream_link &l = links[li];
        if (&units[l.prod] == &u && l.waiting) {
            std::snprintf(buf, sizeof buf, "writes full %s (%u of %u)",
                          l.pipe.c_str(), static_cast<unsigned>(l.q.size()),
                          l.depth);
            *what = buf;
            return true;
        }
        if (&units[l.cons] == &u && l.q.empty() && high(l.cp->tready)) {
            std::snprintf(buf, sizeof buf, "reads empty %s (0 of %u)",
                          l.pipe.c_str(), l.depth);
            *what = buf;
            return true;
        }
    }
    return false;
}

// A deadlock (docs/streaming.md): in a part of the stream graph where a
// unit runs (a command or an auto-restart: free-running units waiting for
// data are at rest), every running unit waits on a full or empty FIFO and
// no beat has moved for deadlock_cycles. Each running unit's run fails,
// naming the units, the FIFOs and their fill; true when one was found.
bool testbench::find_deadlock()
{
    bool found = false;
    if (host_pending)
        return false; // the wait is the host's (mmio_model.h, work_to_come)
    for (size_t c = 0; c < ncomps; c++) {
        uint64_t last = pending_fell;
        bool any = false, all = true;
        std::string msg = "deadlock:";
        for (size_t li = 0; li < links.size(); li++)
            if (units[links[li].prod].comp == c && links[li].last_move > last)
                last = links[li].last_move;
        for (const unit &u : units) {
            if (u.comp != c || u.links.empty() || !u.running)
                continue;
            any = true;
            if (u.started_at > last)
                last = u.started_at;
            if (u.last_mem > last)
                last = u.last_mem;
            std::string what;
            if (!stalled(u, &what)) {
                all = false;
                break;
            }
            std::string inst = u.name.substr(u.name.find(':') + 1);
            msg += (msg.back() == ':' ? " " : "; ") + inst + " " + what;
        }
        if (!any || !all || cycle - last < deadlock_cycles ||
            comp_reported[c] > last)
            continue;
        comp_reported[c] = cycle;
        for (unit &u : units)
            if (u.comp == c && !u.links.empty() && u.running) {
                u.stats.protocol_errors++;
                if (u.run_errors++ == 0)
                    u.run_error = msg;
            }
        found = true;
    }
    return found;
}

// The host's work to come for a pipeline (mmio_model.h): while it has
// some, every stall may be the host's, not the design's; the window of
// find_deadlock counts again from when it has none.
void testbench::work_to_come(int pending)
{
    if (host_pending && !pending)
        pending_fell = cycle;
    host_pending = pending != 0;
}

// ---- Power and reset ------------------------------------------------------------

// ap_rst_n low for reset_cycles on the given units (the others run on),
// then high; what the testbench knew of them is forgotten.
void testbench::hold_reset(std::vector<unit *> which)
{
    for (unit *u : which) {
        u->in_reset = true;
        put(u->d->rst_n, 0);
        u->lite = lite_master();
        drive_lite(*u);
        for (mem_slave &s : u->mem) {
            s.ar.clear();
            s.aw.clear();
            s.b.clear();
            s.idle_driven = s.rdata_fresh = false;
            drive_mem(s);
        }
    }
    for (uint32_t i = 0; i < reset_cycles && !failed; i++)
        step();
    progress = cycle;
    for (unit *u : which) {
        u->in_reset = false;
        put(u->d->rst_n, 1);
        u->running = u->restart = false;
        u->irq_pending = u->done_pending = u->irq_edge = false;
        u->done_told = false;
        u->shadow = 0;
        u->last_activity = cycle;
        // A producer's half-offered beat goes with its reset; the FIFOs
        // keep what they hold (the fabric's reset, an attach, empties
        // them).
        for (size_t li : u->links)
            if (&units[links[li].prod] == u)
                links[li].waiting = false;
        for (mem_slave &s : u->mem) {
            s.ar.clear();
            s.aw.clear();
            s.b.clear();
            s.ar_wait = s.aw_wait = s.w_wait = false;
            s.idle_driven = s.rdata_fresh = false;
            drive_mem(s);
        }
    }
}

unit *testbench::find(uint32_t ip)
{
    for (unit &u : units)
        if (u.ip == ip)
            return &u;
    return nullptr;
}

const axl_rtl::kernel *kernel_named(const char *name, size_t len)
{
    const axl_rtl::registry &r = axl__rtl_registry;
    for (unsigned i = 0; i < r.count; i++)
        if (std::strlen(r.kernels[i]->name) == len &&
            std::memcmp(r.kernels[i]->name, name, len) == 0)
            return r.kernels[i];
    return nullptr;
}

// A Verilated instance of kernel k for IP_LAYOUT entry ip, as unit
// number n of region `region` (0: the whole fabric or the static part),
// its clock low; refused, and nothing added, when a bundle is wider or
// narrower than the memory model takes.
axl_status testbench::add_unit(uint32_t n, const axl_xclbin_ip &ip,
                               const axl_rtl::kernel *k, uint32_t region)
{
    unit u;
    u.ip = n;
    u.region = region;
    u.name.assign(ip.name.ptr, ip.name.len);
    u.kernel = k;
    u.chain = ip.control == AXL_XCLBIN_AP_CTRL_CHAIN;
    std::string inst = ip.instance.len
                           ? std::string(ip.instance.ptr, ip.instance.len)
                           : u.name;
    u.d.reset(k->make(ctx.get(), inst.c_str()));
    for (unsigned m = 0; m < u.d->bundles; m++) {
        mem_slave s;
        s.p = &u.d->mm[m];
        s.bus = s.p->data_bits / 8;
        if (s.p->data_bits < 8 || s.p->data_bits > 1024 ||
            (s.p->data_bits & (s.p->data_bits - 1))) {
            u.d->close();
            return axl_fail(AXL_ERR_INVALID,
                            "RTL model: %s's bundle %s is %u bits wide; "
                            "the memory model takes 8 to 1024, a power "
                            "of two", u.name.c_str(), s.p->name,
                            static_cast<unsigned>(s.p->data_bits));
        }
        u.mem.push_back(s);
    }
    put(u.d->clk, 0);
    u.d->eval();
    units.push_back(std::move(u));
    return AXL_SUCCESS;
}

axl_status testbench::attach(const axl_xclbin *design,
                             const axl_mmio_bank_region *b, uint32_t n,
                             void (*entry)(uint32_t))
{
    detach();
    isr = entry;
    failed = false;
    failure.clear();
    cycle = 0;
    banks.clear();
    for (uint32_t i = 0; i < n; i++)
        banks.push_back({b[i].phys, b[i].size,
                         b[i].host ? static_cast<uint8_t *>(b[i].host)
                                   : reinterpret_cast<uint8_t *>(
                                         static_cast<uintptr_t>(b[i].phys))});
    // ap_clk: the DATA clock (Vitis's clock 0), else a KERNEL clock.
    clock_mhz = 0;
    for (int want = 1; want <= 2 && !clock_mhz; want++)
        for (uint32_t i = 0; i < design->clock_count; i++) {
            axl_xclbin_clock c;
            if (axl_xclbin_get_clock(design, i, &c) == AXL_SUCCESS &&
                c.type == want && c.freq_mhz) {
                clock_mhz = c.freq_mhz;
                break;
            }
        }
    if (!clock_mhz)
        clock_mhz = 300;
    ctx.reset(new VerilatedContext);
    ctx->fatalOnError(false);
    // The models are single-threaded (Verilator's default --threads 1); a
    // context otherwise starts a worker thread per CPU it never uses.
    ctx->threads(1);
    units.clear();
    units.reserve(design->ip_count);
    for (uint32_t i = 0; i < design->ip_count; i++) {
        axl_xclbin_ip ip;
        if (axl_xclbin_get_ip(design, i, &ip) != AXL_SUCCESS ||
            ip.type != AXL_XCLBIN_IP_KERNEL)
            continue;
        const axl_rtl::kernel *k = kernel_named(ip.kernel.ptr, ip.kernel.len);
        if (!k)
            continue; // no RTL: the unit reads all ones, can_run says no
        axl_status st = add_unit(i, ip, k, 0);
        if (st != AXL_SUCCESS) {
            units.clear();
            ctx.reset();
            return st;
        }
    }
    axl_status st = join_streams(design);
    if (st != AXL_SUCCESS) {
        for (unit &u : units)
            u.d->close();
        units.clear();
        links.clear();
        ctx.reset();
        return st;
    }
    // Power-on: every unit in reset together.
    std::vector<unit *> all;
    for (unit &u : units)
        all.push_back(&u);
    hold_reset(all);
    return AXL_SUCCESS;
}

void testbench::detach()
{
    dropped.store(0);
    for (unit &u : units)
        if (u.d)
            u.d->close();
    units.clear();
    links.clear();
    ctx.reset();
    // The port's allocations outlive an attach (a reprogrammed fabric):
    // only note_free forgets one.
}

// ---- Slots of a DFX shell (issue 40, docs/designs-design.md 3.6, 3.7) -----------

// The clock moves on by ns: the units with work are clocked through it
// (the static part's and the other slots' runs go on), and once none has
// any it jumps to the end, which costs no wall time.
void testbench::pass_time(uint64_t ns)
{
    const uint64_t until = cycle + to_cycles(ns);
    while (cycle < until && !failed)
        if (!step())
            cycle = until;
}

// The name of a partial's first kernel without RTL here, or nullptr.
const char *kernel_without_rtl(const axl_xclbin *design, std::string *name)
{
    for (uint32_t i = 0; i < design->ip_count; i++) {
        axl_xclbin_ip ip;
        if (axl_xclbin_get_ip(design, i, &ip) == AXL_SUCCESS &&
            ip.type == AXL_XCLBIN_IP_KERNEL &&
            !kernel_named(ip.kernel.ptr, ip.kernel.len)) {
            name->assign(ip.kernel.ptr, ip.kernel.len);
            return name->c_str();
        }
    }
    return nullptr;
}

// Slot region `region` takes a partial: the shell's load time passes
// first (the board programming it), then each of its kernels' units is
// built in the same context beside the others, as unit first_unit + its
// IP_LAYOUT index, and held in reset as at power-on while the rest run
// on. Every unit of a partial needs RTL (a slot is loaded to run it): a
// kernel without is refused by name, before anything changes. A
// partial's streams are not joined (designs-design.md 3.7: not yet), so
// a kernel with a stream port is refused the same way.
axl_status testbench::attach_region(uint32_t region, const axl_xclbin *design,
                                    uint32_t first_unit)
{
    reap();
    if (!ctx)
        return axl_fail(AXL_ERR_BAD_STATE,
                        "RTL model: slot region %u loaded before the fabric "
                        "was attached", static_cast<unsigned>(region));
    std::string missing;
    if (kernel_without_rtl(design, &missing))
        return axl_fail(AXL_ERR_FEATURE_NOT_SUPPORTED,
                        "its kernel %s has no RTL here "
                        "(axl_add_rtl_kernel)", missing.c_str());
    pass_time(load_ns);
    const size_t before = units.size();
    for (uint32_t i = 0; i < design->ip_count; i++) {
        axl_xclbin_ip ip;
        if (axl_xclbin_get_ip(design, i, &ip) != AXL_SUCCESS ||
            ip.type != AXL_XCLBIN_IP_KERNEL)
            continue;
        axl_status st = add_unit(first_unit + i, ip,
                                 kernel_named(ip.kernel.ptr, ip.kernel.len),
                                 region);
        if (st == AXL_SUCCESS && units.back().d->streams) {
            units.back().d->close();
            units.pop_back();
            st = axl_fail(AXL_ERR_FEATURE_NOT_SUPPORTED,
                          "its kernel %.*s has stream ports; the RTL "
                          "testbench joins no slot's streams yet",
                          static_cast<int>(ip.kernel.len), ip.kernel.ptr);
        }
        if (st != AXL_SUCCESS) {
            drop_region(region);
            return st;
        }
    }
    std::vector<unit *> fresh;
    for (size_t i = before; i < units.size(); i++)
        fresh.push_back(&units[i]);
    hold_reset(fresh);
    return AXL_SUCCESS;
}

// Slot region `region`'s units closed and gone; the others, whose
// indices come first or after, keep theirs (no stream joins a slot's).
void testbench::drop_region(uint32_t region)
{
    for (size_t i = units.size(); i-- > 0;)
        if (units[i].region == region) {
            units[i].d->close();
            units.erase(units.begin() + static_cast<long>(i));
        }
}

// The port calls detach_region without its lock (mmio_model.h), maybe
// while another thread is inside advance(): it only marks the region,
// and the next serialised call that looks (attach_region, advance) drops
// its units. They are idle meanwhile (the port unloads a slot with no
// run out on it).
void testbench::detach_region(uint32_t region)
{
    if (region < 32)
        dropped.fetch_or(uint32_t{1} << region);
}

void testbench::reap()
{
    const uint32_t m = dropped.exchange(0);
    for (uint32_t r = 0; m && r < 32; r++)
        if (m & (uint32_t{1} << r))
            drop_region(r);
}

axl_status testbench::reset(uint32_t ip)
{
    unit *u = find(ip);
    if (!u)
        return axl_fail(AXL_ERR_INVALID,
                        "RTL model: no unit with RTL at IP_LAYOUT index %u",
                        static_cast<unsigned>(ip));
    hold_reset({u});
    return AXL_SUCCESS;
}

// ---- Time --------------------------------------------------------------------------

int testbench::advance(uint32_t ip, uint64_t until_ns)
{
    reap();
    uint64_t until = until_ns == AXL_MMIO_MODEL_FOREVER ? UINT64_MAX
                                                         : to_cycles(until_ns);
    for (;;) {
        if (failed)
            return AXL_MMIO_MODEL_ERROR;
        for (unit &u : units) {
            bool mine = ip == AXL_MMIO_MODEL_ANY_UNIT || ip == u.ip;
            if (mine && u.irq_pending)
                return AXL_MMIO_MODEL_IRQ;
            if (mine && u.done_pending)
                return AXL_MMIO_MODEL_DONE;
        }
        if (cycle >= until)
            return AXL_MMIO_MODEL_DEADLINE;
        if (watchdog && cycle - progress >= watchdog) {
            failed = true;
            char buf[192];
            std::snprintf(buf, sizeof buf,
                          "the watchdog stopped the RTL after %llu cycles in "
                          "which no unit started, finished or interrupted "
                          "(axl_rtl_set_watchdog)",
                          static_cast<unsigned long long>(watchdog));
            failure = buf;
            return AXL_MMIO_MODEL_ERROR;
        }
        if (!step()) {
            // Every unit gated: nothing can happen until the deadline.
            if (until != UINT64_MAX && until > cycle)
                cycle = until;
            return AXL_MMIO_MODEL_DEADLINE;
        }
        if (deadlock_cycles && !links.empty() && (cycle & 255u) == 0 &&
            find_deadlock())
            return AXL_MMIO_MODEL_RUN_FAILED;
    }
}

int testbench::irq_line(uint32_t ip)
{
    unit *u = find(ip);
    return u && u->irq ? 1 : 0;
}

// ---- Side channels -------------------------------------------------------------------

bool testbench::can_run(const axl_xclbin *image, uint32_t kernel_index) const
{
    axl_xclbin_kernel k;
    return axl_xclbin_get_kernel(image, kernel_index, &k) == AXL_SUCCESS &&
           kernel_named(k.name.ptr, k.name.len) != nullptr;
}

axl_status testbench::run_status(uint32_t ip, char *why, size_t size)
{
    if (failed) {
        std::snprintf(why, size, "RTL simulation: %s", failure.c_str());
        return AXL_ERR_RUNTIME;
    }
    unit *u = find(ip);
    if (!u || !u->run_errors)
        return AXL_SUCCESS;
    if (u->run_errors == 1)
        std::snprintf(why, size, "RTL %s", u->run_error.c_str());
    else
        std::snprintf(why, size, "RTL %s (+%u more)",
                      u->run_error.c_str(), u->run_errors - 1);
    return AXL_ERR_RUNTIME;
}

void testbench::note_alloc(uint64_t phys, uint64_t size)
{
    buffers.push_back({phys, size});
}

void testbench::note_free(uint64_t phys)
{
    for (size_t i = 0; i < buffers.size(); i++)
        if (buffers[i].phys == phys) {
            buffers.erase(buffers.begin() + static_cast<long>(i));
            return;
        }
}

// ---- The model, as data ----------------------------------------------------------------

axl_status m_attach(void *, const axl_xclbin *design,
                    const axl_mmio_bank_region *b, uint32_t n,
                    void (*isr)(uint32_t))
{
    return tb.attach(design, b, n, isr);
}
void m_detach(void *) { tb.detach(); }
uint32_t m_rd32(void *, uint32_t ip, uint32_t off) { return tb.rd32(ip, off); }
void m_wr32(void *, uint32_t ip, uint32_t off, uint32_t v) { tb.wr32(ip, off, v); }
int m_advance(void *, uint32_t ip, uint64_t until) { return tb.advance(ip, until); }
uint64_t m_now_ns(void *) { return tb.now_ns(); }
int m_irq_line(void *, uint32_t ip) { return tb.irq_line(ip); }
axl_status m_reset(void *, uint32_t ip) { return tb.reset(ip); }
bool m_can_run(void *, const axl_xclbin *image, uint32_t k)
{
    return tb.can_run(image, k);
}
axl_status m_run_status(void *, uint32_t ip, char *why, size_t size)
{
    return tb.run_status(ip, why, size);
}
void m_note_alloc(void *, uint64_t phys, uint64_t size) { tb.note_alloc(phys, size); }
void m_note_free(void *, uint64_t phys) { tb.note_free(phys); }
void m_work_to_come(void *, int pending) { tb.work_to_come(pending); }
axl_status m_attach_region(void *, uint32_t region, const axl_xclbin *design,
                           uint32_t first_unit)
{
    return tb.attach_region(region, design, first_unit);
}
void m_detach_region(void *, uint32_t region) { tb.detach_region(region); }

const axl_mmio_model model = {
    "RTL simulation (Verilator)",
    "add its RTL with axl_add_rtl_kernel() in CMake",
    nullptr,
    m_attach,
    m_detach,
    m_rd32,
    m_wr32,
    m_advance,
    m_now_ns,
    m_irq_line,
    m_reset,
    m_can_run,
    m_run_status,
    m_note_alloc,
    m_note_free,
    m_work_to_come,
    m_attach_region,
    m_detach_region,
};

// ---- The board -----------------------------------------------------------------------
//
// What axl_rtl_board() hands the port: the design linked beside the
// kernels, a bank of host memory for each used MEM_TOPOLOGY bank (as large
// as the design says, up to AXL_RTL_BANK_MIB), and each unit's wiring: its
// interrupt where IP_LAYOUT enables it and its RTL has the pin (unless
// AXL_RTL_IRQ=0 in the environment: every unit polled), ap_sw_reset where
// its kernel was added with SW_RESET. Built once; it outlives the runtime.

constexpr uint64_t default_bank_mib = 256;

struct rtl_board {
    axl_mmio_board board{};
    std::vector<axl_mmio_bank_region> regions;
    std::vector<axl_mmio_unit_wiring> wiring;
    axl_xclbin boot{};      // the design above, read
    bool has_boot = false;
    bool irq = true;        // AXL_RTL_IRQ
    bool made = false;
} the_board;

// Reprograms on demand (axl_rtl_set_swaps), read when the device opens.
bool swaps = true;
#if !defined(AXL_FEATURE_DESIGN_SWAP) || AXL_FEATURE_DESIGN_SWAP
// The shell of the devices opened from now on (axl_rtl_set_shell).
const axl_shell *next_shell = nullptr;
#endif

uint64_t env_number(const char *name, uint64_t fallback)
{
    const char *v = std::getenv(name);
    if (!v || !*v)
        return fallback;
    char *end = nullptr;
    unsigned long long n = std::strtoull(v, &end, 0);
    return end && *end == '\0' ? n : fallback;
}

// Zeroed host memory that costs nothing until touched (the banks are
// large and tests touch little of them).
void *bank_storage(uint64_t size)
{
    void *p = mmap(nullptr, static_cast<size_t>(size), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
}

// Each unit of design x with RTL, by its IP_LAYOUT index (from
// first_unit: a slot's partial, 0 the fabric's design): its interrupt
// wired where IP_LAYOUT enables it and its RTL has the pin (unless
// AXL_RTL_IRQ=0), ap_sw_reset where its kernel was added with SW_RESET.
// Again for each design the fabric takes: another design's index k is
// another kernel.
void wire_design(rtl_board &b, const axl_xclbin &x, uint32_t first_unit)
{
    for (uint32_t i = 0; i < x.ip_count; i++) {
        axl_xclbin_ip ip;
        if (axl_xclbin_get_ip(&x, i, &ip) != AXL_SUCCESS ||
            ip.type != AXL_XCLBIN_IP_KERNEL)
            continue;
        const axl_rtl::kernel *k = kernel_named(ip.kernel.ptr, ip.kernel.len);
        if (!k)
            continue;
        b.wiring.push_back(
            {first_unit + i, 0,
             static_cast<uint8_t>(b.irq && ip.interrupt_enabled &&
                                  k->has_interrupt),
             static_cast<uint8_t>(k->sw_reset)});
    }
    b.board.units = b.wiring.data();
    b.board.unit_count = static_cast<uint32_t>(b.wiring.size());
}

void wire_units(rtl_board &b, const axl_xclbin &x)
{
    b.wiring.clear();
    wire_design(b, x, 0);
}

// The board's program hook (a swap, designs-design.md 3.7): the new
// design's units are wired; the port then detaches the testbench, which
// closes the old design's Verilated units, and attaches it again, which
// builds the new design's from the registry. The banks are the board's
// and stay, with every buffer's bytes.
axl_status program(void *user, const axl_xclbin *image)
{
    wire_units(*static_cast<rtl_board *>(user), *image);
    return AXL_SUCCESS;
}

#if !defined(AXL_FEATURE_DESIGN_SWAP) || AXL_FEATURE_DESIGN_SWAP
// The board's program_slot (a shell's, axl_rtl_set_shell): the slot's
// unit numbers wired afresh for the partial, as program does for a whole
// design; the port then has the testbench attach the slot's region, which
// builds the partial's units and passes the shell's load_ns.
axl_status program_slot(void *user, uint32_t slot, const axl_xclbin *image)
{
    rtl_board &b = *static_cast<rtl_board *>(user);
    const axl_shell *sh = b.board.shell;
    for (size_t i = b.wiring.size(); i-- > 0;)
        if (axl_shell_slot_of_unit(sh, b.wiring[i].ip_index, UINT32_MAX) ==
            static_cast<int>(slot))
            b.wiring.erase(b.wiring.begin() + static_cast<long>(i));
    wire_design(b, *image, sh->slots[slot].first_unit);
    return AXL_SUCCESS;
}
#endif

void make_board(rtl_board &b)
{
    size_t size = 0;
    const void *bytes = axl_rtl_design(&size);
    b.made = true;
    axl_xclbin x;
    char why[96];
    // Without a design, or a reader, the board names what it has; the
    // port then says what is missing when it opens the device.
    if (!bytes ||
        axl_xclbin_open(&x, bytes, size, why, sizeof why) != AXL_SUCCESS) {
        axl_mmio_model_board(&b.board, axl_rtl_model(), bytes, size, nullptr,
                             0);
        return;
    }
    uint64_t cap = env_number("AXL_RTL_BANK_MIB", default_bank_mib) << 20;
    for (uint32_t m = 0; m < x.mem_count; m++) {
        axl_xclbin_mem mem;
        if (axl_xclbin_get_mem(&x, m, &mem) != AXL_SUCCESS || !mem.used ||
            !mem.size)
            continue;
        uint64_t n = mem.size < cap ? mem.size : cap;
        void *host = bank_storage(n);
        if (!host)
            continue; // the port refuses a design whose bank it cannot back
        b.regions.push_back({m, mem.base_address, n, host});
    }
    b.irq = env_number("AXL_RTL_IRQ", 1) != 0;
    b.boot = x;
    b.has_boot = true;
    axl_mmio_model_board(&b.board, axl_rtl_model(), bytes, size,
                         b.regions.data(),
                         static_cast<uint32_t>(b.regions.size()));
    b.board.program = program;
    b.board.user = &b;
    wire_units(b, x);
}

struct watchdog_from_env {
    watchdog_from_env()
    {
        if (const char *v = std::getenv("AXL_RTL_WATCHDOG_CYCLES"))
            tb.watchdog = std::strtoull(v, nullptr, 0);
        if (const char *v = std::getenv("AXL_RTL_DEADLOCK_CYCLES"))
            tb.deadlock_cycles = std::strtoull(v, nullptr, 0);
    }
} watchdog_init;

} // namespace

extern "C" {

const axl_mmio_model *axl_rtl_model(void)
{
    return &model;
}

const void *axl_rtl_design(size_t *size)
{
    const axl_rtl::registry &r = axl__rtl_registry;
    *size = r.design ? *r.design_size : 0;
    return r.design;
}

const axl_mmio_board *axl_rtl_board(void)
{
    if (!the_board.made)
        make_board(the_board);
    else if (the_board.has_boot) /* a swap wired another design's units */
        wire_units(the_board, the_board.boot);
    /* Set by axl_mmio_model_board; cleared here: the testbench builds
     * any design's units of its registry at an attach and keeps the
     * banks, so the device swaps unless told otherwise. */
    the_board.board.fixed_design = swaps ? 0 : 1;
#if !defined(AXL_FEATURE_DESIGN_SWAP) || AXL_FEATURE_DESIGN_SWAP
    the_board.board.shell = next_shell;
    the_board.board.program_slot = next_shell ? program_slot : nullptr;
    tb.load_ns = next_shell ? next_shell->load_ns : 0;
#endif
    return &the_board.board;
}

void axl_rtl_set_swaps(bool on)
{
    swaps = on;
}

#if !defined(AXL_FEATURE_DESIGN_SWAP) || AXL_FEATURE_DESIGN_SWAP
axl_status axl_rtl_set_shell(const axl_shell *shell)
{
    if (shell) {
        axl_status st = axl_shell_check("axl_rtl_set_shell", shell);
        if (st != AXL_SUCCESS)
            return st;
    }
    next_shell = shell;
    return AXL_SUCCESS;
}
#else
/* Shells come with design swaps (issue 40): switched off here. */
axl_status axl_rtl_set_shell(const axl_shell *)
{
    return axl_fail(AXL_ERR_FEATURE_NOT_SUPPORTED,
                    "axl_rtl_set_shell: switched off in this build "
                    "(AXL_FEATURE_DESIGN_SWAP 0)");
}
#endif

uint64_t axl_rtl_cycles(void)
{
    return tb.cycles();
}

uint32_t axl_rtl_clock_mhz(void)
{
    return tb.mhz();
}

axl_status axl_rtl_unit_stats_get(uint32_t ip_index, axl_rtl_unit_stats *out)
{
    unit *u = tb.find(ip_index);
    if (!u)
        return axl_fail(AXL_ERR_INVALID,
                        "axl_rtl_unit_stats_get: no unit with RTL at "
                        "IP_LAYOUT index %u", static_cast<unsigned>(ip_index));
    *out = u->stats;
    return AXL_SUCCESS;
}

axl_status axl_rtl_stream_stats_get(uint32_t stream_index,
                                    axl_rtl_stream_stats *out)
{
    stream_link *l = tb.link(stream_index);
    if (!l)
        return axl_fail(AXL_ERR_INVALID,
                        "axl_rtl_stream_stats_get: no stream %u joined in "
                        "the testbench (both its units need RTL)",
                        static_cast<unsigned>(stream_index));
    *out = l->stats;
    out->fill = static_cast<uint32_t>(l->q.size());
    return AXL_SUCCESS;
}

void axl_rtl_set_latency(uint32_t read_cycles, uint32_t write_cycles)
{
    tb.read_latency = read_cycles;
    tb.write_latency = write_cycles;
}

void axl_rtl_set_watchdog(uint64_t cycles)
{
    tb.watchdog = cycles;
}

void axl_rtl_set_deadlock_cycles(uint64_t cycles)
{
    tb.deadlock_cycles = cycles;
}

} // extern "C"
