//===- IndexSpace.h - Integer points of a contraction's index space -*- C++
//-*-//
//
// A contraction's candidate index tuples are the integer points of a
// polyhedron: every access in bounds and every constraint, scaled to integer
// coefficients. This file projects the polyhedron onto each prefix of the
// index variables by Fourier-Motzkin elimination, which yields, for every
// loop level, bounds on that variable given the outer ones. The enumeration
// visits a superset of the integer points whose size is close to theirs; the
// caller still checks every tuple exactly against the language definition.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_INTERPRETER_INDEXSPACE_H
#define TILEC_LIB_INTERPRETER_INDEXSPACE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilec {
namespace interp {

/// sum_k coeffs[k] * x_k + constant >= 0.
struct LinearInequality {
  std::vector<int64_t> coeffs;
  int64_t constant = 0;
};

/// Loop bounds for every integer point of a system of linear inequalities.
class LoopNest {
public:
  /// Projects `system` (over variables named `names`, outermost first).
  /// Fails when a variable has no finite lower or upper bound (the message
  /// names it), or when the elimination overflows int64 coefficients or grows
  /// beyond what the reference interpreter is willing to handle.
  static llvm::Expected<LoopNest> build(llvm::ArrayRef<std::string> names,
                                        std::vector<LinearInequality> system);

  /// Calls `visit` with every integer tuple, in lexicographic order, whose
  /// every prefix satisfies the projection of the system onto it. This
  /// includes every integer point of the system, and each visited tuple
  /// satisfies the whole system. `visit` returns false to stop early. Fails
  /// only when a loop bound overflows int64.
  llvm::Error
  forEach(llvm::function_ref<bool(llvm::ArrayRef<int64_t>)> visit) const;

private:
  /// Visits the tuples that extend tuple[0..level); false when stopped.
  llvm::Expected<bool>
  forEachFrom(unsigned level, std::vector<int64_t> &tuple,
              llvm::function_ref<bool(llvm::ArrayRef<int64_t>)> visit) const;

  /// levels[k]: the inequalities of the projection onto x_0..x_k in which
  /// x_k appears.
  std::vector<std::vector<LinearInequality>> levels;
  /// The system has no rational solution.
  bool empty = false;
};

} // namespace interp
} // namespace tilec

#endif // TILEC_LIB_INTERPRETER_INDEXSPACE_H
