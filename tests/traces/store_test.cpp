// The HDF5 trace store: round trips, appends, safety, bad files, comparison, Perfetto.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "synthetic_runs.hpp"
#include "traces/analysis.hpp"
#include "traces/hdf5.hpp"
#include "traces/perfetto.hpp"

namespace tilelab {
namespace {

namespace fs = std::filesystem;
using testing::SyntheticRun;
using testing::write_synthetic;

// A fresh directory per test.
class Store : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tilelab-store-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const traces::StoreError& e) {
    return e.what();
  }
  return "no error";
}

TEST_F(Store, RoundTripOfEveryTableAndAttribute) {
  SyntheticRun s;
  s.event_buffer = 300;  // several segments per wave
  write_synthetic(path("t.h5"), s);
  traces::Reader r(path("t.h5"));
  ASSERT_EQ(r.run_ids(), std::vector<std::string>{"sim-0"});
  traces::RunView v = r.run("sim-0");
  EXPECT_TRUE(v.complete);
  EXPECT_EQ(v.info.kind, "sim");
  EXPECT_EQ(v.info.kernel, "gemm_bf16");
  EXPECT_EQ(v.info.config_json, "{\"tile\":[256,256,64]}");
  EXPECT_EQ(v.info.problem_shape, "M=256,N=256,K=64");
  EXPECT_EQ(v.info.arch, "gfx950");
  EXPECT_EQ(v.info.device, "simulator");
  EXPECT_EQ(v.info.backend, "sim");
  EXPECT_EQ(v.info.git_revision, "0123abc");
  EXPECT_EQ(v.info.compiler, "clang 22.1.8");
  EXPECT_EQ(v.info.code_object_sha256, std::string(64, 'a'));
  EXPECT_EQ(v.info.arch_file_sha256, std::string(64, 'b'));
  EXPECT_EQ(v.info.host, "testhost");
  EXPECT_EQ(v.info.utc_time, "2026-12-02T00:00:00Z");
  EXPECT_EQ(v.info.time_unit, "cycles");
  EXPECT_EQ(v.info.seed, 42u);
  ASSERT_TRUE(v.summary.has_value());
  EXPECT_EQ(v.summary->median_ns, 1000);
  EXPECT_EQ(v.summary->p10_ns, 999);
  EXPECT_EQ(v.summary->p90_ns, 1001);
  EXPECT_EQ(v.summary->min_ns, 998);
  EXPECT_EQ(v.summary->iqr_ns, 1.5);
  EXPECT_EQ(v.summary->tflops, 1.25);
  EXPECT_EQ(v.summary->gbps, 300);
  EXPECT_EQ(v.summary->max_rel_error, 1e-3);
  EXPECT_TRUE(v.summary->correct);
  EXPECT_EQ(v.repetitions, 5u);
  EXPECT_EQ(v.waves, 8u);
  EXPECT_EQ(v.events, 800u);
  auto reps = r.repetitions("sim-0");
  ASSERT_EQ(reps.size(), 5u);
  EXPECT_EQ(reps[3].rep, 3);
  EXPECT_EQ(reps[3].time_ns, 1003);
  auto waves = r.waves("sim-0");
  ASSERT_EQ(waves.size(), 8u);
  EXPECT_EQ(waves[5].wave, 5u);
  EXPECT_EQ(waves[5].workgroup, 1u);
  EXPECT_EQ(waves[5].cu, 1u);
  EXPECT_EQ(waves[5].simd, 1u);
  EXPECT_EQ(waves[5].slot, 1u);
  EXPECT_EQ(waves[5].start, 5);
  for (int w = 0; w < 8; ++w) {
    auto ev = r.wave_events("sim-0", w);
    ASSERT_EQ(ev.size(), 100u);
    for (int k = 0; k < 100; ++k) {
      traces::EventRecord want = testing::synthetic_event(s, w, k);
      ASSERT_EQ(ev[k].wave, want.wave);
      ASSERT_EQ(ev[k].pc, want.pc);
      ASSERT_EQ(ev[k].opcode, want.opcode);
      ASSERT_EQ(ev[k].cls, want.cls);
      ASSERT_EQ(ev[k].stall_reason, want.stall_reason);
      ASSERT_EQ(ev[k].stall, want.stall);
      ASSERT_EQ(ev[k].issue, want.issue);
      ASSERT_EQ(ev[k].complete, want.complete);
    }
  }
  auto lds = r.lds("sim-0");
  ASSERT_EQ(lds.size(), 1u);
  EXPECT_STREQ(lds[0].site, "inst 0 wave 0");
  EXPECT_STREQ(lds[0].instruction, "ds_read_b128");
  EXPECT_EQ(lds[0].conflict_cycles, 12u);
  auto counters = r.counters("sim-0");
  EXPECT_EQ(counters.at("SQ_LDS_BANK_CONFLICT"), 12);
  EXPECT_EQ(r.opcode_names("sim-0").at(31), "op31");
  EXPECT_EQ(r.class_names("sim-0"), testing::synthetic_classes());
  EXPECT_EQ(r.stall_reason_names("sim-0").at(1), "waitcnt");
  EXPECT_TRUE(r.wave_events("sim-0", 99).empty());
}

