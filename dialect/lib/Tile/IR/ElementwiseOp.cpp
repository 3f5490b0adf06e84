//===- ElementwiseOp.cpp - tile.ew ----------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tilec::tile;

namespace {
/// The typing rule of an elementwise kind.
enum class TypingRule {
  /// Operands share an element type, the result is i1.
  Comparison,
  /// Operands and result are i1.
  Logical,
  /// An i1 condition, then two values of the result's element type.
  Select,
  /// Operands and result share an integer element type.
  Integer,
  /// Operands and result share a float element type.
  Float,
  /// Operands and result share an element type.
  Uniform,
};
} // namespace

static TypingRule getTypingRule(ElementwiseKind kind) {
  switch (kind) {
  case ElementwiseKind::Eq:
  case ElementwiseKind::Ne:
  case ElementwiseKind::Lt:
  case ElementwiseKind::Gt:
  case ElementwiseKind::Le:
  case ElementwiseKind::Ge:
    return TypingRule::Comparison;
  case ElementwiseKind::Not:
  case ElementwiseKind::And:
  case ElementwiseKind::Or:
    return TypingRule::Logical;
  case ElementwiseKind::Select:
    return TypingRule::Select;
  case ElementwiseKind::BitNot:
  case ElementwiseKind::BitAnd:
  case ElementwiseKind::BitOr:
  case ElementwiseKind::BitXor:
  case ElementwiseKind::Shl:
  case ElementwiseKind::Shr:
    return TypingRule::Integer;
  case ElementwiseKind::Exp:
  case ElementwiseKind::Log:
  case ElementwiseKind::Sqrt:
  case ElementwiseKind::Rsqrt:
  case ElementwiseKind::Sin:
  case ElementwiseKind::Cos:
  case ElementwiseKind::Tan:
  case ElementwiseKind::Sinh:
  case ElementwiseKind::Cosh:
  case ElementwiseKind::Tanh:
  case ElementwiseKind::Asin:
  case ElementwiseKind::Acos:
  case ElementwiseKind::Atan:
  case ElementwiseKind::Atan2:
  case ElementwiseKind::Erf:
  case ElementwiseKind::Sigmoid:
    return TypingRule::Float;
  case ElementwiseKind::Neg:
  case ElementwiseKind::Add:
  case ElementwiseKind::Sub:
  case ElementwiseKind::Mul:
  case ElementwiseKind::Div:
  case ElementwiseKind::Rem:
  case ElementwiseKind::Pow:
  case ElementwiseKind::Floor:
  case ElementwiseKind::Ceil:
  case ElementwiseKind::Round:
  case ElementwiseKind::Abs:
  case ElementwiseKind::Sign:
  case ElementwiseKind::Min:
  case ElementwiseKind::Max:
  case ElementwiseKind::Relu:
    return TypingRule::Uniform;
  }
  llvm_unreachable("unknown elementwise kind");
}

unsigned ElementwiseOp::getArity(ElementwiseKind kind) {
  switch (kind) {
  case ElementwiseKind::Neg:
  case ElementwiseKind::Not:
  case ElementwiseKind::BitNot:
  case ElementwiseKind::Exp:
  case ElementwiseKind::Log:
  case ElementwiseKind::Sqrt:
  case ElementwiseKind::Rsqrt:
  case ElementwiseKind::Sin:
  case ElementwiseKind::Cos:
  case ElementwiseKind::Tan:
  case ElementwiseKind::Sinh:
  case ElementwiseKind::Cosh:
  case ElementwiseKind::Tanh:
  case ElementwiseKind::Asin:
  case ElementwiseKind::Acos:
  case ElementwiseKind::Atan:
  case ElementwiseKind::Erf:
  case ElementwiseKind::Floor:
  case ElementwiseKind::Ceil:
  case ElementwiseKind::Round:
  case ElementwiseKind::Abs:
  case ElementwiseKind::Sign:
  case ElementwiseKind::Relu:
  case ElementwiseKind::Sigmoid:
    return 1;
  case ElementwiseKind::Select:
    return 3;
  default:
    return 2;
  }
}

