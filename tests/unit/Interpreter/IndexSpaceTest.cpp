//===- IndexSpaceTest.cpp - Loop nests over integer points ----------------===//

#include "IndexSpace.h"

#include "gtest/gtest.h"

#include <random>
#include <set>

using namespace tilec::interp;

namespace {

bool satisfies(const std::vector<LinearInequality> &system,
               const std::vector<int64_t> &point) {
  for (const LinearInequality &ineq : system) {
    int64_t sum = ineq.constant;
    for (size_t k = 0; k < point.size(); ++k)
      sum += ineq.coeffs[k] * point[k];
    if (sum < 0)
      return false;
  }
  return true;
}

TEST(IndexSpace, VisitsExactlyTheIntegerPointsOfRandomSystems) {
  // Random bounded systems over 3 variables: the box -6..6 on each variable
  // plus random couplings; the loop nest must visit every integer point and
  // only points of the system (compared with brute force over the box).
  std::mt19937 rng(7);
  std::uniform_int_distribution<int64_t> coeff(-3, 3), constant(-8, 8);
  std::vector<std::string> names = {"a", "b", "c"};
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<LinearInequality> system;
    for (unsigned k = 0; k < 3; ++k) {
      LinearInequality low{{0, 0, 0}, 6}, high{{0, 0, 0}, 6};
      low.coeffs[k] = 1;
      high.coeffs[k] = -1;
      system.push_back(low);
      system.push_back(high);
    }
    for (int extra = 0; extra < 4; ++extra)
      system.push_back({{coeff(rng), coeff(rng), coeff(rng)}, constant(rng)});

    std::set<std::vector<int64_t>> expected;
    for (int64_t a = -6; a <= 6; ++a)
      for (int64_t b = -6; b <= 6; ++b)
        for (int64_t c = -6; c <= 6; ++c)
          if (satisfies(system, {a, b, c}))
            expected.insert({a, b, c});

    llvm::Expected<LoopNest> nest = LoopNest::build(names, system);
    ASSERT_TRUE(!!nest) << llvm::toString(nest.takeError());
    std::set<std::vector<int64_t>> visited;
    bool allSatisfy = true;
    llvm::Error error = nest->forEach([&](llvm::ArrayRef<int64_t> point) {
      std::vector<int64_t> copy(point.begin(), point.end());
      allSatisfy &= satisfies(system, copy);
      visited.insert(copy);
      return true;
    });
    ASSERT_FALSE(!!error) << llvm::toString(std::move(error));
    EXPECT_TRUE(allSatisfy) << "trial " << trial;
    EXPECT_EQ(visited, expected) << "trial " << trial;
  }
}

TEST(IndexSpace, UnboundedVariableIsReported) {
  // 0 <= a <= 3 and b >= a: b has no upper bound.
  std::vector<LinearInequality> system = {
      {{1, 0}, 0}, {{-1, 0}, 3}, {{-1, 1}, 0}};
  llvm::Expected<LoopNest> nest = LoopNest::build({"a", "b"}, system);
  ASSERT_FALSE(!!nest);
  EXPECT_EQ(llvm::toString(nest.takeError()),
            "index variable 'b' has no finite upper bound");
}

TEST(IndexSpace, InfeasibleSystemHasNoPoints) {
  // 0 <= a <= -1 (an empty dimension).
  std::vector<LinearInequality> system = {{{1}, 0}, {{-1}, -1}};
  llvm::Expected<LoopNest> nest = LoopNest::build({"a"}, system);
  ASSERT_TRUE(!!nest) << llvm::toString(nest.takeError());
  int visits = 0;
  llvm::cantFail(nest->forEach([&](llvm::ArrayRef<int64_t>) {
    ++visits;
    return true;
  }));
  EXPECT_EQ(visits, 0);
}

TEST(IndexSpace, NoVariablesVisitsTheEmptyTupleOnce) {
  llvm::Expected<LoopNest> nest = LoopNest::build({}, {});
  ASSERT_TRUE(!!nest) << llvm::toString(nest.takeError());
  int visits = 0;
  llvm::cantFail(nest->forEach([&](llvm::ArrayRef<int64_t> point) {
    EXPECT_TRUE(point.empty());
    ++visits;
    return true;
  }));
  EXPECT_EQ(visits, 1);
}

} // namespace
