//===- ElementwiseTest.cpp - Elementwise statements in the interpreter ----===//

#include "ProgramBuilder.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace tilec;
using namespace tilec::testing;

namespace {

/// Runs a program whose single output `O` is the elementwise `makeValue(b)`,
/// where the builder already holds the inputs.
template <typename MakeValue>
RunResult runElementwise(ProgramBuilder &builder, DType dtype, Shape shape,
                         MakeValue makeValue,
                         const std::vector<HostTensor> &inputs) {
  unsigned out = builder.tensor("O", dtype, std::move(shape));
  builder.elementwise(out, makeValue());
  builder.output(out);
  return run(builder.get(), inputs);
}

TEST(Elementwise, BroadcastsTrailingDimensions) {
  ProgramBuilder builder;
  unsigned a = builder.input("A", DType::F32, {2, 3});
  unsigned b = builder.input("B", DType::F32, {3});
  RunResult result =
      runElementwise(builder, DType::F32, {2, 3},
                     [&] {
                       return binary(BinaryOp::Add, tensorRef(builder.get(), a),
                                     tensorRef(builder.get(), b));
                     },
                     {makeTensor(DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6}),
                      makeTensor(DType::F32, {3}, {10, 20, 30})});
  ASSERT_TRUE(result.outputs) << result.diagnostics;
  EXPECT_EQ(elements(result.outputs->front()),
            (std::vector<double>{11, 22, 33, 14, 25, 36}));
}

TEST(Elementwise, BroadcastsSizeOneDimensionsBothWays) {
  // An outer product: [2, 1] * [1, 3].
  ProgramBuilder builder;
  unsigned a = builder.input("A", DType::I32, {2, 1});
  unsigned b = builder.input("B", DType::I32, {1, 3});
  RunResult result =
      runElementwise(builder, DType::I32, {2, 3},
                     [&] {
                       return binary(BinaryOp::Mul, tensorRef(builder.get(), a),
                                     tensorRef(builder.get(), b));
                     },
                     {makeTensor(DType::I32, {2, 1}, {2, 3}),
                      makeTensor(DType::I32, {1, 3}, {1, 10, 100})});
  ASSERT_TRUE(result.outputs) << result.diagnostics;
  EXPECT_EQ(elements(result.outputs->front()),
            (std::vector<double>{2, 20, 200, 3, 30, 300}));
}

TEST(Elementwise, ScalarConstantsBroadcast) {
  ProgramBuilder builder;
  unsigned a = builder.input("A", DType::F32, {3});
  RunResult result =
      runElementwise(builder, DType::F32, {3},
                     [&] {
                       return binary(BinaryOp::Div, tensorRef(builder.get(), a),
                                     constant(2.0, DType::F32));
                     },
                     {makeTensor(DType::F32, {3}, {1, 2, 3})});
  ASSERT_TRUE(result.outputs) << result.diagnostics;
  EXPECT_EQ(elements(result.outputs->front()),
            (std::vector<double>{0.5, 1, 1.5}));
}

TEST(Elementwise, IndexGivesCoordinates) {
  ProgramBuilder builder;
  unsigned a = builder.input("A", DType::F32, {2, 3});
  RunResult result = runElementwise(
      builder, DType::I32, {2, 3},
      [&] {
        return binary(BinaryOp::Add,
                      binary(BinaryOp::Mul, indexOf(builder.get(), a, 0),
                             constant(int64_t(10), DType::I32)),
                      indexOf(builder.get(), a, 1));
      },
      {makeTensor(DType::F32, {2, 3}, {})});
  ASSERT_TRUE(result.outputs) << result.diagnostics;
  EXPECT_EQ(elements(result.outputs->front()),
            (std::vector<double>{0, 1, 2, 10, 11, 12}));
}

TEST(Elementwise, EachNodeRoundsToItsDtype) {
  // In f16, (1 + 2^-11) rounds to 1 before the subtraction: the result is 0,
  // not 2^-11.
  ProgramBuilder builder;
  unsigned a = builder.input("A", DType::F16, {});
  RunResult result = runElementwise(
      builder, DType::F16, {},
      [&] {
        return binary(BinaryOp::Sub,
                      binary(BinaryOp::Add, tensorRef(builder.get(), a),
                             constant(std::ldexp(1.0, -11), DType::F16)),
                      tensorRef(builder.get(), a));
      },
      {makeTensor(DType::F16, {}, {1})});
  ASSERT_TRUE(result.outputs) << result.diagnostics;
  EXPECT_EQ(elements(result.outputs->front()), (std::vector<double>{0}));
}

