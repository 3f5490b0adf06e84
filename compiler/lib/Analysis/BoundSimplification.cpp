//===- BoundSimplification.cpp - Dropping redundant loop bounds ----------===//

#include "BoundSimplification.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace tilec;
using namespace tilec::indexspace;

std::optional<int64_t> VariableRanges::extremum(const QuasiAffine &expr,
                                                bool wantMaximum) const {
  CheckedArithmetic arith;
  int64_t value = expr.constant;
  for (unsigned var = 0, e = expr.coeffs.size(); var < e; ++var) {
    int64_t coeff = expr.coeffs[var];
    if (coeff == 0)
      continue;
    // A positive coefficient reaches the maximum at the upper end.
    const std::optional<int64_t> &end =
        (coeff > 0) == wantMaximum ? upper[var] : lower[var];
    if (!end)
      return std::nullopt;
    value = arith.add(value, arith.mul(coeff, *end));
  }
  if (arith.overflowed())
    return std::nullopt;
  return value;
}

std::optional<int64_t> VariableRanges::minimum(const QuasiAffine &expr) const {
  return extremum(expr, /*wantMaximum=*/false);
}

std::optional<int64_t> VariableRanges::maximum(const QuasiAffine &expr) const {
  return extremum(expr, /*wantMaximum=*/true);
}

bool tilec::indexspace::isImpliedByRanges(const QuasiAffine &row,
                                          const VariableRanges &ranges) {
  std::optional<int64_t> least = ranges.minimum(row);
  return least && *least >= 0;
}

/// True when `redundant` never exceeds `other` in `ranges` (for lower
/// bounds; `isUpper` flips the comparison), so `other` alone enforces both.
static bool isDominated(const QuasiAffine &redundant, const QuasiAffine &other,
                        bool isUpper, const VariableRanges &ranges) {
  // redundant - other, over the common denominator.
  CheckedArithmetic arith;
  QuasiAffine difference =
      combineNumerators(arith, other.den, redundant, -redundant.den, other);
  if (arith.overflowed())
    return false;
  if (isUpper)
    return isImpliedByRanges(difference, ranges);
  std::optional<int64_t> greatest = ranges.maximum(difference);
  return greatest && *greatest <= 0;
}

/// `exprs` without the ones another expression of the list dominates.
static std::vector<QuasiAffine>
dropDominated(const std::vector<QuasiAffine> &exprs, bool isUpper,
              const VariableRanges &ranges) {
  std::vector<QuasiAffine> kept;
  for (const QuasiAffine &expr : exprs) {
    if (llvm::any_of(kept, [&](const QuasiAffine &other) {
          return isDominated(expr, other, isUpper, ranges);
        }))
      continue;
    llvm::erase_if(kept, [&](const QuasiAffine &other) {
      return isDominated(other, expr, isUpper, ranges);
    });
    kept.push_back(expr);
  }
  return kept;
}

/// The range end that `exprs` guarantee: the greatest ceiling of a lower
/// bound's least value, or the least floor of an upper bound's greatest.
static std::optional<int64_t> impliedEnd(const std::vector<QuasiAffine> &exprs,
                                         bool isUpper,
                                         const VariableRanges &ranges) {
  std::optional<int64_t> result;
  for (const QuasiAffine &expr : exprs) {
    std::optional<int64_t> extreme =
        isUpper ? ranges.maximum(expr) : ranges.minimum(expr);
    if (!extreme)
      continue;
    int64_t end =
        isUpper ? floorDiv(*extreme, expr.den) : ceilDiv(*extreme, expr.den);
    result = !result   ? end
             : isUpper ? std::min(*result, end)
                       : std::max(*result, end);
  }
  return result;
}

bool tilec::indexspace::simplifyLoopBound(LoopBound &bound, unsigned var,
                                          VariableRanges &ranges) {
  bound.lower = dropDominated(bound.lower, /*isUpper=*/false, ranges);
  bound.upper = dropDominated(bound.upper, /*isUpper=*/true, ranges);
  std::optional<int64_t> lowerEnd =
      impliedEnd(bound.lower, /*isUpper=*/false, ranges);
  std::optional<int64_t> upperEnd =
      impliedEnd(bound.upper, /*isUpper=*/true, ranges);
  ranges.setLower(var, lowerEnd);
  ranges.setUpper(var, upperEnd);
  auto isConstant = [](const QuasiAffine &expr) {
    return !hasTermsIn(expr, 0, expr.coeffs.size());
  };
  if (lowerEnd && upperEnd && llvm::all_of(bound.lower, isConstant) &&
      llvm::all_of(bound.upper, isConstant))
    bound.constantRange = std::make_pair(*lowerEnd, *upperEnd);
  return !lowerEnd || !upperEnd || *lowerEnd <= *upperEnd;
}
