//===- StridedRowsTest.cpp - The strided walk against the definition ------===//
//
// The interpreter folds whole rows of a contraction by precomputed strides
// where it can (StridedRows.h) and visits every other tuple on its own. Both
// walks must give the same outputs bit for bit, and the same errors: random
// contractions (integer and rational coefficients, padding, constraints,
// defaults, every aggregation and combination, mixed dtypes) run both ways.
//
//===----------------------------------------------------------------------===//

#include "StridedRows.h"
#include "Evaluation.h"
#include "ProgramBuilder.h"
#include "WorkProgress.h"

#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace tilec;
using namespace tilec::interp;
using namespace tilec::testing;

namespace {

struct WalkResult {
  std::optional<HostTensor> output;
  std::string diagnostics;
};

/// Evaluates the one contraction of `program` walking it as `walk` says.
WalkResult evaluateWith(const Program &program,
                        const std::vector<HostTensor> &inputs,
                        ContractionWalk walk) {
  WalkResult result;
  llvm::SourceMgr sourceMgr;
  captureDiagnostics(sourceMgr, result.diagnostics);
  InterpretProgress noProgress;
  WorkProgress progress(noProgress, 1);
  TensorTable table(program, sourceMgr, progress);
  for (size_t i = 0; i < inputs.size(); ++i)
    table.bind(program.inputs[i], inputs[i]);
  const Statement &statement = program.statements.front();
  result.output = evaluateContraction(
      statement, std::get<Contraction>(statement.op), table, walk);
  return result;
}

/// Random contractions small enough to run both ways in milliseconds.
class RandomContraction {
public:
  explicit RandomContraction(unsigned seed) : random(seed) {}

  void build() {
    static const char *const names[] = {"i", "j", "k", "l"};
    indexNames.assign(names, names + pick(1, 4));
    rational = chance(0.15);
    DType resultTypes[] = {DType::F32, DType::F32, DType::F64, DType::F16,
                           DType::I32};
    DType operandTypes[] = {DType::F32,  DType::F32, DType::F64,
                            DType::BF16, DType::I8,  DType::Bool};
    AggregationKind aggregations[] = {
        AggregationKind::Sum, AggregationKind::Sum, AggregationKind::Product,
        AggregationKind::Max, AggregationKind::Min, AggregationKind::Assign};
    CombinationKind combinations[] = {
        CombinationKind::None, CombinationKind::Add, CombinationKind::Mul,
        CombinationKind::Mul};
    DType resultType = resultTypes[pick(0, 4)];
    AggregationKind aggregation = aggregations[pick(0, 5)];
    CombinationKind combination = combinations[pick(0, 3)];

    Shape outputShape = randomShape();
    std::vector<AccessSpec> operands;
    unsigned operandCount = combination == CombinationKind::None ? 1 : 2;
    for (unsigned i = 0; i < operandCount; ++i) {
      DType dtype = operandTypes[pick(0, 5)];
      Shape shape = randomShape();
      operands.push_back({builder.input("X" + std::to_string(i), dtype, shape),
                          randomAccess(shape.size(), i == 0)});
      inputs.push_back(randomTensor(dtype, shape));
    }
    std::optional<unsigned> defaults;
    if (chance(0.2)) {
      defaults = builder.input("D", resultType, outputShape);
      inputs.push_back(randomTensor(resultType, outputShape));
    }
    std::vector<std::pair<std::string, int64_t>> constraints;
    for (int c = pick(0, 2); c > 0; --c)
      constraints.push_back({randomPoly(false), pick(1, 6)});
    unsigned out = builder.tensor("O", resultType, outputShape);
    Contraction &contraction = builder.contraction(
        out, indexNames, randomAccess(outputShape.size(), false), aggregation,
        combination, operands, constraints);
    contraction.defaultTensor = defaults;
    builder.output(out);
  }

  const Program &getProgram() const { return builder.get(); }
  const std::vector<HostTensor> &getInputs() const { return inputs; }

private:
  int64_t pick(int64_t low, int64_t high) {
    return std::uniform_int_distribution<int64_t>(low, high)(random);
  }
  bool chance(double p) { return std::bernoulli_distribution(p)(random); }

  Shape randomShape() {
    Shape shape(pick(1, 3));
    for (int64_t &extent : shape)
      extent = pick(1, 6);
    return shape;
  }

  /// "2*i - k + 1": mostly one variable with coefficient 1 (as in most
  /// programs), sometimes several, negative or rational ones, and a
  /// constant that pads or shifts.
  std::string randomPoly(bool allowRational) {
    std::string text;
    for (const std::string &name : indexNames) {
      if (!chance(0.4))
        continue;
      static const int64_t coefficients[] = {1, 1, 1, 2, -1, -2, 3};
      int64_t c = coefficients[pick(0, 6)];
      text += (c < 0 ? " - " : " + ") + std::to_string(std::abs(c));
      if (allowRational && rational && chance(0.5))
        text += "/2";
      text += "*" + name;
    }
    int64_t constant = chance(0.6) ? 0 : pick(-2, 2);
    text += (constant < 0 ? " - " : " + ") + std::to_string(std::abs(constant));
    return text.substr(text[1] == '+' ? 3 : 1);
  }

  /// The polynomials of an access of `rank`. The first operand names every
  /// index variable once, so that each has a finite range.
  std::string randomAccess(size_t rank, bool boundsEveryIndex) {
    std::vector<std::string> polys(rank);
    for (std::string &poly : polys)
      poly = randomPoly(true);
    if (boundsEveryIndex)
      for (size_t k = 0; k < indexNames.size(); ++k)
        polys[k % rank] += " + " + indexNames[k];
    std::string text;
    for (const std::string &poly : polys)
      text += (text.empty() ? "" : ", ") + poly;
    return text;
  }

