//===- ProgramToTileTest.cpp - Emission of the tile dialect ---------------===//
//
// Builds Programs by hand, as sema would, and checks that the emitted module
// verifies, holds the expected ops and points into the source.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/ProgramToTile.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

using namespace tilec;

namespace {

Rational r(int64_t num, int64_t den = 1) { return Rational{num, den}; }

/// Holds a .tile source in a SourceMgr and the Program built over it.
class ProgramToTileTest : public ::testing::Test {
protected:
  void setSource(llvm::StringRef text) {
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, "test.tile"), llvm::SMLoc());
  }

  /// The location of the first occurrence of `needle` in the source.
  llvm::SMLoc loc(llvm::StringRef needle) {
    llvm::StringRef buffer =
        sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
    size_t offset = buffer.find(needle);
    EXPECT_NE(offset, llvm::StringRef::npos) << needle.str();
    return llvm::SMLoc::getFromPointer(buffer.data() + offset);
  }

  unsigned addTensor(llvm::StringRef name, DType dtype, Shape shape,
                     bool isInput = false) {
    TensorDecl decl;
    decl.name = name.str();
    decl.dtype = dtype;
    decl.shape = std::move(shape);
    decl.loc = loc(name);
    decl.isInput = isInput;
    program.tensors.push_back(std::move(decl));
    unsigned id = program.tensors.size() - 1;
    if (isInput)
      program.inputs.push_back(id);
    return id;
  }

  void addOutput(unsigned tensor) {
    program.tensors[tensor].isOutput = true;
    program.outputs.push_back(tensor);
  }

  void addStatement(unsigned output, llvm::StringRef at,
                    decltype(Statement::op) op) {
    Statement statement;
    statement.output = output;
    statement.loc = loc(at);
    statement.op = std::move(op);
    program.statements.push_back(std::move(statement));
  }

  static std::unique_ptr<Expr> tensorExpr(unsigned tensor,
                                          const TensorDecl &d) {
    auto expr = std::make_unique<Expr>();
    expr->kind = Expr::Kind::Tensor;
    expr->tensor = tensor;
    expr->dtype = d.dtype;
    expr->shape = d.shape;
    return expr;
  }
  std::unique_ptr<Expr> tensorExpr(unsigned tensor) {
    return tensorExpr(tensor, program.tensors[tensor]);
  }

  static std::unique_ptr<Expr> node(Expr::Kind kind, DType dtype, Shape shape,
                                    std::vector<std::unique_ptr<Expr>> args) {
    auto expr = std::make_unique<Expr>();
    expr->kind = kind;
    expr->dtype = dtype;
    expr->shape = std::move(shape);
    expr->operands = std::move(args);
    return expr;
  }

  static std::vector<std::unique_ptr<Expr>>
  args(std::unique_ptr<Expr> a, std::unique_ptr<Expr> b = nullptr) {
    std::vector<std::unique_ptr<Expr>> result;
    result.push_back(std::move(a));
    if (b)
      result.push_back(std::move(b));
    return result;
  }

  /// Emits the program, checks that it verifies and returns its text.
  std::string emitAndPrint() {
    module = emitTileModule(context, program, sourceMgr);
    EXPECT_TRUE(module);
    if (!module)
      return "";
    EXPECT_TRUE(mlir::succeeded(mlir::verify(*module)));
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    return text;
  }

  mlir::MLIRContext context;
  llvm::SourceMgr sourceMgr;
  Program program;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

AffinePoly poly(std::vector<Rational> coeffs, Rational constant = r(0)) {
  return AffinePoly{std::move(coeffs), constant};
}

