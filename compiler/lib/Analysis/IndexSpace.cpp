//===- IndexSpace.cpp - The valid tuples of a contraction ----------------===//
//
// The driver: solve the output equations, substitute the solved pivots into
// every access and constraint range, eliminate the free variables to get
// their loop bounds, and simplify the bounds in the output box.
//
//===----------------------------------------------------------------------===//

#include "AffineRows.h"
#include "BoundSimplification.h"
#include "FourierMotzkin.h"
#include "OutputEquations.h"

#include "tilec/Analysis/IndexSpace.h"

#include "llvm/ADT/STLExtras.h"

#include <set>
#include <tuple>

using namespace tilec;
using namespace tilec::indexspace;

/// Checks that the rows and extents of `system` have consistent sizes and
/// positive denominators.
static bool verifySystem(const IndexSystem &system, std::string &error) {
  auto verifyRow = [&](const IndexSystem::Row &row) {
    return row.num.size() == system.numIndices + 1 &&
           row.den.size() == system.numIndices + 1 &&
           llvm::all_of(row.den, [](int64_t den) { return den > 0; });
  };
  auto verifyAccess = [&](const IndexSystem::Access &access) {
    return access.rows.size() == access.extents.size() &&
           llvm::all_of(access.rows, verifyRow);
  };
  if (!verifyAccess(system.output) ||
      !llvm::all_of(system.inputs, verifyAccess) ||
      !llvm::all_of(system.constraints,
                    [&](const auto &constraint) {
                      return verifyRow(constraint.first);
                    }) ||
      (!system.names.empty() && system.names.size() != system.numIndices)) {
    error = "malformed index system";
    return false;
  }
  return true;
}

/// True when some access or constraint range is empty, so that no tuple
/// (and, for the output, no element) exists.
static bool hasEmptyRange(const IndexSystem &system) {
  auto isEmptyExtent = [](int64_t extent) { return extent <= 0; };
  return llvm::any_of(system.output.extents, isEmptyExtent) ||
         llvm::any_of(system.inputs,
                      [&](const IndexSystem::Access &access) {
                        return llvm::any_of(access.extents, isEmptyExtent);
                      }) ||
         llvm::any_of(system.constraints, [&](const auto &constraint) {
           return isEmptyExtent(constraint.second);
         });
}

static std::string describeVariable(const IndexSystem &system, unsigned index) {
  if (system.names.empty())
    return "index variable " + std::to_string(index);
  return "index variable '" + system.names[index] + "'";
}

namespace {

/// Collects the system's rows once the pivots are substituted: the range
/// inequalities, and the integrality checks without duplicates.
class RangeCollector {
public:
  RangeCollector(CheckedArithmetic &arith, unsigned outputRank,
                 llvm::ArrayRef<Pivot> pivots)
      : arith(arith), outputRank(outputRank), pivots(pivots) {}

  /// Adds 0 <= row <= extent - 1 for an access, which must also be an
  /// integer.
  void addAccess(const IndexSystem::Row &row, int64_t extent) {
    QuasiAffine expr = substitutePivots(row);
    if (arith.overflowed())
      return;
    addIntegralityCheck(expr);
    int64_t maxNumerator = arith.mul(arith.sub(extent, 1), expr.den);
    addRange(std::move(expr), maxNumerator);
  }

  /// Adds 0 <= row < bound for a constraint. The constraint need not be an
  /// integer (the language asks for the inequality only), but its numerator is,
  /// so row < bound reads numerator <= den * bound - 1.
  void addConstraint(const IndexSystem::Row &row, int64_t bound) {
    QuasiAffine expr = substitutePivots(row);
    if (arith.overflowed())
      return;
    int64_t maxNumerator = arith.sub(arith.mul(bound, expr.den), 1);
    addRange(std::move(expr), maxNumerator);
  }

  void addIntegralityCheck(QuasiAffine expr) {
    if (!normalizeIntegralityCheck(expr))
      return;
    auto key = std::make_tuple(expr.coeffs, expr.constant, expr.den);
    if (seenChecks.insert(std::move(key)).second)
      integralityChecks.push_back(std::move(expr));
  }

  InequalitySet inequalities;
  std::vector<QuasiAffine> integralityChecks;

private:
  QuasiAffine substitutePivots(const IndexSystem::Row &row) {
    QuasiAffine expr = fromRationalRow(arith, row, outputRank);
    for (const Pivot &pivot : pivots)
      expr = substitute(arith, expr, outputRank + pivot.index, pivot.value);
    return expr;
  }

  /// Adds 0 <= numerator(expr) <= maxNumerator.
  void addRange(QuasiAffine expr, int64_t maxNumerator) {
    QuasiAffine upper = scaleNumerators(arith, -1, expr);
    upper.constant = arith.add(upper.constant, maxNumerator);
    inequalities.add(std::move(expr));
    inequalities.add(std::move(upper));
  }

  CheckedArithmetic &arith;
  unsigned outputRank;
  llvm::ArrayRef<Pivot> pivots;
  std::set<std::tuple<std::vector<int64_t>, int64_t, int64_t>> seenChecks;
};

} // namespace

/// Whether the coordinate conditions and the output box admit a real point,
/// which every valid tuple needs. Sets `error` and returns nullopt when the
/// elimination fails.
static std::optional<bool>
areCoordinatesFeasible(CheckedArithmetic &arith, InequalitySet rows,
                       llvm::ArrayRef<QuasiAffine> equalities, unsigned numVars,
                       const Shape &outputExtents, std::string &error) {
  for (const QuasiAffine &equality : equalities) {
    rows.add(equality);
    rows.add(scaleNumerators(arith, -1, equality));
  }
  std::vector<unsigned> coordinates;
  for (unsigned d = 0, e = outputExtents.size(); d < e; ++d) {
    // 0 <= o_d and o_d <= extent - 1.
    QuasiAffine lower = makeZero(numVars);
    lower.coeffs[d] = 1;
    QuasiAffine upper = makeZero(numVars);
    upper.coeffs[d] = -1;
    upper.constant = outputExtents[d] - 1;
    rows.add(std::move(lower));
    rows.add(std::move(upper));
    coordinates.push_back(d);
  }
  Elimination elimination;
  if (!eliminate(arith, std::move(rows), coordinates, elimination, error))
    return std::nullopt;
  return !elimination.remaining.isInfeasible();
}

