// Metrics derived from counters by the published formulas
// (rocprofiler-compute; docs/facts/hw-facts.md §3), one formula for
// every run — imported from the hardware or simulated — so that both sides
// of a comparison are computed alike.  A metric is given only when every
// counter it needs is present (and its denominator is not zero).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace tilelab::traces {

struct DerivedMetric {
  std::string name;     // e.g. lds_bank_conflict_rate
  std::string formula;  // in the counters' names
  double value = 0;
};

// In a fixed order: lds_bank_conflict_rate = SQ_LDS_BANK_CONFLICT /
// (SQ_LDS_IDX_ACTIVE - SQ_LDS_BANK_CONFLICT); valu_non_mfma_insts =
// SQ_INSTS_VALU - SQ_INSTS_MFMA; mfma_share_of_valu = SQ_INSTS_MFMA /
// SQ_INSTS_VALU; ipc = SQ_INSTS / SQ_BUSY_CU_CYCLES; mfma_flops = 512 x the
// MOPS of F16, BF16, F32 and F64; mean_wave_cycles = 4 x SQ_WAVE_CYCLES /
// SQ_WAVES (SQ_WAVE_CYCLES counts quad-cycles); and where the run records
// its chip (counters CU_NUM and XCC_NUM, default 1): mfma_utilisation =
// SQ_VALU_MFMA_BUSY_CYCLES / (GRBM_GUI_ACTIVE / XCC_NUM x 4 SIMDs x CU_NUM),
// occupancy = 4 x SQ_WAVE_CYCLES / (GRBM_GUI_ACTIVE / XCC_NUM) / CU_NUM / 32
// (the fraction of the 32 wave slots of a CU in use, averaged over the dispatch).
std::vector<DerivedMetric> derived_metrics(const std::map<std::string, double>& counters);

}  // namespace tilelab::traces
