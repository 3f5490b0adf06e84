//===- Signature.h - A function's parameters, before binding ----*- C++ -*-===//
//
// What a caller needs to bind a function's parameters without knowing them in
// advance: their names and declared ranks, and the results' names. A binding
// that takes inputs by position (the Python package) reads the signature once
// and then binds each call's arrays to the parameters' names. Reading it only
// parses the source: syntax errors and a missing entry are reported here, with
// their locations; type and shape errors need the bindings (Context::compile).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_SIGNATURE_H
#define TILEC_JIT_SIGNATURE_H

#include "tilec/JIT/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace tilec::jit {

/// A parameter as declared.
struct ParameterInfo {
  std::string name;
  /// The declared rank (0 for `X[]`); nullopt for a parameter written
  /// without brackets, whose rank comes from its binding.
  std::optional<unsigned> rank;
};

/// A Tile function's interface: what CompileOptions binds and what a run
/// returns, in order.
struct FunctionSignature {
  /// The function's name (empty for an anonymous function).
  std::string name;
  /// The parameters in declaration order: the order of a run's inputs.
  std::vector<ParameterInfo> parameters;
  /// The results in `-> (...)` order: the order of a run's outputs.
  std::vector<std::string> results;
};

/// Parses `text` (named `sourceName` in diagnostics) and returns the
/// signature of function `entry` (empty: the only function). Fails with
/// ErrorKind::Compile and every diagnostic on a syntax error or a missing
/// entry.
Expected<FunctionSignature>
readSignature(const std::string &text, const std::string &entry = "",
              const std::string &sourceName = "<string>");

} // namespace tilec::jit

#endif // TILEC_JIT_SIGNATURE_H
