// Small helpers shared by the subcommands: option parsing, errors, reading
// layouts from the expression language.
#pragma once

#include <boost/program_options.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "layouts/expr.hpp"
#include "tools/cli/command.hpp"

namespace tilelab::cli {

namespace po = boost::program_options;

// One-line error, the pointer to --help, exit status 2.
inline int usage_error(const std::string& command, const std::string& what) {
  std::cerr << "error: " << what << "\n(see tilelab " << command << " --help)\n";
  return kUsage;
}

// Parse args into vm; returns false (after printing) on a bad command line.
inline bool parse_options(const std::string& command, const std::vector<std::string>& args,
                          const po::options_description& opts, po::variables_map& vm, int& status,
                          const po::positional_options_description* pos = nullptr) {
  try {
    auto style = po::command_line_style::unix_style ^ po::command_line_style::allow_short;
    po::command_line_parser p(args);
    p.options(opts).style(style);
    if (pos) p.positional(*pos);
    po::store(p.run(), vm);
    po::notify(vm);
    return true;
  } catch (const po::error& e) {
    status = usage_error(command, e.what());
    return false;
  }
}

// Whether a command's target names a code object file (FILE.co, FILE.hsaco,
// AMDGPU assembly FILE.s / .S / .asm / .amdgcn, assembled and linked on
// reading, or any path) rather than a kernel of the suite.
inline bool names_code_object(const std::string& t) {
  auto ends = [&](const std::string& x) { return t.size() > x.size() && t.compare(t.size() - x.size(), x.size(), x) == 0; };
  return ends(".co") || ends(".hsaco") || ends(".s") || ends(".S") || ends(".asm") || ends(".amdgcn") ||
         t.find('/') != std::string::npos;
}

// A layout written in the expression language (a shape means its compact layout).
inline Layout layout_arg(const std::string& option, const std::string& text) {
  Value v;
  try {
    v = evaluate(text);
  } catch (const ExprError& e) {
    throw std::invalid_argument(option + ": " + e.message());
  }
  if (auto* l = std::get_if<Layout>(&v)) return *l;
  if (auto* t = std::get_if<IntTuple>(&v); t && !t->has_underscore()) return Layout(*t);
  throw std::invalid_argument(option + ": '" + text + "' is not a layout");
}

}  // namespace tilelab::cli
