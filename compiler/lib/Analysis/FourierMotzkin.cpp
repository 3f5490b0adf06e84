//===- FourierMotzkin.cpp - Loop bounds by variable elimination ----------===//

#include "FourierMotzkin.h"

#include <algorithm>
#include <cstdlib>

using namespace tilec;
using namespace tilec::indexspace;

void InequalitySet::add(QuasiAffine row) {
  tightenInequality(row);
  if (!hasTermsIn(row, 0, row.coeffs.size())) {
    if (row.constant < 0)
      infeasible = true;
    return;
  }
  auto [it, inserted] = rowOfCoeffs.try_emplace(row.coeffs, rows.size());
  if (inserted) {
    rows.push_back(std::move(row));
    return;
  }
  QuasiAffine &existing = rows[it->second];
  existing.constant = std::min(existing.constant, row.constant);
}

/// The bound of `var` that `0 <= row` gives: a * var + rest >= 0 reads
/// var >= -rest / a when a > 0 and var <= rest / -a when a < 0.
static QuasiAffine boundFromRow(CheckedArithmetic &arith,
                                const QuasiAffine &row, unsigned var) {
  int64_t coeff = row.coeffs[var];
  QuasiAffine bound = scaleNumerators(arith, coeff > 0 ? -1 : 1, row);
  bound.coeffs[var] = 0;
  bound.den = std::llabs(coeff);
  reduce(bound);
  return bound;
}

bool tilec::indexspace::eliminate(CheckedArithmetic &arith,
                                  InequalitySet inequalities,
                                  llvm::ArrayRef<unsigned> vars,
                                  Elimination &result, std::string &error) {
  result.bounds.assign(vars.size(), LoopBound());
  // An infeasible set stays infeasible: the caller ignores the bounds.
  for (unsigned level = vars.size();
       level-- > 0 && !inequalities.isInfeasible();) {
    unsigned var = vars[level];
    std::vector<const QuasiAffine *> lowerRows, upperRows;
    InequalitySet projected;
    for (const QuasiAffine &row : inequalities.getRows()) {
      if (row.coeffs[var] > 0)
        lowerRows.push_back(&row);
      else if (row.coeffs[var] < 0)
        upperRows.push_back(&row);
      else
        projected.add(row);
    }
    LoopBound &bound = result.bounds[level];
    for (const QuasiAffine *row : lowerRows)
      bound.lower.push_back(boundFromRow(arith, *row, var));
    for (const QuasiAffine *row : upperRows)
      bound.upper.push_back(boundFromRow(arith, *row, var));
    if (lowerRows.empty() || upperRows.empty())
      result.unbounded.push_back(var);

    // a * var + p >= 0 and -b * var + q >= 0 (a, b > 0) give b * p + a * q
    // >= 0: the real shadow, which outer loops need to stay finite.
    for (const QuasiAffine *lower : lowerRows) {
      for (const QuasiAffine *upper : upperRows) {
        projected.add(combineNumerators(arith, -upper->coeffs[var], *lower,
                                        lower->coeffs[var], *upper));
        if (projected.getRows().size() > kMaxInequalities) {
          error = "the index space needs more than " +
                  std::to_string(kMaxInequalities) +
                  " inequalities to describe";
          return false;
        }
      }
    }
    if (arith.overflowed()) {
      error = kOverflowMessage;
      return false;
    }
    inequalities = std::move(projected);
  }
  result.remaining = std::move(inequalities);
  return true;
}
