//===- WorkQueue.h - Tasks run in order by a few threads --------*- C++ -*-===//
//
// Internal to the JIT library: what the asynchronous calls submit to instead
// of starting a thread per call. A queue starts its threads on demand, up to
// its limit, and keeps them until it is destroyed. With one thread, tasks
// run one at a time in submission order: each device's run queue.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_LIB_WORKQUEUE_H
#define TILEC_JIT_LIB_WORKQUEUE_H

#include "tilec/JIT/Future.h"

#include <functional>
#include <memory>

namespace tilec::jit {

class WorkQueue {
public:
  /// A queue served by at most `maxThreads` threads (at least one).
  explicit WorkQueue(unsigned maxThreads);
  /// Lets the threads finish the queued tasks, then ends them. A task may
  /// drop the last reference to the queue's owner: the queue is then
  /// destroyed on one of its own threads, which finishes on its own.
  ~WorkQueue();
  WorkQueue(const WorkQueue &) = delete;
  WorkQueue &operator=(const WorkQueue &) = delete;

  /// Queues `task`; a thread runs it (and destroys it) after every task
  /// submitted before it has started.
  void submit(std::function<void()> task);
  /// The threads started so far.
  unsigned threadCount() const;

private:
  struct Shared;
  std::shared_ptr<Shared> shared;
};

/// Queues `work` (a callable returning Expected<T>) on `queue`; the Future
/// receives its result.
template <class T, class Work>
Future<T> submitWork(WorkQueue &queue, Work work) {
  auto state = std::make_shared<detail::FutureState<T>>();
  queue.submit(
      [state, work = std::move(work)]() mutable { state->set(work()); });
  return Future<T>(std::move(state));
}

} // namespace tilec::jit

#endif // TILEC_JIT_LIB_WORKQUEUE_H
