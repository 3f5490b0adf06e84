//===- Elementwise.cpp - Typing elementwise statements --------------------===//
//
// Types an elementwise expression bottom-up with the promotion rules of
// docs/language.md (section 5), inserting a Cast wherever an operand's dtype
// differs from the dtype its operation computes in, and computes NumPy
// broadcast shapes.
//
// Literals (and dimension names used as values) stay untyped until they meet
// a typed operand: an int literal takes that operand's type (it must fit), a
// float literal takes the float type in play (f32 next to an integer). A
// literal with no typed partner is i32 (i64 when it does not fit), or f32.
// `+`, `-` and `*` of two literals fold into a literal.
//
//===----------------------------------------------------------------------===//

#include "Specializer.h"
#include "tilec/Sema/Builtins.h"
#include "tilec/Sema/TypePromotion.h"
#include "tilec/Support/CheckedArithmetic.h"

#include "llvm/ADT/StringSwitch.h"

#include <limits>

namespace tilec {
namespace sema {
namespace {

using ExprPtr = std::unique_ptr<Expr>;

/// A typed expression, or an untyped literal (a Constant whose dtype is
/// provisional) waiting for a typed partner.
struct TypedExpr {
  enum class Literal { None, Int, Float };
  ExprPtr expr;
  Literal literal = Literal::None;

  bool isLiteral() const { return literal != Literal::None; }
};

/// The explicit conversions the language spells as builtins.
enum class CastBuiltin { AsFloat, AsInt, AsUInt, AsBool, AsBF16 };

class ElementwiseTyper {
public:
  explicit ElementwiseTyper(Specializer &specializer)
      : specializer(specializer), diags(specializer.getDiags()) {}

  std::optional<TypedExpr> type(const ast::Expr &expr);
  /// `typed` with a definite dtype (literals get their default type).
  ExprPtr materializeDefault(TypedExpr typed);

private:
  std::optional<TypedExpr> typeName(const ast::Expr &expr);
  std::optional<TypedExpr> typeUnary(const ast::Expr &expr);
  std::optional<TypedExpr> typeBinary(const ast::Expr &expr);
  /// `lhs op rhs` of two literals (op is +, - or *) as a literal, the way
  /// NumPy folds Python scalars: `S / (R * C)` keeps S's type.
  std::optional<TypedExpr> foldLiterals(const ast::Expr &expr, TypedExpr lhs,
                                        const TypedExpr &rhs);
  std::optional<TypedExpr> typeSelect(const ast::Expr &expr,
                                      const ast::Expr &condition,
                                      const ast::Expr &ifTrue,
                                      const ast::Expr &ifFalse);
  std::optional<TypedExpr> typeCall(const ast::Expr &expr);
  std::optional<TypedExpr> typeBuiltin(const ast::Expr &expr, Builtin builtin);
  std::optional<TypedExpr> typeCast(const ast::Expr &expr, CastBuiltin cast);
  std::optional<TypedExpr> typeIndex(const ast::Expr &expr);
  /// Types every operand of `expr`; fails if any fails.
  std::optional<std::vector<TypedExpr>> typeOperands(const ast::Expr &expr);
  bool checkArity(const ast::Expr &expr, unsigned arity);

  /// The dtype an operation on `a` and `b` computes in; `arithmetic` turns
  /// bool into i32.
  DType getCommonType(const TypedExpr &a, const TypedExpr &b,
                      bool arithmetic) const;
  /// `typed` converted to `dtype`: literals become constants of `dtype`
  /// (reporting values that do not fit), typed values get a Cast.
  ExprPtr convert(TypedExpr typed, DType dtype);
  std::optional<Shape> broadcast(const Shape &a, const Shape &b,
                                 llvm::SMLoc loc);
  /// A node of `kind` over `operands`, with their broadcast shape.
  std::optional<TypedExpr> makeNode(Expr::Kind kind, DType dtype,
                                    llvm::SMLoc loc,
                                    std::vector<ExprPtr> operands);

