//===- Scalar.cpp - Element values and their arithmetic -------------------===//

#include "Scalar.h"

#include "tilec/Sema/Builtins.h"

#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace tilec;
using namespace tilec::interp;

namespace {

int64_t minSigned(unsigned bits) {
  return bits == 64 ? std::numeric_limits<int64_t>::min()
                    : -(int64_t(1) << (bits - 1));
}

int64_t maxSigned(unsigned bits) {
  return bits == 64 ? std::numeric_limits<int64_t>::max()
                    : (int64_t(1) << (bits - 1)) - 1;
}

uint64_t maxUnsigned(unsigned bits) {
  return bits == 64 ? std::numeric_limits<uint64_t>::max()
                    : (uint64_t(1) << bits) - 1;
}

/// The two's complement bit pattern of a non-float value.
uint64_t bitsOf(const Value &value) {
  if (const auto *b = std::get_if<bool>(&value))
    return *b;
  if (const auto *i = std::get_if<int64_t>(&value))
    return static_cast<uint64_t>(*i);
  return std::get<uint64_t>(value);
}

/// The value of integer or Bool dtype `type` whose low bits are `bits`
/// (Bool: any non-zero pattern is true, as C converts to bool).
Value fromBits(uint64_t bits, DType type) {
  if (type == DType::Bool)
    return bits != 0;
  unsigned width = dtypeBits(type);
  if (isUnsignedInt(type))
    return bits & maxUnsigned(width);
  unsigned unused = 64 - width;
  // Sign-extend from the width (arithmetic right shift of a negative value is
  // well defined by every compiler we build with, and by C++20).
  return static_cast<int64_t>(bits << unused) >> unused;
}

/// The exact value of a non-float value as a signed 128-bit integer.
__int128 exactInteger(const Value &value) {
  if (const auto *u = std::get_if<uint64_t>(&value))
    return *u;
  if (const auto *i = std::get_if<int64_t>(&value))
    return *i;
  return std::get<bool>(value);
}

double asDouble(const Value &value) {
  if (const auto *d = std::get_if<double>(&value))
    return *d;
  if (const auto *u = std::get_if<uint64_t>(&value))
    return static_cast<double>(*u);
  if (const auto *i = std::get_if<int64_t>(&value))
    return static_cast<double>(*i);
  return std::get<bool>(value) ? 1.0 : 0.0;
}

/// Converts the integer `negative ? -magnitude : magnitude` to float dtype
/// `type` with a single rounding. Converting a wide integer to double first
/// and then to a narrower float would round twice, so beyond 2^53 the integer
/// is first rounded to 53 bits "to odd" (the dropped bits leave a sticky low
/// bit), which makes the second rounding exact.
double integerToFloat(bool negative, uint64_t magnitude, DType type) {
  double result;
  if (type == DType::F64 || magnitude <= (uint64_t(1) << 53)) {
    result = static_cast<double>(magnitude);
  } else {
    unsigned dropped = 64 - llvm::countl_zero(magnitude) - 53;
    uint64_t kept = magnitude >> dropped;
    if (magnitude & ((uint64_t(1) << dropped) - 1))
      kept |= 1;
    result = std::ldexp(static_cast<double>(kept), dropped);
  }
  return roundToFloat(negative ? -result : result, type);
}

/// C's float to integer conversion made total: truncation toward zero,
/// saturation at the dtype's limits, NaN -> 0.
Value floatToInteger(double value, DType type) {
  if (std::isnan(value))
    return fromBits(0, type);
  double truncated = std::trunc(value);
  unsigned width = dtypeBits(type);
  if (isUnsignedInt(type)) {
    if (truncated <= 0)
      return uint64_t(0);
    if (truncated >= std::ldexp(1.0, width))
      return maxUnsigned(width);
    return static_cast<uint64_t>(truncated);
  }
  if (truncated < -std::ldexp(1.0, width - 1))
    return minSigned(width);
  if (truncated >= std::ldexp(1.0, width - 1))
    return maxSigned(width);
  return static_cast<int64_t>(truncated);
}

/// a < b for two values of one alternative; false when either is NaN.
bool lessThan(const Value &a, const Value &b) {
  if (const auto *d = std::get_if<double>(&a))
    return *d < std::get<double>(b);
  return exactInteger(a) < exactInteger(b);
}

bool equalTo(const Value &a, const Value &b) {
  if (const auto *d = std::get_if<double>(&a))
    return *d == std::get<double>(b);
  return exactInteger(a) == exactInteger(b);
}

/// `value` as an operand of an operation on `type`. Float values keep their
/// extra f64 precision (an accumulator must not be rounded at every step);
/// everything else converts as C does.
Value coerce(const Value &value, DType type) {
  if (isFloat(type) && std::holds_alternative<double>(value))
    return value;
  return convertValue(value, type);
}

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<Value> applyShift(BinaryOp op, DType type, const Value &lhs,
                                 const Value &amountValue) {
  if (isFloat(type) || std::holds_alternative<double>(amountValue))
    return makeError("shift of a floating-point value");
  __int128 amount = exactInteger(amountValue);
  unsigned width = dtypeBits(type);
  if (amount < 0 || amount >= width)
    return makeError("shift amount " + llvm::Twine(int64_t(amount)) +
                     " is out of range for " + dtypeName(type) + " (0 to " +
                     llvm::Twine(width - 1) + ")");
  Value value = coerce(lhs, type);
  if (op == BinaryOp::Shl)
    return fromBits(bitsOf(value) << unsigned(amount), type);
  if (const auto *i = std::get_if<int64_t>(&value))
    return fromBits(static_cast<uint64_t>(*i >> unsigned(amount)), type);
  return fromBits(bitsOf(value) >> unsigned(amount), type);
}

llvm::Expected<Value> applyFloatBinary(BinaryOp op, double a, double b) {
  switch (op) {
  case BinaryOp::Add:
    return a + b;
  case BinaryOp::Sub:
    return a - b;
  case BinaryOp::Mul:
    return a * b;
  case BinaryOp::Div:
    return a / b;
  case BinaryOp::Rem:
    return std::fmod(a, b);
  default:
    return makeError("bitwise operation on floating-point values");
  }
}

/// Integer division and remainder truncate toward zero (C); the one
/// overflowing case, INT_MIN / -1, wraps to INT_MIN with remainder 0.
llvm::Expected<Value> applyIntegerDivision(BinaryOp op, DType type,
                                           const Value &lhs, const Value &rhs) {
  if (bitsOf(rhs) == 0)
    return makeError(op == BinaryOp::Div ? "integer division by zero"
                                         : "integer remainder by zero");
  if (const auto *a = std::get_if<int64_t>(&lhs)) {
    int64_t b = std::get<int64_t>(rhs);
    if (b == -1)
      return fromBits(op == BinaryOp::Div ? 0 - static_cast<uint64_t>(*a) : 0,
                      type);
    return fromBits(
        static_cast<uint64_t>(op == BinaryOp::Div ? *a / b : *a % b), type);
  }
  uint64_t a = bitsOf(lhs), b = bitsOf(rhs);
  return fromBits(op == BinaryOp::Div ? a / b : a % b, type);
}

llvm::Expected<Value> applyIntegerBinary(BinaryOp op, DType type,
                                         const Value &lhs, const Value &rhs) {
  uint64_t a = bitsOf(lhs), b = bitsOf(rhs);
  switch (op) {
  case BinaryOp::Add:
    return fromBits(a + b, type);
  case BinaryOp::Sub:
    return fromBits(a - b, type);
  case BinaryOp::Mul:
    return fromBits(a * b, type);
  case BinaryOp::Div:
  case BinaryOp::Rem:
    return applyIntegerDivision(op, type, lhs, rhs);
  case BinaryOp::BitAnd:
    return fromBits(a & b, type);
  case BinaryOp::BitOr:
    return fromBits(a | b, type);
  case BinaryOp::BitXor:
    return fromBits(a ^ b, type);
  default:
    return makeError("unexpected integer operator");
  }
}

double applyFloatBuiltin(Builtin fn, llvm::ArrayRef<double> x) {
  switch (fn) {
  case Builtin::Exp:
    return std::exp(x[0]);
  case Builtin::Log:
    return std::log(x[0]);
  case Builtin::Sqrt:
    return std::sqrt(x[0]);
  case Builtin::Rsqrt:
    return 1.0 / std::sqrt(x[0]);
  case Builtin::Pow:
    return std::pow(x[0], x[1]);
  case Builtin::Sin:
    return std::sin(x[0]);
  case Builtin::Cos:
    return std::cos(x[0]);
  case Builtin::Tan:
    return std::tan(x[0]);
  case Builtin::Sinh:
    return std::sinh(x[0]);
  case Builtin::Cosh:
    return std::cosh(x[0]);
  case Builtin::Tanh:
    return std::tanh(x[0]);
  case Builtin::Asin:
    return std::asin(x[0]);
  case Builtin::Acos:
    return std::acos(x[0]);
  case Builtin::Atan:
    return std::atan(x[0]);
  case Builtin::Atan2:
    return std::atan2(x[0], x[1]);
  case Builtin::Erf:
    return std::erf(x[0]);
  case Builtin::Floor:
    return std::floor(x[0]);
  case Builtin::Ceil:
    return std::ceil(x[0]);
  case Builtin::Round:
    return std::round(x[0]);
  case Builtin::Abs:
    return std::fabs(x[0]);
  case Builtin::Sign:
    // OpenCL's sign() except that -0 gives +0: the result is -1, 0 or 1, and
    // NaN gives 0.
    return x[0] > 0 ? 1.0 : x[0] < 0 ? -1.0 : 0.0;
  case Builtin::Min:
    return minimumNumber(x[0], x[1]);
  case Builtin::Max:
    return maximumNumber(x[0], x[1]);
  case Builtin::Relu:
    // max(x, 0) with fmax's NaN rule: relu(NaN) = 0.
    return x[0] > 0 ? x[0] : 0.0;
  case Builtin::Sigmoid:
    return 1.0 / (1.0 + std::exp(-x[0]));
  }
  return std::nan("");
}

unsigned builtinArity(Builtin fn) {
  switch (fn) {
  case Builtin::Pow:
  case Builtin::Atan2:
  case Builtin::Min:
  case Builtin::Max:
    return 2;
  default:
    return 1;
  }
}

} // namespace

