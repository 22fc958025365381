#include "sim/isa/source_lines.hpp"

#include <filesystem>

#include <llvm/DebugInfo/DIContext.h>
#include <llvm/DebugInfo/DWARF/DWARFContext.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/MemoryBuffer.h>

namespace tilelab::isa {

std::vector<std::string> source_lines(const CodeObject& co, std::span<const std::uint64_t> pcs) {
  std::vector<std::string> out(pcs.size());
  const llvm::StringRef bytes(reinterpret_cast<const char*>(co.bytes.data()), co.bytes.size());
  auto object = llvm::object::ObjectFile::createObjectFile(llvm::MemoryBufferRef(bytes, co.path));
  if (!object) {
    llvm::consumeError(object.takeError());
    return out;
  }
  bool has_lines = false;
  for (const llvm::object::SectionRef& s : (*object)->sections())
    if (auto name = s.getName(); name && *name == ".debug_line") has_lines = true;
    else if (!name) llvm::consumeError(name.takeError());
  if (!has_lines) return out;
  const std::unique_ptr<llvm::DWARFContext> dwarf =
      llvm::DWARFContext::create(**object, llvm::DWARFContext::ProcessDebugRelocations::Process, nullptr, "",
                                 [](llvm::Error e) { llvm::consumeError(std::move(e)); },
                                 [](llvm::Error e) { llvm::consumeError(std::move(e)); });
  const llvm::DILineInfoSpecifier spec(llvm::DILineInfoSpecifier::FileLineInfoKind::RelativeFilePath,
                                       llvm::DILineInfoSpecifier::FunctionNameKind::None);
  for (std::size_t i = 0; i < pcs.size(); ++i) {
    const auto info = dwarf->getLineInfoForAddress({pcs[i], llvm::object::SectionedAddress::UndefSection}, spec);
    if (!info || info->Line == 0 || info->FileName == llvm::DILineInfo::BadString) continue;
    out[i] = std::filesystem::path(info->FileName).lexically_normal().string() + ":" + std::to_string(info->Line);
  }
  return out;
}

}  // namespace tilelab::isa
