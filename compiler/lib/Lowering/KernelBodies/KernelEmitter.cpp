//===- KernelEmitter.cpp - Types, index arithmetic, buffers, evaluation ---===//

#include "KernelBodies/KernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

DType lowering::getDType(Type tileType) {
  if (tileType.isF16())
    return DType::F16;
  if (tileType.isBF16())
    return DType::BF16;
  if (tileType.isF32())
    return DType::F32;
  if (tileType.isF64())
    return DType::F64;
  auto intType = cast<IntegerType>(tileType);
  bool isUnsigned = intType.isUnsigned();
  switch (intType.getWidth()) {
  case 1:
    return DType::Bool;
  case 8:
    return isUnsigned ? DType::U8 : DType::I8;
  case 16:
    return isUnsigned ? DType::U16 : DType::I16;
  case 32:
    return isUnsigned ? DType::U32 : DType::I32;
  default:
    return isUnsigned ? DType::U64 : DType::I64;
  }
}

bool lowering::isUnsignedTileType(Type tileType) {
  return tileType.isUnsignedInteger();
}

Type lowering::getStorageType(Type tileType) {
  if (auto intType = dyn_cast<IntegerType>(tileType))
    return IntegerType::get(tileType.getContext(),
                            std::max(8u, intType.getWidth()));
  return tileType;
}

Type lowering::getComputeType(Type tileType) {
  if (auto intType = dyn_cast<IntegerType>(tileType))
    return IntegerType::get(tileType.getContext(), intType.getWidth());
  if (tileType.isF16() || tileType.isBF16())
    return Float32Type::get(tileType.getContext());
  return tileType;
}

MemRefType lowering::getBufferType(RankedTensorType type) {
  // An empty tensor is an empty buffer (the runtime backs it with a byte).
  return MemRefType::get({type.getNumElements()},
                         getStorageType(type.getElementType()));
}

//===----------------------------------------------------------------------===//
// IndexBuilder
//===----------------------------------------------------------------------===//

/// Whether `op` comes before the builder's insertion point in its block or
/// in a block around it: it then dominates what is built there (the
/// kernels' regions each have one block).
static bool isBeforeInsertionPoint(Operation *op, OpBuilder &builder) {
  Block *block = builder.getInsertionBlock();
  Block::iterator point = builder.getInsertionPoint();
  while (block != op->getBlock()) {
    Operation *parent = block->getParentOp();
    if (!parent || !parent->getBlock())
      return false;
    point = Block::iterator(parent);
    block = parent->getBlock();
  }
  return point == block->end() || op->isBeforeInBlock(&*point);
}

Value IndexBuilder::constant(int64_t value) {
  // A DenseMap keeps two keys for itself, INT64_MAX and INT64_MIN for
  // int64_t: those constants (a divisor of 2^63 - 1 in the source) are made
  // anew each time, and the CSE merges them.
  using KeyInfo = llvm::DenseMapInfo<int64_t>;
  if (value == KeyInfo::getEmptyKey() || value == KeyInfo::getTombstoneKey())
    return builder.create<arith::ConstantIndexOp>(loc, value);
  arith::ConstantIndexOp &last = constants[value];
  if (last && isBeforeInsertionPoint(last, builder))
    return last;
  last = builder.create<arith::ConstantIndexOp>(loc, value);
  return last;
}

Value IndexBuilder::findMade(const BinaryKey &key) {
  auto found = made.find(key);
  if (found == made.end() ||
      !isBeforeInsertionPoint(found->second.getDefiningOp(), builder))
    return {};
  return found->second;
}

Value IndexBuilder::add(Value a, Value b) {
  std::optional<int64_t> x = getConstantIntValue(a);
  std::optional<int64_t> y = getConstantIntValue(b);
  if (x && y)
    return constant(*x + *y);
  if (x == 0)
    return b;
  if (y == 0)
    return a;
  return create<arith::AddIOp>(a, b, /*fold=*/false);
}

Value IndexBuilder::mul(Value a, Value b) {
  std::optional<int64_t> x = getConstantIntValue(a);
  std::optional<int64_t> y = getConstantIntValue(b);
  if (x && y)
    return constant(*x * *y);
  if (x == 0 || y == 0)
    return constant(0);
  if (x == 1)
    return b;
  if (y == 1)
    return a;
  return create<arith::MulIOp>(a, b, /*fold=*/false);
}

Value IndexBuilder::mul(Value a, int64_t factor) {
  if (factor == 0)
    return constant(0);
  if (factor == 1)
    return a;
  return mul(a, constant(factor));
}

