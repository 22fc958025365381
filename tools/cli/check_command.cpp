// `tilelab check`: the design check of every kernel spec (or one), on an
// architecture: LDS use, exact bank conflicts of each designed access,
// occupancy from the compiled code object, spec/code-object agreement, and
// the per-tile bound for a problem shape.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>

#include "app/design_check_run.hpp"
#include "kernels/code_object_dir.hpp"
#include "generated/kernel_build.hpp"
#include "kernels/design_check.hpp"
#include "traces/text_table.hpp"
#include "sim/isa/code_object.hpp"
#include "app/error_text.hpp"
#include "tools/cli/cli_util.hpp"
#include "tools/cli/options.hpp"
#include "tools/cli/design_run.hpp"
#include "app/json.hpp"
#include "app/run_json.hpp"
#include "app/target.hpp"
#include "tools/cli/code_object_report.hpp"
#include "sim/isa/decoder.hpp"

namespace tilelab::cli {

namespace {
namespace fs = std::filesystem;

std::string cycles(double c) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", c);
  return buf;
}

// The whole-chip bound as a table: each level's bytes and the cycles it
// alone would take (kernels/chip_bound.hpp says how each is counted).
void print_chip_bound(const kernels::ChipBound& c) {
  char head[256];
  std::snprintf(head, sizeof head,
                "  whole chip (%lld workgroups, %d XCDs x %d CUs; workgroup w on XCD w %% %d): bound %.0f cycles = "
                "%.2f us at %.0f MHz, limiter %s\n",
                c.workgroups, c.xcds, c.cus_per_xcd, c.xcds, c.cycles, c.microseconds(), c.clock_mhz,
                c.limiter.c_str());
  std::cout << head;
  traces::TextTable t({{"level", traces::TextTable::Align::left}, {"bytes"}, {"cycles"}, {"counted as", traces::TextTable::Align::left}});
  for (const auto& l : c.levels)
    t.add_row({l.level, l.bytes > 0 ? traces::number(std::round(l.bytes)) : "-", traces::number(std::round(l.cycles)), l.what});
  t.add_row({"launch", "-", traces::number(c.launch_cycles), "added to the largest level"});
  t.print(std::cout, "    ");
}

void print_report(const kernels::KernelSpec& spec, const kernels::DesignReport& r) {
  std::cout << spec.name << " on " << r.arch << ": " << (r.problems.empty() ? "clean" : "PROBLEMS") << "\n"
            << "  " << spec.summary << "\n"
            << "  block tile: " << spec.block_tile << "\n  waves: " << spec.wave_layout
            << "\n  threads/values: " << spec.thread_values << "\n  copy: " << spec.copy_atom
            << "; MFMA: " << spec.mfma_atom << "; pipeline depth " << spec.pipeline_depth << "\n"
            << "  LDS: " << r.lds_bytes << " of " << r.lds_capacity << " bytes\n";
  for (const auto& b : spec.lds)
    std::cout << "    " << b.name << ": " << b.layout() << " x" << b.stages << " stage(s), " << b.elem_bytes
              << "-byte elements, " << b.bytes() << " bytes\n";
  for (const auto& a : r.accesses)
    std::cout << "    " << a.what << " [" << a.instruction << "]: " << a.instructions << " instruction(s), "
              << a.cycles << " cycles, " << a.conflict_cycles << " conflict cycles, worst " << a.worst_ways
              << "-way\n";
  if (r.compiled)
    std::cout << "  compiled: " << r.compiled->vgprs << " VGPRs, " << r.compiled->agprs << " AGPRs, "
              << r.compiled->sgprs << " SGPRs, " << r.compiled->lds_bytes << " LDS bytes, "
              << r.compiled->scratch_bytes << " scratch bytes/lane\n";
  if (r.occupancy)
    std::cout << "  occupancy: " << r.occupancy->workgroups_per_cu << " workgroup(s)/CU, "
              << r.occupancy->waves_per_simd << " waves/SIMD; limited by " << r.limited_by << "\n";
  else
    std::cout << "  occupancy: " << r.limited_by << "\n";
  if (r.bound) {
    const auto& b = *r.bound;
    std::cout << "  per workgroup at " << shape_text(spec, b.shape) << " (" << b.work.workgroups
              << " workgroups): MFMA " << cycles(b.mfma_cycles) << " cycles, LDS " << cycles(b.lds_cycles)
              << " cycles, global " << cycles(b.global_cycles_reused) << " cycles with perfect cache reuse ("
              << cycles(b.global_cycles) << " with none: " << b.work.global_bytes << " bytes) at "
              << cycles(b.hbm_bytes_per_clock_per_cu) << " B/clock (this CU's share of HBM among the CUs running work); likely limiter: "
              << b.limiter << "\n";
  }
  if (r.chip) print_chip_bound(*r.chip);
  for (const auto& p : r.problems) std::cout << "  problem: " << p << "\n";
  for (const auto& n : r.notes) std::cout << "  note: " << n << "\n";
}

std::string waves(double w) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%g", w);
  return buf;
}

