// Importing rocprofv3's output: the CSV reader (literal cases, 2000 random
// tables round-tripped, malformed input), the real rocprofv3 files copied into
// tests/data/rocprof (values read by hand from them), a rocpd database built
// from the documented layout, every malformed case with its one-line error
// and the store untouched, and a comparison whose differences are known by
// construction.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "traces/analysis.hpp"
#include "traces/derived_metrics.hpp"
#include "traces/rocprof/profile.hpp"
#include "traces/store.hpp"

namespace tilelab::traces {
namespace {

namespace fs = std::filesystem;
using rocprof::FormatError;

const std::string kData = TILELAB_TEST_DATA "/rocprof/";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("tilelab_rocprof_" + std::to_string(::getpid()) + "_" +
                                        std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  std::string file(const std::string& name) const { return (path / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(file(name), std::ios::binary) << text;
    return file(name);
  }
};

std::string build_rocpd(const TempDir& t, const std::string& name, const std::string& sql) {
  sqlite3* db = nullptr;
  const std::string path = t.file(name);
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << (error ? error : "");
  sqlite3_free(error);
  sqlite3_close(db);
  return path;
}

// The rocpd fixture and the thread trace side by side in `t`, imported
// (gemm_bf16's dispatches) into t/s.h5; returns the store.
std::string import_rocpd_and_thread_trace(const TempDir& t) {
  build_rocpd(t, "results.db", slurp(kData + "rocpd_v3.sql"));
  fs::copy(kData + "att", t.file("att"), fs::copy_options::recursive);
  const std::string store = t.file("s.h5");
  rocprof::ImportOptions o;
  o.kernel = "gemm_bf16";
  rocprof::import_profile(rocprof::read_profile(t.path.string()), store, o);
  return store;
}

std::string expect_format_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const FormatError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no FormatError";
  return "";
}

// ---- CSV ----

TEST(RocprofCsv, QuotesCommasAndLineEnds) {
  const auto t = rocprof::parse_csv("\"a\",b,\"c,d\"\r\n1,\"say \"\"hi\"\"\",\"two\nlines\"\n\n3,,x\n", "t.csv");
  ASSERT_EQ(t.header, (std::vector<std::string>{"a", "b", "c,d"}));
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[0], (std::vector<std::string>{"1", "say \"hi\"", "two\nlines"}));
  EXPECT_EQ(t.rows[1], (std::vector<std::string>{"3", "", "x"}));
  EXPECT_EQ(t.lines, (std::vector<std::size_t>{2, 5}));
}

TEST(RocprofCsv, MalformedInputNamesFileAndLine) {
  EXPECT_EQ(expect_format_error([] { rocprof::parse_csv("a,b\n1,2\n3\n", "t.csv"); }),
            "t.csv:3: a row of 1 fields under a header of 2");
  EXPECT_EQ(expect_format_error([] { rocprof::parse_csv("a,b\n1,\"2\n", "t.csv"); }),
            "t.csv:2: a quoted field is not closed before the end of the file");
  EXPECT_EQ(expect_format_error([] { rocprof::parse_csv("a,b\n\"1\"x,2\n", "t.csv"); }),
            "t.csv:2: a character after a closing quote");
  EXPECT_EQ(expect_format_error([] { rocprof::parse_csv("", "t.csv"); }), "t.csv: empty file");
}

// 2000 random tables (fields with commas, quotes, CR, LF, empty ones),
// written the RFC 4180 way, read back equal.
TEST(RocprofCsv, RandomTablesRoundTrip) {
  std::mt19937_64 rng(11);
  const std::string alphabet = "ab,\"\n\r 9_";
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t cols = rng() % 5 + 1, rows = rng() % 6;
    std::vector<std::vector<std::string>> table(rows + 1, std::vector<std::string>(cols));
    std::string text;
    for (std::size_t r = 0; r <= rows; ++r) {
      for (std::size_t c = 0; c < cols; ++c) {
        std::string& f = table[r][c];
        for (std::size_t k = rng() % 6; k > 0; --k) f += alphabet[rng() % alphabet.size()];
        if (r == 0 && f.empty()) f = "h";
        if (cols == 1 && f.empty()) f = "v";  // a lone empty field is a blank line
        std::string q = "\"";
        for (char ch : f) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
        text += (c ? "," : "") + q + "\"";
      }
      text += rng() % 2 ? "\r\n" : "\n";
    }
    const auto t = rocprof::parse_csv(text, "r.csv");
    ASSERT_EQ(t.header, table[0]) << text;
    ASSERT_EQ(t.rows.size(), rows) << text;
    for (std::size_t r = 0; r < rows; ++r) ASSERT_EQ(t.rows[r], table[r + 1]) << text;
  }
}

// ---- the real rocprofv3 files ----

// kernel_trace.csv's first row: dispatch 1 of addition_kernel<float>,
// 1550151853029637 .. 1550151853042437 ns, 64x1x1 workgroups over a
// 1024x1024x1 grid, 8 VGPRs, 16 SGPRs.
TEST(RocprofImport, KernelTraceValuesAsInTheFile) {
  const rocprof::Profile p = rocprof::read_kernel_trace(kData + "kernel_trace.csv");
  ASSERT_EQ(p.dispatches.size(), 9u);
  const rocprof::Dispatch& d = p.dispatches[0];
  EXPECT_EQ(d.dispatch_id, 1u);
  EXPECT_EQ(d.kernel, "void addition_kernel<float>(float*, float const*, float const*, int, int)");
  EXPECT_EQ(d.agent, "Agent 4");
  EXPECT_EQ(d.end_ns - d.start_ns, 12800);
  EXPECT_EQ(d.grid, (std::array<std::uint64_t, 3>{1024, 1024, 1}));
  EXPECT_EQ(d.workgroup, (std::array<std::uint64_t, 3>{64, 1, 1}));
  EXPECT_EQ(d.vgprs, 8);
  EXPECT_EQ(d.sgprs, 16);
  EXPECT_EQ(rocprof::read_kernel_trace(kData + "kernel_trace_truncated.csv").dispatches[0].kernel, "addition_kernel");
}

