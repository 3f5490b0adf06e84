//===- SpaceChecks.cpp - Checking a ContractionSpace by enumeration ------===//

#include "SpaceChecks.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>

using namespace tilec;
using namespace tilec::testing;

using Int128 = __int128;

static Int128 evaluateNumerator(const QuasiAffine &expr,
                                const std::vector<int64_t> &vars) {
  Int128 value = expr.constant;
  for (size_t i = 0; i < expr.coeffs.size(); ++i)
    value += Int128(expr.coeffs[i]) * vars[i];
  return value;
}

static Int128 floorDiv(Int128 a, Int128 b) {
  Int128 quotient = a / b;
  return (a % b != 0 && a < 0) ? quotient - 1 : quotient;
}

static Int128 ceilDiv(Int128 a, Int128 b) {
  Int128 quotient = a / b;
  return (a % b != 0 && a > 0) ? quotient + 1 : quotient;
}

/// Calls `visit` with every point of the box [0, extents).
static void
forEachInBox(const Box &box,
             const std::function<void(const std::vector<int64_t> &)> &visit) {
  for (const auto &[low, high] : box)
    if (low > high)
      return;
  std::vector<int64_t> point;
  for (const auto &range : box)
    point.push_back(range.first);
  while (true) {
    visit(point);
    size_t d = box.size();
    while (d > 0 && point[d - 1] == box[d - 1].second) {
      point[d - 1] = box[d - 1].first;
      --d;
    }
    if (d == 0)
      return;
    ++point[d - 1];
  }
}

std::vector<Point> tilec::testing::enumerateSpace(const ContractionSpace &space,
                                                  const Shape &outputExtents) {
  std::vector<Point> points;
  if (space.empty)
    return points;
  unsigned rank = space.outputRank;
  Box outputBox;
  for (int64_t extent : outputExtents)
    outputBox.push_back({0, extent - 1});
  std::vector<int64_t> vars(rank + space.numIndices, 0);

  std::function<void(unsigned)> runLoop = [&](unsigned level) {
    if (level == space.freeVars.size()) {
      for (const QuasiAffine &check : space.integralityChecks)
        if (evaluateNumerator(check, vars) % check.den != 0)
          return;
      for (const Pivot &pivot : space.pivots) {
        Int128 numerator = evaluateNumerator(pivot.value, vars);
        // The integrality checks cover every fractional pivot.
        EXPECT_EQ(numerator % pivot.value.den, 0);
        vars[rank + pivot.index] = int64_t(numerator / pivot.value.den);
      }
      points.push_back({std::vector<int64_t>(vars.begin(), vars.begin() + rank),
                        std::vector<int64_t>(vars.begin() + rank, vars.end())});
      return;
    }
    const LoopBound &bound = space.bounds[level];
    Int128 low = 0, high = 0;
    for (auto [i, expr] : llvm::enumerate(bound.lower)) {
      Int128 value = ceilDiv(evaluateNumerator(expr, vars), expr.den);
      low = i == 0 ? value : std::max(low, value);
    }
    for (auto [i, expr] : llvm::enumerate(bound.upper)) {
      Int128 value = floorDiv(evaluateNumerator(expr, vars), expr.den);
      high = i == 0 ? value : std::min(high, value);
    }
    if (bound.constantRange) {
      EXPECT_EQ(low, bound.constantRange->first);
      EXPECT_EQ(high, bound.constantRange->second);
    }
    ASSERT_LE(high - low, 100000) << "runaway loop";
    unsigned column = rank + space.freeVars[level];
    for (Int128 value = low; value <= high; ++value) {
      vars[column] = int64_t(value);
      runLoop(level + 1);
    }
    vars[column] = 0;
  };

  forEachInBox(outputBox, [&](const std::vector<int64_t> &coordinates) {
    std::fill(vars.begin(), vars.end(), 0);
    std::copy(coordinates.begin(), coordinates.end(), vars.begin());
    for (const QuasiAffine &equality : space.coordinateEqualities)
      if (evaluateNumerator(equality, vars) != 0)
        return;
    for (const QuasiAffine &inequality : space.coordinateInequalities)
      if (evaluateNumerator(inequality, vars) < 0)
        return;
    runLoop(0);
  });
  std::sort(points.begin(), points.end());
  return points;
}

namespace {
/// One row of an IndexSystem evaluated at a tuple: numerator / den.
struct RowValue {
  Int128 numerator;
  Int128 den;
};
} // namespace