  Specializer &specializer;
  Diagnostics &diags;
};

} // namespace

static ExprPtr makeCast(ExprPtr operand, DType dtype) {
  if (operand->dtype == dtype)
    return operand;
  auto cast = std::make_unique<Expr>();
  cast->kind = Expr::Kind::Cast;
  cast->dtype = dtype;
  cast->shape = operand->shape;
  cast->loc = operand->loc;
  cast->operands.push_back(std::move(operand));
  return cast;
}

/// A read of tensor `index` (declared as `decl`) at `loc`.
static ExprPtr makeTensorNode(const TensorDecl &decl, unsigned index,
                              llvm::SMLoc loc) {
  auto node = std::make_unique<Expr>();
  node->kind = Expr::Kind::Tensor;
  node->tensor = index;
  node->dtype = decl.dtype;
  node->shape = decl.shape;
  node->loc = loc;
  return node;
}

static bool fitsInI32(int64_t value) {
  return value >= std::numeric_limits<int32_t>::min() &&
         value <= std::numeric_limits<int32_t>::max();
}

DType ElementwiseTyper::getCommonType(const TypedExpr &a, const TypedExpr &b,
                                      bool arithmetic) const {
  using Literal = TypedExpr::Literal;
  if (a.isLiteral() && b.isLiteral()) {
    if (a.literal == Literal::Float || b.literal == Literal::Float)
      return DType::F32;
    bool small = fitsInI32(std::get<int64_t>(a.expr->constant)) &&
                 fitsInI32(std::get<int64_t>(b.expr->constant));
    return small ? DType::I32 : DType::I64;
  }
  if (a.isLiteral() || b.isLiteral()) {
    const TypedExpr &literal = a.isLiteral() ? a : b;
    DType other = a.isLiteral() ? b.expr->dtype : a.expr->dtype;
    if (literal.literal == Literal::Float)
      return isFloat(other) ? other : DType::F32;
    return other == DType::Bool ? DType::I32 : other;
  }
  return arithmetic ? promoteArithmetic(a.expr->dtype, b.expr->dtype)
                    : promoteTypes(a.expr->dtype, b.expr->dtype);
}

ExprPtr ElementwiseTyper::materializeDefault(TypedExpr typed) {
  switch (typed.literal) {
  case TypedExpr::Literal::None:
    return std::move(typed.expr);
  case TypedExpr::Literal::Float:
    return convert(std::move(typed), DType::F32);
  case TypedExpr::Literal::Int: {
    bool small = fitsInI32(std::get<int64_t>(typed.expr->constant));
    return convert(std::move(typed), small ? DType::I32 : DType::I64);
  }
  }
  return nullptr;
}

ExprPtr ElementwiseTyper::convert(TypedExpr typed, DType dtype) {
  if (!typed.isLiteral())
    return makeCast(std::move(typed.expr), dtype);
  // A literal converts to bool through an explicit cast of its default type.
  if (dtype == DType::Bool)
    return makeCast(materializeDefault(std::move(typed)), DType::Bool);
  Expr &constant = *typed.expr;
  if (typed.literal == TypedExpr::Literal::Float) {
    constant.dtype = dtype;
    return std::move(typed.expr);
  }
  int64_t value = std::get<int64_t>(constant.constant);
  if (isFloat(dtype)) {
    constant.constant = double(value);
  } else {
    unsigned bits = dtypeBits(dtype);
    bool fits;
    if (isSignedInt(dtype))
      fits = bits == 64 || (value >= -(int64_t(1) << (bits - 1)) &&
                            value < (int64_t(1) << (bits - 1)));
    else
      fits = value >= 0 && (bits == 64 || value < (int64_t(1) << bits));
    if (!fits) {
      diags.error(constant.loc, "integer literal " + llvm::Twine(value) +
                                    " does not fit in " + dtypeName(dtype));
      return nullptr;
    }
    if (isUnsignedInt(dtype))
      constant.constant = uint64_t(value);
  }
  constant.dtype = dtype;
  return std::move(typed.expr);
}

std::optional<Shape> ElementwiseTyper::broadcast(const Shape &a, const Shape &b,
                                                 llvm::SMLoc loc) {
  Shape result(std::max(a.size(), b.size()));
  for (size_t i = 0; i < result.size(); ++i) {
    // Right-aligned: position i from the end.
    int64_t x = i < a.size() ? a[a.size() - 1 - i] : 1;
    int64_t y = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (x != y && x != 1 && y != 1) {
      diags.error(loc, "cannot broadcast shapes " + formatShape(a) + " and " +
                           formatShape(b));
      return std::nullopt;
    }
    result[result.size() - 1 - i] = x == 1 ? y : x;
  }
  if (!specializer.checkElementCount(result, loc))
    return std::nullopt;
  return result;
}

std::optional<TypedExpr>
ElementwiseTyper::makeNode(Expr::Kind kind, DType dtype, llvm::SMLoc loc,
                           std::vector<ExprPtr> operands) {
  auto node = std::make_unique<Expr>();
  node->kind = kind;
  node->dtype = dtype;
  node->loc = loc;
  for (const ExprPtr &operand : operands) {
    if (!operand)
      return std::nullopt;
    std::optional<Shape> shape = broadcast(node->shape, operand->shape, loc);
    if (!shape)
      return std::nullopt;
    node->shape = std::move(*shape);
  }
  node->operands = std::move(operands);
  return TypedExpr{std::move(node), TypedExpr::Literal::None};
}

std::optional<std::vector<TypedExpr>>
ElementwiseTyper::typeOperands(const ast::Expr &expr) {
  std::vector<TypedExpr> operands;
  bool ok = true;
  for (const ast::ExprPtr &operand : expr.operands) {
    std::optional<TypedExpr> typed = type(*operand);
    ok &= typed.has_value();
    if (typed)
      operands.push_back(std::move(*typed));
  }
  if (!ok)
    return std::nullopt;
  return operands;
}

static std::optional<TypedExpr> makeIntLiteral(int64_t value, llvm::SMLoc loc) {
  auto constant = std::make_unique<Expr>();
  constant->kind = Expr::Kind::Constant;
  constant->dtype = DType::I64;
  constant->constant = value;
  constant->loc = loc;
  return TypedExpr{std::move(constant), TypedExpr::Literal::Int};
}

std::optional<TypedExpr> ElementwiseTyper::type(const ast::Expr &expr) {
  switch (expr.kind) {
  case ast::Expr::Kind::IntLiteral:
    return makeIntLiteral(expr.intValue, expr.loc);
  case ast::Expr::Kind::FloatLiteral: {
    auto constant = std::make_unique<Expr>();
    constant->kind = Expr::Kind::Constant;
    constant->dtype = DType::F32;
    constant->constant = expr.floatValue;
    constant->loc = expr.loc;
    return TypedExpr{std::move(constant), TypedExpr::Literal::Float};
  }
  case ast::Expr::Kind::Name:
    return typeName(expr);
  case ast::Expr::Kind::Access:
    diags.error(expr.loc, "indexing '" + expr.name +
                              "[...]' is only allowed in contractions; "
                              "elementwise statements use whole tensors");
    return std::nullopt;
  case ast::Expr::Kind::Unary:
    return typeUnary(expr);
  case ast::Expr::Kind::Binary:
    return typeBinary(expr);
  case ast::Expr::Kind::Conditional:
    return typeSelect(expr, *expr.operands[0], *expr.operands[1],
                      *expr.operands[2]);
  case ast::Expr::Kind::Call:
    return typeCall(expr);
  }
  return std::nullopt;
}

std::optional<TypedExpr> ElementwiseTyper::typeName(const ast::Expr &expr) {
  if (!ast::isUpperCaseName(expr.name)) {
    diags.error(expr.loc, "index variable '" + expr.name +
                              "' used outside a contraction (tensor and "
                              "dimension names start with an upper-case "
                              "letter)");
    return std::nullopt;
  }
  if (std::optional<int64_t> value = specializer.lookupDim(expr.name))
    return makeIntLiteral(*value, expr.loc);
  std::optional<unsigned> tensor =
      specializer.lookupTensor(expr.name, expr.loc);
  if (!tensor)
    return std::nullopt;
  return TypedExpr{
      makeTensorNode(specializer.getTensor(*tensor), *tensor, expr.loc),
      TypedExpr::Literal::None};
}

std::optional<TypedExpr> ElementwiseTyper::typeUnary(const ast::Expr &expr) {
  std::optional<TypedExpr> operand = type(*expr.operands[0]);
  if (!operand)
    return std::nullopt;
  UnaryOp op = expr.unaryOp;
  if (op == UnaryOp::Neg && operand->isLiteral()) {
    // Negative literals stay untyped: `X * -1` has X's type.
    ConstantValue &value = operand->expr->constant;
    if (operand->literal == TypedExpr::Literal::Int)
      value = -std::get<int64_t>(value);
    else
      value = -std::get<double>(value);
    operand->expr->loc = expr.loc;
    return operand;
  }
  DType dtype;
  if (op == UnaryOp::LogicalNot) {
    dtype = DType::Bool;
  } else {
    ExprPtr typed = materializeDefault(std::move(*operand));
    dtype = typed->dtype;
    operand = TypedExpr{std::move(typed), TypedExpr::Literal::None};
    if (op == UnaryOp::BitNot && isFloat(dtype)) {
      diags.error(expr.loc, llvm::Twine("'~' needs an integer or bool "
                                        "operand, not ") +
                                dtypeName(dtype));
      return std::nullopt;
    }
    // `~` on bool is logical negation (NumPy); `-` on bool computes in i32.
    if (op == UnaryOp::BitNot && dtype == DType::Bool)
      op = UnaryOp::LogicalNot;
    if (op == UnaryOp::Neg && dtype == DType::Bool)
      dtype = DType::I32;
  }
  std::vector<ExprPtr> operands;
  operands.push_back(convert(std::move(*operand), dtype));
  std::optional<TypedExpr> result =
      makeNode(Expr::Kind::Unary, dtype, expr.loc, std::move(operands));
  if (result)
    result->expr->unaryOp = op;
  return result;
}

/// True when `typed` is an untyped integer literal equal to `value`, or (with
/// `predicate`) one satisfying it.
template <typename Predicate>
static bool isIntLiteralWhere(const TypedExpr &typed, Predicate predicate) {
  return typed.literal == TypedExpr::Literal::Int &&
         predicate(std::get<int64_t>(typed.expr->constant));
}

std::optional<TypedExpr> ElementwiseTyper::typeBinary(const ast::Expr &expr) {
  std::optional<std::vector<TypedExpr>> operands = typeOperands(expr);
  if (!operands)
    return std::nullopt;
  TypedExpr &lhs = (*operands)[0];
  TypedExpr &rhs = (*operands)[1];
  BinaryOp op = expr.binaryOp;
  if (lhs.isLiteral() && rhs.isLiteral() &&
      (op == BinaryOp::Add || op == BinaryOp::Sub || op == BinaryOp::Mul))
    return foldLiterals(expr, std::move(lhs), rhs);
  DType operandType, resultType;
  switch (op) {
  case BinaryOp::Eq:
  case BinaryOp::Ne:
  case BinaryOp::Lt:
  case BinaryOp::Gt:
  case BinaryOp::Le:
  case BinaryOp::Ge:
    operandType = getCommonType(lhs, rhs, /*arithmetic=*/false);
    resultType = DType::Bool;
    break;
  case BinaryOp::LogicalAnd:
  case BinaryOp::LogicalOr:
    operandType = resultType = DType::Bool;
    break;
  case BinaryOp::BitAnd:
  case BinaryOp::BitOr:
  case BinaryOp::BitXor:
    operandType = resultType = getCommonType(lhs, rhs, /*arithmetic=*/false);
    break;
  default:
    operandType = resultType = getCommonType(lhs, rhs, /*arithmetic=*/true);
    break;
  }

  bool integerOnly = op == BinaryOp::Rem || op == BinaryOp::BitAnd ||
                     op == BinaryOp::BitOr || op == BinaryOp::BitXor ||
                     op == BinaryOp::Shl || op == BinaryOp::Shr;
  if (integerOnly && isFloat(operandType)) {
    diags.error(expr.loc, llvm::Twine("'") + ast::getSpelling(op) +
                              "' needs integer operands, but they are " +
                              dtypeName(operandType));
    return std::nullopt;
  }
  if ((op == BinaryOp::Div || op == BinaryOp::Rem) && !isFloat(operandType) &&
      isIntLiteralWhere(rhs, [](int64_t value) { return value == 0; })) {
    diags.error(expr.loc, "integer division by zero");
    return std::nullopt;
  }
  if (op == BinaryOp::Shl || op == BinaryOp::Shr) {
    unsigned bits = dtypeBits(operandType);
    if (isIntLiteralWhere(rhs, [&](int64_t value) {
          return value < 0 || value >= int64_t(bits);
        })) {
      diags.error(expr.loc,
                  "shift amount " +
                      llvm::Twine(std::get<int64_t>(rhs.expr->constant)) +
                      " is out of range for " + dtypeName(operandType) +
                      " (0 to " + llvm::Twine(bits - 1) + ")");
      return std::nullopt;
    }
  }

  std::vector<ExprPtr> converted;
  converted.push_back(convert(std::move(lhs), operandType));
  converted.push_back(convert(std::move(rhs), operandType));
  std::optional<TypedExpr> result =
      makeNode(Expr::Kind::Binary, resultType, expr.loc, std::move(converted));
  if (result)
    result->expr->binaryOp = op;
  return result;
}

static double getLiteralAsDouble(const TypedExpr &literal) {
  if (const auto *value = std::get_if<int64_t>(&literal.expr->constant))
    return double(*value);
  return std::get<double>(literal.expr->constant);
}

std::optional<TypedExpr> ElementwiseTyper::foldLiterals(const ast::Expr &expr,
                                                        TypedExpr lhs,
                                                        const TypedExpr &rhs) {
  BinaryOp op = expr.binaryOp;
  if (lhs.literal == TypedExpr::Literal::Int &&
      rhs.literal == TypedExpr::Literal::Int) {
    int64_t a = std::get<int64_t>(lhs.expr->constant);
    int64_t b = std::get<int64_t>(rhs.expr->constant);
    std::optional<int64_t> result = op == BinaryOp::Add   ? checkedAdd(a, b)
                                    : op == BinaryOp::Sub ? checkedSub(a, b)
                                                          : checkedMul(a, b);
    if (!result) {
      diags.error(expr.loc, "integer overflow in a constant expression");
      return std::nullopt;
    }
    lhs.expr->constant = *result;
  } else {
    double a = getLiteralAsDouble(lhs), b = getLiteralAsDouble(rhs);
    lhs.expr->constant = op == BinaryOp::Add   ? a + b
                         : op == BinaryOp::Sub ? a - b
                                               : a * b;
    lhs.literal = TypedExpr::Literal::Float;
  }
  lhs.expr->loc = expr.loc;
  return lhs;
}

std::optional<TypedExpr>
ElementwiseTyper::typeSelect(const ast::Expr &expr, const ast::Expr &condition,
                             const ast::Expr &ifTrue,
                             const ast::Expr &ifFalse) {
  std::optional<TypedExpr> typedCondition = type(condition);
  std::optional<TypedExpr> typedTrue = type(ifTrue);
  std::optional<TypedExpr> typedFalse = type(ifFalse);
  if (!typedCondition || !typedTrue || !typedFalse)
    return std::nullopt;
  DType dtype = getCommonType(*typedTrue, *typedFalse, /*arithmetic=*/false);
  // Two literals: the select has their common (default) type.
  std::vector<ExprPtr> operands;
  operands.push_back(convert(std::move(*typedCondition), DType::Bool));
  operands.push_back(convert(std::move(*typedTrue), dtype));
  operands.push_back(convert(std::move(*typedFalse), dtype));
  return makeNode(Expr::Kind::Select, dtype, expr.loc, std::move(operands));
}

bool ElementwiseTyper::checkArity(const ast::Expr &expr, unsigned arity) {
  if (expr.operands.size() == arity)
    return true;
  diags.error(expr.loc, "'" + expr.name + "' takes " + llvm::Twine(arity) +
                            (arity == 1 ? " argument" : " arguments") +
                            " but " + llvm::Twine(expr.operands.size()) +
                            (expr.operands.size() == 1 ? " was" : " were") +
                            " given");
  return false;
}

std::optional<TypedExpr> ElementwiseTyper::typeCall(const ast::Expr &expr) {
  if (std::optional<Builtin> builtin = lookupBuiltin(expr.name))
    return typeBuiltin(expr, *builtin);
  std::optional<CastBuiltin> cast =
      llvm::StringSwitch<std::optional<CastBuiltin>>(expr.name)
          .Case("as_float", CastBuiltin::AsFloat)
          .Case("as_int", CastBuiltin::AsInt)
          .Case("as_uint", CastBuiltin::AsUInt)
          .Case("as_bool", CastBuiltin::AsBool)
          .Case("as_bf16", CastBuiltin::AsBF16)
          .Default(std::nullopt);
  if (cast)
    return typeCast(expr, *cast);
  if (expr.name == kSelectName) {
    if (!checkArity(expr, 3))
      return std::nullopt;
    return typeSelect(expr, *expr.operands[0], *expr.operands[1],
                      *expr.operands[2]);
  }
  if (expr.name == "index")
    return typeIndex(expr);
  if (expr.name == "reshape" || expr.name == "shape") {
    // A Reshape or ShapeOf is a statement of its own: its value becomes a
    // temporary tensor that this expression reads.
    std::optional<unsigned> tensor = specializer.addTemporary(expr);
    if (!tensor)
      return std::nullopt;
    return TypedExpr{
        makeTensorNode(specializer.getTensor(*tensor), *tensor, expr.loc),
        TypedExpr::Literal::None};
  }
  std::optional<unsigned> tensor = specializer.specializeCall(expr);
  if (!tensor)
    return std::nullopt;
  return TypedExpr{
      makeTensorNode(specializer.getTensor(*tensor), *tensor, expr.loc),
      TypedExpr::Literal::None};
}

std::optional<TypedExpr> ElementwiseTyper::typeBuiltin(const ast::Expr &expr,
                                                       Builtin builtin) {
  const BuiltinInfo &info = getBuiltinInfo(builtin);
  if (!checkArity(expr, info.arity))
    return std::nullopt;
  std::optional<std::vector<TypedExpr>> operands = typeOperands(expr);
  if (!operands)
    return std::nullopt;
  DType dtype = info.arity == 2
                    ? getCommonType((*operands)[0], (*operands)[1], true)
                    : getCommonType((*operands)[0], (*operands)[0], true);
  if (info.typeClass == BuiltinClass::Float && !isFloat(dtype))
    dtype = DType::F32;
  std::vector<ExprPtr> converted;
  for (TypedExpr &operand : *operands)
    converted.push_back(convert(std::move(operand), dtype));
  std::optional<TypedExpr> result =
      makeNode(Expr::Kind::Call, dtype, expr.loc, std::move(converted));
  if (result)
    result->expr->builtin = builtin;
  return result;
}

std::optional<TypedExpr> ElementwiseTyper::typeCast(const ast::Expr &expr,
                                                    CastBuiltin cast) {
  bool takesWidth = cast == CastBuiltin::AsFloat ||
                    cast == CastBuiltin::AsInt || cast == CastBuiltin::AsUInt;
  if (!checkArity(expr, takesWidth ? 2 : 1))
    return std::nullopt;
  DType dtype = cast == CastBuiltin::AsBool ? DType::Bool : DType::BF16;
  if (takesWidth) {
    const ast::Expr &width = *expr.operands[1];
    bool isFloatCast = cast == CastBuiltin::AsFloat;
    int64_t bits = width.intValue;
    bool valid =
        width.kind == ast::Expr::Kind::IntLiteral &&
        (bits == 16 || bits == 32 || bits == 64 || (!isFloatCast && bits == 8));
    if (!valid) {
      diags.error(width.loc,
                  "the width of '" + expr.name + "' must be " +
                      (isFloatCast ? "16, 32 or 64" : "8, 16, 32 or 64") +
                      ", written as an integer literal");
      return std::nullopt;
    }
    dtype = isFloatCast                  ? getFloatType(bits)
            : cast == CastBuiltin::AsInt ? getSignedIntType(bits)
                                         : getUnsignedIntType(bits);
  }
  std::optional<TypedExpr> operand = type(*expr.operands[0]);
  if (!operand)
    return std::nullopt;
  ExprPtr value = materializeDefault(std::move(*operand));
  if (!value)
    return std::nullopt;
  return TypedExpr{makeCast(std::move(value), dtype), TypedExpr::Literal::None};
}

std::optional<TypedExpr> ElementwiseTyper::typeIndex(const ast::Expr &expr) {
  if (!checkArity(expr, 2))
    return std::nullopt;
  const ast::Expr &axis = *expr.operands[1];
  std::optional<unsigned> tensor =
      specializer.specializeTensorArgument(*expr.operands[0]);
  if (!tensor)
    return std::nullopt;
  const TensorDecl &decl = specializer.getTensor(*tensor);
  if (axis.kind != ast::Expr::Kind::IntLiteral ||
      axis.intValue >= int64_t(decl.shape.size())) {
    diags.error(axis.loc, "the axis of 'index' must be an integer literal "
                          "below the rank of '" +
                              decl.name + "' (" +
                              formatType(decl.dtype, decl.shape) + ")");
    return std::nullopt;
  }
  auto node = std::make_unique<Expr>();
  node->kind = Expr::Kind::Index;
  node->dtype = DType::I32;
  node->shape = decl.shape;
  node->loc = expr.loc;
  node->tensor = *tensor;
  node->axis = unsigned(axis.intValue);
  return TypedExpr{std::move(node), TypedExpr::Literal::None};
}

std::optional<unsigned>
Specializer::specializeTensorArgument(const ast::Expr &expr) {
  // A dimension name is an integer value like a literal.
  if (expr.kind == ast::Expr::Kind::Name && !lookupDim(expr.name))
    return lookupTensor(expr.name, expr.loc);
  // A call's result is a tensor already.
  if (isFunctionCall(expr))
    return specializeCall(expr);
  return addTemporary(expr);
}

std::optional<unsigned> Specializer::addTemporary(const ast::Expr &value) {
  std::string name = makeTemporaryName();
  std::optional<Statement> statement = specializeValue(name, value.loc, value);
  if (!statement)
    return std::nullopt;
  const TensorDecl &decl = getTensor(statement->output);
  if (!checkTensorSize(decl.name, decl.dtype, decl.shape, value.loc))
    return std::nullopt;
  unsigned tensor = statement->output;
  // Before the statement being specialised, which reads it.
  program.statements.push_back(std::move(*statement));
  return tensor;
}

/// `O = reshape(X, d0, d1, ...)`.
static std::optional<Statement> specializeReshape(Specializer &specializer,
                                                  llvm::StringRef output,
                                                  llvm::SMLoc loc,
                                                  const ast::Expr &call) {
  Diagnostics &diags = specializer.getDiags();
  if (call.operands.empty()) {
    diags.error(call.loc, "'reshape' takes a tensor and its new extents");
    return std::nullopt;
  }
  std::optional<unsigned> input =
      specializer.specializeTensorArgument(*call.operands[0]);
  Shape shape;
  bool ok = input.has_value();
  for (size_t i = 1; i < call.operands.size(); ++i) {
    std::optional<int64_t> extent =
        specializer.evaluateInteger(*call.operands[i]);
    if (extent && *extent < 0) {
      diags.error(call.operands[i]->loc,
                  "reshape extent is negative (" + llvm::Twine(*extent) + ")");
      extent.reset();
    }
    ok &= extent.has_value();
    shape.push_back(extent.value_or(0));
  }
  if (!ok || !specializer.checkElementCount(shape, call.loc))
    return std::nullopt;
  const TensorDecl &decl = specializer.getTensor(*input);
  if (numElements(shape) != numElements(decl.shape)) {
    diags.error(call.loc, "cannot reshape '" + decl.name + "' (" +
                              formatType(decl.dtype, decl.shape) + ") to " +
                              formatShape(shape) +
                              ": the element counts differ");
    return std::nullopt;
  }
  Statement statement;
  statement.loc = loc;
  statement.output = specializer.addTensor(output, loc, decl.dtype, shape);
  statement.op = Reshape{*input};
  return statement;
}

/// `O = shape(X)`.
static std::optional<Statement> specializeShapeOf(Specializer &specializer,
                                                  llvm::StringRef output,
                                                  llvm::SMLoc loc,
                                                  const ast::Expr &call) {
  if (call.operands.size() != 1) {
    specializer.getDiags().error(call.loc, "'shape' takes one tensor");
    return std::nullopt;
  }
  std::optional<unsigned> input =
      specializer.specializeTensorArgument(*call.operands[0]);
  if (!input)
    return std::nullopt;
  int64_t rank = specializer.getTensor(*input).shape.size();
  Statement statement;
  statement.loc = loc;
  statement.output = specializer.addTensor(output, loc, DType::I32, {rank});
  statement.op = ShapeOf{*input};
  return statement;
}

std::optional<Statement> Specializer::specializeValue(llvm::StringRef output,
                                                      llvm::SMLoc loc,
                                                      const ast::Expr &value) {
  if (value.kind == ast::Expr::Kind::Call && value.name == "reshape")
    return specializeReshape(*this, output, loc, value);
  if (value.kind == ast::Expr::Kind::Call && value.name == "shape")
    return specializeShapeOf(*this, output, loc, value);

  ElementwiseTyper typer(*this);
  std::optional<TypedExpr> typed = typer.type(value);
  if (!typed)
    return std::nullopt;
  ExprPtr expr = typer.materializeDefault(std::move(*typed));
  Statement result;
  result.loc = loc;
  result.output = addTensor(output, loc, expr->dtype, expr->shape);
  result.op = Elementwise{std::move(expr)};
  return result;
}

std::optional<Statement>
Specializer::specializeElementwise(const ast::Statement &statement,
                                   const ast::ElementwiseStmt &elementwise) {
  return specializeValue(statement.output, statement.loc, *elementwise.value);
}

} // namespace sema
} // namespace tilec