// Files are recognised by what they hold, not by their names: rocprofv3's
// --truncate-kernels file, a renamed trace, a renamed database, and refusals
// for a memory-copy trace and a text file, each one line naming the file.
TEST(RocprofImport, FilesAreRecognisedByTheirContent) {
  using rocprof::FileKind;
  EXPECT_EQ(rocprof::file_kind(kData + "kernel_trace_truncated.csv"), FileKind::kernel_trace);
  EXPECT_EQ(rocprof::file_kind(kData + "counter_collection.csv"), FileKind::counter_collection);
  EXPECT_EQ(rocprof::read_profile(kData + "kernel_trace_truncated.csv").dispatches[0].kernel, "addition_kernel");
  TempDir t;
  fs::copy(kData + "kernel_trace.csv", t.file("dispatches.txt"));
  EXPECT_EQ(rocprof::read_profile(t.file("dispatches.txt")).dispatches.size(), 9u);
  build_rocpd(t, "profile.sqlite", slurp(kData + "rocpd_v3.sql"));
  EXPECT_EQ(rocprof::file_kind(t.file("profile.sqlite")), FileKind::rocpd);
  EXPECT_FALSE(rocprof::read_profile(t.file("profile.sqlite")).dispatches.empty());
  fs::copy(kData + "memory_copy_trace.csv", t.file("memory_copy_trace.csv"));
  EXPECT_EQ(rocprof::file_kind(t.file("memory_copy_trace.csv")), FileKind::other);
  try {
    rocprof::read_profile(t.file("memory_copy_trace.csv"));
    ADD_FAILURE() << "a memory-copy trace was read";
  } catch (const rocprof::FormatError& e) {
    EXPECT_EQ(std::string(e.what()).find(t.file("memory_copy_trace.csv") + ": not a rocprofv3 kernel trace"), 0u) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
  // A folder: the truncated trace (4 dispatches) under another name is
  // found, the memory-copy trace beside it left alone.
  TempDir d;
  fs::copy(kData + "kernel_trace_truncated.csv", d.file("a.csv"));
  fs::copy(kData + "memory_copy_trace.csv", d.file("b.csv"));
  EXPECT_EQ(rocprof::read_profile(d.path.string()).dispatches.size(), 4u);
}

// counter_collection.csv: SQ_WAVES = 16384 for dispatch 1, 52151 ns.
TEST(RocprofImport, CounterCollectionMakesDispatches) {
  rocprof::Profile p;
  rocprof::add_counter_collection(p, kData + "counter_collection.csv");
  ASSERT_EQ(p.dispatches.size(), 4u);
  EXPECT_EQ(p.dispatches[0].counters.at("SQ_WAVES"), 16384);
  EXPECT_EQ(p.dispatches[0].end_ns - p.dispatches[0].start_ns, 3200098838483232 - 3200098838431081);
  EXPECT_EQ(p.dispatches[0].grid[0], 1048576u);
}

// ---- rocprof-compute workloads and rocprofv2 tables (issue 28) ----

const std::string kWorkload = kData + "rocprof_compute_mi300x";

// The real MI300X workload (AMD's rocprofiler-compute test data): pmc_perf.csv's
// first row is dispatch 0 of vecCopy, 716380685145736 .. 716380685161855 ns,
// 1048576 work-items in workgroups of 256, 4+4 VGPRs, 16 SGPRs;
// SQ_WAVES = 16384.0; TCC_HIT_sum = 66160.0 and TCC_MISS_sum = 131314.0 (its
// 128 channel columns, from another pass, sum to 131306: the _sum is kept);
// sysinfo.csv: gfx942, 304 CUs, 8 XCDs.
TEST(RocprofComputeWorkload, ValuesAsInTheFiles) {
  const rocprof::Profile p = rocprof::read_profile(kWorkload);
  EXPECT_EQ(p.profiler, "rocprof-compute");
  EXPECT_EQ(p.gpu.arch, "gfx942");
  EXPECT_EQ(p.gpu.cus, 304);
  EXPECT_EQ(p.gpu.xccs, 8);
  ASSERT_EQ(p.dispatches.size(), 3u);  // pmc_perf.csv's rows only, not the per-pass files beside it
  const rocprof::Dispatch& d = p.dispatches[0];
  EXPECT_EQ(d.dispatch_id, 0u);
  EXPECT_EQ(d.kernel, "vecCopy(double*, double*, double*, int, int) (.kd)");
  EXPECT_EQ(d.agent, "GPU 60633");
  EXPECT_TRUE(d.timed);
  EXPECT_EQ(d.end_ns - d.start_ns, 16119);
  EXPECT_EQ(d.grid, (std::array<std::uint64_t, 3>{1048576, 1, 1}));
  EXPECT_EQ(d.workgroup, (std::array<std::uint64_t, 3>{256, 1, 1}));
  EXPECT_EQ(d.vgprs, 4);
  EXPECT_EQ(d.agprs, 4);
  EXPECT_EQ(d.sgprs, 16);
  EXPECT_EQ(d.counters.at("SQ_WAVES"), 16384);
  EXPECT_EQ(d.counters.at("TCC_HIT"), 66160);
  EXPECT_EQ(d.counters.at("TCC_MISS"), 131314);
  // No channel column, no repeated description column, no _sum name is a counter.
  for (const auto& [name, value] : d.counters) {
    EXPECT_EQ(name.find('['), std::string::npos) << name;
    EXPECT_NE(name.rfind("_sum"), name.size() - 4) << name;
    EXPECT_NE(name.rfind("Wave_Size", 0), 0u) << name;
    EXPECT_NE(name.rfind("Correlation_ID", 0), 0u) << name;
    EXPECT_NE(name.rfind("XCC_Index", 0), 0u) << name;
  }
  EXPECT_EQ(d.counters.count("Start_Timestamp"), 0u);
  EXPECT_EQ(rocprof::file_kind(kWorkload + "/pmc_perf.csv"), rocprof::FileKind::pmc_perf);
  EXPECT_EQ(rocprof::file_kind(kWorkload + "/SQ_LEVEL_WAVES.csv"), rocprof::FileKind::pmc_perf);
  EXPECT_EQ(rocprof::file_kind(kWorkload + "/sysinfo.csv"), rocprof::FileKind::sysinfo);
}

// Imported: the GPU from sysinfo.csv becomes the runs' arch and the CU_NUM /
// XCC_NUM counters unless the options say otherwise; backend rocprof-compute.
TEST(RocprofComputeWorkload, ImportedRunsCarryTheGpu) {
  TempDir t;
  const std::string store = t.file("s.h5");
  const auto ids = rocprof::import_profile(rocprof::read_profile(kWorkload), store, {});
  ASSERT_EQ(ids, (std::vector<std::string>{"rocprof-0", "rocprof-1", "rocprof-2"}));
  const Reader r(store);
  const RunView v = r.run("rocprof-1");
  EXPECT_EQ(v.info.backend, "rocprof-compute");
  EXPECT_EQ(v.info.arch, "gfx942");
  EXPECT_EQ(v.summary->median_ns, 716380685197573 - 716380685184013);
  EXPECT_EQ(r.counters("rocprof-1").at("CU_NUM"), 304);
  EXPECT_EQ(r.counters("rocprof-1").at("XCC_NUM"), 8);
  EXPECT_EQ(r.counters("rocprof-1").at("SQ_WAVES"), 16384);
  rocprof::ImportOptions o;
  o.arch = "gfx950";
  o.cus = 256;
  o.id_prefix = "again";
  rocprof::import_profile(rocprof::read_profile(kWorkload), store, o);
  EXPECT_EQ(Reader(store).run("again-0").info.arch, "gfx950");
  EXPECT_EQ(Reader(store).counters("again-0").at("CU_NUM"), 256);
  EXPECT_EQ(Reader(store).counters("again-0").at("XCC_NUM"), 8);
}

// One pass's table on its own (rocprofv2's layout): its PID is the process,
// its dispatches are timed by their own columns; a table without timestamps
// gives untimed dispatches.
TEST(RocprofComputeWorkload, OnePassTableAlone) {
  const rocprof::Profile p = rocprof::read_profile(kWorkload + "/timestamps.csv");
  EXPECT_EQ(p.profiler, "rocprofv2");
  ASSERT_EQ(p.dispatches.size(), 3u);
  EXPECT_EQ(p.dispatches[0].dispatch_id, 1u);
  EXPECT_EQ(p.dispatches[0].process, "967084");
  EXPECT_EQ(p.dispatches[0].end_ns - p.dispatches[0].start_ns, 716380685161855 - 716380685145736);
  const rocprof::Profile lds = rocprof::read_profile(kWorkload + "/SQ_INST_LEVEL_LDS.csv");
  ASSERT_FALSE(lds.dispatches.empty());
  EXPECT_EQ(lds.dispatches[0].timed, slurp(kWorkload + "/SQ_INST_LEVEL_LDS.csv").find("End_Timestamp") != std::string::npos);
}

// Channel columns without a whole-GPU column are summed; a field that is not
// a number, a repeated dispatch, a folder of passes without sysinfo, a
// workload without pmc_perf.csv and a sysinfo of no CUs are each one line
// naming the file (and line and column where there is one).
TEST(RocprofComputeWorkload, ChannelsSummedAndBadInputRefused) {
  TempDir t;
  const std::string head = "Dispatch_ID,GPU_ID,Grid_Size,Workgroup_Size,Kernel_Name,TCC_HIT[0],TCC_HIT[1],Wave_Size_2,X_sum\n";
  const std::string ok = t.write("a.csv", head + "5,1,256,64,k,3,4,64,7\n");
  const rocprof::Profile p = rocprof::read_profile(ok);
  ASSERT_EQ(p.dispatches.size(), 1u);
  EXPECT_EQ(p.dispatches[0].counters, (std::map<std::string, double>{{"TCC_HIT", 7}, {"X", 7}}));
  EXPECT_FALSE(p.dispatches[0].timed);
  const std::string word = t.write("b.csv", head + "5,1,256,64,k,3,four,64,7\n");
  EXPECT_EQ(expect_format_error([&] { rocprof::read_profile(word); }), word + ":2: column TCC_HIT[1]: 'four' is not a number");
  const std::string twice = t.write("c.csv", head + "5,1,256,64,k,3,4,64,7\n5,1,256,64,k,3,4,64,7\n");
  EXPECT_EQ(expect_format_error([&] { rocprof::read_profile(twice); }), twice + ":3: dispatch 5 twice");
  const std::string backwards = t.write("d.csv", "Dispatch_ID,GPU_ID,Grid_Size,Workgroup_Size,Kernel_Name,Start_Timestamp,End_Timestamp\n"
                                                 "5,1,256,64,k,9,5\n");
  EXPECT_EQ(expect_format_error([&] { rocprof::read_profile(backwards); }),
            backwards + ":2: the dispatch ends (5) before it starts (9)");
  fs::create_directories(t.path / "passes");
  fs::copy(kWorkload + "/SQ_LEVEL_WAVES.csv", t.path / "passes" / "SQ_LEVEL_WAVES.csv");
  EXPECT_NE(expect_format_error([&] { rocprof::read_profile(t.file("passes")); })
                .find(t.file("passes") + ": per-dispatch counter tables of separate profiling passes"),
            std::string::npos);
  fs::create_directories(t.path / "nopmc");
  fs::copy(kWorkload + "/sysinfo.csv", t.path / "nopmc" / "sysinfo.csv");
  EXPECT_EQ(expect_format_error([&] { rocprof::read_profile(t.file("nopmc")); }).find(t.file("nopmc") + ": a rocprof-compute workload"), 0u);
  std::string sysinfo = slurp(kWorkload + "/sysinfo.csv");
  sysinfo.replace(sysinfo.find(",304,"), 5, ",0,");
  fs::create_directories(t.path / "nocu");
  std::ofstream(t.file("nocu/sysinfo.csv")) << sysinfo;
  fs::copy(kWorkload + "/pmc_perf.csv", t.path / "nocu" / "pmc_perf.csv");
  EXPECT_EQ(expect_format_error([&] { rocprof::read_profile(t.file("nocu")); }),
            t.file("nocu/sysinfo.csv") + ":2: column cu_per_gpu: 0 is not a count of units");
  EXPECT_NE(expect_format_error([&] { rocprof::read_profile(kWorkload + "/sysinfo.csv"); }).find("describes the GPU"),
            std::string::npos);
}

TEST(RocprofImport, RocpdSumsInstancesPerDispatchAndCounter) {
  TempDir t;
  const std::string db = build_rocpd(t, "results.db", slurp(kData + "rocpd_v3.sql"));
  const rocprof::Profile p = rocprof::read_rocpd(db);
  ASSERT_EQ(p.dispatches.size(), 3u);
  const rocprof::Dispatch& d = p.dispatches[0];
  EXPECT_EQ(d.dispatch_id, 10u);
  EXPECT_EQ(d.kernel, "gemm_bf16");
  EXPECT_EQ(d.agent, "Agent 2");
  EXPECT_EQ(d.end_ns - d.start_ns, 250000);
  EXPECT_EQ(d.grid, (std::array<std::uint64_t, 3>{8192, 32, 1}));
  EXPECT_EQ(d.lds_bytes, 65536);
  EXPECT_EQ(d.vgprs, 128);
  EXPECT_EQ(d.agprs, 64);
  EXPECT_EQ(d.counters.at("SQ_WAVES"), 1024);
  EXPECT_EQ(d.counters.at("SQ_LDS_BANK_CONFLICT"), 1024);
  EXPECT_EQ(d.counters.at("SQ_LDS_IDX_ACTIVE"), 8192);
  EXPECT_EQ(p.dispatches[2].counters.at("SQ_WAVES"), 16384);
}

// ---- malformed files: one line naming the file and the place; the store untouched ----

TEST(RocprofImport, MalformedFilesAreRefusedAndTheStoreIsUntouched) {
  TempDir t;
  const std::string store = t.file("s.h5");
  const std::string trace = slurp(kData + "kernel_trace.csv");
  // Truncated in the middle of the third row.
  const std::string cut = t.write("cut_kernel_trace.csv", trace.substr(0, trace.find('\n', trace.find('\n', trace.find('\n') + 1) + 1) + 40));
  EXPECT_EQ(expect_format_error([&] { rocprof::read_profile(cut); }),
            cut + ":4: a row of 6 fields under a header of 22");
  // A column missing.
  std::string no_end = trace;
  no_end.replace(no_end.find("\"End_Timestamp\""), 15, "\"Finish\"");
  const std::string wrong = t.write("wrong_kernel_trace.csv", no_end);
  EXPECT_EQ(expect_format_error([&] { rocprof::read_profile(wrong); }),
            wrong + ": no column 'End_Timestamp' (not the rocprofv3 file it is named as?)");
  // A dispatch that ends before it starts.
  std::string backwards = trace;
  backwards.replace(backwards.find("1550151853042437"), 16, "1550151853000000");
  const std::string back = t.write("back_kernel_trace.csv", backwards);
  EXPECT_EQ(expect_format_error([&] { rocprof::read_profile(back); }),
            back + ":2: the dispatch ends (1550151853000000) before it starts (1550151853029637)");
  // Issue 24 (13): a start at -2^63 and an end at 2^63-1 (the median came out
  // -1 ns: the duration overflowed) is refused.
  std::string extreme = trace;
  extreme.replace(extreme.find("1550151853029637"), 16, "-9223372036854775808");
  extreme.replace(extreme.find("1550151853042437"), 16, "9223372036854775807");
  const std::string ext = t.write("ext_kernel_trace.csv", extreme);
  EXPECT_EQ(expect_format_error([&] { rocprof::read_profile(ext); }),
            ext + ":2: Start_Timestamp -9223372036854775808 is negative");
  // A database of another schema version.
  std::string v2 = slurp(kData + "rocpd_v3.sql");
  v2.replace(v2.find("('schema_version', '3')"), 23, "('schema_version', '2')");
  const std::string db2 = build_rocpd(t, "v2.db", v2);
  EXPECT_EQ(expect_format_error([&] { rocprof::read_profile(db2); }),
            db2 + ": a rocpd database of schema version '2'; this tilelab reads version 3");
  // Not a database at all.
  const std::string junk = t.write("junk.db", "this is not SQLite");
  EXPECT_NE(expect_format_error([&] { rocprof::read_profile(junk); }).find(junk + ": "), std::string::npos);
  // A folder with nothing rocprofv3 wrote.
  fs::create_directories(t.path / "empty");
  EXPECT_EQ(expect_format_error([&] { rocprof::read_profile(t.file("empty")); }),
            t.file("empty") + ": no kernel trace, counter collection, rocpd database or thread trace under it");
  EXPECT_FALSE(fs::exists(store));
}

// ---- several processes (issue 24, item 3) ----

// Two ranks of an MPI job: each process's kernel trace and counters in its own
// %pid%_*.csv, the same dispatch ids in both.  Every dispatch becomes a run
// whose id names its process; each counter joins its own process's dispatch;
// the import is all or nothing.
TEST(RocprofImport, TwoProcessesFilesShareDispatchIdsAndAllLand) {
  TempDir t;
  fs::create_directories(t.path / "prof" / "host");
  fs::copy_file(kData + "kernel_trace.csv", t.file("prof/host/1001_kernel_trace.csv"));
  fs::copy_file(kData + "kernel_trace.csv", t.file("prof/host/1002_kernel_trace.csv"));
  const std::string head = "\"Correlation_Id\",\"Dispatch_Id\",\"Agent_Id\",\"Queue_Id\",\"Process_Id\",\"Thread_Id\","
                           "\"Grid_Size\",\"Kernel_Id\",\"Kernel_Name\",\"Workgroup_Size\",\"LDS_Block_Size\",\"Scratch_Size\","
                           "\"VGPR_Count\",\"Accum_VGPR_Count\",\"SGPR_Count\",\"Counter_Name\",\"Counter_Value\","
                           "\"Start_Timestamp\",\"End_Timestamp\"\n";
  const std::string kernel = "\"void addition_kernel<float>(float*, float const*, float const*, int, int)\"";
  auto row = [&](int pid, int value) {
    return "1,1,\"Agent 4\",1," + std::to_string(pid) + ",1,1048576,10," + kernel + ",64,0,0,8,0,16,\"SQ_WAVES\"," +
           std::to_string(value) + ",1550151853029637,1550151853042437\n";
  };
  fs::create_directories(t.path / "prof" / "pmc_1");
  t.write("prof/pmc_1/1001_counter_collection.csv", head + row(1001, 111));
  t.write("prof/pmc_1/1002_counter_collection.csv", head + row(1002, 222));
  const rocprof::Profile p = rocprof::read_profile(t.file("prof"));
  ASSERT_EQ(p.dispatches.size(), 18u);
  const std::string store = t.file("s.h5");
  const std::vector<std::string> ids = rocprof::import_profile(p, store, {});
  ASSERT_EQ(ids.size(), 18u);
  EXPECT_EQ(ids[0], "rocprof-1001-1");
  EXPECT_EQ(ids[9], "rocprof-1002-1");
  Reader r(store);
  EXPECT_EQ(r.run_ids().size(), 18u);
  EXPECT_EQ(r.counters("rocprof-1001-1").at("SQ_WAVES"), 111);
  EXPECT_EQ(r.counters("rocprof-1002-1").at("SQ_WAVES"), 222);
  EXPECT_NE(r.run("rocprof-1002-4").info.config_json.find("\"process\":\"1002\""), std::string::npos);
  // Again into the same store: every id is taken, nothing is added.
  const auto before = fs::file_size(store);
  EXPECT_THROW(rocprof::import_profile(p, store, {}), StoreError);
  EXPECT_EQ(fs::file_size(store), before);
  EXPECT_EQ(Reader(store).run_ids().size(), 18u);
  // One process alone keeps the short ids.
  EXPECT_EQ(rocprof::import_profile(rocprof::read_profile(t.file("prof/host/1001_kernel_trace.csv")), t.file("one.h5"), {})[0],
            "rocprof-1");
}

// Two hosts' files that do not say which process is which: refused whole, before the store is touched.
TEST(RocprofImport, DispatchesThatCannotBeToldApartAreRefusedWhole) {
  TempDir t;
  for (const char* host : {"a", "b"}) {
    fs::create_directories(t.path / "prof" / host);
    fs::copy_file(kData + "kernel_trace.csv", t.file(std::string("prof/") + host + "/7_kernel_trace.csv"));
  }
  const std::string store = t.file("s.h5");
  const std::string e = expect_format_error([&] { rocprof::import_profile(rocprof::read_profile(t.file("prof")), store, {}); });
  EXPECT_EQ(e, "dispatch 1 of " + t.file("prof/a/7_kernel_trace.csv") + " and of " + t.file("prof/b/7_kernel_trace.csv") +
                   " would both be run 'rocprof-1': the files do not say which process each is (import them one at a "
                   "time with --run-id-prefix)");
  EXPECT_FALSE(fs::exists(store));
}

// A database's views are its author's queries: one that never ends, or one
// that needs unbounded temporary storage, ends with a clear line instead of
// running (and growing a temporary file) forever.
TEST(RocprofImport, RocpdQueriesAreBoundedInWorkAndTemporaryStorage) {
  TempDir t;
  const std::string view = "CREATE VIEW rocpd_kernel_dispatch AS SELECT * FROM \"rocpd_kernel_dispatch_00ab\";";
  std::string endless = slurp(kData + "rocpd_v3.sql");
  endless.replace(endless.find(view), view.size(),
                  "CREATE VIEW rocpd_kernel_dispatch AS SELECT * FROM \"rocpd_kernel_dispatch_00ab\" WHERE "
                  "(WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r) > 0;");
  const std::string db = build_rocpd(t, "endless.db", endless);
  const std::string e = expect_format_error([&] { rocprof::read_rocpd(db); });
  EXPECT_EQ(e.substr(0, e.find(": SELECT")),
            db + ": a query did not finish within the work bound for a database of this size (a view that never ends?)");

  std::string huge = slurp(kData + "rocpd_v3.sql");
  huge.replace(huge.find(view), view.size(),
               "CREATE VIEW rocpd_kernel_dispatch AS SELECT k.* FROM \"rocpd_kernel_dispatch_00ab\" k, "
               "(WITH RECURSIVE r(n, pad) AS (SELECT 1, zeroblob(4096) UNION ALL SELECT n + 1, zeroblob(4096) FROM r "
               "WHERE n < 1000000) SELECT n, pad FROM r ORDER BY pad, n DESC) big WHERE big.n = 0;");
  const std::string db2 = build_rocpd(t, "huge.db", huge);
  const std::string e2 = expect_format_error([&] { rocprof::read_rocpd(db2); });
  EXPECT_EQ(e2.substr(0, e2.find(": SELECT")), db2 + ": a query needs more than 256 MiB of temporary storage");
  // The limits belong to the read: the fixture still reads afterwards.
  EXPECT_EQ(rocprof::read_rocpd(build_rocpd(t, "good.db", slurp(kData + "rocpd_v3.sql"))).dispatches.size(), 3u);
}

// A rocpd database with one dispatch id twice: told apart by a pid column,
// refused (nothing written) without one.
TEST(RocprofImport, RocpdRepeatedDispatchIdNeedsItsProcess) {
  TempDir t;
  std::string sql = slurp(kData + "rocpd_v3.sql");
  sql.replace(sql.find("(2, 2, 7, 11,"), 13, "(2, 2, 7, 10,");
  const std::string db = build_rocpd(t, "merged.db", sql);
  EXPECT_EQ(expect_format_error([&] { rocprof::read_rocpd(db); }),
            db + ": rocpd_kernel_dispatch: dispatch 10 appears twice (and no pid column says which process each row is)");
  std::string with_pid = sql;
  with_pid.replace(with_pid.find("CREATE VIEW rocpd_kernel_dispatch AS SELECT * FROM"),
                   std::string("CREATE VIEW rocpd_kernel_dispatch AS SELECT * FROM").size(),
                   "CREATE VIEW rocpd_kernel_dispatch AS SELECT *, CASE WHEN id = 2 THEN 42 ELSE 41 END AS pid FROM");
  const std::string db2 = build_rocpd(t, "merged2.db", with_pid);
  const rocprof::Profile p = rocprof::read_rocpd(db2);
  ASSERT_EQ(p.dispatches.size(), 3u);
  EXPECT_EQ(p.dispatches[0].process, "41");
  EXPECT_EQ(p.dispatches[1].process, "42");
  // Counters per dispatch row, not merged by dispatch id: 1024 and 1024 (see rocpd_v3.sql).
  EXPECT_EQ(p.dispatches[0].counters.at("SQ_LDS_BANK_CONFLICT"), 1024);
  EXPECT_EQ(p.dispatches[1].counters.at("SQ_LDS_BANK_CONFLICT"), 0);
  const std::vector<std::string> ids = rocprof::import_profile(p, t.file("s.h5"), {});
  EXPECT_EQ(ids, (std::vector<std::string>{"rocprof-41-10", "rocprof-42-10", "rocprof-41-12"}));
}

// ---- into the store, and compared ----

TEST(RocprofImport, RunsInTheStoreReadBackAsImported) {
  TempDir t;
  const std::string store = t.file("s.h5");
  const std::string db = build_rocpd(t, "results.db", slurp(kData + "rocpd_v3.sql"));
  rocprof::ImportOptions o;
  o.arch = "gfx950";
  o.kernel = "gemm_bf16";
  o.shape = "M=4096,N=4096,K=4096";
  const auto ids = rocprof::import_profile(rocprof::read_profile(db), store, o);
  ASSERT_EQ(ids, (std::vector<std::string>{"rocprof-10", "rocprof-11"}));
  const Reader r(store);
  const RunView v = r.run("rocprof-10");
  EXPECT_EQ(v.info.kind, "hw");
  EXPECT_EQ(v.info.backend, "rocprofv3");
  EXPECT_EQ(v.info.arch, "gfx950");
  EXPECT_EQ(v.info.problem_shape, "M=4096,N=4096,K=4096");
  ASSERT_TRUE(v.summary);
  EXPECT_EQ(v.summary->median_ns, 250000);
  EXPECT_FALSE(v.summary->checked);
  EXPECT_EQ(r.counters("rocprof-10").at("SQ_WAVES"), 1024);
  // Importing again refuses the taken ids before writing anything.
  EXPECT_THROW(rocprof::import_profile(rocprof::read_profile(db), store, o), StoreError);
  EXPECT_EQ(Reader(store).run_ids().size(), 2u);
}

// Dispatch 10 has 1024 conflict cycles over 8192 LDS cycles, dispatch 11
// none: the comparison shows the counter ratio and the derived conflict rate
// of each side, 1024 / (8192 - 1024) = 1/7 and 0.
TEST(RocprofImport, ComparisonShowsTheKnownDifferences) {
  TempDir t;
  const std::string store = t.file("s.h5");
  rocprof::ImportOptions o;
  o.kernel = "gemm_bf16";
  rocprof::import_profile(rocprof::read_profile(build_rocpd(t, "results.db", slurp(kData + "rocpd_v3.sql"))), store, o);
  const Reader r(store);
  const Comparison c = compare(r, "rocprof-10", "rocprof-11", CompareBy::kClass, false);
  EXPECT_DOUBLE_EQ(c.time_ratio, 240000.0 / 250000.0);
  EXPECT_EQ(c.counters.at("SQ_LDS_BANK_CONFLICT"), std::make_pair(1024.0, 0.0));
  ASSERT_FALSE(c.derived.empty());
  EXPECT_EQ(c.derived[0].first.name, "lds_bank_conflict_rate");
  EXPECT_DOUBLE_EQ(c.derived[0].first.value, 1.0 / 7);
  EXPECT_DOUBLE_EQ(c.derived[0].second.value, 0);
  std::ostringstream table;
  print_table(c, CompareBy::kClass, table);
  EXPECT_NE(table.str().find("lds_bank_conflict_rate  0.142857  0  0.00  "), std::string::npos) << table.str();
}

// The published formulas on hand-picked counters.
TEST(DerivedMetrics, PublishedFormulas) {
  const auto m = derived_metrics({{"SQ_LDS_BANK_CONFLICT", 300},
                                  {"SQ_LDS_IDX_ACTIVE", 1300},
                                  {"SQ_INSTS_VALU", 1000},
                                  {"SQ_INSTS_MFMA", 250},
                                  {"SQ_INSTS", 4000},
                                  {"SQ_BUSY_CU_CYCLES", 2000},
                                  {"SQ_INSTS_VALU_MFMA_MOPS_BF16", 10},
                                  {"SQ_WAVE_CYCLES", 500},
                                  {"SQ_WAVES", 8}});
  std::map<std::string, double> v;
  for (const auto& x : m) v[x.name] = x.value;
  EXPECT_DOUBLE_EQ(v.at("lds_bank_conflict_rate"), 0.3);
  EXPECT_DOUBLE_EQ(v.at("valu_non_mfma_insts"), 750);
  EXPECT_DOUBLE_EQ(v.at("mfma_share_of_valu"), 0.25);
  EXPECT_DOUBLE_EQ(v.at("ipc"), 2);
  EXPECT_DOUBLE_EQ(v.at("mfma_flops"), 5120);
  EXPECT_DOUBLE_EQ(v.at("mean_wave_cycles"), 250);
  EXPECT_TRUE(derived_metrics({{"SQ_INSTS", 1}}).empty());  // nothing without its counters
  // The chip-wide rates: 2 XCCs, 4 CUs; GUI 2000 summed over the XCCs = 1000
  // cycles; MFMA busy 1600 over 1000 x 4 SIMDs x 4 CUs = 0.1; wave cycles
  // 2000 quad-cycles = 8000 wave-cycles over 1000 x 4 CUs x 32 slots = 0.0625.
  std::map<std::string, double> chip;
  for (const auto& x : derived_metrics({{"GRBM_GUI_ACTIVE", 2000}, {"CU_NUM", 4}, {"XCC_NUM", 2},
                                        {"SQ_VALU_MFMA_BUSY_CYCLES", 1600}, {"SQ_WAVE_CYCLES", 2000}}))
    chip[x.name] = x.value;
  EXPECT_DOUBLE_EQ(chip.at("mfma_utilisation"), 0.1);
  EXPECT_DOUBLE_EQ(chip.at("occupancy"), 0.0625);
  // A simulated run says which CUs ran work: 1 of the 4 gives 4x the rates,
  // and the formula names cus_used.
  std::map<std::string, DerivedMetric> used;
  for (const auto& x : derived_metrics({{"GRBM_GUI_ACTIVE", 2000}, {"CU_NUM", 4}, {"XCC_NUM", 2}, {"cus_used", 1},
                                        {"SQ_VALU_MFMA_BUSY_CYCLES", 1600}, {"SQ_WAVE_CYCLES", 2000}}))
    used[x.name] = x;
  EXPECT_DOUBLE_EQ(used.at("mfma_utilisation").value, 0.4);
  EXPECT_DOUBLE_EQ(used.at("occupancy").value, 0.25);
  EXPECT_EQ(used.at("mfma_utilisation").formula, "SQ_VALU_MFMA_BUSY_CYCLES / (GRBM_GUI_ACTIVE / XCC_NUM x 4 x cus_used)");
}

}  // namespace
}  // namespace tilelab::traces

