//===- CrashRecovery.h - A crash of the compiler as an error ----*- C++ -*-===//
//
// The JIT compiles inside its user's process, which must never abort (a
// bug of tilec is an error the application can report, not the end of a
// training run). A crash of the compiler (LLVM's fatal error, an abort, a
// memory fault, a C++ exception that nothing caught) is therefore
// recovered: the stack is unwound by longjmp to where the compile began,
// what the compile allocated leaks, and the compile fails with an error.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_CRASHRECOVERY_H
#define TILEC_SUPPORT_CRASHRECOVERY_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>

namespace tilec {

/// Runs `work` on this thread. Returns nullopt when it returns, else what
/// ended it: "signal 11 (Segmentation fault)", "LLVM ERROR: <reason>", "an
/// uncaught exception: std::bad_alloc". The first call installs LLVM's
/// crash-recovery signal handlers and a fatal-error handler for the process
/// (whose LLVM is tilec's own copy where tilec links it statically); a
/// signal outside a recovered call still reaches the handler that was there
/// before, and a fatal error outside one is printed as LLVM prints it.
std::optional<std::string>
runRecoveringCrashes(llvm::function_ref<void()> work);

} // namespace tilec

#endif // TILEC_SUPPORT_CRASHRECOVERY_H