  /// Values of every sign and magnitude, so that the order of a sum shows in
  /// its rounding, with a few zeros, infinities and NaNs.
  HostTensor randomTensor(DType dtype, const Shape &shape) {
    HostTensor tensor(dtype, shape);
    for (int64_t i = 0; i < tensor.numElements(); ++i) {
      double value = std::ldexp(std::uniform_real_distribution<>(-1, 1)(random),
                                pick(-20, 20));
      int64_t special = pick(0, 60);
      if (special == 0)
        value = 0;
      else if (special == 1)
        value = std::numeric_limits<double>::infinity();
      else if (special == 2)
        value = std::nan("");
      if (!isFloat(dtype))
        value = pick(-100, 100);
      tensor.setDouble(i, value);
    }
    return tensor;
  }

  std::mt19937_64 random;
  std::vector<std::string> indexNames;
  bool rational = false;
  ProgramBuilder builder;
  std::vector<HostTensor> inputs;
};

bool sameBits(const HostTensor &a, const HostTensor &b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() &&
         std::memcmp(a.data(), b.data(), a.sizeInBytes()) == 0;
}

/// An access whose every polynomial has denominator `scale`.
AccessPlan access(std::vector<std::vector<int64_t>> coeffs, Shape shape,
                  int64_t scale = 1) {
  AccessPlan plan;
  for (std::vector<int64_t> &row : coeffs)
    plan.indices.push_back({std::move(row), 0, scale});
  plan.shape = std::move(shape);
  return plan;
}

Contraction matmulContraction() {
  Contraction contraction;
  contraction.indexNames = {"i", "j", "k"};
  contraction.aggregation = AggregationKind::Sum;
  contraction.combination = CombinationKind::Mul;
  return contraction;
}

TEST(StridedRows, FoldsTheValidRowsOfAMatmul) {
  // C[i, j] = +(A[i, k] * B[k, j]) over A: 2x3, B: 3x2, k innermost.
  HostTensor a = makeTensor(DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  HostTensor b = makeTensor(DType::F32, {3, 2}, {7, 8, 9, 10, 11, 12});
  Contraction contraction = matmulContraction();
  std::vector<AccessPlan> accesses = {access({{1, 0, 0}, {0, 1, 0}}, {2, 2}),
                                      access({{1, 0, 0}, {0, 0, 1}}, {2, 3}),
                                      access({{0, 0, 1}, {0, 1, 0}}, {3, 2})};
  const HostTensor *operands[] = {&a, &b};
  std::optional<StridedRows> rows =
      StridedRows::plan(contraction, DType::F32, accesses, {}, operands);
  ASSERT_TRUE(rows);
  std::vector<Value> accumulators(4, 0.0);
  StridedRows::Scratch scratch;
  // Row i = 1, j = 0, k from 0 to 2: 4*7 + 5*9 + 6*11.
  ASSERT_TRUE(rows->foldRow({1, 0}, 0, 2, accumulators, scratch));
  EXPECT_EQ(std::get<double>(accumulators[2]), 139);
  // A row that reads past A's columns is left to the general visit.
  EXPECT_FALSE(rows->foldRow({0, 0}, 1, 3, accumulators, scratch));
  EXPECT_EQ(std::get<double>(accumulators[0]), 0);
}

TEST(StridedRows, LeavesRationalAccessesIntegersAndAssignToEachTuple) {
  HostTensor a = makeTensor(DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  HostTensor b = makeTensor(DType::F32, {3, 2}, {7, 8, 9, 10, 11, 12});
  const HostTensor *operands[] = {&a, &b};
  Contraction contraction = matmulContraction();
  std::vector<AccessPlan> integral = {access({{1, 0, 0}, {0, 1, 0}}, {2, 2}),
                                      access({{1, 0, 0}, {0, 0, 1}}, {2, 3}),
                                      access({{0, 0, 1}, {0, 1, 0}}, {3, 2})};
  std::vector<AccessPlan> rational = integral;
  rational[1] = access({{1, 0, 0}, {0, 0, 1}}, {2, 3}, /*scale=*/2);
  EXPECT_FALSE(
      StridedRows::plan(contraction, DType::F32, rational, {}, operands));
  EXPECT_FALSE(
      StridedRows::plan(contraction, DType::I32, integral, {}, operands));
  contraction.aggregation = AggregationKind::Assign;
  EXPECT_FALSE(
      StridedRows::plan(contraction, DType::F32, integral, {}, operands));
}

TEST(StridedRows, AgreesWithEachTupleBitForBitOnRandomContractions) {
  int failures = 0, floatResults = 0;
  for (unsigned seed = 0; seed < 3000; ++seed) {
    RandomContraction contraction(seed);
    contraction.build();
    WalkResult fast =
        evaluateWith(contraction.getProgram(), contraction.getInputs(),
                     ContractionWalk::StridedRows);
    WalkResult general =
        evaluateWith(contraction.getProgram(), contraction.getInputs(),
                     ContractionWalk::EachTuple);
    EXPECT_EQ(fast.diagnostics, general.diagnostics) << "seed " << seed;
    ASSERT_EQ(bool(fast.output), bool(general.output)) << "seed " << seed;
    if (fast.output && !sameBits(*fast.output, *general.output))
      ADD_FAILURE() << "seed " << seed << ": the outputs differ";
    failures += !fast.output;
    const Statement &statement = contraction.getProgram().statements.front();
    floatResults +=
        isFloat(contraction.getProgram().tensors[statement.output].dtype);
  }
  // Most programs run (a few fail both ways, as `=` conflicts), and most
  // have a float result.
  EXPECT_LT(failures, 1500);
  EXPECT_GT(floatResults, 1500);
}

} // namespace
