//===- CrashRecoveryTest.cpp - Crashes recovered as errors ----------------===//
//
// What the JIT's compile survives (tilec/Support/CrashRecovery.h): each
// kind of crash returns a description, and the process goes on to recover
// the next one and to run work that returns.
//
//===----------------------------------------------------------------------===//

#include "tilec/Support/CrashRecovery.h"

#include "llvm/Support/ErrorHandling.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <new>
#include <stdexcept>
#include <thread>

using namespace tilec;

namespace {

TEST(CrashRecoveryTest, WorkThatReturnsReturns) {
  int calls = 0;
  EXPECT_EQ(runRecoveringCrashes([&] { ++calls; }), std::nullopt);
  EXPECT_EQ(calls, 1);
}

// LLVM's fatal error ends in abort(); its reason is the description, and
// nothing is printed.
TEST(CrashRecoveryTest, LLVMFatalErrorIsRecovered) {
  std::optional<std::string> crash = runRecoveringCrashes(
      [] { llvm::report_fatal_error("a fatal error on purpose"); });
  EXPECT_EQ(crash, "LLVM ERROR: a fatal error on purpose");
}

TEST(CrashRecoveryTest, AbortIsRecovered) {
  EXPECT_EQ(runRecoveringCrashes([] { std::abort(); }), "signal 6 (Aborted)");
}

TEST(CrashRecoveryTest, UncaughtExceptionsAreRecovered) {
  EXPECT_EQ(runRecoveringCrashes([] { throw std::bad_alloc(); }),
            "an uncaught exception: std::bad_alloc");
  EXPECT_EQ(runRecoveringCrashes([] { throw std::runtime_error("lost"); }),
            "an uncaught exception: lost");
  EXPECT_EQ(runRecoveringCrashes([] { throw 42; }), "an uncaught exception");
}

TEST(CrashRecoveryTest, RecoversAgainAndOnOtherThreads) {
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE(runRecoveringCrashes([] { std::abort(); }));
  std::optional<std::string> onThread;
  std::thread([&] {
    onThread = runRecoveringCrashes([] { std::abort(); });
  }).join();
  EXPECT_TRUE(onThread);
  EXPECT_EQ(runRecoveringCrashes([] {}), std::nullopt);
}

// The application's own crashes stay crashes: outside a recovered call the
// handlers that recovery installed give the signal back to the process.
TEST(CrashRecoveryTest, CrashOutsideARecoveredCallStillEndsTheProcess) {
  EXPECT_EQ(runRecoveringCrashes([] {}), std::nullopt);
  EXPECT_DEATH(std::abort(), "");
}

} // namespace