// One line per kernel, for the quickstart's table.
void print_summary_line(const kernels::KernelSpec& spec, const kernels::DesignReport& r) {
  char line[512];
  std::snprintf(line, sizeof line, "%-26s %-7s %8lld %9lld  %-22s %-14s %s\n", spec.name.c_str(),
                r.problems.empty() ? "clean" : "PROBLEM", r.lds_bytes, r.conflict_cycles,
                r.occupancy ? (std::to_string(r.occupancy->workgroups_per_cu) + " WG/CU, " +
                               waves(r.occupancy->waves_per_simd) + " w/SIMD")
                                  .c_str()
                            : "?",
                r.bound ? r.bound->limiter.c_str() : "-", r.bound ? shape_text(spec, r.bound->shape).c_str() : "-");
  std::cout << line;
}

// The check as a design run of the trace store (traces/SCHEMA.md): one LDS
// record per designed access, the conflict counter, the report as JSON.
void record(const StoreOptions& store, const kernels::KernelSpec& spec,
            const kernels::DesignReport& r) {
  traces::RunInfo info = design_run_info(store.id_or(app::default_run_id("design", spec.name, r.arch)), spec.name, r.arch);
  info.problem_shape = r.bound ? shape_text(spec, r.bound->shape) : "";
  info.config_json = app::design_json(spec, r).dump();
  traces::RunWriter w(store.file(), info, writer_options(store));
  for (const auto& a : r.accesses) {
    traces::LdsRecord l{};
    traces::set_text(l.site, a.what);
    traces::set_text(l.instruction, a.instruction);
    l.worst_ways = static_cast<std::uint16_t>(a.worst_ways);
    l.conflict_cycles = static_cast<std::uint64_t>(a.conflict_cycles);
    l.count = static_cast<std::uint64_t>(a.instructions);
    w.add_lds(l);
  }
  w.add_counter("SQ_LDS_BANK_CONFLICT", static_cast<double>(r.conflict_cycles));
  w.finish();
}

}  // namespace

namespace {

// A code object without a spec: per kernel its resources, occupancy, the
// instruction mix per loop and each loop's MFMA/LDS/global bound.
int check_code_object(const std::string& file, const std::string& only, const std::string& arch_name,
                      std::uint32_t dynamic_lds) {
  try {
    const isa::CodeObject co = isa::read_code_object(file);
    const arch::Arch a = arch::load_arch(arch_name.empty() ? co.arch : arch_name);
    if (!only.empty()) co.kernel(only);  // names the kernels there are if there is none
    for (const isa::Kernel& k : co.kernels) {
      if (!only.empty() && k.name != only) continue;
      print_resources(std::cout, co, k, dynamic_lds);
      std::cout << "  checked without a spec, on " << a.name << "\n";
      const isa::Program p = isa::decode_kernel(co, k.name);
      print_class_counts(std::cout, p);
      print_loop_bounds(std::cout, p, a);
    }
    return kOk;
  } catch (const std::exception& e) {
    std::cerr << "error: " << error_text(e) << "\n";
    return kFailed;
  }
}

}  // namespace

namespace {
// The command line of `tilelab check`.
struct CheckOptions {
  bool help = false, json = false, summary = false;
  std::optional<std::string> target, arch, shape, params, kernel;
  std::optional<std::uint32_t> dynamic_lds;
  std::optional<std::string> code_objects;  // the build's unless given
  StoreOptions store;
};
}  // namespace

