//===- ContractionRules.cpp - Derivatives of contractions -----------------===//
//
// The derivative of a contraction with respect to an operand is a `+`
// contraction over the same index variables, the same constraints and the
// same index polynomials, with the roles of the output and that operand
// swapped: C[i, j] = +(A[i, k] * B[k, j]) gives DA[i, k] = +(DC[i, j] *
// B[k, j]). Its valid tuples are the forward contraction's, so padding,
// strides, dilations and fractional indexes carry over, and an operand read
// by several tuples (a broadcast, a constant index) sums their cotangents.
// When the rule drops an operand (its value plays no part), the operand's
// bounds stay as constraints so that the valid tuples do not change.
//
// Max and min send the cotangent of each element to the tuples that reach
// the maximum (minimum), split equally among ties, as TensorFlow's
// reduce_max and PyTorch's amax do. A product sends DO * O / A to A (an
// operand that is 0 gives inf or NaN). Assign sends the cotangent to the
// tuple that wrote each element, and `default` to the default tensor where
// it survives: everywhere for `+`, where no tuple wrote for `=`, in
// proportion for `*`, and where it is the maximum (minimum) for `>` (`<`).
//
//===----------------------------------------------------------------------===//

#include "GradientBuilder.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace tilec {
namespace autodiff {
namespace {

class ContractionGradient {
public:
  ContractionGradient(GradientBuilder &builder, const Statement &statement,
                      unsigned cotangent)
      : builder(builder), forward(std::get<Contraction>(statement.op)),
        output(statement.output), cotangent(cotangent), loc(statement.loc),
        dtype(builder.getTensor(statement.output).dtype) {}

  bool run();

private:
  bool differentiateSum();
  bool differentiateProduct();
  bool differentiateExtremum();
  bool unsupported(StringRef what);

  /// The output's polynomials applied to another tensor of its shape.
  Access atOutput(unsigned tensor) const {
    return Access{tensor, forward.outputIndices, loc};
  }
  bool isVaried(unsigned operand) const {
    return builder.isVaried(forward.operands[operand].tensor);
  }
  /// A contraction over the forward one's index space that writes at the
  /// polynomials of `operand`.
  Contraction towards(unsigned operand, CombinationKind combination,
                      std::vector<Access> operands) const;
  /// Keeps the valid tuples of the forward contraction when `access` is
  /// dropped: its bounds become constraints. False (after an error) when
  /// one of its indexes is fractional, which a constraint cannot say.
  bool keepBounds(const Access &access, Contraction &contraction);
  /// Emits `contraction` as the cotangent contribution to `operand`.
  void contributeTo(unsigned operand, Contraction contraction);
  /// A scalar tensor holding 1.
  unsigned emitOne();

