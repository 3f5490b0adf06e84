//===- OpenCLTypes.cpp - C types and literals of the kernel IR ------------===//
//
// How the kernel IR's types and constants are spelled in OpenCL C (the value
// representation is described in OpenCLEmitter.h).
//
//===----------------------------------------------------------------------===//

#include "OpenCLEmitter.h"

#include "llvm/ADT/STLExtras.h"

#include <charconv>
#include <iterator>

using namespace mlir;

namespace tilec::opencl_c {

unsigned KernelPrinter::integerWidth(Type type) const {
  if (type.isIndex())
    return indexBits;
  return type.getIntOrFloatBitWidth();
}

/// Whether the kernel IR has vectors of `element`: the C types that
/// OpenCL C has vectors of, and f16, whose vectors are held as float
/// vectors as its values are floats (not bf16, i1 or index).
static bool isVectorElement(Type element) {
  if (element.isF16() || element.isF32() || element.isF64())
    return true;
  return element.isSignlessInteger() &&
         llvm::is_contained({8u, 16u, 32u, 64u},
                            element.getIntOrFloatBitWidth());
}

FailureOr<std::string> KernelPrinter::valueType(Location loc, Type type) {
  if (auto vector = dyn_cast<VectorType>(type)) {
    if (vector.getRank() != 1 || vector.isScalable() ||
        !llvm::is_contained({2, 4}, vector.getNumElements()) ||
        !isVectorElement(vector.getElementType()))
      return emitError(loc) << "type " << type
                            << " is not part of the kernel IR (vectors have "
                               "2 or 4 elements of f16, f32, f64 or i8 to "
                               "i64)";
    FailureOr<std::string> element = valueType(loc, vector.getElementType());
    if (failed(element))
      return failure();
    return *element + std::to_string(vector.getNumElements());
  }
  if (type.isIndex())
    return std::string(indexBits == 32 ? "int" : "long");
  if (type.isF16() || type.isBF16() || type.isF32())
    return std::string("float");
  if (type.isF64()) {
    requirements.usesFP64 = true;
    return std::string("double");
  }
  if (type.isSignlessInteger()) {
    switch (type.getIntOrFloatBitWidth()) {
    case 1:
      return std::string("bool");
    case 8:
      return std::string("char");
    case 16:
      return std::string("short");
    case 32:
      return std::string("int");
    case 64:
      return std::string("long");
    }
  }
  return emitError(loc) << "type " << type
                        << " is not part of the kernel IR; the OpenCL "
                           "printer cannot translate it";
}

FailureOr<std::string> KernelPrinter::storageType(Location loc, Type type) {
  if (type.isF16())
    return std::string("half");
  if (type.isBF16())
    return std::string("ushort");
  if (type.isInteger(1))
    return emitError(loc) << "a buffer of i1 is not part of the kernel IR "
                             "(bool is stored as i8)";
  if (isa<VectorType>(type))
    return emitError(loc) << "a buffer of " << type
                          << " is not part of the kernel IR (buffers hold "
                             "scalars; vector ops access them)";
  return valueType(loc, type);
}

std::string KernelPrinter::unsignedType(Type type) const {
  switch (integerWidth(type)) {
  case 1:
    return "bool";
  case 8:
    return "uchar";
  case 16:
    return "ushort";
  case 32:
    return "uint";
  default:
    return "ulong";
  }
}

std::string KernelPrinter::wrappingType(Type type) const {
  return integerWidth(type) <= 32 ? "uint" : "ulong";
}

std::string printIntegerLiteral(const llvm::APInt &value, Type type,
                                unsigned indexBits) {
  unsigned width = type.isIndex() ? indexBits : type.getIntOrFloatBitWidth();
  if (width == 1)
    return value.isZero() ? "false" : "true";
  int64_t number = value.getSExtValue();
  // The most negative value has no literal: its magnitude does not fit.
  if (width == 64 && number == INT64_MIN)
    return "(-9223372036854775807L - 1)";
  if (width == 32 && number == INT32_MIN)
    return "(-2147483647 - 1)";
  std::string digits = std::to_string(number);
  // Literals carry their type, so that overloaded builtins resolve.
  if (width == 64)
    digits += "L";
  else if (width < 32)
    digits = (width == 8 ? "(char)" : "(short)") + digits;
  if (number < 0 || width < 32)
    return "(" + digits + ")";
  return digits;
}

std::string printFloatLiteral(const llvm::APFloat &value, Type type) {
  bool isDouble = type.isF64();
  llvm::APFloat exact = value;
  // f16 and bf16 values are floats in C; widening to f32 is exact.
  if (!isDouble) {
    bool losesInfo = false;
    exact.convert(llvm::APFloat::IEEEsingle(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  }
  if (exact.isNaN())
    return isDouble ? "((double)NAN)" : "NAN";
  if (exact.isInfinity()) {
    std::string infinity = isDouble ? "(double)INFINITY" : "INFINITY";
    return exact.isNegative() ? "(-" + infinity + ")" : infinity;
  }

  // The shortest decimal that reads back as the same value.
  char buffer[64];
  std::to_chars_result written =
      isDouble
          ? std::to_chars(buffer, std::end(buffer), exact.convertToDouble())
          : std::to_chars(buffer, std::end(buffer), exact.convertToFloat());
  std::string literal(buffer, written.ptr);
  if (literal.find_first_of(".e") == std::string::npos)
    literal += ".0";

  if (!isDouble)
    literal += "f";
  if (exact.isNegative())
    return "(" + literal + ")";
  return literal;
}

} // namespace tilec::opencl_c
