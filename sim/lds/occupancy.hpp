// Occupancy: how many waves of a kernel fit on a SIMD and how many
// workgroups on a CU, from its register and LDS use, and which resource
// limits it.  AMD (wave64, unified VGPR/AGPR file) as the arch file describes.
#pragma once

#include <string>
#include <vector>

#include "sim/arch/arch.hpp"

namespace tilelab::lds {

struct KernelResources {
  int vgprs = 0;          // architectural VGPRs per lane
  int agprs = 0;          // accumulation VGPRs per lane
  int sgprs = 0;          // SGPRs per wave, as the code object counts them (VCC included)
  long long lds_bytes = 0;  // LDS per workgroup
  int workgroup_size = 0; // work-items
};

struct Limit {
  std::string resource;   // "wave slots", "VGPRs+AGPRs", "SGPRs", "LDS", "workgroup waves"
  int workgroups_per_cu;  // what this resource alone allows
  std::string detail;
};

struct Occupancy {
  int waves_per_workgroup = 0;
  int workgroups_per_cu = 0;
  int waves_per_cu = 0;
  double waves_per_simd = 0;   // waves_per_cu / SIMDs
  std::vector<Limit> limits;   // every resource, as computed
  std::string limited_by;      // the resource(s) giving the minimum
  std::vector<std::string> notes;  // figures the arch file marks unknown
};

// Throws arch::ArchError when the arch has no register description, and
// std::invalid_argument naming the field when a resource is out of range.
Occupancy occupancy(const arch::Arch& a, const KernelResources& k);

}  // namespace tilelab::lds
