//===- BoundSimplification.h - Dropping redundant loop bounds ---*- C++ -*-===//
//
// Elimination keeps every inequality as a bound, so `C[i, j] = +(A[i, k] *
// B[k, j])` would test k against A's and B's extents and an unpadded
// convolution would bound its window by the coordinates. Knowing each
// variable's range (the output box for coordinates, the loop ranges for
// free variables), a bound that another bound of the same side always beats
// is dropped; this turns such loops back into constant ranges, which the
// scheduler tiles.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_ANALYSIS_BOUNDSIMPLIFICATION_H
#define TILEC_LIB_ANALYSIS_BOUNDSIMPLIFICATION_H

#include "AffineRows.h"

#include <optional>

namespace tilec {
namespace indexspace {

/// Ranges of the variables (either end may be unknown), in which the
/// simplifications hold.
class VariableRanges {
public:
  explicit VariableRanges(unsigned numVars) : lower(numVars), upper(numVars) {}

  void setLower(unsigned var, std::optional<int64_t> value) {
    lower[var] = value;
  }
  void setUpper(unsigned var, std::optional<int64_t> value) {
    upper[var] = value;
  }

  /// The least and greatest numerator of `expr` (its denominator ignored)
  /// over the ranges; nullopt when a variable it uses lacks that end or the
  /// value overflows.
  std::optional<int64_t> minimum(const QuasiAffine &expr) const;
  std::optional<int64_t> maximum(const QuasiAffine &expr) const;

private:
  std::optional<int64_t> extremum(const QuasiAffine &expr,
                                  bool wantMaximum) const;

  std::vector<std::optional<int64_t>> lower, upper;
};

/// Drops from `bound` each expression that another expression on its side
/// dominates throughout `ranges`, sets the constant range when every
/// expression left is a constant, and records the range of `var` that the
/// bound implies in `ranges` for the loops inside it. Returns false when
/// that range is empty: the loop never runs anywhere in `ranges`.
bool simplifyLoopBound(LoopBound &bound, unsigned var, VariableRanges &ranges);

/// True when `0 <= row` holds throughout `ranges`.
bool isImpliedByRanges(const QuasiAffine &row, const VariableRanges &ranges);

} // namespace indexspace
} // namespace tilec

#endif // TILEC_LIB_ANALYSIS_BOUNDSIMPLIFICATION_H
