#include "traces/perfetto.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>
#include <string_view>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "traces/analysis.hpp"

namespace tilelab::traces {

namespace {

// What a timeline export writes, in the order the walk calls it.
class TimelineWriter {
 public:
  virtual ~TimelineWriter() = default;
  virtual void process(std::uint64_t pid, const std::string& name) = 0;
  virtual void track(std::uint64_t pid, std::uint64_t tid, const std::string& name) = 0;
  // An operation from issue to completion; it may overlap others of its wave.
  virtual void in_flight(std::uint64_t pid, std::uint64_t tid, const std::string& name, std::int64_t begin,
                         std::int64_t end) = 0;
  // A slice on a wave's track (never overlapping another of that track);
  // an instruction's carries its pc and stall cycles.
  struct Instruction {
    std::uint64_t pc, stall;
  };
  virtual void slice(std::uint64_t pid, std::uint64_t tid, const char* category, const std::string& name,
                     std::int64_t ts, std::int64_t dur, const Instruction* instruction) = 0;
  virtual void counter(std::uint64_t pid, const char* name, std::int64_t ts, double value) = 0;
  // The next run's clock: its times are cycles of a `clock_mhz` clock (0: in
  // ns, or cycles of a clock the run does not record).
  virtual void run_clock(double clock_mhz) { (void)clock_mhz; }
};

// The clock a run's cycles count (a cycle-model run records it in its
// config), or 0 when its times are ns or the clock is not recorded.
double run_clock_mhz(const Reader& r, const std::string& run) {
  const RunView v = r.run(run);
  if (v.info.time_unit != "cycles") return 0;
  const nlohmann::json cfg = nlohmann::json::parse(v.info.config_json, nullptr, false);
  if (!cfg.is_object() || !cfg.contains("clock_mhz") || !cfg["clock_mhz"].is_number()) return 0;
  const double mhz = cfg["clock_mhz"].get<double>();
  return mhz > 0 && mhz < 1e6 ? mhz : 0;
}

// The chip's counters over time (a cycle-model run's `xcd_counters`): per
// XCD a process "XCD n" with two counter tracks, the L2 hit rate (%) and the
// bytes moved to and from HBM per clock, one sample per window and a last
// one of 0 where the run's windows end.
// The times a trace can show: a stored run is input, and an event time near
// the int64 limits would wrap in the differences taken below (and in the
// clock's ns), writing timestamps that are not the run's.
constexpr std::int64_t kMaxEventTime = std::int64_t{1} << 52;  // 52 bits: exact as a double, ns or cycles
void check_event_time(const std::string& run, std::uint32_t wave, const EventRecord& e) {
  const bool ok = e.issue >= 0 && e.issue <= kMaxEventTime && e.complete >= 0 && e.complete <= kMaxEventTime;
  if (!ok)
    throw StoreError("run '" + run + "': wave " + std::to_string(wave) + " has an event at " + std::to_string(e.issue) +
                     " to " + std::to_string(e.complete) + " (stall " + std::to_string(e.stall) +
                     "), outside the times a trace can show (0 to 2^52)");
}

void walk_xcd_counters(const Reader& r, const std::string& run, std::uint64_t pid_base, const std::string& label,
                       TimelineWriter& w, PerfettoStats& st) {
  const std::vector<XcdCounterRecord> rows = r.xcd_counters(run);
  std::map<std::uint16_t, std::int64_t> end;  // per XCD, where its last window ends
  auto sample = [&](std::uint64_t pid, std::int64_t ts, const char* name, double value) {
    w.counter(pid, name, ts, value);
    ++st.counter_samples;
  };
  for (const XcdCounterRecord& x : rows) {
    if (x.start < 0 || x.start > kMaxEventTime || x.cycles < 0 || x.cycles > kMaxEventTime)
      throw StoreError("run '" + run + "': XCD " + std::to_string(x.xcd) + " has a counter window at " +
                       std::to_string(x.start) + " of " + std::to_string(x.cycles) +
                       " cycles, outside the times a trace can show (0 to 2^52)");
    const std::uint64_t pid = pid_base + kXcdPidOffset + x.xcd;
    if (!end.count(x.xcd)) w.process(pid, label + "XCD " + std::to_string(x.xcd));
    sample(pid, x.start, "L2 hit %", x.l2_requests ? 100.0 * static_cast<double>(x.l2_hits) / static_cast<double>(x.l2_requests) : 0);
    sample(pid, x.start, "HBM bytes/clock", x.cycles > 0 ? static_cast<double>(x.hbm_bytes) / static_cast<double>(x.cycles) : 0);
    end[x.xcd] = std::max(end[x.xcd], x.start + x.cycles);
  }
  for (const auto& [xcd, ts] : end) {
    sample(pid_base + kXcdPidOffset + xcd, ts, "L2 hit %", 0);
    sample(pid_base + kXcdPidOffset + xcd, ts, "HBM bytes/clock", 0);
  }
}

// One run's waves and instructions, its CUs as processes pid_base + CU named
// "<label>CU n", `group` instructions of a wave per slice.
void walk_run(const Reader& r, const std::string& run, std::uint64_t group, std::uint64_t pid_base,
              const std::string& label, TimelineWriter& out, PerfettoStats& st) {
  const std::vector<std::string> opcodes = r.opcode_names(run), reasons = r.stall_reason_names(run);
  const std::vector<WaveRecord> waves = r.waves(run);
  out.run_clock(run_clock_mhz(r, run));
  std::map<std::uint16_t, bool> cus;
  for (const WaveRecord& w : waves) cus[w.cu] = true;
  for (const auto& [cu, unused] : cus) out.process(pid_base + cu, label + "CU " + std::to_string(cu));
  for (const WaveRecord& w : waves)
    out.track(pid_base + w.cu, w.wave,
              "SIMD " + std::to_string(int(w.simd)) + " slot " + std::to_string(int(w.slot)) + " wave " + std::to_string(w.wave));
  // Slices, wave by wave (so grouping merges one wave's consecutive instructions).
  // On a wave's track the slices never overlap: an instruction's slice ends
  // where the next one's first attempt begins; an operation still in flight
  // then (a load, an MFMA) is drawn as an in-flight slice from issue to
  // completion, on tracks of its own.
  r.for_each_wave_events(run, [&](const WaveRecord& w, const std::vector<EventRecord>& ev) {
    const std::uint64_t pid = pid_base + w.cu;
    for (const EventRecord& e : ev) check_event_time(run, w.wave, e);
    for (std::size_t i = 0; i < ev.size(); i += group) {
      const std::size_t end = std::min(ev.size(), i + group);
      const std::int64_t begin = ev[i].issue;
      std::int64_t finish = ev[i].complete;
      std::uint64_t stall = 0;
      for (std::size_t k = i; k < end; ++k) {
        finish = std::max(finish, ev[k].complete);
        stall += ev[k].stall;
      }
      if (end < ev.size()) {
        const std::int64_t next_attempt = ev[end].issue - static_cast<std::int64_t>(ev[end].stall);
        if (group == 1 && finish > next_attempt && next_attempt >= begin)
          out.in_flight(pid, w.wave, name_or(opcodes, ev[i].opcode, "op "), begin, finish);
        if (next_attempt >= begin) finish = std::min(finish, next_attempt);
      }
      if (ev[i].stall > 0 && group == 1) {
        out.slice(pid, w.wave, "stall", "stall: " + name_or(reasons, ev[i].stall_reason, "reason "),
                  begin - static_cast<std::int64_t>(ev[i].stall), static_cast<std::int64_t>(ev[i].stall), nullptr);
        ++st.slices;
      }
      const std::string name = group == 1 ? name_or(opcodes, ev[i].opcode, "op ") : std::to_string(end - i) + " instructions";
      const TimelineWriter::Instruction in{ev[i].pc, stall};
      out.slice(pid, w.wave, "instruction", name, begin, std::max<std::int64_t>(finish - begin, 0), &in);
      ++st.slices;
    }
  });
  walk_xcd_counters(r, run, pid_base, label, out, st);
}

// The walk over several runs: run i's CUs are processes i x 100000 + CU,
// named "<run>: CU n", so Perfetto shows them as parallel groups of tracks.
// Returns the stats; `names` and `units` list the runs and their time units.
PerfettoStats plan(const Reader& r, const std::vector<std::string>& runs, std::uint64_t max_slices,
                   std::vector<std::uint64_t>& groups, std::string& names, std::string& units) {
  PerfettoStats st;
  const std::uint64_t budget = std::max<std::uint64_t>(max_slices / std::max<std::size_t>(runs.size(), 1), 1);
  for (const std::string& run : runs) {
    const RunView v = r.run(run);
    st.events += v.events;
    groups.push_back(std::max<std::uint64_t>(1, (v.events + budget - 1) / budget));
    st.group = std::max(st.group, groups.back());
    names += (names.empty() ? "" : ", ") + run;
    units += (units.empty() ? "" : ", ") + v.info.time_unit;
  }
  return st;
}

void walk(const Reader& r, const std::vector<std::string>& runs, const std::vector<std::uint64_t>& groups,
          TimelineWriter& w, PerfettoStats& st) {
  for (std::size_t i = 0; i < runs.size(); ++i)
    walk_run(r, runs[i], groups[i], 100000 * i, runs.size() > 1 ? runs[i] + ": " : "", w, st);
}

// ---- Chrome trace-event JSON ------------------------------------------------

std::string json_escape(const std::string& s) {
  std::string o;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') o += '\\';
    if (static_cast<unsigned char>(ch) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", ch);
      o += buf;
      continue;
    }
    o += ch;
  }
  return o;
}

class JsonWriter final : public TimelineWriter {
 public:
  explicit JsonWriter(std::ostream& o) : o_(o) {}
  void process(std::uint64_t pid, const std::string& name) override {
    emit("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + std::to_string(pid) + ",\"args\":{\"name\":\"" +
         json_escape(name) + "\"}}");
  }
  void track(std::uint64_t pid, std::uint64_t tid, const std::string& name) override {
    emit("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
         ",\"args\":{\"name\":\"" + json_escape(name) + "\"}}");
  }
  void in_flight(std::uint64_t pid, std::uint64_t tid, const std::string& name, std::int64_t begin,
                 std::int64_t end) override {
    std::ostringstream a;
    a << "{\"ph\":\"b\",\"cat\":\"in flight\",\"name\":\"" << json_escape(name) << "\",\"id\":" << async_id_
      << ",\"pid\":" << pid << ",\"tid\":" << tid << ",\"ts\":" << begin << "},\n"
      << "{\"ph\":\"e\",\"cat\":\"in flight\",\"name\":\"" << json_escape(name) << "\",\"id\":" << async_id_
      << ",\"pid\":" << pid << ",\"tid\":" << tid << ",\"ts\":" << end << "}";
    emit(a.str());
    ++async_id_;
  }
  void slice(std::uint64_t pid, std::uint64_t tid, const char* category, const std::string& name, std::int64_t ts,
             std::int64_t dur, const Instruction* in) override {
    std::ostringstream s;
    s << "{\"ph\":\"X\",\"cat\":\"" << category << "\",\"name\":\"" << json_escape(name) << "\",\"pid\":" << pid
      << ",\"tid\":" << tid << ",\"ts\":" << ts << ",\"dur\":" << dur;
    if (in) s << ",\"args\":{\"pc\":" << in->pc << ",\"stall\":" << in->stall << "}";
    s << "}";
    emit(s.str());
  }
  void counter(std::uint64_t pid, const char* name, std::int64_t ts, double value) override {
    std::ostringstream c;
    c << "{\"ph\":\"C\",\"name\":\"" << name << "\",\"pid\":" << pid << ",\"ts\":" << ts << ",\"args\":{\"value\":"
      << value << "}}";
    emit(c.str());
  }

