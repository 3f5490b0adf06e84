//===- OutputEquations.cpp - Solving poly_d(x) == o_d --------------------===//

#include "OutputEquations.h"

#include <cstdlib>
#include <optional>

using namespace tilec;
using namespace tilec::indexspace;

/// The denominator of `var` solved from the equation `row == 0`.
static int64_t solvedDenominator(const QuasiAffine &row, unsigned var) {
  int64_t content = row.constant;
  for (unsigned i = 0, e = row.coeffs.size(); i < e; ++i)
    if (i != var)
      content = gcd(content, row.coeffs[i]);
  return std::llabs(row.coeffs[var]) / gcd(content, row.coeffs[var]);
}

/// The index variable to solve `row == 0` for, if it has any.
static std::optional<unsigned> choosePivot(const QuasiAffine &row,
                                           unsigned outputRank) {
  std::optional<unsigned> best;
  int64_t bestDen = 0;
  for (unsigned var = outputRank, e = row.coeffs.size(); var < e; ++var) {
    if (row.coeffs[var] == 0)
      continue;
    int64_t den = solvedDenominator(row, var);
    if (!best || den < bestDen) {
      best = var;
      bestDen = den;
    }
  }
  return best;
}

/// Whether some integer coordinates satisfy `equality == 0`.
static bool hasIntegerSolution(const QuasiAffine &equality) {
  int64_t divisor = 0;
  for (int64_t coeff : equality.coeffs)
    divisor = gcd(divisor, coeff);
  if (divisor == 0)
    return equality.constant == 0;
  return equality.constant % divisor == 0;
}

OutputSolution
tilec::indexspace::solveOutputEquations(CheckedArithmetic &arith,
                                        llvm::ArrayRef<QuasiAffine> outputRows,
                                        unsigned outputRank) {
  // Equation d reads numerator(poly_d) - den(poly_d) * o_d == 0.
  std::vector<QuasiAffine> equations;
  for (unsigned d = 0; d < outputRank; ++d) {
    QuasiAffine equation = outputRows[d];
    equation.coeffs[d] = arith.check(-equation.den);
    normalizeEquality(equation);
    equations.push_back(std::move(equation));
  }

  std::vector<std::optional<unsigned>> pivotOf(outputRank);
  for (unsigned d = 0; d < outputRank; ++d) {
    pivotOf[d] = choosePivot(equations[d], outputRank);
    if (!pivotOf[d])
      continue;
    unsigned var = *pivotOf[d];
    int64_t pivotCoeff = equations[d].coeffs[var];
    for (unsigned other = 0; other < outputRank; ++other) {
      int64_t otherCoeff = equations[other].coeffs[var];
      if (other == d || otherCoeff == 0)
        continue;
      equations[other] = combineNumerators(arith, pivotCoeff, equations[other],
                                           -otherCoeff, equations[d]);
      normalizeEquality(equations[other]);
    }
    if (arith.overflowed())
      return {};
  }

  OutputSolution solution;
  for (unsigned d = 0; d < outputRank; ++d) {
    QuasiAffine &equation = equations[d];
    if (!pivotOf[d]) {
      if (!hasIntegerSolution(equation))
        solution.infeasible = true;
      else if (hasTermsIn(equation, 0, outputRank))
        solution.coordinateEqualities.push_back(equation);
      continue;
    }
    // c * x + rest == 0 gives x = -rest / c.
    unsigned var = *pivotOf[d];
    int64_t pivotCoeff = equation.coeffs[var];
    equation.coeffs[var] = 0;
    Pivot pivot;
    pivot.index = var - outputRank;
    pivot.value = scaleNumerators(arith, pivotCoeff > 0 ? -1 : 1, equation);
    pivot.value.den = std::llabs(pivotCoeff);
    reduce(pivot.value);
    solution.pivots.push_back(std::move(pivot));
  }
  return solution;
}
