#include "sim/isa/code_object.hpp"
#include "sim/isa/assembler.hpp"

#include <filesystem>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/BinaryFormat/MsgPackReader.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/AMDHSAKernelDescriptor.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"

namespace tilelab::isa {
namespace {

using llvm::object::ELF64LEObjectFile;

[[noreturn]] void fail(const std::string& path, const std::string& what) { throw IsaError(path + ": " + what); }

[[noreturn]] void fail_at(const std::string& path, std::uint64_t offset, const std::string& what) {
  std::ostringstream os;
  os << path << ": offset 0x" << std::hex << offset << ": " << what;
  throw IsaError(os.str());
}

template <class T>
T take(llvm::Expected<T> e, const std::string& path, const char* what) {
  if (!e) fail(path, std::string(what) + ": " + llvm::toString(e.takeError()));
  return std::move(*e);
}

// ---- the metadata note ----

struct MetaMap {
  llvm::msgpack::MapDocNode* map;
  const std::string& path;
  const std::string& where;

  const llvm::msgpack::DocNode* find(const char* key) const {
    auto it = map->find(llvm::StringRef(key));
    return it == map->end() ? nullptr : &it->second;
  }
  std::uint64_t uint(const char* key, bool required = true) const {
    const auto* n = find(key);
    if (!n) {
      if (required) fail(path, where + ": metadata has no " + key);
      return 0;
    }
    if (n->getKind() == llvm::msgpack::Type::UInt) return n->getUInt();
    if (n->getKind() == llvm::msgpack::Type::Int && n->getInt() >= 0) return static_cast<std::uint64_t>(n->getInt());
    fail(path, where + ": metadata " + key + " is not a non-negative integer");
  }
  int small(const char* key, bool required = true) const {
    const std::uint64_t v = uint(key, required);
    if (v > (1u << 30)) fail(path, where + ": metadata " + key + " is out of range");
    return static_cast<int>(v);
  }
  std::string string(const char* key, bool required = true) const {
    const auto* n = find(key);
    if (!n) {
      if (required) fail(path, where + ": metadata has no " + key);
      return {};
    }
    if (n->getKind() != llvm::msgpack::Type::String) fail(path, where + ": metadata " + key + " is not a string");
    return n->getString().str();
  }
};

llvm::msgpack::MapDocNode& as_map(const llvm::msgpack::DocNode& n, const std::string& path,
                                        const std::string& what) {
  if (n.getKind() != llvm::msgpack::Type::Map) fail(path, what + " is not a map");
  return const_cast<llvm::msgpack::DocNode&>(n).getMap();
}

std::vector<KernelArg> read_args(const MetaMap& k) {
  std::vector<KernelArg> args;
  const auto* n = k.find(".args");
  if (!n) return args;
  if (n->getKind() != llvm::msgpack::Type::Array) fail(k.path, k.where + ": metadata .args is not an array");
  for (const auto& a : const_cast<llvm::msgpack::DocNode*>(n)->getArray()) {
    const std::string where = k.where + " argument " + std::to_string(args.size());
    const MetaMap m{&as_map(a, k.path, where), k.path, where};
    KernelArg arg;
    arg.name = m.string(".name", false);
    arg.value_kind = m.string(".value_kind");
    arg.address_space = m.string(".address_space", false);
    arg.offset = static_cast<std::uint32_t>(m.uint(".offset"));
    arg.size = static_cast<std::uint32_t>(m.uint(".size"));
    args.push_back(std::move(arg));
  }
  return args;
}

struct Metadata {
  std::string target;
  std::vector<Kernel> kernels;  // metadata fields filled, addresses not yet
  std::vector<std::string> symbols;
};

// Walks the msgpack stream once before it reaches llvm::msgpack::Document:
// Document keeps maps as std::map and reaches llvm_unreachable when a key is
// a map or an array (found by the cut-and-flip test), so such keys, extension
// values and nesting deeper than 32 are refused here with a clear message.
bool msgpack_value_ok(llvm::msgpack::Reader& r, int depth, bool is_key) {
  llvm::msgpack::Object o;
  auto got = r.read(o);
  if (!got) {
    llvm::consumeError(got.takeError());
    return false;
  }
  if (!*got || depth > 32) return false;
  using T = llvm::msgpack::Type;
  switch (o.Kind) {
    case T::Extension: return false;
    case T::Array:
    case T::Map: {
      if (is_key) return false;
      const std::size_t items = o.Kind == T::Map ? 2 * o.Length : o.Length;
      for (std::size_t i = 0; i < items; ++i)
        if (!msgpack_value_ok(r, depth + 1, o.Kind == T::Map && i % 2 == 0)) return false;
      return true;
    }
    default: return true;
  }
}

Metadata read_metadata(llvm::StringRef blob, const std::string& path) {
  llvm::msgpack::Reader check(blob);
  if (!msgpack_value_ok(check, 0, false)) fail(path, "the AMDGPU metadata note is not valid msgpack");
  llvm::msgpack::Document doc;
  if (!doc.readFromBlob(blob, false)) fail(path, "the AMDGPU metadata note is not valid msgpack");
  const std::string root_what = "metadata";
  const MetaMap root{&as_map(doc.getRoot(), path, "the metadata root"), path, root_what};
  Metadata md;
  md.target = root.string("amdhsa.target", false);  // absent in hand-written objects: e_flags say it
  const auto* ks = root.find("amdhsa.kernels");
  if (!ks || ks->getKind() != llvm::msgpack::Type::Array) fail(path, "metadata has no amdhsa.kernels array");
  for (const auto& kn : const_cast<llvm::msgpack::DocNode*>(ks)->getArray()) {
    const std::string where = "kernel " + std::to_string(md.kernels.size());
    const MetaMap m{&as_map(kn, path, where), path, where};
    Kernel k;
    k.name = m.string(".name");
    const std::string kwhere = "kernel " + k.name;
    const MetaMap km{m.map, path, kwhere};
    md.symbols.push_back(km.string(".symbol"));
    k.args = read_args(km);
    k.kernarg_segment_size = static_cast<std::uint32_t>(km.uint(".kernarg_segment_size"));
    k.kernarg_segment_align = static_cast<std::uint32_t>(km.uint(".kernarg_segment_align"));
    k.group_segment_fixed_size = static_cast<std::uint32_t>(km.uint(".group_segment_fixed_size"));
    k.private_segment_fixed_size = static_cast<std::uint32_t>(km.uint(".private_segment_fixed_size"));
    k.vgpr_count = km.small(".vgpr_count");
    k.agpr_count = km.small(".agpr_count", false);
    k.sgpr_count = km.small(".sgpr_count");
    k.vgpr_spill_count = km.small(".vgpr_spill_count", false);
    k.sgpr_spill_count = km.small(".sgpr_spill_count", false);
    k.wavefront_size = km.small(".wavefront_size");
    k.max_flat_workgroup_size = km.small(".max_flat_workgroup_size");
    md.kernels.push_back(std::move(k));
  }
  return md;
}

// The metadata's values within their legal sets and in agreement with the
// kernel descriptor the hardware reads (a hand-written or hostile file can
// say anything): one line naming the kernel and the value.
void check_metadata(const Kernel& k, const std::string& path) {
  const std::string who = "kernel " + k.name + ": ";
  if (k.wavefront_size != 32 && k.wavefront_size != 64)
    fail(path, who + "metadata .wavefront_size is " + std::to_string(k.wavefront_size) + " (a wave is 32 or 64 lanes)");
  if ((k.wavefront_size == 32) != k.descriptor.wave32())
    fail(path, who + "metadata .wavefront_size is " + std::to_string(k.wavefront_size) + " but the kernel descriptor " +
                   (k.descriptor.wave32() ? "enables" : "does not enable") + " wave32");
  if (k.group_segment_fixed_size != k.descriptor.group_segment_fixed_size)
    fail(path, who + "metadata .group_segment_fixed_size is " + std::to_string(k.group_segment_fixed_size) +
                   " bytes but the kernel descriptor says " + std::to_string(k.descriptor.group_segment_fixed_size));
  if (k.kernarg_segment_size > kMaxKernargBytes)
    fail(path, who + "metadata .kernarg_segment_size is " + std::to_string(k.kernarg_segment_size) +
                   " bytes, over tilelab's cap of " + std::to_string(kMaxKernargBytes));
  for (std::size_t i = 0; i < k.args.size(); ++i) {
    const KernelArg& a = k.args[i];
    if (std::uint64_t{a.offset} + a.size > k.kernarg_segment_size)
      fail(path, who + "argument " + std::to_string(i) + (a.name.empty() ? "" : " (" + a.name + ")") + " at offset " +
                     std::to_string(a.offset) + " of " + std::to_string(a.size) +
                     " bytes runs past the kernarg segment of " + std::to_string(k.kernarg_segment_size) + " bytes");
  }
}

// ---- the ELF ----

struct Section {
  std::uint64_t address, offset, size;
};

// The file offset of [address, address + size) if one allocated section holds it.
std::uint64_t file_offset(const std::vector<Section>& sections, std::uint64_t address, std::uint64_t size,
                          const std::string& path, const std::string& what) {
  for (const auto& s : sections)
    if (address >= s.address && address - s.address <= s.size && size <= s.size - (address - s.address))
      return s.offset + (address - s.address);
  std::ostringstream os;
  os << what << " at address 0x" << std::hex << address << " lies in no section of the file";
  fail(path, os.str());
}

std::uint32_t le32(const std::uint8_t* p) { return p[0] | p[1] << 8 | p[2] << 16 | static_cast<std::uint32_t>(p[3]) << 24; }

// The target id a code object without amdhsa.target is for, from e_flags
// (code object v4 and later): "amdgcn-amd-amdhsa--gfx950:sramecc+:xnack-",
// a feature left out when the object works either way.
std::string target_from_flags(const std::string& arch, unsigned flags) {
  namespace elf = llvm::ELF;
  std::string t = "amdgcn-amd-amdhsa--" + arch;
  switch (flags & elf::EF_AMDGPU_FEATURE_SRAMECC_V4) {
    case elf::EF_AMDGPU_FEATURE_SRAMECC_ON_V4: t += ":sramecc+"; break;
    case elf::EF_AMDGPU_FEATURE_SRAMECC_OFF_V4: t += ":sramecc-"; break;
    default: break;
  }
  switch (flags & elf::EF_AMDGPU_FEATURE_XNACK_V4) {
    case elf::EF_AMDGPU_FEATURE_XNACK_ON_V4: t += ":xnack+"; break;
    case elf::EF_AMDGPU_FEATURE_XNACK_OFF_V4: t += ":xnack-"; break;
    default: break;
  }
  return t;
}

KernelDescriptor read_descriptor(const std::uint8_t* p) {
  namespace kd = llvm::amdhsa;
  KernelDescriptor d;
  d.group_segment_fixed_size = le32(p + kd::GROUP_SEGMENT_FIXED_SIZE_OFFSET);
  d.private_segment_fixed_size = le32(p + kd::PRIVATE_SEGMENT_FIXED_SIZE_OFFSET);
  d.kernarg_size = le32(p + kd::KERNARG_SIZE_OFFSET);
  const std::uint64_t entry = le32(p + kd::KERNEL_CODE_ENTRY_BYTE_OFFSET_OFFSET) |
                              static_cast<std::uint64_t>(le32(p + kd::KERNEL_CODE_ENTRY_BYTE_OFFSET_OFFSET + 4)) << 32;
  d.kernel_code_entry_byte_offset = static_cast<std::int64_t>(entry);
  d.compute_pgm_rsrc3 = le32(p + kd::COMPUTE_PGM_RSRC3_OFFSET);
  d.compute_pgm_rsrc1 = le32(p + kd::COMPUTE_PGM_RSRC1_OFFSET);
  d.compute_pgm_rsrc2 = le32(p + kd::COMPUTE_PGM_RSRC2_OFFSET);
  d.kernel_code_properties = static_cast<std::uint16_t>(p[kd::KERNEL_CODE_PROPERTIES_OFFSET] |
                                                        p[kd::KERNEL_CODE_PROPERTIES_OFFSET + 1] << 8);
  return d;
}

}  // namespace

// ---- descriptor fields (bit positions from llvm/Support/AMDHSAKernelDescriptor.h) ----

int KernelDescriptor::vgpr_granules() const {
  return AMDHSA_BITS_GET(compute_pgm_rsrc1, llvm::amdhsa::COMPUTE_PGM_RSRC1_GRANULATED_WORKITEM_VGPR_COUNT);
}
int KernelDescriptor::sgpr_granules() const {
  return AMDHSA_BITS_GET(compute_pgm_rsrc1, llvm::amdhsa::COMPUTE_PGM_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT);
}
int KernelDescriptor::accum_offset() const {
  return (AMDHSA_BITS_GET(compute_pgm_rsrc3, llvm::amdhsa::COMPUTE_PGM_RSRC3_GFX90A_ACCUM_OFFSET) + 1) * 4;
}
int KernelDescriptor::user_sgpr_count() const {
  return AMDHSA_BITS_GET(compute_pgm_rsrc2, llvm::amdhsa::COMPUTE_PGM_RSRC2_GFX6_GFX120_USER_SGPR_COUNT);
}
bool KernelDescriptor::workgroup_id_enabled(int dim) const {
  using namespace llvm::amdhsa;
  switch (dim) {
    case 0: return AMDHSA_BITS_GET(compute_pgm_rsrc2, COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_X);
    case 1: return AMDHSA_BITS_GET(compute_pgm_rsrc2, COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Y);
    default: return AMDHSA_BITS_GET(compute_pgm_rsrc2, COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Z);
  }
}
int KernelDescriptor::workitem_id_vgprs() const {
  return AMDHSA_BITS_GET(compute_pgm_rsrc2, llvm::amdhsa::COMPUTE_PGM_RSRC2_ENABLE_VGPR_WORKITEM_ID);
}
bool KernelDescriptor::kernarg_segment_ptr() const {
  return AMDHSA_BITS_GET(kernel_code_properties, llvm::amdhsa::KERNEL_CODE_PROPERTY_ENABLE_SGPR_KERNARG_SEGMENT_PTR);
}
bool KernelDescriptor::dispatch_ptr() const {
  return AMDHSA_BITS_GET(kernel_code_properties, llvm::amdhsa::KERNEL_CODE_PROPERTY_ENABLE_SGPR_DISPATCH_PTR);
}
bool KernelDescriptor::private_segment_buffer() const {
  return AMDHSA_BITS_GET(kernel_code_properties,
                         llvm::amdhsa::KERNEL_CODE_PROPERTY_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER);
}
bool KernelDescriptor::private_segment() const {
  return AMDHSA_BITS_GET(compute_pgm_rsrc2, llvm::amdhsa::COMPUTE_PGM_RSRC2_ENABLE_PRIVATE_SEGMENT);
}
bool KernelDescriptor::workgroup_info_enabled() const {
  return AMDHSA_BITS_GET(compute_pgm_rsrc2, llvm::amdhsa::COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_INFO);
}
bool KernelDescriptor::wave32() const {
  return AMDHSA_BITS_GET(kernel_code_properties, llvm::amdhsa::KERNEL_CODE_PROPERTY_ENABLE_WAVEFRONT_SIZE32);
}
int KernelDescriptor::float_denorm_mode_32() const {
  return AMDHSA_BITS_GET(compute_pgm_rsrc1, llvm::amdhsa::COMPUTE_PGM_RSRC1_FLOAT_DENORM_MODE_32);
}

// ---- the code object ----

const Kernel& CodeObject::kernel(std::string_view name) const {
  for (const auto& k : kernels)
    if (k.name == name) return k;
  std::string names;
  for (const auto& k : kernels) names += (names.empty() ? "" : ", ") + k.name;
  throw IsaError(path + ": no kernel named '" + std::string(name) + "' (it has: " + names + ")");
}

std::span<const std::uint8_t> CodeObject::code(const Kernel& k) const {
  return {bytes.data() + text_offset + (k.code_address - text_address), k.code_size};
}

std::vector<std::uint8_t> CodeObject::loaded_image() const {
  constexpr std::uint64_t kMaxImage = 1ull << 30;  // a code object's sections spread over more is not a kernel's
  std::uint64_t end = 0;
  for (const LoadedSection& s : loaded)
    end = std::max(end, s.address > kMaxImage || s.size > kMaxImage ? kMaxImage + 1 : s.address + s.size);
  if (end > kMaxImage) {
    std::ostringstream os;
    os << "the allocated sections reach address 0x" << std::hex << end << ", beyond the 1 GiB a loaded code object may span";
    fail(path, os.str());
  }
  std::vector<std::uint8_t> image(static_cast<std::size_t>(end), 0);
  for (const LoadedSection& s : loaded)  // parse_code_object checked every range against the file
    if (!s.nobits && s.size) std::memcpy(image.data() + s.address, bytes.data() + s.offset, static_cast<std::size_t>(s.size));
  return image;
}

CodeObject read_code_object(const std::string& path) {
  std::error_code ec;  // only a regular file: a FIFO would block forever
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) fail(path, "not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open the file");
  // Bounded: AMD's largest code objects are a few MiB; /dev/zero must not fill memory.
  constexpr std::size_t kMaxCodeObjectBytes = std::size_t{256} << 20;
  std::vector<std::uint8_t> bytes;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    bytes.insert(bytes.end(), chunk, chunk + in.gcount());
    if (bytes.size() > kMaxCodeObjectBytes) fail(path, "larger than 256 MiB: not a code object tilelab reads");
  }
  if (in.bad()) fail(path, "cannot read the file");
  // Assembly text (a .s file): assembled and linked here, so every reader of
  // a code object takes it (sim/isa/assembler.hpp).
  if (is_assembly_input(path, {reinterpret_cast<const char*>(bytes.data()), bytes.size()}))
    bytes = assemble_code_object({reinterpret_cast<const char*>(bytes.data()), bytes.size()}, path);
  return parse_code_object(std::move(bytes), path);
}

