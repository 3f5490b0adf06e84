//===- SPIRVIntegerMerging.h - Integer arithmetic computed once -*- C++ -*-===//
//
// A CSE of the integer arithmetic alone, for the kernels that need no more.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_SPIRV_SPIRVINTEGERMERGING_H
#define TILEC_LIB_TARGET_SPIRV_SPIRVINTEGERMERGING_H

namespace mlir {
class Operation;
} // namespace mlir

namespace tilec {

/// Replaces each integer or index op without memory effects and regions
/// that computes what an op before it computes (the same operands,
/// attributes and properties) by that op, where the first dominates it: in
/// the same block or in a block around it. What MLIR's CSE does for these
/// ops, at a small part of its cost, since every other op is passed over
/// unhashed.
void mergeEqualIntegerArithmetic(mlir::Operation *root);

} // namespace tilec

#endif // TILEC_LIB_TARGET_SPIRV_SPIRVINTEGERMERGING_H
