//===- HostTensor.cpp - A dense tensor in host memory ---------------------===//
//
// Elements are kept as little-endian bit patterns and converted here. Every
// float conversion goes through one exact rounding routine, so f16, bf16 and
// f32 are each rounded once, from the exact source value.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/HostTensor.h"
#include "tilec/Runtime/TensorSummary.h"

#include "CheckedArithmetic.h"
#include "tilec/Runtime/HostMemory.h"
#include "tilec/Runtime/TensorSummary.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>

using namespace tilec;

namespace {

/// An IEEE 754 binary interchange format: a sign bit, `expBits` of biased
/// exponent and `mantBits` of stored significand.
struct FloatFormat {
  int expBits;
  int mantBits;

  int bias() const { return (1 << (expBits - 1)) - 1; }
  uint64_t maxExpField() const { return (uint64_t(1) << expBits) - 1; }
  uint64_t signBit() const { return uint64_t(1) << (expBits + mantBits); }
  uint64_t infinity() const { return maxExpField() << mantBits; }
  uint64_t quietBit() const { return uint64_t(1) << (mantBits - 1); }
  uint64_t fractionMask() const { return (uint64_t(1) << mantBits) - 1; }
};

} // namespace

constexpr FloatFormat kHalf{5, 10};
constexpr FloatFormat kBFloat16{8, 7};
constexpr FloatFormat kSingle{8, 23};
constexpr FloatFormat kDouble{11, 52};

static FloatFormat floatFormat(DType type) {
  switch (type) {
  case DType::F16:
    return kHalf;
  case DType::BF16:
    return kBFloat16;
  case DType::F32:
    return kSingle;
  default:
    assert(type == DType::F64 && "not a float dtype");
    return kDouble;
  }
}

static uint64_t doubleBits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

