// `tilelab sim KERNEL --functional`: the kernel's compiled code object run in
// the functional emulator (sim/emu) on inputs drawn from a seed, compared
// with its CPU reference; the LDS conflict table of every instruction site
// from the addresses the lanes really used, compared with the design check
// of the spec; the run stored in the HDF5 trace store (kind `sim`).
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "kernels/code_object_dir.hpp"
#include "app/functional_run.hpp"
#include "app/provenance.hpp"
#include "app/record.hpp"
#include "app/run_json.hpp"
#include "app/target.hpp"
#include "app/launch_run.hpp"
#include "app/like_dispatch.hpp"
#include "app/timed_run.hpp"
#include "generated/kernel_build.hpp"
#include "kernels/design_check.hpp"
#include "app/error_text.hpp"
#include "tools/cli/cli_util.hpp"
#include "tools/cli/design_run.hpp"
#include "app/json.hpp"
#include "tools/cli/timing_report.hpp"

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "hw/emu/emu_device.hpp"
#include "kernels/launch_file.hpp"
#include "traces/text_table.hpp"
#include "sim/isa/code_object.hpp"
#include "tools/cli/roofline_plot.hpp"

namespace tilelab::cli {

namespace {

using app::LdsKindRow;
using app::pc_hex;

// `same_in_reverse`: whether the run with each workgroup's waves in reverse
// order gave the same output (empty when that was not run).
void print_races(const emu::LdsRaceLog& races, std::optional<bool> same_in_reverse = std::nullopt) {
  if (!races.count) {
    std::printf("LDS races: none (no LDS halfword touched by two waves between the same barriers with a write)\n");
    return;
  }
  const char* verdict = !same_in_reverse ? "the result may depend on the order the waves run"
                        : *same_in_reverse
                            ? "with the waves in reverse order the output is the same, byte for byte: these races do "
                              "not change this result"
                            : "with the waves in reverse order the output DIFFERS: the result depends on the order the "
                              "waves run";
  std::printf("LDS RACES: %llu accesses by two waves between the same barriers, one a write (%s); the first:\n",
              static_cast<unsigned long long>(races.count), verdict);
  for (const emu::LdsRace& x : races.first)
    std::printf("  %s at LDS 0x%x, workgroup (%u,%u,%u) after %u barrier(s): wave %d at %s (%s), then wave %d at %s (%s)\n",
                x.kind.c_str(), x.address, x.workgroup[0], x.workgroup[1], x.workgroup[2], x.barriers, x.first_wave,
                pc_hex(x.first_pc).c_str(), x.first_text.c_str(), x.second_wave, pc_hex(x.second_pc).c_str(),
                x.second_text.c_str());
}

void print_text(const emu::RunStats& stats, const std::string& arch, std::optional<bool> same_in_reverse,
                const std::vector<LdsKindRow>& rows, bool has_design,
                const char* no_design = "(a microbenchmark: its accesses are chosen at launch, no designed accesses to compare)") {
  print_races(stats.lds_races, same_in_reverse);
  std::printf("LDS sites (from the lanes' addresses, %s bank model):\n", arch.c_str());
  using Align = traces::TextTable::Align;
  traces::TextTable sites({{"pc", Align::left}, {"instruction", Align::left}, {"executed"}, {"conflicts"}, {"ways"}});
  for (const auto& s : stats.lds_sites)
    sites.add_row({pc_hex(s.pc), s.text, std::to_string(s.executions), s.modelled ? std::to_string(s.conflict_cycles) : "-",
                   s.modelled ? std::to_string(s.max_ways) : "-"});
  std::ostringstream table;
  sites.print(table, "  ");
  std::fputs(table.str().c_str(), stdout);
  if (!has_design) {
    std::printf("%s\n", no_design);
    return;
  }
  std::printf("conflict cycles per wave-instruction, emulated vs designed:\n");
  for (const auto& row : rows) {
    if (!row.designed)
      std::printf("  %-20s %8.3f   (not a designed access of the spec)\n", row.kind.c_str(), row.emulated);
    else
      std::printf("  %-20s %8.3f vs %8.3f  %s\n", row.kind.c_str(), row.emulated, *row.designed,
                  row.agree() ? "agree" : "DISAGREE: the code does not access LDS the way the spec says");
  }
}

// Progress on stderr for a terminal: workgroups done (of those simulated),
// simulated microseconds, the rate, and the time left at that pace (an upper
// bound when the fast-forward will stop the run early).
void show_progress(const timing::Progress& p, double clock_mhz) {
  const double done = static_cast<double>(p.workgroups_done), all = static_cast<double>(p.workgroups);
  std::string left = "?";
  if (done > 0 && all > done) left = std::to_string(static_cast<long long>(p.seconds * (all - done) / done + 0.5)) + " s";
  std::fprintf(stderr, "\r  timing: %llu/%llu workgroups, %.1f us simulated, %.2f M wave-instructions/s, about %s left   ",
               static_cast<unsigned long long>(p.workgroups_done), static_cast<unsigned long long>(p.workgroups),
               clock_mhz > 0 ? static_cast<double>(p.cycles) / clock_mhz : 0.0,
               p.seconds > 0 ? static_cast<double>(p.wave_instructions) / p.seconds / 1e6 : 0.0, left.c_str());
  std::fflush(stderr);
}

// The timed run's options from the command line.
app::TimedOptions timed_options(const po::variables_map& vm) {
  app::TimedOptions o;
  o.seed = vm["seed"].as<std::uint64_t>();
  o.coverage = vm.count("full") ? app::Coverage::full : vm.count("all-xcds") ? app::Coverage::all_xcds : app::Coverage::sampled;
  o.fast_forward = !vm.count("no-fast-forward");
  o.check_reference = vm.count("functional") > 0;
  o.cus = vm["cus"].as<int>();
  o.max_cycles = vm["max-cycles"].as<std::uint64_t>();
  o.wave_budget = vm["max-wave-instructions"].as<std::uint64_t>();
  o.launch_budget = vm["max-launch-instructions"].as<std::uint64_t>();
  o.top = vm["top"].as<int>();
  o.threads = vm["threads"].as<int>();
  return o;
}

// `sim --timing --summary`: one row per suite kernel built for the arch, at its
// default shape (the spec's first example, as `check --summary` uses), on the
// whole GPU (sampled and fast-forwarded where the grid allows, as a single
// run is).
// A timed run on stdout: the text report (and the annotated listing), or the
// JSON object (with "listing" when asked).
void report_timing(const app::TimedRun& t, bool json, bool listing) {
  if (json) {
    Json j = app::timing_json(t);
    if (listing) j["listing"] = app::listing_json(t);
    std::cout << j.dump() << "\n";
    return;
  }
  print_timing_text(t);
  if (listing) print_timing_listing(t);
}

int run_timed_summary(const arch::Arch& a, const po::variables_map& vm) {
  std::printf("%-26s %-30s %10s %10s %14s  %-14s %6s %6s %6s %7s %9s  %s\n", "kernel", "shape", "cycles", "us",
              "TFLOP/s|GB/s", "limiter", "MFMA%", "VALU%", "LDS%", "L2 hit", "HBM MB", "reference");
  int status = kOk;
  for (const std::string& name : app::emulated_kernels()) {
    const kernels::KernelSpec& spec = kernels::find_spec(name);
    if (std::find(spec.archs.begin(), spec.archs.end(), a.name) == spec.archs.end()) continue;
    const std::vector<long long>& shape = spec.example_shapes.front();  // the shape check --summary uses
    const std::unique_ptr<app::TimedKernelRun> timed = app::run_timed(
        app::resolve_suite(name, a, shape, vm["code-objects"].as<std::string>()), timed_options(vm));
    const app::FunctionalRun& run = timed->functional;
    const timing::TimingResult& r = timed->model->result();
    const double sec = r.seconds();
    char rate[32];
    if (r.mfma_flops > 0) std::snprintf(rate, sizeof rate, "%.1f TF", sec > 0 ? r.mfma_flops / sec / 1e12 : 0.0);
    else std::snprintf(rate, sizeof rate, "%.0f GB/s", sec > 0 ? static_cast<double>(r.global_bytes) / sec / 1e9 : 0.0);
    const double l2 = r.chip.l2_requests ? 100.0 * static_cast<double>(r.chip.l2_hits) / static_cast<double>(r.chip.l2_requests) : 0;
    const char* ref = !run.checked ? "sampled" : run.pass ? "PASS" : "FAIL";
    if (run.checked && !run.pass) status = kFailed;
    if (r.hazard_count) status = kFailed;
    std::printf("%-26s %-30s %10llu %10.2f %14s  %-14s %6.1f %6.1f %6.1f %6.1f%% %9.2f  %s%s\n", spec.name.c_str(),
                shape_text(spec, shape).c_str(), static_cast<unsigned long long>(r.cycles), sec * 1e6, rate,
                r.limiter().c_str(), 100 * r.mfma_utilisation(), 100 * r.valu_utilisation(), 100 * r.lds_utilisation(), l2,
                static_cast<double>(r.hbm_bytes) / 1e6, ref, r.hazard_count ? " (hazards)" : "");
  }
  std::string clock = "assumed";
  for (const arch::TimingFigure& f : a.timing.figures)
    if (f.name == "clock_mhz") clock = arch::to_string(f.status);
  std::printf("(%s, the whole GPU, at %.0f MHz: the clock under load, %s)\n", a.name.c_str(), a.timing.clock_mhz, clock.c_str());
  return status;
}

// `like`: the profiled run this one simulates (sim --like), recorded in the
// run's config so that `compare` lines the two up.
int run_timed(const app::SuiteTarget& target, const po::variables_map& vm, const std::string& like = "") {
  app::TimedOptions options = timed_options(vm);
  bool shown = false;
  if (!vm.count("quiet") && isatty(2))
    options.progress = [&](const timing::Progress& p) {
      show_progress(p, target.arch.timing.clock_mhz);
      shown = true;
    };
  std::unique_ptr<app::TimedKernelRun> run;
  try {
    run = app::run_timed(target, options);
  } catch (...) {
    if (shown) std::fprintf(stderr, "\n");
    throw;
  }
  if (shown) std::fprintf(stderr, "\n");
  if (!like.empty()) run->view.extra_config_json = app::like_config_json(like);
  const app::TimedRun& t = run->view;
  report_timing(t, vm.count("json") > 0, vm.count("listing") > 0);
  if (vm.count("out")) {
    const std::string id = vm["run-id"].as<std::string>();
    app::record_timing(vm["out"].as<std::string>(),
                       !id.empty() ? id : !like.empty() ? app::like_run_id(like) : app::default_run_id("timing", t.kernel, target.arch.name),
                       t, store_writer_options());
  }
  if (vm.count("plot")) {
    const std::string e =
        write_roofline(vm["plot"].as<std::string>(), *t.timing, target.arch, t.kernel + " on " + target.arch.name + ", " + t.shape);
    if (!e.empty()) {
      std::cerr << "error: " << e << "\n";
      return kFailed;
    }
  }
  const bool wrong = vm.count("functional") && !run->functional.pass;
  return wrong || t.timing->hazard_count ? kFailed : kOk;
}

// A code object with a launch file: the run and, with --timing, the model's report.
int run_code_object(const po::variables_map& vm) {
  namespace fs = std::filesystem;
  const std::string file = vm["target"].as<std::string>();
  if (!vm.count("launch")) return usage_error("sim", "a code object needs --launch L.toml (the README has an example)");
  try {
    const isa::CodeObject co = isa::read_code_object(file);
    const std::map<std::string, std::int64_t> given_shape =
        vm.count("shape") ? app::parse_named_shape(vm["shape"].as<std::string>()) : std::map<std::string, std::int64_t>{};
    kernels::LaunchFile l =
        kernels::read_launch_file(vm["launch"].as<std::string>(), co, vm["max-memory"].as<std::uint64_t>(), given_shape);
    if (vm.count("kernel") && vm["kernel"].as<std::string>() != l.kernel)
      return usage_error("sim", "--kernel " + vm["kernel"].as<std::string>() + " but the launch file is for " + l.kernel);
    const arch::Arch a = arch::load_arch(vm["arch"].defaulted() ? co.arch : vm["arch"].as<std::string>());
    const std::string id = vm["run-id"].as<std::string>().empty()
                               ? app::default_run_id(vm.count("timing") ? "timing" : "sim", l.kernel, a.name)
                               : vm["run-id"].as<std::string>();
    if (vm.count("out")) traces::check_new_run(vm["out"].as<std::string>(), id);
    if (vm.count("save")) {
      std::error_code ec;
      fs::create_directories(vm["save"].as<std::string>(), ec);
      if (!fs::is_directory(vm["save"].as<std::string>()))
        return usage_error("sim", "--save " + vm["save"].as<std::string>() + ": cannot make that folder");
    }
    app::TimedOptions o = timed_options(vm);
    o.check_reference = vm.count("save") > 0;  // saved buffers need every workgroup
    const std::unique_ptr<app::LaunchFileRun> run = app::run_launch_file(co, l, a, o, vm.count("timing") > 0);
    const std::string& shape = run->shape;
    if (run->model) {
      const app::TimedRun& t = run->view;
      report_timing(t, vm.count("json") > 0, vm.count("listing") > 0);
      if (vm.count("out")) app::record_timing(vm["out"].as<std::string>(), id, t, store_writer_options());
      if (vm.count("plot")) {
        const std::string e = write_roofline(vm["plot"].as<std::string>(), run->model->result(), a, l.kernel + " on " + a.name + ", " + shape);
        if (!e.empty()) {
          std::cerr << "error: " << e << "\n";
          return kFailed;
        }
      }
    } else {
      const emu::RunStats& stats = *run->stats;
      std::printf("%s (%s) on %s, %s: %llu workgroups, %llu waves, %llu wave-instructions in %.3f s\n", l.kernel.c_str(),
                  file.c_str(), a.name.c_str(), shape.c_str(), static_cast<unsigned long long>(stats.workgroups),
                  static_cast<unsigned long long>(stats.waves),
                  static_cast<unsigned long long>(stats.wave_instructions), stats.seconds);
      print_text(stats, a.name, std::nullopt, {}, false, "(a code object without a spec: no designed accesses to compare)");
      if (vm.count("out"))
        app::record_launch_file_run(vm["out"].as<std::string>(), id, a, co, l.kernel, shape, l.seed, stats,
                                    store_writer_options());
    }
    for (const auto& b : run->saved) {
      if (!vm.count("save")) break;
      const std::string out = (fs::path(vm["save"].as<std::string>()) / (b.name + ".bin")).string();
      std::ofstream f(out, std::ios::binary);
      if (!f.write(reinterpret_cast<const char*>(b.bytes.data()), static_cast<std::streamsize>(b.bytes.size())))
        throw std::runtime_error("cannot write '" + out + "'");
    }
    if (!vm.count("save") && !run->saved.empty())
      std::fprintf(stderr, "note: %zu buffer(s) marked save = true; --save DIR writes them\n", run->saved.size());
    return run->model && run->model->result().hazard_count ? kFailed : kOk;
  } catch (const std::invalid_argument& e) {  // std::stoi's is only "stoi": error_text words it
    return usage_error("sim", error_text(e));
  } catch (const std::exception& e) {
    std::cerr << "error: " << error_text(e) << "\n";
    return kFailed;
  }
}

// sim --like RUN --out FILE.h5 --timing: the suite kernel and shape of a
// profiled dispatch (app/like_dispatch), timed and stored beside it.
int run_like(const po::variables_map& vm) {
  if (vm.count("target") || vm.count("summary"))
    return usage_error("sim", "--like RUN takes the kernel from the run; name no KERNEL and no --summary");
  if (!vm.count("timing")) return usage_error("sim", "--like RUN goes with --timing (the run is compared with the dispatch's time)");
  if (!vm.count("out")) return usage_error("sim", "--like RUN needs --out FILE.h5: the store that holds RUN, where the simulation goes too");
  try {
    timing::check_cus(vm["cus"].as<int>());
  } catch (const timing::TimingError& e) {
    return usage_error("sim", std::string("--") + e.what());
  }
  try {
    const std::string store = vm["out"].as<std::string>(), like_id = vm["like"].as<std::string>();
    const traces::RunView profiled = traces::Reader(store).run(like_id);
    const app::LikeDispatch like = app::resolve_like(
        profiled, vm.count("shape") ? std::optional(parse_shape(vm["shape"].as<std::string>())) : std::nullopt);
    // The profile's GPU unless --arch says otherwise (a gfx942 profile times on gfx942).
    const std::string arch = !vm["arch"].defaulted() || like.arch.empty() ? vm["arch"].as<std::string>() : like.arch;
    const app::SuiteTarget target =
        app::resolve_suite(like.spec->name, arch::load_arch(arch), like.shape, vm["code-objects"].as<std::string>());
    const std::string id = vm["run-id"].as<std::string>().empty() ? app::like_run_id(like_id) : vm["run-id"].as<std::string>();
    traces::check_new_run(store, id);  // refused before the work, not after
    if (!vm.count("json"))
      std::printf("like %s (%s%s): %s %s, the shape from %s\n", like_id.c_str(), profiled.info.kernel.c_str(),
                  like.workgroups >= 0 ? (", " + std::to_string(like.workgroups) + " workgroups").c_str() : "",
                  like.spec->name.c_str(), app::shape_text(*like.spec, like.shape).c_str(), like.shape_from.c_str());
    return run_timed(target, vm, like_id);
  } catch (const std::invalid_argument& e) {
    return usage_error("sim", error_text(e));
  } catch (const std::exception& e) {
    std::cerr << "error: " << error_text(e) << "\n";
    return kFailed;
  }
}

}  // namespace

int run_sim(const std::vector<std::string>& args) {
  const char* help =
      "usage: tilelab sim KERNEL --functional [--arch gfx950|gfx942|FILE.toml] [--shape D1,D2,...] [--seed N]\n"
      "                  [--code-objects DIR] [--json] [--out FILE.h5 [--run-id ID]]\n"
      "       tilelab sim --timing --summary [--arch A] [--full]: one row per suite kernel at\n"
      "                  its default shape (as check --summary) on the whole GPU; minutes\n"
      "       tilelab sim KERNEL --timing [--plot FILE.svg] [--functional] [--full|--all-xcds] [--no-fast-forward] [--cus N] [--top N] [--listing] [--quiet] (other options as above)\n"
      "       [--max-wave-instructions N] [--max-launch-instructions N] in both modes; [--max-cycles N] timed\n"
      "       tilelab sim FILE.co [--kernel NAME] --launch L.toml --functional|--timing [--save DIR]\n"
      "                  [--arch A] [--cus N] [--full|--all-xcds] [--json] [--out FILE.h5 [--run-id ID]]\n"
      "       tilelab sim --like RUN --out FILE.h5 --timing [--shape D1,D2,...] [--arch A] (timing options as above)\n\n"
      "Runs KERNEL's compiled code object (DIR/<arch>/<source>.hsaco, default: the\n"
      "build's) in the functional emulator: inputs drawn from the seed (default 1),\n"
      "every wave-instruction executed on the CPU, the output compared with the\n"
      "kernel's CPU reference (max relative error against the kernel's stated\n"
      "tolerance).  Prints the LDS conflict table of every instruction site from the\n"
      "addresses the lanes really used, and compares it, per LDS instruction kind,\n"
      "with the design check of the spec: a disagreement means the code does not do\n"
      "what the spec says.  It also checks the LDS for races: two waves of a\n"
      "workgroup touching one LDS halfword between the same two barriers, at least\n"
      "one writing (an order only the scheduler decides), named with both\n"
      "instructions.  A kernel that runs as a pass (attention backward) launches its\n"
      "first kernels too; the figures are the named kernel's.\n"
      "--arch FILE.toml (a description after sim/arch/gfx950.toml) is used by every\n"
      "part of the run: the emulator's bank model, the design check and the cycle\n"
      "model; its `name` picks the code object.\n"
      "--out adds the run to an HDF5 trace store (kind sim; run id\n"
      "ID, default sim-<kernel>-<arch>; traces/SCHEMA.md).  --shape gives the spec's\n"
      "dimensions (gemm: M,N,K); without it, the smallest example shape.  --json prints\n"
      "the run as one JSON object (sites, per-kind comparison with the design).\n"
      "\n"
      "--timing runs the same code object in the cycle-approximate CU model\n"
      "(sim/timing): the model picks which wave issues in which cycle, the emulator\n"
      "executes it.  Prints cycles and time at the arch clock, TFLOP/s, the limiter,\n"
      "unit utilisation (MFMA, VALU, LDS and, with the arch file's [memory] chip, L2,\n"
      "fabric, MALL, HBM), the chip's traffic and hit rates (all CUs advance together;\n"
      "workgroup i on XCD i mod 8), where the waves' time went\n"
      "(issue, waitcnt, barrier, busy units, dependency, arbitration, idle), the\n"
      "hottest instructions with the thread trace's per-pc columns (hits, latency,\n"
      "stall, idle), counters in AMD's names and units, MFMA dependency hazards (code\n"
      "that reads an MFMA result too early), the static bound of `tilelab check`, and\n"
      "the arch figures that are assumptions.  --cus N spreads the grid over N CUs\n"
      "(default: the chip's); --top N instructions (default 10); --listing adds the\n"
      "whole program in order with those columns (barrier waits on the s_barrier;\n"
      "with --json as \"listing\", one object per instruction);\n"
      "--out stores the run\n"
      "(backend cycle-model; per-wave spans and per-issue records; run id default\n"
      "timing-<kernel>-<arch>).  Progress goes to stderr on a terminal unless --quiet.\n"
      "The clock is the arch file's clock under load (gfx950: 1590 MHz, inferred;\n"
      "the peak is 2400), printed with its status in every run.\n"
      "Sampling: when the grid fills every CU at least once, the run simulates XCD 0\n"
      "in full (its 32 CUs, its L2, workgroups 0, 8, 16 ...) with 1/8 of the MALL and\n"
      "HBM and takes the other XCDs to be like it (about 8x faster; the report says\n"
      "so and scales the totals; the output is then incomplete, so the reference is\n"
      "not checked).  A regular grid (every workgroup the same instructions) of 5\n"
      "rounds or more is timed for 3 rounds and the rest extrapolated (fast-forward);\n"
      "so is a periodic one, whose workgroups' work is set by one coordinate of their\n"
      "id (causal attention's query block): the rest are dealt to the CUs with the\n"
      "time each kind took.  --no-fast-forward simulates every workgroup of the\n"
      "sampled XCD (the fast-forward's own error).\n"
      "--threads N (default 0: one per core) simulates the CUs on N threads; the\n"
      "result is the same to the bit whatever N (a kernel with global atomics runs on one).\n"
      "--all-xcds simulates every XCD but keeps the fast-forward (for orders that\n"
      "share data between XCDs, whose HBM traffic one XCD overstates); --full\n"
      "simulates every workgroup (use it when workgroups wait on each other).  With\n"
      "--functional as well the run is full and a wrong result fails it.\n"
      "--plot FILE.svg draws the run's roofline: its TFLOP/s against its FLOPs per\n"
      "byte through L2, to the MALL and from HBM, under the arch file's ceilings (the\n"
      "MFMA peak of the kernel's own MFMA mix, each level's bandwidth) at the model's\n"
      "clock; a run without MFMA work has none (exit 1).\n"
      "\n"
      "--wait SECONDS (default 60): how long --out waits for another writer of the\n"
      "store; a run id the store already has is refused before the run.\n"
      "--max-wave-instructions N (default 16777216, 2^24): a wave that executes more\n"
      "stops the run with one line naming it and the pc where it spins (an endless\n"
      "loop); nothing is stored.\n"
      "--max-launch-instructions N (default 4294967296, 2^32): the most one launch may\n"
      "execute (simulated, in a sampled run); a grid whose waves need more, counting\n"
      "the instructions before the first branch, is refused before it starts.\n"
      "--max-cycles N (default 68719476736, 2^36): a timed launch still running at that\n"
      "simulated cycle stops with one line (a wave that sleeps or waits in a loop).\n"
      "A launch template writes sizes as expressions of its [shape] table's names\n"
      "(\"ceil(N/256)\", \"M*K/2\"); --shape NAME=V,... (M=4096,N=4096,K=512) overrides them.\n"
      "--max-memory BYTES (default: half of this machine's memory): the most a launch\n"
      "file's buffers may take together, checked before any is allocated.\n"
      "\n"
      "A code object tilelab did not build (FILE.co or FILE.hsaco, or AMDGPU assembly\n"
      "FILE.s, FILE.amdgcn: clang -S, Triton, FlyDSL or hand-written text, assembled by\n"
      "LLVM MC and linked by ld.lld on reading; an error names its line) runs from a\n"
      "launch file instead of a kernel's host: grid,\n"
      "block, dynamic LDS and each argument by the metadata's name or \"@offset\", as\n"
      "a value or a buffer (size; zeros, a constant, random of a dtype from the seed,\n"
      "or a file), and the buffers to save (the README has an example).  With no\n"
      "reference there is nothing to compare: the run reports what it did\n"
      "(wave-instructions, LDS sites, and with --timing the cycle model's report);\n"
      "an out-of-bounds access or an instruction the emulator lacks stops it with\n"
      "one line.  --save DIR writes each buffer marked save = true to DIR/<arg>.bin.\n"
      "\n"
      "--like RUN simulates a dispatch measured on a GPU: RUN is a hw run of FILE.h5\n"
      "(`tilelab import rocprof`, `tilelab run`); its kernel name (\"void gemm_bf16<..>(..)\",\n"
      "\"gemm_bf16.kd\") names the suite kernel, and the shape is --shape, else the\n"
      "run's problem shape when it is in the kernel's words (import --shape, run),\n"
      "else the one example shape whose grid is the dispatch's (profiles record no\n"
      "kernel arguments); the shape must launch the dispatch's grid and workgroup, or\n"
      "the run is refused with one line saying what differs.  The arch is the run's\n"
      "unless --arch is given.  The timed run is stored in FILE.h5 as RUN-timing (or\n"
      "--run-id) with {\"like\": RUN} in its config, so `tilelab compare FILE.h5 RUN\n"
      "RUN-timing` lines them up without --force.\n"
      "\n"
      "Exit status: 0 pass and agreement, 1 wrong result, disagreement, a hazard or a\n"
      "stopped run, 2 bad command line.\n";
  po::options_description opts;
  opts.add_options()("help", "")("functional", "")("timing", "")("quiet", "")("full", "")("all-xcds", "")("no-fast-forward", "")("summary", "")("plot", po::value<std::string>(), "")("cus", po::value<int>()->default_value(0), "")(
      "max-wave-instructions", po::value<std::uint64_t>()->default_value(emu::Emulator::kDefaultWaveBudget), "")(
      "max-launch-instructions", po::value<std::uint64_t>()->default_value(emu::Emulator::kDefaultLaunchBudget), "")(
      "max-cycles", po::value<std::uint64_t>()->default_value(timing::Options{}.max_cycles), "")(
      "max-memory", po::value<std::uint64_t>()->default_value(0), "")(
      "top", po::value<int>()->default_value(10), "")("listing", "")("threads", po::value<int>()->default_value(0), "")("json", "")("target", po::value<std::string>(), "")(
      "kernel", po::value<std::string>(), "")("launch", po::value<std::string>(), "")("save", po::value<std::string>(), "")(
      "arch", po::value<std::string>()->default_value("gfx950"), "")("shape", po::value<std::string>(), "")(
      "seed", po::value<std::uint64_t>()->default_value(1), "")(
      "code-objects", po::value<std::string>()->default_value(kernels::code_object_dir()), "")(
      "out", po::value<std::string>(), "")("run-id", po::value<std::string>()->default_value(""), "")("like", po::value<std::string>(), "")(
      "wait", po::value<double>()->default_value(60), "");
  po::positional_options_description pos;
  pos.add("target", 1);
  po::variables_map vm;
  int status = kOk;
  if (!parse_options("sim", args, opts, vm, status, &pos)) return status;
  if (!(vm["wait"].as<double>() >= 0)) return usage_error("sim", "--wait SECONDS must not be negative");
  set_store_wait(vm["wait"].as<double>());
  if (vm.count("help")) {
    std::cout << help;
    return kOk;
  }
  if (vm.count("like")) return run_like(vm);
  if (vm.count("target") && names_code_object(vm["target"].as<std::string>())) {
    if (!vm.count("functional") && !vm.count("timing")) return usage_error("sim", "say --functional or --timing (or both)");
    return run_code_object(vm);
  }
  if (vm.count("launch") || vm.count("save"))
    return usage_error("sim", "--launch and --save go with a code object (FILE.co or FILE.hsaco), not a suite kernel");
  if (vm.count("summary")) {
    if (!vm.count("timing") || vm.count("target") || vm.count("functional") || vm.count("shape") || vm.count("out") || vm.count("json"))
      return usage_error("sim", "--summary goes with --timing alone (every suite kernel at its default shape)");
    try {
      return run_timed_summary(arch::load_arch(vm["arch"].as<std::string>()), vm);
    } catch (const std::exception& e) {
      std::cerr << "error: " << error_text(e) << "\n";
      return kFailed;
    }
  }
  if (!vm.count("target")) {
    std::string names;
    for (const auto& k : app::emulated_kernels()) names += (names.empty() ? "" : ", ") + k;
    return usage_error("sim", "a KERNEL is needed (" + names + ")");
  }
  if (!vm.count("functional") && !vm.count("timing")) return usage_error("sim", "say --functional or --timing (or both)");
  try {
    timing::check_cus(vm["cus"].as<int>());
  } catch (const timing::TimingError& e) {
    return usage_error("sim", std::string("--") + e.what());
  }
  if (vm["top"].as<int>() < 0) return usage_error("sim", "--top must not be negative");
  try {
    if (vm.count("kernel")) return usage_error("sim", "--kernel names a kernel of a code object FILE; a suite kernel is named alone");
    const std::optional<std::vector<long long>> shape =
        vm.count("shape") ? std::optional(parse_shape(vm["shape"].as<std::string>())) : std::nullopt;
    const app::SuiteTarget target = app::resolve_suite(vm["target"].as<std::string>(),
                                                       arch::load_arch(vm["arch"].as<std::string>()), shape,
                                                       vm["code-objects"].as<std::string>());
    const kernels::KernelSpec& spec = *target.spec;
    const std::string id = vm["run-id"].as<std::string>().empty()
                               ? app::default_run_id(vm.count("timing") ? "timing" : "sim", spec.name, target.arch.name)
                               : vm["run-id"].as<std::string>();
    if (vm.count("out")) traces::check_new_run(vm["out"].as<std::string>(), id);  // refused before the work, not after
    if (vm.count("timing")) return run_timed(target, vm);
    const std::uint64_t budget = vm["max-wave-instructions"].as<std::uint64_t>();
    const app::FunctionalRun r = app::run_functional(target, vm["seed"].as<std::uint64_t>(), [&](emu::Emulator& e) {
      e.set_wave_budget(budget);
      e.set_launch_budget(vm["max-launch-instructions"].as<std::uint64_t>());
    });
    std::optional<kernels::DesignReport> design;
    if (spec.work) design = kernels::design_check(spec, target.arch, std::nullopt, target.shape);
    const std::vector<LdsKindRow> rows = app::lds_vs_design(r.stats, design ? &*design : nullptr);
    int disagree = 0;
    for (const auto& row : rows) disagree += !row.agree();
    if (vm.count("json")) {
      std::cout << app::functional_json(target, r, rows).dump() << "\n";
    } else {
      std::printf("%s on %s, %s, seed %llu: %llu workgroups, %llu waves, %llu wave-instructions in %.3f s (%.2f M/s)\n",
                  spec.name.c_str(), target.arch.name.c_str(), shape_text(spec, target.shape).c_str(),
                  static_cast<unsigned long long>(r.seed), static_cast<unsigned long long>(r.stats.workgroups),
                  static_cast<unsigned long long>(r.stats.waves),
                  static_cast<unsigned long long>(r.stats.wave_instructions), r.seconds,
                  r.seconds > 0 ? static_cast<double>(r.stats.wave_instructions) / r.seconds / 1e6 : 0.0);
      std::printf("%s", pass_note(spec.name, r.before).c_str());
      std::printf("max relative error %.3g (tolerance %.3g: %s): %s\n", r.max_rel_error, r.tolerance,
                  r.tolerance_why.c_str(), r.pass ? "PASS" : "FAIL");
      print_text(r.stats, r.arch, r.same_output_in_reverse_order, rows, design.has_value());
    }
    if (vm.count("out")) app::record_functional(vm["out"].as<std::string>(), id, target, r, store_writer_options());
    return r.pass && !disagree ? kOk : kFailed;
  } catch (const std::invalid_argument& e) {  // std::stoi's is only "stoi": error_text words it
    return usage_error("sim", error_text(e));
  } catch (const std::exception& e) {
    std::cerr << "error: " << error_text(e) << "\n";
    return kFailed;
  }
}

}  // namespace tilelab::cli
