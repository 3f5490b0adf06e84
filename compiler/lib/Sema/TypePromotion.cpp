//===- TypePromotion.cpp - dtype promotion rules of Tile ------------------===//

#include "tilec/Sema/TypePromotion.h"

#include <algorithm>

namespace tilec {

DType getSignedIntType(unsigned bits) {
  switch (bits) {
  case 8:
    return DType::I8;
  case 16:
    return DType::I16;
  case 32:
    return DType::I32;
  default:
    return DType::I64;
  }
}

DType getUnsignedIntType(unsigned bits) {
  switch (bits) {
  case 8:
    return DType::U8;
  case 16:
    return DType::U16;
  case 32:
    return DType::U32;
  default:
    return DType::U64;
  }
}

DType getFloatType(unsigned bits) {
  switch (bits) {
  case 16:
    return DType::F16;
  case 32:
    return DType::F32;
  default:
    return DType::F64;
  }
}

DType promoteTypes(DType a, DType b) {
  if (a == b || b == DType::Bool)
    return a;
  if (a == DType::Bool)
    return b;
  if (isFloat(a) != isFloat(b))
    return isFloat(a) ? a : b;
  unsigned bitsA = dtypeBits(a), bitsB = dtypeBits(b);
  if (isFloat(a)) {
    // f16 and bf16 have one width but neither holds the other's values.
    if (bitsA == bitsB)
      return DType::F32;
    return bitsA > bitsB ? a : b;
  }
  if (isSignedInt(a) == isSignedInt(b))
    return bitsA > bitsB ? a : b;
  DType signedType = isSignedInt(a) ? a : b;
  DType unsignedType = isSignedInt(a) ? b : a;
  if (dtypeBits(signedType) > dtypeBits(unsignedType))
    return signedType;
  return getSignedIntType(std::min(2 * dtypeBits(unsignedType), 64u));
}

DType promoteArithmetic(DType a, DType b) {
  DType result = promoteTypes(a, b);
  return result == DType::Bool ? DType::I32 : result;
}

} // namespace tilec
