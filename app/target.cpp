#include "kernels/code_object_dir.hpp"
#include "app/target.hpp"

#include <algorithm>
#include <filesystem>
#include <cctype>
#include <sstream>
#include <stdexcept>

#include "generated/kernel_build.hpp"
#include "kernels/host.hpp"

namespace tilelab::app {

namespace {
std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}
}  // namespace

SuiteTarget resolve_suite(const std::string& kernel, arch::Arch arch,
                          const std::optional<std::vector<long long>>& shape, const std::string& code_object_dir) {
  SuiteTarget t;
  t.spec = &kernels::find_spec(kernel);
  const kernels::KernelSpec& spec = *t.spec;
  if (!kernels::find_host(kernel))
    throw std::invalid_argument("kernel '" + kernel + "' has no host yet (hosted: " + joined(kernels::hosted_kernels()) + ")");
  t.arch = std::move(arch);
  t.shape = shape ? *shape : default_shape(spec);
  if (t.shape.size() != spec.shape_dims.size())
    throw std::invalid_argument(kernel + " takes a shape of " + std::to_string(spec.shape_dims.size()) + " numbers");
  if (std::string v = spec.shape_violations(t.shape); !v.empty())
    throw std::invalid_argument(kernel + " refuses this shape: " + v);
  if (std::find(spec.archs.begin(), spec.archs.end(), t.arch.name) == spec.archs.end())
    throw std::invalid_argument(kernel + " is not built for " + t.arch.name + " (only for " + joined(spec.archs) + ")");
  namespace fs = std::filesystem;
  const std::string dir = code_object_dir.empty() ? kernels::code_object_dir() : code_object_dir;
  t.code_object = (fs::path(dir) / t.arch.name / (fs::path(spec.source).stem().string() + ".hsaco")).string();
  return t;
}

std::vector<long long> default_shape(const kernels::KernelSpec& spec) {
  std::vector<long long> shape = spec.example_shapes.front();
  auto size = [](const std::vector<long long>& s) {
    long double p = 1;
    for (long long x : s) p *= static_cast<long double>(x);
    return p;
  };
  for (const auto& s : spec.example_shapes)
    if (size(s) < size(shape)) shape = s;
  return shape;
}

std::string shape_text(const kernels::KernelSpec& spec, const std::vector<long long>& shape) {
  std::string s;
  for (std::size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + spec.shape_dims[i] + "=" + std::to_string(shape[i]);
  return s;
}

std::vector<long long> parse_shape(const std::string& text) {
  std::vector<long long> v;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    std::size_t used = 0;
    long long x = 0;
    try {
      x = std::stoll(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size()) throw std::invalid_argument("--shape: '" + item + "' is not an integer");
    v.push_back(x);
  }
  return v;
}

std::map<std::string, std::int64_t> parse_named_shape(const std::string& text) {
  std::map<std::string, std::int64_t> shape;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const std::size_t eq = item.find('=');
    const std::string name = item.substr(0, eq);
    const bool named = eq != std::string::npos && !name.empty() &&
                       std::all_of(name.begin(), name.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }) &&
                       !std::isdigit(static_cast<unsigned char>(name[0]));
    std::size_t used = 0;
    long long x = 0;
    try {
      if (named) x = std::stoll(item.substr(eq + 1), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (!named || used == 0 || used != item.size() - eq - 1)
      throw std::invalid_argument("--shape: '" + item + "' is not NAME=INTEGER (a launch template's shape: M=4096,N=4096,K=512)");
    if (x < 0) throw std::invalid_argument("--shape: " + name + " is " + std::to_string(x) + " (a size or a flag: 0 or more)");
    if (!shape.emplace(name, x).second) throw std::invalid_argument("--shape: " + name + " is given twice");
  }
  if (shape.empty()) throw std::invalid_argument("--shape: empty (a launch template's shape: M=4096,N=4096,K=512)");
  return shape;
}

std::string default_run_id(std::string_view kind, const std::string& kernel, const std::string& arch) {
  return std::string(kind) + "-" + kernel + "-" + arch;
}

}  // namespace tilelab::app
