// JSON for the runs' one machine-readable form (the CLI's --json, the Python
// module's dicts, the stored run configurations): nlohmann's json with the
// keys in insertion order, so that an object reads in the order it is built.
#pragma once

#include <nlohmann/json.hpp>

namespace tilelab {
using Json = nlohmann::ordered_json;
}  // namespace tilelab
