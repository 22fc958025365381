#include "sim/lds/tile_access.hpp"

namespace tilelab::lds {

AccessPlan plan_tile_access(const TVLayout& tv, const IntTuple& tile_shape, int elem_bytes, int inst_bytes,
                            int wave_size) {
  if (elem_bytes <= 0 || inst_bytes % elem_bytes != 0)
    throw ModelError("an instruction of " + std::to_string(inst_bytes) + " bytes does not hold whole " +
                     std::to_string(elem_bytes) + "-byte elements");
  AccessPlan plan;
  plan.wave_size = wave_size;
  plan.elem_bytes = elem_bytes;
  plan.per_inst = inst_bytes / elem_bytes;
  if (tv.values % plan.per_inst != 0)
    throw ModelError("each thread holds " + std::to_string(tv.values) + " values, not a multiple of the " +
                     std::to_string(plan.per_inst) + " one instruction moves");
  if (!tile_shape.is_tuple() || tile_shape.rank() != 2 || !tv.tile_shape.is_tuple() || tv.tile_shape.rank() != 2)
    throw ModelError("the LDS tile and the thread-value tile must both be rank 2 (rows, columns)");
  Int atom_m = size(tv.tile_shape[0]), atom_n = size(tv.tile_shape[1]);
  Int tile_m = size(tile_shape[0]), tile_n = size(tile_shape[1]);
  if (tile_m % atom_m || tile_n % atom_n)
    throw ModelError("the thread-value tile " + to_string(tv.tile_shape) + " does not divide the LDS tile " +
                     to_string(tile_shape));
  // Tile element of every (thread, value), once.
  std::vector<Int> em(tv.threads * tv.values), en(tv.threads * tv.values);
  for (Int t = 0; t < tv.threads; ++t)
    for (Int v = 0; v < tv.values; ++v) {
      Int idx = tv.tv(IntTuple{t, v});
      em[t * tv.values + v] = idx % atom_m;  // the tile index is column-major over (atom_m, atom_n)
      en[t * tv.values + v] = idx / atom_m;
    }
  int waves = static_cast<int>((tv.threads + wave_size - 1) / wave_size);
  for (int w = 0; w < waves; ++w) {
    int index = 0;
    for (Int rn = 0; rn < tile_n / atom_n; ++rn)
      for (Int rm = 0; rm < tile_m / atom_m; ++rm)
        for (Int first = 0; first < tv.values; first += plan.per_inst, ++index) {
          AccessPlan::Instruction ins;
          ins.wave = w;
          ins.index = index;
          ins.m.assign(static_cast<std::size_t>(wave_size) * plan.per_inst, 0);
          ins.n.assign(ins.m.size(), 0);
          for (int lane = 0; lane < wave_size; ++lane) {
            Int t = Int{w} * wave_size + lane;
            if (t >= tv.threads) continue;
            ins.active |= std::uint64_t{1} << lane;
            for (int k = 0; k < plan.per_inst; ++k) {
              ins.m[lane * plan.per_inst + k] = em[t * tv.values + first + k] + rm * atom_m;
              ins.n[lane * plan.per_inst + k] = en[t * tv.values + first + k] + rn * atom_n;
            }
          }
          plan.instructions.push_back(std::move(ins));
        }
  }
  return plan;
}

void materialize(const AccessPlan& plan, const LdsLayout& lds, std::vector<WaveInstruction>& out) {
  out.resize(plan.instructions.size());
  for (std::size_t i = 0; i < plan.instructions.size(); ++i) {
    const AccessPlan::Instruction& p = plan.instructions[i];
    WaveInstruction& w = out[i];
    w.wave = p.wave;
    w.index = p.index;
    w.active = p.active;
    w.addresses.assign(plan.wave_size, 0);
    bool first = true;
    for (int lane = 0; lane < plan.wave_size; ++lane) {
      if (!((p.active >> lane) & 1)) continue;
      const Int* m = &p.m[lane * plan.per_inst];
      const Int* n = &p.n[lane * plan.per_inst];
      Int base = lds(m[0], n[0]);
      for (int k = 1; k < plan.per_inst; ++k)
        if (lds(m[k], n[k]) != base + k)
          throw ModelError("lane " + std::to_string(lane) + " of instruction " + std::to_string(p.index) +
                           ": its elements are not at consecutive LDS offsets, so one " +
                           std::to_string(plan.per_inst * plan.elem_bytes) + "-byte access cannot move them");
      Int byte = base * plan.elem_bytes;
      if (byte < 0 || byte > 0xffffffffLL) throw ModelError("LDS offset out of range");
      w.addresses[lane] = static_cast<std::uint32_t>(byte);
      if (first) {
        w.first_m = m[0];
        w.first_n = n[0];
        first = false;
      }
    }
  }
}

TileReport analyze_tile(const BankModel& model, const AccessPlan& plan, const LdsLayout& lds) {
  TileReport r;
  materialize(plan, lds, r.instructions);
  r.analyses.reserve(r.instructions.size());
  for (const WaveInstruction& w : r.instructions) {
    r.analyses.push_back(model.analyze(w.addresses, w.active));
    const Analysis& a = r.analyses.back();
    r.cycles += a.cycles;
    r.conflict_cycles += a.conflict_cycles;
    if (a.conflict_cycles > r.analyses[r.worst].conflict_cycles) r.worst = static_cast<int>(r.analyses.size()) - 1;
  }
  return r;
}

TileReport analyze_tile(const BankModel& model, const TVLayout& tv, const IntTuple& tile_shape, const LdsLayout& lds,
                        int elem_bytes) {
  return analyze_tile(model, plan_tile_access(tv, tile_shape, elem_bytes, model.instruction().bytes, model.wave_size()),
                      lds);
}

}  // namespace tilelab::lds
