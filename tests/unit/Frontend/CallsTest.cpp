//===- CallsTest.cpp - Tests of calls and imports -------------------------===//
//
// The syntax of calls and imports, and their inlining at specialisation
// (docs/language.md, section 8).
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtil.h"

#include <gtest/gtest.h>

using namespace tilec;
using namespace tilec::test;

namespace {

/// The names of the tensors the statements define, in order.
std::vector<std::string> getDefinedNames(const Program &program) {
  std::vector<std::string> names;
  for (const Statement &statement : program.statements)
    names.push_back(program.tensors[statement.output].name);
  return names;
}

TEST(CallsTest, ParsesCallStatementsAndImports) {
  TileCompiler compiler;
  const ast::Module *module = compiler.parse("import \"lib/layers.tile\";\n"
                                             "import \"/abs.tile\";\n"
                                             "function f(X) -> (A, B) {\n"
                                             "  (A, B) = moments(X + 1, 2);\n"
                                             "}\n");
  // The imported files do not exist: parsing reports them.
  EXPECT_FALSE(module);
  EXPECT_NE(compiler.getDiagnostics().find(
                "test.tile:1:1: error: cannot read 'lib/layers.tile'"),
            std::string::npos)
      << compiler.getDiagnostics();
}

TEST(CallsTest, CallStatementSyntaxTree) {
  TileCompiler compiler;
  const ast::Module *module = compiler.parse("function f(X) -> (A, B) {\n"
                                             "  (A, B) = moments(X + 1, 2);\n"
                                             "}\n");
  ASSERT_TRUE(module) << compiler.getDiagnostics();
  const ast::Statement &statement = module->functions[0]->statements[0];
  EXPECT_EQ(statement.output, "A");
  const auto &call = std::get<ast::CallStmt>(statement.body);
  ASSERT_EQ(call.outputs.size(), 2u);
  EXPECT_EQ(call.outputs[1].name, "B");
  EXPECT_EQ(call.call->kind, ast::Expr::Kind::Call);
  EXPECT_EQ(call.call->name, "moments");
  EXPECT_EQ(call.call->operands.size(), 2u);
  EXPECT_EQ(module->functions[0]->module, module);
  EXPECT_TRUE(module->imports.empty());
}

TEST(CallsTest, InlinedNamesArePrefixedAndResultsTakeTheCallersNames) {
  TileCompiler compiler;
  std::optional<Program> program = compiler.compile(
      "function dense(X[M, K], W[K, N]) -> (Y) {\n"
      "  XW[i, j : M, N] = +(X[i, k] * W[k, j]);\n"
      "  Y = relu(XW);\n"
      "}\n"
      "function mlp(X, W1, W2) -> (Y) {\n"
      "  Dense1_XW = X;\n"
      "  H = dense(X, W1) + 1;\n"
      "  Y = dense(H, W2);\n"
      "}\n",
      {arg("X", DType::F32, {2, 3}), arg("W1", DType::F32, {3, 4}),
       arg("W2", DType::F32, {4, 5})},
      "mlp");
  ASSERT_TRUE(program) << compiler.getDiagnostics();
  // A generated name that the caller uses gets a suffix; the first call's
  // result keeps its generated name, the second's is the caller's `Y`.
  EXPECT_EQ(getDefinedNames(*program),
            (std::vector<std::string>{"Dense1_XW", "Dense1_XW_2", "Dense1_Y",
                                      "H", "Dense2_XW", "Y"}));
  EXPECT_EQ(program->tensors[program->statements[4].output].shape,
            (Shape{2, 5}));
  ASSERT_EQ(program->outputs.size(), 1u);
  EXPECT_EQ(program->tensors[program->outputs[0]].name, "Y");
  // The callee's dimensions are not the program's.
  EXPECT_EQ(program->dims.size(), 0u);
}

TEST(CallsTest, InlinedProgramPrintsAsPlainTile) {
  const char *source = "function scale(A, S[]) -> (B) { B = A * S; }\n"
                       "function f(X) -> (Y) { Y = scale(X, 2) + 1; }\n";
  TileCompiler compiler;
  std::optional<Program> program =
      compiler.compile(source, {arg("X", DType::F32, {3})}, "f");
  ASSERT_TRUE(program) << compiler.getDiagnostics();
  std::string printed = printToString(*program);
  EXPECT_NE(printed.find("Scale1_B = X * as_float(Tmp0, 32);"),
            std::string::npos)
      << printed;
  TileCompiler again;
  std::optional<Program> reparsed =
      again.compile(printed, {arg("X", DType::F32, {3})});
  ASSERT_TRUE(reparsed) << printed << again.getDiagnostics();
  EXPECT_EQ(printToString(*reparsed), printed);
}

TEST(CallsTest, BuiltinsWinOverFunctionsOfTheSameName) {
  TileCompiler compiler;
  std::optional<Program> program =
      compiler.compile("function relu(X) -> (Y) { Y = X * 2; }\n"
                       "function f(X) -> (Y) { Y = relu(X); }\n",
                       {arg("X", DType::F32, {3})}, "f");
  ASSERT_TRUE(program) << compiler.getDiagnostics();
  ASSERT_EQ(program->statements.size(), 1u);
  EXPECT_FALSE(compiler.compile("function f(X) -> (Y) { (Y) = relu(X); }\n",
                                {arg("X", DType::F32, {3})}));
  EXPECT_NE(compiler.getDiagnostics().find(
                "test.tile:1:30: error: 'relu' is a builtin: '(...) =' takes "
                "a call of a function of the program"),
            std::string::npos)
      << compiler.getDiagnostics();
  const Expr &value = *std::get<Elementwise>(program->statements[0].op).value;
  EXPECT_EQ(value.kind, Expr::Kind::Call);
  EXPECT_EQ(value.builtin, Builtin::Relu);
}

TEST(CallsTest, EachCallIsSpecialisedForItsArguments) {
  TileCompiler compiler;
  std::optional<Program> program = compiler.compile(
      "function sum(A[N]) -> (S) { S[] = +(A[i]); }\n"
      "function f(X[N], Y[M]) -> (T) { T = sum(X) + sum(as_int(Y, 64)); }\n",
      {arg("X", DType::F32, {3}), arg("Y", DType::I8, {7})}, "f");
  ASSERT_TRUE(program) << compiler.getDiagnostics();
  auto findTensor = [&](llvm::StringRef name) -> const TensorDecl * {
    for (const TensorDecl &tensor : program->tensors)
      if (tensor.name == name)
        return &tensor;
    return nullptr;
  };
  ASSERT_TRUE(findTensor("Sum1_S"));
  ASSERT_TRUE(findTensor("Sum2_S"));
  EXPECT_EQ(findTensor("Sum1_S")->dtype, DType::F32);
  EXPECT_EQ(findTensor("Sum2_S")->dtype, DType::I64);
  EXPECT_EQ(findTensor("T")->dtype, DType::F32);
}

TEST(CallsTest, InliningIsBounded) {
  // Each level calls the next twice: 2^20 statements, stopped with an error.
  std::string source = "function f0(X) -> (Y) { Y = X + 1; }\n";
  for (int level = 1; level <= 20; ++level)
    source += "function f" + std::to_string(level) + "(X) -> (Y) { Y = f" +
              std::to_string(level - 1) + "(X) + f" +
              std::to_string(level - 1) + "(X); }\n";
  TileCompiler compiler;
  EXPECT_FALSE(compiler.compile(source, {arg("X", DType::F32, {1})}, "f20"));
  EXPECT_NE(compiler.getDiagnostics().find(
                "inlining this call makes the program longer than 100000 "
                "statements"),
            std::string::npos);
}

TEST(CallsTest, CallDepthIsBounded) {
  // A chain of 1000 functions, each calling the next: an error, not a stack
  // overflow.
  std::string source = "function f0(X) -> (Y) { Y = X + 1; }\n";
  for (int level = 1; level < 1000; ++level)
    source += "function f" + std::to_string(level) + "(X) -> (Y) { Y = f" +
              std::to_string(level - 1) + "(X); }\n";
  TileCompiler compiler;
  EXPECT_FALSE(compiler.compile(source, {arg("X", DType::F32, {1})}, "f999"));
  EXPECT_NE(compiler.getDiagnostics().find("calls nest more than 256 deep"),
            std::string::npos);
}

TEST(CallsTest, ErrorsInACalleeNoteTheCalls) {
  TileCompiler compiler;
  EXPECT_FALSE(compiler.compile("function g(A) -> (B) { B = A + Z; }\n"
                                "function f(X) -> (Y) { Y = g(X); }\n",
                                {arg("X", DType::F32, {3})}, "f"));
  const std::string &text = compiler.getDiagnostics();
  size_t error = text.find("test.tile:1:32: error: use of undefined tensor "
                           "'Z'");
  size_t note = text.find("test.tile:2:28: note: in the call to 'g'");
  EXPECT_NE(error, std::string::npos) << text;
  EXPECT_NE(note, std::string::npos) << text;
  EXPECT_LT(error, note);
}

} // namespace
