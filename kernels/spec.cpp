#include "kernels/spec.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <stdexcept>

#include "layouts/layout.hpp"

namespace tilelab::kernels {

std::string LdsBuffer::layout() const {
  const Layout row_major(IntTuple{rows, cols}, IntTuple{cols, 1});
  return swizzle ? to_string(*swizzle) + " o " + to_string(row_major) : to_string(row_major);
}

Int LdsBuffer::offset(Int row, Int col) const {
  const Int o = row * cols + col;
  return swizzle ? (*swizzle)(o) : o;
}

long long KernelSpec::lds_bytes() const {
  long long b = 0;
  for (const auto& l : lds) b += l.bytes();
  return b;
}

std::function<std::vector<GlobalTile>(long long)> gemm_tiles_read(
    long long cols, long long a_bytes, long long b_bytes, std::function<long long(long long, long long)> b_panel) {
  return [=](long long w) {
    const long long row = w / cols, col = w % cols;
    return std::vector<GlobalTile>{{tile_key(0, row), a_bytes}, {tile_key(1, b_panel ? b_panel(row, col) : col), b_bytes}};
  };
}

std::string KernelSpec::shape_violations(const std::vector<long long>& shape) const {
  if (shape.size() != shape_dims.size()) {
    std::string dims;
    for (const auto& d : shape_dims) dims += (dims.empty() ? "" : ",") + d;
    return name + " takes " + std::to_string(shape_dims.size()) + " dimensions (" + dims + "), got " +
           std::to_string(shape.size());
  }
  for (std::size_t i = 0; i < shape.size(); ++i) {
    bool is_switch = std::find(switch_dims.begin(), switch_dims.end(), shape_dims[i]) != switch_dims.end();
    if (is_switch ? (shape[i] != 0 && shape[i] != 1) : shape[i] <= 0)
      return is_switch ? shape_dims[i] + " must be 0 or 1" : "every dimension must be positive";
    // Beyond this, tile and workgroup counts (grid dimensions are 32-bit) and
    // byte counts would overflow: refuse rather than print garbage.
    if (shape[i] > kMaxDimension)
      return shape_dims[i] + " = " + std::to_string(shape[i]) + " is beyond the largest dimension tilelab takes (2^31 - 1)";
  }
  long double elements = 1;
  for (long long d : shape) elements *= static_cast<long double>(std::max(d, 1LL));
  if (elements > 0x1p53L)
    return "the shape's dimensions multiply to more than 2^53: beyond what tilelab counts exactly";
  std::string broken;
  for (const auto& r : shape_rules)
    if (!r.holds(shape)) broken += (broken.empty() ? "" : "; ") + r.text;
  return broken.empty() ? "" : name + " needs " + broken;
}

// The suite's folders (kernels/suite.cmake), each defining its specs.
#define TILELAB_SUITE_FOLDER(folder) std::vector<KernelSpec> folder##_suite_specs();
#include "generated/suite_folders.inc"
#undef TILELAB_SUITE_FOLDER

const std::vector<KernelSpec>& all_specs() {
  static const std::vector<KernelSpec> specs = [] {
    std::vector<KernelSpec> s;
#define TILELAB_SUITE_FOLDER(folder) \
  for (auto& k : folder##_suite_specs()) s.push_back(std::move(k));
#include "generated/suite_folders.inc"
#undef TILELAB_SUITE_FOLDER
    return s;
  }();
  return specs;
}

std::string did_you_mean(const std::string& name, const std::vector<std::string>& names) {
  auto distance = [](const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
      std::size_t diagonal = row[0];
      row[0] = i;
      for (std::size_t j = 1; j <= b.size(); ++j) {
        const std::size_t above = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
        diagonal = above;
      }
    }
    return row[b.size()];
  };
  const std::size_t limit = std::max<std::size_t>(1, name.size() / 4);
  const std::string* best = nullptr;
  std::size_t best_distance = limit + 1;
  for (const std::string& n : names) {
    const std::size_t d = distance(name, n);
    if (d < best_distance) best = &n, best_distance = d;
  }
  return best ? " (did you mean '" + *best + "'?)" : "";
}

const KernelSpec& find_spec(const std::string& name) {
  std::string listed;
  std::vector<std::string> names;
  for (const auto& s : all_specs()) {
    if (s.name == name) return s;
    listed += (listed.empty() ? "" : ", ") + s.name;
    names.push_back(s.name);
  }
  throw std::invalid_argument("no kernel named '" + name + "'" + did_you_mean(name, names) + " (there are: " + listed + ")");
}

namespace {
// (No allocation before main: a failed one there could not be reported.)
constexpr std::array<std::string_view, 7> kTemplates = {"gemm_bf16",        "gemm_mxfp4",        "gemm_mxfp4_32x32",
                                                        "gemm_mxfp8",       "gemm_mxfp8_32x32",  "attention_fwd_d64",
                                                        "attention_fwd_d128"};

KernelSpec named(std::vector<KernelSpec> specs, const std::string& kernel) {
  for (KernelSpec& s : specs)
    if (s.name == kernel) return std::move(s);
  throw std::logic_error("no spec " + kernel + " among its template's");
}
}  // namespace

bool has_variant_spec(const std::string& kernel) {
  return std::find(kTemplates.begin(), kTemplates.end(), kernel) != kTemplates.end();
}

KernelSpec variant_spec(const std::string& kernel, const TemplateParams& params) {
  if (!has_variant_spec(kernel)) {
    find_spec(kernel);  // an unknown name says which there are
    std::string list;
    for (const std::string_view t : kTemplates) list += (list.empty() ? "" : ", ") + std::string(t);
    throw std::invalid_argument(kernel + " is not a template (templates with a spec per variant: " + list + ")");
  }
  if (kernel == "gemm_bf16") return gemm_bf16_spec(params);
  if (kernel.starts_with("gemm_mxfp4")) return named(gemm_mxfp4_specs(params), kernel);
  if (kernel.starts_with("gemm_mxfp8")) return named(gemm_mxfp8_specs(params), kernel);
  return attention_fwd_spec(kernel == "attention_fwd_d64" ? 64 : 128, params);
}

void check_params(const std::string& kernel, const TemplateParams& params, const std::vector<std::string>& known) {
  for (const auto& [name, value] : params)
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      throw std::invalid_argument(kernel + " has no parameter '" + name + "' (it takes " + list + ")");
    }
}

std::int64_t param(const TemplateParams& params, const std::string& name, std::int64_t fallback) {
  const auto it = params.find(name);
  return it == params.end() ? fallback : it->second;
}

}  // namespace tilelab::kernels
