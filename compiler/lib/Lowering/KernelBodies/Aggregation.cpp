//===- Aggregation.cpp - Running aggregates, compensated float sums -------===//
//
// A float sum accumulated term by term loses up to one rounding per term,
// so its error grows with the reduction's length (a 4M-term f32 sum is off
// in the third digit). Compensated summation (Kahan-Babuska-Neumaier) carries
// each addition's exact rounding error in a second value and adds it back at
// the end: the error is then a few roundings of the result, whatever the
// length. Each error comes from Knuth's TwoSum, which needs no comparison of
// magnitudes (no branch or select: cheaper on CPUs and GPUs alike).
//
// A float sum of products (`+` over `*`) fuses each product into the sum
// with one correctly rounded fma, which the language allows (it never loses
// precision). A compensated one keeps the product rounded for TwoSum and adds
// the product's own rounding error, fma(a, b, -p), to the compensation: the
// Dot2 algorithm of Ogita, Rump and Oishi, as accurate as a sum of exact
// products compensated.
//
//===----------------------------------------------------------------------===//

#include "KernelBodies/KernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <limits>

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

Aggregator::Aggregator(OpBuilder &builder, Location loc,
                       tile::AggregationKind kind, Type tileType,
                       bool compensated)
    : builder(builder), loc(loc), kind(kind), tileType(tileType),
      computeType(getComputeType(tileType)), compensated(compensated) {
  assert((!compensated || (kind == tile::AggregationKind::Add &&
                           isa<FloatType>(computeType))) &&
         "only float sums are compensated");
}

SmallVector<Value> Aggregator::start(Value initial) {
  if (!compensated)
    return {initial};
  Value zero = builder.create<arith::ConstantOp>(
      loc, builder.getFloatAttr(computeType, 0.0));
  return {initial, zero};
}

std::pair<Value, Value> Aggregator::sumWithError(Value a, Value b) {
  // TwoSum: the parts of a and b that made it into the sum, and what each
  // lost; exact in round-to-nearest unless the sum overflows.
  Value sum = builder.create<arith::AddFOp>(loc, a, b);
  Value bPart = builder.create<arith::SubFOp>(loc, sum, a);
  Value aPart = builder.create<arith::SubFOp>(loc, sum, bPart);
  Value aError = builder.create<arith::SubFOp>(loc, a, aPart);
  Value bError = builder.create<arith::SubFOp>(loc, b, bPart);
  return {sum, builder.create<arith::AddFOp>(loc, aError, bError)};
}

SmallVector<Value> Aggregator::add(ValueRange state, Value term) {
  if (!compensated)
    return {emitAggregate(builder, loc, kind, tileType, state[0], term)};
  auto [sum, error] = sumWithError(state[0], term);
  return {sum, builder.create<arith::AddFOp>(loc, state[1], error)};
}

SmallVector<Value> Aggregator::addProduct(ValueRange state, Value a, Value b) {
  if (kind != tile::AggregationKind::Add || !isa<FloatType>(computeType))
    return add(state,
               emitElementwise(builder, loc, tile::ElementwiseKind::Mul, {a, b},
                               {tileType, tileType}, computeType));
  if (!compensated)
    return {builder.create<math::FmaOp>(loc, a, b, state[0])};
  Value product = builder.create<arith::MulFOp>(loc, a, b);
  Value productError = builder.create<math::FmaOp>(
      loc, a, b, builder.create<arith::NegFOp>(loc, product));
  auto [sum, error] = sumWithError(state[0], product);
  Value errors = builder.create<arith::AddFOp>(loc, error, productError);
  return {sum, builder.create<arith::AddFOp>(loc, state[1], errors)};
}

SmallVector<Value> Aggregator::scale(ValueRange state, Value factor) {
  assert(kind == tile::AggregationKind::Add && isa<FloatType>(computeType) &&
         "only float sums scale");
  Value product = builder.create<arith::MulFOp>(loc, state[0], factor);
  if (!compensated)
    return {product};
  // The product's own rounding error joins the scaled errors, as in
  // addProduct.
  Value productError = builder.create<math::FmaOp>(
      loc, state[0], factor, builder.create<arith::NegFOp>(loc, product));
  return {product,
          builder.create<math::FmaOp>(loc, state[1], factor, productError)};
}

SmallVector<Value> Aggregator::combine(ValueRange a, ValueRange b) {
  if (!compensated)
    return {emitAggregate(builder, loc, kind, tileType, a[0], b[0])};
  auto [sum, error] = sumWithError(a[0], b[0]);
  Value errors = builder.create<arith::AddFOp>(loc, a[1], b[1]);
  return {sum, builder.create<arith::AddFOp>(loc, errors, error)};
}

Value Aggregator::finish(ValueRange state) {
  if (!compensated)
    return state[0];
  // An infinite or NaN sum makes the errors NaN (inf - inf); it is the
  // result as it stands.
  Value infinity = builder.create<arith::ConstantOp>(
      loc, builder.getFloatAttr(computeType,
                                std::numeric_limits<double>::infinity()));
  Value finite = builder.create<arith::CmpFOp>(
      loc, arith::CmpFPredicate::OLT,
      builder.create<math::AbsFOp>(loc, state[0]), infinity);
  Value corrected = builder.create<arith::AddFOp>(loc, state[0], state[1]);
  return builder.create<arith::SelectOp>(loc, finite, corrected, state[0]);
}
