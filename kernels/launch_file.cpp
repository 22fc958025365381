#include "kernels/launch_file.hpp"

#include <unistd.h>

#include <charconv>

#include <toml++/toml.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include "kernels/common/formats.hpp"
#include "kernels/launch_expression.hpp"
#include "sim/arch/toml_text.hpp"

namespace tilelab::kernels {

namespace {

constexpr std::uint64_t kMaxBufferBytes = std::uint64_t{1} << 32;  // 4 GiB per buffer
constexpr std::size_t kMaxLaunchFileBytes = 1 << 20;

[[noreturn]] void fail(const std::string& file, const toml::node* at, const std::string& what) {
  std::string where = file;
  if (at && at->source().begin.line) where += ":" + std::to_string(at->source().begin.line);
  throw std::invalid_argument(where + ": " + what);
}

std::string read_text(const std::string& file) {
  std::error_code ec;  // only a regular file: a FIFO would block forever
  if (std::filesystem::exists(file, ec) && !std::filesystem::is_regular_file(file, ec))
    throw std::invalid_argument("launch file '" + file + "' is not a regular file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read launch file '" + file + "'");
  std::string text(kMaxLaunchFileBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxLaunchFileBytes) throw std::invalid_argument(file + ": larger than 1 MiB: not a launch file");
  return text;
}

using Shape = std::map<std::string, std::int64_t>;

// A whole number written as a TOML integer, or as a string holding an
// expression of the shape (kernels/launch_expression.hpp): "ceil(N/256)".
// `names`, when given, gains the names the expression reads.
std::optional<std::int64_t> whole_number(const std::string& file, const toml::node& n, const Shape& shape,
                                         const std::string& what, std::set<std::string>* names = nullptr) {
  if (n.is_integer()) return **n.as_integer();
  if (!n.is_string()) return std::nullopt;
  const std::string& text = **n.as_string();
  try {
    const LaunchExpression e = LaunchExpression::parse(text);
    if (names)
      for (const std::string& name : e.names()) names->insert(name);
    return e.whole(shape);
  } catch (const LaunchExpressionError& e) {
    fail(file, &n, what + " '" + text + "': " + e.what());
  }
}

std::array<std::uint32_t, 3> dims(const std::string& file, const toml::node& n, const char* key, const Shape& shape) {
  const toml::array* a = n.as_array();
  if (!a || a->empty() || a->size() > 3) fail(file, &n, std::string(key) + " must be [x], [x, y] or [x, y, z]");
  std::array<std::uint32_t, 3> d{1, 1, 1};
  for (std::size_t i = 0; i < a->size(); ++i) {
    const auto v = whole_number(file, *a->get(i), shape, std::string(key) + "[" + std::to_string(i) + "]");
    if (!v || *v < 1 || *v > 0x7fffffff)
      fail(file, a->get(i), std::string(key) + " values must be integers from 1 to 2^31-1" +
                                (v ? " (this one is " + std::to_string(*v) + ")" : ""));
    d[i] = static_cast<std::uint32_t>(*v);
  }
  return d;
}

void only(const std::string& file, const toml::table& t, std::initializer_list<const char*> keys, const std::string& in) {
  for (const auto& [k, v] : t)
    if (std::none_of(keys.begin(), keys.end(), [&](const char* x) { return k.str() == x; }))
      fail(file, &v, "unknown key '" + std::string(k.str()) + "'" + in);
}

// `size_names` gains the names a buffer's size reads.
LaunchArg read_arg(const std::string& file, const std::string& key, const toml::node& node, const isa::Kernel& k,
                   const Shape& shape, std::set<std::string>& size_names) {
  LaunchArg a;
  a.key = key;
  const isa::KernelArg* meta = nullptr;
  if (!key.empty() && key[0] == '@') {
    // Digits only, and within the 32 bits of a kernarg offset (stoul took
    // "@4294967296" as 0 and "@1x" as 1).
    std::uint64_t wide = 0;
    const char* first = key.data() + 1;
    const char* last = key.data() + key.size();
    const auto [end, ec] = std::from_chars(first, last, wide);
    if (first == last || ec == std::errc::invalid_argument || end != last)
      fail(file, &node, "'" + key + "': an offset is written @N");
    if (ec == std::errc::result_out_of_range || wide > 0xffffffffull)
      fail(file, &node, "'" + key + "': the offset is beyond 32 bits");
    const std::uint32_t off = static_cast<std::uint32_t>(wide);
    for (const auto& m : k.args)
      if (m.offset == off && m.value_kind.rfind("hidden_", 0) != 0) meta = &m;
    if (!meta) fail(file, &node, "kernel " + k.name + " has no argument at offset " + std::to_string(off));
  } else {
    int found = 0;
    for (const auto& m : k.args)
      if (m.name == key && m.value_kind.rfind("hidden_", 0) != 0) meta = &m, ++found;
    if (!found) {
      std::string names;
      for (const auto& m : k.args)
        if (m.value_kind.rfind("hidden_", 0) != 0 && names.find(" " + m.name + ",") == std::string::npos)
          names += " " + m.name + ",";
      if (!names.empty()) names.pop_back();
      fail(file, &node, "kernel " + k.name + " has no argument '" + key + "' (it has:" + names + ")");
    }
    if (found > 1) fail(file, &node, "kernel " + k.name + " has " + std::to_string(found) + " arguments named '" + key +
                                         "': name them by offset, [args.\"@N\"]");
  }
  a.offset = meta->offset;
  a.size = meta->size;
  const toml::table* t = node.as_table();
  if (!t) fail(file, &node, "args." + key + " must be a table");
  only(file, *t, {"value", "buffer", "save"}, " in args." + key + " (value, buffer, save)");
  const bool pointer = meta->value_kind == "global_buffer";
  if (const toml::node* b = t->get("buffer")) {
    if (!pointer || meta->size != 8) fail(file, b, "argument '" + key + "' is " + meta->value_kind + ", not a buffer");
    const toml::table* bt = b->as_table();
    if (!bt) fail(file, b, "buffer must be { bytes = N, fill = ... }");
    only(file, *bt, {"bytes", "fill", "dtype", "value", "path"}, " in a buffer");
    a.is_buffer = true;
    const auto bytes = bt->get("bytes") ? whole_number(file, *bt->get("bytes"), shape, "bytes", &size_names) : std::nullopt;
    if (!bytes || *bytes < 0 || static_cast<std::uint64_t>(*bytes) > kMaxBufferBytes)
      fail(file, b, "buffer bytes must be an integer from 0 to 2^32" + (bytes ? " (this is " + std::to_string(*bytes) + ")" : std::string()));
    a.bytes = static_cast<std::uint64_t>(*bytes);
    a.fill = bt->get("fill") ? bt->get("fill")->value_or(std::string()) : "zeros";
    if (a.fill == "random") {
      a.dtype = bt->get("dtype") ? bt->get("dtype")->value_or(std::string()) : "";
      static const char* const kTypes[] = {"u8", "u16", "u32", "i32", "f32", "bf16"};
      if (std::none_of(std::begin(kTypes), std::end(kTypes), [&](const char* x) { return a.dtype == x; }))
        fail(file, b, "random needs dtype u8, u16, u32, i32, f32 or bf16");
    } else if (a.fill == "constant") {
      const auto v = bt->get("value") ? bt->get("value")->value<std::int64_t>() : std::nullopt;
      if (!v || *v < 0 || *v > 255) fail(file, b, "constant needs value, a byte (0-255)");
      a.constant = static_cast<std::uint8_t>(*v);
    } else if (a.fill == "file") {
      a.file = bt->get("path") ? bt->get("path")->value_or(std::string()) : "";
      if (a.file.empty()) fail(file, b, "file needs path");
      // A relative path is the launch file's neighbour, wherever tilelab runs from.
      if (std::filesystem::path(a.file).is_relative())
        a.file = (std::filesystem::path(file).parent_path() / a.file).lexically_normal().string();
      // Only a regular file: a folder would read as zeros, a FIFO block forever.
      std::error_code ec;
      if (!std::filesystem::is_regular_file(a.file, ec))
        fail(file, b, "'" + a.file + "' is not a regular file");
      std::ifstream probe(a.file, std::ios::binary);
      if (!probe) fail(file, b, "cannot read '" + a.file + "'");
    } else if (a.fill != "zeros") {
      fail(file, b, "fill must be zeros, constant, random or file");
    }
    if (const toml::node* s = t->get("save")) {
      if (!s->is_boolean()) fail(file, s, "save must be true or false");
      a.save = **s->as_boolean();
    }
  } else if (const toml::node* v = t->get("value")) {
    if (pointer && !(v->is_integer() && **v->as_integer() == 0))
      fail(file, v, "argument '" + key + "' is a buffer: give buffer = { ... } (or value = 0, a null pointer)");
    if (t->get("save")) fail(file, t->get("save"), "only buffers are saved");
    if (v->is_integer() || v->is_string()) {
      a.int_value = *whole_number(file, *v, shape, "args." + key);
      const bool fits = a.size >= 8 || (a.int_value >= -(std::int64_t{1} << (8 * a.size - 1)) &&
                                         a.int_value < (std::int64_t{1} << (8 * a.size)));
      if (!fits) fail(file, v, "value " + std::to_string(a.int_value) + " does not fit the argument's " + std::to_string(a.size) + " bytes");
    } else if (v->is_floating_point()) {
      if (a.size != 4 && a.size != 8) fail(file, v, "a float goes into a 4- or 8-byte argument");
      a.is_float = true;
      a.float_value = **v->as_floating_point();
    } else {
      fail(file, v, "value must be a number or an expression of the shape in quotes");
    }
  } else {
    fail(file, &node, "args." + key + " needs value = ... or buffer = { ... }");
  }
  return a;
}

}  // namespace

std::uint64_t default_memory_budget() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return std::uint64_t{8} << 30;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) / 2;
}

