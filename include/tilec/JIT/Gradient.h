//===- Gradient.h - The gradient program of a Tile function -----*- C++ -*-===//
//
// What `tilec grad` prints, as a call: the gradient program of a function,
// specialised to its bindings, as Tile source that Context::compile takes
// like any other (docs/training.md has the rules).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_GRADIENT_H
#define TILEC_JIT_GRADIENT_H

#include "tilec/JIT/Context.h"
#include "tilec/JIT/Error.h"

#include <string>
#include <vector>

namespace tilec::jit {

/// The source of the gradient program of function `options.entry` of `text`
/// (named `sourceName` in diagnostics), specialised to `options.inputs`,
/// with respect to the inputs named in `wrt`. Its inputs are the function's
/// (with the same bindings), then `D<Out>` for each float output of rank at
/// least 1 (the output's dtype and shape); its outputs are `D<W>` for each
/// name of `wrt`, in that order. Fails with ErrorKind::Compile and every
/// diagnostic: an error in the function, an unknown or integer `wrt` input,
/// a construct without a derivative.
Expected<std::string>
gradientSource(const std::string &text, const std::vector<std::string> &wrt,
               const CompileOptions &options,
               const std::string &sourceName = "<string>");

} // namespace tilec::jit

#endif // TILEC_JIT_GRADIENT_H
