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

#include "traces/output_file.hpp"
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
#include "tools/cli/options.hpp"
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

// The command line of `tilelab sim`.
struct SimOptions {
  bool help = false, functional = false, timing = false, summary = false;
  bool full = false, all_xcds = false, no_fast_forward = false, listing = false, quiet = false, json = false;
  std::optional<std::string> target, like, kernel, launch, save, shape, arch, plot;
  std::uint64_t seed = 1;
  std::string code_objects;
  int cus = 0, threads = 0, top = 10;
  RunBudgets budgets;
  StoreOptions store;
};
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
app::TimedOptions timed_options(const SimOptions& o) {
  app::TimedOptions t;
  t.seed = o.seed;
  t.coverage = o.full ? app::Coverage::full : o.all_xcds ? app::Coverage::all_xcds : app::Coverage::sampled;
  t.fast_forward = !o.no_fast_forward;
  t.check_reference = o.functional;
  t.cus = o.cus;
  t.max_cycles = o.budgets.cycles;
  t.wave_budget = o.budgets.wave_instructions;
  t.launch_budget = o.budgets.launch_instructions;
  t.top = o.top;
  t.threads = o.threads;
  t.keep_events = o.store.out.has_value();  // only the store reads them
  return t;
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

int run_timed_summary(const arch::Arch& a, const SimOptions& o) {
  std::printf("%-26s %-30s %10s %10s %14s  %-14s %6s %6s %6s %7s %9s  %s\n", "kernel", "shape", "cycles", "us",
              "TFLOP/s|GB/s", "limiter", "MFMA%", "VALU%", "LDS%", "L2 hit", "HBM MB", "reference");
  int status = kOk;
  for (const std::string& name : app::emulated_kernels()) {
    const kernels::KernelSpec& spec = kernels::find_spec(name);
    if (std::find(spec.archs.begin(), spec.archs.end(), a.name) == spec.archs.end()) continue;
    const std::vector<long long>& shape = spec.example_shapes.front();  // the shape check --summary uses
    const std::unique_ptr<app::TimedKernelRun> timed = app::run_timed(
        app::resolve_suite(name, a, shape, o.code_objects), timed_options(o));
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
// What a run wrote, one line on stderr (stdout stays the report or the JSON;
// --quiet says nothing).
void say_written(const SimOptions& o, const std::string& what) {
  if (!o.quiet) std::fprintf(stderr, "wrote %s\n", what.c_str());
}
void say_recorded(const SimOptions& o, const std::string& id) {
  say_written(o, "run '" + id + "' to " + *o.store.out);
}


// `like`: the profiled run this one simulates (sim --like), recorded in the
// run's config so that `compare` lines the two up.
int run_timed(const app::SuiteTarget& target, const SimOptions& o, const std::string& like = "") {
  app::TimedOptions options = timed_options(o);
  bool shown = false;
  if (!o.quiet && isatty(2))
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
  report_timing(t, o.json, o.listing);
  if (o.store.out) {
    const std::string id = o.store.id_or(app::sim_run_id(like, "timing", t.kernel, target.arch.name));
    app::record_timing(*o.store.out, id, t, writer_options(o.store));
    say_recorded(o, id);
  }
  if (o.plot) {
    const std::string e =
        write_roofline(*o.plot, *t.timing, target.arch, t.kernel + " on " + target.arch.name + ", " + t.shape);
    if (!e.empty()) {
      std::cerr << "error: " << e << "\n";
      return kFailed;
    }
    say_written(o, "the roofline to " + *o.plot);
  }
  const bool wrong = o.functional && !run->functional.pass;
  return wrong || t.timing->hazard_count ? kFailed : kOk;
}

// Code object `co` launched as `l`: the run and, with --timing, the model's
// report.  `like`: the profiled run it simulates (sim --like), as run_timed.
int run_launch(const SimOptions& o, const isa::CodeObject& co, const kernels::LaunchFile& l, const arch::Arch& a,
               const std::string& like = "") {
  namespace fs = std::filesystem;
  const std::string& file = co.path;
  const std::string id = o.store.id_or(app::sim_run_id(like, o.timing ? "timing" : "sim", l.kernel, a.name));
  if (o.store.out) traces::check_new_run(*o.store.out, id);
  if (o.save) {
    std::error_code ec;
    fs::create_directories(*o.save, ec);
    if (!fs::is_directory(*o.save))
      return usage_error("sim", "--save " + *o.save + ": cannot make that folder");
  }
  app::TimedOptions timed = timed_options(o);
  timed.check_reference = o.save.has_value();  // saved buffers need every workgroup
  const std::unique_ptr<app::LaunchFileRun> run = app::run_launch_file(co, l, a, timed, o.timing);
  const std::string& shape = run->shape;
  if (run->model) {
    if (!like.empty()) run->view.extra_config_json = app::like_config_json(like);
    const app::TimedRun& t = run->view;
    report_timing(t, o.json, o.listing);
    if (o.store.out) app::record_timing(*o.store.out, id, t, writer_options(o.store)), say_recorded(o, id);
    if (o.plot) {
      const std::string e = write_roofline(*o.plot, run->model->result(), a, l.kernel + " on " + a.name + ", " + shape);
      if (!e.empty()) {
        std::cerr << "error: " << e << "\n";
        return kFailed;
      }
      say_written(o, "the roofline to " + *o.plot);
    }
  } else {
    const emu::RunStats& stats = *run->stats;
    std::printf("%s (%s) on %s, %s: %llu workgroups, %llu waves, %llu wave-instructions in %.3f s\n", l.kernel.c_str(),
                file.c_str(), a.name.c_str(), shape.c_str(), static_cast<unsigned long long>(stats.workgroups),
                static_cast<unsigned long long>(stats.waves),
                static_cast<unsigned long long>(stats.wave_instructions), stats.seconds);
    print_text(stats, a.name, std::nullopt, {}, false, "(a code object without a spec: no designed accesses to compare)");
    if (o.store.out) {
      app::record_launch_file_run(*o.store.out, id, a, co, l.kernel, shape, l.seed, stats,
                                  writer_options(o.store));
      say_recorded(o, id);
    }
  }
  for (const auto& b : run->saved) {
    if (!o.save) break;
    const std::string out = (fs::path(*o.save) / (b.name + ".bin")).string();
    traces::write_output_file(
        out, std::string_view(reinterpret_cast<const char*>(b.bytes.data()), b.bytes.size()));
  }
  if (!o.save && !run->saved.empty())
    std::fprintf(stderr, "note: %zu buffer(s) marked save = true; --save DIR writes them\n", run->saved.size());
  return run->model && run->model->result().hazard_count ? kFailed : kOk;
}

// A code object with a launch file, as the command line says.
int run_code_object(const SimOptions& o) {
  if (!o.launch) return usage_error("sim", "a code object needs --launch L.toml (the README has an example)");
  try {
    const isa::CodeObject co = isa::read_code_object(*o.target);
    const std::map<std::string, std::int64_t> given_shape =
        o.shape ? app::parse_named_shape(*o.shape) : std::map<std::string, std::int64_t>{};
    const kernels::LaunchFile l = kernels::read_launch_file(*o.launch, co, o.budgets.memory_bytes, given_shape);
    if (o.kernel && *o.kernel != l.kernel)
      return usage_error("sim", "--kernel " + *o.kernel + " but the launch file is for " + l.kernel);
    return run_launch(o, co, l, arch::load_arch(o.arch.value_or(co.arch)));
  } catch (const std::invalid_argument& e) {  // std::stoi's is only "stoi": error_text words it
    return usage_error("sim", error_text(e));
  } catch (const std::exception& e) {
    std::cerr << "error: " << error_text(e) << "\n";
    return kFailed;
  }
}

// sim --like RUN FILE.co --launch L.toml: the dispatch of a code object
// tilelab did not build, its shape solved from the profiled grid
// (app::resolve_like_launch), timed and stored beside it.
int run_like_code_object(const SimOptions& o, const traces::RunView& profiled) {
  if (!o.launch) return usage_error("sim", "--like RUN FILE.co needs --launch L.toml (a launch template of the kernel)");
  const isa::CodeObject co = isa::read_code_object(*o.target);
  const app::LikeLaunch like = app::resolve_like_launch(
      profiled, co, *o.launch, o.shape ? app::parse_named_shape(*o.shape) : std::map<std::string, std::int64_t>{},
      o.budgets.memory_bytes);
  if (o.kernel && *o.kernel != like.launch.kernel)
    return usage_error("sim", "--kernel " + *o.kernel + " but the launch file is for " + like.launch.kernel);
  if (!o.json)
    std::printf("like %s (%s%s): %s of %s, %s, the shape from %s\n", profiled.info.id.c_str(),
                profiled.info.kernel.c_str(),
                like.workgroups >= 0 ? (", " + std::to_string(like.workgroups) + " workgroups").c_str() : "",
                isa::demangled(like.launch.kernel).c_str(), co.path.c_str(), app::launch_shape_text(like.launch).c_str(),
                like.shape_from.c_str());
  // The profile's GPU unless --arch says otherwise, else the code object's.
  const std::string arch = o.arch.value_or(like.arch.empty() ? co.arch : like.arch);
  return run_launch(o, co, like.launch, arch::load_arch(arch), profiled.info.id);
}

// sim --like RUN --out FILE.h5 --timing: the suite kernel and shape of a
// profiled dispatch (app/like_dispatch), timed and stored beside it.
int run_like(const SimOptions& o) {
  const bool code_object = o.target && names_code_object(*o.target);
  if ((o.target && !code_object) || o.summary)
    return usage_error("sim", "--like RUN takes the kernel from the run; name no KERNEL (only a FILE.co) and no --summary");
  if (o.launch && !code_object) return usage_error("sim", "--launch goes with a code object FILE.co");
  if (!o.timing) return usage_error("sim", "--like RUN goes with --timing (the run is compared with the dispatch's time)");
  if (!o.store.out) return usage_error("sim", "--like RUN needs --out FILE.h5: the store that holds RUN, where the simulation goes too");
  try {
    timing::check_cus(o.cus);
  } catch (const timing::TimingError& e) {
    return usage_error("sim", std::string("--") + e.what());
  }
  try {
    const std::string store = *o.store.out, like_id = *o.like;
    const traces::RunView profiled = traces::Reader(store).run(like_id);
    if (code_object) return run_like_code_object(o, profiled);
    const app::LikeDispatch like = app::resolve_like(
        profiled, o.shape ? std::optional(parse_shape(*o.shape)) : std::nullopt);
    // The profile's GPU unless --arch says otherwise (a gfx942 profile times on gfx942).
    const std::string arch = o.arch.value_or(like.arch.empty() ? "gfx950" : like.arch);
    const app::SuiteTarget target =
        app::resolve_suite(like.spec->name, arch::load_arch(arch), like.shape, o.code_objects);
    const std::string id = o.store.id_or(app::like_run_id(like_id));
    traces::check_new_run(store, id);  // refused before the work, not after
    if (!o.json)
      std::printf("like %s (%s%s): %s %s, the shape from %s\n", like_id.c_str(), profiled.info.kernel.c_str(),
                  like.workgroups >= 0 ? (", " + std::to_string(like.workgroups) + " workgroups").c_str() : "",
                  like.spec->name.c_str(), app::shape_text(*like.spec, like.shape).c_str(), like.shape_from.c_str());
    return run_timed(target, o, like_id);
  } catch (const std::invalid_argument& e) {
    return usage_error("sim", error_text(e));
  } catch (const std::exception& e) {
    std::cerr << "error: " << error_text(e) << "\n";
    return kFailed;
  }
}

}  // namespace

int run_sim(const std::vector<std::string>& args) {
  const char* usage =
      "usage: tilelab sim KERNEL --functional [--arch A] [--shape D1,D2,...] [--seed N] [--json] [--out FILE.h5]\n"
      "       tilelab sim KERNEL --timing [--functional] [--full|--all-xcds] [--listing] [--plot FILE.svg] ...\n"
      "       tilelab sim --timing --summary [--arch A] [--full]\n"
      "       tilelab sim FILE.co [--kernel NAME] --launch L.toml --functional|--timing [--save DIR] ...\n"
      "       tilelab sim --like RUN [FILE.co --launch L.toml] --out FILE.h5 --timing [--shape ...] ...\n\n"
      "--functional runs KERNEL's compiled code object in the functional emulator: inputs\n"
      "drawn from the seed, every wave-instruction executed on the CPU, the output\n"
      "compared with the kernel's CPU reference (max relative error against the kernel's\n"
      "stated tolerance).  It prints the LDS conflict table of every instruction site\n"
      "from the addresses the lanes really used and compares it, per LDS instruction\n"
      "kind, with the design check of the spec (a disagreement means the code does not\n"
      "do what the spec says), and checks the LDS for races: two waves of a workgroup\n"
      "touching one LDS halfword between the same two barriers, at least one writing,\n"
      "named with both instructions.  A kernel that runs as a pass (attention backward)\n"
      "launches its first kernels too; the figures are the named kernel's.\n"
      "\n"
      "--timing runs the same code object in the cycle-approximate model (sim/timing):\n"
      "the model picks which wave issues in which cycle, the emulator executes it.  It\n"
      "prints cycles and time at the arch clock (its status printed: gfx950's 1590 MHz\n"
      "under load is inferred, the peak is 2400), TFLOP/s, the limiter, unit\n"
      "utilisation (MFMA, VALU, LDS and the chip's L2, fabric, MALL, HBM), the chip's\n"
      "traffic and hit rates (all CUs advance together; workgroup i on XCD i mod 8),\n"
      "where the waves' time went, the hottest instructions with the thread trace's\n"
      "per-pc columns, counters in AMD's names, MFMA dependency hazards, the static\n"
      "bound of `tilelab check` and the arch figures that are assumptions.  Every CU\n"
      "starts with cold instruction and scalar caches (the SQC: the kernel's first\n"
      "instructions and arguments come through the L2 from HBM).\n"
      "Sampling: when the grid fills every CU at least once, the run simulates XCD 0 in\n"
      "full (its 32 CUs, its L2, workgroups 0, 8, 16 ...) with 1/8 of the MALL and HBM\n"
      "and takes the other XCDs to be like it (the report says so and scales the\n"
      "totals; the output is then incomplete, so the reference is not checked).  The\n"
      "MALL and HBM counters are then the chip's estimated: each buffer's lines are\n"
      "fetched from HBM as often as XCD 0 fetched its own, and the rest are MALL hits\n"
      "(a GEMM's A rows, which every XCD reads, come from HBM once; --full counts\n"
      "them).  A\n"
      "regular grid of 5 rounds or more is timed for 3 rounds and the rest\n"
      "extrapolated (fast-forward); so is a periodic one whose workgroups' work is set\n"
      "by one coordinate of their id (causal attention's query block).  The result is\n"
      "the same to the bit whatever --threads.\n"
      "\n"
      "A code object tilelab did not build (FILE.co, FILE.hsaco, or AMDGPU assembly\n"
      "FILE.s / FILE.amdgcn, assembled by LLVM MC and linked by ld.lld on reading; an\n"
      "error names its line) runs from a launch file instead of a kernel's host: grid,\n"
      "block, dynamic LDS and each argument by the metadata's name or \"@offset\", as a\n"
      "value or a buffer, and the buffers to save (the README has an example).  A launch\n"
      "template writes sizes as expressions of its [shape] table's names\n"
      "(\"ceil(N/256)\"); --shape NAME=V,... overrides them.  With no reference the run\n"
      "reports what it did; an out-of-bounds access or an instruction the emulator\n"
      "lacks stops it with one line.\n"
      "\n"
      "--like RUN simulates a dispatch measured on a GPU: RUN is a hw run of FILE.h5\n"
      "(`tilelab import rocprof`, `tilelab run`); its kernel name names the suite kernel,\n"
      "and the shape is --shape, else the run's problem shape in the kernel's words,\n"
      "else the one example shape whose grid is the dispatch's; a shape that launches\n"
      "another grid or workgroup is refused with one line saying what differs.  The\n"
      "timed run is stored in FILE.h5 as RUN-timing with {\"like\": RUN} in its\n"
      "config, so `tilelab compare FILE.h5 RUN RUN-timing` lines them up.  A kernel\n"
      "tilelab did not build is named by its code object and a launch template\n"
      "(--like RUN FILE.co --launch L.toml): the profile's kernel must be the\n"
      "template's (demangled); the problem's dimensions (the names its buffer sizes\n"
      "read) are --shape NAME=V,..., else solved from the dispatch's grid, one grid\n"
      "axis each (where several values launch the grid, \"ceil(N/256)\", the largest\n"
      "is taken); a dimension no axis tells (a GEMM's K) must be given; the other\n"
      "names keep the template's values.  The first line says where each came from.\n"
      "\n"
      "Exit status: 0 pass and agreement, 1 wrong result, disagreement, a hazard or a\n"
      "stopped run, 2 bad command line.\n";
  SimOptions o;
  po::options_description what = option_group("what to run");
  what.add_options()("help", flag(o.help), "this text")(
      "functional", flag(o.functional), "run in the functional emulator and check the reference (with --timing: every workgroup, a wrong result fails)")(
      "timing", flag(o.timing), "run in the cycle model")(
      "summary", flag(o.summary), "with --timing alone: one row per suite kernel at its default shape on the whole GPU (minutes)")(
      "like", optional_value(o.like, "RUN"), "simulate the dispatch of hw run RUN of the --out store (above)")(
      "kernel", optional_value(o.kernel, "NAME"), "the kernel of a code object FILE (the launch file names it too)")(
      "launch", optional_value(o.launch, "L.toml"), "a code object's launch file")(
      "save", optional_value(o.save, "DIR"), "write each launch-file buffer marked save = true to DIR/<arg>.bin (runs every workgroup)")(
      "shape", optional_value(o.shape, "D1,D2,..."),
      "the spec's dimensions (gemm: M,N,K; default the smallest example), or NAME=V,... for a launch template")(
      "seed", po::value(&o.seed)->value_name("N")->default_value(1), "the inputs' seed")(
      "code-objects", po::value(&o.code_objects)->value_name("DIR")->default_value(kernels::code_object_dir(), "the build's"),
      "where KERNEL's code object is (DIR/<arch>/<source>.hsaco)");
  add_arch_option(what, o.arch,
                  "gfx950 (a code object: its own processor; --like: the profile's GPU).  A FILE.toml is used by every "
                  "part of the run (emulator, design check, cycle model); its `name` picks the code object");
  po::options_description timed = option_group("the cycle model");
  timed.add_options()("full", flag(o.full), "simulate every workgroup (when workgroups wait on each other)")(
      "all-xcds", flag(o.all_xcds), "simulate every XCD but keep the fast-forward (orders that share data between XCDs)")(
      "no-fast-forward", flag(o.no_fast_forward), "simulate every workgroup of the sampled XCD (the fast-forward's own error)")(
      "cus", po::value(&o.cus)->value_name("N")->default_value(0, "the chip's"), "spread the grid over N CUs")(
      "threads", po::value(&o.threads)->value_name("N")->default_value(0, "one per core"),
      "simulate the CUs on N threads (a kernel with global atomics runs on one)")(
      "top", po::value(&o.top)->value_name("N")->default_value(10), "how many of the hottest instructions to list")(
      "listing", flag(o.listing),
      "the whole program in order with the per-pc columns and source lines (barrier waits on the s_barrier)")(
      "plot", optional_value(o.plot, "FILE.svg"),
      "the run's roofline: TFLOP/s against FLOPs per byte through L2, to the MALL and from HBM, under the arch's ceilings")(
      "quiet", flag(o.quiet), "no progress on stderr, and no line saying what the run wrote (--out, --plot)");
  po::options_description output = option_group("output");
  output.add_options()("json", flag(o.json), "the run as one JSON object (with --listing, \"listing\": one object per instruction)");
  po::options_description opts = option_group();
  opts.add(what).add(timed).add(budget_options(o.budgets)).add(output).add(store_options(o.store));
  po::positional_options_description pos;
  pos.add("target", 1);
  po::options_description all(opts);
  all.add_options()("target", optional_value(o.target), "");
  int status = kOk;
  if (!parse_with_store("sim", args, all, o.store, status, &pos)) return status;
  if (o.help) {
    print_help(std::cout, usage, opts);
    return kOk;
  }
  if (o.like) return run_like(o);
  if (o.target && names_code_object(*o.target)) {
    if (!o.functional && !o.timing) return usage_error("sim", "say --functional or --timing (or both)");
    return run_code_object(o);
  }
  if (o.launch || o.save)
    return usage_error("sim", "--launch and --save go with a code object (FILE.co or FILE.hsaco), not a suite kernel");
  if (o.summary) {
    if (!o.timing || o.target || o.functional || o.shape || o.store.out || o.json)
      return usage_error("sim", "--summary goes with --timing alone (every suite kernel at its default shape)");
    try {
      return run_timed_summary(arch::load_arch(o.arch.value_or("gfx950")), o);
    } catch (const std::exception& e) {
      std::cerr << "error: " << error_text(e) << "\n";
      return kFailed;
    }
  }
  if (!o.target) {
    std::string names;
    for (const auto& k : app::emulated_kernels()) names += (names.empty() ? "" : ", ") + k;
    return usage_error("sim", "a KERNEL is needed (" + names + ")");
  }
  if (!o.functional && !o.timing) return usage_error("sim", "say --functional or --timing (or both)");
  try {
    timing::check_cus(o.cus);
  } catch (const timing::TimingError& e) {
    return usage_error("sim", std::string("--") + e.what());
  }
  if (o.top < 0) return usage_error("sim", "--top must not be negative");
  try {
    if (o.kernel) return usage_error("sim", "--kernel names a kernel of a code object FILE; a suite kernel is named alone");
    const std::optional<std::vector<long long>> shape =
        o.shape ? std::optional(parse_shape(*o.shape)) : std::nullopt;
    const app::SuiteTarget target = app::resolve_suite(*o.target,
                                                       arch::load_arch(o.arch.value_or("gfx950")), shape,
                                                       o.code_objects);
    const kernels::KernelSpec& spec = *target.spec;
    const std::string id = o.store.id_or(app::default_run_id(o.timing ? "timing" : "sim", spec.name, target.arch.name));
    if (o.store.out) traces::check_new_run(*o.store.out, id);  // refused before the work, not after
    if (o.timing) return run_timed(target, o);
    const std::uint64_t budget = o.budgets.wave_instructions;
    const app::FunctionalRun r = app::run_functional(target, o.seed, [&](emu::Emulator& e) {
      e.set_wave_budget(budget);
      e.set_launch_budget(o.budgets.launch_instructions);
    });
    std::optional<kernels::DesignReport> design;
    if (spec.work) design = kernels::design_check(spec, target.arch, std::nullopt, target.shape);
    const std::vector<LdsKindRow> rows = app::lds_vs_design(r.stats, design ? &*design : nullptr);
    int disagree = 0;
    for (const auto& row : rows) disagree += !row.agree();
    if (o.json) {
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
    if (o.store.out) app::record_functional(*o.store.out, id, target, r, writer_options(o.store)), say_recorded(o, id);
    return r.pass && !disagree ? kOk : kFailed;
  } catch (const std::invalid_argument& e) {  // std::stoi's is only "stoi": error_text words it
    return usage_error("sim", error_text(e));
  } catch (const std::exception& e) {
    std::cerr << "error: " << error_text(e) << "\n";
    return kFailed;
  }
}

}  // namespace tilelab::cli
