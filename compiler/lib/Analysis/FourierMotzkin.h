//===- FourierMotzkin.h - Loop bounds by variable elimination ---*- C++ -*-===//
//
// Fourier–Motzkin elimination over integer inequalities `0 <= row`. Going
// from the innermost loop variable outwards, the inequalities that mention a
// variable become its bounds and their pairwise combinations (which no
// longer mention it) bound the variables outside it. Every inequality is
// thus enforced by the loop of its innermost variable, exactly; the
// combinations only keep outer loops finite.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_ANALYSIS_FOURIERMOTZKIN_H
#define TILEC_LIB_ANALYSIS_FOURIERMOTZKIN_H

#include "AffineRows.h"

#include "llvm/ADT/ArrayRef.h"

#include <map>
#include <string>

namespace tilec {
namespace indexspace {

/// Elimination stops with an error past this many inequalities at one level
/// rather than grow without bound.
constexpr size_t kMaxInequalities = 2000;

/// Inequalities `0 <= row` over integer variables, each tightened, with one
/// row per coefficient vector (the tightest one).
class InequalitySet {
public:
  /// Adds `0 <= row`. A constant row that fails makes the set infeasible.
  void add(QuasiAffine row);

  bool isInfeasible() const { return infeasible; }
  llvm::ArrayRef<QuasiAffine> getRows() const { return rows; }

private:
  std::vector<QuasiAffine> rows;
  std::map<std::vector<int64_t>, size_t> rowOfCoeffs;
  bool infeasible = false;
};

struct Elimination {
  /// bounds[k] bounds vars[k] by the coordinates and vars[0..k-1].
  std::vector<LoopBound> bounds;
  /// The inequalities left once every variable is eliminated. When they are
  /// infeasible, elimination stopped early and the bounds are incomplete.
  InequalitySet remaining;
  /// The eliminated variables that lack a lower or an upper bound.
  std::vector<unsigned> unbounded;
};

/// Eliminates `vars` from `inequalities`, innermost (last) first. Returns
/// false with `error` set when the inequalities grow past kMaxInequalities
/// or the arithmetic overflows.
bool eliminate(CheckedArithmetic &arith, InequalitySet inequalities,
               llvm::ArrayRef<unsigned> vars, Elimination &result,
               std::string &error);

} // namespace indexspace
} // namespace tilec

#endif // TILEC_LIB_ANALYSIS_FOURIERMOTZKIN_H
