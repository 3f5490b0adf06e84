//===- ContractionPlan.h - A contraction's accesses as integers -*- C++ -*-===//
//
// What the evaluation of a contraction precomputes once: every index
// polynomial (of the accesses and of the constraints) scaled to integer
// coefficients, with the extents it must stay within. Both ways of visiting
// the tuples read it: the general visit of each tuple (Contraction.cpp) and
// the strided walk of whole rows (StridedRows.h).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_INTERPRETER_CONTRACTIONPLAN_H
#define TILEC_LIB_INTERPRETER_CONTRACTIONPLAN_H

#include "tilec/Runtime/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tilec {
namespace interp {

using Int128 = __int128;

/// An affine polynomial times the lcm of its denominators:
/// poly(x) = (sum coeffs[k] * x_k + constant) / scale, all integers.
struct ScaledPoly {
  std::vector<int64_t> coeffs;
  int64_t constant = 0;
  int64_t scale = 1;

  /// scale * poly(tuple), or nullopt when it overflows 128 bits.
  std::optional<Int128> evaluate(llvm::ArrayRef<int64_t> tuple) const {
    Int128 sum = constant;
    for (size_t k = 0; k < coeffs.size(); ++k)
      if (coeffs[k] != 0 &&
          __builtin_add_overflow(sum, Int128(coeffs[k]) * tuple[k], &sum))
        return std::nullopt;
    return sum;
  }
};

/// One tensor access with the shape it indexes.
struct AccessPlan {
  std::vector<ScaledPoly> indices;
  Shape shape;
};

/// A constraint 0 <= poly < bound as 0 <= scale * poly < scale * bound.
struct ConstraintPlan {
  ScaledPoly poly;
  Int128 scaledBound = 0;

  /// Whether `tuple` satisfies the constraint; nullopt on overflow.
  std::optional<bool> holds(llvm::ArrayRef<int64_t> tuple) const {
    std::optional<Int128> scaled = poly.evaluate(tuple);
    if (!scaled)
      return std::nullopt;
    return *scaled >= 0 && *scaled < scaledBound;
  }
};

/// Where an access lands for one index tuple.
enum class AccessOutcome { InBounds, Skipped, Overflow };

/// Computes the coordinates of `access` at `tuple` and its flat C-order
/// offset. Skipped when a coordinate is fractional or out of bounds.
AccessOutcome locate(const AccessPlan &access, llvm::ArrayRef<int64_t> tuple,
                     llvm::SmallVectorImpl<int64_t> &coordinates,
                     int64_t &offset);

} // namespace interp
} // namespace tilec

#endif // TILEC_LIB_INTERPRETER_CONTRACTIONPLAN_H
