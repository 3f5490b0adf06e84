//===- AffineRows.h - Exact operations on QuasiAffine rows ------*- C++ -*-===//
//
// The analysis keeps every equation and inequality as a QuasiAffine over the
// variable space [o_0..o_{R-1}, x_0..x_{N-1}]: integer numerators over a
// positive denominator, so that rational coefficients stay exact. A row read
// as `expr == 0` or `0 <= expr` ignores its denominator (it is positive).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_ANALYSIS_AFFINEROWS_H
#define TILEC_LIB_ANALYSIS_AFFINEROWS_H

#include "tilec/Analysis/IndexSpace.h"
#include "tilec/Support/CheckedArithmetic.h"

namespace tilec {
namespace indexspace {

/// What the analysis reports when its CheckedArithmetic overflows.
constexpr const char *kOverflowMessage =
    "the index space's arithmetic overflows 64-bit integers";

/// The zero expression over `numVars` variables.
QuasiAffine makeZero(unsigned numVars);

/// `row` (numIndices coefficients and a constant, each num/den with den > 0)
/// over the space of `outputRank` coordinates followed by the indices.
QuasiAffine fromRationalRow(CheckedArithmetic &arith,
                            const IndexSystem::Row &row, unsigned outputRank);

/// The numerators a * x + b * y, with denominator 1: how elimination
/// combines two rows read as `== 0` or `0 <= `.
QuasiAffine combineNumerators(CheckedArithmetic &arith, int64_t a,
                              const QuasiAffine &x, int64_t b,
                              const QuasiAffine &y);

/// The numerators a * x, with denominator 1.
QuasiAffine scaleNumerators(CheckedArithmetic &arith, int64_t a,
                            const QuasiAffine &x);

/// Divides the numerators and the denominator by their common factor; the
/// value is unchanged.
void reduce(QuasiAffine &expr);

/// Divides the numerators of the equation `expr == 0` (denominator ignored)
/// by their common factor and makes the first nonzero coefficient positive.
void normalizeEquality(QuasiAffine &expr);

/// Normalises the inequality `0 <= expr` (denominator ignored) for integer
/// variables: divides the coefficients by their gcd and floors the constant,
/// which keeps exactly the same integer points and tightens the real shadow.
void tightenInequality(QuasiAffine &expr);

/// Normalises an expression whose integrality is what matters: numerators
/// taken modulo the denominator, then reduced. Returns false when the
/// expression is then always an integer (denominator 1).
bool normalizeIntegralityCheck(QuasiAffine &expr);

/// `expr` with variable `var` replaced by `value`, exactly.
QuasiAffine substitute(CheckedArithmetic &arith, const QuasiAffine &expr,
                       unsigned var, const QuasiAffine &value);

/// True when some coefficient in [begin, end) is nonzero.
bool hasTermsIn(const QuasiAffine &expr, unsigned begin, unsigned end);

} // namespace indexspace
} // namespace tilec

#endif // TILEC_LIB_ANALYSIS_AFFINEROWS_H
