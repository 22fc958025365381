// Memory instructions: scalar loads, global loads/stores and LDS.  In the
// functional model a memory instruction completes when it issues; s_waitcnt
// has nothing to wait for.  Out-of-bounds accesses stop the run with the lane
// and address (the caller adds kernel and pc).
#include <bit>
#include <cstdio>
#include <string>

#include "sim/emu/float_bits.hpp"
#include "sim/emu/semantics.hpp"
#include "sim/isa/program.hpp"

namespace tilelab::emu {
namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

const Operand& O(const Op& op, int i) { return op.t.ops[static_cast<std::size_t>(i)]; }


// ---- scalar loads: s_load_dword{,x2,x4,x8,x16} sdst, sbase, offset ----
template <int Dwords>
void s_load(Wave& w, const Op& op, Env& e) {
  u64 base = scalar_u64(w, O(op, 1));
  const Operand& off = O(op, 2);
  u64 address = base + (off.loc == Loc::Const ? static_cast<u64>(off.value) : scalar_u32(w, off)) +
                static_cast<u64>(static_cast<std::int64_t>(op.t.mods.offset));
  u32 data[Dwords];
  const std::uint8_t* p = e.memory->find(address, sizeof data);
  if (!p) throw EmuError("scalar load of " + std::to_string(4 * Dwords) + " bytes at " + hex(address) + " is outside every buffer");
  std::memcpy(data, p, sizeof data);
  for (int i = 0; i < Dwords; ++i) write_scalar_u32(w, O(op, 0), data[i], i);
  if (e.observer) e.observer->scalar_access(address, static_cast<int>(sizeof data));
}

// ---- scalar stores and atomics: s_store_dword{,x2,x4} sdata, sbase, offset ----
u64 scalar_address(Wave& w, const Op& op) {
  const Operand& off = O(op, 2);
  return scalar_u64(w, O(op, 1)) + (off.loc == Loc::Const ? static_cast<u64>(off.value) : scalar_u32(w, off)) +
         static_cast<u64>(static_cast<std::int64_t>(op.t.mods.offset));
}
template <int Dwords>
void s_store(Wave& w, const Op& op, Env& e) {
  const u64 address = scalar_address(w, op);
  std::uint8_t* p = e.memory->find(address, 4 * Dwords);
  if (!p) throw EmuError("scalar store of " + std::to_string(4 * Dwords) + " bytes at " + hex(address) + " is outside every buffer");
  for (int i = 0; i < Dwords; ++i) {
    const u32 v = scalar_u32(w, O(op, 0), i);
    std::memcpy(p + 4 * i, &v, 4);
  }
}
// s_atomic_dec sdata, sbase, offset: MEM = (MEM == 0 || MEM > DATA) ? DATA : MEM - 1;
// with glc (sc0) the old value returns to sdata.
void s_atomic_dec(Wave& w, const Op& op, Env& e) {
  const u64 address = scalar_address(w, op);
  std::uint8_t* p = e.memory->find(address, 4);
  if (!p) throw EmuError("scalar atomic of 4 bytes at " + hex(address) + " is outside every buffer");
  u32 old;
  std::memcpy(&old, p, 4);
  const u32 data = scalar_u32(w, O(op, 0));
  const u32 updated = old == 0 || old > data ? data : old - 1;
  std::memcpy(p, &updated, 4);
  if (op.t.mods.glc || op.t.mods.sc0) write_scalar_u32(w, O(op, 0), old);
}

// ---- global: the address of each lane ----
// Forms: (vaddr 64-bit, off) or (vaddr 32-bit offset, saddr 64-bit), plus the instruction offset.
u64 lane_address(Wave& w, const Operand& vaddr, const Operand& saddr, int l, std::int32_t offset) {
  u64 a;
  if (saddr.loc == Loc::Off) a = vector_reg(w, vaddr, 0)[l] | static_cast<u64>(vector_reg(w, vaddr, 1)[l]) << 32;
  else a = scalar_u64(w, saddr) + vector_reg(w, vaddr, 0)[l];
  return a + static_cast<u64>(static_cast<std::int64_t>(offset));
}

[[noreturn]] void out_of_bounds(const char* what, int bytes, int lane, u64 address) {
  throw EmuError(std::string(what) + " of " + std::to_string(bytes) + " bytes at " + hex(address) + " (lane " +
                 std::to_string(lane) + ") is outside every buffer");
}

// A narrower load's `Bytes` (in the low bits of v) into its register: zero-
// or sign-extended (Sign), or for the d16 forms into one half (Half: 0 low,
// 1 high), the other half kept.
template <int Bytes, bool Sign, int Half>
void write_narrow(u32& d, u32 v) {
  if (Sign) v = Bytes == 1 ? static_cast<u32>(static_cast<std::int8_t>(v)) : static_cast<u32>(static_cast<std::int16_t>(v));
  if (Half < 0) d = v;
  else if (Half == 0) d = (d & 0xffff0000u) | (v & 0xffff);
  else d = (d & 0xffffu) | (v << 16);
}

// Loads of `Bytes` per lane into Dwords registers; narrower ones through write_narrow.
template <int Bytes, bool Sign = false, int Half = -1>
void global_load(Wave& w, const Op& op, Env& e) {
  const Operand &dst = O(op, 0), &vaddr = O(op, 1), &saddr = O(op, 2);
  constexpr int dwords = Bytes < 4 ? 1 : Bytes / 4;
  u64 seen[kLanes];
  prefetch_registers(w, dst, dwords);
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    int l = std::countr_zero(ex);
    u64 a = seen[l] = lane_address(w, vaddr, saddr, l, op.t.mods.offset);
    const std::uint8_t* p = e.memory->find(a, Bytes);
    if (!p) out_of_bounds("global load", Bytes, l, a);
    if constexpr (Bytes >= 4) {
      for (int i = 0; i < dwords; ++i) std::memcpy(&vector_reg(w, dst, i)[l], p + 4 * i, 4);
    } else {
      u32 v = 0;
      std::memcpy(&v, p, Bytes);
      write_narrow<Bytes, Sign, Half>(vector_reg(w, dst)[l], v);
    }
  }
  if (e.observer) e.observer->global_access(seen, w.exec, Bytes, false);
}