static RowValue evaluateRow(const IndexSystem::Row &row,
                            const std::vector<int64_t> &tuple) {
  Int128 den = 1;
  for (int64_t d : row.den)
    den = std::lcm(int64_t(den), d);
  Int128 numerator = 0;
  for (size_t i = 0; i < row.num.size(); ++i)
    numerator += Int128(row.num[i]) * (den / row.den[i]) *
                 (i < tuple.size() ? tuple[i] : 1);
  return {numerator, den};
}

/// The integer coordinate of an access row, if it is an integer in
/// [0, extent).
static std::optional<int64_t> locate(const IndexSystem::Row &row,
                                     int64_t extent,
                                     const std::vector<int64_t> &tuple) {
  RowValue value = evaluateRow(row, tuple);
  if (value.numerator % value.den != 0)
    return std::nullopt;
  Int128 coordinate = value.numerator / value.den;
  if (coordinate < 0 || coordinate >= extent)
    return std::nullopt;
  return int64_t(coordinate);
}

std::vector<Point>
tilec::testing::enumerateByDefinition(const IndexSystem &system,
                                      const Box &box) {
  std::vector<Point> points;
  forEachInBox(box, [&](const std::vector<int64_t> &tuple) {
    for (const IndexSystem::Access &input : system.inputs)
      for (size_t d = 0; d < input.rows.size(); ++d)
        if (!locate(input.rows[d], input.extents[d], tuple))
          return;
    for (const auto &[row, bound] : system.constraints) {
      // 0 <= row < bound over the rationals.
      RowValue value = evaluateRow(row, tuple);
      if (value.numerator < 0 || value.numerator >= value.den * bound)
        return;
    }
    std::vector<int64_t> coordinates;
    for (size_t d = 0; d < system.output.rows.size(); ++d) {
      std::optional<int64_t> coordinate =
          locate(system.output.rows[d], system.output.extents[d], tuple);
      if (!coordinate)
        return;
      coordinates.push_back(*coordinate);
    }
    points.push_back({coordinates, tuple});
  });
  std::sort(points.begin(), points.end());
  return points;
}

std::optional<Box> tilec::testing::getDirectBox(const IndexSystem &system) {
  std::vector<std::optional<std::pair<Int128, Int128>>> ranges(
      system.numIndices);
  // A row c * x + d lying in [0, limit] (over the rationals) puts x between
  // -d / c and (limit - d) / c. A constraint's `< bound` widens to
  // `<= bound`: the box may hold more than the valid tuples.
  auto narrow = [&](const IndexSystem::Row &row, Int128 limit) {
    std::optional<unsigned> var;
    for (unsigned i = 0; i < system.numIndices; ++i) {
      if (row.num[i] == 0)
        continue;
      if (var)
        return;
      var = i;
    }
    if (!var)
      return;
    // 0 <= (cNum / cDen) * x + dNum / dDen <= limit, times cDen * dDen.
    Int128 cDen = row.den[*var], dDen = row.den.back();
    Int128 c = Int128(row.num[*var]) * dDen;
    Int128 d = Int128(row.num.back()) * cDen;
    limit *= cDen * dDen;
    Int128 a = -d, b = limit - d;
    if (c < 0) {
      c = -c;
      std::swap(a, b);
      a = -a;
      b = -b;
    }
    Int128 low = ceilDiv(a, c), high = floorDiv(b, c);
    auto &range = ranges[*var];
    if (!range)
      range = {low, high};
    else
      range = {std::max(range->first, low), std::min(range->second, high)};
  };
  auto narrowByAccess = [&](const IndexSystem::Access &access) {
    for (size_t d = 0; d < access.rows.size(); ++d)
      narrow(access.rows[d], access.extents[d] - 1);
  };
  narrowByAccess(system.output);
  for (const IndexSystem::Access &input : system.inputs)
    narrowByAccess(input);
  for (const auto &[row, bound] : system.constraints)
    narrow(row, bound);
  Box box;
  for (const auto &range : ranges) {
    if (!range)
      return std::nullopt;
    box.push_back({int64_t(range->first), int64_t(range->second)});
  }
  return box;
}

