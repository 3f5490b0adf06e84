//===- ElementwiseTableTest.cpp - Every elementwise op, front to dialect --===//
//
// Walks every row of tilec/Support/ElementwiseOps.def through the parser,
// sema, the printer of Programs, the emission of the tile dialect and the
// dialect's own printer, parser and verifier: each must agree with the row
// on the operation, its spelling and its arity. A consumer that stops
// reading the table, or reads it out of order, fails here.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtil.h"
#include "tilec/Conversion/ProgramToTile.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Frontend/AST.h"
#include "tilec/Sema/Builtins.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringSet.h"

#include <gtest/gtest.h>

using namespace tilec;
using namespace tilec::test;

namespace {

enum class Syntax { Unary, Binary, Select, Builtin };

/// One row of the table, as each consumer should read it.
struct Row {
  tile::ElementwiseKind kind;
  const char *mnemonic;
  unsigned arity;
  tile::ElementwiseTypingRule rule;
  Syntax syntax;
  /// The Program's operation: a UnaryOp, BinaryOp or Builtin.
  int op;
  /// The operator's spelling or the builtin's name.
  const char *spelling;
  unsigned precedence;
  BuiltinClass builtinClass;
};

std::vector<Row> getRows() {
  using tile::ElementwiseKind;
  using tile::ElementwiseTypingRule;
  // clang-format off
  return {
#define TILE_UNARY_OPERATOR(Kind, Mnemonic, Rule, Op, Spelling)                \
  {ElementwiseKind::Kind, Mnemonic, 1, ElementwiseTypingRule::Rule,            \
   Syntax::Unary, int(UnaryOp::Op), Spelling, 0, BuiltinClass::Numeric},
#define TILE_BINARY_OPERATOR(Kind, Mnemonic, Rule, Op, Spelling, Precedence)   \
  {ElementwiseKind::Kind, Mnemonic, 2, ElementwiseTypingRule::Rule,            \
   Syntax::Binary, int(BinaryOp::Op), Spelling, Precedence,                   \
   BuiltinClass::Numeric},
#define TILE_SELECT(Kind, Mnemonic, Rule)                                      \
  {ElementwiseKind::Kind, Mnemonic, 3, ElementwiseTypingRule::Rule,            \
   Syntax::Select, 0, Mnemonic, 0, BuiltinClass::Numeric},
#define TILE_BUILTIN(Kind, Mnemonic, Arity, Rule, Class)                       \
  {ElementwiseKind::Kind, Mnemonic, Arity, ElementwiseTypingRule::Rule,        \
   Syntax::Builtin, int(Builtin::Kind), Mnemonic, 0, BuiltinClass::Class},
#include "tilec/Support/ElementwiseOps.def"
  };
  // clang-format on
}

std::string describe(const Row &row) {
  return std::string("row '") + row.mnemonic + "'";
}

/// `O = <row's operation>(X, Y, Z)` over the first `arity` i32 inputs: i32
/// suits every typing rule (sema converts for float builtins and logic).
std::string getSource(const Row &row, unsigned arity) {
  const char *names[] = {"X", "Y", "Z", "W"};
  std::string operands;
  for (unsigned i = 0; i < arity; ++i)
    operands += std::string(i ? ", " : "") + names[i];
  std::string value;
  switch (row.syntax) {
  case Syntax::Unary:
    value = std::string(row.spelling) + "X";
    break;
  case Syntax::Binary:
    value = std::string("X ") + row.spelling + " Y";
    break;
  case Syntax::Select:
  case Syntax::Builtin:
    value = std::string(row.spelling) + "(" + operands + ")";
    break;
  }
  std::string params;
  for (unsigned i = 0; i < 4; ++i)
    params += std::string(i ? ", " : "") + names[i] + "[N]";
  return "function f(" + params + ") -> (O) {\n  O = " + value + ";\n}\n";
}

std::vector<ArgBinding> getArgs() {
  return {arg("X", DType::I32, {4}), arg("Y", DType::I32, {4}),
          arg("Z", DType::I32, {4}), arg("W", DType::I32, {4})};
}

/// The operation of `expr` as the row's `op` field would hold it.
std::optional<int> getProgramOp(const Row &row, const Expr &expr) {
  switch (row.syntax) {
  case Syntax::Unary:
    if (expr.kind == Expr::Kind::Unary)
      return int(expr.unaryOp);
    break;
  case Syntax::Binary:
    if (expr.kind == Expr::Kind::Binary)
      return int(expr.binaryOp);
    break;
  case Syntax::Select:
    if (expr.kind == Expr::Kind::Select)
      return 0;
    break;
  case Syntax::Builtin:
    if (expr.kind == Expr::Kind::Call)
      return int(expr.builtin);
    break;
  }
  return std::nullopt;
}

TEST(ElementwiseTableTest, MnemonicsAndNamesAreUniqueAndRoundTrip) {
  llvm::StringSet<> mnemonics;
  for (const Row &row : getRows()) {
    EXPECT_TRUE(mnemonics.insert(row.mnemonic).second) << describe(row);
    EXPECT_EQ(tile::stringifyElementwiseKind(row.kind), row.mnemonic);
    EXPECT_EQ(tile::symbolizeElementwiseKind(row.mnemonic), row.kind);
    EXPECT_EQ(tile::getElementwiseArity(row.kind), row.arity);
    EXPECT_EQ(tile::getElementwiseTypingRule(row.kind), row.rule);
    if (row.syntax == Syntax::Builtin) {
      const BuiltinInfo &info = getBuiltinInfo(Builtin(row.op));
      EXPECT_EQ(info.builtin, Builtin(row.op)) << describe(row);
      EXPECT_STREQ(info.name, row.spelling);
      EXPECT_EQ(info.arity, row.arity) << describe(row);
      EXPECT_EQ(info.typeClass, row.builtinClass) << describe(row);
      EXPECT_EQ(lookupBuiltin(row.spelling), Builtin(row.op));
    }
    if (row.syntax == Syntax::Binary) {
      EXPECT_STREQ(ast::getSpelling(BinaryOp(row.op)), row.spelling);
      EXPECT_EQ(ast::getPrecedence(BinaryOp(row.op)), row.precedence);
      EXPECT_LT(row.precedence, ast::kUnaryPrecedence);
    }
    if (row.syntax == Syntax::Unary) {
      EXPECT_STREQ(ast::getSpelling(UnaryOp(row.op)), row.spelling);
    }
  }
  EXPECT_FALSE(tile::symbolizeElementwiseKind("no_such_op"));
}

TEST(ElementwiseTableTest, EveryRowGoesFromSourceToTheDialect) {
  mlir::MLIRContext context;
  context.loadDialect<tile::TileDialect, mlir::func::FuncDialect>();
  for (const Row &row : getRows()) {
    SCOPED_TRACE(describe(row));
    TileCompiler compiler;
    std::string source = getSource(row, row.arity);
    std::optional<Program> program = compiler.compile(source, getArgs());
    ASSERT_TRUE(program) << source << compiler.getDiagnostics();

    // Sema: the statement's root is the row's operation.
    ASSERT_EQ(program->statements.size(), 1u);
    const Expr &value = *std::get<Elementwise>(program->statements[0].op).value;
    EXPECT_EQ(getProgramOp(row, value), row.op);
    EXPECT_EQ(value.operands.size(), row.arity);

    // The printer writes the row's spelling, and what it writes reads back
    // as the same program.
    std::string printed = printToString(*program);
    EXPECT_NE(printed.find(row.spelling), std::string::npos) << printed;
    TileCompiler reader;
    std::optional<Program> reread = reader.compile(printed, getArgs());
    ASSERT_TRUE(reread) << printed << reader.getDiagnostics();
    EXPECT_EQ(printToString(*reread), printed);

    // The dialect: one tile.ew of the row's kind computes the output.
    mlir::OwningOpRef<mlir::ModuleOp> module =
        emitTileModule(context, *program, compiler.getSourceMgr());
    ASSERT_TRUE(succeeded(mlir::verify(*module)));
    auto function = *module->getOps<mlir::func::FuncOp>().begin();
    auto result = function.front().getTerminator()->getOperand(0);
    auto op = result.getDefiningOp<tile::ElementwiseOp>();
    ASSERT_TRUE(op);
    EXPECT_EQ(op.getKind(), row.kind);
    EXPECT_EQ(op.getOperands().size(), row.arity);

    // Its text names the row's mnemonic and parses back.
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    EXPECT_NE(text.find(std::string("tile.ew ") + row.mnemonic + " "),
              std::string::npos)
        << text;
    mlir::OwningOpRef<mlir::ModuleOp> parsed =
        mlir::parseSourceString<mlir::ModuleOp>(text, &context);
    ASSERT_TRUE(parsed) << text;
    ASSERT_TRUE(succeeded(mlir::verify(*parsed)));
  }
}

TEST(ElementwiseTableTest, SemaAndTheVerifierEnforceEveryArity) {
  mlir::MLIRContext context;
  context.loadDialect<tile::TileDialect, mlir::func::FuncDialect>();
  std::string verifierMessage;
  context.getDiagEngine().registerHandler([&](mlir::Diagnostic &diagnostic) {
    verifierMessage = diagnostic.str();
    return mlir::success();
  });
  for (const Row &row : getRows()) {
    SCOPED_TRACE(describe(row));
    // Calls are checked by sema; operators have their arity by syntax.
    if (row.syntax == Syntax::Builtin || row.syntax == Syntax::Select) {
      TileCompiler compiler;
      EXPECT_FALSE(compiler.compile(getSource(row, row.arity + 1), getArgs()));
      std::string expected = "'" + std::string(row.spelling) + "' takes " +
                             std::to_string(row.arity) +
                             (row.arity == 1 ? " argument" : " arguments");
      EXPECT_NE(compiler.getDiagnostics().find(expected), std::string::npos)
          << compiler.getDiagnostics();
    }

    // A tile.ew with one operand too many fails to verify.
    mlir::OpBuilder builder(&context);
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(module->getBody());
    auto type = mlir::RankedTensorType::get({4}, builder.getF32Type());
    auto constant = builder.create<tile::ConstantOp>(
        builder.getUnknownLoc(), builder.getF32FloatAttr(1));
    llvm::SmallVector<mlir::Value> operands(row.arity + 1,
                                            constant.getResult());
    auto op = builder.create<tile::ElementwiseOp>(builder.getUnknownLoc(), type,
                                                  row.kind, operands);
    verifierMessage.clear();
    EXPECT_TRUE(failed(mlir::verify(op)));
    std::string expected = "'" + std::string(row.mnemonic) + "' takes " +
                           std::to_string(row.arity) +
                           (row.arity == 1 ? " operand" : " operands");
    EXPECT_NE(verifierMessage.find(expected), std::string::npos)
        << verifierMessage;
  }
}

} // namespace
