//===- SPIRVVectorRows.h - Work-group arrays as arrays of vectors -*- C++ -*-=//
//
// The conversion of a work-group array that the preparation retyped to its
// rows of W elements (SPIRVVectorBuffers.cpp) into an array of vectors.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_SPIRV_SPIRVVECTORROWS_H
#define TILEC_LIB_TARGET_SPIRV_SPIRVVECTORROWS_H

#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"

namespace tilec {

/// Declares a work-group `memref<Q x W x T>` (W = 2, 3 or 4) as an array of
/// Q vector<WxT>: `typeConverter` converts its type, and the patterns its
/// accesses (a `vector.load` or `vector.store` of a whole row to one
/// OpLoad or OpStore of the vector, a `memref.load` or `memref.store` of an
/// element to one of the vector's component). `typeConverter` must outlive
/// the conversion.
void populateVectorRowPatterns(mlir::SPIRVTypeConverter &typeConverter,
                               mlir::RewritePatternSet &patterns);

} // namespace tilec

#endif // TILEC_LIB_TARGET_SPIRV_SPIRVVECTORROWS_H
