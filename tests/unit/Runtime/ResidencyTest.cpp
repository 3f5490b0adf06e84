//===- ResidencyTest.cpp - Live ranges and the peak of a streamed run -----===//

#include "tilec/Runtime/Residency.h"

#include <gtest/gtest.h>

using namespace tilec;

namespace {

TEST(ResidencyTest, ABufferLivesFromItsFirstUseToItsLast) {
  // Buffer 0 is taken by steps 0 and 2, buffer 1 by step 1, buffer 2 by
  // none: it lives at the end (step 3) only.
  std::vector<LiveRange> ranges =
      computeLiveRanges({10, 20, 30}, {{0}, {1}, {0}});
  ASSERT_EQ(ranges.size(), 3u);
  EXPECT_EQ(ranges[0].first, 0u);
  EXPECT_EQ(ranges[0].last, 2u);
  EXPECT_EQ(ranges[1].first, 1u);
  EXPECT_EQ(ranges[1].last, 1u);
  EXPECT_EQ(ranges[2].first, 3u);
  EXPECT_EQ(ranges[2].last, 3u);
  EXPECT_EQ(ranges[1].bytes, 20u);
  // Step 1 holds buffers 0 and 1; the end holds buffer 2 alone.
  EXPECT_EQ(computePeakBytes(ranges), 30u);
}

TEST(ResidencyTest, ThePeakIsTheMostBytesLiveAtOneStep) {
  // Pieces streamed one launch each, beside a buffer every launch takes.
  std::vector<LiveRange> ranges =
      computeLiveRanges({100, 7, 7, 7}, {{0, 1}, {0, 2}, {0, 3}});
  EXPECT_EQ(computePeakBytes(ranges), 107u);
  // Ranges that touch at a step count together there.
  EXPECT_EQ(computePeakBytes({{5, 0, 1}, {6, 1, 2}, {100, 3, 3}}), 100u);
  EXPECT_EQ(computePeakBytes({{5, 0, 1}, {6, 1, 2}}), 11u);
  EXPECT_EQ(computePeakBytes({}), 0u);
}

} // namespace