// for_each_wave_events (one pass over the segment index, for the exports)
// gives every wave of the waves table, in ascending order, exactly what
// wave_events gives it, when a small event buffer interleaves many segments
// of many waves across the table's chunks.
TEST_F(Store, EachWavesEventsInOnePassAreWhatWaveEventsReads) {
  SyntheticRun s;
  s.waves = 300;
  s.events_per_wave = 57;
  s.event_buffer = 1000;  // a flush every ~3 events per wave: 19 segments per wave
  write_synthetic(path("w.h5"), s);
  traces::Reader r(path("w.h5"));
  std::vector<std::uint32_t> seen;
  std::size_t events = 0;
  r.for_each_wave_events("sim-0", [&](const traces::WaveRecord& w, const std::vector<traces::EventRecord>& ev) {
    seen.push_back(w.wave);
    events += ev.size();
    const std::vector<traces::EventRecord> want = r.wave_events("sim-0", w.wave);
    ASSERT_EQ(ev.size(), want.size());
    for (std::size_t k = 0; k < ev.size(); ++k) {
      ASSERT_EQ(ev[k].wave, w.wave);
      ASSERT_EQ(ev[k].issue, want[k].issue);
      ASSERT_EQ(ev[k].issue, 8LL * static_cast<std::int64_t>(k) + w.wave);  // in the order written
    }
  });
  ASSERT_EQ(seen.size(), 300u);
  for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], i);
  EXPECT_EQ(events, 300u * 57u);
}

TEST_F(Store, AppendingKeepsEarlierRunsAndTheSameInputsGiveTheSameBytes) {
  SyntheticRun a, b;
  b.id = "hw-0";
  b.kind = "hw";
  write_synthetic(path("t.h5"), a);
  write_synthetic(path("t.h5"), b);
  traces::Reader r(path("t.h5"));
  EXPECT_EQ(r.run_ids(), (std::vector<std::string>{"sim-0", "hw-0"}));
  EXPECT_EQ(r.wave_events("sim-0", 3).size(), 100u);
  EXPECT_EQ(error_of([&] { write_synthetic(path("t.h5"), a); }),
            "'" + path("t.h5") + "' already has a run 'sim-0'");
  write_synthetic(path("u.h5"), a);
  write_synthetic(path("u.h5"), b);
  // Each run's file is the same bytes in both stores.
  for (const char* run : {"sim-0", "hw-0"}) {
    std::ifstream x(path("t.h5.runs/") + run + ".h5", std::ios::binary), y(path("u.h5.runs/") + run + ".h5", std::ios::binary);
    std::string bx((std::istreambuf_iterator<char>(x)), {}), by((std::istreambuf_iterator<char>(y)), {});
    ASSERT_EQ(bx.size(), by.size()) << run;
    ASSERT_GT(bx.size(), 1000u) << run;
    auto diff = std::mismatch(bx.begin(), bx.end(), by.begin());
    EXPECT_TRUE(diff.first == bx.end()) << run << ": files differ first at byte " << (diff.first - bx.begin());
  }
  EXPECT_EQ(traces::Reader(path("u.h5")).run_ids(), r.run_ids());
  for (const auto& e : fs::recursive_directory_iterator(dir_)) EXPECT_EQ(e.path().string().find(".partial"), std::string::npos);
}

TEST_F(Store, AbandonedWriterLeavesTheFileAlone) {
  write_synthetic(path("t.h5"), SyntheticRun{});
  {
    traces::RunInfo info;
    info.id = "half";
    traces::RunWriter w(path("t.h5"), info);
    w.add_event({});
  }  // destroyed without finish()
  traces::Reader r(path("t.h5"));
  EXPECT_EQ(r.run_ids(), std::vector<std::string>{"sim-0"});
  // The store, its runs' folder with the one finished run: nothing half-written, no lock left.
  for (const auto& e : fs::recursive_directory_iterator(dir_))
    EXPECT_TRUE(e.path() == path("t.h5") || e.path() == path("t.h5.runs") || e.path() == path("t.h5.runs/sim-0.h5"))
        << e.path();
}

