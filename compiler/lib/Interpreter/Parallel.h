//===- Parallel.h - Splitting the reference's work over cores ---*- C++ -*-===//
//
// The reference interpreter runs a loop over a range (the elements of an
// elementwise node, the outermost index variable of a contraction) on every
// core by splitting the range into contiguous chunks. Each chunk computes
// results no other chunk touches, in the order a single thread would, so the
// results do not depend on the number of threads. Errors do not either: the
// one reported is that of the lowest failing chunk, the first a single
// thread would meet.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_INTERPRETER_PARALLEL_H
#define TILEC_LIB_INTERPRETER_PARALLEL_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

namespace tilec {
namespace interp {

/// What a chunk may ask while it runs.
class ChunkState {
public:
  ChunkState(size_t index, const std::atomic<size_t> &firstFailed)
      : index(index), firstFailed(firstFailed) {}

  /// True when a chunk before this one failed: this chunk's work is not
  /// needed any more, and it may stop.
  bool earlierChunkFailed() const {
    return firstFailed.load(std::memory_order_relaxed) < index;
  }

private:
  size_t index;
  const std::atomic<size_t> &firstFailed;
};

/// The function of one chunk [first, last]: nullopt, or the message of the
/// first error it met.
using ChunkFn = llvm::function_ref<std::optional<std::string>(
    int64_t first, int64_t last, const ChunkState &state)>;

/// Runs `run` over [first, last] (nothing when first > last), split into
/// contiguous chunks of at least `minChunk` values, on up to the host's
/// number of cores. Returns the error of the lowest failing chunk.
std::optional<std::string> forEachChunk(int64_t first, int64_t last,
                                        int64_t minChunk, ChunkFn run);

} // namespace interp
} // namespace tilec

#endif // TILEC_LIB_INTERPRETER_PARALLEL_H
