//===- Gradient.h - Reverse-mode autodiff of Tile programs ------*- C++ -*-===//
//
// Source-to-source reverse-mode differentiation (docs/training.md): from a
// specialised program and the inputs to differentiate, a new program that
// recomputes what the backward pass needs of the forward one and returns the
// gradients. It is an ordinary Tile program: it prints, parses and compiles
// like any other, and the interpreter runs it with no knowledge of autodiff.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_AUTODIFF_GRADIENT_H
#define TILEC_AUTODIFF_GRADIENT_H

#include "tilec/Sema/Program.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace tilec {

/// The gradient program of `program` with respect to its inputs named in
/// `wrt`. Its inputs are the program's inputs, then, for each float output
/// `Out` of rank at least 1, its cotangent `DOut` (same dtype and shape; a
/// scalar output's cotangent is 1). Its outputs are `DW` for each `W` of
/// `wrt`, in that order: the sum over the outputs of their cotangent times
/// their derivative with respect to W.
///
/// The result is the program that sema makes of the printed gradient source,
/// which is added to `sourceMgr` as a buffer named `<function>.grad.tile`, so
/// that what a caller runs is exactly what `tilec grad` prints. Errors (an
/// unknown or integer `wrt` input, a construct without a derivative) are
/// reported through `sourceMgr` at the construct, and give nullopt.
std::optional<Program> differentiate(const Program &program,
                                     llvm::ArrayRef<std::string> wrt,
                                     llvm::SourceMgr &sourceMgr);

} // namespace tilec

#endif // TILEC_AUTODIFF_GRADIENT_H