int run_check(const std::vector<std::string>& args) {
  const char* help =
      "usage: tilelab check [KERNEL] [--arch gfx950|gfx942] [--shape D1,D2,...] [--code-objects DIR]\n"
      "       tilelab check KERNEL --params NAME=V,... [--arch A] [--shape D1,D2,...]   (a template's variant)\n"
      "       tilelab check FILE.co [--kernel NAME] [--arch A] [--dynamic-lds BYTES]   (a code object without a spec)\n"
      "                     [--json | --summary] [--out FILE [--run-id ID]]\n\n"
      "The design check of each kernel's layout spec (kernels/<name>/spec.cpp), or of\n"
      "KERNEL only: the block tile and its split over waves, threads and values; every\n"
      "LDS buffer (layout, swizzle, stages) against the LDS the arch has; the exact\n"
      "bank-conflict cycles of every designed LDS access (sim/lds's model, in\n"
      "SQ_LDS_BANK_CONFLICT units); occupancy and what limits it, from the compiled\n"
      "code object's registers (DIR/<arch>/<source>.hsaco, default: the build's);\n"
      "whether the code object's LDS bytes and workgroup size agree with the spec; and\n"
      "the per-workgroup bound for a problem shape: MFMA cycles (the arch file's MFMA\n"
      "table over the SIMDs the waves occupy) vs LDS cycles (the designed accesses)\n"
      "vs global bytes at this CU's share of HBM bandwidth (with perfect cache reuse,\n"
      "and with none), naming the likely limiter (global: the perfect-reuse figure);\n"
      "then the whole-chip bound (arch files with a chip): per level of the chip (MFMA,\n"
      "LDS, L2, fabric, MALL, HBM) the cycles it alone would take, from the tiles each\n"
      "workgroup reads and the XCD it goes to (w mod XCDs), and the limiter; a timed\n"
      "run on the whole chip never beats it.  --shape gives the dimensions in the spec's order (gemm:\n"
      "M,N,K); without it, the spec's default shape.  A report is 'clean' when none\n"
      "of the checks finds a problem.\n"
      "--out adds each check to the store as a design run (run id default\n"
      "design-<kernel>-<arch>).\n"
      "A code object tilelab did not build (FILE.co or FILE.hsaco, or assembly FILE.s,\n"
      "assembled and linked on reading) is checked without a\n"
      "spec: per kernel (or only --kernel NAME) its registers, LDS, arguments,\n"
      "occupancy, the instruction mix of the kernel and of each loop, and each loop's\n"
      "bound per iteration with one wave on every SIMD: MFMA cycles, LDS port cycles\n"
      "if conflict-free, global bytes at this CU's share of HBM with every CU busy.\n"
      "--dynamic-lds BYTES: the LDS the launch adds to the kernel's own (Triton and\n"
      "hipcc kernels declare 0 and get theirs at launch); occupancy counts both.\n"
      "--params NAME=V,... checks a variant of a template (gemm_bf16: TILE_M, TILE_N,\n"
      "WAVES_M, WAVES_N, SWIZZLE; gemm_mxfp4, gemm_mxfp8 and their _32x32 kernels:\n"
      "TILE_M, TILE_N, WAVES_M, WAVES_N; attention_fwd_d64/_d128: TILE_Q, TILE_KV,\n"
      "PINGPONG, SETPRIO): the spec for those parameters against the variant compiled into the\n"
      "kernel cache (as `tilelab compile SOURCE --params` compiles it).\n"
      "Exit status: 0 all clean, 1 some report has problems, 2 bad command line.\n";
  CheckOptions o;
  po::options_description opts = option_group("options");
  opts.add_options()("help", flag(o.help), "this text")(
      "shape", optional_value(o.shape, "D1,D2,..."), "the problem's dimensions in the spec's order (gemm: M,N,K); default the spec's")(
      "code-objects", optional_value(o.code_objects, "DIR"), "where the compiled kernels are (DIR/<arch>/<source>.hsaco; default the build's)")(
      "params", optional_value(o.params, "NAME=V,..."), "check a variant of a template against the variant compiled into the kernel cache")(
      "kernel", optional_value(o.kernel, "NAME"), "a code object's kernel to check (default: all of them)")(
      "dynamic-lds", optional_value(o.dynamic_lds, "BYTES"), "the LDS a code object's launch adds to the kernel's own")(
      "json", flag(o.json), "one JSON object per kernel per line")(
      "summary", flag(o.summary), "one table row per kernel");
  add_arch_option(opts, o.arch, "gfx950 (a code object: its own processor)");
  opts.add(store_options(o.store, true));
  po::options_description all(opts);
  all.add_options()("target", optional_value(o.target), "");
  po::positional_options_description pos;
  pos.add("target", 1);
  int status = kOk;
  if (!parse_with_store("check", args, all, o.store, status, &pos)) return status;
  if (o.help) {
    print_help(std::cout, help, opts);
    return kOk;
  }
  if (o.json && o.summary) return usage_error("check", "--json and --summary exclude each other");
  if (o.shape && !o.target) return usage_error("check", "--shape needs a KERNEL");
  if (!o.store.run_id.empty() && !o.target)
    return usage_error("check", "--run-id needs a KERNEL (one run per id)");
  if (o.dynamic_lds.value_or(0) > (1u << 24))  // far above any LDS; the sum with the kernel's stays in 32 bits
    return usage_error("check", "--dynamic-lds must be at most 16777216 bytes");
  if (o.target && names_code_object(*o.target))
    return check_code_object(*o.target, o.kernel ? *o.kernel : "",
                             o.arch.value_or(""),
                             o.dynamic_lds.value_or(0));
  if (o.params && !o.target) return usage_error("check", "--params needs a KERNEL (a template)");
  if (o.params && o.code_objects)
    return usage_error("check", "--params checks the variant compiled into the kernel cache, not --code-objects");
  if (o.kernel) return usage_error("check", "--kernel NAME goes with a code object FILE.co");
  if (o.dynamic_lds) return usage_error("check", "--dynamic-lds BYTES goes with a code object FILE.co");
  try {
    const arch::Arch a = arch::load_arch(o.arch.value_or("gfx950"));
    const std::string dir = o.code_objects.value_or(kernels::code_object_dir());
    if (o.code_objects && !fs::is_directory(dir))  // a typo would skip every code-object check
      return usage_error("check", "--code-objects " + dir + ": no such directory");
    std::optional<std::vector<long long>> shape;
    if (o.shape) shape = parse_shape(*o.shape);
    std::vector<const kernels::KernelSpec*> specs;
    std::vector<std::pair<const kernels::KernelSpec*, kernels::DesignReport>> reports;
    std::optional<app::VariantDesign> variant;  // --params: the variant's spec and its compiled code object
    if (o.params) {
      const auto params = app::parse_named_shape(*o.params);
      variant = app::check_variant(*o.target, a, params, shape);  // checked against its own code object
      reports.emplace_back(&variant->spec, variant->report);
      if (!o.json) std::cout << "variant " << *o.params << ": " << variant->code_object << "\n";
    } else if (o.target) {
      specs.push_back(&kernels::find_spec(*o.target));
    } else {
      for (const auto& s : kernels::all_specs())
        if (std::find(s.archs.begin(), s.archs.end(), a.name) != s.archs.end()) specs.push_back(&s);
    }
    std::map<std::string, isa::CodeObject> read;
    for (const auto* s : specs) {
      const auto compiled = app::compiled_facts(*s, a.name, dir, "", read);
      reports.emplace_back(s, kernels::design_check(*s, a, compiled, shape));  // refuses a spec not for this arch
    }
    int with_problems = 0;
    if (o.summary)
      std::cout << "kernel                     design      LDS B  conflicts  occupancy              limiter        shape\n";
    for (const auto& [s, r] : reports) {
      if (o.json) {
        std::cout << app::design_json(*s, r).dump() << "\n";
      } else if (o.summary) {
        print_summary_line(*s, r);
      } else {
        print_report(*s, r);
      }
      with_problems += !r.problems.empty();
      if (o.store.given()) record(o.store, *s, r);
    }
    if (!o.json)
      std::cout << reports.size() << " kernel(s) checked on " << a.name << ", " << with_problems << " with problems\n";
    return with_problems ? kFailed : kOk;
  } catch (const std::invalid_argument& e) {  // std::stoi's is only "stoi": error_text words it
    return usage_error("check", error_text(e));
  } catch (const std::exception& e) {
    std::cerr << "error: " << error_text(e) << "\n";
    return kFailed;
  }
}

}  // namespace tilelab::cli
