// The line a user sees for exceptions from the standard library (issue 24,
// item 6): no "std::bad_alloc" or "stoull" reaches the user.
#include "app/error_text.hpp"

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>

namespace tilelab::cli {
namespace {

TEST(ErrorText, StandardLibraryTextIsPutInTheUsersWords) {
  EXPECT_EQ(error_text(std::bad_alloc()), "out of memory: an input asks for more than this machine can hold");
  try {
    (void)std::stoull("99999999999999999999999");
    FAIL();
  } catch (const std::exception& e) {
    EXPECT_EQ(error_text(e), "a number in the input is out of range or not a number");
  }
  try {
    (void)std::stoi("x");
    FAIL();
  } catch (const std::exception& e) {
    EXPECT_EQ(error_text(e), "a number in the input is out of range or not a number");
  }
  const std::filesystem::filesystem_error loop("status", "/tmp/a/wave.json",
                                               std::make_error_code(std::errc::too_many_symbolic_link_levels));
  EXPECT_EQ(error_text(loop), "/tmp/a/wave.json: " + std::make_error_code(std::errc::too_many_symbolic_link_levels).message());
  try {
    (void)std::map<int, int>().at(3);
    FAIL();
  } catch (const std::exception& e) {
    EXPECT_EQ(error_text(e), "internal error (map::at): please report it with the command line");
  }
  // tilelab's own messages pass unchanged.
  EXPECT_EQ(error_text(std::runtime_error("runs.h5: no run 'x'")), "runs.h5: no run 'x'");
}

}  // namespace
}  // namespace tilelab::cli