TEST_F(ProgramToTileTest, Matmul) {
  setSource("function matmul(A[M, K], B[K, N]) -> (C) {\n"
            "  C[i, j : M, N] = +(A[i, k] * B[k, j]);\n"
            "}\n");
  program.name = "matmul";
  unsigned a = addTensor("A", DType::F32, {3, 4}, true);
  unsigned b = addTensor("B", DType::F32, {4, 5}, true);
  unsigned c = addTensor("C", DType::F32, {3, 5});
  addOutput(c);
  Contraction contraction;
  contraction.indexNames = {"i", "j", "k"};
  contraction.outputIndices = {poly({r(1), r(0), r(0)}),
                               poly({r(0), r(1), r(0)})};
  contraction.aggregation = AggregationKind::Sum;
  contraction.combination = CombinationKind::Mul;
  contraction.operands = {
      Access{
          a, {poly({r(1), r(0), r(0)}), poly({r(0), r(0), r(1)})}, loc("A[i")},
      Access{
          b, {poly({r(0), r(0), r(1)}), poly({r(0), r(1), r(0)})}, loc("B[k")}};
  addStatement(c, "C[i", contraction);

  std::string text = emitAndPrint();
  EXPECT_NE(text.find("func.func @matmul(%arg0: tensor<3x4xf32> {tile.name = "
                      "\"A\"}, %arg1: tensor<4x5xf32> {tile.name = \"B\"}) -> "
                      "(tensor<3x5xf32> {tile.name = \"C\"})"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("tile.contract add, mul (i, j, k) [i, j] = %arg0[i, k], "
                      "%arg1[k, j] : tensor<3x4xf32>, tensor<4x5xf32> -> "
                      "tensor<3x5xf32>"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("return %0 : tensor<3x5xf32>"), std::string::npos)
      << text;
}

TEST_F(ProgramToTileTest, ConvolutionWithConstraintAndFraction) {
  setSource("function (I[N], K[W]) -> (O) {\n"
            "  O[x : 4] = +(I[x + k/2 - 1] * K[k]), k < 3;\n"
            "}\n");
  unsigned in = addTensor("I", DType::I32, {6}, true);
  unsigned kernel = addTensor("K", DType::F32, {3}, true);
  unsigned out = addTensor("O", DType::F32, {4});
  addOutput(out);
  Contraction contraction;
  contraction.indexNames = {"x", "k"};
  contraction.outputIndices = {poly({r(1), r(0)})};
  contraction.combination = CombinationKind::Mul;
  contraction.operands = {
      Access{in, {poly({r(1), r(1, 2)}, r(-1))}, loc("I[x")},
      Access{kernel, {poly({r(0), r(1)})}, loc("K[k")}};
  contraction.constraints = {Constraint{poly({r(0), r(1)}), 3, loc("k <")}};
  addStatement(out, "O[x", contraction);

  std::string text = emitAndPrint();
  // The i32 input is converted to the f32 the contraction computes in.
  EXPECT_NE(text.find("%0 = tile.cast %arg0 : tensor<6xi32> -> tensor<6xf32>"),
            std::string::npos)
      << text;
  EXPECT_NE(
      text.find("tile.contract add, mul (x, k) [x] = %0[x + k div 2 - 1], "
                "%arg1[k] where k < 3 :"),
      std::string::npos)
      << text;
  EXPECT_EQ(text.find("@main"), text.find("@"));
}

TEST_F(ProgramToTileTest, DefaultAndEqualityPromoteOperands) {
  setSource("function (A[N], B[N], D[]) -> (E) {\n"
            "  E[] = =(A[i] == B[i]) default D;\n"
            "}\n");
  unsigned a = addTensor("A", DType::I8, {4}, true);
  unsigned b = addTensor("B", DType::U8, {4}, true);
  unsigned d = addTensor("D", DType::Bool, {}, true);
  unsigned e = addTensor("E", DType::Bool, {});
  addOutput(e);
  Contraction contraction;
  contraction.indexNames = {"i"};
  contraction.aggregation = AggregationKind::Assign;
  contraction.combination = CombinationKind::Eq;
  contraction.comparisonType = DType::I16;
  contraction.operands = {Access{a, {poly({r(1)})}, loc("A[i")},
                          Access{b, {poly({r(1)})}, loc("B[i")}};
  contraction.defaultTensor = d;
  contraction.noDefract = true;
  addStatement(e, "E[]", contraction);

  std::string text = emitAndPrint();
  // i8 == u8 compares in i16.
  EXPECT_NE(text.find("tile.cast %arg0 : tensor<4xi8> -> tensor<4xi16>"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("tile.cast %arg1 : tensor<4xui8> -> tensor<4xi16>"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("tile.contract assign, eq (i) [] = %0[i], %1[i] default "
                      "%arg2 no_defract : tensor<4xi16>, tensor<4xi16> -> "
                      "tensor<i1>"),
            std::string::npos)
      << text;
}

TEST_F(ProgramToTileTest, ElementwiseWithBroadcastCastsAndConstants) {
  setSource("function (X[M, N], Y[N]) -> (E, L) {\n"
            "  E = X + as_float(Y, 32) * 2;\n"
            "  L = !Y;\n"
            "}\n");
  unsigned x = addTensor("X", DType::F32, {3, 4}, true);
  unsigned y = addTensor("Y", DType::I32, {4}, true);
  unsigned e = addTensor("E", DType::F32, {3, 4});
  unsigned l = addTensor("L", DType::Bool, {4});
  addOutput(e);
  addOutput(l);

  auto cast = node(Expr::Kind::Cast, DType::F32, {4}, args(tensorExpr(y)));
  auto two = node(Expr::Kind::Constant, DType::F32, {}, {});
  two->constant = 2.0;
  auto scaled = node(Expr::Kind::Binary, DType::F32, {4},
                     args(std::move(cast), std::move(two)));
  scaled->binaryOp = BinaryOp::Mul;
  auto sum = node(Expr::Kind::Binary, DType::F32, {3, 4},
                  args(tensorExpr(x), std::move(scaled)));
  sum->binaryOp = BinaryOp::Add;
  addStatement(e, "E =", Elementwise{std::move(sum)});

  auto negation =
      node(Expr::Kind::Unary, DType::Bool, {4}, args(tensorExpr(y)));
  negation->unaryOp = UnaryOp::LogicalNot;
  addStatement(l, "L =", Elementwise{std::move(negation)});

  std::string text = emitAndPrint();
  for (const char *expected :
       {"tile.cast %arg1 : tensor<4xi32> -> tensor<4xf32>",
        "tile.constant 2.000000e+00 : f32",
        "tile.ew mul %0, %1 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>",
        "tile.ew add %arg0, %2 : (tensor<3x4xf32>, tensor<4xf32>) -> "
        "tensor<3x4xf32>",
        // `!` on an integer tests it against zero first.
        "tile.cast %arg1 : tensor<4xi32> -> tensor<4xi1>",
        "tile.ew not %4 : (tensor<4xi1>) -> tensor<4xi1>",
        "return %3, %5 : tensor<3x4xf32>, tensor<4xi1>"})
    EXPECT_NE(text.find(expected), std::string::npos) << expected << "\n"
                                                      << text;
}

TEST_F(ProgramToTileTest, SelectOverBuiltinsAndArgmax) {
  setSource("function (X[N], A[M, N], B[N]) -> (O, P) {\n"
            "  O = select(X > 0, exp(X), X);\n"
            "  P[i : M] = >(A[i, j] == B[j] ? A[i, j]);\n"
            "}\n");
  unsigned x = addTensor("X", DType::F32, {4}, true);
  unsigned a = addTensor("A", DType::I32, {2, 4}, true);
  unsigned b = addTensor("B", DType::I64, {4}, true);
  unsigned o = addTensor("O", DType::F32, {4});
  unsigned p = addTensor("P", DType::F32, {2});
  addOutput(o);
  addOutput(p);

  auto zero = node(Expr::Kind::Constant, DType::F32, {}, {});
  zero->constant = 0.0;
  auto positive = node(Expr::Kind::Binary, DType::Bool, {4},
                       args(tensorExpr(x), std::move(zero)));
  positive->binaryOp = BinaryOp::Gt;
  auto exponential =
      node(Expr::Kind::Call, DType::F32, {4}, args(tensorExpr(x)));
  exponential->builtin = Builtin::Exp;
  std::vector<std::unique_ptr<Expr>> selectArgs =
      args(std::move(positive), std::move(exponential));
  selectArgs.push_back(tensorExpr(x));
  addStatement(o, "O =",
               Elementwise{node(Expr::Kind::Select, DType::F32, {4},
                                std::move(selectArgs))});

  Contraction argmax;
  argmax.indexNames = {"i", "j"};
  argmax.outputIndices = {poly({r(1), r(0)})};
  argmax.aggregation = AggregationKind::Max;
  argmax.combination = CombinationKind::Cond;
  argmax.comparisonType = DType::I64;
  argmax.operands = {
      Access{a, {poly({r(1), r(0)}), poly({r(0), r(1)})}, loc("A[i")},
      Access{b, {poly({r(0), r(1)})}, loc("B[j")},
      Access{a, {poly({r(1), r(0)}), poly({r(0), r(1)})}, loc("? A")}};
  addStatement(p, "P[i", argmax);

  std::string text = emitAndPrint();
  for (const char *expected :
       {"tile.ew gt %arg0, %0 : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>",
        "tile.ew exp %arg0 : (tensor<4xf32>) -> tensor<4xf32>",
        "tile.ew select %1, %2, %arg0 : (tensor<4xi1>, tensor<4xf32>, "
        "tensor<4xf32>) -> tensor<4xf32>",
        // A and B compare in i64; the value A aggregates in f32.
        "tile.cast %arg1 : tensor<2x4xi32> -> tensor<2x4xi64>",
        "tile.cast %arg1 : tensor<2x4xi32> -> tensor<2x4xf32>",
        "tile.contract max, cond (i, j) [i] = %4[i, j], %arg2[j], %5[i, j] : "
        "tensor<2x4xi64>, tensor<4xi64>, tensor<2x4xf32> -> tensor<2xf32>"})
    EXPECT_NE(text.find(expected), std::string::npos) << expected << "\n"
                                                      << text;
}

TEST_F(ProgramToTileTest, ReshapeShapeAndIndex) {
  setSource("function (X[M, N]) -> (R, S, I) {\n"
            "  R = reshape(X, 12);\n"
            "  S = shape(X);\n"
            "  I = index(X, 1);\n"
            "}\n");
  unsigned x = addTensor("X", DType::U16, {3, 4}, true);
  unsigned rTensor = addTensor("R", DType::U16, {12});
  unsigned s = addTensor("S", DType::I32, {2});
  unsigned i = addTensor("I", DType::I32, {3, 4});
  addOutput(rTensor);
  addOutput(s);
  addOutput(i);
  addStatement(rTensor, "R =", Reshape{x});
  addStatement(s, "S =", ShapeOf{x});
  auto index = node(Expr::Kind::Index, DType::I32, {3, 4}, {});
  index->tensor = x;
  index->axis = 1;
  addStatement(i, "I =", Elementwise{std::move(index)});

  std::string text = emitAndPrint();
  for (const char *expected :
       {"tile.reshape %arg0 : tensor<3x4xui16> -> tensor<12xui16>",
        "tile.shape %arg0 : tensor<3x4xui16> -> tensor<2xi32>",
        "tile.index 1 : tensor<3x4xi32>"})
    EXPECT_NE(text.find(expected), std::string::npos) << expected << "\n"
                                                      << text;
}

TEST_F(ProgramToTileTest, OpsPointIntoTheSource) {
  setSource("function (X[N]) -> (Y) {\n"
            "  Y = -X;\n"
            "}\n");
  unsigned x = addTensor("X", DType::F64, {5}, true);
  unsigned y = addTensor("Y", DType::F64, {5});
  addOutput(y);
  auto negation = node(Expr::Kind::Unary, DType::F64, {5}, args(tensorExpr(x)));
  addStatement(y, "Y =", Elementwise{std::move(negation)});
  emitAndPrint();
  ASSERT_TRUE(module);

  tilec::tile::ElementwiseOp op;
  module->walk([&](tilec::tile::ElementwiseOp found) { op = found; });
  ASSERT_TRUE(op);
  auto name = llvm::dyn_cast<mlir::NameLoc>(op.getLoc());
  ASSERT_TRUE(name);
  EXPECT_EQ(name.getName().getValue(), "Y");
  auto fileLoc = llvm::dyn_cast<mlir::FileLineColLoc>(name.getChildLoc());
  ASSERT_TRUE(fileLoc);
  EXPECT_EQ(fileLoc.getFilename().getValue(), "test.tile");
  EXPECT_EQ(fileLoc.getLine(), 2u);
  EXPECT_EQ(fileLoc.getColumn(), 3u);

  auto function = *module->getOps<mlir::func::FuncOp>().begin();
  auto argLoc = llvm::dyn_cast<mlir::NameLoc>(function.getArgument(0).getLoc());
  ASSERT_TRUE(argLoc);
  EXPECT_EQ(argLoc.getName().getValue(), "X");
  auto argFileLoc = llvm::cast<mlir::FileLineColLoc>(argLoc.getChildLoc());
  EXPECT_EQ(argFileLoc.getLine(), 1u);
  EXPECT_EQ(argFileLoc.getColumn(), 11u);
}

} // namespace
