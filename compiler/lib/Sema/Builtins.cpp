//===- Builtins.cpp - The elementwise builtin functions -------------------===//

#include "tilec/Sema/Builtins.h"

namespace tilec {

/// In the order of the Builtin enumerators: both are the table's rows.
static const BuiltinInfo kBuiltins[] = {
#define TILE_BUILTIN(Kind, Mnemonic, Arity, Rule, Class)                       \
  {Builtin::Kind, Mnemonic, Arity, BuiltinClass::Class},
#include "tilec/Support/ElementwiseOps.def"
};

const BuiltinInfo &getBuiltinInfo(Builtin builtin) {
  return kBuiltins[size_t(builtin)];
}

std::optional<Builtin> lookupBuiltin(llvm::StringRef name) {
  for (const BuiltinInfo &info : kBuiltins)
    if (name == info.name)
      return info.builtin;
  return std::nullopt;
}

} // namespace tilec
