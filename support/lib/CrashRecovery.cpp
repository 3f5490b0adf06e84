//===- CrashRecovery.cpp - A crash of the compiler as an error ------------===//

#include "tilec/Support/CrashRecovery.h"

#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <cstring>
#include <exception>
#include <mutex>

using namespace tilec;

/// The reason of the last LLVM fatal error of this thread inside a
/// recovered call, which LLVM then ends with abort().
static thread_local std::optional<std::string> fatalReason;

static void recordFatalError(void *, const char *reason, bool) {
  if (llvm::CrashRecoveryContext::GetCurrent()) {
    fatalReason = reason;
    return;
  }
  // Outside a recovered call, what LLVM prints without a handler.
  llvm::errs() << "LLVM ERROR: " << reason << "\n";
}

std::optional<std::string>
tilec::runRecoveringCrashes(llvm::function_ref<void()> work) {
  static std::once_flag enabled;
  std::call_once(enabled, [] {
    llvm::CrashRecoveryContext::Enable();
    llvm::install_fatal_error_handler(recordFatalError);
  });

  std::optional<std::string> thrown;
  fatalReason.reset();
  llvm::CrashRecoveryContext context;
  bool returned = context.RunSafely([&] {
    try {
      work();
    } catch (const std::exception &exception) {
      thrown = std::string("an uncaught exception: ") + exception.what();
    } catch (...) {
      thrown = "an uncaught exception";
    }
  });
  if (thrown)
    return thrown;
  if (returned)
    return std::nullopt;
  if (fatalReason)
    return "LLVM ERROR: " + *fatalReason;
  // RetCode: 128 + the signal for a signal; the exit code for a call of
  // sys::Process::Exit.
  int code = context.RetCode;
  if (code > 128 && code < 128 + NSIG)
    return "signal " + std::to_string(code - 128) + " (" +
           strsignal(code - 128) + ")";
  return "an exit with code " + std::to_string(code);
}
