//===- FiniteDifferences.h - Gradients checked numerically ------*- C++ -*-===//
//
// The oracle of the autodiff tests: the gradient program, run by the
// reference interpreter, must agree with central finite differences of the
// forward program, also run by the interpreter, in f64 on random inputs.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TESTS_UNIT_AUTODIFF_FINITEDIFFERENCES_H
#define TILEC_TESTS_UNIT_AUTODIFF_FINITEDIFFERENCES_H

#include "tilec/Runtime/HostTensor.h"
#include "tilec/Sema/Program.h"

#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilec::testing {

/// `name=dtype[dims]` of one input, as `--arg` writes it.
struct InputType {
  std::string name;
  DType dtype = DType::F64;
  Shape shape;
};

/// A Tile function specialised from source, with the diagnostics it got.
struct Compiled {
  std::unique_ptr<llvm::SourceMgr> sourceMgr;
  std::optional<Program> program;
  std::string diagnostics;
};

/// Parses and specialises `source` (its only function) for `inputs`.
Compiled compileSource(const std::string &source,
                       const std::vector<InputType> &inputs);

/// Compiles `source`, differentiates it with respect to `wrt` and returns
/// the printed gradient program, or "" with `diagnostics` set.
std::string gradientSource(const std::string &source,
                           const std::vector<InputType> &inputs,
                           const std::vector<std::string> &wrt,
                           std::string &diagnostics);

/// Checks every element of every gradient of `source` against central
/// finite differences: |grad - fd| <= tolerance * (1 + |fd|). Float inputs
/// are random in +-[0.5, 1.5] (never 0), integer inputs random in 1..3,
/// cotangents random in +-[0.5, 1.5].
void expectGradientsMatch(const std::string &source,
                          const std::vector<InputType> &inputs,
                          const std::vector<std::string> &wrt,
                          double tolerance = 1e-6);

} // namespace tilec::testing

#endif // TILEC_TESTS_UNIT_AUTODIFF_FINITEDIFFERENCES_H