// Stores `Bytes` per lane from the data registers; Half 1 stores the high 16 bits (d16_hi).
template <int Bytes, int Half = 0>
void global_store(Wave& w, const Op& op, Env& e) {
  const Operand &vaddr = O(op, 0), &data = O(op, 1), &saddr = O(op, 2);
  u64 seen[kLanes];
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    int l = std::countr_zero(ex);
    u64 a = seen[l] = lane_address(w, vaddr, saddr, l, op.t.mods.offset);
    std::uint8_t* p = e.memory->find(a, Bytes);
    if (!p) out_of_bounds("global store", Bytes, l, a);
    if constexpr (Bytes >= 4) {
      for (int i = 0; i < Bytes / 4; ++i) std::memcpy(p + 4 * i, &vector_reg(w, data, i)[l], 4);
    } else {
      u32 v = vector_reg(w, data)[l] >> (16 * Half);
      std::memcpy(p, &v, Bytes);
    }
  }
  if (e.observer) e.observer->global_access(seen, w.exec, Bytes, true);
}

// ---- global atomics: read, combine, write back, one lane after another ----
// Forms: (vaddr, data, saddr) without return; (vdst, vaddr, data, saddr) with
// return (sc0 on gfx940+), the pre-operation value written to vdst.  The
// functional emulator applies the lanes in ascending order, one wave at a
// time; on the hardware the order of a wave's lanes, and between waves, is
// not defined (float sums can differ in the last bits).
template <u32 (*Combine)(u32 old, u32 value)>
void global_atomic(Wave& w, const Op& op, Env& e) {
  const bool returns = op.t.ops.size() == 4;
  const Operand &vaddr = O(op, returns ? 1 : 0), &data = O(op, returns ? 2 : 1), &saddr = O(op, returns ? 3 : 2);
  u64 seen[kLanes];
  u32 before[kLanes];
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    const int l = std::countr_zero(ex);
    const u64 a = seen[l] = lane_address(w, vaddr, saddr, l, op.t.mods.offset);
    std::uint8_t* p = e.memory->find(a, 4);
    if (!p) out_of_bounds("global atomic", 4, l, a);
    u32 old;
    std::memcpy(&old, p, 4);
    before[l] = old;
    const u32 updated = Combine(old, vector_reg(w, data)[l]);
    std::memcpy(p, &updated, 4);
  }
  if (returns)
    for (u64 ex = w.exec; ex; ex &= ex - 1) vector_reg(w, O(op, 0))[std::countr_zero(ex)] = before[std::countr_zero(ex)];
  if (e.observer) e.observer->global_access(seen, w.exec, 4, true);
}

// 64-bit global atomics: the data is a VGPR pair (add: the addend; cmpswap:
// a pair of pairs, the new value then the compare value); the old value
// returns to a pair with sc0.  Combine(old, src, cmp) gives the new value.
template <u64 (*Combine)(u64 old, u64 src, u64 cmp), int DataDwords>
void global_atomic_x2(Wave& w, const Op& op, Env& e) {
  const bool returns = op.t.ops.size() == 4;
  const Operand &vaddr = O(op, returns ? 1 : 0), &data = O(op, returns ? 2 : 1), &saddr = O(op, returns ? 3 : 2);
  u64 seen[kLanes], before[kLanes];
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    const int l = std::countr_zero(ex);
    const u64 a = seen[l] = lane_address(w, vaddr, saddr, l, op.t.mods.offset);
    std::uint8_t* p = e.memory->find(a, 8);
    if (!p) out_of_bounds("global atomic", 8, l, a);
    u64 old;
    std::memcpy(&old, p, 8);
    before[l] = old;
    const u64 src = vector_reg(w, data, 0)[l] | static_cast<u64>(vector_reg(w, data, 1)[l]) << 32;
    const u64 cmp = DataDwords == 4 ? vector_reg(w, data, 2)[l] | static_cast<u64>(vector_reg(w, data, 3)[l]) << 32 : 0;
    const u64 updated = Combine(old, src, cmp);
    std::memcpy(p, &updated, 8);
  }
  if (returns)
    for (u64 ex = w.exec; ex; ex &= ex - 1) {
      const int l = std::countr_zero(ex);
      vector_reg(w, O(op, 0), 0)[l] = static_cast<u32>(before[l]);
      vector_reg(w, O(op, 0), 1)[l] = static_cast<u32>(before[l] >> 32);
    }
  if (e.observer) e.observer->global_access(seen, w.exec, 8, true);
}
u64 add_u64(u64 old, u64 src, u64) { return old + src; }
u64 cmpswap_u64(u64 old, u64 src, u64 cmp) { return old == cmp ? src : old; }

// IEEE f32 add (round to nearest even) [I: the atomic unit's denormal handling is not in arch-facts].
u32 add_f32(u32 old, u32 value) { return bits_of(as_f32(old) + as_f32(value)); }
// Two bf16 adds, each half on its own: the sum in f32, rounded to bf16 (nearest even) [I].
u32 pk_add_bf16(u32 old, u32 value) {
  auto half = [&](int h) {
    const float s = bf16_to_f32(static_cast<std::uint16_t>(old >> (16 * h))) +
                    bf16_to_f32(static_cast<std::uint16_t>(value >> (16 * h)));
    return static_cast<u32>(bf16_rne(bits_of(s))) << (16 * h);
  };
  return half(0) | half(1);
}
u32 add_u32(u32 old, u32 value) { return old + value; }

// ---- LDS ----
// The LDS bytes lane `lane` of wave w reads or writes (bounds-checked), and
// the access recorded by the race check when one runs.
std::uint8_t* lds_at(Env& e, const Wave& w, const Op& op, u32 address, int bytes, int lane, bool write) {
  if (static_cast<u64>(address) + static_cast<u64>(bytes) > e.lds->size())
    throw EmuError("LDS access of " + std::to_string(bytes) + " bytes at " + hex(address) + " (lane " +
                   std::to_string(lane) + ") is outside the workgroup's " + std::to_string(e.lds->size()) + " bytes");
  if (e.races) e.races->access(w.id, w.barriers, op.index, address, bytes, write);
  return e.lds->data() + address;
}

