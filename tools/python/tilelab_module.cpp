// The `tilelab` Python module's native part (`tilelab._tilelab`): the layout
// algebra, architecture descriptions, the LDS bank model, occupancy and the
// swizzle search, returning plain Python data (tuples, dicts, numpy arrays).
// Errors arrive as ValueError with the CLI's messages.
#include <sstream>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "app/on_device.hpp"
#include "app/lds_json.hpp"
#include "app/launch_run.hpp"
#include "app/like_dispatch.hpp"
#include "app/compile_kernel.hpp"
#include "app/design_check_run.hpp"
#include "app/emulator_coverage.hpp"
#include "kernels/code_object_dir.hpp"
#include "layouts/expr.hpp"
#include "layouts/tv_layout.hpp"
#include "sim/lds/occupancy.hpp"
#include "sim/lds/swizzle_search.hpp"
#include "kernels/design_check.hpp"
#include "app/functional_run.hpp"
#include "app/json.hpp"
#include "app/record.hpp"
#include "app/run_json.hpp"
#include "app/sweep.hpp"
#include "app/target.hpp"
#include "app/tuning.hpp"
#include "app/timed_run.hpp"
#include "hw/cuda/cuda_device.hpp"
#include "hw/emu/emu_device.hpp"
#include "hw/hip/hip_device.hpp"
#include "kernels/device_run.hpp"
#include "sim/isa/decoder.hpp"
#include "sim/timing/cycle_model.hpp"
#include "app/perfetto_file.hpp"
#include "app/provenance.hpp"
#include "traces/analysis.hpp"
#include <cstring>
#include "traces/rocprof/profile.hpp"
#include "traces/store.hpp"

namespace py = pybind11;
using namespace tilelab;

namespace {

// ---- Conversions: Python ints/tuples/None <-> IntTuple --------------------

// A Python int as a 64-bit integer; ValueError (not pybind's RuntimeError) when it does not fit.
Int to_int(const py::handle& o) {
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(o.ptr(), &overflow);
  if (overflow) throw py::value_error("integer " + std::string(py::str(o)) + " does not fit in 64 bits");
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  return v;
}

// Nesting as deep as the expression language allows, no deeper (a deeper
// tuple would exhaust the stack).
void check_depth(int depth) {
  if (depth > kMaxNesting) throw py::value_error("nesting deeper than " + std::to_string(kMaxNesting) + " levels");
}

IntTuple to_tuple(const py::handle& o, int depth = 0) {
  check_depth(depth);
  if (o.is_none()) return IntTuple::underscore();
  if (py::isinstance<py::bool_>(o)) throw py::value_error("a bool is not a shape or coordinate");
  if (py::isinstance<py::int_>(o)) return IntTuple(to_int(o));
  if (py::isinstance<py::tuple>(o) || py::isinstance<py::list>(o)) {
    IntTuple t = IntTuple::empty_tuple();
    for (const py::handle& x : o) t.push_back(to_tuple(x, depth + 1));
    return t;
  }
  throw py::value_error("expected an int, a tuple of them, or None, got " + std::string(py::str(o.get_type())));
}

py::object from_tuple(const IntTuple& t) {
  if (t.is_underscore()) return py::none();
  if (t.is_int()) return py::int_(t.value());
  py::tuple out(t.rank());
  for (int i = 0; i < t.rank(); ++i) out[i] = from_tuple(t[i]);
  return out;
}

Layout layout_of(const py::handle& o);

// A tiler from a Layout, an int, None, or a tuple of those.
Tiler tiler_of(const py::handle& o, int depth = 0) {
  check_depth(depth);
  if (py::isinstance<Layout>(o)) return o.cast<Layout>();
  if (o.is_none()) return Tiler::identity();
  if (py::isinstance<py::int_>(o)) return Tiler(to_int(o));
  if (py::isinstance<py::tuple>(o) || py::isinstance<py::list>(o)) {
    std::vector<Tiler> modes;
    for (const py::handle& x : o) modes.push_back(tiler_of(x, depth + 1));
    return Tiler(std::move(modes));
  }
  if (py::isinstance<py::str>(o)) {
    Value v = evaluate(o.cast<std::string>());
    if (auto* t = std::get_if<Tiler>(&v)) return *t;
    if (auto* l = std::get_if<Layout>(&v)) return *l;
    if (auto* s = std::get_if<IntTuple>(&v)) return Tiler::from_shape(*s);
  }
  throw py::value_error("expected a tiler: a Layout, an int, None, a tuple of them, or an expression string");
}

Layout layout_of(const py::handle& o) {
  if (py::isinstance<Layout>(o)) return o.cast<Layout>();
  if (py::isinstance<py::str>(o)) {
    Value v = evaluate(o.cast<std::string>());
    if (auto* l = std::get_if<Layout>(&v)) return *l;
    if (auto* t = std::get_if<IntTuple>(&v)) return Layout(*t);
    throw py::value_error("'" + o.cast<std::string>() + "' is not a layout");
  }
  return Layout(to_tuple(o));  // a shape: its compact layout
}

py::object value_to_python(const Value& v) {
  if (auto* t = std::get_if<IntTuple>(&v)) return from_tuple(*t);
  if (auto* l = std::get_if<Layout>(&v)) return py::cast(*l);
  if (auto* c = std::get_if<ComposedLayout>(&v)) return py::cast(*c);
  if (auto* s = std::get_if<Swizzle>(&v)) return py::cast(*s);
  return py::str(to_string(v));  // a tiler prints as <...>
}

// Offsets of a rank-1/2 layout as a numpy array (rows x columns, like `layout show`).
template <class F>
py::array_t<Int> grid(const IntTuple& shape, const F& f) {
  if (shape.is_tuple() && shape.rank() > 2) throw py::value_error("offsets() needs a rank-1 or rank-2 layout");
  Int rows = shape.is_tuple() && shape.rank() == 2 ? size(shape[0]) : 1;
  Int cols = shape.is_tuple() && shape.rank() == 2 ? size(shape[1]) : size(shape);
  py::array_t<Int> out({rows, cols});
  auto m = out.mutable_unchecked<2>();
  for (Int r = 0; r < rows; ++r)
    for (Int c = 0; c < cols; ++c)
      m(r, c) = f(shape.is_tuple() && shape.rank() == 2 ? IntTuple{r, c}
                  : shape.is_tuple()                    ? IntTuple{IntTuple(c)}
                                                        : IntTuple(c));
  return out;
}

// ---- LDS layouts from Python (the bank model's answers are app/lds_json's) ----

lds::LdsLayout lds_layout_of(const py::handle& o) {
  if (py::isinstance<ComposedLayout>(o)) {
    ComposedLayout c = o.cast<ComposedLayout>();
    return [c](Int m, Int n) { return c(IntTuple{m, n}); };
  }
  if (py::isinstance<py::str>(o)) {
    Value v = evaluate(o.cast<std::string>());
    if (auto* c = std::get_if<ComposedLayout>(&v)) {
      ComposedLayout cl = *c;
      return [cl](Int m, Int n) { return cl(IntTuple{m, n}); };
    }
  }
  Layout l = layout_of(o);
  return [l](Int m, Int n) { return l(IntTuple{m, n}); };
}

IntTuple smem_shape_of(const py::handle& o) {
  if (py::isinstance<ComposedLayout>(o)) return product_each(o.cast<ComposedLayout>().layout.shape());
  if (py::isinstance<py::str>(o)) {
    Value v = evaluate(o.cast<std::string>());
    if (auto* c = std::get_if<ComposedLayout>(&v)) return product_each(c->layout.shape());
  }
  return product_each(layout_of(o).shape());
}

py::dict arch_dict(const arch::Arch& a) {
  py::dict d;
  d["name"] = a.name;
  d["vendor"] = a.vendor;
  d["description"] = a.description;
  d["wave_size"] = a.wave_size;
  d["banks"] = a.lds.banks;
  d["lds_bytes_per_cu"] = a.lds.bytes_per_cu;
  py::dict figures;
  for (const auto& [k, v] : a.figures) figures[py::str(k)] = v;
  d["figures"] = figures;
  py::dict ins;
  for (const arch::LdsInstruction& i : a.instructions) {
    py::dict x;
    x["bytes"] = i.bytes;
    x["phases"] = i.phases;
    x["bank_period"] = i.bank_period;
    x["status"] = arch::to_string(i.status);
    x["source"] = i.source;
    ins[py::str(i.name)] = x;
  }
  d["instructions"] = ins;
  py::dict mfma;
  for (const arch::MfmaInstruction& i : a.mfma) {
    py::dict x;
    x["m"] = i.m;
    x["n"] = i.n;
    x["k"] = i.k;
    x["cycles"] = i.cycles;
    x["source"] = i.source;
    mfma[py::str(i.name)] = x;
  }
  d["mfma"] = mfma;
  d["simds_per_cu"] = a.simds_per_cu;
  d["lds_bytes_per_clock"] = py::none();
  for (const auto& [k, v] : a.figures)
    if (k == "lds.bytes_per_clock") d["lds_bytes_per_clock"] = std::stoi(v);
  return d;
}

}  // namespace

