//===- Resize.cpp - Sums over broadcast dimensions ------------------------===//
//
// NumPy broadcasting stretches an operand along the dimensions it lacks or
// has as 1; its cotangent is the sum over those dimensions. Elementwise
// expressions cannot sum, so the cotangent is written to a tensor and summed
// by a `+` contraction whose index polynomials are those of the broadcast:
// the right-aligned dimensions of equal extent share an index variable, a
// dimension of extent 1 is indexed by 0, and a dimension only the larger
// side has is summed over (or, the other way round, broadcast along).
//
//===----------------------------------------------------------------------===//

#include "GradientBuilder.h"

#include <algorithm>

using namespace llvm;

namespace tilec {
namespace autodiff {

ExprPtr GradientBuilder::unbroadcast(ExprPtr value, const Shape &shape,
                                     SMLoc loc) {
  if (broadcastShapes(value->shape, shape) == shape)
    return value;
  return resize(std::move(value), shape, loc);
}

ExprPtr GradientBuilder::resize(ExprPtr value, const Shape &shape, SMLoc loc) {
  if (value->shape == shape)
    return value;
  DType dtype = value->dtype;
  Shape from = value->shape;
  unsigned source = value->kind == Expr::Kind::Tensor
                        ? value->tensor
                        : emitElementwise("G", std::move(value), loc);

  size_t rank = std::max(from.size(), shape.size());
  Contraction contraction;
  contraction.aggregation = AggregationKind::Sum;
  contraction.combination = CombinationKind::None;
  // One index variable per aligned position, used by at least one side.
  for (size_t position = 0; position < rank; ++position)
    contraction.indexNames.push_back("i" + std::to_string(position));
  auto variable = [&](size_t position) {
    AffinePoly poly;
    poly.coeffs.assign(rank, Rational{0, 1});
    poly.coeffs[position] = Rational{1, 1};
    return poly;
  };
  auto zero = [&] {
    AffinePoly poly;
    poly.coeffs.assign(rank, Rational{0, 1});
    return poly;
  };
  Access operand;
  operand.tensor = source;
  operand.loc = loc;
  for (size_t position = 0; position < rank; ++position) {
    bool inSource = position >= rank - from.size();
    bool inResult = position >= rank - shape.size();
    int64_t sourceExtent = inSource ? from[position - (rank - from.size())] : 1;
    int64_t resultExtent =
        inResult ? shape[position - (rank - shape.size())] : 1;
    if (inSource)
      operand.indices.push_back(
          sourceExtent == 1 && resultExtent != 1 ? zero() : variable(position));
    if (inResult)
      contraction.outputIndices.push_back(
          resultExtent == 1 && sourceExtent != 1 ? zero() : variable(position));
  }
  contraction.operands.push_back(std::move(operand));
  // Drop the index variables that neither side uses.
  for (size_t position = rank; position-- > 0;) {
    bool used = false;
    auto uses = [&](const AffinePoly &poly) {
      used |= !poly.coeffs[position].isZero();
    };
    for (const AffinePoly &poly : contraction.outputIndices)
      uses(poly);
    for (const AffinePoly &poly : contraction.operands.front().indices)
      uses(poly);
    if (used)
      continue;
    contraction.indexNames.erase(contraction.indexNames.begin() + position);
    for (AffinePoly &poly : contraction.outputIndices)
      poly.coeffs.erase(poly.coeffs.begin() + position);
    for (AffinePoly &poly : contraction.operands.front().indices)
      poly.coeffs.erase(poly.coeffs.begin() + position);
  }
  std::string base = gradient.tensors[source].name + "_sum";
  return ref(emitContraction(base, dtype, shape, std::move(contraction), loc));
}

} // namespace autodiff
} // namespace tilec
