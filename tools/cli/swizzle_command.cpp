// `tilelab swizzle`: the LDS layouts that let a tile's writer and reader both
// run without bank conflicts.
#include "sim/lds/swizzle_search.hpp"
#include "app/error_text.hpp"
#include "app/lds_json.hpp"
#include "tools/cli/cli_util.hpp"

namespace tilelab::cli {

int run_swizzle(const std::vector<std::string>& args) {
  const char* help =
      "usage: tilelab swizzle --arch A --tile M,N --elem-bytes N\n"
      "                       --write-tv THR VAL --write-inst I --read-tv THR VAL --read-inst I\n"
      "                       [--top K] [--json]\n\n"
      "Scores the row-major M x N tile, every XOR swizzle Sw<B,M,S> of it and row\n"
      "padding (charged its extra LDS bytes) by the conflict cycles of the writer's\n"
      "and the reader's instructions over the whole tile (thread-value atoms repeated\n"
      "over the tile), and prints the best K (default 5) and the plain layout.\n"
      "Swizzles that would split a vector access are skipped.\n";
  po::options_description opts;
  opts.add_options()("help", "")("json", "")("arch", po::value<std::string>()->default_value("gfx950"), "")(
      "tile", po::value<std::string>(), "")("elem-bytes", po::value<int>(), "")(
      "write-tv", po::value<std::vector<std::string>>()->multitoken(), "")("write-inst", po::value<std::string>(), "")(
      "read-tv", po::value<std::vector<std::string>>()->multitoken(), "")("read-inst", po::value<std::string>(), "")(
      "top", po::value<int>()->default_value(5), "");
  po::variables_map vm;
  int status = kOk;
  if (!parse_options("swizzle", args, opts, vm, status)) return status;
  if (vm.count("help")) {
    std::cout << help;
    return kOk;
  }
  for (const char* req : {"tile", "elem-bytes", "write-tv", "write-inst", "read-tv", "read-inst"})
    if (!vm.count(req)) return usage_error("swizzle", std::string("--") + req + " is required");
  try {
    arch::Arch a = arch::load_arch(vm["arch"].as<std::string>());
    auto tv_of = [](const char* opt, const std::vector<std::string>& v) {
      if (v.size() != 2) throw std::invalid_argument(std::string(opt) + " takes two layouts: THR VAL");
      return make_layout_tv(layout_arg(opt, v[0]), layout_arg(opt, v[1]));
    };
    lds::BankModel wm(a, a.instruction(vm["write-inst"].as<std::string>()));
    lds::BankModel rm(a, a.instruction(vm["read-inst"].as<std::string>()));
    lds::AccessSide w{tv_of("--write-tv", vm["write-tv"].as<std::vector<std::string>>()), &wm};
    lds::AccessSide r{tv_of("--read-tv", vm["read-tv"].as<std::vector<std::string>>()), &rm};
    std::string tile = vm["tile"].as<std::string>();
    std::size_t comma = tile.find(',');
    if (comma == std::string::npos) return usage_error("swizzle", "--tile takes M,N");
    Int rows = std::stoll(tile.substr(0, comma)), cols = std::stoll(tile.substr(comma + 1));
    lds::SearchResult s = lds::search_swizzles(w, r, rows, cols, vm["elem-bytes"].as<int>());
    int top = std::max(1, vm["top"].as<int>());
    if (vm.count("json")) {
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
