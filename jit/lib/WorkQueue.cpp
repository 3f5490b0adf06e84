//===- WorkQueue.cpp - Tasks run in order by a few threads ----------------===//

#include "WorkQueue.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace tilec::jit {

/// The queue's state, shared with its threads, so that a thread outlives the
/// WorkQueue object when the object is destroyed by one of its own tasks.
struct WorkQueue::Shared {
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::function<void()>> tasks;
  std::vector<std::thread> threads;
  unsigned maxThreads;
  unsigned idleThreads = 0;
  bool stopping = false;

  explicit Shared(unsigned maxThreads) : maxThreads(maxThreads) {}

  /// A thread's loop: runs tasks until the queue stops and is empty.
  static void serve(std::shared_ptr<Shared> shared) {
    std::unique_lock<std::mutex> lock(shared->mutex);
    while (true) {
      ++shared->idleThreads;
      shared->changed.wait(
          lock, [&] { return shared->stopping || !shared->tasks.empty(); });
      --shared->idleThreads;
      if (shared->tasks.empty())
        return;
      std::function<void()> task = std::move(shared->tasks.front());
      shared->tasks.pop_front();
      lock.unlock();
      task();
      // Destroying the task may destroy the WorkQueue (its captures may
      // hold the last reference to the queue's owner): not under the lock.
      task = nullptr;
      lock.lock();
    }
  }
};

WorkQueue::WorkQueue(unsigned maxThreads)
    : shared(std::make_shared<Shared>(std::max(maxThreads, 1u))) {}

WorkQueue::~WorkQueue() {
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> guard(shared->mutex);
    shared->stopping = true;
    threads = std::move(shared->threads);
  }
  shared->changed.notify_all();
  for (std::thread &thread : threads) {
    if (thread.get_id() == std::this_thread::get_id())
      thread.detach();
    else
      thread.join();
  }
}

void WorkQueue::submit(std::function<void()> task) {
  std::lock_guard<std::mutex> guard(shared->mutex);
  shared->tasks.push_back(std::move(task));
  if (shared->idleThreads == 0 && shared->threads.size() < shared->maxThreads)
    shared->threads.emplace_back(Shared::serve, shared);
  else
    shared->changed.notify_one();
}

unsigned WorkQueue::threadCount() const {
  std::lock_guard<std::mutex> guard(shared->mutex);
  return static_cast<unsigned>(shared->threads.size());
}

} // namespace tilec::jit