namespace {

template <class T>
py::array_t<T> column(const std::vector<T>& v) {
  return py::array_t<T>(static_cast<py::ssize_t>(v.size()), v.data());
}

// A cycle-model run as Python values: summaries as dicts, records as numpy columns.
// A run's one JSON form (app/run_json) as Python data: the dicts and lists the
// CLI's --json prints, key for key.
py::object from_json(const Json& j) { return py::module_::import("json").attr("loads")(j.dump()); }

// The columns a timed run has beyond its JSON form, as numpy arrays: per
// instruction (the thread trace's per-pc columns), per wave (its span) and
// per issue record, with the names behind the small ids.
void add_timing_columns(py::dict& d, const timing::TimingResult& r, const isa::Program& p) {
  py::list reasons;
  for (int k = 0; k < timing::kReasonCount; ++k) reasons.append(timing::reason_name(static_cast<timing::Reason>(k)));
  d["reason_names"] = reasons;
  std::vector<std::uint64_t> pc, hits, latency, stall, idle;
  py::list text;
  for (std::size_t i = 0; i < r.per_instruction.size(); ++i) {
    const auto& s = r.per_instruction[i];
    pc.push_back(p.instructions[i].pc), hits.push_back(s.hits), latency.push_back(s.latency);
    stall.push_back(s.stall), idle.push_back(s.idle);
    text.append(p.instructions[i].text);
  }
  d["per_instruction"] = py::dict(py::arg("pc") = column(pc), py::arg("text") = text, py::arg("hits") = column(hits),
                                  py::arg("latency") = column(latency), py::arg("stall") = column(stall),
                                  py::arg("idle") = column(idle));
  std::vector<std::uint32_t> wid, wg;
  std::vector<std::uint16_t> cu;
  std::vector<std::uint8_t> simd, slot;
  std::vector<std::uint64_t> start, end;
  for (const auto& w : r.waves_spans)
    wid.push_back(w.wave), wg.push_back(w.workgroup), cu.push_back(w.cu), simd.push_back(w.simd), slot.push_back(w.slot),
        start.push_back(w.start), end.push_back(w.end);
  d["wave_spans"] = py::dict(py::arg("wave") = column(wid), py::arg("workgroup") = column(wg), py::arg("cu") = column(cu),
                             py::arg("simd") = column(simd), py::arg("slot") = column(slot), py::arg("start") = column(start),
                             py::arg("end") = column(end));
  std::vector<std::uint32_t> ew, eidx, est, eidle;
  std::vector<std::uint64_t> epc, eissue, ecomplete;
  std::vector<std::uint8_t> ereason, ecls;
  for (const auto& e : r.events) {
    ew.push_back(e.wave), eidx.push_back(e.index), est.push_back(e.stall), eidle.push_back(e.idle);
    epc.push_back(p.instructions[e.index].pc), eissue.push_back(e.issue), ecomplete.push_back(e.complete);
    ereason.push_back(static_cast<std::uint8_t>(e.reason)), ecls.push_back(static_cast<std::uint8_t>(p.instructions[e.index].cls));
  }
  py::list classes;
  for (int c = 0; c < isa::kInstClassCount; ++c) classes.append(isa::class_name(static_cast<isa::InstClass>(c)));
  d["class_names"] = classes;
  d["issue_events"] = py::dict(py::arg("wave") = column(ew), py::arg("index") = column(eidx), py::arg("pc") = column(epc),
                               py::arg("issue") = column(eissue), py::arg("complete") = column(ecomplete),
                               py::arg("stall") = column(est), py::arg("idle") = column(eidle),
                               py::arg("reason") = column(ereason), py::arg("cls") = column(ecls));
}

// A kernel's name, arch and resources: disasm's and compile's keys.
py::dict kernel_resources(const isa::CodeObject& co, const isa::Kernel& k) {
  py::dict d;
  d["name"] = k.name;
  d["arch"] = co.arch;
  d["vgprs"] = k.vgpr_count;
  d["agprs"] = k.agpr_count;
  d["sgprs"] = k.sgpr_count;
  d["lds_bytes"] = k.group_segment_fixed_size;
  d["scratch_bytes"] = k.private_segment_fixed_size;
  return d;
}

// What compile() returns per code object: its path, arch and kernels' resources.
py::dict compiled_dict(const std::string& path, const std::string& arch) {
  const isa::CodeObject co = isa::read_code_object(path);
  py::list ks;
  for (const isa::Kernel& k : co.kernels) ks.append(kernel_resources(co, k));
  py::dict d;
  d["path"] = path;
  d["arch"] = arch;
  d["kernels"] = ks;
  return d;
}

}  // namespace

// A timed run's 'timing' dict (sim()'s): `sim --timing --json`'s object with
// the listing and the numpy columns; `like` (a run id or None) goes into its
// config first, as `sim --like` records it.
py::dict timing_dict(app::TimedRun& t, const py::object& like) {
  if (!like.is_none()) t.extra_config_json = app::like_config_json(like.cast<std::string>());
  Json tj = app::timing_json(t);
  tj["listing"] = app::listing_json(t);
  py::dict tm = from_json(tj);
  add_timing_columns(tm, *t.timing, *t.program);
  return tm;
}

// A launch template's shape= (None or a dict of its names), as --shape NAME=V,...
// One integer argument: a Python int (not a bool) that fits 64 bits;
// TypeError / ValueError naming `what`, never pybind11's cast error.
long long integer_of(const py::handle& v, const std::string& what) {
  if (!PyLong_Check(v.ptr()) || PyBool_Check(v.ptr()))
    throw py::type_error(what + " must be an integer, not " + std::string(py::str(py::type::of(v).attr("__name__"))));
  int overflow = 0;
  const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  if (overflow) throw py::value_error(what + " is out of range (" + std::string(py::str(v)) + ")");
  return x;
}

// A suite kernel's shape= as the CLI's --shape takes it: "512,512,512", or a
// list or tuple of integers.
std::vector<long long> suite_shape(const py::object& shape) {
  if (py::isinstance<py::str>(shape)) return app::parse_shape(shape.cast<std::string>());
  if (!py::isinstance<py::list>(shape) && !py::isinstance<py::tuple>(shape))
    throw py::type_error("shape= is a list of the kernel's dimensions, [512, 512, 512], or the CLI's \"512,512,512\"");
  std::vector<long long> dims;
  for (const py::handle& v : shape) dims.push_back(integer_of(v, "a dimension of shape="));
  return dims;
}

