// `tilelab lds`: the bank-conflict cost of LDS instructions, from per-lane
// addresses or from a thread-value layout over an LDS layout.
#include <fstream>
#include <sstream>

#include "app/lds_json.hpp"
#include "layouts/tv_layout.hpp"
#include "sim/lds/tile_access.hpp"
#include "app/error_text.hpp"
#include "tools/cli/cli_util.hpp"
#include "tools/cli/design_run.hpp"
#include "app/json.hpp"
#include "tools/cli/lds_report.hpp"
#include "traces/store.hpp"

namespace tilelab::cli {

namespace {

const char* const kHelp =
    "usage: tilelab lds --arch A --inst I --addresses FILE [--mask HEX] [--json]\n"
    "       tilelab lds --arch A --inst I --tv THR VAL --smem LAYOUT --elem-bytes N [--tile M,N] [--json]\n\n"
    "The cost of LDS (shared-memory) instructions in the arch's bank model: per pass\n"
    "(lanes served together) the active lanes, banks touched, ways (distinct words in\n"
    "the busiest bank; equal addresses broadcast) and cycles, and the totals in the\n"
    "vendor's counter units (AMD SQ_LDS_BANK_CONFLICT cycles; NVIDIA wavefronts and\n"
    "bank conflicts as Nsight Compute counts them).\n\n"
    "  --arch A          gfx950 (default), gfx942, sm90, or an arch .toml file\n"
    "  --inst I          e.g. ds_read_b128, ds_write_b64, ds_read_b64_tr_b16, LDS.128\n"
    "  --addresses FILE  one byte address per lane (decimal or 0x hex, separated by\n"
    "                    spaces, commas or newlines; # comments); - reads stdin\n"
    "  --mask HEX        active lanes (default: all)\n"
    "  --tv THR VAL      who holds what: make_layout_tv(THR, VAL), an atom repeated over the tile\n"
    "  --smem LAYOUT     tile coordinate -> element offset in LDS, e.g. (64,64):(64,1)\n"
    "                    or Sw<3,3,3> o (64,64):(64,1)\n"
    "  --elem-bytes N    bytes per element (2 for bf16)\n"
    "  --tile M,N        the LDS tile (default: the shape of --smem)\n"
    "  --json            one JSON object instead of tables\n"
    "  --out FILE        (layout form) also add the check to an HDF5 trace store as a\n"
    "                    design run: one LDS row per instruction, the counter total\n"
    "  --run-id ID       the run's id in FILE (default: design-<inst>)\n"
    "  --record FILE     the same as --out (its earlier name)\n"
    "  --wait SECONDS    how long --out waits for another writer of FILE (default 60)\n\n"
    "exit status: 0 success, 1 the analysis failed (e.g. a misaligned address), 2 usage error.\n";

std::vector<std::uint32_t> read_addresses(const std::string& path) {
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {
    file.open(path);
    if (!file) throw std::invalid_argument("cannot read address file '" + path + "'");
    in = &file;
  }
  std::vector<std::uint32_t> out;
  std::string line;
  int n = 0;
  while (std::getline(*in, line)) {
    ++n;
    line = line.substr(0, line.find('#'));
    for (char& c : line)
      if (c == ',') c = ' ';
    std::istringstream s(line);
    std::string tok;
    while (s >> tok) {
      std::size_t used = 0;
      unsigned long long v = 0;
      try {
        v = std::stoull(tok, &used, 0);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != tok.size() || tok[0] == '-' || v > 0xffffffffULL)
        throw std::invalid_argument("address file line " + std::to_string(n) + ": '" + tok + "' is not an address");
      out.push_back(static_cast<std::uint32_t>(v));
    }
  }
  return out;
}

int run_addresses(const arch::Arch& a, const lds::BankModel& model, const std::string& path, std::uint64_t mask,
                  bool json) {
  std::vector<std::uint32_t> addr = read_addresses(path);
  if (static_cast<int>(addr.size()) != a.wave_size)
    throw std::invalid_argument("expected " + std::to_string(a.wave_size) + " addresses (one per lane of a " + a.name +
                                " wave), got " + std::to_string(addr.size()));
  lds::Analysis r = model.analyze(addr, mask);
  const arch::LdsInstruction& ins = model.instruction();
  if (json) {
    std::cout << app::lds_json(a, ins, r).dump() << "\n";
    return kOk;
  }
  std::cout << a.name << " " << ins.name << " (" << arch::to_string(ins.status) << ")\n"
            << assumption_note(a, ins) << pass_table(r) << totals_line(a, r.cycles, r.conflict_cycles, r.passes)
            << ", worst " << r.max_ways << "-way\n";
  return kOk;
}

// The check as a design run of the trace store (traces/SCHEMA.md).
void record(const std::string& file, const std::string& run_id, const arch::Arch& a, const lds::BankModel& model,
            const std::vector<std::string>& tv_args, const std::string& smem_text, int elem_bytes,
            const IntTuple& tile, const lds::TileReport& rep) {
  const arch::LdsInstruction& ins = model.instruction();
  traces::RunInfo info = design_run_info(run_id.empty() ? "design-" + ins.name : run_id, "lds-tile", a.name);
  info.problem_shape = "tile=" + to_string(tile);
  info.config_json = Json{{"inst", ins.name}, {"thr", tv_args[0]}, {"val", tv_args[1]}, {"smem", smem_text},
                          {"elem_bytes", elem_bytes}}
                         .dump();
  traces::RunWriter w(file, info, store_writer_options());
  for (std::size_t i = 0; i < rep.analyses.size(); ++i) {
    traces::LdsRecord l{};
    traces::set_text(l.site, "wave " + std::to_string(rep.instructions[i].wave) + " inst " +
                                 std::to_string(rep.instructions[i].index));
    traces::set_text(l.instruction, ins.name);
    l.phases = static_cast<std::uint16_t>(rep.analyses[i].passes);
    l.worst_ways = static_cast<std::uint16_t>(rep.analyses[i].max_ways);
    l.conflict_cycles = static_cast<std::uint64_t>(rep.analyses[i].conflict_cycles);
    l.count = 1;
    w.add_lds(l);
  }
  if (a.vendor == "nvidia") {
    std::string op = ins.is_store() ? "st" : "ld";
    w.add_counter("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" + op + ".sum", rep.conflict_cycles);
    w.add_counter("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_" + op + ".sum", rep.cycles);
  } else {
    w.add_counter("SQ_LDS_BANK_CONFLICT", rep.conflict_cycles);
  }
  w.finish();
}

int run_layout_form(const arch::Arch& a, const lds::BankModel& model, const std::vector<std::string>& tv_args,
                    const std::string& smem_text, int elem_bytes, const std::string& tile_text, bool json,
                    const std::string& record_file, const std::string& run_id) {
  if (tv_args.size() != 2) throw std::invalid_argument("--tv takes two layouts: THR VAL");
  TVLayout tv = make_layout_tv(layout_arg("--tv", tv_args[0]), layout_arg("--tv", tv_args[1]));
  Value sv;
  try {
    sv = evaluate(smem_text);
  } catch (const ExprError& e) {
    throw std::invalid_argument("--smem: " + e.message());
  }
  lds::LdsLayout smem;
  IntTuple smem_shape;
  if (auto* c = std::get_if<ComposedLayout>(&sv)) {
    ComposedLayout cl = *c;
    smem = [cl](Int m, Int n) { return cl(IntTuple{m, n}); };
    smem_shape = cl.layout.shape();
  } else {
    Layout l = layout_arg("--smem", smem_text);
    smem = [l](Int m, Int n) { return l(IntTuple{m, n}); };
    smem_shape = l.shape();
  }
  if (!smem_shape.is_tuple() || smem_shape.rank() != 2)
    throw std::invalid_argument("--smem must be a rank-2 layout (rows, columns), got shape " + to_string(smem_shape));
  IntTuple tile = product_each(smem_shape);
  if (!tile_text.empty()) {
    std::size_t comma = tile_text.find(',');
    if (comma == std::string::npos) throw std::invalid_argument("--tile takes M,N");
    tile = IntTuple{std::stoll(tile_text.substr(0, comma)), std::stoll(tile_text.substr(comma + 1))};
  }
  lds::TileReport rep = lds::analyze_tile(model, tv, tile, smem, elem_bytes);
  if (!record_file.empty()) record(record_file, run_id, a, model, tv_args, smem_text, elem_bytes, tile, rep);
  const arch::LdsInstruction& ins = model.instruction();
  int passes = 0;
  for (const lds::Analysis& x : rep.analyses) passes += x.passes;
  if (json) {
    std::cout << app::lds_tile_json(a, ins, rep).dump() << "\n";
    return kOk;
  }
  std::cout << a.name << " " << ins.name << " (" << arch::to_string(ins.status) << "): " << rep.instructions.size()
            << " wave-instructions over tile " << to_string(tile) << "\n"
            << assumption_note(a, ins);
  std::cout << "  wave  inst  starts at     passes  worst  cycles  conflicts\n";
  for (std::size_t i = 0; i < rep.analyses.size(); ++i) {
    const lds::Analysis& x = rep.analyses[i];
    std::string at = "(" + std::to_string(rep.instructions[i].first_m) + "," + std::to_string(rep.instructions[i].first_n) + ")";
    std::cout << "  " << rep.instructions[i].wave << "     " << rep.instructions[i].index
              << std::string(6 - std::to_string(rep.instructions[i].index).size(), ' ') << at
              << std::string(at.size() < 14 ? 14 - at.size() : 1, ' ') << x.passes << "       " << x.max_ways
              << "      " << x.cycles << "      " << x.conflict_cycles << "\n";
  }
  std::cout << "worst instruction (#" << rep.worst << "):\n" << pass_table(rep.analyses[rep.worst])
            << "total: " << totals_line(a, rep.cycles, rep.conflict_cycles, passes) << "\n";
  return kOk;
}

}  // namespace

int run_lds(const std::vector<std::string>& args) {
  po::options_description opts;
  opts.add_options()("help", "")("json", "")("arch", po::value<std::string>()->default_value("gfx950"), "")(
      "inst", po::value<std::string>(), "")("addresses", po::value<std::string>(), "")(
      "mask", po::value<std::string>(), "")("tv", po::value<std::vector<std::string>>()->multitoken(), "")(
      "smem", po::value<std::string>(), "")("elem-bytes", po::value<int>(), "")("tile", po::value<std::string>(), "")(
      "out", po::value<std::string>(), "")("record", po::value<std::string>(), "")("run-id", po::value<std::string>()->default_value(""), "")(
      "wait", po::value<double>()->default_value(60), "");
  po::variables_map vm;
  int status = kOk;
  if (!parse_options("lds", args, opts, vm, status)) return status;
  if (!(vm["wait"].as<double>() >= 0)) return usage_error("lds", "--wait SECONDS must not be negative");
  set_store_wait(vm["wait"].as<double>());
  if (vm.count("help")) {
    std::cout << kHelp;
    return kOk;
  }
  if (!vm.count("inst")) return usage_error("lds", "--inst is required");
  bool by_addresses = vm.count("addresses") > 0, by_layout = vm.count("tv") > 0;
  if (by_addresses == by_layout) return usage_error("lds", "give either --addresses or --tv/--smem/--elem-bytes");
  if (by_layout && (!vm.count("smem") || !vm.count("elem-bytes")))
    return usage_error("lds", "--tv needs --smem and --elem-bytes");
  if (!store_file(vm).empty() && !by_layout) return usage_error("lds", "--out goes with the layout form (--tv)");
  try {
    arch::Arch a = arch::load_arch(vm["arch"].as<std::string>());
    lds::BankModel model(a, a.instruction(vm["inst"].as<std::string>()));
    if (by_addresses) {
      std::uint64_t mask = ~std::uint64_t{0};
      if (vm.count("mask")) {
        std::string m = vm["mask"].as<std::string>();
        std::size_t used = 0;
        try {
          mask = std::stoull(m, &used, 16);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != m.size()) return usage_error("lds", "--mask takes a hexadecimal lane mask, got '" + m + "'");
      }
      return run_addresses(a, model, vm["addresses"].as<std::string>(), mask, vm.count("json") > 0);
    }
    return run_layout_form(a, model, vm["tv"].as<std::vector<std::string>>(), vm["smem"].as<std::string>(),
                           vm["elem-bytes"].as<int>(), vm.count("tile") ? vm["tile"].as<std::string>() : "",
                           vm.count("json") > 0, store_file(vm),
                           vm["run-id"].as<std::string>());
  } catch (const std::invalid_argument& e) {  // std::stoi's is only "stoi": error_text words it
    return usage_error("lds", error_text(e));
  } catch (const std::exception& e) {
    std::cerr << "error: " << error_text(e) << "\n";
    return kFailed;
  }
}

}  // namespace tilelab::cli