// Issue 24 (15): two counters whose names shared their first 63 bytes became
// one; a name the record cannot hold whole is refused, and nothing is written.
TEST_F(Store, CounterNamesAreKeptWholeOrRefused) {
  write_synthetic(path("t.h5"), SyntheticRun{});
  const std::string name63(63, 'c');
  {
    traces::RunInfo info;
    info.id = "long";
    traces::RunWriter w(path("t.h5"), info);
    w.add_counter(name63, 1);  // the longest that fits
    try {
      w.add_counter(name63 + "x", 2);
      FAIL() << "a 64-byte counter name was accepted";
    } catch (const traces::StoreError& e) {
      EXPECT_NE(std::string(e.what()).find("is 64 bytes; a store keeps names of at most 63"), std::string::npos) << e.what();
    }
  }  // not finished: the store keeps only its first run
  EXPECT_EQ(traces::Reader(path("t.h5")).run_ids(), std::vector<std::string>{"sim-0"});
}

// Issue 47 (5): a 2 MB text (an imported kernel's name) was written, then
// refused by every reader of the store.  The writer refuses what the reader
// would refuse (h5::kMaxStringAttributeBytes), the store keeps its runs,
// and the longest text that is accepted reads back whole.
TEST_F(Store, TextsTheReaderRefusesAreNotWritten) {
  write_synthetic(path("t.h5"), SyntheticRun{});
  traces::RunInfo info;
  info.id = "huge";
  info.kernel = std::string(2u << 20, 'k');
  try {
    traces::RunWriter w(path("t.h5"), info);
    w.finish();
    FAIL() << "a 2 MiB kernel name was written";
  } catch (const traces::StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("2097152 bytes is over the store's cap of 1048576 for one text"), std::string::npos)
        << e.what();
  }
  info.id = "longest";
  info.kernel = std::string(traces::h5::kMaxStringAttributeBytes, 'k');
  {
    traces::RunWriter w(path("t.h5"), info);
    w.finish();
  }
  const traces::Reader r(path("t.h5"));
  EXPECT_EQ(r.run_ids(), (std::vector<std::string>{"sim-0", "longest"}));
  EXPECT_EQ(r.run("longest").info.kernel.size(), traces::h5::kMaxStringAttributeBytes);
}

// A run id that names no file is refused before anything is written.
TEST(RunId, UsableOrRefused) {
  for (const std::string& id : {std::string("sweep-x-y"), std::string(traces::kMaxRunIdBytes, 'a')})
    EXPECT_NO_THROW(traces::check_run_id(id));
  for (const std::string& id : {std::string(), std::string("a/b"), std::string(".hidden"), std::string("new\nline"),
                               std::string(traces::kMaxRunIdBytes + 1, 'a')})
    EXPECT_THROW(traces::check_run_id(id), traces::StoreError) << id;
}

// Writers in several processes take turns: every run lands.
TEST_F(Store, ConcurrentWritersAllLand) {
  std::vector<pid_t> children;
  for (int c = 0; c < 3; ++c) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      for (int k = 0; k < 3; ++k) {
        SyntheticRun s;
        s.id = "p" + std::to_string(c) + "-" + std::to_string(k);
        s.events_per_wave = 20;
        write_synthetic(path("t.h5"), s);
      }
      _exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  std::vector<std::string> ids = traces::Reader(path("t.h5")).run_ids();
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (std::vector<std::string>{"p0-0", "p0-1", "p0-2", "p1-0", "p1-1", "p1-2", "p2-0", "p2-1", "p2-2"}));
}

// Forks a child that writes run `id` into `file` forever; returns its pid
// once its private file holds a megabyte (or after ten seconds).
pid_t spinning_writer(const std::string& file, const std::string& id) {
  pid_t child = fork();
  if (child == 0) {
    traces::RunInfo info;
    info.id = id;
    traces::RunWriter w(file, info, 1000);
    for (std::uint64_t k = 0;; ++k) w.add_event({static_cast<std::uint32_t>(k % 64), 0, 0, 0, 0, 0,
                                                 static_cast<std::int64_t>(k), static_cast<std::int64_t>(k + 1)});
  }
  const std::string partial = file + ".runs/" + id + ".h5.partial-" + std::to_string(child);
  for (int i = 0; i < 2000 && !(fs::exists(partial) && fs::file_size(partial) > (1 << 20)); ++i) usleep(5000);
  return child;
}

TEST_F(Store, KilledWriterLeavesEarlierRunsIntact) {
  write_synthetic(path("t.h5"), SyntheticRun{});
  const pid_t child = spinning_writer(path("t.h5"), "killed");
  ASSERT_GT(child, 0);
  const std::string partial = path("t.h5.runs/killed.h5") + ".partial-" + std::to_string(child);
  kill(child, SIGKILL);
  ASSERT_TRUE(fs::exists(partial));
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  traces::Reader r(path("t.h5"));
  EXPECT_EQ(r.run_ids(), std::vector<std::string>{"sim-0"});
  EXPECT_EQ(r.wave_events("sim-0", 7).size(), 100u);
  // A later writer is not disturbed by the leftover.
  SyntheticRun b;
  b.id = "after";
  write_synthetic(path("t.h5"), b);
  EXPECT_EQ(traces::Reader(path("t.h5")).run_ids(), (std::vector<std::string>{"sim-0", "after"}));
  // ... and removes the dead writer's private copy; no lock file outlives the writers.
  EXPECT_FALSE(fs::exists(partial));
  EXPECT_FALSE(fs::exists(path("t.h5") + ".lock"));
}