bool interp::isInexactBuiltin(Builtin fn) {
  // Those that compute in a float type (BuiltinClass::Float) are the
  // transcendental ones; the others are exact on every device.
  switch (fn) {
#define TILE_BUILTIN(Kind, Mnemonic, Arity, Rule, Class)                       \
  case Builtin::Kind:                                                          \
    return BuiltinClass::Class == BuiltinClass::Float;
#include "tilec/Support/ElementwiseOps.def"
  }
  return false;
}

double interp::perturb(double value, DType type, double ulps, uint64_t seed,
                       uint64_t salt) {
  if (!std::isfinite(value) || value == 0)
    return value;
  // SplitMix64 of the value's bits, the seed and the salt: the same value
  // of one origin moves the same way wherever it is computed, on any thread;
  // sqrt(x) and pow(x, 0.5) move apart.
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  uint64_t h = bits ^ (seed * 0x9E3779B97F4A7C15ull) ^
               (salt + 1) * 0xD1B54A32D192ED03ull;
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
  h ^= h >> 31;
  // Half to all of the bound, down for an odd seed and up for an even one:
  // the two directions are what a device within its accuracy can do.
  double unit = (0.5 + double(h >> 11) * 0x1.0p-54) * (seed % 2 ? -1 : 1);
  int fractionBits = type == DType::F64   ? 52
                     : type == DType::F32 ? 23
                     : type == DType::F16 ? 10
                                          : 7;
  double ulp = std::ldexp(1.0, std::ilogb(value) - fractionBits);
  return value + unit * ulps * ulp;
}

