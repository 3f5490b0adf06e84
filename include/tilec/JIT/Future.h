//===- Future.h - The result of work running in the background --*- C++ -*-===//
//
// The asynchronous calls of the JIT (Context::compileAsync,
// CompiledProgram::runAsync, CompiledProgram::runOnDeviceAsync) return at
// once with a Future: the work runs on a thread of its own, and the Future
// is what the caller waits on for its Expected result.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_FUTURE_H
#define TILEC_JIT_FUTURE_H

#include "tilec/JIT/Error.h"

#include <chrono>
#include <future>
#include <utility>

namespace tilec::jit {

/// The Expected<T> that background work will produce. Movable, not
/// copyable; get() may be called once. Destroying a Future whose work has
/// not finished waits for it, so that no work outlives its result.
template <class T> class Future {
public:
  explicit Future(std::future<Expected<T>> pending)
      : pending(std::move(pending)) {}

  /// Whether the result is still to be taken (false after get()).
  bool valid() const { return pending.valid(); }
  /// Whether the work has finished, without blocking.
  bool ready() const {
    return pending.wait_for(std::chrono::seconds(0)) ==
           std::future_status::ready;
  }
  /// Blocks until the work has finished.
  void wait() const { pending.wait(); }
  /// Blocks for at most `timeout`; returns whether the work has finished.
  template <class Rep, class Period>
  bool waitFor(const std::chrono::duration<Rep, Period> &timeout) const {
    return pending.wait_for(timeout) == std::future_status::ready;
  }
  /// Blocks until the work has finished and takes its result. Only valid
  /// once (valid() tells).
  Expected<T> get() { return pending.get(); }

private:
  std::future<Expected<T>> pending;
};

} // namespace tilec::jit

#endif // TILEC_JIT_FUTURE_H
