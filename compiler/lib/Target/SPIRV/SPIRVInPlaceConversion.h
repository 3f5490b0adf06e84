//===- SPIRVInPlaceConversion.h - Ops converted in place -----*- C++ -*-===//
//
// The ops whose SPIR-V counterpart takes the same types, made in their place
// before MLIR's dialect conversion, which then takes them for legal.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_SPIRV_SPIRVINPLACECONVERSION_H
#define TILEC_LIB_TARGET_SPIRV_SPIRVINPLACECONVERSION_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tilec {

/// Gives every `index` value of `kernels` the integer type `indexType`, as
/// the conversion's type converter would, where each comes from an op whose
/// conversion reads only its operands' converted values (arith, the work-item
/// and work-group ids, scf.for and scf.if); elsewhere it changes nothing.
/// Then converts in place every fma, broadcast of a scalar, extract of a
/// lane at a constant position, select and integer constant, sum,
/// difference, product, unsigned quotient and remainder, bitwise operation
/// and comparison whose operand and result types `types` keeps as they are,
/// to the spirv op that the conversion's patterns would make of it. The
/// kernel IR is then no longer valid (a memref.load may take an i32); only
/// the conversion may follow.
void convertOpsInPlace(mlir::gpu::GPUModuleOp kernels,
                       const mlir::TypeConverter &types,
                       mlir::IntegerType indexType);

} // namespace tilec

#endif // TILEC_LIB_TARGET_SPIRV_SPIRVINPLACECONVERSION_H
