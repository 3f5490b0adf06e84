//===- AssignConflicts.cpp - Proving two writes of an `=` element ---------===//
//
// An index variable j with a zero coefficient in every output polynomial
// leaves the written element unchanged when it moves. If a valid tuple t
// stays valid at t + step * e_j (step: the least multiple that keeps every
// access integral), t and t + step * e_j write one element: a proof. Both
// tuples being valid is one system of bounds on t, each access and
// constraint `lo <= poly < hi` tightened by the move. A depth-first search
// over t, each variable limited to the interval the bounds on it give once
// the outer variables are fixed, finds an integer point of that system or
// gives up after a fixed number of steps: a proof of conflict is sound, its
// absence proves nothing (docs/language.md says what the devices do then).
//
//===----------------------------------------------------------------------===//

#include "AssignConflicts.h"
#include "tilec/Support/CheckedArithmetic.h"

#include <algorithm>
#include <numeric>

namespace tilec {
namespace sema {
namespace {

using Int128 = __int128;

/// Visited partial tuples before the search gives up.
constexpr int64_t kSearchBudget = 1 << 16;
/// Limits that keep every sum of the search far inside 128 bits: beyond
/// them the search gives up (or, for values, searches only below the limit).
constexpr Int128 kMaxScale = Int128(1) << 16;
constexpr Int128 kMaxCoefficient = Int128(1) << 62;
constexpr Int128 kMaxValue = Int128(1) << 44;

/// lower <= (sum coeffs[k] * x_k + constant) <= upper, all integers (the
/// polynomial times the lcm of its denominators); `integral`: the sum must
/// also be a multiple of `scale` (an access coordinate is an integer).
struct Bound {
  std::vector<Int128> coeffs;
  Int128 constant = 0;
  Int128 scale = 1;
  Int128 lower = 0;
  Int128 upper = 0;
  bool integral = false;
  /// The innermost variable with a non-zero coefficient (-1: none).
  int last = -1;
};

class ConflictSearch {
public:
  explicit ConflictSearch(size_t numIndices) : numIndices(numIndices) {}

  /// Adds `lo <= poly < hi`; false when the numbers are out of reach.
  bool add(const AffinePoly &poly, int64_t hi, bool integral);
  /// Tightens every bound so that it also holds after x_j += step.
  void shift(size_t j, Int128 step);
  /// A tuple satisfying every bound, if the budget finds one.
  std::optional<std::vector<int64_t>> solve();

  std::vector<Bound> bounds;

private:
  bool visit(size_t level);

