// XRT's C++ API (xrt::xclbin) and axl's reader agree on everything axl
// reads from our images: UUID, banks, kernel names in document order,
// arguments (name, index, offset, size, type), compute units (name, base
// address, control protocol) and the banks each compute-unit argument
// reaches. XRT's C API cannot list names; this is where they are checked.
//
// Usage: test_xclbin_xrt_cpp IMAGE...
#include "../support/axl_reader_skip.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "axl/xclbin.h"
#include "experimental/xrt_xclbin.h"

namespace {

int failures = 0;
unsigned long checks = 0;

void report(const std::string &path, const std::string &what,
            const std::string &xrt, const std::string &axl)
{
    std::fprintf(stderr, "%s: %s: XRT says \"%s\", axl says \"%s\"\n",
                 path.c_str(), what.c_str(), xrt.c_str(), axl.c_str());
    failures++;
}

template <typename A, typename B>
void same(const std::string &path, const std::string &what, const A &xrt,
          const B &axl)
{
    checks++;
    if (!(xrt == axl))
        report(path, what, std::to_string(xrt), std::to_string(axl));
}

void same_str(const std::string &path, const std::string &what,
              const std::string &xrt, axl_str axl)
{
    std::string a(axl.ptr, axl.len);
    checks++;
    if (xrt != a)
        report(path, what, xrt, a);
}

std::string str(axl_str s)
{
    return std::string(s.ptr, s.len);
}

// axl's reader gives an argument's type as the XML has it (a view into
// the image: "ap_uint&lt;512&gt;*"); XRT's parser decodes the entities.
// The five predefined ones are what kernel.xml writers use.
std::string xml_text(axl_str s)
{
    static const struct {
        const char *ref;
        char c;
    } refs[] = {{"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'},
                {"&quot;", '"'}, {"&apos;", '\''}};
    std::string in = str(s), out;
    for (size_t i = 0; i < in.size();) {
        bool done = false;
        for (auto &r : refs)
            if (in.compare(i, std::strlen(r.ref), r.ref) == 0) {
                out += r.c;
                i += std::strlen(r.ref);
                done = true;
                break;
            }
        if (!done)
            out += in[i++];
    }
    return out;
}

void check(const std::string &path)
{
    std::ifstream f(path, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(f)),
                            std::istreambuf_iterator<char>());
    axl_xclbin x;
    char why[256];
    if (axl_xclbin_open(&x, bytes.data(), bytes.size(), why, sizeof why) !=
        AXL_SUCCESS) {
        std::fprintf(stderr, "%s: axl refuses it: %s\n", path.c_str(), why);
        failures++;
        return;
    }
    xrt::xclbin xb(bytes);

    same(path, "uuid", std::memcmp(xb.get_uuid().get(), x.uuid, 16), 0);

    // What a partial image says of itself (issue 40): the header's mode
    // and the shell's interface UUID (XRT 2.13 calls its bytes rom_uuid),
    // and the bytes of every section kind the image has that XRT keeps,
    // as XRT finds them (the first of its kind).
    const axlf *top = xb.get_axlf();
    same(path, "mode", uint32_t(top->m_header.m_mode), uint32_t(x.mode));
    same(path, "interface uuid",
         std::memcmp(top->m_header.rom_uuid, x.interface_uuid, 16), 0);
    for (uint32_t i = 0; i < top->m_header.m_numSections; i++) {
        auto kind = axlf_section_kind(top->m_sections[i].m_sectionKind);
        bool first = true;
        for (uint32_t j = 0; j < i; j++)
            first = first && top->m_sections[j].m_sectionKind != kind;
        if (!first)
            continue;
        std::string w = std::string("section ") +
                        axl_xclbin_section_name(uint32_t(kind));
        axl_xclbin_range r{};
        same(path, w + " found", int(AXL_SUCCESS),
             int(axl_xclbin_get_section(&x, uint32_t(kind), &r)));
        const char *p = nullptr;
        try {
            p = xb.get_axlf_section<const char *>(kind);
        } catch (const std::exception &) {
            p = nullptr; // XRT has no empty sections
        }
        if (!p)
            continue; // XRT keeps only the kinds it uses (no BITSTREAM)
        same(path, w + " bytes",
             std::memcmp(p, bytes.data() + r.offset, r.size), 0);
        same(path, w + " offset",
             uint64_t(top->m_sections[i].m_sectionOffset), uint64_t(r.offset));
    }

    auto mems = xb.get_mems();
    same(path, "bank count", mems.size(), size_t(x.mem_count));
    for (auto &m : mems) {
        axl_xclbin_mem am;
        auto i = uint32_t(m.get_index());
        if (axl_xclbin_get_mem(&x, i, &am) != AXL_SUCCESS) {
            report(path, "bank", m.get_tag(), "(none)");
            continue;
        }
        std::string w = "bank " + std::to_string(i);
        same_str(path, w + " tag", m.get_tag(), am.tag);
        same(path, w + " used", bool(m.get_used()), bool(am.used));
        same(path, w + " size", uint64_t(m.get_size_kb()) * 1024, am.size);
        same(path, w + " base", uint64_t(m.get_base_address()),
             am.base_address);
    }

    auto kernels = xb.get_kernels();
    same(path, "kernel count", kernels.size(), size_t(x.kernel_count));
    for (uint32_t i = 0; i < kernels.size() && i < x.kernel_count; i++) {
        auto &xk = kernels[i];
        axl_xclbin_kernel k;
        if (axl_xclbin_get_kernel(&x, i, &k) != AXL_SUCCESS) {
            report(path, "kernel", xk.get_name(), "(none)");
            continue;
        }
        std::string kn = xk.get_name();
        same_str(path, "kernel " + std::to_string(i) + " name", kn, k.name);
        same(path, kn + " argument count", xk.get_num_args(),
             size_t(k.arg_count));

        // XRT lists arguments by index; axl in document order.
        std::map<uint32_t, axl_xclbin_arg> by_id;
        for (uint32_t a = 0; a < k.arg_count; a++) {
            axl_xclbin_arg arg;
            if (axl_xclbin_get_kernel_arg(&x, &k, a, &arg) == AXL_SUCCESS)
                by_id[arg.index] = arg;
        }
        for (auto &xa : xk.get_args()) {
            auto it = by_id.find(uint32_t(xa.get_index()));
            std::string an = kn + "." + xa.get_name();
            if (it == by_id.end()) {
                report(path, an, "present", "absent");
                continue;
            }
            same_str(path, an + " name", xa.get_name(), it->second.name);
            same(path, an + " offset", uint64_t(xa.get_offset()),
                 it->second.offset);
            same(path, an + " size", uint64_t(xa.get_size()),
                 it->second.size);
            checks++;
            if (xa.get_host_type() != xml_text(it->second.type))
                report(path, an + " type", xa.get_host_type(),
                       xml_text(it->second.type));
        }

        // Compute units: XRT orders them by its CU index; compare by name.
        auto cus = xk.get_cus();
        same(path, kn + " compute units", cus.size(), size_t(k.cu_count));
        for (uint32_t c = 0; c < k.cu_count; c++) {
            uint32_t ipi;
            axl_xclbin_ip ip;
            if (axl_xclbin_get_kernel_cu(&x, &k, c, &ipi) != AXL_SUCCESS ||
                axl_xclbin_get_ip(&x, ipi, &ip) != AXL_SUCCESS)
                continue;
            const xrt::xclbin::ip *match = nullptr;
            for (auto &cu : cus)
                if (cu.get_name() == str(ip.name))
                    match = &cu;
            if (!match) {
                report(path, "compute unit", "(none)", str(ip.name));
                continue;
            }
            std::string cn = str(ip.name);
            same(path, cn + " base", uint64_t(match->get_base_address()),
                 ip.base_address);
            same(path, cn + " control", uint32_t(match->get_control_type()),
                 ip.control);
            for (auto &xa : match->get_args()) {
                uint64_t mask = 0;
                for (auto &m : xa.get_mems())
                    mask |= uint64_t(1) << m.get_index();
                same(path, cn + "." + xa.get_name() + " banks", mask,
                     axl_xclbin_arg_banks(&x, ipi, uint32_t(xa.get_index())));
            }
        }
    }
    if (!failures)
        std::printf("%s: XRT's C++ API agrees (%lu checks so far)\n",
                    path.c_str(), checks);
}

} // namespace

int main(int argc, char **argv)
{
    if (axl_test_without_reader())
        return 0;
    if (argc < 2)
        return 1;
    for (int i = 1; i < argc; i++) {
        try {
            check(argv[i]);
        } catch (const std::exception &e) {
            std::fprintf(stderr, "%s: XRT threw: %s\n", argv[i], e.what());
            failures++;
        }
    }
    return failures ? 1 : 0;
}
