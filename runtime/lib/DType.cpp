//===- DType.cpp - Element types of Tile tensors --------------------------===//

#include "tilec/Runtime/DType.h"

namespace tilec {

const char *dtypeName(DType type) {
  switch (type) {
  case DType::Bool:
    return "bool";
  case DType::I8:
    return "i8";
  case DType::I16:
    return "i16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::U8:
    return "u8";
  case DType::U16:
    return "u16";
  case DType::U32:
    return "u32";
  case DType::U64:
    return "u64";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  }
  return "?";
}

std::optional<DType> parseDType(std::string_view name) {
  for (DType type : kAllDTypes)
    if (name == dtypeName(type))
      return type;
  return std::nullopt;
}

unsigned dtypeBits(DType type) {
  switch (type) {
  case DType::Bool:
    return 1;
  case DType::I8:
  case DType::U8:
    return 8;
  case DType::I16:
  case DType::U16:
  case DType::F16:
  case DType::BF16:
    return 16;
  case DType::I32:
  case DType::U32:
  case DType::F32:
    return 32;
  case DType::I64:
  case DType::U64:
  case DType::F64:
    return 64;
  }
  return 0;
}

size_t dtypeSize(DType type) {
  return type == DType::Bool ? 1 : dtypeBits(type) / 8;
}

bool isFloat(DType type) {
  return type == DType::F16 || type == DType::BF16 || type == DType::F32 ||
         type == DType::F64;
}

bool isSignedInt(DType type) {
  return type == DType::I8 || type == DType::I16 || type == DType::I32 ||
         type == DType::I64;
}

bool isUnsignedInt(DType type) {
  return type == DType::U8 || type == DType::U16 || type == DType::U32 ||
         type == DType::U64;
}

std::optional<int64_t> numElements(const Shape &shape) {
  int64_t count = 1;
  for (int64_t extent : shape) {
    if (extent < 0 || (extent != 0 && count > INT64_MAX / extent))
      return std::nullopt;
    count *= extent;
  }
  return count;
}

} // namespace tilec
