//===- Contraction.cpp - Specialising contractions ------------------------===//
//
// Lowers every index expression to an exact affine polynomial, evaluates the
// output sizes and constraint bounds, checks the accesses' ranks and the
// `default` tensor, and numbers the index variables canonically: by first
// appearance with a non-zero coefficient, so that the printed program
// numbers them the same way when it is parsed again.
//
//===----------------------------------------------------------------------===//

#include "AssignConflicts.h"
#include "IndexPolynomials.h"
#include "tilec/Sema/TypePromotion.h"

#include "llvm/ADT/STLExtras.h"

namespace tilec {
namespace sema {

/// Every polynomial of `contraction`, in source order: output, operands,
/// constraints.
static std::vector<AffinePoly *> getPolys(Contraction &contraction) {
  std::vector<AffinePoly *> polys;
  for (AffinePoly &poly : contraction.outputIndices)
    polys.push_back(&poly);
  for (Access &access : contraction.operands)
    for (AffinePoly &poly : access.indices)
      polys.push_back(&poly);
  for (Constraint &constraint : contraction.constraints)
    polys.push_back(&constraint.poly);
  return polys;
}

/// Renumbers the index variables by first non-zero appearance. Returns the
/// position of an index variable that never appears with a non-zero
/// coefficient (nothing bounds it), if any.
static std::optional<size_t> canonicalizeIndexOrder(Contraction &contraction) {
  std::vector<AffinePoly *> polys = getPolys(contraction);
  size_t count = contraction.indexNames.size();
  std::vector<size_t> order;
  std::vector<bool> seen(count, false);
  for (AffinePoly *poly : polys)
    for (size_t i = 0; i < count; ++i)
      if (!seen[i] && !poly->coeffs[i].isZero()) {
        seen[i] = true;
        order.push_back(i);
      }
  for (size_t i = 0; i < count; ++i)
    if (!seen[i])
      return i;
  std::vector<std::string> names;
  for (size_t i : order)
    names.push_back(contraction.indexNames[i]);
  contraction.indexNames = std::move(names);
  for (AffinePoly *poly : polys) {
    std::vector<Rational> coeffs;
    for (size_t i : order)
      coeffs.push_back(poly->coeffs[i]);
    poly->coeffs = std::move(coeffs);
  }
  return std::nullopt;
}

/// The dtype a contraction produces from its operands' dtypes.
static DType getResultType(CombinationKind combination,
                           llvm::ArrayRef<DType> operands) {
  switch (combination) {
  case CombinationKind::None:
    return operands[0];
  case CombinationKind::Mul:
  case CombinationKind::Add:
    return promoteArithmetic(operands[0], operands[1]);
  case CombinationKind::Eq:
    return DType::Bool;
  case CombinationKind::Cond:
    return operands[2];
  }
  return operands[0];
}

/// Writes `(i = 0, j = 1)`.
static std::string formatTuple(const std::vector<std::string> &names,
                               llvm::ArrayRef<int64_t> tuple) {
  std::string text = "(";
  for (size_t k = 0; k < names.size(); ++k)
    text += (k ? ", " : "") + names[k] + " = " + std::to_string(tuple[k]);
  return text + ")";
}

bool Specializer::checkAssignConflicts(const ast::Statement &statement,
                                       const Contraction &contraction,
                                       const Shape &shape) {
  std::vector<Shape> operandShapes;
  for (const Access &access : contraction.operands)
    operandShapes.push_back(getTensor(access.tensor).shape);
  std::optional<AssignConflict> conflict =
      findAssignConflict(contraction, shape, operandShapes);
  if (!conflict)
    return true;
  diags.error(
      statement.loc,
      "'=' assigns " + statement.output + formatShape(conflict->element) +
          " twice: the valid index tuples " +
          formatTuple(contraction.indexNames, conflict->first) + " and " +
          formatTuple(contraction.indexNames, conflict->second) +
          " both write it");
  return false;
}

std::optional<Statement>
Specializer::specializeContraction(const ast::Statement &statement,
                                   const ast::ContractionStmt &source) {
  Contraction contraction;
  contraction.aggregation = source.aggregation;
  contraction.combination = source.combination;
  contraction.noDefract = source.noDefract;
  PolynomialLowering lowering(*this);
  bool ok = true;

  auto lowerAll = [&](const std::vector<ast::ExprPtr> &exprs,
                      std::vector<AffinePoly> &polys) {
    for (const ast::ExprPtr &expr : exprs) {
      std::optional<AffinePoly> poly = lowering.lower(*expr);
      ok &= poly.has_value();
      polys.push_back(poly ? std::move(*poly) : AffinePoly());
    }
  };

  // The output.
  lowerAll(source.outputIndices, contraction.outputIndices);
  Shape shape;
  for (const ast::ExprPtr &size : source.outputSizes) {
    std::optional<int64_t> extent = evaluateInteger(*size);
    if (extent && *extent < 0) {
      diags.error(size->loc,
                  "output size is negative (" + llvm::Twine(*extent) + ")");
      extent.reset();
    }
    ok &= extent.has_value();
    shape.push_back(extent.value_or(0));
  }
  if (source.outputSizes.size() != source.outputIndices.size()) {
    diags.error(statement.loc, "'" + statement.output + "' has " +
                                   llvm::Twine(source.outputIndices.size()) +
                                   " index expressions but " +
                                   llvm::Twine(source.outputSizes.size()) +
                                   " sizes");
    ok = false;
  }
  ok = ok && checkElementCount(shape, statement.loc);

  // The operands.
  std::vector<DType> operandTypes;
  for (const ast::TensorAccess &sourceAccess : source.operands) {
    Access access;
    access.loc = sourceAccess.loc;
    lowerAll(sourceAccess.indices, access.indices);
    std::optional<unsigned> tensor =
        lookupTensor(sourceAccess.tensor, sourceAccess.loc);
    if (!tensor) {
      ok = false;
      continue;
    }
    access.tensor = *tensor;
    const TensorDecl &decl = getTensor(*tensor);
    operandTypes.push_back(decl.dtype);
    if (decl.shape.size() != sourceAccess.indices.size()) {
      diags.error(sourceAccess.loc,
                  "'" + decl.name + "' has rank " +
                      llvm::Twine(decl.shape.size()) + " (" +
                      formatType(decl.dtype, decl.shape) +
                      ") but is accessed with " +
                      llvm::Twine(sourceAccess.indices.size()) + " indices");
      diags.note(decl.loc, "'" + decl.name + "' is defined here");
      ok = false;
    }
    contraction.operands.push_back(std::move(access));
  }

  // The constraints.
  for (const ast::ConstraintClause &sourceConstraint : source.constraints) {
    Constraint constraint;
    constraint.loc = sourceConstraint.loc;
    std::optional<AffinePoly> poly = lowering.lower(*sourceConstraint.poly);
    std::optional<int64_t> bound = evaluateInteger(*sourceConstraint.bound);
    ok &= poly && bound;
    if (poly)
      constraint.poly = std::move(*poly);
    constraint.bound = bound.value_or(0);
    contraction.constraints.push_back(std::move(constraint));
  }
  if (!ok)
    return std::nullopt;

  contraction.indexNames = lowering.indexNames;
  for (AffinePoly *poly : getPolys(contraction))
    lowering.padToIndexCount(*poly);
  if (std::optional<size_t> unbounded = canonicalizeIndexOrder(contraction)) {
    diags.error(lowering.indexLocs[*unbounded],
                "index variable '" + lowering.indexNames[*unbounded] +
                    "' is not bounded: it has a non-zero coefficient in no "
                    "access and no constraint");
    return std::nullopt;
  }

  DType dtype = getResultType(contraction.combination, operandTypes);
  if (contraction.combination == CombinationKind::Eq ||
      contraction.combination == CombinationKind::Cond)
    contraction.comparisonType = promoteTypes(operandTypes[0], operandTypes[1]);
  if (source.defaultTensor) {
    std::optional<unsigned> tensor =
        lookupTensor(*source.defaultTensor, source.defaultLoc);
    if (!tensor)
      return std::nullopt;
    const TensorDecl &decl = getTensor(*tensor);
    if (decl.dtype != dtype || decl.shape != shape) {
      diags.error(source.defaultLoc,
                  "the default tensor '" + decl.name + "' is " +
                      formatType(decl.dtype, decl.shape) + " but the output '" +
                      statement.output + "' is " + formatType(dtype, shape));
      diags.note(decl.loc, "'" + decl.name + "' is defined here");
      return std::nullopt;
    }
    contraction.defaultTensor = *tensor;
  }

  if (!checkAssignConflicts(statement, contraction, shape))
    return std::nullopt;

  Statement result;
  result.loc = statement.loc;
  result.output = addTensor(statement.output, statement.loc, dtype, shape);
  result.op = std::move(contraction);
  return result;
}

} // namespace sema
} // namespace tilec