void interp::flushSubnormal(Value &value, DType type) {
  auto *real = std::get_if<double>(&value);
  if (real && (type == DType::F32 || type == DType::BF16) && *real != 0 &&
      std::abs(*real) < 0x1p-126)
    *real = std::copysign(0.0, *real);
}

double interp::roundToFloat(double value, DType type) {
  switch (type) {
  case DType::F32:
    return static_cast<float>(value);
  case DType::F16:
    return halfToDouble(doubleToHalf(value));
  case DType::BF16:
    return bfloat16ToDouble(doubleToBFloat16(value));
  default:
    return value;
  }
}

Value interp::loadElement(const HostTensor &tensor, int64_t index) {
  DType type = tensor.dtype();
  if (type == DType::Bool)
    return tensor.getUInt(index) != 0;
  if (isSignedInt(type))
    return tensor.getInt(index);
  if (isUnsignedInt(type))
    return tensor.getUInt(index);
  return tensor.getDouble(index);
}

void interp::storeElement(HostTensor &tensor, int64_t index,
                          const Value &value) {
  Value converted = convertValue(value, tensor.dtype());
  if (const auto *d = std::get_if<double>(&converted))
    tensor.setDouble(index, *d);
  else if (const auto *i = std::get_if<int64_t>(&converted))
    tensor.setInt(index, *i);
  else
    tensor.setUInt(index, bitsOf(converted));
}

