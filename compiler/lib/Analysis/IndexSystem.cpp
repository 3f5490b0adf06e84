//===- IndexSystem.cpp - The index system of a tile.contract -------------===//

#include "tilec/Analysis/IndexSpace.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

using namespace tilec;

/// Row `result` of `map` as the analysis reads it.
static IndexSystem::Row getRow(tile::RationalMapAttr map, unsigned result) {
  IndexSystem::Row row;
  for (const Rational &value : map.getRow(result)) {
    row.num.push_back(value.num);
    row.den.push_back(value.den);
  }
  return row;
}

static IndexSystem::Access getAccess(tile::RationalMapAttr map,
                                     mlir::Type type) {
  IndexSystem::Access access;
  for (unsigned result = 0, e = map.getNumResults(); result < e; ++result)
    access.rows.push_back(getRow(map, result));
  auto shape = llvm::cast<mlir::RankedTensorType>(type).getShape();
  access.extents.assign(shape.begin(), shape.end());
  return access;
}

IndexSystem tilec::getIndexSystem(tile::ContractOp op) {
  IndexSystem system;
  system.numIndices = op.getOutputMap().getNumDims();
  for (mlir::Attribute name : op.getIndexNames())
    system.names.push_back(llvm::cast<mlir::StringAttr>(name).str());
  system.output = getAccess(op.getOutputMap(), op.getResult().getType());
  for (auto [input, operand] : llvm::enumerate(op.getInputs()))
    system.inputs.push_back(
        getAccess(op.getInputMap(input), operand.getType()));
  if (tile::RationalMapAttr constraints = op.getConstraintsAttr()) {
    llvm::ArrayRef<int64_t> bounds = *op.getConstraintBounds();
    for (unsigned result = 0, e = constraints.getNumResults(); result < e;
         ++result)
      system.constraints.emplace_back(getRow(constraints, result),
                                      bounds[result]);
  }
  return system;
}
