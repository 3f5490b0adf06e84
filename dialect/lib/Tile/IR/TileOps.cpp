//===- TileOps.cpp - Operations of the tile dialect -----------------------===//
//
// The generated op classes and the verifiers of the simple ops; tile.contract
// and tile.ew live in their own files.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileOps.h"

using namespace mlir;
using namespace tilec::tile;

#define GET_OP_CLASSES
#include "tilec/Dialect/Tile/IR/TileOps.cpp.inc"

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> location,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  Type type = adaptor.getValue().getType();
  if (!isa<IntegerType, FloatType>(type))
    return emitOptionalError(location,
                             "constant value must be an integer or "
                             "float attribute, got type ",
                             type);
  types.push_back(RankedTensorType::get({}, type));
  return success();
}

LogicalResult ConstantOp::verify() {
  if (!isa<IntegerAttr, FloatAttr>(getValue()))
    return emitOpError("value must be an integer or float attribute");
  Type elementType = getType().getElementType();
  if (getValue().getType() != elementType)
    return emitOpError("value of type ")
           << getValue().getType() << " does not match the result element type "
           << elementType;
  return success();
}

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

LogicalResult CastOp::verify() {
  auto inputType = getInput().getType();
  if (inputType.getShape() != getType().getShape())
    return emitOpError("changes the shape from ")
           << inputType << " to " << getType() << "; a cast keeps the shape";
  return success();
}

//===----------------------------------------------------------------------===//
// ReshapeOp
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  auto inputType = getInput().getType();
  if (inputType.getElementType() != getType().getElementType())
    return emitOpError("changes the element type from ")
           << inputType.getElementType() << " to "
           << getType().getElementType();
  if (inputType.getNumElements() != getType().getNumElements())
    return emitOpError("reshapes ")
           << inputType.getNumElements() << " elements into "
           << getType().getNumElements();
  return success();
}

//===----------------------------------------------------------------------===//
// IndexOp
//===----------------------------------------------------------------------===//

LogicalResult IndexOp::verify() {
  if (getAxis() >= static_cast<uint64_t>(getType().getRank()))
    return emitOpError("axis ")
           << getAxis() << " is out of range for rank " << getType().getRank();
  return success();
}

//===----------------------------------------------------------------------===//
// ShapeOp
//===----------------------------------------------------------------------===//

LogicalResult ShapeOp::verify() {
  int64_t rank = getInput().getType().getRank();
  if (getType().getDimSize(0) != rank)
    return emitOpError("result must hold ")
           << rank << " extents, one per dimension of the input, but has "
           << getType().getDimSize(0);
  return success();
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

YieldOp KernelOp::getYield() { return cast<YieldOp>(getBody()->back()); }

RankedTensorType KernelOp::getIterationType() {
  if (getKind() == KernelKind::Copy)
    return cast<RankedTensorType>(getYield().getValues()[0].getType());
  // A row kernel iterates over the rows its first reduction reads.
  if (getKind() == KernelKind::Row)
    if (auto contract = dyn_cast<ContractOp>(getBody()->front()))
      return cast<RankedTensorType>(contract.getInputs()[0].getType());
  return cast<RankedTensorType>(getBody()->front().getResult(0).getType());
}

LogicalResult KernelOp::verify() {
  Block *body = getBody();
  auto yield = dyn_cast<YieldOp>(body->back());
  if (!yield)
    return emitOpError("body must end in a tile.yield");
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError("yields ")
           << yield.getValues().getTypes() << " but its results are "
           << getResultTypes();
  if (std::optional<ArrayRef<int64_t>> bounds = getChunkBounds()) {
    int64_t rows =
        getIterationType().getRank() > 0 ? getIterationType().getDimSize(0) : 1;
    if (bounds->size() < 2 || bounds->front() != 0 || bounds->back() != rows ||
        !llvm::is_sorted(*bounds, std::less_equal<int64_t>()))
      return emitOpError("chunk_bounds must rise strictly from 0 to the ")
             << rows << " rows of the outermost dimension";
  }
  if (std::optional<ArrayRef<int64_t>> bytes = getPieceBytes())
    if (bytes->size() != getNumResults())
      return emitOpError("has ") << getNumResults() << " results but "
                                 << bytes->size() << " piece sizes";
  if (getKind() == KernelKind::Copy) {
    if (body->getOperations().size() != 1 || yield.getValues().size() != 1)
      return emitOpError("a copy kernel holds no ops and yields one value");
    if (yield.getValues()[0].getParentRegion() == &getRegion())
      return emitOpError("a copy kernel yields a value defined outside it");
    return success();
  }
  if (body->getOperations().size() == 1)
    return emitOpError("an ")
           << stringifyKernelKind(getKind()) << " kernel holds at least one op";
  Operation &first = body->front();
  if (getKind() == KernelKind::Contraction && !isa<ContractOp>(first))
    return emitOpError("a contraction kernel starts with its tile.contract");
  if (getKind() == KernelKind::Row)
    return verifyRowKernel();
  ArrayRef<int64_t> shape = getIterationType().getShape();
  for (Operation &op : body->without_terminator()) {
    bool elementwise =
        isa<ElementwiseOp, CastOp, ConstantOp, IndexOp, ShapeOp>(op);
    if (!elementwise && &op != &first)
      return op.emitOpError("cannot be fused into a kernel: only elementwise "
                            "ops follow a kernel's first op");
    if (!elementwise && getKind() == KernelKind::Elementwise)
      return op.emitOpError("is not elementwise, in an elementwise kernel");
    if (op.getNumResults() != 1 ||
        cast<RankedTensorType>(op.getResult(0).getType()).getShape() != shape)
      return op.emitOpError("does not have the kernel's shape ")
             << getIterationType();
  }
  for (Value value : yield.getValues())
    if (value.getParentRegion() != &getRegion())
      return emitOpError("yields a value it does not compute");
  return success();
}

LogicalResult KernelOp::verifyRowKernel() {
  Block *body = getBody();
  auto first = dyn_cast<ContractOp>(body->front());
  if (!first || first.getInputs().empty())
    return emitOpError("a row kernel starts with a reduction over rows");
  RankedTensorType rows = getIterationType();
  if (rows.getRank() != 2)
    return emitOpError("a row kernel iterates over a matrix, not ") << rows;
  int64_t m = rows.getDimSize(0);
  SmallVector<SmallVector<int64_t>> shapes = {
      {m, rows.getDimSize(1)}, {m}, {m, 1}};
  for (Operation &op : body->without_terminator()) {
    if (!isa<ContractOp, ElementwiseOp, CastOp, ConstantOp, IndexOp, ShapeOp,
             ReshapeOp>(op))
      return op.emitOpError("cannot be part of a row kernel");
    auto isRowShape = [&](ArrayRef<int64_t> shape) {
      return llvm::any_of(shapes,
                          [&](ArrayRef<int64_t> row) { return row == shape; });
    };
    if (op.getNumResults() != 1 ||
        !isRowShape(
            cast<RankedTensorType>(op.getResult(0).getType()).getShape()))
      return op.emitOpError("has neither the shape of the row kernel's rows ")
             << rows << " nor one element per row";
  }
  return success();
}
