//===- SPIRVInverseTrigonometry.cpp - f32 and f64 asin, acos and atan -----===//
//
// GLSL.std.450's Asin, Acos and Atan need only 4096 ulp in Vulkan, lavapipe's
// are off by up to 9e-5 relative, and they are 32-bit at most. tilec builds
// them here from arithmetic of the operand's type (f32 or f64) and one sqrt
// instead: the argument is reduced to a small range where the Taylor series
// converges fast enough for its truncation error to stay under a tenth of an
// ulp (more terms for f64), and the series is evaluated by Horner's rule.
// Each is within a few ulp, with C's results for infinities, NaNs, zeros and
// arguments outside [-1, 1].
//
//===----------------------------------------------------------------------===//

#include "FloatBuilder.h"
#include "MathExpansions.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using namespace mlir;

namespace tilec {

using arith::CmpFPredicate;

static bool isF64(Type type) { return getElementTypeOrSelf(type).isF64(); }

/// The coefficients of Q, highest power first, in atan(z) = z + z p Q(p),
/// p = z^2: (-1)^n / (2n + 1) for n = 9 (f32) or 20 (f64) down to 1. The
/// series alternates, so its truncation error is below the first term left
/// out: at |z| <= tan(pi/8), below 2e-9 (f32) or 2e-18 (f64) relative.
static SmallVector<double> atanSeries(Type type) {
  SmallVector<double> coefficients;
  for (int n = isF64(type) ? 20 : 9; n >= 1; --n)
    coefficients.push_back((n % 2 ? -1.0 : 1.0) / (2 * n + 1));
  return coefficients;
}

/// The coefficients of Q, highest power first, in asin(s) = s + s z Q(z),
/// z = s^2: binomial(2n, n) / (4^n (2n + 1)) for n = 10 (f32) or 24 (f64)
/// down to 1. At |s| <= 1/2 the terms left out sum to below 3e-9 (f32) or
/// 3e-18 (f64) relative.
static SmallVector<double> asinSeries(Type type) {
  SmallVector<double> coefficients;
  double central = 1; // binomial(2n, n) / 4^n.
  for (int n = 1, e = isF64(type) ? 24 : 10; n <= e; ++n) {
    central *= (2.0 * n - 1) / (2.0 * n);
    coefficients.push_back(central / (2 * n + 1));
  }
  std::reverse(coefficients.begin(), coefficients.end());
  return coefficients;
}

/// x + x z Q(z), the series of `coefficients` (atanSeries or asinSeries).
static Value oddSeries(FloatBuilder &f, Value x, Value z,
                       ArrayRef<double> coefficients) {
  Value q = f.polynomial(z, coefficients);
  return f.add(x, f.mul(f.mul(x, z), q));
}

/// pi - its rounding to f64.
static constexpr double kPiTail = 0x1.1a62633145c07p-53;

/// `fraction` * pi - `x` for a `fraction` of pi that is a power of two, with
/// the constant split into its rounding to `x`'s type and the rest: `x` is
/// subtracted from the rounding first, then the rest added, so that the rest
/// is not lost.
static Value subtractFromPi(FloatBuilder &f, double fraction, Value x) {
  double constant = fraction * llvm::numbers::pi;
  double high = isF64(f.type)
                    ? constant
                    : static_cast<double>(static_cast<float>(constant));
  Value rest = f.constant((constant - high) + fraction * kPiTail);
  return f.add(f.sub(f.constant(high), x), rest);
}

Value buildAtan(ImplicitLocOpBuilder &b, Value x) {
  FloatBuilder f(b, x.getType());
  Value t = f.abs(x);
  // atan t = pi/2 + atan(-1/t) above tan(3pi/8), pi/4 + atan((t-1)/(t+1))
  // above tan(pi/8): |z| <= tan(pi/8) in every case.
  Value above = f.cmp(CmpFPredicate::OGT, t, f.constant(2.414213562373095));
  Value middle = f.cmp(CmpFPredicate::OGT, t, f.constant(0.4142135623730950));
  Value plusOne = f.add(t, f.constant(1));
  Value minusOne = f.sub(t, f.constant(1));
  Value middleZ = f.select(middle, f.div(minusOne, plusOne), t);
  Value aboveZ = f.div(f.constant(-1), t);
  Value z = f.select(above, aboveZ, middleZ);
  Value series = oddSeries(f, z, f.mul(z, z), atanSeries(f.type));
  // offset + series, as the split offset minus -series.
  Value negated = b.create<arith::NegFOp>(series);
  Value middleAngle =
      f.select(middle, subtractFromPi(f, 0.25, negated), series);
  Value angle = f.select(above, subtractFromPi(f, 0.5, negated), middleAngle);
  // atan(+-0) = +-0 and atan(+-inf) = +-pi/2 keep x's sign; NaN stays NaN.
  return b.create<math::CopySignOp>(angle, x);
}

namespace {
/// An argument of asin or acos reduced for asinSeries: asin(x) =
/// pi/2 - 2 asin(s) with s = sqrt((1 - |x|) / 2) where |x| > 1/2, where the
/// series converges slowly; elsewhere s = x itself.
struct AsinReduction {
  Value reduced; // |x| > 1/2.
  Value s;       // sqrt((1 - |x|) / 2), or x.
  Value series;  // asin(s).
  Value outside; // |x| > 1: the result is NaN.
};
} // namespace

static AsinReduction reduceForAsin(FloatBuilder &f, Value x) {
  Value t = f.abs(x);
  Value reduced = f.cmp(CmpFPredicate::OGT, t, f.constant(0.5));
  // 1 - |x| is exact for |x| in [1/2, 1], and so is its half.
  Value square = f.mul(x, x);
  Value half = f.constant(0.5);
  Value z = f.select(reduced, f.mul(f.sub(f.constant(1), t), half), square);
  // The sqrt of a negative z (|x| > 1) is undefined in Vulkan; its result
  // is replaced by NaN.
  Value s = f.select(reduced, f.b.create<math::SqrtOp>(z), x);
  return {reduced, s, oddSeries(f, s, z, asinSeries(f.type)),
          f.cmp(CmpFPredicate::OGT, t, f.constant(1))};
}

Value buildAsin(ImplicitLocOpBuilder &b, Value x) {
  FloatBuilder f(b, x.getType());
  AsinReduction r = reduceForAsin(f, x);
  // For |x| > 1/2, s >= 0: the result takes x's sign below.
  Value twice = f.mul(r.series, f.constant(2));
  Value angle = f.select(r.reduced, subtractFromPi(f, 0.5, twice), r.series);
  angle = f.select(r.outside, f.constant(NAN), angle);
  return b.create<math::CopySignOp>(angle, x);
}

Value buildAcos(ImplicitLocOpBuilder &b, Value x) {
  FloatBuilder f(b, x.getType());
  AsinReduction r = reduceForAsin(f, x);
  // acos x = pi/2 - asin x for |x| <= 1/2; 2 asin(s) for x > 1/2 and
  // pi - 2 asin(s) for x < -1/2, with s = sqrt((1 - |x|) / 2).
  Value twice = f.mul(r.series, f.constant(2));
  Value negative = f.cmp(CmpFPredicate::OLT, x, f.constant(0));
  Value small = subtractFromPi(f, 0.5, r.series);
  Value large = f.select(negative, subtractFromPi(f, 1, twice), twice);
  Value angle = f.select(r.reduced, large, small);
  return f.select(r.outside, f.constant(NAN), angle);
}

} // namespace tilec
