//===- Parallel.cpp - Splitting the reference's work over cores -----------===//

#include "Parallel.h"

#include <algorithm>
#include <thread>
#include <vector>

using namespace tilec;
using namespace tilec::interp;

/// Chunks per thread: enough that threads finishing early (a triangular
/// index space gives chunks of unequal work) pick up more.
constexpr int64_t kChunksPerThread = 8;

std::optional<std::string> interp::forEachChunk(int64_t first, int64_t last,
                                                int64_t minChunk, ChunkFn run) {
  if (first > last)
    return std::nullopt;
  // last - first may not fit in int64; counts beyond it are capped.
  uint64_t span = uint64_t(last) - uint64_t(first);
  int64_t threads = std::max(1u, std::thread::hardware_concurrency());
  uint64_t pieces = span / uint64_t(std::max<int64_t>(minChunk, 1));
  if (pieces != UINT64_MAX)
    ++pieces;
  uint64_t chunkCount =
      std::min<uint64_t>(uint64_t(threads * kChunksPerThread), pieces);
  std::atomic<size_t> firstFailed{SIZE_MAX};
  if (threads == 1 || chunkCount <= 1)
    return run(first, last, ChunkState(0, firstFailed));

  uint64_t chunkSize = span / chunkCount + 1;
  std::vector<std::optional<std::string>> errors(chunkCount);
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t chunk = next++; chunk < chunkCount; chunk = next++) {
      uint64_t offset = chunk * chunkSize;
      if (firstFailed.load() < chunk || offset > span)
        return;
      int64_t chunkFirst = int64_t(uint64_t(first) + offset);
      int64_t chunkLast = span - offset < chunkSize
                              ? last
                              : int64_t(uint64_t(chunkFirst) + chunkSize - 1);
      errors[chunk] =
          run(chunkFirst, chunkLast, ChunkState(chunk, firstFailed));
      if (errors[chunk]) {
        size_t failed = firstFailed.load();
        while (chunk < failed &&
               !firstFailed.compare_exchange_weak(failed, chunk)) {
        }
      }
    }
  };
  std::vector<std::thread> helpers;
  for (int64_t i = 1; i < std::min<int64_t>(threads, chunkCount); ++i)
    helpers.emplace_back(work);
  work();
  for (std::thread &helper : helpers)
    helper.join();
  size_t failed = firstFailed.load();
  if (failed == SIZE_MAX)
    return std::nullopt;
  return errors[failed];
}
