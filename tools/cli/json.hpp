// JSON for the CLI's --json output and the stored run configurations:
// nlohmann's json with the keys in insertion order, so that an object reads
// in the order the command builds it.
#pragma once

#include <nlohmann/json.hpp>

namespace tilelab::cli {
using Json = nlohmann::ordered_json;
}  // namespace tilelab::cli