// A launch template's (or a lookup's) shape=: {'M': 4096, ...}, or the CLI's "M=4096,N=4096".
std::map<std::string, std::int64_t> named_shape(const py::object& shape) {
  if (py::isinstance<py::str>(shape)) return app::parse_named_shape(shape.cast<std::string>());
  if (!py::isinstance<py::dict>(shape))
    throw py::type_error("shape= for a launch template is a dict of its names, {'M': 4096, ...}, or \"M=4096,N=4096\"");
  std::map<std::string, std::int64_t> named;
  for (const auto& [k, v] : shape.cast<py::dict>()) {
    if (!py::isinstance<py::str>(k)) throw py::type_error("shape= names are strings");
    const std::string name = k.cast<std::string>();
    named[name] = integer_of(v, "shape['" + name + "']");
  }
  return named;
}

std::map<std::string, std::int64_t> template_shape(const py::object& shape) {
  if (shape.is_none()) return {};
  return named_shape(shape);
}

// like= as sim_run_id takes it ("" for None).
std::string like_id(const py::object& like) { return like.is_none() ? "" : like.cast<std::string>(); }

// sim(CODE_OBJECT, launch=L.toml): `sim FILE.co --launch` from Python.  The
// dict: 'kernel', 'shape' (the launch's text), 'arch', 'workgroups', 'waves',
// 'wave_instructions', 'seconds', 'saved' (each buffer marked save, as numpy
// bytes; a sampled timed run saves none), and 'timing' as sim() gives it.
py::dict sim_launch_file(const std::string& code_object, const std::string& launch, const std::string& arch_name,
                         const py::object& shape, const app::TimedOptions& options, bool timed, const py::object& out,
                         const py::object& run_id, const traces::WriterOptions& store, const py::object& like) {
  const isa::CodeObject co = isa::read_code_object(code_object);
  const kernels::LaunchFile l = kernels::read_launch_file(launch, co, 0, template_shape(shape));
  const arch::Arch a = arch::load_arch(arch_name);
  const std::string id = !run_id.is_none() ? run_id.cast<std::string>()
                                           : app::sim_run_id(like_id(like), timed ? "timing" : "sim", l.kernel, a.name);
  if (!like.is_none())  // sim --like's checks: the run is there and is this launch's dispatch
    app::check_like_launch(out.is_none() ? "" : py::str(out).cast<std::string>(), like_id(like), co, launch, l);
  if (!out.is_none()) traces::check_new_run(py::str(out).cast<std::string>(), id);
  std::unique_ptr<app::LaunchFileRun> run;
  {
    py::gil_scoped_release release;
    run = app::run_launch_file(co, l, a, options, timed);
  }
  py::dict d;
  d["kernel"] = l.kernel;
  d["shape"] = run->shape;
  d["arch"] = a.name;
  d["workgroups"] = run->stats->workgroups;
  d["waves"] = run->stats->waves;
  d["wave_instructions"] = run->stats->wave_instructions;
  d["seconds"] = run->stats->seconds;
  py::dict saved;
  for (const kernels::SavedBuffer& b : run->saved)
    saved[py::str(b.name)] = py::array_t<std::uint8_t>(static_cast<py::ssize_t>(b.bytes.size()), b.bytes.data());
  d["saved"] = saved;
  if (run->model) {
    d["timing"] = timing_dict(run->view, like);
    if (!out.is_none()) app::record_timing(py::str(out).cast<std::string>(), id, run->view, store);
  } else if (!out.is_none()) {
    app::record_launch_file_run(py::str(out).cast<std::string>(), id, a, co, l.kernel, run->shape, l.seed, *run->stats,
                                store);
  }
  if (!out.is_none()) d["run_id"] = id;
  return d;
}

