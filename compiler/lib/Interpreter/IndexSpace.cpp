//===- IndexSpace.cpp - Integer points of a contraction's index space -----===//

#include "IndexSpace.h"

#include <limits>
#include <map>

using namespace tilec;
using namespace tilec::interp;

namespace {

using Int128 = __int128;

/// Fourier-Motzkin may square the number of inequalities at every step; this
/// caps the work of one elimination (index spaces of real programs stay far
/// below it).
constexpr size_t kMaxCombinations = size_t(1) << 20;

Int128 floorDiv(Int128 a, Int128 b) {
  Int128 quotient = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? quotient - 1 : quotient;
}

Int128 ceilDiv(Int128 a, Int128 b) { return -floorDiv(-a, b); }

Int128 magnitude(Int128 a) { return a < 0 ? -a : a; }

Int128 gcd(Int128 a, Int128 b) {
  while (b != 0) {
    Int128 rest = a % b;
    a = b;
    b = rest;
  }
  return a;
}

/// Keeps INT64_MIN out so that negating a coefficient never overflows.
bool fitsInt64(Int128 a) {
  return a > std::numeric_limits<int64_t>::min() &&
         a <= std::numeric_limits<int64_t>::max();
}

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Error overflowError() {
  return makeError("the index space of this contraction overflows 64-bit "
                   "index arithmetic");
}

/// A system under elimination: each coefficient vector with the tightest
/// constant seen for it (the others are implied by it).
class InequalitySet {
public:
  /// Adds sum coeffs[k] * x_k + constant >= 0 after dividing it by the gcd of
  /// its coefficients and rounding the constant down, which keeps every
  /// integer point. A constant inequality is dropped when true and marks the
  /// set infeasible when false.
  llvm::Error add(llvm::ArrayRef<Int128> coeffs, Int128 constant) {
    Int128 divisor = 0;
    for (Int128 c : coeffs)
      divisor = gcd(divisor, magnitude(c));
    if (divisor == 0) {
      if (constant < 0)
        infeasible = true;
      return llvm::Error::success();
    }
    std::vector<int64_t> key;
    key.reserve(coeffs.size());
    for (Int128 c : coeffs) {
      if (!fitsInt64(c / divisor))
        return overflowError();
      key.push_back(static_cast<int64_t>(c / divisor));
    }
    Int128 tightened = floorDiv(constant, divisor);
    if (!fitsInt64(tightened))
      return overflowError();
    auto [it, inserted] =
        tightest.try_emplace(std::move(key), static_cast<int64_t>(tightened));
    if (!inserted && tightened < it->second)
      it->second = static_cast<int64_t>(tightened);
    return llvm::Error::success();
  }

  bool isInfeasible() const { return infeasible; }

  std::vector<LinearInequality> take() {
    std::vector<LinearInequality> system;
    system.reserve(tightest.size());
    for (auto &[coeffs, constant] : tightest)
      system.push_back({coeffs, constant});
    return system;
  }

private:
  std::map<std::vector<int64_t>, int64_t> tightest;
  bool infeasible = false;
};

llvm::Error addInequality(InequalitySet &set, const LinearInequality &ineq) {
  std::vector<Int128> coeffs(ineq.coeffs.begin(), ineq.coeffs.end());
  return set.add(coeffs, ineq.constant);
}

/// Eliminates x_`var` from `system`: every pair of a lower and an upper bound
/// on x_var combines into one inequality without it (exact over the
/// rationals); inequalities without x_var stay.
llvm::Error eliminate(const std::vector<LinearInequality> &system, unsigned var,
                      InequalitySet &result) {
  std::vector<const LinearInequality *> lower, upper;
  for (const LinearInequality &ineq : system) {
    if (ineq.coeffs[var] > 0)
      lower.push_back(&ineq);
    else if (ineq.coeffs[var] < 0)
      upper.push_back(&ineq);
    else if (llvm::Error error = addInequality(result, ineq))
      return error;
  }
  if (lower.size() * upper.size() > kMaxCombinations)
    return makeError("the index space of this contraction is too complex for "
                     "the reference interpreter");
  std::vector<Int128> coeffs(system.empty() ? 0 : system[0].coeffs.size());
  for (const LinearInequality *low : lower) {
    for (const LinearInequality *up : upper) {
      Int128 lowScale = -Int128(up->coeffs[var]);
      Int128 upScale = low->coeffs[var];
      for (size_t k = 0; k < coeffs.size(); ++k)
        coeffs[k] = lowScale * low->coeffs[k] + upScale * up->coeffs[k];
      Int128 constant = lowScale * low->constant + upScale * up->constant;
      if (llvm::Error error = result.add(coeffs, constant))
        return error;
    }
  }
  return llvm::Error::success();
}

} // namespace