namespace tilelab::traces {
namespace {

// The fixture's numbers, by hand: code at vaddr 4096, 4104, 4112 (the pcs,
// as the cycle model's); wave 0 on CU 5 SIMD 0 from cycle 1000 to 1100; its s_load issued at
// 1000 + 8 after waiting 8 cycles.
TEST(RocprofThreadTrace, ReadsTheDocumentedLayout) {
  const rocprof::ThreadTrace t = rocprof::read_thread_trace(kData + "att/ui_output_agent_1_dispatch_10");
  EXPECT_EQ(t.agent, 1u);
  EXPECT_EQ(t.dispatch, 10u);
  EXPECT_EQ(t.kernel, "gemm_bf16");
  ASSERT_EQ(t.code.size(), 3u);
  EXPECT_EQ(t.code[1].pc, 4104u);
  EXPECT_EQ(t.code[1].isa, "v_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]");
  EXPECT_EQ(t.code[1].idle, 18);
  ASSERT_EQ(t.waves.size(), 2u);
  EXPECT_EQ(t.waves[0].cu, 5);
  EXPECT_EQ(t.waves[1].simd, 1);
  EXPECT_EQ(t.waves[0].instructions[0].stall, 8);
  EXPECT_EQ(t.waves[1].instructions[1].pc, 4104u);
  EXPECT_EQ(t.waves[1].instructions[1].category, 6);
}

// Joined to dispatch 10 of the rocpd fixture, stored, read back as events
// and per-pc statistics; then compared per pc with a copy whose MFMA waited
// 20 cycles longer in each wave (its wave records and its code.json line):
// the MFMA's pc differs by exactly 2 x 20 stall cycles and 40 of latency and
// nothing else, and is listed first.
TEST(RocprofThreadTrace, ImportedAndComparedPerPc) {
  TempDir t;
  const std::string store = import_rocpd_and_thread_trace(t);
  {
    const Reader r(store);
    const RunView v = r.run("rocprof-10");
    EXPECT_EQ(v.info.time_unit, "cycles");
    EXPECT_EQ(v.waves, 2u);
    EXPECT_EQ(v.events, 6u);
    const auto e = r.wave_events("rocprof-10", 0);
    ASSERT_EQ(e.size(), 3u);
    EXPECT_EQ(e[0].issue, 8);  // 1000 + 8 stall, from the first wave's begin
    EXPECT_EQ(e[0].complete, 12);
    EXPECT_EQ(r.opcode_names("rocprof-10")[e[1].opcode], "v_mfma_f32_16x16x32_bf16");
    EXPECT_EQ(r.class_names("rocprof-10")[e[1].cls], "VALU/MFMA");
    const auto pcs = r.pc_stats("rocprof-10");
    ASSERT_EQ(pcs.size(), 3u);
    EXPECT_EQ(pcs[2].pc, 4112u);
    EXPECT_STREQ(pcs[2].instruction, "s_endpgm");
    EXPECT_EQ(pcs[2].idle, 28);
  }
  // The slower copy, imported as dispatch 10 under another prefix.
  const std::string slow = t.file("slow/ui_output_agent_1_dispatch_10");
  fs::create_directories(slow);
  fs::copy(kData + "att/ui_output_agent_1_dispatch_10", slow, fs::copy_options::recursive);
  for (const char* wave : {"/se0_sm0_sl0_wv0.json", "/se0_sm1_sl0_wv0.json"}) {
    std::string text = slurp(slow + wave);
    // The MFMA row [time, 6, stall, duration, 2]: 20 more cycles of stall,
    // and so of duration (on gfx9 duration = stall + issue).
    const std::size_t at = text.find(", 6, ") + 5;
    const std::size_t comma = text.find(',', at), end = text.find(',', comma + 1);
    const int stall = std::stoi(text.substr(at, comma - at)), duration = std::stoi(text.substr(comma + 2, end - comma - 2));
    text.replace(at, end - at, std::to_string(stall + 20) + ", " + std::to_string(duration + 20));
    std::ofstream(slow + wave, std::ios::trunc) << text;
  }
  std::string code = slurp(slow + "/code.json");  // the MFMA line: hits 2, latency 20 -> 60, stall 4 -> 44
  code.replace(code.find("1, 4104, 2, 20, 4, 18"), 21, "1, 4104, 2, 60, 44, 18");
  std::ofstream(slow + "/code.json", std::ios::trunc) << code;
  rocprof::ImportOptions slow_options;
  slow_options.id_prefix = "slow";
  rocprof::import_profile(rocprof::read_profile(slow), store, slow_options);
  const Reader r(store);
  const Comparison c = compare(r, "rocprof-10", "slow-10", CompareBy::kPc, true);
  ASSERT_EQ(c.rows.size(), 3u);
  for (const auto& [pc, ab] : c.rows) {
    EXPECT_EQ(ab.first.instructions, ab.second.instructions) << pc;
    EXPECT_EQ(ab.first.cycles, ab.second.cycles) << pc;
    EXPECT_EQ(ab.second.stall - ab.first.stall, pc.rfind("0x001008 ", 0) == 0 ? 40 : 0) << pc;
  }
  ASSERT_EQ(c.pc_rows.size(), 3u);
  EXPECT_EQ(c.pc_rows[0].pc, 4104u);  // the pc that differs most comes first
  EXPECT_EQ(c.pc_rows[0].b.latency - c.pc_rows[0].a.latency, 40);
  EXPECT_EQ(c.pc_rows[0].b.stall - c.pc_rows[0].a.stall, 40);
  for (std::size_t i = 1; i < 3; ++i) EXPECT_EQ(c.pc_rows[i].a.latency, c.pc_rows[i].b.latency);
  std::ostringstream table;
  print_table(c, CompareBy::kPc, table);
  const std::string s = table.str();
  ASSERT_NE(s.find("\n0x1000 "), std::string::npos) << s;
  EXPECT_LT(s.find("\n0x1008 "), s.find("\n0x1000 ")) << s;
}

// The stats file beside the folder gives the per-pc columns; one naming a pc
// code.json lacks is refused with its file and line.
TEST(RocprofThreadTrace, StatsFileGivesThePerPcColumns) {
  TempDir t;
  fs::copy(kData + "att", t.file("att"), fs::copy_options::recursive);
  const std::string stats = t.file("att/stats_ui_output_agent_1_dispatch_10.csv");
  std::string text = slurp(stats);
  text.replace(text.find(",2,20,4,18,"), 11, ",2,25,6,17,");  // the MFMA's row, changed
  std::ofstream(stats, std::ios::trunc) << text;
  const rocprof::ThreadTrace tt = rocprof::read_thread_trace(t.file("att/ui_output_agent_1_dispatch_10"));
  EXPECT_EQ(tt.code[1].latency, 25);
  EXPECT_EQ(tt.code[1].stall, 6);
  EXPECT_EQ(tt.code[1].idle, 17);
  text.replace(text.find("1,4112,"), 7, "1,4120,");
  std::ofstream(stats, std::ios::trunc) << text;
  EXPECT_EQ(expect_format_error([&] { rocprof::read_thread_trace(t.file("att/ui_output_agent_1_dispatch_10")); }),
            stats + ":4: Vaddr 4120 is not in " + t.file("att/ui_output_agent_1_dispatch_10") + "/code.json");
}

// Issue 24 (4): numbers in names beyond their types and a wave file that is a
// symlink loop are one line each, not std::stoull / std::stoi / filesystem_error.
TEST(RocprofThreadTrace, HostileNamesAreOneLine) {
  TempDir t;
  const std::string huge = t.file("ui_output_agent_99999999999999999999999_dispatch_10");
  fs::copy(kData + "att/ui_output_agent_1_dispatch_10", huge, fs::copy_options::recursive);
  EXPECT_EQ(expect_format_error([&] { rocprof::read_thread_trace(huge); }),
            huge + ": the agent number 99999999999999999999999 is beyond 64 bits");
  const std::string dir = t.file("ui_output_agent_1_dispatch_10");
  fs::copy(kData + "att/ui_output_agent_1_dispatch_10", dir, fs::copy_options::recursive);
  std::string names = slurp(dir + "/filenames.json");
  const std::size_t at = names.find("se0_sm1_sl0_wv0.json");
  ASSERT_NE(at, std::string::npos);
  names.replace(at, 20, "se99999999999_sm1_sl0_wv0.json");
  std::ofstream(dir + "/filenames.json", std::ios::trunc) << names;
  fs::rename(dir + "/se0_sm1_sl0_wv0.json", dir + "/se99999999999_sm1_sl0_wv0.json");
  EXPECT_EQ(expect_format_error([&] { rocprof::read_thread_trace(dir); }),
            dir + "/se99999999999_sm1_sl0_wv0.json: shader engine 99999999999 is out of range (0-1024)");
  fs::remove(dir + "/se99999999999_sm1_sl0_wv0.json");
  fs::create_symlink("se99999999999_sm1_sl0_wv0.json", dir + "/se99999999999_sm1_sl0_wv0.json");  // a loop
  EXPECT_EQ(expect_format_error([&] { rocprof::read_thread_trace(dir); }),
            dir + "/se99999999999_sm1_sl0_wv0.json: listed in " + dir + "/filenames.json but missing or not a regular file");
  // Issue 24 (11): a FIFO as code.json blocked forever; it is not a regular file.
  fs::remove(dir + "/code.json");
  ASSERT_EQ(mkfifo((dir + "/code.json").c_str(), 0600), 0);
  EXPECT_EQ(expect_format_error([&] { rocprof::read_thread_trace(dir); }), dir + "/code.json: not a regular file");
}

// Issue 24 (14): every wave-file field is range-checked against what stores
// it (cu 70000 was stored as 4464; 1e300 was cast).
TEST(RocprofThreadTrace, WaveFieldsOutOfRangeAreOneLine) {
  TempDir t;
  const std::string dir = t.file("ui_output_agent_1_dispatch_10");
  const std::string wave = dir + "/se0_sm0_sl0_wv0.json";
  const std::string original = slurp(kData + "att/ui_output_agent_1_dispatch_10/se0_sm0_sl0_wv0.json");
  struct Case {
    std::string from, to, message;
  };
  auto field_text = [&](const std::string& key) {
    const std::size_t at = original.find("\"" + key + "\"");
    const std::size_t colon = original.find(':', at);
    const std::size_t end = original.find_first_of(",}", colon);
    return original.substr(at, end - at);
  };
  const Case cases[] = {
      {field_text("cu"), "\"cu\": 70000", "cu 70000 is out of range (0 to 65535)"},
      {field_text("cu"), "\"cu\": -3", "cu -3 is out of range (0 to 65535)"},
      {field_text("simd"), "\"simd\": 300", "simd 300 is out of range (0 to 255)"},
      {field_text("begin"), "\"begin\": 1e300", "begin: the number "},
      {field_text("begin"), "\"begin\": 18446744073709551615", "begin: the number 18446744073709551615 is beyond 64-bit signed"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.to);
    fs::remove_all(dir);
    fs::copy(kData + "att/ui_output_agent_1_dispatch_10", dir, fs::copy_options::recursive);
    std::string text = original;
    ASSERT_NE(text.find(c.from), std::string::npos);
    text.replace(text.find(c.from), c.from.size(), c.to);
    std::ofstream(wave, std::ios::trunc) << text;
    const std::string e = expect_format_error([&] { rocprof::read_thread_trace(dir); });
    EXPECT_EQ(e.rfind(wave + ": ", 0), 0u) << e;
    EXPECT_NE(e.find(c.message), std::string::npos) << e;
  }
}

TEST(RocprofThreadTrace, MissingWaveFileOrCodeLineIsOneLine) {
  TempDir t;
  const std::string dir = t.file("ui_output_agent_1_dispatch_10");
  fs::copy(kData + "att/ui_output_agent_1_dispatch_10", dir, fs::copy_options::recursive);
  fs::remove(dir + "/se0_sm1_sl0_wv0.json");
  EXPECT_EQ(expect_format_error([&] { rocprof::read_thread_trace(dir); }),
            dir + "/se0_sm1_sl0_wv0.json: listed in " + dir + "/filenames.json but missing or not a regular file");
  fs::copy(kData + "att/ui_output_agent_1_dispatch_10/se0_sm1_sl0_wv0.json", dir + "/se0_sm1_sl0_wv0.json");
  std::string code = slurp(dir + "/code.json");
  code.replace(code.find("\"s_endpgm\", 0, 3"), 16, "\"s_endpgm\", 0, 9");
  std::ofstream(dir + "/code.json", std::ios::trunc) << code;
  EXPECT_EQ(expect_format_error([&] { rocprof::read_thread_trace(dir); }),
            dir + "/se0_sm0_sl0_wv0.json: an instruction names code line 3, which " + dir + "/code.json does not have");
  std::ofstream(dir + "/code.json", std::ios::trunc) << "{\"code\": [[\"; k\", 0, 0";
  EXPECT_NE(expect_format_error([&] { rocprof::read_thread_trace(dir); }).find(dir + "/code.json: "), std::string::npos);
}

}  // namespace
}  // namespace tilelab::traces

