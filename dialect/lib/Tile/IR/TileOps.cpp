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