 private:
  void emit(const std::string& e) {
    o_ << (first_ ? "" : ",\n") << e;
    first_ = false;
  }
  std::ostream& o_;
  bool first_ = true;
  std::uint64_t async_id_ = 0;
};

// ---- Perfetto's protobuf trace ---------------------------------------------
//
// Field numbers of perfetto/protos (trace.proto, trace_packet.proto,
// track_event/track_descriptor.proto, track_event.proto, interned_data.proto,
// debug_annotation.proto): the messages and the few fields written here.
namespace pf {
constexpr int kTracePacket = 1;                 // Trace.packet
constexpr int kTimestamp = 8, kSequenceId = 10, kTrackEvent = 11, kInternedData = 12, kSequenceFlags = 13,
              kTracePacketDefaults = 59, kTrackDescriptor = 60;  // TracePacket
constexpr int kTrackEventDefaults = 11;         // TracePacketDefaults (TrackEventDefaults.track_uuid = 11)
constexpr int kUuid = 1, kTrackName = 2, kProcess = 3, kParentUuid = 5, kCounter = 8;  // TrackDescriptor
constexpr int kPid = 1, kProcessName = 6;       // ProcessDescriptor
constexpr int kDebugAnnotations = 4, kType = 9, kNameIid = 10, kTrackUuid = 11, kDoubleCounterValue = 44;  // TrackEvent
constexpr int kSliceBegin = 1, kSliceEnd = 2, kCounterType = 4;  // TrackEvent.Type
constexpr int kEventNames = 2, kDebugAnnotationNames = 3;        // InternedData
constexpr int kIid = 1, kName = 2;              // EventName, DebugAnnotationName
constexpr int kAnnotationNameIid = 1, kUintValue = 3;  // DebugAnnotation
constexpr int kIncrementalStateCleared = 1;  // TracePacket.SequenceFlags
}  // namespace pf

// A message in protobuf's wire format (varints, length-delimited fields, doubles).
class Proto {
 public:
  Proto& uint(int field, std::uint64_t v) {
    key(field, 0);
    varint(v);
    return *this;
  }
  Proto& text(int field, std::string_view s) {
    key(field, 2);
    varint(s.size());
    bytes_.append(s);
    return *this;
  }
  Proto& message(int field, const Proto& m) { return text(field, m.bytes_); }
  Proto& real(int field, double v) {
    key(field, 1);
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    for (int i = 0; i < 8; ++i) bytes_.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
    return *this;
  }
  const std::string& bytes() const { return bytes_; }

