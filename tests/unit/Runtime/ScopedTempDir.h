//===- ScopedTempDir.h - A temporary directory for one test -----*- C++ -*-===//

#ifndef TILEC_TESTS_UNIT_RUNTIME_SCOPEDTEMPDIR_H
#define TILEC_TESTS_UNIT_RUNTIME_SCOPEDTEMPDIR_H

#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

namespace tilec {

/// A fresh directory, named after the running test and the process (lit may
/// run tests of one binary in parallel), removed with its contents at scope
/// exit.
class ScopedTempDir {
public:
  ScopedTempDir() {
    const testing::TestInfo *test =
        testing::UnitTest::GetInstance()->current_test_info();
    dir = std::filesystem::temp_directory_path() /
          ("tilec-" + std::string(test->test_suite_name()) + "-" +
           test->name() + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~ScopedTempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
  ScopedTempDir(const ScopedTempDir &) = delete;
  ScopedTempDir &operator=(const ScopedTempDir &) = delete;

  const std::filesystem::path &path() const { return dir; }
  std::string file(const std::string &name) const { return dir / name; }

private:
  std::filesystem::path dir;
};

} // namespace tilec

#endif // TILEC_TESTS_UNIT_RUNTIME_SCOPEDTEMPDIR_H