/// The answer for a system without any valid tuple.
static ContractionSpace emptySpace(const ContractionSpace &space) {
  ContractionSpace empty;
  empty.outputRank = space.outputRank;
  empty.numIndices = space.numIndices;
  empty.empty = true;
  return empty;
}

std::optional<ContractionSpace>
tilec::analyzeIndexSpace(const IndexSystem &system, std::string &error) {
  if (!verifySystem(system, error))
    return std::nullopt;
  unsigned outputRank = system.output.rows.size();
  unsigned numVars = outputRank + system.numIndices;
  ContractionSpace space;
  space.outputRank = outputRank;
  space.numIndices = system.numIndices;
  if (hasEmptyRange(system))
    return emptySpace(space);

  CheckedArithmetic arith;
  auto overflowed = [&] {
    if (!arith.overflowed())
      return false;
    error = kOverflowMessage;
    return true;
  };

  std::vector<QuasiAffine> outputRows;
  for (const IndexSystem::Row &row : system.output.rows)
    outputRows.push_back(fromRationalRow(arith, row, outputRank));
  if (overflowed())
    return std::nullopt;
  OutputSolution solution = solveOutputEquations(arith, outputRows, outputRank);
  if (overflowed())
    return std::nullopt;
  if (solution.infeasible)
    return emptySpace(space);
  space.pivots = std::move(solution.pivots);
  space.coordinateEqualities = std::move(solution.coordinateEqualities);

  RangeCollector collector(arith, outputRank, space.pivots);
  for (const Pivot &pivot : space.pivots)
    if (pivot.value.den > 1)
      collector.addIntegralityCheck(pivot.value);
  for (const IndexSystem::Access &input : system.inputs)
    for (auto [row, extent] : llvm::zip_equal(input.rows, input.extents))
      collector.addAccess(row, extent);
  for (const auto &[row, bound] : system.constraints)
    collector.addConstraint(row, bound);
  if (overflowed())
    return std::nullopt;
  space.integralityChecks = std::move(collector.integralityChecks);

  // Free variables loop in the order of the index variables.
  std::vector<unsigned> freeColumns;
  for (unsigned index = 0; index < system.numIndices; ++index) {
    if (llvm::any_of(space.pivots,
                     [&](const Pivot &pivot) { return pivot.index == index; }))
      continue;
    space.freeVars.push_back(index);
    freeColumns.push_back(outputRank + index);
  }
  Elimination elimination;
  if (!eliminate(arith, std::move(collector.inequalities), freeColumns,
                 elimination, error))
    return std::nullopt;
  if (elimination.remaining.isInfeasible())
    return emptySpace(space);
  std::optional<bool> feasible = areCoordinatesFeasible(
      arith, elimination.remaining, space.coordinateEqualities, numVars,
      system.output.extents, error);
  if (!feasible)
    return std::nullopt;
  if (!*feasible)
    return emptySpace(space);
  if (!elimination.unbounded.empty()) {
    unsigned index = *llvm::min_element(elimination.unbounded) - outputRank;
    error = describeVariable(system, index) + " is unbounded";
    return std::nullopt;
  }

  // Simplify in the output box, from the outermost loop inwards so that
  // each loop knows the ranges of the loops outside it.
  VariableRanges ranges(numVars);
  for (unsigned d = 0; d < outputRank; ++d) {
    ranges.setLower(d, 0);
    ranges.setUpper(d, system.output.extents[d] - 1);
  }
  for (const QuasiAffine &row : elimination.remaining.getRows())
    if (!isImpliedByRanges(row, ranges))
      space.coordinateInequalities.push_back(row);
  space.bounds = std::move(elimination.bounds);
  for (auto [bound, column] : llvm::zip_equal(space.bounds, freeColumns))
    if (!simplifyLoopBound(bound, column, ranges))
      return emptySpace(space);
  return space;
}

std::optional<int64_t> ContractionSpace::tuplesPerElement() const {
  if (empty)
    return 0;
  if (!integralityChecks.empty() || !coordinateEqualities.empty() ||
      !coordinateInequalities.empty())
    return std::nullopt;
  int64_t count = 1;
  for (const LoopBound &bound : bounds) {
    if (!bound.constantRange)
      return std::nullopt;
    auto [lower, upper] = *bound.constantRange;
    // Ranges hold extents of real tensors, far below overflow.
    count *= std::max<int64_t>(upper - lower + 1, 0);
  }
  return count;
}

bool ContractionSpace::isDenseBox() const {
  if (empty || pivots.size() != outputRank || !integralityChecks.empty() ||
      !coordinateEqualities.empty() || !coordinateInequalities.empty())
    return false;
  // Pivot d, solved from output dimension d, must be exactly o_d.
  for (auto [d, pivot] : llvm::enumerate(pivots)) {
    const QuasiAffine &value = pivot.value;
    for (auto [var, coeff] : llvm::enumerate(value.coeffs))
      if (coeff != (var == d ? 1 : 0))
        return false;
    if (value.constant != 0 || value.den != 1)
      return false;
  }
  return llvm::all_of(bounds, [](const LoopBound &bound) {
    return bound.constantRange.has_value();
  });
}