 private:
  void key(int field, int wire) { varint(static_cast<std::uint64_t>(field) << 3 | static_cast<std::uint64_t>(wire)); }
  void varint(std::uint64_t v) {
    while (v >= 0x80) {
      bytes_.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    bytes_.push_back(static_cast<char>(v));
  }
  std::string bytes_;
};

// Sequences: sequence 1 holds the track descriptors and the counters; each
// wave's slices are a sequence of their own whose defaults (written on its
// first packet, which also clears its incremental state) name the wave's
// track, so a slice's packets carry no track.  Names are interned per
// sequence (each event name and the three annotation names sent once, on the
// packet that first uses them).  Tracks: a process track per CU or XCD, a
// child track per wave, "in flight" child tracks per wave as many as its
// overlapping operations need (a track's slices must nest; these events name
// their track), a counter track per XCD counter.  Timestamps in ns: a run's
// cycles at the clock it records (a cycle-model run's clock under load),
// each instruction's issue cycle kept as its "cycle" argument; a run in ns
// as it is; a run in cycles of an unrecorded clock (a thread trace) one
// cycle = 1 ns.
class ProtoWriter final : public TimelineWriter {
 public:
  explicit ProtoWriter(std::ostream& o) : o_(o) {}
  void process(std::uint64_t pid, const std::string& name) override {
    Proto p;
    p.uint(pf::kPid, pid).text(pf::kProcessName, name);
    Proto d;
    d.uint(pf::kUuid, process_uuid(pid)).message(pf::kProcess, p);
    descriptor(d);
  }
  void track(std::uint64_t pid, std::uint64_t tid, const std::string& name) override {
    const std::uint64_t uuid = next_uuid_++;
    waves_[{pid, tid}] = {uuid, next_sequence_++, name, {}};
    Proto d;
    d.uint(pf::kUuid, uuid).uint(pf::kParentUuid, process_uuid(pid)).text(pf::kTrackName, name);
    descriptor(d);
  }
  void in_flight(std::uint64_t pid, std::uint64_t tid, const std::string& name, std::int64_t begin,
                 std::int64_t end) override {
    Wave& w = waves_.at({pid, tid});
    auto lane = std::find_if(w.lanes.begin(), w.lanes.end(), [&](const Lane& l) { return l.free_from <= begin; });
    if (lane == w.lanes.end()) {
      Proto d;
      const std::uint64_t uuid = next_uuid_++;
      d.uint(pf::kUuid, uuid).uint(pf::kParentUuid, process_uuid(pid))
          .text(pf::kTrackName, w.name + " in flight " + std::to_string(w.lanes.size() + 1));
      descriptor(d);
      w.lanes.push_back({uuid, 0});
      lane = w.lanes.end() - 1;
    }
    lane->free_from = end;
    event(w, lane->uuid, pf::kSliceBegin, begin, name, nullptr);
    event(w, lane->uuid, pf::kSliceEnd, end, "", nullptr);
  }
  void slice(std::uint64_t pid, std::uint64_t tid, const char*, const std::string& name, std::int64_t ts,
             std::int64_t dur, const Instruction* in) override {
    const Wave& w = waves_.at({pid, tid});
    event(w, w.uuid, pf::kSliceBegin, ts, name, in);
    event(w, w.uuid, pf::kSliceEnd, ts + dur, "", nullptr);
  }
  void counter(std::uint64_t pid, const char* name, std::int64_t ts, double value) override {
    auto [it, fresh] = counters_.try_emplace({pid, name}, 0);
    if (fresh) {
      it->second = next_uuid_++;
      Proto d;
      d.uint(pf::kUuid, it->second).uint(pf::kParentUuid, process_uuid(pid)).text(pf::kTrackName, name)
          .message(pf::kCounter, Proto());
      descriptor(d);
    }
    Proto e;
    e.uint(pf::kType, pf::kCounterType).uint(pf::kTrackUuid, it->second).real(pf::kDoubleCounterValue, value);
    Proto p;
    p.uint(pf::kTimestamp, timestamp(ts)).message(pf::kTrackEvent, e);
    write(p, kDescriptorSequence, 0);
  }
  void run_clock(double clock_mhz) override { clock_mhz_ = clock_mhz; }

