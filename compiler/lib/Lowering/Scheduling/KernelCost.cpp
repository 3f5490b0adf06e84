//===- KernelCost.cpp - Work counts of a contraction ----------------------===//

#include "tilec/Lowering/KernelCost.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <utility>

using namespace tilec;
using namespace tilec::lowering;

namespace {
using Interval = std::pair<double, double>;

/// The range of `expr`'s numerator when each variable ranges over its
/// interval.
Interval getRange(const QuasiAffine &expr, const std::vector<Interval> &vars) {
  Interval range(expr.constant, expr.constant);
  for (size_t var = 0; var < expr.coeffs.size() && var < vars.size(); ++var) {
    double coeff = expr.coeffs[var];
    double a = coeff * vars[var].first, b = coeff * vars[var].second;
    range.first += std::min(a, b);
    range.second += std::max(a, b);
  }
  return range;
}
} // namespace

TupleCount lowering::countTuples(const ContractionSpace &space,
                                 const IndexSystem &system) {
  TupleCount count;
  if (space.empty)
    return count;
  double elements = 1;
  std::vector<Interval> vars(space.outputRank + space.numIndices,
                             Interval(0, 0));
  for (unsigned dim = 0; dim < space.outputRank; ++dim) {
    double extent = double(system.output.extents[dim]);
    elements *= extent;
    vars[dim] = Interval(0, extent - 1);
  }
  auto note = [&](const QuasiAffine &expr) {
    Interval range = getRange(expr, vars);
    count.maxMagnitude = std::max(
        {count.maxMagnitude, std::fabs(range.first), std::fabs(range.second)});
    return range;
  };
  count.perElement = 1;
  for (auto [level, var] : llvm::enumerate(space.freeVars)) {
    const LoopBound &bound = space.bounds[level];
    double lower = -INFINITY, upper = INFINITY;
    for (const QuasiAffine &expr : bound.lower)
      lower = std::max(lower, std::ceil(note(expr).first / expr.den));
    for (const QuasiAffine &expr : bound.upper)
      upper = std::min(upper, std::floor(note(expr).second / expr.den));
    vars[space.outputRank + var] = Interval(lower, upper);
    count.levelRanges.push_back(Interval(lower, upper));
    count.levelTrips.push_back(std::max(0.0, upper - lower + 1));
    count.perElement *= count.levelTrips.back();
  }
  for (const Pivot &pivot : space.pivots)
    note(pivot.value);
  for (const QuasiAffine &expr : space.integralityChecks)
    note(expr);
  for (const QuasiAffine &expr : space.coordinateEqualities)
    note(expr);
  for (const QuasiAffine &expr : space.coordinateInequalities)
    note(expr);
  count.tuples = elements * count.perElement;
  count.exact = space.isDenseBox();
  return count;
}

double lowering::countLoopPasses(llvm::ArrayRef<double> trips) {
  double passes = 0;
  for (double trip : llvm::reverse(trips))
    passes = trip * (1 + passes) + 1;
  return passes;
}
