//===- Builtins.cpp - The elementwise builtin functions -------------------===//

#include "tilec/Sema/Builtins.h"

#include <iterator>

namespace tilec {

/// In the order of the Builtin enumerators.
static const BuiltinInfo kBuiltins[] = {
    {Builtin::Exp, "exp", 1, BuiltinClass::Float},
    {Builtin::Log, "log", 1, BuiltinClass::Float},
    {Builtin::Sqrt, "sqrt", 1, BuiltinClass::Float},
    {Builtin::Rsqrt, "rsqrt", 1, BuiltinClass::Float},
    {Builtin::Pow, "pow", 2, BuiltinClass::Float},
    {Builtin::Sin, "sin", 1, BuiltinClass::Float},
    {Builtin::Cos, "cos", 1, BuiltinClass::Float},
    {Builtin::Tan, "tan", 1, BuiltinClass::Float},
    {Builtin::Sinh, "sinh", 1, BuiltinClass::Float},
    {Builtin::Cosh, "cosh", 1, BuiltinClass::Float},
    {Builtin::Tanh, "tanh", 1, BuiltinClass::Float},
    {Builtin::Asin, "asin", 1, BuiltinClass::Float},
    {Builtin::Acos, "acos", 1, BuiltinClass::Float},
    {Builtin::Atan, "atan", 1, BuiltinClass::Float},
    {Builtin::Atan2, "atan2", 2, BuiltinClass::Float},
    {Builtin::Erf, "erf", 1, BuiltinClass::Float},
    {Builtin::Floor, "floor", 1, BuiltinClass::Numeric},
    {Builtin::Ceil, "ceil", 1, BuiltinClass::Numeric},
    {Builtin::Round, "round", 1, BuiltinClass::Numeric},
    {Builtin::Abs, "abs", 1, BuiltinClass::Numeric},
    {Builtin::Sign, "sign", 1, BuiltinClass::Numeric},
    {Builtin::Min, "min", 2, BuiltinClass::Numeric},
    {Builtin::Max, "max", 2, BuiltinClass::Numeric},
    {Builtin::Relu, "relu", 1, BuiltinClass::Numeric},
    {Builtin::Sigmoid, "sigmoid", 1, BuiltinClass::Float},
};

static_assert(std::size(kBuiltins) == size_t(Builtin::Sigmoid) + 1,
              "one entry per Builtin");

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