void trace(Env& e, const Op& op, const u32* addresses, u64 active, std::string_view as = {}) {
  if (e.lds_trace) e.lds_trace->access(op, as.empty() ? std::string_view(op.t.base) : as, addresses, active);
}

// The two-address forms are costed as two accesses of their element width
// (ds_read2_b64 as two ds_read_b64): how the LDS sequences them is not in
// arch-facts [?].
template <int Bytes>
constexpr std::string_view element_access(bool write) {
  if (write) return Bytes == 8 ? "ds_write_b64" : "ds_write_b32";
  return Bytes == 8 ? "ds_read_b64" : "ds_read_b32";
}

// ds_read_b{32,64,96,128} vdst, vaddr [offset:N]; ds_read_u8/u16/i8/i16 widen.
template <int Bytes, bool Sign = false>
void ds_read(Wave& w, const Op& op, Env& e) {
  u32 addr[kLanes] = {};
  const u32* va = vector_reg(w, O(op, 1));
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    int l = std::countr_zero(ex);
    addr[l] = va[l] + static_cast<u32>(op.t.mods.offset);
  }
  trace(e, op, addr, w.exec);
  prefetch_registers(w, O(op, 0), Bytes < 4 ? 1 : Bytes / 4);
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    int l = std::countr_zero(ex);
    const std::uint8_t* p = lds_at(e, w, op, addr[l], Bytes, l, false);
    if constexpr (Bytes >= 4) {
      for (int i = 0; i < Bytes / 4; ++i) std::memcpy(&vector_reg(w, O(op, 0), i)[l], p + 4 * i, 4);
    } else {
      u32 v = 0;
      std::memcpy(&v, p, Bytes);
      if (Sign) v = Bytes == 1 ? static_cast<u32>(static_cast<std::int8_t>(v)) : static_cast<u32>(static_cast<std::int16_t>(v));
      vector_reg(w, O(op, 0))[l] = v;
    }
  }
}

// ds_write_b{8,16,32,64,96,128} vaddr, vdata [offset:N]; Half 1: d16_hi (high 16 bits).
template <int Bytes, int Half = 0>
void ds_write(Wave& w, const Op& op, Env& e) {
  u32 addr[kLanes] = {};
  const u32* va = vector_reg(w, O(op, 0));
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    int l = std::countr_zero(ex);
    addr[l] = va[l] + static_cast<u32>(op.t.mods.offset);
  }
  trace(e, op, addr, w.exec, Half ? std::string_view("ds_write_b16") : std::string_view());  // d16_hi: a 16-bit write
  prefetch_registers(w, O(op, 1), Bytes < 4 ? 1 : Bytes / 4);
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    int l = std::countr_zero(ex);
    std::uint8_t* p = lds_at(e, w, op, addr[l], Bytes, l, true);
    if constexpr (Bytes >= 4) {
      for (int i = 0; i < Bytes / 4; ++i) std::memcpy(p + 4 * i, &vector_reg(w, O(op, 1), i)[l], 4);
    } else {
      u32 v = vector_reg(w, O(op, 1))[l] >> (16 * Half);
      std::memcpy(p, &v, Bytes);
    }
  }
}

// ds_read2_b{32,64} / ds_write2_b{32,64}: two elements at offset0 and offset1
// (in elements); the st64 forms count offsets in units of 64 elements.
template <int Bytes, int Stride = 1>
void ds_read2(Wave& w, const Op& op, Env& e) {
  // Both addresses first: the destination may overlap the address register.
  u32 addr[2][kLanes] = {};
  const u32* va = vector_reg(w, O(op, 1));
  for (int k = 0; k < 2; ++k) {
    u32 off = static_cast<u32>((k ? op.t.mods.offset1 : op.t.mods.offset0) * Bytes * Stride);
    for (u64 ex = w.exec; ex; ex &= ex - 1) addr[k][std::countr_zero(ex)] = va[std::countr_zero(ex)] + off;
    trace(e, op, addr[k], w.exec, element_access<Bytes>(false));
  }
  for (int k = 0; k < 2; ++k)
    for (u64 ex = w.exec; ex; ex &= ex - 1) {
      int l = std::countr_zero(ex);
      const std::uint8_t* p = lds_at(e, w, op, addr[k][l], Bytes, l, false);
      for (int i = 0; i < Bytes / 4; ++i) std::memcpy(&vector_reg(w, O(op, 0), k * Bytes / 4 + i)[l], p + 4 * i, 4);
    }
}
template <int Bytes, int Stride = 1>
void ds_write2(Wave& w, const Op& op, Env& e) {
  const u32* va = vector_reg(w, O(op, 0));
  for (int k = 0; k < 2; ++k) {
    u32 addr[kLanes] = {};
    u32 off = static_cast<u32>((k ? op.t.mods.offset1 : op.t.mods.offset0) * Bytes * Stride);
    for (u64 ex = w.exec; ex; ex &= ex - 1) addr[std::countr_zero(ex)] = va[std::countr_zero(ex)] + off;
    trace(e, op, addr, w.exec, element_access<Bytes>(true));
    for (u64 ex = w.exec; ex; ex &= ex - 1) {
      int l = std::countr_zero(ex);
      std::uint8_t* p = lds_at(e, w, op, addr[l], Bytes, l, true);
      for (int i = 0; i < Bytes / 4; ++i) std::memcpy(p + 4 * i, &vector_reg(w, O(op, 1 + k), i)[l], 4);
    }
  }
}