 private:
  static constexpr std::uint32_t kDescriptorSequence = 1;
  struct Lane {
    std::uint64_t uuid;
    std::int64_t free_from;
  };
  struct Wave {
    std::uint64_t uuid;
    std::uint32_t sequence;
    std::string name;
    std::vector<Lane> lanes;
  };

  std::uint64_t process_uuid(std::uint64_t pid) {
    auto [it, fresh] = processes_.try_emplace(pid, 0);
    if (fresh) it->second = next_uuid_++;
    return it->second;
  }
  void descriptor(const Proto& d) {
    Proto p;
    p.message(pf::kTrackDescriptor, d);
    write(p, kDescriptorSequence, 0);
  }
  // A slice's begin (with its interned name, and an instruction's pc, stall
  // and cycle) or end, on wave `w`'s sequence; `track` is named only when it
  // is not the wave's own (the sequence's default).
  void event(const Wave& w, std::uint64_t track, int type, std::int64_t ts, const std::string& name,
             const Instruction* in) {
    std::uint64_t flags = 0;
    Proto e, interned, defaults;
    if (w.sequence != current_sequence_) {  // a new sequence: its incremental state starts here
      current_sequence_ = w.sequence;
      names_.clear();
      annotation_names_sent_ = false;
      flags = pf::kIncrementalStateCleared;
      defaults.message(pf::kTrackEventDefaults, Proto().uint(pf::kTrackUuid, w.uuid));
    }
    e.uint(pf::kType, static_cast<std::uint64_t>(type));
    if (track != w.uuid) e.uint(pf::kTrackUuid, track);
    if (type == pf::kSliceBegin) {
      auto [it, fresh] = names_.try_emplace(name, names_.size() + 1);
      if (fresh) interned.message(pf::kEventNames, Proto().uint(pf::kIid, it->second).text(pf::kName, name));
      e.uint(pf::kNameIid, it->second);
    }
    if (in) {
      if (!annotation_names_sent_) {
        interned.message(pf::kDebugAnnotationNames, Proto().uint(pf::kIid, 1).text(pf::kName, "pc"));
        interned.message(pf::kDebugAnnotationNames, Proto().uint(pf::kIid, 2).text(pf::kName, "stall"));
        interned.message(pf::kDebugAnnotationNames, Proto().uint(pf::kIid, 3).text(pf::kName, "cycle"));
        annotation_names_sent_ = true;
      }
      e.message(pf::kDebugAnnotations, Proto().uint(pf::kAnnotationNameIid, 1).uint(pf::kUintValue, in->pc));
      // A stall has its own slice before the instruction's: only a nonzero one is repeated here.
      if (in->stall)
        e.message(pf::kDebugAnnotations, Proto().uint(pf::kAnnotationNameIid, 2).uint(pf::kUintValue, in->stall));
      if (clock_mhz_ > 0)  // the timeline is in ns: the issue cycle kept as an argument
        e.message(pf::kDebugAnnotations, Proto().uint(pf::kAnnotationNameIid, 3)
                                             .uint(pf::kUintValue, static_cast<std::uint64_t>(std::max<std::int64_t>(ts, 0))));
    }
    Proto p;
    p.uint(pf::kTimestamp, timestamp(ts)).message(pf::kTrackEvent, e);
    if (!interned.bytes().empty()) p.message(pf::kInternedData, interned);
    if (!defaults.bytes().empty()) p.message(pf::kTracePacketDefaults, defaults);
    write(p, w.sequence, flags);
  }
  // A time of the run (cycles or ns) on the timeline (ns): rounded to the
  // nearest ns, which keeps the order of times (slices still nest).
  std::uint64_t timestamp(std::int64_t t) const {
    const std::int64_t ns = clock_mhz_ > 0 ? std::llround(static_cast<double>(t) * 1000.0 / clock_mhz_) : t;
    return static_cast<std::uint64_t>(std::max<std::int64_t>(ns, 0));
  }
  // Packets that use interned names or defaults are not flagged as needing
  // incremental state: that flag only tells a reader to skip them after a
  // loss, and this file has none.
  void write(Proto& p, std::uint32_t sequence, std::uint64_t flags) {
    p.uint(pf::kSequenceId, sequence);
    if (sequence == kDescriptorSequence && first_) flags |= pf::kIncrementalStateCleared;
    if (sequence == kDescriptorSequence) first_ = false;
    if (flags) p.uint(pf::kSequenceFlags, flags);
    Proto wrapper;
    wrapper.message(pf::kTracePacket, p);
    o_ << wrapper.bytes();
  }

