//===- IndexPolynomials.h - Lowering index polynomials ----------*- C++ -*-===//
//
// Private to the Sema library: turns the index expressions of one contraction
// into exact rational affine polynomials over its index variables.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_SEMA_INDEXPOLYNOMIALS_H
#define TILEC_LIB_SEMA_INDEXPOLYNOMIALS_H

#include "Specializer.h"

namespace tilec {
namespace sema {

class PolynomialLowering {
public:
  explicit PolynomialLowering(Specializer &specializer)
      : specializer(specializer) {}

  /// `expr` as sum(coeff * index) + constant; index variables get numbers in
  /// order of first appearance, so polynomials lowered earlier may have
  /// fewer coefficients than indexNames (see padToIndexCount). Dimension
  /// names become their values. Reports and returns nullopt for anything
  /// that is not affine, and on overflow.
  std::optional<AffinePoly> lower(const ast::Expr &expr);

  /// Gives `poly` one coefficient per index variable seen so far.
  void padToIndexCount(AffinePoly &poly) const;

  std::vector<std::string> indexNames;
  std::vector<llvm::SMLoc> indexLocs;

private:
  std::optional<AffinePoly> combine(const ast::Expr &expr, AffinePoly lhs,
                                    AffinePoly rhs);
  bool reportOverflow(const ast::Expr &expr);

  Specializer &specializer;
};

/// True when `poly` has no non-zero index coefficient.
bool isConstantPoly(const AffinePoly &poly);

} // namespace sema
} // namespace tilec

#endif // TILEC_LIB_SEMA_INDEXPOLYNOMIALS_H
