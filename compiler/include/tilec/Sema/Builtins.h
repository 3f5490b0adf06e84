//===- Builtins.h - The elementwise builtin functions -----------*- C++ -*-===//
//
// The spelling, arity and typing class of each Builtin (docs/language.md,
// section 4), read from the table of elementwise operations
// (tilec/Support/ElementwiseOps.def) and shared by sema (which types calls)
// and the printer (which writes them).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SEMA_BUILTINS_H
#define TILEC_SEMA_BUILTINS_H

#include "tilec/Sema/Program.h"

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace tilec {

/// How a builtin types its operands.
enum class BuiltinClass {
  /// exp, sin, pow, ...: computes in a float type (f32 for integer operands).
  Float,
  /// abs, floor, relu, ...: keeps integer types (bool computes in i32).
  Numeric,
};

struct BuiltinInfo {
  Builtin builtin;
  const char *name;
  unsigned arity;
  BuiltinClass typeClass;
};

const BuiltinInfo &getBuiltinInfo(Builtin builtin);
std::optional<Builtin> lookupBuiltin(llvm::StringRef name);

/// The name of `select(c, a, b)`, the call form of `c ? a : b`.
#define TILE_SELECT(Kind, Mnemonic, Rule)                                      \
  inline constexpr llvm::StringLiteral kSelectName = Mnemonic;
#include "tilec/Support/ElementwiseOps.def"

} // namespace tilec

#endif // TILEC_SEMA_BUILTINS_H