bool interp::isTrue(const Value &value) {
  if (const auto *d = std::get_if<double>(&value))
    return *d != 0;
  return bitsOf(value) != 0;
}

Value interp::convertValue(const Value &value, DType type) {
  if (type == DType::Bool)
    return isTrue(value);
  const auto *real = std::get_if<double>(&value);
  if (isFloat(type)) {
    if (real)
      return roundToFloat(*real, type);
    if (const auto *i = std::get_if<int64_t>(&value))
      return integerToFloat(*i < 0,
                            *i < 0 ? 0 - static_cast<uint64_t>(*i)
                                   : static_cast<uint64_t>(*i),
                            type);
    return integerToFloat(false, bitsOf(value), type);
  }
  if (real)
    return floatToInteger(*real, type);
  return fromBits(bitsOf(value), type);
}

Value interp::aggregationIdentity(AggregationKind kind, DType type) {
  switch (kind) {
  case AggregationKind::Sum:
  case AggregationKind::Assign:
    return convertValue(int64_t(0), type);
  case AggregationKind::Product:
    return convertValue(int64_t(1), type);
  case AggregationKind::Max:
    if (isFloat(type))
      return -std::numeric_limits<double>::infinity();
    if (isSignedInt(type))
      return minSigned(dtypeBits(type));
    return fromBits(0, type);
  case AggregationKind::Min:
    if (isFloat(type))
      return std::numeric_limits<double>::infinity();
    if (isSignedInt(type))
      return maxSigned(dtypeBits(type));
    return fromBits(maxUnsigned(dtypeBits(type)), type);
  }
  return fromBits(0, type);
}

Value interp::aggregate(AggregationKind kind, DType type,
                        const Value &accumulator, const Value &value) {
  switch (kind) {
  case AggregationKind::Assign:
    return value;
  case AggregationKind::Sum:
  case AggregationKind::Product: {
    BinaryOp op = kind == AggregationKind::Sum ? BinaryOp::Add : BinaryOp::Mul;
    // Sums and products never fail.
    return llvm::cantFail(applyBinary(op, type, accumulator, value));
  }
  case AggregationKind::Max:
  case AggregationKind::Min: {
    if (isFloat(type)) {
      double a = std::get<double>(accumulator), b = std::get<double>(value);
      return kind == AggregationKind::Max ? maximumNumber(a, b)
                                          : minimumNumber(a, b);
    }
    bool takeValue = kind == AggregationKind::Max
                         ? lessThan(accumulator, value)
                         : lessThan(value, accumulator);
    return takeValue ? value : accumulator;
  }
  }
  return accumulator;
}

