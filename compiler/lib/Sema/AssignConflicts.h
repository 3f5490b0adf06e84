//===- AssignConflicts.h - Proving two writes of an `=` element -*- C++ -*-===//
//
// Private to the Sema library. The contract makes it an error, reported at
// compile time where provable, for two valid tuples of an `=` contraction to
// write one element. Sema proves it by finding two such tuples.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_SEMA_ASSIGNCONFLICTS_H
#define TILEC_LIB_SEMA_ASSIGNCONFLICTS_H

#include "tilec/Sema/Program.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>

namespace tilec {
namespace sema {

/// Two valid index tuples that write the same output element.
struct AssignConflict {
  std::vector<int64_t> first;
  std::vector<int64_t> second;
  /// The output element both write.
  std::vector<int64_t> element;
};

/// Looks for two valid tuples of `contraction` (its output of shape
/// `outputShape`, its operands of `operandShapes`) that differ only in one
/// index variable absent from the output. The search is bounded and does not
/// scale with the tensors' sizes: nullopt means no conflict was proven, not
/// that none exists. Eq/Cond-free contractions only matter (with `A == B ?
/// C`, whether a valid tuple writes depends on the values).
std::optional<AssignConflict>
findAssignConflict(const Contraction &contraction, const Shape &outputShape,
                   llvm::ArrayRef<Shape> operandShapes);

} // namespace sema
} // namespace tilec

#endif // TILEC_LIB_SEMA_ASSIGNCONFLICTS_H