PYBIND11_MODULE(_tilelab, m) {
  m.doc() = "tilelab: layout algebra (CuTe semantics), LDS bank model, occupancy and swizzle search";

  // Every engine error becomes ValueError with the CLI's text.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ExprError& e) {
      PyErr_SetString(PyExc_ValueError, e.message().c_str());
    } catch (const LayoutError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const arch::ArchError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const lds::ModelError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const isa::IsaError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const std::invalid_argument& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const emu::EmuError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const timing::TimingError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const traces::StoreError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const traces::rocprof::FormatError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const py::cast_error& e) {  // an argument of another type: what Python calls a TypeError
      PyErr_SetString(PyExc_TypeError, (std::string("an argument is not of the type it takes: ") + e.what()).c_str());
    } catch (const std::bad_alloc&) {
      PyErr_SetString(PyExc_MemoryError, "out of memory: an input asks for more than this machine can hold");
    } catch (const hw::NoDevice& e) {  // no runtime, no GPU: the notebook can catch it and fall back
      PyErr_SetString(PyExc_RuntimeError, e.what());
    } catch (const hw::DeviceError& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });

  py::class_<Layout>(m, "Layout",
                     "A CuTe layout: a shape and a congruent stride.  Layout((4,8),(8,1)), Layout((4,8)) (compact "
                     "column-major) or Layout('(4,8):(8,1)'); repr() gives text that evaluates back; len(), [i] "
                     "and iteration go over its modes, as in CuTe and pycute.")
      .def(py::init([](const py::object& shape, const py::object& stride) {
             if (py::isinstance<py::str>(shape)) {
               if (!stride.is_none()) throw std::invalid_argument("Layout(text) takes no stride");
               return layout_of(shape);
             }
             if (stride.is_none()) return Layout(to_tuple(shape));
             return Layout(to_tuple(shape), to_tuple(stride));
           }),
           py::arg("shape"), py::arg("stride") = py::none())
      .def_static("parse", [](const std::string& s) { return layout_of(py::str(s)); }, py::arg("text"),
                  "A layout from CuTe notation: Layout.parse('(4,8):(8,1)').")
      .def_property_readonly("shape", [](const Layout& l) { return from_tuple(l.shape()); })
      .def_property_readonly("stride", [](const Layout& l) { return from_tuple(l.stride()); })
      .def("size", [](const Layout& l) { return size(l); })
      .def("cosize", [](const Layout& l) { return cosize(l); })
      .def("rank", [](const Layout& l) { return rank(l); })
      .def("depth", [](const Layout& l) { return depth(l); })
      .def("__call__", [](const Layout& l, const py::object& c) -> py::object {
        IntTuple crd = to_tuple(c);
        if (crd.has_underscore()) return py::cast(slice(crd, l));
        return py::int_(l(crd));
      }, py::arg("coordinate"), "The offset of an index or coordinate; a coordinate with None (CuTe's _) slices.")
      .def("__getitem__", [](const Layout& l, int i) { return get(l, i); })
      .def("__len__", [](const Layout& l) { return rank(l); })
      .def("__iter__", [](const Layout& l) {
        py::list modes;
        for (int i = 0; i < rank(l); ++i) modes.append(py::cast(get(l, i)));
        return py::iter(modes);
      }, "The modes, in order (a rank-1 layout is its own single mode).")
      .def("__eq__", [](const Layout& a, const Layout& b) { return a == b; })
      .def("__str__", [](const Layout& l) { return to_string(l); })
      .def("__repr__", [](const Layout& l) { return "Layout('" + to_string(l) + "')"; })
      .def("offsets", [](const Layout& l) { return grid(l.shape(), [&](const IntTuple& c) { return l(c); }); },
           "Offsets as a rows x columns numpy array (rank-1 layouts: one row).");

  py::class_<Swizzle>(m, "Swizzle", "Sw<B,M,S>: XOR B bits at M+S into M.")
      .def(py::init<int, int, int>(), py::arg("bits"), py::arg("base"), py::arg("shift"))
      .def("__call__", [](const Swizzle& s, Int x) { return s(x); }, py::arg("offset"), "The swizzled offset.")
      .def_readonly("bits", &Swizzle::bits)
      .def_readonly("base", &Swizzle::base)
      .def_readonly("shift", &Swizzle::shift)
      .def("__str__", [](const Swizzle& s) { return to_string(s); })
      .def("__repr__", [](const Swizzle& s) {
        return "Swizzle(" + std::to_string(s.bits) + ", " + std::to_string(s.base) + ", " + std::to_string(s.shift) + ")";
      });

  py::class_<ComposedLayout>(m, "ComposedLayout", "swizzle o offset o layout")
      .def(py::init([](const Swizzle& s, const py::object& l, Int offset) { return ComposedLayout{s, offset, layout_of(l)}; }),
           py::arg("swizzle"), py::arg("layout"), py::arg("offset") = 0)
      .def(py::init([](const std::string& text) {
             const Value v = evaluate(text);
             if (const auto* c = std::get_if<ComposedLayout>(&v)) return *c;
             throw std::invalid_argument("'" + text + "' is not a swizzled layout (Sw<B,M,S> o layout)");
           }),
           py::arg("text"), "From text: ComposedLayout('Sw<3,3,3> o (64,64):(64,1)').")
      .def_readonly("swizzle", &ComposedLayout::swizzle)
      .def_readonly("layout", &ComposedLayout::layout)
      .def_readonly("offset", &ComposedLayout::offset)
      .def("__call__", [](const ComposedLayout& c, const py::object& x) { return c(to_tuple(x)); }, py::arg("coordinate"),
           "swizzle(offset + layout(coordinate)).")
      .def("offsets",
           [](const ComposedLayout& c) { return grid(c.layout.shape(), [&](const IntTuple& x) { return c(x); }); })
      .def("__str__", [](const ComposedLayout& c) { return to_string(c); })
      .def("__repr__", [](const ComposedLayout& c) { return "ComposedLayout('" + to_string(c) + "')"; });

  m.def("evaluate", [](const std::string& e) { return value_to_python(evaluate(e)); }, py::arg("expression"),
        "Evaluate an expression of `tilelab layout eval`.");

  // The algebra, by name.
  m.def("coalesce", [](const py::object& l, const py::object& p) {
    return p.is_none() ? coalesce(layout_of(l)) : coalesce(layout_of(l), to_tuple(p));
  }, py::arg("layout"), py::arg("profile") = py::none());
  m.def("filter", [](const py::object& l) { return filter(layout_of(l)); }, py::arg("layout"),
        "The layout without its stride-0 and size-1 modes (CuTe filter).");
  m.def("composition", [](const py::object& a, const py::object& b) { return composition(layout_of(a), tiler_of(b)); }, py::arg("a"), py::arg("tiler"),
        "A o B: the layout i -> A(B(i)) (CuTe composition; B may be a tiler).");
  m.def("complement", [](const py::object& a, const py::object& cotarget) {
    return cotarget.is_none() ? complement(layout_of(a)) : complement(layout_of(a), size(to_tuple(cotarget)));
  }, py::arg("layout"), py::arg("cotarget") = py::none());
  m.def("right_inverse", [](const py::object& a) { return right_inverse(layout_of(a)); }, py::arg("layout"),
        "A layout R with layout(R(i)) == i on R's domain (CuTe right_inverse).");
  m.def("left_inverse", [](const py::object& a) { return left_inverse(layout_of(a)); }, py::arg("layout"),
        "A layout L with L(layout(i)) == i on layout's domain (CuTe left_inverse).");
  m.def("logical_divide", [](const py::object& a, const py::object& b) { return logical_divide(layout_of(a), tiler_of(b)); }, py::arg("a"), py::arg("tiler"),
        "A split by tiler B: (tile, rest) (CuTe logical_divide).");
  m.def("zipped_divide", [](const py::object& a, const py::object& b) { return zipped_divide(layout_of(a), tiler_of(b)); }, py::arg("a"), py::arg("tiler"),
        "logical_divide with the tiles gathered in mode 0 (CuTe zipped_divide).");
  m.def("tiled_divide", [](const py::object& a, const py::object& b) { return tiled_divide(layout_of(a), tiler_of(b)); }, py::arg("a"), py::arg("tiler"),
        "zipped_divide with the rest flattened into modes 1.. (CuTe tiled_divide).");
  m.def("flat_divide", [](const py::object& a, const py::object& b) { return flat_divide(layout_of(a), tiler_of(b)); }, py::arg("a"), py::arg("tiler"),
        "logical_divide flattened (CuTe flat_divide).");
  m.def("logical_product", [](const py::object& a, const py::object& b) { return logical_product(layout_of(a), tiler_of(b)); }, py::arg("a"), py::arg("tiler"),
        "A repeated by B: (A, complement-of-A o B) (CuTe logical_product).");
  m.def("zipped_product", [](const py::object& a, const py::object& b) { return zipped_product(layout_of(a), tiler_of(b)); }, py::arg("a"), py::arg("tiler"),
        "logical_product with the tiles gathered (CuTe zipped_product).");
  m.def("tiled_product", [](const py::object& a, const py::object& b) { return tiled_product(layout_of(a), tiler_of(b)); }, py::arg("a"), py::arg("tiler"),
        "zipped_product with the rest flattened (CuTe tiled_product).");
  m.def("flat_product", [](const py::object& a, const py::object& b) { return flat_product(layout_of(a), tiler_of(b)); }, py::arg("a"), py::arg("tiler"),
        "logical_product flattened (CuTe flat_product).");
  m.def("blocked_product", [](const py::object& a, const py::object& b) { return blocked_product(layout_of(a), layout_of(b)); }, py::arg("a"), py::arg("b"),
        "B copies of A, A contiguous in each mode (CuTe blocked_product).");
  m.def("raked_product", [](const py::object& a, const py::object& b) { return raked_product(layout_of(a), layout_of(b)); }, py::arg("a"), py::arg("b"),
        "B copies of A interleaved in each mode (CuTe raked_product).");
  m.def("tile_to_shape", [](const py::object& a, const py::object& shape, const py::object& order) {
    return order.is_none() ? tile_to_shape(layout_of(a), to_tuple(shape))
                           : tile_to_shape(layout_of(a), to_tuple(shape), to_tuple(order));
  }, py::arg("block"), py::arg("shape"), py::arg("order") = py::none());
  m.def("make_ordered_layout", [](const py::object& s, const py::object& o) { return make_ordered_layout(to_tuple(s), to_tuple(o)); },
        py::arg("shape"), py::arg("order"), "A compact layout of shape whose modes are ordered by order (CuTe make_ordered_layout).");
  m.def("recast", [](const py::object& l, int old_bits, int new_bits) -> py::object {
    if (py::isinstance<ComposedLayout>(l)) return py::cast(recast(l.cast<ComposedLayout>(), old_bits, new_bits));
    return py::cast(recast(layout_of(l), old_bits, new_bits));
  }, py::arg("layout"), py::arg("old_bits"), py::arg("new_bits"),
     "The layout over elements of new_bits instead of old_bits (CuTe recast_layout; swizzled layouts too).");

  // Thread-value layouts.
  m.def("make_layout_tv", [](const py::object& thr, const py::object& val) {
    TVLayout tv = make_layout_tv(layout_of(thr), layout_of(val));
    py::dict d;
    d["tv"] = tv.tv;
    d["tile"] = tv.tile;
    d["tile_shape"] = from_tuple(tv.tile_shape);
    d["threads"] = tv.threads;
    d["values"] = tv.values;
    // owner[m, n] = thread, value[m, n] = value index: the picture as arrays.
    Int rows = size(tv.tile_shape[0]), cols = size(tv.tile_shape[1]);
    py::array_t<Int> owner({rows, cols}), value({rows, cols});
    auto o = owner.mutable_unchecked<2>();
    auto v = value.mutable_unchecked<2>();
    for (Int r = 0; r < rows; ++r)
      for (Int c = 0; c < cols; ++c) {
        ThreadValue x = owner_of(tv, IntTuple{r, c});
        o(r, c) = x.thread;
        v(r, c) = x.value;
      }
    d["thread"] = owner;
    d["value"] = value;
    return d;
  }, py::arg("thr"), py::arg("val"), "make_layout_tv(thr, val) as CuTe builds it; thread/value are per-tile-element arrays.");

  // Architecture and the LDS model.
  m.def("arch", [](const std::string& name) { return arch_dict(arch::load_arch(name)); }, py::arg("name"),
        "An architecture description (gfx950, gfx942, sm90 or a .toml path) as a dict.");
  m.def("lds", [](const std::string& arch_name, const std::string& inst, const std::vector<std::uint32_t>& addresses,
                  std::uint64_t mask) {
    arch::Arch a = arch::load_arch(arch_name);
    lds::BankModel model(a, a.instruction(inst));
    return from_json(app::lds_json(a, model.instruction(), model.analyze(addresses, mask)));
  }, py::arg("arch"), py::arg("inst"), py::arg("addresses"), py::arg("mask") = ~std::uint64_t{0},
     "The bank-model analysis of one wave instruction from per-lane byte addresses: `tilelab lds --addresses "
     "--json`'s dict ('analysis': per pass its lanes, active lanes, banks and ways; cycles, conflict_cycles, max_ways).");
  m.def("lds_tile", [](const std::string& arch_name, const std::string& inst, const py::object& thr,
                       const py::object& val, const py::object& smem, int elem_bytes) {
    arch::Arch a = arch::load_arch(arch_name);
    lds::BankModel model(a, a.instruction(inst));
    TVLayout tv = make_layout_tv(layout_of(thr), layout_of(val));
    lds::TileReport r = lds::analyze_tile(model, tv, smem_shape_of(smem), lds_layout_of(smem), elem_bytes);
    py::array_t<std::uint32_t> addr({static_cast<py::ssize_t>(r.instructions.size()), static_cast<py::ssize_t>(model.wave_size())});
    auto ad = addr.mutable_unchecked<2>();
    for (std::size_t i = 0; i < r.analyses.size(); ++i)
      for (int l = 0; l < model.wave_size(); ++l) ad(i, l) = r.instructions[i].addresses[l];
    py::dict d = from_json(app::lds_tile_json(a, model.instruction(), r));
    d["addresses"] = addr;
    return d;
  }, py::arg("arch"), py::arg("inst"), py::arg("thr"), py::arg("val"), py::arg("smem"), py::arg("elem_bytes"),
     "The design check of a tile access from a TV layout and an LDS layout: `tilelab lds --tv --json`'s dict "
     "('instructions': wave, index and analysis of each; cycles, conflict_cycles, worst) plus 'addresses' "
     "(instructions x lanes, numpy).");
  m.def("occupancy", [](const std::string& arch_name, int vgprs, int agprs, int sgprs, long long lds_bytes, int wg) {
    const arch::Arch a = arch::load_arch(arch_name);
    return from_json(app::occupancy_json(a, lds::occupancy(a, {vgprs, agprs, sgprs, lds_bytes, wg})));
  }, py::arg("arch"), py::arg("vgprs"), py::arg("agprs"), py::arg("sgprs"), py::arg("lds"), py::arg("wg_size"));
  m.def("swizzle_search", [](const std::string& arch_name, const py::object& write_thr, const py::object& write_val,
                             const std::string& write_inst, const py::object& read_thr, const py::object& read_val,
                             const std::string& read_inst, Int rows, Int cols, int elem_bytes, int top) {
    arch::Arch a = arch::load_arch(arch_name);
    lds::BankModel wm(a, a.instruction(write_inst)), rm(a, a.instruction(read_inst));
    lds::SearchResult s = lds::search_swizzles({make_layout_tv(layout_of(write_thr), layout_of(write_val)), &wm},
                                               {make_layout_tv(layout_of(read_thr), layout_of(read_val)), &rm}, rows,
                                               cols, elem_bytes);
    return from_json(app::swizzle_json(a, s, top));
  }, py::arg("arch"), py::arg("write_thr"), py::arg("write_val"), py::arg("write_inst"), py::arg("read_thr"),
     py::arg("read_val"), py::arg("read_inst"), py::arg("rows"), py::arg("cols"), py::arg("elem_bytes"),
     py::arg("top") = 0,
     "The LDS layouts (plain, padded, swizzled) for a writer and a reader of a rows x cols tile: `tilelab swizzle "
     "--json`'s dict: 'best' holds the top layouts best first (top=0: every one scored), each with its write and "
     "read conflict cycles and extra bytes; 'plain' the row-major layout's score.");

  // The store's own reader opens and checks a store for the Python helpers
  // (tilelab.runs, tilelab.load_run), so a missing, foreign or damaged file
  // is the CLI's one line, not an h5py error.
  m.def("_run_ids", [](const std::string& path) { return traces::Reader(path).run_ids(); }, py::arg("path"),
        "The run ids of a trace store, in the order added (ValueError with the CLI's message otherwise).");
  m.def("_check_run", [](const std::string& path, const std::string& id) {
        const traces::Reader r(path);
        (void)r.run(id);    // the run's provenance and summary ...
        (void)r.waves(id);  // ... and a table: what load_run reads first
      }, py::arg("path"), py::arg("run_id"), "Checks that a store holds a readable run (ValueError otherwise).");

  // The store's commands (`tilelab import`, `compare`, `export`), so that a
  // notebook records, imports, compares and exports without the CLI.
  m.def("code_object_dir", [] { return kernels::code_object_dir(); },
        "Where the suite's compiled kernels are found: $TILELAB_KERNELS, else beside this module (a pip install's "
        "tilelab/kernels) or an installed prefix, else the build tree the module was built in.");
  m.attr("__version__") = app::version();  // CMake's project version, as `tilelab --version`

  m.def("import_rocprof", [](const std::string& path, const std::string& out, const std::string& run_id_prefix,
                             const std::string& kernel, const std::string& arch_name, const std::string& shape, int cus,
                             int xccs, double wait) {
    if (cus < 0 || xccs < 0) throw std::invalid_argument("cus and xccs take positive counts");
    if (!(wait >= 0)) throw std::invalid_argument("wait must not be negative");
    const traces::rocprof::Profile profile = traces::rocprof::read_profile(path);  // all of it, before the store is touched
    traces::rocprof::ImportOptions o;
    o.id_prefix = run_id_prefix;
    o.kernel = kernel;
    o.arch = arch_name;
    o.shape = shape;
    o.cus = cus;
    o.xccs = xccs;
    o.writer.wait_seconds = wait;
    return traces::rocprof::import_profile(profile, out, o);
  }, py::arg("path"), py::arg("out"), py::arg("run_id_prefix") = "rocprof", py::arg("kernel") = "",
     py::arg("arch") = "", py::arg("shape") = "", py::arg("cus") = 0, py::arg("xccs") = 0, py::arg("wait") = 60.0,
     "`tilelab import rocprof PATH --out OUT`: what rocprofv3 measured (a folder or one file) into a trace store, "
     "one run per dispatch, all or nothing.  Returns the run ids.  ValueError with the CLI's message.");
  m.def("sweep", [](const std::string& file, const py::object& out, bool full, int threads) {
    const app::SweepSpec spec = app::read_sweep(file);
    app::SweepOptions o;
    o.full = full;
    o.threads = threads;
    if (!out.is_none()) o.out = out.cast<std::string>();
    app::SweepResult r;
    {
      py::gil_scoped_release release;
      r = app::run_sweep(spec, o);
      if (!o.out.empty()) app::merge_shards(spec, o);  // a killed MPI sweep's points
    }
    return from_json(app::sweep_json(r));
  }, py::arg("file"), py::arg("out") = py::none(), py::arg("full") = false, py::arg("threads") = 0,
     "`tilelab sweep FILE [--out OUT] [--full] [--threads N] --json`: every candidate of the sweep file at every "
     "problem, timed by the cycle model; with out, each point stored as a run and a point already there (or in a "
     "killed MPI sweep's shard, merged then) read back. "
     "Returns the CLI's JSON dict: per problem the points (us, or the reason it is invalid) and the winner; wins.");
  m.def("tune_export", [](const std::string& store, const std::string& out) {
    const app::SweepPoints got = app::sweep_points(store);
    for (const std::string& s : got.skipped)
      if (PyErr_WarnEx(PyExc_RuntimeWarning, ("skipped run " + s).c_str(), 1) < 0) throw py::error_already_set();
    const std::vector<traces::TuningEntry>& points = got.entries;
    if (points.empty()) throw std::invalid_argument(store + " holds no sweep points (tilelab sweep --out)");
    traces::write_tuning_db(out, points);
    return points.size();
  }, py::arg("store"), py::arg("out"),
     "`tilelab tune export STORE --out DB`: a sweep's stored points as a SQLite tuning database, written whole or "
     "not at all.  Returns the number of candidate points.");
  m.def("tune_lookup", [](const std::string& db, const std::string& family, const py::object& shape,
                          const std::string& arch_name) {
    std::map<std::string, std::int64_t> sh;
    if (py::isinstance<py::str>(shape)) sh = app::parse_named_shape(shape.cast<std::string>());
    else sh = named_shape(shape);
    const auto answer = traces::lookup_tuning_db(db, arch_name, family, sh);
    if (!answer) throw std::invalid_argument("no entry for family '" + family + "' on " + arch_name + " in " + db);
    return from_json(app::tuning_answer_json(*answer));
  }, py::arg("db"), py::arg("family"), py::arg("shape"), py::arg("arch") = "gfx950",
     "`tilelab tune lookup DB --family F --shape M=..,N=.. --json`: the winner for one shape (a dict, or "
     "\"M=..,N=..\"), the stored shape itself or the nearest one (exact says which).  ValueError when the family "
     "has no entry.");
  m.def("compare", [](const std::string& path, const std::string& run_a, const std::string& run_b, const std::string& by,
                      bool force) {
    const traces::CompareBy b = by == "class" ? traces::CompareBy::kClass
                                : by == "pc"  ? traces::CompareBy::kPc
                                : by == "wave" ? traces::CompareBy::kWave
                                               : throw std::invalid_argument("by takes class, pc or wave");
    const traces::Reader r(path);
    std::ostringstream json;
    traces::print_json(traces::compare(r, run_a, run_b, b, force), json);
    return py::module_::import("json").attr("loads")(json.str());
  }, py::arg("path"), py::arg("run_a"), py::arg("run_b"), py::arg("by") = "class", py::arg("force") = false,
     "`tilelab compare FILE A B --json` as Python data: the two runs side by side by instruction class, pc or wave.");
  m.def("export_perfetto", [](const std::string& path, const std::vector<std::string>& runs, const std::string& out,
                              std::uint64_t max_slices) {
    if (runs.empty()) throw std::invalid_argument("runs: name at least one run");
    const traces::PerfettoStats st = app::write_perfetto(path, runs, out, max_slices);
    return py::dict(py::arg("events") = st.events, py::arg("slices") = st.slices, py::arg("group") = st.group,
                    py::arg("counter_samples") = st.counter_samples);
  }, py::arg("path"), py::arg("runs"), py::arg("out"), py::arg("max_slices") = 2'000'000,
     "`tilelab export FILE RUN... --perfetto OUT.json|OUT.pftrace`: the runs' timelines for Perfetto (Chrome "
     "trace-event JSON, or Perfetto's protobuf trace, as OUT's name says), written whole or not at all.  Returns "
     "events, slices, instructions per slice and counter samples.");
  m.def("export_rocprof", [](const std::string& path, const std::vector<std::string>& runs, const std::string& folder) {
    if (runs.empty()) throw std::invalid_argument("runs: name at least one run");
    return traces::rocprof::export_runs(traces::Reader(path), runs, folder);
  }, py::arg("path"), py::arg("runs"), py::arg("folder"),
     "`tilelab export FILE RUN... --rocprof DIR`: the runs as rocprofv3's CSV files.  Returns the files written.");

  m.def("kernels", [] {
    py::list out;
    for (const auto& s : kernels::all_specs()) {
      py::dict d;
      d["name"] = s.name;
      d["source"] = s.source;
      d["summary"] = s.summary;
      d["archs"] = s.archs;
      d["shape_dims"] = s.shape_dims;
      out.append(d);
    }
    return out;
  }, "Every kernel spec: name, source, summary, arches, shape dimensions.");
  m.def("check", [](const std::string& kernel, const std::string& arch_name, const py::object& shape,
                    const py::object& code_object) {
    const kernels::KernelSpec& spec = kernels::find_spec(kernel);
    const arch::Arch a = arch::load_arch(arch_name);
    std::map<std::string, isa::CodeObject> read;
    const auto compiled =
        app::compiled_facts(spec, a.name, "", code_object.is_none() ? "" : code_object.cast<std::string>(), read);
    std::optional<std::vector<long long>> sh;
    if (!shape.is_none()) sh = suite_shape(shape);
    return from_json(app::design_json(spec, kernels::design_check(spec, a, compiled, sh)));
  }, py::arg("kernel"), py::arg("arch") = "gfx950", py::arg("shape") = py::none(), py::arg("code_object") = py::none(),
     "The design check of a kernel spec: `tilelab check --json`'s dict (the same keys and values).  The registers "
     "and LDS (and so the occupancy) come from code_object if given, else from the suite's compiled kernel.");
  m.def("disasm", [](const std::string& path, const py::object& kernel) {
    const isa::CodeObject co = isa::read_code_object(path);
    const isa::Decoder dec(co.arch);
    py::list out;
    for (const auto& k : co.kernels) {
      if (!kernel.is_none() && k.name != kernel.cast<std::string>()) continue;
      const isa::Program p = dec.decode(co, k);
      py::dict d = kernel_resources(co, k);
      py::list insts;
      for (std::size_t i = 0; i < p.instructions.size(); ++i) {
        const auto& inst = p.instructions[i];
        py::dict x;
        x["pc"] = inst.pc;
        x["size"] = inst.size;
        x["mnemonic"] = std::string(inst.mnemonic());
        x["text"] = inst.text;
        x["class"] = isa::class_name(inst.cls);
        x["block"] = inst.block;
        x["loop"] = p.loop_of(i);
        x["target"] = inst.target;
        insts.append(x);
      }
      d["instructions"] = insts;
      py::list loops;
      for (const auto& l : p.loops) loops.append(py::make_tuple(l.head, l.latch, l.depth));
      d["loops"] = loops;  // (first instruction, last instruction, depth)
      out.append(d);
    }
    if (!kernel.is_none() && out.empty()) co.kernel(kernel.cast<std::string>());  // the error naming the kernels
    return out;
  }, py::arg("path"), py::arg("kernel") = py::none(),
     "Decode a code object: per kernel its registers, LDS, instructions (pc, text, class, loop) and loops.");
  m.def("compile", [](const std::string& kernel, const std::string& arch_name, const py::object& out_dir,
                      const py::object& params, const py::object& cache) {
    if (!params.is_none()) {  // one variant of the kernel's template, into the kernel cache
      if (!out_dir.is_none()) throw std::invalid_argument("params= compiles into the kernel cache (cache=), not out_dir");
      const auto named = params.cast<std::map<std::string, std::int64_t>>();
      app::CompiledVariant v;
      {
        py::gil_scoped_release release;
        v = app::compile_variant(kernel, arch_name, named, cache.is_none() ? "" : cache.cast<std::string>());
      }
      py::dict d = compiled_dict(v.code_object, arch_name);
      d["key"] = v.key;
      d["cached"] = v.cached;
      return py::list(py::make_tuple(d));
    }
    const std::vector<app::CompileJob> jobs = app::compile_jobs(kernel, arch_name);
    const std::string dir = out_dir.is_none() ? kernels::code_object_dir() : out_dir.cast<std::string>();
    py::list out;
    for (const app::CompileJob& job : jobs) {
      std::string path;
      {
        py::gil_scoped_release release;
        path = app::compile_suite_kernel(job, dir);
      }
      out.append(compiled_dict(path, job.arch));
    }
    return out;
  }, py::arg("kernel"), py::arg("arch") = "gfx950", py::arg("out_dir") = py::none(), py::arg("params") = py::none(),
     py::arg("cache") = py::none(),
     "`tilelab compile KERNEL|all [--arch gfx950|gfx942|all] [--out-dir DIR]`: the suite source compiled offline "
     "with the build's compiler and flags into DIR/<arch>/KERNEL.hsaco (default DIR: code_object_dir()).  Returns "
     "per code object its path, arch and kernels' resources (disasm's keys).  params={'TILE_M': 256, ...}: "
     "`compile KERNEL --params`, one variant of the kernel's template (-DTL_NAME=V) into the kernel cache (cache=, "
     "else $TILELAB_KERNEL_CACHE, else ~/.cache/tilelab/kernels), with its cache 'key' and whether it was "
     "'cached'.  ValueError for an unknown kernel or arch; RuntimeError when the compiler fails (for a variant: "
     "its first error line).");
  m.def("coverage", [](const py::object& paths) {
    const std::vector<std::string> files =
        py::isinstance<py::str>(paths) ? std::vector<std::string>{paths.cast<std::string>()} : paths.cast<std::vector<std::string>>();
    return from_json(app::coverage_json(app::emulator_coverage(files)));
  }, py::arg("paths"),
     "`tilelab disasm --coverage PATHS... --json`: what stands between code objects (or assembly) and a functional "
     "run: per kernel whether the emulator can run it and why not, the opcodes it cannot run with their counts.");
  m.def("run", [](const std::string& kernel, const std::string& device, const py::object& shape, std::uint64_t seed,
                  int reps, int warmup, bool flush, bool wave_stamps, const std::string& arch_name,
                  const std::string& code_objects, const py::object& out, const py::object& run_id, double wait) {
    const kernels::KernelSpec& spec = kernels::find_spec(kernel);
    const std::vector<long long> sh =
        shape.is_none() ? spec.example_shapes.front() : suite_shape(shape);  // as `tilelab run`
    if (reps < 0 || reps > 100000 || warmup < 0 || warmup > 100000)
      throw std::invalid_argument("reps and warmup take 0 to 100000");
    const std::unique_ptr<hw::Device> d = app::open_device(device, 0, arch_name);
    const std::string id = run_id.is_none() ? "run-" + kernel + "-" + device + "-" + d->info().arch
                                            : run_id.cast<std::string>();
    if (!out.is_none()) traces::check_new_run(py::str(out).cast<std::string>(), id);  // before the work, as the CLI
    kernels::RunOptions o;
    o.reps = reps;
    o.warmup = warmup;
    o.flush = flush;
    o.wave_stamps = wave_stamps;
    o.code_object_dir = code_objects;
    const kernels::DeviceRun r = kernels::run_on_device(*d, kernel, sh, seed, o);
    const std::string shape_text = app::device_run_shape(r, "");
    if (!out.is_none()) {
      traces::WriterOptions store;
      store.wait_seconds = wait;
      app::record_device_run(py::str(out).cast<std::string>(), id, r, shape_text, store);
    }
    py::dict result = from_json(app::device_run_json(r, shape_text));
    py::list waves;  // the waves themselves, which the CLI leaves to the store
    for (const hw::WaveStamp& w : r.waves)
      waves.append(py::dict(py::arg("block") = py::make_tuple(w.block_x, w.block_y), py::arg("wave") = w.wave,
                            py::arg("cu") = w.chip_cu(), py::arg("simd") = w.simd, py::arg("slot") = w.slot,
                            py::arg("clock") = py::make_tuple(w.clock_start, w.clock_end),
                            py::arg("timer") = py::make_tuple(w.timer_start, w.timer_end)));
    result["waves"] = waves;
    if (!out.is_none()) result["run_id"] = id;
    return result;
  }, py::arg("kernel"), py::arg("device") = "emu", py::arg("shape") = py::none(), py::arg("seed") = 1,
     py::arg("reps") = 20, py::arg("warmup") = 3, py::arg("flush") = true, py::arg("wave_stamps") = false,
     py::arg("arch") = "gfx950", py::arg("code_objects") = "", py::arg("out") = py::none(),
     py::arg("run_id") = py::none(), py::arg("wait") = 60.0,
     "Run a kernel's host on a device (`tilelab run`): 'emu' (the functional emulator, the check only), 'hip' "
     "(an AMD GPU) or 'cuda' (an NVIDIA GPU). The check first, then warm-up and timed repetitions with the caches "
     "flushed.  Returns `run --json`'s dict ('check', 'device', 'timing' when timed, 'wave_stamps') plus 'waves' "
     "(one dict per stamped wave).  out='FILE.h5' records the run as `run --out` does (run_id default "
     "'run-<kernel>-<device>-<arch>'; wait: seconds to wait for another writer).  RuntimeError when there is no "
     "such device.");
  m.def("sim", [](const std::string& kernel, const std::string& arch_name, const py::object& shape, std::uint64_t seed,
                  bool timed, const py::object& cus_count, const std::string& code_objects, bool full,
                  const py::object& out, const py::object& run_id, double wait, int threads, const py::object& like,
                  bool all_xcds, bool fast_forward, const py::object& launch) {
    if (full && all_xcds) throw std::invalid_argument("full=True and all_xcds=True exclude each other, as --full and --all-xcds");
    // The CLI's check (sim --cus): the model would otherwise build that many CUs.
    const long long cus_asked = to_int(cus_count);
    timing::check_cus(cus_asked);
    if (!(wait >= 0)) throw std::invalid_argument("wait must not be negative");
    if (!like.is_none() && !timed) throw std::invalid_argument("like= goes with timing=True, as sim --like does");
    app::TimedOptions o;  // the timed run's (sim --timing's options)
    o.seed = seed;
    o.cus = static_cast<int>(cus_asked);
    o.coverage = full ? app::Coverage::full : all_xcds ? app::Coverage::all_xcds : app::Coverage::sampled;
    o.fast_forward = fast_forward;
    o.threads = threads;
    traces::WriterOptions store;
    store.wait_seconds = wait;
    if (!launch.is_none())
      return sim_launch_file(kernel, py::str(launch).cast<std::string>(), arch_name, shape, o, timed, out, run_id,
                             store, like);
    const app::SuiteTarget target = app::resolve_suite(
        kernel, arch::load_arch(arch_name),
        shape.is_none() ? std::nullopt : std::optional(suite_shape(shape)), code_objects);
    const std::string id = !run_id.is_none() ? run_id.cast<std::string>()
                                             : app::sim_run_id(like_id(like), timed ? "timing" : "sim",
                                                               target.spec->name, target.arch.name);
    if (!like.is_none())  // sim --like's checks: the run is there and is this kernel's dispatch at this shape
      app::check_like_suite(out.is_none() ? "" : py::str(out).cast<std::string>(), like_id(like), *target.spec,
                            target.shape);
    if (!out.is_none()) traces::check_new_run(py::str(out).cast<std::string>(), id);  // before the work, as the CLI
    std::optional<kernels::DesignReport> design;
    if (target.spec->work) design = kernels::design_check(*target.spec, target.arch, std::nullopt, target.shape);
    std::unique_ptr<app::TimedKernelRun> timed_run;
    app::FunctionalRun functional;
    if (timed) {
      py::gil_scoped_release release;  // the model's threads (and the caller's) run while it works
      timed_run = app::run_timed(target, o);
    } else {
      functional = app::run_functional(target, seed);
    }
    const app::FunctionalRun& r = timed_run ? timed_run->functional : functional;
    py::dict d = from_json(app::functional_json(target, r, app::lds_vs_design(r.stats, design ? &*design : nullptr)));
    d["tolerance_why"] = r.tolerance_why;
    d["seconds"] = r.seconds;
    d["output"] = py::array_t<std::uint8_t>(static_cast<py::ssize_t>(r.output.size()), r.output.data());
    if (timed_run) {
      d["timing"] = timing_dict(timed_run->view, like);
      const app::TimedRun& t = timed_run->view;
      if (t.timing->sampled_xcds) d["pass"] = py::none();  // the other XCDs' output was never written
      if (!out.is_none()) app::record_timing(py::str(out).cast<std::string>(), id, t, store);
    } else if (!out.is_none()) {
      app::record_functional(py::str(out).cast<std::string>(), id, target, r, store);
    }
    if (!out.is_none()) d["run_id"] = id;
    return d;
  }, py::arg("kernel"), py::arg("arch") = "gfx950", py::arg("shape") = py::none(), py::arg("seed") = 1,
     py::arg("timing") = false, py::arg("cus") = 0, py::arg("code_objects") = "", py::arg("full") = false,
     py::arg("out") = py::none(), py::arg("run_id") = py::none(), py::arg("wait") = 60.0, py::arg("threads") = 0,
     py::arg("like") = py::none(), py::arg("all_xcds") = false, py::arg("fast_forward") = true,
     py::arg("launch") = py::none(),
     "`tilelab sim` from Python, with the CLI's defaults and keys.  Runs a kernel's code object in the functional "
     "emulator against its CPU reference and returns what `sim --functional --json` prints (pass, error, "
     "wave-instructions, 'lds_races', every LDS site, 'lds_vs_design'), plus 'tolerance_why', 'seconds' and the "
     "output bytes.  shape: the spec's dimensions (default: its smallest example, as the CLI).  arch: a built-in "
     "name or a .toml file, used by every part of the run.  timing=True runs it in the cycle model (cus: CUs to "
     "spread the grid over, 0 for the chip's) and adds 'timing': what `sim --timing --json` prints, plus numpy "
     "columns 'per_instruction', 'wave_spans' and 'issue_events' with 'class_names' and 'reason_names'.  As in the "
     "CLI, a timed grid that fills the chip is sampled (XCD 0 simulated, totals scaled; 'pass' is then None); "
     "full=True simulates every workgroup, all_xcds=True every XCD (--all-xcds), fast_forward=False every "
     "workgroup of the sampled XCD (--no-fast-forward); threads: the cycle model's threads (0: one per core; the result is "
     "the same whatever the number).  code_objects: a folder of <arch>/<source>.hsaco to run instead of "
     "the build's (a variant).  out='FILE.h5' adds the run to a trace store (run_id default "
     "'sim-<kernel>-<arch>' or 'timing-<kernel>-<arch>', the same bytes as the CLI's --out; wait: seconds to wait "
     "for another writer); the dict then says its 'run_id'.  like='RUN' (with timing=True): the run simulates the "
     "profiled dispatch RUN (see like()); recorded with {'like': RUN} in its config and run_id default 'RUN-timing', "
     "as `sim --like` does, so compare() lines the two up.  launch='L.toml': kernel is a code object tilelab did not "
     "build (FILE.co, .hsaco, assembly), run from its launch file as `sim FILE.co --launch L.toml` (shape: a dict of the "
     "template's names); the dict then has 'kernel', 'shape' (the launch's text), 'arch', 'workgroups', 'waves', "
     "'wave_instructions', 'seconds', 'saved' (the buffers marked save, numpy bytes; none from a sampled timed run) "
     "and, timed, 'timing'.");
  m.def("listing", [](const std::string& store, const std::string& run) {
    const traces::Reader r(store);
    py::list rows;
    for (const traces::ListingRow& row : traces::stored_listing(r, run)) {
      py::dict d;
      d["pc"] = row.stat.pc;
      d["instruction"] = std::string(row.stat.instruction, strnlen(row.stat.instruction, sizeof row.stat.instruction));
      d["hits"] = row.stat.hits;
      d["latency"] = row.stat.latency;
      d["stall"] = row.stat.stall;
      d["idle"] = row.stat.idle;
      d["waits_on"] = row.waits_on;
      d["source"] = row.source.empty() ? py::object(py::none()) : py::object(py::str(row.source));
      rows.append(d);
    }
    return rows;
  }, py::arg("store"), py::arg("run"),
     "`tilelab runs show STORE RUN --listing`: the run's instructions in program order, one dict each (pc, "
     "instruction, hits, latency, stall, idle in the run's time unit, waits_on: the stall reason that cost most "
     "there, source: 'file:line' from the code object's line table or None), for a simulated run or an imported thread trace alike; [] when the run has no per-pc statistics.");
  m.def("like", [](const std::string& store, const std::string& run, const py::object& shape,
                   const py::object& code_object, const py::object& launch) {
    if (code_object.is_none() != launch.is_none())
      throw std::invalid_argument("code_object= and launch= go together, as sim --like RUN FILE.co --launch L.toml");
    if (!code_object.is_none()) {
      const app::LikeLaunch l = app::resolve_like_launch(
          traces::Reader(store).run(run), isa::read_code_object(py::str(code_object).cast<std::string>()),
          py::str(launch).cast<std::string>(), template_shape(shape));
      py::dict d;
      d["kernel"] = l.launch.kernel;
      d["shape"] = l.given;
      d["shape_text"] = app::launch_shape_text(l.launch);
      d["shape_from"] = l.shape_from;
      d["arch"] = l.arch.empty() ? py::object(py::none()) : py::object(py::str(l.arch));
      d["workgroups"] = l.workgroups >= 0 ? py::object(py::int_(l.workgroups)) : py::object(py::none());
      return d;
    }
    const app::LikeDispatch l = app::resolve_like(
        traces::Reader(store).run(run),
        shape.is_none() ? std::nullopt : std::optional(suite_shape(shape)));
    py::dict d;
    d["kernel"] = l.spec->name;
    d["shape"] = l.shape;
    d["shape_text"] = app::shape_text(*l.spec, l.shape);
    d["shape_from"] = l.shape_from;
    d["arch"] = l.arch.empty() ? py::object(py::none()) : py::object(py::str(l.arch));
    d["workgroups"] = l.workgroups >= 0 ? py::object(py::int_(l.workgroups)) : py::object(py::none());
    return d;
  }, py::arg("store"), py::arg("run"), py::arg("shape") = py::none(), py::arg("code_object") = py::none(),
     py::arg("launch") = py::none(),
     "The suite kernel and shape of a dispatch measured on a GPU (`sim --like`'s resolution): run is a hw run of "
     "the trace store (imported or `tilelab run`).  Returns {'kernel', 'shape', 'shape_text', 'shape_from', 'arch' "
     "(None when the run does not say), 'workgroups' (the dispatch's grid; None when not recorded)}.  The shape is "
     "shape= when given, else the run's problem shape when it is in the kernel's words, else the one example "
     "shape whose grid is the dispatch's; ValueError, one line, when the kernel is no suite kernel, the shape "
     "launches another grid, or it cannot be found.  Then sim(d['kernel'], shape=d['shape'], timing=True, "
     "out=store, like=run).  With code_object= and launch= (a launch template of a kernel tilelab did not build, "
     "as `sim --like RUN FILE.co --launch L.toml`): 'kernel' is the code object's, 'shape' a dict of the names given "
     "(shape=, a dict) or solved from the dispatch's grid, 'shape_from' says how each was found; then "
     "sim(code_object, launch=launch, shape=d['shape'], timing=True, out=store, like=run).");
}
