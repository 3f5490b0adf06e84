//===- Residency.cpp - Which buffers a run holds on the device, when ------===//

#include "tilec/Runtime/Residency.h"

#include <algorithm>

using namespace tilec;

std::vector<LiveRange>
tilec::computeLiveRanges(const std::vector<uint64_t> &bytes,
                         const std::vector<std::vector<unsigned>> &uses) {
  size_t end = uses.size();
  std::vector<LiveRange> ranges(bytes.size());
  std::vector<bool> used(bytes.size(), false);
  for (size_t i = 0; i < bytes.size(); ++i)
    ranges[i] = {bytes[i], end, end};
  for (size_t step = 0; step < uses.size(); ++step)
    for (unsigned buffer : uses[step]) {
      LiveRange &range = ranges[buffer];
      if (!used[buffer])
        range.first = step;
      used[buffer] = true;
      range.last = step;
    }
  return ranges;
}

uint64_t tilec::computePeakBytes(const std::vector<LiveRange> &ranges) {
  size_t steps = 0;
  for (const LiveRange &range : ranges)
    steps = std::max(steps, range.last + 1);
  // The bytes that become live, less those released, at each step.
  std::vector<int64_t> change(steps + 1, 0);
  for (const LiveRange &range : ranges) {
    change[range.first] += static_cast<int64_t>(range.bytes);
    change[range.last + 1] -= static_cast<int64_t>(range.bytes);
  }
  int64_t live = 0, peak = 0;
  for (int64_t delta : change) {
    live += delta;
    peak = std::max(peak, live);
  }
  return static_cast<uint64_t>(peak);
}
