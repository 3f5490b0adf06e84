//===- ParserTest.cpp - Tests of the Tile parser --------------------------===//

#include "FrontendTestUtil.h"

#include <gtest/gtest.h>

using namespace tilec;
using namespace tilec::test;

namespace {

const ast::ContractionStmt &getContraction(const ast::Statement &statement) {
  return std::get<ast::ContractionStmt>(statement.body);
}

const ast::Expr &getValue(const ast::Statement &statement) {
  return *std::get<ast::ElementwiseStmt>(statement.body).value;
}

TEST(ParserTest, FunctionHeader) {
  TileCompiler compiler;
  const ast::Module *module =
      compiler.parse("function matmul(A[M, K], B[K, 3], S[], X) -> (C, D) {\n"
                     "  C[i, j : M, 3] = +(A[i, k] * B[k, j]);\n"
                     "  D = X;\n"
                     "}\n"
                     "function () -> (E) { E = 1; }\n");
  ASSERT_TRUE(module) << compiler.getDiagnostics();
  ASSERT_EQ(module->functions.size(), 2u);
  const ast::Function &function = *module->functions[0];
  EXPECT_EQ(function.name, "matmul");
  ASSERT_EQ(function.params.size(), 4u);
  EXPECT_EQ(function.params[0].dims->size(), 2u);
  EXPECT_EQ(*(*function.params[0].dims)[1].name, "K");
  EXPECT_FALSE((*function.params[1].dims)[1].name);
  EXPECT_EQ((*function.params[1].dims)[1].value, 3);
  EXPECT_TRUE(function.params[2].dims->empty());
  EXPECT_FALSE(function.params[3].dims);
  ASSERT_EQ(function.results.size(), 2u);
  EXPECT_EQ(function.results[1].name, "D");
  EXPECT_EQ(module->functions[1]->name, "");

  std::vector<ParamInfo> params = getParams(function);
  ASSERT_EQ(params.size(), 4u);
  EXPECT_EQ(params[0].rank, 2u);
  EXPECT_EQ(params[2].rank, 0u);
  EXPECT_FALSE(params[3].rank);
}

TEST(ParserTest, ContractionForms) {
  TileCompiler compiler;
  const ast::Module *module = compiler.parse(
      "function (A[N], B[N], C[N], D[N]) -> (O1, O2, O3, O4, O5, S) {\n"
      "  O1[i : N] = >(A[i] + B[i]);\n"
      "  O2[i : N] = <(A[i] == B[i]);\n"
      "  O3[i : N] = =(A[i] == B[j] ? C[j]), i - j < 3, j < N no_defract;\n"
      "  O4[i/2 : (N + 1)/2] = *(A[i]) default D;\n"
      "  O5[i : N] = +(A[2*i + k - 1]) default D no_defract;\n"
      "  S[] = +(A[i]);\n"
      "}\n");
  ASSERT_TRUE(module) << compiler.getDiagnostics();
  const auto &statements = module->functions[0]->statements;
  ASSERT_EQ(statements.size(), 6u);

  const ast::ContractionStmt &max = getContraction(statements[0]);
  EXPECT_EQ(max.aggregation, AggregationKind::Max);
  EXPECT_EQ(max.combination, CombinationKind::Add);
  EXPECT_EQ(max.operands.size(), 2u);

  const ast::ContractionStmt &min = getContraction(statements[1]);
  EXPECT_EQ(min.aggregation, AggregationKind::Min);
  EXPECT_EQ(min.combination, CombinationKind::Eq);

  const ast::ContractionStmt &argmax = getContraction(statements[2]);
  EXPECT_EQ(argmax.aggregation, AggregationKind::Assign);
  EXPECT_EQ(argmax.combination, CombinationKind::Cond);
  ASSERT_EQ(argmax.operands.size(), 3u);
  EXPECT_EQ(argmax.operands[2].tensor, "C");
  EXPECT_EQ(argmax.constraints.size(), 2u);
  EXPECT_TRUE(argmax.noDefract);

  const ast::ContractionStmt &product = getContraction(statements[3]);
  EXPECT_EQ(product.aggregation, AggregationKind::Product);
  EXPECT_EQ(product.outputIndices[0]->kind, ast::Expr::Kind::Binary);
  EXPECT_EQ(product.outputIndices[0]->binaryOp, BinaryOp::Div);
  EXPECT_EQ(*product.defaultTensor, "D");

  const ast::ContractionStmt &sum = getContraction(statements[4]);
  EXPECT_TRUE(sum.noDefract);
  EXPECT_TRUE(sum.defaultTensor);

  const ast::ContractionStmt &scalar = getContraction(statements[5]);
  EXPECT_TRUE(scalar.outputIndices.empty());
  EXPECT_TRUE(scalar.outputSizes.empty());
}

TEST(ParserTest, Precedence) {
  TileCompiler compiler;
  const ast::Module *module =
      compiler.parse("function (A, B) -> (O) {\n"
                     "  O = A + B * 2 < 3 && !A || B ? -A : B << 1 ^ 2;\n"
                     "}\n");
  ASSERT_TRUE(module) << compiler.getDiagnostics();
  const ast::Expr &value = getValue(module->functions[0]->statements[0]);
  ASSERT_EQ(value.kind, ast::Expr::Kind::Conditional);
  const ast::Expr &condition = *value.operands[0];
  EXPECT_EQ(condition.binaryOp, BinaryOp::LogicalOr);
  const ast::Expr &conjunction = *condition.operands[0];
  EXPECT_EQ(conjunction.binaryOp, BinaryOp::LogicalAnd);
  const ast::Expr &less = *conjunction.operands[0];
  EXPECT_EQ(less.binaryOp, BinaryOp::Lt);
  EXPECT_EQ(less.operands[0]->binaryOp, BinaryOp::Add);
  EXPECT_EQ(less.operands[0]->operands[1]->binaryOp, BinaryOp::Mul);
  EXPECT_EQ(conjunction.operands[1]->unaryOp, UnaryOp::LogicalNot);
  EXPECT_EQ(value.operands[1]->kind, ast::Expr::Kind::Unary);
  // `<<` binds tighter than `^`.
  EXPECT_EQ(value.operands[2]->binaryOp, BinaryOp::BitXor);
  EXPECT_EQ(value.operands[2]->operands[0]->binaryOp, BinaryOp::Shl);
}

TEST(ParserTest, CallsAndLiterals) {
  TileCompiler compiler;
  const ast::Module *module = compiler.parse(
      "function (A) -> (O) { O = select(A > 0.5, as_int(A, 16), 2e3); }");
  ASSERT_TRUE(module) << compiler.getDiagnostics();
  const ast::Expr &value = getValue(module->functions[0]->statements[0]);
  ASSERT_EQ(value.kind, ast::Expr::Kind::Call);
  EXPECT_EQ(value.name, "select");
  ASSERT_EQ(value.operands.size(), 3u);
  EXPECT_EQ(value.operands[0]->operands[1]->floatValue, 0.5);
  EXPECT_EQ(value.operands[1]->name, "as_int");
  EXPECT_EQ(value.operands[1]->operands[1]->intValue, 16);
  EXPECT_EQ(value.operands[2]->floatValue, 2000.0);
}

TEST(ParserTest, RecoversAndReportsSeveralErrors) {
  TileCompiler compiler;
  const ast::Module *module = compiler.parse("function (A[N]) -> (B) {\n"
                                             "  B = A +;\n"
                                             "  C[i : N] = +(A[i]\n"
                                             "  D = A;\n"
                                             "  E[i] = +(A[i]);\n"
                                             "}\n");
  EXPECT_FALSE(module);
  const std::string &text = compiler.getDiagnostics();
  EXPECT_NE(text.find("test.tile:2:10: error: expected an expression, found "
                      "';'"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("test.tile:4:3: error: expected ')' after the "
                      "contraction's operands, found 'D'"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("test.tile:5:6: error: expected ':' and the output "
                      "sizes, found ']'"),
            std::string::npos)
      << text;
}

TEST(ParserTest, HeaderErrors) {
  TileCompiler compiler;
  EXPECT_FALSE(compiler.parse("garbage\n"
                              "function (A[N) -> (B) { B = A; }\n"
                              "function f(A) (B) { B = A; }\n"
                              "function g(A) -> () { }\n"));
  const std::string &text = compiler.getDiagnostics();
  EXPECT_NE(text.find("2:14: error: expected ',' or ']' after a dimension, "
                      "found ')'"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("3:15: error: expected '->' before the results, found "
                      "'('"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("1:1: error: expected 'function', found 'garbage'"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("4:19: error: expected a result name, found ')'"),
            std::string::npos)
      << text;
}

TEST(ParserTest, MissingClosingBrace) {
  TileCompiler compiler;
  EXPECT_FALSE(compiler.parse("function (A) -> (B) { B = A;"));
  EXPECT_NE(compiler.getDiagnostics().find(
                "1:29: error: expected '}' at the end of the function body, "
                "found end of file"),
            std::string::npos)
      << compiler.getDiagnostics();
}

TEST(ParserTest, SelectFunction) {
  TileCompiler compiler;
  const ast::Module *module = compiler.parse(
      "function f(A) -> (B) { B = A; }\nfunction g(A) -> (B) { B = A; }\n");
  ASSERT_TRUE(module);
  EXPECT_EQ(selectFunction(*module, "g", compiler.getSourceMgr())->name, "g");
  EXPECT_FALSE(selectFunction(*module, "", compiler.getSourceMgr()));
  EXPECT_FALSE(selectFunction(*module, "h", compiler.getSourceMgr()));
  const std::string &text = compiler.getDiagnostics();
  EXPECT_NE(text.find("error: the source holds several functions (f, g); "
                      "choose one by name"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("error: no function named 'h' (available: f, g)"),
            std::string::npos)
      << text;
}

} // namespace
