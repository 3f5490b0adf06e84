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
#include <optional>
#include <string>
#include <utility>
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
  /// The same, for the tuples whose outermost variable lies in
  /// [outerFirst, outerLast]: the tuples of forEach, split by their first
  /// value among callers that may run at once.
  llvm::Error forEach(llvm::function_ref<bool(llvm::ArrayRef<int64_t>)> visit,
                      int64_t outerFirst, int64_t outerLast) const;

  /// Visits the same tuples as forEach(visit, outerFirst, outerLast), a row
  /// at a time: `visitRow(outer, low, high)` stands for the tuples
  /// (outer..., x) for x from low to high, where `outer` holds the values of
  /// every variable but the innermost. A nest without variables has no rows
  /// (its one empty tuple is forEach's). `visitRow` returns false to stop.
  llvm::Error forEachRow(llvm::function_ref<bool(llvm::ArrayRef<int64_t> outer,
                                                 int64_t low, int64_t high)>
                             visitRow,
                         int64_t outerFirst, int64_t outerLast) const;

  /// Calls `visit` with each tuple of the row (outer..., x), x from low to
  /// high, in `tuple`; false when `visit` stopped.
  static bool
  forEachInRow(llvm::ArrayRef<int64_t> outer, int64_t low, int64_t high,
               std::vector<int64_t> &tuple,
               llvm::function_ref<bool(llvm::ArrayRef<int64_t>)> visit);

  /// The values the outermost variable takes in forEach, as [first, last];
  /// nullopt when forEach visits nothing or the nest has no variable. Fails
  /// only when a bound overflows int64.
  llvm::Expected<std::optional<std::pair<int64_t, int64_t>>>
  getOuterRange() const;

private:
  /// Bounds on x_level given tuple[0..level), as [low, high] (empty when
  /// low > high). Fails when a bound overflows int64.
  llvm::Expected<std::pair<int64_t, int64_t>>
  getBounds(unsigned level, llvm::ArrayRef<int64_t> tuple) const;
  /// Visits the rows that extend tuple[0..level), the outermost variable
  /// limited to `outer`; false when stopped.
  llvm::Expected<bool> forEachRowFrom(
      unsigned level, std::vector<int64_t> &tuple,
      llvm::function_ref<bool(llvm::ArrayRef<int64_t>, int64_t, int64_t)>
          visitRow,
      std::pair<int64_t, int64_t> outer) const;

  /// levels[k]: the inequalities of the projection onto x_0..x_k in which
  /// x_k appears.
  std::vector<std::vector<LinearInequality>> levels;
  /// The system has no rational solution.
  bool empty = false;
};

} // namespace interp
} // namespace tilec

#endif // TILEC_LIB_INTERPRETER_INDEXSPACE_H