// Issue 24, item 1: a store renamed (or copied) keeps its runs when a new
// store of the old name is written; nothing another index may link is removed.
TEST_F(Store, RenamedStoreKeepsItsRunsWhenTheOldNameIsWrittenAgain) {
  for (int k = 0; k < 10; ++k) {
    SyntheticRun s;
    s.id = "r" + std::to_string(k);
    s.events_per_wave = 10;
    write_synthetic(path("s.h5"), s);
  }
  fs::rename(path("s.h5"), path("backup.h5"));
  fs::copy_file(path("backup.h5"), path("copy.h5"));
  SyntheticRun again;
  again.id = "r3";  // an id the renamed store also has: its file must not be replaced
  again.median_ns = 777;
  write_synthetic(path("s.h5"), again);
  for (const char* name : {"backup.h5", "copy.h5"}) {
    traces::Reader old(path(name));
    ASSERT_EQ(old.run_ids().size(), 10u) << name;
    for (const std::string& id : old.run_ids()) {
      EXPECT_EQ(old.wave_events(id, 2).size(), 10u) << name << " " << id;
      EXPECT_EQ(old.run(id).summary->median_ns, 1000) << name << " " << id;
    }
  }
  traces::Reader fresh(path("s.h5"));
  EXPECT_EQ(fresh.run_ids(), std::vector<std::string>{"r3"});
  EXPECT_EQ(fresh.run("r3").summary->median_ns, 777);
  EXPECT_TRUE(fs::exists(path("s.h5.runs/r3-2.h5")));  // the taken name was not reused
  // The store and its folder renamed together: the links still say s.h5.runs/.
  fs::rename(path("backup.h5"), path("moved.h5"));
  fs::create_directories(path("elsewhere"));
  fs::rename(path("s.h5.runs"), path("elsewhere/moved.h5.runs"));
  fs::rename(path("moved.h5"), path("elsewhere/moved.h5"));
  traces::Reader moved(path("elsewhere/moved.h5"));
  EXPECT_EQ(moved.wave_events("r7", 1).size(), 10u);
  // A store whose run file is truly gone says which file it needs.
  EXPECT_EQ(error_of([&] { traces::Reader(path("copy.h5")).run("r1"); }),
            "run 'r1' of '" + path("copy.h5") + "' is stored in '" + path("s.h5.runs/r1.h5") + "', which is missing");
}

TEST_F(Store, ASymlinkedRunsFolderKeepsItsOtherFiles) {
  fs::create_directories(path("shared"));
  std::ofstream(path("shared/notes.txt")) << "mine";
  std::ofstream(path("shared/old.h5")) << "someone else's";
  std::ofstream(path("shared/x.h5.partial-1")) << "not the store's either";
  fs::create_directory_symlink(path("shared"), path("t.h5.runs"));
  write_synthetic(path("t.h5"), SyntheticRun{});
  SyntheticRun b;
  b.id = "b";
  write_synthetic(path("t.h5"), b);
  EXPECT_TRUE(fs::exists(path("shared/notes.txt")));
  EXPECT_TRUE(fs::exists(path("shared/old.h5")));
  EXPECT_TRUE(fs::exists(path("shared/x.h5.partial-1")));
  EXPECT_EQ(traces::Reader(path("t.h5")).wave_events("b", 0).size(), 100u);
}

