//===- SPIRVTrigonometry.cpp - f64 sin, cos and tan -----------------------===//
//
// GLSL.std.450's Sin, Cos and Tan are 16- and 32-bit only, so the f64 ones
// are built here from f64 and i64 arithmetic. |x| is reduced to
// r = |x| - k pi/2 with |r| <= pi/4 (about: k may be off by one where
// |x| 2/pi is within an ulp of a half) and the quadrant k mod 4; sin and cos
// of r are Taylor polynomials, and the quadrant and x's sign pick and negate
// them.
//
// The reduction must give r to nearly full relative precision even where
// |x| lies close to a multiple of pi/2, and over the whole f64 range:
// - below 2^20, by Cody-Waite: k is |x| 2/pi rounded, and k pi/2 is
//   subtracted as four parts of pi/2, the first three of 33 bits so that
//   each product k * part is exact (k < 2^20). The first subtraction is exact
//   (Sterbenz), and each later one either is exact or leaves a difference
//   far larger than what remains to subtract; the parts hold pi/2 to
//   2^-150, which leaves r's relative error far below 2^-53 for the doubles
//   closest to multiples of pi/2 in this range.
// - from 2^20 on, by Payne and Hanek's method, in integers: with
//   |x| = m 2^E (m the 53-bit significand), only the 192 bits of 2/pi from
//   2^-(E-1) on matter to |x| 2/pi mod 4: the earlier ones give multiples of
//   4, and the later ones add less than 2^-137. The product of m and that
//   window, mod 2^192, holds the quadrant in its top two bits and the
//   fraction below; the fraction, 128 of its bits, becomes r. The doubles
//   closest to multiples of pi/2 give fractions of about 2^-62, still
//   known to some 75 bits.
// Both keep their rounding errors (by two-sums, and Dekker's product for
// the fraction times pi/2) as a second f64 beside r, which the polynomials
// take into account: an error of r's last bit would otherwise be two ulp
// of sin r where sin r is in a lower binade than r.
//
//===----------------------------------------------------------------------===//

#include "FloatBuilder.h"
#include "MathExpansions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <iterator>

using namespace mlir;