Value IndexBuilder::floorDiv(Value a, int64_t den) {
  if (den == 1)
    return a;
  // Division truncates toward zero; a negative remainder means the
  // quotient was rounded up.
  Value d = constant(den);
  Value quotient = create<arith::DivSIOp>(a, d);
  Value remainder = create<arith::RemSIOp>(a, d);
  Value roundedUp = cmp(arith::CmpIPredicate::slt, remainder, constant(0));
  return builder.createOrFold<arith::SelectOp>(
      loc, roundedUp, add(quotient, constant(-1)), quotient);
}

Value IndexBuilder::ceilDiv(Value a, int64_t den) {
  if (den == 1)
    return a;
  Value d = constant(den);
  Value quotient = create<arith::DivSIOp>(a, d);
  Value remainder = create<arith::RemSIOp>(a, d);
  Value roundedDown = cmp(arith::CmpIPredicate::sgt, remainder, constant(0));
  return builder.createOrFold<arith::SelectOp>(
      loc, roundedDown, add(quotient, constant(1)), quotient);
}

Value IndexBuilder::divides(Value a, int64_t den) {
  Value remainder = create<arith::RemSIOp>(a, constant(den));
  return cmp(arith::CmpIPredicate::eq, remainder, constant(0));
}

Value IndexBuilder::cmp(arith::CmpIPredicate predicate, Value a, Value b) {
  return builder.createOrFold<arith::CmpIOp>(loc, predicate, a, b);
}

Value IndexBuilder::lessThan(Value a, int64_t bound) {
  return cmp(arith::CmpIPredicate::slt, a, constant(bound));
}

Value IndexBuilder::min(Value a, Value b) {
  return builder.createOrFold<arith::MinSIOp>(loc, a, b);
}

Value IndexBuilder::land(Value a, Value b) {
  if (!a)
    return b;
  return builder.createOrFold<arith::AndIOp>(loc, a, b);
}

Value IndexBuilder::numerator(const QuasiAffine &expr, ArrayRef<Value> vars) {
  Value sum = constant(expr.constant);
  for (auto [coeff, var] : llvm::zip(expr.coeffs, vars))
    if (coeff != 0)
      sum = add(sum, mul(var, coeff));
  return sum;
}

Value IndexBuilder::globalId(gpu::Dimension dim) {
  Value block = builder.create<gpu::BlockIdOp>(loc, dim);
  Value size = builder.create<gpu::BlockDimOp>(loc, dim);
  Value thread = builder.create<gpu::ThreadIdOp>(loc, dim);
  return add(mul(block, size), thread);
}

SmallVector<Value> IndexBuilder::delinearize(Value linear,
                                             ArrayRef<int64_t> shape) {
  SmallVector<Value> coords(shape.size());
  Value rest = linear;
  for (unsigned axis = shape.size(); axis-- > 0;) {
    if (axis == 0) {
      coords[axis] = rest;
      break;
    }
    Value extent = constant(shape[axis]);
    coords[axis] = create<arith::RemSIOp>(rest, extent);
    rest = create<arith::DivSIOp>(rest, extent);
  }
  return coords;
}

Value IndexBuilder::linearizeBroadcast(ArrayRef<Value> coords,
                                       ArrayRef<int64_t> shape) {
  unsigned offset = coords.size() - shape.size();
  Value linear = constant(0);
  int64_t stride = 1;
  for (unsigned axis = shape.size(); axis-- > 0;) {
    if (shape[axis] != 1)
      linear = add(linear, mul(coords[offset + axis], stride));
    stride *= shape[axis];
  }
  return linear;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

Value lowering::emitLoad(OpBuilder &builder, Location loc, Value buffer,
                         Value index, Type tileType) {
  Value stored = builder.create<memref::LoadOp>(loc, buffer, index);
  return emitFromStorage(builder, loc, stored, tileType);
}

Value lowering::emitFromStorage(OpBuilder &builder, Location loc, Value stored,
                                Type tileType) {
  if (tileType.isInteger(1)) {
    Value zero = builder.create<arith::ConstantIntOp>(loc, 0, 8);
    return builder.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, stored,
                                         zero);
  }
  Type computeType = getComputeType(tileType);
  if (computeType != stored.getType())
    return builder.create<arith::ExtFOp>(loc, computeType, stored);
  return stored;
}

