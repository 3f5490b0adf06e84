//===- TypePromotion.h - dtype promotion rules of Tile ----------*- C++ -*-===//
//
// docs/language.md, section 5: float beats int, the wider wins, signed and
// unsigned of one width go to the signed type of the next width up (at most
// 64), and bool gives way to any other type.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SEMA_TYPEPROMOTION_H
#define TILEC_SEMA_TYPEPROMOTION_H

#include "tilec/Runtime/DType.h"

namespace tilec {

/// The common dtype of `a` and `b` (Bool only when both are Bool).
DType promoteTypes(DType a, DType b);

/// The dtype arithmetic on `a` and `b` computes in: promoteTypes, except
/// that bool arithmetic computes in I32.
DType promoteArithmetic(DType a, DType b);

/// The signed or unsigned integer type of `bits` bits, the float type of
/// `bits` bits (16: F16).
DType getSignedIntType(unsigned bits);
DType getUnsignedIntType(unsigned bits);
DType getFloatType(unsigned bits);

} // namespace tilec

#endif // TILEC_SEMA_TYPEPROMOTION_H