llvm::Expected<Value> interp::applyUnary(UnaryOp op, DType type,
                                         const Value &operand) {
  Value value = coerce(operand, type);
  switch (op) {
  case UnaryOp::LogicalNot:
    return !isTrue(value);
  case UnaryOp::Neg:
    if (const auto *d = std::get_if<double>(&value))
      return -*d;
    return fromBits(0 - bitsOf(value), type);
  case UnaryOp::BitNot:
    if (isFloat(type))
      return makeError("bitwise operation on a floating-point value");
    // On bool, ~ is the logical negation (as in NumPy).
    if (type == DType::Bool)
      return !isTrue(value);
    return fromBits(~bitsOf(value), type);
  }
  return makeError("unknown unary operator");
}

llvm::Expected<Value> interp::applyBinary(BinaryOp op, DType type,
                                          const Value &lhs, const Value &rhs) {
  if (op == BinaryOp::Shl || op == BinaryOp::Shr)
    return applyShift(op, type, lhs, rhs);
  if (op == BinaryOp::LogicalAnd)
    return isTrue(lhs) && isTrue(rhs);
  if (op == BinaryOp::LogicalOr)
    return isTrue(lhs) || isTrue(rhs);

  Value a = coerce(lhs, type), b = coerce(rhs, type);
  switch (op) {
  case BinaryOp::Eq:
    return equalTo(a, b);
  case BinaryOp::Ne:
    return !equalTo(a, b);
  case BinaryOp::Lt:
    return lessThan(a, b);
  case BinaryOp::Gt:
    return lessThan(b, a);
  case BinaryOp::Le:
    return lessThan(a, b) || equalTo(a, b);
  case BinaryOp::Ge:
    return lessThan(b, a) || equalTo(a, b);
  default:
    break;
  }
  if (isFloat(type))
    return applyFloatBinary(op, std::get<double>(a), std::get<double>(b));
  return applyIntegerBinary(op, type, a, b);
}

llvm::Expected<Value> interp::applyBuiltin(Builtin fn, DType type,
                                           llvm::ArrayRef<Value> operands) {
  unsigned arity = builtinArity(fn);
  if (operands.size() != arity)
    return makeError("builtin expects " + llvm::Twine(arity) + " operand(s)");
  Value x[2];
  for (unsigned i = 0; i < arity; ++i)
    x[i] = coerce(operands[i], type);

  if (!isFloat(type)) {
    switch (fn) {
    case Builtin::Floor:
    case Builtin::Ceil:
    case Builtin::Round:
      return x[0];
    case Builtin::Abs:
      return lessThan(x[0], fromBits(0, type))
                 ? fromBits(0 - bitsOf(x[0]), type)
                 : x[0];
    case Builtin::Relu:
      return lessThan(x[0], fromBits(0, type)) ? fromBits(0, type) : x[0];
    case Builtin::Sign: {
      Value zero = fromBits(0, type);
      return fromBits(lessThan(zero, x[0])   ? 1
                      : lessThan(x[0], zero) ? uint64_t(-1)
                                             : 0,
                      type);
    }
    case Builtin::Min:
      return lessThan(x[1], x[0]) ? x[1] : x[0];
    case Builtin::Max:
      return lessThan(x[0], x[1]) ? x[1] : x[0];
    default:
      break;
    }
  }
  double reals[2];
  for (unsigned i = 0; i < arity; ++i)
    reals[i] = asDouble(x[i]);
  double result = applyFloatBuiltin(fn, llvm::ArrayRef(reals, arity));
  if (isFloat(type))
    return result;
  return convertValue(result, type);
}
