//===- SPIRVFloat64.cpp - f64 builtins from arithmetic --------------------===//
//
// GLSL.std.450 defines Exp, Log and the other transcendentals for 16- and
// 32-bit floats only, and computing an f64 builtin in f32 would silently
// lose precision. exp and log are therefore built here from f64 arithmetic
// (which SPIR-V defines for 64-bit floats): a reduction of the argument and
// a polynomial, as in the classic libm algorithms; tanh, sinh and cosh come
// from them (through an accurate expm1 near zero). Each is within a few ulp
// wherever the result is finite, with C's results for infinities, NaNs and
// zeros.
//
//===----------------------------------------------------------------------===//

#include "FloatBuilder.h"
#include "MathExpansions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;

namespace tilec {

/// 1/n! for n = `highest` down to `lowest`, the Taylor coefficients of e^x.
static SmallVector<double> inverseFactorials(int highest, int lowest) {
  SmallVector<double> coefficients;
  for (int n = highest; n >= lowest; --n)
    coefficients.push_back(1.0 / std::tgamma(n + 1.0));
  return coefficients;
}

// ln 2 split so that k * kLn2High is exact for |k| < 2^20 (fdlibm's split).
static constexpr double kLn2High = 6.93147180369123816490e-01;
static constexpr double kLn2Low = 1.90821492927058770002e-10;

Value buildExpF64(ImplicitLocOpBuilder &b, Value x) {
  F64Builder f(b, x.getType());
  // Beyond these, e^x is inf or 0; clamping keeps k's conversion in range
  // (NaN is handled at the end).
  Value isNaN = f.cmp(arith::CmpFPredicate::UNO, x, x);
  Value clamped = f.select(
      f.cmp(arith::CmpFPredicate::OGT, x, f.constant(710)), f.constant(710),
      f.select(f.cmp(arith::CmpFPredicate::OLT, x, f.constant(-746)),
               f.constant(-746), x));
  clamped = f.select(isNaN, f.constant(0), clamped);
  // x = k ln2 + r with |r| <= ln2 / 2, e^x = 2^k e^r.
  Value k = b.create<math::FloorOp>(
      f.add(f.mul(clamped, f.constant(1.4426950408889634)), f.constant(0.5)));
  Value kHigh = f.mul(k, f.constant(kLn2High));
  Value kLow = f.mul(k, f.constant(kLn2Low));
  Value r = f.sub(f.sub(clamped, kHigh), kLow);
  // Taylor to r^13: the remainder is below 2^-60 relative.
  Value expR = f.polynomial(r, inverseFactorials(13, 0));
  // 2^k as two normal powers, so that subnormal results scale correctly.
  Value kBits = b.create<arith::FPToSIOp>(f.bitsType, k);
  Value half = b.create<arith::ShRSIOp>(kBits, f.bitsConstant(1));
  Value rest = b.create<arith::SubIOp>(kBits, half);
  Value result = f.mul(f.mul(expR, f.powerOfTwo(half)), f.powerOfTwo(rest));
  result = f.select(
      f.cmp(arith::CmpFPredicate::OGT, x, f.constant(709.782712893384)),
      f.constant(INFINITY), result);
  result = f.select(
      f.cmp(arith::CmpFPredicate::OLT, x, f.constant(-745.1332191019412)),
      f.constant(0), result);
  return f.select(isNaN, x, result);
}

Value buildLogF64(ImplicitLocOpBuilder &b, Value x) {
  F64Builder f(b, x.getType());
  // Subnormals are scaled into the normal range first.
  Value subnormal = f.cmp(arith::CmpFPredicate::OLT, x, f.constant(0x1p-1022));
  Value scaled = f.select(subnormal, f.mul(x, f.constant(0x1p54)), x);
  Value bits = f.toBits(scaled);
  // x = 2^e m, m in [sqrt(2)/2, sqrt(2)).
  Value biased = b.create<arith::AndIOp>(
      b.create<arith::ShRUIOp>(bits, f.bitsConstant(52)),
      f.bitsConstant(0x7ff));
  Value e = b.create<arith::SubIOp>(
      biased, b.create<arith::SelectOp>(subnormal, f.bitsConstant(1023 + 54),
                                        f.bitsConstant(1023)));
  Value m = f.fromBits(b.create<arith::OrIOp>(
      b.create<arith::AndIOp>(bits, f.bitsConstant(0x000fffffffffffff)),
      f.bitsConstant(0x3ff0000000000000)));
  Value large =
      f.cmp(arith::CmpFPredicate::OGT, m, f.constant(1.4142135623730951));
  m = f.select(large, f.mul(m, f.constant(0.5)), m);
  e = b.create<arith::SelectOp>(
      large, b.create<arith::AddIOp>(e, f.bitsConstant(1)), e);
  // log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.1716: the odd
  // series to s^23 leaves a remainder below 2^-60 relative.
  Value fraction = f.sub(m, f.constant(1));
  Value s = f.div(fraction, f.add(f.constant(2), fraction));
  Value z = f.mul(s, s);
  SmallVector<double> coefficients;
  for (int n = 23; n >= 3; n -= 2)
    coefficients.push_back(1.0 / n);
  Value series = f.mul(z, f.polynomial(z, coefficients));
  Value twoS = f.add(s, s);
  Value logM = f.add(twoS, f.mul(twoS, series));
  Value ef = b.create<arith::SIToFPOp>(x.getType(), e);
  Value result = f.add(f.mul(ef, f.constant(kLn2High)),
                       f.add(f.mul(ef, f.constant(kLn2Low)), logM));
  result = f.select(f.cmp(arith::CmpFPredicate::OEQ, x, f.constant(INFINITY)),
                    f.constant(INFINITY), result);
  result = f.select(f.cmp(arith::CmpFPredicate::OEQ, x, f.constant(0)),
                    f.constant(-INFINITY), result);
  // Negative numbers and NaN.
  return f.select(f.cmp(arith::CmpFPredicate::ULT, x, f.constant(0)),
                  f.constant(NAN), result);
}

/// e^x - 1 without the cancellation near 0: the Taylor series there.
static Value buildExpm1F64(ImplicitLocOpBuilder &b, Value x) {
  F64Builder f(b, x.getType());
  Value series = f.mul(x, f.polynomial(x, inverseFactorials(16, 1)));
  Value direct = f.sub(buildExpF64(b, x), f.constant(1));
  return f.select(f.cmp(arith::CmpFPredicate::OLT, f.abs(x), f.constant(0.35)),
                  series, direct);
}

/// e^|x| / 2 for |x| > 20 (where e^-|x| no longer counts), without
/// overflowing before the result does.
static Value buildHalfExpF64(F64Builder &f, Value magnitude) {
  Value root = buildExpF64(f.b, f.mul(magnitude, f.constant(0.5)));
  return f.mul(f.mul(root, f.constant(0.5)), root);
}

Value buildTanhF64(ImplicitLocOpBuilder &b, Value x) {
  F64Builder f(b, x.getType());
  Value magnitude = f.abs(x);
  // tanh |x| = t / (t + 2), t = e^(2|x|) - 1; 1 to double precision beyond
  // 22.
  Value t = buildExpm1F64(b, f.add(magnitude, magnitude));
  Value result = f.div(t, f.add(t, f.constant(2)));
  result = f.select(f.cmp(arith::CmpFPredicate::OGT, magnitude, f.constant(22)),
                    f.constant(1), result);
  return b.create<math::CopySignOp>(result, x);
}

Value buildSinhF64(ImplicitLocOpBuilder &b, Value x) {
  F64Builder f(b, x.getType());
  Value magnitude = f.abs(x);
  // sinh |x| = (t + t / (t + 1)) / 2, t = e^|x| - 1.
  Value t = buildExpm1F64(b, magnitude);
  Value result =
      f.mul(f.add(t, f.div(t, f.add(t, f.constant(1)))), f.constant(0.5));
  result = f.select(f.cmp(arith::CmpFPredicate::OGT, magnitude, f.constant(20)),
                    buildHalfExpF64(f, magnitude), result);
  return b.create<math::CopySignOp>(result, x);
}

Value buildCoshF64(ImplicitLocOpBuilder &b, Value x) {
  F64Builder f(b, x.getType());
  Value magnitude = f.abs(x);
  Value e = buildExpF64(b, magnitude);
  Value result = f.mul(f.add(e, f.div(f.constant(1), e)), f.constant(0.5));
  return f.select(f.cmp(arith::CmpFPredicate::OGT, magnitude, f.constant(20)),
                  buildHalfExpF64(f, magnitude), result);
}

} // namespace tilec
