//===- Program.h - A specialised, fully typed Tile program ------*- C++ -*-===//
//
// The result of semantic analysis: one Tile function with every shape and
// dtype bound, every index polynomial normalised to exact rational affine
// form, every implicit conversion made explicit. Both the reference
// interpreter and the emission of the `tile` dialect consume this form, so it
// carries everything the language definition needs and nothing a backend
// chose.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SEMA_PROGRAM_H
#define TILEC_SEMA_PROGRAM_H

#include "tilec/Runtime/DType.h"
#include "tilec/Support/Rational.h"

#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tilec {

/// sum_k coeffs[k] * index_k + constant (normalised Rationals), over the index
/// variables of one contraction (coeffs.size() equals the number of index
/// variables).
struct AffinePoly {
  std::vector<Rational> coeffs;
  Rational constant;
};

/// A tensor of the program: an input, an intermediate or an output.
struct TensorDecl {
  std::string name;
  DType dtype = DType::F32;
  Shape shape;
  /// Where the name is defined: the parameter or the statement.
  llvm::SMLoc loc;
  bool isInput = false;
  bool isOutput = false;
};

/// One tensor access of a contraction: T[indices...].
struct Access {
  unsigned tensor = 0;
  std::vector<AffinePoly> indices;
  llvm::SMLoc loc;
};

/// `0 <= poly < bound`.
struct Constraint {
  AffinePoly poly;
  int64_t bound = 0;
  llvm::SMLoc loc;
};

enum class AggregationKind { Sum, Product, Max, Min, Assign };
/// The aggregation's spelling in Tile source: "+", "*", ">", "<" or "=".
const char *getAggregationSpelling(AggregationKind aggregation);
/// None: one operand. Mul, Add, Eq: two operands. Cond (`A == B ? C`): three.
enum class CombinationKind { None, Mul, Add, Eq, Cond };

/// The output's dtype is the contraction's result dtype. Operand values are
/// converted to it before they combine (Mul, Add) or aggregate (None, and C of
/// Cond); Eq and Cond compare A and B in `comparisonType`, their promoted
/// dtype, and an Eq contraction's output is Bool. sema guarantees that a
/// `default` tensor has the output's shape and dtype.
struct Contraction {
  /// Index variable names, in order of first appearance; AffinePoly
  /// coefficients are in this order.
  std::vector<std::string> indexNames;
  std::vector<AffinePoly> outputIndices;
  AggregationKind aggregation = AggregationKind::Sum;
  CombinationKind combination = CombinationKind::None;
  std::vector<Access> operands;
  std::vector<Constraint> constraints;
  bool noDefract = false;
  /// Eq and Cond: the dtype A and B are converted to and compared in.
  DType comparisonType = DType::Bool;
  /// The `default` tensor (same shape as the output), if any.
  std::optional<unsigned> defaultTensor;
};

// The elementwise operations, one enumerator per row of the table that the
// dialect reads too (tilec/Support/ElementwiseOps.def says how to add one).
enum class UnaryOp {
#define TILE_UNARY_OPERATOR(Kind, Mnemonic, Rule, Op, Spelling) Op,
#include "tilec/Support/ElementwiseOps.def"
};
enum class BinaryOp {
#define TILE_BINARY_OPERATOR(Kind, Mnemonic, Rule, Op, Spelling, Precedence) Op,
#include "tilec/Support/ElementwiseOps.def"
};
enum class Builtin {
#define TILE_BUILTIN(Kind, Mnemonic, Arity, Rule, Class) Kind,
#include "tilec/Support/ElementwiseOps.def"
};

/// A constant's value: bool for Bool, int64_t for signed ints, uint64_t for
/// unsigned ints, double for floats.
using ConstantValue = std::variant<bool, int64_t, uint64_t, double>;

/// A typed elementwise expression node. Sema makes every conversion explicit:
/// the operands of Unary, Binary, Call and the value operands of Select
/// already have the dtype the operation computes in (comparisons and logical
/// ops produce Bool), so consumers never apply promotion rules themselves.
/// `shape` is the broadcast result shape of the node.
struct Expr {
  enum class Kind {
    Constant, // `constant`; shape is empty (a scalar)
    Tensor,   // `tensor`; shape is the tensor's
    Index,    // index(X, axis): `tensor` is X, `axis`; I32
    Unary,    // `unaryOp`, operands[0]
    Binary,   // `binaryOp`, operands[0..1]
    Select,   // operands[0] (Bool) ? operands[1] : operands[2]
    Call,     // `builtin`, operands
    Cast,     // operands[0] converted to `dtype`
  };

  Kind kind = Kind::Constant;
  DType dtype = DType::F32;
  Shape shape;
  llvm::SMLoc loc;

  ConstantValue constant;
  unsigned tensor = 0;
  unsigned axis = 0;
  UnaryOp unaryOp = UnaryOp::Neg;
  BinaryOp binaryOp = BinaryOp::Add;
  Builtin builtin = Builtin::Exp;
  std::vector<std::unique_ptr<Expr>> operands;
};

/// `O = expr;` with NumPy broadcasting; the output has expr's shape and dtype.
struct Elementwise {
  std::unique_ptr<Expr> value;
};

/// `O = reshape(X, d0, d1, ...)`: same elements in C order, the output's shape.
struct Reshape {
  unsigned input = 0;
};

/// `O = shape(X)`: a 1-D I32 tensor holding X's extents.
struct ShapeOf {
  unsigned input = 0;
};

struct Statement {
  /// The tensor this statement defines.
  unsigned output = 0;
  llvm::SMLoc loc;
  std::variant<Contraction, Elementwise, Reshape, ShapeOf> op;
};

/// One specialised function.
struct Program {
  std::string name;
  /// The `function` keyword: where diagnostics about the whole function
  /// point.
  llvm::SMLoc loc;
  std::vector<TensorDecl> tensors;
  /// Parameters in declaration order, and results in the `-> (...)` order.
  std::vector<unsigned> inputs;
  std::vector<unsigned> outputs;
  /// In dependency order (the source order).
  std::vector<Statement> statements;
  /// Every dimension name with its bound value.
  std::map<std::string, int64_t> dims;
};

} // namespace tilec

#endif // TILEC_SEMA_PROGRAM_H