// The journal protocol, with journals a dead writer would have left: the
// partial copies go; a finished run file goes only when the journal shows
// the index was not yet being published; a file named by something that is
// not a journal is never touched.
TEST_F(Store, ADeadWritersJournalRemovesOnlyItsOwnAbandonedFiles) {
  write_synthetic(path("t.h5"), SyntheticRun{});
  auto touch = [&](const std::string& name) { std::ofstream(path(name)) << "x"; };
  touch("t.h5.runs/a.h5.partial-99");
  touch("t.h5.runs/a.h5");
  touch("t.h5.partial-99");
  std::ofstream(path("t.h5.journal-99-0")) << "tilelab-store-journal 1\npartial t.h5.runs/a.h5.partial-99\n"
                                               "final t.h5.runs/a.h5\npartial t.h5.partial-99\n";
  touch("t.h5.runs/b.h5");
  std::ofstream(path("t.h5.journal-98-0")) << "tilelab-store-journal 1\nfinal t.h5.runs/b.h5\npublishing\n";
  touch("t.h5.runs/c.h5");
  std::ofstream(path("t.h5.journal-97-0")) << "a note of mine\nfinal t.h5.runs/c.h5\n";
  touch("t.h5.runs/d.h5");
  std::ofstream(path("t.h5.journal-96-0")) << "tilelab-store-journal 1\nfinal t.h5.runs/d.h5";  // cut short
  SyntheticRun b;
  b.id = "next";
  write_synthetic(path("t.h5"), b);
  EXPECT_FALSE(fs::exists(path("t.h5.runs/a.h5.partial-99")));
  EXPECT_FALSE(fs::exists(path("t.h5.runs/a.h5")));
  EXPECT_FALSE(fs::exists(path("t.h5.partial-99")));
  EXPECT_FALSE(fs::exists(path("t.h5.journal-99-0")));
  EXPECT_TRUE(fs::exists(path("t.h5.runs/b.h5")));     // some index may link it
  EXPECT_FALSE(fs::exists(path("t.h5.journal-98-0")));
  EXPECT_TRUE(fs::exists(path("t.h5.runs/c.h5")));     // not a journal: nothing of it is ours
  EXPECT_TRUE(fs::exists(path("t.h5.journal-97-0")));
  EXPECT_TRUE(fs::exists(path("t.h5.runs/d.h5")));     // the line was never finished
  EXPECT_EQ(traces::Reader(path("t.h5")).run_ids(), (std::vector<std::string>{"sim-0", "next"}));
}

// Issue 24, item 3: a batch lands whole or not at all.
TEST_F(Store, ABatchIsPublishedWholeOrNotAtAll) {
  write_synthetic(path("t.h5"), SyntheticRun{});
  auto add = [](traces::RunBatch& batch, const std::string& id) {
    traces::RunInfo info;
    info.id = id;
    traces::RunWriter w = batch.add(info);
    w.add_counter("SQ_WAVES", 4);
    w.finish();
  };
  {
    traces::RunBatch batch(path("t.h5"));
    add(batch, "a");
    add(batch, "b");
    EXPECT_EQ(error_of([&] { add(batch, "a"); }), "'" + path("t.h5") + "' would get two runs 'a'");
    EXPECT_EQ(error_of([&] { add(batch, "sim-0"); }), "'" + path("t.h5") + "' already has a run 'sim-0'");
  }  // not published
  EXPECT_EQ(traces::Reader(path("t.h5")).run_ids(), std::vector<std::string>{"sim-0"});
  for (const auto& e : fs::recursive_directory_iterator(dir_))
    EXPECT_TRUE(e.path() == path("t.h5") || e.path() == path("t.h5.runs") || e.path() == path("t.h5.runs/sim-0.h5"))
        << e.path();
  {
    traces::RunBatch batch(path("t.h5"));
    add(batch, "a");
    add(batch, "b");
    batch.publish();
  }
  traces::Reader r(path("t.h5"));
  EXPECT_EQ(r.run_ids(), (std::vector<std::string>{"sim-0", "a", "b"}));
  EXPECT_EQ(r.counters("b").at("SQ_WAVES"), 4);
}

// Runs of one store adopted by another (a sweep's shards merged): the runs
// read back the same, in the order asked, the source is left as it was, and a
// taken id or a missing one changes nothing.
TEST_F(Store, AdoptedRunsReadBackTheSameAndTheSourceIsUntouched) {
  SyntheticRun a, b;
  a.id = "a", b.id = "b", b.waves = 3, b.median_ns = 2000;
  write_synthetic(path("shard.h5"), a);
  write_synthetic(path("shard.h5"), b);
  SyntheticRun own;
  own.id = "own";
  write_synthetic(path("out.h5"), own);
  traces::adopt_runs(path("out.h5"), path("shard.h5"), {"b", "a"});
  traces::Reader out(path("out.h5")), shard(path("shard.h5"));
  EXPECT_EQ(out.run_ids(), (std::vector<std::string>{"own", "b", "a"}));
  EXPECT_EQ(shard.run_ids(), (std::vector<std::string>{"a", "b"}));
  for (const std::string id : {"a", "b"}) {
    EXPECT_EQ(out.waves(id).size(), shard.waves(id).size()) << id;
    EXPECT_EQ(out.run(id).summary->median_ns, shard.run(id).summary->median_ns) << id;
    EXPECT_EQ(out.run(id).events, shard.run(id).events) << id;
  }
  EXPECT_EQ(out.waves("b").size(), 3u);
  // The shard can go: out's runs stay readable.
  fs::remove_all(path("shard.h5.runs"));
  fs::remove(path("shard.h5"));
  EXPECT_EQ(traces::Reader(path("out.h5")).run("b").summary->median_ns, 2000);
  write_synthetic(path("shard2.h5"), a);
  EXPECT_EQ(error_of([&] { traces::adopt_runs(path("out.h5"), path("shard2.h5"), {"a"}); }),
            "'" + path("out.h5") + "' already has a run 'a'");
  EXPECT_EQ(error_of([&] { traces::adopt_runs(path("out.h5"), path("shard2.h5"), {"zz"}); }),
            "no run 'zz' in '" + path("shard2.h5") + "'");
  EXPECT_EQ(traces::Reader(path("out.h5")).run_ids(), (std::vector<std::string>{"own", "b", "a"}));
  for (const auto& e : fs::directory_iterator(path("out.h5.runs")))
    EXPECT_EQ(e.path().string().find(".partial-"), std::string::npos) << e.path();
}

