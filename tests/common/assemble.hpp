// Machine code from assembly text, through LLVM's llvm-mc (the real
// assembler): the tests' way to build instruction snippets for gfx950/gfx942.
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace tilelab::test {

// The encodings llvm-mc prints for `source` (one instruction per line).
inline std::vector<std::uint8_t> assemble(const std::string& source, const std::string& mcpu = "gfx950") {
  char path[] = "/tmp/tilelab_asm_XXXXXX";
  int fd = mkstemp(path);
  EXPECT_GE(fd, 0);
  FILE* f = fdopen(fd, "w");
  std::fputs(source.c_str(), f);
  std::fclose(f);
  std::string cmd = std::string(TILELAB_LLVM_MC) + " -triple=amdgcn-amd-amdhsa -mcpu=" + mcpu + " -show-encoding " + path + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  pclose(p);
  std::remove(path);
  // (Plain string search: GCC 12's <regex> trips -Wmaybe-uninitialized under the sanitizers.)
  std::vector<std::uint8_t> bytes;
  const std::string key = "encoding: [";
  for (std::size_t at = out.find(key); at != std::string::npos; at = out.find(key, at + 1)) {
    std::size_t end = out.find(']', at);
    std::stringstream s(out.substr(at + key.size(), end - at - key.size()));
    std::string b;
    while (std::getline(s, b, ',')) bytes.push_back(static_cast<std::uint8_t>(std::stoul(b, nullptr, 16)));
  }
  EXPECT_FALSE(bytes.empty()) << out;
  EXPECT_EQ(out.find("error"), std::string::npos) << out;
  EXPECT_EQ(out.find("fixup"), std::string::npos) << "a label left unresolved (give branch offsets as numbers): " << out;
  return bytes;
}

}  // namespace tilelab::test
