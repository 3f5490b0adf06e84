//===- SemaTest.cpp - Tests of specialisation -----------------------------===//

#include "FrontendTestUtil.h"

#include <gtest/gtest.h>

using namespace tilec;
using namespace tilec::test;

namespace {

/// Compiles `source` and expects it to fail with `message` among the
/// diagnostics.
void expectError(llvm::StringRef source, const std::vector<ArgBinding> &args,
                 llvm::StringRef message) {
  TileCompiler compiler;
  EXPECT_FALSE(compiler.compile(source, args)) << source.str();
  EXPECT_NE(compiler.getDiagnostics().find(message.str()), std::string::npos)
      << "expected: " << message.str()
      << "\nreported: " << compiler.getDiagnostics();
}

const TensorDecl &getTensor(const Program &program, llvm::StringRef name) {
  for (const TensorDecl &tensor : program.tensors)
    if (tensor.name == name)
      return tensor;
  static TensorDecl missing;
  ADD_FAILURE() << "no tensor " << name.str();
  return missing;
}

const Expr &getValue(const Program &program, size_t statement) {
  return *std::get<Elementwise>(program.statements[statement].op).value;
}

Rational r(int64_t num, int64_t den = 1) { return Rational{num, den}; }

TEST(SemaTest, Matmul) {
  TileCompiler compiler;
  std::optional<Program> program = compiler.compile(
      "function matmul(A[M, K], B[K, N]) -> (C) {\n"
      "  C[i, j : M, N] = +(A[i, k] * B[k, j]);\n"
      "}\n",
      {arg("A", DType::F32, {8, 16}), arg("B", DType::F32, {16, 4})});
  ASSERT_TRUE(program) << compiler.getDiagnostics();
  EXPECT_EQ(program->name, "matmul");
  EXPECT_EQ(program->dims.at("M"), 8);
  EXPECT_EQ(program->dims.at("K"), 16);
  EXPECT_EQ(program->dims.at("N"), 4);
  ASSERT_EQ(program->outputs.size(), 1u);
  const TensorDecl &output = program->tensors[program->outputs[0]];
  EXPECT_EQ(output.shape, (Shape{8, 4}));
  EXPECT_EQ(output.dtype, DType::F32);
  EXPECT_TRUE(output.isOutput);
  const auto &contraction = std::get<Contraction>(program->statements[0].op);
  EXPECT_EQ(contraction.indexNames, (std::vector<std::string>{"i", "j", "k"}));
  EXPECT_EQ(contraction.operands[0].indices[1].coeffs,
            (std::vector<Rational>{r(0), r(0), r(1)}));
}

TEST(SemaTest, PolynomialsAreExactRationals) {
  TileCompiler compiler;
  std::optional<Program> program = compiler.compile(
      "function (I[N], K[KN]) -> (O) {\n"
      "  O[x/2 : (N + 1)/2] = +(I[(2*x + k - 1 + x)/2] * K[N - 1 - k]), "
      "3*x/4 - k < N - KN + 1;\n"
      "}\n",
      {arg("I", DType::F32, {9}), arg("K", DType::F32, {3})});
  ASSERT_TRUE(program) << compiler.getDiagnostics();
  const auto &contraction = std::get<Contraction>(program->statements[0].op);
  EXPECT_EQ(getTensor(*program, "O").shape, (Shape{5}));
  EXPECT_EQ(contraction.outputIndices[0].coeffs,
            (std::vector<Rational>{r(1, 2), r(0)}));
  const AffinePoly &input = contraction.operands[0].indices[0];
  EXPECT_EQ(input.coeffs, (std::vector<Rational>{r(3, 2), r(1, 2)}));
  EXPECT_EQ(input.constant, r(-1, 2));
  const AffinePoly &kernel = contraction.operands[1].indices[0];
  EXPECT_EQ(kernel.coeffs, (std::vector<Rational>{r(0), r(-1)}));
  EXPECT_EQ(kernel.constant, r(8));
  ASSERT_EQ(contraction.constraints.size(), 1u);
  EXPECT_EQ(contraction.constraints[0].poly.coeffs,
            (std::vector<Rational>{r(3, 4), r(-1)}));
  EXPECT_EQ(contraction.constraints[0].bound, 7);
}

TEST(SemaTest, ContractionResultTypes) {
  TileCompiler compiler;
  std::optional<Program> program =
      compiler.compile("function (A[N], B[N], C[N], D[N]) -> (S, E, M, AM) {\n"
                       "  S[i : N] = +(A[i] * B[i]);\n"
                       "  E[i : N] = +(A[i] == B[i]);\n"
                       "  M[] = >(C[i]);\n"
                       "  AM[] = >(A[i] == B[i] ? D[i]);\n"
                       "}\n",
                       {arg("A", DType::I8, {4}), arg("B", DType::U8, {4}),
                        arg("C", DType::Bool, {4}), arg("D", DType::I64, {4})});
  ASSERT_TRUE(program) << compiler.getDiagnostics();
  EXPECT_EQ(getTensor(*program, "S").dtype, DType::I16);
  EXPECT_EQ(getTensor(*program, "E").dtype, DType::Bool);
  EXPECT_EQ(getTensor(*program, "M").dtype, DType::Bool);
  EXPECT_EQ(getTensor(*program, "M").shape, Shape{});
  EXPECT_EQ(getTensor(*program, "AM").dtype, DType::I64);
}

TEST(SemaTest, IndexOrderIsFirstNonZeroAppearance) {
  TileCompiler compiler;
  std::optional<Program> program =
      compiler.compile("function (A[N, N]) -> (O) {\n"
                       "  O[j - j + i : N] = +(A[i, j]);\n"
                       "}\n",
                       {arg("A", DType::F32, {3, 3})});
  ASSERT_TRUE(program) << compiler.getDiagnostics();
  const auto &contraction = std::get<Contraction>(program->statements[0].op);
  EXPECT_EQ(contraction.indexNames, (std::vector<std::string>{"i", "j"}));
}

TEST(SemaTest, Promotion) {
  TileCompiler compiler;
  std::optional<Program> program =
      compiler.compile("function (I[N], U, F, H, BF, B, L, UL) -> "
                       "(O1, O2, O3, O4, O5, O6, O7) {\n"
                       "  O1 = I + F;\n"
                       "  O2 = I + U;\n"
                       "  O3 = L + UL;\n"
                       "  O4 = H * BF;\n"
                       "  O5 = B + B;\n"
                       "  O6 = B + I;\n"
                       "  O7 = I < U;\n"
                       "}\n",
                       {arg("I", DType::I8, {4}), arg("U", DType::U8, {4}),
                        arg("F", DType::F32, {4}), arg("H", DType::F16, {4}),
                        arg("BF", DType::BF16, {4}), arg("B", DType::Bool, {4}),
                        arg("L", DType::I64, {4}), arg("UL", DType::U64, {4})});
  ASSERT_TRUE(program) << compiler.getDiagnostics();
  EXPECT_EQ(getTensor(*program, "O1").dtype, DType::F32);
  EXPECT_EQ(getTensor(*program, "O2").dtype, DType::I16);
  EXPECT_EQ(getTensor(*program, "O3").dtype, DType::I64);
  EXPECT_EQ(getTensor(*program, "O4").dtype, DType::F32);
  EXPECT_EQ(getTensor(*program, "O5").dtype, DType::I32);
  EXPECT_EQ(getTensor(*program, "O6").dtype, DType::I8);
  EXPECT_EQ(getTensor(*program, "O7").dtype, DType::Bool);

  // I + F: I is cast to f32, F is used as is.
  const Expr &sum = getValue(*program, 0);
  ASSERT_EQ(sum.operands[0]->kind, Expr::Kind::Cast);
  EXPECT_EQ(sum.operands[0]->dtype, DType::F32);
  EXPECT_EQ(sum.operands[0]->operands[0]->kind, Expr::Kind::Tensor);
  EXPECT_EQ(sum.operands[1]->kind, Expr::Kind::Tensor);
  // I < U compares in i16 and yields bool.
  const Expr &less = getValue(*program, 6);
  EXPECT_EQ(less.operands[0]->dtype, DType::I16);
  EXPECT_EQ(less.operands[1]->dtype, DType::I16);
}

TEST(SemaTest, LiteralTyping) {
  TileCompiler compiler;
  std::optional<Program> program = compiler.compile(
      "function (H[N], I, U) -> (O1, O2, O3, O4, O5, O6, O7, O8) {\n"
      "  O1 = H * 2;\n"
      "  O2 = I * 1.5;\n"
      "  O3 = 3;\n"
      "  O4 = 3000000000;\n"
      "  O5 = 2.5;\n"
      "  O6 = U - 1;\n"
      "  O7 = I * -1;\n"
      "  O8 = H / N;\n"
      "}\n",
      {arg("H", DType::F16, {4}), arg("I", DType::I32, {4}),
       arg("U", DType::U8, {4})});
  ASSERT_TRUE(program) << compiler.getDiagnostics();
  EXPECT_EQ(getTensor(*program, "O1").dtype, DType::F16);
  const Expr &two = *getValue(*program, 0).operands[1];
  EXPECT_EQ(two.kind, Expr::Kind::Constant);
  EXPECT_EQ(two.dtype, DType::F16);
  EXPECT_EQ(std::get<double>(two.constant), 2.0);
  EXPECT_EQ(getTensor(*program, "O2").dtype, DType::F32);
  EXPECT_EQ(getTensor(*program, "O3").dtype, DType::I32);
  EXPECT_EQ(getTensor(*program, "O3").shape, Shape{});
  EXPECT_EQ(getTensor(*program, "O4").dtype, DType::I64);
  EXPECT_EQ(getTensor(*program, "O5").dtype, DType::F32);
  EXPECT_EQ(getTensor(*program, "O6").dtype, DType::U8);
  EXPECT_EQ(std::get<uint64_t>(getValue(*program, 5).operands[1]->constant),
            1u);
  const Expr &minusOne = *getValue(*program, 6).operands[1];
  EXPECT_EQ(minusOne.dtype, DType::I32);
  EXPECT_EQ(std::get<int64_t>(minusOne.constant), -1);
  const Expr &n = *getValue(*program, 7).operands[1];
  EXPECT_EQ(n.dtype, DType::F16);
  EXPECT_EQ(std::get<double>(n.constant), 4.0);
}

TEST(SemaTest, LiteralArithmeticFolds) {
  TileCompiler compiler;
  std::optional<Program> program =
      compiler.compile("function (S[], H[N]) -> (M, P, Q) {\n"
                       "  M = S / (N * 2 - 1);\n"
                       "  P = H * (2 * 0.25);\n"
                       "  Q = 1 / 2;\n"
                       "}\n",
                       {arg("S", DType::F64, {}), arg("H", DType::F16, {3})});
  ASSERT_TRUE(program) << compiler.getDiagnostics();
  const Expr &divisor = *getValue(*program, 0).operands[1];
  ASSERT_EQ(divisor.kind, Expr::Kind::Constant);
  EXPECT_EQ(divisor.dtype, DType::F64);
  EXPECT_EQ(std::get<double>(divisor.constant), 5.0);
  const Expr &factor = *getValue(*program, 1).operands[1];
  EXPECT_EQ(factor.dtype, DType::F16);
  EXPECT_EQ(std::get<double>(factor.constant), 0.5);
  // Division of two int literals is C integer division in i32.
  EXPECT_EQ(getTensor(*program, "Q").dtype, DType::I32);
  EXPECT_EQ(getValue(*program, 2).kind, Expr::Kind::Binary);

  expectError("function () -> (O) {\n  O = 4611686018427387904 * 4;\n}", {},
              "2:27: error: integer overflow in a constant expression");
}

TEST(SemaTest, Builtins) {
  TileCompiler compiler;
  std::optional<Program> program = compiler.compile(
      "function (I[N, M], F) -> (E, A, P, C, S, X, R, Q) {\n"
      "  E = exp(I);\n"
      "  A = abs(I);\n"
      "  P = pow(I, 2);\n"
      "  C = as_float(I, 64) + as_uint(F, 8);\n"
      "  S = select(I > 0, F, 0);\n"
      "  X = index(I, 1) + max(I, 3);\n"
      "  R = reshape(I, M * N);\n"
      "  Q = shape(I);\n"
      "}\n",
      {arg("I", DType::I32, {2, 3}), arg("F", DType::F32, {3})});
  ASSERT_TRUE(program) << compiler.getDiagnostics();
  EXPECT_EQ(getTensor(*program, "E").dtype, DType::F32);
  EXPECT_EQ(getValue(*program, 0).operands[0]->kind, Expr::Kind::Cast);
  EXPECT_EQ(getTensor(*program, "A").dtype, DType::I32);
  EXPECT_EQ(getTensor(*program, "P").dtype, DType::F32);
  EXPECT_EQ(getTensor(*program, "C").dtype, DType::F64);
  EXPECT_EQ(getTensor(*program, "S").dtype, DType::F32);
  EXPECT_EQ(getTensor(*program, "S").shape, (Shape{2, 3}));
  EXPECT_EQ(getValue(*program, 4).kind, Expr::Kind::Select);
  EXPECT_EQ(getTensor(*program, "X").dtype, DType::I32);
  EXPECT_EQ(getValue(*program, 5).operands[0]->kind, Expr::Kind::Index);
  EXPECT_EQ(getValue(*program, 5).operands[0]->axis, 1u);
  EXPECT_EQ(getTensor(*program, "R").shape, (Shape{6}));
  EXPECT_EQ(std::get<Reshape>(program->statements[6].op).input, 0u);
  EXPECT_EQ(getTensor(*program, "Q").shape, (Shape{2}));
  EXPECT_EQ(getTensor(*program, "Q").dtype, DType::I32);
}

TEST(SemaTest, BuiltinsTakeExpressionsThroughTemporaries) {
  TileCompiler compiler;
  std::optional<Program> program = compiler.compile(
      "function (S[M], Tmp0) -> (C, D, X) {\n"
      "  C = Tmp0 - reshape(S / 2, M, 1);\n"
      "  D = shape(S + 1) * 2;\n"
      "  X = index(reshape(S, 1, M) + Tmp0, 1);\n"
      "}\n",
      {arg("S", DType::F32, {3}), arg("Tmp0", DType::F32, {3, 3})});
  ASSERT_TRUE(program) << compiler.getDiagnostics();
  // Each value gets a statement before its reader, named after no name of
  // the function (Tmp0 is a parameter); a temporary's name is chosen before
  // those of the temporaries its value needs.
  std::vector<std::string> defined;
  for (const Statement &statement : program->statements)
    defined.push_back(program->tensors[statement.output].name);
  EXPECT_EQ(defined,
            (std::vector<std::string>{"Tmp2", "Tmp1", "C", "Tmp4", "Tmp3", "D",
                                      "Tmp6", "Tmp5", "X"}));
  EXPECT_EQ(getTensor(*program, "Tmp1").shape, (Shape{3, 1}));
  EXPECT_TRUE(std::holds_alternative<Reshape>(program->statements[1].op));
  EXPECT_TRUE(std::holds_alternative<ShapeOf>(program->statements[4].op));
  EXPECT_EQ(getTensor(*program, "D").shape, (Shape{1}));
  EXPECT_EQ(getTensor(*program, "X").shape, (Shape{3, 3}));
  EXPECT_EQ(getTensor(*program, "X").dtype, DType::I32);
}

TEST(SemaTest, Broadcasting) {
  TileCompiler compiler;
  std::optional<Program> program = compiler.compile(
      "function (A, B, S[]) -> (O) { O = A + B * S; }",
      {arg("A", DType::F32, {8, 1, 5}), arg("B", DType::F32, {4, 1}),
       arg("S", DType::F32, {})});
  ASSERT_TRUE(program) << compiler.getDiagnostics();
  EXPECT_EQ(getTensor(*program, "O").shape, (Shape{8, 4, 5}));
  EXPECT_EQ(getValue(*program, 0).operands[1]->shape, (Shape{4, 1}));

  expectError("function (A, B) -> (O) {\n  O = A + B;\n}",
              {arg("A", DType::F32, {8, 3}), arg("B", DType::F32, {4})},
              "test.tile:2:9: error: cannot broadcast shapes [8, 3] and [4]");
}

TEST(SemaTest, BindingErrors) {
  const char *source = "function (A[N, N], B[3]) -> (C) { C = A; }";
  expectError(source, {arg("A", DType::F32, {2, 2})},
              "1:20: error: parameter 'B' is not bound");
  expectError(source,
              {arg("A", DType::F32, {2, 2}), arg("B", DType::F32, {3}),
               arg("Z", DType::F32, {3})},
              "1:1: error: an argument is bound to 'Z', which is not a "
              "parameter of this function (parameters: A, B)");
  expectError(source,
              {arg("A", DType::F32, {2, 2}), arg("B", DType::F32, {3}),
               arg("B", DType::F32, {3})},
              "1:20: error: parameter 'B' is bound more than once");
  expectError(source, {arg("A", DType::F32, {2}), arg("B", DType::F32, {3})},
              "1:11: error: parameter 'A' has rank 2 but is bound to f32[2]");
  expectError(source, {arg("A", DType::F32, {2, 5}), arg("B", DType::F32, {3})},
              "1:16: error: dimension 'N' is 5 in A: f32[2, 5] but 2 in A: "
              "f32[2, 5]");
  expectError(source, {arg("A", DType::F32, {2, 5}), arg("B", DType::F32, {3})},
              "test.tile:1:13: note: 'N' is first declared here");
  expectError(source, {arg("A", DType::F32, {2, 2}), arg("B", DType::I8, {4})},
              "1:22: error: parameter 'B' requires extent 3 at axis 0 but is "
              "bound to B: i8[4]");
  expectError(source,
              {arg("A", DType::F32, {2, 2}), arg("B", DType::F32, {-3})},
              "parameter 'B' is bound to a negative extent: f32[-3]");
  expectError(source,
              {arg("A", DType::F32, {INT64_MAX, 2}), arg("B", DType::F32, {3})},
              "1:11: error: the element count of shape [9223372036854775807, "
              "2] overflows a 64-bit integer");
}

// What the JIT and the CLI's own checks keep from the front end: a binding
// of an integer parameter, which takes its default.
TEST(SemaTest, IntegerParameterBindingErrors) {
  const char *source = "function (A[N], K: int = 2) -> (C) { C = A * K; }";
  expectError(source, {arg("A", DType::F32, {2}), arg("K", DType::I32, {})},
              "1:17: error: an argument is bound to 'K', an integer "
              "parameter: the entry function's integer parameters take their "
              "defaults");
  expectError(source, {arg("A", DType::F32, {2}), arg("Z", DType::F32, {3})},
              "(parameters: A)");
  TileCompiler compiler;
  std::optional<Program> program =
      compiler.compile(source, {arg("A", DType::F32, {2})});
  ASSERT_TRUE(program) << compiler.getDiagnostics();
  EXPECT_EQ(program->inputs.size(), 1u);
}

TEST(SemaTest, NameErrors) {
  std::vector<ArgBinding> args = {arg("A", DType::F32, {4})};
  expectError("function (A[N]) -> (B) {\n  B = A;\n  B = A;\n}", args,
              "3:3: error: redefinition of 'B'");
  expectError("function (A[N]) -> (B) {\n  B = A;\n  B = A;\n}", args,
              "2:3: note: 'B' is first defined here");
  expectError("function (A[N]) -> (N) {\n  N = A;\n}", args,
              "2:3: error: redefinition of 'N'");
  expectError("function (A[N]) -> (b) {\n  b = A;\n}", args,
              "2:3: error: 'b' cannot name a tensor: tensor and dimension "
              "names start with an upper-case letter");
  expectError("function (A[N]) -> (B) {\n  B = A + Z;\n}", args,
              "2:11: error: use of undefined tensor 'Z'");
  expectError("function (A[N]) -> (B) {\n  B = A + i;\n}", args,
              "2:11: error: index variable 'i' used outside a contraction");
  expectError("function (A[N]) -> (B) {\n  B[i : N] = +(N[i]);\n}", args,
              "2:16: error: 'N' is a dimension, not a tensor");
  expectError("function (A[N]) -> (B, Q) {\n  B = A;\n}", args,
              "1:24: error: result 'Q' is not defined in the function body");
  expectError("function (A[N]) -> (A) {\n}", args,
              "1:21: error: result 'A' is a parameter");
  expectError("function (A[N]) -> (B, B) {\n  B = A;\n}", args,
              "1:24: error: 'B' is returned twice");
}

TEST(SemaTest, ContractionErrors) {
  std::vector<ArgBinding> args = {arg("A", DType::F32, {4, 4}),
                                  arg("D", DType::F32, {4})};
  const char *header = "function (A[N, M], D[N]) -> (O) {\n";
  auto check = [&](const char *statement, const char *message) {
    expectError(std::string(header) + statement + "\n}", args, message);
  };
  check("  O[i : N] = +(A[i]);",
        "2:16: error: 'A' has rank 2 (f32[4, 4]) but is accessed with 1 "
        "indices");
  check("  O[i, j : N] = +(A[i, j]);",
        "2:3: error: 'O' has 2 index expressions but 1 sizes");
  check("  O[i : N - 5] = +(A[i, j]);", "2:11: error: output size is "
                                        "negative (-1)");
  check("  O[i : N] = +(A[i * j, j]);",
        "2:20: error: index polynomials must be affine");
  check("  O[i : N] = +(A[i / j, j]);",
        "2:20: error: index polynomials can only be divided by a constant");
  check("  O[i : N] = +(A[i, j / 0]);",
        "2:23: error: division by zero in an index polynomial");
  check("  O[i : N] = +(A[i, 1.5]);",
        "2:21: error: not allowed in an index polynomial");
  check("  O[i : N] = +(A[i, D]);", "2:21: error: 'D' is not a dimension");
  check("  O[i : N / 0] = +(A[i, j]);",
        "2:11: error: division by zero in a size expression");
  check("  O[i : N] = +(A[i, j - j]);",
        "2:21: error: index variable 'j' is not bounded");
  check("  O[i : M] = +(A[i, j]) default A;",
        "2:33: error: the default tensor 'A' is f32[4, 4] but the output "
        "'O' is f32[4]");
  check("  O[i : N] = +(A[i, j]), j < K;",
        "2:30: error: 'K' is not a dimension");
  check("  O[i : N] = +(A[i, 9223372036854775807 * j + 9223372036854775807 "
        "* j]);",
        "error: index polynomial overflows 64-bit arithmetic");
  check("  O[i : 9223372036854775807 + N] = +(A[i, j]);",
        "2:29: error: integer overflow in a size expression");
  check("  O[i, j : 4294967296, 4294967296] = +(A[i, j]);",
        "2:3: error: the element count of shape [4294967296, 4294967296] "
        "overflows a 64-bit integer");
}

TEST(SemaTest, ElementwiseErrors) {
  std::vector<ArgBinding> args = {arg("I", DType::I32, {4}),
                                  arg("F", DType::F32, {4}),
                                  arg("U", DType::U8, {4})};
  const char *header = "function (I[N], F, U) -> (O) {\n";
  auto check = [&](const char *statement, const char *message) {
    expectError(std::string(header) + statement + "\n}", args, message);
  };
  check("  O = U + 300;",
        "2:11: error: integer literal 300 does not fit in u8");
  check("  O = U * -1;", "2:11: error: integer literal -1 does not fit in u8");
  check("  O = I / 0;", "2:9: error: integer division by zero");
  check("  O = I % 0;", "2:9: error: integer division by zero");
  check("  O = F % 2;", "2:9: error: '%' needs integer operands, but they "
                        "are f32");
  check("  O = F & I;", "2:9: error: '&' needs integer operands");
  check("  O = ~F;", "2:7: error: '~' needs an integer or bool operand, not "
                     "f32");
  check("  O = I << 32;", "2:9: error: shift amount 32 is out of range for "
                          "i32 (0 to 31)");
  check("  O = I >> -1;", "2:9: error: shift amount -1 is out of range");
  check("  O = I[0];", "2:7: error: indexing 'I[...]' is only allowed in "
                       "contractions");
  check("  O = exp(I, F);", "2:7: error: 'exp' takes 1 argument but 2 were "
                            "given");
  check("  O = as_float(I, 8);", "2:19: error: the width of 'as_float' must "
                                 "be 16, 32 or 64");
  check("  O = as_int(I, N);", "2:17: error: the width of 'as_int' must be "
                               "8, 16, 32 or 64");
  check("  O = frob(I);", "2:7: error: unknown function 'frob'");
  check("  O = reshape(I, 3);", "2:7: error: cannot reshape 'I' (i32[4]) to "
                                "[3]: the element counts differ");
  check("  O = reshape(I, -4);", "2:18: error: reshape extent is negative");
  check("  O = index(I, 1);", "2:16: error: the axis of 'index' must be an "
                              "integer literal below the rank of 'I'");
  check("  O = reshape(F + 1, 3);", "2:7: error: cannot reshape 'Tmp0' "
                                    "(f32[4]) to [3]");
}

TEST(SemaTest, ReportsIndependentErrorsAndNoCascade) {
  TileCompiler compiler;
  EXPECT_FALSE(compiler.compile("function (A[N]) -> (B, C, D) {\n"
                                "  B = A + Z;\n"
                                "  C = B * 2;\n"
                                "  D = A + Y;\n"
                                "}\n",
                                {arg("A", DType::F32, {4})}));
  const std::string &text = compiler.getDiagnostics();
  EXPECT_NE(text.find("2:11: error: use of undefined tensor 'Z'"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("4:11: error: use of undefined tensor 'Y'"),
            std::string::npos)
      << text;
  // C uses the failed B: no second error about it.
  EXPECT_EQ(text.find("3:"), std::string::npos) << text;
}

} // namespace
