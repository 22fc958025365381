#include "sim/emu/operands.hpp"

#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>

namespace tilelab::emu {
namespace {

[[noreturn]] void fail(std::string_view text, std::string_view token, const char* why) {
  throw EmuError("cannot read operand '" + std::string(token) + "' of '" + std::string(text) + "': " + why);
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Splits at commas and spaces that are not inside [...] or (...).
std::vector<std::string_view> tokens(std::string_view s) {
  std::vector<std::string_view> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    char c = i < s.size() ? s[i] : ' ';
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') --depth;
    if ((c == ',' || c == ' ') && depth == 0) {
      if (i > start) out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

long long to_int(std::string_view text, std::string_view s) {
  bool negative = !s.empty() && s[0] == '-';
  if (negative) s.remove_prefix(1);
  int base = 10;
  if (starts_with(s, "0x")) {
    base = 16;
    s.remove_prefix(2);
  }
  unsigned long long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || p != s.data() + s.size()) fail(text, s, "not a number");
  return negative ? -static_cast<long long>(v) : static_cast<long long>(v);
}

// "[1,0,1]" -> flags
std::array<bool, 4> flag_list(std::string_view text, std::string_view v) {
  std::array<bool, 4> out{};
  if (v.size() < 2 || v.front() != '[' || v.back() != ']') fail(text, v, "expected [a,b,...]");
  v = v.substr(1, v.size() - 2);
  for (std::size_t i = 0, n = 0; i < v.size(); ++i) {
    if (v[i] == ',') continue;
    if (n == 4 || (v[i] != '0' && v[i] != '1')) fail(text, v, "expected 0 or 1 flags");
    out[n++] = v[i] == '1';
  }
  return out;
}

Sel sel_of(std::string_view text, std::string_view v) {
  static const char* names[] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD"};
  for (int i = 0; i < 7; ++i)
    if (v == names[i]) return static_cast<Sel>(i);
  fail(text, v, "unknown SDWA select");
}

// A register name: s5, v[4:7], a0, ...
bool parse_register(std::string_view t, Operand& op) {
  struct Named {
    const char* name;
    Loc loc;
    std::uint16_t index;
    std::uint8_t count;
  };
  static const Named named[] = {{"vcc", Loc::VCC, 0, 2},   {"vcc_lo", Loc::VCC, 0, 1}, {"vcc_hi", Loc::VCC, 1, 1},
                                {"exec", Loc::EXEC, 0, 2}, {"exec_lo", Loc::EXEC, 0, 1},
                                {"exec_hi", Loc::EXEC, 1, 1}, {"m0", Loc::M0, 0, 1},   {"scc", Loc::SCC, 0, 1},
                                {"off", Loc::Off, 0, 0}};
  for (const auto& n : named)
    if (t == n.name) {
      op.loc = n.loc;
      op.index = n.index;
      op.count = n.count;
      return true;
    }
  if (t.size() < 2 || (t[0] != 's' && t[0] != 'v' && t[0] != 'a')) return false;
  Loc loc = t[0] == 's' ? Loc::SGPR : t[0] == 'v' ? Loc::VGPR : Loc::AGPR;
  std::string_view rest = t.substr(1);
  unsigned lo = 0, hi = 0;
  if (!rest.empty() && rest[0] == '[') {
    auto colon = rest.find(':');
    if (colon == std::string_view::npos || rest.back() != ']') return false;
    auto a = std::from_chars(rest.data() + 1, rest.data() + colon, lo);
    auto b = std::from_chars(rest.data() + colon + 1, rest.data() + rest.size() - 1, hi);
    if (a.ec != std::errc() || b.ec != std::errc() || a.ptr != rest.data() + colon ||
        b.ptr != rest.data() + rest.size() - 1 || hi < lo)
      return false;
  } else {
    auto r = std::from_chars(rest.data(), rest.data() + rest.size(), lo);
    if (r.ec != std::errc() || r.ptr != rest.data() + rest.size()) return false;
    hi = lo;
  }
  // Register files: 128 SGPRs (s0-s105 and what follows in LLVM's numbering
  // are below this), 256 VGPRs, 256 AGPRs; anything past them is not a register.
  if (hi >= (loc == Loc::SGPR ? 128u : 256u) || hi - lo >= 32) return false;
  op.loc = loc;
  op.index = static_cast<std::uint16_t>(lo);
  op.count = static_cast<std::uint8_t>(hi - lo + 1);
  return true;
}

Operand parse_operand(std::string_view text, std::string_view t) {
  Operand op;
  std::string_view whole = t;
  if (starts_with(t, "sext(") && t.back() == ')') {
    op.sext = true;
    t = t.substr(5, t.size() - 6);
  }
  // lit(V) / lit64(V): LLVM prints a value it encoded as a literal though it
  // fits an inline constant ("s_addc_u32 s1, s1, lit(0x0)"); the value is V.
  for (std::string_view forced : {"lit(", "lit64("})
    if (starts_with(t, forced) && t.back() == ')') t = t.substr(forced.size(), t.size() - forced.size() - 1);
  if (t.size() > 1 && t[0] == '-' && !std::isdigit(static_cast<unsigned char>(t[1]))) {
    op.neg = true;
    t.remove_prefix(1);
  }
  if (t.size() > 2 && t.front() == '|' && t.back() == '|') {
    op.abs = true;
    t = t.substr(1, t.size() - 2);
  }
  if (parse_register(t, op)) return op;
  if (t.empty()) fail(text, whole, "empty");
  struct Aperture {
    const char* name;
    std::uint64_t value;
  };
  static constexpr Aperture apertures[] = {{"src_shared_base", kSharedAperture},
                                           {"src_shared_limit", kSharedAperture + kApertureBytes - 1},
                                           {"src_private_base", kPrivateAperture},
                                           {"src_private_limit", kPrivateAperture + kApertureBytes - 1}};
  for (const Aperture& a : apertures)
    if (t == a.name) {
      op.loc = Loc::Const;
      op.aperture = true;
      op.value = static_cast<std::int64_t>(a.value);
      return op;
    }
  op.loc = Loc::Const;
  if (t.find('.') != std::string_view::npos && !starts_with(t, "0x")) {
    op.is_float = true;
    std::string s(t);
    char* end = nullptr;
    op.fvalue = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size()) fail(text, whole, "not a number");
    return op;
  }
  op.value = to_int(text, t);
  return op;
}

void parse_modifier(std::string_view text, std::string_view t, Modifiers& m) {
  auto colon = t.find(':');
  std::string_view key = t.substr(0, colon), v = colon == std::string_view::npos ? "" : t.substr(colon + 1);
  if (colon == std::string_view::npos) {
    if (t == "clamp") m.clamp = true;
    else if (t == "glc") m.glc = true;
    else if (t == "slc") m.slc = true;
    else if (t == "nt") m.nt = true;
    else if (t == "sc0") m.sc0 = true;
    else if (t == "sc1") m.sc1 = true;
    else if (t == "lds") m.lds = true;
    else if (t == "offen") m.offen = true;
    else if (t == "idxen") m.idxen = true;
    else if (t == "row_mirror") m.dpp = Dpp::row_mirror;
    else if (t == "row_half_mirror") m.dpp = Dpp::row_half_mirror;
    else if (t.find('(') != std::string_view::npos) {  // s_waitcnt vmcnt(0): the functional run needs no counts
    } else fail(text, t, "unknown modifier");
    return;
  }
  if (key == "offset" && starts_with(v, "swizzle(")) m.offset_macro = true;
  else if (key == "offset") m.offset = static_cast<std::int32_t>(to_int(text, v));
  else if (key == "quad_perm") {
    m.dpp = Dpp::quad_perm;
    if (v.size() != 9 || v[0] != '[' || v[8] != ']') fail(text, t, "expected quad_perm:[a,b,c,d]");
    for (int i = 0; i < 4; ++i) {
      char c = v[static_cast<std::size_t>(1 + 2 * i)];
      if (c < '0' || c > '3') fail(text, t, "quad_perm selectors are 0-3");
      m.quad_perm[static_cast<std::size_t>(i)] = c - '0';
    }
  } else if (key == "row_shl") m.dpp = Dpp::row_shl, m.dpp_amount = static_cast<int>(to_int(text, v));
  else if (key == "row_shr") m.dpp = Dpp::row_shr, m.dpp_amount = static_cast<int>(to_int(text, v));
  else if (key == "row_ror") m.dpp = Dpp::row_ror, m.dpp_amount = static_cast<int>(to_int(text, v));
  else if (key == "wave_shl") m.dpp = Dpp::wave_shl;
  else if (key == "wave_rol") m.dpp = Dpp::wave_rol;
  else if (key == "wave_shr") m.dpp = Dpp::wave_shr;
  else if (key == "wave_ror") m.dpp = Dpp::wave_ror;
  else if (key == "row_newbcast") {
    m.dpp = Dpp::row_newbcast, m.dpp_amount = static_cast<int>(to_int(text, v));
    if (m.dpp_amount < 0 || m.dpp_amount > 15) fail(text, t, "row_newbcast lanes are 0-15");
  } else if (key == "row_bcast") m.dpp = to_int(text, v) == 15 ? Dpp::row_bcast15 : Dpp::row_bcast31;
  else if (key == "row_mask") m.row_mask = static_cast<int>(to_int(text, v));
  else if (key == "bank_mask") m.bank_mask = static_cast<int>(to_int(text, v));
  else if (key == "bound_ctrl") m.bound_ctrl = true;  // printed (as bound_ctrl:1, or the legacy :0) only when set
  else if (key == "offset0") m.offset0 = static_cast<std::int32_t>(to_int(text, v));
  else if (key == "offset1") m.offset1 = static_cast<std::int32_t>(to_int(text, v));
  else if (key == "mul") m.omod = static_cast<int>(to_int(text, v));
  else if (key == "div") m.omod = -static_cast<int>(to_int(text, v));
  else if (key == "op_sel") m.op_sel = flag_list(text, v);
  else if (key == "op_sel_hi") m.op_sel_hi = flag_list(text, v);
  else if (key == "neg_lo") m.neg_lo = flag_list(text, v);
  else if (key == "neg_hi") m.neg_hi = flag_list(text, v);
  else if (key == "dst_sel") m.dst_sel = sel_of(text, v);
  else if (key == "src0_sel") m.src_sel[0] = sel_of(text, v);
  else if (key == "src1_sel") m.src_sel[1] = sel_of(text, v);
  else if (key == "dst_unused") {
    if (v == "UNUSED_PRESERVE") m.dst_preserve = true;
    else if (v != "UNUSED_PAD") fail(text, t, "unsupported dst_unused");
  } else if (key == "cbsz") m.cbsz = static_cast<int>(to_int(text, v));
  else if (key == "abid") m.abid = static_cast<int>(to_int(text, v));
  else if (key == "blgp") m.blgp = static_cast<int>(to_int(text, v));
  else if (key == "bitop3") m.bitop3 = static_cast<int>(to_int(text, v));
  else fail(text, t, "unknown modifier");
}

bool is_modifier(std::string_view t) {
  static const char* flags[] = {"clamp", "glc", "slc", "nt", "sc0", "sc1", "lds", "offen", "idxen", "row_mirror",
                                "row_half_mirror"};
  for (const char* f : flags)
    if (t == f) return true;
  if (t.find('(') != std::string_view::npos && !starts_with(t, "sext(") && !starts_with(t, "lit(") &&
      !starts_with(t, "lit64("))
    return true;  // vmcnt(0)
  auto colon = t.find(':');
  return colon != std::string_view::npos && (t.find('[') == std::string_view::npos || t.find('[') > colon) &&
         !starts_with(t, "v[") && !starts_with(t, "s[") && !starts_with(t, "a[");  // key:value, not v[0:3]
}

std::string base_of(std::string_view m) {
  for (std::string_view suffix : {"_e32", "_e64", "_sdwa", "_dpp"})
    if (m.size() > suffix.size() && m.substr(m.size() - suffix.size()) == suffix)
      return std::string(m.substr(0, m.size() - suffix.size()));
  return std::string(m);
}

}  // namespace

std::uint32_t Operand::bits32() const {
  if (aperture) return static_cast<std::uint32_t>(static_cast<std::uint64_t>(value) >> 32);
  if (!is_float) return static_cast<std::uint32_t>(value);
  return std::bit_cast<std::uint32_t>(static_cast<float>(fvalue));
}

std::uint64_t Operand::bits64(bool fp64) const {
  if (is_float) return fp64 ? std::bit_cast<std::uint64_t>(fvalue) : bits32();
  return static_cast<std::uint64_t>(value);
}

ParsedText parse_text(std::string_view text) {
  ParsedText p;
  auto space = text.find(' ');
  p.mnemonic = std::string(text.substr(0, space));
  p.base = base_of(p.mnemonic);
  if (space == std::string_view::npos) return p;
  bool branch = starts_with(p.mnemonic, "s_branch") || starts_with(p.mnemonic, "s_cbranch");
  for (std::string_view t : tokens(text.substr(space + 1))) {
    if (is_modifier(t)) {
      parse_modifier(text, t, p.mods);
    } else if (branch) {
      Operand op;
      op.loc = Loc::Label;
      p.ops.push_back(op);
    } else {
      p.ops.push_back(parse_operand(text, t));
    }
  }
  p.mods.sdwa = p.mnemonic.size() > 5 && p.mnemonic.substr(p.mnemonic.size() - 5) == "_sdwa";
  return p;
}

}  // namespace tilelab::emu
