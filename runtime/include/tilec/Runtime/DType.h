//===- DType.h - Element types of Tile tensors ------------------*- C++ -*-===//
//
// The element types of the Tile language (docs/language.md, section 5). This
// header is shared by the compiler and the runtime, so it depends on the C++
// standard library only.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_DTYPE_H
#define TILEC_RUNTIME_DTYPE_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace tilec {

enum class DType : uint8_t {
  Bool,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  F16,
  BF16,
  F32,
  F64,
};

/// All dtypes, in declaration order.
inline constexpr DType kAllDTypes[] = {
    DType::Bool, DType::I8,  DType::I16,  DType::I32, DType::I64,
    DType::U8,   DType::U16, DType::U32,  DType::U64, DType::F16,
    DType::BF16, DType::F32, DType::F64};

/// The language's spelling: "bool", "i8", ..., "f64".
const char *dtypeName(DType type);
/// Parses the language's spelling; nullopt for anything else.
std::optional<DType> parseDType(std::string_view name);
/// Storage size of one element in bytes (bool takes one byte).
size_t dtypeSize(DType type);
/// Width in bits of the value (bool: 1).
unsigned dtypeBits(DType type);

bool isFloat(DType type);
bool isSignedInt(DType type);
bool isUnsignedInt(DType type);
inline bool isInteger(DType type) {
  return isSignedInt(type) || isUnsignedInt(type);
}

/// A tensor shape: one extent per dimension; empty for a scalar.
using Shape = std::vector<int64_t>;

/// Number of elements of `shape` (1 for a scalar), or nullopt on overflow of
/// int64_t.
std::optional<int64_t> numElements(const Shape &shape);

} // namespace tilec

#endif // TILEC_RUNTIME_DTYPE_H