  std::ostream& o_;
  bool first_ = true, annotation_names_sent_ = false;
  double clock_mhz_ = 0;  // the current run's (run_clock)
  std::uint64_t next_uuid_ = 1;
  std::uint32_t next_sequence_ = kDescriptorSequence + 1, current_sequence_ = 0;
  std::map<std::uint64_t, std::uint64_t> processes_;
  std::map<std::pair<std::uint64_t, std::uint64_t>, Wave> waves_;
  std::map<std::pair<std::uint64_t, std::string>, std::uint64_t> counters_;
  std::unordered_map<std::string, std::uint64_t> names_;  // the current sequence's
};

}  // namespace

PerfettoStats export_perfetto(const Reader& r, const std::vector<std::string>& runs, std::ostream& o,
                              std::uint64_t max_slices) {
  std::vector<std::uint64_t> groups;
  std::string names, units;
  PerfettoStats st = plan(r, runs, max_slices, groups, names, units);
  o << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"run\":\"" << json_escape(names) << "\",\"time_unit\":\""
    << json_escape(units) << "\",\"instructions_per_slice\":" << st.group << "},\"traceEvents\":[\n";
  JsonWriter w(o);
  walk(r, runs, groups, w, st);
  o << "\n]}\n";
  return st;
}

PerfettoStats export_perfetto(const Reader& r, const std::string& run, std::ostream& o, std::uint64_t max_slices) {
  return export_perfetto(r, std::vector<std::string>{run}, o, max_slices);
}

PerfettoStats export_perfetto_proto(const Reader& r, const std::vector<std::string>& runs, std::ostream& o,
                                    std::uint64_t max_slices) {
  std::vector<std::uint64_t> groups;
  std::string names, units;
  PerfettoStats st = plan(r, runs, max_slices, groups, names, units);
  ProtoWriter w(o);
  walk(r, runs, groups, w, st);
  return st;
}

}  // namespace tilelab::traces