  GradientBuilder &builder;
  const Contraction &forward;
  unsigned output;
  unsigned cotangent;
  SMLoc loc;
  /// The contraction's result dtype, that of the output and its cotangent.
  DType dtype;
};

} // namespace

bool ContractionGradient::unsupported(StringRef what) {
  builder.getDiags().error(loc, Twine("cannot differentiate this '") +
                                    getAggregationSpelling(forward.aggregation) +
                                    "' contraction: " + what);
  return false;
}

Contraction ContractionGradient::towards(unsigned operand,
                                         CombinationKind combination,
                                         std::vector<Access> operands) const {
  Contraction contraction;
  contraction.indexNames = forward.indexNames;
  contraction.outputIndices = forward.operands[operand].indices;
  contraction.aggregation = AggregationKind::Sum;
  contraction.combination = combination;
  contraction.operands = std::move(operands);
  contraction.constraints = forward.constraints;
  contraction.comparisonType = forward.comparisonType;
  return contraction;
}

bool ContractionGradient::keepBounds(const Access &access,
                                     Contraction &contraction) {
  const Shape &shape = builder.getTensor(access.tensor).shape;
  for (size_t axis = 0; axis < access.indices.size(); ++axis) {
    const AffinePoly &poly = access.indices[axis];
    bool integral = poly.constant.isInteger();
    for (const Rational &coeff : poly.coeffs)
      integral &= coeff.isInteger();
    if (!integral)
      return unsupported("the derivative drops operand '" +
                         builder.getTensor(access.tensor).name +
                         "', whose fractional index cannot become a "
                         "constraint");
    // An access that repeats an index (A[i, i]) bounds it once.
    bool known =
        llvm::any_of(contraction.constraints, [&](const Constraint &c) {
          return c.bound == shape[axis] && c.poly.constant == poly.constant &&
                 c.poly.coeffs == poly.coeffs;
        });
    if (!known)
      contraction.constraints.push_back(Constraint{poly, shape[axis], loc});
  }
  return true;
}

void ContractionGradient::contributeTo(unsigned operand,
                                       Contraction contraction) {
  unsigned tensor = forward.operands[operand].tensor;
  const TensorDecl &decl = builder.getTensor(tensor);
  Shape shape = decl.shape;
  unsigned result = builder.emitContraction(
      "D" + decl.name, dtype, std::move(shape), std::move(contraction), loc);
  builder.contribute(tensor, builder.ref(result), loc);
}

unsigned ContractionGradient::emitOne() {
  return builder.emitElementwise(
      "One", castTo(floatConstant(1.0, DType::F32), dtype), loc);
}

bool ContractionGradient::differentiateSum() {
  const std::vector<Access> &operands = forward.operands;
  switch (forward.combination) {
  case CombinationKind::None:
    if (isVaried(0))
      contributeTo(0, towards(0, CombinationKind::None, {atOutput(cotangent)}));
    break;
  case CombinationKind::Mul:
    if (isVaried(0))
      contributeTo(0, towards(0, CombinationKind::Mul,
                              {atOutput(cotangent), operands[1]}));
    if (isVaried(1))
      contributeTo(1, towards(1, CombinationKind::Mul,
                              {operands[0], atOutput(cotangent)}));
    break;
  case CombinationKind::Add:
    for (unsigned operand = 0; operand < 2; ++operand) {
      if (!isVaried(operand))
        continue;
      Contraction contraction =
          towards(operand, CombinationKind::None, {atOutput(cotangent)});
      if (!keepBounds(operands[1 - operand], contraction))
        return false;
      contributeTo(operand, std::move(contraction));
    }
    break;
  case CombinationKind::Cond:
    // Only the value C has a derivative; the comparison selects tuples.
    if (isVaried(2))
      contributeTo(2, towards(2, CombinationKind::Cond,
                              {operands[0], operands[1], atOutput(cotangent)}));
    break;
  case CombinationKind::Eq:
    break; // A bool result: never varied.
  }
  if (!forward.defaultTensor || !builder.isVaried(*forward.defaultTensor))
    return true;
  unsigned defaultTensor = *forward.defaultTensor;
  if (forward.aggregation == AggregationKind::Sum) {
    // The default is the sum's initial value.
    builder.contribute(defaultTensor, builder.ref(cotangent), loc);
    return true;
  }
  // Assign: the default survives where no valid tuple wrote. Count the
  // writes with every operand's bounds as constraints.
  Contraction writes;
  writes.indexNames = forward.indexNames;
  writes.outputIndices = forward.outputIndices;
  writes.constraints = forward.constraints;
  writes.comparisonType = forward.comparisonType;
  unsigned one = emitOne();
  if (forward.combination == CombinationKind::Cond) {
    writes.combination = CombinationKind::Cond;
    writes.operands = {operands[0], operands[1], Access{one, {}, loc}};
    if (!keepBounds(operands[2], writes))
      return false;
  } else {
    writes.combination = CombinationKind::None;
    writes.operands = {Access{one, {}, loc}};
    for (const Access &access : operands)
      if (!keepBounds(access, writes))
        return false;
  }
  unsigned count = builder.emitContraction(
      "Writes", dtype, builder.getTensor(output).shape, std::move(writes), loc);
  builder.contribute(
      defaultTensor,
      select(binary(BinaryOp::Eq, builder.ref(count), floatConstant(0, dtype)),
             builder.ref(cotangent), floatConstant(0, dtype)),
      loc);
  return true;
}

bool ContractionGradient::differentiateProduct() {
  const std::vector<Access> &operands = forward.operands;
  bool operandsVaried = false;
  for (unsigned operand = 0; operand < operands.size(); ++operand)
    operandsVaried |= isVaried(operand);
  if (operandsVaried && forward.combination != CombinationKind::None &&
      forward.combination != CombinationKind::Mul)
    return unsupported("a product of sums or of selected values has no rule; "
                       "only '*(A)' and '*(A * B)' do");
  // d(prod)/dA = prod / A, per tuple that reads A.
  unsigned scaled = builder.emitElementwise(
      "G", mul(builder.ref(cotangent), builder.ref(output)), loc);
  for (unsigned operand = 0; operand < operands.size(); ++operand) {
    if (!isVaried(operand))
      continue;
    const Access &access = operands[operand];
    unsigned reciprocal =
        builder.emitElementwise("R",
                                div(floatConstant(1.0, dtype),
                                    castTo(builder.ref(access.tensor), dtype)),
                                loc);
    Contraction contraction =
        towards(operand, CombinationKind::Mul,
                {atOutput(scaled), Access{reciprocal, access.indices, loc}});
    if (operands.size() == 2 && !keepBounds(operands[1 - operand], contraction))
      return false;
    contributeTo(operand, std::move(contraction));
  }
  if (forward.defaultTensor && builder.isVaried(*forward.defaultTensor))
    builder.contribute(
        *forward.defaultTensor,
        div(builder.ref(scaled), builder.ref(*forward.defaultTensor)), loc);
  return true;
}

bool ContractionGradient::differentiateExtremum() {
  const std::vector<Access> &operands = forward.operands;
  if (forward.combination != CombinationKind::None) {
    for (unsigned operand = 0; operand < operands.size(); ++operand)
      if (isVaried(operand) &&
          (forward.combination != CombinationKind::Cond || operand == 2))
        return unsupported("only the extremum of a single operand has a "
                           "rule, '>(A[...])'");
  }
  std::optional<unsigned> defaultTensor = forward.defaultTensor;
  if (forward.combination != CombinationKind::None) {
    // No operand is varied, only (perhaps) the default: it takes the
    // cotangent where it is the extremum.
    if (defaultTensor && builder.isVaried(*defaultTensor))
      builder.contribute(
          *defaultTensor,
          select(binary(BinaryOp::Eq, builder.ref(*defaultTensor),
                        builder.ref(output)),
                 builder.ref(cotangent), floatConstant(0, dtype)),
          loc);
    return true;
  }
  // The number of tuples, and the default, that reach each extremum.
  unsigned one = emitOne();
  Contraction ties;
  ties.indexNames = forward.indexNames;
  ties.outputIndices = forward.outputIndices;
  ties.aggregation = AggregationKind::Sum;
  ties.combination = CombinationKind::Cond;
  ties.comparisonType = dtype;
  ties.constraints = forward.constraints;
  ties.operands = {operands[0], atOutput(output), Access{one, {}, loc}};
  ExprPtr defaultWins;
  if (defaultTensor) {
    defaultWins =
        binary(BinaryOp::Eq, builder.ref(*defaultTensor), builder.ref(output));
    ties.defaultTensor = builder.emitElementwise(
        "Tie", castTo(cloneExpr(*defaultWins), dtype), loc);
  }
  unsigned count = builder.emitContraction(
      "Ties", dtype, builder.getTensor(output).shape, std::move(ties), loc);
  unsigned share = builder.emitElementwise(
      "G", div(builder.ref(cotangent), builder.ref(count)), loc);
  if (isVaried(0))
    contributeTo(0, towards(0, CombinationKind::Cond,
                            {operands[0], atOutput(output),
                             Access{share, forward.outputIndices, loc}}));
  if (defaultTensor && builder.isVaried(*defaultTensor))
    builder.contribute(*defaultTensor,
                       select(std::move(defaultWins), builder.ref(share),
                              floatConstant(0, dtype)),
                       loc);
  return true;
}

bool ContractionGradient::run() {
  switch (forward.aggregation) {
  case AggregationKind::Sum:
  case AggregationKind::Assign:
    return differentiateSum();
  case AggregationKind::Product:
    return differentiateProduct();
  case AggregationKind::Max:
  case AggregationKind::Min:
    return differentiateExtremum();
  }
  return true;
}

bool GradientBuilder::differentiateContraction(const Statement &statement,
                                               unsigned cotangent) {
  return ContractionGradient(*this, statement, cotangent).run();
}

} // namespace autodiff
} // namespace tilec
