//===- Compare.h - Compare a result against the reference -------*- C++ -*-===//
//
// The project's one rule for "a kernel agrees with the reference": floats by
// the relative error ||actual - expected||_2 / ||expected||_2 within a
// tolerance, with NaN and infinities required in the same places; integers
// and bools exactly.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_COMPARE_H
#define TILEC_RUNTIME_COMPARE_H

#include "tilec/Runtime/HostTensor.h"

#include <cstdint>
#include <string>

namespace tilec {

struct Comparison {
  bool agrees = false;
  /// ||actual - expected|| / ||expected|| over the finite elements (floats);
  /// 0 for exact matches.
  double relativeError = 0;
  /// Elements that differ (integers), or that are non-finite in one tensor
  /// but not identically so in the other (floats).
  int64_t mismatches = 0;
  /// Flat index of the first such element, -1 if none.
  int64_t firstMismatch = -1;
  /// A one-line human summary ("agrees: rel. error 1.2e-07" or why not).
  std::string summary;
};

/// The default tolerance for a dtype: a few hundred ulps of the format,
/// which accumulation order differences stay far below.
double defaultTolerance(DType dtype);

/// Compares `actual` with `expected`; dtype or shape differences never agree.
Comparison compareTensors(const HostTensor &actual, const HostTensor &expected,
                          double tolerance);

} // namespace tilec

#endif // TILEC_RUNTIME_COMPARE_H