Value lowering::emitToStorage(OpBuilder &builder, Location loc, Value value,
                              Type tileType) {
  Type storageType = getStorageType(tileType);
  if (tileType.isInteger(1))
    return builder.create<arith::ExtUIOp>(loc, storageType, value);
  if (storageType == value.getType())
    return value;
  // A value rounded to its dtype (emitRound) is stored as the rounding's
  // result: truncating its widening again would be the identity, and would
  // hide from the targets that the rounding only feeds a store.
  if (auto widened = value.getDefiningOp<arith::ExtFOp>();
      widened && widened.getIn().getType() == storageType)
    return widened.getIn();
  return builder.create<arith::TruncFOp>(loc, storageType, value);
}

void lowering::emitStore(OpBuilder &builder, Location loc, Value value,
                         Value buffer, Value index, Type tileType) {
  builder.create<memref::StoreOp>(
      loc, emitToStorage(builder, loc, value, tileType), buffer, index);
}

//===----------------------------------------------------------------------===//
// ElementEvaluator
//===----------------------------------------------------------------------===//

SmallVector<Value>
ElementEvaluator::operandCoords(ArrayRef<int64_t> operandShape) {
  unsigned offset = coords.size() - operandShape.size();
  SmallVector<Value> result;
  for (auto [axis, extent] : llvm::enumerate(operandShape))
    result.push_back(extent == 1 ? index.constant(0) : coords[offset + axis]);
  return result;
}

Value ElementEvaluator::generate(Operation *op) {
  OpBuilder &builder = index.builder;
  Location loc = op->getLoc();
  if (auto constant = dyn_cast<tile::ConstantOp>(op))
    return emitConstant(builder, loc, constant.getValue());
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<Value> at = operandCoords(resultType.getShape());
  Type i32 = builder.getI32Type();
  if (auto indexOp = dyn_cast<tile::IndexOp>(op))
    return builder.create<arith::IndexCastOp>(loc, i32, at[indexOp.getAxis()]);
  // tile.shape: element d is extent d, chosen by comparing the coordinate.
  auto shapeOp = cast<tile::ShapeOp>(op);
  ArrayRef<int64_t> extents =
      cast<RankedTensorType>(shapeOp.getInput().getType()).getShape();
  if (extents.empty())
    return builder.create<arith::ConstantIntOp>(loc, 0, 32);
  Value result = builder.create<arith::ConstantIntOp>(loc, extents.back(), 32);
  for (unsigned axis = extents.size() - 1; axis-- > 0;) {
    Value isAxis =
        index.cmp(arith::CmpIPredicate::eq, at[0], index.constant(axis));
    Value extent = builder.create<arith::ConstantIntOp>(loc, extents[axis], 32);
    result = builder.create<arith::SelectOp>(loc, isAxis, extent, result);
  }
  return result;
}

Value ElementEvaluator::get(Value tileValue) {
  auto it = values.find(tileValue);
  if (it != values.end())
    return it->second;
  Value scalar;
  Operation *op = tileValue.getDefiningOp();
  auto type = cast<RankedTensorType>(tileValue.getType());
  if (op && isa<tile::ConstantOp, tile::IndexOp, tile::ShapeOp>(op)) {
    scalar = generate(op);
  } else {
    Value position =
        linear && type.getNumElements() == ShapedType::getNumElements(shape)
            ? linear
            : index.linearizeBroadcast(coords, type.getShape());
    scalar = emitLoad(index.builder, index.loc, bufferOf(tileValue), position,
                      type.getElementType());
  }
  values[tileValue] = scalar;
  return scalar;
}

void ElementEvaluator::compute(Operation *op) {
  Value result = op->getResult(0);
  Type resultType = cast<RankedTensorType>(result.getType()).getElementType();
  auto elementType = [](Value value) {
    return cast<RankedTensorType>(value.getType()).getElementType();
  };
  if (auto ew = dyn_cast<tile::ElementwiseOp>(op)) {
    SmallVector<Value> operands;
    SmallVector<Type> operandTypes;
    for (Value operand : ew.getOperands()) {
      operands.push_back(get(operand));
      operandTypes.push_back(elementType(operand));
    }
    values[result] = emitElementwise(index.builder, op->getLoc(), ew.getKind(),
                                     operands, operandTypes, resultType);
    return;
  }
  if (auto cast = dyn_cast<tile::CastOp>(op)) {
    values[result] = emitCast(index.builder, op->getLoc(), get(cast.getInput()),
                              elementType(cast.getInput()), resultType);
    return;
  }
  values[result] = generate(op);
}
