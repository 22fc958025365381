// `tilelab layout eval|show`: the layout calculator.
#include <boost/program_options.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "traces/output_file.hpp"
#include "layouts/expr.hpp"
#include "layouts/render.hpp"
#include "app/json.hpp"
#include "tools/cli/command.hpp"
#include "tools/cli/options.hpp"

namespace po = boost::program_options;

namespace tilelab::cli {

namespace {

const char* const kLayoutHelp =
    "usage: tilelab layout eval [--json] [--file F] [EXPR...]\n"
    "       tilelab layout show [--svg FILE] EXPR\n"
    "       tilelab layout show --tv THR VAL [--svg FILE]\n"
    "\n"
    "eval   prints one result line per expression, in CuTe notation without spaces\n"
    "       (e.g. ((2,2),3):((24,2),8); an integer as itself; a rank-1 tuple as (4)).\n"
    "       --file F reads one expression per line (blank lines and # comments skipped;\n"
    "       F = - reads standard input).  A failing expression prints\n"
    "       'error: <what>, at column N' on its line and the run goes on; the exit\n"
    "       status is 1 if any failed.  --json prints one JSON value per line instead.\n"
    "show   prints a rank-1 or rank-2 layout as a table of offsets (mode 0 down,\n"
    "       mode 1 across); --svg FILE also draws it.  --tv THR VAL shows the\n"
    "       thread-value layout make_layout_tv(THR, VAL): each tile cell labelled\n"
    "       T<thread>V<value> and, in the SVG, coloured by thread.\n"
    "\n"
    "expressions (spaces allowed anywhere):\n"
    "  8  (4,(2,3))  _                integers and tuples (_ slices, in coordinates/tilers)\n"
    "  (6,2):(8,2)  12:1              layouts SHAPE:STRIDE\n"
    "  <3:3,(2,4):(1,8)>  <4,_>       tilers (by-mode; an integer n means n:1)\n"
    "  Sw<3,4,3> o (8,64):(64,1)      swizzled layout (Sw<B,M,S> o [offset o] layout)\n"
    "  A o B                          composition(A, B)\n"
    "  a shape where a layout is expected means its compact column-major layout.\n"
    "\n"
    "functions:\n";

int usage_error(const std::string& what) {
  std::cerr << "error: " << what << "\n(see tilelab layout --help)\n";
  return kUsage;
}

std::string help_text() {
  std::string s = kLayoutHelp;
  for (const auto& [name, sig] : function_help()) s += "  " + sig + "\n";
  s += "\nexit status: 0 success, 1 an expression failed, 2 usage error.\n";
  return s;
}

// Evaluate one expression; print its result or its error on one line.
bool eval_line(const std::string& text, bool json, std::ostream& out) {
  try {
    Value v = evaluate(text);
    // to_json(v): the layout library's own serialisation of the value.
    out << (json ? Json{{"result", Json::parse(to_json(v))}, {"text", to_string(v)}}.dump() : to_string(v)) << "\n";
    return true;
  } catch (const ExprError& e) {
    std::string msg = e.message();
    if (json) {
      out << Json{{"error", msg}, {"column", e.column()}}.dump() << "\n";
    } else {
      out << "error: " << msg << "\n";
    }
    return false;
  }
}

bool is_blank_or_comment(const std::string& line) {
  std::size_t i = line.find_first_not_of(" \t\r");
  return i == std::string::npos || line[i] == '#';
}

int run_eval(const std::vector<std::string>& exprs, const std::string& file, bool json) {
  std::ostringstream out;  // one write at the end keeps output fast for 10^4 lines
  bool ok = true;
  for (const std::string& e : exprs) ok &= eval_line(e, json, out);
  if (!file.empty()) {
    std::ifstream in;
    std::istream* src = &std::cin;
    if (file != "-") {
      in.open(file);
      if (!in) return usage_error("cannot read expression file '" + file + "'");
      src = &in;
    }
    // Lines are read with a bound (a file without newlines, such as
    // /dev/zero, must not grow memory without limit) and the output is
    // written as it goes (bounded too, and nothing is lost if a later line fails).
    std::string line;
    std::size_t number = 0;
    for (;;) {
      line.clear();
      int c;
      while ((c = src->get()) != EOF && c != '\n') {
        if (line.size() > kMaxExprLength) break;
        line.push_back(static_cast<char>(c));
      }
      if (c == EOF && line.empty()) break;
      ++number;
      if (line.size() > kMaxExprLength) {
        std::cout << out.str() << std::flush;
        std::cerr << "error: " << file << ": line " << number << " is longer than " << kMaxExprLength
                  << " characters; stopped there\n";
        return kFailed;
      }
      if (!is_blank_or_comment(line)) ok &= eval_line(line, json, out);
      if (out.tellp() > (1 << 20)) {
        std::cout << out.str();
        out.str("");
      }
      if (c == EOF) break;
    }
  }
  std::cout << out.str();
  return ok ? kOk : kFailed;
}

// Write whole or not at all, and only over a regular file (traces/output_file).
bool write_file(const std::string& path, const std::string& content) {
  try {
    traces::write_output_file(path, content);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

int run_show(const std::vector<std::string>& exprs, bool tv, const std::string& svg_path) {
  if (tv && exprs.size() != 2) return usage_error("show --tv takes two expressions: THR VAL");
  if (!tv && exprs.size() != 1) return usage_error("show takes one expression");
  std::string text, picture;
  try {
    if (tv) {
      Value thr = evaluate(exprs[0]), val = evaluate(exprs[1]);
      auto as_layout = [](const Value& v, const char* what) {
        if (auto* l = std::get_if<Layout>(&v)) return *l;
        if (auto* t = std::get_if<IntTuple>(&v)) return Layout(*t);
        throw ExprError(std::string(what) + " must be a layout", 1);
      };
      TVLayout l = make_layout_tv(as_layout(thr, "THR"), as_layout(val, "VAL"));
      text = table(l);
      if (!svg_path.empty()) picture = svg(l);
    } else {
      Value v = evaluate(exprs[0]);
      if (auto* t = std::get_if<IntTuple>(&v); t && !t->has_underscore()) v = Layout(*t);
      if (auto* l = std::get_if<Layout>(&v)) {
        text = table(*l);
        if (!svg_path.empty()) picture = svg(*l);
      } else if (auto* c = std::get_if<ComposedLayout>(&v)) {
        text = table(*c);
        if (!svg_path.empty()) picture = svg(*c);
      } else {
        throw ExprError("show draws a layout or swizzled layout, not " + to_string(v), 1);
      }
    }
  } catch (const ExprError& e) {
    std::cerr << "error: " << e.message() << "\n";
    return kFailed;
  } catch (const LayoutError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kFailed;
  }
  std::cout << text;
  if (!svg_path.empty() && !write_file(svg_path, picture)) {
    std::cerr << "error: cannot write '" << svg_path << "'\n";
    return kFailed;
  }
  return kOk;
}

}  // namespace

int run_layout(const std::vector<std::string>& args) {
  if (args.empty()) return usage_error("layout needs a subcommand: eval or show");
  if (args[0] == "--help" || args[0] == "-h") {
    std::cout << help_text();
    return kOk;
  }
  const std::string& sub = args[0];
  if (sub != "eval" && sub != "show") return usage_error("unknown layout subcommand '" + sub + "'");

  bool want_help = false, json = false, tv = false;
  std::optional<std::string> file, svg;
  std::vector<std::string> exprs;
  po::options_description opts = option_group("options");
  opts.add_options()("help,h", flag(want_help), "this text")(
      "json", flag(json), "eval: one JSON value per line")(
      "file", optional_value(file, "F"), "eval: one expression per line (- reads standard input)")(
      "svg", optional_value(svg, "FILE"), "show: also draw it")(
      "tv", flag(tv), "show: the thread-value layout make_layout_tv(THR, VAL)");
  po::options_description all(opts);
  all.add_options()("expr", po::value(&exprs), "");
  po::positional_options_description pos;
  pos.add("expr", -1);
  po::variables_map vm;
  try {
    // Expressions may start with '-' (a negative integer); only known long
    // options are options, so allow_long_disguise is off and short options off.
    auto style = po::command_line_style::unix_style ^ po::command_line_style::allow_short;
    po::store(po::command_line_parser(std::vector<std::string>(args.begin() + 1, args.end()))
                  .options(all)
                  .positional(pos)
                  .style(style)
                  .run(),
              vm);
    po::notify(vm);
  } catch (const po::error& e) {
    return usage_error(e.what());
  }
  if (want_help) {
    std::cout << help_text() << "\n" << opts;
    return kOk;
  }
  if (sub == "eval") {
    if (svg || tv) return usage_error("--svg and --tv belong to 'layout show'");
    if (exprs.empty() && !file) return usage_error("eval needs expressions or --file");
    return run_eval(exprs, file.value_or(""), json);
  }
  if (file || json) return usage_error("--file and --json belong to 'layout eval'");
  return run_show(exprs, tv, svg.value_or(""));
}

}  // namespace tilelab::cli