// ds_bpermute_b32 vdst, vaddr, vdata: lane l reads vdata of lane
// ((vaddr[l] + offset) / 4) % 64 (the source lane's value, whether or not it
// is active).  No LDS memory is touched.
void ds_bpermute(Wave& w, const Op& op, Env&) {
  const u32 *va = vector_reg(w, O(op, 1)), *data = vector_reg(w, O(op, 2));
  u32 r[kLanes];
  for (int l = 0; l < kLanes; ++l) r[l] = data[((va[l] + static_cast<u32>(op.t.mods.offset)) >> 2) & 63];
  u32* d = vector_reg(w, O(op, 0));
  for (u64 ex = w.exec; ex; ex &= ex - 1) d[std::countr_zero(ex)] = r[std::countr_zero(ex)];
}
// ds_permute_b32 vdst, vaddr, vdata: lane l's vdata goes to lane (vaddr[l] + offset) / 4 % 64.
void ds_permute(Wave& w, const Op& op, Env&) {
  const u32 *va = vector_reg(w, O(op, 1)), *data = vector_reg(w, O(op, 2));
  u32 r[kLanes] = {};
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    int l = std::countr_zero(ex);
    r[((va[l] + static_cast<u32>(op.t.mods.offset)) >> 2) & 63] = data[l];
  }
  u32* d = vector_reg(w, O(op, 0));
  for (u64 ex = w.exec; ex; ex &= ex - 1) d[std::countr_zero(ex)] = r[std::countr_zero(ex)];
}

// ds_swizzle_b32 vdst, vsrc offset:N.  offset[15] = 1: QUAD_PERM, lane i of
// each group of 4 reads lane offset[2i+1:2i] of its group; else BITMASK over
// each 32-lane half: lane l reads ((l & and) | or) ^ xor with and = offset[4:0],
// or = offset[9:5], xor = offset[14:10].  Source lanes are read whether active
// or not.  The printed offset is a swizzle(...) macro; its value is the
// decoder's immediate.
void ds_swizzle(Wave& w, const Op& op, Env&) {
  u32 offset = static_cast<u32>(op.t.mods.offset);
  if (op.t.mods.offset_macro) {
    bool found = false;
    for (const auto& o : op.inst->operands)
      if (o.kind == isa::Operand::Kind::Imm) {
        offset = static_cast<u32>(o.imm);
        found = true;
        break;
      }
    if (!found) throw EmuError("ds_swizzle without an offset immediate");
  }
  const u32* s = vector_reg(w, O(op, 1));
  u32 r[kLanes];
  for (int l = 0; l < kLanes; ++l) {
    int from;
    if (offset & 0x8000) {
      from = (l & ~3) | static_cast<int>((offset >> (2 * (l & 3))) & 3);
    } else {
      u32 and_mask = offset & 31, or_mask = (offset >> 5) & 31, xor_mask = (offset >> 10) & 31;
      from = (l & 32) | static_cast<int>((((static_cast<u32>(l) & 31) & and_mask) | or_mask) ^ xor_mask);
    }
    r[l] = s[from];
  }
  u32* d = vector_reg(w, O(op, 0));
  for (u64 ex = w.exec; ex; ex &= ex - 1) d[std::countr_zero(ex)] = r[std::countr_zero(ex)];
}

// LDS-DMA: global_load_lds_dword{,x3,x4} vaddr, saddr|off and
// buffer_load_dword{,x3,x4} ... lds write each active lane's `Bytes` into the
// lane-linear LDS block at M0 + instruction offset + lane * Bytes (arch-facts).
// The data lands later (retire_vmem, at the wave's s_waitcnt vmcnt).
LdsDmaWrite& start_lds_dma(Wave& w, const Op& op, int bytes) {
  LdsDmaWrite& d = w.vmem_in_flight.emplace_back(LdsDmaWrite{}).value();
  d.op_index = op.index;
  d.bytes = bytes;
  d.address.assign(kLanes, 0);
  d.data.assign(static_cast<std::size_t>(kLanes * bytes), 0);
  return d;
}
void lds_dma_lane(Env& e, LdsDmaWrite& d, int l, u32 address, const std::uint8_t* bytes) {
  if (static_cast<u64>(address) + static_cast<u64>(d.bytes) > e.lds->size())
    throw EmuError("LDS access of " + std::to_string(d.bytes) + " bytes at " + hex(address) + " (lane " +
                   std::to_string(l) + ") is outside the workgroup's " + std::to_string(e.lds->size()) + " bytes");
  d.active |= 1ull << l;
  d.address[static_cast<std::size_t>(l)] = address;
  if (bytes) std::memcpy(&d.data[static_cast<std::size_t>(l * d.bytes)], bytes, static_cast<std::size_t>(d.bytes));
}

template <int Bytes>
void global_load_lds(Wave& w, const Op& op, Env& e) {
  u64 seen[kLanes];
  LdsDmaWrite& d = start_lds_dma(w, op, Bytes);
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    int l = std::countr_zero(ex);
    u64 a = seen[l] = lane_address(w, O(op, 0), O(op, 1), l, op.t.mods.offset);
    const std::uint8_t* p = e.memory->find(a, Bytes);
    if (!p) out_of_bounds("global load (to LDS)", Bytes, l, a);
    lds_dma_lane(e, d, l, w.m0 + static_cast<u32>(op.t.mods.offset) + static_cast<u32>(l * Bytes), p);
  }
  if (e.observer) e.observer->global_access(seen, w.exec, Bytes, false);
}

// ds_read_b64_tr_b16 / _b8 vdst[2], vaddr (gfx950), the transposing 64-bit
// reads: each lane reads its own 8 bytes; in each block of 16 lanes (first
// lane g, t = lane % 16), element n of lane t comes from lane
// g + t / (8 / Bytes) + (16 / (8 / Bytes)) * n, element t % (8 / Bytes) —
// for b16 lane g + (t>>2) + 4n, halfword t&3 (a 4 x 16 tile whose column t
// lane t receives); for b8 lane g + (t>>3) + 2n, byte t&7.  The official,
// hardware-checked maps (arch-facts, "Transposing reads", [O]).
template <int Bytes>
void ds_read_b64_tr(Wave& w, const Op& op, Env& e) {
  constexpr int per_lane = 8 / Bytes;     // elements in a lane's 8 bytes
  constexpr int rows = 16 / per_lane;     // the source lane steps by this from element n to n + 1
  u32 addr[kLanes] = {};
  const u32* va = vector_reg(w, O(op, 1));
  for (u64 ex = w.exec; ex; ex &= ex - 1) addr[std::countr_zero(ex)] = va[std::countr_zero(ex)] + static_cast<u32>(op.t.mods.offset);
  trace(e, op, addr, w.exec);
  std::uint8_t bytes[kLanes][8] = {};
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    int l = std::countr_zero(ex);
    std::memcpy(bytes[l], lds_at(e, w, op, addr[l], 8, l, false), 8);
  }
  std::uint8_t out[kLanes][8] = {};
  for (int l = 0; l < kLanes; ++l) {
    const int g = l & ~15, t = l & 15;
    for (int n = 0; n < per_lane; ++n)
      std::memcpy(out[l] + Bytes * n, bytes[g + t / per_lane + rows * n] + Bytes * (t % per_lane), Bytes);
  }
  u32 *d0 = vector_reg(w, O(op, 0), 0), *d1 = vector_reg(w, O(op, 0), 1);
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    int l = std::countr_zero(ex);
    std::memcpy(&d0[l], out[l], 4);
    std::memcpy(&d1[l], out[l] + 4, 4);
  }
}