LaunchFile read_launch_file(const std::string& file, const isa::CodeObject& co, std::uint64_t max_memory,
                            const std::map<std::string, std::int64_t>& shape_given) {
  const std::string text = read_text(file);
  if (const std::optional<std::string> problem = arch::toml_text_problem(text, file)) throw std::invalid_argument(*problem);
  toml::table root;
  try {
    root = toml::parse(text, file);
  } catch (const toml::parse_error& e) {
    throw std::invalid_argument(file + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
  }
  only(file, root, {"kernel", "grid", "block", "dynamic_lds", "seed", "shape", "args"},
       " (kernel, grid, block, dynamic_lds, seed, shape, args)");
  LaunchFile l;
  l.path = file;
  // The shape: the file's [shape] defaults, then the caller's values (--shape).
  if (const toml::node* sh = root.get("shape")) {
    const toml::table* t = sh->as_table();
    if (!t) fail(file, sh, "shape must be a table of NAME = integer");
    for (const auto& [name, v] : *t) {
      if (!v.is_integer()) fail(file, &v, "shape." + std::string(name.str()) + " must be an integer");
      l.shape[std::string(name.str())] = **v.as_integer();
    }
  }
  for (const auto& [name, v] : shape_given) l.shape[name] = v;
  if (const toml::node* k = root.get("kernel")) {
    if (!k->is_string()) fail(file, k, "kernel must be a string");
    l.kernel = **k->as_string();
  } else if (co.kernels.size() == 1) {
    l.kernel = co.kernels[0].name;
  } else {
    fail(file, nullptr, co.path + " has " + std::to_string(co.kernels.size()) + " kernels: say kernel = \"...\"");
  }
  const isa::Kernel* k = nullptr;
  for (const auto& x : co.kernels)
    if (x.name == l.kernel) k = &x;
  if (!k) co.kernel(l.kernel);  // throws, naming the kernels there are
  if (const toml::node* g = root.get("grid")) {
    l.grid = dims(file, *g, "grid", l.shape);
    for (std::size_t i = 0; i < g->as_array()->size(); ++i)
      if (const auto* text = g->as_array()->get(i)->as_string()) l.grid_expressions[i] = **text;
  }
  l.block = {static_cast<std::uint32_t>(std::max(1, k->max_flat_workgroup_size)), 1, 1};
  if (const toml::node* b = root.get("block")) l.block = dims(file, *b, "block", l.shape);
  const std::uint64_t items = std::uint64_t{l.block[0]} * l.block[1] * l.block[2];
  if (k->max_flat_workgroup_size > 0 && items > static_cast<std::uint64_t>(k->max_flat_workgroup_size))
    fail(file, root.get("block"), "a block of " + std::to_string(items) + " work-items is more than the kernel's " +
                                      std::to_string(k->max_flat_workgroup_size));
  if (const toml::node* d = root.get("dynamic_lds")) {
    const auto v = whole_number(file, *d, l.shape, "dynamic_lds");
    if (!v || *v < 0 || *v > (1 << 20)) fail(file, d, "dynamic_lds must be bytes from 0 to 1 MiB");
    l.dynamic_lds = static_cast<std::uint32_t>(*v);
  }
  if (const toml::node* s = root.get("seed")) {
    const auto v = s->value<std::int64_t>();
    if (!s->is_integer() || !v || *v < 0) fail(file, s, "seed must be a non-negative integer");
    l.seed = static_cast<std::uint64_t>(*v);
  }
  if (const toml::node* a = root.get("args")) {
    const toml::table* t = a->as_table();
    if (!t) fail(file, a, "args must be a table of [args.NAME] tables");
    for (const auto& [key, node] : *t)
      l.args.push_back(read_arg(file, std::string(key.str()), node, *k, l.shape, l.problem_names));
  }
  // Every argument but the padding slots must be given: a forgotten pointer
  // would run the kernel on address 0.
  for (const auto& m : k->args) {
    if (m.value_kind.rfind("hidden_", 0) == 0 || m.name == "pad" || m.name.empty()) continue;
    if (std::none_of(l.args.begin(), l.args.end(), [&](const LaunchArg& a) { return a.offset == m.offset; }))
      fail(file, nullptr, "argument '" + m.name + "' (@" + std::to_string(m.offset) + ") of " + k->name +
                              " is not given (only padding named 'pad' may be left out)");
  }
  std::sort(l.args.begin(), l.args.end(), [](const LaunchArg& x, const LaunchArg& y) { return x.offset < y.offset; });
  for (std::size_t i = 1; i < l.args.size(); ++i)
    if (l.args[i].offset == l.args[i - 1].offset)
      fail(file, nullptr, "'" + l.args[i - 1].key + "' and '" + l.args[i].key + "' are the same argument");
  // All buffers together, before any is allocated (one 4 GiB buffer ended in
  // std::bad_alloc after 36 s).
  std::uint64_t total = 0;
  for (const LaunchArg& a : l.args) total += a.is_buffer ? a.bytes : 0;
  const std::uint64_t budget = max_memory ? max_memory : default_memory_budget();
  if (total > budget)
    fail(file, nullptr, "the buffers take " + std::to_string(total) + " bytes, more than the memory budget of " +
                            std::to_string(budget) + " (--max-memory)");
  return l;
}

namespace {

std::vector<std::uint8_t> contents(const LaunchArg& a, std::uint64_t seed) {
  std::vector<std::uint8_t> b(a.bytes, a.fill == "constant" ? a.constant : 0);
  if (a.fill == "file") {
    std::ifstream in(a.file, std::ios::binary);
    in.read(reinterpret_cast<char*>(b.data()), static_cast<std::streamsize>(b.size()));
  } else if (a.fill == "random") {
    std::mt19937_64 rng(seed ^ (0x9e3779b97f4a7c15ull * (a.offset + 1)));  // each argument its own stream
    std::uniform_real_distribution<float> unit(-1.f, 1.f);
    auto put = [&](std::size_t at, const void* v, std::size_t n) {
      if (at + n <= b.size()) std::memcpy(b.data() + at, v, n);
    };
    if (a.dtype == "u8") for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    if (a.dtype == "u16") for (std::size_t i = 0; i < b.size(); i += 2) { auto v = static_cast<std::uint16_t>(rng()); put(i, &v, 2); }
    if (a.dtype == "u32" || a.dtype == "i32") for (std::size_t i = 0; i < b.size(); i += 4) { auto v = static_cast<std::uint32_t>(rng()); put(i, &v, 4); }
    if (a.dtype == "f32") for (std::size_t i = 0; i < b.size(); i += 4) { float v = unit(rng); put(i, &v, 4); }
    if (a.dtype == "bf16") for (std::size_t i = 0; i < b.size(); i += 2) { auto v = float_to_bf16(unit(rng)); put(i, &v, 2); }
  }
  return b;
}

}  // namespace

HostLaunch launch_file_host(hw::Device& d, const LaunchFile& l, const isa::Kernel& k) {
  HostLaunch launch;
  launch.grid = {l.grid[0], l.grid[1], l.grid[2]};
  launch.block = {l.block[0], l.block[1], l.block[2]};
  launch.dynamic_lds = l.dynamic_lds;
  std::vector<std::pair<const LaunchArg*, std::uint64_t>> buffers;
  for (const auto& m : k.args) {
    if (m.value_kind.rfind("hidden_", 0) == 0) continue;
    std::uint64_t value = 0;
    for (const LaunchArg& a : l.args) {
      if (a.offset != m.offset) continue;
      if (a.is_buffer) {
        value = upload(d, contents(a, l.seed), a.key);
        buffers.emplace_back(&a, value);
      } else if (a.is_float) {
        value = a.size == 4 ? std::bit_cast<std::uint32_t>(static_cast<float>(a.float_value))
                            : std::bit_cast<std::uint64_t>(a.float_value);
      } else {
        value = static_cast<std::uint64_t>(a.int_value);
      }
    }
    launch.arguments.push_back(value);
  }
  launch.check = [&d, buffers] {
    Checked c;
    c.has_reference = false;
    c.tolerance_why = "no reference: a launch file's buffers are saved, not judged";
    for (const auto& [a, address] : buffers)
      if (a->save) c.saved.push_back({a->key, download<std::uint8_t>(d, address, a->bytes)});
    return c;
  };
  return launch;
}

}  // namespace tilelab::kernels