// SIGINT, SIGTERM and SIGHUP remove the writer's private copy.
TEST_F(Store, InterruptedWriterRemovesItsCopy) {
  write_synthetic(path("t.h5"), SyntheticRun{});
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    const pid_t child = spinning_writer(path("t.h5"), "interrupted");
    ASSERT_GT(child, 0);
    const std::string partial = path("t.h5.runs/interrupted.h5") + ".partial-" + std::to_string(child);
    if (!fs::exists(partial)) kill(child, SIGKILL);  // never leave the child running
    ASSERT_TRUE(fs::exists(partial));
    kill(child, sig);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << sig;
    EXPECT_FALSE(fs::exists(partial)) << "signal " << sig;
  }
  EXPECT_EQ(traces::Reader(path("t.h5")).run_ids(), std::vector<std::string>{"sim-0"});
}

// A second writer says it waits, and gives up after its wait with one line.
TEST_F(Store, WaitingForTheLockSaysSoAndTimesOut) {
  write_synthetic(path("t.h5"), SyntheticRun{});
  traces::RunInfo first;
  first.id = "first";
  traces::RunWriter holder(path("t.h5"), first);
  std::string notice;
  traces::WriterOptions o;
  o.wait_seconds = 0.2;
  o.on_wait = [&](const std::string& n) { notice = n; };
  traces::RunInfo second;
  second.id = "second";
  const std::string e = error_of([&] { traces::RunWriter w(path("t.h5"), second, o); });
  EXPECT_EQ(notice, "waiting for another writer of '" + path("t.h5") + "' to finish");
  EXPECT_EQ(e, "'" + path("t.h5") + "' is being written by another process; waited 0.2 s (--wait SECONDS waits longer)");
  // A duplicate id is refused before any work, by check_new_run.
  EXPECT_EQ(error_of([&] { traces::check_new_run(path("t.h5"), "sim-0"); }), "'" + path("t.h5") + "' already has a run 'sim-0'");
  EXPECT_EQ(error_of([&] { traces::check_new_run(path("t.h5"), "fresh"); }), "no error");
}