// ---- MUBUF: buffer_load / buffer_store through a V# resource ----
// V# (4 SGPRs): base = dword0 | dword1[15:0] << 32, stride = dword1[29:16],
// num_records = dword2.  Address = base + soffset + instruction offset +
// (offen ? the vaddr offset : 0) + (idxen ? vaddr index * stride : 0); with
// both, vaddr is (index, offset).  Range check: an indexed access (idxen, a
// stride) is out of range when index >= num_records; any other access when
// its offset (soffset excluded) + size exceeds num_records bytes, whatever
// the stride field holds.  Out of range reads 0 and writes nothing.
// soffset is outside the check: [M] LLVM's buffer intrinsics ("soffset
// (SGPR/imm, excluded from bounds checking and swizzling)", the offset
// argument "included in bounds checking"); zeros for an out-of-range load:
// [M] MLIR's AMDGPU dialect ("When a load is out of bounds, the instruction
// returns zero").  So a load whose soffset carries it past the buffer reads
// whatever lies there on the device; here that is "outside every buffer"
// unless the host padded the allocation.  [I] The byte-bound rule is tilelab's reading: AMD's own gfx950 kernels (aiter's
// topksoftmax) set a stride of 4 with num_records in bytes and rely on it to
// drop the stores of a partial last tile, and MLIR's fat_raw_buffer_cast puts
// a cache-swizzle stride beside a byte bound.
struct BufferAccess {
  u64 address = 0;
  bool in_range = true;
};
BufferAccess buffer_address(Wave& w, const Op& op, int vaddr_i, int rsrc_i, int l, int bytes) {
  const Operand &vaddr = O(op, vaddr_i), &rsrc = O(op, rsrc_i), &soffset = O(op, rsrc_i + 1);
  u32 d0 = scalar_u32(w, rsrc, 0), d1 = scalar_u32(w, rsrc, 1), records = scalar_u32(w, rsrc, 2);
  u64 base = d0 | static_cast<u64>(d1 & 0xffff) << 32;
  u32 stride = (d1 >> 16) & 0x3fff;
  u32 index = 0, offset = static_cast<u32>(op.t.mods.offset);
  const Modifiers& m = op.t.mods;
  if (m.idxen) index = vector_reg(w, vaddr, 0)[l];
  if (m.offen) offset += vector_reg(w, vaddr, m.idxen ? 1 : 0)[l];
  BufferAccess a;
  a.address = base + scalar_u32(w, soffset) + offset + static_cast<u64>(index) * stride;
  a.in_range = m.idxen && stride ? index < records : static_cast<u64>(offset) + static_cast<u64>(bytes) <= records;
  return a;
}

// Narrower loads extend (Sign) or write one half (Half, the d16 forms), as global_load.
template <int Bytes, bool Sign = false, int Half = -1>
void buffer_load(Wave& w, const Op& op, Env& e) {
  u64 seen[kLanes];
  u64 touched = 0;  // lanes in range: the others make no memory request
  if (op.t.mods.lds) {  // LDS-DMA form: no data register
    if (Bytes < 4) throw EmuError("the LDS-DMA form of a sub-dword buffer load is not modelled");
    LdsDmaWrite& d = start_lds_dma(w, op, Bytes);
    for (u64 ex = w.exec; ex; ex &= ex - 1) {
      int l = std::countr_zero(ex);
      BufferAccess a = buffer_address(w, op, 0, 1, l, Bytes);
      if (a.in_range) seen[l] = a.address, touched |= 1ull << l;
      const std::uint8_t* p = a.in_range ? e.memory->find(a.address, Bytes) : nullptr;
      if (a.in_range && !p) out_of_bounds("buffer load (to LDS)", Bytes, l, a.address);
      lds_dma_lane(e, d, l, w.m0 + static_cast<u32>(op.t.mods.offset) + static_cast<u32>(l * Bytes), p);  // out of range: zeros
    }
    if (e.observer) e.observer->global_access(seen, touched, Bytes, false);
    return;
  }
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    int l = std::countr_zero(ex);
    BufferAccess a = buffer_address(w, op, 1, 2, l, Bytes);
    u32 data[(Bytes + 3) / 4] = {};
    if (a.in_range) {
      seen[l] = a.address, touched |= 1ull << l;
      const std::uint8_t* p = e.memory->find(a.address, Bytes);
      if (!p) out_of_bounds("buffer load", Bytes, l, a.address);
      std::memcpy(data, p, Bytes);
    }
    if constexpr (Bytes >= 4) {
      for (int i = 0; i < Bytes / 4; ++i) vector_reg(w, O(op, 0), i)[l] = data[i];
    } else {
      write_narrow<Bytes, Sign, Half>(vector_reg(w, O(op, 0))[l], data[0]);
    }
  }
  if (e.observer) e.observer->global_access(seen, touched, Bytes, false);
}

// buffer_atomic_* vdata, vaddr, srsrc, soffset: the address as a buffer
// load's, each lane in turn; out of range, no request (the lane's data is
// unchanged); with sc0 (glc) the value before the operation returns to vdata.
template <u32 (*Combine)(u32 old, u32 value)>
void buffer_atomic(Wave& w, const Op& op, Env& e) {
  const bool returns = op.t.mods.sc0 || op.t.mods.glc;
  u64 seen[kLanes];
  u64 touched = 0;
  u32* data = vector_reg(w, O(op, 0));
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    const int l = std::countr_zero(ex);
    const BufferAccess a = buffer_address(w, op, 1, 2, l, 4);
    if (!a.in_range) continue;
    std::uint8_t* p = e.memory->find(a.address, 4);
    if (!p) out_of_bounds("buffer atomic", 4, l, a.address);
    u32 old;
    std::memcpy(&old, p, 4);
    const u32 updated = Combine(old, data[l]);
    std::memcpy(p, &updated, 4);
    if (returns) data[l] = old;
    seen[l] = a.address, touched |= 1ull << l;
  }
  if (e.observer) e.observer->global_access(seen, touched, 4, true);
}

