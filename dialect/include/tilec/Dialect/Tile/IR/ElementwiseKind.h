//===- ElementwiseKind.h - The operations of tile.ew ------------*- C++ -*-===//
//
// The kind of a `tile.ew` op, its mnemonic, arity and typing rule, all from
// the one table of elementwise operations (tilec/Support/ElementwiseOps.def)
// that sema and the Program read too. The enum is C++ rather than a TableGen
// I32EnumAttr because MLIR 19's TableGen cannot read the .def: the dialect's
// TileBase.td declares the attribute over this enum with a parameter parser
// and printer of its own, the same keyword syntax an EnumAttr has.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_ELEMENTWISEKIND_H
#define TILEC_DIALECT_TILE_IR_ELEMENTWISEKIND_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>

namespace tilec {
namespace tile {

enum class ElementwiseKind : uint32_t {
#define TILE_ELEMENTWISE_OP(Kind, Mnemonic, Arity, Rule) Kind,
#include "tilec/Support/ElementwiseOps.def"
};

/// What a kind requires of its operand and result element types.
enum class ElementwiseTypingRule {
  /// Operands share an element type, the result is i1.
  Comparison,
  /// Operands and result are i1.
  Logical,
  /// An i1 condition, then two values of the result's element type.
  Select,
  /// Operands and result share an integer element type.
  Integer,
  /// Operands and result share a float element type.
  Float,
  /// Operands and result share an element type.
  Uniform,
};

/// The kind's keyword in `tile.ew <kind>`.
llvm::StringRef stringifyElementwiseKind(ElementwiseKind kind);
std::optional<ElementwiseKind> symbolizeElementwiseKind(llvm::StringRef name);
/// How many operands the kind takes.
unsigned getElementwiseArity(ElementwiseKind kind);
ElementwiseTypingRule getElementwiseTypingRule(ElementwiseKind kind);

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                                     ElementwiseKind kind) {
  return os << stringifyElementwiseKind(kind);
}

} // namespace tile
} // namespace tilec

#endif // TILEC_DIALECT_TILE_IR_ELEMENTWISEKIND_H
