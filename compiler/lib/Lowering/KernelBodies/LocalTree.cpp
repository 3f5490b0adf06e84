//===- LocalTree.cpp - Combining work-items' partials in local memory -----===//

#include "KernelBodies/LocalTree.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

PartialArrays::PartialArrays(OpBuilder &b, Location loc,
                             const Aggregator &aggregator, int64_t items)
    : b(b), loc(loc), type(aggregator.getType()) {
  Type element = type.isInteger(1) ? b.getI8Type() : type;
  auto arrayType = MemRefType::get(
      {items}, element, MemRefLayoutAttrInterface(), b.getI64IntegerAttr(3));
  for (unsigned i = 0; i < aggregator.size(); ++i)
    arrays.push_back(b.create<memref::AllocOp>(loc, arrayType));
}

SmallVector<Value> PartialArrays::load(Value position) {
  SmallVector<Value> values;
  for (Value array : arrays) {
    Value value = b.create<memref::LoadOp>(loc, array, position);
    if (type.isInteger(1))
      value =
          b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, value,
                                  b.create<arith::ConstantIntOp>(loc, 0, 8));
    values.push_back(value);
  }
  return values;
}

void PartialArrays::store(ValueRange values, Value position) {
  for (auto [value, array] : llvm::zip(values, arrays)) {
    Value stored = type.isInteger(1)
                       ? b.create<arith::ExtUIOp>(loc, b.getI8Type(), value)
                       : value;
    b.create<memref::StoreOp>(loc, stored, array, position);
  }
}

OpBuilder::InsertionGuard lowering::enterIf(OpBuilder &b, Location loc,
                                            Value condition) {
  auto ifOp = b.create<scf::IfOp>(loc, condition, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  return guard;
}

void lowering::emitTree(OpBuilder &b, Location loc, IndexBuilder &index,
                        Aggregator &aggregator, PartialArrays &partials,
                        Value item, int64_t sharers, int64_t stride,
                        Value base) {
  for (int64_t half = sharers / 2; half >= 1; half /= 2) {
    b.create<gpu::BarrierOp>(loc);
    auto inLowerHalf = enterIf(b, loc, index.lessThan(item, half * stride));
    Value at = base ? index.add(base, item) : item;
    Value partner = index.add(at, index.constant(half * stride));
    SmallVector<Value> partnerPartials = partials.load(partner);
    partials.store(aggregator.combine(partials.load(at), partnerPartials), at);
  }
}