// Narrower stores write the low bytes, or with Half 1 the high 16 bits (d16_hi).
template <int Bytes, int Half = 0>
void buffer_store(Wave& w, const Op& op, Env& e) {
  u64 seen[kLanes];
  u64 touched = 0;
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    int l = std::countr_zero(ex);
    BufferAccess a = buffer_address(w, op, 1, 2, l, Bytes);
    if (!a.in_range) continue;
    std::uint8_t* p = e.memory->find(a.address, Bytes);
    if (!p) out_of_bounds("buffer store", Bytes, l, a.address);
    if constexpr (Bytes >= 4) {
      for (int i = 0; i < Bytes / 4; ++i) std::memcpy(p + 4 * i, &vector_reg(w, O(op, 0), i)[l], 4);
    } else {
      const u32 v = vector_reg(w, O(op, 0))[l] >> (16 * Half);
      std::memcpy(p, &v, Bytes);
    }
    seen[l] = a.address, touched |= 1ull << l;
  }
  if (e.observer) e.observer->global_access(seen, touched, Bytes, true);
}

// ---- scratch: each lane's private segment (architected flat scratch) ----
// A lane's private address is vaddr (unless `off`) + saddr (unless `off`) +
// the instruction offset (ISA: the SV, SS and ST forms of scratch_*).  The
// segment is the descriptor's fixed size per lane; an access outside it
// stops the run.  The hardware keeps the segment swizzled: dword k of every
// lane side by side, 256 bytes per k for wave64 (AMDGPUUsage: element size
// 4, index stride 64), which is what the cycle model is shown.
std::int64_t private_address(Wave& w, const Operand& vaddr, const Operand& saddr, int l, std::int32_t offset) {
  std::int64_t a = offset;
  if (vaddr.loc != Loc::Off) a += static_cast<std::int32_t>(vector_reg(w, vaddr, 0)[l]);
  if (saddr.loc != Loc::Off) a += static_cast<std::int32_t>(scalar_u32(w, saddr));
  return a;
}

template <int Bytes>
std::uint8_t* private_bytes_at(Wave& w, std::int64_t a, int l, bool store) {
  constexpr int align = Bytes < 4 ? Bytes : 4;
  if (a < 0 || a + Bytes > static_cast<std::int64_t>(w.private_bytes))
    throw EmuError(std::string("scratch ") + (store ? "store" : "load") + " of " + std::to_string(Bytes) +
                   " bytes at private address " + std::to_string(a) + " (lane " + std::to_string(l) +
                   ") is outside the lane's " + std::to_string(w.private_bytes) + "-byte private segment");
  if (a % align)
    throw EmuError(std::string("scratch ") + (store ? "store" : "load") + " at private address " + std::to_string(a) +
                   " (lane " + std::to_string(l) + ") is not " + std::to_string(align) +
                   "-byte aligned (unaligned scratch is not modelled)");
  return &w.scratch[static_cast<std::size_t>(l) * w.private_bytes + static_cast<std::size_t>(a)];
}

// The swizzled addresses of one scratch access, one wave-level access per dword.
template <int Bytes>
void report_scratch(const Wave& w, const std::int64_t* at, std::uint64_t active, bool store, Env& e) {
  if (!e.observer) return;
  constexpr int dwords = Bytes < 4 ? 1 : Bytes / 4;
  u64 swizzled[kLanes];
  for (int k = 0; k < dwords; ++k) {
    for (u64 ex = active; ex; ex &= ex - 1) {
      const int l = std::countr_zero(ex);
      const u64 a = static_cast<u64>(at[l]);
      swizzled[l] = w.scratch_base + (a / 4 + static_cast<u64>(k)) * 4 * kLanes + 4 * static_cast<u64>(l) + a % 4;
    }
    e.observer->global_access(swizzled, active, Bytes < 4 ? Bytes : 4, store);
  }
}

template <int Bytes, bool Sign = false, int Half = -1>
void scratch_load(Wave& w, const Op& op, Env& e) {
  const Operand &dst = O(op, 0), &vaddr = O(op, 1), &saddr = O(op, 2);
  std::int64_t at[kLanes];
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    const int l = std::countr_zero(ex);
    at[l] = private_address(w, vaddr, saddr, l, op.t.mods.offset);
    const std::uint8_t* p = private_bytes_at<Bytes>(w, at[l], l, false);
    if constexpr (Bytes >= 4) {
      for (int i = 0; i < Bytes / 4; ++i) std::memcpy(&vector_reg(w, dst, i)[l], p + 4 * i, 4);
    } else {
      u32 v = 0;
      std::memcpy(&v, p, Bytes);
      write_narrow<Bytes, Sign, Half>(vector_reg(w, dst)[l], v);
    }
  }
  report_scratch<Bytes>(w, at, w.exec, false, e);
}

template <int Bytes, int Half = 0>
void scratch_store(Wave& w, const Op& op, Env& e) {
  const Operand &vaddr = O(op, 0), &data = O(op, 1), &saddr = O(op, 2);
  std::int64_t at[kLanes];
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    const int l = std::countr_zero(ex);
    at[l] = private_address(w, vaddr, saddr, l, op.t.mods.offset);
    std::uint8_t* p = private_bytes_at<Bytes>(w, at[l], l, true);
    if constexpr (Bytes >= 4) {
      for (int i = 0; i < Bytes / 4; ++i) std::memcpy(p + 4 * i, &vector_reg(w, data, i)[l], 4);
    } else {
      const u32 v = vector_reg(w, data)[l] >> (16 * Half);
      std::memcpy(p, &v, Bytes);
    }
  }
  report_scratch<Bytes>(w, at, w.exec, true, e);
}

