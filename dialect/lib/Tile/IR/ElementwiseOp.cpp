//===- ElementwiseOp.cpp - tile.ew ----------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tilec::tile;

llvm::StringRef tilec::tile::stringifyElementwiseKind(ElementwiseKind kind) {
  switch (kind) {
#define TILE_ELEMENTWISE_OP(Kind, Mnemonic, Arity, Rule)                       \
  case ElementwiseKind::Kind:                                                  \
    return Mnemonic;
#include "tilec/Support/ElementwiseOps.def"
  }
  llvm_unreachable("unknown elementwise kind");
}

std::optional<ElementwiseKind>
tilec::tile::symbolizeElementwiseKind(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<ElementwiseKind>>(name)
#define TILE_ELEMENTWISE_OP(Kind, Mnemonic, Arity, Rule)                       \
  .Case(Mnemonic, ElementwiseKind::Kind)
#include "tilec/Support/ElementwiseOps.def"
      .Default(std::nullopt);
}

unsigned tilec::tile::getElementwiseArity(ElementwiseKind kind) {
  switch (kind) {
#define TILE_ELEMENTWISE_OP(Kind, Mnemonic, Arity, Rule)                       \
  case ElementwiseKind::Kind:                                                  \
    return Arity;
#include "tilec/Support/ElementwiseOps.def"
  }
  llvm_unreachable("unknown elementwise kind");
}

ElementwiseTypingRule
tilec::tile::getElementwiseTypingRule(ElementwiseKind kind) {
  switch (kind) {
#define TILE_ELEMENTWISE_OP(Kind, Mnemonic, Arity, Rule)                       \
  case ElementwiseKind::Kind:                                                  \
    return ElementwiseTypingRule::Rule;
#include "tilec/Support/ElementwiseOps.def"
  }
  llvm_unreachable("unknown elementwise kind");
}

unsigned ElementwiseOp::getArity(ElementwiseKind kind) {
  return getElementwiseArity(kind);
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

  switch (getElementwiseTypingRule(kind)) {
  case ElementwiseTypingRule::Comparison:
    if (failed(requireAll(types, types.front(), "operands")))
      return failure();
    return requireAll(resultType, i1, "a result");
  case ElementwiseTypingRule::Logical:
    if (failed(requireAll(types, i1, "operands")))
      return failure();
    return requireAll(resultType, i1, "a result");
  case ElementwiseTypingRule::Select:
    if (failed(requireAll(types.front(), i1, "a condition")))
      return failure();
    return requireAll(ArrayRef<Type>(types).drop_front(), resultType, "values");
  case ElementwiseTypingRule::Integer:
    if (!isa<IntegerType>(resultType))
      return emitOpError("'") << stringifyElementwiseKind(kind)
                              << "' needs integers, got " << resultType;
    return requireAll(types, resultType, "operands");
  case ElementwiseTypingRule::Float:
    if (!isa<FloatType>(resultType))
      return emitOpError("'") << stringifyElementwiseKind(kind)
                              << "' needs floats, got " << resultType;
    return requireAll(types, resultType, "operands");
  case ElementwiseTypingRule::Uniform:
    return requireAll(types, resultType, "operands");
  }
  llvm_unreachable("unknown typing rule");
}