llvm::Expected<LoopNest> LoopNest::build(llvm::ArrayRef<std::string> names,
                                         std::vector<LinearInequality> system) {
  unsigned numVars = names.size();
  LoopNest nest;
  nest.levels.resize(numVars);

  InequalitySet initial;
  for (const LinearInequality &ineq : system) {
    if (ineq.coeffs.size() != numVars)
      return makeError("an inequality has the wrong number of coefficients");
    if (!fitsInt64(ineq.constant))
      return overflowError();
    for (int64_t c : ineq.coeffs)
      if (!fitsInt64(c))
        return overflowError();
    if (llvm::Error error = addInequality(initial, ineq))
      return std::move(error);
  }
  if (initial.isInfeasible()) {
    nest.empty = true;
    return nest;
  }
  std::vector<LinearInequality> current = initial.take();

  // `current` is the projection onto x_0..x_var; the inequalities that bound
  // x_var become that loop level's bounds, then x_var is eliminated.
  for (unsigned var = numVars; var-- > 0;) {
    bool hasLower = false, hasUpper = false;
    for (const LinearInequality &ineq : current) {
      if (ineq.coeffs[var] == 0)
        continue;
      (ineq.coeffs[var] > 0 ? hasLower : hasUpper) = true;
      nest.levels[var].push_back(ineq);
    }
    if (!hasLower || !hasUpper)
      return makeError("index variable '" + names[var] + "' has no finite " +
                       (hasLower ? "upper" : "lower") + " bound");
    InequalitySet projected;
    if (llvm::Error error = eliminate(current, var, projected))
      return std::move(error);
    if (projected.isInfeasible()) {
      nest.empty = true;
      return nest;
    }
    current = projected.take();
  }
  return nest;
}

llvm::Error LoopNest::forEach(
    llvm::function_ref<bool(llvm::ArrayRef<int64_t>)> visit) const {
  return forEach(visit, std::numeric_limits<int64_t>::min(),
                 std::numeric_limits<int64_t>::max());
}

llvm::Error
LoopNest::forEach(llvm::function_ref<bool(llvm::ArrayRef<int64_t>)> visit,
                  int64_t outerFirst, int64_t outerLast) const {
  if (levels.empty()) {
    if (!empty)
      visit({});
    return llvm::Error::success();
  }
  std::vector<int64_t> tuple;
  return forEachRow(
      [&](llvm::ArrayRef<int64_t> outer, int64_t low, int64_t high) {
        return forEachInRow(outer, low, high, tuple, visit);
      },
      outerFirst, outerLast);
}

bool LoopNest::forEachInRow(
    llvm::ArrayRef<int64_t> outer, int64_t low, int64_t high,
    std::vector<int64_t> &tuple,
    llvm::function_ref<bool(llvm::ArrayRef<int64_t>)> visit) {
  tuple.assign(outer.begin(), outer.end());
  tuple.push_back(low);
  for (int64_t x = low;; ++x) {
    tuple.back() = x;
    if (!visit(tuple))
      return false;
    if (x == high)
      return true;
  }
}

llvm::Error LoopNest::forEachRow(
    llvm::function_ref<bool(llvm::ArrayRef<int64_t>, int64_t, int64_t)>
        visitRow,
    int64_t outerFirst, int64_t outerLast) const {
  if (empty || levels.empty())
    return llvm::Error::success();
  std::vector<int64_t> tuple(levels.size());
  llvm::Expected<bool> completed =
      forEachRowFrom(0, tuple, visitRow, {outerFirst, outerLast});
  if (!completed)
    return completed.takeError();
  return llvm::Error::success();
}

llvm::Expected<std::optional<std::pair<int64_t, int64_t>>>
LoopNest::getOuterRange() const {
  if (empty || levels.empty())
    return std::nullopt;
  llvm::Expected<std::pair<int64_t, int64_t>> bounds = getBounds(0, {});
  if (!bounds)
    return bounds.takeError();
  if (bounds->first > bounds->second)
    return std::nullopt;
  return *bounds;
}

llvm::Expected<std::pair<int64_t, int64_t>>
LoopNest::getBounds(unsigned level, llvm::ArrayRef<int64_t> tuple) const {
  Int128 low = std::numeric_limits<Int128>::min();
  Int128 high = std::numeric_limits<Int128>::max();
  for (const LinearInequality &ineq : levels[level]) {
    // coeff * x + rest >= 0, where rest sums the outer terms; each product
    // fits in 127 bits, the sums are checked.
    Int128 rest = ineq.constant;
    for (unsigned k = 0; k < level; ++k)
      if (__builtin_add_overflow(rest, Int128(ineq.coeffs[k]) * tuple[k],
                                 &rest))
        return overflowError();
    Int128 coeff = ineq.coeffs[level];
    if (coeff > 0)
      low = std::max(low, ceilDiv(-rest, coeff));
    else
      high = std::min(high, floorDiv(rest, -coeff));
  }
  if (low > high)
    return std::make_pair(int64_t(1), int64_t(0));
  if (!fitsInt64(low) || !fitsInt64(high))
    return overflowError();
  return std::make_pair(static_cast<int64_t>(low), static_cast<int64_t>(high));
}

llvm::Expected<bool> LoopNest::forEachRowFrom(
    unsigned level, std::vector<int64_t> &tuple,
    llvm::function_ref<bool(llvm::ArrayRef<int64_t>, int64_t, int64_t)>
        visitRow,
    std::pair<int64_t, int64_t> outer) const {
  llvm::Expected<std::pair<int64_t, int64_t>> bounds =
      getBounds(level, llvm::ArrayRef<int64_t>(tuple).take_front(level));
  if (!bounds)
    return bounds.takeError();
  auto [low, high] = *bounds;
  if (level == 0) {
    low = std::max(low, outer.first);
    high = std::min(high, outer.second);
  }
  if (low > high)
    return true;

  if (level + 1 == levels.size())
    return visitRow(llvm::ArrayRef<int64_t>(tuple).take_front(level), low,
                    high);
  for (int64_t x = low;; ++x) {
    tuple[level] = x;
    llvm::Expected<bool> completed =
        forEachRowFrom(level + 1, tuple, visitRow, outer);
    if (!completed || !*completed)
      return completed;
    if (x == high)
      return true;
  }
}
