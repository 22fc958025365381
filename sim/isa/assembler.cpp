#include "sim/isa/assembler.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <regex>

#include "llvm/ADT/SmallVector.h"
#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCObjectWriter.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCAsmParserExtension.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/TargetParser.h"
#include "llvm/TargetParser/Triple.h"
#include "sim/isa/bounded_child.hpp"
#include "sim/isa/code_object.hpp"

extern "C" void LLVMInitializeAMDGPUTargetInfo();
extern "C" void LLVMInitializeAMDGPUTargetMC();
extern "C" void LLVMInitializeAMDGPUAsmParser();

#ifndef TILELAB_LD_LLD
#define TILELAB_LD_LLD "ld.lld"
#endif

namespace tilelab::isa {

namespace {

void init_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmParser();
  });
}

// One line of LLVM's text: its first line, control characters shown as
// '?', at most 300 characters (LLVM's YAML diagnostics span several lines).
std::string one_line(llvm::StringRef message) {
  std::string out;
  for (char c : message) {
    if (c == '\n' || out.size() >= 300) break;
    out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
  }
  return out;
}

// The first error LLVM reports, as "name:line:col: message" (warnings are kept
// only when no error follows; LLVM's notes are left out).  Only the position
// and the message: never the source line LLVM would quote.
struct Diagnostics {
  std::string name;  // the input's
  std::string first_error, first_warning;
  bool error_expanded = false;  // the first error lies in a macro's or .rept's expansion
  std::string error_message;
  static void handle(const llvm::SMDiagnostic& d, void* self) {
    auto* me = static_cast<Diagnostics*>(self);
    const std::string where = one_line(d.getFilename()) + ":" + std::to_string(d.getLineNo()) + ":" +
                              std::to_string(d.getColumnNo() + 1) + ": ";
    const bool in_input = d.getFilename() == me->name;
    if (d.getKind() == llvm::SourceMgr::DK_Error && me->first_error.empty()) {
      me->first_error = where + one_line(d.getMessage());
      me->error_expanded = !in_input;
      me->error_message = one_line(d.getMessage());
    } else if (d.getKind() == llvm::SourceMgr::DK_Note && me->error_expanded && in_input) {
      // LLVM's "while in macro instantiation" notes follow the error, the
      // outermost last: it names the input's own line.
      me->first_error = where + me->error_message + " (in what this line expands to)";
    } else if (d.getKind() == llvm::SourceMgr::DK_Warning && me->first_warning.empty()) {
      me->first_warning = where + one_line(d.getMessage());
    }
  }
};

// The directives that read files, refused where the parser meets them (also
// in a macro's expansion).  LLVM matches extension directives as spelled and
// its own case aside: another spelling meets the empty file system below.
class FileDirectivesRefused : public llvm::MCAsmParserExtension {
 public:
  void Initialize(llvm::MCAsmParser& parser) override {
    MCAsmParserExtension::Initialize(parser);
    for (const char* d : {".include", ".incbin"})
      parser.addDirectiveHandler(d, {this, &FileDirectivesRefused::refuse});
  }

 private:
  static bool refuse(llvm::MCAsmParserExtension* self, llvm::StringRef directive, llvm::SMLoc at) {
    return self->getParser().Error(at, directive.lower() +
                                           " is refused: assembly input may not read files (it is assembled as data, alone)");
  }
};

// In the assembling child: LLVM's fatal errors end it with one line.
void fatal_error(void* name, const char* reason, bool) {
  report_child_failure(*static_cast<const std::string*>(name) + ": LLVM MC stopped: " + one_line(reason));
}
void bad_alloc(void*, const char*, bool) { report_child_out_of_memory(); }

// A scratch folder removed with everything in it when the scope ends.
class ScratchDir {
 public:
  ScratchDir() {
    std::string t = (std::filesystem::temp_directory_path() / "tilelab-asm-XXXXXX").string();
    if (!mkdtemp(t.data())) throw IsaError("cannot create a temporary folder to link the assembly in");
    path_ = t;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::filesystem::path operator/(const char* f) const { return path_ / f; }

 private:
  std::filesystem::path path_;
};

std::vector<std::uint8_t> read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Runs argv with stdout and stderr into `log`; the exit status (-1: not run).
int run_program(const std::vector<std::string>& argv, const std::filesystem::path& log) {
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (!std::freopen(log.c_str(), "w", stdout) || !std::freopen(log.c_str(), "a", stderr)) _exit(127);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

bool looks_like_assembly(std::string_view bytes) {
  if (bytes.substr(0, 4) == std::string_view("\x7f" "ELF", 4)) return false;
  return bytes.substr(0, 4096).find('\0') == std::string_view::npos;
}

bool is_assembly_input(const std::string& path, std::string_view bytes) {
  if (bytes.empty() || !looks_like_assembly(bytes)) return false;
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".s" || ext == ".S" || ext == ".asm" || ext == ".amdgcn") return true;
  return bytes.find(".amdgcn_target") != std::string_view::npos || bytes.find(".amdhsa_kernel") != std::string_view::npos;
}

std::string assembly_target(std::string_view text) {
  static const std::regex directive(R"(\.amdgcn_target\s+"[^"]*--(gfx[0-9a-z]+))");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_search(text.begin(), text.end(), m, directive)) return "";
  return m[1].str();
}

namespace {

// LLVM MC on the text (in the child): the relocatable object's bytes.
std::vector<std::uint8_t> assemble_here(std::string_view text, const std::string& name, const std::string& cpu) {
  const llvm::Triple triple("amdgcn-amd-amdhsa");
  std::string err;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, err);
  if (!target) throw IsaError("LLVM has no AMDGPU target: " + err);
  llvm::MCTargetOptions options;
  std::unique_ptr<llvm::MCRegisterInfo> mri(target->createMCRegInfo(triple));
  std::unique_ptr<llvm::MCAsmInfo> mai(target->createMCAsmInfo(*mri, triple, options));
  std::unique_ptr<llvm::MCInstrInfo> mii(target->createMCInstrInfo());
  std::unique_ptr<llvm::MCSubtargetInfo> sti(target->createMCSubtargetInfo(triple, cpu, ""));
  if (!mri || !mai || !mii || !sti) throw IsaError("LLVM's AMDGPU assembler is not available");