// ---- flat: the address's aperture picks the memory (operands.hpp) ----
// flat_load_* vdst, vaddr[64-bit] [offset:N] / flat_store_* vaddr, vdata:
// per lane, an address in the shared aperture is LDS (address - base, the
// race check and the bank model see it), in the private aperture the lane's
// scratch (address - base), anywhere else global memory.  [O] ISA (FLAT:
// "the address is checked against the apertures"); AMDGPUUsage (the
// apertures on GFX9+).  The cycle model sees each part as its own access.
struct FlatLanes {
  u64 global_at[kLanes];
  std::int64_t private_at[kLanes];
  u32 lds_at[kLanes];
  u64 global = 0, priv = 0, lds = 0;  // lane masks
};

template <int Bytes>
std::uint8_t* flat_bytes(Wave& w, const Op& op, Env& e, int l, bool store, FlatLanes& f) {
  static const Operand off{Loc::Off};
  const u64 a = lane_address(w, O(op, store ? 0 : 1), off, l, op.t.mods.offset);
  if (a - kSharedAperture < kApertureBytes) {
    f.lds_at[l] = static_cast<u32>(a - kSharedAperture), f.lds |= 1ull << l;
    return lds_at(e, w, op, f.lds_at[l], Bytes, l, store);
  }
  if (a - kPrivateAperture < kApertureBytes) {
    f.private_at[l] = static_cast<std::int64_t>(a - kPrivateAperture), f.priv |= 1ull << l;
    return private_bytes_at<Bytes>(w, f.private_at[l], l, store);
  }
  f.global_at[l] = a, f.global |= 1ull << l;
  std::uint8_t* p = e.memory->find(a, Bytes);
  if (!p) out_of_bounds(store ? "flat store" : "flat load", Bytes, l, a);
  return p;
}

template <int Bytes>
void report_flat(Wave& w, const Op& op, Env& e, FlatLanes& f, bool store) {
  if (f.global && e.observer) e.observer->global_access(f.global_at, f.global, Bytes, store);
  if (f.priv) report_scratch<Bytes>(w, f.private_at, f.priv, store, e);
  if (f.lds) trace(e, op, f.lds_at, f.lds);
}

template <int Bytes, bool Sign = false, int Half = -1>
void flat_load(Wave& w, const Op& op, Env& e) {
  FlatLanes f;
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    const int l = std::countr_zero(ex);
    const std::uint8_t* p = flat_bytes<Bytes>(w, op, e, l, false, f);
    if constexpr (Bytes >= 4) {
      for (int i = 0; i < Bytes / 4; ++i) std::memcpy(&vector_reg(w, O(op, 0), i)[l], p + 4 * i, 4);
    } else {
      u32 v = 0;
      std::memcpy(&v, p, Bytes);
      write_narrow<Bytes, Sign, Half>(vector_reg(w, O(op, 0))[l], v);
    }
  }
  report_flat<Bytes>(w, op, e, f, false);
}

template <int Bytes, int Half = 0>
void flat_store(Wave& w, const Op& op, Env& e) {
  FlatLanes f;
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    const int l = std::countr_zero(ex);
    std::uint8_t* p = flat_bytes<Bytes>(w, op, e, l, true, f);
    if constexpr (Bytes >= 4) {
      for (int i = 0; i < Bytes / 4; ++i) std::memcpy(p + 4 * i, &vector_reg(w, O(op, 1), i)[l], 4);
    } else {
      const u32 v = vector_reg(w, O(op, 1))[l] >> (16 * Half);
      std::memcpy(p, &v, Bytes);
    }
  }
  report_flat<Bytes>(w, op, e, f, true);
}

}  // namespace

void retire_vmem(Wave& w, Env& e, std::size_t keep) {
  while (w.vmem_in_flight.size() > keep) {
    if (const std::optional<LdsDmaWrite>& d = w.vmem_in_flight.front()) {
      for (u64 ex = d->active; ex; ex &= ex - 1) {
        const int l = std::countr_zero(ex);
        const u32 address = d->address[static_cast<std::size_t>(l)];
        if (e.races) e.races->access(w.id, w.barriers, d->op_index, address, d->bytes, true);
        std::memcpy(e.lds->data() + address, &d->data[static_cast<std::size_t>(l * d->bytes)],
                    static_cast<std::size_t>(d->bytes));
      }
    }
    w.vmem_in_flight.pop_front();
  }
}