static double bitsToDouble(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

/// Index of the highest set bit of a nonzero `value`.
static int highestSetBit(uint64_t value) {
  int bit = 0;
  for (int step = 32; step != 0; step /= 2) {
    if (value >> step) {
      value >>= step;
      bit += step;
    }
  }
  return bit;
}

/// `value / 2^shift` rounded to nearest, ties to even; a shift <= 0 is an
/// exact left shift (the caller keeps the result within 64 bits).
static uint64_t shiftRightRoundingToEven(uint64_t value, int shift) {
  if (shift <= 0)
    return value << -shift;
  // Below 2^(shift - 1), the value rounds to zero.
  if (shift > 64)
    return 0;
  uint64_t half = uint64_t(1) << (shift - 1);
  uint64_t quotient = shift == 64 ? 0 : value >> shift;
  uint64_t remainder = shift == 64 ? value : value & (2 * half - 1);
  if (remainder > half || (remainder == half && (quotient & 1)))
    ++quotient;
  return quotient;
}

/// Rounds (-1)^negative * magnitude * 2^exponent to `format`, to nearest with
/// ties to even, overflowing to infinity; returns the bit pattern.
static uint64_t roundToFormat(bool negative, uint64_t magnitude, int exponent,
                              FloatFormat format) {
  uint64_t sign = negative ? format.signBit() : 0;
  if (magnitude == 0)
    return sign;
  // The weight of the result's last significand bit: mantBits below the
  // leading bit, but never below the quantum of the subnormals.
  int minLsbExponent = 1 - format.bias() - format.mantBits;
  int lsbExponent = std::max(
      exponent + highestSetBit(magnitude) - format.mantBits, minLsbExponent);
  uint64_t significand =
      shiftRightRoundingToEven(magnitude, lsbExponent - exponent);
  // The exponent field sits just below the significand's leading (implicit)
  // bit, so adding the two gives the encoding, and a carry out of rounding or
  // out of the subnormal range bumps the exponent as it should.
  int64_t fieldBelow =
      int64_t(lsbExponent) + format.mantBits + format.bias() - 1;
  if (fieldBelow >= int64_t(format.maxExpField()))
    return sign | format.infinity();
  uint64_t bits = (uint64_t(fieldBelow) << format.mantBits) + significand;
  return sign | std::min(bits, format.infinity());
}

static uint64_t doubleToFormat(double value, FloatFormat format) {
  uint64_t bits = doubleBits(value);
  bool negative = bits >> 63;
  uint64_t field = (bits >> 52) & kDouble.maxExpField();
  uint64_t fraction = bits & kDouble.fractionMask();
  if (field == kDouble.maxExpField()) {
    uint64_t sign = negative ? format.signBit() : 0;
    if (fraction == 0)
      return sign | format.infinity();
    // Keep the payload's leading bits; the quiet bit also keeps the result a
    // NaN when every kept payload bit is zero.
    return sign | format.infinity() | format.quietBit() |
           (fraction >> (kDouble.mantBits - format.mantBits));
  }
  if (field == 0)
    return roundToFormat(negative, fraction, 1 - kDouble.bias() - 52, format);
  return roundToFormat(negative, fraction | (uint64_t(1) << 52),
                       int(field) - kDouble.bias() - 52, format);
}

static double formatToDouble(uint64_t bits, FloatFormat format) {
  bool negative = (bits & format.signBit()) != 0;
  uint64_t field = (bits >> format.mantBits) & format.maxExpField();
  uint64_t fraction = bits & format.fractionMask();
  if (field == format.maxExpField()) {
    uint64_t result = (uint64_t(negative) << 63) | kDouble.infinity();
    if (fraction != 0)
      result |= kDouble.quietBit() |
                (fraction << (kDouble.mantBits - format.mantBits));
    return bitsToDouble(result);
  }
  double magnitude =
      field == 0
          ? std::ldexp(double(fraction), 1 - format.bias() - format.mantBits)
          : std::ldexp(double(fraction | (uint64_t(1) << format.mantBits)),
                       int(field) - format.bias() - format.mantBits);
  return negative ? -magnitude : magnitude;
}

/// Truncates toward zero and clamps to the range of a `width`-bit signed
/// integer; NaN gives 0.
static int64_t truncateToSignedSaturating(double value, int width) {
  if (std::isnan(value))
    return 0;
  int64_t max = int64_t((uint64_t(1) << (width - 1)) - 1);
  double limit = std::ldexp(1.0, width - 1);
  if (value >= limit)
    return max;
  if (value <= -limit)
    return -max - 1;
  return int64_t(value);
}

/// Truncates toward zero and clamps to the range of a `width`-bit unsigned
/// integer; NaN gives 0.
static uint64_t truncateToUnsignedSaturating(double value, int width) {
  if (!(value > 0))
    return 0;
  if (value >= std::ldexp(1.0, width))
    return width == 64 ? UINT64_MAX : (uint64_t(1) << width) - 1;
  return uint64_t(value);
}

static int64_t signExtend(uint64_t bits, int width) {
  if (width == 64)
    return int64_t(bits);
  uint64_t signBit = uint64_t(1) << (width - 1);
  return int64_t((bits ^ signBit) - signBit);
}

/// The stored bits of the integer (-1)^negative * magnitude in `type`.
static uint64_t integerToBits(DType type, bool negative, uint64_t magnitude) {
  if (type == DType::Bool)
    return magnitude != 0;
  if (isFloat(type))
    return roundToFormat(negative, magnitude, 0, floatFormat(type));
  // Storing the low bytes of the two's complement is the wrap-around.
  return negative ? 0 - magnitude : magnitude;
}

static uint64_t loadLittleEndian(const uint8_t *source, size_t size) {
  uint64_t value = 0;
  for (size_t byte = 0; byte < size; ++byte)
    value |= uint64_t(source[byte]) << (8 * byte);
  return value;
}

static void storeLittleEndian(uint8_t *destination, size_t size,
                              uint64_t value) {
  for (size_t byte = 0; byte < size; ++byte)
    destination[byte] = uint8_t(value >> (8 * byte));
}

/// A tensor's bytes (HostTensor::bytes).
using TensorBytes = std::vector<uint8_t, ZeroedByteAllocator>;

static uint64_t loadElement(const TensorBytes &bytes, DType type, int64_t i) {
  size_t size = dtypeSize(type);
  assert(i >= 0 && size_t(i) < bytes.size() / size && "index out of range");
  return loadLittleEndian(bytes.data() + size_t(i) * size, size);
}

static void storeElement(TensorBytes &bytes, DType type, int64_t i,
                         uint64_t bits) {
  size_t size = dtypeSize(type);
  assert(i >= 0 && size_t(i) < bytes.size() / size && "index out of range");
  storeLittleEndian(bytes.data() + size_t(i) * size, size, bits);
}

uint16_t tilec::doubleToHalf(double value) {
  return uint16_t(doubleToFormat(value, kHalf));
}

double tilec::halfToDouble(uint16_t bits) {
  return formatToDouble(bits, kHalf);
}

uint16_t tilec::doubleToBFloat16(double value) {
  return uint16_t(doubleToFormat(value, kBFloat16));
}

double tilec::bfloat16ToDouble(uint16_t bits) {
  return formatToDouble(bits, kBFloat16);
}

/// The bytes of a tensor of `dtype` and `shape`, or nullopt when its element
/// count or byte size does not fit (int64_t elements, 64-bit bytes).
static std::optional<uint64_t> tensorBytes(DType dtype, const Shape &shape) {
  std::optional<int64_t> elements = tilec::numElements(shape);
  uint64_t bytes;
  if (!elements ||
      !checkedMultiply(uint64_t(*elements), dtypeSize(dtype), bytes))
    return std::nullopt;
  return bytes;
}

HostTensor::HostTensor(DType dtype, Shape shape)
    : type(dtype), dims(std::move(shape)) {
  std::optional<uint64_t> size = tensorBytes(type, dims);
  if (!size || *size > bytes.max_size())
    throw std::length_error("a tensor of " + formatTensorType(type, dims) +
                            " has more bytes than 64 bits count");
  count = *tilec::numElements(dims);
  // Zeroed by the allocator, without a pass over the bytes.
  bytes.resize(*size);
}

Expected<HostTensor> HostTensor::allocate(DType dtype, Shape shape) {
  std::string typeName = formatTensorType(dtype, shape);
  std::optional<uint64_t> size = tensorBytes(dtype, shape);
  if (!size)
    return Error(typeName + " is too large: its size in bytes does not fit "
                            "64 bits");
  uint64_t available = availableHostMemory();
  if (*size > available)
    return Error(typeName + " is too large: it needs " + std::to_string(*size) +
                 " bytes, and the host has " + std::to_string(available) +
                 " bytes of memory available");
  try {
    return HostTensor(dtype, std::move(shape));
  } catch (const std::exception &) {
    return Error(typeName + " is too large: the host cannot allocate its " +
                 std::to_string(*size) + " bytes");
  }
}

double HostTensor::getDouble(int64_t i) const {
  uint64_t bits = loadElement(bytes, type, i);
  if (type == DType::Bool)
    return bits != 0 ? 1.0 : 0.0;
  if (isSignedInt(type))
    return double(signExtend(bits, dtypeBits(type)));
  if (isUnsignedInt(type))
    return double(bits);
  if (type == DType::F64)
    return bitsToDouble(bits);
  return formatToDouble(bits, floatFormat(type));
}

int64_t HostTensor::getInt(int64_t i) const {
  if (isFloat(type))
    return truncateToSignedSaturating(getDouble(i), 64);
  uint64_t bits = loadElement(bytes, type, i);
  if (type == DType::Bool)
    return bits != 0;
  if (isSignedInt(type))
    return signExtend(bits, dtypeBits(type));
  return int64_t(bits);
}

uint64_t HostTensor::getUInt(int64_t i) const {
  if (isFloat(type))
    return truncateToUnsignedSaturating(getDouble(i), 64);
  uint64_t bits = loadElement(bytes, type, i);
  if (type == DType::Bool)
    return bits != 0;
  if (isSignedInt(type))
    return uint64_t(signExtend(bits, dtypeBits(type)));
  return bits;
}

void HostTensor::setDouble(int64_t i, double value) {
  uint64_t bits;
  if (type == DType::Bool)
    bits = value != 0;
  else if (isSignedInt(type))
    bits = uint64_t(truncateToSignedSaturating(value, dtypeBits(type)));
  else if (isUnsignedInt(type))
    bits = truncateToUnsignedSaturating(value, dtypeBits(type));
  else if (type == DType::F64)
    bits = doubleBits(value);
  else
    bits = doubleToFormat(value, floatFormat(type));
  storeElement(bytes, type, i, bits);
}

void HostTensor::setInt(int64_t i, int64_t value) {
  uint64_t magnitude = value < 0 ? 0 - uint64_t(value) : uint64_t(value);
  storeElement(bytes, type, i, integerToBits(type, value < 0, magnitude));
}

void HostTensor::setUInt(int64_t i, uint64_t value) {
  storeElement(bytes, type, i, integerToBits(type, false, value));
}

void HostTensor::poison(uint8_t pattern) {
  std::fill(bytes.begin(), bytes.end(), pattern);
}

Expected<HostTensor> HostTensor::fromElements(DType dtype, const Shape &shape,
                                              const void *values,
                                              size_t count) {
  std::optional<int64_t> elements = tilec::numElements(shape);
  if (!elements || uint64_t(*elements) > SIZE_MAX / dtypeSize(dtype))
    return Error("a tensor of " + formatTensorType(dtype, shape) +
                 " cannot be held: a negative extent, or too large");
  if (uint64_t(*elements) != count)
    return Error(std::to_string(count) + " values for a tensor of " +
                 formatTensorType(dtype, shape) + ", which holds " +
                 std::to_string(*elements));
  HostTensor tensor(dtype, shape);
  if (count)
    std::memcpy(tensor.data(), values, tensor.sizeInBytes());
  return tensor;
}

Status HostTensor::checkElementType(DType requested) const {
  if (requested == type)
    return Status::success();
  return Error(std::string("the elements of a tensor of ") +
               formatTensorType(type, dims) + " are not " +
               dtypeName(requested) + " values");
}