CodeObject parse_code_object(std::vector<std::uint8_t> bytes, const std::string& path) {
  CodeObject co;
  co.path = path;
  co.bytes = std::move(bytes);
  const llvm::StringRef data(reinterpret_cast<const char*>(co.bytes.data()), co.bytes.size());
  if (co.bytes.size() < 4 || data.substr(0, 4) != "\x7f" "ELF") fail_at(path, 0, "not an ELF file");
  if (co.bytes.size() < 5 || co.bytes[4] != llvm::ELF::ELFCLASS64) fail_at(path, 4, "not a 64-bit ELF file");
  auto obj = take(ELF64LEObjectFile::create(llvm::MemoryBufferRef(data, path)), path, "not a readable ELF file");
  const unsigned machine = obj.getELFFile().getHeader().e_machine;
  if (machine != llvm::ELF::EM_AMDGPU) {
    fail_at(path, 18, "wrong machine: e_machine " + std::to_string(machine) + " is not AMDGPU (224)");
  }
  // LLVM maps the processor field of e_flags to a name, but reaches
  // llvm_unreachable on values it does not know (found by the cut-and-flip
  // test), so only the CDNA processors are passed on to it.
  const unsigned mach = obj.getELFFile().getHeader().e_flags & llvm::ELF::EF_AMDGPU_MACH;
  static constexpr unsigned kCdna[] = {llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX908, llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX90A,
                                       llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX942, llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX950};
  if (std::find(std::begin(kCdna), std::end(kCdna), mach) == std::end(kCdna)) {
    std::ostringstream os;
    os << "e_flags name processor 0x" << std::hex << mach << ", not a CDNA processor (gfx908, gfx90a, gfx942, gfx950)";
    fail_at(path, 48, os.str());
  }
  auto cpu = obj.tryGetCPUName();
  if (!cpu || cpu->empty()) fail_at(path, 48, "the ELF flags name no AMDGPU processor");
  co.arch = cpu->str();

  // Sections: where code and descriptors live, and the metadata note.
  std::vector<Section> sections;
  bool have_text = false, have_note = false;
  Metadata md;
  const auto& elf = obj.getELFFile();
  for (const auto& shdr_ref : take(elf.sections(), path, "the section table")) {
    const auto* shdr = &shdr_ref;
    const auto name = take(elf.getSectionName(*shdr), path, "a section name");
    if (shdr->sh_type != llvm::ELF::SHT_NOBITS) {
      if (shdr->sh_offset > co.bytes.size() || shdr->sh_size > co.bytes.size() - shdr->sh_offset)
        fail_at(path, shdr->sh_offset, "section " + name.str() + " runs past the end of the file (truncated?)");
      if (shdr->sh_flags & llvm::ELF::SHF_ALLOC) {
        sections.push_back({shdr->sh_addr, shdr->sh_offset, shdr->sh_size});
        co.loaded.push_back({shdr->sh_addr, shdr->sh_offset, shdr->sh_size, false});
      }
    } else if (shdr->sh_flags & llvm::ELF::SHF_ALLOC) {
      co.loaded.push_back({shdr->sh_addr, 0, shdr->sh_size, true});
    }
    if (name == ".text") {
      have_text = true;
      co.text_address = shdr->sh_addr;
      co.text_offset = shdr->sh_offset;
      co.text_size = shdr->sh_size;
    }
    if (shdr->sh_type == llvm::ELF::SHT_NOTE) {
      llvm::Error err = llvm::Error::success();
      for (const auto& note : elf.notes(*shdr, err)) {
        if (note.getName() != "AMDGPU" || note.getType() != llvm::ELF::NT_AMDGPU_METADATA) continue;
        const auto desc = note.getDesc(shdr->sh_addralign);
        md = read_metadata(llvm::StringRef(reinterpret_cast<const char*>(desc.data()), desc.size()), path);
        have_note = true;
      }
      if (err) fail_at(path, shdr->sh_offset, "damaged note section: " + llvm::toString(std::move(err)));
    }
  }
  if (!have_text) fail(path, "no .text section");
  if (!have_note) fail(path, "no AMDGPU metadata note (not an AMDHSA code object?)");
  co.target = md.target.empty() ? target_from_flags(co.arch, obj.getELFFile().getHeader().e_flags) : md.target;

  // Symbols: each kernel's code and its descriptor.
  struct Sym {
    std::uint64_t address, size;
    bool function;  // STT_FUNC: a kernel's (or a function's) entry, not a local label
  };
  std::vector<std::pair<std::string, Sym>> symbols;
  for (const auto& s : obj.symbols()) {
    auto name = s.getName();
    auto addr = s.getAddress();
    if (!name || !addr) {
      if (!name) llvm::consumeError(name.takeError());
      if (!addr) llvm::consumeError(addr.takeError());
      fail(path, "damaged symbol table");
    }
    const llvm::object::ELFSymbolRef es(s);
    symbols.push_back({name->str(), {*addr, es.getSize(), es.getELFType() == llvm::ELF::STT_FUNC}});
    if (es.getELFType() == llvm::ELF::STT_NOTYPE && !name->empty() && *addr >= co.text_address &&
        *addr < co.text_address + co.text_size)
      co.labels.emplace_back(*addr, name->str());
  }
  auto find_symbol = [&](const std::string& n) -> const Sym& {
    for (const auto& [name, sym] : symbols)
      if (name == n) return sym;
    fail(path, "the metadata names symbol '" + n + "' but the symbol table has none");
  };
  for (std::size_t i = 0; i < md.kernels.size(); ++i) {
    Kernel k = std::move(md.kernels[i]);
    const Sym& kd = find_symbol(md.symbols[i]);
    const std::uint64_t kd_off = file_offset(sections, kd.address, 64, path, "kernel descriptor " + md.symbols[i]);
    k.descriptor_address = kd.address;
    k.descriptor = read_descriptor(co.bytes.data() + kd_off);
    const Sym& fn = find_symbol(k.name);
    k.code_address = fn.address;
    k.code_size = fn.size;
    if (kd.address + static_cast<std::uint64_t>(k.descriptor.kernel_code_entry_byte_offset) != fn.address)
      fail_at(path, kd_off, "kernel descriptor of " + k.name + " does not point at the kernel's code");
    if (fn.address < co.text_address || fn.address - co.text_address > co.text_size ||
        fn.size > co.text_size - (fn.address - co.text_address))
      fail(path, "the code of kernel " + k.name + " lies outside .text");
    if (k.code_size == 0) {  // hand-written assembly leaves the symbol's size 0: up to the next function in .text
      std::uint64_t end = co.text_address + co.text_size;
      for (const auto& [name, sym] : symbols)
        if (sym.function && sym.address > fn.address && sym.address < end) end = sym.address;
      k.code_size = end - fn.address;
    }
    // On gfx90a+ .vgpr_count is the unified allocation: the arch VGPRs
    // (aligned to 4, up to the descriptor's accum_offset) and the AGPRs after
    // them.  LLVM writes the AGPRs again as .agpr_count (273 and 17 for 256
    // arch VGPRs and 17 AGPRs); hand-written kernels leave .agpr_count out.
    // Either way accum_offset splits it, so vgpr_count is the arch VGPRs alone.
    const int agprs_after_offset = k.vgpr_count - k.descriptor.accum_offset();
    if (co.arch != "gfx908" && agprs_after_offset > 0 && (k.agpr_count == 0 || k.agpr_count == agprs_after_offset)) {
      k.agpr_count = k.vgpr_count - k.descriptor.accum_offset();
      k.vgpr_count = k.descriptor.accum_offset();
    }
    check_metadata(k, path);
    co.kernels.push_back(std::move(k));
  }
  return co;
}

std::string sha256_hex(std::span<const std::uint8_t> bytes) {
  const std::array<std::uint8_t, 32> digest = llvm::SHA256::hash(llvm::ArrayRef<std::uint8_t>(bytes.data(), bytes.size()));
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : digest) out += kHex[b >> 4], out += kHex[b & 15];
  return out;
}

std::string sha256_hex(std::string_view text) {
  return sha256_hex(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

std::string demangled(const std::string& symbol) { return llvm::demangle(symbol); }

}  // namespace tilelab::isa
