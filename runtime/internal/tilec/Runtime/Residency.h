//===- Residency.h - Which buffers a run holds on the device, when -*- C++
//-*-===//
//
// A run that does not fit the device's memory whole streams through it: a
// buffer is allocated just before the first launch that takes it and
// released just after the last one (docs/runtime.md, "Residency"). The
// compiler plans its pieces so that the peak of this fits the device, and
// the executors check and follow the same ranges: this one computation
// serves both.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_RESIDENCY_H
#define TILEC_RUNTIME_RESIDENCY_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tilec {

/// The steps during which one buffer is on the device: from step `first`
/// to step `last`, both included.
struct LiveRange {
  uint64_t bytes = 0;
  size_t first = 0;
  size_t last = 0;
};

/// The live ranges of buffers 0 .. bytes.size()-1 (of those sizes) over
/// the steps 0 .. uses.size(): step s < uses.size() takes the buffers
/// `uses[s]`; the final step uses.size() stands for the end of the run. A
/// buffer no step takes lives at the final step only (an input still
/// uploaded, an output still read back).
std::vector<LiveRange>
computeLiveRanges(const std::vector<uint64_t> &bytes,
                  const std::vector<std::vector<unsigned>> &uses);

/// The most bytes live at once over all steps of `ranges`.
uint64_t computePeakBytes(const std::vector<LiveRange> &ranges);

} // namespace tilec

#endif // TILEC_RUNTIME_RESIDENCY_H