  // No file system: whatever names a file, nothing is found.
  llvm::SourceMgr sources(llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>());
  Diagnostics diagnostics{name, {}, {}, false, {}};
  sources.setDiagHandler(&Diagnostics::handle, &diagnostics);
  sources.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(text.data(), text.size()), name),
                             llvm::SMLoc());
  llvm::MCContext ctx(triple, mai.get(), mri.get(), sti.get(), &sources, &options);
  std::unique_ptr<llvm::MCObjectFileInfo> files(target->createMCObjectFileInfo(ctx, /*PIC=*/true));
  ctx.setObjectFileInfo(files.get());

  llvm::SmallVector<char, 0> object;
  {
    llvm::raw_svector_ostream out(object);
    std::unique_ptr<llvm::MCAsmBackend> backend(target->createMCAsmBackend(*sti, *mri, options));
    std::unique_ptr<llvm::MCCodeEmitter> emitter(target->createMCCodeEmitter(*mii, ctx));
    if (!backend || !emitter) throw IsaError("LLVM's AMDGPU assembler is not available");
    std::unique_ptr<llvm::MCObjectWriter> writer = backend->createObjectWriter(out);
    std::unique_ptr<llvm::MCStreamer> streamer(
        target->createMCObjectStreamer(triple, ctx, std::move(backend), std::move(writer), std::move(emitter), *sti));
    std::unique_ptr<llvm::MCAsmParser> parser(llvm::createMCAsmParser(sources, ctx, *streamer, *mai));
    std::unique_ptr<llvm::MCTargetAsmParser> target_parser(target->createMCAsmParser(*sti, *parser, *mii, options));
    if (!target_parser) throw IsaError("LLVM's AMDGPU assembly parser is not available");
    parser->setTargetParser(*target_parser);
    FileDirectivesRefused refused;
    refused.Initialize(*parser);
    const bool failed = parser->Run(/*NoInitialTextSection=*/false);
    if (failed || !diagnostics.first_error.empty())
      throw IsaError(diagnostics.first_error.empty() ? name + ": the assembler failed" : diagnostics.first_error);
  }
  return std::vector<std::uint8_t>(object.begin(), object.end());
}

}  // namespace

std::vector<std::uint8_t> assemble(std::string_view text, const std::string& name, const std::string& cpu_hint,
                                   const AssemblyLimits& limits) {
  init_once();  // before the child starts: it inherits the registered target
  if (const std::optional<std::string> refused = assembly_policy_problem(text, name, limits)) throw IsaError(*refused);
  const std::string named = assembly_target(text);
  if (!named.empty() && !cpu_hint.empty() && named != cpu_hint)
    throw IsaError(name + ": the text's .amdgcn_target is " + named + ", not " + cpu_hint);
  const std::string cpu = !named.empty() ? named : cpu_hint;
  if (cpu.empty()) throw IsaError(name + ": no .amdgcn_target directive names the processor, and none was given");
  if (llvm::AMDGPU::parseArchAMDGCN(cpu) == llvm::AMDGPU::GK_NONE)
    throw IsaError(name + ": LLVM does not know the AMDGPU processor '" + cpu + "'");

  const ChildBudget budget{limits.cpu_seconds, limits.wall_seconds, limits.memory_bytes, limits.max_object_bytes};
  const ChildOutcome got = run_bounded(
      [&] {
        llvm::install_fatal_error_handler(&fatal_error, const_cast<std::string*>(&name));
        llvm::install_bad_alloc_error_handler(&bad_alloc, nullptr);
        return assemble_here(text, name, cpu);
      },
      budget);
  if (!got.ok) throw IsaError(got.from_work ? got.error : name + ": the assembler " + got.error);
  return got.bytes;
}

std::vector<std::uint8_t> assemble_code_object(std::string_view text, const std::string& name, const std::string& cpu,
                                               const AssemblyLimits& limits) {
  const std::vector<std::uint8_t> object = assemble(text, name, cpu, limits);
  const ScratchDir dir;
  {
    std::ofstream o(dir / "input.o", std::ios::binary);
    o.write(reinterpret_cast<const char*>(object.data()), static_cast<std::streamsize>(object.size()));
    if (!o) throw IsaError(name + ": cannot write the object to link");
  }
  const int status = run_program({TILELAB_LD_LLD, "-shared", (dir / "input.o").string(), "-o", (dir / "out.co").string()},
                                 dir / "link.log");
  if (status != 0) {
    std::string log;
    for (std::uint8_t c : read_all(dir / "link.log")) log += static_cast<char>(c);
    const std::size_t nl = log.find('\n');
    if (nl != std::string::npos) log.resize(nl);
    if (status == 127 || log.empty()) log = "could not run " + std::string(TILELAB_LD_LLD) + " (Debian package lld-22)";
    throw IsaError(name + ": linking failed: " + log);
  }
  return read_all(dir / "out.co");
}

}  // namespace tilelab::isa
