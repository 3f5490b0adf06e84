//===- StridedRows.h - A contraction's rows walked by strides ---*- C++ -*-===//
//
// The interpreter's fast path for the common contraction: every access has
// integer coefficients, the result is a float, and the tuple's value is an
// operand or a sum or product of two (`+(A[i, k] * B[k, j])`). Along the
// innermost index variable every access then moves by a constant step in
// memory, so a row of tuples (all variables but the innermost fixed) needs
// its offsets computed once: when both ends of the row are valid tuples,
// every tuple between them is (each access coordinate and constraint is
// affine in the innermost variable, and its valid values are an interval).
// The row is folded with the same f64 operations, in the same order, as the
// general visit of each tuple (Contraction.cpp), so the results are bit for
// bit the same; rows that are not entirely valid are left to that visit.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_INTERPRETER_STRIDEDROWS_H
#define TILEC_LIB_INTERPRETER_STRIDEDROWS_H

#include "ContractionPlan.h"
#include "Scalar.h"

#include "tilec/Sema/Program.h"

#include <optional>
#include <vector>

namespace tilec {
namespace interp {

class StridedRows {
public:
  /// What one thread's rows need of their own.
  struct Scratch {
    std::vector<int64_t> tuple;
    llvm::SmallVector<int64_t, 8> coordinates;
    /// Each operand's values converted to the result dtype, then the
    /// tuples' contributions, for a block of a row.
    std::vector<double> operandValues[2], contributions;
  };

  /// The strided walk of a contraction with result dtype `resultType`,
  /// `accesses` (the output's first, then one per operand) and
  /// `constraints`; nullopt when the contraction is not of the kind above.
  static std::optional<StridedRows>
  plan(const Contraction &contraction, DType resultType,
       llvm::ArrayRef<AccessPlan> accesses,
       llvm::ArrayRef<ConstraintPlan> constraints,
       llvm::ArrayRef<const HostTensor *> operands);

  /// Folds the tuples (outer..., x), x from low to high in order, into
  /// `accumulators` (one f64 per output element) when every one of them is
  /// valid; false, having changed nothing, when some tuple may be skipped or
  /// fail, for the general visit to handle.
  bool foldRow(llvm::ArrayRef<int64_t> outer, int64_t low, int64_t high,
               std::vector<Value> &accumulators, Scratch &scratch) const;

private:
  /// How an operand's elements become values of the result dtype.
  enum class Conversion {
    /// f32 elements, f32 or f64 result: exact.
    FromF32,
    /// f64 elements, f64 result.
    FromF64,
    /// f64 elements, f32 result: rounded to f32.
    F64ToF32,
    /// Anything else, through convertValue().
    Generic,
  };
  struct Operand {
    const HostTensor *tensor;
    Conversion conversion;
    /// How far its offset moves when the innermost variable grows by one.
    int64_t step;
  };

  StridedRows(const Contraction &contraction, DType resultType,
              llvm::ArrayRef<AccessPlan> accesses,
              llvm::ArrayRef<ConstraintPlan> constraints)
      : contraction(contraction), resultType(resultType), accesses(accesses),
        constraints(constraints) {}

  /// Whether every tuple of the row is valid: both of its ends are.
  bool rowIsValid(Scratch &scratch, int64_t low, int64_t high) const;
  /// The offset of access `index` at scratch.tuple (a valid tuple).
  int64_t offsetAt(size_t index, Scratch &scratch) const;
  /// Fills `values` with `count` elements of `operand` from `offset` on.
  void gather(const Operand &operand, int64_t offset, size_t count,
              double *values) const;
  /// Sets scratch.contributions from scratch.operandValues.
  void combine(size_t count, Scratch &scratch) const;
  /// Folds `count` contributions into the accumulators from `offset` on.
  void aggregate(size_t count, const double *contributions, int64_t offset,
                 std::vector<Value> &accumulators) const;

  const Contraction &contraction;
  DType resultType;
  llvm::ArrayRef<AccessPlan> accesses;
  llvm::ArrayRef<ConstraintPlan> constraints;
  std::vector<Operand> operands;
  /// How far the output offset moves along the innermost variable.
  int64_t outputStep = 0;
};

} // namespace interp
} // namespace tilec

#endif // TILEC_LIB_INTERPRETER_STRIDEDROWS_H