namespace tilec {

using arith::CmpFPredicate;
using arith::CmpIPredicate;

/// pi/2 as the sum of three 33-bit parts (its binary expansion cut into
/// consecutive pieces) and the rest rounded to f64.
static constexpr double kHalfPiParts[] = {
    0x1.921fb544p+0, 0x1.0b4611a6p-34, 0x1.3198a2ep-69, 0x1.b839a252049c1p-104};

/// pi/2 rounded to f64 and the rest, rounded; kHalfPiHigh as the sum of
/// two halves of 25 bits for Dekker's product.
static constexpr double kHalfPiHigh = 0x1.921fb54442d18p+0;
static constexpr double kHalfPiLow = 0x1.1a62633145c07p-54;
static constexpr double kHalfPiHighHalves[] = {0x1.921fb5p+0, 0x1.110b46p-26};

/// Where the Payne-Hanek reduction takes over: there k would exceed what
/// the 33-bit parts of pi/2 multiply exactly.
static constexpr double kLargeArgument = 0x1p20;

/// The binary expansion of 2/pi in 32-bit chunks, most significant first,
/// after 64 zero bits (the window of a reduction may start before the
/// binary point): bit i of the expansion (2^-i, i >= 1) is bit 63 + i of the
/// table. 1184 bits are enough for the largest f64 (E = 971) plus the
/// window of 192.
static constexpr uint32_t kTwoOverPiChunks[] = {
    0x00000000, 0x00000000, 0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0,
    0xdb629599, 0x3c439041, 0xfe5163ab, 0xdebbc561, 0xb7246e3a, 0x424dd2e0,
    0x06492eea, 0x09d1921c, 0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484,
    0xe99c7026, 0xb45f7e41, 0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b,
    0x1ff897ff, 0xde05980f, 0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7,
    0x4f463f66, 0x9e5fea2d, 0x7527bac7, 0xebe5f17b, 0x3d0739f7, 0x8a5292ea,
    0x6bfb5fb1, 0x1f8d5d08, 0x56033046};
static constexpr int kTwoOverPiChunkCount = std::size(kTwoOverPiChunks);
/// The window of 2/pi in 32-bit chunks. It starts within a chunk of the
/// table, so kWindowChunks + 1 chunks of the table make it.
static constexpr int kWindowChunks = 6;

namespace {
/// |x| = k pi/2 + reduced + reducedLow, with quadrant = k mod 4 (i64) and
/// reducedLow below an ulp or so of reduced: the reduction's rounding errors,
/// which the polynomials take into account.
struct QuadrantReduction {
  Value reduced;
  Value reducedLow;
  Value quadrant;
};

/// high + low, exactly.
struct Sum {
  Value high;
  Value low;
};
} // namespace

/// a + b as its rounding and the rounding's error (Knuth's two-sum), for
/// any magnitudes.
static Sum twoSum(FloatBuilder &f, Value a, Value b) {
  Value sum = f.add(a, b);
  Value bPart = f.sub(sum, a);
  Value aPart = f.sub(sum, bPart);
  return {sum, f.add(f.sub(a, aPart), f.sub(b, bPart))};
}

/// a * kHalfPiHigh as its rounding and the rounding's error, by Dekker's
/// product: a and the constant split into halves whose products are exact
/// (the SPIR-V target forbids the contraction into an fma that would spoil
/// it).
static Sum twoProductWithHalfPi(FloatBuilder &f, Value a) {
  // Veltkamp's split: aHigh holds a's upper 26 bits, aLow the rest.
  Value scaled = f.mul(a, f.constant(0x1p27 + 1));
  Value aHigh = f.sub(scaled, f.sub(scaled, a));
  Value aLow = f.sub(a, aHigh);
  Value product = f.mul(a, f.constant(kHalfPiHigh));
  Value bHigh = f.constant(kHalfPiHighHalves[0]);
  Value bLow = f.constant(kHalfPiHighHalves[1]);
  Value error = f.add(
      f.add(f.add(f.sub(f.mul(aHigh, bHigh), product), f.mul(aHigh, bLow)),
            f.mul(aLow, bHigh)),
      f.mul(aLow, bLow));
  return {product, error};
}

/// Cody-Waite reduction of `magnitude` < kLargeArgument.
static QuadrantReduction reduceModerate(F64Builder &f, Value magnitude) {
  Value k = f.b.create<math::FloorOp>(f.add(
      f.mul(magnitude, f.constant(2 / llvm::numbers::pi)), f.constant(0.5)));
  // Each subtraction's rounding error is kept.
  Value reduced = magnitude;
  Value errors = f.constant(0);
  for (double part : kHalfPiParts) {
    Sum difference = twoSum(
        f, reduced, f.b.create<arith::NegFOp>(f.mul(k, f.constant(part))));
    reduced = difference.high;
    errors = f.add(errors, difference.low);
  }
  Sum result = twoSum(f, reduced, errors);
  Value quadrant =
      f.andI(f.b.create<arith::FPToSIOp>(f.bitsType, k), f.bitsConstant(3));
  return {result.high, result.low, quadrant};
}

/// The window of 2/pi for the f64 of `bits` (|x| = significand 2^E): its
/// bits from 2^-(E-1) on, kWindowChunks 32-bit chunks, most significant
/// first. An exponent outside the table's reach gives some window.
static SmallVector<Value> twoOverPiWindow(F64Builder &f, Value bits) {
  // E = biased exponent - 1075; the window starts at bit E - 1 of 2/pi, bit
  // E + 62 of the table.
  Value start =
      f.addI(f.shiftRight(bits, f.bitsConstant(52)), f.bitsConstant(62 - 1075));
  int lastFirstChunk = kTwoOverPiChunkCount - kWindowChunks - 1;
  int64_t lastStart = lastFirstChunk * 32 + 31;
  start = f.select(f.cmpI(CmpIPredicate::slt, start, f.bitsConstant(0)),
                   f.bitsConstant(0), start);
  start = f.select(f.cmpI(CmpIPredicate::sgt, start, f.bitsConstant(lastStart)),
                   f.bitsConstant(lastStart), start);
  Value firstChunk = f.shiftRight(start, f.bitsConstant(5));
  Value shift = f.andI(start, f.bitsConstant(31));

  // Chunk firstChunk + j of the table, for j = 0 to kWindowChunks, chosen
  // by comparisons (SPIR-V has no constant arrays that logical addressing
  // could index without a variable).
  SmallVector<Value> isFirstChunk;
  for (int c = 0; c <= lastFirstChunk; ++c)
    isFirstChunk.push_back(
        f.cmpI(CmpIPredicate::eq, firstChunk, f.bitsConstant(c)));
  SmallVector<Value> chunks;
  for (int j = 0; j <= kWindowChunks; ++j) {
    Value chunk = f.bitsConstant(kTwoOverPiChunks[lastFirstChunk + j]);
    for (int c = lastFirstChunk - 1; c >= 0; --c)
      chunk = f.select(isFirstChunk[c], f.bitsConstant(kTwoOverPiChunks[c + j]),
                       chunk);
    chunks.push_back(chunk);
  }
  SmallVector<Value> window;
  Value complement = f.b.create<arith::SubIOp>(f.bitsConstant(32), shift);
  for (int j = 0; j < kWindowChunks; ++j)
    window.push_back(
        f.orI(f.andI(f.shiftLeft(chunks[j], shift), f.bitsConstant(0xffffffff)),
              f.shiftRight(chunks[j + 1], complement)));
  return window;
}

/// `significand` (53 bits) * `window` mod 2^192, in kWindowChunks 32-bit
/// columns, column 0 least significant: significand = high 2^32 + low, each
/// partial product's halves summed into their columns, then the carries
/// propagated.
static SmallVector<Value> multiplyByWindow(F64Builder &f, Value significand,
                                           ArrayRef<Value> window) {
  Value lowHalf = f.bitsConstant(0xffffffff);
  Value thirtyTwo = f.bitsConstant(32);
  Value low = f.andI(significand, lowHalf);
  Value high = f.shiftRight(significand, thirtyTwo);
  SmallVector<Value> columns(kWindowChunks, f.bitsConstant(0));
  auto accumulate = [&](int column, Value product) {
    columns[column] = f.addI(columns[column], f.andI(product, lowHalf));
    if (column + 1 < kWindowChunks)
      columns[column + 1] =
          f.addI(columns[column + 1], f.shiftRight(product, thirtyTwo));
  };
  for (int j = 0; j < kWindowChunks; ++j) {
    int column = kWindowChunks - 1 - j;
    accumulate(column, f.mulI(low, window[j]));
    if (column + 1 < kWindowChunks)
      accumulate(column + 1, f.mulI(high, window[j]));
  }
  for (int column = 1; column < kWindowChunks; ++column) {
    Value carry = f.shiftRight(columns[column - 1], thirtyTwo);
    columns[column - 1] = f.andI(columns[column - 1], lowHalf);
    columns[column] = f.addI(columns[column], carry);
  }
  columns.back() = f.andI(columns.back(), lowHalf);
  return columns;
}

/// Payne-Hanek reduction of `magnitude` >= kLargeArgument (finite); other
/// values give a meaningless result, without undefined shifts.
static QuadrantReduction reduceLarge(F64Builder &f, Value magnitude) {
  Value bits = f.toBits(magnitude);
  Value significand = f.orI(f.andI(bits, f.bitsConstant(0x000fffffffffffff)),
                            f.bitsConstant(int64_t(1) << 52));
  SmallVector<Value> columns =
      multiplyByWindow(f, significand, twoOverPiWindow(f, bits));

  // The quadrant is bits 191 and 190; the fraction's bits 189 to 62 are
  // `upper` (189 to 126) and `lower`.
  auto fractionBits = [&](int column) {
    return f.orI(
        f.orI(f.shiftLeft(f.andI(columns[column], f.bitsConstant(0x3fffffff)),
                          f.bitsConstant(34)),
              f.shiftLeft(columns[column - 1], f.bitsConstant(2))),
        f.shiftRight(columns[column - 2], f.bitsConstant(30)));
  };
  Value quadrant = f.shiftRight(columns.back(), f.bitsConstant(30));
  Value upper = fractionBits(5);
  Value lower = fractionBits(3);
  // A fraction of a half or more is 1 - fraction below the next quadrant:
  // the 128-bit fraction is negated.
  Value next = f.cmpI(CmpIPredicate::slt, upper, f.bitsConstant(0));
  Value negatedLower = f.b.create<arith::SubIOp>(f.bitsConstant(0), lower);
  Value negatedUpper = f.addI(
      f.xorI(upper, f.bitsConstant(-1)),
      f.b.create<arith::ExtUIOp>(
          f.bitsType, f.cmpI(CmpIPredicate::eq, lower, f.bitsConstant(0))));
  upper = f.select(next, negatedUpper, upper);
  lower = f.select(next, negatedLower, lower);
  quadrant =
      f.andI(f.addI(quadrant, f.b.create<arith::ExtUIOp>(f.bitsType, next)),
             f.bitsConstant(3));
  // The fraction as fractionHigh + fractionLow: upper without its last 11
  // bits, exact in f64, and the rest (below 2^-53); the product of
  // fractionHigh and pi/2 is exact as a sum of two.
  auto scaled = [&](Value bits, double scale) {
    return f.mul(f.b.create<arith::UIToFPOp>(f.type, bits), f.constant(scale));
  };
  Value lastBits = f.bitsConstant(0x7ff);
  Value fractionHigh =
      scaled(f.andI(upper, f.xorI(lastBits, f.bitsConstant(-1))), 0x1p-64);
  Value fractionLow =
      f.add(scaled(f.andI(upper, lastBits), 0x1p-64), scaled(lower, 0x1p-128));
  Sum product = twoProductWithHalfPi(f, fractionHigh);
  Sum reduced = twoSum(
      f, product.high,
      f.add(product.low, f.add(f.mul(fractionHigh, f.constant(kHalfPiLow)),
                               f.mul(fractionLow, f.constant(kHalfPiHigh)))));
  return {f.negateIf(next, reduced.high), f.negateIf(next, reduced.low),
          quadrant};
}

/// (-1)^n / (2n + `offset`)! for n = `highest` down to `lowest`.
static SmallVector<double> alternatingInverseFactorials(int highest, int lowest,
                                                        int offset) {
  SmallVector<double> coefficients;
  for (int n = highest; n >= lowest; --n)
    coefficients.push_back((n % 2 ? -1.0 : 1.0) /
                           std::tgamma(2.0 * n + offset + 1));
  return coefficients;
}

namespace {
/// sin and cos of |x|'s reduction, and its quadrant.
struct SineAndCosine {
  Value sine;
  Value cosine;
  Value quadrant;
};
} // namespace

static SineAndCosine buildSineAndCosine(F64Builder &f, Value x) {
  Value magnitude = f.abs(x);
  Value isLarge =
      f.cmp(CmpFPredicate::OGE, magnitude, f.constant(kLargeArgument));
  // The moderate reduction of 0 where it is not taken: k's conversion to an
  // integer stays in range (NaN and infinities included).
  QuadrantReduction moderate = reduceModerate(
      f,
      f.select(f.cmp(CmpFPredicate::OLT, magnitude, f.constant(kLargeArgument)),
               magnitude, f.constant(0)));
  QuadrantReduction large = reduceLarge(f, magnitude);
  Value r = f.select(isLarge, large.reduced, moderate.reduced);
  Value rLow = f.select(isLarge, large.reducedLow, moderate.reducedLow);
  Value z = f.mul(r, r);
  Value halfZ = f.mul(z, f.constant(0.5));
  // |r| <= pi/4 (and a hair): the Taylor series of sin to r^17 and of cos
  // to r^18 leave less than 2^-62 relative. rLow adds its first-order terms:
  // sin(r + rLow) = sin r + rLow (1 - r^2/2), cos(r + rLow) = cos r - rLow r.
  Value sine = f.add(
      r, f.add(f.mul(f.mul(r, z),
                     f.polynomial(z, alternatingInverseFactorials(8, 1, 1))),
               f.mul(rLow, f.sub(f.constant(1), halfZ))));
  // cos r = w + ((1 - w) - z/2 + z^2 Q(z)) with w = 1 - z/2 rounded: the
  // rounding error of w is recovered exactly.
  Value w = f.sub(f.constant(1), halfZ);
  Value tail =
      f.add(f.sub(f.sub(f.constant(1), w), halfZ),
            f.sub(f.mul(f.mul(z, z),
                        f.polynomial(z, alternatingInverseFactorials(9, 2, 0))),
                  f.mul(rLow, r)));
  return {sine, f.add(w, tail),
          f.select(isLarge, large.quadrant, moderate.quadrant)};
}

/// `value` where x is finite, NaN for infinities and NaNs.
static Value nanUnlessFinite(F64Builder &f, Value x, Value value) {
  return f.select(f.cmp(CmpFPredicate::OLT, f.abs(x), f.constant(INFINITY)),
                  value, f.constant(NAN));
}

/// sin(k pi/2 + r) for the quadrant k mod 4 of `values`, negated where
/// `negate` (if any) holds.
static Value sineInQuadrant(F64Builder &f, const SineAndCosine &values,
                            Value quadrant, Value negate) {
  Value zero = f.bitsConstant(0);
  Value odd =
      f.cmpI(CmpIPredicate::ne, f.andI(quadrant, f.bitsConstant(1)), zero);
  Value opposite =
      f.cmpI(CmpIPredicate::ne, f.andI(quadrant, f.bitsConstant(2)), zero);
  return f.negateIf(negate ? f.xorI(opposite, negate) : opposite,
                    f.select(odd, values.cosine, values.sine));
}

Value buildSinF64(ImplicitLocOpBuilder &b, Value x) {
  F64Builder f(b, x.getType());
  SineAndCosine values = buildSineAndCosine(f, x);
  // sin(-x) = -sin(x), -0 included.
  return nanUnlessFinite(
      f, x, sineInQuadrant(f, values, values.quadrant, f.signBit(x)));
}

Value buildCosF64(ImplicitLocOpBuilder &b, Value x) {
  F64Builder f(b, x.getType());
  SineAndCosine values = buildSineAndCosine(f, x);
  // cos(x) = sin(|x| + pi/2).
  return nanUnlessFinite(
      f, x,
      sineInQuadrant(f, values, f.addI(values.quadrant, f.bitsConstant(1)),
                     /*negate=*/nullptr));
}

Value buildTanF64(ImplicitLocOpBuilder &b, Value x) {
  F64Builder f(b, x.getType());
  SineAndCosine values = buildSineAndCosine(f, x);
  // tan = sin r / cos r in even quadrants, -cos r / sin r in odd ones; x's
  // sign flips it.
  Value odd =
      f.cmpI(CmpIPredicate::ne, f.andI(values.quadrant, f.bitsConstant(1)),
             f.bitsConstant(0));
  Value tangent = f.div(f.select(odd, values.cosine, values.sine),
                        f.select(odd, values.sine, values.cosine));
  return nanUnlessFinite(f, x, f.negateIf(f.xorI(odd, f.signBit(x)), tangent));
}

} // namespace tilec