TEST_F(Store, BadFilesGetOneClearLine) {
  EXPECT_EQ(error_of([&] { traces::Reader(path("missing.h5")); }), "no such file '" + path("missing.h5") + "'");
  std::ofstream(path("text.h5")) << "not hdf5";
  EXPECT_EQ(error_of([&] { traces::Reader(path("text.h5")); }),
            "'" + path("text.h5") + "' is not a readable HDF5 file");
  write_synthetic(path("t.h5"), SyntheticRun{});
  EXPECT_EQ(error_of([&] { traces::Reader(path("t.h5")).run("nope"); }),
            "no run 'nope' in '" + path("t.h5") + "' (runs: sim-0)");
  // A store from the future.
  {
    SyntheticRun s;
    write_synthetic(path("future.h5"), s);
    hid_t f = H5Fopen(path("future.h5").c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t a = H5Aopen(f, "tilelab_schema_version", H5P_DEFAULT);
    std::int64_t v = 7;
    H5Awrite(a, H5T_NATIVE_INT64, &v);
    H5Aclose(a);
    H5Fclose(f);
  }
  EXPECT_EQ(error_of([&] { traces::Reader(path("future.h5")); }),
            "'" + path("future.h5") + "' uses trace schema v7, newer than this tilelab (v2); update tilelab to read it");
  // A plain HDF5 file that is not a store.
  H5Fclose(H5Fcreate(path("plain.h5").c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  EXPECT_EQ(error_of([&] { traces::Reader(path("plain.h5")); }),
            "'" + path("plain.h5") + "' is an HDF5 file but not a tilelab trace store (no tilelab_schema_version)");
  EXPECT_NE(error_of([&] { write_synthetic(path("plain.h5"), SyntheticRun{}); }), "no error");
}

// Damaged files: bytes flipped or the file cut short.  Reading every part of
// every run must give data or a StoreError — never a crash (the sanitizer
// build checks for memory errors) — and never modify the file.
// Issue 24 (5): a run file whose table declares 2^40 rows in a few kilobytes
// is refused before anything is allocated (it was std::bad_alloc).
TEST_F(Store, ATableDeclaringMoreRowsThanItStoresIsRefused) {
  SyntheticRun s;
  s.waves = 4;
  write_synthetic(path("big.h5"), s);
  {
    const hid_t f = H5Fopen(path("big.h5.runs/sim-0.h5").c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    const hid_t ds = H5Dopen2(f, "run/waves", H5P_DEFAULT);
    ASSERT_GE(ds, 0);
    const hsize_t rows = hsize_t{1} << 40;
    ASSERT_GE(H5Dset_extent(ds, &rows), 0);  // chunked: nothing is allocated
    H5Dclose(ds);
    H5Fclose(f);
  }
  traces::Reader r(path("big.h5"));
  try {
    r.waves("sim-0");
    FAIL() << "2^40 declared rows were read";
  } catch (const traces::StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("/sim-0/waves declares 1099511627776 rows, more than its 171 stored bytes"), std::string::npos)
        << e.what();
  }
}

TEST_F(Store, DamagedFilesAreRefusedNotCrashedOn) {
  SyntheticRun s;
  s.waves = 4;
  s.events_per_wave = 2000;
  write_synthetic(path("good.h5"), s);
  // Damage the store's index (even trials) or the run's own file (odd trials).
  const std::string files[2] = {path("good.h5"), path("good.h5.runs/sim-0.h5")};
  std::string good[2];
  for (int f = 0; f < 2; ++f) {
    std::ifstream in(files[f], std::ios::binary);
    good[f] = std::string((std::istreambuf_iterator<char>(in)), {});
  }
  std::mt19937 rng(5);
  int refused = 0, read = 0;
  const char* env = std::getenv("TILELAB_DAMAGE_TRIALS");  // a longer run: e.g. 5000
  const int trials = env ? std::atoi(env) : 150;
  for (int trial = 0; trial < trials; ++trial) {
    const int f = trial % 2;
    std::string bad = good[f];
    if (trial % 3 == 0) {
      bad.resize(rng() % bad.size());
    } else {
      for (int k = 0; k < 1 + trial % 8; ++k) bad[rng() % bad.size()] ^= static_cast<char>(1 + rng() % 255);
    }
    std::ofstream(files[f], std::ios::binary | std::ios::trunc) << bad;
    std::ofstream(files[1 - f], std::ios::binary | std::ios::trunc) << good[1 - f];
    try {
      traces::Reader r(files[0]);
      for (const std::string& id : r.run_ids()) {
        r.run(id);
        r.waves(id);
        r.lds(id);
        r.counters(id);
        r.opcode_names(id);
        for (std::uint32_t w = 0; w < 4; ++w) r.wave_events(id, w);
      }
      ++read;
    } catch (const traces::StoreError&) {
      ++refused;
    }
    std::ifstream again(files[f], std::ios::binary);
    std::string after((std::istreambuf_iterator<char>(again)), {});
    ASSERT_EQ(after, bad) << "a reader modified the file";
  }
  EXPECT_GT(refused, 0);
  EXPECT_EQ(refused + read, trials);
}

TEST_F(Store, CompareFindsTheKnownDifferences) {
  SyntheticRun a, b;
  b.id = "hw-0";
  b.kind = "hw";
  b.valu_cycles = 8;  // VALU instructions take twice as long on "hardware"
  b.lds_conflicts = 0;
  b.median_ns = 1500;
  write_synthetic(path("t.h5"), a);
  write_synthetic(path("t.h5"), b);
  traces::Reader r(path("t.h5"));
  traces::Comparison c = traces::compare(r, "sim-0", "hw-0", traces::CompareBy::kClass, false);
  EXPECT_DOUBLE_EQ(c.time_ratio, 1.5);
  EXPECT_EQ(c.rows.at("VALU").first.instructions, 200u);  // 8 waves x 25 VALU each
  EXPECT_EQ(c.rows.at("VALU").first.cycles, 800);
  EXPECT_EQ(c.rows.at("VALU").second.cycles, 1600);
  EXPECT_EQ(c.rows.at("LDS").first.cycles, c.rows.at("LDS").second.cycles);
  EXPECT_EQ(c.rows.at("SALU").first.stall, c.rows.at("SALU").second.stall);
  EXPECT_EQ(c.lds_conflicts_a, 12u);
  EXPECT_EQ(c.lds_conflicts_b, 0u);
  EXPECT_EQ(c.counters.size(), 2u);  // GRBM_GUI_ACTIVE is only in the hw run
  EXPECT_EQ(c.counters.at("SQ_WAVES").second, 8);
  traces::Comparison by_wave = traces::compare(r, "sim-0", "hw-0", traces::CompareBy::kWave, false);
  EXPECT_EQ(by_wave.rows.size(), 8u);
  traces::Comparison by_pc = traces::compare(r, "sim-0", "hw-0", traces::CompareBy::kPc, false);
  EXPECT_EQ(by_pc.rows.size(), 32u);
  EXPECT_EQ(by_pc.rows.count("0x000000 op0"), 1u);

  SyntheticRun other;
  other.id = "other";
  other.shape = "M=512,N=256,K=64";
  write_synthetic(path("t.h5"), other);
  EXPECT_EQ(error_of([&] { traces::compare(r, "sim-0", "other", traces::CompareBy::kClass, false); }),
            "no run 'other' in '" + path("t.h5") + "' (runs: sim-0, hw-0)");  // r was opened before the append
  traces::Reader r2(path("t.h5"));
  EXPECT_EQ(error_of([&] { traces::compare(r2, "sim-0", "other", traces::CompareBy::kClass, false); }),
            "runs differ in problem shape ('M=256,N=256,K=64' vs 'M=512,N=256,K=64'); use --force to compare anyway");
  EXPECT_NO_THROW(traces::compare(r2, "sim-0", "other", traces::CompareBy::kClass, true));
}

TEST_F(Store, PerfettoHasATrackPerWaveAndASlicePerInstruction) {
  SyntheticRun s;
  write_synthetic(path("t.h5"), s);
  traces::Reader r(path("t.h5"));
  std::ostringstream out;
  traces::PerfettoStats st = traces::export_perfetto(r, "sim-0", out);
  std::string j = out.str();
  auto count = [&](const std::string& what) {
    int n = 0;
    for (std::size_t p = j.find(what); p != std::string::npos; p = j.find(what, p + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("\"name\":\"thread_name\""), 8);
  EXPECT_EQ(count("\"name\":\"process_name\""), 4);  // CUs 0 and 1, XCDs 0 and 1
  // Counter tracks: per XCD 2 windows x 2 tracks, and a closing 0 on each track at cycle 2048.
  EXPECT_EQ(st.counter_samples, 12u);
  EXPECT_EQ(count("\"ph\":\"C\""), 12);
  EXPECT_NE(j.find("{\"ph\":\"C\",\"name\":\"L2 hit %\",\"pid\":50000,\"ts\":0,\"args\":{\"value\":75}}"), std::string::npos);
  EXPECT_NE(j.find("{\"ph\":\"C\",\"name\":\"L2 hit %\",\"pid\":50000,\"ts\":1024,\"args\":{\"value\":25}}"), std::string::npos);
  EXPECT_NE(j.find("{\"ph\":\"C\",\"name\":\"HBM bytes/clock\",\"pid\":50001,\"ts\":0,\"args\":{\"value\":0.5}}"), std::string::npos);
  EXPECT_NE(j.find("{\"ph\":\"C\",\"name\":\"HBM bytes/clock\",\"pid\":50001,\"ts\":2048,\"args\":{\"value\":0}}"), std::string::npos);
  EXPECT_NE(j.find("\"args\":{\"name\":\"XCD 1\"}"), std::string::npos);
  const std::vector<traces::XcdCounterRecord> xc = r.xcd_counters("sim-0");
  ASSERT_EQ(xc.size(), 4u);
  EXPECT_TRUE(xc[3].xcd == 1 && xc[3].start == 1024 && xc[3].cycles == 1024 && xc[3].l2_requests == 8 &&
              xc[3].l2_hits == 8 && xc[3].hbm_bytes == 1024);
  SyntheticRun hw;
  hw.kind = "hw";
  hw.id = "hw-0";
  write_synthetic(path("hw.h5"), hw);
  EXPECT_TRUE(traces::Reader(path("hw.h5")).xcd_counters("hw-0").empty());  // runs without the chip have no table
  EXPECT_EQ(count("\"cat\":\"instruction\""), 800);
  EXPECT_EQ(count("\"cat\":\"stall\""), 8 * 34);     // every third event stalls
  EXPECT_EQ(st.group, 1u);
  // On each wave's track no two slices overlap; what is still in flight when
  // the wave moves on is an async begin/end pair.
  std::uint64_t in_flight = 0;
  for (std::uint32_t w = 0; w < 8; ++w) {
    const auto ev = r.wave_events("sim-0", w);
    for (std::size_t i = 0; i + 1 < ev.size(); ++i)
      in_flight += ev[i].complete > ev[i + 1].issue - static_cast<std::int64_t>(ev[i + 1].stall);
  }
  EXPECT_GT(in_flight, 0u);
  EXPECT_EQ(count("\"ph\":\"b\""), static_cast<int>(in_flight));
  EXPECT_EQ(count("\"ph\":\"e\""), static_cast<int>(in_flight));
  std::ostringstream grouped;
  st = traces::export_perfetto(r, "sim-0", grouped, 100);
  EXPECT_EQ(st.group, 8u);
  EXPECT_NE(grouped.str().find("\"name\":\"8 instructions\""), std::string::npos);
}

}  // namespace
}  // namespace tilelab
