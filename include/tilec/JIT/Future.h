//===- Future.h - The result of work running in the background --*- C++ -*-===//
//
// The asynchronous calls of the JIT (Context::compileAsync, runAsync and
// runOnDeviceAsync of CompiledProgram and Function) return at once with a
// Future: the work is queued (runs on the device's run queue, compiles on the
// context's compile threads: docs/jit.md, "Asynchronous work"), and the
// Future is what the caller waits on for its Expected result.
//
// The outputs of an asynchronous device run can feed a later asynchronous
// run before they exist: Future::output(i) is a PendingTensor, which the
// later run waits for on the device's queue, not on the caller's thread.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_FUTURE_H
#define TILEC_JIT_FUTURE_H

#include "tilec/JIT/Error.h"
#include "tilec/Runtime/Executor.h"

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace tilec::jit {

/// The outputs of a run that stay on the device.
using DeviceOutputs = std::vector<std::shared_ptr<DeviceTensor>>;

namespace detail {
/// What a Future and the work that produces its result share.
template <class T> class FutureState {
public:
  /// Stores the result and wakes the waiters; called once, by the work.
  void set(Expected<T> value) {
    std::lock_guard<std::mutex> guard(mutex);
    result.emplace(std::move(value));
    finished.notify_all();
  }
  bool ready() {
    std::lock_guard<std::mutex> guard(mutex);
    return result.has_value();
  }
  /// Blocks until the result is set; returns it (it stays here).
  Expected<T> &wait() {
    std::unique_lock<std::mutex> lock(mutex);
    finished.wait(lock, [&] { return result.has_value(); });
    return *result;
  }
  template <class Rep, class Period>
  bool waitFor(const std::chrono::duration<Rep, Period> &timeout) {
    std::unique_lock<std::mutex> lock(mutex);
    return finished.wait_for(lock, timeout, [&] { return result.has_value(); });
  }

private:
  std::mutex mutex;
  std::condition_variable finished;
  std::optional<Expected<T>> result;
};
} // namespace detail

/// Output `index` of an asynchronous device run that may not have finished:
/// Future<DeviceOutputs>::output(index). As an input of a later
/// runOnDeviceAsync it is waited for on the device's run queue; a failed
/// run fails the later run with its error.
class PendingTensor {
public:
  PendingTensor(std::shared_ptr<detail::FutureState<DeviceOutputs>> run,
                size_t index)
      : run(std::move(run)), index(index) {}

  /// Blocks until the run has finished; returns the tensor, or the run's
  /// error (an InvalidArgument error for an index beyond its outputs, or
  /// for the output of a Future whose result was already taken).
  Expected<std::shared_ptr<DeviceTensor>> wait() const;

private:
  std::shared_ptr<detail::FutureState<DeviceOutputs>> run;
  size_t index;
};

/// The Expected<T> that queued work will produce. Movable, not copyable;
/// get() may be called once. Destroying (or assigning to) a Future whose
/// work has not finished waits for it, so that no work outlives its result.
template <class T> class Future {
public:
  explicit Future(std::shared_ptr<detail::FutureState<T>> state)
      : state(std::move(state)) {}
  Future(Future &&) = default;
  Future &operator=(Future &&other) {
    if (state)
      state->wait();
    state = std::move(other.state);
    return *this;
  }
  ~Future() {
    if (state)
      state->wait();
  }

  /// Whether the result is still to be taken (false after get()).
  bool valid() const { return state != nullptr; }
  /// Whether the work has finished, without blocking.
  bool ready() const { return state && state->ready(); }
  /// Blocks until the work has finished.
  void wait() const {
    if (state)
      state->wait();
  }
  /// Blocks for at most `timeout`; returns whether the work has finished.
  template <class Rep, class Period>
  bool waitFor(const std::chrono::duration<Rep, Period> &timeout) const {
    return !state || state->waitFor(timeout);
  }
  /// Blocks until the work has finished and takes its result. Only valid
  /// once (valid() tells); a second call returns an InvalidArgument error.
  Expected<T> get() {
    if (!state)
      return Error(ErrorKind::InvalidArgument,
                   "the result of this future was already taken");
    std::shared_ptr<detail::FutureState<T>> taken = std::move(state);
    // Device outputs are shared with the PendingTensors of this run; other
    // results (host tensors) are moved out, never copied.
    if constexpr (std::is_same_v<T, DeviceOutputs>)
      return taken->wait();
    else
      return std::move(taken->wait());
  }

  /// Output `index` of this device run, to pass to a later runOnDeviceAsync
  /// before the run has finished. Call it before get().
  template <class U = T,
            class = std::enable_if_t<std::is_same_v<U, DeviceOutputs>>>
  PendingTensor output(size_t index) const {
    return PendingTensor(state, index);
  }

private:
  std::shared_ptr<detail::FutureState<T>> state;
};

} // namespace tilec::jit

#endif // TILEC_JIT_FUTURE_H
