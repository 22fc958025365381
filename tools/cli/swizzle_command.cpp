// `tilelab swizzle`: the LDS layouts that let a tile's writer and reader both
// run without bank conflicts.
#include "sim/lds/swizzle_search.hpp"
#include "app/error_text.hpp"
#include "app/lds_json.hpp"
#include "tools/cli/cli_util.hpp"
#include "tools/cli/options.hpp"

namespace tilelab::cli {

int run_swizzle(const std::vector<std::string>& args) {
  const char* help =
      "usage: tilelab swizzle [--arch A] --tile M,N --elem-bytes N\n"
      "                       --write-tv THR VAL --write-inst I --read-tv THR VAL --read-inst I\n"
      "                       [--top K] [--json]\n\n"
      "Scores the row-major M x N tile, every XOR swizzle Sw<B,M,S> of it and row\n"
      "padding (charged its extra LDS bytes) by the conflict cycles of the writer's\n"
      "and the reader's instructions over the whole tile (thread-value atoms repeated\n"
      "over the tile), and prints the best --top K and the plain layout.\n"
      "Swizzles that would split a vector access are skipped.\n";
  bool want_help = false, json = false;
  std::optional<std::string> arch, tile, write_inst, read_inst;
  std::optional<int> elem_bytes;
  std::optional<std::vector<std::string>> write_tv, read_tv;
  int top = 5;
  po::options_description opts = option_group("options");
  opts.add_options()("help", flag(want_help), "this text")(
      "tile", optional_value(tile, "M,N"), "the row-major tile (required)")(
      "elem-bytes", optional_value(elem_bytes, "N"), "bytes per element (required; 2 for bf16)")(
      "write-tv", optional_value(write_tv, "THR VAL")->multitoken(), "the writer's make_layout_tv(THR, VAL) atom (required)")(
      "write-inst", optional_value(write_inst, "I"), "the writer's instruction, e.g. ds_write_b128 (required)")(
      "read-tv", optional_value(read_tv, "THR VAL")->multitoken(), "the reader's atom (required)")(
      "read-inst", optional_value(read_inst, "I"), "the reader's instruction, e.g. ds_read_b64_tr_b16 (required)")(
      "top", po::value(&top)->value_name("K")->default_value(5), "how many of the best layouts to print")(
      "json", flag(json), "one JSON object");
  add_arch_option(opts, arch, "gfx950");
  po::variables_map vm;
  int status = kOk;
  if (!parse_options("swizzle", args, opts, vm, status)) return status;
  if (want_help) {
    print_help(std::cout, help, opts);
    return kOk;
  }
  const std::pair<const char*, bool> required[] = {{"tile", tile.has_value()},          {"elem-bytes", elem_bytes.has_value()},
                                                   {"write-tv", write_tv.has_value()},  {"write-inst", write_inst.has_value()},
                                                   {"read-tv", read_tv.has_value()},    {"read-inst", read_inst.has_value()}};
  for (const auto& [name, given] : required)
    if (!given) return usage_error("swizzle", std::string("--") + name + " is required");
  try {
    arch::Arch a = arch::load_arch(arch.value_or("gfx950"));
    auto tv_of = [](const char* opt, const std::vector<std::string>& v) {
      if (v.size() != 2) throw std::invalid_argument(std::string(opt) + " takes two layouts: THR VAL");
      return make_layout_tv(layout_arg(opt, v[0]), layout_arg(opt, v[1]));
    };
    lds::BankModel wm(a, a.instruction(*write_inst));
    lds::BankModel rm(a, a.instruction(*read_inst));
    lds::AccessSide w{tv_of("--write-tv", *write_tv), &wm};
    lds::AccessSide r{tv_of("--read-tv", *read_tv), &rm};
    std::size_t comma = tile->find(',');
    if (comma == std::string::npos) return usage_error("swizzle", "--tile takes M,N");
    Int rows = std::stoll(tile->substr(0, comma)), cols = std::stoll(tile->substr(comma + 1));
    lds::SearchResult s = lds::search_swizzles(w, r, rows, cols, *elem_bytes);
    top = std::max(1, top);
    if (json) {
      std::cout << app::swizzle_json(a, s, top).dump() << "\n";
      return kOk;
    }
    std::cout << a.name << ": " << s.evaluated << " layouts scored (" << s.skipped
              << " skipped: they split a vector access)\n"
              << "  conflict cycles (write + read)  extra LDS bytes  layout\n";
    auto line = [](const lds::Candidate& c) {
      std::string n = std::to_string(c.total()) + " (" + std::to_string(c.write_conflicts) + " + " +
                      std::to_string(c.read_conflicts) + ")";
      std::cout << "  " << n << std::string(n.size() < 32 ? 32 - n.size() : 1, ' ') << c.extra_bytes
                << std::string(17 - std::to_string(c.extra_bytes).size(), ' ') << c.layout << "\n";
    };
    for (int i = 0; i < top && i < static_cast<int>(s.ranked.size()); ++i) line(s.ranked[i]);
    std::cout << "plain row-major:\n";
    line(s.plain);
  } catch (const std::invalid_argument& e) {
    return usage_error("swizzle", e.what());
  } catch (const std::exception& e) {
    std::cerr << "error: " << error_text(e) << "\n";
    return kFailed;
  }
  return kOk;
}

}  // namespace tilelab::cli