namespace tilelab::traces {
namespace {

TEST(RocprofThreadTrace, CategoriesOfMnemonics) {
  EXPECT_EQ(thread_trace_category("s_load_dwordx4"), "SMEM");
  EXPECT_EQ(thread_trace_category("s_memtime"), "SMEM");
  EXPECT_EQ(thread_trace_category("s_cbranch_scc1"), "JUMP");
  EXPECT_EQ(thread_trace_category("s_waitcnt"), "IMMED");
  EXPECT_EQ(thread_trace_category("s_endpgm"), "IMMED");
  EXPECT_EQ(thread_trace_category("s_sendmsg"), "MSG");
  EXPECT_EQ(thread_trace_category("s_add_u32"), "SALU");
  EXPECT_EQ(thread_trace_category("buffer_load_dwordx4"), "VMEM");
  EXPECT_EQ(thread_trace_category("global_load_dwordx4"), "FLAT");
  EXPECT_EQ(thread_trace_category("ds_read_b128"), "LDS");
  EXPECT_EQ(thread_trace_category("v_mfma_f32_16x16x32_bf16"), "VALU/MFMA");
}

// A cycle-model-like run (tilelab's classes) beside the imported thread
// trace: compared by class, both sides speak the trace's categories.
TEST(RocprofThreadTrace, ClassesComparedInTheTracesWords) {
  TempDir t;
  const std::string store = import_rocpd_and_thread_trace(t);
  {
    RunInfo info;
    info.id = "model";
    info.kind = "sim";
    info.kernel = "gemm_bf16";
    info.problem_shape = "grid=8192,32,1 block=256,1,1";
    RunWriter w(store, info);
    w.set_opcode_names({"s_load_dwordx2", "v_mfma_f32_16x16x32_bf16", "s_endpgm"});
    w.set_class_names({"SALU", "SMEM", "VALU", "TRANS", "MFMA"});  // tilelab's words
    w.add_wave({0, 0, 0, 0, 0, 0, 100});
    w.add_event({0, 4096, 0, 1, 0, 0, 0, 4});   // SMEM
    w.add_event({0, 4104, 1, 4, 0, 2, 10, 18});  // MFMA
    w.add_event({0, 4112, 2, 0, 0, 0, 20, 24});  // s_endpgm, classed SALU by tilelab
    w.finish();
  }
  const Comparison c = compare(Reader(store), "rocprof-10", "model", CompareBy::kClass, false);
  ASSERT_EQ(c.rows.size(), 3u);
  EXPECT_EQ(c.rows.at("SMEM").first.instructions, 2u);
  EXPECT_EQ(c.rows.at("SMEM").second.instructions, 1u);
  EXPECT_EQ(c.rows.at("VALU/MFMA").second.instructions, 1u);
  EXPECT_EQ(c.rows.at("IMMED").first.instructions, 2u);
  EXPECT_EQ(c.rows.at("IMMED").second.instructions, 1u);
}

}  // namespace
}  // namespace tilelab::traces
