//===- WorkProgress.h - Counting the reference's work done ------*- C++ -*-===//
//
// The interpreter's side of InterpretProgress: the statements' threads add
// the work they finish, and the caller's callback hears the total so far.
// Threads never wait on the callback: one that finds it busy skips its call,
// since a later one reports more (and the end of each statement always
// reports).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_INTERPRETER_WORKPROGRESS_H
#define TILEC_LIB_INTERPRETER_WORKPROGRESS_H

#include "tilec/Interpreter/Interpreter.h"

#include <atomic>
#include <cstdint>
#include <mutex>

namespace tilec {
namespace interp {

class WorkProgress {
public:
  /// `total` units, reported to `callback` (which may be empty).
  WorkProgress(const InterpretProgress &callback, uint64_t total)
      : callback(callback), total(total) {}

  /// Starts the next statement, which weighs `units`.
  void beginStatement(uint64_t units) {
    statementStart = statementEnd;
    statementEnd = statementStart + units;
    statementDone.store(0, std::memory_order_relaxed);
  }

  /// Adds `units` finished within the current statement; any thread.
  void advance(uint64_t units) {
    if (!callback)
      return;
    uint64_t done =
        statementDone.fetch_add(units, std::memory_order_relaxed) + units;
    std::unique_lock<std::mutex> lock(mutex, std::try_to_lock);
    if (lock.owns_lock())
      report(std::min(statementStart + done, statementEnd));
  }

  /// Reports the current statement finished.
  void finishStatement() {
    if (!callback)
      return;
    std::lock_guard<std::mutex> lock(mutex);
    report(statementEnd);
  }

private:
  /// With `mutex` held.
  void report(uint64_t done) {
    if (done <= reported)
      return;
    reported = done;
    callback(done, total);
  }

  const InterpretProgress &callback;
  const uint64_t total;
  /// The current statement's units lie in [statementStart, statementEnd).
  uint64_t statementStart = 0, statementEnd = 0;
  std::atomic<uint64_t> statementDone{0};
  std::mutex mutex;
  uint64_t reported = 0;
};

} // namespace interp
} // namespace tilec

#endif // TILEC_LIB_INTERPRETER_WORKPROGRESS_H
