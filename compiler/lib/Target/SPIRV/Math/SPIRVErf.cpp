//===- SPIRVErf.cpp - f64 erf ---------------------------------------------===//
//
// GLSL.std.450 has no Erf, and MLIR's polynomial approximation of it is for
// f32, so the f64 erf is built here from f64 arithmetic, on |x| with x's
// sign:
// - below 1, from its odd Taylor series at 0, erf x = x + x Q(x^2): the
//   result keeps its relative precision down to the subnormals;
// - from 1 to 6, from its Taylor polynomial at the middle of the unit
//   interval that holds |x|, whose coefficients follow from erf's
//   derivatives: erf^(n)(c) = 2/sqrt(pi) (-1)^(n-1) H_(n-1)(c) e^(-c^2) with
//   the Hermite polynomials H. Only the absolute error matters there (erf
//   is above 0.84), and the polynomial's value lies close to erf(c), so it
//   is rounded to about an ulp;
// - from 6 on, 1: erfc(6) = 2e-17 is below half an ulp of 1.
//
//===----------------------------------------------------------------------===//

#include "FloatBuilder.h"
#include "MathExpansions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;

namespace tilec {

using arith::CmpFPredicate;

/// The degree of the odd series: at |x| < 1 the first term left out,
/// 2/sqrt(pi) x^39 / (19! 39), is below 2^-60 relative.
static constexpr int kOddSeriesTerms = 18;

/// 2/sqrt(pi) - 1, rounded to f64 (the constant term of Q, separate from x
/// so that its rounding does not scale x's).
static constexpr double kTwoOverSqrtPiMinusOne = 0x1.06eba8214db69p-3;

/// The centers of the Taylor polynomials, and erf at each (rounded to f64;
/// derived with mpmath at 300 bits).
static constexpr double kCenters[] = {1.5, 2.5, 3.5, 4.5, 5.5};
static constexpr double kErfAtCenters[] = {
    0x1.eea5557137ae0p-1, 0x1.ffcaa8f4c9beap-1, 0x1.ffffe710d565ep-1,
    0x1.fffffffe4fa30p-1, 0x1.fffffffffffbep-1};
/// The polynomials' degree: on |x - c| <= 1/2 the terms left out add up to
/// below 2^-57.
static constexpr int kTaylorDegree = 23;
/// Beyond it, erf is 1 to f64 precision.
static constexpr double kErfIsOne = 6;

/// The odd series' Q, highest power first: 2/sqrt(pi) (-1)^n / (n! (2n + 1))
/// for n = kOddSeriesTerms down to 1, then kTwoOverSqrtPiMinusOne.
static SmallVector<double> oddSeries() {
  SmallVector<double> coefficients;
  for (int n = kOddSeriesTerms; n >= 1; --n)
    coefficients.push_back(2 * llvm::numbers::inv_sqrtpi *
                           (n % 2 ? -1.0 : 1.0) /
                           (std::tgamma(n + 1.0) * (2 * n + 1)));
  coefficients.push_back(kTwoOverSqrtPiMinusOne);
  return coefficients;
}

/// erf's Taylor polynomial at `center`, highest power first. The Hermite
/// recurrence H_(n+1) = 2c H_n - 2n H_(n-1) runs in long double; checked
/// against mpmath, no coefficient's error moves the polynomial by more than
/// 0.03 ulp of erf (0.06 where long double is double).
static SmallVector<double> taylorPolynomial(double center, double erfAtCenter) {
  long double c = center;
  long double scale = 2 / std::sqrt(std::acos(-1.0L)) * std::exp(-c * c);
  SmallVector<double> coefficients(kTaylorDegree + 1);
  coefficients[kTaylorDegree] = erfAtCenter;
  // H_(n-1) and H_(n-2) for the coefficient of (x - c)^n, with n! in scale.
  long double previous = 0, hermite = 1;
  for (int n = 1; n <= kTaylorDegree; ++n) {
    scale /= n;
    coefficients[kTaylorDegree - n] =
        static_cast<double>((n % 2 ? 1 : -1) * scale * hermite);
    long double next = 2 * c * hermite - 2 * (n - 1) * previous;
    previous = hermite;
    hermite = next;
  }
  return coefficients;
}

Value buildErfF64(ImplicitLocOpBuilder &b, Value x) {
  F64Builder f(b, x.getType());
  Value magnitude = f.abs(x);
  Value z = f.mul(x, x);
  Value small =
      f.add(magnitude, f.mul(magnitude, f.polynomial(z, oddSeries())));

  // The coefficients of the interval that holds |x|, by comparisons.
  SmallVector<Value> above;
  for (double center : ArrayRef(kCenters).drop_front())
    above.push_back(
        f.cmp(CmpFPredicate::OGE, magnitude, f.constant(center - 0.5)));
  SmallVector<SmallVector<double>> polynomials;
  for (auto [center, erfAtCenter] : llvm::zip(kCenters, kErfAtCenters))
    polynomials.push_back(taylorPolynomial(center, erfAtCenter));
  auto select = [&](ArrayRef<double> values) {
    Value value = f.constant(values.front());
    for (auto [isAbove, next] : llvm::zip(above, values.drop_front()))
      value = f.select(isAbove, f.constant(next), value);
    return value;
  };
  Value center = select(kCenters);
  Value t = f.sub(magnitude, center);
  Value middle;
  for (int power = 0; power <= kTaylorDegree; ++power) {
    SmallVector<double> coefficients;
    for (const SmallVector<double> &polynomial : polynomials)
      coefficients.push_back(polynomial[power]);
    Value coefficient = select(coefficients);
    middle = middle ? f.add(f.mul(middle, t), coefficient) : coefficient;
  }

  Value result = f.select(
      f.cmp(CmpFPredicate::OLT, magnitude, f.constant(kCenters[0] - 0.5)),
      small, middle);
  Value one = f.constant(1);
  result = f.select(f.cmp(CmpFPredicate::OGT, magnitude, f.constant(kErfIsOne)),
                    one, result);
  // erf(+-0) = +-0, erf(+-inf) = +-1; NaN stays NaN.
  return b.create<math::CopySignOp>(result, x);
}

} // namespace tilec
