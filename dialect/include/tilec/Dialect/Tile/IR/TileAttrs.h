//===- TileAttrs.h - Attributes of the tile dialect -------------*- C++ -*-===//

#ifndef TILEC_DIALECT_TILE_IR_TILEATTRS_H
#define TILEC_DIALECT_TILE_IR_TILEATTRS_H

#include "tilec/Dialect/Tile/IR/ElementwiseKind.h"
#include "tilec/Support/Rational.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "tilec/Dialect/Tile/IR/TileEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tilec/Dialect/Tile/IR/TileAttrs.h.inc"

#endif // TILEC_DIALECT_TILE_IR_TILEATTRS_H
