// Reading an AMDGPU code object (.hsaco): the ELF through LLVM's Object
// library, the AMDHSA metadata note through LLVM's msgpack reader, and each
// kernel's 64-byte kernel descriptor.  No hand-written ELF or msgpack parsing.
//
// Guarantee: read_code_object either returns a CodeObject whose every kernel
// has its code inside .text and its descriptor inside the file, or throws
// IsaError with one line "FILE: [offset 0xN: ]what".
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tilelab::isa {

class IsaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One kernel argument as the metadata declares it.
struct KernelArg {
  std::string name;           // empty when the compiler did not record it
  std::string value_kind;     // global_buffer, by_value, hidden_*, ...
  std::string address_space;  // global, ... (empty for by_value)
  std::uint32_t offset = 0;   // in the kernarg segment
  std::uint32_t size = 0;
};

// The AMDHSA kernel descriptor (amdhsa::kernel_descriptor_t) with the fields
// a simulator needs decoded.  Raw register words are kept too.
struct KernelDescriptor {
  std::uint32_t group_segment_fixed_size = 0;    // LDS bytes
  std::uint32_t private_segment_fixed_size = 0;  // scratch bytes per lane
  std::uint32_t kernarg_size = 0;
  std::int64_t kernel_code_entry_byte_offset = 0;  // from the descriptor to the code
  std::uint32_t compute_pgm_rsrc1 = 0, compute_pgm_rsrc2 = 0, compute_pgm_rsrc3 = 0;
  std::uint16_t kernel_code_properties = 0;

  // Decoded from the words above (CDNA3/CDNA4 meanings).
  int vgpr_granules() const;     // GRANULATED_WORKITEM_VGPR_COUNT (+1 = granules of 8 regs, unified file)
  int sgpr_granules() const;     // GRANULATED_WAVEFRONT_SGPR_COUNT
  int accum_offset() const;      // first AGPR in the unified file ((ACCUM_OFFSET+1)*4)
  int user_sgpr_count() const;
  bool workgroup_id_enabled(int dim) const;   // dim 0..2: x, y, z
  int workitem_id_vgprs() const;  // 0: x only, 1: x,y, 2: x,y,z
  bool kernarg_segment_ptr() const;
  bool dispatch_ptr() const;
  bool private_segment_buffer() const;
  // COMPUTE_PGM_RSRC2.ENABLE_PRIVATE_SEGMENT: scratch is used; with
  // architected flat scratch (gfx940+) the wave's scratch offset is then a
  // system SGPR after the workgroup ids (and the workgroup info, when enabled).
  bool private_segment() const;
  bool workgroup_info_enabled() const;  // COMPUTE_PGM_RSRC2.ENABLE_SGPR_WORKGROUP_INFO
  bool wave32() const;
  int float_denorm_mode_32() const;  // FLOAT_DENORM_MODE_32: 0 flush in+out .. 3 keep both
};

// The largest kernarg segment a code object may declare (tilelab's cap, far
// above any compiler's: the segment is allocated for every launch).
inline constexpr std::uint32_t kMaxKernargBytes = 1u << 20;

struct Kernel {
  std::string name;
  std::uint64_t code_address = 0;   // virtual address of the first instruction
  std::uint64_t code_size = 0;      // bytes (the symbol's size)
  std::uint64_t descriptor_address = 0;
  KernelDescriptor descriptor;
  // From the metadata note:
  std::vector<KernelArg> args;
  std::uint32_t kernarg_segment_size = 0, kernarg_segment_align = 0;
  std::uint32_t group_segment_fixed_size = 0, private_segment_fixed_size = 0;
  int vgpr_count = 0, agpr_count = 0, sgpr_count = 0;
  int vgpr_spill_count = 0, sgpr_spill_count = 0;
  int wavefront_size = 0, max_flat_workgroup_size = 0;
};

struct CodeObject {
  std::string path;
  std::string target;  // as the metadata says: amdgcn-amd-amdhsa--gfx950
  std::string arch;    // from the ELF header's machine flags: gfx950, gfx942, ...
  std::vector<std::uint8_t> bytes;  // the whole file
  std::uint64_t text_address = 0;   // .text's virtual address
  std::uint64_t text_offset = 0;    // .text's offset in `bytes`
  std::uint64_t text_size = 0;
  std::vector<Kernel> kernels;
  // Local labels in .text (hand-written assembly keeps them): address, name,
  // in symbol-table order.  llvm-objdump names branch targets by them.
  std::vector<std::pair<std::uint64_t, std::string>> labels;

  // The kernel named `name`; IsaError listing the kernels there are if none.
  const Kernel& kernel(std::string_view name) const;
  // The bytes of a kernel's code.
  std::span<const std::uint8_t> code(const Kernel& k) const;

  // The allocated sections (what the loader maps): virtual address, file
  // offset, size; `nobits` sections (.bss) are zeros with no file bytes.
  struct LoadedSection {
    std::uint64_t address = 0, offset = 0, size = 0;
    bool nobits = false;
  };
  std::vector<LoadedSection> loaded;
  // The code object as the loader lays it out in memory: byte v of the
  // result is the byte at virtual address v (code, read-only data, zeros for
  // .bss and the gaps between sections).  Relative addressing from the
  // program counter (s_getpc_b64 + rel32) works on it unchanged.
  std::vector<std::uint8_t> loaded_image() const;
};

CodeObject read_code_object(const std::string& path);
// `path` only names the bytes in messages.
CodeObject parse_code_object(std::vector<std::uint8_t> bytes, const std::string& path);

// The SHA-256 of `bytes` as 64 lower-case hex digits (LLVM's implementation):
// what a stored run records of its code object and arch file.
// A kernel symbol as a profiler shows it: the Itanium-demangled name
// ("_ZN5aiter24bf16gemm_bf16_tn_256x256E" -> "aiter::bf16gemm_bf16_tn_256x256"),
// or the symbol itself when it is not mangled (LLVM's demangler).
std::string demangled(const std::string& symbol);

std::string sha256_hex(std::span<const std::uint8_t> bytes);
std::string sha256_hex(std::string_view text);

}  // namespace tilelab::isa
