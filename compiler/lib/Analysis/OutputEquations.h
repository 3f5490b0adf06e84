//===- OutputEquations.h - Solving poly_d(x) == o_d -------------*- C++ -*-===//
//
// Each output element fixes the value of every output polynomial. Gaussian
// elimination over the rationals (kept fraction-free on integer rows) solves
// as many index variables as the polynomials are independent; the others
// stay free and become loops.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_ANALYSIS_OUTPUTEQUATIONS_H
#define TILEC_LIB_ANALYSIS_OUTPUTEQUATIONS_H

#include "AffineRows.h"

#include "llvm/ADT/ArrayRef.h"

namespace tilec {
namespace indexspace {

struct OutputSolution {
  /// In the order of the output dimensions that determine them; each value
  /// only uses coordinates and non-pivot index variables.
  std::vector<Pivot> pivots;
  /// `expr == 0` over the coordinates, from dependent output polynomials.
  std::vector<QuasiAffine> coordinateEqualities;
  /// An equality that no integer coordinates satisfy (`O[1/2]`).
  bool infeasible = false;
};

/// Solves `outputRows[d] == o_d` for every output dimension d; the rows are
/// over [coordinates, indices] with zero coordinate coefficients. For each
/// equation in order, the pivot is the index variable whose solved value has
/// the smallest denominator (the first one on ties), so `C[i, j]` solves
/// i = o_0 and j = o_1 and `O[2*i + j]` solves j = o_0 - 2*i.
OutputSolution solveOutputEquations(CheckedArithmetic &arith,
                                    llvm::ArrayRef<QuasiAffine> outputRows,
                                    unsigned outputRank);

} // namespace indexspace
} // namespace tilec

#endif // TILEC_LIB_ANALYSIS_OUTPUTEQUATIONS_H