  size_t numIndices;
  std::vector<Int128> tuple;
  int64_t budget = kSearchBudget;
};

bool ConflictSearch::add(const AffinePoly &poly, int64_t hi, bool integral) {
  Int128 scale = poly.constant.den;
  for (const Rational &c : poly.coeffs)
    scale = scale / std::gcd(scale, Int128(c.den)) * c.den;
  if (scale > kMaxScale)
    return false;
  Bound bound;
  bound.scale = scale;
  for (size_t k = 0; k < numIndices; ++k) {
    const Rational &c = poly.coeffs[k];
    bound.coeffs.push_back(Int128(c.num) * (scale / c.den));
    if (c.num != 0)
      bound.last = int(k);
  }
  bound.constant = Int128(poly.constant.num) * (scale / poly.constant.den);
  bound.lower = 0;
  // The numerator is an integer: poly < hi is numerator <= hi * scale - 1.
  bound.upper = Int128(hi) * scale - 1;
  bound.integral = integral;
  bool small = magnitude(bound.constant) <= kMaxCoefficient;
  for (Int128 c : bound.coeffs)
    small &= magnitude(c) <= kMaxCoefficient;
  bounds.push_back(std::move(bound));
  return small;
}

void ConflictSearch::shift(size_t j, Int128 step) {
  for (Bound &bound : bounds) {
    Int128 delta = bound.coeffs[j] * step;
    bound.lower = std::max(bound.lower, bound.lower - delta);
    bound.upper = std::min(bound.upper, bound.upper - delta);
  }
}

std::optional<std::vector<int64_t>> ConflictSearch::solve() {
  tuple.assign(numIndices, 0);
  if (!visit(0))
    return std::nullopt;
  return std::vector<int64_t>(tuple.begin(), tuple.end());
}

bool ConflictSearch::visit(size_t level) {
  if (level == numIndices)
    return true;
  // The interval of x_level given x_0..x_{level-1}, from the bounds whose
  // innermost variable it is.
  std::optional<Int128> low, high;
  for (const Bound &bound : bounds) {
    if (bound.last != int(level))
      continue;
    Int128 rest = bound.constant;
    for (size_t k = 0; k < level; ++k)
      rest += bound.coeffs[k] * tuple[k];
    Int128 c = bound.coeffs[level];
    // lower <= c * x + rest <= upper.
    Int128 from = bound.lower - rest, to = bound.upper - rest;
    Int128 least = c > 0 ? ceilDiv(from, c) : ceilDiv(to, c);
    Int128 most = c > 0 ? floorDiv(to, c) : floorDiv(from, c);
    low = low ? std::max(*low, least) : least;
    high = high ? std::min(*high, most) : most;
  }
  // Every variable has a non-zero coefficient somewhere, but possibly only
  // together with inner ones: such a variable is not searched.
  if (!low || !high || magnitude(*low) > kMaxValue)
    return false;
  for (Int128 value = *low; value <= std::min(*high, kMaxValue); ++value) {
    if (--budget < 0)
      return false;
    tuple[level] = value;
    bool integral = true;
    for (const Bound &bound : bounds) {
      if (bound.last != int(level) || !bound.integral)
        continue;
      Int128 sum = bound.constant;
      for (size_t k = 0; k <= level; ++k)
        sum += bound.coeffs[k] * tuple[k];
      integral &= sum % bound.scale == 0;
    }
    if (integral && visit(level + 1))
      return true;
  }
  return false;
}

/// The least positive multiple of x_j that keeps every access of a tuple
/// integral: the lcm of the denominators of x_j's coefficients.
std::optional<Int128> getStep(const Contraction &contraction, size_t j) {
  Int128 step = 1;
  auto include = [&](const AffinePoly &poly) {
    Int128 den = poly.coeffs[j].den;
    step = step / std::gcd(step, den) * den;
  };
  for (const Access &access : contraction.operands)
    for (const AffinePoly &poly : access.indices)
      include(poly);
  for (const AffinePoly &poly : contraction.outputIndices)
    include(poly);
  if (step > kMaxScale)
    return std::nullopt;
  return step;
}

/// poly(tuple), an integer for the access of a valid tuple.
int64_t evaluate(const AffinePoly &poly, llvm::ArrayRef<int64_t> tuple) {
  Int128 scale = poly.constant.den;
  for (const Rational &c : poly.coeffs)
    scale = scale / std::gcd(scale, Int128(c.den)) * c.den;
  Int128 sum = Int128(poly.constant.num) * (scale / poly.constant.den);
  for (size_t k = 0; k < tuple.size(); ++k)
    sum += Int128(poly.coeffs[k].num) * (scale / poly.coeffs[k].den) * tuple[k];
  return int64_t(sum / scale);
}

} // namespace

std::optional<AssignConflict>
findAssignConflict(const Contraction &contraction, const Shape &outputShape,
                   llvm::ArrayRef<Shape> operandShapes) {
  if (contraction.aggregation != AggregationKind::Assign ||
      contraction.combination == CombinationKind::Cond)
    return std::nullopt;
  size_t numIndices = contraction.indexNames.size();
  for (size_t j = 0; j < numIndices; ++j) {
    bool inOutput =
        llvm::any_of(contraction.outputIndices, [&](const AffinePoly &poly) {
          return !poly.coeffs[j].isZero();
        });
    std::optional<Int128> step = getStep(contraction, j);
    if (inOutput || !step)
      continue;
    ConflictSearch search(numIndices);
    bool representable = true;
    for (size_t d = 0; d < contraction.outputIndices.size(); ++d)
      representable &=
          search.add(contraction.outputIndices[d], outputShape[d], true);
    for (size_t a = 0; a < contraction.operands.size(); ++a)
      for (size_t d = 0; d < contraction.operands[a].indices.size(); ++d)
        representable &= search.add(contraction.operands[a].indices[d],
                                    operandShapes[a][d], true);
    for (const Constraint &constraint : contraction.constraints)
      representable &= search.add(constraint.poly, constraint.bound, false);
    if (!representable)
      continue;
    search.shift(j, *step);
    std::optional<std::vector<int64_t>> first = search.solve();
    if (!first)
      continue;
    AssignConflict conflict;
    conflict.first = *first;
    conflict.second = *first;
    conflict.second[j] += int64_t(*step);
    for (const AffinePoly &poly : contraction.outputIndices)
      conflict.element.push_back(evaluate(poly, conflict.first));
    return conflict;
  }
  return std::nullopt;
}

} // namespace sema
} // namespace tilec
