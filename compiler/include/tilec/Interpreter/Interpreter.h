//===- Interpreter.h - The reference interpreter ----------------*- C++ -*-===//
//
// Evaluates a specialised program straight from the language definition
// (docs/language.md, section 7): contractions aggregate over exactly the
// valid index tuples (integer points of fractional accesses, in-bounds
// accesses, constraints), outputs start at the aggregation's identity or the
// `default` tensor, `=` conflicts are errors, integers follow C semantics
// exactly, and float arithmetic runs in f64 rounded once to the output dtype.
//
// It is the oracle of every numeric test, so it shares no code with lowering
// or code generation.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_INTERPRETER_INTERPRETER_H
#define TILEC_INTERPRETER_INTERPRETER_H

#include "tilec/Runtime/HostTensor.h"
#include "tilec/Sema/Program.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace tilec {

/// Told how far a run has got: `done` of `total` units of work, where each
/// statement weighs the elements of its output. Called from any of the
/// interpreter's threads but one call at a time, with `done` increasing; the
/// last call of a successful run has done == total. A contraction reports
/// each value of its outermost index variable, other statements when they
/// end. A tool turns it into a progress bar.
using InterpretProgress = std::function<void(uint64_t done, uint64_t total)>;

/// A deliberate error, for differential testing only (tests/difftest): with
/// a nonzero seed, the result of each inexact builtin (exp, log, sqrt, rsqrt,
/// pow, the trigonometric and hyperbolic functions, erf, sigmoid) moves by
/// half to all of 16 units in the last place of its dtype (1 for f16 and
/// bf16), and each term of a float `+` or `*` aggregation by half to all of
/// 2 units of f32 (f64 for an f64 output), down for an odd seed and up for an
/// even one, by an amount that depends on the seed and the value only.
/// Devices compute the builtins within their accuracy, not correctly
/// rounded, and accumulate in the output's type in their own order: a
/// program whose outputs move past a comparison's tolerance under this is
/// too ill-conditioned to compare.
struct Perturbation {
  uint64_t seed = 0;
  /// With a seed, each float quotient moves too, by half to all of 3 units
  /// in the last place: Vulkan bounds OpFDiv's error by 2.5 ulp, where
  /// OpenCL's division is correctly rounded.
  bool divisions = false;
  /// Each f32 or bf16 subnormal operand and result of a float operation,
  /// aggregation terms and accumulators included, counts as a zero of its
  /// sign: what a device that keeps no f32 subnormals computes (a Vulkan
  /// device without DenormPreserve for 32 bits, NVIDIA's). Needs no seed.
  bool flushSubnormals = false;

  /// Whether the run folds contractions tuple by tuple, where terms move.
  bool changesTerms() const { return seed || flushSubnormals; }
};

/// Runs `program` on `inputs` (one per program.inputs, in that order, with the
/// bound dtypes and shapes). Returns the outputs in program.outputs order, or
/// nullopt after reporting a run-time error (an `=` conflict, an integer
/// division by zero) through `sourceMgr` at the statement's location.
std::optional<std::vector<HostTensor>>
interpret(const Program &program, llvm::ArrayRef<HostTensor> inputs,
          llvm::SourceMgr &sourceMgr,
          const InterpretProgress &progress = nullptr,
          Perturbation perturbation = {});

} // namespace tilec

#endif // TILEC_INTERPRETER_INTERPRETER_H
