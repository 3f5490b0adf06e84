//===- TileDialect.h - The tile dialect -------------------------*- C++ -*-===//

#ifndef TILEC_DIALECT_TILE_IR_TILEDIALECT_H
#define TILEC_DIALECT_TILE_IR_TILEDIALECT_H

#include "mlir/IR/Dialect.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h.inc"

#endif // TILEC_DIALECT_TILE_IR_TILEDIALECT_H