TEST(Elementwise, CastsAndSelect) {
  // select(A > 0, as_int(A, 8), -1) with A in f32.
  ProgramBuilder builder;
  unsigned a = builder.input("A", DType::F32, {4});
  RunResult result = runElementwise(
      builder, DType::I8, {4},
      [&] {
        return select(binary(BinaryOp::Gt, tensorRef(builder.get(), a),
                             constant(0.0, DType::F32)),
                      cast(tensorRef(builder.get(), a), DType::I8),
                      constant(int64_t(-1), DType::I8));
      },
      {makeTensor(DType::F32, {4}, {2.9, -4, 1000, NAN})});
  ASSERT_TRUE(result.outputs) << result.diagnostics;
  EXPECT_EQ(elements(result.outputs->front()),
            (std::vector<double>{2, -1, 127, -1}));
}

TEST(Elementwise, DivisionByZeroIsReportedWithTheElement) {
  ProgramBuilder builder;
  unsigned a = builder.input("A", DType::I32, {3});
  RunResult result = runElementwise(
      builder, DType::I32, {3},
      [&] {
        return binary(BinaryOp::Div, constant(int64_t(6), DType::I32),
                      tensorRef(builder.get(), a));
      },
      {makeTensor(DType::I32, {3}, {1, 2, 0})});
  EXPECT_FALSE(result.outputs);
  EXPECT_NE(result.diagnostics.find("integer division by zero at element [2]"),
            std::string::npos)
      << result.diagnostics;
}

TEST(Elementwise, BothSidesOfASelectAreEvaluated) {
  // select(A != 0, 6 / A, 0) still divides by the zero element.
  ProgramBuilder builder;
  unsigned a = builder.input("A", DType::I32, {2});
  RunResult result = runElementwise(
      builder, DType::I32, {2},
      [&] {
        return select(binary(BinaryOp::Ne, tensorRef(builder.get(), a),
                             constant(int64_t(0), DType::I32)),
                      binary(BinaryOp::Div, constant(int64_t(6), DType::I32),
                             tensorRef(builder.get(), a)),
                      constant(int64_t(0), DType::I32));
      },
      {makeTensor(DType::I32, {2}, {3, 0})});
  EXPECT_FALSE(result.outputs);
  EXPECT_NE(result.diagnostics.find("integer division by zero at element [1]"),
            std::string::npos)
      << result.diagnostics;
}

TEST(Elementwise, ReshapeAndShape) {
  ProgramBuilder builder;
  unsigned a = builder.input("A", DType::I16, {2, 3});
  unsigned reshaped = builder.tensor("R", DType::I16, {3, 2});
  unsigned extents = builder.tensor("S", DType::I32, {2});
  builder.reshape(reshaped, a);
  builder.shapeOf(extents, reshaped);
  builder.output(reshaped);
  builder.output(extents);
  RunResult result =
      run(builder.get(), {makeTensor(DType::I16, {2, 3}, {1, 2, 3, 4, 5, 6})});
  ASSERT_TRUE(result.outputs) << result.diagnostics;
  EXPECT_EQ((*result.outputs)[0].shape(), (Shape{3, 2}));
  EXPECT_EQ(elements((*result.outputs)[0]),
            (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ((*result.outputs)[1].dtype(), DType::I32);
  EXPECT_EQ(elements((*result.outputs)[1]), (std::vector<double>{3, 2}));
}

TEST(Elementwise, BuiltinCallsBroadcast) {
  // max(A, B) over [2] and [] operands, then relu of a negation.
  ProgramBuilder builder;
  unsigned a = builder.input("A", DType::F32, {2});
  unsigned b = builder.input("B", DType::F32, {});
  RunResult result = runElementwise(
      builder, DType::F32, {2},
      [&] {
        std::vector<std::unique_ptr<Expr>> args;
        args.push_back(tensorRef(builder.get(), a));
        args.push_back(tensorRef(builder.get(), b));
        std::vector<std::unique_ptr<Expr>> relu;
        relu.push_back(
            unary(UnaryOp::Neg, call(Builtin::Max, std::move(args))));
        return call(Builtin::Relu, std::move(relu));
      },
      {makeTensor(DType::F32, {2}, {-5, 3}), makeTensor(DType::F32, {}, {-2})});
  ASSERT_TRUE(result.outputs) << result.diagnostics;
  EXPECT_EQ(elements(result.outputs->front()), (std::vector<double>{2, 0}));
}

} // namespace
