//===- RandomSystemsTest.cpp - Index spaces of random systems ------------===//
//
// A thousand small random systems with rational coefficients: each one's
// enumerated tuples must equal the definition's. Every index gets one
// access or constraint of its own so that a box holds all valid tuples and
// the brute-force search is complete; the other rows mix 2-4 variables.
//
//===----------------------------------------------------------------------===//

#include "SpaceChecks.h"

#include <gtest/gtest.h>

#include <random>

using namespace tilec;
using namespace tilec::testing;

namespace {

/// Deterministic draws (std distributions differ between libraries).
class Draw {
public:
  explicit Draw(uint64_t seed) : engine(seed) {}
  /// Uniform in [low, high].
  int64_t between(int64_t low, int64_t high) {
    return low + int64_t(engine() % uint64_t(high - low + 1));
  }
  bool chance(unsigned percent) { return between(1, 100) <= percent; }

private:
  std::mt19937_64 engine;
};

/// A small rational coefficient: numerator in [-2, 2], denominator mostly 1,
/// else 2 or 3.
std::pair<int64_t, int64_t> drawCoefficient(Draw &draw) {
  int64_t num;
  do
    num = draw.between(-2, 2);
  while (num == 0);
  int64_t den = draw.chance(75) ? 1 : draw.chance(70) ? 2 : 3;
  return {num, den};
}

/// A row over `numIndices` variables using about `density` percent of them,
/// with a small integer constant.
IndexSystem::Row drawRow(Draw &draw, unsigned numIndices, unsigned density) {
  IndexSystem::Row row;
  for (unsigned i = 0; i < numIndices; ++i) {
    auto [num, den] = draw.chance(density) ? drawCoefficient(draw)
                                           : std::pair<int64_t, int64_t>{0, 1};
    row.num.push_back(num);
    row.den.push_back(den);
  }
  row.num.push_back(draw.between(-1, 2));
  row.den.push_back(1);
  return row;
}

/// `row` times an integer in {-2, -1, 2} plus a constant: a dependent row.
IndexSystem::Row drawMultiple(Draw &draw, IndexSystem::Row row) {
  static const int64_t kFactors[] = {-2, -1, 2};
  int64_t factor = kFactors[draw.between(0, 2)];
  for (int64_t &num : row.num)
    num *= factor;
  row.num.back() += draw.between(0, 3) * row.den.back();
  return row;
}

/// c * x_var + d with c in {1, -1, 2, 1/2}.
IndexSystem::Row drawDirectRow(Draw &draw, unsigned numIndices, unsigned var) {
  IndexSystem::Row row;
  row.num.assign(numIndices + 1, 0);
  row.den.assign(numIndices + 1, 1);
  static const std::pair<int64_t, int64_t> kCoefficients[] = {
      {1, 1}, {-1, 1}, {2, 1}, {1, 2}};
  auto [num, den] = kCoefficients[draw.between(0, 3)];
  row.num[var] = num;
  row.den[var] = den;
  row.num[numIndices] = draw.between(-2, 2);
  return row;
}

IndexSystem drawSystem(Draw &draw) {
  IndexSystem system;
  system.numIndices = draw.between(2, 4);
  unsigned n = system.numIndices;
  unsigned outputRank = draw.between(0, std::min<unsigned>(n, 3));
  for (unsigned d = 0; d < outputRank; ++d) {
    system.output.rows.push_back(d > 0 && draw.chance(20)
                                     ? drawMultiple(draw, system.output.rows[0])
                                     : drawRow(draw, n, 50));
    system.output.extents.push_back(draw.between(1, 6));
  }
  IndexSystem::Access mixed;
  for (unsigned d = 0, rank = draw.between(0, 2); d < rank; ++d) {
    mixed.rows.push_back(drawRow(draw, n, 60));
    mixed.extents.push_back(draw.between(2, 6));
  }
  if (!mixed.rows.empty())
    system.inputs.push_back(std::move(mixed));
  for (unsigned c = 0, e = draw.between(0, 1); c < e; ++c)
    system.constraints.push_back(
        {drawRow(draw, n, 60), draw.chance(5) ? 0 : draw.between(2, 8)});
  // One direct row per index, in an input or as a constraint.
  IndexSystem::Access direct;
  for (unsigned var = 0; var < n; ++var) {
    IndexSystem::Row row = drawDirectRow(draw, n, var);
    if (draw.chance(50))
      system.constraints.push_back({std::move(row), draw.between(2, 6)});
    else {
      direct.rows.push_back(std::move(row));
      direct.extents.push_back(draw.between(2, 6));
    }
  }
  if (!direct.rows.empty())
    system.inputs.push_back(std::move(direct));
  return system;
}

TEST(RandomSystemsTest, EnumerationMatchesTheDefinition) {
  Draw draw(20240601);
  unsigned nonEmpty = 0, withIntegralityChecks = 0,
           withCoordinateEqualities = 0, withFreeVariables = 0;
  for (unsigned trial = 0; trial < 1000; ++trial) {
    IndexSystem system = drawSystem(draw);
    SCOPED_TRACE("trial " + std::to_string(trial));
    std::optional<ContractionSpace> space = expectMatchesDefinition(system);
    if (!space || ::testing::Test::HasFailure())
      break;
    if (space->empty)
      continue;
    nonEmpty += !enumerateSpace(*space, system.output.extents).empty();
    withIntegralityChecks += !space->integralityChecks.empty();
    withCoordinateEqualities += !space->coordinateEqualities.empty();
    withFreeVariables += space->freeVars.size() >= 2;
  }
  // The draws exercise what they are meant to.
  EXPECT_GT(nonEmpty, 250u);
  EXPECT_GT(withIntegralityChecks, 150u);
  EXPECT_GT(withCoordinateEqualities, 40u);
  EXPECT_GT(withFreeVariables, 200u);
}

} // namespace