void add_memory_ops(HandlerTable& t) {
  // Cache write-back and invalidate (the release and acquire of agent-scope
  // atomics and fences): the emulator's memory is coherent, so nothing to do;
  // the cycle model writes dirty L2 lines back at the kernel's end.
  t["buffer_atomic_add_f32"] = buffer_atomic<add_f32>;
  t["buffer_atomic_pk_add_bf16"] = buffer_atomic<pk_add_bf16>;
  t["buffer_atomic_add"] = buffer_atomic<add_u32>;
  t["buffer_wbl2"] = [](Wave&, const Op&, Env&) {};
  t["buffer_inv"] = [](Wave&, const Op&, Env&) {};
  t["flat_load_ubyte"] = flat_load<1>;
  t["flat_load_sbyte"] = flat_load<1, true>;
  t["flat_load_ushort"] = flat_load<2>;
  t["flat_load_sshort"] = flat_load<2, true>;
  t["flat_load_short_d16"] = flat_load<2, false, 0>;
  t["flat_load_short_d16_hi"] = flat_load<2, false, 1>;
  t["flat_load_dword"] = flat_load<4>;
  t["flat_load_dwordx2"] = flat_load<8>;
  t["flat_load_dwordx3"] = flat_load<12>;
  t["flat_load_dwordx4"] = flat_load<16>;
  t["flat_store_byte"] = flat_store<1>;
  t["flat_store_short"] = flat_store<2>;
  t["flat_store_short_d16_hi"] = flat_store<2, 1>;
  t["flat_store_dword"] = flat_store<4>;
  t["flat_store_dwordx2"] = flat_store<8>;
  t["flat_store_dwordx3"] = flat_store<12>;
  t["flat_store_dwordx4"] = flat_store<16>;
  t["scratch_load_ubyte"] = scratch_load<1>;
  t["scratch_load_sbyte"] = scratch_load<1, true>;
  t["scratch_load_ushort"] = scratch_load<2>;
  t["scratch_load_sshort"] = scratch_load<2, true>;
  t["scratch_load_short_d16"] = scratch_load<2, false, 0>;
  t["scratch_load_short_d16_hi"] = scratch_load<2, false, 1>;
  t["scratch_load_dword"] = scratch_load<4>;
  t["scratch_load_dwordx2"] = scratch_load<8>;
  t["scratch_load_dwordx3"] = scratch_load<12>;
  t["scratch_load_dwordx4"] = scratch_load<16>;
  t["scratch_store_byte"] = scratch_store<1>;
  t["scratch_store_short"] = scratch_store<2>;
  t["scratch_store_short_d16_hi"] = scratch_store<2, 1>;
  t["scratch_store_dword"] = scratch_store<4>;
  t["scratch_store_dwordx2"] = scratch_store<8>;
  t["scratch_store_dwordx3"] = scratch_store<12>;
  t["scratch_store_dwordx4"] = scratch_store<16>;
  t["ds_read_b64_tr_b16"] = ds_read_b64_tr<2>;
  t["ds_read_b64_tr_b8"] = ds_read_b64_tr<1>;
  t["ds_swizzle_b32"] = ds_swizzle;
  t["global_load_lds_dword"] = global_load_lds<4>;
  t["global_load_lds_dwordx3"] = global_load_lds<12>;
  t["global_load_lds_dwordx4"] = global_load_lds<16>;
  t["buffer_load_ubyte"] = buffer_load<1>;
  t["buffer_load_sbyte"] = buffer_load<1, true>;
  t["buffer_load_ushort"] = buffer_load<2>;
  t["buffer_load_sshort"] = buffer_load<2, true>;
  t["buffer_load_short_d16"] = buffer_load<2, false, 0>;
  t["buffer_load_short_d16_hi"] = buffer_load<2, false, 1>;
  t["buffer_store_byte"] = buffer_store<1>;
  t["buffer_store_short"] = buffer_store<2>;
  t["buffer_store_short_d16_hi"] = buffer_store<2, 1>;
  t["buffer_load_dword"] = buffer_load<4>;
  t["buffer_load_dwordx2"] = buffer_load<8>;
  t["buffer_load_dwordx3"] = buffer_load<12>;
  t["buffer_load_dwordx4"] = buffer_load<16>;
  t["buffer_store_dword"] = buffer_store<4>;
  t["buffer_store_dwordx2"] = buffer_store<8>;
  t["buffer_store_dwordx3"] = buffer_store<12>;
  t["buffer_store_dwordx4"] = buffer_store<16>;
  t["s_store_dword"] = s_store<1>;
  t["s_store_dwordx2"] = s_store<2>;
  t["s_store_dwordx4"] = s_store<4>;
  t["s_atomic_dec"] = s_atomic_dec;
  t["s_load_dword"] = s_load<1>;
  t["s_load_dwordx2"] = s_load<2>;
  t["s_load_dwordx4"] = s_load<4>;
  t["s_load_dwordx8"] = s_load<8>;
  t["s_load_dwordx16"] = s_load<16>;
  t["global_load_ubyte"] = global_load<1>;
  t["global_load_sbyte"] = global_load<1, true>;
  t["global_load_ushort"] = global_load<2>;
  t["global_load_sshort"] = global_load<2, true>;
  t["global_atomic_add_f32"] = global_atomic<add_f32>;
  t["global_atomic_pk_add_bf16"] = global_atomic<pk_add_bf16>;
  t["global_atomic_add"] = global_atomic<add_u32>;  // the u32 add (gfx9 spelling)
  t["global_atomic_add_x2"] = global_atomic_x2<add_u64, 2>;
  t["global_atomic_cmpswap_x2"] = global_atomic_x2<cmpswap_u64, 4>;
  t["global_load_short_d16"] = global_load<2, false, 0>;
  t["global_load_short_d16_hi"] = global_load<2, false, 1>;
  t["global_load_dword"] = global_load<4>;
  t["global_load_dwordx2"] = global_load<8>;
  t["global_load_dwordx3"] = global_load<12>;
  t["global_load_dwordx4"] = global_load<16>;
  t["global_store_byte"] = global_store<1>;
  t["global_store_short"] = global_store<2>;
  t["global_store_short_d16_hi"] = global_store<2, 1>;
  t["global_store_dword"] = global_store<4>;
  t["global_store_dwordx2"] = global_store<8>;
  t["global_store_dwordx3"] = global_store<12>;
  t["global_store_dwordx4"] = global_store<16>;
  t["ds_read_u8"] = ds_read<1>;
  t["ds_read_i8"] = ds_read<1, true>;
  t["ds_read_u16"] = ds_read<2>;
  t["ds_read_i16"] = ds_read<2, true>;
  t["ds_read_b32"] = ds_read<4>;
  t["ds_read_b64"] = ds_read<8>;
  t["ds_read_b96"] = ds_read<12>;
  t["ds_read_b128"] = ds_read<16>;
  t["ds_write_b8"] = ds_write<1>;
  t["ds_write_b16"] = ds_write<2>;
  t["ds_write_b16_d16_hi"] = ds_write<2, 1>;
  t["ds_write_b32"] = ds_write<4>;
  t["ds_write_b64"] = ds_write<8>;
  t["ds_write_b96"] = ds_write<12>;
  t["ds_write_b128"] = ds_write<16>;
  t["ds_read2_b32"] = ds_read2<4>;
  t["ds_read2_b64"] = ds_read2<8>;
  t["ds_write2_b32"] = ds_write2<4>;
  t["ds_write2_b64"] = ds_write2<8>;
  t["ds_read2st64_b32"] = ds_read2<4, 64>;
  t["ds_read2st64_b64"] = ds_read2<8, 64>;
  t["ds_write2st64_b32"] = ds_write2<4, 64>;
  t["ds_write2st64_b64"] = ds_write2<8, 64>;
  t["ds_bpermute_b32"] = ds_bpermute;
  t["ds_permute_b32"] = ds_permute;
}

}  // namespace tilelab::emu