/// The NumPy broadcast of `shapes`, or nullopt when two extents clash.
static std::optional<SmallVector<int64_t>>
broadcastShapes(ArrayRef<ArrayRef<int64_t>> shapes) {
  size_t rank = 0;
  for (ArrayRef<int64_t> shape : shapes)
    rank = std::max(rank, shape.size());
  SmallVector<int64_t> result(rank, 1);
  for (ArrayRef<int64_t> shape : shapes) {
    // Shapes align on their last dimension.
    size_t offset = rank - shape.size();
    for (auto [position, extent] : llvm::enumerate(shape)) {
      int64_t &target = result[offset + position];
      if (extent == target || extent == 1)
        continue;
      if (target != 1)
        return std::nullopt;
      target = extent;
    }
  }
  return result;
}

static void printShape(InFlightDiagnostic &diag, ArrayRef<int64_t> shape) {
  diag << '[';
  llvm::interleaveComma(shape, diag);
  diag << ']';
}

LogicalResult ElementwiseOp::verify() {
  ElementwiseKind kind = getKind();
  unsigned arity = getArity(kind);
  if (getOperands().size() != arity)
    return emitOpError("'") << stringifyElementwiseKind(kind) << "' takes "
                            << arity << (arity == 1 ? " operand" : " operands")
                            << ", got " << getOperands().size();

  SmallVector<ArrayRef<int64_t>> shapes;
  for (Value operand : getOperands())
    shapes.push_back(cast<RankedTensorType>(operand.getType()).getShape());
  std::optional<SmallVector<int64_t>> shape = broadcastShapes(shapes);
  if (!shape) {
    InFlightDiagnostic diag = emitOpError("operand shapes ");
    llvm::interleave(
        shapes, [&](ArrayRef<int64_t> s) { printShape(diag, s); },
        [&]() { diag << ", "; });
    return diag << " do not broadcast";
  }
  if (ArrayRef<int64_t>(*shape) != getType().getShape()) {
    InFlightDiagnostic diag = emitOpError("result shape ");
    printShape(diag, getType().getShape());
    diag << " is not the broadcast shape ";
    printShape(diag, *shape);
    return diag;
  }

  SmallVector<Type> types;
  for (Value operand : getOperands())
    types.push_back(cast<RankedTensorType>(operand.getType()).getElementType());
  Type resultType = getType().getElementType();
  Type i1 = IntegerType::get(getContext(), 1);
  auto requireAll = [&](ArrayRef<Type> operandTypes, Type expected,
                        StringRef what) -> LogicalResult {
    for (Type type : operandTypes)
      if (type != expected)
        return emitOpError("'")
               << stringifyElementwiseKind(kind) << "' needs " << what
               << " of type " << expected << ", got " << type;
    return success();
  };

  switch (getTypingRule(kind)) {
  case TypingRule::Comparison:
    if (failed(requireAll(types, types.front(), "operands")))
      return failure();
    return requireAll(resultType, i1, "a result");
  case TypingRule::Logical:
    if (failed(requireAll(types, i1, "operands")))
      return failure();
    return requireAll(resultType, i1, "a result");
  case TypingRule::Select:
    if (failed(requireAll(types.front(), i1, "a condition")))
      return failure();
    return requireAll(ArrayRef<Type>(types).drop_front(), resultType, "values");
  case TypingRule::Integer:
    if (!isa<IntegerType>(resultType))
      return emitOpError("'") << stringifyElementwiseKind(kind)
                              << "' needs integers, got " << resultType;
    return requireAll(types, resultType, "operands");
  case TypingRule::Float:
    if (!isa<FloatType>(resultType))
      return emitOpError("'") << stringifyElementwiseKind(kind)
                              << "' needs floats, got " << resultType;
    return requireAll(types, resultType, "operands");
  case TypingRule::Uniform:
    return requireAll(types, resultType, "operands");
  }
  llvm_unreachable("unknown typing rule");
}
