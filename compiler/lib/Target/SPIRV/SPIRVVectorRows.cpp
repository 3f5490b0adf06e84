//===- SPIRVVectorRows.cpp - Work-group arrays as arrays of vectors -------===//
//
// The tiled product stages its A tile one element at a time and reads it
// back as vectors: OpenCL C reads a float4 of a scalar __local array (one
// 128-bit LDS on NVIDIA), but SPIR-V's logical addressing cannot point a
// vector at a scalar array, and a scalar array read as W scalars costs the
// inner loop W times the loads. The preparation therefore retypes such a
// work-group array to its rows of W (memref<Q x W x T, 3>,
// SPIRVVectorBuffers.cpp), which the patterns here declare as an array of
// Q vector<WxT>: a row is one OpLoad or OpStore of the vector, an element
// an OpAccessChain to its component (valid for Workgroup storage, which has
// no explicit layout), so no work-item writes the components that another
// writes.
//
//===----------------------------------------------------------------------===//

#include "SPIRVVectorRows.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVTypes.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace tilec {
namespace {

/// Whether `type` is the rows of a work-group array that the preparation
/// retyped: the kernel IR's memrefs are flat (docs/kernel-ir.md), so a
/// rank-2 work-group memref of 2 to 4 columns comes only from it.
bool isVectorRows(MemRefType type) {
  auto space = dyn_cast_or_null<spirv::StorageClassAttr>(type.getMemorySpace());
  return space && space.getValue() == spirv::StorageClass::Workgroup &&
         type.getRank() == 2 && type.hasStaticShape() &&
         type.getLayout().isIdentity() && type.getDimSize(1) >= 2 &&
         type.getDimSize(1) <= 4 && type.getElementType().isIntOrFloat();
}

/// The array of vectors that `rows` is declared as.
MemRefType getVectorArrayType(MemRefType rows) {
  return MemRefType::get(
      {rows.getDimSize(0)},
      VectorType::get({rows.getDimSize(1)}, rows.getElementType()),
      MemRefLayoutAttrInterface(), rows.getMemorySpace());
}

/// The pointer to the vector of row `indices[0]`, or to its component
/// `indices[1]`: the array is the variable's struct's member 0.
Value getRowPointer(const SPIRVTypeConverter &typeConverter,
                    ConversionPatternRewriter &rewriter, Location loc,
                    Value rows, ValueRange indices) {
  SmallVector<Value> chain = {
      spirv::ConstantOp::getZero(typeConverter.getIndexType(), loc, rewriter)};
  chain.append(indices.begin(), indices.end());
  return rewriter.create<spirv::AccessChainOp>(loc, rows, chain);
}

/// Whether `indices` and `vector` name a whole row of `rows`: [%row, 0].
bool isWholeRow(MemRefType rows, ValueRange indices, VectorType vector) {
  return vector.getRank() == 1 &&
         vector.getNumElements() == rows.getDimSize(1) &&
         isConstantIntValue(indices[1], 0);
}

/// memref.load of an element: OpLoad of the component.
struct ElementLoadPattern final : OpConversionPattern<memref::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isVectorRows(op.getMemRefType()))
      return failure();
    rewriter.replaceOpWithNewOp<spirv::LoadOp>(
        op,
        getRowPointer(*getTypeConverter<SPIRVTypeConverter>(), rewriter,
                      op.getLoc(), adaptor.getMemref(), adaptor.getIndices()));
    return success();
  }
};

/// memref.store of an element: OpStore to the component.
struct ElementStorePattern final : OpConversionPattern<memref::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isVectorRows(op.getMemRefType()))
      return failure();
    rewriter.replaceOpWithNewOp<spirv::StoreOp>(
        op,
        getRowPointer(*getTypeConverter<SPIRVTypeConverter>(), rewriter,
                      op.getLoc(), adaptor.getMemref(), adaptor.getIndices()),
        adaptor.getValue());
    return success();
  }
};

/// vector.load of a whole row: OpLoad of the vector.
struct RowLoadPattern final : OpConversionPattern<vector::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(vector::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isVectorRows(op.getMemRefType()) ||
        !isWholeRow(op.getMemRefType(), op.getIndices(), op.getVectorType()))
      return failure();
    rewriter.replaceOpWithNewOp<spirv::LoadOp>(
        op, getRowPointer(*getTypeConverter<SPIRVTypeConverter>(), rewriter,
                          op.getLoc(), adaptor.getBase(),
                          adaptor.getIndices().take_front()));
    return success();
  }
};

/// vector.store of a whole row: OpStore of the vector.
struct RowStorePattern final : OpConversionPattern<vector::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(vector::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isVectorRows(op.getMemRefType()) ||
        !isWholeRow(op.getMemRefType(), op.getIndices(), op.getVectorType()))
      return failure();
    rewriter.replaceOpWithNewOp<spirv::StoreOp>(
        op,
        getRowPointer(*getTypeConverter<SPIRVTypeConverter>(), rewriter,
                      op.getLoc(), adaptor.getBase(),
                      adaptor.getIndices().take_front()),
        adaptor.getValueToStore());
    return success();
  }
};

} // namespace

void populateVectorRowPatterns(SPIRVTypeConverter &typeConverter,
                               RewritePatternSet &patterns) {
  // Tried before the converter's own memref conversion, which would flatten
  // the rows into one scalar array.
  typeConverter.addConversion(
      [&typeConverter](MemRefType type) -> std::optional<Type> {
        if (!isVectorRows(type))
          return std::nullopt;
        return typeConverter.convertType(getVectorArrayType(type));
      });
  // Before the upstream patterns, which index the rows as one flat array.
  patterns.add<ElementLoadPattern, ElementStorePattern, RowLoadPattern,
               RowStorePattern>(typeConverter, patterns.getContext(),
                                /*benefit=*/2);
}

} // namespace tilec
