// Where the suite's compiled kernels are, wherever tilelab runs from: a
// build tree, an installed prefix, a copied build, a pip-installed Python
// package.
#pragma once
#include <string>

namespace tilelab::kernels {

// The first of these that holds an architecture folder (gfx950, gfx942 or
// sm_90):
//   1. $TILELAB_KERNELS;
//   2. beside the executable or shared library this code is linked into
//      (found with dladdr): <dir>/kernels (the Python package),
//      <dir>/../share/tilelab/kernels (an install's bin/), <dir>/../kernels
//      (a build tree's bin/, or a copy of it);
//   3. the build tree this was compiled in.
// When none holds one, the build tree's path (a missing code object is then
// reported with that path).  Computed once.
const std::string& code_object_dir();

}  // namespace tilelab::kernels
