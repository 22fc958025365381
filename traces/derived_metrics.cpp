#include "traces/derived_metrics.hpp"

#include <optional>

namespace tilelab::traces {

std::vector<DerivedMetric> derived_metrics(const std::map<std::string, double>& c) {
  auto get = [&](const char* n) -> std::optional<double> {
    auto it = c.find(n);
    return it == c.end() ? std::nullopt : std::optional<double>(it->second);
  };
  std::vector<DerivedMetric> out;
  auto ratio = [&](const char* name, const char* formula, std::optional<double> num, std::optional<double> den) {
    if (num && den && *den != 0) out.push_back({name, formula, *num / *den});
  };
  const auto conflict = get("SQ_LDS_BANK_CONFLICT"), active = get("SQ_LDS_IDX_ACTIVE");
  if (conflict && active)
    ratio("lds_bank_conflict_rate", "SQ_LDS_BANK_CONFLICT / (SQ_LDS_IDX_ACTIVE - SQ_LDS_BANK_CONFLICT)", conflict,
          *active - *conflict);
  const auto valu = get("SQ_INSTS_VALU"), mfma = get("SQ_INSTS_MFMA");
  if (valu && mfma) out.push_back({"valu_non_mfma_insts", "SQ_INSTS_VALU - SQ_INSTS_MFMA", *valu - *mfma});
  ratio("mfma_share_of_valu", "SQ_INSTS_MFMA / SQ_INSTS_VALU", mfma, valu);
  ratio("ipc", "SQ_INSTS / SQ_BUSY_CU_CYCLES", get("SQ_INSTS"), get("SQ_BUSY_CU_CYCLES"));
  double mops = 0;
  bool any = false;
  for (const char* n : {"SQ_INSTS_VALU_MFMA_MOPS_F16", "SQ_INSTS_VALU_MFMA_MOPS_BF16", "SQ_INSTS_VALU_MFMA_MOPS_F32",
                        "SQ_INSTS_VALU_MFMA_MOPS_F64"})
    if (const auto v = get(n)) mops += *v, any = true;
  if (any) out.push_back({"mfma_flops", "512 x (MOPS_F16 + MOPS_BF16 + MOPS_F32 + MOPS_F64)", 512 * mops});
  if (const auto cycles = get("SQ_WAVE_CYCLES"))
    ratio("mean_wave_cycles", "4 x SQ_WAVE_CYCLES / SQ_WAVES", 4 * *cycles, get("SQ_WAVES"));
  // Chip-wide rates need the chip: CU_NUM, and XCC_NUM because GRBM_GUI_ACTIVE
  // counts once per XCC (max(GUI) = GRBM_GUI_ACTIVE / XCC_NUM).  A simulated
  // run also records cus_used, the CUs that ran work; the rates divide by
  // those where known (a 16-workgroup grid on 256 CUs is not 6% busy) and
  // the formula says which.
  const auto gui = get("GRBM_GUI_ACTIVE"), used = get("cus_used");
  const auto cus = used && *used > 0 ? used : get("CU_NUM");
  const char* per = used && *used > 0 ? "cus_used" : "CU_NUM";
  const double xccs = get("XCC_NUM").value_or(1);
  if (gui && cus && *gui > 0 && *cus > 0 && xccs > 0) {
    const double gui_per_xcc = *gui / xccs;
    if (const auto busy = get("SQ_VALU_MFMA_BUSY_CYCLES"))
      out.push_back({"mfma_utilisation", std::string("SQ_VALU_MFMA_BUSY_CYCLES / (GRBM_GUI_ACTIVE / XCC_NUM x 4 x ") + per + ")",
                     *busy / (gui_per_xcc * 4 * *cus)});
    if (const auto wave_cycles = get("SQ_WAVE_CYCLES"))
      out.push_back({"occupancy", std::string("4 x SQ_WAVE_CYCLES / (GRBM_GUI_ACTIVE / XCC_NUM) / ") + per + " / 32",
                     4 * *wave_cycles / gui_per_xcc / *cus / 32});
  }
  return out;
}

}  // namespace tilelab::traces