/// Expects `expr` to have `numVars` coefficients, a positive denominator and
/// no term outside `allowed`.
static void expectUsesOnly(const QuasiAffine &expr, unsigned numVars,
                           const std::vector<bool> &allowed, const char *what) {
  ASSERT_EQ(expr.coeffs.size(), numVars) << what;
  EXPECT_GT(expr.den, 0) << what;
  for (unsigned var = 0; var < numVars; ++var)
    if (!allowed[var]) {
      EXPECT_EQ(expr.coeffs[var], 0) << what << " uses variable " << var;
    }
}

void tilec::testing::expectWellFormed(const ContractionSpace &space) {
  if (space.empty)
    return;
  unsigned rank = space.outputRank;
  unsigned numVars = rank + space.numIndices;
  ASSERT_EQ(space.bounds.size(), space.freeVars.size());
  std::vector<int> roles(space.numIndices, 0);
  for (unsigned var : space.freeVars)
    ++roles[var];
  for (const Pivot &pivot : space.pivots)
    ++roles[pivot.index];
  for (int role : roles)
    EXPECT_EQ(role, 1) << "free variables and pivots must partition indices";

  std::vector<bool> coordinates(numVars, false);
  std::fill(coordinates.begin(), coordinates.begin() + rank, true);
  for (const QuasiAffine &expr : space.coordinateEqualities)
    expectUsesOnly(expr, numVars, coordinates, "coordinate equality");
  for (const QuasiAffine &expr : space.coordinateInequalities)
    expectUsesOnly(expr, numVars, coordinates, "coordinate inequality");

  // Loop k sees the coordinates and loops 0..k-1.
  std::vector<bool> visible = coordinates;
  for (auto [level, bound] : llvm::enumerate(space.bounds)) {
    EXPECT_FALSE(bound.lower.empty());
    EXPECT_FALSE(bound.upper.empty());
    for (const QuasiAffine &expr : bound.lower)
      expectUsesOnly(expr, numVars, visible, "lower bound");
    for (const QuasiAffine &expr : bound.upper)
      expectUsesOnly(expr, numVars, visible, "upper bound");
    visible[rank + space.freeVars[level]] = true;
  }
  for (const Pivot &pivot : space.pivots)
    expectUsesOnly(pivot.value, numVars, visible, "pivot");
  for (const QuasiAffine &check : space.integralityChecks) {
    expectUsesOnly(check, numVars, visible, "integrality check");
    EXPECT_GT(check.den, 1);
  }
}

std::optional<ContractionSpace>
tilec::testing::expectMatchesDefinition(const IndexSystem &system) {
  std::string error;
  std::optional<ContractionSpace> space = analyzeIndexSpace(system, error);
  EXPECT_TRUE(space) << error;
  if (!space)
    return std::nullopt;
  expectWellFormed(*space);
  std::optional<Box> box = getDirectBox(system);
  EXPECT_TRUE(box) << "a test system must bound every index directly";
  if (!box)
    return space;
  std::vector<Point> enumerated = enumerateSpace(*space, system.output.extents);
  std::vector<Point> expected = enumerateByDefinition(system, *box);
  EXPECT_EQ(enumerated.size(), expected.size());
  EXPECT_TRUE(enumerated == expected)
      << "the space enumerates other tuples than the definition admits";
  return space;
}

IndexSystem
tilec::testing::parseContract(mlir::MLIRContext &context,
                              const std::string &body,
                              const std::vector<std::string> &inputShapes,
                              const std::string &resultShape) {
  context.loadDialect<tile::TileDialect, mlir::func::FuncDialect>();
  auto tensorType = [](const std::string &shape) {
    return "tensor<" + shape + (shape.empty() ? "" : "x") + "f32>";
  };
  std::string arguments, inputTypes;
  for (size_t i = 0; i < inputShapes.size(); ++i) {
    std::string separator = i == 0 ? "" : ", ";
    arguments += separator + "%a" + std::to_string(i) + ": " +
                 tensorType(inputShapes[i]);
    inputTypes += separator + tensorType(inputShapes[i]);
  }
  std::string result = tensorType(resultShape);
  std::string source = "func.func @f(" + arguments + ") -> " + result +
                       " {\n  %r = tile.contract " + body + " : " + inputTypes +
                       " -> " + result + "\n  return %r : " + result + "\n}\n";
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  EXPECT_TRUE(module) << source;
  if (!module)
    return {};
  tile::ContractOp contract;
  module->walk([&](tile::ContractOp op) { contract = op; });
  EXPECT_TRUE(contract);
  return contract ? getIndexSystem(contract) : IndexSystem();
}
