//===- ParallelTest.cpp - Splitting the reference's work over cores -------===//

#include "Parallel.h"

#include "gtest/gtest.h"

#include <limits>
#include <mutex>
#include <vector>

using namespace tilec::interp;

namespace {

TEST(Parallel, ChunksCoverTheRangeOnceInContiguousPieces) {
  for (int64_t count : {0, 1, 2, 7, 10, 100, 1000, 12345}) {
    std::vector<int> visits(count, 0);
    std::mutex mutex;
    std::optional<std::string> error =
        forEachChunk(0, count - 1, 1,
                     [&](int64_t first, int64_t last,
                         const ChunkState &) -> std::optional<std::string> {
                       EXPECT_LE(first, last);
                       std::lock_guard<std::mutex> lock(mutex);
                       for (int64_t i = first; i <= last; ++i)
                         ++visits[i];
                       return std::nullopt;
                     });
    EXPECT_FALSE(error);
    EXPECT_EQ(visits, std::vector<int>(count, 1)) << count;
  }
}

TEST(Parallel, RangesNearTheEndsOfInt64) {
  int64_t low = std::numeric_limits<int64_t>::min();
  int64_t high = std::numeric_limits<int64_t>::max();
  std::mutex mutex;
  std::vector<std::pair<int64_t, int64_t>> chunks;
  forEachChunk(high - 40, high, 1,
               [&](int64_t first, int64_t last,
                   const ChunkState &) -> std::optional<std::string> {
                 std::lock_guard<std::mutex> lock(mutex);
                 chunks.push_back({first, last});
                 return std::nullopt;
               });
  int64_t covered = 0;
  for (auto [first, last] : chunks)
    covered += last - first + 1;
  EXPECT_EQ(covered, 41);
  // The whole int64 range: only that it ends and covers both ends.
  bool sawLow = false, sawHigh = false;
  forEachChunk(low, high, 1,
               [&](int64_t first, int64_t last,
                   const ChunkState &) -> std::optional<std::string> {
                 std::lock_guard<std::mutex> lock(mutex);
                 sawLow |= first == low;
                 sawHigh |= last == high;
                 return std::nullopt;
               });
  EXPECT_TRUE(sawLow && sawHigh);
}

TEST(Parallel, ReportsTheErrorASingleThreadWouldMeetFirst) {
  // Every element from 500 on fails; the chunk holding 500 reports it,
  // whatever the order in which the threads finish.
  for (int repeat = 0; repeat < 20; ++repeat) {
    std::optional<std::string> error = forEachChunk(
        0, 9999, 1,
        [&](int64_t first, int64_t last,
            const ChunkState &state) -> std::optional<std::string> {
          for (int64_t i = first; i <= last; ++i) {
            if (state.earlierChunkFailed())
              return std::nullopt;
            if (i >= 500)
              return "failed at " + std::to_string(i);
          }
          return std::nullopt;
        });
    ASSERT_TRUE(error);
    EXPECT_EQ(*error, "failed at 500");
  }
}

TEST(Parallel, SmallRangesStayInOneChunk) {
  int calls = 0;
  forEachChunk(0, 99, 1000,
               [&](int64_t first, int64_t last,
                   const ChunkState &) -> std::optional<std::string> {
                 ++calls;
                 EXPECT_EQ(first, 0);
                 EXPECT_EQ(last, 99);
                 return std::nullopt;
               });
  EXPECT_EQ(calls, 1);
}

} // namespace
