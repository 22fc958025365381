// `tilelab lds`: the bank-conflict cost of LDS instructions, from per-lane
// addresses or from a thread-value layout over an LDS layout.
#include <fstream>
#include <sstream>

#include "app/lds_json.hpp"
#include "layouts/tv_layout.hpp"
#include "sim/lds/tile_access.hpp"
#include "app/error_text.hpp"
#include "tools/cli/cli_util.hpp"
#include "tools/cli/options.hpp"
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
    "The layout form (--tv) with --out adds the check to the store as a design run: one\n"
    "LDS row per instruction, the counter total (run id default design-<inst>).\n\n"
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
void record(const StoreOptions& store, const arch::Arch& a, const lds::BankModel& model,
            const std::vector<std::string>& tv_args, const std::string& smem_text, int elem_bytes,
            const IntTuple& tile, const lds::TileReport& rep) {
  const arch::LdsInstruction& ins = model.instruction();
  traces::RunInfo info = design_run_info(store.id_or("design-" + ins.name), "lds-tile", a.name);
  info.problem_shape = "tile=" + to_string(tile);
  info.config_json = Json{{"inst", ins.name}, {"thr", tv_args[0]}, {"val", tv_args[1]}, {"smem", smem_text},
                          {"elem_bytes", elem_bytes}}
                         .dump();
  traces::RunWriter w(store.file(), info, writer_options(store));
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
                    const StoreOptions& store) {
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
  if (store.given()) record(store, a, model, tv_args, smem_text, elem_bytes, tile, rep);
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

namespace {
// The command line of `tilelab lds`.
struct LdsOptions {
  bool help = false, json = false;
  std::optional<std::string> arch, inst, addresses, mask, smem, tile;
  std::optional<std::vector<std::string>> tv;
  std::optional<int> elem_bytes;
  StoreOptions store;
};
}  // namespace

int run_lds(const std::vector<std::string>& args) {
  LdsOptions o;
  po::options_description opts = option_group("options");
  opts.add_options()("help", flag(o.help), "this text")(
      "inst", optional_value(o.inst, "I"), "the instruction, e.g. ds_read_b128, ds_write_b64, ds_read_b64_tr_b16, LDS.128")(
      "addresses", optional_value(o.addresses, "FILE"),
      "one byte address per lane (decimal or 0x hex, separated by spaces, commas or newlines; # comments); - reads stdin")(
      "mask", optional_value(o.mask, "HEX"), "the active lanes (default: all)")(
      "tv", optional_value(o.tv, "THR VAL")->multitoken(), "who holds what: make_layout_tv(THR, VAL), an atom repeated over the tile")(
      "smem", optional_value(o.smem, "LAYOUT"), "tile coordinate -> element offset in LDS, e.g. (64,64):(64,1) or Sw<3,3,3> o (64,64):(64,1)")(
      "elem-bytes", optional_value(o.elem_bytes, "N"), "bytes per element (2 for bf16)")(
      "tile", optional_value(o.tile, "M,N"), "the LDS tile (default: the shape of --smem)")(
      "json", flag(o.json), "one JSON object instead of tables");
  add_arch_option(opts, o.arch, "gfx950 (also sm90)");
  opts.add(store_options(o.store, true));
  int status = kOk;
  if (!parse_with_store("lds", args, opts, o.store, status)) return status;
  if (o.help) {
    print_help(std::cout, kHelp, opts);
    return kOk;
  }
  if (!o.inst) return usage_error("lds", "--inst is required");
  const bool by_addresses = o.addresses.has_value(), by_layout = o.tv.has_value();
  if (by_addresses == by_layout) return usage_error("lds", "give either --addresses or --tv/--smem/--elem-bytes");
  if (by_layout && (!o.smem || !o.elem_bytes)) return usage_error("lds", "--tv needs --smem and --elem-bytes");
  if (o.store.given() && !by_layout) return usage_error("lds", "--out goes with the layout form (--tv)");
  try {
    arch::Arch a = arch::load_arch(o.arch.value_or("gfx950"));
    lds::BankModel model(a, a.instruction(*o.inst));
    if (by_addresses) {
      std::uint64_t mask = ~std::uint64_t{0};
      if (o.mask) {
        const std::string& m = *o.mask;
        std::size_t used = 0;
        try {
          mask = std::stoull(m, &used, 16);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != m.size()) return usage_error("lds", "--mask takes a hexadecimal lane mask, got '" + m + "'");
      }
      return run_addresses(a, model, *o.addresses, mask, o.json);
    }
    return run_layout_form(a, model, *o.tv, *o.smem, *o.elem_bytes, o.tile.value_or(""), o.json, o.store);
  } catch (const std::invalid_argument& e) {  // std::stoi's is only "stoi": error_text words it
    return usage_error("lds", error_text(e));
  } catch (const std::exception& e) {
    std::cerr << "error: " << error_text(e) << "\n";
    return kFailed;
  }
}

}  // namespace tilelab::cli
